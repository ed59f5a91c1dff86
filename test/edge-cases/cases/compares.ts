/**
 * Signed against unsigned compares at the points where the two orders disagree: 0x7fffffff,
 * 0x80000000, 0xffffffff (and their 16- and 64-bit counterparts), scalar (SCC) and vector (a lane
 * mask in VCC or an SGPR pair; wave64 puts lanes 32-63 in the high word).
 */
import { Gen } from '../../../src/isa/gen.ts';
import type { EdgeCase } from '../harness.ts';
import { all, from, maskReg } from '../targets.ts';
import { maskToVgpr, sccTo } from './spellings.ts';

const RDNA3_SOPC = 'RDNA3 ISA 16.4 "SOPC Instructions"';
const RDNA3_VOPC = 'RDNA3 ISA 16.9 "VOPC Instructions"';

/** a, b, then a < b signed, a < b unsigned, a >= b signed, a >= b unsigned. */
const ROWS32 = [
  [0x7fffffff, 0x80000000, 0, 1, 1, 0],
  [0x80000000, 0x7fffffff, 1, 0, 0, 1],
  [0xffffffff, 0x00000000, 1, 0, 0, 1],
  [0x00000000, 0xffffffff, 0, 1, 1, 0],
  [0x80000000, 0x80000000, 0, 0, 1, 1],
  [0xffffffff, 0x80000000, 0, 0, 1, 1],
  [0x80000000, 0xffffffff, 1, 1, 0, 0],
  [0x00000001, 0x00000002, 1, 1, 0, 0],
];

export const COMPARE_CASES: readonly EdgeCase[] = [
  {
    kind: 'scalar',
    id: 'compare/s_cmp_lt-ge-i32-vs-u32',
    cite: `${RDNA3_SOPC}, S_CMP_LT_I32 / S_CMP_LT_U32 / S_CMP_GE_I32 / S_CMP_GE_U32: SCC = S0 < S1 (>=) as signed / unsigned`,
    targets: all,
    ins: 2,
    outs: 4,
    body: [
      's_cmp_lt_i32 s16, s17',
      sccTo('s20'),
      's_cmp_lt_u32 s16, s17',
      sccTo('s21'),
      's_cmp_ge_i32 s16, s17',
      sccTo('s22'),
      's_cmp_ge_u32 s16, s17',
      sccTo('s23'),
    ].join('\n'),
    rows: ROWS32,
  },
  {
    kind: 'scalar',
    id: 'compare/s_cmp_eq-lg-u64',
    cite: `${RDNA3_SOPC}, S_CMP_EQ_U64 / S_CMP_LG_U64: SCC = S0.u64 == S1.u64 (!=), all 64 bits`,
    targets: from(Gen.GFX8),
    ins: 4,
    outs: 2,
    body: ['s_cmp_eq_u64 s[16:17], s[18:19]', sccTo('s20'), 's_cmp_lg_u64 s[16:17], s[18:19]', sccTo('s21')].join('\n'),
    rows: [
      [0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0, 1],
      [0x12345678, 0x9abcdef0, 0x12345678, 0x9abcdef0, 1, 0],
      [0x12345678, 0x9abcdef0, 0x12345678, 0x9abcdef1, 0, 1],
      [0, 0, 0, 0, 1, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'compare/v_cmp_lt-ge-i32-vs-u32',
    cite: `${RDNA3_VOPC}, V_CMP_LT_I32 / V_CMP_LT_U32 / V_CMP_GE_I32 / V_CMP_GE_U32: D0[lane] = S0 < S1 (>=) as signed / unsigned; VOP3 writes any SGPR pair`,
    targets: all,
    ins: 2,
    outs: 4,
    body: (t) =>
      [
        `v_cmp_lt_i32_e32 ${t.vcc}, v10, v11`,
        maskToVgpr('v40', t.vcc),
        `v_cmp_lt_u32_e64 ${maskReg(t, 24)}, v10, v11`,
        maskToVgpr('v41', maskReg(t, 24)),
        `v_cmp_ge_i32_e64 ${maskReg(t, 26)}, v10, v11`,
        maskToVgpr('v42', maskReg(t, 26)),
        `v_cmp_ge_u32_e32 ${t.vcc}, v10, v11`,
        maskToVgpr('v43', t.vcc),
      ].join('\n'),
    rows: ROWS32,
  },
  {
    kind: 'vector',
    id: 'compare/v_cmp_lt-i64-vs-u64',
    cite: `${RDNA3_VOPC}, V_CMP_LT_I64 / V_CMP_LT_U64 / V_CMP_GT_I64 / V_CMP_GT_U64: S0.i64 < S1.i64 (signed only in the high word's sign; the low words compare unsigned)`,
    targets: all,
    ins: 4,
    outs: 4,
    body: (t) =>
      [
        `v_cmp_lt_i64_e32 ${t.vcc}, v[10:11], v[12:13]`,
        maskToVgpr('v40', t.vcc),
        `v_cmp_lt_u64_e64 ${maskReg(t, 24)}, v[10:11], v[12:13]`,
        maskToVgpr('v41', maskReg(t, 24)),
        `v_cmp_gt_i64_e32 ${t.vcc}, v[10:11], v[12:13]`,
        maskToVgpr('v42', t.vcc),
        `v_cmp_gt_u64_e64 ${maskReg(t, 24)}, v[10:11], v[12:13]`,
        maskToVgpr('v43', maskReg(t, 24)),
      ].join('\n'),
    rows: [
      // a (lo, hi), b (lo, hi), then lt_i64, lt_u64, gt_i64, gt_u64
      [0xffffffff, 0x7fffffff, 0x00000000, 0x80000000, 0, 1, 1, 0],
      [0x00000000, 0x80000000, 0xffffffff, 0x7fffffff, 1, 0, 0, 1],
      [0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 1, 0, 0, 1],
      [0xffffffff, 0x00000000, 0x00000000, 0x00000001, 1, 1, 0, 0],
      [0x80000000, 0x00000000, 0x7fffffff, 0x00000000, 0, 0, 1, 1],
      [0x00000000, 0xffffffff, 0x00000001, 0xffffffff, 1, 1, 0, 0],
      [0x12345678, 0x80000000, 0x12345678, 0x80000000, 0, 0, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'compare/v_cmp_lt-i16-vs-u16',
    cite: `${RDNA3_VOPC}, V_CMP_LT_I16 / V_CMP_LT_U16: compare S0.i16 < S1.i16 (u16): the low halves only`,
    targets: from(Gen.GFX8),
    ins: 2,
    outs: 2,
    body: (t) =>
      [
        `v_cmp_lt_i16_e32 ${t.vcc}, v10, v11`,
        maskToVgpr('v40', t.vcc),
        `v_cmp_lt_u16_e64 ${maskReg(t, 24)}, v10, v11`,
        maskToVgpr('v41', maskReg(t, 24)),
      ].join('\n'),
    rows: [
      [0x00007fff, 0x00008000, 0, 1],
      [0xffff7fff, 0x00008000, 0, 1],
      [0x00008000, 0x00007fff, 1, 0],
      [0x0000ffff, 0xffff0000, 1, 0],
      [0x00010001, 0x00000002, 1, 1],
      [0x00000002, 0x00010001, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'compare/v_cmpx_lt_u32-writes-exec',
    cite: `${RDNA3_VOPC}, V_CMPX_LT_U32: EXEC[lane] = S0 < S1; a lane switched off keeps the output's previous value (7.2.3: "A thread only writes a result if the associated bit in the EXEC mask is set")`,
    targets: all,
    ins: 2,
    outs: 1,
    body: (t) =>
      [
        'v_mov_b32 v40, 0x5a5a5a5a',
        `s_mov_b${t.maskBits} ${maskReg(t, 24)}, ${t.exec}`,
        t.gen >= Gen.GFX10 ? 'v_cmpx_lt_u32_e32 v10, v11' : `v_cmpx_lt_u32_e32 ${t.vcc}, v10, v11`,
        'v_mov_b32 v40, 1',
        `s_mov_b${t.maskBits} ${t.exec}, ${maskReg(t, 24)}`,
      ].join('\n'),
    rows: [
      [0x7fffffff, 0x80000000, 1],
      [0x80000000, 0x7fffffff, 0x5a5a5a5a],
      [0xffffffff, 0, 0x5a5a5a5a],
      [0, 0xffffffff, 1],
      [5, 5, 0x5a5a5a5a],
    ],
  },
];
