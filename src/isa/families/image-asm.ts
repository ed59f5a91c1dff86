/**
 * Assembler of the MIMG family: LLVM's image syntax (`image_sample v[0:3], v[4:5],
 * s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D`, NSA address lists `[v1, v2]`) to dwords,
 * with llvm-mc-19's checks of data and address sizes. Instruction facts come from the
 * registry; the field layout from image-layout.ts.
 */
import {
  parseBracketList,
  parseInteger,
  parseModifier,
  parseRegister,
  splitOperands,
  type RegisterRef,
} from '../asm-operands.ts';
import { AsmError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement } from '../instruction.ts';
import { allInstructions, lookupName } from '../registry/registry.ts';
import type { InstructionDef } from '../registry/types.ts';
import { DIM_NAMES, addressDwords, hasSampler, kindOf, vaddrClassDwords } from './image-addr.ts';
import { hasField, packFields } from './image-layout.ts';

let imageNames: Set<string> | undefined;

/** Mnemonics of image instructions of any generation (to tell "not on this GPU" from "not ours"). */
function isImageMnemonic(name: string): boolean {
  imageNames ??= new Set(
    allInstructions()
      .filter((d) => d.family === 'MIMG')
      .map((d) => d.name),
  );
  return imageNames.has(name);
}

const FLAG_MODIFIERS = ['unorm', 'glc', 'slc', 'dlc', 'r128', 'a16', 'tfe', 'lwe', 'da', 'd16'] as const;

interface Parsed {
  vdata: RegisterRef;
  /** Address registers: one contiguous range, or the NSA list. */
  vaddr: RegisterRef[];
  nsa: boolean;
  srsrc: RegisterRef;
  ssamp?: RegisterRef;
  fields: Record<string, number>;
  dimGiven: boolean;
}

function invalid(): AsmError {
  return new AsmError('invalid operand for instruction');
}

function register(text: string, gen: Gen, file: 'v' | 's'): RegisterRef {
  const r = parseRegister(text, gen);
  if (!r) throw new AsmError(text.startsWith('[') ? 'expected a register' : 'invalid operand for instruction');
  if (r.file !== file) throw invalid();
  return r;
}

function parseDim(value: string): number {
  const v = value.toUpperCase().replace(/^SQ_RSRC_IMG_/, '');
  const i = DIM_NAMES.indexOf(v as (typeof DIM_NAMES)[number]);
  if (i < 0) throw new AsmError('invalid dim value');
  return i;
}

function parseStatement(gen: Gen, def: InstructionDef, text: string): Parsed {
  const items = splitOperands(text);
  const ops = items.filter((i) => !i.modifier).map((i) => i.text);
  const mods = items.filter((i) => i.modifier).map((i) => i.text);
  const want = hasSampler(def) ? 4 : 3;
  if (ops.length < want) throw new AsmError('too few operands for instruction');
  if (ops.length > want) throw invalid();
  const vdata = register(ops[0], gen, 'v');
  let vaddr: RegisterRef[];
  let nsa = false;
  const list = parseBracketList(ops[1]);
  if (list) {
    if (gen < Gen.GFX10) throw invalid();
    if (!list.length) throw new AsmError('expected a register');
    vaddr = list.map((t) => register(t, gen, 'v'));
    nsa = vaddr.length > 1;
  } else vaddr = [register(ops[1], gen, 'v')];
  const srsrc = register(ops[2], gen, 's');
  const ssamp = want === 4 ? register(ops[3], gen, 's') : undefined;
  const fields: Record<string, number> = { op: def.op[gen] };
  let dimGiven = false;
  for (const text of mods) {
    const m = parseModifier(text);
    if (m.name === 'dmask') {
      const v = m.value === undefined ? undefined : parseInteger(m.value);
      if (v === undefined || v < 0 || v > 0xffff) throw invalid();
      fields.dmask = v & 0xf;
    } else if (m.name === 'dim') {
      if (gen < Gen.GFX10 || m.value === undefined) throw invalid();
      fields.dim = parseDim(m.value);
      dimGiven = true;
    } else {
      const flag = m.value === undefined ? flagOf(m.name) : undefined;
      if (!flag) throw invalid();
      checkModifierSupported(gen, flag);
      fields[flag] = m.name === flag ? 1 : 0; // `noglc` clears what `glc` sets
    }
  }
  return { vdata, vaddr, nsa, srsrc, ssamp, fields, dimGiven };
}

/** The flag a modifier sets or (with `no`) clears. */
function flagOf(name: string): string | undefined {
  if ((FLAG_MODIFIERS as readonly string[]).includes(name)) return name;
  if (name.startsWith('no') && (FLAG_MODIFIERS as readonly string[]).includes(name.slice(2))) return name.slice(2);
  return undefined;
}

function checkModifierSupported(gen: Gen, flag: string): void {
  if (hasField(gen, flag)) return;
  if (flag === 'a16' || flag === 'd16' || flag === 'r128')
    throw new AsmError(`${flag} modifier is not supported on this GPU`);
  throw invalid();
}

function popcount(v: number): number {
  let n = 0;
  for (let x = v; x; x &= x - 1) n++;
  return n;
}

/** LLVM's dmask rules for atomics and gather4. */
function checkDmask(gen: Gen, def: InstructionDef, f: Readonly<Record<string, number>>): void {
  const dmask = f.dmask ?? 0;
  const kind = kindOf(def);
  if (kind === 'atomic') {
    const mul = Number(def.flags?.dataMul ?? 1);
    if (dmask !== (mul === 2 ? 0x3 : 0x1) && dmask !== (mul === 2 ? 0xf : 0x3))
      throw new AsmError('invalid atomic image dmask');
  }
  if (((Number(def.flags?.vdata4 ?? 0) >> gen) & 1) === 1 && popcount(dmask) !== 1 && kind !== 'bvh')
    throw new AsmError('invalid image_gather dmask: only one bit must be set');
}

/** vdata dwords the modifiers require. */
function expectedData(gen: Gen, def: InstructionDef, f: Readonly<Record<string, number>>): number {
  if (kindOf(def) === 'bvh') return 4;
  const always4 = ((Number(def.flags?.vdata4 ?? 0) >> gen) & 1) === 1;
  let n = always4 ? 4 : Math.max(popcount(f.dmask ?? 0), 1);
  if (f.d16 && gen >= Gen.GFX9) n = (n + 1) >> 1;
  return n + (f.tfe ? 1 : 0);
}

function checkData(gen: Gen, def: InstructionDef, p: Parsed): void {
  const f = p.fields;
  if (f.d16 && (Number(def.flags?.noD16 ?? 0) >> gen) & 1) throw invalid();
  checkDmask(gen, def, f);
  if (p.vdata.dwords !== expectedData(gen, def, f))
    throw new AsmError(
      gen >= Gen.GFX9
        ? 'image data size does not match dmask, d16 and tfe'
        : 'image data size does not match dmask and tfe',
    );
}

/**
 * gfx7-9 take any vaddr range an instruction variant has (LLVM does not check it against
 * the image); the table lists those sizes (`gcnAddrSizes`, bit n-1 for n dwords).
 */
function checkGcnAddress(def: InstructionDef, p: Parsed): void {
  const sizes = Number(def.flags?.gcnAddrSizes ?? 0xf);
  if (!((sizes >> (p.vaddr[0].dwords - 1)) & 1)) throw invalid();
}

/** gfx10+: the address registers must be exactly what dim and a16 need. */
function checkRdnaAddress(gen: Gen, def: InstructionDef, p: Parsed): void {
  const f = p.fields;
  const bvh = kindOf(def) === 'bvh';
  if (!bvh && !p.dimGiven) throw new AsmError('operands are not valid for this GPU or mode');
  if (kindOf(def) === 'msaa' && (f.dim ?? 0) < 6) throw new AsmError('invalid dim; must be MSAA type');
  const need = addressDwords(def, gen, f.dim ?? 0, f.a16 === 1);
  const msg = bvh ? 'image address size does not match a16' : 'image address size does not match dim and a16';
  if (!p.nsa) {
    const n = p.vaddr[0].dwords;
    // LLVM still takes eight registers where 5-7 are needed (from before it had those classes).
    if (n !== vaddrClassDwords(need) && !(n === 8 && need >= 5 && need <= 7)) throw new AsmError(msg);
    return;
  }
  if (gen === Gen.GFX11) {
    if (p.vaddr.length > 5) throw new AsmError('not a valid operand.');
    const total = p.vaddr.reduce((s, r) => s + r.dwords, 0);
    const singlesOk = bvh || p.vaddr.slice(0, -1).every((r) => r.dwords === 1);
    if (!singlesOk || total !== need) throw new AsmError(msg);
    return;
  }
  if (p.vaddr.some((r) => r.dwords !== 1)) throw invalid();
  if (p.vaddr.length !== need) throw new AsmError(msg);
}

function checkDescriptors(def: InstructionDef, p: Parsed): void {
  if (p.srsrc.dwords !== (kindOf(def) === 'bvh' ? 4 : 8)) throw invalid();
  if (p.ssamp && p.ssamp.dwords !== 4) throw invalid();
  // Descriptor tuples start at a multiple of four.
  if (p.srsrc.code % 4 !== 0 || (p.ssamp && p.ssamp.code % 4 !== 0)) throw invalid();
}

function encode(gen: Gen, def: InstructionDef, p: Parsed): number[] {
  const f: Record<string, number> = { ...p.fields };
  f.vdata = p.vdata.code;
  f.vaddr = p.vaddr[0].code;
  f.srsrc = p.srsrc.code >> 2;
  f.ssamp = p.ssamp ? p.ssamp.code >> 2 : 0;
  if (kindOf(def) === 'bvh') {
    // BVH forms fix dmask, unorm and r128.
    f.dmask = 0xf;
    f.unorm = 1;
    f.r128 = 1;
  }
  const extra = p.nsa ? p.vaddr.slice(1).map((r) => r.code) : [];
  const nsaWords = gen === Gen.GFX11 ? (p.nsa ? 1 : 0) : Math.ceil(extra.length / 4);
  if (p.nsa) f.nsa = gen === Gen.GFX11 ? 1 : nsaWords;
  const words = packFields(gen, f);
  const out = [words[0], words[1]];
  for (let w = 0; w < nsaWords; w++) {
    let v = 0;
    for (let b = 0; b < 4; b++) v |= (extra[4 * w + b] ?? 0) << (8 * b);
    out.push(v >>> 0);
  }
  return out;
}

export function assembleImage(target: Target, stmt: AsmStatement): number[] | undefined {
  const gen = target.gen;
  const def = lookupName(gen, stmt.mnemonic).find((d) => d.family === 'MIMG');
  if (!def) {
    if (isImageMnemonic(stmt.mnemonic)) throw new AsmError('instruction not supported on this GPU', stmt.line);
    return undefined;
  }
  try {
    const p = parseStatement(gen, def, stmt.operandText);
    checkDescriptors(def, p);
    checkData(gen, def, p);
    if (gen >= Gen.GFX10) checkRdnaAddress(gen, def, p);
    else checkGcnAddress(def, p);
    return encode(gen, def, p);
  } catch (e) {
    if (e instanceof AsmError && !e.line && stmt.line) throw new AsmError(e.reason, stmt.line);
    throw e;
  }
}
