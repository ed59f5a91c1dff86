/**
 * The expression algebra against the concrete one: every scalar and vector ALU instruction of
 * the LLVM corpus (all five generations) is run once on symbols, and the DAG it leaves,
 * evaluated on random register values, must write exactly what the concrete run writes from
 * the same values. This is the check every back end of the DAG inherits.
 */
import { describe, expect, it } from 'vitest';
import { CORPUS_GENS, rng, symbolicCorpus, trial } from '../../test/semantics/corpus-symbolic.ts';
import { evaluateExpr, exprBuilder, reachable } from './expr.ts';

describe('the expression algebra computes what the concrete algebra computes', () => {
  for (const g of CORPUS_GENS) {
    it(`every scalar and vector ALU row of ${g.dir}`, () => {
      const r = rng(7);
      let checked = 0;
      const failures: string[] = [];
      for (const s of symbolicCorpus(g.dir, 8)) {
        for (let t = 0; t < 4; t++) {
          const { word, scc } = trial(r);
          const want = s.concrete(word, scc);
          const got = evaluateExpr(s.roots, { word, bool: () => scc });
          if (want === undefined || got.some((v, i) => v !== want[i])) {
            failures.push(
              `${s.inst.def.name}: ${s.keys.map((k, i) => `${k}=${String(got[i])}/${String(want?.[i])}`).join(' ')}`,
            );
            break;
          }
        }
        checked++;
      }
      console.log(`${g.dir}: ${checked} instructions agree`);
      expect(failures.slice(0, 10)).toEqual([]);
      expect(checked).toBeGreaterThan(1000);
    });
  }
});

describe('ExprBuilder', () => {
  it('folds constant operands through the concrete algebra', () => {
    const b = exprBuilder();
    const e = b.bfm(b.word(16), b.word(16));
    expect(e.op).toBe('const');
    expect(e.value).toBe(0xffff0000);
    const [lo, hi] = b.dFromF32(b.word(0x3f800000), { f32Denormals: true, f64f16Denormals: true });
    expect([lo.value, hi.value]).toEqual([0, 0x3ff00000]);
  });

  it('shares one node for one operation on the same operands, and orders operands first', () => {
    const b = exprBuilder();
    const x = b.input('v0');
    const y = b.input('v1');
    const s1 = b.add(x, y);
    const s2 = b.add(x, y);
    expect(s1).toBe(s2);
    const m = b.mulLo(s1, x);
    expect(reachable([m]).map((e) => e.id)).toEqual([x.id, y.id, s1.id, m.id]);
  });

  it('simplifies identities with a constant operand', () => {
    const b = exprBuilder();
    const x = b.input('v0');
    expect(b.and(x, b.word(0xffffffff))).toBe(x);
    expect(b.or(x, b.word(0)).id).toBe(x.id);
    expect(b.and(x, b.word(0)).value).toBe(0);
    expect(b.select(b.bool(true), x, b.word(3))).toBe(x);
    const c = b.boolInput('scc');
    expect(b.boolNot(b.boolNot(c))).toBe(c);
  });

  it('reads two results through projections of one tuple node', () => {
    const b = exprBuilder();
    const [sum, carry] = b.addCarry(b.input('a'), b.input('b'), b.boolInput('c'));
    expect(sum.op).toBe('proj');
    expect(carry.type).toBe('bool');
    expect(sum.args[0]).toBe(carry.args[0]);
    const [s, c] = evaluateExpr([sum, carry], { word: (n) => (n === 'a' ? 0xffffffff : 1), bool: () => true });
    expect([s, c]).toEqual([1, true]);
  });
});
