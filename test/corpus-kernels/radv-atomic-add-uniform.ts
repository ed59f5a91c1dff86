/**
 * radv/atomic_add_uniform.comp: `o[i] = atomicAdd(counter, pc.val)` for i =
 * gl_LocalInvocationIndex, WG 64; b2 = {uint counter; uint o[]}, pc.val a push constant.
 * The atomics are serialised in invocation order (waves in order, lanes ascending), one
 * valid order of the many a GPU may pick.
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';

export function reference(counter: number, val: number, n: number): { counter: number; o: number[] } {
  const o: number[] = [];
  let c = counter >>> 0;
  for (let i = 0; i < n; i++) {
    o.push(c);
    c = (c + val) >>> 0;
  }
  return { counter: c, o };
}

export const kernel: CorpusKernel = {
  id: 'radv/atomic_add_uniform',
  spec(t) {
    const r = rng(0xa7a0);
    const init = r();
    const val = r();
    const ref = reference(init, val, 64);
    const bytes = 65 * 4;
    return radvSpec(t, 'atomic_add_uniform', {
      set: [{ offset: RADV_BINDING.b2, descriptor: storageBuffer(t, 'buf', bytes) }],
      push: [val],
      group: 64,
      memory: [{ name: 'buf', address: 0x30000000, data: [u32([init]), { fill: 0xcd, size: 64 * 4 }] }],
      expected: [{ address: 'buf', data: u32([ref.counter, ...ref.o]) }],
    });
  },
};
