/**
 * Work tool: scores the instruction layer against the corpus and prints mismatches.
 *   npx tsx tools/score.ts [--gen gfx9] [--family 'VOP1|VOP2'] [--dir disasm|asm|rt] [--wave64] [--show 20]
 * The asm family filter matches the first token (mnemonic) of the input line.
 */
import { CORPUS_GENS, scoreAsm, scoreDisasm, scoreRoundTrip, share, type CorpusGen, type Score } from '../test/isa/corpus-data.ts';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const gens = (opt('gen')?.split(',') ?? CORPUS_GENS.map((g) => g.dir)) as CorpusGen[];
const family = opt('family') ? new RegExp(`^(?:${opt('family')})$`) : undefined;
const mnem = opt('mnemonic') ? new RegExp(opt('mnemonic')!) : undefined;
const dir = opt('dir') ?? 'disasm';
const show = Number(opt('show') ?? '15');
const wave64 = args.includes('--wave64');

function report(label: string, s: Score): void {
  console.log(`${label}: ${s.matched}/${s.total} = ${(100 * share(s)).toFixed(2)}%`);
  for (const m of s.mismatches.slice(0, show)) console.log(`  ${m.family}\t${m.key}\n     want: ${m.expected}\n     got:  ${m.got}`);
}

for (const gen of gens) {
  if (dir === 'disasm') report(`${gen} disasm${wave64 ? ' w64' : ''}`, scoreDisasm(gen, { wave64, family }));
  else if (dir === 'rt') report(`${gen} roundtrip`, scoreRoundTrip(gen, { family }));
  else {
    const s = scoreAsm(gen, {
      family: mnem,
      familyOf: (r) => r.input.split(/\s/)[0] ?? '',
    });
    report(`${gen} asm accepted`, s.accepted);
    report(`${gen} asm rejected`, s.rejected);
  }
}
