/**
 * llvm/s_buffer_load_descriptor_then_sample.ll (amdgpu_ps): the T# is loaded from a constant
 * buffer (V# %cb, s[0:3]) at byte 32·%idx, a lane value (v0), and image_sample.2d(dmask 0xf)
 * reads it at (%u, %v) = (v1, v2) with the uniform S# %samp (s[4:7]); the sample returns
 * in v0..v3. The lane-varying offset makes LLVM load the T#s with buffer loads and waterfall
 * over them. A `program` capture of one wave, returning at the byte after its last
 * instruction (from the listings: 0x90 on gfx704, 0x94 on gfx803 / gfx900, 0x98 on gfx1030).
 *
 * The buffer holds four T#s: three sizes, formats with 1, 2 and 4 channels, one DST_SEL
 * swizzle, mip chains. The S# filters bilinearly (mag and min), picks the nearest level
 * (mip point), and wraps mirror in x, clamp-to-last-texel in y. The reference
 * (image-common.ts sampleWave) samples the texel values the test put in; the function runs in
 * whole-quad mode, so lanes off in EXEC but in a live quad return samples too.
 */
import { rng, storageBuffer, type CorpusKernel, type Json } from './common.ts';
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

const CB = 0x20000000;
const IMAGES = 0x40000000;

/** The byte after the function's last instruction, from <target>_s_buffer_load_descriptor_then_sample.dump. */
const END: Readonly<Record<Target['name'], number>> = {
  gfx704: 0x90,
  gfx803: 0x94,
  gfx900: 0x94,
  gfx1030w32: 0x98,
  gfx1030w64: 0x98,
};

export const SAMPLER: SamplerModel = {
  clampX: 'mirror',
  clampY: 'clamp_last_texel',
  mag: 'bilinear',
  min: 'bilinear',
  mip: 'point',
  minLod: 0,
  maxLod: 15,
  border: 'transparent_black',
};

function textures(): SampledTexture[] {
  const r = rng(0x5b1d);
  // Channel values: multiples of 1/8 in [-4, 4), exact in f16 and f32.
  const image = (f: ImageFormatName, w: number, h: number, levels: number, channels: number) =>
    makeImage(f, w, h, levels, () => Array.from({ length: channels }, () => ((r() % 64) - 32) / 8));
  const a = image('rgba16_float', 16, 16, 5, 4);
  const b = image('r32_float', 16, 16, 5, 1);
  const c = image('rgba32_float', 8, 32, 4, 4);
  const d = image('rg16_float', 32, 8, 3, 2);
  return [
    { img: a, view: viewOf(a) },
    { img: b, view: viewOf(b) },
    { img: c, view: viewOf(c, { dstSel: ['z', 'x', '1', 'y'] }) },
    { img: d, view: viewOf(d) },
  ];
}

export const kernel: CorpusKernel = {
  id: 'llvm/s_buffer_load_descriptor_then_sample',
  spec(t: Target) {
    const tex = textures();
    const wave = sampleWave(t, rng(0x5b1e), tex, SAMPLER);
    const regions: Json[] = tex.map(({ img, view }, k) => imageRegion(t, `image${k}`, IMAGES + k * 0x10000, img, view));
    return programSpec(t, 's_buffer_load_descriptor_then_sample', {
      end: END[t.name],
      exec: wave.exec,
      sgprs: [storageBuffer(t, 'cb', tex.length * 32), ssharp(SAMPLER)],
      vgprs: wave.initial,
      memory: [
        { name: 'cb', address: CB, data: { descriptors: tex.map(({ view }, k) => tsharp(t, view, `image${k}`)) } },
        ...regions,
      ],
      expectedRegisters: {
        vgprs: { 0: wave.final[0], 1: wave.final[1], 2: wave.final[2], 3: wave.final[3] },
        exec: wave.exec,
      },
    });
  },
};
