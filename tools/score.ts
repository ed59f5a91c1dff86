/**
 * Work tool: scores the instruction layer against the corpus and prints mismatches.
 *   npx tsx tools/score.ts [--gen gfx9] [--family 'VOP1|VOP2'] [--dir disasm|asm|rt] [--wave64] [--show 20]
 * --dir rt scores each round-trip class of row apart (canonical, text-loses-bits, llvm-rejects-text).
 * The asm family filter matches the first token (mnemonic) of the input line; --contains
 * REGEX matches the whole input line instead.
 */
import {
  CORPUS_GENS,
  scoreAsm,
  scoreDisasm,
  scoreRoundTrip,
  share,
  type CorpusGen,
  type Score,
} from '../test/isa/corpus-data.ts';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const gens = (opt('gen')?.split(',') ?? CORPUS_GENS.map((g) => g.dir)) as CorpusGen[];
const family = opt('family') ? new RegExp(`^(?:${opt('family')})$`) : undefined;
const mnem = opt('mnemonic') ? new RegExp(opt('mnemonic')!) : undefined;
// --contains REGEX: asm rows whose whole input line matches (DPP8 and VOP3-DPP lines may have no suffix).
const contains = opt('contains') ? new RegExp(opt('contains')!) : undefined;
// --exclude REGEX: leave out asm rows whose whole input line matches (e.g. another owner's extension forms).
const exclude = opt('exclude') ? new RegExp(opt('exclude')!) : undefined;
const dir = opt('dir') ?? 'disasm';
const show = Number(opt('show') ?? '15');
const wave64 = args.includes('--wave64');

function report(label: string, s: Score): void {
  console.log(`${label}: ${s.matched}/${s.total} = ${(100 * share(s)).toFixed(2)}%`);
  for (const m of s.mismatches.slice(0, show))
    console.log(`  ${m.family}\t${m.key}\n     want: ${m.expected}\n     got:  ${m.got}`);
}

for (const gen of gens) {
  if (dir === 'disasm') report(`${gen} disasm${wave64 ? ' w64' : ''}`, scoreDisasm(gen, { wave64, family }));
  else if (dir === 'rt') {
    const rt = scoreRoundTrip(gen, { family });
    for (const [cls, score] of Object.entries(rt.byClass)) report(`${gen} roundtrip ${cls}`, score);
    console.log(`${gen} not printed by us: ${JSON.stringify(rt.notPrinted)}`);
  } else {
    const s = scoreAsm(gen, {
      family: mnem ?? contains ?? (exclude ? /^(?!\u0000)/ : undefined),
      // An excluded row's key is a lone NUL, which no mnemonic or line filter matches.
      familyOf: (r) => (exclude?.test(r.input) ? '\u0000' : mnem ? (r.input.split(/\s/)[0] ?? '') : r.input),
    });
    report(`${gen} asm accepted`, s.accepted);
    report(`${gen} asm rejected`, s.rejected);
  }
}
