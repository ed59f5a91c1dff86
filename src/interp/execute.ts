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
import { inlineInteger, nullCode, sgprCount, SRC_LITERAL } from '../isa/operands.ts';
import { concrete } from '../semantics/concrete.ts';
import { SemanticsRefusal, type ScalarState } from '../semantics/context.ts';
import { runScalar, scalarSemanticsFor, SCALAR_UNCOVERED } from '../semantics/scalar.ts';
import { decodeBufferDescriptor, DescriptorError, type BufferDescriptor } from '../host/descriptors/index.ts';
import { address48, type GuestMemory } from './memory.ts';
import type { VectorBridge, VectorWaveState } from './vector-bridge.ts';
import type { Wave } from './wave.ts';

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

type Kind = 'salu' | 'valu' | 'branch' | 'endpgm' | 'barrier' | 'nop' | 'smem' | 'mubuf' | 'global' | 'ds';

interface Decoded {
  readonly inst: Instruction;
  readonly kind: Kind;
  /** Dwords moved by a memory instruction. */
  readonly dwords: number;
  readonly store: boolean;
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
const MUBUF_NAME = /^buffer_(load|store)_(dword(x[234])?|b(32|64|96|128))$/;
const GLOBAL_NAME = /^global_(load|store)_(dword(x[234])?|b(32|64|96|128))$/;
const DS_NAMES: Readonly<Record<string, 'read' | 'write' | 'add' | 'add_rtn'>> = {
  ds_read_b32: 'read',
  ds_load_b32: 'read',
  ds_write_b32: 'write',
  ds_store_b32: 'write',
  ds_add_u32: 'add',
  ds_add_rtn_u32: 'add_rtn',
};

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
}

export class Program {
  private readonly cache = new Map<number, Decoded>();
  private readonly words: Uint32Array;
  /** Byte offset of the entry in the decoded range. */
  readonly entry: number;
  readonly base: number;

  constructor(
    readonly target: Target,
    memory: GuestMemory,
    entryAddress: number,
    private readonly vector?: VectorBridge,
  ) {
    const range = memory.rangeAt(entryAddress);
    this.base = range.address;
    this.words = bytesToWords(range.bytes);
    this.entry = entryAddress - range.address;
    if (this.entry % 4 !== 0) throw new InterpRefusal('decode', 'the program entry is not dword-aligned', entryAddress);
  }

  /** The decoded instruction at a byte offset, classified; refuses what cannot run. */
  at(pc: number): Decoded {
    const hit = this.cache.get(pc);
    if (hit) return hit;
    let inst: Instruction;
    try {
      inst = decodeAt(this.target, this.words, pc >>> 2);
    } catch (e) {
      if (e instanceof DecodeError) throw new InterpRefusal('decode', `cannot decode: ${e.message}`, this.base + pc);
      throw e;
    }
    const d = this.classify(inst);
    this.cache.set(pc, d);
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
        const why = SCALAR_UNCOVERED[name];
        return refuse(why ? `${why.kind}: ${why.reason}` : 'no scalar ALU semantics');
      }
      case 'SOPP':
        if (name === 's_endpgm') return mk('endpgm');
        if (name === 's_barrier') return mk('barrier');
        if (name === 's_branch' || COND_BRANCHES.has(name)) return mk('branch');
        if (def.attrs & Attr.NoEffect || name === 's_nop' || name.startsWith('s_waitcnt')) return mk('nop');
        return refuse('program control the interpreter does not model');
      case 'SMEM':
        if (!SMEM_NAME.test(name)) return refuse('only scalar dword loads (s_load_*, s_buffer_load_*) are interpreted');
        return mk('smem', def.operands[0].dwords);
      case 'MUBUF': {
        const m = MUBUF_NAME.exec(name);
        if (!m)
          return refuse(
            'only the raw dword MUBUF loads and stores are interpreted (no format, byte, short or atomic forms)',
          );
        if (f.lds) return refuse('loads into LDS (lds:1) are not interpreted');
        if (f.tfe) return refuse('texture-fail-enable (tfe:1) is not interpreted');
        return mk('mubuf', def.operands[0].dwords, m[1] === 'store');
      }
      case 'GLOBAL': {
        const m = GLOBAL_NAME.exec(name);
        if (!m) return refuse('only the dword global loads and stores are interpreted');
        if (f.lds) return refuse('loads into LDS are not interpreted');
        const data = def.operands.find((o) => (m[1] === 'store' ? o.field === 'data' : o.field === 'vdst'));
        return mk('global', data?.dwords ?? 1, m[1] === 'store');
      }
      case 'DS': {
        if (!Object.hasOwn(DS_NAMES, name))
          return refuse('only ds_read_b32, ds_write_b32 and ds_add_u32 are interpreted');
        if (f.gds) return refuse('GDS is not modelled');
        return mk('ds');
      }
      default:
        if (VALU_FAMILIES.has(def.family)) {
          if (!this.vector) return refuse('vector ALU semantics (src/semantics/vector.ts) are not available yet');
          const why = this.vector.refusal(inst);
          if (why) return refuse(why);
          return mk('valu');
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

/** The memory-side and limits of a running dispatch. */
export class Executor {
  steps = 0;
  private readonly maxSteps: number;
  private readonly gen: Gen;

  constructor(
    readonly program: Program,
    readonly memory: GuestMemory,
    private readonly options: ExecOptions = {},
  ) {
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.gen = program.target.gen;
  }

  /** Runs one group to the end of every wave. */
  runGroup(group: Group): void {
    const waves = group.waves;
    for (;;) {
      let live = 0;
      let waiting = 0;
      for (const w of waves) {
        if (w.done) continue;
        live++;
        if (w.atBarrier) {
          waiting++;
          continue;
        }
        this.step(w, group);
      }
      if (live === 0) return;
      if (waiting === live) for (const w of waves) w.atBarrier = false;
    }
  }

  private refuse(w: Wave, d: Decoded, reason: string): never {
    throw new InterpRefusal('unsupported', reason, this.program.base + w.pc, d.inst.def.name);
  }

  step(w: Wave, group: Group): void {
    if (++this.steps > this.maxSteps)
      throw new InterpRefusal(
        'step-limit',
        `the dispatch ran past the step limit of ${this.maxSteps} instructions`,
        this.program.base + w.pc,
      );
    const d = this.program.at(w.pc);
    const inst = d.inst;
    const next = w.pc + inst.size;
    switch (d.kind) {
      case 'salu':
        try {
          runScalar(concrete, this.program.target, inst, this.scalarState(w, next));
        } catch (e) {
          if (e instanceof SemanticsRefusal) this.refuse(w, d, e.reason);
          throw e;
        }
        break;
      case 'valu':
        this.options.vector!.run(this.program.target, inst, this.vectorState(w, next));
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
      case 'ds':
        this.ds(w, d, group.lds);
        break;
    }
    w.pc = next;
  }

  private taken(w: Wave, name: string): boolean {
    switch (name) {
      case 's_branch':
        return true;
      case 's_cbranch_scc0':
        return !w.scc;
      case 's_cbranch_scc1':
        return w.scc;
      case 's_cbranch_vccz':
        return w.vccZero();
      case 's_cbranch_vccnz':
        return !w.vccZero();
      case 's_cbranch_execz':
        return w.execZero();
      default: // s_cbranch_execnz
        return !w.execZero();
    }
  }

  private scalarState(w: Wave, next: number): ScalarState<number, boolean> {
    const limit = sgprCount(this.gen);
    const base = this.program.base;
    return {
      readSgpr: (code) => w.sgpr[code],
      writeSgpr: (code, v) => void (w.sgpr[code] = v),
      readScc: () => w.scc,
      writeScc: (v) => void (w.scc = v),
      readSgprAt: (b, off) => {
        const i = b + off;
        return i < limit ? w.sgpr[i] : 0;
      },
      writeSgprAt: (b, off, v) => {
        const i = b + off;
        if (i < limit) w.sgpr[i] = v;
      },
      nextPc: () => {
        const a = base + next;
        return [(a % 2 ** 32) >>> 0, Math.floor(a / 2 ** 32) >>> 0];
      },
    };
  }

  private vectorState(w: Wave, next: number): VectorWaveState<number, boolean> {
    return {
      ...this.scalarState(w, next),
      lanes: w.lanes,
      active: (lane) => w.active(lane),
      readVgpr: (v, lane) => w.readVgpr(v, lane),
      writeVgpr: (v, lane, value) => w.writeVgpr(v, lane, value),
    };
  }

  /** An 8/9-bit scalar source code as a value (SGPR, inline integer, literal). */
  private scalarSource(w: Wave, d: Decoded, code: number): number {
    if (code < 128) return code === nullCode(this.gen) && this.gen >= Gen.GFX8 ? 0 : w.sgpr[code];
    const n = inlineInteger(code);
    if (n !== undefined) return n >>> 0;
    if (code === SRC_LITERAL && d.inst.literal !== undefined) return d.inst.literal >>> 0;
    return this.refuse(w, d, `scalar source code ${code} is not modelled as an offset`);
  }

  private vsharp(w: Wave, d: Decoded, first: number): BufferDescriptor {
    const words = [w.sgpr[first], w.sgpr[first + 1], w.sgpr[first + 2], w.sgpr[first + 3]];
    try {
      return decodeBufferDescriptor(this.gen, words);
    } catch (e) {
      if (e instanceof DescriptorError) this.refuse(w, d, `s[${first}:${first + 3}] is not a V#: ${e.message}`);
      throw e;
    }
  }

  /**
   * Scalar memory. Offsets: gfx7 SMRD IMM=1 counts dwords (8 bits, or a 32-bit literal),
   * IMM=0 names an SGPR holding bytes; gfx8 IMM=1 a 20-bit byte offset, IMM=0 an SGPR; gfx9
   * adds SOE (SGPR in SOFFSET plus the immediate); gfx10+ the 21-bit offset plus SOFFSET
   * (null: none). gfx9+ s_load offsets are signed (LLVM's isLegalSMRDEncodedSignedOffset).
   * The low two address bits are ignored. s_buffer_load reads 0 past the V#'s size.
   */
  private smem(w: Wave, d: Decoded): void {
    const f = d.inst.fields;
    const isBuffer = d.inst.def.name.startsWith('s_buffer_');
    const gen = this.gen;
    let offset: number;
    if (gen === Gen.GFX7) {
      if (f.imm) offset = f.offset * 4;
      else if (f.offset === SRC_LITERAL) offset = (d.inst.literal ?? 0) * 4;
      else offset = this.scalarSource(w, d, f.offset);
    } else if (gen === Gen.GFX8) {
      offset = f.imm ? f.offset : w.sgpr[f.offset & 0x7f];
    } else {
      const imm = gen === Gen.GFX9 ? (f.imm ? f.offset : 0) : f.offset;
      const signed = !isBuffer && imm >= 0x100000 ? imm - 0x200000 : imm;
      let sreg = 0;
      if (gen === Gen.GFX9) {
        if (f.soe) sreg = w.sgpr[f.soffset];
        else if (!f.imm) sreg = w.sgpr[f.offset & 0x7f];
      } else if (f.soffset !== nullCode(gen)) sreg = this.scalarSource(w, d, f.soffset);
      offset = signed + sreg;
    }
    const dst = f.sdata ?? f.sdst;
    const n = d.dwords;
    if (isBuffer) {
      const v = this.vsharp(w, d, f.sbase);
      const size = v.num_records_unit === 'records' ? v.num_records * v.stride_bytes : v.num_records;
      const off = (offset >>> 0) & ~3;
      for (let i = 0; i < n; i++) {
        const o = off + 4 * i;
        w.sgpr[dst + i] = o + 4 <= size ? this.memory.read32(v.address + o) : 0;
      }
    } else {
      const addr = address48(w.sgpr[f.sbase], w.sgpr[f.sbase + 1]) + offset;
      const a = addr - (((addr % 4) + 4) % 4);
      for (let i = 0; i < n; i++) w.sgpr[dst + i] = this.memory.read32(a + 4 * i);
    }
  }

  /**
   * Raw dword MUBUF (D009 and DESCRIPTORS.md §1): address = base + soffset + offset + stride *
   * index, index = the IDXEN VGPR plus the lane with ADD_TID, offset = the OFFEN VGPR plus
   * the instruction's offset; gfx7 ADDR64 adds a 64-bit VGPR address and is not range-checked.
   * Each dword is range-checked on its own: a load out of range gives 0, a store is dropped.
   */
  private mubuf(w: Wave, d: Decoded): void {
    const f = d.inst.fields;
    const v = this.vsharp(w, d, f.srsrc * 4);
    if (v.swizzled) this.refuse(w, d, 'swizzled buffers (SWIZZLE_ENABLE) are not interpreted yet');
    const soffset = this.scalarSource(w, d, f.soffset);
    const stride = v.stride_bytes;
    const gen = this.gen;
    const addr64 = gen === Gen.GFX7 && f.addr64 === 1;
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      let index = 0;
      let voffset = 0;
      let base = v.address;
      if (addr64) base += address48(w.readVgpr(f.vaddr, lane), w.readVgpr(f.vaddr + 1, lane));
      else {
        if (f.idxen) index = w.readVgpr(f.vaddr, lane);
        if (f.offen) voffset = w.readVgpr(f.vaddr + (f.idxen ? 1 : 0), lane);
      }
      if (v.add_tid) index += lane;
      for (let k = 0; k < d.dwords; k++) {
        const off = voffset + f.offset + 4 * k;
        const oob = !addr64 && this.bufferOutOfRange(v, f.idxen === 1, index, off, soffset);
        const a = base + soffset + off + stride * index;
        if (d.store) {
          if (!oob) this.memory.write32(a, w.readVgpr(f.vdata + k, lane));
        } else w.writeVgpr(f.vdata + k, lane, oob ? 0 : this.memory.read32(a));
      }
    }
  }

  /** Out of range per generation (DESCRIPTORS.md §1; soffset is counted in byte checks, as gem5's Vega model does). */
  private bufferOutOfRange(v: BufferDescriptor, idxen: boolean, index: number, off: number, soffset: number): boolean {
    const nr = v.num_records;
    const stride = v.stride_bytes;
    const bytes = soffset + stride * index + off;
    if (this.gen >= Gen.GFX10) {
      const sel = (v.fields as { oob_select: number }).oob_select;
      switch (sel) {
        case 0:
          return index >= nr || off >= stride;
        case 1:
          return index >= nr;
        case 2:
          return nr === 0;
        default:
          return bytes >= nr;
      }
    }
    if (this.gen === Gen.GFX9) {
      if (v.add_tid && !idxen) return false; // Vega "private buffer": no range check
      return !idxen || stride === 0 ? bytes >= nr : index >= nr;
    }
    return v.num_records_unit === 'bytes' ? bytes >= nr : index >= nr;
  }

  /** GLOBAL: the 64-bit VGPR address, or SADDR's pair plus the 32-bit VGPR offset, plus the signed offset field. */
  private global(w: Wave, d: Decoded): void {
    const f = d.inst.fields;
    const bits = this.gen === Gen.GFX10 || this.gen === Gen.GFX10_3 ? 12 : 13;
    const imm = f.offset >= 1 << (bits - 1) ? f.offset - (1 << bits) : f.offset;
    const off = f.saddr === 127 || f.saddr === nullCode(this.gen);
    const sbase = off ? 0 : address48(w.sgpr[f.saddr], w.sgpr[f.saddr + 1]);
    const dataReg = d.store ? f.data : f.vdst;
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      const a = off
        ? address48(w.readVgpr(f.addr, lane), w.readVgpr(f.addr + 1, lane)) + imm
        : sbase + w.readVgpr(f.addr, lane) + imm;
      for (let k = 0; k < d.dwords; k++) {
        if (d.store) this.memory.write32(a + 4 * k, w.readVgpr(dataReg + k, lane));
        else w.writeVgpr(dataReg + k, lane, this.memory.read32(a + 4 * k));
      }
    }
  }

  /**
   * LDS dword access: address = the ADDR VGPR + offset1:offset0 (16 bits). Out of the group's
   * allocation (and, on gfx7/8, at or past M0, the LDS limit those generations check) a read
   * gives 0 and a write is dropped. Lanes run in order, so ds_add_u32 accumulates exactly.
   */
  private ds(w: Wave, d: Decoded, lds: Uint8Array): void {
    const f = d.inst.fields;
    const op = DS_NAMES[d.inst.def.name];
    const offset = (f.offset0 ?? 0) | ((f.offset1 ?? 0) << 8);
    const limit = this.gen <= Gen.GFX8 ? Math.min(lds.length, w.readM0()) : lds.length;
    const dv = new DataView(lds.buffer, lds.byteOffset, lds.byteLength);
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      const a = (w.readVgpr(f.addr, lane) + offset) >>> 0;
      const inRange = a + 4 <= limit;
      const old = inRange ? dv.getUint32(a, true) : 0;
      switch (op) {
        case 'read':
          w.writeVgpr(f.vdst, lane, old);
          break;
        case 'write':
          if (inRange) dv.setUint32(a, w.readVgpr(f.data0, lane), true);
          break;
        case 'add':
        case 'add_rtn':
          if (inRange) dv.setUint32(a, (old + w.readVgpr(f.data0, lane)) >>> 0, true);
          if (op === 'add_rtn') w.writeVgpr(f.vdst, lane, old);
          break;
      }
    }
  }
}
