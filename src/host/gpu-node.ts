/**
 * A GPUDevice in Node, through Dawn for Node (the `webgpu` package). On machines with no
 * GPU, Dawn reaches Chromium's SwiftShader Vulkan driver: `VK_ICD_FILENAMES` is pointed at
 * it when the variable is unset and the file exists. The package is imported lazily, after
 * the variable is set, so the Vulkan loader sees it.
 */
import { existsSync } from 'node:fs';
import type * as WebGpuModule from 'webgpu';

/** Chromium's SwiftShader Vulkan ICD on Debian (installed with the `chromium` package). */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** No adapter (or no device) could be had; `reason` says why, and what to install. */
export class NoGpuAdapterError extends Error {
  override readonly name = 'NoGpuAdapterError';
  constructor(readonly reason: string) {
    super(`no WebGPU adapter in Node: ${reason}`);
  }
}

export interface NodeGpuOptions {
  /** Dawn toggles for `create()`, e.g. `enable-dawn-features=allow_unsafe_apis`. */
  readonly dawnOptions?: readonly string[];
  readonly powerPreference?: GPUPowerPreference;
  /** Features to request on the device (those the adapter lacks are an error). */
  readonly requiredFeatures?: readonly GPUFeatureName[];
}

export interface NodeGpu {
  readonly gpu: GPU;
  readonly adapter: GPUAdapter;
  readonly device: GPUDevice;
  /** The ICD file used, when this module chose one (undefined when the caller's environment did). */
  readonly icd: string | undefined;
}

/** Points the Vulkan loader at SwiftShader when nothing else was chosen; returns the file chosen. */
export function ensureVulkanIcd(): string | undefined {
  if (process.env.VK_ICD_FILENAMES) return undefined;
  if (!existsSync(SWIFTSHADER_ICD)) return undefined;
  process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  return SWIFTSHADER_ICD;
}

let installedGlobals = false;

/** Gets a Dawn-for-Node device. Throws `NoGpuAdapterError` naming the reason when none is available. */
export async function getNodeGpu(options: NodeGpuOptions = {}): Promise<NodeGpu> {
  const icd = ensureVulkanIcd();
  let mod: typeof WebGpuModule;
  try {
    mod = await import('webgpu');
  } catch (e) {
    throw new NoGpuAdapterError(`the 'webgpu' package (Dawn for Node) failed to load: ${(e as Error).message}`);
  }
  if (!installedGlobals) {
    // GPUBufferUsage, GPUMapMode, GPUShaderStage… as the browser has them.
    Object.assign(globalThis, mod.globals);
    installedGlobals = true;
  }
  const gpu = mod.create([...(options.dawnOptions ?? [])]);
  const adapterOptions: GPURequestAdapterOptions = {};
  if (options.powerPreference) adapterOptions.powerPreference = options.powerPreference;
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter(adapterOptions);
  } catch (e) {
    throw new NoGpuAdapterError(`requestAdapter failed: ${(e as Error).message}`);
  }
  if (!adapter) {
    const env = process.env.VK_ICD_FILENAMES;
    const hint = env
      ? `requestAdapter returned null with VK_ICD_FILENAMES=${env}` +
        (existsSync(env) ? '' : ' (that file does not exist)')
      : `requestAdapter returned null; VK_ICD_FILENAMES is unset and ${SWIFTSHADER_ICD} is missing`;
    throw new NoGpuAdapterError(
      `${hint}. Install the Vulkan loader and SwiftShader (\`npm run setup\`: Debian packages libvulkan1 and chromium).`,
    );
  }
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredFeatures: [...(options.requiredFeatures ?? [])] });
  } catch (e) {
    throw new NoGpuAdapterError(`requestDevice failed: ${(e as Error).message}`);
  }
  return { gpu, adapter, device, icd };
}

/** Just the device (see `getNodeGpu`). */
export async function getNodeDevice(options: NodeGpuOptions = {}): Promise<GPUDevice> {
  return (await getNodeGpu(options)).device;
}
