/**
 * Replaying a capture on a WebGPU device through the translator (D011): the dispatch translated
 * to one module, guest memory uploaded (memory-layout.ts), one dispatch per thread group in grid
 * order (the interpreter's order, so atomics across groups land as it lands them), the buffer and
 * the fault report read back, and memory compared with the expectation by the interpreter's
 * `compareWithExpected`. The outcome is the interpreter replay's: match, mismatch, refused (a
 * translation refusal, a fault the module reported, the step limit), invalid input.
 */
import type { Capture } from '../host/capture/container.ts';
import { isUnavailable } from '../host/capture/manifest.ts';
import { Pm4Error } from '../host/pm4/command-processor.ts';
import { UnknownProcessorError } from '../isa/gen.ts';
import { SemanticsRefusal } from '../semantics/context.ts';
import { compareWithExpected } from '../interp/compare.ts';
import { InvalidDispatch, setupFromCapture, type ProgramSetup } from '../interp/dispatch.ts';
import { InterpRefusal } from '../interp/execute.ts';
import { GuestFault, GuestMemory } from '../interp/memory.ts';
import { Wave } from '../interp/wave.ts';
import type { ReplayOutcome } from '../interp/replay.ts';
import type { VectorBridge } from '../interp/vector-bridge.ts';
import { deviceFault, layoutMemory, memoryAfter, type MemoryLayout } from './memory-layout.ts';
import { createImageBindings, IMAGE_GROUP, type ImageBindings } from './image-bindings.ts';
import {
  ESCAPE_RECORD_WORDS,
  ESCAPE_RECORDS,
  ESCAPE_SLOT_COUNTS,
  SAMPLER_ESCAPE_BIT,
  type SelectedImageForm,
} from './image-ops.ts';
import {
  createSelectedImageTable,
  offersResourceTable,
  type ResourceTablePass,
  type SelectedImageTable,
} from '../host/directory/resource-table.ts';
import { TranslationRefusal } from './refusal.ts';
import { translateSetup, type RegisterReadBack, type Translation } from './translate.ts';
import { STATUS } from './wgsl/runtime.ts';

export interface GpuReplayOptions {
  readonly maxSteps?: number;
  readonly vector?: VectorBridge;
  /** Where selected images' texels are read (D026); default: `selectedImageFormFor(device)`. */
  readonly selectedImageForm?: SelectedImageForm;
}

/** The environment variable that overrides the form of selected images in Node (D026): texel-store or resource-table. */
export const SELECTED_IMAGE_FORM_ENV = 'GCN_SELECTED_IMAGE_FORM';

/**
 * The form of selected images for a device (D026): the one asked for, else
 * `GCN_SELECTED_IMAGE_FORM` where set (Node), else the portable texel store. The resource table
 * needs the device's `chromium-experimental-sampling-resource-table` and `subgroups` (a device
 * has them only when they were requested); asked for on a device without them, it is refused by
 * name. Without a device (WGSL emitted for reading) the form is the one asked for. The texel
 * store is the default: on SwiftShader the resource-table form is slower, and a process crashes
 * in a later resource-table module after one whose lanes escaped (D026, Measured).
 */
export function selectedImageFormFor(device: GPUDevice | undefined, asked?: SelectedImageForm): SelectedImageForm {
  const env = typeof process !== 'undefined' ? process.env?.[SELECTED_IMAGE_FORM_ENV] : undefined;
  if (env !== undefined && env !== '' && env !== 'texel-store' && env !== 'resource-table')
    throw new TranslationRefusal(`${SELECTED_IMAGE_FORM_ENV}=${env}: the forms are texel-store and resource-table`);
  const form = asked ?? (env || undefined) ?? 'texel-store';
  if (form === 'resource-table' && device !== undefined && !offersResourceTable(device))
    throw new TranslationRefusal(
      'selected images through the resource table: the device lacks chromium-experimental-sampling-resource-table or subgroups (D026)',
    );
  return form;
}

/** A result refused because lanes escaped the directory of runtime-selected images (D983): the lanes and their words. */
export class SelectedImageEscapeError extends Error {
  override readonly name = 'SelectedImageEscapeError';
  constructor(
    message: string,
    readonly count: number,
    readonly lanes: readonly SelectedImageEscape[],
    /** Escapes in each slot (`Translation.selected.slots`). */
    readonly bySlot: readonly number[],
  ) {
    super(message);
  }
}

/** The module failed to compile or dispatch: a translator bug, reported with the device's message. */
export class GpuReplayError extends Error {
  override readonly name = 'GpuReplayError';
}

/** Uniform offsets must be multiples of 256 (WebGPU's minUniformBufferOffsetAlignment). */
const PARAM_STRIDE = 256;
/** Groups dispatched per submission (bounds the parameter buffer). */
const GROUPS_PER_SUBMIT = 4096;

const refused = (reason: string, error: Error): Extract<ReplayOutcome, { kind: 'refused' }> => ({
  kind: 'refused',
  reason,
  error,
});

/** Translates a capture for `device` (its limits) or says why not, as a replay outcome. */
export function translateCapture(
  capture: Pick<Capture, 'manifest' | 'blob'>,
  device: GPUDevice | undefined,
  options: GpuReplayOptions = {},
): { translation: Translation; layout: MemoryLayout } | Extract<ReplayOutcome, { kind: 'refused' | 'invalid' }> {
  const m = capture.manifest;
  if (m.redacted)
    return { kind: 'invalid', reason: 'the capture is redacted: its guest data was removed, so it cannot be replayed' };
  try {
    const memory = GuestMemory.fromCapture(capture);
    const setup = setupFromCapture(capture, memory);
    const translation = translateSetup(setup, memory, {
      selectedImageForm: selectedImageFormFor(device, options.selectedImageForm),
      maxSteps: options.maxSteps,
      vector: options.vector,
      limits: device?.limits,
      readBack: expectedRegisterCodes(m),
    });
    return { translation, layout: layoutMemory(capture) };
  } catch (e) {
    if (e instanceof InterpRefusal || e instanceof SemanticsRefusal || e instanceof TranslationRefusal)
      return refused(e.message, e);
    if (e instanceof GuestFault)
      return refused(`${e.message} (the capture does not hold what the dispatch accessed; nothing is guessed)`, e);
    if (e instanceof InvalidDispatch || e instanceof Pm4Error || e instanceof UnknownProcessorError)
      return { kind: 'invalid', reason: e.message };
    throw e;
  }
}

/** The registers a capture's expectation names (a program capture's registers out). */
function expectedRegisterCodes(m: Capture['manifest']): { sgprs: number[]; vgprs: number[] } | undefined {
  if (isUnavailable(m.expected) || !m.expected.registers) return undefined;
  const r = m.expected.registers;
  return { sgprs: Object.keys(r.sgprs ?? {}).map(Number), vgprs: Object.keys(r.vgprs ?? {}).map(Number) };
}

/**
 * A program capture's wave as it ended on the device, for `compareWithExpected`: started from the
 * capture's registers as the interpreter starts it (`runSetup`), then every register the module
 * read back. A register the module neither used nor was asked for keeps its start value, which
 * is what it holds on the device too (the module never names it).
 */
function waveFromReadBack(setup: ProgramSetup, readBack: RegisterReadBack, status: Uint32Array): Wave {
  const w = new Wave(setup.target, 0);
  setup.sgprs.forEach((v, i) => (w.sgpr[i] = v >>> 0));
  setup.vgprs.forEach((lanes, v) => lanes.forEach((x, lane) => w.writeVgpr(v, lane, x)));
  w.setExec(Number(setup.exec & 0xffffffffn), Number((setup.exec >> 32n) & 0xffffffffn));
  const word = (i: number): number => status[STATUS.words + i]!;
  readBack.sgprs.forEach((code, i) => (w.sgpr[code] = word(i)));
  const lanes = w.lanes;
  readBack.vgprs.forEach((v, i) => {
    for (let lane = 0; lane < lanes; lane++) w.writeVgpr(v, lane, word(readBack.sgprs.length + i * lanes + lane));
  });
  return w;
}

async function checked<T>(device: GPUDevice, what: string, make: () => T): Promise<T> {
  device.pushErrorScope('validation');
  const value = make();
  const error = await device.popErrorScope();
  if (error) throw new GpuReplayError(`${what}: ${error.message}`);
  return value;
}

/** Words of the selected images' escape record: the count, ESCAPE_RECORDS records, then a count per slot. */
const escapeWords = (slots: number): number => ESCAPE_SLOT_COUNTS + slots;

/** One lane whose T# registers the directory did not hold in the access's shape (D983's escape), or whose S# its sampler set did not (D027). */
export interface SelectedImageEscape {
  readonly group: readonly [number, number, number];
  /** The invocation in its group (wave * lanes + lane). */
  readonly invocation: number;
  /** The image instruction's guest address. */
  readonly address: number;
  /** The module's texture slot (`Translation.selected.slots`). */
  readonly slot: number;
  /** 'sampler' where the lane's S# selected from a table missed (`words` its four, D027); absent where its T# did (its eight). */
  readonly missed?: 'sampler';
  readonly words: readonly number[];
}

/** The escapes the module recorded: how many, the first ESCAPE_RECORDS with their words, and how many in each slot. */
export function readEscapes(words: Uint32Array): { count: number; first: SelectedImageEscape[]; bySlot: number[] } {
  const count = words[0] ?? 0;
  const bySlot = Array.from(words.subarray(ESCAPE_SLOT_COUNTS));
  const first: SelectedImageEscape[] = [];
  for (let i = 0; i < Math.min(count, ESCAPE_RECORDS); i++) {
    const r = 1 + i * ESCAPE_RECORD_WORDS;
    const sampler = (words[r + 5]! & SAMPLER_ESCAPE_BIT) !== 0;
    first.push({
      group: [words[r]!, words[r + 1]!, words[r + 2]!],
      invocation: words[r + 3]!,
      address: words[r + 4]!,
      slot: words[r + 5]! & (SAMPLER_ESCAPE_BIT - 1),
      ...(sampler ? { missed: 'sampler' as const } : {}),
      words: Array.from(words.subarray(r + 6, r + (sampler ? 10 : 14))),
    });
  }
  return { count, first, bySlot };
}

/** The refusal of a result some lanes escaped in, naming them and their words. */
export function escapeReason(e: { count: number; first: readonly SelectedImageEscape[] }): string {
  const lanes = e.first.map(
    (x) =>
      `group (${x.group.join(', ')}) invocation ${x.invocation} at 0x${x.address.toString(16)}, slot ${x.slot}${x.missed === 'sampler' ? ' S#' : ''}: [${x.words.map((w) => `0x${w.toString(16)}`).join(', ')}]`,
  );
  const tail = `${lanes.join('; ')}${e.count > e.first.length ? '; ...' : ''}`;
  const n = `${e.count} lane access${e.count === 1 ? '' : 'es'}`;
  if (e.first.some((x) => x.missed === 'sampler'))
    return `${n} selected an image or a sampler its slot's directories do not hold (an escape, D983, D027; the lanes read place 0): ${tail}`;
  return `${n} selected an image its slot's directory does not hold in the access's shape (an escape, D983; the lanes read place 0): ${tail}`;
}

/** Runs a translation on the device: the buffer after every group, the status words, and the selected images' escapes. */
export async function runTranslation(
  device: GPUDevice,
  translation: Translation,
  layout: MemoryLayout,
  order: GroupOrder = 'in-order',
): Promise<{ memory: Uint8Array; status: Uint32Array; escapes?: Uint32Array }> {
  const module = device.createShaderModule({ label: 'gcn-webgpu translation', code: translation.wgsl });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((x) => x.type === 'error');
  if (errors.length > 0)
    throw new GpuReplayError(
      `the translated module does not compile:\n${errors.map((x) => `${x.lineNum}:${x.linePos}: ${x.message}`).join('\n')}`,
    );
  const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const mem = device.createBuffer({ label: 'guest memory', size: layout.bufferBytes, usage: storage });
  const ranges = device.createBuffer({ label: 'guest ranges', size: layout.table.byteLength, usage: storage });
  // A program capture's final registers follow the status words.
  const statusBytes = (STATUS.words + (translation.readBack?.words ?? 0)) * 4;
  const status = device.createBuffer({ label: 'status', size: statusBytes, usage: storage });
  const [gx, gy, gz] = translation.grid;
  const groups = gx * gy * gz;
  const perSubmit = Math.max(1, Math.min(groups, GROUPS_PER_SUBMIT));
  const params = device.createBuffer({
    label: 'group ids',
    size: perSubmit * PARAM_STRIDE,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const readMem = device.createBuffer({
    size: layout.bufferBytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const readStatus = device.createBuffer({
    size: statusBytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  // The textures of the module's image instructions (D015), bind group 1.
  let images: ImageBindings | undefined;
  // The resource-table form (D026): the places' texels as textures in the table, only the headers in the store binding.
  let table: SelectedImageTable | undefined;
  const extra: GPUBuffer[] = [];
  try {
    const sel = translation.selected;
    if (sel && translation.selectedImageForm === 'resource-table') table = createSelectedImageTable(device, sel.store);
    images = await createImageBindings(
      device,
      translation.images,
      sel
        ? {
            directory: sel.directory,
            store: table ? table.headers : sel.store.words,
            escapeWords: escapeWords(sel.slots.length),
          }
        : undefined,
    );
    device.queue.writeBuffer(mem, 0, layout.image);
    device.queue.writeBuffer(ranges, 0, layout.table);
    const bindGroupLayout = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
        {
          binding: 3,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 16 },
        },
      ],
    });
    const pipeline = await checked(device, 'the pipeline', () =>
      device.createComputePipeline({
        label: 'gcn-webgpu translation',
        layout: device.createPipelineLayout({
          bindGroupLayouts: [bindGroupLayout, ...(images ? [images.layout] : [])],
          ...(table ? { usesResourceTable: true } : {}),
        } as GPUPipelineLayoutDescriptor),
        compute: { module, entryPoint: 'main' },
      }),
    );
    const bindGroup = device.createBindGroup({
      layout: bindGroupLayout,
      entries: [
        { binding: 0, resource: { buffer: mem } },
        { binding: 1, resource: { buffer: ranges } },
        { binding: 2, resource: { buffer: status } },
        { binding: 3, resource: { buffer: params, size: 16 } },
      ],
    });
    /** One submission of dispatches: each a parameter offset (its base group) and a grid. */
    const submit = async (dispatches: readonly { offset: number; grid: readonly [number, number, number] }[]) => {
      device.pushErrorScope('validation');
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      if (images) pass.setBindGroup(IMAGE_GROUP, images.group);
      if (table) (pass as ResourceTablePass).setResourceTable(table.table);
      for (const d of dispatches) {
        pass.setBindGroup(0, bindGroup, [d.offset]);
        pass.dispatchWorkgroups(...d.grid);
      }
      pass.end();
      device.queue.submit([encoder.finish()]);
      const error = await device.popErrorScope();
      if (error) throw new GpuReplayError(`the dispatch: ${error.message}`);
    };
    if (order === 'together') {
      // Every group in one dispatch, side by side as the hardware runs them (D028): group ids are
      // the workgroup ids, the parameters' base group 0.
      device.queue.writeBuffer(params, 0, new Uint32Array(4));
      await submit([{ offset: 0, grid: [gx, gy, gz] }]);
    }
    for (let first = 0; order === 'in-order' && first < groups; first += perSubmit) {
      const count = Math.min(perSubmit, groups - first);
      const ids = new Uint32Array((count * PARAM_STRIDE) / 4);
      for (let i = 0; i < count; i++) {
        const g = first + i;
        ids.set([g % gx, Math.floor(g / gx) % gy, Math.floor(g / (gx * gy)), 0], (i * PARAM_STRIDE) / 4);
      }
      device.queue.writeBuffer(params, 0, ids);
      await submit(Array.from({ length: count }, (_, i) => ({ offset: i * PARAM_STRIDE, grid: [1, 1, 1] as const })));
      await device.queue.onSubmittedWorkDone();
    }
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(mem, 0, readMem, 0, layout.bufferBytes);
    encoder.copyBufferToBuffer(status, 0, readStatus, 0, statusBytes);
    const escapeBytes = 4 * escapeWords(translation.selected?.slots.length ?? 0);
    const readEscape = images?.escapes
      ? device.createBuffer({ size: escapeBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST })
      : undefined;
    if (readEscape) {
      extra.push(readEscape);
      encoder.copyBufferToBuffer(images!.escapes!, 0, readEscape, 0, escapeBytes);
    }
    device.queue.submit([encoder.finish()]);
    await Promise.all([
      readMem.mapAsync(GPUMapMode.READ),
      readStatus.mapAsync(GPUMapMode.READ),
      ...(readEscape ? [readEscape.mapAsync(GPUMapMode.READ)] : []),
    ]);
    const memory = new Uint8Array(readMem.getMappedRange().slice(0));
    const words = new Uint32Array(readStatus.getMappedRange().slice(0));
    const escapes = readEscape ? new Uint32Array(readEscape.getMappedRange().slice(0)) : undefined;
    readMem.unmap();
    readStatus.unmap();
    readEscape?.unmap();
    return { memory, status: words, ...(escapes ? { escapes } : {}) };
  } finally {
    for (const b of [mem, ranges, status, params, readMem, readStatus, ...extra]) b.destroy();
    images?.destroy();
    table?.destroy();
  }
}

/** Replays a capture on `device` (D011): the same outcomes as the interpreter's `replayCapture`. */
export async function replayOnGpu(
  capture: Pick<Capture, 'manifest' | 'blob'>,
  device: GPUDevice,
  options: GpuReplayOptions = {},
): Promise<ReplayOutcome> {
  const m = capture.manifest;
  if (!m.redacted && isUnavailable(m.expected))
    return refused(
      `the capture has no expected result to compare with (${m.expected.unavailable})`,
      new Error(m.expected.unavailable),
    );
  const t = translateCapture(capture, device, options);
  if ('kind' in t) return t;
  return replayTranslated(capture, device, t);
}

/** Runs a translation of `capture` on `device` and gives the replay's outcome (`replayOnGpu` after translating). */
export async function replayTranslated(
  capture: Pick<Capture, 'manifest' | 'blob'>,
  device: GPUDevice,
  translated: { readonly translation: Translation; readonly layout: MemoryLayout },
): Promise<ReplayOutcome> {
  const { translation, layout } = translated;
  if (groupsTogether(translation)) {
    // Only a clean match is taken from the groups run side by side; any other verdict (a fault,
    // an escape, a mismatch) is the in-order run's, which is the interpreter's order (D028).
    const together = await verdictOf(
      capture,
      translation,
      layout,
      await runTranslation(device, translation, layout, 'together'),
    );
    if (together.kind === 'match') return together;
  }
  return verdictOf(capture, translation, layout, await runTranslation(device, translation, layout, 'in-order'));
}

/**
 * How a translation's groups may run (D028): 'together' in one dispatch, side by side, or
 * 'in-order', one dispatch a group in grid order as the interpreter runs them.
 */
export type GroupOrder = 'together' | 'in-order';

/**
 * Whether a translation's groups may run side by side first: more than one group, and no atomic
 * on guest memory (whose returned values would show another group's order). A group that reads
 * what another writes is a race on the hardware too; its in-order run decides any verdict but a
 * match.
 */
export function groupsTogether(translation: Translation): boolean {
  const [gx, gy, gz] = translation.grid;
  // WebGPU's default maxComputeWorkgroupsPerDimension.
  return gx * gy * gz > 1 && Math.max(gx, gy, gz) <= 65535 && !translation.program.memoryPaths.has('guest-atomic');
}

/** The replay's outcome from one run of the module. */
function verdictOf(
  capture: Pick<Capture, 'manifest' | 'blob'>,
  translation: Translation,
  layout: MemoryLayout,
  { memory, status, escapes }: { memory: Uint8Array; status: Uint32Array; escapes?: Uint32Array },
): ReplayOutcome {
  const fault = deviceFault(layout, status, translation.maxSteps);
  if (fault) {
    if (fault.kind === 'guest')
      return refused(
        `${fault.fault.message} (the capture does not hold what the dispatch accessed; nothing is guessed)`,
        fault.fault,
      );
    return refused(fault.reason, new Error(fault.reason));
  }
  const steps = status[STATUS.stepsLo]! + status[STATUS.stepsHi]! * 2 ** 32;
  if (steps > translation.maxSteps) {
    const reason = `the dispatch ran past the step limit of ${translation.maxSteps} instructions`;
    return refused(reason, new Error(reason));
  }
  const escaped = escapes ? readEscapes(escapes) : undefined;
  if (escaped && escaped.count > 0) {
    const reason = escapeReason(escaped);
    return refused(reason, new SelectedImageEscapeError(reason, escaped.count, escaped.first, escaped.bySlot));
  }
  const [gx, gy, gz] = translation.grid;
  const groups = gx * gy * gz;
  const setup = translation.setup;
  const wave =
    setup.kind === 'program' && translation.readBack
      ? waveFromReadBack(setup, translation.readBack, status)
      : undefined;
  const after = memoryAfter(layout, memory);
  const compare = compareWithExpected(capture, after, wave);
  const run = {
    steps,
    groups,
    waves: groups * translation.layout.waves,
    checked: translation.program.instructions,
    // Counted by the interpreter only (src/interp/execute.ts); a GPU run reports none.
    laneOps: 0,
    compiledInstructions: 0,
    ...(wave ? { lastWave: wave } : {}),
  };
  // The device's memory goes back with the verdict, for the app's buffer and image tables (issue 7).
  return { kind: compare.match ? 'match' : 'mismatch', run, compare, memory: after };
}
