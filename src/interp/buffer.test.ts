/**
 * MUBUF / MTBUF in the interpreter (D009): format loads and stores through formats.ts and
 * format-store.ts (DST_SEL, out of range through DST_SEL, SINT, UNORM rounding and clamping,
 * FLOAT16, partial element stores), d16 format forms (packed on gfx9, unpacked on gfx8),
 * byte and short forms with d16 halves, atomics with and without glc (return values in lane
 * order, 64-bit carries, out of range), swizzled addresses, IDXEN+OFFEN, and the public gfx7
 * capture's load on a hand-built V#.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Gen } from '../isa/gen.ts';
import { atomic32, parseMemOp } from './buffer-ops.ts';
import { DATA, bytesOf, dataRange, f32, runKernel, u32At, vsharp } from './buffer-harness.ts';
import { loadVectorBridge, type VectorBridge } from './vector-bridge.ts';

const OUT = DATA + 0x100;
let vector: VectorBridge | undefined;
beforeAll(async () => {
  vector = await loadVectorBridge();
});

/** A V# over the output area: raw bytes, stride 0. */
const outV = (gen: Gen): number[] =>
  vsharp(
    gen,
    gen >= Gen.GFX10
      ? { base_address: OUT, num_records: 0x100, format: 1, oob_select: 3 }
      : { base_address: OUT, num_records: 0x100, data_format: 4, num_format: 4 },
  );

describe('names', () => {
  it('maps old and gfx11 names to the same ops', () => {
    expect(parseMemOp('load_ubyte')).toEqual(parseMemOp('load_u8'));
    expect(parseMemOp('load_short_d16_hi')).toEqual(parseMemOp('load_d16_hi_b16'));
    expect(parseMemOp('atomic_umin')).toEqual(parseMemOp('atomic_min_u32'));
    expect(parseMemOp('atomic_smax_x2')).toEqual(parseMemOp('atomic_max_i64'));
    expect(parseMemOp('load_format_d16_hi_x')).toEqual(parseMemOp('load_d16_hi_format_x'));
    expect(typeof parseMemOp('atomic_fmin')).toBe('string');
    expect(atomic32('inc', 5, 5, 0)).toBe(0);
    expect(atomic32('dec', 0, 7, 0)).toBe(7);
    expect(atomic32('smin', 0xffffffff, 1, 0)).toBe(0xffffffff);
  });
});

describe('format loads and stores', () => {
  it('loads 8_8_8_8 UNORM through DST_SEL (z, y, x, 1); out of range reads 0 through DST_SEL (gfx9, idxen)', () => {
    const src = new Uint8Array(0x200);
    for (let i = 0; i < 2; i++) src.set([i * 17, 255, 102, 51], 4 * i);
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 3,
      vector,
      userData: [
        ...vsharp(Gen.GFX9, {
          stride: 4,
          num_records: 2,
          data_format: 10,
          num_format: 0,
          dst_sel_x: 6,
          dst_sel_y: 5,
          dst_sel_z: 4,
          dst_sel_w: 1,
        }),
        ...outV(Gen.GFX9),
      ],
      ranges: [dataRange(src)],
      asm: `buffer_load_format_xyzw v[1:4], v0, s[0:3], 0 idxen
        s_waitcnt vmcnt(0)
        v_lshlrev_b32 v5, 4, v0
        buffer_store_dwordx4 v[1:4], v5, s[4:7], 0 offen
        s_endpgm`,
    });
    const got = u32At(memory, OUT, 12).map(f32);
    expect(got).toEqual([102 / 255, 1, 0, 1, 102 / 255, 1, 17 / 255, 1, 0, 0, 0, 1].map(Math.fround));
  });

  it('tbuffer on gfx10.3 takes the instruction FORMAT (16_16 SINT), on gfx7 DFMT/NFMT (16_16 UNORM)', () => {
    const src = dataRange(bytesOf(0xffff8000, 0x00017fff));
    const r10 = runKernel({
      cpu: 'gfx1030',
      threads: 2,
      vector,
      userData: [
        ...vsharp(Gen.GFX10_3, {
          stride: 4,
          num_records: 2,
          format: 1,
          dst_sel_x: 4,
          dst_sel_y: 5,
          dst_sel_z: 6,
          dst_sel_w: 7,
        }),
        ...outV(Gen.GFX10_3),
      ],
      ranges: [src, { address: OUT, bytes: new Uint8Array(0x100) }],
      asm: `tbuffer_load_format_xy v[1:2], v0, s[0:3], 0 idxen format:[BUF_FMT_16_16_SINT]
        s_waitcnt vmcnt(0)
        v_lshlrev_b32 v5, 3, v0
        buffer_store_dwordx2 v[1:2], v5, s[4:7], 0 offen
        s_endpgm`,
    });
    expect(u32At(r10.memory, OUT, 4).map((x) => x | 0)).toEqual([-32768, -1, 32767, 1]);
    const r7 = runKernel({
      cpu: 'gfx700',
      wave64: true,
      threads: 1,
      userData: [
        ...vsharp(Gen.GFX7, { stride: 4, num_records: 2, data_format: 4, num_format: 4, dst_sel_x: 4, dst_sel_y: 5 }),
        ...outV(Gen.GFX7),
      ],
      ranges: [src, { address: OUT, bytes: new Uint8Array(0x100) }],
      asm: `tbuffer_load_format_xy v[1:2], v0, s[0:3], 0 idxen offset:4 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UNORM]
        s_waitcnt vmcnt(0)
        buffer_store_dwordx2 v[1:2], v0, s[4:7], 0 offen
        s_endpgm`,
    });
    expect(u32At(r7.memory, OUT, 2).map(f32)).toEqual([0x7fff / 0xffff, 1 / 0xffff].map(Math.fround));
  });

  it('stores 8_8_8_8 UNORM clamped and rounded, 16_16 FLOAT, and a partial element (format_x) (gfx9)', () => {
    const init = new Uint8Array(0x200);
    init.set([0xdd, 0xcc, 0xbb, 0xaa], 4);
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 1,
      vector,
      userData: [
        ...vsharp(Gen.GFX9, { num_records: 0x100, data_format: 10, num_format: 0 }),
        ...vsharp(Gen.GFX9, { num_records: 0x100, data_format: 5, num_format: 7 }),
      ],
      ranges: [dataRange(init)],
      asm: `v_mov_b32 v1, 1.5
        v_mov_b32 v2, 0xbe4ccccd
        v_mov_b32 v3, 0.5
        v_mov_b32 v4, 0x3e800000
        buffer_store_format_xyzw v[1:4], off, s[0:3], 0
        buffer_store_format_x v3, off, s[0:3], 0 offset:4
        v_mov_b32 v1, 1.0
        v_mov_b32 v2, -2.0
        buffer_store_format_xy v[1:2], off, s[4:7], 0 offset:8
        s_endpgm`,
    });
    expect(Array.from(memory.read(DATA, 12))).toEqual([255, 0, 128, 64, 128, 0xcc, 0xbb, 0xaa, 0x00, 0x3c, 0x00, 0xc0]);
  });

  it('tbuffer stores 16 SNORM with DFMT/NFMT: -1 -> 0x8001, 0.5 rounds half to even -> 0x4000 (gfx9)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 1,
      vector,
      userData: vsharp(Gen.GFX9, { num_records: 0x100, data_format: 4, num_format: 4 }),
      ranges: [dataRange(0x200)],
      asm: `v_mov_b32 v1, -1.0
        v_mov_b32 v2, 0.5
        tbuffer_store_format_x v1, off, s[0:3], 0 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_SNORM]
        tbuffer_store_format_x v2, off, s[0:3], 0 offset:2 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_SNORM]
        s_endpgm`,
    });
    expect(memory.read32(DATA)).toBe(0x40008001);
  });

  it('d16 format loads pack halves and keep the other half (gfx9)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 1,
      vector,
      userData: [
        ...vsharp(Gen.GFX9, {
          num_records: 0x100,
          data_format: 10,
          num_format: 4,
          dst_sel_x: 4,
          dst_sel_y: 5,
          dst_sel_z: 6,
          dst_sel_w: 7,
        }),
        ...outV(Gen.GFX9),
      ],
      ranges: [dataRange(bytesOf(0x04030201, ...new Array<number>(127).fill(0)))],
      asm: `v_mov_b32 v3, 0x5555aaaa
        buffer_load_format_d16_xyz v[1:2], off, s[0:3], 0
        buffer_load_format_d16_hi_x v3, off, s[0:3], 0
        s_waitcnt vmcnt(0)
        buffer_store_dwordx3 v[1:3], off, s[4:7], 0
        s_endpgm`,
    });
    expect(u32At(memory, OUT, 3)).toEqual([0x00020001, 0x00000003, 0x0001aaaa]);
  });

  // LLVM's FeatureUnpackedD16VMem (gfx8): one half a VGPR, in its low half.
  it('gfx8 d16 format loads and stores are unpacked: one half in the low half of each VGPR', () => {
    const { memory } = runKernel({
      cpu: 'gfx803',
      wave64: true,
      threads: 1,
      vector,
      userData: [
        ...vsharp(Gen.GFX8, {
          num_records: 0x100,
          data_format: 12,
          num_format: 7,
          dst_sel_x: 4,
          dst_sel_y: 5,
          dst_sel_z: 6,
          dst_sel_w: 7,
        }),
        ...outV(Gen.GFX8),
      ],
      ranges: [dataRange(bytesOf(0xc0003c00, 0x00017bff, ...new Array<number>(126).fill(0)))],
      asm: `v_mov_b32 v1, 0x5555aaaa
        v_mov_b32 v2, 0x5555aaaa
        v_mov_b32 v3, 0x5555aaaa
        v_mov_b32 v4, 0xffff4400
        v_mov_b32 v5, 0x1234b800
        buffer_load_format_d16_xyz v[1:3], off, s[0:3], 0
        s_waitcnt vmcnt(0)
        buffer_store_dwordx3 v[1:3], off, s[4:7], 0
        tbuffer_store_format_d16_xy v[4:5], off, s[4:7], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offset:16
        s_endpgm`,
    });
    expect(u32At(memory, OUT, 3)).toEqual([0x00003c00, 0x0000c000, 0x00007bff]);
    expect(memory.read32(OUT + 16)).toBe(0xb8004400);
  });
});

describe('bytes, shorts and d16 halves', () => {
  it('loads ubyte/sbyte/ushort/sshort, short_d16_hi keeps the low half, stores byte and short (gfx10.3)', () => {
    const { memory } = runKernel({
      cpu: 'gfx1030',
      threads: 1,
      vector,
      userData: [...vsharp(Gen.GFX10_3, { num_records: 0x100, format: 1, oob_select: 3 }), ...outV(Gen.GFX10_3)],
      ranges: [
        dataRange(bytesOf(0x8081f0ff, ...new Array<number>(63).fill(0))),
        { address: OUT, bytes: new Uint8Array(0x100) },
      ],
      asm: `v_mov_b32 v5, 0x1234
        buffer_load_ubyte v1, off, s[0:3], 0
        buffer_load_sbyte v2, off, s[0:3], 0
        buffer_load_ushort v3, off, s[0:3], 0 offset:2
        buffer_load_sshort v4, off, s[0:3], 0 offset:2
        buffer_load_short_d16_hi v5, off, s[0:3], 0 offset:2
        s_waitcnt vmcnt(0)
        buffer_store_dwordx4 v[1:4], off, s[4:7], 0
        buffer_store_dword v5, off, s[4:7], 0 offset:16
        buffer_store_byte v4, off, s[4:7], 0 offset:20
        buffer_store_short v2, off, s[4:7], 0 offset:22
        s_endpgm`,
    });
    expect(u32At(memory, OUT, 6)).toEqual([0xff, 0xffffffff, 0x8081, 0xffff8081, 0x80811234, 0xffff0081]);
  });
});

describe('atomics', () => {
  it('returns the old value in lane order with glc, and none without; cmpswap, inc, dec, add_x2 (gfx9)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 4,
      vector,
      userData: [...vsharp(Gen.GFX9, { num_records: 0x40, data_format: 4, num_format: 4 }), ...outV(Gen.GFX9)],
      ranges: [dataRange(bytesOf(0, 0, 0, 1, 0, 1, 1, 0, ...new Array<number>(120).fill(0)))],
      asm: `v_lshlrev_b32 v9, 2, v0
        v_mov_b32 v1, 1
        buffer_atomic_add v1, off, s[0:3], 0 glc
        v_add_u32 v2, 10, v0
        v_mov_b32 v3, 0
        buffer_atomic_cmpswap v[2:3], off, s[0:3], 0 offset:4 glc
        v_mov_b32 v4, 2
        buffer_atomic_inc v4, off, s[0:3], 0 offset:8 glc
        v_mov_b32 v5, 5
        buffer_atomic_dec v5, off, s[0:3], 0 offset:12 glc
        v_mov_b32 v6, 7
        buffer_atomic_add v6, off, s[0:3], 0 offset:0x40
        v_mov_b32 v7, -1
        v_mov_b32 v8, 0
        buffer_atomic_add_x2 v[7:8], off, s[0:3], 0 offset:16
        buffer_atomic_add v6, off, s[0:3], 0 offset:0x40 glc
        s_waitcnt vmcnt(0)
        buffer_store_dword v1, v9, s[4:7], 0 offen
        buffer_store_dword v2, v9, s[4:7], 0 offen offset:16
        buffer_store_dword v4, v9, s[4:7], 0 offen offset:32
        buffer_store_dword v5, v9, s[4:7], 0 offen offset:48
        buffer_store_dword v6, v9, s[4:7], 0 offen offset:64
        s_endpgm`,
    });
    expect(u32At(memory, OUT, 16)).toEqual([0, 1, 2, 3, 0, 10, 10, 10, 0, 1, 2, 0, 1, 0, 5, 4]);
    // Out of range (0x40 >= NUM_RECORDS 0x40): dropped, glc returns 0.
    expect(u32At(memory, OUT + 64, 4)).toEqual([0, 0, 0, 0]);
    // Memory: 4 adds, cmpswap by lane 0, inc wraps at 2, dec, and four 64-bit adds of 0xffffffff to 1 << 32.
    expect(u32At(memory, DATA, 6)).toEqual([4, 10, 1, 3, 0xfffffffc, 4]);
  });
});

describe('addressing', () => {
  it('swizzles by ELEMENT_SIZE and INDEX_STRIDE on gfx7 (ADD_TID index, each dword on its own)', () => {
    const { memory } = runKernel({
      cpu: 'gfx700',
      wave64: true,
      threads: 16,
      vector,
      userData: vsharp(Gen.GFX7, {
        stride: 8,
        num_records: 16,
        swizzle_enable: 1,
        element_size: 1,
        index_stride: 0,
        add_tid_enable: 1,
        data_format: 4,
        num_format: 4,
      }),
      ranges: [dataRange(0x200)],
      asm: `v_add_i32 v2, vcc, 100, v0
        v_mov_b32 v1, v0
        buffer_store_dwordx2 v[1:2], off, s[0:3], 0
        s_endpgm`,
    });
    // ((i / 8) * 8 + (off / 4) * 4) * 8 + (i % 8) * 4 + off % 4
    const at = (i: number, off: number): number => (Math.floor(i / 8) * 8 + off) * 8 + (i % 8) * 4;
    for (const i of [0, 1, 7, 8, 9, 15]) {
      expect(memory.read32(DATA + at(i, 0))).toBe(i);
      expect(memory.read32(DATA + at(i, 4))).toBe(i + 100);
    }
  });

  it('takes index and offset from two VGPRs with idxen+offen; gfx10.3 OOB_SELECT 0 checks index and offset', () => {
    const src = new Uint32Array(64).map((_, i) => 0x1000 + i);
    const { memory } = runKernel({
      cpu: 'gfx1030',
      threads: 6,
      vector,
      userData: [
        ...vsharp(Gen.GFX10_3, { stride: 16, num_records: 2, format: 1, oob_select: 0 }),
        ...outV(Gen.GFX10_3),
      ],
      ranges: [dataRange(new Uint8Array(src.buffer)), { address: OUT, bytes: new Uint8Array(0x100) }],
      asm: `v_lshrrev_b32 v2, 1, v0
        v_and_b32 v3, 1, v0
        v_mul_u32_u24 v3, 12, v3
        v_lshlrev_b32 v3, 1, v3
        v_lshlrev_b32 v9, 2, v0
        buffer_load_dword v1, v[2:3], s[0:3], 0 idxen offen
        s_waitcnt vmcnt(0)
        buffer_store_dword v1, v9, s[4:7], 0 offen
        s_endpgm`,
    });
    // lane: index lane>>1, offset 0 or 24 (>= STRIDE: out of range); index 2 >= NUM_RECORDS.
    expect(u32At(memory, OUT, 6)).toEqual([0x1000, 0, 0x1004, 0, 0, 0]);
  });
});

describe('out of range per generation', () => {
  it('gfx7 bytes (STRIDE 0) for a ubyte; gfx8 swizzled counts records; gfx10.3 OOB_SELECT 3 drops an atomic', () => {
    const src = dataRange(bytesOf(0x44332211, 0x88776655, 0, 0, ...new Array<number>(124).fill(0)));
    const r7 = runKernel({
      cpu: 'gfx700',
      wave64: true,
      threads: 1,
      userData: [...vsharp(Gen.GFX7, { num_records: 3, data_format: 4, num_format: 4 }), ...outV(Gen.GFX7)],
      ranges: [src],
      asm: `buffer_load_ubyte v1, off, s[0:3], 0 offset:2
        buffer_load_ubyte v2, off, s[0:3], 0 offset:3
        s_waitcnt vmcnt(0)
        buffer_store_dwordx2 v[1:2], off, s[4:7], 0
        s_endpgm`,
    });
    expect(u32At(r7.memory, OUT, 2)).toEqual([0x33, 0]);
    // gfx8, swizzled with a stride: NUM_RECORDS counts records (index 1 in, 2 out), offsets within the record.
    const r8 = runKernel({
      cpu: 'gfx803',
      wave64: true,
      threads: 3,
      userData: [
        ...vsharp(Gen.GFX8, {
          stride: 4,
          num_records: 2,
          swizzle_enable: 1,
          element_size: 1,
          add_tid_enable: 1,
          data_format: 4,
          num_format: 4,
        }),
        ...outV(Gen.GFX8),
      ],
      ranges: [src],
      asm: `buffer_load_dword v1, off, s[0:3], 0
        v_lshlrev_b32 v2, 2, v0
        s_waitcnt vmcnt(0)
        buffer_store_dword v1, v2, s[4:7], 0 offen
        s_endpgm`,
      vector,
    });
    expect(u32At(r8.memory, OUT, 3)).toEqual([0x44332211, 0x88776655, 0]);
    const r10 = runKernel({
      cpu: 'gfx1030',
      threads: 1,
      vector,
      userData: vsharp(Gen.GFX10_3, { num_records: 8, format: 1, oob_select: 3 }),
      ranges: [src],
      asm: `v_mov_b32 v1, 1
        buffer_atomic_add v1, off, s[0:3], 0 offset:8 glc
        v_mov_b32 v2, 1
        buffer_atomic_add v2, off, s[0:3], 0 offset:4 glc
        s_waitcnt vmcnt(0)
        buffer_store_dword v1, off, s[0:3], 0
        s_endpgm`,
    });
    expect(u32At(r10.memory, DATA, 3)).toEqual([0, 0x88776656, 0]);
  });
});

describe('gfx11', () => {
  it('runs tbuffer FORMAT (gfx11 table), atomic_add_u32 with glc, and 16-byte swizzle elements (SWIZZLE_ENABLE 3)', () => {
    const { memory } = runKernel({
      cpu: 'gfx1100',
      threads: 2,
      vector,
      userData: [
        ...vsharp(Gen.GFX11, { stride: 4, num_records: 64, format: 1, oob_select: 3, dst_sel_x: 4, dst_sel_y: 5 }),
        ...vsharp(Gen.GFX11, {
          base_address: OUT,
          stride: 4,
          num_records: 64,
          format: 1,
          swizzle_enable: 3,
          index_stride: 0,
          oob_select: 1,
        }),
      ],
      ranges: [
        dataRange(bytesOf(0xffff0000, 0x80000001, 0, ...new Array<number>(13).fill(0))),
        { address: OUT, bytes: new Uint8Array(0x100) },
      ],
      asm: `tbuffer_load_format_xy v[1:2], v0, s[0:3], 0 idxen format:[BUF_FMT_16_16_UNORM]
        v_mov_b32 v3, 3
        buffer_atomic_add_u32 v3, off, s[0:3], 0 offset:8 glc
        s_waitcnt vmcnt(0)
        buffer_store_b32 v3, v0, s[4:7], 0 idxen offset:20
        v_lshlrev_b32 v4, 3, v0
        buffer_store_b64 v[1:2], v4, s[0:3], 0 offen offset:32
        s_endpgm`,
    });
    expect(u32At(memory, DATA, 3)).toEqual([0xffff0000, 0x80000001, 6]);
    expect(u32At(memory, DATA + 32, 4).map(f32)).toEqual([0, 1, 1 / 0xffff, 0x8000 / 0xffff].map(Math.fround));
    // index i, offset 20: ((i / 8) * 4 + 16) * 8 + (i % 8) * 16 + 4
    expect(memory.read32(OUT + 16 * 8 + 4)).toBe(0);
    expect(memory.read32(OUT + 16 * 8 + 16 + 4)).toBe(3);
  });
});

describe('refusals', () => {
  it('refuses float atomics by name before the dispatch', () => {
    expect(() => runKernel({ cpu: 'gfx1030', asm: 'buffer_atomic_fmin v1, off, s[0:3], 0\ns_endpgm' })).toThrow(
      'buffer_atomic_fmin: atomic_fmin is not interpreted',
    );
  });
});
