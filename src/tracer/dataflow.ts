/**
 * The forward data flow over the control-flow graph: every block's registers at its start are
 * the merge of its predecessors' at their ends, iterated in reverse post-order to a fixed point.
 * Where all paths into a block give a register the same value (the same expression node), it
 * keeps it; where they differ, the register becomes a `join` leaf named by the block and the
 * register (a loop-carried value when the differing path is a loop's back edge). A register that
 * became a join at a block stays one there, so the iteration only moves up and ends.
 *
 * After the fixed point one more pass records the registers before every instruction: the
 * provenance and waterfall passes read them.
 */
import type { Instruction } from '../isa/instruction.ts';
import { vgprName } from '../isa/operands.ts';
import type { ControlFlowGraph } from './cfg.ts';
import { codeAddress, hexAddress, type BlockId, type CodeAddress } from './ids.ts';
import { cloneState, SGPR_SPACE, transfer, type MachineState, type TraceContext } from './transfer.ts';
import type { TracedValue } from './values.ts';

export interface DataFlowResult {
  /** The registers before each reachable instruction, by its address. */
  readonly before: ReadonlyMap<CodeAddress, MachineState>;
  /** The registers at each block's start and end. */
  readonly blockIn: ReadonlyMap<BlockId, MachineState>;
  readonly blockOut: ReadonlyMap<BlockId, MachineState>;
  /** Passes over the blocks until nothing changed. */
  readonly iterations: number;
}

/** The fixed point could not be reached within the pass limit (a tracer bug, reported by name). */
export class DataFlowDivergence extends Error {
  override readonly name = 'DataFlowDivergence';
}

const MAX_PASSES = 200;

function sameState(ctx: TraceContext, a: MachineState, b: MachineState): boolean {
  if (a.scc.expr !== b.scc.expr) return false;
  for (let i = 0; i < SGPR_SPACE; i++) if (a.sgpr[i].expr !== b.sgpr[i].expr) return false;
  for (const k of new Set([...a.vgpr.keys(), ...b.vgpr.keys()]))
    if ((a.vgpr.get(k) ?? ctx.entryVgpr(k)).expr !== (b.vgpr.get(k) ?? ctx.entryVgpr(k)).expr) return false;
  return true;
}

/** Runs the data flow from `entry` (the wave's initial registers). */
export function runDataFlow(ctx: TraceContext, cfg: ControlFlowGraph, entry: MachineState): DataFlowResult {
  const out = new Map<BlockId, MachineState>();
  /** (block, register) pairs that already merged to a join: they stay joins. */
  const joined = new Set<string>();
  const latchesOf = new Map<BlockId, Set<BlockId>>();
  for (const l of cfg.loops) latchesOf.set(l.header, new Set([...(latchesOf.get(l.header) ?? []), ...l.latches]));

  const merge = (block: BlockId): MachineState | undefined => {
    if (block === cfg.entry) return cloneState(entry);
    const b = cfg.blocks[block];
    const preds = b.predecessors.filter((p) => out.has(p));
    if (preds.length === 0) return undefined;
    const states = preds.map((p) => out.get(p)!);
    if (states.length === 1) return cloneState(states[0]);
    const latches = latchesOf.get(block);
    const loop = preds.some((p) => latches?.has(p) === true);
    const at = b.start;
    const mergeOne = (register: string, values: TracedValue[], bool: boolean, laneVarying: boolean): TracedValue => {
      const key = `${block}:${register}`;
      if (!joined.has(key) && values.every((v) => v.expr === values[0].expr)) return values[0];
      joined.add(key);
      const name = `join@${at}:${register}`;
      const origin = { kind: 'join' as const, block, at, register, loop, laneVarying };
      const from = preds.map((p) => hexAddress(cfg.blocks[p].instructions.at(-1)?.offset ?? cfg.blocks[p].start));
      return {
        expr: bool ? ctx.leaves.bool(name, origin) : ctx.leaves.word(name, origin),
        step: {
          at,
          register,
          action: 'join',
          text: loop
            ? `${register} changes around the loop at ${hexAddress(at)} (paths from ${from.join(', ')})`
            : `paths into ${hexAddress(at)} (from ${from.join(', ')}) give ${register} different values`,
        },
        // A loop's join keeps no sources: the back edge's value is computed from the join itself.
        sources: loop ? [] : values,
      };
    };
    const sgpr: TracedValue[] = [];
    for (let code = 0; code < SGPR_SPACE; code++)
      sgpr.push(
        mergeOne(
          ctx.regName(code),
          states.map((s) => s.sgpr[code]),
          false,
          false,
        ),
      );
    const scc = mergeOne(
      'scc',
      states.map((s) => s.scc),
      true,
      false,
    );
    const vgpr = new Map<number, TracedValue>();
    const keys = new Set<number>();
    for (const s of states) for (const k of s.vgpr.keys()) keys.add(k);
    for (const k of keys) {
      const v = mergeOne(
        vgprName(k, 1),
        states.map((s) => s.vgpr.get(k) ?? ctx.entryVgpr(k)),
        false,
        true,
      );
      if (v !== ctx.entryVgpr(k)) vgpr.set(k, v);
    }
    return { sgpr, scc, vgpr };
  };

  const runBlock = (block: BlockId, st: MachineState, record?: Map<CodeAddress, MachineState>): MachineState => {
    for (const inst of cfg.blocks[block].instructions as readonly Instruction[]) {
      record?.set(codeAddress(inst.offset), cloneState(st));
      transfer(ctx, st, inst);
    }
    return st;
  };

  let iterations = 0;
  for (let changed = true; changed;) {
    if (++iterations > MAX_PASSES)
      throw new DataFlowDivergence(`the register data flow did not settle after ${MAX_PASSES} passes`);
    changed = false;
    for (const block of cfg.reversePostOrder) {
      const start = merge(block);
      if (!start) continue;
      const end = runBlock(block, start);
      const old = out.get(block);
      if (!old || !sameState(ctx, old, end)) {
        out.set(block, end);
        changed = true;
      }
    }
  }
  const before = new Map<CodeAddress, MachineState>();
  const blockIn = new Map<BlockId, MachineState>();
  const blockOut = new Map<BlockId, MachineState>();
  for (const block of cfg.reversePostOrder) {
    const start = merge(block);
    if (!start) continue;
    blockIn.set(block, cloneState(start));
    blockOut.set(block, runBlock(block, start, before));
  }
  return { before, blockIn, blockOut, iterations };
}
