/**
 * Assembler of the VOP families (LLVM syntax → dwords): VOP1, VOP2, VOPC in their 32-bit
 * forms, VOP3 (VOP3A, VOP3B with an SGPR carry/flag destination, and the e64 forms of
 * VOP1/VOP2/VOPC) and VOP3P. The instruction, its operands and which modifiers its forms
 * take come from the registry; `_e32` / `_e64` force a form, no suffix takes the first
 * form that holds the operands in LLVM's variant order (32-bit forms, then VOP3), which
 * is the shortest.
 */
import { AsmError } from '../errors.ts';
import { Gen, type Target } from '../gen.ts';
import type { AsmStatement } from '../instruction.ts';
import { lookupName } from '../registry/registry.ts';
import type { InstructionDef } from '../registry/types.ts';
import { splitOperands } from '../asm-operands.ts';
import { fail, BAD } from './vop-asm-operands.ts';
import { parseVopModifiers, type VopModifiers } from './vop-asm-mods.ts';
import { encodeE32, encodeVop3, encodeVop3p, type VopForm } from './vop-asm-encode.ts';
import { assembleInterpVop3 } from './vop-asm-interp.ts';

const VOP_FAMILIES = new Set(['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P']);

function genFlag(def: InstructionDef, name: string, gen: Gen): boolean {
  const v = def.flags?.[name];
  return typeof v === 'number' && (v & (1 << gen)) !== 0;
}

/** The VOP instructions of a name in this generation. */
function vopDefs(gen: Gen, name: string): InstructionDef[] {
  return lookupName(gen, name).filter((d) => VOP_FAMILIES.has(d.family));
}

type Suffix = '' | '_e32' | '_e64';

/**
 * LLVM's mnemonic aliases of VOP instructions: [generation, alias, canonical name, forced
 * suffix]. gfx11 renamed a few instructions and kept the old names; gfx7 takes gfx9's
 * carry names, but only for the VOP3 form.
 */
const ALIASES: readonly (readonly [Gen, string, string, Suffix])[] = [
  [Gen.GFX7, 'v_add_co_u32', 'v_add_i32', '_e64'],
  [Gen.GFX7, 'v_sub_co_u32', 'v_sub_i32', '_e64'],
  [Gen.GFX7, 'v_subrev_co_u32', 'v_subrev_i32', '_e64'],
  [Gen.GFX11, 'v_cvt_flr_i32_f32', 'v_cvt_floor_i32_f32', ''],
  [Gen.GFX11, 'v_cvt_rpi_i32_f32', 'v_cvt_nearest_i32_f32', ''],
  [Gen.GFX11, 'v_ffbh_i32', 'v_cls_i32', ''],
  [Gen.GFX11, 'v_ffbh_u32', 'v_clz_i32_u32', ''],
  [Gen.GFX11, 'v_ffbl_b32', 'v_ctz_i32_b32', ''],
  [Gen.GFX11, 'v_cvt_pkrtz_f16_f32', 'v_cvt_pk_rtz_f16_f32', ''],
  [Gen.GFX11, 'v_cvt_pknorm_i16_f16', 'v_cvt_pk_norm_i16_f16', ''],
  [Gen.GFX11, 'v_cvt_pknorm_u16_f16', 'v_cvt_pk_norm_u16_f16', ''],
  [Gen.GFX11, 'v_dot2c_f32_f16', 'v_dot2acc_f32_f16', ''],
  [Gen.GFX11, 'v_fmac_legacy_f32', 'v_fmac_dx9_zero_f32', ''],
  [Gen.GFX11, 'v_mul_legacy_f32', 'v_mul_dx9_zero_f32', ''],
  [Gen.GFX11, 'v_fma_legacy_f32', 'v_fma_dx9_zero_f32', ''],
  [Gen.GFX11, 'v_add_u32', 'v_add_nc_u32', ''],
  [Gen.GFX11, 'v_sub_u32', 'v_sub_nc_u32', ''],
  [Gen.GFX11, 'v_subrev_u32', 'v_subrev_nc_u32', ''],
  [Gen.GFX11, 'v_cmp_tru_f16', 'v_cmp_t_f16', ''],
  [Gen.GFX11, 'v_cmp_tru_f32', 'v_cmp_t_f32', ''],
  [Gen.GFX11, 'v_cmp_tru_f64', 'v_cmp_t_f64', ''],
  [Gen.GFX11, 'v_cmpx_tru_f16', 'v_cmpx_t_f16', ''],
  [Gen.GFX11, 'v_cmpx_tru_f32', 'v_cmpx_t_f32', ''],
  [Gen.GFX11, 'v_cmpx_tru_f64', 'v_cmpx_t_f64', ''],
];

let aliasMap: Map<string, readonly [string, Suffix]> | undefined;
function alias(gen: Gen, stem: string): readonly [string, Suffix] | undefined {
  aliasMap ??= new Map(ALIASES.map(([g, a, c, s]) => [`${g}:${a}`, [c, s] as const]));
  return aliasMap.get(`${gen}:${stem}`);
}

interface Candidate {
  readonly def: InstructionDef;
  readonly form: VopForm;
}

/** The forms a suffix allows, in LLVM's order (every 32-bit form before any VOP3 form). */
function candidates(gen: Gen, defs: readonly InstructionDef[], suffix: Suffix): Candidate[] {
  const short: Candidate[] = [];
  const long: Candidate[] = [];
  for (const def of defs) {
    if (def.family === 'VOP3P') long.push({ def, form: 'vop3p' });
    else if (def.family === 'VOP3') long.push({ def, form: 'vop3' });
    else {
      if (def.op[gen] >= 0 && def.flags?.e32) short.push({ def, form: 'e32' });
      if ((def.op3?.[gen] ?? -1) >= 0 && genFlag(def, 'e64', gen)) long.push({ def, form: 'vop3' });
    }
  }
  if (suffix === '_e32') {
    if (short.length === 0) fail('e32 variant of this instruction is not supported');
    return short;
  }
  if (suffix === '_e64') {
    if (long.length === 0) fail('e64 variant of this instruction is not supported');
    return long;
  }
  return [...short, ...long];
}

function encode(target: Target, c: Candidate, ops: readonly string[], mods: VopModifiers): number[] {
  switch (c.form) {
    case 'e32':
      return encodeE32(target, c.def, ops, mods);
    case 'vop3':
      return encodeVop3(target, c.def, ops, mods);
    default:
      return encodeVop3p(target, c.def, ops, mods);
  }
}

/** Splits the encoding suffix off a mnemonic. */
function splitSuffix(mnemonic: string): { stem: string; suffix: Suffix } {
  const m = /^(.*?)(_e32|_e64)?$/.exec(mnemonic)!;
  return { stem: m[1], suffix: (m[2] ?? '') as Suffix };
}

const MODIFIER = /^(clamp|noclamp|mul:|div:|op_sel:|op_sel_hi:|neg_lo:|neg_hi:)/i;
function isModifierText(t: string): boolean {
  return MODIFIER.test(t);
}

function assembleIn(target: Target, stmt: AsmStatement, defs: readonly InstructionDef[], suffix: Suffix): number[] {
  // LLVM's commas between operands are optional, and a comma may precede a modifier:
  // an item is a modifier by what it says, not where it stands.
  const items = splitOperands(stmt.operandText).map((i) => i.text);
  const ops = items.filter((t) => !isModifierText(t));
  const mods = parseVopModifiers(items.filter(isModifierText));
  let first: AsmError | undefined;
  for (const c of candidates(target.gen, defs, suffix)) {
    try {
      return encode(target, c, ops, mods);
    } catch (e) {
      if (!(e instanceof AsmError)) throw e;
      // A VOP3 form's reason is the more telling one (the 32-bit forms refuse most operands).
      if (!first || c.form !== 'e32') first = e;
    }
  }
  throw first ?? new AsmError(BAD);
}

/** Assembles a VOP statement, or returns undefined when the mnemonic is not a VOP instruction. */
export function assembleVop(target: Target, stmt: AsmStatement): number[] | undefined {
  if (stmt.mnemonic.startsWith('v_interp_')) return assembleInterpVop3(target, stmt);
  const split = splitSuffix(stmt.mnemonic);
  let { stem, suffix } = split;
  const a = alias(target.gen, stem);
  if (a) {
    if (a[1] && suffix && suffix !== a[1]) fail(`${suffix.slice(1)} variant of this instruction is not supported`);
    stem = a[0];
    suffix = a[1] || suffix;
  }
  let defs = vopDefs(target.gen, stem);
  let sfx = suffix;
  // A name that itself ends in a suffix-like tail (none today, kept for safety).
  if (defs.length === 0 && suffix) {
    defs = vopDefs(target.gen, stmt.mnemonic);
    sfx = '';
  }
  if (defs.length === 0) return undefined;
  try {
    return assembleIn(target, stmt, defs, sfx);
  } catch (e) {
    if (e instanceof AsmError) throw new AsmError(e.reason, stmt.line);
    throw e;
  }
}
