/**
 * The lowering to native operations against the concrete algebra, on the CPU: every scalar and
 * vector ALU instruction of the LLVM corpus is run on symbols, lowered, and the native DAG
 * evaluated by `evalLowOp` must write exactly what the concrete run writes, f64 instructions
 * included (software binary64, D018): nothing is refused. The GPU back ends then only have to
 * map each native operation.
 */
import { describe, expect, it } from 'vitest';
import { CORPUS_GENS, rng, symbolicCorpus, trial } from '../../test/semantics/corpus-symbolic.ts';
import { evaluateLow, LowBuilder } from './low.ts';
import { Lowerer, LoweringRefusal } from './lower.ts';

describe('lowered native DAGs compute what the concrete algebra computes', () => {
  for (const g of CORPUS_GENS) {
    it(`every scalar and vector ALU row of ${g.dir}`, () => {
      const r = rng(11);
      let checked = 0;
      const refused: string[] = [];
      const failures: string[] = [];
      for (const s of symbolicCorpus(g.dir, 8)) {
        const b = new LowBuilder();
        const lowerer = new Lowerer(b, (e) => (e.op === 'input' ? b.input(e.name!) : b.boolInput(e.name!)));
        let low;
        try {
          low = s.roots.map((e) => lowerer.lower(e));
        } catch (e) {
          if (e instanceof LoweringRefusal) {
            refused.push(`${s.inst.def.name}: ${e.message}`);
            continue;
          }
          throw e;
        }
        for (let t = 0; t < 6; t++) {
          const { words, word, scc } = trial(r);
          const want = s.concrete(word, scc);
          const got = evaluateLow(low, { word, bool: () => scc });
          if (want === undefined || got.some((v, i) => v !== want[i])) {
            const inputs = [...words].map(([k, v]) => `${k}=0x${v.toString(16)}`).join(' ');
            failures.push(
              `${s.inst.def.name} [${inputs}]: ${s.keys.map((k, i) => `${k}=${String(got[i])}/${String(want?.[i])}`).join(' ')}`,
            );
            break;
          }
        }
        checked++;
      }
      console.log(`${g.dir}: ${checked} instructions lowered and agree, ${refused.length} refused`);
      expect(failures.slice(0, 12)).toEqual([]);
      expect(refused.slice(0, 12)).toEqual([]);
      expect(checked).toBeGreaterThan(1000);
    });
  }
});
