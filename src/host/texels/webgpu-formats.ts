/**
 * Which WebGPU texture format holds each modelled guest format (DESCRIPTORS.md §4.4, D006): a
 * direct mapping where WebGPU has the same encoding (possibly behind an optional feature), and
 * for every format a named CPU fallback (decode with `decodeImageLevel`, or for BC the raw unorm8
 * bytes of `decodeBcImage`, into an RGBA format). DST_SEL is kept apart: WebGPU views have no
 * swizzle in core, so the swizzle goes to the generated WGSL (or `texture-component-swizzle`).
 */
import type { DstSel } from '../descriptors/index.ts';
import type { FormatInfo } from '../descriptors/index.ts';
import { texelFormat, type TexelFormat } from './formats.ts';

/** A direct mapping: upload the guest bytes as they are (linear, detiled) into `format`. */
export interface DirectMapping {
  readonly format: GPUTextureFormat;
  /** An optional device feature the format needs; absent = core WebGPU. */
  readonly feature?: GPUFeatureName;
}

/** How a fallback's texels are made on the CPU. */
export type FallbackVia =
  | 'float' // decodeImageLevel's Float32Array, stored as the target (rgba16float / rgba32float)
  | 'uint' // decodeImageLevel's Uint32Array into rgba32uint
  | 'sint' // decodeImageLevel's Int32Array into rgba32sint
  | 'unorm8'; // BC1-3/BC7: decodeBcImage's RGBA8 bytes (sRGB variants stay encoded, into -srgb)

export interface FallbackMapping {
  readonly format: GPUTextureFormat;
  readonly via: FallbackVia;
  readonly why: string;
}

export interface WebGpuFormatEntry {
  readonly name: string;
  readonly direct: DirectMapping | null;
  readonly fallback: FallbackMapping;
  /** A depth format a copy pass may fill for depth sampling (WebGPU forbids CPU copies into depth32float). */
  readonly depth?: GPUTextureFormat;
}

/** Guest formats (`DATA_NUM` names, as the descriptor layer spells them) WebGPU holds as they are. */
export const DIRECT_FORMATS: Readonly<Record<string, DirectMapping>> = {
  '8_UNORM': { format: 'r8unorm' },
  '8_SNORM': { format: 'r8snorm' },
  '8_UINT': { format: 'r8uint' },
  '8_SINT': { format: 'r8sint' },
  '8_8_UNORM': { format: 'rg8unorm' },
  '8_8_SNORM': { format: 'rg8snorm' },
  '8_8_UINT': { format: 'rg8uint' },
  '8_8_SINT': { format: 'rg8sint' },
  '8_8_8_8_UNORM': { format: 'rgba8unorm' },
  '8_8_8_8_SNORM': { format: 'rgba8snorm' },
  '8_8_8_8_UINT': { format: 'rgba8uint' },
  '8_8_8_8_SINT': { format: 'rgba8sint' },
  '8_8_8_8_SRGB': { format: 'rgba8unorm-srgb' },
  '16_UNORM': { format: 'r16unorm', feature: 'texture-formats-tier1' },
  '16_SNORM': { format: 'r16snorm', feature: 'texture-formats-tier1' },
  '16_UINT': { format: 'r16uint' },
  '16_SINT': { format: 'r16sint' },
  '16_FLOAT': { format: 'r16float' },
  '16_16_UNORM': { format: 'rg16unorm', feature: 'texture-formats-tier1' },
  '16_16_SNORM': { format: 'rg16snorm', feature: 'texture-formats-tier1' },
  '16_16_UINT': { format: 'rg16uint' },
  '16_16_SINT': { format: 'rg16sint' },
  '16_16_FLOAT': { format: 'rg16float' },
  '16_16_16_16_UNORM': { format: 'rgba16unorm', feature: 'texture-formats-tier1' },
  '16_16_16_16_SNORM': { format: 'rgba16snorm', feature: 'texture-formats-tier1' },
  '16_16_16_16_UINT': { format: 'rgba16uint' },
  '16_16_16_16_SINT': { format: 'rgba16sint' },
  '16_16_16_16_FLOAT': { format: 'rgba16float' },
  '32_UINT': { format: 'r32uint' },
  '32_SINT': { format: 'r32sint' },
  '32_FLOAT': { format: 'r32float' },
  '32_32_UINT': { format: 'rg32uint' },
  '32_32_SINT': { format: 'rg32sint' },
  '32_32_FLOAT': { format: 'rg32float' },
  '32_32_32_32_UINT': { format: 'rgba32uint' },
  '32_32_32_32_SINT': { format: 'rgba32sint' },
  '32_32_32_32_FLOAT': { format: 'rgba32float' },
  '2_10_10_10_UNORM': { format: 'rgb10a2unorm' },
  '2_10_10_10_UINT': { format: 'rgb10a2uint' },
  '10_11_11_FLOAT': { format: 'rg11b10ufloat' },
  '5_9_9_9_FLOAT': { format: 'rgb9e5ufloat' },
  BC1_UNORM: { format: 'bc1-rgba-unorm', feature: 'texture-compression-bc' },
  BC1_SRGB: { format: 'bc1-rgba-unorm-srgb', feature: 'texture-compression-bc' },
  BC2_UNORM: { format: 'bc2-rgba-unorm', feature: 'texture-compression-bc' },
  BC2_SRGB: { format: 'bc2-rgba-unorm-srgb', feature: 'texture-compression-bc' },
  BC3_UNORM: { format: 'bc3-rgba-unorm', feature: 'texture-compression-bc' },
  BC3_SRGB: { format: 'bc3-rgba-unorm-srgb', feature: 'texture-compression-bc' },
  BC4_UNORM: { format: 'bc4-r-unorm', feature: 'texture-compression-bc' },
  BC4_SNORM: { format: 'bc4-r-snorm', feature: 'texture-compression-bc' },
  BC5_UNORM: { format: 'bc5-rg-unorm', feature: 'texture-compression-bc' },
  BC5_SNORM: { format: 'bc5-rg-snorm', feature: 'texture-compression-bc' },
  // gfx10+ spell the BC6 variants UFLOAT / SFLOAT; gfx7-9 select signed BC6H with SNORM (§4.2).
  BC6_UFLOAT: { format: 'bc6h-rgb-ufloat', feature: 'texture-compression-bc' },
  BC6_UNORM: { format: 'bc6h-rgb-ufloat', feature: 'texture-compression-bc' },
  BC6_FLOAT: { format: 'bc6h-rgb-ufloat', feature: 'texture-compression-bc' },
  BC6_SFLOAT: { format: 'bc6h-rgb-float', feature: 'texture-compression-bc' },
  BC6_SNORM: { format: 'bc6h-rgb-float', feature: 'texture-compression-bc' },
  BC7_UNORM: { format: 'bc7-rgba-unorm', feature: 'texture-compression-bc' },
  BC7_SRGB: { format: 'bc7-rgba-unorm-srgb', feature: 'texture-compression-bc' },
};

/** Depth formats a copy pass may target for depth views (CPU copies into depth32float are forbidden). */
const DEPTH_FORMATS: Readonly<Record<string, GPUTextureFormat>> = {
  '16_UNORM': 'depth16unorm',
  '32_FLOAT': 'depth32float',
  '8_24_UNORM': 'depth32float',
  '24_8_UNORM': 'depth32float',
  X24_8_32_FLOAT: 'depth32float',
};

/**
 * The CPU fallback of a modelled format. Rules: UINT -> rgba32uint, SINT -> rgba32sint; BC1-3/7
 * -> their unorm8 bytes in rgba8unorm(-srgb); BC6H -> rgba16float (its texels are halves, exact);
 * BC4/5 -> rgba16float; 8-bit sRGB -> rgba8unorm-srgb (its bytes, widened); other floats ->
 * rgba16float when every component has at most 11 significant bits (exact for 10/11-bit floats
 * and scaled integers below 2048; within f16 precision for unorm/snorm up to 10 bits), else
 * rgba32float.
 */
function fallbackOf(tf: TexelFormat): FallbackMapping {
  const L = tf.layout;
  const num = tf.info.num_format;
  if (tf.channelKind === 'uint') return { format: 'rgba32uint', via: 'uint', why: 'integers widened to 32 bits' };
  if (tf.channelKind === 'sint') return { format: 'rgba32sint', via: 'sint', why: 'integers widened to 32 bits' };
  if (tf.bc === 'bc1' || tf.bc === 'bc2' || tf.bc === 'bc3' || tf.bc === 'bc7')
    return tf.srgb
      ? { format: 'rgba8unorm-srgb', via: 'unorm8', why: 'BC decoded on the CPU to sRGB-encoded bytes' }
      : { format: 'rgba8unorm', via: 'unorm8', why: 'BC decoded on the CPU to unorm8' };
  if (tf.bc !== null) return { format: 'rgba16float', via: 'float', why: 'BC decoded on the CPU to float' };
  if (num === 'SRGB') return { format: 'rgba8unorm-srgb', via: 'unorm8', why: 'sRGB bytes widened to four channels' };
  const wide = L.kind === 'shared-exponent' ? false : L.bits.some((b) => b > 11 || (num === 'FLOAT' && b > 16));
  return wide
    ? { format: 'rgba32float', via: 'float', why: 'decoded on the CPU; components too wide for half floats' }
    : { format: 'rgba16float', via: 'float', why: 'decoded on the CPU; every component fits a half float' };
}

const ENTRIES = new Map<string, WebGpuFormatEntry>();

/** The WebGPU mapping of a modelled guest format (throws `TexelFormatError` for unmodelled ones). */
export function webgpuFormatEntry(format: FormatInfo | TexelFormat): WebGpuFormatEntry {
  const tf = texelFormat(format);
  const name = tf.info.name;
  const hit = ENTRIES.get(name);
  if (hit) return hit;
  const depth = DEPTH_FORMATS[name];
  const e: WebGpuFormatEntry = {
    name,
    direct: DIRECT_FORMATS[name] ?? null,
    fallback: fallbackOf(tf),
    ...(depth ? { depth } : {}),
  };
  ENTRIES.set(name, e);
  return e;
}

/** What a texture for a guest image should be on a device with `features`. */
export interface TextureChoice {
  readonly format: GPUTextureFormat;
  /** 'direct': upload the guest bytes; otherwise decode on the CPU as `via` says. */
  readonly upload: 'direct' | FallbackVia;
  /** DST_SEL as WGSL swizzle components: 'r'..'a' or the constants '0' / '1'. */
  readonly swizzle: readonly [SwizzleComponent, SwizzleComponent, SwizzleComponent, SwizzleComponent];
  /** True when the direct format is block-compressed: compute reads need the SwiftShader draw-touch workaround. */
  readonly compressedOnDevice: boolean;
}

export type SwizzleComponent = 'r' | 'g' | 'b' | 'a' | '0' | '1';

const SEL: Readonly<Record<DstSel, SwizzleComponent>> = { x: 'r', y: 'g', z: 'b', w: 'a', '0': '0', '1': '1' };

/** DST_SEL (x, y, z, w, 0, 1) as swizzle components of the texel read. */
export function dstSelSwizzle(dstSel: readonly [DstSel, DstSel, DstSel, DstSel]): TextureChoice['swizzle'] {
  return [SEL[dstSel[0]], SEL[dstSel[1]], SEL[dstSel[2]], SEL[dstSel[3]]];
}

/** Picks the direct format when the device has its feature, else the CPU fallback; DST_SEL kept apart. */
export function chooseTexture(
  format: FormatInfo | TexelFormat,
  features: ReadonlySet<string> | GPUSupportedFeatures,
  dstSel: readonly [DstSel, DstSel, DstSel, DstSel] = ['x', 'y', 'z', 'w'],
): TextureChoice {
  const e = webgpuFormatEntry(format);
  const swizzle = dstSelSwizzle(dstSel);
  const d = e.direct;
  if (d && (d.feature === undefined || features.has(d.feature)))
    return { format: d.format, upload: 'direct', swizzle, compressedOnDevice: d.format.startsWith('bc') };
  return { format: e.fallback.format, upload: e.fallback.via, swizzle, compressedOnDevice: false };
}
