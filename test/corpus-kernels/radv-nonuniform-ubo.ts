/**
 * radv/nonuniform_ubo.comp, WG 64: `o[i] = ubos[nonuniformEXT(i & 15)].v[1]` with
 * i = gl_LocalInvocationIndex; ubos[16] (b6) each `vec4 v[4]`, o[] a vec4 array in b2. The
 * vec4 is copied as bits (no arithmetic), so any bit patterns serve.
 */
import { radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import { BUFFER_DESCRIPTOR_BYTES, RADV_SET } from './radv-buffer-common.ts';

/** ubos[k] as 16 words (v[0..3]); the result as 4 words per invocation. */
export function reference(ubos: readonly (readonly number[])[], lanes: number): number[] {
  return Array.from({ length: lanes }, (_, i) => ubos[i & 15].slice(4, 8)).flat();
}

const LANES = 64;
const UBO_BYTES = 64;

export const kernel: CorpusKernel = {
  id: 'radv/nonuniform_ubo',
  spec(t) {
    const r = rng(0x0b0e);
    const ubos = Array.from({ length: 16 }, () => Array.from({ length: UBO_BYTES / 4 }, () => r()));
    return radvSpec(t, 'nonuniform_ubo', {
      set: [
        { offset: RADV_SET.b2, descriptor: storageBuffer(t, 'out', LANES * 16) },
        ...ubos.map((_, k) => ({
          offset: RADV_SET.b6 + k * BUFFER_DESCRIPTOR_BYTES,
          descriptor: storageBuffer(t, `ubo${k}`, UBO_BYTES),
        })),
      ],
      group: LANES,
      memory: [
        { name: 'out', address: 0x30000000, data: { fill: 0xcd, size: LANES * 16 } },
        ...ubos.map((u, k) => ({ name: `ubo${k}`, address: 0x30100000 + k * 0x100, data: u32(u) })),
      ],
      expected: [{ address: 'out', data: u32(reference(ubos, LANES)) }],
    });
  },
};
