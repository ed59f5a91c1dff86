/**
 * Control flow from hand-written programs (assembled from text) and from the corpus: blocks and
 * their exits, edge kinds, reverse post-order, dominators, natural loops and their nesting, and
 * the named refusals for what the tracer does not follow.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { bytesToWords } from '../isa/decoder.ts';
import { targetFor, type Target } from '../isa/gen.ts';
import { TARGETS } from '../../test/corpus-kernels/targets.ts';
import { blockContaining, buildCfg, cfgRefusals, dominates, instructionDominates, loopsContaining } from './cfg.ts';
import { blockId } from './ids.ts';

const words = (t: Target, source: string): Uint32Array => assembleProgram(t, source).words;
const corpus = (file: string): Uint32Array =>
  bytesToWords(new Uint8Array(readFileSync(join(import.meta.dirname, '../../test/corpus-kernels/code', file))));

describe('buildCfg on hand-written programs', () => {
  const gfx9 = targetFor('gfx900');

  it('cuts an if/else into four blocks with the taken, not-taken, jump and fall-through edges', () => {
    const cfg = buildCfg(
      gfx9,
      words(
        gfx9,
        `
        s_cmp_eq_u32 s0, 0
        s_cbranch_scc1 other
        s_mov_b32 s1, 1
        s_branch done
      other:
        s_mov_b32 s1, 2
      done:
        s_endpgm`,
      ),
    );
    expect(cfg.blocks.map((b) => [b.start, b.end, b.exit.kind])).toEqual([
      [0, 8, 'branch'],
      [8, 16, 'jump'],
      [16, 20, 'falls-through'],
      [20, 24, 'end-program'],
    ]);
    expect(cfg.edges.map((e) => [e.from, e.to, e.kind, e.condition])).toEqual([
      [0, 2, 'taken', 'scc1'],
      [0, 1, 'not-taken', 'scc1'],
      [1, 3, 'jump', undefined],
      [2, 3, 'fall-through', undefined],
    ]);
    expect(cfg.blocks[3].predecessors).toEqual([1, 2]);
    expect(cfg.immediateDominator).toEqual([undefined, 0, 0, 0]);
    expect(cfg.reversePostOrder[0]).toBe(0);
    expect(cfg.reversePostOrder.at(-1)).toBe(3);
    expect(cfg.loops).toEqual([]);
    expect(dominates(cfg, blockId(1), blockId(3))).toBe(false);
    expect(instructionDominates(cfg, 0, 20)).toBe(true);
    expect(instructionDominates(cfg, 8, 20)).toBe(false);
  });

  it('finds nested loops from their back edges, the inner one inside the outer', () => {
    const cfg = buildCfg(
      gfx9,
      words(
        gfx9,
        `
        s_mov_b32 s0, 0
      outer:
        s_mov_b32 s1, 0
      inner:
        s_add_u32 s1, s1, 1
        s_cmp_lt_u32 s1, 4
        s_cbranch_scc1 inner
        s_add_u32 s0, s0, 1
        s_cmp_lt_u32 s0, 4
        s_cbranch_scc1 outer
        s_endpgm`,
      ),
    );
    const header = (a: number) => blockContaining(cfg, a)!.id;
    expect(cfg.loops).toHaveLength(2);
    const [outer, inner] = cfg.loops;
    expect(outer.header).toBe(header(4));
    expect(inner.header).toBe(header(8));
    expect(inner.parent).toBe(0);
    expect([outer.depth, inner.depth]).toEqual([1, 2]);
    expect([...inner.blocks]).toEqual([header(8)]);
    expect(inner.latches).toEqual([header(8)]);
    expect([...outer.blocks].sort()).toEqual([header(4), header(8), header(0x14)].sort());
    expect(loopsContaining(cfg, header(8)).map((l) => l.depth)).toEqual([2, 1]);
    expect(cfg.irreducibleEdges).toEqual([]);
  });

  it('ends a path at the caller’s end address, at s_code_end and past the end of the code', () => {
    const gfx10 = targetFor('gfx1030');
    const withEnd = buildCfg(gfx10, words(gfx10, 's_mov_b32 s0, 0\ns_mov_b32 s1, 0\ns_endpgm'), { end: 4 });
    expect(withEnd.blocks.map((b) => [b.start, b.exit.kind])).toEqual([
      [0, 'falls-through'],
      [4, 'return'],
    ]);
    const codeEnd = buildCfg(gfx10, words(gfx10, 's_mov_b32 s0, 0\ns_code_end'));
    expect(codeEnd.blocks[0].exit).toEqual({ kind: 'code-end', detail: 's_code_end' });
    const runsOff = buildCfg(gfx10, words(gfx10, 's_mov_b32 s0, 0'));
    expect(runsOff.blocks.at(-1)!.exit.kind).toBe('code-end');
    const fromEntry = buildCfg(gfx10, words(gfx10, 's_endpgm\ns_mov_b32 s0, 0\ns_endpgm'), { entry: 4 });
    expect(fromEntry.blocks.map((b) => b.start)).toEqual([4]);
  });

  it('refuses by name what it does not follow: an indirect jump, a branch into a literal, a word that does not decode', () => {
    const indirect = buildCfg(gfx9, words(gfx9, 's_getpc_b64 s[0:1]\ns_setpc_b64 s[0:1]\ns_endpgm'));
    expect(cfgRefusals(indirect)).toEqual([{ at: 4, reason: expect.stringMatching(/^s_setpc_b64 writes the PC/) }]);
    expect(indirect.blocks).toHaveLength(1);

    const w = words(gfx9, 's_cbranch_scc1 done\ns_mov_b32 s0, 0x12345678\ndone:\ns_endpgm');
    w[0] = (w[0] & 0xffff0000) | 1; // now the branch goes to byte 8: the literal of the move at 4
    const intoLiteral = buildCfg(gfx9, w);
    expect(cfgRefusals(intoLiteral)).toEqual([
      { at: 8, reason: 'a branch goes to 0x8, inside the instruction at 0x4' },
    ]);

    const gfx10 = targetFor('gfx1030');
    const bad = Uint32Array.from([...words(gfx10, 's_mov_b32 s0, 0'), 0xffffffff]);
    expect(cfgRefusals(buildCfg(gfx10, bad))).toEqual([
      { at: 4, reason: expect.stringMatching(/^the word at 0x4 does not decode/) },
    ]);
  });
});

describe('buildCfg on the corpus', () => {
  for (const t of TARGETS) {
    const target = targetFor(t.mcpu, t.wave64);
    it(`${t.name}: RADV's two waterfalls (nonuniform_sampler_and_texture) are two loops, each around one sample`, () => {
      const cfg = buildCfg(target, corpus(`radv_${t.name}_nonuniform_sampler_and_texture.bin`));
      expect(cfg.loops).toHaveLength(2);
      const samples = cfg.blocks.flatMap((b) => b.instructions).filter((i) => i.def.name.startsWith('image_sample'));
      expect(samples).toHaveLength(2);
      const loopsOf = samples.map((s) => loopsContaining(cfg, blockContaining(cfg, s.offset)!.id));
      expect(loopsOf.map((l) => l.length)).toEqual([1, 1]);
      expect(loopsOf[0][0]).not.toBe(loopsOf[1][0]);
      expect(cfg.blocks.filter((b) => b.exit.kind === 'end-program')).toHaveLength(1);
    });

    it(`${t.name}: LLVM's waterfall (waterfall_image_load) loops back on s_cbranch_execnz`, () => {
      const cfg = buildCfg(target, corpus(`llvm_${t.name}_waterfall_image_load.bin`));
      expect(cfg.loops).toHaveLength(1);
      const loop = cfg.loops[0];
      const latch = cfg.blocks[loop.latches[0]];
      expect(latch.instructions.at(-1)!.def.name).toBe('s_cbranch_execnz');
      expect(latch.exit).toMatchObject({ kind: 'branch', condition: 'execnz', target: cfg.blocks[loop.header].start });
      const load = cfg.blocks.flatMap((b) => b.instructions).find((i) => i.def.name === 'image_load')!;
      expect(loop.blocks.has(blockContaining(cfg, load.offset)!.id)).toBe(true);
    });
  }
});
