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
  decodeDppWord,
  decodeSdwaWord,
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

function explicitSources(def: InstructionDef | undefined): number {
  return def ? def.operands.filter((o) => o.role === 'src' && !o.implicit).length : 0;
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
  const form = `${family}_${kind}` as VopExtForm;
  const ext = extForm(gen, form, op);
  const plain = lookupOpcode(gen, family, op);
  // VOP1 instructions without sources (v_clrexcp, v_pipeflush) ignore src0: their 32-bit form decodes.
  if (!ext) {
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
  const def = baseDef(gen, form, op, ext.mnemonic);
  if (!def) throw new DecodeError('unknown-opcode', byteOffset, `no registry entry for ${ext.mnemonic}`);
  if (at + 1 >= words.length) {
    if (explicitSources(def) === 0) return undefined;
    throw new DecodeError('truncated', byteOffset, `${ext.mnemonic} needs its ${kind} dword`);
  }
  const w1 = words[at + 1];
  const fields: Record<string, number> = { op, src0_marker: w0 & 0x1ff, ext: w1 };
  if (family === 'VOP1') fields.vdst = (w0 >>> 17) & 0xff;
  else fields.vsrc1 = (w0 >>> 9) & 0xff;
  if (family === 'VOP2') fields.vdst = (w0 >>> 17) & 0xff;
  if (def.operands.length === 0 && fields.vdst)
    throw new DecodeError('invalid-operand', byteOffset, `${def.name} has no destination`);
  if (kind === 'SDWA') checkSdwa(target, family, w1, (w0 >>> 9) & 0xff, byteOffset);
  checkModifiers(ext, modifierBits(kind, w1, 0, 0), byteOffset);
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
 * The source-modifier bits of an encoding in the order the side table probes them
 * (SDWA: neg, abs, sext per source; DPP: neg, abs per source; VOP3: neg, abs per source).
 */
function modifierBits(kind: Kind | 'VOP3', ext: number, w0: number, w1: number): number[] {
  if (kind === 'SDWA') return [20, 21, 19, 28, 29, 27].map((b) => (ext >>> b) & 1);
  if (kind === 'DPP') return [20, 21, 22, 23].map((b) => (ext >>> b) & 1);
  if (kind === 'VOP3') return [0, 1, 2].flatMap((i) => [(w1 >>> (29 + i)) & 1, (w0 >>> (8 + i)) & 1]);
  return [];
}

/** Modifier bits an instruction's form does not have make the encoding invalid (LLVM's decoder tables fix them to 0). */
function checkModifiers(ext: ExtForm, bits: readonly number[], byteOffset: number): void {
  bits.forEach((b, k) => {
    if (b && modMode(ext, k) === ModMode.Rejected)
      throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has no such source modifier`);
  });
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
  const mode = (k: number, bit: number): ModMode =>
    bit ? (ext ? modMode(ext, base + k) : ModMode.Float) : ModMode.Ignored;
  const n = mode(0, neg);
  const a = mode(1, abs);
  let t = a === ModMode.Float ? `|${text}|` : text;
  // LLVM spells negated constants (not registers) without |…| as neg(…).
  if (n === ModMode.Float) t = a !== ModMode.Float && isConstantText(text) ? `neg(${t})` : `-${t}`;
  if (n === ModMode.Sext || a === ModMode.Sext || (sext && mode(2, sext) === ModMode.Sext)) t = `sext(${t})`;
  return t;
}

function isConstantText(text: string): boolean {
  return /^-?[0-9]/.test(text);
}

/** Reserved SDWA field values LLVM rejects. */
const PROBE_B32: OperandDef = { field: 'src0', role: 'src', cls: 'vs', dwords: 1, type: 'b32' };
const validScalar = new Map<Gen, Uint8Array>();

/**
 * Per target: which scalar source codes (0-255) an extension encoding can hold, built once
 * from the printer so the decoder itself only indexes a table.
 */
function scalarSourceOk(target: Target, code: number): boolean {
  const key = target.gen;
  let t = validScalar.get(key);
  if (!t) {
    t = new Uint8Array(256);
    for (let c = 0; c < 256; c++) t[c] = sourceText(target, c, PROBE_B32) !== undefined ? 1 : 0;
    validScalar.set(key, t);
  }
  return t[code & 0xff] === 1;
}

function checkSdwa(target: Target, family: Family, w1: number, w0Vsrc1: number, byteOffset: number): void {
  const gen = target.gen;
  const s = decodeSdwaWord(w1);
  const bad = (why: string): never => {
    throw new DecodeError('invalid-operand', byteOffset, why);
  };
  if (s.src0Sel > 6) bad('reserved src0_sel');
  if (family === 'VOP2' || family === 'VOPC') {
    if (s.src1Sel > 6) bad('reserved src1_sel');
  } else if (s.src1Sel !== 0) bad('VOP1 has no src1_sel');
  if (family !== 'VOPC') {
    if (s.dstSel > 6) bad('reserved dst_sel');
  }
  if (gen >= Gen.GFX9) {
    if (s.s0 && !scalarSourceOk(target, s.src0)) bad('src0 is not a source SDWA can hold');
    if (s.s1 && family !== 'VOP1' && !scalarSourceOk(target, w0Vsrc1)) bad('src1 is not a source SDWA can hold');
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
  const form = `${family}_${kind}` as VopExtForm;
  const ext = extForm(gen, form, op);
  if (!ext) throw new DecodeError('invalid-operand', byteOffset, `${family} opcode ${op} has no ${kind} form`);
  const def = baseDef(gen, form, op, ext.mnemonic);
  if (!def) throw new DecodeError('unknown-opcode', byteOffset, `no registry entry for ${ext.mnemonic}`);
  if (at + 2 >= words.length) throw new DecodeError('truncated', byteOffset, `${ext.mnemonic} needs its ${kind} dword`);
  if (family === 'VOP3') {
    checkModifiers(ext, modifierBits('VOP3', 0, w0, w1), byteOffset);
    checkOutputModifiers(ext, (w0 >>> 15) & 1, (w1 >>> 27) & 3, byteOffset);
    const opSel = (w0 >>> 11) & 0xf;
    OPSEL_SLOTS.forEach((slot, i) => {
      if ((opSel >>> i) & 1 && modMode(ext, slot) === ModMode.Rejected)
        throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has no such op_sel bit`);
    });
    // Source fields the instruction does not read must be zero.
    const nsrc = explicitSources(def);
    if ((nsrc < 3 && (w1 >>> 18) & 0x1ff) || (nsrc < 2 && (w1 >>> 9) & 0x1ff))
      throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has a source field it does not read`);
  }
  // src1/src2 hold VGPRs (256+) or scalar sources; a literal or reserved code has no meaning here.
  const srcCodes = [(w1 >>> 9) & 0x1ff, (w1 >>> 18) & 0x1ff];
  if (srcCodes.some((c) => c < 256 && c !== 0 && !scalarSourceOk(target, c)))
    throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} has a source it cannot hold`);
  // Lane-mask sources (carry-in, v_cndmask's mask) are scalar.
  explicit(def)
    .filter((o) => o.role === 'src')
    .forEach((o, i) => {
      if (o.cls === 's' && i > 0 && srcCodes[i - 1] >= 256)
        throw new DecodeError('invalid-operand', byteOffset, `${ext.mnemonic} takes a scalar lane mask`);
    });
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
  const op = inst.fields.op;
  const mnemonic = extForm(target.gen, form, op)?.mnemonic ?? inst.def.name;
  const parts = form.startsWith('VOP3') ? vop3Parts(ctx, inst, form) : shortParts(ctx, inst, form);
  return (
    mnemonic +
    (parts.operands.length ? ` ${parts.operands.join(', ')}` : '') +
    parts.modifiers.map((m) => ` ${m}`).join('')
  );
}

interface Parts {
  readonly operands: string[];
  readonly modifiers: string[];
}

function explicit(def: InstructionDef): OperandDef[] {
  return def.operands.filter((o) => !o.implicit);
}

function omodText(omod: number): string | undefined {
  return omod === 1 ? 'mul:2' : omod === 2 ? 'mul:4' : omod === 3 ? 'div:2' : undefined;
}

function shortParts(ctx: PrintCtx, inst: Instruction, form: VopExtForm): Parts {
  const f = inst.fields;
  const family = form.slice(0, 4);
  const ops = explicit(inst.def);
  const operands: string[] = [];
  const modifiers: string[] = [];
  const w = f.ext;
  const ext = extForm(ctx.gen, form, f.op);
  const sdwa = form.endsWith('_SDWA');
  const s = decodeSdwaWord(w);
  const d = decodeDppWord(w);
  let srcIndex = 0;
  for (const o of ops) {
    if (o.role === 'dst') {
      if (o.cls === 'v') operands.push(vgprName(f.vdst, o.dwords));
      else operands.push(shortMaskDst(ctx, family, sdwa, s.sd, s.sdst));
      continue;
    }
    if (o.cls === 's') {
      operands.push(vccText(ctx.target));
      continue;
    }
    const i = srcIndex++;
    if (i > 1) continue;
    const vgpr = i === 0 ? (sdwa ? s.src0 : d.src0) : f.vsrc1;
    let code = 256 + vgpr;
    if (sdwa && ctx.gen >= Gen.GFX9 && (i === 0 ? s.s0 : s.s1)) code = vgpr;
    const text = sourceText(ctx.target, code, o) ?? `<bad ${code}>`;
    const neg = i === 0 ? (sdwa ? s.src0Neg : d.src0Neg) : sdwa ? s.src1Neg : d.src1Neg;
    const abs = i === 0 ? (sdwa ? s.src0Abs : d.src0Abs) : sdwa ? s.src1Abs : d.src1Abs;
    const sext = sdwa ? (i === 0 ? s.src0Sext : s.src1Sext) : 0;
    operands.push(modifiedSource(text, ext, sdwa ? 3 * i : 2 * i, neg, abs, sext));
  }
  if (sdwa) {
    const vopc = family === 'VOPC';
    if (s.clamp && !(vopc && ctx.gen >= Gen.GFX9) && (!ext || modMode(ext, Slot.Clamp) !== ModMode.Rejected))
      modifiers.push('clamp');
    if (!vopc && ctx.gen >= Gen.GFX9) {
      const om = omodText(s.omod);
      if (om) modifiers.push(om);
    }
    if (!vopc && ops.length > 0)
      modifiers.push(`dst_sel:${SDWA_SEL[s.dstSel]}`, `dst_unused:${SDWA_UNUSED[s.dstUnused] ?? SDWA_UNUSED[0]}`);
    if (srcIndex > 0) modifiers.push(`src0_sel:${SDWA_SEL[s.src0Sel]}`);
    if (srcIndex > 1) modifiers.push(`src1_sel:${SDWA_SEL[s.src1Sel]}`);
  } else if (form.endsWith('_DPP8')) {
    modifiers.push(dpp8Text(dpp8Selects(w)));
    if (f.src0_marker === SRC0_DPP8_FI) modifiers.push('fi:1');
  } else modifiers.push(...dppModifiers(ctx.gen, d));
  return { operands, modifiers };
}

function dppModifiers(gen: Gen, d: ReturnType<typeof decodeDppWord>): string[] {
  const m = [
    dppCtrlText(gen, d.ctrl),
    `row_mask:0x${d.rowMask.toString(16)}`,
    `bank_mask:0x${d.bankMask.toString(16)}`,
  ];
  if (d.boundCtrl) m.push('bound_ctrl:1');
  if (d.fi && gen >= Gen.GFX10) m.push('fi:1');
  return m;
}

/** The scalar destination of VOPC (and carry-out of VOP2) in the short extension forms. */
function shortMaskDst(ctx: PrintCtx, family: string, sdwa: boolean, sd: number, sdst: number): string {
  if (family === 'VOPC' && sdwa && ctx.gen === Gen.GFX8) return 'vcc';
  if (family === 'VOPC' && sdwa && sd) return maskText(ctx.gen, sdst, ctx.wave64) ?? `<bad ${sdst}>`;
  return vccText(ctx.target);
}

function vop3Parts(ctx: PrintCtx, inst: Instruction, form: VopExtForm): Parts {
  const f = inst.fields;
  const w0 = f.w0;
  const w1 = f.w1;
  const vop3p = form.startsWith('VOP3P');
  const ext = extForm(ctx.gen, form, f.op);
  const ops = explicit(inst.def);
  const dsts = ops.filter((o) => o.role === 'dst');
  const vop3b = dsts.some((o) => o.cls === 'v') && dsts.some((o) => o.cls === 's');
  const isMix = inst.def.name.startsWith('v_fma_mix');
  const neg = (w1 >>> 29) & 7;
  const hi3 = (w0 >>> 8) & 7; // abs (VOP3), neg_hi (VOP3P)
  const operands: string[] = [];
  const modifiers: string[] = [];
  const srcCodes = [256 + (f.ext & 0xff), (w1 >>> 9) & 0x1ff, (w1 >>> 18) & 0x1ff];
  let srcIndex = 0;
  for (const o of ops) {
    if (o.role === 'dst') {
      if (o.cls === 'v') operands.push(vgprName(w0 & 0xff, o.dwords));
      else {
        const code = vop3b ? (w0 >>> 8) & 0x7f : w0 & 0xff;
        operands.push(maskDstText(ctx, code));
      }
      continue;
    }
    const i = srcIndex++;
    if (i > 2) continue;
    const code = srcCodes[i];
    if (o.cls === 's') {
      operands.push(maskDstText(ctx, code));
      continue;
    }
    const text = sourceText(ctx.target, code, o) ?? `<bad ${code}>`;
    const n = (neg >>> i) & 1;
    if (vop3p) operands.push(isMix ? withFloatMods(text, n !== 0, ((hi3 >>> i) & 1) !== 0) : text);
    else operands.push(modifiedSource(text, ext, 2 * i, n, vop3b ? 0 : (hi3 >>> i) & 1, 0));
  }
  if (vop3p) modifiers.push(...vop3pModifiers(w0, w1, srcIndex, isMix));
  else {
    const opSel = (w0 >>> 11) & 0xf;
    // op_sel lists the sources, then the destination (bit 3).
    // The tied accumulator of v_fmac/v_mac counts as a third source in op_sel.
    const nsrc = /^v_f?mac_/.test(inst.def.name) ? 3 : srcIndex;
    // Only the op_sel bits the instruction has print (LLVM ignores the others).
    let opSelBits = 0;
    for (let i = 0; i < 4; i++)
      if ((opSel >>> i) & 1 && ext && modMode(ext, OPSEL_SLOTS[i]) === ModMode.Float)
        opSelBits |= 1 << (i < 3 ? i : nsrc);
    if (opSelBits && ext && hasOpSel(ext)) modifiers.push(`op_sel:${bitList(opSelBits, nsrc + 1)}`);
    if ((w0 >>> 15) & 1) modifiers.push('clamp');
    const om = omodText((w1 >>> 27) & 3);
    if (om) modifiers.push(om);
  }
  if (form.endsWith('_DPP8')) {
    modifiers.push(dpp8Text(dpp8Selects(f.ext)));
    if (f.src0_marker === SRC0_DPP8_FI) modifiers.push('fi:1');
  } else modifiers.push(...dppModifiers(ctx.gen, decodeDppWord(f.ext)));
  return { operands, modifiers };
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

function vop3pModifiers(w0: number, w1: number, nsrc: number, isMix: boolean): string[] {
  const m: string[] = [];
  const opSel = (w0 >>> 11) & 7;
  const opSelHi = ((w1 >>> 27) & 3) | (((w0 >>> 14) & 1) << 2);
  const mask = (1 << nsrc) - 1;
  if (opSel & mask) m.push(`op_sel:${bitList(opSel, nsrc)}`);
  const defHi = isMix ? 0 : mask;
  if ((opSelHi & mask) !== defHi) m.push(`op_sel_hi:${bitList(opSelHi, nsrc)}`);
  if (!isMix) {
    const negLo = (w1 >>> 29) & 7;
    const negHi = (w0 >>> 8) & 7;
    if (negLo & mask) m.push(`neg_lo:${bitList(negLo, nsrc)}`);
    if (negHi & mask) m.push(`neg_hi:${bitList(negHi, nsrc)}`);
  }
  if ((w0 >>> 15) & 1) m.push('clamp');
  return m;
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
  return /_(SDWA|DPP|DPP8)$/.test(encoding);
}
