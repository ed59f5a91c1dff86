/**
 * The 64-bit sums wide-offset.ts reads from word pairs, built here with the shared 64-bit
 * semantics (src/semantics/wide.ts) the instructions run: each rule, the two ways a 64-bit add
 * pairs its high words, and pairs that are no such sum.
 */
import { describe, expect, it } from 'vitest';
import type { Expr } from '../semantics/expr.ts';
import { add64, shl64 } from '../semantics/wide.ts';
import { Leaves, ValueFacts } from './values.ts';
import { wideSum, type WideSum } from './wide-offset.ts';

function setup() {
  const leaves = new Leaves();
  const b = leaves.builder;
  const facts = new ValueFacts(leaves);
  const x = leaves.word('v0@entry', { kind: 'entry-vgpr', vgpr: 0, meaning: 'the index' });
  const y = leaves.word('v1@entry', { kind: 'entry-vgpr', vgpr: 1, meaning: 'another value' });
  const s0 = leaves.word('entry:0', { kind: 'user-data', index: 0 });
  const s1 = leaves.word('entry:1', { kind: 'user-data', index: 1 });
  const read = (p: readonly [Expr, Expr]): WideSum | string => wideSum(p[0], p[1], leaves, facts);
  return { leaves, b, x, y, s0, s1, read };
}

describe('64-bit sums of word pairs', () => {
  it('sext(x) << 5 is 32 * sext(x); zext(x) << 4 is 16 * zext(x)', () => {
    const { b, x, read } = setup();
    expect(read(shl64(b, [x, b.ashr(x, b.word(31))], b.word(5)))).toEqual({
      constant: 0n,
      uniform: [],
      terms: [{ coefficient: 32n, index: x, extension: 'sign' }],
    });
    expect(read(shl64(b, [x, b.word(0)], b.word(4)))).toEqual({
      constant: 0n,
      uniform: [],
      terms: [{ coefficient: 16n, index: x, extension: 'zero' }],
    });
  });

  it('a base pair plus the offset, either way the high words pair, and a constant added after', () => {
    const { b, x, s0, s1, read } = setup();
    const offset = shl64(b, [x, b.ashr(x, b.word(31))], b.word(5));
    const expected = { uniform: [[s0, s1]], terms: [{ coefficient: 32n, index: x, extension: 'sign' }] };
    expect(read(add64(b, [s0, s1], offset))).toEqual({ constant: 0n, ...expected });
    // The high words swapped: (s0 + lo, hi + s1 + carry) is the same 64-bit sum.
    const [lo, c] = b.addCarry(s0, offset[0], b.bool(false));
    const [hi] = b.addCarry(offset[1], s1, c);
    expect(read([lo, hi])).toEqual({ constant: 0n, ...expected });
    expect(read(add64(b, add64(b, [s0, s1], offset), [b.word(16), b.word(0)]))).toEqual({ constant: 16n, ...expected });
    // A constant base: its constant, no uniform part.
    expect(read(add64(b, [b.word(0x20000000), b.word(1)], offset))).toEqual({
      constant: 0x1_2000_0000n,
      uniform: [],
      terms: expected.terms,
    });
  });

  it('pairs that are no such sum, each with its reason', () => {
    const { b, x, y, s0, s1, read } = setup();
    // The index as its own high word.
    expect(read(shl64(b, [x, x], b.word(5)))).toBe(
      'its high word v0@entry is not 0, the sign of the low word v0@entry, or the high word of a 64-bit add or shift of it',
    );
    // A high word from another per-lane value.
    expect(read([x, y])).toMatch(/^its high word v1@entry is not 0, the sign of the low word v0@entry/);
    // The high add's carry-in is another add's carry-out.
    const [lo] = b.addCarry(s0, x, b.bool(false));
    const [, other] = b.addCarry(y, y, b.bool(false));
    const [hi] = b.addCarry(s1, b.word(0), other);
    expect(read([lo, hi])).toMatch(/^the high word's carry-in .* is not the low word's carry-out$/);
    // A base shifted with the index: no pair of nodes says the base's shifted value.
    expect(read(shl64(b, add64(b, [s0, s1], [x, b.word(0)]), b.word(2)))).toBe(
      'a part the same in every lane is shifted',
    );
  });
});
