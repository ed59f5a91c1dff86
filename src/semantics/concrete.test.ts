/**
 * The concrete algebra and the 64-bit pair operations, checked against BigInt arithmetic on
 * pseudo-random words (edge values included), so the interpreter's and the folding's
 * arithmetic is exact.
 */
import { describe, expect, it } from 'vitest';
import type { Pair } from './algebra.ts';
import { concrete as a } from './concrete.ts';
import { ashr64, bfm64, findLsb64, findMsbFromTop64, lshr64, shl64 } from './wide.ts';

const EDGES = [0, 1, 2, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x12345678];
function* words(n: number): Generator<number> {
  yield* EDGES;
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield x >>> 0;
  }
}
const W = [...words(60)];
const big = (p: Pair<number>): bigint => (BigInt(p[1]) << 32n) | BigInt(p[0]);
const pairOf = (b: bigint): [number, number] => [Number(b & 0xffffffffn), Number((b >> 32n) & 0xffffffffn)];
const s32 = (x: number): bigint => BigInt(x | 0);
const s64 = (b: bigint): bigint => BigInt.asIntN(64, b);

describe('concrete algebra against BigInt', () => {
  it('multiplies: low, unsigned high and signed high halves', () => {
    for (const x of W)
      for (const y of W) {
        expect(a.mulLo(x, y)).toBe(Number((BigInt(x) * BigInt(y)) & 0xffffffffn));
        expect(a.mulHiU(x, y)).toBe(Number((BigInt(x) * BigInt(y)) >> 32n));
        expect(a.mulHiI(x, y)).toBe(Number(BigInt.asUintN(32, (s32(x) * s32(y)) >> 32n)));
      }
  });
  it('adds with carry and subtracts with borrow', () => {
    for (const x of W)
      for (const y of W)
        for (const c of [false, true]) {
          const s = BigInt(x) + BigInt(y) + (c ? 1n : 0n);
          expect(a.addCarry(x, y, c)).toEqual([Number(s & 0xffffffffn), s > 0xffffffffn]);
          const d = BigInt(x) - BigInt(y) - (c ? 1n : 0n);
          expect(a.subBorrow(x, y, c)).toEqual([Number(BigInt.asUintN(32, d)), d < 0n]);
        }
  });
  it('shifts by the count masked to 5 bits', () => {
    for (const x of W)
      for (const n of [0, 1, 31, 32, 33, 63, 64, 0xffffffff]) {
        const k = BigInt(n & 31);
        expect(a.shl(x, n)).toBe(Number(BigInt.asUintN(32, BigInt(x) << k)));
        expect(a.lshr(x, n)).toBe(Number(BigInt(x) >> k));
        expect(a.ashr(x, n)).toBe(Number(BigInt.asUintN(32, s32(x) >> k)));
      }
  });
  it('bit operations: popcount, brev, findLsb/findMsbFromTop (0 gives 0xffffffff), bfe, bfm', () => {
    for (const x of W) {
      const bits = x.toString(2).padStart(32, '0');
      expect(a.popcount(x)).toBe([...bits].filter((b) => b === '1').length);
      expect(a.brev(x)).toBe(parseInt([...bits].reverse().join(''), 2));
      expect(a.findLsb(x)).toBe(x === 0 ? 0xffffffff : 31 - bits.lastIndexOf('1'));
      expect(a.findMsbFromTop(x)).toBe(x === 0 ? 0xffffffff : bits.indexOf('1'));
      for (const off of [0, 4, 28, 31, 36])
        for (const w of [0, 1, 4, 16, 31, 32, 40]) {
          const wm = BigInt(w & 31);
          const field = (BigInt(x) >> BigInt(off & 31)) & ((1n << wm) - 1n);
          expect(a.bfeU(x, off, w)).toBe(Number(field));
          const signed = wm === 0n ? 0n : BigInt.asIntN(Number(wm), (s32(x) >> BigInt(off & 31)) & ((1n << wm) - 1n));
          expect(a.bfeI(x, off, w)).toBe(Number(BigInt.asUintN(32, signed)));
        }
    }
    expect(a.bfm(16, 16)).toBe(0xffff0000);
    expect(a.bfm(32, 0)).toBe(0);
    expect(a.bfm(31, 1)).toBe(0xfffffffe);
  });
});

describe('64-bit pair operations against BigInt', () => {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < W.length; i += 3) pairs.push([W[i], W[i + 1]]);
  it('shifts mask the count to 6 bits', () => {
    for (const p of pairs)
      for (const n of [0, 1, 5, 31, 32, 33, 47, 63, 64, 65, 100]) {
        const k = BigInt(n & 63);
        expect(shl64(a, p, n)).toEqual(pairOf(BigInt.asUintN(64, big(p) << k)));
        expect(lshr64(a, p, n)).toEqual(pairOf(big(p) >> k));
        expect(ashr64(a, p, n)).toEqual(pairOf(BigInt.asUintN(64, s64(big(p)) >> k)));
      }
  });
  it('find-bit on pairs and bfm64', () => {
    for (const p of [...pairs, [0, 0] as [number, number], [0, 1] as [number, number]]) {
      const b = big(p);
      const bits = b.toString(2).padStart(64, '0');
      expect(findLsb64(a, p)).toBe(b === 0n ? 0xffffffff : 63 - bits.lastIndexOf('1'));
      expect(findMsbFromTop64(a, p)).toBe(b === 0n ? 0xffffffff : bits.indexOf('1'));
    }
    for (const w of [0, 1, 32, 33, 63, 64])
      for (const off of [0, 1, 31, 32, 60, 64]) {
        const mask = BigInt.asUintN(64, ((1n << BigInt(w & 63)) - 1n) << BigInt(off & 63));
        expect(bfm64(a, w, off)).toEqual(pairOf(mask));
      }
  });
});
