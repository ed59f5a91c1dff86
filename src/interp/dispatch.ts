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
  readonly userData: readonly number[];
  readonly numThreads: readonly [number, number, number];
  readonly grid: readonly [number, number, number];
}

/** A program run from given registers (capture kind `program`): one wave, no LDS. */
export interface ProgramSetup {
  readonly kind: 'program';
  readonly target: Target;
  readonly programAddress: number;
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
        exec: BigInt(d.initial.exec),
        sgprs: d.initial.sgprs,
        vgprs: d.initial.vgprs,
      };
  }
}

export interface RunResult {
  readonly steps: number;
  readonly groups: number;
  readonly waves: number;
  /** Instructions the pre-dispatch scan checked. */
  readonly checked: number;
  /** The last wave run (its registers: a `program` capture's result). */
  readonly lastWave?: Wave;
}

const bit = (v: number, at: number, width = 1): number => (v >>> at) & ((1 << width) - 1);

/** Builds the waves of one group (exported for tests). */
export function groupWaves(setup: DispatchSetup, group: readonly [number, number, number]): Wave[] {
  const { target, rsrc2 } = setup;
  const [nx, ny, nz] = setup.numThreads;
  const threads = nx * ny * nz;
  const lanes = target.wave64 ? 64 : 32;
  const count = Math.ceil(threads / lanes);
  const userSgprs = bit(rsrc2, 1, 5);
  if (userSgprs > 16) throw new InvalidDispatch(`RSRC2.USER_SGPR is ${userSgprs}; COMPUTE_USER_DATA has 16 registers`);
  const tidig = bit(rsrc2, 11, 2);
  const waves: Wave[] = [];
  for (let id = 0; id < count; id++) {
    const w = new Wave(target, id);
    let s = 0;
    for (; s < userSgprs; s++) w.sgpr[s] = setup.userData[s] >>> 0;
    if (bit(rsrc2, 7)) w.sgpr[s++] = group[0];
    if (bit(rsrc2, 8)) w.sgpr[s++] = group[1];
    if (bit(rsrc2, 9)) w.sgpr[s++] = group[2];
    if (bit(rsrc2, 10)) w.sgpr[s++] = (count & 0x3f) | ((id & 0x3f) << 6);
    if (bit(rsrc2, 0)) w.sgpr[s++] = 0;
    let lo = 0;
    let hi = 0;
    for (let lane = 0; lane < lanes; lane++) {
      const t = id * lanes + lane;
      if (t >= threads) break;
      if (lane < 32) lo |= 1 << lane;
      else hi |= 1 << (lane - 32);
      const x = t % nx;
      const y = Math.floor(t / nx) % ny;
      const z = Math.floor(t / (nx * ny));
      if (target.gen >= Gen.GFX11) {
        w.writeVgpr(0, lane, x | (tidig >= 1 ? y << 10 : 0) | (tidig >= 2 ? z << 20 : 0));
      } else {
        w.writeVgpr(0, lane, x);
        if (tidig >= 1) w.writeVgpr(1, lane, y);
        if (tidig >= 2) w.writeVgpr(2, lane, z);
      }
    }
    w.setExec(lo >>> 0, hi >>> 0);
    waves.push(w);
  }
  return waves;
}

/** Runs a whole dispatch (every group of the grid, in order) or a program invocation against `memory`. */
export function runSetup(setup: Setup, memory: GuestMemory, options: ExecOptions = {}): RunResult {
  const program = new Program(setup.target, memory, setup.programAddress, options.vector);
  const checked = program.prescan();
  const exec = new Executor(program, memory, options);
  if (setup.kind === 'program') {
    const w = new Wave(setup.target, 0);
    setup.sgprs.forEach((v, i) => (w.sgpr[i] = v >>> 0));
    setup.vgprs.forEach((lanes, v) => lanes.forEach((x, lane) => w.writeVgpr(v, lane, x)));
    w.setExec(Number(setup.exec & 0xffffffffn), Number((setup.exec >> 32n) & 0xffffffffn));
    w.pc = program.entry;
    exec.runGroup({ waves: [w], lds: new Uint8Array(0) });
    return { steps: exec.steps, groups: 1, waves: 1, checked, lastWave: w };
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
  return { steps: exec.steps, groups: gx * gy * gz, waves, checked, lastWave };
}
