/**
 * D983's tests in Chromium's WebGPU, by the names the seed gives them, each in wave32 and
 * wave64 (the Dawn for Node twins are test/translator/d983.gpu.test.ts). The captures are built
 * by test/translator/d983-write-captures.ts with the interpreter's expectation, which it checks
 * against the results the kernels state (d983-kernels.ts), before the page replays them (replay.html,
 * `window.__replay.runSelected`: the translator's replay on navigator.gpu, its directory
 * optionally rebuilt).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { SelectedRunOutcome } from '../src/ui/replay-page.ts';
import type { D983Manifest } from '../test/translator/d983-write-captures.ts';
import type { DirectoryVariant } from '../test/translator/d983-variants.ts';

test.describe.configure({ mode: 'serial' });

const DIR = 'test-results/d983-captures';
let page: Page;
let manifest: D983Manifest;

/** The capture of a test: written (and checked against its kernel's stated results) by d983-write-captures.ts. */
const served = (name: string): string => {
  const url = manifest.captures[name];
  if (!url) throw new Error(`no capture for ${name}`);
  return url;
};

const runSelected = (url: string, variant?: DirectoryVariant): Promise<SelectedRunOutcome> =>
  page.evaluate(([u, v]) => window.__replay!.runSelected!(u, v), [url, variant] as const);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(5 * 60_000);
  execFileSync('npx', ['tsx', 'test/translator/d983-write-captures.ts', DIR], { stdio: 'inherit' });
  manifest = JSON.parse(readFileSync(join(DIR, 'd983-manifest.json'), 'utf8')) as D983Manifest;
  page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`replay page error: ${e.message}`));
  await page.goto('/replay.html');
  await page.waitForFunction(() => window.__replay !== undefined);
  const start = await page.evaluate(() => ({ ready: window.__replay!.ready, error: window.__replay!.error }));
  expect(start.error, 'the replay page did not start').toBeUndefined();
});

test.afterAll(async () => {
  await page?.close();
});

for (const wave64 of [false, true]) {
  const wave = wave64 ? 'wave64' : 'wave32';

  test(`selected_images ${wave}`, async () => {
    test.setTimeout(10 * 60_000);
    const url = served(`selected_images ${wave}`);
    const plain = await runSelected(url);
    expect(plain.line).toBe('match');
    expect(plain.slots.map((s) => s.imagesBound)).toEqual([4, 4]);
    // Places reordered: every lane still reads its own image.
    expect((await runSelected(url, { order: [2, 0, 3, 1] })).line).toBe('match');
    // Record 2 left out: its 16 lanes escape at both accesses, and the result is refused with their words.
    const missing = await runSelected(url, { omit: 2 });
    expect(missing.line).toMatch(/^refused: 32 lane accesses selected an image its slot's directory does not hold/);
    expect(missing.escapes).toBe(32);
    for (const w of missing.escapedWords) expect(w).toEqual(manifest.record2);
  });

  test(`every_image_a_table_names_is_bound_and_found_by_its_descriptor ${wave}`, async () => {
    test.setTimeout(10 * 60_000);
    const o = await runSelected(served(`every_image_a_table_names_is_bound_and_found_by_its_descriptor ${wave}`));
    expect(o.line).toBe('match');
    expect(o.slots).toHaveLength(1);
    expect(o.slots[0]).toMatchObject({ recordsRead: 6, imagesBound: 4, emptyRecords: 1 });
    expect(Object.values(o.slots[0]!.leftOut).every((n) => n === 0)).toBe(true);
  });

  test(`each_lane_compares_the_image_it_selected_by_every_function ${wave}`, async () => {
    test.setTimeout(10 * 60_000);
    const o = await runSelected(served(`each_lane_compares_the_image_it_selected_by_every_function ${wave}`));
    expect(o.line).toBe('match');
    // Sixteen slots, function k % 8 in S# word 0 bits 14:12, bilinear (word 2 bits 23:20) from the ninth.
    expect(o.slots).toHaveLength(16);
    o.slots.forEach((s, k) => {
      expect(s.sampler?.traced).toBe(true);
      expect((s.sampler!.words[0]! >>> 12) & 7).toBe(k % 8);
      expect((s.sampler!.words[2]! >>> 20) & 0xf).toBe(k < 8 ? 0 : 5);
    });
  });

  test(`a_sampler_built_from_constants_is_traced ${wave}`, async () => {
    test.setTimeout(10 * 60_000);
    const o = await runSelected(served(`a_sampler_built_from_constants_is_traced ${wave}`));
    expect(o.line).toBe('match');
    expect(o.slots.map((s) => s.sampler)).toEqual([
      { words: manifest.formA, traced: true },
      { words: manifest.formB, traced: true },
    ]);
  });
}
