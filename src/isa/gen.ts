/**
 * Generations and processors. Every table in the instruction layer is keyed by `Gen`;
 * processors are spelled as `llvm-mc --mcpu` spells them.
 */

export const enum Gen {
  GFX7 = 0,
  GFX8 = 1,
  GFX9 = 2,
  GFX10 = 3, // gfx10.1 (gfx1010, gfx1013: the PS5 class)
  GFX10_3 = 4,
  GFX11 = 5,
}

export const ALL_GENS: readonly Gen[] = [Gen.GFX7, Gen.GFX8, Gen.GFX9, Gen.GFX10, Gen.GFX10_3, Gen.GFX11];

export const GEN_NAMES: Readonly<Record<Gen, string>> = {
  [Gen.GFX7]: 'gfx7',
  [Gen.GFX8]: 'gfx8',
  [Gen.GFX9]: 'gfx9',
  [Gen.GFX10]: 'gfx10.1',
  [Gen.GFX10_3]: 'gfx10.3',
  [Gen.GFX11]: 'gfx11',
};

/** `--mcpu` names we accept, and the generation each one is. */
export const PROCESSORS: Readonly<Record<string, Gen>> = {
  bonaire: Gen.GFX7,
  gfx700: Gen.GFX7,
  gfx701: Gen.GFX7,
  gfx702: Gen.GFX7,
  gfx704: Gen.GFX7,
  hawaii: Gen.GFX7,
  kaveri: Gen.GFX7,
  tonga: Gen.GFX8,
  gfx802: Gen.GFX8,
  gfx803: Gen.GFX8,
  fiji: Gen.GFX8,
  polaris10: Gen.GFX8,
  gfx900: Gen.GFX9,
  gfx906: Gen.GFX9,
  gfx1010: Gen.GFX10,
  gfx1011: Gen.GFX10,
  gfx1012: Gen.GFX10,
  gfx1013: Gen.GFX10,
  gfx1030: Gen.GFX10_3,
  gfx1031: Gen.GFX10_3,
  gfx1100: Gen.GFX11,
  gfx1101: Gen.GFX11,
  gfx1102: Gen.GFX11,
};

/** What the instruction layer needs to know about the machine a program runs on. */
export interface Target {
  readonly cpu: string;
  readonly gen: Gen;
  /** Wave size; gfx7-9 are always 64, gfx10+ default to 32 as llvm-mc does. */
  readonly wave64: boolean;
}

export class UnknownProcessorError extends Error {
  override readonly name = 'UnknownProcessorError';
  constructor(readonly cpu: string) {
    super(`unknown processor '${cpu}'; known: ${Object.keys(PROCESSORS).join(', ')}`);
  }
}

export function targetFor(cpu: string, wave64 = false): Target {
  const gen = PROCESSORS[cpu];
  if (gen === undefined) throw new UnknownProcessorError(cpu);
  return { cpu, gen, wave64: gen < Gen.GFX10 ? true : wave64 };
}

/** Is this generation RDNA (gfx10+), with wave32 and the gfx10 encodings? */
export function isRdna(gen: Gen): boolean {
  return gen >= Gen.GFX10;
}
