/**
 * The order the module runs its translation blocks in (D028): blocks in reverse postorder, each
 * natural loop of the block graph a nest of its own, so one pass over the module's code runs a
 * straight stretch of blocks and one pass over a loop's code runs one of its iterations.
 *
 * Why not a `switch` in a loop: SwiftShader (the adapter here, and any SIMD-on-CPU driver like it)
 * runs structured control flow with lane masks and never branches around a block no lane takes,
 * so a dispatcher `loop { switch pc { ... } }` runs every case's code on every iteration — the
 * whole program once per block executed. Blocks in order, each guarded by `pc`, cost the whole
 * program once per pass instead, and a loop's blocks once per iteration of that loop.
 *
 * The graph must be reducible (every cycle entered through one header): compiled code is, and a
 * graph that is not gets `null`, for which the module keeps the dispatcher.
 */

/** One item of a run order: a block, or a natural loop with its own order inside. */
export type RunItem =
  | { readonly kind: 'block'; readonly id: number }
  | {
      readonly kind: 'loop';
      readonly header: number;
      readonly members: ReadonlySet<number>;
      readonly body: readonly RunItem[];
    };

/**
 * The run order of the blocks reachable from `entry` (`successors(id)`: the blocks a block may
 * hand `pc` to), or null when the graph is not reducible.
 */
export function runOrder(entry: number, successors: (id: number) => Iterable<number>): RunItem[] | null {
  // Reverse postorder by an iterative depth-first search (a deep program must not overflow the stack).
  const post: number[] = [];
  const seen = new Set<number>([entry]);
  const stack: { id: number; next: Iterator<number> }[] = [{ id: entry, next: successors(entry)[Symbol.iterator]() }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const step = top.next.next();
    if (step.done) {
      post.push(top.id);
      stack.pop();
    } else if (!seen.has(step.value)) {
      seen.add(step.value);
      stack.push({ id: step.value, next: successors(step.value)[Symbol.iterator]() });
    }
  }
  const order = post.reverse();
  const rank = new Map(order.map((id, i) => [id, i]));
  const preds = new Map<number, number[]>(order.map((id) => [id, []]));
  for (const id of order) for (const s of successors(id)) preds.get(s)!.push(id);

  // Dominators (Cooper, Harvey and Kennedy's iteration over the reverse postorder).
  const idom = new Map<number, number>([[entry, entry]]);
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rank.get(a)! > rank.get(b)!) a = idom.get(a)!;
      while (rank.get(b)! > rank.get(a)!) b = idom.get(b)!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const id of order.slice(1)) {
      let d: number | undefined;
      for (const p of preds.get(id)!) if (idom.has(p)) d = d === undefined ? p : intersect(p, d);
      if (d !== undefined && idom.get(id) !== d) {
        idom.set(id, d);
        changed = true;
      }
    }
  }
  const dominates = (a: number, b: number): boolean => {
    for (let x = b; ; x = idom.get(x)!) {
      if (x === a) return true;
      if (x === entry) return false;
    }
  };

  // Every retreating edge must be a back edge (to a header that dominates its source): reducible.
  const members = new Map<number, Set<number>>();
  for (const id of order)
    for (const s of successors(id)) {
      if (rank.get(s)! > rank.get(id)!) continue;
      if (!dominates(s, id)) return null;
      const body = members.get(s) ?? new Set<number>([s]);
      members.set(s, body);
      // The natural loop of the back edge id -> s: s and every block that reaches id without passing s.
      const work = [id];
      while (work.length > 0) {
        const x = work.pop()!;
        if (body.has(x)) continue;
        body.add(x);
        work.push(...preds.get(x)!);
      }
    }

  // Nest: each block belongs to its innermost loop (the smallest body holding it).
  const build = (ids: readonly number[], outer: number | null): RunItem[] => {
    const items: RunItem[] = [];
    const placed = new Set<number>();
    for (const id of ids) {
      if (placed.has(id)) continue;
      const body = id !== outer ? members.get(id) : undefined;
      if (body) {
        const inner = ids.filter((x) => body.has(x));
        for (const x of inner) placed.add(x);
        items.push({ kind: 'loop', header: id, members: body, body: build(inner, id) });
      } else {
        placed.add(id);
        items.push({ kind: 'block', id });
      }
    }
    return items;
  };
  return build(order, null);
}
