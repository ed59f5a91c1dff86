/**
 * Wave-level vector instructions (D003): each reads or writes lanes other than its own, or a
 * VGPR chosen at run time, so it runs once per wave over the `VectorState` instead of once
 * per lane. Scalar operands (lane selects, M0, constants) are read through a lane context,
 * so their encoding rules are the per-lane ones; values are computed only with the algebra, so
 * the translator runs these definitions too (a lane chosen by a word goes through the state's
 * `readVgprOfLane`, or a select over every lane when the state has none).
 *
 * Sources (cited per function): RDNA3.5 ISA, V_READFIRSTLANE_B32, V_READLANE_B32,
 * V_WRITELANE_B32, V_PERMLANE16_B32, V_PERMLANEX16_B32 (OP_SEL[0] = FI, OP_SEL[1] =
 * BOUND_CTRL), V_PERMLANE64_B32, V_MOVRELS/D/SD/SD_2_B32, V_SWAP_B32, V_SWAPREL_B32; Vega ISA
 * for the same names on gfx7-9 and S_SET_GPR_IDX_ON/OFF/IDX/MODE ("GPR Indexing").
 */
import { Gen, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { SRC_EXEC_LO, m0Code, nullCode } from '../isa/operands.ts';
import type { InstructionDef } from '../isa/registry/types.ts';
import type { Algebra } from './algebra.ts';
import { SemanticsRefusal } from './context.ts';
import { createLaneContext, type LaneContext, type MaskWrites, type VectorState } from './lane-context.ts';

/** What a wave-level function works with. */
export interface WaveContext<V, B> {
  readonly alg: Algebra<V, B>;
  readonly target: Target;
  readonly inst: Instruction;
  readonly state: VectorState<V, B>;
  readonly lanes: 32 | 64;
  /** Source operand k when it is lane-invariant (an SGPR, M0, a constant, a literal). */
  scalar(k: number): V;
  /** Source operand k as lane `lane` reads it (its VGPR, or a scalar source). */
  laneSource(k: number, lane: number): V;
  /** The VGPR index of source operand k (refused when it is not a VGPR). */
  vgprSrc(k: number): number;
  /** The VGPR index of the vector destination. */
  vdst(): number;
  /** Writes the scalar destination (an SGPR-space code; null and M0 included). */
  writeSdst(value: V): void;
  /** VGPR `index` of the lane the word `lane` names (lane < lanes). */
  readLane(index: number, lane: V): V;
  writeLane(index: number, lane: V, value: V): void;
  /** Whether the lane a word names is active in EXEC. */
  laneActive(lane: V): B;
  refuse(reason: string): never;
}

export type WaveSemantics = <V, B>(w: WaveContext<V, B>) => void;

/** The index of an operand of `def` by role and field. */
function operandIndex(def: InstructionDef, role: 'src' | 'dst', field: string): number {
  const i = def.operands.findIndex((o) => o.role === role && o.field === field);
  if (i < 0) throw new Error(`semantics of ${def.name}: no ${role} operand ${field}`);
  return i;
}

/** Lane select (RDNA3.5 ISA, V_READLANE_B32 / V_WRITELANE_B32): S1[4:0] in wave32, S1[5:0] in wave64. */
const laneSelect = <V, B>(w: WaveContext<V, B>): V =>
  w.alg.and(w.scalar(operandIndex(w.inst.def, 'src', 'src1')), w.alg.word(w.lanes - 1));

/**
 * The first active lane as a word, or lane 0 when EXEC is zero (RDNA3.5 ISA, V_READFIRSTLANE_B32:
 * "Force lane 0 if all lanes are disabled"): from EXEC's words with the algebra, so a translator
 * whose EXEC is a value at run time computes it the same way.
 */
function firstActiveLane<V, B>(w: WaveContext<V, B>): V {
  const a = w.alg;
  const lowest = (x: V, plus: number, none: V): V =>
    a.select(a.eq(x, a.word(0)), none, a.add(a.findLsb(x), a.word(plus)));
  const inHigh = w.lanes === 64 ? lowest(w.state.readSgpr(SRC_EXEC_LO + 1), 32, a.word(0)) : a.word(0);
  return lowest(w.state.readSgpr(SRC_EXEC_LO), 0, inHigh);
}

/**
 * v_permlane16 / v_permlanex16 (RDNA3.5 ISA): lane i of row r reads lane
 * `row * 16 + lanesel[i]` of a copy of S0 taken before any write, lanesel being the nibble i
 * of {S2, S1}; permlanex16 reads the other row of its pair (row ^ 1). Only active lanes write.
 * A source lane that is inactive is read only with FI (OP_SEL[0]); otherwise the lane writes 0
 * with BOUND_CTRL (OP_SEL[1]) and keeps its old value without it, as DPP does (the ISA's
 * wave32 rotation example needs FI for exactly those lanes).
 */
function permlane16(cross: boolean): WaveSemantics {
  return <V, B>(w: WaveContext<V, B>): void => {
    const a = w.alg;
    const def = w.inst.def;
    const sel = [w.scalar(operandIndex(def, 'src', 'src1')), w.scalar(operandIndex(def, 'src', 'src2'))];
    const opSel = w.inst.fields.op_sel ?? 0;
    const fetchInactive = (opSel & 1) === 1;
    const boundCtrl = (opSel & 2) === 2;
    const src = w.vgprSrc(operandIndex(def, 'src', 'src0'));
    const dst = w.vdst();
    // Every lane reads before any lane writes (the ISA's copy of S0, for D == S0).
    const results: [number, V][] = [];
    for (let lane = 0; lane < w.lanes; lane++) {
      if (!w.state.active(lane)) continue;
      const i = lane & 15;
      const row = lane >>> 4;
      const base = (cross ? row ^ 1 : row) * 16;
      const nibble = a.and(a.lshr(sel[i >>> 3], a.word(4 * (i & 7))), a.word(15));
      const from = a.add(a.word(base), nibble);
      const value = w.readLane(src, from);
      const valid = fetchInactive ? a.bool(true) : w.laneActive(from);
      const fallback = boundCtrl ? a.word(0) : w.state.readVgpr(dst, lane);
      results.push([lane, a.select(valid, value, fallback)]);
    }
    for (const [lane, v] of results) w.state.writeVgpr(dst, lane, v);
  };
}

/** M0 as an unsigned word. */
const m0 = <V, B>(w: WaveContext<V, B>): V => w.state.readSgpr(m0Code(w.target.gen));
const bits = <V, B>(w: WaveContext<V, B>, x: V, shift: number, mask: number): V =>
  w.alg.and(w.alg.lshr(x, w.alg.word(shift)), w.alg.word(mask));

/** Indexed VGPR access of one lane; the state must provide it. */
function readAt<V, B>(w: WaveContext<V, B>, base: number, offset: V, lane: number): V {
  if (!w.state.readVgprAt) return w.refuse('needs indexed VGPR access, which this state does not provide');
  return w.state.readVgprAt(base, offset, lane);
}
function writeAt<V, B>(w: WaveContext<V, B>, base: number, offset: V, lane: number, value: V): void {
  if (!w.state.writeVgprAt) return w.refuse('needs indexed VGPR access, which this state does not provide');
  w.state.writeVgprAt(base, offset, lane, value);
}

/** Per active lane, in lane order (each lane touches only its own VGPRs). */
function eachActive<V, B>(w: WaveContext<V, B>, f: (lane: number) => void): void {
  for (let lane = 0; lane < w.lanes; lane++) if (w.state.active(lane)) f(lane);
}

const SEMANTICS: Record<string, WaveSemantics> = {
  // RDNA3.5 / Vega ISA, V_READFIRSTLANE_B32: D = VGPR[first active lane][SRC0]; EXEC zero: lane 0.
  v_readfirstlane_b32: (w) => {
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    w.writeSdst(w.readLane(src, firstActiveLane(w)));
  },
  // V_READLANE_B32: D = VGPR[S1 mod wave size][SRC0], whatever EXEC says.
  v_readlane_b32: (w) => {
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    w.writeSdst(w.readLane(src, laneSelect(w)));
  },
  // V_WRITELANE_B32: VGPR[S1 mod wave size][VDST] = S0, whatever EXEC says.
  v_writelane_b32: (w) => {
    w.writeLane(w.vdst(), laneSelect(w), w.scalar(operandIndex(w.inst.def, 'src', 'src0')));
  },
  v_permlane16_b32: permlane16(false),
  v_permlanex16_b32: permlane16(true),
  // V_PERMLANE64_B32: wave64 lanes read lane ^ 32 of a copy of S0 (inactive source lanes included); a NOP in wave32.
  v_permlane64_b32: (w) => {
    if (w.lanes === 32) return;
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    const dst = w.vdst();
    const copy = Array.from({ length: 64 }, (_, l) => w.state.readVgpr(src, l));
    eachActive(w, (lane) => w.state.writeVgpr(dst, lane, copy[lane ^ 32]));
  },
  // V_MOVRELS_B32: D = VGPR[SRC0 + M0]; V_MOVRELD_B32: VGPR[VDST + M0] = S0; V_MOVRELSD_B32: both indexed by M0.
  v_movrels_b32: (w) => {
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    const dst = w.vdst();
    const off = m0(w);
    eachActive(w, (lane) => w.state.writeVgpr(dst, lane, readAt(w, src, off, lane)));
  },
  v_movreld_b32: (w) => {
    const k = operandIndex(w.inst.def, 'src', 'src0');
    const dst = w.vdst();
    const off = m0(w);
    eachActive(w, (lane) => writeAt(w, dst, off, lane, w.laneSource(k, lane)));
  },
  v_movrelsd_b32: (w) => {
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    const dst = w.vdst();
    const off = m0(w);
    eachActive(w, (lane) => writeAt(w, dst, off, lane, readAt(w, src, off, lane)));
  },
  // V_MOVRELSD_2_B32 (gfx10+): source offset M0[9:0], destination offset M0[25:16].
  v_movrelsd_2_b32: (w) => {
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    const dst = w.vdst();
    const x = m0(w);
    const so = bits(w, x, 0, 0x3ff);
    const dso = bits(w, x, 16, 0x3ff);
    eachActive(w, (lane) => writeAt(w, dst, dso, lane, readAt(w, src, so, lane)));
  },
  // V_SWAP_B32: tmp = D; D = S0; S0 = tmp (both VGPRs, per active lane).
  v_swap_b32: (w) => {
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    const dst = w.vdst();
    eachActive(w, (lane) => {
      const d = w.state.readVgpr(dst, lane);
      w.state.writeVgpr(dst, lane, w.state.readVgpr(src, lane));
      w.state.writeVgpr(src, lane, d);
    });
  },
  // V_SWAPREL_B32 (gfx10+): swaps VGPR[SRC0 + M0[9:0]] and VGPR[VDST + M0[25:16]].
  v_swaprel_b32: (w) => {
    const src = w.vgprSrc(operandIndex(w.inst.def, 'src', 'src0'));
    const dst = w.vdst();
    const x = m0(w);
    const so = bits(w, x, 0, 0x3ff);
    const dso = bits(w, x, 16, 0x3ff);
    eachActive(w, (lane) => {
      const d = readAt(w, dst, dso, lane);
      writeAt(w, dst, dso, lane, readAt(w, src, so, lane));
      writeAt(w, src, so, lane, d);
    });
  },
};

/** The wave-level function of a vector instruction, or undefined (a per-lane one, or none). */
export function waveSemanticsFor(def: InstructionDef): WaveSemantics | undefined {
  return Object.hasOwn(SEMANTICS, def.name) ? SEMANTICS[def.name] : undefined;
}

export function waveSemanticNames(): readonly string[] {
  return Object.keys(SEMANTICS);
}

/** Why a wave-level instruction cannot run in this form, or undefined. */
export function waveRefusal(target: Target, inst: Instruction): string | undefined {
  if (/_(DPP|DPP8|SDWA)$/.test(inst.encoding))
    return `${inst.def.name} in the ${inst.encoding} encoding is not modelled`;
  const f = inst.fields;
  if ((f.abs ?? 0) !== 0 || (f.neg ?? 0) !== 0 || (f.omod ?? 0) !== 0 || (f.clamp ?? 0) !== 0)
    return 'input or output modifiers on a wave-level instruction (the ISA says they must be zero)';
  const name = inst.def.name;
  if ((name === 'v_permlane16_b32' || name === 'v_permlanex16_b32') && ((f.op_sel ?? 0) & 0xc) !== 0)
    return 'op_sel[3:2] are reserved on v_permlane16/x16';
  if (target.gen === Gen.GFX7 && (f.op_sel ?? 0) !== 0) return 'op_sel on gfx7';
  return undefined;
}

/** Runs one wave-level instruction over the wave. Throws SemanticsRefusal before writing when it cannot. */
export function runWave<V, B>(alg: Algebra<V, B>, target: Target, inst: Instruction, state: VectorState<V, B>): void {
  const def = inst.def;
  const f = waveSemanticsFor(def);
  if (!f) throw new SemanticsRefusal(def.name, 'no wave-level semantics');
  const why = waveRefusal(target, inst);
  if (why) throw new SemanticsRefusal(def.name, why);
  if (target.gen >= Gen.GFX8 && target.gen <= Gen.GFX9 && state.gprIndexMode?.() === true)
    throw new SemanticsRefusal(def.name, 'a wave-level instruction under GPR index mode is not modelled');
  f(waveContext(alg, target, inst, state));
}

function waveContext<V, B>(
  alg: Algebra<V, B>,
  target: Target,
  inst: Instruction,
  state: VectorState<V, B>,
): WaveContext<V, B> {
  const def = inst.def;
  const gen = target.gen;
  const lanes = state.lanes;
  const fields = inst.fields;
  const refuse = (reason: string): never => {
    throw new SemanticsRefusal(def.name, reason);
  };
  // gfx7's VOP2 v_readlane/v_writelane hold their scalar lane select in the vsrc1 field itself.
  const gfx7LaneSelect =
    inst.encoding === 'VOP2' && def.operands.some((o) => o.role === 'src' && o.field === 'src1' && o.cls === 's');
  const view = gfx7LaneSelect
    ? { encoding: inst.encoding, fields, src1Code: fields.vsrc1 }
    : { encoding: inst.encoding, fields };
  const sink: MaskWrites<B> = { masks: new Map() };
  let lane0: LaneContext<V, B> | undefined;
  const laneCtx = (lane: number): LaneContext<V, B> =>
    createLaneContext(alg, target, inst, state, lane, sink, { view });
  const code = (k: number): number => {
    const o = def.operands[k];
    if (!o) throw new Error(`semantics of ${def.name}: operand ${k} does not exist`);
    if (o.field === 'src1' && gfx7LaneSelect) return fields.vsrc1;
    const c = fields[o.field];
    if (c === undefined) throw new Error(`semantics of ${def.name}: field ${o.field} is missing`);
    return c;
  };
  const execWord = (hi: boolean): V => (hi ? state.readSgpr(SRC_EXEC_LO + 1) : state.readSgpr(SRC_EXEC_LO));
  return {
    alg,
    target,
    inst,
    state,
    lanes,
    scalar(k) {
      const c = code(k);
      if (c >= 256) return refuse(`operand ${def.operands[k]!.field} must be scalar, not v${c - 256}`);
      lane0 ??= laneCtx(0);
      return lane0.src(k);
    },
    laneSource(k, lane) {
      return laneCtx(lane).src(k);
    },
    vgprSrc(k) {
      const c = code(k);
      if (c < 256) return refuse(`operand ${def.operands[k]!.field} must be a VGPR`);
      return c - 256;
    },
    vdst() {
      const v = fields.vdst;
      if (v === undefined) throw new Error(`semantics of ${def.name}: no vdst field`);
      return v;
    },
    writeSdst(value) {
      const c = fields.vdst;
      if (c === undefined) throw new Error(`semantics of ${def.name}: no vdst field`);
      if (c >= 128) return refuse(`scalar destination code ${c} is not an SGPR`);
      if (gen >= Gen.GFX8 && c === nullCode(gen)) return;
      state.writeSgpr(c, value);
    },
    readLane(index, lane) {
      if (state.readVgprOfLane) return state.readVgprOfLane(index, lane);
      let v = state.readVgpr(index, 0);
      for (let l = 1; l < lanes; l++) v = alg.select(alg.eq(lane, alg.word(l)), state.readVgpr(index, l), v);
      return v;
    },
    writeLane(index, lane, value) {
      if (state.writeVgprOfLane) return state.writeVgprOfLane(index, lane, value);
      for (let l = 0; l < lanes; l++)
        state.writeVgpr(index, l, alg.select(alg.eq(lane, alg.word(l)), value, state.readVgpr(index, l)));
    },
    laneActive(lane) {
      const word =
        lanes === 64 ? alg.select(alg.ltU(lane, alg.word(32)), execWord(false), execWord(true)) : execWord(false);
      return alg.toBool(alg.and(alg.lshr(word, alg.and(lane, alg.word(31))), alg.word(1)));
    },
    refuse,
  };
}
