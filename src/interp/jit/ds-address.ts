/**
 * A DS instruction's lane addresses and range checks compiled to JavaScript (D014), as
 * buffer-address.ts does for MUBUF: buffer-ops.ts's `dsAccesses` (the rule the translator
 * shares) runs once on the expression algebra with the instruction's fields and the LDS limit
 * as constants and the lane's ADDR as a leaf; each access's `address(4k)` and `out(4k)` for
 * its dwords become one function filling an array. What the accesses move (their memory
 * operation and registers) does not depend on ADDR and is taken from the same symbolic run.
 */
import type { Gen } from '../../isa/gen.ts';
import type { Instruction } from '../../isa/instruction.ts';
import { exprBuilder, type Expr } from '../../semantics/expr.ts';
import { dsAccesses, type DsAccess, type DsDataOp } from '../buffer-ops.ts';
import { compileAddressPairs } from './address-pairs.ts';

/** Fills `into[2s]` with slot s's address and `into[2s + 1]` with 1 when it is outside (0 otherwise). */
export type DsLaneAddress = (addr: number, into: Float64Array) => void;

export interface CompiledDs {
  readonly run: DsLaneAddress;
  /** The accesses (the same as `dsAccesses` gives for any ADDR), each with its first slot and slot count. */
  readonly accesses: readonly {
    readonly access: Omit<DsAccess<number, boolean>, 'address' | 'out'>;
    readonly slot: number;
    readonly slots: number;
  }[];
  /** Slots in all (`into` needs twice as many entries). */
  readonly slots: number;
}

const cache = new Map<string, CompiledDs | null>();
const byInstruction = new WeakMap<Instruction, Map<number, CompiledDs | null>>();
const CACHE_LIMIT = 4096;

/** The compiled rule of one DS instruction at one limit, or undefined when it does not lower to integer code. */
export function compileDsAddress(gen: Gen, inst: Instruction, op: DsDataOp, limit: number): CompiledDs | undefined {
  // By the decoded instruction first (a program's instructions are decoded once), then by what decides the code.
  let mine = byInstruction.get(inst);
  if (mine === undefined) byInstruction.set(inst, (mine = new Map()));
  let c = mine.get(limit);
  if (c === undefined) {
    const key = `${gen}|${inst.def.name}|${JSON.stringify(inst.fields)}|${limit}`;
    c = cache.get(key);
    if (c === undefined) {
      c = make(gen, inst, op, limit);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(key, c);
    }
    mine.set(limit, c);
  }
  return c ?? undefined;
}

/** Dwords an access reads at byte offsets 4k (`laneAccessOver`: raw forms each dword, the others byte 0). */
const dwordsOf = (a: DsAccess<Expr, Expr>): number => (a.op.kind === 'raw' ? a.op.dwords : 1);

function make(gen: Gen, inst: Instruction, op: DsDataOp, limit: number): CompiledDs | null {
  const b = exprBuilder();
  const symbolic = dsAccesses(b, gen, inst, op, b.input('addr'), b.word(limit));
  const roots: Expr[] = [];
  const accesses: CompiledDs['accesses'][number][] = [];
  for (const a of symbolic) {
    const n = dwordsOf(a);
    accesses.push({
      access: { op: a.op, data: a.data, src: a.src, src2: a.src2, returns: a.returns },
      slot: roots.length / 2,
      slots: n,
    });
    for (let k = 0; k < n; k++) roots.push(a.address(4 * k), a.out(4 * k));
  }
  const run = compileAddressPairs(roots, ['addr'], 'dsLaneAddress', 'a DS address input') as DsLaneAddress | null;
  if (run === null) return null;
  return { run, accesses, slots: roots.length / 2 };
}
