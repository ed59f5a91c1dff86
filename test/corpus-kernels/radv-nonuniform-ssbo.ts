/**
 * radv/nonuniform_ssbo.comp, WG 64: `o[i] = bufs[nonuniformEXT(o[i] & 15)].d[i]` with
 * i = gl_LocalInvocationIndex; o[] is b2, bufs[16] is b3 (a waterfall over the lane-varying
 * descriptor index).
 */
import { radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import { BUFFER_DESCRIPTOR_BYTES, RADV_SET } from './radv-buffer-common.ts';

export function reference(o: readonly number[], bufs: readonly (readonly number[])[]): number[] {
  return o.map((v, i) => bufs[v & 15][i] >>> 0);
}

const LANES = 64;
const OUT = 0x30000000;
const bufAddress = (k: number): number => 0x30100000 + k * 0x1000;

export const kernel: CorpusKernel = {
  id: 'radv/nonuniform_ssbo',
  spec(t) {
    const r = rng(0x55b0);
    // Every index 0..15 appears, in a scattered order (four times each), with random high bits.
    const order = Array.from({ length: LANES }, (_, i) => i & 15);
    for (let i = order.length - 1; i > 0; i--) {
      const j = r() % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const o = order.map((k) => ((r() & ~15) | k) >>> 0);
    const bufs = Array.from({ length: 16 }, () => Array.from({ length: LANES }, () => r()));
    return radvSpec(t, 'nonuniform_ssbo', {
      set: [
        { offset: RADV_SET.b2, descriptor: storageBuffer(t, 'out', LANES * 4) },
        ...bufs.map((_, k) => ({
          offset: RADV_SET.b3 + k * BUFFER_DESCRIPTOR_BYTES,
          descriptor: storageBuffer(t, `buf${k}`, LANES * 4),
        })),
      ],
      group: LANES,
      memory: [
        { name: 'out', address: OUT, data: u32(o) },
        ...bufs.map((b, k) => ({ name: `buf${k}`, address: bufAddress(k), data: u32(b) })),
      ],
      expected: [{ address: 'out', data: u32(reference(o, bufs)) }],
    });
  },
};
