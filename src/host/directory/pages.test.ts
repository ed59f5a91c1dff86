/**
 * Page planning (D013): images grouped by kind, format and size into texture arrays within the
 * layer limit, the place map written as documented, and a table needing more pages than the
 * budget refused by name.
 */
import { describe, expect, it } from 'vitest';
import { DirectoryError } from './errors.ts';
import { CountingMemory, GEN, tableBytes, tableVSharp, tsharpWords, type ImageSpec } from './fixtures.test-support.ts';
import { PAGE_KIND_CODE, PLACE_WORDS, pageBudgetFor, planPages, swizzleCode, type PageBudget } from './pages.ts';
import { readImageTable } from './table.ts';

const TABLE = 0x10000;
const BC = new Set(['texture-compression-bc']);

function imagesOf(specs: readonly Omit<ImageSpec, 'address'>[]) {
  const records = specs.map((s, i) => tsharpWords({ address: 0x100000 + i * 0x10000, ...s }));
  const memory = new CountingMemory([{ address: TABLE, bytes: tableBytes(records) }]);
  return readImageTable(GEN, tableVSharp(TABLE, records.length * 32), memory, { features: BC }).images;
}

const BUDGET: PageBudget = { flat: 6, cube: 2, volume: 1, maxLayers: 6 };

describe('pages of texture arrays', () => {
  it('groups images by kind, format and size, continues a class on a new page past the layer limit', () => {
    const images = imagesOf([
      { format: '8_8_8_8_UNORM', width: 4, height: 4 }, // 0: flat page 0, layer 0
      { format: '8_8_8_8_UNORM', width: 4, height: 4, dstSel: ['z', 'y', 'x', '1'] }, // 1: page 0, layer 1
      { format: '8_8_8_8_UNORM', width: 8, height: 8 }, // 2: page 1
      { format: '8_8_8_8_UNORM', width: 4, height: 4, type: '2d_array', depth: 4 }, // 3: 5 layers: past 6, page 2
      { format: 'BC1_UNORM', width: 8, height: 8 }, // 4: page 3, compressed
      { format: '8_8_8_8_UNORM', width: 4, height: 4, type: 'cube', depth: 5 }, // 5: cube page 0, cube 0
      { format: '8_8_8_8_UNORM', width: 4, height: 4, type: '3d', depth: 3 }, // 6: volume page 0
      { format: '32_FLOAT', width: 4, height: 4 }, // 7: page 4
      { format: '8_8_8_8_UNORM', width: 4, height: 4, type: '1d' }, // 8: 4x1: page 5
      { format: '8_8_8_8_UNORM', width: 4, height: 4 }, // 9: first fit: page 0, layer 2
    ]);
    expect(images.length).toBe(10);
    const plan = planPages(images, BUDGET, new Set());
    const flat = plan.pages.flat;
    expect(flat.map((p) => [p.format, p.width, p.height, p.depthOrArrayLayers])).toEqual([
      ['rgba8unorm', 4, 4, 3],
      ['rgba8unorm', 8, 8, 1],
      ['rgba8unorm', 4, 4, 5],
      ['bc1-rgba-unorm', 8, 8, 1],
      ['r32float', 4, 4, 1],
      ['rgba8unorm', 4, 1, 1],
    ]);
    expect(flat[3].compressedOnDevice).toBe(true);
    expect(flat[4].sampleType).toBe('unfilterable-float'); // no float32-filterable
    expect(plan.pages.cube.map((p) => [p.width, p.depthOrArrayLayers])).toEqual([[4, 6]]);
    expect(plan.pages.volume.map((p) => [p.width, p.height, p.depthOrArrayLayers])).toEqual([[4, 4, 4]]);
    const entry = (place: number) => Array.from(plan.placeMap.subarray(place * PLACE_WORDS, (place + 1) * PLACE_WORDS));
    const id = swizzleCode(['r', 'g', 'b', 'a']);
    expect(entry(0)).toEqual([(PAGE_KIND_CODE.flat << 24) | 0, 0, 1, id]);
    expect(entry(1)).toEqual([(PAGE_KIND_CODE.flat << 24) | 0, 1, 1, swizzleCode(['b', 'g', 'r', '1'])]);
    expect(entry(3)).toEqual([(PAGE_KIND_CODE.flat << 24) | 2, 0, 5, id]);
    expect(entry(5)).toEqual([(PAGE_KIND_CODE.cube << 24) | 0, 0, 1, id]);
    expect(entry(6)).toEqual([(PAGE_KIND_CODE.volume << 24) | 0, 0, 4, id]);
    expect(entry(9)).toEqual([(PAGE_KIND_CODE.flat << 24) | 0, 2, 1, id]);
    expect(swizzleCode(['b', 'g', 'r', '1'])).toBe(2 | (1 << 3) | (0 << 6) | (5 << 9));
  });

  it('puts whole cubes into cube pages, a cube array taking its cubes', () => {
    const images = imagesOf([
      { format: '8_8_8_8_UNORM', width: 4, height: 4, type: 'cube', depth: 5 },
      { format: '8_8_8_8_UNORM', width: 4, height: 4, type: 'cube', depth: 11 }, // two cubes
      { format: '8_8_8_8_UNORM', width: 4, height: 4, type: 'cube', depth: 5 }, // back into the first page's room
    ]);
    // 16 layers a page hold two whole cubes (12 faces).
    const plan = planPages(images, { flat: 1, cube: 2, volume: 1, maxLayers: 16 }, new Set());
    expect(plan.pages.cube.map((p) => p.depthOrArrayLayers)).toEqual([12, 12]);
    const entry = (place: number) => Array.from(plan.placeMap.subarray(place * PLACE_WORDS, (place + 1) * PLACE_WORDS));
    expect(entry(0).slice(0, 3)).toEqual([(PAGE_KIND_CODE.cube << 24) | 0, 0, 1]);
    expect(entry(1).slice(0, 3)).toEqual([(PAGE_KIND_CODE.cube << 24) | 1, 0, 2]);
    expect(entry(2).slice(0, 3)).toEqual([(PAGE_KIND_CODE.cube << 24) | 0, 1, 1]);
  });

  it('refuses a table needing more pages of a kind than the budget binds, naming the classes', () => {
    const images = imagesOf([4, 8, 16].map((w) => ({ format: '8_8_8_8_UNORM', width: w, height: w })));
    const e = (() => {
      try {
        return planPages(images, { flat: 2, cube: 1, volume: 1, maxLayers: 16 }, new Set());
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(DirectoryError);
    expect((e as DirectoryError).code).toBe('too-many-pages');
    expect((e as DirectoryError).reason).toContain(
      '3 flat pages, the budget binds 2: rgba8unorm 4x4x1, rgba8unorm 8x8x1',
    );
  });

  it('gives a table without images one place of no kind, for the escape to read', () => {
    const plan = planPages([], BUDGET, new Set());
    expect(Array.from(plan.placeMap)).toEqual([0, 0, 0, 0]);
    expect(plan.pages.flat.length + plan.pages.cube.length + plan.pages.volume.length).toBe(0);
  });

  it('splits the sampled-texture bindings into a budget', () => {
    expect(pageBudgetFor({ maxSampledTexturesPerShaderStage: 16, maxTextureArrayLayers: 256 })).toEqual({
      flat: 12,
      cube: 3,
      volume: 1,
      maxLayers: 256,
    });
    expect(pageBudgetFor({ maxSampledTexturesPerShaderStage: 48, maxTextureArrayLayers: 2048 }, 8)).toEqual({
      flat: 30,
      cube: 9,
      volume: 1,
      maxLayers: 2048,
    });
    expect(() => pageBudgetFor({ maxSampledTexturesPerShaderStage: 16, maxTextureArrayLayers: 256 }, 14)).toThrow(
      /too-many-pages/,
    );
  });
});
