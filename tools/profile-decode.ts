/**
 * Work tool: decode and decode+print throughput per family group, on programs built from
 * the LLVM-valid rows of test/data/isa/<gen>/disasm.tsv.gz (rows our decoder decodes to
 * the row's size whatever follows, repeated to --dwords dwords per group).
 *   npx tsx tools/profile-decode.ts [--gen gfx10.3] [--group scalar,vop] [--dwords 200000]
 *     [--reps 3] [--mode decode|print|both] [--baseline DIR] [--prof DIR]
 * The instruction layer is bundled with esbuild first, as bench/run.ts does: run from
 * tsx, every function is wrapped in its naming helper, which both slows it and puts the
 * helper at the top of a profile. Each bundle carries its own timing loops, so two trees
 * measured in one process do not share the loops' type feedback.
 * --baseline DIR: a copy of src/isa (e.g. `cp -r src/isa /tmp/isa-before`) measured in the
 *   same process, interleaved with the working tree's, so the two are compared side by side
 *   on a noisy machine. Figures are the best of --reps timed passes after a warm-up, in
 *   instructions per second of wall clock and per CPU-second (user + system).
 * --prof DIR: writes a CPU profile of the timed passes (working tree only) to DIR, and
 *   prints the top self-time functions.
 * --check (with --baseline): before timing, compares what the two trees make of every
 *   row of the generation's corpus, as is and with each row's bits flipped one at a time
 *   (a sample): text or error, size, encoding, instruction, fields with their key order,
 *   literal. A speed change must not change any of them; differences are printed.
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { CORPUS_GENS, disasmRows, isLlvmInvalidRegister, type CorpusGen } from '../test/isa/corpus-data.ts';
import type { Target } from '../src/isa/gen.ts';
import type { Instruction } from '../src/isa/instruction.ts';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const genDir = (opt('gen') ?? 'gfx10.3') as CorpusGen;
const dwords = Number(opt('dwords') ?? '200000');
const reps = Number(opt('reps') ?? '3');
const mode = opt('mode') ?? 'both';
const baselineDir = opt('baseline');
const profDir = opt('prof');

/** Family groups by the corpus's family column. */
const GROUPS: Readonly<Record<string, RegExp>> = {
  scalar: /^(SOP1|SOP2|SOPK|SOPC|SOPP|SMEM)$/,
  vop: /^(VOP1|VOP2|VOPC|VOP3|VOP3\(VOPC\)|VOP3P)$/,
  'vop-ext': /_(SDWA|DPP16|DPP8)$|^VOP3.*_DPP/,
  vopd: /^VOPD$/,
  memory: /^(DS|MUBUF|MTBUF|FLAT|GLOBAL|SCRATCH)$/,
  image: /^MIMG$/,
  interp: /^(VINTRP|VINTERP|LDSDIR)$/,
  exp: /^EXP$/,
  all: /./,
};
const groups = opt('group')?.split(',') ?? Object.keys(GROUPS);

interface Timing {
  readonly count: number;
  readonly ms: number;
  readonly cpuMs: number;
  readonly sink: number;
}

/** What a bundle exports (see ENTRY). */
interface Impl {
  readonly label: string;
  decodeAt(target: Target, words: Uint32Array, at: number): Instruction;
  printInstruction(target: Target, inst: Instruction): string;
  targetFor(cpu: string, wave64?: boolean): Target;
  timeDecode(target: Target, words: Uint32Array): Timing;
  timePrint(target: Target, words: Uint32Array): Timing;
  /** Everything the decoder and printer make of the instruction at `at`, as one string. */
  describeAt(target: Target, words: Uint32Array, at: number): string;
}

/** The bundle's entry: the instruction layer of `dir`, and timing loops of its own. */
const ENTRY = (dir: string): string => `
import { decodeAt } from ${JSON.stringify(join(dir, 'decoder.ts'))};
import { printInstruction } from ${JSON.stringify(join(dir, 'disasm.ts'))};
import { DecodeError } from ${JSON.stringify(join(dir, 'errors.ts'))};
export { decodeAt, printInstruction };
export { targetFor } from ${JSON.stringify(join(dir, 'gen.ts'))};
function loop(target, words, print) {
  let at = 0, count = 0, sink = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  while (at < words.length) {
    try {
      const inst = decodeAt(target, words, at);
      sink += print ? printInstruction(target, inst).length : inst.size;
      at += inst.size >>> 2;
      count++;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      at++;
    }
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { count, ms, cpuMs: (cpu.user + cpu.system) / 1000, sink };
}
export function timeDecode(target, words) { return loop(target, words, false); }
export function timePrint(target, words) { return loop(target, words, true); }
export function describeAt(target, words, at) {
  let inst;
  try {
    inst = decodeAt(target, words, at);
  } catch (e) {
    return e instanceof DecodeError ? 'error ' + e.code + ' ' + e.offset + ' ' + e.reason : 'threw ' + e;
  }
  let text;
  try {
    text = printInstruction(target, inst);
  } catch (e) {
    text = e instanceof DecodeError ? 'print error ' + e.code + ' ' + e.reason : 'print threw ' + e;
  }
  return [text, inst.size, inst.encoding, inst.def.name, inst.offset, JSON.stringify(inst.fields), Object.keys(inst).join(','), inst.literal].join(' | ');
}
`;

async function loadImpl(label: string, dir: string): Promise<Impl> {
  const tmp = mkdtempSync(join(tmpdir(), 'gcn-profile-'));
  const entry = join(tmp, 'entry.mjs');
  const outfile = join(tmp, 'isa.mjs');
  writeFileSync(entry, ENTRY(resolve(dir)));
  buildSync({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  const m = (await import(pathToFileURL(outfile).href)) as Omit<Impl, 'label'>;
  return {
    label,
    decodeAt: m.decodeAt,
    printInstruction: m.printInstruction,
    targetFor: m.targetFor,
    timeDecode: m.timeDecode,
    timePrint: m.timePrint,
    describeAt: m.describeAt,
  };
}

const S_NOP_0 = 0xbf800000;

function hexWords(hex: string): Uint32Array {
  const out = new Uint32Array(hex.length >>> 3);
  for (let i = 0; i < out.length; i++) {
    let w = 0;
    for (let b = 0; b < 4; b++) w |= parseInt(hex.slice(8 * i + 2 * b, 8 * i + 2 * b + 2), 16) << (8 * b);
    out[i] = w >>> 0;
  }
  return out;
}

/** The group's program: rows `impl` decodes and prints, repeated to `dwords` dwords. */
function buildProgram(
  impl: Impl,
  target: Target,
  re: RegExp,
): { words: Uint32Array; instructions: number; rows: number } {
  const rows: Uint32Array[] = [];
  for (const r of disasmRows(genDir)) {
    if (!re.test(r.family) || r.text === '<invalid>' || isLlvmInvalidRegister(r.text)) continue;
    const words = hexWords(r.hex);
    try {
      const inst = impl.decodeAt(target, words, 0);
      if (inst.size !== r.hex.length / 2) continue;
      impl.printInstruction(target, inst);
      const followed = new Uint32Array(words.length + 2).fill(S_NOP_0);
      followed.set(words);
      if (impl.decodeAt(target, followed, 0).size !== inst.size) continue;
      rows.push(words);
    } catch {
      continue;
    }
  }
  const out = new Uint32Array(dwords);
  let at = 0;
  let instructions = 0;
  outer: while (rows.length > 0) {
    for (const w of rows) {
      if (at + w.length > dwords) break outer;
      out.set(w, at);
      at += w.length;
      instructions++;
    }
  }
  return { words: out.subarray(0, at), instructions, rows: rows.length };
}

const fmt = (n: number) => (n / 1e6).toFixed(3).padStart(7) + ' M/s';

async function main(): Promise<void> {
  const g = CORPUS_GENS.find((x) => x.dir === genDir);
  if (!g) throw new Error(`unknown --gen ${genDir}`);
  const impls = [await loadImpl('tree', 'src/isa')];
  if (baselineDir) impls.push(await loadImpl('base', baselineDir));
  let session: Session | undefined;
  if (profDir) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  console.log(`${genDir} (${g.cpu}), ${dwords} dwords per group, best of ${reps} (wall | CPU)`);
  const targets = impls.map((impl) => impl.targetFor(g.cpu, g.wave64));
  if (args.includes('--check')) {
    if (impls.length < 2) throw new Error('--check compares with --baseline DIR');
    const differences = checkSame(impls[0], impls[1], targets[0], targets[1]);
    if (differences > 0) process.exitCode = 1;
  }
  for (const name of groups) {
    const re = GROUPS[name];
    if (!re) throw new Error(`unknown group ${name}; known: ${Object.keys(GROUPS).join(', ')}`);
    // Both implementations run the program the working tree builds (the same bytes).
    const prog = buildProgram(impls[0], targets[0], re);
    if (prog.instructions === 0) {
      console.log(`${name.padEnd(8)} no decodable rows`);
      continue;
    }
    const best = impls.map(() => ({ decode: 0, print: 0, decodeCpu: 0, printCpu: 0 }));
    const warm = prog.words.subarray(0, Math.min(prog.words.length, 20000));
    impls.forEach((impl, i) => {
      impl.timeDecode(targets[i], warm);
      impl.timePrint(targets[i], warm);
    });
    if (session) await session.post('Profiler.start');
    for (let r = 0; r < reps; r++) {
      // Alternate which implementation runs first: the order alone skews figures.
      const order = r % 2 === 0 ? impls.map((_, i) => i) : impls.map((_, i) => impls.length - 1 - i);
      order.forEach((i) => {
        if (session && i > 0) return;
        if (mode !== 'print') {
          const d = impls[i].timeDecode(targets[i], prog.words);
          best[i].decode = Math.max(best[i].decode, (d.count * 1000) / d.ms);
          best[i].decodeCpu = Math.max(best[i].decodeCpu, (d.count * 1000) / d.cpuMs);
        }
        if (mode !== 'decode') {
          const p = impls[i].timePrint(targets[i], prog.words);
          best[i].print = Math.max(best[i].print, (p.count * 1000) / p.ms);
          best[i].printCpu = Math.max(best[i].printCpu, (p.count * 1000) / p.cpuMs);
        }
      });
    }
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(profDir!, { recursive: true });
      const file = join(profDir!, `${genDir}-${name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`${name}: profile written to ${file}`);
      printTop(profile, 15);
    }
    const line = impls
      .map(
        (impl, i) =>
          `${impl.label}: decode ${fmt(best[i].decode)} | ${fmt(best[i].decodeCpu)}, ` +
          `decode+print ${fmt(best[i].print)} | ${fmt(best[i].printCpu)}`,
      )
      .join('  |  ');
    const speedup =
      impls.length > 1
        ? `  (CPU x${(best[0].decodeCpu / best[1].decodeCpu).toFixed(2)}, x${(best[0].printCpu / best[1].printCpu).toFixed(2)})`
        : '';
    console.log(
      `${name.padEnd(8)} ${String(prog.instructions).padStart(7)} inst (${String(prog.rows).padStart(5)} rows)  ${line}${speedup}`,
    );
  }
}

/** Compares the two trees on every corpus row (and one-bit mutations of a sample); returns the differences. */
function checkSame(tree: Impl, base: Impl, t0: Target, t1: Target): number {
  let compared = 0;
  let differences = 0;
  const compare = (words: Uint32Array): void => {
    compared++;
    const a = tree.describeAt(t0, words, 0);
    const b = base.describeAt(t1, words, 0);
    if (a !== b && differences++ < 20)
      console.log(`differs: ${Array.from(words, (w) => w.toString(16)).join(' ')}\n  tree: ${a}\n  base: ${b}`);
  };
  const rows = disasmRows(genDir);
  rows.forEach((r, i) => {
    const words = hexWords(r.hex);
    compare(words);
    if (i % 4 !== 0) return;
    for (let bit = 0; bit < 32 * words.length; bit++) {
      const flipped = Uint32Array.from(words);
      flipped[bit >>> 5] ^= 1 << (bit & 31);
      compare(flipped);
    }
  });
  console.log(`check: ${compared} encodings compared, ${differences} differences`);
  return differences;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a profile (bundle lines: read the bundle the tool prints). */
function printTop(profile: { nodes: ProfileNode[]; samples?: number[] }, n: number): void {
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + hits);
  }
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, n))
    console.log(`  ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
}

await main();
