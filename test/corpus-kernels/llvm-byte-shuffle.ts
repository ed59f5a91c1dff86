/**
 * llvm/byte_shuffle.ll (amdpal: the input V# in s[0:3], the output V# in s[4:7], tid in v0):
 * (a, b, c, d) = the 4 dwords at input byte 16·tid; output dword 4·tid + k is
 * k0 bswap(a), k1 the bytes of each half of a swapped, k2 b.lo | c.lo << 16, k3 d.hi | a.hi
 * << 16 (the contract in the source's header).
 */
import { amdpalSpec, rng, u32, type CorpusKernel } from './common.ts';
import { vsharp } from './llvm-buffer-common.ts';

const LANES = 64;

export function reference(a: number, b: number, c: number, d: number): [number, number, number, number] {
  const bswap = ((a & 0xff) << 24) | ((a & 0xff00) << 8) | ((a >>> 8) & 0xff00) | (a >>> 24);
  const halves = ((a << 8) & 0xff00ff00) | ((a >>> 8) & 0x00ff00ff);
  return [bswap >>> 0, halves >>> 0, ((b & 0xffff) | (c << 16)) >>> 0, ((d >>> 16) | (a & 0xffff0000)) >>> 0];
}

export const kernel: CorpusKernel = {
  id: 'llvm/byte_shuffle',
  spec(t) {
    const r = rng(0xb5f1);
    const input = Uint32Array.from({ length: 4 * LANES }, () => r());
    const out: number[] = [];
    for (let i = 0; i < LANES; i++)
      out.push(...reference(input[4 * i]!, input[4 * i + 1]!, input[4 * i + 2]!, input[4 * i + 3]!));
    return amdpalSpec(t, 'byte_shuffle', {
      userData: [vsharp(t, 'in', { numRecords: 16 * LANES }), vsharp(t, 'out', { numRecords: 16 * LANES })],
      group: LANES,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(input) },
        { name: 'out', address: 0x30100000, data: { fill: 0xcd, size: 16 * LANES } },
      ],
      expected: [{ address: 'out', data: u32(out) }],
    });
  },
};
