/**
 * Lookup over the generated side table of VOP extension forms: which opcode has which
 * extension form in a generation, the mnemonic llvm-mc-19 prints for it, and the base
 * instruction's registry entry.
 */
import { Gen } from '../gen.ts';
import type { Family, InstructionDef } from '../registry/types.ts';
import { lookupName, lookupOpcode, lookupVop3Opcode } from '../registry/registry.ts';
import { VOP_EXT_FORMS, type VopExtForm } from '../registry/generated/vop-ext-forms.ts';

export type { VopExtForm };

export interface ExtForm {
  readonly form: VopExtForm;
  readonly op: number;
  /** The mnemonic as llvm-mc-19 prints it, suffix included. */
  readonly mnemonic: string;
  /** Source-modifier bits, two per probed bit (see the generated table's banner). */
  readonly mods: number;
}

/** What one source-modifier bit means for an instruction's form. */
export const enum ModMode {
  Rejected = 0,
  Float = 1,
  Sext = 2,
  Ignored = 3,
}

/** Side-table slots after the six source-modifier ones (see the generated table's banner). */
export const enum Slot {
  Clamp = 6,
  Omod = 7,
  OpSelSrc0 = 8,
  OpSelDst = 9,
  VdstHigh = 10,
  OpSelSrc1 = 11,
  OpSelSrc2 = 12,
  Src0High = 13,
  Vsrc1High = 14,
}

/** Side-table slot of each VOP3 op_sel bit: src0, src1, src2, dst. */
export const OPSEL_SLOTS = [Slot.OpSelSrc0, Slot.OpSelSrc1, Slot.OpSelSrc2, Slot.OpSelDst] as const;

export function modMode(f: ExtForm, k: number): ModMode {
  return ((f.mods >>> (2 * k)) & 3) as ModMode;
}

/** Forms by generation, then form, then opcode (the decoder and printer ask once per instruction). */
const byOp: Map<VopExtForm, (ExtForm | undefined)[]>[] = [0, 1, 2, 3, 4, 5].map(() => new Map());
/** Forms by printed mnemonic, per generation (several forms may print the same text: DPP16 and DPP8). */
const byMnemonic = new Map<string, ExtForm[]>();
/** Forms by mnemonic stem (suffix dropped), per generation and form, for the assembler. */
const byStem = new Map<string, ExtForm[]>();

function stemOf(mnemonic: string): string {
  return mnemonic.replace(/(_e64_dpp|_dpp|_sdwa)$/, '');
}

for (const [form, perGen] of Object.entries(VOP_EXT_FORMS) as [
  VopExtForm,
  Partial<Record<number, readonly (readonly [number, string, number])[]>>,
][]) {
  for (const [gen, rows] of Object.entries(perGen)) {
    for (const [op, mnemonic, mods] of rows ?? []) {
      const f: ExtForm = { form, op, mnemonic, mods };
      const genForms = byOp[Number(gen)];
      let arr = genForms.get(form);
      if (!arr) genForms.set(form, (arr = []));
      arr[op] = f;
      const k = `${gen}:${mnemonic}`;
      const list = byMnemonic.get(k);
      if (list) list.push(f);
      else byMnemonic.set(k, [f]);
      const sk = `${gen}:${form}:${stemOf(mnemonic)}`;
      const sl = byStem.get(sk);
      if (sl) sl.push(f);
      else byStem.set(sk, [f]);
    }
  }
}

export function extForm(gen: Gen, form: VopExtForm, op: number): ExtForm | undefined {
  return byOp[gen]?.get(form)?.[op];
}

export function extFormsByMnemonic(gen: Gen, mnemonic: string): readonly ExtForm[] {
  return byMnemonic.get(`${gen}:${mnemonic}`) ?? [];
}

/** The forms of one kind whose mnemonic stem (name without `_sdwa`/`_dpp`/`_e64_dpp`) is `stem`. */
export function extFormsByStem(gen: Gen, form: VopExtForm, stem: string): readonly ExtForm[] {
  return byStem.get(`${gen}:${form}:${stem}`) ?? [];
}

/** The family whose opcode space a form's opcode lives in. */
export function baseFamily(form: VopExtForm): Family {
  if (form.startsWith('VOP3P')) return 'VOP3P';
  if (form.startsWith('VOP3')) return 'VOP3';
  return form.slice(0, 4) as Family;
}

/** The registry entry of the base instruction of an extension form. */
export function baseDef(gen: Gen, form: VopExtForm, op: number, mnemonic: string): InstructionDef | undefined {
  const fam = baseFamily(form);
  if (fam === 'VOP3') return lookupVop3Opcode(gen, op) ?? lookupOpcode(gen, 'VOP3', op) ?? defByStem(gen, mnemonic);
  return lookupOpcode(gen, fam, op) ?? defByStem(gen, mnemonic);
}

function defByStem(gen: Gen, mnemonic: string): InstructionDef | undefined {
  return lookupName(gen, stemOf(mnemonic))[0];
}

/** Whether a generation has the gfx10+ DPP16 controls (row_share, row_xmask, fi). */
export function hasDpp16(gen: Gen): boolean {
  return gen >= Gen.GFX10;
}
