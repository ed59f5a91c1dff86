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

/**
 * llvm-mc-19's own re-check of the corpus's asm_roundtrip column, where it answers
 * differently (test/data/isa/<gen>/asm_roundtrip_recheck.tsv, written by
 * `npx tsx tools/isa-llvm-roundtrip.ts`): hex → the re-checked column.
 */
function roundTripRecheck(gen: CorpusGen): Map<string, string> {
  const path = join(DATA_DIR, gen, 'asm_roundtrip_recheck.tsv');
  if (!existsSync(path)) return new Map();
  return new Map(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split('\t'))
      .map((r) => [r[0], r[2]] as const),
  );
}

export function disasmRows(
  gen: CorpusGen,
  file: 'disasm' | 'disasm_w64_diff' = 'disasm',
  opts: { recheck?: boolean } = {},
): DisasmRow[] {
  const recheck = opts.recheck === false ? new Map<string, string>() : roundTripRecheck(gen);
  return readTsv(join(DATA_DIR, gen, `${file}.tsv.gz`)).map((r) => ({
    hex: r[0],
    text: r[1],
    family: r[2] ?? '',
    origin: r[3] ?? '',
    llvmRoundTrip: recheck.get(r[0]) ?? r[4] ?? '',
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
 * The round-trip classes of a corpus row, by what llvm-mc-19 makes of LLVM's own text of it
 * (the asm_roundtrip column, re-checked): each is scored against what its text can give.
 */
export const ROUND_TRIP_CLASSES = [
  {
    id: 'canonical',
    column: '=',
    description:
      "LLVM's text of the bytes assembles back to them: assembling our own printed text must give the same bytes.",
  },
  {
    id: 'text-loses-bits',
    column: '~',
    description:
      "LLVM's text assembles to other bytes: the encoding holds bits no spelling carries (fields the instruction ignores, " +
      'modifier bits of absent sources, the unused high half of a 16-bit literal, dwords no operand reads, misaligned ' +
      "registers printed aligned). No text names those bytes; assembling our text must give LLVM's bytes for LLVM's text.",
  },
  {
    id: 'llvm-rejects-text',
    column: 'x',
    description:
      'llvm-mc-19 refuses the text its own printer gives for the bytes (`/*Invalid register*/` and `/*Invalid immediate*/` ' +
      'annotations, 16-bit integer operands printed as f16 hex literals, gfx11 VOP3-DPP spellings its parser lacks). No ' +
      'LLVM text names those bytes; our assembler must refuse our text too, or give the bytes back, or give bytes that ' +
      'print as the same text (the text may lose bits here too), never bytes of another meaning.',
  },
] as const;

export type RoundTripClass = (typeof ROUND_TRIP_CLASSES)[number]['id'];

export function roundTripClassOf(llvmRoundTrip: string): RoundTripClass {
  if (llvmRoundTrip === '=') return 'canonical';
  return llvmRoundTrip.startsWith('~') ? 'text-loses-bits' : 'llvm-rejects-text';
}

/** Whether assembled bytes (hex) print as the text they were assembled from. */
function reprints(target: Target, hex: string, text: string): boolean {
  if (hex.startsWith('<')) return false;
  try {
    return ourDisasm(target, hex) === text;
  } catch {
    return false;
  }
}

export interface RoundTripScore {
  readonly byClass: Readonly<Record<RoundTripClass, Score>>;
  /**
   * Rows LLVM prints that our printer refuses, so there is no text of ours to assemble:
   * those LLVM itself annotates `/*Invalid register*\/` (left out of bytes->text as well),
   * and the others, each a bytes->text mismatch listed there with its reason.
   */
  readonly notPrinted: { readonly llvmInvalidRegister: number; readonly bytesToTextMismatch: number };
}

/**
 * Round trip: our printed text of each row, assembled, scored per class (ROUND_TRIP_CLASSES);
 * rows our printer refuses are counted apart (RoundTripScore.notPrinted).
 */
export function scoreRoundTrip(gen: CorpusGen, opts: { family?: RegExp } = {}): RoundTripScore {
  const g = CORPUS_GENS.find((x) => x.dir === gen)!;
  const target = targetFor(g.cpu, false);
  const out = {} as Record<RoundTripClass, { total: number; matched: number; mismatches: Mismatch[] }>;
  for (const c of ROUND_TRIP_CLASSES) out[c.id] = { total: 0, matched: 0, mismatches: [] };
  const notPrinted = { llvmInvalidRegister: 0, bytesToTextMismatch: 0 };
  for (const row of disasmRows(gen)) {
    if (opts.family && !opts.family.test(row.family)) continue;
    if (row.text === '<invalid>') continue;
    let text: string;
    try {
      text = ourDisasm(target, row.hex);
    } catch {
      text = '<threw>';
    }
    if (text.startsWith('<')) {
      if (isLlvmInvalidRegister(row.text)) notPrinted.llvmInvalidRegister++;
      else notPrinted.bytesToTextMismatch++;
      continue;
    }
    const cls = roundTripClassOf(row.llvmRoundTrip);
    const bucket = out[cls];
    bucket.total++;
    let got: string;
    try {
      const r = assembleLine(target, text);
      got = r.words ? hexOfWords(r.words) : `<error ${r.error?.reason}>`;
    } catch (e) {
      got = `<threw ${(e as Error).message}>`;
    }
    const expected = cls === 'text-loses-bits' ? row.llvmRoundTrip.slice(1) : row.hex;
    // Text LLVM refuses: refusing it too is right, and so are bytes that print as the same text.
    const ok =
      got === expected || (cls === 'llvm-rejects-text' && (got.startsWith('<error ') || reprints(target, got, text)));
    if (ok) bucket.matched++;
    else
      bucket.mismatches.push({
        key: text,
        expected: cls === 'llvm-rejects-text' ? `${expected}, bytes printing as the text, or an error` : expected,
        got,
        family: row.family,
      });
  }
  return { byClass: out, notPrinted };
}

export function share(s: Score): number {
  return s.total === 0 ? 0 : s.matched / s.total;
}
