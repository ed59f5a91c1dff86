/**
 * Add and subtract with carry-in and carry-out: the vector forms (VCC or an SGPR lane mask, under
 * every generation's name) and the scalar ones (SCC), at the wrap points 0, 0x7fffffff,
 * 0x80000000, 0xffffffff.
 */
import type { EdgeCase } from '../harness.ts';
import { all, maskReg } from '../targets.ts';
import { carryName, maskToVgpr, sccTo } from './spellings.ts';

const RDNA3_SOP2 = 'RDNA3 ISA 16.1 "SOP2 Instructions"';
const RDNA3_VOP2 = 'RDNA3 ISA 16.7 "VOP2 Instructions"';
const RDNA3_VOP3 = 'RDNA3 ISA 16.12 "VOP3 & VOP3SD Instructions"';

/** a, b, carry-in (for the _ci forms), then d, carry-out. */
const ADD_ROWS = [
  [0xffffffff, 1, 0, 0, 1],
  [0xffffffff, 0xffffffff, 0, 0xfffffffe, 1],
  [0x7fffffff, 1, 0, 0x80000000, 0],
  [0x80000000, 0x80000000, 0, 0, 1],
  [0xfffffffe, 1, 0, 0xffffffff, 0],
  [0, 0, 0, 0, 0],
];
const ADDC_ROWS = [
  [0xffffffff, 0, 1, 0, 1],
  [0xffffffff, 0xffffffff, 1, 0xffffffff, 1],
  [0xfffffffe, 0, 1, 0xffffffff, 0],
  [0, 0, 1, 1, 0],
  [0x80000000, 0x7fffffff, 1, 0, 1],
  [0xffffffff, 1, 0, 0, 1],
  [5, 6, 0, 11, 0],
];
/** a - b: borrow when b > a. */
const SUB_ROWS = [
  [0, 1, 0, 0xffffffff, 1],
  [1, 1, 0, 0, 0],
  [0x80000000, 1, 0, 0x7fffffff, 0],
  [0x7fffffff, 0x80000000, 0, 0xffffffff, 1],
  [0xffffffff, 0xffffffff, 0, 0, 0],
];
/** a - b - c: borrow when b + c > a (as 33-bit numbers). */
const SUBB_ROWS = [
  [0, 0, 1, 0xffffffff, 1],
  [1, 0, 1, 0, 0],
  [0, 0xffffffff, 1, 0, 1],
  [5, 5, 1, 0xffffffff, 1],
  [5, 4, 1, 0, 0],
  [0xffffffff, 0xffffffff, 1, 0xffffffff, 1],
  [7, 3, 0, 4, 0],
];

/** The body of a vector carry case: carry-in from v12 (nonzero: set), d to v40, carry-out to v41. */
function vectorCarry(op: Parameters<typeof carryName>[1], viaSgpr: boolean) {
  return (t: Parameters<typeof carryName>[0]): string => {
    const mask = viaSgpr ? maskReg(t, 24) : t.vcc;
    const withIn = op === 'addc' || op === 'subb' || op === 'subbrev';
    const lines = [`v_cmp_ne_u32_e64 ${mask}, 0, v12`];
    const e64 = viaSgpr ? '_e64' : '';
    lines.push(`${carryName(t, op)}${e64} v40, ${mask}, v10, v11${withIn ? `, ${mask}` : ''}`);
    lines.push(maskToVgpr('v41', mask));
    return lines.join('\n');
  };
}

/** Swaps a and b of each row (the subrev forms). */
const rev = (rows: number[][]): number[][] => rows.map(([a, b, ...r]) => [b, a, ...r]);

export const CARRY_CASES: readonly EdgeCase[] = [
  {
    kind: 'vector',
    id: 'carry/v_add_co_u32-carry-out',
    cite: `${RDNA3_VOP2}, V_ADD_CO_CI_U32 and ${RDNA3_VOP3}, V_ADD_CO_U32: VCC[lane] = S0 + S1 >= 2^32; D0 = the low 32 bits (gfx7 V_ADD_I32, gfx8 V_ADD_U32)`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('add', false),
    rows: ADD_ROWS,
  },
  {
    kind: 'vector',
    id: 'carry/v_add_co_u32-sgpr-carry-out',
    cite: `${RDNA3_VOP3}, V_ADD_CO_U32: "In VOP3 the VCC destination may be an arbitrary SGPR-pair"`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('add', true),
    rows: ADD_ROWS,
  },
  {
    kind: 'vector',
    id: 'carry/v_addc_co_u32-carry-in-and-out',
    cite: `${RDNA3_VOP2}, V_ADD_CO_CI_U32: tmp = S0 + S1 + VCC[lane]; VCC[lane] = tmp >= 2^32 (gfx9 V_ADDC_CO_U32, gfx7/8 V_ADDC_U32)`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('addc', false),
    rows: ADDC_ROWS,
  },
  {
    kind: 'vector',
    id: 'carry/v_addc_co_u32-sgpr-carry-in-and-out',
    cite: `${RDNA3_VOP2}, V_ADD_CO_CI_U32: "In VOP3 the VCC destination may be an arbitrary SGPR-pair, and the VCC source comes from the SGPR-pair at S2"`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('addc', true),
    rows: ADDC_ROWS,
  },
  {
    kind: 'vector',
    id: 'carry/v_sub_co_u32-borrow',
    cite: `${RDNA3_VOP3}, V_SUB_CO_U32: D0 = S0 - S1; VCC[lane] = S1 > S0 (gfx7 V_SUB_I32, gfx8 V_SUB_U32)`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('sub', false),
    rows: SUB_ROWS,
  },
  {
    kind: 'vector',
    id: 'carry/v_subrev_co_u32-borrow',
    cite: `${RDNA3_VOP3}, V_SUBREV_CO_U32: D0 = S1 - S0; VCC[lane] = S0 > S1`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('subrev', false),
    rows: rev(SUB_ROWS),
  },
  {
    kind: 'vector',
    id: 'carry/v_sub_co_ci_u32-borrow-in-and-out',
    cite: `${RDNA3_VOP2}, V_SUB_CO_CI_U32: D0 = S0 - S1 - VCC[lane]; VCC[lane] = S1 + VCC[lane] > S0 (gfx9 V_SUBB_CO_U32, gfx7/8 V_SUBB_U32)`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('subb', false),
    rows: SUBB_ROWS,
  },
  {
    kind: 'vector',
    id: 'carry/v_subrev_co_ci_u32-borrow-in-and-out',
    cite: `${RDNA3_VOP2}, V_SUBREV_CO_CI_U32: D0 = S1 - S0 - VCC[lane]; VCC[lane] = S0 + VCC[lane] > S1 (gfx9 V_SUBBREV_CO_U32, gfx7/8 V_SUBBREV_U32)`,
    targets: all,
    ins: 3,
    outs: 2,
    body: vectorCarry('subbrev', true),
    rows: rev(SUBB_ROWS),
  },
  {
    kind: 'vector',
    id: 'carry/v_mad_u64_u32-carry-out',
    cite: `${RDNA3_VOP3}, V_MAD_U64_U32: { D1.u1, D0.u64 } = 65'U(S0.u32 * S1.u32) + 65'U(S2.u64)`,
    targets: all,
    ins: 4,
    outs: 3,
    body: (t) =>
      [`v_mad_u64_u32 v[40:41], ${maskReg(t, 24)}, v10, v11, v[12:13]`, maskToVgpr('v42', maskReg(t, 24))].join('\n'),
    rows: [
      // 0xffffffff^2 + (2^64 - 1) = 0x1_fffffffe_00000000
      [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0xfffffffe, 1],
      // 0xffffffff^2 + 0x1_ffffffff = 2^64 exactly: 0 and a carry
      [0xffffffff, 0xffffffff, 0xffffffff, 0x00000001, 0, 0, 1],
      [0x10000, 0x10000, 0xffffffff, 0, 0xffffffff, 1, 0],
      [3, 5, 7, 0, 22, 0, 0],
    ],
  },
  {
    kind: 'scalar',
    id: 'carry/s_add_u32-s_addc_u32-scc',
    cite: `${RDNA3_SOP2}, S_ADD_U32: SCC = S0 + S1 >= 2^32; S_ADDC_U32: tmp = S0 + S1 + SCC, SCC = tmp >= 2^32`,
    targets: all,
    ins: 3,
    outs: 4,
    body: [
      's_add_u32 s20, s16, s17',
      sccTo('s21'),
      's_cmp_lg_u32 s18, 0', // SCC = carry-in
      's_addc_u32 s22, s16, s17',
      sccTo('s23'),
    ].join('\n'),
    rows: [
      [0xffffffff, 1, 0, 0, 1, 0, 1],
      [0xffffffff, 0, 1, 0xffffffff, 0, 0, 1],
      [0xffffffff, 0xffffffff, 1, 0xfffffffe, 1, 0xffffffff, 1],
      [0x7fffffff, 0x80000000, 1, 0xffffffff, 0, 0, 1],
      [0x7fffffff, 1, 0, 0x80000000, 0, 0x80000000, 0],
      [0xfffffffe, 0, 1, 0xfffffffe, 0, 0xffffffff, 0],
    ],
  },
  {
    kind: 'scalar',
    id: 'carry/s_sub_u32-s_subb_u32-scc',
    cite: `${RDNA3_SOP2}, S_SUB_U32: SCC = S1 > S0; S_SUBB_U32: D0 = S0 - S1 - SCC, SCC = S1 + SCC > S0`,
    targets: all,
    ins: 3,
    outs: 4,
    body: [
      's_sub_u32 s20, s16, s17',
      sccTo('s21'),
      's_cmp_lg_u32 s18, 0',
      's_subb_u32 s22, s16, s17',
      sccTo('s23'),
    ].join('\n'),
    rows: [
      [0, 1, 0, 0xffffffff, 1, 0xffffffff, 1],
      [0, 0, 1, 0, 0, 0xffffffff, 1],
      [1, 0, 1, 1, 0, 0, 0],
      [0, 0xffffffff, 1, 1, 1, 0, 1],
      [0x80000000, 0x7fffffff, 1, 1, 0, 0, 0],
      [0x7fffffff, 0x7fffffff, 1, 0, 0, 0xffffffff, 1],
    ],
  },
  {
    kind: 'scalar',
    id: 'carry/s_add_i32-s_sub_i32-signed-overflow-scc',
    cite: `${RDNA3_SOP2}, S_ADD_I32: SCC = S0[31] == S1[31] && S0[31] != D0[31]; S_SUB_I32: SCC = S0[31] != S1[31] && S0[31] != D0[31] (signed overflow)`,
    targets: all,
    ins: 2,
    outs: 4,
    body: ['s_add_i32 s20, s16, s17', sccTo('s21'), 's_sub_i32 s22, s16, s17', sccTo('s23')].join('\n'),
    rows: [
      [0x7fffffff, 1, 0x80000000, 1, 0x7ffffffe, 0],
      [0x80000000, 0xffffffff, 0x7fffffff, 1, 0x80000001, 0],
      [0xffffffff, 1, 0, 0, 0xfffffffe, 0],
      [0x80000000, 1, 0x80000001, 0, 0x7fffffff, 1],
      [0, 0x80000000, 0x80000000, 0, 0x80000000, 1],
      [0xffffffff, 0x7fffffff, 0x7ffffffe, 0, 0x80000000, 0],
      [0x7fffffff, 0xffffffff, 0x7ffffffe, 0, 0x80000000, 1],
    ],
  },
  {
    kind: 'scalar',
    id: 'carry/s_absdiff_i32-functional-examples',
    cite: `${RDNA3_SOP2}, S_ABSDIFF_I32 functional examples (0x80000000 - 0 stays 0x80000000); SCC = D0 != 0`,
    targets: all,
    ins: 2,
    outs: 2,
    body: `s_absdiff_i32 s20, s16, s17\n${sccTo('s21')}`,
    rows: [
      [0x00000002, 0x00000005, 0x00000003, 1],
      [0xffffffff, 0x00000000, 0x00000001, 1],
      [0x80000000, 0x00000000, 0x80000000, 1],
      [0x80000000, 0x00000001, 0x7fffffff, 1],
      [0x80000000, 0xffffffff, 0x7fffffff, 1],
      [0x80000000, 0xfffffffe, 0x7ffffffe, 1],
      [0x12345678, 0x12345678, 0, 0],
    ],
  },
];
