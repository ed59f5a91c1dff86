import { describe, expect, it } from 'vitest';
import { runOrder, type RunItem } from './structure.ts';

/** The order of a graph given as successor lists, as text: blocks by id, loops as `loop h [ ... ]`. */
function orderOf(graph: Record<number, number[]>, entry = 0): string | null {
  const order = runOrder(entry, (id) => graph[id] ?? []);
  if (!order) return null;
  const show = (items: readonly RunItem[]): string =>
    items.map((i) => (i.kind === 'block' ? String(i.id) : `loop ${i.header} [${show(i.body)}]`)).join(' ');
  return show(order);
}

describe('runOrder (D028)', () => {
  it('puts a straight stretch in order', () => {
    expect(orderOf({ 0: [1], 1: [2], 2: [] })).toBe('0 1 2');
  });

  it('puts both arms of a branch before their join', () => {
    const order = orderOf({ 0: [1, 2], 1: [3], 2: [3], 3: [] })!;
    expect(order.endsWith(' 3')).toBe(true);
    expect(order.startsWith('0 ')).toBe(true);
  });

  it('nests a loop with its exit after it', () => {
    // 0 -> 1 (header) -> 2 -> 1 (back edge), 1 -> 3 (exit)
    expect(orderOf({ 0: [1], 1: [2, 3], 2: [1], 3: [] })).toBe('0 loop 1 [1 2] 3');
  });

  it('nests an inner loop inside an outer one', () => {
    // outer header 1, inner header 2 (2 -> 3 -> 2), inner exit 4 -> 1, outer exit 5
    const g = { 0: [1], 1: [2, 5], 2: [3, 4], 3: [2], 4: [1], 5: [] };
    expect(orderOf(g)).toBe('0 loop 1 [1 loop 2 [2 3] 4] 5');
  });

  it('takes a block that jumps to itself as a loop', () => {
    expect(orderOf({ 0: [1], 1: [1, 2], 2: [] })).toBe('0 loop 1 [1] 2');
  });

  it('gives null for a cycle with two entries (not reducible)', () => {
    // 0 -> 1 and 0 -> 2; 1 <-> 2: neither dominates the other.
    expect(orderOf({ 0: [1, 2], 1: [2], 2: [1, 3], 3: [] })).toBeNull();
  });

  it('leaves out blocks the entry does not reach', () => {
    expect(orderOf({ 0: [1], 1: [], 2: [1] })).toBe('0 1');
  });
});
