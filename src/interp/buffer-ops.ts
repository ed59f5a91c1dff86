/**
 * What a vector memory instruction moves (D009), read from its name once at classification
 * and shared by MUBUF, MTBUF, GLOBAL and FLAT: raw dwords, one byte or short (signed or not,
 * d16 halves), formatted components (`*_format_*`, d16 packed on gfx9+), or an atomic. The
 * name is the part after `buffer_` / `tbuffer_` / `global_` / `flat_`; gfx11's names
 * (`load_b32`, `load_u8`, `load_d16_hi_b16`, `atomic_min_u32`...) and the older ones
 * (`load_dword`, `load_ubyte`, `load_short_d16_hi`, `atomic_umin`...) map to the same op.
 *
 * Also here: the per-lane data movement over guest memory (`laneAccess`), the atomic
 * arithmetic (32 and 64 bits) and the swizzled buffer address.
 */
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
      return op.d16 ? Math.ceil(op.components / 2) : op.components;
    case 'atomic':
      return op.wide ? 2 : 1;
  }
}

/** The 32-bit atomic: the new memory value from the old one, the source and (cmpswap) the compare value. */
export function atomic32(op: AtomicOp, old: number, src: number, cmp: number): number {
  old >>>= 0;
  src >>>= 0;
  switch (op) {
    case 'add':
      return (old + src) >>> 0;
    case 'sub':
      return (old - src) >>> 0;
    case 'rsub':
      return (src - old) >>> 0;
    case 'smin':
      return (old | 0) < (src | 0) ? old : src;
    case 'umin':
      return old < src ? old : src;
    case 'smax':
      return (old | 0) > (src | 0) ? old : src;
    case 'umax':
      return old > src ? old : src;
    case 'and':
      return (old & src) >>> 0;
    case 'or':
      return (old | src) >>> 0;
    case 'xor':
      return (old ^ src) >>> 0;
    case 'inc':
      return old >= src ? 0 : old + 1;
    case 'dec':
      return old === 0 || old > src ? src : old - 1;
    case 'swap':
      return src;
    case 'cmpswap':
      return old === cmp >>> 0 ? src : old;
  }
}

/** The 64-bit atomic on unsigned BigInts. */
export function atomic64(op: AtomicOp, old: bigint, src: bigint, cmp: bigint): bigint {
  const u = (v: bigint): bigint => BigInt.asUintN(64, v);
  const s = (v: bigint): bigint => BigInt.asIntN(64, v);
  switch (op) {
    case 'add':
      return u(old + src);
    case 'sub':
      return u(old - src);
    case 'rsub':
      return u(src - old);
    case 'smin':
      return s(old) < s(src) ? old : src;
    case 'umin':
      return old < src ? old : src;
    case 'smax':
      return s(old) > s(src) ? old : src;
    case 'umax':
      return old > src ? old : src;
    case 'and':
      return old & src;
    case 'or':
      return old | src;
    case 'xor':
      return old ^ src;
    case 'inc':
      return old >= src ? 0n : old + 1n;
    case 'dec':
      return old === 0n || old > src ? src : old - 1n;
    case 'swap':
      return src;
    case 'cmpswap':
      return old === cmp ? src : old;
  }
}

/** A lane access the interpreter does not model (the executor turns it into a named refusal). */
export class UnsupportedAccess extends Error {
  override readonly name = 'UnsupportedAccess';
}

export const toBig = (lo: number, hi: number): bigint => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
export const bigLo = (v: bigint): number => Number(v & 0xffffffffn);
export const bigHi = (v: bigint): number => Number((v >> 32n) & 0xffffffffn);

/** Byte memory the per-lane access works over (guest memory; LDS through an adapter). */
export interface ByteSpace {
  read(address: number, size: number): Uint8Array;
  write(address: number, data: Uint8Array): void;
}

function readUint(space: ByteSpace, a: number, n: number): number {
  const b = space.read(a, n);
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[i];
  return v;
}

function writeUint(space: ByteSpace, a: number, n: number, v: number): void {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (v >>> (8 * i)) & 0xff;
  space.write(a, b);
}

/**
 * One lane's raw, sub-dword or atomic access. `address(k)` is the byte address of byte k of
 * the access (swizzled buffers move each dword separately); `out(k)` says whether the dword
 * at byte k is out of range (the raw forms check each dword, the others the first only: an
 * out-of-range load gives 0, a store or an atomic is dropped). `data` is the data / vdst
 * register, `src` the atomic's source register and `src2` its compare register (cmpswap).
 */
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
  switch (op.kind) {
    case 'raw':
      for (let k = 0; k < op.dwords; k++) {
        const oob = out(4 * k);
        if (op.store) {
          if (!oob) writeUint(space, address(4 * k), 4, w.readVgpr(data + k, lane));
        } else w.writeVgpr(data + k, lane, oob ? 0 : readUint(space, address(4 * k), 4));
      }
      return;
    case 'sub': {
      const oob = out(0);
      const n = op.bytes;
      if (op.store) {
        const word = w.readVgpr(data, lane);
        if (!oob) writeUint(space, address(0), n, op.d16 === 'hi' ? word >>> 16 : word);
        return;
      }
      let v = oob ? 0 : readUint(space, address(0), n);
      if (op.signed) v = n === 1 ? (v << 24) >> 24 : (v << 16) >> 16;
      if (op.d16) {
        const old = w.readVgpr(data, lane);
        const h = v & 0xffff;
        v = op.d16 === 'hi' ? (old & 0xffff) | (h << 16) : (old & 0xffff0000) | h;
      }
      w.writeVgpr(data, lane, v);
      return;
    }
    case 'atomic': {
      const oob = out(0);
      const a = address(0);
      const s0 = src;
      const c0 = src2;
      if (op.wide) {
        const old = oob ? 0n : toBig(readUint(space, a, 4), readUint(space, a + 4, 4));
        const sv = toBig(w.readVgpr(s0, lane), w.readVgpr(s0 + 1, lane));
        const cv = op.op === 'cmpswap' ? toBig(w.readVgpr(c0, lane), w.readVgpr(c0 + 1, lane)) : 0n;
        if (!oob) {
          const nv = atomic64(op.op, old, sv, cv);
          writeUint(space, a, 4, bigLo(nv));
          writeUint(space, a + 4, 4, bigHi(nv));
        }
        if (returns) {
          w.writeVgpr(data, lane, bigLo(old));
          w.writeVgpr(data + 1, lane, bigHi(old));
        }
      } else {
        const old = oob ? 0 : readUint(space, a, 4);
        const sv = w.readVgpr(s0, lane);
        const cv = op.op === 'cmpswap' ? w.readVgpr(c0, lane) : 0;
        if (!oob) writeUint(space, a, 4, atomic32(op.op, old, sv, cv));
        if (returns) w.writeVgpr(data, lane, old);
      }
      return;
    }
  }
}

/**
 * A buffer byte offset as an address offset (DESCRIPTORS.md §1): linear `offset + index *
 * stride`, or swizzled `((index / IS) * stride + (offset / ES) * ES) * IS + (index % IS) * ES +
 * offset % ES`; soffset is added outside the swizzle (gem5).
 */
export function bufferOffset(
  swizzle: { readonly elementSize: number; readonly indexStride: number } | null,
  stride: number,
  index: number,
  offset: number,
): number {
  if (!swizzle) return offset + stride * index;
  const es = swizzle.elementSize;
  const is = swizzle.indexStride;
  return (Math.floor(index / is) * stride + Math.floor(offset / es) * es) * is + (index % is) * es + (offset % es);
}
