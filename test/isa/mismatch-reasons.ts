/**
 * Why each corpus row we do not match is not matched. Every reason is documented here,
 * once; `tools/isa-mismatches.ts` writes the classified list to
 * test/data/isa/known-mismatches.tsv and docs/isa-mismatches.md, and the corpus test fails
 * on any mismatch that is not in that list. A row no reason explains is `unanalysed`.
 */
import { asmRows, type CorpusGen, type Mismatch } from './corpus-data.ts';
import type { GenReport } from './corpus-report.ts';

export type Direction = 'disasm' | 'disasm-w64' | 'asm-accepted' | 'asm-rejected' | 'round-trip';

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
const ASM_BAD: readonly Direction[] = ['asm-rejected'];
const RT: readonly Direction[] = ['round-trip'];
const ALL_GENS: readonly CorpusGen[] = ['gfx7', 'gfx8', 'gfx9', 'gfx10.3', 'gfx11'];

/** Specific reasons, after the gfx11 feature gaps above. */
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
  // ---- our own bugs and gaps, open ----
  rule(
    'ours-gfx7-mimg-vaddr-width',
    "gfx7 MIMG: the address register count is not in the SI/CI encoding; LLVM's gfx7 rows are assembler-derived and keep the width written in the source (`v[237:240]`), while our decoder derives it from the opcode and dmask (`v237`). Bytes are identical; MIMG is still being finished in src/isa/families/image*.ts. Ours to settle (open).",
    DIS,
    ['gfx7'],
    (t) => /^image_/.test(t),
  ),
  rule(
    'ours-gfx7-readlane-e32',
    "gfx7 v_readlane_b32/v_writelane_b32 are VOP2 opcodes on SI/CI; LLVM prints them without a suffix, we print `_e32`, and our assembler applies the constant-bus limit to v_writelane's lane-select SGPR (which the hardware reads separately). Our bug, open.",
    [...DIS, ...RT],
    ['gfx7'],
    (t) => /^v_(read|write)lane_b32/.test(t),
  ),
  rule(
    'ours-u16-operand-inline-float',
    'gfx7-9 VOP3 with 16-bit integer sources (v_sad_u16, v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mad_u32_u16, v_mad_i32_i16): LLVM prints inline constants 240-247 as their float names (`0.5`, `-4.0`); we print the f16 bit pattern (`0x3800`), which is a literal VOP3 cannot take, so our own round trip fails. LLVM is right (the encoding is the inline constant). Our bug, open.',
    [...DIS, ...RT],
    ['gfx7', 'gfx8', 'gfx9'],
    (t) => /^v_(m?q?sad_(u16|pk_u16_u8)|mad_(u32_u16|i32_i16))\b/.test(t),
  ),
  rule(
    'ours-gfx9-sat-pk-literal',
    'gfx9 v_sat_pk_u8_i16: the source is a packed 2x16-bit (32-bit) operand; LLVM keeps the full 32-bit literal, we truncate it to 16 bits when printing and assembling. LLVM right; our bug, open.',
    [...DIS, ...RT, ...ASM_OK],
    ['gfx9'],
    (t) => /^v_sat_pk_u8_i16/.test(t),
  ),
  rule(
    'ours-gfx11-wmma',
    'gfx11 WMMA (v_wmma_*): with wave64 the C/D matrices are 4 (f32/i32) VGPRs, not 8, and our assembler rejects the WMMA forms (and accepts op_sel on them, which LLVM refuses). LLVM right; our bug, open.',
    [...DIS, ...ASM_OK, ...ASM_BAD],
    ['gfx11'],
    (t) => /^v_wmma_/.test(t),
  ),
  rule(
    'ours-gfx11-dot2-f16-op_sel',
    'gfx11 VOP3 v_dot2_f16_f16: LLVM decodes and encodes op_sel bits for src2 and dst (op_sel:[0,0,1,0], [0,0,0,1]); we drop them when printing and assembling, and reject some inline-constant forms. LLVM right; our bug, open.',
    [...DIS, ...RT, ...ASM_OK],
    ['gfx11'],
    (t) => /^v_dot2_f16_f16 /.test(t) || /^[0-9a-f]{2}[0-9a-f]{2}66d6/.test(t),
  ),
  rule(
    'ours-gfx11-sop-src_scc',
    'gfx11 SOP1/SOP2 with `src_scc` (253) as a scalar source: the gfx11 ISA lists SCC as an SSRC value and LLVM accepts and prints it; our assembler rejects it. Our bug, open.',
    [...ASM_OK, ...RT],
    ['gfx11'],
    (t) => /^s_\w+ .*src_scc/.test(t),
  ),
  rule(
    'ours-gfx11-vop2-literal',
    'gfx11 VOP2 v_cvt_pk_rtz_f16_f32_e32 / v_pk_fmac_f16 with a literal or high VGPR source: LLVM keeps the 32-bit VOP2 form with the literal; our assembler rejects the _e32 form (and promotes the unsuffixed form to VOP3). Our bug, open.',
    [...ASM_OK, ...RT],
    ['gfx11'],
    (t) => /^v_(cvt_pk_?rtz_f16_f32|pk_fmac_f16)/.test(t),
  ),
  rule(
    'ours-vop3-shared-literal',
    'gfx10.3/gfx11 VOP3 with one literal dword used by two operands (v_mad_u64_u32, v_ldexp_f64, v_trig_preop_f64, v_*qsad*, v_cmpx_class_f64, one of them 64-bit): LLVM prints the same hex for both and accepts it; our assembler compares the operand values (a 64-bit FP literal is the high half) and reports "only one unique literal". LLVM right; our bug, open.',
    [...ASM_OK, ...RT],
    ['gfx10.3', 'gfx11'],
    (t, m) => /only one unique literal/.test(m.got) || /^v_(mad_u64_u32|ldexp_f64) /.test(t),
  ),
  rule(
    'ours-smem-no-operand-soffset',
    "gfx10.3/gfx11 SMEM without address operands (s_memtime, s_memrealtime, s_dcache_inv, s_gl1_inv): LLVM leaves the SOFFSET field 0; we write NULL (0x7d/0x7c). The hardware ignores the field; LLVM's bytes are the canonical ones. Our bug, open.",
    [...ASM_OK, ...RT],
    ['gfx10.3', 'gfx11'],
    (t) => /^s_(memtime|memrealtime|dcache_inv|gl1_inv)\b/.test(t),
  ),
  rule(
    'ours-gfx89-smem-omitted-offset',
    'gfx8/gfx9 s_load_dword with no offset operand: LLVM encodes IMM=1, offset 0; we encode IMM=0 with SOFFSET field 0, i.e. an offset of s0 on gfx8. Our bug (wrong semantics), open.',
    ASM_OK,
    ['gfx8', 'gfx9'],
    (t) => /^s_load_dword s1, s\[2:3\]( glc)?$/.test(t),
  ),
  rule(
    'ours-waitcnt-depctr-negative',
    'gfx10.3/gfx11 s_waitcnt_depctr with a negative value: LLVM truncates -1/-32768 to 16 bits and rejects -32769; we do not mask the value (it overwrites the opcode bits) and accept out-of-range values. Our bug, open.',
    [...ASM_OK, ...ASM_BAD],
    ['gfx10.3', 'gfx11'],
    (t) => /^s_waitcnt_depctr -/.test(t),
  ),
  rule(
    'ours-gfx10-s_version-symbolic',
    'gfx10.3 s_version: LLVM 19 prints the MDP flag symbolically (`1|UC_VERSION_MDP_BIT`); we print the raw 0x8001. Our printer gap, open.',
    DIS,
    ['gfx10.3'],
    (t) => /^s_version /.test(t),
  ),
  // ---- assembler syntax we do not implement (LLVM accepts) ----
  rule(
    'ours-asm-sop-e32-suffix',
    'LLVM accepts a forced `_e32` suffix on scalar and SMEM mnemonics (`s_mov_b64_e32`, `s_sub_u32_e32`, `s_buffer_load_dword_e32`); we do not. Syntax gap, open.',
    ASM_OK,
    ALL_GENS,
    (t) => /^s_\w+_e32 /.test(t),
  ),
  rule(
    'ours-asm-register-list',
    'LLVM accepts register lists `[s8,s9]`, `[ttmp4,ttmp5]`, `[exec_lo,exec_hi]` (also with expressions, `ttmp[(3+2)*2+1]`) as a register range; we do not. Syntax gap, open.',
    ASM_OK,
    ALL_GENS,
    (t) =>
      /\[(s|ttmp|exec_lo|vcc_lo|flat_scratch_lo|tba_lo|tma_lo)\[?\d*[\],+]/.test(t) || /ttmp\[[^\]]*[+*/(]/.test(t),
  ),
  rule(
    'ours-asm-lit-modifier',
    'LLVM accepts the `lit(…)` operand modifier (forces a literal encoding); we do not. Syntax gap, open.',
    ASM_OK,
    ALL_GENS,
    (t) => /\blit\s*\(/.test(t),
  ),
  rule(
    'ours-asm-hwreg-syntax',
    'LLVM accepts the structured hwreg form `{id: 51, offset: 1, size: 31}` and the gfx10 alias HW_REG_HW_ID for HW_ID1; we do not. Syntax gap, open.',
    ASM_OK,
    ALL_GENS,
    (t) => /^s_(get|set)reg_b32 .*(\{|HW_REG_HW_ID\))/.test(t),
  ),
  rule(
    'ours-asm-waitcnt-syntax',
    'LLVM accepts `vmcnt_sat(…)`/`expcnt_sat`/`lgkmcnt_sat` and blanks inside counter parentheses (`vmcnt ( 14 )`); we do not. Syntax gap, open.',
    ASM_OK,
    ALL_GENS,
    (t) => /^s_waitcnt /.test(t),
  ),
  rule(
    'ours-asm-64bit-literal-value',
    'LLVM accepts 64-bit literal texts whose value fits the operand after sign/zero extension (`0xffffffffffffffff` as inline -1, `0xFFFF0000` as a 64-bit operand, SMEM offset 0xFFFFFFFFFFF00000 as a 21-bit negative offset); we reject them. Our gap, open.',
    ASM_OK,
    ALL_GENS,
    (t) => /0x[fF]{8,}|0xFFFF0000/.test(t),
  ),
  rule(
    'ours-asm-symbols-and-spacing',
    'LLVM treats unknown identifiers as symbols with `name=value` assignments (`vccz=33`, a register name redefined as a symbol) and accepts blanks around `:` (`offset : 52583`); we do not. Syntax gap, open.',
    ASM_OK,
    ['gfx7'],
    (t) => /vccz|offset :/.test(t),
  ),
  rule(
    'ours-asm-sendmsg-optional-stream',
    'gfx8 `sendmsg(2, GS_OP_CUT)`: LLVM accepts an omitted stream id (0); we require it. Syntax gap, open.',
    ASM_OK,
    ['gfx8'],
    (t) => /^s_sendmsg /.test(t),
  ),
  rule(
    'ours-gfx10-pops_exiting_wave_id',
    'gfx10.3 SOP2 with `pops_exiting_wave_id` (239) as a source: LLVM accepts it on gfx1030, we reject it. Our gap, open.',
    ASM_OK,
    ['gfx10.3'],
    (t) => /pops_exiting_wave_id/.test(t),
  ),
  // ---- our assembler accepts what LLVM (and the ISA) rejects ----
  rule(
    'ours-accepts-bad-sendmsg',
    'LLVM rejects out-of-range or ill-formed sendmsg operands (message 16 or -1, GS op 3 with extra fields, stream 4 or -1, MSG_SAVEWAVE before gfx8, system message 15 with an op); we accept and encode them. LLVM right; our validation gap, open.',
    ASM_BAD,
    ALL_GENS,
    (t) => /^s_sendmsg /.test(t),
  ),
  rule(
    'ours-accepts-bad-waitcnt',
    'LLVM rejects a trailing `,` or `&` after the last s_waitcnt counter and, on gfx11, an SGPR other than null in s_waitcnt_vscnt/vmcnt/expcnt; we accept. Our validation gap, open (the gfx11 SGPR form is a LLVM restriction the ISA does not state: side unknown).',
    ASM_BAD,
    ALL_GENS,
    (t) => /^s_waitcnt/.test(t),
  ),
  rule(
    'ours-accepts-madak-sgpr',
    'gfx7-9 v_madak_f32 with an SGPR/constant src0: the literal K already uses the single constant-bus read before gfx10, so LLVM rejects an SGPR (or scc, shared_base) src0; we accept. LLVM right; our bug, open.',
    ASM_BAD,
    ['gfx7', 'gfx8', 'gfx9'],
    (t) => /^v_madak_f32 /.test(t),
  ),
  rule(
    'ours-accepts-lds-direct-misuse',
    'gfx9/gfx10.3 lds_direct/src_lds_direct is only allowed as src0 of a non-reversed VOP1/VOP2/VOPC e32 instruction; LLVM rejects it in *rev* and shift opcodes, VOP3/VOP3P and as src1; we accept. LLVM right; our validation gap, open.',
    ASM_BAD,
    ['gfx9', 'gfx10.3'],
    (t) => /lds_direct/.test(t),
  ),
  rule(
    'ours-accepts-gfx7-int-clamp',
    "gfx7 clamp on integer VOP3 results (v_add_i32, v_addc/subb, v_mul/mad_*24, v_sad_*, v_qsad/mqsad, VOPC): LLVM's SI/CI definitions have no clamp for these; we accept and set bit 11. LLVM right; our bug, open.",
    ASM_BAD,
    ['gfx7'],
    (t) => / clamp$/.test(t),
  ),
  rule(
    'ours-accepts-gfx7-vop3-misc',
    'gfx7 VOP3 forms LLVM rejects: `neg` on an integer source (v_ldexp_f32, v_cvt_pkaccum_u8_f32 src1), a misaligned 64-bit SGPR pair (s_xor_b64 s[3:4]), v_cvt_pk_u8_f32 and v_mqsad_u32_u8 VOP3 forms LLVM 19 does not define for bonaire; we accept. LLVM right for the first two; the last two not checked against the CI manual (side unknown). Open.',
    ASM_BAD,
    ['gfx7'],
    (t) => /^(v_ldexp_f32|v_cvt_pkaccum_u8_f32|s_xor_b64|v_cvt_pk_u8_f32|v_mqsad_u32_u8) /.test(t),
  ),
  rule(
    'ours-accepts-bad-smem-offset',
    "SMEM offsets LLVM rejects: negative immediate offsets where the field is unsigned (gfx7 8-bit, gfx9/gfx10.3 buffer forms), `-1` on gfx7 (encoded by us as a 32-bit literal), and gfx8 SMEM destinations m0/exec (LLVM's SReg_*_XM0_XEXEC class; the VI manual is silent, side unknown). We accept. Open.",
    ASM_BAD,
    ALL_GENS,
    (t) =>
      /^s_(buffer_|atc_|)(load|store|atomic|probe|memtime|memrealtime)\w* /.test(t) || /^s_atc_probe_buffer /.test(t),
  ),
  rule(
    'ours-accepts-bad-immediate',
    'Immediates LLVM rejects: s_cmpk_le_u32 with a negative (unsigned 16-bit) value, s_set_gpr_idx_on with a mode mask > 15, -1 or a repeated mode, `--1` (double negation). We accept. LLVM right; open.',
    ASM_BAD,
    ALL_GENS,
    (t) => /^(s_cmpk_le_u32 .*-1|s_set_gpr_idx_on |v_ceil_f32 v0, --1)/.test(t),
  ),
  rule(
    'ours-accepts-branch-register',
    '`s_branch s0`: LLVM rejects a register where a label/offset is required; we take `s0` as a symbol of value 0. Our bug, open.',
    ASM_BAD,
    ALL_GENS,
    (t) => /^s_branch s\d/.test(t),
  ),
  rule(
    'ours-accepts-missing-registers',
    'gfx8 tonga has no XNACK and no `null` register: LLVM rejects xnack_mask_lo/hi and null there; we accept them. LLVM right; our bug, open.',
    ASM_BAD,
    ['gfx8'],
    (t) => /xnack_mask|null/.test(t),
  ),
  rule(
    'ours-accepts-permlane-lds-direct',
    'gfx10.3 v_permlane16/x16 with lds_direct src0 (VOP3): LLVM rejects, we accept. LLVM right; open.',
    ASM_BAD,
    ['gfx10.3'],
    (t) => /^v_permlane/.test(t),
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
  rule(
    'ours-gfx11-hwreg-hw_id',
    'gfx11 has no HW_REG_HW_ID (gfx10 split it into HW_REG_HW_ID1/HW_ID2, and LLVM 19 accepts the old name on gfx10 only); our assembler takes it on gfx11 too. Our bug, open.',
    ASM_BAD,
    ['gfx11'],
    (_t, m) => /hwreg\(HW_REG_HW_ID\b/.test(m.key),
  ),
];

/** Ordered: the first reason that matches a row is its reason. */
export const REASONS: readonly Reason[] = [
  {
    id: 'true16-syntax',
    description:
      "gfx11 is modelled as LLVM 19's default fake16 form (16-bit operands are 32-bit VGPRs). LLVM accepts the true16 spelling (`v1.l`, `v1.h`) only with `-mattr=+real-true16`, and prints a few fake16 instructions (v_mov_b16, their DPP forms) with true16 halves. Not implemented yet: true16 needs a target attribute and a register-half operand class.",
    matches: (m, c) =>
      c.mattr.includes('real-true16') || (c.gen === 'gfx11' && /\bv\d+\.[lh]\b/.test(m.expected + ' ' + m.key)),
  },
  {
    id: 'bf16-operands',
    description:
      'gfx11 bf16 instructions (v_dot2_bf16_bf16, v_dot2_f32_bf16): LLVM 19 encodes bf16 constants as 16-bit literals placed as it does for f16, and prints them by their bf16 value; the registry has no bf16 value type yet, so we take them as f16/f32.',
    matches: (m) => /bf16/.test(m.key + ' ' + m.expected),
  },
  ...SPECIFIC_REASONS,
];

function classify(m: Mismatch, c: Context): string {
  for (const r of REASONS) if (r.matches(m, c)) return r.id;
  return 'unanalysed';
}

/** Classifies every mismatch of a corpus report. */
export function classifyReport(gen: CorpusGen, r: GenReport): ClassifiedMismatch[] {
  const mattr = new Map(asmRows(gen).map((row) => [row.input, row.mattr]));
  const out: ClassifiedMismatch[] = [];
  const add = (direction: Direction, list: readonly Mismatch[]): void => {
    for (const m of list) {
      const c = { gen, direction, mattr: direction.startsWith('asm') ? (mattr.get(m.key) ?? '') : '' };
      out.push({ ...m, gen, direction, reason: classify(m, c) });
    }
  };
  add('disasm', r.disasm.mismatches);
  if (r.disasmWave64) add('disasm-w64', r.disasmWave64.mismatches);
  add('asm-accepted', r.asmAccepted.mismatches);
  add('asm-rejected', r.asmRejected.mismatches);
  add('round-trip', r.roundTrip.mismatches);
  return out;
}

/** A row's identity in the known-mismatch list. */
export function mismatchKey(m: { gen: string; direction: string; key: string }): string {
  return `${m.gen}\t${m.direction}\t${m.key}`;
}
