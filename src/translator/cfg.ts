/**
 * The control-flow graph of a decoded program (D011): basic blocks from the entry, found the
 * way the interpreter's prescan follows the program (`Program.prescan` in src/interp/execute.ts:
 * both ways at a conditional branch on SCC, VCC or EXEC, the target at `s_branch`, nothing after
 * `s_endpgm` or a program capture's return address). The interpreter's classification of each
 * instruction (its `Decoded`, with the memory op it moves) is reused, so the translator refuses
 * at least what the interpreter refuses, for the same reasons, before it translates anything.
 */
import { branchTarget } from '../isa/program.ts';
import type { Program } from '../interp/execute.ts';

/** One instruction as the interpreter classified it. */
export type DecodedInstruction = ReturnType<Program['at']>;

/** How control leaves a block. */
export type BlockExit =
  | { readonly kind: 'endpgm' }
  /** The program capture's return address (`end`): the wave ends there. */
  | { readonly kind: 'return' }
  | { readonly kind: 'jump'; readonly target: number }
  /** A conditional branch: `taken` if the condition holds, else `next`. */
  | { readonly kind: 'branch'; readonly name: string; readonly taken: number; readonly next: number }
  /** Control runs into the block at `next` (a branch target starts there). */
  | { readonly kind: 'fall'; readonly next: number };

export interface BasicBlock {
  /** Byte offset of the first instruction in the program's code range. */
  readonly start: number;
  /** Every instruction of the block, the terminator included. */
  readonly instructions: readonly DecodedInstruction[];
  readonly exit: BlockExit;
}

export interface ControlFlowGraph {
  readonly entry: number;
  /** Blocks by start offset, in address order. */
  readonly blocks: ReadonlyMap<number, BasicBlock>;
}

const CONDITIONAL = new Set([
  's_cbranch_scc0',
  's_cbranch_scc1',
  's_cbranch_vccz',
  's_cbranch_vccnz',
  's_cbranch_execz',
  's_cbranch_execnz',
]);

/** Whether `name` is a conditional branch the CFG follows both ways. */
export function isConditionalBranch(name: string): boolean {
  return CONDITIONAL.has(name);
}

/**
 * Builds the CFG. `program.prescan()` is run first: it decodes and classifies every reachable
 * instruction and throws the interpreter's refusal for the first that cannot run.
 */
export function buildCfg(program: Program): ControlFlowGraph {
  program.prescan();
  const entry = program.entry;
  // Pass 1: every reachable instruction and the leaders (block starts).
  const reachable = new Map<number, DecodedInstruction>();
  const leaders = new Set<number>([entry]);
  const work = [entry];
  while (work.length > 0) {
    let pc = work.pop()!;
    while (!reachable.has(pc) && pc !== program.end) {
      const d = program.at(pc);
      reachable.set(pc, d);
      if (d.kind === 'endpgm') break;
      const next = pc + d.inst.size;
      if (d.kind === 'branch') {
        const t = branchTarget(d.inst)!;
        leaders.add(t);
        if (!reachable.has(t)) work.push(t);
        if (d.inst.def.name === 's_branch') break;
        leaders.add(next);
      }
      pc = next;
    }
  }
  if (program.end !== undefined) leaders.add(program.end);
  // Pass 2: blocks from each reachable leader to the next leader or terminator.
  const blocks = new Map<number, BasicBlock>();
  for (const start of [...leaders].sort((a, b) => a - b)) {
    if (start === program.end) {
      blocks.set(start, { start, instructions: [], exit: { kind: 'return' } });
      continue;
    }
    if (!reachable.has(start)) continue;
    const instructions: DecodedInstruction[] = [];
    let pc = start;
    let exit: BlockExit | undefined;
    for (;;) {
      const d = reachable.get(pc)!;
      instructions.push(d);
      const next = pc + d.inst.size;
      if (d.kind === 'endpgm') exit = { kind: 'endpgm' };
      else if (d.kind === 'branch') {
        const t = branchTarget(d.inst)!;
        const name = d.inst.def.name;
        exit = name === 's_branch' ? { kind: 'jump', target: t } : { kind: 'branch', name, taken: t, next };
      } else if (leaders.has(next)) exit = { kind: 'fall', next };
      if (exit) break;
      pc = next;
    }
    blocks.set(start, { start, instructions, exit });
  }
  return { entry, blocks };
}

/** Successor block starts of a block, in order (taken branch first). */
export function successors(block: BasicBlock): number[] {
  const e = block.exit;
  switch (e.kind) {
    case 'endpgm':
    case 'return':
      return [];
    case 'jump':
      return [e.target];
    case 'branch':
      return [e.taken, e.next];
    case 'fall':
      return [e.next];
  }
}
