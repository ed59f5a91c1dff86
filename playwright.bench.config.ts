import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * The app's benchmark (e2e/bench/app.bench.ts), not a test: `BENCH_ONLY=app npm run bench`
 * runs it through bench/run.ts, which writes its figures to bench/results.json. It times the
 * app as it ships: built by Vite and served by `vite preview`, in the same Chromium as the
 * e2e tests (playwright.config.ts), WebGPU on SwiftShader.
 */
const PORT = 4174;
const OUT = join(tmpdir(), 'gcn-webgpu-bench-app');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e/bench',
  testMatch: '*.bench.ts',
  outputDir: join(tmpdir(), 'gcn-webgpu-bench-results'),
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 300_000,
  expect: { timeout: 120_000 },
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--enable-unsafe-webgpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `npx vite build --outDir ${OUT} --emptyOutDir --logLevel warn && npx vite preview --outDir ${OUT} --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
