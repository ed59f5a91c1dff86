/**
 * Per-generation spellings of the same operation, so a case body is written once: the carry
 * instructions were renamed twice (gfx7 v_add_i32, gfx8 v_add_u32, gfx9 v_add_co_u32 / v_addc_co_u32,
 * gfx10+ v_add_co_ci_u32), and a lane-mask result is read back into a VGPR with v_cndmask.
 */
import { Gen } from '../../../src/isa/gen.ts';
import type { EdgeTarget } from '../targets.ts';

export type CarryOp = 'add' | 'sub' | 'subrev' | 'addc' | 'subb' | 'subbrev';

/** The carry-writing (VOP2/VOP3b) add/sub of a generation. */
export function carryName(t: EdgeTarget, op: CarryOp): string {
  const withIn = op === 'addc' || op === 'subb' || op === 'subbrev';
  const base = { add: 'add', addc: 'add', sub: 'sub', subb: 'sub', subrev: 'subrev', subbrev: 'subrev' }[op];
  if (t.gen === Gen.GFX7) return withIn ? `v_${op}_u32` : `v_${base}_i32`;
  if (t.gen === Gen.GFX8) return withIn ? `v_${op}_u32` : `v_${base}_u32`;
  if (t.gen === Gen.GFX9) return withIn ? `v_${op}_co_u32` : `v_${base}_co_u32`;
  return withIn ? `v_${base}_co_ci_u32` : `v_${base}_co_u32`;
}

/** `v_cndmask_b32_e64 vD, 0, 1, MASK`: a lane-mask bit as 0 or 1. */
export const maskToVgpr = (vd: string, mask: string): string => `v_cndmask_b32_e64 ${vd}, 0, 1, ${mask}`;

/** SCC as 0 or 1 in an SGPR. */
export const sccTo = (sd: string): string => `s_cselect_b32 ${sd}, 1, 0`;

/** The 32-bit load/store/scalar names of gfx11 for ones whose old spelling its assembler also takes. */
export const isGfx11 = (t: EdgeTarget): boolean => t.gen === Gen.GFX11;
