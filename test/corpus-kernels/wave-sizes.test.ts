/**
 * Issue 4: "a wave64 program and its wave32 build give the same memory result". The corpus
 * has every kernel compiled for gfx1030 wave32 and wave64. Where a kernel's contract does not
 * depend on the wave size, its two specs hold the same inputs and the same expected memory;
 * both builds must then match that one expectation on the interpreter, so they leave the same
 * memory. (Kernels whose results are per subgroup, such as subgroup sums, differ by contract
 * and are counted apart.)
 */
import { describe, expect, it } from 'vitest';
import { replaySpec, type Spec } from './common.ts';
import { KERNELS } from './kernels.ts';
import { REFUSED } from './refusals.ts';
import { TARGETS } from './targets.ts';

const W32 = TARGETS.find((t) => t.name === 'gfx1030w32')!;
const W64 = TARGETS.find((t) => t.name === 'gfx1030w64')!;

/** What a build's result is judged by: its input memory and its expectation, without the code. */
function contract(spec: Spec): string {
  const { program: _program, wave64: _wave64, ...rest } = spec;
  return JSON.stringify(rest);
}

describe('wave32 and wave64 builds of one kernel leave the same memory', () => {
  const same = KERNELS.filter((k) => {
    const a = k.spec(W32);
    const b = k.spec(W64);
    const runs = REFUSED[`${k.id} ${W32.name}`] === undefined && REFUSED[`${k.id} ${W64.name}`] === undefined;
    return runs && a !== undefined && b !== undefined && contract(a) === contract(b);
  });

  it('most kernels have one contract for both wave sizes', () => {
    console.log(`${same.length} of ${KERNELS.length} kernels run both builds against one expectation`);
    expect(same.length).toBeGreaterThanOrEqual(20);
  });

  for (const k of same)
    it(k.id, async () => {
      for (const t of [W32, W64]) {
        const o = await replaySpec(k.spec(t)!);
        expect(o.kind === 'refused' || o.kind === 'invalid' ? `${t.name}: ${o.reason}` : o.kind).toBe('match');
      }
    });
});
