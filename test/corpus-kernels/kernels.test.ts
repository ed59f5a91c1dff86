/**
 * The compiled corpus (../shared/corpus/compiled) on the reference interpreter: each wrapped
 * kernel × target is built into a capture in memory (code from code/, inputs from a seeded
 * generator, the expected output from the kernel's TypeScript rewrite), written, read back
 * and replayed. A pair must match, unless REFUSED lists it: then the refusal must be exactly
 * that reason. When the interpreter learns an instruction, the pairs it unblocks fail here:
 * update REFUSED (`npx tsx test/corpus-kernels/print-outcomes.ts` prints it).
 */
import { describe, expect, it } from 'vitest';
import { replaySpec } from './common.ts';
import { KERNELS } from './kernels.ts';
import { TARGETS } from './targets.ts';

/** `kernel target` → the interpreter's refusal reason. */
const REFUSED: Readonly<Record<string, string>> = {
  'radv/atomic_add_uniform gfx704':
    '0x10000028: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/atomic_add_uniform gfx803':
    '0x10000028: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/atomic_add_uniform gfx900':
    '0x10000028: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/atomic_add_uniform gfx1030w32':
    '0x10000028: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/atomic_add_uniform gfx1030w64':
    '0x10000028: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_if_loop gfx704':
    '0x1000000c: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_if_loop gfx803':
    '0x1000000c: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_if_loop gfx900':
    '0x1000000c: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_if_loop gfx1030w32':
    '0x1000000c: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_if_loop gfx1030w64':
    '0x1000000c: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/lds_prefix_sum gfx704':
    '0x10000014: v_add_i32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/lds_prefix_sum gfx803':
    '0x10000014: v_add_u32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/lds_prefix_sum gfx900':
    '0x10000010: v_lshl_add_u32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/lds_prefix_sum gfx1030w32':
    '0x10000010: v_lshl_add_u32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/lds_prefix_sum gfx1030w64':
    '0x10000010: v_lshl_add_u32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_loops gfx704':
    '0x10000010: v_mad_u32_u24: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_loops gfx803':
    '0x10000010: v_mad_u32_u24: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_loops gfx900':
    '0x10000010: v_lshl_add_u32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_loops gfx1030w32':
    '0x10000010: v_lshl_add_u32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'radv/divergent_loops gfx1030w64':
    '0x10000010: v_lshl_add_u32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/divergent_if_else gfx704':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/divergent_if_else gfx803':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/divergent_if_else gfx900':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/divergent_if_else gfx1030w32':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/divergent_if_else gfx1030w64':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/loop_break gfx704':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/loop_break gfx803':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/loop_break gfx900':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/loop_break gfx1030w32':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/loop_break gfx1030w64':
    '0x10000000: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_uniform gfx704':
    '0x1000000c: v_mbcnt_lo_u32_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_uniform gfx803':
    '0x10000014: v_mbcnt_lo_u32_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_uniform gfx900':
    '0x10000014: v_mbcnt_lo_u32_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_uniform gfx1030w32':
    '0x1000001c: v_mbcnt_lo_u32_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_uniform gfx1030w64':
    '0x1000001c: v_mbcnt_lo_u32_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_dpp gfx704':
    '0x10000008: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_dpp gfx803':
    '0x1000000c: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_dpp gfx900':
    '0x10000008: v_mbcnt_lo_u32_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_dpp gfx1030w32':
    '0x10000000: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_dpp gfx1030w64':
    '0x10000000: v_mov_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_iterative gfx704':
    '0x10000010: v_readlane_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_iterative gfx803':
    '0x10000010: v_readlane_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_iterative gfx900':
    '0x10000010: v_readlane_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_iterative gfx1030w32':
    '0x1000000c: v_readlane_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/atomic_add_divergent_iterative gfx1030w64':
    '0x1000000c: v_readlane_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/wave_reduce_umax gfx803':
    '0x10000008: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/wave_reduce_umax gfx900':
    '0x10000008: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/wave_reduce_umax gfx1030w32':
    '0x10000008: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
  'llvm/wave_reduce_umax gfx1030w64':
    '0x10000008: v_lshlrev_b32: vector ALU semantics (src/semantics/vector.ts) are not available yet',
};

/** Pairs the corpus has no build for (llc failed: llvm/FAILURES*.txt). */
const NO_BUILD = new Set(['llvm/wave_reduce_umax gfx704']);

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
