/**
 * 64-bit operations on pairs of words (low first), written over `Algebra` so that every
 * one of them translates to WGSL on u32 (D003). Shift counts are masked to 6 bits, as
 * the 64-bit scalar instructions do (`S1.u[5:0]`).
 */
import type { Algebra, Pair } from './algebra.ts';

export function pairNonZero<V, B>(a: Algebra<V, B>, x: Pair<V>): B {
  return a.toBool(a.or(x[0], x[1]));
}

export function pairEq<V, B>(a: Algebra<V, B>, x: Pair<V>, y: Pair<V>): B {
  return a.boolAnd(a.eq(x[0], y[0]), a.eq(x[1], y[1]));
}

/** A word operation applied to each half (bitwise operations on pairs). */
export function pairMap<V>(x: Pair<V>, f: (w: V) => V): Pair<V> {
  return [f(x[0]), f(x[1])];
}

export function pairZip<V>(x: Pair<V>, y: Pair<V>, f: (p: V, q: V) => V): Pair<V> {
  return [f(x[0], y[0]), f(x[1], y[1])];
}

export function pairSelect<V, B>(a: Algebra<V, B>, c: B, t: Pair<V>, f: Pair<V>): Pair<V> {
  return [a.select(c, t[0], f[0]), a.select(c, t[1], f[1])];
}

/** Of a count's low 6 bits: whether they are 32 or more, and the low 5. */
function count6<V, B>(a: Algebra<V, B>, n: V): { big: B; n5: V } {
  return { big: a.toBool(a.and(n, a.word(32))), n5: a.and(n, a.word(31)) };
}

/** x << (n & 63). */
export function shl64<V, B>(a: Algebra<V, B>, x: Pair<V>, n: V): Pair<V> {
  const { big, n5 } = count6(a, n);
  const z = a.word(0);
  // For 0 < n5 < 32 the bits carried from lo to hi are lo >> (32 - n5); n5 = 0 carries nothing.
  const carried = a.select(a.eq(n5, z), z, a.lshr(x[0], a.sub(a.word(32), n5)));
  const lo = a.shl(x[0], n5);
  const hi = a.or(a.shl(x[1], n5), carried);
  return [a.select(big, z, lo), a.select(big, lo, hi)];
}

/** x >> (n & 63), logical. */
export function lshr64<V, B>(a: Algebra<V, B>, x: Pair<V>, n: V): Pair<V> {
  const { big, n5 } = count6(a, n);
  const z = a.word(0);
  const carried = a.select(a.eq(n5, z), z, a.shl(x[1], a.sub(a.word(32), n5)));
  const hi = a.lshr(x[1], n5);
  const lo = a.or(a.lshr(x[0], n5), carried);
  return [a.select(big, hi, lo), a.select(big, z, hi)];
}

/** x >> (n & 63), arithmetic. */
export function ashr64<V, B>(a: Algebra<V, B>, x: Pair<V>, n: V): Pair<V> {
  const { big, n5 } = count6(a, n);
  const z = a.word(0);
  const sign = a.ashr(x[1], a.word(31));
  const carried = a.select(a.eq(n5, z), z, a.shl(x[1], a.sub(a.word(32), n5)));
  const hi = a.ashr(x[1], n5);
  const lo = a.or(a.lshr(x[0], n5), carried);
  return [a.select(big, hi, lo), a.select(big, sign, hi)];
}

export function add64<V, B>(a: Algebra<V, B>, x: Pair<V>, y: Pair<V>): Pair<V> {
  const [lo, c] = a.addCarry(x[0], y[0], a.bool(false));
  const [hi] = a.addCarry(x[1], y[1], c);
  return [lo, hi];
}

export function sub64<V, B>(a: Algebra<V, B>, x: Pair<V>, y: Pair<V>): Pair<V> {
  const [lo, b] = a.subBorrow(x[0], y[0], a.bool(false));
  const [hi] = a.subBorrow(x[1], y[1], b);
  return [lo, hi];
}

export function popcount64<V, B>(a: Algebra<V, B>, x: Pair<V>): V {
  return a.add(a.popcount(x[0]), a.popcount(x[1]));
}

export function brev64<V, B>(a: Algebra<V, B>, x: Pair<V>): Pair<V> {
  return [a.brev(x[1]), a.brev(x[0])];
}

/** Index of the lowest set bit of a 64-bit value, 0xffffffff when none. */
export function findLsb64<V, B>(a: Algebra<V, B>, x: Pair<V>): V {
  const hi = a.select(a.toBool(x[1]), a.add(a.findLsb(x[1]), a.word(32)), a.word(0xffffffff));
  return a.select(a.toBool(x[0]), a.findLsb(x[0]), hi);
}

/** Leading zeros of a 64-bit value counted from bit 63, 0xffffffff when it is 0. */
export function findMsbFromTop64<V, B>(a: Algebra<V, B>, x: Pair<V>): V {
  const lo = a.select(a.toBool(x[0]), a.add(a.findMsbFromTop(x[0]), a.word(32)), a.word(0xffffffff));
  return a.select(a.toBool(x[1]), a.findMsbFromTop(x[1]), lo);
}

/** ((1 << (width & 63)) - 1) << (offset & 63), in 64 bits. */
export function bfm64<V, B>(a: Algebra<V, B>, width: V, offset: V): Pair<V> {
  const ones: Pair<V> = [a.word(0xffffffff), a.word(0xffffffff)];
  const w6 = a.and(width, a.word(63));
  // (1 << w) - 1 = ~(~0 << w) for w < 64; w = 0 gives 0.
  const shifted = shl64(a, ones, w6);
  const mask: Pair<V> = [a.not(shifted[0]), a.not(shifted[1])];
  return shl64(a, mask, offset);
}

/** 64-bit sign (true when bit 63 is set). */
export function isNegative64<V, B>(a: Algebra<V, B>, x: Pair<V>): B {
  return a.ltI(x[1], a.word(0));
}
