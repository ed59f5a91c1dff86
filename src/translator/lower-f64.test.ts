/**
 * Software binary64 (D018) against the concrete algebra, bit for bit: every f64 operation of
 * the algebra lowered once per float mode (f64 denormals kept or flushed, MODE.IEEE set or
 * clear, f32 denormals for the conversions) and evaluated by `evalLowOp` on edge-heavy
 * operands: signed zeros, subnormals on both sides of the normal range, the largest and
 * smallest normals, NaNs with payloads (quiet and signaling), infinities, 2^±1074-scale values,
 * halfway cases of add and of the conversions, fma addends that cancel the product's rounding
 * error, and random patterns with nearby exponents.
 */
import { describe, expect, it } from 'vitest';
import type { FloatMode, FloatPredicate, Pair, RoundKind } from '../semantics/algebra.ts';
import { concrete } from '../semantics/concrete.ts';
import { exprBuilder, modeOf, type Expr, type ExprBuilder } from '../semantics/expr.ts';
import { f64Bits, f64Value } from '../semantics/float.ts';
import { evalLowOp, LowBuilder, lowReachable, type LowNode } from './low.ts';
import { Lowerer } from './lower.ts';

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

const SPECIALS: Pair<number>[] = [
  [0, 0],
  [0, 0x80000000],
  [1, 0],
  [1, 0x80000000],
  [0xffffffff, 0x000fffff],
  [0xffffffff, 0x800fffff],
  [0, 0x00080000],
  [0, 0x00100000],
  [0, 0x80100000],
  [1, 0x00100000],
  [0xffffffff, 0x7fefffff],
  [0xffffffff, 0xffefffff],
  [0, 0x7ff00000],
  [0, 0xfff00000],
  [0, 0x7ff80000],
  [0x1234, 0xfff80000],
  [1, 0x7ff00000],
  [0xabcd, 0xfff40000],
  [0, 0x3ff00000],
  [0, 0xbff00000],
  [0, 0x3fe00000],
  [0, 0x40000000],
  [0, 0x40080000],
  [0xffffffff, 0x3fefffff],
  [1, 0x3ff00000],
  [0, 0x7fe00000],
  [0, 0x00200000],
  [0, 0x3ca00000],
  [0, 0x41e00000],
  [0, 0xc1e00000],
  [0xffe00000, 0x41dfffff],
  [0, 0x41f00000],
  [0x00000000, 0x3ff80000],
  [0x00000000, 0x40040000],
  [0, 0x43300000],
  [1, 0x43300000],
  [0, 0x3fd00000],
  [0x55555555, 0x3fd55555],
];

/** An edge-heavy f64 operand; `near` (another operand) lends its exponent now and then. */
function f64Operand(r: () => number, near?: Pair<number>): Pair<number> {
  const pick = r() % 16;
  if (pick < 5) return SPECIALS[r() % SPECIALS.length]!;
  if (pick < 8 && near) {
    // Same or adjacent exponent, random fraction: cancellation and carries.
    const e = (near[1] >>> 20) & 0x7ff;
    const ee = Math.min(0x7fe, Math.max(0, e + (r() % 5) - 2));
    return [r(), ((r() & 0x80000000) | (ee << 20) | (r() & 0xfffff)) >>> 0];
  }
  if (pick === 8) return [r(), r() & 0x800fffff]; // subnormal
  if (pick === 9) return [r() & 0xff, ((r() & 0x80000000) | (0x3ff << 20)) >>> 0]; // few fraction bits
  if (pick === 10) return [r(), ((r() & 0x80000000) | ((1 + (r() % 60)) << 20) | (r() & 0xfffff)) >>> 0]; // tiny normal
  if (pick === 11) return [r(), ((r() & 0x80000000) | ((0x7fe - (r() % 60)) << 20) | (r() & 0xfffff)) >>> 0]; // huge
  return [r(), r()];
}

/** A word operand of the conversions and ldexp's exponent. */
function wordOperand(r: () => number): number {
  const pick = r() % 8;
  const specials = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 1074, -1074 >>> 0, 1023, -1022 >>> 0, 2100, -2100 >>> 0];
  if (pick < 3) return specials[r() % specials.length]!;
  if (pick < 5) return (r() % 2400) - 1200 + (r() % 3) - 1;
  if (pick === 5) return r() & 0xff;
  return r();
}

/** An f32 operand for dFromF32: specials and subnormals. */
function f32Operand(r: () => number): number {
  const specials = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000, 0xff800000];
  const pick = r() % 6;
  if (pick === 0) return specials[r() % specials.length]!;
  if (pick === 1) return (0x7f800000 | r()) >>> 0; // NaNs and infinities
  if (pick === 2) return r() & 0x807fffff;
  return r();
}

interface Operands {
  a: Pair<number>;
  b: Pair<number>;
  c: Pair<number>;
  n: number;
  f: number;
}

/** Operands with the cases random bits rarely give: ties, fma's rounding error, exact cancellation. */
function operands(r: () => number): Operands {
  const a = f64Operand(r);
  let b = f64Operand(r, a);
  let c = f64Operand(r, a);
  const trick = r() % 10;
  const va = f64Value(a);
  if (trick === 0 && Number.isFinite(va) && va !== 0) {
    // b a half-ulp of a (or a quarter, or three quarters): halfway and near-halfway sums.
    const frac = [0.5, 0.25, 0.75, 1][r() % 4]!;
    b = f64Bits(va * 2 ** -53 * frac * (r() & 1 ? -1 : 1));
  } else if (trick === 1) {
    // c = -(a * b) rounded: the fma gives the product's rounding error, mul + add gives 0.
    const p = va * f64Value(b);
    if (Number.isFinite(p)) c = f64Bits(-p);
  } else if (trick === 2) {
    c = f64Bits(-f64Value(a) * f64Value(b) * (1 + 2 ** -52));
  } else if (trick === 3) {
    b = f64Bits(-va);
  }
  return { a, b, c, n: wordOperand(r), f: f32Operand(r) };
}

type Built = (x: ExprBuilder, a: Pair<Expr>, b: Pair<Expr>, c: Pair<Expr>, n: Expr, f: Expr, m: FloatMode) => Expr[];
type Reference = (o: Operands, m: FloatMode) => (number | boolean)[];

const list = (r: Pair<number> | number | boolean): (number | boolean)[] => (typeof r === 'object' ? [r[0], r[1]] : [r]);
const listE = (r: Pair<Expr> | Expr): Expr[] => (Array.isArray(r) ? [...(r as Pair<Expr>)] : [r as Expr]);

const ROUNDS: RoundKind[] = ['floor', 'ceil', 'trunc', 'rndne'];
const PREDICATES: FloatPredicate[] = [
  'lt',
  'eq',
  'le',
  'gt',
  'lg',
  'ge',
  'o',
  'u',
  'nge',
  'nlg',
  'ngt',
  'nle',
  'neq',
  'nlt',
];

/** Every operation: how to build it on symbols and what the concrete algebra says. */
const OPERATIONS: [string, Built, Reference][] = [
  ['dAdd', (x, a, b, _c, _n, _f, m) => listE(x.dAdd(a, b, m)), (o, m) => list(concrete.dAdd(o.a, o.b, m))],
  ['dMul', (x, a, b, _c, _n, _f, m) => listE(x.dMul(a, b, m)), (o, m) => list(concrete.dMul(o.a, o.b, m))],
  ['dFma', (x, a, b, c, _n, _f, m) => listE(x.dFma(a, b, c, m)), (o, m) => list(concrete.dFma(o.a, o.b, o.c, m))],
  ['dMin', (x, a, b, _c, _n, _f, m) => listE(x.dMin(a, b, m)), (o, m) => list(concrete.dMin(o.a, o.b, m))],
  ['dMax', (x, a, b, _c, _n, _f, m) => listE(x.dMax(a, b, m)), (o, m) => list(concrete.dMax(o.a, o.b, m))],
  [
    'dCmp',
    (x, a, b, _c, _n, _f, m) => PREDICATES.map((p) => x.dCmp(p, a, b, m)),
    (o, m) => PREDICATES.map((p) => concrete.dCmp(p, o.a, o.b, m)),
  ],
  [
    'dRound',
    (x, a, _b, _c, _n, _f, m) => ROUNDS.flatMap((k) => listE(x.dRound(k, a, m))),
    (o, m) => ROUNDS.flatMap((k) => list(concrete.dRound(k, o.a, m))),
  ],
  ['rcp', (x, a, _b, _c, _n, _f, m) => listE(x.dUnary('rcp', a, m)), (o, m) => list(concrete.dUnary('rcp', o.a, m))],
  ['sqrt', (x, a, _b, _c, _n, _f, m) => listE(x.dUnary('sqrt', a, m)), (o, m) => list(concrete.dUnary('sqrt', o.a, m))],
  ['rsq', (x, a, _b, _c, _n, _f, m) => listE(x.dUnary('rsq', a, m)), (o, m) => list(concrete.dUnary('rsq', o.a, m))],
  ['dLdexp', (x, a, _b, _c, n, _f, m) => listE(x.dLdexp(a, n, m)), (o, m) => list(concrete.dLdexp(o.a, o.n, m))],
  [
    'dFrexp',
    (x, a, _b, _c, _n, _f, m) => [...listE(x.dFrexpMant(a, m)), x.dFrexpExp(a, m)],
    (o, m) => [...list(concrete.dFrexpMant(o.a, m)), concrete.dFrexpExp(o.a, m)],
  ],
  [
    'dFromI32/U32',
    (x, _a, _b, _c, n) => [...listE(x.dFromI32(n)), ...listE(x.dFromU32(n))],
    (o) => [...list(concrete.dFromI32(o.n)), ...list(concrete.dFromU32(o.n))],
  ],
  [
    'dToI32/U32',
    (x, a, _b, _c, _n, _f, m) => [x.dToI32(a, m), x.dToU32(a, m)],
    (o, m) => [concrete.dToI32(o.a, m), concrete.dToU32(o.a, m)],
  ],
  ['dFromF32', (x, _a, _b, _c, _n, f, m) => listE(x.dFromF32(f, m)), (o, m) => list(concrete.dFromF32(o.f, m))],
  ['dToF32', (x, a, _b, _c, _n, _f, m) => [x.dToF32(a, m)], (o, m) => [concrete.dToF32(o.a, m)]],
];

/** A lowered DAG ready to evaluate many times: its nodes in operand order. */
function compile(roots: readonly LowNode[]): (inputs: Map<string, number>) => (number | boolean)[] {
  const order = lowReachable(roots);
  const slot = new Map(order.map((n, i) => [n.id, i]));
  const argSlots = order.map((n) => n.args.map((a) => slot.get(a.id)!));
  const rootSlots = roots.map((r) => slot.get(r.id)!);
  return (inputs) => {
    const v: (number | boolean)[] = new Array(order.length);
    for (let i = 0; i < order.length; i++) {
      const n = order[i]!;
      if (n.op === 'const') v[i] = n.value!;
      else if (n.op === 'bconst') v[i] = n.value === 1;
      else if (n.op === 'input') v[i] = inputs.get(n.name!)! >>> 0;
      else
        v[i] = evalLowOp(
          n.op,
          argSlots[i]!.map((s) => v[s]!),
        );
    }
    return rootSlots.map((s) => v[s]!);
  };
}

const hex = (v: number | boolean): string => (typeof v === 'boolean' ? String(v) : `0x${v.toString(16)}`);

describe('software binary64 matches the concrete algebra bit for bit', () => {
  const TRIALS = 3000;
  for (const [name, build, reference] of OPERATIONS) {
    it(`${name}, every float mode, ${TRIALS} edge-heavy trials each`, () => {
      const failures: string[] = [];
      let nodes = 0;
      for (let bits = 0; bits < 8; bits++) {
        const m = modeOf(bits);
        const x = exprBuilder();
        const pair = (p: string): Pair<Expr> => [x.input(`${p}0`), x.input(`${p}1`)];
        const roots = build(x, pair('a'), pair('b'), pair('c'), x.input('n'), x.input('f'), m);
        const lb = new LowBuilder();
        const lowerer = new Lowerer(lb, (e) => lb.input(e.name!));
        const low = roots.map((e) => lowerer.lower(e));
        nodes = Math.max(nodes, lowReachable(low).length);
        const run = compile(low);
        const r = rng(0x9e3779b9 ^ (bits * 7919) ^ name.length);
        for (let t = 0; t < TRIALS && failures.length < 8; t++) {
          const o = operands(r);
          const inputs = new Map<string, number>([
            ['a0', o.a[0]],
            ['a1', o.a[1]],
            ['b0', o.b[0]],
            ['b1', o.b[1]],
            ['c0', o.c[0]],
            ['c1', o.c[1]],
            ['n', o.n],
            ['f', o.f],
          ]);
          const want = reference(o, m);
          const got = run(inputs);
          if (got.some((v, i) => v !== want[i]))
            failures.push(
              `mode ${bits}: a=${hex(o.a[1])}_${hex(o.a[0])} b=${hex(o.b[1])}_${hex(o.b[0])} c=${hex(o.c[1])}_${hex(o.c[0])} n=${hex(o.n)} f=${hex(o.f)}: got ${got.map(hex).join(',')} want ${want.map(hex).join(',')}`,
            );
        }
      }
      console.log(`${name}: at most ${nodes} native nodes`);
      expect(failures).toEqual([]);
    });
  }
});
