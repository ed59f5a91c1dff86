/**
 * Reading a table (D013): six records (four images, a null record, a repeat) each found through
 * the directory at the place whose texels are its own; every left-out reason named and counted;
 * the bounds refusing before any image is read; the record cap and the V# range rules.
 */
import { describe, expect, it } from 'vitest';
import { encodeBufferDescriptor, encodeImageDescriptor, ImageType } from '../descriptors/index.ts';
import { checkImageBounds, MOST_SELECTED_IMAGES } from './bounds.ts';
import { findInDirectory } from './directory.ts';
import { DirectoryError } from './errors.ts';
import {
  CountingMemory,
  GEN,
  formatValue,
  imageBytes,
  patternBytes,
  tableBytes,
  tableVSharp,
  tsharp,
  tsharpWords,
  type ImageSpec,
} from './fixtures.test-support.ts';
import { readBoundLevel } from './image-texels.ts';
import { pageBudgetFor } from './pages.ts';
import { prepareImageTables } from './index.ts';
import { MOST_TABLE_RECORDS, readImageTable } from './table.ts';
import { buildTexelStore, STORE_HEADER, STORE_HEADER_WORDS } from './texel-store.ts';

const BC = new Set(['texture-compression-bc']);
const TABLE = 0x10000;

function refusal(fn: () => unknown): DirectoryError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DirectoryError) return e;
    throw e;
  }
  throw new Error('expected a DirectoryError');
}

describe('reading a table of image descriptors', () => {
  it('binds four images of six records (a null record, a repeat): each found at the place holding its texels', () => {
    const specs: ImageSpec[] = [
      { address: 0x100000, format: '8_8_8_8_UNORM', width: 4, height: 4 },
      { address: 0x110000, format: 'BC1_UNORM', width: 8, height: 8 },
      { address: 0x120000, format: '32_FLOAT', width: 4, height: 4, dstSel: ['x', '0', '0', '1'] },
      { address: 0x130000, format: '8_8_8_8_UNORM', width: 4, height: 4, type: 'cube', depth: 5 },
    ];
    const texels = new Map<number, Uint8Array[]>();
    const ranges = specs.map((s, i) => {
      const slices: Uint8Array[] = [];
      const img = imageBytes(tsharp(s), (_level, slice, n) => {
        const b = patternBytes(1000 * i + slice + 1, n);
        slices.push(b);
        return b;
      });
      texels.set(i, slices);
      return img;
    });
    const words = specs.map(tsharpWords);
    const records = [words[0], new Uint32Array(8), words[1], words[0], words[2], words[3]];
    const memory = new CountingMemory([{ address: TABLE, bytes: tableBytes(records) }, ...ranges]);
    const { tables } = prepareImageTables(GEN, [{ descriptor: tableVSharp(TABLE, records.length * 32) }], memory, {
      features: BC,
      budget: pageBudgetFor({ maxSampledTexturesPerShaderStage: 16, maxTextureArrayLayers: 256 }),
    });
    expect(memory.reads).toEqual([{ address: TABLE, size: 192 }]); // the table only, so far
    const [{ table, directory }] = tables;
    expect(table.recordCount).toBe(6);
    expect(table.images.length).toBe(4);
    expect(table.emptyRecords).toBe(1);
    expect(table.outcomes.map((o) => o.outcome)).toEqual(['image', 'empty', 'image', 'image', 'image', 'image']);
    expect(table.outcomes[3]).toMatchObject({ outcome: 'image', place: 0, repeat: true });
    expect(table.images.map((im) => [im.shape, im.format.format])).toEqual([
      ['flat', 'rgba8unorm'],
      ['flat', 'bc1-rgba-unorm'],
      ['flat', 'r32float'],
      ['cube', 'rgba8unorm'],
    ]);
    expect(table.images[0].records).toEqual([0, 3]);
    // Each non-empty record's words, looked up in the directory in its shape, name the place
    // whose bound level holds that record's own texels.
    records.forEach((w, r) => {
      if (r === 1) return;
      const spec = r === 0 || r === 3 ? 0 : r === 2 ? 1 : r - 2;
      const hit = findInDirectory(directory.packed, Array.from(w), specs[spec].type === 'cube');
      expect(hit.found, `record ${r}`).toBe(true);
      const uploads = readBoundLevel(table.images[hit.place], memory);
      expect(uploads.map((u) => Array.from(u.bytes))).toEqual(texels.get(spec)!.map((b) => Array.from(b)));
    });
    expect(table.images[1].baseLevelBytes).toBe(4 * 8); // BC1 stays compressed: 4 blocks of 8 bytes
    expect(table.images[3].baseLevelBytes).toBe(6 * 16 * 4);
    // The module's texel store holds the cube's six faces too (D022), each face its own bytes decoded.
    const store = buildTexelStore(table.images, memory, 1 << 20);
    expect(store.readable).toBe(4);
    const h = 3 * STORE_HEADER_WORDS;
    expect([store.words[h + STORE_HEADER.levels], store.words[h + STORE_HEADER.layers]]).toEqual([1, 6]);
    const at = store.words[h + STORE_HEADER.offset]!;
    texels.get(3)!.forEach((bytes, face) => {
      const words = store.words.slice(at + face * 64, at + (face + 1) * 64);
      expect(Array.from(new Float32Array(words.buffer)), `face ${face}`).toEqual(
        Array.from(bytes).map((b) => Math.fround(b / 255)),
      );
    });
  });

  it('names and counts every reason a record is left out, and keeps each record outcome', () => {
    const a = 0x200000;
    const good = tsharpWords({ address: a, format: '8_8_8_8_UNORM', width: 4, height: 4 });
    const buffer = encodeBufferDescriptor(GEN, { base_address: 0x4000, num_records: 64 });
    const fields = (extra: Record<string, number>) =>
      encodeImageDescriptor(GEN, {
        base_address: a / 256,
        width_hi: 0,
        width_lo: 3,
        height: 3,
        type: ImageType['2d'],
        format: formatValue('8_8_8_8_UNORM'),
        dst_sel_x: 4,
        dst_sel_y: 5,
        dst_sel_z: 6,
        dst_sel_w: 7,
        ...extra,
      });
    const records: ArrayLike<number>[] = [
      [...buffer, 0, 0, 0, 0], // other-type: a V#
      tsharpWords({ address: a, format: '8_8_8_8_UNORM', width: 4, height: 4, type: '2d_msaa' }), // other-type
      tsharpWords({ address: a, format: '8_8_8_8_UINT', width: 4, height: 4 }), // integer-format
      tsharpWords({ address: a, format: '32_SINT', width: 4, height: 4 }), // integer-format
      tsharpWords({ address: a, format: 'GB_GR_UNORM', width: 4, height: 4 }), // unmodelled-format
      tsharpWords({ address: a, format: '8_8_8_8_UNORM', width: 4, height: 4, swMode: 4 }), // unmodelled-layout
      fields({ compression_en: 1 }), // unmodelled-layout: DCC
      tsharpWords({ address: a, format: '8_8_8_8_UNORM', width: 4, height: 2, type: 'cube', depth: 5 }), // unmodelled-layout
      tsharpWords({ address: a, format: '8_8_8_8_UNORM', width: 16384, height: 4 }), // too-large
      fields({ type: 3 }), // undecodable: reserved TYPE
      fields({ dst_sel_x: 2 }), // undecodable: reserved DST_SEL
      fields({ format: 300 }), // undecodable: no such format
      good,
      tsharpWords({ address: a, format: '8_8_8_8_UINT', width: 4, height: 4 }), // a repeat of a left-out record counts again
    ];
    const memory = new CountingMemory([{ address: TABLE, bytes: tableBytes(records) }]);
    const t = readImageTable(GEN, tableVSharp(TABLE, records.length * 32), memory, { features: BC });
    expect(t.leftOut).toEqual({
      'other-type': 2,
      'integer-format': 3,
      'unmodelled-format': 1,
      'unmodelled-layout': 3,
      'too-large': 1,
      undecodable: 3,
    });
    expect(t.images.length).toBe(1);
    expect(t.outcomes[12]).toMatchObject({ outcome: 'image', place: 0, typeName: '2d' });
    const left = t.outcomes.filter((o) => o.outcome === 'left-out');
    expect(left.length).toBe(13);
    for (const o of left) expect(o.detail.length, `record ${o.index}`).toBeGreaterThan(10);
    expect(t.outcomes[0]).toMatchObject({ typeName: 'buf', reason: 'other-type' });
    expect(t.outcomes[2]).toMatchObject({ reason: 'integer-format', formatName: '8_8_8_8_UINT' });
    expect(t.outcomes[5]).toMatchObject({ reason: 'unmodelled-layout' });
    expect(t.outcomes[9]).toMatchObject({ typeName: 'reserved-3', reason: 'undecodable' });
  });

  it('refuses a dispatch over the texel bound before reading any image, counted as uploaded', () => {
    // Five 8192x8192 BC1 images: 32 MiB each compressed, 256 MiB each decoded to rgba8unorm.
    const records = Array.from({ length: 5 }, (_, i) =>
      tsharpWords({ address: 0x1_0000_0000 + i * 0x200_0000, format: 'BC1_UNORM', width: 8192, height: 8192 }),
    );
    records.push(tsharpWords({ address: 0x2_0000_0000, format: '8_8_8_8_SINT', width: 4, height: 4 }));
    const read = (features: ReadonlySet<string>) => {
      const memory = new CountingMemory([{ address: TABLE, bytes: tableBytes(records) }]);
      const table = readImageTable(GEN, tableVSharp(TABLE, records.length * 32), memory, { features });
      return { memory, table };
    };
    const kept = read(BC);
    expect(checkImageBounds([kept.table]).texelBytes).toBe(5 * 32 * 2 ** 20);
    const decoded = read(new Set());
    const e = refusal(() => checkImageBounds([decoded.table]));
    expect(e.code).toBe('too-many-texel-bytes');
    expect(e.reason).toContain('1.25 GiB');
    expect(e.reason).toContain('6 naming something (6 2d)');
    expect(e.reason).toContain('left out: 1 integer-format');
    expect(e.reason).toContain('5 distinct images in 1 formats (5 BC1_UNORM)');
    // The images' bytes are not in the capture at all: only the table was read.
    expect(decoded.memory.reads).toEqual([{ address: TABLE, size: records.length * 32 }]);
  });

  it(`refuses more than ${MOST_SELECTED_IMAGES} distinct images a table`, () => {
    const table = (n: number) => {
      const records = Array.from({ length: n }, (_, i) =>
        tsharpWords({ address: 0x100000 + i * 256, format: '8_UNORM', width: 1, height: 1 }),
      );
      const memory = new CountingMemory([{ address: TABLE, bytes: tableBytes(records) }]);
      return readImageTable(GEN, tableVSharp(TABLE, n * 32), memory, { features: BC });
    };
    expect(checkImageBounds([table(MOST_SELECTED_IMAGES)]).images).toBe(MOST_SELECTED_IMAGES);
    const e = refusal(() => checkImageBounds([table(MOST_SELECTED_IMAGES + 1)]));
    expect(e.code).toBe('too-many-images');
    expect(e.reason).toContain(`${MOST_SELECTED_IMAGES + 1} distinct images`);
    expect(e.reason).toContain(`${MOST_SELECTED_IMAGES + 1} 8_UNORM`);
  });

  it(`reads at most ${MOST_TABLE_RECORDS} records, from the load's offset, and refuses ranges it cannot read`, () => {
    const big = new CountingMemory([{ address: TABLE, bytes: new Uint8Array((MOST_TABLE_RECORDS + 2) * 32) }]);
    const t = readImageTable(GEN, tableVSharp(TABLE, (MOST_TABLE_RECORDS + 2) * 32), big, { features: BC });
    expect([t.recordCount, t.recordsBeyondCap, t.emptyRecords]).toEqual([MOST_TABLE_RECORDS, 2, MOST_TABLE_RECORDS]);

    const rec = tsharpWords({ address: 0x300000, format: '8_UNORM', width: 1, height: 1 });
    const bytes = new Uint8Array(0x10 + 64 + 31);
    bytes.set(tableBytes([rec, rec]), 0x10);
    const mem = new CountingMemory([{ address: TABLE, bytes }]);
    const at = readImageTable(GEN, tableVSharp(TABLE, bytes.length), mem, { features: BC, offset: 0x10 });
    expect([at.address, at.recordCount, at.images.length]).toEqual([TABLE + 0x10, 2, 1]); // the partial record is not read

    expect(
      refusal(() => readImageTable(GEN, tableVSharp(TABLE, 64, { swizzle: true, stride: 32 }), mem, { features: BC }))
        .code,
    ).toBe('table-range');
    expect(refusal(() => readImageTable(GEN, tableVSharp(0x900000, 64), mem, { features: BC })).code).toBe(
      'table-unreadable',
    );
  });
});
