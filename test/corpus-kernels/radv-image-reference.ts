/**
 * The reference for the image-reading corpus kernels: texture images as lists of texels, and
 * what a Vulkan sampler returns for them, written from the Vulkan 1.3 specification's chapter
 * "Image Operations" (section titles are cited where each rule is used), never from the
 * interpreter. Values are computed in doubles; `bound` is the absolute error a filtered value
 * may carry (FILTER_ERROR × the largest |texel| in its footprint), from which the kernel
 * modules derive their ulp tolerances.
 *
 * Modelled: 2D images; NEAREST / LINEAR filters; mipmap NEAREST / LINEAR; REPEAT,
 * MIRRORED_REPEAT, CLAMP_TO_EDGE, CLAMP_TO_BORDER; explicit LOD, gradients, sampler bias and
 * LOD clamps; const offsets; gather with and without depth compare; depth compare by all
 * eight VkCompareOps; texel fetch. Anything else is a thrown error naming what is missing.
 */

/** The formats the kernels bind, as Vulkan names them. */
export type TexelFormat = 'rgba8_unorm' | 'rgba8_srgb' | 'rgba16_float' | 'r32_float' | 'rg16_snorm' | 'd32_float';

/** Bytes per texel, and the components the format stores (the rest read as 0, alpha 1). */
export const FORMAT_SHAPE: Readonly<Record<TexelFormat, { readonly bytes: number; readonly components: number }>> = {
  rgba8_unorm: { bytes: 4, components: 4 },
  rgba8_srgb: { bytes: 4, components: 4 },
  rgba16_float: { bytes: 8, components: 4 },
  r32_float: { bytes: 4, components: 1 },
  rg16_snorm: { bytes: 4, components: 2 },
  d32_float: { bytes: 4, components: 1 },
};

export interface TextureLevel {
  readonly width: number;
  readonly height: number;
  /** Row-major texels as stored (little-endian components, R first). */
  readonly raw: Uint8Array;
  /** Row-major RGBA after "Conversion to RGBA" (exact doubles). */
  readonly texels: readonly (readonly number[])[];
}

export interface Texture {
  readonly format: TexelFormat;
  readonly levels: readonly TextureLevel[];
}

export type Filter = 'nearest' | 'linear';
export type AddressMode = 'repeat' | 'mirrored-repeat' | 'clamp-to-edge' | 'clamp-to-border';
export type BorderColor = 'transparent-black' | 'opaque-black' | 'opaque-white';

/** A VkSamplerCreateInfo, the parts these kernels set. */
export interface VkSampler {
  readonly magFilter: Filter;
  readonly minFilter: Filter;
  readonly mipmapMode: Filter;
  readonly addressU: AddressMode;
  readonly addressV: AddressMode;
  readonly addressW?: AddressMode;
  /** VkCompareOp (0 NEVER .. 7 ALWAYS) with compareEnable; undefined: compare disabled. */
  readonly compareOp?: number;
  readonly minLod?: number;
  readonly maxLod?: number;
  readonly mipLodBias?: number;
  /** maxAnisotropy with anisotropyEnable; undefined: disabled. */
  readonly maxAnisotropy?: number;
  readonly border?: BorderColor;
}

/** A result and the absolute error it may carry (0: exact). */
export interface Sampled {
  readonly value: readonly number[];
  readonly bound: number;
}

/**
 * Filtering error allowed, relative to the largest |texel| of the footprint: the result is a
 * few f32 multiply-adds of those texels (2^-22 each at most), taken 4x. The coordinates of
 * these kernels put every filter weight on a 1/256 grid (their contracts say so), so the
 * hardware's fixed-point weights (8 sub-texel bits on RADV) add no error of their own.
 */
export const FILTER_ERROR = 2 ** -20;

// ---------------------------------------------------------------- texel values

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** An f32 from its bits. */
export function f32FromBits(bits: number): number {
  U32[0] = bits >>> 0;
  return F32[0];
}

/** The bits of a number rounded to f32. */
export function f32Bits(v: number): number {
  F32[0] = v;
  return U32[0];
}

/** IEEE binary16 bits -> value (denormals kept). */
export function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/** The sRGB EOTF (Khronos Data Format Specification 1.3, §13.3.1 "sRGB EOTF"), on [0, 1]. */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/**
 * One stored texel -> RGBA, as "Conversion to RGBA" (Vulkan 1.3, Image Operations) and the
 * fixed-point conversions of "Fixed-Point Data Conversions" say: UNORM c / (2^b - 1), SNORM
 * max(c / (2^(b-1) - 1), -1), sRGB R, G, B through the EOTF before filtering; components the
 * format lacks read 0, alpha 1.
 */
export function decodeTexel(format: TexelFormat, b: Uint8Array, at: number): number[] {
  const u16 = (k: number) => b[at + k] | (b[at + k + 1] << 8);
  const u32 = (k: number) => (b[at + k] | (b[at + k + 1] << 8) | (b[at + k + 2] << 16) | (b[at + k + 3] << 24)) >>> 0;
  switch (format) {
    case 'rgba8_unorm':
      return [0, 1, 2, 3].map((k) => b[at + k] / 255);
    case 'rgba8_srgb':
      return [0, 1, 2, 3].map((k) => (k === 3 ? b[at + k] / 255 : srgbToLinear(b[at + k] / 255)));
    case 'rgba16_float':
      return [0, 1, 2, 3].map((k) => halfToNumber(u16(2 * k)));
    case 'r32_float':
    case 'd32_float':
      return [f32FromBits(u32(0)), 0, 0, 1];
    case 'rg16_snorm': {
      const s = (v: number) => Math.max((v >= 0x8000 ? v - 0x10000 : v) / 32767, -1);
      return [s(u16(0)), s(u16(2)), 0, 1];
    }
  }
}

/** A texture from the raw bytes of each level (row-major, width x height texels). */
export function textureFromRaw(
  format: TexelFormat,
  levels: readonly { width: number; height: number; raw: Uint8Array }[],
): Texture {
  const bpe = FORMAT_SHAPE[format].bytes;
  return {
    format,
    levels: levels.map((l) => {
      if (l.raw.length !== l.width * l.height * bpe)
        throw new Error(`level ${l.width}x${l.height} of ${format} needs ${l.width * l.height * bpe} bytes`);
      return {
        ...l,
        texels: Array.from({ length: l.width * l.height }, (_, i) => decodeTexel(format, l.raw, i * bpe)),
      };
    }),
  };
}

// ---------------------------------------------------------------- addressing

/** mirror(n) of "Wrapping Operation". */
function mirror(n: number): number {
  return n >= 0 ? n : -(1 + n);
}

function mod(a: number, n: number): number {
  return a - n * Math.floor(a / n);
}

/** "Wrapping Operation" (Vulkan 1.3, Image Operations): the texel index, or null for the border. */
export function wrap(i: number, size: number, mode: AddressMode): number | null {
  switch (mode) {
    case 'repeat':
      return mod(i, size);
    case 'mirrored-repeat':
      return size - 1 - mirror(mod(i, 2 * size) - size);
    case 'clamp-to-edge':
      return Math.min(Math.max(i, 0), size - 1);
    case 'clamp-to-border': {
      const c = Math.min(Math.max(i, -1), size);
      return c === -1 || c === size ? null : c;
    }
  }
}

const BORDER_RGBA: Readonly<Record<BorderColor, readonly number[]>> = {
  'transparent-black': [0, 0, 0, 0],
  'opaque-black': [0, 0, 0, 1],
  'opaque-white': [1, 1, 1, 1],
};

/** VkCompareOp applied as `reference OP test` ("Depth Compare Operation": reference Dref, test D). */
export function compareOp(op: number, ref: number, d: number): boolean {
  switch (op) {
    case 0:
      return false;
    case 1:
      return ref < d;
    case 2:
      return ref === d;
    case 3:
      return ref <= d;
    case 4:
      return ref > d;
    case 5:
      return ref !== d;
    case 6:
      return ref >= d;
    case 7:
      return true;
    default:
      throw new Error(`VkCompareOp ${op} does not exist`);
  }
}

/** What a texel lookup compares against: the reference depth, with the sampler's op. */
interface CompareWith {
  readonly op: number;
  readonly ref: number;
}

function texelAt(tex: Texture, level: number, s: VkSampler, i: number, j: number, cmp?: CompareWith): number[] {
  const L = tex.levels[level];
  const x = wrap(i, L.width, s.addressU);
  const y = wrap(j, L.height, s.addressV);
  let t: readonly number[];
  if (x === null || y === null) {
    if (FORMAT_SHAPE[tex.format].components !== 4)
      throw new Error(`border texels of ${tex.format} (fewer than 4 components) are not modelled`);
    t = BORDER_RGBA[s.border ?? 'transparent-black'];
  } else t = L.texels[y * L.width + x];
  if (!cmp) return [...t];
  // "Depth Compare Operation": for a format with a depth component the compare replaces it
  // with 1.0 or 0.0 before filtering; D32_SFLOAT is not normalised, so Dref is not clamped.
  const c = compareOp(cmp.op, cmp.ref, t[0]) ? 1 : 0;
  return [c, 0, 0, 1];
}

function frac(v: number): number {
  return v - Math.floor(v);
}

/** One level filtered at texel-space (u, v) by a filter ("Texel Filtering"). */
function filterLevel(
  tex: Texture,
  level: number,
  s: VkSampler,
  u: number,
  v: number,
  filter: Filter,
  cmp?: CompareWith,
): Sampled {
  if (filter === 'nearest') {
    // "(u,v,w,a) to (i,j,k,l,n) Transformation": i = floor(u), j = floor(v); exact.
    return { value: texelAt(tex, level, s, Math.floor(u), Math.floor(v), cmp), bound: 0 };
  }
  const i0 = Math.floor(u - 0.5);
  const j0 = Math.floor(v - 0.5);
  const a = frac(u - 0.5);
  const b = frac(v - 0.5);
  const t00 = texelAt(tex, level, s, i0, j0, cmp);
  const t10 = texelAt(tex, level, s, i0 + 1, j0, cmp);
  const t01 = texelAt(tex, level, s, i0, j0 + 1, cmp);
  const t11 = texelAt(tex, level, s, i0 + 1, j0 + 1, cmp);
  const value = [0, 1, 2, 3].map(
    (k) => (1 - a) * (1 - b) * t00[k] + a * (1 - b) * t10[k] + (1 - a) * b * t01[k] + a * b * t11[k],
  );
  const mag = Math.max(...[t00, t10, t01, t11].flatMap((t) => t.map(Math.abs)));
  // Never exact: a filtered zero may come back as -0, which only the ulp compare accepts.
  return { value, bound: Math.max(FILTER_ERROR * mag, 2 ** -149) };
}

// ---------------------------------------------------------------- level selection

/** Vulkan's RADV limit maxSamplerLodBias (VkPhysicalDeviceLimits): the bias clamp. */
const MAX_SAMPLER_LOD_BIAS = 16;

export interface LevelChoice {
  /** Levels and their weights (one level, or two for mipmap LINEAR between levels). */
  readonly levels: readonly { readonly level: number; readonly weight: number }[];
  /** λ <= 0: the magnification filter applies, else the minification filter. */
  readonly magnified: boolean;
}

/**
 * "Scale Factor Operation, Level-of-Detail Operation and Image Level(s) Selection": λ' =
 * λ_base + clamp(bias), λ = clamp(λ', minLod, maxLod); d_l = clamp(λ, 0, q) (base level 0);
 * mipmap NEAREST takes ceil(d_l + 0.5) - 1, LINEAR blends floor(d_l) and the next level by
 * frac(d_l).
 */
export function selectLevels(tex: Texture, s: VkSampler, lambdaBase: number): LevelChoice {
  const bias = Math.min(Math.max(s.mipLodBias ?? 0, -MAX_SAMPLER_LOD_BIAS), MAX_SAMPLER_LOD_BIAS);
  const minLod = s.minLod ?? 0;
  const maxLod = s.maxLod ?? 1000;
  const lambda = Math.min(Math.max(lambdaBase + bias, minLod), maxLod);
  const q = tex.levels.length - 1;
  const dl = Math.min(Math.max(lambda, 0), q);
  const magnified = lambda <= 0;
  if (s.mipmapMode === 'nearest') return { levels: [{ level: Math.ceil(dl + 0.5) - 1, weight: 1 }], magnified };
  const hi = Math.floor(dl);
  const lo = Math.min(hi + 1, q);
  const delta = dl - hi;
  if (delta === 0 || lo === hi) return { levels: [{ level: hi, weight: 1 }], magnified };
  return {
    levels: [
      { level: hi, weight: 1 - delta },
      { level: lo, weight: delta },
    ],
    magnified,
  };
}

function checkSampler(s: VkSampler, explicitLod: boolean): void {
  // "Texel Anisotropic Filtering": N samples along the footprint's major axis, N from the
  // derivatives; an explicit LOD gives none, so the footprint is one isotropic sample (N = 1)
  // and only the derivative forms would need an anisotropic model.
  if ((s.maxAnisotropy ?? 1) > 1 && !explicitLod) throw new Error('anisotropic filtering with derivatives');
}

/** Samples at normalized (s, t) with an explicit λ_base, a const offset in texels, and an optional compare. */
export function sampleLod(
  tex: Texture,
  s: VkSampler,
  st: readonly [number, number],
  lambdaBase: number,
  o: { offset?: readonly [number, number]; ref?: number } = {},
  explicitLod = true,
): Sampled {
  checkSampler(s, explicitLod);
  const choice = selectLevels(tex, s, lambdaBase);
  const filter = choice.magnified ? s.magFilter : s.minFilter;
  const cmp = o.ref === undefined ? undefined : compareWith(s, o.ref);
  const [dx, dy] = o.offset ?? [0, 0];
  let value = [0, 0, 0, 0];
  let bound = 0;
  for (const { level, weight } of choice.levels) {
    const L = tex.levels[level];
    // "(s,t,r,q,a) to (u,v,w,a) Transformation": u = s × width + Δi, v = t × height + Δj.
    const r = filterLevel(tex, level, s, st[0] * L.width + dx, st[1] * L.height + dy, filter, cmp);
    value = value.map((x, k) => x + weight * r.value[k]);
    bound = Math.max(bound, r.bound);
    // Blending two levels is filtering too (of the two levels' results).
    if (choice.levels.length > 1) bound = Math.max(bound, FILTER_ERROR * Math.max(...r.value.map(Math.abs)), 2 ** -149);
  }
  return { value, bound };
}

/**
 * textureGrad: λ_base = log2(ρ_max), ρ_x = |(∂u/∂x, ∂v/∂x)|, ρ_y likewise, the derivatives
 * scaled by the base level's size ("Scale Factor Operation", isotropic: η = 1).
 */
export function sampleGrad(
  tex: Texture,
  s: VkSampler,
  st: readonly [number, number],
  dPdx: readonly [number, number],
  dPdy: readonly [number, number],
): Sampled {
  const L0 = tex.levels[0];
  const rx = Math.hypot(dPdx[0] * L0.width, dPdx[1] * L0.height);
  const ry = Math.hypot(dPdy[0] * L0.width, dPdy[1] * L0.height);
  return sampleLod(tex, s, st, Math.log2(Math.max(rx, ry)), {}, false);
}

function compareWith(s: VkSampler, ref: number): CompareWith {
  if (s.compareOp === undefined) throw new Error('a depth-compare sample needs a sampler with compareEnable');
  return { op: s.compareOp, ref };
}

/**
 * "Texel Gathering": the four texels the LINEAR minification rules pick in the base level,
 * component `component` of each (or their compare results), in the order i0j1, i1j1, i1j0, i0j0.
 */
export function gather(
  tex: Texture,
  s: VkSampler,
  st: readonly [number, number],
  component: number,
  o: { offset?: readonly [number, number]; ref?: number } = {},
): number[] {
  const L = tex.levels[0];
  const [dx, dy] = o.offset ?? [0, 0];
  const u = st[0] * L.width + dx;
  const v = st[1] * L.height + dy;
  const i0 = Math.floor(u - 0.5);
  const j0 = Math.floor(v - 0.5);
  const cmp = o.ref === undefined ? undefined : compareWith(s, o.ref);
  const c = cmp ? 0 : component;
  return [
    [i0, j0 + 1],
    [i0 + 1, j0 + 1],
    [i0 + 1, j0],
    [i0, j0],
  ].map(([i, j]) => texelAt(tex, 0, s, i, j, cmp)[c]);
}

/** texelFetch: the texel at integer (x, y) of a level, in range (no sampler). */
export function texelFetch(tex: Texture, x: number, y: number, level: number): number[] {
  const L = tex.levels[level];
  if (x < 0 || y < 0 || x >= L.width || y >= L.height) throw new Error(`texel (${x}, ${y}) is outside level ${level}`);
  return [...L.texels[y * L.width + x]];
}
