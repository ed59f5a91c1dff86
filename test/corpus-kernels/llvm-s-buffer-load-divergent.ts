/**
 * The two llvm/s_buffer_load_divergent_* kernels (amdpal), each reading 8 dwords per lane
 * with llvm.amdgcn.s.buffer.load.v8i32 and storing them at output byte 32·tid:
 * - _offset (CB V# s[0:3], output V# s[4:7], tid v0): a uniform V#, the lane-varying byte
 *   offset 32·tid: out[8·tid + j] = CB[8·tid + j].
 * - _rsrc (table pointer s[0:1], output V# s[2:5], tid v0): V# number tid & 3 of the table,
 *   at byte offset 64. s.buffer.load's descriptor is an SGPR operand (IntrinsicsAMDGPU.td:
 *   `rsrc(SGPR)`), so LLVM makes the lane-varying one uniform by reading it from the first
 *   active lane, with no waterfall loop (../shared/specs/EXECUTION-NOTES.md, "A lane-varying
 *   s.buffer.load descriptor"): every lane of a wave reads through the V# of that wave's
 *   first lane, whose index is 0 here (all lanes start active, and waves start at multiples
 *   of 32). The four V#s point at four different buffers, so reading any other lane's shows.
 */
import { amdpalSpec, rng, u32, type CorpusKernel, type Json } from './common.ts';
import { vsharp } from './llvm-buffer-common.ts';

const LANES = 64;
const OUT = 0x30100000;

export const divergentOffset: CorpusKernel = {
  id: 'llvm/s_buffer_load_divergent_offset',
  spec(t) {
    const r = rng(0x5b0f);
    const cb = Uint32Array.from({ length: 8 * LANES }, () => r());
    return amdpalSpec(t, 's_buffer_load_divergent_offset', {
      userData: [vsharp(t, 'cb', { numRecords: 32 * LANES }), vsharp(t, 'out', { numRecords: 32 * LANES })],
      group: LANES,
      memory: [
        { name: 'cb', address: 0x30000000, data: u32(cb) },
        { name: 'out', address: OUT, data: { fill: 0xcd, size: 32 * LANES } },
      ],
      expected: [{ address: 'out', data: u32(cb) }],
    });
  },
};

/** The rsrc kernel's result: lane L reads 8 dwords at byte 64 of buffer `first(L) & 3`. */
export function rsrcReference(buffers: readonly Uint32Array[], lanes: number, waveSize: number): number[] {
  const out: number[] = [];
  for (let tid = 0; tid < lanes; tid++) {
    const firstLane = tid - (tid % waveSize);
    out.push(...buffers[firstLane & 3]!.slice(16, 24));
  }
  return out;
}

export const divergentRsrc: CorpusKernel = {
  id: 'llvm/s_buffer_load_divergent_rsrc',
  spec(t) {
    const r = rng(0x5b1e);
    const buffers = [0, 1, 2, 3].map(() => Uint32Array.from({ length: 32 }, () => r()));
    const regions: Json[] = buffers.map((b, k) => ({ name: `cb${k}`, address: 0x31000000 + 0x1000 * k, data: u32(b) }));
    return amdpalSpec(t, 's_buffer_load_divergent_rsrc', {
      userData: [{ pointer: 'table' }, vsharp(t, 'out', { numRecords: 32 * LANES })],
      group: LANES,
      memory: [
        {
          name: 'table',
          address: 0x20000000,
          data: { descriptors: buffers.map((_, k) => vsharp(t, `cb${k}`, { numRecords: 128 })) },
        },
        ...regions,
        { name: 'out', address: OUT, data: { fill: 0xcd, size: 32 * LANES } },
      ],
      expected: [{ address: 'out', data: u32(rsrcReference(buffers, LANES, t.waveSize)) }],
    });
  },
};
