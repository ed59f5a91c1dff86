/**
 * The scalar families' assembler: LLVM syntax to dwords for SOP1, SOP2, SOPK, SOPC, SOPP
 * and SMEM/SMRD. The instruction (and so its operands and immediate style) comes from the
 * registry by name; this file reads the operand syntax and packs the fields per family
 * and generation.
 */
import { AsmError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement } from '../instruction.ts';
import { lookupName } from '../registry/registry.ts';
import type { InstructionDef, OperandDef } from '../registry/types.ts';
import { m0Code, nullCode, SRC_LITERAL } from '../operands.ts';
import { ALIASES } from '../registry/generated/scalar.ts';
import {
  f32Bits,
  inlineCodeForBits,
  inlineFloatCode,
  inlineIntegerCode,
  namedSourceCode,
  parseFloatLiteral,
  parseInteger,
  parseModifier,
  parseRegister,
  splitOperands,
  unwrapLit,
} from '../asm-operands.ts';
import {
  DELAY_INST_IDS,
  DELAY_SKIPS,
  DEPCTR_FIELDS,
  GPR_IDX_MODES,
  hwregName,
  sendmsgSymbols,
  UC_VERSION_FLAGS,
  UC_VERSIONS,
  waitcntLayout,
  type ImmStyle,
} from './scalar-syms.ts';

const SCALAR = new Set(['SOP1', 'SOP2', 'SOPK', 'SOPC', 'SOPP', 'SMEM']);
const BAD = 'invalid operand for instruction';

interface Encoded {
  fields: Record<string, number>;
  literal?: number;
}

function fail(msg: string, stmt: AsmStatement): never {
  throw new AsmError(msg, stmt.line);
}

/** A scalar register operand of exactly `dwords` dwords. */
function scalarReg(gen: Gen, text: string, dwords: number, stmt: AsmStatement): number {
  // null stands for a register range of any width.
  if (text === 'null' && gen >= Gen.GFX10) return nullCode(gen);
  const r = parseRegister(text, gen);
  if (!r || r.file !== 's') fail(BAD, stmt);
  if (r.dwords !== dwords) fail(BAD, stmt);
  if (dwords > 1 && r.code < 106 && r.code % (dwords >= 4 ? 4 : 2) !== 0) fail('invalid register alignment', stmt);
  return r.code;
}

/** An 8-bit scalar source: register, inline constant, named source or 32-bit literal. */
function scalarSource(gen: Gen, text: string, o: OperandDef, enc: Encoded, stmt: AsmStatement): number {
  if (text === 'null' && gen >= Gen.GFX10) return nullCode(gen);
  const r = parseRegister(text, gen);
  if (r) {
    if (r.file !== 's' || r.dwords !== o.dwords) fail(BAD, stmt);
    // Sources are aligned as destinations are (llvm-mc-19: `s_xor_b64 s[30:31], s[3:4], s[15:16]` is refused).
    if (r.dwords > 1 && r.code < 106 && r.code % (r.dwords >= 4 ? 4 : 2) !== 0)
      fail('invalid register alignment', stmt);
    return r.code;
  }
  if (o.cls === 's') fail(BAD, stmt);
  const lit = unwrapLit(text);
  // `lit(...)` marks a literal; llvm-mc-19 still encodes an inline value inline for SALU.
  if (lit !== undefined) return scalarSource(gen, lit, { ...o, cls: 'imm' }, enc, stmt);
  const named = namedSourceCode(text, gen);
  // gfx11 SALU takes no vccz/execz sources (src_scc it does); no SALU takes lds_direct.
  if (named !== undefined && named !== 254 && !(gen >= Gen.GFX11 && (named === 251 || named === 252))) return named;
  if (named !== undefined)
    fail(gen >= Gen.GFX11 && named !== 254 ? 'execz and vccz are not supported on this GPU' : BAD, stmt);
  const i = parseInteger(text);
  if (i !== undefined) {
    const c = inlineIntegerCode(i);
    if (c !== undefined) return c;
    if (i < -0x80000000 || i > 0xffffffff) fail(BAD, stmt);
    return literal(gen, i >>> 0, enc, stmt);
  }
  const f = parseFloatLiteral(text);
  if (f !== undefined) {
    if (f === 0 && !Object.is(f, -0)) return inlineIntegerCode(0) as number;
    const c = inlineFloatCode(f, gen);
    if (c !== undefined) return c;
    if (o.dwords === 2) fail(BAD, stmt);
    const bits = f32Bits(f);
    return inlineCodeForBits(bits, 32, gen) ?? literal(gen, bits, enc, stmt);
  }
  fail(BAD, stmt);
}

function literal(gen: Gen, value: number, enc: Encoded, stmt: AsmStatement): number {
  if (enc.literal !== undefined && enc.literal !== value)
    fail(gen >= Gen.GFX10 ? 'only one unique literal operand is allowed' : 'only one literal operand is allowed', stmt);
  enc.literal = value;
  return SRC_LITERAL;
}

// ---- symbolic immediates ----

function parseCallArgs(text: string, name: string): string[] | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t.startsWith(`${name}(`) || !t.endsWith(')')) return undefined;
  return t
    .slice(name.length + 1, -1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function intArg(s: string | undefined, stmt: AsmStatement): number {
  const v = s === undefined ? undefined : parseInteger(s);
  if (v === undefined) fail(BAD, stmt);
  return v;
}

/** `{id: 51, offset: 1, size: 31}`: hwreg's structured form (fields in any order, all optional). */
function parseHwregStruct(gen: Gen, text: string, stmt: AsmStatement): number {
  const body = text.trim().slice(1, -1).trim();
  const vals: Record<string, number> = { id: 0, offset: 0, size: 32 };
  const seen = new Set<string>();
  for (const part of body ? body.split(',') : []) {
    const m = /^\s*(id|offset|size)\s*:\s*(.+?)\s*$/.exec(part);
    if (!m || seen.has(m[1])) fail(BAD, stmt);
    seen.add(m[1]);
    const v = m[1] === 'id' ? hwregId(gen, m[2]) : parseInteger(m[2]);
    if (v === undefined) fail(BAD, stmt);
    vals[m[1]] = v;
  }
  return hwregBits(vals.id, vals.offset, vals.size, stmt);
}

/**
 * A hwreg id: a number or a name of the generation. gfx10 split HW_ID into HW_ID1/HW_ID2;
 * llvm-mc-19 still takes HW_REG_HW_ID for HW_ID1 on gfx10 (gfx1010, gfx1030), not on gfx11.
 */
function hwregId(gen: Gen, text: string): number | undefined {
  const n = parseInteger(text);
  if (n !== undefined) return n;
  const name = (gen === Gen.GFX10 || gen === Gen.GFX10_3) && text === 'HW_REG_HW_ID' ? 'HW_REG_HW_ID1' : text;
  for (let i = 0; i < 64; i++) if (hwregName(gen, i) === name) return i;
  return undefined;
}

function hwregBits(id: number, offset: number, size: number, stmt: AsmStatement): number {
  if (id < 0 || id > 63) fail('invalid hardware register: only 6-bit values are legal', stmt);
  if (offset < 0 || offset > 31) fail('invalid bit offset: only 5-bit values are legal', stmt);
  if (size < 1 || size > 32) fail('invalid bitfield width: only values from 1 to 32 are legal', stmt);
  return id | (offset << 6) | ((size - 1) << 11);
}

function parseHwreg(gen: Gen, text: string, stmt: AsmStatement): number {
  if (text.trim().startsWith('{') && text.trim().endsWith('}')) return parseHwregStruct(gen, text, stmt);
  const args = parseCallArgs(text, 'hwreg');
  if (!args) return plainImm(text, stmt);
  if (args.length !== 1 && args.length !== 3) fail(BAD, stmt);
  const id = hwregId(gen, args[0]);
  if (id === undefined) fail('expected a register name or an absolute expression', stmt);
  const offset = args.length === 3 ? intArg(args[1], stmt) : 0;
  const size = args.length === 3 ? intArg(args[2], stmt) : 32;
  return hwregBits(id, offset, size, stmt);
}

function parseSendmsg(gen: Gen, text: string, stmt: AsmStatement): number {
  const args = parseCallArgs(text, 'sendmsg');
  if (!args) return plainImm(text, stmt);
  if (args.length < 1 || args.length > 3) fail(BAD, stmt);
  // llvm-mc-19 prints MSG_SAVEWAVE for gfx7 but assembles it from gfx8 on.
  if (gen === Gen.GFX7 && args[0] === 'MSG_SAVEWAVE') fail('invalid message id', stmt);
  const joined = args.join(', ');
  for (const [k, sym] of sendmsgSymbols(gen)) if (sym === joined) return k;
  // Names of messages and operations, from the generation's symbolic spellings.
  const msgs = new Map<string, number>();
  const ops = new Map<string, number>();
  for (const [k, sym] of sendmsgSymbols(gen)) {
    const [m, o] = sym.split(', ');
    msgs.set(m, gen >= Gen.GFX11 ? k : k & 0xf);
    if (o !== undefined) ops.set(o, (k >>> 4) & 7);
  }
  const symbolic = parseInteger(args[0]) === undefined;
  const id = parseInteger(args[0]) ?? msgs.get(args[0]);
  if (id === undefined || id < 0 || id > (gen >= Gen.GFX11 ? 0xff : 0xf)) fail('invalid message id', stmt);
  const op = args.length > 1 ? (parseInteger(args[1]) ?? ops.get(args[1])) : 0;
  if (op === undefined || op < 0 || op > 7) fail('invalid operation id', stmt);
  const stream = args.length > 2 ? parseInteger(args[2]) : 0;
  if (stream === undefined || stream < 0 || stream > 3) fail('invalid message stream id', stmt);
  // A named message takes only the operations (and streams) it has.
  if (symbolic) {
    const gs = gen < Gen.GFX11 && (args[0] === 'MSG_GS' || args[0] === 'MSG_GS_DONE');
    const sys = gen < Gen.GFX11 && args[0] === 'MSG_SYSMSG';
    const opName = args[1] !== undefined && parseInteger(args[1]) === undefined ? args[1] : undefined;
    if (!gs && !sys && args.length > 1) fail('message does not support operations', stmt);
    if (
      gs &&
      (args.length < 2 ||
        (opName !== undefined && !opName.startsWith('GS_OP_')) ||
        op > 3 ||
        (op === 0 && (args[0] === 'MSG_GS' || args.length > 2)))
    )
      fail('invalid operation id', stmt);
    if (sys && (args.length !== 2 || (opName !== undefined && !opName.startsWith('SYSMSG_OP_')) || op < 1 || op > 4))
      fail('invalid operation id', stmt);
  }
  const v = id | (op << 4) | (stream << 8);
  if (gen >= Gen.GFX11 && v > 0xff) fail('invalid message id', stmt);
  return v;
}

function parseWaitcnt(gen: Gen, text: string, stmt: AsmStatement): number {
  const direct = parseInteger(text);
  if (direct !== undefined) return direct & 0xffff;
  const l = waitcntLayout(gen);
  const put = (v: number, f: readonly [number, number], value: number): number =>
    (v & ~(((1 << f[1]) - 1) << f[0])) | ((value & ((1 << f[1]) - 1)) << f[0]);
  let v = 0;
  for (const f of l.vm) v = put(v, f, -1);
  v = put(v, l.exp, -1);
  v = put(v, l.lgkm, -1);
  // `vmcnt(1) & expcnt(2)`, `vmcnt (14 ) expcnt( 2)`, `lgkmcnt_sat(99)`: counters separated by
  // spaces, `&` or `,`, with nothing after the last.
  const t = text.trim();
  const re = /(vmcnt|expcnt|lgkmcnt)(_sat)?\s*\(\s*([^()]*?)\s*\)\s*(?:([&,])\s*)?/y;
  let at = 0;
  let sep: string | undefined;
  const found: [string, boolean, number][] = [];
  while (at < t.length) {
    re.lastIndex = at;
    const m = re.exec(t);
    if (!m) fail(BAD, stmt);
    const n = parseInteger(m[3]);
    if (n === undefined) fail(BAD, stmt);
    found.push([m[1], m[2] !== undefined, n]);
    sep = m[4];
    at = re.lastIndex;
  }
  if (found.length === 0 || sep !== undefined) fail(BAD, stmt);
  for (const [name, sat, n0] of found) {
    const bits = name === 'expcnt' ? l.exp[1] : name === 'lgkmcnt' ? l.lgkm[1] : l.vm.reduce((a, f) => a + f[1], 0);
    const max = (1 << bits) - 1;
    // `_sat` clamps an out-of-range count (negative ones too) to the field's maximum.
    const n = sat && (n0 < 0 || n0 > max) ? max : n0;
    if (n < 0 || n > max) fail(`too large value for ${name}`, stmt);
    if (name === 'expcnt') v = put(v, l.exp, n);
    else if (name === 'lgkmcnt') v = put(v, l.lgkm, n);
    else {
      let at = 0;
      for (const f of l.vm) {
        v = put(v, f, n >>> at);
        at += f[1];
      }
    }
  }
  return v;
}

function parseDelayAlu(text: string, stmt: AsmStatement): number {
  const direct = parseInteger(text);
  if (direct !== undefined) return direct;
  let v = 0;
  for (const part of text.split('|').map((s) => s.trim())) {
    const m = /^(instid0|instskip|instid1)\((\w+)\)$/.exec(part);
    if (!m) fail(BAD, stmt);
    const list: readonly string[] = m[1] === 'instskip' ? DELAY_SKIPS : DELAY_INST_IDS;
    const i = list.indexOf(m[2]);
    if (i < 0) fail(BAD, stmt);
    v |= i << (m[1] === 'instid0' ? 0 : m[1] === 'instskip' ? 4 : 7);
  }
  return v;
}

function parseDepctr(text: string, stmt: AsmStatement): number {
  const direct = parseInteger(text);
  if (direct !== undefined) {
    if (direct < -0x8000 || direct > 0xffff) fail(BAD, stmt);
    return direct & 0xffff;
  }
  let v = 0xffff;
  for (const f of DEPCTR_FIELDS) v &= ~(((1 << f.bits) - 1) << f.shift);
  for (const f of DEPCTR_FIELDS) v |= ((1 << f.bits) - 1) << f.shift;
  v &= DEPCTR_FIELDS.reduce((m, f) => m | (((1 << f.bits) - 1) << f.shift), 0);
  if (!/^(\w+\(\d+\)\s*[&,]?\s*)+$/.test(text.trim()) || /[&,]\s*$/.test(text.trim())) fail(BAD, stmt);
  const seen = new Set<string>();
  for (const m of text.matchAll(/(\w+)\((\d+)\)/g)) {
    const f = DEPCTR_FIELDS.find((d) => d.name === m[1]);
    if (!f || seen.has(m[1]) || Number(m[2]) >= 1 << f.bits) fail(BAD, stmt);
    seen.add(m[1]);
    const mask = ((1 << f.bits) - 1) << f.shift;
    v = (v & ~mask) | ((Number(m[2]) << f.shift) & mask);
  }
  return v;
}

function parseGprIdx(text: string, stmt: AsmStatement): number {
  const args = parseCallArgs(text, 'gpr_idx');
  if (!args) {
    const n = parseInteger(text);
    if (n === undefined || n < 0 || n > 15) fail('invalid immediate: only 4-bit values are legal', stmt);
    return n;
  }
  let v = 0;
  for (const a of args) {
    const i = (GPR_IDX_MODES as readonly string[]).indexOf(a);
    if (i < 0 || v & (1 << i)) fail(BAD, stmt);
    v |= 1 << i;
  }
  return v;
}

/** s_version's immediate: integers and UC_VERSION_* names ORed together, as llvm-mc-19 prints them. */
function parseVersion(text: string, stmt: AsmStatement): number {
  let v = 0;
  for (const term of text.replace(/[()\s]/g, '').split('|')) {
    const flag = UC_VERSION_FLAGS.find(([, name]) => name === term);
    const code = [...UC_VERSIONS].find(([, name]) => name === term)?.[0];
    v |= flag ? flag[0] : code !== undefined ? code : plainImm(term, stmt);
  }
  return v & 0xffff;
}

function plainImm(text: string, stmt: AsmStatement): number {
  const v = parseInteger(text);
  if (v === undefined || v < -0x8000 || v > 0xffff) fail(BAD, stmt);
  return v & 0xffff;
}

function branchImm(
  gen: Gen,
  text: string,
  stmt: AsmStatement,
  resolveLabel: (name: string) => number | undefined,
): number {
  const v = parseInteger(text);
  if (v !== undefined) {
    if (v < -0x8000 || v > 0xffff) fail(BAD, stmt);
    return v & 0xffff;
  }
  if (!/^[A-Za-z_.$][\w.$]*$/.test(text)) fail(BAD, stmt);
  let isReg = namedSourceCode(text, gen) !== undefined;
  try {
    isReg ||= parseRegister(text, gen) !== undefined;
  } catch {
    isReg = true;
  }
  if (isReg) fail(BAD, stmt);
  const addr = resolveLabel(text);
  if (addr === undefined) return 0;
  const delta = (addr - (stmt.address + 4)) / 4;
  if (!Number.isInteger(delta) || delta < -0x8000 || delta > 0x7fff) fail('branch target is out of range', stmt);
  return delta & 0xffff;
}

function immediate(
  gen: Gen,
  style: ImmStyle,
  text: string,
  stmt: AsmStatement,
  resolveLabel: (name: string) => number | undefined,
): number {
  switch (style) {
    case 'label':
      return branchImm(gen, text, stmt, resolveLabel);
    case 'hwreg':
      return parseHwreg(gen, text, stmt);
    case 'sendmsg':
      return parseSendmsg(gen, text, stmt);
    case 'waitcnt':
      return parseWaitcnt(gen, text, stmt);
    case 'delay_alu':
      return parseDelayAlu(text, stmt);
    case 'depctr':
      return parseDepctr(text, stmt);
    case 'gpr_idx':
      return parseGprIdx(text, stmt);
    case 'version':
      return parseVersion(text, stmt);
    default:
      return plainImm(text, stmt);
  }
}

// ---- encoding ----

function encodeSalu(gen: Gen, def: InstructionDef, f: Record<string, number>): number {
  const op = def.op[gen];
  switch (def.family) {
    case 'SOP2':
      return ((2 << 30) | (op << 23) | ((f.sdst ?? 0) << 16) | ((f.ssrc1 ?? 0) << 8) | (f.ssrc0 ?? 0)) >>> 0;
    case 'SOP1':
      return ((0x17d << 23) | ((f.sdst ?? 0) << 16) | (op << 8) | (f.ssrc0 ?? 0)) >>> 0;
    case 'SOPC':
      return ((0x17e << 23) | (op << 16) | ((f.ssrc1 ?? 0) << 8) | (f.ssrc0 ?? 0)) >>> 0;
    case 'SOPK':
      return ((0xb << 28) | (op << 23) | ((f.sdst ?? 0) << 16) | (f.simm16 ?? 0)) >>> 0;
    default:
      return ((0x17f << 23) | (op << 16) | (f.simm16 ?? 0)) >>> 0;
  }
}

interface SmemOffset {
  imm?: number;
  soffset?: number;
}

function smemOffset(
  gen: Gen,
  items: readonly string[],
  mods: Map<string, string | undefined>,
  stmt: AsmStatement,
): SmemOffset {
  const out: SmemOffset = {};
  for (const t0 of items) {
    const t = unwrapLit(t0) ?? t0;
    const r = parseRegister(t, gen);
    if (r) {
      if (r.file !== 's' || r.dwords !== 1) fail(BAD, stmt);
      out.soffset = r.code;
    } else {
      const v = parseInteger(t);
      if (v === undefined) fail(BAD, stmt);
      out.imm = v;
    }
  }
  const o = mods.get('offset');
  if (o !== undefined) {
    const v = parseInteger(o);
    if (v === undefined || out.imm !== undefined) fail(BAD, stmt);
    out.imm = v;
  }
  return out;
}

function hasOffsetOperand(def: InstructionDef): boolean {
  return def.operands.some((o) => o.field === 'offset' || o.field === 'soffset' || o.field === 'sbase');
}

function encodeSmem(
  gen: Gen,
  def: InstructionDef,
  f: Record<string, number>,
  off: SmemOffset,
  mods: Map<string, string | undefined>,
  stmt: AsmStatement,
): number[] {
  const op = def.op[gen];
  const glc = mods.has('glc') ? 1 : 0;
  const dlc = mods.has('dlc') ? 1 : 0;
  if (dlc && gen < Gen.GFX10) fail(BAD, stmt);
  const sdata = f.sdata ?? 0;
  const sbase = (f.sbase ?? 0) >>> 1;
  if (gen === Gen.GFX7) {
    if (glc) fail(BAD, stmt);
    if (off.imm !== undefined && (off.imm < 0 || off.imm > 0xffffffff)) fail(BAD, stmt);
    let w = (0x18 << 27) | (op << 22) | (sdata << 15) | (sbase << 9);
    if (off.soffset !== undefined) return [(w | off.soffset) >>> 0];
    if (off.imm === undefined) return [w >>> 0];
    if (off.imm >= 0 && off.imm <= 0xff) return [(w | 0x100 | off.imm) >>> 0];
    w |= SRC_LITERAL;
    return [w >>> 0, off.imm >>> 0];
  }
  // Buffer forms take an unsigned offset from gfx9 on (gfx8's is unsigned for all).
  if (gen >= Gen.GFX9 && /buffer/.test(def.name) && off.imm !== undefined && off.imm < 0)
    fail('expected a 20-bit unsigned offset', stmt);
  const imm = off.imm ?? 0;
  if (gen <= Gen.GFX9) {
    let w0 = (0x30 << 26) | (op << 18) | (glc << 16) | (sdata << 6) | sbase;
    let w1 = 0;
    const max = gen === Gen.GFX8 ? 0xfffff : 0xfffff;
    const min = gen === Gen.GFX8 ? 0 : -0x100000;
    if (off.imm !== undefined && (imm < min || imm > max)) fail('expected a 20-bit unsigned offset', stmt);
    if (off.soffset !== undefined && off.imm !== undefined) {
      if (gen === Gen.GFX8) fail(BAD, stmt);
      w0 |= (1 << 17) | (1 << 14);
      w1 = (off.soffset << 25) | (imm & 0x1fffff);
    } else if (off.soffset !== undefined) w1 = off.soffset;
    else if (off.imm !== undefined || hasOffsetOperand(def)) {
      // An omitted offset is the immediate 0, not soffset s0 (IMM clear would name s0).
      w0 |= 1 << 17;
      w1 = imm & 0x1fffff;
    }
    return [w0 >>> 0, w1 >>> 0];
  }
  const gfx11 = gen >= Gen.GFX11;
  const w0 = (0x3d << 26) | (op << 18) | (glc << (gfx11 ? 14 : 16)) | (dlc << (gfx11 ? 13 : 14)) | (sdata << 6) | sbase;
  if (imm < -0x100000 || imm > 0xfffff) fail('expected a 21-bit signed offset', stmt);
  // Forms without an address (s_memrealtime, s_dcache_inv) leave SOFFSET zero, as LLVM does;
  // an address with no SGPR offset names null there.
  const soff = off.soffset ?? (hasOffsetOperand(def) ? nullCode(gen) : 0);
  return [w0 >>> 0, ((soff << 25) | (imm & 0x1fffff)) >>> 0];
}

function tryDef(
  target: Target,
  def: InstructionDef,
  stmt: AsmStatement,
  resolveLabel: (name: string) => number | undefined,
): number[] {
  const gen = target.gen;
  const items = splitOperands(stmt.operandText);
  const style = (def.flags?.imm as ImmStyle | undefined) ?? 'hex';
  const symbolicSpaces = style === 'waitcnt' || style === 'delay_alu' || style === 'depctr';
  // Counters and delay fields are space- or `|`-separated inside one operand.
  const ops = symbolicSpaces
    ? stmt.operandText
      ? [stmt.operandText]
      : []
    : items.filter((i) => !i.modifier).map((i) => i.text);
  const mods = new Map<string, string | undefined>();
  if (!symbolicSpaces)
    for (const it of items.filter((i) => i.modifier)) {
      const m = parseModifier(it.text);
      if (def.family !== 'SMEM' || !['glc', 'dlc', 'offset'].includes(m.name) || mods.has(m.name)) fail(BAD, stmt);
      mods.set(m.name, m.value);
    }
  const enc: Encoded = { fields: {} };
  const f = enc.fields;
  const operands = def.operands;
  if (def.family === 'SMEM') {
    const offIdx = operands.findIndex((o) => o.field === 'offset');
    const fixed = offIdx < 0 ? operands.length : offIdx;
    if (ops.length < fixed || (offIdx < 0 && ops.length !== fixed) || ops.length > fixed + 1) fail(BAD, stmt);
    for (let k = 0; k < fixed; k++) {
      const o = operands[k];
      if (o.cls === 'imm') f[o.field] = plainImm(ops[k], stmt);
      else f[o.field] = scalarReg(gen, ops[k], o.dwords, stmt);
      // SMEM data is never m0 or exec.
      if (o.field === 'sdata' && o.cls !== 'imm' && [m0Code(gen), 126, 127].includes(f.sdata)) fail(BAD, stmt);
    }
    if (offIdx < 0 && mods.has('offset')) fail(BAD, stmt);
    return encodeSmem(gen, def, f, smemOffset(gen, ops.slice(fixed), mods, stmt), mods, stmt);
  }
  // gfx11's s_waitcnt_{vscnt,vmcnt,expcnt,lgkmcnt} name null as their register.
  if (
    gen >= Gen.GFX11 &&
    /^s_waitcnt_(vs|vm|exp|lgkm)cnt$/.test(def.name) &&
    ops[0] !== undefined &&
    ops[0].toLowerCase() !== 'null'
  )
    fail('src0 must be null', stmt);
  // s_cmpk_*_u32 compare with an unsigned 16-bit value.
  if (/^s_cmpk_\w+_u32$/.test(def.name) && ops[1] !== undefined && (parseInteger(ops[1]) ?? 0) < 0) fail(BAD, stmt);
  const optional = def.flags?.optional === true;
  if (ops.length !== operands.length && !(optional && ops.length === operands.length - 1)) fail(BAD, stmt);
  operands.forEach((o, k) => {
    const t = ops[k];
    if (t === undefined) return;
    if (o.field === 'literal') {
      const v = parseInteger(t);
      if (v === undefined || v < -0x80000000 || v > 0xffffffff) fail(BAD, stmt);
      enc.literal = v >>> 0;
    } else if (o.field === 'simm16' || o.cls === 'imm' || o.cls === 'label')
      f[o.field] = immediate(gen, style, t, stmt, resolveLabel);
    else if (o.field.startsWith('ssrc')) f[o.field] = scalarSource(gen, t, o, enc, stmt);
    else f[o.field] = scalarReg(gen, t, o.dwords, stmt);
  });
  const w = encodeSalu(gen, def, f);
  return enc.literal === undefined ? [w] : [w, enc.literal];
}

let aliasMap: Map<string, string> | undefined;

/** The canonical name of an alias the generation's assembler accepts (`s_andn2_b32` on gfx11). */
function canonicalName(gen: Gen, name: string): string {
  aliasMap ??= new Map(ALIASES.map(([g, alias, canon]) => [`${g}:${alias}`, canon]));
  return aliasMap.get(`${gen}:${name}`) ?? name;
}

/** Assembles a scalar statement, or returns undefined when the mnemonic is not scalar. */
export function assembleScalar(
  target: Target,
  stmt: AsmStatement,
  resolveLabel: (name: string) => number | undefined,
): number[] | undefined {
  let defs = lookupName(target.gen, canonicalName(target.gen, stmt.mnemonic)).filter((d) => SCALAR.has(d.family));
  // LLVM takes an `_e32` suffix on scalar mnemonics (their only encoding is 32-bit).
  if (defs.length === 0 && stmt.mnemonic.endsWith('_e32'))
    defs = lookupName(target.gen, canonicalName(target.gen, stmt.mnemonic.slice(0, -4))).filter((d) =>
      SCALAR.has(d.family),
    );
  if (defs.length === 0) return undefined;
  let first: AsmError | undefined;
  for (const def of defs) {
    try {
      return tryDef(target, def, stmt, resolveLabel);
    } catch (e) {
      if (!(e instanceof AsmError)) throw e;
      first ??= e;
    }
  }
  throw first ?? new AsmError(BAD, stmt.line);
}
