import { expect, test } from '@playwright/test';
import { SMOKE_WORKGROUP_SIZE, smokeExpected } from '../src/host/gpu-compute.ts';
import type { GpuSmokeResult } from '../src/ui/gpu-smoke.ts';

test('a WGSL compute dispatch through navigator.gpu reads back the known function', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const t0 = Date.now();
  await page.goto('/gpu-smoke.html');
  const status = page.getByTestId('gpu-smoke-result');
  await expect(status).not.toHaveAttribute('data-state', 'running');
  const r = await page.evaluate(() => window.__gpuSmoke as GpuSmokeResult);
  test.info().annotations.push({
    type: 'timing',
    description: `page load to result ${Date.now() - t0} ms; dispatch ${r.ms?.toFixed(1)} ms`,
  });
  // The adapter every WebGPU test of this run used, in the report (npm run e2e:gpu asks for a hardware one).
  const software = /swiftshader/i.test(r.adapter ?? '');
  const adapter =
    `WebGPU adapter: ${r.adapter || '(no name given)'}` +
    (software
      ? process.env.E2E_GPU === '1'
        ? ` (npm run e2e:gpu fell back to SwiftShader, software on the CPU: ${process.env.E2E_GPU_FALLBACK || 'Chromium gave no hardware adapter'})`
        : ' (SwiftShader, software on the CPU)'
      : ' (hardware)');
  test.info().annotations.push({ type: 'adapter', description: adapter });
  console.log(adapter);
  expect(r.error, `smoke page error: ${r.error}`).toBeUndefined();
  expect(errors).toEqual([]);
  const input = Uint32Array.from(r.input ?? []);
  const words = r.words ?? [];
  expect(input.length).toBeGreaterThan(0);
  expect(words.length).toBe((r.workgroups ?? 0) * SMOKE_WORKGROUP_SIZE);
  // Checked here, not only by the page.
  const bad: string[] = [];
  words.forEach((w, i) => {
    const e = smokeExpected(i, input);
    if (w !== e && bad.length < 10) bad.push(`[${i}] got 0x${w.toString(16)} expected 0x${e.toString(16)}`);
  });
  expect(bad).toEqual([]);
  await expect(status).toHaveAttribute('data-state', 'pass');
});
