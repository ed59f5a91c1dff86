import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The unit files that take longest, in seconds on one vitest worker, measured 2026-12-02 on this
 * 2-core machine (fresh clone, two workers), only to order them. On a fresh clone (CI's) vitest has
 * no durations cached and runs larger files first, so a small file with a long run started late: the
 * compiled corpus (then one 325 s file) began at 452 s and ran alone for its last 107 s. Longest
 * first, each on whichever worker is free, the two workers end within about a file of each other
 * (D020, amendment of 2026-12-02). Files not listed (all under ~10 s) follow in vitest's own order.
 */
const MEASURED_SECONDS: Readonly<Record<string, number>> = {
  'src/translator/gpu-replay.gpu.test.ts': 248,
  'test/translator/edge-cases.gpu.test.ts': 195,
  'test/translator/d983-resource-table.gpu.test.ts': 99,
  'test/translator/spirv-modules.test.ts': 97,
  'test/translator/corpus-kernels-gfx704.gpu.test.ts': 76,
  'test/translator/images.gpu.test.ts': 68,
  'test/translator/corpus-kernels-gfx1030w64.gpu.test.ts': 64,
  'test/translator/corpus-kernels-gfx803.gpu.test.ts': 62,
  'test/translator/corpus-kernels-gfx900.gpu.test.ts': 62,
  'test/translator/corpus-kernels-gfx1030w32.gpu.test.ts': 61,
  'src/interp/jit/corpus-kernels.test.ts': 36,
  'test/translator/d983.gpu.test.ts': 29,
  'src/interp/jit/compile.test.ts': 25,
  'test/translator/d027-resource-table.gpu.test.ts': 18,
  'test/translator/fma.test.ts': 18,
  'src/translator/lower.test.ts': 17,
  'test/corpus-kernels/kernels.test.ts': 17,
  'src/translator/lower-f64.test.ts': 12,
  'test/translator/d027.gpu.test.ts': 11,
};

// A listed file that is renamed or removed fails here, not silently as an entry that orders nothing.
for (const file of Object.keys(MEASURED_SECONDS))
  if (!existsSync(join(import.meta.dirname, file))) throw new Error(`vitest.config.ts: no ${file} to order`);

class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (f: TestSpecification): number => MEASURED_SECONDS[relative(import.meta.dirname, f.moduleId)] ?? 0;
    // Array.prototype.sort is stable: unlisted files keep vitest's order among themselves.
    return (await super.sort(files)).sort((a, b) => seconds(b) - seconds(a));
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Dawn for Node and the corpus tests are CPU heavy; two workers match the CI machine.
    maxWorkers: 2,
    // Each worker process runs file after file with one module graph, instead of a fresh process
    // and a fresh import of the decoder, semantics and translator per file: measured 2026-12-02, the
    // 85 files outside the long list 104 -> 50 s (143 -> 89 s of CPU), the whole suite 996 s of CPU
    // against 1141 s. A file sets up its own state (each GPU file its own Dawn device, destroyed in
    // its afterAll). Resource-table modules (D026: a second one in a process crashes SwiftShader)
    // are only ever created in child processes (test/translator/d983-form-runs.ts), never here.
    isolate: false,
    sequence: { sequencer: LongestFirstSequencer },
  },
});
