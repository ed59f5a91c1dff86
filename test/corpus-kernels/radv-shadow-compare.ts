/**
 * radv/shadow_compare.comp, WG 64 (the contract in the source's header): depth-compare
 * sampling of tex[0] (b0, D32_SFLOAT 8x8 with 2 levels) through s[k]: k = 0..7 compareOp k
 * with NEAREST filtering, 8..15 compareOp k - 8 with LINEAR; all mipmap NEAREST,
 * CLAMP_TO_EDGE. Two builds: `shadow_compare` reads the samplers from b7 (written here as
 * RADV writes them), `shadow_compare_immutable` (-DIMMUTABLE) from b8, vkcomp_additions.c's
 * immutable samplers of the same description, baked into the code. Output b2: 24 floats a
 * lane: the 16 samplers at LOD 0, a gather with compare (LESS, LINEAR), a const offset, LOD 1,
 * textureProjLod, and a per-lane LOD.
 *
 * Depths are multiples of 1/128 and the references odd multiples; texel i of level 0 is lane
 * i's NEAREST texel, and every third one is set to that lane's reference, so EQUAL and
 * NOT_EQUAL meet both outcomes. The LINEAR results average four compares with weights on a
 * 1/16 grid.
 */
import { radvSpec, rng, storageBuffer, type CorpusKernel } from './common.ts';
import { bindTexture, f32Expected, radvSampler, randomTexture, RADV_SET } from './radv-image-common.ts';
import {
  gather,
  sampleLod,
  textureFromRaw,
  type Sampled,
  type Texture,
  type VkSampler,
} from './radv-image-reference.ts';
import type { Target } from './targets.ts';

/** s[k] of the contract (vkcomp_additions.c's b8). */
export function compareSampler(k: number): VkSampler {
  const filter = k < 8 ? 'nearest' : 'linear';
  return {
    magFilter: filter,
    minFilter: filter,
    mipmapMode: 'nearest',
    addressU: 'clamp-to-edge',
    addressV: 'clamp-to-edge',
    addressW: 'clamp-to-edge',
    compareOp: k & 7,
    minLod: 0,
    maxLod: 1000,
    border: 'opaque-black',
  };
}

/** The 24 results of invocation i. */
export function reference(tex: Texture, i: number): Sampled[] {
  const uv: [number, number] = [(i & 7) * 0.125 + 0.03125, (i >> 3) * 0.125 + 0.09375];
  const ref = (2 * i + 1) / 128;
  const s = (k: number) => compareSampler(k);
  const one = (r: Sampled): Sampled => ({ value: [r.value[0]], bound: r.bound });
  // textureProjLod divides (2uv, 2ref) by q = 2 ("Projection Operation"): exactly uv, ref.
  const proj: [number, number] = [(2 * uv[0]) / 2, (2 * uv[1]) / 2];
  return [
    ...Array.from({ length: 16 }, (_, k) => one(sampleLod(tex, s(k), uv, 0, { ref }))),
    ...gather(tex, s(9), uv, 0, { ref }).map((v) => ({ value: [v], bound: 0 })),
    one(sampleLod(tex, s(11), uv, 0, { ref, offset: [-1, 1] })),
    one(sampleLod(tex, s(4), uv, 1, { ref })),
    one(sampleLod(tex, s(14), proj, 0, { ref: (2 * ref) / 2 })),
    one(sampleLod(tex, s(7), uv, i & 1, { ref })),
  ];
}

/** The seeded D32 texture, with texel i of level 0 equal to lane i's reference for every third i. */
export function depthTexture(r: () => number): Texture {
  const [l0, l1] = randomTexture(r, 'd32_float', 8, 8, 2).levels;
  const raw = new Uint8Array(l0.raw);
  const dv = new DataView(raw.buffer);
  for (let i = 0; i < 64; i += 3) dv.setFloat32(4 * i, (2 * i + 1) / 128, true);
  return textureFromRaw('d32_float', [{ ...l0, raw }, l1]);
}

function spec(t: Target, kernel: string, immutable: boolean): ReturnType<typeof radvSpec> {
  const r = rng(0x5ad0);
  const tex = depthTexture(r);
  const bound = bindTexture(t, 'depth', 0x40000000, tex, true);
  const out = Array.from({ length: 64 }, (_, i) => reference(tex, i)).flat();
  const samplers = immutable
    ? []
    : Array.from({ length: 16 }, (_, k) => ({
        offset: RADV_SET.samplers(k),
        descriptor: radvSampler(t, compareSampler(k)),
      }));
  return radvSpec(t, kernel, {
    set: [
      { offset: RADV_SET.texture(0), descriptor: bound.descriptor },
      ...samplers,
      { offset: RADV_SET.output, descriptor: storageBuffer(t, 'out', out.length * 4) },
    ],
    group: 64,
    memory: [bound.region, { name: 'out', address: 0x30000000, data: { fill: 0xcd, size: out.length * 4 } }],
    expected: f32Expected('out', out, 1),
  });
}

export const kernel: CorpusKernel = {
  id: 'radv/shadow_compare',
  spec: (t) => spec(t, 'shadow_compare', false),
};

export const immutable: CorpusKernel = {
  id: 'radv/shadow_compare_immutable',
  spec: (t) => spec(t, 'shadow_compare_immutable', true),
};
