/**
 * Float compositions of the vector ALU that are more than one algebra operation (D003): the
 * division macro's V_DIV_SCALE / V_DIV_FMAS / V_DIV_FIXUP, V_TRIG_PREOP_F64's 2/pi segments,
 * V_CUBE*, the DX9 "0 * x = 0" multiplies, bf16 rounding and the exact SNORM/UNORM
 * conversions. Each is a pure function over `Algebra<V, B>` (no context), so vector.ts wires
 * it to operands in a line and the translator lowers it like any other composition.
 *
 * Sources: RDNA3.5 ISA 16.12 "VOP3 & VOP3SD Instructions" pseudocode (the RDNA3 text as AMD
 * republished it for gfx11.5), CDNA4 ISA 12.11 (the Vega lineage: gfx9's legacy forms), the
 * Southern/Sea Islands opcode descriptions (AMD's own one-line texts). Where a text is silent or
 * contradicts itself the comment says so and says what is done instead, and why.
 */
import type { Algebra, FloatMode, Pair } from './algebra.ts';
import { F32_QNAN, F64_QNAN_HI } from './float.ts';
import { lshr64, shl64 } from './wide.ts';

const SIGN = 0x80000000;
const INF32 = 0x7f800000;
const MAX32 = 0x7f7fffff;
const INF64_HI = 0x7ff00000;

// ---- f32 bit predicates (NaN, infinity, zero read on the bit pattern, as the pseudocode's isNAN etc.)

const abs32 = <V, B>(a: Algebra<V, B>, x: V): V => a.and(x, a.word(0x7fffffff));
const exp32 = <V, B>(a: Algebra<V, B>, x: V): V => a.and(a.lshr(x, a.word(23)), a.word(0xff));
const isNan32 = <V, B>(a: Algebra<V, B>, x: V): B => a.ltU(a.word(INF32), abs32(a, x));
const isInf32 = <V, B>(a: Algebra<V, B>, x: V): B => a.eq(abs32(a, x), a.word(INF32));
const isZero32 = <V, B>(a: Algebra<V, B>, x: V): B => a.eq(abs32(a, x), a.word(0));
const quiet32 = <V, B>(a: Algebra<V, B>, x: V): V => a.or(x, a.word(0x00400000));

/** A denormal made a zero of its sign when MODE flushes f32 denormals (the mode is static: a JS-level choice). */
export function flushF32<V, B>(a: Algebra<V, B>, x: V, m: FloatMode): V {
  if (m.f32Denormals) return x;
  return a.select(a.eq(exp32(a, x), a.word(0)), a.and(x, a.word(SIGN)), x);
}

// ---- f64 on pairs (low word first)

const abs64Hi = <V, B>(a: Algebra<V, B>, x: Pair<V>): V => a.and(x[1], a.word(0x7fffffff));
const exp64 = <V, B>(a: Algebra<V, B>, x: Pair<V>): V => a.and(a.lshr(x[1], a.word(20)), a.word(0x7ff));
const isNan64 = <V, B>(a: Algebra<V, B>, x: Pair<V>): B =>
  a.boolOr(a.ltU(a.word(INF64_HI), abs64Hi(a, x)), a.boolAnd(a.eq(abs64Hi(a, x), a.word(INF64_HI)), a.toBool(x[0])));
const isInf64 = <V, B>(a: Algebra<V, B>, x: Pair<V>): B =>
  a.boolAnd(a.eq(abs64Hi(a, x), a.word(INF64_HI)), a.eq(x[0], a.word(0)));
const isZero64 = <V, B>(a: Algebra<V, B>, x: Pair<V>): B =>
  a.boolAnd(a.eq(abs64Hi(a, x), a.word(0)), a.eq(x[0], a.word(0)));
const selectPair = <V, B>(a: Algebra<V, B>, c: B, t: Pair<V>, f: Pair<V>): Pair<V> => [
  a.select(c, t[0], f[0]),
  a.select(c, t[1], f[1]),
];
const absPair = <V, B>(a: Algebra<V, B>, x: Pair<V>): Pair<V> => [x[0], abs64Hi(a, x)];

/** An f64 denormal made a zero of its sign when MODE flushes f64/f16 denormals. */
export function flushF64<V, B>(a: Algebra<V, B>, x: Pair<V>, m: FloatMode): Pair<V> {
  if (m.f64f16Denormals) return x;
  const denorm = a.eq(exp64(a, x), a.word(0));
  return [a.select(denorm, a.word(0), x[0]), a.select(denorm, a.and(x[1], a.word(SIGN)), x[1])];
}

/** An f16 (low half) denormal made a zero of its sign when MODE flushes f64/f16 denormals. */
export function flushF16<V, B>(a: Algebra<V, B>, h: V, m: FloatMode): V {
  if (m.f64f16Denormals) return h;
  return a.select(a.eq(a.and(h, a.word(0x7c00)), a.word(0)), a.and(h, a.word(0x8000)), h);
}

// ---- the division macro (RDNA3.5 ISA 16.12 V_DIV_SCALE_F32/F64, V_DIV_FMAS_F32/F64, V_DIV_FIXUP_F16/F32/F64)

/**
 * V_DIV_SCALE_F32 (S0 the value to scale, S1 the denominator, S2 the numerator) → [D, VCC bit],
 * the pseudocode's branches in order. Readings the text needs:
 * - D is S0 where no branch assigns it (the description: "scale the first input ... if required").
 * - `exponent()` is the biased exponent field; `x == DENORM` means x is a nonzero denormal of the type.
 * - `1.0 / 64'F(S1.f32) == DENORM.f64` never holds: the reciprocal of an f32 is a normal f64. The two
 *   branches that test it never apply, as written (RDNA2, RDNA3.5 and CDNA4 all write the cast; the f64
 *   form tests its own type and does apply). So a denominator above 2^126 is not scaled, and V_RCP_F32,
 *   which flushes its denormal result, makes the macro's quotient 0 where the true one is an f32 denormal.
 * - `S2.f32 / S1.f32 == DENORM.f32`: the rounded quotient is a denormal, i.e. 2^-150 < |S2/S1| < 2^-126,
 *   decided exactly as |S2|·2^126 < |S1| < |S2|·2^150 (the upper rounding boundary holds no quotient of
 *   two f32 significands, so the exact and rounded tests agree).
 * - NAN.f32 is the default NaN 0xffc00000 (the functional examples' NaN).
 * Inputs are flushed by MODE like every f32 operation's.
 */
export function divScaleF32<V, B>(a: Algebra<V, B>, s0: V, s1: V, s2: V, m: FloatMode): readonly [V, B] {
  const w = a.word;
  const x0 = flushF32(a, s0, m);
  const d = flushF32(a, s1, m);
  const n = flushF32(a, s2, m);
  const e1 = exp32(a, d);
  const e2 = exp32(a, n);
  const zero = a.boolOr(isZero32(a, d), isZero32(a, n));
  const nearMax = a.leI(w(96), a.sub(e2, e1));
  const denDenorm = a.boolAnd(a.eq(e1, w(0)), a.boolNot(isZero32(a, d)));
  const ad = abs32(a, d);
  const an = abs32(a, n);
  const quotDenorm = a.boolAnd(
    a.fCmp('lt', a.fLdexp(an, w(126), m), ad, m),
    a.fCmp('lt', ad, a.fLdexp(an, w(150), m), m),
  );
  const tiny = a.leU(e2, w(23));
  const up = a.fLdexp(x0, w(64), m);
  const isDen = a.fCmp('eq', x0, d, m);
  const isNum = a.fCmp('eq', x0, n, m);
  // From the last branch up: each `select` is one elsif of the pseudocode (the two reciprocal branches never apply).
  let r = a.select(tiny, up, x0);
  r = a.select(quotDenorm, a.select(isNum, up, x0), r);
  r = a.select(denDenorm, up, r);
  r = a.select(nearMax, a.select(isDen, up, x0), r);
  r = a.select(zero, w(F32_QNAN), r);
  const vcc = a.boolAnd(a.boolNot(zero), a.boolOr(nearMax, a.boolAnd(a.boolNot(denDenorm), quotDenorm)));
  return [r, vcc];
}

/**
 * V_DIV_SCALE_F64, the same branches at f64's thresholds (768, 2^±128, exponent(S2) <= 53), with the
 * reciprocal tests live: 1/S1 is an f64 denormal exactly when 2^1022 < |S1| < inf; S2/S1 rounds to a
 * denormal when 2^-1075 < |S2/S1| < 2^-1022. As written, when both hold and S0 is S1 the denominator is
 * scaled up by 2^128, past the f64 range: the macro then gives NaN for such a division.
 */
export function divScaleF64<V, B>(
  a: Algebra<V, B>,
  s0: Pair<V>,
  s1: Pair<V>,
  s2: Pair<V>,
  m: FloatMode,
): readonly [Pair<V>, B] {
  const w = a.word;
  const x0 = flushF64(a, s0, m);
  const d = flushF64(a, s1, m);
  const n = flushF64(a, s2, m);
  const e1 = exp64(a, d);
  const e2 = exp64(a, n);
  const zero = a.boolOr(isZero64(a, d), isZero64(a, n));
  const nearMax = a.leI(w(768), a.sub(e2, e1));
  const denDenorm = a.boolAnd(a.eq(e1, w(0)), a.boolNot(isZero64(a, d)));
  const ad = absPair(a, d);
  const rcpDenorm = a.boolAnd(a.dCmp('lt', [w(0), w(0x7fd00000)], ad, m), a.boolNot(isInf64(a, d)));
  const an = absPair(a, n);
  const quotDenorm = a.boolAnd(
    a.dCmp('lt', a.dLdexp(an, w(1022), m), ad, m),
    a.dCmp('lt', ad, a.dLdexp(an, w(1075), m), m),
  );
  const tiny = a.leU(e2, w(53));
  const up = a.dLdexp(x0, w(128), m);
  const down = a.dLdexp(x0, w(-128 >>> 0), m);
  const isDen = a.dCmp('eq', x0, d, m);
  const isNum = a.dCmp('eq', x0, n, m);
  let r = selectPair(a, tiny, up, x0);
  r = selectPair(a, quotDenorm, selectPair(a, isNum, up, x0), r);
  r = selectPair(a, rcpDenorm, down, r);
  const both = a.boolAnd(rcpDenorm, quotDenorm);
  r = selectPair(a, both, selectPair(a, isDen, up, x0), r);
  r = selectPair(a, denDenorm, up, r);
  r = selectPair(a, nearMax, selectPair(a, isDen, up, x0), r);
  r = selectPair(a, zero, [w(0), w(F64_QNAN_HI)], r);
  const vcc = a.boolAnd(
    a.boolNot(zero),
    a.boolOr(nearMax, a.boolAnd(a.boolNot(denDenorm), a.boolOr(both, a.boolAnd(a.boolNot(rcpDenorm), quotDenorm)))),
  );
  return [r, vcc];
}

/**
 * V_DIV_FMAS_F32: fma(S0, S1, S2), post-scaled when this lane's VCC bit is set. "Input denormals are not
 * flushed but output flushing is allowed" (its note): the fma keeps denormals, the result is flushed by MODE.
 *
 * The documents write the post-scale as 2^32, which cannot undo V_DIV_SCALE_F32's 2^64 in either direction
 * (it scales the denominator up by 2^64 when the quotient is near overflow and the numerator up by 2^64
 * when it is near underflow). Done instead: 2^64 when S2's exponent field is above 127 (|S2| >= 2, the
 * quotient estimate of a scaled-down quotient), else 2^-64, as a third-party hardware sweep on gfx1201 and
 * tinygrad's RDNA3 emulator both find; not checked here. A result scaled down into the denormal range is
 * rounded twice (to f32 by the fma, then by the scaling).
 */
export function divFmasF32<V, B>(a: Algebra<V, B>, s0: V, s1: V, s2: V, vcc: B, m: FloatMode): V {
  const keep: FloatMode = { ...m, f32Denormals: true };
  const r = a.fFma(s0, s1, s2, keep);
  const n = a.select(a.ltU(a.word(127), exp32(a, s2)), a.word(64), a.word(-64 >>> 0));
  return flushF32(a, a.select(vcc, a.fLdexp(r, n, keep), r), m);
}

/** V_DIV_FMAS_F64: as the f32 form, the post-scale 2^128 / 2^-128 by S2's exponent field (> 1023) (the documents write 2^64). */
export function divFmasF64<V, B>(
  a: Algebra<V, B>,
  s0: Pair<V>,
  s1: Pair<V>,
  s2: Pair<V>,
  vcc: B,
  m: FloatMode,
): Pair<V> {
  const keep: FloatMode = { ...m, f64f16Denormals: true };
  const r = a.dFma(s0, s1, s2, keep);
  const n = a.select(a.ltU(a.word(1023), exp64(a, s2)), a.word(128), a.word(-128 >>> 0));
  return flushF64(a, selectPair(a, vcc, a.dLdexp(r, n, keep), r), m);
}

/**
 * V_DIV_FIXUP_F32 (S0 the quotient, S1 the denominator, S2 the numerator), the pseudocode's branches in
 * order. Its underflow branch gives "UNDERFLOW_F32", which the document does not define; when
 * exponent(S2) - exponent(S1) < -150 the quotient is below 2^-150 in magnitude, whose round-to-nearest
 * value (the only round mode modelled) is a zero, so that zero (signed) is given. The overflow branch
 * (exponent(S1) == 255) cannot be reached: NaN and infinite S1 are handled before it.
 */
export function divFixupF32<V, B>(a: Algebra<V, B>, s0: V, s1: V, s2: V, m: FloatMode): V {
  const w = a.word;
  const q = flushF32(a, s0, m);
  const d = flushF32(a, s1, m);
  const n = flushF32(a, s2, m);
  const sign = a.and(a.xor(d, n), w(SIGN));
  const z1 = isZero32(a, d);
  const z2 = isZero32(a, n);
  const i1 = isInf32(a, d);
  const i2 = isInf32(a, n);
  const underflow = a.ltI(a.sub(exp32(a, n), exp32(a, d)), w(-150 >>> 0));
  let r = a.or(sign, abs32(a, q));
  r = a.select(underflow, sign, r);
  r = a.select(a.boolOr(i1, z2), sign, r);
  r = a.select(a.boolOr(z1, i2), a.or(sign, w(INF32)), r);
  r = a.select(a.boolOr(a.boolAnd(z1, z2), a.boolAnd(i1, i2)), w(F32_QNAN), r);
  r = a.select(isNan32(a, d), quiet32(a, d), r);
  return a.select(isNan32(a, n), quiet32(a, n), r);
}

/** V_DIV_FIXUP_F64: the same at f64 (underflow below exponent difference -1075: a signed zero, as the f32 form). */
export function divFixupF64<V, B>(a: Algebra<V, B>, s0: Pair<V>, s1: Pair<V>, s2: Pair<V>, m: FloatMode): Pair<V> {
  const w = a.word;
  const q = flushF64(a, s0, m);
  const d = flushF64(a, s1, m);
  const n = flushF64(a, s2, m);
  const sign = a.and(a.xor(d[1], n[1]), w(SIGN));
  const z1 = isZero64(a, d);
  const z2 = isZero64(a, n);
  const i1 = isInf64(a, d);
  const i2 = isInf64(a, n);
  const underflow = a.ltI(a.sub(exp64(a, n), exp64(a, d)), w(-1075 >>> 0));
  const zero: Pair<V> = [w(0), sign];
  const quiet = (x: Pair<V>): Pair<V> => [x[0], a.or(x[1], w(0x00080000))];
  let r: Pair<V> = [q[0], a.or(sign, abs64Hi(a, q))];
  r = selectPair(a, underflow, zero, r);
  r = selectPair(a, a.boolOr(i1, z2), zero, r);
  r = selectPair(a, a.boolOr(z1, i2), [w(0), a.or(sign, w(INF64_HI))], r);
  r = selectPair(a, a.boolOr(a.boolAnd(z1, z2), a.boolAnd(i1, i2)), [w(0), w(F64_QNAN_HI)], r);
  r = selectPair(a, isNan64(a, d), quiet(d), r);
  return selectPair(a, isNan64(a, n), quiet(n), r);
}

/** V_DIV_FIXUP_F16 / V_DIV_FIXUP_LEGACY_F16 on f16 bits (low halves): the f32 chain without an underflow branch (its pseudocode has none). */
export function divFixupF16<V, B>(a: Algebra<V, B>, s0: V, s1: V, s2: V, m: FloatMode): V {
  const w = a.word;
  const q = flushF16(a, s0, m);
  const d = flushF16(a, s1, m);
  const n = flushF16(a, s2, m);
  const abs = (x: V): V => a.and(x, w(0x7fff));
  const nan = (x: V): B => a.ltU(w(0x7c00), abs(x));
  const inf = (x: V): B => a.eq(abs(x), w(0x7c00));
  const zero = (x: V): B => a.eq(abs(x), w(0));
  const sign = a.and(a.xor(d, n), w(0x8000));
  let r = a.or(sign, abs(q));
  r = a.select(a.boolOr(inf(d), zero(n)), sign, r);
  r = a.select(a.boolOr(zero(d), inf(n)), a.or(sign, w(0x7c00)), r);
  r = a.select(a.boolOr(a.boolAnd(zero(d), zero(n)), a.boolAnd(inf(d), inf(n))), w(0xfe00), r);
  r = a.select(nan(d), a.or(d, w(0x200)), r);
  return a.select(nan(n), a.or(n, w(0x200)), r);
}

// ---- V_TRIG_PREOP_F64

/**
 * 2/pi as the 1201-bit integer floor(2^1201 · 2/pi) the pseudocode indexes (b_1200 the first fraction bit),
 * in 32-bit words low first, computed once from Machin's formula pi = 16·atan(1/5) - 4·atan(1/239) in
 * fixed point with 1400 guard bits (so every one of the 1201 bits is exact).
 */
export const TWO_OVER_PI_WORDS: readonly number[] = (() => {
  const guard = 1400n;
  const one = 1n << guard;
  const atanInv = (x: bigint): bigint => {
    let sum = 0n;
    let term = one / x;
    const x2 = x * x;
    for (let k = 0n; term !== 0n; k++) {
      sum += (k % 2n === 0n ? 1n : -1n) * (term / (2n * k + 1n));
      term /= x2;
    }
    return sum;
  };
  const pi = 16n * atanInv(5n) - 4n * atanInv(239n);
  const bits = (1n << (1202n + guard)) / pi;
  const words: number[] = [];
  for (let i = 0; i < 38; i++) words.push(Number((bits >> BigInt(32 * i)) & 0xffffffffn));
  return words;
})();

/**
 * V_TRIG_PREOP_F64 (RDNA3.5 ISA 16.12): the 53 bits of 2/pi after the first `shift` fraction bits, as an
 * f64 scaled by 2^(-53 - shift) (+128 for exponent(S0) >= 1968), shift = S1[4:0]·53 + max(0, exponent(S0)
 * - 1077). The text's `(2/PI << shift) & 0x1fffffffffffff` and its scale -53 - shift agree only when the
 * kept window is the 53 bits below the first `shift` (their value is the window · 2^(-53 - shift)); that
 * is what is taken. "Rounding is toward zero": the window bits a denormal result cannot hold are dropped
 * before the (then exact) scaling. Bits past b_0 are 0.
 */
export function trigPreopF64<V, B>(a: Algebra<V, B>, s0: Pair<V>, s1: V, m: FloatMode): Pair<V> {
  const w = a.word;
  const e = exp64(a, s0);
  const extra = a.select(a.ltU(w(1077), e), a.sub(e, w(1077)), w(0));
  const shift = a.add(a.mulLo(a.and(s1, w(31)), w(53)), extra);
  // The window's lowest bit is bit 1148 - shift of the 1201-bit integer; with two zero words below it
  // (bit position + 64) it is never negative while any window bit lies at or above b_0 (shift <= 1200).
  const pos = a.sub(w(1148 + 64), shift);
  const padded = [0, 0, ...TWO_OVER_PI_WORDS, 0, 0];
  const index = a.lshr(pos, w(5));
  const word = (k: V): V => {
    let r = w(0);
    for (let i = 0; i < padded.length; i++) r = a.select(a.eq(k, w(i)), w(padded[i]!), r);
    return r;
  };
  const w0 = word(index);
  const w1 = word(a.add(index, w(1)));
  const w2 = word(a.add(index, w(2)));
  const o = a.and(pos, w(31));
  const funnel = (hi: V, lo: V): V => a.select(a.eq(o, w(0)), lo, a.or(a.lshr(lo, o), a.shl(hi, a.sub(w(32), o))));
  const inRange = a.leU(shift, w(1200));
  let lo = a.select(inRange, funnel(w1, w0), w(0));
  let hi = a.select(inRange, a.and(funnel(w2, w1), w(0x1fffff)), w(0));
  const scale = a.add(a.sub(w(-53 >>> 0), shift), a.select(a.leU(w(1968), e), w(128), w(0)));
  // Toward zero: window bit i weighs 2^(scale + i); those below 2^-1074 are dropped (all of them past 63).
  const lost = a.sub(w(-1074 >>> 0), scale);
  const lostBits = a.select(a.ltI(lost, w(0)), w(0), a.minU(lost, w(64)));
  const kept = selectPair(a, a.eq(lostBits, w(64)), [w(0), w(0)], shl64(a, lshr64(a, [lo, hi], lostBits), lostBits));
  lo = kept[0];
  hi = kept[1];
  const value = a.dAdd(a.dMul(a.dFromU32(hi), [w(0), w(0x41f00000)], m), a.dFromU32(lo), m);
  return a.dLdexp(value, scale, m);
}

// ---- V_CUBE* (RDNA3.5 ISA 16.12 V_CUBEID_F32, V_CUBESC_F32, V_CUBETC_F32, V_CUBEMA_F32)

export type CubeOp = 'id' | 'sc' | 'tc' | 'ma';

/** The cubemap face id, S and T coordinates, or 2·major axis of (x, y, z) = (S0, S1, S2), as the pseudocode's branches. */
export function cube<V, B>(a: Algebra<V, B>, op: CubeOp, x: V, y: V, z: V, m: FloatMode): V {
  const w = a.word;
  const ax = abs32(a, x);
  const ay = abs32(a, y);
  const az = abs32(a, z);
  const zMajor = a.boolAnd(a.fCmp('ge', az, ax, m), a.fCmp('ge', az, ay, m));
  const yMajor = a.fCmp('ge', ay, ax, m);
  const negative = (v: V): B => a.fCmp('lt', v, w(0), m);
  const neg = (v: V): V => a.xor(v, w(SIGN));
  const pick = (zv: V, yv: V, xv: V): V => a.select(zMajor, zv, a.select(yMajor, yv, xv));
  const f = (n: number): V => w(n);
  switch (op) {
    case 'id':
      return pick(
        a.select(negative(z), f(0x40a00000), f(0x40800000)),
        a.select(negative(y), f(0x40400000), f(0x40000000)),
        a.select(negative(x), f(0x3f800000), f(0)),
      );
    case 'sc':
      return pick(a.select(negative(z), neg(x), x), x, a.select(negative(x), z, neg(z)));
    case 'tc':
      return pick(neg(y), a.select(negative(y), neg(z), z), neg(y));
    case 'ma': {
      const two = w(0x40000000);
      return pick(a.fMul(z, two, m), a.fMul(y, two, m), a.fMul(x, two, m));
    }
  }
}

// ---- DX9 ("legacy") multiplies: 0.0 times anything is 0.0

/** S0 or S1 zero (denormals by MODE, as the pseudocode's `64'F(S0.f32) == 0.0` compare). */
export function dx9Zero<V, B>(a: Algebra<V, B>, x: V, y: V, m: FloatMode): B {
  return a.boolOr(a.fCmp('eq', x, a.word(0), m), a.fCmp('eq', y, a.word(0), m));
}

/** RDNA3.5 ISA V_MUL_DX9_ZERO_F32 (Sea Islands V_MUL_LEGACY_F32 "DX9 rules, 0.0*x = 0.0"): +0.0 when either is zero. */
export function mulDx9<V, B>(a: Algebra<V, B>, x: V, y: V, m: FloatMode): V {
  return a.select(dx9Zero(a, x, y, m), a.word(0), a.fMul(x, y, m));
}

/** RDNA3.5 ISA V_FMA_DX9_ZERO_F32 / V_FMAC_DX9_ZERO_F32: S2 itself when S0 or S1 is zero, else fma. */
export function fmaDx9<V, B>(a: Algebra<V, B>, x: V, y: V, z: V, m: FloatMode): V {
  return a.select(dx9Zero(a, x, y, m), z, a.fFma(x, y, z, m));
}

/**
 * V_MULLIT_F32 (RDNA3.5 ISA 16.12): -MAX_FLOAT when S1 is -MAX_FLOAT, -inf or NaN, or S2 is <= 0 or NaN;
 * else S0 · S1 under the description's "0.0 * x = 0.0" (the pseudocode writes a plain product, the prose and
 * the Sea Islands text give the DX9 zero rule; the prose is followed).
 */
export function mullit<V, B>(a: Algebra<V, B>, x: V, y: V, z: V, m: FloatMode): V {
  const w = a.word;
  const lit = a.boolOr(
    a.boolOr(a.eq(y, w(0xff7fffff)), a.eq(flushF32(a, y, m), w(0xff800000))),
    a.boolOr(isNan32(a, y), a.boolOr(a.fCmp('le', z, w(0), m), isNan32(a, z))),
  );
  return a.select(lit, w(0xff7fffff), mulDx9(a, x, y, m));
}

// ---- clamped / legacy transcendentals of Sea Islands (gfx7)

/** "result clamped to +-max_float": an infinite result becomes the largest finite f32 of its sign (a NaN passes). */
export function clampInfF32<V, B>(a: Algebra<V, B>, r: V): V {
  return a.select(isInf32(a, r), a.or(a.and(r, a.word(SIGN)), a.word(MAX32)), r);
}
/** The f64 form: an infinite result becomes the largest finite f64 of its sign. */
export function clampInfF64<V, B>(a: Algebra<V, B>, r: Pair<V>): Pair<V> {
  return selectPair(a, isInf64(a, r), [a.word(0xffffffff), a.or(a.and(r[1], a.word(SIGN)), a.word(0x7fefffff))], r);
}
/** "+-infinity result clamped to +-0.0". */
export function infToZeroF32<V, B>(a: Algebra<V, B>, r: V): V {
  return a.select(isInf32(a, r), a.and(r, a.word(SIGN)), r);
}

// ---- clamp to [0, 1] (RDNA3 ISA 7.2 CLMP; NaN to 0 under MODE.DX10_CLAMP, else it passes)

export function clamp01<V, B>(a: Algebra<V, B>, r: V, m: FloatMode): V {
  const plain: FloatMode = { ...m, ieee: false };
  const c = a.fMin(a.fMax(r, a.word(0), plain), a.word(0x3f800000), plain);
  return m.dx10Clamp === false ? a.select(isNan32(a, r), r, c) : c;
}

// ---- bf16 (the upper half of a binary32: widening is a shift)

/** bf16 bits (low half) → f32 bits, exact. */
export function f32FromBf16<V, B>(a: Algebra<V, B>, h: V): V {
  return a.shl(a.and(h, a.word(0xffff)), a.word(16));
}

/**
 * f32 bits → bf16 bits (low half), round to nearest even; a NaN keeps its top payload bits and is made quiet
 * (bf16 bit 6). MODE has no bf16 field (RDNA3 ISA 3.4.2 names f32 and f64/f16 only); bf16 shares binary32's
 * exponent range, so f32's denormal mode is applied to it (a choice, not documented).
 */
export function bf16FromF32<V, B>(a: Algebra<V, B>, x: V, m: FloatMode): V {
  const w = a.word;
  const rounded = a.lshr(a.add(a.add(x, w(0x7fff)), a.and(a.lshr(x, w(16)), w(1))), w(16));
  const nan = a.or(a.lshr(x, w(16)), w(0x40));
  const r = a.and(a.select(isNan32(a, x), nan, rounded), w(0xffff));
  if (m.f32Denormals) return r;
  return a.select(a.eq(a.and(r, w(0x7f80)), w(0)), a.and(r, w(0x8000)), r);
}

// ---- SNORM / UNORM 16 (v_cvt_pk_norm_*, v_cvt_norm_*)

/**
 * An f32 as a 16-bit SNORM (UNORM) field in the low half: NaN 0, clamp to [-1, 1] ([0, 1]), scale by 32767
 * (65535), round to nearest even, as the ISA's data conversions for normalized formats (recalled, as
 * format-store.ts). The scaled value is rounded exactly, in integer arithmetic on the significand (an f32
 * product x · 32767 would round first: 0.50048828125 · 32767 = 16399.49... rounds to 16399.5 in f32).
 */
export function norm16<V, B>(a: Algebra<V, B>, bits: V, signed: boolean, m: FloatMode): V {
  const w = a.word;
  const x = flushF32(a, bits, m);
  const k = signed ? 32767 : 65535;
  const ax = abs32(a, x);
  const e = exp32(a, x);
  const sig = a.or(a.and(x, w(0x7fffff)), w(0x800000));
  // |x| = sig · 2^(e - 150); x · k = sig · k / 2^s with s = 150 - e, in [24, 40] for 2^-17 <= |x| < 1.
  const s = a.sub(w(150), e);
  const prod: Pair<V> = [a.mulLo(sig, w(k)), a.mulHiU(sig, w(k))];
  const q = lshr64(a, prod, s)[0];
  const back = shl64(a, [q, w(0)], s);
  // rem = prod - q·2^s, half = 2^(s-1), both below 2^40: compared as pairs.
  const remLo = a.sub(prod[0], back[0]);
  const remHi = a.sub(a.sub(prod[1], back[1]), a.fromBool(a.ltU(prod[0], back[0])));
  const half = shl64(a, [w(1), w(0)], a.sub(s, w(1)));
  const gt = a.boolOr(a.ltU(half[1], remHi), a.boolAnd(a.eq(half[1], remHi), a.ltU(half[0], remLo)));
  const eq = a.boolAnd(a.eq(half[1], remHi), a.eq(half[0], remLo));
  const up = a.boolOr(gt, a.boolAnd(eq, a.toBool(a.and(q, w(1)))));
  const rounded = a.add(q, a.fromBool(up));
  // x < 2^-17 (exponent field below 110) scales below 0.5: 0. |x| >= 1 (and infinity) saturates.
  const mag = a.select(a.leU(w(0x3f800000), ax), w(k), a.select(a.ltU(e, w(110)), w(0), rounded));
  const negative = a.boolAnd(a.ltI(x, w(0)), a.boolNot(a.eq(ax, w(0))));
  const r = signed ? a.select(negative, a.sub(w(0), mag), mag) : a.select(negative, w(0), mag);
  return a.select(isNan32(a, x), w(0), a.and(r, w(0xffff)));
}
