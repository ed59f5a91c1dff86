/**
 * The hand-written WGSL kernels (bench/wgsl/*.wgsl) that bench/translator.ts times beside
 * the translated compiled kernels of the same algorithm, and the one way they run: the input
 * in binding 0, the output in binding 1, one dispatch over every group, the output read back.
 * test/translator/hand-written.gpu.test.ts checks each against the corpus kernel's reference,
 * so the benchmark compares correct programs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const HAND_WRITTEN_KERNELS = ['divergent_loops', 'int_math', 'lds_prefix_sum'] as const;
export type HandWrittenKernel = (typeof HAND_WRITTEN_KERNELS)[number];

/** Each kernel's workgroup size and output words per invocation (the .comp sources' contracts). */
export const HAND_WRITTEN_SHAPE: Readonly<
  Record<HandWrittenKernel, { readonly workgroupSize: number; readonly outputWordsPerInvocation: number }>
> = {
  divergent_loops: { workgroupSize: 64, outputWordsPerInvocation: 2 },
  int_math: { workgroupSize: 64, outputWordsPerInvocation: 32 },
  lds_prefix_sum: { workgroupSize: 256, outputWordsPerInvocation: 1 },
};

export function handWrittenWgsl(kernel: HandWrittenKernel): string {
  return readFileSync(join(import.meta.dirname, 'wgsl', `${kernel}.wgsl`), 'utf8');
}

/** Runs `wgsl` (a kernel above) over `groups` workgroups on `input`; the output words. */
export async function runHandWritten(
  device: GPUDevice,
  kernel: HandWrittenKernel,
  wgsl: string,
  input: Uint32Array,
  groups: number,
): Promise<Uint32Array> {
  const shape = HAND_WRITTEN_SHAPE[kernel];
  const outBytes = groups * shape.workgroupSize * shape.outputWordsPerInvocation * 4;
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label: `hand-written ${kernel}`, code: wgsl });
  const layout = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: 'main' },
  });
  const inBuf = device.createBuffer({
    size: input.byteLength,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  const outBuf = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readBuf = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    device.queue.writeBuffer(inBuf, 0, input);
    const bindGroup = device.createBindGroup({
      layout,
      entries: [
        { binding: 0, resource: { buffer: inBuf } },
        { binding: 1, resource: { buffer: outBuf } },
      ],
    });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(groups);
    pass.end();
    encoder.copyBufferToBuffer(outBuf, 0, readBuf, 0, outBytes);
    device.queue.submit([encoder.finish()]);
    const error = await device.popErrorScope();
    if (error) throw new Error(`hand-written ${kernel}: ${error.message}`);
    await readBuf.mapAsync(GPUMapMode.READ);
    const out = new Uint32Array(readBuf.getMappedRange().slice(0));
    readBuf.unmap();
    return out;
  } finally {
    for (const b of [inBuf, outBuf, readBuf]) b.destroy();
  }
}
