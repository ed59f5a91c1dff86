/**
 * The concrete algebra's float operations: the fused multiply-add against exact BigInt
 * rounding, f16 conversions over every f16 value, and the IEEE / AMD rules cited per case.
 */
import { describe, expect, it } from 'vitest';
import type { FloatMode } from './algebra.ts';
import { concrete as a } from './concrete.ts';
import { f32Bits, f32Value, fma64Value } from './float.ts';

const ON: FloatMode = { f32Denormals: true, f64f16Denormals: true };
const OFF: FloatMode = { f32Denormals: false, f64f16Denormals: false };
const b = (x: number): number => f32Bits(x);

/** Exact a*b+c rounded to f32 via BigInt rationals (the reference for fFma). */
function fmaRef(x: number, y: number, z: number): number {
  // fma64Value is exact at f64; rounding its exact input to f32 needs the exact value, so scale:
  // the product and the sum are exact as BigInt multiples of 2^-300.
  const toBig = (v: number): bigint => BigInt(Math.round(v * 2 ** 149)); // f32 values are multiples of 2^-149
  const p = toBig(x) * toBig(y); // multiple of 2^-298
  const s = p + toBig(z) * 2n ** 149n;
  if (s === 0n) return 0;
  const neg = s < 0n;
  let m = neg ? -s : s;
  let e = -298;
  const len = m.toString(2).length;
  const q = Math.max(e + len - 24, -149);
  const sh = BigInt(q - e);
  if (sh > 0n) {
    const keep = m >> sh;
    const rem = m & ((1n << sh) - 1n);
    const half = 1n << (sh - 1n);
    m = rem > half || (rem === half && (keep & 1n) === 1n) ? keep + 1n : keep;
    e = q;
  }
  const v = Number(m) * 2 ** e;
  return Math.fround(neg ? -v : v);
}

describe('fused multiply-add (f32) rounds once', () => {
  it('matches exact rounding on random and hard cases', () => {
    let s = 0x12345678;
    const rnd = (): number => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return s >>> 0;
    };
    for (let i = 0; i < 3000; i++) {
      // Exponents kept near each other so the product and addend cancel or tie often.
      const x = (rnd() & 0x8fffffff) | 0x3f000000;
      const y = (rnd() & 0x807fffff) | 0x3f800000;
      const z = (rnd() & 0x80ffffff) | 0x3f000000;
      const want = fmaRef(f32Value(x), f32Value(y), f32Value(z));
      expect(a.fFma(x, y, z, ON), `${x.toString(16)} ${y.toString(16)} ${z.toString(16)}`).toBe(b(want));
    }
  });
  it('differs from v_mad_f32 (mul then add) where the product is inexact', () => {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: fma keeps 2^-24 against -1; mul rounds it away first.
    const x = b(1 + 2 ** -12);
    const one = b(-1);
    expect(f32Value(a.fFma(x, x, one, ON))).toBe(2 ** -11 + 2 ** -24);
    expect(f32Value(a.fAdd(a.fMul(x, x, ON), one, ON))).toBe(2 ** -11);
  });
  it('f64 fma is exact: (1 + 2^-30)^2 - 1', () => {
    const x = 1 + 2 ** -30;
    expect(fma64Value(x, x, -1)).toBe(2 ** -29 + 2 ** -60);
  });
});

describe('min/max, compares, NaN and denormals', () => {
  it('a NaN operand returns the other (RDNA3 ISA, V_MIN_F32 / V_MAX_F32)', () => {
    expect(a.fMin(0x7fc00000, b(3), ON)).toBe(b(3));
    expect(a.fMax(b(3), 0xffc00001, ON)).toBe(b(3));
  });
  it('-0 < +0 in min/max (RDNA3 ISA: LT_NEG_ZERO / GT_NEG_ZERO)', () => {
    expect(a.fMin(0, 0x80000000, ON)).toBe(0x80000000);
    expect(a.fMax(0x80000000, 0, ON)).toBe(0);
  });
  it('ordered predicates are false on NaN, n* ones true (Vega ISA, VOPC float compares)', () => {
    const n = 0x7fc00000;
    for (const p of ['lt', 'eq', 'le', 'gt', 'lg', 'ge', 'o', 'f'] as const)
      expect(a.fCmp(p, n, b(1), ON), p).toBe(false);
    for (const p of ['u', 'nge', 'nlg', 'ngt', 'nle', 'neq', 'nlt', 'tru'] as const)
      expect(a.fCmp(p, n, b(1), ON), p).toBe(true);
    expect(a.fCmp('eq', 0, 0x80000000, ON)).toBe(true);
    expect(a.fCmp('lg', b(1), b(2), ON)).toBe(true);
  });
  it('denormals flush to a signed zero when MODE says so (Vega ISA, "Denormals")', () => {
    expect(a.fAdd(0x00000001, 0, ON)).toBe(1);
    expect(a.fAdd(0x00000001, 0, OFF)).toBe(0);
    expect(a.fMul(0x80400000, b(1), OFF)).toBe(0x80000000);
    expect(a.fMul(b(2 ** -100), b(2 ** -30), OFF)).toBe(0);
    expect(a.fMul(b(2 ** -100), b(2 ** -30), ON)).toBe(b(2 ** -130));
  });
  it('invalid operations give the default NaN; NaN inputs come out quiet', () => {
    // RDNA3 ISA 16.12's functional examples give 0xffc00000 for invalid operations (V_LOG_F32(-1.0), V_SQRT_F32(-INF)).
    expect(a.fAdd(0x7f800000, 0xff800000, ON)).toBe(0xffc00000);
    expect(a.fMul(0x7f800001, b(1), ON)).toBe(0x7fc00001);
  });
});

describe('conversions', () => {
  it('cvt_i32/u32_f32 truncate, saturate, NaN → 0 (RDNA3 ISA, V_CVT_I32_F32)', () => {
    expect(a.fToI32(b(-2.7), ON)).toBe(0xfffffffe);
    expect(a.fToI32(b(3e9), ON)).toBe(0x7fffffff);
    expect(a.fToI32(b(-3e9), ON)).toBe(0x80000000);
    expect(a.fToI32(0x7fc00000, ON)).toBe(0);
    expect(a.fToU32(b(-1), ON)).toBe(0);
    expect(a.fToU32(b(5e9), ON)).toBe(0xffffffff);
    expect(a.fToU32(0xff800000, ON)).toBe(0);
    expect(a.fFromU32(0xffffffff)).toBe(b(4294967296));
    expect(a.fFromI32(0x7fffffff)).toBe(b(2147483648));
    expect(a.fFromI32(16777217)).toBe(b(16777216)); // ties to even
  });
  it('f16 → f32 → f16 is the identity on every f16 (NaNs stay NaN), with denormals on', () => {
    const bad: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      const back = a.fToF16(a.fFromF16(h, ON), false, ON);
      const isNan = (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
      if (isNan ? !((back & 0x7c00) === 0x7c00 && (back & 0x3ff) !== 0) : back !== h) bad.push(h);
    }
    expect(bad).toEqual([]);
  });
  it('f32 → f16 rounds to nearest even, overflows to inf (toward zero: to max), flushes when off', () => {
    expect(a.fToF16(b(1 + 2 ** -11), false, ON)).toBe(0x3c00); // tie → even
    expect(a.fToF16(b(1 + 3 * 2 ** -11), false, ON)).toBe(0x3c02);
    expect(a.fToF16(b(65520), false, ON)).toBe(0x7c00);
    expect(a.fToF16(b(65520), true, ON)).toBe(0x7bff);
    expect(a.fToF16(b(2 ** -24), false, ON)).toBe(1);
    expect(a.fToF16(b(2 ** -24), false, OFF)).toBe(0);
    expect(a.fToF16(b(-(2 ** -26)), false, ON)).toBe(0x8000);
  });
  it('rounding to integral keeps the sign of zero; rndne ties to even', () => {
    expect(a.fRound('rndne', b(2.5), ON)).toBe(b(2));
    expect(a.fRound('rndne', b(-0.5), ON)).toBe(0x80000000);
    expect(a.fRound('floor', b(-0.5), ON)).toBe(b(-1));
    expect(a.fRound('ceil', b(-0.5), ON)).toBe(0x80000000);
    expect(a.fRound('trunc', b(-1.5), ON)).toBe(b(-1));
  });
  it('ldexp/frexp (Vega ISA, V_LDEXP_F32, V_FREXP_MANT_F32, V_FREXP_EXP_I32_F32)', () => {
    expect(a.fLdexp(b(1.5), 3, ON)).toBe(b(12));
    expect(a.fLdexp(b(1), 0xffffff6b, ON)).toBe(1); // 2^-149
    expect(a.fLdexp(b(1), 200, ON)).toBe(0x7f800000);
    expect(a.fFrexpMant(b(-12), ON)).toBe(b(-0.75));
    expect(a.fFrexpExp(b(12), ON)).toBe(4);
    expect(a.fFrexpExp(0x7f800000, ON)).toBe(0);
    expect(a.fFrexpMant(0x7f800000, ON)).toBe(0x7f800000);
  });
  it('f64 frexp of the top binade: exponent 1024, mantissa in [0.5, 1) (2^1024 is not a double)', () => {
    // 2^1023 = 0.5 * 2^1024, and the largest finite value (2 - 2^-52) * 2^1023 = (1 - 2^-53) * 2^1024.
    expect(a.dFrexpExp([0, 0x7fe00000], ON)).toBe(1024);
    expect(a.dFrexpMant([0, 0x7fe00000], ON)).toEqual([0, 0x3fe00000]);
    expect(a.dFrexpExp([0xffffffff, 0x7fefffff], ON)).toBe(1024);
    expect(a.dFrexpMant([0xffffffff, 0xffefffff], ON)).toEqual([0xffffffff, 0xbfefffff]);
    // Below it and at the bottom of the normal range nothing changed.
    expect(a.dFrexpExp([0, 0x7fd00000], ON)).toBe(1023);
    expect(a.dFrexpExp([0, 0x00100000], ON)).toBe(-1021 >>> 0);
    expect(a.dFrexpMant([1, 0], ON)).toEqual([0, 0x3fe00000]); // 2^-1074 = 0.5 * 2^-1073
    expect(a.dFrexpExp([1, 0], ON)).toBe(-1073 >>> 0);
  });
  it('transcendentals: special values (RDNA3 ISA, V_RCP_F32, V_RSQ_F32, V_LOG_F32, V_SIN_F32)', () => {
    expect(a.fUnary('rcp', 0x80000000, ON)).toBe(0xff800000);
    expect(a.fUnary('rsq', b(4), ON)).toBe(b(0.5));
    expect(a.fUnary('sqrt', b(-1), ON)).toBe(0xffc00000);
    expect(a.fUnary('log', 0, ON)).toBe(0xff800000);
    expect(a.fUnary('exp', b(-Infinity), ON)).toBe(0);
    expect(a.fUnary('sin', b(0.25), ON)).toBe(b(1)); // revolutions
    expect(a.fUnary('cos', b(0.5), ON)).toBe(b(-1));
  });
});

describe('MODE-dependent rules (regressions of the edge-case captures, test/edge-cases)', () => {
  const DX10: FloatMode = { ...ON, ieee: false };
  it('IEEE mode: a signaling NaN is returned quieted, S0 first; a quiet S1 gives S0 (RDNA3 ISA 16.7, V_MIN_F32)', () => {
    expect(a.fMin(0x7f812345, b(1), ON)).toBe(0x7fc12345);
    expect(a.fMax(b(1), 0x7f812345, ON)).toBe(0x7fc12345);
    expect(a.fMin(0x7f800001, 0x7f812345, ON)).toBe(0x7fc00001);
    expect(a.fMin(0xffc12345, 0x7fc00000, ON)).toBe(0xffc12345);
    expect(a.dMin([1, 0x7ff00000], [0, 0x3ff00000], ON)).toEqual([1, 0x7ff80000]);
  });
  it('without IEEE mode any NaN gives the other operand, a signaling one too (RDNA3 ISA 3.4.2, IEEE==0)', () => {
    expect(a.fMin(0x7f812345, b(1), DX10)).toBe(b(1));
    expect(a.fMax(b(1), 0x7f812345, DX10)).toBe(b(1));
    expect(a.dMax([1, 0x7ff00000], [0, 0x3ff00000], DX10)).toEqual([0, 0x3ff00000]);
  });
  it('rcp, rsq, sqrt, exp, log flush f32 denormals whatever the mode; sin keeps them (RDNA3 ISA 16.12 notes)', () => {
    expect(a.fUnary('rcp', 0x007fffff, ON)).toBe(0x7f800000);
    expect(a.fUnary('sqrt', 0x00000001, ON)).toBe(0);
    expect(a.fUnary('rcp', 0x7f000000, ON)).toBe(0);
    expect(a.fUnary('exp', b(-130), ON)).toBe(0);
    expect(a.fUnary('sin', 0x00000010, ON)).not.toBe(0);
  });
  it('sin and cos are exact at quarter turns (RDNA3 ISA 16.12, V_SIN_F32 / V_COS_F32 functional examples)', () => {
    expect(a.fUnary('cos', b(0.25), ON)).toBe(0);
    expect(a.fUnary('sin', b(0.25), ON)).toBe(b(1));
    expect(a.fUnary('sin', b(-0.25), ON)).toBe(b(-1));
    expect(a.fUnary('cos', b(0.75), ON)).toBe(0);
    expect(a.fUnary('sin', 0xff7fffff, ON)).toBe(0);
    expect(a.fUnary('cos', 0xff7fffff, ON)).toBe(b(1));
    expect(a.fUnary('sin', 0x80000000, ON)).toBe(0x80000000);
    expect(a.fUnary('sin', 0x7f800000, ON)).toBe(0xffc00000);
    expect(f32Value(a.fUnary('sin', b(1 / 12), ON))).toBeCloseTo(0.5, 6);
  });
  it('f16 to f32 is exact, a signaling NaN stays signaling (min/max of f16 see it), f32 to f16 quiets', () => {
    expect(a.fFromF16(0x7c01, ON)).toBe(0x7f802000);
    expect(a.fFromF16(0xfe00, ON)).toBe(0xffc00000);
    expect(a.fToF16(0x7f802000, false, ON)).toBe(0x7e01);
  });
});
