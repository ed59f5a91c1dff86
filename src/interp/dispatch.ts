/**
 * A dispatch from a capture (D009): its registers (given, or by running the PM4 stream through
 * the command processor), the waves of every thread group, and their initial state.
 *
 * A wave starts (EXECUTION-NOTES.md, "How a wave starts"; AMD's ISA documents, "Initial
 * state of compute waves"): COMPUTE_USER_DATA_0.. in s0 upward, as many as RSRC2.USER_SGPR
 * says; then, in this order, the work-group id X, Y, Z (TGID_X/Y/Z_EN), the thread-group
 * info word (TG_SIZE_EN: [5:0] waves in the group, [11:6] this wave's index, as Mesa reads
 * it) and the scratch wave offset (SCRATCH_EN; 0: no scratch is modelled). Thread ids: v0 = x,
 * v1 = y, v2 = z on gfx7-gfx10 as RSRC2.TIDIG_COMP_CNT says; gfx11 packs them in v0
 * (x | y << 10 | z << 20). EXEC has a bit for each lane that holds a thread of the group.
 */
import { isUnavailable, parseAddress, type Capture } from '../host/capture/index.ts';
import { processComputeStream } from '../host/pm4/command-processor.ts';
import { bytesToWords } from '../isa/decoder.ts';
import { Gen, targetFor, type Target } from '../isa/gen.ts';
import { Executor, Program, type ExecOptions } from './execute.ts';
import type { GuestMemory } from './memory.ts';
import { Wave } from './wave.ts';
import { modeFromRsrc1 } from '../semantics/mode.ts';

/** The capture cannot describe a dispatch (exit 3). */
export class InvalidDispatch extends Error {
  override readonly name = 'InvalidDispatch';
}

/** LDS_SIZE granule: 128 dwords on gfx7 and later. */
export const LDS_GRANULE_BYTES = 512;

export interface DispatchSetup {
  readonly kind: 'dispatch';
  readonly target: Target;
  readonly programAddress: number;
  readonly rsrc2: number;
  /** COMPUTE_PGM_RSRC1: the wave's initial MODE (FLOAT_MODE, DX10_CLAMP, IEEE_MODE); absent: src/semantics/mode.ts's default. */
  readonly rsrc1?: number;
  /** COMPUTE_PGM_RSRC3 (gfx10+): SHARED_VGPR_CNT [3:0], shared VGPRs of a gfx10 wave64 in 8s. */
  readonly rsrc3?: number;
  readonly userData: readonly number[];
  readonly numThreads: readonly [number, number, number];
  readonly grid: readonly [number, number, number];
}

/** A program run from given registers (capture kind `program`): one wave, no LDS. */
export interface ProgramSetup {
  readonly kind: 'program';
  readonly target: Target;
  readonly programAddress: number;
  /** Where the program returns (the capture's `end`): reaching it ends the wave, like s_endpgm. */
  readonly end?: number;
  readonly exec: bigint;
  readonly sgprs: readonly number[];
  readonly vgprs: readonly (readonly number[])[];
}

export type Setup = DispatchSetup | ProgramSetup;

export function setupFromCapture(capture: Pick<Capture, 'manifest' | 'blob'>, memory: GuestMemory): Setup {
  const m = capture.manifest;
  const target = targetFor(m.target.mcpu, m.target.wave64);
  const d = m.dispatch;
  switch (d.kind) {
    case 'registers': {
      const r = d.registers;
      return {
        kind: 'dispatch',
        target,
        programAddress: r.COMPUTE_PGM_LO * 256 + (r.COMPUTE_PGM_HI & 0xffff) * 2 ** 40,
        rsrc2: r.COMPUTE_PGM_RSRC2,
        rsrc1: r.COMPUTE_PGM_RSRC1,
        ...(r.COMPUTE_PGM_RSRC3 !== undefined ? { rsrc3: r.COMPUTE_PGM_RSRC3 } : {}),
        userData: Array.from({ length: 16 }, (_, i) => r[`COMPUTE_USER_DATA_${i}` as keyof typeof r] ?? 0),
        numThreads: [r.COMPUTE_NUM_THREAD_X & 0xffff, r.COMPUTE_NUM_THREAD_Y & 0xffff, r.COMPUTE_NUM_THREAD_Z & 0xffff],
        grid: d.grid,
      };
    }
    case 'pm4': {
      const stream = bytesToWords(capture.blob(d.blob));
      const c = processComputeStream(target.gen, stream, (address, size) => memory.peek(address, size));
      return {
        kind: 'dispatch',
        target,
        programAddress: c.programAddress,
        rsrc2: c.rsrc2,
        rsrc1: c.rsrc1,
        rsrc3: c.rsrc3,
        userData: c.userData,
        numThreads: c.numThreads,
        grid: isUnavailable(d.grid) ? c.grid : d.grid,
      };
    }
    case 'program':
      return {
        kind: 'program',
        target,
        programAddress: Number(parseAddress(d.entry)),
        ...(d.end !== undefined ? { end: Number(parseAddress(d.end)) } : {}),
        exec: BigInt(d.initial.exec),
        sgprs: d.initial.sgprs,
        vgprs: d.initial.vgprs,
      };
  }
}

export interface RunResult {
  readonly steps: number;
  /** VALU instructions × their active lanes + SALU instructions (execute.ts counts them as it runs). */
  readonly laneOps: number;
  /** ALU instructions the compiled path (src/interp/jit) compiled; 0 without it. */
  readonly compiledInstructions: number;
  readonly groups: number;
  readonly waves: number;
  /** Instructions the pre-dispatch scan checked. */
  readonly checked: number;
  /** The last wave run (its registers: a `program` capture's result). */
  readonly lastWave?: Wave;
}

const bit = (v: number, at: number, width = 1): number => (v >>> at) & ((1 << width) - 1);

/**
 * What SGPR `code` of a starting wave holds, in RSRC2's order: a word of user data, a work-group
 * id, the thread-group info word, or the scratch wave offset. The interpreter fills these with
 * numbers, the translator with the WGSL builtins and tables (the rule is this one list).
 */
export type StartSgpr =
  | { readonly code: number; readonly kind: 'user'; readonly value: number }
  | { readonly code: number; readonly kind: 'group-id'; readonly axis: 0 | 1 | 2 }
  | { readonly code: number; readonly kind: 'tg-size' }
  | { readonly code: number; readonly kind: 'scratch-offset' };

/** How a dispatch's thread group is laid out in waves, and what each wave starts with. */
export interface WaveLayout {
  readonly lanes: 32 | 64;
  /** Threads in a group (COMPUTE_NUM_THREAD_X * Y * Z). */
  readonly threads: number;
  /** Waves in a group. */
  readonly waves: number;
  readonly sgprs: readonly StartSgpr[];
  /** RSRC2.TIDIG_COMP_CNT: how many thread-id components the VGPRs get (0: x; 1: x, y; 2: x, y, z). */
  readonly tidig: number;
  /** gfx10 wave64 shared VGPRs (RSRC3.SHARED_VGPR_CNT * 8), after the wave's own (RSRC1.VGPRS + 1) * 4; 0: none. */
  readonly sharedVgprs: { readonly from: number; readonly count: number } | null;
}

/** The layout of a dispatch's groups (RSRC2, the thread counts, the wave size). */
export function waveLayout(setup: DispatchSetup): WaveLayout {
  const { target, rsrc2 } = setup;
  const [nx, ny, nz] = setup.numThreads;
  const threads = nx * ny * nz;
  const lanes = target.wave64 ? 64 : 32;
  const userSgprs = bit(rsrc2, 1, 5);
  if (userSgprs > 16) throw new InvalidDispatch(`RSRC2.USER_SGPR is ${userSgprs}; COMPUTE_USER_DATA has 16 registers`);
  const sgprs: StartSgpr[] = [];
  let s = 0;
  for (; s < userSgprs; s++) sgprs.push({ code: s, kind: 'user', value: setup.userData[s] >>> 0 });
  for (const axis of [0, 1, 2] as const) if (bit(rsrc2, 7 + axis)) sgprs.push({ code: s++, kind: 'group-id', axis });
  if (bit(rsrc2, 10)) sgprs.push({ code: s++, kind: 'tg-size' });
  if (bit(rsrc2, 0)) sgprs.push({ code: s++, kind: 'scratch-offset' });
  // gfx10 wave64: SHARED_VGPR_CNT * 8 shared VGPRs follow the wave's own (RSRC1.VGPRS + 1) * 4
  // (ACO allocates them "after the normal VGPRs"; RDNA3 has none).
  const shared = lanes === 64 && target.gen >= Gen.GFX10 && target.gen < Gen.GFX11 ? ((setup.rsrc3 ?? 0) & 0xf) * 8 : 0;
  return {
    lanes,
    threads,
    waves: Math.ceil(threads / lanes),
    sgprs,
    tidig: bit(rsrc2, 11, 2),
    sharedVgprs:
      shared > 0 && setup.rsrc1 !== undefined ? { from: ((setup.rsrc1 & 0x3f) + 1) * 4, count: shared } : null,
  };
}

/** The thread-group info word of wave `id` (TG_SIZE_EN): [5:0] waves in the group, [11:6] this wave's index (Mesa). */
export function tgSizeWord(layout: WaveLayout, id: number): number {
  return (layout.waves & 0x3f) | ((id & 0x3f) << 6);
}

/** EXEC of wave `id` at its start, as [lo, hi]: a bit for each lane that holds a thread of the group. */
export function startExec(layout: WaveLayout, id: number): [number, number] {
  const count = Math.max(0, Math.min(layout.lanes, layout.threads - id * layout.lanes));
  const lo = count >= 32 ? 0xffffffff : (2 ** count - 1) >>> 0;
  const hi = count >= 64 ? 0xffffffff : count > 32 ? (2 ** (count - 32) - 1) >>> 0 : 0;
  return [lo, hi];
}

/** The arithmetic the thread-id rule needs: numbers for the interpreter, WGSL text for the translator. */
export interface ThreadIdArith<V> {
  word(n: number): V;
  /** a / n and a % n for a positive constant n (unsigned). */
  div(a: V, n: number): V;
  rem(a: V, n: number): V;
  shl(a: V, n: number): V;
  or(a: V, b: V): V;
}

export const NUMBER_ARITH: ThreadIdArith<number> = {
  word: (n) => n >>> 0,
  div: (a, n) => Math.floor(a / n),
  rem: (a, n) => a % n,
  shl: (a, n) => (a << n) >>> 0,
  or: (a, b) => (a | b) >>> 0,
};

/**
 * The VGPRs thread `t` of a group starts with, from v0 up: x, y, z on gfx7-gfx10 as TIDIG_COMP_CNT
 * says; gfx11 packs them in v0 (x | y << 10 | z << 20).
 */
export function threadIdVgprs<V>(a: ThreadIdArith<V>, setup: DispatchSetup, layout: WaveLayout, t: V): V[] {
  const [nx, ny] = setup.numThreads;
  const x = a.rem(t, nx);
  const y = a.rem(a.div(t, nx), ny);
  const z = a.div(t, nx * ny);
  const tidig = layout.tidig;
  if (setup.target.gen >= Gen.GFX11) {
    let v0 = x;
    if (tidig >= 1) v0 = a.or(v0, a.shl(y, 10));
    if (tidig >= 2) v0 = a.or(v0, a.shl(z, 20));
    return [v0];
  }
  return tidig >= 2 ? [x, y, z] : tidig >= 1 ? [x, y] : [x];
}

/** The number a start SGPR holds in wave `id` of `group`. */
export function startSgprValue(
  s: StartSgpr,
  layout: WaveLayout,
  group: readonly [number, number, number],
  id: number,
): number {
  switch (s.kind) {
    case 'user':
      return s.value;
    case 'group-id':
      return group[s.axis] >>> 0;
    case 'tg-size':
      return tgSizeWord(layout, id);
    case 'scratch-offset':
      return 0;
  }
}

/** Builds the waves of one group (exported for tests). */
export function groupWaves(setup: DispatchSetup, group: readonly [number, number, number]): Wave[] {
  const layout = waveLayout(setup);
  const waves: Wave[] = [];
  for (let id = 0; id < layout.waves; id++) {
    const w = new Wave(setup.target, id);
    if (setup.rsrc1 !== undefined) w.mode = modeFromRsrc1(setup.rsrc1);
    if (layout.sharedVgprs) w.shareVgprs(layout.sharedVgprs.from, layout.sharedVgprs.count);
    for (const s of layout.sgprs) w.sgpr[s.code] = startSgprValue(s, layout, group, id);
    for (let lane = 0; lane < layout.lanes; lane++) {
      const t = id * layout.lanes + lane;
      if (t >= layout.threads) break;
      threadIdVgprs(NUMBER_ARITH, setup, layout, t).forEach((v, i) => w.writeVgpr(i, lane, v));
    }
    const [lo, hi] = startExec(layout, id);
    w.setExec(lo, hi);
    waves.push(w);
  }
  return waves;
}

const counts = (e: Executor): Pick<RunResult, 'steps' | 'laneOps' | 'compiledInstructions'> => ({
  steps: e.steps,
  laneOps: e.laneOps,
  compiledInstructions: e.alu?.compiled ?? 0,
});

/** Runs a whole dispatch (every group of the grid, in order) or a program invocation against `memory`. */
export function runSetup(setup: Setup, memory: GuestMemory, options: ExecOptions = {}): RunResult {
  const end = setup.kind === 'program' ? setup.end : undefined;
  const program = new Program(setup.target, memory, setup.programAddress, options.vector, end);
  const checked = program.prescan();
  const exec = new Executor(program, memory, options);
  if (setup.kind === 'program') {
    const w = new Wave(setup.target, 0);
    setup.sgprs.forEach((v, i) => (w.sgpr[i] = v >>> 0));
    setup.vgprs.forEach((lanes, v) => lanes.forEach((x, lane) => w.writeVgpr(v, lane, x)));
    w.setExec(Number(setup.exec & 0xffffffffn), Number((setup.exec >> 32n) & 0xffffffffn));
    w.pc = program.entry;
    exec.runGroup({ waves: [w], lds: new Uint8Array(0) });
    return { ...counts(exec), groups: 1, waves: 1, checked, lastWave: w };
  }
  const [gx, gy, gz] = setup.grid;
  const [nx, ny, nz] = setup.numThreads;
  if (nx * ny * nz === 0) throw new InvalidDispatch('COMPUTE_NUM_THREAD_X/Y/Z give an empty thread group');
  const ldsBytes = bit(setup.rsrc2, 15, 9) * LDS_GRANULE_BYTES;
  let waves = 0;
  let lastWave: Wave | undefined;
  for (let z = 0; z < gz; z++)
    for (let y = 0; y < gy; y++)
      for (let x = 0; x < gx; x++) {
        const ws = groupWaves(setup, [x, y, z]);
        for (const w of ws) w.pc = program.entry;
        exec.runGroup({ waves: ws, lds: new Uint8Array(ldsBytes) });
        waves += ws.length;
        lastWave = ws[ws.length - 1];
      }
  return { ...counts(exec), groups: gx * gy * gz, waves, checked, lastWave };
}
