/**
 * radv/subgroup_ops.comp, WG 64, one group: ballot, broadcast(First), shuffle(Xor),
 * inclusive/exclusive add, min, elect, any/all, ballotBitCount with gl_SubgroupID and
 * gl_NumSubgroups, and broadcastFirst / elect / inclusiveAdd in a divergent `if` (the
 * contract in the source's header; GL_KHR_shader_subgroup). Input b3[0] x[64], output b3[1]
 * 16 words per invocation. The subgroup is the wave: S = 64, or 32 on gfx1030 wave32.
 * gl_SubgroupID and gl_NumSubgroups come from the TG_SIZE SGPR (ACO's p_startpgm: set
 * pointer s2, TG_SIZE s3), so the dispatch enables TG_SIZE, not the group id. Lanes whose
 * shuffle source lies in the other half of a wave64 exercise gfx1030's per-half
 * ds_bpermute_b32 and its shared VGPRs.
 */
import { RADV_BINDING, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import { radvDispatch } from './radv-buffer-common.ts';

export function reference(x: readonly number[], S: number): number[] {
  const n = x.length;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const L = i % S;
    const base = i - L;
    const sub = x.slice(base, base + S);
    const ballot = [0, 0, 0, 0];
    sub.forEach((v, l) => {
      if ((v & 1) === 1) ballot[l >> 5] = (ballot[l >> 5] | (1 << (l & 31))) >>> 0;
    });
    let inclusive = 0;
    for (let l = 0; l <= L; l++) inclusive = (inclusive + sub[l]) >>> 0;
    const exclusive = (inclusive - sub[L]) >>> 0;
    const any = sub.some((v) => v === 0);
    const all = sub.every((v) => v !== 0xffffffff);
    const bitCount = sub.filter((v) => (v & 1) === 1).length;
    const active = Array.from({ length: S }, (_, l) => base + l).filter((j) => j % 3 !== 0);
    const inside = i % 3 !== 0;
    out.push(
      ...ballot,
      sub[0],
      sub[(L * 5 + 3) & (S - 1)],
      inclusive,
      L === 0 ? 1 : 0,
      sub[3],
      x[i ^ 1],
      exclusive,
      Math.min(...sub) >>> 0,
      (any ? 1 : 0) | (all ? 2 : 0),
      bitCount | (Math.floor(i / S) << 8) | ((n / S) << 16),
      inside ? active[0] : 0xdead,
      inside ? (active[0] === i ? 1 : 0) | ((active.indexOf(i) + 1) << 4) : 0xbeef,
    );
  }
  return out;
}

export const kernel: CorpusKernel = {
  id: 'radv/subgroup_ops',
  spec(t) {
    const r = rng(0x5b0f);
    const x = Array.from({ length: 64 }, () => r());
    // The first 32 invocations hold a 0 and no 0xffffffff, the last 32 the other way round, so
    // any/all differ between the two subgroups of wave32 (and both hold in one wave64).
    x[5] = 0;
    x[40] = 0xffffffff;
    for (let i = 0; i < 64; i++) if (i !== 5 && x[i] === 0) x[i] = 1;
    return radvDispatch(t, 'subgroup_ops', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', 64 * 4) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', 64 * 64) },
      ],
      rsrc2: { tg_size_en: 1 },
      // gfx1030 wave64's shuffle swaps halves through v16/v17, shared VGPRs past the 16 of its
      // own ("stat VGPRs = 16"); RADV sets RSRC3.SHARED_VGPR_CNT (8 each) for them.
      ...(t.name === 'gfx1030w64' ? { vgprs: 16, rsrc3: 1 } : {}),
      group: 64,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(x) },
        { name: 'out', address: 0x30100000, data: { fill: 0xcd, size: 64 * 64 } },
      ],
      expected: [{ address: 'out', data: u32(reference(x, t.waveSize)) }],
    });
  },
};
