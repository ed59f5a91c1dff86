/**
 * Expected ranges that hold an image, as pictures (D023): a written range is an image where
 * a T# the capture notes (its manifest's `descriptors`) lays out a surface that lies wholly in
 * it. The expected bytes and the bytes a run left are read through the host's surface layout
 * and texel decoder (src/host/texels: readSurface, decodeImageLevel), then mapped to unorm8
 * RGBA for a canvas; a texel differs where one of the range's differing elements (compare.ts,
 * with the range's tolerance) overlaps its bytes. DOM free: it runs in the worker and in tests.
 */
import type { DescriptorNote, Manifest } from '../host/capture/manifest.ts';
import { DescriptorError, decodeImageDescriptor, type ImageDescriptor } from '../host/descriptors/index.ts';
import { TexelFormatError, TilingError, decodeImageLevel, readSurface, surfaceLayout } from '../host/texels/index.ts';
import type { SurfaceLayout } from '../host/texels/surface.ts';
import { targetFor } from '../isa/gen.ts';
import type { ImageComparison, ImagePicture } from './worker-api.ts';

/** A T# whose level 0, slice 0 lies in a range, with its layout. */
export interface RangeImage {
  readonly note: DescriptorNote;
  readonly descriptor: ImageDescriptor;
  readonly layout: SurfaceLayout;
}

/** Where a note's words are, as the Descriptors list says it. */
function noteWhere(d: DescriptorNote): string {
  const at = d.at;
  if ('user_data' in at) return `COMPUTE_USER_DATA_${at.user_data}`;
  if ('sgpr' in at) return `s${at.sgpr}`;
  return at.address;
}

/**
 * The noted T#s whose whole surface (every level and slice it lays out) lies in the range
 * `[address, address + size)`; a T# the host cannot decode or lay out is not an image here.
 * The same words noted twice count once.
 */
export function imagesInRange(manifest: Manifest, address: number, size: number): RangeImage[] {
  const gen = targetFor(manifest.target.mcpu, manifest.target.wave64).gen;
  const seen = new Set<string>();
  const out: RangeImage[] = [];
  for (const note of manifest.descriptors ?? []) {
    if (note.kind !== 'image') continue;
    const key = note.words.join(',');
    if (seen.has(key)) continue;
    let descriptor: ImageDescriptor;
    let layout: SurfaceLayout;
    try {
      descriptor = decodeImageDescriptor(gen, note.words);
      layout = surfaceLayout(gen, descriptor);
    } catch (e) {
      if (e instanceof DescriptorError || e instanceof TilingError || e instanceof TexelFormatError) continue;
      throw e;
    }
    if (layout.base < address || layout.base + layout.size > address + size) continue;
    seen.add(key);
    out.push({ note, descriptor, layout });
  }
  return out;
}

/** A decoded channel value as a display byte: floats (unorm, snorm, float formats) clamped to [0, 1]; integers clamped to 0..255. */
function displayByte(v: number, integer: boolean): number {
  if (integer) return Math.max(0, Math.min(255, v));
  if (Number.isNaN(v)) return 0;
  return Math.round(Math.max(0, Math.min(1, v)) * 255);
}

/** Level 0, slice 0 of the image from the range's bytes, as unorm8 RGBA for a canvas. */
export function pictureOf(image: RangeImage, rangeAddress: number, bytes: Uint8Array): ImagePicture {
  const sub = image.layout.subresource(0, 0);
  const linear = readSurface(image.layout, { address: rangeAddress, bytes }, 0, 0);
  // readSurface gives the elements tightly packed, row by row: decodeImageLevel's default pitch.
  const texels = decodeImageLevel(image.descriptor.format, linear, sub.width, sub.height);
  const integer = !(texels instanceof Float32Array);
  const rgba = new Uint8Array(sub.width * sub.height * 4);
  for (let i = 0; i < rgba.length; i++) rgba[i] = displayByte(texels[i], integer);
  return { width: sub.width, height: sub.height, rgba };
}

/**
 * Which texels of level 0, slice 0 hold a differing element (element `e` spans bytes
 * `e * elementBytes` to `(e + 1) * elementBytes` of the range): one byte a texel, 1 where it
 * differs; and how many differing elements lie outside the image (row padding, other bytes).
 */
export function differingTexels(
  image: RangeImage,
  rangeAddress: number,
  rangeSize: number,
  differing: readonly number[],
  elementBytes: number,
): { mask: Uint8Array; count: number; outside: number } {
  const sub = image.layout.subresource(0, 0);
  const texelAt = new Int32Array(rangeSize).fill(-1);
  const start = image.layout.base - rangeAddress;
  const bpe = image.layout.bytesPerElement;
  // Elements are texels, or 4x4 blocks of a BC format: the mask is per element, then spread over its texels.
  const bw = image.layout.blockWidth;
  const bh = image.layout.blockHeight;
  for (let y = 0; y < sub.elementsHigh; y++)
    for (let x = 0; x < sub.elementsWide; x++) {
      const at = start + image.layout.elementOffset(0, 0, x, y);
      for (let b = 0; b < bpe; b++) texelAt[at + b] = y * sub.elementsWide + x;
    }
  const blockDiffers = new Uint8Array(sub.elementsWide * sub.elementsHigh);
  let outside = 0;
  for (const e of differing) {
    let inside = false;
    for (let b = e * elementBytes; b < (e + 1) * elementBytes && b < rangeSize; b++) {
      const t = texelAt[b];
      if (t >= 0) {
        blockDiffers[t] = 1;
        inside = true;
      }
    }
    if (!inside) outside++;
  }
  const mask = new Uint8Array(sub.width * sub.height);
  let count = 0;
  for (let y = 0; y < sub.height; y++)
    for (let x = 0; x < sub.width; x++)
      if (blockDiffers[Math.floor(y / bh) * sub.elementsWide + Math.floor(x / bw)]) {
        mask[y * sub.width + x] = 1;
        count++;
      }
  return { mask, count, outside };
}

/** The colour of a differing texel in the difference picture (magenta); equal texels are black. */
export const DIFFERENCE_RGBA = [255, 0, 255, 255] as const;

/** The difference picture of a mask: black where equal, DIFFERENCE_RGBA where not. */
export function differencePicture(mask: Uint8Array, width: number, height: number): ImagePicture {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < mask.length; i++) {
    const c = mask[i] ? DIFFERENCE_RGBA : ([0, 0, 0, 255] as const);
    rgba.set(c, i * 4);
  }
  return { width, height, rgba };
}

/**
 * Each image in an expected range, expected and got as pictures, with the difference.
 * `expected`/`got` are the range's bytes (null where missing); `differing` its differing elements.
 */
export function imageComparisons(
  manifest: Manifest,
  range: { readonly address: number; readonly size: number },
  expected: Uint8Array | null,
  got: Uint8Array | null,
  differing: readonly number[],
  elementBytes: number,
): ImageComparison[] {
  return imagesInRange(manifest, range.address, range.size).map((image): ImageComparison => {
    const sub = image.layout.subresource(0, 0);
    const d = image.descriptor;
    const base = {
      ...(image.note.name ? { name: image.note.name } : {}),
      where: noteWhere(image.note),
      format: d.format.name,
      typeName: d.type_name,
      mode: image.layout.mode,
      width: sub.width,
      height: sub.height,
      levels: image.layout.levels,
      slices: image.layout.slices,
    };
    try {
      const expectedPicture = expected && pictureOf(image, range.address, expected);
      const gotPicture = got && pictureOf(image, range.address, got);
      if (!expectedPicture || !gotPicture)
        return {
          ...base,
          expected: expectedPicture,
          got: gotPicture,
          differingTexels: null,
          outside: 0,
          difference: null,
        };
      const { mask, count, outside } = differingTexels(image, range.address, range.size, differing, elementBytes);
      return {
        ...base,
        expected: expectedPicture,
        got: gotPicture,
        differingTexels: count,
        outside,
        difference: differencePicture(mask, sub.width, sub.height),
      };
    } catch (e) {
      if (e instanceof TexelFormatError || e instanceof TilingError)
        return {
          ...base,
          expected: null,
          got: null,
          differingTexels: null,
          outside: 0,
          difference: null,
          error: e.message,
        };
      throw e;
    }
  });
}
