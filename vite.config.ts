import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

// The app shell (index.html), and the WebGPU smoke page (gpu-smoke.html) and translator replay page
// (replay.html) the e2e tests open.
export default defineConfig({
  root: '.',
  // Relative asset paths: the built app works from any directory it is served from.
  base: './',
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  // The analysis worker (src/ui/worker.ts) is a module worker: ES output keeps its imports.
  worker: { format: 'es' },
  // spirv-tools is imported only by the worker's code, which the dev server meets after start-up:
  // pre-bundled up front, so a first use on an empty cache (CI's fresh clone) does not make Vite
  // re-optimise and reload the page under a running test.
  optimizeDeps: { include: ['spirv-tools'] },
  build: {
    target: 'es2022',
    // The instruction registry's generated tables make the app chunk large by nature.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      input: {
        main: resolve(root, 'index.html'),
        'gpu-smoke': resolve(root, 'gpu-smoke.html'),
        replay: resolve(root, 'replay.html'),
      },
    },
  },
});
