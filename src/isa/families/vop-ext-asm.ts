/**
 * Assembler of the VOP extension encodings (SDWA, DPP, DPP16, DPP8, gfx11 VOP3/VOP3P-DPP).
 * A statement is ours when its mnemonic carries `_sdwa`/`_dpp`/`_e64_dpp` or its modifiers
 * name an extension (`quad_perm:`, `row_shl:`, `dpp8:`, `src0_sel:`, …). The forms an
 * instruction has, and the modifiers each accepts, come from the generated side table;
 * operand syntax from the shared asm-operands helpers.
 */
import { AsmError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement } from '../instruction.ts';
import type { InstructionDef, OperandDef } from '../registry/types.ts';
import {
  f16Bits,
  inlineCodeForBits,
  inlineFloatCode,
  inlineIntegerCode,
  namedSourceCode,
  parseBracketList,
  parseFloatLiteral,
  parseInteger,
  parseModifier,
  parseRegister,
  parseSourceModifiers,
  splitOperands,
  type AsmItem,
} from '../asm-operands.ts';
import {
  ModMode,
  OPSEL_SLOTS,
  Slot,
  baseDef,
  extFormsByStem,
  modMode,
  type ExtForm,
  type VopExtForm,
} from './vop-ext-forms.ts';
import {
  SEL_DWORD,
  SDWA_SEL,
  SDWA_UNUSED,
  SRC0_DPP,
  SRC0_DPP8,
  SRC0_DPP8_FI,
  SRC0_SDWA,
  encodeDppWord,
  encodeSdwaWord,
  parseDpp8,
  parseDppCtrl,
} from './vop-ext-fields.ts';

type Kind = 'SDWA' | 'DPP' | 'DPP8';

const SDWA_MODS = new Set(['dst_sel', 'dst_unused', 'src0_sel', 'src1_sel']);
const DPP_MODS = new Set([
  'quad_perm',
  'row_shl',
  'row_shr',
  'row_ror',
  'wave_shl',
  'wave_rol',
  'wave_shr',
  'wave_ror',
  'row_mirror',
  'row_half_mirror',
  'row_bcast',
  'row_share',
  'row_xmask',
  'row_newbcast',
  'row_mask',
  'bank_mask',
  'bound_ctrl',
  'fi',
]);

const OTHER_MODS = new Set(['clamp', 'mul', 'div', 'dpp8', 'op_sel', 'op_sel_hi', 'neg_lo', 'neg_hi']);

/**
 * Marks items by what they are rather than where they stand: LLVM reads `v_nop row_shl:1`
 * (a modifier first) and `v_max_f32 v1, v2 v3 …` (an operand after a space) alike.
 */
function classify(items: readonly AsmItem[]): AsmItem[] {
  return items.map((it) => {
    const name = parseModifier(it.text).name;
    return { text: it.text, modifier: SDWA_MODS.has(name) || DPP_MODS.has(name) || OTHER_MODS.has(name) };
  });
}

/** Which extension a statement asks for, from its suffix and modifiers. */
function kindOf(
  stmt: AsmStatement,
  mods: readonly AsmItem[],
): { kind: Kind; stem: string; vop3: boolean | undefined } | undefined {
  const names = mods.map((m) => parseModifier(m.text).name);
  const m = /^(.*?)(_e64_dpp|_dpp|_sdwa|_e32|_e64)?$/.exec(stmt.mnemonic)!;
  const stem = m[1];
  const suffix = m[2] ?? '';
  const vop3 = suffix === '_e64_dpp' || suffix === '_e64' ? true : suffix === '' ? undefined : false;
  if (names.includes('dpp8')) return suffix === '_sdwa' ? undefined : { kind: 'DPP8', stem, vop3 };
  if (suffix === '_sdwa' || names.some((n) => SDWA_MODS.has(n)))
    return suffix.endsWith('dpp') ? undefined : { kind: 'SDWA', stem, vop3 };
  if (suffix.endsWith('_dpp') || names.some((n) => DPP_MODS.has(n))) return { kind: 'DPP', stem, vop3 };
  return undefined;
}

/** gfx11 spellings LLVM accepts for instructions it prints under another name. */
const GFX11_ALIASES: readonly [RegExp, string][] = [
  [/^v_cmp(x?)_tru_/, 'v_cmp$1_t_'],
  [/^v_ffbh_i32$/, 'v_cls_i32'],
  [/^v_ffbh_u32$/, 'v_clz_i32_u32'],
  [/^v_ffbl_b32$/, 'v_ctz_i32_b32'],
  [/^v_cvt_rpi_i32_f32$/, 'v_cvt_nearest_i32_f32'],
  [/^v_cvt_flr_i32_f32$/, 'v_cvt_floor_i32_f32'],
  [/^v_cvt_pkrtz_f16_f32$/, 'v_cvt_pk_rtz_f16_f32'],
  [/^v_mul_legacy_f32$/, 'v_mul_dx9_zero_f32'],
  [/^v_dot2c_f32_f16$/, 'v_dot2acc_f32_f16'],
];

function canonicalStem(gen: Gen, stem: string): string {
  if (gen < Gen.GFX11) return stem;
  for (const [re, to] of GFX11_ALIASES) if (re.test(stem)) return stem.replace(re, to);
  return stem;
}

function formsFor(gen: Gen, kind: Kind, vop3: boolean | undefined): VopExtForm[] {
  if (kind === 'SDWA') return ['VOP1_SDWA', 'VOP2_SDWA', 'VOPC_SDWA'];
  const sfx = kind === 'DPP8' ? '_DPP8' : '_DPP';
  const short = ['VOP1', 'VOP2', 'VOPC'].map((f) => `${f}${sfx}` as VopExtForm);
  const long = gen >= Gen.GFX11 ? ['VOP3', 'VOP3P'].map((f) => `${f}${sfx}` as VopExtForm) : [];
  return vop3 === true ? long : vop3 === false ? short : [...short, ...long];
}

/** Assembles a statement in an extension encoding, or returns undefined when it is not one. */
export function assembleExt(target: Target, stmt: AsmStatement): number[] | undefined {
  const items = classify(splitOperands(stmt.operandText));
  const mods = items.filter((i) => i.modifier);
  const k = kindOf(stmt, mods);
  if (!k) return undefined;
  const candidates: ExtForm[] = [];
  const stem = canonicalStem(target.gen, k.stem);
  for (const form of formsFor(target.gen, k.kind, k.vop3)) candidates.push(...extFormsByStem(target.gen, form, stem));
  if (candidates.length === 0) {
    if (stmt.mnemonic.endsWith('_sdwa') || stmt.mnemonic.endsWith('_dpp'))
      throw new AsmError(
        `${k.kind === 'SDWA' ? 'sdwa' : 'dpp'} variant of this instruction is not supported`,
        stmt.line,
      );
    return undefined;
  }
  let firstError: AsmError | undefined;
  for (const ext of candidates) {
    const def = baseDef(target.gen, ext.form, ext.op, ext.mnemonic);
    if (!def) continue;
    try {
      return encodeForm(target, ext, def, items, k.kind);
    } catch (e) {
      if (!(e instanceof AsmError)) throw e;
      firstError ??= e;
    }
  }
  throw new AsmError(firstError?.reason ?? 'invalid operand for instruction', stmt.line);
}

// ---- operands ---------------------------------------------------------------------------

interface Src {
  /** 9-bit source code (256+ = VGPR). */
  readonly code: number;
  readonly neg: boolean;
  readonly abs: boolean;
  readonly sext: boolean;
  /** The high half of a VGPR (`v1.h`, gfx11). */
  readonly hi: boolean;
}

function fail(reason = 'invalid operand for instruction'): never {
  throw new AsmError(reason);
}

/**
 * gfx11 true16 syntax names a VGPR half, `v1.l` / `v1.h`: the short forms encode the high
 * half as VGPR number + 128, the VOP3 forms as an op_sel bit.
 */
function splitHalf(text: string, gen: Gen): [string, boolean] {
  const m = gen >= Gen.GFX11 ? /^(v\d+)\.([lh])$/i.exec(text) : null;
  return m ? [m[1], m[2].toLowerCase() === 'h'] : [text, false];
}

function vgprOf(text: string, gen: Gen, dwords: number): { code: number; hi: boolean } {
  const [t, hi] = splitHalf(text, gen);
  const r = parseRegister(t, gen);
  if (!r || r.file !== 'v' || r.dwords !== dwords) fail();
  return { code: r.code, hi };
}

/** The inline-constant code of a numeric operand, or undefined when it would need a literal. */
function constantCode(text: string, op: OperandDef, gen: Gen): number | undefined {
  const i = parseInteger(text);
  if (i !== undefined) {
    const c = inlineIntegerCode(i);
    if (c !== undefined) return c;
    const bits = op.type === 'f16' ? 16 : 32;
    return inlineCodeForBits(i, bits, gen);
  }
  const f = parseFloatLiteral(text);
  if (f !== undefined) {
    const c = inlineFloatCode(f, gen);
    if (c !== undefined) return c;
    if (op.type === 'f16') return inlineCodeForBits(f16Bits(f), 16, gen);
  }
  return undefined;
}

/** A source: VGPR always; scalar registers and inline constants where `scalar` allows. */
function parseSrc(text: string, op: OperandDef, gen: Gen, scalar: boolean): Src {
  const m = parseSourceModifiers(text);
  const [inner, hi] = splitHalf(m.inner, gen);
  const r = parseRegister(inner, gen);
  let code: number | undefined;
  if (r) {
    if (r.dwords !== op.dwords) fail();
    if (r.file === 'v') code = 256 + r.code;
    else if (r.file === 's' && scalar) code = r.code;
    else fail();
  } else if (scalar) {
    code = namedSourceCode(inner, gen) ?? constantCode(inner, op, gen);
    if (code === undefined) fail();
  } else fail();
  return { code, neg: m.neg, abs: m.abs, sext: m.sext, hi };
}

/** A lane mask the short forms imply (vcc / vcc_lo by wave size). */
function expectVcc(text: string, target: Target): void {
  const want = target.gen >= Gen.GFX10 && !target.wave64 ? 'vcc_lo' : 'vcc';
  if (text.toLowerCase() !== want) fail();
}

/** A scalar lane-mask register (SGPR pair in wave64, SGPR in wave32). */
function maskCode(text: string, target: Target): number {
  const r = parseRegister(text, target.gen);
  const dwords = target.gen >= Gen.GFX10 && !target.wave64 ? 1 : 2;
  if (!r || r.file !== 's' || r.dwords !== dwords) fail();
  return r.code;
}

// ---- modifiers --------------------------------------------------------------------------

interface Mods {
  clamp: number;
  omod: number;
  dstSel: number;
  dstUnused: number;
  src0Sel: number;
  src1Sel: number;
  ctrl: number | undefined;
  rowMask: number;
  bankMask: number;
  boundCtrl: number;
  fi: number;
  dpp8: number | undefined;
  opSel: number[] | undefined;
  opSelHi: number[] | undefined;
  negLo: number[] | undefined;
  negHi: number[] | undefined;
  seen: Set<string>;
}

function selOf(value: string | undefined, names: readonly string[]): number {
  const i = value === undefined ? -1 : names.indexOf(value.toUpperCase());
  if (i < 0) fail();
  return i;
}

function maskOf(value: string | undefined): number {
  const v = value === undefined ? undefined : parseInteger(value);
  if (v === undefined || v < 0 || v > 15) fail();
  return v;
}

function bitsOf(value: string | undefined): number[] {
  const list = value === undefined ? undefined : parseBracketList(value);
  if (!list) fail();
  return list.map((x) => {
    if (x !== '0' && x !== '1') fail();
    return Number(x);
  });
}

function parseMods(target: Target, items: readonly AsmItem[], kind: Kind): Mods {
  const m: Mods = {
    clamp: 0,
    omod: 0,
    dstSel: SEL_DWORD,
    dstUnused: 2,
    src0Sel: SEL_DWORD,
    src1Sel: SEL_DWORD,
    ctrl: undefined,
    rowMask: 0xf,
    bankMask: 0xf,
    boundCtrl: 0,
    fi: 0,
    dpp8: undefined,
    opSel: undefined,
    opSelHi: undefined,
    negLo: undefined,
    negHi: undefined,
    seen: new Set(),
  };
  const gen = target.gen;
  for (const it of items) {
    const { name, value } = parseModifier(it.text);
    if (m.seen.has(name)) fail();
    m.seen.add(name);
    const sdwaOnly = (): void => {
      if (kind !== 'SDWA') fail();
    };
    const dppOnly = (): void => {
      if (kind === 'SDWA') fail();
    };
    switch (name) {
      case 'clamp':
        m.clamp = 1;
        continue;
      case 'mul':
        m.omod = value === '2' ? 1 : value === '4' ? 2 : fail();
        continue;
      case 'div':
        m.omod = value === '2' ? 3 : fail();
        continue;
      case 'dst_sel':
        sdwaOnly();
        m.dstSel = selOf(value, SDWA_SEL);
        continue;
      case 'dst_unused':
        sdwaOnly();
        m.dstUnused = selOf(value, SDWA_UNUSED);
        continue;
      case 'src0_sel':
        sdwaOnly();
        m.src0Sel = selOf(value, SDWA_SEL);
        continue;
      case 'src1_sel':
        sdwaOnly();
        m.src1Sel = selOf(value, SDWA_SEL);
        continue;
      case 'row_mask':
        dppOnly();
        m.rowMask = maskOf(value);
        continue;
      case 'bank_mask':
        dppOnly();
        m.bankMask = maskOf(value);
        continue;
      case 'bound_ctrl':
        dppOnly();
        // LLVM reads bound_ctrl:0 as setting the bit, except on gfx11.
        if (value === '1') m.boundCtrl = 1;
        else if (value === '0') m.boundCtrl = gen >= Gen.GFX11 ? 0 : 1;
        else fail();
        continue;
      case 'fi':
        dppOnly();
        if (gen < Gen.GFX10) fail();
        m.fi = value === '1' ? 1 : value === '0' ? 0 : fail();
        continue;
      case 'dpp8':
        if (kind !== 'DPP8' || value === undefined) fail();
        m.dpp8 = parseDpp8(value) ?? fail();
        continue;
      case 'op_sel':
        m.opSel = bitsOf(value);
        continue;
      case 'op_sel_hi':
        m.opSelHi = bitsOf(value);
        continue;
      case 'neg_lo':
        m.negLo = bitsOf(value);
        continue;
      case 'neg_hi':
        m.negHi = bitsOf(value);
        continue;
    }
    if (kind !== 'DPP' || m.ctrl !== undefined) fail();
    const c = parseDppCtrl(gen, name, value);
    if (c === undefined || c === 'bad') fail();
    m.ctrl = c;
  }
  if (kind === 'DPP8' && m.seen.size && [...m.seen].some((n) => DPP_MODS.has(n) && n !== 'fi')) fail();
  return m;
}

// ---- encoding ---------------------------------------------------------------------------

function explicitOps(def: InstructionDef): OperandDef[] {
  return def.operands.filter((o) => !o.implicit);
}

/** Checks a source's modifiers against what the form accepts; returns [neg, abs, sext] bits as encoded. */
function srcModBits(ext: ExtForm, slotBase: number, s: Src, sdwa: boolean): [number, number, number] {
  const nMode = modMode(ext, slotBase);
  const aMode = modMode(ext, slotBase + 1);
  let neg = 0;
  let abs = 0;
  let sext = 0;
  if (s.neg) {
    if (nMode !== ModMode.Float) fail();
    neg = 1;
  }
  if (s.abs) {
    if (aMode !== ModMode.Float) fail();
    abs = 1;
  }
  if (s.sext) {
    if (sdwa && modMode(ext, slotBase + 2) === ModMode.Sext) sext = 1;
    else if (!sdwa && nMode === ModMode.Sext) neg = 1;
    else fail();
  }
  return [neg, abs, sext];
}

function encodeForm(
  target: Target,
  ext: ExtForm,
  def: InstructionDef,
  items: readonly AsmItem[],
  kind: Kind,
): number[] {
  const operands = items.filter((i) => !i.modifier).map((i) => i.text);
  const mods = parseMods(
    target,
    items.filter((i) => i.modifier),
    kind,
  );
  if (ext.form.startsWith('VOP3')) return encodeVop3(target, ext, def, operands, mods, kind);
  return encodeShort(target, ext, def, operands, mods, kind);
}

/** The operands as written; the short forms let VCC operands go unwritten (LLVM infers them). */
function writtenOps(def: InstructionDef, operands: readonly string[], short: boolean): OperandDef[] {
  const ops = explicitOps(def);
  if (operands.length === ops.length) return ops;
  const noMasks = ops.filter((o) => o.cls !== 's');
  if (short && operands.length === noMasks.length) return noMasks;
  fail();
}

/** Whether a probed register bit (VGPR >= v128) is one LLVM's assembler takes in this form. */
function highOk(ext: ExtForm, slot: number): boolean {
  const mode = modMode(ext, slot);
  return mode === ModMode.Float || mode === ModMode.Ignored;
}

function encodeShort(
  target: Target,
  ext: ExtForm,
  def: InstructionDef,
  operands: readonly string[],
  m: Mods,
  kind: Kind,
): number[] {
  const gen = target.gen;
  const family = ext.form.slice(0, 4);
  const ops = writtenOps(def, operands, true);
  const sdwa = kind === 'SDWA';
  let vdst = 0;
  let halfDst = false;
  let sdst = 0;
  let sd = 0;
  const srcs: Src[] = [];
  ops.forEach((o, i) => {
    const t = operands[i];
    if (o.role === 'dst') {
      if (o.cls === 'v') {
        const d = vgprOf(t, gen, o.dwords);
        // A short form reaches the halves of v0-v127 only.
        if (d.hi && d.code >= 128) fail();
        vdst = d.code | (d.hi ? 0x80 : 0);
        halfDst = d.hi;
      } else if (family === 'VOPC' && sdwa && gen >= Gen.GFX9) {
        const want = gen >= Gen.GFX10 && !target.wave64 ? 'vcc_lo' : 'vcc';
        if (t.toLowerCase() !== want) {
          sdst = maskCode(t, target);
          sd = 1;
        }
      } else if (family === 'VOPC' && sdwa) {
        if (t.toLowerCase() !== 'vcc') fail();
      } else expectVcc(t, target);
      return;
    }
    if (o.cls === 's') return expectVcc(t, target);
    const src = parseSrc(t, o, gen, sdwa && gen >= Gen.GFX9);
    if (src.hi && src.code >= 384) fail();
    srcs.push(src.hi && src.code >= 256 ? { ...src, code: src.code | 0x80 } : src);
  });
  if (srcs.length > 0 && srcs[0].code < 256 && !sdwa) fail();
  if (srcs.length > 1 && srcs[1].code < 256 && !sdwa) fail();
  // v128+ is out of a 16-bit gfx11 operand's reach unless written as a true16 high half.
  if (vdst >= 128 && !halfDst && !highOk(ext, Slot.VdstHigh)) fail();
  if (sdwa) checkConstantBus(target, def, srcs);
  if (srcs[0] && srcs[0].code >= 384 && !srcs[0].hi && !highOk(ext, Slot.Src0High)) fail();
  if (srcs[1] && srcs[1].code >= 384 && !srcs[1].hi && family !== 'VOP1' && !highOk(ext, Slot.Vsrc1High)) fail();
  const op = ext.op;
  const enc0 = (marker: number): number => {
    if (family === 'VOP1') return (0x7e000000 | (op << 9) | (vdst << 17) | marker) >>> 0;
    if (family === 'VOP2') return ((op << 25) | (vdst << 17) | (((srcs[1]?.code ?? 256) & 0xff) << 9) | marker) >>> 0;
    return (0x7c000000 | (op << 17) | (((srcs[1]?.code ?? 256) & 0xff) << 9) | marker) >>> 0;
  };
  if (sdwa) return encodeSdwa(target, ext, family, srcs, m, sdst, sd, enc0);
  if (m.clamp || m.omod || m.opSel || m.opSelHi || m.negLo || m.negHi) fail();
  const s0 = srcs[0];
  const [n0, a0] = s0 ? srcModBits(ext, 0, s0, false) : [0, 0];
  const [n1, a1] = srcs[1] ? srcModBits(ext, 2, srcs[1], false) : [0, 0];
  const src0 = s0 ? s0.code - 256 : 0;
  if (kind === 'DPP8') {
    if (m.dpp8 === undefined || n0 || a0 || n1 || a1) fail();
    return [enc0(m.fi ? SRC0_DPP8_FI : SRC0_DPP8), ((src0 & 0xff) | (m.dpp8 << 8)) >>> 0];
  }
  if (m.ctrl === undefined) fail();
  const w1 = encodeDppWord({
    src0,
    ctrl: m.ctrl,
    fi: m.fi,
    boundCtrl: m.boundCtrl,
    src0Neg: n0,
    src0Abs: a0,
    src1Neg: n1,
    src1Abs: a1,
    bankMask: m.bankMask,
    rowMask: m.rowMask,
  });
  return [enc0(SRC0_DPP), w1];
}

/**
 * At most one scalar value (two on gfx10+) may feed an SDWA instruction, VCC read by
 * v_cndmask / carry-in counting; v_movrels* read VGPRs only.
 */
function checkConstantBus(target: Target, def: InstructionDef, srcs: readonly Src[]): void {
  const scalars = new Set<number>();
  // SGPRs and the named sources count; inline constants do not.
  for (const s of srcs)
    if (s.code < 128 || (s.code >= 235 && s.code <= 239) || (s.code >= 251 && s.code <= 254)) scalars.add(s.code);
  if (srcs.some((s) => s.code === SRC_LDS_DIRECT))
    throw new AsmError('lds_direct cannot be used with this instruction');
  if (srcs.some((s) => s.code < 256) && /^v_movrels/.test(def.name))
    throw new AsmError('source operand must be a VGPR');
  // The implicit 64-bit VCC read differs from any 32-bit half written as a source.
  if (explicitOps(def).some((o) => o.role === 'src' && o.cls === 's')) scalars.add(IMPLICIT_VCC);
  const limit = target.gen >= Gen.GFX10 ? 2 : 1;
  if (scalars.size > limit) throw new AsmError('invalid operand (violates constant bus restrictions)');
}

const IMPLICIT_VCC = -1;
const SRC_LDS_DIRECT = 254;

function encodeSdwa(
  target: Target,
  ext: ExtForm,
  family: string,
  srcs: readonly Src[],
  m: Mods,
  sdst: number,
  sd: number,
  enc0: (marker: number) => number,
): number[] {
  const gen = target.gen;
  const vopc = family === 'VOPC';
  if (m.opSel || m.opSelHi || m.negLo || m.negHi) fail();
  if (vopc && (m.seen.has('dst_sel') || m.seen.has('dst_unused'))) fail();
  if (family === 'VOP1' && m.seen.has('src1_sel')) fail();
  if (m.clamp && (modMode(ext, Slot.Clamp) === ModMode.Rejected || (vopc && gen >= Gen.GFX9))) fail();
  if (m.omod && (gen < Gen.GFX9 || vopc || modMode(ext, Slot.Omod) === ModMode.Rejected)) fail();
  const [n0, a0, x0] = srcs[0] ? srcModBits(ext, 0, srcs[0], true) : [0, 0, 0];
  const [n1, a1, x1] = srcs[1] ? srcModBits(ext, 3, srcs[1], true) : [0, 0, 0];
  const s0 = srcs[0] && srcs[0].code < 256 ? 1 : 0;
  const s1 = srcs[1] && srcs[1].code < 256 ? 1 : 0;
  const noOperands = srcs.length === 0;
  const w1 = encodeSdwaWord(
    {
      src0: srcs[0] ? srcs[0].code & 0xff : 0,
      dstSel: noOperands ? 0 : m.dstSel,
      dstUnused: noOperands ? 0 : m.dstUnused,
      clamp: m.clamp,
      omod: m.omod,
      src0Sel: noOperands ? 0 : m.src0Sel,
      src0Sext: x0,
      src0Neg: n0,
      src0Abs: a0,
      s0,
      src1Sel: srcs.length > 1 ? m.src1Sel : 0,
      src1Sext: x1,
      src1Neg: n1,
      src1Abs: a1,
      s1,
      sdst,
      sd,
    },
    vopc,
  );
  return [enc0(SRC0_SDWA), w1];
}

function encodeVop3(
  target: Target,
  ext: ExtForm,
  def: InstructionDef,
  operands: readonly string[],
  m: Mods,
  kind: Kind,
): number[] {
  const gen = target.gen;
  const vop3p = ext.form.startsWith('VOP3P');
  const isMix = def.name.startsWith('v_fma_mix');
  const ops = writtenOps(def, operands, false);
  const dsts = ops.filter((o) => o.role === 'dst');
  const vop3b = dsts.some((o) => o.cls === 'v') && dsts.some((o) => o.cls === 's');
  let vdst = 0;
  let sdst = 0;
  let halves = 0; // op_sel bits the `.h` operands imply
  const codes = [0, 0, 0];
  let neg = 0;
  let abs = 0;
  let n = 0;
  ops.forEach((o, i) => {
    const t = operands[i];
    if (o.role === 'dst') {
      if (o.cls === 'v') {
        const d = vgprOf(t, gen, o.dwords);
        vdst = d.code;
        if (d.hi) halves |= 8;
      } else if (vop3b) sdst = maskCode(t, target);
      else vdst = maskCode(t, target);
      return;
    }
    const k = n++;
    if (o.cls === 's') {
      codes[k] = maskCode(t, target);
      return;
    }
    // LLVM 19's gfx11 assembler takes only a VGPR as src1 of a DPP instruction.
    const s = parseSrc(t, o, gen, k > 1);
    codes[k] = s.code;
    if (s.hi) halves |= 1 << k;
    if (vop3p) {
      if (s.sext || (!isMix && (s.neg || s.abs))) fail();
      if (s.neg) neg |= 1 << k;
      if (s.abs) abs |= 1 << k;
      return;
    }
    const [nb, ab] = srcModBits(ext, 2 * k, s, false);
    neg |= nb << k;
    abs |= ab << k;
  });
  if (codes[0] < 256) fail();
  if (codes[0] >= 384 && !highOk(ext, Slot.Src0High)) fail();
  // v_cmpx writes EXEC; its VOP3 form names exec_lo (126) as the destination.
  if (def.family === 'VOPC' && dsts.length === 0) vdst = 126;
  const nsrc = n;
  let w0: number;
  let w1: number;
  const marker = kind === 'DPP8' ? (m.fi ? SRC0_DPP8_FI : SRC0_DPP8) : SRC0_DPP;
  if (vop3p) {
    const opSel = packBits(m.opSel, nsrc);
    const defHi = isMix ? 0 : (1 << nsrc) - 1;
    const opSelHi = m.opSelHi ? packBits(m.opSelHi, nsrc) : defHi;
    if (m.omod) fail();
    if (isMix && (m.negLo || m.negHi)) fail();
    const negLo = isMix ? neg : packBits(m.negLo, nsrc);
    const negHi = isMix ? abs : packBits(m.negHi, nsrc);
    w0 =
      (0xcc000000 |
        (ext.op << 16) |
        vdst |
        (negHi << 8) |
        (opSel << 11) |
        (((opSelHi >>> 2) & 1) << 14) |
        (m.clamp << 15)) >>>
      0;
    w1 = (marker | (codes[1] << 9) | (codes[2] << 18) | ((opSelHi & 3) << 27) | (negLo << 29)) >>> 0;
  } else {
    if (m.opSelHi || m.negLo || m.negHi) fail();
    if (m.clamp && modMode(ext, Slot.Clamp) === ModMode.Rejected) fail();
    if (m.omod && modMode(ext, Slot.Omod) === ModMode.Rejected) fail();
    let opSel = 0;
    if (m.opSel) {
      const width = /^v_f?mac_/.test(def.name) ? 3 : nsrc;
      if (m.opSel.length !== width + 1) fail();
      m.opSel.forEach((b, i) => {
        const bit = i === width ? 3 : i;
        if (b && modMode(ext, OPSEL_SLOTS[bit]) !== ModMode.Float) fail();
        opSel |= b << bit;
      });
    }
    if (halves && m.opSel) fail();
    opSel |= halves;
    const hi = vop3b ? sdst : abs;
    w0 = (0xd4000000 | (ext.op << 16) | vdst | (hi << 8) | (opSel << 11) | (m.clamp << 15)) >>> 0;
    w1 = (marker | (codes[1] << 9) | (codes[2] << 18) | (m.omod << 27) | (neg << 29)) >>> 0;
  }
  const src0 = codes[0] - 256;
  if (kind === 'DPP8') {
    if (m.dpp8 === undefined) fail();
    return [w0, w1, ((src0 & 0xff) | (m.dpp8 << 8)) >>> 0];
  }
  if (m.ctrl === undefined) fail();
  const w2 = encodeDppWord({
    src0,
    ctrl: m.ctrl,
    fi: m.fi,
    boundCtrl: m.boundCtrl,
    src0Neg: 0,
    src0Abs: 0,
    src1Neg: 0,
    src1Abs: 0,
    bankMask: m.bankMask,
    rowMask: m.rowMask,
  });
  return [w0, w1, w2];
}

function packBits(list: readonly number[] | undefined, n: number): number {
  if (!list) return 0;
  if (list.length !== n) fail();
  let v = 0;
  list.forEach((b, i) => (v |= b << i));
  return v;
}
