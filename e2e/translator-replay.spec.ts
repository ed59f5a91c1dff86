/**
 * Every capture of the test corpus replayed through the translator in Chromium's WebGPU
 * (issue 5): the compiled-kernel captures, the instruction edge cases and public/captures,
 * wave32 and wave64, each on replay.html (src/ui/replay-page.ts: `replayOnGpu` on
 * navigator.gpu's device). The captures and what each must give are written by
 * e2e/fixtures/replay-captures.ts from the tables the Node GPU tests check, so a verdict here
 * changes only when the translator (or those tables) does. One test per corpus and target
 * keeps each within its own timeout; every outcome must equal its expectation, so a
 * mismatch, a new refusal, a compile error or a lost device fails the test naming the capture.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { TARGETS } from '../test/corpus-kernels/targets.ts';
import { EDGE_TARGETS } from '../test/edge-cases/targets.ts';
import type { ReplayPageOutcome } from '../src/ui/replay-page.ts';
import {
  describeExpectation,
  meetsExpectation,
  REPLAY_CAPTURES_DIR,
  REPLAY_MANIFEST,
  type ReplayCorpus,
  type ReplayEntry,
  type ReplayManifest,
} from './fixtures/replay-captures-manifest.ts';

// The batches run in parallel (playwright.config.ts), each on its worker's page (one module
// instance a worker); the captures were written once by e2e/global-setup.ts.

/**
 * Per batch (up to ~100 captures). On SwiftShader each translated module takes seconds to compile
 * (bench/translator.ts measures Dawn's compile at 4-16 s a module on a loaded 2-core machine), so a
 * batch of edge cases can take tens of minutes.
 */
const BATCH_TIMEOUT_MS = 30 * 60_000;

interface Batch {
  readonly title: string;
  readonly corpus: ReplayCorpus;
  readonly target: string;
}

// The longest batch first (public/captures: light-shadows' modules take ~45 s each to compile),
// so that it never runs alone at the end while the other worker is idle.
const BATCHES: readonly Batch[] = [
  { title: 'public/captures', corpus: 'public', target: 'public' },
  ...EDGE_TARGETS.map((t) => ({
    title: `instruction edge cases, ${t.name} (wave${t.waveSize})`,
    corpus: 'edge-cases' as const,
    target: t.name,
  })),
  ...TARGETS.map((t) => ({
    title: `compiled kernels, ${t.name} (wave${t.waveSize})`,
    corpus: 'compiled-kernels' as const,
    target: t.name,
  })),
];

let manifest: ReplayManifest;
let page: Page | undefined;

/** Captures per `run` call: a page reload (below) costs at most this many replays again. */
const CHUNK = 8;
/** Page reloads a batch survives. */
const MAX_RELOADS = 5;

async function openReplayPage(p: Page): Promise<void> {
  await p.goto('/replay.html');
  await p.waitForFunction(() => window.__replay !== undefined);
  const start = await p.evaluate(() => ({ ready: window.__replay!.ready, error: window.__replay!.error }));
  expect(start.error, 'the replay page did not start').toBeUndefined();
  expect(start.ready).toBe(true);
}

async function replayPage(browser: Browser): Promise<Page> {
  if (page && !page.isClosed()) return page;
  const p = await browser.newPage();
  p.on('pageerror', (e) => console.error(`replay page error: ${e.message}`));
  await openReplayPage(p);
  page = p;
  return p;
}

/**
 * Replays `urls` on the page, CHUNK at a time. Vite's dev server reloads the page when a
 * module it imports changes on disk (someone editing the translator while the suite runs):
 * the chunk then runs again on the reloaded page, up to MAX_RELOADS times a batch.
 */
async function replayAll(
  browser: Browser,
  urls: readonly string[],
): Promise<{ outcomes: ReplayPageOutcome[]; reloads: number }> {
  const outcomes: ReplayPageOutcome[] = [];
  let reloads = 0;
  for (let at = 0; at < urls.length;) {
    const chunk = urls.slice(at, at + CHUNK);
    const p = await replayPage(browser);
    try {
      outcomes.push(...(await p.evaluate((u) => window.__replay!.run(u), chunk)));
      at += chunk.length;
      if (process.env.REPLAY_PROGRESS)
        console.log(`  ${at} of ${urls.length}: ${outcomes.at(-1)!.url} ${outcomes.at(-1)!.line.slice(0, 60)}`);
    } catch (e) {
      if (!/Execution context was destroyed|navigation/i.test(String(e)) || reloads >= MAX_RELOADS) throw e;
      reloads++;
      await openReplayPage(p);
    }
  }
  return { outcomes, reloads };
}

test.beforeAll(() => {
  manifest = JSON.parse(readFileSync(join(REPLAY_CAPTURES_DIR, REPLAY_MANIFEST), 'utf8')) as ReplayManifest;
});

test.afterAll(async () => {
  await page?.close();
});

test('the manifest holds every part of the corpus, wave32 and wave64, each capture in one batch', () => {
  const inBatch = (e: ReplayEntry) => BATCHES.filter((b) => b.corpus === e.corpus && b.target === e.target).length;
  expect(manifest.captures.filter((e) => inBatch(e) !== 1).map((e) => e.id)).toEqual([]);
  for (const corpus of ['compiled-kernels', 'edge-cases', 'public'] as const)
    expect(
      manifest.captures.some((e) => e.corpus === corpus),
      corpus,
    ).toBe(true);
  for (const wave of [32, 64] as const)
    for (const corpus of ['compiled-kernels', 'edge-cases'] as const)
      expect(
        manifest.captures.some((e) => e.corpus === corpus && e.waveSize === wave),
        `${corpus} wave${wave}`,
      ).toBe(true);
  expect(new Set(manifest.captures.map((e) => e.id)).size).toBe(manifest.captures.length);
});

/**
 * The compiled-kernel batches run only with REPLAY_COMPILED_KERNELS=1, for CI's time: measured
 * 2026-12-02 on this 2-core machine, with other work beside it, the five batches (208 captures)
 * took 5.6 min on two workers, 528 s of worker time (78-125 s a batch; the slowest
 * capture radv/subgroup_ops gfx704, 26 s), every verdict the Node tables' (203 match, the 5
 * refused by name). Added to the suite's ~24 minutes that is past "well under 30". Node runs
 * every one of them on Dawn in the unit suite (test/translator/corpus-kernels.gpu.test.ts); here
 * they are skipped by name, never sampled silently.
 */
const COMPILED_KERNELS_IN_CHROMIUM = process.env.REPLAY_COMPILED_KERNELS === '1';

for (const batch of BATCHES)
  test(batch.title, async ({ browser }) => {
    test.skip(
      batch.corpus === 'compiled-kernels' && !COMPILED_KERNELS_IN_CHROMIUM,
      'compiled kernels replay in Chromium only with REPLAY_COMPILED_KERNELS=1 (compile time on SwiftShader)',
    );
    test.setTimeout(BATCH_TIMEOUT_MS);
    const entries = manifest.captures.filter((e) => e.corpus === batch.corpus && e.target === batch.target);
    expect(entries.length, 'captures in this batch').toBeGreaterThan(0);
    const t0 = Date.now();
    const { outcomes, reloads } = await replayAll(
      browser,
      entries.map((e) => e.url),
    );
    const ms = Date.now() - t0;
    const devices = await (await replayPage(browser)).evaluate(() => window.__replay!.devicesCreated);
    expect(outcomes.length).toBe(entries.length);
    const wrong: string[] = [];
    const counts = new Map<string, number>();
    entries.forEach((e, i) => {
      const o: ReplayPageOutcome = outcomes[i];
      const kind = o.line.split(/[ :]/, 1)[0];
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      if (!meetsExpectation(e.expected, o.line))
        wrong.push(`${e.id}: expected ${describeExpectation(e.expected)} (${e.expectedFrom}); got ${o.line}`);
      else if (o.uncapturedErrors.length > 0)
        wrong.push(`${e.id}: ${o.line}, but WebGPU reported ${o.uncapturedErrors.join('; ')}`);
    });
    const slowest = outcomes.reduce((a, b) => (b.ms > a.ms ? b : a));
    test.info().annotations.push({
      type: 'timing',
      description:
        `${entries.length} captures in ${(ms / 1000).toFixed(1)} s (${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}); ` +
        `slowest ${slowest.url} ${slowest.ms.toFixed(0)} ms; devices on this page ${devices}; page reloads ${reloads}`,
    });
    console.log(`${batch.title}: ${test.info().annotations.at(-1)!.description}`);
    expect(wrong, `${wrong.length} of ${entries.length} captures differ from the Node tables' verdict`).toEqual([]);
  });
