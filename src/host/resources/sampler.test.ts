import { describe, expect, it } from 'vitest';
import { Gen } from '../../isa/gen.ts';
import { COMPARE_NAMES, decodeSamplerDescriptor, encodeSamplerDescriptor } from '../descriptors/index.ts';
import { webgpuSampler } from './sampler.ts';

type Fields = Parameters<typeof encodeSamplerDescriptor>[1];
const sampler = (fields: Fields, gen: Gen = Gen.GFX10_3) =>
  webgpuSampler(decodeSamplerDescriptor(gen, encodeSamplerDescriptor(gen, fields)));

describe('webgpuSampler', () => {
  it('maps the three native clamp modes without emulation', () => {
    const s = sampler({ clamp_x: 0, clamp_y: 1, clamp_z: 2, max_lod: 15 * 256, mip_filter: 1 });
    expect(s.descriptor.addressModeU).toBe('repeat');
    expect(s.descriptor.addressModeV).toBe('mirror-repeat');
    expect(s.descriptor.addressModeW).toBe('clamp-to-edge');
    expect(s.emulate).toEqual([]);
  });

  it('flags border and mirror-once modes with the nearest sampler mode', () => {
    const cases: [number, GPUAddressMode, string[]][] = [
      [3, 'mirror-repeat', ['mirror_once']],
      [4, 'clamp-to-edge', ['border_color', 'half_border']],
      [5, 'mirror-repeat', ['border_color', 'half_border', 'mirror_once']],
      [6, 'clamp-to-edge', ['border_color']],
      [7, 'mirror-repeat', ['border_color', 'mirror_once']],
    ];
    for (const [clamp, mode, emulate] of cases) {
      const s = sampler({ clamp_x: 0, clamp_y: clamp, clamp_z: 0, border_color_type: 2 });
      expect(s.descriptor.addressModeV, `clamp ${clamp}`).toBe(mode);
      expect([...s.emulate], `clamp ${clamp}`).toEqual(emulate);
      expect(s.borderColor).toBe('opaque_white');
    }
  });

  it('maps filters and LOD clamps (u4.8)', () => {
    const s = sampler({ xy_mag_filter: 1, xy_min_filter: 0, mip_filter: 2, min_lod: 0x180, max_lod: 0x340 });
    expect(s.descriptor).toMatchObject({
      magFilter: 'linear',
      minFilter: 'nearest',
      mipmapFilter: 'linear',
      lodMinClamp: 1.5,
      lodMaxClamp: 3.25,
      maxAnisotropy: 1,
    });
  });

  it('emulates MIP_FILTER none with a [0, 0.25] LOD clamp', () => {
    const s = sampler({ mip_filter: 0, min_lod: 0, max_lod: 0x800 });
    expect(s.descriptor.mipmapFilter).toBe('nearest');
    expect(s.descriptor.lodMinClamp).toBe(0);
    expect(s.descriptor.lodMaxClamp).toBe(0.25);
  });

  it('keeps anisotropy only where WebGPU allows it', () => {
    const ok = sampler({ xy_mag_filter: 3, xy_min_filter: 3, mip_filter: 2, max_aniso_ratio: 4, max_lod: 0xf00 });
    expect(ok.descriptor.maxAnisotropy).toBe(16);
    expect(ok.emulate).toEqual([]);
    const pointMip = sampler({ xy_mag_filter: 3, xy_min_filter: 3, mip_filter: 1, max_aniso_ratio: 3 });
    expect(pointMip.descriptor.maxAnisotropy).toBe(1);
    expect(pointMip.emulate).toContain('anisotropy');
    // The ratio without aniso filters is ignored.
    expect(sampler({ xy_mag_filter: 1, xy_min_filter: 1, mip_filter: 2, max_aniso_ratio: 2 }).emulate).toEqual([]);
  });

  it('builds a comparison sampler for every compare function', () => {
    for (let i = 0; i < 8; i++) {
      const s = sampler({ depth_compare_func: i });
      expect(s.comparison.compare).toBe(COMPARE_NAMES[i]);
      expect('compare' in s.descriptor).toBe(false);
    }
    expect(COMPARE_NAMES).toEqual([
      'never',
      'less',
      'equal',
      'less-equal',
      'greater',
      'not-equal',
      'greater-equal',
      'always',
    ]);
  });

  it('flags LOD bias (s6.8), unnormalized coordinates, reductions, degamma and cube seams', () => {
    const s = sampler({
      lod_bias: 0x3f00, // -1.0 in 14-bit two's complement / 256
      force_unnormalized: 1,
      filter_mode: 2,
      force_degamma: 1,
      disable_cube_wrap: 1,
    });
    expect(s.lodBias).toBe(-1);
    expect([...s.emulate]).toEqual(['cube_no_seam', 'force_degamma', 'lod_bias', 'reduction', 'unnormalized']);
    expect(s.filterMode).toBe('max');
  });

  it('flags MAX_LOD below MIN_LOD and keeps the clamps ordered', () => {
    const s = sampler({ min_lod: 0x400, max_lod: 0x100, mip_filter: 1 });
    expect(s.emulate).toContain('lod_range');
    expect(s.descriptor.lodMinClamp).toBe(4);
    expect(s.descriptor.lodMaxClamp).toBe(4);
  });

  it('flags a Z filter that differs from the XY filter', () => {
    expect(sampler({ xy_mag_filter: 0, z_filter: 2 }).emulate).toContain('z_filter');
    expect(sampler({ xy_mag_filter: 1, z_filter: 2 }).emulate).not.toContain('z_filter');
  });

  it('reads the same fields on every generation', () => {
    for (const gen of [Gen.GFX7, Gen.GFX8, Gen.GFX9, Gen.GFX10, Gen.GFX11]) {
      const s = sampler({ clamp_x: 6, xy_mag_filter: 1, xy_min_filter: 1, mip_filter: 2, max_lod: 0x200 }, gen);
      expect(s.descriptor).toMatchObject({ addressModeU: 'clamp-to-edge', magFilter: 'linear', lodMaxClamp: 2 });
      expect(s.emulate).toEqual(['border_color']);
    }
  });
});
