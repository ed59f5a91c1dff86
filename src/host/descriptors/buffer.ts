/**
 * V#: the 4-dword buffer resource (DESCRIPTORS.md §1), one layout table per generation family.
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
import { legacyBufferFormat, unifiedFormat, type FormatInfo } from './formats.ts';
import { dstSelName, layoutFor, type DstSel } from './common.ts';

const DW0_2 = [
  f('base_address', 0, 0, 32),
  f('base_address_hi', 1, 0, 16),
  f('stride', 1, 16, 14),
  f('num_records', 2, 0, 32),
] as const;
const DST_SEL = [
  f('dst_sel_x', 3, 0, 3),
  f('dst_sel_y', 3, 3, 3),
  f('dst_sel_z', 3, 6, 3),
  f('dst_sel_w', 3, 9, 3),
] as const;
const SWIZZLE_GFX7_10 = [f('cache_swizzle', 1, 30, 1), f('swizzle_enable', 1, 31, 1)] as const;

/** GFX7/8 (PS4, PS4 Pro). */
export const BUFFER_GFX7 = defineLayout('V#.gfx7', 4, [
  ...DW0_2,
  ...SWIZZLE_GFX7_10,
  ...DST_SEL,
  f('num_format', 3, 12, 3),
  f('data_format', 3, 15, 4),
  f('element_size', 3, 19, 2),
  f('index_stride', 3, 21, 2),
  f('add_tid_enable', 3, 23, 1),
  f('atc', 3, 24, 1),
  f('hash_enable', 3, 25, 1),
  f('heap', 3, 26, 1),
  f('mtype', 3, 27, 3),
  f('type', 3, 30, 2),
]);

export const BUFFER_GFX9 = defineLayout('V#.gfx9', 4, [
  ...DW0_2,
  ...SWIZZLE_GFX7_10,
  ...DST_SEL,
  f('num_format', 3, 12, 3),
  f('data_format', 3, 15, 4),
  f('user_vm_enable', 3, 19, 1),
  f('user_vm_mode', 3, 20, 1),
  f('index_stride', 3, 21, 2),
  f('add_tid_enable', 3, 23, 1),
  f('nv', 3, 27, 1),
  f('type', 3, 30, 2),
]);

const GFX10_DW3 = [
  ...DST_SEL,
  f('format', 3, 12, 7),
  f('index_stride', 3, 21, 2),
  f('add_tid_enable', 3, 23, 1),
  f('resource_level', 3, 24, 1),
  f('oob_select', 3, 28, 2),
  f('type', 3, 30, 2),
] as const;

/** GFX10.1 (gfx1010-1013). */
export const BUFFER_GFX10 = defineLayout('V#.gfx10', 4, [...DW0_2, ...SWIZZLE_GFX7_10, ...GFX10_DW3]);

/** GFX10.3 (PS5): adds LLC_NOALLOC. */
export const BUFFER_GFX10_3 = defineLayout('V#.gfx10.3', 4, [
  ...DW0_2,
  ...SWIZZLE_GFX7_10,
  ...GFX10_DW3,
  f('llc_noalloc', 3, 26, 2),
]);

/** GFX11: 2-bit SWIZZLE_ENABLE, 6-bit FORMAT, no RESOURCE_LEVEL [ROCR resource_gfx11.h]. */
export const BUFFER_GFX11 = defineLayout('V#.gfx11', 4, [
  ...DW0_2,
  f('swizzle_enable', 1, 30, 2),
  ...DST_SEL,
  f('format', 3, 12, 6),
  f('index_stride', 3, 21, 2),
  f('add_tid_enable', 3, 23, 1),
  f('llc_noalloc', 3, 26, 2),
  f('oob_select', 3, 28, 2),
  f('type', 3, 30, 2),
]);

type NamesOf<L> = L extends Layout<infer N> ? N : never;
export type BufferFieldsGfx7 = RawFields<NamesOf<typeof BUFFER_GFX7>>;
export type BufferFieldsGfx9 = RawFields<NamesOf<typeof BUFFER_GFX9>>;
export type BufferFieldsGfx10 = RawFields<NamesOf<typeof BUFFER_GFX10>>;
export type BufferFieldsGfx10_3 = RawFields<NamesOf<typeof BUFFER_GFX10_3>>;
export type BufferFieldsGfx11 = RawFields<NamesOf<typeof BUFFER_GFX11>>;
export type BufferFieldName =
  | NamesOf<typeof BUFFER_GFX7>
  | NamesOf<typeof BUFFER_GFX9>
  | NamesOf<typeof BUFFER_GFX10_3>
  | NamesOf<typeof BUFFER_GFX11>;

const LAYOUTS: Readonly<Record<Gen, Layout>> = {
  [Gen.GFX7]: BUFFER_GFX7,
  [Gen.GFX8]: BUFFER_GFX7,
  [Gen.GFX9]: BUFFER_GFX9,
  [Gen.GFX10]: BUFFER_GFX10,
  [Gen.GFX10_3]: BUFFER_GFX10_3,
  [Gen.GFX11]: BUFFER_GFX11,
};

/** The V# layout table of a generation. */
export function bufferLayout(gen: Gen): Layout<BufferFieldName> {
  return layoutFor(LAYOUTS, gen, 'V#') as Layout<BufferFieldName>;
}

/** How NUM_RECORDS is counted (DESCRIPTORS.md §1): bytes, records, or by the instruction's IDXEN (gfx9). */
export type NumRecordsUnit = 'bytes' | 'records' | 'bytes-unless-idxen';

interface BufferCommon {
  readonly kind: 'buffer';
  readonly gen: Gen;
  readonly gen_name: string;
  readonly words: readonly number[];
  /** BASE_ADDRESS | BASE_ADDRESS_HI << 32: a 48-bit byte address (exact as a number). */
  readonly address: number;
  /** STRIDE in bytes; on gfx8/9 with ADD_TID_ENABLE, DATA_FORMAT supplies STRIDE[17:14]. */
  readonly stride_bytes: number;
  readonly num_records: number;
  readonly num_records_unit: NumRecordsUnit;
  /** STRIDE * NUM_RECORDS where NUM_RECORDS counts records, NUM_RECORDS where it counts bytes; null on gfx9 with a stride. */
  readonly size_bytes: number | null;
  readonly swizzled: boolean;
  readonly add_tid: boolean;
  /** Swizzle element size in bytes: ELEMENT_SIZE on gfx7/8 (2 << n), 16 on gfx9+ as ACO assumes. */
  readonly element_size_bytes: number;
  /** INDEX_STRIDE in records: 8 << n. */
  readonly index_stride_records: number;
  readonly dst_sel: readonly [DstSel, DstSel, DstSel, DstSel];
  /** The format, or null where ADD_TID_ENABLE makes DATA_FORMAT part of the stride (gfx8/9). */
  readonly format: FormatInfo | null;
}

export type BufferDescriptor =
  | (BufferCommon & { readonly family: 'gfx7' | 'gfx8'; readonly fields: BufferFieldsGfx7 })
  | (BufferCommon & { readonly family: 'gfx9'; readonly fields: BufferFieldsGfx9 })
  | (BufferCommon & { readonly family: 'gfx10'; readonly fields: BufferFieldsGfx10 })
  | (BufferCommon & { readonly family: 'gfx10.3'; readonly fields: BufferFieldsGfx10_3 })
  | (BufferCommon & { readonly family: 'gfx11'; readonly fields: BufferFieldsGfx11 });

/** Decodes the 4 dwords of a V#. */
export function decodeBufferDescriptor(gen: Gen, words: ArrayLike<number>): BufferDescriptor {
  const layout = bufferLayout(gen);
  const w = normaliseWords(words, [4], 'a V#');
  const r = decodeFields(layout, w) as Record<string, number>;
  if (r.type !== 0)
    throw new DescriptorError(
      'not-a-buffer',
      `V# TYPE (dw3[31:30]) is ${r.type}, not 0${r.type & 2 ? ': bit 31 set means a T#' : ''}`,
    );
  const dst_sel = [
    dstSelName(r.dst_sel_x, 'V#.dst_sel_x'),
    dstSelName(r.dst_sel_y, 'V#.dst_sel_y'),
    dstSelName(r.dst_sel_z, 'V#.dst_sel_z'),
    dstSelName(r.dst_sel_w, 'V#.dst_sel_w'),
  ] as const;
  const legacy = gen <= Gen.GFX9;
  const addTid = r.add_tid_enable === 1;
  const tidStride = legacy && gen >= Gen.GFX8 && addTid;
  const format = legacy
    ? tidStride
      ? null
      : legacyBufferFormat(gen, r.data_format, r.num_format)
    : unifiedFormat(gen, r.format, 'buffer');
  const stride = tidStride ? r.stride | (r.data_format << 14) : r.stride;
  const swizzled = r.swizzle_enable !== 0;
  let unit: NumRecordsUnit;
  if (gen === Gen.GFX9) unit = stride === 0 ? 'bytes' : 'bytes-unless-idxen';
  else if (gen === Gen.GFX8) unit = stride === 0 || !swizzled ? 'bytes' : 'records';
  else unit = stride === 0 ? 'bytes' : 'records';
  const size = unit === 'bytes' ? r.num_records : unit === 'records' ? stride * r.num_records : null;
  const common: BufferCommon = {
    kind: 'buffer',
    gen,
    gen_name: GEN_NAMES[gen],
    words: [...w],
    address: r.base_address + r.base_address_hi * 2 ** 32,
    stride_bytes: stride,
    num_records: r.num_records,
    num_records_unit: unit,
    size_bytes: size,
    swizzled,
    add_tid: addTid,
    element_size_bytes: legacy && gen !== Gen.GFX9 ? 2 << r.element_size : 16,
    index_stride_records: 8 << r.index_stride,
    dst_sel,
    format,
  };
  return { ...common, family: familyOf(gen), fields: r } as BufferDescriptor;
}

function familyOf(gen: Gen): BufferDescriptor['family'] {
  return GEN_NAMES[gen].replace('gfx10.1', 'gfx10') as BufferDescriptor['family'];
}

/** Encodes a V# from its raw fields (the names of the generation's table); fields not given are 0. */
export function encodeBufferDescriptor(
  gen: Gen,
  fields: Readonly<Partial<Record<BufferFieldName, number>>>,
): Uint32Array {
  return encodeFields(bufferLayout(gen), fields);
}
