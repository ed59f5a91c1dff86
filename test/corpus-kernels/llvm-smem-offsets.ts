/**
 * llvm/smem_offsets.ll (amdpal: CB V# s[0:3], soff s4, table pointer s[5:6], idx s7, output
 * V# s[8:11], tid v0): scalar loads at immediate, SGPR and SGPR + immediate offsets, every
 * width, and 8-dword descriptors from a table; every lane stores the same 80 dwords (the
 * contract in the source's header). C[x] = the u32 at CB byte x: the CB's backing is two
 * regions, bytes [0, 0x1400) and [0xffff0, 0x100010), and NUM_RECORDS is 0x100004, so the
 * largest offset (0x100000) is the V#'s last dword.
 */
import { amdpalSpec, rng, u32, type CorpusKernel } from './common.ts';
import { vsharp } from './llvm-buffer-common.ts';

const CB = 0x30000000;
const HIGH = 0xffff0;
const TABLE_ENTRIES = 8;

export function reference(c: (byte: number) => number, soff: number, table: Uint32Array, idx: number): number[] {
  const T = (i: number, j: number): number => table[8 * i + j]!;
  const k = [c(0x10), c(0x3fc), c(0x400), c(0xffffc), c(0x100000), c(soff), c(soff + 16), c(soff + 0x1000)];
  k.push(c(0x20), c(0x24));
  for (let j = 0; j < 4; j++) k.push(c(0x30 + 4 * j));
  for (let j = 0; j < 8; j++) k.push(c(0x40 + 4 * j));
  for (let j = 0; j < 16; j++) k.push(c(0x80 + 4 * j));
  k.push(c(0x10), 0);
  for (let j = 0; j < 8; j++) k.push(T(idx, j));
  for (let j = 0; j < 8; j++) k.push(T(3, j));
  for (let j = 0; j < 8; j++) k.push(T(idx + 1, j));
  for (let j = 0; j < 16; j++) k.push(c(soff + 0x40 + 4 * j));
  return k;
}

export const kernel: CorpusKernel = {
  id: 'llvm/smem_offsets',
  spec(t) {
    const r = rng(0x53e0);
    const low = Uint32Array.from({ length: 0x1400 / 4 }, () => r());
    const high = Uint32Array.from({ length: 0x20 / 4 }, () => r());
    const table = Uint32Array.from({ length: 8 * TABLE_ENTRIES }, () => r());
    const soff = 0x200 + 4 * (r() % 64);
    const idx = 4;
    const c = (byte: number): number => (byte >= HIGH ? high[(byte - HIGH) / 4]! : low[byte / 4]!);
    const out = reference(c, soff, table, idx);
    return amdpalSpec(t, 'smem_offsets', {
      userData: [
        vsharp(t, 'cb', { numRecords: 0x100004 }),
        soff,
        { pointer: 'table' },
        idx,
        vsharp(t, 'out', { numRecords: 4 * out.length }),
      ],
      group: 64,
      memory: [
        { name: 'cb', address: CB, data: u32(low) },
        { name: 'cb_high', address: CB + HIGH, data: u32(high) },
        { name: 'table', address: 0x20000000, data: u32(table) },
        { name: 'out', address: 0x30200000, data: { fill: 0xcd, size: 4 * out.length } },
      ],
      expected: [{ address: 'out', data: u32(out) }],
    });
  },
};
