/**
 * llvm/loop_break.ll (amdpal, V# in s[0:3], tid in v0): n = buf[tid]; a do-while over
 * i = 0, 1, …: v = buf[1024 + i]; if (v == tid) exit with acc; acc += v; i++; continue
 * while i < n (signed), exit with the new acc otherwise; buf[tid] = the result.
 */
import { amdpalSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import type { Target } from './targets.ts';

const WORDS = 1024 + 64;

export function reference(input: Uint32Array, lanes: number): Uint32Array {
  const w = input.slice();
  for (let tid = 0; tid < lanes; tid++) {
    const n = input[tid]! | 0;
    let acc = 0;
    for (let i = 0; ;) {
      const v = input[1024 + i]!;
      if (v === tid) break;
      acc = (acc + v) >>> 0;
      i++;
      if (!(i < n)) break;
    }
    w[tid] = acc;
  }
  return w;
}

export const kernel: CorpusKernel = {
  id: 'llvm/loop_break',
  spec(t: Target) {
    const lanes = 64;
    const r = rng(0x100b);
    const input = new Uint32Array(WORDS);
    for (let i = 0; i < lanes; i++) input[i] = ((r() % 60) - 8) >>> 0; // some n <= 0: one trip
    for (let i = 1024; i < WORDS; i++) input[i] = r() % 80;
    return amdpalSpec(t, 'loop_break', {
      userData: [storageBuffer(t, 'buf', WORDS * 4)],
      group: lanes,
      memory: [{ name: 'buf', address: 0x30000000, data: u32(input) }],
      expected: [{ address: 'buf', data: u32(reference(input, lanes)) }],
    });
  },
};
