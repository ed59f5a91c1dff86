/**
 * The compiled ALU of one program (D012): each SALU and VALU instruction, at its PC, compiled
 * once (compile.ts) when a wave first reaches it; the step loop asks here first and runs the
 * shared path when this answers false (not compiled, or a state the compiled code does not
 * cover).
 *
 * A VALU function is built for the MODE the wave had when it first ran (its float controls are
 * constants of the code); a wave reaching the PC with another MODE rebuilds it. The shared path
 * runs instead while the gfx8/9 GPR index mode is on and in a wave with shared VGPRs (gfx10
 * wave64), whose register places the compiled code does not compute.
 *
 * Run-ahead: `runAhead` runs a wave through consecutive compiled ALU instructions and branches
 * in one turn of the round-robin. Those touch only the wave's own registers, so running them
 * early is unobservable provided the wave then sits out one round for each instruction beyond
 * the first (the step loop's `Wave.credit`): its next memory access, barrier or s_endpgm then
 * happens in the same round, after the same accesses of the other waves, as when stepped one by
 * one. The step loop allows it only while the step limit is far enough away that no crossing
 * can fall inside a run-ahead or its credit.
 */
import type { Target } from '../../isa/gen.ts';
import type { Instruction } from '../../isa/instruction.ts';
import { branchTarget } from '../../isa/program.ts';
import { floatModeOf } from '../../semantics/mode.ts';
import type { Wave } from '../wave.ts';
import { compileScalar, compileVector, NotCompiled, type CompiledStep } from './compile.ts';

/** What the compiled ALU needs of the program: its decoded, classified instructions and the end of a program capture. */
export interface ProgramView {
  readonly base: number;
  readonly end: number | undefined;
  /** The instruction at a byte offset and how the step loop runs it (`salu`, `valu`, `branch`, ...). */
  at(pc: number): { readonly inst: Instruction; readonly kind: string };
}

/** Whether a branch is taken in the wave's state (the step loop's rule, by instruction name). */
export type BranchRule = (w: Wave, name: string) => boolean;

const STOP = 0;
const SALU = 1;
const VALU = 2;
const BRANCH = 3;

/** One PC (every field present in every kind, so the run-ahead loop sees one shape). */
interface Entry {
  readonly kind: typeof STOP | typeof SALU | typeof VALU | typeof BRANCH;
  readonly inst: Instruction | null;
  /** The compiled function (null: not compiled; the shared path runs). */
  run: CompiledStep | null;
  /** The MODE a VALU function was built for (-1: not built yet). */
  mode: number;
  /** Byte offset of the next instruction, and of a branch's target. */
  readonly next: number;
  readonly target: number;
  readonly name: string;
}

/** At most this many instructions run ahead in one turn. */
export const RUN_AHEAD_LIMIT = 256;

export class CompiledAlu {
  /** By PC / 4. */
  private readonly entries: (Entry | undefined)[] = [];
  /** Instructions compiled, and the names not compiled with why (for reports). */
  compiled = 0;
  readonly refused = new Map<string, string>();
  /** Lane-operations run ahead (VALU: lanes active at issue; SALU: 1). */
  laneOps = 0;

  constructor(
    readonly target: Target,
    /** Whether the vector ALU may be compiled (the interpreter's VALU is src/semantics/vector.ts). */
    private readonly vector: boolean,
    private readonly program: ProgramView,
    private readonly taken: BranchRule,
  ) {}

  private entry(pc: number): Entry {
    const e = this.entries[pc >>> 2];
    if (e !== undefined) return e;
    const made = this.make(pc);
    this.entries[pc >>> 2] = made;
    return made;
  }

  private make(pc: number): Entry {
    const none: Entry = { kind: STOP, inst: null, run: null, mode: -1, next: 0, target: 0, name: '' };
    if ((pc & 3) !== 0) return none;
    let inst: Instruction;
    let kind: string;
    try {
      ({ inst, kind } = this.program.at(pc));
    } catch {
      return none; // the step loop decodes it again and reports the refusal
    }
    const next = pc + inst.size;
    const name = inst.def.name;
    if (kind === 'branch') return { ...none, kind: BRANCH, inst, next, target: branchTarget(inst) ?? next, name };
    if (kind === 'valu' && this.vector) return { ...none, kind: VALU, inst, next, name };
    if (kind === 'salu') {
      const c = this.settle(inst, compileScalar(this.target, inst, this.program.base + next));
      return { ...none, kind: SALU, inst, run: c, next, name };
    }
    return none;
  }

  private settle(inst: Instruction, result: ReturnType<typeof compileScalar>): CompiledStep | null {
    if (result instanceof NotCompiled) {
      this.refused.set(inst.def.name, result.reason);
      return null;
    }
    this.compiled++;
    return result.run;
  }

  /** The VALU entry's function for the wave's MODE, built when it first runs in that MODE. */
  private vectorRun(e: Entry, w: Wave): CompiledStep | null {
    if (e.mode !== w.mode) {
      const fm = floatModeOf(w.mode);
      e.run = typeof fm === 'string' ? null : this.settle(e.inst!, compileVector(this.target, e.inst!, fm));
      e.mode = w.mode;
    }
    return e.run;
  }

  /** Runs the SALU instruction at `pc` compiled; false when it is not compiled. */
  scalar(pc: number, w: Wave): boolean {
    const e = this.entry(pc);
    return e.kind === SALU && e.run !== null && e.run(w);
  }

  /** Runs the VALU instruction at `pc` compiled; false when it is not, or the wave's state is one the code does not cover. */
  vectorStep(pc: number, w: Wave): boolean {
    if (w.gprIndexMode || w.sharesVgprs) return false;
    const e = this.entry(pc);
    if (e.kind !== VALU) return false;
    const run = this.vectorRun(e, w);
    return run !== null && run(w);
  }

  /**
   * Runs the wave from its PC through compiled ALU instructions and branches, at most `limit`,
   * stopping before anything else (memory, barriers, s_endpgm, an instruction not compiled, the
   * end of a program capture). Returns how many ran (each a step of the dispatch); the PC is left
   * at the first one not run.
   */
  runAhead(w: Wave, limit: number): number {
    const end = this.program.end;
    let pc = w.pc;
    let n = 0;
    while (n < limit && pc !== end) {
      const e = this.entry(pc);
      if (e.kind === SALU) {
        if (e.run === null || !e.run(w)) break;
        this.laneOps++;
        pc = e.next;
      } else if (e.kind === VALU) {
        if (w.gprIndexMode || w.sharesVgprs) break;
        const run = this.vectorRun(e, w);
        if (run === null) break;
        const lanes = w.activeLanes();
        if (!run(w)) break;
        this.laneOps += lanes;
        pc = e.next;
      } else if (e.kind === BRANCH) {
        pc = this.taken(w, e.name) ? e.target : e.next;
      } else break;
      w.pc = pc;
      n++;
    }
    return n;
  }
}
