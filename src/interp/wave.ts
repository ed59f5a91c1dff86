/**
 * One wave's architectural state (D009): the SGPR space (codes 0-127: SGPRs, VCC, TTMPs, M0,
 * EXEC, as 32-bit words, so VCC and EXEC are pairs of words like any other 64-bit register),
 * SCC, the PC (a byte offset into the program), and the VGPRs, lane-major per register
 * (`vgpr[v * lanes + lane]`). The lane count is 32 or 64, from the target.
 */
import type { Target } from '../isa/gen.ts';
import { SRC_EXEC_LO, SRC_VCC_LO, m0Code } from '../isa/operands.ts';
import { MODE_WITHOUT_RSRC1 } from '../semantics/mode.ts';

/** VGPRs a wave can address (v0-v255). */
export const VGPR_COUNT = 256;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

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
  /** Rounds of its group's round-robin this wave sits out: it ran that many ALU instructions ahead (src/interp/jit, D014). */
  credit = 0;
  /** gfx8/9 MODE.gpr_idx_en: VALU VGPR operands are offset by M0 (s_set_gpr_idx_on / _off). */
  gprIndexMode = false;
  /** The MODE register (src/semantics/mode.ts): round and denormal modes, DX10_CLAMP, IEEE; from RSRC1 at wave start. */
  mode = MODE_WITHOUT_RSRC1;
  private readonly m0: number;
  /**
   * gfx10 wave64 shared VGPRs v[sharedFrom, sharedTo) (COMPUTE_PGM_RSRC3.SHARED_VGPR_CNT): one
   * value per lane pair l, l + 32, so a write in one half is read in the other (ACO's wave64
   * bpermute relies on it). Empty unless `shareVgprs` sets them.
   */
  private sharedFrom = VGPR_COUNT;
  private sharedTo = VGPR_COUNT;

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
  /** How many lanes EXEC holds. */
  activeLanes(): number {
    return popcount(this.sgpr[SRC_EXEC_LO]) + (this.lanes === 64 ? popcount(this.sgpr[SRC_EXEC_LO + 1]) : 0);
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

  /** Makes v[from, from + count) shared between the halves of a wave64 (gfx10 shared VGPRs). */
  shareVgprs(from: number, count: number): void {
    if (this.lanes !== 64) throw new RangeError('shared VGPRs exist only in a wave64');
    this.sharedFrom = Math.min(from, VGPR_COUNT);
    this.sharedTo = Math.min(from + count, VGPR_COUNT);
  }

  /** Whether some VGPRs are shared between the halves (then `vgpr[v * lanes + lane]` is not every register's place). */
  get sharesVgprs(): boolean {
    return this.sharedFrom < this.sharedTo;
  }

  readVgpr(v: number, lane: number): number {
    return this.vgpr[v * this.lanes + (v >= this.sharedFrom && v < this.sharedTo ? lane & 31 : lane)];
  }
  writeVgpr(v: number, lane: number, value: number): void {
    if (v >= VGPR_COUNT) throw new RangeError(`v${v} is beyond the wave's ${VGPR_COUNT} VGPRs`);
    this.vgpr[v * this.lanes + (v >= this.sharedFrom && v < this.sharedTo ? lane & 31 : lane)] = value >>> 0;
  }
}
