/**
 * Multiplies whose results need more than 32 bits: the high words of signed and unsigned
 * 32 x 32, and the 24-bit forms (the upper byte of each operand is ignored, signed forms
 * sign-extend from bit 23).
 */
import { Gen } from '../../../src/isa/gen.ts';
import type { EdgeCase } from '../harness.ts';
import { all, from } from '../targets.ts';

const RDNA3_VOP2 = 'RDNA3 ISA 16.7 "VOP2 Instructions"';
const RDNA3_VOP3 = 'RDNA3 ISA 16.12 "VOP3 & VOP3SD Instructions"';
const RDNA3_SOP2 = 'RDNA3 ISA 16.1 "SOP2 Instructions"';

/** a, b, then mul_lo, mul_hi_u32, mul_hi_i32. */
const HI_ROWS = [
  [0xffffffff, 0xffffffff, 0x00000001, 0xfffffffe, 0x00000000],
  [0x80000000, 0x80000000, 0x00000000, 0x40000000, 0x40000000],
  [0x80000000, 0x7fffffff, 0x80000000, 0x3fffffff, 0xc0000000],
  [0xffffffff, 0x00000001, 0xffffffff, 0x00000000, 0xffffffff],
  [0x7fffffff, 0x7fffffff, 0x00000001, 0x3fffffff, 0x3fffffff],
  [0x00010000, 0x00010000, 0x00000000, 0x00000001, 0x00000001],
  [0xfffffffe, 0x00000003, 0xfffffffa, 0x00000002, 0xffffffff],
];

export const MULTIPLY_CASES: readonly EdgeCase[] = [
  {
    kind: 'vector',
    id: 'multiply/v_mul_lo-hi-u32-i32',
    cite: `${RDNA3_VOP3}, V_MUL_LO_U32: low 32 bits; V_MUL_HI_U32 / V_MUL_HI_I32: bits 63:32 of the unsigned / signed 64-bit product`,
    targets: all,
    ins: 2,
    outs: 3,
    body: 'v_mul_lo_u32 v40, v10, v11\nv_mul_hi_u32 v41, v10, v11\nv_mul_hi_i32 v42, v10, v11',
    rows: HI_ROWS,
  },
  {
    kind: 'scalar',
    id: 'multiply/s_mul_i32-s_mul_hi-u32-i32',
    cite: `${RDNA3_SOP2}, S_MUL_I32 (low 32 bits), S_MUL_HI_U32 / S_MUL_HI_I32: D0 = (S0 * S1) >> 32, unsigned / signed`,
    targets: from(Gen.GFX9),
    ins: 2,
    outs: 3,
    body: 's_mul_i32 s20, s16, s17\ns_mul_hi_u32 s21, s16, s17\ns_mul_hi_i32 s22, s16, s17',
    rows: HI_ROWS,
  },
  {
    kind: 'vector',
    id: 'multiply/v_mul-u32-u24-upper-byte-ignored',
    cite: `${RDNA3_VOP2}, V_MUL_U32_U24: D0 = S0.u24 * S1.u24 (low 32 bits); V_MUL_HI_U32_U24: bits 47:32`,
    targets: all,
    ins: 2,
    outs: 2,
    body: 'v_mul_u32_u24 v40, v10, v11\nv_mul_hi_u32_u24 v41, v10, v11',
    rows: [
      [0x01000001, 0xff000003, 0x00000003, 0x00000000],
      [0x00ffffff, 0x00ffffff, 0xfe000001, 0x0000ffff],
      [0xffffffff, 0xffffffff, 0xfe000001, 0x0000ffff],
      [0x00800000, 0x00800000, 0x00000000, 0x00004000],
      [0x00001000, 0x00100000, 0x00000000, 0x00000001],
    ],
  },
  {
    kind: 'vector',
    id: 'multiply/v_mul-i32-i24-sign-from-bit-23',
    cite: `${RDNA3_VOP2}, V_MUL_I32_I24: D0 = 32'I(S0.i24) * 32'I(S1.i24); V_MUL_HI_I32_I24: (64'I(S0.i24) * 64'I(S1.i24)) >> 32`,
    targets: all,
    ins: 2,
    outs: 2,
    body: 'v_mul_i32_i24 v40, v10, v11\nv_mul_hi_i32_i24 v41, v10, v11',
    rows: [
      [0x00ffffff, 0x00000002, 0xfffffffe, 0xffffffff],
      [0x00800000, 0x00800000, 0x00000000, 0x00004000],
      [0x00800000, 0x007fffff, 0x00800000, 0xffffc000],
      [0xff7fffff, 0x00000001, 0x007fffff, 0x00000000],
      [0x7f000005, 0x80fffffd, 0xfffffff1, 0xffffffff],
    ],
  },
  {
    kind: 'vector',
    id: 'multiply/v_mad-u32-u24-i32-i24-wrap',
    cite: `${RDNA3_VOP3}, V_MAD_U32_U24: D0 = 32'U(S0.u24) * 32'U(S1.u24) + S2; V_MAD_I32_I24: 32'I(S0.i24) * 32'I(S1.i24) + S2 (32-bit wrap)`,
    targets: all,
    ins: 3,
    outs: 2,
    body: 'v_mad_u32_u24 v40, v10, v11, v12\nv_mad_i32_i24 v41, v10, v11, v12',
    rows: [
      [0x00ffffff, 0x00ffffff, 0x01ffffff, 0x00000000, 0x02000000],
      [0xff000002, 0xff000003, 0x00000004, 0x0000000a, 0x0000000a],
      [0x00800000, 0x00000002, 0x00000000, 0x01000000, 0xff000000],
      [0x00ffffff, 0x00000001, 0x00000001, 0x01000000, 0x00000000],
    ],
  },
];
