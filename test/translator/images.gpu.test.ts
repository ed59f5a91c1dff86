/**
 * Image instructions on the GPU (D015): each case of images-cases.ts is a small capture whose
 * expectation is the interpreter's result (exact, or within FILTERED_SAMPLE_ULPS for a filtered
 * result), replayed through the translator on Dawn (SwiftShader here) and compared with it. Each
 * fault case is one the interpreter refuses: the module must report the fault that names why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { isUnavailable } from '../../src/host/capture/manifest.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import { replayOnGpu, replayTranslated, translateCapture } from '../../src/translator/gpu-replay.ts';
import { IMAGE_CASES, IMAGE_FAULT_CASES } from './images-cases.ts';
import { imageCapture, imageCaptureUnchecked, OUT_FILL } from './images-spec.ts';

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

describe('image instructions on the GPU match the interpreter', () => {
  for (const c of IMAGE_CASES)
    it(
      c.name,
      async () => {
        const capture = await imageCapture(c);
        const expected = capture.manifest.expected;
        if (isUnavailable(expected)) throw new Error('no expectation');
        // The expectation is not trivial: every word was written, and lanes differ unless the case says not.
        const out = capture.blob(expected.memory[0]!.blob!);
        const words = new Uint32Array(out.slice().buffer);
        expect(words.every((w) => w !== OUT_FILL * 0x01010101)).toBe(true);
        expect(new Set(words).size > 1).toBe(c.uniform !== true);
        const o = await replayOnGpu(capture, gpu.device);
        if (o.kind !== 'match') throw new Error(`${c.name}: ${JSON.stringify(o).slice(0, 1500)}`);
        expect(o.kind).toBe('match');
      },
      120_000,
    );
});

describe('image instructions the interpreter refuses fault by name in the module', () => {
  for (const c of IMAGE_FAULT_CASES)
    it(
      c.name,
      async () => {
        // The interpreter refuses it (so the capture has no expectation to build)…
        await expect(imageCapture(c)).rejects.toThrow(c.refused);
        // …and the module runs it and reports the fault instead of a result.
        const capture = await imageCaptureUnchecked(c);
        const t = translateCapture(capture, gpu.device, { vector: await loadVectorBridge() });
        if ('kind' in t) throw new Error(`${c.name}: not translated: ${t.reason}`);
        const o = await replayTranslated(capture, gpu.device, t);
        if (o.kind !== 'refused') throw new Error(`${c.name}: ${JSON.stringify(o).slice(0, 600)}`);
        expect(o.reason).toMatch(c.fault);
      },
      120_000,
    );
});
