/**
 * The context a semantic function reads and writes through (D003). Operands are named by
 * their index in the instruction's `InstructionDef.operands` list, so a function never
 * guesses which field holds what; the context turns a field's code into a value (SGPR,
 * special register, inline constant, literal, immediate) and a destination's code into
 * register writes. State an instruction touches implicitly (SCC, EXEC, VCC, M0) is reached
 * only where the definition says the instruction touches it (its `Attr` bits or an
 * operand naming the register); anything else is a bug in the semantics and throws.
 *
 * The machine itself is a `ScalarState`: the interpreter's register file, the tracer's
 * known registers, or the translator's expressions. What the state cannot provide (a PC,
 * an aperture, indexed register access) is a `SemanticsRefusal`, never a guess.
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
  sgprCount,
  ttmpBase,
} from '../isa/operands.ts';
import type { Algebra, Pair } from './algebra.ts';

/** The named refusal: this instruction (or this use of it) has no semantics here, and why. */
export class SemanticsRefusal extends Error {
  override readonly name = 'SemanticsRefusal';
  constructor(
    readonly instruction: string,
    readonly reason: string,
  ) {
    super(`${instruction}: ${reason}`);
  }
}

/** Source code of SCC as an operand (`src_scc`); the folding's `known` answers SCC under it. */
export const SRC_SCC = 253;
const SRC_VCCZ = 251;
const SRC_EXECZ = 252;

/** The machine a scalar instruction runs against. Codes are SGPR-space codes (0-127). */
export interface ScalarState<V, B> {
  readSgpr(code: number): V;
  writeSgpr(code: number, value: V): void;
  readScc(): B;
  writeScc(value: B): void;
  /** The register at `base + offset` (s_movrels*): a dynamic index into the SGPR file. */
  readSgprAt?(base: number, offset: V): V;
  writeSgprAt?(base: number, offset: V, value: V): void;
  /** Byte address of the instruction after this one (s_getpc_b64). */
  nextPc?(): Pair<V>;
  /** The aperture sources 235-238 (src_shared_base …). */
  aperture?(code: number): V;
  /** A hardware register by its hwreg id (s_getreg/s_setreg; HW_REG_MODE is 1); refuses the ids it does not model. */
  readHwReg?(id: number): V;
  writeHwReg?(id: number, value: V): void;
}

export interface SemanticsContext<V, B> {
  readonly alg: Algebra<V, B>;
  readonly def: InstructionDef;
  readonly target: Target;
  /** Source operand k (role 'src') as one word: register, constant, literal or immediate field. */
  src(k: number): V;
  /** Source operand k as a 64-bit pair (an inline integer sign-extends, a literal zero-extends). */
  srcPair(k: number): Pair<V>;
  /** The value destination k holds before the instruction (read-modify-write: s_addk_i32, s_bitset*). */
  old(k: number): V;
  oldPair(k: number): Pair<V>;
  dst(k: number, value: V): void;
  dstPair(k: number, value: Pair<V>): void;
  /** Register operand k, `offset` registers further on (s_movrels/s_movreld: the offset is M0). */
  srcIndexed(k: number, offset: V, dwords: 1 | 2): V[];
  dstIndexed(k: number, offset: V, value: readonly V[]): void;
  scc(): B;
  setScc(value: B): void;
  exec(): Pair<V>;
  setExec(value: Pair<V>): void;
  /** Writes EXEC_LO only (the wave32 `_b32` forms). */
  setExecLo(value: V): void;
  vcc(): Pair<V>;
  setVcc(value: Pair<V>): void;
  m0(): V;
  setM0(value: V): void;
  /** Address of the next instruction. */
  nextPc(): Pair<V>;
  /**
   * The raw value of immediate operand k (an instruction constant, like its opcode): for fields that select
   * state rather than compute with it, as s_getreg/s_setreg's hwreg(id, offset, size).
   */
  immediate(k: number): number;
  /** Hardware register `id` (the hwreg field of s_getreg/s_setreg, s_denorm_mode's MODE). */
  hwReg(id: number): V;
  setHwReg(id: number, value: V): void;
  /** Refuses this instruction with a reason: throws `SemanticsRefusal`. */
  unsupported(reason: string): never;
}

/** A 64-bit register range starts where LLVM (and the printer) aligns it: even SGPR/TTMP. */
function alignedBase(gen: Gen, code: number, dwords: number): number {
  if (dwords < 2) return code;
  const align = dwords >= 4 ? 4 : 2;
  if (code < sgprCount(gen)) return code - (code % align);
  const tt = ttmpBase(gen);
  if (code >= tt.first && code < tt.first + tt.count) return code - ((code - tt.first) % align);
  return code;
}

function splitBits(b: bigint): [number, number] {
  return [Number(b & 0xffffffffn), Number((b >> 32n) & 0xffffffffn)];
}

/** Builds the context for one instruction over one state. */
export function createScalarContext<V, B>(
  alg: Algebra<V, B>,
  target: Target,
  inst: Instruction,
  state: ScalarState<V, B>,
): SemanticsContext<V, B> {
  const def = inst.def;
  const gen = target.gen;
  const name = def.name;
  const refuse = (reason: string): never => {
    throw new SemanticsRefusal(name, reason);
  };
  const bug = (what: string): never => {
    throw new Error(`semantics of ${name}: ${what}`);
  };
  const hasAttr = (bit: number): boolean => (def.attrs & bit) !== 0;
  const names = (field: string, role?: 'src' | 'dst'): boolean =>
    def.operands.some((o) => o.field === field && (role === undefined || o.role === role));

  const operand = (k: number, role: 'src' | 'dst'): OperandDef => {
    const o = def.operands[k];
    if (!o) return bug(`operand ${k} does not exist`);
    if (o.role !== role) return bug(`operand ${k} (${o.field}) is a ${o.role}, not a ${role}`);
    return o;
  };
  const isNull = (code: number): boolean => gen >= Gen.GFX8 && code === nullCode(gen);
  const reg = (code: number): V => (isNull(code) ? alg.word(0) : state.readSgpr(code));
  const setReg = (code: number, v: V): void => {
    if (!isNull(code)) state.writeSgpr(code, v);
  };
  const isWave64 = target.wave64;
  const maskZero = (lo: number): B => {
    const l = state.readSgpr(lo);
    return isWave64 ? alg.boolNot(alg.toBool(alg.or(l, state.readSgpr(lo + 1)))) : alg.eq(l, alg.word(0));
  };

  /** The words a source code stands for, as an operand of `dwords` dwords. */
  const codeValue = (code: number, dwords: number): V[] => {
    if (code < 128) {
      const base = alignedBase(gen, code, dwords);
      return Array.from({ length: dwords }, (_, i) => reg(base + i));
    }
    const wide = (lo: V, hi: V): V[] => (dwords === 1 ? [lo] : [lo, hi]);
    const n = inlineInteger(code);
    if (n !== undefined) return wide(alg.word(n >>> 0), alg.word(n < 0 ? 0xffffffff : 0));
    if (code >= 240 && code <= 248) {
      if (code === 248 && gen === Gen.GFX7) return refuse('inline constant 248 (1/(2*pi)) does not exist on gfx7');
      const bits = inlineFloatBits(code, dwords === 2 ? 64 : 32);
      if (bits === undefined) return refuse(`inline constant ${code} has no value`);
      const [lo, hi] = splitBits(bits);
      return wide(alg.word(lo), alg.word(hi));
    }
    switch (code) {
      case SRC_LITERAL:
        if (inst.literal === undefined) return bug('a literal operand without its literal');
        // A 32-bit literal for a 64-bit integer operand is zero-extended (LLVM's encoding and printing).
        return wide(alg.word(inst.literal >>> 0), alg.word(0));
      case SRC_SCC:
        return wide(alg.fromBool(state.readScc()), alg.word(0));
      case SRC_VCCZ:
        return wide(alg.fromBool(maskZero(SRC_VCC_LO)), alg.word(0));
      case SRC_EXECZ:
        return wide(alg.fromBool(maskZero(SRC_EXEC_LO)), alg.word(0));
      case 235:
      case 236:
      case 237:
      case 238:
        if (!state.aperture) return refuse(`aperture source ${code} is not known here`);
        return wide(state.aperture(code), alg.word(0));
      default:
        return refuse(`source code ${code} is not modelled`);
    }
  };

  const srcWords = (k: number, dwords: number): V[] => {
    const o = operand(k, 'src');
    if (o.field === 'literal') {
      if (inst.literal === undefined) return bug('a literal operand without its literal');
      return dwords === 1 ? [alg.word(inst.literal)] : [alg.word(inst.literal), alg.word(0)];
    }
    const raw = inst.fields[o.field];
    if (raw === undefined) return bug(`field ${o.field} is missing`);
    if (o.cls === 'imm' || o.cls === 'label') return dwords === 1 ? [alg.word(raw)] : [alg.word(raw), alg.word(0)];
    return codeValue(raw, dwords);
  };
  const dstCode = (k: number, dwords: number): number => {
    const o = operand(k, 'dst');
    const raw = inst.fields[o.field];
    if (raw === undefined) return bug(`field ${o.field} is missing`);
    return alignedBase(gen, raw, dwords);
  };
  const oldWords = (k: number, dwords: number): V[] => {
    const base = dstCode(k, dwords);
    return Array.from({ length: dwords }, (_, i) => reg(base + i));
  };
  const writeWords = (k: number, words: readonly V[]): void => {
    const base = dstCode(k, words.length);
    words.forEach((w, i) => setReg(base + i, w));
  };
  const indexedBase = (k: number): number => {
    const o = def.operands[k];
    if (!o) return bug(`operand ${k} does not exist`);
    if (o.cls !== 's' && o.cls !== 'ss') return bug(`operand ${k} is not a register operand`);
    const raw = inst.fields[o.field];
    if (raw === undefined) return bug(`field ${o.field} is missing`);
    if (raw >= 128) return refuse(`an indexed operand must be a register, not source code ${raw}`);
    return alignedBase(gen, raw, o.dwords);
  };
  const need = (ok: boolean, what: string): void => {
    if (!ok) bug(`touches ${what}, which its definition does not name`);
  };
  const pair = (lo: number): Pair<V> => [state.readSgpr(lo), state.readSgpr(lo + 1)];
  const m0 = m0Code(gen);

  return {
    alg,
    def,
    target,
    src: (k) => srcWords(k, 1)[0],
    srcPair: (k) => {
      const w = srcWords(k, 2);
      return [w[0], w[1]];
    },
    old: (k) => oldWords(k, 1)[0],
    oldPair: (k) => {
      const w = oldWords(k, 2);
      return [w[0], w[1]];
    },
    dst: (k, v) => writeWords(k, [v]),
    dstPair: (k, v) => writeWords(k, v),
    srcIndexed(k, offset, dwords) {
      need(hasAttr(Attr.ReadsM0), 'an indexed register (M0)');
      if (!state.readSgprAt) return refuse('indexed register access is not available here');
      const base = indexedBase(k);
      return Array.from({ length: dwords }, (_, i) => state.readSgprAt!(base + i, offset));
    },
    dstIndexed(k, offset, value) {
      need(hasAttr(Attr.ReadsM0), 'an indexed register (M0)');
      if (!state.writeSgprAt) return refuse('indexed register access is not available here');
      const base = indexedBase(k);
      value.forEach((w, i) => state.writeSgprAt!(base + i, offset, w));
    },
    scc() {
      need(hasAttr(Attr.ReadsScc) || names('scc', 'src'), 'SCC');
      return state.readScc();
    },
    setScc(v) {
      need(hasAttr(Attr.WritesScc) || names('scc', 'dst'), 'SCC');
      state.writeScc(v);
    },
    exec() {
      need(hasAttr(Attr.ReadsExec) || names('exec', 'src'), 'EXEC');
      return pair(SRC_EXEC_LO);
    },
    setExec(v) {
      need(hasAttr(Attr.WritesExec) || names('exec', 'dst'), 'EXEC');
      state.writeSgpr(SRC_EXEC_LO, v[0]);
      state.writeSgpr(SRC_EXEC_LO + 1, v[1]);
    },
    setExecLo(v) {
      need(hasAttr(Attr.WritesExec) || names('exec', 'dst'), 'EXEC');
      state.writeSgpr(SRC_EXEC_LO, v);
    },
    vcc() {
      need(hasAttr(Attr.ReadsVcc) || names('vcc', 'src'), 'VCC');
      return pair(SRC_VCC_LO);
    },
    setVcc(v) {
      need(hasAttr(Attr.WritesVcc) || names('vcc', 'dst'), 'VCC');
      state.writeSgpr(SRC_VCC_LO, v[0]);
      state.writeSgpr(SRC_VCC_LO + 1, v[1]);
    },
    m0() {
      need(hasAttr(Attr.ReadsM0) || names('m0', 'src'), 'M0');
      return state.readSgpr(m0);
    },
    setM0(v) {
      need(hasAttr(Attr.WritesM0) || names('m0', 'dst'), 'M0');
      state.writeSgpr(m0, v);
    },
    nextPc() {
      need(hasAttr(Attr.PcRelative), 'the PC');
      if (!state.nextPc) return refuse('the program counter is not known here');
      return state.nextPc();
    },
    immediate(k) {
      const o = operand(k, 'src');
      if (o.cls !== 'imm') return bug(`operand ${k} (${o.field}) is not an immediate`);
      const raw = o.field === 'literal' ? inst.literal : inst.fields[o.field];
      if (raw === undefined) return bug(`field ${o.field} is missing`);
      return raw >>> 0;
    },
    hwReg(id) {
      if (!state.readHwReg) return refuse('hardware registers are not known here');
      return state.readHwReg(id);
    },
    setHwReg(id, v) {
      if (!state.writeHwReg) return refuse('hardware registers are not known here');
      state.writeHwReg(id, v);
    },
    unsupported: refuse,
  };
}
