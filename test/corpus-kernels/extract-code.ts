/**
 * Copies the corpus code this harness replays into code/: RADV kernels as their `.bin`
 * (the pipeline-cache code), LLVM kernels as the `.text` words of their `.dump` listing
 * (`// OFFSET: WORDS`; gfx10's collapsed s_code_end padding is left out). Run from the
 * repository root: `npx tsx test/corpus-kernels/extract-code.ts` (reads ../shared/corpus).
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TARGETS } from './targets.ts';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/compiled');
const OUT = join(import.meta.dirname, 'code');

/**
 * The words of an llvm-objdump (or encdump.py) listing, in order. A gap between functions
 * (gfx704 sampler_const's second function at 0x100) is filled with zero words, as the
 * listing does not show the padding's bytes; nothing runs there.
 */
export function dumpWords(text: string): number[] {
  const words: number[] = [];
  let next = 0;
  for (const line of text.split('\n')) {
    const m = /\/\/\s*([0-9A-Fa-f]{12}):\s*((?:[0-9A-Fa-f]{8}\s*)+)/.exec(line);
    if (!m) continue;
    const offset = parseInt(m[1]!, 16);
    if (offset < next || offset % 4 !== 0) throw new Error(`listing goes back from ${next} to ${offset}`);
    while (next < offset) {
      words.push(0);
      next += 4;
    }
    for (const w of m[2]!.trim().split(/\s+/)) words.push(parseInt(w, 16) >>> 0);
    next = words.length * 4;
  }
  return words;
}

/** Every kernel of a corpus directory: the names after the `<target>_` prefix of its listings. */
function kernelsOf(dir: string, ext: string): string[] {
  const names = new Set<string>();
  for (const f of readdirSync(join(CORPUS, dir)))
    for (const t of TARGETS)
      if (f.startsWith(`${t.name}_`) && f.endsWith(ext)) names.add(f.slice(t.name.length + 1, -ext.length));
  return [...names].sort();
}

for (const k of kernelsOf('radv', '.bin'))
  for (const t of TARGETS)
    copyFileSync(join(CORPUS, 'radv', `${t.name}_${k}.bin`), join(OUT, `radv_${t.name}_${k}.bin`));
for (const k of kernelsOf('llvm', '.dump'))
  for (const t of TARGETS) {
    let text: string;
    try {
      text = readFileSync(join(CORPUS, 'llvm', `${t.name}_${k}.dump`), 'utf8');
    } catch {
      continue; // llc failed for this target (FAILURES*.txt)
    }
    writeFileSync(join(OUT, `llvm_${t.name}_${k}.bin`), new Uint8Array(new Uint32Array(dumpWords(text)).buffer));
  }
