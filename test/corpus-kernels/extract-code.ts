/**
 * Copies the corpus code this harness replays into code/: RADV kernels as their `.bin`
 * (the pipeline-cache code), LLVM kernels as the `.text` words of their `.dump` listing
 * (`// OFFSET: WORDS`; gfx10's collapsed s_code_end padding is left out). Run from the
 * repository root: `npx tsx test/corpus-kernels/extract-code.ts` (reads ../shared/corpus).
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RADV_KERNELS, LLVM_KERNELS, TARGETS } from './targets.ts';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/compiled');
const OUT = join(import.meta.dirname, 'code');

/** The words of an llvm-objdump (or encdump.py) listing, in order. */
export function dumpWords(text: string): number[] {
  const words: number[] = [];
  let next = 0;
  for (const line of text.split('\n')) {
    const m = /\/\/\s*([0-9A-Fa-f]{12}):\s*((?:[0-9A-Fa-f]{8}\s*)+)/.exec(line);
    if (!m) continue;
    const offset = parseInt(m[1]!, 16);
    if (offset !== next) throw new Error(`listing jumps from ${next} to ${offset}`);
    for (const w of m[2]!.trim().split(/\s+/)) words.push(parseInt(w, 16) >>> 0);
    next = words.length * 4;
  }
  return words;
}

for (const k of RADV_KERNELS)
  for (const t of TARGETS)
    copyFileSync(join(CORPUS, 'radv', `${t.name}_${k}.bin`), join(OUT, `radv_${t.name}_${k}.bin`));
for (const k of LLVM_KERNELS)
  for (const t of TARGETS) {
    let text: string;
    try {
      text = readFileSync(join(CORPUS, 'llvm', `${t.name}_${k}.dump`), 'utf8');
    } catch {
      continue; // llc failed for this target (FAILURES*.txt)
    }
    writeFileSync(join(OUT, `llvm_${t.name}_${k}.bin`), new Uint8Array(new Uint32Array(dumpWords(text)).buffer));
  }
