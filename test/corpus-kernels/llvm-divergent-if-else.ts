/**
 * llvm/divergent_if_else.ll (amdpal, V# inreg in s[0:3], tid in v0): x = buf[tid] (byte
 * offset 4·tid); if (x > 100, signed) { a = load(byte offset x); r = 3a; store r at
 * 4·tid + 4096 } else { r = x + 7; store r at 4·tid + 8192 }; store r at 4·tid.
 * Then-branch offsets are multiples of 4 in [256, 4096), which no lane writes.
 */
import { amdpalSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import type { Target } from './targets.ts';

const BYTES = 8192 + 256;

export function inputs(seed: number, lanes: number): Uint32Array {
  const r = rng(seed);
  const w = new Uint32Array(BYTES / 4);
  for (let k = 0; k < w.length; k++) w[k] = r();
  for (let i = 0; i < lanes; i++) w[i] = r() % 2 === 0 ? ((r() % 151) - 50) >>> 0 : 256 + 4 * (r() % 960);
  return w;
}

export function reference(input: Uint32Array, lanes: number): Uint32Array {
  const w = input.slice();
  for (let i = 0; i < lanes; i++) {
    const x = input[i]! | 0;
    let res: number;
    if (x > 100) {
      res = Math.imul(input[x / 4]!, 3) >>> 0;
      w[i + 1024] = res;
    } else {
      res = (x + 7) >>> 0;
      w[i + 2048] = res;
    }
    w[i] = res;
  }
  return w;
}

export const kernel: CorpusKernel = {
  id: 'llvm/divergent_if_else',
  spec(t: Target) {
    const lanes = 64;
    const input = inputs(0x1fe1, lanes);
    return amdpalSpec(t, 'divergent_if_else', {
      userData: [storageBuffer(t, 'buf', BYTES)],
      group: lanes,
      memory: [{ name: 'buf', address: 0x30000000, data: u32(input) }],
      expected: [{ address: 'buf', data: u32(reference(input, lanes)) }],
    });
  },
};
