/**
 * The app (index.html, src/ui): it opens on the bundled default capture, opens others by
 * `?capture=`, the file picker and a drop, runs the capture on the interpreter in a worker,
 * steps a wave, reports errors in the page and keeps working without a reload, and can be
 * used from the keyboard. Each view's screenshot is attached to its test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { withExpectationChanged } from './fixtures/misexpected.ts';

/** The bundled default (public/captures/index.json): D983's light-shadows (e2e/fixtures/d983-captures.ts). */
const DEFAULT = 'light-shadows.gcncap';
/** The small capture most tests open by URL: a buffer copy, quick to read and run. */
const BUFFER_COPY = 'gfx1030-buffer-copy.gcncap';
const BUFFER_COPY_URL = `/?capture=captures/${BUFFER_COPY}`;

/** Bytes that are not a capture (not a zip at all). */
const garbage = new Uint8Array([0x67, 0x61, 0x72, 0x62, 0x61, 0x67, 0x65, 0x00, 0xff, 0x13, 0x37]);

// The built captures (e2e/fixtures/prefix-sum.ts), written once by tsx (see write-captures.ts).
let fixtures = '';
test.beforeAll(() => {
  fixtures = mkdtempSync(join(tmpdir(), 'gcn-webgpu-e2e-'));
  execFileSync('npx', ['tsx', 'e2e/fixtures/write-captures.ts', fixtures], { stdio: 'inherit' });
});
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(fixtures, name)));
const prefixSumCapture = async (): Promise<Uint8Array> => fixture('prefix-sum.gcncap');
const refusingCapture = async (): Promise<Uint8Array> => fixture('refusing.gcncap');
const loopingCapture = async (): Promise<Uint8Array> => fixture('looping.gcncap');

/**
 * The bundled buffer copy with its expectation changed in two places (the low byte of elements 1
 * and 40), its blob re-hashed (D005: `blobs/<sha256>`): the copy then differs from what the capture
 * expects there, and only there (e2e/fixtures/misexpected.ts).
 */
function misexpectedCopy(): Uint8Array {
  return withExpectationChanged(`public/captures/${BUFFER_COPY}`, (bytes) => {
    for (const element of [1, 40]) bytes[element * 4]! ^= 0xff;
  });
}

async function screenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** A screenshot of what the window shows (a full-page one of seven directories takes too long to draw). */
async function viewScreenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** Opens the app (by default on the buffer copy) and waits until a capture is open. */
async function openApp(page: Page, url = BUFFER_COPY_URL): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  // The first load of a run has the dev server transform every module of the page and the worker.
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 50_000 });
  return errors;
}

async function pick(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.getByTestId('file-input').setInputFiles({
    name,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  });
}

async function showView(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

test('opens the buffer copy by ?capture= and lists its program from the entry', async ({ page }, info) => {
  const errors = await openApp(page);
  await expect(page).toHaveTitle('gcn-webgpu');
  await expect(page.getByTestId('capture-name')).toContainText(BUFFER_COPY);
  const program = page.getByTestId('program');
  await expect(program).toBeVisible();
  const lines = program.getByTestId('instruction');
  expect(await lines.count()).toBeGreaterThanOrEqual(7);
  await expect(lines.first().locator('.addr')).toHaveText('0000');
  await expect(lines.first().locator('.text')).toHaveText(/^s_load_dwordx8 s\[4:11\], s\[0:1\]/);
  await expect(program.locator('.line.ok .text').filter({ hasText: /^s_endpgm$/ })).toHaveCount(1);
  await expect(program.getByTestId('program-facts')).toContainText('entry at 0x10000000');
  await expect(page.getByTestId('status')).toContainText(`opened ${BUFFER_COPY}`);
  expect(errors).toEqual([]);
  await screenshot(page, info, 'program');
});

test('lists branch labels: the prefix-sum capture through the file picker', async ({ page }, info) => {
  await openApp(page);
  await pick(page, 'prefix-sum.gcncap', await prefixSumCapture());
  await expect(page.getByTestId('capture-name')).toContainText('prefix-sum.gcncap');
  const program = page.getByTestId('program');
  await expect(program.getByTestId('label')).toHaveText(['.L_0044:', '.L_0068:', '.L_00a4:']);
  await expect(program.getByTestId('instruction').filter({ hasText: 's_cbranch_scc1 .L_00a4' })).toHaveCount(1);
  await expect(program.getByTestId('instruction').filter({ hasText: 's_branch .L_0044' })).toHaveCount(1);
  // The s_code_end padding after s_endpgm is marked in words and folded.
  await expect(program.getByTestId('program-end')).toHaveCount(1);
  await expect(program.getByTestId('repeat')).toHaveCount(1);
  await screenshot(page, info, 'program-labels');
});

test('opens another bundled capture by ?capture= and by the file picker', async ({ page }) => {
  await openApp(page, '/?capture=captures/gfx7-vsharp-format-load.gcncap');
  await expect(page.getByTestId('capture-name')).toContainText('gfx7-vsharp-format-load.gcncap: gfx700 (gfx7) wave64');
  await expect(page.getByTestId('program').getByTestId('program-facts')).toContainText('gfx700 (gfx7), wave64');
  await page.getByTestId('file-input').setInputFiles('public/captures/gfx1030-image-sample.gcncap');
  await expect(page.getByTestId('capture-name')).toContainText('gfx1030-image-sample.gcncap');
  await expect(
    page
      .getByTestId('program')
      .getByTestId('instruction')
      .filter({ hasText: /^.*image_sample/ }),
  ).not.toHaveCount(0);
});

test('refuses ?capture= outside the app and shows why', async ({ page }) => {
  await page.goto('/?capture=https://example.com/x.gcncap');
  await expect(page.getByTestId('error')).toContainText('is not served with the app');
  await page.goto('/?capture=captures/no-such.gcncap');
  await expect(page.getByTestId('error')).toContainText(/captures\/no-such\.gcncap: (HTTP 404|not found)/);
});

test('Run on the interpreter: verdict match, timings, the expected range with nothing differing', async ({
  page,
}, info) => {
  await openApp(page);
  await showView(page, 'Run');
  const run = page.getByTestId('run');
  await expect(run.getByTestId('verdict')).toHaveText('not run yet');
  await run.getByTestId('run-interpreter').click();
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match');
  await expect(run.getByTestId('verdict')).toContainText('match: memory holds what the capture expects');
  await expect(run).toContainText('14 run in 2 waves of 2 groups');
  await expect(run).toContainText(/time\s*[\d.]+ ms/);
  const buffer = run.getByTestId('buffer');
  await expect(buffer).toHaveAttribute('data-differing', '0');
  await expect(buffer.getByTestId('buffer-row')).toHaveCount(64);
  await expect(buffer.getByTestId('buffer-row').nth(1)).toContainText('0x9e3779b1');
  await expect(buffer.getByTestId('buffer-row').nth(1)).toContainText('= same');
  await buffer.getByTestId('buffer-mode').selectOption('typed');
  await expect(buffer.getByTestId('buffer-row').nth(1)).toContainText(String(0x9e3779b1));
  // The WebGPU section names the adapter (SwiftShader here) and its features, or says why there is none.
  await expect(run.getByTestId('gpu-adapter').or(run.getByTestId('gpu-problem'))).toBeVisible();
  if (await run.getByTestId('gpu-adapter').isVisible())
    await expect(run.getByTestId('gpu-features').or(run.getByText('none beyond the core'))).toBeVisible();
  const adapter = await run
    .getByTestId('gpu-adapter')
    .textContent()
    .catch(() => null);
  info.annotations.push({ type: 'adapter', description: adapter ?? 'none' });
  await screenshot(page, info, 'run');
});

test('Run marks the elements that differ from the expectation, in words and not only by colour', async ({
  page,
}, info) => {
  await openApp(page);
  await pick(page, 'misexpected-copy.gcncap', misexpectedCopy());
  await expect(page.getByTestId('capture-name')).toContainText('misexpected-copy.gcncap');
  await showView(page, 'Run');
  const run = page.getByTestId('run');
  await run.getByTestId('run-interpreter').click();
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'mismatch');
  const buffer = run.getByTestId('buffer');
  await expect(buffer).toHaveAttribute('data-differing', '2');
  const rows = buffer.getByTestId('buffer-row');
  await expect(rows.nth(1)).toHaveClass(/differs/);
  await expect(rows.nth(1)).toContainText('≠ differs');
  await expect(rows.nth(40)).toContainText('≠ differs');
  await expect(rows.nth(2)).toContainText('= same');
  await expect(rows.nth(2)).not.toHaveClass(/differs/);
  // Only the differing elements, on request.
  await buffer.getByTestId('buffer-only-differing').check();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute('data-element', '1');
  await expect(rows.last()).toHaveAttribute('data-element', '40');
  await screenshot(page, info, 'run-mismatch');
});

test('Run on WebGPU beside the interpreter: both verdicts, timings, agreement; a lost device is a message', async ({
  page,
}, info) => {
  await openApp(page);
  await showView(page, 'Run');
  const run = page.getByTestId('run');
  await expect(run.getByTestId('gpu-verdict')).toHaveText('not run yet');
  await run.getByTestId('run-both').click();
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match');
  const gpu = run.getByTestId('run-webgpu');
  await expect(gpu.getByTestId('gpu-verdict')).toHaveAttribute('data-verdict', 'match', { timeout: 40_000 });
  await expect(gpu.getByTestId('gpu-verdict')).toContainText('match: the device left what the capture expects');
  await expect(gpu).toContainText('14 run in 2 waves of 2 groups');
  await expect(gpu.getByTestId('gpu-time')).toContainText(
    /[\d.]+ ms \(translate, upload, dispatch, read back, compare\)/,
  );
  await expect(gpu.getByTestId('gpu-time')).toContainText('run in the analysis worker');
  await expect(gpu.getByTestId('gpu-run-adapter')).not.toBeEmpty();
  await expect(run.getByTestId('run-agreement')).toHaveAttribute('data-agree', 'true');
  await expect(run.getByTestId('run-agreement')).toHaveText('The interpreter and the GPU agree: both match.');
  // The device's bytes as a table, every element the same as expected (replayOnGpu returns the memory).
  const gpuBuffer = gpu.getByTestId('buffer');
  await expect(gpuBuffer).toHaveAttribute('data-differing', '0');
  await expect(gpuBuffer.getByTestId('buffer-row')).toHaveCount(64);
  await expect(gpuBuffer.getByTestId('buffer-row').nth(1)).toContainText('0x9e3779b1');
  await expect(gpu.getByTestId('gpu-buffers-note')).toHaveCount(0);
  await screenshot(page, info, 'run-webgpu');
  // A lost device: the next run says so, gets a new device, and runs.
  expect(await page.evaluate(() => window.__gcnApp!.loseRunDevice())).toBe(true);
  await run.getByTestId('run-gpu').click();
  await expect(gpu.getByTestId('gpu-lost-before')).toContainText(
    'The GPU device was lost since the last run (destroyed',
  );
  await expect(gpu.getByTestId('gpu-verdict')).toHaveAttribute('data-verdict', 'match');
  // The interpreter column is untouched and still runs.
  await run.getByTestId('run-interpreter').click();
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match');
});

test('Run on WebGPU shows a refusal with its reason', async ({ page }) => {
  await openApp(page);
  await pick(page, 'refusing.gcncap', await refusingCapture());
  await expect(page.getByTestId('capture-name')).toContainText('refusing.gcncap');
  await showView(page, 'Run');
  const gpu = page.getByTestId('run-webgpu');
  await page.getByTestId('run-gpu').click();
  await expect(gpu.getByTestId('gpu-verdict')).toHaveAttribute('data-verdict', 'refused');
  await expect(gpu.getByTestId('gpu-reason')).toContainText('s_sendmsg');
});

test('Run shows a refusal by name, and a lost GPU device as a message', async ({ page }) => {
  await openApp(page);
  await pick(page, 'refusing.gcncap', await refusingCapture());
  await expect(page.getByTestId('capture-name')).toContainText('refusing.gcncap');
  await showView(page, 'Run');
  const run = page.getByTestId('run');
  await run.getByTestId('run-interpreter').click();
  await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'refused');
  await expect(run.getByTestId('run-reason')).toContainText('s_sendmsg');
  await expect(run.getByTestId('gpu-device')).toHaveText('a device is held for the GPU run');
  await page.evaluate(() => window.__gcnApp?.gpuDevice()?.destroy());
  await expect(run.getByTestId('gpu-device')).toContainText('The GPU device was lost (destroyed');
  await expect(run.getByRole('button', { name: 'Request a new device' })).toBeVisible();
  await run.getByRole('button', { name: 'Request a new device' }).click();
  await expect(run.getByTestId('gpu-device')).toHaveText('a device is held for the GPU run');
});

test('Step advances a wave and shows EXEC and the VGPRs of lane 3', async ({ page }, info) => {
  await openApp(page);
  await showView(page, 'Step');
  const step = page.getByTestId('step');
  await expect(step.getByTestId('step-pc')).toHaveText('0x0000');
  await expect(step.getByTestId('step-next')).toContainText('next: s_load_dwordx8');
  await step.getByTestId('step-lane').fill('3');
  await step.getByTestId('step-lane').press('Enter');
  await expect(step.getByRole('heading', { name: 'VGPRs of lane 3 (active in EXEC)' })).toBeVisible();
  await expect(step.getByTestId('vgpr-0')).toHaveText('0x00000003'); // lane 3's thread id
  await expect(step.getByTestId('step-exec')).toHaveText('0xffffffff (32 of 32 lanes)');
  await expect(step.getByTestId('step-vcc')).toHaveText('0x00000000');
  await expect(step.getByTestId('sgpr-0')).toBeVisible();
  await step.getByTestId('step-one').click();
  await expect(step.getByTestId('step-pc')).toHaveText('0x0008');
  await expect(step.getByTestId('step-status')).toContainText('wave 0 ran the instruction at 0x0');
  await expect(step.getByTestId('sgpr-4')).toContainText('0x30000000'); // the source V#'s base
  await expect(step.getByTestId('sgpr-4')).toHaveClass(/changed/);
  for (let i = 0; i < 3; i++) await step.getByTestId('step-one').click();
  await expect(step.getByTestId('step-next')).toContainText('s_waitcnt vmcnt(0)');
  await expect(step.getByTestId('vgpr-1')).toHaveText('• 0xdaa66d13'); // source[3], just loaded, marked
  await expect(step.getByTestId('vgpr-1')).toHaveClass(/changed/);
  await screenshot(page, info, 'step');
  await step.getByTestId('step-next-group').click();
  await expect(step.getByTestId('step-status')).toContainText('group 2 of 2 (id 1, 0, 0)');
  await step.getByTestId('step-next-group').click();
  await expect(step.getByTestId('step-status')).toContainText('all 2 groups have run');
  await expect(step.getByTestId('step-one')).toBeDisabled();
  await step.getByTestId('step-restart').click();
  await expect(step.getByTestId('step-status')).toContainText('group 1 of 2');
});

test('Step holds a wave at s_barrier until its group arrives (prefix sum, 8 waves)', async ({ page }) => {
  await openApp(page);
  await pick(page, 'prefix-sum.gcncap', await prefixSumCapture());
  await expect(page.getByTestId('capture-name')).toContainText('prefix-sum.gcncap');
  await showView(page, 'Step');
  const step = page.getByTestId('step');
  await expect(step.getByTestId('step-wave').locator('option')).toHaveCount(8);
  await step.getByTestId('step-ten').click();
  await step.getByTestId('step-ten').click();
  await expect(step.getByTestId('step-status')).toContainText(
    'wave 0 waits at s_barrier for waves 1, 2, 3, 4, 5, 6, 7',
  );
  await step.getByTestId('step-round').click();
  await expect(step.getByTestId('step-status')).toContainText('one round: 7 waves ran an instruction');
});

test('a malformed file shows an error; the app then opens a good capture without a reload', async ({ page }, info) => {
  await openApp(page);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await pick(page, 'garbage.gcncap', garbage);
  const error = page.getByTestId('error');
  await expect(error).toBeVisible();
  await expect(error).toContainText('garbage.gcncap is not a capture this app can open: not-a-zip');
  await expect(error).toContainText(`${BUFFER_COPY} is still open`);
  await expect(page.getByTestId('capture-name')).toContainText(BUFFER_COPY);
  await screenshot(page, info, 'error');
  await page.getByTestId('bundled').selectOption({
    label: 'typed buffer load through a V# (gfx700, wave64) (captures/gfx7-vsharp-format-load.gcncap)',
  });
  await page.getByTestId('open-bundled').click();
  await expect(page.getByTestId('capture-name')).toContainText('gfx7-vsharp-format-load.gcncap');
  await expect(error).toBeHidden();
  await showView(page, 'Run');
  await page.getByTestId('run-interpreter').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match');
  expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);
});

test('a dropped file opens', async ({ page }) => {
  await openApp(page);
  const bytes = Array.from(await refusingCapture());
  const transfer = await page.evaluateHandle((b) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(b)], 'dropped.gcncap'));
    return dt;
  }, bytes);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: transfer });
  await expect(page.getByText('Drop the file to open it as a capture')).toBeVisible();
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
  await expect(page.getByTestId('capture-name')).toContainText('dropped.gcncap');
});

test('long work runs in the worker with progress; Stop ends it and the app goes on', async ({ page }) => {
  await openApp(page);
  await pick(page, 'looping.gcncap', await loopingCapture());
  await expect(page.getByTestId('capture-name')).toContainText('looping.gcncap');
  // The translation and the tables are read first, in the same worker.
  await expect(page.locator('body')).toHaveAttribute('data-tables', 'done', { timeout: 40_000 });
  await showView(page, 'Run');
  await page.getByTestId('run-interpreter').click();
  await expect(page.getByTestId('status')).toContainText('running on the interpreter');
  await expect(page.getByTestId('stop')).toBeVisible();
  // The page is not frozen: another view opens while the interpreter runs.
  await showView(page, 'Tables and directory');
  await expect(page.getByTestId('tables')).toBeVisible();
  await page.getByTestId('stop').click();
  await showView(page, 'Run');
  await expect(page.getByTestId('run')).toContainText('stopped: the analysis worker was ended');
  await expect(page.getByTestId('stop')).toBeHidden();
  await showView(page, 'Step');
  await expect(page.getByTestId('step-pc')).toHaveText('0x0000'); // a fresh worker, the capture re-read
});

test('Modules: the WGSL and the SPIR-V text of the capture, highlighted; each instruction linked both ways with its WGSL', async ({
  page,
}, info) => {
  await openApp(page);
  await expect(page.locator('body')).toHaveAttribute('data-modules', 'done');
  // The SPIR-V is made when the Modules view is first shown, not with the WGSL: the tables do not wait for it.
  await expect(page.locator('body')).toHaveAttribute('data-tables', 'done');
  await expect(page.locator('body')).toHaveAttribute('data-spirv', 'waiting');
  await expect(page.getByTestId('module-spirv').getByTestId('spirv-status')).toHaveAttribute(
    'data-status',
    'spirv-waiting',
  );
  const program = page.getByTestId('program');
  // Every decoded instruction up to s_endpgm links to its own line of the WGSL: the translator's marker for it.
  const links = program.getByTestId('to-wgsl');
  await expect(links).toHaveCount(7);
  await expect(links.first()).toHaveText(/^→ WGSL \d+$/);
  const lines = await links.evaluateAll((all) => all.map((a) => (a as HTMLElement).dataset.line));
  expect(new Set(lines).size).toBe(7);
  // The third instruction, buffer_load_dword at 0x0010, shares block 1 with two others but has its own line.
  const load = program.locator('li', { hasText: 'buffer_load_dword' }).getByTestId('to-wgsl');
  const loadLine = await load.getAttribute('data-line');
  await load.click();
  await expect(page.getByRole('tab', { name: 'Modules' })).toHaveAttribute('aria-selected', 'true');
  const modules = page.getByTestId('modules');
  await expect(modules.getByTestId('modules-status')).toHaveAttribute('data-status', 'modules');
  await expect(modules.getByTestId('modules-status')).toContainText('Each instruction links to its marker');
  const wgsl = modules.getByTestId('wgsl');
  // The line the link led to is focused, and it is that instruction's marker: its guest address and name.
  const target = wgsl.locator('li.target');
  await expect(target).toBeFocused();
  await expect(target).toHaveAttribute('id', `wgsl-line-${loadLine}`);
  await expect(target.locator('code')).toHaveText(/^\s*\/\/ 0x10000010 buffer_load_dword$/);
  // Highlighting: keywords, types and comments are their own spans; the text is the translator's.
  await expect(wgsl.locator('.tok-keyword', { hasText: /^fn$/ }).first()).toBeVisible();
  await expect(wgsl.locator('.tok-type', { hasText: /^u32$/ }).first()).toBeVisible();
  await expect(wgsl.locator('li').first()).toHaveText(/^\/\/ gcn-webgpu translation \(D011\)/);
  expect(await wgsl.locator('li').count()).toBeGreaterThan(100);
  // SPIR-V: the disassembly of the module read from that WGSL, by spirv-tools' WebAssembly in the worker,
  // asked for now that the view is shown.
  await expect(page.locator('body')).toHaveAttribute('data-spirv', 'done');
  const spirvPanel = modules.getByTestId('module-spirv');
  await expect(spirvPanel.getByTestId('spirv-status')).toHaveAttribute('data-status', 'spirv');
  await expect(spirvPanel.getByTestId('spirv-status')).toContainText('disassembled by the spirv-tools package');
  const spirv = spirvPanel.getByTestId('spirv');
  await expect(spirv.locator('li', { hasText: 'OpEntryPoint GLCompute %main "main"' })).toHaveCount(1);
  await expect(spirv.locator('.tok-opcode', { hasText: /^OpEntryPoint$/ })).toHaveCount(1);
  await expect(spirv.locator('.tok-enumerant', { hasText: /^GLCompute$/ })).toHaveCount(1);
  await expect(spirv.locator('.tok-comment').first()).toHaveText('; SPIR-V');
  expect(await spirv.locator('li').count()).toBeGreaterThan(500);
  await screenshot(page, info, 'modules');
  await spirvPanel.scrollIntoViewIfNeeded();
  await viewScreenshot(page, info, 'modules-spirv');
  // And back: the marker's link leads to its instruction in the Program view.
  await target.getByTestId('wgsl-to-program').press('Enter');
  await expect(page.getByRole('tab', { name: 'Program' })).toHaveAttribute('aria-selected', 'true');
  await expect(program.locator('li.target')).toBeFocused();
  await expect(program.locator('li.target .addr')).toHaveText('0010');
  // A block's opening line (run order, D028) still links to the block's first instruction.
  await showView(page, 'Modules');
  await wgsl
    .locator('li', { hasText: /if \(pc == 1u\) \{ \/\/ 0x10000008/ })
    .getByTestId('wgsl-to-program')
    .click();
  await expect(page.getByRole('tab', { name: 'Program' })).toHaveAttribute('aria-selected', 'true');
  await expect(program.locator('li.target .addr')).toHaveText('0008');
});

test("Modules shows the translator's refusal with its reason", async ({ page }, info) => {
  // s_sendmsg has no meaning in the interpreter, whose program scan the translator runs first (D011).
  await openApp(page);
  await pick(page, 'refusing.gcncap', await refusingCapture());
  await expect(page.getByTestId('capture-name')).toContainText('refusing.gcncap');
  await expect(page.locator('body')).toHaveAttribute('data-modules', 'done');
  await showView(page, 'Modules');
  const status = page.getByTestId('modules').getByTestId('modules-status');
  await expect(status).toHaveAttribute('data-status', 'refused');
  await expect(status).toContainText(/the translator refused: .*s_sendmsg/);
  await expect(page.getByTestId('program').getByTestId('to-wgsl')).toHaveCount(0);
  // Shown, the view asks for the SPIR-V; there is none, and the panel says why.
  const spirv = page.getByTestId('module-spirv').getByTestId('spirv-status');
  await expect(spirv).toHaveAttribute('data-status', 'spirv-not-translated');
  await expect(spirv).toContainText('no SPIR-V: the translator made no WGSL module of this capture');
  await screenshot(page, info, 'modules-refused');
});

const IMAGE_TABLE = '/?capture=captures/gfx1030-image-table.gcncap#tables';

test('Tables: 65536 records of the image table, virtualised, filterable, each left-out record with its reason', async ({
  page,
}, info) => {
  await openApp(page, IMAGE_TABLE);
  await expect(page.locator('body')).toHaveAttribute('data-tables', 'done', { timeout: 40_000 });
  const tables = page.getByTestId('tables');
  const slot = tables.getByTestId('slot-table');
  await expect(slot).toHaveCount(1);
  await expect(slot).toContainText('65536 at 0x20000000: 278 distinct images');
  await expect(slot.getByTestId('records-count')).toHaveText('65536 of 65536 records');
  // Virtualised: a few dozen rows in the DOM, not 65536.
  const rows = slot.getByTestId('record');
  expect(await rows.count()).toBeLessThan(120);
  await expect(rows.first()).toHaveAttribute('data-record', '0');
  // The keyboard scrolls the box to the end, where the last record is drawn.
  await slot.getByTestId('records-scroll').focus();
  await page.keyboard.press('End');
  await expect(slot.locator('[data-record="65535"]')).toBeVisible();
  expect(await rows.count()).toBeLessThan(120);
  // Not bound: the records the host left out, each with why.
  await slot.getByTestId('records-bound-0').selectOption('not-bound');
  await expect(slot.getByTestId('records-count')).toHaveText('214 of 65536 records');
  await expect(rows.first()).toContainText('left out');
  await expect(rows.first().locator('.why')).not.toBeEmpty();
  await slot.getByTestId('records-type-0').selectOption('2d_msaa');
  await expect(slot.getByTestId('records-count')).toHaveText('4 of 65536 records');
  await expect(rows.first().locator('.why')).toContainText(
    'other-type: 2d_msaa: WebGPU cannot fill a multisampled texture',
  );
  await slot.getByTestId('records-type-0').selectOption('');
  await slot.getByTestId('records-bound-0').selectOption('bound');
  await slot.getByTestId('records-format-0').selectOption('32_FLOAT');
  await expect(slot.getByTestId('records-count')).toHaveText('16 of 65536 records');
  await expect(rows.first()).toContainText('bound');
  await screenshot(page, info, 'tables-records');
});

test('Directory: a labelled grid, arrow keys, a slot opened to its fields, every face, its sampler and its lanes', async ({
  page,
}, info) => {
  await openApp(page, IMAGE_TABLE);
  await expect(page.locator('body')).toHaveAttribute('data-tables', 'done', { timeout: 40_000 });
  const directory = page.getByTestId('directory');
  const cells = directory.getByTestId('directory-slot');
  await expect(cells).toHaveCount(1024);
  await expect(directory.locator('[data-testid="directory-slot"][data-occupied="true"]')).toHaveCount(278);
  // Labelled in words and by a digit, not only by colour.
  const occupied = directory.locator('[data-testid="directory-slot"][data-occupied="true"]').first();
  await expect(occupied).toHaveAttribute('aria-label', /^slot \d+: place \d+(, a cube)?, probe distance [0-3]/);
  await expect(occupied).toHaveText(/^[0-3]c?$/);
  // One Tab stop; the arrow keys move within the grid.
  await cells.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(cells.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(cells.nth(33)).toBeFocused();
  await expect(cells.nth(33)).toHaveAttribute('tabindex', '0');
  await expect(cells.first()).toHaveAttribute('tabindex', '-1');
  // A cube's place, from its record in the table, opens to six faces.
  const slot = page.getByTestId('slot-table');
  await slot.getByTestId('records-type-0').selectOption('cube');
  await expect(slot.getByTestId('records-count')).toHaveText('2 of 65536 records');
  const place = (await slot.getByTestId('record').first().locator('td').nth(2).textContent())!.trim();
  const cube = directory.locator(`[data-testid="directory-slot"][data-place="${place}"]`);
  await expect(cube).toHaveText(/c$/);
  await cube.focus();
  await page.keyboard.press('Enter');
  const detail = directory.getByTestId('slot-detail');
  await expect(detail.getByTestId('slot-title')).toContainText(`place ${place}`);
  await expect(detail.getByTestId('slot-image')).toContainText('cube 8_8_8_8_UNORM 4×4, 1 level, 6 slices');
  await expect(detail.getByTestId('thumbnail')).toHaveCount(6);
  await expect(detail.getByTestId('thumbnail').nth(1)).toContainText('level 0, face −x: 4×4');
  await expect(detail.getByTestId('slot-fields')).toContainText('type_name');
  await expect(detail.getByTestId('slot-sampler')).toContainText('clamp_last_texel');
  await expect(detail.getByTestId('slot-lanes')).toContainText('run the capture on the interpreter');
  // After an interpreter run, the slot of a selected image lists its lanes.
  await showView(page, 'Run');
  await page.getByTestId('run-interpreter').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match', { timeout: 40_000 });
  await showView(page, 'Tables and directory');
  await expect(detail.getByTestId('slot-lanes')).toContainText('no lane selected this descriptor');
  await slot.getByTestId('records-type-0').selectOption('');
  await slot.getByTestId('records-format-0').selectOption('32_FLOAT');
  const floatPlace = (await slot.getByTestId('record').first().locator('td').nth(2).textContent())!.trim();
  await directory.locator(`[data-testid="directory-slot"][data-place="${floatPlace}"]`).click();
  await expect(detail.getByTestId('slot-title')).toContainText(`place ${floatPlace}`);
  await expect(detail.getByTestId('slot-lanes')).toHaveAttribute('data-lanes', '1');
  await expect(detail.getByTestId('slot-lanes')).toContainText(/group \d, wave 0, at 0x0054: lane \d+/);
  await expect(detail.getByTestId('thumbnail')).toHaveCount(1);
  // A mipped image's slot, named so by its label, opens to every level, 8×8 down to 1×1.
  const mipped = directory.locator('[data-testid="directory-slot"][aria-label*=", 4 mip levels,"]');
  await expect(mipped).toHaveCount(4);
  await mipped.first().focus();
  await page.keyboard.press('Enter');
  await expect(detail.getByTestId('slot-image')).toContainText('8_8_8_8_UNORM 8×8, 4 levels, 1 slice');
  await expect(detail.getByTestId('thumbnail').locator('figcaption')).toHaveText([
    'level 0, slice 0: 8×8',
    'level 1, slice 0: 4×4',
    'level 2, slice 0: 2×2',
    'level 3, slice 0: 1×1',
  ]);
  await expect(page.getByTestId('escapes')).toContainText('none: every descriptor the lanes selected');
  await directory.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'directory');
});

test('Tables on a capture with no selecting slot says why there is no directory', async ({ page }, info) => {
  await openApp(page);
  await expect(page.locator('body')).toHaveAttribute('data-tables', 'done');
  await showView(page, 'Tables and directory');
  const tables = page.getByTestId('tables');
  await expect(tables.getByTestId('memory-ranges').locator('tbody tr')).toHaveCount(4);
  await expect(tables.getByTestId('descriptor')).toHaveCount(2);
  await tables.getByTestId('descriptor').first().locator('summary').click();
  await expect(tables.getByTestId('descriptor').first()).toContainText('num_records');
  const directory = tables.getByTestId('directory');
  await expect(directory.getByTestId('directory-status')).toContainText(
    'the program selects no image from a table at run time',
  );
  await expect(directory.getByTestId('directory-slot')).toHaveCount(0);
  await screenshot(page, info, 'tables');
});

test('keyboard: Tab reaches the view tabs; arrow keys, Home and End switch views', async ({ page }) => {
  await openApp(page);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('role'))) === 'tab') break;
  }
  const focused = page.locator(':focus');
  await expect(focused).toHaveAttribute('role', 'tab');
  await expect(focused).toHaveText('Program');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator(':focus')).toHaveText('Modules');
  await expect(page.getByTestId('modules')).toBeVisible();
  await expect(page.getByTestId('program')).toBeHidden();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator(':focus')).toHaveText('Step');
  await expect(page.getByTestId('step')).toBeVisible();
  await page.keyboard.press('End');
  await expect(page.locator(':focus')).toHaveText('Tables and directory');
  await page.keyboard.press('Home');
  await expect(page.locator(':focus')).toHaveText('Program');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator(':focus')).toHaveText('Tables and directory');
  await expect(page).toHaveURL(/#tables$/);
  // Tab from the selected tab goes into its panel, not to the other tabs.
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveAttribute('data-testid', 'tables');
});

test('the page says so when the analysis worker cannot load', async ({ page }) => {
  await page.route('**/src/ui/worker.ts*', (route) => route.fulfill({ status: 500, body: 'broken on purpose' }));
  await page.goto(BUFFER_COPY_URL);
  await expect(page.getByTestId('error')).toContainText('the analysis worker failed');
  await expect(page.getByRole('tab', { name: 'Program' })).toBeVisible();
});

test.describe('the bundled default: D983 light-shadows', () => {
  // 65536 records in each of seven slots' tables, and a dispatch of 2700 instructions a wave.
  test.describe.configure({ timeout: 240_000 });
  test('opens on light-shadows: its selections in the program, seven slot tables, a directory slot opened', async ({
    page,
  }, info) => {
    const errors = await openApp(page, '/');
    await expect(page.getByTestId('capture-name')).toContainText(DEFAULT);
    await expect(page.getByTestId('capture-name')).toContainText('gfx1013');
    const program = page.getByTestId('program');
    // The shadow maps' selecting loads and compares at D983's offsets.
    const at = (addr: string) =>
      program.getByTestId('instruction').filter({ has: page.locator('.addr', { hasText: new RegExp(`^${addr}$`) }) });
    await expect(at('28a0').locator('.text')).toHaveText('s_buffer_load_dwordx8 s[32:39], s[24:27], s7');
    await expect(at('291c').locator('.text')).toContainText('image_sample_c_lz');
    await expect(at('2948').locator('.text')).toHaveText('s_buffer_load_dwordx8 s[32:39], s[24:27], s7');
    await expect(at('299c').locator('.text')).toContainText('dim:SQ_RSRC_IMG_2D');
    await expect(page.locator('body')).toHaveAttribute('data-tables', 'done', { timeout: 60_000 });
    // Each access's descriptors say where they came from; the range opens to its classification.
    const compare = at('291c').getByTestId('origins');
    await expect(compare).toHaveAttribute('data-classification', 'selected');
    const texture = compare.locator('[data-testid="origin"][data-kind="T#"][data-registers="s[32:39]"]');
    const range = texture.locator('.origin-range > summary');
    await expect(range).toHaveText('T# s[32:39] ← table selection, waterfall');
    await expect(range).toHaveAttribute('title', /^T# s\[32:39\]: selected per lane from table/);
    await range.focus();
    await page.keyboard.press('Enter');
    await expect(texture.getByTestId('origin-chain')).toBeVisible();
    await expect(texture.getByTestId('origin-chain')).toContainText('selected per lane from table');
    // Each register of the range is its own control: hovering shows its own chain (the title), Enter lists it.
    const registers = texture.getByTestId('origin-register');
    await expect(registers.locator('summary')).toHaveText(['s32', 's33', 's34', 's35', 's36', 's37', 's38', 's39']);
    const s33 = texture.locator('[data-testid="origin-register"][data-register="s33"] > summary');
    await expect(s33).toHaveAttribute(
      'title',
      /^s33, dword 1 of T# s\[32:39\] \(table selection\)\n= load at .*dword 1 /,
    );
    await expect(s33).toHaveAttribute(
      'title',
      /s_buffer_load_dwordx8 s\[32:39\], s\[24:27\], s7: s33 = dword 1 of the load$/,
    );
    expect(await s33.getAttribute('title')).not.toContain('s32 = dword 0');
    await expect(s33).toHaveAttribute('aria-label', /^s33, dword 1 of T# s\[32:39\]: table selection\./);
    // The keyboard reaches every register: Tab from the range goes to s32, then s33.
    await page.keyboard.press('Tab');
    await expect(registers.first().locator('summary')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(s33).toBeFocused();
    await page.keyboard.press('Enter');
    const chain = texture.locator('[data-register="s33"]').getByTestId('register-chain');
    await expect(chain).toBeVisible();
    await expect(chain).toContainText('v_readfirstlane_b32 s7, v17');
    await expect(chain).toContainText('s33 = dword 1 of the load');
    await expect(chain).not.toContainText('s32 = dword 0');
    // Only the opened register lists its chain; opened, it covers no other control.
    await expect(texture.getByTestId('register-chain')).toHaveCount(1);
    await viewScreenshot(page, info, 'light-shadows-program');
    await compare.getByTestId('to-slot').click({ trial: true });
    // Enter again closes it.
    await page.keyboard.press('Enter');
    await expect(chain).toBeHidden();
    // Selecting the access's slot highlights it in the Tables view.
    const toSlot = compare.getByTestId('to-slot');
    const slotId = await toSlot.getAttribute('data-slot');
    await toSlot.click();
    await expect(page.getByRole('tab', { name: 'Tables and directory' })).toHaveAttribute('aria-selected', 'true');
    const slots = page.getByTestId('slot-table');
    await expect(slots).toHaveCount(7);
    await expect(page.locator(`[data-testid="slot-table"][data-slot="${slotId}"]`)).toHaveAttribute(
      'data-selected',
      'true',
    );
    await expect(page.locator('[data-testid="slot-table"][data-selected="true"]')).toHaveCount(1);
    // Filter the first slot's table to its bound 8_UNORM materials.
    const first = slots.first();
    await expect(first.getByTestId('records-count')).toHaveText('65536 of 65536 records');
    await first.getByTestId('records-format-0').selectOption('8_UNORM');
    await first.getByTestId('records-bound-0').selectOption('bound');
    await expect(first.getByTestId('records-count')).toHaveText(/^\d+ of 65536 records$/);
    await expect(first.getByTestId('record').first()).toContainText('bound');
    await viewScreenshot(page, info, 'light-shadows-tables');
    // Open an occupied directory slot: its decoded fields and its image's thumbnail.
    const directory = page.getByTestId('directory').first();
    const occupied = directory.locator('[data-testid="directory-slot"][data-occupied="true"]').first();
    await occupied.scrollIntoViewIfNeeded();
    await occupied.focus();
    await page.keyboard.press('Enter');
    const detail = directory.getByTestId('slot-detail');
    await expect(detail.getByTestId('slot-fields')).toContainText('type_name');
    await expect(detail.getByTestId('thumbnail').first()).toBeVisible();
    await expect(detail.getByTestId('slot-sampler')).not.toBeEmpty();
    await viewScreenshot(page, info, 'light-shadows-directory');
    expect(errors).toEqual([]);
  });

  test('runs light-shadows on the interpreter (match) and on WebGPU (a verdict shown), and steps a wave', async ({
    page,
  }, info) => {
    await openApp(page, '/');
    await expect(page.getByTestId('capture-name')).toContainText(DEFAULT);
    await showView(page, 'Run');
    const run = page.getByTestId('run');
    await run.getByTestId('run-both').click();
    await expect(run.getByTestId('verdict')).toHaveAttribute('data-verdict', 'match', { timeout: 60_000 });
    const gpu = run.getByTestId('run-webgpu');
    // The GPU replay of selected images is still being built: a match, or a refusal with its reason.
    await expect(gpu.getByTestId('gpu-verdict')).toHaveAttribute('data-verdict', /^(match|refused|mismatch)$/, {
      timeout: 150_000,
    });
    info.annotations.push({
      type: 'light-shadows on WebGPU',
      description: (await gpu.getByTestId('gpu-verdict').textContent()) ?? '',
    });
    await viewScreenshot(page, info, 'light-shadows-run');
    await showView(page, 'Step');
    const step = page.getByTestId('step');
    await expect(step.getByTestId('step-pc')).toHaveText('0x0000');
    await step.getByTestId('step-one').click();
    await expect(step.getByTestId('step-pc')).toHaveText('0x0008');
    await expect(step.getByTestId('step-exec')).toHaveText('0xffffffff (32 of 32 lanes)');
    await viewScreenshot(page, info, 'light-shadows-step');
    await showView(page, 'Modules');
    await expect(page.getByTestId('modules').getByTestId('modules-status')).toHaveAttribute('data-status', /.+/);
    await viewScreenshot(page, info, 'light-shadows-modules');
  });
});
