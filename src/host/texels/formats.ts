/**
 * Texel element layouts and number-format conversion (DESCRIPTORS.md §4, D006). The format
 * enumerations are the descriptor layer's (`FormatInfo` from `src/host/descriptors/formats.ts`);
 * this module adds, keyed by their data-format names, what one element holds (component count,
 * bits and bit offset of each component, bytes per element or per 4x4 block) and how its bits
 * become RGBA values for each number format. Component X is the lowest field (§4.1 "Bit order").
 *
 * A format this module does not model is a `TexelFormatError`, never guessed texels.
 */
import { Gen } from '../../isa/gen.ts';
import { DescriptorError, legacyImageFormat, unifiedFormat, type FormatInfo } from '../descriptors/index.ts';
import { decodeBcImage, type BcKind } from './bc.ts';
import { SRGB8_TO_LINEAR, f16ToFloat, f32FromBits, ufloatToFloat } from './numbers.ts';

export type TexelFormatErrorCode =
  | 'unknown-format' // the value is not in the generation's format table
  | 'unmodelled-data-format' // the data format is known but its texels are not modelled (FMASK, ETC2, ASTC, 1-bit, GB_GR...)
  | 'unmodelled-number-format' // the (data, number) format pair is not modelled (FLOAT on 8 bits, SRGB on 16 bits...)
  | 'block-compressed' // a per-element call was given a BC format (use the image or block decoders)
  | 'out-of-bounds' // the bytes end before the element or image does
  | 'bad-size'; // width, height or pitch is not a positive integer, or the pitch is too small

export class TexelFormatError extends Error {
  override readonly name = 'TexelFormatError';
  constructor(
    readonly code: TexelFormatErrorCode,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}

// ---------------------------------------------------------------- element layouts

export type LayoutKind = 'uniform' | 'packed' | 'shared-exponent' | 'depth-stencil' | 'block';

/** What one element (texel, or 4x4 block) of a data format holds. */
export interface ElementLayout {
  readonly dataFormat: string;
  readonly kind: LayoutKind;
  /** Components stored (X first); BC: the channels the block decodes to. */
  readonly components: number;
  /** Bits of each component, X first (empty for BC). */
  readonly bits: readonly number[];
  /** Bit offset of each component within the element, X first (empty for BC). */
  readonly shifts: readonly number[];
  /** Bytes per element, or per 4x4 block for BC. */
  readonly bytesPerElement: number;
  /** 1 for plain texels, 4 for BC blocks. */
  readonly blockWidth: number;
  readonly blockHeight: number;
}

/** Components from the lowest bit up, as widths: `fields(5, 6, 5)` is X=5 low, Y=6, Z=5 high. */
function lay(dataFormat: string, kind: LayoutKind, ...widths: number[]): ElementLayout {
  const shifts: number[] = [];
  let s = 0;
  for (const w of widths) {
    shifts.push(s);
    s += w;
  }
  return {
    dataFormat,
    kind,
    components: widths.length,
    bits: widths,
    shifts,
    bytesPerElement: Math.ceil(s / 8),
    blockWidth: 1,
    blockHeight: 1,
  };
}

function block(dataFormat: string, bytes: number, components: number): ElementLayout {
  return {
    dataFormat,
    kind: 'block',
    components,
    bits: [],
    shifts: [],
    bytesPerElement: bytes,
    blockWidth: 4,
    blockHeight: 4,
  };
}

/**
 * Every data format whose texels are modelled, keyed by the descriptor layer's data-format name.
 * Names run MSB->LSB, so `lay` lists widths in reverse of the name (X first).
 */
export const ELEMENT_LAYOUTS: Readonly<Record<string, ElementLayout>> = {
  '8': lay('8', 'uniform', 8),
  '16': lay('16', 'uniform', 16),
  '8_8': lay('8_8', 'uniform', 8, 8),
  '32': lay('32', 'uniform', 32),
  '16_16': lay('16_16', 'uniform', 16, 16),
  '10_11_11': lay('10_11_11', 'packed', 11, 11, 10),
  '11_11_10': lay('11_11_10', 'packed', 10, 11, 11),
  '10_10_10_2': lay('10_10_10_2', 'packed', 2, 10, 10, 10),
  '2_10_10_10': lay('2_10_10_10', 'packed', 10, 10, 10, 2),
  '8_8_8_8': lay('8_8_8_8', 'uniform', 8, 8, 8, 8),
  '32_32': lay('32_32', 'uniform', 32, 32),
  '16_16_16_16': lay('16_16_16_16', 'uniform', 16, 16, 16, 16),
  '32_32_32': lay('32_32_32', 'uniform', 32, 32, 32),
  '32_32_32_32': lay('32_32_32_32', 'uniform', 32, 32, 32, 32),
  '5_6_5': lay('5_6_5', 'packed', 5, 6, 5),
  '1_5_5_5': lay('1_5_5_5', 'packed', 5, 5, 5, 1),
  '5_5_5_1': lay('5_5_5_1', 'packed', 1, 5, 5, 5),
  '4_4_4_4': lay('4_4_4_4', 'packed', 4, 4, 4, 4),
  '4_4': lay('4_4', 'packed', 4, 4),
  '6_5_5': lay('6_5_5', 'packed', 5, 5, 6),
  /** Depth (X) in bits [23:0], stencil (Y) in [31:24]: Mesa's Z24_UNORM_S8_UINT. */
  '8_24': lay('8_24', 'depth-stencil', 24, 8),
  /** Stencil (X) in bits [7:0], depth (Y) in [31:8]: Mesa's S8_UINT_Z24_UNORM. */
  '24_8': lay('24_8', 'depth-stencil', 8, 24),
  /** Depth (X) a 32-bit float in dword 0, stencil (Y) in dword 1 bits [7:0]; 24 bits unused. */
  X24_8_32: { ...lay('X24_8_32', 'depth-stencil', 32, 8), bytesPerElement: 8 },
  /** R, G, B 9-bit mantissas from bit 0, the shared 5-bit exponent in [31:27] (rgb9e5). */
  '5_9_9_9': lay('5_9_9_9', 'shared-exponent', 9, 9, 9, 5),
  BC1: block('BC1', 8, 4),
  BC2: block('BC2', 16, 4),
  BC3: block('BC3', 16, 4),
  BC4: block('BC4', 8, 1),
  BC5: block('BC5', 16, 2),
  BC6: block('BC6', 16, 3),
  BC7: block('BC7', 16, 4),
};

/** Why each known-but-unmodelled data format is refused. */
const UNMODELLED_REASONS: Readonly<Record<string, string>> = {
  INVALID: 'the INVALID data format holds no texels',
  GB_GR: 'subsampled 4:2:2 pairs (one element for two texels) are not modelled',
  BG_RG: 'subsampled 4:2:2 pairs (one element for two texels) are not modelled',
  '1': '1-bit texels are not modelled',
  '1_REVERSED': '1-bit texels are not modelled',
  '6E4': "the 6E4 float's bit layout is not in DESCRIPTORS.md",
};

// ---------------------------------------------------------------- scalar conversions

function signExtend(v: number, bits: number): number {
  return bits >= 32 ? v | 0 : (v << (32 - bits)) >> (32 - bits);
}

// ---------------------------------------------------------------- resolved formats

/** Which typed array a format's decoded channels land in. */
export type ChannelKind = 'float' | 'uint' | 'sint';

/** A format this module can decode: the descriptor's `FormatInfo`, its layout and its converters. */
export interface TexelFormat {
  readonly info: FormatInfo;
  readonly layout: ElementLayout;
  readonly channelKind: ChannelKind;
  /** For BC formats, which block decoder; null otherwise. */
  readonly bc: BcKind | null;
  /** True when the BC format is an sRGB variant (its RGB are linearised after decoding). */
  readonly srgb: boolean;
  /** Per component (X first): raw field bits -> channel value. Empty for BC. */
  readonly convert: readonly ((raw: number) => number)[];
  /** Per component: the converter tabulated over every code (fields of up to 16 bits), else null. */
  readonly tables: readonly (Float32Array | null)[];
}

const NUMERIC_KINDS: Readonly<Record<string, ChannelKind>> = { UINT: 'uint', SINT: 'sint' };

function unmodelledNum(info: FormatInfo, why: string): TexelFormatError {
  return new TexelFormatError('unmodelled-number-format', `${info.name}: ${why}`);
}

/** The converter of one component of `bits` bits, or throws. `comp` is 0..3 (X..W). */
function converter(info: FormatInfo, layout: ElementLayout, comp: number): (raw: number) => number {
  const bits = layout.bits[comp];
  const num = info.num_format;
  const max = 2 ** bits - 1;
  const smax = 2 ** (bits - 1) - 1;
  const isStencil = layout.kind === 'depth-stencil' && (layout.dataFormat === '24_8' ? comp === 0 : comp === 1);
  switch (num) {
    case 'UNORM':
      return (r) => r / max;
    case 'SNORM':
      if (bits < 2) throw unmodelledNum(info, 'SNORM needs at least 2 bits');
      // -2^(n-1) and -(2^(n-1)-1) both map to -1.0 (D3D10+/Vulkan rule).
      return (r) => Math.max(signExtend(r, bits) / smax, -1);
    case 'SNORM_OGL':
      // GFX6-8 OpenGL-style signed normalisation: (2c + 1) / (2^n - 1), no clamp.
      if (bits < 2) throw unmodelledNum(info, 'SNORM_OGL needs at least 2 bits');
      return (r) => (2 * signExtend(r, bits) + 1) / max;
    case 'USCALED':
      return (r) => r >>> 0;
    case 'SSCALED':
      return (r) => signExtend(r, bits);
    case 'UINT':
      return (r) => r >>> 0;
    case 'SINT':
      return (r) => signExtend(r, bits);
    case 'SRGB':
      if (bits !== 8) throw unmodelledNum(info, 'SRGB is modelled for 8-bit components only');
      // X, Y, Z go through the sRGB curve; W (alpha) stays linear.
      return comp === 3 ? (r) => r / 255 : (r) => SRGB8_TO_LINEAR[r];
    case 'FLOAT':
      if (isStencil) return (r) => r; // X24_8_32_FLOAT: the stencil byte as its integer value
      if (bits === 32) return f32FromBits;
      if (bits === 16) return f16ToFloat;
      if ((bits === 11 || bits === 10) && (layout.dataFormat === '10_11_11' || layout.dataFormat === '11_11_10'))
        return bits === 11 ? (r) => ufloatToFloat(r, 6) : (r) => ufloatToFloat(r, 5);
      throw unmodelledNum(info, `FLOAT is not defined for a ${bits}-bit component of ${layout.dataFormat}`);
    default:
      throw unmodelledNum(info, `number format ${num} is not modelled`);
  }
}

const BC_KINDS: Readonly<Record<string, Readonly<Record<string, BcKind>>>> = {
  BC1: { UNORM: 'bc1', SRGB: 'bc1' },
  BC2: { UNORM: 'bc2', SRGB: 'bc2' },
  BC3: { UNORM: 'bc3', SRGB: 'bc3' },
  BC4: { UNORM: 'bc4-unorm', SNORM: 'bc4-snorm' },
  BC5: { UNORM: 'bc5-unorm', SNORM: 'bc5-snorm' },
  // gfx10+ name the BC6 variants UFLOAT/SFLOAT; on gfx7-9 SNORM selects signed BC6H (§4.2).
  BC6: {
    UFLOAT: 'bc6h-ufloat',
    UNORM: 'bc6h-ufloat',
    FLOAT: 'bc6h-ufloat',
    SFLOAT: 'bc6h-sfloat',
    SNORM: 'bc6h-sfloat',
  },
  BC7: { UNORM: 'bc7', SRGB: 'bc7' },
};

const RESOLVED = new Map<string, TexelFormat>();
const TABLES = new Map<string, Float32Array>();

/**
 * A converter's value for every code of `bits` (<= 16) bits, shared between formats whose
 * converter is the same (number format, width, and the per-component variants). float32 holds
 * every result exactly as the output arrays would: floats are stored as float32 anyway, and
 * integers of up to 16 bits are exact.
 */
function tabulate(info: FormatInfo, layout: ElementLayout, comp: number, conv: (raw: number) => number): Float32Array {
  const bits = layout.bits[comp];
  const key = `${info.num_format}|${bits}|${comp}|${layout.kind}|${layout.dataFormat}`;
  let t = TABLES.get(key);
  if (!t) {
    t = new Float32Array(1 << bits);
    for (let r = 0; r < t.length; r++) t[r] = conv(r);
    TABLES.set(key, t);
  }
  return t;
}

/** Resolves a descriptor `FormatInfo` to a decodable format, or throws `TexelFormatError`. Cached. */
export function texelFormat(info: FormatInfo | TexelFormat): TexelFormat {
  if ('layout' in info) return info;
  const cacheKey = `${info.value}:${info.name}`;
  const hit = RESOLVED.get(cacheKey);
  if (hit) return hit;
  const layout = ELEMENT_LAYOUTS[info.data_format];
  if (layout === undefined) {
    const why = UNMODELLED_REASONS[info.data_format] ?? `the ${info.data_format} data format is not modelled`;
    throw new TexelFormatError('unmodelled-data-format', `${info.name}: ${why}`);
  }
  let tf: TexelFormat;
  if (layout.kind === 'block') {
    const bc = BC_KINDS[info.data_format]?.[info.num_format];
    if (bc === undefined) throw unmodelledNum(info, `${info.data_format} has no ${info.num_format} variant`);
    tf = { info, layout, channelKind: 'float', bc, srgb: info.num_format === 'SRGB', convert: [], tables: [] };
  } else if (layout.kind === 'shared-exponent') {
    if (info.num_format !== 'FLOAT') throw unmodelledNum(info, '5_9_9_9 is defined as FLOAT only');
    tf = { info, layout, channelKind: 'float', bc: null, srgb: false, convert: [], tables: [] };
  } else {
    const convert = layout.bits.map((_, c) => converter(info, layout, c));
    const tables = layout.bits.map((bits, c) => (bits <= 16 ? tabulate(info, layout, c, convert[c]) : null));
    const channelKind = NUMERIC_KINDS[info.num_format] ?? 'float';
    tf = { info, layout, channelKind, bc: null, srgb: false, convert, tables };
  }
  RESOLVED.set(cacheKey, tf);
  return tf;
}

/**
 * The texel format of a T# format field: the unified FORMAT on gfx10+ (`value`), or
 * DATA_FORMAT (`value`) with NUM_FORMAT (`numFormat`) on gfx7-9.
 */
export function imageTexelFormat(gen: Gen, value: number, numFormat?: number): TexelFormat {
  let info: FormatInfo;
  try {
    if (gen >= Gen.GFX10) info = unifiedFormat(gen, value, 'image');
    else {
      if (numFormat === undefined)
        throw new TexelFormatError('unknown-format', 'gfx7-9 image formats need both DATA_FORMAT and NUM_FORMAT');
      info = legacyImageFormat(gen, value, numFormat);
    }
  } catch (e) {
    if (e instanceof DescriptorError) throw new TexelFormatError('unknown-format', e.reason);
    throw e;
  }
  return texelFormat(info);
}

/** Bytes of one element (or 4x4 block) of a format. */
export function bytesPerElement(format: FormatInfo | TexelFormat): number {
  return texelFormat(format).layout.bytesPerElement;
}

// ---------------------------------------------------------------- decoding

/** One decoded texel: floats, or integers for UINT/SINT formats. Missing components read 0, 0, 0, 1. */
export interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
  readonly kind: ChannelKind;
}

export type RgbaArray = Float32Array | Uint32Array | Int32Array;

function newRgba(kind: ChannelKind, texels: number): RgbaArray {
  return kind === 'uint'
    ? new Uint32Array(texels * 4)
    : kind === 'sint'
      ? new Int32Array(texels * 4)
      : new Float32Array(texels * 4);
}

/** Reads a little-endian unsigned field of `bits` bits at bit offset `shift` of the element at `base`. */
function readField(bytes: Uint8Array, base: number, elemBytes: number, shift: number, bits: number): number {
  if ((shift & 7) === 0 && (bits === 8 || bits === 16 || bits === 32)) {
    const o = base + (shift >> 3);
    if (bits === 8) return bytes[o];
    if (bits === 16) return bytes[o] | (bytes[o + 1] << 8);
    return (bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16) | (bytes[o + 3] << 24)) >>> 0;
  }
  // Packed fields: the element is at most 32 bits; a field of X24_8_32's second dword is byte-aligned above.
  let w = bytes[base];
  if (elemBytes > 1) w |= bytes[base + 1] << 8;
  if (elemBytes > 2) w |= (bytes[base + 2] << 16) | (bytes[base + 3] << 24);
  w >>>= 0;
  return bits === 32 ? w : (w >>> shift) & ((1 << bits) - 1);
}

/** Decodes `count` consecutive elements from `bytes[offset..]` into `out[outOffset..]` (4 channels each). */
export function decodeRow(
  format: FormatInfo | TexelFormat,
  bytes: Uint8Array,
  offset: number,
  count: number,
  out: RgbaArray,
  outOffset = 0,
): void {
  const tf = texelFormat(format);
  const L = tf.layout;
  if (L.kind === 'block')
    throw new TexelFormatError('block-compressed', `${tf.info.name} is block-compressed: use decodeImageLevel`);
  const eb = L.bytesPerElement;
  if (offset < 0 || offset + count * eb > bytes.length)
    throw new TexelFormatError(
      'out-of-bounds',
      `${count} ${tf.info.name} elements at byte ${offset} need ${count * eb} bytes; ${bytes.length - offset} remain`,
    );
  if (L.kind === 'shared-exponent') {
    for (let i = 0, p = offset, o = outOffset; i < count; i++, p += 4, o += 4) {
      const w = (bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24)) >>> 0;
      const scale = 2 ** ((w >>> 27) - 24); // 2^(E - bias 15 - 9 mantissa bits)
      out[o] = (w & 0x1ff) * scale;
      out[o + 1] = ((w >>> 9) & 0x1ff) * scale;
      out[o + 2] = ((w >>> 18) & 0x1ff) * scale;
      out[o + 3] = 1;
    }
    return;
  }
  const n = L.components;
  const conv = tf.convert;
  const tables = tf.tables;
  const bits = L.bits;
  const shifts = L.shifts;
  const uniformBits = L.kind === 'uniform' ? bits[0] : 0;
  if (uniformBits === 8 || uniformBits === 16) {
    // Fast path: byte-aligned 8- or 16-bit components, every one tabulated.
    const wide = uniformBits === 16;
    for (let i = 0, p = offset, o = outOffset; i < count; i++, p += eb, o += 4) {
      for (let c = 0; c < n; c++) {
        const q = wide ? p + 2 * c : p + c;
        out[o + c] = (tables[c] as Float32Array)[wide ? bytes[q] | (bytes[q + 1] << 8) : bytes[q]];
      }
      for (let c = n; c < 3; c++) out[o + c] = 0;
      if (n < 4) out[o + 3] = 1;
    }
    return;
  }
  for (let i = 0, p = offset, o = outOffset; i < count; i++, p += eb, o += 4) {
    for (let c = 0; c < n; c++) {
      const raw = readField(bytes, p, eb, shifts[c], bits[c]);
      const t = tables[c];
      out[o + c] = t !== null ? t[raw] : conv[c](raw);
    }
    for (let c = n; c < 3; c++) out[o + c] = 0;
    if (n < 4) out[o + 3] = 1;
  }
}

/** Decodes the one element at `bytes[offset]` (no per-call state is kept; allocates the result only). */
export function decodeElement(format: FormatInfo | TexelFormat, bytes: Uint8Array, offset: number): Rgba {
  const tf = texelFormat(format);
  const out = newRgba(tf.channelKind, 1);
  decodeRow(tf, bytes, offset, 1, out, 0);
  return { r: out[0], g: out[1], b: out[2], a: out[3], kind: tf.channelKind };
}

export interface LevelOptions {
  /** Byte offset of the level in `bytes` (default 0). */
  readonly offset?: number;
  /** Bytes from one row of elements (one row of blocks for BC) to the next; default: tightly packed. */
  readonly rowPitchBytes?: number;
}

/**
 * Decodes a linear (already detiled) level of `width` x `height` texels to RGBA, row-major,
 * 4 channels a texel: Float32Array for float/normalised formats and BC, Uint32Array for UINT,
 * Int32Array for SINT. BC1-3/BC7 come back as floats in [0, 1] (unorm8 / 255, sRGB variants
 * linearised in RGB); `decodeBcImage` gives their raw unorm8 bytes.
 */
export function decodeImageLevel(
  format: FormatInfo | TexelFormat,
  bytes: Uint8Array,
  width: number,
  height: number,
  options: LevelOptions = {},
): RgbaArray {
  const tf = texelFormat(format);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new TexelFormatError('bad-size', `image size ${width}x${height} is not positive integers`);
  const L = tf.layout;
  const cols = Math.ceil(width / L.blockWidth);
  const rows = Math.ceil(height / L.blockHeight);
  const tight = cols * L.bytesPerElement;
  const pitch = options.rowPitchBytes ?? tight;
  const offset = options.offset ?? 0;
  if (!Number.isInteger(pitch) || pitch < tight)
    throw new TexelFormatError(
      'bad-size',
      `row pitch ${pitch} is below the ${tight} bytes a row of ${tf.info.name} needs`,
    );
  const need = offset + (rows - 1) * pitch + tight;
  if (offset < 0 || need > bytes.length)
    throw new TexelFormatError(
      'out-of-bounds',
      `a ${width}x${height} ${tf.info.name} level needs ${need} bytes from 0; ${bytes.length} given`,
    );
  if (tf.bc !== null) {
    const view = bytes.subarray(offset, need);
    const dec = decodeBcImage(tf.bc, view, width, height, pitch);
    if (dec instanceof Float32Array) return dec;
    const out = new Float32Array(width * height * 4);
    if (tf.srgb)
      for (let i = 0; i < out.length; i += 4) {
        out[i] = SRGB8_TO_LINEAR[dec[i]];
        out[i + 1] = SRGB8_TO_LINEAR[dec[i + 1]];
        out[i + 2] = SRGB8_TO_LINEAR[dec[i + 2]];
        out[i + 3] = dec[i + 3] / 255;
      }
    else for (let i = 0; i < out.length; i++) out[i] = dec[i] / 255;
    return out;
  }
  const out = newRgba(tf.channelKind, width * height);
  for (let y = 0; y < height; y++) decodeRow(tf, bytes, offset + y * pitch, width, out, y * width * 4);
  return out;
}

/**
 * The unorm8 RGBA bytes of a level, without conversion: BC1-3/BC7 as their decoders give them,
 * and 8-bit UNORM/SRGB formats widened to four channels (missing ones 0, 0, 0, 255). sRGB data
 * stays encoded (for an rgba8unorm-srgb texture). Other formats are refused.
 */
export function decodeUnorm8Level(
  format: FormatInfo | TexelFormat,
  bytes: Uint8Array,
  width: number,
  height: number,
  options: LevelOptions = {},
): Uint8Array {
  const tf = texelFormat(format);
  const L = tf.layout;
  const num = tf.info.num_format;
  const bc8 = tf.bc === 'bc1' || tf.bc === 'bc2' || tf.bc === 'bc3' || tf.bc === 'bc7';
  const plain8 = L.kind === 'uniform' && L.bits[0] === 8 && (num === 'UNORM' || num === 'SRGB');
  if (!bc8 && !plain8) throw unmodelledNum(tf.info, 'has no unorm8 form (use decodeImageLevel)');
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new TexelFormatError('bad-size', `image size ${width}x${height} is not positive integers`);
  const cols = Math.ceil(width / L.blockWidth);
  const rows = Math.ceil(height / L.blockHeight);
  const tight = cols * L.bytesPerElement;
  const pitch = options.rowPitchBytes ?? tight;
  const offset = options.offset ?? 0;
  if (!Number.isInteger(pitch) || pitch < tight)
    throw new TexelFormatError(
      'bad-size',
      `row pitch ${pitch} is below the ${tight} bytes a row of ${tf.info.name} needs`,
    );
  const need = offset + (rows - 1) * pitch + tight;
  if (offset < 0 || need > bytes.length)
    throw new TexelFormatError(
      'out-of-bounds',
      `a ${width}x${height} ${tf.info.name} level needs ${need} bytes from 0; ${bytes.length} given`,
    );
  if (bc8) return decodeBcImage(tf.bc as BcKind, bytes.subarray(offset, need), width, height, pitch) as Uint8Array;
  const n = L.components;
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const s = offset + y * pitch + x * n;
      const d = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) out[d + c] = c < n ? bytes[s + c] : c === 3 ? 255 : 0;
    }
  return out;
}
