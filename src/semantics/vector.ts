/**
 * Semantics of the vector ALU (VOP1, VOP2, VOPC, VOP3 incl. VOP3B, VOP3P) keyed by registry
 * name (D003), each run once per active lane through a `LaneContext` (lane-context.ts),
 * which applies the encoding's input and output modifiers and gathers lane-mask writes.
 *
 * Sources: AMD's ISA documents, the VOP1/VOP2/VOPC/VOP3/VOP3P opcode descriptions of the
 * Sea Islands (gfx7), GCN3 (gfx8), Vega (gfx9), RDNA1/2 (gfx10) and RDNA3 (gfx11)
 * references (RDNA3's pseudocode where the older prose is vague). Names follow the
 * registry, so one name may have different operands per generation (gfx8's `v_add_u32`
 * writes a carry, gfx9's does not): the functions read `c.def.operands` for that.
 *
 * Names left out are in `VECTOR_UNCOVERED` (wave-level: cross-lane, or another reason), and
 * vector.test.ts lists every VOP name that has no function, so nothing is silently missing.
 */
import { Gen, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { Attr, type Family, type InstructionDef } from '../isa/registry/types.ts';
import type { Algebra, FloatMode, FloatPredicate, FloatUnary, Pair, RoundKind } from './algebra.ts';
import { SemanticsRefusal } from './context.ts';
import {
  createLaneContext,
  flushMasks,
  laneEncodingRefusal,
  type LaneContext,
  type MaskWrites,
  type VectorState,
} from './lane-context.ts';
import { ashr64, lshr64, shl64 } from './wide.ts';

export type VectorSemantics = <V, B>(c: LaneContext<V, B>) => void;

export const VALU_FAMILIES: readonly Family[] = ['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P'];

// ---- operand access by field (cached per definition) ----

const fieldIndex = new WeakMap<InstructionDef, Map<string, number>>();
function ix(def: InstructionDef, field: string): number {
  let m = fieldIndex.get(def);
  if (!m) {
    m = new Map();
    def.operands.forEach((o, i) => {
      const key = `${o.role}:${o.field}`;
      if (!m!.has(key)) m!.set(key, i);
    });
    fieldIndex.set(def, m);
  }
  const i = m.get(field);
  if (i === undefined) throw new Error(`semantics of ${def.name}: no operand ${field}`);
  return i;
}
const has = (def: InstructionDef, field: string): boolean => def.operands.some((o) => `${o.role}:${o.field}` === field);
const S = <V, B>(c: LaneContext<V, B>, n: number): V => c.src(ix(c.def, `src:src${n}`));
const SP = <V, B>(c: LaneContext<V, B>, n: number): Pair<V> => c.srcPair(ix(c.def, `src:src${n}`));
const S16 = <V, B>(c: LaneContext<V, B>, n: number): V => c.src16(ix(c.def, `src:src${n}`));
const K = <V, B>(c: LaneContext<V, B>): V => c.src(ix(c.def, 'src:simm32'));
const D = <V, B>(c: LaneContext<V, B>, v: V): void => c.dst(ix(c.def, 'dst:vdst'), v);
const DP = <V, B>(c: LaneContext<V, B>, v: Pair<V>): void => c.dstPair(ix(c.def, 'dst:vdst'), v);
const D16 = <V, B>(c: LaneContext<V, B>, v: V): void => c.dst16(ix(c.def, 'dst:vdst'), v);
const OLD = <V, B>(c: LaneContext<V, B>): V => c.old(ix(c.def, 'dst:vdst'));
const carryIn = <V, B>(c: LaneContext<V, B>): B => c.laneMask(ix(c.def, 'src:src2'));
const setCarry = <V, B>(c: LaneContext<V, B>, b: B): void => c.setLaneMask(ix(c.def, 'dst:sdst'), b);

// ---- shapes ----

type F1 = <V, B>(a: Algebra<V, B>, x: V, m: FloatMode) => V;
type F2 = <V, B>(a: Algebra<V, B>, x: V, y: V, m: FloatMode) => V;
type F3 = <V, B>(a: Algebra<V, B>, x: V, y: V, z: V, m: FloatMode) => V;
type I1 = <V, B>(a: Algebra<V, B>, x: V) => V;
type I2 = <V, B>(a: Algebra<V, B>, x: V, y: V) => V;
type I3 = <V, B>(a: Algebra<V, B>, x: V, y: V, z: V) => V;

const un =
  (f: F1): VectorSemantics =>
  (c) =>
    D(c, f(c.alg, S(c, 0), c.mode));
const bin =
  (f: F2): VectorSemantics =>
  (c) =>
    D(c, f(c.alg, S(c, 0), S(c, 1), c.mode));
const tri =
  (f: F3): VectorSemantics =>
  (c) =>
    D(c, f(c.alg, S(c, 0), S(c, 1), S(c, 2), c.mode));
const iun =
  (f: I1): VectorSemantics =>
  (c) =>
    D(c, f(c.alg, S(c, 0)));
const ibin =
  (f: I2): VectorSemantics =>
  (c) =>
    D(c, f(c.alg, S(c, 0), S(c, 1)));
const itri =
  (f: I3): VectorSemantics =>
  (c) =>
    D(c, f(c.alg, S(c, 0), S(c, 1), S(c, 2)));

/** f16 through f32: exact widening, the f32 operation, one rounding back (for add, sub, mul, sqrt: innocuous double rounding, since 24 >= 2 * 11 + 2). */
const h2f = <V, B>(a: Algebra<V, B>, x: V, m: FloatMode): V => a.fFromF16(x, m);
const f2h = <V, B>(a: Algebra<V, B>, x: V, m: FloatMode): V => a.fToF16(x, false, m);
const hun =
  (f: F1): VectorSemantics =>
  (c) =>
    D16(c, f2h(c.alg, f(c.alg, h2f(c.alg, S16(c, 0), c.mode), c.mode), c.mode));
const hbin =
  (f: F2): VectorSemantics =>
  (c) =>
    D16(c, f2h(c.alg, f(c.alg, h2f(c.alg, S16(c, 0), c.mode), h2f(c.alg, S16(c, 1), c.mode), c.mode), c.mode));

const SIGN = 0x80000000;
const neg32 = <V, B>(a: Algebra<V, B>, x: V): V => a.xor(x, a.word(SIGN));
const isNan = <V, B>(a: Algebra<V, B>, x: V, m: FloatMode): B => a.fCmp('u', x, x, m);

/** Vega ISA, V_MAD_F32 / V_MAC_F32: "D = S0 * S1 + S2", rounded after the multiply; no f32 denormals (LLVM selects them only with f32 denormals off: SIISelLowering, "v_mad_f32 does not support denormals"). */
const madMode = (m: FloatMode): FloatMode => ({ ...m, f32Denormals: false });
const mad32: F3 = (a, x, y, z, m) => a.fAdd(a.fMul(x, y, madMode(m)), z, madMode(m));
const fma32: F3 = (a, x, y, z, m) => a.fFma(x, y, z, m);

/** Vega ISA, V_FRACT_F32: "D = S0 - floor(S0)", kept below 1.0 (0x3f7fffff) as RDNA3's pseudocode does; NaN/inf give NaN. */
const fract32: F1 = (a, x, m) => {
  const r = a.fAdd(x, neg32(a, a.fRound('floor', x, m)), m);
  return a.select(isNan(a, r, m), r, a.fMin(r, a.word(0x3f7fffff), m));
};
const unary =
  (k: FloatUnary): F1 =>
  (a, x, m) =>
    a.fUnary(k, x, m);
const round =
  (k: RoundKind): F1 =>
  (a, x, m) =>
    a.fRound(k, x, m);

/** RDNA3 V_MED3_F32: any NaN gives min3; else the median. */
const med3f: F3 = (a, x, y, z, m) => {
  const min3 = a.fMin(a.fMin(x, y, m), z, m);
  const med = a.fMax(a.fMin(x, y, m), a.fMin(a.fMax(x, y, m), z, m), m);
  const anyNan = a.boolOr(isNan(a, x, m), a.boolOr(isNan(a, y, m), isNan(a, z, m)));
  return a.select(anyNan, min3, med);
};
const med3i =
  (signed: boolean): I3 =>
  (a, x, y, z) => {
    const mn = signed ? a.minI : a.minU;
    const mx = signed ? a.maxI : a.maxU;
    return mx(mn(x, y), mn(mx(x, y), z));
  };

const sext24 = <V, B>(a: Algebra<V, B>, x: V): V => a.ashr(a.shl(x, a.word(8)), a.word(8));
const u24 = <V, B>(a: Algebra<V, B>, x: V): V => a.and(x, a.word(0xffffff));
const absDiff = <V, B>(a: Algebra<V, B>, x: V, y: V): V => a.select(a.ltU(x, y), a.sub(y, x), a.sub(x, y));
const byte = <V, B>(a: Algebra<V, B>, x: V, i: number): V => a.and(a.lshr(x, a.word(8 * i)), a.word(0xff));
const half = <V, B>(a: Algebra<V, B>, x: V, i: number): V => a.and(a.lshr(x, a.word(16 * i)), a.word(0xffff));

/** Vega ISA, V_PERM_B32: byte_permute({S0, S1}, selector byte): 0-7 a byte, 8-11 a byte's sign, 12 zero, 13+ 0xff. */
function permByte<V, B>(a: Algebra<V, B>, s0: V, s1: V, sel: V): V {
  const w = a.word;
  const data = a.lshr(a.select(a.ltU(sel, w(4)), s1, s0), a.shl(a.and(sel, w(3)), w(3)));
  const plain = a.and(data, w(0xff));
  // 8 → bit 15 of S1, 9 → bit 31 of S1, 10 → bit 15 of S0, 11 → bit 31 of S0.
  const k = a.sub(sel, w(8));
  const src = a.select(a.ltU(k, w(2)), s1, s0);
  const pos = a.select(a.toBool(a.and(k, w(1))), w(31), w(15));
  const signByte = a.mulLo(a.and(a.lshr(src, pos), w(1)), w(0xff));
  return a.select(
    a.ltU(sel, w(8)),
    plain,
    a.select(a.ltU(sel, w(12)), signByte, a.select(a.eq(sel, w(12)), w(0), w(0xff))),
  );
}

/** ({hi, lo} >> n) & 0xffffffff for n in 0..31 (v_alignbit_b32). */
function align<V, B>(a: Algebra<V, B>, hi: V, lo: V, n: V): V {
  const k = a.and(n, a.word(31));
  return a.select(a.eq(k, a.word(0)), lo, a.or(a.lshr(lo, k), a.shl(hi, a.sub(a.word(32), k))));
}

/** Add/sub with the carry or borrow written to sdst when the definition has one (gfx7 v_add_i32, gfx8 v_add_u32, gfx9 v_add_co_u32). */
function addSub(kind: 'add' | 'sub' | 'subrev', withCarryIn = false): VectorSemantics {
  return (c) => {
    const a = c.alg;
    let x = S(c, 0);
    let y = S(c, 1);
    if (kind === 'subrev') [x, y] = [y, x];
    const cin = withCarryIn ? carryIn(c) : a.bool(false);
    const [d, carry] = kind === 'add' ? a.addCarry(x, y, cin) : a.subBorrow(x, y, cin);
    const signed = /_i32$/.test(c.def.name) && !has(c.def, 'dst:sdst');
    let r = d;
    if (c.clamp) {
      if (signed) {
        const ovf =
          kind === 'add'
            ? a.ltI(a.and(a.xor(x, d), a.xor(y, d)), a.word(0))
            : a.ltI(a.and(a.xor(x, y), a.xor(x, d)), a.word(0));
        r = a.select(ovf, a.select(a.ltI(x, a.word(0)), a.word(SIGN), a.word(0x7fffffff)), d);
      } else r = a.select(carry, a.word(kind === 'add' ? 0xffffffff : 0), d);
    }
    D(c, r);
    if (has(c.def, 'dst:sdst')) setCarry(c, carry);
  };
}

/** 16-bit integer add/sub (gfx8+ v_add_u16, gfx10 v_add_nc_u16/i16): wraps, or saturates with clamp. */
function addSub16(kind: 'add' | 'sub' | 'subrev', signed: boolean): VectorSemantics {
  return (c) => {
    const a = c.alg;
    let x = S16(c, 0);
    let y = S16(c, 1);
    if (kind === 'subrev') [x, y] = [y, x];
    if (signed) {
      x = a.sext(x, 16);
      y = a.sext(y, 16);
    }
    const d = kind === 'add' ? a.add(x, y) : a.sub(x, y);
    let r = d;
    if (c.clamp)
      r = signed
        ? a.minI(a.maxI(d, a.word(0xffff8000)), a.word(0x7fff))
        : a.select(a.ltI(d, a.word(0)), a.word(0), a.minU(d, a.word(0xffff)));
    D16(c, r);
  };
}

/** Integer compare predicate over words (signed or unsigned). */
function intPred<V, B>(a: Algebra<V, B>, p: string, x: V, y: V, signed: boolean): B {
  const lt = signed ? a.ltI : a.ltU;
  const le = signed ? a.leI : a.leU;
  switch (p) {
    case 'f':
      return a.bool(false);
    case 't':
      return a.bool(true);
    case 'eq':
      return a.eq(x, y);
    case 'ne':
    case 'lg':
      return a.ne(x, y);
    case 'lt':
      return lt(x, y);
    case 'le':
      return le(x, y);
    case 'gt':
      return lt(y, x);
    case 'ge':
      return le(y, x);
  }
  throw new Error(`integer predicate ${p}`);
}
function intPred64<V, B>(a: Algebra<V, B>, p: string, x: Pair<V>, y: Pair<V>, signed: boolean): B {
  const eq = a.boolAnd(a.eq(x[0], y[0]), a.eq(x[1], y[1]));
  const ltHi = signed ? a.ltI(x[1], y[1]) : a.ltU(x[1], y[1]);
  const lt = a.boolOr(ltHi, a.boolAnd(a.eq(x[1], y[1]), a.ltU(x[0], y[0])));
  const gtHi = signed ? a.ltI(y[1], x[1]) : a.ltU(y[1], x[1]);
  const gt = a.boolOr(gtHi, a.boolAnd(a.eq(x[1], y[1]), a.ltU(y[0], x[0])));
  switch (p) {
    case 'f':
      return a.bool(false);
    case 't':
      return a.bool(true);
    case 'eq':
      return eq;
    case 'ne':
    case 'lg':
      return a.boolNot(eq);
    case 'lt':
      return lt;
    case 'le':
      return a.boolNot(gt);
    case 'gt':
      return gt;
    case 'ge':
      return a.boolNot(lt);
  }
  throw new Error(`integer predicate ${p}`);
}

/** The class index (Vega ISA, V_CMP_CLASS_F32's S1 bits) of an f32 from its bits: 0 sNaN … 9 +inf. */
function classIndex<V, B>(a: Algebra<V, B>, hiExp: V, expMax: number, fracNonZero: B, quietBit: B, neg: B): V {
  const w = a.word;
  const s = (n: number, p: number): V => a.select(neg, w(n), w(p));
  const isMax = a.eq(hiExp, w(expMax));
  const isZeroExp = a.eq(hiExp, w(0));
  return a.select(
    isMax,
    a.select(fracNonZero, a.select(quietBit, w(1), w(0)), s(2, 9)),
    a.select(isZeroExp, a.select(fracNonZero, s(4, 7), s(5, 6)), s(3, 8)),
  );
}

/** VOPC: compute this lane's result, write sdst (when the definition has it) and EXEC for v_cmpx. */
function vopc(test: <V, B>(c: LaneContext<V, B>) => B): VectorSemantics {
  return (c) => {
    const r = test(c);
    if (has(c.def, 'dst:sdst')) setCarry(c, r);
    if ((c.def.attrs & Attr.WritesExec) !== 0) c.setExecBit(r);
  };
}

function floatCompare(p: FloatPredicate, width: 16 | 32 | 64): VectorSemantics {
  return vopc((c) => {
    const a = c.alg;
    if (width === 64) return a.dCmp(p, SP(c, 0), SP(c, 1), c.mode);
    if (width === 16) return a.fCmp(p, h2f(a, S16(c, 0), c.mode), h2f(a, S16(c, 1), c.mode), c.mode);
    return a.fCmp(p, S(c, 0), S(c, 1), c.mode);
  });
}
function intCompare(p: string, type: string): VectorSemantics {
  const signed = type.startsWith('i');
  return vopc((c) => {
    const a = c.alg;
    if (type.endsWith('64')) return intPred64(a, p, SP(c, 0), SP(c, 1), signed);
    if (type.endsWith('16')) {
      const x = S16(c, 0);
      const y = S16(c, 1);
      return intPred(a, p, signed ? a.sext(x, 16) : x, signed ? a.sext(y, 16) : y, signed);
    }
    return intPred(a, p, S(c, 0), S(c, 1), signed);
  });
}
function classCompare(width: 16 | 32 | 64): VectorSemantics {
  return vopc((c) => {
    const a = c.alg;
    const w = a.word;
    const mask = S(c, 1);
    let idx: V0<typeof a>;
    if (width === 64) {
      const [lo, hi] = SP(c, 0);
      const exp = a.and(a.lshr(hi, w(20)), w(0x7ff));
      const frac = a.boolOr(a.toBool(lo), a.toBool(a.and(hi, w(0xfffff))));
      idx = classIndex(a, exp, 0x7ff, frac, a.toBool(a.and(hi, w(0x80000))), a.ltI(hi, w(0)));
    } else if (width === 16) {
      const x = S16(c, 0);
      const exp = a.and(a.lshr(x, w(10)), w(0x1f));
      idx = classIndex(
        a,
        exp,
        0x1f,
        a.toBool(a.and(x, w(0x3ff))),
        a.toBool(a.and(x, w(0x200))),
        a.toBool(a.and(x, w(0x8000))),
      );
    } else {
      const x = S(c, 0);
      const exp = a.and(a.lshr(x, w(23)), w(0xff));
      idx = classIndex(a, exp, 0xff, a.toBool(a.and(x, w(0x7fffff))), a.toBool(a.and(x, w(0x400000))), a.ltI(x, w(0)));
    }
    return a.toBool(a.and(a.lshr(mask, idx), w(1)));
  });
}
type V0<A> = A extends Algebra<infer V, unknown> ? V : never;

// ---- the table ----

const SEMANTICS: Record<string, VectorSemantics> = {
  v_nop: () => {},
  v_mov_b32: iun((_a, x) => x),
  v_not_b32: iun((a, x) => a.not(x)),
  v_bfrev_b32: iun((a, x) => a.brev(x)),
  // Vega ISA V_FFBH_U32 / V_FFBL_B32 / V_FFBH_I32: 0xffffffff when no bit is found (gfx11: v_clz/v_ctz/v_cls).
  v_ffbh_u32: iun((a, x) => a.findMsbFromTop(x)),
  v_clz_i32_u32: iun((a, x) => a.findMsbFromTop(x)),
  v_ffbl_b32: iun((a, x) => a.findLsb(x)),
  v_ctz_i32_b32: iun((a, x) => a.findLsb(x)),
  v_ffbh_i32: iun((a, x) => a.findMsbFromTop(a.select(a.ltI(x, a.word(0)), a.not(x), x))),
  v_cls_i32: iun((a, x) => a.findMsbFromTop(a.select(a.ltI(x, a.word(0)), a.not(x), x))),
  v_cvt_f32_i32: iun((a, x) => a.fFromI32(x)),
  v_cvt_f32_u32: iun((a, x) => a.fFromU32(x)),
  v_cvt_i32_f32: un((a, x, m) => a.fToI32(x, m)),
  v_cvt_u32_f32: un((a, x, m) => a.fToU32(x, m)),
  v_cvt_flr_i32_f32: un((a, x, m) => a.fToI32(a.fRound('floor', x, m), m)),
  v_cvt_floor_i32_f32: un((a, x, m) => a.fToI32(a.fRound('floor', x, m), m)),
  // Vega ISA V_CVT_RPI_I32_F32: "D.i = (int)floor(S0.f + 0.5)".
  v_cvt_rpi_i32_f32: un((a, x, m) => a.fToI32(a.fRound('floor', a.fAdd(x, a.word(0x3f000000), m), m), m)),
  v_cvt_nearest_i32_f32: un((a, x, m) => a.fToI32(a.fRound('floor', a.fAdd(x, a.word(0x3f000000), m), m), m)),
  v_cvt_f32_ubyte0: iun((a, x) => a.fFromU32(byte(a, x, 0))),
  v_cvt_f32_ubyte1: iun((a, x) => a.fFromU32(byte(a, x, 1))),
  v_cvt_f32_ubyte2: iun((a, x) => a.fFromU32(byte(a, x, 2))),
  v_cvt_f32_ubyte3: iun((a, x) => a.fFromU32(byte(a, x, 3))),
  v_cvt_f16_f32: (c) => D16(c, c.alg.fToF16(S(c, 0), false, c.mode)),
  v_cvt_f32_f16: (c) => D(c, c.alg.fFromF16(S16(c, 0), c.mode)),
  v_cvt_f32_f64: (c) => D(c, c.alg.dToF32(SP(c, 0), c.mode)),
  v_cvt_f64_f32: (c) => DP(c, c.alg.dFromF32(S(c, 0), c.mode)),
  v_cvt_f64_i32: (c) => DP(c, c.alg.dFromI32(S(c, 0))),
  v_cvt_f64_u32: (c) => DP(c, c.alg.dFromU32(S(c, 0))),
  v_cvt_i32_f64: (c) => D(c, c.alg.dToI32(SP(c, 0), c.mode)),
  v_cvt_u32_f64: (c) => D(c, c.alg.dToU32(SP(c, 0), c.mode)),
  v_cvt_i32_i16: (c) => D(c, c.alg.sext(S16(c, 0), 16)),
  v_cvt_u32_u16: (c) => D(c, S16(c, 0)),
  v_floor_f32: un(round('floor')),
  v_ceil_f32: un(round('ceil')),
  v_trunc_f32: un(round('trunc')),
  v_rndne_f32: un(round('rndne')),
  v_fract_f32: un(fract32),
  v_rcp_f32: un(unary('rcp')),
  v_rcp_iflag_f32: un(unary('rcp')),
  v_rsq_f32: un(unary('rsq')),
  v_sqrt_f32: un(unary('sqrt')),
  v_exp_f32: un(unary('exp')),
  v_log_f32: un(unary('log')),
  v_sin_f32: un(unary('sin')),
  v_cos_f32: un(unary('cos')),
  v_frexp_mant_f32: un((a, x, m) => a.fFrexpMant(x, m)),
  v_frexp_exp_i32_f32: un((a, x, m) => a.fFrexpExp(x, m)),
  v_floor_f64: (c) => DP(c, c.alg.dRound('floor', SP(c, 0), c.mode)),
  v_ceil_f64: (c) => DP(c, c.alg.dRound('ceil', SP(c, 0), c.mode)),
  v_trunc_f64: (c) => DP(c, c.alg.dRound('trunc', SP(c, 0), c.mode)),
  v_rndne_f64: (c) => DP(c, c.alg.dRound('rndne', SP(c, 0), c.mode)),
  v_rcp_f64: (c) => DP(c, c.alg.dUnary('rcp', SP(c, 0), c.mode)),
  v_rsq_f64: (c) => DP(c, c.alg.dUnary('rsq', SP(c, 0), c.mode)),
  v_sqrt_f64: (c) => DP(c, c.alg.dUnary('sqrt', SP(c, 0), c.mode)),
  v_frexp_mant_f64: (c) => DP(c, c.alg.dFrexpMant(SP(c, 0), c.mode)),
  v_frexp_exp_i32_f64: (c) => D(c, c.alg.dFrexpExp(SP(c, 0), c.mode)),
  v_fract_f64: (c) => {
    const a = c.alg;
    const x = SP(c, 0);
    const fl = a.dRound('floor', x, c.mode);
    const r = a.dAdd(x, [fl[0], a.xor(fl[1], a.word(SIGN))], c.mode);
    const capped = a.dMin(r, [a.word(0xffffffff), a.word(0x3fefffff)], c.mode);
    const nan = a.dCmp('u', r, r, c.mode);
    DP(c, [a.select(nan, r[0], capped[0]), a.select(nan, r[1], capped[1])]);
  },
  // f16 through f32 (lane-context/D003 known limits: rcp/rsq/exp/log/sin/cos round twice).
  v_floor_f16: hun(round('floor')),
  v_ceil_f16: hun(round('ceil')),
  v_trunc_f16: hun(round('trunc')),
  v_rndne_f16: hun(round('rndne')),
  v_fract_f16: hun(fract32),
  v_rcp_f16: hun(unary('rcp')),
  v_rsq_f16: hun(unary('rsq')),
  v_sqrt_f16: hun(unary('sqrt')),
  v_exp_f16: hun(unary('exp')),
  v_log_f16: hun(unary('log')),
  v_sin_f16: hun(unary('sin')),
  v_cos_f16: hun(unary('cos')),

  // VOP2 float
  v_add_f32: bin((a, x, y, m) => a.fAdd(x, y, m)),
  v_sub_f32: bin((a, x, y, m) => a.fAdd(x, neg32(a, y), m)),
  v_subrev_f32: bin((a, x, y, m) => a.fAdd(y, neg32(a, x), m)),
  v_mul_f32: bin((a, x, y, m) => a.fMul(x, y, m)),
  v_min_f32: bin((a, x, y, m) => a.fMin(x, y, m)),
  v_max_f32: bin((a, x, y, m) => a.fMax(x, y, m)),
  v_ldexp_f32: bin((a, x, n, m) => a.fLdexp(x, n, m)),
  v_mac_f32: (c) => D(c, mad32(c.alg, S(c, 0), S(c, 1), OLD(c), c.mode)),
  v_fmac_f32: (c) => D(c, fma32(c.alg, S(c, 0), S(c, 1), OLD(c), c.mode)),
  v_madmk_f32: (c) => D(c, mad32(c.alg, S(c, 0), K(c), S(c, 1), c.mode)),
  v_madak_f32: (c) => D(c, mad32(c.alg, S(c, 0), S(c, 1), K(c), c.mode)),
  v_fmamk_f32: (c) => D(c, fma32(c.alg, S(c, 0), K(c), S(c, 1), c.mode)),
  v_fmaak_f32: (c) => D(c, fma32(c.alg, S(c, 0), S(c, 1), K(c), c.mode)),
  v_add_f16: hbin((a, x, y, m) => a.fAdd(x, y, m)),
  v_sub_f16: hbin((a, x, y, m) => a.fAdd(x, neg32(a, y), m)),
  v_subrev_f16: hbin((a, x, y, m) => a.fAdd(y, neg32(a, x), m)),
  v_mul_f16: hbin((a, x, y, m) => a.fMul(x, y, m)),
  v_min_f16: hbin((a, x, y, m) => a.fMin(x, y, m)),
  v_max_f16: hbin((a, x, y, m) => a.fMax(x, y, m)),
  // Vega ISA V_CNDMASK_B32: "D = VCC[lane] ? S1 : S0".
  v_cndmask_b32: (c) => D(c, c.alg.select(carryIn(c), S(c, 1), S(c, 0))),
  // Vega ISA V_CVT_PKRTZ_F16_F32: "D = {flt32_to_flt16(S1) rtz, flt32_to_flt16(S0) rtz}".
  v_cvt_pkrtz_f16_f32: (c) => {
    const a = c.alg;
    D(c, a.or(a.fToF16(S(c, 0), true, c.mode), a.shl(a.fToF16(S(c, 1), true, c.mode), a.word(16))));
  },
  v_cvt_pk_rtz_f16_f32: (c) => {
    const a = c.alg;
    D(c, a.or(a.fToF16(S(c, 0), true, c.mode), a.shl(a.fToF16(S(c, 1), true, c.mode), a.word(16))));
  },
  // Vega ISA V_CVT_PK_U16_U32 / V_CVT_PK_I16_I32: each source saturated to 16 bits, S1 high.
  v_cvt_pk_u16_u32: ibin((a, x, y) => a.or(a.minU(x, a.word(0xffff)), a.shl(a.minU(y, a.word(0xffff)), a.word(16)))),
  v_cvt_pk_i16_i32: ibin((a, x, y) => {
    const sat = (v: typeof x) => a.and(a.minI(a.maxI(v, a.word(0xffff8000)), a.word(0x7fff)), a.word(0xffff));
    return a.or(sat(x), a.shl(sat(y), a.word(16)));
  }),

  // VOP2 / VOP3 integer
  v_add_u32: addSub('add'),
  v_sub_u32: addSub('sub'),
  v_subrev_u32: addSub('subrev'),
  v_add_i32: addSub('add'),
  v_sub_i32: addSub('sub'),
  v_subrev_i32: addSub('subrev'),
  v_add_co_u32: addSub('add'),
  v_sub_co_u32: addSub('sub'),
  v_subrev_co_u32: addSub('subrev'),
  v_add_nc_u32: addSub('add'),
  v_sub_nc_u32: addSub('sub'),
  v_subrev_nc_u32: addSub('subrev'),
  v_add_nc_i32: addSub('add'),
  v_sub_nc_i32: addSub('sub'),
  v_addc_u32: addSub('add', true),
  v_addc_co_u32: addSub('add', true),
  v_add_co_ci_u32: addSub('add', true),
  v_subb_u32: addSub('sub', true),
  v_subb_co_u32: addSub('sub', true),
  v_sub_co_ci_u32: addSub('sub', true),
  v_subbrev_u32: addSub('subrev', true),
  v_subbrev_co_u32: addSub('subrev', true),
  v_subrev_co_ci_u32: addSub('subrev', true),
  v_add_u16: addSub16('add', false),
  v_sub_u16: addSub16('sub', false),
  v_subrev_u16: addSub16('subrev', false),
  v_add_nc_u16: addSub16('add', false),
  v_sub_nc_u16: addSub16('sub', false),
  v_add_i16: addSub16('add', true),
  v_sub_i16: addSub16('sub', true),
  v_add_nc_i16: addSub16('add', true),
  v_sub_nc_i16: addSub16('sub', true),
  v_mul_lo_u32: ibin((a, x, y) => a.mulLo(x, y)),
  v_mul_lo_i32: ibin((a, x, y) => a.mulLo(x, y)),
  v_mul_hi_u32: ibin((a, x, y) => a.mulHiU(x, y)),
  v_mul_hi_i32: ibin((a, x, y) => a.mulHiI(x, y)),
  // Vega ISA V_MUL_U32_U24: "D.u = S0.u[23:0] * S1.u[23:0]"; _HI_ gives bits 47:32; the i24 forms sign-extend.
  v_mul_u32_u24: ibin((a, x, y) => a.mulLo(u24(a, x), u24(a, y))),
  v_mul_hi_u32_u24: ibin((a, x, y) => a.mulHiU(u24(a, x), u24(a, y))),
  v_mul_i32_i24: ibin((a, x, y) => a.mulLo(sext24(a, x), sext24(a, y))),
  v_mul_hi_i32_i24: ibin((a, x, y) => a.mulHiI(sext24(a, x), sext24(a, y))),
  v_mad_u32_u24: itri((a, x, y, z) => a.add(a.mulLo(u24(a, x), u24(a, y)), z)),
  v_mad_i32_i24: itri((a, x, y, z) => a.add(a.mulLo(sext24(a, x), sext24(a, y)), z)),
  // Vega ISA V_MAD_U64_U32: "{vcc_out, D.u64} = S0.u32 * S1.u32 + S2.u64".
  v_mad_u64_u32: (c) => {
    const a = c.alg;
    const x = S(c, 0);
    const y = S(c, 1);
    const z = SP(c, 2);
    const [lo, c0] = a.addCarry(a.mulLo(x, y), z[0], a.bool(false));
    const [hi, c1] = a.addCarry(a.mulHiU(x, y), z[1], c0);
    DP(c, [lo, hi]);
    setCarry(c, c1);
  },
  v_min_i32: ibin((a, x, y) => a.minI(x, y)),
  v_max_i32: ibin((a, x, y) => a.maxI(x, y)),
  v_min_u32: ibin((a, x, y) => a.minU(x, y)),
  v_max_u32: ibin((a, x, y) => a.maxU(x, y)),
  v_min3_i32: itri((a, x, y, z) => a.minI(a.minI(x, y), z)),
  v_max3_i32: itri((a, x, y, z) => a.maxI(a.maxI(x, y), z)),
  v_min3_u32: itri((a, x, y, z) => a.minU(a.minU(x, y), z)),
  v_max3_u32: itri((a, x, y, z) => a.maxU(a.maxU(x, y), z)),
  v_med3_i32: itri(med3i(true)),
  v_med3_u32: itri(med3i(false)),
  v_maxmin_i32: itri((a, x, y, z) => a.minI(a.maxI(x, y), z)),
  v_minmax_i32: itri((a, x, y, z) => a.maxI(a.minI(x, y), z)),
  v_maxmin_u32: itri((a, x, y, z) => a.minU(a.maxU(x, y), z)),
  v_minmax_u32: itri((a, x, y, z) => a.maxU(a.minU(x, y), z)),
  v_min3_f32: tri((a, x, y, z, m) => a.fMin(a.fMin(x, y, m), z, m)),
  v_max3_f32: tri((a, x, y, z, m) => a.fMax(a.fMax(x, y, m), z, m)),
  v_med3_f32: tri(med3f),
  v_maxmin_f32: tri((a, x, y, z, m) => a.fMin(a.fMax(x, y, m), z, m)),
  v_minmax_f32: tri((a, x, y, z, m) => a.fMax(a.fMin(x, y, m), z, m)),
  // Shifts: the count is S[4:0] (the algebra masks); the rev forms shift S1 by S0.
  v_lshlrev_b32: ibin((a, x, y) => a.shl(y, x)),
  v_lshrrev_b32: ibin((a, x, y) => a.lshr(y, x)),
  v_ashrrev_i32: ibin((a, x, y) => a.ashr(y, x)),
  v_lshl_b32: ibin((a, x, y) => a.shl(x, y)),
  v_lshr_b32: ibin((a, x, y) => a.lshr(x, y)),
  v_ashr_i32: ibin((a, x, y) => a.ashr(x, y)),
  v_lshlrev_b64: (c) => DP(c, shl64(c.alg, SP(c, 1), S(c, 0))),
  v_lshrrev_b64: (c) => DP(c, lshr64(c.alg, SP(c, 1), S(c, 0))),
  v_ashrrev_i64: (c) => DP(c, ashr64(c.alg, SP(c, 1), S(c, 0))),
  v_lshl_b64: (c) => DP(c, shl64(c.alg, SP(c, 0), S(c, 1))),
  v_lshr_b64: (c) => DP(c, lshr64(c.alg, SP(c, 0), S(c, 1))),
  v_ashr_i64: (c) => DP(c, ashr64(c.alg, SP(c, 0), S(c, 1))),
  // 16-bit shifts: count S0[3:0].
  v_lshlrev_b16: (c) => D16(c, c.alg.shl(S16(c, 1), c.alg.and(S16(c, 0), c.alg.word(15)))),
  v_lshrrev_b16: (c) => D16(c, c.alg.lshr(S16(c, 1), c.alg.and(S16(c, 0), c.alg.word(15)))),
  v_ashrrev_i16: (c) => D16(c, c.alg.ashr(c.alg.sext(S16(c, 1), 16), c.alg.and(S16(c, 0), c.alg.word(15)))),
  v_and_b32: ibin((a, x, y) => a.and(x, y)),
  v_or_b32: ibin((a, x, y) => a.or(x, y)),
  v_xor_b32: ibin((a, x, y) => a.xor(x, y)),
  v_xnor_b32: ibin((a, x, y) => a.not(a.xor(x, y))),
  v_or3_b32: itri((a, x, y, z) => a.or(a.or(x, y), z)),
  v_xor3_b32: itri((a, x, y, z) => a.xor(a.xor(x, y), z)),
  v_and_or_b32: itri((a, x, y, z) => a.or(a.and(x, y), z)),
  v_lshl_or_b32: itri((a, x, y, z) => a.or(a.shl(x, y), z)),
  // Vega ISA V_LSHL_ADD_U32: "D = (S0 << S1[4:0]) + S2"; V_ADD_LSHL_U32: "(S0 + S1) << S2[4:0]".
  v_lshl_add_u32: itri((a, x, y, z) => a.add(a.shl(x, y), z)),
  v_add_lshl_u32: itri((a, x, y, z) => a.shl(a.add(x, y), z)),
  v_add3_u32: itri((a, x, y, z) => a.add(a.add(x, y), z)),
  v_xad_u32: itri((a, x, y, z) => a.add(a.xor(x, y), z)),
  v_bcnt_u32_b32: ibin((a, x, y) => a.add(a.popcount(x), y)),
  v_bfm_b32: ibin((a, x, y) => a.bfm(x, y)),
  v_bfe_u32: itri((a, x, y, z) => a.bfeU(x, y, z)),
  v_bfe_i32: itri((a, x, y, z) => a.bfeI(x, y, z)),
  // Vega ISA V_BFI_B32: "D = (S0 & S1) | (~S0 & S2)".
  v_bfi_b32: itri((a, x, y, z) => a.or(a.and(x, y), a.and(a.not(x), z))),
  // Vega ISA V_ALIGNBIT_B32: "D = ({S0, S1} >> S2[4:0]) & 0xffffffff"; V_ALIGNBYTE_B32: by 8 * S2[1:0].
  v_alignbit_b32: itri((a, x, y, z) => align(a, x, y, z)),
  v_alignbyte_b32: itri((a, x, y, z) => align(a, x, y, a.shl(a.and(z, a.word(3)), a.word(3)))),
  v_perm_b32: itri((a, x, y, z) => {
    let d = a.word(0);
    for (let i = 0; i < 4; i++) d = a.or(d, a.shl(permByte(a, x, y, byte(a, z, i)), a.word(8 * i)));
    return d;
  }),
  // Vega ISA V_SAD_U8: "D = S2 + sum |S0.byte[i] - S1.byte[i]|"; _HI_ adds the sum << 16; V_MSAD_U8 skips bytes whose S1 byte is 0.
  v_sad_u8: itri((a, x, y, z) => {
    let s = z;
    for (let i = 0; i < 4; i++) s = a.add(s, absDiff(a, byte(a, x, i), byte(a, y, i)));
    return s;
  }),
  v_sad_hi_u8: itri((a, x, y, z) => {
    let s = a.word(0);
    for (let i = 0; i < 4; i++) s = a.add(s, absDiff(a, byte(a, x, i), byte(a, y, i)));
    return a.add(z, a.shl(s, a.word(16)));
  }),
  v_msad_u8: itri((a, x, y, z) => {
    let s = z;
    for (let i = 0; i < 4; i++) {
      const r = byte(a, y, i);
      s = a.add(s, a.select(a.eq(r, a.word(0)), a.word(0), absDiff(a, byte(a, x, i), r)));
    }
    return s;
  }),
  v_sad_u16: itri((a, x, y, z) =>
    a.add(a.add(z, absDiff(a, half(a, x, 0), half(a, y, 0))), absDiff(a, half(a, x, 1), half(a, y, 1))),
  ),
  v_sad_u32: itri((a, x, y, z) => a.add(absDiff(a, x, y), z)),
  // Vega ISA V_LERP_U8: each byte ((S0 + S1 + S2[8i]) >> 1).
  v_lerp_u8: itri((a, x, y, z) => {
    let d = a.word(0);
    for (let i = 0; i < 4; i++) {
      const r = a.and(a.lshr(z, a.word(8 * i)), a.word(1));
      const v = a.lshr(a.add(a.add(byte(a, x, i), byte(a, y, i)), r), a.word(1));
      d = a.or(d, a.shl(v, a.word(8 * i)));
    }
    return d;
  }),
  // Vega ISA V_MBCNT_LO_U32_B32: "D = popcount(S0 & ThreadMask[31:0]) + S1", ThreadMask = bits below this lane; _HI_ the bits 63:32.
  v_mbcnt_lo_u32_b32: (c) => {
    const a = c.alg;
    const lane = c.laneId();
    const mask = a.select(a.ltU(lane, a.word(32)), a.bfm(lane, a.word(0)), a.word(0xffffffff));
    D(c, a.add(a.popcount(a.and(S(c, 0), mask)), S(c, 1)));
  },
  v_mbcnt_hi_u32_b32: (c) => {
    const a = c.alg;
    const lane = c.laneId();
    const mask = a.select(a.ltU(lane, a.word(32)), a.word(0), a.bfm(a.sub(lane, a.word(32)), a.word(0)));
    D(c, a.add(a.popcount(a.and(S(c, 0), mask)), S(c, 1)));
  },

  // VOP3 float
  v_fma_f32: tri(fma32),
  v_mad_f32: tri(mad32),
  v_add_f64: (c) => DP(c, c.alg.dAdd(SP(c, 0), SP(c, 1), c.mode)),
  v_mul_f64: (c) => DP(c, c.alg.dMul(SP(c, 0), SP(c, 1), c.mode)),
  v_min_f64: (c) => DP(c, c.alg.dMin(SP(c, 0), SP(c, 1), c.mode)),
  v_max_f64: (c) => DP(c, c.alg.dMax(SP(c, 0), SP(c, 1), c.mode)),
  v_fma_f64: (c) => DP(c, c.alg.dFma(SP(c, 0), SP(c, 1), SP(c, 2), c.mode)),
  v_ldexp_f64: (c) => DP(c, c.alg.dLdexp(SP(c, 0), S(c, 1), c.mode)),
  v_ldexp_f16: (c) => {
    const a = c.alg;
    // Vega ISA V_LDEXP_F16: "D.f16 = S0.f16 * (2 ** S1.i16)".
    D16(c, f2h(a, a.fLdexp(h2f(a, S16(c, 0), c.mode), a.sext(S16(c, 1), 16), c.mode), c.mode));
  },
};

// 16-bit integer (result in the low half; dst16 handles the other half).
const i16bin =
  (f: I2, signed = false): VectorSemantics =>
  (c) => {
    const a = c.alg;
    const x = S16(c, 0);
    const y = S16(c, 1);
    D16(c, f(a, signed ? a.sext(x, 16) : x, signed ? a.sext(y, 16) : y));
  };
Object.assign(SEMANTICS, {
  v_and_b16: i16bin((a, x, y) => a.and(x, y)),
  v_or_b16: i16bin((a, x, y) => a.or(x, y)),
  v_xor_b16: i16bin((a, x, y) => a.xor(x, y)),
  v_not_b16: ((c) => D16(c, c.alg.not(S16(c, 0)))) as VectorSemantics,
  v_mul_lo_u16: i16bin((a, x, y) => a.mulLo(x, y)),
  v_min_u16: i16bin((a, x, y) => a.minU(x, y)),
  v_max_u16: i16bin((a, x, y) => a.maxU(x, y)),
  v_min_i16: i16bin((a, x, y) => a.minI(x, y), true),
  v_max_i16: i16bin((a, x, y) => a.maxI(x, y), true),
  // Vega ISA V_FMA_F16: one rounding; computed as an exact f32 fma rounded to f16 (D003 known limits: may round twice).
  v_fma_f16: ((c) => {
    const a = c.alg;
    const m = c.mode;
    D16(c, f2h(a, a.fFma(h2f(a, S16(c, 0), m), h2f(a, S16(c, 1), m), h2f(a, S16(c, 2), m), m), m));
  }) as VectorSemantics,
});

/** VOP3P: per 16-bit half. */
function packed(f: <V, B>(a: Algebra<V, B>, x: V, y: V, m: FloatMode) => V): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const [x0, x1] = c.srcPacked(ix(c.def, 'src:src0'));
    const [y0, y1] = c.srcPacked(ix(c.def, 'src:src1'));
    c.dstPacked(ix(c.def, 'dst:vdst'), f(a, x0, y0, c.mode), f(a, x1, y1, c.mode));
  };
}
const ph =
  (f: F2) =>
  <V, B>(a: Algebra<V, B>, x: V, y: V, m: FloatMode): V =>
    f2h(a, f(a, h2f(a, x, m), h2f(a, y, m), m), m);
const sx = <V, B>(a: Algebra<V, B>, x: V): V => a.sext(x, 16);
Object.assign(SEMANTICS, {
  v_pk_add_f16: packed(ph((a, x, y, m) => a.fAdd(x, y, m))),
  v_pk_mul_f16: packed(ph((a, x, y, m) => a.fMul(x, y, m))),
  v_pk_min_f16: packed(ph((a, x, y, m) => a.fMin(x, y, m))),
  v_pk_max_f16: packed(ph((a, x, y, m) => a.fMax(x, y, m))),
  v_pk_add_u16: packed((a, x, y) => a.add(x, y)),
  v_pk_sub_u16: packed((a, x, y) => a.sub(x, y)),
  v_pk_add_i16: packed((a, x, y) => a.add(x, y)),
  v_pk_sub_i16: packed((a, x, y) => a.sub(x, y)),
  v_pk_mul_lo_u16: packed((a, x, y) => a.mulLo(x, y)),
  v_pk_min_u16: packed((a, x, y) => a.minU(x, y)),
  v_pk_max_u16: packed((a, x, y) => a.maxU(x, y)),
  v_pk_min_i16: packed((a, x, y) => a.minI(sx(a, x), sx(a, y))),
  v_pk_max_i16: packed((a, x, y) => a.maxI(sx(a, x), sx(a, y))),
  // Vega ISA V_PK_LSHLREV_B16: "D.u[15:0] = S1.u[15:0] << S0.u[3:0]", per half.
  v_pk_lshlrev_b16: packed((a, x, y) => a.shl(y, a.and(x, a.word(15)))),
  v_pk_lshrrev_b16: packed((a, x, y) => a.lshr(y, a.and(x, a.word(15)))),
  v_pk_ashrrev_i16: packed((a, x, y) => a.ashr(sx(a, y), a.and(x, a.word(15)))),
});

// VOPC: every predicate of every type the registry names.
const FLOAT_PREDS: readonly FloatPredicate[] = [
  'f',
  'lt',
  'eq',
  'le',
  'gt',
  'lg',
  'ge',
  'o',
  'u',
  'nge',
  'nlg',
  'ngt',
  'nle',
  'neq',
  'nlt',
  'tru',
];
for (const prefix of ['v_cmp_', 'v_cmpx_', 'v_cmps_', 'v_cmpsx_']) {
  for (const w of [16, 32, 64] as const) {
    for (const p of FLOAT_PREDS) SEMANTICS[`${prefix}${p}_f${w}`] = floatCompare(p, w);
    // gfx11 spells tru as t.
    SEMANTICS[`${prefix}t_f${w}`] = floatCompare('tru', w);
    SEMANTICS[`${prefix}class_f${w}`] = classCompare(w);
  }
  for (const t of ['i16', 'u16', 'i32', 'u32', 'i64', 'u64'])
    for (const p of ['f', 'lt', 'eq', 'le', 'gt', 'ne', 'lg', 'ge', 't'])
      SEMANTICS[`${prefix}${p}_${t}`] = intCompare(p, t);
}

/** Why a vector ALU instruction has no per-lane semantic function. */
export interface VectorUncovered {
  readonly kind: 'wave-level' | 'refused';
  readonly reason: string;
}
const wave = (reason: string): VectorUncovered => ({ kind: 'wave-level', reason });

/** Named reasons; any other uncovered name is simply not written yet (vector.test.ts lists them). */
export const VECTOR_UNCOVERED: Readonly<Record<string, VectorUncovered>> = {
  v_readlane_b32: wave('reads one lane chosen by an SGPR'),
  v_writelane_b32: wave('writes one lane chosen by an SGPR'),
  v_readfirstlane_b32: wave('reads the first active lane'),
  v_permlane16_b32: wave('cross-lane permute'),
  v_permlanex16_b32: wave('cross-lane permute'),
  v_permlane64_b32: wave('cross-lane permute'),
  v_movrels_b32: wave('VGPR indexed by M0'),
  v_movreld_b32: wave('VGPR indexed by M0'),
  v_movrelsd_b32: wave('VGPR indexed by M0'),
  v_movrelsd_2_b32: wave('VGPR indexed by M0'),
  v_swap_b32: wave('writes two VGPRs (its source too)'),
  v_swaprel_b32: wave('writes two VGPRs indexed by M0'),
};

/** The per-lane semantic function of a vector ALU instruction, or undefined (wave-level, or not written). */
export function vectorSemanticsFor(def: InstructionDef): VectorSemantics | undefined {
  if (!VALU_FAMILIES.includes(def.family)) return undefined;
  if ((def.attrs & Attr.CrossLane) !== 0) return undefined;
  return Object.hasOwn(SEMANTICS, def.name) ? SEMANTICS[def.name] : undefined;
}

/** Why there is no per-lane function, when there is none. */
export function vectorUncoveredReason(def: InstructionDef): string | undefined {
  if (vectorSemanticsFor(def)) return undefined;
  const why = VECTOR_UNCOVERED[def.name];
  if (why) return `${why.kind}: ${why.reason}`;
  if ((def.attrs & Attr.CrossLane) !== 0) return 'wave-level: cross-lane';
  return 'no vector ALU semantics yet';
}

export function vectorSemanticNames(): readonly string[] {
  return Object.keys(SEMANTICS);
}

/** Integer-destination instructions whose function reads `c.clamp` (saturating forms). */
const INT_CLAMP = /^v_(add|sub|subrev|addc|subb|subbrev)(_nc|_co|_co_ci)?_[iu](16|32)$/;

/**
 * Runs one VALU instruction over a wave: the function once per active lane, then the
 * gathered lane masks (VOPC sdst, carries, EXEC of v_cmpx). Throws `SemanticsRefusal`
 * before touching the state when the instruction or its encoding cannot run here.
 */
export function runVector<V, B>(alg: Algebra<V, B>, target: Target, inst: Instruction, state: VectorState<V, B>): void {
  const def = inst.def;
  const f = vectorSemanticsFor(def);
  if (!f) throw new SemanticsRefusal(def.name, vectorUncoveredReason(def) ?? 'no vector ALU semantics');
  const enc = laneEncodingRefusal(inst);
  if (enc) throw new SemanticsRefusal(def.name, enc);
  const dst = def.operands.find((o) => o.role === 'dst' && o.field === 'vdst');
  const floatDst = dst !== undefined && ['f16', 'f32', 'f64', 'v2f16'].includes(dst.type);
  if (
    (inst.fields.clamp ?? 0) === 1 &&
    inst.encoding !== 'VOPC_E64' &&
    def.family !== 'VOPC' &&
    !floatDst &&
    !INT_CLAMP.test(def.name)
  )
    throw new SemanticsRefusal(def.name, 'clamp on an integer result is not modelled for this instruction');
  if (target.gen === Gen.GFX7 && inst.fields.op_sel) throw new SemanticsRefusal(def.name, 'op_sel on gfx7');
  const writes: MaskWrites<B> = { masks: new Map() };
  // Lane-mask destinations are written for every lane (0 where inactive), so make them known.
  for (let lane = 0; lane < state.lanes; lane++) {
    if (!state.active(lane)) continue;
    f(createLaneContext(alg, target, inst, state, lane, writes));
  }
  const maskDsts = def.operands.filter((o) => o.role === 'dst' && o.field === 'sdst');
  if (writes.masks.size === 0 && (maskDsts.length > 0 || (def.attrs & Attr.WritesExec) !== 0)) {
    // No lane active: the masks are still written, all 0.
    const probe: MaskWrites<B> = { masks: new Map() };
    const ctx = createLaneContext(alg, target, inst, state, 0, probe);
    for (const o of maskDsts) ctx.setLaneMask(def.operands.indexOf(o), alg.bool(false));
    if ((def.attrs & Attr.WritesExec) !== 0) ctx.setExecBit(alg.bool(false));
    for (const m of probe.masks.values()) m[0] = undefined;
    flushMasks(alg, target, state, probe);
    return;
  }
  flushMasks(alg, target, state, writes);
}
