/**
 * radv/divergent_loops.comp, WG 64: the nested data-dependent loops with continue/break and
 * a 4-way switch, and a Collatz step count capped at 200 (the contract in the source's
 * header). b3[0] input x[], b3[1] output o[2g], o[2g+1].
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';

export function reference(xv: number): [number, number] {
  const a = xv & 15;
  const b = (xv >>> 4) & 15;
  let acc = xv >>> 8;
  for (let j = 0; j < a; j++) {
    if ((j & 3) === 2) continue;
    for (let k = 0; k < b; k++) {
      if (j * k > 20) break;
      switch ((j + k + acc) & 3) {
        case 0:
          acc = (acc + j) >>> 0;
          break;
        case 1:
          acc = (acc ^ (k << 3)) >>> 0;
          break;
        case 2:
          acc = (Math.imul(acc, 3) + 1) >>> 0;
          break;
        default:
          acc = (acc - 1) >>> 0;
      }
    }
    if (acc > 100000) break;
  }
  let n = (xv & 0xfff) | 1;
  let steps = 0;
  while (n !== 1 && steps < 200) {
    n = (n & 1) !== 0 ? (Math.imul(3, n) + 1) >>> 0 : n >>> 1;
    steps++;
  }
  return [acc, steps];
}

export const kernel: CorpusKernel = {
  id: 'radv/divergent_loops',
  spec(t) {
    const r = rng(0xd100);
    // Small accumulators for half the lanes so the `acc > 100000` break goes both ways.
    const x = Uint32Array.from({ length: 64 }, (_, i) => (i % 2 === 0 ? r() & 0xfffff : r()));
    const out = Array.from(x).flatMap((v) => reference(v));
    return radvSpec(t, 'divergent_loops', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', 64 * 4) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', 128 * 4) },
      ],
      group: 64,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(x) },
        { name: 'out', address: 0x30100000, data: { fill: 0xcd, size: 128 * 4 } },
      ],
      expected: [{ address: 'out', data: u32(out) }],
    });
  },
};
