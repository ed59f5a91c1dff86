/**
 * The analysis worker: reading a capture, disassembling, interpreting and stepping happen
 * here, off the page's thread, so the page never freezes. comlink exposes `AnalysisApi`
 * (worker-api.ts); the work itself is session.ts. One capture is current at a time; a file
 * that fails to open leaves the last good one current.
 */
import * as Comlink from 'comlink';
// The spirv-tools WebAssembly as Vite serves it (dev) and emits it (build); Node reads it from the package.
import spirvToolsWasmUrl from 'spirv-tools/dist/web/spirv-tools.wasm?url';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { GpuRunner } from './gpu-runner.ts';
import { CaptureSession, namedError } from './session.ts';
import type { AnalysisApi, Outcome, ProgressSink, StepCommand, StepFocus } from './worker-api.ts';

const vector = loadVectorBridge();
let session: CaptureSession | undefined;
/** The worker's own WebGPU device, asked for on the first GPU run. */
const gpu = new GpuRunner('worker');

const NO_CAPTURE: Outcome<never> = {
  ok: false,
  error: { name: 'NoCapture', message: 'no capture is open' },
};

/** Runs `f`, turning what it throws into a named error value (comlink would keep only the message). */
async function outcome<T>(f: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    console.error(e);
    return { ok: false, error: namedError(e) };
  }
}

/** Progress lines go back without waiting for the page (the work goes on meanwhile). */
function sink(progress: ProgressSink): ProgressSink {
  return (message) => void Promise.resolve(progress(message)).catch(() => {});
}

const api: AnalysisApi = {
  async open(bytes, name, progress) {
    const r = await outcome(async () => CaptureSession.open(bytes, name, await vector, sink(progress)));
    if (!r.ok) return r;
    session = r.value;
    return { ok: true, value: { summary: session.summary, program: session.program } };
  },

  async replay(progress) {
    const s = session;
    if (!s) return NO_CAPTURE;
    return outcome(() => s.replay(sink(progress)));
  },

  async step(command: StepCommand, focus: StepFocus) {
    const s = session;
    if (!s) return NO_CAPTURE;
    const r = await outcome(() => s.step(command, focus));
    if (!r.ok) return r;
    const v = r.value;
    if ('refused' in v) return { ok: false, error: { name: 'InterpRefusal', message: v.refused } };
    return { ok: true, value: v };
  },

  async modules(progress) {
    const s = session;
    if (!s) return NO_CAPTURE;
    return outcome(() => s.modules(sink(progress)));
  },

  async spirv(progress) {
    const s = session;
    if (!s) return NO_CAPTURE;
    return outcome(() => s.spirv(sink(progress), { wasmUrl: spirvToolsWasmUrl }));
  },

  async gpuReplay(progress) {
    const s = session;
    if (!s) return NO_CAPTURE;
    const v = await vector;
    return outcome(() => gpu.run(s.capture, v, sink(progress)));
  },

  async tables(progress) {
    const s = session;
    if (!s) return NO_CAPTURE;
    return outcome(() => s.tables(sink(progress)));
  },

  async directorySlot(slot, index) {
    const s = session;
    if (!s) return NO_CAPTURE;
    return outcome(() => {
      const d = s.directorySlot(slot, index);
      return Comlink.transfer(
        d,
        d.thumbnails.map((t) => t.rgba.buffer as ArrayBuffer),
      );
    });
  },

  async escapes() {
    const s = session;
    if (!s) return NO_CAPTURE;
    return outcome(() => s.escapes());
  },

  async loseGpuDevice() {
    return gpu.lose();
  },
};

Comlink.expose(api);
