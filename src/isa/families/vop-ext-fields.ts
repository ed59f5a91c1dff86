/**
 * Field codecs of the VOP extension dwords (AMD ISA manuals, "SDWA", "DPP16", "DPP8"):
 * integer extraction for the decoder, and the modifier spellings llvm-mc-19 prints and
 * parses. Nothing here knows about a particular instruction.
 */
import { Gen } from '../gen.ts';

/** src0 codes that announce an extension dword. */
export const SRC0_SDWA = 0xf9;
export const SRC0_DPP = 0xfa;
export const SRC0_DPP8 = 0xe9;
export const SRC0_DPP8_FI = 0xea;

/** SDWA operand selects, by field value (7 is reserved). */
export const SDWA_SEL = ['BYTE_0', 'BYTE_1', 'BYTE_2', 'BYTE_3', 'WORD_0', 'WORD_1', 'DWORD'] as const;
/** SDWA dst_unused, by field value (3 is reserved). */
export const SDWA_UNUSED = ['UNUSED_PAD', 'UNUSED_SEXT', 'UNUSED_PRESERVE'] as const;
export const SEL_DWORD = 6;

/** The SDWA dword's fields (gfx8 layout; gfx9+ add omod, s0/s1 and the VOPC sdst). */
export interface SdwaWord {
  readonly src0: number;
  readonly dstSel: number;
  readonly dstUnused: number;
  readonly clamp: number;
  readonly omod: number;
  readonly src0Sel: number;
  readonly src0Sext: number;
  readonly src0Neg: number;
  readonly src0Abs: number;
  readonly s0: number;
  readonly src1Sel: number;
  readonly src1Sext: number;
  readonly src1Neg: number;
  readonly src1Abs: number;
  readonly s1: number;
  /** VOPC on gfx9+: bits 14:8 name the scalar destination when `sd` (bit 15) is set. */
  readonly sdst: number;
  readonly sd: number;
}

export function decodeSdwaWord(d: number): SdwaWord {
  return {
    src0: d & 0xff,
    dstSel: (d >>> 8) & 7,
    dstUnused: (d >>> 11) & 3,
    clamp: (d >>> 13) & 1,
    omod: (d >>> 14) & 3,
    src0Sel: (d >>> 16) & 7,
    src0Sext: (d >>> 19) & 1,
    src0Neg: (d >>> 20) & 1,
    src0Abs: (d >>> 21) & 1,
    s0: (d >>> 23) & 1,
    src1Sel: (d >>> 24) & 7,
    src1Sext: (d >>> 27) & 1,
    src1Neg: (d >>> 28) & 1,
    src1Abs: (d >>> 29) & 1,
    s1: (d >>> 31) & 1,
    sdst: (d >>> 8) & 0x7f,
    sd: (d >>> 15) & 1,
  };
}

export function encodeSdwaWord(w: SdwaWord, vopc: boolean): number {
  let d =
    (w.src0 & 0xff) | (w.src0Sel << 16) | (w.src0Sext << 19) | (w.src0Neg << 20) | (w.src0Abs << 21) | (w.s0 << 23);
  d |= (w.src1Sel << 24) | (w.src1Sext << 27) | (w.src1Neg << 28) | (w.src1Abs << 29) | (w.s1 << 31);
  if (vopc) d |= (w.sdst << 8) | (w.sd << 15) | (w.clamp << 13);
  else d |= (w.dstSel << 8) | (w.dstUnused << 11) | (w.clamp << 13) | (w.omod << 14);
  return d >>> 0;
}

/** The DPP16 dword's fields. */
export interface DppWord {
  readonly src0: number;
  readonly ctrl: number;
  readonly fi: number;
  readonly boundCtrl: number;
  readonly src0Neg: number;
  readonly src0Abs: number;
  readonly src1Neg: number;
  readonly src1Abs: number;
  readonly bankMask: number;
  readonly rowMask: number;
}

export function decodeDppWord(d: number): DppWord {
  return {
    src0: d & 0xff,
    ctrl: (d >>> 8) & 0x1ff,
    fi: (d >>> 18) & 1,
    boundCtrl: (d >>> 19) & 1,
    src0Neg: (d >>> 20) & 1,
    src0Abs: (d >>> 21) & 1,
    src1Neg: (d >>> 22) & 1,
    src1Abs: (d >>> 23) & 1,
    bankMask: (d >>> 24) & 0xf,
    rowMask: (d >>> 28) & 0xf,
  };
}

export function encodeDppWord(w: DppWord): number {
  return (
    ((w.src0 & 0xff) |
      (w.ctrl << 8) |
      (w.fi << 18) |
      (w.boundCtrl << 19) |
      (w.src0Neg << 20) |
      (w.src0Abs << 21) |
      (w.src1Neg << 22) |
      (w.src1Abs << 23) |
      (w.bankMask << 24) |
      (w.rowMask << 28)) >>>
    0
  );
}

/** DPP8: src0 in bits 7:0, eight 3-bit lane selects above. */
export function dpp8Selects(d: number): number {
  return (d >>> 8) & 0xffffff;
}

const LANE_DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7'];

export function dpp8Text(selects: number): string {
  let s = 'dpp8:[' + LANE_DIGITS[selects & 7];
  for (let i = 1; i < 8; i++) s += ',' + LANE_DIGITS[(selects >>> (3 * i)) & 7];
  return s + ']';
}

/** quad_perm:[…] by dpp_ctrl value 0-255, spelled once (printers ask once per DPP16 instruction). */
const QUAD_PERM_TEXT: readonly string[] = Array.from(
  { length: 256 },
  (_, c) => `quad_perm:[${c & 3},${(c >>> 2) & 3},${(c >>> 4) & 3},${(c >>> 6) & 3}]`,
);

/** dpp_ctrl values and ranges (ISA manuals, DPP_CTRL enumeration). */
const ROW_SHL = 0x100;
const ROW_SHR = 0x110;
const ROW_ROR = 0x120;
const WAVE_SHL = 0x130;
const WAVE_ROL = 0x134;
const WAVE_SHR = 0x138;
const WAVE_ROR = 0x13c;
const ROW_MIRROR = 0x140;
const ROW_HALF_MIRROR = 0x141;
const ROW_BCAST15 = 0x142;
const ROW_BCAST31 = 0x143;
const ROW_SHARE = 0x150;
const ROW_XMASK = 0x160;

const WAVE_NAMES: Readonly<Record<number, string>> = {
  [WAVE_SHL]: 'wave_shl',
  [WAVE_ROL]: 'wave_rol',
  [WAVE_SHR]: 'wave_shr',
  [WAVE_ROR]: 'wave_ror',
};

/**
 * The dpp_ctrl spelling llvm-mc-19 prints. Values a generation lacks print as comments,
 * as LLVM does (the decoder accepts them); LLVM's row_share comment on gfx8/9 starts with
 * a space of its own, so it follows the operands by two.
 */
export function dppCtrlText(gen: Gen, ctrl: number): string {
  const rdna = gen >= Gen.GFX10;
  if (ctrl <= 0xff)
    return (
      QUAD_PERM_TEXT[ctrl] ?? `quad_perm:[${ctrl & 3},${(ctrl >>> 2) & 3},${(ctrl >>> 4) & 3},${(ctrl >>> 6) & 3}]`
    );
  const lo = ctrl & 0xf;
  const hi = ctrl & 0x1f0;
  if (lo !== 0 && hi === ROW_SHL) return `row_shl:${lo}`;
  if (lo !== 0 && hi === ROW_SHR) return `row_shr:${lo}`;
  if (lo !== 0 && hi === ROW_ROR) return `row_ror:${lo}`;
  const wave = WAVE_NAMES[ctrl];
  if (wave) return rdna ? `/* ${wave} is not supported starting from GFX10 */` : `${wave}:1`;
  if (ctrl === ROW_MIRROR) return 'row_mirror';
  if (ctrl === ROW_HALF_MIRROR) return 'row_half_mirror';
  if (ctrl === ROW_BCAST15 || ctrl === ROW_BCAST31) {
    return rdna
      ? '/* row_bcast is not supported starting from GFX10 */'
      : `row_bcast:${ctrl === ROW_BCAST15 ? 15 : 31}`;
  }
  if (hi === ROW_SHARE)
    return rdna
      ? `row_share:${lo}`
      : ' /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */';
  if (hi === ROW_XMASK)
    return rdna ? `row_xmask:${lo}` : '/* row_xmask is not supported on ASICs earlier than GFX10 */';
  return '/* Invalid dpp_ctrl value */';
}

/** Parses one dpp_ctrl modifier (`quad_perm:[…]`, `row_shl:3`, `row_mirror`…), or undefined when it is none. */
export function parseDppCtrl(gen: Gen, name: string, value: string | undefined): number | 'bad' | undefined {
  const rdna = gen >= Gen.GFX10;
  const n = value === undefined ? NaN : Number(value);
  const range = (base: number, min: number, max: number): number | 'bad' =>
    Number.isInteger(n) && n >= min && n <= max ? base + n : 'bad';
  switch (name) {
    case 'quad_perm': {
      const m =
        value === undefined ? null : /^\[\s*([0-3])\s*,\s*([0-3])\s*,\s*([0-3])\s*,\s*([0-3])\s*\]$/.exec(value);
      if (!m) return 'bad';
      return Number(m[1]) | (Number(m[2]) << 2) | (Number(m[3]) << 4) | (Number(m[4]) << 6);
    }
    case 'row_shl':
      return range(ROW_SHL, 1, 15);
    case 'row_shr':
      return range(ROW_SHR, 1, 15);
    case 'row_ror':
      return range(ROW_ROR, 1, 15);
    case 'wave_shl':
    case 'wave_rol':
    case 'wave_shr':
    case 'wave_ror': {
      if (rdna || n !== 1) return 'bad';
      const base = { wave_shl: WAVE_SHL, wave_rol: WAVE_ROL, wave_shr: WAVE_SHR, wave_ror: WAVE_ROR }[name];
      return base;
    }
    case 'row_mirror':
      return value === undefined ? ROW_MIRROR : 'bad';
    case 'row_half_mirror':
      return value === undefined ? ROW_HALF_MIRROR : 'bad';
    case 'row_bcast':
      if (rdna) return 'bad';
      return n === 15 ? ROW_BCAST15 : n === 31 ? ROW_BCAST31 : 'bad';
    case 'row_share':
      return rdna ? range(ROW_SHARE, 0, 15) : 'bad';
    case 'row_xmask':
      return rdna ? range(ROW_XMASK, 0, 15) : 'bad';
  }
  return undefined;
}

/** Parses `dpp8:[a,b,c,d,e,f,g,h]` into its 24-bit selects, or undefined. */
export function parseDpp8(value: string): number | undefined {
  const m = /^\[([^\]]*)\]$/.exec(value.trim());
  if (!m) return undefined;
  const parts = m[1].split(',').map((s) => s.trim());
  if (parts.length !== 8) return undefined;
  let sel = 0;
  for (let i = 0; i < 8; i++) {
    if (!/^[0-7]$/.test(parts[i])) return undefined;
    sel |= Number(parts[i]) << (3 * i);
  }
  return sel;
}
