/**
 * radv/gather4_and_resinfo.comp, WG 64 (the contract in the source's header): textureGather of
 * each component of tex[0] (b0, RGBA8 UNORM 8x8, 4 levels) through samp (b1, CLAMP_TO_EDGE),
 * a gather with a const offset and one with four offsets, textureSize at level 0, at a
 * per-lane level and at level 2, textureQueryLevels, and imageSize of img[0] (b4, a 13x5
 * RGBA8 storage image). Output b2: 32 words a lane, gathers as f32 bits.
 */
import { radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import { bindTexture, radvSampler, randomTexture, RADV_SET } from './radv-image-common.ts';
import { f32Bits, gather, type Texture, type VkSampler } from './radv-image-reference.ts';

/** The filter does not matter to a gather; NEAREST makes RADV set TRUNC_COORD, which the code clears for gathers. */
const SAMPLER: VkSampler = {
  magFilter: 'nearest',
  minFilter: 'nearest',
  mipmapMode: 'nearest',
  addressU: 'clamp-to-edge',
  addressV: 'clamp-to-edge',
};
const STORAGE = { width: 13, height: 5 };
const OFFSETS: readonly (readonly [number, number])[] = [
  [0, 0],
  [1, 0],
  [0, 1],
  [-1, -1],
];

/** The 32 output words of invocation i. */
export function reference(tex: Texture, i: number): number[] {
  const uv: [number, number] = [(i & 7) * 0.125 + 0.09375, (i >> 3) * 0.125 + 0.03125];
  const bits = (v: readonly number[]) => v.map(f32Bits);
  const size = (level: number) => Math.max(1, 8 >> level);
  return [
    ...[0, 1, 2, 3].flatMap((c) => bits(gather(tex, SAMPLER, uv, c))),
    ...bits(gather(tex, SAMPLER, uv, 1, { offset: [1, -1] })),
    // textureGatherOffsets: component j is texel i0j0 (the gather's last) of the footprint at offsets[j].
    ...bits(OFFSETS.map((offset) => gather(tex, SAMPLER, uv, 2, { offset })[3])),
    size(0),
    size(0),
    size(i & 3),
    size(i & 3),
    tex.levels.length,
    STORAGE.width,
    STORAGE.height,
    size(2),
  ];
}

export const kernel: CorpusKernel = {
  id: 'radv/gather4_and_resinfo',
  spec(t) {
    const r = rng(0x6a74);
    const tex = randomTexture(r, 'rgba8_unorm', 8, 8, 4);
    const bound = bindTexture(t, 'tex0', 0x40000000, tex, true);
    const storage = bindTexture(
      t,
      'img0',
      0x40100000,
      randomTexture(r, 'rgba8_unorm', STORAGE.width, STORAGE.height, 1),
    );
    const out = Array.from({ length: 64 }, (_, i) => reference(tex, i)).flat();
    return radvSpec(t, 'gather4_and_resinfo', {
      set: [
        { offset: RADV_SET.texture(0), descriptor: bound.descriptor },
        { offset: RADV_SET.sampler, descriptor: radvSampler(t, SAMPLER) },
        { offset: RADV_SET.output, descriptor: storageBuffer(t, 'out', out.length * 4) },
        { offset: RADV_SET.storageImage(0), descriptor: storage.descriptor },
      ],
      group: 64,
      memory: [
        bound.region,
        storage.region,
        { name: 'out', address: 0x30000000, data: { fill: 0xcd, size: out.length * 4 } },
      ],
      expected: [{ address: 'out', data: u32(out) }],
    });
  },
};
