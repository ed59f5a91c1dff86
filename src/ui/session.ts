/**
 * One open capture as the app sees it, DOM free (it runs in the analysis worker and in Node's
 * tests): the capture read and checked (src/host/capture), its summary, its program's listing
 * (listing.ts over src/isa/program.ts), a replay on the interpreter compared with the
 * expectation (src/interp/replay.ts, compare.ts), and a stepper (src/interp/stepper.ts).
 */
import { CaptureError } from '../host/capture/errors.ts';
import { readCapture, type Capture } from '../host/capture/container.ts';
import {
  isUnavailable,
  parseAddress,
  type Compare,
  type DescriptorNote,
  type Manifest,
} from '../host/capture/manifest.ts';
import {
  decodeBufferDescriptor,
  decodeImageDescriptor,
  decodeSamplerDescriptor,
  DescriptorError,
} from '../host/descriptors/index.ts';
import { compareBytes, type Mismatch } from '../interp/compare.ts';
import { setupFromCapture, waveLayout, type Setup } from '../interp/dispatch.ts';
import { GuestMemory } from '../interp/memory.ts';
import { replayCapture } from '../interp/replay.ts';
import { DispatchStepper, runStopOf, type StepEvent } from '../interp/stepper.ts';
import type { VectorBridge } from '../interp/vector-bridge.ts';
import { Gen, GEN_NAMES, targetFor, type Target } from '../isa/gen.ts';
import { m0Code, sgprCount, SRC_VCC_LO } from '../isa/operands.ts';
import { translateCapture } from '../translator/gpu-replay.ts';
import { INSTRUCTION_MARKER } from '../translator/program.ts';
import { SpirvToolsError, spirvText, spirvTools, type SpirvToolsOptions } from '../translator/spirv/disassemble.ts';
import { spirvFromWgsl, UnsupportedWgsl } from '../translator/spirv/wgsl-reader/index.ts';
import { disassembleListing } from './listing.ts';
import { ELEMENT_BYTES } from './buffer-format.ts';
import { imageComparisons } from './image-diff.ts';
import { TableInspector } from './tables-data.ts';
import type {
  BufferComparison,
  CaptureSummary,
  DirectorySlotDetail,
  EscapesReport,
  TablesReport,
  DescriptorSummary,
  ModulesStatus,
  NamedError,
  ProgramView,
  ProgressSink,
  RunReport,
  SpirvStatus,
  StepCommand,
  StepFocus,
  StepSnapshot,
  WaveDetail,
  WgslBlock,
} from './worker-api.ts';

/** What the SPIR-V panel says when there is no WGSL to read into SPIR-V. */
export const SPIRV_STATUS = {
  kind: 'spirv-not-translated',
  reason:
    'no SPIR-V: the translator made no WGSL module of this capture, and the SPIR-V back end (D016) reads that module.',
} as const satisfies SpirvStatus;

/**
 * The translated WGSL read into SPIR-V (src/translator/spirv/wgsl-reader, D016) and disassembled
 * by the spirv-tools package; a reader refusal or a spirv-tools failure is the status, with its reason.
 */
export async function spirvOfWgsl(wgsl: string, tools: SpirvToolsOptions = {}): Promise<SpirvStatus> {
  const t0 = now();
  let words: Uint32Array;
  try {
    words = spirvFromWgsl(wgsl);
  } catch (e) {
    if (!(e instanceof UnsupportedWgsl)) throw e;
    return {
      kind: 'spirv-unsupported-wgsl',
      reason: `translator bug: the SPIR-V back end cannot read the translated WGSL at ${e.message}`,
      line: e.pos.line - 1,
    };
  }
  const t1 = now();
  try {
    await spirvTools(tools); // loads its WebAssembly on the first call: timed apart from the disassembly
    const t2 = now();
    const text = await spirvText(words, tools);
    return {
      kind: 'spirv',
      text,
      bytes: words.byteLength,
      readMs: t1 - t0,
      loadMs: t2 - t1,
      disassembleMs: now() - t2,
    };
  } catch (e) {
    if (!(e instanceof SpirvToolsError)) throw e;
    return { kind: 'spirv-tools-failed', reason: `${e.message} (a ${words.byteLength}-byte module)` };
  }
}

/**
 * Where the translated WGSL shows the program: the line that opens a block's phase A (`if (pc ==
 * N) { // 0xADDR` in run order, the dispatcher's `case N: { // 0xADDR`), a bare `case N: {`
 * (a finish), and each instruction's marker
 * (`instructionMarker`: its address, here as a byte offset from `entry`). All 0-based, the first of each.
 */
export function wgslLandmarks(
  wgsl: string,
  entry: number,
): { caseLine: Map<number, number>; bareCaseLine: Map<number, number>; markerLine: Map<number, number> } {
  const caseLine = new Map<number, number>();
  const bareCaseLine = new Map<number, number>();
  const markerLine = new Map<number, number>();
  wgsl.split('\n').forEach((text, i) => {
    const marker = INSTRUCTION_MARKER.exec(text);
    if (marker) {
      const offset = parseInt(marker[1]!, 16) - entry;
      if (!markerLine.has(offset)) markerLine.set(offset, i);
      return;
    }
    // A block opens as `if (pc == N) { // 0xADDR` in run order (D028), or as the dispatcher's
    // `case N: { // 0xADDR`; a finish is a bare `case N: {`.
    const m = /^\s*(?:case (\d+)u: \{|if \(pc == (\d+)u\) \{)(\s*\/\/ 0x[0-9a-f]+)?\s*$/.exec(text);
    if (!m) return;
    const id = Number(m[1] ?? m[2]);
    const into = m[3] ? caseLine : bareCaseLine;
    if (!into.has(id)) into.set(id, i);
  });
  return { caseLine, bareCaseLine, markerLine };
}

const hex = (v: number, digits = 8): string => `0x${(v >>> 0).toString(16).padStart(digits, '0')}`;
const now = (): number => performance.now();

/** An error as the page shows it; CaptureError keeps its code. */
export function namedError(e: unknown): NamedError {
  if (e instanceof CaptureError) return { name: e.name, code: e.code, message: e.message };
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}

function compareText(c: Compare): string {
  return c.kind === 'exact' ? 'exact' : `within ${c.ulps} ulp of ${c.element}`;
}

function whereText(d: DescriptorNote): string {
  const at = d.at;
  if ('user_data' in at) return `COMPUTE_USER_DATA_${at.user_data}`;
  if ('sgpr' in at) return `s${at.sgpr}`;
  return at.address;
}

/** A decoded descriptor's fields as text, nested records spelled `outer.inner`; the raw words are shown apart. */
function recordFields(record: object, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(record)) {
    if (prefix === '' && (k === 'words' || k === 'kind' || k === 'gen')) continue;
    const key = prefix + k;
    if (v === null || v === undefined) out.push([key, String(v)]);
    else if (Array.isArray(v))
      out.push([key, v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ')]);
    else if (typeof v === 'object') out.push(...recordFields(v as object, `${key}.`));
    else if (typeof v === 'number' && Number.isInteger(v) && v > 0xffff) out.push([key, `${v} (${hex(v, 1)})`]);
    else out.push([key, String(v)]);
  }
  return out;
}

function describeDescriptor(target: Target, d: DescriptorNote): DescriptorSummary {
  const base = { kind: d.kind, where: whereText(d), words: d.words, ...(d.name ? { name: d.name } : {}) };
  // An S# is shown with its reserved values named: only a consumer that consults them refuses (D004).
  const sampler = (g: Target['gen'], w: readonly number[]) => decodeSamplerDescriptor(g, w, { reserved: 'keep' });
  const decode = { buffer: decodeBufferDescriptor, image: decodeImageDescriptor, sampler }[d.kind];
  try {
    return { ...base, fields: recordFields(decode(target.gen, d.words)) };
  } catch (e) {
    if (e instanceof DescriptorError) return { ...base, error: e.message };
    throw e;
  }
}

function dispatchLines(m: Manifest, setup: Setup | undefined): string[] {
  const d = m.dispatch;
  const lines: string[] = [];
  if (d.kind === 'pm4') lines.push(`PM4 stream of ${d.size} bytes, run through the command processor`);
  if (!setup) return lines;
  lines.push(`program at 0x${setup.programAddress.toString(16)}`);
  if (setup.kind === 'program') {
    lines.push(
      `one wave from given registers: EXEC 0x${setup.exec.toString(16)}, ${setup.sgprs.length} SGPRs, ${setup.vgprs.length} VGPRs`,
    );
    if (setup.end !== undefined) lines.push(`returns at 0x${setup.end.toString(16)}`);
    return lines;
  }
  const layout = waveLayout(setup);
  lines.push(
    `grid ${setup.grid.join('×')} groups of ${setup.numThreads.join('×')} threads: ${layout.waves} wave${layout.waves === 1 ? '' : 's'} of ${layout.lanes} lanes each`,
  );
  lines.push(
    `RSRC1 ${hex(setup.rsrc1 ?? 0)}  RSRC2 ${hex(setup.rsrc2)}${setup.rsrc3 !== undefined ? `  RSRC3 ${hex(setup.rsrc3)}` : ''}`,
  );
  const user = layout.sgprs.filter((s) => s.kind === 'user').length;
  lines.push(
    `user data (${user}): ${
      setup.userData
        .slice(0, user)
        .map((v) => hex(v))
        .join(' ') || 'none'
    }`,
  );
  return lines;
}

/** VGPRs a wave of this setup allocates (RSRC1.VGPRS in granules of 8 on gfx10+ wave32, else 4). */
function allocatedVgprs(setup: Setup): number {
  if (setup.kind === 'program') return Math.min(256, Math.max(8, setup.vgprs.length));
  if (setup.rsrc1 === undefined) return 256;
  const granule = setup.target.gen >= Gen.GFX10 && !setup.target.wave64 ? 8 : 4;
  return Math.min(256, ((setup.rsrc1 & 0x3f) + 1) * granule);
}

/**
 * Each expected range beside what a run left there (`peek`: null where the range is not in
 * memory after the run), with the elements that differ beyond its tolerance, by compare.ts.
 */
export function bufferComparisons(
  capture: Pick<Capture, 'manifest' | 'blob'>,
  peek: (address: number, size: number) => Uint8Array | null,
): BufferComparison[] {
  const exp = capture.manifest.expected;
  const buffers: BufferComparison[] = [];
  if (isUnavailable(exp)) return buffers;
  for (const r of exp.memory) {
    const address = Number(parseAddress(r.address));
    const expected = r.blob === null ? null : capture.blob(r.blob);
    const got = peek(address, r.size);
    const element =
      r.compare.kind === 'ulp' ? r.compare.element : r.size % 4 === 0 ? ('u32' as const) : ('u8' as const);
    const differing: number[] = [];
    if (expected && got) {
      const all: Mismatch[] = [];
      compareBytes(address, expected, got, r.compare, all, Infinity);
      for (const x of all) differing.push(x.element);
    }
    const images = imageComparisons(
      capture.manifest,
      { address, size: r.size },
      expected,
      got,
      differing,
      ELEMENT_BYTES[element],
    );
    buffers.push({
      address,
      size: r.size,
      compare: r.compare,
      element,
      expected: expected && expected.slice(),
      got: got && got.slice(),
      ...(r.blob === null ? { unavailable: r.unavailable ?? 'not in the capture' } : {}),
      differing,
      ...(images.length ? { images } : {}),
    });
  }
  return buffers;
}

/** `translateCapture` once: the module with its milliseconds, or the refusal by kind and reason. */
type TranslationOutcome =
  | { readonly kind: 'translated'; readonly translation: Translated['translation']; readonly ms: number }
  | { readonly kind: 'refused' | 'invalid'; readonly reason: string };
type Translated = Exclude<ReturnType<typeof translateCapture>, { kind: string }>;

export class CaptureSession {
  private stepper: DispatchStepper | undefined;
  private stepperError: string | undefined;
  private inspector: TableInspector | undefined;
  private translated: TranslationOutcome | undefined;
  private spirvStatus: SpirvStatus | undefined;
  /** Instruction text by byte offset from the entry. */
  private readonly textAt = new Map<number, string>();
  readonly program: ProgramView;

  private constructor(
    readonly capture: Capture,
    readonly summary: CaptureSummary,
    private readonly setup: Setup | undefined,
    private readonly vector: VectorBridge | undefined,
  ) {
    this.program = this.disassemble();
  }

  /** Reads and checks a capture (every refusal a CaptureError), then describes it. */
  static async open(
    bytes: Uint8Array,
    name: string,
    vector: VectorBridge | undefined,
    progress: ProgressSink = () => {},
  ): Promise<CaptureSession> {
    progress(`reading ${name} (${bytes.length} bytes): the zip directory, the manifest, then each blob's checksum`);
    const t0 = now();
    const capture = await readCapture(bytes);
    const readMs = now() - t0;
    const m = capture.manifest;
    const target = targetFor(m.target.mcpu, m.target.wave64);
    let setup: Setup | undefined;
    let dispatchError: string | undefined;
    try {
      setup = setupFromCapture(capture, GuestMemory.fromCapture(capture));
      if (setup.kind === 'dispatch') waveLayout(setup);
    } catch (e) {
      const why = runStopOf(e);
      if (!why) throw e;
      setup = undefined;
      dispatchError = why.reason;
    }
    const summary: CaptureSummary = {
      name,
      fileBytes: bytes.length,
      mcpu: m.target.mcpu,
      gen: GEN_NAMES[target.gen],
      wave64: target.wave64,
      dispatchKind: m.dispatch.kind,
      dispatch: dispatchLines(m, setup),
      ...(dispatchError ? { dispatchError } : {}),
      redacted: m.redacted,
      recorder: m.provenance.recorder,
      notes: m.provenance.notes,
      ranges: m.memory.map((r) => ({
        address: r.address,
        size: r.size,
        access: r.access,
        origin: r.origin.kind,
        detail: r.origin.detail,
        ...(r.blob === null ? { unavailable: r.unavailable ?? 'not in the capture' } : {}),
        readBytes:
          r.read_bytes === 'unknown'
            ? 'unknown'
            : r.read_bytes.length === 1 && r.read_bytes[0][0] === 0 && r.read_bytes[0][1] === r.size
              ? 'all'
              : r.read_bytes.map(([o, n]) => `${o}+${n}`).join(', ') || 'none',
      })),
      descriptors: (m.descriptors ?? []).map((d) => describeDescriptor(target, d)),
      expected: isUnavailable(m.expected)
        ? { unavailable: m.expected.unavailable }
        : {
            source:
              m.expected.source.kind === 'hardware'
                ? `hardware${m.expected.source.detail ? ` (${m.expected.source.detail})` : ''}`
                : `${m.expected.source.tool} at ${m.expected.source.revision}`,
            ranges: m.expected.memory.map((r) => ({
              address: r.address,
              size: r.size,
              compare: compareText(r.compare),
            })),
            registers: m.expected.registers !== undefined,
          },
      readMs,
    };
    progress('disassembling the program');
    return new CaptureSession(capture, summary, setup, vector);
  }

  private disassemble(): ProgramView {
    const setup = this.setup;
    if (!setup) return { ok: false, reason: `the program cannot be found: ${this.summary.dispatchError}` };
    const memory = GuestMemory.fromCapture(this.capture);
    let range: { address: number; bytes: Uint8Array };
    try {
      range = memory.rangeAt(setup.programAddress);
    } catch (e) {
      return { ok: false, reason: namedError(e).message };
    }
    const code = range.bytes.subarray(setup.programAddress - range.address);
    const t0 = now();
    const listing = disassembleListing(setup.target, code);
    const decodeMs = now() - t0;
    for (const l of listing.lines) if (l.text !== undefined) this.textAt.set(l.offset, l.text);
    return {
      ok: true,
      mcpu: setup.target.cpu,
      wave64: setup.target.wave64,
      entry: setup.programAddress,
      bytes: code.length,
      listing,
      decodeMs,
    };
  }

  /** The capture translated once (WebGPU's default limits, as `gcn-webgpu translate` does), or the refusal. */
  private translation(): TranslationOutcome {
    this.translated ??= (() => {
      const t0 = now();
      const t = translateCapture(this.capture, undefined, { vector: this.vector });
      const ms = now() - t0;
      return 'kind' in t ? { kind: t.kind, reason: t.reason } : { kind: 'translated', translation: t.translation, ms };
    })();
    return this.translated;
  }

  /**
   * The capture translated to WGSL, with each translation block's instructions and the lines of
   * its code and of each instruction's marker in the text. The SPIR-V is asked for apart
   * (`spirv`), when its panel is first shown, so that nothing else waits for it.
   */
  async modules(progress: ProgressSink = () => {}): Promise<ModulesStatus> {
    progress('translating the dispatch to WGSL (src/translator)');
    const t = this.translation();
    if (t.kind !== 'translated') return { kind: t.kind, reason: t.reason };
    progress('linking the translation blocks and instructions to the program');
    const entry = this.program.ok ? this.program.entry : (this.setup?.programAddress ?? 0);
    const offsets = [...this.textAt.keys()].sort((a, b) => a - b);
    const indexOf = new Map(offsets.map((o, i) => [o, i]));
    const { caseLine, bareCaseLine, markerLine } = wgslLandmarks(t.translation.wgsl, entry);
    const blocks: WgslBlock[] = t.translation.program.blocks.map((b) => {
      const offset = b.address - entry;
      const first = indexOf.get(offset);
      const instructions = first === undefined ? [] : offsets.slice(first, first + b.steps);
      return {
        id: b.id,
        offset,
        instructions,
        instructionLines: instructions.map((o) => markerLine.get(o) ?? null),
        line: caseLine.get(b.id) ?? null,
        finishLine: b.finish ? (bareCaseLine.get(b.id + 1) ?? null) : null,
      };
    });
    return { kind: 'modules', wgsl: t.translation.wgsl, blocks, ms: t.ms };
  }

  /**
   * The translated WGSL as SPIR-V text (`spirvOfWgsl`, where `tools` says where spirv-tools'
   * WebAssembly is fetched from in a browser); translates first where `modules` has not. Made
   * once a capture: a second call returns the first one's status.
   */
  async spirv(progress: ProgressSink = () => {}, tools: SpirvToolsOptions = {}): Promise<SpirvStatus> {
    if (this.spirvStatus) return this.spirvStatus;
    progress('translating the dispatch to WGSL (src/translator)');
    const t = this.translation();
    if (t.kind !== 'translated') return SPIRV_STATUS;
    progress('reading the WGSL into SPIR-V and disassembling it (spirv-tools)');
    this.spirvStatus = await spirvOfWgsl(t.translation.wgsl, tools);
    return this.spirvStatus;
  }

  private get tableInspector(): TableInspector {
    this.inspector ??= new TableInspector(this.capture, this.setup, GuestMemory.fromCapture(this.capture), this.vector);
    return this.inspector;
  }

  /** The selecting slots' tables and directories (tables-data.ts). */
  tables(progress: ProgressSink = () => {}): TablesReport {
    return this.tableInspector.report(progress);
  }

  directorySlot(slot: string, index: number): DirectorySlotDetail {
    return this.tableInspector.slotDetail(slot, index);
  }

  escapes(): EscapesReport {
    return this.tableInspector.escapes();
  }

  /** Replays on the interpreter; the expected ranges come back beside the bytes the run left. */
  replay(progress: ProgressSink = () => {}): RunReport {
    progress('scanning the program, then running every group on the interpreter');
    const t0 = now();
    const o = replayCapture(this.capture, { vector: this.vector });
    const ms = now() - t0;
    if (o.kind === 'refused' || o.kind === 'invalid') return { kind: o.kind, ms, reason: o.reason };
    // Which lanes selected which descriptor: the same interpreter, stepped (tables-data.ts).
    this.tableInspector.observe(progress);
    progress('comparing with the expected result');
    const buffers = bufferComparisons(this.capture, (address, size) => o.memory?.peek(address, size) ?? null);
    const c = o.compare;
    return {
      kind: o.kind,
      ms,
      steps: o.run.steps,
      ...(o.run.laneOps !== undefined ? { laneOps: o.run.laneOps } : {}),
      ...(o.run.compiledInstructions !== undefined ? { compiledInstructions: o.run.compiledInstructions } : {}),
      groups: o.run.groups,
      waves: o.run.waves,
      checked: o.run.checked,
      rangesCompared: c.rangesCompared,
      bytesCompared: c.bytesCompared,
      rangesNotCompared: c.rangesNotCompared,
      mismatchCount: c.mismatchCount,
      mismatches: c.mismatches,
      buffers,
    };
  }

  /** Runs a Step view command on the stepper (made on first use, remade by `restart`), then describes it. */
  step(command: StepCommand, focus: StepFocus): StepSnapshot | { refused: string } {
    if (command.kind === 'restart' || (!this.stepper && this.stepperError === undefined)) {
      this.stepper = undefined;
      this.stepperError = undefined;
      if (this.capture.manifest.redacted)
        this.stepperError = 'the capture is redacted: its guest data was removed, so it cannot be run';
      else if (!this.setup) this.stepperError = this.summary.dispatchError;
      else
        try {
          this.stepper = new DispatchStepper(this.setup, GuestMemory.fromCapture(this.capture), {
            vector: this.vector,
          });
        } catch (e) {
          const why = runStopOf(e);
          if (!why) throw e;
          this.stepperError = why.reason;
        }
    }
    const s = this.stepper;
    if (!s) return { refused: this.stepperError ?? 'the stepper could not be made' };
    const waveIndex = Math.max(0, Math.min(focus.wave, s.waves.length - 1));
    const before = s.steps;
    let event: StepEvent | undefined;
    switch (command.kind) {
      case 'wave':
        for (let i = 0; i < command.count; i++) {
          event = s.stepWave(waveIndex);
          if (event.kind !== 'stepped') break;
        }
        break;
      case 'round':
        event = s.stepRound();
        break;
      case 'finish-group':
        event = s.finishGroup();
        break;
      case 'next-group':
        event = s.nextGroup();
        break;
      case 'look':
      case 'restart':
        break;
    }
    return this.snapshot(s, Math.max(0, Math.min(focus.wave, s.waves.length - 1)), focus, event, s.steps - before);
  }

  private snapshot(
    s: DispatchStepper,
    waveIndex: number,
    focus: StepFocus,
    event: StepEvent | undefined,
    ran: number,
  ): StepSnapshot {
    const entry = this.program.ok ? this.program.entry - s.program.base : 0;
    const defaultVgprs = allocatedVgprs(s.setup);
    const w = s.waves[waveIndex];
    let wave: WaveDetail | undefined;
    if (w) {
      const gen = s.setup.target.gen;
      const lane = Math.max(0, Math.min(focus.lane, w.lanes - 1));
      const count = Math.max(1, Math.min(256, focus.vgprs ?? defaultVgprs));
      const pc = w.pc - entry;
      wave = {
        id: w.id,
        lanes: w.lanes,
        pc,
        next: w.done
          ? 'the wave has ended'
          : (this.textAt.get(pc) ?? `no decoded instruction starts at offset 0x${pc.toString(16)}`),
        done: w.done,
        atBarrier: w.atBarrier,
        scc: w.scc,
        exec: [w.execLo(), w.execHi()],
        vcc: [w.sgpr[SRC_VCC_LO], w.lanes === 64 ? w.sgpr[SRC_VCC_LO + 1] : 0],
        m0: w.sgpr[m0Code(gen)],
        mode: w.mode,
        sgprs: Array.from(w.sgpr.subarray(0, sgprCount(gen))),
        lane,
        laneActive: w.active(lane),
        vgprs: Array.from({ length: count }, (_, v) => w.readVgpr(v, lane)),
      };
    }
    return {
      groupIndex: s.groupIndex,
      groupCount: s.groupCount,
      groupId: s.groupId,
      finished: s.finished,
      steps: s.steps,
      ...(s.refusal !== undefined ? { refusal: s.refusal } : {}),
      ...(event ? { event } : {}),
      ran,
      waves: s.waves.map((x) => ({
        id: x.id,
        pc: x.pc - entry,
        done: x.done,
        atBarrier: x.atBarrier,
        activeLanes: x.activeLanes(),
      })),
      ...(wave ? { wave } : {}),
      defaultVgprs,
    };
  }
}
