/**
 * Writes the captures of D983's Chromium tests (e2e/d983.spec.ts), each checked against the
 * results its kernel states (d983-kernels.ts) before it is written, and a manifest of their URLs
 * and the words the spec checks: `npx tsx test/translator/d983-write-captures.ts DIR`. (The
 * Playwright runner cannot load the capture builder itself: it imports JSON.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { readCapture } from '../../src/host/capture/index.ts';
import {
  comparesByEveryFunction,
  everyImageATableNames,
  FORM_A_WORDS,
  FORM_B_WORDS,
  samplerBuiltFromConstants,
  selectedImages,
  type D983Case,
} from './d983-kernels.ts';
import { d983CaptureBytes, D983_LANES, expectedOut, imageWords } from './d983-spec.ts';

/** What the spec reads. */
export interface D983Manifest {
  /** Test name (`selected_images wave32` ...) -> the capture's URL on the dev server. */
  readonly captures: Readonly<Record<string, string>>;
  readonly formA: readonly number[];
  readonly formB: readonly number[];
  /** The words of record 2's T# (the record left out of selected_images' directory). */
  readonly record2: readonly number[];
}

export const D983_MANIFEST = 'd983-manifest.json';

async function written(dir: string, c: D983Case): Promise<string> {
  const bytes = await d983CaptureBytes(c.kernel);
  const out = expectedOut(await readCapture(bytes), c.kernel.outWords);
  for (let g = 0; g < D983_LANES; g++) {
    const want = c.expected(g).map(Math.fround);
    const got = Array.from(out.subarray(g * c.kernel.outWords, (g + 1) * c.kernel.outWords));
    if (got.some((v, k) => v !== want[k]))
      throw new Error(
        `${c.kernel.name}: lane ${g}: the interpreter gives [${got.join(', ')}], the kernel states [${want.join(', ')}]`,
      );
  }
  const file = `${c.kernel.name.replace(/\W+/g, '-')}.gcncap`;
  writeFileSync(join(dir, file), bytes);
  return `/${[dir, file].join('/').split(sep).join('/')}`;
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: d983-write-captures.ts DIR (relative to the repository root)');
mkdirSync(dir, { recursive: true });
const captures: Record<string, string> = {};
for (const make of [selectedImages, everyImageATableNames, comparesByEveryFunction, samplerBuiltFromConstants])
  for (const wave64 of [false, true]) {
    const c = make(wave64);
    captures[c.kernel.name] = await written(dir, c);
  }
const manifest: D983Manifest = {
  captures,
  formA: FORM_A_WORDS,
  formB: FORM_B_WORDS,
  record2: Array.from(imageWords(2)),
};
writeFileSync(join(dir, D983_MANIFEST), JSON.stringify(manifest, null, 1));
console.log(`${Object.keys(captures).length} D983 captures written to ${dir}`);
