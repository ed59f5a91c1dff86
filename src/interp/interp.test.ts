/**
 * The reference interpreter on small programs assembled from text (D009): control flow, EXEC
 * masking, barriers with LDS across two waves, scalar and buffer memory, out-of-range buffer
 * rules per generation, the step limit, the pre-dispatch refusal and guest faults.
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { targetFor } from '../isa/gen.ts';
import { encodeBufferDescriptor, type BufferFieldName } from '../host/descriptors/index.ts';
import { Gen } from '../isa/gen.ts';
import { groupWaves, runSetup, type DispatchSetup, type RunResult } from './dispatch.ts';
import { InterpRefusal } from './execute.ts';
import { GuestFault, GuestMemory, type RangeInit } from './memory.ts';
import { fromModule } from './vector-bridge.ts';
import { compareBytes, type Mismatch } from './compare.ts';

const CODE = 0x10000000;
const DATA = 0x30000000;
const OUT = 0x30010000;

interface RunSpec {
  readonly cpu: string;
  readonly wave64?: boolean;
  readonly asm: string;
  readonly userData?: readonly number[];
  /** RSRC2 bits beyond USER_SGPR (which follows userData). */
  readonly rsrc2?: number;
  readonly threads?: readonly [number, number, number];
  readonly grid?: readonly [number, number, number];
  readonly ranges?: readonly RangeInit[];
  readonly maxSteps?: number;
}

function words(...ws: number[]): Uint8Array {
  return new Uint8Array(Uint32Array.from(ws).buffer);
}

function run(s: RunSpec): { result: RunResult; memory: GuestMemory } {
  const target = targetFor(s.cpu, s.wave64 ?? false);
  const code = assembleProgram(target, s.asm).words;
  const memory = new GuestMemory([{ address: CODE, bytes: new Uint8Array(code.buffer) }, ...(s.ranges ?? [])]);
  const ud = s.userData ?? [];
  const setup: DispatchSetup = {
    kind: 'dispatch',
    target,
    programAddress: CODE,
    rsrc2: (ud.length << 1) | (s.rsrc2 ?? 0),
    userData: [...ud, ...new Array<number>(16 - ud.length).fill(0)],
    numThreads: s.threads ?? [target.wave64 ? 64 : 32, 1, 1],
    grid: s.grid ?? [1, 1, 1],
  };
  return { result: runSetup(setup, memory, { maxSteps: s.maxSteps }), memory };
}

function vsharp(gen: Gen, fields: Partial<Record<BufferFieldName, number>>): number[] {
  return [...encodeBufferDescriptor(gen, fields)];
}

const u32s = (m: GuestMemory, at: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => m.read32(at + 4 * i));

describe('control flow', () => {
  it('runs a counted loop with s_cmp / s_cbranch_scc1 and s_branch (gfx9, gfx10.3, gfx11)', () => {
    for (const cpu of ['gfx900', 'gfx1030', 'gfx1100']) {
      const { result } = run({
        cpu,
        asm: `
          s_mov_b32 s0, 0
          s_mov_b32 s1, 0
        loop:
          s_add_u32 s1, s1, 3
          s_add_u32 s0, s0, 1
          s_cmp_lt_u32 s0, 10
          s_cbranch_scc1 loop
          s_branch done
          s_mov_b32 s1, 99
        done:
          s_endpgm`,
      });
      expect(result.lastWave!.sgpr[0]).toBe(10);
      expect(result.lastWave!.sgpr[1]).toBe(30);
      expect(result.steps).toBe(2 + 10 * 4 + 2);
    }
  });

  it('branches on EXEC and VCC being zero', () => {
    const { result } = run({
      cpu: 'gfx900',
      asm: `
        s_mov_b32 s0, 0
        s_mov_b64 vcc, 0
        s_cbranch_vccnz bad
        s_cbranch_vccz l1
      bad:
        s_mov_b32 s0, 1
        s_endpgm
      l1:
        s_mov_b64 exec, 0
        s_cbranch_execnz bad
        s_cbranch_execz l2
        s_branch bad
      l2:
        s_mov_b32 s0, 7
        s_endpgm`,
    });
    expect(result.lastWave!.sgpr[0]).toBe(7);
  });
});

describe('wave start', () => {
  it('puts user data, the group id and TG_SIZE in SGPRs, thread ids in v0..v2 (gfx10) or packed in v0 (gfx11)', () => {
    const base = { kind: 'dispatch', programAddress: CODE, grid: [2, 3, 1] } as const;
    const rsrc2 = (2 << 1) | (1 << 7) | (1 << 8) | (1 << 10) | (1 << 11); // 2 user SGPRs, TGID_X/Y, TG_SIZE, TIDIG 1
    const g10 = groupWaves(
      { ...base, target: targetFor('gfx1030'), rsrc2, userData: [11, 22], numThreads: [8, 8, 1] },
      [1, 2, 0],
    );
    expect(g10).toHaveLength(2);
    expect([...g10[1].sgpr.subarray(0, 5)]).toEqual([11, 22, 1, 2, 2 | (1 << 6)]);
    expect(g10[1].readVgpr(0, 3)).toBe(3); // thread 35: x 3, y 4
    expect(g10[1].readVgpr(1, 3)).toBe(4);
    expect(g10[0].execLo()).toBe(0xffffffff);
    const g11 = groupWaves(
      { ...base, target: targetFor('gfx1100'), rsrc2, userData: [11, 22], numThreads: [8, 8, 1] },
      [0, 0, 0],
    );
    expect(g11[1].readVgpr(0, 3)).toBe(3 | (4 << 10));
    const partial = groupWaves(
      { ...base, target: targetFor('gfx900'), rsrc2: 0, userData: [], numThreads: [70, 1, 1] },
      [0, 0, 0],
    );
    expect([partial[1].execLo(), partial[1].execHi()]).toEqual([0x3f, 0]);
  });
});

describe('memory', () => {
  it('loads SGPRs with immediate, SGPR and SGPR+immediate offsets, and gfx7 dword-unit offsets', () => {
    const ranges = [{ address: DATA, bytes: words(...Array.from({ length: 16 }, (_, i) => 0x100 + i)) }];
    const gfx7 = run({
      cpu: 'gfx700',
      userData: [DATA, 0],
      ranges,
      asm: `s_mov_b32 s6, 8
            s_load_dwordx2 s[2:3], s[0:1], 0x3
            s_load_dword s4, s[0:1], s6
            s_endpgm`,
    }).result.lastWave!;
    expect([gfx7.sgpr[2], gfx7.sgpr[3], gfx7.sgpr[4]]).toEqual([0x103, 0x104, 0x102]);
    const gfx9 = run({
      cpu: 'gfx900',
      userData: [DATA, 0],
      ranges,
      asm: `s_mov_b32 s6, 8
            s_load_dword s2, s[0:1], 0xc
            s_load_dword s3, s[0:1], s6
            s_load_dword s4, s[0:1], s6 offset:0x4
            s_endpgm`,
    }).result.lastWave!;
    expect([gfx9.sgpr[2], gfx9.sgpr[3], gfx9.sgpr[4]]).toEqual([0x103, 0x102, 0x103]);
    const gfx10 = run({
      cpu: 'gfx1030',
      userData: [DATA, 0],
      ranges,
      asm: `s_mov_b32 s6, 8
            s_load_dwordx4 s[8:11], s[0:1], 0x10
            s_load_dword s4, s[0:1], s6 offset:0x4
            s_endpgm`,
    }).result.lastWave!;
    expect([...gfx10.sgpr.subarray(8, 12)]).toEqual([0x104, 0x105, 0x106, 0x107]);
    expect(gfx10.sgpr[4]).toBe(0x103);
  });

  it('s_buffer_load reads through a V# and gives 0 past its size', () => {
    const v = vsharp(Gen.GFX10_3, { base_address: DATA, num_records: 8, oob_select: 3, resource_level: 1 });
    const w = run({
      cpu: 'gfx1030',
      userData: v,
      ranges: [{ address: DATA, bytes: words(5, 6, 7, 8) }],
      asm: `s_buffer_load_dwordx4 s[4:7], s[0:3], 0x0
            s_endpgm`,
    }).result.lastWave!;
    expect([...w.sgpr.subarray(4, 8)]).toEqual([5, 6, 0, 0]);
  });

  it('buffer loads and stores under EXEC: inactive lanes neither load nor store', () => {
    const src = vsharp(Gen.GFX10_3, {
      base_address: DATA,
      stride: 4,
      num_records: 32,
      add_tid_enable: 1,
      oob_select: 1,
      resource_level: 1,
    });
    const dst = vsharp(Gen.GFX10_3, {
      base_address: OUT,
      stride: 4,
      num_records: 32,
      add_tid_enable: 1,
      oob_select: 1,
      resource_level: 1,
    });
    const { memory } = run({
      cpu: 'gfx1030',
      userData: [...src, ...dst],
      ranges: [
        { address: DATA, bytes: words(...Array.from({ length: 32 }, (_, i) => 1000 + i)) },
        { address: OUT, bytes: new Uint8Array(128).fill(0xff) },
      ],
      asm: `buffer_load_dword v1, off, s[0:3], 0
            s_mov_b32 exec_lo, 0x5
            buffer_store_dword v1, off, s[4:7], 0
            s_mov_b32 exec_lo, 0
            s_cbranch_execz skip
            buffer_store_dword v0, off, s[4:7], 0
          skip:
            s_endpgm`,
    });
    const out = u32s(memory, OUT, 4);
    expect(out).toEqual([1000, 0xffffffff, 1002, 0xffffffff]);
    expect(memory.writtenRanges()).toEqual([{ range: OUT, from: OUT, to: OUT + 12 }]);
  });

  it('applies each generation’s out-of-range rule: loads give 0, stores are dropped', () => {
    const data = { address: DATA, bytes: words(...Array.from({ length: 64 }, (_, i) => 0x500 + i)) };
    const out = (n: number): RangeInit => ({ address: OUT, bytes: new Uint8Array(4 * n).fill(0xee) });
    // Structured (IDXEN, STRIDE 4, NUM_RECORDS 3): index = v0 = the lane; records 3 and on are out of range.
    const cases: [string, number[], number[]][] = [
      [
        'gfx700',
        vsharp(Gen.GFX7, { base_address: DATA, stride: 4, num_records: 3 }),
        vsharp(Gen.GFX7, { base_address: OUT, stride: 4, num_records: 3 }),
      ],
      [
        'gfx900',
        vsharp(Gen.GFX9, { base_address: DATA, stride: 4, num_records: 3 }),
        vsharp(Gen.GFX9, { base_address: OUT, stride: 4, num_records: 3 }),
      ],
      [
        'gfx1030',
        vsharp(Gen.GFX10_3, { base_address: DATA, stride: 4, num_records: 3, oob_select: 1, resource_level: 1 }),
        vsharp(Gen.GFX10_3, { base_address: OUT, stride: 4, num_records: 64, oob_select: 1, resource_level: 1 }),
      ],
    ];
    for (const [cpu, src, dst] of cases) {
      const { memory } = run({
        cpu,
        userData: [...src, ...dst],
        ranges: [data, out(8)],
        threads: [8, 1, 1],
        asm: `buffer_load_dword v1, v0, s[0:3], 0 idxen
              s_waitcnt vmcnt(0)
              buffer_store_dword v1, v0, s[4:7], 0 idxen
              s_endpgm`,
      });
      const stored = u32s(memory, OUT, 8);
      if (cpu === 'gfx1030') expect(stored, cpu).toEqual([0x500, 0x501, 0x502, 0, 0, 0, 0, 0]);
      else
        expect(stored, cpu).toEqual([0x500, 0x501, 0x502, 0xeeeeeeee, 0xeeeeeeee, 0xeeeeeeee, 0xeeeeeeee, 0xeeeeeeee]);
    }
    // Raw (STRIDE 0, NUM_RECORDS 8 bytes): buffer_load_dwordx4 is checked per dword.
    for (const [cpu, gen] of [
      ['gfx700', Gen.GFX7],
      ['gfx900', Gen.GFX9],
      ['gfx1030', Gen.GFX10_3],
    ] as const) {
      const v = vsharp(gen, {
        base_address: DATA,
        num_records: 8,
        ...(gen >= Gen.GFX10 ? { oob_select: 3, resource_level: 1 } : {}),
      });
      const w = run({
        cpu,
        userData: v,
        ranges: [data],
        asm: `buffer_load_dwordx4 v[4:7], off, s[0:3], 0
              s_endpgm`,
      }).result.lastWave!;
      expect(
        [4, 5, 6, 7].map((r) => w.readVgpr(r, 0)),
        cpu,
      ).toEqual([0x500, 0x501, 0, 0]);
    }
  });

  it('shares LDS within a group and holds waves at s_barrier', () => {
    // gfx9, 128 threads = 2 waves of 64. Each wave adds its thread ids into LDS[0]; wave 1 is
    // slower. After the barrier both read the total and store it in their half of the output.
    const prog = (barrier: boolean): string => `
        s_bfe_u32 s5, s4, 0x60006        // wave index from TG_SIZE (s4, after the V# in s[0:3])
        s_cmp_eq_u32 s5, 0
        s_cbranch_scc1 add
        s_nop 0
        s_nop 0
        s_nop 0
        s_nop 0
      add:
        ds_add_u32 v3, v0
        ${barrier ? 's_barrier' : ''}
        ds_read_b32 v4, v3
        s_waitcnt lgkmcnt(0)
        s_lshl_b32 s6, s5, 8
        buffer_store_dword v4, off, s[0:3], s6
        s_endpgm`;
    const dst = vsharp(Gen.GFX9, { base_address: OUT, stride: 4, num_records: 64, add_tid_enable: 1 });
    const go = (barrier: boolean): number[] => {
      const { memory } = run({
        cpu: 'gfx900',
        userData: dst,
        rsrc2: (1 << 10) | (1 << 15), // TG_SIZE_EN, LDS_SIZE 1 (512 bytes)
        threads: [128, 1, 1],
        ranges: [{ address: OUT, bytes: new Uint8Array(512) }],
        asm: prog(barrier),
      });
      return [memory.read32(OUT), memory.read32(OUT + 252), memory.read32(OUT + 256), memory.read32(OUT + 508)];
    };
    expect(go(true)).toEqual(new Array(4).fill((127 * 128) / 2));
    expect(go(false)[0]).toBe((63 * 64) / 2); // wave 0 reads before wave 1 has added
  });

  it('global loads and stores use VGPR and SGPR+VGPR addresses with signed offsets (gfx9)', () => {
    const { memory } = run({
      cpu: 'gfx900',
      userData: [DATA + 16, 0, OUT, 0],
      ranges: [
        { address: DATA, bytes: words(1, 2, 3, 4, 5, 6, 7, 8) },
        { address: OUT, bytes: new Uint8Array(16) },
      ],
      asm: `global_load_dwordx2 v[4:5], v3, s[0:1] offset:-8
            global_store_dwordx2 v3, v[4:5], s[2:3] offset:4
            s_endpgm`,
    });
    expect(u32s(memory, OUT, 3)).toEqual([0, 3, 4]);
  });
});

describe('refusals and faults', () => {
  it('refuses a reachable instruction without semantics before the dispatch starts, naming its address', () => {
    const out = { address: OUT, bytes: new Uint8Array(4) };
    const prog = `s_load_dword s4, s[0:1], 0x0
      s_cmp_eq_u32 s0, s0
      s_cbranch_scc1 done
      buffer_atomic_fmin v1, off, s[4:7], 0
    done:
      s_endpgm
      image_sample v[4:7], v[2:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D`;
    let err: unknown;
    try {
      run({ cpu: 'gfx1030', asm: prog, ranges: [out] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InterpRefusal);
    expect((err as InterpRefusal).message).toBe(
      '0x10000010: buffer_atomic_fmin: atomic_fmin is not interpreted (float and clamped-subtract atomics are not modelled)',
    );
    expect((err as InterpRefusal).kind).toBe('no-semantics');
    // The s_load from address 0 was never run: the refusal came first, not a guest fault.
  });

  it('refuses VALU until the vector semantics exist, and runs them per lane through the bridge', () => {
    expect(() => run({ cpu: 'gfx1030', asm: 'v_mov_b32 v1, 5\ns_endpgm' })).toThrow(
      /v_mov_b32: vector ALU semantics \(src\/semantics\/vector.ts\) are not available yet/,
    );
    const bridge = fromModule({
      vectorSemanticsFor: (def) => (def.name === 'v_mov_b32' ? {} : undefined),
      runVector: (alg, _t, inst, state) => {
        for (let lane = 0; lane < state.lanes; lane++)
          if (state.active(lane)) state.writeVgpr(inst.fields.vdst, lane, alg.word(inst.fields.src0 - 128));
      },
    });
    const target = targetFor('gfx1030');
    const code = assembleProgram(target, 's_mov_b32 exec_lo, 6\nv_mov_b32 v1, 5\ns_endpgm').words;
    const memory = new GuestMemory([{ address: CODE, bytes: new Uint8Array(code.buffer) }]);
    const r = runSetup(
      {
        kind: 'dispatch',
        target,
        programAddress: CODE,
        rsrc2: 0,
        userData: new Array<number>(16).fill(0),
        numThreads: [32, 1, 1],
        grid: [1, 1, 1],
      },
      memory,
      { vector: bridge },
    );
    expect([0, 1, 2, 3].map((l) => r.lastWave!.readVgpr(1, l))).toEqual([0, 5, 5, 0]);
  });

  it('refuses a dispatch that runs past the step limit', () => {
    expect(() => run({ cpu: 'gfx900', asm: 'l:\ns_branch l\ns_endpgm', maxSteps: 1000 })).toThrow(
      'past the step limit of 1000 instructions',
    );
  });

  it('faults on memory the capture does not hold: unmapped, unavailable, or outside read_bytes', () => {
    expect(() =>
      run({ cpu: 'gfx900', userData: [0x50000000, 0], asm: 's_load_dword s4, s[0:1], 0x0\ns_endpgm' }),
    ).toThrow(GuestFault);
    const m = new GuestMemory([
      { address: DATA, bytes: new Uint8Array(16), readBytes: [[0, 8]] },
      { address: OUT, bytes: null, size: 16, unavailable: 'redacted' },
    ]);
    expect(m.read32(DATA + 4)).toBe(0);
    expect(() => m.read32(DATA + 8)).toThrow(/read_bytes/);
    m.write32(DATA + 8, 7);
    expect(m.read32(DATA + 8)).toBe(7);
    expect(() => m.read32(OUT)).toThrow(/redacted/);
    try {
      m.read32(DATA + 14);
    } catch (e) {
      expect(e).toBeInstanceOf(GuestFault);
      expect((e as GuestFault).address).toBe(DATA + 16);
    }
  });
});

describe('compare', () => {
  it('compares exactly as words and within ULPs as floats', () => {
    const out: Mismatch[] = [];
    const f = (...xs: number[]): Uint8Array => new Uint8Array(Float32Array.from(xs).buffer);
    const next = new Uint8Array(Uint32Array.from([0x3f800001]).buffer);
    expect(compareBytes(0x100, f(1), next, { kind: 'ulp', element: 'f32', ulps: 1 }, out, 8)).toBe(0);
    expect(compareBytes(0x100, f(1, 2), f(1, 2.5), { kind: 'ulp', element: 'f32', ulps: 1 }, out, 8)).toBe(1);
    expect(out[0]).toMatchObject({
      address: 0x104,
      element: 1,
      type: 'f32',
      expected: '2 (0x40000000)',
      got: '2.5 (0x40200000)',
    });
    expect(compareBytes(0x200, words(1, 2), words(1, 3), { kind: 'exact' }, out, 8)).toBe(1);
    expect(out[1]).toMatchObject({ address: 0x204, element: 1, expected: '0x00000002', got: '0x00000003' });
    expect(compareBytes(0, f(NaN), f(NaN), { kind: 'ulp', element: 'f32', ulps: 0 }, out, 8)).toBe(0);
  });
});
