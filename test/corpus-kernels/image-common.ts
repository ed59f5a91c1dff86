/**
 * The image kernels' shared reference pieces (the exports are kept stable: other kernel
 * modules import them):
 * - an image model: texel values chosen by the test, their bytes through the generation's
 *   linear surface layout (src/host/texels places the levels, D007), and the T# fields of a
 *   linear view of it per generation (DESCRIPTORS.md §2, §4.1, §4.3);
 * - a sampler model: the S# fields (DESCRIPTORS.md §3) and what sampling returns, written
 *   here from the definitions (Vulkan's texel filtering: point or bilinear on texel indices,
 *   the wrap modes, the LOD from a quad's derivatives, nearest-level mip selection), not from
 *   the interpreter;
 * - a `program` capture (docs/capture-spec.md, "A program run from given registers") for
 *   the amdgpu_ps functions that take their arguments in registers and return in VGPRs.
 */
import { Gen, targetFor } from '../../src/isa/gen.ts';
import { f16Bits } from '../../src/host/capture/data.ts';
import { decodeImageDescriptor, encodeImageDescriptor, type ImageFieldName } from '../../src/host/descriptors/index.ts';
import { surfaceLayout, writeSurface } from '../../src/host/texels/index.ts';
import type { Json, Spec } from './common.ts';
import type { Target } from './targets.ts';

export const genOf = (t: Target): Gen => targetFor(t.mcpu, t.wave64).gen;

/** f32 bits of a number (rounded to f32 first) and back. */
export function f32Bits(v: number): number {
  return new Uint32Array(new Float32Array([v]).buffer)[0];
}

// ------------------------------------------------------------------------------- formats

interface FormatDef {
  readonly channels: 1 | 2 | 4;
  /** How a channel is stored: 8-bit UNORM, f16, f32 or a 32-bit unsigned integer. */
  readonly kind: 'unorm8' | 'f16' | 'f32' | 'u32';
  /** gfx7-9 IMG_DATA_FORMAT and IMG_NUM_FORMAT (DESCRIPTORS.md §4.1, §4.2). */
  readonly dataFormat: number;
  readonly numFormat: number;
  /** gfx10 / 10.3 unified FORMAT (DESCRIPTORS.md §4.3). */
  readonly unified: number;
}

const NUM_UNORM = 0;
const NUM_UINT = 4;
const NUM_FLOAT = 7;

export const IMAGE_FORMATS = {
  rgba8_unorm: { channels: 4, kind: 'unorm8', dataFormat: 10, numFormat: NUM_UNORM, unified: 56 },
  r32_uint: { channels: 1, kind: 'u32', dataFormat: 4, numFormat: NUM_UINT, unified: 20 },
  r32_float: { channels: 1, kind: 'f32', dataFormat: 4, numFormat: NUM_FLOAT, unified: 22 },
  rg32_float: { channels: 2, kind: 'f32', dataFormat: 11, numFormat: NUM_FLOAT, unified: 64 },
  rgba32_float: { channels: 4, kind: 'f32', dataFormat: 14, numFormat: NUM_FLOAT, unified: 77 },
  rg16_float: { channels: 2, kind: 'f16', dataFormat: 5, numFormat: NUM_FLOAT, unified: 29 },
  rgba16_float: { channels: 4, kind: 'f16', dataFormat: 12, numFormat: NUM_FLOAT, unified: 71 },
} as const satisfies Record<string, FormatDef>;
export type ImageFormatName = keyof typeof IMAGE_FORMATS;

const BYTES: Readonly<Record<FormatDef['kind'], number>> = { unorm8: 1, f16: 2, f32: 4, u32: 4 };

export function bytesPerTexel(format: ImageFormatName): number {
  const f: FormatDef = IMAGE_FORMATS[format];
  return f.channels * BYTES[f.kind];
}

// ------------------------------------------------------------------------------- images

/**
 * An image's texels as stored: `levels[l][y * width_l + x]` holds one number a channel (an
 * integer 0..255 for UNORM8, the float for f16 / f32, which the test keeps exactly
 * representable, the integer for u32). Level l is max(1, size >> l).
 */
export interface ImageModel {
  readonly format: ImageFormatName;
  readonly width: number;
  readonly height: number;
  readonly levels: readonly (readonly (readonly number[])[])[];
}

export function levelSize(img: ImageModel, level: number): { width: number; height: number } {
  return { width: Math.max(1, img.width >> level), height: Math.max(1, img.height >> level) };
}

/** An image whose texel (level, x, y) has the channel values `texel` gives. */
export function makeImage(
  format: ImageFormatName,
  width: number,
  height: number,
  levels: number,
  texel: (level: number, x: number, y: number) => readonly number[],
): ImageModel {
  const img = { format, width, height, levels: [] as (readonly number[])[][] };
  const channels = IMAGE_FORMATS[format].channels;
  for (let l = 0; l < levels; l++) {
    const { width: w, height: h } = levelSize(img, l);
    const level: (readonly number[])[] = [];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const t = texel(l, x, y);
        if (t.length !== channels) throw new Error(`${format} has ${channels} channels, not ${t.length}`);
        level.push(t);
      }
    img.levels.push(level);
  }
  return img;
}

/**
 * Texel (level, x, y) as the shader reads it, before DST_SEL: UNORM8 k as k/255 (rounded to
 * f32), floats as stored, u32 as the integer; channels the format lacks read 0, 0 and 1
 * (alpha).
 */
export function texelValue(img: ImageModel, level: number, x: number, y: number): number[] {
  const f: FormatDef = IMAGE_FORMATS[img.format];
  const { width } = levelSize(img, level);
  const t = img.levels[level][y * width + x];
  const out = [0, 0, 0, 1];
  for (let c = 0; c < f.channels; c++) out[c] = f.kind === 'unorm8' ? Math.fround(t[c] / 255) : t[c];
  return out;
}

/** One level's texels as linear row-major element bytes. */
function levelBytes(img: ImageModel, level: number): Uint8Array {
  const f: FormatDef = IMAGE_FORMATS[img.format];
  const texels = img.levels[level];
  const size = BYTES[f.kind];
  const out = new Uint8Array(texels.length * f.channels * size);
  const dv = new DataView(out.buffer);
  texels.forEach((t, i) =>
    t.forEach((v, c) => {
      const at = (i * f.channels + c) * size;
      if (f.kind === 'unorm8') dv.setUint8(at, v);
      else if (f.kind === 'f16') dv.setUint16(at, f16Bits(v), true);
      else if (f.kind === 'f32') dv.setFloat32(at, v, true);
      else dv.setUint32(at, v >>> 0, true);
    }),
  );
  return out;
}

/** DST_SEL per component: '0', '1' or a channel. */
export type Swizzle = readonly [DstSel, DstSel, DstSel, DstSel];
export type DstSel = '0' | '1' | 'x' | 'y' | 'z' | 'w';
export const IDENTITY: Swizzle = ['x', 'y', 'z', 'w'];
/** DESCRIPTORS.md §2 dw3 DST_SEL values: 0, 1, then X..W as 4..7. */
const DST_SEL_VALUE: Readonly<Record<DstSel, number>> = { '0': 0, '1': 1, x: 4, y: 5, z: 6, w: 7 };

/** RGBA through DST_SEL ('1' is 1.0, or the integer 1 of an integer format: the caller encodes). */
export function swizzle(sel: Swizzle, rgba: readonly number[]): number[] {
  return sel.map((s) => (s === '0' ? 0 : s === '1' ? 1 : rgba['xyzw'.indexOf(s)]));
}

/** A component as its VGPR word: f32 bits, or the integer of a u32 format. */
export function componentWord(format: ImageFormatName, v: number): number {
  return IMAGE_FORMATS[format].kind === 'u32' ? v >>> 0 : f32Bits(v);
}

/** T# TYPE (DESCRIPTORS.md §2). */
export const IMAGE_TYPE = { '1d': 8, '2d': 9, '3d': 10, cube: 11, '1d_array': 12, '2d_array': 13 } as const;
export type ImageTypeName = keyof typeof IMAGE_TYPE;

/** What a T# says about an image: its size, format, levels, the view, DST_SEL. */
export interface TSharpSpec {
  readonly format: ImageFormatName;
  readonly width: number;
  readonly height: number;
  readonly type?: ImageTypeName;
  /** 3D: the depth; arrays: the layer count; cube: the number of cubes (default 1). */
  readonly depth?: number;
  /** Levels the surface holds (default 1; gfx7/8 have no MAX_MIP: their surface holds LAST_LEVEL + 1). */
  readonly levels?: number;
  /** The view: BASE_LEVEL and LAST_LEVEL (default 0 and levels - 1). */
  readonly baseLevel?: number;
  readonly lastLevel?: number;
  readonly dstSel?: Swizzle;
}

/** gfx9 LINEAR mip chains: PITCH holds the chain height (every level's rows, mip 0 first). */
function gfx9ChainHeight(height: number, levels: number): number {
  let rows = 0;
  for (let l = 0, h = height; l < levels; l++, h = Math.max(1, Math.ceil(h / 2))) rows += h;
  return rows;
}

/**
 * The raw T# fields of a linear image (no address): gfx7/8 TILING_INDEX 8 (LINEAR_ALIGNED,
 * PITCH the row pitch), gfx9 SW_MODE 0 (PITCH: epitch, or the chain height for a mip chain),
 * gfx10+ SW_MODE 0 (no pitch; RESOURCE_LEVEL 1). Rows are padded to 256 bytes, the linear
 * pitch alignment of gfx9+ (DESCRIPTORS.md §5.2) and a multiple of gfx7/8's (§5.1).
 */
export function tsharpFields(t: Target, d: TSharpSpec): Partial<Record<ImageFieldName, number>> {
  const gen = genOf(t);
  const f: FormatDef = IMAGE_FORMATS[d.format];
  const type = d.type ?? '2d';
  const levels = d.levels ?? 1;
  const baseLevel = d.baseLevel ?? 0;
  const lastLevel = d.lastLevel ?? levels - 1;
  const count = d.depth ?? 1;
  const sel = d.dstSel ?? IDENTITY;
  const pitch = Math.ceil(d.width / (256 / bytesPerTexel(d.format))) * (256 / bytesPerTexel(d.format));
  // DEPTH: gfx7/8 a count - 1 (cubes - 1 for CUBE); gfx9+ the last layer (faces for CUBE) or depth - 1.
  let depth = 0;
  if (type === '3d') depth = count - 1;
  else if (type === 'cube') depth = gen <= Gen.GFX8 ? count - 1 : count * 6 - 1;
  else if (type.endsWith('_array')) depth = count - 1;
  const common = {
    height: d.height - 1,
    dst_sel_x: DST_SEL_VALUE[sel[0]],
    dst_sel_y: DST_SEL_VALUE[sel[1]],
    dst_sel_z: DST_SEL_VALUE[sel[2]],
    dst_sel_w: DST_SEL_VALUE[sel[3]],
    base_level: baseLevel,
    last_level: lastLevel,
    type: IMAGE_TYPE[type],
    depth,
  };
  if (gen <= Gen.GFX8) {
    return {
      ...common,
      data_format: f.dataFormat,
      num_format: f.numFormat,
      width: d.width - 1,
      tiling_index: 8,
      pitch: pitch - 1,
      ...(type.endsWith('_array') || type === 'cube'
        ? { last_array: type === 'cube' ? count * 6 - 1 : count - 1 }
        : {}),
    };
  }
  if (gen === Gen.GFX9)
    return {
      ...common,
      data_format: f.dataFormat,
      num_format: f.numFormat,
      width: d.width - 1,
      sw_mode: 0,
      pitch: levels > 1 ? gfx9ChainHeight(d.height, levels) - 1 : pitch - 1,
      max_mip: levels - 1,
    };
  return {
    ...common,
    format: f.unified,
    width_lo: (d.width - 1) & 3,
    width_hi: (d.width - 1) >> 2,
    sw_mode: 0,
    max_mip: levels - 1,
    resource_level: 1,
  };
}

/** A T# in a spec: `{image: {fields…, address?}}`. */
export function tsharp(t: Target, d: TSharpSpec, address?: string): Json {
  return { image: { ...tsharpFields(t, d), ...(address !== undefined ? { address } : {}) } };
}

/** A 2D view of an image model (its format, size and levels). */
export function viewOf(
  img: ImageModel,
  o: Omit<TSharpSpec, 'format' | 'width' | 'height' | 'levels'> = {},
): TSharpSpec {
  return { format: img.format, width: img.width, height: img.height, levels: img.levels.length, ...o };
}

/** The memory region holding an image's levels as the generation lays them out for this T#. */
export function imageRegion(t: Target, name: string, address: number, img: ImageModel, view: TSharpSpec): Json {
  const gen = genOf(t);
  const words = encodeImageDescriptor(gen, { ...tsharpFields(t, view), base_address: address / 256 });
  const layout = surfaceLayout(gen, decodeImageDescriptor(gen, words));
  const bytes = new Uint8Array(layout.size);
  for (let level = 0; level < layout.levels; level++) writeSurface(layout, bytes, level, 0, levelBytes(img, level));
  return { name, address, data: { hex: Buffer.from(bytes).toString('hex') } };
}

// ------------------------------------------------------------------------------- samplers

export type ClampName = 'wrap' | 'mirror' | 'clamp_last_texel' | 'mirror_once_last_texel' | 'clamp_border';
/** CLAMP_X/Y/Z values (DESCRIPTORS.md §3). */
const CLAMP_VALUE: Readonly<Record<ClampName, number>> = {
  wrap: 0,
  mirror: 1,
  clamp_last_texel: 2,
  mirror_once_last_texel: 3,
  clamp_border: 6,
};
export type BorderName = 'transparent_black' | 'opaque_black' | 'opaque_white';
const BORDER: Readonly<Record<BorderName, { value: number; rgba: readonly number[] }>> = {
  transparent_black: { value: 0, rgba: [0, 0, 0, 0] },
  opaque_black: { value: 1, rgba: [0, 0, 0, 1] },
  opaque_white: { value: 2, rgba: [1, 1, 1, 1] },
};

export interface SamplerModel {
  readonly clampX: ClampName;
  readonly clampY: ClampName;
  readonly mag: 'point' | 'bilinear';
  readonly min: 'point' | 'bilinear';
  /** none: the view's base level only; point: the nearest level. */
  readonly mip: 'none' | 'point';
  /** LOD clamp, multiples of 1/256 (u4.8). */
  readonly minLod: number;
  readonly maxLod: number;
  readonly border: BorderName;
}

/** The S# fields of a sampler model (DESCRIPTORS.md §3: XY filters 0 point, 1 bilinear; MIP 0 none, 1 point). */
export function samplerFields(s: SamplerModel): Record<string, number> {
  return {
    clamp_x: CLAMP_VALUE[s.clampX],
    clamp_y: CLAMP_VALUE[s.clampY],
    clamp_z: CLAMP_VALUE.clamp_last_texel,
    xy_mag_filter: s.mag === 'point' ? 0 : 1,
    xy_min_filter: s.min === 'point' ? 0 : 1,
    mip_filter: s.mip === 'none' ? 0 : 1,
    min_lod: s.minLod * 256,
    max_lod: s.maxLod * 256,
    border_color_type: BORDER[s.border].value,
  };
}

export function ssharp(s: SamplerModel): Json {
  return { sampler: samplerFields(s) };
}

/** A texel index through a wrap mode; -1 for the border. */
export function wrapTexel(i: number, n: number, mode: ClampName): number {
  switch (mode) {
    case 'wrap':
      return i - n * Math.floor(i / n);
    case 'mirror': {
      // period 2n: 0..n-1 forwards, then n-1..0
      const m = i - 2 * n * Math.floor(i / (2 * n));
      return m < n ? m : 2 * n - 1 - m;
    }
    case 'clamp_last_texel':
      return i < 0 ? 0 : i >= n ? n - 1 : i;
    case 'mirror_once_last_texel': {
      const m = i >= 0 ? i : -i - 1;
      return m >= n ? n - 1 : m;
    }
    case 'clamp_border':
      return i >= 0 && i < n ? i : -1;
  }
}

/**
 * LOD of a 2D sample from the quad's derivatives (Vulkan's scale factor: rho = max of the
 * lengths of d(u·w, v·h)/dx and /dy over the view's base level), AMD's coarse derivatives:
 * x from the quad's lanes 0 and 1, y from lanes 0 and 2. `quad` holds the four lanes' (u, v).
 */
export function quadLod(quad: readonly (readonly [number, number])[], width: number, height: number): number {
  const d = (a: number) => [(quad[a][0] - quad[0][0]) * width, (quad[a][1] - quad[0][1]) * height];
  const [dux, dvx] = d(1);
  const [duy, dvy] = d(2);
  return Math.log2(Math.max(Math.hypot(dux, dvx), Math.hypot(duy, dvy)));
}

/**
 * The level a sample reads and its filter: the LOD clamped to the S#'s [MIN_LOD, MAX_LOD]
 * picks the mag (LOD <= 0) or the min filter; mip none reads the view's base level, mip
 * point the nearest level of the view (a LOD halfway between two is refused: keep away).
 */
export function mipLevel(
  view: TSharpSpec,
  s: SamplerModel,
  lod: number,
): { readonly level: number; readonly filter: 'point' | 'bilinear' } {
  const base = view.baseLevel ?? 0;
  const last = view.lastLevel ?? (view.levels ?? 1) - 1;
  const l = Math.min(Math.max(lod, s.minLod), s.maxLod);
  if (s.mip === 'point' && Math.abs(l - Math.floor(l) - 0.5) === 0) throw new Error('a LOD halfway between two levels');
  const rel = s.mip === 'none' ? 0 : Math.min(Math.max(Math.round(l), 0), last - base);
  return { level: base + rel, filter: l <= 0 ? s.mag : s.min };
}

/**
 * Four lanes' (u, v) for a quad of a 2D view whose base level is w x h: the quad's pixels
 * step `rho` base-level texels in x (lane 1) and y (lane 2), so its LOD is log2(rho), and
 * lane 0 sits at an odd eighth of a texel of the level `shift` levels above the base, from one
 * level-width left of the image to two right. Odd eighths stay odd when the quad steps a
 * whole level texel (rho = 2^shift or more) or a quarter or a half of one (rho 1/4, 1/2 at
 * the base level): point samples never land on a texel edge, and bilinear weights are
 * multiples of 1/8 (exact in f32, and in 8-bit hardware weights).
 */
export function quadCoords(r: () => number, w: number, h: number, shift: number, rho: number): [number, number][] {
  const at = (n: number) => {
    const nl = Math.max(1, n >> shift);
    return 2 ** shift * ((r() % (3 * nl)) - nl + (2 * (r() % 4) + 1) / 8);
  };
  const u0 = at(w);
  const v0 = at(h);
  return [
    [u0 / w, v0 / h],
    [(u0 + rho) / w, v0 / h],
    [u0 / w, (v0 + rho) / h],
    [(u0 + rho) / w, (v0 + rho) / h],
  ];
}

/**
 * image_sample on a 2D view: the LOD clamped to the S#'s [MIN_LOD, MAX_LOD] picks the mag
 * (LOD <= 0) or min filter and, with mip point, the nearest level of the view (LODs are kept
 * away from the halfway points); then point (the texel holding (u·w, v·h)) or bilinear
 * (the 2x2 texels around (u·w − ½, v·h − ½), weighted by the fractions) on texel indices
 * through the wrap modes, a border texel reading the border colour, and finally DST_SEL.
 * The result is computed in doubles; the kernels choose texel values and coordinates whose
 * filtered values are exact in f32.
 */
export function sample2d(
  img: ImageModel,
  view: TSharpSpec,
  s: SamplerModel,
  u: number,
  v: number,
  lod: number,
): number[] {
  const sel = view.dstSel ?? IDENTITY;
  const usesBorder = s.clampX === 'clamp_border' || s.clampY === 'clamp_border';
  if (usesBorder && sel.some((c, i) => c !== IDENTITY[i]))
    throw new Error('this model does not say how DST_SEL applies to a border colour: use an identity DST_SEL');
  const { level, filter } = mipLevel(view, s, lod);
  const { width, height } = levelSize(img, level);
  const texel = (i: number, j: number): readonly number[] => {
    const x = wrapTexel(i, width, s.clampX);
    const y = wrapTexel(j, height, s.clampY);
    return x < 0 || y < 0 ? BORDER[s.border].rgba : texelValue(img, level, x, y);
  };
  const U = u * width;
  const V = v * height;
  let rgba: readonly number[];
  if (filter === 'point') rgba = texel(Math.floor(U), Math.floor(V));
  else {
    const i0 = Math.floor(U - 0.5);
    const j0 = Math.floor(V - 0.5);
    const a = U - 0.5 - i0;
    const b = V - 0.5 - j0;
    const [t00, t10, t01, t11] = [texel(i0, j0), texel(i0 + 1, j0), texel(i0, j0 + 1), texel(i0 + 1, j0 + 1)];
    rgba = [0, 1, 2, 3].map(
      (c) => (1 - a) * (1 - b) * t00[c] + a * (1 - b) * t10[c] + (1 - a) * b * t01[c] + a * b * t11[c],
    );
  }
  return swizzle(sel, rgba).map((x) => {
    if (Math.fround(x) !== x) throw new Error(`a filtered value ${x} is not exact in f32: choose other inputs`);
    return x;
  });
}

// ------------------------------------------------------------------------------- program captures

/** Final registers to compare: v`N` lanes as raw words, EXEC. */
export interface ExpectedRegisters {
  readonly vgprs?: Readonly<Record<number, readonly number[]>>;
  readonly exec?: bigint;
}

const hex64 = (v: bigint): string => `0x${v.toString(16)}`;

/** The EXEC of every lane of the target's wave. */
export const allLanes = (t: Target): bigint => (1n << BigInt(t.waveSize)) - 1n;

/**
 * An llc amdgpu_ps (or amdpal amdgpu_cs) function run as one wave from given registers: its
 * inreg arguments in s0 upward, the others in v0 upward (one list of words a VGPR), EXEC,
 * and `end`, the byte after its last instruction, where it returns (its listing's
 * offsets; undefined where it ends with s_endpgm).
 */
export function programSpec(
  t: Target,
  kernel: string,
  o: {
    readonly entry?: number;
    readonly end: number | undefined;
    readonly exec?: bigint;
    readonly sgprs: readonly Json[];
    readonly vgprs: readonly (readonly number[])[];
    readonly memory?: readonly Json[];
    readonly expectedMemory?: readonly Json[];
    readonly expectedRegisters?: ExpectedRegisters;
  },
): Spec {
  const r = o.expectedRegisters;
  const registers: Record<string, Json> = {};
  if (r?.vgprs)
    registers.vgprs = Object.fromEntries(Object.entries(r.vgprs).map(([k, lanes]) => [k, lanes.map((x) => x >>> 0)]));
  if (r?.exec !== undefined) registers.exec = hex64(r.exec);
  return {
    target: t.mcpu,
    wave64: t.wave64,
    program: { file: `llvm_${t.name}_${kernel}.bin` },
    invocation: {
      entry: o.entry ?? 0,
      ...(o.end !== undefined ? { end: o.end } : {}),
      exec: hex64(o.exec ?? allLanes(t)),
      sgprs: [...o.sgprs],
      vgprs: o.vgprs.map((lanes) => lanes.map((x) => x >>> 0)),
    },
    memory: [...(o.memory ?? [])],
    expected: {
      source: { kind: 'tool', tool: 'test/corpus-kernels', revision: kernel },
      memory: [...(o.expectedMemory ?? [])],
      ...(r ? { registers } : {}),
    },
  };
}

/** Lanes of `exec` grouped by quad: a quad is live (runs in whole-quad mode) when any of its lanes is. */
export function liveQuadLanes(t: Target, exec: bigint): boolean[] {
  return Array.from({ length: t.waveSize }, (_, lane) => ((exec >> BigInt(lane & ~3)) & 0xfn) !== 0n);
}

/** An image and the T# view a kernel samples it through. */
export interface SampledTexture {
  readonly img: ImageModel;
  readonly view: TSharpSpec;
}

/** A wave of an amdgpu_ps image_sample: per-lane texture index, (u, v), EXEC, and v0..v3 before and after. */
export interface SampleWave {
  readonly idx: readonly number[];
  readonly u: readonly number[];
  readonly v: readonly number[];
  readonly exec: bigint;
  /** v0..v3 as the function starts: idx, u, v (f32 bits), and a random v3. */
  readonly initial: readonly (readonly number[])[];
  /** v0..v3 as it returns: the sample (f32 bits) in every lane of a live quad, the initial words elsewhere. */
  readonly final: readonly (readonly number[])[];
}

/**
 * Inputs and the reference of an image_sample.2d that runs in whole-quad mode (the function
 * turns WQM on, and off only after the sample): every lane of a quad with an active lane
 * samples, the others keep their registers. Quads: the first all on, the second all off, the
 * third one lane on, the rest at random; each samples one texture (a few mix two textures
 * of the same size and levels, lane by lane), with a LOD of -2, -1, 1, 2 or 3 from its
 * derivatives, and at coordinates from quadCoords.
 */
export function sampleWave(
  t: Target,
  r: () => number,
  textures: readonly SampledTexture[],
  s: SamplerModel,
): SampleWave {
  const n = t.waveSize;
  const idx: number[] = [];
  const u: number[] = [];
  const v: number[] = [];
  let exec = 0n;
  const lods = [-2, -1, 1, 2, 3];
  const sameShape = (a: SampledTexture, b: SampledTexture) =>
    a.img.width === b.img.width &&
    a.img.height === b.img.height &&
    (a.view.baseLevel ?? 0) === (b.view.baseLevel ?? 0) &&
    (a.view.lastLevel ?? a.img.levels.length - 1) === (b.view.lastLevel ?? b.img.levels.length - 1);
  for (let q = 0; q < n / 4; q++) {
    const mask = q === 0 ? 0xf : q === 1 ? 0 : q === 2 ? 0x2 : r() & 0xf;
    exec |= BigInt(mask) << BigInt(4 * q);
    const a = r() % textures.length;
    const partner = textures.findIndex((x, k) => k !== a && sameShape(x, textures[a]));
    const mixed = q % 4 === 3 && partner >= 0;
    const lanes = mixed ? [a, partner, partner, a] : [a, a, a, a];
    const { img, view } = textures[a];
    const base = levelSize(img, view.baseLevel ?? 0);
    const lodExp = lods[r() % lods.length];
    const { level } = mipLevel(view, s, lodExp);
    const quad = quadCoords(r, base.width, base.height, level - (view.baseLevel ?? 0), 2 ** lodExp);
    for (let k = 0; k < 4; k++) {
      idx.push(lanes[k]);
      u.push(quad[k][0]);
      v.push(quad[k][1]);
    }
  }
  const initial = [idx, u.map(f32Bits), v.map(f32Bits), Array.from({ length: n }, () => r())];
  const final = initial.map((lanes) => [...lanes]);
  const live = liveQuadLanes(t, exec);
  for (let lane = 0; lane < n; lane++) {
    if (!live[lane]) continue;
    const { img, view } = textures[idx[lane]];
    const base = levelSize(img, view.baseLevel ?? 0);
    const q = lane & ~3;
    const quad = [0, 1, 2, 3].map((k) => [u[q + k], v[q + k]] as const);
    const lod = quadLod(quad, base.width, base.height);
    sample2d(img, view, s, u[lane], v[lane], lod).forEach((x, c) => (final[c][lane] = f32Bits(x)));
  }
  return { idx, u, v, exec, initial, final };
}
