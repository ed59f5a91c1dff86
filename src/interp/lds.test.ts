/**
 * DS instructions (D009, lds.ts): sized reads and writes, read2/write2 with offset0/offset1
 * and st64, atomics with and without return (ds_cmpst's operand order before gfx11 and
 * ds_cmpstore's on gfx11), out-of-allocation reads, and the wave-level ds_swizzle_b32,
 * ds_permute_b32 and ds_bpermute_b32.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Gen } from '../isa/gen.ts';
import { DATA, dataRange, runKernel, u32At, vsharp } from './buffer-harness.ts';
import { loadVectorBridge, type VectorBridge } from './vector-bridge.ts';

let vector: VectorBridge | undefined;
beforeAll(async () => {
  vector = await loadVectorBridge();
});

const out = (gen: Gen): number[] =>
  vsharp(
    gen,
    gen >= Gen.GFX10
      ? { num_records: 0x400, format: 1, oob_select: 3 }
      : { num_records: 0x400, data_format: 4, num_format: 4 },
  );

describe('LDS reads and writes', () => {
  it('writes b8/b16/b64/b128 and reads them back as u8/i8/u16/i16/d16/b64/b128 (gfx9)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 1,
      vector,
      ldsGranules: 1,
      userData: out(Gen.GFX9),
      ranges: [dataRange(0x1000)],
      asm: `v_mov_b32 v0, 0
        v_mov_b32 v1, 0x80f1
        v_mov_b32 v2, 0x11223344
        v_mov_b32 v3, 0x55667788
        v_mov_b32 v4, 0x99aabbcc
        v_mov_b32 v5, 0xddeeff00
        ds_write_b8 v0, v1
        ds_write_b16 v0, v1 offset:2
        ds_write_b64 v0, v[2:3] offset:8
        ds_write_b128 v0, v[2:5] offset:16
        ds_write_b16_d16_hi v0, v2 offset:32
        s_waitcnt lgkmcnt(0)
        ds_read_u8 v10, v0
        ds_read_i8 v11, v0
        ds_read_u16 v12, v0 offset:2
        ds_read_i16 v13, v0 offset:2
        v_mov_b32 v14, 0xabcd0000
        ds_read_u16_d16 v14, v0 offset:32
        ds_read_b64 v[15:16], v0 offset:8
        ds_read_b128 v[17:20], v0 offset:16
        ds_read_b32 v21, v0 offset:600
        s_waitcnt lgkmcnt(0)
        buffer_store_dwordx4 v[10:13], off, s[0:3], 0
        buffer_store_dwordx4 v[14:17], off, s[0:3], 0 offset:16
        buffer_store_dwordx4 v[18:21], off, s[0:3], 0 offset:32
        s_endpgm`,
    });
    expect(u32At(memory, DATA, 12)).toEqual([
      0xf1, 0xfffffff1, 0x80f1, 0xffff80f1, 0xabcd1122, 0x11223344, 0x55667788, 0x11223344, 0x55667788, 0x99aabbcc,
      0xddeeff00, 0,
    ]);
  });

  it('read2/write2 scale offset0/offset1 by the element size, times 64 with st64 (gfx10.3)', () => {
    const { memory } = runKernel({
      cpu: 'gfx1030',
      threads: 2,
      vector,
      ldsGranules: 2,
      userData: out(Gen.GFX10_3),
      ranges: [dataRange(0x1000)],
      asm: `v_lshlrev_b32 v0, 2, v0
        v_add_nc_u32 v1, 100, v0
        v_add_nc_u32 v2, 200, v0
        ds_write2_b32 v0, v1, v2 offset0:1 offset1:3
        ds_write2st64_b32 v0, v2, v1 offset0:1 offset1:2
        s_waitcnt lgkmcnt(0)
        ds_read2_b32 v[3:4], v0 offset0:1 offset1:3
        ds_read2st64_b32 v[5:6], v0 offset0:1 offset1:2
        ds_read_b32 v7, v0 offset:256
        s_waitcnt lgkmcnt(0)
        v_lshlrev_b32 v9, 2, v0
        buffer_store_dwordx4 v[3:6], v9, s[0:3], 0 offen
        buffer_store_dword v7, v0, s[0:3], 0 offen offset:0x100
        s_endpgm`,
    });
    expect(u32At(memory, DATA, 8)).toEqual([100, 200, 200, 100, 104, 204, 204, 104]);
    expect(u32At(memory, DATA + 0x100, 2)).toEqual([200, 204]);
  });
});

describe('LDS atomics', () => {
  it('returns old values in lane order; ds_cmpst takes the compare value first before gfx11 (gfx9)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 4,
      vector,
      ldsGranules: 1,
      userData: out(Gen.GFX9),
      ranges: [dataRange(0x1000)],
      asm: `v_mov_b32 v1, 0
        v_mov_b32 v2, 3
        v_add_u32 v3, 7, v0
        v_lshlrev_b32 v9, 2, v0
        ds_add_rtn_u32 v10, v1, v2
        ds_cmpst_rtn_b32 v11, v1, v2, v3 offset:0
        v_sub_u32 v4, 0, v0
        ds_max_rtn_i32 v12, v1, v4 offset:4
        ds_wrxchg_rtn_b32 v13, v1, v0 offset:8
        ds_inc_u32 v1, v2 offset:12
        s_waitcnt lgkmcnt(0)
        ds_read_b32 v14, v1 offset:12
        ds_read_b32 v15, v1
        s_waitcnt lgkmcnt(0)
        v_lshlrev_b32 v8, 4, v0
        buffer_store_dwordx4 v[10:13], v8, s[0:3], 0 offen
        buffer_store_dword v14, v9, s[0:3], 0 offen offset:0x100
        buffer_store_dword v15, v9, s[0:3], 0 offen offset:0x200
        s_endpgm`,
    });
    // add: 0, 3, 6, 9 -> 12; cmpst(cmp 3, new 7+lane): memory 12, no lane matches (returns 12).
    // max_i32 of 0, -1, -2, -3 over 0: returns 0 each; wrxchg returns the previous lane's value.
    expect(u32At(memory, DATA, 16)).toEqual([0, 12, 0, 0, 3, 12, 0, 0, 6, 12, 0, 1, 9, 12, 0, 2]);
    // inc with limit 3, four times from 0: 1, 2, 3, 0.
    expect(memory.read32(DATA + 0x100)).toBe(0);
    expect(memory.read32(DATA + 0x200)).toBe(12);
  });

  it('gfx11 ds_cmpstore takes the new value first', () => {
    const { memory } = runKernel({
      cpu: 'gfx1100',
      threads: 1,
      vector,
      ldsGranules: 1,
      userData: out(Gen.GFX11),
      ranges: [dataRange(0x1000)],
      asm: `v_mov_b32 v1, 0
        v_mov_b32 v2, 5
        ds_cmpstore_rtn_b32 v3, v1, v2, v1
        s_waitcnt lgkmcnt(0)
        ds_load_b32 v4, v1
        s_waitcnt lgkmcnt(0)
        buffer_store_b64 v[3:4], off, s[0:3], 0
        s_endpgm`,
    });
    expect(u32At(memory, DATA, 2)).toEqual([0, 5]);
  });
});

describe('wave-level exchanges', () => {
  it('ds_swizzle_b32 (quad perm, bit masks), ds_bpermute_b32 and ds_permute_b32 (gfx9, wave64)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      vector,
      userData: out(Gen.GFX9),
      ranges: [dataRange(0x1000)],
      asm: `v_add_u32 v1, 1000, v0
        v_lshlrev_b32 v9, 2, v0
        ds_swizzle_b32 v2, v1 offset:swizzle(QUAD_PERM,3,2,1,0)
        ds_swizzle_b32 v3, v1 offset:swizzle(BITMASK_PERM,"00001")
        v_sub_u32 v4, 63, v0
        v_lshlrev_b32 v4, 2, v4
        ds_bpermute_b32 v5, v4, v1
        ds_permute_b32 v6, v4, v1
        v_lshlrev_b32 v8, 4, v0
        s_waitcnt lgkmcnt(0)
        buffer_store_dwordx2 v[2:3], v8, s[0:3], 0 offen
        buffer_store_dwordx2 v[5:6], v8, s[0:3], 0 offen offset:8
        s_endpgm`,
    });
    const at = (lane: number): number[] => u32At(memory, DATA + 16 * lane, 4);
    // quad perm reverses each quad; BITMASK "00001" reads lane 1 of each 32; bpermute/permute reverse the wave.
    expect(at(0)).toEqual([1003, 1001, 1063, 1063]);
    expect(at(6)).toEqual([1005, 1001, 1057, 1057]);
    expect(at(40)).toEqual([1043, 1033, 1023, 1023]);
  });
  it('gfx10.3 wave64: ds_bpermute_b32 stays in each half; shared VGPRs carry values across (RDNA3 ISA, DS_BPERMUTE_B32)', () => {
    // RSRC1.VGPRS 3: 16 VGPRs of the wave's own (4 a granule in wave64); RSRC3.SHARED_VGPR_CNT 1: v16..v23 shared.
    const { memory } = runKernel({
      cpu: 'gfx1030',
      wave64: true,
      vector,
      rsrc1: 3,
      rsrc3: 1,
      userData: out(Gen.GFX10_3),
      ranges: [dataRange(0x1000)],
      asm: `v_add_nc_u32 v1, 1000, v0
        v_sub_nc_u32 v4, 63, v0
        v_lshlrev_b32 v4, 2, v4
        ds_bpermute_b32 v5, v4, v1
        s_mov_b32 exec_lo, 0
        v_mov_b32 v16, v1
        v_mov_b32 v15, v1
        s_mov_b32 exec_lo, -1
        v_mov_b32 v6, v16
        v_mov_b32 v7, v15
        v_lshlrev_b32 v8, 4, v0
        s_waitcnt lgkmcnt(0)
        buffer_store_dwordx3 v[5:7], v8, s[0:3], 0 offen
        s_endpgm`,
    });
    const at = (lane: number): number[] => u32At(memory, DATA + 16 * lane, 3);
    // Lane l reads lane ((63 - l) mod 32) of its own half; v16 written by the upper half is read by the lower one
    // (lane l + 32's value), while the private v15 of a lower lane keeps its 0.
    expect(at(0)).toEqual([1031, 1032, 0]);
    expect(at(5)).toEqual([1026, 1037, 0]);
    expect(at(40)).toEqual([1055, 1040, 1040]);
  });
});
