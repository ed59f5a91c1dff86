/**
 * The pieces behind the image-reading RADV kernels: the driver model (S# and T# as RADV
 * writes them) against the words RADV baked into the corpus listings, and the Vulkan
 * reference's rules on small cases worked by hand from the specification's formulas.
 */
import { describe, expect, it } from 'vitest';
import { Gen } from '../../src/isa/gen.ts';
import {
  decodeImageDescriptor,
  encodeImageDescriptor,
  encodeSamplerDescriptor,
} from '../../src/host/descriptors/index.ts';
import { radvSamplerFields, radvTextureFields, randomTexture, f32Expected, ulpsFor } from './radv-image-common.ts';
import { rng } from './common.ts';
import {
  gather,
  sampleGrad,
  sampleLod,
  selectLevels,
  srgbToLinear,
  textureFromRaw,
  wrap,
  type VkSampler,
} from './radv-image-reference.ts';
import { DEFAULT_SAMPLER, WHITE_SAMPLER } from './radv-immutable-sampler.ts';
import { compareSampler } from './radv-shadow-compare.ts';

const words = (gen: Gen, s: VkSampler): number[] => [...encodeSamplerDescriptor(gen, radvSamplerFields(gen, s))];

describe("RADV's S# for vkcomp's samplers", () => {
  // The words each listing builds in s[4:7] (s_mov / s_movk / s_bfm / s_brev / s_mov_b64).
  it('matches b5 immutable_sampler (radv/<target>_immutable_sampler.dump)', () => {
    expect(words(Gen.GFX7, DEFAULT_SAMPLER)).toEqual([0x42, 0xf00000, 0x68100000, 0]);
    expect(words(Gen.GFX8, DEFAULT_SAMPLER)).toEqual([0x80000042, 0xf00000, 0x68100000, 0]);
    expect(words(Gen.GFX9, DEFAULT_SAMPLER)).toEqual([0x80000042, 0xf00000, 0x48100000, 0]);
    expect(words(Gen.GFX10_3, DEFAULT_SAMPLER)).toEqual([0x42, 0xf00000, 0x8100000, 0]);
  });

  it('matches b5 immutable_sampler_white (16x aniso, bias 1.5, LOD 0.5..8, white border)', () => {
    expect(words(Gen.GFX7, WHITE_SAMPLER)).toEqual([0x8209b6, 0xa800080, 0x68b00180, 0x80000000]);
    expect(words(Gen.GFX9, WHITE_SAMPLER)).toEqual([0x808209b6, 0xa800080, 0x48b00180, 0x80000000]);
    expect(words(Gen.GFX10_3, WHITE_SAMPLER)).toEqual([0x8209b6, 0xa800080, 0x8b00180, 0x80000000]);
  });

  it('matches b8 of shadow_compare_immutable (compareOp k << 12, NEAREST with TRUNC_COORD)', () => {
    expect(words(Gen.GFX7, compareSampler(0))).toEqual([0x8000092, 0xf00000, 0x64000000, 0]);
    expect(words(Gen.GFX8, compareSampler(3))).toEqual([0x88003092, 0xf00000, 0x64000000, 0]);
    expect(words(Gen.GFX9, compareSampler(9))).toEqual([0x80001092, 0xf00000, 0x44500000, 0]);
    expect(words(Gen.GFX10_3, compareSampler(7))).toEqual([0x8007092, 0xf00000, 0x4000000, 0]);
    expect(words(Gen.GFX10_3, compareSampler(15))).toEqual([0x7092, 0xf00000, 0x4500000, 0]);
  });
});

describe("RADV's T# fields", () => {
  it('describe the texture on every generation (size, levels, format, swizzle)', () => {
    const tex = randomTexture(rng(1), 'rg16_snorm', 13, 6, 2);
    for (const gen of [Gen.GFX7, Gen.GFX8, Gen.GFX9, Gen.GFX10_3])
      for (const tiled of [false, true]) {
        const d = decodeImageDescriptor(
          gen,
          encodeImageDescriptor(gen, { ...radvTextureFields(gen, tex, tiled), base_address: 0x1000 }),
        );
        expect([d.width, d.height, d.mip_count, d.last_level, d.type_name]).toEqual([13, 6, 2, 1, '2d']);
        expect([d.format.name, d.dst_sel.join('')]).toEqual([expect.stringMatching(/16_16.*SNORM/), 'xy01']);
      }
  });
});

describe('the Vulkan reference', () => {
  const clampLinear: VkSampler = {
    magFilter: 'linear',
    minFilter: 'linear',
    mipmapMode: 'nearest',
    addressU: 'clamp-to-edge',
    addressV: 'clamp-to-edge',
  };
  // 4x2 R32_SFLOAT, texel (x, y) = 10y + x; level 1 2x1 = 100, 101.
  const f = (v: number[]) => new Uint8Array(new Float32Array(v).buffer);
  const tex = textureFromRaw('r32_float', [
    { width: 4, height: 2, raw: f([0, 1, 2, 3, 10, 11, 12, 13]) },
    { width: 2, height: 1, raw: f([100, 101]) },
  ]);

  it('wraps as "Wrapping Operation" says', () => {
    expect([-1, 4, 5, -5].map((i) => wrap(i, 4, 'repeat'))).toEqual([3, 0, 1, 3]);
    expect([-1, -2, 4, 5, 8, 9].map((i) => wrap(i, 4, 'mirrored-repeat'))).toEqual([0, 1, 3, 2, 0, 1]);
    expect([-3, 7].map((i) => wrap(i, 4, 'clamp-to-edge'))).toEqual([0, 3]);
    expect([-1, 0, 3, 4].map((i) => wrap(i, 4, 'clamp-to-border'))).toEqual([null, 0, 3, null]);
  });

  it('filters bilinearly from the footprint at (u - 0.5, v - 0.5), level by explicit LOD', () => {
    // u = 0.375 x 4 = 1.5: texel 1 exactly (alpha 0); v = 0.5 x 2 - 0.5 = 0.5: rows 0 and 1 half each
    expect(sampleLod(tex, clampLinear, [0.375, 0.5], 0).value[0]).toBe(6);
    expect(sampleLod(tex, clampLinear, [0.5, 0.25], 0).value).toEqual([1.5, 0, 0, 1]);
    expect(sampleLod(tex, clampLinear, [0.5, 0.25], 1).value[0]).toBe(100.5);
    expect(sampleLod(tex, { ...clampLinear, magFilter: 'nearest' }, [0.5, 0.25], 0).value[0]).toBe(2);
    // textureGrad: d/dx 0.5 x 4 texels = 2: λ = 1
    expect(sampleGrad(tex, clampLinear, [0.5, 0.25], [0.5, 0], [0, 0.25]).value[0]).toBe(100.5);
  });

  it('picks levels by bias, LOD clamps and mipmap mode ("Image Level(s) Selection")', () => {
    const lin = { ...clampLinear, mipmapMode: 'linear' as const };
    expect(selectLevels(tex, lin, 0.25).levels).toEqual([
      { level: 0, weight: 0.75 },
      { level: 1, weight: 0.25 },
    ]);
    expect(selectLevels(tex, { ...lin, mipLodBias: 1.5, minLod: 0.5 }, 0)).toEqual({
      levels: [{ level: 1, weight: 1 }],
      magnified: false,
    });
    expect(selectLevels(tex, clampLinear, 0.5).levels).toEqual([{ level: 0, weight: 1 }]); // ceil(1.0) - 1
    expect(selectLevels(tex, clampLinear, 0.75).levels).toEqual([{ level: 1, weight: 1 }]);
  });

  it('gathers i0j1, i1j1, i1j0, i0j0 and compares `ref OP texel` before filtering', () => {
    expect(gather(tex, clampLinear, [0.5, 0.5], 0)).toEqual([11, 12, 2, 1]);
    expect(gather(tex, clampLinear, [0.5, 0.5], 0, { offset: [1, 0] })).toEqual([12, 13, 3, 2]);
    const less = { ...clampLinear, compareOp: 1 };
    expect(gather(tex, less, [0.5, 0.5], 0, { ref: 1.5 })).toEqual([1, 1, 1, 0]);
    expect(sampleLod(tex, less, [0.5, 0.25], 0, { ref: 1.5 }).value[0]).toBe(0.5);
  });

  it('decodes sRGB through the EOTF and SNORM with -32768 as -1', () => {
    expect(srgbToLinear(1)).toBe(1);
    expect(srgbToLinear(0.04045)).toBeCloseTo(0.04045 / 12.92, 15);
    const sn = textureFromRaw('rg16_snorm', [{ width: 1, height: 1, raw: new Uint8Array([0, 0x80, 0x01, 0x80]) }]);
    expect(sn.levels[0].texels[0]).toEqual([-1, -1, 0, 1]);
  });
});

describe('expected ranges', () => {
  it('turn absolute bounds into ulps, exact where the bound is 0', () => {
    expect(ulpsFor(1, 0)).toBe(0);
    expect(ulpsFor(1, 2 ** -20)).toBe(17); // 2^-20 is 8 ulps above 1 (2^-23 a step), 16 below (2^-24), plus 1
    const r = f32Expected('out', [
      { value: [1, 2, 3, 4], bound: 0 },
      { value: [0.5, 0.5, 0.5, 0.5], bound: 2 ** -20 },
    ]);
    expect(r).toHaveLength(2);
    expect(r[1]).toMatchObject({ address: { region: 'out', offset: 16 }, compare: { kind: 'ulp', ulps: 33 } });
  });
});
