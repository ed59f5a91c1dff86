/**
 * A table of S# records a program selects a sampler from at run time (D027): the 16-byte records
 * at the selection's stride from the traced base, at most MOST_TABLE_RECORDS, read in one read.
 * Nothing is decoded here: the translator decodes each record through the one function that turns
 * an S#'s words into an access's sampler fields (image-ops.ts), so a record is an S# exactly when
 * a traced S# with its words would be.
 */
import type { BufferDescriptor } from '../descriptors/index.ts';
import { ResourceError, bufferRange } from '../resources/index.ts';
import { DirectoryError } from './errors.ts';
import { MOST_TABLE_RECORDS, type GuestByteReader } from './table.ts';

/** Bytes of an S#. */
export const SAMPLER_RECORD_BYTES = 16;

/** One record that names something: its index in the table and its four words. */
export interface SamplerRecord {
  readonly index: number;
  readonly words: readonly number[];
}

export interface SamplerTable {
  /** The address of record 0 (the base plus the selection's start). */
  readonly address: number;
  readonly stride: number;
  /** Records read (whole records in the bound, at most MOST_TABLE_RECORDS). */
  readonly recordCount: number;
  /** Records of four zero words: they name nothing. */
  readonly emptyRecords: number;
  /** The other records, in table order. */
  readonly records: readonly SamplerRecord[];
}

function readRecords(address: number, size: number, stride: number, memory: GuestByteReader): SamplerTable {
  if (!Number.isInteger(stride) || stride < SAMPLER_RECORD_BYTES || stride % 4 !== 0)
    throw new DirectoryError('table-range', `a sampler record stride of ${stride} bytes holds no whole S#`);
  const whole = size < SAMPLER_RECORD_BYTES ? 0 : Math.floor((size - SAMPLER_RECORD_BYTES) / stride) + 1;
  const recordCount = Math.min(whole, MOST_TABLE_RECORDS);
  let bytes: Uint8Array;
  try {
    bytes =
      recordCount === 0 ? new Uint8Array(0) : memory.read(address, (recordCount - 1) * stride + SAMPLER_RECORD_BYTES);
  } catch (e) {
    throw new DirectoryError(
      'table-unreadable',
      `the sampler table at 0x${address.toString(16)}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: SamplerRecord[] = [];
  let emptyRecords = 0;
  for (let i = 0; i < recordCount; i++) {
    const words = [0, 1, 2, 3].map((k) => view.getUint32(i * stride + 4 * k, true));
    if (words.every((w) => w === 0)) emptyRecords++;
    else records.push({ index: i, words });
  }
  return { address, stride, recordCount, emptyRecords, records };
}

/** The sampler records of `size` bytes from `address` (what the capture holds there: a table addressed by a pointer). */
export function readSamplerTableAt(
  address: number,
  size: number,
  stride: number,
  memory: GuestByteReader,
): SamplerTable {
  return readRecords(address, size, stride, memory);
}

/** The sampler records in the range a V# bounds, from byte `offset` of it. */
export function readSamplerTable(
  table: BufferDescriptor,
  offset: number,
  stride: number,
  memory: GuestByteReader,
): SamplerTable {
  let range;
  try {
    range = bufferRange(table, { idxen: false });
  } catch (e) {
    if (e instanceof ResourceError) throw new DirectoryError('table-range', `the sampler table's V#: ${e.reason}`);
    throw e;
  }
  if (range.swizzled) throw new DirectoryError('table-range', "the sampler table's V# is swizzled");
  return readRecords(range.address + offset, range.size - offset, stride, memory);
}
