/**
 * The image cases of test/translator/images.gpu.test.ts (D015): loads, point and bilinear
 * samples, each of the eight clamp modes, gather4 by component, resinfo, an explicit LOD across a
 * mip chain, depth compares by all eight functions, point and filtered, implicit LODs from the
 * quad (D024: a LOD of its own in each quad, with _b, with lanes off in EXEC), and FORCE_DEGAMMA
 * of texels made of +0 and 1; `IMAGE_FAULT_CASES` are those the interpreter refuses and the
 * module must fault on by name.
 */
import { LANES, type ImageCase } from './images-spec.ts';

const lanes = <T>(f: (lane: number) => T): T[] => Array.from({ length: LANES }, (_, l) => f(l));

const RGBA8_4X4 = { format: 'rgba8_unorm', width: 4, height: 4, pattern: 'gradient', row_align: 64 };
const RGBA8_T = { format: 56, width_lo: 3, width_hi: 0, height: 3 };
const R32F_4X4 = { format: 'r32_float', width: 4, height: 4, pattern: 'gradient', row_align: 64 };
const R32F_T = { format: 22, width_lo: 3, width_hi: 0, height: 3 };

const POINT = { clamp_x: 2, clamp_y: 2, clamp_z: 2, xy_mag_filter: 0, xy_min_filter: 0, mip_filter: 0 };
const BILINEAR = { ...POINT, xy_mag_filter: 1, xy_min_filter: 1 };

/** Texel centres of a 4x4 image, lane = y * 4 + x. */
const centres = lanes((l) => [((l & 3) + 0.5) / 4, ((l >> 2) + 0.5) / 4]);
/** Coordinates between texels and past the edges: every footprint straddles texels, borders and wraps. */
const straddling = lanes((l) => [-1.35 + l * 0.23, 1.6 - l * 0.17]);

const CLAMP_NAMES = [
  'wrap',
  'mirror',
  'clamp_last_texel',
  'mirror_once_last_texel',
  'clamp_half_border',
  'mirror_once_half_border',
  'clamp_border',
  'mirror_once_border',
];
const COMPARE_NAMES = ['never', 'less', 'equal', 'less-equal', 'greater', 'not-equal', 'greater-equal', 'always'];
/** References: the gradient's own values (0, 1/3, 2/3, 1: `equal` hits), between them, and outside [0, 1]. */
const REFS = [0, 1 / 3, 2 / 3, 1, 0.5, 0.2, -0.5, 1.5];

/**
 * Coordinates whose quads (lanes 4k..4k+3: +1 a step in x, +2 a step in y) each have their own
 * derivatives: d/dx = (du, b) and d/dy = (a, dv) of (u, v), in texels of an 8x8 base level a LOD
 * of about -0.8 (the mag filter), 0.30 (level 0, min filter), 1.30 (level 1) and 2.5 (past the
 * top, 2), none near a level boundary of nearest-level selection.
 */
const QUADS = [
  { u: 0.2, v: 0.3, du: 0.05, a: 0.01, b: 0.02, dv: 0.06 },
  { u: 0.5, v: 0.15, du: 0.15, a: 0.02, b: 0.035, dv: 0.1 },
  { u: 0.1, v: 0.55, du: 0.12, a: 0.3, b: 0.05, dv: 0.07 },
  { u: 0.3, v: 0.2, du: 0.6, a: 0.1, b: 0.4, dv: 0.7 },
];
const quadCoords = (l: number): [number, number] => {
  const q = QUADS[l >> 2]!;
  const x = l & 1;
  const y = (l >> 1) & 1;
  return [q.u + x * q.du + y * q.a, q.v + x * q.b + y * q.dv];
};
/** An 8x8 image of three levels; the gradient's b is the level (0, 0.5, 1), so the level read shows. */
const MIPS3 = { format: 'rgba8_unorm', width: 8, height: 8, mips: 3, pattern: 'gradient', row_align: 64 };
const MIPS3_T = { format: 56, width_lo: 3, width_hi: 1, height: 7, max_mip: 2, last_level: 2 };
/** Point when magnified, bilinear when minified, the nearest level: the LOD decides the filter and the level. */
const MAG_POINT_MIN_BILINEAR_NEAREST = { ...POINT, xy_min_filter: 1, mip_filter: 1 };
/** A checkerboard: every component +0 or 1, which degamma leaves alone under any sRGB curve. */
const CHECKER_4X4 = { format: 'rgba8_unorm', width: 4, height: 4, pattern: 'checker', row_align: 64 };
const FORCE_DEGAMMA = { force_degamma: 1 };

export const IMAGE_CASES: readonly ImageCase[] = [
  {
    name: 'load (x past the edge reads 0)',
    instruction: 'image_load v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm',
    address: lanes((l) => [l % 5, l >> 2]),
    addressType: 'u32',
    image: RGBA8_T,
    texels: RGBA8_4X4,
  },
  {
    name: 'load, the T# loaded from a fixed place (checked in the module)',
    instruction: `s_load_dwordx8 s[0:7], s[12:13], 0x20
        s_waitcnt lgkmcnt(0)
        image_load v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm`,
    address: lanes((l) => [3 - (l & 3), l >> 2]),
    addressType: 'u32',
    image: RGBA8_T,
    texels: RGBA8_4X4,
    tableImage: true,
  },
  {
    name: 'load dmask 0x5 (x and z)',
    instruction: 'image_load v[4:5], v[0:1], s[0:7] dmask:0x5 dim:SQ_RSRC_IMG_2D unorm',
    address: lanes((l) => [l & 3, 3 - (l >> 2)]),
    addressType: 'u32',
    image: RGBA8_T,
    texels: RGBA8_4X4,
  },
  {
    name: 'sample point, implicit LOD that decides nothing',
    instruction: 'image_sample v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: centres,
    addressType: 'f32',
    image: RGBA8_T,
    texels: RGBA8_4X4,
    sampler: POINT,
  },
  {
    name: 'sample bilinear',
    instruction: 'image_sample_lz v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: lanes((l) => [0.1 + l * 0.05, 0.9 - l * 0.045]),
    addressType: 'f32',
    image: RGBA8_T,
    texels: RGBA8_4X4,
    sampler: BILINEAR,
    filtered: true,
  },
  ...CLAMP_NAMES.map((mode, code): ImageCase => ({
    name: `sample bilinear, clamp mode ${code} (${mode})`,
    instruction: 'image_sample_lz v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: straddling,
    addressType: 'f32',
    image: RGBA8_T,
    texels: RGBA8_4X4,
    // Border modes read opaque white (BORDER_COLOR_TYPE 2).
    sampler: { ...BILINEAR, clamp_x: code, clamp_y: code, clamp_z: code, border_color_type: 2 },
    filtered: true,
  })),
  ...[1, 2, 4, 8].map((dmask): ImageCase => ({
    name: `gather4 component ${'xyzw'[[1, 2, 4, 8].indexOf(dmask)]}`,
    instruction: `image_gather4_lz v[4:7], v[0:1], s[0:7], s[8:11] dmask:0x${dmask.toString(16)} dim:SQ_RSRC_IMG_2D`,
    address: straddling,
    addressType: 'f32',
    image: { ...RGBA8_T, dst_sel_z: '1', dst_sel_w: 'x' },
    texels: RGBA8_4X4,
    uniform: dmask === 4,
    sampler: { ...BILINEAR, clamp_x: 0, clamp_y: 1 },
  })),
  {
    name: 'resinfo per mip',
    instruction: 'image_get_resinfo v[4:7], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm',
    address: lanes((l) => [l % 5]),
    addressType: 'u32',
    image: { format: 56, width_lo: 3, width_hi: 1, height: 5, max_mip: 2, last_level: 2 },
    texels: { format: 'rgba8_unorm', width: 8, height: 6, mips: 3, pattern: 'gradient', row_align: 64 },
  },
  {
    name: 'sample _l across three levels, linear mips',
    instruction: 'image_sample_l v[4:7], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: lanes((l) => [0.05 + l * 0.06, 0.3, l * 0.2 - 0.3]),
    addressType: 'f32',
    image: { format: 56, width_lo: 3, width_hi: 1, height: 7, max_mip: 2, last_level: 2 },
    texels: { format: 'rgba8_unorm', width: 8, height: 8, mips: 3, pattern: 'gradient', row_align: 64 },
    sampler: { ...BILINEAR, mip_filter: 2 },
    filtered: true,
  },
  ...[false, true].flatMap((filtered) =>
    COMPARE_NAMES.map((fn, code): ImageCase => ({
      name: `compare by ${fn} (${code}), ${filtered ? 'filtered' : 'point'}`,
      instruction: 'image_sample_c_lz v4, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D',
      address: lanes((l) => [REFS[l % 8]!, ...(filtered ? straddling[l]! : centres[l]!)]),
      addressType: 'f32',
      image: R32F_T,
      texels: R32F_4X4,
      sampler: { ...(filtered ? BILINEAR : POINT), depth_compare_func: code },
      filtered,
      uniform: code === 0,
    })),
  ),
  {
    name: 'sample, implicit LOD from each quad (mag point, min bilinear, nearest level)',
    instruction: 'image_sample v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: lanes(quadCoords),
    addressType: 'f32',
    image: MIPS3_T,
    texels: MIPS3,
    sampler: MAG_POINT_MIN_BILINEAR_NEAREST,
    filtered: true,
  },
  {
    name: 'sample, implicit LOD from quads with lanes off in EXEC (their coordinates still count)',
    // Lanes 0, 1, 5, 6, 10, 11, 12, 15 on: no quad has all its lanes, two lack lane 4k.
    instruction: `s_mov_b32 s14, exec_lo
        s_mov_b32 exec_lo, 0x9c63
        image_sample v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
        s_mov_b32 exec_lo, s14`,
    address: lanes(quadCoords),
    addressType: 'f32',
    image: MIPS3_T,
    texels: MIPS3,
    sampler: MAG_POINT_MIN_BILINEAR_NEAREST,
    filtered: true,
  },
  {
    name: 'sample _b, implicit LOD plus a bias by lane, linear mips',
    instruction: 'image_sample_b v[4:7], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: lanes((l) => [0.375 * (l & 3) - 0.5, ...quadCoords(l)]),
    addressType: 'f32',
    image: MIPS3_T,
    texels: MIPS3,
    sampler: { ...BILINEAR, mip_filter: 2 },
    filtered: true,
  },
  {
    name: 'sample point with FORCE_DEGAMMA of texels made of +0 and 1',
    instruction: 'image_sample_lz v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: centres,
    addressType: 'f32',
    image: RGBA8_T,
    texels: CHECKER_4X4,
    sampler: { ...POINT, ...FORCE_DEGAMMA },
  },
];

/** A case the interpreter refuses, and the fault (its reason) the module must report instead of a result. */
export interface ImageFaultCase extends ImageCase {
  /** The interpreter's refusal. */
  readonly refused: RegExp;
  /** The module's fault (the replay's reason). */
  readonly fault: RegExp;
}

/** The interpreter's refusal of degamma of other values than +0 and 1 (image-sample.ts). */
const DEGAMMA_REFUSED = /degamma \(FORCE_DEGAMMA 1, SKIP_DEGAMMA 0\) of a texel component [-0-9.e]+ is not modelled/;

export const IMAGE_FAULT_CASES: readonly ImageFaultCase[] = [
  {
    name: 'FORCE_DEGAMMA of a texel component that is neither +0 nor 1',
    instruction: 'image_sample_lz v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: centres,
    addressType: 'f32',
    image: RGBA8_T,
    texels: RGBA8_4X4,
    sampler: { ...POINT, ...FORCE_DEGAMMA },
    refused: DEGAMMA_REFUSED,
    // Lanes race to the first fault: any component of the gradient's 1/3 or 2/3.
    fault:
      /degammed \(FORCE_DEGAMMA, or SKIP_DEGAMMA of an sRGB format\) a texel or result component \(f32 bits 0x(3eaaaaab|3f2aaaab)\) that is not \+0 or 1/,
  },
  {
    name: 'FORCE_DEGAMMA of a bilinear blend of +0 and 1 texels (the result is neither)',
    instruction: 'image_sample_lz v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D',
    address: straddling,
    addressType: 'f32',
    image: RGBA8_T,
    texels: CHECKER_4X4,
    sampler: { ...BILINEAR, ...FORCE_DEGAMMA },
    refused: DEGAMMA_REFUSED,
    fault: /degammed .* a texel or result component \(f32 bits 0x[0-9a-f]+\) that is not \+0 or 1/,
  },
];
