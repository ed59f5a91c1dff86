/**
 * radv/nonuniform_texture_sample.comp, WG 64: o[i] = textureLod(sampler2D(tex[nonuniformEXT(
 * i & 15)], samp), (i / 64, 0.5), 0), the textures from b0 (all 16) and one sampler from b1,
 * so ACO waterfalls over the texture index. The source leaves the textures and the sampler
 * open; here texture k has format k mod 5 of five, sizes from 4x1 to 32x8, one or two levels,
 * linear or tiled, and the sampler is LINEAR with mipmap NEAREST, U MIRRORED_REPEAT (u = 0
 * mirrors the footprint's left texel), V REPEAT.
 */
import { radvSpec, rng, storageBuffer, type CorpusKernel } from './common.ts';
import { bindTexture, f32Expected, radvSampler, randomTexture, RADV_SET } from './radv-image-common.ts';
import { sampleLod, type Sampled, type TexelFormat, type Texture, type VkSampler } from './radv-image-reference.ts';

const SAMPLER: VkSampler = {
  magFilter: 'linear',
  minFilter: 'linear',
  mipmapMode: 'nearest',
  addressU: 'mirrored-repeat',
  addressV: 'repeat',
};
const FORMATS: readonly TexelFormat[] = ['rgba8_unorm', 'rgba16_float', 'r32_float', 'rg16_snorm', 'rgba8_srgb'];

export function reference(tex: readonly Texture[], i: number): Sampled {
  return sampleLod(tex[i & 15], SAMPLER, [i / 64, 0.5], 0);
}

export const kernel: CorpusKernel = {
  id: 'radv/nonuniform_texture_sample',
  spec(t) {
    const r = rng(0x7e16);
    const tex = Array.from({ length: 16 }, (_, k) =>
      randomTexture(r, FORMATS[k % 5], [8, 16, 4, 32][k % 4], [4, 2, 8, 1][(k >> 2) % 4], 1 + (k & 1)),
    );
    const bound = tex.map((x, k) => bindTexture(t, `tex${k}`, 0x40000000 + 0x10000 * k, x, k % 2 === 0));
    const out = Array.from({ length: 64 }, (_, i) => reference(tex, i));
    return radvSpec(t, 'nonuniform_texture_sample', {
      set: [
        ...bound.map((b, k) => ({ offset: RADV_SET.texture(k), descriptor: b.descriptor })),
        { offset: RADV_SET.sampler, descriptor: radvSampler(t, SAMPLER) },
        { offset: RADV_SET.output, descriptor: storageBuffer(t, 'out', out.length * 16) },
      ],
      group: 64,
      memory: [
        ...bound.map((b) => b.region),
        { name: 'out', address: 0x30000000, data: { fill: 0xcd, size: out.length * 16 } },
      ],
      expected: f32Expected('out', out),
    });
  },
};
