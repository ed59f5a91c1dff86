/**
 * Expectation tests of the translator (D011): each small program in expect/ (`<name>.s`, its
 * dispatch in the first line) and the module it must become (`<name>.wgsl`, without the shared
 * runtime, which `runtime.wgsl` holds once), compared exactly.
 * Beside each, `<name>.spvasm`: the whole module read into SPIR-V (D016), which must pass
 * spirv-val, disassembled (or `SKIP: reason` where the disassembler cannot take it, which must
 * still be so), compared exactly.
 * A change to the translator's output fails here until the files are written again
 * (`npx tsx test/translator/expect-cases.ts --write`) and the difference is reviewed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSpirv } from '../../src/translator/spirv/validate.ts';
import {
  caseSpirv,
  caseSpirvText,
  caseWgsl,
  EXPECT_DIR,
  expectCases,
  programPart,
  runtimeText,
  RUNTIME_LINE,
  SKIP_PREFIX,
} from './expect-cases.ts';

describe('translated modules of the expectation programs', () => {
  const cases = expectCases();
  it('has the programs', () => expect(cases.length).toBeGreaterThanOrEqual(7));
  it('the shared runtime', () => {
    expect(readFileSync(join(EXPECT_DIR, 'runtime.wgsl'), 'utf8')).toBe(runtimeText());
    expect(() => programPart('fn main() {}')).toThrow(/0 times/);
  });
  it('runs blocks in run order, and through the dispatcher only where the graph is not reducible (D028)', async () => {
    for (const name of cases) {
      const wgsl = await caseWgsl(name);
      expect(wgsl.includes('switch pc {'), name).toBe(name === 'irreducible-loop');
    }
  });
  for (const name of cases)
    it(name, async () => {
      const want = readFileSync(join(EXPECT_DIR, `${name}.wgsl`), 'utf8');
      expect(want).toContain(RUNTIME_LINE);
      expect(await caseWgsl(name)).toBe(want);
    });
});

describe('the same modules as SPIR-V', () => {
  for (const name of expectCases())
    it(name, async () => {
      const v = validateSpirv(await caseSpirv(name), 'vulkan1.2');
      expect(v.messages).toBe('');
      const want = readFileSync(join(EXPECT_DIR, `${name}.spvasm`), 'utf8');
      const got = await caseSpirvText(name);
      // A skipped file must still be one the disassembler cannot take (so a skip cannot go stale).
      if (want.startsWith(SKIP_PREFIX)) expect(got.startsWith(SKIP_PREFIX)).toBe(true);
      else expect(got).toBe(want);
      expect(got).toMatch(want.startsWith(SKIP_PREFIX) ? /^SKIP: / : /OpEntryPoint GLCompute %main "main"/);
    });
});
