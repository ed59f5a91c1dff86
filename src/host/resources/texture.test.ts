import { describe, expect, it } from 'vitest';
import { Gen } from '../../isa/gen.ts';
import { ImageType, decodeImageDescriptor, encodeImageDescriptor, unifiedFormatTable } from '../descriptors/index.ts';
import { f16ToFloat } from '../texels/numbers.ts';
import { surfaceLayout } from '../texels/surface.ts';
import { guestTextureFormat, subresourceUpload, swizzleWgsl, toHalfBits, uploadBytesPerElement } from './texture.ts';

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

describe('guestTextureFormat, uploadBytesPerElement and subresourceUpload (shared with the descriptor directory)', () => {
  const gen = Gen.GFX10_3;
  const formatOf = (name: string): number => {
    for (const [v, info] of unifiedFormatTable(gen)) if (info.name === name) return v;
    throw new Error(name);
  };
  const image = (format: string, width: number, height: number, type: keyof typeof ImageType = '2d') =>
    decodeImageDescriptor(
      gen,
      encodeImageDescriptor(gen, {
        base_address: 0x100,
        width_lo: (width - 1) & 3,
        width_hi: (width - 1) >> 2,
        height: height - 1,
        format: formatOf(format),
        dst_sel_x: 4,
        dst_sel_y: 5,
        dst_sel_z: 6,
        dst_sel_w: 7,
        type: ImageType[type],
      }),
    );
  const BC = new Set(['texture-compression-bc']);

  it('keeps BC compressed only where WebGPU can hold it, and says why not', () => {
    const bc1 = image('BC1_UNORM', 8, 8);
    const flat = { width: 8, height: 8, volume: false };
    expect(guestTextureFormat(bc1, BC, flat)).toMatchObject({ format: 'bc1-rgba-unorm', compressedOnDevice: true });
    expect(guestTextureFormat(bc1, new Set(), flat)).toMatchObject({ format: 'rgba8unorm', upload: 'unorm8' });
    expect(guestTextureFormat(bc1, BC, { width: 6, height: 8, volume: false }).fallbackReason).toMatch(
      /multiple of the 4x4/,
    );
    expect(guestTextureFormat(bc1, BC, { ...flat, volume: true }).fallbackReason).toMatch(/sliced-3d/);
    expect(guestTextureFormat(bc1, BC, flat, false).fallbackReason).toBe('keepCompressed is false');
  });

  it('counts the bytes subresourceUpload makes, for direct, compressed and every fallback kind', () => {
    const cases: [string, ReadonlySet<string>, string, number][] = [
      ['8_8_8_8_UNORM', new Set(), 'rgba8unorm', 4],
      ['BC1_UNORM', BC, 'bc1-rgba-unorm', 8],
      ['BC1_UNORM', new Set(), 'rgba8unorm', 4],
      ['5_6_5_UNORM', new Set(), 'rgba16float', 8],
      ['16_16_UNORM', new Set(), 'rgba32float', 16], // without texture-formats-tier1
      ['8_8_8_8_UINT', new Set(['x']), 'rgba8uint', 4],
      ['10_11_11_UINT', new Set(), 'rgba32uint', 16],
    ];
    for (const [name, features, format, perElement] of cases) {
      const desc = image(name, 8, 4);
      const choice = guestTextureFormat(desc, features, { width: 8, height: 4, volume: false });
      expect(choice.format, name).toBe(format);
      expect(uploadBytesPerElement(choice, desc.format), name).toBe(perElement);
      const layout = surfaceLayout(gen, desc);
      const sub = layout.subresource(0, 0);
      const linear = Uint8Array.from(
        { length: sub.elementsWide * sub.elementsHigh * layout.bytesPerElement },
        (_, i) => i,
      );
      const up = subresourceUpload(choice, desc, layout, 0, linear);
      const elements = choice.compressedOnDevice ? sub.elementsWide * sub.elementsHigh : 8 * 4;
      expect(up.bytes.length, name).toBe(elements * perElement);
      expect(up.bytesPerRow * up.rowsPerImage, name).toBe(up.bytes.length);
      expect([up.width, up.height], name).toEqual([8, 4]);
    }
  });
});
