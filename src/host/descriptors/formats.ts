/**
 * Data and number format enumerations per generation (DESCRIPTORS.md §4): the GFX7-9 split
 * DATA_FORMAT / NUM_FORMAT of T# and V#, and the GFX10/10.3 unified FORMAT with the (data
 * format, number format) each value means. GFX11 renumbers the unified table; its values come
 * from ROCR's resource_gfx11.h (0-81) and DESCRIPTORS.md (BC1_UNORM = 109), see D004.
 */
import { Gen } from '../../isa/gen.ts';
import { DescriptorError } from './bits.ts';

/** What a format value means. `data_format` names bits MSB->LSB; component X is the lowest field. */
export interface FormatInfo {
  /** The value as stored (unified FORMAT on gfx10+, DATA_FORMAT on gfx7-9). */
  readonly value: number;
  /** `DATA_NUM`, e.g. `8_8_8_8_UNORM`, `BC1_SRGB`. */
  readonly name: string;
  readonly data_format: string;
  readonly num_format: string;
  /** Bits per texel, or per 4x4 block where `block_compressed`; null where not modelled. */
  readonly bits_per_element: number | null;
  readonly block_compressed: boolean;
}

// ---- GFX7-9 IMG_DATA_FORMAT (T# dw1[25:20]) ----

const IMG_DATA_COMMON: Readonly<Record<number, string>> = {
  0: 'INVALID',
  1: '8',
  2: '16',
  3: '8_8',
  4: '32',
  5: '16_16',
  6: '10_11_11',
  7: '11_11_10',
  8: '10_10_10_2',
  9: '2_10_10_10',
  10: '8_8_8_8',
  11: '32_32',
  12: '16_16_16_16',
  13: '32_32_32',
  14: '32_32_32_32',
  16: '5_6_5',
  17: '1_5_5_5',
  18: '5_5_5_1',
  19: '4_4_4_4',
  20: '8_24',
  21: '24_8',
  22: 'X24_8_32',
  32: 'GB_GR',
  33: 'BG_RG',
  34: '5_9_9_9',
  35: 'BC1',
  36: 'BC2',
  37: 'BC3',
  38: 'BC4',
  39: 'BC5',
  40: 'BC6',
  41: 'BC7',
  57: '4_4',
  58: '6_5_5',
  63: '32_AS_32_32_32_32',
};

const IMG_DATA_GFX7: Readonly<Record<number, string>> = (() => {
  const t: Record<number, string> = { ...IMG_DATA_COMMON, 59: '1', 60: '1_REVERSED', 61: '32_AS_8', 62: '32_AS_8_8' };
  for (let v = 44; v <= 56; v++) t[v] = `FMASK_${v}`; // FMASK8/16/32/64 sample/fragment variants
  return t;
})();

const IMG_DATA_GFX9: Readonly<Record<number, string>> = (() => {
  const t: Record<number, string> = {
    ...IMG_DATA_COMMON,
    23: '8_AS_8_8_8_8',
    24: 'ETC2_RGB',
    25: 'ETC2_RGBA',
    26: 'ETC2_R',
    27: 'ETC2_RG',
    28: 'ETC2_RGBA1',
    31: '6E4',
    42: '16_AS_42',
    43: '16_AS_43',
    44: '16_AS_44',
    45: 'FMASK',
    59: 'S8_16',
    60: 'S8_32',
    61: '8_AS_32',
    62: '8_AS_32_32',
  };
  for (let v = 46; v <= 51; v++) t[v] = `ASTC_${v}`; // ASTC 2D/3D, LDR/HDR/sRGB
  return t;
})();

// ---- NUM_FORMAT (T# dw1[29:26], V# dw3[14:12]) ----

const NUM_GFX7: Readonly<Record<number, string>> = {
  0: 'UNORM',
  1: 'SNORM',
  2: 'USCALED',
  3: 'SSCALED',
  4: 'UINT',
  5: 'SINT',
  6: 'SNORM_OGL',
  7: 'FLOAT',
  9: 'SRGB',
  10: 'UBNORM',
  11: 'UBNORM_OGL',
  12: 'UBINT',
  13: 'UBSCALED',
};

const NUM_GFX9: Readonly<Record<number, string>> = {
  0: 'UNORM',
  1: 'SNORM',
  2: 'USCALED',
  3: 'SSCALED',
  4: 'UINT',
  5: 'SINT',
  6: 'UNORM_UINT',
  7: 'FLOAT',
  9: 'SRGB',
};

/** Bits per element by data format name (DESCRIPTORS.md §4.1, per 4x4 block for BC). */
const BITS: Readonly<Record<string, number>> = {
  '8': 8,
  '4_4': 8,
  '6E4': 8,
  '16': 16,
  '8_8': 16,
  '5_6_5': 16,
  '1_5_5_5': 16,
  '5_5_5_1': 16,
  '4_4_4_4': 16,
  '6_5_5': 16,
  '32': 32,
  '16_16': 32,
  '10_11_11': 32,
  '11_11_10': 32,
  '10_10_10_2': 32,
  '2_10_10_10': 32,
  '8_8_8_8': 32,
  '8_24': 32,
  '24_8': 32,
  '5_9_9_9': 32,
  '32_32': 64,
  '16_16_16_16': 64,
  X24_8_32: 64,
  '32_32_32': 96,
  '32_32_32_32': 128,
  '1': 1,
  '1_REVERSED': 1,
  BC1: 64,
  BC4: 64,
  BC2: 128,
  BC3: 128,
  BC5: 128,
  BC6: 128,
  BC7: 128,
};

function info(value: number, data: string, num: string): FormatInfo {
  const bc = /^BC[1-7]$/.test(data);
  return {
    value,
    name: `${data}_${num}`,
    data_format: data,
    num_format: num,
    bits_per_element: BITS[data] ?? null,
    block_compressed: bc,
  };
}

function tableName(gen: Gen): string {
  return gen === Gen.GFX7 ? 'gfx7' : gen === Gen.GFX8 ? 'gfx8' : 'gfx9';
}

/** The GFX7-9 T# image format of (DATA_FORMAT, NUM_FORMAT). */
export function legacyImageFormat(gen: Gen, dataFormat: number, numFormat: number): FormatInfo {
  const data = (gen === Gen.GFX9 ? IMG_DATA_GFX9 : IMG_DATA_GFX7)[dataFormat];
  if (data === undefined)
    throw new DescriptorError('unknown-format', `IMG_DATA_FORMAT ${dataFormat} is not in the ${tableName(gen)} table`);
  const num = (gen === Gen.GFX9 ? NUM_GFX9 : NUM_GFX7)[numFormat];
  if (num === undefined)
    throw new DescriptorError('unknown-format', `IMG_NUM_FORMAT ${numFormat} is not in the ${tableName(gen)} table`);
  return info(dataFormat, data, num);
}

/** The GFX7-9 V# buffer format: DATA_FORMAT 0-14 match IMG 0-14; NUM_FORMAT 0-7. */
export function legacyBufferFormat(gen: Gen, dataFormat: number, numFormat: number): FormatInfo {
  const data = dataFormat <= 14 ? IMG_DATA_COMMON[dataFormat] : undefined;
  if (data === undefined)
    throw new DescriptorError('unknown-format', `BUF_DATA_FORMAT ${dataFormat} is not in the ${tableName(gen)} table`);
  const num = (gen === Gen.GFX9 ? NUM_GFX9 : NUM_GFX7)[numFormat];
  if (num === undefined || numFormat > 7)
    throw new DescriptorError('unknown-format', `BUF_NUM_FORMAT ${numFormat} is not in the ${tableName(gen)} table`);
  return info(dataFormat, data, num);
}

// ---- GFX10/10.3 unified FORMAT (T# dw1[28:20], V# dw3[18:12]) ----

const N6 = ['UNORM', 'SNORM', 'USCALED', 'SSCALED', 'UINT', 'SINT'] as const;
const N7 = [...N6, 'FLOAT'] as const;
const N3 = ['UINT', 'SINT', 'FLOAT'] as const;

function groups(start: number, rows: readonly (readonly [string, readonly string[]])[]): Map<number, FormatInfo> {
  const m = new Map<number, FormatInfo>();
  let v = start;
  for (const [data, nums] of rows) for (const num of nums) m.set(v, info(v++, data, num));
  return m;
}

function add(m: Map<number, FormatInfo>, entries: readonly (readonly [number, string, string])[]): void {
  for (const [v, data, num] of entries) m.set(v, info(v, data, num));
}

const BC_ROWS = [
  ['BC1', 'UNORM'],
  ['BC1', 'SRGB'],
  ['BC2', 'UNORM'],
  ['BC2', 'SRGB'],
  ['BC3', 'UNORM'],
  ['BC3', 'SRGB'],
  ['BC4', 'UNORM'],
  ['BC4', 'SNORM'],
  ['BC5', 'UNORM'],
  ['BC5', 'SNORM'],
  ['BC6', 'UFLOAT'],
  ['BC6', 'SFLOAT'],
  ['BC7', 'UNORM'],
  ['BC7', 'SRGB'],
] as const;

/** GFX10/10.3 (PS5): the table Mesa uses for every gfx_level < GFX11. */
const GFX10_FORMATS: ReadonlyMap<number, FormatInfo> = (() => {
  const m = groups(1, [
    ['8', N6],
    ['16', N7],
    ['8_8', N6],
    ['32', N3],
    ['16_16', N7],
    ['10_11_11', N7],
    ['11_11_10', N7],
    ['10_10_10_2', N6],
    ['2_10_10_10', N6],
    ['8_8_8_8', N6],
    ['32_32', N3],
    ['16_16_16_16', N7],
    ['32_32_32', N3],
    ['32_32_32_32', N3],
  ]);
  m.set(0, info(0, 'INVALID', 'UNORM'));
  add(m, [
    [128, '8', 'SRGB'],
    [129, '8_8', 'SRGB'],
    [130, '8_8_8_8', 'SRGB'],
    [131, '6E4', 'FLOAT'],
    [132, '5_9_9_9', 'FLOAT'],
    [133, '5_6_5', 'UNORM'],
    [134, '1_5_5_5', 'UNORM'],
    [135, '5_5_5_1', 'UNORM'],
    [136, '4_4_4_4', 'UNORM'],
    [137, '4_4', 'UNORM'],
    [138, '1', 'UNORM'],
    [139, '1_REVERSED', 'UNORM'],
    [140, '32', 'FLOAT_CLAMP'],
    [141, '8_24', 'UNORM'],
    [142, '8_24', 'UINT'],
    [143, '24_8', 'UNORM'],
    [144, '24_8', 'UINT'],
    [145, 'X24_8_32', 'UINT'],
    [146, 'X24_8_32', 'FLOAT'],
    [147, 'GB_GR', 'UNORM'],
    [148, 'GB_GR', 'SNORM'],
    [149, 'GB_GR', 'UINT'],
    [150, 'GB_GR', 'SRGB'],
    [151, 'BG_RG', 'UNORM'],
    [152, 'BG_RG', 'SNORM'],
    [153, 'BG_RG', 'UINT'],
    [154, 'BG_RG', 'SRGB'],
  ]);
  for (let v = 156; v <= 168; v++) m.set(v, info(v, `FMASK_${v}`, 'UINT'));
  BC_ROWS.forEach(([data, num], i) => m.set(169 + i, info(169 + i, data, num)));
  for (let v = 265; v <= 292; v++) m.set(v, info(v, `MM_YCBCR_${v}`, 'UNORM'));
  return m;
})();

/** GFX11: renumbered; 0-81 as ROCR's resource_gfx11.h lists them, BC from 109 (D004). */
const GFX11_FORMATS: ReadonlyMap<number, FormatInfo> = (() => {
  const m = groups(1, [
    ['8', N6],
    ['16', N7],
    ['8_8', N6],
    ['32', N3],
    ['16_16', N7],
    ['10_11_11', ['FLOAT']],
    ['11_11_10', ['FLOAT']],
    ['10_10_10_2', ['UNORM', 'SNORM', 'UINT', 'SINT']],
    ['2_10_10_10', N6],
    ['8_8_8_8', N6],
    ['32_32', N3],
    ['16_16_16_16', N7],
    ['32_32_32', N3],
    ['32_32_32_32', N3],
  ]);
  m.set(0, info(0, 'INVALID', 'UNORM'));
  add(m, [
    [64, '8', 'SRGB'],
    [65, '8_8', 'SRGB'],
    [66, '8_8_8_8', 'SRGB'],
    [67, '5_9_9_9', 'FLOAT'],
    [68, '5_6_5', 'UNORM'],
    [69, '1_5_5_5', 'UNORM'],
    [70, '5_5_5_1', 'UNORM'],
    [71, '4_4_4_4', 'UNORM'],
    [72, '4_4', 'UNORM'],
    [73, '1', 'UNORM'],
    [74, '1_REVERSED', 'UNORM'],
    [75, '32', 'FLOAT_CLAMP'],
    [76, '8_24', 'UNORM'],
    [77, '8_24', 'UINT'],
    [78, '24_8', 'UNORM'],
    [79, '24_8', 'UINT'],
    [80, 'X24_8_32', 'UINT'],
    [81, 'X24_8_32', 'FLOAT'],
  ]);
  BC_ROWS.forEach(([data, num], i) => m.set(109 + i, info(109 + i, data, num)));
  return m;
})();

/** The highest unified FORMAT a V# may hold: buffer formats stop at 77 on gfx10 [LLVM], 63 on gfx11. */
const BUFFER_FORMAT_MAX: Readonly<Partial<Record<Gen, number>>> = {
  [Gen.GFX10]: 77,
  [Gen.GFX10_3]: 77,
  [Gen.GFX11]: 63,
};

/** The unified FORMAT table of a gfx10+ generation. */
export function unifiedFormatTable(gen: Gen): ReadonlyMap<number, FormatInfo> {
  if (gen === Gen.GFX10 || gen === Gen.GFX10_3) return GFX10_FORMATS;
  if (gen === Gen.GFX11) return GFX11_FORMATS;
  throw new DescriptorError('unknown-generation', `generation ${String(gen)} has no unified FORMAT table`);
}

/** What a gfx10+ unified FORMAT value means, for an image (T#) or a buffer (V#). */
export function unifiedFormat(gen: Gen, value: number, kind: 'image' | 'buffer'): FormatInfo {
  const fi = unifiedFormatTable(gen).get(value);
  const max = kind === 'buffer' ? (BUFFER_FORMAT_MAX[gen] ?? 0) : Infinity;
  const table = gen === Gen.GFX11 ? 'gfx11' : 'gfx10';
  if (fi === undefined || value > max)
    throw new DescriptorError('unknown-format', `${kind} FORMAT ${value} is not in the ${table} table`);
  return fi;
}

/** The GFX7-9 IMG_DATA_FORMAT names, for listing (value -> name). */
export function legacyImageDataFormats(gen: Gen): Readonly<Record<number, string>> {
  return gen === Gen.GFX9 ? IMG_DATA_GFX9 : IMG_DATA_GFX7;
}
