/**
 * Bytes for `capture build` regions: hex text, typed numbers, and generated images
 * (docs/capture-spec.md). Pure functions, little-endian throughout.
 */
import { CaptureError } from './errors.ts';

const bad = (path: string, why: string): CaptureError => new CaptureError('invalid-spec', `${path}: ${why}`);

/** "de ad be ef", "0xdeadbeef" or "deadbeef": pairs of hex digits, whitespace, commas and `_` ignored. */
export function hexBytes(text: string, path: string): Uint8Array {
  const t = text.replace(/^0x/i, '').replace(/[\s,_]+/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(t)) throw bad(path, 'hex must be pairs of hex digits');
  const out = new Uint8Array(t.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export const TYPED_SIZES = {
  u8: 1,
  i8: 1,
  u16: 2,
  i16: 2,
  f16: 2,
  u32: 4,
  i32: 4,
  f32: 4,
  u64: 8,
  i64: 8,
  f64: 8,
} as const;
export type TypedName = keyof typeof TYPED_SIZES;

/** f32 -> binary16 bits, round to nearest even (NaN stays NaN, overflow goes to infinity). */
export function f16Bits(value: number): number {
  const f = new Float32Array([value]);
  const x = new Uint32Array(f.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let r = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    if (rest > half || (rest === half && r & 1)) r++;
    return sign | r;
  }
  let r = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && r & 1)) r++;
  return sign | r;
}

function floatValue(v: unknown, path: string): number | bigint {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'nan') return NaN;
    if (s === 'inf' || s === '+inf') return Infinity;
    if (s === '-inf') return -Infinity;
    if (/^0x[0-9a-f]+$/.test(s)) return BigInt(s); // raw bits
  }
  throw bad(path, `${JSON.stringify(v)} is not a number, "nan", "inf", "-inf" or "0x" raw bits`);
}

function intValue(v: unknown, path: string): bigint {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?(0x[0-9a-f]+|[0-9]+)$/i.test(v.trim())) {
    const s = v.trim();
    return s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s);
  }
  throw bad(path, `${JSON.stringify(v)} is not an integer`);
}

/** Typed numbers, packed little-endian. Integers must fit the type; floats may be given as raw bits ("0x3f800000"). */
export function typedBytes(type: string, values: readonly unknown[], path: string): Uint8Array {
  if (!(type in TYPED_SIZES)) throw bad(path, `type '${type}' is not one of ${Object.keys(TYPED_SIZES).join(', ')}`);
  const t = type as TypedName;
  const size = TYPED_SIZES[t];
  const out = new Uint8Array(values.length * size);
  const dv = new DataView(out.buffer);
  values.forEach((raw, i) => {
    const p = `${path}[${i}]`;
    const at = i * size;
    if (t === 'f16' || t === 'f32' || t === 'f64') {
      const v = floatValue(raw, p);
      if (typeof v === 'bigint') {
        if (v >= 1n << BigInt(size * 8)) throw bad(p, `raw bits ${raw as string} do not fit ${t}`);
        if (t === 'f64') dv.setBigUint64(at, v, true);
        else if (t === 'f32') dv.setUint32(at, Number(v), true);
        else dv.setUint16(at, Number(v), true);
      } else if (t === 'f64') dv.setFloat64(at, v, true);
      else if (t === 'f32') dv.setFloat32(at, v, true);
      else dv.setUint16(at, f16Bits(v), true);
      return;
    }
    const v = intValue(raw, p);
    const bits = BigInt(size * 8);
    const signed = t.startsWith('i');
    const lo = signed ? -(1n << (bits - 1n)) : 0n;
    const hi = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
    if (v < lo || v > hi) throw bad(p, `${String(raw)} does not fit ${t}`);
    const u = BigInt.asUintN(size * 8, v);
    if (size === 8) dv.setBigUint64(at, u, true);
    else if (size === 4) dv.setUint32(at, Number(u), true);
    else if (size === 2) dv.setUint16(at, Number(u), true);
    else dv.setUint8(at, Number(u));
  });
  return out;
}

/** Generated-image formats: channel count, channel type. */
export const IMAGE_FORMATS = {
  r8_unorm: { channels: 1, type: 'unorm8' },
  rg8_unorm: { channels: 2, type: 'unorm8' },
  rgba8_unorm: { channels: 4, type: 'unorm8' },
  r16_unorm: { channels: 1, type: 'unorm16' },
  rgba16_unorm: { channels: 4, type: 'unorm16' },
  r16_float: { channels: 1, type: 'f16' },
  rg16_float: { channels: 2, type: 'f16' },
  rgba16_float: { channels: 4, type: 'f16' },
  r32_float: { channels: 1, type: 'f32' },
  rg32_float: { channels: 2, type: 'f32' },
  rgba32_float: { channels: 4, type: 'f32' },
  r32_uint: { channels: 1, type: 'u32' },
  rgba32_uint: { channels: 4, type: 'u32' },
} as const;
export type ImageFormatName = keyof typeof IMAGE_FORMATS;

const CHANNEL_BYTES = { unorm8: 1, unorm16: 2, f16: 2, f32: 4, u32: 4 } as const;

export const PATTERNS = ['gradient', 'checker', 'index', 'solid'] as const;
export type Pattern = (typeof PATTERNS)[number];

export interface ImageSpec {
  readonly format: ImageFormatName;
  readonly width: number;
  readonly height: number;
  readonly mips: number;
  readonly layers: number;
  readonly pattern: Pattern;
  /** checker: the cell's side in texels (default 1). */
  readonly cell?: number;
  /** solid: the value of each channel, in [0, 1] (unorm, float) or an integer (uint). */
  readonly value?: readonly number[];
  /** Rows are padded to a multiple of this many texels (default 1: tightly packed). */
  readonly row_align?: number;
}

/** The bytes of one mip level's row, the image's linear layout (level-major, then layer, then row). */
export function imageLevels(
  spec: ImageSpec,
): { level: number; layer: number; offset: number; width: number; height: number; rowBytes: number }[] {
  const f = IMAGE_FORMATS[spec.format];
  const texel = f.channels * CHANNEL_BYTES[f.type];
  const align = spec.row_align ?? 1;
  const out = [];
  let offset = 0;
  for (let level = 0; level < spec.mips; level++) {
    const width = Math.max(1, spec.width >> level);
    const height = Math.max(1, spec.height >> level);
    const rowBytes = Math.ceil(width / align) * align * texel;
    for (let layer = 0; layer < spec.layers; layer++) {
      out.push({ level, layer, offset, width, height, rowBytes });
      offset += rowBytes * height;
    }
  }
  return out;
}

/**
 * A generated image, linear: for each mip level, for each layer, rows top to bottom.
 * gradient: r = x/(w-1), g = y/(h-1), b = layer/(layers-1) (or level/(mips-1) for one layer), a = 1.
 * checker: r = g = b = ((x/cell + y/cell) odd ? 1 : 0), a = 1.
 * index: texel i (counting over the whole image) has channel c = i*channels + c (mod 2^bits for unorm).
 * solid: every texel `value`.
 */
export function imageBytes(spec: ImageSpec, path: string): Uint8Array {
  const f = IMAGE_FORMATS[spec.format];
  if (!f) throw bad(path, `format '${String(spec.format)}' is not one of ${Object.keys(IMAGE_FORMATS).join(', ')}`);
  for (const k of ['width', 'height', 'mips', 'layers'] as const)
    if (!Number.isInteger(spec[k]) || spec[k] < 1 || spec[k] > 16384)
      throw bad(path, `${k} must be an integer 1..16384`);
  if (spec.mips > 1 + Math.floor(Math.log2(Math.max(spec.width, spec.height))))
    throw bad(path, `${spec.mips} mips is more than a ${spec.width}x${spec.height} image has`);
  if (!(PATTERNS as readonly string[]).includes(spec.pattern))
    throw bad(path, `pattern '${String(spec.pattern)}' is not one of ${PATTERNS.join(', ')}`);
  if (spec.pattern === 'solid' && (!spec.value || spec.value.length !== f.channels))
    throw bad(path, `a solid image needs value: ${f.channels} numbers`);
  const levels = imageLevels(spec);
  const last = levels[levels.length - 1];
  const total = last.offset + last.rowBytes * last.height;
  if (total > 256 * 2 ** 20)
    throw bad(path, `the image would take ${total} bytes; generated images are limited to 256 MiB`);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  const cb = CHANNEL_BYTES[f.type];
  const cell = spec.cell ?? 1;
  let index = 0;
  for (const L of levels) {
    for (let y = 0; y < L.height; y++)
      for (let x = 0; x < L.width; x++, index++) {
        for (let c = 0; c < f.channels; c++) {
          let v: number;
          let raw: number | undefined;
          switch (spec.pattern) {
            case 'gradient': {
              const third =
                spec.layers > 1 ? L.layer / (spec.layers - 1) : spec.mips > 1 ? L.level / (spec.mips - 1) : 0;
              v = [L.width > 1 ? x / (L.width - 1) : 0, L.height > 1 ? y / (L.height - 1) : 0, third, 1][c];
              break;
            }
            case 'checker':
              v = c === 3 ? 1 : (Math.floor(x / cell) + Math.floor(y / cell)) % 2;
              break;
            case 'index':
              raw = index * f.channels + c;
              v = raw;
              break;
            case 'solid':
              v = spec.value![c];
              break;
          }
          const at = L.offset + y * L.rowBytes + (x * f.channels + c) * cb;
          switch (f.type) {
            case 'unorm8':
              dv.setUint8(at, raw !== undefined ? raw & 0xff : Math.round(Math.min(1, Math.max(0, v)) * 255));
              break;
            case 'unorm16':
              dv.setUint16(
                at,
                raw !== undefined ? raw & 0xffff : Math.round(Math.min(1, Math.max(0, v)) * 65535),
                true,
              );
              break;
            case 'f16':
              dv.setUint16(at, f16Bits(v), true);
              break;
            case 'f32':
              dv.setFloat32(at, v, true);
              break;
            case 'u32':
              dv.setUint32(at, (raw ?? Math.round(v)) >>> 0, true);
              break;
          }
        }
      }
  }
  return out;
}
