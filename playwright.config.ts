import { defineConfig } from '@playwright/test';

// E2E_PORT: another port, so that runs in parallel on one machine do not share (or stop) each other's server.
const PORT = Number(process.env.E2E_PORT ?? 5173);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// The system Chromium (Debian's /usr/bin/chromium); Playwright never downloads a browser here.
// WebGPU needs --enable-unsafe-webgpu (SwiftShader when there is no GPU) and a page served
// from 127.0.0.1 (a secure context). The machine has no network: the other flags keep
// Chromium from trying. We run as root, so the sandbox is off.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Two workers, one a core, and every test on whichever is free (a spec that shares one page
  // across its tests, d983.spec.ts, says `serial`): the replay batches are compile-bound on
  // SwiftShader, the app tests mostly wait for the page, so the two overlap well (measured: 13.3
  // -> 11.1 min with the app spec on one worker). E2E_WORKERS=1 runs them one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: true,
  globalSetup: './e2e/global-setup.ts',
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : 'list',
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
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
    command: `npx vite --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: BASE_URL,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
