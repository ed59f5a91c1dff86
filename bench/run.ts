/**
 * `npm run bench`: the project's benchmarks. Each prints its figures and writes them, with
 * units, to bench/results.json (its own entry replaced, the others kept).
 *
 * decoder: a program of valid gfx1030 code (the LLVM-valid rows of
 * test/data/isa/gfx10.3/disasm.tsv.gz that our decoder decodes to the row's size, repeated
 * to BENCH_DWORDS dwords, default 1,000,000), measured three ways in the same run:
 * decodeAt in a loop, decode + printInstruction, and `llvm-mc-19 --disassemble
 * -mcpu=gfx1030` on the same bytes (byte tokens, one instruction a line, in a temp file).
 * Env: BENCH_DWORDS (program size), BENCH_ONLY=decoder (run just that one), LLVM_MC.
 *
 * interp: the reference interpreter (bundled as for the decoder, via bench/interp-entry.ts) on
 * a compute-heavy kernel assembled for gfx1030 wave32 and gfx900 wave64: a loop of VALU
 * (v_fma_f32, v_mul_f32, integer add, xor, and, shift, v_mad_u32_u24) and SALU (counter, compare) with a
 * buffer store at the end, over BENCH_GROUPS groups (default 256) of 64 threads, BENCH_ITERS
 * iterations (default 64). Lane-operations = VALU instructions × active lanes + SALU
 * instructions (every lane is active here; branches, the store and s_endpgm are counted as
 * instructions but not as lane-operations). Counts come from the program's structure and are
 * checked against the interpreter's step count. One whole warm-up run, then a timed one.
 * Env: BENCH_GROUPS, BENCH_ITERS, BENCH_ONLY=interp; BENCH_INTERP_BASE=<a copy of the tree>
 * also runs that tree's interpreter, interleaved in the same run, for a before/after figure.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { pathToFileURL } from 'node:url';
import type * as IsaEntry from './isa-entry.ts';
import type * as InterpEntry from './interp-entry.ts';
import { disasmRows, isLlvmInvalidRegister } from '../test/isa/corpus-data.ts';
import { machine, printFigures, writeResult, type Figure } from './results.ts';

/** The instruction layer bundled as the app ships it (see bench/isa-entry.ts). */
async function loadBundledIsa(): Promise<typeof IsaEntry> {
  const dir = mkdtempSync(join(tmpdir(), 'gcn-bench-isa-'));
  const outfile = join(dir, 'isa.mjs');
  buildSync({
    entryPoints: [join(import.meta.dirname, 'isa-entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)) as typeof IsaEntry;
}

const { decodeAt, hexToBytes, printInstruction, DecodeError, targetFor } = await loadBundledIsa();

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}=${v} is not a positive integer`);
  return n;
}

const now = () => performance.now();

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

let clockTicks: number | undefined;

/** User + system CPU time of this process's waited-for children, in ms (Linux; 0 elsewhere). */
function childCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3, `state`
    if (clockTicks === undefined) {
      const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
      clockTicks = Number(r.stdout?.trim()) || 100;
    }
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks; // cutime, cstime
  } catch {
    return 0;
  }
}

function rate(count: number, ms: number): number | null {
  return count > 0 && ms > 0 ? Math.round((count * 1000) / ms) : null;
}

function ratio(a: number | null, b: number | null): number | null {
  return a !== null && b !== null && b > 0 ? Number((a / b).toFixed(3)) : null;
}

const S_NOP_0 = 0xbf800000;

interface Program {
  words: Uint32Array;
  /** Instruction starts, in dwords. */
  instructions: number;
  /** Distinct corpus rows repeated to build it. */
  rows: number;
  /** The bytes, one instruction per line, as llvm-mc byte tokens. */
  tokens: string;
  /** True when our decoder decodes no row yet, and the program is every LLVM-valid row. */
  fallback: boolean;
}

function buildProgram(dwords: number): Program & { candidateRows: number; threw: number } {
  const target = targetFor('gfx1030');
  const valid = disasmRows('gfx10.3').filter((r) => r.text !== '<invalid>' && !isLlvmInvalidRegister(r.text));
  // Rows whose decode (or print) throws something other than DecodeError are bugs the fuzz
  // test reports; here they are only counted and left out, so the benchmark still runs.
  let threw = 0;
  const decodes = valid.filter((r) => {
    const words = new Uint32Array(hexToBytes(r.hex).buffer);
    try {
      const inst = decodeAt(target, words, 0);
      if (inst.size !== r.hex.length / 2) return false;
      printInstruction(target, inst);
      // A few encodings (e.g. a VOP1 whose src0 says SDWA/DPP) are one dword only when
      // nothing follows; in a program they take the next dword. Keep rows whose size
      // does not depend on what comes after (s_nop 0 here).
      const followed = new Uint32Array(words.length + 2).fill(S_NOP_0);
      followed.set(words);
      return decodeAt(target, followed, 0).size === inst.size;
    } catch (e) {
      if (!(e instanceof DecodeError)) threw++;
      return false;
    }
  });
  const fallback = decodes.length === 0;
  const rows = (fallback ? valid : decodes).map((r) => ({ words: new Uint32Array(hexToBytes(r.hex).buffer.slice(0)) }));
  const out = new Uint32Array(dwords);
  const lines: string[] = [];
  let at = 0;
  let instructions = 0;
  outer: while (rows.length > 0) {
    for (const r of rows) {
      if (at + r.words.length > dwords) break outer;
      out.set(r.words, at);
      at += r.words.length;
      instructions++;
      const bytes = new Uint8Array(r.words.buffer, r.words.byteOffset, r.words.byteLength);
      lines.push(Array.from(bytes, (b) => '0x' + b.toString(16).padStart(2, '0')).join(','));
    }
  }
  return {
    words: out.subarray(0, at),
    instructions,
    rows: rows.length,
    tokens: lines.join('\n') + '\n',
    fallback,
    candidateRows: valid.length,
    threw,
  };
}

function benchDecoder(): void {
  const dwords = envInt('BENCH_DWORDS', 1_000_000);
  const llvmMc = process.env.LLVM_MC ?? 'llvm-mc-19';
  const target = targetFor('gfx1030');
  const t0 = now();
  const program = buildProgram(dwords);
  const buildMs = now() - t0;
  const { words } = program;
  console.log(
    `decoder: ${words.length.toLocaleString('en-US')} dwords, ${program.instructions.toLocaleString('en-US')} instructions ` +
      `from ${program.rows} corpus rows (${program.candidateRows} LLVM-valid` +
      (program.threw ? `, ${program.threw} left out: decode or print threw a non-DecodeError` : '') +
      ')' +
      (program.fallback ? ' — our decoder decodes none of them yet: the program is every LLVM-valid row' : '') +
      ` (built in ${buildMs.toFixed(0)} ms)`,
  );

  // Decode only. A short warm-up pass lets the JIT settle before the timed one.
  const decodeOnly = (limit: number): { count: number; errors: number; ms: number; cpuMs: number; sink: number } => {
    let at = 0;
    let count = 0;
    let errors = 0;
    let sink = 0;
    const cpu0 = process.cpuUsage();
    const start = now();
    while (at < limit) {
      try {
        const inst = decodeAt(target, words, at);
        at += inst.size >>> 2;
        sink += inst.size;
        count++;
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        errors++;
        at++;
      }
    }
    const ms = now() - start;
    return { count, errors, ms, cpuMs: cpuMsSince(cpu0), sink };
  };
  const decodePrint = (limit: number): { count: number; errors: number; ms: number; cpuMs: number; sink: number } => {
    let at = 0;
    let count = 0;
    let errors = 0;
    let sink = 0;
    const cpu0 = process.cpuUsage();
    const start = now();
    while (at < limit) {
      try {
        const inst = decodeAt(target, words, at);
        sink += printInstruction(target, inst).length;
        at += inst.size >>> 2;
        count++;
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        errors++;
        at++;
      }
    }
    const ms = now() - start;
    return { count, errors, ms, cpuMs: cpuMsSince(cpu0), sink };
  };
  const warm = Math.min(words.length, 50_000);
  // With nothing decodable the loops only time the DecodeError path: a slice is enough.
  const measured = program.fallback ? Math.min(words.length, 100_000) : words.length;
  // Two whole warm-up passes: the JIT compiles each codec's paths only once they are hot,
  // and a run of a million instructions should be timed at the speed it settles to.
  decodeOnly(warm);
  decodeOnly(measured);
  const d = decodeOnly(measured);
  decodePrint(warm);
  decodePrint(measured);
  const p = decodePrint(measured);

  // llvm-mc on the same bytes: the whole process, and its start-up alone (an empty input).
  const dir = mkdtempSync(join(tmpdir(), 'gcn-bench-'));
  let mcLines: string[] = [];
  let mc: { ms: number; cpuMs: number; startupMs: number; count: number; error?: string };
  try {
    const input = join(dir, 'program.txt');
    const empty = join(dir, 'empty.txt');
    const output = join(dir, 'out.s');
    writeFileSync(input, program.tokens);
    writeFileSync(empty, '\n');
    const runMc = (
      file: string,
    ): { ms: number; cpuMs: number; status: number | null; stderr: string; error?: Error } => {
      const fd = openSync(output, 'w');
      const child0 = childCpuMs();
      const start = now();
      const r = spawnSync(llvmMc, ['--disassemble', '-triple=amdgcn', '-mcpu=gfx1030', file], {
        stdio: ['ignore', fd, 'pipe'],
        maxBuffer: 64 << 20,
      });
      const ms = now() - start;
      const cpuMs = childCpuMs() - child0;
      closeSync(fd);
      return { ms, cpuMs, status: r.status, stderr: r.stderr?.toString() ?? '', error: r.error };
    };
    const startup = runMc(empty);
    const full = runMc(input);
    if (full.error || startup.error) {
      mc = { ms: 0, cpuMs: 0, startupMs: 0, count: 0, error: `${llvmMc}: ${(full.error ?? startup.error)!.message}` };
    } else {
      const text = readFileSync(output, 'utf8');
      mcLines = text.split('\n').filter((line) => line.startsWith('\t') && !line.startsWith('\t.'));
      const count = mcLines.length;
      mc = { ms: full.ms, cpuMs: full.cpuMs, startupMs: startup.ms, count };
      if (full.status !== 0) mc.error = `${llvmMc} exited ${full.status}: ${full.stderr.slice(0, 300)}`;
      else if (count !== program.instructions)
        mc.error = `llvm-mc printed ${count} instructions, the program has ${program.instructions}`;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Not timed: how many of our lines are llvm-mc's, instruction by instruction.
  let same = 0;
  let compared = 0;
  if (mcLines.length > 0) {
    let at = 0;
    for (let i = 0; at < words.length && i < mcLines.length; i++) {
      try {
        const inst = decodeAt(target, words, at);
        if (printInstruction(target, inst) === mcLines[i].slice(1)) same++;
        at += inst.size >>> 2;
      } catch {
        at++;
      }
      compared++;
    }
  }
  const oursDecode = rate(d.count, d.ms);
  const oursPrint = rate(p.count, p.ms);
  const mcRate = rate(mc.count, mc.ms);
  const oursDecodeCpu = rate(d.count, d.cpuMs);
  const oursPrintCpu = rate(p.count, p.cpuMs);
  const mcCpu = rate(mc.count, mc.cpuMs);
  const mcNet = mc.ms - mc.startupMs > 0 ? rate(mc.count, mc.ms - mc.startupMs) : null;
  const figures: Record<string, Figure> = {
    program_dwords: { value: words.length, unit: 'dwords' },
    program_instructions: { value: program.instructions, unit: 'instructions' },
    program_rows: {
      value: program.rows,
      unit: 'distinct corpus rows',
      note: program.fallback ? 'fallback: every LLVM-valid row' : 'rows our decoder decodes',
    },
    decode_only: {
      value: oursDecode,
      unit: 'instructions/s',
      note: `${d.count} decoded, ${d.errors} DecodeErrors, ${d.ms.toFixed(1)} ms`,
    },
    decode_print: { value: oursPrint, unit: 'instructions/s', note: `${p.count} printed, ${p.ms.toFixed(1)} ms` },
    llvm_mc: {
      value: mcRate,
      unit: 'instructions/s',
      note: mc.error ?? `${mc.count} printed, ${mc.ms.toFixed(0)} ms whole process`,
    },
    llvm_mc_text_agreement: {
      value: compared > 0 ? Number((same / compared).toFixed(4)) : null,
      unit: 'fraction of instructions',
      note: `${same} of ${compared} of our lines are llvm-mc's (in order; one line per instruction)`,
    },
    llvm_mc_startup: { value: Number(mc.startupMs.toFixed(1)), unit: 'ms', note: 'empty input' },
    llvm_mc_net: { value: mcNet, unit: 'instructions/s', note: 'process time less start-up' },
    ratio_decode_only_vs_llvm_mc: { value: ratio(oursDecode, mcRate), unit: 'x (ours/llvm-mc)' },
    ratio_decode_print_vs_llvm_mc: { value: ratio(oursPrint, mcRate), unit: 'x (ours/llvm-mc)' },
    ratio_decode_print_vs_llvm_mc_net: { value: ratio(oursPrint, mcNet), unit: 'x (ours/llvm-mc less start-up)' },
    // CPU time (user + system) rather than wall clock: steadier on a shared 2-core machine.
    decode_only_cpu: { value: oursDecodeCpu, unit: 'instructions/CPU-s', note: `${d.cpuMs.toFixed(0)} ms CPU` },
    decode_print_cpu: { value: oursPrintCpu, unit: 'instructions/CPU-s', note: `${p.cpuMs.toFixed(0)} ms CPU` },
    llvm_mc_cpu: {
      value: mcCpu,
      unit: 'instructions/CPU-s',
      note: `${mc.cpuMs.toFixed(0)} ms CPU (children's times from /proc/self/stat, 10 ms ticks)`,
    },
    ratio_decode_only_vs_llvm_mc_cpu: { value: ratio(oursDecodeCpu, mcCpu), unit: 'x (ours/llvm-mc, CPU time)' },
    ratio_decode_print_vs_llvm_mc_cpu: { value: ratio(oursPrintCpu, mcCpu), unit: 'x (ours/llvm-mc, CPU time)' },
  };
  printFigures('decoder (gfx1030)', figures);
  writeResult('decoder', {
    measuredAt: new Date().toISOString(),
    machine: machine(),
    params: { BENCH_DWORDS: dwords, mcpu: 'gfx1030', llvmMc, fallback: program.fallback, oursMeasuredDwords: measured },
    figures,
  });
}

/** The interpreter, the assembler and the vector bridge, bundled (see bench/interp-entry.ts). */
async function loadBundledInterp(root = join(import.meta.dirname, '..')): Promise<typeof InterpEntry> {
  const dir = mkdtempSync(join(tmpdir(), 'gcn-bench-interp-'));
  const outfile = join(dir, 'interp.mjs');
  buildSync({
    entryPoints: [join(root, 'bench', 'interp-entry.ts')],
    // The capture code's CommonJS dependencies (yaml) require Node's built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)) as typeof InterpEntry;
}

const INTERP_CODE = 0x10000000;
const INTERP_DATA = 0x30000000;

/** The interpreter benchmark's kernel: once-through prologue and epilogue, a counted loop body. */
function interpKernel(gfx10: boolean, iters: number): { prologue: string[]; body: string[]; epilogue: string[] } {
  const addU = gfx10 ? 'v_add_nc_u32' : 'v_add_u32';
  return {
    // s[0:3]: the V#; s4: the group id (RSRC2 TGID_X); v0: the thread id.
    prologue: [
      `s_mov_b32 s5, ${iters}`,
      's_mul_i32 s6, s4, 256',
      'v_cvt_f32_u32 v1, v0',
      's_mov_b32 s7, 0x3fffffff',
      's_mov_b32 s8, 0x3f7ffe00',
      's_mov_b32 s9, 0x3f800347',
      'v_mov_b32 v2, s9',
      'v_mov_b32 v3, 0.5',
      'v_mov_b32 v4, v0',
      'v_lshlrev_b32 v5, 2, v0',
    ],
    body: [
      'loop:',
      'v_fma_f32 v1, v1, v2, v3',
      `${addU} v4, v4, v0`,
      'v_xor_b32 v3, v3, v4',
      'v_and_b32 v3, s7, v3',
      'v_mul_f32 v2, s8, v2',
      'v_lshrrev_b32 v6, 3, v4',
      'v_mad_u32_u24 v7, v6, v4, v7',
      `${addU} v7, v7, v1`,
      's_sub_u32 s5, s5, 1',
      's_cmp_lg_u32 s5, 0',
      's_cbranch_scc1 loop',
    ],
    epilogue: ['buffer_store_dword v7, v5, s[0:3], s6 offen', 's_endpgm'],
  };
}

async function benchInterp(): Promise<void> {
  const groups = envInt('BENCH_GROUPS', 256);
  const iters = envInt('BENCH_ITERS', 64);
  const ours = await loadBundledInterp();
  const baseRoot = process.env.BENCH_INTERP_BASE;
  const base = baseRoot ? await loadBundledInterp(baseRoot) : undefined;
  const { assembleProgram, targetFor, encodeBufferDescriptor, GuestMemory } = ours;
  const figures: Record<string, Figure> = {};
  const params: Record<string, string | number | boolean> = { BENCH_GROUPS: groups, BENCH_ITERS: iters };
  for (const [cpu, wave64] of [
    ['gfx1030', false],
    ['gfx900', true],
  ] as const) {
    const target = targetFor(cpu, wave64);
    const lanes = wave64 ? 64 : 32;
    const threads = 64;
    const k = interpKernel(cpu === 'gfx1030', iters);
    const code = assembleProgram(target, [...k.prologue, ...k.body, ...k.epilogue].join('\n')).words;
    const kind = (lines: string[]) => {
      const insts = lines.filter((l) => !l.endsWith(':'));
      return {
        all: insts.length,
        valu: insts.filter((l) => l.startsWith('v_')).length,
        salu: insts.filter((l) => l.startsWith('s_') && !/^s_(cbranch|branch|endpgm|waitcnt|nop)/.test(l)).length,
      };
    };
    const [p, b, e] = [kind(k.prologue), kind(k.body), kind(k.epilogue)];
    const waves = groups * Math.ceil(threads / lanes);
    const perWave = (f: 'all' | 'valu' | 'salu') => p[f] + iters * b[f] + e[f];
    const instructions = waves * perWave('all');
    const valu = waves * perWave('valu');
    const salu = waves * perWave('salu');
    const laneOps = valu * lanes + salu;
    const run = (m: typeof InterpEntry) => {
      const vector = m.vectorBridge();
      if (!vector) throw new Error('interp: no vector ALU semantics');
      const memory = new GuestMemory([
        { address: INTERP_CODE, bytes: new Uint8Array(code.buffer) },
        { address: INTERP_DATA, bytes: new Uint8Array(groups * 256) },
      ]);
      const vsharp = [...encodeBufferDescriptor(target.gen, { base_address: INTERP_DATA, num_records: groups * 256 })];
      const cpu0 = process.cpuUsage();
      const start = now();
      const r = m.runSetup(
        {
          kind: 'dispatch',
          target,
          programAddress: INTERP_CODE,
          rsrc2: (4 << 1) | (1 << 7), // 4 user SGPRs, then TGID_X
          userData: [...vsharp, ...new Array<number>(12).fill(0)],
          numThreads: [threads, 1, 1],
          grid: [groups, 1, 1],
        },
        memory,
        { vector },
      );
      const ms = now() - start;
      const cpuMs = cpuMsSince(cpu0);
      if (r.steps !== instructions) throw new Error(`interp ${cpu}: ${r.steps} steps, expected ${instructions}`);
      return { ms, cpuMs, sink: memory.read32(INTERP_DATA + 4) };
    };
    run(ours); // warm-up: the whole dispatch once
    const b0 = base && run(base);
    const t = run(ours);
    const tb = base && run(base);
    const tag = `${cpu}_w${lanes}`;
    if (b0 && tb) {
      if (b0.sink !== t.sink) throw new Error(`interp ${cpu}: the base tree stores ${b0.sink}, ours ${t.sink}`);
      figures[`${tag}_base_lane_ops`] = {
        value: rate(laneOps, tb.ms),
        unit: 'lane-operations/s',
        note: `BENCH_INTERP_BASE, ${tb.ms.toFixed(0)} ms, ${tb.cpuMs.toFixed(0)} ms CPU`,
      };
      figures[`${tag}_base_lane_ops_cpu`] = { value: rate(laneOps, tb.cpuMs), unit: 'lane-operations/CPU-s' };
      figures[`${tag}_speedup_cpu`] = {
        value: ratio(rate(laneOps, t.cpuMs), rate(laneOps, tb.cpuMs)),
        unit: 'x (ours/base, CPU time)',
      };
      params.BENCH_INTERP_BASE = baseRoot!;
    }
    const note = `${t.ms.toFixed(0)} ms, ${t.cpuMs.toFixed(0)} ms CPU; ${waves} waves, ${instructions} instructions (${valu} VALU × ${lanes} lanes + ${salu} SALU)`;
    figures[`${tag}_lane_ops`] = { value: rate(laneOps, t.ms), unit: 'lane-operations/s', note };
    figures[`${tag}_lane_ops_cpu`] = { value: rate(laneOps, t.cpuMs), unit: 'lane-operations/CPU-s' };
    figures[`${tag}_instructions`] = { value: rate(instructions, t.ms), unit: 'instructions/s' };
    figures[`${tag}_instructions_cpu`] = { value: rate(instructions, t.cpuMs), unit: 'instructions/CPU-s' };
    params[`${tag}_lane_operations`] = laneOps;
    params[`${tag}_result_word1`] = t.sink;
  }
  printFigures('interp (reference interpreter)', figures);
  writeResult('interp', { measuredAt: new Date().toISOString(), machine: machine(), params, figures });
}

const BENCHMARKS: Record<string, () => void | Promise<void>> = { decoder: benchDecoder, interp: benchInterp };

const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
for (const [name, fn] of Object.entries(BENCHMARKS)) {
  if (only && !only.includes(name)) continue;
  await fn();
}
console.log(`\nwritten to bench/results.json`);
