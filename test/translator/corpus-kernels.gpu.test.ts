/**
 * The compiled corpus on the GPU (Dawn for Node; SwiftShader without a GPU; no adapter is a
 * failure): every wrapped kernel × target, wave32 and wave64, translated and replayed. A pair
 * the translator refuses must be listed in gpu-refusals.ts with exactly that reason; any other
 * pair must give the interpreter's verdict (test/corpus-kernels/refusals.ts lists the pairs the
 * interpreter refuses; all others match there), so a pair that becomes translatable must then
 * match. Regenerate the table with `npx tsx test/translator/print-gpu-outcomes.ts --write`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { KERNELS } from '../corpus-kernels/kernels.ts';
import { REFUSED } from '../corpus-kernels/refusals.ts';
import { TARGETS } from '../corpus-kernels/targets.ts';
import { outcomeLine, replaySpecOnGpu } from './corpus-gpu.ts';
import { GPU_REFUSED } from './gpu-refusals.ts';

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

describe('compiled corpus kernels translated, on the GPU', () => {
  for (const k of KERNELS)
    describe(k.id, () => {
      for (const t of TARGETS) {
        const key = `${k.id} ${t.name}`;
        const spec = k.spec(t);
        if (spec === undefined) continue;
        it(t.name, { timeout: 300_000 }, async () => {
          const o = await replaySpecOnGpu(spec, gpu.device);
          const refused = GPU_REFUSED[key];
          if (refused !== undefined) expect(outcomeLine(o)).toBe(`refused: ${refused}`);
          else if (REFUSED[key] !== undefined) expect(o.kind).toBe('refused');
          else expect(outcomeLine(o)).toBe('match');
        });
      }
    });

  it('lists no pair twice and none that is not wrapped', () => {
    const keys = new Set(KERNELS.flatMap((k) => TARGETS.map((t) => `${k.id} ${t.name}`)));
    for (const key of Object.keys(GPU_REFUSED)) expect(keys.has(key)).toBe(true);
    // The translator refuses at least what the interpreter refuses.
    for (const key of Object.keys(REFUSED)) expect(GPU_REFUSED[key]).toBeDefined();
  });
});
