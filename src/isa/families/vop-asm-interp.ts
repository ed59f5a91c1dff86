/**
 * Assembler of the VOP3-encoded interpolation instructions (gfx8-gfx10.3):
 * v_interp_p1/p2/mov_f32_e64 and v_interp_p1ll/p1lv/p2/p2_legacy_f16. The attribute
 * (attr, attrchan, and `high` for the f16 forms) fills the src0 field, the interpolant
 * (v_interp_mov's slot) src1, the f16 forms' third operand src2. A VINTRP mnemonic without
 * suffix takes this form when it has modifiers; otherwise VINTRP's codec assembles it.
 */
import { AsmError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement } from '../instruction.ts';
import { lookupName } from '../registry/registry.ts';
import type { InstructionDef } from '../registry/types.ts';
import { splitOperands } from '../asm-operands.ts';
import { BAD, fail, parseSource, parseVgpr } from './vop-asm-operands.ts';
import { parseVopModifiers } from './vop-asm-mods.ts';

const CHANNELS = ['x', 'y', 'z', 'w'];
const SLOTS = ['p10', 'p20', 'p0'];

function flag(def: InstructionDef, name: string): number {
  const v = def.flags?.[name];
  return typeof v === 'number' ? v : 0;
}

function interpDef(gen: Gen, name: string): InstructionDef | undefined {
  return lookupName(gen, name).find((d) => d.family === 'VOP3' && flag(d, 'interp') !== 0);
}

/** `attr12.y` → [attr, channel], with LLVM's messages. */
function parseAttr(text: string): [number, number] {
  const t = text.trim().toLowerCase();
  if (!t.startsWith('attr')) fail('invalid interpolation attribute');
  const m = /^attr(\d*)(?:\.(\w*))?$/.exec(t);
  const chan = m?.[2] === undefined ? -1 : CHANNELS.indexOf(m[2]);
  if (!m || chan < 0) fail('invalid or missing interpolation attribute channel');
  if (m[1] === '') fail('invalid or missing interpolation attribute number');
  const attr = Number(m[1]);
  if (attr > 32) fail('out of bounds interpolation attribute number');
  return [attr, chan];
}

/** Whether an operand text carries a float modifier (which only the VOP3 form encodes). */
function hasSourceMods(t: string): boolean {
  return /^\s*(-|\||neg\(|abs\()/.test(t);
}

function encode(target: Target, def: InstructionDef, text: string): number[] {
  const items = splitOperands(text);
  const ops = items.filter((i) => !i.modifier).map((i) => i.text);
  if (ops.length < def.operands.length) fail('too few operands for instruction');
  if (ops.length > def.operands.length) fail();
  let high = 0;
  const modTexts: string[] = [];
  for (const i of items) {
    if (!i.modifier) continue;
    if (i.text.toLowerCase() === 'high') {
      if (!flag(def, 'high')) fail();
      high = 1;
    } else if (/^(clamp|mul:|div:)/i.test(i.text)) modTexts.push(i.text);
    else fail();
  }
  const mods = parseVopModifiers(modTexts);
  const gen = target.gen;
  if (mods.omod && !(flag(def, 'omod') & (1 << gen))) fail('not a valid operand.');
  if (mods.clamp && !(flag(def, 'clamp') & (1 << gen))) fail();
  const absMask = flag(def, 'abs');
  const negMask = flag(def, 'neg');
  let vdst = 0;
  const src = [0, 0, 0];
  let abs = 0;
  let neg = 0;
  def.operands.forEach((op, i) => {
    const t = ops[i];
    if (op.field === 'vdst') vdst = parseVgpr(target, t, 1);
    else if (op.field === 'attr') {
      const [attr, chan] = parseAttr(t);
      src[0] = attr | (chan << 6) | (high << 8);
    } else if (op.field === 'param') {
      const k = SLOTS.indexOf(t.trim().toLowerCase());
      if (k < 0) fail(/^-?\d/.test(t.trim()) ? BAD : 'invalid interpolation slot');
      src[1] = k;
    } else {
      const k = op.field === 'src1' ? 1 : 2;
      const s = parseSource(target, t, op, 'v');
      if (s.sext || (s.neg && !((negMask >>> k) & 1)) || (s.abs && !((absMask >>> k) & 1))) fail();
      src[k] = s.code;
      if (s.neg) neg |= 1 << k;
      if (s.abs) abs |= 1 << k;
    }
  });
  const w0 =
    ((gen >= Gen.GFX10 ? 0x35 : 0x34) << 26) | (def.op[gen] << 16) | ((mods.clamp ? 1 : 0) << 15) | (abs << 8) | vdst;
  const w1 = src[0] | (src[1] << 9) | (src[2] << 18) | (mods.omod << 27) | (neg << 29);
  return [w0 >>> 0, w1 >>> 0];
}

/**
 * Assembles a VOP3-encoded interpolation statement, or returns undefined when the
 * mnemonic is not one (or is a VINTRP statement its own codec takes).
 */
export function assembleInterpVop3(target: Target, stmt: AsmStatement): number[] | undefined {
  const name = stmt.mnemonic;
  let def = interpDef(target.gen, name);
  if (!def) {
    // `v_interp_p1_f32 … clamp`: LLVM picks the e64 form when the VINTRP one cannot hold it.
    const items = splitOperands(stmt.operandText);
    if (!items.some((i) => i.modifier || hasSourceMods(i.text))) return undefined;
    def = interpDef(target.gen, `${name}_e64`);
    if (!def) return undefined;
  }
  try {
    return encode(target, def, stmt.operandText);
  } catch (e) {
    if (e instanceof AsmError) throw new AsmError(e.reason, stmt.line);
    throw e;
  }
}
