/**
 * What the image-reading RADV kernels share: the image and sampler bindings of vkcomp's set 0,
 * the T# and S# RADV writes for a VkImageView / VkSampler (the fields the driver sets, per
 * generation), the texture bytes laid out as the T# says, seeded texture contents, and the
 * expected f32 ranges with the tolerance the reference gives each value.
 */
import { Gen, targetFor } from '../../src/isa/gen.ts';
import { decodeImageDescriptor, encodeImageDescriptor } from '../../src/host/descriptors/index.ts';
import { surfaceLayout, writeSurface } from '../../src/host/texels/index.ts';
import type { Json } from './common.ts';
import {
  FORMAT_SHAPE,
  f32Bits,
  textureFromRaw,
  type AddressMode,
  type Filter,
  type Sampled,
  type TexelFormat,
  type Texture,
  type VkSampler,
} from './radv-image-reference.ts';
import type { Target } from './targets.ts';

/**
 * Byte offsets in set 0 of vkcomp.c / vkcomp_additions.c (RADV 22.3 sizes: a sampled or
 * storage image 64 / 32 bytes, a combined image sampler with an immutable sampler 64, a
 * buffer or sampler 16; immutable SAMPLER bindings take no space). The listings load them at
 * these offsets (e.g. radv/gfx1030w32_image_formats_sample.dump: tex[1] at 0x40, samp[0] at 0x860).
 */
export const RADV_SET = {
  /** b0 SAMPLED_IMAGE[16], 64 bytes apart (T# then FMASK). */
  texture: (k: number): number => 0x40 * k,
  /** b1 SAMPLER. */
  sampler: 0x400,
  /** b2 STORAGE_BUFFER. */
  output: 0x410,
  /** b4 STORAGE_IMAGE[16], 32 bytes apart. */
  storageImage: (k: number): number => 0x520 + 0x20 * k,
  /** b5 COMBINED_IMAGE_SAMPLER with an immutable sampler: the T# only. */
  combined: 0x720,
  /** b7 SAMPLER[16]. */
  samplers: (k: number): number => 0x860 + 0x10 * k,
} as const;

export function genOf(t: Target): Gen {
  return targetFor(t.mcpu, t.wave64).gen;
}

// ---------------------------------------------------------------- S#

const CLAMP: Readonly<Record<AddressMode, number>> = {
  repeat: 0, // SQ_TEX_WRAP
  'mirrored-repeat': 1, // SQ_TEX_MIRROR
  'clamp-to-edge': 2, // SQ_TEX_CLAMP_LAST_TEXEL
  'clamp-to-border': 6, // SQ_TEX_CLAMP_BORDER
};
const BORDER_TYPE = { 'transparent-black': 0, 'opaque-black': 1, 'opaque-white': 2 } as const;

function u48(v: number): number {
  return Math.round(Math.min(Math.max(v, 0), 15) * 256);
}

/**
 * The S# RADV 22.3 writes for a sampler, as raw fields (DESCRIPTORS.md §3 "How Mesa programs
 * the LOD fields", "Anisotropy", "Point sampling"): LODs u4.8 clamped to [0, 15], the bias s5.8
 * clamped to ±16 (±32 on gfx10), TRUNC_COORD for point-only samplers, COMPAT_MODE on gfx8/9,
 * DISABLE_LSB_CEIL on gfx7/8, FILTER_PREC_FIX before gfx10, and a border colour type only
 * where an address mode uses the border (transparent black otherwise, as the listings'
 * immutable S# words show). radv-image-common.test.ts checks it against those words.
 */
export function radvSamplerFields(gen: Gen, s: VkSampler): Record<string, number> {
  const ratio = (s.maxAnisotropy ?? 1) > 1 ? Math.log2(s.maxAnisotropy ?? 1) : 0;
  if (!Number.isInteger(ratio) || ratio > 4)
    throw new Error(`maxAnisotropy ${s.maxAnisotropy} is not 1, 2, 4, 8 or 16`);
  const xy = (f: Filter) => (f === 'nearest' ? 0 : 1) + (ratio > 0 ? 2 : 0);
  const modes = [s.addressU, s.addressV, s.addressW ?? 'clamp-to-edge'];
  const usesBorder = modes.includes('clamp-to-border');
  const biasLimit = gen >= Gen.GFX10 ? [-32, 31] : [-16, 16];
  const bias = Math.round(Math.min(Math.max(s.mipLodBias ?? 0, biasLimit[0]), biasLimit[1]) * 256);
  const f: Record<string, number> = {
    clamp_x: CLAMP[modes[0]],
    clamp_y: CLAMP[modes[1]],
    clamp_z: CLAMP[modes[2]],
    max_aniso_ratio: ratio,
    depth_compare_func: s.compareOp ?? 0,
    aniso_threshold: ratio >> 1,
    aniso_bias: ratio,
    trunc_coord: s.magFilter === 'nearest' && s.minFilter === 'nearest' ? 1 : 0,
    min_lod: u48(s.minLod ?? 0),
    max_lod: u48(s.maxLod ?? 1000),
    perf_mip: ratio > 0 ? ratio + 6 : 0,
    lod_bias: bias & 0x3fff,
    xy_mag_filter: xy(s.magFilter),
    xy_min_filter: xy(s.minFilter),
    mip_filter: s.mipmapMode === 'nearest' ? 1 : 2,
    border_color_type: usesBorder ? BORDER_TYPE[s.border ?? 'transparent-black'] : 0,
  };
  if (gen === Gen.GFX8 || gen === Gen.GFX9) f.compat_mode = 1;
  if (gen <= Gen.GFX8) f.disable_lsb_ceil = 1;
  if (gen <= Gen.GFX9) f.filter_prec_fix = 1;
  return f;
}

/** The S# as a spec descriptor. */
export function radvSampler(t: Target, s: VkSampler): Json {
  return { sampler: radvSamplerFields(genOf(t), s) };
}

// ---------------------------------------------------------------- T#

interface FormatCodes {
  /** gfx10 unified FORMAT (DESCRIPTORS.md §4.3). */
  readonly unified: number;
  /** gfx7-9 IMG_DATA_FORMAT and IMG_NUM_FORMAT (§4.1, §4.2). */
  readonly data: number;
  readonly num: number;
  /** DST_SEL X, Y, Z, W: 0 '0', 1 '1', 4..7 X..W (RADV swizzles missing channels to 0, alpha to 1). */
  readonly sel: readonly [number, number, number, number];
}

const XYZW = [4, 5, 6, 7] as const;
const CODES: Readonly<Record<TexelFormat, FormatCodes>> = {
  rgba8_unorm: { unified: 56, data: 10, num: 0, sel: XYZW },
  rgba8_srgb: { unified: 130, data: 10, num: 9, sel: XYZW },
  rgba16_float: { unified: 71, data: 12, num: 7, sel: XYZW },
  r32_float: { unified: 22, data: 4, num: 7, sel: [4, 0, 0, 1] },
  rg16_snorm: { unified: 24, data: 5, num: 1, sel: [4, 5, 0, 1] },
  d32_float: { unified: 22, data: 4, num: 7, sel: [4, 0, 0, 1] },
};

const alignUp = (v: number, a: number): number => Math.ceil(v / a) * a;

/**
 * T# fields (without the address) for a 2D texture. `tiled` picks a tiled surface where one
 * needs no chip configuration: gfx7/8 TILING_INDEX 13 (1D_TILED_THIN1), gfx10 SW_4KB_S;
 * otherwise (and always on gfx9) LINEAR (TILING_INDEX 8, LINEAR_ALIGNED, on gfx7/8). PITCH:
 * texels on gfx7/8 (addrlib's alignment for the mode), epitch on gfx9 (the row pitch, or the
 * chain height of a linear mip chain).
 */
export function radvTextureFields(gen: Gen, tex: Texture, tiled: boolean): Record<string, number> {
  const c = CODES[tex.format];
  const n = tex.levels.length;
  const w = tex.levels[0].width;
  const h = tex.levels[0].height;
  const bpe = FORMAT_SHAPE[tex.format].bytes;
  const f: Record<string, number> = {
    height: h - 1,
    dst_sel_x: c.sel[0],
    dst_sel_y: c.sel[1],
    dst_sel_z: c.sel[2],
    dst_sel_w: c.sel[3],
    base_level: 0,
    last_level: n - 1,
    type: 9, // 2D
  };
  if (gen >= Gen.GFX10)
    return {
      ...f,
      format: c.unified,
      width_lo: (w - 1) & 3,
      width_hi: (w - 1) >> 2,
      resource_level: 1,
      sw_mode: tiled ? 5 : 0,
      max_mip: n - 1,
    };
  if (gen === Gen.GFX9) {
    let chain = 0;
    for (let i = 0, r = h; i < n; i++, r = Math.max(1, Math.ceil(r / 2))) chain += r;
    const pitch = n === 1 ? alignUp(w, 256 / bpe) : chain;
    return { ...f, data_format: c.data, num_format: c.num, width: w - 1, sw_mode: 0, pitch: pitch - 1, max_mip: n - 1 };
  }
  const pitch = tiled ? alignUp(w, 8) : alignUp(w, Math.max(8, 64 / bpe));
  return {
    ...f,
    data_format: c.data,
    num_format: c.num,
    width: w - 1,
    tiling_index: tiled ? 13 : 8,
    pitch: pitch - 1,
    pow2_pad: n > 1 ? 1 : 0, // Mesa sets POW2_PAD on every mip chain (DESCRIPTORS.md §2)
  };
}

/** A texture bound at an address: its T# for the set and its memory region. */
export interface BoundTexture {
  readonly descriptor: Json;
  readonly region: Json;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The T# and the bytes of a texture at `address` (a multiple of 64 KiB keeps every mode's
 * alignment): each level's texels stored where the surface layout of that T# puts them.
 */
export function bindTexture(t: Target, name: string, address: number, tex: Texture, tiled = false): BoundTexture {
  const gen = genOf(t);
  const fields = radvTextureFields(gen, tex, tiled);
  const desc = decodeImageDescriptor(gen, encodeImageDescriptor(gen, { ...fields, base_address: address / 256 }));
  const layout = surfaceLayout(gen, desc);
  const bytes = new Uint8Array(layout.size);
  tex.levels.forEach((l, level) => writeSurface(layout, bytes, level, 0, l.raw));
  return {
    descriptor: { image: { name, address: name, ...fields } },
    region: { name, address, data: { hex: hex(bytes) } },
  };
}

// ---------------------------------------------------------------- contents

/** Mip level sizes of a chain: halved, at least 1. */
function levelSizes(width: number, height: number, levels: number): { width: number; height: number }[] {
  return Array.from({ length: levels }, (_, i) => ({
    width: Math.max(1, width >> i),
    height: Math.max(1, height >> i),
  }));
}

/**
 * Seeded texels for a format: any byte for 8-bit formats; binary16 values of magnitude below
 * 32 with denormals among them; f32 in (-64, 64); any SNORM16 (with -32768, which reads -1
 * like -32767, in the first texel); depths k/128 (k in 0..128), so EQUAL meets the kernels'
 * odd multiples of 1/128.
 */
export function randomTexture(
  r: () => number,
  format: TexelFormat,
  width: number,
  height: number,
  levels: number,
): Texture {
  const bpe = FORMAT_SHAPE[format].bytes;
  return textureFromRaw(
    format,
    levelSizes(width, height, levels).map(({ width: w, height: h }) => {
      const raw = new Uint8Array(w * h * bpe);
      const dv = new DataView(raw.buffer);
      for (let i = 0; i < w * h; i++) {
        const at = i * bpe;
        switch (format) {
          case 'rgba8_unorm':
          case 'rgba8_srgb':
            dv.setUint32(at, r(), true);
            break;
          case 'rgba16_float':
            for (let k = 0; k < 4; k++) {
              const v = r();
              dv.setUint16(at + 2 * k, (v & 0x8000) | (((v >>> 16) % 20) << 10) | (v & 0x3ff), true);
            }
            break;
          case 'r32_float':
            dv.setUint32(at, f32Bits((r() / 2 ** 32 - 0.5) * 128), true);
            break;
          case 'rg16_snorm':
            dv.setUint32(at, i === 0 ? 0x8000 | (r() & 0xffff0000) : r(), true);
            break;
          case 'd32_float':
            dv.setUint32(at, f32Bits((r() % 129) / 128), true);
            break;
        }
      }
      return { width: w, height: h, raw };
    }),
  );
}

// ---------------------------------------------------------------- expected ranges

/** Bits of an f32 as an integer in the float's order (the ulp compare's distance). */
function ordered(bits: number): number {
  return bits & 0x80000000 ? -(bits & 0x7fffffff) : bits;
}

/** Ulps at the f32 of `e` that cover every f32 within `bound` of e (plus one for rounding e). */
export function ulpsFor(e: number, bound: number): number {
  if (bound === 0) return 0;
  const at = ordered(f32Bits(e));
  return Math.max(Math.abs(ordered(f32Bits(e + bound)) - at), Math.abs(ordered(f32Bits(e - bound)) - at)) + 1;
}

/**
 * Expected f32 words of a region from offset 0: runs of elements with the same tolerance
 * become one range each (exact where the bound is 0, else an ulp compare).
 */
export function f32Expected(region: string, values: readonly Sampled[] | readonly number[][], perValue = 4): Json[] {
  const words: number[] = [];
  const ulps: number[] = [];
  for (const v of values) {
    const s: Sampled = Array.isArray(v) ? { value: v, bound: 0 } : (v as Sampled);
    if (s.value.length !== perValue) throw new Error(`expected ${perValue} components, got ${s.value.length}`);
    for (const x of s.value) {
      words.push(f32Bits(x));
      ulps.push(ulpsFor(x, s.bound));
    }
  }
  const out: Json[] = [];
  for (let i = 0; i < words.length;) {
    let j = i + 1;
    while (j < words.length && ulps[j] === ulps[i]) j++;
    out.push({
      address: { region, offset: 4 * i },
      data: { type: 'u32', values: words.slice(i, j) },
      ...(ulps[i] > 0 ? { compare: { kind: 'ulp', element: 'f32', ulps: ulps[i] } } : {}),
    });
    i = j;
  }
  return out;
}
