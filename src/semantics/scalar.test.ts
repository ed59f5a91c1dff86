/**
 * Scalar ALU semantics on the concrete algebra, against expectations written from AMD's ISA
 * documents (the opcode descriptions of the Sea Islands, GCN3, Vega, RDNA1/2/3 references,
 * cited per case as "<doc>, <INSTRUCTION>"). Each case runs in every generation whose
 * registry has the instruction, assembled from text, so the per-generation opcodes are
 * exercised too.
 */
import { describe, expect, it } from 'vitest';
import { assembleLine } from '../isa/asm.ts';
import { decodeAt } from '../isa/decoder.ts';
import { GEN_NAMES, targetFor, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { allInstructions, lookupName } from '../isa/registry/registry.ts';
import type { InstructionDef } from '../isa/registry/types.ts';
import { concrete } from './concrete.ts';
import { SemanticsRefusal, type ScalarState } from './context.ts';
import { runScalar, SALU_FAMILIES, SCALAR_UNCOVERED, scalarSemanticNames, scalarSemanticsFor } from './scalar.ts';

/** One processor per generation (gfx10+ in wave32 and wave64). */
const TARGETS: readonly Target[] = [
  targetFor('hawaii'),
  targetFor('tonga'),
  targetFor('gfx900'),
  targetFor('gfx1013'),
  targetFor('gfx1013', true),
  targetFor('gfx1030'),
  targetFor('gfx1030', true),
  targetFor('gfx1100'),
  targetFor('gfx1100', true),
];
const EXEC = 126;
const VCC = 106;

function assemble(t: Target, text: string): Instruction {
  const r = assembleLine(t, text);
  if (!r.words) throw new Error(`${text}: ${r.error?.message}`);
  return decodeAt(t, Uint32Array.from(r.words), 0);
}

interface Machine {
  readonly regs: Map<number, number>;
  scc: boolean;
  /** Hardware registers by hwreg id (1: MODE). */
  hwregs?: Map<number, number>;
}

function stateOf(m: Machine, nextPc?: [number, number]): ScalarState<number, boolean> {
  return {
    readSgpr: (c) => m.regs.get(c) ?? 0,
    writeSgpr: (c, v) => void m.regs.set(c, v >>> 0),
    readScc: () => m.scc,
    writeScc: (v) => {
      m.scc = v;
    },
    readSgprAt: (base, off) => m.regs.get(base + off) ?? 0,
    writeSgprAt: (base, off, v) => void m.regs.set(base + off, v >>> 0),
    ...(nextPc ? { nextPc: () => nextPc } : {}),
    readHwReg: (id) => m.hwregs?.get(id) ?? 0,
    writeHwReg: (id, v) => void (m.hwregs ??= new Map()).set(id, v >>> 0),
  };
}

function run(t: Target, text: string, regs: Record<number, number> = {}, scc = false): Machine {
  const inst = assemble(t, text);
  expect(inst.def.name).toBe(text.split(/\s/)[0]);
  const m: Machine = { regs: new Map(Object.entries(regs).map(([k, v]) => [Number(k), v >>> 0])), scc };
  runScalar(concrete, t, inst, stateOf(m));
  return m;
}

interface Case {
  readonly text: string;
  /** Where the expectation comes from. */
  readonly doc: string;
  readonly regs?: Record<number, number>;
  readonly scc?: boolean;
  readonly out: Record<number, number>;
  /** SCC afterwards (defaults to checking nothing). */
  readonly sccOut?: boolean;
  /** Only these targets (else every target whose generation has the instruction). */
  readonly where?: (t: Target) => boolean;
}

const has = (t: Target, name: string): boolean => lookupName(t.gen, name).length > 0;
const label = (t: Target): string => `${GEN_NAMES[t.gen]}${t.wave64 ? ' w64' : ' w32'}`;

function check(c: Case): void {
  const name = c.text.split(/\s/)[0];
  const targets = TARGETS.filter((t) => has(t, name) && (!c.where || c.where(t)));
  expect(targets.length, `${name} exists somewhere`).toBeGreaterThan(0);
  for (const t of targets) {
    const m = run(t, c.text, c.regs, c.scc);
    for (const [k, v] of Object.entries(c.out))
      expect(m.regs.get(Number(k)), `${label(t)} ${c.text} → reg ${k} (${c.doc})`).toBe(v >>> 0);
    if (c.sccOut !== undefined) expect(m.scc, `${label(t)} ${c.text} → SCC (${c.doc})`).toBe(c.sccOut);
  }
}

const CASES: Record<string, readonly Case[]> = {
  'shift counts are masked (5 bits for 32-bit, 6 bits for 64-bit)': [
    {
      text: 's_lshl_b32 s0, s1, 32',
      regs: { 1: 1 },
      out: { 0: 1 },
      sccOut: true,
      doc: 'Vega ISA, S_LSHL_B32: D.u = S0.u << S1.u[4:0]',
    },
    { text: 's_lshl_b32 s0, s1, 33', regs: { 1: 1 }, out: { 0: 2 }, doc: 'Vega ISA, S_LSHL_B32' },
    {
      text: 's_lshl_b32 s0, s1, 31',
      regs: { 1: 2 },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_LSHL_B32: SCC = (D != 0)',
    },
    {
      text: 's_lshr_b32 s0, s1, 36',
      regs: { 1: 0x80000000 },
      out: { 0: 0x08000000 },
      doc: 'Vega ISA, S_LSHR_B32: D.u = S0.u >> S1.u[4:0]',
    },
    {
      text: 's_ashr_i32 s0, s1, 63',
      regs: { 1: 0x80000000 },
      out: { 0: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_ASHR_I32: D.i = signext(S0.i) >> S1.u[4:0]',
    },
    {
      text: 's_lshl_b64 s[0:1], s[2:3], 32',
      regs: { 2: 0x12345678, 3: 0xffffffff },
      out: { 0: 0, 1: 0x12345678 },
      doc: 'Vega ISA, S_LSHL_B64: D.u64 = S0.u64 << S1.u[5:0]',
    },
    {
      text: 's_lshl_b64 s[0:1], s[2:3], 64',
      regs: { 2: 0x12345678, 3: 0x9 },
      out: { 0: 0x12345678, 1: 0x9 },
      doc: 'Vega ISA, S_LSHL_B64: count 64 masks to 0',
    },
    {
      text: 's_lshl_b64 s[0:1], s[2:3], 4',
      regs: { 2: 0xf0000001, 3: 0 },
      out: { 0: 0x10, 1: 0xf },
      doc: 'Vega ISA, S_LSHL_B64',
    },
    {
      text: 's_lshr_b64 s[0:1], s[2:3], 36',
      regs: { 2: 0, 3: 0xf0000000 },
      out: { 0: 0x0f000000, 1: 0 },
      doc: 'Vega ISA, S_LSHR_B64: S1.u[5:0]',
    },
    {
      text: 's_lshr_b64 s[0:1], s[2:3], 1',
      regs: { 2: 0, 3: 1 },
      out: { 0: 0x80000000, 1: 0 },
      doc: 'Vega ISA, S_LSHR_B64',
    },
    {
      text: 's_ashr_i64 s[0:1], s[2:3], 63',
      regs: { 2: 0, 3: 0x80000000 },
      out: { 0: 0xffffffff, 1: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_ASHR_I64',
    },
    {
      text: 's_ashr_i64 s[0:1], s[2:3], 32',
      regs: { 2: 5, 3: 0x80000001 },
      out: { 0: 0x80000001, 1: 0xffffffff },
      doc: 'Vega ISA, S_ASHR_I64',
    },
    {
      text: 's_ashr_i64 s[0:1], s[2:3], 104',
      regs: { 2: 0, 3: 0x40000000 },
      out: { 0: 0x400000, 1: 0 },
      doc: 'Vega ISA, S_ASHR_I64: 104 & 63 = 40',
    },
  ],
  'carries and overflow into SCC': [
    {
      text: 's_add_u32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 1 },
      out: { 0: 0 },
      sccOut: true,
      doc: 'Vega ISA, S_ADD_U32: SCC = carry out',
    },
    {
      text: 's_add_u32 s0, s1, s2',
      regs: { 1: 0xfffffffe, 2: 1 },
      out: { 0: 0xffffffff },
      sccOut: false,
      doc: 'Vega ISA, S_ADD_U32',
    },
    {
      text: 's_sub_u32 s0, s1, s2',
      regs: { 1: 0, 2: 1 },
      out: { 0: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_SUB_U32: SCC = borrow (S1 > S0)',
    },
    {
      text: 's_add_i32 s0, s1, s2',
      regs: { 1: 0x7fffffff, 2: 1 },
      out: { 0: 0x80000000 },
      sccOut: true,
      doc: 'Vega ISA, S_ADD_I32: SCC = signed overflow',
    },
    {
      text: 's_add_i32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 1 },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_ADD_I32: -1 + 1 does not overflow',
    },
    {
      text: 's_sub_i32 s0, s1, s2',
      regs: { 1: 0x80000000, 2: 1 },
      out: { 0: 0x7fffffff },
      sccOut: true,
      doc: 'Vega ISA, S_SUB_I32: SCC = signed overflow',
    },
    {
      text: 's_sub_i32 s0, s1, s2',
      regs: { 1: 0, 2: 0x80000000 },
      out: { 0: 0x80000000 },
      sccOut: true,
      doc: 'Vega ISA, S_SUB_I32: 0 - INT_MIN overflows',
    },
    {
      text: 's_addc_u32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 0 },
      scc: true,
      out: { 0: 0 },
      sccOut: true,
      doc: 'Vega ISA, S_ADDC_U32: D = S0 + S1 + SCC',
    },
    {
      text: 's_addc_u32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 0xffffffff },
      scc: true,
      out: { 0: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_ADDC_U32',
    },
    {
      text: 's_subb_u32 s0, s1, s2',
      regs: { 1: 0, 2: 0 },
      scc: true,
      out: { 0: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_SUBB_U32: D = S0 - S1 - SCC; SCC = borrow',
    },
    {
      text: 's_subb_u32 s0, s1, s2',
      regs: { 1: 5, 2: 4 },
      scc: true,
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_SUBB_U32',
    },
    {
      text: 's_addk_i32 s0, 0x1',
      regs: { 0: 0x7fffffff },
      out: { 0: 0x80000000 },
      sccOut: true,
      doc: 'Vega ISA, S_ADDK_I32: D = D + signext(SIMM16); SCC = overflow',
    },
    {
      text: 's_addk_i32 s0, 0xffff',
      regs: { 0: 1 },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_ADDK_I32: the immediate is sign-extended',
    },
    {
      text: 's_mulk_i32 s0, 0xfffe',
      regs: { 0: 3 },
      out: { 0: 0xfffffffa },
      doc: 'Vega ISA, S_MULK_I32: D = D * signext(SIMM16)',
    },
  ],
  'signed and unsigned compares and selects': [
    {
      text: 's_cmp_lt_i32 s0, s1',
      regs: { 0: 0xffffffff, 1: 1 },
      out: {},
      sccOut: true,
      doc: 'Vega ISA, S_CMP_LT_I32',
    },
    {
      text: 's_cmp_lt_u32 s0, s1',
      regs: { 0: 0xffffffff, 1: 1 },
      out: {},
      sccOut: false,
      doc: 'Vega ISA, S_CMP_LT_U32',
    },
    {
      text: 's_cmp_gt_i32 s0, s1',
      regs: { 0: 1, 1: 0x80000000 },
      out: {},
      sccOut: true,
      doc: 'Vega ISA, S_CMP_GT_I32',
    },
    { text: 's_cmp_ge_u32 s0, s1', regs: { 0: 7, 1: 7 }, out: {}, sccOut: true, doc: 'Vega ISA, S_CMP_GE_U32' },
    {
      text: 's_cmp_le_i32 s0, s1',
      regs: { 0: 0x80000000, 1: 0x7fffffff },
      out: {},
      sccOut: true,
      doc: 'Vega ISA, S_CMP_LE_I32',
    },
    { text: 's_cmp_lg_u32 s0, s1', regs: { 0: 3, 1: 3 }, out: {}, sccOut: false, doc: 'Vega ISA, S_CMP_LG_U32' },
    {
      text: 's_cmp_eq_u64 s[0:1], s[2:3]',
      regs: { 0: 1, 1: 2, 2: 1, 3: 3 },
      out: {},
      sccOut: false,
      doc: 'Vega ISA, S_CMP_EQ_U64: both halves',
    },
    {
      text: 's_cmp_lg_u64 s[0:1], s[2:3]',
      regs: { 0: 1, 1: 2, 2: 1, 3: 3 },
      out: {},
      sccOut: true,
      doc: 'Vega ISA, S_CMP_LG_U64',
    },
    {
      text: 's_cmpk_lt_i32 s0, 0xffff',
      regs: { 0: 0xfffffffe },
      out: {},
      sccOut: true,
      doc: 'Vega ISA, S_CMPK_LT_I32: D.i < signext(SIMM16)',
    },
    {
      text: 's_cmpk_lt_u32 s0, 0xffff',
      regs: { 0: 0xfffffffe },
      out: {},
      sccOut: false,
      doc: 'Vega ISA, S_CMPK_LT_U32: SIMM16 zero-extended',
    },
    { text: 's_cmpk_eq_u32 s0, 0x8000', regs: { 0: 0x8000 }, out: {}, sccOut: true, doc: 'Vega ISA, S_CMPK_EQ_U32' },
    {
      text: 's_min_i32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 1 },
      out: { 0: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_MIN_I32: SCC = S0 < S1',
    },
    {
      text: 's_min_u32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 1 },
      out: { 0: 1 },
      sccOut: false,
      doc: 'Vega ISA, S_MIN_U32',
    },
    {
      text: 's_max_i32 s0, s1, s2',
      regs: { 1: 4, 2: 4 },
      out: { 0: 4 },
      sccOut: false,
      doc: 'Vega ISA, S_MAX_I32: SCC = S0 > S1 (equal: 0)',
    },
    {
      text: 's_max_u32 s0, s1, s2',
      regs: { 1: 0x80000000, 2: 1 },
      out: { 0: 0x80000000 },
      sccOut: true,
      doc: 'Vega ISA, S_MAX_U32',
    },
    {
      text: 's_cselect_b64 s[0:1], s[2:3], s[4:5]',
      regs: { 2: 1, 3: 2, 4: 3, 5: 4 },
      scc: false,
      out: { 0: 3, 1: 4 },
      sccOut: false,
      doc: 'Vega ISA, S_CSELECT_B64: D = SCC ? S0 : S1',
    },
    {
      text: 's_cmov_b32 s0, s1',
      regs: { 0: 9, 1: 5 },
      scc: false,
      out: { 0: 9 },
      doc: 'Vega ISA, S_CMOV_B32: if (SCC) D = S0',
    },
    {
      text: 's_cmovk_i32 s0, 0x8000',
      regs: { 0: 9 },
      scc: true,
      out: { 0: 0xffff8000 },
      doc: 'Vega ISA, S_CMOVK_I32: if (SCC) D = signext(SIMM16)',
    },
    {
      text: 's_bitcmp1_b32 s0, 35',
      regs: { 0: 8 },
      out: {},
      sccOut: true,
      doc: 'Vega ISA, S_BITCMP1_B32: S0.u[S1.u[4:0]] == 1',
    },
    {
      text: 's_bitcmp0_b64 s[0:1], 40',
      regs: { 0: 0, 1: 0x100 },
      out: {},
      sccOut: false,
      doc: 'Vega ISA, S_BITCMP0_B64: S0.u64[S1.u[5:0]] == 0',
    },
  ],
  'bit fields: s_bfe width 0 and offset + width > 32, s_bfm': [
    {
      text: 's_bfe_u32 s0, s1, 0x4',
      regs: { 1: 0xffffffff },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_BFE_U32: width S1[22:16] = 0 gives 0',
    },
    {
      text: 's_bfe_u32 s0, s1, 0x80004',
      regs: { 1: 0x12345678 },
      out: { 0: 0x67 },
      sccOut: true,
      doc: 'Vega ISA, S_BFE_U32: (S0 >> S1[4:0]) & ((1 << S1[22:16]) - 1)',
    },
    {
      text: 's_bfe_u32 s0, s1, 0x10001c',
      regs: { 1: 0xf0000000 },
      out: { 0: 0xf },
      doc: 'S_BFE_U32: offset 28 + width 16 > 32 gives S0 >> 28',
    },
    {
      text: 's_bfe_u32 s0, s1, 0x200000',
      regs: { 1: 0xdeadbeef },
      out: { 0: 0xdeadbeef },
      doc: 'S_BFE_U32: width 32 is not masked to 5 bits (7-bit field)',
    },
    {
      text: 's_bfe_u32 s0, s1, 0x7f0024',
      regs: { 1: 0xdeadbeef },
      out: { 0: 0x0deadbee },
      doc: 'S_BFE_U32: offset 36 masks to 4, width 127',
    },
    {
      text: 's_bfe_i32 s0, s1, 0x40004',
      regs: { 1: 0x80 },
      out: { 0: 0xfffffff8 },
      sccOut: true,
      doc: 'Vega ISA, S_BFE_I32: the field sign-extended',
    },
    {
      text: 's_bfe_i32 s0, s1, 0x8001c',
      regs: { 1: 0x80000000 },
      out: { 0: 0xfffffff8 },
      doc: 'S_BFE_I32: past bit 31 the sign is bit 31 (S0.i >> 28)',
    },
    {
      text: 's_bfe_i32 s0, s1, 0x10',
      regs: { 1: 0xffffffff },
      out: { 0: 0 },
      sccOut: false,
      doc: 'S_BFE_I32: width 0 gives 0',
    },
    {
      text: 's_bfe_u64 s[0:1], s[2:3], 0x8003c',
      regs: { 2: 0, 3: 0xf0000000 },
      out: { 0: 0xf, 1: 0 },
      doc: 'Vega ISA, S_BFE_U64: offset S1[5:0] = 60, width 8 past bit 63',
    },
    {
      text: 's_bfe_u64 s[0:1], s[2:3], 0x8001c',
      regs: { 2: 0xa0000000, 3: 0x5 },
      out: { 0: 0x5a, 1: 0 },
      doc: 'Vega ISA, S_BFE_U64: a field across the halves',
    },
    {
      text: 's_bfe_i64 s[0:1], s[2:3], 0x4001e',
      regs: { 2: 0x80000000, 3: 0x1 },
      out: { 0: 6, 1: 0 },
      doc: 'Vega ISA, S_BFE_I64: field 0b0110 across the halves, positive',
    },
    {
      text: 's_bfe_i64 s[0:1], s[2:3], 0x3001e',
      regs: { 2: 0x80000000, 3: 0x1 },
      out: { 0: 0xfffffffe, 1: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_BFE_I64: field 0b110 sign-extended',
    },
    {
      text: 's_bfe_i64 s[0:1], s[2:3], 0x200000',
      regs: { 2: 0x80000000, 3: 0x1 },
      out: { 0: 0x80000000, 1: 0xffffffff },
      doc: 'S_BFE_I64: width 32 at offset 0, sign from bit 31',
    },
    {
      text: 's_bfm_b32 s0, 16, 16',
      out: { 0: 0xffff0000 },
      doc: 'Vega ISA, S_BFM_B32: D = ((1 << S0[4:0]) - 1) << S1[4:0] (s_bfm_b32 exec_lo, 16, 16)',
    },
    { text: 's_bfm_b32 s0, s1, 4', regs: { 1: 32 }, out: { 0: 0 }, doc: 'Vega ISA, S_BFM_B32: width 32 masks to 0' },
    {
      text: 's_bfm_b32 s0, s1, s2',
      regs: { 1: 31, 2: 33 },
      scc: true,
      out: { 0: 0xfffffffe },
      sccOut: true,
      doc: 'Vega ISA, S_BFM_B32: SCC is not written',
    },
    {
      text: 's_bfm_b64 s[0:1], 32, 32',
      out: { 0: 0, 1: 0xffffffff },
      doc: 'Vega ISA, S_BFM_B64: S0[5:0], S1[5:0] (s_bfm_b64 exec, 32, 32)',
    },
    {
      text: 's_bfm_b64 s[0:1], s2, 60',
      regs: { 2: 8 },
      out: { 0: 0, 1: 0xf0000000 },
      doc: 'Vega ISA, S_BFM_B64: bits past 63 are lost',
    },
  ],
  'find-bit and count instructions': [
    {
      text: 's_flbit_i32_b32 s0, s1',
      regs: { 1: 0 },
      out: { 0: 0xffffffff },
      doc: 'Vega ISA, S_FLBIT_I32_B32: -1 if no bit is set',
    },
    { text: 's_flbit_i32_b32 s0, s1', regs: { 1: 0xffffffff }, out: { 0: 0 }, doc: 'Vega ISA, S_FLBIT_I32_B32' },
    {
      text: 's_flbit_i32_b32 s0, s1',
      regs: { 1: 0x00010000 },
      out: { 0: 15 },
      doc: 'Vega ISA, S_FLBIT_I32_B32: counted from the MSB',
    },
    {
      text: 's_flbit_i32 s0, s1',
      regs: { 1: 0 },
      out: { 0: 0xffffffff },
      doc: 'Vega ISA, S_FLBIT_I32: -1 if S0 is 0 or -1',
    },
    { text: 's_flbit_i32 s0, s1', regs: { 1: 0xffffffff }, out: { 0: 0xffffffff }, doc: 'Vega ISA, S_FLBIT_I32' },
    {
      text: 's_flbit_i32 s0, s1',
      regs: { 1: 0xbfffffff },
      out: { 0: 1 },
      doc: 'Vega ISA, S_FLBIT_I32: first bit opposite the sign',
    },
    { text: 's_flbit_i32_b64 s0, s[2:3]', regs: { 2: 1, 3: 0 }, out: { 0: 63 }, doc: 'Vega ISA, S_FLBIT_I32_B64' },
    {
      text: 's_flbit_i32_b64 s0, s[2:3]',
      regs: { 2: 0, 3: 0 },
      out: { 0: 0xffffffff },
      doc: 'Vega ISA, S_FLBIT_I32_B64: -1 for 0',
    },
    {
      text: 's_flbit_i32_i64 s0, s[2:3]',
      regs: { 2: 0xffffffff, 3: 0xffffffff },
      out: { 0: 0xffffffff },
      doc: 'Vega ISA, S_FLBIT_I32_I64: -1 for -1',
    },
    {
      text: 's_flbit_i32_i64 s0, s[2:3]',
      regs: { 2: 0x7fffffff, 3: 0xffffffff },
      out: { 0: 32 },
      doc: 'Vega ISA, S_FLBIT_I32_I64',
    },
    {
      text: 's_ff1_i32_b32 s0, s1',
      regs: { 1: 0 },
      out: { 0: 0xffffffff },
      doc: 'Vega ISA, S_FF1_I32_B32: -1 if no bit is set',
    },
    { text: 's_ff1_i32_b32 s0, s1', regs: { 1: 0x80000000 }, out: { 0: 31 }, doc: 'Vega ISA, S_FF1_I32_B32' },
    { text: 's_ff1_i32_b64 s0, s[2:3]', regs: { 2: 0, 3: 1 }, out: { 0: 32 }, doc: 'Vega ISA, S_FF1_I32_B64' },
    {
      text: 's_ff0_i32_b32 s0, s1',
      regs: { 1: 0xffffffff },
      out: { 0: 0xffffffff },
      doc: 'Vega ISA, S_FF0_I32_B32: -1 if no bit is clear',
    },
    {
      text: 's_ff0_i32_b64 s0, s[2:3]',
      regs: { 2: 0xffffffff, 3: 0xfffffffd },
      out: { 0: 33 },
      doc: 'Vega ISA, S_FF0_I32_B64',
    },
    {
      text: 's_ctz_i32_b32 s0, s1',
      regs: { 1: 0 },
      out: { 0: 0xffffffff },
      doc: 'RDNA3 ISA, S_CTZ_I32_B32: -1 if no bit is set',
    },
    { text: 's_clz_i32_u32 s0, s1', regs: { 1: 1 }, out: { 0: 31 }, doc: 'RDNA3 ISA, S_CLZ_I32_U32' },
    { text: 's_cls_i32 s0, s1', regs: { 1: 0x40000000 }, out: { 0: 1 }, doc: 'RDNA3 ISA, S_CLS_I32' },
    { text: 's_cls_i32_i64 s0, s[2:3]', regs: { 2: 0, 3: 0 }, out: { 0: 0xffffffff }, doc: 'RDNA3 ISA, S_CLS_I32_I64' },
    {
      text: 's_bcnt0_i32_b32 s0, s1',
      regs: { 1: 0 },
      out: { 0: 32 },
      sccOut: true,
      doc: 'Vega ISA, S_BCNT0_I32_B32: SCC = D != 0',
    },
    { text: 's_bcnt1_i32_b32 s0, s1', regs: { 1: 0 }, out: { 0: 0 }, sccOut: false, doc: 'Vega ISA, S_BCNT1_I32_B32' },
    {
      text: 's_bcnt1_i32_b64 s0, s[2:3]',
      regs: { 2: 0xffffffff, 3: 0x80000001 },
      out: { 0: 34 },
      sccOut: true,
      doc: 'Vega ISA, S_BCNT1_I32_B64',
    },
    {
      text: 's_bcnt0_i32_b64 s0, s[2:3]',
      regs: { 2: 0xffffffff, 3: 0xffffffff },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_BCNT0_I32_B64',
    },
  ],
  'arithmetic: s_absdiff, s_lshl<n>_add, s_mul_hi, s_abs': [
    {
      text: 's_absdiff_i32 s0, s1, s2',
      regs: { 1: 1, 2: 5 },
      out: { 0: 4 },
      sccOut: true,
      doc: 'Vega ISA, S_ABSDIFF_I32',
    },
    {
      text: 's_absdiff_i32 s0, s1, s2',
      regs: { 1: 5, 2: 5 },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_ABSDIFF_I32: SCC = D != 0',
    },
    {
      text: 's_absdiff_i32 s0, s1, s2',
      regs: { 1: 0x7fffffff, 2: 0xffffffff },
      out: { 0: 0x80000000 },
      sccOut: true,
      doc: 'Vega ISA, S_ABSDIFF_I32: S0 - S1 wraps before the absolute value',
    },
    {
      text: 's_lshl4_add_u32 s0, s1, s2',
      regs: { 1: 0x10000000, 2: 0 },
      out: { 0: 0 },
      sccOut: true,
      doc: 'Vega ISA, S_LSHL4_ADD_U32: SCC = ((S0 << 4) + S1) >= 2^32, bits shifted out count',
    },
    {
      text: 's_lshl4_add_u32 s0, s1, s2',
      regs: { 1: 1, 2: 0xffffffff },
      out: { 0: 0xf },
      sccOut: true,
      doc: 'Vega ISA, S_LSHL4_ADD_U32: carry of the add',
    },
    {
      text: 's_lshl4_add_u32 s0, s1, s2',
      regs: { 1: 0x0fffffff, 2: 0xf },
      out: { 0: 0xffffffff },
      sccOut: false,
      doc: 'Vega ISA, S_LSHL4_ADD_U32',
    },
    {
      text: 's_lshl1_add_u32 s0, s1, s2',
      regs: { 1: 0x80000000, 2: 3 },
      out: { 0: 3 },
      sccOut: true,
      doc: 'Vega ISA, S_LSHL1_ADD_U32',
    },
    {
      text: 's_lshl2_add_u32 s0, s1, s2',
      regs: { 1: 3, 2: 1 },
      out: { 0: 13 },
      sccOut: false,
      doc: 'Vega ISA, S_LSHL2_ADD_U32',
    },
    {
      text: 's_lshl3_add_u32 s0, s1, s2',
      regs: { 1: 0x20000000, 2: 0 },
      out: { 0: 0 },
      sccOut: true,
      doc: 'Vega ISA, S_LSHL3_ADD_U32',
    },
    {
      text: 's_mul_i32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 0xffffffff },
      scc: true,
      out: { 0: 1 },
      sccOut: true,
      doc: 'Vega ISA, S_MUL_I32: low 32 bits; SCC not written',
    },
    {
      text: 's_mul_hi_u32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 0xffffffff },
      out: { 0: 0xfffffffe },
      doc: 'Vega ISA, S_MUL_HI_U32',
    },
    {
      text: 's_mul_hi_i32 s0, s1, s2',
      regs: { 1: 0xffffffff, 2: 0xffffffff },
      out: { 0: 0 },
      doc: 'Vega ISA, S_MUL_HI_I32: (-1) * (-1) = 1',
    },
    {
      text: 's_mul_hi_i32 s0, s1, s2',
      regs: { 1: 0x80000000, 2: 2 },
      out: { 0: 0xffffffff },
      doc: 'Vega ISA, S_MUL_HI_I32',
    },
    {
      text: 's_abs_i32 s0, s1',
      regs: { 1: 0x80000000 },
      out: { 0: 0x80000000 },
      sccOut: true,
      doc: 'Vega ISA, S_ABS_I32: INT_MIN stays',
    },
    { text: 's_abs_i32 s0, s1', regs: { 1: 0xfffffffb }, out: { 0: 5 }, sccOut: true, doc: 'Vega ISA, S_ABS_I32' },
    { text: 's_sext_i32_i8 s0, s1', regs: { 1: 0x1280 }, out: { 0: 0xffffff80 }, doc: 'Vega ISA, S_SEXT_I32_I8' },
    { text: 's_sext_i32_i16 s0, s1', regs: { 1: 0x17fff }, out: { 0: 0x7fff }, doc: 'Vega ISA, S_SEXT_I32_I16' },
  ],
  'bit manipulation and packing': [
    {
      text: 's_brev_b32 s0, 1',
      out: { 0: 0x80000000 },
      doc: 'Vega ISA, S_BREV_B32 (s_brev_b32 s, 1 builds 0x80000000)',
    },
    {
      text: 's_brev_b64 s[0:1], s[2:3]',
      regs: { 2: 1, 3: 0x80000000 },
      out: { 0: 1, 1: 0x80000000 },
      doc: 'Vega ISA, S_BREV_B64',
    },
    {
      text: 's_brev_b64 s[0:1], s[2:3]',
      regs: { 2: 0x3, 3: 0 },
      out: { 0: 0, 1: 0xc0000000 },
      doc: 'Vega ISA, S_BREV_B64',
    },
    {
      text: 's_not_b32 s0, s1',
      regs: { 1: 0xffffffff },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_NOT_B32: SCC = D != 0',
    },
    {
      text: 's_not_b64 s[0:1], s[2:3]',
      regs: { 2: 0xffffffff, 3: 0 },
      out: { 0: 0, 1: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_NOT_B64',
    },
    {
      text: 's_wqm_b32 s0, s1',
      regs: { 1: 0x80000101 },
      out: { 0: 0xf0000f0f },
      sccOut: true,
      doc: 'Vega ISA, S_WQM_B32: each quad with a bit set becomes 0xf',
    },
    {
      text: 's_wqm_b64 s[0:1], s[2:3]',
      regs: { 2: 0, 3: 0x10 },
      out: { 0: 0, 1: 0xf0 },
      sccOut: true,
      doc: 'Vega ISA, S_WQM_B64',
    },
    {
      text: 's_quadmask_b32 s0, s1',
      regs: { 1: 0x100000f1 },
      out: { 0: 0x83 },
      sccOut: true,
      doc: 'Vega ISA, S_QUADMASK_B32: bit i = any of S0[4i+3:4i]',
    },
    {
      text: 's_quadmask_b64 s[0:1], s[2:3]',
      regs: { 2: 0x1, 3: 0x80000000 },
      out: { 0: 0x8001, 1: 0 },
      sccOut: true,
      doc: 'Vega ISA, S_QUADMASK_B64',
    },
    {
      text: 's_bitreplicate_b64_b32 s[0:1], s2',
      regs: { 2: 0x80000001 },
      out: { 0: 0x3, 1: 0xc0000000 },
      doc: 'Vega ISA, S_BITREPLICATE_B64_B32: D[2i] = D[2i+1] = S0[i]',
    },
    {
      text: 's_bitreplicate_b64_b32 s[0:1], s2',
      regs: { 2: 0x0000ffff },
      out: { 0: 0xffffffff, 1: 0 },
      doc: 'Vega ISA, S_BITREPLICATE_B64_B32',
    },
    {
      text: 's_bitset0_b32 s0, 33',
      regs: { 0: 0xffffffff },
      out: { 0: 0xfffffffd },
      doc: 'Vega ISA, S_BITSET0_B32: D.u[S0.u[4:0]] = 0',
    },
    { text: 's_bitset1_b32 s0, s1', regs: { 0: 0, 1: 31 }, out: { 0: 0x80000000 }, doc: 'Vega ISA, S_BITSET1_B32' },
    {
      text: 's_bitset1_b64 s[0:1], 63',
      regs: { 0: 1, 1: 0 },
      out: { 0: 1, 1: 0x80000000 },
      doc: 'Vega ISA, S_BITSET1_B64: D.u64[S0.u[5:0]] = 1',
    },
    {
      text: 's_bitset0_b64 s[0:1], s2',
      regs: { 0: 0xffffffff, 1: 0xffffffff, 2: 64 },
      out: { 0: 0xfffffffe, 1: 0xffffffff },
      doc: 'Vega ISA, S_BITSET0_B64: 64 & 63 = 0',
    },
    {
      text: 's_andn2_b32 s0, s1, s2',
      regs: { 1: 0xff, 2: 0xf },
      out: { 0: 0xf0 },
      sccOut: true,
      doc: 'Vega ISA, S_ANDN2_B32',
    },
    {
      text: 's_and_not1_b64 s[0:1], s[2:3], s[4:5]',
      regs: { 2: 0xff, 3: 1, 4: 0xff, 5: 1 },
      out: { 0: 0, 1: 0 },
      sccOut: false,
      doc: 'RDNA3 ISA, S_AND_NOT1_B64',
    },
    {
      text: 's_xnor_b64 s[0:1], s[2:3], s[4:5]',
      regs: { 2: 1, 3: 2, 4: 1, 5: 2 },
      out: { 0: 0xffffffff, 1: 0xffffffff },
      sccOut: true,
      doc: 'Vega ISA, S_XNOR_B64',
    },
    {
      text: 's_nor_b32 s0, s1, s2',
      regs: { 1: 0xffff0000, 2: 0xffff },
      out: { 0: 0 },
      sccOut: false,
      doc: 'Vega ISA, S_NOR_B32',
    },
    {
      text: 's_pack_ll_b32_b16 s0, s1, s2',
      regs: { 1: 0x11112222, 2: 0x33334444 },
      out: { 0: 0x44442222 },
      doc: 'Vega ISA, S_PACK_LL_B32_B16: D = {S1[15:0], S0[15:0]}',
    },
    {
      text: 's_pack_lh_b32_b16 s0, s1, s2',
      regs: { 1: 0x11112222, 2: 0x33334444 },
      out: { 0: 0x33332222 },
      doc: 'Vega ISA, S_PACK_LH_B32_B16: D = {S1[31:16], S0[15:0]}',
    },
    {
      text: 's_pack_hh_b32_b16 s0, s1, s2',
      regs: { 1: 0x11112222, 2: 0x33334444 },
      out: { 0: 0x33331111 },
      doc: 'Vega ISA, S_PACK_HH_B32_B16: D = {S1[31:16], S0[31:16]}',
    },
    {
      text: 's_pack_hl_b32_b16 s0, s1, s2',
      regs: { 1: 0x11112222, 2: 0x33334444 },
      out: { 0: 0x44441111 },
      doc: 'RDNA3 ISA, S_PACK_HL_B32_B16: D = {S1[15:0], S0[31:16]}',
    },
  ],
  'constants: inline integers sign-extend, literals zero-extend, float constants per width': [
    { text: 's_movk_i32 s0, 0x8000', out: { 0: 0xffff8000 }, doc: 'Vega ISA, S_MOVK_I32: D = signext(SIMM16)' },
    {
      text: 's_mov_b64 s[0:1], -1',
      out: { 0: 0xffffffff, 1: 0xffffffff },
      doc: 'inline integer constants are 64-bit for 64-bit operands',
    },
    {
      text: 's_mov_b64 s[0:1], 0x80000000',
      out: { 0: 0x80000000, 1: 0 },
      doc: 'a 32-bit literal is zero-extended for a 64-bit integer operand (LLVM)',
    },
    {
      text: 's_mov_b64 s[0:1], 1.0',
      out: { 0: 0, 1: 0x3ff00000 },
      doc: 'inline float constants are binary64 for 64-bit operands',
    },
    {
      text: 's_mov_b32 s0, -4.0',
      out: { 0: 0xc0800000 },
      doc: 'inline float constants are binary32 for 32-bit operands',
    },
  ],
};

describe('scalar ALU semantics on the concrete algebra', () => {
  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      for (const c of cases) it(`${c.text} [${c.doc}]`, () => check(c));
    });
  }
});

describe('EXEC: saveexec and wrexec', () => {
  const w64 = (t: Target): boolean => t.wave64;
  it('s_and_saveexec_b64: D = EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0 (Vega ISA, S_AND_SAVEEXEC_B64)', () => {
    for (const t of TARGETS.filter(w64)) {
      const m = run(t, 's_and_saveexec_b64 s[0:1], s[2:3]', { 2: 0xf0f0f0f0, 3: 1, [EXEC]: 0xffff0000, [EXEC + 1]: 3 });
      expect([m.regs.get(0), m.regs.get(1), m.regs.get(EXEC), m.regs.get(EXEC + 1), m.scc]).toEqual([
        0xffff0000,
        3,
        0xf0f00000,
        1,
        true,
      ]);
    }
  });
  it('s_andn2_saveexec_b64: EXEC = S0 & ~EXEC (Vega ISA, S_ANDN2_SAVEEXEC_B64)', () => {
    for (const t of TARGETS.filter((t) => w64(t) && has(t, 's_andn2_saveexec_b64'))) {
      const m = run(t, 's_andn2_saveexec_b64 s[0:1], s[2:3]', { 2: 0xff, 3: 0, [EXEC]: 0xff, [EXEC + 1]: 0 });
      expect([m.regs.get(EXEC), m.regs.get(EXEC + 1), m.scc, m.regs.get(0)]).toEqual([0, 0, false, 0xff]);
    }
  });
  it('s_andn1_wrexec_b64 / s_and_not0_wrexec_b64: EXEC = ~S0 & EXEC; D = EXEC (Vega ISA, RDNA3 ISA)', () => {
    for (const t of TARGETS.filter(w64)) {
      const name = has(t, 's_andn1_wrexec_b64')
        ? 's_andn1_wrexec_b64'
        : has(t, 's_and_not0_wrexec_b64')
          ? 's_and_not0_wrexec_b64'
          : undefined;
      if (!name) continue;
      const m = run(t, `${name} s[0:1], s[2:3]`, { 2: 0x0f, 3: 0, [EXEC]: 0xff, [EXEC + 1]: 1 });
      expect([m.regs.get(0), m.regs.get(1), m.regs.get(EXEC), m.regs.get(EXEC + 1), m.scc]).toEqual([
        0xf0,
        1,
        0xf0,
        1,
        true,
      ]);
    }
  });
  it('wave32 s_and_saveexec_b32 / s_and_not1_saveexec_b32 touch EXEC_LO only (RDNA1 ISA, S_AND_SAVEEXEC_B32)', () => {
    for (const t of TARGETS.filter((t) => !w64(t))) {
      const m = run(t, 's_and_saveexec_b32 s0, s1', { 1: 0x0f, [EXEC]: 0x3c, [EXEC + 1]: 0x55 });
      expect([m.regs.get(0), m.regs.get(EXEC), m.regs.get(EXEC + 1), m.scc]).toEqual([0x3c, 0x0c, 0x55, true]);
      const n = has(t, 's_andn2_saveexec_b32') ? 's_andn2_saveexec_b32' : 's_and_not1_saveexec_b32';
      const m2 = run(t, `${n} s0, s1`, { 1: 0x0f, [EXEC]: 0x3c });
      expect([m2.regs.get(0), m2.regs.get(EXEC), m2.scc]).toEqual([0x3c, 0x03, true]);
    }
  });
  it('s_mov_b64 exec and s_bcnt1_i32_b64 exec read EXEC as a register pair', () => {
    const t = targetFor('gfx900');
    expect(run(t, 's_bcnt1_i32_b64 s0, exec', { [EXEC]: 0xffffffff, [EXEC + 1]: 1 }).regs.get(0)).toBe(33);
    expect(run(t, 's_mov_b64 vcc, exec', { [EXEC]: 7, [EXEC + 1]: 8 }).regs.get(VCC + 1)).toBe(8);
  });
  it('src_execz and src_vccz read the wave-sized mask (gfx10 wave32 ignores the high half)', () => {
    expect(run(targetFor('gfx1030'), 's_mov_b32 s0, src_execz', { [EXEC]: 0, [EXEC + 1]: 1 }).regs.get(0)).toBe(1);
    expect(run(targetFor('gfx1030', true), 's_mov_b32 s0, src_execz', { [EXEC]: 0, [EXEC + 1]: 1 }).regs.get(0)).toBe(
      0,
    );
  });
});

describe('M0-relative moves, the PC and the null register', () => {
  it('s_movrels_b32: D = SGPR[S0.addr + M0]; s_movreld_b64: SGPR[D.addr + M0] = S0 (Vega ISA)', () => {
    for (const t of TARGETS) {
      const m0 = t.gen >= 5 ? 125 : 124;
      expect(run(t, 's_movrels_b32 s0, s10', { [m0]: 2, 12: 0xabc }).regs.get(0)).toBe(0xabc);
      const m = run(t, 's_movreld_b64 s[10:11], s[2:3]', { [m0]: 4, 2: 5, 3: 6 });
      expect([m.regs.get(14), m.regs.get(15), m.regs.get(10)]).toEqual([5, 6, undefined]);
    }
  });
  it('s_movrelsd_2_b32: SGPR[D.addr + M0[25:16]] = SGPR[S0.addr + M0[9:0]] (RDNA1 ISA)', () => {
    const t = targetFor('gfx1030');
    expect(run(t, 's_movrelsd_2_b32 s0, s10', { 124: 0x00030002, 12: 77 }).regs.get(3)).toBe(77);
  });
  it('s_getpc_b64 takes the next instruction address from the state, and refuses without one', () => {
    const t = targetFor('gfx900');
    const inst = assemble(t, 's_getpc_b64 s[0:1]');
    const m: Machine = { regs: new Map(), scc: false };
    runScalar(concrete, t, inst, stateOf(m, [0x1004, 0x7400]));
    expect([m.regs.get(0), m.regs.get(1)]).toEqual([0x1004, 0x7400]);
    expect(() => runScalar(concrete, t, inst, stateOf(m))).toThrow(SemanticsRefusal);
  });
  it('writes to null are dropped (gfx10+)', () => {
    for (const t of TARGETS.filter((t) => t.gen >= 3)) {
      const nul = t.gen >= 5 ? 124 : 125;
      const m = run(t, 's_add_u32 null, s1, s2', { 1: 0xffffffff, 2: 1, [nul]: 9 });
      expect([m.regs.get(nul), m.scc]).toEqual([9, true]);
    }
  });
  it('source 253 (src_scc) reads SCC as 0 or 1 (decoded: the assembler does not spell it for SALU)', () => {
    for (const [cpu, word] of [
      ['gfx900', 0xbe8000fd],
      ['gfx1030', 0xbe8003fd],
    ] as const) {
      const t = targetFor(cpu);
      const inst = decodeAt(t, Uint32Array.of(word), 0);
      expect(inst.def.name).toBe('s_mov_b32');
      for (const scc of [true, false]) {
        const m: Machine = { regs: new Map(), scc };
        runScalar(concrete, t, inst, stateOf(m));
        expect(m.regs.get(0)).toBe(scc ? 1 : 0);
      }
    }
  });
  it('s_getreg/s_setreg move hwreg(id, offset, size) fields; s_denorm_mode and s_round_mode write MODE (RDNA3 ISA 16.2 S_GETREG_B32 / S_SETREG_B32, 16.5 S_DENORM_MODE, 3.4.2 "Mode register")', () => {
    const t = targetFor('gfx1030');
    const m: Machine = { regs: new Map([[4, 0xffffffff]]), scc: false, hwregs: new Map([[1, 0x3c0]]) };
    const exec = (text: string): void => runScalar(concrete, t, assemble(t, text), stateOf(m));
    exec('s_getreg_b32 s2, hwreg(HW_REG_MODE, 4, 4)');
    expect(m.regs.get(2)).toBe(0xc);
    exec('s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s4'); // only MODE[5:4] change
    expect(m.hwregs!.get(1)).toBe(0x3f0);
    exec('s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xfffffff5');
    expect(m.hwregs!.get(1)).toBe(0x3f5);
    exec('s_round_mode 0x0');
    exec('s_denorm_mode 0x3'); // f32 kept, f64/f16 flushed
    expect(m.hwregs!.get(1)).toBe(0x330);
    exec('s_getreg_b32 s3, hwreg(HW_REG_MODE, 0, 32)');
    expect(m.regs.get(3)).toBe(0x330);
    // Without hardware registers in the state (the tracer's folding) the instruction is refused, not guessed.
    expect(() =>
      runScalar(concrete, t, assemble(t, 's_getreg_b32 s2, hwreg(HW_REG_MODE)'), {
        ...stateOf(m),
        readHwReg: undefined,
      }),
    ).toThrow(/hardware registers are not known/);
  });
  it('control flow is refused by name', () => {
    const t = targetFor('gfx900');
    expect(() =>
      runScalar(concrete, t, assemble(t, 's_setpc_b64 s[0:1]'), stateOf({ regs: new Map(), scc: false })),
    ).toThrow(/control: writes the PC/);
  });
});

// ---- coverage: every scalar ALU name has semantics or a stated reason ----

const saluDefs = (): InstructionDef[] => allInstructions().filter((d) => SALU_FAMILIES.includes(d.family));

/** Exactly these have no semantics, and why (see SCALAR_UNCOVERED for the reasons). */
const EXPECTED_UNCOVERED = [
  's_call_b64',
  's_cbranch_g_fork',
  's_cbranch_i_fork',
  's_cbranch_join',
  's_rfe_b64',
  's_rfe_restore_b64',
  's_sendmsg_rtn_b32',
  's_sendmsg_rtn_b64',
  's_set_gpr_idx_idx',
  's_set_gpr_idx_on',
  's_setpc_b64',
  's_setvskip',
  's_subvector_loop_begin',
  's_subvector_loop_end',
  's_swappc_b64',
];

describe('coverage of the scalar ALU', () => {
  it('lists exactly which SOP1/SOP2/SOPK/SOPC names lack semantics, each with a reason', () => {
    const missing = [
      ...new Set(
        saluDefs()
          .filter((d) => !scalarSemanticsFor(d))
          .map((d) => d.name),
      ),
    ].sort();
    expect(missing).toEqual(EXPECTED_UNCOVERED);
    expect(Object.keys(SCALAR_UNCOVERED).sort()).toEqual(EXPECTED_UNCOVERED);
  });
  it('names no instruction the registry lacks', () => {
    const names = new Set(saluDefs().map((d) => d.name));
    expect(scalarSemanticNames().filter((n) => !names.has(n))).toEqual([]);
  });
  it('every covered instruction runs in every generation it exists in, through its own operand list', () => {
    const gens = [0, 1, 2, 3, 4, 5];
    let runs = 0;
    for (const def of saluDefs()) {
      const f = scalarSemanticsFor(def);
      if (!f) continue;
      for (const gen of gens) {
        if (def.op[gen] < 0) continue;
        const target = TARGETS.find((t) => t.gen === gen && t.wave64)!;
        const fields: Record<string, number> = { op: def.op[gen] };
        def.operands.forEach((o, i) => {
          fields[o.field] = o.cls === 'imm' || o.cls === 'label' ? 0x1234 : 8 + 8 * i;
        });
        const inst: Instruction = { def, encoding: def.family, offset: 0, size: 4, fields, literal: 0x55 };
        const m: Machine = {
          regs: new Map(Array.from({ length: 100 }, (_, c) => [c, (c * 0x01010101) >>> 0])),
          scc: true,
        };
        m.regs.set(gen >= 5 ? 125 : 124, 2);
        runScalar(concrete, target, inst, stateOf(m, [0, 0]));
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(600);
  });
});
