/**
 * FLAT by aperture (flat.ts: LDS through src_shared_base, private memory per lane, global
 * otherwise), SCRATCH (flat-scratch.ts),
 * GLOBAL byte and atomic forms, and VALU through the vector bridge on a small kernel (the
 * bridge refuses what the per-lane context cannot run before the dispatch).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA, dataRange, runKernel, u32At } from './buffer-harness.ts';
import { GuestFault } from './memory.ts';
import { PRIVATE_APERTURE_HI } from './flat.ts';
import { loadVectorBridge, type VectorBridge } from './vector-bridge.ts';

let vector: VectorBridge | undefined;
beforeAll(async () => {
  vector = await loadVectorBridge();
});

describe('FLAT', () => {
  it('reaches LDS through the shared aperture and global memory elsewhere; atomics return with glc (gfx9)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 4,
      vector,
      ldsGranules: 1,
      userData: [DATA, 0],
      ranges: [dataRange(0x100)],
      asm: `s_mov_b32 s10, src_shared_base
        v_lshlrev_b32 v2, 2, v0
        v_mov_b32 v3, s10
        v_add_u32 v1, 50, v0
        flat_store_dword v[2:3], v1 offset:16
        v_mov_b32 v4, 1
        v_mov_b32 v2, 0
        flat_atomic_add v5, v[2:3], v4 glc
        v_lshlrev_b32 v2, 2, v0
        flat_load_dword v6, v[2:3] offset:16
        s_waitcnt vmcnt(0) lgkmcnt(0)
        v_add_co_u32 v7, vcc, s0, v2
        v_mov_b32 v8, s1
        flat_store_dword v[7:8], v6
        flat_store_byte v[7:8], v5 offset:16
        s_endpgm`,
    });
    expect(u32At(memory, DATA, 4)).toEqual([50, 51, 52, 53]);
    expect(Array.from(memory.read(DATA + 16, 13)).filter((_, i) => i % 4 === 0)).toEqual([0, 1, 2, 3]);
  });

  it('keeps private memory per lane through SCRATCH and the FLAT private aperture; unwritten bytes fault (gfx9)', () => {
    const { memory } = runKernel({
      cpu: 'gfx900',
      wave64: true,
      threads: 3,
      vector,
      userData: [DATA, 0],
      ranges: [dataRange(0x100)],
      asm: `v_add_u32 v1, 70, v0
        v_mov_b32 v2, 8
        scratch_store_dword v2, v1, off offset:-4
        s_mov_b32 s4, 4
        scratch_load_dword v3, off, s4
        v_mov_b32 v5, 0
        v_mov_b32 v6, ${PRIVATE_APERTURE_HI}
        flat_load_ubyte v4, v[5:6] offset:4
        s_waitcnt vmcnt(0) lgkmcnt(0)
        v_lshlrev_b32 v7, 3, v0
        v_mov_b32 v8, v4
        global_store_dwordx2 v7, v[3:4], s[0:1]
        s_endpgm`,
    });
    expect(u32At(memory, DATA, 6)).toEqual([70, 70, 71, 71, 72, 72]);
    let err: unknown;
    try {
      runKernel({
        cpu: 'gfx900',
        wave64: true,
        threads: 1,
        vector,
        asm: 'v_mov_b32 v2, 0\nscratch_load_dword v1, v2, off\ns_endpgm',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GuestFault);
    expect((err as Error).message).toContain("lane 0's private memory was read before it was written");
  });
});

describe('GLOBAL', () => {
  it('loads sbyte / ushort and runs atomics with a return (gfx10.3, SADDR)', () => {
    const init = new Uint8Array(0x100);
    init.set([0x80, 0x7f, 0xff, 0xff], 0);
    const { memory } = runKernel({
      cpu: 'gfx1030',
      threads: 3,
      vector,
      userData: [DATA, 0],
      ranges: [dataRange(init)],
      asm: `v_mov_b32 v0, 0
        global_load_sbyte v1, v0, s[0:1]
        global_load_ushort v2, v0, s[0:1] offset:2
        v_mov_b32 v3, 5
        global_atomic_umax v4, v0, v3, s[0:1] offset:8 glc
        global_atomic_sub v0, v3, s[0:1] offset:12
        s_waitcnt vmcnt(0)
        global_store_dwordx2 v0, v[1:2], s[0:1] offset:16
        global_store_dword v0, v4, s[0:1] offset:24
        s_endpgm`,
    });
    expect(u32At(memory, DATA + 8, 5)).toEqual([5, -15 >>> 0, 0xffffff80, 0xffff, 5]);
  });
});

describe('vector ALU through the bridge', () => {
  it('runs a small vector kernel per active lane (gfx10.3, EXEC partial)', () => {
    expect(vector).toBeDefined();
    const { memory } = runKernel({
      cpu: 'gfx1030',
      threads: 32,
      vector,
      userData: [DATA, 0],
      ranges: [dataRange(0x100)],
      asm: `s_mov_b32 exec_lo, 0x0000000f
        v_cvt_f32_u32 v1, v0
        v_mul_f32 v1, 0.5, v1
        v_cmp_gt_u32 vcc_lo, 2, v0
        v_cndmask_b32 v2, 7, v1, vcc_lo
        v_lshlrev_b32 v3, 2, v0
        global_store_dword v3, v2, s[0:1]
        s_endpgm`,
    });
    const f = new Float32Array(memory.read(DATA, 16).slice().buffer);
    // v_cndmask picks v1 where VCC is 1 (lanes 0, 1: 2 > lane), the inline 7 where it is 0.
    expect(Array.from(f.slice(0, 2))).toEqual([0, 0.5]);
    expect(Array.from(new Uint32Array(f.buffer).slice(2, 4))).toEqual([7, 7]);
    expect(memory.read32(DATA + 16)).toBe(0);
  });

  it('runs a DPP encoding through the bridge (RDNA2 ISA, DPP16 quad_perm:[1,0,3,2] swaps lane pairs)', () => {
    const { result } = runKernel({
      cpu: 'gfx1030',
      vector,
      threads: 4,
      asm: 'v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\ns_endpgm',
    });
    expect([0, 1, 2, 3].map((l) => result.lastWave!.readVgpr(1, l))).toEqual([1, 0, 3, 2]);
  });
});
