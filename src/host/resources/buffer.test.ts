import { beforeAll, describe, expect, it } from 'vitest';
import { Gen } from '../../isa/gen.ts';
import { decodeBufferDescriptor, encodeBufferDescriptor } from '../descriptors/index.ts';
import { alignedWindow, bufferRange, checkBufferSize, guestBytesOf, swizzledOffset } from './buffer.ts';
import { ResourceError } from './errors.ts';

type Fields = Parameters<typeof encodeBufferDescriptor>[1];
const vsharp = (gen: Gen, fields: Fields) =>
  decodeBufferDescriptor(
    gen,
    encodeBufferDescriptor(gen, { dst_sel_x: 4, dst_sel_y: 5, dst_sel_z: 6, dst_sel_w: 7, ...fields }),
  );

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof ResourceError) return e.code;
    throw e;
  }
  return undefined;
}

describe('bufferRange', () => {
  it('counts bytes when STRIDE is 0 and records otherwise (gfx7, gfx10)', () => {
    for (const gen of [Gen.GFX7, Gen.GFX10_3, Gen.GFX11]) {
      expect(bufferRange(vsharp(gen, { base_address: 0x1000, num_records: 100 }))).toEqual({
        address: 0x1000,
        size: 100,
        unit: 'bytes',
        swizzled: false,
      });
      expect(bufferRange(vsharp(gen, { base_address: 0x1000, stride: 16, num_records: 10 })).size).toBe(160);
    }
  });

  it('reads the 48-bit base address', () => {
    const r = bufferRange(vsharp(Gen.GFX10_3, { base_address: 0x20, base_address_hi: 0x1234, num_records: 8 }));
    expect(r.address).toBe(0x1234 * 2 ** 32 + 0x20);
  });

  it('gfx8 counts bytes for an unswizzled strided buffer, records for a swizzled one', () => {
    expect(bufferRange(vsharp(Gen.GFX8, { stride: 8, num_records: 64 })).size).toBe(64);
    const sw = bufferRange(vsharp(Gen.GFX8, { stride: 8, num_records: 16, swizzle_enable: 1, element_size: 1 }));
    expect(sw.unit).toBe('records');
    expect(sw.swizzled).toBe(true);
    expect(sw.size).toBe(128);
  });

  it('gfx9 with a stride needs IDXEN, and NUM_RECORDS = STRIDE = 0 is unbounded', () => {
    const d = vsharp(Gen.GFX9, { stride: 12, num_records: 5 });
    expect(code(() => bufferRange(d))).toBe('needs-idxen');
    expect(bufferRange(d, { idxen: true }).size).toBe(60);
    expect(bufferRange(d, { idxen: false }).size).toBe(5);
    expect(code(() => bufferRange(vsharp(Gen.GFX9, {})))).toBe('unbounded');
  });

  it('a swizzled range reaches the last record by the swizzle formula', () => {
    // gfx7: ES = 2 << 1 = 4 bytes, IS = 8 << 0 = 8 records, STRIDE 8, 10 records.
    const d = vsharp(Gen.GFX7, { stride: 8, num_records: 10, swizzle_enable: 1, element_size: 1, index_stride: 0 });
    expect(d.element_size_bytes).toBe(4);
    expect(d.index_stride_records).toBe(8);
    // Record 9 = block 1, index 1; byte 7 = element 1, byte 3: (8 + 4) * 8 + 4 + 3 = 103.
    expect(swizzledOffset(d, 9, 7)).toBe(103);
    let max = 0;
    for (let i = 0; i < 10; i++) for (let o = 0; o < 8; o++) max = Math.max(max, swizzledOffset(d, i, o));
    expect(bufferRange(d).size).toBe(max + 1);
    // A partial last block whose records stay inside the previous block's reach (STRIDE < ES).
    const odd = vsharp(Gen.GFX7, { stride: 2, num_records: 9, swizzle_enable: 1, element_size: 1 });
    let m2 = 0;
    for (let i = 0; i < 9; i++) for (let o = 0; o < 2; o++) m2 = Math.max(m2, swizzledOffset(odd, i, o));
    expect(bufferRange(odd).size).toBe(m2 + 1);
  });

  it('aligns windows to words and slices guest bytes', () => {
    expect(alignedWindow({ address: 0x1003, size: 6 })).toEqual({ address: 0x1000, size: 12, shift: 3 });
    const mem = { address: 0x1000, bytes: Uint8Array.from({ length: 32 }, (_, i) => i) };
    expect([...guestBytesOf(mem, { address: 0x1004, size: 3 })]).toEqual([4, 5, 6]);
    expect(code(() => guestBytesOf(mem, { address: 0x1000 + 30, size: 4 }))).toBe('bad-range');
  });
});

describe('checkBufferSize', () => {
  beforeAll(() => {
    const g = globalThis as { GPUBufferUsage?: unknown };
    g.GPUBufferUsage ??= { STORAGE: 0x80, COPY_DST: 0x8, COPY_SRC: 0x4, MAP_READ: 0x1 };
  });

  it('names the limit a buffer exceeds', () => {
    const device = { limits: { maxBufferSize: 1024, maxStorageBufferBindingSize: 512 } } as unknown as GPUDevice;
    expect(code(() => checkBufferSize(device, 1024, GPUBufferUsage.COPY_DST))).toBeUndefined();
    expect(code(() => checkBufferSize(device, 1028, GPUBufferUsage.COPY_DST))).toBe('too-large');
    expect(code(() => checkBufferSize(device, 516, GPUBufferUsage.STORAGE))).toBe('too-large');
    try {
      checkBufferSize(device, 516, GPUBufferUsage.STORAGE, 'vb0');
    } catch (e) {
      expect((e as Error).message).toContain('maxStorageBufferBindingSize');
    }
  });
});
