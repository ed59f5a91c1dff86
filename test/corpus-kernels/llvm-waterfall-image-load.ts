/**
 * llvm/waterfall_image_load.ll (amdgpu_cs, amdpal; s[0:1] %table, s[2:5] %out, v0 %tid):
 * lane tid loads texel (tid, 0) through T# table[tid & 7] (image_load, dmask 0xf, mip 0 of
 * the view) and stores the four dwords at out + 16·tid. The per-lane T# makes LLVM emit a
 * waterfall loop. 64 threads.
 *
 * The eight images differ in format (UNORM8, f16, f32 with 1, 2 or 4 channels, u32), size,
 * DST_SEL (a BGRA and a constant-filled swizzle) and view (one T# starts at level 1 of two),
 * every coordinate in range (the widest lane reads the last texel of one image's row). The
 * expected dwords are the texel values the test put in, converted as the format says and
 * swizzled; UNORM8 lanes compare within 1 ulp (k/255 is not exact in f32 and a conversion
 * may round either way), the others exactly.
 */
import { amdpalSpec, rng, storageBuffer, u32, type CorpusKernel, type Json } from './common.ts';
import {
  componentWord,
  imageRegion,
  IMAGE_FORMATS,
  levelSize,
  makeImage,
  swizzle,
  texelValue,
  tsharp,
  viewOf,
  type ImageFormatName,
  type ImageModel,
  type TSharpSpec,
} from './image-common.ts';
import type { Target } from './targets.ts';

const TABLE = 0x20000000;
const OUT = 0x30000000;
const IMAGES = 0x40000000;
const THREADS = 64;

interface Texture {
  readonly img: ImageModel;
  readonly view: TSharpSpec;
}

/** A finite, normal f16 value (sign, exponent 1..30, mantissa), as a number. */
function f16Value(bits: number): number {
  const e = 1 + (((bits >>> 10) & 0x1f) % 30);
  const m = bits & 0x3ff;
  return (bits & 0x8000 ? -1 : 1) * (1 + m / 1024) * 2 ** (e - 15);
}

/** A finite f32 value from random bits (a NaN or infinity exponent is moved down by one). */
function f32Value(bits: number): number {
  const e = (bits >>> 23) & 0xff;
  const b = e === 0xff ? bits - (1 << 23) : bits;
  return new Float32Array(new Uint32Array([b >>> 0]).buffer)[0];
}

function textures(): Texture[] {
  const r = rng(0x1a9e);
  const channel = (f: ImageFormatName): number => {
    const kind = IMAGE_FORMATS[f].kind;
    if (kind === 'unorm8') return r() & 0xff;
    if (kind === 'f16') return f16Value(r());
    if (kind === 'f32') return f32Value(r());
    return r();
  };
  const image = (f: ImageFormatName, w: number, h: number, levels = 1): ImageModel =>
    makeImage(f, w, h, levels, () => Array.from({ length: IMAGE_FORMATS[f].channels }, () => channel(f)));
  const plain = (img: ImageModel, o: Omit<TSharpSpec, 'format' | 'width' | 'height' | 'levels'> = {}): Texture => ({
    img,
    view: viewOf(img, o),
  });
  return [
    plain(image('rgba8_unorm', 64, 2)),
    plain(image('r32_float', 64, 1)),
    plain(image('rgba16_float', 72, 3)),
    plain(image('rg32_float', 80, 1)),
    plain(image('r32_uint', 100, 1)),
    plain(image('rgba32_float', 64, 1), { dstSel: ['w', 'z', '1', 'x'] }),
    // BASE_LEVEL 1 of a two-level chain: level 1 is 64 texels wide, and lane 62 reads its texel 62.
    plain(image('rg16_float', 128, 2, 2), { baseLevel: 1 }),
    plain(image('rgba8_unorm', 64, 1), { dstSel: ['z', 'y', 'x', 'w'] }),
  ];
}

/** The four dwords lane `tid` stores. */
export function reference(tex: readonly Texture[], tid: number): number[] {
  const { img, view } = tex[tid & 7];
  const level = view.baseLevel ?? 0;
  if (tid >= levelSize(img, level).width) throw new Error(`lane ${tid} would read past the row`);
  const v = swizzle(view.dstSel ?? ['x', 'y', 'z', 'w'], texelValue(img, level, tid, 0));
  return v.map((x) => componentWord(img.format, x));
}

export const kernel: CorpusKernel = {
  id: 'llvm/waterfall_image_load',
  spec(t: Target) {
    const tex = textures();
    const regions: Json[] = [];
    let at = IMAGES;
    const descriptors = tex.map(({ img, view }, k) => {
      const region = imageRegion(t, `image${k}`, at, img, view) as { data: { hex: string } };
      regions.push(region as unknown as Json);
      at += Math.ceil(region.data.hex.length / 2 / 0x10000 + 1) * 0x10000;
      return tsharp(t, view, `image${k}`);
    });
    const expected = Array.from({ length: THREADS }, (_, tid) => {
      const unorm = IMAGE_FORMATS[tex[tid & 7].img.format].kind === 'unorm8';
      return {
        address: OUT + 16 * tid,
        data: u32(reference(tex, tid)),
        ...(unorm ? { compare: { kind: 'ulp', element: 'f32', ulps: 1 } } : {}),
      };
    });
    return amdpalSpec(t, 'waterfall_image_load', {
      userData: [{ pointer: 'table' }, storageBuffer(t, 'out', THREADS * 16)],
      group: THREADS,
      memory: [
        { name: 'table', address: TABLE, data: { descriptors } },
        ...regions,
        { name: 'out', address: OUT, data: { fill: 0xcd, size: THREADS * 16 } },
      ],
      expected,
    });
  },
};
