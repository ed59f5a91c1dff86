/**
 * The amdhsa atomic kernels (kernargs: two global pointers, then an i32):
 * - llvm/atomic_add_uniform.ll: out[tid] = atomicrmw add (counter, val);
 * - llvm/atomic_add_divergent.ll (_dpp, _iterative): out[tid] = atomicrmw add (counter, tid);
 * - llvm/wave_reduce_umax.ll: out[0] = umax over the wave of in[tid] (one wave).
 * Atomics are serialised in invocation order (waves in order, lanes ascending): one valid
 * order among those a GPU may pick.
 */
import { amdhsaSpec, rng, u32, type CorpusKernel, type Json } from './common.ts';
import type { Target } from './targets.ts';

const COUNTER = 0x30000000;
const OUT = 0x30010000;
const IN = 0x30020000;

function kernarg(a: number, b: number, val = 0): Json {
  return [{ type: 'u64', values: [a, b] }, u32([val])];
}

export function atomicReference(init: number, addends: readonly number[]): { counter: number; old: number[] } {
  let c = init >>> 0;
  const old = addends.map((v) => {
    const o = c;
    c = (c + v) >>> 0;
    return o;
  });
  return { counter: c, old };
}

function atomicSpec(
  t: Target,
  file: string,
  init: number,
  addends: number[],
  val: number,
): ReturnType<typeof amdhsaSpec> {
  const ref = atomicReference(init, addends);
  return amdhsaSpec(t, file, {
    kernarg: kernarg(COUNTER, OUT, val),
    group: addends.length,
    memory: [
      { name: 'counter', address: COUNTER, data: u32([init]) },
      { name: 'out', address: OUT, data: { fill: 0xcd, size: addends.length * 4 } },
    ],
    expected: [
      { address: 'counter', data: u32([ref.counter]) },
      { address: 'out', data: u32(ref.old) },
    ],
  });
}

export const uniform: CorpusKernel = {
  id: 'llvm/atomic_add_uniform',
  spec(t) {
    const r = rng(0xa70);
    const init = r();
    const val = r();
    return atomicSpec(t, 'atomic_add_uniform', init, new Array<number>(64).fill(val), val);
  },
};

const divergent = (variant: 'dpp' | 'iterative'): CorpusKernel => ({
  id: `llvm/atomic_add_divergent_${variant}`,
  spec(t) {
    const init = rng(0xa71)();
    return atomicSpec(
      t,
      `atomic_add_divergent_${variant}`,
      init,
      Array.from({ length: 64 }, (_, i) => i),
      0,
    );
  },
});
export const divergentDpp = divergent('dpp');
export const divergentIterative = divergent('iterative');

export const waveReduceUmax: CorpusKernel = {
  id: 'llvm/wave_reduce_umax',
  spec(t) {
    if (t.name === 'gfx704') return undefined; // llc-19 crashed (llvm/FAILURES.txt)
    const r = rng(0x3a4);
    const x = Array.from({ length: t.waveSize }, () => r() >>> (r() % 8));
    const max = x.reduce((a, b) => Math.max(a, b), 0);
    return amdhsaSpec(t, 'wave_reduce_umax', {
      kernarg: kernarg(IN, OUT),
      group: t.waveSize,
      memory: [
        { name: 'in', address: IN, data: u32(x) },
        { name: 'out', address: OUT, data: { fill: 0xcd, size: 4 } },
      ],
      expected: [{ address: 'out', data: u32([max]) }],
    });
  },
};
