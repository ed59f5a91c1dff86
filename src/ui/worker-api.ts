/**
 * What crosses between the page and the analysis worker (worker.ts): plain, structured-cloneable
 * records, no classes. Expected failures (a file that is not a capture, a refusal) are values
 * (`Outcome`), so their names and codes survive the trip; only bugs are thrown.
 */
import type { Compare } from '../host/capture/manifest.ts';
import type { Mismatch } from '../interp/compare.ts';
import type { StepEvent } from '../interp/stepper.ts';
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

/** The WGSL and SPIR-V modules, once the translator (src/translator) is connected to the app. */
export type ModulesStatus =
  | { readonly kind: 'not-connected'; readonly reason: string }
  | { readonly kind: 'modules'; readonly wgsl: string; readonly spirv?: string }
  | { readonly kind: 'refused'; readonly reason: string };

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
  modules(): Promise<ModulesStatus>;
}
