/**
 * What a vector memory instruction moves (D009), read from its name once at classification
 * and shared by MUBUF, MTBUF, GLOBAL and FLAT: raw dwords, one byte or short (signed or not,
 * d16 halves), formatted components (`*_format_*`, d16 packed on gfx9+), or an atomic. The
 * name is the part after `buffer_` / `tbuffer_` / `global_` / `flat_`; gfx11's names
 * (`load_b32`, `load_u8`, `load_d16_hi_b16`, `atomic_min_u32`...) and the older ones
 * (`load_dword`, `load_ubyte`, `load_short_d16_hi`, `atomic_umin`...) map to the same op.
 *
 * Also here, written once over the value algebra (D003) so the interpreter runs them on numbers
 * and the translator on expressions (D011): the per-lane data movement (`laneAccessOver`, over a
 * `LanePort`), the atomic arithmetic (32 and 64 bits), the V#'s address geometry and the buffer
 * out-of-range rules per generation, the swizzled buffer offset, and the SMEM and GLOBAL
 * address rules.
 */
import { Gen } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { inlineInteger, nullCode, SRC_LITERAL } from '../isa/operands.ts';
import { bufferLayout } from '../host/descriptors/buffer.ts';
import type { Algebra, Pair } from '../semantics/algebra.ts';
import { concrete } from '../semantics/concrete.ts';
import { add64, pairEq, sub64 } from '../semantics/wide.ts';
import type { Wave } from './wave.ts';

export type AtomicOp =
  | 'add'
  | 'sub'
  | 'rsub'
  | 'smin'
  | 'umin'
  | 'smax'
  | 'umax'
  | 'and'
  | 'or'
  | 'xor'
  | 'inc'
  | 'dec'
  | 'swap'
  | 'cmpswap';

export type MemOp =
  | { readonly kind: 'raw'; readonly store: boolean; readonly dwords: number }
  | {
      readonly kind: 'sub';
      readonly store: boolean;
      readonly bytes: 1 | 2;
      readonly signed: boolean;
      /** d16 forms: which half of the register (the other half is kept). */
      readonly d16: 'lo' | 'hi' | null;
    }
  | {
      readonly kind: 'format';
      readonly store: boolean;
      readonly components: number;
      readonly d16: boolean;
      readonly hi: boolean;
      /** gfx8's d16: one half a VGPR (`d16Slot`); set by the executor, which knows the generation. */
      readonly unpacked?: boolean;
    }
  | { readonly kind: 'atomic'; readonly store: false; readonly op: AtomicOp; readonly wide: boolean };

const RAW = /^(load|store)_(?:dword(?:x([234]))?|b(32|64|96|128))$/;
const SUB_LOAD = /^load_(?:(d16)_(?:(hi)_)?)?(ubyte|u8|sbyte|i8|ushort|u16|sshort|i16|short|b16)(?:_(d16)(?:_(hi))?)?$/;
const SUB_STORE = /^store_(?:(d16)_(?:(hi)_)?)?(byte|b8|short|b16)(?:_(d16)(?:_(hi))?)?$/;
const FORMAT = /^(load|store)_(?:(d16)_)?(?:(hi)_)?format_(?:(d16)_)?(?:(hi)_)?(xyzw|xyz|xy|x)$/;
const ATOMIC = /^atomic_([a-z]+?)(?:_(x2|u32|u64|i32|i64|b32|b64))?$/;
const ATOMIC_NAMES: Readonly<Record<string, AtomicOp | readonly [AtomicOp, AtomicOp]>> = {
  add: 'add',
  sub: 'sub',
  smin: 'smin',
  umin: 'umin',
  smax: 'smax',
  umax: 'umax',
  min: ['smin', 'umin'],
  max: ['smax', 'umax'],
  and: 'and',
  or: 'or',
  xor: 'xor',
  inc: 'inc',
  dec: 'dec',
  swap: 'swap',
  cmpswap: 'cmpswap',
};

/** The op of a vector memory instruction from its name after the family prefix, or why it is refused. */
export function parseMemOp(rest: string): MemOp | string {
  let m = RAW.exec(rest);
  if (m) {
    const dwords = m[2] ? Number(m[2]) : m[3] ? Number(m[3]) / 32 : 1;
    return { kind: 'raw', store: m[1] === 'store', dwords };
  }
  m = SUB_LOAD.exec(rest);
  if (m) {
    const d16 = m[1] || m[4];
    const hi = m[2] || m[5];
    const t = m[3];
    if (!d16 && (t === 'short' || t === 'b16')) return `${rest}: not a load form`;
    const bytes = t === 'ubyte' || t === 'u8' || t === 'sbyte' || t === 'i8' ? 1 : 2;
    const signed = t === 'sbyte' || t === 'i8' || t === 'sshort' || t === 'i16';
    return { kind: 'sub', store: false, bytes, signed, d16: d16 ? (hi ? 'hi' : 'lo') : null };
  }
  m = SUB_STORE.exec(rest);
  if (m) {
    const hi = m[2] || m[5];
    const bytes = m[3] === 'byte' || m[3] === 'b8' ? 1 : 2;
    return { kind: 'sub', store: true, bytes, signed: false, d16: hi ? 'hi' : null };
  }
  m = FORMAT.exec(rest);
  if (m)
    return {
      kind: 'format',
      store: m[1] === 'store',
      components: m[6].length,
      d16: Boolean(m[2] || m[4]),
      hi: Boolean(m[3] || m[5]),
    };
  m = ATOMIC.exec(rest);
  if (m) {
    const base = ATOMIC_NAMES[m[1]];
    const suffix = m[2] ?? '';
    if (base === undefined || (m[1] === 'cmpswap' && suffix.startsWith('f')))
      return `atomic_${m[1]} is not interpreted (float and clamped-subtract atomics are not modelled)`;
    const op = typeof base === 'string' ? base : suffix.startsWith('i') ? base[0] : base[1];
    return { kind: 'atomic', store: false, op, wide: suffix === 'x2' || suffix.endsWith('64') };
  }
  return `${rest} is not an interpreted memory operation`;
}

/** The register count of the data operand for an op (what `vdata` / `vdst` spans). */
export function dataDwords(op: MemOp): number {
  switch (op.kind) {
    case 'raw':
      return op.dwords;
    case 'sub':
      return 1;
    case 'format':
      return op.d16 && !op.unpacked ? Math.ceil(op.components / 2) : op.components;
    case 'atomic':
      return op.wide ? 2 : 1;
  }
}

/**
 * Where component c of a d16 format access lives, as a register offset from vdata and a half.
 * gfx9+ packs two halves a VGPR, x in the low half (`_hi` forms: the high half); gfx8 has
 * "unpacked" d16, each component in the low half of a VGPR of its own (LLVM's
 * `FeatureUnpackedD16VMem` for gfx8; its high half is written 0, recalled and never read by
 * the code LLVM emits, which masks or SDWA-selects the low half).
 */
export function d16Slot(
  op: Extract<MemOp, { kind: 'format' }>,
  c: number,
): { readonly reg: number; readonly high: boolean } {
  if (op.unpacked) return { reg: c, high: false };
  return { reg: c >> 1, high: op.hi || (c & 1) === 1 };
}

/** The 32-bit atomic: the new memory value from the old one, the source and (cmpswap) the compare value. */
export function atomicValue<V, B>(a: Algebra<V, B>, op: AtomicOp, old: V, src: V, cmp: V): V {
  switch (op) {
    case 'add':
      return a.add(old, src);
    case 'sub':
      return a.sub(old, src);
    case 'rsub':
      return a.sub(src, old);
    case 'smin':
      return a.minI(old, src);
    case 'umin':
      return a.minU(old, src);
    case 'smax':
      return a.maxI(old, src);
    case 'umax':
      return a.maxU(old, src);
    case 'and':
      return a.and(old, src);
    case 'or':
      return a.or(old, src);
    case 'xor':
      return a.xor(old, src);
    case 'inc':
      return a.select(a.leU(src, old), a.word(0), a.add(old, a.word(1)));
    case 'dec':
      return a.select(a.boolOr(a.eq(old, a.word(0)), a.ltU(src, old)), src, a.sub(old, a.word(1)));
    case 'swap':
      return src;
    case 'cmpswap':
      return a.select(a.eq(old, cmp), src, old);
  }
}

/** x < y on 64-bit pairs, unsigned or signed. */
function lt64<V, B>(a: Algebra<V, B>, x: Pair<V>, y: Pair<V>, signed: boolean): B {
  const hiLess = signed ? a.ltI(x[1], y[1]) : a.ltU(x[1], y[1]);
  return a.boolOr(hiLess, a.boolAnd(a.eq(x[1], y[1]), a.ltU(x[0], y[0])));
}

/** The 64-bit atomic on pairs (low word first). */
export function atomicValue64<V, B>(a: Algebra<V, B>, op: AtomicOp, old: Pair<V>, src: Pair<V>, cmp: Pair<V>): Pair<V> {
  const pick = (c: B, t: Pair<V>, f: Pair<V>): Pair<V> => [a.select(c, t[0], f[0]), a.select(c, t[1], f[1])];
  const zero: Pair<V> = [a.word(0), a.word(0)];
  const one: Pair<V> = [a.word(1), a.word(0)];
  switch (op) {
    case 'add':
      return add64(a, old, src);
    case 'sub':
      return sub64(a, old, src);
    case 'rsub':
      return sub64(a, src, old);
    case 'smin':
      return pick(lt64(a, old, src, true), old, src);
    case 'umin':
      return pick(lt64(a, old, src, false), old, src);
    case 'smax':
      return pick(lt64(a, src, old, true), old, src);
    case 'umax':
      return pick(lt64(a, src, old, false), old, src);
    case 'and':
      return [a.and(old[0], src[0]), a.and(old[1], src[1])];
    case 'or':
      return [a.or(old[0], src[0]), a.or(old[1], src[1])];
    case 'xor':
      return [a.xor(old[0], src[0]), a.xor(old[1], src[1])];
    case 'inc':
      return pick(lt64(a, old, src, false), add64(a, old, one), zero);
    case 'dec':
      return pick(a.boolOr(pairEq(a, old, zero), lt64(a, src, old, false)), src, sub64(a, old, one));
    case 'swap':
      return src;
    case 'cmpswap':
      return pick(pairEq(a, old, cmp), src, old);
  }
}

/** The 32-bit atomic on numbers (the interpreter's). */
export function atomic32(op: AtomicOp, old: number, src: number, cmp: number): number {
  return atomicValue(concrete, op, old >>> 0, src >>> 0, cmp >>> 0);
}

/** A lane access the interpreter does not model (the executor turns it into a named refusal). */
export class UnsupportedAccess extends Error {
  override readonly name = 'UnsupportedAccess';
}

/** Byte memory the per-lane access works over (guest memory; LDS through an adapter). */
export interface ByteSpace {
  read(address: number, size: number): Uint8Array;
  /** Copies `data` in: the caller may reuse the array once the call returns (`bytePort` does). */
  write(address: number, data: Uint8Array): void;
  /** Optional: `read(address, 4)` as a little-endian word, with the same faults (a faster path). */
  read32?(address: number): number;
  /** Optional: `write` of a little-endian word, with the same effects and faults. */
  write32?(address: number, value: number): void;
}

/**
 * The memory one lane's access reads and writes, at addresses of type A: the interpreter's byte
 * spaces (numbers), the translator's guest memory and LDS (WGSL calls). A disabled access does not
 * touch memory: a load gives 0, a store is dropped, an atomic gives 0 and writes nothing.
 */
export interface LanePort<V, B, A> {
  /** `bytes` little-endian bytes at `address`, zero-extended. */
  load(address: A, bytes: 1 | 2 | 4, enabled: B): V;
  /** The low `bytes` bytes of `value`. */
  store(address: A, bytes: 1 | 2 | 4, value: V, enabled: B): void;
  /** A 32-bit atomic: the new word is `atomicValue(op, old, src, cmp)`; returns the old. */
  atomic(address: A, op: AtomicOp, src: V, cmp: V, enabled: B): V;
  /** The same on 64 bits (two words, low first; `atomicValue64`). */
  atomic64(address: A, op: AtomicOp, src: Pair<V>, cmp: Pair<V>, enabled: B): Pair<V>;
}

/** One lane's VGPRs, as a memory access reads and writes them. */
export interface LaneRegisters<V> {
  read(reg: number): V;
  write(reg: number, value: V): void;
}

function readUint(space: ByteSpace, a: number, n: number): number {
  if (n === 4 && space.read32) return space.read32(a);
  const b = space.read(a, n);
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[i];
  return v;
}

/** One reusable buffer per access size (1-4 bytes): a byte space copies what it is given (`ByteSpace.write`). */
const WRITE_BUFFERS = [1, 2, 3, 4].map((n) => new Uint8Array(n));

function writeUint(space: ByteSpace, a: number, n: number, v: number): void {
  if (n === 4 && space.write32) {
    space.write32(a, v >>> 0);
    return;
  }
  const b = WRITE_BUFFERS[n - 1] ?? new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (v >>> (8 * i)) & 0xff;
  space.write(a, b);
}

/** The port of each byte space, made once (a lane access asks for it every time). */
const PORTS = new WeakMap<ByteSpace, LanePort<number, boolean, number>>();

/** A byte space as a lane port on numbers. */
export function bytePort(space: ByteSpace): LanePort<number, boolean, number> {
  let port = PORTS.get(space);
  if (port === undefined) PORTS.set(space, (port = makeBytePort(space)));
  return port;
}

function makeBytePort(space: ByteSpace): LanePort<number, boolean, number> {
  return {
    load: (a, n, enabled) => (enabled ? readUint(space, a, n) : 0),
    store(a, n, v, enabled) {
      if (enabled) writeUint(space, a, n, v >>> 0);
    },
    atomic(a, op, src, cmp, enabled) {
      if (!enabled) return 0;
      const old = readUint(space, a, 4);
      writeUint(space, a, 4, atomicValue(concrete, op, old, src, cmp) >>> 0);
      return old;
    },
    atomic64(a, op, src, cmp, enabled) {
      if (!enabled) return [0, 0];
      const old: Pair<number> = [readUint(space, a, 4), readUint(space, a + 4, 4)];
      const nv = atomicValue64(concrete, op, old, src, cmp);
      writeUint(space, a, 4, nv[0] >>> 0);
      writeUint(space, a + 4, 4, nv[1] >>> 0);
      return old;
    },
  };
}

/**
 * One lane's raw, sub-dword or atomic access, over the algebra. `address(k)` is the address of
 * byte k of the access (swizzled buffers move each dword separately); `out(k)` says whether the
 * dword at byte k is out of range (the raw forms check each dword, the others the first only: an
 * out-of-range load gives 0, a store or an atomic is dropped and the atomic returns 0). `data` is
 * the data / vdst register, `src` the atomic's source register and `src2` its compare register
 * (cmpswap); `returns`: the atomic writes the old value to `data`.
 */
export function laneAccessOver<V, B, A>(
  a: Algebra<V, B>,
  port: LanePort<V, B, A>,
  op: Exclude<MemOp, { kind: 'format' }>,
  regs: LaneRegisters<V>,
  data: number,
  src: number,
  src2: number,
  returns: boolean,
  address: (k: number) => A,
  out: (k: number) => B,
): void {
  switch (op.kind) {
    case 'raw':
      for (let k = 0; k < op.dwords; k++) {
        const enabled = a.boolNot(out(4 * k));
        if (op.store) port.store(address(4 * k), 4, regs.read(data + k), enabled);
        else regs.write(data + k, port.load(address(4 * k), 4, enabled));
      }
      return;
    case 'sub': {
      const enabled = a.boolNot(out(0));
      const n = op.bytes;
      if (op.store) {
        const word = regs.read(data);
        port.store(address(0), n, op.d16 === 'hi' ? a.lshr(word, a.word(16)) : word, enabled);
        return;
      }
      let v = port.load(address(0), n, enabled);
      if (op.signed) v = a.sext(v, n === 1 ? 8 : 16);
      if (op.d16) {
        const old = regs.read(data);
        const h = a.and(v, a.word(0xffff));
        v =
          op.d16 === 'hi'
            ? a.or(a.and(old, a.word(0xffff)), a.shl(h, a.word(16)))
            : a.or(a.and(old, a.word(0xffff0000)), h);
      }
      regs.write(data, v);
      return;
    }
    case 'atomic': {
      const enabled = a.boolNot(out(0));
      const at = address(0);
      if (op.wide) {
        const sv: Pair<V> = [regs.read(src), regs.read(src + 1)];
        const cv: Pair<V> = op.op === 'cmpswap' ? [regs.read(src2), regs.read(src2 + 1)] : [a.word(0), a.word(0)];
        const old = port.atomic64(at, op.op, sv, cv, enabled);
        if (returns) {
          regs.write(data, old[0]);
          regs.write(data + 1, old[1]);
        }
      } else {
        const sv = regs.read(src);
        const cv = op.op === 'cmpswap' ? regs.read(src2) : a.word(0);
        const old = port.atomic(at, op.op, sv, cv, enabled);
        if (returns) regs.write(data, old);
      }
      return;
    }
  }
}

/** `laneAccessOver` on numbers, over a byte space and one lane of a wave (the interpreter's). */
export function laneAccess(
  space: ByteSpace,
  op: Exclude<MemOp, { kind: 'format' }>,
  w: Wave,
  lane: number,
  data: number,
  src: number,
  src2: number,
  returns: boolean,
  address: (k: number) => number,
  out: (k: number) => boolean,
): void {
  LANE_REGISTERS.w = w;
  LANE_REGISTERS.lane = lane;
  laneAccessOver(concrete, bytePort(space), op, LANE_REGISTERS, data, src, src2, returns, address, out);
}

/** One lane's registers for `laneAccess`, reused: an access never starts another one. */
class WaveLaneRegisters implements LaneRegisters<number> {
  w: Wave | undefined;
  lane = 0;
  read(reg: number): number {
    return this.w!.readVgpr(reg, this.lane);
  }
  write(reg: number, value: number): void {
    this.w!.writeVgpr(reg, this.lane, value);
  }
}
const LANE_REGISTERS = new WaveLaneRegisters();

/**
 * What the address and range rules read of a V# (DESCRIPTORS.md §1), as algebra values: from the
 * words through the generation's layout table (`bufferLayout`), so the interpreter's numbers and
 * the translator's run-time words go through the same rules.
 */
export interface BufferRsrc<V, B> {
  /** BASE_ADDRESS, 48 bits as [lo, hi]. */
  readonly base: Pair<V>;
  /** STRIDE in bytes; on gfx8/9 with ADD_TID_ENABLE, DATA_FORMAT supplies STRIDE[17:14]. */
  readonly stride: V;
  readonly numRecords: V;
  readonly addTid: B;
  readonly swizzled: B;
  /** Swizzle element size 1 << elementLog2 bytes: ELEMENT_SIZE on gfx7/8, 16 on gfx9-10.3, 2 << SWIZZLE_ENABLE on gfx11. */
  readonly elementLog2: V;
  /** INDEX_STRIDE: 1 << indexLog2 records (8 << n). */
  readonly indexLog2: V;
  /** gfx10+ OOB_SELECT (0 elsewhere). */
  readonly oobSelect: V;
  /** NUM_RECORDS counts records (STRIDE bytes each), not bytes: gfx7 and gfx10+ with a stride, gfx8 swizzled with one; never on gfx9. */
  readonly countsRecords: B;
  /** DST_SEL_X..W codes (0, 1, 4-7; format loads). */
  readonly dstSel: readonly [V, V, V, V];
}

/** The V# at `words` (4 words) as `BufferRsrc`. TYPE and the format are the descriptor decoder's to check. */
export function bufferRsrc<V, B>(a: Algebra<V, B>, gen: Gen, words: readonly V[]): BufferRsrc<V, B> {
  const layout = bufferLayout(gen);
  const field = (name: string): V | undefined => {
    const spec = layout.fields.find((x) => x.name === name);
    if (!spec) return undefined;
    const w = words[spec.dword]!;
    if (spec.width === 32) return w;
    return a.and(a.lshr(w, a.word(spec.lo)), a.word(2 ** spec.width - 1));
  };
  const must = (name: string): V => field(name) ?? a.word(0);
  const zero = a.word(0);
  const addTid = a.toBool(must('add_tid_enable'));
  const rawStride = must('stride');
  const stride =
    gen === Gen.GFX8 || gen === Gen.GFX9
      ? a.select(addTid, a.or(rawStride, a.shl(must('data_format'), a.word(14))), rawStride)
      : rawStride;
  const swizzleEnable = must('swizzle_enable');
  const swizzled = a.toBool(swizzleEnable);
  const elementLog2 =
    gen <= Gen.GFX8
      ? a.add(must('element_size'), a.word(1))
      : gen === Gen.GFX11
        ? a.add(swizzleEnable, a.word(1))
        : a.word(4);
  const hasStride = a.ne(stride, zero);
  const countsRecords =
    gen === Gen.GFX9 ? a.bool(false) : gen === Gen.GFX8 ? a.boolAnd(hasStride, swizzled) : hasStride;
  return {
    base: [must('base_address'), must('base_address_hi')],
    stride,
    numRecords: must('num_records'),
    addTid,
    swizzled,
    elementLog2,
    indexLog2: a.add(must('index_stride'), a.word(3)),
    oobSelect: field('oob_select') ?? zero,
    countsRecords,
    dstSel: [must('dst_sel_x'), must('dst_sel_y'), must('dst_sel_z'), must('dst_sel_w')],
  };
}

/** The V#'s address geometry on numbers (the interpreter's; `bufferRsrc` on the concrete algebra). */
export function bufferRsrcOf(gen: Gen, words: readonly number[]): BufferRsrc<number, boolean> {
  return bufferRsrc(concrete, gen, words);
}

/**
 * A buffer byte offset (DESCRIPTORS.md §1): linear `offset + index * stride`, or swizzled
 * `((index / IS) * stride + (offset / ES) * ES) * IS + (index % IS) * ES + offset % ES` when the V#
 * says so; soffset is added outside (gem5). 32-bit arithmetic.
 */
export function bufferOffsetOver<V, B>(a: Algebra<V, B>, r: BufferRsrc<V, B>, index: V, offset: V): V {
  const linear = a.add(offset, a.mulLo(r.stride, index));
  const es = r.elementLog2;
  const is = r.indexLog2;
  const lowMask = (log2: V): V => a.sub(a.shl(a.word(1), log2), a.word(1));
  const esMask = lowMask(es);
  const major = a.add(a.mulLo(a.lshr(index, is), r.stride), a.and(offset, a.not(esMask)));
  const swizzled = a.add(a.add(a.shl(major, is), a.shl(a.and(index, lowMask(is)), es)), a.and(offset, esMask));
  return a.select(r.swizzled, swizzled, linear);
}

const boolPick = <V, B>(a: Algebra<V, B>, c: B, t: B, f: B): B => a.boolOr(a.boolAnd(c, t), a.boolAnd(a.boolNot(c), f));

/**
 * Out of range per generation (DESCRIPTORS.md §1; soffset is counted in byte checks, as gem5's
 * Vega model does). gfx10+ by OOB_SELECT (3 compares the swizzled offset); gfx9 (Vega model) no
 * check for an ADD_TID "private buffer" without IDXEN, `index >= NUM_RECORDS or offset >= STRIDE`
 * swizzled with a stride, else bytes or records by IDXEN and STRIDE; gfx7/8 bytes or records as
 * the V# counts them.
 */
export function bufferOutOfRange<V, B>(
  a: Algebra<V, B>,
  gen: Gen,
  r: BufferRsrc<V, B>,
  idxen: boolean,
  index: V,
  offset: V,
  soffset: V,
): B {
  const nr = r.numRecords;
  const bytes = a.add(soffset, bufferOffsetOver(a, r, index, offset));
  const byBytes = a.leU(nr, bytes);
  const byIndex = a.leU(nr, index);
  const byStride = a.leU(r.stride, offset);
  if (gen >= Gen.GFX10) {
    const sel = r.oobSelect;
    const is = (n: number): B => a.eq(sel, a.word(n));
    return boolPick(
      a,
      is(0),
      a.boolOr(byIndex, byStride),
      boolPick(a, is(1), byIndex, boolPick(a, is(2), a.eq(nr, a.word(0)), byBytes)),
    );
  }
  if (gen === Gen.GFX9) {
    const hasStride = a.ne(r.stride, a.word(0));
    const plain = !idxen ? byBytes : boolPick(a, hasStride, byIndex, byBytes);
    const checked = boolPick(a, a.boolAnd(r.swizzled, hasStride), a.boolOr(byIndex, byStride), plain);
    return idxen ? checked : a.boolAnd(a.boolNot(r.addTid), checked);
  }
  return boolPick(a, r.countsRecords, byIndex, byBytes);
}

/**
 * An 8/9-bit scalar source code used as an offset (MUBUF soffset, SMEM offsets): an SGPR (null:
 * 0), an inline integer or the literal; anything else is an `UnsupportedAccess`.
 */
export function scalarOffset<V, B>(
  a: Algebra<V, B>,
  gen: Gen,
  inst: Instruction,
  code: number,
  sgpr: (code: number) => V,
): V {
  if (code < 128) return code === nullCode(gen) && gen >= Gen.GFX8 ? a.word(0) : sgpr(code);
  const n = inlineInteger(code);
  if (n !== undefined) return a.word(n >>> 0);
  if (code === SRC_LITERAL && inst.literal !== undefined) return a.word(inst.literal >>> 0);
  throw new UnsupportedAccess(`scalar source code ${code} is not modelled as an offset`);
}

/**
 * Scalar memory's byte offset as a 64-bit pair. gfx7 SMRD IMM=1 counts dwords (8 bits, or a
 * 32-bit literal), IMM=0 names an SGPR holding bytes; gfx8 IMM=1 a 20-bit byte offset, IMM=0 an
 * SGPR; gfx9 adds SOE (SGPR in SOFFSET plus the immediate); gfx10+ the 21-bit offset plus SOFFSET
 * (null: none). gfx9+ s_load offsets are signed (LLVM's isLegalSMRDEncodedSignedOffset).
 */
export function smemOffset<V, B>(
  a: Algebra<V, B>,
  gen: Gen,
  inst: Instruction,
  isBuffer: boolean,
  sgpr: (code: number) => V,
): Pair<V> {
  const f = inst.fields;
  const zero = a.word(0);
  const u = (v: V): Pair<V> => [v, zero];
  if (gen === Gen.GFX7) {
    if (f.imm) return u(a.word(f.offset * 4));
    if (f.offset === SRC_LITERAL) {
      const lit = a.word(inst.literal ?? 0);
      return [a.shl(lit, a.word(2)), a.lshr(lit, a.word(30))];
    }
    return u(scalarOffset(a, gen, inst, f.offset, sgpr));
  }
  if (gen === Gen.GFX8) return u(f.imm ? a.word(f.offset) : sgpr(f.offset & 0x7f));
  const imm = gen === Gen.GFX9 ? (f.imm ? f.offset : 0) : f.offset;
  const signed = !isBuffer && imm >= 0x100000 ? imm - 0x200000 : imm;
  let sreg = zero;
  if (gen === Gen.GFX9) {
    if (f.soe) sreg = sgpr(f.soffset);
    else if (!f.imm) sreg = sgpr(f.offset & 0x7f);
  } else if (f.soffset !== nullCode(gen)) sreg = scalarOffset(a, gen, inst, f.soffset, sgpr);
  return add64(a, [a.word(signed >>> 0), a.word(signed < 0 ? 0xffffffff : 0)], u(sreg));
}

/** The 48-bit address of a 64-bit pointer in two words (the top 16 bits are ignored), as a pair. */
export function pointer48<V, B>(a: Algebra<V, B>, lo: V, hi: V): Pair<V> {
  return [lo, a.and(hi, a.word(0xffff))];
}

/** s_buffer_load: dword `i` at byte `offset` (its low two bits ignored) is inside the V#'s size (NUM_RECORDS bytes, or records); outside reads 0. */
export function sBufferDwordInRange<V, B>(a: Algebra<V, B>, r: BufferRsrc<V, B>, offset: V, i: number): B {
  const size = a.select(r.countsRecords, a.mulLo(r.numRecords, r.stride), r.numRecords);
  const o = a.add(a.and(offset, a.word(~3 >>> 0)), a.word(4 * i));
  return a.boolAnd(a.ltU(o, size), a.leU(a.word(4), a.sub(size, o)));
}

/** The signed offset field of GLOBAL/FLAT/SCRATCH: 12 bits on gfx10.x, 13 on gfx9 and gfx11. */
export function flatImmediate(gen: Gen, inst: Instruction): number {
  const bits = gen === Gen.GFX10 || gen === Gen.GFX10_3 ? 12 : 13;
  const o = inst.fields.offset ?? 0;
  return o >= 1 << (bits - 1) ? o - (1 << bits) : o;
}

/** GLOBAL's address: the 64-bit VGPR address, or SADDR's pair plus the 32-bit VGPR offset, plus the signed offset field. */
export function globalAddress<V, B>(
  a: Algebra<V, B>,
  gen: Gen,
  inst: Instruction,
  sgpr: (code: number) => V,
  vgpr: (index: number) => V,
): Pair<V> {
  const f = inst.fields;
  const imm = flatImmediate(gen, inst);
  const immPair: Pair<V> = [a.word(imm >>> 0), a.word(imm < 0 ? 0xffffffff : 0)];
  const off = f.saddr === 127 || f.saddr === nullCode(gen);
  const base = off
    ? pointer48(a, vgpr(f.addr), vgpr(f.addr + 1))
    : add64(a, pointer48(a, sgpr(f.saddr), sgpr(f.saddr + 1)), [vgpr(f.addr), a.word(0)]);
  return add64(a, base, immPair);
}

/** A pair address as a number (the interpreter's guest addresses; a negative or wrapped address is past every range). */
export function pairAddress(p: Pair<number>): number {
  return (p[0] >>> 0) + (p[1] >>> 0) * 2 ** 32;
}

/** The DS forms that move data (lds.ts `DsOp` without the lane exchanges). */
export type DsDataOp =
  | { readonly kind: 'mem'; readonly op: Exclude<MemOp, { kind: 'format' }>; readonly size: number }
  | { readonly kind: 'two'; readonly store: boolean; readonly dwords: 1 | 2; readonly st64: boolean }
  | { readonly kind: 'atomic'; readonly op: AtomicOp; readonly wide: boolean; readonly rtn: boolean };

/** One access of a DS instruction's lane: what `laneAccessOver` moves, where, and when it is outside the allocation. */
export interface DsAccess<V, B> {
  readonly op: Exclude<MemOp, { kind: 'format' }>;
  readonly data: number;
  readonly src: number;
  readonly src2: number;
  readonly returns: boolean;
  address(k: number): V;
  out(k: number): B;
}

/**
 * A lane's DS accesses (lds.ts): ADDR plus the 16-bit offset (wrapping at 32 bits); the
 * two-address forms at ADDR + offset0/offset1 elements (times 64 for st64), unwrapped (a carry
 * out of 32 bits is outside); atomics with the source in DATA0 and DATA1 the other (ds_cmpst
 * before gfx11: the compare value first). An access is outside when any of its bytes reaches
 * `limit` (the allocation, and M0 on gfx7/8), each dword checked on its own.
 */
export function dsAccesses<V, B>(
  a: Algebra<V, B>,
  gen: Gen,
  inst: Instruction,
  op: DsDataOp,
  addr: V,
  limit: V,
): DsAccess<V, B>[] {
  const f = inst.fields;
  const offset0 = f.offset0 ?? 0;
  const offset1 = f.offset1 ?? 0;
  /** Bytes [at + k, at + k + size) reach past the limit (or at carried out of 32 bits). */
  const past = (at: V, carry: B, k: number, size: number): B =>
    a.boolOr(carry, a.boolOr(a.ltU(limit, a.word(k + size)), a.ltU(a.sub(limit, a.word(k + size)), at)));
  if (op.kind === 'two') {
    const unit = op.dwords * 4 * (op.st64 ? 64 : 1);
    const raw: MemOp = { kind: 'raw', store: op.store, dwords: op.dwords };
    return [offset0, offset1].map((o, i) => {
      const [at, carry] = a.addCarry(addr, a.word(o * unit), a.bool(false));
      const data = op.store ? (i === 0 ? f.data0 : f.data1) : f.vdst + i * op.dwords;
      return {
        op: raw,
        data,
        src: data,
        src2: data,
        returns: true,
        address: (k) => a.add(at, a.word(k)),
        out: (k) => past(at, carry, k, 4),
      };
    });
  }
  const at = a.add(addr, a.word(offset0 | (offset1 << 8)));
  const none = a.bool(false);
  if (op.kind === 'mem') {
    const data = op.op.store ? f.data0 : f.vdst;
    return [
      {
        op: op.op,
        data,
        src: data,
        src2: data,
        returns: true,
        address: (k) => a.add(at, a.word(k)),
        out: (k) => past(at, none, k, op.size),
      },
    ];
  }
  const cmpFirst = op.op === 'cmpswap' && gen < Gen.GFX11;
  return [
    {
      op: { kind: 'atomic', store: false, op: op.op, wide: op.wide },
      data: f.vdst,
      src: cmpFirst ? f.data1 : f.data0,
      src2: cmpFirst ? f.data0 : f.data1,
      returns: op.rtn,
      address: () => at,
      out: () => past(at, none, 0, op.wide ? 8 : 4),
    },
  ];
}

/** The bytes a DS access may reach: the group's allocation, and on gfx7/8 no further than M0. */
export function dsLimit<V, B>(a: Algebra<V, B>, gen: Gen, ldsBytes: number, m0: V): V {
  return gen <= Gen.GFX8 ? a.minU(a.word(ldsBytes), m0) : a.word(ldsBytes);
}

/** The signed offset field as a 64-bit pair. */
const offsetPair = <V, B>(a: Algebra<V, B>, imm: number): Pair<V> => [
  a.word(imm >>> 0),
  a.word(imm < 0 ? 0xffffffff : 0),
];

/**
 * FLAT into the shared aperture (flat.ts): the group's LDS at the address's low word plus the
 * offset; outside (a load reads 0, a store is dropped) when any byte is below 0 or past the
 * allocation.
 */
export function flatLds<V, B>(
  a: Algebra<V, B>,
  lo: V,
  imm: number,
  size: number,
  ldsBytes: number,
): { address(k: number): V; out(k: number): B } {
  const [at, high] = add64(a, [lo, a.word(0)], offsetPair(a, imm));
  const limit = a.word(ldsBytes);
  return {
    address: (k) => a.add(at, a.word(k)),
    out: (k) =>
      a.boolOr(
        a.ne(high, a.word(0)),
        a.boolOr(a.ltU(limit, a.word(k + size)), a.ltU(a.sub(limit, a.word(k + size)), at)),
      ),
  };
}

/** FLAT into global memory: the 48-bit address plus the offset field. */
export function flatGlobal<V, B>(a: Algebra<V, B>, lo: V, hi: V, imm: number): Pair<V> {
  return add64(a, pointer48(a, lo, hi), offsetPair(a, imm));
}

/** The bytes a FLAT access checks against LDS (the first dword's, or the sub-dword's, or a 64-bit atomic's). */
export function flatAccessSize(op: MemOp): number {
  return op.kind === 'sub' ? op.bytes : op.kind === 'atomic' && op.wide ? 8 : 4;
}
