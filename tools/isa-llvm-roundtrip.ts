/**
 * Re-checks the corpus's asm_roundtrip column (llvm-mc-19 assembling LLVM's own text of a
 * row) for every row the corpus marks other than `=`, and writes the rows where llvm-mc-19
 * now answers differently to test/data/isa/<gen>/asm_roundtrip_recheck.tsv, which
 * test/isa/corpus-data.ts applies over the column. The corpus generator marked some rows
 * `x` that llvm-mc-19 assembles (every v_div_fixup*: its mnemonic holds the word `fixup`,
 * which the generator seems to have taken for a relocation fixup), so without the re-check
 * those rows would be scored as text LLVM cannot assemble.
 *   npx tsx tools/isa-llvm-roundtrip.ts   (needs llvm-mc-19)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_GENS, DATA_DIR, disasmRows } from '../test/isa/corpus-data.ts';
import { assembleBatch } from './registry/llvm.ts';

for (const g of CORPUS_GENS) {
  const rows = disasmRows(g.dir, 'disasm', { recheck: false }).filter(
    (r) => r.text !== '<invalid>' && r.llvmRoundTrip !== '=',
  );
  const results = assembleBatch(
    g.cpu,
    rows.map((r) => r.text),
  );
  const lines = ['#hex\tcorpus asm_roundtrip\tllvm-mc-19 asm_roundtrip'];
  rows.forEach((r, i) => {
    const a = results[i];
    const now = a.error !== undefined ? 'x' : a.hex === r.hex ? '=' : `~${a.hex}`;
    if (now !== r.llvmRoundTrip) lines.push(`${r.hex}\t${r.llvmRoundTrip}\t${now}`);
  });
  writeFileSync(join(DATA_DIR, g.dir, 'asm_roundtrip_recheck.tsv'), lines.join('\n') + '\n');
  console.log(`${g.dir}: ${rows.length} rows re-checked, ${lines.length - 1} answer differently`);
}
