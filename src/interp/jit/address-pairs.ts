/**
 * The one step buffer-address.ts and ds-address.ts share (D014): a list of (address, outside)
 * root pairs of the expression algebra, over a few integer leaves, lowered to one JavaScript
 * function that fills `into[2k]` with pair k's address (a u32) and `into[2k + 1]` with 1 when it
 * is outside (0 otherwise). Roots that need a float or a MODE do not lower (null): the caller
 * then runs the shared rules directly.
 */
import { concrete } from '../../semantics/concrete.ts';
import type { Expr } from '../../semantics/expr.ts';
import { JsLowering, JsLoweringRefusal, type JsLeaf } from './js-lowering.ts';

/** A compiled function over the leaves in order, then `into`. */
export type AddressPairsFunction = (...args: [...number[], Float64Array]) => void;

export function compileAddressPairs(
  /** Alternating address and outside roots. */
  roots: readonly Expr[],
  /** The leaves the roots may read, in the compiled function's parameter order. */
  leaves: readonly string[],
  /** The compiled function's name (seen in profiles). */
  functionName: string,
  /** What the leaves are, for the refusal text. */
  leafKind: string,
): AddressPairsFunction | null {
  const js = new JsLowering((e: Expr): JsLeaf => {
    const name = e.name ?? '';
    if (!leaves.includes(name)) throw new JsLoweringRefusal(`the leaf ${e.name} is not ${leafKind}`);
    return { name, declaration: '', varying: false };
  });
  let refs: string[];
  try {
    refs = js.body(roots).refs;
  } catch (e) {
    if (e instanceof JsLoweringRefusal) return null;
    throw e;
  }
  if (js.modes.length > 0) return null;
  const source = [
    '"use strict";',
    ...[...js.calls].sort().map((op) => `const C_${op} = C.${op};`),
    `return function ${functionName}(${[...leaves, 'into'].join(', ')}) {`,
    ...js.prelude.map((x) => `  ${x}`),
    ...refs.map((x, i) => (i % 2 === 0 ? `  into[${i}] = (${x}) >>> 0;` : `  into[${i}] = (${x}) ? 1 : 0;`)),
    '};',
  ].join('\n');
  return new Function('C', source)(concrete) as AddressPairsFunction;
}
