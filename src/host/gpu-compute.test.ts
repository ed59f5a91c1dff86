/**
 * A real compute dispatch through Dawn for Node (SwiftShader on machines without a GPU).
 * No adapter is a failure, not a skip: `npm run setup` installs what is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNodeGpu, NoGpuAdapterError, type NodeGpu } from './gpu-node.ts';
import {
  GpuComputeError,
  runComputeOnce,
  SMOKE_WGSL,
  SMOKE_WORKGROUP_SIZE,
  smokeInput,
  smokeMismatches,
} from './gpu-compute.ts';

describe('runComputeOnce on Dawn for Node', () => {
  let gpu: NodeGpu;

  beforeAll(async () => {
    gpu = await getNodeGpu();
  });

  afterAll(() => {
    gpu?.device.destroy();
  });

  it('gets an adapter and a device', () => {
    expect(gpu.adapter).toBeTruthy();
    expect(gpu.device.limits.maxComputeWorkgroupSizeX).toBeGreaterThanOrEqual(SMOKE_WORKGROUP_SIZE);
  });

  it('writes the known function of every invocation id', async () => {
    const workgroups = 16;
    const n = workgroups * SMOKE_WORKGROUP_SIZE;
    const input = smokeInput(37);
    const out = await runComputeOnce(gpu.device, SMOKE_WGSL, input, n, workgroups);
    expect(out.length).toBe(n);
    expect(smokeMismatches(out, input)).toEqual([]);
  });

  it('leaves words past the dispatch at zero', async () => {
    const input = smokeInput(5);
    // 2 workgroups of 64 cover 128 words; the shader's bounds check keeps it inside 100.
    const out = await runComputeOnce(gpu.device, SMOKE_WGSL, input, 100, [2, 1, 1]);
    expect(smokeMismatches(out, input)).toEqual([]);
    const partial = await runComputeOnce(gpu.device, SMOKE_WGSL, input, 200, 1);
    expect(smokeMismatches(partial.subarray(0, 64), input)).toEqual([]);
    expect(Array.from(partial.subarray(64)).every((w) => w === 0)).toBe(true);
  });

  it('reports a WGSL error as GpuComputeError', async () => {
    await expect(
      runComputeOnce(gpu.device, 'fn main() { let x: u32 = ; }', new Uint32Array(1), 4, 1),
    ).rejects.toBeInstanceOf(GpuComputeError);
  });

  it('names its error', () => {
    const e = new NoGpuAdapterError('test');
    expect(e.name).toBe('NoGpuAdapterError');
    expect(e.message).toContain('test');
  });
});
