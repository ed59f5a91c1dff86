/**
 * The instruction layer against LLVM 19's conformance vectors (test/data/isa, copied from
 * ../shared/corpus/isa). Prints, per generation and direction, the share that matches;
 * fails when a share falls below the committed baseline (test/data/isa/baseline.json,
 * rewritten by `npm run isa:baseline` when shares rise), and reports the acceptance bar.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR } from './corpus-data.ts';
import { formatReport, scoreAll, sharesOf, TARGETS, type Shares } from './corpus-report.ts';

const baseline = JSON.parse(readFileSync(join(DATA_DIR, 'baseline.json'), 'utf8')) as Shares;

describe('LLVM 19 conformance corpus', () => {
  const reports = scoreAll();
  const shares = sharesOf(reports);
  console.log(`\n${formatReport(reports)}\n`);
  const below: string[] = [];
  for (const [gen, s] of Object.entries(shares)) {
    for (const [dir, v] of Object.entries(s)) {
      const target = TARGETS[dir.replace('Wave64', '') as keyof typeof TARGETS];
      if (v < target) below.push(`${gen} ${dir} ${(100 * v).toFixed(2)}% < ${(100 * target).toFixed(1)}%`);
    }
  }
  if (below.length) console.log(`below the acceptance bar:\n  ${below.join('\n  ')}`);

  for (const [gen, s] of Object.entries(shares)) {
    it(`${gen}: no share falls below the baseline`, () => {
      for (const [dir, v] of Object.entries(s)) {
        const floor = baseline[gen]?.[dir];
        expect(floor, `baseline for ${gen} ${dir}`).toBeDefined();
        // A share may rise (then the baseline is rewritten); it may not fall.
        expect(v, `${gen} ${dir}`).toBeGreaterThanOrEqual((floor ?? 1) - 1e-9);
      }
    });
  }
});
