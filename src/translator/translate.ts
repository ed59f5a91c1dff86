/**
 * A capture's dispatch as one WGSL module (D011): the program decoded and classified by the
 * interpreter's `Program` (so its refusals come first), its blocks translated
 * (`translateProgram`), and the module laid out for the dispatch's thread group (`moduleWgsl`).
 * The adapter's limits decide what fits: the group's invocations, and LDS plus the exchange in
 * workgroup memory. Anything that does not fit or is not translated is a `TranslationRefusal`.
 */
import { Gen } from '../isa/gen.ts';
import { MODE_WITHOUT_RSRC1, modeFromRsrc1 } from '../semantics/mode.ts';
import { InvalidDispatch, LDS_GRANULE_BYTES, waveLayout, type Setup, type WaveLayout } from '../interp/dispatch.ts';
import { DEFAULT_MAX_STEPS, Program } from '../interp/execute.ts';
import type { GuestMemory } from '../interp/memory.ts';
import type { VectorBridge } from '../interp/vector-bridge.ts';
import { sgprName } from './lane-state.ts';
import { translateProgram, type TranslatedProgram } from './program.ts';
import { TranslationRefusal } from './refusal.ts';
import { moduleWgsl } from './wgsl/module.ts';

/** The device limits a translation must fit (WebGPU's names). */
export interface DeviceLimits {
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupStorageSize: number;
}

/** WebGPU's defaults, for translating without a device (`translate --emit wgsl`). */
export const DEFAULT_LIMITS: DeviceLimits = {
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupStorageSize: 16384,
};

export interface TranslateOptions {
  /** Instructions a wave may run (the interpreter's limit is over the dispatch; default 100 million). */
  readonly maxSteps?: number;
  readonly vector?: VectorBridge;
  readonly limits?: DeviceLimits;
}

export interface Translation {
  readonly wgsl: string;
  readonly layout: WaveLayout;
  readonly grid: readonly [number, number, number];
  readonly ldsBytes: number;
  readonly maxSteps: number;
  readonly program: TranslatedProgram;
}

export function translateSetup(setup: Setup, memory: GuestMemory, options: TranslateOptions = {}): Translation {
  if (setup.kind === 'program')
    throw new TranslationRefusal('program captures (registers in, registers out) are not translated yet');
  const [nx, ny, nz] = setup.numThreads;
  if (nx * ny * nz === 0) throw new InvalidDispatch('COMPUTE_NUM_THREAD_X/Y/Z give an empty thread group');
  const layout = waveLayout(setup);
  const limits = options.limits ?? DEFAULT_LIMITS;
  const invocations = layout.waves * layout.lanes;
  if (invocations > limits.maxComputeInvocationsPerWorkgroup)
    throw new TranslationRefusal(
      `a group of ${layout.waves} waves of ${layout.lanes} lanes is ${invocations} invocations; the device allows ${limits.maxComputeInvocationsPerWorkgroup}`,
    );
  if (layout.sharedVgprs)
    throw new TranslationRefusal('gfx10 wave64 shared VGPRs (RSRC3.SHARED_VGPR_CNT) are not translated');
  const ldsBytes = ((setup.rsrc2 >>> 15) & 0x1ff) * LDS_GRANULE_BYTES;
  // LDS, the exchange words and masks, the wave states and `running`.
  const workgroupBytes = Math.max(4, ldsBytes) + 4 * (invocations + layout.waves * 8 + layout.waves + 1);
  if (workgroupBytes > limits.maxComputeWorkgroupStorageSize)
    throw new TranslationRefusal(
      `${ldsBytes} bytes of LDS and the exchange need ${workgroupBytes} bytes of workgroup memory; the device allows ${limits.maxComputeWorkgroupStorageSize}`,
    );
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (maxSteps >= 2 ** 32 - layout.waves - 3)
    throw new TranslationRefusal(`a step limit of ${maxSteps} does not fit the module's 32-bit counters`);
  const program = new Program(setup.target, memory, setup.programAddress, options.vector);
  const mode = setup.rsrc1 !== undefined ? modeFromRsrc1(setup.rsrc1) : MODE_WITHOUT_RSRC1;
  // Pass 1 learns which registers the program writes; user SGPRs it never writes are then
  // constants of the translation (their one value folds through the DAGs: V#s in user data too).
  const base = { waves: layout.waves, mode, ldsBytes };
  const first = translateProgram(program, { ...base, discovery: true });
  const constants = new Map<string, number>();
  for (const s of layout.sgprs)
    if (s.kind === 'user' && !first.written.has(sgprName(s.code))) constants.set(sgprName(s.code), s.value);
  const translated = translateProgram(program, { ...base, constants });
  for (const name of constants.keys())
    if (translated.written.has(name)) throw new Error(`translator: ${name} was folded as a constant but is written`);
  const wgsl = moduleWgsl(translated, { setup, layout, ldsBytes, maxSteps });
  return { wgsl, layout, grid: setup.grid, ldsBytes, maxSteps, program: translated };
}

/** Whether a generation's wave32 lane masks are one word (gfx10+ wave32) or two. */
export const maskWords = (gen: Gen, wave64: boolean): number => (gen >= Gen.GFX10 && !wave64 ? 1 : 2);
