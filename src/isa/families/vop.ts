/**
 * The vector-ALU codec: VOP1, VOP2, VOPC (32-bit forms), VOP3 (VOP3A/VOP3B, with the e64
 * forms of VOP1/VOP2/VOPC) and VOP3P, for gfx7 to gfx11, driven by the generated registry
 * (src/isa/registry/generated/vop.ts). The extension encodings (SDWA, DPP, DPP8, gfx11
 * VOP3-DPP) are vop-ext.ts's; operand spelling is vop-operands.ts's (shared with it);
 * assembly is vop-asm.ts's.
 *
 * Registry flags this codec reads (per instruction): `abs`/`neg` = bitmask of sources with
 * those modifiers (VOP3P: neg_hi/neg_lo); `clamp`/`omod`/`opsel`/`e64` = bitmask of
 * generations (bit = Gen) where the e64 form has that modifier / exists; `e32` = has a
 * 32-bit form; `k` = VOP2 form with a literal constant operand (madmk/madak/fmamk/fmaak).
 */
import { DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { Encoding, FamilyCodec, Instruction } from '../instruction.ts';
import { lookupOpcode, lookupVop3Opcode } from '../registry/registry.ts';
import type { Family, InstructionDef, OperandDef } from '../registry/types.ts';
import { assembleVopExtension, decodeVopExtension, isVopExtensionEncoding, printVopExtension } from './vop-ext.ts';
import { hex } from '../operands.ts';
import {
  intModMask,
  isLaneMask,
  printImmediate,
  printScalarDst,
  printSource,
  printVgpr,
  vccText,
  waveOperand,
  withFloatMods,
  withSourceMods,
} from './vop-operands.ts';
import { attrText, interpParamText } from './interp-codec.ts';
import { assembleVop } from './vop-asm.ts';

const SRC_LITERAL = 255;

// ---- decode -----------------------------------------------------------------------------

function flag(def: InstructionDef, name: string): number {
  const v = def.flags?.[name];
  return typeof v === 'number' ? v : 0;
}

/** The registry flags and derived facts decode and print read, resolved once per instruction. */
interface DefInfo {
  readonly abs: number;
  readonly neg: number;
  readonly clamp: number;
  readonly omod: number;
  readonly opsel: number;
  readonly e64: number;
  readonly k: number;
  readonly interp: number;
  readonly high: number;
  readonly opseln: number;
  /** `opselmask`: the op_sel field bits that mean something (0xf when all do). */
  readonly opselmask: number;
  readonly srcCount: number;
  readonly vop3b: boolean;
  readonly mix: boolean;
  /** Packed pairs of halves (`_pk`, v_sat_pk_* excepted): gfx11's e32 forms take any VGPR for them. */
  readonly packed16: boolean;
  readonly e32Name: string;
  readonly e64Name: string;
}
const defInfos = new WeakMap<InstructionDef, DefInfo>();
function info(def: InstructionDef): DefInfo {
  let i = defInfos.get(def);
  if (i === undefined) {
    i = {
      abs: flag(def, 'abs'),
      neg: flag(def, 'neg'),
      clamp: flag(def, 'clamp'),
      omod: flag(def, 'omod'),
      opsel: flag(def, 'opsel'),
      e64: flag(def, 'e64'),
      k: flag(def, 'k'),
      interp: flag(def, 'interp'),
      high: flag(def, 'high'),
      opseln: flag(def, 'opseln'),
      opselmask: flag(def, 'opselmask') || 0xf,
      srcCount: srcCount(def),
      vop3b: isVop3b(def),
      mix: isMix(def),
      packed16: def.name.includes('_pk') && !def.name.startsWith('v_sat_pk'),
      e32Name: `${def.name}_e32`,
      e64Name: `${def.name}_e64`,
    };
    defInfos.set(def, i);
  }
  return i;
}

/** Whether the generation's bit is set in a per-generation flag. */
export function hasGenFlag(def: InstructionDef, name: string, gen: Gen): boolean {
  return (flag(def, name) & (1 << gen)) !== 0;
}

/**
 * Opcode → instruction arrays per (generation, family), built once from the registry so
 * decode indexes an array instead of building lookup keys.
 */
const opTables: (readonly (InstructionDef | undefined)[] | undefined)[] = [];
const TABLE_FAMILIES: readonly (Family | 'E64')[] = ['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P', 'E64'];
const T_VOP1 = 0;
const T_VOP2 = 1;
const T_VOPC = 2;
const T_VOP3 = 3;
const T_VOP3P = 4;
const T_E64 = 5;
function opTable(gen: Gen, which: number): readonly (InstructionDef | undefined)[] {
  const k = gen * 8 + which;
  let t = opTables[k];
  if (!t) {
    const family = TABLE_FAMILIES[which];
    const a: (InstructionDef | undefined)[] = [];
    for (let op = 0; op < 1024; op++)
      a.push(family === 'E64' ? lookupVop3Opcode(gen, op) : lookupOpcode(gen, family, op));
    opTables[k] = t = a;
  }
  return t;
}

/** An opcode's instruction with what decode and print read of it, and the encoding it decodes as. */
interface VopPlan {
  readonly def: InstructionDef;
  readonly info: DefInfo;
  readonly encoding: Encoding;
  /** intModMask(def, gen) of the table's generation. */
  readonly intMods: number;
}

/**
 * The opcode tables again, with each instruction's DefInfo beside it: decode and print
 * find both by indexing (a WeakMap lookup per instruction costs more than its fields).
 */
const planTables: (readonly (VopPlan | undefined)[] | undefined)[] = [];
function planTable(gen: Gen, which: number): readonly (VopPlan | undefined)[] {
  const k = gen * 8 + which;
  let t = planTables[k];
  if (!t) {
    const family = TABLE_FAMILIES[which];
    t = opTable(gen, which).map((def) =>
      def
        ? {
            def,
            info: info(def),
            encoding: family === 'E64' || family === 'VOP3' ? (E64_ENCODING[def.family] ?? 'VOP3') : def.family,
            intMods: intModMask(def, gen),
          }
        : undefined,
    );
    planTables[k] = t;
  }
  return t;
}

/** The DefInfo of an instruction being printed: from the plan tables when it was decoded from them. */
function instInfo(target: Target, inst: Instruction): DefInfo {
  const op = inst.fields.op;
  let p: VopPlan | undefined;
  switch (inst.encoding) {
    case 'VOP1':
      p = planTable(target.gen, T_VOP1)[op];
      break;
    case 'VOP2':
      p = planTable(target.gen, T_VOP2)[op];
      break;
    case 'VOPC':
      p = planTable(target.gen, T_VOPC)[op];
      break;
    case 'VOP3P':
      p = planTable(target.gen, T_VOP3P)[op];
      break;
    default:
      p = planTable(target.gen, T_E64)[op] ?? planTable(target.gen, T_VOP3)[op];
  }
  return p !== undefined && p.def === inst.def ? p.info : info(inst.def);
}

function literalAt(words: Uint32Array, at: number, byteOffset: number): number {
  if (at >= words.length) throw new DecodeError('truncated', byteOffset, 'the literal constant is missing');
  return words[at];
}

function unknownOpcode(family: string, op: number, byteOffset: number): DecodeError {
  return new DecodeError(
    'unknown-opcode',
    byteOffset,
    `${family} opcode ${op} is not an instruction of this generation`,
  );
}

/** Per generation: which 9-bit source codes name something (built once). */
const validSrc: (Uint8Array | undefined)[] = [];
const PROBE_OP: OperandDef = { field: 'src0', role: 'src', cls: 'vs', dwords: 1, type: 'b32' };
function validSources(target: Target): Uint8Array {
  let t = validSrc[target.gen];
  if (!t) {
    t = new Uint8Array(512);
    for (let c = 0; c < 512; c++) t[c] = c === SRC_LITERAL || printSource(target, c, PROBE_OP, 0) !== undefined ? 1 : 0;
    validSrc[target.gen] = t;
  }
  return t;
}

function checkSrc(target: Target, code: number, byteOffset: number): void {
  if (validSources(target)[code] === 0)
    throw new DecodeError('invalid-operand', byteOffset, `source operand code ${code} is reserved`);
}

const srcCounts = new WeakMap<InstructionDef, number>();
/** Number of encoded sources (src0..src2) of the instruction. */
function srcCount(def: InstructionDef): number {
  let n = srcCounts.get(def);
  if (n === undefined) {
    n = 0;
    for (const o of def.operands) if (o.role === 'src' && o.cls !== 'imm' && o.field.startsWith('src')) n++;
    srcCounts.set(def, n);
  }
  return n;
}

function decodeVop1(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  const w = words[at];
  const op = (w >>> 9) & 0xff;
  const plan = planTable(target.gen, T_VOP1)[op];
  if (!plan) throw unknownOpcode('VOP1', op, byteOffset);
  const def = plan.def;
  const src0 = w & 0x1ff;
  // Operand-less instructions (v_nop) ignore the source field, literal marker included.
  // From gfx8 LLVM requires their vdst field to be zero (v_nop, v_clrexcp, v_pipeflush).
  if (def.operands.length === 0) {
    if (target.gen !== Gen.GFX7 && (w >>> 17) & 0xff)
      throw new DecodeError('invalid-operand', byteOffset, 'vdst must be zero');
    return { def, encoding: 'VOP1', offset: byteOffset, size: 4, fields: { op, vdst: 0, src0 } };
  }
  checkSrc(target, src0, byteOffset);
  const fields = { op, vdst: (w >>> 17) & 0xff, src0 };
  if (src0 === SRC_LITERAL)
    return {
      def,
      encoding: 'VOP1',
      offset: byteOffset,
      size: 8,
      fields,
      literal: literalAt(words, at + 1, byteOffset),
    };
  return { def, encoding: 'VOP1', offset: byteOffset, size: 4, fields };
}

function decodeVop2(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  const w = words[at];
  const op = (w >>> 25) & 0x3f;
  const plan = planTable(target.gen, T_VOP2)[op];
  if (!plan) throw unknownOpcode('VOP2', op, byteOffset);
  const def = plan.def;
  // v_illegal is the all-zero dword only.
  if (def.operands.length === 0) {
    if (w !== 0) throw new DecodeError('invalid-operand', byteOffset, 'v_illegal has no fields');
    return { def, encoding: 'VOP2', offset: byteOffset, size: 4, fields: { op, vdst: 0, vsrc1: 0, src0: 0 } };
  }
  const src0 = w & 0x1ff;
  checkSrc(target, src0, byteOffset);
  const fields = { op, vdst: (w >>> 17) & 0xff, vsrc1: (w >>> 9) & 0xff, src0 };
  if (src0 === SRC_LITERAL || plan.info.k)
    return {
      def,
      encoding: 'VOP2',
      offset: byteOffset,
      size: 8,
      fields,
      literal: literalAt(words, at + 1, byteOffset),
    };
  return { def, encoding: 'VOP2', offset: byteOffset, size: 4, fields };
}

function decodeVopc(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  const w = words[at];
  const op = (w >>> 17) & 0xff;
  const plan = planTable(target.gen, T_VOPC)[op];
  if (!plan) throw unknownOpcode('VOPC', op, byteOffset);
  const def = plan.def;
  const src0 = w & 0x1ff;
  checkSrc(target, src0, byteOffset);
  const fields = { op, vsrc1: (w >>> 9) & 0xff, src0 };
  if (src0 === SRC_LITERAL)
    return {
      def,
      encoding: 'VOPC',
      offset: byteOffset,
      size: 8,
      fields,
      literal: literalAt(words, at + 1, byteOffset),
    };
  return { def, encoding: 'VOPC', offset: byteOffset, size: 4, fields };
}

const E64_ENCODING: Readonly<Record<string, Encoding>> = {
  VOP1: 'VOP1_E64',
  VOP2: 'VOP2_E64',
  VOPC: 'VOPC_E64',
  VOP3: 'VOP3',
};

/** Checks the used sources and reads the literal a gfx10+ VOP3/VOP3P source may name. */
function vop3Literal(
  target: Target,
  n: number,
  src0: number,
  src1: number,
  src2: number,
  words: Uint32Array,
  at: number,
  byteOffset: number,
): number | undefined {
  let needs = false;
  if (n > 0) {
    const valid = validSources(target);
    for (let k = 0; k < n; k++) {
      const code = k === 0 ? src0 : k === 1 ? src1 : src2;
      if (valid[code] === 0)
        throw new DecodeError('invalid-operand', byteOffset, `source operand code ${code} is reserved`);
      if (code === SRC_LITERAL) needs = true;
    }
  }
  if (!needs) return undefined;
  if (target.gen < Gen.GFX10)
    throw new DecodeError('invalid-operand', byteOffset, 'VOP3 takes no literal before gfx10');
  return literalAt(words, at + 2, byteOffset);
}

function decodeVop3(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  if (at + 1 >= words.length) throw new DecodeError('truncated', byteOffset, 'VOP3 needs a second dword');
  const w0 = words[at];
  const w1 = words[at + 1];
  const gfx7 = target.gen === Gen.GFX7;
  const op = gfx7 ? (w0 >>> 17) & 0x1ff : (w0 >>> 16) & 0x3ff;
  const plan = planTable(target.gen, T_E64)[op] ?? planTable(target.gen, T_VOP3)[op];
  if (!plan) throw unknownOpcode('VOP3', op, byteOffset);
  const def = plan.def;
  const di = plan.info;
  if (di.interp) return decodeInterpVop3(target, def, op, w0, w1, words, at, byteOffset);
  const src0 = w1 & 0x1ff;
  const src1 = (w1 >>> 9) & 0x1ff;
  const src2 = (w1 >>> 18) & 0x1ff;
  const literal = vop3Literal(target, di.srcCount, src0, src1, src2, words, at, byteOffset);
  const fields = {
    op,
    vdst: w0 & 0xff,
    abs: (w0 >>> 8) & 7,
    sdst: (w0 >>> 8) & 0x7f,
    op_sel: gfx7 ? 0 : (w0 >>> 11) & 0xf,
    // gfx7's VOP3A has clamp at bit 11; its VOP3B (sdst in bits 14:8) at bit 15 as later generations.
    clamp: gfx7 && !di.vop3b ? (w0 >>> 11) & 1 : (w0 >>> 15) & 1,
    src0,
    src1,
    src2,
    omod: (w1 >>> 27) & 3,
    neg: (w1 >>> 29) & 7,
  };
  checkVop3Unused(target, plan, fields, byteOffset);
  const encoding = plan.encoding;
  if (literal === undefined) return { def, encoding, offset: byteOffset, size: 8, fields };
  return { def, encoding, offset: byteOffset, size: 12, fields, literal };
}

/**
 * VOP3-encoded interpolation (gfx8-gfx10.3: v_interp_p1/p2/mov_f32_e64 and the f16 ones):
 * the src0 field holds attr (5:0), attrchan (7:6) and `high` (8, f16 forms only); the
 * interpolant (v_interp_mov's slot) is in src1, the f16 forms' third operand in src2. The
 * src0 modifier bits and those of absent sources are fixed at zero; op_sel is ignored.
 */
function decodeInterpVop3(
  target: Target,
  def: InstructionDef,
  op: number,
  w0: number,
  w1: number,
  words: Uint32Array,
  at: number,
  byteOffset: number,
): Instruction {
  const src0 = w1 & 0x1ff;
  const src1 = (w1 >>> 9) & 0x1ff;
  const src2 = (w1 >>> 18) & 0x1ff;
  const abs = (w0 >>> 8) & 7;
  const neg = (w1 >>> 29) & 7;
  const omod = (w1 >>> 27) & 3;
  const allowed = flag(def, 'abs') | flag(def, 'neg');
  if ((abs | neg) & ~allowed & 7)
    throw new DecodeError('invalid-operand', byteOffset, 'modifier on an operand without one');
  if (src0 >>> 8 && !flag(def, 'high')) throw new DecodeError('invalid-operand', byteOffset, 'high is not allowed');
  if (omod && !hasGenFlag(def, 'omod', target.gen))
    throw new DecodeError('invalid-operand', byteOffset, 'omod not allowed');
  const hasSrc2 = srcCount(def) === 2;
  if (!hasSrc2 && src2 !== 0) throw new DecodeError('invalid-operand', byteOffset, 'src2 must be zero');
  const fields = { op, vdst: w0 & 0xff, abs, clamp: (w0 >>> 15) & 1, src0, src1, src2, omod, neg };
  const isParam = def.operands[1]?.field === 'param';
  if (!isParam && (src1 === SRC_LITERAL || (hasSrc2 && src2 === SRC_LITERAL))) {
    if (target.gen < Gen.GFX10)
      throw new DecodeError('invalid-operand', byteOffset, 'VOP3 takes no literal before gfx10');
    return {
      def,
      encoding: 'VOP3',
      offset: byteOffset,
      size: 12,
      fields,
      literal: literalAt(words, at + 2, byteOffset),
    };
  }
  if (!isParam) checkSrc(target, src1, byteOffset);
  if (hasSrc2) checkSrc(target, src2, byteOffset);
  return { def, encoding: 'VOP3', offset: byteOffset, size: 8, fields };
}

/** Operands and modifiers of a VOP3-encoded interpolation instruction. */
function printInterpVop3(target: Target, inst: Instruction): OperandText {
  const f = inst.fields;
  const def = inst.def;
  const out = new OperandText(mnemonic(target, inst));
  for (const op of def.operands) {
    let t: string | undefined;
    if (op.field === 'vdst') t = printVgpr(f.vdst, op);
    else if (op.field === 'param') t = interpParamText(f.src1);
    else if (op.field === 'attr') t = attrText(f.src0 & 0x3f, (f.src0 >>> 6) & 3);
    else {
      const k = srcIndex(op);
      const code = k === 1 ? f.src1 : f.src2;
      t = vgprOnlyNote(op, code, printSource(target, code, op, inst.literal));
      if (t !== undefined && code < 256 && !(code >= 128 && code <= 248) && code !== SRC_LITERAL)
        t = `${t}/*Invalid register, operand has 'VGPR_32' register class*/`;
      if (t !== undefined) t = withFloatMods(t, ((f.neg >>> k) & 1) === 1, ((f.abs >>> k) & 1) === 1);
    }
    if (t === undefined) invalid(inst, `operand ${op.field} cannot be spelled`);
    out.push(t);
  }
  if (f.src0 >>> 8) out.push('\u0000high');
  if (f.clamp && hasGenFlag(def, 'clamp', target.gen)) out.push('\u0000clamp');
  if (f.omod) out.push(`\u0000${OMOD_TEXT[f.omod]}`);
  return out;
}

/**
 * LLVM's VOP3 encodings fix the fields of absent operands and modifiers at zero: a
 * source field or neg/abs bit past the last source, or an omod the instruction lacks,
 * makes the bytes invalid.
 */
function checkVop3Unused(
  target: Target,
  plan: VopPlan,
  f: {
    readonly src0: number;
    readonly src1: number;
    readonly src2: number;
    readonly neg: number;
    readonly abs: number;
    readonly omod: number;
    readonly clamp: number;
  },
  byteOffset: number,
): void {
  const di = plan.info;
  const n = di.srcCount;
  const past = 7 & ~((1 << n) - 1);
  for (let k = n; k < 3; k++)
    if ((k === 0 ? f.src0 : k === 1 ? f.src1 : f.src2) !== 0)
      throw new DecodeError('invalid-operand', byteOffset, `src${k} must be zero`);
  const vop3b = di.vop3b;
  if (f.neg & past || (!vop3b && f.abs & past))
    throw new DecodeError('invalid-operand', byteOffset, 'modifier on an absent source');
  const genBit = 1 << target.gen;
  if (f.omod && !(di.omod & genBit)) throw new DecodeError('invalid-operand', byteOffset, 'omod not allowed');
  // Modifier bits the instruction lacks are fixed at zero too (from gfx8; gfx7's rows come from its assembler).
  // op_sel forms (VOP3OpSel) leave them free.
  if (target.gen === Gen.GFX7 || di.opsel & genBit) return;
  const intMods = plan.intMods;
  if (f.neg & ~(di.neg | intMods) || (!vop3b && f.abs & ~(di.abs | intMods)))
    throw new DecodeError('invalid-operand', byteOffset, 'modifier not allowed');
  if (f.clamp && !(di.clamp & genBit)) throw new DecodeError('invalid-operand', byteOffset, 'clamp not allowed');
}

/** VOP3B: a VOP3 form with a scalar destination beside vdst (carry-out, div_scale's VCC). */
function isVop3b(def: InstructionDef): boolean {
  return def.family !== 'VOPC' && def.operands.some((o) => o.field === 'sdst');
}

function decodeVop3p(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  if (at + 1 >= words.length) throw new DecodeError('truncated', byteOffset, 'VOP3P needs a second dword');
  const w0 = words[at];
  const w1 = words[at + 1];
  const op = (w0 >>> 16) & 0x7f;
  const plan = planTable(target.gen, T_VOP3P)[op];
  if (!plan) throw unknownOpcode('VOP3P', op, byteOffset);
  const def = plan.def;
  const src0 = w1 & 0x1ff;
  const src1 = (w1 >>> 9) & 0x1ff;
  const src2 = (w1 >>> 18) & 0x1ff;
  const n = plan.info.srcCount;
  const literal = vop3Literal(target, n, src0, src1, src2, words, at, byteOffset);
  if ((n < 3 && src2 !== 0) || (n < 2 && src1 !== 0))
    throw new DecodeError('invalid-operand', byteOffset, 'unused source must be zero');
  const fields = {
    op,
    vdst: w0 & 0xff,
    neg_hi: (w0 >>> 8) & 7,
    op_sel: (w0 >>> 11) & 7,
    op_sel_hi: ((w1 >>> 27) & 3) | (((w0 >>> 14) & 1) << 2),
    clamp: (w0 >>> 15) & 1,
    src0,
    src1,
    src2,
    neg_lo: (w1 >>> 29) & 7,
  };
  if (literal === undefined) return { def, encoding: 'VOP3P', offset: byteOffset, size: 8, fields };
  return { def, encoding: 'VOP3P', offset: byteOffset, size: 12, fields, literal };
}

// ---- print ------------------------------------------------------------------------------

function invalid(inst: Instruction, what: string): never {
  throw new DecodeError('invalid-operand', inst.offset, what);
}

function mnemonic(target: Target, inst: Instruction): string {
  const def = inst.def;
  if (inst.encoding === 'VOP1' || inst.encoding === 'VOP2' || inst.encoding === 'VOPC') {
    const di = instInfo(target, inst);
    return di.e64 & (1 << target.gen) ? di.e32Name : def.name;
  }
  if (inst.encoding === 'VOP1_E64' || inst.encoding === 'VOP2_E64' || inst.encoding === 'VOPC_E64')
    return instInfo(target, inst).e64Name;
  return def.name;
}

function srcIndex(op: OperandDef): number {
  return op.field === 'src0' ? 0 : op.field === 'src1' ? 1 : op.field === 'src2' ? 2 : -1;
}

/** LLVM decodes a constant in a VGPR-only source but marks it `/*Invalid immediate*\/`. */
function vgprOnlyNote(op: OperandDef, code: number, text: string | undefined): string | undefined {
  if (
    text === undefined ||
    !(op.cls === 'v' || isLaneMask(op)) ||
    !((code >= 128 && code <= 248 && (code < 235 || code > 239)) || code === SRC_LITERAL)
  )
    return text;
  return `${text}/*Invalid immediate*/`;
}

function is16(op: OperandDef): boolean {
  return op.type === 'f16' || op.type === 'i16' || op.type === 'u16' || op.type === 'b16';
}

/** Operands of a 32-bit (e32) form. */
function printE32Operands(target: Target, inst: Instruction): OperandText {
  const f = inst.fields;
  const out = new OperandText(mnemonic(target, inst));
  for (const op of inst.def.operands) {
    let t: string | undefined;
    // gfx11's 32-bit forms address 16-bit operands in v0-v127 only (LLVM 19 without real true16);
    // packed pairs of halves are whole registers, but v_sat_pk_u8_i16's result is a true 16-bit value.
    if (target.gen >= Gen.GFX11 && is16(op) && op.cls !== 'imm' && !instInfo(target, inst).packed16) {
      const v = op.field === 'vdst' ? f.vdst : op.field === 'src0' ? f.src0 - 256 : op.field === 'src1' ? f.vsrc1 : -1;
      if (v >= 128) invalid(inst, '16-bit operands take v0-v127 in 32-bit forms');
    }
    if (isLaneMask(op)) t = vccText(target);
    else if (op.cls === 'imm')
      t = hex(inst.literal ?? 0); // madmk/madak's K prints in hex whatever its type
    // readfirstlane's SGPR destination: LLVM names any 8-bit source code there (src_vccz, -10).
    else if (op.field === 'vdst')
      t =
        op.cls === 'v'
          ? printVgpr(f.vdst, op)
          : (printScalarDst(target, f.vdst, op) ??
            vgprOnlyNote({ ...op, cls: 'v' }, f.vdst, printSource(target, f.vdst, op, undefined)));
    else if (op.field === 'src0') t = vgprOnlyNote(op, f.src0, printSource(target, f.src0, op, inst.literal));
    // gfx7's readlane/writelane keep an SGPR lane select in vsrc1.
    else if (op.field === 'src1')
      t = op.cls === 's' ? printSource(target, f.vsrc1, op, undefined) : printVgpr(f.vsrc1, op);
    if (t === undefined) invalid(inst, `operand ${op.field} cannot be spelled`);
    out.push(t);
  }
  return out;
}

function bitList(bits: number, n: number): string {
  let s = '[';
  for (let k = 0; k < n; k++) s += k === 0 ? ((bits >>> k) & 1 ? '1' : '0') : (bits >>> k) & 1 ? ',1' : ',0';
  return s + ']';
}

const OMOD_TEXT = ['', 'mul:2', 'mul:4', 'div:2'];
const OMOD_MOD = OMOD_TEXT.map((m) => `\u0000${m}`);

/** Operands and modifiers of a VOP3 (e64) form. */
function printVop3(target: Target, inst: Instruction): OperandText {
  const f = inst.fields;
  const def = inst.def;
  const out = new OperandText(mnemonic(target, inst));
  const di = instInfo(target, inst);
  const absMask = di.abs;
  const negMask = di.neg;
  const intMods = intModMask(def, target.gen);
  for (const op of def.operands) {
    let t: string | undefined;
    if (op.field === 'vdst') t = op.cls === 'v' ? printVgpr(f.vdst, op) : printScalarDst(target, f.vdst, op);
    else if (op.field === 'sdst') {
      const code = def.family === 'VOPC' ? f.vdst : f.sdst;
      t = printScalarDst(target, code, op);
      // A VOPC e64 destination holding a constant code: LLVM prints it, marked.
      if (t === undefined && def.family === 'VOPC')
        t = vgprOnlyNote(op, code, printSource(target, code, op, inst.literal));
    } else {
      const k = srcIndex(op);
      if (k < 0) invalid(inst, `operand ${op.field} has no VOP3 field`);
      const code = k === 0 ? f.src0 : k === 1 ? f.src1 : f.src2;
      // The common case first: a VGPR without modifier bits spells as just its name.
      if (code >= 256 && (((f.neg | f.abs) >>> k) & 1) === 0) {
        out.push(printVgpr(code - 256, op));
        continue;
      }
      t = vgprOnlyNote(op, code, printSource(target, code, op, inst.literal));
      const neg = ((negMask & f.neg) >>> k) & 1 ? true : false;
      // Integer modifiers: neg is sext, abs is ignored.
      if (t !== undefined && intMods & (1 << k)) t = (f.neg >>> k) & 1 ? `sext(${t})` : t;
      else if (t !== undefined) t = withSourceMods(t, code, neg, ((absMask & f.abs) >>> k) & 1 ? true : false);
    }
    if (t === undefined) invalid(inst, `operand ${op.field} cannot be spelled`);
    out.push(t);
  }
  const genBit = 1 << target.gen;
  // Where only some op_sel bits mean something (registry `opselmask`: v_dot2_f16_f16's src2 and dst), LLVM ignores the rest.
  const opSel = f.op_sel & di.opselmask;
  if (opSel && di.opsel & genBit) {
    // Usually one entry per source and the destination's last; permlane16 prints only two.
    const nsrc = di.srcCount;
    const n = di.opseln || nsrc + 1;
    out.push(`\u0000op_sel:${bitList(n === nsrc + 1 ? opSelWithDst(opSel, nsrc) : opSel, n)}`);
  }
  if (f.clamp && di.clamp & genBit) out.push('\u0000clamp');
  if (f.omod && di.omod & genBit) out.push(OMOD_MOD[f.omod]);
  return out;
}

/** VOP3's op_sel field holds src0..src2 in bits 0-2 and the destination in bit 3; the list puts the destination after the sources. */
function opSelWithDst(bits: number, nsrc: number): number {
  return (bits & ((1 << nsrc) - 1)) | (((bits >>> 3) & 1) << nsrc);
}

function printVop3p(target: Target, inst: Instruction): OperandText {
  const f = inst.fields;
  const def = inst.def;
  const out = new OperandText(mnemonic(target, inst));
  for (const defOp of def.operands) {
    const op = waveOperand(target, def, defOp);
    const mix = instInfo(target, inst).mix;
    let t: string | undefined;
    if (op.field === 'vdst') t = printVgpr(f.vdst, op);
    else {
      const k = srcIndex(op);
      const code = k === 0 ? f.src0 : k === 1 ? f.src1 : f.src2;
      // LLVM prints a mixed-precision FMA's literal as a 16-bit float (its low half).
      t = printSource(target, code, op, inst.literal);
      if (code === SRC_LITERAL && inst.literal !== undefined && mix)
        t = printImmediate(inst.literal & 0xffff, 'f16', target.gen);
      // Mixed-precision FMAs have float modifiers where the packed ones have neg_lo/neg_hi.
      if (t !== undefined && mix)
        t = withSourceMods(t, code, ((f.neg_lo >>> k) & 1) === 1, ((f.neg_hi >>> k) & 1) === 1);
    }
    if (t === undefined) invalid(inst, `operand ${op.field} cannot be spelled`);
    out.push(t);
  }
  const di = instInfo(target, inst);
  const n = di.srcCount;
  const all = (1 << n) - 1;
  const opSel = f.op_sel & all;
  const opSelHi = f.op_sel_hi & all;
  // Packed instructions without op_sel (f32/i32 WMMA): llvm-mc-19 refuses op_sel bits and ignores op_sel_hi.
  const hasOpSel = (di.opsel & (1 << target.gen)) !== 0;
  if (opSel && !hasOpSel) invalid(inst, 'op_sel not allowed');
  if (opSel) out.push(`\u0000op_sel:${bitList(opSel, n)}`);
  if (hasOpSel && (di.mix ? opSelHi !== 0 : opSelHi !== all)) out.push(`\u0000op_sel_hi:${bitList(opSelHi, n)}`);
  if (!di.mix) {
    if (f.neg_lo & all & di.neg) out.push(`\u0000neg_lo:${bitList(f.neg_lo & all, n)}`);
    if (f.neg_hi & all & di.abs) out.push(`\u0000neg_hi:${bitList(f.neg_hi & all, n)}`);
  }
  if (f.clamp && di.clamp & (1 << target.gen)) out.push('\u0000clamp');
  return out;
}

function isMix(def: InstructionDef): boolean {
  return def.name.includes('_mix');
}

/**
 * An instruction's text as it is spelled: the mnemonic, then each pushed operand after
 * ", " (the first after " "), each pushed modifier (marked with a leading NUL) after " ".
 * Built in place rather than as an array joined at the end, and as `text = text + sep + p`:
 * V8 folds that left-to-right chain into one concatenation, where `text += sep + p` or a
 * template builds an intermediate string first (about twice the cost).
 */
class OperandText {
  text: string;
  private first = true;

  constructor(mnemonic: string) {
    this.text = mnemonic;
  }

  push(p: string): void {
    if (p.charCodeAt(0) === 0) this.text = this.text + ' ' + p.slice(1);
    else {
      this.text = this.text + (this.first ? ' ' : ', ') + p;
      this.first = false;
    }
  }
}

function print(target: Target, inst: Instruction): string {
  // The plain encodings by name first: a switch on interned strings is cheaper than the set lookup.
  switch (inst.encoding) {
    case 'VOP1':
    case 'VOP2':
    case 'VOPC':
      return printE32Operands(target, inst).text;
    case 'VOP3P':
      return printVop3p(target, inst).text;
    case 'VOP3':
      if (instInfo(target, inst).interp) return printInterpVop3(target, inst).text;
      return printVop3(target, inst).text;
    case 'VOP1_E64':
    case 'VOP2_E64':
    case 'VOPC_E64':
      return printVop3(target, inst).text;
  }
  if (isVopExtensionEncoding(inst.encoding)) return printVopExtension(target, inst);
  return printVop3(target, inst).text;
}

/**
 * Whether src0 holds an extension marker (0xF9 SDWA, 0xFA DPP, 0xE9/0xEA DPP8; gfx11's
 * VOP3/VOP3P DPP keep it in dword 1): a cheap test so plain forms skip vop-ext.ts.
 */
function mayBeExtension(target: Target, words: Uint32Array, at: number, family: Family): boolean {
  if (family === 'VOP3' || family === 'VOP3P') {
    if (target.gen < Gen.GFX11 || at + 1 >= words.length) return false;
    const s = words[at + 1] & 0x1ff;
    return s === 0xfa || s === 0xe9 || s === 0xea;
  }
  const s = words[at] & 0x1ff;
  return s === 0xf9 || s === 0xfa || s === 0xe9 || s === 0xea;
}

function decode(target: Target, words: Uint32Array, at: number, family: Family, byteOffset: number): Instruction {
  if (mayBeExtension(target, words, at, family)) {
    const ext = decodeVopExtension(target, words, at, family, byteOffset);
    if (ext) return ext;
  }
  switch (family) {
    case 'VOP1':
      return decodeVop1(target, words, at, byteOffset);
    case 'VOP2':
      return decodeVop2(target, words, at, byteOffset);
    case 'VOPC':
      return decodeVopc(target, words, at, byteOffset);
    case 'VOP3P':
      return decodeVop3p(target, words, at, byteOffset);
    default:
      return decodeVop3(target, words, at, byteOffset);
  }
}

export const codec: FamilyCodec = {
  families: ['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P'],
  decode,
  print,
  assemble(target, stmt, resolveLabel) {
    return assembleVopExtension(target, stmt, resolveLabel) ?? assembleVop(target, stmt);
  },
};
