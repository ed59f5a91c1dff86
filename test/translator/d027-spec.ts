/**
 * The captures of D027's tests (d027.gpu.test.ts, d027-resource-table.gpu.test.ts): the corpus's
 * radv/nonuniform_sampler_and_texture kernel on gfx1030 wave32, whose lanes select a texture
 * (i & 3) and a sampler ((i >> 2) & 1) from tables through ACO's waterfall, built with samplers
 * of its own; its expectation is the Vulkan reference's values (radv-image-reference.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCapture, readCapture, writeCapture, type Capture } from '../../src/host/capture/index.ts';
import { radvSpec, rng, storageBuffer, type Json, type Spec } from '../corpus-kernels/common.ts';
import { bindTexture, f32Expected, radvSampler, randomTexture, RADV_SET } from '../corpus-kernels/radv-image-common.ts';
import { sampleLod, type VkSampler } from '../corpus-kernels/radv-image-reference.ts';
import { TARGETS } from '../corpus-kernels/targets.ts';

const CODE = join(import.meta.dirname, '..', 'corpus-kernels', 'code');
export const TARGET = TARGETS.find((t) => t.name === 'gfx1030w32')!;

/**
 * Lane i samples with record (i >> 2) & 1: bilinear and clamp-to-edge, or point and repeat. The
 * kernel's u of lanes 0-3 falls between a 4- or 8-wide texture's edge texel and the one off the
 * edge, so the two records differ in wrap as well as filter.
 */
export const SAMPLERS: readonly VkSampler[] = [
  {
    magFilter: 'linear',
    minFilter: 'linear',
    mipmapMode: 'linear',
    addressU: 'clamp-to-edge',
    addressV: 'clamp-to-edge',
  },
  { magFilter: 'nearest', minFilter: 'nearest', mipmapMode: 'nearest', addressU: 'repeat', addressV: 'repeat' },
];

/** The kernel's spec with these samplers (`descriptors` overrides a record's words); expected: the reference's. */
export function spec(descriptors: readonly (Json | undefined)[] = []): Spec {
  const t = TARGET;
  const r = rng(0x9a17);
  const tex = [
    randomTexture(r, 'rgba8_unorm', 16, 4, 3),
    randomTexture(r, 'rgba16_float', 8, 8, 2),
    randomTexture(r, 'r32_float', 4, 4, 2),
    randomTexture(r, 'rgba8_srgb', 16, 16, 3),
  ];
  const bound = tex.map((x, k) => bindTexture(t, `tex${k}`, 0x40000000 + 0x10000 * k, x, k % 2 === 0));
  const results = Array.from({ length: 64 }, (_, i) => {
    const s = SAMPLERS[(i >> 2) & 1]!;
    // The kernel's coordinates (the corpus kernel's contract).
    const uv: [number, number] = [(i & 15) * 0.0625 + 0.03125, (i >> 4) * 0.25 + 0.125];
    return [sampleLod(tex[i & 3]!, s, uv, 0), sampleLod(tex[i & 3]!, s, uv, i & 1)] as const;
  });
  const out = [...results.map((x) => x[0]), ...results.map((x) => x[1])];
  return radvSpec(t, 'nonuniform_sampler_and_texture', {
    set: [
      ...bound.map((b, k) => ({ offset: RADV_SET.texture(k), descriptor: b.descriptor })),
      ...SAMPLERS.map((s, k) => ({ offset: RADV_SET.samplers(k), descriptor: descriptors[k] ?? radvSampler(t, s) })),
      { offset: RADV_SET.output, descriptor: storageBuffer(t, 'out', out.length * 16) },
    ],
    group: 64,
    memory: [
      ...bound.map((b) => b.region),
      { name: 'out', address: 0x30000000, data: { fill: 0xcd, size: out.length * 16 } },
    ],
    expected: f32Expected('out', out),
  });
}

/** The spec built into a capture's manifest and blobs. */
export function builtOf(s: Spec): ReturnType<typeof buildCapture> {
  return buildCapture(s, { readFile: (p: string) => readFileSync(join(CODE, p)) });
}

/** The spec's capture, written and read back as the corpus's tests do. */
export async function captureOf(s: Spec): Promise<Capture> {
  const built = await builtOf(s);
  return readCapture(await writeCapture(built.manifest, built.blobs));
}
