/**
 * Software binary64 for the lowering (D018): every f64 operation of the hardware algebra
 * written over the native u32/bool operations of `low.ts`, on (lo, hi) word pairs, so that
 * both back ends run f64 with no 64-bit type and no new native operation. Each result is the
 * concrete algebra's (`src/semantics/float.ts`) bit for bit: inputs and outputs flushed by
 * `f64f16Denormals`, the first NaN operand quieted (bit 51), the default NaN
 * 0xfff80000_00000000, round to nearest even everywhere, and where float.ts composes two
 * roundings (rsq is 1/sqrt, ldexp scales in two steps, fma with a zero addend rounds the
 * product first) the same two roundings here.
 *
 * The arithmetic is integer: significands are 64-bit pairs (a normalised one has its leading
 * bit at bit 63), products are 128-bit quadruples built from 32×32→64 partial products (the
 * high half from 16-bit pieces), bits shifted out are jammed into bit 0 (they only matter as
 * "something below the rounding point"), and `roundPack` is the one rounding routine every
 * operation ends in. Division (rcp) and square root are exact digit recurrences, one quotient
 * or root bit per step, their remainder giving the sticky bit: no approximation to correct.
 * The builder hash-conses, so operations on the same operands share their decodes.
 */
import { F64_QNAN_HI } from '../semantics/float.ts';
import { saturatedInt, type LowNode } from './low.ts';
import { LowWords, type Words64 } from './low-words.ts';

export type { Words64 } from './low-words.ts';
/** A 128-bit value as native words, lowest first. */
type Words128 = readonly [LowNode, LowNode, LowNode, LowNode];

const SIGN = 0x80000000;
const EXP_HI = 0x7ff00000;
const QUIET_HI = 0x00080000;

/** An f64 operand taken apart: sign (0 or 0x80000000), biased exponent of the leading bit, significand. */
interface Decoded {
  readonly sign: LowNode;
  /** Biased exponent the leading significand bit has (below 1 for a subnormal operand). */
  readonly be: LowNode;
  /** The significand with its leading bit at bit 63 (zero for a zero operand). */
  readonly sig: Words64;
}

/** The f64 operations, built into one LowBuilder. */
export class F64Lowering extends LowWords {
  /** x >> c and x << c for a constant c in 1..31 (no selects). */
  private shr64By(x: Words64, c: number): Words64 {
    return [
      this.o('or', this.o('shr', x[0], this.k(c)), this.o('shl', x[1], this.k(32 - c))),
      this.o('shr', x[1], this.k(c)),
    ];
  }
  private shl64By(x: Words64, c: number): Words64 {
    return [
      this.o('shl', x[0], this.k(c)),
      this.o('or', this.o('shl', x[1], this.k(c)), this.o('shr', x[0], this.k(32 - c))),
    ];
  }
  /** x >> n for any unsigned n, the bits shifted out jammed into bit 0. */
  private shr64Jam(x: Words64, n: LowNode): Words64 {
    const big = this.o('ule', this.k(64), n);
    const nc = this.sel(big, this.k(0), n);
    const s = this.shr64(x, nc);
    const lost = this.boolPick(big, this.not(this.isZero64(x)), this.not(this.eq64(this.shl64(s, nc), x)));
    const kept = this.pick(big, [this.k(0), this.k(0)], s);
    return [this.o('or', kept[0], this.o('b2w', lost)), kept[1]];
  }
  /** The significand normalised to bit 63 and the shift that took (64 for zero). */
  private normalise(x: Words64): { sig: Words64; shift: LowNode } {
    const n = this.clz64(x);
    return { sig: this.shl64(x, this.and(n, 63)), shift: n };
  }

  // ---- 128-bit words (the fma's exact product and sum)
  private mul32(x: LowNode, y: LowNode): Words64 {
    return [this.o('mul', x, y), this.mulHiU(x, y)];
  }
  /** x + y and its carry out. */
  private addc(x: LowNode, y: LowNode): [LowNode, LowNode] {
    const s = this.o('add', x, y);
    return [s, this.o('b2w', this.o('ult', s, x))];
  }
  /** The exact 128-bit product of two 64-bit words. */
  private mul64(x: Words64, y: Words64): Words128 {
    const p00 = this.mul32(x[0], y[0]);
    const p01 = this.mul32(x[0], y[1]);
    const p10 = this.mul32(x[1], y[0]);
    const p11 = this.mul32(x[1], y[1]);
    const [s1a, c1a] = this.addc(p00[1], p01[0]);
    const [w1, c1b] = this.addc(s1a, p10[0]);
    const [s2a, c2a] = this.addc(p01[1], p10[1]);
    const [s2b, c2b] = this.addc(s2a, p11[0]);
    const [w2, c2c] = this.addc(s2b, this.o('add', c1a, c1b));
    const w3 = this.o('add', p11[1], this.o('add', this.o('add', c2a, c2b), c2c));
    return [p00[0], w1, w2, w3];
  }
  private add128(x: Words128, y: Words128): Words128 {
    const out: LowNode[] = [];
    let carry = this.k(0);
    for (let i = 0; i < 4; i++) {
      const [s, c1] = this.addc(x[i]!, y[i]!);
      const [t, c2] = this.addc(s, carry);
      out.push(t);
      carry = this.o('or', c1, c2);
    }
    return out as unknown as Words128;
  }
  private sub128(x: Words128, y: Words128): Words128 {
    const out: LowNode[] = [];
    let borrow = this.k(0);
    for (let i = 0; i < 4; i++) {
      const d = this.o('sub', x[i]!, y[i]!);
      out.push(this.o('sub', d, borrow));
      borrow = this.o('b2w', this.any(this.o('ult', x[i]!, y[i]!), this.o('ult', d, borrow)));
    }
    return out as unknown as Words128;
  }
  private isZero128(x: Words128): LowNode {
    return this.isZeroWord(this.o('or', this.o('or', x[0], x[1]), this.o('or', x[2], x[3])));
  }
  private clz128(x: Words128): LowNode {
    const hi = this.clz64([x[2], x[3]]);
    return this.sel(this.isZero64([x[2], x[3]]), this.o('add', this.k(64), this.clz64([x[0], x[1]])), hi);
  }
  /** Word i of x moved up (left) by `words` whole words (0..3). */
  private wordAt(x: Words128, i: number, words: LowNode, left: boolean): LowNode {
    let r = this.k(0);
    for (let w = 3; w >= 0; w--) {
      const from = left ? i - w : i + w;
      const v = from >= 0 && from < 4 ? x[from]! : this.k(0);
      r = this.sel(this.o('eq', words, this.k(w)), v, r);
    }
    return r;
  }
  /** x << n for n in 0..127. */
  private shl128(x: Words128, n: LowNode): Words128 {
    const words = this.o('shr', n, this.k(5));
    const bits = this.and(n, 31);
    const y = [0, 1, 2, 3].map((i) => this.wordAt(x, i, words, true));
    const back = this.and(this.o('sub', this.k(32), bits), 31);
    const noBits = this.isZeroWord(bits);
    return [0, 1, 2, 3].map((i) => {
      const up = this.o('shl', y[i]!, bits);
      if (i === 0) return up;
      return this.o('or', up, this.sel(noBits, this.k(0), this.o('shr', y[i - 1]!, back)));
    }) as unknown as Words128;
  }
  /** x >> n for any unsigned n, the bits shifted out jammed into bit 0. */
  private shr128Jam(x: Words128, n: LowNode): Words128 {
    const big = this.o('ule', this.k(128), n);
    const nc = this.sel(big, this.k(0), n);
    const words = this.o('shr', nc, this.k(5));
    const bits = this.and(nc, 31);
    const y = [0, 1, 2, 3].map((i) => this.wordAt(x, i, words, false));
    // Whole words shifted out: x[0] when words >= 1, x[1] when >= 2, x[2] when 3.
    const lostWords = this.any(
      this.all(this.o('ule', this.k(1), words), this.notZeroWord(x[0])),
      this.all(this.o('ule', this.k(2), words), this.notZeroWord(x[1])),
      this.all(this.o('eq', words, this.k(3)), this.notZeroWord(x[2])),
    );
    const lostBits = this.notZeroWord(this.o('and', y[0]!, this.o('sub', this.o('shl', this.k(1), bits), this.k(1))));
    const back = this.and(this.o('sub', this.k(32), bits), 31);
    const noBits = this.isZeroWord(bits);
    const z = [0, 1, 2, 3].map((i) => {
      const down = this.o('shr', y[i]!, bits);
      if (i === 3) return down;
      return this.o('or', down, this.sel(noBits, this.k(0), this.o('shl', y[i + 1]!, back)));
    });
    const lost = this.boolPick(big, this.not(this.isZero128(x)), this.o('bor', lostWords, lostBits));
    const kept = z.map((w) => this.sel(big, this.k(0), w));
    return [this.o('or', kept[0]!, this.o('b2w', lost)), kept[1]!, kept[2]!, kept[3]!];
  }

  // ---- f64 bit-pattern predicates
  private absHi(x: Words64): LowNode {
    return this.and(x[1], 0x7fffffff);
  }
  isNan(x: Words64): LowNode {
    const h = this.absHi(x);
    return this.any(
      this.o('ult', this.k(EXP_HI), h),
      this.all(this.o('eq', h, this.k(EXP_HI)), this.notZeroWord(x[0])),
    );
  }
  private isInf(x: Words64): LowNode {
    return this.all(this.o('eq', this.absHi(x), this.k(EXP_HI)), this.isZeroWord(x[0]));
  }
  private isZero(x: Words64): LowNode {
    return this.isZeroWord(this.o('or', this.absHi(x), x[0]));
  }
  private signOf(x: Words64): LowNode {
    return this.and(x[1], SIGN);
  }
  private isNeg(x: Words64): LowNode {
    return this.notZeroWord(this.signOf(x));
  }
  private quiet(x: Words64): Words64 {
    return [x[0], this.o('or', x[1], this.k(QUIET_HI))];
  }
  private qnan(): Words64 {
    return [this.k(0), this.k(F64_QNAN_HI)];
  }
  private signedZero(sign: LowNode): Words64 {
    return [this.k(0), sign];
  }
  private signedInf(sign: LowNode): Words64 {
    return [this.k(0), this.o('or', sign, this.k(EXP_HI))];
  }
  /** A denormal made a zero of its sign unless the mode keeps f64 denormals. */
  flush(x: Words64, keep: boolean): Words64 {
    if (keep) return x;
    return this.pick(this.isZeroWord(this.and(x[1], EXP_HI)), [this.k(0), this.signOf(x)], x);
  }
  /** The first NaN of xs, quieted (callers select it only when one is a NaN). */
  private firstNan(xs: readonly Words64[]): Words64 {
    let r = this.quiet(xs[xs.length - 1]!);
    for (let i = xs.length - 2; i >= 0; i--) r = this.pick(this.isNan(xs[i]!), this.quiet(xs[i]!), r);
    return r;
  }
  private anyNan(xs: readonly Words64[]): LowNode {
    return this.any(...xs.map((x) => this.isNan(x)));
  }
  /** NaN operands give the first one quieted, else `r` (op64 of float.ts). */
  private nanFirst(xs: readonly Words64[], r: Words64): Words64 {
    return this.pick(this.anyNan(xs), this.firstNan(xs), r);
  }
  /** An unsigned 64-bit key whose order is the float order of non-NaN patterns, -0 below +0. */
  private key(x: Words64): Words64 {
    const neg = this.isNeg(x);
    return [
      this.sel(neg, this.o('not', x[0]), x[0]),
      this.sel(neg, this.o('not', x[1]), this.o('xor', x[1], this.k(SIGN))),
    ];
  }

  // ---- decoding and the one rounding routine
  /** The exponent field and the 53-bit significand as stored (implicit bit added to normals), exponent at least 1. */
  private unpack(x: Words64): { field: LowNode; exp: LowNode; sig: Words64 } {
    const field = this.and(this.o('shr', x[1], this.k(20)), 0x7ff);
    const normal = this.notZeroWord(field);
    const fracHi = this.and(x[1], 0xfffff);
    return {
      field,
      exp: this.sel(normal, field, this.k(1)),
      sig: [x[0], this.sel(normal, this.o('or', fracHi, this.k(0x100000)), fracHi)],
    };
  }
  /** A finite operand with its significand normalised to bit 63 (subnormals too). */
  private decode(x: Words64): Decoded {
    const u = this.unpack(x);
    const { sig, shift } = this.normalise(u.sig);
    return { sign: this.signOf(x), be: this.o('sub', this.o('add', u.exp, this.k(11)), shift), sig };
  }

  /**
   * sign * (sig / 2^63) * 2^(be - 1023) rounded to nearest even into f64 bits, for sig with its
   * leading bit at 63 (anything below the rounding point already jammed into its low bits).
   * A result below the normal range is shifted right (jamming) to the subnormal quantum first,
   * so it rounds once; a carry out of the significand moves into the exponent field, which
   * also makes the largest finite value round up to infinity; be past 2046 is infinity.
   */
  private roundPack(sign: LowNode, be: LowNode, sig: Words64): Words64 {
    const tiny = this.slt(be, this.k(1));
    const s = this.shr64Jam(sig, this.sel(tiny, this.o('sub', this.k(1), be), this.k(0)));
    const beEff = this.sel(tiny, this.k(1), be);
    const low = this.and(s[0], 0x7ff);
    const up = this.any(
      this.o('ult', this.k(0x400), low),
      this.all(this.o('eq', low, this.k(0x400)), this.notZeroWord(this.and(s[0], 0x800))),
    );
    const mant = this.shr64By(s, 11);
    // The significand's bit 52 (the implicit 1, or 0 for a subnormal) adds itself to the field.
    const packed = this.add64(
      [mant[0], this.o('add', mant[1], this.o('shl', this.o('sub', beEff, this.k(1)), this.k(20)))],
      [this.o('b2w', up), this.k(0)],
    );
    const overflow = this.slt(this.k(2046), be);
    const magnitude = this.pick(overflow, [this.k(0), this.k(EXP_HI)], packed);
    return [magnitude[0], this.o('or', magnitude[1], sign)];
  }

  // ---- the operations (each takes operands already flushed by the mode, as op64 does)

  /** a + b, one rounding; an exact zero sum is -0 only when both operands are -0. */
  add(x: Words64, y: Words64, keep: boolean): Words64 {
    const ix = this.isInf(x);
    const iy = this.isInf(y);
    const opposite = this.all(ix, iy, this.notZeroWord(this.and(this.o('xor', x[1], y[1]), SIGN)));
    // The larger magnitude first (bit patterns order as magnitudes), so its exponent is the larger.
    const swap = this.ult64([x[0], this.absHi(x)], [y[0], this.absHi(y)]);
    const a = this.pick(swap, y, x);
    const b = this.pick(swap, x, y);
    const ua = this.unpack(a);
    const ub = this.unpack(b);
    // 9 guard bits below the significands, bit 62 free for the carry.
    const sa = this.shl64By(ua.sig, 9);
    const sb = this.shr64Jam(this.shl64By(ub.sig, 9), this.o('sub', ua.exp, ub.exp));
    const subtract = this.notZeroWord(this.and(this.o('xor', a[1], b[1]), SIGN));
    const r = this.pick(subtract, this.sub64(sa, sb), this.add64(sa, sb));
    const { sig, shift } = this.normalise(r);
    const rounded = this.roundPack(this.signOf(a), this.o('sub', this.o('add', ua.exp, this.k(2)), shift), sig);
    const finite = this.pick(this.isZero64(r), this.signedZero(this.and(this.o('and', x[1], y[1]), SIGN)), rounded);
    const result = this.pick(opposite, this.qnan(), this.pick(ix, x, this.pick(iy, y, this.flush(finite, keep))));
    return this.nanFirst([x, y], result);
  }

  /** The rounded product of finite nonzero operands (not flushed). */
  private mulFinite(x: Words64, y: Words64): Words64 {
    const dx = this.decode(x);
    const dy = this.decode(y);
    const p = this.mul64(dx.sig, dy.sig);
    // The product of two significands in [1, 2) lies in [1, 4): its leading bit is 127 or 126.
    const top = this.notZeroWord(this.and(p[3], SIGN));
    const jam: Words64 = [this.o('or', p[2], this.o('b2w', this.notZeroWord(this.o('or', p[0], p[1])))), p[3]];
    const sig = this.pick(top, jam, this.shl64By(jam, 1));
    const be = this.o('add', this.o('sub', this.o('add', dx.be, dy.be), this.k(1023)), this.o('b2w', top));
    return this.roundPack(this.and(this.o('xor', x[1], y[1]), SIGN), be, sig);
  }

  mul(x: Words64, y: Words64, keep: boolean): Words64 {
    const ix = this.isInf(x);
    const iy = this.isInf(y);
    const zx = this.isZero(x);
    const zy = this.isZero(y);
    const sign = this.and(this.o('xor', x[1], y[1]), SIGN);
    const invalid = this.any(this.all(zx, iy), this.all(ix, zy));
    const result = this.pick(
      invalid,
      this.qnan(),
      this.pick(
        this.any(ix, iy),
        this.signedInf(sign),
        this.pick(this.any(zx, zy), this.signedZero(sign), this.flush(this.mulFinite(x, y), keep)),
      ),
    );
    return this.nanFirst([x, y], result);
  }

  /**
   * a * b + c. With every operand finite and nonzero: one rounding of the exact sum (the
   * 106-bit product and c meet in a 128-bit window, leading bits at 126, the smaller shifted
   * right with jamming). Otherwise float.ts computes `a * b + c` in JavaScript, which rounds the
   * product first: an infinite or zero product or addend is decided here the same way, and a
   * zero c adds to the rounded product (so a product rounding to zero gets the zero-sum sign).
   */
  fma(x: Words64, y: Words64, z: Words64, keep: boolean): Words64 {
    const ix = this.isInf(x);
    const iy = this.isInf(y);
    const iz = this.isInf(z);
    const zx = this.isZero(x);
    const zy = this.isZero(y);
    const zz = this.isZero(z);
    const signP = this.and(this.o('xor', x[1], y[1]), SIGN);
    const signZ = this.signOf(z);
    const productInvalid = this.any(this.all(zx, iy), this.all(ix, zy));
    const productInf = this.any(ix, iy);
    const sumInvalid = this.all(productInf, iz, this.o('ne', signP, signZ));
    const zeroSum = (p: Words64): Words64 => this.signedZero(this.o('and', this.signOf(p), signZ));
    const rounded = this.mulFinite(x, y);
    const plusZero = this.pick(this.isZero(rounded), zeroSum(rounded), rounded);
    const zeroProduct = this.pick(zz, zeroSum([this.k(0), signP]), z);
    // An infinite c meets the rounded product, which may have overflowed to the other infinity.
    const productZero = this.any(zx, zy);
    const overflowedAgainst = this.all(
      this.not(productZero),
      this.not(productInf),
      this.isInf(rounded),
      this.o('ne', this.signOf(rounded), signZ),
    );
    const special = this.pick(
      this.any(productInvalid, sumInvalid, this.all(iz, overflowedAgainst)),
      this.qnan(),
      this.pick(
        productInf,
        this.signedInf(signP),
        this.pick(iz, z, this.pick(productZero, zeroProduct, this.flush(plusZero, keep))),
      ),
    );
    const general = this.any(ix, iy, iz, zx, zy, zz);
    const result = this.pick(general, special, this.flush(this.fmaFinite(x, y, z), keep));
    return this.nanFirst([x, y, z], result);
  }

  private fmaFinite(x: Words64, y: Words64, z: Words64): Words64 {
    const dx = this.decode(x);
    const dy = this.decode(y);
    const dz = this.decode(z);
    const p = this.mul64(dx.sig, dy.sig);
    // Both operands to leading bit 126 (bit 127 takes the sum's carry). The shifts lose nothing:
    // the product has 22 trailing zeros, c's significand 11.
    const pTop = this.notZeroWord(this.and(p[3], SIGN));
    const pDown: Words128 = [
      this.o('or', this.o('shr', p[0], this.k(1)), this.o('shl', p[1], this.k(31))),
      this.o('or', this.o('shr', p[1], this.k(1)), this.o('shl', p[2], this.k(31))),
      this.o('or', this.o('shr', p[2], this.k(1)), this.o('shl', p[3], this.k(31))),
      this.o('shr', p[3], this.k(1)),
    ];
    const pw: Words128 = [0, 1, 2, 3].map((i) => this.sel(pTop, pDown[i]!, p[i]!)) as unknown as Words128;
    const topP = this.o('add', this.o('sub', this.o('add', dx.be, dy.be), this.k(1023)), this.o('b2w', pTop));
    const cHalf = this.shr64By(dz.sig, 1);
    const cw: Words128 = [this.k(0), this.k(0), cHalf[0], cHalf[1]];
    const topC = dz.be;
    const pFirst = this.not(this.slt(topP, topC));
    const pickQ = (c: LowNode, t: Words128, f: Words128): Words128 =>
      [0, 1, 2, 3].map((i) => this.sel(c, t[i]!, f[i]!)) as unknown as Words128;
    const a = pickQ(pFirst, pw, cw);
    const bq = pickQ(pFirst, cw, pw);
    const topA = this.sel(pFirst, topP, topC);
    const topB = this.sel(pFirst, topC, topP);
    const signP = this.and(this.o('xor', x[1], y[1]), SIGN);
    const signA = this.sel(pFirst, signP, dz.sign);
    const bs = this.shr128Jam(bq, this.o('sub', topA, topB));
    const subtract = this.o('ne', signP, dz.sign);
    const diff = this.sub128(a, bs);
    // Equal leading exponents can leave b the larger: the difference is negative, negate it.
    const negative = this.all(subtract, this.notZeroWord(this.and(diff[3], SIGN)));
    const r = pickQ(
      subtract,
      pickQ(negative, this.sub128([this.k(0), this.k(0), this.k(0), this.k(0)], diff), diff),
      this.add128(a, bs),
    );
    const n = this.clz128(r);
    const rn = this.shl128(r, this.and(n, 127));
    const sig: Words64 = [this.o('or', rn[2], this.o('b2w', this.notZeroWord(this.o('or', rn[0], rn[1])))), rn[3]];
    const sign = this.o('xor', signA, this.sel(negative, this.k(SIGN), this.k(0)));
    const rounded = this.roundPack(sign, this.o('sub', this.o('add', topA, this.k(1)), n), sig);
    // An exact cancellation is +0 (round to nearest).
    return this.pick(this.isZero128(r), [this.k(0), this.k(0)], rounded);
  }

  /** min/max as float.ts's pick64: with MODE.IEEE a signaling NaN is returned quieted (x first), a quiet NaN gives the other. */
  pickMinMax(x: Words64, y: Words64, max: boolean, ieee: boolean): Words64 {
    const nx = this.isNan(x);
    const ny = this.isNan(y);
    const chosen = max
      ? this.pick(this.ult64(this.key(x), this.key(y)), y, x)
      : this.pick(this.ult64(this.key(y), this.key(x)), y, x);
    const quietNans = this.pick(ny, x, this.pick(nx, y, chosen));
    if (!ieee) return quietNans;
    const signaling = (v: Words64, n: LowNode): LowNode => this.all(n, this.isZeroWord(this.and(v[1], QUIET_HI)));
    return this.pick(signaling(x, nx), this.quiet(x), this.pick(signaling(y, ny), this.quiet(y), quietNans));
  }

  /** The compare's three facts: unordered, less, equal (±0 equal). */
  compare(x: Words64, y: Words64): { unordered: LowNode; lt: LowNode; eq: LowNode } {
    const unordered = this.any(this.isNan(x), this.isNan(y));
    const ordered = this.not(unordered);
    const eq = this.all(ordered, this.any(this.eq64(x, y), this.all(this.isZero(x), this.isZero(y))));
    const lt = this.all(ordered, this.not(eq), this.ult64(this.key(x), this.key(y)));
    return { unordered, lt, eq };
  }

  /** floor / ceil / trunc / round-half-even to an integral value, on the bit pattern. */
  round(kind: 'floor' | 'ceil' | 'trunc' | 'rndne', x: Words64): Words64 {
    const sign = this.signOf(x);
    const neg = this.isNeg(x);
    const nonzero = this.not(this.isZero(x));
    const e = this.o('sub', this.and(this.o('shr', x[1], this.k(20)), 0x7ff), this.k(1023));
    let small: Words64;
    switch (kind) {
      case 'trunc':
        small = this.signedZero(sign);
        break;
      case 'floor':
        small = this.pick(this.all(neg, nonzero), [this.k(0), this.k(0xbff00000)], this.signedZero(sign));
        break;
      case 'ceil':
        small = this.pick(this.all(this.not(neg), nonzero), [this.k(0), this.k(0x3ff00000)], this.signedZero(sign));
        break;
      case 'rndne': {
        const aboveHalf = this.ult64([this.k(0), this.k(0x3fe00000)], [x[0], this.absHi(x)]);
        small = this.pick(aboveHalf, [this.k(0), this.o('or', sign, this.k(0x3ff00000))], this.signedZero(sign));
        break;
      }
    }
    // 0 <= e < 52: the fraction bits below the unit are cleared, the unit added to round away.
    const fracMask = this.shr64([this.k(0xffffffff), this.k(0xfffff)], this.and(e, 63));
    const unit = this.add64(fracMask, [this.k(1), this.k(0)]);
    const whole: Words64 = [
      this.o('and', x[0], this.o('not', fracMask[0])),
      this.o('and', x[1], this.o('not', fracMask[1])),
    ];
    const frac: Words64 = [this.o('and', x[0], fracMask[0]), this.o('and', x[1], fracMask[1])];
    const hasFrac = this.not(this.isZero64(frac));
    const up = this.add64(whole, unit);
    let mid: Words64;
    switch (kind) {
      case 'trunc':
        mid = whole;
        break;
      case 'floor':
        mid = this.pick(this.all(neg, hasFrac), up, whole);
        break;
      case 'ceil':
        mid = this.pick(this.all(this.not(neg), hasFrac), up, whole);
        break;
      case 'rndne': {
        const half = this.shr64By(unit, 1);
        const odd = this.not(this.isZero64([this.o('and', whole[0], unit[0]), this.o('and', whole[1], unit[1])]));
        const roundUp = this.any(this.ult64(half, frac), this.all(this.eq64(frac, half), odd));
        mid = this.pick(roundUp, up, whole);
        break;
      }
    }
    const r = this.pick(this.slt(this.k(51), e), x, this.pick(this.slt(e, this.k(0)), small, mid));
    return this.pick(this.isNan(x), this.quiet(x), r);
  }

  /**
   * 1/x rounded to nearest even (float.ts: the JavaScript quotient). The significand m in
   * (2^52, 2^53) divides 2^109 by long division in 8-bit digits: the first quotient bit is 1
   * (2^53 > m > 2^52), then 7 digits d = floor(256 r / m) of the remainder r < m, so
   * q = floor(2^109 / m) has 57 bits and the last remainder says whether anything is below. Each
   * digit is estimated by one u32 division of r's top bits, r >> 21 = floor(256 r / 2^29), by
   * (m >> 29) + 1: the estimate never exceeds d, and falls short by at most 1 (the two quotients
   * differ by less than 2^29 (256 m + m) / m^2 < 2^-13), so one conditional subtraction of m
   * makes the remainder exact again. A power of two (m = 2^52) has the exact quotient 2^57.
   */
  rcp(x: Words64, keep: boolean): Words64 {
    const d = this.decode(x);
    const m = this.shr64By(d.sig, 11);
    const pow2 = this.all(this.isZeroWord(d.sig[0]), this.o('eq', d.sig[1], this.k(SIGN)));
    const divisorTop = this.o(
      'add',
      this.o('or', this.o('shl', m[1], this.k(3)), this.o('shr', m[0], this.k(29))),
      this.k(1),
    );
    const mLoLow = this.and(m[0], 0xffff);
    const mLoHigh = this.o('shr', m[0], this.k(16));
    let r = this.sub64([this.k(0), this.k(0x200000)], m);
    let q: Words64 = [this.k(1), this.k(0)];
    for (let i = 0; i < 7; i++) {
      const top = this.o('or', this.o('shl', r[1], this.k(11)), this.o('shr', r[0], this.k(21)));
      const guess = this.o('udiv', top, divisorTop);
      // guess * m, exactly (guess < 2^8): the low word by its 16-bit halves, then the high word.
      const p0 = this.o('mul', guess, mLoLow);
      const p1 = this.o('mul', guess, mLoHigh);
      const lo = this.o('add', p0, this.o('shl', p1, this.k(16)));
      const hi = this.o(
        'add',
        this.o('add', this.o('shr', p1, this.k(16)), this.o('b2w', this.o('ult', lo, p0))),
        this.o('mul', guess, m[1]),
      );
      const rest = this.sub64(this.shl64By(r, 8), [lo, hi]);
      const less = this.sub64(rest, m);
      const short = this.not(this.slt(less[1], this.k(0)));
      r = this.pick(short, less, rest);
      const digit = this.o('add', guess, this.o('b2w', short));
      const up = this.shl64By(q, 8);
      q = [this.o('or', up[0], digit), up[1]];
    }
    q = this.pick(pow2, [this.k(0), this.k(0x2000000)], q);
    const sticky = this.all(this.not(pow2), this.not(this.isZero64(r)));
    const { sig, shift } = this.normalise(q);
    const jam: Words64 = [this.o('or', sig[0], this.o('b2w', sticky)), sig[1]];
    const be = this.o('sub', this.o('sub', this.k(2052), d.be), shift);
    const finite = this.flush(this.roundPack(d.sign, be, jam), keep);
    const r2 = this.pick(
      this.isZero(x),
      this.signedInf(d.sign),
      this.pick(this.isInf(x), this.signedZero(d.sign), finite),
    );
    return this.pick(this.isNan(x), this.quiet(x), r2);
  }

  /**
   * sqrt(x) rounded to nearest even. The significand (doubled when the exponent is odd, so the
   * exponent halves exactly) times 2^56 is a 110-bit radicand whose integer square root, taken
   * two radicand bits per step (restoring: try 4q + 1 against the remainder), has 55 bits; the
   * remainder says whether the root is inexact. The result is always normal.
   */
  sqrt(x: Words64, keep: boolean): Words64 {
    const d = this.decode(x);
    const m = this.shr64By(d.sig, 11);
    // value = m * 2^(be - 1075); make the exponent even.
    const e2 = this.o('sub', d.be, this.k(1075));
    const odd = this.notZeroWord(this.and(e2, 1));
    const mm = this.pick(odd, this.shl64By(m, 1), m);
    const eEven = this.sel(odd, this.o('sub', e2, this.k(1)), e2);
    // Radicand bits 109..56 are mm's bits 53..0, two per step; the last 28 steps bring zeros.
    const incoming = (i: number): LowNode => {
      const pairAt = 52 - 2 * i;
      if (pairAt < 0) return this.k(0);
      return this.and(this.o('shr', pairAt >= 32 ? mm[1] : mm[0], this.k(pairAt & 31)), 3);
    };
    // After i steps q < 2^i and r <= 2q: through step 28 the shifted remainder 4r + 3 and the
    // trial 4q + 1 fit one word, so those steps are single-word arithmetic.
    const SINGLE = 29;
    let r1 = this.k(0);
    let q1 = this.k(0);
    for (let i = 0; i < SINGLE; i++) {
      const shifted = this.o('or', this.o('shl', r1, this.k(2)), incoming(i));
      const trial = this.o('or', this.o('shl', q1, this.k(2)), this.k(1));
      const below = this.o('ult', shifted, trial);
      r1 = this.sel(below, shifted, this.o('sub', shifted, trial));
      q1 = this.o('or', this.o('shl', q1, this.k(1)), this.o('b2w', this.not(below)));
    }
    let r: Words64 = [r1, this.k(0)];
    let q: Words64 = [q1, this.k(0)];
    for (let i = SINGLE; i < 55; i++) {
      const t = this.shl64By(r, 2);
      const shifted: Words64 = [this.o('or', t[0], incoming(i)), t[1]];
      const trial = this.shl64By(q, 2);
      const diff = this.sub64(shifted, [this.o('or', trial[0], this.k(1)), trial[1]]);
      const below = this.slt(diff[1], this.k(0));
      r = this.pick(below, shifted, diff);
      const q2 = this.shl64By(q, 1);
      q = [this.o('or', q2[0], this.o('b2w', this.not(below))), q2[1]];
    }
    const sticky = this.not(this.isZero64(r));
    const up = this.shl64By(q, 9);
    const sig: Words64 = [this.o('or', up[0], this.o('b2w', sticky)), up[1]];
    const be = this.o('add', this.o('sar', eEven, this.k(1)), this.k(26 + 1023));
    const finite = this.flush(this.roundPack(this.k(0), be, sig), keep);
    const negative = this.all(this.isNeg(x), this.not(this.isZero(x)));
    const r2 = this.pick(this.isZero(x), x, this.pick(negative, this.qnan(), this.pick(this.isInf(x), x, finite)));
    return this.pick(this.isNan(x), this.quiet(x), r2);
  }

  /** x * 2^n with one rounding, for any n; NaN, infinities and zeros pass. Not flushed. */
  private scale(x: Words64, n: LowNode): Words64 {
    const d = this.decode(x);
    const r = this.roundPack(d.sign, this.o('add', d.be, n), d.sig);
    const special = this.any(this.isNan(x), this.isInf(x), this.isZero(x));
    return this.pick(special, x, r);
  }

  /**
   * ldexp as float.ts computes it: n clamped to ±1200, then x * 2^h * 2^(n - h) with h = trunc(n / 2),
   * two roundings (they differ from one only for results deep in the subnormal range).
   */
  ldexp(x: Words64, n: LowNode, keep: boolean): Words64 {
    const k = this.o('smax', this.o('smin', n, this.k(1200)), this.k(-1200 >>> 0));
    const h = this.o('sar', this.o('add', k, this.o('shr', k, this.k(31))), this.k(1));
    const once = this.scale(x, h);
    const twice = this.flush(this.scale(once, this.o('sub', k, h)), keep);
    return this.pick(this.isNan(x), this.quiet(x), twice);
  }

  /**
   * frexp's mantissa (in [0.5, 1), x's sign) or exponent; NaN, infinities and zeros give x
   * (unquieted) and 0. As the hardware defines it for every finite x. (float.ts finds the
   * exponent through 2 ** e as a number, which is infinite for e = 1024: for |x| >= 2^1023 its
   * answer depends on how Math.log2 rounds, see D018; the tests leave that binade out.)
   */
  frexp(x: Words64, mantissa: boolean): Words64 | LowNode {
    const special = this.any(this.isNan(x), this.isInf(x), this.isZero(x));
    const d = this.decode(x);
    if (!mantissa) return this.sel(special, this.k(0), this.o('sub', d.be, this.k(1022)));
    const frac = this.shr64By(d.sig, 11);
    const m: Words64 = [frac[0], this.o('or', d.sign, this.o('or', this.k(0x3fe00000), this.and(frac[1], 0xfffff)))];
    return this.pick(special, x, m);
  }

  /** u32 → f64, exact; `sign` (0 or 0x80000000) goes on top. */
  fromU32(x: LowNode, sign: LowNode): Words64 {
    const n = this.o('clz', x);
    // The leading 1 dropped: the 31 bits below it become the top of the fraction.
    const frac = this.o('shl', this.o('shl', x, this.and(n, 31)), this.k(1));
    const hi = this.o(
      'or',
      this.o('or', sign, this.o('shl', this.o('sub', this.k(1023 + 31), n), this.k(20))),
      this.o('shr', frac, this.k(12)),
    );
    return this.pick(this.isZeroWord(x), [this.k(0), this.k(0)], [this.o('shl', frac, this.k(20)), hi]);
  }
  fromI32(x: LowNode): Words64 {
    const neg = this.notZeroWord(this.and(x, SIGN));
    return this.fromU32(this.sel(neg, this.o('sub', this.k(0), x), x), this.and(x, SIGN));
  }

  /** f64 → i32 / u32 toward zero, saturating, NaN → 0. */
  toInt(x: Words64, signed: boolean): LowNode {
    const u = this.unpack(x);
    const e = this.o('sub', u.field, this.k(1023));
    // 0 <= e <= 31: the integer part is the significand shifted down by 52 - e (21..52).
    const mag = this.shr64(u.sig, this.and(this.o('sub', this.k(52), e), 63))[0];
    const parts = { neg: this.isNeg(x), below: this.slt(e, this.k(0)), e, magnitude: mag, nan: this.isNan(x) };
    return saturatedInt(this.b, signed, parts);
  }

  /** f32 bits (flushed by the f32 mode) → f64, exact; a NaN keeps its payload and is quieted. */
  fromF32(x: LowNode): Words64 {
    const sign = this.and(x, SIGN);
    const ef = this.and(this.o('shr', x, this.k(23)), 0xff);
    const frac = this.and(x, 0x7fffff);
    const nan: Words64 = [
      this.o('shl', x, this.k(29)),
      this.o('or', this.o('or', sign, this.k(0x7ff80000)), this.and(this.o('shr', x, this.k(3)), 0x7ffff)),
    ];
    const normal: Words64 = [
      this.o('shl', frac, this.k(29)),
      this.o(
        'or',
        this.o('or', sign, this.o('shl', this.o('add', ef, this.k(896)), this.k(20))),
        this.o('shr', frac, this.k(3)),
      ),
    ];
    // A subnormal f32 is frac * 2^-149: an exact u32 conversion with its exponent moved down by 149.
    const asInt = this.fromU32(frac, sign);
    const subnormal: Words64 = [asInt[0], this.o('sub', asInt[1], this.k(149 << 20))];
    const isNan = this.o('ult', this.k(0x7f800000), this.and(x, 0x7fffffff));
    const infOrNormal = this.pick(this.o('eq', ef, this.k(0xff)), this.signedInf(sign), normal);
    return this.pick(
      isNan,
      nan,
      this.pick(this.isZeroWord(ef), this.pick(this.isZeroWord(frac), this.signedZero(sign), subnormal), infOrNormal),
    );
  }

  /** f64 (flushed by the f64 mode) → f32 bits, nearest even; f32 denormal results flushed unless kept. */
  toF32(x: Words64, keep32: boolean): LowNode {
    const sign = this.signOf(x);
    const nan = this.o(
      'or',
      this.o('or', sign, this.k(0x7fc00000)),
      this.o('or', this.o('shl', this.and(x[1], 0x7ffff), this.k(3)), this.o('shr', x[0], this.k(29))),
    );
    const d = this.decode(x);
    const be = this.o('sub', d.be, this.k(896));
    const s32 = this.o('or', d.sig[1], this.o('b2w', this.notZeroWord(d.sig[0])));
    // As roundPack, at 24 bits: a subnormal result shifts right (jamming) first.
    const tiny = this.slt(be, this.k(1));
    const n = this.sel(tiny, this.o('sub', this.k(1), be), this.k(0));
    const big = this.o('ule', this.k(32), n);
    const shifted = this.shr64Jam([this.k(0), s32], this.sel(big, this.k(32), n));
    const s = this.o('or', shifted[1], this.o('b2w', this.notZeroWord(shifted[0])));
    const low = this.and(s, 0xff);
    const up = this.any(
      this.o('ult', this.k(0x80), low),
      this.all(this.o('eq', low, this.k(0x80)), this.notZeroWord(this.and(s, 0x100))),
    );
    const packed = this.o(
      'add',
      this.o(
        'add',
        this.o('shr', s, this.k(8)),
        this.o('shl', this.o('sub', this.sel(tiny, this.k(1), be), this.k(1)), this.k(23)),
      ),
      this.o('b2w', up),
    );
    let magnitude = this.sel(this.slt(this.k(254), be), this.k(0x7f800000), packed);
    if (!keep32) magnitude = this.sel(this.isZeroWord(this.and(magnitude, 0x7f800000)), this.k(0), magnitude);
    const finite = this.o('or', sign, magnitude);
    return this.sel(
      this.isNan(x),
      nan,
      this.sel(this.isInf(x), this.o('or', sign, this.k(0x7f800000)), this.sel(this.isZero(x), sign, finite)),
    );
  }
}
