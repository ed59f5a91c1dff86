/**
 * The MODE hardware register (HW_REG_MODE): its value when a wave starts, the hwreg(id, offset,
 * size) fields s_getreg/s_setreg name it by, and the float controls the vector ALU semantics
 * read from it (D003's `FloatMode`).
 *
 * Sources: RDNA3 ISA 3.4.2 "Mode register" (FP_ROUND [3:0]: [1:0] f32, [3:2] f64/f16 round modes,
 * 0 = nearest even; FP_DENORM [7:4]: [5:4] f32, [7:6] f64/f16, 0 = flush input and output, 1 = allow
 * input / flush output, 2 = flush input / allow output, 3 = allow both; DX10_CLAMP [8]; IEEE [9]).
 * LLVM's AMDGPUUsage, "compute_pgm_rsrc1": the wave starts with FLOAT_MODE (RSRC1[19:12]) as its
 * round and denormal modes, and with RSRC1.DX10_CLAMP (bit 21) and RSRC1.IEEE_MODE (bit 23).
 * The hwreg encoding (SIMM16 [5:0] register, [10:6] offset, [15:11] size - 1) and HW_REG_MODE = 1 are
 * those of every generation's S_GETREG_B32 / S_SETREG_B32 (Vega ISA and RDNA3 ISA 16.2 "SOPK Instructions").
 */
import type { FloatMode } from './algebra.ts';

export const HW_REG_MODE = 1;

/** MODE when a dispatch's wave starts, from COMPUTE_PGM_RSRC1. */
export function modeFromRsrc1(rsrc1: number): number {
  return (((rsrc1 >>> 12) & 0xff) | (((rsrc1 >>> 21) & 1) << 8) | (((rsrc1 >>> 23) & 1) << 9)) >>> 0;
}

/**
 * MODE for a run that has no RSRC1 (a `program` capture): denormals kept, round to nearest even,
 * DX10_CLAMP and IEEE set, which is what the semantics did before MODE was modelled.
 */
export const MODE_WITHOUT_RSRC1 = 0x3f0;

/** The fields of a hwreg operand (s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32). */
export interface HwRegField {
  readonly id: number;
  readonly offset: number;
  readonly size: number;
}
export function hwRegField(simm16: number): HwRegField {
  return { id: simm16 & 0x3f, offset: (simm16 >>> 6) & 0x1f, size: ((simm16 >>> 11) & 0x1f) + 1 };
}

/** The mask of a field `size` bits wide at `offset`, as a u32. */
export function fieldMask(f: HwRegField): number {
  const width = Math.min(f.size, 32 - f.offset);
  return (width >= 32 ? 0xffffffff : ((2 ** width - 1) * 2 ** f.offset) >>> 0) >>> 0;
}

/**
 * The float controls a MODE value gives the vector ALU, or why they cannot be modelled: only round
 * to nearest even is modelled, and a denormal mode flushes both inputs and outputs or neither.
 */
export function floatModeOf(mode: number): FloatMode | string {
  const round = mode & 0xf;
  if (round !== 0) return `MODE.FP_ROUND is ${round}: only round to nearest even (0) is modelled (RDNA3 ISA 3.4.2)`;
  const denorm = (bits: number, what: string): boolean | string => {
    if (bits === 0) return false;
    if (bits === 3) return true;
    return `MODE.FP_DENORM ${what} is ${bits}: input and output denormals handled differently is not modelled`;
  };
  const f32 = denorm((mode >>> 4) & 3, '[5:4] (f32)');
  if (typeof f32 === 'string') return f32;
  const f64 = denorm((mode >>> 6) & 3, '[7:6] (f64/f16)');
  if (typeof f64 === 'string') return f64;
  return {
    f32Denormals: f32,
    f64f16Denormals: f64,
    dx10Clamp: ((mode >>> 8) & 1) === 1,
    ieee: ((mode >>> 9) & 1) === 1,
  };
}
