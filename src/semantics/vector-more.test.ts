/**
 * The vector ALU instructions of issue 4's last coverage step, on the concrete algebra, per lane, with
 * expectations written from AMD's ISA documents (each case names its text): the division macro's steps and
 * the macro as LLVM emits it, V_TRIG_PREOP_F64, V_CUBE*, the DX9 multiplies, gfx7's clamped transcendentals,
 * the 16-bit conversions, mads and min/max/med3, MIX, the 16-bit dot products, QSAD, and the refusals.
 */
import { describe, expect, it } from 'vitest';
import { assembleLine } from '../isa/asm.ts';
import { decodeAt } from '../isa/decoder.ts';
import { targetFor, type Target } from '../isa/gen.ts';
import type { FloatMode } from './algebra.ts';
import { concrete } from './concrete.ts';
import { SemanticsRefusal } from './context.ts';
import { f32Bits as b, f64Bits, f64Value } from './float.ts';
import { TWO_OVER_PI_WORDS } from './vector-float.ts';
import { runVector, VECTOR_UNCOVERED, vectorRefusal } from './vector.ts';

const VCC = 106;

interface Wave {
  v: Map<string, number>;
  s: Map<number, number>;
}

/** A wave of `lanes` active lanes; VGPR k of lane l from vgprs[k][l] (or one value for every lane). */
function wave(vgprs: Record<number, number | number[]>, sgprs: Record<number, number> = {}, lanes = 4): Wave {
  const w: Wave = { v: new Map(), s: new Map(Object.entries(sgprs).map(([k, x]) => [Number(k), x >>> 0])) };
  for (const [k, x] of Object.entries(vgprs))
    for (let l = 0; l < lanes; l++) w.v.set(`${k}:${l}`, (Array.isArray(x) ? x[l]! : x) >>> 0);
  return w;
}

/** Runs each line of `program` in order on the wave (lanes 0..lanes-1 active). */
function exec(t: Target, program: string, w: Wave, mode?: FloatMode, lanes = 4): Wave {
  for (const text of program
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const r = assembleLine(t, text);
    if (!r.words) throw new Error(`${text}: ${r.error?.message}`);
    const inst = decodeAt(t, Uint32Array.from(r.words), 0);
    runVector(concrete, t, inst, {
      lanes: t.wave64 ? 64 : 32,
      active: (l) => l < lanes,
      readVgpr: (i, l) => w.v.get(`${i}:${l}`) ?? 0,
      writeVgpr: (i, l, x) => void w.v.set(`${i}:${l}`, x >>> 0),
      readSgpr: (c) => w.s.get(c) ?? 0,
      writeSgpr: (c, x) => void w.s.set(c, x >>> 0),
      readScc: () => false,
      writeScc: () => {},
      ...(mode ? { floatMode: () => mode } : {}),
    });
  }
  return w;
}
const run = (
  t: Target,
  text: string,
  vgprs: Record<number, number | number[]>,
  sgprs: Record<number, number> = {},
  mode?: FloatMode,
): Wave => exec(t, text, wave(vgprs, sgprs), mode);
const lanesOf = (w: Wave, k: number, n = 4): number[] => Array.from({ length: n }, (_, l) => w.v.get(`${k}:${l}`) ?? 0);
const pairOf = (w: Wave, k: number, l = 0): [number, number] => [
  w.v.get(`${k}:${l}`) ?? 0,
  w.v.get(`${k + 1}:${l}`) ?? 0,
];

const G7 = targetFor('hawaii', true);
const G8 = targetFor('tonga', true);
const G9 = targetFor('gfx900', true);
const G10 = targetFor('gfx1030');
const G11 = targetFor('gfx1100');
const OFF: FloatMode = { f32Denormals: false, f64f16Denormals: false };
const p2 = (n: number): number => b(2 ** n);
const d = (x: number): [number, number] => f64Bits(x);

describe('V_DIV_SCALE_F32 / F64 (RDNA3.5 ISA 16.12 pseudocode)', () => {
  it('passes S0 through, gives NaN for a zero operand, and scales near overflow and underflow', () => {
    // S0 is the denominator (S0 = S1) on lanes 0-2, the numerator (S0 = S2) on lane 3.
    const den = run(G9, 'v_div_scale_f32 v0, vcc, v1, v2, v3', {
      1: [b(3), b(3), p2(-10), p2(-110)],
      2: [b(3), 0, p2(-10), p2(20)],
      3: [b(1), b(1), p2(100), p2(-110)],
    });
    // Lane 2: exponent(S2) - exponent(S1) = 110 >= 96 ("N/D near MAX_FLOAT"), VCC and S0 = S1 scaled by 2^64.
    // Lane 3: S2 / S1 = 2^-130 is a denormal: VCC, and the numerator (S0 = S2) scaled by 2^64.
    expect(lanesOf(den, 0)).toEqual([b(3), 0xffc00000, p2(54), p2(-46)]);
    expect(den.s.get(VCC)).toBe(0b1100);
    // The other operand of each pair is left as it is, but VCC still says post-scale.
    const num = run(G9, 'v_div_scale_f32 v0, vcc, v1, v2, v3', {
      1: [p2(100), p2(20)],
      2: [p2(-10), p2(20)],
      3: [p2(100), p2(-110)],
    });
    expect(lanesOf(num, 0, 2)).toEqual([p2(100), p2(20)]);
    expect(num.s.get(VCC)! & 3).toBe(0b11);
  });
  it('scales a tiny numerator and a denormal denominator by 2^64 without VCC; MODE flushing makes the denormal a zero', () => {
    // Lane 0: exponent(S2) = 17 <= 23 ("Numerator is tiny"), quotient 2^-110 normal. Lane 1: S1 = 2^-140 is a denormal.
    const regs = { 1: [p2(-110), 0x00000200], 2: [b(1), 0x00000200], 3: [p2(-110), p2(-100)] };
    const w = run(G11, 'v_div_scale_f32 v0, vcc_lo, v1, v2, v3', regs);
    expect(lanesOf(w, 0, 2)).toEqual([p2(-46), p2(-76)]);
    expect(w.s.get(VCC)! & 3).toBe(0);
    expect(lanesOf(run(G11, 'v_div_scale_f32 v0, vcc_lo, v1, v2, v3', regs, {}, OFF), 0, 2)[1]).toBe(0xffc00000);
  });
  it('thresholds: an exponent difference of 96 scales and 95 does not; exponent(S2) 23 scales and 24 does not', () => {
    const w = run(G9, 'v_div_scale_f32 v0, vcc, v1, v2, v3', {
      1: [b(1), b(1), p2(-104), p2(-103)],
      2: [b(1), b(1), b(1), b(1)],
      3: [p2(96), p2(95), p2(-104), p2(-103)],
    });
    // exponent(S2) = 23 is 2^-104, 24 is 2^-103: "Numerator is tiny" scales S0 (here S2) by 2^64, without VCC.
    expect(lanesOf(w, 0)).toEqual([p2(64), b(1), p2(-40), p2(-103)]);
    expect(w.s.get(VCC)).toBe(0b0001);
  });
  it("never applies the f32 reciprocal-denormal branches (`1.0 / 64'F(S1.f32) == DENORM.f64` cannot hold)", () => {
    // |S1| = 1.5 * 2^127: 1/S1 is an f32 denormal but never an f64 one; the quotient 2^-127/1.5 is a denormal: VCC, S0 = S1 unchanged.
    const big = b(1.5 * 2 ** 127);
    const w = run(G9, 'v_div_scale_f32 v0, vcc, v1, v2, v3', { 1: big, 2: big, 3: b(1) });
    expect(lanesOf(w, 0, 1)).toEqual([big]);
    expect(w.s.get(VCC)! & 1).toBe(1);
  });
  it('f64: thresholds 768 and 2^128, and the reciprocal test in its own type applies', () => {
    const w = run(G9, 'v_div_scale_f64 v[0:1], vcc, v[2:3], v[4:5], v[6:7]', {
      2: [d(2 ** -800)[0], d(2 ** 1023)[0]],
      3: [d(2 ** -800)[1], d(2 ** 1023)[1]],
      4: [d(2 ** -800)[0], d(2 ** 1023)[0]],
      5: [d(2 ** -800)[1], d(2 ** 1023)[1]],
      6: [d(1)[0], d(2 ** 10)[0]],
      7: [d(1)[1], d(2 ** 10)[1]],
    });
    // Lane 0: exponent difference 800 >= 768: VCC and S0 = S1 scaled by 2^128. Lane 1: 1/2^1023 is an f64
    // denormal and 2^10/2^1023 is not: S0 scaled by 2^-128, no VCC.
    expect(f64Value(pairOf(w, 0, 0))).toBe(2 ** -672);
    expect(f64Value(pairOf(w, 0, 1))).toBe(2 ** 895);
    expect(w.s.get(VCC)! & 3).toBe(0b01);
  });
});

describe('V_DIV_FMAS and V_DIV_FIXUP (RDNA3.5 ISA 16.12)', () => {
  it('fmas is fma, post-scaled by 2^64 up or down by S2 where VCC is set; inputs keep denormals', () => {
    const w = run(
      G9,
      'v_div_fmas_f32 v0, v1, v2, v3',
      { 1: b(2), 2: b(3), 3: [b(1), b(1), b(4), b(4)] },
      {
        [VCC]: 0b1110,
      },
    );
    expect(lanesOf(w, 0)).toEqual([b(7), b(7 * 2 ** -64), b(10 * 2 ** 64), b(10 * 2 ** 64)]);
    // "Input denormals are not flushed": 2^-130 * 2^10 = 2^-120 even with f32 denormals off (v_fma_f32 gives 0).
    const regs = { 1: 0x00080000, 2: p2(10), 3: 0 };
    expect(lanesOf(run(G9, 'v_div_fmas_f32 v0, v1, v2, v3', regs, {}, OFF), 0, 1)).toEqual([p2(-120)]);
    expect(lanesOf(run(G9, 'v_fma_f32 v0, v1, v2, v3', regs, {}, OFF), 0, 1)).toEqual([0]);
    const f64 = run(
      G9,
      'v_div_fmas_f64 v[0:1], v[2:3], v[4:5], v[6:7]',
      {
        2: d(2)[0],
        3: d(2)[1],
        4: d(3)[0],
        5: d(3)[1],
        6: d(1)[0],
        7: d(1)[1],
      },
      { [VCC]: 0b10 },
    );
    expect([f64Value(pairOf(f64, 0, 0)), f64Value(pairOf(f64, 0, 1))]).toEqual([7, 7 * 2 ** -128]);
  });
  it('fixup: NaN, 0/0, inf/inf, x/0, x/inf, the underflow branch and the sign of the quotient', () => {
    const q = b(1 / 3);
    const cases: [number, number, number, number][] = [
      [q, b(3), b(1), q],
      [q, b(-3), b(1), (q | 0x80000000) >>> 0],
      [q, 0, 0, 0xffc00000], // 0/0
      [q, 0x7f800000, 0xff800000, 0xffc00000], // inf/inf
      [q, 0x80000000, b(1), 0xff800000], // x/0, signs differ
      [q, b(2), 0x7f800000, 0x7f800000], // inf/y
      [q, 0x7f800000, b(1), 0], // x/inf
      [q, b(-2), 0, 0x80000000], // 0/y
      [q, b(1), 0x7f800001, 0x7fc00001], // NaN numerator, made quiet
      [q, 0xff800005, b(1), 0xffc00005], // NaN denominator
      [q, p2(100), p2(-100), 0], // exponent(S2) - exponent(S1) = -200 < -150: the quotient rounds to 0
      [0x7fc00000, b(-3), b(1), 0xffc00000], // sign_out ? -abs(S0) : abs(S0), even for a NaN quotient
    ];
    for (const [s0, s1, s2, want] of cases) {
      const w = run(G11, 'v_div_fixup_f32 v0, v1, v2, v3', { 1: s0, 2: s1, 3: s2 });
      expect(lanesOf(w, 0, 1)[0], `${s1.toString(16)} ${s2.toString(16)}`).toBe(want);
    }
    // f16 (0xfe00 for 0/0; a NaN quieted by bit 9) and f64 (0xfff8000000000000; underflow below -1075).
    const h = run(G9, 'v_div_fixup_f16 v0, v1, v2, v3', {
      1: 0x3555,
      2: [0x4200, 0, 0x8000, 0x3c00],
      3: [0x3c00, 0, 0x3c00, 0x7d00],
    });
    expect(lanesOf(h, 0)).toEqual([0x3555, 0xfe00, 0xfc00, 0x7f00]);
    const f = run(G10, 'v_div_fixup_f64 v[0:1], v[2:3], v[4:5], v[6:7]', {
      2: d(0.25)[0],
      3: d(0.25)[1],
      4: [0, d(2 ** 600)[0]],
      5: [0, d(2 ** 600)[1]],
      6: [0, d(2 ** -600)[0]],
      7: [0, d(2 ** -600)[1]],
    });
    expect([pairOf(f, 0, 0), pairOf(f, 0, 1)]).toEqual([
      [0, 0xfff80000],
      [0, 0],
    ]);
  });
  it('the f32 division macro LLVM emits gives the correctly rounded quotient, near overflow and underflow too', () => {
    const macro = (vcc: string, sd: string): string => `
      v_div_scale_f32 v2, ${sd}, v1, v1, v0
      v_div_scale_f32 v3, ${vcc}, v0, v1, v0
      v_rcp_f32 v4, v2
      v_fma_f32 v5, -v2, v4, 1.0
      v_fma_f32 v4, v5, v4, v4
      v_mul_f32 v5, v3, v4
      v_fma_f32 v6, -v2, v5, v3
      v_fma_f32 v5, v6, v4, v5
      v_fma_f32 v2, -v2, v5, v3
      v_div_fmas_f32 v2, v2, v4, v5
      v_div_fixup_f32 v0, v2, v1, v0`;
    const num = [b(1), b(1.5 * 2 ** 100), p2(-120), b(7)];
    const den = [b(3), p2(-10), p2(10), 0];
    const want = [b(1 / 3), b(1.5 * 2 ** 110), 0x00080000, 0x7f800000];
    expect(lanesOf(exec(G9, macro('vcc', 's[10:11]'), wave({ 0: num, 1: den })), 0)).toEqual(want);
    expect(lanesOf(exec(G11, macro('vcc_lo', 's10'), wave({ 0: num, 1: den })), 0)).toEqual(want);
  });
});

describe('V_TRIG_PREOP_F64 (RDNA3.5 ISA 16.12)', () => {
  // An independent 2/pi: pi from Gauss's formula pi = 48·atan(1/18) + 32·atan(1/57) - 20·atan(1/239).
  const guard = 1300n;
  const atanInv = (x: bigint): bigint => {
    let s = 0n;
    let t = (1n << guard) / x;
    for (let k = 0n; t !== 0n; k++) {
      s += (k % 2n === 0n ? t : -t) / (2n * k + 1n);
      t /= x * x;
    }
    return s;
  };
  const bits = (1n << (1202n + guard)) / (48n * atanInv(18n) + 32n * atanInv(57n) - 20n * atanInv(239n));
  /** The pseudocode on BigInt: the 53 bits after the first `shift`, times 2^scale, toward zero. */
  const expected = (shift: number, scale: number): number => {
    if (shift > 1200) return 0;
    const window = (bits >> BigInt(1148 - shift)) & ((1n << 53n) - 1n);
    const lost = Math.max(0, -1074 - scale);
    const kept = lost >= 64 ? 0n : (window >> BigInt(lost)) << BigInt(lost);
    return Number(kept) * 2 ** (scale + 200) * 2 ** -200;
  };

  it('holds the 1201 bits of 2/pi (two formulas agree; the top bits are 2/pi in f64)', () => {
    const words = Array.from({ length: 38 }, (_, i) => Number((bits >> BigInt(32 * i)) & 0xffffffffn));
    expect(TWO_OVER_PI_WORDS).toEqual(words);
    expect(TWO_OVER_PI_WORDS[37]!.toString(16)).toBe('145f3'); // bits 1200..1184: 2/pi = 0x0.a2f98...
    expect(Math.abs(Number(bits >> 1148n) / 2 ** 53 - 2 / Math.PI)).toBeLessThan(2 ** -52);
  });
  it('picks 53-bit segments by S1[4:0] and exponent(S0), scales, and rounds a denormal toward zero', () => {
    const x = [d(1), d(1), d(2 ** 1000), d(1)];
    const w = run(G9, 'v_trig_preop_f64 v[0:1], v[2:3], v4', {
      2: x.map((p) => p[0]),
      3: x.map((p) => p[1]),
      4: [0, 1, 2, 20],
    });
    // exponent(2^1000) = 2023: shift += 2023 - 1077 = 946, and >= 1968 adds 128 to the scale.
    // Segment 20 of 1.0: shift 1060, scale -1113, the low 39 bits cannot be held by the denormal result.
    const want = [expected(0, -53), expected(53, -106), expected(106 + 946, -53 - 1052 + 128), expected(1060, -1113)];
    expect([0, 1, 2, 3].map((l) => f64Value(pairOf(w, 0, l)))).toEqual(want);
    expect(pairOf(w, 0, 0)).toEqual([0x6dc9c882, 0x3fe45f30]); // 2/pi truncated to 53 bits (the f64 nearest ends ...883)
    expect(want[3]).toBeGreaterThan(0);
    expect(want[3]).toBeLessThan(2 ** -1022);
    // Past the 1201st bit nothing is left: segment 31 of 2^1000 (shift 1643 + 946).
    const far = run(G9, 'v_trig_preop_f64 v[0:1], v[2:3], 31', { 2: d(2 ** 1000)[0], 3: d(2 ** 1000)[1] });
    expect(pairOf(far, 0)).toEqual([0, 0]);
  });
});

describe('V_CUBE*, the DX9 multiplies, V_MULLIT (RDNA3.5 ISA 16.12; Sea Islands VOP2/VOP3 texts)', () => {
  it('cube face id, S, T and 2·major axis for a z-, x- and y-major vector', () => {
    const regs = { 1: [b(1), b(-4), b(1), b(0)], 2: [b(2), b(1), b(-5), b(0)], 3: [b(-3), b(2), b(2), b(0)] };
    const one = (op: string): number[] => lanesOf(run(G10, `v_cube${op}_f32 v0, v1, v2, v3`, regs), 0);
    expect(one('id')).toEqual([b(5), b(1), b(3), b(4)]); // (0, 0, 0): z-major, z not < 0
    expect(one('sc')).toEqual([b(-1), b(2), b(1), 0]);
    expect(one('tc')).toEqual([b(-2), b(-1), b(-2), 0x80000000]);
    expect(one('ma')).toEqual([b(-6), b(-8), b(-10), 0]);
  });
  it('0 times anything is +0 (mul), the addend itself (fma), then + S2 (gfx7 mad_legacy)', () => {
    const regs = { 1: [0, 0x80000000, 0x7fc00000, b(2)], 2: [0x7f800000, b(5), 0, b(3)], 3: 0x80000000 };
    const mul = [0, 0, 0, b(6)];
    expect(lanesOf(run(G11, 'v_mul_dx9_zero_f32 v0, v1, v2', regs), 0)).toEqual(mul);
    expect(lanesOf(run(G7, 'v_mul_legacy_f32 v0, v1, v2', regs), 0)).toEqual(mul);
    expect(lanesOf(run(G10, 'v_mul_legacy_f32 v0, v1, v2', regs), 0)).toEqual(mul);
    const fma = [0x80000000, 0x80000000, 0x80000000, b(6)];
    expect(lanesOf(run(G11, 'v_fma_dx9_zero_f32 v0, v1, v2, v3', regs), 0)).toEqual(fma);
    expect(lanesOf(run(G10, 'v_fma_legacy_f32 v0, v1, v2, v3', regs), 0)).toEqual(fma);
    expect(lanesOf(run(G10, 'v_fmac_legacy_f32 v3, v1, v2', regs), 3)).toEqual(fma);
    expect(lanesOf(run(G11, 'v_fmac_dx9_zero_f32 v3, v1, v2', regs), 3)).toEqual(fma);
    expect(lanesOf(run(G7, 'v_mad_legacy_f32 v0, v1, v2, v3', regs), 0)).toEqual([0, 0, 0, b(6)]);
    expect(lanesOf(run(G7, 'v_mac_legacy_f32 v3, v1, v2', regs), 3)).toEqual([0, 0, 0, b(6)]);
  });
  it('mullit gives -MAX_FLOAT for S1 -MAX/-inf/NaN or S2 <= 0/NaN, else the DX9 product', () => {
    const w = run(G11, 'v_mullit_f32 v0, v1, v2, v3', {
      1: [b(2), b(2), b(2), 0],
      2: [b(3), b(3), 0xff800000, 0x7f800000],
      3: [b(1), 0x80000000, b(1), b(1)],
    });
    expect(lanesOf(w, 0)).toEqual([b(6), 0xff7fffff, 0xff7fffff, 0]);
  });
  it('gfx7 min/max_legacy: DX9 (S0 < S1 ? S0 : S1, S0 >= S1 ? S0 : S1), so a NaN S0 gives S1 and a NaN S1 gives S1', () => {
    const regs = { 1: [0x7fc00000, b(1), b(2), b(-1)], 2: [b(1), 0x7fc00000, b(1), b(-1)] };
    expect(lanesOf(run(G7, 'v_min_legacy_f32 v0, v1, v2', regs), 0)).toEqual([b(1), 0x7fc00000, b(1), b(-1)]);
    expect(lanesOf(run(G7, 'v_max_legacy_f32 v0, v1, v2', regs), 0)).toEqual([b(1), 0x7fc00000, b(2), b(-1)]);
  });
  it('gfx7 clamped and legacy reciprocals (Sea Islands VOP1 texts)', () => {
    const regs = { 1: [0, 0x80000000, b(2), 0x7f800000] };
    expect(lanesOf(run(G7, 'v_rcp_clamp_f32 v0, v1', regs), 0)).toEqual([0x7f7fffff, 0xff7fffff, b(0.5), 0]);
    expect(lanesOf(run(G7, 'v_rcp_legacy_f32 v0, v1', regs), 0)).toEqual([0, 0x80000000, b(0.5), 0]);
    expect(lanesOf(run(G7, 'v_rsq_clamp_f32 v0, v1', regs), 0)[0]).toBe(0x7f7fffff);
    expect(lanesOf(run(G7, 'v_log_clamp_f32 v0, v1', regs), 0)).toEqual([0xff7fffff, 0xff7fffff, b(1), 0x7f800000]);
    const f = run(G7, 'v_rcp_clamp_f64 v[0:1], v[2:3]', { 2: 0, 3: [0, 0x80000000, 0, 0] });
    expect([pairOf(f, 0, 0), pairOf(f, 0, 1)]).toEqual([
      [0xffffffff, 0x7fefffff],
      [0xffffffff, 0xffefffff],
    ]);
  });
});

describe('16-bit conversions (RDNA3.5 ISA 16.12 V_CVT_F16_U16 ... V_CVT_NORM_U16_F16, V_SAT_PK_U8_I16)', () => {
  it('integers to f16 round to nearest even; f16 to integers truncate, saturate, NaN 0', () => {
    expect(lanesOf(run(G9, 'v_cvt_f16_u16 v0, v1', { 1: [65535, 2049, 0, 1] }), 0)).toEqual([
      0x7c00, 0x6800, 0, 0x3c00,
    ]);
    expect(lanesOf(run(G9, 'v_cvt_f16_i16 v0, v1', { 1: [0xffff, 0x8000, 3, 0] }), 0)).toEqual([
      0xbc00, 0xf800, 0x4200, 0,
    ]);
    expect(lanesOf(run(G9, 'v_cvt_u16_f16 v0, v1', { 1: [0xc000, 0x7c00, 0x7e00, 0x3e00] }), 0)).toEqual([
      0, 0xffff, 0, 1,
    ]);
    expect(lanesOf(run(G9, 'v_cvt_i16_f16 v0, v1', { 1: [0xfbff, 0x7bff, 0xc0c0, 0x7e00] }), 0)).toEqual([
      0x8000, 0x7fff, 0xfffe, 0,
    ]);
  });
  it('f16 to SNORM / UNORM rounds the exact scaled value (0.50048828125 · 32767 = 16399.49...)', () => {
    const x = [0x3801, 0xbe00, 0x7e00, 0x3c00];
    expect(lanesOf(run(G9, 'v_cvt_norm_i16_f16 v0, v1', { 1: x }), 0)).toEqual([16399, 0x8001, 0, 0x7fff]);
    expect(lanesOf(run(G9, 'v_cvt_norm_u16_f16 v0, v1', { 1: x }), 0)).toEqual([32799, 0, 0, 0xffff]);
    expect(
      lanesOf(run(G11, 'v_cvt_pk_norm_i16_f16 v0, v1, v2 op_sel:[1,0,0]', { 1: 0x38010000, 2: 0xbe00 }), 0)[0],
    ).toBe(0x8001400f);
    expect(lanesOf(run(G9, 'v_cvt_pknorm_u16_f16 v0, v1, v2', { 1: 0x3c00, 2: 0x3801 }), 0)[0]).toBe(0x801fffff);
    // The f32 forms round exactly too: 0.50048828125 is also an f32.
    expect(lanesOf(run(G9, 'v_cvt_pknorm_i16_f32 v0, v1, v2', { 1: b(0.50048828125), 2: 0 }), 0)[0]).toBe(16399);
  });
  it('cvt_off_f32_i4 reads S0[3:0] as a signed nibble / 16; sat_pk_u8_i16 clamps each half to [0, 255]', () => {
    expect(lanesOf(run(G9, 'v_cvt_off_f32_i4 v0, v1', { 1: [8, 15, 7, 0x13] }), 0)).toEqual([
      b(-0.5),
      b(-0.0625),
      b(0.4375),
      b(0.1875),
    ]);
    expect(
      lanesOf(run(G11, 'v_sat_pk_u8_i16 v0, v1', { 0: 0xdead0000, 1: [0x80000105, 0x0080007f, 0xffff0001, 0] }), 0),
    ).toEqual([0xdead00ff, 0xdead807f, 0xdead0001, 0xdead0000]);
  });
  it('frexp of f16: the widened value frexp-ed; NaN and inf returned as they are, their exponent 0', () => {
    const x = [0x4500, 0x0001, 0x7d00, 0xfc00];
    expect(lanesOf(run(G9, 'v_frexp_mant_f16 v0, v1', { 1: x }), 0)).toEqual([0x3900, 0x3800, 0x7d00, 0xfc00]);
    expect(lanesOf(run(G9, 'v_frexp_exp_i16_f16 v0, v1', { 1: x }), 0)).toEqual([3, 0xffe9, 0, 0]);
  });
  it('cvt_pk_i16_f32 / cvt_pk_u16_f32 truncate and saturate each f32 to 16 bits, S1 high', () => {
    const regs = { 1: [b(1e6), 0x7fc00000, b(-5)], 2: [b(-1e6), b(2.7), b(70000.5)] };
    expect(lanesOf(run(G11, 'v_cvt_pk_i16_f32 v0, v1, v2', regs), 0, 3)).toEqual([0x80007fff, 0x00020000, 0x7ffffffb]);
    expect(lanesOf(run(G11, 'v_cvt_pk_u16_f32 v0, v1, v2', regs), 0, 3)).toEqual([0x0000ffff, 0x00020000, 0xffff0000]);
  });
});

describe('16-bit float mads, fmas and min/max (CDNA4 12.11, GCN3 VOP2, RDNA3.5 16.12)', () => {
  // (1 + 2^-10)^2 - (1 + 2^-9) is 2^-20: an f16 denormal (0x0010) when fused, 0 when the product is rounded first.
  const x = 0x3c01;
  const z = 0xbc02;
  it('gfx8/9 mads round the product to f16 first and flush f16 denormals; gfx10+ fmas round once', () => {
    expect(lanesOf(run(G9, 'v_mad_f16 v0, v1, v2, v3', { 1: x, 2: x, 3: z }), 0, 1)).toEqual([0]);
    expect(lanesOf(run(G9, 'v_mad_legacy_f16 v0, v1, v2, v3', { 1: x, 2: x, 3: z }), 0, 1)).toEqual([0]);
    expect(lanesOf(run(G9, 'v_fma_legacy_f16 v0, v1, v2, v3', { 1: x, 2: x, 3: z }), 0, 1)).toEqual([0x0010]);
    expect(lanesOf(run(G8, 'v_mac_f16 v0, v1, v2', { 0: z, 1: x, 2: x }), 0, 1)).toEqual([0]);
    expect(lanesOf(run(G10, 'v_fmac_f16 v0, v1, v2', { 0: 0xdead0000 | z, 1: x, 2: x }), 0, 1)).toEqual([0xdead0010]);
    // K constants (the literal's low half): 1.5 * 2 + 1 = 4 (0x4400).
    expect(lanesOf(run(G9, 'v_madmk_f16 v0, v1, 0x4000, v2', { 1: 0x3e00, 2: 0x3c00 }), 0, 1)).toEqual([0x4400]);
    expect(lanesOf(run(G9, 'v_madak_f16 v0, v1, v2, 0x3c00', { 1: 0x3e00, 2: 0x4000 }), 0, 1)).toEqual([0x4400]);
    expect(lanesOf(run(G11, 'v_fmamk_f16 v0, v1, 0x4000, v2', { 1: 0x3e00, 2: 0x3c00 }), 0, 1)).toEqual([0x4400]);
    expect(lanesOf(run(G11, 'v_fmaak_f16 v0, v1, v2, 0x3c00', { 1: 0x3e00, 2: 0x4000 }), 0, 1)).toEqual([0x4400]);
  });
  it('min3 / max3 / med3 / maxmin / minmax of f16, i16, u16', () => {
    const f = { 1: [0x3c00, 0x7e00, 0xc000], 2: [0x7e00, 0x4000, 0x4000], 3: [0x4000, 0x3c00, 0x3c00] };
    expect(lanesOf(run(G9, 'v_med3_f16 v0, v1, v2, v3', f), 0, 3)).toEqual([0x3c00, 0x3c00, 0x3c00]);
    expect(lanesOf(run(G9, 'v_max3_f16 v0, v1, v2, v3', f), 0, 3)).toEqual([0x4000, 0x4000, 0x4000]);
    expect(lanesOf(run(G9, 'v_min3_f16 v0, v1, v2, v3', f), 0, 3)).toEqual([0x3c00, 0x3c00, 0xc000]);
    expect(lanesOf(run(G11, 'v_maxmin_f16 v0, v1, v2, v3', f), 0, 3)).toEqual([0x3c00, 0x3c00, 0x3c00]);
    expect(lanesOf(run(G11, 'v_minmax_f16 v0, v1, v2, v3', f), 0, 3)).toEqual([0x4000, 0x4000, 0x3c00]);
    const i = { 1: [0xffff, 5, 0x8000], 2: [1, 7, 0x7fff], 3: [0, 6, 0] };
    expect(lanesOf(run(G9, 'v_med3_i16 v0, v1, v2, v3', i), 0, 3)).toEqual([0, 6, 0]);
    expect(lanesOf(run(G9, 'v_med3_u16 v0, v1, v2, v3', i), 0, 3)).toEqual([1, 6, 0x7fff]);
    expect(lanesOf(run(G9, 'v_max3_i16 v0, v1, v2, v3', i), 0, 3)).toEqual([1, 7, 0x7fff]);
    expect(lanesOf(run(G9, 'v_min3_u16 v0, v1, v2, v3', i), 0, 3)).toEqual([0, 5, 0]);
  });
});

describe('16-bit and mixed integer multiply-adds (RDNA3.5 ISA 16.12, CDNA4 12.11)', () => {
  it('mad_u16 / mad_i16 wrap, or saturate with clamp; mad_u32_u16 / mad_i32_i16 widen', () => {
    const u = { 1: [0xffff, 3], 2: [2, 4], 3: [3, 5] };
    expect(lanesOf(run(G9, 'v_mad_u16 v0, v1, v2, v3', u), 0, 2)).toEqual([1, 17]);
    expect(lanesOf(run(G9, 'v_mad_u16 v0, v1, v2, v3 clamp', u), 0, 2)).toEqual([0xffff, 17]);
    expect(lanesOf(run(G9, 'v_mad_legacy_u16 v0, v1, v2, v3 clamp', u), 0, 2)).toEqual([0xffff, 17]);
    const i = { 1: [0x8000, 0xffff], 2: [2, 0xffff], 3: [0, 5] };
    expect(lanesOf(run(G10, 'v_mad_i16 v0, v1, v2, v3', { ...i, 0: 0xbeef0000 }), 0, 2)).toEqual([
      0xbeef0000, 0xbeef0006,
    ]);
    expect(lanesOf(run(G10, 'v_mad_i16 v0, v1, v2, v3 clamp', i), 0, 2)).toEqual([0x8000, 6]);
    expect(lanesOf(run(G9, 'v_mad_u32_u16 v0, v1, v2, v3', { 1: 0xffff, 2: 0xffff, 3: 1 }), 0, 1)).toEqual([
      0xfffe0002,
    ]);
    expect(lanesOf(run(G9, 'v_mad_i32_i16 v0, v1, v2, v3', i), 0, 2)).toEqual([0xffff0000, 6]);
  });
  it('mad_i64_i32: the 64-bit sum, and bit 64 of the 65-bit sum in SDST', () => {
    const w = run(G9, 'v_mad_i64_i32 v[0:1], s[4:5], v2, v3, v[6:7]', {
      2: [0xffffffff, 2, 0x80000000],
      3: [1, 3, 0x80000000],
      6: [0, 4, 0xffffffff],
      7: [0, 0, 0x7fffffff],
    });
    expect([pairOf(w, 0, 0), pairOf(w, 0, 1), pairOf(w, 0, 2)]).toEqual([
      [0xffffffff, 0xffffffff],
      [10, 0],
      [0xffffffff, 0xbfffffff], // 2^62 + 2^63 - 1: positive in 65 bits, bit 64 clear
    ]);
    expect(w.s.get(4)! & 7).toBe(0b001);
  });
  it('qsad / mqsad: four byte SADs of the sliding 32-bit windows of S0, each + a field of S2', () => {
    const regs = { 2: 0x04030201, 3: 0x08070605, 4: 0x04030201, 6: 0x00020001, 7: 0x00040003 };
    expect(pairOf(run(G9, 'v_qsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]', regs), 0)).toEqual([0x00060001, 0x0010000b]);
    const zeroRef = { ...regs, 4: 0x04030001 };
    expect(pairOf(run(G9, 'v_mqsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]', zeroRef), 0)).toEqual([
      0x00050001, 0x000d0009,
    ]);
    expect(pairOf(run(G9, 'v_qsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]', zeroRef), 0)).toEqual([
      0x00080003, 0x0012000d,
    ]);
    // V_MQSAD_U32_U8: 32-bit accumulators (v8..v11) and a 128-bit result, nothing truncated.
    const wide = run(G11, 'v_mqsad_u32_u8 v[0:3], v[4:5], v6, v[8:11]', {
      4: 0x04030201,
      5: 0x08070605,
      6: 0x04030001,
      8: 100,
      9: 200,
      10: 0xffffff00,
      11: 400,
    });
    expect([0, 1, 2, 3].map((k) => lanesOf(wide, k, 1)[0])).toEqual([100, 203, 0xffffff06, 409]);
  });
  it('cndmask_b16 selects by S2, pack_b32_f16 packs the op_sel halves with their modifiers', () => {
    const c = run(G11, 'v_cndmask_b16 v0, v1, v2, s4', { 0: 0xffff0000, 1: 0x1111, 2: 0x2222 }, { 4: 0b0110 });
    expect(lanesOf(c, 0)).toEqual([0xffff1111, 0xffff2222, 0xffff2222, 0xffff1111]);
    expect(
      lanesOf(run(G11, 'v_pack_b32_f16 v0, -v1, v2 op_sel:[1,0,0]', { 1: 0x3c000000, 2: 0x12344000 }), 0, 1),
    ).toEqual([0x4000bc00]);
  });
});

describe('VOP3P: packed fma/mad, MIX, 16-bit dot products (RDNA3.5 ISA 16.10, RDNA2 V_PK_FMAC_F16)', () => {
  it('pk_fma_f16, pk_mad_u16 per half; pk_fmac_f16 accumulates into D', () => {
    // lo: 1.5 * 2 + 0.25 = 3.25 (0x4280); hi: -1 * 1 + 1 = 0.
    expect(
      lanesOf(run(G9, 'v_pk_fma_f16 v0, v1, v2, v3', { 1: 0xbc003e00, 2: 0x3c004000, 3: 0x3c003400 }), 0, 1),
    ).toEqual([0x00004280]);
    expect(
      lanesOf(run(G10, 'v_pk_fmac_f16 v3, v1, v2', { 1: 0xbc003e00, 2: 0x3c004000, 3: 0x3c003400 }), 3, 1),
    ).toEqual([0x00004280]);
    expect(
      lanesOf(run(G9, 'v_pk_mad_u16 v0, v1, v2, v3', { 1: 0x0002ffff, 2: 0x00030002, 3: 0x00010003 }), 0, 1),
    ).toEqual([0x00070001]);
  });
  it('MIX: op_sel_hi picks f16 halves (op_sel which), neg negates and neg_hi is abs; _lo/_hi keep the other half', () => {
    // in0 = -(f16 hi of v1) = -2, in1 = |f32 v2| = 3, in2 = f16 lo of v3 = 0.5: -2 * 3 + 0.5 = -5.5.
    const regs = { 0: 0xaaaabbbb, 1: 0x40003c00, 2: b(-3), 3: 0x12343800 };
    const text = 'v_fma_mix_f32 v0, -v1, |v2|, v3 op_sel:[1,0,0] op_sel_hi:[1,0,1]';
    expect(lanesOf(run(G10, text, regs), 0, 1)).toEqual([b(-5.5)]);
    expect(lanesOf(run(G10, text.replace('mix_f32', 'mixlo_f16'), regs), 0, 1)).toEqual([0xaaaac580]);
    expect(lanesOf(run(G11, text.replace('mix_f32', 'mixhi_f16'), regs), 0, 1)).toEqual([0xc580bbbb]);
    // clamp acts on the f32 value before the conversion: 2 * 1 + 0 → 1.0.
    expect(
      lanesOf(run(G9, 'v_mad_mixlo_f16 v0, v1, v2, v3 clamp', { 0: 0xffff0000, 1: b(2), 2: b(1), 3: 0 }), 0, 1),
    ).toEqual([0xffff3c00]);
    // gfx9's mad_mix rounds the product (as v_mad_f32), gfx10's fma_mix does not.
    const r = { 1: b(1 + 2 ** -12), 2: b(1 + 2 ** -12), 3: b(-1) };
    expect(lanesOf(run(G9, 'v_mad_mix_f32 v0, v1, v2, v3', r), 0, 1)).toEqual([b(2 ** -11)]);
    expect(lanesOf(run(G10, 'v_fma_mix_f32 v0, v1, v2, v3', r), 0, 1)).toEqual([b(2 ** -11 + 2 ** -24)]);
  });
  it('dot2_f16_f16 rounds each product and each sum to f16; op_sel[2] reads S2 high, op_sel[3] writes D high', () => {
    // (1 + 2^-10)^2 rounds to 1 + 2^-9 before -(1 + 2^-9) is added: 0 (one rounding would leave 2^-20, 0x0010).
    expect(lanesOf(run(G11, 'v_dot2_f16_f16 v0, v1, v2, v3', { 1: 0x3c01, 2: 0x3c01, 3: 0xbc02 }), 0, 1)).toEqual([0]);
    // 1.5 + 2 * 3 + 0.5 * -4 = 5.5 (0x4580).
    const regs = { 0: 0x1234abcd, 1: 0x38004000, 2: 0xc4004200, 3: 0x3e000000 };
    expect(lanesOf(run(G11, 'v_dot2_f16_f16 v0, v1, v2, v3 op_sel:[0,0,1,1]', regs), 0, 1)).toEqual([0x4580abcd]);
    // bf16: 1.5 * 2 + 1 * 1 + 1 = 5 (0x40a0).
    expect(
      lanesOf(run(G11, 'v_dot2_bf16_bf16 v0, v1, v2, v3', { 1: 0x3f803fc0, 2: 0x3f804000, 3: 0x3f80 }), 0, 1),
    ).toEqual([0x40a0]);
    // dot2_f32_bf16: 1.5 * 2 + 2 * 3 + 0.5 = 9.5.
    expect(
      lanesOf(run(G11, 'v_dot2_f32_bf16 v0, v1, v2, v3', { 1: 0x40003fc0, 2: 0x40404000, 3: b(0.5) }), 0, 1),
    ).toEqual([b(9.5)]);
    expect(() => run(G11, 'v_dot2_f16_f16 v0, -v1, v2, v3', {})).toThrow(SemanticsRefusal);
  });
  it('dot4_i32_iu8 / dot8_i32_iu4: NEG[0] and NEG[1] make S0 and S1 signed', () => {
    // Bytes of S0: 0xff, 2, 0x80, 1; of S1: 3, 0xff, 1, 2.
    const regs = { 1: 0x018002ff, 2: 0x0201ff03, 3: 10 };
    const dot = (text: string): number => lanesOf(run(G11, text, regs), 0, 1)[0]!;
    expect(dot('v_dot4_i32_iu8 v0, v1, v2, v3')).toBe(10 + 255 * 3 + 2 * 255 + 128 * 1 + 1 * 2);
    expect(dot('v_dot4_i32_iu8 v0, v1, v2, v3 neg_lo:[1,0,0]')).toBe(10 - 3 + 2 * 255 - 128 + 2);
    expect(dot('v_dot4_i32_iu8 v0, v1, v2, v3 neg_lo:[1,1,0]')).toBe((10 - 3 - 2 - 128 + 2) >>> 0);
    // Nibbles of S0 0x000000f1: 1, 15 (-1 signed); of S1 0x00000023: 3, 2.
    const n = { 1: 0xf1, 2: 0x23, 3: 0 };
    expect(lanesOf(run(G11, 'v_dot8_i32_iu4 v0, v1, v2, v3', n), 0, 1)).toEqual([3 + 30]);
    expect(lanesOf(run(G11, 'v_dot8_i32_iu4 v0, v1, v2, v3 neg_lo:[1,0,0]', n), 0, 1)).toEqual([3 - 2]);
    expect(() => run(G11, 'v_dot4_i32_iu8 v0, v1, v2, v3 neg_lo:[0,0,1]', {})).toThrow(SemanticsRefusal);
  });
});

describe('no-ops and refusals', () => {
  it('v_clrexcp and v_pipeflush change no register', () => {
    for (const [t, text] of [
      [G9, 'v_clrexcp'],
      [G10, 'v_pipeflush'],
    ] as const) {
      const w = run(t, text, { 0: 7, 1: 8 }, { [VCC]: 5 });
      expect([lanesOf(w, 0), lanesOf(w, 1), [...w.s]]).toEqual([[7, 7, 7, 7], [8, 8, 8, 8], [[VCC, 5]]]);
    }
  });
  it('names the reason before a dispatch for what has no documented meaning here', () => {
    for (const [t, text, why] of [
      [G9, 'v_cvt_pk_u8_f32 v0, v1, v2, v3', 'f32_to_u8'],
      [G9, 'v_exp_legacy_f32 v0, v1', 'legacy semantics'],
      [G7, 'v_rsq_legacy_f32 v0, v1', 'legacy'],
    ] as const) {
      const r = assembleLine(t, text);
      if (!r.words) throw new Error(`${text}: ${r.error?.message}`);
      expect(vectorRefusal(t, decodeAt(t, Uint32Array.from(r.words), 0)), text).toContain(why);
    }
    for (const name of ['v_interp_p1_f32_e64', 'v_illegal', 'v_wmma_f32_16x16x16_f16']) {
      expect(VECTOR_UNCOVERED[name]?.reason, name).toBeTruthy();
    }
  });
});
