/**
 * The context a vector ALU semantic function runs through, once per active lane (D003).
 * Operands are named by their index in `InstructionDef.operands`, as for the scalar ALU;
 * the context does what the encoding says around the function, so the function itself is
 * the instruction's arithmetic only:
 *
 * - sources: the 9-bit code (VGPR of this lane, SGPR or special register as a wave-uniform
 *   word, inline constant typed by the operand's value type, literal), the e32 forms' VGPR
 *   `vsrc1` and implicit VCC, then the input modifiers of VOP3 (abs, then neg: bit
 *   operations on the sign bit of the operand's width) and op_sel / op_sel_hi / neg_lo /
 *   neg_hi of VOP3P;
 * - destinations: output modifiers on a float destination (omod, then clamp to [0, 1],
 *   NaN → 0: Vega ISA, "Output Modifiers"), 16-bit destination halves, and this lane's bit
 *   of a lane-mask destination (VOPC sdst, carry-out; EXEC for v_cmpx). Lane-mask and EXEC
 *   writes are gathered over the wave and written once after every lane ran, inactive
 *   lanes' bits 0 (Vega ISA, "Vector Compare": "inactive lanes write 0").
 *
 * The extension encodings (wave-encodings.ts) reach the context as a `LaneView`: SDWA's
 * sub-dword selects are applied here on sources 0/1 and on the destination word, DPP's source 0
 * arrives already fetched from the lane its control chose (runVector reads every lane's source
 * 0 before any lane writes, as the hardware does), and the view's own modifiers replace VOP3's.
 * On gfx8/9 the GPR index mode (s_set_gpr_idx_on) offsets the VGPR operands M0[15:12] names by
 * M0[7:0] (Vega ISA, "GPR Indexing"), through the state's indexed VGPR access.
 */
import { Gen, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { Attr, type InstructionDef, type OperandDef } from '../isa/registry/types.ts';
import {
  SRC_EXEC_LO,
  SRC_LITERAL,
  SRC_VCC_LO,
  inlineFloatBits,
  inlineInteger,
  m0Code,
  nullCode,
} from '../isa/operands.ts';
import type { Algebra, FloatMode, Pair } from './algebra.ts';
import { SRC_SCC, SemanticsRefusal, type ScalarState } from './context.ts';
import type { LaneView, SdwaSelect } from './wave-encodings.ts';

/** What a VALU instruction sees of its wave (the interpreter's `VectorWaveState`). */
export interface VectorState<V, B> extends ScalarState<V, B> {
  readonly lanes: 32 | 64;
  active(lane: number): boolean;
  readVgpr(index: number, lane: number): V;
  writeVgpr(index: number, lane: number, value: V): void;
  /** The MODE register's float controls; absent: denormals kept (IEEE). */
  floatMode?(): FloatMode;
  /** VGPR `index` of the lane a word names (v_readlane, v_writelane, v_permlane*); absent: a select over the lanes. */
  readVgprOfLane?(index: number, lane: V): V;
  writeVgprOfLane?(index: number, lane: V, value: V): void;
  /** VGPR `base + offset` of one lane (v_movrel*, GPR index mode); absent: those are refused. */
  readVgprAt?(base: number, offset: V, lane: number): V;
  writeVgprAt?(base: number, offset: V, lane: number, value: V): void;
  /** gfx8/9 MODE.gpr_idx_en (s_set_gpr_idx_on / _off); absent: off. */
  gprIndexMode?(): boolean;
  /**
   * The lane's index as a value, for a state whose lane is a symbol (the interpreter's compiled path,
   * src/interp/jit, runs one function for every lane); absent: the lane number as a constant.
   */
  laneWord?(lane: number): V;
  /**
   * The SGPR word a lane-mask source's bit is read from, where only this lane's bit is used (the
   * translator keeps a mask no instruction reads whole as each lane's own bit, D011); absent: readSgpr.
   */
  readLaneMaskWord?(code: number): V;
}

/** What runVector hands the context of one lane beyond the instruction: how to read it, and DPP's fetched source 0. */
export interface LaneInput<V> {
  readonly view: LaneView;
  /** DPP: source 0's words as this lane reads them (the selected lane's, or 0 when invalid under bound_ctrl). */
  readonly src0?: readonly V[];
}

export const DENORMALS_ON: FloatMode = { f32Denormals: true, f64f16Denormals: true };

export interface LaneContext<V, B> {
  readonly alg: Algebra<V, B>;
  readonly def: InstructionDef;
  readonly target: Target;
  readonly mode: FloatMode;
  /** VOP3's clamp bit on an instruction with an integer destination: saturate (the function decides how). */
  readonly clamp: boolean;
  /** This lane's index as a word. */
  laneId(): V;
  /** Source k as a word, input modifiers applied. */
  src(k: number): V;
  /** Source k as a 64-bit pair, input modifiers on bit 63. */
  srcPair(k: number): Pair<V>;
  /** A 16-bit source in the low half (high half 0): op_sel picks the half, modifiers on bit 15. */
  src16(k: number): V;
  /** VOP3P: source k's two 16-bit halves (each in a low half), by op_sel / op_sel_hi, neg_lo / neg_hi. */
  srcPacked(k: number): readonly [V, V];
  /** This lane's bit of a lane-mask source (carry-in, v_cndmask's select, v_div_fmas's VCC). */
  laneMask(k: number): B;
  /** The destination's value before the instruction (v_mac, v_fmac read it). */
  old(k: number): V;
  dst(k: number, value: V): void;
  dstPair(k: number, value: Pair<V>): void;
  /** A 16-bit result (low half of value): gfx8-9 zero the high half; gfx10+ keep the other half (op_sel[3] picks). */
  dst16(k: number, value: V): void;
  /** VOP3P: two 16-bit results. */
  dstPacked(k: number, lo: V, hi: V): void;
  /** This lane's bit of a lane-mask destination. */
  setLaneMask(k: number, bit: B): void;
  /** v_cmpx: this lane's EXEC bit. */
  setExecBit(bit: B): void;
  unsupported(reason: string): never;
  /** Every dword of a VGPR-only operand wider than 64 bits (v_mqsad_u32_u8's 128-bit S2), low first. */
  srcVgprs(k: number): V[];
  /** Writes every dword of a destination wider than 64 bits, low first. */
  dstVgprs(k: number, words: readonly V[]): void;
  /** This lane's VCC bit, for an instruction whose definition reads VCC with no operand naming it (v_div_fmas). */
  vcc(): B;
  /**
   * An encoding field as the extension view or instruction holds it (0 when absent), for the instructions whose
   * modifier bits mean something else (VOP3P MIX: neg_hi is abs; v_dot4_i32_iu8: neg is signedness).
   */
  field(name: string): number;
}

/** Lane-mask writes of one instruction, gathered over the lanes. */
export interface MaskWrites<B> {
  readonly masks: Map<number, (B | undefined)[]>;
}

const FLOAT_TYPES = new Set(['f16', 'f32', 'f64', 'v2f16']);
const HALF_TYPES = new Set(['f16', 'i16', 'u16', 'b16']);

function flag(def: InstructionDef, name: string): number {
  const v = def.flags?.[name];
  return typeof v === 'number' ? v : 0;
}
const genFlag = (def: InstructionDef, name: string, gen: Gen): boolean => (flag(def, name) & (1 << gen)) !== 0;

/**
 * Whether the encoding's extension dword selects lanes or sub-dwords (DPP16, DPP8, SDWA):
 * runVector runs those through a `LaneView` (wave-encodings.ts); a caller running one lane on
 * its own (not a wave) skips them.
 */
export function laneEncodingRefusal(inst: Instruction): string | undefined {
  if (/_(DPP|DPP8|SDWA)$/.test(inst.encoding))
    return `the ${inst.encoding} encoding reads other lanes or sub-dwords: runVector runs it over a whole wave`;
  return undefined;
}

/** SDWA source select (Vega ISA, "SDWA": SRC*_SEL, SRC*_SEXT): the byte or word, zero- or sign-extended. */
function sdwaSource<V, B>(alg: Algebra<V, B>, w: V, sel: number, sext: boolean): V {
  if (sel >= 6) return w;
  const bits = sel < 4 ? 8 : 16;
  const shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
  const part = alg.and(alg.lshr(w, alg.word(shift)), alg.word(bits === 8 ? 0xff : 0xffff));
  return sext ? alg.sext(part, bits) : part;
}

/**
 * SDWA destination (Vega ISA, "SDWA": DST_SEL, DST_UNUSED): the result's low byte or word goes
 * to the selected place; the other bits are 0 (UNUSED_PAD), the selected part's sign above it
 * and 0 below (UNUSED_SEXT), or the destination's old bits (UNUSED_PRESERVE).
 */
function sdwaDest<V, B>(alg: Algebra<V, B>, r: V, old: V, s: SdwaSelect): V {
  const sel = s.dstSel;
  if (sel >= 6) return r;
  const bits = sel < 4 ? 8 : 16;
  const shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
  const low = (bits === 8 ? 0xff : 0xffff) >>> 0;
  const field = (low << shift) >>> 0;
  const placed = alg.shl(alg.and(r, alg.word(low)), alg.word(shift));
  if (s.dstUnused === 1) return alg.shl(alg.sext(alg.and(r, alg.word(low)), bits), alg.word(shift));
  if (s.dstUnused === 2) return alg.or(placed, alg.and(old, alg.word(~field >>> 0)));
  return placed;
}

export function createLaneContext<V, B>(
  alg: Algebra<V, B>,
  target: Target,
  inst: Instruction,
  state: VectorState<V, B>,
  lane: number,
  writes: MaskWrites<B>,
  input?: LaneInput<V>,
): LaneContext<V, B> {
  const def = inst.def;
  const gen = target.gen;
  const view = input?.view;
  const f = view ? view.fields : inst.fields;
  const enc = view ? view.encoding : inst.encoding;
  const e32 = enc === 'VOP1' || enc === 'VOP2' || enc === 'VOPC';
  const vop3p = enc === 'VOP3P';
  const sdwa = view?.sdwa;
  const explicitMods = view !== undefined && (view.neg !== undefined || view.abs !== undefined);
  // gfx8/9 GPR index mode: VGPR operand slot i (src0, src1, src2, dst = 3) is offset by M0[7:0] when M0[12 + i] is set.
  const indexed = gen >= Gen.GFX8 && gen <= Gen.GFX9 && state.gprIndexMode?.() === true;
  const m0 = indexed ? state.readSgpr(m0Code(gen)) : undefined;
  const vgprOffset = (slot: number): V =>
    alg.select(alg.toBool(alg.and(m0!, alg.word(0x1000 << slot))), alg.and(m0!, alg.word(0xff)), alg.word(0));
  const readV = (index: number, slot: number): V => {
    if (!indexed || slot < 0) return state.readVgpr(index, lane);
    if (!state.readVgprAt) return refuse('GPR index mode needs indexed VGPR reads, which this state does not provide');
    return state.readVgprAt(index, vgprOffset(slot), lane);
  };
  const writeV = (index: number, value: V): void => {
    if (!indexed) return state.writeVgpr(index, lane, value);
    if (!state.writeVgprAt)
      return refuse('GPR index mode needs indexed VGPR writes, which this state does not provide');
    state.writeVgprAt(index, vgprOffset(3), lane, value);
  };
  const refuse = (reason: string): never => {
    throw new SemanticsRefusal(def.name, reason);
  };
  const bug = (what: string): never => {
    throw new Error(`semantics of ${def.name}: ${what}`);
  };
  const operand = (k: number, role: 'src' | 'dst'): OperandDef => {
    const o = def.operands[k];
    if (!o) return bug(`operand ${k} does not exist`);
    if (o.role !== role) return bug(`operand ${k} (${o.field}) is a ${o.role}, not a ${role}`);
    return o;
  };
  const srcIndex = (o: OperandDef): number =>
    o.field === 'src0' ? 0 : o.field === 'src1' ? 1 : o.field === 'src2' ? 2 : -1;
  const laneMaskWords = gen >= Gen.GFX10 && !target.wave64 ? 1 : 2;
  const sgpr = (code: number): V => (gen >= Gen.GFX8 && code === nullCode(gen) ? alg.word(0) : state.readSgpr(code));
  const isZeroMask = (lo: number): B =>
    laneMaskWords === 1
      ? alg.eq(state.readSgpr(lo), alg.word(0))
      : alg.boolNot(alg.toBool(alg.or(state.readSgpr(lo), state.readSgpr(lo + 1))));

  /** The 9-bit code of source operand o in this encoding. */
  const codeOf = (o: OperandDef): number => {
    if (e32 && o.field === 'src1') return view?.src1Code ?? 256 + (f.vsrc1 ?? bug('vsrc1 missing'));
    if (e32 && o.field === 'src2') return SRC_VCC_LO;
    const raw = f[o.field];
    if (raw === undefined) return bug(`field ${o.field} is missing`);
    return raw;
  };

  /** Raw words of a source code, for an operand of `o`'s type and width. */
  const codeWords = (o: OperandDef, code: number): V[] => {
    const n = o.dwords >= 2 ? 2 : 1;
    if (code >= 256) {
      const i = code - 256;
      const slot = srcIndex(o);
      return n === 1 ? [readV(i, slot)] : [readV(i, slot), readV(i + 1, slot)];
    }
    if (code < 128) return n === 1 ? [sgpr(code)] : [sgpr(code), sgpr(code + 1)];
    const half = HALF_TYPES.has(o.type) || o.type === 'v2f16' || o.type === 'v2i16';
    const int = inlineInteger(code);
    if (int !== undefined) {
      if (n === 2) return [alg.word(int >>> 0), alg.word(int < 0 ? 0xffffffff : 0)];
      return [alg.word(half ? int & 0xffff : int >>> 0)];
    }
    if (code >= 240 && code <= 248) {
      if (code === 248 && gen === Gen.GFX7) return refuse('inline constant 248 (1/(2*pi)) does not exist on gfx7');
      const bits = inlineFloatBits(code, n === 2 ? 64 : half ? 16 : 32);
      if (bits === undefined) return refuse(`inline constant ${code} has no value`);
      const lo = Number(bits & 0xffffffffn);
      return n === 1 ? [alg.word(lo)] : [alg.word(lo), alg.word(Number(bits >> 32n))];
    }
    if (code === SRC_LITERAL) {
      const lit = inst.literal ?? bug('a literal operand without its literal');
      // A 32-bit literal for an f64 operand is the high word (LLVM); for 64-bit integers, zero-extended.
      if (n === 2) return o.type === 'f64' ? [alg.word(0), alg.word(lit)] : [alg.word(lit), alg.word(0)];
      return [alg.word(half ? lit & 0xffff : lit)];
    }
    const wide = (v: V): V[] => (n === 1 ? [v] : [v, alg.word(0)]);
    if (code === SRC_SCC) return wide(alg.fromBool(state.readScc()));
    if (code === 251) return wide(alg.fromBool(isZeroMask(SRC_VCC_LO)));
    if (code === 252) return wide(alg.fromBool(isZeroMask(SRC_EXEC_LO)));
    return refuse(`source code ${code} is not modelled for vector instructions`);
  };

  const srcWords = (k: number): { o: OperandDef; w: V[] } => {
    const o = operand(k, 'src');
    if (o.cls === 'imm') {
      const lit = inst.literal ?? bug('a literal operand without its literal');
      return { o, w: [alg.word(lit)] };
    }
    const i = srcIndex(o);
    if (i === 0 && input?.src0) return { o, w: [...input.src0] };
    const w = codeWords(o, codeOf(o));
    if (sdwa && (i === 0 || i === 1)) w[0] = sdwaSource(alg, w[0], sdwa.srcSel[i], sdwa.srcSext[i]);
    return { o, w };
  };
  /** VOP3 abs/neg on the sign bit `bit` of word w (0x80000000 or 0x8000). */
  const mods = (o: OperandDef, w: V, bit: number): V => {
    const i = srcIndex(o);
    if (explicitMods && i >= 0) {
      // The extension dword's own neg/abs (DPP16, SDWA), already checked against the form by the decoder.
      let r = w;
      if ((((view!.abs ?? 0) >>> i) & 1) === 1) r = alg.and(r, alg.word(~bit >>> 0));
      if ((((view!.neg ?? 0) >>> i) & 1) === 1) r = alg.xor(r, alg.word(bit));
      return r;
    }
    if (e32 || vop3p) return w;
    if (i < 0) return w;
    const absOn = ((((f.abs ?? 0) & flag(def, 'abs')) >>> i) & 1) === 1 && def.family !== 'VOP3P';
    const negOn = ((((f.neg ?? 0) & flag(def, 'neg')) >>> i) & 1) === 1;
    // VOP3B (sdst in the abs bits) has no abs.
    const vop3b = def.family !== 'VOPC' && def.operands.some((x) => x.field === 'sdst');
    let r = w;
    if (absOn && !vop3b) r = alg.and(r, alg.word(~bit >>> 0));
    if (negOn) r = alg.xor(r, alg.word(bit));
    return r;
  };
  const opselOn = !e32 && !vop3p && genFlag(def, 'opsel', gen);
  const opSel = (i: number): boolean => opselOn && (((f.op_sel ?? 0) >>> i) & 1) === 1;

  const dstInfo = (k: number): OperandDef => operand(k, 'dst');
  const floatDst = (o: OperandDef): boolean => FLOAT_TYPES.has(o.type);
  const omod = view?.omod ?? (!e32 && !vop3p && genFlag(def, 'omod', gen) ? (f.omod ?? 0) : 0);
  const clampBit =
    view?.clamp !== undefined ? view.clamp === 1 : !e32 && genFlag(def, 'clamp', gen) && (f.clamp ?? 0) === 1;
  const mode = state.floatMode?.() ?? DENORMALS_ON;

  /**
   * omod applies only with MODE.IEEE clear and output denormals flushed (RDNA3 ISA 7.2.3.1: "if output
   * denormals are enabled, then output modifiers are ignored ... Output modifiers are ignored if the IEEE
   * mode bit is set to 1"; LLVM's SIFoldOperands folds omod only then, on every generation).
   */
  const omodOn = (denormals: boolean): boolean => omod !== 0 && mode.ieee === false && !denormals;
  /** min/max inside clamp: a NaN operand gives the other (the clamp's NaN rule is below, not IEEE min/max's). */
  const clampMode: FloatMode = { ...mode, ieee: false };
  const nanPasses = mode.dx10Clamp === false;
  /**
   * omod then clamp on an f32 result (Vega ISA: "output modifiers ... applied before clamp"). Clamp is to
   * [0, 1], -0 to +0 (RDNA3 ISA 7.2, CLMP); a NaN becomes 0 under MODE.DX10_CLAMP, else passes (3.4.2).
   */
  const post32 = (v: V, denormals = mode.f32Denormals): V => {
    let r = v;
    if (omodOn(denormals)) r = alg.fMul(r, alg.word([0, 0x40000000, 0x40800000, 0x3f000000][omod]), mode);
    if (clampBit) {
      const c = alg.fMin(alg.fMax(r, alg.word(0), clampMode), alg.word(0x3f800000), clampMode);
      r = nanPasses ? alg.select(alg.fCmp('u', r, r, clampMode), r, c) : c;
    }
    return r;
  };
  const post64 = (v: Pair<V>): Pair<V> => {
    let r = v;
    const z = alg.word(0);
    if (omodOn(mode.f64f16Denormals))
      r = alg.dMul(r, [z, alg.word([0, 0x40000000, 0x40100000, 0x3fe00000][omod])], mode);
    if (clampBit) {
      const c = alg.dMin(alg.dMax(r, [z, z], clampMode), [z, alg.word(0x3ff00000)], clampMode);
      if (nanPasses) {
        const nan = alg.dCmp('u', r, r, clampMode);
        r = [alg.select(nan, r[0], c[0]), alg.select(nan, r[1], c[1])];
      } else r = c;
    }
    return r;
  };
  /** f16 output modifiers, computed in f32 (exact for *2, *4, /2 and clamp, then one rounding back). */
  const post16 = (v: V): V => {
    if (omod === 0 && !clampBit) return v;
    return alg.fToF16(post32(alg.fFromF16(v, mode), mode.f64f16Denormals), false, mode);
  };

  const vdstIndex = (o: OperandDef): number => {
    const raw = f[o.field];
    if (raw === undefined) return bug(`field ${o.field} is missing`);
    return raw;
  };
  /** The destination word (SDWA: through DST_SEL / DST_UNUSED). */
  const put = (index: number, v: V): void =>
    writeV(index, sdwa && sdwa.dstSel < 6 ? sdwaDest(alg, v, readV(index, 3), sdwa) : v);
  const writeWord = (o: OperandDef, i: number, v: V): void => {
    if (o.cls !== 'v') refuse(`a scalar destination (${o.field}) is wave-level`);
    put(vdstIndex(o) + i, v);
  };
  const maskCode = (o: OperandDef): number => {
    if (o.field === 'exec') return SRC_EXEC_LO;
    if (e32 || o.field === 'vcc') return view?.maskDst ?? SRC_VCC_LO;
    if (def.family === 'VOPC' && o.field === 'sdst') return f.vdst ?? bug('VOPC e64 sdst (vdst) missing');
    return codeOf(o);
  };
  /** This lane's bit position in its mask word (lshr masks the count to 5 bits, so a symbolic lane is its own shift). */
  const laneShift = (): V => state.laneWord?.(lane) ?? alg.word(lane & 31);
  const record = (code: number, bit: B): void => {
    let m = writes.masks.get(code);
    if (!m) writes.masks.set(code, (m = new Array<B | undefined>(state.lanes).fill(undefined)));
    m[lane] = bit;
  };

  return {
    alg,
    def,
    target,
    mode,
    clamp: clampBit,
    laneId: () => state.laneWord?.(lane) ?? alg.word(lane),
    src(k) {
      const { o, w } = srcWords(k);
      return mods(o, w[0], 0x80000000);
    },
    srcPair(k) {
      const { o, w } = srcWords(k);
      return [w[0], mods(o, w[1] ?? alg.word(0), 0x80000000)];
    },
    src16(k) {
      const { o, w } = srcWords(k);
      const i = srcIndex(o);
      const h = opSel(i) ? alg.lshr(w[0], alg.word(16)) : alg.and(w[0], alg.word(0xffff));
      return mods(o, h, 0x8000);
    },
    srcPacked(k) {
      const { o, w } = srcWords(k);
      const i = srcIndex(o);
      const pick = (hi: boolean): V => (hi ? alg.lshr(w[0], alg.word(16)) : alg.and(w[0], alg.word(0xffff)));
      const bit = (field: string): boolean => (((f[field] ?? 0) >>> i) & 1) === 1;
      let lo = pick(bit('op_sel'));
      let hi = pick(bit('op_sel_hi'));
      if (bit('neg_lo')) lo = alg.xor(lo, alg.word(0x8000));
      if (bit('neg_hi')) hi = alg.xor(hi, alg.word(0x8000));
      return [lo, hi];
    },
    laneMask(k) {
      const o = operand(k, 'src');
      const code = e32 || o.field === 'vcc' ? SRC_VCC_LO : codeOf(o);
      if (code >= 128) {
        // An inline constant or literal as a mask: its bit for this lane (bits past 31 of a 32-bit value are 0).
        const w = codeWords({ ...o, dwords: 2, type: 'b64' }, code);
        return alg.toBool(alg.and(alg.lshr(w[lane >> 5], laneShift()), alg.word(1)));
      }
      const wordCode = code + (lane >> 5);
      const word =
        gen >= Gen.GFX8 && wordCode === nullCode(gen)
          ? alg.word(0)
          : (state.readLaneMaskWord?.(wordCode) ?? state.readSgpr(wordCode));
      return alg.toBool(alg.and(alg.lshr(word, laneShift()), alg.word(1)));
    },
    old(k) {
      const o = dstInfo(k);
      return readV(vdstIndex(o), 3);
    },
    dst(k, v) {
      const o = dstInfo(k);
      writeWord(o, 0, floatDst(o) && o.type === 'f32' ? post32(v) : v);
    },
    dstPair(k, v) {
      const o = dstInfo(k);
      const r = o.type === 'f64' ? post64(v) : v;
      writeWord(o, 0, r[0]);
      writeWord(o, 1, r[1]);
    },
    dst16(k, v) {
      const o = dstInfo(k);
      let h = alg.and(v, alg.word(0xffff));
      if (o.type === 'f16') h = post16(h);
      const idx = vdstIndex(o);
      if (opSel(3)) {
        const prev = readV(idx, 3);
        put(idx, alg.or(alg.and(prev, alg.word(0xffff)), alg.shl(h, alg.word(16))));
      } else if (gen >= Gen.GFX10) {
        const prev = readV(idx, 3);
        put(idx, alg.or(alg.and(prev, alg.word(0xffff0000)), h));
      } else put(idx, h);
    },
    dstPacked(k, lo, hi) {
      const o = dstInfo(k);
      let l = alg.and(lo, alg.word(0xffff));
      let h = alg.and(hi, alg.word(0xffff));
      if (o.type === 'f16' || o.type === 'v2f16') {
        l = post16(l);
        h = post16(h);
      }
      writeWord(o, 0, alg.or(l, alg.shl(h, alg.word(16))));
    },
    setLaneMask(k, bit) {
      record(maskCode(dstInfo(k)), bit);
    },
    setExecBit(bit) {
      if ((def.attrs & Attr.WritesExec) === 0) bug('writes EXEC, which its definition does not name');
      record(SRC_EXEC_LO, bit);
    },
    unsupported: refuse,
    srcVgprs(k) {
      const o = operand(k, 'src');
      const code = codeOf(o);
      if (code < 256) return refuse(`a ${o.dwords}-dword operand must be VGPRs, not source code ${code}`);
      return Array.from({ length: o.dwords }, (_, j) => readV(code - 256 + j, srcIndex(o)));
    },
    dstVgprs(k, words) {
      const o = dstInfo(k);
      if (words.length !== o.dwords) bug(`${o.field} holds ${o.dwords} dwords, not ${words.length}`);
      words.forEach((w, j) => writeWord(o, j, w));
    },
    vcc() {
      if ((def.attrs & Attr.ReadsVcc) === 0) bug('reads VCC, which its definition does not name');
      const word = sgpr(SRC_VCC_LO + (lane >> 5));
      return alg.toBool(alg.and(alg.lshr(word, laneShift()), alg.word(1)));
    },
    field: (name) => f[name] ?? 0,
  };
}

/** Writes the gathered lane masks: one word per 32 lanes, inactive (unwritten) lanes 0. */
export function flushMasks<V, B>(
  alg: Algebra<V, B>,
  target: Target,
  state: VectorState<V, B>,
  writes: MaskWrites<B>,
): void {
  const words = target.gen >= Gen.GFX10 && !target.wave64 ? 1 : 2;
  for (const [code, bits] of writes.masks) {
    for (let w = 0; w < words; w++) {
      let v = alg.word(0);
      for (let l = 0; l < 32 && w * 32 + l < bits.length; l++) {
        const b = bits[w * 32 + l];
        if (b !== undefined) v = alg.or(v, alg.select(b, alg.word((1 << l) >>> 0), alg.word(0)));
      }
      if (!(target.gen >= Gen.GFX8 && code === nullCode(target.gen))) state.writeSgpr(code + w, v);
    }
  }
}
