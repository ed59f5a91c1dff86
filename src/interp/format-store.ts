/**
 * Register words to and from formatted buffer elements (D009): the loads' direction reuses
 * `decodeElement` from `src/host/texels/formats.ts`; this file adds the inverse for
 * `*_store_format_*` (a register word, as the format's channel kind, to the field's bits) and
 * the 16-bit packing of the d16 forms. Float channels are f32 bits in a register; UINT/SINT
 * channels are integers.
 *
 * Conversions on store (Vega ISA "Data Conversion", recalled, not re-read): UNORM / SNORM
 * clamp to [0, 1] / [-1, 1] and round to nearest (NaN → 0); USCALED / SSCALED clamp the float
 * to the field's range and round to nearest; UINT / SINT keep the low bits of the integer
 * (no clamp); FLOAT 32 is the bits, FLOAT 16 rounds to nearest even. SRGB, the 10/11-bit
 * floats, shared-exponent and depth-stencil layouts are refused by name (`TexelFormatError`).
 */
import { decodeElement, TexelFormatError, type Rgba, type TexelFormat } from '../host/texels/formats.ts';
import { f16FromF32Bits, f32Bits, f32FromF16Bits, f32Value } from '../semantics/float.ts';
import type { DstSel } from '../host/descriptors/index.ts';

const KEEP = { f32Denormals: true, f64f16Denormals: true } as const;

/** A decoded channel as a register word (f32 bits for float channels). */
export function channelWord(kind: Rgba['kind'], v: number): number {
  return kind === 'float' ? f32Bits(v) : kind === 'sint' ? v | 0 : v >>> 0;
}

/** The four register words of an element after DST_SEL (null: no selection, X Y Z W as read). */
export function loadElement(
  tf: TexelFormat,
  bytes: Uint8Array | null,
  dstSel: readonly DstSel[] | null,
): [number, number, number, number] {
  const kind = tf.channelKind;
  const one = kind === 'float' ? 0x3f800000 : 1;
  // Out of range: every channel reads 0 before DST_SEL (ISA "buffer range checking"), so only a selected 1 survives.
  const c = bytes ? decodeElement(tf, bytes, 0) : { r: 0, g: 0, b: 0, a: 0, kind };
  const raw = [c.r, c.g, c.b, c.a].map((v) => channelWord(kind, v));
  const sel = (s: DstSel): number =>
    s === '0' ? 0 : s === '1' ? one : raw[s === 'x' ? 0 : s === 'y' ? 1 : s === 'z' ? 2 : 3];
  if (!dstSel) return [raw[0], raw[1], raw[2], raw[3]];
  return [sel(dstSel[0]), sel(dstSel[1]), sel(dstSel[2]), sel(dstSel[3])];
}

/** A register word (f32 bits or an integer) as a d16 half: f16 for float channels, the low 16 bits otherwise. */
export function toD16(kind: Rgba['kind'], word: number): number {
  return kind === 'float' ? f16FromF32Bits(word >>> 0, false, KEEP) : word & 0xffff;
}

/** A d16 half as a register word of the channel kind (for d16 stores). */
export function fromD16(kind: Rgba['kind'], half: number): number {
  if (kind === 'float') return f32FromF16Bits(half & 0xffff, KEEP);
  return kind === 'sint' ? (half << 16) >> 16 : half & 0xffff;
}

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function clampRound(x: number, lo: number, hi: number): number {
  if (Number.isNaN(x)) return 0;
  return roundHalfEven(Math.min(hi, Math.max(lo, x)));
}

/** One component's field bits from a register word. */
export function encodeComponent(tf: TexelFormat, comp: number, word: number): number {
  const bits = tf.layout.bits[comp];
  const mask = bits >= 32 ? 0xffffffff : 2 ** bits - 1;
  const num = tf.info.num_format;
  const f = (): number => f32Value(word >>> 0);
  const smax = 2 ** (bits - 1) - 1;
  const field = (v: number): number => (bits >= 32 ? v >>> 0 : (v & mask) >>> 0);
  switch (num) {
    case 'UNORM':
      return clampRound(f() * mask, 0, mask);
    case 'SNORM':
      return field(clampRound(Math.min(1, Math.max(-1, f())) * smax, -smax, smax));
    case 'USCALED':
      return clampRound(f(), 0, mask);
    case 'SSCALED':
      return field(clampRound(f(), -smax - 1, smax));
    case 'UINT':
    case 'SINT':
      return field(word);
    case 'FLOAT':
      if (bits === 32) return word >>> 0;
      if (bits === 16) return f16FromF32Bits(word >>> 0, false, KEEP);
      break;
  }
  throw new TexelFormatError(
    'unmodelled-number-format',
    `${tf.info.name}: stores of ${num} on ${bits} bits are not modelled`,
  );
}

/**
 * The element's bytes with the first `n` components from `words`. Components the instruction
 * does not supply keep the bytes of `old` where the layout is byte-aligned (a partial write);
 * a packed layout needs every component, or it is refused.
 */
export function encodeElement(
  tf: TexelFormat,
  words: readonly number[],
  n: number,
): { readonly bytes: Uint8Array; readonly mask: Uint8Array } {
  const L = tf.layout;
  if (L.kind !== 'uniform' && L.kind !== 'packed')
    throw new TexelFormatError(
      'unmodelled-data-format',
      `${tf.info.name}: stores of a ${L.kind} layout are not modelled`,
    );
  const size = L.bytesPerElement;
  const bytes = new Uint8Array(size);
  const mask = new Uint8Array(size);
  const count = Math.min(n, L.components);
  if (L.kind === 'packed') {
    if (count < L.components)
      throw new TexelFormatError(
        'unmodelled-data-format',
        `${tf.info.name}: a partial store of a packed element is not modelled`,
      );
    let w = 0;
    for (let c = 0; c < count; c++) w = (w | (encodeComponent(tf, c, words[c]) << L.shifts[c])) >>> 0;
    for (let i = 0; i < size; i++) {
      bytes[i] = (w >>> (8 * i)) & 0xff;
      mask[i] = 1;
    }
    return { bytes, mask };
  }
  for (let c = 0; c < count; c++) {
    const v = encodeComponent(tf, c, words[c]);
    const nb = L.bits[c] / 8;
    const at = L.shifts[c] / 8;
    for (let i = 0; i < nb; i++) {
      bytes[at + i] = (v >>> (8 * i)) & 0xff;
      mask[at + i] = 1;
    }
  }
  return { bytes, mask };
}
