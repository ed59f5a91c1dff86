/**
 * The app's benchmark (not a test: it asserts only that the page did what is timed). Run by
 * `BENCH_ONLY=app npm run bench` (bench/run.ts → e2e/bench/run-app-bench.ts), which passes
 * BENCH_APP_OUT, the file these figures go to.
 *
 * - interactive: from the server's answer to the document (the navigation's responseStart)
 *   to the default view being usable (the app's `gcn-webgpu:interactive` mark: the bundled
 *   default capture read, its program listed, every view's controls live); then to the Modules
 *   view's WGSL filled (the translation) and the Tables view filled. Each of BENCH_APP_LOADS
 *   fresh loads (default 5), median and max.
 * - SPIR-V: in as many fresh loads apart (so that the loads above are not timed after one), the
 *   Modules view shown once the tables are read, and the SPIR-V text it asks for then (D021)
 *   timed from that click to the text in the page (its lines made; layout and paint after).
 * - scrolling: the first slot's 65536-record table of the default capture (`light-shadows`, seven
 *   slots, e2e/fixtures/d983-captures.ts) scrolled by BENCH_SCROLL_PX a
 *   frame (default 120 px, about 5 rows) for BENCH_SCROLL_FRAMES frames (default 600), the
 *   requestAnimationFrame deltas' median, p95 and max, and the rows in the DOM at the end.
 */
import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

const envInt = (name: string, fallback: number): number => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}=${process.env[name]} is not a positive integer`);
  return n;
};
const LOADS = envInt('BENCH_APP_LOADS', 5);
const SCROLL_FRAMES = envInt('BENCH_SCROLL_FRAMES', 600);
const SCROLL_PX = envInt('BENCH_SCROLL_PX', 120);

const figures: Record<string, { value: number | null; unit: string; note?: string }> = {};

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
const median = (xs: readonly number[]): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

test('interactive default view after the server answers', async ({ page }) => {
  const interactive: number[] = [];
  const modules: number[] = [];
  const tables: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    await page.goto(`/?bench=${i}`);
    await expect(page.locator('body')).toHaveAttribute('data-tables', 'done');
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const mark = (name: string): number => performance.getEntriesByName(name)[0]!.startTime - nav.responseStart;
      return {
        interactive: mark('gcn-webgpu:interactive'),
        modules: mark('gcn-webgpu:modules'),
        tables: mark('gcn-webgpu:tables'),
      };
    });
    interactive.push(t.interactive);
    modules.push(t.modules);
    tables.push(t.tables);
  }
  figures.interactiveMedian = { value: median(interactive), unit: 'ms', note: `${LOADS} loads, from responseStart` };
  figures.interactiveMax = { value: Math.max(...interactive), unit: 'ms' };
  figures.modulesFilledMedian = { value: median(modules), unit: 'ms', note: 'the WGSL translated and shown' };
  figures.tablesFilledMedian = { value: median(tables), unit: 'ms', note: 'the tracer and the directory read' };
});

test('the SPIR-V text after the Modules view is first shown', async ({ page }) => {
  const spirv: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    await page.goto(`/?bench=spirv-${i}`);
    await expect(page.locator('body')).toHaveAttribute('data-tables', 'done');
    const shownAt = await page.evaluate(() => {
      const at = performance.now();
      document.querySelector<HTMLElement>('#tab-modules')!.click();
      return at;
    });
    await expect(page.locator('body')).toHaveAttribute('data-spirv', 'done');
    await expect(page.getByTestId('spirv-status')).toHaveAttribute('data-status', 'spirv');
    const shown = await page.evaluate(() => performance.getEntriesByName('gcn-webgpu:spirv')[0]!.startTime);
    spirv.push(shown - shownAt);
  }
  figures.spirvAfterShownMedian = {
    value: median(spirv),
    unit: 'ms',
    note: `${LOADS} loads: from showing the Modules view to its SPIR-V text (read from the WGSL, disassembled, its lines made)`,
  };
});

test('frame times scrolling the 65536-record table', async ({ page }) => {
  await page.goto('/#tables');
  await expect(page.locator('body')).toHaveAttribute('data-tables', 'done');
  await expect(page.getByTestId('capture-name')).toContainText('light-shadows.gcncap');
  await expect(page.getByTestId('records-count').first()).toHaveText('65536 of 65536 records');
  const r = await page.evaluate(
    async ({ frames, px }) => {
      const box = document.querySelector<HTMLElement>('[data-testid="records-scroll"]')!;
      box.scrollIntoView({ block: 'center' });
      const deltas: number[] = [];
      await new Promise<void>((done) => {
        let last = 0;
        let n = 0;
        const tick = (t: number): void => {
          if (last) deltas.push(t - last);
          last = t;
          if (n++ >= frames) return done();
          box.scrollTop += px;
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      const last = box.querySelectorAll('tr.record');
      return {
        deltas,
        rows: last.length,
        lastRecord: Number(last[last.length - 1]?.getAttribute('data-record') ?? -1),
        scrolled: box.scrollTop,
      };
    },
    { frames: SCROLL_FRAMES, px: SCROLL_PX },
  );
  expect(r.lastRecord).toBeGreaterThan(1000); // the rows followed the scroll
  const sorted = [...r.deltas].sort((a, b) => a - b);
  const note = `${SCROLL_FRAMES} frames of ${SCROLL_PX} px (${(r.scrolled / 22).toFixed(0)} rows), headless Chromium`;
  figures.scrollFrameMedian = { value: quantile(sorted, 0.5), unit: 'ms', note };
  figures.scrollFrameP95 = { value: quantile(sorted, 0.95), unit: 'ms' };
  figures.scrollFrameMax = { value: sorted[sorted.length - 1]!, unit: 'ms' };
  figures.scrollRowsInDom = { value: r.rows, unit: 'rows', note: 'of 65536: the table is virtualised' };
});

test.afterAll(() => {
  const out = process.env.BENCH_APP_OUT;
  if (out) writeFileSync(out, JSON.stringify(figures, null, 2));
  else console.log(JSON.stringify(figures, null, 2));
});
