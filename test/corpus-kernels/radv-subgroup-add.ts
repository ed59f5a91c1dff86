/**
 * radv/subgroup_add.comp, WG 64: `o[i] = subgroupAdd(x) + subgroupInclusiveAdd(x)` with
 * x = o[i] (b2), i = gl_LocalInvocationIndex. One subgroup is one wave: 64 invocations, or
 * 32 on gfx1030 wave32 (two subgroups). All sums wrap mod 2^32.
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';

export function reference(x: readonly number[], subgroup: number): number[] {
  return x.map((_, i) => {
    const base = i - (i % subgroup);
    let total = 0;
    let inclusive = 0;
    for (let j = base; j < base + subgroup; j++) {
      total = (total + x[j]) >>> 0;
      if (j <= i) inclusive = (inclusive + x[j]) >>> 0;
    }
    return (total + inclusive) >>> 0;
  });
}

export const kernel: CorpusKernel = {
  id: 'radv/subgroup_add',
  spec(t) {
    const r = rng(0x5ad0);
    const x = Array.from({ length: 64 }, () => r());
    return radvSpec(t, 'subgroup_add', {
      set: [{ offset: RADV_BINDING.b2, descriptor: storageBuffer(t, 'o', 64 * 4) }],
      group: 64,
      memory: [{ name: 'o', address: 0x30000000, data: u32(x) }],
      expected: [{ address: 'o', data: u32(reference(x, t.waveSize)) }],
    });
  },
};
