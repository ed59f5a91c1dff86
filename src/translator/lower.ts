/**
 * Lowers the hardware algebra's DAG (`src/semantics/expr.ts`) to native GPU operations
 * (`low.ts`), once for every back end (D011). Each algebra operation gets the meaning the
 * concrete algebra gives it (`src/semantics/concrete.ts`, `float.ts`), built from operations a
 * GPU performs the same way everywhere:
 *
 * - integer arithmetic as it is, shift counts masked, the high half of a product from 16-bit
 *   pieces (WGSL has no wide multiply);
 * - float compares, min/max (IEEE mode, -0 below +0), conversions between f32 and integers,
 *   rounding to integral values, ldexp, frexp and f16 conversions in integer arithmetic on the
 *   bit patterns, so they are exact wherever they run;
 * - f32 add, multiply, fma, divide, sqrt and the transcendentals as native operations, with
 *   NaN, infinity and zero operands decided here first (WGSL may assume none reach it) and
 *   denormals flushed by the float mode on both sides. What stays the GPU's own: the rounding
 *   of the native operations (correct for add/mul, within the documented ULPs for the rest),
 *   overflow of a native result, and subnormal operands when denormals are kept (a GPU may
 *   flush them). The capture compare's float tolerance covers these.
 * - sin/cos reduce their argument to [-0.5, 0.5) revolutions as the concrete algebra does; the
 *   native operation takes revolutions.
 *
 * - f64 operations have no native type: they are software binary64 on word pairs
 *   (`lower-f64.ts`, D018), exact in integer arithmetic like the f32 conversions.
 */
import type { FloatPredicate, FloatUnary, RoundKind } from '../semantics/algebra.ts';
import { predicateHolds } from '../semantics/algebra.ts';
import type { AlgebraOp, Expr, ExprParam } from '../semantics/expr.ts';
import { F32_QNAN } from '../semantics/float.ts';
import { saturatedInt, type LowBuilder, type LowNode } from './low.ts';
import { F64Lowering } from './lower-f64.ts';
import { LowWords, type Words64 } from './low-words.ts';

/** An operation the native back ends cannot express: named, with the reason. */
export class LoweringRefusal extends Error {
  override readonly name = 'LoweringRefusal';
  constructor(
    readonly op: string,
    readonly reason: string,
  ) {
    super(`${op}: ${reason}`);
  }
}

const SIGN = 0x80000000;
/** The NaN an invalid operation gives: the concrete algebra's. */
const QNAN = F32_QNAN;
const INF = 0x7f800000;
const ONE = 0x3f800000;

type Lowered = LowNode | readonly [LowNode, LowNode];

/** Lowers expression DAGs into one LowBuilder (shared across calls, so common nodes stay shared). */
export class Lowerer extends LowWords {
  private readonly memo = new Map<number, Lowered>();
  private readonly f64: F64Lowering;
  constructor(
    b: LowBuilder,
    /** The native node for an expression leaf (an input word or bool). */
    private readonly leaf: (e: Expr) => LowNode,
  ) {
    super(b);
    this.f64 = new F64Lowering(b);
  }

  lower(e: Expr): LowNode {
    const r = this.lowerAny(e);
    if (Array.isArray(r)) throw new Error(`expression ${e.id} (${e.op}) is a tuple: read it through proj`);
    return r as LowNode;
  }

  private lowerAny(e: Expr): Lowered {
    const hit = this.memo.get(e.id);
    if (hit) return hit;
    let r: Lowered;
    switch (e.op) {
      case 'const':
        r = this.b.word(e.value!);
        break;
      case 'bconst':
        r = this.b.bool(e.value === 1);
        break;
      case 'input':
      case 'binput':
        r = this.leaf(e);
        break;
      case 'proj': {
        const t = this.lowerAny(e.args[0]!) as readonly [LowNode, LowNode];
        r = t[e.value!]!;
        break;
      }
      default: {
        const args = e.args.map((a) => this.lower(a));
        r = this.operation(e.op, args, e.param, e.mode ?? 7);
      }
    }
    this.memo.set(e.id, r);
    return r;
  }

  // ---- shorthands (k, o, sel, and … are LowWords')
  private shlBy(a: LowNode, n: LowNode): LowNode {
    return this.o('shl', a, this.and(n, 31));
  }
  private shrBy(a: LowNode, n: LowNode): LowNode {
    return this.o('shr', a, this.and(n, 31));
  }

  // ---- f32 bit-pattern predicates
  private abs(x: LowNode): LowNode {
    return this.and(x, 0x7fffffff);
  }
  private isNan(x: LowNode): LowNode {
    return this.o('ult', this.k(INF), this.abs(x));
  }
  private isInf(x: LowNode): LowNode {
    return this.o('eq', this.abs(x), this.k(INF));
  }
  private isZero(x: LowNode): LowNode {
    return this.isZeroWord(this.abs(x));
  }
  private isNeg(x: LowNode): LowNode {
    return this.notZeroWord(this.and(x, SIGN));
  }
  private quiet(x: LowNode): LowNode {
    return this.o('or', x, this.k(0x00400000));
  }
  /** A denormal made a zero of its sign when the mode's bit says denormals are off. */
  private flush(x: LowNode, keep: boolean): LowNode {
    if (keep) return x;
    return this.sel(this.isZeroWord(this.and(x, INF)), this.and(x, SIGN), x);
  }
  /** An unsigned key whose order is the float order of non-NaN patterns, -0 below +0. */
  private key(x: LowNode): LowNode {
    return this.o('xor', x, this.sel(this.isNeg(x), this.k(0xffffffff), this.k(SIGN)));
  }
  /** The first NaN of xs, quieted (callers select it only when one is a NaN). */
  private firstNan(xs: readonly LowNode[]): LowNode {
    let r = this.quiet(xs[xs.length - 1]!);
    for (let i = xs.length - 2; i >= 0; i--) r = this.sel(this.isNan(xs[i]!), this.quiet(xs[i]!), r);
    return r;
  }
  private anyNan(xs: readonly LowNode[]): LowNode {
    return xs.map((x) => this.isNan(x)).reduce((p, q) => this.o('bor', p, q));
  }

  private operation(op: AlgebraOp, a: LowNode[], param: ExprParam | undefined, mode: number): Lowered {
    const keep32 = (mode & 1) !== 0;
    const keep16 = (mode & 2) !== 0;
    const ieee = (mode & 4) !== 0;
    const [x, y, z] = a as [LowNode, LowNode, LowNode];
    switch (op) {
      case 'add':
        return this.o('add', x, y);
      case 'sub':
        return this.o('sub', x, y);
      case 'addCarry': {
        const s1 = this.o('add', x, y);
        const s2 = this.o('add', s1, this.o('b2w', z));
        return [s2, this.o('bor', this.o('ult', s1, x), this.o('ult', s2, s1))];
      }
      case 'subBorrow': {
        const d1 = this.o('sub', x, y);
        const bin = this.o('b2w', z);
        return [this.o('sub', d1, bin), this.o('bor', this.o('ult', x, y), this.o('ult', d1, bin))];
      }
      case 'mulLo':
        return this.o('mul', x, y);
      case 'mulHiU':
        return this.mulHiU(x, y);
      case 'mulHiI':
        return this.o(
          'sub',
          this.o('sub', this.mulHiU(x, y), this.o('and', this.o('sar', x, this.k(31)), y)),
          this.o('and', this.o('sar', y, this.k(31)), x),
        );
      case 'and':
      case 'or':
      case 'xor':
        return this.o(op, x, y);
      case 'not':
        return this.o('not', x);
      case 'shl':
        return this.o('shl', x, this.and(y, 31));
      case 'lshr':
        return this.o('shr', x, this.and(y, 31));
      case 'ashr':
        return this.o('sar', x, this.and(y, 31));
      case 'minU':
        return this.o('umin', x, y);
      case 'maxU':
        return this.o('umax', x, y);
      case 'minI':
        return this.o('smin', x, y);
      case 'maxI':
        return this.o('smax', x, y);
      case 'popcount':
        return this.o('popcnt', x);
      case 'brev':
        return this.o('brev', x);
      case 'findLsb':
        return this.sel(this.isZeroWord(x), this.k(0xffffffff), this.o('ctz', x));
      case 'findMsbFromTop':
        return this.sel(this.isZeroWord(x), this.k(0xffffffff), this.o('clz', x));
      case 'bfeU': {
        const w = this.and(z, 31);
        const mask = this.o('sub', this.o('shl', this.k(1), w), this.k(1));
        return this.o('and', this.o('shr', x, this.and(y, 31)), mask);
      }
      case 'bfeI': {
        const w = this.and(z, 31);
        const field = this.o('sar', x, this.and(y, 31));
        const up = this.and(this.o('sub', this.k(32), w), 31);
        return this.sel(this.isZeroWord(w), this.k(0), this.o('sar', this.o('shl', field, up), up));
      }
      case 'bfm':
        return this.o('shl', this.o('sub', this.o('shl', this.k(1), this.and(x, 31)), this.k(1)), this.and(y, 31));
      case 'sext': {
        const s = this.k(32 - (param as number));
        return this.o('sar', this.o('shl', x, s), s);
      }
      case 'eq':
      case 'ne':
        return this.o(op, x, y);
      case 'ltU':
        return this.o('ult', x, y);
      case 'leU':
        return this.o('ule', x, y);
      case 'ltI':
        return this.o('slt', x, y);
      case 'leI':
        return this.o('sle', x, y);
      case 'boolAnd':
        return this.o('band', x, y);
      case 'boolOr':
        return this.o('bor', x, y);
      case 'boolNot':
        return this.o('bnot', x);
      case 'select':
        return this.sel(x, y, z);
      case 'fromBool':
        return this.o('b2w', x);
      case 'toBool':
        return this.notZeroWord(x);

      case 'fAdd':
        return this.fAdd(this.flush(x, keep32), this.flush(y, keep32), keep32);
      case 'fMul':
        return this.fMul(this.flush(x, keep32), this.flush(y, keep32), keep32);
      case 'fFma':
        return this.fFma(this.flush(x, keep32), this.flush(y, keep32), this.flush(z, keep32), keep32);
      case 'fMin':
      case 'fMax':
        return this.fPick(this.flush(x, keep32), this.flush(y, keep32), op === 'fMax', ieee);
      case 'fCmp':
        return this.fCmp(param as FloatPredicate, this.flush(x, keep32), this.flush(y, keep32));
      case 'fFromU32':
        return this.u2f(x);
      case 'fFromI32': {
        const neg = this.isNeg(x);
        return this.o('or', this.u2f(this.sel(neg, this.o('sub', this.k(0), x), x)), this.and(x, SIGN));
      }
      case 'fToI32':
      case 'fToU32':
        return this.f2int(this.flush(x, keep32), op === 'fToI32');
      case 'fRound':
        return this.fRound(param as RoundKind, this.flush(x, keep32));
      case 'fUnary': {
        // rcp, rsq, sqrt, exp and log flush denormals whatever the mode says; sin and cos follow it (float.ts).
        const kind = param as FloatUnary;
        const keep = (kind === 'sin' || kind === 'cos') && keep32;
        return this.fUnary(kind, this.flush(x, keep), keep);
      }
      case 'fLdexp':
        return this.flush(this.fLdexp(this.flush(x, keep32), y), keep32);
      case 'fFrexpMant':
      case 'fFrexpExp':
        return this.frexp(this.flush(x, keep32), op === 'fFrexpMant');
      case 'fToF16':
        return this.toF16(this.flush(x, keep32), param as boolean, keep16);
      case 'fFromF16':
        return this.fromF16(this.and(x, 0xffff), keep16);

      default:
        return this.f64Operation(op, a, param, keep32, keep16, ieee);
    }
  }

  /**
   * The f64 operations in software binary64 over word pairs (D018, `lower-f64.ts`): operands
   * flushed by the f64 mode as float.ts's op64 does, then the operation.
   */
  private f64Operation(
    op: AlgebraOp,
    a: LowNode[],
    param: ExprParam | undefined,
    keep32: boolean,
    keep64: boolean,
    ieee: boolean,
  ): Lowered {
    const d = this.f64;
    const pair = (i: number): Words64 => d.flush([a[i]!, a[i + 1]!], keep64);
    switch (op) {
      case 'dAdd':
        return d.add(pair(0), pair(2), keep64);
      case 'dMul':
        return d.mul(pair(0), pair(2), keep64);
      case 'dFma':
        return d.fma(pair(0), pair(2), pair(4), keep64);
      case 'dMin':
      case 'dMax':
        return d.pickMinMax(pair(0), pair(2), op === 'dMax', ieee);
      case 'dCmp': {
        const { unordered, lt, eq } = d.compare(pair(0), pair(2));
        return this.predicate(param as FloatPredicate, unordered, lt, eq);
      }
      case 'dRound':
        return d.round(param as RoundKind, pair(0));
      case 'dUnary': {
        const kind = param as 'rcp' | 'rsq' | 'sqrt';
        const x = pair(0);
        if (kind === 'rcp') return d.rcp(x, keep64);
        if (kind === 'sqrt') return d.sqrt(x, keep64);
        // float.ts: 1 / Math.sqrt(x), two roundings (the square root is never subnormal, so
        // flushing it again changes nothing).
        return d.rcp(d.sqrt(x, keep64), keep64);
      }
      case 'dLdexp':
        return d.ldexp(pair(0), a[2]!, keep64);
      case 'dFrexpMant':
        return d.frexp(pair(0), true);
      case 'dFrexpExp':
        return d.frexp(pair(0), false);
      case 'dFromI32':
        return d.fromI32(a[0]!);
      case 'dFromU32':
        return d.fromU32(a[0]!, this.k(0));
      case 'dToI32':
      case 'dToU32':
        return d.toInt(pair(0), op === 'dToI32');
      case 'dFromF32':
        return d.fromF32(this.flush(a[0]!, keep32));
      case 'dToF32':
        return d.toF32(pair(0), keep32);
      default:
        throw new Error(`lowering: no rule for ${op}`);
    }
  }

  private fAdd(x: LowNode, y: LowNode, keep: boolean): LowNode {
    const ix = this.isInf(x);
    const iy = this.isInf(y);
    const opposite = this.o('band', this.o('band', ix, iy), this.isNeg(this.o('xor', x, y)));
    // Zeros are decided here: a GPU may ignore the sign of zero (x + 0 -> x) or flush the
    // other operand, and an exact operand needs no rounding.
    const zx = this.isZero(x);
    const zy = this.isZero(y);
    const zeros = this.sel(this.o('band', zx, zy), this.o('and', x, y), this.sel(zy, x, y));
    let native = this.flush(this.o('fadd', x, y), keep);
    if (keep) {
      // Kept denormals are decided here too (a GPU may flush them, SwiftShader does): with an
      // operand below 2^-102 the sum may be subnormal, so it is x * 1 + y, exact in integers;
      // two larger operands have a sum of 0 or at least 2^-125, which the native add rounds right.
      const tiny = (v: LowNode): LowNode => this.o('ult', this.and(this.o('shr', v, this.k(23)), 0xff), this.k(25));
      native = this.sel(this.o('bor', tiny(x), tiny(y)), this.fmaFinite(x, this.k(ONE), y), native);
    }
    const finite = this.sel(this.o('bor', zx, zy), zeros, native);
    const r = this.sel(opposite, this.k(QNAN), this.sel(ix, x, this.sel(iy, y, finite)));
    return this.sel(this.anyNan([x, y]), this.firstNan([x, y]), r);
  }

  private fMul(x: LowNode, y: LowNode, keep: boolean): LowNode {
    const ix = this.isInf(x);
    const iy = this.isInf(y);
    const invalid = this.o('bor', this.o('band', this.isZero(x), iy), this.o('band', ix, this.isZero(y)));
    const sign = this.and(this.o('xor', x, y), SIGN);
    const inf = this.o('or', this.k(INF), sign);
    const zero = this.o('bor', this.isZero(x), this.isZero(y));
    let product = this.flush(this.o('fmul', x, y), keep);
    if (keep) {
      // Kept denormals (as fAdd): a subnormal operand, or exponents whose sum may leave a
      // subnormal product, take the exact integer path, x * y + 0.
      const e = (v: LowNode): LowNode => this.and(this.o('shr', v, this.k(23)), 0xff);
      const tiny = this.o(
        'bor',
        this.o('bor', this.isZeroWord(e(x)), this.isZeroWord(e(y))),
        this.o('ult', this.o('add', e(x), e(y)), this.k(130)),
      );
      product = this.sel(tiny, this.fmaFinite(x, y, this.k(0)), product);
    }
    const native = this.sel(zero, sign, product);
    const r = this.sel(invalid, this.k(QNAN), this.sel(this.o('bor', ix, iy), inf, native));
    return this.sel(this.anyNan([x, y]), this.firstNan([x, y]), r);
  }

  private fFma(x: LowNode, y: LowNode, z: LowNode, keep: boolean): LowNode {
    const ix = this.isInf(x);
    const iy = this.isInf(y);
    const iz = this.isInf(z);
    const productInvalid = this.o('bor', this.o('band', this.isZero(x), iy), this.o('band', ix, this.isZero(y)));
    const productInf = this.o('bor', ix, iy);
    const productSign = this.and(this.o('xor', x, y), SIGN);
    const sumInvalid = this.o('band', this.o('band', productInf, iz), this.o('ne', productSign, this.and(z, SIGN)));
    // A zero product adds exactly: z, or a zero negative only if both are.
    const productZero = this.o('bor', this.isZero(x), this.isZero(y));
    const zeroSum = this.sel(
      this.isZero(z),
      this.sel(this.o('band', this.o('ne', productSign, this.k(0)), this.isNeg(z)), this.k(SIGN), this.k(0)),
      z,
    );
    const native = this.sel(productZero, zeroSum, this.flush(this.fmaFinite(x, y, z), keep));
    const r = this.sel(
      this.o('bor', productInvalid, sumInvalid),
      this.k(QNAN),
      this.sel(productInf, this.o('or', this.k(INF), productSign), this.sel(iz, z, native)),
    );
    return this.sel(this.anyNan([x, y, z]), this.firstNan([x, y, z]), r);
  }

  /**
   * 1/x rounded to nearest even for a finite normal x, a denormal result flushed to a zero of x's
   * sign: 2^49 / the 24-bit mantissa by long division in 32-bit words (four quotients of at most
   * 8 bits), so the quotient's 26 bits and the remainder give the mantissa, the round and the
   * sticky bits. (The concrete algebra rounds the f64 quotient; the two agree: a tie after 53
   * bits would need 28 equal bits in a row of the quotient's expansion, see the test.)
   */
  private rcpExact(x: LowNode): LowNode {
    const zero = this.k(0);
    const sign = this.and(x, SIGN);
    const e = this.and(this.o('shr', x, this.k(23)), 0xff);
    const f = this.and(x, 0x7fffff);
    const m = this.o('or', f, this.k(0x800000));
    let q = zero;
    let r = this.k(0x80000000);
    const steps: [number, number][] = [
      [0, 0],
      [8, 8],
      [8, 8],
      [2, 2],
    ];
    for (const [shiftR, shiftQ] of steps) {
      const t = shiftR === 0 ? r : this.o('shl', r, this.k(shiftR));
      const d = this.o('udiv', t, m);
      r = this.o('sub', t, this.o('mul', d, m));
      q = this.o('or', shiftQ === 0 ? q : this.o('shl', q, this.k(shiftQ)), d);
    }
    const mant = this.o('shr', q, this.k(2));
    const round = this.notZeroWord(this.and(q, 2));
    const sticky = this.o('bor', this.notZeroWord(this.and(q, 1)), this.notZeroWord(r));
    const up = this.o('band', round, this.o('bor', sticky, this.notZeroWord(this.and(mant, 1))));
    const inexact = this.o(
      'add',
      this.o('add', this.o('shl', this.o('sub', this.k(253), e), this.k(23)), this.and(mant, 0x7fffff)),
      this.o('b2w', up),
    );
    const exact = this.o('shl', this.o('sub', this.k(254), e), this.k(23));
    const power = this.isZeroWord(f);
    const magnitude = this.sel(
      power,
      this.sel(this.o('ult', e, this.k(254)), exact, zero),
      this.sel(this.o('ult', e, this.k(253)), inexact, zero),
    );
    return this.o('or', sign, magnitude);
  }

  /**
   * x * y + z with one rounding to nearest even, for finite x, y, z with x * y not zero, in
   * integer arithmetic (a GPU's own fma may not be fused: SwiftShader's is not). The 48-bit product
   * and z's mantissa meet in a 64-bit window, the larger's leading bit at bit 61 and the other
   * shifted to its place, bits shifted out of the window jammed into bit 0 (they only matter as
   * "something below"); the sum is normalised and rounded at 24 bits, or fewer for a subnormal
   * result; an exponent past the largest finite one is infinity.
   */
  private fmaFinite(x: LowNode, y: LowNode, z: LowNode): LowNode {
    const zero = this.k(0);
    const decode = (v: LowNode): { mant: LowNode; exp: LowNode } => {
      const e = this.and(this.o('shr', v, this.k(23)), 0xff);
      const sub = this.isZeroWord(e);
      return {
        mant: this.sel(sub, this.and(v, 0x7fffff), this.o('or', this.and(v, 0x7fffff), this.k(0x800000))),
        exp: this.sel(sub, this.k(1), e),
      };
    };
    const dx = decode(x);
    const dy = decode(y);
    const dz = decode(z);
    const product: [LowNode, LowNode] = [this.o('mul', dx.mant, dy.mant), this.mulHiU(dx.mant, dy.mant)];
    const zMant: [LowNode, LowNode] = [dz.mant, zero];
    // Leading-bit exponents (offset by a constant that cancels: the product's LSB is 2^(ex+ey-300), z's 2^(ez-150)).
    const lenP = this.o('sub', this.k(64), this.clz64(product));
    const lenZ = this.o('sub', this.k(32), this.o('clz', dz.mant));
    const topP = this.o('add', this.o('add', dx.exp, dy.exp), this.o('sub', lenP, this.k(300 + 1)));
    const topZ = this.o('add', dz.exp, this.o('sub', lenZ, this.k(150 + 1)));
    const zIsZero = this.isZeroWord(dz.mant);
    const pFirst = this.o('bor', zIsZero, this.o('bnot', this.slt(topP, topZ)));
    const aMant = this.pick(pFirst, product, zMant);
    const bMant = this.pick(pFirst, zMant, product);
    const lenA = this.sel(pFirst, lenP, lenZ);
    const lenB = this.sel(pFirst, lenZ, lenP);
    const topA = this.sel(pFirst, topP, topZ);
    const topB = this.sel(pFirst, topZ, topP);
    const aWin = this.shl64(aMant, this.o('sub', this.k(62), lenA));
    const bFull = this.shl64(bMant, this.sel(this.isZeroWord(lenB), zero, this.o('sub', this.k(62), lenB)));
    const d = this.o('sub', topA, topB);
    const far = this.o('bor', zIsZero, this.o('ule', this.k(64), d));
    const dd = this.sel(far, zero, d);
    const bShifted = this.shr64(bFull, dd);
    const lost = this.o(
      'bnot',
      this.o(
        'band',
        this.o('eq', this.shl64(bShifted, dd)[0], bFull[0]),
        this.o('eq', this.shl64(bShifted, dd)[1], bFull[1]),
      ),
    );
    const bNonZero = this.o('bnot', this.o('band', this.isZeroWord(bFull[0]), this.isZeroWord(bFull[1])));
    const sticky = this.o('bor', this.o('band', far, bNonZero), this.o('band', this.o('bnot', far), lost));
    const bWin = this.pick(far, [zero, zero], bShifted);
    const bJam: [LowNode, LowNode] = [this.o('or', bWin[0], this.o('b2w', sticky)), bWin[1]];
    const signP = this.and(this.o('xor', x, y), SIGN);
    const signZ = this.and(z, SIGN);
    const signA = this.sel(pFirst, signP, signZ);
    const subtract = this.o('band', this.o('ne', signP, signZ), this.o('bnot', zIsZero));
    const sum = this.add64(aWin, bJam);
    const diff = this.sub64(aWin, bJam);
    const negative = this.o('band', subtract, this.o('ne', this.and(diff[1], SIGN), zero));
    const r = this.pick(subtract, this.pick(negative, this.sub64([zero, zero], diff), diff), sum);
    const sign = this.sel(negative, this.o('xor', signA, this.k(SIGN)), signA);
    // Normalise and round: the leading bit at `lead`, the window's bit 0 worth 2^(topA - 61).
    const lead = this.o('sub', this.k(63), this.clz64(r));
    const be = this.o('add', this.o('add', lead, topA), this.k(127 - 61));
    const denormalShift = this.sel(this.slt(be, this.k(1)), this.o('sub', this.k(1), be), zero);
    const rpRaw = this.o('add', this.o('sub', lead, this.k(23)), denormalShift);
    const rp = this.sel(this.slt(rpRaw, zero), zero, this.sel(this.slt(this.k(64), rpRaw), this.k(64), rpRaw));
    const inWindow = this.o('ult', rp, this.k(64));
    // A short exact result (after cancellation) is shifted up to its place instead.
    const q = this.sel(
      this.slt(rpRaw, zero),
      this.shlBy(r[0], this.o('sub', zero, rpRaw)),
      this.sel(inWindow, this.shr64(r, this.and(rp, 63))[0], zero),
    );
    const kept = this.pick(inWindow, this.shl64(this.shr64(r, this.and(rp, 63)), this.and(rp, 63)), [zero, zero]);
    const rem = this.sub64(r, kept);
    const half = this.pick(
      this.isZeroWord(rp),
      [zero, zero],
      this.shl64([this.k(1), zero], this.o('sub', rp, this.k(1))),
    );
    const roundUp = this.o(
      'band',
      this.o('ne', rp, zero),
      this.o(
        'bor',
        this.ult64(half, rem),
        this.o(
          'band',
          this.o('band', this.o('eq', rem[0], half[0]), this.o('eq', rem[1], half[1])),
          this.notZeroWord(this.and(q, 1)),
        ),
      ),
    );
    const expField = this.sel(this.slt(be, this.k(1)), zero, this.o('shl', this.o('sub', be, this.k(1)), this.k(23)));
    const bits = this.o('add', this.o('add', expField, q), this.o('b2w', roundUp));
    const overflow = this.o('bor', this.slt(this.k(254), be), this.o('ule', this.k(INF), bits));
    const magnitude = this.sel(overflow, this.k(INF), bits);
    const exactZero = this.o('band', this.isZeroWord(r[0]), this.isZeroWord(r[1]));
    return this.sel(exactZero, zero, this.o('or', magnitude, sign));
  }

  /** min/max as float.ts's pick32: with MODE.IEEE a signaling NaN is returned quieted (x first), a quiet NaN gives the other operand. */
  private fPick(x: LowNode, y: LowNode, max: boolean, ieee: boolean): LowNode {
    const nx = this.isNan(x);
    const ny = this.isNan(y);
    const pick = max
      ? this.sel(this.o('ult', this.key(x), this.key(y)), y, x)
      : this.sel(this.o('ult', this.key(y), this.key(x)), y, x);
    const quietNans = this.sel(ny, x, this.sel(nx, y, pick));
    if (!ieee) return quietNans;
    const signaling = (v: LowNode, n: LowNode): LowNode => this.o('band', n, this.isZeroWord(this.and(v, 0x00400000)));
    return this.sel(signaling(x, nx), this.quiet(x), this.sel(signaling(y, ny), this.quiet(y), quietNans));
  }

  private fCmp(p: FloatPredicate, x: LowNode, y: LowNode): LowNode {
    const unordered = this.o('bor', this.isNan(x), this.isNan(y));
    const ordered = this.o('bnot', unordered);
    const eq = this.o(
      'band',
      ordered,
      this.o('bor', this.o('eq', x, y), this.isZeroWord(this.o('or', this.abs(x), this.abs(y)))),
    );
    const lt = this.o('band', this.o('band', ordered, this.o('bnot', eq)), this.o('ult', this.key(x), this.key(y)));
    return this.predicate(p, unordered, lt, eq);
  }

  /** A float predicate from the compare's facts (f32 and f64 alike). */
  private predicate(p: FloatPredicate, unordered: LowNode, lt: LowNode, eq: LowNode): LowNode {
    const ordered = this.o('bnot', unordered);
    const gt = this.o('band', this.o('band', ordered, this.o('bnot', eq)), this.o('bnot', lt));
    // The four outcomes exclude each other: the predicate is the OR of those it holds for,
    // read from the one table the concrete algebra uses.
    const outcomes: [LowNode, boolean][] = [
      [unordered, predicateHolds(p, true, false, false)],
      [lt, predicateHolds(p, false, true, false)],
      [eq, predicateHolds(p, false, false, true)],
      [gt, predicateHolds(p, false, false, false)],
    ];
    let r = this.b.bool(false);
    for (const [c, holds] of outcomes) if (holds) r = this.o('bor', r, c);
    return r;
  }

  /** u32 → f32, round to nearest even, in integer arithmetic. */
  private u2f(x: LowNode): LowNode {
    const n = this.o('clz', x);
    const m = this.shlBy(x, n);
    const mant = this.and(this.o('shr', m, this.k(8)), 0x7fffff);
    const rest = this.and(m, 0xff);
    const bits = this.o('add', this.o('shl', this.o('sub', this.k(158), n), this.k(23)), mant);
    const up = this.o(
      'bor',
      this.o('ult', this.k(0x80), rest),
      this.o('band', this.o('eq', rest, this.k(0x80)), this.notZeroWord(this.and(mant, 1))),
    );
    return this.sel(this.isZeroWord(x), this.k(0), this.o('add', bits, this.o('b2w', up)));
  }

  /** f32 → i32 / u32, toward zero, saturating, NaN → 0, in integer arithmetic. */
  private f2int(x: LowNode, signed: boolean): LowNode {
    const e = this.o('sub', this.and(this.o('shr', x, this.k(23)), 0xff), this.k(127));
    const mant = this.o('or', this.and(x, 0x7fffff), this.k(0x800000));
    const mag = this.sel(
      this.o('slt', e, this.k(23)),
      this.shrBy(mant, this.o('sub', this.k(23), e)),
      this.shlBy(mant, this.o('sub', e, this.k(23))),
    );
    const parts = { neg: this.isNeg(x), below: this.o('slt', e, this.k(0)), e, magnitude: mag, nan: this.isNan(x) };
    return saturatedInt(this.b, signed, parts);
  }

  /** floor / ceil / trunc / round-half-even of f32 bits, in integer arithmetic. */
  private fRound(kind: RoundKind, x: LowNode): LowNode {
    const sign = this.and(x, SIGN);
    const neg = this.isNeg(x);
    const nonzero = this.o('bnot', this.isZero(x));
    const e = this.o('sub', this.and(this.o('shr', x, this.k(23)), 0xff), this.k(127));
    let small: LowNode;
    switch (kind) {
      case 'trunc':
        small = sign;
        break;
      case 'floor':
        small = this.sel(this.o('band', neg, nonzero), this.k(0xbf800000), sign);
        break;
      case 'ceil':
        small = this.sel(this.o('band', this.o('bnot', neg), nonzero), this.k(ONE), sign);
        break;
      case 'rndne':
        small = this.sel(this.o('ult', this.k(0x3f000000), this.abs(x)), this.o('or', sign, this.k(ONE)), sign);
        break;
    }
    const fracMask = this.shrBy(this.k(0x7fffff), e);
    const unit = this.o('add', fracMask, this.k(1));
    const whole = this.o('and', x, this.o('not', fracMask));
    const frac = this.o('and', x, fracMask);
    const hasFrac = this.notZeroWord(frac);
    const up = this.o('add', whole, unit);
    let mid: LowNode;
    switch (kind) {
      case 'trunc':
        mid = whole;
        break;
      case 'floor':
        mid = this.sel(this.o('band', neg, hasFrac), up, whole);
        break;
      case 'ceil':
        mid = this.sel(this.o('band', this.o('bnot', neg), hasFrac), up, whole);
        break;
      case 'rndne': {
        const half = this.o('shr', unit, this.k(1));
        const roundUp = this.o(
          'bor',
          this.o('ult', half, frac),
          this.o('band', this.o('eq', frac, half), this.notZeroWord(this.o('and', whole, unit))),
        );
        mid = this.sel(roundUp, up, whole);
        break;
      }
    }
    const r = this.sel(this.o('sle', this.k(23), e), x, this.sel(this.o('slt', e, this.k(0)), small, mid));
    return this.sel(this.isNan(x), this.quiet(x), r);
  }

  private fUnary(kind: FloatUnary, x: LowNode, keep: boolean): LowNode {
    const sign = this.and(x, SIGN);
    const zero = this.isZero(x);
    const inf = this.isInf(x);
    const negative = this.o('band', this.isNeg(x), this.o('bnot', zero));
    const out = (n: LowNode): LowNode => this.flush(n, keep);
    let r: LowNode;
    switch (kind) {
      case 'rcp':
        // Exact in integer arithmetic (WGSL's 1/x may be 2.5 ULP off, and integer division
        // sequences built on v_rcp_f32 need AMD's accuracy); rcp flushes its output (float.ts).
        r = this.sel(zero, this.o('or', sign, this.k(INF)), this.sel(inf, sign, this.rcpExact(x)));
        break;
      case 'rsq':
        r = this.sel(
          zero,
          this.o('or', sign, this.k(INF)),
          this.sel(negative, this.k(QNAN), this.sel(inf, this.k(0), out(this.o('frsq', x)))),
        );
        break;
      case 'sqrt':
        r = this.sel(zero, x, this.sel(negative, this.k(QNAN), this.sel(inf, x, out(this.o('fsqrt', x)))));
        break;
      case 'exp': {
        // 2^x overflows from 128 up and rounds to zero below -150; decided here, not by the GPU.
        const over = this.o('band', this.o('bnot', this.isNeg(x)), this.o('ule', this.k(0x43000000), x));
        const under = this.o('band', this.isNeg(x), this.o('ult', this.k(0xc3160000), x));
        r = this.sel(over, this.k(INF), this.sel(under, this.k(0), out(this.o('fexp2', x))));
        break;
      }
      case 'log':
        r = this.sel(
          zero,
          this.k(0xff800000),
          this.sel(negative, this.k(QNAN), this.sel(inf, x, out(this.o('flog2', x)))),
        );
        break;
      case 'sin':
      case 'cos': {
        // x - round-half-up(x) (the concrete algebra's reduction), exactly: the fraction after
        // truncation, moved into [-0.5, 0.5).
        const f = this.o('fadd', x, this.o('xor', this.fRound('trunc', x), this.k(SIGN)));
        const kf = this.key(f);
        const step = this.sel(
          this.o('ule', this.key(this.k(0x3f000000)), kf),
          this.k(0xbf800000),
          this.sel(this.o('ult', kf, this.key(this.k(0xbf000000))), this.k(ONE), this.k(0)),
        );
        const rev = this.o('fadd', f, step);
        const v = out(this.o(kind === 'sin' ? 'fsin' : 'fcos', rev));
        r = this.sel(inf, this.k(QNAN), kind === 'sin' ? this.sel(zero, x, v) : v);
        break;
      }
    }
    return this.sel(this.isNan(x), this.quiet(x), r);
  }

  /** x * 2^n with one rounding (nearest even, subnormal results too), in integer arithmetic. */
  private fLdexp(x: LowNode, n: LowNode): LowNode {
    const special = this.o('bor', this.o('bor', this.isNan(x), this.isInf(x)), this.isZero(x));
    const sign = this.and(x, SIGN);
    const nn = this.o('smax', this.o('smin', n, this.k(400)), this.k(-400 >>> 0));
    const ef = this.and(this.o('shr', x, this.k(23)), 0xff);
    const denorm = this.isZeroWord(ef);
    const mant = this.and(x, 0x7fffff);
    const sig = this.sel(denorm, mant, this.o('or', mant, this.k(0x800000)));
    const e0 = this.sel(denorm, this.k(-149 >>> 0), this.o('sub', ef, this.k(150)));
    const sh = this.o('sub', this.o('clz', sig), this.k(8));
    const sig2 = this.shlBy(sig, sh);
    const biased = this.o('add', this.o('sub', this.o('add', e0, nn), sh), this.k(150));
    const normal = this.o('or', this.shlBy(biased, this.k(23)), this.and(sig2, 0x7fffff));
    const s = this.o('sub', this.k(1), biased);
    const q = this.shrBy(sig2, s);
    const rem = this.o('and', sig2, this.o('sub', this.shlBy(this.k(1), s), this.k(1)));
    const half = this.shlBy(this.k(1), this.o('sub', s, this.k(1)));
    const roundUp = this.o(
      'bor',
      this.o('ult', half, rem),
      this.o('band', this.o('eq', rem, half), this.notZeroWord(this.and(q, 1))),
    );
    const sub = this.sel(this.o('slt', this.k(25), s), this.k(0), this.o('add', q, this.o('b2w', roundUp)));
    const body = this.sel(
      this.o('sle', this.k(255), biased),
      this.k(INF),
      this.sel(this.o('sle', this.k(1), biased), normal, sub),
    );
    return this.sel(this.isNan(x), this.quiet(x), this.sel(special, x, this.o('or', sign, body)));
  }

  private frexp(x: LowNode, mantissa: boolean): LowNode {
    const special = this.o('bor', this.o('bor', this.isNan(x), this.isInf(x)), this.isZero(x));
    const ef = this.and(this.o('shr', x, this.k(23)), 0xff);
    const denorm = this.isZeroWord(ef);
    const mant = this.and(x, 0x7fffff);
    const top = this.o('sub', this.k(31), this.o('clz', mant));
    if (!mantissa)
      return this.sel(
        special,
        this.k(0),
        this.sel(denorm, this.o('sub', top, this.k(148)), this.o('sub', ef, this.k(126))),
      );
    const half = this.k(126 << 23);
    const fromDenorm = this.o(
      'or',
      this.and(x, SIGN),
      this.o('or', half, this.and(this.shlBy(mant, this.o('sub', this.k(23), top)), 0x7fffff)),
    );
    const fromNormal = this.o('or', this.and(x, 0x807fffff), half);
    return this.sel(special, x, this.sel(denorm, fromDenorm, fromNormal));
  }

  /** f32 bits → f16 bits (low half), nearest even or toward zero; f16 denormals kept or flushed. */
  private toF16(x: LowNode, towardZero: boolean, keep16: boolean): LowNode {
    const sign16 = this.and(this.o('shr', x, this.k(16)), 0x8000);
    const nan16 = this.o('or', sign16, this.o('or', this.k(0x7e00), this.and(this.o('shr', x, this.k(13)), 0x3ff)));
    const ef = this.and(this.o('shr', x, this.k(23)), 0xff);
    const e = this.o('sub', ef, this.k(127));
    const sig = this.o('or', this.and(x, 0x7fffff), this.k(0x800000));
    const rounded = (q: LowNode, rem: LowNode, half: LowNode): LowNode => {
      if (towardZero) return q;
      const up = this.o(
        'bor',
        this.o('ult', half, rem),
        this.o('band', this.o('eq', rem, half), this.notZeroWord(this.and(q, 1))),
      );
      return this.o('add', q, this.o('b2w', up));
    };
    // Normal f16 (e >= -14): 11 significant bits, rounding may carry into the exponent.
    const b16 = this.o('add', e, this.k(15));
    const qn = this.o('shr', sig, this.k(13));
    const normal = this.o(
      'add',
      this.o('shl', this.o('sub', b16, this.k(1)), this.k(10)),
      rounded(qn, this.and(sig, 0x1fff), this.k(0x1000)),
    );
    const overflow = this.k(towardZero ? 0x7bff : 0x7c00);
    // Subnormal f16 (e < -14): shift by -1 - e (>= 14); at 25 or more nothing is left.
    const s = this.o('sub', this.k(0xffffffff), e);
    const qs = this.shrBy(sig, s);
    const sub = this.sel(
      this.o('sle', this.k(25), s),
      this.k(0),
      rounded(
        qs,
        this.o('and', sig, this.o('sub', this.shlBy(this.k(1), s), this.k(1))),
        this.shlBy(this.k(1), this.o('sub', s, this.k(1))),
      ),
    );
    let out = this.sel(
      this.o('sle', this.k(31), b16),
      overflow,
      this.sel(this.o('slt', e, this.k(-14 >>> 0)), sub, normal),
    );
    if (!keep16) out = this.sel(this.isZeroWord(this.and(out, 0x7c00)), this.k(0), out);
    // An f32 denormal is far below the smallest f16: a zero of its sign.
    const finite = this.sel(this.isZeroWord(ef), sign16, this.o('or', sign16, out));
    return this.sel(
      this.isNan(x),
      nan16,
      this.sel(this.isInf(x), this.o('or', sign16, this.k(0x7c00)), this.sel(this.isZero(x), sign16, finite)),
    );
  }

  /** f16 bits (low half) → f32 bits, exact (NaN payloads kept); f16 denormal inputs flushed unless kept. */
  private fromF16(h: LowNode, keep16: boolean): LowNode {
    const sign = this.o('shl', this.and(h, 0x8000), this.k(16));
    const e = this.and(this.o('shr', h, this.k(10)), 0x1f);
    const frac = this.and(h, 0x3ff);
    // Infinity, or a NaN widened as it is (a signaling one stays signaling, float.ts).
    const special = this.o('or', sign, this.o('or', this.k(INF), this.o('shl', frac, this.k(13))));
    const normal = this.o(
      'or',
      sign,
      this.o('or', this.o('shl', this.o('add', e, this.k(112)), this.k(23)), this.o('shl', frac, this.k(13))),
    );
    const top = this.o('sub', this.k(31), this.o('clz', frac));
    const denorm = keep16
      ? this.sel(
          this.isZeroWord(frac),
          sign,
          this.o(
            'or',
            sign,
            this.o(
              'or',
              this.o('shl', this.o('add', top, this.k(103)), this.k(23)),
              this.and(this.shlBy(frac, this.o('sub', this.k(23), top)), 0x7fffff),
            ),
          ),
        )
      : sign;
    return this.sel(this.o('eq', e, this.k(31)), special, this.sel(this.isZeroWord(e), denorm, normal));
  }
}
