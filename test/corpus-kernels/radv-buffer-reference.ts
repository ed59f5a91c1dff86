/**
 * radv/buffer_reference.comp, WG 64: `pc.p.v[i] = pc.p.v[i + 64] * 3` through a buffer
 * device address in the push constants (i = gl_LocalInvocationIndex). The shader uses no
 * descriptor set, so the push constants follow the scratch SGPRs: s[2:3] is the 64-bit
 * address (ACO's p_startpgm in the .full.txt listings), then the group id. The code adds the
 * sign-extended element offset to the 64-bit address with a carry (FLAT on gfx7/8, GLOBAL on
 * gfx9+), so the buffer straddles a 4 GiB boundary to make the carry count.
 */
import { rng, u32, type CorpusKernel } from './common.ts';
import { radvDispatch } from './radv-buffer-common.ts';

export function reference(v: readonly number[]): number[] {
  const out = [...v];
  for (let i = 0; i < 64; i++) out[i] = Math.imul(v[i + 64], 3) >>> 0;
  return out;
}

/** 0x1_ffffff00: elements 64.. lie above 2^33, elements 0..63 below. */
const ADDRESS = 2 ** 33 - 0x100;

export const kernel: CorpusKernel = {
  id: 'radv/buffer_reference',
  spec(t) {
    const r = rng(0xbda0);
    const v = Array.from({ length: 128 }, () => r());
    return radvDispatch(t, 'buffer_reference', {
      set: [],
      userData: [0, 0, ADDRESS % 2 ** 32, Math.floor(ADDRESS / 2 ** 32)],
      group: 64,
      memory: [{ name: 'p', address: ADDRESS, data: u32(v) }],
      expected: [{ address: 'p', data: u32(reference(v)) }],
    });
  },
};
