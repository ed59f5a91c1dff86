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
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { SelectedRunOutcome } from '../src/ui/replay-page.ts';
import type { D983Manifest } from '../test/translator/d983-write-captures.ts';
import type { DirectoryVariant } from '../test/translator/d983-variants.ts';

test.describe.configure({ mode: 'serial' });

const DIR = 'test-results/d983-captures';
/** The page the texel-store tests share. */
let sharedPage: Page;
/** The page the running test replays on. */
let page: Page;
/** A resource-table test's own browser (see below). */
let ownBrowser: Browser | undefined;
let manifest: D983Manifest;

async function openReplayPage(browser: Browser): Promise<Page> {
  const p = await browser.newPage();
  p.on('pageerror', (e) => console.error(`replay page error: ${e.message}`));
  await p.goto('/replay.html');
  await p.waitForFunction(() => window.__replay !== undefined);
  const start = await p.evaluate(() => ({ ready: window.__replay!.ready, error: window.__replay!.error }));
  expect(start.error, 'the replay page did not start').toBeUndefined();
  return p;
}

const waveName = (wave64: boolean): string => (wave64 ? 'wave64' : 'wave32');

/** The capture of a test: written (and checked against its kernel's stated results) by d983-write-captures.ts. */
const served = (name: string): string => {
  const url = manifest.captures[name];
  if (!url) throw new Error(`no capture for ${name}`);
  return url;
};

/** The two forms of selected images (D017's texel store, D026's resource table), each test run in both. */
const FORMS = [
  { form: 'texel-store', title: 'texel store' },
  { form: 'resource-table', title: 'resource table' },
] as const;
type Form = (typeof FORMS)[number]['form'];

/** The device's features the resource-table form needs, as the page found them. */
let features: readonly string[] = [];
const RESOURCE_TABLE_NEEDS = ['subgroups', 'chromium-experimental-sampling-resource-table'];

const runSelectedIn =
  (form: Form) =>
  async (url: string, variant?: DirectoryVariant): Promise<SelectedRunOutcome> => {
    const o = await page.evaluate(([u, v, f]) => window.__replay!.runSelected!(u, v, f), [url, variant, form] as const);
    // The module read its texels where this test asked (a refusal before translation has no form).
    if (o.form !== undefined) expect(o.form).toBe(form);
    return o;
  };

test.beforeAll(async ({ browser }) => {
  test.setTimeout(5 * 60_000);
  execFileSync('npx', ['tsx', 'test/translator/d983-write-captures.ts', DIR], { stdio: 'inherit' });
  manifest = JSON.parse(readFileSync(join(DIR, 'd983-manifest.json'), 'utf8')) as D983Manifest;
  sharedPage = await openReplayPage(browser);
  features = await sharedPage.evaluate(() => window.__replay!.features ?? []);
});

test.afterAll(async () => {
  await sharedPage?.close();
});

for (const { form, title } of FORMS)
  test.describe(title, () => {
    // A resource-table test runs in a browser of its own: on SwiftShader a second, different
    // resource-table module in one GPU process crashes it ("A valid external Instance reference no
    // longer exists" here; a SIGSEGV in the driver's compiled code under Dawn for Node: D026, Known limits).
    test.beforeEach(async ({ playwright }) => {
      test.skip(
        form === 'resource-table' && !RESOURCE_TABLE_NEEDS.every((f) => features.includes(f)),
        `the adapter does not offer ${RESOURCE_TABLE_NEEDS.join(' and ')} (the resource-table form, D026)`,
      );
      if (form === 'resource-table') {
        ownBrowser = await playwright.chromium.launch(test.info().project.use.launchOptions);
        page = await openReplayPage(ownBrowser);
      } else page = sharedPage;
    });
    test.afterEach(async () => {
      await ownBrowser?.close();
      ownBrowser = undefined;
    });
    const runSelected = runSelectedIn(form);
    for (const wave64 of [false, true]) {
      const wave = waveName(wave64);

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
  });
