/**
 * The directory's hash and its search, written once over the shared algebra (D003, D013):
 * the concrete algebra gives the host's values (where the builder puts a descriptor), the
 * expression algebra gives the module's (lowered by `src/translator/lower.ts`, emitted as WGSL),
 * so the search at the access is the same definition as the placement on the host.
 *
 * The packed directory the module binds is an array of u32 words:
 *
 *   word 0                   the slot count S (a power of two, at least DIRECTORY_PROBES)
 *   word 1 + 9 s + k, k < 8  word k of the descriptor in slot s (0 .. S-1)
 *   word 1 + 9 s + 8         the slot's tag: place + 1 in bits 0-30 (0: the slot is empty),
 *                            bit 31 set when the image is a cube
 *
 * A descriptor lies within DIRECTORY_PROBES slots of its home slot `hash & (S - 1)`, probing
 * upward and wrapping at S.
 */
import type { Algebra } from '../../semantics/algebra.ts';

/** How many slots, from a descriptor's home slot upward, the search looks at. */
export const DIRECTORY_PROBES = 4;
/** Words per slot in the packed directory: the descriptor's eight, then the tag. */
export const SLOT_WORDS = 9;
/** Words before the first slot (the slot count). */
export const DIRECTORY_HEADER_WORDS = 1;
/** The tag's cube bit. */
export const CUBE_TAG_BIT = 0x80000000;
/** The tag's place + 1 (0: empty). */
export const PLACE_TAG_MASK = 0x7fffffff;
/** Words of a T# the directory compares. */
export const DESCRIPTOR_WORDS = 8;

/** Each step's multiplier: odd, so the multiply is a bijection of the word. */
const STEP_MULTIPLIER = 0x85ebca6b;
const FINAL_MULTIPLIER = 0xc2b2ae35;
/** The state before the first word: any constant; a non-zero one keeps an all-zero record off slot 0. */
const HASH_SEED = 0x9e3779b9;

/**
 * The hash of a descriptor's eight words. Each step folds one word in by xor, then mixes the
 * state by an odd multiply and an xor with its own high bits, both bijections: for a fixed
 * prefix, two descriptors that differ in one word get different hashes. A final mix spreads
 * the high bits into the low ones the slot index takes. Integer operations only (xor, mulLo,
 * lshr), so every back end computes the same bits.
 */
export function descriptorHash<V, B>(a: Algebra<V, B>, words: readonly V[]): V {
  if (words.length !== DESCRIPTOR_WORDS)
    throw new RangeError(`a directory hash takes ${DESCRIPTOR_WORDS} words, not ${words.length}`);
  let h = a.word(HASH_SEED);
  for (const w of words) {
    h = a.mulLo(a.xor(h, w), a.word(STEP_MULTIPLIER));
    h = a.xor(h, a.lshr(h, a.word(13)));
  }
  h = a.xor(h, a.lshr(h, a.word(16)));
  h = a.mulLo(h, a.word(FINAL_MULTIPLIER));
  return a.xor(h, a.lshr(h, a.word(16)));
}

/** Index of word `k` (0-8) of slot `slot` in the packed directory. */
export function slotWordIndex<V, B>(a: Algebra<V, B>, slot: V, k: number): V {
  return a.add(a.word(DIRECTORY_HEADER_WORDS + k), a.mulLo(slot, a.word(SLOT_WORDS)));
}

/** The home slot and its probes: (hash + p) & (slotCount - 1), p < DIRECTORY_PROBES. */
export function probeSlots<V, B>(a: Algebra<V, B>, hash: V, slotCount: V): V[] {
  const mask = a.sub(slotCount, a.word(1));
  return Array.from({ length: DIRECTORY_PROBES }, (_, p) => a.and(a.add(hash, a.word(p)), mask));
}

/** What a search gives: the place of the image the words name, and whether the directory held them. */
export interface DirectoryHit<V, B> {
  /** The place, or 0 on an escape (the access then reads the first place, and the dispatch's result is refused). */
  readonly place: V;
  readonly found: B;
}

/**
 * Searches the packed directory for `words` in the access's shape. `readWord(i)` is word i of
 * the packed directory (a load in the module, an array read on the host). Every probed slot is
 * compared word by word and by its cube bit, and an empty slot never matches; a hit gives the
 * tag's place, and no hit is an escape. The probes are straight-line (no early exit): the
 * module's search has no branches to diverge on.
 */
export function lookupDescriptor<V, B>(
  a: Algebra<V, B>,
  readWord: (index: V) => V,
  words: readonly V[],
  wantCube: B,
): DirectoryHit<V, B> {
  const hash = descriptorHash(a, words);
  const slots = probeSlots(a, hash, readWord(a.word(0)));
  const wantShape = a.select(wantCube, a.word(CUBE_TAG_BIT), a.word(0));
  let place = a.word(0);
  let found = a.bool(false);
  // From the last probe to the first, so the nearest hit wins (a descriptor is held once, so at most one hits).
  for (let p = slots.length - 1; p >= 0; p--) {
    const slot = slots[p];
    let hit = a.bool(true);
    for (let k = 0; k < DESCRIPTOR_WORDS; k++)
      hit = a.boolAnd(hit, a.eq(readWord(slotWordIndex(a, slot, k)), words[k]));
    const tag = readWord(slotWordIndex(a, slot, DESCRIPTOR_WORDS));
    const placePlusOne = a.and(tag, a.word(PLACE_TAG_MASK));
    hit = a.boolAnd(hit, a.eq(a.and(tag, a.word(CUBE_TAG_BIT)), wantShape));
    hit = a.boolAnd(hit, a.ne(placePlusOne, a.word(0)));
    place = a.select(hit, a.sub(placePlusOne, a.word(1)), place);
    found = a.boolOr(hit, found);
  }
  return { place, found };
}
