/**
 * The image cases of test/translator/images.gpu.test.ts (D015): loads, point and bilinear
 * samples, each of the eight clamp modes, gather4 by component, resinfo, an explicit LOD across a
 * mip chain, and depth compares by all eight functions, point and filtered.
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
];
