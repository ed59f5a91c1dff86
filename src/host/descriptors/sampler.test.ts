/**
 * The S# decoder's `reserved: 'keep'` mode (D004, D009: a reserved value is an error only where
 * it is consulted), on llvm/sampler_const.ll's main2 words <-1, 16773120, 0x70000000, -32768>,
 * and the consumers that refuse a consulted reserved field by name (the WebGPU sampler here;
 * the interpreter in src/interp/image.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { Gen } from '../../isa/gen.ts';
import { webgpuSampler } from '../resources/sampler.ts';
import { ResourceError } from '../resources/errors.ts';
import { DescriptorError } from './bits.ts';
import { decodeSamplerDescriptor, encodeSamplerDescriptor, reservedFieldError } from './sampler.ts';

const MAIN2 = [-1, 16773120, 0x70000000, -32768];

describe("decodeSamplerDescriptor(..., { reserved: 'keep' })", () => {
  it('names the reserved fields of main2 and keeps every other field', () => {
    for (const gen of [Gen.GFX7, Gen.GFX8, Gen.GFX9, Gen.GFX10_3]) {
      const s = decodeSamplerDescriptor(gen, MAIN2, { reserved: 'keep' });
      expect(s.max_anisotropy).toBe('reserved');
      expect(s.filter_mode).toBe('reserved');
      expect(s.reserved).toEqual([
        { field: 'max_aniso_ratio', value: 7 },
        { field: 'filter_mode', value: 3 },
      ]);
      expect(s).toMatchObject({
        clamp: ['mirror_once_border', 'mirror_once_border', 'mirror_once_border'],
        unnormalized: true,
        mag_filter: 'point',
        min_filter: 'point',
        mip_filter: 'none',
        z_filter: 'none',
        border_color: 'register',
        max_lod: 0xfff / 256,
      });
      expect(s.fields).toMatchObject({ force_degamma: 1, mip_point_preclamp: 1, max_aniso_ratio: 7, filter_mode: 3 });
    }
    // The bits each generation names differently: gfx10 dw0[31] SKIP_DEGAMMA, gfx8/9 COMPAT_MODE.
    expect(decodeSamplerDescriptor(Gen.GFX10_3, MAIN2, { reserved: 'keep' }).fields).toMatchObject({ skip_degamma: 1 });
    expect(decodeSamplerDescriptor(Gen.GFX9, MAIN2, { reserved: 'keep' }).fields).toMatchObject({
      compat_mode: 1,
      skip_degamma: 0,
    });
  });

  it('still refuses at decode by default, and keeps Z_FILTER 3 and gfx7 MIP_FILTER 3 when asked', () => {
    expect(() => decodeSamplerDescriptor(Gen.GFX10_3, MAIN2)).toThrow(/max_aniso_ratio \(0-4\) is 7/);
    const z = decodeSamplerDescriptor(Gen.GFX10_3, [0, 0, 3 << 24, 0], { reserved: 'keep' });
    expect([z.z_filter, z.reserved]).toEqual(['reserved', [{ field: 'z_filter', value: 3 }]]);
    const mip = decodeSamplerDescriptor(Gen.GFX7, [0, 0, 3 << 26, 0], { reserved: 'keep' });
    expect(mip.mip_filter).toBe('reserved');
    expect(decodeSamplerDescriptor(Gen.GFX8, [0, 0, 3 << 26, 0], { reserved: 'keep' }).reserved).toEqual([]);
    expect(decodeSamplerDescriptor(Gen.GFX10_3, [4 << 9, 0, 0, 0], { reserved: 'keep' }).max_anisotropy).toBe(16);
  });

  it('reservedFieldError names the field, its value and the consumer; undefined for a defined field', () => {
    const s = decodeSamplerDescriptor(Gen.GFX10_3, MAIN2, { reserved: 'keep' });
    const e = reservedFieldError(s, 'filter_mode', 'a bilinear footprint');
    expect(e).toBeInstanceOf(DescriptorError);
    expect(e?.message).toBe(
      'reserved-value: S#.filter_mode is 3, a reserved value, and a bilinear footprint consults it',
    );
    expect(reservedFieldError(s, 'z_filter', 'x')).toBeUndefined();
  });
});

describe('webgpuSampler with reserved fields', () => {
  const keep = (gen: Gen, fields: Parameters<typeof encodeSamplerDescriptor>[1]) =>
    decodeSamplerDescriptor(gen, encodeSamplerDescriptor(gen, fields), { reserved: 'keep' });

  it('maps main2 (point filters: the reserved ratio and reduction are not consulted)', () => {
    const w = webgpuSampler(decodeSamplerDescriptor(Gen.GFX10_3, MAIN2, { reserved: 'keep' }));
    expect(w.descriptor).toMatchObject({ magFilter: 'nearest', minFilter: 'nearest', maxAnisotropy: 1 });
    expect(w.emulate).not.toContain('reduction');
    expect(w.emulate).toEqual(expect.arrayContaining(['border_color', 'mirror_once', 'unnormalized', 'force_degamma']));
    expect(w.filterMode).toBe('reserved');
  });

  it('refuses by name where the mapping consults a reserved field', () => {
    const refusal = (f: () => unknown, why: RegExp) => {
      let caught: unknown;
      try {
        f();
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ResourceError);
      expect((caught as ResourceError).code).toBe('reserved-field');
      expect((caught as ResourceError).message).toMatch(why);
    };
    refusal(() => webgpuSampler(keep(Gen.GFX10_3, { filter_mode: 3, xy_mag_filter: 1 })), /S#\.filter_mode is 3/);
    refusal(() => webgpuSampler(keep(Gen.GFX10_3, { max_aniso_ratio: 6, xy_min_filter: 3 })), /max_aniso_ratio is 6/);
    refusal(() => webgpuSampler(keep(Gen.GFX10_3, { z_filter: 3 })), /S#\.z_filter is 3/);
    refusal(() => webgpuSampler(keep(Gen.GFX7, { mip_filter: 3 })), /S#\.mip_filter is 3/);
  });
});
