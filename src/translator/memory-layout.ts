/**
 * Guest memory on the device (D011): the capture's memory ranges, sorted by address, packed into
 * one buffer (each at a 16-byte aligned offset, padded so an unaligned word read inside a range
 * stays inside its slot), and the table the module finds them by: guest address (lo, hi words),
 * size, offset in the buffer, and whether the capture holds the range's bytes. After the dispatch
 * the buffer's bytes become a `GuestMemory` again, so the interpreter's comparison
 * (src/interp/compare.ts) reads the GPU's result exactly as it reads its own.
 */
import type { Capture } from '../host/capture/container.ts';
import { parseAddress } from '../host/capture/manifest.ts';
import { GuestFault, GuestMemory } from '../interp/memory.ts';
import { TranslationRefusal } from './refusal.ts';
import { FAULT, RANGE_ENTRY_WORDS, STATUS } from './wgsl/runtime.ts';

export interface GuestSlot {
  readonly address: number;
  readonly size: number;
  /** Byte offset in the device buffer. */
  readonly offset: number;
  /** The bytes before the dispatch, or null (the capture does not hold them: `unavailable`). */
  readonly bytes: Uint8Array | null;
  readonly unavailable?: string;
}

export interface MemoryLayout {
  readonly slots: readonly GuestSlot[];
  /** Bytes of the device buffer (a multiple of 4, at least 4). */
  readonly bufferBytes: number;
  /** The range table (RANGE_ENTRY_WORDS words a slot). */
  readonly table: Uint32Array;
  /** The buffer's contents before the dispatch. */
  readonly image: Uint8Array;
}

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

/** The capture's memory as device slots. A range with a partial `read_bytes` is refused (the GPU does not track captured bytes). */
export function layoutMemory(capture: Pick<Capture, 'manifest' | 'blob'>): MemoryLayout {
  const ranges = capture.manifest.memory
    .map((r) => {
      const bytes = r.blob === null ? null : capture.blob(r.blob);
      const size = bytes ? bytes.length : (r.size ?? 0);
      if (r.read_bytes !== 'unknown') {
        const whole = r.read_bytes.length === 1 && r.read_bytes[0]![0] === 0 && r.read_bytes[0]![1] >= size;
        if (!whole)
          throw new TranslationRefusal(
            `the range at ${r.address} lists read_bytes: the GPU engine does not track which bytes were captured`,
          );
      }
      return { address: Number(parseAddress(r.address)), size, bytes, unavailable: r.unavailable };
    })
    .sort((a, b) => a.address - b.address);
  let at = 0;
  const slots: GuestSlot[] = [];
  for (const r of ranges) {
    const prev = slots[slots.length - 1];
    if (prev && r.address < prev.address + prev.size)
      throw new TranslationRefusal(`guest ranges at 0x${r.address.toString(16)} overlap`);
    const offset = at;
    if (r.bytes) at = align(at + r.size + 4, 16);
    slots.push({ address: r.address, size: r.size, offset, bytes: r.bytes, unavailable: r.unavailable ?? undefined });
  }
  const bufferBytes = Math.max(4, at);
  const image = new Uint8Array(bufferBytes);
  const table = new Uint32Array(Math.max(1, slots.length) * RANGE_ENTRY_WORDS);
  slots.forEach((s, i) => {
    if (s.bytes) image.set(s.bytes, s.offset);
    table.set(
      [s.address % 2 ** 32, Math.floor(s.address / 2 ** 32), s.size, s.offset, s.bytes ? 1 : 0],
      i * RANGE_ENTRY_WORDS,
    );
  });
  if (slots.length === 0) table.set([0, 0, 0, 0, 0]);
  return { slots, bufferBytes, table, image };
}

/** Guest memory holding the device buffer's bytes after the dispatch. */
export function memoryAfter(layout: MemoryLayout, buffer: Uint8Array): GuestMemory {
  return new GuestMemory(
    layout.slots.map((s) => ({
      address: s.address,
      bytes: s.bytes ? buffer.slice(s.offset, s.offset + s.size) : null,
      size: s.size,
      unavailable: s.unavailable,
    })),
  );
}

/** What the status buffer reports. */
export type DeviceFault =
  | { readonly kind: 'guest'; readonly fault: GuestFault }
  | { readonly kind: 'not-a-buffer'; readonly reason: string }
  | { readonly kind: 'step-limit'; readonly reason: string }
  | { readonly kind: 'unsupported'; readonly reason: string };

/** The first fault the module recorded, as the interpreter would name it, or undefined. */
export function deviceFault(layout: MemoryLayout, status: Uint32Array, maxSteps: number): DeviceFault | undefined {
  const code = status[STATUS.code]!;
  if (code === 0) return undefined;
  const address = status[STATUS.addressLo]! + status[STATUS.addressHi]! * 2 ** 32;
  const size = status[STATUS.size]!;
  const access = status[STATUS.write] === 1 ? 'write' : 'read';
  const detail = status[STATUS.detail]!;
  switch (code) {
    case FAULT.unmapped:
      return {
        kind: 'guest',
        fault: new GuestFault('unmapped', address, size, access, 'no captured range holds this address'),
      };
    case FAULT.pastEnd: {
      const s = layout.slots[detail]!;
      const end = s.address + s.size;
      return {
        kind: 'guest',
        fault: new GuestFault(
          'unmapped',
          end,
          address + size - end,
          access,
          'the access runs past the end of its range',
        ),
      };
    }
    case FAULT.unavailable: {
      const s = layout.slots[detail]!;
      return {
        kind: 'guest',
        fault: new GuestFault(
          'unavailable',
          address,
          size,
          access,
          `the range's bytes are not in the capture (${s.unavailable ?? 'unavailable'})`,
        ),
      };
    }
    case FAULT.notBuffer:
      return {
        kind: 'not-a-buffer',
        reason: `s[${detail}:${detail + 3}] is not a V#: V# TYPE (dw3[31:30]) is ${(status[STATUS.addressLo]! >>> 30) & 3}, not 0`,
      };
    case FAULT.privateFlat:
      return {
        kind: 'unsupported',
        reason: `FLAT into the private (scratch) aperture (address low word 0x${(status[STATUS.addressLo]! >>> 0).toString(16)}) is not translated`,
      };
    case FAULT.unsupportedElement:
      return {
        kind: 'unsupported',
        reason: `a ${status[STATUS.addressLo]}-byte format element across smaller swizzle elements is not modelled`,
      };
    case FAULT.imageDescriptor:
      return {
        kind: 'unsupported',
        reason: `the image instruction at 0x${detail.toString(16)} read s[${status[STATUS.addressLo]}:…] holding other words than the T#/S# the host bound (translated from the trace)`,
      };
    case FAULT.tracedDescriptor:
      return {
        kind: 'unsupported',
        reason: `the buffer access at 0x${detail.toString(16)} read s[${status[STATUS.addressLo]}:${status[STATUS.addressLo]! + 3}] holding other words than the V# it was translated with (the capture's memory, through the trace): the dispatch changed them`,
      };
    case FAULT.imageBorderRegister:
      return {
        kind: 'unsupported',
        reason: `the image instruction at 0x${detail.toString(16)} read a border texel of a register border colour (the TA_BC table), which is not modelled`,
      };
    case FAULT.imageCubeFaceId:
      return {
        kind: 'unsupported',
        reason: `the image instruction at 0x${detail.toString(16)} read a cube face coordinate (f32 bits 0x${(status[STATUS.addressLo]! >>> 0).toString(16)}) that is not a face id (0..5, + 8 a cube of an array)`,
      };
    case FAULT.imageCubeEdge:
      return {
        kind: 'unsupported',
        reason: `the image instruction at 0x${detail.toString(16)} filtered across a cube face edge (seamless cube filtering is not modelled)`,
      };
    case FAULT.imageDegamma:
      return {
        kind: 'unsupported',
        reason: `the image instruction at 0x${detail.toString(16)} degammed (FORCE_DEGAMMA, or SKIP_DEGAMMA of an sRGB format) a texel or result component (f32 bits 0x${(status[STATUS.addressLo]! >>> 0).toString(16)}) that is not +0 or 1: only those are defined whatever the curve (not modelled)`,
      };
    case FAULT.imageCubeQuadFaces:
      return {
        kind: 'unsupported',
        reason: `the image instruction at 0x${detail.toString(16)} took a cube's LOD from a quad on more than one face (this lane's face coordinate f32 bits 0x${(status[STATUS.addressLo]! >>> 0).toString(16)}), which is not modelled`,
      };
    case FAULT.misalignedAtomic:
      return { kind: 'unsupported', reason: `a 32-bit atomic at 0x${address.toString(16)} is not 4-byte aligned` };
    case FAULT.stepLimit:
    case FAULT.superstepLimit:
      return { kind: 'step-limit', reason: `the dispatch ran past the step limit of ${maxSteps} instructions` };
    default:
      return { kind: 'unsupported', reason: `the module reported fault code ${code}` };
  }
}
