/**
 * The browser half of the translator's replay test (e2e/translator-replay.spec.ts): each
 * capture URL fetched, opened by `readCapture` and replayed by `replayOnGpu` — the function
 * the Node GPU tests and `replay --engine gpu` use — on navigator.gpu's device, with the
 * vector bridge the interpreter loads. Each outcome is one line, printed by the Node tests'
 * own `outcomeLine` (`match`, `mismatch (…)`, `refused: reason`, `invalid: reason`), so the spec
 * compares it with the Node tables' verdict as text.
 *
 * A capture that breaks the device, throws (a GpuReplayError: the module did not compile or
 * dispatch), or runs past the time limit is reported as that capture's outcome (`device lost:`,
 * `error:`, `timed out:`), and the next capture gets a fresh device: one bad capture does not
 * hide the verdicts of the others. WebGPU errors no error scope caught are kept with the
 * capture they happened in.
 *
 * Use: `replay.html?capture=URL&capture=URL…` runs those and shows them; the spec calls
 * `window.__replay.run(urls)` and reads what it returns. D983's spec (e2e/d983.spec.ts) calls
 * `window.__replay.runSelected(url, variant)`: the capture's runtime-selected images, their
 * directory optionally rebuilt (places reordered, a record left out), with the slots the
 * translation made and the escapes the module recorded.
 */
import './style.css';
import { CaptureError } from '../host/capture/errors.ts';
import { readCapture } from '../host/capture/container.ts';
import { loadVectorBridge, type VectorBridge } from '../interp/vector-bridge.ts';
import { GuestMemory } from '../interp/memory.ts';
import {
  GpuReplayError,
  replayOnGpu,
  replayTranslated,
  SelectedImageEscapeError,
  translateCapture,
} from '../translator/gpu-replay.ts';
import type { SelectedSlotReport } from '../translator/selected-images.ts';
import type { SelectedImageForm } from '../translator/image-ops.ts';
import { RESOURCE_TABLE_FEATURE } from '../host/directory/resource-table.ts';
import { outcomeLine } from '../../test/translator/outcome-line.ts';
import { rebuiltSelected, type DirectoryVariant } from '../../test/translator/d983-variants.ts';

/** What `runSelected` gives: the outcome line, the slots' report, and the lanes that escaped. */
export interface SelectedRunOutcome {
  readonly line: string;
  readonly slots: readonly SelectedSlotReport[];
  readonly escapes: number;
  readonly escapedWords: readonly (readonly number[])[];
  /** Where the module read the selected images' texels (D026); undefined when it was not translated. */
  readonly form: SelectedImageForm | undefined;
}

export interface ReplayPageOutcome {
  readonly url: string;
  /** The outcome line (see above). */
  readonly line: string;
  /** Fetch, open and replay, wall clock. */
  readonly ms: number;
  /** WebGPU errors raised while this capture ran that no error scope caught. */
  readonly uncapturedErrors: readonly string[];
}

export interface ReplayPageApi {
  /** True once the device and the vector bridge are ready; `error` says why not when false. */
  readonly ready: boolean;
  readonly error?: string;
  readonly adapter?: string;
  /** Devices lost or replaced so far (each loss or timeout costs one). */
  readonly devicesCreated: number;
  run(urls: readonly string[]): Promise<ReplayPageOutcome[]>;
  /** The device's features that choose a form of selected images (D026): those of RESOURCE_TABLE_FEATURES it has. */
  readonly features?: readonly string[];
  /**
   * D983: one capture's runtime-selected images, its directory rebuilt by `variant` when given, read
   * in `form` (default: the texel store).
   */
  runSelected?(url: string, variant?: DirectoryVariant, form?: SelectedImageForm): Promise<SelectedRunOutcome>;
}

declare global {
  interface Window {
    __replay?: ReplayPageApi;
  }
}

/**
 * A capture that takes longer than this is reported as timed out and its device replaced. Generous:
 * SwiftShader takes minutes to compile some translated modules on a loaded machine.
 */
const DEFAULT_CAPTURE_TIMEOUT_MS = 300_000;

/** What the resource-table form of selected images needs of a device (D026). */
const RESOURCE_TABLE_FEATURES: readonly GPUFeatureName[] = ['subgroups', RESOURCE_TABLE_FEATURE as GPUFeatureName];

interface Held {
  readonly device: GPUDevice;
  /** Resolves with the loss's reason when the device is lost or destroyed. */
  readonly lost: Promise<string>;
  readonly uncaptured: string[];
}

const statusEl = document.getElementById('replay-status')!;
const rowsEl = document.getElementById('replay-outcomes')!;
const params = new URLSearchParams(location.search);
const captureTimeoutMs = Number(params.get('timeout_ms') ?? DEFAULT_CAPTURE_TIMEOUT_MS);

let adapter: GPUAdapter | undefined;
let held: Held | undefined;
let devicesCreated = 0;
let vector: VectorBridge | undefined;

async function device(): Promise<Held> {
  if (held) return held;
  if (!('gpu' in navigator) || !navigator.gpu)
    throw new Error('navigator.gpu is missing (not a secure context, or WebGPU is disabled)');
  // A fresh adapter for every device: an adapter gives one device only (WebGPU marks it
  // consumed), so the device that replaces a lost or timed-out one needs its own.
  const a = await navigator.gpu.requestAdapter();
  if (!a) throw new Error('requestAdapter() returned null (Chromium needs --enable-unsafe-webgpu here)');
  adapter = a;
  // The default limits, as Dawn for Node's device in the Node tests has: the same captures fit.
  // The resource table's feature and subgroups where the adapter offers both, so D983's tests can
  // run the resource-table form (D026) too; a replay asks for that form explicitly.
  const wanted = RESOURCE_TABLE_FEATURES.filter((f) => a.features.has(f));
  const d = await adapter.requestDevice({
    requiredFeatures: wanted.length === RESOURCE_TABLE_FEATURES.length ? wanted : [],
  });
  devicesCreated++;
  const uncaptured: string[] = [];
  d.onuncapturederror = (e) => void uncaptured.push(e.error.message);
  const h: Held = {
    device: d,
    uncaptured,
    lost: d.lost.then((info) => {
      if (held?.device === d) held = undefined;
      return `${info.reason}: ${info.message}`;
    }),
  };
  held = h;
  return h;
}

const describeError = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

async function replayUrl(url: string, d: GPUDevice): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) return `error: fetch ${url}: HTTP ${response.status} ${response.statusText}`;
  let capture;
  try {
    capture = await readCapture(new Uint8Array(await response.arrayBuffer()));
  } catch (e) {
    // As `replay` reports it: a capture that does not open is invalid input.
    if (e instanceof CaptureError) return `invalid: ${e.message}`;
    throw e;
  }
  try {
    return outcomeLine(await replayOnGpu(capture, d, { vector }));
  } catch (e) {
    if (e instanceof GpuReplayError) return `error: ${describeError(e)}`;
    throw e;
  }
}

async function replayOne(url: string): Promise<ReplayPageOutcome> {
  const t0 = performance.now();
  let h: Held;
  try {
    h = await device();
  } catch (e) {
    return { url, line: `error: no device: ${describeError(e)}`, ms: performance.now() - t0, uncapturedErrors: [] };
  }
  const before = h.uncaptured.length;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`timed out: no outcome after ${captureTimeoutMs} ms`), captureTimeoutMs);
  });
  const replay = replayUrl(url, h.device).catch((e: unknown) => `error: ${describeError(e)}`);
  const line = await Promise.race([replay, h.lost.then((why) => `device lost: ${why}`), timedOut]);
  clearTimeout(timer);
  if (line.startsWith('timed out: ')) {
    // The device may still be busy with this capture: the next one gets a fresh device.
    if (held === h) held = undefined;
    h.device.destroy();
  }
  return { url, line, ms: performance.now() - t0, uncapturedErrors: h.uncaptured.slice(before) };
}

function show(o: ReplayPageOutcome): void {
  const tr = document.createElement('tr');
  tr.dataset.outcome = o.line.split(/[ :]/, 1)[0];
  for (const text of [
    o.url,
    o.uncapturedErrors.length ? `${o.line} [${o.uncapturedErrors.join('; ')}]` : o.line,
    o.ms.toFixed(0),
  ]) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(td);
  }
  rowsEl.append(tr);
}

async function run(urls: readonly string[]): Promise<ReplayPageOutcome[]> {
  statusEl.dataset.state = 'running';
  const outcomes: ReplayPageOutcome[] = [];
  for (const [i, url] of urls.entries()) {
    statusEl.textContent = `running ${i + 1} of ${urls.length}: ${url}`;
    const o = await replayOne(url);
    outcomes.push(o);
    show(o);
  }
  statusEl.dataset.state = 'done';
  const matched = outcomes.filter((o) => o.line === 'match').length;
  statusEl.textContent = `done: ${outcomes.length} captures, ${matched} match`;
  return outcomes;
}

async function runSelected(
  url: string,
  variant?: DirectoryVariant,
  form?: SelectedImageForm,
): Promise<SelectedRunOutcome> {
  const { device: d } = await device();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetch ${url}: HTTP ${response.status} ${response.statusText}`);
  const capture = await readCapture(new Uint8Array(await response.arrayBuffer()));
  const t = translateCapture(capture, d, { vector, selectedImageForm: form });
  if ('kind' in t) return { line: outcomeLine(t), slots: [], escapes: 0, escapedWords: [], form: undefined };
  const selected = t.translation.selected;
  const translation =
    variant && selected
      ? { ...t.translation, selected: rebuiltSelected(selected, GuestMemory.fromCapture(capture), variant) }
      : t.translation;
  const o = await replayTranslated(capture, d, { ...t, translation });
  const escape = o.kind === 'refused' && o.error instanceof SelectedImageEscapeError ? o.error : undefined;
  return {
    line: outcomeLine(o),
    slots: selected?.report ?? [],
    escapes: escape?.count ?? 0,
    escapedWords: escape?.lanes.map((l) => l.words) ?? [],
    form: translation.selectedImageForm,
  };
}

async function start(): Promise<ReplayPageApi> {
  vector = await loadVectorBridge();
  const { device: d } = await device();
  const info = adapter?.info;
  const name = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ');
  return {
    ready: true,
    adapter: name,
    features: RESOURCE_TABLE_FEATURES.filter((f) => d.features.has(f)),
    get devicesCreated() {
      return devicesCreated;
    },
    run,
    runSelected,
  };
}

start()
  .catch((e: unknown): ReplayPageApi => ({
    ready: false,
    error: describeError(e),
    devicesCreated,
    run: () => Promise.reject(new Error(`the replay page did not start: ${describeError(e)}`)),
  }))
  .then(async (api) => {
    window.__replay = api;
    statusEl.dataset.state = api.ready ? 'ready' : 'failed';
    statusEl.textContent = api.ready ? `ready on ${api.adapter || 'an unnamed adapter'}` : `failed: ${api.error}`;
    const urls = params.getAll('capture');
    if (api.ready && urls.length > 0) await run(urls);
  });
