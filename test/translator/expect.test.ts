/**
 * Expectation tests of the translator (D011): each small program in expect/ (`<name>.s`, its
 * dispatch in the first line) and the module it must become (`<name>.wgsl`), compared exactly.
 * A change to the translator's output fails here until the files are written again
 * (`npx tsx test/translator/expect-cases.ts --write`) and the difference is reviewed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseWgsl, EXPECT_DIR, expectCases } from './expect-cases.ts';

describe('translated modules of the expectation programs', () => {
  const cases = expectCases();
  it('has the programs', () => expect(cases.length).toBeGreaterThanOrEqual(4));
  for (const name of cases)
    it(name, async () => {
      const want = readFileSync(join(EXPECT_DIR, `${name}.wgsl`), 'utf8');
      expect(await caseWgsl(name)).toBe(want);
    });
});
