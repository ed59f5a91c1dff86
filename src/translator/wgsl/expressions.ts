/**
 * Native-operation DAGs (`../low.ts`) as WGSL (D011): one `let` per node, operands first, each
 * operation one WGSL expression on u32 words and bools. Floats are f32 bit patterns in u32s,
 * reinterpreted around the float operations, so every value the module holds is a word.
 */
import { lowReachable, type LowNode, type LowOp } from '../low.ts';

const f = (x: string): string => `bitcast<f32>(${x})`;
const i = (x: string): string => `bitcast<i32>(${x})`;
const asU = (x: string): string => `bitcast<u32>(${x})`;

/** 2*pi as the f32 nearest to it: the native sin/cos take revolutions. */
const TWO_PI = '6.2831855';

/** One native operation as a WGSL expression over its operands' WGSL expressions. */
export function expression(op: LowOp, a: readonly string[]): string {
  const [x, y, z] = a as [string, string, string];
  switch (op) {
    case 'add':
      return `(${x} + ${y})`;
    case 'sub':
      return `(${x} - ${y})`;
    case 'mul':
      return `(${x} * ${y})`;
    case 'udiv':
      return `(${x} / ${y})`;
    case 'and':
      return `(${x} & ${y})`;
    case 'or':
      return `(${x} | ${y})`;
    case 'xor':
      return `(${x} ^ ${y})`;
    case 'not':
      return `(~${x})`;
    case 'shl':
      return `(${x} << ${y})`;
    case 'shr':
      return `(${x} >> ${y})`;
    case 'sar':
      return asU(`${i(x)} >> ${y}`);
    case 'umin':
      return `min(${x}, ${y})`;
    case 'umax':
      return `max(${x}, ${y})`;
    case 'smin':
      return asU(`min(${i(x)}, ${i(y)})`);
    case 'smax':
      return asU(`max(${i(x)}, ${i(y)})`);
    case 'clz':
      return `countLeadingZeros(${x})`;
    case 'ctz':
      return `countTrailingZeros(${x})`;
    case 'popcnt':
      return `countOneBits(${x})`;
    case 'brev':
      return `reverseBits(${x})`;
    case 'eq':
      return `(${x} == ${y})`;
    case 'ne':
      return `(${x} != ${y})`;
    case 'ult':
      return `(${x} < ${y})`;
    case 'ule':
      return `(${x} <= ${y})`;
    case 'slt':
      return `(${i(x)} < ${i(y)})`;
    case 'sle':
      return `(${i(x)} <= ${i(y)})`;
    case 'select':
      return `select(${z}, ${y}, ${x})`;
    case 'band':
      return `(${x} && ${y})`;
    case 'bor':
      return `(${x} || ${y})`;
    case 'bnot':
      return `(!${x})`;
    case 'b2w':
      return `select(0u, 1u, ${x})`;
    case 'fadd':
      return asU(`${f(x)} + ${f(y)}`);
    case 'fmul':
      return asU(`${f(x)} * ${f(y)}`);
    case 'ffma':
      return asU(`fma(${f(x)}, ${f(y)}, ${f(z)})`);
    case 'fdiv':
      return asU(`${f(x)} / ${f(y)}`);
    case 'fsqrt':
      return asU(`sqrt(${f(x)})`);
    case 'frsq':
      return asU(`inverseSqrt(${f(x)})`);
    case 'fexp2':
      return asU(`exp2(${f(x)})`);
    case 'flog2':
      return asU(`log2(${f(x)})`);
    case 'fsin':
      return asU(`sin(${f(x)} * ${TWO_PI})`);
    case 'fcos':
      return asU(`cos(${f(x)} * ${TWO_PI})`);
    case 'const':
    case 'bconst':
    case 'input':
    case 'binput':
      throw new Error(`${op} is a leaf`);
  }
}

export const wgslWord = (v: number): string => `0x${(v >>> 0).toString(16)}u`;

export interface WgslExpressions {
  /** `let` statements, operands first. */
  readonly statements: string[];
  /** The WGSL expression of each root (a name, a constant or a leaf). */
  readonly results: string[];
}

/**
 * WGSL for `roots`. `leaf` names an input node's value (a register variable, a load); the
 * names of the nodes are `prefix` and the node id.
 */
export function emitWgslExpressions(
  roots: readonly LowNode[],
  leaf: (n: LowNode) => string,
  prefix = 't',
): WgslExpressions {
  const names = new Map<number, string>();
  const statements: string[] = [];
  const ref = (n: LowNode): string => {
    const named = names.get(n.id);
    if (named !== undefined) return named;
    if (n.op === 'const') return wgslWord(n.value!);
    if (n.op === 'bconst') return n.value === 1 ? 'true' : 'false';
    const name = names.get(n.id);
    if (name === undefined) throw new Error(`node ${n.id} used before it is defined`);
    return name;
  };
  const floatOperand = new Set<number>();
  const nodes = lowReachable(roots);
  for (const n of nodes) if (n.op.startsWith('f')) for (const a of n.args) if (a.op === 'const') floatOperand.add(a.id);
  for (const n of nodes) {
    if (n.op === 'const' && floatOperand.has(n.id)) {
      // A constant a float operation reads goes through a `let`: WGSL evaluates bitcast<f32>
      // of a constant at compile time and rejects NaN and infinity there, though the lowering
      // never lets such a result be used.
      const name = `${prefix}${n.id}`;
      statements.push(`let ${name}: u32 = ${wgslWord(n.value!)};`);
      names.set(n.id, name);
      continue;
    }
    if (n.op === 'const' || n.op === 'bconst') continue;
    if (n.op === 'input' || n.op === 'binput') {
      names.set(n.id, leaf(n));
      continue;
    }
    const name = `${prefix}${n.id}`;
    statements.push(`let ${name}: ${n.type === 'bool' ? 'bool' : 'u32'} = ${expression(n.op, n.args.map(ref))};`);
    names.set(n.id, name);
  }
  return { statements, results: roots.map(ref) };
}
