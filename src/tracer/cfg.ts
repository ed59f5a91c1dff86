/**
 * Control flow of a decoded program (the tracer's first pass): the instructions reachable from
 * the entry, cut into basic blocks at every branch target and after every branch; the edges
 * (fall-through, jump, a conditional branch's taken and not-taken sides on SCC, VCC or EXEC);
 * reverse post-order, immediate dominators, and the natural loops of the back edges with their
 * nesting. Blocks keep their instruction lists, so the translator can generate code from the
 * same graph the tracer follows.
 *
 * Where control goes is read from the registry (`Attr.Branch`, `Attr.CondBranch`,
 * `Attr.EndProgram`, branch targets through `branchTarget`); what the tracer cannot follow (an
 * indirect jump, a call, the gfx7-9 fork/join stack, a word that does not decode, a branch into
 * the middle of an instruction) ends its block with a named refusal and its address, never a
 * guessed successor.
 */
import { DecodeError } from '../isa/errors.ts';
import type { Target } from '../isa/gen.ts';
import { decodeAt } from '../isa/decoder.ts';
import type { Instruction } from '../isa/instruction.ts';
import { branchTarget } from '../isa/program.ts';
import { Attr } from '../isa/registry/types.ts';
import { SCALAR_UNCOVERED } from '../semantics/scalar.ts';
import { blockId, codeAddress, hexAddress, type BlockId, type CodeAddress } from './ids.ts';

/** How a block hands control on. */
export type BlockExit =
  /** The next instruction starts another block. */
  | { readonly kind: 'falls-through' }
  /** s_branch. */
  | { readonly kind: 'jump'; readonly target: CodeAddress }
  /** s_cbranch_<condition>: `target` when the condition holds, the next instruction otherwise. */
  | { readonly kind: 'branch'; readonly condition: string; readonly target: CodeAddress }
  /** s_endpgm and its variants. */
  | { readonly kind: 'end-program' }
  /** Control reaches the address the caller named as the function's end (it returns there). */
  | { readonly kind: 'return' }
  /** s_code_end padding, or the end of the code: how an amdgpu_ps function without s_endpgm returns. */
  | { readonly kind: 'code-end'; readonly detail: string }
  /** What the tracer cannot follow, with the reason. */
  | { readonly kind: 'refused'; readonly reason: string };

export type EdgeKind = 'fall-through' | 'jump' | 'taken' | 'not-taken';

export interface CfgEdge {
  readonly from: BlockId;
  readonly to: BlockId;
  readonly kind: EdgeKind;
  /** The branch condition (`scc0`, `vccnz`, `execz`, …) of a taken or not-taken edge. */
  readonly condition?: string;
}

export interface BasicBlock {
  readonly id: BlockId;
  /** Address of the first instruction (or, for an exit block with none, of where control arrives). */
  readonly start: CodeAddress;
  /** Address just past the last instruction. */
  readonly end: CodeAddress;
  readonly instructions: readonly Instruction[];
  readonly exit: BlockExit;
  readonly successors: readonly BlockId[];
  readonly predecessors: readonly BlockId[];
}

/** A natural loop: its header and every block that reaches a back edge without passing the header. */
export interface Loop {
  readonly header: BlockId;
  /** The blocks whose edges go back to the header. */
  readonly latches: readonly BlockId[];
  readonly blocks: ReadonlySet<BlockId>;
  /** Index in `ControlFlowGraph.loops` of the innermost loop enclosing this one. */
  readonly parent: number | undefined;
  /** 1 for an outermost loop. */
  readonly depth: number;
}

export interface ControlFlowGraph {
  readonly target: Target;
  readonly entry: BlockId;
  /** In address order; a block's id is its index. */
  readonly blocks: readonly BasicBlock[];
  readonly edges: readonly CfgEdge[];
  readonly reversePostOrder: readonly BlockId[];
  /** Immediate dominator of each block (undefined for the entry). */
  readonly immediateDominator: readonly (BlockId | undefined)[];
  /** Outer loops before the loops they contain. */
  readonly loops: readonly Loop[];
  /** Edges that go back to a block that does not dominate their source (irreducible flow). */
  readonly irreducibleEdges: readonly CfgEdge[];
}

export interface CfgOptions {
  /** Byte offset of the first instruction (default 0). */
  readonly entry?: number;
  /** Byte offset where the function returns (a program capture's `end`): reaching it ends the path. */
  readonly end?: number;
}

/** The condition an s_cbranch_* instruction names. */
function branchCondition(inst: Instruction): string {
  return inst.def.name.replace(/^s_cbranch_/, '');
}

/** Why the tracer cannot follow this instruction's control transfer, or undefined. */
function unfollowable(inst: Instruction): string | undefined {
  const def = inst.def;
  const why = SCALAR_UNCOVERED[def.name];
  if (why?.kind === 'control') return `${def.name} ${why.reason}; the tracer does not follow it`;
  if (def.attrs & Attr.Branch && def.family === 'SOPP' && branchTarget(inst) === undefined)
    return `${def.name} has no direct target`;
  return undefined;
}

interface Explored {
  readonly instructions: Map<number, Instruction>;
  /** Addresses reached that start no instruction: why (a decode error, the end, past the code). */
  readonly stops: Map<number, BlockExit>;
  readonly leaders: Set<number>;
}

/** Every instruction reachable from the entry, and the addresses that start blocks. */
function explore(target: Target, words: Uint32Array, entry: number, end: number | undefined): Explored {
  const instructions = new Map<number, Instruction>();
  const stops = new Map<number, BlockExit>();
  const leaders = new Set<number>([entry]);
  const seen = new Set<number>();
  const work = [entry];
  const size = words.length * 4;
  const stopAt = (pc: number): boolean => {
    if (pc === end) stops.set(pc, { kind: 'return' });
    else if (pc < 0 || pc >= size)
      stops.set(pc, { kind: 'code-end', detail: `control reaches ${hexAddress(pc)}, past the end of the code` });
    else if (pc % 4 !== 0) stops.set(pc, { kind: 'refused', reason: `${hexAddress(pc)} is not dword-aligned` });
    else return false;
    leaders.add(pc);
    return true;
  };
  while (work.length > 0) {
    let pc = work.pop()!;
    for (;;) {
      if (seen.has(pc)) break;
      seen.add(pc);
      if (stopAt(pc)) break;
      let inst: Instruction;
      try {
        inst = decodeAt(target, words, pc >>> 2);
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        stops.set(pc, { kind: 'refused', reason: `the word at ${hexAddress(pc)} does not decode: ${e.reason}` });
        leaders.add(pc);
        break;
      }
      instructions.set(pc, inst);
      const next = pc + inst.size;
      const def = inst.def;
      if (def.attrs & Attr.EndProgram || def.name === 's_code_end' || unfollowable(inst)) break;
      if (def.attrs & Attr.Branch && def.family === 'SOPP') {
        const t = branchTarget(inst)!;
        leaders.add(t);
        work.push(t);
        if (def.attrs & Attr.CondBranch) {
          leaders.add(next);
          work.push(next);
        }
        break;
      }
      pc = next;
    }
  }
  return { instructions, stops, leaders };
}

/** Builds the control-flow graph of `words` from `options.entry`. */
export function buildCfg(target: Target, words: Uint32Array, options: CfgOptions = {}): ControlFlowGraph {
  const entry = options.entry ?? 0;
  const { instructions, stops, leaders } = explore(target, words, entry, options.end);
  // A leader inside another instruction (a branch into its literal): refuse that block by name.
  const covered = new Map<number, number>();
  for (const [at, inst] of instructions) for (let b = at + 4; b < at + inst.size; b += 4) covered.set(b, at);
  for (const l of leaders)
    if (covered.has(l)) {
      instructions.delete(l);
      stops.set(l, {
        kind: 'refused',
        reason: `a branch goes to ${hexAddress(l)}, inside the instruction at ${hexAddress(covered.get(l)!)}`,
      });
    }

  const starts = [...leaders].sort((a, b) => a - b);
  const idOf = new Map<number, BlockId>(starts.map((s, i) => [s, blockId(i)]));
  interface Draft {
    start: number;
    end: number;
    instructions: Instruction[];
    exit: BlockExit;
    out: { to: number; kind: EdgeKind; condition?: string }[];
  }
  const drafts: Draft[] = starts.map((start) => {
    const stop = stops.get(start);
    if (stop && !instructions.has(start)) return { start, end: start, instructions: [], exit: stop, out: [] };
    const list: Instruction[] = [];
    let pc = start;
    for (;;) {
      const inst = instructions.get(pc)!;
      list.push(inst);
      const next = pc + inst.size;
      const def = inst.def;
      const refusal = unfollowable(inst);
      if (refusal) return { start, end: next, instructions: list, exit: { kind: 'refused', reason: refusal }, out: [] };
      if (def.attrs & Attr.EndProgram)
        return { start, end: next, instructions: list, exit: { kind: 'end-program' }, out: [] };
      if (def.name === 's_code_end')
        return { start, end: next, instructions: list, exit: { kind: 'code-end', detail: 's_code_end' }, out: [] };
      if (def.attrs & Attr.Branch && def.family === 'SOPP') {
        const t = branchTarget(inst)!;
        if (def.attrs & Attr.CondBranch) {
          const condition = branchCondition(inst);
          return {
            start,
            end: next,
            instructions: list,
            exit: { kind: 'branch', condition, target: codeAddress(t) },
            out: [
              { to: t, kind: 'taken', condition },
              { to: next, kind: 'not-taken', condition },
            ],
          };
        }
        return {
          start,
          end: next,
          instructions: list,
          exit: { kind: 'jump', target: codeAddress(t) },
          out: [{ to: t, kind: 'jump' }],
        };
      }
      if (leaders.has(next))
        return {
          start,
          end: next,
          instructions: list,
          exit: { kind: 'falls-through' },
          out: [{ to: next, kind: 'fall-through' }],
        };
      pc = next;
    }
  });

  const edges: CfgEdge[] = [];
  const successors: BlockId[][] = drafts.map(() => []);
  const predecessors: BlockId[][] = drafts.map(() => []);
  drafts.forEach((d, i) => {
    for (const o of d.out) {
      const to = idOf.get(o.to)!;
      const from = blockId(i);
      edges.push(
        o.condition === undefined ? { from, to, kind: o.kind } : { from, to, kind: o.kind, condition: o.condition },
      );
      if (!successors[i].includes(to)) successors[i].push(to);
      if (!predecessors[to].includes(from)) predecessors[to].push(from);
    }
  });
  const blocks: BasicBlock[] = drafts.map((d, i) => ({
    id: blockId(i),
    start: codeAddress(d.start),
    end: codeAddress(d.end),
    instructions: d.instructions,
    exit: d.exit,
    successors: successors[i],
    predecessors: predecessors[i],
  }));
  const entryId = idOf.get(entry)!;
  const reversePostOrder = postOrder(blocks, entryId).reverse();
  const immediateDominator = dominators(blocks, entryId, reversePostOrder);
  const { loops, irreducibleEdges } = findLoops(blocks, edges, immediateDominator);
  return { target, entry: entryId, blocks, edges, reversePostOrder, immediateDominator, loops, irreducibleEdges };
}

function postOrder(blocks: readonly BasicBlock[], entry: BlockId): BlockId[] {
  const order: BlockId[] = [];
  const seen = new Set<BlockId>([entry]);
  // Iterative depth-first search: (block, next successor index) frames.
  const stack: [BlockId, number][] = [[entry, 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const succ = blocks[top[0]].successors;
    if (top[1] < succ.length) {
      const s = succ[top[1]++];
      if (!seen.has(s)) {
        seen.add(s);
        stack.push([s, 0]);
      }
    } else {
      order.push(top[0]);
      stack.pop();
    }
  }
  return order;
}

/** Immediate dominators by Cooper, Harvey and Kennedy's iteration over reverse post-order. */
function dominators(blocks: readonly BasicBlock[], entry: BlockId, rpo: readonly BlockId[]): (BlockId | undefined)[] {
  const index = new Map<BlockId, number>(rpo.map((b, i) => [b, i]));
  const idom: (BlockId | undefined)[] = blocks.map(() => undefined);
  idom[entry] = entry;
  const intersect = (a: BlockId, b: BlockId): BlockId => {
    let x = a;
    let y = b;
    while (x !== y) {
      while (index.get(x)! > index.get(y)!) x = idom[x]!;
      while (index.get(y)! > index.get(x)!) y = idom[y]!;
    }
    return x;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const b of rpo) {
      if (b === entry) continue;
      let next: BlockId | undefined;
      for (const p of blocks[b].predecessors)
        if (idom[p] !== undefined) next = next === undefined ? p : intersect(p, next);
      if (next !== undefined && idom[b] !== next) {
        idom[b] = next;
        changed = true;
      }
    }
  }
  idom[entry] = undefined;
  return idom;
}

/** Whether block `a` dominates block `b` (every path from the entry to `b` passes `a`). */
export function dominates(cfg: ControlFlowGraph, a: BlockId, b: BlockId): boolean {
  for (let x: BlockId | undefined = b; x !== undefined; x = cfg.immediateDominator[x]) if (x === a) return true;
  return false;
}

function findLoops(
  blocks: readonly BasicBlock[],
  edges: readonly CfgEdge[],
  idom: readonly (BlockId | undefined)[],
): { loops: Loop[]; irreducibleEdges: CfgEdge[] } {
  const dom = (a: BlockId, b: BlockId): boolean => {
    for (let x: BlockId | undefined = b; x !== undefined; x = idom[x]) if (x === a) return true;
    return false;
  };
  const byHeader = new Map<BlockId, { latches: BlockId[]; blocks: Set<BlockId> }>();
  const irreducibleEdges: CfgEdge[] = [];
  for (const e of edges) {
    if (dom(e.to, e.from)) {
      const l = byHeader.get(e.to) ?? { latches: [], blocks: new Set<BlockId>([e.to]) };
      byHeader.set(e.to, l);
      if (!l.latches.includes(e.from)) l.latches.push(e.from);
      // The natural loop: the header and everything that reaches the latch without passing it.
      const work = [e.from];
      while (work.length > 0) {
        const b = work.pop()!;
        if (l.blocks.has(b)) continue;
        l.blocks.add(b);
        work.push(...blocks[b].predecessors);
      }
    } else if (blocks[e.to].start <= blocks[e.from].start && reaches(blocks, e.to, e.from)) irreducibleEdges.push(e);
  }
  // Outer loops first (more blocks), then by header address, so a parent precedes its children.
  const drafts = [...byHeader.entries()].sort((a, b) => b[1].blocks.size - a[1].blocks.size || a[0] - b[0]);
  const loops: Loop[] = [];
  drafts.forEach(([header, l]) => {
    let parent: number | undefined;
    for (let i = loops.length - 1; i >= 0; i--)
      if (loops[i].header !== header && [...l.blocks].every((b) => loops[i].blocks.has(b))) {
        if (parent === undefined || loops[i].blocks.size < loops[parent].blocks.size) parent = i;
      }
    loops.push({
      header,
      latches: l.latches,
      blocks: l.blocks,
      parent,
      depth: parent === undefined ? 1 : loops[parent].depth + 1,
    });
  });
  return { loops, irreducibleEdges };
}

/** Whether `to` can reach `from` (a retreating edge that closes a cycle). */
function reaches(blocks: readonly BasicBlock[], from: BlockId, to: BlockId): boolean {
  const seen = new Set<BlockId>();
  const work = [from];
  while (work.length > 0) {
    const b = work.pop()!;
    if (b === to) return true;
    if (seen.has(b)) continue;
    seen.add(b);
    work.push(...blocks[b].successors);
  }
  return false;
}

/** The block holding the instruction at `address`, or undefined when it is not reachable. */
export function blockContaining(cfg: ControlFlowGraph, address: number): BasicBlock | undefined {
  let lo = 0;
  let hi = cfg.blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const b = cfg.blocks[mid];
    if (address < b.start) hi = mid - 1;
    else if (address >= b.end && !(b.instructions.length === 0 && address === b.start)) lo = mid + 1;
    else return b;
  }
  return undefined;
}

/** The loops containing `block`, innermost first. */
export function loopsContaining(cfg: ControlFlowGraph, block: BlockId): Loop[] {
  return cfg.loops.filter((l) => l.blocks.has(block)).sort((a, b) => b.depth - a.depth);
}

/** Whether the instruction at `a` runs before the one at `b` on every path to `b` (dominance of instructions). */
export function instructionDominates(cfg: ControlFlowGraph, a: number, b: number): boolean {
  const ba = blockContaining(cfg, a);
  const bb = blockContaining(cfg, b);
  if (!ba || !bb) return false;
  if (ba.id === bb.id) return a < b;
  return dominates(cfg, ba.id, bb.id);
}

/** Every block that ends in a refusal, with its reason and address. */
export function cfgRefusals(cfg: ControlFlowGraph): { readonly at: CodeAddress; readonly reason: string }[] {
  const out: { at: CodeAddress; reason: string }[] = [];
  for (const b of cfg.blocks)
    if (b.exit.kind === 'refused') {
      const last = b.instructions[b.instructions.length - 1];
      out.push({ at: codeAddress(last ? last.offset : b.start), reason: b.exit.reason });
    }
  return out;
}
