/**
 * Semantics of the scalar ALU (SOP1, SOP2, SOPK, SOPC, and the SOPP writes of MODE) of every generation the registry
 * holds, keyed by registry name (D003). Each function reads and writes through its
 * context by operand index (the order of `InstructionDef.operands`) and computes only with
 * the algebra, so the interpreter, the tracer's folding and the translator run the same
 * definition.
 *
 * Sources: AMD's ISA documents, "Scalar ALU Operations" / the SOP1, SOP2, SOPK, SOPC
 * opcode tables of the Sea Islands (gfx7), GCN3 (gfx8), Vega (gfx9), RDNA1 (gfx10.1),
 * RDNA2 (gfx10.3) and RDNA3 (gfx11) Instruction Set Architecture references. Where they
 * disagree with each other the note beside the function says which was followed.
 *
 * Instructions left out are listed in `SCALAR_UNCOVERED` with the reason (control flow the
 * interpreter models, or state this layer refuses), so nothing is silently missing.
 */
import type { Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import type { Family, InstructionDef } from '../isa/registry/types.ts';
import type { Algebra, Pair } from './algebra.ts';
import { createScalarContext, SemanticsRefusal, type ScalarState, type SemanticsContext } from './context.ts';
import {
  ashr64,
  bfm64,
  findLsb64,
  findMsbFromTop64,
  isNegative64,
  lshr64,
  pairEq,
  pairMap,
  pairNonZero,
  pairSelect,
  pairZip,
  popcount64,
  shl64,
  brev64,
} from './wide.ts';
import { fieldMask, hwRegField, HW_REG_MODE } from './mode.ts';

/** One instruction's meaning, generic in the algebra. */
export type ScalarSemantics = <V, B>(c: SemanticsContext<V, B>) => void;

export const SALU_FAMILIES: readonly Family[] = ['SOP1', 'SOP2', 'SOPK', 'SOPC'];

type Op1<V> = (x: V) => V;
type Op2<V> = (x: V, y: V) => V;

// ---- shared shapes (each still just a composition of algebra operations) ----

const nonZero = <V, B>(c: SemanticsContext<V, B>, v: V): B => c.alg.toBool(v);

/** D = f(S0); SCC = D != 0 when `scc`. */
function unary32(f: <V, B>(a: Algebra<V, B>) => Op1<V>, scc: boolean): ScalarSemantics {
  return (c) => {
    const d = f(c.alg)(c.src(1));
    c.dst(0, d);
    if (scc) c.setScc(nonZero(c, d));
  };
}

/** D.u64 = f(S0.u64) per word; SCC = D != 0 when `scc`. */
function unary64(f: <V, B>(a: Algebra<V, B>) => Op1<V>, scc: boolean): ScalarSemantics {
  return (c) => {
    const d = pairMap(c.srcPair(1), f(c.alg));
    c.dstPair(0, d);
    if (scc) c.setScc(pairNonZero(c.alg, d));
  };
}

/** D = f(S0, S1); SCC = D != 0 when `scc` (the bitwise and shift SOP2 instructions). */
function binary32(f: <V, B>(a: Algebra<V, B>) => Op2<V>, scc = true): ScalarSemantics {
  return (c) => {
    const d = f(c.alg)(c.src(1), c.src(2));
    c.dst(0, d);
    if (scc) c.setScc(nonZero(c, d));
  };
}

/** 64-bit bitwise: D.u64 = f(S0.u64, S1.u64) per word; SCC = D != 0. */
function binary64(f: <V, B>(a: Algebra<V, B>) => Op2<V>): ScalarSemantics {
  return (c) => {
    const d = pairZip(c.srcPair(1), c.srcPair(2), f(c.alg));
    c.dstPair(0, d);
    c.setScc(pairNonZero(c.alg, d));
  };
}

/** 64-bit value, 32-bit second operand (shifts): D.u64 = f(S0.u64, S1.u32); SCC = D != 0. */
function shift64(f: <V, B>(a: Algebra<V, B>, x: Pair<V>, n: V) => Pair<V>): ScalarSemantics {
  return (c) => {
    const d = f(c.alg, c.srcPair(1), c.src(2));
    c.dstPair(0, d);
    c.setScc(pairNonZero(c.alg, d));
  };
}

/** SOPC: SCC = cmp(S0, S1). */
function compare32(f: <V, B>(a: Algebra<V, B>, x: V, y: V) => B): ScalarSemantics {
  return (c) => c.setScc(f(c.alg, c.src(0), c.src(1)));
}

/** SOPK compare: SCC = cmp(D, imm), the immediate sign-extended for the _i32 forms, zero-extended for _u32. */
function compareK(f: <V, B>(a: Algebra<V, B>, x: V, y: V) => B, signed: boolean): ScalarSemantics {
  return (c) => {
    const imm = c.src(1);
    c.setScc(f(c.alg, c.src(0), signed ? c.alg.sext(imm, 16) : imm));
  };
}

type ExecOp = <V, B>(a: Algebra<V, B>, s: V, exec: V) => V;
const execOps = {
  and: (a, s, e) => a.and(s, e),
  or: (a, s, e) => a.or(s, e),
  xor: (a, s, e) => a.xor(s, e),
  andn2: (a, s, e) => a.and(s, a.not(e)),
  orn2: (a, s, e) => a.or(s, a.not(e)),
  nand: (a, s, e) => a.not(a.and(s, e)),
  nor: (a, s, e) => a.not(a.or(s, e)),
  xnor: (a, s, e) => a.not(a.xor(s, e)),
  andn1: (a, s, e) => a.and(a.not(s), e),
  orn1: (a, s, e) => a.or(a.not(s), e),
} satisfies Record<string, ExecOp>;

/**
 * Vega ISA, S_AND_SAVEEXEC_B64: "D.u64 = EXEC; EXEC = S0.u64 & EXEC; SCC = (EXEC != 0)",
 * and likewise for the other operations. (RDNA3 writes D after EXEC; the values agree
 * unless D is EXEC itself, where this follows Vega's order.)
 */
function saveexec64(op: ExecOp): ScalarSemantics {
  return (c) => {
    const s = c.srcPair(1);
    const e = c.exec();
    const n = pairZip(s, e, (x, y) => op(c.alg, x, y));
    c.dstPair(0, e);
    c.setExec(n);
    c.setScc(pairNonZero(c.alg, n));
  };
}

/** RDNA1 ISA, S_AND_SAVEEXEC_B32 (wave32): the same on EXEC_LO. */
function saveexec32(op: ExecOp): ScalarSemantics {
  return (c) => {
    const s = c.src(1);
    const e = c.exec()[0];
    const n = op(c.alg, s, e);
    c.dst(0, e);
    c.setExecLo(n);
    c.setScc(nonZero(c, n));
  };
}

/** Vega ISA, S_ANDN1_WREXEC_B64: "EXEC = ~S0.u64 & EXEC; D.u64 = EXEC; SCC = (EXEC != 0)". */
function wrexec64(op: ExecOp): ScalarSemantics {
  return (c) => {
    const s = c.srcPair(1);
    const e = c.exec();
    const n = pairZip(s, e, (x, y) => op(c.alg, x, y));
    c.setExec(n);
    c.dstPair(0, n);
    c.setScc(pairNonZero(c.alg, n));
  };
}

function wrexec32(op: ExecOp): ScalarSemantics {
  return (c) => {
    const s = c.src(1);
    const n = op(c.alg, s, c.exec()[0]);
    c.setExecLo(n);
    c.dst(0, n);
    c.setScc(nonZero(c, n));
  };
}

/** Bit 31 of x as a boolean. */
function sign<V, B>(a: Algebra<V, B>, x: V): B {
  return a.ltI(x, a.word(0));
}

/** s_wqm_b32 per word: every quad (4 bits) with any bit set becomes all set. */
function wqm<V, B>(a: Algebra<V, B>, x: V): V {
  let t = a.or(x, a.lshr(x, a.word(1)));
  t = a.or(t, a.lshr(t, a.word(2)));
  t = a.and(t, a.word(0x11111111));
  return a.mulLo(t, a.word(0xf));
}

/** s_quadmask_b32 per word: bit i = any of bits 4i..4i+3 (8 result bits). */
function quadmask<V, B>(a: Algebra<V, B>, x: V): V {
  let t = a.or(x, a.lshr(x, a.word(1)));
  t = a.or(t, a.lshr(t, a.word(2)));
  t = a.and(t, a.word(0x11111111));
  t = a.and(a.or(t, a.lshr(t, a.word(3))), a.word(0x03030303));
  t = a.and(a.or(t, a.lshr(t, a.word(6))), a.word(0x000f000f));
  return a.and(a.or(t, a.lshr(t, a.word(12))), a.word(0xff));
}

/** Each of the low 16 bits of x, twice: bit i goes to bits 2i and 2i+1 (s_bitreplicate_b64_b32). */
function replicate16<V, B>(a: Algebra<V, B>, x: V): V {
  let t = a.and(x, a.word(0xffff));
  t = a.and(a.or(t, a.shl(t, a.word(8))), a.word(0x00ff00ff));
  t = a.and(a.or(t, a.shl(t, a.word(4))), a.word(0x0f0f0f0f));
  t = a.and(a.or(t, a.shl(t, a.word(2))), a.word(0x33333333));
  t = a.and(a.or(t, a.shl(t, a.word(1))), a.word(0x55555555));
  return a.or(t, a.shl(t, a.word(1)));
}

/** s_flbit_i32 / s_cls_i32: leading bits equal to the sign, counted from bit 31; -1 for 0 and -1. */
function flbitSigned<V, B>(a: Algebra<V, B>, x: V): V {
  return a.findMsbFromTop(a.select(sign(a, x), a.not(x), x));
}

function flbitSigned64<V, B>(a: Algebra<V, B>, x: Pair<V>): V {
  const neg = isNegative64(a, x);
  return findMsbFromTop64(a, [a.select(neg, a.not(x[0]), x[0]), a.select(neg, a.not(x[1]), x[1])]);
}

/**
 * S_BFE_U32 / S_BFE_I32 (all generations): offset S1[4:0], width S1[22:16] (7 bits, not
 * masked to 5). Width 0 gives 0; a field reaching past bit 31 gives S0 >> offset (sign
 * bits for _i32). LLVM's constant folding of these nodes and the CLRX reference agree.
 */
function bfe32(signed: boolean): ScalarSemantics {
  return (c) => {
    const a = c.alg;
    const s0 = c.src(1);
    const s1 = c.src(2);
    const off = a.and(s1, a.word(31));
    const w = a.and(a.lshr(s1, a.word(16)), a.word(0x7f));
    const end = a.add(off, w);
    const right = signed ? a.ashr : a.lshr;
    const field = right(a.shl(s0, a.sub(a.word(32), end)), a.sub(a.word(32), w));
    const beyond = right(s0, off);
    const d = a.select(a.eq(w, a.word(0)), a.word(0), a.select(a.ltU(end, a.word(32)), field, beyond));
    c.dst(0, d);
    c.setScc(nonZero(c, d));
  };
}

/** S_BFE_U64 / S_BFE_I64: offset S1[5:0], width S1[22:16]; the same rules in 64 bits. */
function bfe64(signed: boolean): ScalarSemantics {
  return (c) => {
    const a = c.alg;
    const s0 = c.srcPair(1);
    const s1 = c.src(2);
    const off = a.and(s1, a.word(63));
    const w = a.and(a.lshr(s1, a.word(16)), a.word(0x7f));
    const end = a.add(off, w);
    const right = signed ? ashr64 : lshr64;
    const field = right(a, shl64(a, s0, a.sub(a.word(64), end)), a.sub(a.word(64), w));
    const beyond = right(a, s0, off);
    const z = a.word(0);
    const d = pairSelect(a, a.eq(w, z), [z, z], pairSelect(a, a.ltU(end, a.word(64)), field, beyond));
    c.dstPair(0, d);
    c.setScc(pairNonZero(a, d));
  };
}

/**
 * S_LSHL<n>_ADD_U32 (gfx9+): "D.u = (S0.u << N) + S1.u; SCC = (((S0.u << N) + S1.u) >= 0x100000000)"
 * computed in 64 bits (RDNA3: `tmp = (64'U(S0.u32) << N) + 64'U(S1.u32)`), so the bits shifted
 * out of S0 set SCC as well as the carry of the add.
 */
function lshlAdd(n: number): ScalarSemantics {
  return (c) => {
    const a = c.alg;
    const s0 = c.src(1);
    const [d, carry] = a.addCarry(a.shl(s0, a.word(n)), c.src(2), a.bool(false));
    c.dst(0, d);
    c.setScc(a.boolOr(carry, a.toBool(a.lshr(s0, a.word(32 - n)))));
  };
}

const nop: ScalarSemantics = () => {};

const mov32: ScalarSemantics = (c) => c.dst(0, c.src(1));
const mov64: ScalarSemantics = (c) => c.dstPair(0, c.srcPair(1));

// ---- the table ----

const SEMANTICS: Readonly<Record<string, ScalarSemantics>> = {
  // SOP1
  s_mov_b32: mov32,
  s_mov_b64: mov64,
  // "if (SCC) D = S0": written as a select on the old value, so every algebra can express it.
  s_cmov_b32: (c) => c.dst(0, c.alg.select(c.scc(), c.src(1), c.old(0))),
  s_cmov_b64: (c) => c.dstPair(0, pairSelect(c.alg, c.scc(), c.srcPair(1), c.oldPair(0))),
  s_not_b32: unary32((a) => (x) => a.not(x), true),
  s_not_b64: unary64((a) => (x) => a.not(x), true),
  s_wqm_b32: unary32((a) => (x) => wqm(a, x), true),
  s_wqm_b64: unary64((a) => (x) => wqm(a, x), true),
  s_brev_b32: unary32((a) => (x) => a.brev(x), false),
  s_brev_b64: (c) => c.dstPair(0, brev64(c.alg, c.srcPair(1))),
  s_bcnt0_i32_b32: unary32((a) => (x) => a.sub(a.word(32), a.popcount(x)), true),
  s_bcnt0_i32_b64: (c) => {
    const d = c.alg.sub(c.alg.word(64), popcount64(c.alg, c.srcPair(1)));
    c.dst(0, d);
    c.setScc(nonZero(c, d));
  },
  s_bcnt1_i32_b32: unary32((a) => (x) => a.popcount(x), true),
  s_bcnt1_i32_b64: (c) => {
    const d = popcount64(c.alg, c.srcPair(1));
    c.dst(0, d);
    c.setScc(nonZero(c, d));
  },
  s_ff0_i32_b32: unary32((a) => (x) => a.findLsb(a.not(x)), false),
  s_ff0_i32_b64: (c) =>
    c.dst(
      0,
      findLsb64(
        c.alg,
        pairMap(c.srcPair(1), (x) => c.alg.not(x)),
      ),
    ),
  s_ff1_i32_b32: unary32((a) => (x) => a.findLsb(x), false),
  s_ff1_i32_b64: (c) => c.dst(0, findLsb64(c.alg, c.srcPair(1))),
  s_flbit_i32_b32: unary32((a) => (x) => a.findMsbFromTop(x), false),
  s_flbit_i32_b64: (c) => c.dst(0, findMsbFromTop64(c.alg, c.srcPair(1))),
  s_flbit_i32: unary32((a) => (x) => flbitSigned(a, x), false),
  s_flbit_i32_i64: (c) => c.dst(0, flbitSigned64(c.alg, c.srcPair(1))),
  // gfx11 names (RDNA3 ISA): s_ctz = s_ff1, s_clz = s_flbit_*_b32/u32, s_cls = s_flbit_i32.
  s_ctz_i32_b32: unary32((a) => (x) => a.findLsb(x), false),
  s_ctz_i32_b64: (c) => c.dst(0, findLsb64(c.alg, c.srcPair(1))),
  s_clz_i32_u32: unary32((a) => (x) => a.findMsbFromTop(x), false),
  s_clz_i32_u64: (c) => c.dst(0, findMsbFromTop64(c.alg, c.srcPair(1))),
  s_cls_i32: unary32((a) => (x) => flbitSigned(a, x), false),
  s_cls_i32_i64: (c) => c.dst(0, flbitSigned64(c.alg, c.srcPair(1))),
  s_sext_i32_i8: unary32((a) => (x) => a.sext(x, 8), false),
  s_sext_i32_i16: unary32((a) => (x) => a.sext(x, 16), false),
  // "D.u[S0.u[4:0]] = 0/1": D is read and rewritten.
  s_bitset0_b32: (c) => c.dst(0, c.alg.and(c.old(0), c.alg.not(c.alg.shl(c.alg.word(1), c.src(1))))),
  s_bitset1_b32: (c) => c.dst(0, c.alg.or(c.old(0), c.alg.shl(c.alg.word(1), c.src(1)))),
  s_bitset0_b64: (c) => {
    const bit = shl64(c.alg, [c.alg.word(1), c.alg.word(0)], c.src(1));
    c.dstPair(
      0,
      pairZip(c.oldPair(0), bit, (x, m) => c.alg.and(x, c.alg.not(m))),
    );
  },
  s_bitset1_b64: (c) => {
    const bit = shl64(c.alg, [c.alg.word(1), c.alg.word(0)], c.src(1));
    c.dstPair(
      0,
      pairZip(c.oldPair(0), bit, (x, m) => c.alg.or(x, m)),
    );
  },
  // "D.u64 = PC + 4": the address of the next instruction, from the state.
  s_getpc_b64: (c) => c.dstPair(0, c.nextPc()),
  s_and_saveexec_b64: saveexec64(execOps.and),
  s_or_saveexec_b64: saveexec64(execOps.or),
  s_xor_saveexec_b64: saveexec64(execOps.xor),
  s_andn2_saveexec_b64: saveexec64(execOps.andn2),
  s_orn2_saveexec_b64: saveexec64(execOps.orn2),
  s_nand_saveexec_b64: saveexec64(execOps.nand),
  s_nor_saveexec_b64: saveexec64(execOps.nor),
  s_xnor_saveexec_b64: saveexec64(execOps.xnor),
  s_andn1_saveexec_b64: saveexec64(execOps.andn1),
  s_orn1_saveexec_b64: saveexec64(execOps.orn1),
  s_andn1_wrexec_b64: wrexec64(execOps.andn1),
  s_andn2_wrexec_b64: wrexec64(execOps.andn2),
  s_and_saveexec_b32: saveexec32(execOps.and),
  s_or_saveexec_b32: saveexec32(execOps.or),
  s_xor_saveexec_b32: saveexec32(execOps.xor),
  s_andn2_saveexec_b32: saveexec32(execOps.andn2),
  s_orn2_saveexec_b32: saveexec32(execOps.orn2),
  s_nand_saveexec_b32: saveexec32(execOps.nand),
  s_nor_saveexec_b32: saveexec32(execOps.nor),
  s_xnor_saveexec_b32: saveexec32(execOps.xnor),
  s_andn1_saveexec_b32: saveexec32(execOps.andn1),
  s_orn1_saveexec_b32: saveexec32(execOps.orn1),
  s_andn1_wrexec_b32: wrexec32(execOps.andn1),
  s_andn2_wrexec_b32: wrexec32(execOps.andn2),
  // gfx11 names (RDNA3 ISA): NOT0 negates S0 (gfx9's "n1"), NOT1 negates EXEC ("n2").
  s_and_not0_saveexec_b32: saveexec32(execOps.andn1),
  s_and_not0_saveexec_b64: saveexec64(execOps.andn1),
  s_or_not0_saveexec_b32: saveexec32(execOps.orn1),
  s_or_not0_saveexec_b64: saveexec64(execOps.orn1),
  s_and_not1_saveexec_b32: saveexec32(execOps.andn2),
  s_and_not1_saveexec_b64: saveexec64(execOps.andn2),
  s_or_not1_saveexec_b32: saveexec32(execOps.orn2),
  s_or_not1_saveexec_b64: saveexec64(execOps.orn2),
  s_and_not0_wrexec_b32: wrexec32(execOps.andn1),
  s_and_not0_wrexec_b64: wrexec64(execOps.andn1),
  s_and_not1_wrexec_b32: wrexec32(execOps.andn2),
  s_and_not1_wrexec_b64: wrexec64(execOps.andn2),
  s_quadmask_b32: unary32((a) => (x) => quadmask(a, x), true),
  s_quadmask_b64: (c) => {
    const a = c.alg;
    const [lo, hi] = c.srcPair(1);
    const d = a.or(quadmask(a, lo), a.shl(quadmask(a, hi), a.word(8)));
    c.dstPair(0, [d, a.word(0)]);
    c.setScc(nonZero(c, d));
  },
  // "D = SGPR[S0.addr + M0]" / "SGPR[D.addr + M0] = S0".
  s_movrels_b32: (c) => c.dst(0, c.srcIndexed(1, c.m0(), 1)[0]),
  s_movrels_b64: (c) => {
    const [lo, hi] = c.srcIndexed(1, c.m0(), 2);
    c.dstPair(0, [lo, hi]);
  },
  s_movreld_b32: (c) => c.dstIndexed(0, c.m0(), [c.src(1)]),
  s_movreld_b64: (c) => c.dstIndexed(0, c.m0(), c.srcPair(1)),
  // RDNA1 ISA, S_MOVRELSD_2_B32: "SGPR[D.addr + M0[25:16]] = SGPR[S0.addr + M0[9:0]]".
  s_movrelsd_2_b32: (c) => {
    const a = c.alg;
    const m0 = c.m0();
    const v = c.srcIndexed(1, a.and(m0, a.word(0x3ff)), 1)[0];
    c.dstIndexed(0, a.and(a.lshr(m0, a.word(16)), a.word(0x3ff)), [v]);
  },
  // "D.i = (S0.i < 0 ? -S0.i : S0.i); SCC = D != 0" (0x80000000 stays 0x80000000).
  s_abs_i32: unary32((a) => (x) => a.select(sign(a, x), a.sub(a.word(0), x), x), true),
  // Vega ISA: "for i in 0..31: D.u64[2i] = D.u64[2i+1] = S0.u[i]". SCC is not written (RDNA3 pseudocode).
  s_bitreplicate_b64_b32: (c) => {
    const s = c.src(1);
    c.dstPair(0, [replicate16(c.alg, s), replicate16(c.alg, c.alg.lshr(s, c.alg.word(16)))]);
  },

  // SOP2
  s_add_u32: (c) => {
    const [d, carry] = c.alg.addCarry(c.src(1), c.src(2), c.alg.bool(false));
    c.dst(0, d);
    c.setScc(carry);
  },
  s_sub_u32: (c) => {
    const [d, borrow] = c.alg.subBorrow(c.src(1), c.src(2), c.alg.bool(false));
    c.dst(0, d);
    c.setScc(borrow);
  },
  // "SCC = overflow": the operands' signs agree and the result's differs.
  s_add_i32: (c) => {
    const a = c.alg;
    const x = c.src(1);
    const y = c.src(2);
    const d = a.add(x, y);
    c.dst(0, d);
    c.setScc(sign(a, a.and(a.xor(x, d), a.xor(y, d))));
  },
  s_sub_i32: (c) => {
    const a = c.alg;
    const x = c.src(1);
    const y = c.src(2);
    const d = a.sub(x, y);
    c.dst(0, d);
    c.setScc(sign(a, a.and(a.xor(x, y), a.xor(x, d))));
  },
  s_addc_u32: (c) => {
    const [d, carry] = c.alg.addCarry(c.src(1), c.src(2), c.scc());
    c.dst(0, d);
    c.setScc(carry);
  },
  s_subb_u32: (c) => {
    const [d, borrow] = c.alg.subBorrow(c.src(1), c.src(2), c.scc());
    c.dst(0, d);
    c.setScc(borrow);
  },
  // "D = (S0 < S1) ? S0 : S1; SCC = (S0 < S1)": SCC says S0 was chosen strictly.
  s_min_i32: (c) => {
    const x = c.src(1);
    const y = c.src(2);
    c.dst(0, c.alg.minI(x, y));
    c.setScc(c.alg.ltI(x, y));
  },
  s_min_u32: (c) => {
    const x = c.src(1);
    const y = c.src(2);
    c.dst(0, c.alg.minU(x, y));
    c.setScc(c.alg.ltU(x, y));
  },
  s_max_i32: (c) => {
    const x = c.src(1);
    const y = c.src(2);
    c.dst(0, c.alg.maxI(x, y));
    c.setScc(c.alg.ltI(y, x));
  },
  s_max_u32: (c) => {
    const x = c.src(1);
    const y = c.src(2);
    c.dst(0, c.alg.maxU(x, y));
    c.setScc(c.alg.ltU(y, x));
  },
  s_cselect_b32: (c) => c.dst(0, c.alg.select(c.scc(), c.src(1), c.src(2))),
  s_cselect_b64: (c) => c.dstPair(0, pairSelect(c.alg, c.scc(), c.srcPair(1), c.srcPair(2))),
  s_and_b32: binary32((a) => (x, y) => a.and(x, y)),
  s_and_b64: binary64((a) => (x, y) => a.and(x, y)),
  s_or_b32: binary32((a) => (x, y) => a.or(x, y)),
  s_or_b64: binary64((a) => (x, y) => a.or(x, y)),
  s_xor_b32: binary32((a) => (x, y) => a.xor(x, y)),
  s_xor_b64: binary64((a) => (x, y) => a.xor(x, y)),
  s_andn2_b32: binary32((a) => (x, y) => a.and(x, a.not(y))),
  s_andn2_b64: binary64((a) => (x, y) => a.and(x, a.not(y))),
  s_orn2_b32: binary32((a) => (x, y) => a.or(x, a.not(y))),
  s_orn2_b64: binary64((a) => (x, y) => a.or(x, a.not(y))),
  s_and_not1_b32: binary32((a) => (x, y) => a.and(x, a.not(y))),
  s_and_not1_b64: binary64((a) => (x, y) => a.and(x, a.not(y))),
  s_or_not1_b32: binary32((a) => (x, y) => a.or(x, a.not(y))),
  s_or_not1_b64: binary64((a) => (x, y) => a.or(x, a.not(y))),
  s_nand_b32: binary32((a) => (x, y) => a.not(a.and(x, y))),
  s_nand_b64: binary64((a) => (x, y) => a.not(a.and(x, y))),
  s_nor_b32: binary32((a) => (x, y) => a.not(a.or(x, y))),
  s_nor_b64: binary64((a) => (x, y) => a.not(a.or(x, y))),
  s_xnor_b32: binary32((a) => (x, y) => a.not(a.xor(x, y))),
  s_xnor_b64: binary64((a) => (x, y) => a.not(a.xor(x, y))),
  // "D = S0 << S1[4:0]" (the algebra's shifts mask to 5 bits); 64-bit forms mask S1[5:0].
  s_lshl_b32: binary32((a) => (x, y) => a.shl(x, y)),
  s_lshl_b64: shift64(shl64),
  s_lshr_b32: binary32((a) => (x, y) => a.lshr(x, y)),
  s_lshr_b64: shift64(lshr64),
  s_ashr_i32: binary32((a) => (x, y) => a.ashr(x, y)),
  s_ashr_i64: shift64(ashr64),
  // "D = ((1 << S0[4:0]) - 1) << S1[4:0]"; SCC is not written.
  s_bfm_b32: binary32((a) => a.bfm, false),
  s_bfm_b64: (c) => c.dstPair(0, bfm64(c.alg, c.src(1), c.src(2))),
  s_mul_i32: binary32((a) => a.mulLo, false),
  s_mul_hi_u32: binary32((a) => a.mulHiU, false),
  s_mul_hi_i32: binary32((a) => a.mulHiI, false),
  s_bfe_u32: bfe32(false),
  s_bfe_i32: bfe32(true),
  s_bfe_u64: bfe64(false),
  s_bfe_i64: bfe64(true),
  // Vega ISA, S_ABSDIFF_I32: "D.i = S0.i - S1.i; if (D.i < 0) D.i = -D.i; SCC = (D.u != 0)" (the difference wraps).
  s_absdiff_i32: binary32((a) => (x, y) => {
    const d = a.sub(x, y);
    return a.select(sign(a, d), a.sub(a.word(0), d), d);
  }),
  s_lshl1_add_u32: lshlAdd(1),
  s_lshl2_add_u32: lshlAdd(2),
  s_lshl3_add_u32: lshlAdd(3),
  s_lshl4_add_u32: lshlAdd(4),
  // "D = {S1[15:0], S0[15:0]}" and the other halves.
  s_pack_ll_b32_b16: binary32((a) => (x, y) => a.or(a.and(x, a.word(0xffff)), a.shl(y, a.word(16))), false),
  s_pack_lh_b32_b16: binary32((a) => (x, y) => a.or(a.and(x, a.word(0xffff)), a.and(y, a.word(0xffff0000))), false),
  s_pack_hh_b32_b16: binary32((a) => (x, y) => a.or(a.lshr(x, a.word(16)), a.and(y, a.word(0xffff0000))), false),
  s_pack_hl_b32_b16: binary32((a) => (x, y) => a.or(a.lshr(x, a.word(16)), a.shl(y, a.word(16))), false),

  // SOPC
  s_cmp_eq_i32: compare32((a, x, y) => a.eq(x, y)),
  s_cmp_lg_i32: compare32((a, x, y) => a.ne(x, y)),
  s_cmp_gt_i32: compare32((a, x, y) => a.ltI(y, x)),
  s_cmp_ge_i32: compare32((a, x, y) => a.leI(y, x)),
  s_cmp_lt_i32: compare32((a, x, y) => a.ltI(x, y)),
  s_cmp_le_i32: compare32((a, x, y) => a.leI(x, y)),
  s_cmp_eq_u32: compare32((a, x, y) => a.eq(x, y)),
  s_cmp_lg_u32: compare32((a, x, y) => a.ne(x, y)),
  s_cmp_gt_u32: compare32((a, x, y) => a.ltU(y, x)),
  s_cmp_ge_u32: compare32((a, x, y) => a.leU(y, x)),
  s_cmp_lt_u32: compare32((a, x, y) => a.ltU(x, y)),
  s_cmp_le_u32: compare32((a, x, y) => a.leU(x, y)),
  // "SCC = (S0.u[S1.u[4:0]] == 0)" / "== 1"; the 64-bit forms index S0.u64 by S1.u[5:0].
  s_bitcmp0_b32: compare32((a, x, y) => a.eq(a.and(a.lshr(x, y), a.word(1)), a.word(0))),
  s_bitcmp1_b32: compare32((a, x, y) => a.ne(a.and(a.lshr(x, y), a.word(1)), a.word(0))),
  s_bitcmp0_b64: (c) =>
    c.setScc(c.alg.eq(c.alg.and(lshr64(c.alg, c.srcPair(0), c.src(1))[0], c.alg.word(1)), c.alg.word(0))),
  s_bitcmp1_b64: (c) =>
    c.setScc(c.alg.ne(c.alg.and(lshr64(c.alg, c.srcPair(0), c.src(1))[0], c.alg.word(1)), c.alg.word(0))),
  s_cmp_eq_u64: (c) => c.setScc(pairEq(c.alg, c.srcPair(0), c.srcPair(1))),
  s_cmp_lg_u64: (c) => c.setScc(c.alg.boolNot(pairEq(c.alg, c.srcPair(0), c.srcPair(1)))),

  // SOPK: "D = signext(SIMM16)"; the _u32 compares zero-extend it.
  s_movk_i32: (c) => c.dst(0, c.alg.sext(c.src(1), 16)),
  s_cmovk_i32: (c) => c.dst(0, c.alg.select(c.scc(), c.alg.sext(c.src(1), 16), c.old(0))),
  s_cmpk_eq_i32: compareK((a, x, y) => a.eq(x, y), true),
  s_cmpk_lg_i32: compareK((a, x, y) => a.ne(x, y), true),
  s_cmpk_gt_i32: compareK((a, x, y) => a.ltI(y, x), true),
  s_cmpk_ge_i32: compareK((a, x, y) => a.leI(y, x), true),
  s_cmpk_lt_i32: compareK((a, x, y) => a.ltI(x, y), true),
  s_cmpk_le_i32: compareK((a, x, y) => a.leI(x, y), true),
  s_cmpk_eq_u32: compareK((a, x, y) => a.eq(x, y), false),
  s_cmpk_lg_u32: compareK((a, x, y) => a.ne(x, y), false),
  s_cmpk_gt_u32: compareK((a, x, y) => a.ltU(y, x), false),
  s_cmpk_ge_u32: compareK((a, x, y) => a.leU(y, x), false),
  s_cmpk_lt_u32: compareK((a, x, y) => a.ltU(x, y), false),
  s_cmpk_le_u32: compareK((a, x, y) => a.leU(x, y), false),
  // "D = D + signext(SIMM16); SCC = overflow".
  s_addk_i32: (c) => {
    const a = c.alg;
    const x = c.old(0);
    const y = a.sext(c.src(1), 16);
    const d = a.add(x, y);
    c.dst(0, d);
    c.setScc(sign(a, a.and(a.xor(x, d), a.xor(y, d))));
  },
  s_mulk_i32: (c) => c.dst(0, c.alg.mulLo(c.old(0), c.alg.sext(c.src(1), 16))),
  // No architectural effect the semantics model (s_version is a hint; the waits order memory).
  s_version: nop,
  s_waitcnt_vscnt: nop,
  s_waitcnt_vmcnt: nop,
  s_waitcnt_expcnt: nop,
  s_waitcnt_lgkmcnt: nop,
  // Hardware registers through hwreg(id, offset, size) (RDNA3 ISA 16.2 "SOPK Instructions", S_GETREG_B32:
  // D0 = (reg >> offset) & ((1 << size) - 1); S_SETREG_B32: reg = (reg & ~mask) | ((S0 << offset) & mask),
  // mask = ((1 << size) - 1) << offset; S_SETREG_IMM32_B32: the same from the literal).
  s_getreg_b32: (c) => {
    const a = c.alg;
    const f = hwRegField(c.immediate(1));
    c.dst(0, a.and(a.lshr(c.hwReg(f.id), a.word(f.offset)), a.word(fieldMask({ ...f, offset: 0 }))));
  },
  s_setreg_b32: (c) => setHwRegField(c, c.src(1)),
  s_setreg_imm32_b32: (c) => setHwRegField(c, c.src(1)),
};

function setHwRegField<V, B>(c: SemanticsContext<V, B>, value: V): void {
  const a = c.alg;
  const f = hwRegField(c.immediate(0));
  const mask = a.word(fieldMask(f));
  const old = c.hwReg(f.id);
  c.setHwReg(f.id, a.or(a.and(old, a.not(mask)), a.and(a.shl(value, a.word(f.offset)), mask)));
}

/**
 * SOPP instructions that write MODE and nothing else (gfx10+; RDNA3 ISA 16.5 "SOPP Instructions",
 * S_ROUND_MODE / S_DENORM_MODE, "preferred over S_SETREG"): SIMM16[3:0] becomes MODE.FP_ROUND [3:0]
 * or MODE.FP_DENORM [7:4], as Mesa's ACO emits them (emit_set_mode).
 */
const MODE_SOPP: Readonly<Record<string, ScalarSemantics>> = {
  s_round_mode: (c) => setModeBits(c, 0),
  s_denorm_mode: (c) => setModeBits(c, 4),
};
function setModeBits<V, B>(c: SemanticsContext<V, B>, shift: number): void {
  const a = c.alg;
  const mask = a.word(0xf << shift);
  const old = c.hwReg(HW_REG_MODE);
  c.setHwReg(HW_REG_MODE, a.or(a.and(old, a.not(mask)), a.and(a.shl(c.src(0), a.word(shift)), mask)));
}

/** Why a scalar ALU instruction has no semantic function here. */
export interface Uncovered {
  /** 'control': branches and calls, which the interpreter and translator model themselves; 'refused': state this layer does not model. */
  readonly kind: 'control' | 'refused';
  readonly reason: string;
}

const control = (reason: string): Uncovered => ({ kind: 'control', reason });
const refused = (reason: string): Uncovered => ({ kind: 'refused', reason });

export const SCALAR_UNCOVERED: Readonly<Record<string, Uncovered>> = {
  s_setpc_b64: control('writes the PC'),
  s_swappc_b64: control('writes the PC (and the return address)'),
  s_rfe_b64: control('return from exception: writes the PC'),
  s_rfe_restore_b64: control('return from exception: writes the PC'),
  s_cbranch_join: control('gfx7-9 fork/join control stack'),
  s_cbranch_g_fork: control('gfx7-9 fork/join control stack'),
  s_cbranch_i_fork: control('gfx7-9 fork/join control stack'),
  s_call_b64: control('a call: writes the PC'),
  s_subvector_loop_begin: control('a branch'),
  s_subvector_loop_end: control('a branch'),
  s_set_gpr_idx_on: refused(
    'sets MODE.gpr_idx_en, wave state a scalar context has no access to: wave-gpr-index.ts runs it',
  ),
  s_set_gpr_idx_idx: refused('part of GPR index mode (gfx8-9), which wave-gpr-index.ts runs with the wave state'),
  s_setvskip: refused('VSKIP mode (gfx7-9) is not modelled'),
  s_sendmsg_rtn_b32: refused('message returns (gfx11) come from outside the wave'),
  s_sendmsg_rtn_b64: refused('message returns (gfx11) come from outside the wave'),
};

/** The semantic function of a scalar ALU instruction, or undefined (see `SCALAR_UNCOVERED`). */
export function scalarSemanticsFor(def: InstructionDef): ScalarSemantics | undefined {
  if (def.family === 'SOPP') return Object.hasOwn(MODE_SOPP, def.name) ? MODE_SOPP[def.name] : undefined;
  if (!SALU_FAMILIES.includes(def.family)) return undefined;
  return Object.hasOwn(SEMANTICS, def.name) ? SEMANTICS[def.name] : undefined;
}

/** Names with semantic functions (for coverage checks). */
export function scalarSemanticNames(): readonly string[] {
  return Object.keys(SEMANTICS);
}

/** Runs one scalar ALU instruction against a state; throws `SemanticsRefusal` when it has no semantics. */
export function runScalar<V, B>(alg: Algebra<V, B>, target: Target, inst: Instruction, state: ScalarState<V, B>): void {
  const f = scalarSemanticsFor(inst.def);
  if (!f) {
    const why = SCALAR_UNCOVERED[inst.def.name];
    throw new SemanticsRefusal(inst.def.name, why ? `${why.kind}: ${why.reason}` : 'no scalar ALU semantics');
  }
  f(createScalarContext(alg, target, inst, state));
}
