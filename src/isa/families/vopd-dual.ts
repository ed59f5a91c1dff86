/**
 * VOPD (gfx11 dual issue): two VOP2-like components X and Y in one 64-bit word, with one
 * shared literal dword (fmaak/fmamk's K, or a 255 source).
 *   dword 0: [8:0] srcx0, [16:9] vsrcx1, [21:17] opy, [25:22] opx, [31:26] 0x32
 *   dword 1: [8:0] srcy0, [16:9] vsrcy1, [23:17] vdsty >> 1, [31:24] vdstx
 * vdsty's low bit is not encoded: it is the opposite of vdstx's.
 * The components are registry entries of family VOPD: `op[gfx11]` is the X opcode,
 * `flags.opy` the Y opcode, `flags.shape` the operand shape (vop2, mov, fmamk, fmaak).
 */
import { AsmError, DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement, Instruction } from '../instruction.ts';
import { allInstructions } from '../registry/registry.ts';
import type { InstructionDef, ValueType } from '../registry/types.ts';
import { hex, nullCode, SRC_LITERAL, SRC_VGPR0, vgprName } from '../operands.ts';

const SRC_SCC = 253;
import { splitOperands } from '../asm-operands.ts';
import { immediateBits, parseSource, parseVgpr, sourceKind, sourceText, wordAt } from './vopd-operands.ts';

type Shape = 'vop2' | 'mov' | 'fmamk' | 'fmaak';

interface Component {
  readonly def: InstructionDef;
  readonly shape: Shape;
  readonly type: ValueType;
  /** fmac/dot2acc read vdst as their third source (it counts as src2 for the bank rules). */
  readonly accumulates: boolean;
  readonly readsVcc: boolean;
  /** Opcode in the X and in the Y slot, -1 where the component cannot go. */
  readonly opx: number;
  readonly opy: number;
}

interface Tables {
  readonly x: Map<number, Component>;
  readonly y: Map<number, Component>;
  readonly byName: Map<string, Component>;
}

let tables: Tables | undefined;

/** The X and Y opcode maps, built once from the registry's VOPD entries. */
function vopdTables(): Tables {
  if (tables) return tables;
  const x = new Map<number, Component>();
  const y = new Map<number, Component>();
  const byName = new Map<string, Component>();
  for (const def of allInstructions()) {
    if (def.family !== 'VOPD') continue;
    const src0 = def.operands.find((o) => o.field === 'src0');
    const opx = def.op[Gen.GFX11];
    const opy = Number(def.flags?.opy ?? -1);
    const c: Component = {
      def,
      opx,
      opy,
      shape: (def.flags?.shape ?? 'vop2') as Shape,
      type: src0?.type ?? 'b32',
      accumulates: def.operands.some((o) => o.field === 'vdst' && o.role === 'src'),
      readsVcc: def.operands.some((o) => o.field === 'vcc'),
    };
    if (opx >= 0) x.set(opx, c);
    if (opy >= 0) y.set(opy, c);
    byName.set(def.name, c);
  }
  return (tables = { x, y, byName });
}

/** The X and Y components of a decoded VOPD instruction (for the tracer and translator). */
export function vopdComponents(inst: Instruction): { x: InstructionDef; y: InstructionDef } | undefined {
  const t = vopdTables();
  const x = t.x.get(inst.fields.opx);
  const y = t.y.get(inst.fields.opy);
  return x && y ? { x: x.def, y: y.def } : undefined;
}

function needsLiteral(c: Component, src0: number): boolean {
  return c.shape === 'fmaak' || c.shape === 'fmamk' || src0 === SRC_LITERAL;
}

/** Sources LLVM refuses in a VOPD component: SDWA/DPP markers and unnamed codes. */
function checkSource(gen: Gen, code: number, byteOffset: number): void {
  if (sourceKind(gen, code) === 'invalid')
    throw new DecodeError('invalid-operand', byteOffset, `source code ${code} is not an operand of VOPD`);
}

export function decodeVopd(target: Target, words: Uint32Array, at: number, byteOffset: number): Instruction {
  // Dual issue exists only in wave32; LLVM decodes nothing of VOPD in wave64.
  if (target.wave64) throw new DecodeError('unknown-encoding', byteOffset, 'VOPD is not available in wave64');
  const w0 = words[at];
  const w1 = wordAt(words, at + 1, byteOffset, 'VOPD second dword');
  const t = vopdTables();
  const opx = (w0 >>> 22) & 0xf;
  const opy = (w0 >>> 17) & 0x1f;
  const x = t.x.get(opx);
  const y = t.y.get(opy);
  if (!x) throw new DecodeError('unknown-opcode', byteOffset, `VOPD X opcode ${opx} is not an instruction`);
  if (!y) throw new DecodeError('unknown-opcode', byteOffset, `VOPD Y opcode ${opy} is not an instruction`);
  const srcx0 = w0 & 0x1ff;
  const vsrcx1 = (w0 >>> 9) & 0xff;
  const srcy0 = w1 & 0x1ff;
  const vsrcy1 = (w1 >>> 9) & 0xff;
  const vdstx = w1 >>> 24;
  const vdsty = (((w1 >>> 17) & 0x7f) << 1) | ((vdstx & 1) ^ 1);
  // A mov has no vsrc1; LLVM only accepts the encoding with the field zero.
  if ((x.shape === 'mov' && vsrcx1 !== 0) || (y.shape === 'mov' && vsrcy1 !== 0))
    throw new DecodeError('invalid-operand', byteOffset, 'v_dual_mov_b32 with a nonzero vsrc1 field');
  checkSource(target.gen, srcx0, byteOffset);
  checkSource(target.gen, srcy0, byteOffset);
  const fields = { opx, opy, srcx0, vsrcx1, vdstx, srcy0, vsrcy1, vdsty };
  if (needsLiteral(x, srcx0) || needsLiteral(y, srcy0)) {
    const literal = wordAt(words, at + 2, byteOffset, 'VOPD literal');
    return { def: x.def, encoding: 'VOPD', offset: byteOffset, size: 12, fields, literal };
  }
  return { def: x.def, encoding: 'VOPD', offset: byteOffset, size: 8, fields };
}

function componentText(
  gen: Gen,
  c: Component,
  vdst: number,
  src0: number,
  vsrc1: number,
  literal: number | undefined,
): string {
  const d = vgprName(vdst, 1);
  const s0 = sourceText(gen, src0, c.type, literal) ?? `<src ${src0}>`;
  const s1 = vgprName(vsrc1, 1);
  // K is printed as the raw literal, never as an inline constant.
  const k = hex(literal ?? 0);
  switch (c.shape) {
    case 'mov':
      return `${c.def.name} ${d}, ${s0}`;
    case 'fmamk':
      return `${c.def.name} ${d}, ${s0}, ${k}, ${s1}`;
    case 'fmaak':
      return `${c.def.name} ${d}, ${s0}, ${s1}, ${k}`;
    default:
      return `${c.def.name} ${d}, ${s0}, ${s1}`;
  }
}

export function printVopd(target: Target, inst: Instruction): string {
  const t = vopdTables();
  const f = inst.fields;
  const x = t.x.get(f.opx);
  const y = t.y.get(f.opy);
  if (!x || !y) throw new Error('VOPD instruction without components');
  const gen = target.gen;
  return `${componentText(gen, x, f.vdstx, f.srcx0, f.vsrcx1, inst.literal)} :: ${componentText(gen, y, f.vdsty, f.srcy0, f.vsrcy1, inst.literal)}`;
}

// ---------------------------------------------------------------- assembler

interface ParsedComponent {
  readonly c: Component;
  readonly vdst: number;
  readonly src0: number;
  readonly vsrc1: number;
  /** The literal this component needs (K, or a 255 source). */
  readonly literal?: number;
}

function parseComponent(gen: Gen, c: Component, operandText: string): ParsedComponent {
  const items = splitOperands(operandText);
  if (items.some((i) => i.modifier)) throw new AsmError('invalid operand for instruction');
  const ops = items.map((i) => i.text);
  const want = c.shape === 'mov' ? 2 : c.shape === 'vop2' ? 3 : 4;
  if (ops.length < want) throw new AsmError('too few operands for instruction');
  if (ops.length > want) throw new AsmError('invalid operand for instruction');
  const vdst = parseVgpr(gen, ops[0]);
  const src0 = parseSource(gen, ops[1], c.type);
  let vsrc1 = 0;
  let k: number | undefined;
  if (c.shape === 'vop2') vsrc1 = parseVgpr(gen, ops[2]);
  else if (c.shape === 'fmamk' || c.shape === 'fmaak') {
    const [kText, vText] = c.shape === 'fmamk' ? [ops[2], ops[3]] : [ops[3], ops[2]];
    vsrc1 = parseVgpr(gen, vText);
    k = immediateBits(kText, c.type);
    if (k === undefined) throw new AsmError('invalid operand for instruction');
  }
  if (k !== undefined && src0.literal !== undefined && k !== src0.literal)
    throw new AsmError('only one unique literal operand is allowed');
  return { c, vdst, src0: src0.code, vsrc1, literal: k ?? src0.literal };
}

/**
 * Whether a source reads a scalar value over the constant bus: SGPRs and specials, the
 * aperture registers and src_scc; not null (it reads nothing), constants or lds_direct.
 */
function readsConstantBus(code: number): boolean {
  if (code < 128) return code !== nullCode(Gen.GFX11);
  return (code >= 235 && code <= 239) || code === SRC_SCC;
}

/** LLVM's VOPD operand rules: one literal, two scalar values, parity of dsts, VGPR banks. */
function checkPair(x: ParsedComponent, y: ParsedComponent): number | undefined {
  if (x.literal !== undefined && y.literal !== undefined && x.literal !== y.literal)
    throw new AsmError('only one unique literal operand is allowed');
  const literal = x.literal ?? y.literal;
  const scalars = new Set<string>();
  for (const p of [x, y]) {
    if (readsConstantBus(p.src0)) scalars.add(`s${p.src0}`);
    if (p.c.readsVcc) scalars.add('vcc');
  }
  if (literal !== undefined) scalars.add('literal');
  if (scalars.size > 2) throw new AsmError('invalid operand (violates constant bus restrictions)');
  if ((x.vdst & 1) === (y.vdst & 1)) throw new AsmError('one dst register must be even and the other odd');
  const vgpr = (code: number): number | undefined => (code >= SRC_VGPR0 ? code - SRC_VGPR0 : undefined);
  const s0x = vgpr(x.src0);
  const s0y = vgpr(y.src0);
  if (s0x !== undefined && s0y !== undefined && (s0x & 3) === (s0y & 3))
    throw new AsmError('src0 operands must use different VGPR banks');
  // src1 is vsrc1 except in fmamk, where vsrc1 is the third source; fmac/dot2acc's third is vdst.
  const src1 = (p: ParsedComponent): number | undefined =>
    p.c.shape === 'vop2' || p.c.shape === 'fmaak' ? p.vsrc1 : undefined;
  const src2 = (p: ParsedComponent): number | undefined =>
    p.c.shape === 'fmamk' ? p.vsrc1 : p.c.accumulates ? p.vdst : undefined;
  const a1 = src1(x);
  const b1 = src1(y);
  if (a1 !== undefined && b1 !== undefined && (a1 & 3) === (b1 & 3))
    throw new AsmError('src1 operands must use different VGPR banks');
  const a2 = src2(x);
  const b2 = src2(y);
  if (a2 !== undefined && b2 !== undefined && (a2 & 1) === (b2 & 1))
    throw new AsmError('src2 operands must use different VGPR banks');
  return literal;
}

/** Assembles `v_dual_X ... :: v_dual_Y ...`, or returns undefined for other mnemonics. */
export function assembleVopd(target: Target, stmt: AsmStatement): number[] | undefined {
  if (!stmt.mnemonic.startsWith('v_dual_')) return undefined;
  const gen = target.gen;
  const t = vopdTables();
  const x = t.byName.get(stmt.mnemonic);
  if (gen !== Gen.GFX11 || !x) throw new AsmError('invalid instruction', stmt.line);
  if (target.wave64) throw new AsmError('instruction not supported on this GPU', stmt.line);
  const sep = stmt.operandText.indexOf('::');
  if (sep < 0) {
    if (/:\s+:/.test(stmt.operandText)) throw new AsmError('unknown token in expression', stmt.line);
    throw new AsmError('too few operands for instruction', stmt.line);
  }
  if (x.opx < 0) throw new AsmError('invalid instruction', stmt.line);
  const yText = stmt.operandText.slice(sep + 2).trim();
  const ym = /^(\S+)\s*(.*)$/.exec(yText);
  if (!ym) throw new AsmError('expected a VOPDY instruction after ::', stmt.line);
  const y = t.byName.get(ym[1].toLowerCase());
  try {
    const px = parseComponent(gen, x, stmt.operandText.slice(0, sep));
    if (!y || y.opy < 0) throw new AsmError('invalid VOPDY instruction');
    const py = parseComponent(gen, y, ym[2]);
    const literal = checkPair(px, py);
    const w0 = ((0x32 << 26) | (x.opx << 22) | (y.opy << 17) | (px.vsrc1 << 9) | px.src0) >>> 0;
    const w1 = ((px.vdst << 24) | ((py.vdst >>> 1) << 17) | (py.vsrc1 << 9) | py.src0) >>> 0;
    return literal === undefined ? [w0, w1] : [w0, w1, literal >>> 0];
  } catch (e) {
    if (e instanceof AsmError) throw new AsmError(e.reason, stmt.line);
    throw e;
  }
}
