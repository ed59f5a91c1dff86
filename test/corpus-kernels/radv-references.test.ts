/**
 * The RADV kernels' TypeScript references on values worked out by hand from their definitions
 * (IEEE 754 binary16 rounding, GLSL 4.60 §8.3 / §8.8), independent of the interpreter, so a
 * wrong reference cannot hide behind a matching wrong interpreter.
 */
import { describe, expect, it } from 'vitest';
import { fusedMulAdd, unfusedMulAdd } from './radv-float-math.ts';
import { reference as intReference } from './radv-int-math.ts';
import { reference as subgroupAdd } from './radv-subgroup-add.ts';
import { f16Bits, f16Of, f32Bits, ulpsForAbsoluteError, wordRanges } from './radv-buffer-common.ts';

describe('f16Bits (IEEE 754 binary16, to nearest even or toward zero)', () => {
  it('rounds normals, denormals, ties and overflow', () => {
    expect(f16Bits(1, false)).toBe(0x3c00);
    expect(f16Bits(-2, true)).toBe(0xc000);
    expect(f16Bits(65504, false)).toBe(0x7bff);
    expect(f16Bits(65520, false), 'a tie above the largest finite rounds to inf').toBe(0x7c00);
    expect(f16Bits(65520, true), 'toward zero an overflow is the largest finite').toBe(0x7bff);
    expect(f16Bits(1 + 1.5 / 1024, false), '1.5 quanta tie to 2').toBe(0x3c02);
    expect(f16Bits(1 + 1.5 / 1024, true)).toBe(0x3c01);
    expect(f16Bits(2 ** -24, false)).toBe(0x0001);
    expect(f16Bits(2 ** -25, false), 'half the smallest denormal ties to 0').toBe(0x0000);
    expect(f16Bits(3 * 2 ** -25, false)).toBe(0x0002);
    expect(f16Bits(3 * 2 ** -25, true)).toBe(0x0001);
    expect(f16Bits(2 ** -14 - 2 ** -25, false), 'a denormal tie carries into the smallest normal').toBe(0x0400);
    expect(f16Bits(2 ** -14 - 2 ** -25, true)).toBe(0x03ff);
    expect(f16Bits(-0, false)).toBe(0x8000);
    expect(f16Bits(-Infinity, true)).toBe(0xfc00);
    expect(f16Bits(NaN, false)).toBe(0x7e00);
  });
  it('round-trips every finite half', () => {
    const wrong: number[] = [];
    for (let h = 0; h < 0x10000; h++) if ((h & 0x7c00) !== 0x7c00 && f16Bits(f16Of(h), false) !== h) wrong.push(h);
    expect(wrong).toEqual([]);
  });
});

describe('fma references', () => {
  it('fused: one rounding, ties decided by the bits below f64 precision', () => {
    const x = 1 + 2 ** -12;
    expect(fusedMulAdd(x, x, -1)).toBe(2 ** -11 + 2 ** -24);
    expect(unfusedMulAdd(x, x, -1), 'the rounded product loses 2^-24').toBe(2 ** -11);
    // x*x = 1 + 2^-11 + 2^-24 is halfway between two f32; the addend 2^-60 (lost in f64) breaks the tie.
    expect(fusedMulAdd(x, x, 2 ** -60)).toBe(1 + 2 ** -11 + 2 ** -23);
    expect(fusedMulAdd(x, x, -(2 ** -60))).toBe(1 + 2 ** -11);
    expect(fusedMulAdd(x, x, 0), 'an exact tie goes to even').toBe(1 + 2 ** -11);
  });
  it('unfused flushes denormals (v_mad_f32)', () => {
    expect(unfusedMulAdd(3, 5, 1e-40)).toBe(15);
    expect(unfusedMulAdd(2 ** -70, 2 ** -70, 0), 'a denormal product flushes to 0').toBe(0);
  });
});

describe('compare windows', () => {
  it('an absolute bound is the wider side in ULPs', () => {
    expect(ulpsForAbsoluteError(1, 2 ** -11)).toBe(8192); // below 1 the ULP is 2^-24
    expect(ulpsForAbsoluteError(-1.5, 2 ** -11)).toBe(4096);
  });
  it('merges neighbours that compare alike and leaves gaps for skipped words', () => {
    const w = (value: number, compare: 'exact' | 'skip' | { ulps: number }) => ({ value, compare });
    expect(
      wordRanges(0x100, [
        w(1, 'exact'),
        w(2, 'exact'),
        w(3, { ulps: 0 }),
        w(4, 'skip'),
        w(5, { ulps: 0 }),
        w(6, { ulps: 3 }),
      ]),
    ).toEqual([
      { address: 0x100, words: [1, 2] },
      { address: 0x108, words: [3], ulps: 0 },
      { address: 0x110, words: [5], ulps: 0 },
      { address: 0x114, words: [6], ulps: 3 },
    ]);
    expect(f32Bits(NaN)).toBe(0x7fc00000);
  });
});

describe('int_math reference (GLSL 4.60 §8.8, §5.9)', () => {
  const ref = (u: [number, number, number, number], s: [number, number, number, number]) => intReference({ u, s });
  it('computes the contract on hand-worked inputs', () => {
    const o = ref([0xffffffff, 2, 36, 0x45], [-1, -7, 0, 0]);
    expect(o.slice(0, 4), 'umulExtended(0xffffffff, 2); imulExtended(-1, -7)').toEqual([1, 0xfffffffe, 0, 7]);
    expect(o[10], 'findMSB(0xffffffff)').toBe(31);
    expect(o[11], 'findMSB(-1) is -1').toBe(0xffffffff);
    expect(o[14], 'shift count 36 & 31 = 4').toBe(0xfffffff0);
    expect(o.slice(17, 19), 'W << 36').toEqual([0, 0xfffffff0]);
    expect(o.slice(19, 21), 'W >> 5 (logical)').toEqual([0x17ffffff, 0]);
    expect(o.slice(23, 27), 'uaddCarry, usubBorrow').toEqual([1, 1, 0xfffffffd, 0]);
    expect(o[29], '-1 / -7 truncates to 0').toBe(0);
    expect(o[30], 'OpSMod(-1, -7) = -1').toBe(0xffffffff);
    const m = ref([100, 0, 0, 0], [-7, 3, 0, 0]);
    expect(m.slice(27, 29), 'D = max(0, 1)').toEqual([100, 0]);
    expect(m[29], '-7 / 3 truncates').toBe(-2 >>> 0);
    expect(m[30], 'OpSMod(-7, 3) takes the divisor sign').toBe(2);
    expect(m[31]).toBe(14);
    expect(m[5], 'bitfieldExtract(-7, 3, 9) sign-extends').toBe(0xffffffff);
  });
});

describe('subgroup_add reference', () => {
  it('adds the total and the inclusive prefix within each subgroup', () => {
    expect(subgroupAdd([1, 2, 3, 4], 2)).toEqual([3 + 1, 3 + 3, 7 + 3, 7 + 7]);
  });
});
