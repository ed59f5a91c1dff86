/**
 * Assembler of the memory families (DS, MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH): LLVM syntax to
 * dwords. The registry says which operands an instruction takes (`flags.order`, widths);
 * this file reads the per-family modifiers and packs the fields with memory-layout.ts.
 */
import { AsmError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement } from '../instruction.ts';
import { lookupName } from '../registry/registry.ts';
import { Attr, type Family, type InstructionDef } from '../registry/types.ts';
import {
  inlineFloatCode,
  inlineIntegerCode,
  namedSourceCode,
  parseBracketList,
  parseFloatLiteral,
  parseInteger,
  parseModifier,
  parseRegister,
  splitOperands,
  type RegisterRef,
} from '../asm-operands.ts';
import { nullCode } from '../operands.ts';
import {
  BUF_DATA_FORMATS,
  BUF_FORMATS_GFX10,
  BUF_FORMATS_GFX11,
  BUF_NUM_FORMATS,
  BUF_NUM_FORMATS_GFX7,
  LEGACY_TO_UNIFIED_GFX10,
  LEGACY_TO_UNIFIED_GFX11,
  MNEMONIC_ALIASES,
} from '../registry/generated/memory.ts';
import { dwordsOf, hasField, layoutOf, orderOf, packFields, saddrOffCode, type MemFamily } from './memory-layout.ts';

const MEMORY_FAMILIES: ReadonlySet<Family> = new Set(['DS', 'MUBUF', 'MTBUF', 'FLAT', 'GLOBAL', 'SCRATCH']);

let aliasIndex: Map<string, string> | undefined;

/** The memory instruction a mnemonic names in a generation, accepting LLVM's other-generation aliases. */
function resolveDef(gen: Gen, mnemonic: string): InstructionDef | undefined {
  const own = lookupName(gen, mnemonic).find((d) => MEMORY_FAMILIES.has(d.family));
  if (own) return own;
  if (!aliasIndex) {
    aliasIndex = new Map();
    for (const [g, alias, canon] of MNEMONIC_ALIASES) aliasIndex.set(`${g}:${alias}`, canon);
  }
  const canon = aliasIndex.get(`${gen}:${mnemonic}`);
  return canon ? lookupName(gen, canon).find((d) => MEMORY_FAMILIES.has(d.family)) : undefined;
}

function bad(reason = 'invalid operand for instruction'): never {
  throw new AsmError(reason);
}

const BARE_MODIFIER = /^(glc|slc|dlc|lds|tfe|gds|offen|idxen|addr64|nv|sc0|sc1|nt|offset)$/i;

/**
 * Operands and modifiers of a statement. LLVM's AMDGPU parser tells them apart by their
 * look, not their place: modifiers may come between operands (`s[4:7], dfmt:15, nfmt:2,
 * s1`, `s[0:3] format:127 0 idxen`) and a comma between operands may be left out.
 */
function split(text: string): { ops: string[]; mods: Map<string, string | undefined> } {
  if (/,\s*,/.test(text)) bad('unknown token in expression');
  const ops: string[] = [];
  const mods = new Map<string, string | undefined>();
  for (const item of splitOperands(text)) {
    const t = item.text.trim();
    const isMod = /^[a-z_][a-z_0-9]*:/i.test(t) || BARE_MODIFIER.test(t);
    if (!isMod) {
      ops.push(t);
      continue;
    }
    const m = parseModifier(t);
    // LLVM still reads the old spelling of FLAT offsets.
    const name = m.name === 'inst_offset' ? 'offset' : m.name;
    if (mods.has(name)) bad('not a valid operand.');
    mods.set(name, m.value?.trim());
  }
  return { ops, mods };
}

/**
 * Integer value of an absolute expression as LLVM's parser folds them (`-1+1`,
 * `(2 + 3 * 16)`, `63/8+1`): + - * / % and parentheses over integers.
 */
export function evalIntExpr(text: string): number | undefined {
  const toks = text.match(/0x[0-9a-f]+|0b[01]+|\d+|[-+*/%()]|\S/gi) ?? [];
  let i = 0;
  const atom = (): number | undefined => {
    const t = toks[i++];
    if (t === '-') {
      const v = atom();
      return v === undefined ? undefined : -v;
    }
    if (t === '(') {
      const v = sum();
      return toks[i++] === ')' ? v : undefined;
    }
    return t === undefined ? undefined : parseInteger(t);
  };
  const product = (): number | undefined => {
    let v = atom();
    while (v !== undefined && (toks[i] === '*' || toks[i] === '/' || toks[i] === '%')) {
      const op = toks[i++];
      const r = atom();
      if (r === undefined || (op !== '*' && r === 0)) return undefined;
      v = op === '*' ? v * r : op === '/' ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    while (v !== undefined && (toks[i] === '+' || toks[i] === '-')) {
      const op = toks[i++];
      const r = product();
      if (r === undefined) return undefined;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const v = sum();
  return i === toks.length ? v : undefined;
}

/**
 * A register operand, also in the spellings LLVM folds: index expressions (`v[8/2+4:11]`)
 * and lists of consecutive registers (`[v1,v2,v3]`, `[ttmp4,ttmp5]`).
 */
function register(text: string, gen: Gen): RegisterRef | undefined {
  const t = text.replace(/\s+/g, '');
  const list = /^\[(.*)\]$/.exec(t);
  if (list) {
    const regs = list[1].split(',').map((x) => register(x, gen));
    if (
      !regs.length ||
      regs.some((r, k) => !r || r.dwords !== 1 || r.file !== regs[0]!.file || r.code !== regs[0]!.code + k)
    )
      return undefined;
    return { file: regs[0]!.file, code: regs[0]!.code, dwords: regs.length };
  }
  const m = /^(v|s|a|ttmp)\[([^:\]]+)(?::([^\]]+))?\]$/.exec(t);
  if (m && !/^\d+$/.test(m[2] + (m[3] ?? ''))) {
    const lo = evalIntExpr(m[2]);
    const hi = m[3] === undefined ? lo : evalIntExpr(m[3]);
    if (lo === undefined || hi === undefined) return undefined;
    return parseRegister(`${m[1]}[${lo}:${hi}]`, gen);
  }
  return parseRegister(t, gen);
}

function vgpr(text: string | undefined, gen: Gen, dwords: number): number {
  if (text === undefined) bad('too few operands for instruction');
  const r = register(text, gen);
  if (!r || r.file !== 'v' || r.dwords !== dwords) bad();
  return r.code;
}

function sreg(text: string | undefined, gen: Gen): RegisterRef | undefined {
  if (text === undefined) bad('too few operands for instruction');
  return register(text, gen);
}

function intValue(text: string | undefined, what: string): number {
  const v = text === undefined ? undefined : evalIntExpr(text);
  if (v === undefined) bad(`expected ${what}`);
  return v;
}

/** Takes a bare flag modifier (glc, slc, …) if the generation has its bit. */
function flag(mods: Map<string, string | undefined>, name: string, available: boolean): number {
  if (!mods.has(name)) return 0;
  if (mods.get(name) !== undefined) bad();
  if (!available) bad(`${name} modifier is not supported on this GPU`);
  mods.delete(name);
  return 1;
}

/** Takes a `name:value` modifier's value (undefined when absent; a bare `name` is an error). */
function take(mods: Map<string, string | undefined>, name: string): string | undefined {
  if (!mods.has(name)) return undefined;
  const v = mods.get(name);
  if (v === undefined) bad(`expected a colon after ${name}`);
  mods.delete(name);
  return v;
}

// ---------------------------------------------------------------------------------------
// DS.

function assembleDs(
  gen: Gen,
  def: InstructionDef,
  ops: string[],
  mods: Map<string, string | undefined>,
): Record<string, number> {
  const order = orderOf(def);
  if (ops.length !== order.length)
    bad(ops.length > order.length ? 'invalid operand for instruction' : 'too few operands for instruction');
  const f: Record<string, number> = { op: def.op[gen] };
  order.forEach((field, i) => (f[field] = vgpr(ops[i], gen, dwordsOf(def, field))));
  const kind = def.flags?.offsets;
  if (kind === 2) {
    if (mods.has('offset')) bad();
    f.offset0 = byteOffset(take(mods, 'offset0'));
    f.offset1 = byteOffset(take(mods, 'offset1'));
  } else if (kind === 1 || kind === 'swizzle') {
    const text = take(mods, 'offset');
    const v =
      text === undefined
        ? 0
        : kind === 'swizzle' && text.startsWith('swizzle(')
          ? swizzleOffset(text)
          : intValue(text, 'an absolute expression');
    if (v < 0 || v > 0xffff) bad('expected a 16-bit offset');
    f.offset0 = v & 0xff;
    f.offset1 = v >> 8;
  }
  f.gds = flag(mods, 'gds', true);
  const gds = def.flags?.gds;
  if (gds === 'always' && !f.gds) bad('missing gds');
  if (gds === 'never' && f.gds) bad('gds modifier is not supported on this GPU');
  return f;
}

function byteOffset(text: string | undefined): number {
  if (text === undefined) return 0;
  const v = intValue(text, 'an absolute expression');
  if (v < 0 || v > 255) bad('expected an 8-bit unsigned offset');
  return v;
}

/** Encodes ds_swizzle_b32's `swizzle(MODE,…)` offset (AMD's QUAD_PERM and BITMASK_PERM modes). */
function swizzleOffset(text: string): number {
  const m = /^swizzle\((.*)\)$/.exec(text.replace(/\s+/g, ''));
  if (!m) bad('expected a swizzle mode');
  const [mode, ...args] = m[1].split(',');
  const nums = (): number[] => args.map((a) => intValue(a, 'an absolute expression'));
  switch (mode) {
    case 'QUAD_PERM': {
      const l = nums();
      if (l.length !== 4 || l.some((x) => x < 0 || x > 3)) bad('expected a 2-bit lane id');
      return 0x8000 | l[0] | (l[1] << 2) | (l[2] << 4) | (l[3] << 6);
    }
    case 'BITMASK_PERM': {
      const mask = /^"([01pi]{5})"$/.exec(args[0] ?? '')?.[1];
      if (!mask || args.length !== 1) bad('expected a 5-character mask');
      let and = 0;
      let or = 0;
      let xor = 0;
      for (let i = 0; i < 5; i++) {
        const bit = 1 << (4 - i);
        const c = mask[i];
        if (c === '1') or |= bit;
        else if (c === 'p') and |= bit;
        else if (c === 'i') {
          and |= bit;
          xor |= bit;
        }
      }
      return and | (or << 5) | (xor << 10);
    }
    case 'SWAP': {
      const [n] = nums();
      if (args.length !== 1 || n < 1 || n > 16 || n & (n - 1)) bad('expected a power of two between 1 and 16');
      return 0x1f | (n << 10);
    }
    case 'REVERSE': {
      const [n] = nums();
      if (args.length !== 1 || n < 2 || n > 32 || n & (n - 1)) bad('expected a power of two between 2 and 32');
      return 0x1f | ((n - 1) << 10);
    }
    case 'BROADCAST': {
      const [g, lane] = nums();
      if (args.length !== 2 || g < 2 || g > 32 || g & (g - 1)) bad('expected a power of two between 2 and 32');
      if (lane < 0 || lane >= g) bad('lane id must be in the interval [0,group size - 1]');
      return (32 - g) | (lane << 5);
    }
  }
  bad('expected a swizzle mode');
}

// ---------------------------------------------------------------------------------------
// MUBUF / MTBUF.

/** An 8-bit scalar source (soffset). */
function scalarSource(gen: Gen, text: string | undefined): { code: number } {
  if (text === undefined) bad('too few operands for instruction');
  // LLVM prints null (gfx8/9) and src_vccz/src_execz (gfx11) as soffset but its assembler refuses them.
  if ((gen <= Gen.GFX9 && text === 'null') || (gen >= Gen.GFX11 && (text === 'src_vccz' || text === 'src_execz')))
    bad();
  const r = register(text, gen);
  if (r) {
    if (r.file !== 's' || r.dwords !== 1) bad();
    return { code: r.code };
  }
  const named = namedSourceCode(text, gen);
  // src_lds_direct prints as an soffset but LLVM's assembler rejects it there.
  if (named !== undefined && text !== 'src_lds_direct') return { code: named };
  const i = parseInteger(text);
  if (i !== undefined) {
    const c = inlineIntegerCode(i);
    if (c !== undefined) return { code: c };
    // gfx11 decodes a literal soffset, but LLVM's assembler takes none.
    bad();
  }
  // 1/(2π) as the printer spells it (8 digits) is the inline constant too.
  if (text === '0.15915494' && gen >= Gen.GFX8) return { code: 248 };
  const fl = parseFloatLiteral(text);
  if (fl !== undefined) {
    const c = inlineFloatCode(fl, gen);
    if (c !== undefined) return { code: c };
  }
  bad();
}

function srsrcField(gen: Gen, text: string | undefined): number {
  // LLVM prints a null srsrc (gfx11) but its assembler rejects one.
  const r = sreg(text, gen);
  if (!r || r.file !== 's' || r.dwords !== 4 || r.code & 3) bad();
  return r.code >> 2;
}

function assembleBuffer(
  gen: Gen,
  def: InstructionDef,
  ops: string[],
  mods: Map<string, string | undefined>,
): Record<string, number> {
  const layout = layoutOf(def.family as MemFamily, gen);
  const f: Record<string, number> = { op: def.op[gen] };
  if (!orderOf(def).length) {
    if (ops.length) bad();
    return f;
  }
  checkAddressingOrder(mods);
  f.idxen = flag(mods, 'idxen', true);
  f.offen = flag(mods, 'offen', true);
  f.addr64 = flag(mods, 'addr64', hasField(layout, 'addr64'));
  f.glc = flag(mods, 'glc', true);
  f.slc = flag(mods, 'slc', true);
  f.dlc = flag(mods, 'dlc', hasField(layout, 'dlc'));
  f.tfe = flag(mods, 'tfe', true);
  f.lds = flag(mods, 'lds', def.flags?.lds !== undefined);
  if (def.flags?.lds === 'always' && !f.lds) bad('missing lds');
  // The decoder reads tfe on stores, but LLVM's assembler rejects it there.
  if (f.tfe && (def.flags?.tfe === false || f.lds || (def.attrs & Attr.MemLoad) === 0)) bad();
  if (f.addr64 && (f.offen || f.idxen)) bad();
  const offset = take(mods, 'offset');
  f.offset = offset === undefined ? 0 : intValue(offset, 'an absolute expression');
  if (f.offset < 0 || f.offset > 4095) bad('expected a 12-bit unsigned offset');
  const order = orderOf(def).filter((x) => !(x === 'vdata' && f.lds && def.flags?.lds === true));
  if (ops.length !== order.length)
    bad(ops.length > order.length ? 'invalid operand for instruction' : 'too few operands for instruction');
  order.forEach((field, i) => {
    const t = ops[i];
    if (field === 'vdata') f.vdata = vgpr(t, gen, dwordsOf(def, 'vdata') + f.tfe);
    else if (field === 'off') {
      const n = f.addr64 || (f.offen && f.idxen) ? 2 : f.offen || f.idxen ? 1 : 0;
      if (n === 0) {
        if (t !== 'off') bad();
      } else f.vaddr = vgpr(t, gen, n);
    } else if (field === 'srsrc') f.srsrc = srsrcField(gen, t);
    else if (field === 'soffset') f.soffset = scalarSource(gen, t).code;
  });
  if (def.family === 'MTBUF') {
    Object.assign(f, mtbufFormat(gen, mods));
    if (gen === Gen.GFX10 || gen === Gen.GFX10_3) {
      f.op_hi = f.op >> 3;
      f.op &= 7;
    }
  }
  return f;
}

/**
 * LLVM spells the addressing mode as part of the instruction (its idxen/offen/bothen/addr64
 * variants): those words come first among the modifiers (after MTBUF's format), idxen
 * before offen.
 */
function checkAddressingOrder(mods: ReadonlyMap<string, string | undefined>): void {
  const addressing = ['idxen', 'offen', 'addr64'];
  const names = [...mods.keys()].filter((k) => k !== 'format' && k !== 'dfmt' && k !== 'nfmt');
  const used = addressing.filter((a) => mods.has(a));
  if (used.some((a, i) => names[i] !== a)) bad();
}

/** MTBUF's format from `format:[…]`, `format:N`, or `dfmt:`/`nfmt:` modifiers. */
function mtbufFormat(gen: Gen, mods: Map<string, string | undefined>): Record<string, number> {
  let dfmt: number | undefined;
  let nfmt: number | undefined;
  let unified: number | undefined;
  const fmt = take(mods, 'format');
  const numFormats = gen === Gen.GFX7 ? BUF_NUM_FORMATS_GFX7 : BUF_NUM_FORMATS;
  const unifiedNames = gen >= Gen.GFX11 ? BUF_FORMATS_GFX11 : BUF_FORMATS_GFX10;
  if (fmt !== undefined) {
    const list = parseBracketList(fmt.replace(/\s+/g, ''));
    if (list) {
      if (!list.length || list.length > 2) bad('expected a closing square bracket');
      for (const name of list) {
        const d = BUF_DATA_FORMATS.indexOf(name);
        const n = numFormats.indexOf(name);
        const u = gen >= Gen.GFX10 ? unifiedNames.indexOf(name) : -1;
        if (d >= 0 && dfmt === undefined && unified === undefined) dfmt = d;
        else if (n >= 0 && nfmt === undefined && unified === undefined) nfmt = n;
        else if (u >= 0 && list.length === 1) unified = u;
        else bad('unsupported format');
      }
    } else {
      const v = intValue(fmt, 'an absolute expression');
      if (v < 0 || v > 127) bad('out of range format');
      if (gen >= Gen.GFX10) unified = v;
      else {
        dfmt = v & 15;
        nfmt = v >> 4;
      }
    }
  }
  const d = take(mods, 'dfmt');
  const n = take(mods, 'nfmt');
  if ((d !== undefined || n !== undefined) && fmt !== undefined) bad();
  if (d !== undefined) {
    dfmt = intValue(d, 'an absolute expression');
    if (dfmt < 0 || dfmt > 15) bad('out of range dfmt');
  }
  if (n !== undefined) {
    nfmt = intValue(n, 'an absolute expression');
    if (nfmt < 0 || nfmt > 7) bad('out of range nfmt');
  }
  if (gen <= Gen.GFX9) return { dfmt: dfmt ?? 1, nfmt: nfmt ?? 0 };
  if (unified !== undefined) return { format: unified };
  if (dfmt === undefined && nfmt === undefined) return { format: 1 };
  const u = (gen >= Gen.GFX11 ? LEGACY_TO_UNIFIED_GFX11 : LEGACY_TO_UNIFIED_GFX10)[(dfmt ?? 1) * 8 + (nfmt ?? 0)];
  if (u === undefined || u < 0) bad('unsupported format');
  return { format: u };
}

// ---------------------------------------------------------------------------------------
// FLAT / GLOBAL / SCRATCH.

function flatOffsetRange(gen: Gen, family: Family): [number, number] {
  if (gen <= Gen.GFX8) return [0, 0];
  if (family === 'FLAT') return gen === Gen.GFX10 || gen === Gen.GFX10_3 ? [0, 2047] : [0, 4095];
  return gen === Gen.GFX10 || gen === Gen.GFX10_3 ? [-2048, 2047] : [-4096, 4095];
}

function assembleFlat(
  gen: Gen,
  def: InstructionDef,
  ops: string[],
  mods: Map<string, string | undefined>,
): Record<string, number> {
  const layout = layoutOf('FLAT', gen);
  const fam = def.family;
  const f: Record<string, number> = { op: def.op[gen], seg: fam === 'FLAT' ? 0 : fam === 'SCRATCH' ? 1 : 2 };
  f.glc = flag(mods, 'glc', true);
  f.slc = flag(mods, 'slc', true);
  f.dlc = flag(mods, 'dlc', hasField(layout, 'dlc'));
  f.lds = flag(mods, 'lds', def.flags?.lds === true);
  const offText = take(mods, 'offset');
  const offset = offText === undefined ? 0 : intValue(offText, 'an absolute expression');
  const [lo, hi] = flatOffsetRange(gen, fam);
  if (offset < lo || offset > hi) {
    if (gen <= Gen.GFX8) bad('flat offset modifier is not supported on this GPU');
    bad(
      lo < 0
        ? `expected a ${gen === Gen.GFX10 || gen === Gen.GFX10_3 ? 12 : 13}-bit signed offset`
        : `expected a ${hi === 2047 ? 11 : 12}-bit unsigned offset`,
    );
  }
  f.offset = offset & ((1 << 13) - 1);
  const order = orderOf(def).filter((x) => !(x === 'vdst' && f.lds));
  const rtn = def.flags?.rtn;
  if (rtn !== undefined && ops.length === order.length + 1) {
    if (!f.glc) bad('instruction must use glc');
    f.vdst = vgpr(ops[0], gen, Number(rtn));
    ops = ops.slice(1);
  } else if (rtn !== undefined && f.glc) bad('instruction must not use glc');
  if (ops.length !== order.length)
    bad(ops.length > order.length ? 'invalid operand for instruction' : 'too few operands for instruction');
  // The saddr slot decides the address width, so read it first.
  const si = order.indexOf('off');
  const saddrText = si >= 0 ? ops[si] : undefined;
  const off = saddrOffCode(gen);
  const hasSaddr = saddrText !== undefined && saddrText !== 'off' && !(gen >= Gen.GFX10 && saddrText === 'null');
  if (fam === 'FLAT') f.saddr = gen === Gen.GFX9 ? 0 : off;
  else if (!hasSaddr) f.saddr = off;
  else {
    const r = sreg(saddrText, gen);
    // exec_hi shares its code with gfx9's `off`, and gfx10 rejects it as saddr.
    if (
      !r ||
      r.file !== 's' ||
      r.dwords !== (fam === 'GLOBAL' ? 2 : 1) ||
      r.code === 0x7f ||
      (gen === Gen.GFX9 && r.code === nullCode(gen))
    )
      bad();
    f.saddr = r.code;
  }
  order.forEach((field, i) => {
    const t = ops[i];
    if (field === 'off') return;
    if (field === 'addr') {
      if (fam === 'SCRATCH') {
        if (t === 'off') {
          // No address at all: gfx10 marks it with exec_hi's code in saddr, gfx11 with sve = 0; gfx9 has no such mode.
          if (!hasSaddr && (gen === Gen.GFX9 || gen === Gen.GFX10)) bad();
          if (!hasSaddr && gen < Gen.GFX11) f.saddr = 0x7f;
          f.addr = 0;
        } else {
          if (hasSaddr && gen < Gen.GFX11) bad();
          f.addr = vgpr(t, gen, 1);
          if (gen >= Gen.GFX11) f.sve = 1;
        }
      } else f.addr = vgpr(t, gen, fam === 'GLOBAL' && hasSaddr ? 1 : 2);
    } else f[field] = vgpr(t, gen, dwordsOf(def, field));
  });
  return f;
}

// ---------------------------------------------------------------------------------------

/** Assembles a memory-family statement, or returns undefined when the mnemonic is not one. */
export function assembleMemory(
  target: Target,
  stmt: AsmStatement,
  _resolveLabel: (name: string) => number | undefined,
): number[] | undefined {
  const gen = target.gen;
  const def = resolveDef(gen, stmt.mnemonic);
  if (!def) return undefined;
  try {
    const { ops, mods } = split(stmt.operandText);
    let fields: Record<string, number>;
    let family: MemFamily;
    if (def.family === 'DS') {
      fields = assembleDs(gen, def, ops, mods);
      family = 'DS';
    } else if (def.family === 'MUBUF' || def.family === 'MTBUF') {
      fields = assembleBuffer(gen, def, ops, mods);
      family = def.family;
    } else {
      fields = assembleFlat(gen, def, ops, mods);
      family = 'FLAT';
    }
    if (mods.size) bad(`invalid modifier ${[...mods.keys()][0]}`);
    return packFields(family, layoutOf(family, gen), fields);
  } catch (e) {
    if (e instanceof AsmError) throw new AsmError(e.reason, stmt.line);
    throw e;
  }
}
