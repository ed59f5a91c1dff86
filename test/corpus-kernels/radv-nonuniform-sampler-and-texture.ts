/**
 * radv/nonuniform_sampler_and_texture.comp, WG 64 (the contract in the source's header):
 * sampler2D(tex[nonuniformEXT(i & 3)], samp[nonuniformEXT((i >> 2) & 1)]) with textures from
 * b0 and samplers from b7, so ACO waterfalls over both indices. o[i] at LOD 0, o[64 + i] at
 * LOD i & 1. The source leaves the textures and samplers open; here they differ in format,
 * size, levels, layout, filter and wrap so each lane's pair is told apart:
 * tex[0] RGBA8 UNORM 16x4 (3 levels), tex[1] RGBA16 SFLOAT 8x8 (2), tex[2] R32 SFLOAT 4x4 (2),
 * tex[3] RGBA8 SRGB 16x16 (3); samp[0] NEAREST, mipmap NEAREST, REPEAT; samp[1] LINEAR,
 * mipmap LINEAR, MIRRORED_REPEAT. (LOD 1 falls on odd lanes, which index tex[1] and tex[3].)
 */
import { radvSpec, rng, storageBuffer, type CorpusKernel } from './common.ts';
import { bindTexture, f32Expected, radvSampler, randomTexture, RADV_SET } from './radv-image-common.ts';
import { sampleLod, type Sampled, type Texture, type VkSampler } from './radv-image-reference.ts';

export const SAMPLERS: readonly VkSampler[] = [
  { magFilter: 'nearest', minFilter: 'nearest', mipmapMode: 'nearest', addressU: 'repeat', addressV: 'repeat' },
  {
    magFilter: 'linear',
    minFilter: 'linear',
    mipmapMode: 'linear',
    addressU: 'mirrored-repeat',
    addressV: 'mirrored-repeat',
  },
];

/** o[i] and o[64 + i]. */
export function reference(tex: readonly Texture[], i: number): [Sampled, Sampled] {
  const t = tex[i & 3];
  const s = SAMPLERS[(i >> 2) & 1];
  const uv: [number, number] = [(i & 15) * 0.0625 + 0.03125, (i >> 4) * 0.25 + 0.125];
  return [sampleLod(t, s, uv, 0), sampleLod(t, s, uv, i & 1)];
}

export const kernel: CorpusKernel = {
  id: 'radv/nonuniform_sampler_and_texture',
  spec(t) {
    const r = rng(0x9a17);
    const tex = [
      randomTexture(r, 'rgba8_unorm', 16, 4, 3),
      randomTexture(r, 'rgba16_float', 8, 8, 2),
      randomTexture(r, 'r32_float', 4, 4, 2),
      randomTexture(r, 'rgba8_srgb', 16, 16, 3),
    ];
    const bound = tex.map((x, k) => bindTexture(t, `tex${k}`, 0x40000000 + 0x10000 * k, x, k % 2 === 0));
    const results = Array.from({ length: 64 }, (_, i) => reference(tex, i));
    const out = [...results.map((x) => x[0]), ...results.map((x) => x[1])];
    return radvSpec(t, 'nonuniform_sampler_and_texture', {
      set: [
        ...bound.map((b, k) => ({ offset: RADV_SET.texture(k), descriptor: b.descriptor })),
        ...SAMPLERS.map((s, k) => ({ offset: RADV_SET.samplers(k), descriptor: radvSampler(t, s) })),
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
