/**
 * One compute dispatch, start to finish: buffers, pipeline, dispatch, read-back. Runtime
 * neutral: it uses only the WebGPU API, so Node (Dawn for Node, see gpu-node.ts) and the
 * browser (navigator.gpu) share it. The GPU* usage constants are the runtime's globals.
 *
 * The shader's interface is fixed:
 *   @group(0) @binding(0) var<storage, read>       input:  array<u32>;
 *   @group(0) @binding(1) var<storage, read_write> output: array<u32>;
 * with a compute entry point named `main` (or `entryPoint`).
 */

export type Workgroups = number | readonly [number, number?, number?];

export interface ComputeOptions {
  readonly entryPoint?: string;
  readonly label?: string;
}

/** A WGSL compile, pipeline or dispatch error reported by the device (not a JS exception). */
export class GpuComputeError extends Error {
  override readonly name = 'GpuComputeError';
}

function workgroupCounts(w: Workgroups): [number, number, number] {
  if (typeof w === 'number') return [w, 1, 1];
  return [w[0], w[1] ?? 1, w[2] ?? 1];
}

/**
 * Runs `wgsl` once over `workgroups` and returns the first `outputWords` u32 of the output
 * buffer (zero-initialised before the dispatch). `inputs` fills the input buffer (at least
 * one word is allocated, so an empty input still binds).
 */
export async function runComputeOnce(
  device: GPUDevice,
  wgsl: string,
  inputs: Uint32Array,
  outputWords: number,
  workgroups: Workgroups,
  options: ComputeOptions = {},
): Promise<Uint32Array> {
  if (!Number.isInteger(outputWords) || outputWords <= 0)
    throw new RangeError(`outputWords must be a positive integer, not ${outputWords}`);
  const label = options.label ?? 'runComputeOnce';
  const [wx, wy, wz] = workgroupCounts(workgroups);

  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');

  const module = device.createShaderModule({ label, code: wgsl });
  const info = await module.getCompilationInfo();
  const compileErrors = info.messages.filter((m) => m.type === 'error');

  const inputBytes = Math.max(4, inputs.byteLength);
  const outputBytes = outputWords * 4;
  const input = device.createBuffer({
    label: `${label}.input`,
    size: inputBytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  const output = device.createBuffer({
    label: `${label}.output`,
    size: outputBytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const readback = device.createBuffer({
    label: `${label}.readback`,
    size: outputBytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    if (inputs.byteLength > 0) device.queue.writeBuffer(input, 0, inputs.buffer, inputs.byteOffset, inputs.byteLength);

    const bindGroupLayout = device.createBindGroupLayout({
      label,
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      ],
    });
    const pipeline = device.createComputePipeline({
      label,
      layout: device.createPipelineLayout({ label, bindGroupLayouts: [bindGroupLayout] }),
      compute: { module, entryPoint: options.entryPoint ?? 'main' },
    });
    const bindGroup = device.createBindGroup({
      label,
      layout: bindGroupLayout,
      entries: [
        { binding: 0, resource: { buffer: input } },
        { binding: 1, resource: { buffer: output } },
      ],
    });

    const encoder = device.createCommandEncoder({ label });
    const pass = encoder.beginComputePass({ label });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(wx, wy, wz);
    pass.end();
    encoder.copyBufferToBuffer(output, 0, readback, 0, outputBytes);
    device.queue.submit([encoder.finish()]);

    const validation = await device.popErrorScope();
    const oom = await device.popErrorScope();
    if (compileErrors.length > 0) {
      const text = compileErrors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('\n');
      throw new GpuComputeError(`WGSL compile error in ${label}:\n${text}`);
    }
    if (validation) throw new GpuComputeError(`validation error in ${label}: ${validation.message}`);
    if (oom) throw new GpuComputeError(`out of memory in ${label}: ${oom.message}`);

    await readback.mapAsync(GPUMapMode.READ);
    const result = new Uint32Array(readback.getMappedRange().slice(0));
    readback.unmap();
    return result;
  } finally {
    input.destroy();
    output.destroy();
    readback.destroy();
  }
}

// --- The smoke kernel shared by the Node test and the browser page ---------------------

/** Invocations per workgroup of SMOKE_WGSL. */
export const SMOKE_WORKGROUP_SIZE = 64;

/**
 * output[i] = (i * 0x9E3779B9) ^ input[i % len(input)] ^ (lid << 24), over every global
 * invocation i (lid: the local invocation index): a known function of the invocation ids.
 */
export const SMOKE_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

@compute @workgroup_size(${SMOKE_WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = gid.x;
  if (i >= arrayLength(&output)) { return; }
  output[i] = (i * 0x9E3779B9u) ^ input[i % arrayLength(&input)] ^ (lid << 24u);
}
`;

/** The smoke kernel's input: `n` words of a fixed pattern. */
export function smokeInput(n = 16): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = (Math.imul(i + 1, 0x01000193) ^ 0xa5a5a5a5) >>> 0;
  return a;
}

/** What SMOKE_WGSL must write at index i. */
export function smokeExpected(i: number, input: Uint32Array): number {
  return (Math.imul(i, 0x9e3779b9) ^ input[i % input.length] ^ ((i % SMOKE_WORKGROUP_SIZE) << 24)) >>> 0;
}

/** Indices where `got` differs from the smoke kernel's function (at most `limit` of them). */
export function smokeMismatches(
  got: Uint32Array,
  input: Uint32Array,
  limit = 10,
): { index: number; got: number; expected: number }[] {
  const out: { index: number; got: number; expected: number }[] = [];
  for (let i = 0; i < got.length && out.length < limit; i++) {
    const expected = smokeExpected(i, input);
    if (got[i] !== expected) out.push({ index: i, got: got[i], expected });
  }
  return out;
}
