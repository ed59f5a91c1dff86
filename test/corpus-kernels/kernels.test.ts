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
  'radv/atomic_add_uniform gfx704': '0x10000040: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/atomic_add_uniform gfx803': '0x10000040: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/atomic_add_uniform gfx900': '0x10000040: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/atomic_add_uniform gfx1030w32': '0x10000040: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/atomic_add_uniform gfx1030w64': '0x10000040: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/divergent_if_loop gfx704': '0x10000094: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/divergent_if_loop gfx803': '0x10000090: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/divergent_if_loop gfx900': '0x10000090: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/divergent_if_loop gfx1030w32': '0x10000094: v_readfirstlane_b32: wave-level: reads the first active lane',
  'radv/divergent_if_loop gfx1030w64': '0x10000090: v_readfirstlane_b32: wave-level: reads the first active lane',
  'llvm/atomic_add_uniform gfx704': '0x10000058: v_readfirstlane_b32: wave-level: reads the first active lane',
  'llvm/atomic_add_uniform gfx803': '0x10000064: v_readfirstlane_b32: wave-level: reads the first active lane',
  'llvm/atomic_add_uniform gfx900': '0x10000060: v_readfirstlane_b32: wave-level: reads the first active lane',
  'llvm/atomic_add_uniform gfx1030w32': '0x10000050: v_readfirstlane_b32: wave-level: reads the first active lane',
  'llvm/atomic_add_uniform gfx1030w64': '0x10000058: v_readfirstlane_b32: wave-level: reads the first active lane',
  'llvm/atomic_add_divergent_dpp gfx803':
    '0x10000038: v_add_u32: the VOP2_DPP encoding reads other lanes or sub-dwords: wave-level',
  'llvm/atomic_add_divergent_dpp gfx900':
    '0x10000030: v_add_u32: the VOP2_DPP encoding reads other lanes or sub-dwords: wave-level',
  'llvm/atomic_add_divergent_dpp gfx1030w32':
    '0x10000014: v_add_nc_u32: the VOP2_DPP encoding reads other lanes or sub-dwords: wave-level',
  'llvm/atomic_add_divergent_dpp gfx1030w64':
    '0x10000014: v_add_nc_u32: the VOP2_DPP encoding reads other lanes or sub-dwords: wave-level',
  'llvm/atomic_add_divergent_iterative gfx704':
    '0x10000010: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/atomic_add_divergent_iterative gfx803':
    '0x10000010: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/atomic_add_divergent_iterative gfx900':
    '0x10000010: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/atomic_add_divergent_iterative gfx1030w32':
    '0x1000000c: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/atomic_add_divergent_iterative gfx1030w64':
    '0x1000000c: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/wave_reduce_umax gfx803': '0x1000003c: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/wave_reduce_umax gfx900': '0x1000002c: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/wave_reduce_umax gfx1030w32': '0x1000002c: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
  'llvm/wave_reduce_umax gfx1030w64': '0x1000002c: v_readlane_b32: wave-level: reads one lane chosen by an SGPR',
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
