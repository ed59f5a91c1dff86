/**
 * The compiled corpus on the GPU for one target (Dawn for Node; SwiftShader without a GPU; no
 * adapter is a failure): every wrapped kernel, translated and replayed. A pair the translator
 * refuses must be listed in gpu-refusals.ts with exactly that reason; any other pair must give the
 * interpreter's verdict (test/corpus-kernels/refusals.ts lists the pairs the interpreter refuses;
 * all others match there), so a pair that becomes translatable must then match. Each target's file,
 * corpus-kernels-<target>.gpu.test.ts, calls this once: one file a target, so that vitest's two
 * workers share the corpus (~65 s a target on SwiftShader) instead of one worker running all of it
 * while the other waits (D020, amendment of 2026-12-02). corpus-kernels.gpu.test.ts checks the tables
 * and that every target has its file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { KERNELS } from '../corpus-kernels/kernels.ts';
import { REFUSED } from '../corpus-kernels/refusals.ts';
import { TARGETS, type Target } from '../corpus-kernels/targets.ts';
import { outcomeLine, replaySpecOnGpu } from './corpus-gpu.ts';
import { GPU_REFUSED } from './gpu-refusals.ts';

export function describeCorpusKernelsOnGpu(targetName: Target['name']): void {
  const t = TARGETS.find((x) => x.name === targetName);
  if (t === undefined) throw new Error(`no corpus target ${targetName}`);

  let gpu: NodeGpu;
  beforeAll(async () => {
    gpu = await getNodeGpu();
  });
  afterAll(() => gpu?.device.destroy());

  describe(`compiled corpus kernels translated, on the GPU, ${t.name}`, () => {
    for (const k of KERNELS) {
      const key = `${k.id} ${t.name}`;
      const spec = k.spec(t);
      if (spec === undefined) continue;
      it(k.id, { timeout: 300_000 }, async () => {
        const o = await replaySpecOnGpu(spec, gpu.device);
        const refused = GPU_REFUSED[key];
        if (refused !== undefined) expect(outcomeLine(o)).toBe(`refused: ${refused}`);
        else if (REFUSED[key] !== undefined) expect(o.kind).toBe('refused');
        else expect(outcomeLine(o)).toBe('match');
      });
    }
  });
}
