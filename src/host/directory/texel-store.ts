/**
 * The portable home of a table's images (D017): every bound flat image's and cube's texels, every
 * level of its view and every layer (a cube's faces, whole cubes from BASE_ARRAY: D022), decoded on the host exactly as a known image is (D015: the texel
 * layer's decoder, DST_SEL applied), in one storage buffer of u32 words after a header per
 * place. The module's image service reads a texel at (place, level, layer, x, y) from it and
 * filters with its own code, so a selected image is filtered exactly as a known one.
 *
 * Layout (u32 words):
 *
 *   place p's header, STORE_HEADER_WORDS words at p * STORE_HEADER_WORDS:
 *     0  the view's level count (0: nothing readable at this place: a volume)
 *     1  its layer count (a cube's: six faces a cube, +X, -X, +Y, -Y, +Z, -Z)
 *     2  flags: bit 0 the format is UNORM (a compare's reference is clamped to [0, 1]); bit 1 it is
 *        UINT or SINT (its texels are channel words, not f32 bits)
 *     3  the T#'s MIN_LOD as f32 bits
 *     8 + l   word offset of the view's level l (l < STORE_LEVELS)
 *     24 + l  width of level l
 *     40 + l  height of level l
 *   then the texels: level l, layer k, texel (x, y) at offset(l) + 4 * ((k * height(l) + y) * width(l) + x),
 *   four words (r, g, b, a after DST_SEL: f32 bits, or an integer format's channel words).
 */
import { decodeImageLevel, texelFormat } from '../texels/formats.ts';
import { readSurface } from '../texels/surface.ts';
import { guestTextureFormat, type Swizzle } from '../resources/index.ts';
import { DirectoryError } from './errors.ts';
import type { GuestByteReader, TableImage } from './table.ts';

export const STORE_HEADER_WORDS = 64;
/** Levels a header describes (a 2D view has at most 15 levels: 16384 wide). */
export const STORE_LEVELS = 16;
export const STORE_FLAG_UNORM = 1;
export const STORE_FLAG_INTEGER = 2;
/** Header word indices. */
export const STORE_HEADER = { levels: 0, layers: 1, flags: 2, minLod: 3, offset: 8, width: 24, height: 40 } as const;

export interface TexelStore {
  /** The header of every place, then the texels. */
  readonly words: Uint32Array;
  /** Places with texels (flat images and cubes); volumes have an empty header. */
  readonly readable: number;
  /** Headers at the start of `words` (at least one, even with no image). */
  readonly places: number;
  readonly bytes: number;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bitsOf = (v: number): number => {
  f32[0] = v;
  return u32[0]!;
};

/** Channel `c` of texel i's words (a float format's f32 bits, an integer format's words); DST_SEL's 1 in the format's kind. */
function channel(words: Uint32Array, i: number, c: Swizzle[number], one: number): number {
  switch (c) {
    case 'r':
      return words[i]!;
    case 'g':
      return words[i + 1]!;
    case 'b':
      return words[i + 2]!;
    case 'a':
      return words[i + 3]!;
    case '0':
      return 0;
    case '1':
      return one;
  }
}

/** The layers a place holds: a flat array's from BASE_ARRAY, a cube's whole cubes as the table bound them. */
function storedLayers(image: TableImage): { readonly first: number; readonly layers: number } {
  if (image.pageKind === 'cube') return { first: image.firstSlice, layers: image.sliceCount };
  const desc = image.descriptor;
  return desc.is_array
    ? { first: desc.base_array, layers: Math.max(1, image.layout.slices - desc.base_array) }
    : { first: 0, layers: 1 };
}

/** Texels of every level of the view, every layer, of one flat image or cube, decoded and swizzled. */
function imageLevels(
  image: TableImage,
  memory: GuestByteReader,
): { width: number; height: number; layers: number; texels: Uint32Array[] }[] {
  const desc = image.descriptor;
  const layout = image.layout;
  const last = Math.min(desc.last_level, desc.mip_count - 1, layout.levels - 1);
  const { first, layers } = storedLayers(image);
  let bytes: Uint8Array;
  try {
    bytes = memory.read(layout.base, layout.size);
  } catch (e) {
    throw new DirectoryError(
      'image-unreadable',
      `place ${image.place} (${desc.format.name} ${image.width}x${image.height}): ${layout.size} bytes at 0x${layout.base.toString(16)}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const guest = { address: layout.base, bytes };
  const height1d = desc.type_name === '1d' || desc.type_name === '1d_array';
  const swizzle = guestTextureFormat(
    desc,
    new Set<string>(),
    { width: desc.width, height: height1d ? 1 : desc.height, volume: false },
    false,
  ).swizzle;
  const out = [];
  for (let level = desc.base_level; level <= last; level++) {
    const sub = layout.subresource(level, first);
    const texels: Uint32Array[] = [];
    for (let s = first; s < first + layers; s++) {
      const linear = readSurface(layout, guest, level, s);
      const rgba = decodeImageLevel(desc.format, linear, sub.width, sub.height);
      // Float texels as their f32 bits (the interpreter's values rounded as a texture holds them), integers as words.
      const words = new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length);
      const one = rgba instanceof Float32Array ? bitsOf(1) : 1;
      const sw = new Uint32Array(words.length);
      for (let i = 0; i < words.length; i += 4)
        for (let c = 0; c < 4; c++) sw[i + c] = channel(words, i, swizzle[c]!, one);
      texels.push(sw);
    }
    out.push({ width: sub.width, height: height1d ? 1 : sub.height, layers, texels });
  }
  return out;
}

/**
 * Builds the store of `images` (place p: images[p]), refusing by name
 * (`too-many-texel-bytes`) one larger than `maxBytes` (the device's storage binding size) before
 * any texel is decoded.
 */
export function buildTexelStore(images: readonly TableImage[], memory: GuestByteReader, maxBytes: number): TexelStore {
  const places = Math.max(1, images.length);
  let words = places * STORE_HEADER_WORDS;
  const sizes = images.map((im) => {
    if (im.pageKind === 'volume') return 0;
    const desc = im.descriptor;
    const last = Math.min(desc.last_level, desc.mip_count - 1, im.layout.levels - 1);
    const { first, layers } = storedLayers(im);
    let n = 0;
    for (let l = desc.base_level; l <= last; l++) {
      const sub = im.layout.subresource(l, first);
      n += 4 * sub.width * sub.height * layers;
    }
    return n;
  });
  words += sizes.reduce((a, b) => a + b, 0);
  if (words * 4 > maxBytes)
    throw new DirectoryError(
      'too-many-texel-bytes',
      `the selected images' decoded texels take ${words * 4} bytes; the device binds ${maxBytes} in one storage buffer`,
    );
  const store = new Uint32Array(words);
  let at = places * STORE_HEADER_WORDS;
  let readable = 0;
  // Places are positions in `images` (a dispatch's tables one after another), not the tables' own places.
  images.forEach((im, p) => {
    if (im.pageKind === 'volume') return;
    const h = p * STORE_HEADER_WORDS;
    const levels = imageLevels(im, memory);
    if (levels.length > STORE_LEVELS) throw new Error(`place ${p}: ${levels.length} levels`);
    store[h + STORE_HEADER.levels] = levels.length;
    store[h + STORE_HEADER.layers] = levels[0]?.layers ?? 0;
    const kind = texelFormat(im.descriptor.format).channelKind;
    store[h + STORE_HEADER.flags] =
      (im.descriptor.format.num_format === 'UNORM' ? STORE_FLAG_UNORM : 0) |
      (kind !== 'float' ? STORE_FLAG_INTEGER : 0);
    store[h + STORE_HEADER.minLod] = bitsOf(im.descriptor.min_lod);
    levels.forEach((lv, l) => {
      store[h + STORE_HEADER.offset + l] = at;
      store[h + STORE_HEADER.width + l] = lv.width;
      store[h + STORE_HEADER.height + l] = lv.height;
      for (const layer of lv.texels) {
        store.set(layer, at);
        at += layer.length;
      }
    });
    readable++;
  });
  return { words: store, readable, places, bytes: store.byteLength };
}
