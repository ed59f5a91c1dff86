/**
 * The concrete algebra's float operations (D003): IEEE binary32/binary64/binary16 on bit
 * patterns held in u32 words, as AMD's ISA documents define the vector ALU's float
 * instructions (Vega and RDNA3 "Instructions" chapters; RDNA3's pseudocode where the
 * others are silent).
 *
 * - Rounding is to nearest even, exactly: f32 add/mul are one f64 operation then
 *   `Math.fround` (an f32 sum or product is exact in f64, or is rounded once there and the
 *   double rounding is innocuous since 53 >= 2 * 24 + 2); the fused f32 multiply-add rounds
 *   the exact f64 product plus the addend to odd at f64 precision (TwoSum gives the error),
 *   which makes the final rounding to f32 correct; the f64 multiply-add is exact through
 *   BigInt (`roundExact`).
 * - NaN results: the first NaN operand made quiet, else the default NaN 0xffc00000 (f64
 *   0xfff80000_00000000; f16 0xfe00 follows through the f32 path): RDNA3 ISA 16.12 gives it in
 *   the functional examples of V_LOG_F32, V_RSQ_F32, V_SQRT_F32, V_SIN_F32 (log(-1.0) =>
 *   0xffc00000) and V_DIV_FIXUP_F32/F64 (0/0 => 0xffc00000, 0xfff8000000000000); CDNA4's VOP1
 *   examples agree. AMD documents quieting but not which payload survives an arithmetic
 *   operation; the capture compare should treat those NaNs as equal by class.
 * - min/max follow RDNA3 ISA 16.7 V_MIN_F32/V_MAX_F32 (and 16.12 V_MIN_F64): with MODE.IEEE a
 *   signaling NaN operand is returned quieted (S0 first), a quiet NaN gives the other operand;
 *   without it any NaN gives the other operand (S1 checked first); -0 < +0 either way.
 * - rcp, rsq, sqrt, exp and log of f32 flush denormal inputs and results whatever MODE says
 *   (RDNA3 ISA 16.12, V_RCP_F32 ... V_LOG_F32 notes: "denormals are flushed"; CDNA4 the same);
 *   sin and cos keep them ("Denormals are supported").
 * - Transcendentals (rcp, rsq, sqrt, exp, log, sin, cos) are computed in f64 and rounded
 *   once: within 0.5 ULP of the true value plus f64 error (rsq within 1 ULP), while the
 *   hardware promises 1 ULP (RDNA3 ISA, "Transcendental" notes; sqrt and rsq 1 ULP,
 *   sin/cos absolute error 2^-21 on [-256, 256] revolutions). The compare against GPU
 *   captures uses that tolerance; sqrt here is correctly rounded.
 */
import type { FloatMode, FloatPredicate, FloatUnary, Pair, RoundKind } from './algebra.ts';
import { predicateHolds } from './algebra.ts';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const w64 = new Uint32Array(f64.buffer);

/** The NaN an invalid operation gives (see the header). */
export const F32_QNAN = 0xffc00000;
export const F64_QNAN_HI = 0xfff80000;
const SIGN = 0x80000000;

/** Bits → value (NaN bits give a NaN number; callers handle NaN before using the value). */
export function f32Value(bits: number): number {
  u32[0] = bits;
  return f32[0];
}
/** Value → bits, rounding to f32 (a NaN value gives the default NaN). */
export function f32Bits(x: number): number {
  if (x !== x) return F32_QNAN;
  f32[0] = x;
  return u32[0];
}
export function f64Value(p: Pair<number>): number {
  w64[0] = p[0];
  w64[1] = p[1];
  return f64[0];
}
export function f64Bits(x: number): [number, number] {
  if (x !== x) return [0, F64_QNAN_HI];
  f64[0] = x;
  return [w64[0], w64[1]];
}

const isNan32 = (b: number): boolean => (b & 0x7fffffff) > 0x7f800000;
const quiet32 = (b: number): number => (b | 0x00400000) >>> 0;
const isNan64 = (p: Pair<number>): boolean =>
  (p[1] & 0x7fffffff) > 0x7ff00000 || ((p[1] & 0x7fffffff) === 0x7ff00000 && p[0] !== 0);
const quiet64 = (p: Pair<number>): [number, number] => [p[0] >>> 0, (p[1] | 0x00080000) >>> 0];

/** Flushes an f32 denormal to a zero of its sign when denormals are off. */
export function flush32(b: number, m: FloatMode): number {
  b >>>= 0;
  if (m.f32Denormals || (b & 0x7f800000) !== 0) return b;
  return (b & SIGN) >>> 0;
}
function flush64(p: Pair<number>, m: FloatMode): [number, number] {
  if (m.f64f16Denormals || (p[1] & 0x7ff00000) !== 0) return [p[0] >>> 0, p[1] >>> 0];
  return [0, (p[1] & SIGN) >>> 0];
}

/** The first NaN operand made quiet, or undefined. */
function nanOf32(...xs: number[]): number | undefined {
  for (const x of xs) if (isNan32(x)) return quiet32(x);
  return undefined;
}
function nanOf64(...xs: Pair<number>[]): [number, number] | undefined {
  for (const x of xs) if (isNan64(x)) return quiet64(x);
  return undefined;
}

/** An f32 operation on values: NaN inputs propagate quieted, inputs and output flushed by mode. */
function op32(m: FloatMode, xs: number[], f: (...v: number[]) => number): number {
  // One to three operands (every caller), without intermediate arrays: the interpreter runs this per lane.
  const n = xs.length;
  if (n > 3) {
    const fl = xs.map((x) => flush32(x, m));
    const nan = nanOf32(...fl);
    if (nan !== undefined) return nan;
    return flush32(f32Bits(f(...fl.map(f32Value))), m);
  }
  const a = flush32(xs[0], m);
  if (isNan32(a)) return quiet32(a);
  if (n === 1) return flush32(f32Bits(f(f32Value(a))), m);
  const b = flush32(xs[1], m);
  if (isNan32(b)) return quiet32(b);
  if (n === 2) return flush32(f32Bits(f(f32Value(a), f32Value(b))), m);
  const c = flush32(xs[2], m);
  if (isNan32(c)) return quiet32(c);
  return flush32(f32Bits(f(f32Value(a), f32Value(b), f32Value(c))), m);
}
function op64(m: FloatMode, xs: Pair<number>[], f: (...v: number[]) => number): [number, number] {
  const fl = xs.map((x) => flush64(x, m));
  const nan = nanOf64(...fl);
  if (nan !== undefined) return nan;
  return flush64(f64Bits(f(...fl.map(f64Value))), m);
}

/** The next f64 toward +inf (up) or -inf, of a finite nonzero x. */
function nextToward(x: number, up: boolean): number {
  f64[0] = x;
  // Moving away from zero increments the magnitude bits; toward zero decrements them.
  const away = x > 0 === up;
  let lo = w64[0];
  let hi = w64[1];
  if (away) {
    lo = (lo + 1) >>> 0;
    if (lo === 0) hi = (hi + 1) >>> 0;
  } else {
    if (lo === 0) hi = (hi - 1) >>> 0;
    lo = (lo - 1) >>> 0;
  }
  w64[0] = lo;
  w64[1] = hi;
  return f64[0];
}

/** f32 a*b+c with one rounding: the exact product (f64), TwoSum, round to odd, then to f32. */
export function fma32Value(a: number, b: number, c: number): number {
  const p = a * b; // exact: 24 + 24 bits, exponents within f64's range
  if (!Number.isFinite(p) || !Number.isFinite(c) || p === 0 || c === 0) return Math.fround(p + c);
  const s = p + c;
  if (!Number.isFinite(s)) return Math.fround(s);
  const bb = s - p;
  const e = p - (s - bb) + (c - bb); // exact error of the f64 sum
  if (e === 0 || s === 0) return Math.fround(s);
  f64[0] = s;
  // Round to odd: if s's last bit is even, the exact value lies strictly between s and its
  // neighbour toward e; that neighbour is odd and rounds to f32 the way the exact value does.
  const odd = (w64[0] & 1) === 1;
  return Math.fround(odd ? s : nextToward(s, e > 0));
}

/** sign * mant * 2^exp rounded to nearest even at `prec` bits, quantum at least 2^qmin (denormals), as a number. */
function roundExact(neg: boolean, mant: bigint, exp: number, prec: number, qmin: number): number {
  if (mant === 0n) return 0;
  const len = mant.toString(2).length;
  const top = exp + len - 1;
  const q = Math.max(top - (prec - 1), qmin);
  let keep: bigint;
  if (exp >= q) keep = mant << BigInt(exp - q);
  else {
    const sh = BigInt(q - exp);
    keep = mant >> sh;
    const rem = mant & ((1n << sh) - 1n);
    const half = 1n << (sh - 1n);
    if (rem > half || (rem === half && (keep & 1n) === 1n)) keep += 1n;
  }
  // keep < 2^(prec+1) is exact as a number, and 2^q >= 2^qmin is representable.
  const v = Number(keep) * 2 ** q;
  return neg ? -v : v;
}

/** A finite nonzero f64 as sign, integer mantissa and exponent. */
function decompose(x: number): [boolean, bigint, number] {
  f64[0] = x;
  const hi = w64[1];
  const e = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(w64[0]);
  return e === 0 ? [hi >>> 31 === 1, frac, -1074] : [hi >>> 31 === 1, frac | (1n << 52n), e - 1075];
}

/** f64 a*b+c with one rounding, exactly (BigInt). */
export function fma64Value(a: number, b: number, c: number): number {
  if (![a, b, c].every(Number.isFinite) || a === 0 || b === 0 || c === 0) return a * b + c;
  const [sa, ma, ea] = decompose(a);
  const [sb, mb, eb] = decompose(b);
  const [sc, mc, ec] = decompose(c);
  const ep = ea + eb;
  const e = Math.min(ep, ec);
  const prod = (sa !== sb ? -1n : 1n) * ma * mb * (1n << BigInt(ep - e));
  const add = (sc ? -1n : 1n) * mc * (1n << BigInt(ec - e));
  const sum = prod + add;
  if (sum === 0n) return 0;
  return roundExact(sum < 0n, sum < 0n ? -sum : sum, e, 53, -1074);
}

function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  const r = d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
  return r === 0 && (x < 0 || Object.is(x, -0)) ? -0 : r;
}

function roundBy(kind: RoundKind, x: number): number {
  switch (kind) {
    case 'floor':
      return Math.floor(x);
    case 'ceil':
      return Math.ceil(x);
    case 'trunc':
      return Math.trunc(x);
    case 'rndne':
      return roundHalfEven(x);
  }
}

/** sin or cos of x revolutions (2 pi x radians), exact at the quarter turns (RDNA3 ISA 16.12 V_SIN_F32: sin(0.25) => 1.0, cos(0.25) => 0). */
function sinCosRevolutions(kind: 'sin' | 'cos', x: number): number {
  if (!Number.isFinite(x)) return NaN;
  if (kind === 'sin' && x === 0) return x; // keeps -0
  // x - round(x) is exact for an f32 (or f16) x, and so is r - q/4: the turn splits into a quadrant and a rest in [-1/8, 1/8].
  const r = x - Math.round(x);
  const q = Math.round(r * 4);
  const f = r - q / 4;
  const s = Math.sin(2 * Math.PI * f);
  const c = f === 0 ? 1 : Math.cos(2 * Math.PI * f);
  const k = ((q % 4) + 4) % 4;
  const v = kind === 'sin' ? [s, c, -s, -c][k] : [c, -s, -c, s][k];
  return v === 0 ? 0 : v; // a quarter turn gives +0, as the functional examples do
}

function unaryValue(kind: FloatUnary, x: number): number {
  switch (kind) {
    case 'rcp':
      return 1 / x;
    case 'rsq':
      return 1 / Math.sqrt(x);
    case 'sqrt':
      return Math.sqrt(x);
    case 'exp':
      return 2 ** x;
    case 'log':
      return Math.log2(x);
    case 'sin':
    case 'cos':
      return sinCosRevolutions(kind, x);
  }
}

function compare(p: FloatPredicate, x: number, y: number): boolean {
  const unordered = x !== x || y !== y;
  return predicateHolds(p, unordered, !unordered && x < y, !unordered && x === y);
}

const isSnan32 = (b: number): boolean => isNan32(b) && (b & 0x00400000) === 0;
const isSnan64 = (p: Pair<number>): boolean => isNan64(p) && (p[1] & 0x00080000) === 0;

/** min/max as RDNA3 ISA 16.7 V_MIN_F32 / V_MAX_F32 write them (see the header); -0 counts below +0 (LT_NEG_ZERO / GT_NEG_ZERO). */
function pick32(a: number, b: number, m: FloatMode, max: boolean): number {
  const x = flush32(a, m);
  const y = flush32(b, m);
  if (m.ieee ?? true) {
    if (isSnan32(x)) return quiet32(x);
    if (isSnan32(y)) return quiet32(y);
    if (isNan32(y)) return x;
    if (isNan32(x)) return y;
  } else {
    if (isNan32(y)) return x;
    if (isNan32(x)) return y;
  }
  const vx = f32Value(x);
  const vy = f32Value(y);
  if (vx === vy) {
    const xNeg = x >>> 31 === 1;
    return max ? (xNeg ? y : x) : xNeg ? x : y;
  }
  return (max ? vx > vy : vx < vy) ? x : y;
}
function pick64(a: Pair<number>, b: Pair<number>, m: FloatMode, max: boolean): [number, number] {
  const x = flush64(a, m);
  const y = flush64(b, m);
  if (m.ieee ?? true) {
    if (isSnan64(x)) return quiet64(x);
    if (isSnan64(y)) return quiet64(y);
    if (isNan64(y)) return x;
    if (isNan64(x)) return y;
  } else {
    if (isNan64(y)) return x;
    if (isNan64(x)) return y;
  }
  const vx = f64Value(x);
  const vy = f64Value(y);
  if (vx === vy) {
    const xNeg = x[1] >>> 31 === 1;
    return max ? (xNeg ? y : x) : xNeg ? x : y;
  }
  return (max ? vx > vy : vx < vy) ? x : y;
}

function toInt(x: number, lo: number, hi: number): number {
  if (x !== x) return 0;
  const t = Math.trunc(x);
  return (t < lo ? lo : t > hi ? hi : t) >>> 0;
}

/**
 * v / 2^e, exactly (a division by a power of two whose result is a normal number): in two steps
 * where 2^e itself is not a double (e = 1024, the frexp exponent of |v| >= 2^1023).
 */
function divideByPowerOfTwo(v: number, e: number): number {
  return e > 1023 ? v / 2 ** (e - 1) / 2 : v / 2 ** e;
}

/** The exponent (unbiased, as frexp counts: x = mant * 2^exp, mant in [0.5, 1)) of a finite nonzero value. */
function frexpExponent(v: number): number {
  let e = Math.floor(Math.log2(Math.abs(v))) + 1;
  // log2 may be off by one near powers of two; correct so that |v| / 2^e lies in [0.5, 1).
  const r = divideByPowerOfTwo(Math.abs(v), e);
  if (r >= 1) e += 1;
  else if (r < 0.5) e -= 1;
  return e;
}

/** 2^n times x, n clamped so the power is finite; one rounding by `round`. */
function ldexpValue(x: number, n: number): number {
  const k = Math.max(-1200, Math.min(1200, n | 0));
  // Split the power so 2^k never overflows or underflows on its own.
  const h = Math.trunc(k / 2);
  return x * 2 ** h * 2 ** (k - h);
}

/** f32 bits → f16 bits (low half). */
export function f16FromF32Bits(b: number, towardZero: boolean, m: FloatMode): number {
  const bits = flush32(b, m);
  const sign = (bits >>> 16) & 0x8000;
  if (isNan32(bits)) return sign | 0x7e00 | ((bits >>> 13) & 0x3ff);
  const ax = Math.abs(f32Value(bits));
  if (ax === Infinity) return sign | 0x7c00;
  if (ax === 0) return sign;
  const e = Math.floor(Math.log2(ax));
  const eTrue = ax >= 2 ** (e + 1) ? e + 1 : ax < 2 ** e ? e - 1 : e;
  let q = Math.max(eTrue - 10, -24);
  let n = towardZero ? Math.floor(ax / 2 ** q) : roundHalfEven(ax / 2 ** q);
  if (n === 2048) {
    n = 1024;
    q += 1;
  }
  let out: number;
  if (n < 1024) out = n;
  else {
    const field = q + 25;
    out = field >= 31 ? (towardZero ? 0x7bff : 0x7c00) : (field << 10) | (n - 1024);
  }
  if (!m.f64f16Denormals && (out & 0x7c00) === 0) out = 0;
  return sign | out;
}

/**
 * f16 bits (low half) → f32 bits, exact: a NaN keeps its payload and its quiet bit (f16 bit 9 is f32
 * bit 22), so an f16 operation computed in f32 still sees a signaling NaN as signaling (min/max in IEEE
 * mode return it quieted, RDNA3 ISA 16.7 V_MIN_F16). V_CVT_F32_F16 quiets it itself.
 */
export function f32FromF16Bits(h: number, m: FloatMode): number {
  const sign = (h & 0x8000) << 16;
  const e = (h >>> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (e === 31) return (sign | 0x7f800000 | (frac << 13)) >>> 0;
  if (e === 0) {
    if (frac === 0 || !m.f64f16Denormals) return sign >>> 0;
    return (sign | f32Bits(frac * 2 ** -24)) >>> 0;
  }
  return (sign | ((e - 15 + 127) << 23) | (frac << 13)) >>> 0;
}

/** The float half of the concrete algebra. */
export const concreteFloat = {
  fAdd: (a: number, b: number, m: FloatMode) => op32(m, [a, b], (x, y) => x + y),
  fMul: (a: number, b: number, m: FloatMode) => op32(m, [a, b], (x, y) => x * y),
  fFma: (a: number, b: number, c: number, m: FloatMode) => op32(m, [a, b, c], fma32Value),
  fMin: (a: number, b: number, m: FloatMode) => pick32(a, b, m, false),
  fMax: (a: number, b: number, m: FloatMode) => pick32(a, b, m, true),
  fCmp: (p: FloatPredicate, a: number, b: number, m: FloatMode) =>
    compare(p, f32Value(flush32(a, m)), f32Value(flush32(b, m))),
  fFromI32: (a: number) => f32Bits(a | 0),
  fFromU32: (a: number) => f32Bits(a >>> 0),
  fToI32: (a: number, m: FloatMode) => toInt(f32Value(flush32(a, m)), -0x80000000, 0x7fffffff),
  fToU32: (a: number, m: FloatMode) => toInt(f32Value(flush32(a, m)), 0, 0xffffffff),
  fRound: (kind: RoundKind, a: number, m: FloatMode) => op32(m, [a], (x) => roundBy(kind, x)),
  fUnary: (kind: FloatUnary, a: number, m: FloatMode) =>
    op32(kind === 'sin' || kind === 'cos' ? m : { ...m, f32Denormals: false }, [a], (x) => unaryValue(kind, x)),
  fLdexp: (a: number, n: number, m: FloatMode) => op32(m, [a], (x) => ldexpValue(x, n)),
  fFrexpMant(a: number, m: FloatMode): number {
    const x = flush32(a, m);
    if (isNan32(x) || (x & 0x7fffffff) === 0x7f800000 || (x & 0x7fffffff) === 0) return x;
    const v = f32Value(x);
    return flush32(f32Bits(v / 2 ** frexpExponent(v)), m);
  },
  fFrexpExp(a: number, m: FloatMode): number {
    const x = flush32(a, m);
    if (isNan32(x) || (x & 0x7fffffff) === 0x7f800000 || (x & 0x7fffffff) === 0) return 0;
    return frexpExponent(f32Value(x)) >>> 0;
  },
  fToF16: (a: number, towardZero: boolean, m: FloatMode) => f16FromF32Bits(a, towardZero, m),
  fFromF16: (a: number, m: FloatMode) => f32FromF16Bits(a & 0xffff, m),

  dAdd: (a: Pair<number>, b: Pair<number>, m: FloatMode): Pair<number> => op64(m, [a, b], (x, y) => x + y),
  dMul: (a: Pair<number>, b: Pair<number>, m: FloatMode): Pair<number> => op64(m, [a, b], (x, y) => x * y),
  dFma: (a: Pair<number>, b: Pair<number>, c: Pair<number>, m: FloatMode): Pair<number> =>
    op64(m, [a, b, c], fma64Value),
  dMin: (a: Pair<number>, b: Pair<number>, m: FloatMode): Pair<number> => pick64(a, b, m, false),
  dMax: (a: Pair<number>, b: Pair<number>, m: FloatMode): Pair<number> => pick64(a, b, m, true),
  dCmp: (p: FloatPredicate, a: Pair<number>, b: Pair<number>, m: FloatMode) =>
    compare(p, f64Value(flush64(a, m)), f64Value(flush64(b, m))),
  dRound: (kind: RoundKind, a: Pair<number>, m: FloatMode): Pair<number> => op64(m, [a], (x) => roundBy(kind, x)),
  dUnary: (kind: 'rcp' | 'rsq' | 'sqrt', a: Pair<number>, m: FloatMode): Pair<number> =>
    op64(m, [a], (x) => unaryValue(kind, x)),
  dLdexp: (a: Pair<number>, n: number, m: FloatMode): Pair<number> => op64(m, [a], (x) => ldexpValue(x, n)),
  dFrexpMant(a: Pair<number>, m: FloatMode): Pair<number> {
    const x = flush64(a, m);
    const v = f64Value(x);
    if (isNan64(x) || !Number.isFinite(v) || v === 0) return x;
    return flush64(f64Bits(divideByPowerOfTwo(v, frexpExponent(v))), m);
  },
  dFrexpExp(a: Pair<number>, m: FloatMode): number {
    const x = flush64(a, m);
    const v = f64Value(x);
    if (isNan64(x) || !Number.isFinite(v) || v === 0) return 0;
    return frexpExponent(v) >>> 0;
  },
  dFromI32: (a: number): Pair<number> => f64Bits(a | 0),
  dFromU32: (a: number): Pair<number> => f64Bits(a >>> 0),
  dToI32: (a: Pair<number>, m: FloatMode) => toInt(f64Value(flush64(a, m)), -0x80000000, 0x7fffffff),
  dToU32: (a: Pair<number>, m: FloatMode) => toInt(f64Value(flush64(a, m)), 0, 0xffffffff),
  dFromF32(a: number, m: FloatMode): Pair<number> {
    const x = flush32(a, m);
    if (isNan32(x)) return [((x & 0x1fffffff) << 29) >>> 0, ((x & SIGN) | 0x7ff80000 | ((x >>> 3) & 0x7ffff)) >>> 0];
    return f64Bits(f32Value(x));
  },
  dToF32(a: Pair<number>, m: FloatMode): number {
    const x = flush64(a, m);
    if (isNan64(x)) return ((x[1] & SIGN) | 0x7fc00000 | ((x[1] & 0x7ffff) << 3) | (x[0] >>> 29)) >>> 0;
    return flush32(f32Bits(f64Value(x)), m);
  },
};
