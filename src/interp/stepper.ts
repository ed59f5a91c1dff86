/**
 * A dispatch stepped from outside the interpreter, one instruction of one wave at a time (the
 * app's Step view). It is the whole-dispatch run of dispatch.ts taken apart, nothing more: the
 * same `Program` (and its pre-dispatch scan), the same `Executor.step` (on the shared
 * semantics, never the compiled ALU's run-ahead), the same waves from `groupWaves`, groups in
 * grid order, LDS per group. What it adds is the caller's choice of
 * which wave steps next, and refusals returned as values so the waves stay inspectable.
 *
 * A barrier behaves as in `Executor.runGroup`: a wave that has executed `s_barrier` waits
 * until every live wave of its group has arrived, then all of them go on.
 */
import type { Capture } from '../host/capture/container.ts';
import { Pm4Error } from '../host/pm4/command-processor.ts';
import { UnknownProcessorError } from '../isa/gen.ts';
import { SemanticsRefusal } from '../semantics/context.ts';
import {
  groupWaves,
  InvalidDispatch,
  LDS_GRANULE_BYTES,
  setupFromCapture,
  waveLayout,
  type DispatchSetup,
  type Setup,
} from './dispatch.ts';
import { Executor, InterpRefusal, Program, type ExecOptions, type Group } from './execute.ts';
import { GuestFault, GuestMemory } from './memory.ts';
import { Wave } from './wave.ts';

/** What one stepping call did. */
export type StepEvent =
  /** The wave ran the instruction at `pc` (a byte offset from the program's base). */
  | { readonly kind: 'stepped'; readonly wave: number; readonly pc: number }
  /** The wave waits at an s_barrier for other waves of its group; nothing ran. */
  | { readonly kind: 'waiting'; readonly wave: number; readonly for: readonly number[] }
  /** The wave has ended (s_endpgm, or a program capture's `end`); nothing ran. */
  | { readonly kind: 'wave-done'; readonly wave: number }
  /** One round over the group: `stepped` waves ran an instruction. */
  | { readonly kind: 'round'; readonly stepped: number }
  /** Every wave of the current group has ended. */
  | { readonly kind: 'group-done' }
  /** Every group of the grid has run. */
  | { readonly kind: 'dispatch-done' }
  /** The interpreter refused (or a guest fault): the dispatch cannot go on. */
  | { readonly kind: 'refused'; readonly reason: string };

/** Why a run cannot go on, as replay.ts sorts it: a refusal (exit 2) or invalid input (exit 3). */
export interface RunStop {
  readonly kind: 'refused' | 'invalid';
  readonly reason: string;
}

/** Sorts an error a run throws as replay.ts does; undefined for an error that is a bug (rethrow it). */
export function runStopOf(e: unknown): RunStop | undefined {
  if (e instanceof InterpRefusal || e instanceof SemanticsRefusal) return { kind: 'refused', reason: e.message };
  if (e instanceof GuestFault)
    return {
      kind: 'refused',
      reason: `${e.message} (the capture does not hold what the dispatch accessed; nothing is guessed)`,
    };
  if (e instanceof InvalidDispatch || e instanceof Pm4Error || e instanceof UnknownProcessorError)
    return { kind: 'invalid', reason: e.message };
  return undefined;
}

export class DispatchStepper {
  readonly program: Program;
  readonly executor: Executor;
  /** Thread groups in the grid (1 for a program capture). */
  readonly groupCount: number;
  /** Instructions the pre-dispatch scan checked. */
  readonly checked: number;
  private groupIndexValue = -1;
  private group: Group = { waves: [], lds: new Uint8Array(0) };
  private groupIdValue: readonly [number, number, number] = [0, 0, 0];
  private stopped: string | undefined;

  /**
   * Sets up the dispatch and scans it (a refusal of the scan is thrown, as `runSetup` throws
   * it), then makes the first group's waves.
   */
  constructor(
    readonly setup: Setup,
    readonly memory: GuestMemory,
    options: ExecOptions = {},
  ) {
    const end = setup.kind === 'program' ? setup.end : undefined;
    this.program = new Program(setup.target, memory, setup.programAddress, options.vector, end);
    this.checked = this.program.prescan();
    // One instruction a step: the compiled ALU runs ahead through many in one Executor.step
    // (src/interp/jit), which a person stepping must not see as one.
    this.executor = new Executor(this.program, memory, { ...options, compiled: false });
    if (setup.kind === 'dispatch') {
      const [nx, ny, nz] = setup.numThreads;
      if (nx * ny * nz === 0) throw new InvalidDispatch('COMPUTE_NUM_THREAD_X/Y/Z give an empty thread group');
      waveLayout(setup); // its own checks (USER_SGPR) before any wave is made
    }
    this.groupCount = setup.kind === 'program' ? 1 : setup.grid[0] * setup.grid[1] * setup.grid[2];
    this.enterGroup(0);
  }

  /** A stepper over a capture's dispatch, on a fresh copy of its memory. */
  static fromCapture(capture: Pick<Capture, 'manifest' | 'blob'>, options: ExecOptions = {}): DispatchStepper {
    const memory = GuestMemory.fromCapture(capture);
    return new DispatchStepper(setupFromCapture(capture, memory), memory, options);
  }

  /** Index of the current group in grid order (x fastest). */
  get groupIndex(): number {
    return this.groupIndexValue;
  }
  /** The current group's id (x, y, z). */
  get groupId(): readonly [number, number, number] {
    return this.groupIdValue;
  }
  get waves(): readonly Wave[] {
    return this.group.waves;
  }
  get lds(): Uint8Array {
    return this.group.lds;
  }
  /** Instructions run so far, over the whole dispatch. */
  get steps(): number {
    return this.executor.steps;
  }
  /** The refusal that stopped the dispatch, if one did. */
  get refusal(): string | undefined {
    return this.stopped;
  }
  get finished(): boolean {
    return this.groupIndexValue >= this.groupCount;
  }
  get groupDone(): boolean {
    return this.group.waves.every((w) => w.done);
  }

  /** Runs one instruction of wave `index` of the current group. */
  stepWave(index: number): StepEvent {
    if (this.stopped !== undefined) return { kind: 'refused', reason: this.stopped };
    if (this.finished) return { kind: 'dispatch-done' };
    const waves = this.group.waves;
    const w = waves[index];
    if (!w) throw new RangeError(`the group has ${waves.length} waves; there is no wave ${index}`);
    if (w.done) return { kind: 'wave-done', wave: index };
    if (w.atBarrier) {
      const live = waves.filter((x) => !x.done);
      if (live.some((x) => !x.atBarrier))
        return { kind: 'waiting', wave: index, for: live.filter((x) => !x.atBarrier).map((x) => x.id) };
      for (const x of waves) x.atBarrier = false; // every live wave has arrived
    }
    const pc = w.pc;
    try {
      this.executor.step(w, this.group);
    } catch (e) {
      return this.stop(e);
    }
    return { kind: 'stepped', wave: index, pc };
  }

  /**
   * One round over the group, as `Executor.runGroup` goes: each live wave not waiting at a
   * barrier runs one instruction; when all live waves wait, they are released.
   */
  stepRound(): StepEvent {
    if (this.stopped !== undefined) return { kind: 'refused', reason: this.stopped };
    if (this.finished) return { kind: 'dispatch-done' };
    const waves = this.group.waves;
    let live = 0;
    let waiting = 0;
    let stepped = 0;
    try {
      for (const w of waves) {
        if (w.done) continue;
        live++;
        if (w.atBarrier) {
          waiting++;
          continue;
        }
        this.executor.step(w, this.group);
        stepped++;
      }
    } catch (e) {
      return this.stop(e);
    }
    if (live === 0) return { kind: 'group-done' };
    if (waiting === live) for (const w of waves) w.atBarrier = false;
    return this.groupDone ? { kind: 'group-done' } : { kind: 'round', stepped };
  }

  /** Runs the rest of the current group, every wave to its end. */
  finishGroup(): StepEvent {
    if (this.stopped !== undefined) return { kind: 'refused', reason: this.stopped };
    if (this.finished) return { kind: 'dispatch-done' };
    try {
      this.executor.runGroup(this.group);
    } catch (e) {
      return this.stop(e);
    }
    return { kind: 'group-done' };
  }

  /** Finishes the current group and makes the next one's waves (or ends the dispatch). */
  nextGroup(): StepEvent {
    const done = this.finishGroup();
    if (done.kind !== 'group-done') return done;
    this.enterGroup(this.groupIndexValue + 1);
    return this.finished ? { kind: 'dispatch-done' } : { kind: 'group-done' };
  }

  private stop(e: unknown): StepEvent {
    const why = runStopOf(e);
    if (!why) throw e;
    this.stopped = why.reason;
    return { kind: 'refused', reason: why.reason };
  }

  private enterGroup(index: number): void {
    this.groupIndexValue = index;
    if (index >= this.groupCount) {
      this.group = { waves: [], lds: new Uint8Array(0) };
      return;
    }
    const s = this.setup;
    if (s.kind === 'program') {
      const w = new Wave(s.target, 0);
      s.sgprs.forEach((v, i) => (w.sgpr[i] = v >>> 0));
      s.vgprs.forEach((lanes, v) => lanes.forEach((x, lane) => w.writeVgpr(v, lane, x)));
      w.setExec(Number(s.exec & 0xffffffffn), Number((s.exec >> 32n) & 0xffffffffn));
      w.pc = this.program.entry;
      this.group = { waves: [w], lds: new Uint8Array(0) };
      this.groupIdValue = [0, 0, 0];
      return;
    }
    const id = gridId(s, index);
    const waves = groupWaves(s, id);
    for (const w of waves) w.pc = this.program.entry;
    this.group = { waves, lds: new Uint8Array(((s.rsrc2 >>> 15) & 0x1ff) * LDS_GRANULE_BYTES) };
    this.groupIdValue = id;
  }
}

/** The id of group `index` in grid order (x fastest, then y, then z), as runSetup walks them. */
export function gridId(setup: DispatchSetup, index: number): [number, number, number] {
  const [gx, gy] = setup.grid;
  return [index % gx, Math.floor(index / gx) % gy, Math.floor(index / (gx * gy))];
}
