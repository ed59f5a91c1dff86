/**
 * The `.gcncap` manifest (docs/capture-format.md): what a capture holds, as TypeScript types.
 * `gcncap.schema.json` says the same in JSON Schema; the reader validates every manifest
 * against it before it looks at anything else.
 *
 * Addresses are strings, "0x" and lowercase hex (a 48-bit GPU virtual address does not fit
 * a JSON reader's 32-bit integers and reads as an address); sizes and offsets are numbers.
 */

export const FORMAT_NAME = 'gcncap';
/** The version this code writes, and the newest it reads (a newer minor is read, a newer major refused). */
export const FORMAT_VERSION = { major: 1, minor: 0 } as const;

/** GPU virtual addresses have 48 bits. */
export const ADDRESS_BITS = 48;
/** The most bytes one capture may describe, over all its ranges together (and so any one range): 4 GiB. */
export const MAX_TOTAL_BYTES = 2 ** 32;
/** The most bytes the manifest itself may take: 64 MiB. */
export const MAX_MANIFEST_BYTES = 64 * 2 ** 20;

/** "0x" then lowercase hex digits. */
export type HexAddress = string;
/** SHA-256 of a blob's bytes, 64 lowercase hex digits; the blob is `blobs/<hash>` in the zip. */
export type BlobHash = string;

export interface Manifest {
  readonly format: typeof FORMAT_NAME;
  readonly version: { readonly major: number; readonly minor: number };
  readonly target: Target;
  readonly dispatch: Dispatch;
  /** Guest memory before the dispatch. No two ranges overlap. */
  readonly memory: readonly MemoryRange[];
  /** Descriptors the capture knows of, raw words first (annotations: the words are also in memory or user data). */
  readonly descriptors?: readonly DescriptorNote[];
  readonly expected: Expected | Unavailable;
  readonly provenance: Provenance;
  /** True when guest data was removed (`redact`): only the manifest and the code remain. */
  readonly redacted: boolean;
}

export interface Target {
  /** An `--mcpu` name (src/isa/gen.ts PROCESSORS). */
  readonly mcpu: string;
  /** Wave size 64 (always on gfx7-9; on gfx10+ the dispatch's CS_W32_EN clear). */
  readonly wave64: boolean;
}

export type Dispatch = RegistersDispatch | Pm4Dispatch | ProgramInvocation;

/** The COMPUTE_* registers a dispatch reads, by name (a view of `sh_registers`, which must agree). */
export interface ComputeRegisters {
  readonly COMPUTE_PGM_LO: number;
  readonly COMPUTE_PGM_HI: number;
  readonly COMPUTE_PGM_RSRC1: number;
  readonly COMPUTE_PGM_RSRC2: number;
  /** gfx10+ only (absent on gfx7-9, which have no such register here). */
  readonly COMPUTE_PGM_RSRC3?: number;
  readonly COMPUTE_NUM_THREAD_X: number;
  readonly COMPUTE_NUM_THREAD_Y: number;
  readonly COMPUTE_NUM_THREAD_Z: number;
  readonly COMPUTE_USER_DATA_0: number;
  readonly COMPUTE_USER_DATA_1: number;
  readonly COMPUTE_USER_DATA_2: number;
  readonly COMPUTE_USER_DATA_3: number;
  readonly COMPUTE_USER_DATA_4: number;
  readonly COMPUTE_USER_DATA_5: number;
  readonly COMPUTE_USER_DATA_6: number;
  readonly COMPUTE_USER_DATA_7: number;
  readonly COMPUTE_USER_DATA_8: number;
  readonly COMPUTE_USER_DATA_9: number;
  readonly COMPUTE_USER_DATA_10: number;
  readonly COMPUTE_USER_DATA_11: number;
  readonly COMPUTE_USER_DATA_12: number;
  readonly COMPUTE_USER_DATA_13: number;
  readonly COMPUTE_USER_DATA_14: number;
  readonly COMPUTE_USER_DATA_15: number;
}
export type ComputeRegisterName = keyof ComputeRegisters;

/**
 * SH register offsets (dwords from 0x2c00, as SET_SH_REG carries them) of the COMPUTE_*
 * registers; the same on gfx7 through gfx11 for these. RSRC3 exists on gfx10+.
 */
export const SH_OFFSETS: Readonly<Record<ComputeRegisterName, number>> = {
  COMPUTE_NUM_THREAD_X: 0x207,
  COMPUTE_NUM_THREAD_Y: 0x208,
  COMPUTE_NUM_THREAD_Z: 0x209,
  COMPUTE_PGM_LO: 0x20c,
  COMPUTE_PGM_HI: 0x20d,
  COMPUTE_PGM_RSRC1: 0x212,
  COMPUTE_PGM_RSRC2: 0x213,
  COMPUTE_PGM_RSRC3: 0x228,
  ...(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`COMPUTE_USER_DATA_${i}`, 0x240 + i])) as Record<
    `COMPUTE_USER_DATA_${number}`,
    number
  >),
} as Record<ComputeRegisterName, number>;

/** An SH register offset as a manifest key: "0x" and three or more lowercase hex digits ("0x20c"). */
export function shKey(offset: number): string {
  return `0x${offset.toString(16).padStart(3, '0')}`;
}

/** A whole compute dispatch given by its registers. */
export interface RegistersDispatch {
  readonly kind: 'registers';
  /** The raw SH register values by offset ("0x20c": value), every register the recorder saw written. */
  readonly sh_registers: Readonly<Record<string, number>>;
  readonly registers: ComputeRegisters;
  /** Thread groups in x, y, z (DISPATCH_DIRECT's DIM_X/Y/Z). */
  readonly grid: readonly [number, number, number];
}

/** A dispatch given as the PM4 packets that made it (type-3: SET_SH_REG, DISPATCH_DIRECT/INDIRECT, NOP). */
export interface Pm4Dispatch {
  readonly kind: 'pm4';
  /** The packet stream, little-endian dwords. */
  readonly blob: BlobHash;
  readonly size: number;
  /** The grid the recorder resolved (from DISPATCH_DIRECT, or an indirect dispatch's arguments), or unavailable. */
  readonly grid: readonly [number, number, number] | Unavailable;
}

/** A program that is not a whole dispatch (a pixel shader's body, a compiled function): registers in, registers out. */
export interface ProgramInvocation {
  readonly kind: 'program';
  /** The address of its first instruction (inside a range whose origin is `code`). */
  readonly entry: HexAddress;
  /**
   * Where it returns: the wave has finished when its PC reaches this address (the byte after an
   * `amdgpu_ps` function's last instruction, which has no s_endpgm). Absent: it ends at s_endpgm.
   */
  readonly end?: HexAddress;
  readonly initial: RegisterState;
}

export interface RegisterState {
  /** EXEC, 64 bits as "0x" hex (a wave32 program uses the low 32). */
  readonly exec: HexAddress;
  /** s0, s1, ...: 32-bit values. */
  readonly sgprs: readonly number[];
  /** vgprs[v][lane]: 32-bit values, one per lane of the wave. */
  readonly vgprs: readonly (readonly number[])[];
}

export type Access = 'read-only' | 'written';

export const ORIGIN_KINDS = [
  'code',
  'user-data-pointer',
  'descriptor-table',
  'buffer-backing',
  'image-backing',
  'indirect-args',
  'other',
] as const;
export type OriginKind = (typeof ORIGIN_KINDS)[number];

export interface Origin {
  readonly kind: OriginKind;
  /** Free text: which user-data pointer, which descriptor, ... */
  readonly detail: string;
}

export interface MemoryRange {
  readonly address: HexAddress;
  readonly size: number;
  /** The bytes, or null where they are not in the capture (then `unavailable` says why). */
  readonly blob: BlobHash | null;
  readonly unavailable?: string;
  readonly access: Access;
  /**
   * The byte sub-ranges `[offset, size]` (from `address`) the dispatch really read, or "unknown".
   * Bytes outside them were not read: their values in the blob mean nothing (unmapped memory is not zeros).
   */
  readonly read_bytes: readonly (readonly [number, number])[] | 'unknown';
  readonly origin: Origin;
}

export type Compare =
  { readonly kind: 'exact' } | { readonly kind: 'ulp'; readonly element: 'f16' | 'f32' | 'f64'; readonly ulps: number };

export interface ExpectedRange {
  readonly address: HexAddress;
  readonly size: number;
  readonly blob: BlobHash | null;
  readonly unavailable?: string;
  readonly compare: Compare;
}

export type ExpectedSource =
  | { readonly kind: 'hardware'; readonly detail?: string }
  | { readonly kind: 'tool'; readonly tool: string; readonly revision: string };

export interface ExpectedRegisters {
  /** Final SGPR values by index ("0": s0). */
  readonly sgprs?: Readonly<Record<string, number>>;
  /** Final VGPR values by index ("4": v4), one per lane. */
  readonly vgprs?: Readonly<Record<string, readonly number[]>>;
  readonly exec?: HexAddress;
}

export interface Expected {
  readonly source: ExpectedSource;
  /** Memory after the dispatch; no two ranges overlap. */
  readonly memory: readonly ExpectedRange[];
  readonly registers?: ExpectedRegisters;
}

/** Said instead of a default, where something is not known. */
export interface Unavailable {
  readonly unavailable: string;
  /** What was asked for, where it was asked for and could not be had ("interpreter"). */
  readonly requested?: string;
}

export interface DescriptorNote {
  readonly kind: 'buffer' | 'image' | 'sampler';
  /**
   * Where its words are: in user data from a register index, in a program invocation's initial
   * SGPRs from s`sgpr`, or in memory at an address.
   */
  readonly at: { readonly user_data: number } | { readonly sgpr: number } | { readonly address: HexAddress };
  /** The raw words, as the hardware reads them. */
  readonly words: readonly number[];
  readonly name?: string;
}

export interface Provenance {
  /** What recorded or built it ("gcn-webgpu capture build", an emulator and its version, ...). */
  readonly recorder: string;
  readonly notes: string;
}

export function isUnavailable(x: unknown): x is Unavailable {
  return typeof x === 'object' && x !== null && 'unavailable' in x;
}

/** "0x…" for a byte address or a 64-bit mask. */
export function hexAddress(v: number | bigint): HexAddress {
  return `0x${BigInt(v).toString(16)}`;
}

export function parseAddress(a: HexAddress): bigint {
  return BigInt(a);
}
