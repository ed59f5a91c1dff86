/**
 * What crosses between the page and the analysis worker (worker.ts): plain, structured-cloneable
 * records, no classes. Expected failures (a file that is not a capture, a refusal) are values
 * (`Outcome`), so their names and codes survive the trip; only bugs are thrown.
 */
import type { Compare } from '../host/capture/manifest.ts';
import type { Mismatch } from '../interp/compare.ts';
import type { StepEvent } from '../interp/stepper.ts';
import type { SelectedImageEscape } from '../translator/gpu-replay.ts';
import type { Listing } from './listing-core.ts';

/** A progress line from long work ("reading the zip directory", "running 2 groups"). */
export type ProgressSink = (message: string) => void;

/** An error as the page shows it: its class name, its code where it has one, its message. */
export interface NamedError {
  readonly name: string;
  readonly code?: string;
  readonly message: string;
}

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: NamedError };

export interface RangeSummary {
  readonly address: string;
  readonly size: number;
  readonly access: string;
  readonly origin: string;
  readonly detail: string;
  /** Why the bytes are not in the capture; absent when they are. */
  readonly unavailable?: string;
  /** The sub-ranges the dispatch read, as text ("all", "0+16, 32+8", "unknown"). */
  readonly readBytes: string;
}

export interface DescriptorSummary {
  readonly kind: 'buffer' | 'image' | 'sampler';
  /** Where its words are: "COMPUTE_USER_DATA_0", "s4", "0x20000000". */
  readonly where: string;
  readonly name?: string;
  readonly words: readonly number[];
  /** The decoded record, field by field, as text (src/host/descriptors); absent when it did not decode. */
  readonly fields?: readonly (readonly [string, string])[];
  /** Why the words did not decode. */
  readonly error?: string;
}

export interface ExpectedSummary {
  readonly source: string;
  readonly ranges: readonly { readonly address: string; readonly size: number; readonly compare: string }[];
  /** Expected final registers (a program capture). */
  readonly registers: boolean;
}

export interface CaptureSummary {
  readonly name: string;
  readonly fileBytes: number;
  readonly mcpu: string;
  readonly gen: string;
  readonly wave64: boolean;
  readonly dispatchKind: 'registers' | 'pm4' | 'program';
  /** The dispatch in a few lines (grid, group, registers), from the same setup the interpreter uses. */
  readonly dispatch: readonly string[];
  /** Why the dispatch could not be set up (a bad PM4 stream, …); the other views still work. */
  readonly dispatchError?: string;
  readonly redacted: boolean;
  readonly recorder: string;
  readonly notes: string;
  readonly ranges: readonly RangeSummary[];
  readonly descriptors: readonly DescriptorSummary[];
  readonly expected: ExpectedSummary | { readonly unavailable: string };
  /** Milliseconds reading and checking the file took. */
  readonly readMs: number;
}

/** The program's disassembly, from its entry (offsets are bytes from the entry). */
export type ProgramView =
  | {
      readonly ok: true;
      readonly mcpu: string;
      readonly wave64: boolean;
      /** Guest address of the entry. */
      readonly entry: number;
      /** Bytes of code from the entry to the end of its range. */
      readonly bytes: number;
      readonly listing: Listing;
      readonly decodeMs: number;
    }
  | { readonly ok: false; readonly reason: string };

/** One expected range next to what the interpreter left there. */
export interface BufferComparison {
  readonly address: number;
  readonly size: number;
  readonly compare: Compare;
  /** u32 or u8 for exact ranges (u8 when the size is not whole words), else the ULP element type. */
  readonly element: 'u8' | 'u32' | 'f16' | 'f32' | 'f64';
  readonly expected: Uint8Array | null;
  /** Null where the range is not in guest memory after the run. */
  readonly got: Uint8Array | null;
  readonly unavailable?: string;
  /** Indices of the elements that differ beyond the range's tolerance, in order. */
  readonly differing: readonly number[];
  /** The images a noted T# lays out in the range, as pictures (image-diff.ts); absent where none. */
  readonly images?: readonly ImageComparison[];
}

/** A picture for a canvas: unorm8 RGBA, row-major. */
export interface ImagePicture {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

/** Level 0, slice 0 of an image in an expected range: expected, got, and the texels that differ. */
export interface ImageComparison {
  /** The T#'s name in the capture, where it has one, and where its words are. */
  readonly name?: string;
  readonly where: string;
  readonly format: string;
  readonly typeName: string;
  readonly mode: string;
  readonly width: number;
  readonly height: number;
  readonly levels: number;
  readonly slices: number;
  /** Null where the bytes are not there (or could not be decoded: `error`). */
  readonly expected: ImagePicture | null;
  readonly got: ImagePicture | null;
  /** Texels holding a differing element; null where not compared. */
  readonly differingTexels: number | null;
  /** Differing elements outside the image's texels (row padding, other bytes of the range). */
  readonly outside: number;
  /** Black where equal, magenta where a texel differs. */
  readonly difference: ImagePicture | null;
  /** Why the image could not be decoded. */
  readonly error?: string;
}

export type RunReport =
  | {
      readonly kind: 'match' | 'mismatch';
      readonly ms: number;
      readonly steps: number;
      /** Lane-operations run (VALU instructions × active lanes + SALU), where the interpreter counts them. */
      readonly laneOps?: number;
      /** ALU instructions the compiled path (src/interp/jit) compiled, where it says. */
      readonly compiledInstructions?: number;
      readonly groups: number;
      readonly waves: number;
      readonly checked: number;
      readonly rangesCompared: number;
      readonly bytesCompared: number;
      readonly rangesNotCompared: number;
      readonly mismatchCount: number;
      /** The first mismatches, as compare.ts lists them (registers included). */
      readonly mismatches: readonly Mismatch[];
      readonly buffers: readonly BufferComparison[];
    }
  | { readonly kind: 'refused' | 'invalid'; readonly ms: number; readonly reason: string };

/** One record's outcome in a table, packed: `RecordKind` per record. */
export const RECORD_KINDS = ['empty', 'image', 'repeat', 'left-out'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** A distinct image of a table (D013), at its place. */
export interface TableImageSummary {
  readonly place: number;
  readonly typeName: string;
  readonly format: string;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  /** Mip levels and slices (layers, faces) the surface holds. */
  readonly levels: number;
  readonly slices: number;
  /** The level bound (BASE_LEVEL) and the shape the directory keeps. */
  readonly level: number;
  readonly shape: 'flat' | 'cube';
  /** The WebGPU format the image goes up as, and its page, where the page plan placed it. */
  readonly textureFormat: string;
  readonly page?: string;
  readonly records: readonly number[];
}

export interface DirectorySlotSummary {
  readonly index: number;
  readonly place: number;
  readonly cube: boolean;
  readonly home: number;
  /** Slots above its home (0-3). */
  readonly distance: number;
}

/** A step of the host side that refused (bounds, directory, pages), by its code and reason. */
export interface TableRefusal {
  readonly code: string;
  readonly reason: string;
}

/** One selecting texture slot's table (D983), read and classified on the host. */
export interface SlotTable {
  readonly slot: string;
  /** The table, the sampler and the shape as the tracer names them. */
  readonly table: string;
  readonly sampler: string;
  readonly shape: string;
  /** Byte offsets (from the entry) of the accesses through the slot. */
  readonly accesses: readonly number[];
  /** Why the table could not be read at all (its V# not known at dispatch, unreadable bytes...). */
  readonly unread?: TableRefusal;
  readonly address?: number;
  readonly recordCount?: number;
  readonly recordsBeyondCap?: number;
  /** 8 words a record. */
  readonly recordWords?: Uint32Array;
  /** Index into RECORD_KINDS a record. */
  readonly kinds?: Uint8Array;
  /** The place of an image or repeat record, else -1. */
  readonly places?: Int32Array;
  /** Index into `names` of the record's T# TYPE, its format, its left-out reason (0xffff: none). */
  readonly typeNames?: Uint16Array;
  readonly formatNames?: Uint16Array;
  readonly reasons?: Uint16Array;
  readonly names?: readonly string[];
  /** The detail of each left-out record, by record index. */
  readonly details?: Readonly<Record<number, string>>;
  readonly images?: readonly TableImageSummary[];
  readonly leftOut?: Readonly<Record<string, number>>;
  readonly emptyRecords?: number;
  readonly bounds?:
    { readonly ok: true; readonly texelBytes: number } | { readonly ok: false; readonly refusal: TableRefusal };
  readonly directory?:
    | {
        readonly ok: true;
        readonly slotCount: number;
        readonly grewFrom: readonly number[];
        readonly slots: readonly DirectorySlotSummary[];
      }
    | { readonly ok: false; readonly refusal: TableRefusal };
  readonly pages?:
    { readonly ok: true; readonly lines: readonly string[] } | { readonly ok: false; readonly refusal: TableRefusal };
}

/** The capture's selecting slots and their tables; `note` says why there are none. */
/** Where one descriptor register range of an access came from (src/tracer, D012). */
export interface DescriptorOrigin {
  readonly kind: 'T#' | 'V#' | 'S#';
  /** `s[8:15]`. */
  readonly registers: string;
  /** Where its words come from, in short: user data, fixed load, table selection, waterfall, constants, computed, untraced. */
  readonly sources: readonly string[];
  /** The tracer's classification in words (bound, selected per lane from a table with its waterfall, untraced and why). */
  readonly classification: string;
  /** Each register, in order from the range's first: its provenance and the chain of steps that made it, sources first. */
  readonly words: readonly {
    readonly register: string;
    /** Where this register's own word comes from, in the same short words as `sources`. */
    readonly sources: readonly string[];
    readonly provenance: string;
    readonly chain: readonly string[];
  }[];
}

/** One access's descriptors, at its Program-view offset (bytes from the entry). */
export interface AccessOrigins {
  readonly offset: number;
  readonly kind: 'image' | 'buffer' | 'scalar-buffer';
  readonly classification: 'bound' | 'selected' | 'untraced';
  /** Its texture slot, for a selecting image access. */
  readonly slot?: string;
  readonly descriptors: readonly DescriptorOrigin[];
}

export interface TablesReport {
  readonly slots: readonly SlotTable[];
  /** Every traced access's descriptor origins, for the Program view (empty where the program is not traced). */
  readonly origins: readonly AccessOrigins[];
  readonly note?: string;
  /** Image accesses: bound, selected, untraced (the tracer's classification). */
  readonly accessCounts: { readonly bound: number; readonly selected: number; readonly untraced: number };
  readonly ms: number;
}

/** Lanes that selected one descriptor at a selecting access, in the last interpreter run. */
export interface LaneSelection {
  readonly group: number;
  readonly wave: number;
  readonly access: number;
  /** Lane numbers in the wave. */
  readonly lanes: readonly number[];
}

/** A descriptor a selecting access used that the slot's directory does not hold (the module's escape). */
export interface Escape extends LaneSelection {
  readonly words: readonly number[];
}

/** One slot's lanes from the last interpreter run, or why there are none. */
export type SlotLanes =
  | { readonly kind: 'observed'; readonly selections: readonly LaneSelection[]; readonly steps: number }
  | { readonly kind: 'not-run' | 'unavailable'; readonly reason: string };

/** A picture of one level of one slice, RGBA8, for a thumbnail. */
export interface Thumbnail {
  readonly level: number;
  readonly slice: number;
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8ClampedArray;
}

/** What a directory slot opens to. */
export interface DirectorySlotDetail {
  readonly slot: string;
  readonly index: number;
  readonly place: number;
  readonly words: readonly number[];
  readonly fields?: readonly (readonly [string, string])[];
  readonly fieldsError?: string;
  readonly image?: TableImageSummary;
  readonly thumbnails: readonly Thumbnail[];
  readonly thumbnailError?: string;
  readonly sampler?: {
    readonly words: readonly number[];
    readonly fields?: readonly (readonly [string, string])[];
    readonly error?: string;
  };
  readonly samplerNote?: string;
  readonly lanes: SlotLanes;
}

/** The escapes of the last interpreter run, per slot. */
export type EscapesReport =
  | { readonly kind: 'observed'; readonly escapes: readonly (Escape & { readonly slot: string })[] }
  | { readonly kind: 'not-run' | 'unavailable'; readonly reason: string };

/** A lane the module recorded as an escape: the GPU replay's own record (group, invocation, address, slot, words). */
export type GpuEscape = SelectedImageEscape;

/** A GPU run's escapes: how many lane accesses escaped, the first ones the module recorded, and how many in each slot. */
export interface GpuEscapes {
  readonly count: number;
  readonly lanes: readonly GpuEscape[];
  readonly bySlot: readonly number[];
}

/** Where the GPU run happened: in the analysis worker (WebGPU in workers) or on the page. */
export type GpuRunPlace = 'worker' | 'page';

/** The capture replayed on the WebGPU adapter through the translator (`replayOnGpu`). */
export type GpuRunReport =
  | {
      readonly kind: 'match' | 'mismatch';
      readonly place: GpuRunPlace;
      readonly adapter: string;
      /** Milliseconds of the whole replay: translation, upload, dispatch, read-back and comparison. */
      readonly ms: number;
      /** Milliseconds getting the adapter and device, where this run had to. */
      readonly deviceMs: number;
      readonly steps: number;
      readonly groups: number;
      readonly waves: number;
      readonly rangesCompared: number;
      readonly bytesCompared: number;
      readonly rangesNotCompared: number;
      readonly mismatchCount: number;
      readonly mismatches: readonly Mismatch[];
      /** The expected ranges beside the device's bytes; absent where the replay does not return them. */
      readonly buffers?: readonly BufferComparison[];
      /** A device lost since the last run, before this one got a new device. */
      readonly lostBefore?: string;
    }
  | {
      readonly kind: 'refused' | 'invalid';
      readonly place: GpuRunPlace;
      readonly adapter: string;
      readonly ms: number;
      readonly reason: string;
      readonly lostBefore?: string;
      /** Where the refusal is the module's escapes (SelectedImageEscapeError): the lanes and their words. */
      readonly escapes?: GpuEscapes;
    }
  /** No adapter or device, a lost device, a module that does not compile, a validation error. */
  | { readonly kind: 'gpu-error'; readonly place: GpuRunPlace; readonly ms: number; readonly reason: string }
  /** The worker has no navigator.gpu: the page runs it instead. */
  | { readonly kind: 'no-webgpu-here'; readonly place: GpuRunPlace; readonly reason: string };

/** What the Step view asks the stepper to do before it takes a snapshot. */
export type StepCommand =
  | { readonly kind: 'look' }
  | { readonly kind: 'restart' }
  /** Up to `count` instructions of the chosen wave (stops early at a barrier, its end, a refusal). */
  | { readonly kind: 'wave'; readonly count: number }
  | { readonly kind: 'round' }
  | { readonly kind: 'finish-group' }
  | { readonly kind: 'next-group' };

/** Which wave and lane the snapshot shows, and how many registers. */
export interface StepFocus {
  readonly wave: number;
  readonly lane: number;
  /** VGPRs to show (absent: what RSRC1 allocates, or the program capture's initial count). */
  readonly vgprs?: number;
}

export interface WaveRow {
  readonly id: number;
  readonly pc: number;
  readonly done: boolean;
  readonly atBarrier: boolean;
  readonly activeLanes: number;
}

export interface WaveDetail {
  readonly id: number;
  readonly lanes: 32 | 64;
  /** Byte offset of the next instruction from the entry (the Program view's offsets). */
  readonly pc: number;
  /** The next instruction's text, or why it is not known. */
  readonly next: string;
  readonly done: boolean;
  readonly atBarrier: boolean;
  readonly scc: boolean;
  readonly exec: readonly [number, number];
  readonly vcc: readonly [number, number];
  readonly m0: number;
  readonly mode: number;
  /** s0 … s(n-1), the plain SGPRs of the generation. */
  readonly sgprs: readonly number[];
  readonly lane: number;
  readonly laneActive: boolean;
  /** v0 … of `lane`. */
  readonly vgprs: readonly number[];
}

export interface StepSnapshot {
  readonly groupIndex: number;
  readonly groupCount: number;
  readonly groupId: readonly [number, number, number];
  readonly finished: boolean;
  readonly steps: number;
  readonly refusal?: string;
  /** What the command did (several for a multi-step command: the last). */
  readonly event?: StepEvent;
  /** Instructions the command ran. */
  readonly ran: number;
  readonly waves: readonly WaveRow[];
  readonly wave?: WaveDetail;
  /** VGPRs the stepper shows unless asked for another count. */
  readonly defaultVgprs: number;
}

/**
 * A translation block of the WGSL module (src/translator/program.ts): the dispatcher's
 * `case id` runs the instructions from `offset` on. The translator comments each block's case
 * with its guest address, and each instruction's first statement with its address and name
 * (`instructionMarker`), so the app links blocks and instructions to their lines.
 */
export interface WgslBlock {
  readonly id: number;
  /** Byte offset of its first instruction from the entry (the Program view's offsets). */
  readonly offset: number;
  /** Byte offsets of the instructions it runs, in order (its `steps`). */
  readonly instructions: readonly number[];
  /**
   * 0-based line of each instruction's marker (the comment before its statements), beside
   * `instructions`; null where the text has none for it.
   */
  readonly instructionLines: readonly (number | null)[];
  /** 0-based line of its `case` in the WGSL text; null where the text does not show it. */
  readonly line: number | null;
  /** 0-based line of its phase-B finish (`case id + 1`), where it has one. */
  readonly finishLine: number | null;
}

/**
 * The SPIR-V panel: the disassembly (the spirv-tools package's, in the worker) of the SPIR-V the
 * WGSL reader (src/translator/spirv/wgsl-reader, D016) makes of the translated WGSL; or why not.
 */
export type SpirvStatus =
  | {
      readonly kind: 'spirv';
      /** `spirv-dis` text: indented, with friendly names. */
      readonly text: string;
      /** Size of the binary module. */
      readonly bytes: number;
      /** Milliseconds reading the WGSL into SPIR-V, loading spirv-tools (0 once loaded), and disassembling. */
      readonly readMs: number;
      readonly loadMs: number;
      readonly disassembleMs: number;
    }
  /** The WGSL reader refused the translated WGSL (`UnsupportedWgsl`): a translator bug; `line` 0-based, in the WGSL. */
  | { readonly kind: 'spirv-unsupported-wgsl'; readonly reason: string; readonly line: number }
  /** spirv-tools did not load or could not disassemble the module (`SpirvToolsError`). */
  | { readonly kind: 'spirv-tools-failed'; readonly reason: string }
  /** There is no WGSL to read: the translator refused, or the capture does not describe a dispatch. */
  | { readonly kind: 'spirv-not-translated'; readonly reason: string };

/** The WGSL module the translator (src/translator) makes of the current capture (its SPIR-V: `SpirvStatus`, apart). */
export type ModulesStatus =
  | {
      readonly kind: 'modules';
      readonly wgsl: string;
      readonly blocks: readonly WgslBlock[];
      /** Milliseconds the translation took. */
      readonly ms: number;
    }
  /** The translator refused (by name) or the capture does not describe a dispatch. */
  | { readonly kind: 'refused' | 'invalid'; readonly reason: string };

/** The worker's interface (what comlink exposes). */
export interface AnalysisApi {
  /** Reads and checks a capture and makes it the current one; the last good capture stays current on failure. */
  open(
    bytes: Uint8Array,
    name: string,
    progress: ProgressSink,
  ): Promise<Outcome<{ summary: CaptureSummary; program: ProgramView }>>;
  /** Replays the current capture on the interpreter and compares it with its expectation. */
  replay(progress: ProgressSink): Promise<Outcome<RunReport>>;
  /** Drives the current capture's stepper, then describes it. */
  step(command: StepCommand, focus: StepFocus): Promise<Outcome<StepSnapshot>>;
  /** Translates the current capture (WebGPU's default limits) to its WGSL module. */
  modules(progress: ProgressSink): Promise<Outcome<ModulesStatus>>;
  /** The current capture's WGSL read into SPIR-V and disassembled (asked for when the SPIR-V panel is first shown). */
  spirv(progress: ProgressSink): Promise<Outcome<SpirvStatus>>;
  /** Replays the current capture on the worker's WebGPU device (requested on first use, again after a loss). */
  gpuReplay(progress: ProgressSink): Promise<Outcome<GpuRunReport>>;
  /** The selecting slots' tables and directories (D983, D013), read on the host without a device. */
  tables(progress: ProgressSink): Promise<Outcome<TablesReport>>;
  /** One directory slot opened: its descriptor decoded, its image's thumbnails, its sampler, its lanes. */
  directorySlot(slot: string, index: number): Promise<Outcome<DirectorySlotDetail>>;
  escapes(): Promise<Outcome<EscapesReport>>;
  /** For tests and the console: destroys the worker's GPU device, as a lost device; false when it holds none. */
  loseGpuDevice(): Promise<boolean>;
}
