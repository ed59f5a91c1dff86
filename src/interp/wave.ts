/**
 * One wave's architectural state (D009): the SGPR space (codes 0-127: SGPRs, VCC, TTMPs, M0,
 * EXEC, as 32-bit words, so VCC and EXEC are pairs of words like any other 64-bit register),
 * SCC, the PC (a byte offset into the program), and the VGPRs, lane-major per register
 * (`vgpr[v * lanes + lane]`). The lane count is 32 or 64, from the target.
 */
import type { Target } from '../isa/gen.ts';
import { SRC_EXEC_LO, SRC_VCC_LO, m0Code } from '../isa/operands.ts';

/** VGPRs a wave can address (v0-v255). */
export const VGPR_COUNT = 256;

export class Wave {
  readonly lanes: 32 | 64;
  readonly sgpr = new Uint32Array(128);
  readonly vgpr: Uint32Array;
  scc = false;
  /** Byte offset of the next instruction in the program. */
  pc = 0;
  done = false;
  /** Waiting at an s_barrier for the rest of its group. */
  atBarrier = false;
  private readonly m0: number;

  constructor(
    readonly target: Target,
    /** Index of the wave in its group. */
    readonly id: number,
  ) {
    this.lanes = target.wave64 ? 64 : 32;
    this.vgpr = new Uint32Array(VGPR_COUNT * this.lanes);
    this.m0 = m0Code(target.gen);
  }

  execLo(): number {
    return this.sgpr[SRC_EXEC_LO];
  }
  execHi(): number {
    return this.lanes === 64 ? this.sgpr[SRC_EXEC_LO + 1] : 0;
  }
  setExec(lo: number, hi: number): void {
    this.sgpr[SRC_EXEC_LO] = lo;
    this.sgpr[SRC_EXEC_LO + 1] = hi;
  }
  /** Is lane `lane` active in EXEC? */
  active(lane: number): boolean {
    return lane < 32 ? ((this.sgpr[SRC_EXEC_LO] >>> lane) & 1) === 1 : ((this.execHi() >>> (lane - 32)) & 1) === 1;
  }
  execZero(): boolean {
    return this.execLo() === 0 && this.execHi() === 0;
  }
  vccZero(): boolean {
    return this.sgpr[SRC_VCC_LO] === 0 && (this.lanes === 32 || this.sgpr[SRC_VCC_LO + 1] === 0);
  }
  readM0(): number {
    return this.sgpr[this.m0];
  }
  setM0(v: number): void {
    this.sgpr[this.m0] = v >>> 0;
  }

  readVgpr(v: number, lane: number): number {
    return this.vgpr[v * this.lanes + lane];
  }
  writeVgpr(v: number, lane: number, value: number): void {
    if (v >= VGPR_COUNT) throw new RangeError(`v${v} is beyond the wave's ${VGPR_COUNT} VGPRs`);
    this.vgpr[v * this.lanes + lane] = value >>> 0;
  }
}
