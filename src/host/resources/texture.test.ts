import { describe, expect, it } from 'vitest';
import { f16ToFloat } from '../texels/numbers.ts';
import { swizzleWgsl, toHalfBits } from './texture.ts';

describe('toHalfBits', () => {
  it('converts exact values, rounds to nearest even, and keeps infinities and NaN', () => {
    expect(toHalfBits(1)).toBe(0x3c00);
    expect(toHalfBits(-2)).toBe(0xc000);
    expect(toHalfBits(65504)).toBe(0x7bff);
    expect(toHalfBits(65520)).toBe(0x7c00); // halfway to 65536: rounds to even, i.e. infinity
    expect(toHalfBits(2 ** -24)).toBe(1);
    expect(toHalfBits(2 ** -26)).toBe(0);
    expect(toHalfBits(-0)).toBe(0x8000);
    expect(toHalfBits(Infinity)).toBe(0x7c00);
    expect(toHalfBits(NaN) & 0x7c00).toBe(0x7c00);
    expect(toHalfBits(NaN) & 0x3ff).not.toBe(0);
    expect(toHalfBits(1 + 2 ** -11)).toBe(0x3c00); // tie, even
    expect(toHalfBits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie, even upward
  });

  it('round-trips every finite half', () => {
    const bad: number[] = [];
    for (let h = 0; h < 0x10000; h++) if ((h & 0x7c00) !== 0x7c00 && toHalfBits(f16ToFloat(h)) !== h) bad.push(h);
    expect(bad).toEqual([]);
  });
});

describe('swizzleWgsl', () => {
  it('writes constants in the texel type', () => {
    expect(swizzleWgsl(['b', 'g', 'r', '1'], 'v')).toBe('vec4<f32>(v.b, v.g, v.r, 1.0)');
    expect(swizzleWgsl(['0', 'r', '1', 'r'], 't', 'u32')).toBe('vec4<u32>(0u, t.r, 1u, t.r)');
  });
});
