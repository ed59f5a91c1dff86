/**
 * A per-lane 64-bit address or offset, as the program computes it on a pair of words (low,
 * high), read as a 64-bit sum: a constant, parts the same in every lane (a table's base), and
 * per-lane terms `coefficient * extend(index)`, where `extend` is the 64-bit sign or zero
 * extension of a 32-bit index (D012's 2026-12-02 amendment). Every rule is an identity on
 * 64-bit values, checked on the nodes the shared semantics built (src/semantics/wide.ts), so a
 * pair is read as a sum only when it is one:
 *
 * - (c, d) constants: the constant d·2³² + c;
 * - (u, v), neither differing per lane: a uniform part;
 * - the 64-bit add (add64, the VALU carry chains): low = first(addCarry(p, q, false)) and
 *   high = first(addCarry(r, s, carry)), where carry is that add's carry-out, directly or as the
 *   lane's own bit of the lane mask it went through (VCC, ownLaneBit): (p, r) + (q, s), or
 *   (p, s) + (q, r), since the high words only add;
 * - the 64-bit shift by a constant 0 < k < 32 (shl64): (a << k, (h << k) | (a >> (32 - k)))
 *   is (a, h) · 2^k, checked by building shl64 of (a, h) again and finding the same two nodes;
 * - (x, ashr(x, 31)): sext(x); (x, 0): zext(x).
 *
 * The high word of a 64-bit shift of a sign-extended index extending the low is these rules
 * composed, not a rule of its own: LLVM's `sext(idx) << 5` is the shift of the
 * pair (idx, ashr(idx, 31)), which is 32 · sext(idx). Note that it is not sext(idx << 5): the
 * high word holds the index's bits 27-31, so no 32-bit view of the offset would be exact.
 */
import type { Expr, ExprBuilder } from '../semantics/expr.ts';
import { shl64 } from '../semantics/wide.ts';
import { constantOf, exprText, ownLaneBit, type Leaves, type ValueFacts } from './values.ts';

const MASK64 = (1n << 64n) - 1n;

/** `coefficient * extend(index)`: one per-lane term of a 64-bit sum. */
export interface WideTerm {
  readonly coefficient: bigint;
  readonly index: Expr;
  readonly extension: 'sign' | 'zero';
}

/** A 64-bit value as constant + Σ uniform + Σ terms (mod 2⁶⁴). */
export interface WideSum {
  readonly constant: bigint;
  /** Parts the same in every lane, each a (low, high) pair, not constant. */
  readonly uniform: readonly (readonly [Expr, Expr])[];
  readonly terms: readonly WideTerm[];
}

const ZERO: WideSum = { constant: 0n, uniform: [], terms: [] };

function addSums(x: WideSum, y: WideSum): WideSum {
  const terms: WideTerm[] = [...x.terms];
  for (const t of y.terms) {
    const i = terms.findIndex((u) => u.index === t.index && u.extension === t.extension);
    if (i < 0) terms.push(t);
    else terms[i] = { ...t, coefficient: (terms[i].coefficient + t.coefficient) & MASK64 };
  }
  return {
    constant: (x.constant + y.constant) & MASK64,
    uniform: [...x.uniform, ...y.uniform],
    terms: terms.filter((t) => t.coefficient !== 0n),
  };
}

/** A sum shifted left by k: every part scaled (a uniform part cannot be, as a pair of nodes). */
function shiftSum(x: WideSum, k: number): WideSum | string {
  if (x.uniform.length > 0) return 'a part the same in every lane is shifted';
  const f = 1n << BigInt(k);
  return {
    constant: (x.constant * f) & MASK64,
    uniform: [],
    terms: x.terms.map((t) => ({ ...t, coefficient: (t.coefficient * f) & MASK64 })),
  };
}

/** How many parts a sum names (the fewer, the more the reading says). */
const size = (x: WideSum): number => x.uniform.length + x.terms.length;

/** Reads the pair (lo, hi) as a 64-bit sum, or says why it cannot. */
export function wideSum(lo: Expr, hi: Expr, leaves: Leaves, facts: ValueFacts): WideSum | string {
  const b: ExprBuilder = leaves.builder;
  const cl = constantOf(lo);
  const ch = constantOf(hi);
  if (cl !== undefined && ch !== undefined) return { ...ZERO, constant: (BigInt(ch) << 32n) | BigInt(cl) };
  if (!facts.laneVarying(lo) && !facts.laneVarying(hi)) return { ...ZERO, uniform: [[lo, hi]] };
  const reasons: string[] = [];
  // The 64-bit add: the low word's add-with-carry, the high word's taking its carry-out.
  if (lo.op === 'proj' && lo.value === 0 && hi.op === 'proj' && hi.value === 0) {
    const t = lo.args[0];
    const u = hi.args[0];
    if (t.op === 'addCarry' && u.op === 'addCarry' && constantOf(t.args[2]) === 0) {
      const carry = u.args[2];
      const carryOut = b.addCarry(t.args[0], t.args[1], t.args[2])[1];
      if (carry === carryOut || ownLaneBit(carry, leaves) === carryOut) {
        const [p, q] = t.args;
        const [r, s] = u.args;
        let best: WideSum | undefined;
        for (const [x, y] of [
          [
            [p, r],
            [q, s],
          ],
          [
            [p, s],
            [q, r],
          ],
        ] as const) {
          const wx = wideSum(x[0], x[1], leaves, facts);
          const wy = typeof wx === 'string' ? wx : wideSum(y[0], y[1], leaves, facts);
          if (typeof wx === 'string' || typeof wy === 'string') {
            reasons.push(typeof wx === 'string' ? wx : (wy as string));
            continue;
          }
          const sum = addSums(wx, wy);
          if (!best || size(sum) < size(best)) best = sum;
        }
        if (best) return best;
      } else reasons.push(`the high word's carry-in ${exprText(carry, leaves)} is not the low word's carry-out`);
    }
  }
  // The 64-bit shift by a constant: rebuilt with shl64 from the candidates for the high word shifted.
  const k = lo.op === 'shl' ? constantOf(lo.args[1]) : undefined;
  if (k !== undefined && k > 0 && k < 32) {
    const a = lo.args[0];
    const candidates = [
      b.word(0),
      ...(hi.op === 'or' ? hi.args.filter((x) => x.op === 'shl').map((x) => x.args[0]) : []),
    ];
    for (const h of candidates) {
      const [l2, h2] = shl64(b, [a, h], b.word(k));
      if (l2 !== lo || h2 !== hi) continue;
      const inner = wideSum(a, h, leaves, facts);
      if (typeof inner === 'string') return inner;
      return shiftSum(inner, k);
    }
  }
  if (hi.op === 'ashr' && hi.args[0] === lo && constantOf(hi.args[1]) === 31)
    return { ...ZERO, terms: [{ coefficient: 1n, index: lo, extension: 'sign' }] };
  if (ch === 0) return { ...ZERO, terms: [{ coefficient: 1n, index: lo, extension: 'zero' }] };
  return (
    reasons[0] ??
    `its high word ${exprText(hi, leaves)} is not 0, the sign of the low word ${exprText(lo, leaves)}, or the high word of a 64-bit add or shift of it`
  );
}
