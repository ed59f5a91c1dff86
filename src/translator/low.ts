/**
 * The native operations every GPU back end has (D011): the translator lowers the exact
 * hardware algebra (`src/semantics/expr.ts`) to these, so a back end maps each of them to
 * one WGSL expression or one SPIR-V instruction and nothing more. Everything the hardware
 * defines that a GPU's own arithmetic does not promise (NaN payloads, denormal modes,
 * saturating conversions, rounding of int-to-float, -0 below +0 in min/max, half-precision
 * conversion) is written once in `lower.ts` over these operations, mostly in integer
 * arithmetic, so WGSL and SPIR-V give the same bits.
 *
 * Values are u32 words and bools, as in the algebra; the float operations take and give
 * f32 bit patterns. Their operands are finite and their results are not relied on where the
 * exact result is not finite or is subnormal: `lower.ts` decides those cases itself, since
 * WGSL lets an implementation assume no infinities or NaNs and flush subnormals.
 *
 * `evalLowOp` is each operation's meaning on the CPU: it folds constants and lets the
 * lowering be tested against the concrete algebra without a GPU.
 */
import type { FloatMode } from '../semantics/algebra.ts';
import { concreteFloat, fma32Value } from '../semantics/float.ts';

const KEEP_DENORMALS: FloatMode = { f32Denormals: true, f64f16Denormals: true };

export type LowType = 'u32' | 'bool';

export type LowOp =
  | 'const'
  | 'bconst'
  | 'input'
  | 'binput'
  // integer words (wrapping); shift counts are 0..31 (the lowering masks them)
  | 'add'
  | 'sub'
  | 'mul'
  /** Unsigned quotient (the lowering never divides by 0; WGSL gives the dividend then). */
  | 'udiv'
  | 'and'
  | 'or'
  | 'xor'
  | 'not'
  | 'shl'
  | 'shr'
  | 'sar'
  | 'umin'
  | 'umax'
  | 'smin'
  | 'smax'
  | 'clz'
  | 'ctz'
  | 'popcnt'
  | 'brev'
  | 'eq'
  | 'ne'
  | 'ult'
  | 'ule'
  | 'slt'
  | 'sle'
  | 'select'
  | 'band'
  | 'bor'
  | 'bnot'
  | 'b2w'
  // f32 on bit patterns, finite operands
  | 'fadd'
  | 'fmul'
  | 'ffma'
  | 'fdiv'
  | 'fsqrt'
  | 'frsq'
  | 'fexp2'
  | 'flog2'
  /** sin / cos of an angle in revolutions (x * 2pi radians), |x| <= 0.5. */
  | 'fsin'
  | 'fcos';

/** Operand count and result type of each operation (leaves: 0). */
export const LOW_SIGNATURES: Readonly<Record<LowOp, { readonly arity: number; readonly type: LowType }>> = {
  const: { arity: 0, type: 'u32' },
  bconst: { arity: 0, type: 'bool' },
  input: { arity: 0, type: 'u32' },
  binput: { arity: 0, type: 'bool' },
  add: { arity: 2, type: 'u32' },
  sub: { arity: 2, type: 'u32' },
  mul: { arity: 2, type: 'u32' },
  udiv: { arity: 2, type: 'u32' },
  and: { arity: 2, type: 'u32' },
  or: { arity: 2, type: 'u32' },
  xor: { arity: 2, type: 'u32' },
  not: { arity: 1, type: 'u32' },
  shl: { arity: 2, type: 'u32' },
  shr: { arity: 2, type: 'u32' },
  sar: { arity: 2, type: 'u32' },
  umin: { arity: 2, type: 'u32' },
  umax: { arity: 2, type: 'u32' },
  smin: { arity: 2, type: 'u32' },
  smax: { arity: 2, type: 'u32' },
  clz: { arity: 1, type: 'u32' },
  ctz: { arity: 1, type: 'u32' },
  popcnt: { arity: 1, type: 'u32' },
  brev: { arity: 1, type: 'u32' },
  eq: { arity: 2, type: 'bool' },
  ne: { arity: 2, type: 'bool' },
  ult: { arity: 2, type: 'bool' },
  ule: { arity: 2, type: 'bool' },
  slt: { arity: 2, type: 'bool' },
  sle: { arity: 2, type: 'bool' },
  select: { arity: 3, type: 'u32' },
  band: { arity: 2, type: 'bool' },
  bor: { arity: 2, type: 'bool' },
  bnot: { arity: 1, type: 'bool' },
  b2w: { arity: 1, type: 'u32' },
  fadd: { arity: 2, type: 'u32' },
  fmul: { arity: 2, type: 'u32' },
  ffma: { arity: 3, type: 'u32' },
  fdiv: { arity: 2, type: 'u32' },
  fsqrt: { arity: 1, type: 'u32' },
  frsq: { arity: 1, type: 'u32' },
  fexp2: { arity: 1, type: 'u32' },
  flog2: { arity: 1, type: 'u32' },
  fsin: { arity: 1, type: 'u32' },
  fcos: { arity: 1, type: 'u32' },
};

export interface LowNode {
  readonly id: number;
  readonly op: LowOp;
  readonly type: LowType;
  readonly args: readonly LowNode[];
  /** const: the u32; bconst: 0/1. */
  readonly value?: number;
  /** input / binput: the leaf's name. */
  readonly name?: string;
}

const f32 = new Float32Array(1);
const w32 = new Uint32Array(f32.buffer);
const fv = (bits: number): number => {
  w32[0] = bits;
  return f32[0]!;
};
const fb = (x: number): number => {
  f32[0] = x;
  return w32[0]!;
};
const u = (x: number): number => x >>> 0;

function brev32(a: number): number {
  let x = a >>> 0;
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return ((x >>> 16) | (x << 16)) >>> 0;
}

/** One operation on the CPU (words as u32 numbers, bools as booleans). Float results round once to f32. */
export function evalLowOp(op: LowOp, a: readonly (number | boolean)[]): number | boolean {
  const x = a[0] as number;
  const y = a[1] as number;
  switch (op) {
    case 'add':
      return u(x + y);
    case 'sub':
      return u(x - y);
    case 'mul':
      return u(Math.imul(x, y));
    case 'udiv':
      return y === 0 ? x : Math.floor(x / y);
    case 'and':
      return u(x & y);
    case 'or':
      return u(x | y);
    case 'xor':
      return u(x ^ y);
    case 'not':
      return u(~x);
    case 'shl':
      return u(x << (y & 31));
    case 'shr':
      return x >>> (y & 31);
    case 'sar':
      return u(x >> (y & 31));
    case 'umin':
      return Math.min(x, y);
    case 'umax':
      return Math.max(x, y);
    case 'smin':
      return u(Math.min(x | 0, y | 0));
    case 'smax':
      return u(Math.max(x | 0, y | 0));
    case 'clz':
      return Math.clz32(x);
    case 'ctz':
      return x === 0 ? 32 : 31 - Math.clz32(x & -x);
    case 'popcnt': {
      let c = 0;
      for (let v = x; v !== 0; v &= v - 1) c++;
      return c;
    }
    case 'brev':
      return brev32(x);
    case 'eq':
      return x === y;
    case 'ne':
      return x !== y;
    case 'ult':
      return x < y;
    case 'ule':
      return x <= y;
    case 'slt':
      return (x | 0) < (y | 0);
    case 'sle':
      return (x | 0) <= (y | 0);
    case 'select':
      return a[0] ? (a[1] as number) : (a[2] as number);
    case 'band':
      return (a[0] as boolean) && (a[1] as boolean);
    case 'bor':
      return (a[0] as boolean) || (a[1] as boolean);
    case 'bnot':
      return !(a[0] as boolean);
    case 'b2w':
      return a[0] ? 1 : 0;
    case 'fadd':
      return fb(fv(x) + fv(y));
    case 'fmul':
      return fb(fv(x) * fv(y));
    case 'ffma':
      return fb(fma32Value(fv(x), fv(y), fv(a[2] as number)));
    case 'fdiv':
      return fb(fv(x) / fv(y));
    case 'fsqrt':
      return fb(Math.sqrt(fv(x)));
    case 'frsq':
      return fb(1 / Math.sqrt(fv(x)));
    case 'fexp2':
      return fb(2 ** fv(x));
    case 'flog2':
      return fb(Math.log2(fv(x)));
    case 'fsin':
    case 'fcos':
      // The concrete algebra's own sin/cos of revolutions, denormals kept (the lowering flushes by the mode).
      return concreteFloat.fUnary(op === 'fsin' ? 'sin' : 'cos', x, KEEP_DENORMALS);
    case 'const':
    case 'bconst':
    case 'input':
    case 'binput':
      throw new Error(`evalLowOp: ${op} is a leaf`);
  }
}

/** Builds native-operation DAGs, shared (hash-consed) and folded when every operand is a constant. */
export class LowBuilder {
  private nextId = 0;
  private readonly interned = new Map<string, LowNode>();

  private make(op: LowOp, args: readonly LowNode[], value?: number, name?: string): LowNode {
    const key = `${op}|${args.map((n) => n.id).join(',')}|${value ?? ''}|${name ?? ''}`;
    const found = this.interned.get(key);
    if (found) return found;
    const n: LowNode = { id: this.nextId++, op, type: LOW_SIGNATURES[op].type, args, value, name };
    this.interned.set(key, n);
    return n;
  }

  word(v: number): LowNode {
    return this.make('const', [], v >>> 0);
  }
  bool(v: boolean): LowNode {
    return this.make('bconst', [], v ? 1 : 0);
  }
  input(name: string): LowNode {
    return this.make('input', [], undefined, name);
  }
  boolInput(name: string): LowNode {
    return this.make('binput', [], undefined, name);
  }

  op(op: LowOp, ...args: LowNode[]): LowNode {
    const sigArity = LOW_SIGNATURES[op].arity;
    if (args.length !== sigArity) throw new Error(`${op} takes ${sigArity} operands, not ${args.length}`);
    if (op === 'select' && (args[0]!.type !== 'bool' || args[1]!.type !== 'u32' || args[2]!.type !== 'u32'))
      throw new Error('select takes a bool and two words');
    if (args.every((n) => n.op === 'const' || n.op === 'bconst')) {
      const r = evalLowOp(
        op,
        args.map((n) => (n.op === 'bconst' ? n.value === 1 : n.value!)),
      );
      return typeof r === 'boolean' ? this.bool(r) : this.word(r);
    }
    const simple = this.identity(op, args);
    if (simple) return simple;
    return this.make(op, args);
  }

  /**
   * Exact identities with a constant or a repeated operand (x + 0, x & ~0, x < x, b || false,
   * select on a constant...): the operand they reduce to, or undefined. The lowering writes its
   * rules for any operands; these keep constant operands (carries of 0, shifts by 0) out of the
   * code a back end emits.
   */
  private identity(op: LowOp, args: readonly LowNode[]): LowNode | undefined {
    const [x, y] = args as [LowNode, LowNode];
    const k = (n: LowNode | undefined): number | undefined =>
      n?.op === 'const' || n?.op === 'bconst' ? n.value : undefined;
    const kx = k(x);
    const ky = k(y);
    switch (op) {
      case 'select': {
        const [c, t, f] = args as [LowNode, LowNode, LowNode];
        if (c.op === 'bconst') return c.value === 1 ? t : f;
        if (t === f) return t;
        if (c.op === 'bnot') return this.op('select', c.args[0]!, f, t);
        return undefined;
      }
      case 'add':
      case 'or':
      case 'xor':
        if (kx === 0) return y;
        if (ky === 0) return x;
        if (op === 'or' && x === y) return x;
        if (op === 'xor' && x === y) return this.word(0);
        return undefined;
      case 'sub':
        if (ky === 0) return x;
        if (x === y) return this.word(0);
        return undefined;
      case 'shl':
      case 'shr':
      case 'sar':
        if (ky === 0 || kx === 0) return x;
        return undefined;
      case 'and':
        if (kx === 0 || ky === 0) return this.word(0);
        if (kx === 0xffffffff) return y;
        if (ky === 0xffffffff || x === y) return x;
        return undefined;
      case 'mul':
        if (kx === 0 || ky === 0) return this.word(0);
        if (kx === 1) return y;
        if (ky === 1) return x;
        return undefined;
      case 'ult':
        if (x === y || ky === 0) return this.bool(false);
        return undefined;
      case 'ule':
        if (x === y || kx === 0) return this.bool(true);
        return undefined;
      case 'eq':
        if (x === y) return this.bool(true);
        return undefined;
      case 'ne':
        if (x === y) return this.bool(false);
        return undefined;
      case 'band':
        if (kx === 0 || ky === 0) return this.bool(false);
        if (kx === 1) return y;
        if (ky === 1 || x === y) return x;
        return undefined;
      case 'bor':
        if (kx === 1 || ky === 1) return this.bool(true);
        if (kx === 0) return y;
        if (ky === 0 || x === y) return x;
        return undefined;
      case 'bnot':
        if (x.op === 'bnot') return x.args[0];
        return undefined;
      case 'b2w':
        return undefined;
      default:
        return undefined;
    }
  }
}

/**
 * The nodes `roots` depend on, each once, operands first; the walk does not enter a node `skip`
 * takes (a back end's already-written values: their operands were written before them).
 */
export function lowReachable(roots: readonly LowNode[], skip?: (n: LowNode) => boolean): LowNode[] {
  const seen = new Map<number, LowNode>();
  const stack = [...roots];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n.id) || skip?.(n)) continue;
    seen.set(n.id, n);
    stack.push(...n.args);
  }
  return [...seen.values()].sort((p, q) => p.id - q.id);
}

/** Runs native DAGs on the CPU (memoised per node). */
export function evaluateLow(
  roots: readonly LowNode[],
  inputs: { word(name: string): number; bool(name: string): boolean },
): (number | boolean)[] {
  const memo = new Map<number, number | boolean>();
  for (const n of lowReachable(roots)) {
    let v: number | boolean;
    if (n.op === 'const') v = n.value!;
    else if (n.op === 'bconst') v = n.value === 1;
    else if (n.op === 'input') v = inputs.word(n.name!) >>> 0;
    else if (n.op === 'binput') v = inputs.bool(n.name!);
    else
      v = evalLowOp(
        n.op,
        n.args.map((m) => memo.get(m.id)!),
      );
    memo.set(n.id, v);
  }
  return roots.map((r) => memo.get(r.id)!);
}

/**
 * The last step of a float → i32 / u32 conversion, shared by the f32 and f64 lowerings: from the
 * sign, the unbiased exponent `e` (below: e < 0), the integer part `magnitude` (right for
 * 0 <= e < 32) and NaN, the result toward zero, saturating, NaN → 0.
 */
export function saturatedInt(
  b: LowBuilder,
  signed: boolean,
  parts: {
    readonly neg: LowNode;
    readonly below: LowNode;
    readonly e: LowNode;
    readonly magnitude: LowNode;
    readonly nan: LowNode;
  },
): LowNode {
  const { neg, below, e, magnitude } = parts;
  const k = (v: number): LowNode => b.word(v);
  const sel = (c: LowNode, t: LowNode, f: LowNode): LowNode => b.op('select', c, t, f);
  const r = signed
    ? sel(
        below,
        k(0),
        sel(
          b.op('sle', k(31), e),
          sel(neg, k(0x80000000), k(0x7fffffff)),
          sel(neg, b.op('sub', k(0), magnitude), magnitude),
        ),
      )
    : sel(b.op('bor', neg, below), k(0), sel(b.op('sle', k(32), e), k(0xffffffff), magnitude));
  return sel(parts.nan, k(0), r);
}
