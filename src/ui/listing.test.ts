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
