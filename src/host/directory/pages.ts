/**
 * Pages: how the images of a table go into WebGPU textures (D013). WebGPU has no arrays of
 * textures (outside the experimental resource table), so D983's two arrays of sampled images
 * become texture arrays grouped by what one texture can hold alike: a flat page is a
 * `texture_2d_array` of one format and one size, holding the layers of every image of that class
 * (a 2D image takes one layer, a 2D array its layers); a cube page is a `texture_cube_array` of
 * one format and face size, holding whole cubes; a volume (3D) image is a page of its own
 * (`texture_3d`: WebGPU has no arrays of them). A page holds at most maxTextureArrayLayers
 * layers; a class beyond it continues on another page (first fit among the class's pages).
 *
 * The module binds a fixed budget of pages of each kind (unused ones get a filler), and finds an
 * image through the place map, PLACE_WORDS words a place:
 *
 *   word 0  kind << 24 | page index within its kind   (kind: 1 flat, 2 cube, 3 volume; 0: no image,
 *           only at place 0 of a table without images)
 *   word 1  the image's first layer in the page (flat), its first cube (cube), 0 (volume)
 *   word 2  its layer count (flat), cube count (cube), depth (volume)
 *   word 3  DST_SEL as the module applies it: 3 bits a component, x first (0-3: r g b a, 4: 0, 5: 1)
 *
 * so every image is at the same place whichever kind it is, as in D983's two arrays.
 */
import type { Swizzle } from '../resources/index.ts';
import { DirectoryError } from './errors.ts';
import { pageIndex, type ImagePlace, type PageIndex } from './ids.ts';
import type { PageKind, TableImage } from './table.ts';

/** Words of the place map per place. */
export const PLACE_WORDS = 4;
export const PAGE_KIND_CODE: Readonly<Record<PageKind, number>> = { flat: 1, cube: 2, volume: 3 };
const SWIZZLE_CODE: Readonly<Record<Swizzle[number], number>> = { r: 0, g: 1, b: 2, a: 3, '0': 4, '1': 5 };

/** How many page bindings of each kind the module declares, and how many layers a page may hold. */
export interface PageBudget {
  readonly flat: number;
  readonly cube: number;
  readonly volume: number;
  readonly maxLayers: number;
}

/**
 * A budget from a device's limits, leaving `reservedTextures` sampled-texture bindings to the
 * module's other images: one volume page, a quarter of the rest (at least one) for cubes, the
 * others flat. A reasoned split (D983's tables hold mostly flat images, a few cube shadow maps).
 */
export function pageBudgetFor(
  limits: { readonly maxSampledTexturesPerShaderStage: number; readonly maxTextureArrayLayers: number },
  reservedTextures = 0,
): PageBudget {
  const total = limits.maxSampledTexturesPerShaderStage - reservedTextures;
  if (total < 3)
    throw new DirectoryError(
      'too-many-pages',
      `${total} sampled-texture bindings left for pages (maxSampledTexturesPerShaderStage ${limits.maxSampledTexturesPerShaderStage}, ${reservedTextures} reserved): at least 3 are needed`,
    );
  const volume = 1;
  const cube = Math.max(1, Math.floor((total - volume) / 4));
  return { flat: total - volume - cube, cube, volume, maxLayers: limits.maxTextureArrayLayers };
}

/** Where an image lies in its page. */
export interface PagedImage {
  readonly place: ImagePlace;
  /** First layer (flat), first cube (cube), 0 (volume). */
  readonly first: number;
  /** Layers (flat), cubes (cube), depth (volume). */
  readonly count: number;
}

export interface ImagePage {
  readonly kind: PageKind;
  readonly index: PageIndex;
  readonly format: GPUTextureFormat;
  readonly compressedOnDevice: boolean;
  readonly sampleType: GPUTextureSampleType;
  readonly width: number;
  readonly height: number;
  /** Texture layers (faces for a cube page) or, for a volume, its depth. */
  readonly depthOrArrayLayers: number;
  readonly images: readonly PagedImage[];
}

export interface PagePlan {
  readonly budget: PageBudget;
  readonly pages: Readonly<Record<PageKind, readonly ImagePage[]>>;
  /** Per place: its kind, page and layers (see the module comment). */
  readonly placeMap: Uint32Array;
  /** The page and position of each place. */
  readonly where: readonly { readonly page: ImagePage; readonly image: PagedImage }[];
}

/** Formats whose filtering needs `float32-filterable`. */
const FLOAT32_FORMATS = new Set<GPUTextureFormat>(['r32float', 'rg32float', 'rgba32float']);

export function swizzleCode(s: Swizzle): number {
  return s.reduce((code, c, i) => code | (SWIZZLE_CODE[c] << (3 * i)), 0);
}

interface OpenPage {
  kind: PageKind;
  index: PageIndex;
  format: GPUTextureFormat;
  compressedOnDevice: boolean;
  width: number;
  height: number;
  layers: number;
  images: PagedImage[];
}

/**
 * Groups `images` (in place order) into pages within `budget`; refuses by name when a kind needs
 * more pages than the budget binds, saying which classes it needed.
 */
export function planPages(
  images: readonly TableImage[],
  budget: PageBudget,
  features: ReadonlySet<string> | GPUSupportedFeatures,
): PagePlan {
  const open = new Map<string, OpenPage[]>();
  const pages: Record<PageKind, OpenPage[]> = { flat: [], cube: [], volume: [] };
  const where: { page: OpenPage; image: PagedImage }[] = [];
  const faceLimit = budget.maxLayers - (budget.maxLayers % 6);
  for (const im of images) {
    const fmt = im.format;
    const newPage = (layers: number): OpenPage => {
      const p: OpenPage = {
        kind: im.pageKind,
        index: pageIndex(pages[im.pageKind].length),
        format: fmt.format,
        compressedOnDevice: fmt.compressedOnDevice,
        width: im.width,
        height: im.height,
        layers,
        images: [],
      };
      pages[im.pageKind].push(p);
      return p;
    };
    let page: OpenPage;
    let image: PagedImage;
    if (im.pageKind === 'volume') {
      page = newPage(im.depth);
      image = { place: im.place, first: 0, count: im.depth };
    } else {
      const limit = im.pageKind === 'cube' ? faceLimit : budget.maxLayers;
      if (im.sliceCount > limit)
        throw new DirectoryError(
          'too-many-pages',
          `place ${im.place}: ${im.sliceCount} layers exceed a page's ${limit} (maxTextureArrayLayers ${budget.maxLayers})`,
        );
      // First fit among the class's pages: an array that overflowed one page leaves room for later small images.
      const key = `${im.pageKind}|${fmt.format}|${im.width}x${im.height}`;
      const classPages = open.get(key) ?? [];
      open.set(key, classPages);
      const fits = classPages.find((p) => p.layers + im.sliceCount <= limit);
      page = fits ?? newPage(0);
      if (fits === undefined) classPages.push(page);
      const perUnit = im.pageKind === 'cube' ? 6 : 1;
      image = { place: im.place, first: page.layers / perUnit, count: im.sliceCount / perUnit };
      page.layers += im.sliceCount;
    }
    page.images.push(image);
    where.push({ page, image });
  }
  for (const kind of ['flat', 'cube', 'volume'] as const)
    if (pages[kind].length > budget[kind]) {
      const classes = pages[kind].map((p) => `${p.format} ${p.width}x${p.height}x${p.layers}`);
      throw new DirectoryError(
        'too-many-pages',
        `the images need ${pages[kind].length} ${kind} pages, the budget binds ${budget[kind]}: ${classes.join(', ')}`,
      );
    }
  const finished = new Map<OpenPage, ImagePage>();
  const finish = (p: OpenPage): ImagePage => {
    let f = finished.get(p);
    if (f === undefined) {
      const unfilterable = FLOAT32_FORMATS.has(p.format) && !features.has('float32-filterable');
      f = {
        kind: p.kind,
        index: p.index,
        format: p.format,
        compressedOnDevice: p.compressedOnDevice,
        sampleType: unfilterable ? 'unfilterable-float' : 'float',
        width: p.width,
        height: p.height,
        depthOrArrayLayers: p.layers,
        images: p.images,
      };
      finished.set(p, f);
    }
    return f;
  };
  // At least one place: an escape reads place 0, which in an empty table is kind 0, no page (the module reads zeros).
  const placeMap = new Uint32Array(Math.max(1, images.length) * PLACE_WORDS);
  images.forEach((im, i) => {
    const { page, image } = where[i];
    if (image.place !== im.place) throw new Error(`images are not in place order at ${i}`);
    const at = im.place * PLACE_WORDS;
    placeMap[at] = (PAGE_KIND_CODE[page.kind] << 24) | page.index;
    placeMap[at + 1] = image.first;
    placeMap[at + 2] = image.count;
    placeMap[at + 3] = swizzleCode(im.format.swizzle);
  });
  return {
    budget,
    pages: { flat: pages.flat.map(finish), cube: pages.cube.map(finish), volume: pages.volume.map(finish) },
    placeMap,
    where: where.map(({ page, image }) => ({ page: finish(page), image })),
  };
}
