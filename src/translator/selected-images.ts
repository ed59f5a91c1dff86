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
 *   word s (s < slots)          the word where slot s's table's packed directory starts
 *   word slots + k (k < sets)   the word where sampler set k's packed directory starts (D027)
 *   word slots + sets           the word where the sampler rows start (these sets + 1 words only where sets > 0)
 *   then each table's packed directory (hash.ts), once per table
 *   then each sampler set's packed directory, then every set's sampler rows
 *
 * A sampler set is what one selecting access samples with where its S# is selected from a table
 * (D027): the table's S# records, each decoded for that access into the row's sampler fields
 * (image-ops.ts), the directory of their four words (padded to eight with zeros: see D027) whose
 * place is the row's index among all sets' rows.
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
  readSamplerTable,
  readSamplerTableAt,
  SAMPLER_RECORD_BYTES,
  TABLE_RECORD_BYTES,
  type SamplerTable,
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

/**
 * A slot's S#: its words, and whether the trace named them (false: the default sampler, D995);
 * or, with `selectedFrom`, the table the lane selects it from (D027; `words` then empty).
 */
export interface SlotSampler {
  readonly words: readonly number[];
  readonly traced: boolean;
  readonly selectedFrom?: string;
}

/** Why a record of a sampler table that names something is not bound (D027). */
export type SamplerLeftOutReason =
  | 'not-a-sampler' // the S# decoder refuses the words
  | 'not-sampled'; // the access cannot sample with it (the sampler check the interpreter and translator share)

export const SAMPLER_LEFT_OUT_REASONS: readonly SamplerLeftOutReason[] = ['not-a-sampler', 'not-sampled'];

/** One record as an access samples with it: its four words and the row's sampler fields as words (image-ops.ts). */
export interface SamplerRow {
  readonly words: readonly number[];
  readonly fields: readonly number[];
}

/** What `gcn-webgpu replay --json` reports of a slot's selected sampler (D027): one set per access kind. */
export interface SelectedSamplerReport {
  readonly set: number;
  readonly table: string;
  readonly tableAddress: number;
  readonly recordsRead: number;
  readonly emptyRecords: number;
  readonly samplersBound: number;
  readonly leftOut: Readonly<Record<SamplerLeftOutReason, number>>;
  readonly directorySlots: number;
}

/** One texture slot of the module. */
export interface SelectedSlot {
  /** Its index in the module (the access row's binding). */
  readonly index: number;
  /** The tracer's slot. */
  readonly slot: SlotId;
  readonly table: number;
  readonly shape: 'flat' | 'cube';
  /** The slot's sampler: the words the trace named, the default sampler (D995) where it named none, or its table (D027); null for loads. */
  readonly sampler: SlotSampler | null;
  readonly accesses: CodeAddress[];
  /** The sampler sets its accesses sample with (D027). */
  readonly samplerSets: number[];
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
  /** The selected sampler's tables as its accesses sample them (D027); empty where the S# is not selected. */
  readonly samplerTables: readonly SelectedSamplerReport[];
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

/**
 * An S#'s four words as the directory (hash.ts, eight words a descriptor) holds them: the four,
 * then four zeros. A sampler directory holds only S#s, all padded alike, so two entries match
 * exactly when their four words do (D027).
 */
export const paddedSamplerWords = (words: readonly number[]): number[] => [...words.map((w) => w >>> 0), 0, 0, 0, 0];

/** WebGPU's default maxStorageBufferBindingSize. */
export const DEFAULT_STORAGE_BINDING_BYTES = 2 ** 27;

const describe = (e: unknown): string | undefined =>
  e instanceof DirectoryError || e instanceof DescriptorError ? e.message : undefined;

export class SelectedImages {
  readonly slots: SelectedSlot[] = [];
  private readonly tables: { text: string; table: ImageTable }[] = [];
  private readonly samplerTables: { text: string; table: SamplerTable }[] = [];
  private readonly samplerSets: {
    key: string;
    table: number;
    rows: SamplerRow[];
    leftOut: Record<SamplerLeftOutReason, number>;
  }[] = [];

  constructor(
    private readonly gen: Gen,
    private readonly memory: GuestMemory,
  ) {}

  get empty(): boolean {
    return this.slots.length === 0;
  }

  /** How many sampler sets the accesses made (D027): the directory buffer's header holds a word for each. */
  get samplerSetCount(): number {
    return this.samplerSets.length;
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
    const key = (x: SlotSampler | null): string =>
      x ? `${x.traced}:${x.words.join(',')}:${x.selectedFrom ?? ''}` : 'none';
    let s = this.slots.find((x) => x.slot === slot && x.shape === shape && key(x.sampler) === key(sampler));
    if (!s) {
      s = {
        index: this.slots.length,
        slot,
        table: this.tableFor(selection, base),
        shape,
        sampler,
        accesses: [],
        samplerSets: [],
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

  /**
   * The S# table a lane selects its sampler from (D027), read on first use: every 16-byte record
   * at the selection's stride from the traced base. `base` as for `slotFor`.
   */
  samplerTable(selection: Selection, base: readonly number[]): { index: number; text: string; table: SamplerTable } {
    const r = selection.record;
    const text = `${selection.table.text} + 0x${r.start.toString(16)} + ${r.stride} * i`;
    const known = this.samplerTables.findIndex((t) => t.text === text);
    if (known >= 0) return { index: known, ...this.samplerTables[known]! };
    selection.words.forEach((w, i) => {
      if (w.recordOffset !== 4 * i || w.computed)
        throw new SelectedImageRefusal(
          `${w.register} is ${w.recordOffset === undefined ? 'not read from the record' : w.computed ? 'computed from the record' : `the record's byte ${w.recordOffset}`}, not its word ${i}: only a record whose S# is its first 16 bytes, read in order, is translated (D027)`,
        );
    });
    // A stride below an S# (the offset computed where the tracer sees only its bytes) reads every 16-byte record.
    const stride = r.stride >= SAMPLER_RECORD_BYTES ? r.stride : SAMPLER_RECORD_BYTES;
    let table: SamplerTable;
    try {
      const t = selection.table;
      const heldFrom = (address: number): SamplerTable => {
        const range = this.memory.rangeAt(address);
        return readSamplerTableAt(address, range.address + range.bytes.length - address, stride, this.memory);
      };
      if (t.through === 'scalar-descriptor' || t.through === 'buffer') {
        const desc = decodeBufferDescriptor(this.gen, base);
        table = readSamplerTable(desc, r.start, stride, this.memory);
        if (t.through === 'buffer' && table.recordCount === 0) table = heldFrom(desc.address + r.start);
      } else table = heldFrom(base[0]! + (base[1]! & 0xffff) * 2 ** 32 + r.start);
    } catch (e) {
      const m = describe(e);
      if (m !== undefined) throw new SelectedImageRefusal(`the sampler table ${text}: ${m}`);
      throw e;
    }
    this.samplerTables.push({ text, table });
    return { index: this.samplerTables.length - 1, text, table };
  }

  /**
   * The sampler set of an access of `slot` (D027): the table's records as that access decodes
   * them (`rows`, one per distinct S#) and the records it left out by reason. Equal sets are shared.
   */
  samplerSet(
    slot: SelectedSlot,
    table: number,
    rows: readonly SamplerRow[],
    leftOut: Readonly<Record<SamplerLeftOutReason, number>>,
  ): number {
    const key = `${table}|${JSON.stringify(rows)}|${JSON.stringify(leftOut)}`;
    let k = this.samplerSets.findIndex((x) => x.key === key);
    if (k < 0) {
      k = this.samplerSets.length;
      this.samplerSets.push({ key, table, rows: [...rows], leftOut: { ...leftOut } });
    }
    if (!slot.samplerSets.includes(k)) slot.samplerSets.push(k);
    return k;
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
    // The sampler header only where some access selects its S# (the layout is D017's otherwise).
    let directoryBase = this.slots.length + (this.samplerSets.length > 0 ? this.samplerSets.length + 1 : 0);
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
    // The sampler sets (D027): each one's directory of four S# words padded with zeros, its place the row's global index.
    const samplerDirectories: { base: number; directory: DescriptorDirectory }[] = [];
    let firstRow = 0;
    try {
      for (const set of this.samplerSets) {
        const d = buildDirectory(
          set.rows.map((row, i) => ({
            words: paddedSamplerWords(row.words),
            place: imagePlace(firstRow + i),
            cube: false,
          })),
        );
        samplerDirectories.push({ base: directoryBase, directory: d });
        directoryBase += d.packed.length;
        firstRow += set.rows.length;
      }
    } catch (e) {
      const m = describe(e);
      if (m !== undefined) throw new SelectedImageRefusal(`a sampler directory: ${m}`);
      throw e;
    }
    const rowsStart = directoryBase;
    const rowWords = this.samplerSets.flatMap((set) => set.rows.flatMap((row) => row.fields));
    const directory = new Uint32Array(directoryBase + rowWords.length);
    this.slots.forEach((s) => (directory[s.index] = prepared[s.table]!.directoryBase));
    for (const t of prepared) directory.set(t.directory.packed, t.directoryBase);
    samplerDirectories.forEach((d, k) => {
      directory[this.slots.length + k] = d.base;
      directory.set(d.directory.packed, d.base);
    });
    if (this.samplerSets.length > 0) directory[this.slots.length + this.samplerSets.length] = rowsStart;
    directory.set(
      rowWords.map((w) => w >>> 0),
      rowsStart,
    );
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
        samplerTables: s.samplerSets.map((k): SelectedSamplerReport => {
          const set = this.samplerSets[k]!;
          const st = this.samplerTables[set.table]!;
          return {
            set: k,
            table: st.text,
            tableAddress: st.table.address,
            recordsRead: st.table.recordCount,
            emptyRecords: st.table.emptyRecords,
            samplersBound: set.rows.length,
            leftOut: { ...set.leftOut },
            directorySlots: samplerDirectories[k]!.directory.slotCount,
          };
        }),
        accesses: [...s.accesses],
      };
    });
    return { slots: this.slots, tables: prepared, directory, store, summary, report };
  }
}
