/**
 * The scalar families: SOP1, SOP2, SOPK, SOPC, SOPP and scalar memory (SMEM on gfx8+,
 * SMRD on gfx7), for every generation. Which opcode is which instruction, its operands
 * and how its immediate is spelled all come from the generated registry table; this file
 * knows only the field layouts per family and generation and LLVM's operand spelling.
 */
import { DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement, FamilyCodec, Instruction } from '../instruction.ts';
import { OpcodePlans } from '../registry/registry.ts';
import type { Family, InstructionDef, OperandDef } from '../registry/types.ts';
import {
  SRC_LITERAL,
  hex,
  inlineFloatText,
  inlineInteger,
  namedSourceText,
  nullCode,
  scalarRegName,
  sgprCount,
} from '../operands.ts';
import { formatImm, formatPlainImm, type ImmStyle } from './scalar-syms.ts';
import { assembleScalar } from './scalar-asm.ts';

const SCALAR_FAMILIES: readonly Family[] = ['SOP1', 'SOP2', 'SOPK', 'SOPC', 'SOPP', 'SMEM'];

// ---- decoding ----

function need(words: Uint32Array, at: number, byteOffset: number, what: string): number {
  if (at >= words.length) throw new DecodeError('truncated', byteOffset, `${what} is missing`);
  return words[at];
}

function unknownOpcode(family: Family, op: number, byteOffset: number): DecodeError {
  return new DecodeError(
    'unknown-opcode',
    byteOffset,
    `${family} opcode ${op} is not an instruction of this generation`,
  );
}

/** Per generation, validSourceUncached of each 8-bit code, built on first use. */
const validSources: (Uint8Array | undefined)[] = [];

/** Is this 8-bit source code something LLVM decodes (a register, constant or literal)? */
function validSource(gen: Gen, code: number): boolean {
  let t = validSources[gen];
  if (!t) {
    t = new Uint8Array(256);
    for (let c = 0; c < 256; c++) t[c] = validSourceUncached(gen, c) ? 1 : 0;
    validSources[gen] = t;
  }
  return t[code & 0xff] === 1;
}

function validSourceUncached(gen: Gen, code: number): boolean {
  if (code < 128) return scalarRegName(gen, code, 1) !== undefined || code < sgprCount(gen);
  if (code <= 208) return true;
  if (code >= 240 && code <= 247) return true;
  if (code === 248) return gen >= Gen.GFX8;
  if (code === SRC_LITERAL) return true;
  if (code === 254) return false; // lds_direct is a VALU-only source
  return namedSourceText(gen, code) !== undefined;
}

/**
 * What decoding and printing need to know of an instruction, worked out once per
 * (generation, opcode) from its definition: the literal probes in operand order (a scalar
 * ssrc field, or LITERAL_PROBE for an explicit literal), the ssrc fields to validate, the
 * register operands to check (field read, width), and the registry flags the printer reads.
 */
interface ScalarPlan {
  readonly def: InstructionDef;
  readonly literalProbes: readonly string[];
  readonly literalSlots: readonly Slot[];
  readonly sourceFields: readonly string[];
  readonly sourceSlots: readonly Slot[];
  readonly regChecks: readonly RegCheck[];
  readonly smrdRegChecks: readonly RegCheck[];
  readonly hasOffset: boolean;
  /** `flags.strict`: the immediate (SOPP) or the offset's imm bit (SMEM) must be zero. */
  readonly strict: boolean;
  /** `flags.optional`: a zero simm16 is left out of the text. */
  readonly optional: boolean;
  /** `flags.cache`: SMEM prints glc/dlc. */
  readonly cache: boolean;
  readonly immStyle: ImmStyle;
}

interface RegCheck {
  readonly field: string;
  /** The field the code is read from (SMRD reads sdata from sdst). */
  readonly readField: string;
  /** Where decodeSalu holds that field's value (the SALU fields are locals there). */
  readonly slot: Slot;
  readonly dwords: number;
  readonly ssrc: boolean;
}

/** A SALU field decodeSalu keeps in a local, or Keyed: read from the fields object by name. */
const enum Slot {
  Sdst = 0,
  Ssrc0 = 1,
  Ssrc1 = 2,
  Keyed = 3,
}

/** The slot of a field in a family's layout (the fields decodeSalu extracts for it). */
function slotOf(family: Family, field: string): Slot {
  if (family === 'SOP2' || family === 'SOP1' || family === 'SOPK') if (field === 'sdst') return Slot.Sdst;
  if (family === 'SOP2' || family === 'SOP1' || family === 'SOPC') if (field === 'ssrc0') return Slot.Ssrc0;
  if (family === 'SOP2' || family === 'SOPC') if (field === 'ssrc1') return Slot.Ssrc1;
  return Slot.Keyed;
}

function slotValue(
  slot: Slot,
  name: string,
  fields: Readonly<Record<string, number>>,
  sdst: number,
  ssrc0: number,
  ssrc1: number,
): number {
  return slot === Slot.Sdst ? sdst : slot === Slot.Ssrc0 ? ssrc0 : slot === Slot.Ssrc1 ? ssrc1 : fields[name];
}

const LITERAL_PROBE = '';

function buildPlan(def: InstructionDef): ScalarPlan {
  const literalProbes: string[] = [];
  for (const o of def.operands) {
    if ((o.cls === 'ss' || o.cls === 's') && o.field.startsWith('ssrc')) literalProbes.push(o.field);
    if (o.field === 'literal') {
      literalProbes.push(LITERAL_PROBE);
      break; // the original loop returned here
    }
  }
  const sourceFields = def.operands.filter((o) => o.field.startsWith('ssrc') && o.cls !== 'imm').map((o) => o.field);
  const regs = def.operands.filter((o) => (o.cls === 's' || o.cls === 'ss') && o.field !== 'offset');
  const check = (smrd: boolean) =>
    regs.map((o) => {
      const readField = smrd && o.field === 'sdata' ? 'sdst' : o.field;
      return {
        field: o.field,
        readField,
        slot: smrd ? Slot.Keyed : slotOf(def.family, readField),
        dwords: o.dwords,
        ssrc: o.field.startsWith('ssrc'),
      };
    });
  return {
    def,
    literalProbes,
    literalSlots: literalProbes.map((f) => slotOf(def.family, f)),
    sourceFields,
    sourceSlots: sourceFields.map((f) => slotOf(def.family, f)),
    regChecks: check(false),
    smrdRegChecks: check(true),
    hasOffset: def.operands.some((o) => o.field === 'offset'),
    strict: Boolean(def.flags?.strict),
    optional: Boolean(def.flags?.optional),
    cache: Boolean(def.flags?.cache),
    immStyle: (def.flags?.imm as ImmStyle | undefined) ?? 'hex',
  };
}

/** The plans of each scalar family, by opcode. */
const PLANS: Readonly<Record<string, OpcodePlans<ScalarPlan>>> = Object.fromEntries(
  SCALAR_FAMILIES.map((f) => [f, new OpcodePlans<ScalarPlan>(f, buildPlan)]),
);

const SOP1_PLANS = PLANS.SOP1;
const SOP2_PLANS = PLANS.SOP2;
const SOPK_PLANS = PLANS.SOPK;
const SOPC_PLANS = PLANS.SOPC;
const SOPP_PLANS = PLANS.SOPP;

/** The plan of a decoded (or hand-made) instruction, for the printer. */
function planOf(gen: Gen, inst: Instruction): ScalarPlan {
  const plans = PLANS[inst.encoding];
  return plans ? plans.forInstruction(gen, inst.def, inst.fields.op) : buildPlan(inst.def);
}

/** Whether any source operand of the instruction names a literal (or it has an explicit one). */
function needsLiteral(
  plan: ScalarPlan,
  fields: Readonly<Record<string, number>>,
  sdst: number,
  ssrc0: number,
  ssrc1: number,
): boolean {
  const probes = plan.literalProbes;
  const slots = plan.literalSlots;
  for (let i = 0; i < probes.length; i++) {
    const p = probes[i];
    if (p === LITERAL_PROBE || slotValue(slots[i], p, fields, sdst, ssrc0, ssrc1) === SRC_LITERAL) return true;
  }
  return false;
}

function checkSources(
  gen: Gen,
  plan: ScalarPlan,
  fields: Readonly<Record<string, number>>,
  sdst: number,
  ssrc0: number,
  ssrc1: number,
  byteOffset: number,
): void {
  const names = plan.sourceFields;
  const slots = plan.sourceSlots;
  for (let i = 0; i < names.length; i++) {
    const code = slotValue(slots[i], names[i], fields, sdst, ssrc0, ssrc1);
    if (!validSource(gen, code))
      throw new DecodeError('invalid-operand', byteOffset, `${names[i]} code ${code} is reserved`);
  }
}

function make(
  def: InstructionDef,
  family: Family,
  byteOffset: number,
  dwords: number,
  fields: Record<string, number>,
  literal?: number,
): Instruction {
  const size = (dwords + (literal === undefined ? 0 : 1)) * 4;
  return literal === undefined
    ? { def, encoding: family, offset: byteOffset, size, fields }
    : { def, encoding: family, offset: byteOffset, size, fields, literal };
}

function decodeSalu(target: Target, words: Uint32Array, at: number, family: Family, byteOffset: number): Instruction {
  const w = words[at];
  const gen = target.gen;
  // The fields a family has are also kept in locals (see Slot); -1 where it lacks one.
  let fields: Record<string, number>;
  let op: number;
  let sdst = -1;
  let ssrc0 = -1;
  let ssrc1 = -1;
  let simm16: number | undefined;
  let plans: OpcodePlans<ScalarPlan>;
  switch (family) {
    case 'SOP2':
      op = (w >>> 23) & 0x7f;
      sdst = (w >>> 16) & 0x7f;
      ssrc1 = (w >>> 8) & 0xff;
      ssrc0 = w & 0xff;
      fields = { op, sdst, ssrc1, ssrc0 };
      plans = SOP2_PLANS;
      break;
    case 'SOP1':
      op = (w >>> 8) & 0xff;
      sdst = (w >>> 16) & 0x7f;
      ssrc0 = w & 0xff;
      fields = { op, sdst, ssrc0 };
      plans = SOP1_PLANS;
      break;
    case 'SOPC':
      op = (w >>> 16) & 0x7f;
      ssrc1 = (w >>> 8) & 0xff;
      ssrc0 = w & 0xff;
      fields = { op, ssrc1, ssrc0 };
      plans = SOPC_PLANS;
      break;
    case 'SOPK':
      op = (w >>> 23) & 0x1f;
      sdst = (w >>> 16) & 0x7f;
      simm16 = w & 0xffff;
      fields = { op, sdst, simm16 };
      plans = SOPK_PLANS;
      break;
    default:
      op = (w >>> 16) & 0x7f;
      simm16 = w & 0xffff;
      fields = { op, simm16 };
      plans = SOPP_PLANS;
  }
  const plan = plans.plan(gen, op);
  if (plan === undefined) throw unknownOpcode(family, op, byteOffset);
  const def = plan.def;
  if (plan.strict && simm16 !== 0)
    throw new DecodeError('invalid-operand', byteOffset, `${def.name} takes no immediate`);
  checkSources(gen, plan, fields, sdst, ssrc0, ssrc1, byteOffset);
  checkRegisters(gen, plan, fields, byteOffset, false, sdst, ssrc0, ssrc1);
  if (!needsLiteral(plan, fields, sdst, ssrc0, ssrc1))
    return { def, encoding: family, offset: byteOffset, size: 4, fields };
  const literal = need(words, at + 1, byteOffset, 'the 32-bit literal');
  return { def, encoding: family, offset: byteOffset, size: 8, fields, literal };
}

/** gfx7 SMRD: one dword; a literal dword offset follows when offset = 255 with imm = 0. */
function decodeSmrd(words: Uint32Array, at: number, byteOffset: number): Instruction {
  const w = words[at];
  const fields = {
    op: (w >>> 22) & 0x1f,
    sdst: (w >>> 15) & 0x7f,
    sbase: ((w >>> 9) & 0x3f) << 1,
    imm: (w >>> 8) & 1,
    offset: w & 0xff,
  };
  const plan = PLANS.SMEM.plan(Gen.GFX7, fields.op);
  if (plan === undefined) throw unknownOpcode('SMEM', fields.op, byteOffset);
  const def = plan.def;
  checkRegisters(Gen.GFX7, plan, fields, byteOffset, true);
  const literal =
    fields.imm === 0 && fields.offset === SRC_LITERAL && plan.hasOffset
      ? need(words, at + 1, byteOffset, 'the literal offset')
      : undefined;
  return make(def, 'SMEM', byteOffset, 1, fields, literal);
}

/** gfx8+ SMEM: two dwords, layouts per generation. */
function decodeSmem(gen: Gen, words: Uint32Array, at: number, byteOffset: number): Instruction {
  const w = words[at];
  const w1 = need(words, at + 1, byteOffset, 'SMEM dword 1');
  const op = (w >>> 18) & 0xff;
  const sdata = (w >>> 6) & 0x7f;
  const sbase = (w & 0x3f) << 1;
  let fields: Record<string, number>;
  // Object literals with the keys in the order the fields always had (one shape per layout).
  if (gen === Gen.GFX9) {
    const soe = (w >>> 14) & 1;
    fields = {
      op,
      sdata,
      sbase,
      glc: (w >>> 16) & 1,
      imm: (w >>> 17) & 1,
      offset: w1 & 0x1fffff,
      soffset: soe ? (w1 >>> 25) & 0x7f : w1 & 0x7f,
      nv: (w >>> 15) & 1,
      soe,
    };
  } else if (gen <= Gen.GFX9) {
    fields = {
      op,
      sdata,
      sbase,
      glc: (w >>> 16) & 1,
      imm: (w >>> 17) & 1,
      offset: w1 & (gen === Gen.GFX8 ? 0xfffff : 0x1fffff),
      soffset: w1 & 0x7f,
    };
  } else {
    const gfx11 = gen >= Gen.GFX11;
    fields = {
      op,
      sdata,
      sbase,
      glc: (w >>> (gfx11 ? 14 : 16)) & 1,
      dlc: (w >>> (gfx11 ? 13 : 14)) & 1,
      offset: w1 & 0x1fffff,
      soffset: (w1 >>> 25) & 0x7f,
    };
  }
  const plan = PLANS.SMEM.plan(gen, op);
  if (plan === undefined) throw unknownOpcode('SMEM', op, byteOffset);
  const def = plan.def;
  if (plan.strict && fields.imm)
    throw new DecodeError('invalid-operand', byteOffset, `${def.name} takes no immediate offset`);
  checkRegisters(gen, plan, fields, byteOffset);
  return make(def, 'SMEM', byteOffset, 2, fields);
}

// ---- printing ----

/** Register operands must name registers of this generation, else LLVM rejects the bytes. */
function checkRegisters(
  gen: Gen,
  plan: ScalarPlan,
  fields: Readonly<Record<string, number>>,
  byteOffset: number,
  smrd = false,
  sdst = -1,
  ssrc0 = -1,
  ssrc1 = -1,
): void {
  const checks = smrd ? plan.smrdRegChecks : plan.regChecks;
  for (let i = 0; i < checks.length; i++) {
    const o = checks[i];
    const code = slotValue(o.slot, o.readField, fields, sdst, ssrc0, ssrc1);
    if (o.ssrc && code >= 128) continue;
    if (regName(gen, code, o.dwords) === undefined)
      throw new DecodeError(
        'invalid-operand',
        byteOffset,
        `${o.field} code ${code} is not a ${o.dwords}-dword register`,
      );
  }
}

/** regNameUncached by generation, width and code (0-255; other codes are computed), filled on first use. */
const regNames: (string | null | undefined)[][][] = [];

function regName(gen: Gen, code: number, dwords: number): string | undefined {
  if (code >= 0 && code < 256 && dwords < 32) {
    const byGen = (regNames[gen] ??= []);
    const byWidth = (byGen[dwords] ??= []);
    let name = byWidth[code];
    if (name === undefined) byWidth[code] = name = regNameUncached(gen, code, dwords) ?? null;
    return name ?? undefined;
  }
  return regNameUncached(gen, code, dwords);
}

function regNameUncached(gen: Gen, code: number, dwords: number): string | undefined {
  // scalarRegName aligns misaligned SGPR/TTMP ranges down; null names every width here.
  if (gen >= Gen.GFX8 && code === nullCode(gen)) return 'null';
  return scalarRegName(gen, code, dwords);
}

/** Register operand spelling; LLVM aligns down misaligned SGPR/TTMP ranges (with a warning). */
function regText(gen: Gen, code: number, dwords: number): string {
  return regName(gen, code, dwords) ?? `/*Invalid register*/`;
}

/** Float inline constants by their binary32 bits, for spelling 32-bit literals as LLVM does. */
const F32_INLINE_BITS = new Map<number, number>([
  [0x3f000000, 240],
  [0xbf000000, 241],
  [0x3f800000, 242],
  [0xbf800000, 243],
  [0x40000000, 244],
  [0xc0000000, 245],
  [0x40800000, 246],
  [0xc0800000, 247],
  [0x3e22f983, 248],
]);

/** LLVM spells a literal that equals an inline constant like the constant. */
function literalText(gen: Gen, value: number, dwords: number): string {
  const v = value | 0;
  // 64-bit operands zero-extend their 32-bit literal.
  if (dwords === 2) return value >>> 0 <= 64 ? String(value >>> 0) : hex(value);
  if (v >= -16 && v <= 64) return String(v);
  {
    const code = F32_INLINE_BITS.get(value >>> 0);
    const f = code === undefined ? undefined : inlineFloatText(code, 32, gen);
    if (f !== undefined) return f;
  }
  return hex(value);
}

function constText(gen: Gen, code: number, o: OperandDef, literal: number | undefined): string | undefined {
  const n = inlineInteger(code);
  if (n !== undefined) return String(n);
  const f = inlineFloatText(code, o.dwords === 2 ? 64 : 32, gen);
  if (f !== undefined) return f;
  if (code === SRC_LITERAL) return literalText(gen, literal ?? 0, o.dwords);
  return namedSourceText(gen, code);
}

function sourceText(gen: Gen, code: number, o: OperandDef, literal: number | undefined): string {
  if (code < 128) return regText(gen, code, o.dwords);
  const t = constText(gen, code, o, literal) ?? `/*invalid ${code}*/`;
  // Register-only operands (s_setpc_b64, s_movrels…) print constants with LLVM's marker.
  return o.cls === 's' && !namedSourceText(gen, code) ? `${t}/*Invalid immediate*/` : t;
}

function operandText(gen: Gen, inst: Instruction, plan: ScalarPlan, o: OperandDef): string {
  const f = inst.fields;
  if (o.field === 'literal') return literalText(gen, inst.literal ?? 0, 1);
  if (o.field === 'simm16' || o.cls === 'imm') return formatImm(plan.immStyle, gen, f[o.field]);
  if (o.field.startsWith('ssrc')) return sourceText(gen, f[o.field], o, inst.literal);
  return regText(gen, f[o.field], o.dwords);
}

function signedHex(v: number): string {
  return v < 0 ? `-${hex(-v)}` : hex(v);
}

function sext21(v: number): number {
  return (v << 11) >> 11;
}

/** The offset operand of SMEM/SMRD and its trailing modifiers, per generation. */
function smemOffsetText(gen: Gen, inst: Instruction): string {
  const f = inst.fields;
  if (gen === Gen.GFX7) {
    if (f.imm) return hex(f.offset);
    return f.offset === SRC_LITERAL ? hex(inst.literal ?? 0) : regText(gen, f.offset, 1);
  }
  if (gen === Gen.GFX8) return f.imm ? hex(f.offset) : regText(gen, f.soffset, 1);
  if (gen === Gen.GFX9) {
    if (f.soe)
      return f.imm ? `${regText(gen, f.soffset, 1)} offset:${signedHex(sext21(f.offset))}` : regText(gen, f.soffset, 1);
    return f.imm ? signedHex(sext21(f.offset)) : regText(gen, f.soffset, 1);
  }
  const off = sext21(f.offset);
  if (f.soffset === nullCode(gen)) return off === 0 ? 'null' : signedHex(off);
  return off === 0 ? regText(gen, f.soffset, 1) : `${regText(gen, f.soffset, 1)} offset:${signedHex(off)}`;
}

function smemModifiers(plan: ScalarPlan, inst: Instruction): string {
  const f = inst.fields;
  let s = '';
  if (!plan.cache) return s;
  if (f.glc) s += ' glc';
  if (f.dlc) s += ' dlc';
  return s;
}

// The printers concatenate rather than join arrays (Array#join costs more than all the
// operand spelling of a typical instruction), as `s = s + sep + t`, which V8 folds into
// one concatenation.

function printSmem(gen: Gen, inst: Instruction): string {
  const operands = inst.def.operands;
  let ops = '';
  for (let i = 0; i < operands.length; i++) {
    const o = operands[i];
    const t =
      o.field === 'offset'
        ? smemOffsetText(gen, inst)
        : o.cls === 'imm'
          ? formatPlainImm('ihex', inst.fields[o.field])
          : regText(gen, inst.fields[gen === Gen.GFX7 && o.field === 'sdata' ? 'sdst' : o.field], o.dwords);
    ops = i > 0 ? ops + ', ' + t : t;
  }
  const mods = smemModifiers(planOf(gen, inst), inst);
  return ops ? inst.def.name + ' ' + ops + mods : inst.def.name + mods;
}

function printSalu(gen: Gen, inst: Instruction): string {
  const plan = planOf(gen, inst);
  const operands = inst.def.operands;
  let s = inst.def.name;
  let first = true;
  for (let i = 0; i < operands.length; i++) {
    const o = operands[i];
    const t = operandText(gen, inst, plan, o);
    if (o.field === 'simm16' && plan.optional && inst.fields.simm16 === 0) continue;
    if (t) {
      s = s + (first ? ' ' : ', ') + t;
      first = false;
    }
  }
  return s;
}

/** Byte address a SOPP branch goes to (offset + 4 + simm16 * 4), or undefined for other instructions. */
export function branchTarget(inst: Instruction): number | undefined {
  if (inst.encoding !== 'SOPP' && inst.encoding !== 'SOPK') return undefined;
  if (!inst.def.operands.some((o) => o.cls === 'label')) return undefined;
  const simm = (inst.fields.simm16 << 16) >> 16;
  return inst.offset + 4 + simm * 4;
}

export const codec: FamilyCodec = {
  families: SCALAR_FAMILIES,
  decode(target: Target, words: Uint32Array, at: number, family: Family, byteOffset: number): Instruction {
    if (family === 'SMEM')
      return target.gen === Gen.GFX7
        ? decodeSmrd(words, at, byteOffset)
        : decodeSmem(target.gen, words, at, byteOffset);
    return decodeSalu(target, words, at, family, byteOffset);
  },
  print(target: Target, inst: Instruction): string {
    return inst.encoding === 'SMEM' ? printSmem(target.gen, inst) : printSalu(target.gen, inst);
  },
  assemble(
    target: Target,
    stmt: AsmStatement,
    resolveLabel: (name: string) => number | undefined,
  ): number[] | undefined {
    return assembleScalar(target, stmt, resolveLabel);
  },
};
