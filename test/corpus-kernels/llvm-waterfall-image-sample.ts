/**
 * llvm/waterfall_image_sample.ll (amdgpu_ps): the T# is loaded from a descriptor table
 * (%table, s[0:1]) at index %idx (v0, a lane value), and image_sample.2d(dmask 0xf) reads it
 * at (%u, %v) = (v1, v2) with the uniform S# %samp (s[2:5]); the sample returns in v0..v3.
 * LLVM scalarises the per-lane T# with a waterfall loop. A `program` capture of one wave,
 * returning at the byte after its last instruction (from the listings: 0xb4 on gfx704, 0xc0
 * on gfx803, 0xb8 on gfx900, 0xbc on gfx1030).
 *
 * Four T#s (RGBA f16 and f32; two of the same size, which some quads mix lane by lane). The
 * S# point-samples when magnified and filters bilinearly when minified, picks the nearest
 * level (mip point) up to MAX_LOD 2, mirrors once in x and reads an opaque white border
 * outside y. The reference (image-common.ts sampleWave) samples the texel values the test
 * put in, over whole quads (the function runs in WQM through the sample).
 */
import { rng, type CorpusKernel, type Json } from './common.ts';
import {
  imageRegion,
  makeImage,
  programSpec,
  sampleWave,
  ssharp,
  tsharp,
  viewOf,
  type ImageFormatName,
  type SampledTexture,
  type SamplerModel,
} from './image-common.ts';
import type { Target } from './targets.ts';

const TABLE = 0x20000000;
const IMAGES = 0x40000000;

/** The byte after the function's last instruction, from <target>_waterfall_image_sample.dump. */
const END: Readonly<Record<Target['name'], number>> = {
  gfx704: 0xb4,
  gfx803: 0xc0,
  gfx900: 0xb8,
  gfx1030w32: 0xbc,
  gfx1030w64: 0xbc,
};

export const SAMPLER: SamplerModel = {
  clampX: 'mirror_once_last_texel',
  clampY: 'clamp_border',
  mag: 'point',
  min: 'bilinear',
  mip: 'point',
  minLod: 0,
  maxLod: 2,
  border: 'opaque_white',
};

function textures(): SampledTexture[] {
  const r = rng(0x3a7e);
  // Four channels each, so a border texel and a texel agree on what every channel is; values
  // are multiples of 1/8 in [-4, 4), exact in f16 and f32.
  const image = (f: ImageFormatName, w: number, h: number, levels: number) =>
    makeImage(f, w, h, levels, () => [0, 1, 2, 3].map(() => ((r() % 64) - 32) / 8));
  return [
    image('rgba16_float', 16, 16, 5),
    image('rgba32_float', 16, 16, 5),
    image('rgba16_float', 32, 8, 4),
    image('rgba32_float', 8, 4, 3),
  ].map((img) => ({ img, view: viewOf(img) }));
}

export const kernel: CorpusKernel = {
  id: 'llvm/waterfall_image_sample',
  spec(t: Target) {
    const tex = textures();
    const wave = sampleWave(t, rng(0x3a7f), tex, SAMPLER);
    const regions: Json[] = tex.map(({ img, view }, k) => imageRegion(t, `image${k}`, IMAGES + k * 0x10000, img, view));
    return programSpec(t, 'waterfall_image_sample', {
      end: END[t.name],
      exec: wave.exec,
      sgprs: [{ pointer: 'table' }, ssharp(SAMPLER)],
      vgprs: wave.initial,
      memory: [
        {
          name: 'table',
          address: TABLE,
          data: { descriptors: tex.map(({ view }, k) => tsharp(t, view, `image${k}`)) },
        },
        ...regions,
      ],
      expectedRegisters: {
        vgprs: { 0: wave.final[0], 1: wave.final[1], 2: wave.final[2], 3: wave.final[3] },
        exec: wave.exec,
      },
    });
  },
};
