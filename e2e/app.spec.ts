import { expect, test } from '@playwright/test';

test('the main page shows the bundled sample program disassembled', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page).toHaveTitle('gcn-webgpu');
  const program = page.getByTestId('program');
  await expect(program).toBeVisible();
  const lines = program.getByTestId('instruction');
  await expect(lines.first()).toBeVisible();
  expect(await lines.count()).toBeGreaterThanOrEqual(1);
  // Every line has an address and either instruction text or the DecodeError for it.
  const first = lines.first();
  await expect(first.locator('.addr')).toHaveText('0000');
  await expect(first.locator('.words')).toHaveText('be800303');
  await expect(first.locator('.text, .error')).not.toBeEmpty();
  const decoded = Number(await program.getAttribute('data-decoded'));
  const undecoded = Number(await program.getAttribute('data-errors'));
  test.info().annotations.push({ type: 'decoded', description: `${decoded} decoded, ${undecoded} undecoded dwords` });
  // Lines shown plus the lines folded into "N more" runs cover every decoded instruction and error.
  const folded = (
    await program.getByTestId('repeat').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))))
  ).reduce((a, b) => a + b, 0);
  expect(decoded + undecoded).toBe((await lines.count()) + folded);
  await expect(page.getByTestId('status')).toContainText('instructions decoded');
  // At least one line is a decoded instruction (its llvm-mc text), not only DecodeErrors.
  expect(decoded).toBeGreaterThanOrEqual(1);
  await expect(program.locator('.line.ok .text').first()).toHaveText(/^[a-z_0-9]+/);
  expect(errors).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('app.png'), fullPage: true });
  await test.info().attach('app', { path: test.info().outputPath('app.png'), contentType: 'image/png' });
});

test('the --mcpu selector re-renders the listing', async ({ page }) => {
  await page.goto('/');
  const program = page.getByTestId('program');
  await expect(program).toHaveAttribute('data-mcpu', 'gfx1030');
  await page.getByLabel('--mcpu').selectOption('gfx1100');
  await expect(page.getByTestId('program')).toHaveAttribute('data-mcpu', 'gfx1100');
  expect(await page.getByTestId('instruction').count()).toBeGreaterThanOrEqual(1);
});

test('the page still shows the program when the decoder fails to load', async ({ page }) => {
  // The decoder is written concurrently; a module that does not load must not blank the page.
  await page.route('**/src/isa/decoder.ts*', (route) => route.fulfill({ status: 500, body: 'broken on purpose' }));
  await page.goto('/');
  const program = page.getByTestId('program');
  await expect(program).toBeVisible();
  await expect(program.getByTestId('instruction').first().locator('.words')).toHaveText('be800303');
  await expect(program.getByTestId('instruction').first().locator('.error')).toContainText(
    'the decoder failed to load',
  );
});
