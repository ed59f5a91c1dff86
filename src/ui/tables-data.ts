/**
 * The Tables and directory view's data, made in the analysis worker: the program traced
 * (src/tracer, D012), each selecting texture slot's table read and classified on the host
 * (src/host/directory, D013: records, bounds, the hashed directory, pages), a directory slot
 * opened (its T# decoded, its image's every level and slice decoded by src/host/texels, its
 * sampler), and which lanes selected each descriptor in the last interpreter run.
 *
 * The interpreter's replay does not report which lanes selected which descriptor, so the app
 * observes it: it steps the same interpreter (DispatchStepper) over the dispatch and, before a
 * wave runs a selecting access, reads the T# and S# registers and EXEC. The words name the
 * directory slot (D983 finds descriptors by their words); words the directory lacks are escapes.
 */
import type { Capture } from '../host/capture/container.ts';
import {
  decodeBufferDescriptor,
  decodeImageDescriptor,
  decodeSamplerDescriptor,
  encodeBufferDescriptor,
  type BufferDescriptor,
} from '../host/descriptors/index.ts';
import {
  buildDirectory,
  checkImageBounds,
  DirectoryError,
  findInDirectory,
  LEFT_OUT_REASONS,
  pageBudgetFor,
  planPages,
  readImageTable,
  type DescriptorDirectory,
  type ImageTable,
  type PagePlan,
  type TableImage,
} from '../host/directory/index.ts';
import { decodeImageLevel } from '../host/texels/formats.ts';
import { readSurface } from '../host/texels/surface.ts';
import { DispatchStepper } from '../interp/stepper.ts';
import { bufferRsrcOf, pointer48 } from '../interp/buffer-ops.ts';
import type { DispatchSetup, Setup } from '../interp/dispatch.ts';
import { GuestMemory } from '../interp/memory.ts';
import type { VectorBridge } from '../interp/vector-bridge.ts';
import { concrete } from '../semantics/concrete.ts';
import { add64 } from '../semantics/wide.ts';
import { entryFromSetup } from '../tracer/entry.ts';
import { provenanceText, type Provenance } from '../tracer/provenance.ts';
import { classificationText } from '../tracer/format.ts';
import { hexAddress } from '../tracer/ids.ts';
import { traceProgram, type AccessTrace, type DescriptorTrace, type TraceResult } from '../tracer/trace.ts';
import type {
  AccessOrigins,
  DirectorySlotDetail,
  Escape,
  EscapesReport,
  LaneSelection,
  ProgressSink,
  SlotTable,
  TableImageSummary,
  TableRefusal,
  TablesReport,
  Thumbnail,
} from './worker-api.ts';
import { RECORD_KINDS } from './worker-api.ts';

const now = (): number => performance.now();
const NONE = 0xffff;

/** The limits a table's images are classified against without a device: WebGPU's defaults. */
const DEFAULT_PAGE_LIMITS = { maxSampledTexturesPerShaderStage: 16, maxTextureArrayLayers: 256 };
/** The stepped observation of lanes ends here: a long dispatch is not stepped to its end. */
export const MOST_OBSERVED_STEPS = 2_000_000;
/** Thumbnails decode at most this many texels an image. */
const MOST_THUMBNAIL_TEXELS = 1 << 20;

/** A traced word's value known at dispatch, or why it is not. */
class NotKnown extends Error {
  override readonly name = 'NotKnown';
}

function refusalOf(e: unknown): TableRefusal {
  if (e instanceof DirectoryError) return { code: e.code, reason: e.reason };
  if (e instanceof NotKnown) return { code: 'not-known-at-dispatch', reason: e.message };
  if (e instanceof Error) return { code: e.name, reason: e.message };
  return { code: 'Error', reason: String(e) };
}

/** A decoded record's fields as text (nested records as `outer.inner`), the raw words apart. */
export function fieldsText(record: object, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(record)) {
    if (prefix === '' && (k === 'words' || k === 'kind' || k === 'gen')) continue;
    const key = prefix + k;
    if (v === null || v === undefined) out.push([key, String(v)]);
    else if (Array.isArray(v))
      out.push([key, v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ')]);
    else if (typeof v === 'object') out.push(...fieldsText(v as object, `${key}.`));
    else if (typeof v === 'number' && Number.isInteger(v) && v > 0xffff) out.push([key, `${v} (0x${v.toString(16)})`]);
    else out.push([key, String(v)]);
  }
  return out;
}

interface PreparedSlot {
  readonly summary: SlotTable;
  readonly table?: ImageTable;
  readonly directory?: DescriptorDirectory;
  readonly pages?: PagePlan;
  /** The selecting accesses' T# and S# first SGPRs, by byte offset from the code base. */
  readonly sites: readonly { readonly at: number; readonly resource: number; readonly sampler?: number }[];
  readonly samplerWords?: readonly number[];
  readonly samplerNote?: string;
}

interface Observation {
  readonly steps: number;
  /** By slot: descriptor words key -> lanes. */
  readonly bySlot: Map<string, Map<string, LaneSelection[]>>;
  readonly escapes: (Escape & { slot: string })[];
  /** The S# words each slot's accesses used (the first seen). */
  readonly samplers: Map<string, readonly number[]>;
  /** Why the observation stopped early, if it did. */
  readonly cut?: string;
}

const firstSgpr = (registers: string): number => Number(/^s\[?(\d+)/.exec(registers)?.[1] ?? NaN);
const wordsKey = (w: readonly number[]): string => w.map((x) => (x >>> 0).toString(16)).join(',');

/** A provenance's kind in the words the Program view shows (a computed value by what it is computed from). */
function sourceOf(p: Provenance, into: Set<string>): void {
  switch (p.kind) {
    case 'constant':
      into.add('constants');
      return;
    case 'user-data':
      into.add('user data');
      return;
    case 'code-address':
      into.add('code address');
      return;
    case 'load':
      into.add(p.fixed ? 'fixed load' : 'table selection');
      return;
    case 'lane-value':
      into.add('waterfall');
      return;
    case 'computed':
      if (p.from.length === 0) into.add('computed');
      for (const f of p.from) sourceOf(f, into);
      return;
    case 'unknown':
      into.add('untraced');
      return;
  }
}

/** Where one register's word comes from, in short (the Program view's per-register chip). */
export function provenanceSources(p: Provenance): string[] {
  const into = new Set<string>();
  sourceOf(p, into);
  return [...into];
}

/** Where a descriptor's words come from, in short; a selection names its table and its waterfall. */
export function originSources(d: DescriptorTrace): string[] {
  const into = new Set<string>();
  if (d.classification.kind === 'selected') into.add('table selection').add('waterfall');
  for (const w of d.words) sourceOf(w.provenance, into);
  if (d.classification.kind === 'untraced') into.add('untraced');
  return [...into];
}

export class TableInspector {
  private trace: TraceResult | undefined;
  private traceError: string | undefined;
  private codeBase = 0;
  private prepared: PreparedSlot[] | undefined;
  private observation: Observation | { unavailable: string } | undefined;

  constructor(
    private readonly capture: Pick<Capture, 'manifest' | 'blob'>,
    private readonly setup: Setup | undefined,
    private readonly memory: GuestMemory,
    private readonly vector: VectorBridge | undefined,
  ) {}

  private traced(): TraceResult | undefined {
    if (this.trace || this.traceError) return this.trace;
    const setup = this.setup;
    if (!setup) {
      this.traceError = 'the dispatch could not be set up, so its program cannot be traced';
      return undefined;
    }
    const range = this.memory.rangeAt(setup.programAddress);
    this.codeBase = range.address;
    this.trace = traceProgram(setup.target, range.bytes, {
      entry: setup.programAddress - range.address,
      ...(setup.kind === 'program' && setup.end !== undefined ? { end: setup.end - range.address } : {}),
      entryState: entryFromSetup(setup, range.address),
    });
    return this.trace;
  }

  private word(address: number): number {
    const b = this.memory.read(address, 4);
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }

  /** A traced word's value at dispatch: a constant, user data, a load at a fixed place. */
  private evaluate(p: Provenance): number {
    switch (p.kind) {
      case 'constant':
        return p.value >>> 0;
      case 'user-data':
        if (p.value === undefined) throw new NotKnown(`user-data word ${p.index} has no value in the capture`);
        return p.value >>> 0;
      case 'load': {
        if (!p.fixed) throw new NotKnown(`${provenanceText(p)} is selected per lane`);
        const base = p.base.map((b) => this.evaluate(b));
        const offset = this.evaluate(p.offset);
        if (p.through === 'address') {
          const [lo, hi] = add64(concrete, pointer48(concrete, base[0]!, base[1]!), [offset, 0]);
          return this.word(hi * 2 ** 32 + ((lo & ~3) >>> 0) + 4 * p.dword);
        }
        const r = bufferRsrcOf(this.setup!.target.gen, base);
        const [lo, hi] = add64(concrete, r.base, [((offset & ~3) >>> 0) + 4 * p.dword, 0]);
        return this.word(hi * 2 ** 32 + lo);
      }
      default:
        throw new NotKnown(`${provenanceText(p)} is not known at dispatch`);
    }
  }

  /** The table's V#: its own words, or (an address) one spanning the rest of the capture range it is in. */
  private tableDescriptor(access: AccessTrace): { descriptor: BufferDescriptor; offset: number } {
    const gen = this.setup!.target.gen;
    const resource = access.descriptors.find((d) => d.role === 'resource')!;
    if (resource.classification.kind !== 'selected') throw new Error('not a selecting access');
    const sel = resource.classification.selection;
    const base = sel.table.base.map((b) => this.evaluate(b));
    if (sel.table.through === 'scalar-descriptor' || sel.table.through === 'buffer')
      return { descriptor: decodeBufferDescriptor(gen, base), offset: sel.record.start };
    const [lo, hi] = pointer48(concrete, base[0]!, base[1]!);
    const address = hi * 2 ** 32 + lo + sel.record.start;
    const range = this.memory.rangeAt(address);
    const size = range.address + range.bytes.length - address;
    // An address names no extent: the table is read to the end of the capture's range holding it.
    const words = encodeBufferDescriptor(gen, {
      base_address: address % 2 ** 32,
      base_address_hi: Math.floor(address / 2 ** 32),
      num_records: Math.min(size, 0xffffffff),
    });
    return { descriptor: decodeBufferDescriptor(gen, words), offset: 0 };
  }

  /** Every selecting slot's table, classified; each later step's refusal kept by name. */
  report(progress: ProgressSink): TablesReport {
    const t0 = now();
    progress('tracing the program (src/tracer)');
    const trace = this.traced();
    if (!trace)
      return {
        slots: [],
        origins: [],
        note: this.traceError,
        accessCounts: { bound: 0, selected: 0, untraced: 0 },
        ms: now() - t0,
      };
    const images = trace.accesses.filter((a) => a.kind === 'image');
    const accessCounts = {
      bound: images.filter((a) => a.classification === 'bound').length,
      selected: images.filter((a) => a.classification === 'selected').length,
      untraced: images.filter((a) => a.classification === 'untraced').length,
    };
    if (!this.prepared) {
      this.prepared = [];
      for (const slot of trace.slots) {
        progress(`reading the table of texture slot ${slot.id}`);
        this.prepared.push(this.prepareSlot(trace, slot));
      }
    }
    const note = trace.slots.length
      ? undefined
      : `the program selects no image from a table at run time (${images.length} image access${images.length === 1 ? '' : 'es'}: ${accessCounts.bound} bound, ${accessCounts.untraced} untraced), so it has no texture slots and no directory`;
    return {
      slots: this.prepared.map((p) => p.summary),
      origins: this.origins(trace),
      ...(note ? { note } : {}),
      accessCounts,
      ms: now() - t0,
    };
  }

  /** Each traced access's descriptors as the Program view shows them (offsets from the entry). */
  private origins(trace: TraceResult): AccessOrigins[] {
    const entry = this.setup?.programAddress ?? this.codeBase;
    return trace.accesses.map((a) => ({
      offset: this.codeBase + a.at - entry,
      kind: a.kind,
      classification: a.classification,
      ...(a.slot === undefined ? {} : { slot: String(a.slot) }),
      descriptors: a.descriptors.map((d) => ({
        kind: d.kind,
        registers: d.registers,
        sources: originSources(d),
        classification: classificationText(d.classification),
        words: d.words.map((w) => ({
          register: w.register,
          sources: provenanceSources(w.provenance),
          provenance: provenanceText(w.provenance),
          chain: w.chain.map((c) => `${c.at === undefined ? 'entry' : hexAddress(c.at)}  ${c.text}`),
        })),
      })),
    }));
  }

  private prepareSlot(trace: TraceResult, slot: TraceResult['slots'][number]): PreparedSlot {
    const gen = this.setup!.target.gen;
    const accesses = slot.accesses.map((at) => trace.accesses.find((a) => a.at === at)!);
    const sites = accesses.map((a) => {
      const r = a.descriptors.find((d) => d.role === 'resource')!;
      const s = a.descriptors.find((d) => d.role === 'sampler');
      return {
        at: Number(a.at),
        resource: firstSgpr(r.registers),
        ...(s ? { sampler: firstSgpr(s.registers) } : {}),
      };
    });
    const entry = this.setup!.programAddress - this.codeBase;
    const base = {
      slot: String(slot.id),
      table: slot.table,
      sampler: slot.sampler,
      shape: slot.shape,
      accesses: sites.map((s) => s.at - entry),
    };
    // The sampler, where every word is known at dispatch.
    let samplerWords: number[] | undefined;
    let samplerNote: string | undefined;
    const samplerTrace = accesses[0]!.descriptors.find((d) => d.role === 'sampler');
    if (!samplerTrace) samplerNote = 'the access takes no sampler';
    else
      try {
        samplerWords = samplerTrace.words.map((w) => this.evaluate(w.provenance));
      } catch (e) {
        samplerNote = `the sampler is not known at dispatch (${refusalOf(e).reason}); the lanes' samplers are shown after an interpreter run`;
      }

    let table: ImageTable;
    try {
      const { descriptor, offset } = this.tableDescriptor(accesses[0]!);
      table = readImageTable(gen, descriptor, this.memory, { offset, features: new Set<string>() });
    } catch (e) {
      return { summary: { ...base, unread: refusalOf(e) }, sites, samplerWords, samplerNote };
    }
    const n = table.recordCount;
    const names: string[] = [];
    const nameIndex = new Map<string, number>();
    const name = (s: string | undefined): number => {
      if (s === undefined) return NONE;
      let i = nameIndex.get(s);
      if (i === undefined) {
        i = names.length;
        names.push(s);
        nameIndex.set(s, i);
      }
      return i;
    };
    const kinds = new Uint8Array(n);
    const places = new Int32Array(n).fill(-1);
    const typeNames = new Uint16Array(n).fill(NONE);
    const formatNames = new Uint16Array(n).fill(NONE);
    const reasons = new Uint16Array(n).fill(NONE);
    const details: Record<number, string> = {};
    const imageByPlace = new Map(table.images.map((im) => [Number(im.place), im]));
    for (const o of table.outcomes) {
      const i = Number(o.index);
      if (o.outcome === 'empty') continue;
      typeNames[i] = name(o.typeName);
      if (o.outcome === 'image') {
        kinds[i] = RECORD_KINDS.indexOf(o.repeat ? 'repeat' : 'image');
        places[i] = Number(o.place);
        formatNames[i] = name(imageByPlace.get(Number(o.place))?.descriptor.format.name);
      } else {
        kinds[i] = RECORD_KINDS.indexOf('left-out');
        reasons[i] = name(o.reason);
        formatNames[i] = name(o.formatName);
        details[i] = o.detail;
      }
    }
    for (const r of LEFT_OUT_REASONS) name(r); // every reason is a filter choice, counted or not

    let bounds: SlotTable['bounds'];
    try {
      const s = checkImageBounds([table]);
      bounds = { ok: true, texelBytes: s.texelBytes };
    } catch (e) {
      bounds = { ok: false, refusal: refusalOf(e) };
    }
    let directory: DescriptorDirectory | undefined;
    let directorySummary: SlotTable['directory'];
    try {
      directory = buildDirectory(
        table.images.map((im) => ({ words: im.words, place: im.place, cube: im.shape === 'cube' })),
      );
      const S = directory.slotCount;
      directorySummary = {
        ok: true,
        slotCount: S,
        grewFrom: directory.grewFrom,
        slots: directory.slots.map((sl) => ({
          index: Number(sl.index),
          place: Number(sl.entry.place),
          cube: sl.entry.cube,
          home: Number(sl.home),
          distance: (Number(sl.index) - Number(sl.home) + S) % S,
        })),
      };
    } catch (e) {
      directorySummary = { ok: false, refusal: refusalOf(e) };
    }
    let pages: PagePlan | undefined;
    let pagesSummary: SlotTable['pages'];
    try {
      pages = planPages(table.images, pageBudgetFor(DEFAULT_PAGE_LIMITS), new Set<string>());
      const p = pages;
      pagesSummary = {
        ok: true,
        lines: (['flat', 'cube', 'volume'] as const).flatMap((kind) =>
          p.pages[kind].map(
            (pg) =>
              `${kind} page ${Number(pg.index)}: ${pg.format} ${pg.width}x${pg.height}, ${pg.depthOrArrayLayers} ${kind === 'volume' ? 'deep' : 'layers'}, ${pg.images.length} image${pg.images.length === 1 ? '' : 's'}`,
          ),
        ),
      };
    } catch (e) {
      pagesSummary = { ok: false, refusal: refusalOf(e) };
    }
    const pageOf = (place: number): string | undefined => {
      const w = pages?.where[place];
      return w ? `${w.page.kind} page ${Number(w.page.index)}` : undefined;
    };
    return {
      summary: {
        ...base,
        address: table.address,
        recordCount: n,
        recordsBeyondCap: table.recordsBeyondCap,
        recordWords: table.recordWords,
        kinds,
        places,
        typeNames,
        formatNames,
        reasons,
        names,
        details,
        images: table.images.map((im) => imageSummary(im, pageOf(Number(im.place)))),
        leftOut: { ...table.leftOut },
        emptyRecords: table.emptyRecords,
        bounds,
        directory: directorySummary,
        pages: pagesSummary,
      },
      table,
      ...(directory ? { directory } : {}),
      ...(pages ? { pages } : {}),
      sites,
      samplerWords,
      samplerNote,
    };
  }

  /** A directory slot opened. */
  slotDetail(slotId: string, index: number): DirectorySlotDetail {
    this.report(() => {});
    const p = this.prepared?.find((x) => x.summary.slot === slotId);
    if (!p || !p.directory || !p.table) throw new RangeError(`texture slot ${slotId} has no directory`);
    const ds = p.directory.slots.find((s) => Number(s.index) === index);
    if (!ds) throw new RangeError(`directory slot ${index} of texture slot ${slotId} is empty`);
    const gen = this.setup!.target.gen;
    const words = [...ds.entry.words];
    const image = p.table.images.find((im) => Number(im.place) === Number(ds.entry.place));
    let fields: [string, string][] | undefined;
    let fieldsError: string | undefined;
    try {
      fields = fieldsText(decodeImageDescriptor(gen, words));
    } catch (e) {
      fieldsError = refusalOf(e).reason;
    }
    let thumbnails: Thumbnail[] = [];
    let thumbnailError: string | undefined;
    if (image)
      try {
        thumbnails = this.thumbnails(image);
      } catch (e) {
        thumbnailError = refusalOf(e).reason;
      }
    const obs = this.observation;
    const observedSampler = obs && 'bySlot' in obs ? obs.samplers.get(slotId) : undefined;
    const samplerWords = p.samplerWords ?? observedSampler;
    let sampler: DirectorySlotDetail['sampler'];
    if (samplerWords) {
      try {
        sampler = { words: samplerWords, fields: fieldsText(decodeSamplerDescriptor(gen, samplerWords)) };
      } catch (e) {
        sampler = { words: samplerWords, error: refusalOf(e).reason };
      }
    }
    let lanes: DirectorySlotDetail['lanes'];
    if (!obs)
      lanes = {
        kind: 'not-run',
        reason: 'run the capture on the interpreter (Run view) to see which lanes selected this descriptor',
      };
    else if (!('bySlot' in obs)) lanes = { kind: 'unavailable', reason: obs.unavailable };
    else lanes = { kind: 'observed', selections: obs.bySlot.get(slotId)?.get(wordsKey(words)) ?? [], steps: obs.steps };
    return {
      slot: slotId,
      index,
      place: Number(ds.entry.place),
      words,
      ...(fields ? { fields } : {}),
      ...(fieldsError ? { fieldsError } : {}),
      ...(image ? { image: imageSummary(image, undefined) } : {}),
      thumbnails,
      ...(thumbnailError ? { thumbnailError } : {}),
      ...(sampler ? { sampler } : {}),
      ...(p.samplerNote && !sampler ? { samplerNote: p.samplerNote } : {}),
      lanes,
    };
  }

  /** Every level and slice (layer, face) of an image, decoded to RGBA8 (floats clamped to [0, 1]). */
  private thumbnails(image: TableImage): Thumbnail[] {
    const layout = image.layout;
    const guest = { address: layout.base, bytes: this.memory.read(layout.base, layout.size) };
    const out: Thumbnail[] = [];
    let texels = 0;
    for (let level = 0; level < layout.levels; level++)
      for (let slice = 0; slice < layout.slices; slice++) {
        const sub = layout.subresource(level, slice);
        texels += sub.width * sub.height;
        if (texels > MOST_THUMBNAIL_TEXELS) return out;
        const linear = readSurface(layout, guest, level, slice);
        const rgba = decodeImageLevel(image.descriptor.format, linear, sub.width, sub.height);
        const bytes = new Uint8ClampedArray(rgba.length);
        const float = rgba instanceof Float32Array;
        for (let i = 0; i < rgba.length; i++) bytes[i] = float ? Math.round(rgba[i]! * 255) : rgba[i]!;
        out.push({ level, slice, width: sub.width, height: sub.height, rgba: bytes });
      }
    return out;
  }

  /**
   * Steps the interpreter over the dispatch and notes, before each selecting access, its
   * lanes (EXEC) and the T# and S# words in its registers.
   */
  observe(progress: ProgressSink): void {
    try {
      this.observeLanes(progress);
    } catch (e) {
      // The run itself stands; only what it would have said about lanes is missing, and why.
      this.observation = { unavailable: `the lanes could not be observed: ${refusalOf(e).reason}` };
    }
  }

  private observeLanes(progress: ProgressSink): void {
    this.report(() => {});
    const slots = this.prepared ?? [];
    const siteAt = new Map<number, { slot: string; resource: number; sampler?: number }>();
    for (const p of slots) for (const s of p.sites) siteAt.set(s.at, { slot: p.summary.slot, ...s });
    if (!siteAt.size || !this.setup || this.setup.kind !== 'dispatch') {
      this.observation = undefined;
      return;
    }
    progress('stepping the interpreter to see which lanes select which descriptor');
    let stepper: DispatchStepper;
    try {
      stepper = new DispatchStepper(this.setup as DispatchSetup, GuestMemory.fromCapture(this.capture), {
        vector: this.vector,
      });
    } catch (e) {
      this.observation = { unavailable: `the stepper could not be made: ${refusalOf(e).reason}` };
      return;
    }
    const entryOffset = this.setup.programAddress - stepper.program.base;
    const codeToProgram = this.codeBase - stepper.program.base;
    const bySlot = new Map<string, Map<string, LaneSelection[]>>();
    const escapes: (Escape & { slot: string })[] = [];
    const samplers = new Map<string, readonly number[]>();
    const dirOf = new Map(slots.map((p) => [p.summary.slot, p.directory]));
    let cut: string | undefined;
    while (!stepper.finished) {
      if (stepper.steps > MOST_OBSERVED_STEPS) {
        cut = `stopped after ${stepper.steps} instructions (at most ${MOST_OBSERVED_STEPS} are stepped)`;
        break;
      }
      const waves = stepper.waves;
      let ranAny = false;
      for (let i = 0; i < waves.length; i++) {
        const w = waves[i]!;
        if (w.done || w.atBarrier) continue;
        const site = siteAt.get(w.pc - codeToProgram);
        if (site) {
          const lanes: number[] = [];
          for (let l = 0; l < w.lanes; l++) if (w.active(l)) lanes.push(l);
          const words = Array.from(w.sgpr.subarray(site.resource, site.resource + 8), (x) => x >>> 0);
          if (site.sampler !== undefined && !samplers.has(site.slot))
            samplers.set(
              site.slot,
              Array.from(w.sgpr.subarray(site.sampler, site.sampler + 4), (x) => x >>> 0),
            );
          const sel = { group: stepper.groupIndex, wave: i, access: w.pc - entryOffset, lanes };
          const dir = dirOf.get(site.slot);
          if (
            lanes.length &&
            dir &&
            !findInDirectory(dir.packed, words, false).found &&
            !findInDirectory(dir.packed, words, true).found
          )
            escapes.push({ ...sel, slot: site.slot, words });
          const key = wordsKey(words);
          const m = bySlot.get(site.slot) ?? new Map<string, LaneSelection[]>();
          bySlot.set(site.slot, m);
          m.set(key, [...(m.get(key) ?? []), sel]);
        }
        const e = stepper.stepWave(i);
        if (e.kind === 'refused') {
          cut = `the interpreter refused: ${e.reason}`;
          break;
        }
        if (e.kind === 'stepped') ranAny = true;
      }
      if (cut) break;
      if (!ranAny) {
        // Every live wave waits at a barrier, or the group is done.
        const e = stepper.groupDone ? stepper.nextGroup() : stepper.stepRound();
        if (e.kind === 'refused') {
          cut = `the interpreter refused: ${e.reason}`;
          break;
        }
      }
    }
    this.observation = { steps: stepper.steps, bySlot, escapes, samplers, ...(cut ? { cut } : {}) };
  }

  escapes(): EscapesReport {
    const obs = this.observation;
    if (!obs) return { kind: 'not-run', reason: 'run the capture on the interpreter (Run view) to see the escapes' };
    if (!('bySlot' in obs)) return { kind: 'unavailable', reason: obs.unavailable };
    return { kind: 'observed', escapes: obs.escapes };
  }
}

function imageSummary(im: TableImage, page: string | undefined): TableImageSummary {
  return {
    place: Number(im.place),
    typeName: im.descriptor.type_name,
    format: im.descriptor.format.name,
    width: im.width,
    height: im.height,
    depth: im.depth,
    levels: im.layout.levels,
    slices: im.layout.slices,
    level: im.level,
    shape: im.shape,
    textureFormat: im.format.format,
    ...(page ? { page } : {}),
    records: im.records.slice(0, 16).map(Number),
  };
}
