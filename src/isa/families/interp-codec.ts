/**
 * Parameter interpolation: VINTRP (gfx7-gfx10.3), and gfx11's VINTERP and LDSDIR that
 * replace it.
 *   VINTRP  (32 bits): [7:0] vsrc, [9:8] attrchan, [15:10] attr, [17:16] op, [25:18] vdst
 *   VINTERP (64 bits): [7:0] vdst, [10:8] wait_exp, [14:11] op_sel, [15] clamp, [22:16] op;
 *                      [8:0] src0, [17:9] src1, [26:18] src2, [31:29] neg
 *   LDSDIR  (32 bits): [7:0] vdst, [9:8] attrchan, [15:10] attr, [19:16] wait_vdst, [21:20] op,
 *                      [23:22] reserved (LLVM rejects nonzero)
 */
import { AsmError, DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement, Instruction } from '../instruction.ts';
import { lookupName, lookupOpcode } from '../registry/registry.ts';
import type { Family, InstructionDef } from '../registry/types.ts';
import { scalarRegName, SRC_LITERAL, SRC_VGPR0, vgprName } from '../operands.ts';
import { parseBracketList, parseInteger, parseModifier, parseSourceModifiers, splitOperands } from '../asm-operands.ts';
import { parseVgpr, sourceKind, sourceText, wordAt } from './vopd-operands.ts';

const CHANNELS = ['x', 'y', 'z', 'w'];
/** v_interp_mov_f32's source slots, by the vsrc field's value. */
const PARAMS = ['p10', 'p20', 'p0'];
const SRC_LDS_DIRECT = 254;

/** `attr12.y`: exported for the VOP3 (e64) forms of the gfx8+ interpolation instructions. */
export function attrText(attr: number, chan: number): string {
  return `attr${attr}.${CHANNELS[chan & 3]}`;
}

/** v_interp_mov_f32's slot operand (`p10`, `p20`, `p0`), also for its VOP3 form. */
export function interpParamText(vsrc: number): string {
  return PARAMS[vsrc] ?? `invalid_param_${vsrc}`;
}

function opcodeDef(gen: Gen, family: Family, op: number, byteOffset: number): InstructionDef {
  const def = lookupOpcode(gen, family, op);
  if (!def) throw new DecodeError('unknown-opcode', byteOffset, `${family} opcode ${op} is not an instruction`);
  return def;
}

// ---------------------------------------------------------------- decode

export function decodeInterp(
  target: Target,
  words: Uint32Array,
  at: number,
  family: Family,
  byteOffset: number,
): Instruction {
  const w0 = words[at];
  const gen = target.gen;
  if (family === 'VINTRP') {
    const def = opcodeDef(gen, family, (w0 >>> 16) & 3, byteOffset);
    const fields = {
      vdst: (w0 >>> 18) & 0xff,
      op: (w0 >>> 16) & 3,
      attr: (w0 >>> 10) & 0x3f,
      attrchan: (w0 >>> 8) & 3,
      vsrc: w0 & 0xff,
    };
    return { def, encoding: family, offset: byteOffset, size: 4, fields };
  }
  if (family === 'LDSDIR') {
    if ((w0 >>> 22) & 3) throw new DecodeError('invalid-operand', byteOffset, 'LDSDIR bits 23:22 are reserved');
    const op = (w0 >>> 20) & 3;
    const def = opcodeDef(gen, family, op, byteOffset);
    const fields = {
      vdst: w0 & 0xff,
      attrchan: (w0 >>> 8) & 3,
      attr: (w0 >>> 10) & 0x3f,
      wait_vdst: (w0 >>> 16) & 0xf,
      op,
    };
    return { def, encoding: family, offset: byteOffset, size: 4, fields };
  }
  return decodeVinterp(target, words, at, byteOffset);
}

function decodeVinterp(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  const w0 = words[at];
  const op = (w0 >>> 16) & 0x7f;
  const def = opcodeDef(target.gen, 'VINTERP', op, byteOffset);
  const w1 = wordAt(words, at + 1, byteOffset, 'VINTERP second dword');

  const fields = {
    vdst: w0 & 0xff,
    wait_exp: (w0 >>> 8) & 7,
    op_sel: (w0 >>> 11) & 0xf,
    clamp: (w0 >>> 15) & 1,
    op,
    src0: w1 & 0x1ff,
    src1: (w1 >>> 9) & 0x1ff,
    src2: (w1 >>> 18) & 0x1ff,
    neg: (w1 >>> 29) & 7,
  };
  // The f32 forms have no op_sel; LLVM rejects them with the field nonzero.
  if (fields.op_sel && !def.flags?.opsel)
    throw new DecodeError('invalid-operand', byteOffset, `${def.name} has no op_sel`);
  // The sources are VGPRs; LLVM still decodes other codes (and prints a complaint), except
  // the SDWA/DPP markers and unnamed codes. A 255 source takes a literal dword.
  let literal: number | undefined;
  for (const s of [fields.src0, fields.src1, fields.src2]) {
    if (sourceKind(target.gen, s) === 'invalid')
      throw new DecodeError('invalid-operand', byteOffset, `source code ${s} is not an operand`);
    if (s === SRC_LITERAL && literal === undefined) literal = wordAt(words, at + 2, byteOffset, 'VINTERP literal');
  }
  if (literal !== undefined) return { def, encoding: 'VINTERP', offset: byteOffset, size: 12, fields, literal };
  return { def, encoding: 'VINTERP', offset: byteOffset, size: 8, fields };
}

// ---------------------------------------------------------------- print

export function printInterp(target: Target, inst: Instruction): string {
  const f = inst.fields;
  const def = inst.def;
  if (def.family === 'VINTRP') {
    // gfx8 renamed these with the _e32 suffix when it added their VOP3 forms.
    const name = target.gen === Gen.GFX7 ? def.name : `${def.name}_e32`;
    const src = def.flags?.param ? interpParamText(f.vsrc) : vgprName(f.vsrc, 1);
    return `${name} ${vgprName(f.vdst, 1)}, ${src}, ${attrText(f.attr, f.attrchan)}`;
  }
  if (def.family === 'LDSDIR') {
    const attr = def.flags?.attr ? `, ${attrText(f.attr, f.attrchan)}` : '';
    return `${def.name} ${vgprName(f.vdst, 1)}${attr} wait_vdst:${f.wait_vdst}`;
  }
  let text = `${def.name} ${vgprName(f.vdst, 1)}`;
  for (let i = 0; i < 3; i++) {
    const code = i === 0 ? f.src0 : i === 1 ? f.src1 : f.src2;
    text += `, ${negated(target.gen, code, vinterpSourceText(target.gen, code, inst.literal), (f.neg >>> i) & 1)}`;
  }
  if (f.clamp) text += ' clamp';
  if (def.flags?.opsel && f.op_sel) text += ` op_sel:[${[0, 1, 2, 3].map((i) => (f.op_sel >>> i) & 1).join(',')}]`;
  return `${text} wait_exp:${f.wait_exp}`;
}

/** `-v1` for registers, but `neg(2)` for constants, where a minus sign would read as part of the number. */
function negated(gen: Gen, code: number, text: string, neg: number): string {
  if (!neg) return text;
  const kind = sourceKind(gen, code);
  return kind === 'const' || kind === 'literal' ? `neg(${text})` : `-${text}`;
}

/** A VINTERP source, with LLVM's complaint when the code is not a VGPR. */
function vinterpSourceText(gen: Gen, code: number, literal: number | undefined): string {
  const text = sourceText(gen, code, 'f32', literal) ?? `<src ${code}>`;
  const kind = sourceKind(gen, code);
  // Of the named sources only lds_direct is a register LLVM checks against VGPR_32.
  if (kind === 'vgpr' || (kind === 'named' && code !== SRC_LDS_DIRECT)) return text;
  if (kind === 'const' || kind === 'literal') return `${text}/*Invalid immediate*/`;
  // null is spelled plainly: LLVM's VGPR_32 check does not cover it.
  if (scalarRegName(gen, code, 1) === 'null') return text;
  return `${text}/*Invalid register, operand has 'VGPR_32' register class*/`;
}

// ---------------------------------------------------------------- assemble

/** Assembles VINTRP/VINTERP/LDSDIR statements; undefined for other mnemonics. */
export function assembleInterp(target: Target, stmt: AsmStatement): number[] | undefined {
  const gen = target.gen;
  let name = stmt.mnemonic;
  if (name.endsWith('_e32')) name = name.slice(0, -4);
  const def = lookupName(gen, name).find(
    (d) => d.family === 'VINTRP' || d.family === 'VINTERP' || d.family === 'LDSDIR',
  );
  if (!def) return undefined;
  if (name !== stmt.mnemonic && def.family !== 'VINTRP') return undefined;
  try {
    if (def.family === 'VINTRP') return [assembleVintrp(gen, def, stmt.operandText)];
    if (def.family === 'LDSDIR') return [assembleLdsdir(gen, def, stmt.operandText)];
    return assembleVinterp(gen, def, stmt.operandText);
  } catch (e) {
    if (e instanceof AsmError) throw new AsmError(e.reason, stmt.line);
    throw e;
  }
}

/** Parses `attr12.y` into [attr, channel], with LLVM's messages. */
function parseAttr(text: string): [number, number] {
  const t = text.trim().toLowerCase();
  if (!t.startsWith('attr')) throw new AsmError('invalid interpolation attribute');
  const m = /^attr(\d*)(?:\.(\w*))?$/.exec(t);
  const chan = m?.[2] === undefined ? -1 : CHANNELS.indexOf(m[2]);
  if (!m || chan < 0) throw new AsmError('invalid or missing interpolation attribute channel');
  if (m[1] === '') throw new AsmError('invalid or missing interpolation attribute number');
  const attr = Number(m[1]);
  if (attr > 32) throw new AsmError('out of bounds interpolation attribute number');
  return [attr, chan];
}

function operandsOnly(text: string, count: number): string[] {
  const items = splitOperands(text);
  const ops = items.filter((i) => !i.modifier).map((i) => i.text);
  if (ops.length < count) throw new AsmError('too few operands for instruction');
  if (ops.length > count || items.some((i) => i.modifier)) throw new AsmError('invalid operand for instruction');
  return ops;
}

function assembleVintrp(gen: Gen, def: InstructionDef, text: string): number {
  const ops = operandsOnly(text, 3);
  const vdst = parseVgpr(gen, ops[0]);
  let vsrc: number;
  if (def.flags?.param) {
    vsrc = PARAMS.indexOf(ops[1].trim().toLowerCase());
    if (vsrc < 0) throw new AsmError('invalid interpolation slot');
  } else vsrc = parseVgpr(gen, ops[1]);
  const [attr, chan] = parseAttr(ops[2]);
  const prefix = gen === Gen.GFX8 || gen === Gen.GFX9 ? 0x35 : 0x32;
  return ((prefix << 26) | (vdst << 18) | (def.op[gen] << 16) | (attr << 10) | (chan << 8) | vsrc) >>> 0;
}

/** A `name:N` modifier's value in 0..max, or LLVM's `invalid <name> value.` error. */
function modifierValue(value: string | undefined, name: string, max: number): number {
  const n = value === undefined ? undefined : parseInteger(value);
  if (value === undefined) throw new AsmError('invalid operand for instruction');
  if (n === undefined || n < 0 || n > max) throw new AsmError(`invalid ${name} value.`);
  return n;
}

function assembleLdsdir(gen: Gen, def: InstructionDef, text: string): number {
  const items = splitOperands(text);
  const ops = items.filter((i) => !i.modifier).map((i) => i.text);
  const want = def.flags?.attr ? 2 : 1;
  if (ops.length < want) throw new AsmError('too few operands for instruction');
  if (ops.length > want) throw new AsmError('invalid operand for instruction');
  const vdst = parseVgpr(gen, ops[0]);
  const [attr, chan] = def.flags?.attr ? parseAttr(ops[1]) : [0, 0];
  let wait = 0;
  for (const item of items.filter((i) => i.modifier)) {
    const m = parseModifier(item.text);
    if (m.name !== 'wait_vdst') throw new AsmError('invalid operand for instruction');
    wait = modifierValue(m.value, 'wait_vdst', 15);
  }
  return ((0xce << 24) | (def.op[gen] << 20) | (wait << 16) | (attr << 10) | (chan << 8) | vdst) >>> 0;
}

function assembleVinterp(gen: Gen, def: InstructionDef, text: string): number[] {
  const items = splitOperands(text);
  const ops = items.filter((i) => !i.modifier).map((i) => i.text);
  if (ops.length < 4) throw new AsmError('too few operands for instruction');
  if (ops.length > 4) throw new AsmError('invalid operand for instruction');
  const vdst = parseVgpr(gen, ops[0]);
  let neg = 0;
  const srcs = ops.slice(1).map((t, i) => {
    const m = parseSourceModifiers(t);
    if (m.abs || m.sext) throw new AsmError('invalid operand for instruction');
    if (m.neg) neg |= 1 << i;
    return SRC_VGPR0 + parseVgpr(gen, m.inner);
  });
  let wait = 0;
  let clamp = 0;
  let opSel = 0;
  for (const item of items.filter((i) => i.modifier)) {
    const m = parseModifier(item.text);
    if (m.name === 'wait_exp') wait = modifierValue(m.value, 'wait_exp', 7);
    else if (m.name === 'clamp' && m.value === undefined) clamp = 1;
    else if (m.name === 'op_sel' && def.flags?.opsel && m.value !== undefined) opSel = parseOpSel(m.value);
    else throw new AsmError('invalid operand for instruction');
  }
  const w0 = ((0xcd << 24) | (def.op[gen] << 16) | (clamp << 15) | (opSel << 11) | (wait << 8) | vdst) >>> 0;
  const w1 = ((neg << 29) | (srcs[2] << 18) | (srcs[1] << 9) | srcs[0]) >>> 0;
  return [w0, w1];
}

function parseOpSel(value: string): number {
  const list = parseBracketList(value);
  if (!list || list.length !== 4 || list.some((b) => b !== '0' && b !== '1'))
    throw new AsmError('invalid op_sel value.');
  return list.reduce((acc, b, i) => acc | (Number(b) << i), 0);
}
