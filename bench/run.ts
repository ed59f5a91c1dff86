/**
 * `npm run bench`: the project's benchmarks. Each prints its figures and writes them, with
 * units, to bench/results.json (its own entry replaced, the others kept).
 *
 * decoder: a program of valid gfx1030 code (the LLVM-valid rows of
 * test/data/isa/gfx10.3/disasm.tsv.gz that our decoder decodes to the row's size, repeated
 * to BENCH_DWORDS dwords, default 1,000,000), measured three ways in the same run:
 * decodeAt in a loop, decode + printInstruction, and `llvm-mc-19 --disassemble
 * -mcpu=gfx1030` on the same bytes (byte tokens, one instruction a line, in a temp file).
 * Figures are wall clock and CPU time (user + system; steadier on a shared machine).
 * Env: BENCH_DWORDS (program size), BENCH_ONLY=decoder (run just that one), LLVM_MC;
 * BENCH_ISA_BASE=<another tree, or a directory holding a copy of src/isa as isa/> also
 * times that tree's decoder and printer on the same program, for a before/after figure.
 *
 * interp: the reference interpreter on two RADV corpus kernels scaled to many groups, with
 * the compiled ALU and the shared step-by-step path side by side, in lane-operations per second
 * (see benchInterp). Env: BENCH_GROUPS, BENCH_SHARED_GROUPS, BENCH_ONLY=interp,
 * BENCH_INTERP_KERNELS (a subset of the kernels, e.g. to profile one).
 *
 * translator: bench/translator.ts (translation time per thousand instructions, against Dawn's
 * own compile of the module, translated vs hand-written WGSL kernels). BENCH_ONLY=translator.
 *
 * app: the web app in Chromium (playwright.bench.config.ts, e2e/bench/app.bench.ts): from the
 * server's answer to an interactive default view, and requestAnimationFrame deltas while
 * scrolling the 65536-record table. BENCH_ONLY=app; BENCH_APP_LOADS, BENCH_SCROLL_FRAMES.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { build, buildSync, type Plugin } from 'esbuild';
import { pathToFileURL } from 'node:url';
import type * as IsaEntry from './isa-entry.ts';
import type * as InterpEntry from './interp-entry.ts';
import { disasmRows, isLlvmInvalidRegister } from '../test/isa/corpus-data.ts';
import { machine, printFigures, writeResult, type Figure } from './results.ts';
import { benchTranslator } from './translator.ts';
import { benchApp } from '../e2e/bench/run-app-bench.ts';

/**
 * The instruction layer bundled as the app ships it (see bench/isa-entry.ts). With
 * `srcRoot` (another tree's src/, BENCH_ISA_BASE) the same entry is bundled with its
 * imports of this tree's src/ taken from there instead, for a before/after in one run.
 */
async function loadBundledIsa(srcRoot?: string): Promise<typeof IsaEntry> {
  const dir = mkdtempSync(join(tmpdir(), 'gcn-bench-isa-'));
  const outfile = join(dir, 'isa.mjs');
  const ours = resolve(import.meta.dirname, '..', 'src') + sep;
  const theirs = srcRoot === undefined ? undefined : resolve(srcRoot) + sep;
  const redirect: Plugin = {
    name: 'isa-base',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        return theirs && path.startsWith(ours) ? { path: theirs + path.slice(ours.length) } : undefined;
      });
    },
  };
  await build({
    entryPoints: [join(import.meta.dirname, 'isa-entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    plugins: theirs ? [redirect] : [],
  });
  return (await import(pathToFileURL(outfile).href)) as typeof IsaEntry;
}

const isa = await loadBundledIsa();
const { decodeAt, hexToBytes, printInstruction, DecodeError, targetFor } = isa;

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

async function benchDecoder(): Promise<void> {
  const dwords = envInt('BENCH_DWORDS', 1_000_000);
  const baseRoot = process.env.BENCH_ISA_BASE;
  // A tree given as its root (with src/ inside) or as its src/ directory.
  const base = baseRoot
    ? await loadBundledIsa(existsSync(join(baseRoot, 'src', 'isa')) ? join(baseRoot, 'src') : baseRoot)
    : undefined;
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

  const warm = Math.min(words.length, 50_000);
  // With nothing decodable the loops only time the DecodeError path: a slice is enough.
  const measured = program.fallback ? Math.min(words.length, 100_000) : words.length;
  // The timed loops are the bundle's own (bench/isa-entry.ts). Two whole warm-up passes
  // each: the JIT compiles each codec's paths only once they are hot, and a run of a
  // million instructions should be timed at the speed it settles to. With BENCH_ISA_BASE
  // the other tree's loops run too, interleaved with ours, on the same program.
  const impls = base ? [isa, base] : [isa];
  for (const m of impls) {
    const t = m.targetFor('gfx1030');
    m.timeDecode(t, words, warm);
    m.timeDecode(t, words, measured);
  }
  const decodeTimes = impls.map((m) => m.timeDecode(m.targetFor('gfx1030'), words, measured));
  for (const m of impls) {
    const t = m.targetFor('gfx1030');
    m.timeDecodePrint(t, words, warm);
    m.timeDecodePrint(t, words, measured);
  }
  const printTimes = impls.map((m) => m.timeDecodePrint(m.targetFor('gfx1030'), words, measured));
  const d = decodeTimes[0];
  const p = printTimes[0];

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
  if (base) {
    // The other tree on the same program, timed between the same warm-ups (before/after).
    const bd = decodeTimes[1];
    const bp = printTimes[1];
    const note = (t: typeof bd) =>
      `${t.count} instructions, ${t.errors} DecodeErrors, ${t.ms.toFixed(1)} ms, ${t.cpuMs.toFixed(0)} ms CPU`;
    figures.base_decode_only = {
      value: rate(bd.count, bd.ms),
      unit: 'instructions/s',
      note: `BENCH_ISA_BASE: ${note(bd)}`,
    };
    figures.base_decode_print = {
      value: rate(bp.count, bp.ms),
      unit: 'instructions/s',
      note: `BENCH_ISA_BASE: ${note(bp)}`,
    };
    figures.base_decode_only_cpu = { value: rate(bd.count, bd.cpuMs), unit: 'instructions/CPU-s' };
    figures.base_decode_print_cpu = { value: rate(bp.count, bp.cpuMs), unit: 'instructions/CPU-s' };
    figures.speedup_decode_only_cpu = {
      value: ratio(oursDecodeCpu, rate(bd.count, bd.cpuMs)),
      unit: 'x (ours/base, CPU time)',
    };
    figures.speedup_decode_print_cpu = {
      value: ratio(oursPrintCpu, rate(bp.count, bp.cpuMs)),
      unit: 'x (ours/base, CPU time)',
    };
  }
  printFigures('decoder (gfx1030)', figures);
  writeResult('decoder', {
    measuredAt: new Date().toISOString(),
    machine: machine(),
    params: {
      BENCH_DWORDS: dwords,
      mcpu: 'gfx1030',
      llvmMc,
      fallback: program.fallback,
      oursMeasuredDwords: measured,
      ...(baseRoot ? { BENCH_ISA_BASE: baseRoot } : {}),
    },
    figures,
  });
}

/** The interpreter, the capture builder, the vector bridge and the corpus kernels' helpers, bundled (see bench/interp-entry.ts). */
async function loadBundledInterp(): Promise<typeof InterpEntry> {
  const dir = mkdtempSync(join(tmpdir(), 'gcn-bench-interp-'));
  const outfile = join(dir, 'interp.mjs');
  buildSync({
    entryPoints: [join(import.meta.dirname, 'interp-entry.ts')],
    // The capture code's CommonJS dependencies (yaml) require Node's built-ins.
    banner: {
      js: "import { createRequire as benchCreateRequire } from 'node:module'; const require = benchCreateRequire(import.meta.url);",
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)) as typeof InterpEntry;
}

type InterpCapture = Awaited<ReturnType<typeof InterpEntry.readCapture>>;
type CorpusTarget = (typeof InterpEntry.TARGETS)[number];

/** A corpus kernel scaled to `groups` groups: its capture, where its output lies, and what the output must be. */
interface BenchKernel {
  readonly capture: InterpCapture;
  readonly out: number;
  readonly expected: Uint32Array;
}

const BENCH_KERNELS = ['divergent_loops', 'int_math', 'lds_prefix_sum'] as const;
type BenchKernelName = (typeof BENCH_KERNELS)[number];

async function benchKernel(
  m: typeof InterpEntry,
  name: BenchKernelName,
  t: CorpusTarget,
  groups: number,
): Promise<BenchKernel> {
  const { radvSpec, RADV_BINDING, rng, storageBuffer, u32 } = m;
  const inAt = 0x30000000;
  const out = 0x38000000;
  let spec;
  let expected: Uint32Array;
  if (name === 'divergent_loops') {
    // As test/corpus-kernels/radv-divergent-loops.ts, over `groups` groups of 64: half the lanes with small accumulators.
    const r = rng(0xd100);
    const x = Uint32Array.from({ length: 64 * groups }, (_, i) => (i % 2 === 0 ? r() & 0xfffff : r()));
    expected = Uint32Array.from(Array.from(x).flatMap((v) => m.divergentLoopsReference(v)));
    spec = radvSpec(t, 'divergent_loops', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', x.length * 4) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', expected.length * 4) },
      ],
      grid: groups,
      group: 64,
      memory: [
        { name: 'in', address: inAt, data: u32(x) },
        { name: 'out', address: out, data: { fill: 0xcd, size: expected.length * 4 } },
      ],
      expected: [{ address: 'out', data: u32(expected) }],
    });
  } else if (name === 'int_math') {
    // As test/corpus-kernels/radv-int-math.ts: per invocation u[4], s[4] in, 32 integer results out (no INT_MIN / -1).
    const r = rng(0x1a7e);
    const ins = Array.from({ length: 64 * groups }, () => {
      const u = [r(), r(), r(), r()] as const;
      const sx = r() | 0;
      const sy = r() | 0;
      return { u, s: [sx, sx === -0x80000000 && sy === -1 ? 1 : sy, r() | 0, r() | 0] as const };
    });
    expected = Uint32Array.from(ins.flatMap((x) => m.intMathReference(x)));
    spec = radvSpec(t, 'int_math', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', ins.length * 32) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', expected.length * 4) },
      ],
      grid: groups,
      group: 64,
      memory: [
        { name: 'in', address: inAt, data: u32(ins.flatMap((x) => [...x.u, ...x.s])) },
        { name: 'out', address: out, data: { fill: 0xcd, size: expected.length * 4 } },
      ],
      expected: [{ address: 'out', data: u32(expected) }],
    });
  } else {
    // As test/corpus-kernels/radv-lds-prefix-sum.ts: groups of 256 threads, a prefix sum through LDS with barriers.
    const r = rng(0x1d5);
    const inp = Uint32Array.from({ length: 256 * groups }, () => r());
    expected = m.prefixSumReference(inp);
    spec = radvSpec(t, 'lds_prefix_sum', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', inp.length * 4) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', inp.length * 4) },
      ],
      grid: groups,
      group: 256,
      ldsBytes: 1024,
      memory: [
        { name: 'in', address: inAt, data: u32(inp) },
        { name: 'out', address: out, data: { fill: 0xcd, size: inp.length * 4 } },
      ],
      expected: [{ address: 'out', data: u32(expected) }],
    });
  }
  const built = await m.buildCapture(spec, {
    readFile: (p: string) => readFileSync(join(import.meta.dirname, '..', 'test', 'corpus-kernels', 'code', p)),
  });
  return { capture: await m.readCapture(await m.writeCapture(built.manifest, built.blobs)), out, expected };
}

interface InterpRun {
  readonly ms: number;
  readonly cpuMs: number;
  readonly steps: number;
  readonly laneOps: number;
  readonly compiled: number;
}

/** One whole dispatch, timed; the output range must equal the kernel's reference rewrite. */
function runKernel(m: typeof InterpEntry, k: BenchKernel, compiled: boolean, label: string): InterpRun {
  const vector = m.vectorBridge();
  if (!vector) throw new Error('interp: no vector ALU semantics');
  const memory = m.GuestMemory.fromCapture(k.capture);
  const setup = m.setupFromCapture(k.capture, memory);
  const cpu0 = process.cpuUsage();
  const start = now();
  const r = m.runSetup(setup, memory, { vector, compiled });
  const ms = now() - start;
  const cpuMs = cpuMsSince(cpu0);
  for (let i = 0; i < k.expected.length; i++) {
    const got = memory.read32(k.out + 4 * i);
    if (got !== k.expected[i]) throw new Error(`interp ${label}: out[${i}] is ${got}, the reference ${k.expected[i]}`);
  }
  return { ms, cpuMs, steps: r.steps, laneOps: r.laneOps, compiled: r.compiledInstructions };
}

/**
 * The interpreter on three RADV corpus kernels (test/corpus-kernels/code), scaled to many groups
 * with seeded inputs, on gfx1030 in wave32 and wave64: divergent_loops (nested data-dependent
 * loops, a switch, a Collatz count: integer VALU under partial EXEC, and SALU loop control),
 * int_math (straight-line integer VALU under full EXEC, 64-bit products, divisions through f32
 * reciprocals, 32 buffer stores a thread) and lds_prefix_sum (LDS, barriers, 8 waves of 32 / 4
 * of 64 per group). Lane-operations = VALU
 * instructions × the lanes active when each issues + SALU instructions, counted by the
 * interpreter as it runs (execute.ts); branches, memory instructions and s_endpgm are steps but
 * not lane-operations. Each kernel runs with the compiled ALU (src/interp/jit, D014) over
 * BENCH_GROUPS groups and with the shared step-by-step path over BENCH_SHARED_GROUPS groups
 * (slower by one to two orders of magnitude, so fewer), each timed after one whole warm-up
 * dispatch of the same size (the compiled path: the fastest of three), in the same run;
 * every run's output is checked against the kernel's reference rewrite.
 * Env: BENCH_GROUPS (default 256), BENCH_SHARED_GROUPS (default 4), BENCH_ONLY=interp,
 * BENCH_INTERP_KERNELS (a comma-separated subset of BENCH_KERNELS).
 */
async function benchInterp(): Promise<void> {
  const groups = envInt('BENCH_GROUPS', 256);
  const sharedGroups = envInt('BENCH_SHARED_GROUPS', 4);
  const m = await loadBundledInterp();
  const figures: Record<string, Figure> = {};
  const params: Record<string, string | number | boolean> = {
    BENCH_GROUPS: groups,
    BENCH_SHARED_GROUPS: sharedGroups,
    lane_operations: 'VALU instructions x lanes active at issue + SALU instructions, counted by the interpreter',
  };
  // BENCH_INTERP_KERNELS=name,name (default all): a subset, e.g. to profile one kernel.
  const only = process.env.BENCH_INTERP_KERNELS?.split(',').filter((x) => x !== '');
  const unknown = only?.filter((x) => !(BENCH_KERNELS as readonly string[]).includes(x)) ?? [];
  if (unknown.length) throw new Error(`BENCH_INTERP_KERNELS: ${unknown.join(', ')} not in ${BENCH_KERNELS.join(', ')}`);
  for (const name of BENCH_KERNELS.filter((k) => !only || only.includes(k)))
    for (const tname of ['gfx1030w32', 'gfx1030w64'] as const) {
      const t = m.TARGETS.find((x) => x.name === tname)!;
      const tag = `${name}_${tname}`;
      const big = await benchKernel(m, name, t, groups);
      const small = await benchKernel(m, name, t, sharedGroups);
      runKernel(m, big, true, `${tag} warm-up`);
      // The fastest of three (a dispatch takes a fraction of a second: one run is at the mercy of the machine's other load).
      const c = [1, 2, 3].map(() => runKernel(m, big, true, `${tag} compiled`)).reduce((x, y) => (y.ms < x.ms ? y : x));
      runKernel(m, small, false, `${tag} warm-up`);
      const s = runKernel(m, small, false, `${tag} shared`);
      const cRate = rate(c.laneOps, c.ms);
      const sRate = rate(s.laneOps, s.ms);
      const note = (r: InterpRun, g: number): string =>
        `${g} groups, ${r.ms.toFixed(0)} ms, ${r.cpuMs.toFixed(0)} ms CPU; ${r.steps} instructions, ${r.laneOps} lane-operations`;
      figures[`${tag}_compiled_lane_ops`] = {
        value: cRate,
        unit: 'lane-operations/s',
        note: `${note(c, groups)}; ${c.compiled} instructions compiled`,
      };
      figures[`${tag}_shared_lane_ops`] = { value: sRate, unit: 'lane-operations/s', note: note(s, sharedGroups) };
      figures[`${tag}_compiled_lane_ops_cpu`] = { value: rate(c.laneOps, c.cpuMs), unit: 'lane-operations/CPU-s' };
      figures[`${tag}_shared_lane_ops_cpu`] = { value: rate(s.laneOps, s.cpuMs), unit: 'lane-operations/CPU-s' };
      figures[`${tag}_compiled_instructions`] = { value: rate(c.steps, c.ms), unit: 'instructions/s' };
      figures[`${tag}_shared_instructions`] = { value: rate(s.steps, s.ms), unit: 'instructions/s' };
      figures[`${tag}_speedup`] = { value: ratio(cRate, sRate), unit: 'x (compiled/shared, lane-operations/s)' };
      params[`${tag}_lanes_per_valu`] = Number((c.laneOps / Math.max(1, c.steps)).toFixed(2));
    }
  printFigures('interp (reference interpreter)', figures);
  writeResult('interp', { measuredAt: new Date().toISOString(), machine: machine(), params, figures });
}

const BENCHMARKS: Record<string, () => void | Promise<void>> = {
  decoder: benchDecoder,
  interp: benchInterp,
  // bench/translator.ts: translation time, against Dawn's compile, translated vs hand-written WGSL.
  translator: benchTranslator,
  // e2e/bench/app.bench.ts in Chromium: time to an interactive default view, frame times scrolling 65536 records.
  app: benchApp,
};

const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
for (const [name, fn] of Object.entries(BENCHMARKS)) {
  if (only && !only.includes(name)) continue;
  await fn();
}
console.log(`\nwritten to bench/results.json`);
