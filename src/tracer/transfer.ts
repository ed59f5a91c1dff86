/**
 * What one instruction does to the tracer's registers (the transfer function of the data flow).
 * Nothing here is written per instruction: scalar ALU instructions run their shared semantics,
 * first through `foldScalar` (D003, D983's "samplers built in place": every register source a
 * constant, the destination holds the constant the run leaves), else on the expression algebra,
 * so a move is the value it moved and `s_lshl_b32` of a lane's index is `index << 5`. Vector ALU
 * instructions run their shared semantics once on symbols (the lane is a symbol, as in the
 * interpreter's compiled path); a wave-level read of a lane (v_readfirstlane, v_readlane) of a
 * VGPR that differs per lane is a `lane-pick` leaf. Scalar loads leave `scalar-load` leaves with
 * the address their encoding gives (`smemOffset`, the interpreter's own rule); vector loads
 * leave `vector-load` leaves with theirs. Whatever an instruction writes that is not modelled
 * becomes an `opaque` leaf naming the instruction and the reason.
 */
import { Gen, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { SRC_EXEC_LO, SRC_VCC_LO, hex, m0Code, nullCode, scalarRegName, sgprCount, vgprName } from '../isa/operands.ts';
import { Attr, type OperandDef } from '../isa/registry/types.ts';
import { printInstruction } from '../isa/disasm.ts';
import type { Pair } from '../semantics/algebra.ts';
import { SRC_SCC, SemanticsRefusal, type ScalarState } from '../semantics/context.ts';
import type { Expr, ExprBuilder } from '../semantics/expr.ts';
import { foldScalar } from '../semantics/fold.ts';
import type { VectorState } from '../semantics/lane-context.ts';
import { runScalar } from '../semantics/scalar.ts';
import { VALU_FAMILIES, runVector, vectorRefusal } from '../semantics/vector.ts';
import { waveSemanticsFor } from '../semantics/wave-ops.ts';
import { UnsupportedAccess, flatImmediate, scalarOffset, smemOffset } from '../interp/buffer-ops.ts';
import { codeAddress, type CodeAddress } from './ids.ts';
import {
  constantOf,
  exprText,
  Leaves,
  ValueFacts,
  type Origin,
  type ProvenanceStep,
  type TracedValue,
  type VectorAddress,
} from './values.ts';

/** SGPR-space codes the tracer keeps (SGPRs, VCC, TTMPs, M0, EXEC). */
export const SGPR_SPACE = 128;

/** The registers at one point of the program. */
export interface MachineState {
  readonly sgpr: TracedValue[];
  scc: TracedValue;
  /** VGPRs written so far (a VGPR not here holds its entry value). */
  readonly vgpr: Map<number, TracedValue>;
}

export function cloneState(s: MachineState): MachineState {
  return { sgpr: s.sgpr.slice(), scc: s.scc, vgpr: new Map(s.vgpr) };
}

/** What every transfer needs: the target, the leaves, the entry VGPRs, the code's address. */
export class TraceContext {
  readonly leaves = new Leaves();
  private readonly entryVgprs = new Map<number, TracedValue>();
  private laneIdLeaf: Expr | undefined;
  constructor(
    readonly target: Target,
    /** Meaning of the VGPRs at entry by index (a thread id); others are "a value at entry". */
    private readonly vgprMeaning: ReadonlyMap<number, string>,
    /** Guest address of the code's byte 0, when known (s_getpc_b64 then folds). */
    readonly codeBase: number | undefined,
  ) {}

  get builder(): ExprBuilder {
    return this.leaves.builder;
  }

  regName(code: number): string {
    return scalarRegName(this.target.gen, code, 1) ?? `s${code}`;
  }

  /** VGPR `i` as the wave starts. */
  entryVgpr(i: number): TracedValue {
    let v = this.entryVgprs.get(i);
    if (!v) {
      const meaning = this.vgprMeaning.get(i) ?? 'a value at entry';
      v = {
        expr: this.leaves.word(`v${i}@entry`, { kind: 'entry-vgpr', vgpr: i, meaning }),
        step: {
          at: undefined,
          register: vgprName(i, 1),
          action: 'entry',
          text: `${vgprName(i, 1)} at entry: ${meaning}`,
        },
        sources: [],
      };
      this.entryVgprs.set(i, v);
    }
    return v;
  }

  laneId(): Expr {
    return (this.laneIdLeaf ??= this.leaves.word('lane_id', { kind: 'lane-id' }));
  }

  text(inst: Instruction): string {
    return printInstruction(this.target, inst);
  }
}

function readVgpr(ctx: TraceContext, st: MachineState, i: number): TracedValue {
  return st.vgpr.get(i) ?? ctx.entryVgpr(i);
}

/** A named unknown for a register an instruction writes without a model. */
function opaqueValue(
  ctx: TraceContext,
  inst: Instruction,
  register: string,
  reason: string,
  laneVarying: boolean,
  bool = false,
): TracedValue {
  const at = codeAddress(inst.offset);
  const origin: Origin = { kind: 'opaque', at, register, reason, laneVarying };
  const name = `opaque@${inst.offset}:${register}`;
  return {
    expr: bool ? ctx.leaves.bool(name, origin) : ctx.leaves.word(name, origin),
    step: { at, register, action: 'opaque', text: `${ctx.text(inst)}: ${register} is not traced (${reason})` },
    sources: [],
  };
}

/** The SGPR-space code a scalar destination operand names (VOPC's e64 sdst lives in the vdst field; e32 writes VCC). */
function scalarDestinationCode(inst: Instruction, o: OperandDef): number | undefined {
  if (o.field === 'vcc') return SRC_VCC_LO;
  if (o.field === 'exec') return SRC_EXEC_LO;
  if (inst.def.family === 'VOPC' && o.field === 'sdst') return inst.encoding === 'VOPC' ? SRC_VCC_LO : inst.fields.vdst;
  return inst.fields[o.field];
}

/** Marks everything an instruction might write as unknown, with the reason. */
function opaqueDestinations(ctx: TraceContext, st: MachineState, inst: Instruction, reason: string): void {
  const def = inst.def;
  const gen = ctx.target.gen;
  const setS = (code: number): void => {
    if (code >= 0 && code < SGPR_SPACE && !(gen >= Gen.GFX8 && code === nullCode(gen)))
      st.sgpr[code] = opaqueValue(ctx, inst, ctx.regName(code), reason, false);
  };
  for (const o of def.operands) {
    if (o.role !== 'dst') continue;
    if (o.cls === 'v') {
      const first = inst.fields[o.field];
      if (first === undefined) continue;
      for (let i = 0; i < o.dwords; i++)
        st.vgpr.set(first + i, opaqueValue(ctx, inst, vgprName(first + i, 1), reason, true));
    } else if (o.cls === 's' || o.cls === 'ss') {
      const code = scalarDestinationCode(inst, o);
      if (code === undefined) continue;
      for (let i = 0; i < o.dwords; i++) setS(code + i);
    }
  }
  if (def.attrs & Attr.WritesScc) st.scc = opaqueValue(ctx, inst, 'scc', reason, false, true);
  if (def.attrs & Attr.WritesExec) [SRC_EXEC_LO, SRC_EXEC_LO + 1].forEach(setS);
  if (def.attrs & Attr.WritesVcc) [SRC_VCC_LO, SRC_VCC_LO + 1].forEach(setS);
  if (def.attrs & Attr.WritesM0) setS(m0Code(gen));
}

/** The step for a value an instruction computed, and which sources it keeps. */
function computedValue(
  ctx: TraceContext,
  inst: Instruction,
  register: string,
  expr: Expr,
  reads: ReadonlyMap<string, TracedValue>,
  folded: boolean,
): TracedValue {
  const at = codeAddress(inst.offset);
  const text = ctx.text(inst);
  const all = [...reads.values()];
  for (const [name, v] of reads)
    if (v.expr === expr && constantOf(expr) === undefined)
      return { expr, step: { at, register, action: 'copy', text: `${text}: ${register} = ${name}` }, sources: [v] };
  const c = constantOf(expr);
  if (c !== undefined) {
    const action = all.length === 0 ? 'constant' : 'fold';
    const how = action === 'constant' ? 'a constant' : folded ? 'folded from constants' : 'folded';
    return { expr, step: { at, register, action, text: `${text}: ${register} = ${hex(c)} (${how})` }, sources: all };
  }
  return {
    expr,
    step: computeStep(at, register, () => `${text}: ${register} = ${exprText(expr, ctx.leaves)}`),
    sources: all,
  };
}

/**
 * A compute step whose text is written when first read: the translator traces every VGPR a
 * program computes and reads none of their texts (writing them was a thirteenth of int_math's
 * translation, profiled); the provenance view reads a few. A leaf's origin may still be refined
 * after the step is made (Leaves.word), so the text read later could in principle name it
 * otherwise; over every compiled-kernel trace of all targets (38,024 steps) it was checked equal
 * to the text written at once.
 */
function computeStep(at: CodeAddress, register: string, describe: () => string): ProvenanceStep {
  let text: string | undefined;
  return {
    at,
    register,
    action: 'compute',
    get text() {
      return (text ??= describe());
    },
  };
}

/** Scalar ALU: folded through fold.ts when every source is a constant, else run on the expression algebra. */
function scalarAlu(ctx: TraceContext, st: MachineState, inst: Instruction): void {
  const reads = new Map<string, TracedValue>();
  const readCode = (code: number): TracedValue => {
    const v = st.sgpr[code];
    reads.set(ctx.regName(code), v);
    return v;
  };
  const folded = foldScalar(ctx.target, inst, (code) => {
    if (code === SRC_SCC) {
      reads.set('scc', st.scc);
      return constantOf(st.scc.expr);
    }
    if (code < 0 || code >= SGPR_SPACE) return undefined;
    return constantOf(readCode(code).expr);
  });
  const b = ctx.builder;
  if (folded) {
    for (const [code, value] of folded.writes)
      if (code < SGPR_SPACE) st.sgpr[code] = computedValue(ctx, inst, ctx.regName(code), b.word(value), reads, true);
    if (folded.scc !== undefined) st.scc = computedValue(ctx, inst, 'scc', b.bool(folded.scc), reads, true);
    return;
  }
  reads.clear();
  const writes = new Map<number, Expr>();
  let scc: Expr | undefined;
  const read = (code: number): Expr => writes.get(code) ?? readCode(code).expr;
  const name = inst.def.name;
  const indexed = (base: number, offset: Expr): number => {
    const c = constantOf(offset);
    if (c === undefined) throw new SemanticsRefusal(name, 'the register index (M0) is not known to the tracer');
    const code = base + c;
    if (code < 0 || code >= sgprCount(ctx.target.gen))
      throw new SemanticsRefusal(name, `the indexed register s${base}+${c} is not a plain SGPR`);
    return code;
  };
  const next = inst.offset + inst.size;
  const state: ScalarState<Expr, Expr> = {
    readSgpr: read,
    writeSgpr: (code, v) => void writes.set(code, v),
    readScc: () => {
      if (scc !== undefined) return scc;
      reads.set('scc', st.scc);
      return st.scc.expr;
    },
    writeScc: (v) => {
      scc = v;
    },
    readSgprAt: (base, offset) => read(indexed(base, offset)),
    writeSgprAt: (base, offset, v) => void writes.set(indexed(base, offset), v),
    nextPc: (): Pair<Expr> => {
      if (ctx.codeBase !== undefined) {
        const a = ctx.codeBase + next;
        return [b.word(a % 2 ** 32), b.word(Math.floor(a / 2 ** 32))];
      }
      const at = codeAddress(next);
      return [
        ctx.leaves.word(`pc@${next}:0`, { kind: 'code-address', at, half: 0 }),
        ctx.leaves.word(`pc@${next}:1`, { kind: 'code-address', at, half: 1 }),
      ];
    },
  };
  try {
    runScalar(b, ctx.target, inst, state);
  } catch (e) {
    if (!(e instanceof SemanticsRefusal)) throw e;
    opaqueDestinations(ctx, st, inst, e.reason);
    return;
  }
  for (const [code, v] of writes)
    if (code < SGPR_SPACE) st.sgpr[code] = computedValue(ctx, inst, ctx.regName(code), v, reads, false);
  if (scc !== undefined) st.scc = computedValue(ctx, inst, 'scc', scc, reads, false);
}

/** Scalar loads: s_load_* / s_buffer_load_* (the names the interpreter runs). */
const SCALAR_LOAD = /^s_(buffer_)?load_(dword(x(2|4|8|16))?|b(32|64|128|256|512))$/;

/** The V# (s_buffer_*) or address pair (s_load_*) a scalar memory instruction reads, and its byte offset. */
export function scalarMemoryAddress(
  ctx: TraceContext,
  st: MachineState,
  inst: Instruction,
): { through: 'address' | 'descriptor'; base: TracedValue[]; offset: TracedValue } | string {
  const isBuffer = inst.def.name.startsWith('s_buffer_');
  const first = inst.fields.sbase;
  const base = Array.from({ length: isBuffer ? 4 : 2 }, (_, i) => st.sgpr[first + i]);
  const reads = new Map<string, TracedValue>();
  let offset: Pair<Expr>;
  try {
    offset = smemOffset(ctx.builder, ctx.target.gen, inst, isBuffer, (code) => {
      reads.set(ctx.regName(code), st.sgpr[code]);
      return st.sgpr[code].expr;
    });
  } catch (e) {
    if (e instanceof UnsupportedAccess) return e.message;
    throw e;
  }
  const at = codeAddress(inst.offset);
  const off = offset[0];
  const c = constantOf(off);
  const offsetValue: TracedValue =
    reads.size === 1 && [...reads.values()][0].expr === off
      ? [...reads.values()][0]
      : {
          expr: off,
          step: {
            at,
            register: 'offset',
            action: c === undefined ? 'compute' : 'constant',
            text: `${ctx.text(inst)}: byte offset ${exprText(off, ctx.leaves)}`,
          },
          sources: [...reads.values()],
        };
  return { through: isBuffer ? 'descriptor' : 'address', base, offset: offsetValue };
}

function scalarMemory(ctx: TraceContext, st: MachineState, inst: Instruction): void {
  const def = inst.def;
  const dst = def.operands.find((o) => o.role === 'dst');
  if (!dst) return;
  const first = inst.fields.sdata ?? inst.fields.sdst;
  if (!SCALAR_LOAD.test(def.name)) {
    opaqueDestinations(ctx, st, inst, `${def.name} returns a value the tracer does not model`);
    return;
  }
  const address = scalarMemoryAddress(ctx, st, inst);
  if (typeof address === 'string') {
    opaqueDestinations(ctx, st, inst, address);
    return;
  }
  const at = codeAddress(inst.offset);
  const text = ctx.text(inst);
  for (let k = 0; k < dst.dwords; k++) {
    const code = first + k;
    if (code >= SGPR_SPACE) break;
    const origin: Origin = { kind: 'scalar-load', at, instruction: text, dword: k, ...address };
    st.sgpr[code] = {
      expr: ctx.leaves.word(`smem@${inst.offset}:${k}`, origin),
      step: {
        at,
        register: ctx.regName(code),
        action: 'load',
        text: `${text}: ${ctx.regName(code)} = dword ${k} of the load`,
      },
      sources: [...address.base, address.offset],
    };
  }
}

/** Vector ALU: the shared per-lane or wave-level semantics, run once on symbols. */
function vectorAlu(ctx: TraceContext, st: MachineState, inst: Instruction): void {
  const def = inst.def;
  const why = vectorRefusal(ctx.target, inst);
  if (why !== undefined) {
    opaqueDestinations(ctx, st, inst, why);
    return;
  }
  const waveLevel = waveSemanticsFor(def) !== undefined;
  const b = ctx.builder;
  const at = codeAddress(inst.offset);
  const text = ctx.text(inst);
  const reads = new Map<string, TracedValue>();
  const sWrites = new Map<number, Expr>();
  const vWrites = new Map<number, Expr>();
  const picks = new Map<Expr, { value: TracedValue; vgpr: number }>();
  const facts = new ValueFacts(ctx.leaves);
  const readV = (i: number): TracedValue => {
    const v = readVgpr(ctx, st, i);
    reads.set(vgprName(i, 1), v);
    return v;
  };
  /** VGPR `i` of one lane: its value when it is the same in every lane, else a named lane pick. */
  const pick = (i: number): Expr => {
    const v = readV(i);
    if (!facts.laneVarying(v.expr)) return v.expr;
    const lane = def.name === 'v_readfirstlane_b32' ? 'first-active' : 'selected';
    const e = ctx.leaves.word(`pick@${inst.offset}:${i}`, {
      kind: 'lane-pick',
      at,
      instruction: text,
      vgpr: i,
      laneValue: v,
      lane,
    });
    picks.set(e, { value: v, vgpr: i });
    return e;
  };
  const state: VectorState<Expr, Expr> = {
    lanes: ctx.target.wave64 ? 64 : 32,
    // Per-lane functions run for one symbolic lane (laneWord); wave-level ones see every lane.
    active: (lane) => waveLevel || lane === 0,
    laneWord: () => ctx.laneId(),
    readSgpr: (code) => {
      const w = sWrites.get(code);
      if (w !== undefined) return w;
      const v = st.sgpr[code];
      reads.set(ctx.regName(code), v);
      return v.expr;
    },
    writeSgpr: (code, v) => void sWrites.set(code, v),
    readScc: () => {
      reads.set('scc', st.scc);
      return st.scc.expr;
    },
    writeScc: () => {
      throw new SemanticsRefusal(def.name, 'a vector instruction writing SCC');
    },
    readVgpr: (i) => vWrites.get(i) ?? readV(i).expr,
    writeVgpr: (i, _lane, v) => void vWrites.set(i, v),
    readVgprOfLane: (i) => pick(i),
    writeVgprOfLane: (i, _lane, v) => void vWrites.set(i, v),
  };
  try {
    runVector(b, ctx.target, inst, state);
  } catch (e) {
    if (!(e instanceof SemanticsRefusal)) throw e;
    opaqueDestinations(ctx, st, inst, e.reason);
    return;
  }
  // DPP and the wave-level instructions move values between lanes, which one symbolic lane cannot say.
  const crossLaneVgprs = waveLevel || /DPP/.test(inst.encoding);
  for (const [i, v] of vWrites) {
    const reg = vgprName(i, 1);
    st.vgpr.set(
      i,
      crossLaneVgprs
        ? opaqueValue(ctx, inst, reg, 'a value moved between lanes', true)
        : computedValue(ctx, inst, reg, v, reads, false),
    );
  }
  for (const [code, v] of sWrites) {
    if (code >= SGPR_SPACE) continue;
    const reg = ctx.regName(code);
    if (!waveLevel) {
      // A per-lane instruction writes SGPRs only as lane masks (compares, carries, v_cmpx's EXEC).
      // Run for the one symbolic lane, the semantics put its bit at bit 0 of the mask's first word
      // (flushMasks: select(bit, 1, 0)), the word that lane reads its own bit from (ownLaneBit).
      const laneBit =
        v.op === 'select' && constantOf(v.args[1]) === 1 && constantOf(v.args[2]) === 0 ? v.args[0] : undefined;
      st.sgpr[code] = {
        expr: ctx.leaves.word(`mask@${inst.offset}:${code}`, {
          kind: 'lane-mask',
          at,
          instruction: text,
          register: reg,
          ...(laneBit ? { laneBit } : {}),
        }),
        step: { at, register: reg, action: 'lane-mask', text: `${text}: ${reg} = a lane mask` },
        sources: [...reads.values()],
      };
      continue;
    }
    const picked = picks.get(v);
    st.sgpr[code] = picked
      ? {
          expr: v,
          step: {
            at,
            register: reg,
            action: 'lane-read',
            text: `${text}: ${reg} = ${vgprName(picked.vgpr, 1)} of one lane (it differs per lane)`,
          },
          sources: [picked.value],
        }
      : computedValue(ctx, inst, reg, v, reads, false);
  }
}

/** Dwords a MIMG instruction returns: one per DMASK bit (gather4: four), halved by packed D16. */
function imageDataDwords(target: Target, inst: Instruction, declared: number): number {
  const f = inst.fields;
  const kind = inst.def.flags?.kind;
  if (inst.def.attrs & Attr.MemAtomic) return declared;
  let n = kind === 'gather4' ? 4 : popcount((f.dmask ?? 0) & 0xf);
  if (f.d16 && target.gen >= Gen.GFX9) n = Math.ceil(n / 2);
  return Math.max(n, 1);
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/** How a MUBUF/MTBUF or GLOBAL/FLAT load addressed its words. */
function vectorAddress(ctx: TraceContext, st: MachineState, inst: Instruction): VectorAddress | undefined {
  const f = inst.fields;
  const gen = ctx.target.gen;
  const b = ctx.builder;
  const family = inst.def.family;
  const v = (i: number): TracedValue => readVgpr(ctx, st, i);
  if (family === 'MUBUF' || family === 'MTBUF') {
    const first = f.srsrc * 4;
    const descriptor = [0, 1, 2, 3].map((i) => st.sgpr[first + i]);
    const reads: TracedValue[] = [];
    let soffsetExpr: Expr;
    try {
      soffsetExpr = scalarOffset(b, gen, inst, f.soffset, (code) => {
        reads.push(st.sgpr[code]);
        return st.sgpr[code].expr;
      });
    } catch (e) {
      if (e instanceof UnsupportedAccess) return undefined;
      throw e;
    }
    const soffset: TracedValue =
      reads.length === 1
        ? reads[0]
        : {
            expr: soffsetExpr,
            step: {
              at: codeAddress(inst.offset),
              register: 'soffset',
              action: 'constant',
              text: `soffset ${exprText(soffsetExpr, ctx.leaves)}`,
            },
            sources: [],
          };
    const base = { kind: 'buffer' as const, descriptor, soffset, immediate: f.offset ?? 0 };
    if (gen === Gen.GFX7 && f.addr64) return { ...base, address64: [v(f.vaddr), v(f.vaddr + 1)] };
    return {
      ...base,
      ...(f.idxen ? { index: v(f.vaddr) } : {}),
      ...(f.offen ? { offset: v(f.vaddr + (f.idxen ? 1 : 0)) } : {}),
    };
  }
  const immediate = gen >= Gen.GFX9 ? flatImmediate(gen, inst) : 0;
  const off = family === 'FLAT' || f.saddr === undefined || f.saddr === 127 || f.saddr === nullCode(gen);
  if (off) return { kind: 'global', address: [v(f.addr), v(f.addr + 1)], immediate };
  return { kind: 'global', base: [st.sgpr[f.saddr], st.sgpr[f.saddr + 1]], address: [v(f.addr)], immediate };
}

const VECTOR_MEMORY = new Set(['MUBUF', 'MTBUF', 'GLOBAL', 'FLAT', 'SCRATCH', 'MIMG', 'DS']);

function vectorMemory(ctx: TraceContext, st: MachineState, inst: Instruction): void {
  const def = inst.def;
  const f = inst.fields;
  if (f.lds) return; // loads into LDS write no VGPR
  const atomic = (def.attrs & Attr.MemAtomic) !== 0;
  const dst = def.operands.find((o) => o.role === 'dst' && o.cls === 'v');
  let first: number | undefined;
  let count = 0;
  if (dst) {
    first = f[dst.field];
    count = def.family === 'MIMG' ? imageDataDwords(ctx.target, inst, dst.dwords) : dst.dwords;
  } else if (atomic && f.glc) {
    // An atomic that returns the old value writes its data VGPRs (MUBUF) or VDST (GLOBAL/FLAT).
    const data = def.operands.find((o) => o.role === 'src' && (o.field === 'vdata' || o.field === 'data'));
    first = f.vdst ?? f.vdata;
    count = data?.dwords ?? 1;
  }
  if (first === undefined || count === 0) return;
  if (f.tfe || f.lwe) count += 1;
  const at = codeAddress(inst.offset);
  const text = ctx.text(inst);
  const load =
    !atomic && (def.family === 'MUBUF' || def.family === 'MTBUF' || def.family === 'GLOBAL' || def.family === 'FLAT');
  const address = load ? vectorAddress(ctx, st, inst) : undefined;
  const reason =
    def.family === 'MIMG'
      ? 'image data'
      : def.family === 'DS'
        ? 'LDS data'
        : def.family === 'SCRATCH'
          ? 'scratch data'
          : atomic
            ? 'an atomic return value'
            : 'data loaded from an address the tracer does not model';
  for (let k = 0; k < count; k++) {
    const reg = vgprName(first + k, 1);
    if (!address || f.tfe || f.lwe) {
      st.vgpr.set(first + k, opaqueValue(ctx, inst, reg, reason, true));
      continue;
    }
    const sources: TracedValue[] =
      address.kind === 'buffer'
        ? [
            ...address.descriptor,
            address.soffset,
            ...(address.index ? [address.index] : []),
            ...(address.offset ? [address.offset] : []),
            ...(address.address64 ?? []),
          ]
        : [...(address.base ?? []), ...address.address];
    st.vgpr.set(first + k, {
      expr: ctx.leaves.word(`vmem@${inst.offset}:${k}`, {
        kind: 'vector-load',
        at,
        instruction: text,
        dword: k,
        address,
      }),
      step: { at, register: reg, action: 'load', text: `${text}: ${reg} = dword ${k} of the per-lane load` },
      sources,
    });
  }
}

/** Applies one instruction to `st`. */
export function transfer(ctx: TraceContext, st: MachineState, inst: Instruction): void {
  const family = inst.def.family;
  switch (family) {
    case 'SOP1':
    case 'SOP2':
    case 'SOPK':
    case 'SOPC':
      scalarAlu(ctx, st, inst);
      return;
    case 'SOPP':
      // Branches, waits and hints write no register the tracer keeps (MODE writes are not traced).
      return;
    case 'SMEM':
      scalarMemory(ctx, st, inst);
      return;
    case 'EXP':
      return;
    default:
      if ((VALU_FAMILIES as readonly string[]).includes(family)) vectorAlu(ctx, st, inst);
      else if (VECTOR_MEMORY.has(family)) vectorMemory(ctx, st, inst);
      else opaqueDestinations(ctx, st, inst, `the ${family} family is not traced`);
  }
}

/** The machine state as the wave starts: entry SGPRs from `sgprs`, the rest unset. */
export function entryMachineState(
  ctx: TraceContext,
  sgprs: ReadonlyMap<number, { readonly origin: Origin; readonly text: string }>,
): MachineState {
  const sgpr: TracedValue[] = [];
  for (let code = 0; code < SGPR_SPACE; code++) {
    const reg = ctx.regName(code);
    const given = sgprs.get(code);
    const isExec = code === SRC_EXEC_LO || code === SRC_EXEC_LO + 1;
    const origin: Origin =
      given?.origin ??
      (isExec ? { kind: 'system', register: reg, what: 'initial EXEC' } : { kind: 'unset', register: reg });
    const text = given?.text ?? (isExec ? 'the wave’s initial EXEC' : 'not set at entry');
    sgpr.push({
      expr: origin.kind === 'initial' ? ctx.builder.word(origin.value) : ctx.leaves.word(`entry:${code}`, origin),
      step: { at: undefined, register: reg, action: 'entry', text: `${reg} at entry: ${text}` },
      sources: [],
    });
  }
  const scc: TracedValue = {
    expr: ctx.leaves.bool('entry:scc', { kind: 'unset', register: 'scc' }),
    step: { at: undefined, register: 'scc', action: 'entry', text: 'scc at entry: not set' },
    sources: [],
  };
  return { sgpr, scc, vgpr: new Map() };
}
