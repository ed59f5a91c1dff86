/**
 * radv/image_formats_sample.comp, WG 64 (the contract in the source's header): tex[0..4] (b0)
 * = RGBA8 UNORM, RGBA16 SFLOAT, R32 SFLOAT, RG16 SNORM, RGBA8 SRGB, each 8x8 with 2 levels;
 * samp[0..2] (b7) = REPEAT, MIRRORED_REPEAT, CLAMP_TO_EDGE, all LINEAR with mipmap NEAREST.
 * Output b2: 11 vec4 a lane: explicit LOD 0 and 1, a const offset, a gradient (λ = 1), two
 * texel fetches and a per-lane LOD. uv leaves [0, 1] on some lanes to exercise the wraps.
 */
import { radvSpec, rng, storageBuffer, type CorpusKernel } from './common.ts';
import { bindTexture, f32Expected, radvSampler, randomTexture, RADV_SET } from './radv-image-common.ts';
import {
  sampleGrad,
  sampleLod,
  texelFetch,
  type AddressMode,
  type Sampled,
  type TexelFormat,
  type Texture,
  type VkSampler,
} from './radv-image-reference.ts';

const FORMATS: readonly TexelFormat[] = ['rgba8_unorm', 'rgba16_float', 'r32_float', 'rg16_snorm', 'rgba8_srgb'];
const linear = (mode: AddressMode): VkSampler => ({
  magFilter: 'linear',
  minFilter: 'linear',
  mipmapMode: 'nearest',
  addressU: mode,
  addressV: mode,
  addressW: mode,
  minLod: 0,
  maxLod: 1000,
});
const SAMPLERS: readonly VkSampler[] = [linear('repeat'), linear('mirrored-repeat'), linear('clamp-to-edge')];

/** The 11 vec4 results of invocation i. */
export function reference(tex: readonly Texture[], i: number): Sampled[] {
  const uv: [number, number] = [i * 0.0625 - 1.484375, (i & 7) * 0.3125 - 0.53125];
  const [s0, s1, s2] = SAMPLERS;
  const fetch = (t: Texture, x: number, y: number, level: number): Sampled => ({
    value: texelFetch(t, x, y, level),
    bound: 0,
  });
  return [
    sampleLod(tex[0], s0, uv, 0),
    sampleLod(tex[1], s1, uv, 0),
    sampleLod(tex[2], s2, uv, 0),
    sampleLod(tex[3], s0, uv, 0),
    sampleLod(tex[4], s1, uv, 0),
    sampleLod(tex[0], s2, uv, 1),
    sampleLod(tex[1], s0, uv, 0, { offset: [1, -2] }),
    sampleGrad(tex[2], s1, uv, [0.25, 0], [0, 0.25]),
    fetch(tex[3], i & 7, i >> 3, 0),
    fetch(tex[0], i & 3, (i >> 3) & 3, 1),
    sampleLod(tex[4], s2, uv, i & 1),
  ];
}

export const kernel: CorpusKernel = {
  id: 'radv/image_formats_sample',
  spec(t) {
    const r = rng(0x1f5a);
    const tex = FORMATS.map((f) => randomTexture(r, f, 8, 8, 2));
    // Every other texture tiled, so both layouts are read.
    const bound = tex.map((x, k) => bindTexture(t, `tex${k}`, 0x40000000 + 0x10000 * k, x, k % 2 === 0));
    const out = Array.from({ length: 64 }, (_, i) => reference(tex, i)).flat();
    return radvSpec(t, 'image_formats_sample', {
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
