/**
 * T#: the image resource, 8 dwords (4 in the r128 form: dwords 0-3 only), DESCRIPTORS.md §2,
 * one layout table per generation family. GFX11 follows ROCR's resource_gfx11.h (D004).
 */
import { GEN_NAMES, Gen } from '../../isa/gen.ts';
import {
  DescriptorError,
  decodeFields,
  defineLayout,
  encodeFields,
  f,
  normaliseWords,
  type Layout,
  type RawFields,
} from './bits.ts';
import { legacyImageFormat, unifiedFormat, type FormatInfo } from './formats.ts';
import { dstSelName, layoutFor, type DstSel } from './common.ts';

/** T# TYPE (dw3[31:28]). 0 is a buffer (SQ_RSRC_BUF); 1-7 are reserved. */
export const ImageType = {
  buf: 0,
  '1d': 8,
  '2d': 9,
  '3d': 10,
  cube: 11,
  '1d_array': 12,
  '2d_array': 13,
  '2d_msaa': 14,
  '2d_msaa_array': 15,
} as const;
export type ImageTypeName = keyof typeof ImageType;
export type ImageTypeValue = (typeof ImageType)[ImageTypeName];

const TYPE_NAMES: Readonly<Record<number, ImageTypeName>> = Object.fromEntries(
  Object.entries(ImageType).map(([k, v]) => [v, k as ImageTypeName]),
);

const DST_SEL = [
  f('dst_sel_x', 3, 0, 3),
  f('dst_sel_y', 3, 3, 3),
  f('dst_sel_z', 3, 6, 3),
  f('dst_sel_w', 3, 9, 3),
] as const;
const DW3_LEVELS = [f('base_level', 3, 12, 4), f('last_level', 3, 16, 4), f('type', 3, 28, 4)] as const;

const GFX7_COMMON = [
  f('base_address', 0, 0, 32),
  f('base_address_hi', 1, 0, 8),
  f('min_lod', 1, 8, 12),
  f('data_format', 1, 20, 6),
  f('num_format', 1, 26, 4),
  f('mtype', 1, 30, 2),
  f('width', 2, 0, 14),
  f('height', 2, 14, 14),
  f('perf_mod', 2, 28, 3),
  f('interlaced', 2, 31, 1),
  ...DST_SEL,
  ...DW3_LEVELS,
  f('tiling_index', 3, 20, 5),
  f('pow2_pad', 3, 25, 1),
  f('mtype_hi', 3, 26, 1),
  f('atc', 3, 27, 1),
  f('depth', 4, 0, 13),
  f('pitch', 4, 13, 14),
  f('base_array', 5, 0, 13),
  f('last_array', 5, 13, 13),
  f('min_lod_warn', 6, 0, 12),
  f('counter_bank_id', 6, 12, 8),
  f('lod_hdw_cnt_en', 6, 20, 1),
] as const;

const GFX8_DW6 = [
  f('compression_en', 6, 21, 1),
  f('alpha_is_on_msb', 6, 22, 1),
  f('color_transform', 6, 23, 1),
  f('lost_alpha_bits', 6, 24, 4),
  f('lost_color_bits', 6, 28, 4),
] as const;

/** GFX7 (PS4). */
export const IMAGE_GFX7 = defineLayout('T#.gfx7', 8, [...GFX7_COMMON]);

/** GFX8 (PS4 Pro class): DCC fields in dw6, the DCC address >> 8 in dw7. */
export const IMAGE_GFX8 = defineLayout('T#.gfx8', 8, [...GFX7_COMMON, ...GFX8_DW6, f('meta_data_address', 7, 0, 32)]);

export const IMAGE_GFX9 = defineLayout('T#.gfx9', 8, [
  f('base_address', 0, 0, 32),
  f('base_address_hi', 1, 0, 8),
  f('min_lod', 1, 8, 12),
  f('data_format', 1, 20, 6),
  f('num_format', 1, 26, 4),
  f('nv', 1, 30, 1),
  f('meta_direct', 1, 31, 1),
  f('width', 2, 0, 14),
  f('height', 2, 14, 14),
  f('perf_mod', 2, 28, 3),
  ...DST_SEL,
  ...DW3_LEVELS,
  f('sw_mode', 3, 20, 5),
  f('depth', 4, 0, 13),
  f('pitch', 4, 13, 16),
  f('bc_swizzle', 4, 29, 3),
  f('base_array', 5, 0, 13),
  f('array_pitch', 5, 13, 4),
  f('meta_data_address_hi', 5, 17, 8),
  f('meta_linear', 5, 25, 1),
  f('meta_pipe_aligned', 5, 26, 1),
  f('meta_rb_aligned', 5, 27, 1),
  f('max_mip', 5, 28, 4),
  f('min_lod_warn', 6, 0, 12),
  f('counter_bank_id', 6, 12, 8),
  f('lod_hdw_cnt_en', 6, 20, 1),
  ...GFX8_DW6,
  f('meta_data_address', 7, 0, 32),
]);

const GFX10_DW0_3 = [
  f('base_address', 0, 0, 32),
  f('base_address_hi', 1, 0, 8),
  f('width_lo', 1, 30, 2),
  f('width_hi', 2, 0, 12),
  f('height', 2, 14, 14),
  ...DST_SEL,
  ...DW3_LEVELS,
  f('sw_mode', 3, 20, 5),
  f('bc_swizzle', 3, 25, 3),
] as const;

const GFX10_REST = [
  f('min_lod', 1, 8, 12),
  f('format', 1, 20, 9),
  f('resource_level', 2, 31, 1),
  f('depth', 4, 0, 13),
  f('base_array', 4, 16, 13),
  f('array_pitch', 5, 0, 4),
  f('max_mip', 5, 4, 4),
  f('min_lod_warn', 5, 8, 12),
  f('perf_mod', 5, 20, 3),
  f('corner_samples', 5, 23, 1),
  f('lod_hdw_cnt_en', 5, 25, 1),
  f('prt_default', 5, 26, 1),
  f('big_page', 5, 31, 1),
  f('counter_bank_id', 6, 0, 8),
  f('llc_noalloc', 6, 8, 2),
  f('iterate_256', 6, 10, 1),
  f('max_uncompressed_block_size', 6, 15, 2),
  f('max_compressed_block_size', 6, 17, 2),
  f('meta_pipe_aligned', 6, 19, 1),
  f('write_compress_enable', 6, 20, 1),
  f('compression_en', 6, 21, 1),
  f('alpha_is_on_msb', 6, 22, 1),
  f('color_transform', 6, 23, 1),
  f('meta_data_address_lo', 6, 24, 8),
  f('meta_data_address_hi', 7, 0, 32),
] as const;

/** GFX10.1 (gfx1010-1013). */
export const IMAGE_GFX10 = defineLayout('T#.gfx10', 8, [...GFX10_DW0_3, ...GFX10_REST]);

/** GFX10.3 (PS5): adds PITCH_MSB for custom-pitch linear images. */
export const IMAGE_GFX10_3 = defineLayout('T#.gfx10.3', 8, [...GFX10_DW0_3, ...GFX10_REST, f('pitch_msb', 4, 13, 1)]);

/** GFX11: MAX_MIP and an 8-bit FORMAT in dw1, MIN_LOD split over dw5/dw6 [ROCR resource_gfx11.h]. */
export const IMAGE_GFX11 = defineLayout('T#.gfx11', 8, [
  ...GFX10_DW0_3,
  f('llc_noalloc', 1, 13, 2),
  f('big_page', 1, 15, 1),
  f('max_mip', 1, 16, 4),
  f('format', 1, 20, 8),
  f('depth', 4, 0, 13),
  f('pitch_msb', 4, 13, 1),
  f('base_array', 4, 16, 13),
  f('array_pitch', 5, 0, 4),
  f('depth_scale', 5, 8, 4),
  f('height_scale', 5, 12, 4),
  f('width_scale', 5, 16, 4),
  f('perf_mod', 5, 20, 3),
  f('corner_samples', 5, 23, 1),
  f('linked_resource', 5, 24, 1),
  f('lod_hdw_cnt_en', 5, 25, 1),
  f('prt_default', 5, 26, 1),
  f('min_lod_lo', 5, 27, 5),
  f('min_lod_hi', 6, 0, 7),
  f('iterate_256', 6, 10, 1),
  f('sample_pattern_offset', 6, 11, 4),
  f('max_uncompressed_block_size', 6, 15, 2),
  f('max_compressed_block_size', 6, 17, 2),
  f('meta_pipe_aligned', 6, 19, 1),
  f('write_compress_enable', 6, 20, 1),
  f('compression_en', 6, 21, 1),
  f('alpha_is_on_msb', 6, 22, 1),
  f('color_transform', 6, 23, 1),
  f('meta_data_address_lo', 6, 24, 8),
  f('meta_data_address_hi', 7, 0, 32),
]);

type NamesOf<L> = L extends Layout<infer N> ? N : never;
export type ImageFieldsGfx7 = RawFields<NamesOf<typeof IMAGE_GFX7>>;
export type ImageFieldsGfx8 = RawFields<NamesOf<typeof IMAGE_GFX8>>;
export type ImageFieldsGfx9 = RawFields<NamesOf<typeof IMAGE_GFX9>>;
export type ImageFieldsGfx10 = RawFields<NamesOf<typeof IMAGE_GFX10>>;
export type ImageFieldsGfx10_3 = RawFields<NamesOf<typeof IMAGE_GFX10_3>>;
export type ImageFieldsGfx11 = RawFields<NamesOf<typeof IMAGE_GFX11>>;
export type ImageFieldName =
  NamesOf<typeof IMAGE_GFX8> | NamesOf<typeof IMAGE_GFX9> | NamesOf<typeof IMAGE_GFX10_3> | NamesOf<typeof IMAGE_GFX11>;

const LAYOUTS: Readonly<Record<Gen, Layout>> = {
  [Gen.GFX7]: IMAGE_GFX7,
  [Gen.GFX8]: IMAGE_GFX8,
  [Gen.GFX9]: IMAGE_GFX9,
  [Gen.GFX10]: IMAGE_GFX10,
  [Gen.GFX10_3]: IMAGE_GFX10_3,
  [Gen.GFX11]: IMAGE_GFX11,
};

/** The T# layout table of a generation. */
export function imageLayout(gen: Gen): Layout<ImageFieldName> {
  return layoutFor(LAYOUTS, gen, 'T#') as Layout<ImageFieldName>;
}

interface ImageCommon {
  readonly kind: 'image';
  readonly gen: Gen;
  readonly gen_name: string;
  /** 8, or 4 for the r128 form (dwords 4-7 absent, their fields read as 0). */
  readonly dwords: 4 | 8;
  readonly words: readonly number[];
  readonly type_name: Exclude<ImageTypeName, 'buf'>;
  /** (BASE_ADDRESS | BASE_ADDRESS_HI << 32) << 8 in bytes. On gfx9+ (and gfx7/8 2D-tiled) the low bits carry a tile swizzle (§6.5). */
  readonly address: number;
  readonly format: FormatInfo;
  readonly width: number;
  readonly height: number;
  /** Depth of a 3D image; 1 otherwise. */
  readonly depth: number;
  /** Array layers the descriptor reaches (faces for a cube); 1 for a non-array image. */
  readonly layers: number;
  readonly is_cube: boolean;
  readonly is_array: boolean;
  readonly is_msaa: boolean;
  /** Samples of an MSAA image (1 << LAST_LEVEL), 1 otherwise. */
  readonly samples: number;
  /** Levels of the layout: MAX_MIP + 1 on gfx9+, LAST_LEVEL + 1 on gfx7/8; 1 for MSAA. */
  readonly mip_count: number;
  readonly base_level: number;
  readonly last_level: number;
  /** First array layer of the view. */
  readonly base_array: number;
  /** MIN_LOD as a float (u4.8). */
  readonly min_lod: number;
  /** Row pitch in elements where the descriptor holds one (gfx7/8 texels, gfx9 epitch + 1, gfx10.3+ custom linear pitch), else null. */
  readonly pitch: number | null;
  /** TILING_INDEX (gfx7/8) or SW_MODE (gfx9+). */
  readonly tiling: { readonly tiling_index: number } | { readonly sw_mode: number };
  readonly dst_sel: readonly [DstSel, DstSel, DstSel, DstSel];
  /** COMPRESSION_EN or a metadata address: memory holds DCC-compressed data (§6.9). */
  readonly compressed: boolean;
  /** The metadata (DCC/HTILE) byte address, 0 when none. */
  readonly meta_address: number;
}

export type ImageDescriptor =
  | (ImageCommon & { readonly family: 'gfx7'; readonly fields: ImageFieldsGfx7 })
  | (ImageCommon & { readonly family: 'gfx8'; readonly fields: ImageFieldsGfx8 })
  | (ImageCommon & { readonly family: 'gfx9'; readonly fields: ImageFieldsGfx9 })
  | (ImageCommon & { readonly family: 'gfx10'; readonly fields: ImageFieldsGfx10 })
  | (ImageCommon & { readonly family: 'gfx10.3'; readonly fields: ImageFieldsGfx10_3 })
  | (ImageCommon & { readonly family: 'gfx11'; readonly fields: ImageFieldsGfx11 });

/** The TYPE of T# words, or null where there are not 4+ words: a cheap test before decoding (TYPE >= 8 is an image). */
export function imageTypeOf(words: ArrayLike<number>): number | null {
  return words.length >= 4 ? (words[3] >>> 28) & 0xf : null;
}

/** Decodes a T# (8 dwords, or the 4-dword r128 form). */
export function decodeImageDescriptor(gen: Gen, words: ArrayLike<number>): ImageDescriptor {
  const layout = imageLayout(gen);
  const w = normaliseWords(words, [8, 4], 'a T#');
  const r = decodeFields(layout, w) as Record<string, number>;
  const typeName = TYPE_NAMES[r.type];
  if (typeName === undefined || typeName === 'buf')
    throw new DescriptorError(
      'reserved-type',
      `T# TYPE (dw3[31:28]) is ${r.type}${typeName === 'buf' ? ' (buf)' : ''}: values 0-7 are a V# or a null descriptor, not an image`,
    );
  const legacy = gen <= Gen.GFX9;
  const format = legacy ? legacyImageFormat(gen, r.data_format, r.num_format) : unifiedFormat(gen, r.format, 'image');
  const dst_sel = [
    dstSelName(r.dst_sel_x, 'T#.dst_sel_x'),
    dstSelName(r.dst_sel_y, 'T#.dst_sel_y'),
    dstSelName(r.dst_sel_z, 'T#.dst_sel_z'),
    dstSelName(r.dst_sel_w, 'T#.dst_sel_w'),
  ] as const;
  const isCube = typeName === 'cube';
  const isArray = typeName.endsWith('_array');
  const isMsaa = typeName.startsWith('2d_msaa');
  const is3d = typeName === '3d';
  const width = legacy ? r.width + 1 : ((r.width_hi << 2) | r.width_lo) + 1;
  // GFX7/8 DEPTH is a count - 1 (cubes - 1 for CUBE); GFX9+ it is the last accessible layer.
  let layers = 1;
  if (isArray || isCube) layers = gen <= Gen.GFX8 && isCube ? (r.depth + 1) * 6 : r.depth + 1;
  let pitch: number | null = null;
  if (gen <= Gen.GFX9) pitch = r.pitch + 1;
  else if (gen >= Gen.GFX10_3 && (typeName === '1d' || typeName === '2d') && (r.depth !== 0 || r.pitch_msb !== 0))
    pitch = ((r.pitch_msb << 13) | r.depth) + 1;
  const minLodRaw = gen === Gen.GFX11 ? r.min_lod_lo | (r.min_lod_hi << 5) : r.min_lod;
  let meta = 0;
  if (gen === Gen.GFX8) meta = r.meta_data_address * 256;
  else if (gen === Gen.GFX9) meta = (r.meta_data_address + r.meta_data_address_hi * 2 ** 32) * 256;
  else if (gen >= Gen.GFX10) meta = (r.meta_data_address_lo + r.meta_data_address_hi * 256) * 256;
  const common: ImageCommon = {
    kind: 'image',
    gen,
    gen_name: GEN_NAMES[gen],
    dwords: w.length as 4 | 8,
    words: [...w],
    type_name: typeName,
    address: (r.base_address + r.base_address_hi * 2 ** 32) * 256,
    format,
    width,
    height: r.height + 1,
    depth: is3d ? r.depth + 1 : 1,
    layers,
    is_cube: isCube,
    is_array: isArray,
    is_msaa: isMsaa,
    samples: isMsaa ? 1 << r.last_level : 1,
    mip_count: isMsaa ? 1 : (legacy && gen !== Gen.GFX9 ? r.last_level : r.max_mip) + 1,
    base_level: r.base_level,
    last_level: r.last_level,
    base_array: r.base_array,
    min_lod: minLodRaw / 256,
    pitch,
    tiling: gen <= Gen.GFX8 ? { tiling_index: r.tiling_index } : { sw_mode: r.sw_mode },
    dst_sel,
    compressed: (r.compression_en ?? 0) !== 0 || meta !== 0,
    meta_address: meta,
  };
  return { ...common, family: GEN_NAMES[gen].replace('gfx10.1', 'gfx10'), fields: r } as ImageDescriptor;
}

/**
 * Encodes a T# from its raw fields (the names of the generation's table); fields not given are 0.
 * `dwords: 4` gives the r128 form, and then a non-zero field of dwords 4-7 is an error.
 */
export function encodeImageDescriptor(
  gen: Gen,
  fields: Readonly<Partial<Record<ImageFieldName, number>>>,
  options: { readonly dwords?: 4 | 8 } = {},
): Uint32Array {
  return encodeFields(imageLayout(gen), fields, options.dwords ?? 8);
}
