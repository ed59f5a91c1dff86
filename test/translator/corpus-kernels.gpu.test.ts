/**
 * The compiled corpus on the GPU: every wrapped kernel × target, wave32 and wave64, translated and
 * replayed on Dawn for Node, one file a target (corpus-kernels-<target>.gpu.test.ts, each through
 * corpus-kernels-on-gpu.ts, which states the rule: a pair the translator refuses is listed in
 * gpu-refusals.ts with exactly its reason, any other gives the interpreter's verdict). Here: the
 * tables name only wrapped pairs, and every target has its file, so none is left out of the suite.
 * Regenerate the table with `npx tsx test/translator/print-gpu-outcomes.ts --write`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KERNELS } from '../corpus-kernels/kernels.ts';
import { REFUSED } from '../corpus-kernels/refusals.ts';
import { TARGETS } from '../corpus-kernels/targets.ts';
import { GPU_REFUSED } from './gpu-refusals.ts';

describe('compiled corpus kernels translated, on the GPU', () => {
  it('lists no pair twice and none that is not wrapped', () => {
    const keys = new Set(KERNELS.flatMap((k) => TARGETS.map((t) => `${k.id} ${t.name}`)));
    for (const key of Object.keys(GPU_REFUSED)) expect(keys.has(key)).toBe(true);
    // The translator refuses at least what the interpreter refuses.
    for (const key of Object.keys(REFUSED)) expect(GPU_REFUSED[key]).toBeDefined();
  });

  it('runs every target in a file of its own, and no file names another target', () => {
    const files = readdirSync(import.meta.dirname).filter((f) => /^corpus-kernels-.+\.gpu\.test\.ts$/.test(f));
    expect(files.sort()).toEqual(TARGETS.map((t) => `corpus-kernels-${t.name}.gpu.test.ts`).sort());
    for (const t of TARGETS)
      expect(readFileSync(join(import.meta.dirname, `corpus-kernels-${t.name}.gpu.test.ts`), 'utf8')).toContain(
        `describeCorpusKernelsOnGpu('${t.name}');`,
      );
  });
});
