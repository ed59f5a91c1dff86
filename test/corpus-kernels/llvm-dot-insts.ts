/**
 * llvm/dot_insts.ll (amdpal: input V# s[0:3], output V# s[4:7], tid in v0), gfx1030 only
 * (llc-19 cannot select the dot intrinsics for gfx704/803/900: llvm/FAILURES_ADDITIONS.txt):
 * (a, b, c, d) = the 4 dwords at input byte 16·tid; output dwords 8·tid + k: sdot4, udot4,
 * sdot8, udot8, sdot2, udot2 of (a, b) with accumulator c (mod 2^32), k6 fdot2 = d.f32 +
 * a.f16[0]·b.f16[0] + a.f16[1]·b.f16[1], k7 sdot4 of (a, b) with accumulator d, saturated to
 * i32 (the contract in the source's header).
 *
 * fdot2's internal rounding is not documented (RDNA2 ISA, V_DOT2_F32_F16, gives only the sum),
 * so the finite inputs are chosen so that every partial sum is exact in f32 (then any order
 * and any fusing give the same bits); the other lanes are the IEEE special cases (NaN, inf,
 * inf − inf, f16 denormals, the largest halves), whose results do not depend on rounding.
 */
import { amdpalSpec, rng, u32, type CorpusKernel } from './common.ts';
import { expectedDwords, f32Bits, f32Of, halfOf, vsharp } from './llvm-buffer-common.ts';

const LANES = 64;

const sx = (v: number, bits: number): number => (v << (32 - bits)) >> (32 - bits);
const field = (v: number, bits: number, n: number): number => (v >>> (bits * n)) & ((1 << bits) - 1);

/** c + Σ x.n·y.n over `count` fields of `bits` bits, signed or not, as an exact integer. */
function dot(x: number, y: number, c: number, bits: number, count: number, signed: boolean): number {
  let s = signed ? c | 0 : c >>> 0;
  for (let n = 0; n < count; n++) {
    const p = field(x, bits, n);
    const q = field(y, bits, n);
    s += signed ? sx(p, bits) * sx(q, bits) : p * q;
  }
  return s;
}

const wrap = (v: number): number => Number(BigInt.asUintN(32, BigInt(v)));

export function reference(a: number, b: number, c: number, d: number): number[] {
  const products = halfOf(a & 0xffff) * halfOf(b & 0xffff) + halfOf(a >>> 16) * halfOf(b >>> 16);
  const sat = Math.min(2 ** 31 - 1, Math.max(-(2 ** 31), dot(a, b, d, 8, 4, true)));
  return [
    wrap(dot(a, b, c, 8, 4, true)),
    wrap(dot(a, b, c, 8, 4, false)),
    wrap(dot(a, b, c, 4, 8, true)),
    wrap(dot(a, b, c, 4, 8, false)),
    wrap(dot(a, b, c, 16, 2, true)),
    wrap(dot(a, b, c, 16, 2, false)),
    f32Bits(f32Of(d) + products),
    sat >>> 0,
  ];
}

/** A half with 4 significant bits and exponent in [-2, 2]: multiples of 2^-5 below 8. */
function smallHalf(r: () => number): number {
  const e = (r() % 5) - 2;
  const m = (r() % 8) << 7; // the top 3 mantissa bits
  return ((r() & 1) << 15) | ((e + 15) << 10) | m;
}

const H = { nan: 0x7e00, inf: 0x7c00, ninf: 0xfc00, max: 0x7bff, denorm: 0x0001, zero: 0 };
const pair = (lo: number, hi: number): number => (lo | (hi << 16)) >>> 0;

/** Lanes of IEEE special cases for fdot2: [a, b, d] (the integer dots see the same words). */
const SPECIAL: readonly (readonly [number, number, number])[] = [
  [pair(H.nan, 0x3c00), pair(0x3c00, 0x3c00), 0],
  [pair(H.inf, 0x3c00), pair(0x3c00, 0x3c00), 0x3f800000],
  [pair(H.inf, H.inf), pair(0x3c00, 0xbc00), 0], // inf − inf
  [pair(H.inf, H.zero), pair(H.zero, 0x3c00), 0], // inf · 0
  [pair(H.denorm, H.denorm), pair(0x7800, 0x3c00), 0], // 2^-24 · 2^15 + 2^-24 · 1: f16 denormals kept
  [pair(H.max, H.max), pair(H.max, H.max), 0], // 2 · 65504², exact in f32
  [pair(0x3c00, 0), pair(0x3c00, 0), 0x7f800000], // an infinite accumulator
  [pair(0x3c00, 0), pair(0x3c00, 0), 0x7fc00000], // a NaN accumulator
];

export function inputs(seed: number): Uint32Array {
  const r = rng(seed);
  const w = new Uint32Array(4 * LANES);
  for (let i = 0; i < LANES; i++) {
    w[4 * i] = r();
    w[4 * i + 1] = r();
    w[4 * i + 2] = r();
    // d: a multiple of 2^-10 below 2^11 (fdot2 exact), or an accumulator near the i32 limits
    // for the saturating sdot4 (both directions; 0x7fff.... is also an f32 NaN), or any word.
    const kind = i % 4;
    w[4 * i + 3] =
      kind === 0
        ? f32Bits(((r() % 2 ** 22) - 2 ** 21) / 1024)
        : kind === 1
          ? (0x7fffffff - (r() % 40000)) >>> 0
          : kind === 2
            ? (0x80000000 + (r() % 40000)) >>> 0
            : r();
    if (kind === 0) {
      w[4 * i] = pair(smallHalf(r), smallHalf(r));
      w[4 * i + 1] = pair(smallHalf(r), smallHalf(r));
    }
  }
  SPECIAL.forEach(([a, b, d], k) => {
    const i = 4 * (8 + 4 * k); // lanes 8, 12, 16, ...: d's kind 0 lanes
    w[i] = a;
    w[i + 1] = b;
    w[i + 3] = d;
  });
  return w;
}

export const kernel: CorpusKernel = {
  id: 'llvm/dot_insts',
  spec(t) {
    if (t.mcpu !== 'gfx1030') return undefined;
    const input = inputs(0xd074);
    const out: number[] = [];
    for (let i = 0; i < LANES; i++)
      out.push(...reference(input[4 * i]!, input[4 * i + 1]!, input[4 * i + 2]!, input[4 * i + 3]!));
    const OUT = 0x30100000;
    // fdot2 is checked where it is exact (lanes 4n) or NaN (4n + 1: d is a NaN word); on the
    // other lanes random halves make its rounding matter, and its k6 is left out.
    const exact = (i: number): boolean => i % 4 <= 1;
    const expected = [];
    for (let i = 0; i < LANES; i++) {
      const words = out.slice(8 * i, 8 * i + (exact(i) ? 8 : 6));
      expected.push(...expectedDwords(OUT + 32 * i, words, (k) => (k === 6 ? 'f32' : 'exact')));
      if (!exact(i)) expected.push({ address: OUT + 32 * i + 28, data: u32([out[8 * i + 7]!]) });
    }
    return amdpalSpec(t, 'dot_insts', {
      userData: [vsharp(t, 'in', { numRecords: 16 * LANES }), vsharp(t, 'out', { numRecords: 32 * LANES })],
      group: LANES,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(input) },
        { name: 'out', address: OUT, data: { fill: 0xcd, size: 32 * LANES } },
      ],
      expected,
    });
  },
};
