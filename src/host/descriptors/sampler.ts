/**
 * S#: the 4-dword sampler (DESCRIPTORS.md §3), one layout table per generation family.
 * GFX11's dw2/dw3 tail follows Mesa (BORDER_COLOR_PTR_GFX11) and ROCR's resource_gfx11.h (D004).
 */
import { GEN_NAMES, Gen } from '../../isa/gen.ts';
import {
  DescriptorError,
  decodeFields,
  defineLayout,
  encodeFields,
  f,
  normaliseWords,
  signExtend,
  type Layout,
  type RawFields,
} from './bits.ts';
import { enumName, layoutFor } from './common.ts';

const DW0 = [
  f('clamp_x', 0, 0, 3),
  f('clamp_y', 0, 3, 3),
  f('clamp_z', 0, 6, 3),
  f('max_aniso_ratio', 0, 9, 3),
  f('depth_compare_func', 0, 12, 3),
  f('force_unnormalized', 0, 15, 1),
  f('aniso_threshold', 0, 16, 3),
  f('mc_coord_trunc', 0, 19, 1),
  f('force_degamma', 0, 20, 1),
  f('aniso_bias', 0, 21, 6),
  f('trunc_coord', 0, 27, 1),
  f('disable_cube_wrap', 0, 28, 1),
  f('filter_mode', 0, 29, 2),
] as const;

const DW1 = [f('min_lod', 1, 0, 12), f('max_lod', 1, 12, 12), f('perf_mip', 1, 24, 4), f('perf_z', 1, 28, 4)] as const;

const DW2 = [
  f('lod_bias', 2, 0, 14),
  f('lod_bias_sec', 2, 14, 6),
  f('xy_mag_filter', 2, 20, 2),
  f('xy_min_filter', 2, 22, 2),
  f('z_filter', 2, 24, 2),
  f('mip_filter', 2, 26, 2),
] as const;

const PRECLAMP = f('mip_point_preclamp', 2, 28, 1);
const BORDER_GFX6 = [f('border_color_ptr', 3, 0, 12), f('border_color_type', 3, 30, 2)] as const;

/** GFX7 (PS4). */
export const SAMPLER_GFX7 = defineLayout('S#.gfx7', 4, [
  ...DW0,
  ...DW1,
  ...DW2,
  PRECLAMP,
  f('disable_lsb_ceil', 2, 29, 1),
  f('filter_prec_fix', 2, 30, 1),
  ...BORDER_GFX6,
  f('upgraded_depth', 3, 29, 1),
]);

/** GFX8: COMPAT_MODE, ANISO_OVERRIDE. */
export const SAMPLER_GFX8 = defineLayout('S#.gfx8', 4, [
  ...DW0,
  f('compat_mode', 0, 31, 1),
  ...DW1,
  ...DW2,
  PRECLAMP,
  f('disable_lsb_ceil', 2, 29, 1),
  f('filter_prec_fix', 2, 30, 1),
  f('aniso_override', 2, 31, 1),
  ...BORDER_GFX6,
  f('upgraded_depth', 3, 29, 1),
]);

export const SAMPLER_GFX9 = defineLayout('S#.gfx9', 4, [
  ...DW0,
  f('compat_mode', 0, 31, 1),
  ...DW1,
  ...DW2,
  PRECLAMP,
  f('blend_zero_prt', 2, 29, 1),
  f('filter_prec_fix', 2, 30, 1),
  f('aniso_override', 2, 31, 1),
  ...BORDER_GFX6,
  f('skip_degamma', 3, 12, 1),
]);

/** GFX10 and GFX10.3 (PS5). */
export const SAMPLER_GFX10 = defineLayout('S#.gfx10', 4, [
  ...DW0,
  f('skip_degamma', 0, 31, 1),
  ...DW1,
  ...DW2,
  PRECLAMP,
  f('aniso_override', 2, 29, 1),
  f('blend_zero_prt', 2, 30, 1),
  ...BORDER_GFX6,
]);

/** GFX11: BORDER_COLOR_PTR moves to dw3[29:18]; dw2[31] DERIV_ADJUST_EN. */
export const SAMPLER_GFX11 = defineLayout('S#.gfx11', 4, [
  ...DW0,
  f('skip_degamma', 0, 31, 1),
  ...DW1,
  ...DW2,
  f('aniso_override', 2, 29, 1),
  f('blend_zero_prt', 2, 30, 1),
  f('deriv_adjust_en', 2, 31, 1),
  f('border_color_ptr', 3, 18, 12),
  f('border_color_type', 3, 30, 2),
]);

type NamesOf<L> = L extends Layout<infer N> ? N : never;
export type SamplerFieldsGfx7 = RawFields<NamesOf<typeof SAMPLER_GFX7>>;
export type SamplerFieldsGfx8 = RawFields<NamesOf<typeof SAMPLER_GFX8>>;
export type SamplerFieldsGfx9 = RawFields<NamesOf<typeof SAMPLER_GFX9>>;
export type SamplerFieldsGfx10 = RawFields<NamesOf<typeof SAMPLER_GFX10>>;
export type SamplerFieldsGfx11 = RawFields<NamesOf<typeof SAMPLER_GFX11>>;
export type SamplerFieldName =
  | NamesOf<typeof SAMPLER_GFX8>
  | NamesOf<typeof SAMPLER_GFX9>
  | NamesOf<typeof SAMPLER_GFX10>
  | NamesOf<typeof SAMPLER_GFX11>;

const LAYOUTS: Readonly<Record<Gen, Layout>> = {
  [Gen.GFX7]: SAMPLER_GFX7,
  [Gen.GFX8]: SAMPLER_GFX8,
  [Gen.GFX9]: SAMPLER_GFX9,
  [Gen.GFX10]: SAMPLER_GFX10,
  [Gen.GFX10_3]: SAMPLER_GFX10,
  [Gen.GFX11]: SAMPLER_GFX11,
};

/** The S# layout table of a generation. */
export function samplerLayout(gen: Gen): Layout<SamplerFieldName> {
  return layoutFor(LAYOUTS, gen, 'S#') as Layout<SamplerFieldName>;
}

// ---- Enumerations (DESCRIPTORS.md §3) ----

export const CLAMP_NAMES = [
  'wrap',
  'mirror',
  'clamp_last_texel',
  'mirror_once_last_texel',
  'clamp_half_border',
  'mirror_once_half_border',
  'clamp_border',
  'mirror_once_border',
] as const;
export type ClampMode = (typeof CLAMP_NAMES)[number];

/** Same order as Vulkan and WebGPU's GPUCompareFunction. */
export const COMPARE_NAMES = [
  'never',
  'less',
  'equal',
  'less-equal',
  'greater',
  'not-equal',
  'greater-equal',
  'always',
] as const;
export type CompareFunc = (typeof COMPARE_NAMES)[number];

export const XY_FILTER_NAMES = ['point', 'bilinear', 'aniso_point', 'aniso_bilinear'] as const;
export type XyFilter = (typeof XY_FILTER_NAMES)[number];
export const Z_FILTER_NAMES = ['none', 'point', 'linear'] as const;
export type ZFilter = (typeof Z_FILTER_NAMES)[number];
const MIP_FILTER_NAMES_GFX8 = ['none', 'point', 'linear', 'point_aniso_adj'] as const;
export type MipFilter = (typeof MIP_FILTER_NAMES_GFX8)[number];
export const FILTER_MODE_NAMES = ['blend', 'min', 'max'] as const;
export type FilterMode = (typeof FILTER_MODE_NAMES)[number];
export const BORDER_COLOR_NAMES = ['transparent_black', 'opaque_black', 'opaque_white', 'register'] as const;
export type BorderColor = (typeof BORDER_COLOR_NAMES)[number];

/**
 * An enumerated field holding a value its enumeration reserves (MAX_ANISO_RATIO 5-7,
 * FILTER_MODE 3, Z_FILTER 3, gfx7's MIP_FILTER 3), decoded with `{ reserved: 'keep' }`. The
 * value is kept, named, so that only a consumer that consults the field refuses (D004): a
 * reserved MAX_ANISO_RATIO means nothing to a point sample.
 */
export type Reserved = 'reserved';
export const RESERVED: Reserved = 'reserved';

/** One field of a decoded S# that holds a reserved value, with the value. */
export interface ReservedField {
  readonly field: 'max_aniso_ratio' | 'filter_mode' | 'z_filter' | 'mip_filter';
  readonly value: number;
}

/** The WebGPU address mode a CLAMP value maps to, or null where WGSL must emulate it (modes 3-7). */
export type WebGpuAddressMode = 'repeat' | 'mirror-repeat' | 'clamp-to-edge' | null;
const WEBGPU_ADDRESS: readonly WebGpuAddressMode[] = ['repeat', 'mirror-repeat', 'clamp-to-edge'];

interface SamplerCommon {
  readonly kind: 'sampler';
  readonly gen: Gen;
  readonly gen_name: string;
  readonly words: readonly number[];
  readonly clamp: readonly [ClampMode, ClampMode, ClampMode];
  readonly address_mode: readonly [WebGpuAddressMode, WebGpuAddressMode, WebGpuAddressMode];
  /** 1, 2, 4, 8 or 16 (or reserved: MAX_ANISO_RATIO 5-7). */
  readonly max_anisotropy: number | Reserved;
  /** Applies only to `*_C` sample/gather opcodes (§3): choose the comparison sampler by opcode. */
  readonly depth_compare: CompareFunc;
  readonly unnormalized: boolean;
  readonly filter_mode: FilterMode | Reserved;
  readonly mag_filter: XyFilter;
  readonly min_filter: XyFilter;
  readonly z_filter: ZFilter | Reserved;
  readonly mip_filter: MipFilter | Reserved;
  /** MIN_LOD / MAX_LOD as floats (u4.8). */
  readonly min_lod: number;
  readonly max_lod: number;
  /** LOD_BIAS as a float (s6.8, /256). */
  readonly lod_bias: number;
  /** LOD_BIAS_SEC read as s1.4 (/16), as third-party decoders read it. */
  readonly lod_bias_sec: number;
  readonly border_color: BorderColor;
  readonly border_color_ptr: number;
  /** The fields holding reserved values (always empty when decoded with `reserved: 'refuse'`). */
  readonly reserved: readonly ReservedField[];
}

export type SamplerDescriptor =
  | (SamplerCommon & { readonly family: 'gfx7'; readonly fields: SamplerFieldsGfx7 })
  | (SamplerCommon & { readonly family: 'gfx8'; readonly fields: SamplerFieldsGfx8 })
  | (SamplerCommon & { readonly family: 'gfx9'; readonly fields: SamplerFieldsGfx9 })
  | (SamplerCommon & { readonly family: 'gfx10' | 'gfx10.3'; readonly fields: SamplerFieldsGfx10 })
  | (SamplerCommon & { readonly family: 'gfx11'; readonly fields: SamplerFieldsGfx11 });

/**
 * How a decoder treats a reserved enumerated value: `refuse` (the default) throws
 * `reserved-value` at decode, never a guess; `keep` decodes the field as `'reserved'`, lists
 * it in `reserved`, and leaves the refusal to the consumer that consults the field
 * (`reservedFieldError`): the interpreter's sampling, the WebGPU sampler, while a printer
 * (the `descriptor` command) shows it.
 */
export interface SamplerDecodeOptions {
  readonly reserved?: 'refuse' | 'keep';
}

/** Decodes the 4 dwords of an S#. A reserved enumerated value is an error unless `reserved: 'keep'`. */
export function decodeSamplerDescriptor(
  gen: Gen,
  words: ArrayLike<number>,
  options: SamplerDecodeOptions = {},
): SamplerDescriptor {
  const layout = samplerLayout(gen);
  const w = normaliseWords(words, [4], 'an S#');
  const r = decodeFields(layout, w) as Record<string, number>;
  const keep = options.reserved === 'keep';
  const reserved: ReservedField[] = [];
  /** The enumeration's name for the field's value, or (keep) 'reserved', recorded. */
  const named = <T extends string>(
    table: readonly (T | undefined)[],
    field: ReservedField['field'],
    what: string,
  ): T | Reserved => {
    const v = r[field];
    if (table[v] !== undefined || !keep) return enumName(table, v, what);
    reserved.push({ field, value: v });
    return RESERVED;
  };
  const mipNames: readonly (MipFilter | undefined)[] =
    gen === Gen.GFX7 ? MIP_FILTER_NAMES_GFX8.slice(0, 3) : MIP_FILTER_NAMES_GFX8;
  const anisoRatio = named(ANISO_LOG2, 'max_aniso_ratio', 'S#.max_aniso_ratio (0-4)');
  const common: SamplerCommon = {
    kind: 'sampler',
    gen,
    gen_name: GEN_NAMES[gen],
    words: [...w],
    clamp: [CLAMP_NAMES[r.clamp_x], CLAMP_NAMES[r.clamp_y], CLAMP_NAMES[r.clamp_z]],
    address_mode: [
      WEBGPU_ADDRESS[r.clamp_x] ?? null,
      WEBGPU_ADDRESS[r.clamp_y] ?? null,
      WEBGPU_ADDRESS[r.clamp_z] ?? null,
    ],
    max_anisotropy: anisoRatio === RESERVED ? RESERVED : 1 << Number(anisoRatio),
    depth_compare: COMPARE_NAMES[r.depth_compare_func],
    unnormalized: r.force_unnormalized === 1,
    filter_mode: named(FILTER_MODE_NAMES, 'filter_mode', 'S#.filter_mode'),
    mag_filter: XY_FILTER_NAMES[r.xy_mag_filter],
    min_filter: XY_FILTER_NAMES[r.xy_min_filter],
    z_filter: named(Z_FILTER_NAMES, 'z_filter', 'S#.z_filter'),
    mip_filter: named(mipNames, 'mip_filter', 'S#.mip_filter'),
    min_lod: r.min_lod / 256,
    max_lod: r.max_lod / 256,
    lod_bias: signExtend(r.lod_bias, 14) / 256,
    lod_bias_sec: signExtend(r.lod_bias_sec, 6) / 16,
    border_color: BORDER_COLOR_NAMES[r.border_color_type],
    border_color_ptr: r.border_color_ptr,
    reserved,
  };
  return { ...common, family: GEN_NAMES[gen].replace('gfx10.1', 'gfx10'), fields: r } as SamplerDescriptor;
}

/** The defined MAX_ANISO_RATIO values, 0-4 (log2 of the ratio), as an enumeration for `named`. */
const ANISO_LOG2 = ['0', '1', '2', '3', '4'] as const;

/**
 * The refusal of a consumer that consults a field holding a reserved value: names the field,
 * its value and what consulted it. `undefined` when the field holds a defined value.
 */
export function reservedFieldError(
  s: SamplerDescriptor,
  field: ReservedField['field'],
  consultedBy: string,
): DescriptorError | undefined {
  const hit = s.reserved.find((x) => x.field === field);
  if (!hit) return undefined;
  return new DescriptorError(
    'reserved-value',
    `S#.${field} is ${hit.value}, a reserved value, and ${consultedBy} consults it`,
  );
}

/** Encodes an S# from its raw fields (the names of the generation's table); fields not given are 0. */
export function encodeSamplerDescriptor(
  gen: Gen,
  fields: Readonly<Partial<Record<SamplerFieldName, number>>>,
): Uint32Array {
  return encodeFields(samplerLayout(gen), fields);
}
