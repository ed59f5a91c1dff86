/**
 * The tracer on the corpus kernels (test/corpus-kernels/code; sources and listings in
 * ../shared/corpus/compiled/{llvm,radv}), every kernel on all five targets. The expectations are
 * written from the sources:
 *
 * - LLVM `amdgpu_cs` / `amdgpu_ps` kernels take their `inreg` arguments in s0 upward (user-data
 *   words 0.. here) and the rest in v0 upward (EXECUTION-NOTES.md).
 * - RADV kernels take set 0's low address in s2 and build the high half in the code (0 on gfx7/8,
 *   0xffff8000 on gfx9+). The set's layout (vkcomp.c, vkcomp_additions.c): b0 SAMPLED_IMAGE[16]
 *   at 0 (64 bytes each), b1 SAMPLER at 0x400, b2 STORAGE_BUFFER at 0x410, b3 STORAGE_BUFFER[16]
 *   at 0x420 (16 each), b4 STORAGE_IMAGE[16] at 0x520 (32 each), b5 the combined image with its
 *   immutable sampler at 0x720 (64), b6 UNIFORM_BUFFER[16] at 0x760 (16 each), b7 SAMPLER[16] at
 *   0x860 (16 each); b8's immutable samplers are in the code.
 * - RADV's immutable S# words follow the Vulkan sampler (vkcomp_additions.c) and RADV's packing:
 *   COMPAT_MODE on gfx8/9, DISABLE_LSB_CEIL up to gfx8 and FILTER_PREC_FIX up to gfx9 in dword 2,
 *   TRUNC_COORD for nearest mag and min filters, MAX_LOD clamped to 15; the listings show dword 3
 *   as 0 (no address mode clamps to the border).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gen, targetFor, type Target as IsaTarget } from '../../src/isa/gen.ts';
import { evaluateExpr } from '../../src/semantics/expr.ts';
import type { Classification, Selection } from '../../src/tracer/classify.ts';
import type { Provenance } from '../../src/tracer/provenance.ts';
import { traceProgram, type AccessTrace, type DescriptorTrace, type TraceResult } from '../../src/tracer/trace.ts';
import { TARGETS, type Target } from '../corpus-kernels/targets.ts';

const cache = new Map<string, TraceResult>();
function traced(t: Target, file: string, entry?: number, end?: number): TraceResult {
  const key = `${file}@${entry}`;
  let r = cache.get(key);
  if (!r) {
    const bytes = new Uint8Array(readFileSync(join(import.meta.dirname, '../corpus-kernels/code', file)));
    r = traceProgram(targetFor(t.mcpu, t.wave64), bytes, {
      ...(entry === undefined ? {} : { entry }),
      ...(end === undefined ? {} : { end }),
    });
    cache.set(key, r);
  }
  return r;
}

const isa = (t: Target): IsaTarget => targetFor(t.mcpu, t.wave64);
const accesses = (r: TraceResult, name: RegExp): AccessTrace[] => r.accesses.filter((a) => name.test(a.instruction));
const only = (r: TraceResult, name: RegExp): AccessTrace => {
  const xs = accesses(r, name);
  expect(xs, `one access matching ${name}`).toHaveLength(1);
  return xs[0];
};
const role = (a: AccessTrace, r: 'resource' | 'sampler'): DescriptorTrace => a.descriptors.find((d) => d.role === r)!;
const selection = (c: Classification): Selection => {
  if (c.kind !== 'selected') throw new Error(`expected a selection, got ${JSON.stringify(c)}`);
  return c.selection;
};
const userData = (...indices: number[]): Provenance[] => indices.map((index) => ({ kind: 'user-data', index }));
const constants = (d: DescriptorTrace): (number | undefined)[] =>
  d.words.map((w) => (w.provenance.kind === 'constant' ? w.provenance.value : undefined));
/** The record index of every lane whose v0 is `lane` (and, for an index read from memory, whose loaded word is `loaded`). */
const laneIndex = (s: Selection, lane: number, loaded = 0): number =>
  evaluateExpr([s.record.indexExpr], {
    word: (name) => {
      if (name === 'v0@entry') return lane;
      if (name.startsWith('vmem@')) return loaded;
      throw new Error(`the index reads ${name}`);
    },
    bool: () => {
      throw new Error('the index reads a bool');
    },
  })[0] as number;
const expectLaneIndex = (s: Selection, f: (lane: number) => number): void => {
  for (let lane = 0; lane < 64; lane++) expect(laneIndex(s, lane), `lane ${lane}`).toBe(f(lane));
};

/** A bound descriptor's words are dwords 0.. of one fixed load at `base` + `offset`. */
function expectFixedLoad(d: DescriptorTrace, base: Provenance[], offset: number): void {
  expect(d.classification).toEqual({ kind: 'bound' });
  d.words.forEach((w, k) =>
    expect(w.provenance, w.register).toMatchObject({
      kind: 'load',
      fixed: true,
      through: 'address',
      dword: k,
      base,
      offset: { kind: 'constant', value: offset },
    }),
  );
}

function expectLlvmShape(s: Selection, t: Target): void {
  expect(s.shape).toMatchObject({
    kind: 'descriptor',
    compiler: 'LLVM',
    waveSize: t.waveSize,
    exit: { form: 'xor-exec-execnz' },
  });
  expect(s.shape.narrowing.map((n) => n.form)).toEqual(['s_and_saveexec']);
}

function expectAcoShape(s: Selection, t: Target): void {
  expect(s.shape).toMatchObject({
    kind: 'index',
    compiler: 'ACO',
    waveSize: t.waveSize,
    exit: { form: 'andn2-exec-scc0' },
  });
}

/** LLVM's per-lane table load: gfx7 goes through a V# built in place (ADDR64), later targets through the address. */
function expectLlvmTable(s: Selection, t: Target): void {
  if (isa(t).gen === Gen.GFX7) {
    expect(s.table.through).toBe('buffer');
    expect(s.table.base).toEqual([
      ...userData(0, 1),
      { kind: 'constant', value: 0 },
      { kind: 'constant', value: 0xf000 },
    ]);
  } else {
    expect(s.table.through).toBe('global-address');
    expect(s.table.base).toEqual(userData(0, 1));
  }
}

const setHigh = (t: Target): number => (isa(t).gen >= Gen.GFX9 ? 0xffff8000 : 0);
const setBase = (t: Target): Provenance[] => [
  { kind: 'user-data', index: 2 },
  { kind: 'constant', value: setHigh(t) },
];

for (const t of TARGETS) {
  describe(`LLVM kernels on ${t.name}`, () => {
    it('waterfall_image_load: the T# is record (tid & 7) of the 32-byte table at s[0:1], the output V# s[2:5]', () => {
      const r = traced(t, `llvm_${t.name}_waterfall_image_load.bin`);
      const load = only(r, /^image_load/);
      const s = selection(role(load, 'resource').classification);
      expectLlvmShape(s, t);
      expectLlvmTable(s, t);
      expect([s.record.start, s.record.stride]).toEqual([0, 32]);
      expectLaneIndex(s, (lane) => lane & 7);
      expect(s.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
      expect(s.shape.keys.flatMap((k) => k.vgprs)).toHaveLength(8);
      const store = only(r, /^buffer_store/);
      expect(store.classification).toBe('bound');
      expect(role(store, 'resource').words.map((w) => w.provenance)).toEqual(userData(2, 3, 4, 5));
      expect(r.slots).toHaveLength(1);
      expect(r.slots[0]).toMatchObject({ sampler: 'none', accesses: [load.at] });
    });

    it('waterfall_image_sample: the T# is record %idx (v0) of the table at s[0:1], the S# the user data s[2:5]', () => {
      const r = traced(t, `llvm_${t.name}_waterfall_image_sample.bin`);
      const a = only(r, /^image_sample/);
      const s = selection(role(a, 'resource').classification);
      expectLlvmShape(s, t);
      expectLlvmTable(s, t);
      expect([s.record.start, s.record.stride, s.record.index]).toEqual([0, 32, 'v0@entry']);
      const samp = role(a, 'sampler');
      expect(samp.classification).toEqual({ kind: 'bound' });
      expect(samp.words.map((w) => w.provenance)).toEqual(userData(2, 3, 4, 5));
      expect(r.slots).toHaveLength(1);
      expect(r.slots[0].sampler).toBe('user-data word 2; user-data word 3; user-data word 4; user-data word 5');
    });

    it('waterfall_buffer_load: the V# is record (tid >> 2) of the 16-byte table at s[0:1]', () => {
      const r = traced(t, `llvm_${t.name}_waterfall_buffer_load.bin`);
      const load = only(r, /^buffer_load_dwordx4 v\[5:8\]/);
      const s = selection(role(load, 'resource').classification);
      expectLlvmShape(s, t);
      expectLlvmTable(s, t);
      expect([s.record.start, s.record.stride]).toEqual([0, 16]);
      expectLaneIndex(s, (lane) => lane >> 2);
      expect(s.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12]);
      expect(role(only(r, /^buffer_store/), 'resource').words.map((w) => w.provenance)).toEqual(userData(2, 3, 4, 5));
      expect(r.slots).toEqual([]);
    });

    it('waterfall_buffer_soffset_gisel: the V# as above, and soffset one lane’s (tid & 48)', () => {
      const r = traced(t, `llvm_${t.name}_waterfall_buffer_soffset_gisel.bin`);
      const load = only(r, /^buffer_load_dwordx4 v\[5:8\]/);
      const s = selection(role(load, 'resource').classification);
      expectLlvmShape(s, t);
      expectLaneIndex(s, (lane) => lane >> 2);
      expect(load.soffset?.provenance).toMatchObject({
        kind: 'lane-value',
        lane: 'first-active',
        laneValue: '0x30 & v0@entry',
      });
    });

    it('s_buffer_load_divergent_rsrc: a V# read from one lane with no loop is untraced; the output V# is s[2:5]', () => {
      const r = traced(t, `llvm_${t.name}_s_buffer_load_divergent_rsrc.bin`);
      const sload = only(r, /^s_buffer_load_dwordx8/);
      expect(sload.classification).toBe('untraced');
      expect(role(sload, 'resource').classification).toMatchObject({
        kind: 'untraced',
        reason: 'lane-value-outside-waterfall',
      });
      expect(role(sload, 'resource').words.map((w) => w.provenance.kind)).toEqual(Array(4).fill('lane-value'));
      const stores = accesses(r, /^buffer_store/);
      expect(stores).toHaveLength(2);
      for (const s of stores) expect(role(s, 'resource').words.map((w) => w.provenance)).toEqual(userData(2, 3, 4, 5));
    });

    it('s_buffer_load_descriptor_then_sample: the T# is record %idx of the constant buffer s[0:3], the S# s[4:7]', () => {
      const r = traced(t, `llvm_${t.name}_s_buffer_load_descriptor_then_sample.bin`);
      const a = only(r, /^image_sample/);
      const s = selection(role(a, 'resource').classification);
      expectLlvmShape(s, t);
      expect(s.table.through).toBe('buffer');
      expect(s.table.base).toEqual(userData(0, 1, 2, 3));
      expect([s.record.start, s.record.stride, s.record.index]).toEqual([0, 32, 'v0@entry']);
      expect(s.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
      expect(role(a, 'sampler').words.map((w) => w.provenance)).toEqual(userData(4, 5, 6, 7));
      // The two per-lane loads of the record read through the same V#, bound.
      const loads = accesses(r, /^buffer_load_dwordx4/);
      expect(loads).toHaveLength(2);
      for (const l of loads) expect(role(l, 'resource').words.map((w) => w.provenance)).toEqual(userData(0, 1, 2, 3));
    });

    it('sampler_const: main and main2 build their S# from constants, folded to the words of the source', () => {
      const cases = [
        { entry: 0, end: 0x2c, words: [4096, 268374016, 0x80000000, 0] },
        { entry: 0x100, end: 0x12c, words: [0xffffffff, 16773120, 1879048192, 0xffff8000] },
      ];
      for (const c of cases) {
        const r = traced(t, `llvm_${t.name}_sampler_const.bin`, c.entry, c.end);
        const a = only(r, /^image_sample/);
        expect(a.classification).toBe('bound');
        expect(role(a, 'resource').words.map((w) => w.provenance)).toEqual(userData(0, 1, 2, 3, 4, 5, 6, 7));
        const samp = role(a, 'sampler');
        expect(constants(samp)).toEqual(c.words);
        for (const w of samp.words) {
          expect(w.chain).toHaveLength(1);
          expect(w.chain[0].action).toBe('constant');
          expect(w.chain[0].at! >= c.entry && w.chain[0].at! < c.end).toBe(true);
        }
      }
    });

    it('smem_offsets: every s_buffer_load reads through the V# s[0:3], every store through s[8:11]', () => {
      const r = traced(t, `llvm_${t.name}_smem_offsets.bin`);
      const loads = accesses(r, /^s_buffer_load/);
      expect(loads.length).toBeGreaterThanOrEqual(12);
      for (const l of loads) {
        expect(l.classification).toBe('bound');
        expect(role(l, 'resource').words.map((w) => w.provenance)).toEqual(userData(0, 1, 2, 3));
      }
      const stores = accesses(r, /^buffer_store/);
      expect(stores.length).toBeGreaterThanOrEqual(10);
      for (const s of stores)
        expect(role(s, 'resource').words.map((w) => w.provenance)).toEqual(userData(8, 9, 10, 11));
    });
  });

  describe(`RADV kernels on ${t.name}`, () => {
    it('nonuniform_texture_sample: tex[i & 15] is record i & 15 of b0 (64 bytes), the sampler b1, the output b2', () => {
      const r = traced(t, `radv_${t.name}_nonuniform_texture_sample.bin`);
      const a = only(r, /^image_sample/);
      const s = selection(role(a, 'resource').classification);
      expectAcoShape(s, t);
      expect(s.table).toMatchObject({ through: 'scalar-address', base: setBase(t) });
      expect([s.record.start, s.record.stride]).toEqual([0, 64]);
      expectLaneIndex(s, (lane) => lane & 15);
      expect(s.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
      expectFixedLoad(role(a, 'sampler'), setBase(t), 0x400);
      expectFixedLoad(role(only(r, /^buffer_store/), 'resource'), setBase(t), 0x410);
      expect(r.slots).toHaveLength(1);
    });

    it('nonuniform_sampler_and_texture: tex[i & 3] from b0 and samp[(i >> 2) & 1] from b7, one waterfall, one slot', () => {
      const r = traced(t, `radv_${t.name}_nonuniform_sampler_and_texture.bin`);
      const samples = accesses(r, /^image_sample/);
      expect(samples).toHaveLength(2);
      for (const a of samples) {
        const tex = selection(role(a, 'resource').classification);
        const samp = selection(role(a, 'sampler').classification);
        expectAcoShape(tex, t);
        expectAcoShape(samp, t);
        expect(tex.shape.loop).toEqual(samp.shape.loop);
        expect(tex.table.base).toEqual(setBase(t));
        expect(samp.table.base).toEqual(setBase(t));
        expect([tex.record.start, tex.record.stride]).toEqual([0, 64]);
        expect([samp.record.start, samp.record.stride]).toEqual([0x860, 16]);
        expectLaneIndex(tex, (lane) => lane & 3);
        expectLaneIndex(samp, (lane) => (lane >> 2) & 1);
      }
      // Each sample has its own waterfall loop.
      const headers = samples.map((a) => selection(role(a, 'resource').classification).shape.loop.header);
      expect(headers[0]).not.toBe(headers[1]);
      expect(r.slots).toHaveLength(1);
      expect(r.slots[0].accesses).toEqual(samples.map((a) => a.at));
      for (const s of accesses(r, /^buffer_store/)) expectFixedLoad(role(s, 'resource'), setBase(t), 0x410);
    });

    it('nonuniform_ssbo: bufs[o[i] & 15] is record (loaded & 15) of b3 (16 bytes); o[] is b2', () => {
      const r = traced(t, `radv_${t.name}_nonuniform_ssbo.bin`);
      const loads = accesses(r, /^buffer_load_dword /);
      expect(loads).toHaveLength(2);
      expectFixedLoad(role(loads[0], 'resource'), setBase(t), 0x410);
      const s = selection(role(loads[1], 'resource').classification);
      expectAcoShape(s, t);
      expect(s.table.base).toEqual(setBase(t));
      expect([s.record.start, s.record.stride]).toEqual([0x420, 16]);
      for (const loaded of [0, 5, 15, 16, 0x1234])
        expect(laneIndex(s, 0, loaded), `loaded ${loaded}`).toBe(loaded & 15);
      expectFixedLoad(role(only(r, /^buffer_store/), 'resource'), setBase(t), 0x410);
    });

    it('nonuniform_ubo: ubos[i & 15] is record i & 15 of b6 (16 bytes), read by s_buffer_load', () => {
      const r = traced(t, `radv_${t.name}_nonuniform_ubo.bin`);
      const a = only(r, /^s_buffer_load/);
      const s = selection(role(a, 'resource').classification);
      expectAcoShape(s, t);
      expect(s.table.base).toEqual(setBase(t));
      expect([s.record.start, s.record.stride]).toEqual([0x760, 16]);
      expectLaneIndex(s, (lane) => lane & 15);
      expectFixedLoad(role(only(r, /^buffer_store/), 'resource'), setBase(t), 0x410);
    });

    it('immutable_sampler: the image from b5, its sampler built from constants', () => {
      const r = traced(t, `radv_${t.name}_immutable_sampler.bin`);
      const a = only(r, /^image_sample/);
      expectFixedLoad(role(a, 'resource'), setBase(t), 0x720);
      expect(constants(role(a, 'sampler'))).toEqual(
        radvSampler(isa(t).gen, { clamp: [2, 0, 1], mag: 'linear', min: 'nearest', mip: 'linear', maxLod: 1000 }),
      );
      expectFixedLoad(role(only(r, /^buffer_store/), 'resource'), setBase(t), 0x410);
    });

    it('shadow_compare_immutable: tex[0] from b0, and every one of the 16 compare samplers from constants', () => {
      const r = traced(t, `radv_${t.name}_shadow_compare_immutable.bin`);
      const images = r.accesses.filter((a) => a.kind === 'image');
      expect(images.length).toBeGreaterThanOrEqual(16);
      const gen = isa(t).gen;
      const expected = Array.from({ length: 16 }, (_, k) =>
        radvSampler(gen, {
          clamp: [2, 2, 2],
          mag: k < 8 ? 'nearest' : 'linear',
          min: k < 8 ? 'nearest' : 'linear',
          mip: 'nearest',
          compare: k & 7,
          maxLod: 1000,
        }),
      );
      const seen = new Set<number>();
      for (const a of images) {
        expectFixedLoad(role(a, 'resource'), setBase(t), 0);
        const words = constants(role(a, 'sampler'));
        const k = expected.findIndex((e) => e.every((w, i) => w === words[i]));
        expect(k, `${a.instruction}: ${words.map((w) => w?.toString(16)).join(', ')}`).toBeGreaterThanOrEqual(0);
        seen.add(k);
      }
      expect(seen.size).toBe(16);
    });
  });
}

interface VkSampler {
  /** U, V, W as SQ_TEX_CLAMP: 0 repeat, 1 mirrored repeat, 2 clamp to edge. */
  readonly clamp: readonly [number, number, number];
  readonly mag: 'nearest' | 'linear';
  readonly min: 'nearest' | 'linear';
  readonly mip: 'nearest' | 'linear';
  /** VkCompareOp, when compare is enabled (RADV writes it 1:1 into DEPTH_COMPARE_FUNC). */
  readonly compare?: number;
  readonly maxLod: number;
}

/** The S# RADV packs for a Vulkan sampler (DESCRIPTORS.md §3; generation bits as described at the top). */
function radvSampler(gen: Gen, s: VkSampler): number[] {
  const trunc = s.mag === 'nearest' && s.min === 'nearest';
  const w0 =
    s.clamp[0] |
    (s.clamp[1] << 3) |
    (s.clamp[2] << 6) |
    ((s.compare ?? 0) << 12) |
    (trunc ? 1 << 27 : 0) |
    (gen === Gen.GFX8 || gen === Gen.GFX9 ? 1 << 31 : 0);
  const w1 = (Math.min(s.maxLod, 15) * 256) << 12;
  const w2 =
    ((s.mag === 'linear' ? 1 : 0) << 20) |
    ((s.min === 'linear' ? 1 : 0) << 22) |
    ((s.mip === 'linear' ? 2 : 1) << 26) |
    (gen <= Gen.GFX8 ? 1 << 29 : 0) |
    (gen <= Gen.GFX9 ? 1 << 30 : 0);
  return [w0 >>> 0, w1 >>> 0, w2 >>> 0, 0];
}
