/**
 * The tracer's constant folding runs the shared semantics (D003); these are the shapes of
 * D983 (`../shared/seeds/002_…`: samplers built in s[44:47] with s_movk_i32, s_bfm_b32,
 * s_mov_b32, s_brev_b32, and in s[48:51] with s_bitreplicate_b64_b32 and s_mov_b64).
 */
import { describe, expect, it } from 'vitest';
import { assembleLine } from '../isa/asm.ts';
import { decodeAt } from '../isa/decoder.ts';
import { GEN_NAMES, targetFor, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { lookupName } from '../isa/registry/registry.ts';
import { SRC_SCC } from './context.ts';
import { foldScalar } from './fold.ts';

function assemble(t: Target, text: string): Instruction {
  const r = assembleLine(t, text);
  if (!r.words) throw new Error(`${text}: ${r.error?.message}`);
  return decodeAt(t, Uint32Array.from(r.words), 0);
}

/** Folds a program in order, as the tracer does, keeping what becomes known. */
function foldAll(t: Target, lines: readonly string[], initial: Record<number, number> = {}): Map<number, number> {
  const known = new Map(Object.entries(initial).map(([k, v]) => [Number(k), v]));
  for (const line of lines) {
    const r = foldScalar(t, assemble(t, line), (c) => known.get(c));
    expect(r, `${GEN_NAMES[t.gen]}: ${line} folds`).toBeDefined();
    for (const [c, v] of r!.writes) known.set(c, v);
    if (r!.scc !== undefined) known.set(SRC_SCC, r!.scc ? 1 : 0);
  }
  return known;
}

const words = (m: Map<number, number>, from: number, n: number): (number | undefined)[] =>
  Array.from({ length: n }, (_, i) => m.get(from + i));

describe('foldScalar on the D983 shapes', () => {
  it('a sampler built with s_movk_i32, s_bfm_b32, s_mov_b32, s_brev_b32 (gfx1013, every generation)', () => {
    for (const cpu of ['hawaii', 'tonga', 'gfx900', 'gfx1013', 'gfx1030', 'gfx1100']) {
      const t = targetFor(cpu);
      const k = foldAll(t, [
        's_movk_i32 s44, 0x8000',
        's_bfm_b32 s45, 12, 20',
        's_mov_b32 s46, 0x1ff00',
        's_brev_b32 s47, 1',
      ]);
      expect(words(k, 44, 4), cpu).toEqual([0xffff8000, 0xfff00000, 0x1ff00, 0x80000000]);
    }
  });
  it('a sampler built with s_bitreplicate_b64_b32 and s_mov_b64 of literals (gfx9+)', () => {
    for (const cpu of ['gfx900', 'gfx1013', 'gfx1030', 'gfx1100']) {
      const t = targetFor(cpu);
      expect(lookupName(t.gen, 's_bitreplicate_b64_b32').length).toBe(1);
      const k = foldAll(t, [
        's_bitreplicate_b64_b32 s[48:49], 0x80000003',
        's_mov_b64 s[50:51], 0x80000000',
        's_mov_b64 s[52:53], -2',
      ]);
      expect(words(k, 48, 6), cpu).toEqual([0xf, 0xc0000000, 0x80000000, 0, 0xfffffffe, 0xffffffff]);
    }
  });
  it('folds through registers once they are known, and SCC with them', () => {
    const t = targetFor('gfx1013');
    const k = foldAll(t, [
      's_brev_b32 s47, 1',
      's_or_b32 s0, s47, 0x10',
      's_add_u32 s1, s47, s47',
      's_addc_u32 s2, 0, 0',
      's_cselect_b32 s3, 5, 6',
    ]);
    // s_add_u32 carries 1 into SCC; s_addc_u32 0 + 0 + 1 carries nothing, so s_cselect picks 6.
    expect(words(k, 0, 4)).toEqual([0x80000010, 0, 1, 6]);
  });
});

describe('foldScalar refuses what it cannot know', () => {
  const t = targetFor('gfx900');
  const none = (): undefined => undefined;
  it('an unknown register source gives undefined', () => {
    expect(foldScalar(t, assemble(t, 's_or_b32 s0, s1, 1'), none)).toBeUndefined();
    expect(foldScalar(t, assemble(t, 's_or_b32 s0, s1, 1'), (c) => (c === 1 ? 2 : undefined))?.writes.get(0)).toBe(3);
  });
  it('an unknown SCC gives undefined where the instruction reads SCC, and SCC is asked for under code 253', () => {
    expect(foldScalar(t, assemble(t, 's_cselect_b32 s0, 1, 2'), none)).toBeUndefined();
    expect(
      foldScalar(t, assemble(t, 's_cselect_b32 s0, 1, 2'), (c) => (c === SRC_SCC ? 0 : undefined))?.writes.get(0),
    ).toBe(2);
  });
  it('instructions without semantics, or needing the PC, give undefined', () => {
    expect(foldScalar(t, assemble(t, 's_setpc_b64 s[0:1]'), () => 0)).toBeUndefined();
    expect(foldScalar(t, assemble(t, 's_getpc_b64 s[0:1]'), () => 0)).toBeUndefined();
    expect(foldScalar(t, assemble(t, 's_getreg_b32 s0, hwreg(HW_REG_MODE)'), () => 0)).toBeUndefined();
    expect(foldScalar(t, assemble(t, 'v_mov_b32 v0, 1'), () => 0)).toBeUndefined();
  });
  it('an instruction with no register source folds with nothing known, and reports only what it writes', () => {
    const r = foldScalar(t, assemble(t, 's_movk_i32 s5, 0x7fff'), none);
    expect(r).toEqual({ writes: new Map([[5, 0x7fff]]) });
    expect(foldScalar(t, assemble(t, 's_cmp_eq_u32 1, 1'), none)).toEqual({ writes: new Map(), scc: true });
  });
  it('EXEC and M0 are registers like any other: saveexec and movrels fold when they are known', () => {
    const exec: Record<number, number> = { 126: 0xff, 127: 0, 2: 0x0f, 3: 0 };
    const r = foldScalar(t, assemble(t, 's_and_saveexec_b64 s[0:1], s[2:3]'), (c) => exec[c]);
    expect(r && [...r.writes].sort((a, b) => a[0] - b[0])).toEqual([
      [0, 0xff],
      [1, 0],
      [126, 0x0f],
      [127, 0],
    ]);
    expect(r?.scc).toBe(true);
    const m0: Record<number, number> = { 124: 3, 13: 42 };
    expect(foldScalar(t, assemble(t, 's_movrels_b32 s0, s10'), (c) => m0[c])?.writes.get(0)).toBe(42);
    expect(foldScalar(t, assemble(t, 's_movrels_b32 s0, s10'), (c) => (c === 13 ? 42 : undefined))).toBeUndefined();
  });
});
