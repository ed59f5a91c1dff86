/**
 * The directory of a table's distinct image descriptors (D013): a power-of-two table of slots,
 * each holding a descriptor's eight words and its tag (place + 1, the cube bit for a cube), every
 * descriptor within DIRECTORY_PROBES slots of its home slot. The builder places descriptors in
 * home order, each at the first free slot from its home, and doubles the table until every one
 * fits; the packed form
 * (`hash.ts` documents it) is what the module binds and searches with `lookupDescriptor`.
 */
import { concrete } from '../../semantics/concrete.ts';
import { DirectoryError } from './errors.ts';
import {
  CUBE_TAG_BIT,
  DESCRIPTOR_WORDS,
  DIRECTORY_HEADER_WORDS,
  DIRECTORY_PROBES,
  PLACE_TAG_MASK,
  SLOT_WORDS,
  descriptorHash,
  lookupDescriptor,
} from './hash.ts';
import { directorySlotIndex, imagePlace, type DirectorySlotIndex, type ImagePlace } from './ids.ts';

/** What the directory holds of one image: its descriptor's words, its place and its shape. */
export interface DirectoryEntry {
  readonly words: readonly number[];
  readonly place: ImagePlace;
  readonly cube: boolean;
}

/** One occupied slot. */
export interface DirectorySlot {
  readonly index: DirectorySlotIndex;
  readonly entry: DirectoryEntry;
  /** The slot the hash names; `index` is 0-3 slots above it (wrapping). */
  readonly home: DirectorySlotIndex;
}

export interface DescriptorDirectory {
  /** A power of two, at least DIRECTORY_PROBES. */
  readonly slotCount: number;
  /** The occupied slots, by slot index. */
  readonly slots: readonly DirectorySlot[];
  /** The slot counts tried before this one fitted (empty when the first did). */
  readonly grewFrom: readonly number[];
  /** `hash.ts`'s layout: the slot count, then 9 words a slot. */
  readonly packed: Uint32Array;
}

export interface DirectoryOptions {
  /** The first slot count tried (rounded up to a power of two); default: twice the entries, at least DIRECTORY_PROBES. */
  readonly initialSlots?: number;
  /** The largest slot count allowed before refusing (default 2^20: 36 MiB packed). */
  readonly maxSlots?: number;
}

/** The default size cap: far beyond what 4096 images need, small enough to bind (36 MiB). */
export const MAX_DIRECTORY_SLOTS = 2 ** 20;

/** Entries a directory may hold: an entry's index and its home's distance share one sort key below 2^53. */
const ENTRY_KEY_SPAN = 2 ** 24;

function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** The host's hash of a descriptor's words: the shared definition on the concrete algebra. */
export function hostDescriptorHash(words: readonly number[]): number {
  return descriptorHash(
    concrete,
    words.map((w) => w >>> 0),
  );
}

/**
 * Places every entry within the probes of its home slot in a table of `slotCount`, or returns
 * null where this placement cannot. Entries go in home order, each to the first free slot from
 * its home: every window is DIRECTORY_PROBES slots long, so on a line this earliest-deadline
 * order fits whenever any placement does. The circle is cut where DIRECTORY_PROBES - 1 slots in
 * a row are nobody's home, so no window crosses the cut; a table with no such run is grown.
 */
function place(
  entries: readonly DirectoryEntry[],
  hashes: readonly number[],
  slotCount: number,
): DirectorySlot[] | null {
  const mask = slotCount - 1;
  const homes = hashes.map((h) => h & mask);
  const isHome = new Uint8Array(slotCount);
  for (const h of homes) isHome[h] = 1;
  // The cut: a slot whose DIRECTORY_PROBES - 1 predecessors are nobody's home.
  let cut = -1;
  for (let c = 0; c < slotCount && cut < 0; c++) {
    let clear = true;
    for (let d = 1; d < DIRECTORY_PROBES && clear; d++) clear = isHome[(c - d + slotCount) & mask] === 0;
    if (clear) cut = c;
  }
  if (cut < 0) return null;
  // Entries by their home's distance from the cut, then by place order: one numeric sort of (distance, index) keys.
  const keys = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) keys[i] = ((homes[i] - cut + slotCount) & mask) * ENTRY_KEY_SPAN + i;
  keys.sort();
  const slots: DirectorySlot[] = [];
  let nextFree = 0; // along the line from the cut: slots before it are taken
  for (const key of keys) {
    const i = key % ENTRY_KEY_SPAN;
    const home = (key - i) / ENTRY_KEY_SPAN;
    const at = Math.max(nextFree, home);
    if (at - home >= DIRECTORY_PROBES || at >= slotCount) return null;
    const index = (at + cut) & mask;
    slots.push({ index: directorySlotIndex(index), entry: entries[i], home: directorySlotIndex(homes[i]) });
    nextFree = at + 1;
  }
  return slots.sort((a, b) => a.index - b.index);
}

function pack(slotCount: number, slots: readonly DirectorySlot[]): Uint32Array {
  const packed = new Uint32Array(DIRECTORY_HEADER_WORDS + slotCount * SLOT_WORDS);
  packed[0] = slotCount;
  for (const { index, entry } of slots) {
    const at = DIRECTORY_HEADER_WORDS + index * SLOT_WORDS;
    for (let k = 0; k < DESCRIPTOR_WORDS; k++) packed[at + k] = entry.words[k];
    packed[at + DESCRIPTOR_WORDS] = ((entry.place + 1) & PLACE_TAG_MASK) | (entry.cube ? CUBE_TAG_BIT : 0);
  }
  return packed;
}

/**
 * Builds the directory of `entries` (distinct descriptors, each with its place). Refuses a
 * descriptor given twice, a place beyond the tag's 31 bits, and, by name, a set that does not
 * fit within the probes below `maxSlots` (five or more descriptors sharing their hash's low bits).
 */
export function buildDirectory(
  entries: readonly DirectoryEntry[],
  options: DirectoryOptions = {},
): DescriptorDirectory {
  if (entries.length >= ENTRY_KEY_SPAN)
    throw new RangeError(`${entries.length} entries: at most ${ENTRY_KEY_SPAN - 1}`);
  const seen = new Map<string, ImagePlace>();
  for (const e of entries) {
    if (e.words.length !== DESCRIPTOR_WORDS)
      throw new RangeError(`a directory entry holds ${DESCRIPTOR_WORDS} words, not ${e.words.length}`);
    if (!Number.isInteger(e.place) || e.place < 0 || e.place >= PLACE_TAG_MASK)
      throw new RangeError(`place ${e.place} does not fit the slot tag`);
    const key = e.words.map((w) => (w >>> 0).toString(16)).join(',');
    const other = seen.get(key);
    if (other !== undefined)
      throw new DirectoryError('duplicate-descriptor', `places ${other} and ${e.place} hold the same eight words`);
    seen.set(key, e.place);
  }
  const hashes = entries.map((e) => hostDescriptorHash(e.words));
  const maxSlots = options.maxSlots ?? MAX_DIRECTORY_SLOTS;
  let slotCount = Math.max(DIRECTORY_PROBES, nextPow2(options.initialSlots ?? 2 * entries.length));
  const grewFrom: number[] = [];
  for (;;) {
    if (slotCount > maxSlots)
      throw new DirectoryError(
        'unplaceable-descriptors',
        `${entries.length} descriptors do not all fit within ${DIRECTORY_PROBES} slots of their hash's slot in ${maxSlots} slots or fewer (tried ${grewFrom.join(', ')})`,
      );
    const slots = place(entries, hashes, slotCount);
    if (slots) return { slotCount, slots, grewFrom, packed: pack(slotCount, slots) };
    grewFrom.push(slotCount);
    slotCount *= 2;
  }
}

/** The host's search of a packed directory: the shared `lookupDescriptor` on the concrete algebra. */
export function findInDirectory(
  packed: Uint32Array,
  words: readonly number[],
  cube: boolean,
): { readonly place: ImagePlace; readonly found: boolean } {
  const hit = lookupDescriptor(
    concrete,
    (i) => {
      if (i >= packed.length) throw new RangeError(`directory word ${i} beyond its ${packed.length}`);
      return packed[i];
    },
    words.map((w) => w >>> 0),
    cube,
  );
  return { place: imagePlace(hit.place), found: hit.found };
}
