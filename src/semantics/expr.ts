/**
 * The expression algebra (D003, D011): the same instruction semantics the interpreter runs on
 * numbers, run once on symbols, leave a DAG of `Expr` nodes that says what the instruction
 * computes from its inputs. Back ends walk that DAG: the interpreter's compiled lanes emit
 * JavaScript from it, the translator emits WGSL and SPIR-V, and `evaluateExpr` runs it on
 * the concrete algebra, which is how every back end is tested against the one definition.
 *
 * Nodes are built through `ExprBuilder`, which hash-conses them (the same operation on the
 * same operands is one node: common subexpressions are shared) and folds: an operation whose
 * operands are all constants is run on the concrete algebra on the spot and leaves a
 * constant, so a constant input never reaches a back end as arithmetic. A node's `id` orders
 * it after its operands, so a back end may emit nodes in id order.
 *
 * Each algebra method is one `op`, described once in `OPS` by its signature: the kinds of its
 * arguments (word, bool, pair of words, float mode, static parameter) and of its result (word,
 * bool, a pair of words, or a word and a bool). Pairs are flattened into two operands; results
 * of two values are a tuple node read through two `proj` nodes.
 */
import type { Algebra, FloatMode, Pair } from './algebra.ts';
import { concrete } from './concrete.ts';

/** What a node holds: a word, a bool, or (tuples only) two values read through `proj`. */
export type ExprType = 'word' | 'bool' | 'tuple';

/** A static parameter of an operation: a float predicate, a rounding or unary kind, sext's width, cvt_pkrtz's flag. */
export type ExprParam = string | number | boolean;

export interface Expr {
  /** Unique in its builder; larger than every operand's. */
  readonly id: number;
  readonly op: ExprOp;
  readonly type: ExprType;
  readonly args: readonly Expr[];
  /** `const`: the u32 value; `bconst`: 0 or 1; `proj`: which result (0 or 1). */
  readonly value?: number;
  /** `input` / `binput`: the leaf's name, as the context that made it chose it. */
  readonly name?: string;
  readonly param?: ExprParam;
  /** Float ops: the FloatMode as `modeBits` gives it. */
  readonly mode?: number;
  /** Tuples: the types of the two results. */
  readonly results?: readonly ['word' | 'bool', 'word' | 'bool'];
}

/**
 * Argument kinds: w word, b bool, p pair (two word operands), m float mode, k static
 * parameter. Result kinds: w, b, p (two words), wb (a word and a bool).
 */
type ArgKind = 'w' | 'b' | 'p' | 'm' | 'k';
type ResultKind = 'w' | 'b' | 'p' | 'wb';
interface OpSignature {
  readonly args: readonly ArgKind[];
  readonly result: ResultKind;
}

const sig = (s: string): OpSignature => {
  const [a, r] = s.split('>') as [string, string];
  return { args: [...a] as ArgKind[], result: r as ResultKind };
};

/** Every method of `Algebra` but the two constants, with its signature. */
export const OPS = {
  add: sig('ww>w'),
  sub: sig('ww>w'),
  addCarry: sig('wwb>wb'),
  subBorrow: sig('wwb>wb'),
  mulLo: sig('ww>w'),
  mulHiU: sig('ww>w'),
  mulHiI: sig('ww>w'),
  and: sig('ww>w'),
  or: sig('ww>w'),
  xor: sig('ww>w'),
  not: sig('w>w'),
  shl: sig('ww>w'),
  lshr: sig('ww>w'),
  ashr: sig('ww>w'),
  minU: sig('ww>w'),
  maxU: sig('ww>w'),
  minI: sig('ww>w'),
  maxI: sig('ww>w'),
  popcount: sig('w>w'),
  brev: sig('w>w'),
  findLsb: sig('w>w'),
  findMsbFromTop: sig('w>w'),
  bfeU: sig('www>w'),
  bfeI: sig('www>w'),
  bfm: sig('ww>w'),
  sext: sig('wk>w'),
  eq: sig('ww>b'),
  ne: sig('ww>b'),
  ltU: sig('ww>b'),
  leU: sig('ww>b'),
  ltI: sig('ww>b'),
  leI: sig('ww>b'),
  boolAnd: sig('bb>b'),
  boolOr: sig('bb>b'),
  boolNot: sig('b>b'),
  select: sig('bww>w'),
  fromBool: sig('b>w'),
  toBool: sig('w>b'),
  fAdd: sig('wwm>w'),
  fMul: sig('wwm>w'),
  fFma: sig('wwwm>w'),
  fMin: sig('wwm>w'),
  fMax: sig('wwm>w'),
  fCmp: sig('kwwm>b'),
  fFromI32: sig('w>w'),
  fFromU32: sig('w>w'),
  fToI32: sig('wm>w'),
  fToU32: sig('wm>w'),
  fRound: sig('kwm>w'),
  fUnary: sig('kwm>w'),
  fLdexp: sig('wwm>w'),
  fFrexpMant: sig('wm>w'),
  fFrexpExp: sig('wm>w'),
  fToF16: sig('wkm>w'),
  fFromF16: sig('wm>w'),
  dAdd: sig('ppm>p'),
  dMul: sig('ppm>p'),
  dFma: sig('pppm>p'),
  dMin: sig('ppm>p'),
  dMax: sig('ppm>p'),
  dCmp: sig('kppm>b'),
  dRound: sig('kpm>p'),
  dUnary: sig('kpm>p'),
  dLdexp: sig('pwm>p'),
  dFrexpMant: sig('pm>p'),
  dFrexpExp: sig('pm>w'),
  dFromI32: sig('w>p'),
  dFromU32: sig('w>p'),
  dToI32: sig('pm>w'),
  dToU32: sig('pm>w'),
  dFromF32: sig('wm>p'),
  dToF32: sig('pm>w'),
} as const satisfies Record<string, OpSignature>;

export type AlgebraOp = keyof typeof OPS;
/** Leaves (`const`, `bconst`, `input`, `binput`), the algebra's operations, and tuple projections. */
export type ExprOp = 'const' | 'bconst' | 'input' | 'binput' | 'proj' | AlgebraOp;

/** Bit 0: f32 denormals kept, bit 1: f64/f16 denormals kept, bit 2: MODE.IEEE (min/max quiet an sNaN; lower.ts reads it too). */
export const modeBits = (m: FloatMode): number =>
  (m.f32Denormals ? 1 : 0) | (m.f64f16Denormals ? 2 : 0) | ((m.ieee ?? true) ? 4 : 0);
export const modeOf = (bits: number): FloatMode => ({
  f32Denormals: (bits & 1) !== 0,
  f64f16Denormals: (bits & 2) !== 0,
  ieee: (bits & 4) !== 0,
});

/** The concrete algebra's methods, called by name with the operands a node holds. */
type ConcreteMethod = (...args: unknown[]) => unknown;
const concreteMethod = (op: AlgebraOp): ConcreteMethod => (concrete as unknown as Record<string, ConcreteMethod>)[op]!;

/**
 * Runs one operation on the concrete algebra: `operands` are the node's flattened operand
 * values (words as numbers, bools as booleans); the result is a number, a boolean, or a
 * two-element array for two results.
 */
export function applyConcrete(
  op: AlgebraOp,
  operands: readonly (number | boolean)[],
  param: ExprParam | undefined,
  mode: number | undefined,
): number | boolean | readonly [number | boolean, number | boolean] {
  const s: OpSignature = OPS[op];
  const call: unknown[] = [];
  let i = 0;
  for (const k of s.args) {
    if (k === 'w' || k === 'b') call.push(operands[i++]);
    else if (k === 'p') {
      call.push([operands[i], operands[i + 1]]);
      i += 2;
    } else if (k === 'm') call.push(modeOf(mode ?? 7));
    else call.push(param);
  }
  return concreteMethod(op)(...call) as number | boolean | readonly [number | boolean, number | boolean];
}

/**
 * Builds expression DAGs: `Algebra<Expr, Expr>` plus leaves. One builder per translation
 * unit (an instruction, a block, a program): nodes are shared within it.
 */
class ExprNodes {
  private nextId = 0;
  private readonly interned = new Map<string, Expr>();
  /** Every node made, in id order (a back end may walk it instead of the roots). */
  readonly nodes: Expr[] = [];

  private make(fields: Omit<Expr, 'id'>): Expr {
    // The key built by concatenation, each optional field only where present (tagged, so keys stay
    // distinct): a translation makes tens of thousands of nodes, and map + join with every field
    // was a seventh of its time (profiled on int_math).
    const args = fields.args;
    let key: string = fields.op;
    for (let i = 0; i < args.length; i++) key += `,${args[i]!.id}`;
    if (fields.value !== undefined) key += `|v${fields.value}`;
    if (fields.name !== undefined) key += `|n${fields.name}`;
    if (fields.param !== undefined) key += `|p${String(fields.param)}`;
    if (fields.mode !== undefined) key += `|m${fields.mode}`;
    const found = this.interned.get(key);
    if (found) return found;
    const e: Expr = { id: this.nextId++, ...fields };
    this.interned.set(key, e);
    this.nodes.push(e);
    return e;
  }

  /** A word the context supplies (a register, the lane id...). The same name is the same node. */
  input(name: string): Expr {
    return this.make({ op: 'input', type: 'word', args: [], name });
  }
  /** A bool the context supplies (SCC, a lane's EXEC or VCC bit...). */
  boolInput(name: string): Expr {
    return this.make({ op: 'binput', type: 'bool', args: [], name });
  }

  readonly word = (value: number): Expr => this.make({ op: 'const', type: 'word', args: [], value: value >>> 0 });
  readonly bool = (value: boolean): Expr => this.make({ op: 'bconst', type: 'bool', args: [], value: value ? 1 : 0 });

  private constant(v: number | boolean): Expr {
    return typeof v === 'boolean' ? this.bool(v) : this.word(v);
  }

  /** The value of a leaf constant, or undefined. */
  static constantValue(e: Expr): number | boolean | undefined {
    if (e.op === 'const') return e.value!;
    if (e.op === 'bconst') return e.value === 1;
    return undefined;
  }

  private proj(t: Expr, index: 0 | 1): Expr {
    const type = t.results![index];
    return this.make({ op: 'proj', type, args: [t], value: index });
  }

  /** Applies `op`: folds constants, simplifies the identities back ends would otherwise emit, or makes a node. */
  apply(op: AlgebraOp, call: readonly unknown[]): Expr | readonly [Expr, Expr] {
    const s: OpSignature = OPS[op];
    const args: Expr[] = [];
    let param: ExprParam | undefined;
    let mode: number | undefined;
    s.args.forEach((k, i) => {
      const a = call[i];
      if (k === 'w' || k === 'b') args.push(a as Expr);
      else if (k === 'p') args.push(...(a as Pair<Expr>));
      else if (k === 'm') mode = modeBits(a as FloatMode);
      else param = a as ExprParam;
    });
    const values = args.map(ExprNodes.constantValue);
    if (values.every((v) => v !== undefined)) {
      const r = applyConcrete(op, values as (number | boolean)[], param, mode);
      if (Array.isArray(r)) return [this.constant(r[0] as number | boolean), this.constant(r[1] as number | boolean)];
      return this.constant(r as number | boolean);
    }
    const simple = this.simplify(op, args, values);
    if (simple) return simple;
    if (s.result === 'w' || s.result === 'b')
      return this.make({ op, type: s.result === 'w' ? 'word' : 'bool', args, param, mode });
    const results = s.result === 'p' ? (['word', 'word'] as const) : (['word', 'bool'] as const);
    const t = this.make({ op, type: 'tuple', args, param, mode, results });
    return [this.proj(t, 0), this.proj(t, 1)];
  }

  /** Identities with one constant operand (x & 0, x | 0, select on a constant...): the result, or undefined. */
  private simplify(
    op: AlgebraOp,
    args: readonly Expr[],
    values: readonly (number | boolean | undefined)[],
  ): Expr | undefined {
    const [a, b] = args;
    const [va, vb] = values;
    switch (op) {
      case 'and':
        if (va === 0 || vb === 0) return this.word(0);
        if (va === 0xffffffff) return b;
        if (vb === 0xffffffff || a === b) return a;
        return undefined;
      case 'or':
        if (va === 0xffffffff || vb === 0xffffffff) return this.word(0xffffffff);
        if (va === 0) return b;
        if (vb === 0 || a === b) return a;
        return undefined;
      case 'xor':
        if (va === 0) return b;
        if (vb === 0) return a;
        if (a === b) return this.word(0);
        return undefined;
      case 'add':
        if (va === 0) return b;
        if (vb === 0) return a;
        return undefined;
      case 'sub':
        if (vb === 0) return a;
        return undefined;
      case 'boolAnd':
        if (va === false || vb === false) return this.bool(false);
        if (va === true) return b;
        if (vb === true || a === b) return a;
        return undefined;
      case 'boolOr':
        if (va === true || vb === true) return this.bool(true);
        if (va === false) return b;
        if (vb === false || a === b) return a;
        return undefined;
      case 'boolNot':
        if (a!.op === 'boolNot') return a!.args[0];
        return undefined;
      case 'select':
        if (va === true) return b;
        if (va === false) return args[2];
        if (b === args[2]) return b;
        return undefined;
      default:
        return undefined;
    }
  }
}

/** The algebra over expressions: every `Algebra` method is `apply` under its name. */
export type ExprBuilder = ExprNodes & Algebra<Expr, Expr>;

/**
 * A new builder. Its algebra methods are made from OPS (no method is written twice) and bound
 * to it, since semantic functions may take `alg.add` apart from `alg`.
 */
export function exprBuilder(): ExprBuilder {
  const b = new ExprNodes();
  const methods = b as unknown as Record<string, (...call: unknown[]) => unknown>;
  for (const op of Object.keys(OPS) as AlgebraOp[]) methods[op] = (...call: unknown[]) => b.apply(op, call);
  return b as ExprBuilder;
}

/** Values of an expression's leaves: word inputs as u32 numbers, bool inputs as booleans. */
export interface ExprInputs {
  word(name: string): number;
  bool(name: string): boolean;
}

/**
 * Runs expressions on the concrete algebra (the reference every back end is tested against).
 * Results are memoised per node, so a DAG costs one evaluation per node.
 */
export function evaluateExpr(roots: readonly Expr[], inputs: ExprInputs): (number | boolean)[] {
  const memo = new Map<number, number | boolean | readonly [number | boolean, number | boolean]>();
  const value = (e: Expr): number | boolean | readonly [number | boolean, number | boolean] => {
    const hit = memo.get(e.id);
    if (hit !== undefined) return hit;
    let r: number | boolean | readonly [number | boolean, number | boolean];
    switch (e.op) {
      case 'const':
        r = e.value!;
        break;
      case 'bconst':
        r = e.value === 1;
        break;
      case 'input':
        r = inputs.word(e.name!) >>> 0;
        break;
      case 'binput':
        r = inputs.bool(e.name!);
        break;
      case 'proj':
        r = (value(e.args[0]!) as readonly [number | boolean, number | boolean])[e.value!]!;
        break;
      default:
        r = applyConcrete(
          e.op,
          e.args.map((a) => value(a) as number | boolean),
          e.param,
          e.mode,
        );
    }
    memo.set(e.id, r);
    return r;
  };
  return roots.map((e) => value(e) as number | boolean);
}

/** The nodes `roots` depend on, each once, operands first (ids ascending). */
export function reachable(roots: readonly Expr[]): Expr[] {
  const seen = new Map<number, Expr>();
  const stack = [...roots];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (seen.has(e.id)) continue;
    seen.set(e.id, e);
    stack.push(...e.args);
  }
  return [...seen.values()].sort((x, y) => x.id - y.id);
}
