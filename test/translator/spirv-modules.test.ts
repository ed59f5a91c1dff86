/**
 * Every translated module of the test corpus as SPIR-V (issue 5, D016): the compiled kernels ×
 * targets, the instruction edge cases × targets, the public captures and the expectation
 * programs, each translated to WGSL on the CPU (no device), read into SPIR-V by the WGSL
 * reader and validated by `spirv-val --target-env vulkan1.2` (two validators at a time).
 * A module the translator refuses is skipped only where its refusal table lists it by name
 * (gpu-refusals.ts, edge-gpu-refusals.ts, the public captures' list below; a listed one that
 * translates now is read and validated like any other); a module the reader
 * cannot read, or whose SPIR-V the validator rejects, fails with its name and the reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateSpirvFiles } from '../../src/translator/spirv/validate.ts';
import { spirvFromWgsl, UnsupportedWgsl } from '../../src/translator/spirv/wgsl-reader/index.ts';
import { EDGE_GPU_REFUSED } from './edge-gpu-refusals.ts';
import { GPU_REFUSED } from './gpu-refusals.ts';
import { corpusSources, translateSource, type CorpusGroup } from './translated-modules.ts';

/** Public captures the translator refuses, by name (none since D017 translates gfx1030-image-table). */
const PUBLIC_REFUSED: ReadonlySet<string> = new Set<string>();

/** Where each group's refusals are listed, by key. */
const LISTED: Record<CorpusGroup, (key: string) => boolean> = {
  kernel: (key) => GPU_REFUSED[key] !== undefined,
  edge: (key) => EDGE_GPU_REFUSED[key] !== undefined,
  public: (key) => PUBLIC_REFUSED.has(key),
  expect: () => false,
};

/** Each group holds at least this many modules that translate (so an empty run cannot pass). */
const AT_LEAST: Record<CorpusGroup, number> = { kernel: 180, edge: 600, public: 4, expect: 7 };

const dir = mkdtempSync(join(tmpdir(), 'gcn-spirv-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every translated module of the corpus passes spirv-val', () => {
  const sources = corpusSources();
  for (const group of ['expect', 'public', 'kernel', 'edge'] as const)
    it(group, { timeout: 600_000 }, async () => {
      const problems: string[] = [];
      const files: string[] = [];
      const keys: string[] = [];
      for (const s of sources.filter((x) => x.group === group)) {
        const m = await translateSource(s);
        if (m.kind !== 'wgsl') {
          if (!LISTED[group](s.key)) problems.push(`${s.key}: ${m.kind}, not listed: ${m.reason}`);
          continue;
        }
        let words: Uint32Array;
        try {
          words = spirvFromWgsl(m.wgsl, { names: false });
        } catch (e) {
          if (!(e instanceof UnsupportedWgsl)) throw e;
          problems.push(`${s.key}: the reader refuses the translator's WGSL: ${e.message}`);
          continue;
        }
        const file = join(dir, `${group}-${files.length}.spv`);
        writeFileSync(file, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
        files.push(file);
        keys.push(s.key);
      }
      const results = await validateSpirvFiles(files, { targetEnv: 'vulkan1.2', concurrency: 2 });
      results.forEach((r, i) => {
        if (!r.ok) problems.push(`${keys[i]}: spirv-val: ${r.messages.slice(0, 400)}`);
      });
      expect(problems).toEqual([]);
      expect(files.length).toBeGreaterThanOrEqual(AT_LEAST[group]);
    });
});
