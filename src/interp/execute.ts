/**
 * The reference interpreter's step loop (D009). Each PC is decoded once (cached with how it
 * runs); before a dispatch starts, every instruction reachable from the entry (following
 * branch targets, stopping at s_endpgm) is checked, and the first that cannot run here is a
 * named refusal with its address. Scalar ALU runs through `runScalar` over the wave, vector
 * ALU through the vector bridge, program control, scalar memory, MUBUF dword loads/stores,
 * GLOBAL loads/stores and LDS dword access here. Waves of a group step round-robin, one
 * instruction each, and `s_barrier` holds a wave until every live wave of its group arrives.
 */
import { Gen, type Target } from '../isa/gen.ts';
import { bytesToWords, decodeAt } from '../isa/decoder.ts';
import { DecodeError } from '../isa/errors.ts';
import type { Instruction } from '../isa/instruction.ts';
import { branchTarget } from '../isa/program.ts';
import { Attr } from '../isa/registry/types.ts';
import { nullCode, sgprCount } from '../isa/operands.ts';
import { concrete } from '../semantics/concrete.ts';
import { add64 } from '../semantics/wide.ts';
import { SemanticsRefusal, type ScalarState } from '../semantics/context.ts';
import { runScalar, scalarSemanticsFor, SCALAR_UNCOVERED } from '../semantics/scalar.ts';
import type { FloatMode } from '../semantics/algebra.ts';
import { floatModeOf, HW_REG_MODE } from '../semantics/mode.ts';
import { isGprIndexInstruction, runGprIndex } from '../semantics/wave-gpr-index.ts';
import { swizzleRefusal } from '../semantics/wave-lanes.ts';
import {
  decodeBufferDescriptor,
  DescriptorError,
  legacyBufferFormat,
  unifiedFormat,
  type BufferDescriptor,
  type FormatInfo,
} from '../host/descriptors/index.ts';
import { texelFormat, TexelFormatError, type TexelFormat } from '../host/texels/formats.ts';
import { address48, type GuestMemory } from './memory.ts';
import {
  bufferOffsetOver,
  bufferOutOfRange,
  bufferRsrcOf,
  flatAccessSize,
  flatGlobal,
  flatImmediate,
  flatLds,
  globalAddress,
  pairAddress,
  pointer48,
  sBufferDwordInRange,
  scalarOffset,
  smemOffset,
  d16Slot,
  dataDwords,
  laneAccess,
  parseMemOp,
  UnsupportedAccess,
  type ByteSpace,
  type MemOp,
} from './buffer-ops.ts';
import { encodeElement, fromD16, loadElement, toD16 } from './format-store.ts';
import { apertureWord, flatSpace } from './flat.ts';
import { WavePrivate } from './flat-scratch.ts';
import { parseDsOp, runDs, type DsOp } from './lds.ts';
import type { VectorBridge, VectorWaveState } from './vector-bridge.ts';
import { compileBufferAddress } from './jit/buffer-address.ts';
import { VGPR_COUNT, type Wave } from './wave.ts';
import { imageRefusal, runImage } from './image.ts';
import { CompiledAlu, RUN_AHEAD_LIMIT } from './jit/compiled-alu.ts';

export const DEFAULT_MAX_STEPS = 100_000_000;

export type RefusalKind = 'no-semantics' | 'step-limit' | 'unsupported' | 'decode';

/** The interpreter will not run this (exit 2): what, where, why. */
export class InterpRefusal extends Error {
  override readonly name = 'InterpRefusal';
  constructor(
    readonly kind: RefusalKind,
    readonly reason: string,
    readonly address?: number,
    readonly instruction?: string,
  ) {
    super(
      `${address === undefined ? '' : `0x${address.toString(16)}: `}${instruction ? `${instruction}: ` : ''}${reason}`,
    );
  }
}

type Kind =
  | 'salu'
  | 'valu'
  | 'branch'
  | 'endpgm'
  | 'barrier'
  | 'nop'
  | 'smem'
  | 'mubuf'
  | 'global'
  | 'flat'
  | 'scratch'
  | 'ds'
  | 'mimg'
  | 'gpridx';

/** Kinds that address VGPRs outside the VALU: refused while the gfx8/9 GPR index mode is on. */
/** A V#'s address geometry on numbers (`bufferRsrcOf`). */
type Rsrc = ReturnType<typeof bufferRsrcOf>;
/** How many decoded V#s the interpreter keeps (`vsharpEntry`). */
const VSHARP_CACHE = 4;

const VMEM_KINDS: ReadonlySet<Kind> = new Set<Kind>(['mubuf', 'global', 'flat', 'scratch', 'ds', 'mimg']);

interface Decoded {
  readonly inst: Instruction;
  readonly kind: Kind;
  /** Dwords moved by a memory instruction. */
  readonly dwords: number;
  readonly store: boolean;
  /** What a vector memory instruction moves. */
  readonly op?: MemOp;
  /** MTBUF: the instruction's format (a MUBUF `*_format_*` takes the V#'s at run time). */
  readonly format?: TexelFormat;
  readonly ds?: DsOp;
}

const COND_BRANCHES = new Set([
  's_cbranch_scc0',
  's_cbranch_scc1',
  's_cbranch_vccz',
  's_cbranch_vccnz',
  's_cbranch_execz',
  's_cbranch_execnz',
]);
const VALU_FAMILIES = new Set(['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P', 'VOPD']);
const SMEM_NAME = /^s_(buffer_)?load_(dword(x(2|4|8|16))?|b(32|64|128|256|512))$/;
/** Cache maintenance: no effect on the interpreter's memory. */
const BUFFER_CACHE_OPS = new Set(['buffer_wbinvl1', 'buffer_wbinvl1_vol', 'buffer_gl0_inv', 'buffer_gl1_inv']);

/** Whether a branch is taken, by its name (s_branch and the conditional branches `classify` accepts). */
const BRANCH_RULES: Readonly<Record<string, (w: Wave) => boolean>> = {
  s_branch: () => true,
  s_cbranch_scc0: (w) => !w.scc,
  s_cbranch_scc1: (w) => w.scc,
  s_cbranch_vccz: (w) => w.vccZero(),
  s_cbranch_vccnz: (w) => !w.vccZero(),
  s_cbranch_execz: (w) => w.execZero(),
  s_cbranch_execnz: (w) => !w.execZero(),
};
const branchRule = (name: string): ((w: Wave) => boolean) => BRANCH_RULES[name] ?? BRANCH_RULES.s_cbranch_execnz;

/** One thread group's shared state. */
export interface Group {
  readonly waves: readonly Wave[];
  readonly lds: Uint8Array;
}

export interface ExecOptions {
  /** Instructions over the whole dispatch before it is refused (default 100 million). */
  readonly maxSteps?: number;
  /** The vector ALU (absent: VALU instructions are refused before the dispatch starts). */
  readonly vector?: VectorBridge;
  /**
   * Run ALU instructions through their compiled form (src/interp/jit, D014: the same semantic
   * functions, compiled once per PC to JavaScript over the wave's registers). Default true;
   * false runs every instruction through the shared semantics' step-by-step path. With it,
   * the MUBUF address rules of each V# are compiled the same way (jit/buffer-address.ts).
   */
  readonly compiled?: boolean;
}

export class Program {
  /** Decoded instructions by PC / 4 (instructions are dword-aligned; an unaligned PC is not cached). */
  private readonly cache: (Decoded | undefined)[] = [];
  private readonly words: Uint32Array;
  /** Byte offset of the entry in the decoded range. */
  readonly entry: number;
  /** Byte offset (from `base`) where a program capture's function returns, if it has no s_endpgm. */
  readonly end: number | undefined;
  readonly base: number;

  constructor(
    readonly target: Target,
    memory: GuestMemory,
    entryAddress: number,
    private readonly vector?: VectorBridge,
    endAddress?: number,
  ) {
    const range = memory.rangeAt(entryAddress);
    this.base = range.address;
    this.words = bytesToWords(range.bytes);
    this.entry = entryAddress - range.address;
    this.end = endAddress === undefined ? undefined : endAddress - range.address;
    if (this.entry % 4 !== 0) throw new InterpRefusal('decode', 'the program entry is not dword-aligned', entryAddress);
  }

  /** The decoded instruction at a byte offset, classified; refuses what cannot run. */
  at(pc: number): Decoded {
    const aligned = (pc & 3) === 0 && pc >= 0;
    const hit = aligned ? this.cache[pc >>> 2] : undefined;
    if (hit) return hit;
    let inst: Instruction;
    try {
      inst = decodeAt(this.target, this.words, pc >>> 2);
    } catch (e) {
      if (e instanceof DecodeError) throw new InterpRefusal('decode', `cannot decode: ${e.message}`, this.base + pc);
      throw e;
    }
    const d = this.classify(inst);
    if (aligned) this.cache[pc >>> 2] = d;
    return d;
  }

  private classify(inst: Instruction): Decoded {
    const def = inst.def;
    const name = def.name;
    const refuse = (reason: string): never => {
      throw new InterpRefusal('no-semantics', reason, this.base + inst.offset, name);
    };
    const mk = (kind: Kind, dwords = 0, store = false): Decoded => ({ inst, kind, dwords, store });
    const f = inst.fields;
    switch (def.family) {
      case 'SOP1':
      case 'SOP2':
      case 'SOPK':
      case 'SOPC': {
        if (scalarSemanticsFor(def)) return mk('salu');
        if (isGprIndexInstruction(def)) return mk('gpridx');
        const why = SCALAR_UNCOVERED[name];
        return refuse(why ? `${why.kind}: ${why.reason}` : 'no scalar ALU semantics');
      }
      case 'SOPP':
        if (name === 's_endpgm') return mk('endpgm');
        if (name === 's_barrier') return mk('barrier');
        if (name === 's_branch' || COND_BRANCHES.has(name)) return mk('branch');
        if (isGprIndexInstruction(def)) return mk('gpridx');
        if (def.attrs & Attr.NoEffect || name === 's_nop' || name.startsWith('s_waitcnt')) return mk('nop');
        if (scalarSemanticsFor(def)) return mk('salu'); // s_round_mode, s_denorm_mode: MODE writes
        return refuse('program control the interpreter does not model');
      case 'SMEM':
        if (!SMEM_NAME.test(name)) return refuse('only scalar dword loads (s_load_*, s_buffer_load_*) are interpreted');
        return mk('smem', def.operands[0].dwords);
      case 'MUBUF':
      case 'MTBUF': {
        if (BUFFER_CACHE_OPS.has(name)) return mk('nop');
        const mtbuf = def.family === 'MTBUF';
        const rest = name.slice(mtbuf ? 8 : 7);
        if (/(^|_)lds(_|$)/.test(rest)) return refuse('buffer loads into LDS are not interpreted');
        const parsed = parseMemOp(rest);
        if (typeof parsed === 'string') return refuse(parsed);
        if (f.lds) return refuse('loads into LDS (lds:1) are not interpreted');
        if (f.tfe) return refuse('texture-fail-enable (tfe:1) is not interpreted');
        // gfx8's d16 is unpacked: one half a VGPR (buffer-ops.ts d16Slot).
        const op =
          parsed.kind === 'format' && parsed.d16 && this.target.gen <= Gen.GFX8
            ? { ...parsed, unpacked: true }
            : parsed;
        let format: TexelFormat | undefined;
        if (mtbuf) {
          try {
            const gen = this.target.gen;
            const info: FormatInfo =
              gen <= Gen.GFX9 ? legacyBufferFormat(gen, f.dfmt, f.nfmt) : unifiedFormat(gen, f.format, 'buffer');
            format = texelFormat(info);
          } catch (e) {
            if (e instanceof DescriptorError || e instanceof TexelFormatError)
              return refuse(`the instruction's format: ${e.message}`);
            throw e;
          }
        }
        return { inst, kind: 'mubuf', dwords: dataDwords(op), store: op.store, op, format };
      }
      case 'GLOBAL':
      case 'FLAT': {
        const rest = name.slice(def.family === 'FLAT' ? 5 : 7);
        if (f.lds || /(^|_)lds(_|$)/.test(rest)) return refuse('loads into LDS are not interpreted');
        const op = parseMemOp(rest);
        if (typeof op === 'string') return refuse(op);
        if (op.kind === 'format') return refuse('no format forms here');
        return { inst, kind: def.family === 'FLAT' ? 'flat' : 'global', dwords: dataDwords(op), store: op.store, op };
      }
      case 'SCRATCH': {
        const op = parseMemOp(name.slice(8));
        if (typeof op === 'string') return refuse(op);
        if (f.lds) return refuse('loads into LDS are not interpreted');
        if (op.kind === 'format' || op.kind === 'atomic') return refuse('no such scratch form');
        return { inst, kind: 'scratch', dwords: dataDwords(op), store: op.store, op };
      }
      case 'DS': {
        const op = parseDsOp(name);
        if (typeof op === 'string') return refuse(op);
        if (f.gds) return refuse('GDS is not modelled');
        if (op.kind === 'permute' || op.kind === 'bpermute') {
          if (this.target.gen === Gen.GFX7) return refuse('ds_permute/bpermute do not exist on gfx7');
        }
        if (op.kind === 'swizzle') {
          const why = swizzleRefusal(this.target.gen, (f.offset0 ?? 0) | ((f.offset1 ?? 0) << 8));
          if (why) return refuse(why);
        }
        return { inst, kind: 'ds', dwords: 0, store: false, ds: op };
      }
      default:
        if (VALU_FAMILIES.has(def.family)) {
          if (!this.vector) return refuse('vector ALU semantics (src/semantics/vector.ts) are not available yet');
          const why = this.vector.refusal(inst, this.target);
          if (why) return refuse(why);
          return mk('valu');
        }
        if (def.family === 'MIMG') {
          const why = imageRefusal(inst);
          return why ? refuse(why) : mk('mimg');
        }
        return refuse(`the ${def.family} family is not interpreted yet`);
    }
  }

  /** Checks every instruction reachable from the entry; throws the first refusal. Returns how many were checked. */
  prescan(): number {
    const seen = new Set<number>();
    const work = [this.entry];
    while (work.length) {
      let pc = work.pop()!;
      while (!seen.has(pc)) {
        if (pc === this.end) break; // the function returns here (a program capture's `end`)
        seen.add(pc);
        if (pc < 0 || pc >= this.words.length * 4)
          throw new InterpRefusal('decode', 'control reaches past the end of the code range', this.base + pc);
        const d = this.at(pc);
        if (d.kind === 'endpgm') break;
        const next = pc + d.inst.size;
        if (d.kind === 'branch') {
          const t = branchTarget(d.inst);
          if (t === undefined)
            throw new InterpRefusal('decode', 'a branch without a target', this.base + pc, d.inst.def.name);
          if (d.inst.def.name === 's_branch') {
            pc = t;
            continue;
          }
          work.push(t);
        }
        pc = next;
      }
    }
    return seen.size;
  }
}

/**
 * What the scalar and vector ALU semantics see of a wave: its registers, SCC, EXEC and the
 * address of the next instruction (`next`, set before each step). One per wave, reused.
 */
class WaveState implements VectorWaveState<number, boolean> {
  next = 0;
  readonly lanes: 32 | 64;
  constructor(
    readonly w: Wave,
    private readonly limit: number,
    private readonly base: number,
  ) {
    this.lanes = w.lanes;
  }
  readSgpr(code: number): number {
    return this.w.sgpr[code];
  }
  writeSgpr(code: number, v: number): void {
    this.w.sgpr[code] = v;
  }
  readScc(): boolean {
    return this.w.scc;
  }
  writeScc(v: boolean): void {
    this.w.scc = v;
  }
  readSgprAt(b: number, off: number): number {
    const i = b + off;
    return i < this.limit ? this.w.sgpr[i] : 0;
  }
  writeSgprAt(b: number, off: number, v: number): void {
    const i = b + off;
    if (i < this.limit) this.w.sgpr[i] = v;
  }
  nextPc(): [number, number] {
    const a = this.base + this.next;
    return [(a % 2 ** 32) >>> 0, Math.floor(a / 2 ** 32) >>> 0];
  }
  aperture(code: number): number {
    return apertureWord(code);
  }
  /** s_getreg/s_setreg: only HW_REG_MODE is modelled (src/semantics/mode.ts). */
  readHwReg(id: number): number {
    if (id !== HW_REG_MODE)
      throw new SemanticsRefusal('hwreg', `hardware register ${id} is not modelled (only HW_REG_MODE)`);
    return this.w.mode;
  }
  writeHwReg(id: number, v: number): void {
    if (id !== HW_REG_MODE)
      throw new SemanticsRefusal('hwreg', `hardware register ${id} is not modelled (only HW_REG_MODE)`);
    this.w.mode = v >>> 0;
  }
  private modeSeen = -1;
  private modeFloat: FloatMode | string = '';
  /** The VALU's float controls from MODE; a MODE the semantics cannot model is a named refusal. */
  floatMode(): FloatMode {
    if (this.w.mode !== this.modeSeen) {
      this.modeSeen = this.w.mode;
      this.modeFloat = floatModeOf(this.w.mode);
    }
    if (typeof this.modeFloat === 'string') throw new SemanticsRefusal('MODE', this.modeFloat);
    return this.modeFloat;
  }
  active(lane: number): boolean {
    return this.w.active(lane);
  }
  readVgpr(v: number, lane: number): number {
    return this.w.readVgpr(v, lane);
  }
  writeVgpr(v: number, lane: number, value: number): void {
    this.w.writeVgpr(v, lane, value);
  }
  /** The semantics mask the lane to the wave size (v_readlane's S1[5:0] / [4:0]). */
  readVgprOfLane(v: number, lane: number): number {
    return this.w.readVgpr(v, lane);
  }
  writeVgprOfLane(v: number, lane: number, value: number): void {
    this.w.writeVgpr(v, lane, value);
  }
  readVgprAt(base: number, offset: number, lane: number): number {
    return this.w.readVgpr(this.indexed(base, offset), lane);
  }
  writeVgprAt(base: number, offset: number, lane: number, value: number): void {
    this.w.writeVgpr(this.indexed(base, offset), lane, value);
  }
  gprIndexMode(): boolean {
    return this.w.gprIndexMode;
  }
  setGprIndexMode(on: boolean): void {
    this.w.gprIndexMode = on;
  }
  /** An M0-relative VGPR (v_movrel*, GPR index mode): past v255 is refused (the wave's real allocation is not known). */
  private indexed(base: number, offset: number): number {
    const i = base + (offset >>> 0);
    if (i >= VGPR_COUNT)
      throw new SemanticsRefusal('indexed VGPR access', `v${base} + ${offset >>> 0} is past v${VGPR_COUNT - 1}`);
    return i;
  }
}

/** The memory-side and limits of a running dispatch. */
export class Executor {
  steps = 0;
  /** Lane-operations stepped here (the compiled ALU counts those it runs ahead). */
  private steppedLaneOps = 0;
  /** The compiled ALU (undefined: `compiled: false`). */
  readonly alu: CompiledAlu | undefined;
  private readonly maxSteps: number;
  private readonly gen: Gen;
  /** Private memory of each wave, made on its first access. */
  private readonly privates = new WeakMap<Wave, WavePrivate>();
  /** Each wave's register-file view for the ALU semantics (see `WaveState`). */
  private readonly states = new WeakMap<Wave, WaveState>();
  private lastState: WaveState | undefined;

  constructor(
    readonly program: Program,
    readonly memory: GuestMemory,
    private readonly options: ExecOptions = {},
  ) {
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.gen = program.target.gen;
    this.alu =
      options.compiled === false
        ? undefined
        : new CompiledAlu(program.target, options.vector?.sharedSemantics === true, program, branchRule);
  }

  /** Lane-operations run: each VALU instruction's active lanes (at issue) plus one per SALU instruction. */
  get laneOps(): number {
    return this.steppedLaneOps + (this.alu?.laneOps ?? 0);
  }

  /** Runs one group to the end of every wave. */
  runGroup(group: Group): void {
    const waves = group.waves;
    for (;;) {
      let live = 0;
      let waiting = 0;
      let stepped = 0;
      for (const w of waves) {
        if (w.done) continue;
        live++;
        if (w.atBarrier) {
          waiting++;
          continue;
        }
        if (w.credit > 0) {
          w.credit--; // it ran this round's instruction ahead (CompiledAlu.runAhead)
          continue;
        }
        stepped++;
        this.step(w, group);
      }
      if (live === 0) return;
      if (waiting === live) for (const w of waves) w.atBarrier = false;
      else if (stepped === 0) {
        // Every running wave sits this round out: skip the rounds until the first of them steps again.
        let skip = Infinity;
        for (const w of waves) if (!w.done && !w.atBarrier) skip = Math.min(skip, w.credit);
        for (const w of waves) if (!w.done && !w.atBarrier) w.credit -= skip;
      }
    }
  }

  private refuse(w: Wave, d: Decoded, reason: string): never {
    throw new InterpRefusal('unsupported', reason, this.program.base + w.pc, d.inst.def.name);
  }

  step(w: Wave, group: Group): void {
    if (w.pc === this.program.end) {
      w.done = true; // reached the program capture's `end`: the function has returned
      return;
    }
    // Run ahead through compiled ALU code while no step-limit crossing can fall inside it or its credit.
    if (this.alu !== undefined && this.steps + RUN_AHEAD_LIMIT * (group.waves.length + 1) <= this.maxSteps) {
      const n = this.alu.runAhead(w, RUN_AHEAD_LIMIT);
      if (n > 0) {
        this.steps += n;
        w.credit = n - 1;
        return;
      }
    }
    if (++this.steps > this.maxSteps)
      throw new InterpRefusal(
        'step-limit',
        `the dispatch ran past the step limit of ${this.maxSteps} instructions`,
        this.program.base + w.pc,
      );
    const d = this.program.at(w.pc);
    const inst = d.inst;
    const next = w.pc + inst.size;
    if (w.gprIndexMode && VMEM_KINDS.has(d.kind))
      this.refuse(w, d, 'a memory instruction while the GPR index mode is on (s_set_gpr_idx_on) is not modelled');
    switch (d.kind) {
      case 'gpridx':
        try {
          runGprIndex(concrete, this.program.target, inst, this.stateOf(w, next));
        } catch (e) {
          if (e instanceof SemanticsRefusal) this.refuse(w, d, e.reason);
          throw e;
        }
        break;
      case 'salu':
        this.steppedLaneOps++;
        if (this.alu?.scalar(w.pc, w)) break;
        try {
          runScalar(concrete, this.program.target, inst, this.scalarState(w, next));
        } catch (e) {
          if (e instanceof SemanticsRefusal) this.refuse(w, d, e.reason);
          throw e;
        }
        break;
      case 'valu':
        this.steppedLaneOps += w.activeLanes();
        if (this.alu?.vectorStep(w.pc, w)) break;
        try {
          this.options.vector!.run(this.program.target, inst, this.vectorState(w, next));
        } catch (e) {
          if (e instanceof SemanticsRefusal) this.refuse(w, d, e.reason);
          throw e;
        }
        break;
      case 'nop':
        break;
      case 'endpgm':
        w.done = true;
        return;
      case 'barrier':
        w.atBarrier = group.waves.length > 1;
        break;
      case 'branch':
        if (this.taken(w, inst.def.name)) {
          w.pc = branchTarget(inst)!;
          return;
        }
        break;
      case 'smem':
        this.smem(w, d);
        break;
      case 'mubuf':
        this.mubuf(w, d);
        break;
      case 'global':
        this.global(w, d);
        break;
      case 'flat':
        this.flat(w, d, group.lds);
        break;
      case 'scratch':
        this.scratch(w, d);
        break;
      case 'ds':
        try {
          runDs(this.gen, w, inst, d.ds!, group.lds, this.alu !== undefined);
        } catch (e) {
          if (e instanceof UnsupportedAccess) this.refuse(w, d, e.message);
          throw e;
        }
        break;
      case 'mimg':
        runImage(this.gen, inst, w, this.memory, (why) => this.refuse(w, d, why));
        break;
    }
    w.pc = next;
  }

  private taken(w: Wave, name: string): boolean {
    return branchRule(name)(w);
  }

  /** The wave's state object, made once per wave and pointed at the next PC for each step. */
  private stateOf(w: Wave, next: number): WaveState {
    let s = this.lastState;
    if (s === undefined || s.w !== w) {
      s = this.states.get(w);
      if (!s) this.states.set(w, (s = new WaveState(w, sgprCount(this.gen), this.program.base)));
      this.lastState = s;
    }
    s.next = next;
    return s;
  }

  private scalarState(w: Wave, next: number): ScalarState<number, boolean> {
    return this.stateOf(w, next);
  }

  private vectorState(w: Wave, next: number): VectorWaveState<number, boolean> {
    return this.stateOf(w, next);
  }

  /** An 8/9-bit scalar source code as a value (SGPR, inline integer, literal). */
  private scalarSource(w: Wave, d: Decoded, code: number): number {
    try {
      return scalarOffset(concrete, this.gen, d.inst, code, (c) => w.sgpr[c]);
    } catch (e) {
      if (e instanceof UnsupportedAccess) this.refuse(w, d, e.message);
      throw e;
    }
  }

  /**
   * The V#s decoded lately, by their words, with their address geometry (a loop reads the same
   * few at every access; a kernel reading one buffer and writing another alternates two).
   */
  /** A MUBUF lane's compiled address results (`compileBufferAddress`): offset and out-of-range per dword. */
  private readonly laneAddress = new Float64Array(8);

  private readonly vsharps: { readonly words: readonly number[]; readonly v: BufferDescriptor; readonly r: Rsrc }[] =
    [];

  private vsharpEntry(w: Wave, d: Decoded, first: number): { readonly v: BufferDescriptor; readonly r: Rsrc } {
    const sg = w.sgpr;
    const [w0, w1, w2, w3] = [sg[first], sg[first + 1], sg[first + 2], sg[first + 3]];
    for (const c of this.vsharps)
      if (c.words[0] === w0 && c.words[1] === w1 && c.words[2] === w2 && c.words[3] === w3) return c;
    const words = [w0, w1, w2, w3];
    try {
      const v = decodeBufferDescriptor(this.gen, words);
      const entry = { words, v, r: bufferRsrcOf(this.gen, v.words) };
      if (this.vsharps.length >= VSHARP_CACHE) this.vsharps.pop();
      this.vsharps.unshift(entry);
      return entry;
    } catch (e) {
      if (e instanceof DescriptorError) this.refuse(w, d, `s[${first}:${first + 3}] is not a V#: ${e.message}`);
      throw e;
    }
  }

  /**
   * Scalar memory: the offset rules are buffer-ops.ts's `smemOffset` (shared with the translator).
   * The low two address bits are ignored. s_buffer_load reads 0 past the V#'s size.
   */
  private smem(w: Wave, d: Decoded): void {
    const f = d.inst.fields;
    const isBuffer = d.inst.def.name.startsWith('s_buffer_');
    let offset: readonly [number, number];
    try {
      offset = smemOffset(concrete, this.gen, d.inst, isBuffer, (c) => w.sgpr[c]);
    } catch (e) {
      if (e instanceof UnsupportedAccess) this.refuse(w, d, e.message);
      throw e;
    }
    const dst = f.sdata ?? f.sdst;
    const n = d.dwords;
    if (isBuffer) {
      const { r } = this.vsharpEntry(w, d, f.sbase);
      const off = offset[0] & ~3;
      for (let i = 0; i < n; i++)
        w.sgpr[dst + i] = sBufferDwordInRange(concrete, r, offset[0], i)
          ? this.memory.read32(pairAddress(r.base) + (off >>> 0) + 4 * i)
          : 0;
    } else {
      const [lo, hi] = add64(concrete, pointer48(concrete, w.sgpr[f.sbase], w.sgpr[f.sbase + 1]), offset);
      const a = pairAddress([lo & ~3, hi]);
      for (let i = 0; i < n; i++) w.sgpr[dst + i] = this.memory.read32(a + 4 * i);
    }
  }

  /**
   * MUBUF and MTBUF (D009 and DESCRIPTORS.md §1): address = base + soffset + offset + stride *
   * index, index = the IDXEN VGPR plus the lane with ADD_TID, offset = the OFFEN VGPR (the
   * second address VGPR with IDXEN) plus the instruction's offset; swizzled buffers interleave
   * elements of ES bytes across IS records (soffset outside the swizzle, as gem5 does). gfx7
   * ADDR64 adds a 64-bit VGPR address and is not range-checked. Raw dwords are range-checked
   * one by one; sub-dword, format and atomic accesses all-or-nothing at their first byte. A
   * load out of range gives 0 (format loads: 0 through DST_SEL, so a selected 1 reads 1), a
   * store or an atomic is dropped (an atomic with glc returns 0).
   */
  private mubuf(w: Wave, d: Decoded): void {
    const f = d.inst.fields;
    const op = d.op!;
    const { v, r } = this.vsharpEntry(w, d, f.srsrc * 4);
    const soffset = this.scalarSource(w, d, f.soffset);
    const gen = this.gen;
    const addr64 = gen === Gen.GFX7 && f.addr64 === 1;
    const swz = r.swizzled ? { elementSize: 2 ** r.elementLog2 } : null;
    let tf: TexelFormat | undefined = d.format;
    if (op.kind === 'format' && !tf) {
      if (!v.format)
        this.refuse(w, d, 'the V# has no format (on gfx8/9 ADD_TID_ENABLE makes DATA_FORMAT part of the stride)');
      try {
        tf = texelFormat(v.format);
      } catch (e) {
        if (e instanceof TexelFormatError) this.refuse(w, d, `the V#'s format: ${e.message}`);
        throw e;
      }
    }
    const idxen = f.idxen === 1;
    // The lane's address inputs, read by `at` and `out` (made once, not per lane).
    let index = 0;
    let voffset = 0;
    let base = 0;
    // The address and range rules are buffer-ops.ts's (shared with the translator), in 32-bit
    // offsets: with the compiled ALU, compiled for this V# too (jit/buffer-address.ts) for the
    // dwords the access reads at byte offsets 4k; applied directly otherwise (and always with
    // `compiled: false`, so the jit tests compare the two).
    const slots = op.kind === 'raw' ? op.dwords : 1;
    const lowered = this.alu ? compileBufferAddress(gen, v.words, idxen, f.offset, slots) : undefined;
    const got = this.laneAddress;
    const compiled = (k: number): boolean => lowered !== undefined && (k & 3) === 0 && k >>> 2 < slots;
    const off = (k: number): number => (voffset + f.offset + k) >>> 0;
    const at = (k: number): number =>
      base + (compiled(k) ? got[k >>> 1] : (soffset + bufferOffsetOver(concrete, r, index, off(k))) >>> 0);
    const out = (k: number): boolean =>
      !addr64 &&
      (compiled(k) ? got[(k >>> 1) + 1] === 1 : bufferOutOfRange(concrete, gen, r, idxen, index, off(k), soffset));
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      index = 0;
      voffset = 0;
      base = pairAddress(r.base);
      if (addr64) base += address48(w.readVgpr(f.vaddr, lane), w.readVgpr(f.vaddr + 1, lane));
      else {
        if (idxen) index = w.readVgpr(f.vaddr, lane);
        if (f.offen) voffset = w.readVgpr(f.vaddr + (idxen ? 1 : 0), lane);
      }
      if (r.addTid) index = (index + lane) >>> 0;
      if (lowered) lowered(index >>> 0, voffset >>> 0, soffset >>> 0, got);
      try {
        if (op.kind === 'format') this.formatLane(w, lane, op, tf!, v, at, out(0), f.vdata, swz);
        else {
          const n = op.kind === 'atomic' && op.wide ? 2 : 1;
          laneAccess(
            this.memory,
            op,
            w,
            lane,
            f.vdata,
            f.vdata,
            f.vdata + n,
            op.kind !== 'atomic' || f.glc === 1,
            at,
            out,
          );
        }
      } catch (e) {
        if (e instanceof TexelFormatError || e instanceof UnsupportedAccess) this.refuse(w, d, e.message);
        throw e;
      }
    }
  }

  /** One lane of a format load or store: one element, converted through formats.ts / format-store.ts. */
  private formatLane(
    w: Wave,
    lane: number,
    op: Extract<MemOp, { kind: 'format' }>,
    tf: TexelFormat,
    v: BufferDescriptor,
    at: (k: number) => number,
    oob: boolean,
    vdata: number,
    swz: { elementSize: number } | null,
  ): void {
    const eb = tf.layout.bytesPerElement;
    if (swz && eb > swz.elementSize)
      throw new UnsupportedAccess(
        `a ${eb}-byte element across ${swz.elementSize}-byte swizzle elements is not modelled`,
      );
    const kind = tf.channelKind;
    const n = op.components;
    if (!op.store) {
      const vals = loadElement(tf, oob ? null : this.memory.read(at(0), eb), v.dst_sel);
      if (!op.d16) {
        for (let c = 0; c < n; c++) w.writeVgpr(vdata + c, lane, vals[c]);
        return;
      }
      for (let c = 0; c < n; c++) {
        const h = toD16(kind, vals[c]);
        const slot = d16Slot(op, c);
        const reg = vdata + slot.reg;
        const old = op.unpacked ? 0 : w.readVgpr(reg, lane);
        w.writeVgpr(reg, lane, slot.high ? (old & 0xffff) | (h << 16) : (old & 0xffff0000) | h);
      }
      return;
    }
    const words: number[] = [];
    for (let c = 0; c < n; c++) {
      if (!op.d16) words.push(w.readVgpr(vdata + c, lane));
      else {
        const slot = d16Slot(op, c);
        const r = w.readVgpr(vdata + slot.reg, lane);
        words.push(fromD16(kind, slot.high ? r >>> 16 : r & 0xffff));
      }
    }
    const { bytes, mask } = encodeElement(tf, words, n);
    if (oob) return;
    const a = at(0);
    if (mask.every((m) => m === 1)) this.memory.write(a, bytes);
    else for (let i = 0; i < bytes.length; i++) if (mask[i]) this.memory.write(a + i, bytes.subarray(i, i + 1));
  }

  /** GLOBAL: the 64-bit VGPR address, or SADDR's pair plus the 32-bit VGPR offset, plus the signed offset field. */
  private global(w: Wave, d: Decoded): void {
    const op = d.op!;
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      const a = pairAddress(
        globalAddress(
          concrete,
          this.gen,
          d.inst,
          (c) => w.sgpr[c],
          (v) => w.readVgpr(v, lane),
        ),
      );
      this.vmemLane(
        this.memory,
        w,
        lane,
        d,
        op,
        (k) => a + k,
        () => false,
      );
    }
  }

  /** A GLOBAL or FLAT lane: data in DATA (stores, atomic sources), results in VDST; atomics return with glc. */
  private vmemLane(
    space: ByteSpace,
    w: Wave,
    lane: number,
    d: Decoded,
    op: MemOp,
    at: (k: number) => number,
    out: (k: number) => boolean,
  ): void {
    const f = d.inst.fields;
    if (op.kind === 'format') return;
    if (op.kind === 'atomic') {
      const n = op.wide ? 2 : 1;
      laneAccess(space, op, w, lane, f.vdst, f.data, f.data + n, f.glc === 1, at, out);
    } else {
      const reg = op.store ? f.data : f.vdst;
      laneAccess(space, op, w, lane, reg, reg, reg, true, at, out);
    }
  }

  /**
   * FLAT: the 64-bit VGPR address plus the offset field (gfx9+), by aperture (flat.ts): the
   * shared aperture is the group's LDS at the low word (out of the allocation: read 0, write
   * dropped), the private aperture the lane's private memory (flat-scratch.ts) at the low
   * word, anything else global memory.
   */
  private flat(w: Wave, d: Decoded, lds: Uint8Array): void {
    const f = d.inst.fields;
    const imm = this.gen >= Gen.GFX9 ? flatImmediate(this.gen, d.inst) : 0;
    const op = d.op!;
    const ldsSpace: ByteSpace = {
      read: (a, n) => lds.subarray(a, a + n),
      write: (a, data) => lds.set(data, a),
    };
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      const lo = w.readVgpr(f.addr, lane);
      const hi = w.readVgpr(f.addr + 1, lane);
      const space = flatSpace(hi);
      if (space === 'scratch') {
        if (op.kind === 'atomic') this.refuse(w, d, `lane ${lane}: atomics on private memory are not interpreted`);
        const a = lo + imm;
        this.vmemLane(
          this.privateOf(w).lane(lane),
          w,
          lane,
          d,
          op,
          (k) => a + k,
          () => false,
        );
      } else if (space === 'lds') {
        // The address and range rules are buffer-ops.ts's (shared with the translator).
        const x = flatLds(concrete, lo, imm, flatAccessSize(op), lds.length);
        this.vmemLane(ldsSpace, w, lane, d, op, x.address, x.out);
      } else {
        const a = pairAddress(flatGlobal(concrete, lo, hi, imm));
        this.vmemLane(
          this.memory,
          w,
          lane,
          d,
          op,
          (k) => a + k,
          () => false,
        );
      }
    }
  }

  private privateOf(w: Wave): WavePrivate {
    let p = this.privates.get(w);
    if (!p) this.privates.set(w, (p = new WavePrivate()));
    return p;
  }

  /**
   * SCRATCH (gfx9+): a lane's private address is SADDR's SGPR (bytes), or the VADDR VGPR when
   * SADDR is off (gfx11: SVE adds the VGPR to SADDR), plus the signed offset field; the bytes
   * are the lane's private memory (flat-scratch.ts). The wave's scratch offset is not added:
   * private addresses here start at 0 for every wave.
   */
  private scratch(w: Wave, d: Decoded): void {
    const f = d.inst.fields;
    const imm = flatImmediate(this.gen, d.inst);
    const sOff = f.saddr === 127 || f.saddr === nullCode(this.gen);
    const useV = this.gen >= Gen.GFX11 ? f.sve === 1 : sOff;
    const sbase = sOff ? 0 : w.sgpr[f.saddr];
    const p = this.privateOf(w);
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      const a = (sbase + (useV ? w.readVgpr(f.addr, lane) : 0) + imm) | 0;
      this.vmemLane(
        p.lane(lane),
        w,
        lane,
        d,
        d.op!,
        (k) => a + k,
        () => false,
      );
    }
  }
}
