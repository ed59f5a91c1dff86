import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { targetFor } from '../isa/gen.ts';
import { disassembleListing, hex32 } from './listing.ts';

const sample = new Uint8Array(
  readFileSync(fileURLToPath(new URL('../../public/samples/gfx1030w32_lds_prefix_sum.bin', import.meta.url))),
);

describe('disassembleListing', () => {
  it('covers every dword of the bundled sample once, in order', () => {
    const listing = disassembleListing(targetFor('gfx1030'), sample);
    expect(listing.lines.length).toBeGreaterThan(0);
    expect(listing.decoded + listing.errors).toBe(listing.lines.length);
    let expectOffset = 0;
    for (const line of listing.lines) {
      expect(line.offset).toBe(expectOffset);
      expect(line.text !== undefined || line.error !== undefined).toBe(true);
      expectOffset += line.words.length * 4;
    }
    expect(expectOffset).toBe(sample.length);
    expect(hex32(listing.lines[0].words[0])).toBe('be800303'); // s_mov_b32 s0, s3
  });

  it('reports trailing bytes', () => {
    const listing = disassembleListing(targetFor('gfx1030'), sample.subarray(0, 6));
    expect(listing.trailingBytes).toBe(2);
    expect(listing.lines[0].offset).toBe(0);
  });
});

describe('branch labels', () => {
  it('names each branch target once and spells the branch with it', () => {
    const listing = disassembleListing(targetFor('gfx1030'), sample);
    const labelled = listing.lines.filter((l) => l.label);
    expect(labelled.length).toBeGreaterThan(0);
    const branches = listing.lines.filter((l) => /^s_(branch|cbranch_\w+) \.L_/.test(l.text ?? ''));
    expect(branches.length).toBeGreaterThan(0);
    for (const b of branches) {
      const label = /(\.L_[0-9a-f]+)$/.exec(b.text ?? '')?.[1];
      expect(
        labelled.some((l) => l.label === label),
        `${b.text} targets a labelled line`,
      ).toBe(true);
    }
  });
});
