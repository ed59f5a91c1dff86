/**
 * Memory instructions in the translated module (D011), built from the interpreter's own rules
 * (src/interp/buffer-ops.ts, generic over the algebra): the SMEM offsets and s_buffer_load's
 * range, the V#'s geometry and the buffer out-of-range rules per generation, GLOBAL addresses,
 * and the per-lane data movement (`laneAccessOver`). Here they run on the expression algebra over
 * the lane's registers, and the ports turn their loads, stores and atomics into calls of the
 * module's guest-memory and LDS functions (wgsl/runtime.ts), in program order.
 *
 * Atomics are compare-and-swap loops whose new value is the shared atomic rule lowered to WGSL,
 * so every atomic op is the interpreter's. 64-bit atomics are refused (WGSL has no 64-bit atomic).
 * Lanes of one instruction reach memory in no particular order (the interpreter runs them in lane
 * order): atomics with a return value can hand the same results to other lanes.
 */
import { Gen } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { m0Code } from '../isa/operands.ts';
import { PRIVATE_APERTURE_HI, SHARED_APERTURE_HI } from '../interp/flat.ts';
import type { Pair } from '../semantics/algebra.ts';
import type { Expr } from '../semantics/expr.ts';
import { add64 } from '../semantics/wide.ts';
import {
  bufferOffsetOver,
  d16Slot,
  dataDwords,
  bufferOutOfRange,
  bufferRsrc,
  dsAccesses,
  dsLimit,
  flatAccessSize,
  flatGlobal,
  flatImmediate,
  flatLds,
  globalAddress,
  laneAccessOver,
  pointer48,
  sBufferDwordInRange,
  scalarOffset,
  smemOffset,
  UnsupportedAccess,
  type LanePort,
  type AtomicOp,
  type LaneRegisters,
  type MemOp,
} from '../interp/buffer-ops.ts';
import { decodeBufferDescriptor, DescriptorError, type BufferDescriptor } from '../host/descriptors/index.ts';
import { texelFormat, TexelFormatError, type TexelFormat } from '../host/texels/formats.ts';
import {
  decodeElementOver,
  encodeElementOver,
  fromD16Over,
  overAlgebra,
  selectChannels,
  toD16Over,
  type StoredField,
} from '../interp/format-store.ts';
import type { DecodedInstruction } from './cfg.ts';
import type { LaneState } from './lane-state.ts';
import type { TracedWords } from './traced-words.ts';
import { FAULT } from './wgsl/runtime.ts';
import type { Segment } from './wgsl/segment.ts';

/** Why a memory instruction cannot be translated (the caller names the instruction and address). */
export class MemoryRefusal extends Error {
  override readonly name = 'MemoryRefusal';
}

/** The address spaces a request reaches. */
export type Space = 'guest' | 'lds';

/**
 * A path of the memory service: a space and what reaches it. The module's `access` holds only the
 * paths its program's requests take (D029): on SwiftShader every statement of a shader runs, with
 * the lanes masked off where none takes it, so an unused path still costs its time on every request.
 */
export type MemoryPath = `${Space}-${'load' | 'store' | 'atomic'}`;

/** The service path a request takes. */
export function memoryPath(r: Pick<MemoryRequest, 'space' | 'kind'>): MemoryPath {
  return `${r.space}-${r.kind === 'load' ? 'load' : r.kind === 'store' ? 'store' : 'atomic'}`;
}

/** One lane access an instruction asks of the module's memory service (wgsl/runtime.ts `access`). */
export interface MemoryRequest {
  readonly space: Space;
  /** 'load', 'store', or the atomic op. */
  readonly kind: 'load' | 'store' | AtomicOp;
  readonly lo: Expr;
  readonly hi: Expr;
  readonly bytes: 1 | 2 | 4;
  /** A store's value, an atomic's source. */
  readonly value: Expr;
  /** cmpswap's compare value. */
  readonly cmp: Expr;
  readonly enabled: Expr;
}

/** Atomic ops by their request kind code (2 + index): the module's `atomic_new` has a case for each one the program uses. */
export const ATOMIC_KINDS: readonly AtomicOp[] = [
  'add',
  'sub',
  'rsub',
  'smin',
  'umin',
  'smax',
  'umax',
  'and',
  'or',
  'xor',
  'inc',
  'dec',
  'swap',
  'cmpswap',
];

/** The request word's fields: bytes [3:0], LDS [4], enabled [5], kind [15:8] (0 load, 1 store, 2 + ATOMIC_KINDS index). */
export function requestControl(r: Pick<MemoryRequest, 'space' | 'kind' | 'bytes'>): number {
  const kind = r.kind === 'load' ? 0 : r.kind === 'store' ? 1 : 2 + ATOMIC_KINDS.indexOf(r.kind);
  return r.bytes | (r.space === 'lds' ? 16 : 0) | (kind << 8);
}
export const REQUEST_ENABLED = 32;

/**
 * The requests of one instruction, as lane ports: a load or an atomic gives the leaf of its
 * result (`mres[i]`, valid once the service ran), a store gives nothing. `active` (the lane's
 * EXEC bit) gates every access.
 */
export class Requests {
  readonly items: MemoryRequest[] = [];
  constructor(
    private readonly s: LaneState,
    /** Requests already in the queue before these (stores waiting for the service, D028). */
    readonly base = 0,
  ) {}

  private add(r: MemoryRequest): Expr {
    const i = this.base + this.items.length;
    this.items.push(r);
    return this.s.seg.word(this.s.seg.freshName('q'), `mres[${i}]`);
  }

  /** Whether the requests give the instruction results (a load or an atomic): then the service runs at once. */
  get answered(): boolean {
    return this.items.some((r) => r.kind !== 'store');
  }

  port<A>(space: Space, active: Expr | null, split: (address: A) => Pair<Expr>): LanePort<Expr, Expr, A> {
    const a = this.s.b;
    const zero = a.word(0);
    const gate = (e: Expr): Expr => (active ? a.boolAnd(e, active) : e);
    return {
      load: (address, bytes, enabled) => {
        const [lo, hi] = split(address);
        return this.add({ space, kind: 'load', lo, hi, bytes, value: zero, cmp: zero, enabled: gate(enabled) });
      },
      store: (address, bytes, value, enabled) => {
        const [lo, hi] = split(address);
        this.add({ space, kind: 'store', lo, hi, bytes, value, cmp: zero, enabled: gate(enabled) });
      },
      atomic: (address, op, src, cmp, enabled) => {
        const [lo, hi] = split(address);
        return this.add({ space, kind: op, lo, hi, bytes: 4, value: src, cmp, enabled: gate(enabled) });
      },
      atomic64: () => {
        throw new MemoryRefusal('64-bit atomics are not translated (WGSL has no 64-bit atomic)');
      },
    };
  }

  /** Writes the requests into the service's queue (`mq`, `mqc`, `mcount`). */
  issue(): void {
    const seg = this.s.seg;
    const a = this.s.b;
    this.items.forEach((r, k) => {
      const i = this.base + k;
      const ctl = a.or(a.word(requestControl(r)), a.select(r.enabled, a.word(REQUEST_ENABLED), a.word(0)));
      const fields = [r.lo, r.hi, ctl, r.value].map((e) => seg.value(e));
      seg.line(`mq[${i}] = vec4<u32>(${fields.join(', ')});`);
      if (r.kind === 'cmpswap') seg.line(`mqc[${i}] = ${seg.value(r.cmp)};`);
    });
    seg.line(`mcount = ${this.base + this.items.length}u;`);
  }
}

const guestAddress = (p: Pair<Expr>): Pair<Expr> => p;

/** The lane's VGPRs for a memory access: writes predicated by EXEC (LaneState.writeVgpr). */
export function laneRegisters(s: LaneState): LaneRegisters<Expr> {
  return { read: (r) => s.readVgpr(r, 0), write: (r, v) => s.writeVgpr(r, 0, v) };
}

const rethrow = (e: unknown): never => {
  if (e instanceof UnsupportedAccess) throw new MemoryRefusal(e.message);
  throw e;
};

/**
 * A fault this lane found while building its requests, recorded in the invocation's pending fault
 * (`pf_*`): the memory service reports it, so the module has one call site of `fault`.
 */
export function pendingFault(seg: Segment, condition: string, code: number, word: string, detail: string): void {
  seg.line(`if (${condition} && pf_code == 0u) {`);
  seg.line(`  pf_code = ${code}u;`);
  seg.line(`  pf_word = ${word};`);
  seg.line(`  pf_detail = ${detail};`);
  seg.line('}');
}

/** Where a buffer access is, for the tracer's words of its V# (traced-words.ts). */
interface VsharpTrace {
  readonly traced: TracedWords;
  /** Byte offset of the instruction in the program. */
  readonly offset: number;
  /** Its guest address (the fault's detail). */
  readonly address: number;
}

/** A V# as the access rules see it, and its four words where they are known at translation time. */
interface Vsharp {
  readonly rsrc: ReturnType<typeof bufferRsrc<Expr, Expr>>;
  readonly known: readonly number[] | undefined;
  /** Why the words are not known, where they are not. */
  readonly unknown?: string;
}

/**
 * The V# in s[first:first+3]. Registers that are constants of the translation are the words;
 * otherwise the words the tracer resolves from the capture's memory (a V# loaded from a
 * descriptor set, traced-words.ts), where it does, so the access's address and range rules fold
 * to a few operations instead of the general ones. The module then checks the registers at the
 * access: other words are `FAULT.tracedDescriptor` (the replay refused), never a wrong address.
 * Its TYPE is checked at run time (a fault if it is not a V#).
 */
function vsharp(s: LaneState, gen: Gen, first: number, trace?: VsharpTrace): Vsharp {
  const a = s.b;
  const seg = s.seg;
  let words = [0, 1, 2, 3].map((i) => s.readSgpr(first + i));
  let known: number[] | undefined = words.every((w) => w.op === 'const') ? words.map((w) => w.value!) : undefined;
  let unknown: string | undefined;
  if (!known && trace) {
    const t = trace.traced.at(trace.offset, first, 4);
    if (t.kind === 'unknown') unknown = t.reason;
    else {
      known = [...t.words];
      const values = known;
      const differ = words.map((r, i) => a.ne(r, a.word(values[i]!))).reduce((x, y) => a.boolOr(x, y));
      pendingFault(
        seg,
        seg.value(a.boolAnd(s.execBit(), differ)),
        FAULT.tracedDescriptor,
        `${first}u`,
        // A u32: the low 32 bits of a program above 4 GiB (D983's programs lie at 0x74005b85xxxx).
        `0x${(trace.address % 2 ** 32).toString(16)}u`,
      );
      words = known.map((w) => a.word(w));
    }
  }
  const notBuffer = a.ne(a.and(a.lshr(words[3]!, a.word(30)), a.word(3)), a.word(0));
  // Recorded in the invocation's pending fault; the dispatcher reports it (one call site of `fault`).
  if (!(notBuffer.op === 'bconst' && notBuffer.value === 0))
    pendingFault(seg, seg.value(notBuffer), FAULT.notBuffer, seg.value(words[3]!), `${first}u`);
  return { rsrc: bufferRsrc(a, gen, words), known, ...(unknown === undefined ? {} : { unknown }) };
}

/** s_load_* and s_buffer_load_*: every lane loads the same words (the wave's scalar state). */
export function translateSmem(
  s: LaneState,
  req: Requests,
  gen: Gen,
  d: DecodedInstruction,
  traced?: TracedWords,
  address = 0,
): void {
  const inst = d.inst;
  const f = inst.fields;
  const a = s.b;
  const isBuffer = inst.def.name.startsWith('s_buffer_');
  let offset: Pair<Expr>;
  try {
    offset = smemOffset(a, gen, inst, isBuffer, (c) => s.readSgpr(c));
  } catch (e) {
    return rethrow(e);
  }
  const dst = f.sdata ?? f.sdst;
  const port = req.port<Pair<Expr>>('guest', null, guestAddress);
  const loaded: Expr[] = [];
  if (isBuffer) {
    const { rsrc: r } = vsharp(s, gen, f.sbase, traced && { traced, offset: inst.offset, address });
    const off = a.and(offset[0], a.word(~3 >>> 0));
    for (let i = 0; i < d.dwords; i++) {
      const at = add64(a, add64(a, r.base, [off, a.word(0)]), [a.word(4 * i), a.word(0)]);
      loaded.push(port.load(at, 4, sBufferDwordInRange(a, r, offset[0], i)));
    }
  } else {
    const [lo, hi] = add64(a, pointer48(a, s.readSgpr(f.sbase), s.readSgpr(f.sbase + 1)), offset);
    const base: Pair<Expr> = [a.and(lo, a.word(~3 >>> 0)), hi];
    for (let i = 0; i < d.dwords; i++)
      loaded.push(port.load(add64(a, base, [a.word(4 * i), a.word(0)]), 4, a.bool(true)));
  }
  loaded.forEach((v, i) => s.writeSgpr(dst + i, v));
}

/**
 * MUBUF and MTBUF raw, sub-dword and atomic accesses, as the interpreter's `mubuf` computes them:
 * index (IDXEN VGPR plus the lane with ADD_TID), offset (OFFEN VGPR plus the instruction's),
 * the V#'s linear or swizzled offset, soffset outside it, and the range rules of the generation.
 */
export function translateMubuf(
  s: LaneState,
  req: Requests,
  gen: Gen,
  d: DecodedInstruction,
  discovery: boolean,
  traced?: TracedWords,
  address = 0,
): void {
  const inst = d.inst;
  const f = inst.fields;
  const op = d.op!;
  const a = s.b;
  const v = vsharp(s, gen, f.srsrc * 4, traced && { traced, offset: inst.offset, address });
  const r = v.rsrc;
  let soffset: Expr;
  try {
    soffset = scalarOffset(a, gen, inst, f.soffset, (c) => s.readSgpr(c));
  } catch (e) {
    return rethrow(e);
  }
  const addr64 = gen === Gen.GFX7 && f.addr64 === 1;
  const idxen = f.idxen === 1;
  let base = r.base;
  let index: Expr = a.word(0);
  let voffset: Expr = a.word(0);
  if (addr64) base = add64(a, base, pointer48(a, s.readVgpr(f.vaddr, 0), s.readVgpr(f.vaddr + 1, 0)));
  else {
    if (idxen) index = s.readVgpr(f.vaddr, 0);
    if (f.offen) voffset = s.readVgpr(f.vaddr + (idxen ? 1 : 0), 0);
  }
  index = a.select(r.addTid, a.add(index, s.laneIndex()), index);
  const off = (k: number): Expr => a.add(voffset, a.word(f.offset + k));
  const at = (k: number): Pair<Expr> =>
    add64(a, base, [a.add(soffset, bufferOffsetOver(a, r, index, off(k))), a.word(0)]);
  const out = (k: number): Expr =>
    addr64 ? a.bool(false) : bufferOutOfRange(a, gen, r, idxen, index, off(k), soffset);
  const port = req.port<Pair<Expr>>('guest', s.execBit(), guestAddress);
  if (op.kind === 'format') {
    const tf = d.format ?? formatOfVsharp(f.srsrc * 4, gen, v, discovery);
    if (!tf) {
      if (!op.store) for (let c = 0; c < dataDwords(op); c++) s.writeVgpr(f.vdata + c, 0, a.word(0));
      return;
    }
    formatAccess(s, port, op, tf, r, at, out(0), f.vdata);
    return;
  }
  const n = op.kind === 'atomic' && op.wide ? 2 : 1;
  laneAccessOver(
    a,
    port,
    op,
    laneRegisters(s),
    f.vdata,
    f.vdata,
    f.vdata + n,
    op.kind !== 'atomic' || f.glc === 1,
    at,
    out,
  );
}

/** A GLOBAL (or FLAT into global memory) lane: data in DATA, results in VDST; atomics return with glc. */
function vmemAccess<A>(
  regs: LaneRegisters<Expr>,
  port: LanePort<Expr, Expr, A>,
  inst: Instruction,
  op: MemOp,
  at: (k: number) => A,
  out: (k: number) => Expr,
  a: LaneState['b'],
): void {
  const f = inst.fields;
  if (op.kind === 'format') throw new MemoryRefusal('no format forms here');
  if (op.kind === 'atomic') {
    const n = op.wide ? 2 : 1;
    laneAccessOver(a, port, op, regs, f.vdst, f.data, f.data + n, f.glc === 1, at, out);
  } else {
    const reg = op.store ? f.data : f.vdst;
    laneAccessOver(a, port, op, regs, reg, reg, reg, true, at, out);
  }
}

/** GLOBAL: the address rule of buffer-ops.ts (`globalAddress`), no range check beyond guest memory's. */
export function translateGlobal(s: LaneState, req: Requests, gen: Gen, d: DecodedInstruction): void {
  const a = s.b;
  const addr = globalAddress(
    a,
    gen,
    d.inst,
    (c) => s.readSgpr(c),
    (v) => s.readVgpr(v, 0),
  );
  const port = req.port<Pair<Expr>>('guest', s.execBit(), guestAddress);
  vmemAccess(
    laneRegisters(s),
    port,
    d.inst,
    d.op!,
    (k) => add64(a, addr, [a.word(k), a.word(0)]),
    () => a.bool(false),
    a,
  );
}

/** DS reads, writes and atomics (buffer-ops.ts `dsAccesses`); the lane exchanges (swizzle, permute) are refused for now. */
export function translateDs(s: LaneState, req: Requests, gen: Gen, d: DecodedInstruction, ldsBytes: number): void {
  const op = d.ds!;
  if (op.kind !== 'mem' && op.kind !== 'two' && op.kind !== 'atomic')
    throw new MemoryRefusal(`ds_${op.kind} (a lane exchange) is not translated yet`);
  const a = s.b;
  const limit = dsLimit(a, gen, ldsBytes, s.readSgpr(m0Code(gen)));
  const port = req.port<Expr>('lds', s.execBit(), (at) => [at, a.word(0)]);
  const regs = laneRegisters(s);
  for (const x of dsAccesses(a, gen, d.inst, op, s.readVgpr(d.inst.fields.addr, 0), limit))
    laneAccessOver(a, port, x.op, regs, x.data, x.src, x.src2, x.returns, x.address, x.out);
}

/**
 * FLAT: by aperture of the address's high word (flat.ts), the group's LDS (`flatLds`) or global
 * memory (`flatGlobal`); both are asked, each enabled in the lanes of its aperture, and the
 * registers take the one that ran. The private aperture is not translated: a lane there is a
 * fault the module reports.
 */
export function translateFlat(s: LaneState, req: Requests, gen: Gen, d: DecodedInstruction, ldsBytes: number): void {
  const inst = d.inst;
  const f = inst.fields;
  const op = d.op!;
  const a = s.b;
  const imm = gen >= Gen.GFX9 ? flatImmediate(gen, inst) : 0;
  const lo = s.readVgpr(f.addr, 0);
  const hi = s.readVgpr(f.addr + 1, 0);
  const active = s.execBit();
  const inLds = a.eq(hi, a.word(SHARED_APERTURE_HI));
  const inPrivate = a.eq(hi, a.word(PRIVATE_APERTURE_HI));
  const seg = s.seg;
  pendingFault(seg, seg.value(a.boolAnd(active, inPrivate)), FAULT.privateFlat, seg.value(lo), '0u');
  const global = flatGlobal(a, lo, hi, imm);
  const lds = flatLds(a, lo, imm, flatAccessSize(op), ldsBytes);
  // Each space's accesses write into their own copy of the registers; the lane keeps the one of its aperture.
  const written = (space: 'guest' | 'lds'): Map<number, Expr> => {
    const w = new Map<number, Expr>();
    const regs: LaneRegisters<Expr> = { read: (r) => w.get(r) ?? s.readVgpr(r, 0), write: (r, v) => w.set(r, v) };
    const gate = space === 'lds' ? a.boolAnd(active, inLds) : a.boolAnd(active, a.boolNot(a.boolOr(inLds, inPrivate)));
    if (space === 'lds')
      vmemAccess(
        regs,
        req.port<Expr>('lds', gate, (x) => [x, a.word(0)]),
        inst,
        op,
        lds.address,
        lds.out,
        a,
      );
    else
      vmemAccess(
        regs,
        req.port<Pair<Expr>>('guest', gate, guestAddress),
        inst,
        op,
        (k) => add64(a, global, [a.word(k), a.word(0)]),
        () => a.bool(false),
        a,
      );
    return w;
  };
  const fromLds = written('lds');
  const fromGlobal = written('guest');
  for (const r of new Set([...fromLds.keys(), ...fromGlobal.keys()]))
    s.writeVgpr(r, 0, a.select(inLds, fromLds.get(r) ?? s.readVgpr(r, 0), fromGlobal.get(r) ?? s.readVgpr(r, 0)));
}

/**
 * A MUBUF format access's format: the V#'s, which must be known at translation time (`vsharp`:
 * constants of the translation, or the tracer's words checked at the access), with the
 * interpreter's refusals. In the discovery pass an unknown format is undefined (the access
 * writes placeholders).
 */
function formatOfVsharp(first: number, gen: Gen, vs: Vsharp, discovery: boolean): TexelFormat | undefined {
  if (!vs.known) {
    if (discovery) return undefined;
    throw new MemoryRefusal(
      `the V# in s[${first}:${first + 3}] is not known at translation time, so neither is its format${vs.unknown ? ` (${vs.unknown})` : ''}`,
    );
  }
  const values = [...vs.known];
  let v: BufferDescriptor;
  try {
    v = decodeBufferDescriptor(gen, values);
  } catch (e) {
    if (e instanceof DescriptorError) throw new MemoryRefusal(`s[${first}:${first + 3}] is not a V#: ${e.message}`);
    throw e;
  }
  if (!v.format)
    throw new MemoryRefusal('the V# has no format (on gfx8/9 ADD_TID_ENABLE makes DATA_FORMAT part of the stride)');
  try {
    return texelFormat(v.format);
  } catch (e) {
    if (e instanceof TexelFormatError) throw new MemoryRefusal(`the V#'s format: ${e.message}`);
    throw e;
  }
}

/**
 * One lane of a format load or store, as the interpreter's `formatLane`: a load reads the
 * element's bytes (out of range: every channel 0), converted by format-store.ts over the algebra,
 * through the V#'s DST_SEL, into whole VGPRs or d16 halves; a store takes the components from
 * whole VGPRs or d16 halves and writes the fields `encodeElementOver` gives (out of range:
 * nothing), the same conversions the interpreter runs on numbers.
 */
function formatAccess(
  s: LaneState,
  port: LanePort<Expr, Expr, Pair<Expr>>,
  op: Extract<MemOp, { kind: 'format' }>,
  tf: TexelFormat,
  r: ReturnType<typeof bufferRsrc<Expr, Expr>>,
  at: (k: number) => Pair<Expr>,
  oob: Expr,
  vdata: number,
): void {
  const a = s.b;
  if (!op.store && !overAlgebra(tf))
    throw new MemoryRefusal(`the ${tf.info.name} conversion is not modelled over the algebra`);
  const eb = tf.layout.bytesPerElement;
  let stored: StoredField<Expr>[] = [];
  if (op.store) {
    const words: Expr[] = [];
    for (let c = 0; c < op.components; c++) {
      if (!op.d16) words.push(s.readVgpr(vdata + c, 0));
      else {
        const slot = d16Slot(op, c);
        const reg = s.readVgpr(vdata + slot.reg, 0);
        words.push(fromD16Over(a, tf.channelKind, slot.high ? a.lshr(reg, a.word(16)) : reg));
      }
    }
    try {
      stored = encodeElementOver(a, tf, words, op.components);
    } catch (e) {
      if (e instanceof TexelFormatError) throw new MemoryRefusal(e.message);
      throw e;
    }
  }
  const across = a.boolAnd(r.swizzled, a.ltU(a.shl(a.word(1), r.elementLog2), a.word(eb)));
  if (across.op === 'bconst') {
    if (across.value === 1)
      throw new MemoryRefusal(`a ${eb}-byte element across smaller swizzle elements is not modelled`);
  } else pendingFault(s.seg, s.seg.value(across), FAULT.unsupportedElement, `${eb}u`, '0u');
  const enabled = a.boolNot(oob);
  const base = at(0);
  if (op.store) {
    for (const field of stored)
      port.store(add64(a, base, [a.word(field.at), a.word(0)]), field.bytes, field.value, enabled);
    return;
  }
  const words: Expr[] = [];
  for (let i = 0; 4 * i < eb; i++) {
    const bytes = Math.min(4, eb - 4 * i) as 1 | 2 | 4;
    words.push(port.load(add64(a, base, [a.word(4 * i), a.word(0)]), bytes, enabled));
  }
  const decoded = decodeElementOver(a, tf, (i) => words[i] ?? a.word(0));
  const raw = decoded.map((w) => a.select(oob, a.word(0), w)) as [Expr, Expr, Expr, Expr];
  const vals = selectChannels(a, tf.channelKind, raw, r.dstSel);
  for (let c = 0; c < op.components; c++) {
    if (!op.d16) {
      s.writeVgpr(vdata + c, 0, vals[c]!);
      continue;
    }
    const h = toD16Over(a, tf.channelKind, vals[c]!);
    const slot = d16Slot(op, c);
    const reg = vdata + slot.reg;
    const old = op.unpacked ? a.word(0) : s.readVgpr(reg, 0);
    s.writeVgpr(
      reg,
      0,
      slot.high ? a.or(a.and(old, a.word(0xffff)), a.shl(h, a.word(16))) : a.or(a.and(old, a.word(0xffff0000)), h),
    );
  }
}
