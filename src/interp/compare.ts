/**
 * Compares guest memory after a dispatch with a capture's expected ranges (D009): exact bytes
 * (compared as 32-bit words where the range allows, else bytes), or within N units in the last
 * place per f16/f32/f64 element as the manifest says. The first mismatches come back with their
 * address, element index, expected and got; ranges whose expected bytes are unavailable are
 * counted as not compared, never as a match.
 */
import type { Capture } from '../host/capture/container.ts';
import { isUnavailable, parseAddress, type Compare, type ExpectedRegisters } from '../host/capture/manifest.ts';
import type { GuestMemory } from './memory.ts';
import type { Wave } from './wave.ts';

export interface Mismatch {
  /** Byte address of the element. */
  readonly address: number;
  /** Element index in its expected range. */
  readonly element: number;
  /** 'u32', 'u8', 'f16', 'f32', 'f64', or a register name's kind. */
  readonly type: string;
  readonly expected: string;
  readonly got: string;
  readonly where?: string;
}

export interface CompareResult {
  readonly match: boolean;
  readonly mismatches: readonly Mismatch[];
  /** Mismatching elements in all (the list holds the first `limit`). */
  readonly mismatchCount: number;
  readonly rangesCompared: number;
  readonly bytesCompared: number;
  readonly rangesNotCompared: number;
}

const hex = (v: number | bigint, digits: number): string => `0x${v.toString(16).padStart(digits, '0')}`;

/** Bits of a float as an integer whose order is the float's order (for ULP distances). */
function ordered(bits: bigint, width: number): bigint {
  const sign = 1n << BigInt(width - 1);
  return bits & sign ? -(bits & (sign - 1n)) : bits;
}

function isNaNBits(bits: bigint, width: number): boolean {
  const [eBits, mBits] = width === 16 ? [5, 10] : width === 32 ? [8, 23] : [11, 52];
  const e = (bits >> BigInt(mBits)) & ((1n << BigInt(eBits)) - 1n);
  return e === (1n << BigInt(eBits)) - 1n && (bits & ((1n << BigInt(mBits)) - 1n)) !== 0n;
}

function readBits(b: Uint8Array, at: number, bytes: number): bigint {
  let v = 0n;
  for (let i = bytes - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[at + i]);
  return v;
}

function floatText(bits: bigint, width: number): string {
  const dv = new DataView(new ArrayBuffer(8));
  let value: number;
  if (width === 64) {
    dv.setBigUint64(0, bits, true);
    value = dv.getFloat64(0, true);
  } else if (width === 32) {
    dv.setUint32(0, Number(bits), true);
    value = dv.getFloat32(0, true);
  } else {
    const b = Number(bits);
    const e = (b >> 10) & 0x1f;
    const m = b & 0x3ff;
    const mag = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
    value = b & 0x8000 ? -mag : mag;
  }
  return `${value} (${hex(bits, width / 4)})`;
}

/** Compares one range's bytes. */
export function compareBytes(
  address: number,
  expected: Uint8Array,
  got: Uint8Array,
  compare: Compare,
  out: Mismatch[],
  limit: number,
): number {
  let count = 0;
  const push = (m: Mismatch): void => {
    count++;
    if (out.length < limit) out.push(m);
  };
  if (compare.kind === 'exact') {
    const word = expected.length % 4 === 0;
    const size = word ? 4 : 1;
    for (let i = 0; i < expected.length; i += size) {
      const e = readBits(expected, i, size);
      const g = readBits(got, i, size);
      if (e !== g)
        push({
          address: address + i,
          element: i / size,
          type: word ? 'u32' : 'u8',
          expected: hex(e, size * 2),
          got: hex(g, size * 2),
        });
    }
    return count;
  }
  const width = compare.element === 'f16' ? 16 : compare.element === 'f32' ? 32 : 64;
  const size = width / 8;
  for (let i = 0; i + size <= expected.length; i += size) {
    const e = readBits(expected, i, size);
    const g = readBits(got, i, size);
    if (e === g) continue;
    const bothNaN = isNaNBits(e, width) && isNaNBits(g, width);
    const eNaN = isNaNBits(e, width) || isNaNBits(g, width);
    const d = ordered(e, width) - ordered(g, width);
    if (bothNaN || (!eNaN && (d < 0n ? -d : d) <= BigInt(compare.ulps))) continue;
    push({
      address: address + i,
      element: i / size,
      type: compare.element,
      expected: floatText(e, width),
      got: floatText(g, width),
    });
  }
  return count;
}

/** Compares memory (and, for a program capture, the final registers) with the capture's expectation. */
export function compareWithExpected(
  capture: Pick<Capture, 'manifest' | 'blob'>,
  memory: GuestMemory,
  wave?: Wave,
  limit = 8,
): CompareResult {
  const exp = capture.manifest.expected;
  if (isUnavailable(exp)) throw new Error('the capture has no expected result');
  const mismatches: Mismatch[] = [];
  let mismatchCount = 0;
  let rangesCompared = 0;
  let bytesCompared = 0;
  let rangesNotCompared = 0;
  for (const r of exp.memory) {
    if (r.blob === null) {
      rangesNotCompared++;
      continue;
    }
    const address = Number(parseAddress(r.address));
    const expected = capture.blob(r.blob);
    const got = memory.peek(address, r.size);
    rangesCompared++;
    bytesCompared += r.size;
    if (!got) {
      mismatchCount++;
      if (mismatches.length < limit)
        mismatches.push({
          address,
          element: 0,
          type: 'range',
          expected: `${r.size} bytes`,
          got: 'unmapped or unavailable',
        });
      continue;
    }
    mismatchCount += compareBytes(address, expected, got, r.compare, mismatches, limit);
  }
  if (exp.registers) mismatchCount += compareRegisters(exp.registers, wave, mismatches, limit);
  return { match: mismatchCount === 0, mismatches, mismatchCount, rangesCompared, bytesCompared, rangesNotCompared };
}

function compareRegisters(r: ExpectedRegisters, wave: Wave | undefined, out: Mismatch[], limit: number): number {
  let count = 0;
  const check = (where: string, element: number, e: number, g: number | undefined): void => {
    if (g !== undefined && e >>> 0 === g >>> 0) return;
    count++;
    if (out.length < limit)
      out.push({
        address: 0,
        element,
        type: 'register',
        where,
        expected: hex(e >>> 0, 8),
        got: g === undefined ? 'no wave' : hex(g >>> 0, 8),
      });
  };
  for (const [k, v] of Object.entries(r.sgprs ?? {})) check(`s${k}`, 0, v, wave?.sgpr[Number(k)]);
  for (const [k, lanes] of Object.entries(r.vgprs ?? {}))
    lanes.forEach((v, lane) => check(`v${k}[lane ${lane}]`, lane, v, wave?.readVgpr(Number(k), lane)));
  if (r.exec !== undefined) {
    const e = BigInt(r.exec);
    check('exec_lo', 0, Number(e & 0xffffffffn), wave?.execLo());
    check('exec_hi', 1, Number(e >> 32n), wave?.execHi());
  }
  return count;
}
