/**
 * The hand-written WGSL kernels the translator's benchmark times (bench/wgsl, run by
 * bench/hand-written.ts) give the corpus kernels' reference results on the GPU (Dawn for Node;
 * SwiftShader here): each runs on the inputs of its corpus kernel's capture spec
 * (test/corpus-kernels, int_math's edge inputs included) and must write exactly the words the
 * spec expects, which the kernel's TypeScript reference computed. So the benchmark's
 * translated-vs-hand-written figure compares two correct programs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { HAND_WRITTEN_KERNELS, HAND_WRITTEN_SHAPE, handWrittenWgsl, runHandWritten } from '../../bench/hand-written.ts';
import type { Json, Spec } from '../corpus-kernels/common.ts';
import { KERNELS } from '../corpus-kernels/kernels.ts';
import { TARGETS } from '../corpus-kernels/targets.ts';

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

/** The u32 words of a spec's data entry (`u32(...)` in common.ts). */
function words(data: Json | undefined, what: string): Uint32Array {
  const d = data as { type?: string; values?: number[] } | undefined;
  if (d?.type !== 'u32' || !Array.isArray(d.values)) throw new Error(`${what} is not a u32 data entry`);
  return Uint32Array.from(d.values);
}

/** The input words, the expected output words and the group count of a RADV corpus kernel's spec. */
function specIo(spec: Spec): { input: Uint32Array; expected: Uint32Array; groups: number } {
  const memory = spec.memory as readonly { name?: string; data?: Json }[];
  const expected = (spec.expected as { memory: readonly { address: string; data: Json }[] }).memory;
  const out = expected.find((e) => e.address === 'out');
  return {
    input: words(memory.find((m) => m.name === 'in')?.data, 'memory "in"'),
    expected: words(out?.data, 'expected "out"'),
    groups: ((spec.grid as number[] | undefined) ?? [1])[0],
  };
}

describe('hand-written WGSL of the benchmark kernels', () => {
  for (const name of HAND_WRITTEN_KERNELS)
    it(`${name} writes the corpus kernel's reference results`, async () => {
      const kernel = KERNELS.find((k) => k.id === `radv/${name}`);
      expect(kernel, `radv/${name} in test/corpus-kernels`).toBeDefined();
      const spec = kernel!.spec(TARGETS.find((t) => t.name === 'gfx1030w32')!)!;
      const { input, expected, groups } = specIo(spec);
      const shape = HAND_WRITTEN_SHAPE[name];
      expect(expected.length).toBe(groups * shape.workgroupSize * shape.outputWordsPerInvocation);
      const got = await runHandWritten(gpu.device, name, handWrittenWgsl(name), input, groups);
      const wrong: string[] = [];
      for (let i = 0; i < expected.length && wrong.length < 8; i++)
        if (got[i] !== expected[i])
          wrong.push(
            `[${i}] (invocation ${Math.floor(i / shape.outputWordsPerInvocation)}) got ${got[i]} want ${expected[i]}`,
          );
      expect(wrong).toEqual([]);
    });
});
