/**
 * Semantics of the vector ALU (VOP1, VOP2, VOPC, VOP3 incl. VOP3B, VOP3P) keyed by registry
 * name (D003), each run once per active lane through a `LaneContext` (lane-context.ts),
 * which applies the encoding's input and output modifiers and gathers lane-mask writes.
 *
 * Sources: AMD's ISA documents, the VOP1/VOP2/VOPC/VOP3/VOP3P opcode descriptions of the
 * Sea Islands (gfx7), GCN3 (gfx8), Vega (gfx9), RDNA1/2 (gfx10) and RDNA3 (gfx11)
 * references (RDNA3's pseudocode where the older prose is vague). Names follow the
 * registry, so one name may have different operands per generation (gfx8's `v_add_u32`
 * writes a carry, gfx9's does not): the functions read `c.def.operands` for that. Where the
 * texts at hand are the RDNA3.5 ISA (RDNA3's pseudocode as AMD republished it for gfx11.5) or the
 * CDNA4 ISA (the Vega lineage, for gfx9's legacy forms), those are cited by section; the
 * multi-operation float compositions (division macro, trig preop, cube, DX9, norms) are in
 * vector-float.ts.
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
  type LaneContext,
  type LaneInput,
  type MaskWrites,
  type VectorState,
} from './lane-context.ts';
import { laneView, type LaneView } from './wave-encodings.ts';
import { OUT_OF_RANGE } from './wave-lanes.ts';
import { runWave, waveRefusal, waveSemanticsFor } from './wave-ops.ts';
import {
  bf16FromF32,
  clamp01,
  clampInfF32,
  clampInfF64,
  cube,
  divFixupF16,
  divFixupF32,
  divFixupF64,
  divFmasF32,
  divFmasF64,
  divScaleF32,
  divScaleF64,
  f32FromBf16,
  flushF32,
  fmaDx9,
  infToZeroF32,
  mulDx9,
  mullit,
  norm16,
  trigPreopF64,
} from './vector-float.ts';
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
    D16(c, c.clamp ? sat16(a, d, signed) : d);
  };
}

/** A 16-bit add/sub of sign- (or zero-) extended halves, saturated to the type (RDNA3 ISA 7.2 "Operands", CLMP). */
function sat16<V, B>(a: Algebra<V, B>, d: V, signed: boolean): V {
  return signed
    ? a.minI(a.maxI(d, a.word(0xffff8000)), a.word(0x7fff))
    : a.select(a.ltI(d, a.word(0)), a.word(0), a.minU(d, a.word(0xffff)));
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
  // IEEE 754-2008 7.2: converting a signaling NaN delivers it quiet (the widening itself is exact).
  v_cvt_f32_f16: (c) => {
    const a = c.alg;
    const x = a.fFromF16(S16(c, 0), c.mode);
    D(c, a.select(isNan(a, x, c.mode), a.or(x, a.word(0x00400000)), x));
  },
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
  // Vega ISA V_CVT_PKNORM_I16_F32 / _U16_F32 (gfx11: V_CVT_PK_NORM_*): "D = {(snorm)S1, (snorm)S0}";
  // each f32 to a 16-bit norm as the ISA's data conversions (recalled, as format-store.ts):
  // clamp to [-1, 1] ([0, 1]), scale by 32767 (65535), round to nearest even, NaN to 0.
  v_cvt_pknorm_i16_f32: bin((a, x, y, m) => a.or(norm16(a, x, true, m), a.shl(norm16(a, y, true, m), a.word(16)))),
  v_cvt_pknorm_u16_f32: bin((a, x, y, m) => a.or(norm16(a, x, false, m), a.shl(norm16(a, y, false, m), a.word(16)))),
  v_cvt_pk_norm_i16_f32: bin((a, x, y, m) => a.or(norm16(a, x, true, m), a.shl(norm16(a, y, true, m), a.word(16)))),
  v_cvt_pk_norm_u16_f32: bin((a, x, y, m) => a.or(norm16(a, x, false, m), a.shl(norm16(a, y, false, m), a.word(16)))),

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
/** VOP3P 16-bit integer add/sub per half: wraps, or saturates with clamp (RDNA3 ISA 16.10, V_PK_ADD_U16 ...; 7.2 CLMP). */
function packedAddSub16(kind: 'add' | 'sub', signed: boolean): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const [x0, x1] = c.srcPacked(ix(c.def, 'src:src0'));
    const [y0, y1] = c.srcPacked(ix(c.def, 'src:src1'));
    const one = (x: typeof x0, y: typeof y0): typeof x0 => {
      const [p, q] = signed ? [a.sext(x, 16), a.sext(y, 16)] : [x, y];
      const d = kind === 'add' ? a.add(p, q) : a.sub(p, q);
      return c.clamp ? sat16(a, d, signed) : d;
    };
    c.dstPacked(ix(c.def, 'dst:vdst'), one(x0, y0), one(x1, y1));
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
  v_pk_add_u16: packedAddSub16('add', false),
  v_pk_sub_u16: packedAddSub16('sub', false),
  v_pk_add_i16: packedAddSub16('add', true),
  v_pk_sub_i16: packedAddSub16('sub', true),
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

// Dot products (RDNA2 ISA, V_DOT4_I32_I8 etc.: "D = S0.x[0] * S1.x[0] + ... + S2"; the
// VOP2 `c` forms accumulate into D). Integer sums wrap mod 2^32; clamp saturates the final
// sum where the products' sum fits 32 bits (4- and 8-bit fields: INT_CLAMP), else runVector
// refuses it. The 16-bit forms take their halves through op_sel like any VOP3P source. v_dot2_f32_f16 follows RDNA3's pseudocode (recalled): f16 -> f32 exactly, then
// tmp = S2; tmp += x0 * y0; tmp += x1 * y1, each step rounded in f32.
const dotTerms = <V, B>(a: Algebra<V, B>, x: V, y: V, bits: 4 | 8, signed: boolean): V => {
  let s = a.word(0);
  for (let n = 0; n < 32 / bits; n++) {
    const at = a.word(bits * n);
    const w = a.word(bits);
    s = a.add(s, a.mulLo(signed ? a.bfeI(x, at, w) : a.bfeU(x, at, w), signed ? a.bfeI(y, at, w) : a.bfeU(y, at, w)));
  }
  return s;
};
/** acc + p, saturated to i32 / u32 under clamp (p's true value fits 32 bits). */
const dotAcc = <V, B>(c: LaneContext<V, B>, acc: V, p: V, signed: boolean): V => {
  const a = c.alg;
  const r = a.add(acc, p);
  if (!c.clamp) return r;
  if (!signed) return a.select(a.ltU(r, acc), a.word(0xffffffff), r);
  const overflow = a.ltI(a.and(a.xor(acc, r), a.xor(p, r)), a.word(0));
  return a.select(overflow, a.select(a.ltI(acc, a.word(0)), a.word(0x80000000), a.word(0x7fffffff)), r);
};
const dotInt =
  (bits: 4 | 8, signed: boolean, accumulate = false): VectorSemantics =>
  (c) =>
    D(c, dotAcc(c, accumulate ? OLD(c) : S(c, 2), dotTerms(c.alg, S(c, 0), S(c, 1), bits, signed), signed));
/** Source k's two halves: VOP3P through op_sel / op_sel_hi / neg; other encodings low, high. */
const halves = <V, B>(c: LaneContext<V, B>, k: number): readonly [V, V] => {
  if (c.def.family === 'VOP3P') return c.srcPacked(ix(c.def, `src:src${k}`));
  const w = S(c, k);
  return [c.alg.and(w, c.alg.word(0xffff)), c.alg.lshr(w, c.alg.word(16))];
};
const dot2Int =
  (signed: boolean): VectorSemantics =>
  (c) => {
    const a = c.alg;
    const [x0, x1] = halves(c, 0);
    const [y0, y1] = halves(c, 1);
    const ext = (v: typeof x0): typeof x0 => (signed ? a.sext(v, 16) : v);
    D(c, a.add(a.add(S(c, 2), a.mulLo(ext(x0), ext(y0))), a.mulLo(ext(x1), ext(y1))));
  };
const dot2F32 =
  (accumulate: boolean): VectorSemantics =>
  (c) => {
    const a = c.alg;
    const m = c.mode;
    const [x0, x1] = halves(c, 0);
    const [y0, y1] = halves(c, 1);
    let t = accumulate ? OLD(c) : S(c, 2);
    t = a.fAdd(t, a.fMul(h2f(a, x0, m), h2f(a, y0, m), m), m);
    t = a.fAdd(t, a.fMul(h2f(a, x1, m), h2f(a, y1, m), m), m);
    D(c, t);
  };
Object.assign(SEMANTICS, {
  v_dot4_i32_i8: dotInt(8, true),
  v_dot4_u32_u8: dotInt(8, false),
  v_dot8_i32_i4: dotInt(4, true),
  v_dot8_u32_u4: dotInt(4, false),
  v_dot4c_i32_i8: dotInt(8, true, true),
  v_dot2_i32_i16: dot2Int(true),
  v_dot2_u32_u16: dot2Int(false),
  v_dot2_f32_f16: dot2F32(false),
  v_dot2c_f32_f16: dot2F32(true),
  v_dot2acc_f32_f16: dot2F32(true),
});

// ---- issue 4's remaining vector ALU: each cites the text it is written from.

/** f16 bits (low half) as an f32 with f16 denormals flushed, as v_mad_f16 needs ("denormals are flushed", CDNA4 12.11 V_MAD_F16). */
const flush16Mode = (m: FloatMode): FloatMode => ({ ...m, f64f16Denormals: false });

/**
 * D.f16 = S0 · S1 + S2, unfused (CDNA4 12.11 V_MAD_F16, V_MAD_LEGACY_F16; GCN3 V_MAC_F16, V_MADMK_F16, V_MADAK_F16):
 * the product rounded to f16, then the sum (each exact in f32 first: the product of two f16 is, and a sum of
 * two f16 rounds innocuously twice since 24 >= 2 · 11 + 2), f16 denormals flushed ("denormals are flushed").
 */
function mad16<V, B>(a: Algebra<V, B>, x: V, y: V, z: V, mode: FloatMode): V {
  const m = flush16Mode(mode);
  const p = f2h(a, a.fMul(h2f(a, x, m), h2f(a, y, m), m), m);
  return f2h(a, a.fAdd(h2f(a, p, m), h2f(a, z, m), m), m);
}
/** D.f16 = fma(S0, S1, S2) through an exact f32 fma and one rounding to f16 (D003 known limits: may round twice). */
const fma16 = <V, B>(a: Algebra<V, B>, x: V, y: V, z: V, m: FloatMode): V =>
  f2h(a, a.fFma(h2f(a, x, m), h2f(a, y, m), h2f(a, z, m), m), m);

/** The low half of a 32-bit literal (v_fmaak_f16, v_madmk_f16 carry their f16 constant in the literal dword). */
const K16 = <V, B>(c: LaneContext<V, B>): V => c.alg.and(K(c), c.alg.word(0xffff));

/** Whether op_sel bit `bit` is live on this target for this instruction (the registry's per-generation opsel flag). */
const opSelBit = <V, B>(c: LaneContext<V, B>, bit: number): boolean =>
  ((Number(c.def.flags?.opsel ?? 0) >> c.target.gen) & 1) === 1 && ((c.field('op_sel') >> bit) & 1) === 1;
/** The f16 accumulator of v_fmac_f16 / v_mac_f16: the destination half op_sel[3] writes (RDNA3.5 ISA V_FMAC_F16: D0.f16 = fma(S0, S1, D0.f16)). */
const oldHalf = <V, B>(c: LaneContext<V, B>): V => {
  const o = OLD(c);
  return opSelBit(c, 3) ? c.alg.lshr(o, c.alg.word(16)) : c.alg.and(o, c.alg.word(0xffff));
};

/** f16 through f32, three sources, one rounding back (min3/max3/med3/maxmin of f16: the result is one input, so exact). */
const htri =
  (f: F3): VectorSemantics =>
  (c) => {
    const a = c.alg;
    const m = c.mode;
    D16(c, f2h(a, f(a, h2f(a, S16(c, 0), m), h2f(a, S16(c, 1), m), h2f(a, S16(c, 2), m), m), m));
  };
/** 16-bit integer, three sources (sign-extended for the _i16 forms), result in the low half. */
const i16tri =
  (f: I3, signed: boolean): VectorSemantics =>
  (c) => {
    const a = c.alg;
    const ext = (v: V0<typeof a>): V0<typeof a> => (signed ? a.sext(v, 16) : v);
    D16(c, f(a, ext(S16(c, 0)), ext(S16(c, 1)), ext(S16(c, 2))));
  };
/** D.u16 = S0 · S1 + S2 (CDNA4 12.11 / RDNA3.5 16.12 V_MAD_U16, V_MAD_I16): wraps, or saturates with clamp ("Supports saturation"). */
const mad16int =
  (signed: boolean): VectorSemantics =>
  (c) => {
    const a = c.alg;
    const ext = (v: V0<typeof a>): V0<typeof a> => (signed ? a.sext(v, 16) : v);
    const d = a.add(a.mulLo(ext(S16(c, 0)), ext(S16(c, 1))), ext(S16(c, 2)));
    D16(c, c.clamp ? sat16(a, d, signed) : d);
  };

/** f32 → i16 / u16, truncating, saturating, NaN 0 (RDNA3.5 V_CVT_PK_I16_F32's v_cvt_i16_f32, as f32_to_i32 "out-of-range values saturate"). */
const toI16 = <V, B>(a: Algebra<V, B>, x: V, m: FloatMode): V =>
  a.and(a.minI(a.maxI(a.fToI32(x, m), a.word(0xffff8000)), a.word(0x7fff)), a.word(0xffff));
const toU16 = <V, B>(a: Algebra<V, B>, x: V, m: FloatMode): V => a.minU(a.fToU32(x, m), a.word(0xffff));

/** SAT8 of RDNA3.5 ISA V_SAT_PK_U8_I16: a signed 16-bit value clamped to [0, 255]. */
const sat8 = <V, B>(a: Algebra<V, B>, h: V): V => {
  const n = a.sext(h, 16);
  return a.select(a.leI(n, a.word(0)), a.word(0), a.minI(n, a.word(255)));
};

/**
 * The MIX sources (RDNA3.5 ISA 16.10 V_FMA_MIX_F32): { OPSEL_HI[i], OPSEL[i] } picks S[i] as an f32 or
 * one of its f16 halves widened; NEG negates and NEG_HI takes the absolute value ("For MIX opcodes the
 * NEG_HI instruction field acts as an absolute-value modifier"), on the selected value's own sign bit.
 */
function mixSources<V, B>(c: LaneContext<V, B>): [V, V, V] {
  const a = c.alg;
  const opSel = c.field('op_sel');
  const opSelHi = c.field('op_sel_hi');
  const neg = c.field('neg_lo');
  const abs = c.field('neg_hi');
  const one = (i: number): V => {
    const w = S(c, i);
    const bit = (f: number): boolean => ((f >> i) & 1) === 1;
    if (!bit(opSelHi)) {
      let v = w;
      if (bit(abs)) v = a.and(v, a.word(0x7fffffff));
      if (bit(neg)) v = a.xor(v, a.word(SIGN));
      return v;
    }
    let h = bit(opSel) ? a.lshr(w, a.word(16)) : a.and(w, a.word(0xffff));
    if (bit(abs)) h = a.and(h, a.word(0x7fff));
    if (bit(neg)) h = a.xor(h, a.word(0x8000));
    return h2f(a, h, c.mode);
  };
  return [one(0), one(1), one(2)];
}
/**
 * v_fma_mix* (RDNA2/3 ISA, fused) and gfx9's v_mad_mix* (unfused, f32 denormals flushed as v_mad_f32:
 * LLVM selects them for fmuladd only with f32 denormals off). The _lo/_hi forms round the f32 result to
 * f16 ("f32_to_f16(fma(...))": a second rounding, as written) and keep the other half
 * ("D0[15 : 0].f16 = ..."); clamp applies to the f32 value, before the conversion.
 */
function mix(fused: boolean, dst: 'f32' | 'lo' | 'hi'): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const m = c.mode;
    const [x, y, z] = mixSources(c);
    const r = fused ? a.fFma(x, y, z, m) : mad32(a, x, y, z, m);
    if (dst === 'f32') return D(c, r);
    const h = a.fToF16(c.clamp ? clamp01(a, r, m) : r, false, m);
    const old = OLD(c);
    D(
      c,
      dst === 'lo' ? a.or(a.and(old, a.word(0xffff0000)), h) : a.or(a.and(old, a.word(0xffff)), a.shl(h, a.word(16))),
    );
  };
}

/** V_PK_FMA_F16 / V_PK_MAD_*16 (RDNA3.5 ISA 16.10): three packed sources, per 16-bit half. */
function packed3(f: <V, B>(a: Algebra<V, B>, x: V, y: V, z: V, m: FloatMode) => V): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const [x0, x1] = c.srcPacked(ix(c.def, 'src:src0'));
    const [y0, y1] = c.srcPacked(ix(c.def, 'src:src1'));
    const [z0, z1] = c.srcPacked(ix(c.def, 'src:src2'));
    c.dstPacked(ix(c.def, 'dst:vdst'), f(a, x0, y0, z0, c.mode), f(a, x1, y1, z1, c.mode));
  };
}

/**
 * V_DOT2_F16_F16 / V_DOT2_BF16_BF16 (RDNA3.5 ISA 16.12): tmp = S2; tmp += S0.lo · S1.lo; tmp += S0.hi ·
 * S1.hi, every operation in the 16-bit type as the pseudocode types it (the product rounded, then the sum);
 * OPSEL[2] picks S2's half and OPSEL[3] the destination's (src16 / dst16), OPSEL[1:0] are ignored.
 */
function dot2Half(bf16: boolean): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const m = c.mode;
    const wide = (h: V0<typeof a>): V0<typeof a> => (bf16 ? f32FromBf16(a, h) : h2f(a, h, m));
    const narrow = (x: V0<typeof a>): V0<typeof a> => (bf16 ? bf16FromF32(a, x, m) : f2h(a, x, m));
    const [x0, x1] = halves(c, 0);
    const [y0, y1] = halves(c, 1);
    let t = S16(c, 2);
    for (const [x, y] of [
      [x0, y0],
      [x1, y1],
    ] as const) {
      const p = narrow(a.fMul(wide(x), wide(y), m));
      t = narrow(a.fAdd(wide(t), wide(p), m));
    }
    D16(c, t);
  };
}

/**
 * V_DOT4_I32_IU8 / V_DOT8_I32_IU4 (RDNA3.5 ISA 16.10): NEG[0] and NEG[1] say whether S0's and S1's fields
 * are signed ("0=unsigned input, 1=signed input"); the sum wraps in 32 bits.
 */
function dotIu(bits: 4 | 8): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const neg = c.field('neg_lo');
    const x = S(c, 0);
    const y = S(c, 1);
    const w = a.word(bits);
    let s = S(c, 2);
    for (let n = 0; n < 32 / bits; n++) {
      const at = a.word(bits * n);
      const p = (neg & 1) !== 0 ? a.bfeI(x, at, w) : a.bfeU(x, at, w);
      const q = (neg & 2) !== 0 ? a.bfeI(y, at, w) : a.bfeU(y, at, w);
      s = a.add(s, a.mulLo(p, q));
    }
    D(c, s);
  };
}

/** V_DOT2_F32_BF16 (RDNA3.5 ISA 16.10): the f16 form's pseudocode with bf16_to_f32 (exact). */
const dot2F32Bf16: VectorSemantics = (c) => {
  const a = c.alg;
  const m = c.mode;
  const [x0, x1] = halves(c, 0);
  const [y0, y1] = halves(c, 1);
  let t = S(c, 2);
  t = a.fAdd(t, a.fMul(f32FromBf16(a, x0), f32FromBf16(a, y0), m), m);
  t = a.fAdd(t, a.fMul(f32FromBf16(a, x1), f32FromBf16(a, y1), m), m);
  D(c, t);
};

/** The four (masked) byte SADs of V_QSAD/V_MQSAD (RDNA3.5 ISA 16.12): window k of S0 is S0[8k+31 : 8k], each + acc[k]. */
function quadSad<V, B>(a: Algebra<V, B>, s0: Pair<V>, ref: V, acc: readonly V[], masked: boolean): V[] {
  const [lo, hi] = s0;
  return acc.map((start, k) => {
    const window = k === 0 ? lo : align(a, hi, lo, a.word(8 * k));
    let s = start;
    for (let i = 0; i < 4; i++) {
      const r = byte(a, ref, i);
      const d = absDiff(a, byte(a, window, i), r);
      s = a.add(s, masked ? a.select(a.eq(r, a.word(0)), a.word(0), d) : d);
    }
    return s;
  });
}
/**
 * V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8: the accumulators are S2's four 16-bit fields and each sum is
 * truncated to 16 bits ("16'B(v_sad_u8(S0[55 : 24], S1[31 : 0], S2[63 : 48].u32))").
 */
function qsadPk(masked: boolean): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const acc = SP(c, 2);
    const sums = quadSad(
      a,
      SP(c, 0),
      S(c, 1),
      [0, 1, 2, 3].map((k) => half(a, acc[k >> 1]!, k & 1)),
      masked,
    );
    const out = sums.map((v) => a.and(v, a.word(0xffff)));
    DP(c, [a.or(out[0]!, a.shl(out[1]!, a.word(16))), a.or(out[2]!, a.shl(out[3]!, a.word(16)))]);
  };
}
/** V_MQSAD_U32_U8: 32-bit accumulators S2[127:0] and a 128-bit result, nothing truncated. */
const mqsadU32: VectorSemantics = (c) => {
  const a = c.alg;
  const acc = c.srcVgprs(ix(c.def, 'src:src2'));
  c.dstVgprs(ix(c.def, 'dst:vdst'), quadSad(a, SP(c, 0), S(c, 1), acc, true));
};

Object.assign(SEMANTICS, {
  // The RDNA3.5 ISA 16.12 V_PIPEFLUSH "flush[es] the vector ALU pipeline through the destination cache":
  // no register or memory value changes. V_CLREXCP (Sea Islands: "Clear wave's exception state in SIMD")
  // changes only exception state, which nothing here accumulates (no float exception is modelled), so it
  // changes nothing that is modelled either.
  v_pipeflush: () => {},
  v_clrexcp: () => {},

  // 16-bit conversions (RDNA3.5 ISA 16.12 V_CVT_F16_U16 ... V_CVT_I16_F16: "Conversion is done with truncation";
  // out-of-range values saturate and NaN gives 0, as the f32 conversions state).
  v_cvt_f16_u16: ((c) => D16(c, f2h(c.alg, c.alg.fFromU32(S16(c, 0)), c.mode))) as VectorSemantics,
  v_cvt_f16_i16: ((c) => D16(c, f2h(c.alg, c.alg.fFromI32(c.alg.sext(S16(c, 0), 16)), c.mode))) as VectorSemantics,
  v_cvt_u16_f16: ((c) => D16(c, toU16(c.alg, h2f(c.alg, S16(c, 0), c.mode), c.mode))) as VectorSemantics,
  v_cvt_i16_f16: ((c) => D16(c, toI16(c.alg, h2f(c.alg, S16(c, 0), c.mode), c.mode))) as VectorSemantics,
  // V_CVT_NORM_I16_F16 / _U16_F16: f16_to_snorm / f16_to_unorm; the f16 widens exactly, then the norm conversion.
  v_cvt_norm_i16_f16: ((c) => D16(c, norm16(c.alg, h2f(c.alg, S16(c, 0), c.mode), true, c.mode))) as VectorSemantics,
  v_cvt_norm_u16_f16: ((c) => D16(c, norm16(c.alg, h2f(c.alg, S16(c, 0), c.mode), false, c.mode))) as VectorSemantics,
  // V_CVT_OFF_F32_I4: the table is S0[3:0] as a signed 4-bit integer times 1/16 (-0.5 ... +0.4375), exact.
  v_cvt_off_f32_i4: ((c) => {
    const a = c.alg;
    D(c, a.fMul(a.fFromI32(a.bfeI(S(c, 0), a.word(0), a.word(4))), a.word(0x3d800000), c.mode));
  }) as VectorSemantics,
  v_sat_pk_u8_i16: ((c) => {
    const a = c.alg;
    const x = S(c, 0);
    D16(c, a.or(sat8(a, a.and(x, a.word(0xffff))), a.shl(sat8(a, a.lshr(x, a.word(16))), a.word(8))));
  }) as VectorSemantics,
  // V_FREXP_MANT_F16 / V_FREXP_EXP_I16_F16: the f32 frexp of the widened value (exact); a NaN or infinity
  // is returned as it is ("D0.f16 = S0.f16"), the exponent of NaN/inf is 0.
  v_frexp_mant_f16: ((c) => {
    const a = c.alg;
    const h = S16(c, 0);
    const x = h2f(a, h, c.mode);
    D16(c, a.select(isNan(a, x, c.mode), h, f2h(a, a.fFrexpMant(x, c.mode), c.mode)));
  }) as VectorSemantics,
  v_frexp_exp_i16_f16: ((c) => D16(c, c.alg.fFrexpExp(h2f(c.alg, S16(c, 0), c.mode), c.mode))) as VectorSemantics,

  // Sea Islands VOP1 (gfx7): "D.f = log2(S0.f), clamp -infinity to -max_float"; rcp/rsq "result clamped to
  // +-max_float"; V_RCP_LEGACY_F32 "+-infinity result clamped to +-0.0". A NaN result passes (the texts
  // clamp infinities only).
  v_log_clamp_f32: un((a, x, m) => {
    const r = a.fUnary('log', x, m);
    return a.select(a.eq(r, a.word(0xff800000)), a.word(0xff7fffff), r);
  }),
  v_rcp_clamp_f32: un((a, x, m) => clampInfF32(a, a.fUnary('rcp', x, m))),
  v_rsq_clamp_f32: un((a, x, m) => clampInfF32(a, a.fUnary('rsq', x, m))),
  v_rcp_legacy_f32: un((a, x, m) => infToZeroF32(a, a.fUnary('rcp', x, m))),
  v_rcp_clamp_f64: ((c) => DP(c, clampInfF64(c.alg, c.alg.dUnary('rcp', SP(c, 0), c.mode)))) as VectorSemantics,
  v_rsq_clamp_f64: ((c) => DP(c, clampInfF64(c.alg, c.alg.dUnary('rsq', SP(c, 0), c.mode)))) as VectorSemantics,

  // DX9 multiplies (RDNA3.5 ISA 16.12 V_MUL_DX9_ZERO_F32, V_FMAC_DX9_ZERO_F32, V_FMA_DX9_ZERO_F32; gfx10.3's
  // v_*_legacy_f32 are the same opcodes under LLVM's older names; Sea Islands V_MUL_LEGACY_F32 "DX9 rules, 0.0*x = 0.0").
  v_mul_dx9_zero_f32: bin(mulDx9),
  v_mul_legacy_f32: bin(mulDx9),
  v_fma_dx9_zero_f32: tri(fmaDx9),
  v_fma_legacy_f32: tri(fmaDx9),
  v_fmac_dx9_zero_f32: ((c) => D(c, fmaDx9(c.alg, S(c, 0), S(c, 1), OLD(c), c.mode))) as VectorSemantics,
  v_fmac_legacy_f32: ((c) => D(c, fmaDx9(c.alg, S(c, 0), S(c, 1), OLD(c), c.mode))) as VectorSemantics,
  // Sea Islands V_MAD_LEGACY_F32 "D.f = S0.f * S1.f + S2.f (DX9 rules, 0.0*x = 0.0)" and V_MAC_LEGACY_F32, its
  // VOP2 form accumulating into D: the DX9 product, then the add, rounded as v_mad_f32 is.
  v_mad_legacy_f32: tri((a, x, y, z, m) => a.fAdd(mulDx9(a, x, y, madMode(m)), z, madMode(m))),
  v_mac_legacy_f32: ((c) => {
    const a = c.alg;
    const m = madMode(c.mode);
    D(c, a.fAdd(mulDx9(a, S(c, 0), S(c, 1), m), OLD(c), m));
  }) as VectorSemantics,
  // Sea Islands V_MIN_LEGACY_F32 / V_MAX_LEGACY_F32 "(DX9 rules for NaN)": Direct3D 9's min is
  // `src0 < src1 ? src0 : src1` and max `src0 >= src1 ? src0 : src1`, so a NaN operand gives S1 (LLVM selects
  // v_min_legacy_f32 for exactly `a < b ? a : b`).
  v_min_legacy_f32: bin((a, x, y, m) => a.select(a.fCmp('lt', x, y, m), flushF32(a, x, m), flushF32(a, y, m))),
  v_max_legacy_f32: bin((a, x, y, m) => a.select(a.fCmp('ge', x, y, m), flushF32(a, x, m), flushF32(a, y, m))),
  v_mullit_f32: tri(mullit),

  // V_CUBE* (RDNA3.5 ISA 16.12).
  v_cubeid_f32: tri((a, x, y, z, m) => cube(a, 'id', x, y, z, m)),
  v_cubesc_f32: tri((a, x, y, z, m) => cube(a, 'sc', x, y, z, m)),
  v_cubetc_f32: tri((a, x, y, z, m) => cube(a, 'tc', x, y, z, m)),
  v_cubema_f32: tri((a, x, y, z, m) => cube(a, 'ma', x, y, z, m)),

  // The division macro (RDNA3.5 ISA 16.12; vector-float.ts says how each text is read).
  v_div_scale_f32: ((c) => {
    const [d, vcc] = divScaleF32(c.alg, S(c, 0), S(c, 1), S(c, 2), c.mode);
    D(c, d);
    setCarry(c, vcc);
  }) as VectorSemantics,
  v_div_scale_f64: ((c) => {
    const [d, vcc] = divScaleF64(c.alg, SP(c, 0), SP(c, 1), SP(c, 2), c.mode);
    DP(c, d);
    setCarry(c, vcc);
  }) as VectorSemantics,
  v_div_fmas_f32: ((c) => D(c, divFmasF32(c.alg, S(c, 0), S(c, 1), S(c, 2), c.vcc(), c.mode))) as VectorSemantics,
  v_div_fmas_f64: ((c) => DP(c, divFmasF64(c.alg, SP(c, 0), SP(c, 1), SP(c, 2), c.vcc(), c.mode))) as VectorSemantics,
  v_div_fixup_f32: tri(divFixupF32),
  v_div_fixup_f64: ((c) => DP(c, divFixupF64(c.alg, SP(c, 0), SP(c, 1), SP(c, 2), c.mode))) as VectorSemantics,
  v_div_fixup_f16: ((c) => D16(c, divFixupF16(c.alg, S16(c, 0), S16(c, 1), S16(c, 2), c.mode))) as VectorSemantics,
  // CDNA4 12.11 V_DIV_FIXUP_LEGACY_F16: the same chain; OPSEL[3] 0 writes the low half and zeroes the high
  // half (dst16 on gfx9, where this opcode exists).
  v_div_fixup_legacy_f16: ((c) =>
    D16(c, divFixupF16(c.alg, S16(c, 0), S16(c, 1), S16(c, 2), c.mode))) as VectorSemantics,
  v_trig_preop_f64: ((c) => DP(c, trigPreopF64(c.alg, SP(c, 0), S(c, 1), c.mode))) as VectorSemantics,

  // 16-bit floats: unfused mads on gfx8/9 (CDNA4 12.11 V_MAD_F16, V_MAD_LEGACY_F16; GCN3 VOP2 V_MAC_F16,
  // V_MADMK_F16 "S0 * K + S1", V_MADAK_F16 "S0 * S1 + K"), fused forms on gfx10+ (RDNA3.5 V_FMAC_F16,
  // V_FMAMK_F16, V_FMAAK_F16; CDNA4 V_FMA_LEGACY_F16).
  v_mad_f16: ((c) => D16(c, mad16(c.alg, S16(c, 0), S16(c, 1), S16(c, 2), c.mode))) as VectorSemantics,
  v_mad_legacy_f16: ((c) => D16(c, mad16(c.alg, S16(c, 0), S16(c, 1), S16(c, 2), c.mode))) as VectorSemantics,
  v_mac_f16: ((c) => D16(c, mad16(c.alg, S16(c, 0), S16(c, 1), oldHalf(c), c.mode))) as VectorSemantics,
  v_madmk_f16: ((c) => D16(c, mad16(c.alg, S16(c, 0), K16(c), S16(c, 1), c.mode))) as VectorSemantics,
  v_madak_f16: ((c) => D16(c, mad16(c.alg, S16(c, 0), S16(c, 1), K16(c), c.mode))) as VectorSemantics,
  v_fma_legacy_f16: ((c) => D16(c, fma16(c.alg, S16(c, 0), S16(c, 1), S16(c, 2), c.mode))) as VectorSemantics,
  v_fmac_f16: ((c) => D16(c, fma16(c.alg, S16(c, 0), S16(c, 1), oldHalf(c), c.mode))) as VectorSemantics,
  v_fmamk_f16: ((c) => D16(c, fma16(c.alg, S16(c, 0), K16(c), S16(c, 1), c.mode))) as VectorSemantics,
  v_fmaak_f16: ((c) => D16(c, fma16(c.alg, S16(c, 0), S16(c, 1), K16(c), c.mode))) as VectorSemantics,
  // RDNA3.5 ISA 16.12 V_MIN3_F16 ... V_MED3_F16, V_MAXMIN_F16, V_MINMAX_F16: the f32 forms' definitions on
  // the widened values (V_MED3_F16: a NaN operand gives min3).
  v_min3_f16: htri((a, x, y, z, m) => a.fMin(a.fMin(x, y, m), z, m)),
  v_max3_f16: htri((a, x, y, z, m) => a.fMax(a.fMax(x, y, m), z, m)),
  v_med3_f16: htri(med3f),
  v_maxmin_f16: htri((a, x, y, z, m) => a.fMin(a.fMax(x, y, m), z, m)),
  v_minmax_f16: htri((a, x, y, z, m) => a.fMax(a.fMin(x, y, m), z, m)),
  v_min3_i16: i16tri((a, x, y, z) => a.minI(a.minI(x, y), z), true),
  v_max3_i16: i16tri((a, x, y, z) => a.maxI(a.maxI(x, y), z), true),
  v_med3_i16: i16tri(med3i(true), true),
  v_min3_u16: i16tri((a, x, y, z) => a.minU(a.minU(x, y), z), false),
  v_max3_u16: i16tri((a, x, y, z) => a.maxU(a.maxU(x, y), z), false),
  v_med3_u16: i16tri(med3i(false), false),
  // RDNA3.5 ISA 16.12 V_CNDMASK_B16: "D0.u16 = VCC.u64[laneId] ? S1.u16 : S0.u16" (VCC from S2 in VOP3).
  v_cndmask_b16: ((c) => D16(c, c.alg.select(carryIn(c), S16(c, 1), S16(c, 0)))) as VectorSemantics,
  // RDNA3.5 ISA 16.12 V_PACK_B32_F16: "D0[31:16].f16 = S1.f16; D0[15:0].f16 = S0.f16" (halves by op_sel).
  v_pack_b32_f16: ((c) => D(c, c.alg.or(S16(c, 0), c.alg.shl(S16(c, 1), c.alg.word(16))))) as VectorSemantics,
  // RDNA3.5 ISA 16.12 V_CVT_PK_I16_F32 / V_CVT_PK_U16_F32 (S1 high), V_CVT_PK_NORM_I16_F16 / _U16_F16 (gfx11)
  // and gfx9-10's V_CVT_PKNORM_I16_F16 / _U16_F16 (the same on f16 halves picked by op_sel).
  v_cvt_pk_i16_f32: bin((a, x, y, m) => a.or(toI16(a, x, m), a.shl(toI16(a, y, m), a.word(16)))),
  v_cvt_pk_u16_f32: bin((a, x, y, m) => a.or(toU16(a, x, m), a.shl(toU16(a, y, m), a.word(16)))),
  v_cvt_pk_norm_i16_f16: normPk16(true),
  v_cvt_pk_norm_u16_f16: normPk16(false),
  v_cvt_pknorm_i16_f16: normPk16(true),
  v_cvt_pknorm_u16_f16: normPk16(false),

  // 16-bit and mixed integer multiply-adds (RDNA3.5 ISA 16.12; CDNA4 12.11 for the gfx9 legacy forms, whose
  // OPSEL[3] = 0 "written to 16 LSBs ... hi 16 bits are written as 0": dst16 on gfx9).
  v_mad_u16: mad16int(false),
  v_mad_i16: mad16int(true),
  v_mad_legacy_u16: mad16int(false),
  v_mad_legacy_i16: mad16int(true),
  v_mad_u32_u16: ((c) => D(c, c.alg.add(c.alg.mulLo(S16(c, 0), S16(c, 1)), S(c, 2)))) as VectorSemantics,
  v_mad_i32_i16: ((c) => {
    const a = c.alg;
    D(c, a.add(a.mulLo(a.sext(S16(c, 0), 16), a.sext(S16(c, 1), 16)), S(c, 2)));
  }) as VectorSemantics,
  // RDNA3.5 ISA 16.12 V_MAD_I64_I32: "{ D1.i1, D0.i64 } = 65'B(65'I(S0.i32) * 65'I(S1.i32) + 65'I(S2.i64))":
  // D1 is bit 64 of the 65-bit sum, the sum's sign bit (the operands' signs plus the carry out of bit 63).
  v_mad_i64_i32: ((c) => {
    const a = c.alg;
    const x = S(c, 0);
    const y = S(c, 1);
    const z = SP(c, 2);
    const [lo, c0] = a.addCarry(a.mulLo(x, y), z[0], a.bool(false));
    const productHi = a.mulHiI(x, y);
    const [hi, c1] = a.addCarry(productHi, z[1], c0);
    DP(c, [lo, hi]);
    const signs = a.xor(a.lshr(productHi, a.word(31)), a.lshr(z[1], a.word(31)));
    setCarry(c, a.toBool(a.xor(signs, a.fromBool(c1))));
  }) as VectorSemantics,
  v_qsad_pk_u16_u8: qsadPk(false),
  v_mqsad_pk_u16_u8: qsadPk(true),
  v_mqsad_u32_u8: mqsadU32,

  // VOP3P.
  v_pk_fma_f16: packed3(fma16),
  v_pk_mad_u16: packed3((a, x, y, z) => a.add(a.mulLo(x, y), z)),
  v_pk_mad_i16: packed3((a, x, y, z) => a.add(a.mulLo(x, y), z)),
  // RDNA2 ISA V_PK_FMAC_F16 (VOP2): "D.f16[0] = fma(S0.f16[0], S1.f16[0], D.f16[0]); the same for [1]".
  v_pk_fmac_f16: ((c) => {
    const a = c.alg;
    const m = c.mode;
    const [x0, x1] = halves(c, 0);
    const [y0, y1] = halves(c, 1);
    const old = OLD(c);
    const lo = fma16(a, x0, y0, a.and(old, a.word(0xffff)), m);
    const hi = fma16(a, x1, y1, a.lshr(old, a.word(16)), m);
    D(c, a.or(a.and(lo, a.word(0xffff)), a.shl(a.and(hi, a.word(0xffff)), a.word(16))));
  }) as VectorSemantics,
  v_fma_mix_f32: mix(true, 'f32'),
  v_fma_mixlo_f16: mix(true, 'lo'),
  v_fma_mixhi_f16: mix(true, 'hi'),
  v_mad_mix_f32: mix(false, 'f32'),
  v_mad_mixlo_f16: mix(false, 'lo'),
  v_mad_mixhi_f16: mix(false, 'hi'),
  v_dot2_f16_f16: dot2Half(false),
  v_dot2_bf16_bf16: dot2Half(true),
  v_dot2_f32_bf16: dot2F32Bf16,
  v_dot4_i32_iu8: dotIu(8),
  v_dot8_i32_iu4: dotIu(4),
});

/** Two f16 halves (by op_sel) to a packed SNORM / UNORM pair (S1 high). */
function normPk16(signed: boolean): VectorSemantics {
  return (c) => {
    const a = c.alg;
    const m = c.mode;
    const lo = norm16(a, h2f(a, S16(c, 0), m), signed, m);
    const hi = norm16(a, h2f(a, S16(c, 1), m), signed, m);
    D(c, a.or(lo, a.shl(hi, a.word(16))));
  };
}

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
/**
 * Why each VOP name without a per-lane function has none: hardware not modelled (interpolation, the
 * illegal-instruction trap), a result the documents leave undefined, or a wave-level operation not written
 * (WMMA). The cross-lane and M0-indexed instructions (readlane, readfirstlane, writelane, permlane*,
 * movrel*, swap, swaprel) are not listed: they run at wave level (wave-ops.ts). vector.test.ts pins the
 * whole uncovered list.
 */
const interp: VectorUncovered = {
  kind: 'refused',
  reason:
    'reads the attribute parameters the graphics pipeline writes into LDS for a pixel shader (M0 and the attr field select them); a compute dispatch has none and they are not modelled',
};
const notDefined = (what: string): VectorUncovered => ({ kind: 'refused', reason: what });
export const VECTOR_UNCOVERED: Readonly<Record<string, VectorUncovered>> = {
  v_interp_mov_f32_e64: interp,
  v_interp_p1_f32_e64: interp,
  v_interp_p2_f32_e64: interp,
  v_interp_p1ll_f16: interp,
  v_interp_p1lv_f16: interp,
  v_interp_p2_f16: interp,
  v_interp_p2_legacy_f16: interp,
  v_illegal: notDefined('raises the illegal-instruction exception (RDNA ISA, V_ILLEGAL); traps are not modelled'),
  v_exp_legacy_f32: notDefined(
    'Vega ISA: "2^x with legacy semantics", which no AMD document spells out (what differs from V_EXP_F32)',
  ),
  v_log_legacy_f32: notDefined(
    'Vega ISA: "log2 with legacy semantics", which no AMD document spells out (what differs from V_LOG_F32)',
  ),
  v_rsq_legacy_f32: notDefined(
    'Sea Islands ISA writes it "D.f = 1.0 / sqrt(S0.f)", the V_RSQ_F32 formula, under a legacy name; what the legacy rule changes (V_RCP_LEGACY_F32 clamps infinite results to 0) is not written',
  ),
  v_cvt_pk_u8_f32: notDefined(
    'f32_to_u8 (its rounding and its out-of-range and NaN results) is not defined by the ISA documents',
  ),
  v_cvt_pkaccum_u8_f32: notDefined(
    'f32_to_u8 (its rounding and its out-of-range and NaN results) is not defined by the ISA documents',
  ),
  v_screen_partition_4se_b32: notDefined(
    "a lookup in the Vega ISA's 256-entry screen-partition table, which is not at hand here",
  ),
  v_wmma_f32_16x16x16_f16: {
    kind: 'wave-level',
    reason: "a 16x16x16 matrix multiply over the whole wave's registers (RDNA3 ISA 7.9), not written",
  },
  v_wmma_f32_16x16x16_bf16: {
    kind: 'wave-level',
    reason: "a 16x16x16 matrix multiply over the whole wave's registers (RDNA3 ISA 7.9), not written",
  },
  v_wmma_f16_16x16x16_f16: {
    kind: 'wave-level',
    reason: "a 16x16x16 matrix multiply over the whole wave's registers (RDNA3 ISA 7.9), not written",
  },
  v_wmma_bf16_16x16x16_bf16: {
    kind: 'wave-level',
    reason: "a 16x16x16 matrix multiply over the whole wave's registers (RDNA3 ISA 7.9), not written",
  },
  v_wmma_i32_16x16x16_iu8: {
    kind: 'wave-level',
    reason: "a 16x16x16 matrix multiply over the whole wave's registers (RDNA3 ISA 7.9), not written",
  },
  v_wmma_i32_16x16x16_iu4: {
    kind: 'wave-level',
    reason: "a 16x16x16 matrix multiply over the whole wave's registers (RDNA3 ISA 7.9), not written",
  },
};

/** The per-lane semantic function of a vector ALU instruction, or undefined (wave-level, or not written). */
export function vectorSemanticsFor(def: InstructionDef): VectorSemantics | undefined {
  if (!VALU_FAMILIES.includes(def.family)) return undefined;
  if ((def.attrs & Attr.CrossLane) !== 0) return undefined;
  return Object.hasOwn(SEMANTICS, def.name) ? SEMANTICS[def.name] : undefined;
}

/** Why there is no per-lane function, when there is none. */
export function vectorUncoveredReason(def: InstructionDef): string | undefined {
  if (vectorSemanticsFor(def) || waveSemanticsFor(def)) return undefined;
  const why = VECTOR_UNCOVERED[def.name];
  if (why) return `${why.kind}: ${why.reason}`;
  if ((def.attrs & Attr.CrossLane) !== 0) return 'wave-level: cross-lane';
  return 'no vector ALU semantics yet';
}

export function vectorSemanticNames(): readonly string[] {
  return Object.keys(SEMANTICS);
}

/** Integer-destination instructions whose function reads `c.clamp` (saturating forms). */
const INT_CLAMP =
  /^v_(add|sub|subrev|addc|subb|subbrev)(_nc|_co|_co_ci)?_[iu](16|32)$|^v_pk_(add|sub)_[iu]16$|^v_dot(4c?_[iu]32_[iu]8|8_[iu]32_[iu]4)$|^v_mad_(legacy_)?[iu]16$/;

/** A VALU instruction ready to run: its per-lane function and how the context reads it. */
interface Prepared {
  readonly f: VectorSemantics;
  readonly view: LaneView;
}

/** The checks before an instruction runs: any refusal is a SemanticsRefusal, thrown before the state is touched. */
function prepare(target: Target, inst: Instruction): Prepared {
  const def = inst.def;
  const f = vectorSemanticsFor(def);
  if (!f) throw new SemanticsRefusal(def.name, vectorUncoveredReason(def) ?? 'no vector ALU semantics');
  const view = laneView(target, inst);
  const fields = view.fields;
  const dst = def.operands.find((o) => o.role === 'dst' && o.field === 'vdst');
  const floatDst = dst !== undefined && ['f16', 'f32', 'f64', 'v2f16'].includes(dst.type);
  if (
    (view.clamp ?? fields.clamp ?? 0) === 1 &&
    view.encoding !== 'VOPC_E64' &&
    def.family !== 'VOPC' &&
    !floatDst &&
    !INT_CLAMP.test(def.name)
  )
    throw new SemanticsRefusal(def.name, 'clamp on an integer result is not modelled for this instruction');
  if (target.gen === Gen.GFX7 && fields.op_sel) throw new SemanticsRefusal(def.name, 'op_sel on gfx7');
  if (def.family === 'VOP3P' && /^v_dot\d_i32_iu\d$/.test(def.name)) {
    // RDNA3.5 ISA 16.10 V_DOT4_I32_IU8: NEG[0] and NEG[1] are the sources' signedness; NEG[2] and NEG_HI mean nothing written.
    if (((fields.neg_lo ?? 0) & 4) !== 0 || (fields.neg_hi ?? 0) !== 0)
      throw new SemanticsRefusal(def.name, 'NEG[2] and NEG_HI have no documented meaning on a mixed-sign dot product');
  } else if (def.family === 'VOP3P' && def.name.startsWith('v_dot')) {
    // neg_lo/neg_hi reach only the 16-bit float halves (srcPacked); on an integer dot or the f32 accumulator they are not modelled.
    const neg = (fields.neg_lo ?? 0) | (fields.neg_hi ?? 0);
    if ((/_b?f16$/.test(def.name) ? neg & 4 : neg) !== 0)
      throw new SemanticsRefusal(def.name, 'neg on an integer dot product or on its f32 accumulator is not modelled');
  }
  if (/^v_dot2_b?f16_b?f16$/.test(def.name) && (((fields.abs ?? 0) | (fields.neg ?? 0)) & 3) !== 0)
    // RDNA3.5 ISA 16.12 V_DOT2_F16_F16: what abs/neg do to a packed S0/S1 is not written.
    throw new SemanticsRefusal(def.name, 'abs/neg on a packed source is not documented');
  return { f, view };
}

/**
 * Why runVector cannot run this instruction in this encoding on this target, or undefined:
 * the same checks it makes, asked before a dispatch starts.
 */
export function vectorRefusal(target: Target, inst: Instruction): string | undefined {
  try {
    if (waveSemanticsFor(inst.def)) return waveRefusal(target, inst);
    prepare(target, inst);
    return undefined;
  } catch (e) {
    if (e instanceof SemanticsRefusal) return e.reason;
    throw e;
  }
}

/**
 * Runs one VALU instruction over a wave: a wave-level instruction once (wave-ops.ts), else the
 * per-lane function once per active lane, then the gathered lane masks (VOPC sdst, carries,
 * EXEC of v_cmpx). Throws `SemanticsRefusal` before touching the state when the instruction
 * or its encoding cannot run here.
 *
 * DPP (Vega ISA, "DPP"; RDNA2 ISA, "DPP16"/"DPP8"): every lane's source 0 is read before any
 * lane writes; a lane whose row/bank mask is off does not write; a source lane out of range,
 * or inactive without FI, is invalid: with BOUND_CTRL (and always for DPP8) the lane reads 0,
 * without it the lane does not write.
 */
export function runVector<V, B>(alg: Algebra<V, B>, target: Target, inst: Instruction, state: VectorState<V, B>): void {
  const def = inst.def;
  if (waveSemanticsFor(def)) {
    runWave(alg, target, inst, state);
    return;
  }
  const { f, view } = prepare(target, inst);
  const input: LaneInput<V> | undefined = view.fields === inst.fields ? undefined : { view };
  const writes: MaskWrites<B> = { masks: new Map() };
  const dpp = view.dpp;
  if (dpp) {
    if (state.gprIndexMode?.() === true)
      throw new SemanticsRefusal(def.name, 'DPP under GPR index mode is not modelled');
    const src0 = def.operands.find((o) => o.role === 'src' && o.field === 'src0');
    const n = src0 && src0.dwords >= 2 ? 2 : 1;
    const fetched: V[][] = [];
    for (let lane = 0; lane < state.lanes; lane++) {
      const w = [state.readVgpr(dpp.vgpr, lane)];
      if (n === 2) w.push(state.readVgpr(dpp.vgpr + 1, lane));
      fetched.push(w);
    }
    const zero = n === 2 ? [alg.word(0), alg.word(0)] : [alg.word(0)];
    for (let lane = 0; lane < state.lanes; lane++) {
      if (!state.active(lane) || !dpp.laneWrites(lane)) continue;
      const from = dpp.sourceLane(lane);
      const valid = from !== OUT_OF_RANGE && (dpp.fetchInactive || state.active(from));
      if (!valid && !dpp.boundCtrl) continue;
      f(createLaneContext(alg, target, inst, state, lane, writes, { view, src0: valid ? fetched[from] : zero }));
    }
  } else
    for (let lane = 0; lane < state.lanes; lane++) {
      if (!state.active(lane)) continue;
      f(createLaneContext(alg, target, inst, state, lane, writes, input));
    }
  // Lane-mask destinations are written for every lane (0 where inactive), so make them known.
  const maskDsts = def.operands.filter((o) => o.role === 'dst' && o.field === 'sdst');
  if (writes.masks.size === 0 && (maskDsts.length > 0 || (def.attrs & Attr.WritesExec) !== 0)) {
    // No lane active: the masks are still written, all 0.
    const probe: MaskWrites<B> = { masks: new Map() };
    const ctx = createLaneContext(alg, target, inst, state, 0, probe, input ?? (dpp ? { view } : undefined));
    for (const o of maskDsts) ctx.setLaneMask(def.operands.indexOf(o), alg.bool(false));
    if ((def.attrs & Attr.WritesExec) !== 0) ctx.setExecBit(alg.bool(false));
    for (const m of probe.masks.values()) m[0] = undefined;
    flushMasks(alg, target, state, probe);
    return;
  }
  flushMasks(alg, target, state, writes);
}
