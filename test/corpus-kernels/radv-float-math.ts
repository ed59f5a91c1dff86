/**
 * radv/float_math.comp, WG 64, one group: 32 float results per invocation (the contract in
 * the source's header), written again from GLSL 4.60 §8 (angle, exponential, common and
 * packing functions) in f32 with Math.fround.
 *
 * How each word is compared:
 * - Float words compare as f32 with 0 ULPs, i.e. bit-exact except that NaN equals NaN and
 *   +0 equals -0: Vulkan 1.3 ("Precision and Operation of SPIR-V Instructions") lets an
 *   implementation ignore the sign of zero and NaN payloads unless the shader asks for
 *   SignedZeroInfNanPreserve, which this one does not.
 * - The approximated functions compare within Vulkan's required precision for
 *   GLSL.std.450 (the table in that section; the source's header quotes it), plus the half
 *   ULP of the correctly rounded reference: inversesqrt 2 ULP; sqrt "inherited from
 *   1/inversesqrt" (2 + 2.5 ULP); exp2 3 + 2|x| ULP; log2 3 ULP outside [0.5, 2], absolute
 *   2^-21 inside; sin and cos absolute 2^-11 inside [-pi, pi] (not compared outside it, where
 *   Vulkan sets no bound); a / b 2.5 ULP for |b| in [2^-126, 2^126]. Absolute bounds become
 *   ULPs around the reference value (`ulpsForAbsoluteError`).
 * - mod(a, b) is "inherited from a - b * floor(a / b)": floor of the approximate quotient is
 *   only certain where every quotient within the division's bound has the same floor; the
 *   word is compared (exactly) only there.
 * - Integer words (conversions, packing, frexp's exponent, the class bits) are exact.
 *
 * Where GLSL leaves a result to the implementation, the reference follows what the AMD ISA
 * manuals document for the instruction the listing uses, as the source's header says:
 * min/max with one NaN give the other operand (IEEE mode); clamp is v_med3_f32, which gives
 * min3 (so 0 here) for a NaN; float-to-int conversions saturate and map NaN to 0;
 * packHalf2x16 rounds toward zero (v_cvt_pkrtz_f16_f32, README_ADDITIONS.md); round() in
 * packUnorm/packSnorm is to nearest even (v_rndne_f32); frexp of an infinity or NaN gives
 * the input and exponent 0. fma is fused on gfx1030 (v_fma_f32) and a multiply then an add
 * on gfx7-9 (v_mad_f32, which never keeps denormals); GLSL allows either for a non-precise
 * fma, and the same holds for the multiply-add inside mod.
 *
 * RADV runs the shader with RSRC1.FLOAT_MODE 0xc0: f32 denormals flushed to a zero of their
 * sign on the way into and out of every float instruction (Vulkan lets an implementation
 * flush them; the capture's RSRC1 says it, and the interpreter models MODE). The reference
 * does the same: a, b, c, d are flushed before use and every float result after. Lanes with a
 * denormal a or b check it (ceil(+denormal) is 0, not 1; floor(-denormal) is -0, not -1).
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import {
  expectedRanges,
  f16Bits,
  f16Of,
  f32Bits,
  f32Of,
  ulpsForAbsoluteError,
  wordRanges,
  type ExpectedWord,
} from './radv-buffer-common.ts';
import type { Target } from './targets.ts';

export interface FloatInput {
  /** a, b, c, d as f32 bit patterns. */
  readonly f: readonly [number, number, number, number];
  /** n.x .. n.w as i32. */
  readonly n: readonly [number, number, number, number];
}

const fr = Math.fround;
const MAX_ULPS = 2 ** 31 - 1;

/** The next f32 above (up) or below a finite f32 value. */
function nextF32(x: number, up: boolean): number {
  if (x === 0) return up ? 2 ** -149 : -(2 ** -149);
  const b = f32Bits(x);
  return f32Of(x > 0 === up ? b + 1 : b - 1);
}

/** a*b + c with one rounding to f32 (the f32 product is exact in f64; TwoSum gives the sum's error). */
export function fusedMulAdd(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  if (!Number.isFinite(s)) return fr(s);
  const bb = s - p;
  const err = p - (s - bb) + (c - bb);
  const r = fr(s);
  if (err === 0 || r === s) return r;
  // s lies between r and its neighbour on s's side; only a tie at s is decided by the error.
  const other = nextF32(r, s > r);
  if (Math.abs(s - r) !== Math.abs(other - s)) return r;
  const above = err > 0;
  return above === other > r ? other : r;
}

/** A denormal to a zero of its sign. */
const flush = (x: number): number => (x !== 0 && Math.abs(x) < 2 ** -126 ? (x < 0 ? -0 : 0) : x);

/** v_mad_f32: the product rounded, then the sum rounded, denormals flushed on the way in and out. */
export function unfusedMulAdd(a: number, b: number, c: number): number {
  return flush(fr(flush(fr(flush(a) * flush(b))) + flush(c)));
}

const isFused = (t: Target): boolean => t.mcpu === 'gfx1030';

function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const d = x - f;
  const r = d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
  return r === 0 && (x < 0 || Object.is(x, -0)) ? -0 : r;
}

/** Saturating float-to-integer conversion, NaN to 0 (v_cvt_i32_f32 / v_cvt_u32_f32). */
function toInt(x: number, lo: number, hi: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.min(Math.max(Math.trunc(x), lo), hi) >>> 0;
}

/** clamp as v_med3_f32(lo, hi, x): a NaN gives min3 = lo (IEEE-mode min ignores the NaN). */
const clampMed3 = (x: number, lo: number, hi: number): number => (Number.isNaN(x) ? lo : Math.min(Math.max(x, lo), hi));

/** min/max in IEEE mode: one NaN operand gives the other; two give NaN. */
function minMax(a: number, b: number, max: boolean): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return max ? Math.max(a, b) : Math.min(a, b);
}

/** frexp: x = m * 2^e with 0.5 <= |m| < 1; zero gives (0, 0); infinity and NaN give (x, 0). */
function frexp(x: number): [number, number] {
  if (!Number.isFinite(x) || x === 0) return [x, 0];
  let e = Math.floor(Math.log2(Math.abs(x))) + 1;
  if (Math.abs(x) / 2 ** e >= 1) e++;
  else if (Math.abs(x) / 2 ** e < 0.5) e--;
  return [x / 2 ** e, e];
}

/** ULPs of a bound of `bound` ULPs around the exact value, plus the reference's own half ULP. */
const ulpBound = (bound: number): { ulps: number } => ({
  // A NaN bound (exp2 of NaN) compares the NaN by class; an infinite one is capped.
  ulps: Number.isNaN(bound) ? 0 : Math.min(Math.ceil(bound + 0.5), MAX_ULPS),
});
const absBound = (value: number, delta: number): { ulps: number } => ({
  ulps: Number.isFinite(value) ? Math.min(ulpsForAbsoluteError(value, delta), MAX_ULPS) : 0,
});
const EXACT_FLOAT = { ulps: 0 } as const;

/** The 32 expected words of one invocation, each with its compare. */
export function reference(input: FloatInput, t: Target): ExpectedWord[] {
  const [a, b, c, d] = input.f.map((w) => flush(f32Of(w)));
  const [nx, ny, nz, nw] = input.n.map((v) => v | 0);
  const F = (value: number, compare: ExpectedWord['compare'] = EXACT_FLOAT): ExpectedWord => ({
    value: f32Bits(flush(fr(value))),
    compare,
  });
  // An integer word compares exactly; in a 0-ULP f32 range that is the same unless the value is a
  // zero or a NaN pattern (then it could match -0 or another NaN), so those words stay 'exact'
  // and the rest join their float neighbours' ranges (fewer ranges in the capture).
  const U = (value: number): ExpectedWord => {
    const v = value >>> 0;
    const nanOrZero = (v & 0x7fffffff) === 0 || (v & 0x7fffffff) > 0x7f800000;
    return { value: v, compare: nanOrZero ? 'exact' : EXACT_FLOAT };
  };
  const abs = Math.abs(a);
  const inTrigRange = Number.isFinite(a) && abs <= Math.PI;
  const log2 = fr(Math.log2(abs));
  const sin = fr(Math.sin(a));
  const cos = fr(Math.cos(a));

  // mod: floor(a/b) must be the same over the division's bound (2.5 ULP, 3 from the rounded quotient).
  const q = fr(a / b);
  let modWord: ExpectedWord;
  if (Number.isFinite(q)) {
    let lo = q;
    let hi = q;
    for (let k = 0; k < 3; k++) {
      lo = nextF32(lo, false);
      hi = nextF32(hi, true);
    }
    const fl = Math.floor(q);
    const stable = Math.floor(lo) === fl && Math.floor(hi) === fl;
    const mod = isFused(t) ? fusedMulAdd(b, -fl, a) : unfusedMulAdd(b, -fl, a);
    modWord = stable ? F(mod) : { value: 0, compare: 'skip' };
  } else modWord = F(isFused(t) ? fusedMulAdd(b, -Math.floor(q), a) : unfusedMulAdd(b, -Math.floor(q), a));

  const pkrtz = (f16Bits(a, true) | (f16Bits(b, true) << 16)) >>> 0;
  const unorm8 = (x: number): number => roundHalfEven(fr(clampMed3(x, 0, 1) * 255));
  const snorm16 = (x: number): number => roundHalfEven(fr(Math.min(Math.max(x, -1), 1) * 32767)) & 0xffff;
  const [mant, exp] = frexp(a);
  const divisorInRange = Math.abs(b) >= 2 ** -126 && Math.abs(b) <= 2 ** 126;

  return [
    F(isFused(t) ? fusedMulAdd(a, b, c) : unfusedMulAdd(a, b, c)),
    F(fr(Math.sqrt(abs)), ulpBound(2 + 2.5)),
    F(fr(1 / Math.sqrt(abs)), ulpBound(2)),
    F(fr(2 ** a), ulpBound(3 + 2 * abs)),
    F(log2, abs >= 0.5 && abs <= 2 ? absBound(log2, 2 ** -21) : ulpBound(3)),
    inTrigRange ? F(sin, absBound(sin, 2 ** -11)) : { value: 0, compare: 'skip' },
    inTrigRange ? F(cos, absBound(cos, 2 ** -11)) : { value: 0, compare: 'skip' },
    F(Math.floor(a)),
    F(fr(a - Math.floor(a))),
    F(minMax(a, b, false)),
    F(minMax(a, b, true)),
    F(clampMed3(a, 0, 1)),
    U(toInt(a, -0x80000000, 0x7fffffff)),
    U(toInt(a, 0, 0xffffffff)),
    F(fr(nx)),
    F(fr(ny >>> 0)),
    U(pkrtz),
    F(f16Of(nz & 0xffff)),
    F(f16Of(nz >>> 16)),
    U((unorm8(a) | (unorm8(b) << 8) | (unorm8(c) << 16) | (unorm8(d) << 24)) >>> 0),
    // What v_cvt_pknorm_i16_f32 gives for a NaN the ISA manuals do not say (and GLSL leaves clamp of a NaN open).
    Number.isNaN(a) || Number.isNaN(b) ? { value: 0, compare: 'skip' } : U((snorm16(a) | (snorm16(b) << 16)) >>> 0),
    F(roundHalfEven(a)),
    F(Math.trunc(a)),
    F(Math.ceil(a)),
    divisorInRange || Number.isNaN(b) ? F(q, ulpBound(2.5)) : { value: 0, compare: 'skip' },
    // mod inherits the division's bound, so it has none where the division has none.
    divisorInRange || Number.isNaN(b) ? modWord : { value: 0, compare: 'skip' },
    F(fr(a * 2 ** (nw & 15))),
    F(mant),
    U(exp),
    U((Number.isNaN(a) ? 1 : 0) | (abs === Infinity ? 2 : 0)),
    F(-abs),
    F(fr(fr(nx) * 0.5 + fr(ny))),
  ];
}

const bits = f32Bits;
const NAN = 0x7fc00000;
const INF = 0x7f800000;

/** Inputs that reach the edges: NaN, infinities, zeros, ties, out-of-range conversions, fused vs unfused. */
function edgeInputs(): FloatInput[] {
  const e = (
    a: number,
    b: number,
    c = 1.25,
    d = 0.75,
    n: [number, number, number, number] = [3, -5, 0x3c00c000, 4],
  ) => ({
    f: [a, b, c, d] as [number, number, number, number],
    n,
  });
  const x = bits;
  return [
    e(NAN, x(1.5), x(2), x(0.5)),
    e(INF, x(1.5), x(-2), x(2)),
    e(INF | 0x80000000, x(-0.75), x(3), x(-1)),
    e(x(0), x(2), x(-1), x(0), [-0x80000000, -1, 0x7c00fc00, 15]),
    e(0x80000000, x(-3), x(0), x(1), [0x7fffffff, 0x7fffffff, 0x80000001, 7]),
    e(x(2.5), NAN, x(1), x(0.5)),
    e(x(-3.5), x(0.25), x(1), x(1.5)),
    e(x(0.5), x(-0.5), x(0.5), x(0.5 / 255)),
    e(x(3e9), x(1.75), x(1), x(0.25)),
    e(x(-3e9), x(-2.5), x(1), x(0.25)),
    e(x(5e9), x(3), x(1), x(0.25)),
    e(x(1e20), x(7), x(1), x(0.25)),
    e(x(-1e-3), x(0.125), x(0.001), x(0.002)),
    e(x(1), x(1), x(0), x(1)),
    e(x(7), x(2), x(0), x(1)),
    e(x(-7.25), x(2), x(0), x(1)),
    e(x(3.14159), x(-1), x(0), x(1)),
    e(x(-3.14159), x(0.3), x(0), x(1)),
    e(x(100.5), x(9), x(3), x(1)),
    e(x(1e-30), x(3), x(3), x(1)),
    e(x(70000), x(-70000), x(3), x(1)),
    e(x(65519), x(1 + 1.5 / 1024), x(3), x(1)),
    e(x(1.5), x(0.75), x(-1.125), x(1)),
    // (1 + 2^-12)^2 - 1: the fused result keeps the 2^-24 the rounded product loses.
    e(x(1 + 2 ** -12), x(1 + 2 ** -12), x(-1), x(1)),
    // A denormal addend beside a product of 15 and a denormal d: flushing changes nothing.
    e(x(3), x(5), 0x000116c2, 0x00000001),
    e(x(1e38), x(0.5), x(1), x(1), [1, 2, 3, 15]),
    e(x(2 ** -126), x(1.5), x(1), x(1), [1, 2, 3, 2]),
    e(x(0.999), x(-0.999), x(1.0000001), x(-0.0000001)),
    e(x(1.75), x(1.25), x(1), x(1), [0x01000001, 0x7fffff81, 0x00010400, 11]),
    e(x(0.75), x(2 ** -120), x(1), x(1)),
    // Denormal a (flushed: ceil gives 0, floor -0, frexp (0, 0), rsq inf) and a denormal b (min 0, no division bound).
    e(0x00400000, x(2.5), x(1), x(1), [1, 2, 3, 9]),
    e(0x80000001, x(-0.5), x(1), x(1), [1, 2, 3, 9]),
    e(x(1.5), 0x00000100, x(1), x(1)),
  ];
}

/** Random lanes: a in [-pi, pi], b in +-[0.1, 10], c in [-10, 10], d in [-0.5, 1.5]. */
function randomInput(r: () => number): FloatInput {
  const unit = (): number => r() / 2 ** 32;
  const a = fr((unit() * 2 - 1) * 3.14159);
  const b = fr((0.1 + unit() * 9.9) * (r() & 1 ? -1 : 1));
  const c = fr((unit() * 2 - 1) * 10);
  const d = fr(unit() * 2 - 0.5);
  // f16 halves: any pattern but NaN (an f16 NaN's payload is not what this kernel tests).
  const half = (): number => {
    const h = r() & 0xffff;
    return (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0 ? h & 0xfc00 : h;
  };
  const small = (r() & 1) === 0;
  return {
    f: [bits(a), bits(b), bits(c), bits(d)],
    n: [small ? (r() % 2001) - 1000 : r() | 0, r() | 0, half() | (half() << 16) | 0, r() | 0],
  };
}

export function inputs(seed: number, n: number): FloatInput[] {
  const r = rng(seed);
  const out = edgeInputs();
  while (out.length < n) out.push(randomInput(r));
  return out;
}

const LANES = 64;
const OUT = 0x30100000;

export const kernel: CorpusKernel = {
  id: 'radv/float_math',
  spec(t) {
    const ins = inputs(0xf1a7, LANES);
    const words = ins.flatMap((x) => [...x.f, ...x.n.map((v) => v >>> 0)]);
    const expected = ins.flatMap((x) => reference(x, t));
    return radvSpec(t, 'float_math', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', LANES * 32) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', LANES * 128) },
      ],
      group: LANES,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(words) },
        { name: 'out', address: OUT, data: { fill: 0xcd, size: LANES * 128 } },
      ],
      expected: expectedRanges(wordRanges(OUT, expected)),
    });
  },
};
