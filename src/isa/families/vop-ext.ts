/**
 * The VOP extension encodings: SDWA (gfx8-gfx10.3), DPP (gfx8/9) and DPP16 (gfx10+),
 * DPP8 (gfx10+), and gfx11's VOP3 / VOP3P with a DPP16 or DPP8 dword. The VOP codec
 * (vop.ts) calls these functions before its own forms. An extension form exists for an
 * opcode when the generated side table (vop-ext-forms) says llvm-mc-19 decodes it; the
 * text it prints comes from there too, so suffix quirks (`_sdwa`, none on gfx8 VOPC, …)
 * are data, not code.
 */
import { DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { Family, InstructionDef, OperandDef } from '../registry/types.ts';
import type { AsmStatement, Encoding, Instruction } from '../instruction.ts';
import { lookupOpcode } from '../registry/registry.ts';
import { inlineInteger, vgprName } from '../operands.ts';
import {
  ModMode,
  OPSEL_SLOTS,
  Slot,
  baseDef,
  extForm,
  modMode,
  type ExtForm,
  type VopExtForm,
} from './vop-ext-forms.ts';
import {
  SRC0_DPP,
  SRC0_DPP8,
  SRC0_DPP8_FI,
  SRC0_SDWA,
  SDWA_SEL,
  SDWA_UNUSED,
  dpp8Selects,
  dpp8Text,
  dppCtrlText,
} from './vop-ext-fields.ts';
import { maskText, sourceText } from './vop-ext-operands.ts';
import { vccText, withFloatMods } from './vop-operands.ts';
import { assembleExt } from './vop-ext-asm.ts';

type Kind = 'SDWA' | 'DPP' | 'DPP8';

/** Which extension a src0 code announces in a generation, if any. */
function kindOf(gen: Gen, src0: number): Kind | undefined {
  if (src0 === SRC0_SDWA) return gen >= Gen.GFX8 && gen <= Gen.GFX10_3 ? 'SDWA' : undefined;
  if (src0 === SRC0_DPP) return gen >= Gen.GFX8 ? 'DPP' : undefined;
  if (src0 === SRC0_DPP8 || src0 === SRC0_DPP8_FI) return gen >= Gen.GFX10 ? 'DPP8' : undefined;
  return undefined;
}

function shortOpcode(family: Family, w0: number): number {
  if (family === 'VOP2') return (w0 >>> 25) & 0x3f;
  if (family === 'VOP1') return (w0 >>> 9) & 0xff;
  return (w0 >>> 17) & 0xff;
}

/** Per instruction, computed once: its explicit operands, and how many of them are sources. */
interface DefInfo {
  readonly explicit: readonly OperandDef[];
  readonly sources: number;
  /** Explicit sources' register classes, in order. */
  readonly sourceClasses: readonly OperandDef['cls'][];
  readonly isMix: boolean;
  readonly isMac: boolean;
  /** A VOP3B form: a VGPR and a scalar destination. */
  readonly vop3b: boolean;
}

const defInfos = new WeakMap<InstructionDef, DefInfo>();

function infoOf(def: InstructionDef): DefInfo {
  let info = defInfos.get(def);
  if (!info) {
    const explicit = def.operands.filter((o) => !o.implicit);
    const sourceClasses = explicit.filter((o) => o.role === 'src').map((o) => o.cls);
    info = {
      explicit,
      sources: sourceClasses.length,
      sourceClasses,
      isMix: def.name.startsWith('v_fma_mix'),
      isMac: /^v_f?mac_/.test(def.name),
      vop3b:
        explicit.some((o) => o.role === 'dst' && o.cls === 'v') &&
        explicit.some((o) => o.role === 'dst' && o.cls === 's'),
    };
    defInfos.set(def, info);
  }
  return info;
}

/**
 * The extension forms, numbered: the short ones as family (VOP1, VOP2, VOPC) × 3 + kind
 * (SDWA, DPP, DPP8), then gfx11's VOP3/VOP3P ones.
 */
const FORMS: readonly VopExtForm[] = [
  'VOP1_SDWA',
  'VOP1_DPP',
  'VOP1_DPP8',
  'VOP2_SDWA',
  'VOP2_DPP',
  'VOP2_DPP8',
  'VOPC_SDWA',
  'VOPC_DPP',
  'VOPC_DPP8',
  'VOP3_DPP',
  'VOP3_DPP8',
  'VOP3P_DPP',
  'VOP3P_DPP8',
];

function shortFormIndex(family: 'VOP1' | 'VOP2' | 'VOPC', kind: Kind): number {
  return (family === 'VOP1' ? 0 : family === 'VOP2' ? 3 : 6) + (kind === 'SDWA' ? 0 : kind === 'DPP' ? 1 : 2);
}

/** The number of an extension encoding (FORMS), or -1 for any other encoding. */
function formIndex(encoding: string): number {
  switch (encoding) {
    case 'VOP1_SDWA':
      return 0;
    case 'VOP1_DPP':
      return 1;
    case 'VOP1_DPP8':
      return 2;
    case 'VOP2_SDWA':
      return 3;
    case 'VOP2_DPP':
      return 4;
    case 'VOP2_DPP8':
      return 5;
    case 'VOPC_SDWA':
      return 6;
    case 'VOPC_DPP':
      return 7;
    case 'VOPC_DPP8':
      return 8;
    case 'VOP3_DPP':
      return 9;
    case 'VOP3_DPP8':
      return 10;
    case 'VOP3P_DPP':
      return 11;
    case 'VOP3P_DPP8':
      return 12;
  }
  return -1;
}

/** An opcode's extension form and base instruction, worked out once per (generation, form, opcode). */
interface FormPlan {
  readonly ext: ExtForm | undefined;
  /** The base instruction's registry entry (undefined without a form, or when the table has none). */
  readonly def: InstructionDef | undefined;
  readonly info: DefInfo | undefined;
  /** The family's plain instruction of the opcode (what decodes when a short form is missing). */
  readonly plain: InstructionDef | undefined;
  /**
   * The extension-dword bits of source modifiers the form lacks (SDWA_MOD_BITS,
   * DPP_MOD_BITS): set, they make the bytes invalid (LLVM's decoder tables fix them to 0).
   */
  readonly sdwaRejected: number;
  readonly dppRejected: number;
}

/** The bits of `bits` whose modifier slot (its index) the form rejects. */
function rejectedBits(ext: ExtForm | undefined, bits: readonly number[]): number {
  let mask = 0;
  if (ext) for (let k = 0; k < bits.length; k++) if (modMode(ext, k) === ModMode.Rejected) mask |= 1 << bits[k];
  return mask;
}

const formPlans: (FormPlan[] | undefined)[] = [];

function formPlan(gen: Gen, form: number, op: number): FormPlan {
  const k = gen * FORMS.length + form;
  const table = (formPlans[k] ??= []);
  let p = table[op];
  if (p === undefined) {
    const name = FORMS[form];
    const ext = extForm(gen, name, op);
    const def = ext ? baseDef(gen, name, op, ext.mnemonic) : undefined;
    const plain = form < 9 ? lookupOpcode(gen, name.slice(0, 4) as Family, op) : undefined;
    table[op] = p = {
      ext,
      def,
      info: def ? infoOf(def) : undefined,
      plain,
      sdwaRejected: rejectedBits(ext, SDWA_MOD_BITS),
      dppRejected: rejectedBits(ext, DPP_MOD_BITS),
    };
  }
  return p;
}

/**
 * Decodes the instruction at words[at] if it is in an extension encoding of a VOP family
 * (src0 names SDWA, DPP or DPP8), else returns undefined. Throws only DecodeError.
 */
export function decodeVopExtension(
  target: Target,
  words: Uint32Array,
  at: number,
  family: Family,
  byteOffset: number,
): Instruction | undefined {
  const gen = target.gen;
  const w0 = words[at];
  if (family === 'VOP1' || family === 'VOP2' || family === 'VOPC')
    return decodeShort(target, words, at, family, w0, byteOffset);
  if ((family === 'VOP3' || family === 'VOP3P') && gen >= Gen.GFX11) {
    if (at + 1 >= words.length) return undefined; // the VOP codec reports the truncation
    const kind = kindOf(gen, words[at + 1] & 0x1ff);
    if (kind === 'DPP' || kind === 'DPP8') return decodeVop3Dpp(target, words, at, family, kind, byteOffset);
  }
  return undefined;
}

function decodeShort(
  target: Target,
  words: Uint32Array,
  at: number,
  family: 'VOP1' | 'VOP2' | 'VOPC',
  w0: number,
  byteOffset: number,
): Instruction | undefined {
  const gen = target.gen;
  const kind = kindOf(gen, w0 & 0x1ff);
  if (!kind) return undefined;
  const op = shortOpcode(family, w0);
  const formNumber = shortFormIndex(family, kind);
  const form = FORMS[formNumber];
  const plan = formPlan(gen, formNumber, op);
  const ext = plan.ext;
  // VOP1 instructions without sources (v_clrexcp, v_pipeflush) ignore src0: their 32-bit form decodes.
  if (!ext) {
    const plain = plan.plain;
    if (family === 'VOP1' && plain && plain.operands.length === 0) {
      // Their vdst field is reserved and must be zero.
      if ((w0 >>> 17) & 0xff) throw new DecodeError('invalid-operand', byteOffset, `${plain.name} has no destination`);
      return undefined;
    }
    throw new DecodeError(
      'invalid-operand',
      byteOffset,
      `${family} opcode ${op} has no ${kind} form in this generation`,
    );
  }
  const def = plan.def;
  if (!def) throw new DecodeError('unknown-opcode', byteOffset, `no registry entry for ${ext.mnemonic}`);
  if (at + 1 >= words.length) {
    if (plan.info!.sources === 0) return undefined;
    throw new DecodeError('truncated', byteOffset, `${ext.mnemonic} needs its ${kind} dword`);
  }
  const w1 = words[at + 1];
  // One object shape per family (the same keys in the same order as before).
  const fields: Record<string, number> =
    family === 'VOP1'
      ? { op, src0_marker: w0 & 0x1ff, ext: w1, vdst: (w0 >>> 17) & 0xff }
      : family === 'VOP2'
        ? { op, src0_marker: w0 & 0x1ff, ext: w1, vsrc1: (w0 >>> 9) & 0xff, vdst: (w0 >>> 17) & 0xff }
        : { op, src0_marker: w0 & 0x1ff, ext: w1, vsrc1: (w0 >>> 9) & 0xff };
  if (def.operands.length === 0 && fields.vdst)
    throw new DecodeError('invalid-operand', byteOffset, `${def.name} has no destination`);
  if (kind === 'SDWA') {
    checkSdwa(target, family, w1, (w0 >>> 9) & 0xff, byteOffset);
    if (w1 & plan.sdwaRejected) rejectModifier(ext, byteOffset);
  } else if (kind === 'DPP' && w1 & plan.dppRejected) rejectModifier(ext, byteOffset);
  if (kind !== 'SDWA' && w1 & 0x80 && modMode(ext, Slot.Src0High) === ModMode.Rejected)
    throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} cannot read v${w1 & 0xff}`);
  // gfx11's 16-bit VOP1/VOP2 DPP forms address only v0-v127 as their destination.
  if (family !== 'VOPC' && (fields.vdst & 0x80) !== 0 && modMode(ext, Slot.VdstHigh) === ModMode.Rejected)
    throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} cannot write v${fields.vdst}`);
  if (kind === 'SDWA' && (family !== 'VOPC' || gen === Gen.GFX8))
    checkOutputModifiers(ext, (w1 >>> 13) & 1, gen >= Gen.GFX9 ? (w1 >>> 14) & 3 : 0, byteOffset);
  const encoding = form as Encoding;
  return { def, encoding, offset: byteOffset, size: 8, fields };
}

/**
 * The source-modifier bits of an encoding's extension dword in the order the side table
 * probes them (SDWA: neg, abs, sext per source; DPP: neg, abs per source). VOP3's
 * (neg, abs per source, from two dwords) are checked by checkVop3Modifiers.
 */
const SDWA_MOD_BITS: readonly number[] = [20, 21, 19, 28, 29, 27];
const DPP_MOD_BITS: readonly number[] = [20, 21, 22, 23];

function checkVop3Modifiers(ext: ExtForm, w0: number, w1: number, byteOffset: number): void {
  for (let i = 0; i < 3; i++) {
    if ((w1 >>> (29 + i)) & 1 && modMode(ext, 2 * i) === ModMode.Rejected) rejectModifier(ext, byteOffset);
    if ((w0 >>> (8 + i)) & 1 && modMode(ext, 2 * i + 1) === ModMode.Rejected) rejectModifier(ext, byteOffset);
  }
}

function rejectModifier(ext: ExtForm, byteOffset: number): never {
  throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has no such source modifier`);
}

/** Whether the instruction's VOP3 form has an op_sel operand (LLVM prints it then). */
function hasOpSel(ext: ExtForm): boolean {
  return modMode(ext, Slot.OpSelSrc0) === ModMode.Float || modMode(ext, Slot.OpSelDst) === ModMode.Float;
}

function checkOutputModifiers(ext: ExtForm, clamp: number, omod: number, byteOffset: number): void {
  if (
    (clamp && modMode(ext, Slot.Clamp) === ModMode.Rejected) ||
    (omod && modMode(ext, Slot.Omod) === ModMode.Rejected)
  )
    throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has no such output modifier`);
}

/** Spells a source with the modifiers its set bits stand for, as LLVM does (`-|x|`, `sext(x)`, `neg(-1)`). */
function modifiedSource(
  text: string,
  ext: ExtForm | undefined,
  base: number,
  neg: number,
  abs: number,
  sext: number,
): string {
  if (!neg && !abs && !sext) return text;
  const n = neg ? (ext ? modMode(ext, base) : ModMode.Float) : ModMode.Ignored;
  const a = abs ? (ext ? modMode(ext, base + 1) : ModMode.Float) : ModMode.Ignored;
  const x = sext ? (ext ? modMode(ext, base + 2) : ModMode.Float) : ModMode.Ignored;
  let t = a === ModMode.Float ? `|${text}|` : text;
  // LLVM spells negated constants (not registers) without |…| as neg(…).
  if (n === ModMode.Float) t = a !== ModMode.Float && isConstantText(text) ? `neg(${t})` : `-${t}`;
  if (n === ModMode.Sext || a === ModMode.Sext || x === ModMode.Sext) t = `sext(${t})`;
  return t;
}

/** /^-?[0-9]/ without a regex. */
function isConstantText(text: string): boolean {
  let c = text.charCodeAt(0);
  if (c === 45) c = text.charCodeAt(1);
  return c >= 48 && c <= 57;
}

/** Reserved SDWA field values LLVM rejects. */
const PROBE_B32: OperandDef = { field: 'src0', role: 'src', cls: 'vs', dwords: 1, type: 'b32' };
const validScalar = new Map<Gen, Uint8Array>();
const validScalarByGen: (Uint8Array | undefined)[] = [];

/**
 * Per target: which scalar source codes (0-255) an extension encoding can hold, built once
 * from the printer so the decoder itself only indexes a table.
 */
function scalarSourceOk(target: Target, code: number): boolean {
  const key = target.gen;
  let t = validScalarByGen[key];
  if (t) return t[code & 0xff] === 1;
  t = validScalar.get(key);
  if (!t) {
    t = new Uint8Array(256);
    for (let c = 0; c < 256; c++) t[c] = sourceText(target, c, PROBE_B32) !== undefined ? 1 : 0;
    validScalar.set(key, t);
  }
  validScalarByGen[key] = t;
  return t[code & 0xff] === 1;
}

function badSdwa(byteOffset: number, why: string): never {
  throw new DecodeError('invalid-operand', byteOffset, why);
}

/** Reserved SDWA fields (the bit positions are decodeSdwaWord's). */
function checkSdwa(target: Target, family: Family, w1: number, w0Vsrc1: number, byteOffset: number): void {
  const gen = target.gen;
  const src0Sel = (w1 >>> 16) & 7;
  const src1Sel = (w1 >>> 24) & 7;
  if (src0Sel > 6) badSdwa(byteOffset, 'reserved src0_sel');
  if (family === 'VOP2' || family === 'VOPC') {
    if (src1Sel > 6) badSdwa(byteOffset, 'reserved src1_sel');
  } else if (src1Sel !== 0) badSdwa(byteOffset, 'VOP1 has no src1_sel');
  if (family !== 'VOPC') {
    if (((w1 >>> 8) & 7) > 6) badSdwa(byteOffset, 'reserved dst_sel');
  }
  if (gen >= Gen.GFX9) {
    if ((w1 >>> 23) & 1 && !scalarSourceOk(target, w1 & 0xff))
      badSdwa(byteOffset, 'src0 is not a source SDWA can hold');
    if ((w1 >>> 31) & 1 && family !== 'VOP1' && !scalarSourceOk(target, w0Vsrc1))
      badSdwa(byteOffset, 'src1 is not a source SDWA can hold');
  }
}

function decodeVop3Dpp(
  target: Target,
  words: Uint32Array,
  at: number,
  family: 'VOP3' | 'VOP3P',
  kind: 'DPP' | 'DPP8',
  byteOffset: number,
): Instruction {
  const gen = target.gen;
  const w0 = words[at];
  const w1 = words[at + 1];
  const op = family === 'VOP3' ? (w0 >>> 16) & 0x3ff : (w0 >>> 16) & 0x7f;
  const formNumber = (family === 'VOP3' ? 9 : 11) + (kind === 'DPP' ? 0 : 1);
  const form = FORMS[formNumber];
  const plan = formPlan(gen, formNumber, op);
  const ext = plan.ext;
  if (!ext) throw new DecodeError('invalid-operand', byteOffset, `${family} opcode ${op} has no ${kind} form`);
  const def = plan.def;
  if (!def) throw new DecodeError('unknown-opcode', byteOffset, `no registry entry for ${ext.mnemonic}`);
  if (at + 2 >= words.length) throw new DecodeError('truncated', byteOffset, `${ext.mnemonic} needs its ${kind} dword`);
  if (family === 'VOP3') {
    checkVop3Modifiers(ext, w0, w1, byteOffset);
    checkOutputModifiers(ext, (w0 >>> 15) & 1, (w1 >>> 27) & 3, byteOffset);
    const opSel = (w0 >>> 11) & 0xf;
    for (let i = 0; i < OPSEL_SLOTS.length; i++) {
      if ((opSel >>> i) & 1 && modMode(ext, OPSEL_SLOTS[i]) === ModMode.Rejected)
        throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has no such op_sel bit`);
    }
    // Source fields the instruction does not read must be zero.
    const nsrc = plan.info!.sources;
    if ((nsrc < 3 && (w1 >>> 18) & 0x1ff) || (nsrc < 2 && (w1 >>> 9) & 0x1ff))
      throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has a source field it does not read`);
  }
  // src1/src2 hold VGPRs (256+) or scalar sources; a literal or reserved code has no meaning here.
  const src1 = (w1 >>> 9) & 0x1ff;
  const src2 = (w1 >>> 18) & 0x1ff;
  if (
    (src1 < 256 && src1 !== 0 && !scalarSourceOk(target, src1)) ||
    (src2 < 256 && src2 !== 0 && !scalarSourceOk(target, src2))
  )
    throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has a source it cannot hold`);
  // Lane-mask sources (carry-in, v_cndmask's mask) are scalar.
  const classes = plan.info!.sourceClasses;
  for (let i = 1; i < classes.length; i++) {
    if (classes[i] === 's' && (i === 1 ? src1 : i === 2 ? src2 : 0) >= 256)
      throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} takes a scalar lane mask`);
  }
  if (words[at + 2] & 0x80 && modMode(ext, Slot.Src0High) === ModMode.Rejected)
    throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} cannot read v${words[at + 2] & 0xff}`);
  const fields: Record<string, number> = { op, w0, w1, ext: words[at + 2], src0_marker: w1 & 0x1ff };
  return { def, encoding: form as Encoding, offset: byteOffset, size: 12, fields };
}

// ---- printing ---------------------------------------------------------------------------

interface PrintCtx {
  readonly target: Target;
  readonly gen: Gen;
  readonly wave64: boolean;
}

/** Prints an instruction whose `encoding` is one of the extension encodings. */
export function printVopExtension(target: Target, inst: Instruction): string {
  const ctx: PrintCtx = { target, gen: target.gen, wave64: target.wave64 };
  const form = inst.encoding as VopExtForm;
  const number = formIndex(form);
  const plan = number >= 0 ? formPlan(target.gen, number, inst.fields.op) : undefined;
  const ext = plan ? plan.ext : extForm(target.gen, form, inst.fields.op);
  const info = plan !== undefined && plan.def === inst.def ? plan.info! : infoOf(inst.def);
  const mnemonic = ext?.mnemonic ?? inst.def.name;
  const parts: Parts = { text: mnemonic, operands: 0 };
  if (number >= 9) vop3Parts(ctx, inst, form, ext, info, parts);
  else shortParts(ctx, inst, form, ext, info, parts);
  return parts.text;
}

/** The text being built: the mnemonic, then operands (comma-separated), then modifiers. */
interface Parts {
  text: string;
  operands: number;
}

// `text = text + sep + t`, not `text += …` of a template: V8 folds the left-to-right chain
// into one concatenation.
function operand(p: Parts, t: string): void {
  p.text = p.text + (p.operands++ === 0 ? ' ' : ', ') + t;
}

function modifier(p: Parts, t: string): void {
  p.text = p.text + ' ' + t;
}

function omodText(omod: number): string | undefined {
  return omod === 1 ? 'mul:2' : omod === 2 ? 'mul:4' : omod === 3 ? 'div:2' : undefined;
}

function shortParts(
  ctx: PrintCtx,
  inst: Instruction,
  form: VopExtForm,
  ext: ExtForm | undefined,
  info: DefInfo,
  out: Parts,
): void {
  const f = inst.fields;
  const family = inst.encoding.charCodeAt(3) === 67 ? 'VOPC' : inst.encoding.charCodeAt(3) === 49 ? 'VOP1' : 'VOP2';
  const ops = info.explicit;
  const w = f.ext;
  const sdwa = form === 'VOP1_SDWA' || form === 'VOP2_SDWA' || form === 'VOPC_SDWA';
  const gfx9Scalar = sdwa && ctx.gen >= Gen.GFX9;
  let srcIndex = 0;
  for (const o of ops) {
    if (o.role === 'dst') {
      if (o.cls === 'v') operand(out, vgprName(f.vdst, o.dwords));
      else operand(out, shortMaskDst(ctx, family, sdwa, (w >>> 15) & 1, (w >>> 8) & 0x7f));
      continue;
    }
    if (o.cls === 's') {
      operand(out, vccText(ctx.target));
      continue;
    }
    const i = srcIndex++;
    if (i > 1) continue;
    // Bit positions are decodeSdwaWord's and decodeDppWord's.
    const vgpr = i === 0 ? w & 0xff : f.vsrc1;
    let code = 256 + vgpr;
    if (gfx9Scalar && (w >>> (i === 0 ? 23 : 31)) & 1) code = vgpr;
    const text = sourceText(ctx.target, code, o) ?? `<bad ${code}>`;
    const neg = (w >>> (sdwa ? (i === 0 ? 20 : 28) : i === 0 ? 20 : 22)) & 1;
    const abs = (w >>> (sdwa ? (i === 0 ? 21 : 29) : i === 0 ? 21 : 23)) & 1;
    const sext = sdwa ? (w >>> (i === 0 ? 19 : 27)) & 1 : 0;
    operand(out, modifiedSource(text, ext, sdwa ? 3 * i : 2 * i, neg, abs, sext));
  }
  if (sdwa) {
    const vopc = family === 'VOPC';
    if ((w >>> 13) & 1 && !(vopc && ctx.gen >= Gen.GFX9) && (!ext || modMode(ext, Slot.Clamp) !== ModMode.Rejected))
      modifier(out, 'clamp');
    if (!vopc && ctx.gen >= Gen.GFX9) {
      const om = omodText((w >>> 14) & 3);
      if (om) modifier(out, om);
    }
    if (!vopc && ops.length > 0) modifier(out, DST_SEL_UNUSED_TEXT[(w >>> 8) & 0x1f]);
    if (srcIndex > 1) modifier(out, SRC_SELS_TEXT[((w >>> 16) & 7) | (((w >>> 24) & 7) << 3)]);
    else if (srcIndex > 0) modifier(out, SRC0_SEL_TEXT[(w >>> 16) & 7]);
  } else if (form === 'VOP1_DPP8' || form === 'VOP2_DPP8' || form === 'VOPC_DPP8') {
    modifier(out, dpp8Text(dpp8Selects(w)));
    if (f.src0_marker === SRC0_DPP8_FI) modifier(out, 'fi:1');
  } else dppModifiers(ctx.gen, w, out);
}

/** `dst_sel:BYTE_0`… by field value, built once (values past the names print `undefined`, as the template did). */
const selTexts = (prefix: string): readonly string[] => {
  const out: string[] = [];
  for (let v = 0; v < 8; v++) out.push(`${prefix}:${SDWA_SEL[v]}`);
  return out;
};
const DST_SEL_TEXT = selTexts('dst_sel');
const SRC0_SEL_TEXT = selTexts('src0_sel');
const SRC1_SEL_TEXT = selTexts('src1_sel');
const DST_UNUSED_TEXT: readonly string[] = [0, 1, 2, 3].map((v) => `dst_unused:${SDWA_UNUSED[v] ?? SDWA_UNUSED[0]}`);
// Modifiers that always print together, joined once: fewer concatenations per instruction.
/** `dst_sel:… dst_unused:…` by the SDWA dword's bits 12:8 (dst_sel, then dst_unused). */
const DST_SEL_UNUSED_TEXT: readonly string[] = Array.from(
  { length: 32 },
  (_, v) => `${DST_SEL_TEXT[v & 7]} ${DST_UNUSED_TEXT[v >>> 3]}`,
);
/** `src0_sel:… src1_sel:…` by src0_sel | src1_sel << 3. */
const SRC_SELS_TEXT: readonly string[] = Array.from(
  { length: 64 },
  (_, v) => `${SRC0_SEL_TEXT[v & 7]} ${SRC1_SEL_TEXT[v >>> 3]}`,
);

/** `row_mask:0x… bank_mask:0x…` by the DPP dword's bits 31:24 (bank_mask, then row_mask). */
const ROW_BANK_MASK_TEXT: readonly string[] = Array.from(
  { length: 256 },
  (_, v) => `row_mask:0x${(v >>> 4).toString(16)} bank_mask:0x${(v & 0xf).toString(16)}`,
);

/** DPP16 modifiers of an extension dword (bit positions are decodeDppWord's). */
function dppModifiers(gen: Gen, d: number, out: Parts): void {
  modifier(out, dppCtrlText(gen, (d >>> 8) & 0x1ff));
  modifier(out, ROW_BANK_MASK_TEXT[d >>> 24]);
  if ((d >>> 19) & 1) modifier(out, 'bound_ctrl:1');
  if ((d >>> 18) & 1 && gen >= Gen.GFX10) modifier(out, 'fi:1');
}

/** The scalar destination of VOPC (and carry-out of VOP2) in the short extension forms. */
function shortMaskDst(ctx: PrintCtx, family: string, sdwa: boolean, sd: number, sdst: number): string {
  if (family === 'VOPC' && sdwa && ctx.gen === Gen.GFX8) return 'vcc';
  if (family === 'VOPC' && sdwa && sd) return maskText(ctx.gen, sdst, ctx.wave64) ?? `<bad ${sdst}>`;
  return vccText(ctx.target);
}

function vop3Parts(
  ctx: PrintCtx,
  inst: Instruction,
  form: VopExtForm,
  ext: ExtForm | undefined,
  info: DefInfo,
  out: Parts,
): void {
  const f = inst.fields;
  const w0 = f.w0;
  const w1 = f.w1;
  const vop3p = form === 'VOP3P_DPP' || form === 'VOP3P_DPP8';
  const ops = info.explicit;
  const vop3b = info.vop3b;
  const isMix = info.isMix;
  const neg = (w1 >>> 29) & 7;
  const hi3 = (w0 >>> 8) & 7; // abs (VOP3), neg_hi (VOP3P)
  const srcCodes = [256 + (f.ext & 0xff), (w1 >>> 9) & 0x1ff, (w1 >>> 18) & 0x1ff];
  let srcIndex = 0;
  for (const o of ops) {
    if (o.role === 'dst') {
      if (o.cls === 'v') operand(out, vgprName(w0 & 0xff, o.dwords));
      else {
        const code = vop3b ? (w0 >>> 8) & 0x7f : w0 & 0xff;
        operand(out, maskDstText(ctx, code));
      }
      continue;
    }
    const i = srcIndex++;
    if (i > 2) continue;
    const code = srcCodes[i];
    if (o.cls === 's') {
      operand(out, maskDstText(ctx, code));
      continue;
    }
    const text = sourceText(ctx.target, code, o) ?? `<bad ${code}>`;
    const n = (neg >>> i) & 1;
    if (vop3p) operand(out, isMix ? withFloatMods(text, n !== 0, ((hi3 >>> i) & 1) !== 0) : text);
    else operand(out, modifiedSource(text, ext, 2 * i, n, vop3b ? 0 : (hi3 >>> i) & 1, 0));
  }
  if (vop3p) vop3pModifiers(w0, w1, srcIndex, isMix, out);
  else {
    const opSel = (w0 >>> 11) & 0xf;
    // op_sel lists the sources, then the destination (bit 3).
    // The tied accumulator of v_fmac/v_mac counts as a third source in op_sel.
    const nsrc = info.isMac ? 3 : srcIndex;
    // Only the op_sel bits the instruction has print (LLVM ignores the others).
    let opSelBits = 0;
    for (let i = 0; i < 4; i++)
      if ((opSel >>> i) & 1 && ext && modMode(ext, OPSEL_SLOTS[i]) === ModMode.Float)
        opSelBits |= 1 << (i < 3 ? i : nsrc);
    if (opSelBits && ext && hasOpSel(ext)) modifier(out, `op_sel:${bitList(opSelBits, nsrc + 1)}`);
    if ((w0 >>> 15) & 1) modifier(out, 'clamp');
    const om = omodText((w1 >>> 27) & 3);
    if (om) modifier(out, om);
  }
  if (form === 'VOP3_DPP8' || form === 'VOP3P_DPP8') {
    modifier(out, dpp8Text(dpp8Selects(f.ext)));
    if (f.src0_marker === SRC0_DPP8_FI) modifier(out, 'fi:1');
  } else dppModifiers(ctx.gen, f.ext, out);
}

/** A VOP3 scalar destination; LLVM shows constant codes there as an invalid immediate. */
function maskDstText(ctx: PrintCtx, code: number): string {
  const reg = maskText(ctx.gen, code, ctx.wave64);
  if (reg) return reg;
  const int = inlineInteger(code);
  return int !== undefined ? `${int}/*Invalid immediate*/` : `<bad ${code}>`;
}

function bitList(bits: number, n: number): string {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((bits >>> i) & 1);
  return `[${out.join(',')}]`;
}

function vop3pModifiers(w0: number, w1: number, nsrc: number, isMix: boolean, out: Parts): void {
  const opSel = (w0 >>> 11) & 7;
  const opSelHi = ((w1 >>> 27) & 3) | (((w0 >>> 14) & 1) << 2);
  const mask = (1 << nsrc) - 1;
  if (opSel & mask) modifier(out, `op_sel:${bitList(opSel, nsrc)}`);
  const defHi = isMix ? 0 : mask;
  if ((opSelHi & mask) !== defHi) modifier(out, `op_sel_hi:${bitList(opSelHi, nsrc)}`);
  if (!isMix) {
    const negLo = (w1 >>> 29) & 7;
    const negHi = (w0 >>> 8) & 7;
    if (negLo & mask) modifier(out, `neg_lo:${bitList(negLo, nsrc)}`);
    if (negHi & mask) modifier(out, `neg_hi:${bitList(negHi, nsrc)}`);
  }
  if ((w0 >>> 15) & 1) modifier(out, 'clamp');
}

/** Assembles a statement in an extension encoding (`_sdwa`, `_dpp`, `dpp8:`…), else undefined. */
export function assembleVopExtension(
  target: Target,
  stmt: AsmStatement,
  _resolveLabel: (name: string) => number | undefined,
): number[] | undefined {
  return assembleExt(target, stmt);
}

/** Whether an encoding is one of the extension encodings this module prints. */
export function isVopExtensionEncoding(encoding: Instruction['encoding']): boolean {
  return formIndex(encoding) >= 0;
}
