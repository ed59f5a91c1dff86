/**
 * llvm/tbuffer_formats.ll (gfx7-9: dfmt | nfmt << 4) and tbuffer_formats.gfx10.ll (gfx10:
 * unified formats), both built as `<target>_tbuffer_formats` (amdpal: V#s in, out, out2 in
 * s[0:3], s[4:7], s[8:11], soff in s12, tid in v0). Ten MTBUF loads through `in` (STRIDE 4)
 * whose format comes from the instruction; output dword 40·tid + 4k + c = component c of rk
 * (0 past the loaded count); `out2` dword tid = r0.wzyx stored back as 8_8_8_8 UNORM (the
 * contract in the sources' headers; formats named MSB..LSB, component x in the low bits).
 *
 * The conversions, written here from the contract: UNORM n bits = v / (2^n − 1), SNORM =
 * max(v / (2^(n−1) − 1), −1), USCALED = v, SINT sign-extended, f16 / 11- and 10-bit floats
 * widened exactly to f32, each quotient rounded once to f32. Float components that can be NaN
 * (the f16, f32 and 10/11-bit float loads over random bytes) compare as "any NaN" (ulp 0).
 */
import { amdpalSpec, rng, u32, type CorpusKernel } from './common.ts';
import { expectedDwords, f32Bits, halfOf, smallFloat, vsharp, type DwordCompare } from './llvm-buffer-common.ts';

const LANES = 64;
/** Input bytes: r2 reads up to 16·63 + 8 + soff + 4; soff is 0x40. */
const IN_BYTES = 1152;
const SOFF = 0x40;

const byteAt = (m: Uint8Array, i: number): number => m[i]!;
const u32At = (m: Uint8Array, i: number): number =>
  (m[i]! | (m[i + 1]! << 8) | (m[i + 2]! << 16) | (m[i + 3]! << 24)) >>> 0;
const u16At = (m: Uint8Array, i: number): number => m[i]! | (m[i + 1]! << 8);
const unorm = (v: number, bits: number): number => f32Bits(v / (2 ** bits - 1));
const snorm8 = (b: number): number => f32Bits(Math.max(((b << 24) >> 24) / 127, -1));
const rgba8 = (m: Uint8Array, at: number): number[] => [0, 1, 2, 3].map((i) => unorm(byteAt(m, at + i), 8));

/** The 40 dwords lane tid writes, and which of them compare as floats that may be NaN. */
export function laneReference(m: Uint8Array, tid: number, soff: number): { words: number[]; nanable: boolean[] } {
  const o = 16 * tid;
  const r: number[][] = [];
  const nan: boolean[][] = [];
  const put = (vals: number[], nanable = false): void => {
    r.push([...vals, 0, 0, 0, 0].slice(0, 4));
    nan.push([0, 1, 2, 3].map((c) => nanable && c < vals.length));
  };
  put(rgba8(m, o)); // r0
  put([f32Bits(halfOf(u16At(m, o + 4))), f32Bits(halfOf(u16At(m, o + 6)))], true); // r1
  put([u32At(m, o + 8 + soff)]); // r2
  const p = u32At(m, 4 * tid); // r3: 2_10_10_10 at B + 4·tid
  put([unorm(p & 1023, 10), unorm((p >>> 10) & 1023, 10), unorm((p >>> 20) & 1023, 10), unorm(p >>> 30, 2)]);
  put([snorm8(byteAt(m, 4 * tid + 12)), snorm8(byteAt(m, 4 * tid + 13))]); // r4
  put([u32At(m, o), u32At(m, o + 4), u32At(m, o + 8)], true); // r5: the f32 bits
  put([0, 2, 4, 6].map((k) => ((u16At(m, o + k) << 16) >> 16) >>> 0)); // r6
  put([f32Bits(byteAt(m, o + 2))]); // r7
  const q = u32At(m, o); // r8: 10_11_11
  put(
    [f32Bits(smallFloat(q & 0x7ff, 6)), f32Bits(smallFloat((q >>> 11) & 0x7ff, 6)), f32Bits(smallFloat(q >>> 22, 5))],
    true,
  );
  put(rgba8(m, 8 * tid)); // r9
  return { words: r.flat(), nanable: nan.flat() };
}

/** out2 dword tid: r0's unorm bytes stored back in the order w, z, y, x (rounding b/255·255 gives b). */
export function storeReference(m: Uint8Array, tid: number): number {
  const o = 16 * tid;
  return (byteAt(m, o + 3) | (byteAt(m, o + 2) << 8) | (byteAt(m, o + 1) << 16) | (byteAt(m, o) << 24)) >>> 0;
}

export const kernel: CorpusKernel = {
  id: 'llvm/tbuffer_formats',
  spec(t) {
    const r = rng(0x7bf0);
    const m = Uint8Array.from({ length: IN_BYTES }, () => r() & 0xff);
    const OUT = 0x30100000;
    const expected = [];
    for (let tid = 0; tid < LANES; tid++) {
      const { words, nanable } = laneReference(m, tid, SOFF);
      const kind = (i: number): DwordCompare => (nanable[i] ? 'f32' : 'exact');
      expected.push(...expectedDwords(OUT + 160 * tid, words, kind));
    }
    const store = Array.from({ length: LANES }, (_, tid) => storeReference(m, tid));
    return amdpalSpec(t, 'tbuffer_formats', {
      userData: [
        // STRIDE 4 for the struct loads; NUM_RECORDS covers every access as bytes and as records.
        vsharp(t, 'in', { numRecords: IN_BYTES, stride: 4 }),
        vsharp(t, 'out', { numRecords: 160 * LANES }),
        vsharp(t, 'out2', { numRecords: 4 * LANES }),
        SOFF,
      ],
      group: LANES,
      memory: [
        { name: 'in', address: 0x30000000, data: { type: 'u8', values: Array.from(m) } },
        { name: 'out', address: OUT, data: { fill: 0xcd, size: 160 * LANES } },
        { name: 'out2', address: 0x30200000, data: { fill: 0xcd, size: 4 * LANES } },
      ],
      expected: [...expected, { address: 'out2', data: u32(store) }],
    });
  },
};
