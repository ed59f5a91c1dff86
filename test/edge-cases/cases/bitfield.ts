/**
 * Bit-field extract/insert and funnel shifts with offsets and widths at and past 32: the vector
 * forms take S1[4:0] and S2[4:0] (a width of 32 is a width of 0), the scalar s_bfe packs
 * offset S1[4:0] (S1[5:0] for 64 bits) and a 7-bit width S1[22:16].
 */
import type { EdgeCase } from '../harness.ts';
import { all } from '../targets.ts';
import { sccTo } from './spellings.ts';

const RDNA3_SOP2 = 'RDNA3 ISA 16.1 "SOP2 Instructions"';
const RDNA3_VOP3 = 'RDNA3 ISA 16.12 "VOP3 & VOP3SD Instructions"';
const X = 0x87654321;
/** An s_bfe field operand: offset in [5:0] (only [4:0] or [5:0] read), width in [22:16]. */
const field = (offset: number, width: number): number => (offset | (width << 16)) >>> 0;

export const BITFIELD_CASES: readonly EdgeCase[] = [
  {
    kind: 'vector',
    id: 'bitfield/v_bfe_u32-v_bfe_i32-offset-width-mod-32',
    cite: `${RDNA3_VOP3}, V_BFE_U32: D0 = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1); V_BFE_I32: tmp = (S0.i >> S1[4:0]) & mask, D0 = signextFromBit(tmp, S2[4:0])`,
    targets: all,
    ins: 3,
    outs: 2,
    body: 'v_bfe_u32 v40, v10, v11, v12\nv_bfe_i32 v41, v10, v11, v12',
    rows: [
      [X, 4, 8, 0x00000032, 0x00000032],
      [X, 36, 8, 0x00000032, 0x00000032],
      [X, 4, 40, 0x00000032, 0x00000032],
      [X, 0, 32, 0, 0],
      [X, 12, 0, 0, 0],
      [X, 0, 31, 0x07654321, 0x07654321],
      // Offset + width past 32: the unsigned form sees zeros above bit 31, the signed one S0's sign bits.
      [X, 28, 8, 0x00000008, 0xfffffff8],
      [X, 24, 8, 0x00000087, 0xffffff87],
      [0x000000f0, 4, 4, 0x0000000f, 0xffffffff],
      [0x80000000, 31, 1, 0x00000001, 0xffffffff],
      [0x7fffffff, 31, 1, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'bitfield/v_bfi_b32',
    cite: `${RDNA3_VOP3}, V_BFI_B32: D0 = (S0 & S1) | (~S0 & S2)`,
    targets: all,
    ins: 3,
    outs: 1,
    body: 'v_bfi_b32 v40, v10, v11, v12',
    rows: [
      [0xffff0000, 0x12345678, 0x9abcdef0, 0x1234def0],
      [0x00000000, 0x12345678, 0x9abcdef0, 0x9abcdef0],
      [0xffffffff, 0x12345678, 0x9abcdef0, 0x12345678],
      [0x0f0f0f0f, 0xffffffff, 0x00000000, 0x0f0f0f0f],
    ],
  },
  {
    kind: 'vector',
    id: 'bitfield/v_alignbit_b32-v_alignbyte_b32',
    cite: `${RDNA3_VOP3}, V_ALIGNBIT_B32: D0 = ({S0, S1} >> S2[4:0]) & 0xffffffff; V_ALIGNBYTE_B32: by S2[1:0] * 8 (S0 holds the MSBs)`,
    targets: all,
    ins: 3,
    outs: 2,
    body: 'v_alignbit_b32 v40, v10, v11, v12\nv_alignbyte_b32 v41, v10, v11, v12',
    rows: [
      [0x12345678, 0x9abcdef0, 0, 0x9abcdef0, 0x9abcdef0],
      [0x12345678, 0x9abcdef0, 1, 0x4d5e6f78, 0x789abcde],
      [0x12345678, 0x9abcdef0, 3, 0x13579bde, 0x3456789a],
      [0x12345678, 0x9abcdef0, 4, 0x89abcdef, 0x9abcdef0],
      [0x12345678, 0x9abcdef0, 8, 0x789abcde, 0x9abcdef0],
      [0x12345678, 0x9abcdef0, 31, 0x2468acf1, 0x3456789a],
      [0x12345678, 0x9abcdef0, 32, 0x9abcdef0, 0x9abcdef0],
      [0x12345678, 0x9abcdef0, 36, 0x89abcdef, 0x9abcdef0],
      [0x12345678, 0x9abcdef0, 0x101, 0x4d5e6f78, 0x789abcde],
    ],
  },
  {
    kind: 'scalar',
    id: 'bitfield/s_bfe_u32-s_bfe_i32-width-0-and-past-32',
    cite: `${RDNA3_SOP2}, S_BFE_U32: D0 = (S0 >> S1[4:0]) & ((1 << S1[22:16]) - 1); S_BFE_I32: tmp = (S0.i >> S1[4:0]) & mask, D0 = signextFromBit(tmp, S1[22:16]); SCC = D0 != 0`,
    targets: all,
    ins: 2,
    outs: 4,
    body: ['s_bfe_u32 s20, s16, s17', sccTo('s21'), 's_bfe_i32 s22, s16, s17', sccTo('s23')].join('\n'),
    rows: [
      [X, field(4, 8), 0x32, 1, 0x32, 1],
      [X, field(36, 8), 0x32, 1, 0x32, 1],
      [X, field(4, 0), 0, 0, 0, 0],
      [X, field(28, 8), 0x08, 1, 0xfffffff8, 1],
      [X, field(24, 8), 0x87, 1, 0xffffff87, 1],
      [0x000000f0, field(4, 4), 0x0f, 1, 0xffffffff, 1],
      [0x7fffffff, field(31, 1), 0, 0, 0, 0],
      [0x80000000, field(31, 1), 1, 1, 0xffffffff, 1],
      // Bits of S1 outside [4:0] and [22:16] do not count.
      [X, (field(4, 8) | 0xff80ffe0) >>> 0, 0x32, 1, 0x32, 1],
    ],
  },
  {
    kind: 'scalar',
    id: 'bitfield/s_bfe_u64-s_bfe_i64',
    cite: `${RDNA3_SOP2}, S_BFE_U64 / S_BFE_I64: offset S1[5:0], width S1[22:16], 64-bit source; SCC = D0 != 0`,
    targets: all,
    ins: 3,
    outs: 4,
    body: ['s_bfe_u64 s[20:21], s[16:17], s18', 's_bfe_i64 s[22:23], s[16:17], s18'].join('\n'),
    rows: [
      // value 0x87654321_0fedcba9
      [0x0fedcba9, X, field(28, 8), 0x10, 0, 0x10, 0],
      [0x0fedcba9, X, field(32, 16), 0x4321, 0, 0x4321, 0],
      [0x0fedcba9, X, field(56, 16), 0x87, 0, 0xffffff87, 0xffffffff],
      [0x0fedcba9, X, field(60, 4), 0x8, 0, 0xfffffff8, 0xffffffff],
      [0x0fedcba9, X, field(0, 0), 0, 0, 0, 0],
      [0x0fedcba9, X, field(64 + 4, 8), 0xba, 0, 0xffffffba, 0xffffffff],
    ],
  },
];
