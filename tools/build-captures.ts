/**
 * Rebuilds `public/captures/*.gcncap` from the specs in `test/captures/specs/`
 * (`npx tsx tools/build-captures.ts`); `--check` fails, listing them, where a committed
 * capture differs from what its spec builds. test/host/capture.test.ts runs the check.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCapture, parseSpec, writeCapture } from '../src/host/capture/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SPEC_DIR = join(ROOT, 'test/captures/specs');
export const OUT_DIR = join(ROOT, 'public/captures');

/** Each spec and the capture file it builds. */
export function captureSpecs(): { spec: string; out: string }[] {
  return readdirSync(SPEC_DIR)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => ({
      spec: join(SPEC_DIR, f),
      out: join(OUT_DIR, `${basename(f).replace(/\.(ya?ml|json)$/, '')}.gcncap`),
    }));
}

/** The bytes a spec file builds (files it names are read relative to it). */
export async function buildSpecFile(spec: string): Promise<Uint8Array> {
  const built = await buildCapture(parseSpec(readFileSync(spec, 'utf8'), spec), {
    readFile: (p) => readFileSync(resolve(dirname(spec), p)),
  });
  return writeCapture(built.manifest, built.blobs);
}

async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes('--check');
  const stale: string[] = [];
  for (const { spec, out } of captureSpecs()) {
    const bytes = await buildSpecFile(spec);
    if (check) {
      let old: Uint8Array | undefined;
      try {
        old = readFileSync(out);
      } catch {
        old = undefined;
      }
      if (!old || Buffer.compare(Buffer.from(old), Buffer.from(bytes)) !== 0) stale.push(out);
    } else {
      writeFileSync(out, bytes);
      console.log(`${out}: ${bytes.length} bytes`);
    }
  }
  if (stale.length) {
    console.error(`stale (run npx tsx tools/build-captures.ts):\n  ${stale.join('\n  ')}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((c) => process.exit(c));
}
