/**
 * Recognises the waterfall loop around an access whose descriptor depends on lane reads
 * (EXECUTION-NOTES.md, "What compilers emit"). Both shapes real compilers emit are one pattern
 * over the control-flow graph and the traced registers:
 *
 * - a loop around the access and every lane read (v_readfirstlane) its descriptor depends on;
 * - for each read, a compare for equality (v_cmp_eq / v_cmpx_eq, 32- or 64-bit) in the loop,
 *   before the access, of the SGPR(s) holding the read with the VGPR(s) it read;
 * - EXEC narrowed to the lanes that compared equal: v_cmpx itself, or s_and_saveexec of the
 *   compares' masks;
 * - the handled lanes removed and the loop repeated while lanes remain: LLVM's
 *   `s_xor exec, exec, saved` + `s_cbranch_execnz` back to the header, or ACO's
 *   `s_andn2 saved, saved, exec` + `s_cbranch_scc0` out of the loop;
 *
 * with `_b32` / `exec_lo` forms in wave32 and `_b64` / `exec` in wave64. The key is the lane's
 * index (ACO: the descriptor is loaded at an offset computed from it) or the descriptor words
 * themselves (LLVM). Nested loops (a non-uniform descriptor and sampler) are two such loops, each
 * descriptor recognised in the innermost loop holding its reads. Any element missing is a named
 * failure with the loop's address, never a shape taken for granted.
 */
import type { Instruction } from '../isa/instruction.ts';
import { SRC_EXEC_LO, scalarRegName, vgprName } from '../isa/operands.ts';
import { Attr } from '../isa/registry/types.ts';
import { blockContaining, instructionDominates, loopsContaining, type ControlFlowGraph, type Loop } from './cfg.ts';
import type { DataFlowResult } from './dataflow.ts';
import { codeAddress, hexAddress, type CodeAddress } from './ids.ts';
import type { LanePick, UntracedReason } from './provenance.ts';
import type { MachineState } from './transfer.ts';
import type { Leaves, TracedValue } from './values.ts';

/** One compare of the waterfall: which lane reads it checks against which VGPRs. */
export interface WaterfallKey {
  /** The VGPRs holding the per-lane key (one, or a pair for a 64-bit compare). */
  readonly vgprs: readonly string[];
  /** Where v_readfirstlane read them. */
  readonly readAt: readonly CodeAddress[];
  readonly compareAt: CodeAddress;
  readonly compare: string;
}

export interface WaterfallShape {
  /** What the loop compares per lane: the lane's index (then the descriptor is loaded from it) or the descriptor words. */
  readonly kind: 'index' | 'descriptor';
  /** The compiler whose shape this is (ACO: index + s_andn2/s_cbranch_scc0; LLVM: descriptor + s_xor/s_cbranch_execnz). */
  readonly compiler: 'ACO' | 'LLVM' | undefined;
  readonly waveSize: 32 | 64;
  readonly loop: {
    readonly header: CodeAddress;
    /** The branches back to the header. */
    readonly backEdges: readonly CodeAddress[];
    readonly depth: number;
  };
  readonly keys: readonly WaterfallKey[];
  readonly narrowing: readonly { readonly at: CodeAddress; readonly form: 'v_cmpx' | 's_and_saveexec' }[];
  readonly exit: { readonly at: CodeAddress; readonly form: 'xor-exec-execnz' | 'andn2-exec-scc0' };
}

export interface WaterfallFailure {
  readonly failure: UntracedReason;
  readonly at: CodeAddress;
  readonly detail: string;
}

export interface WaterfallInput {
  readonly cfg: ControlFlowGraph;
  readonly flow: DataFlowResult;
  readonly leaves: Leaves;
}

const EQ_COMPARE = /^v_cmpx?_eq_[iu](32|64)$/;
const SAVEEXEC = /^s_and_saveexec_b(32|64)$/;
const XOR = /^s_xor_b(32|64)$/;
const ANDN2 = /^s_(andn2|and_not1)_b(32|64)$/;

function loopInstructions(cfg: ControlFlowGraph, loop: Loop): Instruction[] {
  return [...loop.blocks].flatMap((b) => cfg.blocks[b].instructions).sort((a, b) => a.offset - b.offset);
}

/** The scalar and vector source codes of a VOPC compare, as its encoding holds them. */
function compareSources(inst: Instruction): [number, number] | undefined {
  const f = inst.fields;
  if (inst.encoding === 'VOPC') return [f.src0, 256 + f.vsrc1];
  if (inst.encoding === 'VOPC_E64' || inst.encoding === 'VOP3') return [f.src0, f.src1];
  return undefined;
}

/** Whether `inst` compares the SGPR holding `pick` with the VGPR `pick` read (for some dword of the compare). */
function comparesPick(
  inst: Instruction,
  st: MachineState,
  pick: LanePick,
  entryVgpr: (i: number) => TracedValue,
): boolean {
  const codes = compareSources(inst);
  if (!codes) return false;
  const dwords = inst.def.operands.find((o) => o.role === 'src' && o.field === 'src0')?.dwords ?? 1;
  for (const [s, v] of [codes, [codes[1], codes[0]]] as const) {
    if (s >= 128 || v < 256) continue;
    for (let j = 0; j < dwords; j++) {
      const vv = st.vgpr.get(v - 256 + j) ?? entryVgpr(v - 256 + j);
      if (st.sgpr[s + j].expr === pick.leaf && vv.expr === pick.origin.laneValue.expr) return true;
    }
  }
  return false;
}

/**
 * The waterfall around `access` that makes every read in `picks` cover all lanes, or why there is
 * none. `kind` says what the picks are (the index, or the descriptor words).
 */
export function recogniseWaterfall(
  input: WaterfallInput,
  access: CodeAddress,
  picks: readonly LanePick[],
  kind: 'index' | 'descriptor',
  entryVgpr: (i: number) => TracedValue,
): WaterfallShape | WaterfallFailure {
  const { cfg, flow, leaves } = input;
  const first = picks[0];
  const accessBlock = blockContaining(cfg, access)!;
  const blockOf = (a: number) => blockContaining(cfg, a)!.id;
  const loop = loopsContaining(cfg, accessBlock.id).find((l) => picks.every((p) => l.blocks.has(blockOf(p.origin.at))));
  if (!loop) {
    const where = picks.map((p) => `${vgprName(p.origin.vgpr, 1)} at ${hexAddress(p.origin.at)}`).join(', ');
    return {
      failure: 'lane-value-outside-waterfall',
      at: first.origin.at,
      detail: `v_readfirstlane reads ${where}, which differ per lane, and no loop around the access at ${hexAddress(access)} repeats it for the other lanes (the compiler took the value as the same in every lane)`,
    };
  }
  const header = cfg.blocks[loop.header];
  const insts = loopInstructions(cfg, loop);
  const stateAt = (a: number): MachineState => flow.before.get(codeAddress(a))!;
  const fail = (detail: string): WaterfallFailure => ({
    failure: 'unrecognised-waterfall',
    at: codeAddress(header.start),
    detail: `the loop at ${hexAddress(header.start)}: ${detail}`,
  });

  // Each lane read's compare.
  const keys = new Map<number, { inst: Instruction; picks: LanePick[] }>();
  for (const p of picks) {
    const c = insts.find(
      (i) =>
        EQ_COMPARE.test(i.def.name) &&
        instructionDominates(cfg, i.offset, access) &&
        comparesPick(i, stateAt(i.offset), p, entryVgpr),
    );
    if (!c)
      return fail(
        `no v_cmp_eq before the access compares the value v_readfirstlane read at ${hexAddress(p.origin.at)} with ${vgprName(p.origin.vgpr, 1)}`,
      );
    const k = keys.get(c.offset) ?? { inst: c, picks: [] };
    k.picks.push(p);
    keys.set(c.offset, k);
  }

  // EXEC narrowed to the lanes that compared equal.
  const narrowing: { at: CodeAddress; form: 'v_cmpx' | 's_and_saveexec' }[] = [];
  for (const { inst: c } of keys.values()) {
    if (c.def.attrs & Attr.WritesExec) {
      narrowing.push({ at: codeAddress(c.offset), form: 'v_cmpx' });
      continue;
    }
    const n = insts.find((i) => {
      if (!SAVEEXEC.test(i.def.name) || !instructionDominates(cfg, i.offset, access)) return false;
      const st = stateAt(i.offset);
      const words = i.def.name.endsWith('_b64') ? 2 : 1;
      const src = i.fields.ssrc0;
      if (src === undefined || src >= 128) return false;
      for (let j = 0; j < words; j++)
        if (
          leaves.leavesOf(st.sgpr[src + j].expr).some((l) => l.origin.kind === 'lane-mask' && l.origin.at === c.offset)
        )
          return true;
      return false;
    });
    if (!n) return fail(`nothing narrows EXEC to the lanes the compare at ${hexAddress(c.offset)} found equal`);
    if (!narrowing.some((x) => x.at === n.offset))
      narrowing.push({ at: codeAddress(n.offset), form: 's_and_saveexec' });
  }

  // The handled lanes removed, and the loop repeated while lanes remain.
  let exit: WaterfallShape['exit'] | undefined;
  let bits = 0;
  for (const i of insts) {
    const block = blockContaining(cfg, i.offset)!;
    const branch = block.exit.kind === 'branch' ? block.exit : undefined;
    if (!branch) continue;
    const xor = XOR.exec(i.def.name);
    if (
      xor &&
      i.fields.sdst === SRC_EXEC_LO &&
      (i.fields.ssrc0 === SRC_EXEC_LO || i.fields.ssrc1 === SRC_EXEC_LO) &&
      branch.condition === 'execnz' &&
      branch.target === header.start
    ) {
      exit = { at: codeAddress(i.offset), form: 'xor-exec-execnz' };
      bits = Number(xor[1]);
      break;
    }
    const andn2 = ANDN2.exec(i.def.name);
    if (andn2 && i.fields.ssrc1 === SRC_EXEC_LO && branch.condition === 'scc0') {
      const target = blockContaining(cfg, branch.target);
      if (target && !loop.blocks.has(target.id)) {
        exit = { at: codeAddress(i.offset), form: 'andn2-exec-scc0' };
        bits = Number(andn2[2]);
        break;
      }
    }
  }
  if (!exit)
    return fail(
      'it neither removes the handled lanes with s_xor exec + s_cbranch_execnz nor with s_andn2 exec + s_cbranch_scc0',
    );
  const waveSize = cfg.target.wave64 ? 64 : 32;
  if (bits !== waveSize) return fail(`its EXEC updates are ${bits}-bit, but the wave has ${waveSize} lanes`);

  const backEdges = loop.latches.map((l) => {
    const b = cfg.blocks[l];
    return codeAddress(b.instructions.at(-1)?.offset ?? b.start);
  });
  const compiler =
    kind === 'index' && exit.form === 'andn2-exec-scc0'
      ? 'ACO'
      : kind === 'descriptor' && exit.form === 'xor-exec-execnz'
        ? 'LLVM'
        : undefined;
  const gen = cfg.target.gen;
  return {
    kind,
    compiler,
    waveSize,
    loop: { header: codeAddress(header.start), backEdges, depth: loop.depth },
    keys: [...keys.values()].map(({ inst, picks: ps }) => ({
      vgprs: ps.map((p) => vgprName(p.origin.vgpr, 1)),
      readAt: ps.map((p) => p.origin.at),
      compareAt: codeAddress(inst.offset),
      compare: `${inst.def.name} of ${ps.map((p) => scalarRegName(gen, firstSgprHolding(flow, inst, p) ?? 0, 1) ?? '?').join(', ')}`,
    })),
    narrowing,
    exit,
  };
}

/** The SGPR that holds `pick` at the compare (for the shape's description). */
function firstSgprHolding(flow: DataFlowResult, inst: Instruction, pick: LanePick): number | undefined {
  const st = flow.before.get(codeAddress(inst.offset));
  if (!st) return undefined;
  const i = st.sgpr.findIndex((v) => v.expr === pick.leaf);
  return i < 0 ? undefined : i;
}

export function isWaterfallFailure(x: WaterfallShape | WaterfallFailure): x is WaterfallFailure {
  return 'failure' in x;
}

/**
 * The value VGPR `vgpr` holds in the lanes a waterfall has not handled yet. A key VGPR that the
 * loop's body overwrites (ACO reuses it for the result) merges at the header into a loop-carried
 * join; but a write under the narrowed EXEC reaches only the lanes being handled, which then
 * leave the loop, so the lanes still to come hold what entered the loop. When every write of the
 * VGPR in the loop is under the narrowing and before the lanes are removed, that entering value
 * is the key; otherwise `value` stands.
 */
export function valueBeforeWaterfall(
  input: WaterfallInput,
  shape: WaterfallShape,
  vgpr: number,
  value: TracedValue,
  entryVgpr: (i: number) => TracedValue,
): TracedValue {
  const { cfg, flow, leaves } = input;
  const o = leaves.origin(value.expr);
  if (o?.kind !== 'join' || !o.loop || o.at !== shape.loop.header) return value;
  const loop = cfg.loops.find((l) => cfg.blocks[l.header].start === shape.loop.header);
  if (!loop) return value;
  for (const b of loop.blocks) {
    const insts = cfg.blocks[b].instructions;
    for (let k = 0; k < insts.length; k++) {
      const before = flow.before.get(codeAddress(insts[k].offset));
      const after = k + 1 < insts.length ? flow.before.get(codeAddress(insts[k + 1].offset)) : flow.blockOut.get(b);
      if (!before || !after || before.vgpr.get(vgpr) === after.vgpr.get(vgpr)) continue;
      const narrowed = shape.narrowing.some((n) => instructionDominates(cfg, n.at, insts[k].offset));
      if (!narrowed || insts[k].offset > shape.exit.at) return value;
    }
  }
  const entering = cfg.blocks[loop.header].predecessors
    .filter((p) => !loop.blocks.has(p))
    .map((p) => flow.blockOut.get(p)?.vgpr.get(vgpr) ?? entryVgpr(vgpr));
  if (entering.length === 0 || entering.some((v) => v.expr !== entering[0].expr)) return value;
  return entering[0];
}
