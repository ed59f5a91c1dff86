/**
 * The assembler's operand vocabulary, shared by every family codec: splitting an operand
 * text into operands and modifiers, registers (with the same names the printer uses),
 * integers and floats, source modifiers, and choosing between an inline constant and a
 * literal. Codecs decide what each operand means; this file only reads syntax.
 */
import { AsmError } from './errors.ts';
import { Gen } from './gen.ts';
import { m0Code, nullCode, sgprCount, ttmpBase, SRC_EXEC_LO, SRC_LITERAL, SRC_VCC_LO } from './operands.ts';

/** One top-level item of an operand text: an operand (comma-separated) or a modifier (space-separated, after them). */
export interface AsmItem {
  readonly text: string;
  /** True for items after the first space-separated break (modifiers like `glc`, `offset:16`). */
  readonly modifier: boolean;
}

/**
 * Splits `v0, v[2:3], s[4:7] offset:16 glc` into operands and modifiers. Commas and spaces
 * inside brackets and parentheses do not split (`hwreg(HW_REG_MODE, 0, 32)`, `[v1, v2]`).
 * Spaces around a comma belong to the comma.
 */
export function splitOperands(text: string): AsmItem[] {
  const items: AsmItem[] = [];
  let depth = 0;
  let cur = '';
  let modifier = false;
  let pendingComma = false;
  const push = (): void => {
    if (cur) items.push({ text: cur, modifier });
    cur = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '(' || c === '{') depth++;
    else if (c === ']' || c === ')' || c === '}') depth = Math.max(0, depth - 1);
    if (depth === 0 && c === ',') {
      push();
      pendingComma = true;
      continue;
    }
    if (depth === 0 && (c === ' ' || c === '\t')) {
      // A space not next to a comma separates modifiers from operands (and modifiers from each other).
      let j = i;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
      const nextIsComma = text[j] === ',';
      // `offset : 16` and `lit ( 32 )` are one item, as LLVM's lexer reads them.
      const joins = text[j] === ':' || cur.endsWith(':') || (text[j] === '(' && /(^|[^\w])lit$/.test(cur));
      if (cur && !nextIsComma && !pendingComma && !joins) {
        push();
        modifier = true;
      }
      // `- v1`, `| v1 |` are not LLVM's spelling; spaces inside an operand otherwise end it.
      i = j - 1;
      continue;
    }
    pendingComma = false;
    cur += c;
  }
  push();
  return items;
}

/** A parsed register operand. */
export interface RegisterRef {
  readonly file: 'v' | 's' | 'a';
  /** For 's': the 8/9-bit scalar operand code of the first register (ttmp and specials mapped). */
  readonly code: number;
  readonly dwords: number;
}

const SPECIAL_SINGLE: Readonly<Record<string, (g: Gen) => number | undefined>> = {
  vcc_lo: () => SRC_VCC_LO,
  vcc_hi: () => SRC_VCC_LO + 1,
  exec_lo: () => SRC_EXEC_LO,
  exec_hi: () => SRC_EXEC_LO + 1,
  m0: (g) => m0Code(g),
  // LLVM 19's gfx8/gfx9 decoders name code 125 `null`, but only gfx10+ assemblers take it.
  null: (g) => (g >= Gen.GFX10 ? nullCode(g) : undefined),
  flat_scratch_lo: (g) => (g === Gen.GFX7 ? 104 : g <= Gen.GFX9 ? 102 : undefined),
  flat_scratch_hi: (g) => (g === Gen.GFX7 ? 105 : g <= Gen.GFX9 ? 103 : undefined),
  // XNACK_MASK exists on processors with XNACK: of the gfx8 ones we know (tonga, fiji,
  // polaris10, gfx802/803) none has it, and llvm-mc-19 refuses the names there; gfx9 has it.
  xnack_mask_lo: (g) => (g === Gen.GFX9 ? 104 : undefined),
  xnack_mask_hi: (g) => (g === Gen.GFX9 ? 105 : undefined),
  tba_lo: (g) => (g <= Gen.GFX8 ? 108 : undefined),
  tba_hi: (g) => (g <= Gen.GFX8 ? 109 : undefined),
  tma_lo: (g) => (g <= Gen.GFX8 ? 110 : undefined),
  tma_hi: (g) => (g <= Gen.GFX8 ? 111 : undefined),
};

const SPECIAL_PAIR: Readonly<Record<string, (g: Gen) => number | undefined>> = {
  vcc: () => SRC_VCC_LO,
  exec: () => SRC_EXEC_LO,
  flat_scratch: (g) => (g === Gen.GFX7 ? 104 : g <= Gen.GFX9 ? 102 : undefined),
  xnack_mask: (g) => (g === Gen.GFX9 ? 104 : undefined),
  tba: (g) => (g <= Gen.GFX8 ? 108 : undefined),
  tma: (g) => (g <= Gen.GFX8 ? 110 : undefined),
};

/**
 * Parses a register or register range as LLVM spells it: `v1`, `v[2:3]`, `v[4]`, `s[0:1]`,
 * `ttmp[4:7]`, `vcc`, `exec_lo`, `m0`, `null`, … Returns undefined when the text is not a
 * register; throws AsmError for a register that does not exist in this generation.
 */
export function parseRegister(text: string, gen: Gen): RegisterRef | undefined {
  const t = text.toLowerCase().trim();
  if (t.startsWith('[') && t.endsWith(']')) return parseRegisterList(t, gen);
  const single = SPECIAL_SINGLE[t];
  if (single) {
    const code = single(gen);
    if (code === undefined) throw new AsmError(`${t} register not available on this GPU`);
    return { file: 's', code, dwords: 1 };
  }
  const pair = SPECIAL_PAIR[t];
  if (pair) {
    const code = pair(gen);
    if (code === undefined) throw new AsmError(`${t} register not available on this GPU`);
    return { file: 's', code, dwords: 2 };
  }
  const m = /^(v|s|a|ttmp)(?:(\d+)|\[([^\]:]+)(?::([^\]:]+))?\])$/.exec(t);
  if (!m) return undefined;
  const first = m[2] !== undefined ? Number(m[2]) : indexExpr(m[3]);
  const last = m[4] !== undefined ? indexExpr(m[4]) : first;
  if (first === undefined || last === undefined) return undefined;
  if (last < first) throw new AsmError('first register index should not exceed second index');
  const dwords = last - first + 1;
  if (m[1] === 'v' || m[1] === 'a') {
    if (last > 255) throw new AsmError('register index is out of range');
    return { file: m[1], code: first, dwords };
  }
  if (m[1] === 's') {
    if (last >= sgprCount(gen)) throw new AsmError('register index is out of range');
    return { file: 's', code: first, dwords };
  }
  const tt = ttmpBase(gen);
  if (last >= tt.count) throw new AsmError('register index is out of range');
  return { file: 's', code: tt.first + first, dwords };
}

/** A register index: a number or an integer expression (`8+1`, `(3+2)*2+1`, `45/11`). */
function indexExpr(text: string): number | undefined {
  const src = text.replace(/\s+/g, '');
  if (/^\d+$/.test(src)) return Number(src);
  if (!/^[\d+\-*/()]+$/.test(src)) return undefined;
  let i = 0;
  const atom = (): number | undefined => {
    if (src[i] === '(') {
      i++;
      const v = sum();
      if (src[i++] !== ')') return undefined;
      return v;
    }
    if (src[i] === '-') {
      i++;
      const v = atom();
      return v === undefined ? undefined : -v;
    }
    const m = /^\d+/.exec(src.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return Number(m[0]);
  };
  const product = (): number | undefined => {
    let v = atom();
    while (v !== undefined && (src[i] === '*' || src[i] === '/')) {
      const op = src[i++];
      const r = atom();
      if (r === undefined || (op === '/' && r === 0)) return undefined;
      v = op === '*' ? v * r : Math.trunc(v / r);
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    while (v !== undefined && (src[i] === '+' || src[i] === '-')) {
      const op = src[i++];
      const r = product();
      if (r === undefined) return undefined;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const v = sum();
  return v !== undefined && i === src.length && v >= 0 ? v : undefined;
}

/** Special 32-bit halves that pair up in a register list: `[vcc_lo,vcc_hi]` is vcc. */
const LIST_PAIRS = ['vcc', 'exec', 'flat_scratch', 'xnack_mask', 'tba', 'tma'];

/**
 * A register list, `[s8,s9]`, `[ttmp4,ttmp5,ttmp6,ttmp7]`, `[exec_lo,exec_hi]`: single
 * consecutive registers of one file, read as the range they make up.
 */
function parseRegisterList(t: string, gen: Gen): RegisterRef | undefined {
  const parts = t
    .slice(1, -1)
    .split(',')
    .map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !p)) return undefined;
  if (parts.length === 2) {
    const pair = LIST_PAIRS.find((n) => parts[0] === `${n}_lo`);
    if (pair !== undefined) {
      if (parts[1] !== `${pair}_hi`) throw new AsmError('register does not fit in the list');
      return parseRegister(pair, gen);
    }
  }
  const kind = (p: string): string => /^(ttmp|v|s|a)(?=[\d[])/.exec(p)?.[1] ?? p;
  let out: RegisterRef | undefined;
  for (const p of parts) {
    const r = parseRegister(p, gen);
    if (!r) return undefined;
    if (r.dwords !== 1 || kind(p) !== kind(parts[0]) || LIST_PAIRS.some((n) => p.startsWith(n)))
      throw new AsmError('register does not fit in the list');
    if (!out) out = r;
    else if (r.code !== out.code + out.dwords) throw new AsmError('registers in a list must have consecutive indices');
    else out = { file: out.file, code: out.code, dwords: out.dwords + 1 };
  }
  return out;
}

/** The text inside `lit(...)` (LLVM's literal marker), or undefined when the text is not one. */
export function unwrapLit(text: string): string | undefined {
  const m = /^lit\s*\(\s*(.*?)\s*\)$/.exec(text.trim());
  return m ? m[1] : undefined;
}

/** Parses an integer as LLVM accepts it (decimal, 0x hex, 0b binary, leading minus). */
export function parseInteger(text: string): number | undefined {
  const m = /^(-)?(0x[0-9a-f]+|0b[01]+|\d+)$/i.exec(text.trim());
  if (!m) return undefined;
  const body = m[2].toLowerCase();
  let v = body.startsWith('0x')
    ? parseInt(body.slice(2), 16)
    : body.startsWith('0b')
      ? parseInt(body.slice(2), 2)
      : parseInt(body, 10);
  if (!Number.isSafeInteger(v)) {
    // LLVM's values are 64-bit: 0xffffffffffffffff is -1.
    const big = BigInt(body);
    if (big >= 1n << 64n) return undefined;
    v = Number(BigInt.asIntN(64, big));
    if (!Number.isSafeInteger(v)) return undefined;
  }
  return m[1] ? -v : v;
}

/** Parses a floating-point literal (`1.0`, `-0.5`, `1e-3`); integers are not floats here. */
export function parseFloatLiteral(text: string): number | undefined {
  const t = text.trim();
  if (!/^-?(\d+\.\d*|\.\d+|\d+(\.\d*)?e[+-]?\d+)$/i.test(t)) return undefined;
  return Number(t);
}

/** Source modifiers around an operand: `-x`, `|x|`, `abs(x)`, `neg(x)`, `sext(x)`. */
export interface SourceModifiers {
  readonly neg: boolean;
  readonly abs: boolean;
  readonly sext: boolean;
  /** The operand text with the modifiers removed. */
  readonly inner: string;
}

export function parseSourceModifiers(text: string): SourceModifiers {
  let t = text.trim();
  let neg = false;
  let abs = false;
  let sext = false;
  const strip = (prefix: string): boolean => {
    if (t.startsWith(prefix) && t.endsWith(')')) {
      t = t.slice(prefix.length, -1).trim();
      return true;
    }
    return false;
  };
  if (strip('neg(')) neg = true;
  // A second minus sign is no modifier in LLVM's syntax (`--1`, `- -1`, `--v1`).
  if (/^-\s*-/.test(t)) throw new AsmError("invalid syntax, expected 'neg' modifier");
  if (t.startsWith('-') && !/^-\d|^-\.\d|^-0x/i.test(t)) {
    neg = true;
    t = t.slice(1).trim();
  }
  if (strip('sext(')) sext = true;
  if (strip('abs(')) abs = true;
  else if (t.startsWith('|') && t.endsWith('|') && t.length >= 2) {
    abs = true;
    t = t.slice(1, -1).trim();
  }
  return { neg, abs, sext, inner: t };
}

/** A `name:value` or bare `name` modifier. */
export interface Modifier {
  readonly name: string;
  readonly value?: string;
}

export function parseModifier(text: string): Modifier {
  const i = text.indexOf(':');
  return i < 0 ? { name: text.toLowerCase() } : { name: text.slice(0, i).toLowerCase(), value: text.slice(i + 1) };
}

/** Parses `[a,b,c]` into its elements (for op_sel:[0,1], dpp8:[…], NSA address lists). */
export function parseBracketList(text: string): string[] | undefined {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return undefined;
  const inner = t.slice(1, -1).trim();
  return inner ? inner.split(',').map((s) => s.trim()) : [];
}

/** Named source operands (codes 235-254), as the printer spells them. */
const NAMED_SOURCES: Readonly<Record<string, (g: Gen) => number | undefined>> = {
  src_shared_base: (g) => (g >= Gen.GFX9 ? 235 : undefined),
  shared_base: (g) => (g >= Gen.GFX9 ? 235 : undefined),
  src_shared_limit: (g) => (g >= Gen.GFX9 ? 236 : undefined),
  shared_limit: (g) => (g >= Gen.GFX9 ? 236 : undefined),
  src_private_base: (g) => (g >= Gen.GFX9 ? 237 : undefined),
  private_base: (g) => (g >= Gen.GFX9 ? 237 : undefined),
  src_private_limit: (g) => (g >= Gen.GFX9 ? 238 : undefined),
  private_limit: (g) => (g >= Gen.GFX9 ? 238 : undefined),
  // llvm-mc-19 assembles both names for gfx9 and gfx10 (gfx1010, gfx1030), SALU and VALU alike, not gfx11.
  src_pops_exiting_wave_id: (g) => (g >= Gen.GFX9 && g <= Gen.GFX10_3 ? 239 : undefined),
  pops_exiting_wave_id: (g) => (g >= Gen.GFX9 && g <= Gen.GFX10_3 ? 239 : undefined),
  src_vccz: () => 251,
  vccz: () => 251,
  src_execz: () => 252,
  execz: () => 252,
  src_scc: () => 253,
  scc: () => 253,
  src_lds_direct: () => 254,
  lds_direct: () => 254,
};

export function namedSourceCode(text: string, gen: Gen): number | undefined {
  return NAMED_SOURCES[text.toLowerCase()]?.(gen);
}

/** Float bit patterns of the inline constants 240-248 for a given width. */
const INLINE_F32 = [
  0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
];
const INLINE_F16 = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];
const INLINE_F64_HI = [0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000, 0x40000000, 0xc0000000, 0x40100000, 0xc0100000];

/** The inline-constant code of an integer value (-16..64), or undefined. */
export function inlineIntegerCode(v: number): number | undefined {
  if (v >= 0 && v <= 64) return 128 + v;
  if (v >= -16 && v < 0) return 192 - v;
  return undefined;
}

/** The inline-constant code of a float value (the same codes serve every float width), or undefined. */
export function inlineFloatCode(v: number, gen: Gen): number | undefined {
  const table = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];
  const i = table.indexOf(v);
  if (i >= 0 && !Object.is(v, -0)) return 240 + i;
  if (gen >= Gen.GFX8 && Math.abs(v - 0.15915494309189535) < 1e-9 && v > 0) return 248;
  return undefined;
}

/** The inline-constant code whose bit pattern equals `bits` for an operand of this width, or undefined. */
export function inlineCodeForBits(value: number, bits: 16 | 32, gen: Gen): number | undefined {
  const table = bits === 32 ? INLINE_F32 : INLINE_F16;
  const n = gen >= Gen.GFX8 ? 9 : 8;
  for (let i = 0; i < n; i++) if (table[i] === value >>> 0) return 240 + i;
  return undefined;
}

/** High dwords of f64 inline constants (the low dword is zero for all of them but 1/(2π)). */
export function inlineF64HighCode(high: number): number | undefined {
  const i = INLINE_F64_HI.indexOf(high >>> 0);
  return i >= 0 ? 240 + i : undefined;
}

/** IEEE binary32 bits of a number (round to nearest even). */
export function f32Bits(v: number): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, v);
  return b.getUint32(0);
}

/** IEEE binary16 bits of a number (round to nearest even), via binary32. */
export function f16Bits(v: number): number {
  const x = f32Bits(v);
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  e = h >>> 10;
  return sign | h;
}

/** IEEE binary64 bits as [low, high] dwords. */
export function f64Words(v: number): [number, number] {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, v, true);
  return [b.getUint32(0, true), b.getUint32(4, true)];
}

export { SRC_LITERAL };
