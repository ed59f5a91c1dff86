/**
 * The GPU run: a capture replayed on a WebGPU device through the translator (`replayOnGpu`,
 * D011), in the analysis worker where WebGPU is there (Chromium has navigator.gpu in dedicated
 * workers) or on the page otherwise. One device is held and asked for again after it is lost;
 * a loss during a run, a module that does not compile and a validation error end the run with
 * a `gpu-error` report, and the next run starts on a new device.
 */
import type { Capture } from '../host/capture/container.ts';
import type { VectorBridge } from '../interp/vector-bridge.ts';
import { GpuReplayError, replayOnGpu, SelectedImageEscapeError } from '../translator/gpu-replay.ts';
import { bufferComparisons } from './session.ts';
import type { GpuRunPlace, GpuRunReport, ProgressSink } from './worker-api.ts';

const now = (): number => performance.now();
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The adapter's name as its info gives it. */
export function adapterName(adapter: GPUAdapter): string {
  const info = adapter.info;
  return (
    [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ') || 'unnamed adapter'
  );
}

/** The device lost while a run waited on it. */
class DeviceLostDuringRun extends Error {
  override readonly name = 'DeviceLostDuringRun';
}

interface Held {
  readonly device: GPUDevice;
  readonly adapter: string;
  /** Resolves when the device is lost, with why. */
  readonly lost: Promise<string>;
}

export class GpuRunner {
  private held: Held | undefined;
  /** Why the last device was lost, until a run reports it. */
  private lostNote: string | undefined;

  constructor(
    private readonly place: GpuRunPlace,
    /** The page's run uses the Run view's device (gpu-panel.ts) instead of asking for its own. */
    private readonly given?: () => { device: GPUDevice; adapter: string } | undefined,
  ) {}

  /** Whether this context has WebGPU at all. */
  static available(): boolean {
    return typeof navigator !== 'undefined' && 'gpu' in navigator && !!navigator.gpu;
  }

  /** Destroys the held device (a test's lost device); false when none is held. */
  lose(): boolean {
    if (!this.held) return false;
    this.held.device.destroy();
    return true;
  }

  private async device(): Promise<Held | string> {
    if (this.held) return this.held;
    const given = this.given?.();
    if (given) return this.hold(given.device, given.adapter);
    if (!GpuRunner.available()) return `navigator.gpu is missing in the ${this.place}`;
    let adapter: GPUAdapter | null;
    try {
      adapter = await navigator.gpu.requestAdapter();
    } catch (e) {
      return `requestAdapter() failed: ${message(e)}`;
    }
    if (!adapter) return 'requestAdapter() returned no adapter: no GPU (or fallback) can be used here';
    // The translation uses the adapter's limits on workgroup size and storage (translate.ts).
    const wanted = [
      'maxComputeInvocationsPerWorkgroup',
      'maxComputeWorkgroupStorageSize',
      'maxStorageBufferBindingSize',
      'maxBufferSize',
      'maxComputeWorkgroupSizeX',
    ] as const;
    const requiredLimits: Record<string, number> = {};
    for (const k of wanted) requiredLimits[k] = adapter.limits[k];
    try {
      return this.hold(await adapter.requestDevice({ requiredLimits }), adapterName(adapter));
    } catch (e) {
      return `requestDevice() failed: ${message(e)}`;
    }
  }

  private hold(device: GPUDevice, adapter: string): Held {
    const lost = device.lost.then((info) => {
      const why = `${info.reason}${info.message ? `: ${info.message}` : ''}`;
      if (this.held?.device === device) {
        this.held = undefined;
        this.lostNote = why;
      }
      return why;
    });
    this.held = { device, adapter, lost };
    return this.held;
  }

  async run(
    capture: Pick<Capture, 'manifest' | 'blob'>,
    vector: VectorBridge | undefined,
    progress: ProgressSink,
  ): Promise<GpuRunReport> {
    const place = this.place;
    const t0 = now();
    progress(`getting a WebGPU device (in the ${place})`);
    const held = await this.device();
    const deviceMs = now() - t0;
    if (typeof held === 'string') {
      if (!GpuRunner.available() && !this.given) return { kind: 'no-webgpu-here', place, reason: held };
      return { kind: 'gpu-error', place, ms: deviceMs, reason: held };
    }
    const lostBefore = this.lostNote;
    this.lostNote = undefined;
    const before = lostBefore ? { lostBefore } : {};
    progress('translating, uploading guest memory, dispatching every group on the GPU');
    const t1 = now();
    let o;
    try {
      o = await Promise.race([
        replayOnGpu(capture, held.device, { vector }),
        held.lost.then((why) => {
          throw new DeviceLostDuringRun(`the GPU device was lost during the run (${why})`);
        }),
      ]);
    } catch (e) {
      const ms = now() - t1;
      if (e instanceof DeviceLostDuringRun) return { kind: 'gpu-error', place, ms, reason: e.message };
      if (e instanceof GpuReplayError) return { kind: 'gpu-error', place, ms, reason: `${e.name}: ${e.message}` };
      // Dawn reports a device destroyed or lost mid-run as a rejected map or a failed operation.
      if (!this.held || this.held.device !== held.device)
        return { kind: 'gpu-error', place, ms, reason: `the GPU device was lost during the run: ${message(e)}` };
      throw e;
    }
    const ms = now() - t1;
    if (o.kind === 'refused' || o.kind === 'invalid') {
      // The module's escapes refuse the result; their lanes and words go to the Tables view (tables-view.ts).
      const escape = o.kind === 'refused' && o.error instanceof SelectedImageEscapeError ? o.error : undefined;
      const escapes = escape && {
        count: escape.count,
        lanes: escape.lanes.map((l) => ({ ...l, group: [...l.group] as const, words: [...l.words] })),
        bySlot: [...escape.bySlot],
      };
      return {
        kind: o.kind,
        place,
        adapter: held.adapter,
        ms,
        reason: o.reason,
        ...before,
        ...(escapes ? { escapes } : {}),
      };
    }
    progress('comparing the device’s memory with the expected result');
    const memory = o.memory;
    const c = o.compare;
    return {
      kind: o.kind,
      place,
      adapter: held.adapter,
      ms,
      deviceMs,
      steps: o.run.steps,
      groups: o.run.groups,
      waves: o.run.waves,
      rangesCompared: c.rangesCompared,
      bytesCompared: c.bytesCompared,
      rangesNotCompared: c.rangesNotCompared,
      mismatchCount: c.mismatchCount,
      mismatches: c.mismatches,
      ...(memory ? { buffers: bufferComparisons(capture, (address, size) => memory.peek(address, size) ?? null) } : {}),
      ...before,
    };
  }
}
