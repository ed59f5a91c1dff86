/**
 * Test support: gfx10.3 T#s and table V#s built from fields, images laid out in guest bytes by
 * the surface layer, and a guest memory that counts its reads, so a test can say which bytes a
 * step read (the bounds must refuse before any image is).
 */
import { Gen } from '../../isa/gen.ts';
import {
  DST_SEL,
  ImageType,
  decodeBufferDescriptor,
  decodeImageDescriptor,
  encodeBufferDescriptor,
  encodeImageDescriptor,
  unifiedFormatTable,
  type BufferDescriptor,
  type DstSel,
  type ImageDescriptor,
} from '../descriptors/index.ts';
import { surfaceLayout, writeSurface } from '../texels/surface.ts';
import { GuestMemory } from '../../interp/memory.ts';
import type { GuestByteReader } from './table.ts';

export const GEN = Gen.GFX10_3;

export function formatValue(name: string): number {
  for (const [v, info] of unifiedFormatTable(GEN)) if (info.name === name) return v;
  throw new Error(`no ${name} in the gfx10.3 table`);
}

export interface ImageSpec {
  readonly address: number;
  readonly format: string;
  readonly width: number;
  readonly height: number;
  readonly type?: keyof typeof ImageType;
  /** DEPTH: the last layer (arrays, cubes) or depth - 1 (3D). */
  readonly depth?: number;
  readonly levels?: number;
  readonly baseLevel?: number;
  readonly baseArray?: number;
  readonly swMode?: number;
  readonly dstSel?: readonly [DstSel, DstSel, DstSel, DstSel];
}

/** The eight words of a gfx10.3 T#. */
export function tsharpWords(t: ImageSpec): Uint32Array {
  const sel = t.dstSel ?? ['x', 'y', 'z', 'w'];
  const levels = t.levels ?? 1;
  return encodeImageDescriptor(GEN, {
    base_address: (t.address / 256) >>> 0,
    base_address_hi: Math.floor(t.address / 2 ** 40),
    width_lo: (t.width - 1) & 3,
    width_hi: (t.width - 1) >> 2,
    height: t.height - 1,
    format: formatValue(t.format),
    dst_sel_x: DST_SEL[sel[0]],
    dst_sel_y: DST_SEL[sel[1]],
    dst_sel_z: DST_SEL[sel[2]],
    dst_sel_w: DST_SEL[sel[3]],
    base_level: t.baseLevel ?? 0,
    last_level: levels - 1,
    max_mip: levels - 1,
    type: ImageType[t.type ?? '2d'],
    sw_mode: t.swMode ?? 0,
    depth: t.depth ?? 0,
    base_array: t.baseArray ?? 0,
  });
}

export function tsharp(t: ImageSpec): ImageDescriptor {
  return decodeImageDescriptor(GEN, tsharpWords(t));
}

/** A gfx10.3 V# of `bytes` bytes at `address` (stride 0: NUM_RECORDS counts bytes). */
export function tableVSharp(
  address: number,
  bytes: number,
  extra: { swizzle?: boolean; stride?: number } = {},
): BufferDescriptor {
  return decodeBufferDescriptor(
    GEN,
    encodeBufferDescriptor(GEN, {
      base_address: address >>> 0,
      base_address_hi: Math.floor(address / 2 ** 32),
      num_records: bytes,
      stride: extra.stride ?? 0,
      swizzle_enable: extra.swizzle ? 1 : 0,
    }),
  );
}

/**
 * Guest bytes of an image: `texels(level, slice)` gives the linear elements of each
 * subresource (row-major, as `readSurface` returns them); every level and slice is written.
 */
export function imageBytes(
  desc: ImageDescriptor,
  texels: (level: number, slice: number, bytes: number) => Uint8Array,
): { address: number; bytes: Uint8Array } {
  const layout = surfaceLayout(GEN, desc);
  const bytes = new Uint8Array(layout.size);
  for (let level = 0; level < layout.levels; level++)
    for (let slice = 0; slice < layout.slices; slice++) {
      const sub = layout.subresource(level, slice);
      writeSurface(
        layout,
        bytes,
        level,
        slice,
        texels(level, slice, sub.elementsWide * sub.elementsHigh * layout.bytesPerElement),
      );
    }
  return { address: layout.base, bytes };
}

/** Bytes that differ per image, level and slice. */
export function patternBytes(seed: number, length: number): Uint8Array {
  let x = seed >>> 0 || 1;
  return Uint8Array.from({ length }, () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x >>> 24;
  });
}

/** The records of a table: eight words each, little-endian. */
export function tableBytes(records: readonly ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(records.length * 32);
  const view = new DataView(out.buffer);
  records.forEach((r, i) => {
    for (let k = 0; k < 8; k++) view.setUint32(i * 32 + k * 4, (r[k] ?? 0) >>> 0, true);
  });
  return out;
}

/** A guest memory that logs every read's range. */
export class CountingMemory implements GuestByteReader {
  readonly reads: { address: number; size: number }[] = [];
  private readonly memory: GuestMemory;
  constructor(ranges: readonly { address: number; bytes: Uint8Array }[]) {
    this.memory = new GuestMemory(ranges.map((r) => ({ address: r.address, bytes: r.bytes })));
  }
  read(address: number, size: number): Uint8Array {
    this.reads.push({ address, size });
    return this.memory.read(address, size);
  }
  /** Reads that touched [address, address + size). */
  readsWithin(address: number, size: number): number {
    return this.reads.filter((r) => r.address < address + size && r.address + r.size > address).length;
  }
}
