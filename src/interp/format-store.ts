/**
 * Register words to and from formatted buffer elements (D009): the loads' direction reuses
 * `decodeElement` from `src/host/texels/formats.ts`; this file adds the inverse for
 * `*_store_format_*` (a register word, as the format's channel kind, to the field's bits) and
 * the 16-bit packing of the d16 forms. Float channels are f32 bits in a register; UINT/SINT
 * channels are integers.
 *
 * Conversions on store (Vega ISA "Data Conversion", recalled, not re-read): UNORM / SNORM
 * clamp to [0, 1] / [-1, 1] and round to nearest even (NaN → 0); USCALED / SSCALED clamp the
 * float to the field's range and round to nearest even; UINT / SINT keep the low bits of the
 * integer (no clamp); FLOAT 32 is the bits, FLOAT 16 rounds to nearest even. SRGB, the 10/11-bit
 * floats, shared-exponent and depth-stencil layouts are refused by name (`TexelFormatError`).
 *
 * Both directions are written once over the algebra (`decodeElementOver`, `encodeElementOver`):
 * the interpreter runs them on the concrete algebra, the translator on expressions, so a format
 * access means the same on the CPU and on the GPU. Normalised stores are exact integer
 * arithmetic on the f32's mantissa (the product f * (2^n - 1) has at most 56 bits).
 */
import { decodeElement, TexelFormatError, type Rgba, type TexelFormat } from '../host/texels/formats.ts';
import { f16FromF32Bits, f32Bits, f32FromF16Bits } from '../semantics/float.ts';
import { DST_SEL, type DstSel } from '../host/descriptors/index.ts';
import type { Algebra } from '../semantics/algebra.ts';
import { concrete } from '../semantics/concrete.ts';
import { add64, findMsbFromTop64, lshr64, pairEq, shl64, sub64 } from '../semantics/wide.ts';
import type { Pair } from '../semantics/algebra.ts';

const KEEP = { f32Denormals: true, f64f16Denormals: true } as const;

/** A decoded channel as a register word (f32 bits for float channels). */
export function channelWord(kind: Rgba['kind'], v: number): number {
  return kind === 'float' ? f32Bits(v) : kind === 'sint' ? v | 0 : v >>> 0;
}

/**
 * The four register words of an element after DST_SEL (null: no selection, X Y Z W as read).
 * Formats `decodeElementOver` models go through it (the rule the translator shares); the others
 * through the texel decoder. Out of range (`bytes` null) every channel reads 0 before DST_SEL
 * (ISA "buffer range checking"), so only a selected 1 survives.
 */
export function loadElement(
  tf: TexelFormat,
  bytes: Uint8Array | null,
  dstSel: readonly DstSel[] | null,
): [number, number, number, number] {
  const kind = tf.channelKind;
  let raw: [number, number, number, number];
  if (!bytes) raw = [0, 0, 0, 0];
  else if (overAlgebra(tf)) {
    const word = (i: number): number =>
      (bytes[4 * i] |
        ((bytes[4 * i + 1] ?? 0) << 8) |
        ((bytes[4 * i + 2] ?? 0) << 16) |
        ((bytes[4 * i + 3] ?? 0) << 24)) >>>
      0;
    raw = decodeElementOver(concrete, tf, word);
  } else {
    const c = decodeElement(tf, bytes, 0);
    raw = [c.r, c.g, c.b, c.a].map((v) => channelWord(kind, v)) as [number, number, number, number];
  }
  if (!dstSel) return raw;
  return selectChannels(concrete, kind, raw, dstSel.map((s) => DST_SEL[s]) as [number, number, number, number]);
}

/** Whether `decodeElementOver` models the format (the translator refuses the others). */
export function overAlgebra(tf: TexelFormat): boolean {
  let known = MODELLED.get(tf);
  if (known === undefined) {
    try {
      decodeElementOver(concrete, tf, () => 0);
      known = true;
    } catch (e) {
      if (!(e instanceof TexelFormatError)) throw e;
      known = false;
    }
    MODELLED.set(tf, known);
  }
  return known;
}
const MODELLED = new WeakMap<TexelFormat, boolean>();

/** A register word (f32 bits or an integer) as a d16 half: f16 for float channels, the low 16 bits otherwise. */
export function toD16(kind: Rgba['kind'], word: number): number {
  return kind === 'float' ? f16FromF32Bits(word >>> 0, false, KEEP) : word & 0xffff;
}

/** A d16 half as a register word of the channel kind (for d16 stores). */
export function fromD16(kind: Rgba['kind'], half: number): number {
  if (kind === 'float') return f32FromF16Bits(half & 0xffff, KEEP);
  return kind === 'sint' ? (half << 16) >> 16 : half & 0xffff;
}

/** One component's field bits from a register word (`encodeComponentOver` on numbers). */
export function encodeComponent(tf: TexelFormat, comp: number, word: number): number {
  return encodeComponentOver(concrete, tf, comp, word >>> 0) >>> 0;
}

/**
 * The element's bytes with the first `n` components from `words` (`encodeElementOver` on
 * numbers): `mask` marks the bytes written, the others keep memory's (a partial write of a
 * byte-aligned layout).
 */
export function encodeElement(
  tf: TexelFormat,
  words: readonly number[],
  n: number,
): { readonly bytes: Uint8Array; readonly mask: Uint8Array } {
  const fields = encodeElementOver(
    concrete,
    tf,
    words.map((w) => w >>> 0),
    n,
  );
  const size = tf.layout.bytesPerElement;
  const bytes = new Uint8Array(size);
  const mask = new Uint8Array(size);
  for (const f of fields)
    for (let i = 0; i < f.bytes; i++) {
      bytes[f.at + i] = (f.value >>> (8 * i)) & 0xff;
      mask[f.at + i] = 1;
    }
  return { bytes, mask };
}

/** x < y on 64-bit pairs (unsigned). */
function ltU64<V, B>(a: Algebra<V, B>, x: Pair<V>, y: Pair<V>): B {
  return a.boolOr(a.ltU(x[1], y[1]), a.boolAnd(a.eq(x[1], y[1]), a.ltU(x[0], y[0])));
}

/**
 * round-half-even(f * max) for f32 bits `f` with 0 < f < 1 and an integer max < 2^32, in integer
 * arithmetic: f = m * 2^(e - 150) (m its 24-bit significand, e its biased exponent, 1 for a
 * subnormal), so the product is the 56-bit m * max shifted right by 150 - e >= 24 bits and rounded.
 */
function scaleFractionRne<V, B>(a: Algebra<V, B>, f: V, max: number): V {
  const biased = a.and(a.lshr(f, a.word(23)), a.word(0xff));
  const sub = a.eq(biased, a.word(0));
  const m = a.select(sub, a.and(f, a.word(0x7fffff)), a.or(a.and(f, a.word(0x7fffff)), a.word(0x800000)));
  const e = a.select(sub, a.word(1), biased);
  const product: Pair<V> = [a.mulLo(m, a.word(max >>> 0)), a.mulHiU(m, a.word(max >>> 0))];
  const shift = a.sub(a.word(150), e);
  // 63 bits or more: the product (< 2^56) is below a half.
  const far = a.leU(a.word(63), shift);
  const s = a.select(far, a.word(62), shift);
  const q = lshr64(a, product, s);
  const rem = sub64(a, product, shl64(a, q, s));
  const half = shl64(a, [a.word(1), a.word(0)], a.sub(s, a.word(1)));
  const up = a.boolOr(ltU64(a, half, rem), a.boolAnd(pairEq(a, rem, half), a.toBool(a.and(q[0], a.word(1)))));
  const rounded = add64(a, q, [a.fromBool(up), a.word(0)])[0];
  return a.select(far, a.word(0), rounded);
}

/** A NaN test on f32 bits. */
function isNanBits<V, B>(a: Algebra<V, B>, f: V): B {
  return a.ltU(a.word(0x7f800000), a.and(f, a.word(0x7fffffff)));
}

/**
 * round-half-even(clamp(|f|, 0, 1) * max), NaN 0, for a normalised store's magnitude: 0 for
 * |f| = 0, max for |f| >= 1, else `scaleFractionRne`.
 */
function normalisedMagnitude<V, B>(a: Algebra<V, B>, f: V, max: number): V {
  const mag = a.and(f, a.word(0x7fffffff));
  return a.select(
    isNanBits(a, f),
    a.word(0),
    a.select(
      a.leU(a.word(0x3f800000), mag),
      a.word(max >>> 0),
      a.select(a.eq(mag, a.word(0)), a.word(0), scaleFractionRne(a, mag, max)),
    ),
  );
}

const KEEP_MODE = KEEP;

/**
 * One component's field bits from a register word, over the algebra (the store conversions of
 * this file's header). Number formats the stores do not model are a `TexelFormatError`.
 */
export function encodeComponentOver<V, B>(a: Algebra<V, B>, tf: TexelFormat, comp: number, word: V): V {
  const bits = tf.layout.bits[comp];
  const mask = bits >= 32 ? 0xffffffff : 2 ** bits - 1;
  const num = tf.info.num_format;
  const smax = 2 ** (bits - 1) - 1;
  const field = (v: V): V => (bits >= 32 ? v : a.and(v, a.word(mask)));
  const negative = a.boolAnd(a.toBool(a.and(word, a.word(0x80000000))), a.boolNot(isNanBits(a, word)));
  switch (num) {
    case 'UNORM':
      return a.select(negative, a.word(0), normalisedMagnitude(a, word, mask));
    case 'SNORM': {
      if (bits < 2) break;
      const v = normalisedMagnitude(a, word, smax);
      return field(a.select(negative, a.sub(a.word(0), v), v));
    }
    case 'USCALED':
      // Rounded to an integer first, then converted (exact) and clamped: the order of the two
      // does not matter for integer bounds. NaN and negatives give 0 (fToU32 saturates).
      return a.minU(a.fToU32(a.fRound('rndne', word, KEEP_MODE), KEEP_MODE), a.word(mask));
    case 'SSCALED': {
      const i = a.fToI32(a.fRound('rndne', word, KEEP_MODE), KEEP_MODE);
      if (bits >= 32) return i;
      return field(a.maxI(a.minI(i, a.word(smax)), a.word(-smax - 1)));
    }
    case 'UINT':
    case 'SINT':
      return field(word);
    case 'FLOAT':
      if (bits === 32) return word;
      if (bits === 16) return a.fToF16(word, false, KEEP_MODE);
      break;
  }
  throw new TexelFormatError(
    'unmodelled-number-format',
    `${tf.info.name}: stores of ${num} on ${bits} bits are not modelled`,
  );
}

/** A field of a stored element: `bytes` bytes (1, 2 or 4) at byte `at` of the element. */
export interface StoredField<V> {
  readonly at: number;
  readonly bytes: 1 | 2 | 4;
  readonly value: V;
}

/**
 * The fields a store of the first `n` components from `words` writes, over the algebra: a
 * packed element as one word (it needs every component, or it is refused), a byte-aligned one
 * as a field per component (the components it does not supply keep memory's bytes). Other
 * layouts are a `TexelFormatError`.
 */
export function encodeElementOver<V, B>(
  a: Algebra<V, B>,
  tf: TexelFormat,
  words: readonly V[],
  n: number,
): StoredField<V>[] {
  const L = tf.layout;
  if (L.kind !== 'uniform' && L.kind !== 'packed')
    throw new TexelFormatError(
      'unmodelled-data-format',
      `${tf.info.name}: stores of a ${L.kind} layout are not modelled`,
    );
  const count = Math.min(n, L.components);
  if (L.kind === 'packed') {
    if (count < L.components)
      throw new TexelFormatError(
        'unmodelled-data-format',
        `${tf.info.name}: a partial store of a packed element is not modelled`,
      );
    let w = a.word(0);
    for (let c = 0; c < count; c++) w = a.or(w, a.shl(encodeComponentOver(a, tf, c, words[c]!), a.word(L.shifts[c])));
    return [{ at: 0, bytes: L.bytesPerElement as 1 | 2 | 4, value: w }];
  }
  const fields: StoredField<V>[] = [];
  for (let c = 0; c < count; c++)
    fields.push({
      at: L.shifts[c] / 8,
      bytes: (L.bits[c] / 8) as 1 | 2 | 4,
      value: encodeComponentOver(a, tf, c, words[c]!),
    });
  return fields;
}

/** `fromD16` over the algebra: a d16 half as a register word of the channel kind. */
export function fromD16Over<V, B>(a: Algebra<V, B>, kind: Rgba['kind'], half: V): V {
  const h = a.and(half, a.word(0xffff));
  if (kind === 'float') return a.fFromF16(h, KEEP);
  return kind === 'sint' ? a.sext(h, 16) : h;
}

/**
 * u / (2^n - 1) as f32 bits, for a field u of n bits (1-16): UNORM (and SNORM's magnitude) in
 * integer arithmetic, over the algebra, so every back end gives the same bits. For 0 < u < 2^n - 1
 * the quotient's binary expansion is u's n bits repeated forever (2^n - 1 is odd, so it never
 * ends): 64 bits of it, normalised, give the mantissa and the round bit, and the rest is never
 * zero, so the nearest f32 is the truncation plus the round bit (no ties). That is also f32 of
 * the f64 quotient the texel decoder computes: a tie after rounding to 53 bits would need 28
 * equal bits in a row, which only 0 and 2^n - 1 have (the exhaustive test in buffer.test.ts).
 */
export function unormBits<V, B>(a: Algebra<V, B>, u: V, n: number): V {
  if (n < 1 || n > 16) throw new TexelFormatError('unmodelled-number-format', `a ${n}-bit normalised field`);
  const max = 2 ** n - 1;
  let lo = a.word(0);
  let hi = a.word(0);
  for (let s = 64 - n; s > -n; s -= n) {
    if (s >= 32) hi = a.or(hi, a.shl(u, a.word(s - 32)));
    else if (s >= 0) {
      lo = a.or(lo, a.shl(u, a.word(s)));
      if (s > 0 && s + n > 32) hi = a.or(hi, a.lshr(u, a.word(32 - s)));
    } else lo = a.or(lo, a.lshr(u, a.word(-s)));
  }
  const clz = findMsbFromTop64(a, [lo, hi]);
  const [, top] = shl64(a, [lo, hi], clz);
  const mantissa = a.and(a.lshr(top, a.word(8)), a.word(0x7fffff));
  const round = a.and(a.lshr(top, a.word(7)), a.word(1));
  const bits = a.add(a.add(a.shl(a.sub(a.word(126), clz), a.word(23)), mantissa), round);
  return a.select(a.eq(u, a.word(0)), a.word(0), a.select(a.eq(u, a.word(max)), a.word(0x3f800000), bits));
}

const F32_ONE = 0x3f800000;

/**
 * One component's register word from its raw field bits, over the algebra (the texel decoder's
 * conversions, `src/host/texels/formats.ts`, for the number formats buffers use): UNORM and SNORM
 * (`unormBits`; -2^(n-1) is -1), USCALED / SSCALED to f32, UINT / SINT as integers, FLOAT 32 as
 * its bits and 16 through f16. Other number formats (SNORM_OGL, SRGB, the 10/11-bit floats) are a
 * `TexelFormatError`.
 */
export function decodeComponent<V, B>(a: Algebra<V, B>, tf: TexelFormat, comp: number, raw: V): V {
  const bits = tf.layout.bits[comp];
  const num = tf.info.num_format;
  const signed = (): V => (bits >= 32 ? raw : a.ashr(a.shl(raw, a.word(32 - bits)), a.word(32 - bits)));
  switch (num) {
    case 'UNORM':
      return unormBits(a, raw, bits);
    case 'SNORM': {
      if (bits < 2) break;
      const s = signed();
      const neg = a.ltI(s, a.word(0));
      const magnitude = a.select(neg, a.sub(a.word(0), s), s);
      const v = unormBits(a, a.minU(magnitude, a.word(2 ** (bits - 1) - 1)), bits - 1);
      return a.select(neg, a.or(v, a.word(0x80000000)), v);
    }
    case 'USCALED':
      return a.fFromU32(raw);
    case 'SSCALED':
      return a.fFromI32(signed());
    case 'UINT':
      return raw;
    case 'SINT':
      return signed();
    case 'FLOAT':
      if (bits === 32 && tf.layout.kind !== 'depth-stencil') return raw;
      if (bits === 16) return a.fFromF16(raw, KEEP);
      if ((bits === 11 || bits === 10) && (tf.layout.dataFormat === '10_11_11' || tf.layout.dataFormat === '11_11_10'))
        return ufloatBits(a, raw, bits - 5);
      break;
  }
  throw new TexelFormatError(
    'unmodelled-number-format',
    `${tf.info.name}: ${num} on ${bits} bits is not modelled over the algebra`,
  );
}

/**
 * An unsigned small float (5-bit exponent, bias 15, `mantissaBits` of mantissa: the 11- and
 * 10-bit channels of 10_11_11 / 11_11_10) as f32 bits, exactly (`ufloatToFloat` in
 * src/host/texels/numbers.ts): (2^mb + m) * 2^(e - 15 - mb), or m * 2^(-14 - mb) for e = 0, both
 * an integer below 2^7 scaled by a power of two (exact); exponent 31 is infinity, or the quiet NaN
 * 0x7fc00000 the texel decoder's f32 gives (the payload is not kept).
 */
function ufloatBits<V, B>(a: Algebra<V, B>, raw: V, mantissaBits: number): V {
  const e = a.lshr(raw, a.word(mantissaBits));
  const m = a.and(raw, a.word(2 ** mantissaBits - 1));
  const denormal = a.eq(e, a.word(0));
  const significand = a.select(denormal, m, a.or(m, a.word(2 ** mantissaBits)));
  const exponent = a.sub(a.select(denormal, a.word(1), e), a.word(15 + mantissaBits));
  const finite = a.fLdexp(a.fFromU32(significand), exponent, KEEP);
  const special = a.select(a.eq(m, a.word(0)), a.word(0x7f800000), a.word(0x7fc00000));
  return a.select(a.eq(e, a.word(31)), special, finite);
}

/**
 * An element's channels as register words from its little-endian dwords (`word(i)`), over the
 * algebra: uniform and packed layouts of at most 16 bytes; missing components read 0 and a
 * missing W reads 1 (1.0 for float channels). Other layouts are a `TexelFormatError`.
 */
export function decodeElementOver<V, B>(a: Algebra<V, B>, tf: TexelFormat, word: (i: number) => V): [V, V, V, V] {
  const L = tf.layout;
  if (L.kind !== 'uniform' && L.kind !== 'packed')
    throw new TexelFormatError('unmodelled-data-format', `${tf.info.name}: a ${L.kind} layout over the algebra`);
  const out: V[] = [];
  for (let c = 0; c < L.components; c++) {
    const bits = L.bits[c];
    const at = L.shifts[c];
    const w = word(at >> 5);
    const raw = bits === 32 ? w : a.and(a.lshr(w, a.word(at & 31)), a.word(2 ** bits - 1));
    out.push(decodeComponent(a, tf, c, raw));
  }
  const one = tf.channelKind === 'float' ? F32_ONE : 1;
  while (out.length < 3) out.push(a.word(0));
  if (out.length < 4) out.push(a.word(one));
  return [out[0], out[1], out[2], out[3]];
}

/** DST_SEL (3-bit codes: 0 -> 0, 1 -> 1, 4..7 -> X..W) over the channels, over the algebra; 2 and 3 (reserved) read 0. */
export function selectChannels<V, B>(
  a: Algebra<V, B>,
  kind: Rgba['kind'],
  raw: readonly [V, V, V, V],
  sel: readonly [V, V, V, V],
): [V, V, V, V] {
  const one = a.word(kind === 'float' ? F32_ONE : 1);
  const pick = (s: V): V =>
    a.select(
      a.eq(s, a.word(1)),
      one,
      a.select(
        a.eq(s, a.word(4)),
        raw[0],
        a.select(
          a.eq(s, a.word(5)),
          raw[1],
          a.select(a.eq(s, a.word(6)), raw[2], a.select(a.eq(s, a.word(7)), raw[3], a.word(0))),
        ),
      ),
    );
  return [pick(sel[0]), pick(sel[1]), pick(sel[2]), pick(sel[3])];
}

/** `toD16` over the algebra: f16 (nearest even) for float channels, the low 16 bits otherwise. */
export function toD16Over<V, B>(a: Algebra<V, B>, kind: Rgba['kind'], word: V): V {
  return kind === 'float' ? a.fToF16(word, false, KEEP) : a.and(word, a.word(0xffff));
}
