/**
 * Field packing of the VOP assembler: operands are matched to the registry's operand
 * list for one form (32-bit, VOP3, VOP3P), checked against what the form can encode
 * (modifiers, literals, the constant bus) and packed into dwords per generation.
 */
import { Gen, type Target } from '../gen.ts';
import { Attr, type InstructionDef, type OperandDef } from '../registry/types.ts';
import { m0Code, nullCode } from '../operands.ts';
import { f16Bits, f32Bits } from '../asm-operands.ts';
import {
  fail,
  operandDwords,
  parseBigInteger,
  parseScalarDst,
  parseSource,
  parseVgpr,
  type Src,
  type SrcClass,
} from './vop-asm-operands.ts';
import { intModMask, isLaneMask, laneMaskDwords, vccText, waveOperand } from './vop-operands.ts';
import type { BitList, VopModifiers } from './vop-asm-mods.ts';

export type VopForm = 'e32' | 'vop3' | 'vop3p';

const BUS = 'invalid operand (violates constant bus restrictions)';

function flag(def: InstructionDef, name: string): number {
  const v = def.flags?.[name];
  return typeof v === 'number' ? v : 0;
}
function genFlag(def: InstructionDef, name: string, gen: Gen): boolean {
  return (flag(def, name) & (1 << gen)) !== 0;
}

/** 64-bit shifts keep a single constant-bus read on gfx10+ (LLVM's getConstantBusLimit). */
const ONE_BUS_READ = new Set(['v_lshlrev_b64', 'v_lshrrev_b64', 'v_ashrrev_i64']);

/** Literal and constant-bus bookkeeping of one statement. */
class Reads {
  literal: number | undefined;
  private readonly scalars = new Set<string>();
  private hasLiteral = false;
  private busLiteral = false;
  /** Operand sizes the literal serves: one literal read by 32- and 64-bit operands counts twice on the bus. */
  private readonly literalSizes = new Set<number>();
  constructor(
    private readonly target: Target,
    private readonly def: InstructionDef,
  ) {}

  source(text: string, op: OperandDef, cls: SrcClass, fold = false): Src {
    const s = parseSource(this.target, text, op, cls, fold);
    if (s.code === 255) {
      this.addLiteral(s.literal ?? 0, true);
      this.literalSizes.add(operandDwords(this.target, op) === 2 ? 8 : 4);
    } else if (countsOnBus(this.target.gen, s.code) && !this.isLaneSelectM0(op, s.code))
      this.scalars.add(`${s.code}:${s.dwords}`);
    return s;
  }

  /**
   * Before gfx10 v_writelane_b32 may take M0 as its lane select beside an SGPR value: the
   * lane select is read apart from the constant bus there, and LLVM 19 accepts
   * `v_writelane_b32 v1, s13, m0` on bonaire/tonga/gfx900 (but refuses `s13, s14`).
   */
  private isLaneSelectM0(op: OperandDef, code: number): boolean {
    const gen = this.target.gen;
    return gen < Gen.GFX10 && this.def.name === 'v_writelane_b32' && op.field === 'src1' && code === m0Code(gen);
  }

  /**
   * madmk/madak/fmamk/fmaak's K: a literal that takes the single constant-bus read before
   * gfx10 (llvm-mc-19 refuses `v_madak_f32 v0, s0, v0, 0x11213141` on bonaire/tonga/gfx900)
   * and none from gfx10 (`v_fmaak_f32 v0, s0, v0, 0x11213141` is accepted on gfx1030).
   */
  addK(v: number): void {
    const onBus = this.target.gen < Gen.GFX10;
    this.addLiteral(v, onBus);
    if (onBus) this.literalSizes.add(4);
  }

  /**
   * LLVM keeps one literal dword: operands share it when their encoded dwords are equal,
   * whatever their sizes (a 64-bit float's literal is its high half, so `1.5` and
   * `0x3ff80000` share one; LLVM 19 AMDGPUAsmParser::validateVOPLiteral compares dwords).
   */
  private addLiteral(v: number, onBus: boolean): void {
    if (this.hasLiteral && this.literal !== v >>> 0)
      fail(
        this.target.gen >= Gen.GFX10
          ? 'only one unique literal operand is allowed'
          : 'only one literal operand is allowed',
      );
    this.hasLiteral = true;
    this.literal = v >>> 0;
    this.busLiteral ||= onBus;
  }

  /** movrel*'s implicit M0 read takes a bus slot (an explicit m0 shares it). */
  implicitM0(): void {
    this.scalars.add(`${m0Code(this.target.gen)}:1`);
  }

  /** An implicit VCC read (e32 carry-in and mask, div_fmas) takes a bus slot too. */
  implicitVcc(): void {
    this.scalars.add(`106:${laneMaskDwords(this.target)}`);
  }

  checkBus(def: InstructionDef): void {
    const gen = this.target.gen;
    const limit = gen >= Gen.GFX10 && !ONE_BUS_READ.has(def.name) ? 2 : 1;
    // LLVM 19 validateConstantBusLimitations ("GFX10 Shader Programming", section 3.6.2.3):
    // a literal shared by operands of different sizes counts as two scalar values.
    const literalReads = this.busLiteral ? Math.max(1, this.literalSizes.size) : 0;
    if (this.scalars.size + literalReads > limit) fail(BUS);
  }

  get literals(): number[] {
    return this.hasLiteral ? [this.literal ?? 0] : [];
  }
}

/** Scalar registers and SGPR-like named sources read the constant bus; null, constants and lds_direct do not. */
function countsOnBus(gen: Gen, code: number): boolean {
  if (code >= 256 || code === 254) return false;
  if (code >= 128 && code <= 234) return false;
  if (code >= 240 && code <= 250) return false;
  return !(gen >= Gen.GFX10 && code === nullCode(gen));
}

function srcClass(op: OperandDef): SrcClass {
  return op.cls === 'vs' ? 'vs' : op.cls === 'v' ? 'v' : 's';
}

function srcIndex(op: OperandDef): number {
  return op.field === 'src0' ? 0 : op.field === 'src1' ? 1 : op.field === 'src2' ? 2 : -1;
}

function srcCount(def: InstructionDef): number {
  let n = 0;
  for (const o of def.operands) if (o.cls !== 'imm' && srcIndex(o) >= 0) n++;
  return n;
}

/** Opcodes with reversed sources (LLVM's IsRevOpcode): `v_subrev_f32`, `v_lshlrev_b32`, `v_pk_ashrrev_i16`. */
const REVERSED_SOURCES = /^v_(pk_)?(sub|subb|lshl|lshr|ashr)rev_/;

/**
 * Where lds_direct (code 254) may stand, as llvm-mc-19 checks it (AMDGPUAsmParser
 * validateLdsDirect, and the operand classes): src0 only, not in opcodes with reversed
 * sources, only as a 32-bit (or 16-bit) value, not in a VGPR-only source (v_permlane16's)
 * except readlane/readfirstlane's src0, and in a scalar-only one (v_writelane's value) on
 * gfx7 and gfx10 only (tonga/gfx900: "operands are not valid for this GPU or mode").
 */
function checkLdsDirect(gen: Gen, def: InstructionDef, op: OperandDef, s: Src, k: number): void {
  if (s.code !== 254) return;
  if (REVERSED_SOURCES.test(def.name)) fail('lds_direct cannot be used with this instruction');
  if (k !== 0) fail('lds_direct may be used as src0 only');
  if (op.dwords !== 1 || (op.cls === 'v' && !/^v_read(first)?lane_b32$/.test(def.name))) fail();
  if (op.cls === 's' && (gen === Gen.GFX8 || gen === Gen.GFX9)) fail('operands are not valid for this GPU or mode');
}

/** The K constant of madmk/madak/fmamk/fmaak: always a literal, in the operand's float width. */
function kValue(text: string, op: OperandDef): number {
  const bits = op.type === 'f16' ? 16 : 32;
  // `lit(x)` only says what K always is, a literal.
  const lit = /^lit\s*\((.*)\)$/i.exec(text.trim());
  if (lit) text = lit[1].trim();
  const i = parseBigInteger(text);
  if (i !== undefined) {
    if (BigInt.asUintN(bits, i) !== i && BigInt.asIntN(bits, i) !== i) fail();
    return Number(BigInt.asUintN(bits, i));
  }
  if (!/^-?(\d+\.\d*|\.\d+|\d+(\.\d*)?e[+-]?\d+)$/i.test(text)) fail();
  return bits === 16 ? f16Bits(Number(text)) : f32Bits(Number(text)) >>> 0;
}

function tooFew(): never {
  fail('too few operands for instruction');
}

/**
 * Where LLVM lets a 32-bit form's VCC operands go unwritten: VOPC's destination and a
 * lone carry-in/mask (v_cndmask) everywhere; a carry-out from gfx9 (gfx7/8's carry names
 * collide with gfx9's carry-less ones), carry-out with carry-in from gfx10.
 */
function maskOptional(gen: Gen, def: InstructionDef): boolean {
  if (def.family === 'VOPC') return true;
  const dst = def.operands.some((o) => isLaneMask(o) && o.role === 'dst');
  const src = def.operands.some((o) => isLaneMask(o) && o.role === 'src');
  if (!dst) return true;
  return gen >= Gen.GFX10 || (gen === Gen.GFX9 && !src);
}

function is16(op: OperandDef): boolean {
  return op.type === 'f16' || op.type === 'i16' || op.type === 'u16' || op.type === 'b16';
}

/**
 * gfx11's 32-bit forms reach only v0-v127 with 16-bit operands (the upper half codes the .h
 * bit). Packed pairs of halves (v_cvt_pk_rtz_f16_f32's result, v_pk_fmac_f16) are whole
 * 32-bit registers and reach v0-v255, as the printer treats them; v_sat_pk_u8_i16's result
 * is two bytes packed in one true 16-bit value (llvm-mc-19 refuses `v_sat_pk_u8_i16_e32 v199, v5`).
 */
function checkLo128(gen: Gen, def: InstructionDef, vdst: number, vsrc1: number, src0: number): void {
  if (gen < Gen.GFX11 || (def.name.includes('_pk') && !def.name.startsWith('v_sat_pk'))) return;
  for (const op of def.operands) {
    if (!is16(op) || op.cls === 'imm') continue;
    if (op.field === 'vdst' && op.cls === 'v' && vdst >= 128) fail();
    if (op.field === 'src1' && vsrc1 >= 128) fail();
    if (op.field === 'src0' && src0 >= 256 + 128) fail();
  }
}

// ---- 32-bit forms ----------------------------------------------------------------------

export function encodeE32(target: Target, def: InstructionDef, ops: readonly string[], mods: VopModifiers): number[] {
  if (mods.any) fail();
  const reads = new Reads(target, def);
  let vdst = 0;
  let src0 = 0;
  let vsrc1 = 0;
  // The 32-bit forms imply VCC: the text spells it for the wave size, or may leave every one out.
  const masks = def.operands.filter(isLaneMask).length;
  const spelled = !(masks > 0 && ops.length === def.operands.length - masks && maskOptional(target.gen, def));
  let i = 0;
  for (const op of def.operands) {
    if (isLaneMask(op)) {
      if (spelled) {
        const t = ops[i++];
        if (t === undefined) tooFew();
        if (t.toLowerCase() !== vccText(target)) fail();
      }
      if (op.role === 'src') reads.implicitVcc();
      continue;
    }
    const t = ops[i++];
    if (t === undefined) tooFew();
    if (op.cls === 'imm') reads.addK(kValue(t, op));
    else if (op.field === 'vdst')
      vdst = op.cls === 'v' ? parseVgpr(target, t, op.dwords) : parseScalarDst(target, t, 1);
    else if (op.field === 'src0' || op.field === 'src1') {
      // vsrc1 holds a VGPR, but gfx7's readlane/writelane keep their SGPR lane select there.
      const s = reads.source(t, op, op.field === 'src0' ? srcClass(op) : op.cls === 's' ? 's' : 'v', true);
      if (s.neg || s.abs || s.sext) fail();
      checkLdsDirect(target.gen, def, op, s, op.field === 'src0' ? 0 : 1);
      if (op.field === 'src0') src0 = s.code;
      else vsrc1 = s.code >= 256 ? s.code - 256 : s.code;
    } else fail();
  }
  if (i !== ops.length) fail();
  if (def.attrs & Attr.ReadsM0) reads.implicitM0();
  checkLo128(target.gen, def, vdst, vsrc1, src0);
  reads.checkBus(def);
  const op = def.op[target.gen];
  let w: number;
  if (def.family === 'VOP1') w = (0x3f << 25) | (vdst << 17) | (op << 9) | src0;
  else if (def.family === 'VOP2') w = (op << 25) | (vdst << 17) | (vsrc1 << 9) | src0;
  else w = (0x3e << 25) | (op << 17) | (vsrc1 << 9) | src0;
  return [w >>> 0, ...reads.literals];
}

// ---- VOP3 ------------------------------------------------------------------------------

interface Vop3Fields {
  vdst: number;
  sdst: number;
  abs: number;
  neg: number;
  src: [number, number, number];
}

function isVop3b(def: InstructionDef): boolean {
  return def.family !== 'VOPC' && def.operands.some((o) => o.field === 'sdst');
}

/** Reads the operands of a VOP3 form into its fields. */
function vop3Operands(target: Target, def: InstructionDef, ops: readonly string[], reads: Reads): Vop3Fields {
  const f: Vop3Fields = { vdst: 0, sdst: 0, abs: 0, neg: 0, src: [0, 0, 0] };
  const vop3b = isVop3b(def);
  const absMask = flag(def, 'abs');
  const negMask = flag(def, 'neg');
  // gfx10+ VOPCX writes EXEC only; its VOP3 destination field holds exec_lo.
  if (def.family === 'VOPC' && !def.operands.some((o) => o.field === 'sdst')) f.vdst = 126;
  let i = 0;
  for (const op of def.operands) {
    const t = ops[i++];
    if (t === undefined) tooFew();
    if (op.field === 'vdst') f.vdst = op.cls === 'v' ? parseVgpr(target, t, op.dwords) : parseScalarDst(target, t, 1);
    else if (op.field === 'sdst') {
      const code = parseScalarDst(target, t, laneMaskDwords(target));
      if (def.family === 'VOPC') f.vdst = code;
      else f.sdst = code;
    } else {
      const k = srcIndex(op);
      if (k < 0) fail();
      const s = reads.source(t, op, srcClass(op));
      checkLdsDirect(target.gen, def, op, s, k);
      if (s.sext) {
        // sext(x) sets the neg bit of an integer-modifier source.
        if (s.neg || s.abs || !((intModMask(def, target.gen) >>> k) & 1)) fail();
        f.neg |= 1 << k;
      }
      if (s.abs) {
        if (vop3b) fail('ABS not allowed in VOP3B instructions');
        if (!((absMask >>> k) & 1)) fail();
        f.abs |= 1 << k;
      }
      if (s.neg) {
        if (!((negMask >>> k) & 1)) fail();
        f.neg |= 1 << k;
      }
      f.src[k] = s.code;
    }
  }
  if (i !== ops.length) fail();
  return f;
}

/** VOP3 op_sel: one entry per source, then the destination (bit 3); permlane16's two bits go straight in. */
function vop3OpSel(def: InstructionDef, l: BitList): number {
  const n = srcCount(def);
  const opseln = flag(def, 'opseln');
  let bits: number;
  if (opseln && opseln !== n + 1) {
    if (l.bits >>> opseln) fail('invalid op_sel operand');
    bits = l.bits;
  } else {
    if (l.bits >>> (n + 1)) fail('invalid op_sel operand');
    bits = (l.bits & ((1 << n) - 1)) | (((l.bits >>> n) & 1) << 3);
  }
  return maskOpSel(def, n, bits);
}

/**
 * Where only some op_sel bits mean something (registry `opselmask`), LLVM 19 refuses a set
 * bit of a present source (v_dot2_f16_f16's packed src0/src1: "invalid op_sel operand")
 * and drops one of an absent source (v_fmac_f16_e64's third entry, its tied accumulator).
 */
function maskOpSel(def: InstructionDef, nsrc: number, bits: number): number {
  const mask = flag(def, 'opselmask');
  if (!mask) return bits;
  if (bits & ~mask & ((1 << nsrc) - 1)) fail('invalid op_sel operand');
  return bits & mask;
}

function implicitVccRead(def: InstructionDef): boolean {
  return (def.attrs & Attr.ReadsVcc) !== 0 && !def.operands.some((o) => isLaneMask(o) && o.role === 'src');
}

export function encodeVop3(target: Target, def: InstructionDef, ops: readonly string[], mods: VopModifiers): number[] {
  const gen = target.gen;
  if (mods.opSelHi || mods.negLo || mods.negHi) fail();
  const reads = new Reads(target, def);
  const f = vop3Operands(target, def, ops, reads);
  if (implicitVccRead(def)) reads.implicitVcc();
  if (def.attrs & Attr.ReadsM0) reads.implicitM0();
  if (mods.clamp && !genFlag(def, 'clamp', gen))
    fail(gen <= Gen.GFX8 ? 'integer clamping is not supported on this GPU' : 'invalid operand for instruction');
  if (mods.omod && !genFlag(def, 'omod', gen)) fail();
  let opSel = 0;
  if (mods.opSel) {
    if (!genFlag(def, 'opsel', gen)) fail();
    opSel = vop3OpSel(def, mods.opSel);
  }
  if (reads.literals.length && gen < Gen.GFX10) fail('literal operands are not supported');
  reads.checkBus(def);
  const op = def.family === 'VOP3' ? def.op[gen] : (def.op3?.[gen] ?? -1);
  if (op < 0) fail();
  const clamp = mods.clamp ? 1 : 0;
  let w0: number;
  if (gen === Gen.GFX7) {
    w0 = (0x34 << 26) | (op << 17) | f.vdst;
    // LLVM 19's gfx7 VOP3B encoding has no clamp bit: it accepts `clamp` and drops it.
    w0 |= isVop3b(def) ? f.sdst << 8 : (f.abs << 8) | (clamp << 11);
  } else {
    w0 = ((gen >= Gen.GFX10 ? 0x35 : 0x34) << 26) | (op << 16) | f.vdst | (clamp << 15);
    w0 |= isVop3b(def) ? f.sdst << 8 : (f.abs << 8) | (opSel << 11);
  }
  const w1 = f.src[0] | (f.src[1] << 9) | (f.src[2] << 18) | (mods.omod << 27) | (f.neg << 29);
  return [w0 >>> 0, w1 >>> 0, ...reads.literals];
}

// ---- VOP3P -----------------------------------------------------------------------------

/** Mixed-precision FMAs take float modifiers (neg → neg_lo, abs → neg_hi) and default op_sel_hi to 0. */
function isMix(def: InstructionDef): boolean {
  return def.name.includes('_mix');
}

function listBits(l: BitList | undefined, n: number, fallback: number): number {
  if (!l) return fallback;
  if (l.bits >>> n) fail();
  return l.bits;
}

export function encodeVop3p(target: Target, def: InstructionDef, ops: readonly string[], mods: VopModifiers): number[] {
  const gen = target.gen;
  if (mods.omod) fail();
  const mix = isMix(def);
  const n = srcCount(def);
  const all = (1 << n) - 1;
  const reads = new Reads(target, def);
  const src: [number, number, number] = [0, 0, 0];
  let vdst = 0;
  let negLo = 0;
  let negHi = 0;
  let i = 0;
  for (const defOp of def.operands) {
    const op = waveOperand(target, def, defOp);
    const t = ops[i++];
    if (t === undefined) tooFew();
    if (op.field === 'vdst') {
      vdst = parseVgpr(target, t, op.dwords);
      continue;
    }
    const k = srcIndex(op);
    if (k < 0) fail();
    const s = reads.source(t, op, srcClass(op));
    checkLdsDirect(target.gen, def, op, s, k);
    if (s.sext || ((s.neg || s.abs) && !mix)) fail();
    if (s.neg) negLo |= 1 << k;
    if (s.abs) negHi |= 1 << k;
    src[k] = s.code;
  }
  if (i !== ops.length) fail();
  if (mix) {
    if (mods.negLo || mods.negHi) fail();
  } else {
    negLo = listBits(mods.negLo, n, 0);
    negHi = listBits(mods.negHi, n, 0);
  }
  if (negLo & ~flag(def, 'neg') || negHi & ~flag(def, mix ? 'abs' : 'abs')) fail();
  // Packed instructions without op_sel (f32/i32 WMMA: llvm-mc-19 sweeps print none) refuse op_sel and op_sel_hi.
  if ((mods.opSel || mods.opSelHi) && !genFlag(def, 'opsel', gen)) fail('not a valid operand.');
  const opSel = listBits(mods.opSel, n, 0);
  // Absent sources' op_sel_hi bits read as 1, as LLVM encodes them.
  const opSelHi = listBits(mods.opSelHi, n, mix ? 0 : all) | (7 & ~all);
  if (mods.clamp && !genFlag(def, 'clamp', gen)) fail();
  if (reads.literals.length && gen < Gen.GFX10) fail('literal operands are not supported');
  reads.checkBus(def);
  const prefix = gen === Gen.GFX9 ? 0x1a7 << 23 : 0xcc << 24;
  const w0 =
    prefix |
    (def.op[gen] << 16) |
    vdst |
    (negHi << 8) |
    (opSel << 11) |
    (((opSelHi >>> 2) & 1) << 14) |
    ((mods.clamp ? 1 : 0) << 15);
  const w1 = src[0] | (src[1] << 9) | (src[2] << 18) | ((opSelHi & 3) << 27) | (negLo << 29);
  return [w0 >>> 0, w1 >>> 0, ...reads.literals];
}
