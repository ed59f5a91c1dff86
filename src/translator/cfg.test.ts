/**
 * The control-flow graph (cfg.ts) of assembled programs: blocks split at branch targets and after
 * branches, both ways at a conditional branch, nothing after s_endpgm, and the interpreter's
 * refusal for an instruction it cannot run, before any block is made.
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { targetFor } from '../isa/gen.ts';
import { InterpRefusal, Program } from '../interp/execute.ts';
import { GuestMemory } from '../interp/memory.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { buildCfg, successors } from './cfg.ts';

const CODE = 0x10000000;

async function cfgOf(cpu: string, asm: string): Promise<ReturnType<typeof buildCfg>> {
  const target = targetFor(cpu);
  const words = assembleProgram(target, asm).words;
  const memory = new GuestMemory([{ address: CODE, bytes: new Uint8Array(words.buffer) }]);
  return buildCfg(new Program(target, memory, CODE, await loadVectorBridge()));
}

describe('the CFG of a program', () => {
  it('splits a counted loop into its blocks, with the back edge and the exit', async () => {
    const g = await cfgOf(
      'gfx1030',
      `s_mov_b32 s0, 4
loop:
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 loop
  v_mov_b32 v0, s0
  s_endpgm
  s_nop 0`,
    );
    const starts = [...g.blocks.keys()];
    expect(starts).toEqual([0, 4, 16]);
    expect(g.blocks.get(0)!.exit).toEqual({ kind: 'fall', next: 4 });
    expect(g.blocks.get(4)!.exit).toEqual({ kind: 'branch', name: 's_cbranch_scc1', taken: 4, next: 16 });
    expect(g.blocks.get(16)!.exit).toEqual({ kind: 'endpgm' });
    expect(g.blocks.get(16)!.instructions.map((d) => d.inst.def.name)).toEqual(['v_mov_b32', 's_endpgm']);
    expect(successors(g.blocks.get(4)!)).toEqual([4, 16]);
  });

  it('follows s_branch to its target and skips what it jumps over', async () => {
    const g = await cfgOf(
      'gfx900',
      `s_branch over
  v_mov_b32 v0, 1
over:
  s_cbranch_execz done
  v_mov_b32 v0, 2
done:
  s_endpgm`,
    );
    expect([...g.blocks.keys()]).toEqual([0, 8, 12, 16]);
    expect(g.blocks.get(0)!.exit).toEqual({ kind: 'jump', target: 8 });
    expect(g.blocks.get(8)!.exit).toEqual({ kind: 'branch', name: 's_cbranch_execz', taken: 16, next: 12 });
    expect(g.blocks.get(12)!.exit).toEqual({ kind: 'fall', next: 16 });
  });

  it('refuses, as the interpreter does, an instruction that cannot run', async () => {
    await expect(cfgOf('gfx900', 's_setpc_b64 s[0:1]\ns_endpgm')).rejects.toBeInstanceOf(InterpRefusal);
  });
});
