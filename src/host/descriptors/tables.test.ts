/** The layout and format tables against DESCRIPTORS.md's bit positions and enumerations. */
import { describe, expect, it } from 'vitest';
import { ALL_GENS, Gen } from '../../isa/gen.ts';
import { bufferLayout, imageLayout, samplerLayout, unifiedFormat, legacyImageFormat } from './index.ts';
import type { Layout } from './bits.ts';

function at(layout: Layout, name: string): [number, number, number] | undefined {
  const fs = layout.fields.find((x) => x.name === name);
  return fs && [fs.dword, fs.lo, fs.width];
}

describe('layout tables', () => {
  it('every generation has a V#, T# and S# layout of 4, 8 and 4 dwords', () => {
    for (const g of ALL_GENS) {
      expect(bufferLayout(g).dwords).toBe(4);
      expect(imageLayout(g).dwords).toBe(8);
      expect(samplerLayout(g).dwords).toBe(4);
    }
  });

  it('fields sit where DESCRIPTORS.md puts them', () => {
    // [gen, layout, field, dword, lo, width]
    const rows: [Gen, (g: Gen) => Layout, string, number, number, number][] = [
      [Gen.GFX7, bufferLayout, 'stride', 1, 16, 14],
      [Gen.GFX7, bufferLayout, 'element_size', 3, 19, 2],
      [Gen.GFX9, bufferLayout, 'user_vm_enable', 3, 19, 1],
      [Gen.GFX10_3, bufferLayout, 'format', 3, 12, 7],
      [Gen.GFX10_3, bufferLayout, 'oob_select', 3, 28, 2],
      [Gen.GFX10_3, bufferLayout, 'llc_noalloc', 3, 26, 2],
      [Gen.GFX11, bufferLayout, 'format', 3, 12, 6],
      [Gen.GFX7, imageLayout, 'tiling_index', 3, 20, 5],
      [Gen.GFX7, imageLayout, 'pitch', 4, 13, 14],
      [Gen.GFX7, imageLayout, 'last_array', 5, 13, 13],
      [Gen.GFX9, imageLayout, 'pitch', 4, 13, 16],
      [Gen.GFX9, imageLayout, 'max_mip', 5, 28, 4],
      [Gen.GFX10_3, imageLayout, 'format', 1, 20, 9],
      [Gen.GFX10_3, imageLayout, 'width_lo', 1, 30, 2],
      [Gen.GFX10_3, imageLayout, 'width_hi', 2, 0, 12],
      [Gen.GFX10_3, imageLayout, 'pitch_msb', 4, 13, 1],
      [Gen.GFX10_3, imageLayout, 'base_array', 4, 16, 13],
      [Gen.GFX10_3, imageLayout, 'max_mip', 5, 4, 4],
      [Gen.GFX10_3, imageLayout, 'meta_data_address_lo', 6, 24, 8],
      [Gen.GFX11, imageLayout, 'max_mip', 1, 16, 4],
      [Gen.GFX11, imageLayout, 'format', 1, 20, 8],
      [Gen.GFX7, samplerLayout, 'depth_compare_func', 0, 12, 3],
      [Gen.GFX7, samplerLayout, 'upgraded_depth', 3, 29, 1],
      [Gen.GFX8, samplerLayout, 'compat_mode', 0, 31, 1],
      [Gen.GFX9, samplerLayout, 'blend_zero_prt', 2, 29, 1],
      [Gen.GFX10_3, samplerLayout, 'aniso_override', 2, 29, 1],
      [Gen.GFX10_3, samplerLayout, 'skip_degamma', 0, 31, 1],
      [Gen.GFX11, samplerLayout, 'border_color_ptr', 3, 18, 12],
    ];
    for (const [g, l, name, dword, lo, width] of rows)
      expect([name, at(l(g), name)]).toEqual([name, [dword, lo, width]]);
  });

  it('fields that a generation lacks are absent', () => {
    expect(at(bufferLayout(Gen.GFX10), 'llc_noalloc')).toBeUndefined();
    expect(at(imageLayout(Gen.GFX10), 'pitch_msb')).toBeUndefined();
    expect(at(imageLayout(Gen.GFX7), 'meta_data_address')).toBeUndefined();
    expect(at(samplerLayout(Gen.GFX7), 'compat_mode')).toBeUndefined();
    expect(at(bufferLayout(Gen.GFX11), 'resource_level')).toBeUndefined();
  });
});

describe('format tables', () => {
  it('gfx10/10.3 unified FORMAT values (§4.3)', () => {
    const names: [number, string][] = [
      [1, '8_UNORM'],
      [13, '16_FLOAT'],
      [22, '32_FLOAT'],
      [36, '10_11_11_FLOAT'],
      [50, '2_10_10_10_UNORM'],
      [56, '8_8_8_8_UNORM'],
      [71, '16_16_16_16_FLOAT'],
      [77, '32_32_32_32_FLOAT'],
      [130, '8_8_8_8_SRGB'],
      [132, '5_9_9_9_FLOAT'],
      [146, 'X24_8_32_FLOAT'],
      [169, 'BC1_UNORM'],
      [173, 'BC3_UNORM'],
      [180, 'BC6_SFLOAT'],
      [182, 'BC7_SRGB'],
    ];
    for (const [v, n] of names) expect([v, unifiedFormat(Gen.GFX10_3, v, 'image').name]).toEqual([v, n]);
  });

  it('gfx11 renumbers: 109 is BC1_UNORM, 63 is 32_32_32_32_FLOAT', () => {
    expect(unifiedFormat(Gen.GFX11, 109, 'image').name).toBe('BC1_UNORM');
    expect(unifiedFormat(Gen.GFX11, 63, 'buffer').name).toBe('32_32_32_32_FLOAT');
    expect(unifiedFormat(Gen.GFX11, 30, 'image').name).toBe('10_11_11_FLOAT');
  });

  it('gfx7-9 split formats (§4.1, §4.2)', () => {
    expect(legacyImageFormat(Gen.GFX7, 10, 9).name).toBe('8_8_8_8_SRGB');
    expect(legacyImageFormat(Gen.GFX7, 35, 0)).toMatchObject({ name: 'BC1_UNORM', bits_per_element: 64 });
    expect(legacyImageFormat(Gen.GFX7, 6, 6).name).toBe('10_11_11_SNORM_OGL');
    expect(legacyImageFormat(Gen.GFX9, 6, 6).name).toBe('10_11_11_UNORM_UINT');
    expect(legacyImageFormat(Gen.GFX9, 31, 7).name).toBe('6E4_FLOAT');
  });
});
