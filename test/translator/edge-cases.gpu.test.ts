/**
 * The instruction edge-case captures (test/edge-cases) on the GPU (Dawn for Node; SwiftShader
 * without a GPU; no adapter is a failure): every case × target, wave32 and wave64, built into a
 * capture exactly as the interpreter's test builds it, translated and replayed. Each matches on
 * the interpreter (edge-cases.test.ts), so here a pair must match too, or be listed in
 * edge-gpu-refusals.ts with exactly the reason the translator gives. A mismatch is never listed:
 * it fails until the translator is fixed. Floats compare as each capture says (exact unless it
 * gives a tolerance). Regenerate the table with `npx tsx test/translator/print-edge-gpu-outcomes.ts --write`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { EDGE_CASES, edgeCaseSpec, EDGE_TARGETS } from '../edge-cases/index.ts';
import { outcomeLine, replaySpecOnGpu } from './corpus-gpu.ts';
import { EDGE_GPU_REFUSED } from './edge-gpu-refusals.ts';

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

describe('instruction edge cases translated, on the GPU', () => {
  for (const c of EDGE_CASES)
    describe(c.id, () => {
      for (const t of EDGE_TARGETS) {
        const spec = edgeCaseSpec(c, t);
        if (!spec) continue;
        it(t.name, { timeout: 120_000 }, async () => {
          const o = await replaySpecOnGpu(spec, gpu.device);
          const refused = EDGE_GPU_REFUSED[`${c.id} ${t.name}`];
          expect(outcomeLine(o)).toBe(refused === undefined ? 'match' : `refused: ${refused}`);
        });
      }
    });

  it('lists only pairs the corpus holds', () => {
    const keys = new Set(
      EDGE_CASES.flatMap((c) => EDGE_TARGETS.filter((t) => edgeCaseSpec(c, t)).map((t) => `${c.id} ${t.name}`)),
    );
    for (const key of Object.keys(EDGE_GPU_REFUSED)) expect(keys.has(key), key).toBe(true);
  });
});
