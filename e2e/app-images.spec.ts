/**
 * The app's pictures and GPU escapes (issue 7): the bundled image-store capture opened by
 * `?capture=`, run on the interpreter and on WebGPU, shows each run's image beside the expected
 * one with a difference picture and a count of 0 differing texels (run-view.ts,
 * image-diff-view.ts); and a built capture whose last four lanes select an image the directory
 * leaves out (e2e/fixtures/escaping-table-spec.ts) lists those escapes from the WebGPU run,
 * each lane with its eight words, in the Tables and directory view. Screenshots are attached.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { withExpectationChanged } from './fixtures/misexpected.ts';
import { ESCAPING_LANES } from './fixtures/escaping-table-spec.ts';

const IMAGE_STORE_URL = '/?capture=captures/gfx1030-image-store.gcncap';

// The built capture (escaping-table-spec.ts), written once by tsx (see write-images-captures.ts).
let fixtures = '';
test.beforeAll(() => {
  fixtures = mkdtempSync(join(tmpdir(), 'gcn-webgpu-e2e-images-'));
  execFileSync('npx', ['tsx', 'e2e/fixtures/write-images-captures.ts', fixtures], { stdio: 'inherit' });
});

/** Bytes between rows of the written image (its spec stores row y at y * 256: the T#'s pitch of 64 texels). */
const ROW_PITCH = 256;
/** Texels (x, y) of the 32x32 image whose expected red byte misexpectedImage() flips. */
const FLIPPED_TEXELS = [
  [3, 5],
  [20, 9],
] as const;

/**
 * The bundled image-store capture with two texels of its expected image changed (red ^ 0xff), so a
 * run mismatches there and only there (e2e/fixtures/misexpected.ts).
 */
function misexpectedImage(): Uint8Array {
  return withExpectationChanged('public/captures/gfx1030-image-store.gcncap', (bytes) => {
    for (const [x, y] of FLIPPED_TEXELS) bytes[y * ROW_PITCH + x * 4]! ^= 0xff;
  });
}

async function screenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

async function openApp(page: Page, url: string): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 50_000 });
  return errors;
}

async function showView(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** A canvas's pixel at (x, y) of its own size, RGBA. */
const pixel = (canvas: Locator, x: number, y: number): Promise<number[]> =>
  canvas.evaluate(
    (c, [px, py]) => [...(c as HTMLCanvasElement).getContext('2d')!.getImageData(px!, py!, 1, 1).data],
    [x, y],
  );

/** One run's image: three labelled pictures, keyboard reachable, the written texels, 0 differing. */
async function expectSameImage(column: Locator, run: string): Promise<void> {
  const image = column.getByTestId('image-diff');
  await expect(image).toHaveCount(1);
  await expect(image).toHaveAttribute('data-differing-texels', '0');
  await expect(image.getByTestId('image-differing')).toHaveText('difference: 0 of 1024 texels differ');
  await expect(image.locator('figcaption').first()).toContainText("'written 32x32 rgba8_unorm'");
  await expect(image.locator('figcaption').first()).toContainText('32×32 8_8_8_8_UNORM');
  await expect(image.getByText(`got (${run})`)).toBeVisible();
  for (const id of ['image-expected', 'image-got', 'image-difference']) {
    const canvas = image.getByTestId(id);
    await expect(canvas).toBeVisible();
    await expect(canvas).toHaveAttribute('width', '32');
    await expect(canvas).toHaveAttribute('aria-label', /\S/);
    await canvas.focus();
    await expect(canvas).toBeFocused();
  }
  // Texel (31, 2): r = 255, g = round(2 * 255 / 31) = 16 (the spec's gradient); (0, 31): g = 255.
  for (const id of ['image-expected', 'image-got']) {
    expect(await pixel(image.getByTestId(id), 31, 2)).toEqual([255, 16, 0, 255]);
    expect(await pixel(image.getByTestId(id), 0, 31)).toEqual([0, 255, 0, 255]);
  }
  // Equal texels are black in the difference picture.
  expect(await pixel(image.getByTestId('image-difference'), 5, 7)).toEqual([0, 0, 0, 255]);
}

test('Run shows the image-store capture as pictures: expected, got and a difference of 0 texels', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const errors = await openApp(page, IMAGE_STORE_URL);
  await expect(page.getByTestId('capture-name')).toContainText('gfx1030-image-store.gcncap');
  await showView(page, 'Run');
  const run = page.getByTestId('run');
  await run.getByTestId('run-both').click();
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match');
  await expectSameImage(run.getByTestId('run-interp'), 'interpreter');
  const gpu = run.getByTestId('run-webgpu');
  await expect(gpu.getByTestId('gpu-verdict')).toHaveAttribute('data-verdict', 'match', { timeout: 90_000 });
  await expectSameImage(gpu, 'device');
  await expect(run.getByTestId('run-agreement')).toHaveAttribute('data-agree', 'true');
  await screenshot(page, info, 'run-images');
  expect(errors).toEqual([]);
});

test('Run shows a mismatching image: the differing texels lit in the difference picture and counted in words', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const errors = await openApp(page, IMAGE_STORE_URL);
  await page.getByTestId('file-input').setInputFiles({
    name: 'misexpected-image-store.gcncap',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(misexpectedImage()),
  });
  await expect(page.getByTestId('capture-name')).toContainText('misexpected-image-store.gcncap');
  await showView(page, 'Run');
  const run = page.getByTestId('run');
  await run.getByTestId('run-interpreter').click();
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'mismatch');
  const image = run.getByTestId('run-interp').getByTestId('image-diff');
  await expect(image).toHaveAttribute('data-differing-texels', String(FLIPPED_TEXELS.length));
  await expect(image.getByTestId('image-differing')).toHaveText(
    `difference: ${FLIPPED_TEXELS.length} of 1024 texels differ`,
  );
  const difference = image.getByTestId('image-difference');
  for (const [x, y] of FLIPPED_TEXELS) {
    // The expected texel changed, the written one did not: the two pictures differ there, and the difference is lit.
    const expected = await pixel(image.getByTestId('image-expected'), x, y);
    const got = await pixel(image.getByTestId('image-got'), x, y);
    expect(expected[0]).toBe(got[0]! ^ 0xff);
    expect((await pixel(difference, x, y)).slice(0, 3)).not.toEqual([0, 0, 0]);
  }
  // A texel both agree on stays black.
  expect(await pixel(difference, 5, 7)).toEqual([0, 0, 0, 255]);
  await screenshot(page, info, 'run-images-mismatch');
  expect(errors).toEqual([]);
});

test('Tables and directory lists the WebGPU run’s escapes with each lane and its eight words', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const errors = await openApp(page, IMAGE_STORE_URL);
  await page.getByTestId('file-input').setInputFiles({
    name: 'escaping-table.gcncap',
    mimeType: 'application/octet-stream',
    buffer: readFileSync(join(fixtures, 'escaping-table.gcncap')),
  });
  await expect(page.getByTestId('capture-name')).toContainText('escaping-table.gcncap');
  await showView(page, 'Tables and directory');
  const section = page.getByTestId('gpu-escapes');
  await expect(section.getByTestId('gpu-escapes-status')).toHaveText('not run on WebGPU yet');
  await showView(page, 'Run');
  const run = page.getByTestId('run');
  await run.getByTestId('run-both').click();
  // The interpreter samples the image the directory leaves out like any other: a match.
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match');
  const gpu = run.getByTestId('run-webgpu');
  await expect(gpu.getByTestId('gpu-verdict')).toHaveAttribute('data-verdict', 'refused', { timeout: 90_000 });
  await expect(gpu.getByTestId('gpu-escapes-note')).toContainText('4 lane accesses escaped');
  await showView(page, 'Tables and directory');
  // The interpreter's run: the same four lanes selected the record the directory leaves out, listed with its words.
  const interpreted = page.getByTestId('escapes').getByTestId('escapes-table').locator('tbody tr');
  await expect(interpreted).toHaveCount(1);
  const escaped = interpreted.first().locator('td');
  await expect(escaped.nth(0)).toHaveText('0');
  await expect(escaped.nth(1)).toHaveText('0');
  await expect(escaped.nth(2)).toHaveText('0');
  await expect(escaped.nth(4)).toHaveText(ESCAPING_LANES.join(', '));
  await expect(escaped.nth(5)).toHaveText(/^0x[0-9a-f]{8} 0x[0-9a-f]{8} 0x8fffcfff 0x90000fac( 0x00000000){4}$/);
  await expect(section.getByTestId('gpu-escapes-count')).toContainText(
    '4 lane accesses escaped (slot 0: 4), so the result was refused',
  );
  const rows = section.getByTestId('gpu-escapes-table').locator('tbody tr');
  await expect(rows).toHaveCount(ESCAPING_LANES.length);
  for (const [i, lane] of ESCAPING_LANES.entries()) {
    const cells = rows.nth(i).locator('td');
    await expect(cells.nth(0)).toHaveText('0');
    await expect(cells.nth(1)).toHaveText('0, 0, 0');
    await expect(cells.nth(3)).toHaveText(String(lane));
    // The 16384x16384 RGBA8 T#'s words (width - 1 = 0x3fff in word 2).
    await expect(cells.nth(5)).toHaveText(/^0x[0-9a-f]{8} 0x[0-9a-f]{8} 0x8fffcfff 0x90000fac( 0x00000000){4}$/);
  }
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'tables-gpu-escapes');
  expect(errors).toEqual([]);
});
