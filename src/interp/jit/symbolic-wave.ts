/**
 * A wave whose registers are symbols, for compiling one ALU instruction (D014): the shared
 * semantics (src/semantics) run on it once through the expression algebra, and what they write
 * is left as expression DAGs over named leaves:
 *
 * - `s<code>`: an SGPR-space word as the instruction found it (wave-uniform);
 * - `scc`: SCC (a bool, wave-uniform);
 * - `v<index>`: this lane's VGPR (varies by lane);
 * - `lane`: the lane's index (varies by lane).
 *
 * Reads after a write within the instruction see the written expression, as the interpreter's
 * register file would. Only the lane being compiled may touch VGPRs. What this state does not
 * offer (indexed registers, hardware registers, another lane's VGPR) makes the semantics refuse,
 * and the instruction is then not compiled.
 */
import type { Pair } from '../../semantics/algebra.ts';
import type { FloatMode } from '../../semantics/algebra.ts';
import type { Expr, ExprBuilder } from '../../semantics/expr.ts';
import type { VectorState } from '../../semantics/lane-context.ts';

export class SymbolicWave implements VectorState<Expr, Expr> {
  /** SGPR writes in the order made (the last write of a code wins). */
  readonly sgprWrites = new Map<number, Expr>();
  readonly vgprWrites = new Map<number, Expr>();
  sccWrite: Expr | undefined;
  /** The one lane whose VGPRs the semantics may touch (a VALU compile), or -1 (SALU). */
  lane = -1;

  constructor(
    private readonly b: ExprBuilder,
    readonly lanes: 32 | 64,
    private readonly mode: FloatMode,
    /** Byte address of the next instruction (s_getpc_b64). */
    private readonly nextAddress: number,
    private readonly apertureOf: (code: number) => number,
  ) {}

  readSgpr(code: number): Expr {
    return this.sgprWrites.get(code) ?? this.b.input(`s${code}`);
  }
  writeSgpr(code: number, value: Expr): void {
    this.sgprWrites.delete(code); // keep the order of the last writes
    this.sgprWrites.set(code, value);
  }
  readScc(): Expr {
    return this.sccWrite ?? this.b.boolInput('scc');
  }
  writeScc(value: Expr): void {
    this.sccWrite = value;
  }
  nextPc(): Pair<Expr> {
    const a = this.nextAddress;
    return [this.b.word(a % 2 ** 32), this.b.word(Math.floor(a / 2 ** 32))];
  }
  aperture(code: number): Expr {
    return this.b.word(this.apertureOf(code));
  }
  floatMode(): FloatMode {
    return this.mode;
  }
  active(lane: number): boolean {
    return lane === this.lane;
  }
  private own(lane: number): void {
    if (lane !== this.lane) throw new Error(`a compiled lane touched lane ${lane}'s registers`);
  }
  readVgpr(index: number, lane: number): Expr {
    this.own(lane);
    return this.vgprWrites.get(index) ?? this.b.input(`v${index}`);
  }
  writeVgpr(index: number, lane: number, value: Expr): void {
    this.own(lane);
    this.vgprWrites.set(index, value);
  }
  laneWord(): Expr {
    return this.b.input('lane');
  }
}
