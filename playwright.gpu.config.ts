import { defineConfig } from '@playwright/test';
import { probeHardwareGpu } from './e2e/hardware-gpu.ts';
import base from './playwright.config.ts';

/**
 * `npm run e2e:gpu`: the same Playwright tests, with Chromium asked for a hardware WebGPU
 * adapter (issue 6): Vulkan on the machine's own driver, the GPU blocklist ignored, no
 * presentation surface (headless). Where the machine has no GPU (e2e/hardware-gpu.ts decides,
 * before the browser starts), the run keeps the default flags, so Chromium uses SwiftShader,
 * and says so here and in the report: e2e/gpu-smoke.spec.ts prints the adapter every test
 * of the run used, and names a fallback as one.
 */
const HARDWARE_WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=vulkan',
  '--use-vulkan=native',
  '--ignore-gpu-blocklist',
  '--disable-vulkan-surface',
];

const probe = probeHardwareGpu();
// Printed once, by the runner (workers load this file too, with TEST_WORKER_INDEX set).
if (process.env.TEST_WORKER_INDEX === undefined)
  console.log(
    probe.present
      ? `e2e:gpu: asking Chromium for a hardware WebGPU adapter (${probe.reason})`
      : `e2e:gpu: no hardware GPU here (${probe.reason}): the tests run on SwiftShader`,
  );
process.env.E2E_GPU_FALLBACK = probe.present ? '' : probe.reason;

const baseArgs = base.use?.launchOptions?.args ?? [];

export default defineConfig({
  ...base,
  use: {
    ...base.use,
    launchOptions: {
      ...base.use?.launchOptions,
      args: probe.present
        ? [...baseArgs.filter((a) => a !== '--enable-unsafe-webgpu'), ...HARDWARE_WEBGPU_FLAGS]
        : baseArgs,
    },
  },
});
