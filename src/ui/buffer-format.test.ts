/** Buffer elements as text for the Run view's tables (buffer-format.ts). */
import { describe, expect, it } from 'vitest';
import { elementCount, elementText } from './buffer-format.ts';

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);

describe('elementText', () => {
  it('spells hex at the element width, little-endian', () => {
    const b = bytes(0x78, 0x56, 0x34, 0x12, 0xff, 0, 0, 0);
    expect(elementText(b, 0, 'u32', 'hex')).toBe('0x12345678');
    expect(elementText(b, 1, 'u32', 'typed')).toBe('255');
    expect(elementText(b, 4, 'u8', 'hex')).toBe('0xff');
    expect(elementText(b, 0, 'f64', 'hex')).toBe('0x000000ff12345678');
  });

  it('spells floats as the shortest decimal that reads back the same', () => {
    const f = new Uint8Array(new Float32Array([1 / 255, -0, 0.1, NaN]).buffer);
    expect(elementText(f, 0, 'f32', 'typed')).toBe('0.003921569');
    expect(elementText(f, 1, 'f32', 'typed')).toBe('-0');
    expect(elementText(f, 2, 'f32', 'typed')).toBe('0.1');
    expect(elementText(f, 3, 'f32', 'typed')).toBe('NaN');
    expect(elementText(bytes(0x00, 0x3c, 0x00, 0xfc), 0, 'f16', 'typed')).toBe('1');
    expect(elementText(bytes(0x00, 0x3c, 0x00, 0xfc), 1, 'f16', 'typed')).toBe('-Infinity');
  });

  it('gives nothing past the end, and counts whole elements', () => {
    expect(elementText(bytes(1, 2), 0, 'u32', 'hex')).toBe('');
    expect(elementCount(10, 'u32')).toBe(2);
    expect(elementCount(10, 'f16')).toBe(5);
  });
});
