/**
 * V# -> the guest byte range it covers, and storage buffers for guest bytes (D008).
 *
 * The range is what the descriptor alone bounds (DESCRIPTORS.md §1): instruction offsets and
 * SOFFSET come on top and are the module's business. NUM_RECORDS counts bytes or records as the
 * descriptor layer says (`num_records_unit`); a gfx9 V# with a stride needs the instruction's
 * IDXEN to know which. Swizzled buffers (SWIZZLE_ENABLE with a stride, records counted) follow
 *   addr = base + ((index / IS) * STRIDE + (offset / ES) * ES) * IS + (index % IS) * ES + offset % ES
 * (IS = INDEX_STRIDE records, ES = the swizzle element size), so the range is that of the
 * largest index and offset, not STRIDE * NUM_RECORDS.
 */
import type { BufferDescriptor } from '../descriptors/index.ts';
import { ResourceError } from './errors.ts';

const MAX_ADDRESS = 2 ** 48;

export interface GuestRange {
  /** First guest byte address. */
  readonly address: number;
  /** Bytes covered. */
  readonly size: number;
  /** How NUM_RECORDS was read for this range. */
  readonly unit: 'bytes' | 'records';
  /** True when the swizzled address formula was applied. */
  readonly swizzled: boolean;
}

export interface BufferRangeOptions {
  /** The instruction's IDXEN: needed on gfx9 when STRIDE != 0 (records with IDXEN, bytes without). */
  readonly idxen?: boolean;
}

/** The guest byte address of (record `index`, byte `offset` of the record) in a swizzled buffer. */
export function swizzledOffset(desc: BufferDescriptor, index: number, offset: number): number {
  const is = desc.index_stride_records;
  const es = desc.element_size_bytes;
  const stride = desc.stride_bytes;
  return (Math.floor(index / is) * stride + Math.floor(offset / es) * es) * is + (index % is) * es + (offset % es);
}

/** The guest bytes a V# covers (see the module comment). Throws `ResourceError` where it cannot say. */
export function bufferRange(desc: BufferDescriptor, options: BufferRangeOptions = {}): GuestRange {
  let unit: 'bytes' | 'records';
  if (desc.num_records_unit === 'bytes-unless-idxen') {
    if (options.idxen === undefined)
      throw new ResourceError(
        'needs-idxen',
        `a ${desc.gen_name} V# with STRIDE ${desc.stride_bytes} counts NUM_RECORDS in records with IDXEN, in bytes without: pass the instruction's idxen`,
      );
    unit = options.idxen ? 'records' : 'bytes';
  } else unit = desc.num_records_unit;
  if (desc.gen_name === 'gfx9' && desc.num_records === 0 && desc.stride_bytes === 0)
    throw new ResourceError('unbounded', 'gfx9 V# with NUM_RECORDS = STRIDE = 0: bounds checking is off');

  const n = desc.num_records;
  const stride = desc.stride_bytes;
  let size: number;
  let swizzled = false;
  if (unit === 'bytes') size = n;
  else if (n === 0 || stride === 0) size = 0;
  else if (desc.swizzled) {
    swizzled = true;
    const is = desc.index_stride_records;
    const lastBlock = Math.floor((n - 1) / is);
    const lastInBlock = Math.min(is, n - lastBlock * is) - 1;
    // The largest address: the last record's last byte; within a block, offset / ES outweighs index % IS.
    const hi = swizzledOffset(desc, lastBlock * is + lastInBlock, stride - 1);
    // A full earlier block can reach further when the last block is partial.
    const full = lastBlock > 0 ? swizzledOffset(desc, lastBlock * is - 1, stride - 1) : -1;
    size = Math.max(hi, full) + 1;
  } else size = stride * n;

  if (!Number.isSafeInteger(desc.address) || desc.address < 0 || desc.address + size > MAX_ADDRESS)
    throw new ResourceError('bad-range', `V# range ${desc.address}+${size} is outside 48-bit addresses`);
  return { address: desc.address, size, unit, swizzled };
}

/**
 * The 4-byte-aligned window a buffer binding needs for a guest range: bindings start at a
 * multiple of 4 (storage arrays are u32 words), so an unaligned base is reached at `shift`
 * bytes into the window.
 */
export function alignedWindow(
  range: Pick<GuestRange, 'address' | 'size'>,
  align = 4,
): {
  readonly address: number;
  readonly size: number;
  readonly shift: number;
} {
  const address = Math.floor(range.address / align) * align;
  const shift = range.address - address;
  return { address, size: Math.ceil((range.size + shift) / align) * align, shift };
}

/** The bytes of `range` from guest memory that starts at `memory.address`; zero-padded to `window`. */
export function guestBytesOf(
  memory: { readonly address: number; readonly bytes: Uint8Array },
  range: Pick<GuestRange, 'address' | 'size'>,
): Uint8Array {
  const start = range.address - memory.address;
  if (start < 0 || start + range.size > memory.bytes.length)
    throw new ResourceError(
      'bad-range',
      `guest range ${range.address}+${range.size} is outside the bytes given (${memory.address}+${memory.bytes.length})`,
    );
  return memory.bytes.subarray(start, start + range.size);
}

/** Usage for a guest buffer the module reads and writes and the host reads back. */
export const GUEST_BUFFER_USAGE = (): number =>
  GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;

/**
 * A buffer holding `bytes` (size rounded up to 4, at least 4; the tail is zero). Sizes are
 * checked against `device.limits` first: `maxBufferSize`, and `maxStorageBufferBindingSize`
 * for STORAGE buffers, as a `ResourceError('too-large')` rather than a device error.
 */
export function createGuestBuffer(
  device: GPUDevice,
  bytes: Uint8Array,
  usage: number = GUEST_BUFFER_USAGE(),
  label = 'guest-buffer',
): GPUBuffer {
  const size = Math.max(4, Math.ceil(bytes.length / 4) * 4);
  checkBufferSize(device, size, usage, label);
  const buffer = device.createBuffer({ label, size, usage, mappedAtCreation: true });
  new Uint8Array(buffer.getMappedRange()).set(bytes);
  buffer.unmap();
  return buffer;
}

/** Throws `ResourceError('too-large')` when a buffer of `size` bytes with `usage` exceeds the device's limits. */
export function checkBufferSize(device: GPUDevice, size: number, usage: number, label = 'buffer'): void {
  const max = device.limits.maxBufferSize;
  if (size > max) throw new ResourceError('too-large', `${label}: ${size} bytes exceed maxBufferSize ${max}`);
  if (usage & GPUBufferUsage.STORAGE) {
    const bind = device.limits.maxStorageBufferBindingSize;
    if (size > bind)
      throw new ResourceError('too-large', `${label}: ${size} bytes exceed maxStorageBufferBindingSize ${bind}`);
  }
}
