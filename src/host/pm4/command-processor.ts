/**
 * The command processor: reads the PM4 type-3 packets a compute dispatch uses and
 * produces the dispatch's register state. SET_SH_REG (compute registers), DISPATCH_DIRECT,
 * DISPATCH_INDIRECT (grid read from guest memory), SET_BASE (the indirect base) and NOP
 * are executed; type-2 filler is skipped; any other packet is reported by name, never
 * guessed at. Raw SH register values are kept by offset, beside the named view.
 */
import type { Gen } from '../../isa/gen.ts';
import {
  OP_DISPATCH_DIRECT,
  OP_DISPATCH_INDIRECT,
  OP_NOP,
  OP_SET_BASE,
  OP_SET_SH_REG,
  pm4OpcodeName,
} from './packets.ts';
import { shRegisterName, shRegisterOffset, USER_DATA_0 } from './registers.ts';

export type Pm4ErrorCode =
  | 'truncated'
  | 'type0-packet'
  | 'type1-packet'
  | 'unsupported-packet'
  | 'not-a-compute-register'
  | 'no-dispatch'
  | 'several-dispatches'
  | 'indirect-without-base'
  | 'indirect-unreadable';

export class Pm4Error extends Error {
  override readonly name = 'Pm4Error';
  constructor(
    readonly code: Pm4ErrorCode,
    /** Dword index of the packet header in the stream. */
    readonly at: number,
    readonly reason: string,
  ) {
    super(`PM4 error at dword ${at}: ${code}: ${reason}`);
  }
}

/** Reads guest memory; undefined when the range is not in the capture (unmapped is not zeros). */
export type GuestReader = (address: number, size: number) => Uint8Array | undefined;

export interface ComputeDispatch {
  /** Every SH register value the stream set, by dword offset from the SH base (raw input first). */
  readonly shRegisters: ReadonlyMap<number, number>;
  readonly programAddress: number;
  readonly rsrc1: number;
  readonly rsrc2: number;
  readonly rsrc3: number;
  readonly userData: readonly number[];
  readonly numThreads: readonly [number, number, number];
  readonly grid: readonly [number, number, number];
  readonly dispatchInitiator: number;
  /** Where the grid came from. */
  readonly gridSource: { readonly kind: 'direct' } | { readonly kind: 'indirect'; readonly address: number };
}

function header(word: number): { type: number; count: number; opcode: number } {
  return { type: word >>> 30, count: (word >>> 16) & 0x3fff, opcode: (word >>> 8) & 0xff };
}

/** Runs a packet stream up to its one dispatch. */
export function processComputeStream(gen: Gen, stream: Uint32Array, readGuest: GuestReader): ComputeDispatch {
  const sh = new Map<number, number>();
  let indirectBase: number | undefined;
  let dispatch:
    | { grid: [number, number, number]; initiator: number; source: ComputeDispatch['gridSource']; at: number }
    | undefined;
  let i = 0;
  while (i < stream.length) {
    const h = header(stream[i]);
    if (h.type === 2) {
      i++; // filler
      continue;
    }
    if (h.type === 0)
      throw new Pm4Error(
        'type0-packet',
        i,
        'type-0 (direct register write) packets are not used by compute dispatches',
      );
    if (h.type === 1) throw new Pm4Error('type1-packet', i, 'type-1 packets are reserved');
    const bodyLength = h.count + 1;
    if (i + 1 + bodyLength > stream.length)
      throw new Pm4Error(
        'truncated',
        i,
        `${pm4OpcodeName(h.opcode)} needs ${bodyLength} dwords, ${stream.length - i - 1} left`,
      );
    const body = stream.subarray(i + 1, i + 1 + bodyLength);
    switch (h.opcode) {
      case OP_NOP:
        break;
      case OP_SET_SH_REG: {
        const base = body[0] & 0xffff;
        for (let k = 1; k < body.length; k++) {
          const offset = base + k - 1;
          if (!shRegisterName(gen, offset))
            throw new Pm4Error(
              'not-a-compute-register',
              i,
              `SET_SH_REG writes SH offset 0x${offset.toString(16)}, which is not a compute register`,
            );
          sh.set(offset, body[k] >>> 0);
        }
        break;
      }
      case OP_SET_BASE: {
        // base_index 1 is the DISPATCH_INDIRECT base; the others (GDS, CE) are not used by compute dispatches.
        if ((body[0] & 0xf) !== 1 || body.length < 3)
          throw new Pm4Error(
            'unsupported-packet',
            i,
            `SET_BASE with base_index ${body[0] & 0xf} is not a dispatch-indirect base`,
          );
        indirectBase = ((body[1] & ~3) >>> 0) + (body[2] & 0xffff) * 2 ** 32;
        break;
      }
      case OP_DISPATCH_DIRECT: {
        if (dispatch) throw new Pm4Error('several-dispatches', i, 'the stream holds more than one dispatch');
        if (body.length < 4) throw new Pm4Error('truncated', i, 'DISPATCH_DIRECT needs 4 dwords');
        dispatch = { grid: [body[0], body[1], body[2]], initiator: body[3], source: { kind: 'direct' }, at: i };
        break;
      }
      case OP_DISPATCH_INDIRECT: {
        if (dispatch) throw new Pm4Error('several-dispatches', i, 'the stream holds more than one dispatch');
        // Two forms: the compute-queue form (address lo, hi, initiator) and the graphics-queue
        // form (offset from the SET_BASE base, initiator).
        let address: number;
        let initiator: number;
        if (body.length >= 3) {
          address = ((body[0] & ~3) >>> 0) + (body[1] & 0xffff) * 2 ** 32;
          initiator = body[2];
        } else {
          if (indirectBase === undefined)
            throw new Pm4Error('indirect-without-base', i, 'DISPATCH_INDIRECT by offset needs a SET_BASE before it');
          address = indirectBase + body[0];
          initiator = body[1] ?? 0;
        }
        const bytes = readGuest(address, 12);
        if (!bytes || bytes.length < 12)
          throw new Pm4Error(
            'indirect-unreadable',
            i,
            `the grid at 0x${address.toString(16)} (12 bytes) is not in the captured memory`,
          );
        const dv = new DataView(bytes.buffer, bytes.byteOffset, 12);
        dispatch = {
          grid: [dv.getUint32(0, true), dv.getUint32(4, true), dv.getUint32(8, true)],
          initiator,
          source: { kind: 'indirect', address },
          at: i,
        };
        break;
      }
      default:
        throw new Pm4Error(
          'unsupported-packet',
          i,
          `${pm4OpcodeName(h.opcode)} (opcode 0x${h.opcode.toString(16)}) is not part of a compute dispatch`,
        );
    }
    i += 1 + bodyLength;
  }
  if (!dispatch)
    throw new Pm4Error('no-dispatch', stream.length, 'the stream has no DISPATCH_DIRECT or DISPATCH_INDIRECT');
  const reg = (name: string): number => sh.get(shRegisterOffset(name)) ?? 0;
  return {
    shRegisters: sh,
    programAddress: reg('COMPUTE_PGM_LO') * 256 + (reg('COMPUTE_PGM_HI') & 0xffff) * 2 ** 40,
    rsrc1: reg('COMPUTE_PGM_RSRC1'),
    rsrc2: reg('COMPUTE_PGM_RSRC2'),
    rsrc3: reg('COMPUTE_PGM_RSRC3'),
    userData: Array.from({ length: 16 }, (_, k) => sh.get(USER_DATA_0 + k) ?? 0),
    numThreads: [
      reg('COMPUTE_NUM_THREAD_X') & 0xffff,
      reg('COMPUTE_NUM_THREAD_Y') & 0xffff,
      reg('COMPUTE_NUM_THREAD_Z') & 0xffff,
    ],
    grid: dispatch.grid,
    dispatchInitiator: dispatch.initiator,
    gridSource: dispatch.source,
  };
}

/** Writers of the packets above, for building streams in tests and captures. */
export const pm4 = {
  header(opcode: number, bodyLength: number, computeShaderType = true): number {
    return ((3 << 30) | ((bodyLength - 1) << 16) | (opcode << 8) | (computeShaderType ? 2 : 0)) >>> 0;
  },
  setShReg(offset: number, values: readonly number[]): number[] {
    return [pm4.header(OP_SET_SH_REG, values.length + 1), offset, ...values];
  },
  dispatchDirect(x: number, y: number, z: number, initiator = 1): number[] {
    return [pm4.header(OP_DISPATCH_DIRECT, 4), x, y, z, initiator];
  },
  dispatchIndirect(address: number, initiator = 1): number[] {
    return [pm4.header(OP_DISPATCH_INDIRECT, 3), address % 2 ** 32, Math.floor(address / 2 ** 32), initiator];
  },
  nop(n: number): number[] {
    return [pm4.header(OP_NOP, Math.max(1, n)), ...new Array<number>(Math.max(1, n)).fill(0)];
  },
};
