/**
 * The LLVM corpus's scalar and vector ALU instructions run once on symbols (the expression
 * algebra) and on numbers (the concrete algebra), for the tests of everything built on the
 * expression DAG: the DAG's own evaluation, its lowering to native operations, and the GPU
 * back ends. One active lane (lane 0); registers are named leaves `s<code>`, `v<index>` and
 * the bool `scc`.
 */
import { rng } from '../corpus-kernels/common.ts';
import { CORPUS_GENS, disasmRows, type CorpusGen } from '../isa/corpus-data.ts';
import { decodeAt } from '../../src/isa/decoder.ts';
import { targetFor, type Target } from '../../src/isa/gen.ts';
import type { Instruction } from '../../src/isa/instruction.ts';
import type { Algebra, Pair } from '../../src/semantics/algebra.ts';
import { concrete } from '../../src/semantics/concrete.ts';
import { SemanticsRefusal, type ScalarState } from '../../src/semantics/context.ts';
import { exprBuilder, type ExprBuilder, type Expr } from '../../src/semantics/expr.ts';
import { laneEncodingRefusal, type VectorState } from '../../src/semantics/lane-context.ts';
import { runScalar, scalarSemanticsFor, SALU_FAMILIES } from '../../src/semantics/scalar.ts';
import { runVector, vectorSemanticsFor, VALU_FAMILIES } from '../../src/semantics/vector.ts';

export { CORPUS_GENS, type CorpusGen };
export { rng };

/** Register values that hit the edges often: zero, ones, signs, float specials, small ints. */
export function edgyWord(r: () => number): number {
  const pick = r() % 12;
  const specials = [
    0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0x00000001,
  ];
  if (pick < specials.length) return specials[pick]!;
  return pick === 10 ? r() & 0xff : r();
}

/** A wave with one active lane (lane 0): registers are leaves or numbers, writes recorded. */
export class OneLaneMachine<V, B> implements VectorState<V, B> {
  readonly sgprWrites = new Map<number, V>();
  readonly vgprWrites = new Map<number, V>();
  sccWrite: B | undefined;
  constructor(
    readonly lanes: 32 | 64,
    private readonly sgpr: (code: number) => V,
    private readonly vgpr: (index: number) => V,
    private readonly scc: () => B,
  ) {}
  readSgpr(code: number): V {
    return this.sgprWrites.get(code) ?? this.sgpr(code);
  }
  writeSgpr(code: number, value: V): void {
    this.sgprWrites.set(code, value);
  }
  readScc(): B {
    return this.sccWrite ?? this.scc();
  }
  writeScc(value: B): void {
    this.sccWrite = value;
  }
  nextPc(): Pair<V> {
    return [this.sgpr(1000), this.sgpr(1001)];
  }
  active(lane: number): boolean {
    return lane === 0;
  }
  readVgpr(index: number, lane: number): V {
    if (lane !== 0) throw new Error('only lane 0 runs');
    return this.vgprWrites.get(index) ?? this.vgpr(index);
  }
  writeVgpr(index: number, lane: number, value: V): void {
    if (lane !== 0) throw new Error('only lane 0 runs');
    this.vgprWrites.set(index, value);
  }
  /** What was written, by leaf name (`s<code>`, `v<index>`, `scc`), in a stable order. */
  written(): { keys: string[]; values: (V | B)[] } {
    const keys: string[] = [];
    const values: (V | B)[] = [];
    for (const [k, v] of [...this.sgprWrites].sort((p, q) => p[0] - q[0])) {
      keys.push(`s${k}`);
      values.push(v);
    }
    for (const [k, v] of [...this.vgprWrites].sort((p, q) => p[0] - q[0])) {
      keys.push(`v${k}`);
      values.push(v);
    }
    if (this.sccWrite !== undefined) {
      keys.push('scc');
      values.push(this.sccWrite);
    }
    return { keys, values };
  }
}

function run<V, B>(alg: Algebra<V, B>, target: Target, inst: Instruction, state: OneLaneMachine<V, B>): void {
  if (SALU_FAMILIES.includes(inst.def.family)) runScalar(alg, target, inst, state as ScalarState<V, B>);
  else runVector(alg, target, inst, state as VectorState<V, B>);
}

/** One trial's register values: leaves drawn lazily (edge-heavy) by name, and SCC. */
export interface Trial {
  readonly words: Map<string, number>;
  readonly scc: boolean;
  word(name: string): number;
}
export function trial(r: () => number): Trial {
  const words = new Map<string, number>();
  return {
    words,
    scc: (r() & 1) === 1,
    word(name) {
      let v = words.get(name);
      if (v === undefined) words.set(name, (v = edgyWord(r)));
      return v;
    },
  };
}

/** One corpus instruction run on symbols: what it writes, as DAG roots, and how to run it on numbers. */
export interface SymbolicInstruction {
  readonly target: Target;
  readonly inst: Instruction;
  readonly builder: ExprBuilder;
  /** Leaf names written (`s<code>`, `v<index>`, `scc`), and their expressions. */
  readonly keys: readonly string[];
  readonly roots: readonly Expr[];
  /** The leaves the expressions read, by name. */
  readonly leaves: readonly Expr[];
  /** The concrete run from leaf values: the written values, by `keys`, or undefined if it wrote other registers. */
  concrete(word: (name: string) => number, scc: boolean): (number | boolean)[] | undefined;
}

/**
 * Every scalar/vector ALU instruction of a generation's corpus rows that the semantics run on
 * symbols; `perName` keeps at most that many rows of one instruction (the rows of one name
 * differ by operands and modifiers, and the suite runs on two cores).
 */
export function* symbolicCorpus(gen: CorpusGen, perName = Infinity): Generator<SymbolicInstruction> {
  const seen = new Map<string, number>();
  const g = CORPUS_GENS.find((c) => c.dir === gen)!;
  const target = targetFor(g.cpu, g.wave64);
  const lanes = target.wave64 ? 64 : 32;
  for (const row of disasmRows(gen)) {
    if (row.text === '<invalid>') continue;
    const words = new Uint32Array(row.hex.length / 8);
    for (let i = 0; i < words.length; i++) {
      const h = row.hex.slice(i * 8, i * 8 + 8);
      words[i] = parseInt(h.slice(6, 8) + h.slice(4, 6) + h.slice(2, 4) + h.slice(0, 2), 16) >>> 0;
    }
    let inst: Instruction;
    try {
      inst = decodeAt(target, words, 0);
    } catch {
      continue;
    }
    const family = inst.def.family;
    const scalar = SALU_FAMILIES.includes(family) && scalarSemanticsFor(inst.def) !== undefined;
    const vector =
      VALU_FAMILIES.includes(family) && vectorSemanticsFor(inst.def) !== undefined && !laneEncodingRefusal(inst);
    if (!scalar && !vector) continue;
    const count = seen.get(inst.def.name) ?? 0;
    if (count >= perName) continue;
    seen.set(inst.def.name, count + 1);
    const b = exprBuilder();
    const sym = new OneLaneMachine<Expr, Expr>(
      lanes,
      (c) => b.input(`s${c}`),
      (i) => b.input(`v${i}`),
      () => b.boolInput('scc'),
    );
    try {
      run(b, target, inst, sym);
    } catch (e) {
      if (e instanceof SemanticsRefusal) continue;
      throw e;
    }
    const { keys, values } = sym.written();
    yield {
      target,
      inst,
      builder: b,
      keys,
      roots: values,
      leaves: b.nodes.filter((n) => n.op === 'input' || n.op === 'binput'),
      concrete(word, scc) {
        const m = new OneLaneMachine<number, boolean>(
          lanes,
          (c) => word(`s${c}`),
          (i) => word(`v${i}`),
          () => scc,
        );
        run(concrete, target, inst, m);
        const w = m.written();
        if (w.keys.join() !== keys.join()) return undefined;
        return w.values;
      },
    };
  }
}
