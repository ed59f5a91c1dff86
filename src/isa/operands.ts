/**
 * The operand spaces every encoding family shares: scalar register numbers with their
 * special names per generation, the 9-bit source operand space (SGPRs, specials, inline
 * constants, literal, VGPRs at 256+), and register-range spelling as LLVM prints it.
 * Family codecs call these; nothing here knows about a particular instruction.
 */
import { Gen } from './gen.ts';

/** Source operand codes with a fixed meaning in every generation. */
export const SRC_VCC_LO = 106;
export const SRC_EXEC_LO = 126;
export const SRC_ZERO = 128;
export const SRC_LITERAL = 255;
export const SRC_VGPR0 = 256;

/** Registers at or above this SGPR-space number are not plain SGPRs in this generation. */
export function sgprCount(gen: Gen): number {
  if (gen === Gen.GFX7) return 104;
  if (gen >= Gen.GFX10) return 106;
  return 102;
}

/** m0's code: 124 everywhere but gfx11, where m0 and null swap places. */
export function m0Code(gen: Gen): number {
  return gen >= Gen.GFX11 ? 125 : 124;
}
export function nullCode(gen: Gen): number {
  return gen >= Gen.GFX11 ? 124 : 125;
}

/** First trap-temporary register's code, and how many there are. */
export function ttmpBase(gen: Gen): { first: number; count: number } {
  return gen >= Gen.GFX9 ? { first: 108, count: 16 } : { first: 112, count: 12 };
}

/** Names of the special 32-bit halves by code, for one generation. */
function specialHalves(gen: Gen): Map<number, [string, string]> {
  // Each entry names a 64-bit register pair by the code of its low half: [pair name, low-half name stem].
  const m = new Map<number, [string, string]>();
  m.set(SRC_VCC_LO, ['vcc', 'vcc']);
  m.set(SRC_EXEC_LO, ['exec', 'exec']);
  if (gen === Gen.GFX7) {
    m.set(104, ['flat_scratch', 'flat_scratch']);
  } else if (gen <= Gen.GFX9) {
    m.set(102, ['flat_scratch', 'flat_scratch']);
    m.set(104, ['xnack_mask', 'xnack_mask']);
  }
  if (gen <= Gen.GFX8) {
    m.set(108, ['tba', 'tba']);
    m.set(110, ['tma', 'tma']);
  }
  return m;
}

const specialCache = new Map<Gen, Map<number, [string, string]>>();
function specials(gen: Gen): Map<number, [string, string]> {
  let m = specialCache.get(gen);
  if (!m) specialCache.set(gen, (m = specialHalves(gen)));
  return m;
}

/**
 * Spells the scalar register (range) starting at `code` with `dwords` dwords, or returns
 * undefined when that range is not a register in this generation (LLVM then prints its
 * `/*Invalid register*\/` text, which callers decide about). Codes 0-255 of widths 1-32
 * are spelled once per generation and then read from a table: decoders ask this for
 * every register field they check, printers for every scalar operand.
 */
export function scalarRegName(gen: Gen, code: number, dwords: number): string | undefined {
  if (code >= 0 && code < 256 && dwords >= 1 && dwords <= 32 && (code | 0) === code && (dwords | 0) === dwords) {
    const byWidth = (scalarNames[gen] ??= []);
    const names = (byWidth[dwords] ??= new Array<string | null | undefined>(256));
    let name = names[code];
    if (name === undefined) names[code] = name = scalarRegText(gen, code, dwords) ?? null;
    return name ?? undefined;
  }
  return scalarRegText(gen, code, dwords);
}

/** scalarRegText by generation, width and code, filled on first use (null: not a register). */
const scalarNames: (string | null | undefined)[][][] = [];

function scalarRegText(gen: Gen, code: number, dwords: number): string | undefined {
  const nsg = sgprCount(gen);
  // LLVM's decoder aligns a misaligned SGPR or TTMP range down (pairs to even, wider
  // tuples to four), printing a warning; the printed text is the aligned range.
  if (dwords > 1) {
    const align = dwords >= 4 ? 4 : 2;
    const tt0 = ttmpBase(gen);
    if (code < nsg) code -= code % align;
    else if (code >= tt0.first && code < tt0.first + tt0.count) code -= (code - tt0.first) % align;
  }
  if (code < nsg) {
    if (code + dwords > nsg) return undefined;
    return dwords === 1 ? `s${code}` : `s[${code}:${code + dwords - 1}]`;
  }
  const tt = ttmpBase(gen);
  if (code >= tt.first && code < tt.first + tt.count) {
    const i = code - tt.first;
    if (i + dwords > tt.count) return undefined;
    return dwords === 1 ? `ttmp${i}` : `ttmp[${i}:${i + dwords - 1}]`;
  }
  const sp = specials(gen);
  if (dwords === 1) {
    const lo = sp.get(code);
    if (lo) return `${lo[1]}_lo`;
    const hi = sp.get(code - 1);
    if (hi) return `${hi[1]}_hi`;
    if (code === m0Code(gen)) return 'm0';
    if (code === nullCode(gen) && gen >= Gen.GFX8) return 'null';
    return undefined;
  }
  if (dwords === 2) {
    const pair = sp.get(code);
    if (pair) return pair[0];
    if (code === nullCode(gen) && gen >= Gen.GFX8) return 'null';
  }
  return undefined;
}

/**
 * Spells a VGPR (range). Indices 0-511 of widths 1-32 are spelled once and then read
 * from a table (a printed listing names a VGPR in nearly every line).
 */
export function vgprName(index: number, dwords: number): string {
  if (index >= 0 && index < 512 && dwords >= 1 && dwords <= 32 && (index | 0) === index && (dwords | 0) === dwords) {
    const names = (vgprNames[dwords] ??= new Array<string | undefined>(512));
    return (names[index] ??= vgprText(index, dwords));
  }
  return vgprText(index, dwords);
}

/** vgprText by width and index, filled on first use. */
const vgprNames: (string | undefined)[][] = [];

function vgprText(index: number, dwords: number): string {
  return dwords === 1 ? `v${index}` : `v[${index}:${index + dwords - 1}]`;
}

/** Spells an AGPR (range) (gfx908+; kept for the printer's completeness). */
export function agprName(index: number, dwords: number): string {
  return dwords === 1 ? `a${index}` : `a[${index}:${index + dwords - 1}]`;
}

/** The integer an inline-constant code stands for, or undefined when it is not an integer constant. */
export function inlineInteger(code: number): number | undefined {
  if (code >= 128 && code <= 192) return code - 128;
  if (code >= 193 && code <= 208) return 192 - code;
  return undefined;
}

/** How a float inline constant is spelled, by code, for an operand of the given float width. */
export function inlineFloatText(code: number, bits: 16 | 32 | 64, gen: Gen): string | undefined {
  switch (code) {
    case 240:
      return '0.5';
    case 241:
      return '-0.5';
    case 242:
      return '1.0';
    case 243:
      return '-1.0';
    case 244:
      return '2.0';
    case 245:
      return '-2.0';
    case 246:
      return '4.0';
    case 247:
      return '-4.0';
    case 248:
      if (gen === Gen.GFX7) return undefined;
      return bits === 64 ? '0.15915494309189532' : '0.15915494';
  }
  return undefined;
}

/** Named non-register source operands (codes 235-254) by generation. */
export function namedSourceText(gen: Gen, code: number): string | undefined {
  // LLVM 19's gfx8 decoder names these too (its gfx8 assembler refuses them).
  if (gen >= Gen.GFX8) {
    switch (code) {
      case 235:
        return 'src_shared_base';
      case 236:
        return 'src_shared_limit';
      case 237:
        return 'src_private_base';
      case 238:
        return 'src_private_limit';
      case 239:
        // llvm-mc-19 names 239 on gfx9, gfx10 (gfx1010 and gfx1030: SOP1, VOP2, MUBUF soffset) and gfx11;
        // gfx11's assembler refuses it.
        return 'src_pops_exiting_wave_id';
    }
  }
  switch (code) {
    case 251:
      return 'src_vccz';
    case 252:
      return 'src_execz';
    case 253:
      return 'src_scc';
    case 254:
      return 'src_lds_direct';
  }
  return undefined;
}

/** Bit pattern of a float inline constant for operands of the given width (for semantics and folding). */
export function inlineFloatBits(code: number, bits: 16 | 32 | 64): bigint | undefined {
  const f32: Record<number, number> = {
    240: 0x3f000000,
    241: 0xbf000000,
    242: 0x3f800000,
    243: 0xbf800000,
    244: 0x40000000,
    245: 0xc0000000,
    246: 0x40800000,
    247: 0xc0800000,
    248: 0x3e22f983,
  };
  const f16: Record<number, number> = {
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
  const f64: Record<number, bigint> = {
    240: 0x3fe0000000000000n,
    241: 0xbfe0000000000000n,
    242: 0x3ff0000000000000n,
    243: 0xbff0000000000000n,
    244: 0x4000000000000000n,
    245: 0xc000000000000000n,
    246: 0x4010000000000000n,
    247: 0xc010000000000000n,
    248: 0x3fc45f306dc9c882n,
  };
  if (bits === 64) return f64[code];
  const v = bits === 32 ? f32[code] : f16[code];
  return v === undefined ? undefined : BigInt(v);
}

/** `0x0`..`0xff`, and the two-digit spellings `00`..`ff`, by byte value. */
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, b) => `0x${b.toString(16)}`);
const HEX_PAIR: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * Hex spelling LLVM uses for literals and immediates: `0x` and the unsigned 32-bit value's
 * digits without leading zeros. Built from byte tables, because Number#toString(16) costs
 * several hundred nanoseconds for a full 32-bit value and printers call this per literal.
 */
export function hex(value: number): string {
  const v = value >>> 0;
  if (v < 0x100) return HEX_BYTE[v];
  const b3 = v >>> 24;
  const b2 = (v >>> 16) & 0xff;
  const b1 = (v >>> 8) & 0xff;
  const b0 = v & 0xff;
  if (b3 !== 0) return HEX_BYTE[b3] + HEX_PAIR[b2] + HEX_PAIR[b1] + HEX_PAIR[b0];
  if (b2 !== 0) return HEX_BYTE[b2] + HEX_PAIR[b1] + HEX_PAIR[b0];
  return HEX_BYTE[b1] + HEX_PAIR[b0];
}
