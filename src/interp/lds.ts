/**
 * LDS instructions (D009): reads and writes of 1-16 bytes, the two-address forms
 * (read2/write2, `load_2addr`/`store_2addr`, with offset0/offset1 in elements, times 64 for
 * st64), the integer atomics with and without return, and the wave-level lane exchanges
 * ds_swizzle_b32, ds_permute_b32 and ds_bpermute_b32 (which do not touch LDS).
 *
 * Out of the group's allocation (and on gfx7/8 at or past M0) a dword or sub-dword read gives
 * 0 and a write is dropped, each dword checked on its own. Lanes run in order, so atomics
 * from one wave accumulate exactly. The compare-and-store operands: ds_cmpst_* (gfx7-10)
 * take the compare value in DATA0 and the new value in DATA1; gfx11's ds_cmpstore_* swap
 * them (new in DATA0), as the buffer atomics do. Unaligned b64/b96/b128 addresses are used as
 * given (no forced alignment). From an inactive source lane, swizzle and bpermute read 0.
 */
import { Gen } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { swizzleSourceLane } from '../semantics/wave-lanes.ts';
import type { Algebra } from '../semantics/algebra.ts';
import { concrete } from '../semantics/concrete.ts';
import { compileDsAddress } from './jit/ds-address.ts';
import { dsAccesses, dsLimit, laneAccess, type AtomicOp, type ByteSpace, type MemOp } from './buffer-ops.ts';
import type { Wave } from './wave.ts';

export type DsOp =
  | { readonly kind: 'mem'; readonly op: Exclude<MemOp, { kind: 'format' }>; readonly size: number }
  | { readonly kind: 'two'; readonly store: boolean; readonly dwords: 1 | 2; readonly st64: boolean }
  | { readonly kind: 'atomic'; readonly op: AtomicOp; readonly wide: boolean; readonly rtn: boolean }
  | { readonly kind: 'swizzle' | 'permute' | 'bpermute' };

const SIZES: Readonly<Record<string, number>> = { b8: 1, b16: 2, b32: 4, b64: 8, b96: 12, b128: 16 };
const READ = /^ds_(?:read|load)_(b32|b64|b96|b128|u8|i8|u16|i16)(?:_(d16)(?:_(hi))?)?$/;
const WRITE = /^ds_(?:write|store)_(b8|b16|b32|b64|b96|b128)(?:_d16_(hi))?$/;
const TWO = /^ds_(read|write|load|store)(?:2|_2addr)(?:(st64)|_stride64)?_b(32|64)$/;
const ATOMIC =
  /^ds_(add|sub|rsub|inc|dec|min|max|and|or|xor|wrxchg|storexchg|cmpst|cmpstore)(_rtn)?_(u32|i32|b32|u64|i64|b64)$/;

/** The op of a DS instruction, or why it is refused. */
export function parseDsOp(name: string): DsOp | string {
  if (name === 'ds_swizzle_b32') return { kind: 'swizzle' };
  if (name === 'ds_permute_b32') return { kind: 'permute' };
  if (name === 'ds_bpermute_b32') return { kind: 'bpermute' };
  let m = READ.exec(name);
  if (m) {
    const t = m[1];
    if (t.startsWith('b')) {
      if (m[2]) return `${name} is not a DS form`;
      const dwords = SIZES[t] / 4;
      return { kind: 'mem', op: { kind: 'raw', store: false, dwords }, size: 4 };
    }
    const bytes = t.endsWith('8') ? 1 : 2;
    return {
      kind: 'mem',
      op: { kind: 'sub', store: false, bytes, signed: t.startsWith('i'), d16: m[2] ? (m[3] ? 'hi' : 'lo') : null },
      size: bytes,
    };
  }
  m = WRITE.exec(name);
  if (m) {
    const n = SIZES[m[1]];
    if (n >= 4) {
      if (m[2]) return `${name} is not a DS form`;
      return { kind: 'mem', op: { kind: 'raw', store: true, dwords: n / 4 }, size: 4 };
    }
    return {
      kind: 'mem',
      op: { kind: 'sub', store: true, bytes: n as 1 | 2, signed: false, d16: m[2] ? 'hi' : null },
      size: n,
    };
  }
  m = TWO.exec(name);
  if (m)
    return {
      kind: 'two',
      store: m[1] === 'write' || m[1] === 'store',
      dwords: m[3] === '64' ? 2 : 1,
      st64: Boolean(m[2]) || name.includes('stride64'),
    };
  m = ATOMIC.exec(name);
  if (m) {
    const t = m[3];
    const signed = t.startsWith('i');
    const base = m[1];
    const op: AtomicOp =
      base === 'min'
        ? signed
          ? 'smin'
          : 'umin'
        : base === 'max'
          ? signed
            ? 'smax'
            : 'umax'
          : base === 'wrxchg' || base === 'storexchg'
            ? 'swap'
            : base === 'cmpst' || base === 'cmpstore'
              ? 'cmpswap'
              : (base as AtomicOp);
    const rtn = Boolean(m[2]);
    if ((op === 'swap' && !rtn) || (base === 'cmpstore' && t.startsWith('u'))) return `${name} is not a DS form`;
    return { kind: 'atomic', op, wide: t.endsWith('64'), rtn };
  }
  return 'only LDS reads/writes (b8-b128, read2/write2), integer atomics, ds_swizzle_b32 and ds_(b)permute_b32 are interpreted';
}

/** Each group's LDS as a byte space, made once per LDS (its lane port is then made once too). */
const SPACES = new WeakMap<Uint8Array, ByteSpace>();

/** The LDS bytes of a group as a byte space (bounds are checked by the caller). */
function ldsSpace(lds: Uint8Array): ByteSpace {
  let space = SPACES.get(lds);
  if (space === undefined)
    SPACES.set(
      lds,
      (space = {
        read: (a, n) => lds.subarray(a, a + n),
        write: (a, data) => lds.set(data, a),
        read32: (a) => (lds[a] | (lds[a + 1] << 8) | (lds[a + 2] << 16) | (lds[a + 3] << 24)) >>> 0,
        write32(a, v) {
          lds[a] = v & 0xff;
          lds[a + 1] = (v >>> 8) & 0xff;
          lds[a + 2] = (v >>> 16) & 0xff;
          lds[a + 3] = v >>> 24;
        },
      }),
    );
  return space;
}

/** A DS lane's compiled addresses and range checks (`compileDsAddress`), reused by every instruction. */
let laneSlots = new Float64Array(16);

/**
 * Runs one DS instruction for every active lane of a wave. With `compiled` (the interpreter's
 * compiled ALU is on), the address rules are compiled per instruction and limit
 * (jit/ds-address.ts) from the same shared rule.
 */
export function runDs(gen: Gen, w: Wave, inst: Instruction, op: DsOp, lds: Uint8Array, compiled = false): void {
  const f = inst.fields;
  if (op.kind !== 'mem' && op.kind !== 'two' && op.kind !== 'atomic') {
    laneExchange(w, op.kind, f, (f.offset0 ?? 0) | ((f.offset1 ?? 0) << 8));
    return;
  }
  // The address and range rules are buffer-ops.ts's `dsAccesses` (shared with the translator).
  const limit = dsLimit(concrete, gen, lds.length, w.readM0());
  const space = ldsSpace(lds);
  const c = compiled ? compileDsAddress(gen, inst, op, limit) : undefined;
  if (c) {
    if (laneSlots.length < 2 * c.slots) laneSlots = new Float64Array(2 * c.slots);
    const got = laneSlots;
    const ways = c.accesses.map(({ access, slot }) => ({
      access,
      address: (k: number) => got[2 * (slot + (k >>> 2))],
      out: (k: number) => got[2 * (slot + (k >>> 2)) + 1] === 1,
    }));
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.active(lane)) continue;
      c.run(w.readVgpr(f.addr, lane), got);
      for (const { access: x, address, out } of ways)
        laneAccess(space, x.op, w, lane, x.data, x.src, x.src2, x.returns, address, out);
    }
    return;
  }
  for (let lane = 0; lane < w.lanes; lane++) {
    if (!w.active(lane)) continue;
    for (const x of dsAccesses(concrete, gen, inst, op, w.readVgpr(f.addr, lane), limit))
      laneAccess(space, x.op, w, lane, x.data, x.src, x.src2, x.returns, x.address, x.out);
  }
}

/**
 * The lane ds_permute_b32 / ds_bpermute_b32 address: (ADDR + offset) / 4 modulo the wave size;
 * on gfx10+ in wave64, modulo 32 within this lane's half (RDNA3 ISA, DS_BPERMUTE_B32: "destination
 * lane is MOD 32 regardless of wave size", + 32 in the upper half). Over the algebra, so the
 * translator's lane (a word) goes through the same rule.
 */
export function permuteLane<V, B>(a: Algebra<V, B>, gen: Gen, lanes: number, addr: V, offset: number, lane: V): V {
  const half = lanes === 64 && gen >= Gen.GFX10;
  const index = a.and(a.lshr(a.add(addr, a.word(offset)), a.word(2)), a.word(half ? 31 : lanes - 1));
  return half ? a.or(index, a.and(lane, a.word(32))) : index;
}

/**
 * ds_swizzle_b32 (its data is the ADDR operand): every mode of the Vega / RDNA3.5 pseudocode
 * (FFT, rotate, quad permute, bit masks), lane maps from `swizzleSourceLane`
 * (src/semantics/wave-lanes.ts; the rotate/FFT modes are refused before the dispatch on
 * gfx7/8, `swizzleRefusal`). ds_bpermute_b32 reads lane `(addr + offset) / 4` of DATA0;
 * ds_permute_b32 writes DATA0 to that lane (the highest writer wins; unwritten lanes get 0).
 * Lane indices wrap at the wave size (Vega ISA: "thread_id is 0..63"; the RDNA wave32 index
 * is address bits [6:2]), and at 32 within each half of a gfx10+ wave64 (which is why ACO
 * swaps halves through shared VGPRs there). An inactive source lane reads 0 ("reading from an invalid thread
 * results in 0x0").
 */
function laneExchange(
  w: Wave,
  kind: 'swizzle' | 'permute' | 'bpermute',
  f: Instruction['fields'],
  offset: number,
): void {
  const n = w.lanes;
  const src = new Uint32Array(n);
  for (let l = 0; l < n; l++) src[l] = w.active(l) ? w.readVgpr(kind === 'swizzle' ? f.addr : f.data0, l) : 0;
  const out = new Uint32Array(n);
  if (kind === 'swizzle') {
    for (let l = 0; l < n; l++) out[l] = src[swizzleSourceLane(offset, l)] ?? 0;
  } else
    for (let l = 0; l < n; l++) {
      if (!w.active(l)) continue;
      const target = permuteLane(concrete, w.target.gen, n, w.readVgpr(f.addr, l), offset, l);
      if (kind === 'bpermute') out[l] = src[target];
      else out[target] = src[l];
    }
  for (let l = 0; l < n; l++) if (w.active(l)) w.writeVgpr(f.vdst, l, out[l]);
}
