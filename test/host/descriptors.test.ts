/**
 * V#, T# and S# per generation family: field-by-field round trips over seeded random values,
 * hand-built words checked against DESCRIPTORS.md bit positions, real sampler words from the
 * compiled corpus (ACO and LLVM building an S# from constants), every DescriptorError code,
 * and the `descriptor` command.
 */
import { describe, expect, it } from 'vitest';
import { ALL_GENS, GEN_NAMES, Gen } from '../../src/isa/gen.ts';
import {
  DescriptorError,
  bufferLayout,
  decodeBufferDescriptor,
  decodeImageDescriptor,
  decodeSamplerDescriptor,
  encodeBufferDescriptor,
  encodeImageDescriptor,
  encodeSamplerDescriptor,
  imageLayout,
  imageTypeOf,
  legacyImageDataFormats,
  samplerLayout,
  unifiedFormatTable,
  type DescriptorErrorCode,
  type Layout,
} from '../../src/host/descriptors/index.ts';
import { decodeFields, defineLayout, encodeFields, f } from '../../src/host/descriptors/bits.ts';
import { descriptorCommand, parseWord } from '../../src/cli/descriptor-command.ts';

// ---------------------------------------------------------------- helpers

/** mulberry32: a small seeded generator, so every run draws the same values. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function expectError(fn: () => unknown, code: DescriptorErrorCode): DescriptorError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DescriptorError);
    expect((e as DescriptorError).code).toBe(code);
    expect((e as DescriptorError).reason.length).toBeGreaterThan(0);
    return e as DescriptorError;
  }
  throw new Error(`expected DescriptorError ${code}`);
}

const hex = (ws: ArrayLike<number>) => Array.from(ws, (w) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`);
const DST = [0, 1, 4, 5, 6, 7];
const legacy = (g: Gen) => g <= Gen.GFX9;

/** Values each constrained field may take; every other field takes any value of its width. */
function constrained(kind: 'buffer' | 'image' | 'sampler', gen: Gen): Record<string, readonly number[]> {
  const c: Record<string, number[]> = { dst_sel_x: DST, dst_sel_y: DST, dst_sel_z: DST, dst_sel_w: DST };
  if (kind === 'buffer') {
    c.type = [0];
    if (legacy(gen)) {
      c.data_format = Array.from({ length: 15 }, (_, i) => i);
      c.num_format = [0, 1, 2, 3, 4, 5, 6, 7];
    } else {
      c.format = [...unifiedFormatTable(gen).keys()].filter((v) => v <= (gen === Gen.GFX11 ? 63 : 77));
    }
  } else if (kind === 'image') {
    c.type = [8, 9, 10, 11, 12, 13, 14, 15];
    if (legacy(gen)) {
      c.data_format = Object.keys(legacyImageDataFormats(gen)).map(Number);
      c.num_format = gen === Gen.GFX9 ? [0, 1, 2, 3, 4, 5, 6, 7, 9] : [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13];
    } else {
      c.format = [...unifiedFormatTable(gen).keys()];
    }
  } else {
    c.max_aniso_ratio = [0, 1, 2, 3, 4];
    c.filter_mode = [0, 1, 2];
    c.z_filter = [0, 1, 2];
    c.mip_filter = gen === Gen.GFX7 ? [0, 1, 2] : [0, 1, 2, 3];
    for (const k of ['dst_sel_x', 'dst_sel_y', 'dst_sel_z', 'dst_sel_w']) delete c[k];
  }
  return c;
}

function randomFields(
  layout: Layout,
  cons: Record<string, readonly number[]>,
  r: () => number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const fs of layout.fields) {
    const allowed = cons[fs.name];
    out[fs.name] = allowed ? pick(r, allowed) : Math.floor(r() * 2 ** fs.width);
  }
  return out;
}

const KINDS = {
  buffer: { layout: bufferLayout, encode: encodeBufferDescriptor, decode: decodeBufferDescriptor },
  image: { layout: imageLayout, encode: encodeImageDescriptor, decode: decodeImageDescriptor },
  sampler: { layout: samplerLayout, encode: encodeSamplerDescriptor, decode: decodeSamplerDescriptor },
} as const;

// ---------------------------------------------------------------- round trips

describe('field-by-field round trips (seeded random values within each width)', () => {
  const ITER = 300;
  for (const gen of ALL_GENS) {
    for (const kind of ['buffer', 'image', 'sampler'] as const) {
      it(`${GEN_NAMES[gen]} ${kind}: decode(encode(fields)).fields == fields, encode(decode(words).fields) == words`, () => {
        const k = KINDS[kind];
        const layout = k.layout(gen);
        const cons = constrained(kind, gen);
        const r = rng(0x5eed + gen * 31 + kind.length);
        for (let i = 0; i < ITER; i++) {
          const fields = randomFields(layout, cons, r);
          const words = k.encode(gen, fields);
          const d = k.decode(gen, words);
          expect(d.fields).toEqual(fields);
          expect(hex(k.encode(gen, d.fields))).toEqual(hex(words));
        }
      });
    }
  }

  it('every bit a table names survives decodeFields -> encodeFields; unnamed bits read as nothing', () => {
    const r = rng(42);
    for (const gen of ALL_GENS) {
      for (const layout of [bufferLayout(gen), imageLayout(gen), samplerLayout(gen)]) {
        const covered = encodeFields(
          layout,
          Object.fromEntries(layout.fields.map((fs) => [fs.name, 2 ** fs.width - 1])),
        );
        for (let i = 0; i < 100; i++) {
          const words = Uint32Array.from({ length: layout.dwords }, () => Math.floor(r() * 2 ** 32));
          const back = encodeFields(layout, decodeFields(layout, words));
          expect(hex(back)).toEqual(hex(words.map((w, j) => w & covered[j])));
        }
      }
    }
  });

  it('fields not given encode as 0', () => {
    for (const gen of ALL_GENS) {
      expect([...encodeSamplerDescriptor(gen, {})]).toEqual([0, 0, 0, 0]);
      expect([...encodeImageDescriptor(gen, {})]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    }
  });
});

// ---------------------------------------------------------------- hand-built words

describe('V# hand-built words (DESCRIPTORS.md §1)', () => {
  // base 0x1_2345_6780, stride 16, 64 records, dst_sel xyzw, 32_FLOAT.
  // GFX7-9 dw3: 0xfac | NUM_FORMAT 7 << 12 | DATA_FORMAT 4 << 15 = 0x27fac.
  const legacyWords = [0x23456780, 0x00100001, 64, 0x00027fac];

  it('gfx7: fields, 48-bit address, NUM_RECORDS counted in records when STRIDE != 0', () => {
    const d = decodeBufferDescriptor(Gen.GFX7, legacyWords);
    expect(d.family).toBe('gfx7');
    expect(d.address).toBe(0x123456780);
    expect(d.stride_bytes).toBe(16);
    expect(d.fields).toMatchObject({ base_address_hi: 1, stride: 16, num_format: 7, data_format: 4, type: 0 });
    expect(d.format?.name).toBe('32_FLOAT');
    expect(d.dst_sel).toEqual(['x', 'y', 'z', 'w']);
    expect(d.num_records_unit).toBe('records');
    expect(d.size_bytes).toBe(1024);
    expect(d.element_size_bytes).toBe(2);
    expect(hex(encodeBufferDescriptor(Gen.GFX7, d.fields))).toEqual(hex(legacyWords));
  });

  it('gfx8: bytes unless SWIZZLE_ENABLE; ADD_TID_ENABLE makes DATA_FORMAT STRIDE[17:14]', () => {
    expect(decodeBufferDescriptor(Gen.GFX8, legacyWords).size_bytes).toBe(64);
    const swz = decodeBufferDescriptor(Gen.GFX8, [0, 0x80100000, 64, 0x00027fac]);
    expect(swz.swizzled).toBe(true);
    expect(swz.num_records_unit).toBe('records');
    // ADD_TID (bit 23) with DATA_FORMAT 4: stride = 16 | 4 << 14.
    const tid = decodeBufferDescriptor(Gen.GFX8, [0, 0x00100000, 64, 0x00827fac]);
    expect(tid.add_tid).toBe(true);
    expect(tid.stride_bytes).toBe(16 + (4 << 14));
    expect(tid.format).toBeNull();
  });

  it('gfx9: NUM_RECORDS unit depends on IDXEN when STRIDE != 0', () => {
    const d = decodeBufferDescriptor(Gen.GFX9, legacyWords);
    expect(d.num_records_unit).toBe('bytes-unless-idxen');
    expect(d.size_bytes).toBeNull();
    expect(d.element_size_bytes).toBe(16);
  });

  it('gfx10.3: 32_FLOAT with RESOURCE_LEVEL 1 and OOB_SELECT 3 is 0x31016fac', () => {
    const w = [0x23456780, 0x00100001, 64, 0x31016fac];
    const d = decodeBufferDescriptor(Gen.GFX10_3, w);
    expect(d.family).toBe('gfx10.3');
    expect(d.fields).toMatchObject({ format: 22, resource_level: 1, oob_select: 3, llc_noalloc: 0 });
    expect(d.format?.name).toBe('32_FLOAT');
    expect(d.address).toBe(0x123456780);
    expect(hex(encodeBufferDescriptor(Gen.GFX10_3, { ...d.fields }))).toEqual(hex(w));
    // 10.1 has no LLC_NOALLOC field
    expect('llc_noalloc' in decodeBufferDescriptor(Gen.GFX10, w).fields).toBe(false);
  });

  it('gfx11: 6-bit FORMAT, no RESOURCE_LEVEL, 2-bit SWIZZLE_ENABLE', () => {
    const d = decodeBufferDescriptor(Gen.GFX11, [0, 0xc0100000, 64, 0x30016fac]);
    expect(d.fields).toMatchObject({ format: 22, oob_select: 3, swizzle_enable: 3, stride: 16 });
    expect('resource_level' in d.fields).toBe(false);
    expect(d.format?.name).toBe('32_FLOAT');
    expect(d.swizzled).toBe(true);
  });
});

describe('T# hand-built words (DESCRIPTORS.md §2)', () => {
  it('gfx7: 256x128 8_8_8_8 UNORM, TILING_INDEX 14, 9 levels, pitch 256', () => {
    // VA 0x1000_0000_4000 -> VA >> 8 = 0x10_0000_0040 (hi 0x10, lo 0x40); dw1 = hi | DATA_FORMAT 10 << 20;
    // dw2 = 255 | 127 << 14; dw3 = 0xfac | LAST_LEVEL 8 << 16 | TILING_INDEX 14 << 20 | POW2_PAD << 25 | TYPE 9 << 28;
    // dw4 = PITCH-1 255 << 13.
    const w = [0x00000040, 0x00a00010, 0x001fc0ff, 0x92e80fac, 0x001fe000, 0, 0, 0];
    const d = decodeImageDescriptor(Gen.GFX7, w);
    expect(d).toMatchObject({
      family: 'gfx7',
      type_name: '2d',
      address: 0x100000004000,
      width: 256,
      height: 128,
      depth: 1,
      layers: 1,
      mip_count: 9,
      pitch: 256,
      tiling: { tiling_index: 14 },
      is_cube: false,
    });
    expect(d.format.name).toBe('8_8_8_8_UNORM');
    expect(d.fields).toMatchObject({ pow2_pad: 1, last_level: 8, tiling_index: 14 });
    expect(hex(encodeImageDescriptor(Gen.GFX7, d.fields))).toEqual(hex(w));
  });

  it('gfx7 cube: DEPTH counts cubes - 1, so DEPTH 1 is 12 faces', () => {
    const d = decodeImageDescriptor(Gen.GFX7, [0x40, 0x00a00010, 0x001fc0ff, 0xb2e80fac, 0x001fe001, 0, 0, 0]);
    expect(d).toMatchObject({ type_name: 'cube', is_cube: true, layers: 12, depth: 1 });
  });

  it('gfx9: 64x64 BC3 2D array of 6 layers, MAX_MIP 6, epitch 63', () => {
    // dw1 = DATA_FORMAT 37 << 20; dw3 = 0xfac | LAST_LEVEL 6 << 16 | SW_MODE 9 << 20 | TYPE 13 << 28;
    // dw4 = DEPTH (last layer) 5 | PITCH 63 << 13; dw5 = MAX_MIP 6 << 28.
    const w = [0x100, 0x02500000, 0x000fc03f, 0xd0960fac, 0x0007e005, 0x60000000, 0, 0];
    const d = decodeImageDescriptor(Gen.GFX9, w);
    expect(d).toMatchObject({
      type_name: '2d_array',
      is_array: true,
      layers: 6,
      mip_count: 7,
      width: 64,
      height: 64,
      pitch: 64,
      tiling: { sw_mode: 9 },
      address: 0x10000,
    });
    expect(d.format).toMatchObject({ name: 'BC3_UNORM', block_compressed: true, bits_per_element: 128 });
    expect(hex(encodeImageDescriptor(Gen.GFX9, d.fields))).toEqual(hex(w));
  });

  // The PS5 case of D983: formats 169 (BC1_UNORM) and 173 (BC3_UNORM) at a 0x7400_5b85_0000 base.
  // dw1 = BASE_HI 0x74 | FORMAT 169 << 20 | WIDTH[1:0] 3 << 30; dw2 = WIDTH[13:2] 0xff | 511 << 14 | RESOURCE_LEVEL << 31;
  // dw3 = 0xfac | LAST_LEVEL 10 << 16 | SW_MODE 25 << 20 | TYPE 9 << 28; dw5 = MAX_MIP 10 << 4 | PERF_MOD 4 << 20.
  const ps5 = [0x005b8500, 0xca900074, 0x807fc0ff, 0x919a0fac, 0, 0x004000a0, 0, 0];

  it('gfx10.3: 1024x512 BC1_UNORM (169), split WIDTH, MAX_MIP 10, SW_MODE 25', () => {
    const d = decodeImageDescriptor(Gen.GFX10_3, ps5);
    expect(d).toMatchObject({
      family: 'gfx10.3',
      type_name: '2d',
      address: 0x74005b850000,
      width: 1024,
      height: 512,
      mip_count: 11,
      last_level: 10,
      tiling: { sw_mode: 25 },
      pitch: null,
      compressed: false,
    });
    expect(d.format).toMatchObject({ value: 169, name: 'BC1_UNORM', bits_per_element: 64 });
    expect(d.fields).toMatchObject({ width_lo: 3, width_hi: 0xff, resource_level: 1, max_mip: 10, perf_mod: 4 });
    expect(hex(encodeImageDescriptor(Gen.GFX10_3, d.fields))).toEqual(hex(ps5));
    const bc3 = decodeImageDescriptor(Gen.GFX10_3, [ps5[0], 0xcad00074, ...ps5.slice(2)]);
    expect(bc3.format.name).toBe('BC3_UNORM');
    expect(decodeImageDescriptor(Gen.GFX10, ps5).format.name).toBe('BC1_UNORM');
  });

  it('gfx10.3: a linear 2D image with a custom pitch keeps pitch - 1 in DEPTH and PITCH_MSB', () => {
    // pitch 10000 -> 9999 = 0x270f: DEPTH 0x070f, PITCH_MSB 1 (dw4 = 0x270f); SW_MODE 0.
    const w = [...ps5];
    w[3] = 0x900a0fac;
    w[4] = 0x0000270f;
    expect(decodeImageDescriptor(Gen.GFX10_3, w).pitch).toBe(10000);
  });

  it('gfx10.3: DCC metadata address from dw6[31:24] and dw7', () => {
    const w = [...ps5];
    w[6] = (0x12 << 24) | (1 << 21);
    w[7] = 0x00abcdef;
    const d = decodeImageDescriptor(Gen.GFX10_3, w);
    expect(d.compressed).toBe(true);
    expect(d.meta_address).toBe(0xabcdef1200);
  });

  it('gfx11: FORMAT 109 is BC1_UNORM; MAX_MIP in dw1; MIN_LOD split over dw5/dw6', () => {
    // dw1 = 0x74 | MAX_MIP 10 << 16 | FORMAT 109 << 20 | 3 << 30; dw2 without RESOURCE_LEVEL;
    // MIN_LOD 1.5 = 384: LO (dw5[31:27]) 0, HI (dw6[6:0]) 12.
    const w = [0x005b8500, 0xc6da0074, 0x007fc0ff, 0x919a0fac, 0, 0x00400000, 12, 0];
    const d = decodeImageDescriptor(Gen.GFX11, w);
    expect(d).toMatchObject({ family: 'gfx11', width: 1024, height: 512, mip_count: 11, min_lod: 1.5 });
    expect(d.format.name).toBe('BC1_UNORM');
    expect(hex(encodeImageDescriptor(Gen.GFX11, d.fields))).toEqual(hex(w));
  });

  it('MSAA: LAST_LEVEL holds log2(samples), one level', () => {
    const w = [0, 0x0a900000, 0x001fc0ff, 0xe0020fac, 0, 0x00000020, 0, 0];
    const d = decodeImageDescriptor(Gen.GFX10_3, w);
    expect(d).toMatchObject({ type_name: '2d_msaa', is_msaa: true, samples: 4, mip_count: 1 });
  });

  it('the 4-dword (r128) form decodes dwords 0-3 and encodes to 4 words', () => {
    const d = decodeImageDescriptor(Gen.GFX10_3, ps5.slice(0, 4));
    expect(d.dwords).toBe(4);
    expect(d.width).toBe(1024);
    expect(d.layers).toBe(1);
    expect(hex(encodeImageDescriptor(Gen.GFX10_3, d.fields, { dwords: 4 }))).toEqual(hex(ps5.slice(0, 4)));
  });

  it('imageTypeOf tells a T# from a V# or a null record', () => {
    expect(imageTypeOf(ps5)).toBe(9);
    expect(imageTypeOf([0, 0, 0, 0])).toBe(0);
    expect(imageTypeOf([1, 2])).toBeNull();
  });
});

// ---------------------------------------------------------------- real S# words from the corpus

/**
 * RADV's immutable samplers, inlined by ACO as SGPR constants. Sources (shared/corpus/compiled/radv):
 *  default (vkcomp.c lines 55-59): mag LINEAR, min NEAREST, mip LINEAR; U CLAMP_TO_EDGE, V REPEAT,
 *    W MIRRORED_REPEAT; maxLod 1000 (Mesa clamps to 15); no border mode used, so RADV writes a
 *    transparent-black border type (radv_sampler.c uses_border_color).
 *  white (vkcomp.c lines 60-65): CLAMP_TO_BORDER everywhere, OPAQUE_WHITE, 16x aniso, mipLodBias 1.5,
 *    minLod 0.5, maxLod 8.
 * `s_bfm_b32 s5, 4, 20` is ((1 << 4) - 1) << 20 = 0x00f00000; `s_brev_b32 s7, 1` is 0x80000000;
 * `s_mov_b64 s[6:7], L` gives s6 = L, s7 = 0.
 */
const IMMUTABLE: readonly { gen: Gen; file: string; def: number[]; white: number[] }[] = [
  {
    // gfx704_immutable_sampler.dump lines 7-9; gfx704_immutable_sampler_white.dump lines 7-10
    gen: Gen.GFX7,
    file: 'gfx704',
    def: [0x42, 0x00f00000, 0x68100000, 0],
    white: [0x008209b6, 0x0a800080, 0x68b00180, 0x80000000],
  },
  {
    // gfx803_immutable_sampler.dump lines 7-9; gfx803_immutable_sampler_white.dump lines 7-10
    gen: Gen.GFX8,
    file: 'gfx803',
    def: [0x80000042, 0x00f00000, 0x68100000, 0],
    white: [0x808209b6, 0x0a800080, 0x68b00180, 0x80000000],
  },
  {
    // gfx900_immutable_sampler.dump lines 7-9; gfx900_immutable_sampler_white.dump lines 7-10
    gen: Gen.GFX9,
    file: 'gfx900',
    def: [0x80000042, 0x00f00000, 0x48100000, 0],
    white: [0x808209b6, 0x0a800080, 0x48b00180, 0x80000000],
  },
  {
    // gfx1030w32_immutable_sampler.dump lines 8-10; gfx1030w32_immutable_sampler_white.dump lines 8-11
    gen: Gen.GFX10_3,
    file: 'gfx1030w32',
    def: [0x42, 0x00f00000, 0x08100000, 0],
    white: [0x008209b6, 0x0a800080, 0x08b00180, 0x80000000],
  },
];

describe('real S# words: RADV immutable samplers built by ACO from constants', () => {
  for (const { gen, file, def, white } of IMMUTABLE) {
    it(`${file}: the default sampler decodes to its VkSamplerCreateInfo`, () => {
      const s = decodeSamplerDescriptor(gen, def);
      expect(s.clamp).toEqual(['clamp_last_texel', 'wrap', 'mirror']);
      expect(s.address_mode).toEqual(['clamp-to-edge', 'repeat', 'mirror-repeat']);
      expect(s).toMatchObject({
        mag_filter: 'bilinear',
        min_filter: 'point',
        mip_filter: 'linear',
        min_lod: 0,
        max_lod: 15,
        lod_bias: 0,
        max_anisotropy: 1,
        depth_compare: 'never',
        border_color: 'transparent_black',
        unnormalized: false,
      });
      // COMPAT_MODE on GFX8/9 only; DISABLE_LSB_CEIL on GFX<=8; FILTER_PREC_FIX on GFX<=9 (Mesa).
      if (gen === Gen.GFX8 || gen === Gen.GFX9) expect(s.fields).toMatchObject({ compat_mode: 1 });
      if (gen <= Gen.GFX8) expect(s.fields).toMatchObject({ disable_lsb_ceil: 1, filter_prec_fix: 1 });
      if (gen === Gen.GFX9) expect(s.fields).toMatchObject({ filter_prec_fix: 1, blend_zero_prt: 0 });
      if (gen === Gen.GFX10_3) expect(s.fields).toMatchObject({ aniso_override: 0, skip_degamma: 0 });
      expect(hex(encodeSamplerDescriptor(gen, s.fields))).toEqual(hex(def));
    });

    it(`${file}: the white sampler: border, 16x aniso, LOD bias 1.5, LOD 0.5..8`, () => {
      const s = decodeSamplerDescriptor(gen, white);
      expect(s.clamp).toEqual(['clamp_border', 'clamp_border', 'clamp_border']);
      expect(s.address_mode).toEqual([null, null, null]);
      expect(s).toMatchObject({
        border_color: 'opaque_white',
        max_anisotropy: 16,
        lod_bias: 1.5,
        min_lod: 0.5,
        max_lod: 8,
        mag_filter: 'aniso_bilinear',
        min_filter: 'aniso_point',
        mip_filter: 'linear',
      });
      // Mesa's anisotropy recipe: ANISO_THRESHOLD = ratio >> 1, ANISO_BIAS = ratio, PERF_MIP = ratio + 6.
      expect(s.fields).toMatchObject({ max_aniso_ratio: 4, aniso_threshold: 2, aniso_bias: 4, perf_mip: 10 });
      expect(hex(encodeSamplerDescriptor(gen, s.fields))).toEqual(hex(white));
    });
  }
});

/**
 * The shadow_compare_immutable kernel (radv/shadow_compare.comp; samplers from vkcomp_additions.c
 * lines 78-89): s[k] for k < 8 compares with VkCompareOp k, NEAREST; s[8 + k] the same, LINEAR; all
 * mipmapMode NEAREST, CLAMP_TO_EDGE, maxLod 1000. gfx1030w32_shadow_compare_immutable.dump lines
 * 14-37 (point, dw0 0x08000092 | k << 12, dw2 0x04000000) and 38-61 (linear, dw0 0x92 | k << 12,
 * dw2 0x04500000); gfx704 / gfx803 / gfx900 ..._shadow_compare_immutable.dump lines 15-17 and 42-44.
 */
const SHADOW: readonly { gen: Gen; point: [number, number]; linear: [number, number] }[] = [
  { gen: Gen.GFX7, point: [0x08000092, 0x64000000], linear: [0x00000092, 0x64500000] },
  { gen: Gen.GFX8, point: [0x88000092, 0x64000000], linear: [0x80000092, 0x64500000] },
  { gen: Gen.GFX9, point: [0x88000092, 0x44000000], linear: [0x80000092, 0x44500000] },
  { gen: Gen.GFX10_3, point: [0x08000092, 0x04000000], linear: [0x00000092, 0x04500000] },
];
const VK_COMPARE = ['never', 'less', 'equal', 'less-equal', 'greater', 'not-equal', 'greater-equal', 'always'];

describe('real S# words: the eight depth-compare functions, point and linear', () => {
  for (const { gen, point, linear } of SHADOW) {
    it(`${GEN_NAMES[gen]}: compare function k, filter and clamp as created`, () => {
      for (let k = 0; k < 8; k++) {
        for (const [dw0, dw2, filter] of [
          [point[0], point[1], 'point'],
          [linear[0], linear[1], 'bilinear'],
        ] as const) {
          const s = decodeSamplerDescriptor(gen, [(dw0 | (k << 12)) >>> 0, 0x00f00000, dw2, 0]);
          expect(s.depth_compare).toBe(VK_COMPARE[k]);
          expect(s.mag_filter).toBe(filter);
          expect(s.min_filter).toBe(filter);
          expect(s.mip_filter).toBe('point');
          expect(s.clamp).toEqual(['clamp_last_texel', 'clamp_last_texel', 'clamp_last_texel']);
          // RADV sets TRUNC_COORD for point sampling (§3).
          expect(s.fields.trunc_coord).toBe(filter === 'point' ? 1 : 0);
          expect(s.max_lod).toBe(15);
        }
      }
    });
  }
});

/**
 * llvm/sampler_const.ll lines 6 and 10: LLVM materialises the constant S# <4096, 268374016,
 * 0x80000000, 0> as s_movk_i32 s8, 0x1000 / s_mov_b32 s9, 0xfff1000 / s_brev_b32 s10, 1 /
 * s_mov_b32 s11, 0 (gfx704_sampler_const.s lines 11-14), and <-1, 16773120, 1879048192, -32768>
 * as s_mov_b32 s8, -1 / s_mov_b32 s9, 0xfff000 / s_brev_b32 s10, 14 / s_movk_i32 s11, 0x8000
 * (lines 53-56). The source only says the words exercise the scalar forms; they are test words.
 */
describe('LLVM constant S# words (sampler_const)', () => {
  it('main: compare LESS, MAX_LOD 0xff1, and bit 31 of dw2 per generation', () => {
    const w = [0x1000, 0x0fff1000, 0x80000000, 0];
    const s7 = decodeSamplerDescriptor(Gen.GFX7, w);
    expect(s7.depth_compare).toBe('less');
    expect(s7.fields).toMatchObject({ min_lod: 0, max_lod: 0xff1, perf_mip: 0xf });
    expect('aniso_override' in s7.fields).toBe(false); // gfx7 has no dw2[31]
    expect(decodeSamplerDescriptor(Gen.GFX8, w).fields).toMatchObject({ aniso_override: 1 });
    expect(decodeSamplerDescriptor(Gen.GFX10_3, w).fields).not.toHaveProperty('deriv_adjust_en');
    expect(decodeSamplerDescriptor(Gen.GFX11, w).fields).toMatchObject({ deriv_adjust_en: 1 });
  });

  it('main2: dw0 = -1 holds MAX_ANISO_RATIO 7, a reserved value, and is refused by name', () => {
    const e = expectError(
      () => decodeSamplerDescriptor(Gen.GFX10_3, [-1, 16773120, 1879048192, -32768]),
      'reserved-value',
    );
    expect(e.reason).toMatch(/max_aniso_ratio/);
  });
});

describe('S# field positions per generation', () => {
  it('gfx11 moves BORDER_COLOR_PTR to dw3[29:18]; gfx9 has SKIP_DEGAMMA at dw3[12]', () => {
    expect(decodeSamplerDescriptor(Gen.GFX11, [0, 0, 0, (0xabc << 18) | (3 << 30)])).toMatchObject({
      border_color_ptr: 0xabc,
      border_color: 'register',
    });
    expect(decodeSamplerDescriptor(Gen.GFX10_3, [0, 0, 0, 0xabc]).border_color_ptr).toBe(0xabc);
    expect(decodeSamplerDescriptor(Gen.GFX9, [0, 0, 0, 1 << 12]).fields).toMatchObject({ skip_degamma: 1 });
    expect(decodeSamplerDescriptor(Gen.GFX10_3, [1 << 31, 0, 0, 0]).fields).toMatchObject({ skip_degamma: 1 });
  });

  it('LOD_BIAS is 14-bit signed /256, LOD_BIAS_SEC 6-bit signed', () => {
    const s = decodeSamplerDescriptor(Gen.GFX10_3, [0, 0, (0x3fff & -384) | (0x3f << 14), 0]);
    expect(s.lod_bias).toBe(-1.5);
    expect(s.lod_bias_sec).toBe(-1 / 16);
  });
});

// ---------------------------------------------------------------- errors

describe('every DescriptorError code', () => {
  it('word-count', () => {
    expectError(() => decodeBufferDescriptor(Gen.GFX7, [0, 0, 0]), 'word-count');
    expectError(() => decodeImageDescriptor(Gen.GFX10_3, [0, 0, 0, 0, 0]), 'word-count');
    expectError(() => decodeSamplerDescriptor(Gen.GFX9, []), 'word-count');
  });
  it('bad-word', () => {
    expectError(() => decodeBufferDescriptor(Gen.GFX7, [0, 1.5, 0, 0]), 'bad-word');
    expectError(() => decodeSamplerDescriptor(Gen.GFX7, [0, 0, 2 ** 32, 0]), 'bad-word');
    expectError(() => decodeSamplerDescriptor(Gen.GFX7, [0, 0, Number.NaN, 0]), 'bad-word');
  });
  it('unknown-generation', () => {
    expectError(() => decodeBufferDescriptor(99 as Gen, [0, 0, 0, 0]), 'unknown-generation');
    expectError(() => unifiedFormatTable(Gen.GFX9), 'unknown-generation');
  });
  it('not-a-buffer', () => {
    const e = expectError(() => decodeBufferDescriptor(Gen.GFX10_3, [0, 0, 0, 0x90000fac]), 'not-a-buffer');
    expect(e.reason).toMatch(/T#/);
  });
  it('reserved-type: TYPE 0 (a V# or null record) and 1-7', () => {
    expectError(() => decodeImageDescriptor(Gen.GFX10_3, [0, 0, 0, 0, 0, 0, 0, 0]), 'reserved-type');
    expectError(() => decodeImageDescriptor(Gen.GFX7, [0, 0, 0, 0x70000fac, 0, 0, 0, 0]), 'reserved-type');
  });
  it('unknown-format', () => {
    // gfx10 FORMAT 78 is not in the table; gfx11 FORMAT 169 (gfx10's BC1) is not either.
    expectError(() => decodeImageDescriptor(Gen.GFX10_3, [0, 78 << 20, 0, 0x90000fac, 0, 0, 0, 0]), 'unknown-format');
    expectError(() => decodeImageDescriptor(Gen.GFX11, [0, 169 << 20, 0, 0x90000fac, 0, 0, 0, 0]), 'unknown-format');
    // IMG_DATA_FORMAT 15, IMG_NUM_FORMAT 8 (gfx7) and 10 (gfx9)
    expectError(() => decodeImageDescriptor(Gen.GFX7, [0, 15 << 20, 0, 0x90000fac, 0, 0, 0, 0]), 'unknown-format');
    expectError(
      () => decodeImageDescriptor(Gen.GFX7, [0, (10 << 20) | (8 << 26), 0, 0x90000fac, 0, 0, 0, 0]),
      'unknown-format',
    );
    expectError(
      () => decodeImageDescriptor(Gen.GFX9, [0, (10 << 20) | (10 << 26), 0, 0x90000fac, 0, 0, 0, 0]),
      'unknown-format',
    );
    // BUF_DATA_FORMAT 15; a gfx10 buffer FORMAT past 77 (an image-only format)
    expectError(() => decodeBufferDescriptor(Gen.GFX7, [0, 0, 0, (15 << 15) | 0xfac]), 'unknown-format');
    expectError(() => decodeBufferDescriptor(Gen.GFX10_3, [0, 0, 0, 0xfac | (100 << 12)]), 'unknown-format');
  });
  it('reserved-value: DST_SEL 2/3, FILTER_MODE 3, Z_FILTER 3, MIP_FILTER 3 on gfx7', () => {
    expectError(() => decodeBufferDescriptor(Gen.GFX7, [0, 0, 0, 0x00027fab]), 'reserved-value');
    expectError(() => decodeImageDescriptor(Gen.GFX10_3, [0, 56 << 20, 0, 0x90000fa2, 0, 0, 0, 0]), 'reserved-value');
    expectError(() => decodeSamplerDescriptor(Gen.GFX10_3, [3 << 29, 0, 0, 0]), 'reserved-value');
    expectError(() => decodeSamplerDescriptor(Gen.GFX10_3, [0, 0, 3 << 24, 0]), 'reserved-value');
    expectError(() => decodeSamplerDescriptor(Gen.GFX7, [0, 0, 3 << 26, 0]), 'reserved-value');
    expect(decodeSamplerDescriptor(Gen.GFX8, [0, 0, 3 << 26, 0]).mip_filter).toBe('point_aniso_adj');
  });
  it('unknown-field: a field of another generation', () => {
    expectError(() => encodeImageDescriptor(Gen.GFX10, { pitch_msb: 1 }), 'unknown-field');
    expectError(() => encodeBufferDescriptor(Gen.GFX7, { format: 22 }), 'unknown-field');
    expectError(() => encodeSamplerDescriptor(Gen.GFX7, { compat_mode: 1 }), 'unknown-field');
  });
  it('field-out-of-range: never truncated', () => {
    expectError(() => encodeBufferDescriptor(Gen.GFX7, { stride: 1 << 14 }), 'field-out-of-range');
    expectError(() => encodeSamplerDescriptor(Gen.GFX7, { clamp_x: -1 }), 'field-out-of-range');
    expectError(() => encodeImageDescriptor(Gen.GFX9, { width: 0.5 }), 'field-out-of-range');
  });
  it('short-form-field: a dword 4-7 field in the 4-dword T#', () => {
    expectError(() => encodeImageDescriptor(Gen.GFX10_3, { max_mip: 3 }, { dwords: 4 }), 'short-form-field');
    expect(encodeImageDescriptor(Gen.GFX10_3, { max_mip: 0, type: 9 }, { dwords: 4 })).toHaveLength(4);
  });
  it('bad-layout: overlap, duplicate, outside the dword', () => {
    expectError(() => defineLayout('x', 1, [f('a', 0, 0, 4), f('b', 0, 3, 2)]), 'bad-layout');
    expectError(() => defineLayout('x', 1, [f('a', 0, 0, 4), f('a', 0, 4, 2)]), 'bad-layout');
    expectError(() => defineLayout('x', 1, [f('a', 0, 30, 4)]), 'bad-layout');
    expectError(() => defineLayout('x', 1, [f('a', 1, 0, 4)]), 'bad-layout');
  });
});

// ---------------------------------------------------------------- CLI

function fakeIo() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) }, out, err };
}

describe('gcn-webgpu descriptor', () => {
  it('prints a sampler as JSON with snake-case fields', () => {
    const { io, out, err } = fakeIo();
    const rc = descriptorCommand(
      ['--mcpu', 'gfx1030', '--kind', 'sampler', '--words', '0x42,0x00f00000,0x08100000,0'],
      io,
    );
    expect(rc).toBe(0);
    expect(err).toEqual([]);
    const j = JSON.parse(out.join(''));
    expect(j).toMatchObject({ mcpu: 'gfx1030', kind: 'sampler', gen_name: 'gfx10.3', mag_filter: 'bilinear' });
    expect(j.fields).toMatchObject({ clamp_x: 2, clamp_y: 0, clamp_z: 1, xy_mag_filter: 1, mip_filter: 2 });
  });

  it('decodes an image and a buffer, words in decimal or hex, commas or spaces', () => {
    const { io, out } = fakeIo();
    const words = [0x005b8500, 0xca900074, 0x807fc0ff, 0x919a0fac, 0, 0x004000a0, 0, 0];
    expect(descriptorCommand(['--mcpu=gfx1030', '--kind=image', `--words=${words.join(' ')}`], io)).toBe(0);
    const j = JSON.parse(out.join(''));
    expect(j).toMatchObject({ kind: 'image', width: 1024, height: 512, type_name: '2d' });
    expect(j.format.name).toBe('BC1_UNORM');
    const b = fakeIo();
    expect(
      descriptorCommand(['--mcpu', 'bonaire', '--kind', 'buffer', '--words', '0x23456780,0x00100001,64,0x27fac'], b.io),
    ).toBe(0);
    expect(JSON.parse(b.out.join(''))).toMatchObject({ address: 0x123456780, stride_bytes: 16 });
  });

  it('exits 3 with a message on bad usage, an unknown processor, and words that do not decode', () => {
    const cases: [string[], RegExp][] = [
      [['--kind', 'image', '--words', '0'], /--mcpu/],
      [['--mcpu', 'gfx1030', '--words', '0'], /--kind/],
      [['--mcpu', 'gfx1030', '--kind', 'texture', '--words', '0'], /--kind/],
      [['--mcpu', 'gfx1030', '--kind', 'image'], /--words/],
      [['--mcpu', 'gfx1030', '--kind', 'image', '--words', '0xzz'], /not a 32-bit word/],
      [['--mcpu', 'gfx1030', '--kind', 'image', '--words', ''], /at least one word/],
      [['--mcpu', 'gfx9999', '--kind', 'image', '--words', '0'], /unknown processor/],
      [['--mcpu', 'gfx1030', '--kind', 'image', '--words', '1,2,3'], /word-count/],
      [['--mcpu', 'gfx1030', '--kind', 'image', '--words', '0,0,0,0,0,0,0,0'], /reserved-type/],
      [['--mcpu', 'gfx1030', '--kind', 'buffer', '--words', '0,0,0,0', 'extra'], /unexpected argument/],
      [['--mcpu', 'gfx1030', '--bogus'], /unknown option/],
    ];
    for (const [argv, msg] of cases) {
      const { io, out, err } = fakeIo();
      expect(descriptorCommand(argv, io)).toBe(3);
      expect(out).toEqual([]);
      expect(err.join('')).toMatch(msg);
    }
  });

  it('--help prints the usage', () => {
    const { io, out } = fakeIo();
    expect(descriptorCommand(['--help'], io)).toBe(0);
    expect(out.join('')).toMatch(/--kind buffer\|image\|sampler/);
  });

  it('parseWord reads hex, decimal and negative int32', () => {
    expect(parseWord('0xFFFFFFFF')).toBe(0xffffffff);
    expect(parseWord('-32768')).toBe(0xffff8000);
    expect(parseWord('4096')).toBe(4096);
    expect(() => parseWord('4294967296')).toThrow(/32-bit/);
  });
});
