/**
 * radv/immutable_sampler.comp, WG 64: o[i] = textureLod(cs, (i / 64, 0.25), 0) through b5, a
 * combined image sampler whose sampler is immutable, so RADV bakes its S# into the code. Two
 * builds (vkcomp.c): the default sampler (magFilter LINEAR, minFilter NEAREST, mipmap LINEAR,
 * U CLAMP_TO_EDGE, V REPEAT, W MIRRORED_REPEAT, maxLod 1000), and `immutable_sampler_white`
 * (VKCOMP_SAMPLER=white: CLAMP_TO_BORDER with an opaque white border, 16x anisotropy,
 * mipLodBias 1.5, minLod 0.5, maxLod 8). The source leaves the image open: here b5 holds a
 * 16x4 RGBA8 UNORM texture with 3 levels (16x4, 8x2, 4x1).
 *
 * Default: λ = 0, so the magnification filter (bilinear) reads level 0 only; u runs past the
 * edge texel centres on both sides, where CLAMP_TO_EDGE applies. White: λ = clamp(0 + 1.5,
 * 0.5, 8) = 1.5 minifies (NEAREST) and blends levels 1 and 2 half and half; an explicit LOD
 * gives the anisotropic filter no derivatives, so it is one isotropic sample (Vulkan 1.3,
 * "Texel Anisotropic Filtering": N = 1).
 */
import { radvSpec, rng, storageBuffer, type CorpusKernel } from './common.ts';
import { bindTexture, f32Expected, randomTexture, RADV_SET } from './radv-image-common.ts';
import { sampleLod, type Sampled, type Texture, type VkSampler } from './radv-image-reference.ts';
import type { Target } from './targets.ts';

/** vkcomp.c's sampler for b5. */
export const DEFAULT_SAMPLER: VkSampler = {
  magFilter: 'linear',
  minFilter: 'nearest',
  mipmapMode: 'linear',
  addressU: 'clamp-to-edge',
  addressV: 'repeat',
  addressW: 'mirrored-repeat',
  maxLod: 1000,
  border: 'opaque-black',
};

/** vkcomp.c's sampler for b5 with VKCOMP_SAMPLER=white. */
export const WHITE_SAMPLER: VkSampler = {
  ...DEFAULT_SAMPLER,
  addressU: 'clamp-to-border',
  addressV: 'clamp-to-border',
  addressW: 'clamp-to-border',
  border: 'opaque-white',
  maxAnisotropy: 16,
  mipLodBias: 1.5,
  minLod: 0.5,
  maxLod: 8,
};

export function reference(tex: Texture, sampler: VkSampler, i: number): Sampled {
  return sampleLod(tex, sampler, [i / 64, 0.25], 0);
}

function spec(t: Target, kernel: string, sampler: VkSampler, seed: number): ReturnType<typeof radvSpec> {
  const r = rng(seed);
  const tex = randomTexture(r, 'rgba8_unorm', 16, 4, 3);
  const bound = bindTexture(t, 'cs', 0x40000000, tex, true);
  const out = Array.from({ length: 64 }, (_, i) => reference(tex, sampler, i));
  return radvSpec(t, kernel, {
    set: [
      { offset: RADV_SET.combined, descriptor: bound.descriptor },
      { offset: RADV_SET.output, descriptor: storageBuffer(t, 'out', 64 * 16) },
    ],
    group: 64,
    memory: [bound.region, { name: 'out', address: 0x30000000, data: { fill: 0xcd, size: 64 * 16 } }],
    expected: f32Expected('out', out),
  });
}

export const kernel: CorpusKernel = {
  id: 'radv/immutable_sampler',
  spec: (t) => spec(t, 'immutable_sampler', DEFAULT_SAMPLER, 0x1a5),
};

export const white: CorpusKernel = {
  id: 'radv/immutable_sampler_white',
  spec: (t) => spec(t, 'immutable_sampler_white', WHITE_SAMPLER, 0x1a6),
};
