/**
 * The expectation programs on a real device (Dawn for Node; SwiftShader without a GPU; no adapter
 * is a failure): each one's capture carries the interpreter's result as its expectation, and the
 * translated module must reproduce it exactly (a counted loop, a lane-mask sync point under a
 * narrowed EXEC, v_readfirstlane and s_barrier across two waves with LDS, a global atomic).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import { replayOnGpu } from '../../src/translator/gpu-replay.ts';
import { caseCapture, expectCases } from './expect-cases.ts';

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

describe('expectation programs on the GPU', () => {
  for (const name of expectCases())
    it(name, async () => {
      const o = await replayOnGpu(await caseCapture(name), gpu.device, { vector: await loadVectorBridge() });
      expect(o.kind === 'refused' || o.kind === 'invalid' ? `${o.kind}: ${o.reason}` : o.kind).toBe('match');
    });
});
