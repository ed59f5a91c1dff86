/**
 * The compiled corpus (../shared/corpus/compiled) on the reference interpreter: each wrapped
 * kernel × target is built into a capture in memory (code from code/, inputs from a seeded
 * generator, the expected output from the kernel's TypeScript rewrite), written, read back
 * and replayed. A pair must match, unless REFUSED lists it: then the refusal must be exactly
 * that reason. When the interpreter learns an instruction, the pairs it unblocks fail here:
 * regenerate refusals.ts (`npx tsx test/corpus-kernels/print-outcomes.ts --write`).
 */
import { describe, expect, it } from 'vitest';
import { replaySpec } from './common.ts';
import { KERNELS } from './kernels.ts';
import { REFUSED } from './refusals.ts';
import { TARGETS } from './targets.ts';

/** Pairs the corpus has no build for (llc failed: llvm/FAILURES*.txt). */
const NO_BUILD = new Set([
  'llvm/wave_reduce_umax gfx704',
  // llvm/FAILURES_ADDITIONS.txt: instructions the targets lack.
  'llvm/perm_b32 gfx704',
  'llvm/tbuffer_formats_d16 gfx704',
  'llvm/wave_scan_dpp gfx704',
  'llvm/dot_insts gfx704',
  'llvm/dot_insts gfx803',
  'llvm/dot_insts gfx900',
]);

describe('compiled corpus kernels on the interpreter', () => {
  for (const k of KERNELS)
    describe(k.id, () => {
      for (const t of TARGETS) {
        const key = `${k.id} ${t.name}`;
        it(t.name, async () => {
          const spec = k.spec(t);
          if (spec === undefined) {
            expect(NO_BUILD.has(key)).toBe(true);
            return;
          }
          const o = await replaySpec(spec);
          const refused = REFUSED[key];
          if (refused === undefined) {
            expect(o.kind === 'refused' || o.kind === 'invalid' ? `${o.kind}: ${o.reason}` : o.kind).toBe('match');
          } else {
            expect(o.kind).toBe('refused');
            expect(o.kind === 'refused' ? o.reason : '').toBe(refused);
          }
        });
      }
    });

  it('lists no pair twice and none that is not wrapped', () => {
    const keys = new Set(KERNELS.flatMap((k) => TARGETS.map((t) => `${k.id} ${t.name}`)));
    for (const key of [...Object.keys(REFUSED), ...NO_BUILD]) expect(keys.has(key)).toBe(true);
  });
});
