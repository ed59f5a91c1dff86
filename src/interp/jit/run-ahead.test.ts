/**
 * Run-ahead (compiled-alu.ts, D014) must not change the round-robin: a wave that runs ALU code
 * ahead sits out as many rounds, so a racy store lands in the same order as when every wave
 * steps one instruction a turn, and a step-limit refusal names the same instruction.
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../../isa/asm.ts';
import { targetFor } from '../../isa/gen.ts';
import { runSetup } from '../dispatch.ts';
import { GuestMemory } from '../memory.ts';
import { loadVectorBridge } from '../vector-bridge.ts';

const CODE = 0x10000000;
const DATA = 0x40000000;

async function run(asm: string, compiled: boolean, maxSteps?: number) {
  const target = targetFor('gfx1030');
  const code = assembleProgram(target, asm).words;
  const memory = new GuestMemory([
    { address: CODE, bytes: new Uint8Array(code.buffer) },
    { address: DATA, bytes: new Uint8Array(4) },
  ]);
  try {
    const r = runSetup(
      {
        kind: 'dispatch',
        target,
        programAddress: CODE,
        rsrc2: (2 << 1) | (1 << 10), // s0, s1 user data, then the TG_SIZE word in s2
        userData: [DATA, 0, ...new Array<number>(14).fill(0)],
        numThreads: [64, 1, 1],
        grid: [1, 1, 1],
      },
      memory,
      { vector: await loadVectorBridge(), compiled, maxSteps },
    );
    return { stored: memory.read32(DATA), steps: r.steps, laneOps: r.laneOps, compiled: r.compiledInstructions };
  } catch (e) {
    return { threw: (e as Error).message };
  }
}

describe('run-ahead keeps the round-robin order', () => {
  it('a racy store from two waves lands last from the wave that reaches it last', async () => {
    // Wave 0 runs 12 more ALU instructions than wave 1 before the same store: stepped one a
    // turn, wave 1 stores first and wave 0's id is what stays.
    const asm = [
      's_bfe_u32 s3, s2, 0x60006', // the wave's index in its group
      's_cmp_eq_u32 s3, 0',
      's_cbranch_scc0 store',
      ...Array.from({ length: 6 }, () => ['s_add_u32 s4, s4, 1', 'v_add_nc_u32 v3, v3, 1']).flat(),
      'store:',
      'v_mov_b32 v0, s0',
      'v_mov_b32 v1, s1',
      'v_mov_b32 v2, s3',
      'global_store_dword v[0:1], v2, off',
      's_endpgm',
    ].join('\n');
    const on = await run(asm, true);
    const off = await run(asm, false);
    expect(off).toMatchObject({ stored: 0 });
    expect(on).toEqual({ ...off, compiled: expect.any(Number) });
    expect(on.compiled).toBeGreaterThan(5);
  });

  it('a step-limit refusal names the same instruction', async () => {
    const asm = [
      's_mov_b32 s4, 100000',
      'loop:',
      's_sub_u32 s4, s4, 1',
      'v_add_nc_u32 v3, v3, s4',
      's_cmp_lg_u32 s4, 0',
      's_cbranch_scc1 loop',
      's_endpgm',
    ].join('\n');
    for (const limit of [5000, 5001, 5003, 12345]) {
      const on = await run(asm, true, limit);
      const off = await run(asm, false, limit);
      expect(on).toEqual(off);
      expect(on).toHaveProperty('threw', expect.stringContaining(`past the step limit of ${limit}`));
    }
  });
});
