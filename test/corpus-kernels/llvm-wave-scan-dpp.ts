/**
 * llvm/wave_scan_dpp.ll (gfx8/9) and wave_scan_dpp.gfx10.ll (gfx10), both built as
 * `<target>_wave_scan_dpp` (amdpal: input V# s[0:3], output V# s[4:7], tid in v0; the group
 * is one wave of W lanes, all active). x[L] = the u32 at input byte 4·L; output dword
 * 4·L + k (the contract in the sources' headers, sums mod 2^32):
 *  k0 the inclusive scan S[L] = Σ_{j≤L} x[j], k1 the exclusive scan S[L] − x[L],
 *  k2 gfx8/9: x[L ^ 3] + (x[row mirror of L] << 16); gfx10: x[row mirror of L] + (x[L ^ 1] << 16),
 *  k3 the wave total S[W − 1].
 * gfx704 has no DPP: no build (llvm/FAILURES_ADDITIONS.txt).
 */
import { amdpalSpec, rng, u32, type CorpusKernel } from './common.ts';
import { vsharp } from './llvm-buffer-common.ts';
import type { Target } from './targets.ts';

/** L's mirror within its row of 16 lanes. */
const mirror = (l: number): number => (l & ~15) | (15 - (l & 15));

export function reference(x: readonly number[], gfx10: boolean): number[] {
  const w = x.length;
  const scan: number[] = [];
  let s = 0;
  for (const v of x) scan.push((s = (s + v) >>> 0));
  const out: number[] = [];
  for (let l = 0; l < w; l++) {
    const k2 = gfx10 ? x[mirror(l)]! + (x[l ^ 1]! << 16) : x[l ^ 3]! + (x[mirror(l)]! << 16);
    out.push(scan[l]!, (scan[l]! - x[l]!) >>> 0, k2 >>> 0, scan[w - 1]!);
  }
  return out;
}

export const kernel: CorpusKernel = {
  id: 'llvm/wave_scan_dpp',
  spec(t: Target) {
    if (t.name === 'gfx704') return undefined;
    const r = rng(0x5ca9);
    const x = Array.from({ length: t.waveSize }, () => r());
    return amdpalSpec(t, 'wave_scan_dpp', {
      userData: [vsharp(t, 'in', { numRecords: 4 * t.waveSize }), vsharp(t, 'out', { numRecords: 16 * t.waveSize })],
      group: t.waveSize,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(x) },
        { name: 'out', address: 0x30100000, data: { fill: 0xcd, size: 16 * t.waveSize } },
      ],
      expected: [{ address: 'out', data: u32(reference(x, t.mcpu === 'gfx1030')) }],
    });
  },
};
