/**
 * Why each corpus row we do not match is not matched. Every reason is documented here,
 * once; `tools/isa-mismatches.ts` writes the classified list to
 * test/data/isa/known-mismatches.tsv and docs/isa-mismatches.md, and the corpus test fails
 * on any mismatch that is not in that list. A row no reason explains is `unanalysed`.
 */
import { asmRows, type CorpusGen, type Mismatch } from './corpus-data.ts';
import type { GenReport } from './corpus-report.ts';

export type Direction =
  | 'disasm'
  | 'disasm-w64'
  | 'asm-accepted'
  | 'asm-rejected'
  | 'round-trip'
  | 'round-trip-loses-bits'
  | 'round-trip-llvm-rejects';

export interface ClassifiedMismatch extends Mismatch {
  readonly gen: CorpusGen;
  readonly direction: Direction;
  readonly reason: string;
}

interface Context {
  readonly gen: CorpusGen;
  readonly direction: Direction;
  /** The asm row's -mattr column (asm directions only). */
  readonly mattr: string;
  /** The asm row's printed-text column: LLVM's text of the input, or its message (asm directions only). */
  readonly printed: string;
}

export interface Reason {
  readonly id: string;
  /** What differs, why, and whose side (ours or LLVM's) is right where that is known. */
  readonly description: string;
  readonly matches: (m: Mismatch, c: Context) => boolean;
}

/** The instruction text of a row: LLVM's text for bytes->text rows, the input otherwise. */
function textOf(m: Mismatch, c: Context): string {
  return c.direction === 'disasm' || c.direction === 'disasm-w64' ? m.expected + ' ' + m.got : m.key;
}

function isGen(c: Context, ...gens: CorpusGen[]): boolean {
  return gens.includes(c.gen);
}

function rule(
  id: string,
  description: string,
  dirs: readonly Direction[],
  gens: readonly CorpusGen[],
  test: (text: string, m: Mismatch, c: Context) => boolean,
): Reason {
  return {
    id,
    description,
    matches: (m, c) => dirs.includes(c.direction) && isGen(c, ...gens) && test(textOf(m, c), m, c),
  };
}

const DIS: readonly Direction[] = ['disasm', 'disasm-w64'];
const ASM_OK: readonly Direction[] = ['asm-accepted'];

/** Specific reasons, after the gfx11 feature gap above. */
const SPECIFIC_REASONS: readonly Reason[] = [
  // ---- LLVM 19 wrong or inconsistent (see docs/isa-llvm-deviations.md) ----
  rule(
    'llvm-gfx7-vop3b-clamp',
    'gfx7 v_div_scale_f32/f64 (VOP3b): SI/CI VOP3b has no CLAMP field (bits 8-14 are SDST). LLVM 19 bonaire still encodes `clamp` as the VOP3a clamp bit 11, which lands inside SDST (`v_div_scale_f64 v[24:25], s[8:9], … clamp` assembles to the same bytes as without clamp), and prints `clamp` whenever SDST bit 3 is set. LLVM wrong; we follow the ISA document and print no clamp.',
    DIS,
    ['gfx7'],
    (t) => /^v_div_scale_f(32|64) /.test(t) && / clamp/.test(t),
  ),
  rule(
    'llvm-invalid-immediate-annotation',
    "gfx11: LLVM 19 prints an inline constant in a slot that cannot take one (WMMA src0/src1, v_permlane64/permlanex16 operands, VOP3-DPP src) with a `/*Invalid immediate*/` comment; the bytes are legal to decode and we print the operand plainly (and, for v_permlanex16, an explicit `op_sel:[0,0]`). The comment is LLVM diagnostics, not syntax; neither text re-assembles. Informational; our op_sel:[0,0] is our printer's default-omission bug, open.",
    DIS,
    ['gfx11'],
    (_t, m) => m.expected.includes('/*Invalid immediate*/'),
  ),
  {
    id: 'gfx7-mimg-vaddr-not-encoded',
    description:
      "gfx7 MIMG: the address register count is not in the SI/CI encoding, and LLVM 19 has no gfx7 decoder: the gfx7 rows are assembler-derived and keep whatever width their source wrote, so the same encoding appears with several widths (`image_load v5, v1, …` and `image_load v5, v[1:4], …`; the re-assembled gfx8 rows use gfx8's decoder widths). No decoder can print every row's width; we print the address count of the smallest 1D image (the width 1,774 of the 1,934 gfx7 image rows use). Only the vaddr width differs, and LLVM's text assembles to the same bytes with our assembler. Not a bug of either side.",
    matches: (m, c) =>
      c.direction === 'disasm' && c.gen === 'gfx7' && /^image_/.test(m.expected) && sameButVaddrWidth(m),
  },
  {
    id: 'corpus-asm-row-mislabelled',
    description:
      'A text->bytes row the corpus marks `<error>` although its own printed-text column holds the encoding llvm-mc-19 gives (`v_cvt_pk_u8_f32 v55, v79, v166, v229` on bonaire: llvm-mc-19 assembles it to 3700bcd24f4d9707, which we give too). The corpus generator mislabelled the row; we match LLVM.',
    matches: (m, c) => c.direction === 'asm-rejected' && m.got === c.printed.replace(/0x|,/g, ''),
  },
  // ---- assembler syntax we do not implement (LLVM accepts) ----
  rule(
    'ours-asm-symbols-and-spacing',
    'LLVM treats unknown identifiers as symbols with `name=value` assignments, even after their use and even over a register name (`s_load_dword s50, s[58:59], vccz; vccz=33`, `s_load_dword vccz, …`); we have no symbol table. Syntax gap, open.',
    ASM_OK,
    ['gfx7'],
    (t) => /vccz/.test(t),
  ),
  // ---- bytes LLVM 19 refuses that we decode ----
  rule(
    'llvm-rejects-vop3p-modifiers',
    'gfx10.3/gfx11 VOP3P encodings LLVM 19 refuses: integer packed ops (v_pk_*_u16/i16, v_dot2_i32_i16) with neg_lo/neg_hi or op_sel_hi bits clear on an SGPR/literal source, and v_fma_mix*/e64_dpp with literal or DPP forms; we decode them. The RDNA2/3 manuals list the fields without forbidding these values, so the side is unknown (not checked in detail). Open.',
    DIS,
    ['gfx10.3', 'gfx11'],
    (_t, m) => m.expected === '<invalid>' && /^v_(pk_|dot2_i32_i16|fma_mix|wmma_bf16)/.test(m.got),
  ),
  rule(
    'llvm-rejects-reserved-fields',
    'Bytes LLVM 19 refuses because of a reserved/unused field we ignore: gfx11 s_gl1_inv with non-zero address fields, gfx11 VOP1/VOP2 DPP with a reserved dpp_ctrl (we print `/* Invalid dpp_ctrl value */`), gfx8/9 ds_*_src2_* opcodes with fields LLVM does not expect. Which side is right is not settled (the manuals mark the fields reserved). Open.',
    DIS,
    ['gfx8', 'gfx9', 'gfx11'],
    (_t, m) => m.expected === '<invalid>' && /^(s_gl1_inv|v_\w+_dpp|ds_\w+_src2_)/.test(m.got),
  ),
];

/** Whether two image texts differ only in the width of their vaddr operand (the second). */
function sameButVaddrWidth(m: Mismatch): boolean {
  const firstReg = (t: string): string =>
    t.replace(
      /^(\S+ [^,]+, )v(?:\[(\d+):\d+\]|(\d+))/,
      (_all, head: string, a?: string, b?: string) => `${head}v${a ?? b}`,
    );
  return firstReg(m.expected) === firstReg(m.got);
}

/** Ordered: the first reason that matches a row is its reason. */
export const REASONS: readonly Reason[] = [
  {
    id: 'true16-syntax',
    description:
      "gfx11 is modelled as LLVM 19's default fake16 form (16-bit operands are 32-bit VGPRs). LLVM accepts the true16 spelling (`v1.l`, `v1.h`) only with `-mattr=+real-true16`, and prints a few fake16 instructions (v_mov_b16, their DPP forms) with true16 halves. Not implemented yet: true16 needs a target attribute and a register-half operand class.",
    matches: (m, c) =>
      c.mattr.includes('real-true16') || (c.gen === 'gfx11' && /\bv\d+\.[lh]\b/.test(m.expected + ' ' + m.key)),
  },
  ...SPECIFIC_REASONS,
];

function classify(m: Mismatch, c: Context): string {
  for (const r of REASONS) if (r.matches(m, c)) return r.id;
  return 'unanalysed';
}

/** Classifies every mismatch of a corpus report. */
export function classifyReport(gen: CorpusGen, r: GenReport): ClassifiedMismatch[] {
  const rows = new Map(asmRows(gen).map((row) => [row.input, row]));
  const out: ClassifiedMismatch[] = [];
  const add = (direction: Direction, list: readonly Mismatch[]): void => {
    for (const m of list) {
      const row = direction.startsWith('asm') ? rows.get(m.key) : undefined;
      const c = { gen, direction, mattr: row?.mattr ?? '', printed: row?.printed ?? '' };
      out.push({ ...m, gen, direction, reason: classify(m, c) });
    }
  };
  add('disasm', r.disasm.mismatches);
  if (r.disasmWave64) add('disasm-w64', r.disasmWave64.mismatches);
  add('asm-accepted', r.asmAccepted.mismatches);
  add('asm-rejected', r.asmRejected.mismatches);
  add('round-trip', r.roundTrip.byClass.canonical.mismatches);
  add('round-trip-loses-bits', r.roundTrip.byClass['text-loses-bits'].mismatches);
  add('round-trip-llvm-rejects', r.roundTrip.byClass['llvm-rejects-text'].mismatches);
  return out;
}

/** A row's identity in the known-mismatch list. */
export function mismatchKey(m: { gen: string; direction: string; key: string }): string {
  return `${m.gen}\t${m.direction}\t${m.key}`;
}
