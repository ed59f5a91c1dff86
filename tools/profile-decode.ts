/**
 * Work tool: decode and decode+print throughput per family group, on programs built from
 * the LLVM-valid rows of test/data/isa/<gen>/disasm.tsv.gz (rows our decoder decodes to
 * the row's size whatever follows, repeated to --dwords dwords per group).
 *   npx tsx tools/profile-decode.ts [--gen gfx10.3] [--group scalar,vop] [--dwords 200000]
 *     [--reps 3] [--mode decode|print|both] [--baseline DIR] [--prof DIR]
 * --baseline DIR: a copy of src/isa (e.g. `cp -r src/isa /tmp/isa-before`) measured in the
 *   same process, interleaved with the working tree's, so the two are compared side by side
 *   on a noisy machine. Figures are the best of --reps timed passes after a warm-up.
 * --prof DIR: writes a CPU profile of the timed passes (working tree only) to DIR, and
 *   prints the top self-time functions. (Or run under `node --import tsx --cpu-prof`.)
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORPUS_GENS, disasmRows, isLlvmInvalidRegister, type CorpusGen } from '../test/isa/corpus-data.ts';
import type { Target } from '../src/isa/gen.ts';
import type * as DecoderModule from '../src/isa/decoder.ts';
import type * as DisasmModule from '../src/isa/disasm.ts';
import type * as ErrorsModule from '../src/isa/errors.ts';
import type * as GenModule from '../src/isa/gen.ts';
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

interface Impl {
  readonly label: string;
  decodeAt(target: Target, words: Uint32Array, at: number): Instruction;
  printInstruction(target: Target, inst: Instruction): string;
  readonly DecodeError: new (...a: never[]) => Error;
}

async function loadImpl(label: string, dir: string): Promise<Impl> {
  const url = (f: string) => pathToFileURL(join(resolve(dir), f)).href;
  const dec = (await import(url('decoder.ts'))) as typeof DecoderModule;
  const dis = (await import(url('disasm.ts'))) as typeof DisasmModule;
  const err = (await import(url('errors.ts'))) as typeof ErrorsModule;
  return { label, decodeAt: dec.decodeAt, printInstruction: dis.printInstruction, DecodeError: err.DecodeError };
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

function timeDecode(impl: Impl, target: Target, words: Uint32Array): { count: number; ms: number; sink: number } {
  let at = 0;
  let count = 0;
  let sink = 0;
  const start = performance.now();
  while (at < words.length) {
    try {
      const inst = impl.decodeAt(target, words, at);
      at += inst.size >>> 2;
      sink += inst.size;
      count++;
    } catch (e) {
      if (!(e instanceof impl.DecodeError)) throw e;
      at++;
    }
  }
  return { count, ms: performance.now() - start, sink };
}

function timePrint(impl: Impl, target: Target, words: Uint32Array): { count: number; ms: number; sink: number } {
  let at = 0;
  let count = 0;
  let sink = 0;
  const start = performance.now();
  while (at < words.length) {
    try {
      const inst = impl.decodeAt(target, words, at);
      sink += impl.printInstruction(target, inst).length;
      at += inst.size >>> 2;
      count++;
    } catch (e) {
      if (!(e instanceof impl.DecodeError)) throw e;
      at++;
    }
  }
  return { count, ms: performance.now() - start, sink };
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
  console.log(`${genDir} (${g.cpu}), ${dwords} dwords per group, best of ${reps}`);
  for (const name of groups) {
    const re = GROUPS[name];
    if (!re) throw new Error(`unknown group ${name}; known: ${Object.keys(GROUPS).join(', ')}`);
    // Both implementations run the program the working tree builds (the same bytes).
    const targets = await Promise.all(
      impls.map(async (_impl, i) => {
        const gen = (await import(
          pathToFileURL(resolve(i === 0 ? 'src/isa' : baselineDir!, 'gen.ts')).href
        )) as typeof GenModule;
        return gen.targetFor(g.cpu, g.wave64);
      }),
    );
    const prog = buildProgram(impls[0], targets[0], re);
    if (prog.instructions === 0) {
      console.log(`${name.padEnd(8)} no decodable rows`);
      continue;
    }
    const best = impls.map(() => ({ decode: 0, print: 0 }));
    const warm = prog.words.subarray(0, Math.min(prog.words.length, 20000));
    impls.forEach((impl, i) => {
      timeDecode(impl, targets[i], warm);
      timePrint(impl, targets[i], warm);
    });
    if (session) await session.post('Profiler.start');
    for (let r = 0; r < reps; r++) {
      // Alternate which implementation runs first: the order alone skews figures.
      const order = r % 2 === 0 ? impls.map((_, i) => i) : impls.map((_, i) => impls.length - 1 - i);
      order.forEach((i) => {
        if (session && i > 0) return;
        if (mode !== 'print') {
          const d = timeDecode(impls[i], targets[i], prog.words);
          best[i].decode = Math.max(best[i].decode, (d.count * 1000) / d.ms);
        }
        if (mode !== 'decode') {
          const p = timePrint(impls[i], targets[i], prog.words);
          best[i].print = Math.max(best[i].print, (p.count * 1000) / p.ms);
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
      .map((impl, i) => `${impl.label}: decode ${fmt(best[i].decode)}, decode+print ${fmt(best[i].print)}`)
      .join('  |  ');
    const speedup =
      impls.length > 1
        ? `  (x${(best[0].decode / best[1].decode).toFixed(2)}, x${(best[0].print / best[1].print).toFixed(2)})`
        : '';
    console.log(
      `${name.padEnd(8)} ${String(prog.instructions).padStart(7)} inst (${String(prog.rows).padStart(5)} rows)  ${line}${speedup}`,
    );
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a profile. */
function printTop(profile: { nodes: ProfileNode[]; samples?: number[] }, n: number): void {
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(src|tools|test)\//, '$1/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + hits);
  }
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, n))
    console.log(`  ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
}

await main();
