/**
 * bench/run.ts's `app` benchmark: runs the Playwright benchmark (playwright.bench.config.ts,
 * e2e/bench/app.bench.ts) in a child process and records its figures in bench/results.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { machine, printFigures, writeResult, type Figure } from '../../bench/results.ts';

export function benchApp(): void {
  const dir = mkdtempSync(join(tmpdir(), 'gcn-bench-app-'));
  const out = join(dir, 'figures.json');
  const root = resolve(import.meta.dirname, '../..');
  try {
    const r = spawnSync('npx', ['playwright', 'test', '-c', 'playwright.bench.config.ts'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BENCH_APP_OUT: out },
    });
    if (r.status !== 0) throw new Error(`the app benchmark failed (exit ${r.status ?? r.signal})`);
    const figures = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Figure>;
    printFigures('app (Chromium, vite build + preview)', figures);
    writeResult('app', {
      measuredAt: new Date().toISOString(),
      machine: machine(),
      params: {
        loads: Number(process.env.BENCH_APP_LOADS ?? 5),
        scrollFrames: Number(process.env.BENCH_SCROLL_FRAMES ?? 600),
        scrollPx: Number(process.env.BENCH_SCROLL_PX ?? 120),
      },
      figures,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
