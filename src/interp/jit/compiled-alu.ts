/**
 * The compiled ALU of one program (D014): each SALU and VALU instruction, at its PC, compiled
 * once (compile.ts) when a wave first reaches it; the step loop asks here first and runs the
 * shared path when this answers false (not compiled, or a state the compiled code does not
 * cover).
 *
 * A VALU function is built for the MODE the wave had when it first ran (its float controls are
 * constants of the code); a wave reaching the PC with another MODE rebuilds it. The shared path
 * runs instead while the gfx8/9 GPR index mode is on and in a wave with shared VGPRs (gfx10
 * wave64), whose register places the compiled code does not compute.
 *
 * Run-ahead: `runAhead` runs a wave through consecutive compiled ALU instructions, branches and
 * no-effect instructions (s_waitcnt, s_nop) in one turn of the round-robin, each straight run of
 * compiled instructions fused into one function (`compileBlock`, cached per PC and MODE) and the
 * branch after it taken by the step loop's own rule. Those touch only the wave's own
 * registers, so running them early is unobservable provided the wave then sits out one round
 * for each instruction beyond the first (the step loop's `Wave.credit`): its next memory
 * access, barrier or s_endpgm then happens in the same round, after the same accesses of the
 * other waves, as when stepped one by one. The step loop allows it only while the step limit is far enough away that no crossing
 * can fall inside a run-ahead or its credit.
 */
import type { Target } from '../../isa/gen.ts';
import type { Instruction } from '../../isa/instruction.ts';
import { branchTarget } from '../../isa/program.ts';
import { floatModeOf } from '../../semantics/mode.ts';
import type { Wave } from '../wave.ts';
import {
  compileBlock,
  compileScalar,
  compileVector,
  NotCompiled,
  type CompiledBlock,
  type CompiledStep,
  type Piece,
} from './compile.ts';

/** What the compiled ALU needs of the program: its decoded, classified instructions and the end of a program capture. */
export interface ProgramView {
  readonly base: number;
  readonly end: number | undefined;
  /** The instruction at a byte offset and how the step loop runs it (`salu`, `valu`, `branch`, ...). */
  at(pc: number): { readonly inst: Instruction; readonly kind: string };
}

/** The step loop's rule for a branch, by instruction name: whether it is taken in the wave's state. */
export type BranchRule = (name: string) => (w: Wave) => boolean;

const STOP = 0;
const SALU = 1;
const VALU = 2;
const BRANCH = 3;
/** An instruction with no effect on the wave (s_nop, s_waitcnt, cache hints): the step loop only steps past it. */
const NOP = 4;

/** One PC (every field present in every kind, so the run-ahead loop sees one shape). */
interface Entry {
  readonly kind: typeof STOP | typeof SALU | typeof VALU | typeof BRANCH | typeof NOP;
  readonly inst: Instruction | null;
  /** The compiled function (null: not compiled; the shared path runs), and its code for fusing. */
  run: CompiledStep | null;
  piece: Piece | null;
  /** The MODE a VALU function was built for (-1: not built yet). */
  mode: number;
  /** Byte offset of the next instruction, and of a branch's target. */
  readonly next: number;
  readonly target: number;
  readonly name: string;
  /** A branch's rule (the step loop's). */
  readonly taken: ((w: Wave) => boolean) | null;
}

/** A fused run of instructions from one PC, for one MODE (`length` 0: none worth fusing there). */
interface Block {
  readonly mode: number;
  readonly run: CompiledBlock | null;
  readonly length: number;
  /** The branch right after the block, if one is (run ahead with it). */
  readonly exit: Entry | null;
}

/** At most this many instructions run ahead in one turn. */
export const RUN_AHEAD_LIMIT = 1024;
/** At most this many instructions in one fused block. */
const BLOCK_LIMIT = 64;

export class CompiledAlu {
  /** By PC / 4. */
  private readonly entries: (Entry | undefined)[] = [];
  /** Fused blocks by their first PC / 4. */
  private readonly blocks: (Block | undefined)[] = [];
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
    private readonly rule: BranchRule,
  ) {}

  private entry(pc: number): Entry {
    const e = this.entries[pc >>> 2];
    if (e !== undefined) return e;
    const made = this.make(pc);
    this.entries[pc >>> 2] = made;
    return made;
  }

  private make(pc: number): Entry {
    const none: Entry = {
      kind: STOP,
      inst: null,
      run: null,
      piece: null,
      mode: -1,
      next: 0,
      target: 0,
      name: '',
      taken: null,
    };
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
    if (kind === 'branch')
      return { ...none, kind: BRANCH, inst, next, target: branchTarget(inst) ?? next, name, taken: this.rule(name) };
    if (kind === 'nop') return { ...none, kind: NOP, inst, next, name };
    if (kind === 'valu' && this.vector) return { ...none, kind: VALU, inst, next, name };
    if (kind === 'salu') {
      const c = this.settle(inst, compileScalar(this.target, inst, this.program.base + next));
      return { ...none, kind: SALU, inst, run: c?.run ?? null, piece: c?.piece ?? null, next, name };
    }
    return none;
  }

  private settle(
    inst: Instruction,
    result: ReturnType<typeof compileScalar>,
  ): { run: CompiledStep; piece: Piece } | null {
    if (result instanceof NotCompiled) {
      this.refused.set(inst.def.name, result.reason);
      return null;
    }
    this.compiled++;
    return result;
  }

  /** The VALU entry's function for the wave's MODE, built when it first runs in that MODE. */
  private vectorRun(e: Entry, w: Wave): CompiledStep | null {
    if (e.mode !== w.mode) {
      const fm = floatModeOf(w.mode);
      const c = typeof fm === 'string' ? null : this.settle(e.inst!, compileVector(this.target, e.inst!, fm));
      e.run = c?.run ?? null;
      e.piece = c?.piece ?? null;
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
   * Runs the wave from its PC through compiled ALU instructions, branches and instructions without
   * effect (s_nop, s_waitcnt), at most `limit`,
   * stopping before anything else (memory, barriers, s_endpgm, an instruction not compiled, the
   * end of a program capture). Returns how many ran (each a step of the dispatch); the PC is left
   * at the first one not run.
   */
  runAhead(w: Wave, limit: number): number {
    const end = this.program.end;
    const fuse = !w.gprIndexMode && !w.sharesVgprs;
    let pc = w.pc;
    let n = 0;
    while (n < limit && pc !== end) {
      if (fuse) {
        let b = this.blocks[pc >>> 2];
        if (b === undefined || b.mode !== w.mode) this.blocks[pc >>> 2] = b = this.block(pc, w);
        if (b.run !== null && b.length < limit - n) {
          const ran = b.run(w, this);
          n += ran;
          if (ran < b.length) break; // an instruction declined: the step loop runs it the shared way
          const x = b.exit;
          if (x !== null) {
            pc = x.taken!(w) ? x.target : x.next;
            w.pc = pc;
            n++;
          } else pc = w.pc;
          continue;
        }
      }
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
        pc = e.taken!(w) ? e.target : e.next;
      } else if (e.kind === NOP) {
        pc = e.next;
      } else break;
      w.pc = pc;
      n++;
    }
    return n;
  }

  /** The longest run of compiled ALU instructions from `pc` (in the wave's MODE), fused; none under two. */
  private block(pc: number, w: Wave): Block {
    const pieces: Piece[] = [];
    const pcs: number[] = [];
    let at = pc;
    while (pieces.length < BLOCK_LIMIT && at !== this.program.end && (at & 3) === 0) {
      const e = this.entry(at);
      if (e.kind === VALU) this.vectorRun(e, w);
      else if (e.kind !== SALU) break;
      if (e.piece === null) break;
      pieces.push(e.piece);
      pcs.push(at);
      at = e.next;
    }
    if (pieces.length < 2) return { mode: w.mode, run: null, length: 0, exit: null };
    const after = at === this.program.end ? null : this.entry(at);
    return {
      mode: w.mode,
      run: compileBlock(pieces, pcs, at).run,
      length: pieces.length,
      exit: after !== null && after.kind === BRANCH ? after : null,
    };
  }
}
