/**
 * Loads the LLVM-19 conformance vectors (copied from ../shared/corpus/isa into
 * test/data/isa, gzip-compressed) and scores the instruction layer against them.
 * Shared by the corpus test, the per-family work scripts and the benchmark.
 */
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { targetFor, type Target } from '../../src/isa/gen.ts';
import { disassembleOne, hexToBytes } from '../../src/isa/disasm.ts';
import { assembleLine } from '../../src/isa/asm.ts';

export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'isa');

/** The corpus generations and the processor each was recorded with. */
export const CORPUS_GENS = [
  { dir: 'gfx7', cpu: 'bonaire', wave64: false },
  { dir: 'gfx8', cpu: 'tonga', wave64: false },
  { dir: 'gfx9', cpu: 'gfx900', wave64: false },
  { dir: 'gfx10.3', cpu: 'gfx1030', wave64: false },
  { dir: 'gfx11', cpu: 'gfx1100', wave64: false },
] as const;

export type CorpusGen = (typeof CORPUS_GENS)[number]['dir'];

function readTsv(path: string): string[][] {
  if (!existsSync(path)) return [];
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t'));
}

export interface DisasmRow {
  readonly hex: string;
  readonly text: string; // '<invalid>' when LLVM rejects
  readonly family: string;
  readonly origin: string;
  /** llvm-mc-19 assembling its own text: '=' same bytes, '~<hex>' other bytes, 'x' error. */
  readonly llvmRoundTrip: string;
}

export interface AsmRow {
  readonly input: string;
  readonly hex: string; // '<error>' when LLVM rejects
  readonly printed: string;
  readonly origin: string;
  readonly mattr: string;
}

export function disasmRows(gen: CorpusGen, file: 'disasm' | 'disasm_w64_diff' = 'disasm'): DisasmRow[] {
  return readTsv(join(DATA_DIR, gen, `${file}.tsv.gz`)).map((r) => ({
    hex: r[0],
    text: r[1],
    family: r[2] ?? '',
    origin: r[3] ?? '',
    llvmRoundTrip: r[4] ?? '',
  }));
}

export function asmRows(gen: CorpusGen): AsmRow[] {
  return readTsv(join(DATA_DIR, gen, 'asm.tsv.gz')).map((r) => ({
    input: r[0],
    hex: r[1],
    printed: r[2] ?? '',
    origin: r[3] ?? '',
    mattr: r[4] ?? '',
  }));
}

/** LLVM marks register numbers its printer cannot name; such rows are left out of the share. */
export function isLlvmInvalidRegister(text: string): boolean {
  return text.includes('/*Invalid register');
}

function hexOfWords(words: number[]): string {
  let s = '';
  for (const w of words) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

export interface Mismatch {
  readonly key: string;
  readonly expected: string;
  readonly got: string;
  readonly family: string;
}

export interface Score {
  readonly total: number;
  readonly matched: number;
  readonly mismatches: Mismatch[];
}

/** Our text for one row's bytes, or '<invalid>'. The row's bytes are one instruction. */
export function ourDisasm(target: Target, hex: string): string {
  const r = disassembleOne(target, hexToBytes(hex));
  if ('error' in r) return '<invalid>';
  if (r.size !== hex.length / 2) return `<size ${r.size} of ${hex.length / 2}>`;
  return r.text;
}

export function scoreDisasm(gen: CorpusGen, opts: { wave64?: boolean; family?: RegExp } = {}): Score {
  const g = CORPUS_GENS.find((x) => x.dir === gen)!;
  const target = targetFor(g.cpu, opts.wave64 ?? false);
  const rows = disasmRows(gen);
  const w64 = opts.wave64 ? new Map(disasmRows(gen, 'disasm_w64_diff').map((r) => [r.hex, r.text])) : undefined;
  let total = 0;
  let matched = 0;
  const mismatches: Mismatch[] = [];
  for (const row of rows) {
    if (opts.family && !opts.family.test(row.family)) continue;
    const expected = w64?.get(row.hex) ?? row.text;
    if (isLlvmInvalidRegister(expected)) continue;
    total++;
    let got: string;
    try {
      got = ourDisasm(target, row.hex);
    } catch (e) {
      got = `<threw ${(e as Error).name}: ${(e as Error).message}>`;
    }
    if (got === expected) matched++;
    else mismatches.push({ key: row.hex, expected, got, family: row.family });
  }
  return { total, matched, mismatches };
}

export interface AsmScore {
  readonly accepted: Score;
  readonly rejected: Score;
}

function asmTarget(gen: CorpusGen, mattr: string): Target {
  const g = CORPUS_GENS.find((x) => x.dir === gen)!;
  return targetFor(g.cpu, mattr.includes('wavefrontsize64'));
}

export function scoreAsm(gen: CorpusGen, opts: { family?: RegExp; familyOf?: (row: AsmRow) => string } = {}): AsmScore {
  const accepted: Mismatch[] = [];
  const rejected: Mismatch[] = [];
  let accTotal = 0;
  let accOk = 0;
  let rejTotal = 0;
  let rejOk = 0;
  for (const row of asmRows(gen)) {
    const fam = opts.familyOf ? opts.familyOf(row) : '';
    if (opts.family && !opts.family.test(fam)) continue;
    const target = asmTarget(gen, row.mattr);
    let got: string;
    try {
      const r = assembleLine(target, row.input);
      got = r.words ? hexOfWords(r.words) : '<error>';
    } catch (e) {
      got = `<threw ${(e as Error).name}: ${(e as Error).message}>`;
    }
    if (row.hex === '<error>') {
      rejTotal++;
      if (got === '<error>') rejOk++;
      else rejected.push({ key: row.input, expected: '<error>', got, family: fam });
    } else {
      accTotal++;
      if (got === row.hex) accOk++;
      else accepted.push({ key: row.input, expected: row.hex, got, family: fam });
    }
  }
  return {
    accepted: { total: accTotal, matched: accOk, mismatches: accepted },
    rejected: { total: rejTotal, matched: rejOk, mismatches: rejected },
  };
}

/**
 * Round trip: assembling our own printed text of a row gives back its bytes. Rows whose
 * bytes LLVM's own text cannot give back (its round-trip column is not '=': fields the
 * printed form does not carry, misaligned registers printed aligned) are scored apart, in
 * `nonCanonical`, since no text in LLVM's syntax can name those bytes.
 */
export function scoreRoundTrip(gen: CorpusGen, opts: { family?: RegExp } = {}): Score & { nonCanonical: Score } {
  const g = CORPUS_GENS.find((x) => x.dir === gen)!;
  const target = targetFor(g.cpu, false);
  const canon = { total: 0, matched: 0, mismatches: [] as Mismatch[] };
  const other = { total: 0, matched: 0, mismatches: [] as Mismatch[] };
  for (const row of disasmRows(gen)) {
    if (opts.family && !opts.family.test(row.family)) continue;
    if (row.text === '<invalid>') continue;
    let text: string;
    try {
      text = ourDisasm(target, row.hex);
    } catch {
      continue;
    }
    if (text.startsWith('<')) continue;
    const bucket = row.llvmRoundTrip === '=' ? canon : other;
    bucket.total++;
    let got: string;
    try {
      const r = assembleLine(target, text);
      got = r.words ? hexOfWords(r.words) : `<error ${r.error?.reason}>`;
    } catch (e) {
      got = `<threw ${(e as Error).message}>`;
    }
    if (got === row.hex) bucket.matched++;
    else bucket.mismatches.push({ key: text, expected: row.hex, got, family: row.family });
  }
  return { ...canon, nonCanonical: other };
}

export function share(s: Score): number {
  return s.total === 0 ? 0 : s.matched / s.total;
}
