/**
 * Saturating (clamp) integer forms: VOP3's clamp bit on integer add/subtract saturates to the
 * range of the result type instead of wrapping, 32-bit, 16-bit and packed 16-bit.
 */
import { Gen } from '../../../src/isa/gen.ts';
import type { EdgeCase } from '../harness.ts';
import { from, only } from '../targets.ts';

const CLAMP =
  'RDNA3 ISA 7.2 "Operands", CLMP: "Signed integer arithmetic: clamp result to [min_int, +max_int]; Unsigned integer arithmetic: clamp result to [0, +max_uint]"';
const RDNA3_VOP2 = 'RDNA3 ISA 16.7 "VOP2 Instructions"';
const RDNA3_VOP3 = 'RDNA3 ISA 16.12 "VOP3 & VOP3SD Instructions"';
const RDNA3_VOP3P = 'RDNA3 ISA 16.10 "VOP3P Instructions"';

/** a, b, then a + b and a - b, each saturated unsigned. */
const U32 = [
  [0xffffffff, 1, 0xffffffff, 0xfffffffe],
  [0x80000000, 0x80000000, 0xffffffff, 0],
  [0, 1, 1, 0],
  [1, 2, 3, 0],
  [5, 3, 8, 2],
  [0xfffffffe, 0xffffffff, 0xffffffff, 0],
];
/** a, b, then a + b and a - b, each saturated signed. */
const I32 = [
  [0x7fffffff, 1, 0x7fffffff, 0x7ffffffe],
  [0x80000000, 0xffffffff, 0x80000000, 0x80000001],
  [0x80000000, 1, 0x80000001, 0x80000000],
  [0x7fffffff, 0xffffffff, 0x7ffffffe, 0x7fffffff],
  [0xffffffff, 1, 0, 0xfffffffe],
  [0x40000000, 0x40000000, 0x7fffffff, 0],
  [0xc0000000, 0x40000001, 0x00000001, 0x80000000],
];
/** Low halves a, b (high halves garbage), then a + b and a - b saturated unsigned 16-bit, in the low half. */
const U16 = [
  [0x1234ffff, 0x56780001, 0xffff, 0xfffe],
  [0x00008000, 0x00008000, 0xffff, 0x0000],
  [0xffff0000, 0x00000001, 0x0001, 0x0000],
  [0x00000005, 0xffff0003, 0x0008, 0x0002],
];
/** Low halves a, b, then a + b and a - b saturated signed 16-bit, in the low half. */
const I16 = [
  [0x00007fff, 0x00000001, 0x7fff, 0x7ffe],
  [0x00008000, 0x0000ffff, 0x8000, 0x8001],
  [0x00008000, 0x00000001, 0x8001, 0x8000],
  [0xabcd7fff, 0x1234ffff, 0x7ffe, 0x7fff],
  [0x0000c000, 0x0000c000, 0x8000, 0x0000],
];
const low16 = (v: string): string => `v_and_b32 ${v}, 0xffff, ${v}`;

export const SATURATE_CASES: readonly EdgeCase[] = [
  {
    kind: 'vector',
    id: 'saturate/gfx8-v_add_u32-v_sub_u32-clamp',
    cite: `${CLAMP}; GCN3 ISA "VOP2 Instructions", V_ADD_U32 / V_SUB_U32 with VOP3 clamp`,
    targets: only(Gen.GFX8),
    ins: 2,
    outs: 2,
    body: 'v_add_u32_e64 v40, s[24:25], v10, v11 clamp\nv_sub_u32_e64 v41, s[24:25], v10, v11 clamp',
    rows: U32,
  },
  {
    kind: 'vector',
    id: 'saturate/gfx9-v_add_u32-v_sub_u32-clamp',
    cite: `${CLAMP}; Vega ISA "VOP2 Instructions", V_ADD_U32 / V_SUB_U32 (no carry-out) with VOP3 clamp`,
    targets: only(Gen.GFX9),
    ins: 2,
    outs: 2,
    body: 'v_add_u32_e64 v40, v10, v11 clamp\nv_sub_u32_e64 v41, v10, v11 clamp',
    rows: U32,
  },
  {
    kind: 'vector',
    id: 'saturate/gfx9-v_add_co_u32-v_sub_co_u32-clamp',
    cite: `${CLAMP}; ${RDNA3_VOP3}, V_ADD_CO_U32 / V_SUB_CO_U32: "Supports saturation (unsigned 32-bit integer domain)"`,
    targets: from(Gen.GFX9),
    ins: 2,
    outs: 2,
    body: (t) =>
      [
        `v_add_co_u32_e64 v40, ${t.wave64 ? 's[24:25]' : 's24'}, v10, v11 clamp`,
        `v_sub_co_u32_e64 v41, ${t.wave64 ? 's[24:25]' : 's24'}, v10, v11 clamp`,
      ].join('\n'),
    rows: U32,
  },
  {
    kind: 'vector',
    id: 'saturate/v_add_nc_u32-v_sub_nc_u32-clamp',
    cite: `${CLAMP}; ${RDNA3_VOP2}, V_ADD_NC_U32 / V_SUB_NC_U32: "Supports saturation (unsigned 32-bit integer domain)"`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 2,
    body: 'v_add_nc_u32_e64 v40, v10, v11 clamp\nv_sub_nc_u32_e64 v41, v10, v11 clamp',
    rows: U32,
  },
  {
    kind: 'vector',
    id: 'saturate/gfx9-v_add_i32-v_sub_i32-clamp',
    cite: `${CLAMP}; Vega ISA "VOP3 Instructions", V_ADD_I32 / V_SUB_I32 (gfx9: signed, no carry-out)`,
    targets: only(Gen.GFX9),
    ins: 2,
    outs: 2,
    body: 'v_add_i32 v40, v10, v11 clamp\nv_sub_i32 v41, v10, v11 clamp',
    rows: I32,
  },
  {
    kind: 'vector',
    id: 'saturate/v_add_nc_i32-v_sub_nc_i32-clamp',
    cite: `${CLAMP}; ${RDNA3_VOP3}, V_ADD_NC_I32 / V_SUB_NC_I32: "Supports saturation (signed 32-bit integer domain)"`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 2,
    body: 'v_add_nc_i32 v40, v10, v11 clamp\nv_sub_nc_i32 v41, v10, v11 clamp',
    rows: I32,
  },
  {
    kind: 'vector',
    id: 'saturate/v_add_nc_i32-wraps-without-clamp',
    cite: `${RDNA3_VOP3}, V_ADD_NC_I32 / V_SUB_NC_I32: D0.i = S0.i + S1.i (wrapping when CLMP is 0)`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 2,
    body: 'v_add_nc_i32 v40, v10, v11\nv_sub_nc_i32 v41, v10, v11',
    rows: [
      [0x7fffffff, 1, 0x80000000, 0x7ffffffe],
      [0x80000000, 1, 0x80000001, 0x7fffffff],
    ],
  },
  {
    kind: 'vector',
    id: 'saturate/v_add_u16-v_sub_u16-clamp',
    cite: `${CLAMP}; ${RDNA3_VOP3}, V_ADD_NC_U16 / V_SUB_NC_U16: "Supports saturation (unsigned 16-bit integer domain)" (gfx8/9 V_ADD_U16 / V_SUB_U16)`,
    targets: from(Gen.GFX8),
    ins: 2,
    outs: 2,
    body: (t) =>
      [
        t.gen >= Gen.GFX10 ? 'v_add_nc_u16 v40, v10, v11 clamp' : 'v_add_u16_e64 v40, v10, v11 clamp',
        t.gen >= Gen.GFX10 ? 'v_sub_nc_u16 v41, v10, v11 clamp' : 'v_sub_u16_e64 v41, v10, v11 clamp',
        low16('v40'),
        low16('v41'),
      ].join('\n'),
    rows: U16,
  },
  {
    kind: 'vector',
    id: 'saturate/v_add_i16-v_sub_i16-clamp',
    cite: `${CLAMP}; ${RDNA3_VOP3}, V_ADD_NC_I16 / V_SUB_NC_I16: "Supports saturation (signed 16-bit integer domain)" (gfx9 V_ADD_I16 / V_SUB_I16)`,
    targets: from(Gen.GFX9),
    ins: 2,
    outs: 2,
    body: (t) =>
      [
        t.gen >= Gen.GFX10 ? 'v_add_nc_i16 v40, v10, v11 clamp' : 'v_add_i16 v40, v10, v11 clamp',
        t.gen >= Gen.GFX10 ? 'v_sub_nc_i16 v41, v10, v11 clamp' : 'v_sub_i16 v41, v10, v11 clamp',
        low16('v40'),
        low16('v41'),
      ].join('\n'),
    rows: I16,
  },
  {
    kind: 'vector',
    id: 'saturate/v_pk_add_u16-v_pk_sub_u16-clamp',
    cite: `${CLAMP}; ${RDNA3_VOP3P}, V_PK_ADD_U16 / V_PK_SUB_U16: each 16-bit half on its own, saturated (unsigned) with CLMP`,
    targets: from(Gen.GFX9),
    ins: 2,
    outs: 4,
    body: [
      'v_pk_add_u16 v40, v10, v11 clamp',
      'v_pk_sub_u16 v41, v10, v11 clamp',
      'v_pk_add_u16 v42, v10, v11',
      'v_pk_sub_u16 v43, v10, v11',
    ].join('\n'),
    rows: [
      // a, b, then add clamp, sub clamp, add wrap, sub wrap
      [0xffff0001, 0x0001ffff, 0xffffffff, 0xfffe0000, 0x00000000, 0xfffe0002],
      [0x80008000, 0x80007fff, 0xffffffff, 0x00000001, 0x0000ffff, 0x00000001],
      [0x00050003, 0x00030005, 0x00080008, 0x00020000, 0x00080008, 0x0002fffe],
    ],
  },
  {
    kind: 'vector',
    id: 'saturate/v_pk_add_i16-v_pk_sub_i16-clamp',
    cite: `${CLAMP}; ${RDNA3_VOP3P}, V_PK_ADD_I16 / V_PK_SUB_I16: each 16-bit half on its own, saturated (signed) with CLMP`,
    targets: from(Gen.GFX9),
    ins: 2,
    outs: 4,
    body: [
      'v_pk_add_i16 v40, v10, v11 clamp',
      'v_pk_sub_i16 v41, v10, v11 clamp',
      'v_pk_add_i16 v42, v10, v11',
      'v_pk_sub_i16 v43, v10, v11',
    ].join('\n'),
    rows: [
      [0x7fff8000, 0x0001ffff, 0x7fff8000, 0x7ffe8001, 0x80007fff, 0x7ffe8001],
      [0x80007fff, 0x0001ffff, 0x80017ffe, 0x80007fff, 0x80017ffe, 0x7fff8000],
      [0xc000c000, 0xc0004000, 0x80000000, 0x00008000, 0x80000000, 0x00008000],
    ],
  },
  {
    kind: 'vector',
    id: 'saturate/gfx11-16-bit-result-keeps-the-other-half',
    cite: 'RDNA3 ISA 7.2 "Operands", OPSEL: "For dest=0, dest_vgpr[31:0] = {prev_dst_vgpr[31:16], result[15:0]}; For dest=1, dest_vgpr[31:0] = {result[15:0], prev_dst_vgpr[15:0]}"',
    targets: only(Gen.GFX11),
    ins: 2,
    outs: 2,
    body: [
      'v_mov_b32 v40, 0xabcd0000',
      'v_mov_b32 v41, 0x0000abcd',
      'v_add_nc_u16 v40, v10, v11',
      'v_add_nc_u16 v41, v10, v11 op_sel:[0,0,1]',
    ].join('\n'),
    rows: [
      [0x00010001, 0x00020002, 0xabcd0003, 0x0003abcd],
      [0xffffffff, 0x00000001, 0xabcd0000, 0x0000abcd],
    ],
  },
];
