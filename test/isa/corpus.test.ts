/**
 * The instruction layer against LLVM 19's conformance vectors (test/data/isa, copied from
 * ../shared/corpus/isa). Prints, per generation and direction, the share that matches
 * and the acceptance bar; fails when a share falls below the committed baseline
 * (test/data/isa/baseline.json, `npm run isa:baseline`), or when a row mismatches that the
 * documented list (test/data/isa/known-mismatches.tsv, docs/isa-mismatches.md,
 * `npx tsx tools/isa-mismatches.ts`) does not hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR } from './corpus-data.ts';
import { formatReport, scoreAll, sharesOf, TARGETS, type Shares } from './corpus-report.ts';
import { classifyReport, mismatchKey, type ClassifiedMismatch } from './mismatch-reasons.ts';

const baseline = JSON.parse(readFileSync(join(DATA_DIR, 'baseline.json'), 'utf8')) as Shares;
const known = new Set(
  readFileSync(join(DATA_DIR, 'known-mismatches.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [gen, direction, key] = l.split('\t');
      return mismatchKey({ gen, direction, key });
    }),
);

describe('LLVM 19 conformance corpus', () => {
  const reports = scoreAll();
  const shares = sharesOf(reports);
  console.log(`\n${formatReport(reports)}\n`);
  const below: string[] = [];
  for (const [gen, s] of Object.entries(shares)) {
    for (const [dir, v] of Object.entries(s)) {
      const target = TARGETS[dir.replace('Wave64', '') as keyof typeof TARGETS];
      if (target !== undefined && v < target)
        below.push(`${gen} ${dir} ${(100 * v).toFixed(2)}% < ${(100 * target).toFixed(1)}%`);
    }
  }
  if (below.length) console.log(`below the acceptance bar:\n  ${below.join('\n  ')}`);
  const classified: ClassifiedMismatch[] = [];
  for (const [gen, r] of reports) classified.push(...classifyReport(gen, r));
  const byReason = new Map<string, number>();
  for (const m of classified) byReason.set(m.reason, (byReason.get(m.reason) ?? 0) + 1);
  console.log(`mismatches by documented reason: ${[...byReason].map(([k, n]) => `${k} ${n}`).join(', ')}`);

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

  it('every mismatch is in the documented list', () => {
    const missing = classified.filter((m) => !known.has(mismatchKey(m)));
    expect(
      missing.slice(0, 20).map((m) => `${m.gen} ${m.direction} ${m.key}: want ${m.expected}, got ${m.got}`),
      `${missing.length} mismatches not in test/data/isa/known-mismatches.tsv`,
    ).toEqual([]);
  });
});
