/**
 * The concrete algebra (D003): words are JavaScript numbers holding an unsigned 32-bit
 * value (always normalised with `>>> 0`), booleans are booleans. The reference interpreter
 * and the tracer's constant folding run instruction semantics over it.
 *
 * Every operation follows the hardware's definition as AMD's ISA documents give it
 * (Southern Islands / Sea Islands, GCN3, Vega, RDNA1-3 "Instructions" chapters): shift
 * counts are masked to 5 bits, subtraction's carry is a borrow, the find-bit operations
 * return 0xffffffff when no bit is found, bit-field extract of width 0 gives 0.
 */
import type { Algebra } from './algebra.ts';
import { concreteFloat } from './float.ts';

const u = (x: number): number => x >>> 0;

/** Number of set bits of a u32. */
function popcount32(a: number): number {
  let x = a - ((a >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

function brev32(a: number): number {
  let x = a >>> 0;
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  x = (x >>> 16) | (x << 16);
  return x >>> 0;
}

/** High 32 bits of the unsigned 64-bit product, without BigInt. */
function mulHiU32(a: number, b: number): number {
  const aL = a & 0xffff;
  const aH = a >>> 16;
  const bL = b & 0xffff;
  const bH = b >>> 16;
  const ll = aL * bL;
  const lh = aL * bH;
  const hl = aH * bL;
  const hh = aH * bH;
  const mid = (ll >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return (hh + (lh >>> 16) + (hl >>> 16) + Math.floor(mid / 0x10000)) >>> 0;
}

export const concrete: Algebra<number, boolean> = {
  word: (value) => u(value),
  bool: (value) => value,

  add: (a, b) => u(a + b),
  sub: (a, b) => u(a - b),
  addCarry(a, b, carryIn) {
    const s = (a >>> 0) + (b >>> 0) + (carryIn ? 1 : 0);
    return [u(s), s > 0xffffffff];
  },
  subBorrow(a, b, borrowIn) {
    const d = (a >>> 0) - (b >>> 0) - (borrowIn ? 1 : 0);
    return [u(d), d < 0];
  },
  mulLo: (a, b) => u(Math.imul(a, b)),
  mulHiU: (a, b) => mulHiU32(a >>> 0, b >>> 0),
  // Signed high half = unsigned high half - (a < 0 ? b : 0) - (b < 0 ? a : 0), modulo 2^32.
  mulHiI: (a, b) => u(mulHiU32(a >>> 0, b >>> 0) - ((a >> 31) & b) - ((b >> 31) & a)),
  and: (a, b) => u(a & b),
  or: (a, b) => u(a | b),
  xor: (a, b) => u(a ^ b),
  not: (a) => u(~a),
  shl: (a, b) => u(a << (b & 31)),
  lshr: (a, b) => a >>> (b & 31),
  ashr: (a, b) => u(a >> (b & 31)),
  minU: (a, b) => (u(a) < u(b) ? u(a) : u(b)),
  maxU: (a, b) => (u(a) > u(b) ? u(a) : u(b)),
  minI: (a, b) => ((a | 0) < (b | 0) ? u(a) : u(b)),
  maxI: (a, b) => ((a | 0) > (b | 0) ? u(a) : u(b)),

  popcount: (a) => popcount32(a >>> 0),
  brev: (a) => brev32(a),
  findLsb: (a) => (u(a) === 0 ? 0xffffffff : 31 - Math.clz32(a & -a)),
  findMsbFromTop: (a) => (u(a) === 0 ? 0xffffffff : Math.clz32(a)),
  bfeU(a, offset, width) {
    const w = width & 31;
    if (w === 0) return 0;
    return u(((a >>> 0) >>> (offset & 31)) & ((1 << w) - 1));
  },
  bfeI(a, offset, width) {
    // RDNA3 ISA, V_BFE_I32: tmp = (S0.i32 >> S1[4:0]) & ((1 << S2[4:0]) - 1); D = signext_from_bit(tmp, S2[4:0]).
    const w = width & 31;
    if (w === 0) return 0;
    const field = (a | 0) >> (offset & 31);
    return u((field << (32 - w)) >> (32 - w));
  },
  bfm: (width, offset) => u(((1 << (width & 31)) - 1) << (offset & 31)),
  sext: (a, bits) => u((a << (32 - bits)) >> (32 - bits)),

  eq: (a, b) => u(a) === u(b),
  ne: (a, b) => u(a) !== u(b),
  ltU: (a, b) => u(a) < u(b),
  leU: (a, b) => u(a) <= u(b),
  ltI: (a, b) => (a | 0) < (b | 0),
  leI: (a, b) => (a | 0) <= (b | 0),
  boolAnd: (a, b) => a && b,
  boolOr: (a, b) => a || b,
  boolNot: (a) => !a,
  select: (c, t, f) => (c ? t : f),
  fromBool: (c) => (c ? 1 : 0),
  toBool: (a) => u(a) !== 0,

  // Float operations on bit patterns (vector ALU): exact rounding, FloatMode flushing (float.ts).
  ...concreteFloat,
};
