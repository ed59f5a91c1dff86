/**
 * The memory families' codec: DS (LDS/GDS), MUBUF, MTBUF and FLAT/GLOBAL/SCRATCH for
 * gfx7 through gfx11. Field layouts live in memory-layout.ts; which fields an instruction
 * spells, in which order and how wide, comes from the registry (`flags.order` and the
 * operand widths, generated from llvm-mc-19 sweeps). This file holds the per-family
 * modifier syntax LLVM prints.
 */
import { DecodeError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { FamilyCodec, Instruction } from '../instruction.ts';
import { OpcodePlans } from '../registry/registry.ts';
import { Attr, type Family, type InstructionDef } from '../registry/types.ts';
import {
  SRC_LITERAL,
  hex,
  inlineFloatText,
  inlineInteger,
  namedSourceText,
  nullCode,
  scalarRegName,
  sgprCount,
  ttmpBase,
  vgprName,
} from '../operands.ts';
import {
  BUF_DATA_FORMATS,
  BUF_FORMATS_GFX10,
  BUF_FORMATS_GFX11,
  BUF_NUM_FORMATS,
  BUF_NUM_FORMATS_GFX7,
} from '../registry/generated/memory.ts';
import { decodeFields, dwordsOf, orderOf, saddrOffCode, type MemFamily } from './memory-layout.ts';
import { assembleMemory } from './memory-asm.ts';

const FLAT_SEGMENTS: readonly (Family | undefined)[] = ['FLAT', 'SCRATCH', 'GLOBAL', undefined];

// ---------------------------------------------------------------------------------------
// Decoding.

/** A scalar code that is neither an SGPR, a trap temporary nor null (vcc_hi, exec_hi, m0, …). */
function isSpecial(gen: Gen, code: number): boolean {
  const tt = ttmpBase(gen);
  return code >= sgprCount(gen) && !(code >= tt.first && code < tt.first + tt.count) && code !== nullCode(gen);
}

function isGfx10(gen: Gen): boolean {
  return gen === Gen.GFX10 || gen === Gen.GFX10_3;
}

function fail(code: 'unknown-opcode' | 'invalid-operand', at: number, reason: string): never {
  throw new DecodeError(code, at, reason);
}

/**
 * What decoding and printing read of an instruction's definition, worked out once per
 * (generation, family, opcode): its printed operand order and widths, the VGPR fields to
 * range-check, and its registry flags as plain values.
 */
interface MemPlan {
  readonly def: InstructionDef;
  /** orderOf(def), and the width of each field in it (dwordsOf). */
  readonly order: readonly string[];
  readonly orderDwords: readonly number[];
  /** VGPR data fields checked against v255 (checkVgprRanges), and their widths. */
  readonly vgprFields: readonly string[];
  readonly vgprDwords: readonly number[];
  /** DS register fields (DS_REGISTER_FIELDS) the order lacks, which must be zero. */
  readonly dsUnused: readonly string[];
  readonly hasOff: boolean;
  readonly vdataDwords: number;
  readonly gds: unknown;
  readonly offsets: unknown;
  readonly lds: unknown;
  readonly tfe: unknown;
  readonly rtn: unknown;
}

const DS_REGISTER_FIELDS: readonly string[] = ['addr', 'data0', 'data1', 'vdst'];

function buildPlan(def: InstructionDef): MemPlan {
  const order = orderOf(def);
  const vgpr = def.operands.filter((op) => op.cls === 'v' && op.field !== 'addr' && op.field !== 'vaddr');
  return {
    def,
    order,
    orderDwords: order.map((field) => dwordsOf(def, field)),
    vgprFields: vgpr.map((op) => op.field),
    vgprDwords: vgpr.map((op) => op.dwords),
    dsUnused: DS_REGISTER_FIELDS.filter((name) => !order.includes(name)),
    hasOff: order.includes('off'),
    vdataDwords: dwordsOf(def, 'vdata'),
    gds: def.flags?.gds,
    offsets: def.flags?.offsets,
    lds: def.flags?.lds,
    tfe: def.flags?.tfe,
    rtn: def.flags?.rtn,
  };
}

/** The plans of each memory family (FLAT's segments are families of their own), by opcode. */
const PLANS: Readonly<Record<string, OpcodePlans<MemPlan>>> = Object.fromEntries(
  (['DS', 'MUBUF', 'MTBUF', 'FLAT', 'GLOBAL', 'SCRATCH'] as const).map((f) => [f, new OpcodePlans(f, buildPlan)]),
);

function planOf(gen: Gen, inst: Instruction): MemPlan {
  const plans = PLANS[inst.def.family];
  return plans ? plans.forInstruction(gen, inst.def, inst.fields.op) : buildPlan(inst.def);
}

function decodeMem(target: Target, words: Uint32Array, at: number, family: Family, byteOffset: number): Instruction {
  if (at + 1 >= words.length) throw new DecodeError('truncated', byteOffset, `${family} needs a second dword`);
  const gen = target.gen;
  const fam = family as MemFamily;
  // decodeFields has gfx10 MTBUF's op_hi folded into op already.
  const fields = decodeFields(fam, gen, words[at], words[at + 1]);
  let regFamily: Family = family;
  if (fam === 'FLAT' && 'seg' in fields) {
    const seg = FLAT_SEGMENTS[fields.seg];
    if (!seg) fail('invalid-operand', byteOffset, 'FLAT segment 3 is reserved');
    regFamily = seg;
  }
  const plan = PLANS[regFamily].plan(gen, fields.op);
  if (!plan)
    fail('unknown-opcode', byteOffset, `${regFamily} opcode ${fields.op} is not an instruction of this generation`);
  const def = plan.def;
  // gfx11 buffer instructions may take a literal soffset, in a third dword.
  let literal: number | undefined;
  if (gen >= Gen.GFX11 && (fam === 'MUBUF' || fam === 'MTBUF') && fields.soffset === SRC_LITERAL && plan.order.length) {
    if (at + 2 >= words.length) throw new DecodeError('truncated', byteOffset, 'the literal soffset is missing');
    literal = words[at + 2];
  }
  const inst: Instruction =
    literal === undefined
      ? { def, encoding: regFamily, offset: byteOffset, size: 8, fields }
      : { def, encoding: regFamily, offset: byteOffset, size: 12, fields, literal };
  validate(gen, inst, plan, byteOffset);
  checkVgprRanges(inst, plan, byteOffset);
  return inst;
}

/** A VGPR range running past v255 is not a register (LLVM rejects or marks it invalid). */
function checkVgprRanges(inst: Instruction, plan: MemPlan, at: number): void {
  const f = inst.fields;
  // Address widths depend on the addressing mode, not on the instruction; data ranges are what overflow.
  const names = plan.vgprFields;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const v = f[name];
    if (v === undefined) continue;
    const extra = name === 'vdata' ? (f.tfe ?? 0) : 0;
    if (v + plan.vgprDwords[i] + extra > 256) fail('invalid-operand', at, `${name} runs past v255`);
  }
  const rtn = plan.rtn;
  if (rtn !== undefined && f.glc && f.vdst + Number(rtn) > 256) fail('invalid-operand', at, 'vdst runs past v255');
}

/** Rejects the encodings llvm-mc-19 rejects (found by its sweeps and the corpus's invalid rows). */
function validate(gen: Gen, inst: Instruction, plan: MemPlan, at: number): void {
  if (inst.def.family === 'DS') validateDs(inst, plan, at);
  else if (inst.def.family === 'MUBUF' || inst.def.family === 'MTBUF') validateBuffer(gen, inst, plan, at);
  else validateFlat(gen, inst, plan, at);
}

/** DS: register fields the instruction does not use must be zero; gds and offsets as the registry says. */
function validateDs(inst: Instruction, plan: MemPlan, at: number): void {
  const { fields: f, def } = inst;
  const unused = plan.dsUnused;
  for (let i = 0; i < unused.length; i++) {
    const name = unused[i];
    if (f[name] !== 0) fail('invalid-operand', at, `${def.name} has no ${name} operand`);
  }
  const gds = plan.gds;
  if (gds === 'always' && !f.gds) fail('invalid-operand', at, `${def.name} needs gds`);
  if (gds === 'never' && f.gds) fail('invalid-operand', at, `${def.name} cannot use gds`);
  if (plan.offsets === 0 && (f.offset0 || f.offset1)) fail('invalid-operand', at, `${def.name} has no offset`);
}

function validateBuffer(gen: Gen, inst: Instruction, plan: MemPlan, at: number): void {
  const { fields: f, def } = inst;
  const order = plan.order;
  // Cache-control instructions (buffer_wbinvl1, buffer_gl0_inv) ignore their operand fields and
  // offset, but LLVM rejects them with any addressing, cache-policy (but slc), lds or tfe bit.
  if (!order.length) {
    for (const name of ['offen', 'idxen', 'glc', 'dlc', 'lds', 'tfe', 'reserved15'])
      if (f[name]) fail('invalid-operand', at, `${def.name} takes no ${name}`);
    return;
  }
  if (!plan.hasOff && (f.offen || f.idxen || f.addr64)) fail('invalid-operand', at, `${def.name} has no vaddr`);
  const lds = plan.lds;
  if (f.lds && !lds) fail('invalid-operand', at, `${def.name} cannot load to LDS`);
  if (!f.lds && lds === 'always') fail('invalid-operand', at, `${def.name} needs lds`);
  if (f.tfe && (plan.tfe === false || (f.lds && lds))) fail('invalid-operand', at, `${def.name} cannot use tfe`);
  if (scalarSourceText(gen, f.soffset) === undefined && inst.literal === undefined)
    fail('invalid-operand', at, `soffset ${f.soffset} is not a scalar source`);
  if (isGfx10(gen) && f.dlc && def.attrs & Attr.MemAtomic) fail('invalid-operand', at, 'atomics have no dlc on gfx10');
  if (!scalarRange(gen, f.srsrc * 4, 4)) fail('invalid-operand', at, `srsrc ${f.srsrc} is not a register quad`);
}

function validateFlat(gen: Gen, inst: Instruction, plan: MemPlan, at: number): void {
  const { fields: f, def } = inst;
  if (gen <= Gen.GFX8 && (f.unused || f.unused1))
    fail('invalid-operand', at, 'FLAT bits unused before gfx9 must be zero');
  if (f.lds && !plan.lds) fail('invalid-operand', at, `${def.name} cannot load to LDS`);
  if (isGfx10(gen) && f.nv) fail('invalid-operand', at, 'nv is not supported');
  if (gen === Gen.GFX9 && f.lds && f.nv) fail('invalid-operand', at, 'lds cannot be used with nv');
  if (f.sve && def.family !== 'SCRATCH') fail('invalid-operand', at, 'sve is for scratch only');
  // The flat segment has no saddr: gfx9 wants the field zero, gfx10+ wants `off`.
  if (def.family === 'FLAT' && 'saddr' in f && f.saddr !== (gen === Gen.GFX9 ? 0 : saddrOffCode(gen)))
    fail('invalid-operand', at, 'flat segment has no saddr');
  if (def.family === 'GLOBAL' && 'saddr' in f && f.saddr !== saddrOffCode(gen)) {
    // A 64-bit saddr may be unaligned in SGPRs and trap temporaries (LLVM warns), not in special registers.
    if (f.saddr & 1 && isSpecial(gen, f.saddr)) fail('invalid-operand', at, 'saddr is not an aligned pair');
    if (f.saddr !== nullCode(gen) && !(isGfx10(gen) && f.saddr === 0x7f) && !scalarRange(gen, f.saddr & ~1, 2))
      fail('invalid-operand', at, 'saddr is not a register pair');
  }
}

// ---------------------------------------------------------------------------------------
// Printing.

/** An 8-bit scalar source (soffset): SGPRs, specials, inline constants; undefined for reserved codes. */
export function scalarSourceText(gen: Gen, code: number): string | undefined {
  if (code >= 0 && code < 256) {
    const t = (scalarSources[gen] ??= []);
    let v = t[code];
    if (v === undefined) t[code] = v = scalarSourceTextUncached(gen, code) ?? null;
    return v ?? undefined;
  }
  return scalarSourceTextUncached(gen, code);
}

/** scalarSourceText by generation and code (0-255), filled on first use (null: reserved). */
const scalarSources: (string | null | undefined)[][] = [];

function scalarSourceTextUncached(gen: Gen, code: number): string | undefined {
  const reg = scalarRegName(gen, code, 1);
  if (reg) return reg;
  const i = inlineInteger(code);
  if (i !== undefined) return String(i);
  return inlineFloatText(code, 32, gen) ?? namedSourceText(gen, code);
}

/**
 * A scalar register range (srsrc, saddr), or undefined when LLVM rejects it. Before gfx10
 * LLVM accepts SGPR ranges up to s103 even where fewer SGPRs are addressable; gfx11 spells
 * a range at null's code as `null`.
 */
function scalarRange(gen: Gen, code: number, dwords: number): string | undefined {
  if (code >= 0 && code < 512 && (dwords === 1 || dwords === 2 || dwords === 4)) {
    const t = ((scalarRanges[gen] ??= [])[dwords] ??= []);
    let v = t[code];
    if (v === undefined) t[code] = v = scalarRangeUncached(gen, code, dwords) ?? null;
    return v ?? undefined;
  }
  return scalarRangeUncached(gen, code, dwords);
}

/** scalarRange by generation, width and code, filled on first use (null: not a register). */
const scalarRanges: (string | null | undefined)[][][] = [];

function scalarRangeUncached(gen: Gen, code: number, dwords: number): string | undefined {
  const name = scalarRegName(gen, code, dwords);
  if (name) return name;
  if (gen <= Gen.GFX9 && code + dwords <= 104) return vgprName(code, dwords).replace('v', 's');
  if (gen >= Gen.GFX11 && code === nullCode(gen)) return 'null';
  return undefined;
}

function printDs(gen: Gen, inst: Instruction): string {
  const f = inst.fields;
  const def = inst.def;
  const plan = planOf(gen, inst);
  const order = plan.order;
  let ops = '';
  for (let i = 0; i < order.length; i++) {
    const t = vgprName(f[order[i]], plan.orderDwords[i]);
    ops = i > 0 ? ops + ', ' + t : t;
  }
  let mods = '';
  if (plan.offsets === 'swizzle') {
    const off = f.offset0 | (f.offset1 << 8);
    if (off) mods += ` offset:${swizzleText(off)}`;
  } else if (plan.offsets === 2) {
    if (f.offset0) mods += ` offset0:${f.offset0}`;
    if (f.offset1) mods += ` offset1:${f.offset1}`;
  } else {
    const off = f.offset0 | (f.offset1 << 8);
    if (off) mods += ` offset:${off}`;
  }
  if (f.gds) mods += ' gds';
  return join(def.name, ops, mods);
}

/** ds_swizzle_b32's offset as LLVM spells the swizzle pattern (AMD's QUAD_PERM / BITMASK_PERM modes). */
function swizzleText(off: number): string {
  if ((off & 0xff00) === 0x8000)
    return `swizzle(QUAD_PERM,${off & 3},${(off >> 2) & 3},${(off >> 4) & 3},${(off >> 6) & 3})`;
  if (off & 0x8000) return String(off);
  const and = off & 0x1f;
  const or = (off >> 5) & 0x1f;
  const xor = (off >> 10) & 0x1f;
  if (and === 0x1f && or === 0 && xor !== 0 && (xor & (xor - 1)) === 0) return `swizzle(SWAP,${xor})`;
  if (and === 0x1f && or === 0 && xor !== 0 && ((xor + 1) & xor) === 0) return `swizzle(REVERSE,${xor + 1})`;
  const group = 32 - and;
  if (xor === 0 && group > 1 && (group & (group - 1)) === 0 && or < group && (and & (group - 1)) === 0)
    return `swizzle(BROADCAST,${group},${or})`;
  let mask = '';
  for (let bit = 4; bit >= 0; bit--) {
    const a = (and >> bit) & 1;
    const o = (or >> bit) & 1;
    const x = (xor >> bit) & 1;
    mask += a && !o ? (x ? 'i' : 'p') : o ^ x ? '1' : '0';
  }
  return `swizzle(BITMASK_PERM,"${mask}")`;
}

/** The mnemonic, the operands (already joined with ", ") and the modifiers. */
function join(name: string, ops: string, mods: string): string {
  return ops ? name + ' ' + ops + mods : name + mods;
}

function mtbufFormatText(gen: Gen, f: Readonly<Record<string, number>>): string {
  if (gen <= Gen.GFX9) {
    if (f.dfmt === 1 && f.nfmt === 0) return '';
    const parts: string[] = [];
    if (f.dfmt !== 1) parts.push(BUF_DATA_FORMATS[f.dfmt]);
    if (f.nfmt !== 0) parts.push((gen === Gen.GFX7 ? BUF_NUM_FORMATS_GFX7 : BUF_NUM_FORMATS)[f.nfmt]);
    return ` format:[${parts.join(',')}]`;
  }
  if (f.format === 1) return '';
  const name = (gen >= Gen.GFX11 ? BUF_FORMATS_GFX11 : BUF_FORMATS_GFX10)[f.format];
  return name ? ` format:[${name}]` : ` format:${f.format}`;
}

function printBuffer(target: Target, inst: Instruction): string {
  const gen = target.gen;
  const f = inst.fields;
  const def = inst.def;
  const plan = planOf(gen, inst);
  const order = plan.order;
  if (!order.length) return def.name;
  const ldsDest = f.lds === 1 && plan.lds !== undefined;
  let ops = '';
  let count = 0;
  const add = (t: string): void => {
    ops = count++ === 0 ? t : ops + ', ' + t;
  };
  for (let i = 0; i < order.length; i++) {
    const field = order[i];
    if (field === 'vdata') {
      if (!ldsDest) add(vgprName(f.vdata, plan.vdataDwords + f.tfe));
    } else if (field === 'off') {
      const n = f.addr64 || (f.offen && f.idxen) ? 2 : f.offen || f.idxen ? 1 : 0;
      add(n ? vgprName(f.vaddr, n) : 'off');
    } else if (field === 'srsrc') add(scalarRange(gen, f.srsrc * 4, 4) ?? hex(f.srsrc));
    else if (field === 'soffset')
      add(inst.literal !== undefined ? hex(inst.literal) : (scalarSourceText(gen, f.soffset) ?? hex(f.soffset)));
  }
  let mods = def.family === 'MTBUF' ? mtbufFormatText(gen, f) : '';
  if (f.idxen) mods += ' idxen';
  if (f.offen) mods += ' offen';
  if (f.addr64) mods += ' addr64';
  if (f.offset) mods += ` offset:${f.offset}`;
  // An LDS-only instruction spells lds as part of its operands, before the cache bits.
  const ldsOnly = plan.lds === 'always';
  if (ldsOnly) mods += ' lds';
  mods += cacheBits(f);
  if (ldsDest && !ldsOnly) mods += ' lds';
  if (f.tfe) mods += ' tfe';
  return join(def.name, ops, mods);
}

function cacheBits(f: Readonly<Record<string, number>>): string {
  return (f.glc ? ' glc' : '') + (f.slc ? ' slc' : '') + (f.dlc ? ' dlc' : '');
}

/** The signed or unsigned byte offset a FLAT-family instruction's offset field holds. */
export function flatOffset(gen: Gen, family: Family, raw: number): number {
  // The flat segment's offset is unsigned; global and scratch offsets are signed, 13 bits on gfx9 and gfx11, 12 on gfx10.
  if (family === 'FLAT' || gen <= Gen.GFX8) return raw;
  return isGfx10(gen) ? (raw << 20) >> 20 : (raw << 19) >> 19;
}

function printFlat(target: Target, inst: Instruction): string {
  const gen = target.gen;
  const f = inst.fields;
  const def = inst.def;
  const off = saddrOffCode(gen);
  const hasSaddr = 'saddr' in f && f.saddr !== off && def.family !== 'FLAT';
  const plan = planOf(gen, inst);
  let ops = '';
  let count = 0;
  const add = (t: string): void => {
    ops = count++ === 0 ? t : ops + ', ' + t;
  };
  if (plan.rtn && f.glc) add(vgprName(f.vdst, Number(plan.rtn)));
  const order = plan.order;
  for (let i = 0; i < order.length; i++) {
    const field = order[i];
    // An LDS-destination load (gfx9/10 lds bit) writes no VGPR.
    if (field === 'vdst' && f.lds) continue;
    // A 64-bit saddr prints aligned down, as LLVM does (with an alignment warning).
    if (field === 'off') add(hasSaddr ? saddrText(gen, def, f) : 'off');
    else if (field === 'addr') add(flatAddrText(gen, def, f, hasSaddr));
    else add(vgprName(f[field], plan.orderDwords[i]));
  }
  let mods = '';
  const offset = 'offset' in f ? flatOffset(gen, def.family, f.offset) : 0;
  if (offset) mods += ` offset:${offset}`;
  mods += cacheBits(f);
  if (f.lds) mods += ' lds';
  return join(def.name, ops, mods);
}

/** A FLAT-family saddr operand that is present. */
function saddrText(gen: Gen, def: InstructionDef, f: Readonly<Record<string, number>>): string {
  // gfx10 spells exec_hi (0x7f) in saddr as `off` too, while still treating it as present.
  if (isGfx10(gen) && f.saddr === 0x7f) return 'off';
  if (f.saddr === nullCode(gen)) return 'null';
  return (def.family === 'GLOBAL' ? scalarRange(gen, f.saddr & ~1, 2) : scalarRange(gen, f.saddr, 1)) ?? hex(f.saddr);
}

function flatAddrText(gen: Gen, def: InstructionDef, f: Readonly<Record<string, number>>, hasSaddr: boolean): string {
  if (def.family === 'FLAT') return vgprName(f.addr, 2);
  if (def.family === 'GLOBAL') return vgprName(f.addr, hasSaddr ? 1 : 2);
  // Scratch: gfx11 says by SVE whether there is a VGPR address; earlier ones use it only without saddr.
  const used = gen >= Gen.GFX11 ? f.sve === 1 : !hasSaddr;
  return used ? vgprName(f.addr, 1) : 'off';
}

function printMem(target: Target, inst: Instruction): string {
  switch (inst.def.family) {
    case 'DS':
      return printDs(target.gen, inst);
    case 'MUBUF':
    case 'MTBUF':
      return printBuffer(target, inst);
    default:
      return printFlat(target, inst);
  }
}

export const codec: FamilyCodec = {
  families: ['DS', 'MUBUF', 'MTBUF', 'FLAT', 'GLOBAL', 'SCRATCH'],
  decode: decodeMem,
  print: printMem,
  assemble: assembleMemory,
};
