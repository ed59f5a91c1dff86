/**
 * Word-level building blocks the lowerings share (lower.ts's f32/integer rules, lower-f64.ts's
 * software binary64): shorthands for native nodes, bool combinators, and 64-bit values as
 * (lo, hi) pairs of native u32 nodes. Written once here so both lowerings build the same
 * nodes for the same arithmetic (the builder hash-conses, so shared shapes stay shared).
 */
import type { LowBuilder, LowNode, LowOp } from './low.ts';

/** A 64-bit value as native words, low first. */
export type Words64 = readonly [LowNode, LowNode];

export class LowWords {
  constructor(readonly b: LowBuilder) {}

  // ---- shorthands
  protected k(v: number): LowNode {
    return this.b.word(v);
  }
  protected o(op: LowOp, ...args: LowNode[]): LowNode {
    return this.b.op(op, ...args);
  }
  protected sel(c: LowNode, t: LowNode, f: LowNode): LowNode {
    return this.o('select', c, t, f);
  }
  protected pick(c: LowNode, t: Words64, f: Words64): Words64 {
    return [this.sel(c, t[0], f[0]), this.sel(c, t[1], f[1])];
  }
  protected and(a: LowNode, v: number): LowNode {
    return this.o('and', a, this.k(v));
  }
  protected isZeroWord(a: LowNode): LowNode {
    return this.o('eq', a, this.k(0));
  }
  protected notZeroWord(a: LowNode): LowNode {
    return this.o('ne', a, this.k(0));
  }
  protected any(...cs: LowNode[]): LowNode {
    return cs.reduce((p, q) => this.o('bor', p, q));
  }
  protected all(...cs: LowNode[]): LowNode {
    return cs.reduce((p, q) => this.o('band', p, q));
  }
  protected not(c: LowNode): LowNode {
    return this.o('bnot', c);
  }
  /** c ? t : f on bools (select takes words). */
  protected boolPick(c: LowNode, t: LowNode, f: LowNode): LowNode {
    return this.any(this.all(c, t), this.all(this.not(c), f));
  }
  /** Signed a < b on words holding small signed integers (exponents). */
  protected slt(a: LowNode, b: LowNode): LowNode {
    return this.o('slt', a, b);
  }

  /** The high word of the unsigned 32×32 product, from 16-bit pieces (no native 64-bit multiply). */
  protected mulHiU(x: LowNode, y: LowNode): LowNode {
    const xl = this.and(x, 0xffff);
    const xh = this.o('shr', x, this.k(16));
    const yl = this.and(y, 0xffff);
    const yh = this.o('shr', y, this.k(16));
    const ll = this.o('mul', xl, yl);
    const lh = this.o('mul', xl, yh);
    const hl = this.o('mul', xh, yl);
    const hh = this.o('mul', xh, yh);
    const mid = this.o('add', this.o('add', this.o('shr', ll, this.k(16)), this.and(lh, 0xffff)), this.and(hl, 0xffff));
    return this.o(
      'add',
      this.o('add', this.o('add', hh, this.o('shr', lh, this.k(16))), this.o('shr', hl, this.k(16))),
      this.o('shr', mid, this.k(16)),
    );
  }

  // ---- 64-bit words
  protected isZero64(x: Words64): LowNode {
    return this.isZeroWord(this.o('or', x[0], x[1]));
  }
  protected eq64(x: Words64, y: Words64): LowNode {
    return this.all(this.o('eq', x[0], y[0]), this.o('eq', x[1], y[1]));
  }
  protected ult64(x: Words64, y: Words64): LowNode {
    return this.any(this.o('ult', x[1], y[1]), this.all(this.o('eq', x[1], y[1]), this.o('ult', x[0], y[0])));
  }
  protected add64(x: Words64, y: Words64): Words64 {
    const lo = this.o('add', x[0], y[0]);
    return [lo, this.o('add', this.o('add', x[1], y[1]), this.o('b2w', this.o('ult', lo, x[0])))];
  }
  protected sub64(x: Words64, y: Words64): Words64 {
    return [
      this.o('sub', x[0], y[0]),
      this.o('sub', this.o('sub', x[1], y[1]), this.o('b2w', this.o('ult', x[0], y[0]))),
    ];
  }
  protected clz64(x: Words64): LowNode {
    return this.sel(this.isZeroWord(x[1]), this.o('add', this.k(32), this.o('clz', x[0])), this.o('clz', x[1]));
  }
  /** x << n for n in 0..63. */
  protected shl64(x: Words64, n: LowNode): Words64 {
    const small = this.o('ult', n, this.k(32));
    const n5 = this.and(n, 31);
    const carried = this.sel(
      this.isZeroWord(n5),
      this.k(0),
      this.o('shr', x[0], this.and(this.o('sub', this.k(32), n5), 31)),
    );
    return [
      this.sel(small, this.o('shl', x[0], n5), this.k(0)),
      this.sel(small, this.o('or', this.o('shl', x[1], n5), carried), this.o('shl', x[0], n5)),
    ];
  }
  /** x >> n for n in 0..63. */
  protected shr64(x: Words64, n: LowNode): Words64 {
    const small = this.o('ult', n, this.k(32));
    const n5 = this.and(n, 31);
    const carried = this.sel(
      this.isZeroWord(n5),
      this.k(0),
      this.o('shl', x[1], this.and(this.o('sub', this.k(32), n5), 31)),
    );
    return [
      this.sel(small, this.o('or', this.o('shr', x[0], n5), carried), this.o('shr', x[1], n5)),
      this.sel(small, this.o('shr', x[1], n5), this.k(0)),
    ];
  }
}
