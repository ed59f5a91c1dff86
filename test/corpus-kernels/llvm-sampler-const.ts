/**
 * llvm/sampler_const.ll: two amdgpu_ps functions, `main` at 0 and `main2` at 0x100 (the
 * code between them is padding), each image_sample.2d(dmask 0xf) of a uniform T# (s[0:7]) at
 * (u, v) = (v0, v1) with an S# the code builds from constants, returning the sample in
 * v0..v3. Each is a `program` capture of one wave that returns at the byte after its last
 * instruction (s_waitcnt; the listings' offsets 0x2c and 0x12c on every target).
 *
 * main's S# <4096, 268374016, 0x80000000, 0>, read with DESCRIPTORS.md §3: CLAMP_X/Y wrap,
 * XY_MAG/MIN_FILTER point, MIP_FILTER none (the view's base level only), MIN_LOD 0, MAX_LOD
 * 0xff1/256, border transparent black (DEPTH_COMPARE_FUNC 1 is not used by image_sample). The
 * reference point-samples the texel values the test put in, wrapped, at the view's base
 * level (the T# starts at level 1 of two, with a DST_SEL swizzle). EXEC is partial: the
 * function's WQM is undone before the sample, so inactive lanes keep v0..v3 as they were.
 *
 * main2's S# <-1, 16773120, 0x70000000, -32768> sets every bit of dword 0, MAX_LOD 0xfff,
 * MIP_POINT_PRECLAMP and the dw2 bits above it, and BORDER_COLOR_TYPE 3 (register) with the
 * dw3 bits above bit 14. It holds reserved values (MAX_ANISO_RATIO 7, FILTER_MODE 3), but an
 * image_sample with it is still defined (D009, "reserved only where consulted"), read field by
 * field from DESCRIPTORS.md §3 in `main2Sampling`: FORCE_UNNORMALIZED with XY_MAG/MIN_FILTER
 * point and MIP_FILTER none is a point sample of the view's base level at texel coordinates, so
 * the aniso ratio, bias and threshold are never consulted and any reduction of the one texel
 * is that texel; CLAMP 7 (MIRROR_ONCE_BORDER) reads texel floor(|u|) while |u| < the width,
 * the border beyond it, so the coordinates stay inside (-w, w) and the register border colour
 * is never read. FORCE_DEGAMMA (with gfx10's SKIP_DEGAMMA, dw0[31], also set: no public
 * document says which wins) leaves +0 and 1 unchanged under any sRGB curve, so every texel
 * component is +0 or 1 and the result is the same whether degamma applies or not.
 * DEPTH_COMPARE_FUNC is not used by image_sample, Z and cube settings not by a 2D image.
 */
import { rng, type CorpusKernel } from './common.ts';
import {
  f32Bits,
  imageRegion,
  makeImage,
  programSpec,
  sample2d,
  tsharp,
  viewOf,
  type ClampName,
  type SamplerModel,
} from './image-common.ts';
import type { Target } from './targets.ts';

const IMAGE = 0x40000000;

/** main's S# words, from the .ll source. */
const MAIN_SSHARP = [4096, 268374016, 0x80000000, 0] as const;

/** The fields of an S# this reference needs, read from its words (DESCRIPTORS.md §3). */
function samplerOfWords(w: readonly number[]): SamplerModel {
  const bits = (dw: number, at: number, n: number) => (w[dw] >>> at) & ((1 << n) - 1);
  const clamps: ClampName[] = ['wrap', 'mirror', 'clamp_last_texel', 'mirror_once_last_texel'];
  const clamp = (v: number): ClampName => {
    if (v >= clamps.length) throw new Error(`CLAMP ${v} is not in this model`);
    return clamps[v];
  };
  const xy = (v: number) => {
    if (v > 1) throw new Error(`XY filter ${v} (anisotropic) is not in this model`);
    return v === 0 ? 'point' : 'bilinear';
  };
  const mip = bits(2, 26, 2);
  if (mip > 1) throw new Error(`MIP_FILTER ${mip} is not in this model`);
  if (bits(0, 9, 3) !== 0 || bits(0, 15, 1) !== 0 || bits(0, 20, 1) !== 0 || bits(0, 29, 2) !== 0)
    throw new Error('anisotropy, unnormalized coordinates, degamma or a reduction filter: not in this model');
  if (bits(2, 0, 14) !== 0) throw new Error('a LOD bias is not in this model');
  return {
    clampX: clamp(bits(0, 0, 3)),
    clampY: clamp(bits(0, 3, 3)),
    mag: xy(bits(2, 20, 2)),
    min: xy(bits(2, 22, 2)),
    mip: mip === 0 ? 'none' : 'point',
    minLod: bits(1, 0, 12) / 256,
    maxLod: bits(1, 12, 12) / 256,
    border: 'transparent_black',
  };
}

function inputs(t: Target) {
  const r = rng(0x5ac0);
  // rgba16_float 16x8, two levels; the view starts at level 1 (8x4). Values are multiples of 1/8.
  const img = makeImage('rgba16_float', 16, 8, 2, () => [0, 1, 2, 3].map(() => ((r() % 64) - 32) / 8));
  const view = viewOf(img, { baseLevel: 1, dstSel: ['y', 'x', 'w', '1'] });
  // Points a quarter texel inside texels of level 1 (8x4), from two wraps to the left to two to the right.
  const coord = (n: number) => (Math.floor((r() % (5 * n)) - 2 * n) + (r() & 1 ? 0.25 : 0.75)) / n;
  const u = Array.from({ length: t.waveSize }, () => coord(8));
  const v = Array.from({ length: t.waveSize }, () => coord(4));
  const v2 = Array.from({ length: t.waveSize }, () => r());
  const v3 = Array.from({ length: t.waveSize }, () => r());
  // Every lane on in the first quad, none in the second, one in the third; the rest at random.
  let exec = 0n;
  for (let lane = 0; lane < t.waveSize; lane++) {
    const on = lane < 4 ? true : lane < 8 ? false : lane < 12 ? lane === 9 : (r() & 1) === 1;
    if (on) exec |= 1n << BigInt(lane);
  }
  return { img, view, u, v, v2, v3, exec };
}

export const main: CorpusKernel = {
  id: 'llvm/sampler_const',
  spec(t: Target) {
    const { img, view, u, v, v2, v3, exec } = inputs(t);
    const s = samplerOfWords(MAIN_SSHARP);
    const initial = [u.map(f32Bits), v.map(f32Bits), v2, v3];
    const out = initial.map((lanes) => [...lanes]);
    for (let lane = 0; lane < t.waveSize; lane++) {
      if (((exec >> BigInt(lane)) & 1n) === 0n) continue;
      // MIP_FILTER none: the LOD only picks mag or min, both point here; 0 stands for it.
      sample2d(img, view, s, u[lane], v[lane], 0).forEach((x, c) => (out[c][lane] = f32Bits(x)));
    }
    return programSpec(t, 'sampler_const', {
      entry: 0,
      end: 0x2c,
      exec,
      sgprs: [tsharp(t, view, 'image')],
      vgprs: initial,
      memory: [imageRegion(t, 'image', IMAGE, img, view)],
      expectedRegisters: { vgprs: { 0: out[0], 1: out[1], 2: out[2], 3: out[3] }, exec },
    });
  },
};

/** main2's S# words, from the .ll source: <i32 -1, i32 16773120, i32 1879048192, i32 -32768>. */
const MAIN2_SSHARP = [0xffffffff, 16773120, 1879048192, 0xffff8000] as const;

/**
 * What main2's S# means for an image_sample of a 2D image (DESCRIPTORS.md §3), asserted field
 * by field so that a change of the words cannot pass unnoticed: the X / Y clamp, and whether
 * FORCE_DEGAMMA is set.
 */
function main2Sampling(w: readonly number[]): { clamp: 'mirror_once_border'; degamma: boolean } {
  const bits = (dw: number, at: number, n: number) => (w[dw] >>> at) & ((1 << n) - 1);
  const need = (what: string, ok: boolean) => {
    if (!ok) throw new Error(`main2's S#: ${what} is not in this model`);
  };
  need('CLAMP_X / CLAMP_Y other than 7 (MIRROR_ONCE_BORDER)', bits(0, 0, 3) === 7 && bits(0, 3, 3) === 7);
  need('normalized coordinates (FORCE_UNNORMALIZED 0)', bits(0, 15, 1) === 1);
  need('an XY filter other than point', bits(2, 20, 2) === 0 && bits(2, 22, 2) === 0);
  need('a MIP_FILTER other than none', bits(2, 26, 2) === 0);
  need('a LOD bias', bits(2, 0, 14) === 0 && bits(2, 14, 6) === 0);
  return { clamp: 'mirror_once_border', degamma: bits(0, 20, 1) === 1 };
}

/**
 * MIRROR_ONCE_BORDER on a texel coordinate: mirrored once about 0, then the texel it falls in,
 * or the border (null) at or past the edge.
 */
function mirrorOnceTexel(u: number, n: number): number | null {
  const i = Math.floor(Math.abs(u));
  return i < n ? i : null;
}

export const main2: CorpusKernel = {
  id: 'llvm/sampler_const:main2',
  spec(t: Target) {
    const r = rng(0x5ac2);
    const s = main2Sampling(MAIN2_SSHARP);
    // rgba16_float 16x8, two levels; the view starts at level 1 (8x4). Every component +0 or 1 (see above).
    const img = makeImage('rgba16_float', 16, 8, 2, () => [0, 1, 2, 3].map(() => r() & 1));
    const view = viewOf(img, { baseLevel: 1, dstSel: ['y', 'x', 'w', '1'] });
    const [w, h] = [8, 4];
    // Texel coordinates a quarter texel inside a texel, in (-n, n): both sides of the mirror.
    const coord = (n: number) => (r() % (2 * n)) - n + (r() & 1 ? 0.25 : 0.75);
    const u = Array.from({ length: t.waveSize }, () => coord(w));
    const v = Array.from({ length: t.waveSize }, () => coord(h));
    const words = () => Array.from({ length: t.waveSize }, () => r());
    const initial = [u.map(f32Bits), v.map(f32Bits), words(), words()];
    let exec = 0n;
    for (let lane = 0; lane < t.waveSize; lane++) if (lane < 4 || (lane >= 8 && r() & 1)) exec |= 1n << BigInt(lane);
    const out = initial.map((lanes) => [...lanes]);
    for (let lane = 0; lane < t.waveSize; lane++) {
      if (((exec >> BigInt(lane)) & 1n) === 0n) continue;
      const x = mirrorOnceTexel(u[lane], w);
      const y = mirrorOnceTexel(v[lane], h);
      if (x === null || y === null) throw new Error('main2 reads the register border colour: not in this model');
      const texel = img.levels[1][y * w + x];
      if (s.degamma && texel.some((c) => c !== 0 && c !== 1)) throw new Error('degamma of a value other than 0 or 1');
      // DST_SEL y, x, w, 1 of the RGBA texel.
      const rgba = [texel[1], texel[0], texel[3], 1];
      rgba.forEach((c, k) => (out[k][lane] = f32Bits(c)));
    }
    return programSpec(t, 'sampler_const', {
      entry: 0x100,
      end: 0x12c,
      exec,
      sgprs: [tsharp(t, view, 'image')],
      vgprs: initial,
      memory: [imageRegion(t, 'image', IMAGE, img, view)],
      expectedRegisters: { vgprs: { 0: out[0], 1: out[1], 2: out[2], 3: out[3] }, exec },
    });
  },
};
