/**
 * A capture's dispatch as one WGSL module (D011): the program decoded and classified by the
 * interpreter's `Program` (so its refusals come first), its blocks translated
 * (`translateProgram`), and the module laid out for the dispatch's thread group (`moduleWgsl`).
 * The adapter's limits decide what fits: the group's invocations, and LDS plus the exchange in
 * workgroup memory. Anything that does not fit or is not translated is a `TranslationRefusal`.
 */
import { Gen } from '../isa/gen.ts';
import { MODE_WITHOUT_RSRC1, modeFromRsrc1 } from '../semantics/mode.ts';
import {
  InvalidDispatch,
  LDS_GRANULE_BYTES,
  waveLayout,
  type DispatchSetup,
  type ProgramSetup,
  type Setup,
  type WaveLayout,
} from '../interp/dispatch.ts';
import { DEFAULT_MAX_STEPS, Program } from '../interp/execute.ts';
import type { GuestMemory } from '../interp/memory.ts';
import type { VectorBridge } from '../interp/vector-bridge.ts';
import { SRC_EXEC_LO, SRC_VCC_LO } from '../isa/operands.ts';
import { sgprName } from './lane-state.ts';
import { translateProgram, type TranslatedProgram } from './program.ts';
import { TranslationRefusal } from './refusal.ts';
import type { BoundImage } from './image-bindings.ts';
import { ImageTranslator, type SelectedImageForm } from './image-ops.ts';
import { TracedWords } from './traced-words.ts';
import {
  DEFAULT_STORAGE_BINDING_BYTES,
  SelectedImageRefusal,
  SelectedImages,
  type SelectedImageData,
} from './selected-images.ts';
import { moduleWgsl } from './wgsl/module.ts';

/** The device limits a translation must fit (WebGPU's names). */
export interface DeviceLimits {
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupStorageSize: number;
  /** The texel store of selected images is one binding (default: WebGPU's 128 MiB). */
  readonly maxStorageBufferBindingSize?: number;
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
  /**
   * A program capture's registers to read back besides the ones the program uses (those its
   * expectation names); EXEC always comes back.
   */
  readonly readBack?: { readonly sgprs: readonly number[]; readonly vgprs: readonly number[] };
  /** Where runtime-selected images' texels are read (D026; default: the portable texel store). */
  readonly selectedImageForm?: SelectedImageForm;
}

/**
 * A program capture's final registers as the module writes them after the status words: SGPRs
 * (by code: s0.., VCC, M0, EXEC) one word each from lane 0, then VGPRs one word per lane.
 */
export interface RegisterReadBack {
  readonly sgprs: readonly number[];
  readonly vgprs: readonly number[];
  /** Words after the status words. */
  readonly words: number;
}

export interface Translation {
  readonly wgsl: string;
  readonly layout: WaveLayout;
  readonly grid: readonly [number, number, number];
  readonly ldsBytes: number;
  readonly maxSteps: number;
  readonly program: TranslatedProgram;
  readonly setup: Setup;
  /** A program capture's registers out; null for a dispatch (memory is its whole result). */
  readonly readBack: RegisterReadBack | null;
  /** The textures the module reads (image-bindings.ts, D015), in binding order. */
  readonly images: readonly BoundImage[];
  /** Runtime-selected images (D983, D017): their slots, directory and texel store; null when the module reads none. */
  readonly selected: SelectedImageData | null;
  /** Where the module reads selected images' texels (D026): the resource table needs its feature and the table bound. */
  readonly selectedImageForm: SelectedImageForm;
}

/**
 * A program capture as a one-group dispatch of one wave whose lanes all exist (its EXEC says
 * which run): its SGPRs, VGPRs and EXEC come from the capture, none from RSRC2 (src/interp/dispatch.ts
 * `runSetup`), and it has no LDS.
 */
function programLayout(setup: ProgramSetup): WaveLayout {
  const lanes = setup.target.wave64 ? 64 : 32;
  return { lanes, threads: lanes, waves: 1, sgprs: [], tidig: 0, sharedVgprs: null };
}

/** The registers a program capture reads back: the SGPRs and VGPRs the program uses, those asked for, and EXEC. */
function readBackOf(program: TranslatedProgram, lanes: number, ask: TranslateOptions['readBack']): RegisterReadBack {
  const sgprs = new Set<number>([SRC_EXEC_LO, SRC_EXEC_LO + 1, ...(ask?.sgprs ?? [])]);
  const vgprs = new Set<number>(ask?.vgprs ?? []);
  for (const name of program.used) {
    if (/^s\d+$/.test(name)) sgprs.add(Number(name.slice(1)));
    else if (/^v\d+$/.test(name)) vgprs.add(Number(name.slice(1)));
  }
  const order = (x: number, y: number): number => x - y;
  const s = [...sgprs].sort(order);
  const v = [...vgprs].sort(order);
  return { sgprs: s, vgprs: v, words: s.length + v.length * lanes };
}

export function translateSetup(setup: Setup, memory: GuestMemory, options: TranslateOptions = {}): Translation {
  const layout = setup.kind === 'program' ? programLayout(setup) : dispatchLayout(setup);
  const limits = options.limits ?? DEFAULT_LIMITS;
  const invocations = layout.waves * layout.lanes;
  if (invocations > limits.maxComputeInvocationsPerWorkgroup)
    throw new TranslationRefusal(
      `a group of ${layout.waves} waves of ${layout.lanes} lanes is ${invocations} invocations; the device allows ${limits.maxComputeInvocationsPerWorkgroup}`,
    );
  const ldsBytes = setup.kind === 'program' ? 0 : ((setup.rsrc2 >>> 15) & 0x1ff) * LDS_GRANULE_BYTES;
  // LDS, the exchange words (two halves) and masks (three parts), the wave states (module.ts).
  const workgroupBytes = Math.max(4, ldsBytes) + 4 * (2 * invocations + layout.waves * 12 + layout.waves);
  if (workgroupBytes > limits.maxComputeWorkgroupStorageSize)
    throw new TranslationRefusal(
      `${ldsBytes} bytes of LDS and the exchange need ${workgroupBytes} bytes of workgroup memory; the device allows ${limits.maxComputeWorkgroupStorageSize}`,
    );
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (maxSteps >= 2 ** 32 - layout.waves - 3)
    throw new TranslationRefusal(`a step limit of ${maxSteps} does not fit the module's 32-bit counters`);
  const end = setup.kind === 'program' ? setup.end : undefined;
  const program = new Program(setup.target, memory, setup.programAddress, options.vector, end);
  const mode = setup.kind === 'dispatch' && setup.rsrc1 !== undefined ? modeFromRsrc1(setup.rsrc1) : MODE_WITHOUT_RSRC1;
  // Pass 1 learns which registers the program writes; start SGPRs of one known value (user SGPRs,
  // a program capture's SGPRs) it never writes are then constants of the translation (their one
  // value folds through the DAGs: V#s in user data too).
  const base = {
    waves: layout.waves,
    mode,
    ldsBytes,
    sharedVgprs: layout.sharedVgprs,
    registersOut: setup.kind === 'program',
  };
  // One trace serves both passes, the images' words and the buffers' (D012).
  const traced = new TracedWords(program, setup, memory);
  const selected = new SelectedImages(setup.target.gen, memory);
  const form = options.selectedImageForm ?? 'texel-store';
  const first = translateProgram(program, {
    ...base,
    discovery: true,
    images: new ImageTranslator(program, traced, memory, selected, form),
  });
  const known: [number, number][] =
    setup.kind === 'program'
      ? setup.sgprs.flatMap((v, code): [number, number][] => (code < SRC_VCC_LO ? [[code, v >>> 0]] : []))
      : layout.sgprs.flatMap((s): [number, number][] => (s.kind === 'user' ? [[s.code, s.value]] : []));
  const constants = new Map<string, number>();
  for (const [code, value] of known) if (!first.written.has(sgprName(code))) constants.set(sgprName(code), value);
  const images = new ImageTranslator(program, traced, memory, selected, form);
  const translated = translateProgram(program, { ...base, constants, images, traced });
  for (const name of constants.keys())
    if (translated.written.has(name)) throw new Error(`translator: ${name} was folded as a constant but is written`);
  const readBack = setup.kind === 'program' ? readBackOf(translated, layout.lanes, options.readBack) : null;
  const wgsl = moduleWgsl(translated, { setup, layout, ldsBytes, maxSteps, readBack, images: images.plan });
  const grid: readonly [number, number, number] = setup.kind === 'program' ? [1, 1, 1] : setup.grid;
  // The tables' bounds are checked before any image is read, then the directory and the store are built.
  let selectedData: SelectedImageData | null = null;
  try {
    if (!selected.empty)
      selectedData = selected.prepare(limits.maxStorageBufferBindingSize ?? DEFAULT_STORAGE_BINDING_BYTES);
  } catch (e) {
    if (e instanceof SelectedImageRefusal) throw new TranslationRefusal(`runtime-selected images: ${e.message}`);
    throw e;
  }
  return {
    wgsl,
    layout,
    grid,
    ldsBytes,
    maxSteps,
    program: translated,
    setup,
    readBack,
    images: images.plan.images,
    selected: selectedData,
    selectedImageForm: selectedData ? form : 'texel-store',
  };
}

function dispatchLayout(setup: DispatchSetup): WaveLayout {
  const [nx, ny, nz] = setup.numThreads;
  if (nx * ny * nz === 0) throw new InvalidDispatch('COMPUTE_NUM_THREAD_X/Y/Z give an empty thread group');
  return waveLayout(setup);
}

/** Whether a generation's wave32 lane masks are one word (gfx10+ wave32) or two. */
export const maskWords = (gen: Gen, wave64: boolean): number => (gen >= Gen.GFX10 && !wave64 ? 1 : 2);
