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
 * The encodings that read other lanes (DPP, DPP8, SDWA's lane selects are per lane but not
 * modelled here) are refused: the interpreter handles them at wave level.
 */
import { Gen, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { Attr, type InstructionDef, type OperandDef } from '../isa/registry/types.ts';
import { SRC_EXEC_LO, SRC_LITERAL, SRC_VCC_LO, inlineFloatBits, inlineInteger, nullCode } from '../isa/operands.ts';
import type { Algebra, FloatMode, Pair } from './algebra.ts';
import { SRC_SCC, SemanticsRefusal, type ScalarState } from './context.ts';

/** What a VALU instruction sees of its wave (the interpreter's `VectorWaveState`). */
export interface VectorState<V, B> extends ScalarState<V, B> {
  readonly lanes: 32 | 64;
  active(lane: number): boolean;
  readVgpr(index: number, lane: number): V;
  writeVgpr(index: number, lane: number, value: V): void;
  /** The MODE register's float controls; absent: denormals kept (IEEE). */
  floatMode?(): FloatMode;
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

/** Whether the encoding is one this per-lane context can run. */
export function laneEncodingRefusal(inst: Instruction): string | undefined {
  if (/_(DPP|DPP8|SDWA)$/.test(inst.encoding))
    return `the ${inst.encoding} encoding reads other lanes or sub-dwords: wave-level`;
  return undefined;
}

export function createLaneContext<V, B>(
  alg: Algebra<V, B>,
  target: Target,
  inst: Instruction,
  state: VectorState<V, B>,
  lane: number,
  writes: MaskWrites<B>,
): LaneContext<V, B> {
  const def = inst.def;
  const gen = target.gen;
  const f = inst.fields;
  const e32 = inst.encoding === 'VOP1' || inst.encoding === 'VOP2' || inst.encoding === 'VOPC';
  const vop3p = inst.encoding === 'VOP3P';
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
    if (e32 && o.field === 'src1') return 256 + (f.vsrc1 ?? bug('vsrc1 missing'));
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
      return n === 1 ? [state.readVgpr(i, lane)] : [state.readVgpr(i, lane), state.readVgpr(i + 1, lane)];
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
    return { o, w: codeWords(o, codeOf(o)) };
  };
  /** VOP3 abs/neg on the sign bit `bit` of word w (0x80000000 or 0x8000). */
  const mods = (o: OperandDef, w: V, bit: number): V => {
    if (e32 || vop3p) return w;
    const i = srcIndex(o);
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
  const omod = !e32 && !vop3p && genFlag(def, 'omod', gen) ? (f.omod ?? 0) : 0;
  const clampBit = !e32 && genFlag(def, 'clamp', gen) && (f.clamp ?? 0) === 1;
  const mode = state.floatMode?.() ?? DENORMALS_ON;

  /** omod then clamp on an f32 result (Vega ISA: "output modifiers ... applied before clamp"). */
  const post32 = (v: V): V => {
    let r = v;
    if (omod !== 0) r = alg.fMul(r, alg.word([0, 0x40000000, 0x40800000, 0x3f000000][omod]), mode);
    if (clampBit) r = alg.fMin(alg.fMax(r, alg.word(0), mode), alg.word(0x3f800000), mode);
    return r;
  };
  const post64 = (v: Pair<V>): Pair<V> => {
    let r = v;
    const z = alg.word(0);
    if (omod !== 0) r = alg.dMul(r, [z, alg.word([0, 0x40000000, 0x40100000, 0x3fe00000][omod])], mode);
    if (clampBit) r = alg.dMin(alg.dMax(r, [z, z], mode), [z, alg.word(0x3ff00000)], mode);
    return r;
  };
  /** f16 output modifiers, computed in f32 (exact for *2, *4, /2 and clamp, then one rounding back). */
  const post16 = (v: V): V => {
    if (omod === 0 && !clampBit) return v;
    return alg.fToF16(post32(alg.fFromF16(v, mode)), false, mode);
  };

  const vdstIndex = (o: OperandDef): number => {
    const raw = f[o.field];
    if (raw === undefined) return bug(`field ${o.field} is missing`);
    return raw;
  };
  const writeWord = (o: OperandDef, i: number, v: V): void => {
    if (o.cls !== 'v') refuse(`a scalar destination (${o.field}) is wave-level`);
    state.writeVgpr(vdstIndex(o) + i, lane, v);
  };
  const maskCode = (o: OperandDef): number => {
    if (o.field === 'exec') return SRC_EXEC_LO;
    if (e32 || o.field === 'vcc') return SRC_VCC_LO;
    if (def.family === 'VOPC' && o.field === 'sdst') return f.vdst ?? bug('VOPC e64 sdst (vdst) missing');
    return codeOf(o);
  };
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
    laneId: () => alg.word(lane),
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
        return alg.toBool(alg.and(alg.lshr(w[lane >> 5], alg.word(lane & 31)), alg.word(1)));
      }
      const word = sgpr(code + (lane >> 5));
      return alg.toBool(alg.and(alg.lshr(word, alg.word(lane & 31)), alg.word(1)));
    },
    old(k) {
      const o = dstInfo(k);
      return state.readVgpr(vdstIndex(o), lane);
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
        const prev = state.readVgpr(idx, lane);
        state.writeVgpr(idx, lane, alg.or(alg.and(prev, alg.word(0xffff)), alg.shl(h, alg.word(16))));
      } else if (gen >= Gen.GFX10) {
        const prev = state.readVgpr(idx, lane);
        state.writeVgpr(idx, lane, alg.or(alg.and(prev, alg.word(0xffff0000)), h));
      } else state.writeVgpr(idx, lane, h);
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
