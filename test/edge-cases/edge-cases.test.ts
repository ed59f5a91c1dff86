/**
 * The edge-case captures on the reference interpreter: every case × every target it applies
 * to is built into a capture in memory, written, read back and replayed; it must match the
 * expectation written from the documents. A test's name carries the case's citation.
 */
import { describe, expect, it } from 'vitest';
import { replaySpec } from '../corpus-kernels/common.ts';
import { EDGE_CASES } from './index.ts';
import { edgeCaseSpec, rowsOf, type EdgeCase } from './harness.ts';
import { EDGE_TARGETS } from './targets.ts';

describe('instruction edge cases on the interpreter', () => {
  for (const c of EDGE_CASES)
    describe(`${c.id} (${c.cite})`, () => {
      for (const t of EDGE_TARGETS) {
        const spec = edgeCaseSpec(c, t);
        if (!spec) continue;
        it(t.name, async () => {
          const o = await replaySpec(spec);
          if (o.kind === 'refused' || o.kind === 'invalid') expect.fail(`${o.kind}: ${o.reason}`);
          const detail = o.compare.mismatches.map(
            (m) => `@0x${m.address.toString(16)} [${m.element}] want ${m.expected} got ${m.got}`,
          );
          expect(detail, `${o.compare.mismatchCount} mismatches`).toEqual([]);
          expect(o.kind).toBe('match');
        });
      }
    });
});

describe('the edge-case corpus itself', () => {
  it('has unique ids, and every case applies to at least one target', () => {
    const ids = EDGE_CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of EDGE_CASES)
      expect(
        EDGE_TARGETS.some((t) => c.targets(t)),
        c.id,
      ).toBe(true);
  });

  it('refuses by name a MODE the semantics cannot model (partial denormal modes, directed rounding), never guessing', async () => {
    const c = EDGE_CASES.find((x) => x.id === 'float-mode/default-float-mode-flushes-f32-keeps-f64')!;
    const t = EDGE_TARGETS[2];
    for (const [float_mode, why] of [
      [0xd0, /FP_DENORM \[5:4\] \(f32\) is 1/],
      [0x80, /FP_DENORM \[7:6\] \(f64\/f16\) is 2/],
      [0xc3, /FP_ROUND is 3/],
    ] as const) {
      const o = await replaySpec(edgeCaseSpec({ ...c, mode: { float_mode } }, t)!);
      expect(o.kind).toBe('refused');
      expect(o.kind === 'refused' ? o.reason : '').toMatch(why);
    }
  });

  it('catches a wrong expectation: one output word flipped is a mismatch, not a match', async () => {
    const c = EDGE_CASES.find((x) => x.kind === 'vector' && x.targets(EDGE_TARGETS[0]))!;
    const t = EDGE_TARGETS[0];
    const rows = rowsOf(c, t).map((r) => [...r]);
    rows[0][c.ins] = (rows[0][c.ins] ^ 1) >>> 0;
    const wrong: EdgeCase = { ...c, rows };
    const o = await replaySpec(edgeCaseSpec(wrong, t)!);
    expect(o.kind).toBe('mismatch');
  });
});
