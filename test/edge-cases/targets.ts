/**
 * The targets edge cases run on: the corpus's five (gfx7 bonaire-class gfx704, gfx8 gfx803,
 * gfx9 gfx900, gfx10.3 gfx1030 in wave32 and wave64) and gfx11 (gfx1100, wave32 and wave64).
 * Each carries the register spellings that differ between them, so a case's body is written once.
 */
import { Gen } from '../../src/isa/gen.ts';

export interface EdgeTarget {
  readonly name: 'gfx704' | 'gfx803' | 'gfx900' | 'gfx1030w32' | 'gfx1030w64' | 'gfx1100w32' | 'gfx1100w64';
  readonly mcpu: 'gfx704' | 'gfx803' | 'gfx900' | 'gfx1030' | 'gfx1100';
  readonly gen: Gen;
  readonly wave64: boolean;
  readonly waveSize: 32 | 64;
  /** The lane-mask spelling of VCC: `vcc`, or `vcc_lo` in wave32. */
  readonly vcc: string;
  /** The EXEC spelling of a lane mask. */
  readonly exec: string;
  /** The `_b32`/`_b64` suffix of lane-mask scalar instructions (s_mov_b64 exec vs s_mov_b32 exec_lo). */
  readonly maskBits: 32 | 64;
}

function target(name: EdgeTarget['name'], mcpu: EdgeTarget['mcpu'], gen: Gen, wave64: boolean): EdgeTarget {
  return {
    name,
    mcpu,
    gen,
    wave64,
    waveSize: wave64 ? 64 : 32,
    vcc: wave64 ? 'vcc' : 'vcc_lo',
    exec: wave64 ? 'exec' : 'exec_lo',
    maskBits: wave64 ? 64 : 32,
  };
}

export const EDGE_TARGETS: readonly EdgeTarget[] = [
  target('gfx704', 'gfx704', Gen.GFX7, true),
  target('gfx803', 'gfx803', Gen.GFX8, true),
  target('gfx900', 'gfx900', Gen.GFX9, true),
  target('gfx1030w32', 'gfx1030', Gen.GFX10_3, false),
  target('gfx1030w64', 'gfx1030', Gen.GFX10_3, true),
  target('gfx1100w32', 'gfx1100', Gen.GFX11, false),
  target('gfx1100w64', 'gfx1100', Gen.GFX11, true),
];

/** A lane-mask SGPR pair (wave64) or single SGPR (wave32) starting at s`n`, as an operand. */
export function maskReg(t: EdgeTarget, n: number): string {
  return t.wave64 ? `s[${n}:${n + 1}]` : `s${n}`;
}

/** Target filters for `EdgeCase.targets`. */
export const all = (): boolean => true;
export const from =
  (g: Gen) =>
  (t: EdgeTarget): boolean =>
    t.gen >= g;
export const upTo =
  (g: Gen) =>
  (t: EdgeTarget): boolean =>
    t.gen <= g;
export const only =
  (...gs: Gen[]) =>
  (t: EdgeTarget): boolean =>
    gs.includes(t.gen);
