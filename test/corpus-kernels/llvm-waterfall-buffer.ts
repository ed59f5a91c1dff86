/**
 * The llvm/waterfall_buffer_* kernels (amdpal: a pointer to a table of V#s in s[0:1], the
 * output V# in s[2:5], tid in v0): lane tid loads 4 dwords through V# number tid >> 2 of the
 * table and stores them at output byte 16·tid. llc waterfalls the lane-varying V# (one loop
 * trip per distinct descriptor); each V# here points at a buffer of its own.
 * - waterfall_buffer_load.ll: at byte offset 16·tid (a VGPR offset). Each V#'s NUM_RECORDS
 *   (bytes, STRIDE 0) ends somewhere inside its four lanes' range, so dwords at or past it
 *   read 0 (DESCRIPTORS.md §1: raw dwordx4 accesses are range-checked per dword).
 * - waterfall_buffer_soffset.ll (built with -global-isel, `_gisel`): at offset 0 with the
 *   lane-varying soffset tid & 48 (an SGPR operand, waterfalled with the V#); every access is
 *   in range.
 */
import { amdpalSpec, rng, u32, type CorpusKernel, type Json } from './common.ts';
import { vsharp } from './llvm-buffer-common.ts';
import type { Target } from './targets.ts';

const LANES = 64;
const DESCRIPTORS = LANES / 4;
const OUT = 0x30100000;
const bufferAddress = (k: number): number => 0x31000000 + 0x10000 * k;

/** waterfall_buffer_load: lane tid reads dwords 4·tid .. 4·tid + 3 of buffer tid >> 2, 0 at or past its size. */
export function loadReference(buffers: readonly Uint32Array[], numRecords: readonly number[]): number[] {
  const out: number[] = [];
  for (let tid = 0; tid < LANES; tid++) {
    const k = tid >> 2;
    for (let j = 0; j < 4; j++) {
      const byte = 16 * tid + 4 * j;
      out.push(byte < numRecords[k]! ? buffers[k]![byte / 4]! : 0);
    }
  }
  return out;
}

/** waterfall_buffer_soffset: lane tid reads dwords (tid & 48) / 4 .. + 3 of buffer tid >> 2. */
export function soffsetReference(buffers: readonly Uint32Array[]): number[] {
  const out: number[] = [];
  for (let tid = 0; tid < LANES; tid++) {
    const w = (tid & 48) / 4;
    out.push(...buffers[tid >> 2]!.slice(w, w + 4));
  }
  return out;
}

function waterfallSpec(
  t: Target,
  file: string,
  buffers: readonly Uint32Array[],
  numRecords: readonly number[],
  out: readonly number[],
): ReturnType<typeof amdpalSpec> {
  const regions: Json[] = buffers.map((b, k) => ({ name: `buf${k}`, address: bufferAddress(k), data: u32(b) }));
  return amdpalSpec(t, file, {
    userData: [{ pointer: 'table' }, vsharp(t, 'out', { numRecords: 16 * LANES })],
    group: LANES,
    memory: [
      {
        name: 'table',
        address: 0x20000000,
        data: { descriptors: buffers.map((_, k) => vsharp(t, `buf${k}`, { numRecords: numRecords[k]! })) },
      },
      ...regions,
      { name: 'out', address: OUT, data: { fill: 0xcd, size: 16 * LANES } },
    ],
    expected: [{ address: 'out', data: u32(out) }],
  });
}

export const load: CorpusKernel = {
  id: 'llvm/waterfall_buffer_load',
  spec(t) {
    const r = rng(0x3a7f);
    // Buffer k is read at bytes 64k .. 64k + 63; it holds them all, its V# ends at 64k + 4n.
    const buffers = Array.from({ length: DESCRIPTORS }, () =>
      Uint32Array.from({ length: (16 * LANES) / 4 }, () => r()),
    );
    const numRecords = buffers.map((_, k) => 64 * k + 4 * (k === 0 ? 16 : r() % 17));
    return waterfallSpec(t, 'waterfall_buffer_load', buffers, numRecords, loadReference(buffers, numRecords));
  },
};

export const soffset: CorpusKernel = {
  id: 'llvm/waterfall_buffer_soffset_gisel',
  spec(t) {
    const r = rng(0x3a80);
    const buffers = Array.from({ length: DESCRIPTORS }, () => Uint32Array.from({ length: 16 }, () => r()));
    const numRecords = buffers.map(() => 64);
    return waterfallSpec(t, 'waterfall_buffer_soffset_gisel', buffers, numRecords, soffsetReference(buffers));
  },
};
