/**
 * The host's half of a translation's runtime-selected images (D983, D013, D017): for each
 * texture slot the tracer groups (one table, one sampler, one shape), the table its selection
 * names is resolved at translation time from the traced base (user data, loads at fixed places),
 * every record read and classified, the bounds checked against the base levels before any image
 * is read, and then the directory of each table's descriptors and the texel store of every bound
 * image built. The module searches the directory at the access (image-ops.ts) and reads the
 * store at the place it finds.
 *
 * Places are global over the dispatch's tables: table t's place p is `firstPlace(t) + p`, so one
 * store serves every slot. The directory buffer the module binds is
 *
 *   word s (s < slots)   the word where slot s's table's packed directory starts
 *   then each table's packed directory (hash.ts), once per table
 */
import type { Gen } from '../isa/gen.ts';
import { decodeBufferDescriptor, DescriptorError } from '../host/descriptors/index.ts';
import {
  buildDirectory,
  buildTexelStore,
  checkImageBounds,
  DirectoryError,
  imagePlace,
  LEFT_OUT_REASONS,
  readImageTable,
  readImageTableAt,
  TABLE_RECORD_BYTES,
  type DescriptorDirectory,
  type ImageTable,
  type LeftOutReason,
  type TablesSummary,
  type TexelStore,
} from '../host/directory/index.ts';
import type { GuestMemory } from '../interp/memory.ts';
import type { Selection } from '../tracer/classify.ts';
import type { CodeAddress, SlotId } from '../tracer/ids.ts';
import { MemoryRefusal } from './memory-ops.ts';

/** Why a translation's selected images cannot be prepared (a table, a bound, a directory). */
export class SelectedImageRefusal extends MemoryRefusal {}

/** A table as the translation resolved it. */
export interface SelectedTable {
  /** The table's traced base and record step, in one line (the tracer's text). */
  readonly text: string;
  readonly table: ImageTable;
  readonly directory: DescriptorDirectory;
  /** The global place of this table's place 0. */
  readonly firstPlace: number;
  /** The word of the directory buffer where its packed directory starts. */
  readonly directoryBase: number;
}

/** A slot's S#: its words, and whether the trace named them (false: the default sampler, D995). */
export interface SlotSampler {
  readonly words: readonly number[];
  readonly traced: boolean;
}

/** One texture slot of the module. */
export interface SelectedSlot {
  /** Its index in the module (the access row's binding). */
  readonly index: number;
  /** The tracer's slot. */
  readonly slot: SlotId;
  readonly table: number;
  readonly shape: 'flat' | 'cube';
  /** The slot's sampler: the words the trace named, or the default sampler (D995) where it named none; null for loads. */
  readonly sampler: SlotSampler | null;
  readonly accesses: CodeAddress[];
}

/** What `gcn-webgpu replay --json` reports of a slot. */
export interface SelectedSlotReport {
  readonly slot: number;
  readonly table: string;
  readonly tableAddress: number;
  readonly recordsRead: number;
  readonly imagesBound: number;
  readonly emptyRecords: number;
  readonly leftOut: Readonly<Record<LeftOutReason, number>>;
  readonly directorySlots: number;
  /** The largest distance of a descriptor from its home slot (0-3). */
  readonly longestProbe: number;
  readonly sampler: SlotSampler | null;
  readonly accesses: readonly number[];
}

/** The device data of the selected images: the directory buffer and the texel store. */
export interface SelectedImageData {
  readonly slots: readonly SelectedSlot[];
  readonly tables: readonly SelectedTable[];
  readonly directory: Uint32Array;
  readonly store: TexelStore;
  readonly summary: TablesSummary;
  readonly report: readonly SelectedSlotReport[];
}

/** WebGPU's default maxStorageBufferBindingSize. */
export const DEFAULT_STORAGE_BINDING_BYTES = 2 ** 27;

const describe = (e: unknown): string | undefined =>
  e instanceof DirectoryError || e instanceof DescriptorError ? e.message : undefined;

export class SelectedImages {
  readonly slots: SelectedSlot[] = [];
  private readonly tables: { text: string; table: ImageTable }[] = [];

  constructor(
    private readonly gen: Gen,
    private readonly memory: GuestMemory,
  ) {}

  get empty(): boolean {
    return this.slots.length === 0;
  }

  /**
   * The slot of a selecting access: the tracer's slot, its table read on first use. `base` is the
   * table base's words evaluated (2 for an address, 4 for a V#).
   */
  slotFor(
    slot: SlotId,
    selection: Selection,
    base: readonly number[],
    shape: 'flat' | 'cube',
    sampler: SelectedSlot['sampler'],
    at: CodeAddress,
  ): SelectedSlot {
    const key = (x: SlotSampler | null): string => (x ? `${x.traced}:${x.words.join(',')}` : 'none');
    let s = this.slots.find((x) => x.slot === slot && x.shape === shape && key(x.sampler) === key(sampler));
    if (!s) {
      s = {
        index: this.slots.length,
        slot,
        table: this.tableFor(selection, base),
        shape,
        sampler,
        accesses: [],
      };
      this.slots.push(s);
    }
    if (!s.accesses.includes(at)) s.accesses.push(at);
    return s;
  }

  /** The images of a slot's table (the translation checks what their shape and levels allow). */
  tableOf(s: SelectedSlot): ImageTable {
    return this.tables[s.table]!.table;
  }

  private tableFor(selection: Selection, base: readonly number[]): number {
    const r = selection.record;
    const text = `${selection.table.text} + 0x${r.start.toString(16)} + ${r.stride} * i`;
    const known = this.tables.findIndex((t) => t.text === text);
    if (known >= 0) return known;
    // The record's words in order from its start: the T# the table holds.
    selection.words.forEach((w, i) => {
      if (w.recordOffset !== 4 * i || w.computed)
        throw new SelectedImageRefusal(
          `${w.register} is ${w.recordOffset === undefined ? 'not read from the record' : w.computed ? 'computed from the record' : `the record's byte ${w.recordOffset}`}, not its word ${i}: only a record whose T# is its first 32 bytes, read in order, is translated`,
        );
    });
    // A stride below a record (the offset computed where the tracer sees only its bytes, `v18`) reads the
    // table as D983 does, every 32-byte record: a lane whose record lies off that grid escapes.
    const stride = r.stride >= TABLE_RECORD_BYTES ? r.stride : TABLE_RECORD_BYTES;
    // The store holds integer texels as words, so integer images are bound too.
    const options = {
      features: new Set<string>(),
      offset: r.start,
      recordStride: stride,
      keepCompressed: false,
      bindIntegers: true,
    };
    let table: ImageTable;
    try {
      const t = selection.table;
      // What the capture holds from an address on: a table addressed by a pointer has no other bound.
      const heldFrom = (address: number): ImageTable => {
        const range = this.memory.rangeAt(address);
        return readImageTableAt(this.gen, address, range.address + range.bytes.length - address, this.memory, options);
      };
      if (t.through === 'scalar-descriptor' || t.through === 'buffer') {
        const desc = decodeBufferDescriptor(this.gen, base);
        table = readImageTable(this.gen, desc, this.memory, options);
        // A per-lane load through a V# of no records (gfx7's ADDR64 MUBUF ignores NUM_RECORDS) reads from
        // its base: what the capture holds there. A lane whose T# is not found there escapes, so nothing is assumed.
        if (t.through === 'buffer' && table.recordCount === 0) table = heldFrom(desc.address);
      } else table = heldFrom(base[0]! + (base[1]! & 0xffff) * 2 ** 32);
    } catch (e) {
      const m = describe(e);
      if (m !== undefined) throw new SelectedImageRefusal(`the table ${text}: ${m}`);
      throw e;
    }
    this.tables.push({ text, table });
    return this.tables.length - 1;
  }

  /**
   * The bounds (before any image is read), then every table's directory and the store of every
   * bound image. `maxStoreBytes`: the device's maxStorageBufferBindingSize.
   */
  prepare(maxStoreBytes: number): SelectedImageData {
    const tables = this.tables.map((t) => t.table);
    let summary: TablesSummary;
    try {
      summary = checkImageBounds(tables);
    } catch (e) {
      const m = describe(e);
      if (m !== undefined) throw new SelectedImageRefusal(m);
      throw e;
    }
    let firstPlace = 0;
    let directoryBase = this.slots.length;
    const prepared: SelectedTable[] = [];
    try {
      for (const t of this.tables) {
        const directory = buildDirectory(
          t.table.images
            // Only flat images and cubes have a shape an access can ask for; a volume is left to escape.
            .filter((im) => im.pageKind !== 'volume')
            .map((im) => ({ words: im.words, place: imagePlace(firstPlace + im.place), cube: im.shape === 'cube' })),
        );
        prepared.push({ text: t.text, table: t.table, directory, firstPlace, directoryBase });
        firstPlace += t.table.images.length;
        directoryBase += directory.packed.length;
      }
    } catch (e) {
      const m = describe(e);
      if (m !== undefined) throw new SelectedImageRefusal(m);
      throw e;
    }
    const directory = new Uint32Array(directoryBase);
    this.slots.forEach((s) => (directory[s.index] = prepared[s.table]!.directoryBase));
    for (const t of prepared) directory.set(t.directory.packed, t.directoryBase);
    let store: TexelStore;
    try {
      store = buildTexelStore(
        prepared.flatMap((t) => t.table.images),
        this.memory,
        maxStoreBytes,
      );
    } catch (e) {
      const m = describe(e);
      if (m !== undefined) throw new SelectedImageRefusal(m);
      throw e;
    }
    const report = this.slots.map((s): SelectedSlotReport => {
      const t = prepared[s.table]!;
      const size = t.directory.slotCount;
      const longestProbe = Math.max(0, ...t.directory.slots.map((x) => (x.index - x.home + size) % size));
      return {
        slot: s.index,
        table: t.text,
        tableAddress: t.table.address,
        recordsRead: t.table.recordCount,
        imagesBound: t.table.images.length,
        emptyRecords: t.table.emptyRecords,
        leftOut: Object.fromEntries(LEFT_OUT_REASONS.map((r) => [r, t.table.leftOut[r]])) as Record<
          LeftOutReason,
          number
        >,
        directorySlots: size,
        longestProbe,
        sampler: s.sampler,
        accesses: [...s.accesses],
      };
    });
    return { slots: this.slots, tables: prepared, directory, store, summary, report };
  }
}
