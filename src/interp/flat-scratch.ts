/**
 * Private (scratch) memory per lane (D009), for the SCRATCH instructions (gfx9+) and FLAT
 * accesses in the private aperture. The hardware backs it with one swizzled buffer per wave
 * (dword i of lane l at `base + (i * lanes + l) * 4`, the "swizzled by lane" layout); here
 * nothing else reaches that buffer (gfx7/8 and LLVM's MUBUF scratch go through the capture's
 * scratch V# and guest memory instead), so each lane gets its own byte array and the layout
 * is not observable. Reading bytes a lane has not written is a `GuestFault`: their values are
 * undefined on hardware, and the interpreter does not guess. A lane holds at most 1 MiB.
 */
import type { ByteSpace } from './buffer-ops.ts';
import { GuestFault } from './memory.ts';

/** The most private bytes one lane may address. */
export const PRIVATE_BYTES_PER_LANE = 1 << 20;

class LanePrivate implements ByteSpace {
  private bytes = new Uint8Array(256);
  private defined = new Uint8Array(256);

  constructor(private readonly lane: number) {}

  private check(address: number, size: number, access: 'read' | 'write'): void {
    if (address < 0 || address + size > PRIVATE_BYTES_PER_LANE)
      throw new GuestFault(
        'unmapped',
        address,
        size,
        access,
        `lane ${this.lane}'s private memory ends at ${PRIVATE_BYTES_PER_LANE} bytes`,
      );
    if (address + size > this.bytes.length) {
      let n = this.bytes.length;
      while (n < address + size) n *= 2;
      const b = new Uint8Array(n);
      b.set(this.bytes);
      const d = new Uint8Array(n);
      d.set(this.defined);
      this.bytes = b;
      this.defined = d;
    }
  }

  read(address: number, size: number): Uint8Array {
    this.check(address, size, 'read');
    for (let i = 0; i < size; i++)
      if (!this.defined[address + i])
        throw new GuestFault(
          'not-captured',
          address + i,
          1,
          'read',
          `lane ${this.lane}'s private memory was read before it was written`,
        );
    return this.bytes.subarray(address, address + size);
  }

  write(address: number, data: Uint8Array): void {
    this.check(address, data.length, 'write');
    this.bytes.set(data, address);
    this.defined.fill(1, address, address + data.length);
  }
}

/** One wave's private memory, a byte space per lane. */
export class WavePrivate {
  private readonly lanes: LanePrivate[] = [];

  lane(lane: number): ByteSpace {
    return (this.lanes[lane] ??= new LanePrivate(lane));
  }
}
