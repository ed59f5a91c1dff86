/**
 * radv/lds_prefix_sum.comp, WG 256: out[g] = inp[256*(g/256)] + … + inp[g] (mod 2^32);
 * b3[0] input, b3[1] output. Two groups.
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';

const GROUPS = 2;

export function reference(inp: Uint32Array): Uint32Array {
  const out = new Uint32Array(inp.length);
  let s = 0;
  for (let g = 0; g < inp.length; g++) {
    s = g % 256 === 0 ? inp[g]! : (s + inp[g]!) >>> 0;
    out[g] = s;
  }
  return out;
}

export const kernel: CorpusKernel = {
  id: 'radv/lds_prefix_sum',
  spec(t) {
    const r = rng(0x1d5);
    const inp = Uint32Array.from({ length: 256 * GROUPS }, () => r());
    const bytes = inp.length * 4;
    return radvSpec(t, 'lds_prefix_sum', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', bytes) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', bytes) },
      ],
      grid: GROUPS,
      group: 256,
      ldsBytes: 1024,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(inp) },
        { name: 'out', address: 0x30100000, data: { fill: 0xcd, size: bytes } },
      ],
      expected: [{ address: 'out', data: u32(reference(inp)) }],
    });
  },
};
