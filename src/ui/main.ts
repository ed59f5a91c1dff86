/**
 * The app shell: a capture loader (the bundled captures, `?capture=` for a file served with
 * the app, the file picker, drag and drop), a progress line with a Stop button, an error
 * banner, and the five views as tabs. All long work happens in the analysis worker
 * (worker.ts, through worker-client.ts); the page only renders what comes back. A file that
 * fails to open is reported and the last good capture stays open.
 */
import './style.css';
import { el } from './dom.ts';
import { readCapture } from '../host/capture/container.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { GpuPanel } from './gpu-panel.ts';
import { GpuRunner } from './gpu-runner.ts';
import {
  acceptDrops,
  bundledCaptures,
  defaultCapture,
  fetchServed,
  LoadError,
  readLocalFile,
  type BundledCapture,
  type LoadedFile,
} from './loader.ts';
import { linkInstructionsToWgsl, ModulesView } from './modules-view.ts';
import { annotateOrigins } from './origins-view.ts';
import type { RenderedListing } from './listing-view.ts';
import { renderProgramView } from './program-view.ts';
import { RunView } from './run-view.ts';
import { StepView } from './step-view.ts';
import { TablesView } from './tables-view.ts';
import { makeTabs } from './tabs.ts';
import { AnalysisClient, SPIRV_JOB, WorkerFailure, type Busy } from './worker-client.ts';
import type { CaptureSummary, NamedError, SpirvStatus } from './worker-api.ts';

declare global {
  interface Window {
    /** For the console and the e2e tests: the GPU device the Run view holds, if any. */
    __gcnApp?: {
      readonly gpuDevice: () => GPUDevice | undefined;
      /** Destroys the GPU device of the GPU run (the worker's, or the page's where the page runs it). */
      readonly loseRunDevice: () => Promise<boolean>;
    };
  }
}

const VIEWS = [
  { id: 'program', label: 'Program' },
  { id: 'modules', label: 'Modules' },
  { id: 'run', label: 'Run' },
  { id: 'step', label: 'Step' },
  { id: 'tables', label: 'Tables and directory' },
] as const;

function errorOf(e: unknown): NamedError {
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}

class App {
  private readonly bundledSelect = el('select', { id: 'bundled', 'data-testid': 'bundled' });
  private readonly openBundled = el('button', { type: 'button', text: 'Open', 'data-testid': 'open-bundled' });
  private readonly fileInput = el('input', {
    id: 'file',
    type: 'file',
    accept: '.gcncap,application/zip,application/octet-stream',
    'data-testid': 'file-input',
  });
  private readonly current = el('p', { class: 'current', 'data-testid': 'capture-name', text: 'no capture open' });
  private readonly statusText = el('span', { text: 'starting…' });
  private readonly stopButton = el('button', { type: 'button', text: 'Stop', 'data-testid': 'stop', hidden: '' });
  private readonly errorText = el('p');
  private readonly errorBox = el(
    'div',
    { class: 'error-banner', role: 'alert', 'data-testid': 'error', hidden: '' },
    el('strong', { text: 'Problem: ' }),
    this.errorText,
  );
  private readonly dropIndicator = el('div', {
    class: 'drop-indicator',
    hidden: '',
    text: 'Drop the file to open it as a capture',
  });
  private readonly tabs = makeTabs(VIEWS, 'views');
  private readonly gpu = new GpuPanel();
  private readonly client: AnalysisClient;
  private readonly run: RunView;
  private readonly step: StepView;
  private readonly modules: ModulesView;
  private readonly tables: TablesView;
  private listing: RenderedListing | undefined;
  private summary: CaptureSummary | undefined;
  private bundled: BundledCapture[] = [];
  /** The page's GPU run, made only where the worker has no WebGPU. */
  private pageGpu: GpuRunner | undefined;
  private busyTimer: number | undefined;
  private lastBusy: Busy | undefined;
  /** The SPIR-V of the open capture: not asked for yet (made when the Modules view is first shown), asked, or shown. */
  private spirvState: 'no-module' | 'not-asked' | 'asked' | 'shown' = 'no-module';

  constructor(root: HTMLElement) {
    this.client = new AnalysisClient(
      () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'gcn-webgpu analysis' }),
      (b) => this.onBusy(b),
    );
    const panel = (id: string): HTMLElement => this.tabs.panels.get(id)!;
    this.run = new RunView(
      panel('run'),
      this.gpu,
      () => void this.replay(),
      () => void this.gpuReplay(),
      () => void this.replay().then(() => this.gpuReplay()),
    );
    this.step = new StepView(panel('step'), (command, focus) => this.client.step(command, focus));
    renderProgramView(panel('program'), undefined, undefined);
    this.modules = new ModulesView(panel('modules'), (offset) => this.showInstruction(offset));
    this.tables = new TablesView(
      panel('tables'),
      (slot, index) => this.client.directorySlot(slot, index),
      () => this.client.escapes(),
    );

    const dismiss = el('button', { type: 'button', text: 'Dismiss', class: 'dismiss' });
    dismiss.addEventListener('click', () => this.clearError());
    this.errorBox.append(dismiss);

    root.replaceChildren(
      el(
        'header',
        {},
        el('h1', { text: 'gcn-webgpu' }),
        el('p', {
          class: 'tagline',
          text: 'Decode, trace, translate and run captured AMD GCN/RDNA compute dispatches on WebGPU.',
        }),
      ),
      el(
        'section',
        { class: 'loader controls', 'aria-label': 'open a capture' },
        el('label', { for: 'bundled', text: 'bundled capture ' }),
        this.bundledSelect,
        this.openBundled,
        el('label', { for: 'file', text: 'or open a .gcncap file ' }),
        this.fileInput,
        el('span', { class: 'note', text: 'or drop one anywhere on the page' }),
      ),
      this.current,
      el('p', { class: 'status', role: 'status', 'data-testid': 'status' }, this.statusText, ' ', this.stopButton),
      this.errorBox,
      this.tabs.list,
      ...this.tabs.panels.values(),
      this.dropIndicator,
    );

    this.openBundled.addEventListener('click', () => {
      const c = this.bundled[Number(this.bundledSelect.value)];
      if (c) void this.load(() => fetchServed(c.file));
    });
    this.fileInput.addEventListener('change', () => {
      const f = this.fileInput.files?.[0];
      if (f) void this.load(() => readLocalFile(f));
      this.fileInput.value = ''; // the same file chosen again opens again
    });
    acceptDrops(document.body, this.dropIndicator, (f) => void this.load(() => readLocalFile(f)));
    this.stopButton.addEventListener('click', () => {
      this.client.stop();
      this.step.reset(); // the stepper lived in the worker that was ended
    });
    this.tabs.onSelect((id) => {
      if (id === 'step') this.step.shown();
      if (id === 'modules') void this.readSpirv();
    });
    window.__gcnApp = {
      gpuDevice: () => this.gpu.device,
      loseRunDevice: async () => (this.pageGpu ? this.pageGpu.lose() : this.client.loseGpuDevice()),
    };
  }

  async start(): Promise<void> {
    void this.gpu.connect();
    try {
      this.bundled = await bundledCaptures();
      this.bundledSelect.replaceChildren(
        ...this.bundled.map((c, i) => el('option', { value: String(i), text: `${c.title} (${c.file})` })),
      );
    } catch (e) {
      this.showError(`The bundled captures are not available: ${errorOf(e).message}`);
    }
    const asked = new URLSearchParams(location.search).get('capture');
    const first = asked ?? defaultCapture(this.bundled)?.file;
    if (first === undefined) {
      this.statusText.textContent = 'no capture is bundled: open a .gcncap file';
      document.body.dataset.ready = 'true';
      return;
    }
    const index = this.bundled.findIndex((c) => c.file === first);
    if (index >= 0) this.bundledSelect.value = String(index);
    await this.load(() => fetchServed(first));
  }

  private async load(get: () => Promise<LoadedFile>): Promise<void> {
    document.body.dataset.ready = 'loading';
    let file: LoadedFile;
    try {
      this.statusText.textContent = 'fetching…';
      file = await get();
    } catch (e) {
      this.failedToOpen(e instanceof LoadError ? e.message : `${errorOf(e).name}: ${errorOf(e).message}`);
      return;
    }
    let r;
    try {
      r = await this.client.open(file.bytes, file.name);
    } catch (e) {
      this.failedToOpen(`${file.name}: ${errorOf(e).message}`);
      return;
    }
    if (!r.ok) {
      const e = r.error;
      this.failedToOpen(`${file.name} is not a capture this app can open: ${e.code ? '' : `${e.name}: `}${e.message}`);
      return;
    }
    this.clearError();
    const { summary, program } = r.value;
    this.summary = summary;
    this.current.textContent = `${summary.name}: ${summary.mcpu} (${summary.gen}) wave${summary.wave64 ? 64 : 32}, ${summary.dispatchKind} dispatch, ${summary.fileBytes} bytes${summary.redacted ? ', redacted' : ''}`;
    document.body.dataset.capture = summary.name;
    this.listing = renderProgramView(this.tabs.panels.get('program')!, summary, program);
    this.tables.render(summary);
    this.run.reset(summary);
    this.step.reset();
    this.spirvState = 'no-module';
    if (this.tabs.selected === 'step') this.step.shown();
    const opened = `opened ${summary.name} (read and checked in ${summary.readMs.toFixed(1)} ms)`;
    this.statusText.textContent = opened;
    // The views are usable now; the translation fills the Modules view behind them.
    document.body.dataset.ready = 'true';
    document.body.dataset.tables = 'waiting'; // read after the translation, in the same worker
    // The benchmark (e2e/bench) times the first of these from the server's answer.
    performance.mark('gcn-webgpu:interactive');
    await this.translate();
    await this.readTables();
    if (this.summary === summary) this.statusText.textContent = opened;
  }

  /** Fills the Modules view from the worker's translation, and links the program's instructions to it. */
  private async translate(): Promise<void> {
    this.modules.render(undefined, true);
    document.body.dataset.modules = 'translating';
    document.body.dataset.spirv = 'waiting';
    try {
      const r = await this.client.modules();
      if (!r.ok) {
        this.modules.failed(r.error);
      } else {
        this.modules.render(r.value);
        this.spirvState = 'not-asked';
        if (r.value.kind === 'modules' && this.listing)
          linkInstructionsToWgsl(this.listing.items, r.value.blocks, (block) => {
            this.tabs.select('modules');
            this.modules.showBlock(block);
          });
      }
    } catch (e) {
      this.modules.failed(errorOf(e));
    }
    document.body.dataset.modules = 'done';
    performance.mark('gcn-webgpu:modules');
    if (this.tabs.selected === 'modules') void this.readSpirv();
  }

  /**
   * The SPIR-V panel's text, asked for the first time the Modules view shows a module (D021):
   * nothing else waits for it. A worker failure is shown, and the next showing asks again.
   */
  private async readSpirv(): Promise<void> {
    if (this.spirvState !== 'not-asked') return;
    const summary = this.summary;
    this.spirvState = 'asked';
    document.body.dataset.spirv = 'reading';
    this.modules.spirvReading('waiting for the analysis worker…');
    let r: SpirvStatus | NamedError;
    try {
      const o = await this.client.spirv();
      r = o.ok ? o.value : o.error;
    } catch (e) {
      r = errorOf(e);
    }
    if (this.summary !== summary || this.spirvState !== 'asked') return; // another capture opened meanwhile
    this.modules.showSpirv(r);
    this.spirvState = 'kind' in r ? 'shown' : 'not-asked';
    document.body.dataset.spirv = 'done';
    performance.mark('gcn-webgpu:spirv');
  }

  /** Fills the Tables view's texture slots and directories from the worker. */
  private async readTables(): Promise<void> {
    document.body.dataset.tables = 'reading';
    try {
      const r = await this.client.tables();
      if (r.ok) {
        this.tables.setTables(r.value);
        if (this.listing)
          annotateOrigins(this.listing.items, r.value.origins, (slot) => {
            this.tabs.select('tables');
            this.tables.highlightSlot(slot);
          });
      } else this.tables.failed(r.error);
    } catch (e) {
      this.tables.failed(errorOf(e));
    }
    document.body.dataset.tables = 'done';
    performance.mark('gcn-webgpu:tables');
  }

  /** Selects the Program view and focuses the instruction at `offset` (a link from the WGSL). */
  private showInstruction(offset: number): void {
    const item = this.listing?.items.get(offset);
    this.tabs.select('program');
    if (!item) return;
    for (const old of item.parentElement?.querySelectorAll('.target') ?? []) old.classList.remove('target');
    item.classList.add('target');
    item.tabIndex = -1;
    item.scrollIntoView({ block: 'center' });
    item.focus({ preventScroll: true });
  }

  private failedToOpen(message: string): void {
    const still = this.summary ? ` ${this.summary.name} is still open.` : '';
    this.showError(`${message}${still}`);
    this.statusText.textContent = 'the last file did not open';
    document.body.dataset.ready = 'error';
  }

  private async replay(): Promise<void> {
    this.run.running();
    try {
      const r = await this.client.replay();
      if (r.ok) this.run.show(r.value);
      else this.run.failed(r.error);
      if (r.ok) await this.tables.afterRun();
    } catch (e) {
      this.run.failed(errorOf(e));
      if (e instanceof WorkerFailure && e.stopped) this.step.reset();
    }
  }

  /**
   * The GPU run: in the worker, which holds its own device; where the worker has no WebGPU,
   * on the page with the Run view's device (the capture read again here, once a run).
   */
  private async gpuReplay(): Promise<void> {
    this.run.gpuRunning();
    try {
      if (!this.pageGpu) {
        const r = await this.client.gpuReplay();
        if (!r.ok) return this.run.gpuFailed(r.error);
        if (r.value.kind !== 'no-webgpu-here') return this.run.showGpu(r.value);
        this.pageGpu = new GpuRunner('page', () => {
          const device = this.gpu.device;
          return device ? { device, adapter: this.gpu.adapterName } : undefined;
        });
      }
      const last = this.client.lastCapture;
      if (!last) return this.run.gpuFailed({ name: 'NoCapture', message: 'no capture is open' });
      this.statusText.textContent = 'running on WebGPU on the page (the worker has no WebGPU)…';
      const capture = await readCapture(last.bytes);
      this.run.showGpu(await this.pageGpu.run(capture, await loadVectorBridge(), () => {}));
    } catch (e) {
      this.run.gpuFailed(errorOf(e));
      if (e instanceof WorkerFailure && e.stopped) this.step.reset();
    }
  }

  private onBusy(b: Busy | undefined): void {
    this.run.setBusy(!!b);
    this.step.setBusy(!!b);
    this.openBundled.disabled = !!b;
    this.stopButton.hidden = !b;
    window.clearInterval(this.busyTimer);
    this.busyTimer = undefined;
    if (!b) {
      const last = this.lastBusy;
      if (last)
        this.statusText.textContent = `${last.label}: ended after ${((performance.now() - last.since) / 1000).toFixed(1)} s`;
      this.lastBusy = undefined;
      document.body.dataset.busy = 'false';
      return;
    }
    this.lastBusy = b;
    document.body.dataset.busy = 'true';
    const show = (): void => {
      const s = (performance.now() - b.since) / 1000;
      this.statusText.textContent = `${b.label}${b.progress ? `: ${b.progress}` : ''}… ${s.toFixed(1)} s`;
      // The SPIR-V panel shows its own job's progress where the text will be.
      if (this.spirvState === 'asked' && b.label === SPIRV_JOB)
        this.modules.spirvReading(`${b.progress || b.label}… ${s.toFixed(1)} s`);
    };
    show();
    this.busyTimer = window.setInterval(show, 250);
  }

  private showError(message: string): void {
    this.errorText.textContent = message;
    this.errorBox.hidden = false;
  }

  private clearError(): void {
    this.errorBox.hidden = true;
    this.errorText.textContent = '';
  }
}

const root = document.getElementById('app');
if (root) {
  const app = new App(root);
  app.start().catch((e: unknown) => {
    console.error(e);
    root.prepend(
      el('p', { class: 'error-banner', role: 'alert', text: `The app failed to start: ${errorOf(e).message}` }),
    );
    document.body.dataset.ready = 'error';
  });
}
