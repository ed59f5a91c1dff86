/**
 * The memory and image decoders' field extractors (decodeFields, one object literal per
 * layout, for speed: D010) against the layout tables the assembler packs from
 * (extractFields): the same fields, the same values and the same key order, for every
 * family and generation, on random dwords and on each single bit.
 */
import { describe, expect, it } from 'vitest';
import { ALL_GENS, GEN_NAMES } from '../../src/isa/gen.ts';
import {
  decodeFields as decodeMemFields,
  extractFields as extractMemFields,
  layoutOf,
  type MemFamily,
} from '../../src/isa/families/memory-layout.ts';
import {
  decodeFields as decodeImageFields,
  extractFields as extractImageFields,
} from '../../src/isa/families/image-layout.ts';

/** A fixed-seed generator, so a failure names dwords that reproduce. */
function words(seed: number, n: number): [number, number][] {
  let s = seed >>> 0;
  const next = (): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
  const out: [number, number][] = [
    [0, 0],
    [0xffffffff, 0xffffffff],
  ];
  for (let b = 0; b < 32; b++) {
    out.push([(1 << b) >>> 0, 0]);
    out.push([0, (1 << b) >>> 0]);
  }
  for (let i = 0; i < n; i++) out.push([next(), next()]);
  return out;
}

/** extractFields with gfx10 MTBUF's op_hi folded into op, as the codec wants the fields. */
function memReference(family: MemFamily, gen: (typeof ALL_GENS)[number], w0: number, w1: number) {
  const f = extractMemFields(layoutOf(family, gen), w0, w1);
  if ('op_hi' in f) {
    f.op |= f.op_hi << 3;
    delete f.op_hi;
  }
  return f;
}

describe('memory field extractors match the layout tables', () => {
  for (const family of ['DS', 'MUBUF', 'MTBUF', 'FLAT'] as const)
    for (const gen of ALL_GENS)
      it(`${family} ${GEN_NAMES[gen]}`, () => {
        for (const [w0, w1] of words(0x1030 + gen, 500)) {
          const want = memReference(family, gen, w0, w1);
          const got = decodeMemFields(family, gen, w0, w1);
          expect(Object.keys(got), `${w0.toString(16)} ${w1.toString(16)}`).toEqual(Object.keys(want));
          expect(got, `${w0.toString(16)} ${w1.toString(16)}`).toEqual(want);
        }
      });

  it('folds gfx10 MTBUF op_hi (dword 1 bit 21) into op bit 3', () => {
    const f = decodeMemFields('MTBUF', ALL_GENS[3], 0, 1 << 21);
    expect(f.op).toBe(8);
    expect('op_hi' in f).toBe(false);
  });
});

describe('image field extractors match the layout tables', () => {
  for (const gen of ALL_GENS)
    it(`MIMG ${GEN_NAMES[gen]}`, () => {
      for (const [w0, w1] of words(0x2030 + gen, 500)) {
        const want = extractImageFields(gen, w0, w1);
        const got = decodeImageFields(gen, w0, w1);
        expect(Object.keys(got), `${w0.toString(16)} ${w1.toString(16)}`).toEqual(Object.keys(want));
        expect(got, `${w0.toString(16)} ${w1.toString(16)}`).toEqual(want);
      }
    });
});
