/**
 * One field-extraction helper for every descriptor layout. A layout is a data table of
 * `{ name, dword, lo, width }` rows; decode and encode are both derived from that one table,
 * so no field's shift or mask is written twice (D004).
 */

/** Why a descriptor could not be read or written. Every failure of this module is one of these. */
export type DescriptorErrorCode =
  | 'word-count' // the word array has the wrong length for the descriptor kind
  | 'bad-word' // a word is not an integer in [-2^31, 2^32)
  | 'unknown-generation' // a Gen value this module has no layout for
  | 'not-a-buffer' // V# TYPE bits [31:30] are not 0 (bit 31 set means a T#)
  | 'reserved-type' // T# TYPE is 0..7 (a V# or a null descriptor), or not a valid image type
  | 'unknown-format' // a data/number format or unified FORMAT value that is not in the generation's table
  | 'reserved-value' // an enumerated field holds a value the generation reserves
  | 'unknown-field' // encode was given a field name the layout does not have
  | 'field-out-of-range' // encode was given a value that does not fit the field's width
  | 'short-form-field' // a 4-dword T# was asked to carry a field of dwords 4..7
  | 'bad-layout'; // a layout table is inconsistent (overlap, out of the dword, duplicate name)

export class DescriptorError extends Error {
  override readonly name = 'DescriptorError';
  constructor(
    readonly code: DescriptorErrorCode,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}

/** One row of a layout table: `width` bits of dword `dword` starting at bit `lo`. */
export interface FieldSpec {
  readonly name: string;
  readonly dword: number;
  readonly lo: number;
  readonly width: number;
}

/** A descriptor layout: its name, its size in dwords, and its field rows. */
export interface Layout<N extends string = string> {
  readonly name: string;
  readonly dwords: number;
  readonly fields: readonly (FieldSpec & { readonly name: N })[];
}

/** The record of raw field values a layout decodes to. */
export type RawFields<N extends string = string> = { [K in N]: number };

/** Shorthand used by the tables: `f('stride', 1, 16, 14)` is STRIDE at dw1[29:16]. */
export function f<N extends string>(name: N, dword: number, lo: number, width: number): FieldSpec & { name: N } {
  return { name, dword, lo, width };
}

/**
 * Builds a layout and checks it once: every field inside its dword, widths 1..32, names
 * unique, and no two fields sharing a bit. A bad table fails at module load, not at use.
 */
export function defineLayout<N extends string>(
  name: string,
  dwords: number,
  fields: readonly (FieldSpec & { name: N })[],
): Layout<N> {
  const placed: { dword: number; mask: number; name: string }[] = [];
  const names = new Set<string>();
  for (const fs of fields) {
    if (names.has(fs.name)) throw new DescriptorError('bad-layout', `${name}: field '${fs.name}' appears twice`);
    names.add(fs.name);
    if (!Number.isInteger(fs.dword) || fs.dword < 0 || fs.dword >= dwords)
      throw new DescriptorError('bad-layout', `${name}: field '${fs.name}' is in dword ${fs.dword} of ${dwords}`);
    if (!Number.isInteger(fs.width) || fs.width < 1 || fs.width > 32 || fs.lo < 0 || fs.lo + fs.width > 32)
      throw new DescriptorError(
        'bad-layout',
        `${name}: field '${fs.name}' [${fs.lo + fs.width - 1}:${fs.lo}] is outside a dword`,
      );
    const m = mask(fs.width, fs.lo);
    const clash = placed.find((p) => p.dword === fs.dword && (p.mask & m) !== 0);
    if (clash)
      throw new DescriptorError(
        'bad-layout',
        `${name}: field '${fs.name}' overlaps '${clash.name}' in dword ${fs.dword}`,
      );
    placed.push({ dword: fs.dword, mask: m, name: fs.name });
  }
  return { name, dwords, fields };
}

/** The mask of `width` bits at `lo`, as a signed 32-bit integer (use `>>> 0` for unsigned). */
function mask(width: number, lo: number): number {
  return width === 32 ? -1 : ((1 << width) - 1) << lo;
}

/** Checks and normalises a word array: integers in [-2^31, 2^32), returned unsigned. */
export function normaliseWords(words: ArrayLike<number>, allowed: readonly number[], what: string): Uint32Array {
  if (!allowed.includes(words.length))
    throw new DescriptorError('word-count', `${what} takes ${allowed.join(' or ')} dwords, got ${words.length}`);
  const out = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (typeof w !== 'number' || !Number.isInteger(w) || w < -0x80000000 || w > 0xffffffff)
      throw new DescriptorError('bad-word', `${what} dword ${i} is ${String(w)}, not a 32-bit integer`);
    out[i] = w >>> 0;
  }
  return out;
}

/** Every field of `layout` read from `words` (which may be shorter: missing dwords read as 0). */
export function decodeFields<N extends string>(layout: Layout<N>, words: ArrayLike<number>): RawFields<N> {
  const out = {} as RawFields<N>;
  for (const fs of layout.fields) {
    const w = fs.dword < words.length ? words[fs.dword] >>> 0 : 0;
    out[fs.name] = fs.width === 32 ? w : (w >>> fs.lo) & ((1 << fs.width) - 1);
  }
  return out;
}

/**
 * The words `values` describe under `layout`; fields not given are 0. A name the layout lacks,
 * or a value that is not an integer fitting the field's width, is an error, never truncated.
 * `dwords` may shorten the result (the 4-dword T#); a non-zero field beyond it is an error.
 */
export function encodeFields<N extends string>(
  layout: Layout<N>,
  values: Partial<Record<string, number>>,
  dwords: number = layout.dwords,
): Uint32Array {
  const byName = new Map<string, FieldSpec>(layout.fields.map((fs) => [fs.name, fs]));
  const out = new Uint32Array(dwords);
  for (const [name, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const fs = byName.get(name);
    if (!fs) throw new DescriptorError('unknown-field', `${layout.name} has no field '${name}'`);
    const max = 2 ** fs.width - 1;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      throw new DescriptorError(
        'field-out-of-range',
        `${layout.name}.${name} = ${String(v)} does not fit ${fs.width} bits`,
      );
    if (fs.dword >= dwords) {
      if (v !== 0)
        throw new DescriptorError(
          'short-form-field',
          `${layout.name}.${name} is in dword ${fs.dword}; the form has ${dwords}`,
        );
      continue;
    }
    out[fs.dword] = (out[fs.dword] | (fs.width === 32 ? v : v << fs.lo)) >>> 0;
  }
  return out;
}

/** Reads a two's-complement value of `width` bits. */
export function signExtend(v: number, width: number): number {
  const sign = 2 ** (width - 1);
  return v >= sign ? v - 2 ** width : v;
}
