/**
 * The scalar families: SOP1, SOP2, SOPK, SOPC, SOPP and scalar memory (SMEM on gfx8+,
 * SMRD on gfx7), for every generation. Which opcode is which instruction, its operands
 * and how its immediate is spelled all come from the generated registry table; this file
 * knows only the field layouts per family and generation and LLVM's operand spelling.
 */
import { DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement, FamilyCodec, Instruction } from '../instruction.ts';
import { lookupOpcode } from '../registry/registry.ts';
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

function lookup(gen: Gen, family: Family, op: number, byteOffset: number): InstructionDef {
  const def = lookupOpcode(gen, family, op);
  if (!def)
    throw new DecodeError(
      'unknown-opcode',
      byteOffset,
      `${family} opcode ${op} is not an instruction of this generation`,
    );
  return def;
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
 * What decoding needs to know of an instruction's operands, worked out once per def: the
 * literal probes in operand order (a scalar ssrc field, or -1 for an explicit literal),
 * the ssrc fields to validate, and the register operands to check (field read, width).
 */
interface ScalarDefInfo {
  readonly literalProbes: readonly string[];
  readonly sourceFields: readonly string[];
  readonly regChecks: readonly RegCheck[];
  readonly smrdRegChecks: readonly RegCheck[];
  readonly hasOffset: boolean;
}

interface RegCheck {
  readonly field: string;
  /** The field the code is read from (SMRD reads sdata from sdst). */
  readonly readField: string;
  readonly dwords: number;
  readonly ssrc: boolean;
}

const LITERAL_PROBE = '';
const defInfos = new WeakMap<InstructionDef, ScalarDefInfo>();

function infoOf(def: InstructionDef): ScalarDefInfo {
  let info = defInfos.get(def);
  if (info) return info;
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
    regs.map((o) => ({
      field: o.field,
      readField: smrd && o.field === 'sdata' ? 'sdst' : o.field,
      dwords: o.dwords,
      ssrc: o.field.startsWith('ssrc'),
    }));
  info = {
    literalProbes,
    sourceFields,
    regChecks: check(false),
    smrdRegChecks: check(true),
    hasOffset: def.operands.some((o) => o.field === 'offset'),
  };
  defInfos.set(def, info);
  return info;
}

/** Reads the literal if any source operand of the instruction names one. */
function readLiteral(
  def: InstructionDef,
  fields: Record<string, number>,
  words: Uint32Array,
  at: number,
  byteOffset: number,
): number | undefined {
  const probes = infoOf(def).literalProbes;
  for (let i = 0; i < probes.length; i++) {
    const p = probes[i];
    if (p === LITERAL_PROBE || fields[p] === SRC_LITERAL) return need(words, at + 1, byteOffset, 'the 32-bit literal');
  }
  return undefined;
}

function checkSources(gen: Gen, def: InstructionDef, fields: Record<string, number>, byteOffset: number): void {
  const names = infoOf(def).sourceFields;
  for (let i = 0; i < names.length; i++) {
    const field = names[i];
    if (!validSource(gen, fields[field]))
      throw new DecodeError('invalid-operand', byteOffset, `${field} code ${fields[field]} is reserved`);
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
  let fields: Record<string, number>;
  switch (family) {
    case 'SOP2':
      fields = { op: (w >>> 23) & 0x7f, sdst: (w >>> 16) & 0x7f, ssrc1: (w >>> 8) & 0xff, ssrc0: w & 0xff };
      break;
    case 'SOP1':
      fields = { op: (w >>> 8) & 0xff, sdst: (w >>> 16) & 0x7f, ssrc0: w & 0xff };
      break;
    case 'SOPC':
      fields = { op: (w >>> 16) & 0x7f, ssrc1: (w >>> 8) & 0xff, ssrc0: w & 0xff };
      break;
    case 'SOPK':
      fields = { op: (w >>> 23) & 0x1f, sdst: (w >>> 16) & 0x7f, simm16: w & 0xffff };
      break;
    default:
      fields = { op: (w >>> 16) & 0x7f, simm16: w & 0xffff };
  }
  const def = lookup(gen, family, fields.op, byteOffset);
  if (def.flags?.strict && fields.simm16 !== 0)
    throw new DecodeError('invalid-operand', byteOffset, `${def.name} takes no immediate`);
  checkSources(gen, def, fields, byteOffset);
  checkRegisters(gen, def, fields, byteOffset);
  const literal = readLiteral(def, fields, words, at, byteOffset);
  return make(def, family, byteOffset, 1, fields, literal);
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
  const def = lookup(Gen.GFX7, 'SMEM', fields.op, byteOffset);
  checkRegisters(Gen.GFX7, def, fields, byteOffset, true);
  const literal =
    fields.imm === 0 && fields.offset === SRC_LITERAL && hasOperand(def, 'offset')
      ? need(words, at + 1, byteOffset, 'the literal offset')
      : undefined;
  return make(def, 'SMEM', byteOffset, 1, fields, literal);
}

function hasOperand(def: InstructionDef, field: string): boolean {
  if (field === 'offset') return infoOf(def).hasOffset;
  return def.operands.some((o) => o.field === field);
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
  const def = lookup(gen, 'SMEM', op, byteOffset);
  if (def.flags?.strict && fields.imm)
    throw new DecodeError('invalid-operand', byteOffset, `${def.name} takes no immediate offset`);
  checkRegisters(gen, def, fields, byteOffset);
  return make(def, 'SMEM', byteOffset, 2, fields);
}

// ---- printing ----

/** Register operands must name registers of this generation, else LLVM rejects the bytes. */
function checkRegisters(
  gen: Gen,
  def: InstructionDef,
  fields: Record<string, number>,
  byteOffset: number,
  smrd = false,
): void {
  const info = infoOf(def);
  const checks = smrd ? info.smrdRegChecks : info.regChecks;
  for (let i = 0; i < checks.length; i++) {
    const o = checks[i];
    const code = fields[o.readField];
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

function immStyle(def: InstructionDef): ImmStyle {
  return (def.flags?.imm as ImmStyle | undefined) ?? 'hex';
}

function operandText(gen: Gen, inst: Instruction, o: OperandDef): string {
  const f = inst.fields;
  if (o.field === 'literal') return literalText(gen, inst.literal ?? 0, 1);
  if (o.field === 'simm16' || o.cls === 'imm') return formatImm(immStyle(inst.def), gen, f[o.field]);
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

function smemModifiers(inst: Instruction): string {
  const f = inst.fields;
  let s = '';
  if (!inst.def.flags?.cache) return s;
  if (f.glc) s += ' glc';
  if (f.dlc) s += ' dlc';
  return s;
}

function printSmem(gen: Gen, inst: Instruction): string {
  const parts: string[] = [];
  for (const o of inst.def.operands) {
    if (o.field === 'offset') parts.push(smemOffsetText(gen, inst));
    else if (o.cls === 'imm') parts.push(formatPlainImm('ihex', inst.fields[o.field]));
    else parts.push(regText(gen, inst.fields[gen === Gen.GFX7 && o.field === 'sdata' ? 'sdst' : o.field], o.dwords));
  }
  const ops = parts.join(', ');
  return `${inst.def.name}${ops ? ' ' + ops : ''}${smemModifiers(inst)}`;
}

function printSalu(gen: Gen, inst: Instruction): string {
  const parts: string[] = [];
  for (const o of inst.def.operands) {
    const t = operandText(gen, inst, o);
    if (o.field === 'simm16' && inst.def.flags?.optional && inst.fields.simm16 === 0) continue;
    if (t) parts.push(t);
  }
  return parts.length ? `${inst.def.name} ${parts.join(', ')}` : inst.def.name;
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
