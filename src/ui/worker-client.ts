/**
 * The page's side of the analysis worker: one job at a time, each with a label and its
 * progress lines, any of which the person may stop. Stopping ends the worker (a long
 * interpretation cannot be interrupted otherwise) and starts a fresh one, which is given the
 * last capture that opened before its next job. A worker that fails to load or crashes rejects
 * the job in flight with a `WorkerFailure` instead of leaving it waiting forever.
 */
import * as Comlink from 'comlink';
import type {
  AnalysisApi,
  CaptureSummary,
  DirectorySlotDetail,
  EscapesReport,
  GpuRunReport,
  TablesReport,
  ModulesStatus,
  Outcome,
  ProgramView,
  ProgressSink,
  RunReport,
  SpirvStatus,
  StepCommand,
  StepFocus,
  StepSnapshot,
} from './worker-api.ts';

/** The worker could not load, crashed, or was stopped: the job did not finish. */
export class WorkerFailure extends Error {
  override readonly name = 'WorkerFailure';
  constructor(
    message: string,
    readonly stopped = false,
  ) {
    super(message);
  }
}

/** The label of the SPIR-V job, by which the page knows its progress lines. */
export const SPIRV_JOB = 'reading the WGSL into SPIR-V';

export interface Busy {
  readonly label: string;
  readonly since: number;
  readonly progress: string;
}

interface Live {
  readonly worker: Worker;
  readonly api: Comlink.Remote<AnalysisApi>;
  /** Rejects when the worker fails or is stopped. */
  readonly failed: Promise<never>;
  fail(e: WorkerFailure): void;
  /** The capture this worker has open (by identity of the bytes given to `open`). */
  opened?: Uint8Array;
}

export class AnalysisClient {
  private live: Live;
  private last: { bytes: Uint8Array; name: string } | undefined;
  private busy: Busy | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly makeWorker: () => Worker,
    private readonly onBusy: (busy: Busy | undefined) => void,
  ) {
    this.live = this.start();
  }

  private start(): Live {
    const worker = this.makeWorker();
    let fail!: (e: WorkerFailure) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => {}); // observed by the jobs racing it
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      fail(
        new WorkerFailure(
          `the analysis worker failed${e.message ? `: ${e.message}` : ' to load (its script or one of its modules could not be fetched or run)'}`,
        ),
      );
    });
    worker.addEventListener('messageerror', () =>
      fail(new WorkerFailure('a message from the analysis worker could not be read')),
    );
    return { worker, api: Comlink.wrap<AnalysisApi>(worker), failed, fail };
  }

  /** Ends the worker and whatever it is doing; the next job starts a fresh one. */
  stop(): void {
    const old = this.live;
    old.worker.terminate();
    old.fail(new WorkerFailure('stopped: the analysis worker was ended; its stepper state is lost', true));
    this.live = this.start();
  }

  get current(): Busy | undefined {
    return this.busy;
  }

  /** Runs jobs one after another; each races the worker's failure. */
  private job<T>(
    label: string,
    needsCapture: boolean,
    f: (api: Comlink.Remote<AnalysisApi>, sink: ProgressSink) => Promise<T>,
  ): Promise<T> {
    const run = async (): Promise<T> => {
      this.busy = { label, since: performance.now(), progress: '' };
      this.onBusy(this.busy);
      const sink: ProgressSink = (message) => {
        if (!this.busy) return;
        this.busy = { ...this.busy, progress: message };
        this.onBusy(this.busy);
      };
      const live = this.live;
      try {
        if (needsCapture && this.last && live.opened !== this.last.bytes) {
          const { bytes, name } = this.last;
          sink(`re-reading ${name} in the new worker`);
          const r = await Promise.race([live.api.open(bytes.slice(), name, Comlink.proxy(sink)), live.failed]);
          if (!r.ok) throw new WorkerFailure(`${name} could not be re-read: ${r.error.message}`);
          live.opened = bytes;
        }
        return await Promise.race([f(live.api, Comlink.proxy(sink)), live.failed]);
      } finally {
        this.busy = undefined;
        this.onBusy(undefined);
      }
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  /** Opens a capture; on success it becomes the one later jobs work on. */
  open(bytes: Uint8Array, name: string): Promise<Outcome<{ summary: CaptureSummary; program: ProgramView }>> {
    return this.job(`opening ${name}`, false, async (api, sink) => {
      const live = this.live;
      const r = await api.open(bytes.slice(), name, sink);
      if (r.ok) {
        this.last = { bytes, name };
        live.opened = bytes;
      }
      return r;
    });
  }

  replay(): Promise<Outcome<RunReport>> {
    return this.job<Outcome<RunReport>>('running on the interpreter', true, (api, sink) => api.replay(sink));
  }

  step(command: StepCommand, focus: StepFocus): Promise<Outcome<StepSnapshot>> {
    return this.job<Outcome<StepSnapshot>>(`stepping (${command.kind})`, true, (api) => api.step(command, focus));
  }

  gpuReplay(): Promise<Outcome<GpuRunReport>> {
    return this.job<Outcome<GpuRunReport>>('running on WebGPU', true, (api, sink) => api.gpuReplay(sink));
  }

  tables(): Promise<Outcome<TablesReport>> {
    return this.job<Outcome<TablesReport>>('reading the descriptor tables', true, (api, sink) => api.tables(sink));
  }

  directorySlot(slot: string, index: number): Promise<Outcome<DirectorySlotDetail>> {
    return this.job<Outcome<DirectorySlotDetail>>(`opening directory slot ${index}`, true, (api) =>
      api.directorySlot(slot, index),
    );
  }

  escapes(): Promise<Outcome<EscapesReport>> {
    return this.job<Outcome<EscapesReport>>('listing the escapes', true, (api) => api.escapes());
  }

  /** Destroys the worker's GPU device (tests, the console); false when it holds none. */
  loseGpuDevice(): Promise<boolean> {
    return this.live.api.loseGpuDevice();
  }

  /** The bytes and name of the capture that opened last (the page's own GPU run reads them). */
  get lastCapture(): { readonly bytes: Uint8Array; readonly name: string } | undefined {
    return this.last;
  }

  modules(): Promise<Outcome<ModulesStatus>> {
    return this.job<Outcome<ModulesStatus>>('translating to WGSL', true, (api, sink) => api.modules(sink));
  }

  spirv(): Promise<Outcome<SpirvStatus>> {
    return this.job<Outcome<SpirvStatus>>(SPIRV_JOB, true, (api, sink) => api.spirv(sink));
  }
}
