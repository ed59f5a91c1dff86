/**
 * llvm/tbuffer_formats_d16.ll (gfx8/9: dfmt | nfmt << 4) and tbuffer_formats_d16.gfx10.ll
 * (gfx10: unified formats), both built as `<target>_tbuffer_formats_d16` (amdpal: V#s in,
 * out in s[0:3], s[4:7], tid in v0; `in` has STRIDE 8). d16 MTBUF loads return halves
 * (unpacked one a VGPR on gfx8, packed two a VGPR on gfx9+); output dwords 4·tid .. + 3 =
 * h0.x | h0.y << 16, h0.z | h0.w << 16, h1.x | h1.y << 16, h2 | h3.z << 16, and a d16 store
 * of (h1.y, h1.x) as 16_16 FLOAT at byte 1024 + 4·tid (the contract in the sources' headers).
 * gfx7 has no d16 forms: no build (llvm/FAILURES_ADDITIONS.txt).
 *
 * h0, h2, h3 are f16 bytes read as f16 (identity, NaNs compare as "any NaN"); h1 is an 8_8
 * UNORM byte b as b / 255 rounded once to the nearest half (halfBits), and stored back as the
 * same halves.
 */
import { amdpalSpec, rng, type CorpusKernel, type Json } from './common.ts';
import { halfBits, vsharp } from './llvm-buffer-common.ts';

const LANES = 64;

const u16At = (m: Uint8Array, i: number): number => m[i]! | (m[i + 1]! << 8);
const isNanHalf = (h: number): boolean => (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;

/** Lane tid's four output dwords as 8 halves, and its stored dword as 2 halves. */
export function laneReference(m: Uint8Array, tid: number): { out: number[]; store: number[] } {
  const o = 8 * tid;
  const h0 = [0, 2, 4, 6].map((k) => u16At(m, o + k));
  const h1 = [m[o + 4]!, m[o + 5]!].map((b) => halfBits(b / 255));
  const h2 = u16At(m, o + 2);
  const h3z = h0[2]!;
  return { out: [...h0, ...h1, h2, h3z], store: [h1[1]!, h1[0]!] };
}

/** Halves as expected ranges: runs of non-NaN halves exact (as u16), each NaN as "any NaN". */
function halfRanges(address: number, halves: readonly number[]): Json[] {
  const out: Json[] = [];
  let start = 0;
  for (let i = 0; i <= halves.length; i++) {
    const nan = i < halves.length && isNanHalf(halves[i]!);
    if (i < halves.length && !nan) continue;
    if (i > start) out.push({ address: address + 2 * start, data: { type: 'u16', values: halves.slice(start, i) } });
    if (nan)
      out.push({
        address: address + 2 * i,
        data: { type: 'u16', values: [halves[i]!] },
        compare: { kind: 'ulp', element: 'f16', ulps: 0 },
      });
    start = i + 1;
  }
  return out;
}

export const kernel: CorpusKernel = {
  id: 'llvm/tbuffer_formats_d16',
  spec(t) {
    if (t.name === 'gfx704') return undefined;
    const r = rng(0x7bd1);
    const m = Uint8Array.from({ length: 8 * LANES }, () => r() & 0xff);
    const OUT = 0x30100000;
    const expected: Json[] = [];
    for (let tid = 0; tid < LANES; tid++) {
      const { out, store } = laneReference(m, tid);
      expected.push(...halfRanges(OUT + 16 * tid, out), ...halfRanges(OUT + 1024 + 4 * tid, store));
    }
    return amdpalSpec(t, 'tbuffer_formats_d16', {
      userData: [
        vsharp(t, 'in', { numRecords: 8 * LANES, stride: 8 }),
        vsharp(t, 'out', { numRecords: 1024 + 4 * LANES }),
      ],
      group: LANES,
      memory: [
        { name: 'in', address: 0x30000000, data: { type: 'u8', values: Array.from(m) } },
        { name: 'out', address: OUT, data: { fill: 0xcd, size: 1024 + 4 * LANES } },
      ],
      expected,
    });
  },
};
