/**
 * The directory builder and the host's search (the shared `lookupDescriptor` on the concrete
 * algebra): every descriptor at its place, a missing one and the other shape escape, reordered
 * places are still found, and colliding hashes make the table grow until each is within 4 slots.
 */
import { describe, expect, it } from 'vitest';
import { buildDirectory, findInDirectory, hostDescriptorHash, type DirectoryEntry } from './directory.ts';
import { DirectoryError } from './errors.ts';
import { CUBE_TAG_BIT, DIRECTORY_HEADER_WORDS, DIRECTORY_PROBES, SLOT_WORDS } from './hash.ts';
import { imagePlace } from './ids.ts';

/** A T#-like record whose base address (dw0) is `n`. */
const record = (n: number, dw3 = 0x90000000): number[] => [n >>> 0, 0x0a900000, 0x001c001f, dw3, 0, 0, 0, 0];

const entriesOf = (words: readonly number[][], cubeAt = new Set<number>()): DirectoryEntry[] =>
  words.map((w, i) => ({ words: w, place: imagePlace(i), cube: cubeAt.has(i) }));

/** Records whose hashes share their low `bits` bits, the first `n` found from `start`. */
function colliding(n: number, bits: number, want: number, start: number, extra?: (h: number) => boolean): number[][] {
  const out: number[][] = [];
  for (let i = start; out.length < n; i++) {
    const w = record(i);
    const h = hostDescriptorHash(w);
    if ((h & ((1 << bits) - 1)) === want && (extra === undefined || extra(h))) out.push(w);
  }
  return out;
}

describe('the descriptor directory', () => {
  it('finds every descriptor at its place, in its shape, and packs the documented layout', () => {
    const words = Array.from({ length: 100 }, (_, i) => record(0x4000 + i * 3, i % 7 === 0 ? 0xb0000000 : 0x90000000));
    const cubes = new Set(words.flatMap((_, i) => (i % 7 === 0 ? [i] : [])));
    const dir = buildDirectory(entriesOf(words, cubes));
    expect(dir.slotCount).toBeGreaterThanOrEqual(200);
    expect(dir.slotCount & (dir.slotCount - 1)).toBe(0);
    expect(dir.packed.length).toBe(DIRECTORY_HEADER_WORDS + dir.slotCount * SLOT_WORDS);
    expect(dir.packed[0]).toBe(dir.slotCount);
    for (const [i, w] of words.entries()) {
      expect(findInDirectory(dir.packed, w, cubes.has(i))).toEqual({ place: i, found: true });
      expect(findInDirectory(dir.packed, w, !cubes.has(i)), 'the other shape').toEqual({ place: 0, found: false });
    }
    for (const s of dir.slots) {
      const at = DIRECTORY_HEADER_WORDS + s.index * SLOT_WORDS;
      expect(Array.from(dir.packed.subarray(at, at + 8))).toEqual(s.entry.words);
      expect(dir.packed[at + 8]).toBe(((s.entry.place + 1) | (s.entry.cube ? CUBE_TAG_BIT : 0)) >>> 0);
      expect((s.index - s.home + dir.slotCount) % dir.slotCount).toBeLessThan(DIRECTORY_PROBES);
      expect(s.home).toBe(hostDescriptorHash(s.entry.words) & (dir.slotCount - 1));
    }
    expect(dir.packed.filter((_, i) => i > 0 && (i - 1) % SLOT_WORDS === 8 && dir.packed[i] !== 0).length).toBe(100);
  });

  it('a directory missing one record makes that lookup escape to the first place', () => {
    const words = Array.from({ length: 4 }, (_, i) => record(0x10000 + i * 0x100));
    const dir = buildDirectory(entriesOf(words).filter((e) => e.place !== 2));
    expect(findInDirectory(dir.packed, words[2], false)).toEqual({ place: 0, found: false });
    for (const i of [0, 1, 3]) expect(findInDirectory(dir.packed, words[i], false)).toEqual({ place: i, found: true });
  });

  it('a directory with its places reordered still finds each record at its own place', () => {
    const words = Array.from({ length: 4 }, (_, i) => record(0x10000 + i * 0x100));
    const order = [2, 0, 3, 1];
    const dir = buildDirectory(words.map((w, i) => ({ words: w, place: imagePlace(order[i]), cube: false })));
    words.forEach((w, i) => expect(findInDirectory(dir.packed, w, false)).toEqual({ place: order[i], found: true }));
  });

  it('grows until every descriptor is within four slots of its hash, colliding hashes included', () => {
    // Five descriptors sharing their hash's low 5 bits, split 3 / 2 by bit 5: at 16 and at 32
    // slots all five share one home (the fifth is 4 slots away); at 64 they have two homes, 32 apart.
    const low = colliding(3, 6, 0x0b, 0x100);
    const high = colliding(2, 6, 0x2b, 0x100);
    const words = [...low, ...high];
    const dir = buildDirectory(entriesOf(words), { initialSlots: 16 });
    expect(dir.grewFrom).toEqual([16, 32]);
    expect(dir.slotCount).toBe(64);
    words.forEach((w, i) => expect(findInDirectory(dir.packed, w, false)).toEqual({ place: i, found: true }));
    // Four sharing one home fit in a table of that size without growing.
    const four = buildDirectory(entriesOf(low.concat(high.slice(0, 1))), { initialSlots: 16 });
    expect(four.grewFrom).toEqual([]);
  });

  it('wraps its probes around the end of the table', () => {
    // Three records whose home is the last slot of 8: they lie in slots 7, 0 and 1.
    const words = colliding(3, 3, 7, 0x900);
    const dir = buildDirectory(entriesOf(words), { initialSlots: 8 });
    expect(dir.slotCount).toBe(8);
    expect(dir.slots.map((s) => s.index).sort()).toEqual([0, 1, 7]);
    words.forEach((w, i) => expect(findInDirectory(dir.packed, w, false)).toEqual({ place: i, found: true }));
  });

  it('refuses by name what cannot be placed below its size cap, and a descriptor given twice', () => {
    const words = colliding(5, 8, 0x5a, 0x2000);
    const e1 = (() => {
      try {
        return buildDirectory(entriesOf(words), { initialSlots: 16, maxSlots: 64 });
      } catch (e) {
        return e;
      }
    })();
    expect(e1).toBeInstanceOf(DirectoryError);
    expect((e1 as DirectoryError).code).toBe('unplaceable-descriptors');
    expect((e1 as DirectoryError).reason).toContain('16, 32, 64');
    expect(() => buildDirectory(entriesOf([record(1), record(1)]))).toThrow(/duplicate-descriptor/);
  });

  it('an empty directory is a valid one in which everything escapes', () => {
    const dir = buildDirectory([]);
    expect(dir.slotCount).toBe(DIRECTORY_PROBES);
    expect(findInDirectory(dir.packed, new Array(8).fill(0), false)).toEqual({ place: 0, found: false });
  });
});
