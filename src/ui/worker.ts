/**
 * The analysis worker: reading a capture, disassembling, interpreting and stepping happen
 * here, off the page's thread, so the page never freezes. comlink exposes `AnalysisApi`
 * (worker-api.ts); the work itself is session.ts. One capture is current at a time; a file
 * that fails to open leaves the last good one current.
 */
import * as Comlink from 'comlink';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { CaptureSession, namedError } from './session.ts';
import type { AnalysisApi, ModulesStatus, Outcome, ProgressSink, StepCommand, StepFocus } from './worker-api.ts';

const vector = loadVectorBridge();
let session: CaptureSession | undefined;

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

  async modules(): Promise<ModulesStatus> {
    return {
      kind: 'not-connected',
      reason:
        'The translator (src/translator) is not connected to the app yet: no WGSL or SPIR-V module is made here, so none is shown.',
    };
  },
};

Comlink.expose(api);
