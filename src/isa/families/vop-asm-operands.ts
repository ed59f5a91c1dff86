/**
 * Source operands of the vector-ALU assembler: a 9-bit source (VGPR, scalar register,
 * named source, inline constant or literal) read from LLVM syntax by the operand's value
 * type, following LLVM's AMDGPUAsmParser rules (isInlinableImm / isLiteralImm /
 * addLiteralImmOperand): integer tokens are inline when their (truncated) value is an
 * inline constant's bit pattern, float tokens are converted to the operand's float width
 * first, and 64-bit float literals keep the high dword.
 */
import { AsmError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { OperandDef, ValueType } from '../registry/types.ts';
import {
  f16Bits,
  f32Bits,
  f64Words,
  namedSourceCode,
  parseRegister,
  parseSourceModifiers,
  type RegisterRef,
} from '../asm-operands.ts';
import { nullCode } from '../operands.ts';
import { isLaneMask, laneMaskDwords } from './vop-operands.ts';

export const BAD = 'invalid operand for instruction';

export function fail(msg: string = BAD): never {
  throw new AsmError(msg);
}

/** A parsed source operand. */
export interface Src {
  /** 9-bit source code (256+ = VGPR, 255 = literal). */
  readonly code: number;
  /** The literal dword, when code is 255. */
  readonly literal?: number;
  readonly neg: boolean;
  readonly abs: boolean;
  readonly sext: boolean;
  /** Register width (for the constant-bus count), 0 for constants. */
  readonly dwords: number;
}

/** How an operand's value type reads constants. */
type ConstKind = 'f16' | 'i16' | 'f32' | 'i32' | 'f64' | 'i64' | 'pf16' | 'pi16' | 'bf16' | 'pbf16';

function constKind(t: ValueType): ConstKind {
  switch (t) {
    case 'f16':
      return 'f16';
    case 'b16':
    case 'i16':
    case 'u16':
      return 'i16';
    case 'f32':
      return 'f32';
    case 'f64':
      return 'f64';
    case 'b64':
    case 'i64':
    case 'u64':
      return 'i64';
    case 'v2f16':
      return 'pf16';
    case 'v2i16':
      return 'pi16';
    case 'bf16':
      return 'bf16';
    case 'v2bf16':
      return 'pbf16';
    default:
      return 'i32';
  }
}

const F32_INLINE = [
  0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
];
const F16_INLINE = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];
/** The float inline constants as bf16 (the high halves of the f32 patterns; 1/(2π) rounds to 0x3e22). */
const BF16_INLINE = [0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22];
const F64_INLINE = [
  0x3fe0000000000000n,
  0xbfe0000000000000n,
  0x3ff0000000000000n,
  0xbff0000000000000n,
  0x4000000000000000n,
  0xc000000000000000n,
  0x4010000000000000n,
  0xc010000000000000n,
  0x3fc45f306dc9c882n,
];

function intCode(v: bigint): number | undefined {
  if (v >= 0n && v <= 64n) return 128 + Number(v);
  if (v >= -16n && v < 0n) return 192 - Number(v);
  return undefined;
}

/** The float inline code whose pattern equals `bits` (1/(2π) only on gfx8+). */
function patternCode(table: readonly (number | bigint)[], bits: number | bigint, gen: Gen): number | undefined {
  const n = gen >= Gen.GFX8 ? 9 : 8;
  for (let i = 0; i < n; i++) if (table[i] === bits) return 240 + i;
  return undefined;
}

function signed(v: bigint, bits: number): bigint {
  return BigInt.asIntN(bits, v);
}

function fitsIn(v: bigint, bits: number): boolean {
  return BigInt.asUintN(bits, v) === v || BigInt.asIntN(bits, v) === v;
}

/** Inline code of a 32-bit pattern for a 32-bit operand (int -16..64 or f32 pattern). */
function inline32(bits: number, gen: Gen): number | undefined {
  return intCode(BigInt(bits | 0)) ?? patternCode(F32_INLINE, bits >>> 0, gen);
}
function inline16(bits: number, gen: Gen): number | undefined {
  return intCode(signed(BigInt(bits & 0xffff), 16)) ?? patternCode(F16_INLINE, bits & 0xffff, gen);
}

/** What a constant token can be for an operand: its inline code, and the literal dword it would take otherwise. */
interface Constant {
  readonly code?: number;
  readonly literal?: number;
}

function lo32(v: bigint): number {
  return Number(BigInt.asUintN(32, v));
}

/** An integer token (LLVM keeps it as int64) for an operand of this kind. */
function intConstant(v: bigint, k: ConstKind, gen: Gen, fpMods: boolean): Constant {
  switch (k) {
    case 'f64': {
      const code = intCode(v) ?? patternCode(F64_INLINE, BigInt.asUintN(64, v), gen);
      if (code !== undefined) return { code };
      // fp modifiers on an integer literal of a 64-bit float operand are ambiguous; LLVM refuses them.
      if (fpMods || !fitsIn(v, 32)) return {};
      // A 32-bit integer is the high half of the double.
      return { code: patternCode(F64_INLINE, BigInt.asUintN(32, v) << 32n, gen), literal: lo32(v) };
    }
    case 'i64': {
      const code = intCode(v) ?? patternCode(F64_INLINE, BigInt.asUintN(64, v), gen);
      return { code, literal: fitsIn(v, 32) ? lo32(v) : undefined };
    }
    case 'f16':
    case 'i16':
    case 'bf16': {
      if (!fitsIn(v, 16)) return {};
      const bits = Number(BigInt.asUintN(16, v));
      // 16-bit integer operands take integer constants only; f16 and bf16 ones their float patterns too.
      const code =
        k === 'i16'
          ? intCode(signed(v, 16))
          : k === 'bf16'
            ? (intCode(signed(v, 16)) ?? patternCode(BF16_INLINE, bits, gen))
            : inline16(bits, gen);
      return { code, literal: bits };
    }
    case 'pf16':
    case 'pi16':
    case 'pbf16': {
      if (!fitsIn(v, 32)) return {};
      const bits = lo32(v);
      const table = k === 'pf16' ? F16_INLINE : k === 'pbf16' ? BF16_INLINE : F32_INLINE;
      return { code: intCode(BigInt(bits | 0)) ?? patternCode(table, bits, gen), literal: bits };
    }
    default: {
      if (!fitsIn(v, 32)) return {};
      const bits = lo32(v);
      return { code: inline32(bits, gen), literal: bits };
    }
  }
}

const F16_MAX = 65504;
const F32_MAX = 3.4028234663852886e38;

/** LLVM allows precision loss in a float conversion, but not overflow or underflow. */
function convertible(d: number, max: number, minNormal: number, exact: (d: number) => boolean): boolean {
  if (!Number.isFinite(d) || d === 0) return true;
  const a = Math.abs(d);
  if (a > max && a >= max * (1 + 2 ** -12)) return false;
  return !(a < minNormal && !exact(d));
}

function f16Exact(d: number): boolean {
  const b = f16Bits(d);
  const e = (b >>> 10) & 0x1f;
  const m = b & 0x3ff;
  const v = e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15);
  return (b & 0x8000 ? -v : v) === d;
}

/** A float token for an operand of this kind. */
function floatConstant(d: number, k: ConstKind, gen: Gen): Constant {
  switch (k) {
    case 'f64':
    case 'i64': {
      const [lo, hi] = f64Words(d);
      const bits = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
      const code = bits === 0n ? 128 : patternCode(F64_INLINE, bits, gen);
      // Integer 64-bit operands take no float literal; a float one keeps the high dword.
      return { code, literal: k === 'i64' ? undefined : hi >>> 0 };
    }
    case 'f16':
    case 'i16':
    case 'pf16': {
      if (!convertible(d, F16_MAX, 2 ** -14, f16Exact)) return {};
      const bits = f16Bits(d);
      const code = k === 'pf16' ? (intCode(BigInt(bits)) ?? patternCode(F16_INLINE, bits, gen)) : inline16(bits, gen);
      return { code, literal: bits };
    }
    case 'bf16':
    case 'pbf16': {
      // LLVM 19 encodes a float token for a bf16 operand as bf16 (its literal the low half: 100.0 is 0x42c8).
      if (!convertible(d, F32_MAX, 2 ** -126, (x) => Math.fround(x) === x)) return {};
      const bits = bf16Bits(d);
      return { code: intCode(BigInt(bits)) ?? patternCode(BF16_INLINE, bits, gen), literal: bits };
    }
    default: {
      if (!convertible(d, F32_MAX, 2 ** -126, (x) => Math.fround(x) === x)) return {};
      const bits = f32Bits(d) >>> 0;
      return { code: inline32(bits, gen), literal: bits };
    }
  }
}

/**
 * A double rounded to bf16 (the high half of its f32, rounded to nearest, ties to even).
 * `0.15915494`, the text LLVM prints for inline constant 248 (1/(2π)), reads back as that
 * constant's bf16 pattern 0x3e22 (llvm-mc-19 takes exactly that value so, while
 * 0.15915494309189535 or -0.15915494 round to 0x3e23 / 0xbe23 as any other value does).
 */
function bf16Bits(d: number): number {
  if (d === 0.15915494) return 0x3e22;
  const f = f32Bits(d) >>> 0;
  if ((f & 0x7f800000) === 0x7f800000 && f & 0x7fffff) return (f >>> 16) | 0x40; // NaN stays quiet
  const lo = f & 0xffff;
  // Round the double itself: an f32 exactly halfway between two bf16 values breaks the
  // tie by where the double lay (above or below that f32), ties to even only when exact.
  const past = Math.abs(d) - Math.abs(Math.fround(d));
  const up = lo > 0x8000 || (lo === 0x8000 && (past > 0 || (past === 0 && ((f >>> 16) & 1) === 1)));
  return ((f >>> 16) + (up ? 1 : 0)) & 0xffff;
}

/** Parses an integer token as LLVM does (int64; larger values wrap): decimal, 0x hex, 0b binary. */
export function parseBigInteger(text: string): bigint | undefined {
  const m = /^(-)?(0x[0-9a-f]+|0b[01]+|\d+)$/i.exec(text);
  if (!m) return undefined;
  const v = BigInt(m[2].toLowerCase());
  if (v >= 1n << 64n) return undefined;
  return BigInt.asIntN(64, m[1] ? -v : v);
}

function parseFloatToken(text: string): number | undefined {
  if (!/^-?(\d+\.\d*|\.\d+|\d+(\.\d*)?e[+-]?\d+)$/i.test(text)) return undefined;
  return Number(text);
}

function constBits(k: ConstKind): number {
  return k === 'f16' || k === 'i16' || k === 'bf16' ? 16 : k === 'f64' || k === 'i64' ? 64 : 32;
}

/**
 * A constant operand (integer or float token) for an operand type, or undefined when the
 * text is neither. `fold` applies neg/abs to the value (forms without modifier bits).
 */
export function constantFor(
  text: string,
  type: ValueType,
  gen: Gen,
  mods: { neg: boolean; abs: boolean },
  fold: boolean,
): Constant | undefined {
  const k = constKind(type);
  const i = parseBigInteger(text);
  if (i !== undefined) {
    let v = i;
    if (fold) {
      // LLVM flips the sign bit of the operand's width (applyInputFPModifiers).
      const w = BigInt(constBits(k));
      const sign = 1n << (w - 1n);
      let u = BigInt.asUintN(Number(w), v);
      if (mods.abs) u &= ~sign;
      if (mods.neg) u ^= sign;
      v = w === 64n ? BigInt.asIntN(64, u) : u;
    }
    return intConstant(v, k, gen, !fold && (mods.neg || mods.abs));
  }
  const f = parseFloatToken(text);
  if (f === undefined) return undefined;
  let d = f;
  if (fold) {
    if (mods.abs) d = Math.abs(d);
    if (mods.neg) d = -d;
  }
  return floatConstant(d, k, gen);
}

/** Register width an operand expects (lane masks follow the wave size). */
export function operandDwords(target: Target, op: OperandDef): number {
  return isLaneMask(op) ? laneMaskDwords(target) : op.dwords;
}

function checkAlignment(r: RegisterRef): void {
  // Scalar ranges start on an even register (quad-aligned from four dwords); ttmps too.
  if (r.file === 's' && r.dwords > 1 && r.code % (r.dwords >= 4 ? 4 : 2) !== 0) fail('invalid register alignment');
}

/** Register text of a source, or undefined when it is not a register. */
function sourceRegister(target: Target, inner: string, dwords: number): RegisterRef | undefined {
  const gen = target.gen;
  if (inner === 'null') {
    if (gen < Gen.GFX10) fail("'null' operand is not supported on this GPU");
    return { file: 's', code: nullCode(gen), dwords };
  }
  const r = parseRegister(inner, gen);
  if (!r) return undefined;
  if (r.file === 'a') fail();
  checkAlignment(r);
  return r;
}

/** What a source may be: `vs` any, `v` VGPR only, `s` scalar register or constant. */
export type SrcClass = 'vs' | 'v' | 's';

/** `lit(x)`: the value as a literal even where it is an inline constant. */
function stripLit(inner: string): { text: string; lit: boolean } {
  if (inner.startsWith('lit(') && inner.endsWith(')')) return { text: inner.slice(4, -1).trim(), lit: true };
  if (inner.startsWith('lit')) fail('expected left paren after lit');
  return { text: inner, lit: false };
}

/** Normalizes `v[ 1 : 2 ]` and the list spelling `[v1,v2]` (consecutive registers) to `v[1:2]`. */
function normalizeRegister(t: string): string {
  if (!t.includes('[')) return t;
  const u = t.replace(/\s+/g, '');
  const m = /^\[((?:[vs]|ttmp)\d+(?:,(?:[vs]|ttmp)\d+)*)\]$/.exec(u);
  if (!m) return u;
  const regs = m[1].split(',').map((r) => /^([a-z]+)(\d+)$/.exec(r)!);
  const file = regs[0][1];
  const first = Number(regs[0][2]);
  regs.forEach((r, i) => {
    if (r[1] !== file || Number(r[2]) !== first + i) fail('registers in a list must have consecutive indices');
  });
  return regs.length === 1 ? `${file}${first}` : `${file}[${first}:${first + regs.length - 1}]`;
}

/**
 * Parses one source operand. Modifier syntax (`-x`, `|x|`, `neg(x)`, `abs(x)`) is
 * returned, not checked: the form decides which modifiers it can encode. With `fold`
 * (forms without modifier bits) neg/abs of a constant are applied to its value instead.
 */
export function parseSource(target: Target, text: string, op: OperandDef, cls: SrcClass, fold = false): Src {
  const gen = target.gen;
  const m = parseSourceModifiers(text);
  const lit = stripLit(m.inner.toLowerCase());
  const inner = normalizeRegister(lit.text);
  const dwords = operandDwords(target, op);
  const r = sourceRegister(target, inner, dwords);
  if (r) {
    if (lit.lit) fail();
    if (r.dwords !== dwords && !(inner === 'null')) fail();
    if (r.file === 'v') {
      if (cls === 's') fail();
      return { code: 256 + r.code, neg: m.neg, abs: m.abs, sext: m.sext, dwords };
    }
    if (cls === 'v') fail();
    return { code: r.code, neg: m.neg, abs: m.abs, sext: m.sext, dwords };
  }
  const named = lit.lit ? undefined : namedSourceCode(inner, gen);
  // VGPR-only sources take lds_direct too (readlane/readfirstlane's VRegOrLds).
  if (cls === 'v' && named !== 254) fail();
  if (named !== undefined) {
    if (gen >= Gen.GFX11 && (named === 251 || named === 252)) fail('execz and vccz are not supported on this GPU');
    if (gen >= Gen.GFX11 && named === 254) fail('lds_direct is not supported on this GPU');
    return { code: named, neg: m.neg, abs: m.abs, sext: m.sext, dwords: named === 254 ? 0 : 1 };
  }
  if (/^(src_|shared_|private_|pops_)/.test(inner)) fail();
  const folded = fold && (m.neg || m.abs);
  const c = constantFor(inner, op.type, gen, m, folded);
  if (!c) fail(lit.lit ? 'expected immediate with lit modifier' : 'not a valid operand.');
  const neg = folded ? false : m.neg;
  const abs = folded ? false : m.abs;
  if (!lit.lit && c.code !== undefined) return { code: c.code, neg, abs, sext: m.sext, dwords: 0 };
  if (c.literal === undefined) fail();
  return { code: 255, literal: c.literal, neg, abs, sext: m.sext, dwords: 0 };
}

/** A VGPR destination of the given width. */
export function parseVgpr(target: Target, text: string, dwords: number): number {
  const r = parseRegister(normalizeRegister(text.toLowerCase()), target.gen);
  if (!r || r.file !== 'v' || r.dwords !== dwords) fail();
  return r.code;
}

/** A scalar destination (readlane's SGPR, VOPC/VOP3B lane masks). */
export function parseScalarDst(target: Target, text: string, dwords: number): number {
  const r = sourceRegister(target, normalizeRegister(text.toLowerCase()), dwords);
  if (!r || r.file !== 's' || r.dwords !== dwords) fail();
  return r.code;
}
