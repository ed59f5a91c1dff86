/**
 * Which encoding family a first dword belongs to, per generation: the fixed prefix bits of
 * every family. Order matters where prefixes nest (VOP1/VOPC inside VOP2's bit 31 = 0,
 * SOP1/SOPC/SOPP/SOPK inside SOP2's 0b10).
 */
import { Gen } from './gen.ts';
import type { Family } from './registry/types.ts';

interface Prefix {
  readonly shift: number;
  readonly value: number;
  readonly family: Family;
}

const SCALAR_AND_VOP: readonly Prefix[] = [
  { shift: 23, value: 0x17d, family: 'SOP1' },
  { shift: 23, value: 0x17e, family: 'SOPC' },
  { shift: 23, value: 0x17f, family: 'SOPP' },
  { shift: 28, value: 0xb, family: 'SOPK' },
  { shift: 30, value: 0x2, family: 'SOP2' },
  { shift: 25, value: 0x3e, family: 'VOPC' },
  { shift: 25, value: 0x3f, family: 'VOP1' },
  { shift: 31, value: 0x0, family: 'VOP2' },
];

const PREFIXES: Readonly<Record<Gen, readonly Prefix[]>> = {
  [Gen.GFX7]: [
    ...SCALAR_AND_VOP,
    { shift: 27, value: 0x18, family: 'SMEM' },
    { shift: 26, value: 0x32, family: 'VINTRP' },
    { shift: 26, value: 0x34, family: 'VOP3' },
    { shift: 26, value: 0x36, family: 'DS' },
    { shift: 26, value: 0x37, family: 'FLAT' },
    { shift: 26, value: 0x38, family: 'MUBUF' },
    { shift: 26, value: 0x3a, family: 'MTBUF' },
    { shift: 26, value: 0x3c, family: 'MIMG' },
    { shift: 26, value: 0x3e, family: 'EXP' },
  ],
  [Gen.GFX8]: gcn3(false),
  [Gen.GFX9]: gcn3(true),
  [Gen.GFX10]: rdna(false),
  [Gen.GFX10_3]: rdna(false),
  [Gen.GFX11]: rdna(true),
};

function gcn3(vop3p: boolean): Prefix[] {
  return [
    ...SCALAR_AND_VOP,
    { shift: 26, value: 0x30, family: 'SMEM' },
    { shift: 26, value: 0x31, family: 'EXP' },
    ...(vop3p ? [{ shift: 23, value: 0x1a7, family: 'VOP3P' as const }] : []),
    { shift: 26, value: 0x34, family: 'VOP3' },
    { shift: 26, value: 0x35, family: 'VINTRP' },
    { shift: 26, value: 0x36, family: 'DS' },
    { shift: 26, value: 0x37, family: 'FLAT' },
    { shift: 26, value: 0x38, family: 'MUBUF' },
    { shift: 26, value: 0x3a, family: 'MTBUF' },
    { shift: 26, value: 0x3c, family: 'MIMG' },
  ];
}

function rdna(gfx11: boolean): Prefix[] {
  return [
    ...SCALAR_AND_VOP,
    { shift: 26, value: 0x3d, family: 'SMEM' },
    { shift: 24, value: 0xcc, family: 'VOP3P' },
    ...(gfx11
      ? [
          { shift: 24, value: 0xcd, family: 'VINTERP' as const },
          { shift: 24, value: 0xce, family: 'LDSDIR' as const },
          { shift: 26, value: 0x32, family: 'VOPD' as const },
        ]
      : [{ shift: 26, value: 0x32, family: 'VINTRP' as const }]),
    { shift: 26, value: 0x35, family: 'VOP3' },
    { shift: 26, value: 0x36, family: 'DS' },
    { shift: 26, value: 0x37, family: 'FLAT' },
    { shift: 26, value: 0x38, family: 'MUBUF' },
    { shift: 26, value: 0x3a, family: 'MTBUF' },
    { shift: 26, value: 0x3c, family: 'MIMG' },
    { shift: 26, value: 0x3e, family: 'EXP' },
  ];
}

/**
 * Per generation, the family of each value of a dword's top nine bits (every prefix above
 * is at least nine bits wide, shift 23 or more, so nine bits decide the family), built once
 * at module load from PREFIXES in their order: the decoder indexes it instead of trying
 * the prefixes one by one.
 */
const TOP9: readonly (readonly (Family | undefined)[])[] = [0, 1, 2, 3, 4, 5].map((gen) => {
  const table: (Family | undefined)[] = new Array<Family | undefined>(512).fill(undefined);
  for (let top = 0; top < 512; top++) {
    const dword0 = (top << 23) >>> 0;
    for (const p of PREFIXES[gen as Gen]) {
      if (dword0 >>> p.shift === p.value) {
        table[top] = p.family;
        break;
      }
    }
  }
  return table;
});

/** The family table of a generation: index it with `dword0 >>> 23`. */
export function familyTable(gen: Gen): readonly (Family | undefined)[] {
  return TOP9[gen];
}

/** The family whose prefix the dword carries in this generation, or undefined. */
export function familyOf(gen: Gen, dword0: number): Family | undefined {
  return TOP9[gen][dword0 >>> 23];
}
