/**
 * Guest memory for the reference interpreter (D009): the capture's ranges, sparse, found by
 * address. An access that leaves every range is a `GuestFault` naming the address: memory
 * the capture does not hold is not zeros. A range whose bytes are unavailable (redacted, or
 * never captured) faults the same way, and so does a read of bytes outside a range's
 * `read_bytes` that the dispatch has not written first (their values in the blob mean nothing).
 * Writes are tracked per range, so a caller can say what the dispatch changed.
 */
import type { Capture } from '../host/capture/container.ts';
import { parseAddress, type MemoryRange } from '../host/capture/manifest.ts';

/** GPU virtual addresses have 48 bits: the top 16 bits of a 64-bit pointer are ignored. */
export const ADDRESS_MASK_BITS = 48;

export type FaultKind = 'unmapped' | 'unavailable' | 'not-captured';

export class GuestFault extends Error {
  override readonly name = 'GuestFault';
  constructor(
    readonly kind: FaultKind,
    readonly address: number,
    readonly size: number,
    readonly access: 'read' | 'write',
    readonly detail: string,
  ) {
    super(`guest fault: ${access} of ${size} bytes at 0x${address.toString(16)}: ${detail}`);
  }
}

/** A 48-bit address from the two words of a 64-bit pointer (the top 16 bits are a sign extension the hardware ignores). */
export function address48(lo: number, hi: number): number {
  return (lo >>> 0) + (hi & 0xffff) * 2 ** 32;
}

interface Region {
  readonly address: number;
  readonly end: number;
  readonly bytes: Uint8Array | null;
  readonly unavailable?: string;
  /** Bytes that hold known values (undefined: all of them). */
  readonly defined?: Uint8Array;
  written: boolean;
  writtenLow: number;
  writtenHigh: number;
}

export interface RangeInit {
  readonly address: number;
  /** The bytes (copied), or null with a reason. */
  readonly bytes: Uint8Array | null;
  readonly size?: number;
  readonly unavailable?: string;
  /** Sub-ranges [offset, size] whose values are known; omitted: all of them. */
  readonly readBytes?: readonly (readonly [number, number])[];
}

/** Faults at the first byte of [o, o + size) outside the range's read_bytes. */
function checkDefined(defined: Uint8Array, o: number, address: number, size: number): void {
  for (let i = 0; i < size; i++)
    if (!defined[o + i])
      throw new GuestFault(
        'not-captured',
        address + i,
        1,
        'read',
        "outside the range's read_bytes: its value was not captured",
      );
}

export class GuestMemory {
  private readonly regions: Region[];
  /** The last region found: most accesses hit the same one in a row. */
  private last: Region | undefined;

  constructor(ranges: readonly RangeInit[]) {
    this.regions = ranges
      .map((r): Region => {
        const size = r.bytes ? r.bytes.length : (r.size ?? 0);
        let defined: Uint8Array | undefined;
        if (r.readBytes && !(r.readBytes.length === 1 && r.readBytes[0][0] === 0 && r.readBytes[0][1] >= size)) {
          defined = new Uint8Array(size);
          for (const [o, n] of r.readBytes) defined.fill(1, o, o + n);
        }
        return {
          address: r.address,
          end: r.address + size,
          bytes: r.bytes ? r.bytes.slice() : null,
          unavailable: r.unavailable,
          defined,
          written: false,
          writtenLow: Infinity,
          writtenHigh: -Infinity,
        };
      })
      .sort((a, b) => a.address - b.address);
    for (let i = 1; i < this.regions.length; i++)
      if (this.regions[i].address < this.regions[i - 1].end)
        throw new Error(`guest ranges at 0x${this.regions[i].address.toString(16)} overlap`);
  }

  /** The capture's memory before the dispatch. */
  static fromCapture(capture: Pick<Capture, 'manifest' | 'blob'>): GuestMemory {
    return new GuestMemory(
      capture.manifest.memory.map((r: MemoryRange) => ({
        address: Number(parseAddress(r.address)),
        bytes: r.blob === null ? null : capture.blob(r.blob),
        size: r.size,
        unavailable: r.unavailable,
        readBytes: r.read_bytes === 'unknown' ? undefined : r.read_bytes,
      })),
    );
  }

  private find(address: number, size: number, access: 'read' | 'write'): Region {
    const l = this.last;
    if (l && address >= l.address && address + size <= l.end) return l;
    let lo = 0;
    let hi = this.regions.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.regions[mid];
      if (address < r.address) hi = mid - 1;
      else if (address >= r.end) lo = mid + 1;
      else {
        if (address + size > r.end)
          throw new GuestFault(
            'unmapped',
            r.end,
            address + size - r.end,
            access,
            'the access runs past the end of its range',
          );
        this.last = r;
        return r;
      }
    }
    throw new GuestFault('unmapped', address, size, access, 'no captured range holds this address');
  }

  private bytesOf(r: Region, address: number, size: number, access: 'read' | 'write'): Uint8Array {
    if (!r.bytes)
      throw new GuestFault(
        'unavailable',
        address,
        size,
        access,
        `the range's bytes are not in the capture (${r.unavailable ?? 'unavailable'})`,
      );
    return r.bytes;
  }

  /** Reads `size` bytes (a view into guest memory). */
  read(address: number, size: number): Uint8Array {
    const r = this.find(address, size, 'read');
    const b = this.bytesOf(r, address, size, 'read');
    const o = address - r.address;
    if (r.defined) checkDefined(r.defined, o, address, size);
    return b.subarray(o, o + size);
  }

  /** `read(address, 4)` as a little-endian word, without making a view (the same faults). */
  read32(address: number): number {
    const r = this.find(address, 4, 'read');
    const b = this.bytesOf(r, address, 4, 'read');
    const o = address - r.address;
    if (r.defined) checkDefined(r.defined, o, address, 4);
    return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
  }

  write(address: number, data: Uint8Array): void {
    const r = this.find(address, data.length, 'write');
    const b = this.bytesOf(r, address, data.length, 'write');
    const o = address - r.address;
    b.set(data, o);
    this.wrote(r, o, address, data.length);
  }

  /** `write` of a little-endian word, without making an array. */
  write32(address: number, value: number): void {
    const r = this.find(address, 4, 'write');
    const b = this.bytesOf(r, address, 4, 'write');
    const o = address - r.address;
    b[o] = value & 0xff;
    b[o + 1] = (value >>> 8) & 0xff;
    b[o + 2] = (value >>> 16) & 0xff;
    b[o + 3] = value >>> 24;
    this.wrote(r, o, address, 4);
  }

  private wrote(r: Region, o: number, address: number, size: number): void {
    r.defined?.fill(1, o, o + size);
    r.written = true;
    r.writtenLow = Math.min(r.writtenLow, address);
    r.writtenHigh = Math.max(r.writtenHigh, address + size);
  }

  /** The whole range holding `address` (the program's code is decoded from it). */
  rangeAt(address: number): { readonly address: number; readonly bytes: Uint8Array } {
    const r = this.find(address, 1, 'read');
    return { address: r.address, bytes: this.bytesOf(r, address, 1, 'read') };
  }

  /** Bytes for comparison, without the read_bytes check; undefined where unmapped or unavailable. */
  peek(address: number, size: number): Uint8Array | undefined {
    try {
      const r = this.find(address, size, 'read');
      return r.bytes?.subarray(address - r.address, address - r.address + size);
    } catch (e) {
      if (e instanceof GuestFault) return undefined;
      throw e;
    }
  }

  /** The ranges the dispatch wrote, with the span of bytes written in each. */
  writtenRanges(): { readonly range: number; readonly from: number; readonly to: number }[] {
    return this.regions
      .filter((r) => r.written)
      .map((r) => ({ range: r.address, from: r.writtenLow, to: r.writtenHigh }));
  }
}
