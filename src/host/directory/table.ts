/**
 * Reading an image table (D013): every 32-byte record the table's V# bounds, at most
 * MOST_TABLE_RECORDS, each decoded as a T# of the target generation and classified without
 * reading any image: a flat image or a cube that can be bound gets a place (the first record
 * holding its eight words gives it; a repeat shares it), a record of zeros or with a base of zero
 * names nothing, and every other record is left out with a named reason. Every record's outcome
 * is kept, for the UI's list of the table.
 *
 * What "can be bound" means is what the pages bind (`pages.ts`): the descriptor's BASE_LEVEL, and
 * the layers from BASE_ARRAY, of a float-readable format whose texels the host can make
 * (`src/host/texels`), in a layout the surface layer models, within the device's texture limits.
 */
import type { Gen } from '../../isa/gen.ts';
import {
  DescriptorError,
  ImageType,
  decodeImageDescriptor,
  type BufferDescriptor,
  type ImageDescriptor,
} from '../descriptors/index.ts';
import { ResourceError, bufferRange, guestTextureFormat, uploadBytesPerElement } from '../resources/index.ts';
import type { GuestTextureFormat } from '../resources/index.ts';
import { TexelFormatError, texelFormat } from '../texels/formats.ts';
import { surfaceLayout, type SurfaceLayout, type TilingParams } from '../texels/surface.ts';
import { TilingError } from '../texels/tiling.ts';
import { DirectoryError } from './errors.ts';
import { imagePlace, tableRecordIndex, type ImagePlace, type TableRecordIndex } from './ids.ts';

/** Bytes of one table record: a T#. */
export const TABLE_RECORD_BYTES = 32;
/** The most records read from one table (D983). */
export const MOST_TABLE_RECORDS = 65536;

/** Guest memory as the table reader needs it: `read` throws where the capture does not hold the bytes. */
export interface GuestByteReader {
  read(address: number, size: number): Uint8Array;
}

/** Why a record that names something is not bound. */
export type LeftOutReason =
  | 'other-type' // TYPE 0 (a buffer descriptor) or a multisampled image, which WebGPU cannot fill
  | 'integer-format' // a UINT / SINT format: the arrays are read as floats
  | 'unmodelled-format' // a format the texel layer does not decode
  | 'unmodelled-layout' // a tiling, mip chain, DCC or cube shape the surface layer does not model
  | 'too-large' // beyond the device's texture dimension or layer limits
  | 'undecodable'; // not a T# of this generation (reserved TYPE, unknown format, reserved DST_SEL)

export const LEFT_OUT_REASONS: readonly LeftOutReason[] = [
  'other-type',
  'integer-format',
  'unmodelled-format',
  'unmodelled-layout',
  'too-large',
  'undecodable',
];

/** How the pages bind an image: layers of a 2D array, whole cubes of a cube array, or a 3D texture of its own. */
export type PageKind = 'flat' | 'cube' | 'volume';
/** The directory's shape: a cube, or any other bound image. */
export type DirectoryShape = 'flat' | 'cube';

/** One record's outcome. `typeName` is the T# TYPE's name (`reserved-3` for 1-7) where the record is not empty. */
export type RecordOutcome =
  | { readonly index: TableRecordIndex; readonly outcome: 'empty' }
  | {
      readonly index: TableRecordIndex;
      readonly outcome: 'image';
      readonly place: ImagePlace;
      /** True when an earlier record holds the same eight words. */
      readonly repeat: boolean;
      readonly typeName: string;
    }
  | {
      readonly index: TableRecordIndex;
      readonly outcome: 'left-out';
      readonly reason: LeftOutReason;
      readonly detail: string;
      readonly typeName: string;
      /** The format's name where the record decoded. */
      readonly formatName?: string;
    };

/** A distinct image the table names, at its place. */
export interface TableImage {
  readonly place: ImagePlace;
  readonly words: readonly number[];
  readonly descriptor: ImageDescriptor;
  readonly layout: SurfaceLayout;
  readonly shape: DirectoryShape;
  readonly pageKind: PageKind;
  /** The level bound: the descriptor's BASE_LEVEL. */
  readonly level: number;
  /** Its size in texels (height 1 for 1D; depth for a volume, else 1). */
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  /** The slices uploaded: layers (faces) from `firstSlice` for arrays and cubes, depth slices for a volume. */
  readonly firstSlice: number;
  readonly sliceCount: number;
  /** The texture format as the project uploads it (a BC image stays compressed where D008 allows). */
  readonly format: GuestTextureFormat;
  /** Bytes of the bound level on the device, every slice. */
  readonly baseLevelBytes: number;
  /** The records holding its words. */
  readonly records: readonly TableRecordIndex[];
}

/** The texture limits classification checks (a device's `limits` will do). */
export interface TableTextureLimits {
  readonly maxTextureDimension2D: number;
  readonly maxTextureDimension3D: number;
  readonly maxTextureArrayLayers: number;
}

/** WebGPU's default limits. */
export const DEFAULT_TEXTURE_LIMITS: TableTextureLimits = {
  maxTextureDimension2D: 8192,
  maxTextureDimension3D: 2048,
  maxTextureArrayLayers: 256,
};

export interface ReadTableOptions {
  /** Bytes from the V#'s base to the first record (the tracer's constant offset of the load); default 0. */
  readonly offset?: number;
  /** The device's features: whether BC stays compressed decides the bytes (D008). */
  readonly features: ReadonlySet<string> | GPUSupportedFeatures;
  readonly limits?: TableTextureLimits;
  /** Chip parameters for the surface layouts (pipes, tile modes...). */
  readonly tiling?: TilingParams;
  /** D008's `keepCompressed` (default true). */
  readonly keepCompressed?: boolean;
  /** gfx9's NUM_RECORDS unit for a strided V#: a scalar buffer load counts bytes (default false). */
  readonly idxen?: boolean;
  /**
   * Bytes from one record to the next (default TABLE_RECORD_BYTES): a program whose records hold a
   * T# and more (radv's 64-byte image + sampler records) steps by its own stride; each record's
   * first 32 bytes are its T#.
   */
  readonly recordStride?: number;
  /**
   * Bind UINT / SINT images too (default false: page arrays are read as floats). The texel store
   * (texel-store.ts) holds their channel words exactly, so the translation binds them.
   */
  readonly bindIntegers?: boolean;
}

export interface ImageTable {
  readonly gen: Gen;
  /** Guest address of record 0. */
  readonly address: number;
  /** The records read: min(the range's whole records, MOST_TABLE_RECORDS). */
  readonly recordCount: number;
  /** Whole records the range holds beyond MOST_TABLE_RECORDS (not read). */
  readonly recordsBeyondCap: number;
  /** The records' words, 8 per record (the UI lists them). */
  readonly recordWords: Uint32Array;
  readonly outcomes: readonly RecordOutcome[];
  /** The distinct images, in place order. */
  readonly images: readonly TableImage[];
  readonly leftOut: Readonly<Record<LeftOutReason, number>>;
  readonly emptyRecords: number;
}

/** T# TYPE (0-15) -> its name, `reserved-N` for 1-7. */
const TYPE_NAMES: readonly string[] = Array.from(
  { length: 16 },
  (_, t) => (Object.keys(ImageType) as (keyof typeof ImageType)[]).find((k) => ImageType[k] === t) ?? `reserved-${t}`,
);

/** A record's eight words as a string key (sixteen 16-bit code units): distinct descriptors by their words. */
function wordsKey(words: Uint32Array): string {
  let k = '';
  for (const w of words) k += String.fromCharCode(w & 0xffff, w >>> 16);
  return k;
}

class LeftOut extends Error {
  constructor(
    readonly reason: LeftOutReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

type Classified = Omit<TableImage, 'place' | 'records' | 'words'>;

/** Classifies one decoded T#: what the pages would bind, or a LeftOut. Reads no image. */
function classify(desc: ImageDescriptor, options: ReadTableOptions): Classified {
  const limits = options.limits ?? DEFAULT_TEXTURE_LIMITS;
  const t = desc.type_name;
  if (desc.is_msaa) throw new LeftOut('other-type', `${t}: WebGPU cannot fill a multisampled texture from host memory`);
  let channelKind;
  try {
    channelKind = texelFormat(desc.format).channelKind;
  } catch (e) {
    if (e instanceof TexelFormatError) throw new LeftOut('unmodelled-format', e.message);
    throw e;
  }
  if (channelKind !== 'float' && options.bindIntegers !== true)
    throw new LeftOut('integer-format', `${desc.format.name} reads as ${channelKind === 'uint' ? 'u32' : 'i32'}`);
  let layout: SurfaceLayout;
  try {
    layout = surfaceLayout(desc.gen, desc, options.tiling ?? {});
  } catch (e) {
    if (e instanceof TilingError) throw new LeftOut('unmodelled-layout', `${e.mode}: ${e.reason}`);
    throw e;
  }
  const level = desc.base_level;
  if (level > desc.last_level || desc.last_level >= layout.levels)
    throw new LeftOut(
      'unmodelled-layout',
      `levels ${desc.base_level}..${desc.last_level} outside the ${layout.levels} of the layout`,
    );
  const sub = layout.subresource(level, 0);
  const volume = t === '3d';
  const width = sub.width;
  const height = t === '1d' || t === '1d_array' ? 1 : sub.height;
  let firstSlice = 0;
  let sliceCount = 1;
  if (volume) sliceCount = layout.slices;
  else if (desc.is_array || desc.is_cube) {
    firstSlice = desc.base_array;
    sliceCount = desc.layers - desc.base_array;
    if (sliceCount <= 0)
      throw new LeftOut('unmodelled-layout', `BASE_ARRAY ${desc.base_array} is not below the ${desc.layers} layers`);
  }
  if (desc.is_cube) {
    if (width !== height) throw new LeftOut('unmodelled-layout', `cube faces of ${width}x${height} are not square`);
    if (firstSlice % 6 !== 0 || sliceCount % 6 !== 0)
      throw new LeftOut(
        'unmodelled-layout',
        `a cube of ${sliceCount} faces from face ${firstSlice} is not whole cubes`,
      );
  }
  const maxDim = volume ? limits.maxTextureDimension3D : limits.maxTextureDimension2D;
  for (const [what, v] of [
    ['width', width],
    ['height', height],
    ...(volume ? [['depth', sliceCount] as const] : []),
  ] as const)
    if (v > maxDim)
      throw new LeftOut('too-large', `${what} ${v} exceeds maxTextureDimension${volume ? '3D' : '2D'} ${maxDim}`);
  if (!volume && sliceCount > limits.maxTextureArrayLayers)
    throw new LeftOut('too-large', `${sliceCount} layers exceed maxTextureArrayLayers ${limits.maxTextureArrayLayers}`);
  let format: GuestTextureFormat;
  try {
    format = guestTextureFormat(desc, options.features, { width, height, volume }, options.keepCompressed !== false);
  } catch (e) {
    if (e instanceof TexelFormatError) throw new LeftOut('unmodelled-format', e.message);
    throw e;
  }
  const block = format.compressedOnDevice ? layout.blockWidth : 1;
  const elements = Math.ceil(width / block) * Math.ceil(height / block);
  const baseLevelBytes = elements * sliceCount * uploadBytesPerElement(format, desc.format);
  return {
    descriptor: desc,
    layout,
    shape: desc.is_cube ? 'cube' : 'flat',
    pageKind: desc.is_cube ? 'cube' : volume ? 'volume' : 'flat',
    level,
    width,
    height,
    depth: volume ? sliceCount : 1,
    firstSlice,
    sliceCount,
    format,
    baseLevelBytes,
  };
}

interface LeftOutRecord {
  readonly reason: LeftOutReason;
  readonly detail: string;
  readonly formatName?: string;
}

const BUFFER_RECORD: LeftOutRecord = { reason: 'other-type', detail: 'TYPE 0: a buffer descriptor (V#), not an image' };

/** Decodes and classifies one record that is neither empty nor of TYPE 0. */
function classifyRecord(gen: Gen, words: Uint32Array, options: ReadTableOptions): Classified | LeftOutRecord {
  let desc: ImageDescriptor;
  try {
    desc = decodeImageDescriptor(gen, words);
  } catch (e) {
    if (e instanceof DescriptorError) return { reason: 'undecodable', detail: e.reason };
    throw e;
  }
  try {
    return classify(desc, options);
  } catch (e) {
    if (e instanceof LeftOut) return { reason: e.reason, detail: e.detail, formatName: desc.format.name };
    throw e;
  }
}

function readRange(
  table: BufferDescriptor,
  options: ReadTableOptions,
): { address: number; records: number; beyond: number } {
  let range;
  try {
    range = bufferRange(table, { idxen: options.idxen ?? false });
  } catch (e) {
    if (e instanceof ResourceError) throw new DirectoryError('table-range', `the table's V#: ${e.reason}`);
    throw e;
  }
  if (range.swizzled)
    throw new DirectoryError('table-range', "the table's V# is swizzled: its records are not 32 contiguous bytes");
  const offset = options.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0)
    throw new DirectoryError('table-range', `the record offset ${offset} is not a byte count`);
  return recordsIn(range.address + offset, range.size - offset, options);
}

/** The whole records of `size` bytes from `address` (at most MOST_TABLE_RECORDS), at the options' stride. */
function recordsIn(
  address: number,
  size: number,
  options: ReadTableOptions,
): { address: number; records: number; beyond: number } {
  const stride = options.recordStride ?? TABLE_RECORD_BYTES;
  if (!Number.isInteger(stride) || stride < TABLE_RECORD_BYTES || stride % 4 !== 0)
    throw new DirectoryError('table-range', `a record stride of ${stride} bytes holds no whole T#`);
  const whole = size < TABLE_RECORD_BYTES ? 0 : Math.floor((size - TABLE_RECORD_BYTES) / stride) + 1;
  const records = Math.min(whole, MOST_TABLE_RECORDS);
  return { address, records, beyond: whole - records };
}

/**
 * Reads the table `table` names from `memory` (one read of its records) and classifies every
 * record. No image's bytes are read: `checkImageBounds` can then refuse before any are.
 */
export function readImageTable(
  gen: Gen,
  table: BufferDescriptor,
  memory: GuestByteReader,
  options: ReadTableOptions,
): ImageTable {
  return readRecords(gen, readRange(table, options), memory, options);
}

/**
 * Reads a table a program addresses by a 64-bit base rather than a V# (`s_load` from a pointer):
 * the records of `size` bytes from `address` (what the capture holds there), at most
 * MOST_TABLE_RECORDS, classified as `readImageTable` classifies them.
 */
export function readImageTableAt(
  gen: Gen,
  address: number,
  size: number,
  memory: GuestByteReader,
  options: ReadTableOptions,
): ImageTable {
  return readRecords(
    gen,
    recordsIn(address + (options.offset ?? 0), size - (options.offset ?? 0), options),
    memory,
    options,
  );
}

function readRecords(
  gen: Gen,
  range: { address: number; records: number; beyond: number },
  memory: GuestByteReader,
  options: ReadTableOptions,
): ImageTable {
  const { address, records, beyond } = range;
  const stride = options.recordStride ?? TABLE_RECORD_BYTES;
  let bytes: Uint8Array;
  const span = records === 0 ? 0 : (records - 1) * stride + TABLE_RECORD_BYTES;
  try {
    bytes = records === 0 ? new Uint8Array(0) : memory.read(address, span);
  } catch (e) {
    throw new DirectoryError(
      'table-unreadable',
      `${records} records at 0x${address.toString(16)}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const recordWords = new Uint32Array(records * 8);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let r = 0; r < records; r++)
    for (let k = 0; k < 8; k++) recordWords[r * 8 + k] = view.getUint32(r * stride + k * 4, true);

  const outcomes: RecordOutcome[] = [];
  const images: (Classified & { place: ImagePlace; words: readonly number[]; records: TableRecordIndex[] })[] = [];
  const byWords = new Map<string, ImagePlace | LeftOutRecord>();
  const leftOut = Object.fromEntries(LEFT_OUT_REASONS.map((r) => [r, 0])) as Record<LeftOutReason, number>;
  let emptyRecords = 0;
  for (let r = 0; r < records; r++) {
    const index = tableRecordIndex(r);
    // T# BASE_ADDRESS is dw0 and dw1[7:0] on every generation.
    if (recordWords[r * 8] === 0 && (recordWords[r * 8 + 1] & 0xff) === 0) {
      outcomes.push({ index, outcome: 'empty' });
      emptyRecords++;
      continue;
    }
    const type = recordWords[r * 8 + 3] >>> 28;
    if (type === ImageType.buf) {
      // Most of a large table (D983: 61626 of 65535): decided by TYPE alone, without keeping its words.
      leftOut['other-type']++;
      outcomes.push({ index, outcome: 'left-out', typeName: TYPE_NAMES[type], ...BUFFER_RECORD });
      continue;
    }
    const words = recordWords.subarray(r * 8, r * 8 + 8);
    const typeName = TYPE_NAMES[type];
    const key = wordsKey(words);
    let known = byWords.get(key);
    const repeat = known !== undefined;
    if (known === undefined) {
      const c = classifyRecord(gen, words, options);
      if ('reason' in c) known = c;
      else {
        known = imagePlace(images.length);
        images.push({ ...c, place: known, words: Array.from(words), records: [] });
      }
      byWords.set(key, known);
    }
    if (typeof known === 'number') {
      images[known].records.push(index);
      outcomes.push({ index, outcome: 'image', place: known, repeat, typeName });
    } else {
      leftOut[known.reason]++;
      outcomes.push({ index, outcome: 'left-out', typeName, ...known });
    }
  }
  return {
    gen,
    address,
    recordCount: records,
    recordsBeyondCap: beyond,
    recordWords,
    outcomes,
    images,
    leftOut,
    emptyRecords,
  };
}
