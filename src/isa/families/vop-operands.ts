/**
 * Printing of vector-ALU operands, shared by the VOP codec (vop.ts) and the extension
 * encodings (vop-ext.ts). Published helpers (signatures kept stable):
 *
 *   isLaneMask(op)                         → true for VCC-like lane masks (VOPC sdst, carry out/in)
 *   laneMaskDwords(target)                 → 1 in wave32 on gfx10+, else 2
 *   vccText(target)                        → 'vcc' or 'vcc_lo' (the implicit VCC of e32 forms)
 *   printSource(target, code, op, literal) → a 9-bit source by its OperandDef: register,
 *                                            inline constant or literal, spelled by value type
 *   printVgpr(index, op)                   → `v5` / `v[5:6]` by the operand's width
 *   printScalarDst(target, code, op)       → an SGPR destination (lane masks by wave size)
 *   withFloatMods(text, neg, abs)          → `-|x|`, `-x`, `|x|`
 *   withSourceMods(text, code, neg, abs)   → the same, with `neg(x)` for negated constants
 *   printImmediate(value, type, gen)       → a 32-bit value as LLVM prints it for that type
 *
 * Each returns undefined where LLVM would not accept the value (callers raise DecodeError).
 */
import { Gen, type Target } from '../gen.ts';
import { hex, inlineFloatText, inlineInteger, namedSourceText, scalarRegName, vgprName } from '../operands.ts';
import type { InstructionDef, OperandDef, ValueType } from '../registry/types.ts';

export function isLaneMask(op: OperandDef): boolean {
  return op.cls === 's' && op.type === 'b64' && (op.field === 'sdst' || op.field === 'src2');
}

export function laneMaskDwords(target: Target): number {
  return target.gen >= Gen.GFX10 && !target.wave64 ? 1 : 2;
}

export function vccText(target: Target): string {
  return laneMaskDwords(target) === 1 ? 'vcc_lo' : 'vcc';
}

function is16BitInt(t: ValueType): boolean {
  return t === 'b16' || t === 'i16' || t === 'u16';
}
function isF16(t: ValueType): boolean {
  return t === 'f16' || t === 'v2f16';
}
function is64(t: ValueType): boolean {
  return t === 'f64' || t === 'b64' || t === 'i64' || t === 'u64';
}

// Float bit patterns LLVM prints as decimal text, per width.
const F32_TEXT = new Map<number, string>([
  [0x3f000000, '0.5'],
  [0xbf000000, '-0.5'],
  [0x3f800000, '1.0'],
  [0xbf800000, '-1.0'],
  [0x40000000, '2.0'],
  [0xc0000000, '-2.0'],
  [0x40800000, '4.0'],
  [0xc0800000, '-4.0'],
]);
const F16_TEXT = new Map<number, string>([
  [0x3800, '0.5'],
  [0xb800, '-0.5'],
  [0x3c00, '1.0'],
  [0xbc00, '-1.0'],
  [0x4000, '2.0'],
  [0xc000, '-2.0'],
  [0x4400, '4.0'],
  [0xc400, '-4.0'],
]);
// High dwords of the f64 constants (a 64-bit float literal is the high half).
const F64_HI_TEXT = new Map<number, string>([
  [0x3fe00000, '0.5'],
  [0xbfe00000, '-0.5'],
  [0x3ff00000, '1.0'],
  [0xbff00000, '-1.0'],
  [0x40000000, '2.0'],
  [0xc0000000, '-2.0'],
  [0x40100000, '4.0'],
  [0xc0100000, '-4.0'],
]);
// f16 bit patterns of the float inline constants, which 16-bit integer operands print in hex.
const F16_BITS: Readonly<Record<number, number>> = {
  240: 0x3800,
  241: 0xb800,
  242: 0x3c00,
  243: 0xbc00,
  244: 0x4000,
  245: 0xc000,
  246: 0x4400,
  247: 0xc400,
  248: 0x3118,
};

function float32Text(v: number, gen: Gen): string | undefined {
  const t = F32_TEXT.get(v >>> 0);
  if (t) return t;
  if (v >>> 0 === 0x3e22f983 && gen >= Gen.GFX8) return '0.15915494';
  return undefined;
}
function float16Text(v: number, gen: Gen): string | undefined {
  const t = F16_TEXT.get(v & 0xffff);
  if (t) return t;
  if ((v & 0xffff) === 0x3118 && gen >= Gen.GFX8) return '0.15915494';
  return undefined;
}

/** A literal (32-bit value) as LLVM prints it for an operand of this type. */
export function printImmediate(value: number, type: ValueType, gen: Gen): string {
  const v = value >>> 0;
  if (type === 'f64') {
    if (v === 0) return '0';
    return F64_HI_TEXT.get(v) ?? hex(v);
  }
  if (is64(type)) return v <= 64 ? String(v) : hex(v);
  if (isF16(type) && type === 'f16') {
    const s = (v << 16) >> 16;
    if (s >= -16 && s <= 64) return String(s);
    return float16Text(v, gen) ?? hex(v & 0xffff);
  }
  if (is16BitInt(type)) {
    // LLVM tests the whole literal dword: an integer or f32 inline value prints as such, else the low half in hex.
    const s = v | 0;
    if (s >= -16 && s <= 64) return String(s);
    return float32Text(v, gen) ?? hex(v & 0xffff);
  }
  const s = v | 0;
  if (s >= -16 && s <= 64) return String(s);
  if (type === 'v2f16') return (v <= 0xffff ? float16Text(v, gen) : undefined) ?? hex(v);
  return float32Text(v, gen) ?? hex(v);
}

/** An inline constant code (128-248) for an operand of this type, or undefined. */
function printInline(code: number, type: ValueType, gen: Gen): string | undefined {
  const i = inlineInteger(code);
  if (i !== undefined) return String(i);
  if (code < 240 || code > 248) return undefined;
  if (code === 248 && gen === Gen.GFX7) return undefined;
  if (is16BitInt(type)) return hex(F16_BITS[code]);
  if (is64(type)) return inlineFloatText(code, 64, gen);
  return inlineFloatText(code, isF16(type) ? 16 : 32, gen);
}

/** A VGPR operand by its width. */
export function printVgpr(index: number, op: OperandDef): string {
  return vgprName(index, op.dwords);
}

/** A scalar destination (SGPR field); lane masks follow the wave size. */
export function printScalarDst(target: Target, code: number, op: OperandDef): string | undefined {
  const dw = isLaneMask(op) ? laneMaskDwords(target) : op.dwords;
  return scalarRegName(target.gen, code, dw);
}

/** A 9-bit source operand: VGPR (256+), scalar register, inline constant or literal (255). */
export function printSource(
  target: Target,
  code: number,
  op: OperandDef,
  literal: number | undefined,
): string | undefined {
  if (code >= 256) return vgprName(code - 256, op.dwords);
  if (code === 255) return literal === undefined ? undefined : printImmediate(literal, op.type, target.gen);
  if (code >= 128 && code <= 248 && (code < 235 || code > 239)) return printInline(code, op.type, target.gen);
  const named = namedSourceText(target.gen, code);
  if (named) return named;
  const dw = isLaneMask(op) ? laneMaskDwords(target) : op.dwords;
  return scalarRegName(target.gen, code, dw);
}

/** Wraps an operand's text in LLVM's float modifiers. */
export function withFloatMods(text: string, neg: boolean, abs: boolean): string {
  const t = abs ? `|${text}|` : text;
  return neg ? `-${t}` : t;
}

/**
 * Float modifiers of a source by its code: a negated constant without abs prints as
 * `neg(x)`, because `-x` would read back as a different constant (LLVM does the same).
 */
export function withSourceMods(text: string, code: number, neg: boolean, abs: boolean): string {
  if (neg && !abs && ((code >= 128 && code <= 248 && (code < 235 || code > 239)) || code === 255))
    return `neg(${text})`;
  return withFloatMods(text, neg, abs);
}

/**
 * VOP3 sources (bitmask) with LLVM's integer modifiers, where the neg bit is `sext(x)` and
 * abs is ignored: ldexp's exponent (v_ldexp_f16's before gfx11), v_cvt_pk_u8_f32's byte index and accumulator.
 */
export function intModMask(def: InstructionDef, gen: Gen): number {
  const n = def.name;
  if (n === 'v_cvt_pk_u8_f32') return 6;
  return n === 'v_ldexp_f32' || n === 'v_ldexp_f64' || (n === 'v_ldexp_f16' && gen < Gen.GFX11) ? 2 : 0;
}

/**
 * An operand as the wave size shapes it: WMMA's C and D matrices (registry flag
 * `w64dwords`, from llvm-mc-19's wave64 sweep) take half the VGPRs per lane in wave64.
 */
export function waveOperand(target: Target, def: InstructionDef, op: OperandDef): OperandDef {
  const w = def.flags?.w64dwords;
  if (!target.wave64 || typeof w !== 'number' || (op.field !== 'vdst' && op.field !== 'src2')) return op;
  return { ...op, dwords: w };
}
