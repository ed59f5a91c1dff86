/**
 * Operand spelling shared by the small families (VOPD, VINTERP, LDSDIR, VINTRP, EXP):
 * 9-bit sources and 32-bit immediates as llvm-mc-19 prints them, and the reverse for the
 * assembler. Built on the shared helpers of operands.ts and asm-operands.ts.
 */
import { AsmError, DecodeError } from '../errors.ts';
import { Gen } from '../gen.ts';
import type { ValueType } from '../registry/types.ts';
import {
  hex,
  inlineFloatText,
  inlineInteger,
  namedSourceText,
  scalarRegName,
  SRC_LITERAL,
  SRC_VGPR0,
  vgprName,
} from '../operands.ts';
import {
  f16Bits,
  f32Bits,
  inlineCodeForBits,
  inlineFloatCode,
  inlineIntegerCode,
  namedSourceCode,
  parseFloatLiteral,
  parseInteger,
  parseRegister,
} from '../asm-operands.ts';

/** Is the operand type a 16-bit (or packed 16-bit) float, whose inline constants are f16 bit patterns? */
export function isHalfType(type: ValueType): boolean {
  return type === 'f16' || type === 'v2f16';
}

/**
 * A 32-bit immediate as LLVM's printer spells it: values an inline constant could hold
 * print as that constant (-16..64 in decimal, float bit patterns of the operand's type as
 * floats), anything else in hex. A literal that happens to be inlinable prints the same.
 */
export function immText(gen: Gen, value: number, type: ValueType): string {
  const v = value | 0;
  if (v >= -16 && v <= 64) return String(v);
  const code = inlineCodeForBits(value >>> 0, isHalfType(type) ? 16 : 32, gen);
  if (code !== undefined) return inlineFloatText(code, isHalfType(type) ? 16 : 32, gen) ?? hex(value);
  return hex(value);
}

/** What kind of thing a 9-bit source code names (for the register-class rules of each family). */
export type SourceKind = 'vgpr' | 'sgpr' | 'const' | 'named' | 'literal' | 'invalid';

export function sourceKind(gen: Gen, code: number): SourceKind {
  if (code >= SRC_VGPR0) return 'vgpr';
  if (code === SRC_LITERAL) return 'literal';
  if (code < 128) return scalarRegName(gen, code, 1) === undefined ? 'invalid' : 'sgpr';
  if (inlineInteger(code) !== undefined || (code >= 240 && code <= 248)) return 'const';
  return namedSourceText(gen, code) === undefined ? 'invalid' : 'named';
}

/**
 * Spells a 9-bit source operand; `literal` is the instruction's literal dword (needed
 * when code is 255). Returns undefined for codes that name nothing in this generation.
 */
export function sourceText(gen: Gen, code: number, type: ValueType, literal: number | undefined): string | undefined {
  if (code >= SRC_VGPR0) return vgprName(code - SRC_VGPR0, 1);
  if (code === SRC_LITERAL) return literal === undefined ? undefined : immText(gen, literal, type);
  if (code < 128) return scalarRegName(gen, code, 1);
  const n = inlineInteger(code);
  if (n !== undefined) return String(n);
  if (code >= 240 && code <= 248) return inlineFloatText(code, isHalfType(type) ? 16 : 32, gen);
  return namedSourceText(gen, code);
}

/** Reads `words[i]`, or throws the DecodeError for a truncated instruction. */
export function wordAt(words: Uint32Array, i: number, byteOffset: number, what: string): number {
  if (i >= words.length) throw new DecodeError('truncated', byteOffset, `${what} is missing`);
  return words[i];
}

// ---------------------------------------------------------------- assembler side

/** A parsed 9-bit source: the code, and the literal dword when the code is 255. */
export interface ParsedSource {
  readonly code: number;
  readonly literal?: number;
}

/** Parses `v7`, `v[7]` into a VGPR index, or throws LLVM's operand error. */
export function parseVgpr(gen: Gen, text: string): number {
  const r = parseRegister(text.trim(), gen);
  if (!r || r.file !== 'v' || r.dwords !== 1) throw new AsmError('invalid operand for instruction');
  return r.code;
}

/**
 * The bits of a numeric operand for a 32-bit operand of this type: integers as written
 * (they must fit 32 bits), floats converted to the type's float format.
 */
export function immediateBits(text: string, type: ValueType): number | undefined {
  const n = parseInteger(text);
  if (n !== undefined) {
    if (n > 0xffffffff || n < -0x80000000) return undefined;
    return n >>> 0;
  }
  const f = parseFloatLiteral(text);
  if (f === undefined) return undefined;
  return isHalfType(type) ? f16Bits(f) : f32Bits(f);
}

/** The inline-constant code for an immediate's bits in an operand of this type, or undefined. */
export function inlineCodeOf(gen: Gen, bits: number, type: ValueType): number | undefined {
  const i = inlineIntegerCode(bits | 0);
  if (i !== undefined) return i;
  // LLVM's assembler also takes f32 bit patterns as inline constants of packed f16 operands.
  if (type === 'v2f16') return inlineCodeForBits(bits >>> 0, 16, gen) ?? inlineCodeForBits(bits >>> 0, 32, gen);
  return inlineCodeForBits(bits >>> 0, isHalfType(type) ? 16 : 32, gen);
}

/** Parses a 9-bit source operand (VGPR, SGPR, special, inline constant or literal). */
export function parseSource(gen: Gen, text: string, type: ValueType): ParsedSource {
  const t = text.trim();
  const reg = parseRegister(t, gen);
  if (reg) {
    if (reg.dwords !== 1 || reg.file === 'a') throw new AsmError('invalid operand for instruction');
    return { code: reg.file === 'v' ? SRC_VGPR0 + reg.code : reg.code };
  }
  const named = namedSourceCode(t, gen);
  // gfx11 dropped the vccz/execz source operands.
  if ((named === 251 || named === 252) && gen >= Gen.GFX11)
    throw new AsmError('execz and vccz are not supported on this GPU');
  if (named !== undefined) return { code: named };
  const f = parseFloatLiteral(t);
  if (f !== undefined) {
    const c = inlineFloatCode(f, gen);
    if (c !== undefined) return { code: c };
  }
  const bits = immediateBits(t, type);
  if (bits === undefined) throw new AsmError('invalid operand for instruction');
  const code = inlineCodeOf(gen, bits, type);
  return code !== undefined ? { code } : { code: SRC_LITERAL, literal: bits };
}
