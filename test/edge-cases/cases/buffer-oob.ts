/**
 * Out-of-range buffer accesses per generation (DESCRIPTORS.md section 1, "NUM_RECORDS units and
 * out-of-bounds (OOB) rules" and "Result of an OOB access", from Mesa's si_state.c / RADV / ac_descriptors.c
 * and AMD's RDNA 2 ISA chapter 8): how NUM_RECORDS counts (bytes or records), raw against
 * structured (IDXEN) and swizzled access, gfx10+ OOB_SELECT, loads returning 0 (and 1 for a DST_SEL
 * of 1), stores dropped, multi-dword loads checked per dword.
 *
 * The probe V# (s[8:11]) covers a region of distinct words (0x1000 + i); the region reaches past
 * NUM_RECORDS, so an access the range check should stop would read a nonzero word.
 */
import { Gen } from '../../../src/isa/gen.ts';
import type { Json } from '../../corpus-kernels/common.ts';
import type { EdgeCase } from '../harness.ts';
import { all, from, only, type EdgeTarget } from '../targets.ts';

const UNITS =
  'DESCRIPTORS.md 1, NUM_RECORDS units: gfx7 bytes if STRIDE = 0, else records (compared with the index); gfx8 bytes if STRIDE = 0 or SWIZZLE_ENABLE = 0, else records; gfx9 bytes if IDXEN = 0 or STRIDE = 0, else records';
const RESULT =
  'DESCRIPTORS.md 1, "Result of an OOB access" (RDNA 2 ISA chapter 8): loads return 0, components whose dst_sel is 1 return 1, stores are dropped, dword x2-x4 accesses are checked per component';
const OOB_SELECT =
  'DESCRIPTORS.md 1, GFX10 OOB_SELECT (ac_descriptors.c): 0 index >= NUM_RECORDS or offset >= STRIDE, 1 index >= NUM_RECORDS, 2 only NUM_RECORDS == 0, 3 (raw) offset >= NUM_RECORDS';

/** The probe region's words: 0x1000 + i. */
const probeWords = (n: number): number[] => Array.from({ length: n }, (_, i) => 0x1000 + i);
const word = (byteOffset: number): number => 0x1000 + byteOffset / 4;
const SEL = { dst_sel_x: 'x', dst_sel_y: 'y', dst_sel_z: 'z', dst_sel_w: 'w' } as const;

/** A V# of the target's generation: FORMAT 32_FLOAT (gfx10+) / DATA_FORMAT 32, NUM_FORMAT FLOAT, plus fields. */
function vsharp(t: EdgeTarget, fields: Record<string, Json>): Record<string, Json> {
  const fmt: Record<string, Json> =
    t.gen === Gen.GFX11
      ? { format: 22 }
      : t.gen >= Gen.GFX10
        ? { format: 22, resource_level: 1 }
        : { data_format: 4, num_format: 7 };
  return { ...SEL, ...fmt, ...fields };
}
/** FORMAT 32_32_32_32_FLOAT: 77 in gfx10's unified table, 63 in gfx11's, DATA_FORMAT 14 before. */
function vsharpXyzw(t: EdgeTarget, fields: Record<string, Json>): Record<string, Json> {
  const fmt: Record<string, Json> =
    t.gen === Gen.GFX11
      ? { format: 63 }
      : t.gen >= Gen.GFX10
        ? { format: 77, resource_level: 1 }
        : { data_format: 14, num_format: 7 };
  return { ...SEL, ...fmt, ...fields };
}
/** gfx10+ raw buffers need OOB_SELECT 3 to count NUM_RECORDS in bytes (RADV's storage buffers). */
const raw = (t: EdgeTarget): Record<string, Json> => (t.gen >= Gen.GFX10 ? { oob_select: 3 } : {});

export const BUFFER_OOB_CASES: readonly EdgeCase[] = [
  {
    kind: 'vector',
    id: 'buffer-oob/raw-load-past-num-records-reads-0',
    cite: `${UNITS}; gfx10+ ${OOB_SELECT}; ${RESULT}`,
    targets: all,
    ins: 1,
    outs: 2,
    body: 'buffer_load_dword v40, v10, s[8:11], 0 offen\nbuffer_load_dword v41, v10, s[8:11], 0 offen offset:16\ns_waitcnt vmcnt(0)',
    probe: { descriptor: (t) => vsharp(t, { num_records: 32, ...raw(t) }), data: probeWords(24) },
    rows: [
      // vaddr offset, then the load at it and at it + 16
      [0, word(0), word(16)],
      [12, word(12), word(28)],
      [16, word(16), 0],
      [28, word(28), 0],
      [32, 0, 0],
      [60, 0, 0],
      [0x1000, 0, 0],
      [0xffffff00, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/raw-store-past-num-records-dropped',
    cite: `${UNITS}; gfx10+ ${OOB_SELECT}; ${RESULT}`,
    targets: all,
    ins: 2,
    outs: 0,
    body: 'buffer_store_dword v11, v10, s[8:11], 0 offen\ns_waitcnt vmcnt(0)',
    probe: {
      descriptor: (t) => vsharp(t, { num_records: 16, ...raw(t) }),
      data: probeWords(8),
      after: () => [0xaaaa0000, 0xaaaa0004, 0x1002, 0xaaaa000c, 0x1004, 0x1005, 0x1006, 0x1007],
    },
    rows: [
      [0, 0xaaaa0000],
      [4, 0xaaaa0004],
      [12, 0xaaaa000c],
      [16, 0xbbbb0010],
      [20, 0xbbbb0014],
      [28, 0xbbbb001c],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/dwordx2-checked-per-dword',
    cite: `${RESULT}; ${UNITS}`,
    targets: all,
    ins: 1,
    outs: 2,
    body: 'buffer_load_dwordx2 v[40:41], v10, s[8:11], 0 offen\ns_waitcnt vmcnt(0)',
    probe: { descriptor: (t) => vsharp(t, { num_records: 32, ...raw(t) }), data: probeWords(16) },
    rows: [
      [0, word(0), word(4)],
      [24, word(24), word(28)],
      [28, word(28), 0],
      [32, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/format-load-out-of-range-gives-dst-sel-one',
    cite: `${RESULT}: an out-of-range BUFFER_LOAD_FORMAT_XYZW gives 0, 0, 0 and the 1.0 its DST_SEL_W = 1 selects`,
    targets: all,
    ins: 1,
    outs: 4,
    body: 'buffer_load_format_xyzw v[40:43], v10, s[8:11], 0 idxen\ns_waitcnt vmcnt(0)',
    probe: {
      descriptor: (t) =>
        vsharpXyzw(t, {
          stride: 16,
          num_records: 2,
          dst_sel_w: '1',
          ...(t.gen === Gen.GFX8 ? { num_records: 32 } : {}),
          ...(t.gen >= Gen.GFX10 ? { oob_select: 1 } : {}),
        }),
      data: [
        0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x40a00000, 0x40c00000, 0x40e00000, 0x41000000, 0x41100000,
      ],
    },
    rows: [
      // index, then x y z w
      [0, 0x3f800000, 0x40000000, 0x40400000, 0x3f800000],
      [1, 0x40a00000, 0x40c00000, 0x40e00000, 0x3f800000],
      [2, 0, 0, 0, 0x3f800000],
      [100, 0, 0, 0, 0x3f800000],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx7-gfx9-structured-counts-records',
    cite: `${UNITS}: with STRIDE 8 and IDXEN, NUM_RECORDS 3 is three records on gfx7 and gfx9`,
    targets: only(Gen.GFX7, Gen.GFX9),
    ins: 1,
    outs: 2,
    body: 'buffer_load_dword v40, v10, s[8:11], 0 idxen\nbuffer_load_dword v41, v10, s[8:11], 0 idxen offset:4\ns_waitcnt vmcnt(0)',
    probe: { descriptor: (t) => vsharp(t, { stride: 8, num_records: 3 }), data: probeWords(12) },
    rows: [
      [0, word(0), word(4)],
      [2, word(16), word(20)],
      [3, 0, 0],
      [5, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx8-unswizzled-structured-counts-bytes',
    cite: `${UNITS}: on gfx8 an unswizzled V# counts NUM_RECORDS in bytes even with STRIDE 8 and IDXEN`,
    targets: only(Gen.GFX8),
    ins: 1,
    outs: 2,
    body: 'buffer_load_dword v40, v10, s[8:11], 0 idxen\nbuffer_load_dword v41, v10, s[8:11], 0 idxen offset:4\ns_waitcnt vmcnt(0)',
    probe: { descriptor: (t) => vsharp(t, { stride: 8, num_records: 20 }), data: probeWords(12) },
    rows: [
      [0, word(0), word(4)],
      [1, word(8), word(12)],
      [2, word(16), 0],
      [3, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx9-raw-access-to-a-strided-buffer-counts-bytes',
    cite: `${UNITS}: on gfx9 an access without IDXEN counts NUM_RECORDS in bytes, whatever STRIDE is`,
    targets: only(Gen.GFX9),
    ins: 1,
    outs: 1,
    body: 'buffer_load_dword v40, v10, s[8:11], 0 offen\ns_waitcnt vmcnt(0)',
    probe: { descriptor: (t) => vsharp(t, { stride: 8, num_records: 12 }), data: probeWords(12) },
    rows: [
      [0, word(0)],
      [8, word(8)],
      [12, 0],
      [40, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx7-gfx8-swizzled-counts-records',
    cite: `${UNITS}; DESCRIPTORS.md 1, swizzled address: ((index / IS) * STRIDE + (offset / ES) * ES) * IS + (index % IS) * ES + offset % ES, ELEMENT_SIZE 4 bytes (1), INDEX_STRIDE 8 (0)`,
    targets: only(Gen.GFX7, Gen.GFX8),
    ins: 1,
    outs: 1,
    body: 'buffer_load_dword v40, v10, s[8:11], 0 idxen\ns_waitcnt vmcnt(0)',
    probe: {
      descriptor: (t) => vsharp(t, { stride: 4, num_records: 5, swizzle_enable: 1, element_size: 1, index_stride: 0 }),
      data: probeWords(16),
    },
    rows: [
      [0, word(0)],
      [3, word(12)],
      [4, word(16)],
      [5, 0],
      [7, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx10-oob-select-0-index-and-offset',
    cite: `${OOB_SELECT}: mode 0 with STRIDE 8, NUM_RECORDS 3`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 1,
    body: 'buffer_load_dword v40, v[10:11], s[8:11], 0 idxen offen\ns_waitcnt vmcnt(0)',
    probe: { descriptor: (t) => vsharp(t, { stride: 8, num_records: 3, oob_select: 0 }), data: probeWords(16) },
    rows: [
      // index, offset, then the load
      [0, 0, word(0)],
      [2, 4, word(20)],
      [3, 0, 0],
      [1, 8, 0],
      [0, 12, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx10-oob-select-1-index-only',
    cite: `${OOB_SELECT}: mode 1 with STRIDE 8, NUM_RECORDS 3 (an offset past STRIDE still reads)`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 1,
    body: 'buffer_load_dword v40, v[10:11], s[8:11], 0 idxen offen\ns_waitcnt vmcnt(0)',
    probe: { descriptor: (t) => vsharp(t, { stride: 8, num_records: 3, oob_select: 1 }), data: probeWords(16) },
    rows: [
      [0, 0, word(0)],
      [2, 4, word(20)],
      [3, 0, 0],
      [1, 8, word(16)],
      [0, 12, word(12)],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx10-oob-select-2-only-num-records-0',
    cite: `${OOB_SELECT}: mode 2 checks nothing but NUM_RECORDS == 0`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 2,
    body: [
      'buffer_load_dword v40, v[10:11], s[8:11], 0 idxen offen',
      // The same V# with NUM_RECORDS 0: everything is out of range.
      's_mov_b32 s24, s8',
      's_mov_b32 s25, s9',
      's_mov_b32 s26, 0',
      's_mov_b32 s27, s11',
      'buffer_load_dword v41, v[10:11], s[24:27], 0 idxen offen',
      's_waitcnt vmcnt(0)',
    ].join('\n'),
    probe: { descriptor: (t) => vsharp(t, { stride: 8, num_records: 1, oob_select: 2 }), data: probeWords(16) },
    rows: [
      [0, 0, word(0), 0],
      [3, 4, word(28), 0],
      [1, 12, word(20), 0],
    ],
  },
  {
    kind: 'vector',
    id: 'buffer-oob/gfx10-oob-select-3-raw-store-dropped',
    cite: `${OOB_SELECT}: mode 3, raw, stores at or past NUM_RECORDS bytes are dropped (${RESULT})`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 0,
    body: 'buffer_store_dword v11, v10, s[8:11], 0 offen offset:4\ns_waitcnt vmcnt(0)',
    probe: {
      descriptor: (t) => vsharp(t, { num_records: 12, oob_select: 3 }),
      data: probeWords(6),
      after: () => [0x1000, 0xc0de0000, 0xc0de0004, 0x1003, 0x1004, 0x1005],
    },
    rows: [
      [0, 0xc0de0000],
      [4, 0xc0de0004],
      [8, 0xdead0008],
      [16, 0xdead0010],
    ],
  },
];
