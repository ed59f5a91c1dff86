/**
 * Fuzzes the instruction layer: random dwords and bit-flipped corpus encodings go to
 * decodeAt / disassembleStream (and printInstruction for what decodes); random and mutated
 * assembly lines go to assembleLine. The only acceptable failures are DecodeError and
 * AsmError; any other exception, or a decoded size that runs past the input, is a finding.
 *
 *   npm run fuzz -- [--seed N] [--count N] [--target cpu[:w64],…] [--case N] [--max-failures N] [--seconds N]
 *
 * Every case draws from its own PRNG seeded by (seed, case number), so `--seed S --case N`
 * re-runs exactly one finding. The bounded vitest run is test/isa/fuzz.test.ts.
 */
import { pathToFileURL } from 'node:url';
import { decodeAt } from '../src/isa/decoder.ts';
import { disassembleStream, hexToBytes, printInstruction } from '../src/isa/disasm.ts';
import { assembleLine } from '../src/isa/asm.ts';
import { AsmError, DecodeError } from '../src/isa/errors.ts';
import { targetFor, type Target } from '../src/isa/gen.ts';
import { asmRows, disasmRows, type CorpusGen } from '../test/isa/corpus-data.ts';

// --- PRNG -------------------------------------------------------------------------------

/** mulberry32: small, fast, good enough to pick fuzz inputs. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  u32(): number {
    return this.next();
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.next() / 0x1_0000_0000) * n);
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
  chance(p: number): boolean {
    return this.next() / 0x1_0000_0000 < p;
  }
}

/** The seed of case `index` of a run seeded `seed`. */
export function caseSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// --- Targets and corpus -----------------------------------------------------------------

export interface FuzzTarget {
  readonly name: string;
  readonly target: Target;
  readonly corpus: CorpusGen;
}

const CPU_CORPUS: readonly (readonly [string, CorpusGen])[] = [
  ['bonaire', 'gfx7'],
  ['tonga', 'gfx8'],
  ['gfx900', 'gfx9'],
  ['gfx1010', 'gfx10.3'], // no gfx10.1 corpus: the gfx10.3 rows are the nearest encodings
  ['gfx1030', 'gfx10.3'],
  ['gfx1100', 'gfx11'],
];

/** Every fuzz target: each processor in wave32 and wave64 (gfx7-9 are wave64 only). */
export function allTargets(): FuzzTarget[] {
  const out: FuzzTarget[] = [];
  for (const [cpu, corpus] of CPU_CORPUS) {
    for (const wave64 of [false, true]) {
      const target = targetFor(cpu, wave64);
      if (!wave64 && target.wave64) continue; // gfx7-9: one target
      out.push({ name: `${cpu}${target.wave64 ? ':w64' : ':w32'}`, target, corpus });
    }
  }
  return out;
}

export function parseTargets(spec: string): FuzzTarget[] {
  const all = allTargets();
  return spec.split(',').map((s) => {
    const name = s.includes(':') ? s : `${s}:${targetFor(s).wave64 ? 'w64' : 'w32'}`;
    const t = all.find((x) => x.name === name);
    if (!t) throw new Error(`unknown fuzz target '${s}'; known: ${all.map((x) => x.name).join(', ')}`);
    return t;
  });
}

interface Seeds {
  /** Valid encodings, as dwords. */
  readonly encodings: readonly Uint32Array[];
  /** Assembly lines (accepted and rejected by LLVM). */
  readonly lines: readonly string[];
}

const seedCache = new Map<string, Seeds>();

function wordsOfHex(hex: string): Uint32Array | undefined {
  if (hex.length === 0 || hex.length % 8 !== 0) return undefined;
  const b = hexToBytes(hex);
  return new Uint32Array(b.buffer, b.byteOffset, b.length >>> 2);
}

/** Corpus rows of a generation, thinned to at most `limit` of each kind (evenly spaced). */
export function corpusSeeds(gen: CorpusGen, limit = 4000): Seeds {
  const key = `${gen}/${limit}`;
  const cached = seedCache.get(key);
  if (cached) return cached;
  const thin = <T>(a: T[]): T[] => {
    if (a.length <= limit) return a;
    const step = a.length / limit;
    return Array.from({ length: limit }, (_, i) => a[Math.floor(i * step)]);
  };
  const encodings = thin(disasmRows(gen).filter((r) => r.text !== '<invalid>'))
    .map((r) => wordsOfHex(r.hex))
    .filter((w): w is Uint32Array => w !== undefined);
  const lines = thin(asmRows(gen).map((r) => r.input)).filter((l) => l.length > 0);
  const seeds = { encodings, lines };
  seedCache.set(key, seeds);
  return seeds;
}

// --- Cases ------------------------------------------------------------------------------

export type CaseKind = 'random-dwords' | 'mutated-encoding' | 'stream' | 'asm-mutated' | 'asm-random';

export interface Finding {
  readonly seed: number;
  readonly index: number;
  readonly target: string;
  readonly kind: CaseKind;
  /** The input: hex of the bytes in memory order, or the assembly line (JSON-quoted). */
  readonly input: string;
  readonly problem: string;
  /** The command that re-runs just this case. */
  readonly rerun: string;
}

export interface FuzzReport {
  readonly seed: number;
  readonly cases: number;
  readonly byKind: Record<CaseKind, number>;
  readonly decoded: number;
  readonly decodeErrors: number;
  readonly assembled: number;
  readonly asmErrors: number;
  readonly findings: Finding[];
  readonly ms: number;
  /** True when maxMs ran out before count cases. */
  readonly stoppedByTime: boolean;
}

function hexOfWords(words: Uint32Array | readonly number[]): string {
  let s = '';
  for (const w of words) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

function hexOfBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const where = e.stack?.split('\n').slice(1, 4).join(' | ').trim();
    return `${e.name}: ${e.message}${where ? ` @ ${where}` : ''}`;
  }
  return `non-Error thrown: ${String(e)}`;
}

/** Dwords that look like instructions more often than uniform noise: real prefixes, random fields. */
function randomDwords(rng: Rng, seeds: Seeds): Uint32Array {
  const n = 1 + rng.int(4);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = rng.u32();
    if (seeds.encodings.length > 0 && rng.chance(0.5)) {
      // keep a real encoding's top bits (its family and opcode), randomise the rest
      const keep = 6 + rng.int(14);
      const mask = (0xffffffff << (32 - keep)) >>> 0;
      const model = rng.pick(seeds.encodings)[0];
      out[i] = ((model & mask) | (r & ~mask)) >>> 0;
    } else {
      out[i] = r;
    }
  }
  return out;
}

function mutateEncoding(rng: Rng, seeds: Seeds): Uint32Array {
  const base = seeds.encodings.length > 0 ? rng.pick(seeds.encodings) : Uint32Array.of(rng.u32(), rng.u32());
  let words = Uint32Array.from(base);
  const flips = 1 + rng.int(3);
  for (let f = 0; f < flips; f++) {
    const i = rng.int(words.length);
    words[i] = (words[i] ^ (1 << rng.int(32))) >>> 0;
  }
  const tail = rng.int(8);
  if (tail === 0 && words.length > 1)
    words = words.slice(0, words.length - 1 - rng.int(words.length - 1)); // truncated
  else if (tail === 1) words = Uint32Array.from([...words, rng.u32()]); // a stray dword after
  return words;
}

const ASM_ALPHABET = 'abcdefghijklmnopqrstuvwxyz_0123456789 ,:[]()-+.vsxe|&!~ \t';
const ASM_TOKENS = [
  'v0',
  'v255',
  'v256',
  's0',
  's105',
  's106',
  'vcc',
  'vcc_lo',
  'exec',
  'exec_hi',
  'm0',
  'null',
  'scc',
  'v[0:1]',
  'v[2:1]',
  's[0:3]',
  's[1:2]',
  'ttmp[0:1]',
  '0',
  '-1',
  '0.5',
  '-4.0',
  '0x7fffffff',
  '0xffffffffffffffff',
  '1e99',
  'off',
  'offen',
  'offset:4095',
  'offset:-1',
  'glc',
  'dlc',
  'slc',
  'row_shl:1',
  'quad_perm:[0,1,2,3]',
  'dpp8:[7,6,5,4,3,2,1,0]',
  'sel:BYTE_0',
  'clamp',
  'mul:2',
  'neg_lo:[1,0]',
  'op_sel:[1,1]',
  '|v1|',
  '-|s2|',
  'lit(1)',
  'label',
  'dmask:0xf',
  'dim:SQ_RSRC_IMG_2D',
  'a0',
];

function mutateLine(rng: Rng, line: string): string {
  let s = line;
  const steps = 1 + rng.int(3);
  for (let k = 0; k < steps; k++) {
    const op = rng.int(7);
    const at = rng.int(s.length + 1);
    if (op === 0 && s.length > 0)
      s = s.slice(0, at) + s.slice(at + 1); // delete a character
    else if (op === 1)
      s = s.slice(0, at) + ASM_ALPHABET[rng.int(ASM_ALPHABET.length)] + s.slice(at); // insert one
    else if (op === 2)
      s = s.slice(0, at); // truncate
    else if (op === 3) {
      // replace an operand token
      const parts = s.split(/(\s*,\s*|\s+)/);
      const i = rng.int(parts.length);
      parts[i] = rng.pick(ASM_TOKENS);
      s = parts.join('');
    } else if (op === 4)
      s = `${s}, ${rng.pick(ASM_TOKENS)}`; // one operand too many
    else if (op === 5)
      s = s.replace(/\d+/, () => String(rng.chance(0.5) ? rng.u32() : rng.int(1024) - 512)); // another number
    else
      s = s.replace(/^(\S+)/, (m) =>
        rng.chance(0.5) ? m + rng.pick(['_e32', '_e64', '_sdwa', '_dpp', '_x2', '']) : m.slice(0, -1),
      );
  }
  return s;
}

function randomLine(rng: Rng, seeds: Seeds): string {
  if (seeds.lines.length > 0 && rng.chance(0.5)) {
    const mnemonic = rng.pick(seeds.lines).split(/\s/)[0];
    const n = rng.int(5);
    return `${mnemonic} ${Array.from({ length: n }, () => rng.pick(ASM_TOKENS)).join(', ')}`;
  }
  const len = rng.int(40);
  let s = '';
  for (let i = 0; i < len; i++) s += ASM_ALPHABET[rng.int(ASM_ALPHABET.length)];
  return s;
}

interface Counters {
  decoded: number;
  decodeErrors: number;
  assembled: number;
  asmErrors: number;
}

/** Decodes at `at` and checks the result's size and offset; returns a problem, or undefined. */
function checkDecode(t: Target, words: Uint32Array, at: number, c: Counters): string | undefined {
  let inst;
  try {
    inst = decodeAt(t, words, at);
  } catch (e) {
    if (e instanceof DecodeError) {
      c.decodeErrors++;
      return undefined;
    }
    return `decodeAt(${at}) threw ${describe(e)}`;
  }
  c.decoded++;
  const room = (words.length - at) * 4;
  if (!Number.isInteger(inst.size) || inst.size < 4 || inst.size % 4 !== 0)
    return `decodeAt(${at}) size ${inst.size} is not a positive multiple of 4`;
  if (inst.size > room) return `decodeAt(${at}) size ${inst.size} runs past the input (${room} bytes left)`;
  if (inst.offset !== at * 4) return `decodeAt(${at}) offset ${inst.offset}, expected ${at * 4}`;
  try {
    const text = printInstruction(t, inst);
    if (typeof text !== 'string' || text.length === 0)
      return `printInstruction gave ${JSON.stringify(text)} for ${inst.def.name}`;
  } catch (e) {
    if (e instanceof DecodeError || e instanceof AsmError) return undefined;
    return `printInstruction(${inst.def.name}) threw ${describe(e)}`;
  }
  return undefined;
}

function checkStream(t: Target, bytes: Uint8Array, c: Counters): string | undefined {
  let results;
  try {
    results = disassembleStream(t, bytes);
  } catch (e) {
    if (e instanceof DecodeError) return undefined;
    return `disassembleStream threw ${describe(e)}`;
  }
  let used = 0;
  for (const r of results) {
    if ('error' in r) {
      if (!(r.error instanceof DecodeError))
        return `disassembleStream returned a non-DecodeError: ${describe(r.error)}`;
      c.decodeErrors++;
      used += 4;
    } else {
      c.decoded++;
      if (r.size < 4 || r.size % 4 !== 0) return `disassembleStream: size ${r.size} is not a positive multiple of 4`;
      used += r.size;
    }
  }
  // The trailing-bytes error line accounts for less than a dword.
  if (used > bytes.length + 4) return `disassembleStream covered ${used} bytes of ${bytes.length}`;
  if (used < (bytes.length & ~3))
    return `disassembleStream covered ${used} bytes of ${bytes.length}: some dwords were lost`;
  return undefined;
}

function checkAsm(t: Target, line: string, c: Counters): string | undefined {
  let r;
  try {
    r = assembleLine(t, line);
  } catch (e) {
    if (e instanceof AsmError) {
      c.asmErrors++;
      return undefined;
    }
    return `assembleLine threw ${describe(e)}`;
  }
  if (r.error) {
    if (!(r.error instanceof AsmError)) return `assembleLine returned a non-AsmError: ${describe(r.error)}`;
    c.asmErrors++;
    return undefined;
  }
  c.assembled++;
  const words = r.words ?? [];
  if (words.length === 0) return 'assembleLine gave no words and no error';
  for (const w of words)
    if (!Number.isInteger(w) || w < 0 || w > 0xffffffff) return `assembleLine gave a word that is not a u32: ${w}`;
  return undefined;
}

export interface FuzzOptions {
  readonly seed: number;
  readonly count: number;
  readonly targets?: readonly FuzzTarget[];
  /** Run only this case number (re-running a finding). */
  readonly only?: number;
  readonly maxFindings?: number;
  /** Rows kept per corpus kind (fewer loads faster). */
  readonly corpusLimit?: number;
  readonly onFinding?: (f: Finding) => void;
  /** Stop starting cases after this many ms (the cases run are still a prefix of the seed's sequence). */
  readonly maxMs?: number;
}

const KINDS: readonly CaseKind[] = ['random-dwords', 'mutated-encoding', 'stream', 'asm-mutated', 'asm-random'];

/** Runs one case; returns its kind and the problem found, if any. */
export function runCase(
  seed: number,
  index: number,
  targets: readonly FuzzTarget[],
  corpusLimit: number,
  c: Counters,
): { kind: CaseKind; target: string; input: string; problem?: string } {
  const rng = new Rng(caseSeed(seed, index));
  const ft = targets[index % targets.length];
  const t = ft.target;
  const seeds = corpusSeeds(ft.corpus, corpusLimit);
  const kind = KINDS[rng.int(KINDS.length)];
  switch (kind) {
    case 'random-dwords':
    case 'mutated-encoding': {
      const words = kind === 'random-dwords' ? randomDwords(rng, seeds) : mutateEncoding(rng, seeds);
      const input = hexOfWords(words);
      let problem = checkDecode(t, words, 0, c);
      if (!problem && words.length > 1) problem = checkDecode(t, words, 1 + rng.int(words.length - 1), c);
      return { kind, target: ft.name, input, problem };
    }
    case 'stream': {
      const parts: number[] = [];
      const n = 1 + rng.int(6);
      for (let i = 0; i < n; i++)
        parts.push(...(rng.chance(0.7) ? mutateEncoding(rng, seeds) : randomDwords(rng, seeds)));
      const words = Uint32Array.from(parts);
      let bytes = new Uint8Array(words.buffer);
      if (rng.chance(0.2)) bytes = bytes.slice(0, Math.max(0, bytes.length - 1 - rng.int(3))); // a partial last dword
      return { kind, target: ft.name, input: hexOfBytes(bytes), problem: checkStream(t, bytes, c) };
    }
    case 'asm-mutated':
    case 'asm-random': {
      const line =
        kind === 'asm-mutated' && seeds.lines.length > 0
          ? mutateLine(rng, rng.pick(seeds.lines))
          : randomLine(rng, seeds);
      return { kind, target: ft.name, input: JSON.stringify(line), problem: checkAsm(t, line, c) };
    }
  }
}

export function runFuzz(options: FuzzOptions): FuzzReport {
  const targets = options.targets ?? allTargets();
  const corpusLimit = options.corpusLimit ?? 4000;
  const maxFindings = options.maxFindings ?? 20;
  const c: Counters = { decoded: 0, decodeErrors: 0, assembled: 0, asmErrors: 0 };
  const byKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<CaseKind, number>;
  const findings: Finding[] = [];
  const defaultTargets = allTargets()
    .map((t) => t.name)
    .join(',');
  const targetSpec = targets.map((t) => t.name).join(',');
  const targetFlag = targetSpec === defaultTargets ? '' : ` --target ${targetSpec}`;
  const start = performance.now();
  let cases = 0;
  const indices = options.only !== undefined ? [options.only] : Array.from({ length: options.count }, (_, i) => i);
  let stoppedByTime = false;
  for (const index of indices) {
    if (options.maxMs !== undefined && performance.now() - start > options.maxMs) {
      stoppedByTime = true;
      break;
    }
    const r = runCase(options.seed, index, targets, corpusLimit, c);
    cases++;
    byKind[r.kind]++;
    if (r.problem) {
      const f: Finding = {
        seed: options.seed,
        index,
        target: r.target,
        kind: r.kind,
        input: r.input,
        problem: r.problem,
        rerun: `npm run fuzz -- --seed ${options.seed} --case ${index}${targetFlag}`,
      };
      findings.push(f);
      options.onFinding?.(f);
      if (findings.length >= maxFindings) break;
    }
  }
  return { seed: options.seed, cases, byKind, ...c, findings, ms: performance.now() - start, stoppedByTime };
}

export function formatFinding(f: Finding): string {
  return `[seed ${f.seed} case ${f.index}] ${f.target} ${f.kind} input ${f.input}\n  ${f.problem}\n  re-run: ${f.rerun}`;
}

// --- CLI --------------------------------------------------------------------------------

function parseArgs(argv: readonly string[]): {
  seed: number;
  count: number;
  targets?: FuzzTarget[];
  only?: number;
  maxFindings: number;
  seconds?: number;
} {
  const get = (name: string): string | undefined => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return undefined;
    const a = argv[i];
    return a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
  };
  const num = (name: string, fallback: number): number => {
    const v = get(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} ${v} is not a non-negative number`);
    return Math.floor(n);
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(
      'npm run fuzz -- [--seed N] [--count N] [--target cpu[:w32|:w64],…] [--case N] [--max-failures N] [--seconds N]',
    );
    process.exit(0);
  }
  const seed = num('seed', (Date.now() ^ (process.pid << 16)) >>> 0) >>> 0;
  const t = get('target');
  const only = get('case');
  return {
    seed,
    count: num('count', 200_000),
    targets: t ? parseTargets(t) : undefined,
    only: only === undefined ? undefined : num('case', 0),
    maxFindings: num('max-failures', 50),
    seconds: get('seconds') === undefined ? undefined : num('seconds', 0),
  };
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const targets = args.targets ?? allTargets();
  console.log(
    `fuzz: seed ${args.seed}, ${args.only !== undefined ? `case ${args.only}` : `${args.count} cases`}, targets ${targets.map((t) => t.name).join(' ')}`,
  );
  const report = runFuzz({
    seed: args.seed,
    count: args.count,
    targets,
    only: args.only,
    maxFindings: args.maxFindings,
    maxMs: args.seconds === undefined ? undefined : args.seconds * 1000,
    onFinding: (f) => console.log(formatFinding(f)),
  });
  console.log(
    `fuzz: ${report.cases} cases in ${(report.ms / 1000).toFixed(1)} s (${Object.entries(report.byKind)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}); decoded ${report.decoded}, DecodeError ${report.decodeErrors}, assembled ${report.assembled}, AsmError ${report.asmErrors}; ` +
      `${report.findings.length} findings${report.stoppedByTime ? ' (stopped by --seconds)' : ''}`,
  );
  process.exitCode = report.findings.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
