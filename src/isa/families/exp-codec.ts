/**
 * EXP (export), 64 bits, every generation:
 *   dword 0: [3:0] en, [9:4] target, [10] compr, [11] done, [12] vm, [13] row_en (gfx11)
 *   dword 1: [7:0] vsrc0, [15:8] vsrc1, [23:16] vsrc2, [31:24] vsrc3
 * gfx11 dropped compr, vm, null and the param targets, and added row_en and the
 * dual-source-blend targets. With compr the four printed sources are vsrc0, vsrc0,
 * vsrc1, vsrc1 (two packed 16-bit pairs).
 */
import { AsmError, DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement, Instruction } from '../instruction.ts';
import { lookupName, lookupOpcode } from '../registry/registry.ts';
import { vgprName } from '../operands.ts';
import { parseVgpr, wordAt } from './vopd-operands.ts';

/** Export targets: name stem, first target number, count, and the generations having them. */
interface TargetRange {
  readonly stem: string;
  readonly first: number;
  readonly count: number;
  readonly gens: (g: Gen) => boolean;
}

const TARGETS: readonly TargetRange[] = [
  { stem: 'mrt', first: 0, count: 8, gens: () => true },
  { stem: 'mrtz', first: 8, count: 1, gens: () => true },
  { stem: 'null', first: 9, count: 1, gens: (g) => g < Gen.GFX11 },
  { stem: 'pos', first: 12, count: 4, gens: () => true },
  { stem: 'pos', first: 16, count: 1, gens: (g) => g >= Gen.GFX10 },
  { stem: 'prim', first: 20, count: 1, gens: (g) => g >= Gen.GFX10 },
  { stem: 'dual_src_blend', first: 21, count: 2, gens: (g) => g >= Gen.GFX11 },
  { stem: 'param', first: 32, count: 32, gens: (g) => g < Gen.GFX11 },
];

/** Ranges whose one target is spelled without an index. */
const SINGLE = new Set(['mrtz', 'null', 'prim']);

function targetName(gen: Gen, tgt: number): string {
  for (const r of TARGETS) {
    if (tgt < r.first || tgt >= r.first + r.count || !r.gens(gen)) continue;
    if (SINGLE.has(r.stem)) return r.stem;
    // pos4 continues the pos0-3 range.
    const base = r.stem === 'pos' ? 12 : r.first;
    return `${r.stem}${tgt - base}`;
  }
  return `invalid_target_${tgt}`;
}

export function decodeExp(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  const w0 = words[at];
  const def = lookupOpcode(target.gen, 'EXP', 0);
  if (!def) throw new DecodeError('unknown-opcode', byteOffset, 'EXP is not in the registry');
  const w1 = wordAt(words, at + 1, byteOffset, 'EXP second dword');
  const gfx11 = target.gen >= Gen.GFX11;
  const fields = {
    en: w0 & 0xf,
    target: (w0 >>> 4) & 0x3f,
    compr: gfx11 ? 0 : (w0 >>> 10) & 1,
    done: (w0 >>> 11) & 1,
    vm: gfx11 ? 0 : (w0 >>> 12) & 1,
    row_en: gfx11 ? (w0 >>> 13) & 1 : 0,
    vsrc0: w1 & 0xff,
    vsrc1: (w1 >>> 8) & 0xff,
    vsrc2: (w1 >>> 16) & 0xff,
    vsrc3: w1 >>> 24,
  };
  return { def, encoding: 'EXP', offset: byteOffset, size: 8, fields };
}

export function printExp(target: Target, inst: Instruction): string {
  const f = inst.fields;
  let text = `exp ${targetName(target.gen, f.target)} `;
  for (let i = 0; i < 4; i++) {
    if (i > 0) text += ', ';
    const r = f.compr ? i >>> 1 : i;
    text += f.en & (1 << i) ? vgprName(r === 0 ? f.vsrc0 : r === 1 ? f.vsrc1 : r === 2 ? f.vsrc2 : f.vsrc3, 1) : 'off';
  }
  if (f.done) text += ' done';
  if (f.compr) text += ' compr';
  if (f.vm) text += ' vm';
  if (f.row_en) text += ' row_en';
  return text;
}

/** The target number a name spells, or LLVM's error. */
function parseTarget(gen: Gen, text: string): number {
  const t = text.toLowerCase();
  const m = /^([a-z_]+?)(\d*)$/.exec(t);
  if (!m) throw new AsmError(/^[a-z_]/.test(t) ? 'invalid exp target' : 'invalid operand for instruction');
  const [, stem, digits] = m;
  const candidates = TARGETS.filter((r) => r.stem === stem);
  if (!candidates.length) throw new AsmError('invalid exp target');
  // An index is a plain decimal number: `pos02` is not `pos2`.
  if (SINGLE.has(stem) !== (digits === '') || /^0\d/.test(digits)) throw new AsmError('invalid exp target');
  const index = digits === '' ? 0 : Number(digits);
  const base = stem === 'pos' ? 12 : candidates[0].first;
  const tgt = base + index;
  const range = candidates.find((r) => tgt >= r.first && tgt < r.first + r.count);
  if (!range) throw new AsmError('invalid exp target');
  if (!range.gens(gen)) throw new AsmError('exp target is not supported on this GPU');
  return tgt;
}

/** Modifiers in the only order LLVM's parser takes them, with the generations having each. */
const MODIFIERS: readonly { name: string; bit: number; gens: (g: Gen) => boolean }[] = [
  { name: 'done', bit: 11, gens: () => true },
  { name: 'compr', bit: 10, gens: (g) => g < Gen.GFX11 },
  { name: 'vm', bit: 12, gens: (g) => g < Gen.GFX11 },
  { name: 'row_en', bit: 13, gens: (g) => g >= Gen.GFX11 },
];

export function assembleExp(target: Target, stmt: AsmStatement): number[] | undefined {
  if (stmt.mnemonic !== 'exp' || !lookupName(target.gen, 'exp').length) return undefined;
  try {
    return encodeExp(target.gen, stmt.operandText);
  } catch (e) {
    if (e instanceof AsmError) throw new AsmError(e.reason, stmt.line);
    throw e;
  }
}

function encodeExp(gen: Gen, text: string): number[] {
  // LLVM's parser takes the sources with or without commas between them.
  if (text.startsWith(',')) throw new AsmError('unknown token in expression');
  const tokens = text.split(/[\s,]+/).filter((s) => s);
  if (tokens.length === 0) throw new AsmError('too few operands for instruction');
  const tgt = parseTarget(gen, tokens[0]);
  if (tokens.length < 5) throw new AsmError('too few operands for instruction');
  const srcs = tokens.slice(1, 5).map((t) => (t.toLowerCase() === 'off' ? undefined : parseVgpr(gen, t)));
  let w0 = (0x3e << 26) | (tgt << 4);
  if (gen === Gen.GFX8 || gen === Gen.GFX9) w0 = (0x31 << 26) | (tgt << 4);
  let next = 0;
  for (const tok of tokens.slice(5)) {
    const i = MODIFIERS.findIndex((m, k) => k >= next && m.name === tok.toLowerCase() && m.gens(gen));
    if (i < 0) throw new AsmError('invalid operand for instruction');
    w0 |= 1 << MODIFIERS[i].bit;
    next = i + 1;
  }
  const compr = (w0 >>> 10) & 1;
  let en = 0;
  let w1 = 0;
  if (compr) {
    // Packed pairs: the first and third sources are the two registers; each enables two lanes.
    if (srcs[0] !== undefined) {
      en |= 3;
      w1 |= srcs[0];
    }
    if (srcs[2] !== undefined) {
      en |= 0xc;
      w1 |= srcs[2] << 8;
    }
  } else {
    srcs.forEach((r, i) => {
      if (r === undefined) return;
      en |= 1 << i;
      w1 |= r << (8 * i);
    });
  }
  return [(w0 | en) >>> 0, w1 >>> 0];
}
