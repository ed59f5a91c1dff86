/**
 * Rewriting expression DAGs (D011): a wave-level instruction that loops over the lanes itself
 * (v_permlane16/x16/64) runs once as each lane of the wave, and the translator then replaces the
 * placeholder leaves each lane's run left for its reads of other lanes by the values the module
 * reads from the exchange. The rebuilt nodes go through the builder again, so they fold and are
 * shared as if the semantics had built them with those leaves.
 */
import { modeOf, OPS, type Expr, type ExprBuilder } from '../semantics/expr.ts';

/** The leaves `pick` accepts that `roots` reach, each once, in first-visit order of a depth-first walk. */
export function leavesInOrder(roots: readonly Expr[], pick: (leaf: Expr) => boolean): Expr[] {
  const seen = new Set<number>();
  const found: Expr[] = [];
  const visit = (e: Expr): void => {
    if (seen.has(e.id)) return;
    seen.add(e.id);
    if (e.args.length === 0) {
      if (pick(e)) found.push(e);
      return;
    }
    for (const a of e.args) visit(a);
  };
  for (const r of roots) visit(r);
  return found;
}

/** `roots` rebuilt in `b` with each leaf `replace` names swapped for its replacement. */
export function substituteLeaves(
  b: ExprBuilder,
  roots: readonly Expr[],
  replace: (leaf: Expr) => Expr | undefined,
): Expr[] {
  const memo = new Map<number, Expr | readonly [Expr, Expr]>();
  const rebuild = (e: Expr): Expr | readonly [Expr, Expr] => {
    const hit = memo.get(e.id);
    if (hit) return hit;
    let r: Expr | readonly [Expr, Expr];
    if (e.args.length === 0) r = replace(e) ?? e;
    else if (e.op === 'proj') r = (rebuild(e.args[0]!) as readonly [Expr, Expr])[e.value!]!;
    else {
      const op = e.op as keyof typeof OPS;
      const args = e.args.map((a) => rebuild(a) as Expr);
      const call: unknown[] = [];
      let i = 0;
      for (const k of OPS[op].args) {
        if (k === 'w' || k === 'b') call.push(args[i++]);
        else if (k === 'p') {
          call.push([args[i], args[i + 1]]);
          i += 2;
        } else if (k === 'm') call.push(modeOf(e.mode!));
        else call.push(e.param);
      }
      r = b.apply(op, call);
    }
    memo.set(e.id, r);
    return r;
  };
  return roots.map((e) => rebuild(e) as Expr);
}
