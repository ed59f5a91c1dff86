/**
 * S# (decoded, `SamplerDescriptor`) -> `GPUSamplerDescriptor` (D008). What WebGPU samplers have
 * is mapped; what they lack is listed in `emulate` for the generated module to do in WGSL, with
 * the nearest sampler setting chosen so the sampler alone is right on the common range.
 * Pure data: no device is needed.
 */
import { reservedFieldError, type SamplerDescriptor } from '../descriptors/index.ts';
import { ResourceError } from './errors.ts';

/** Throws when `field` holds a reserved value (D004: reserved only where consulted). */
function refuseReserved(s: SamplerDescriptor, field: SamplerDescriptor['reserved'][number]['field'], by: string): void {
  const e = reservedFieldError(s, field, by);
  if (e) throw new ResourceError('reserved-field', e.reason);
}

/** A sampler behaviour the WebGPU sampler cannot express; the module must emulate it. */
export type SamplerEmulation =
  /** CLAMP_BORDER / *_HALF_BORDER / MIRROR_ONCE_BORDER: texels outside read the border colour. */
  | 'border_color'
  /** MIRROR_ONCE_*: mirror once about 0, then clamp (the sampler mirrors every repeat). */
  | 'mirror_once'
  /** *_HALF_BORDER: the clamp stops half a texel outside the edge, blending edge and border. */
  | 'half_border'
  /** LOD_BIAS != 0: WebGPU samplers have no bias (use textureSampleBias or add it to the LOD). */
  | 'lod_bias'
  /** LOD_BIAS_SEC != 0 (the secondary bias). */
  | 'lod_bias_sec'
  /** FORCE_UNNORMALIZED: coordinates in texels (divide by the level size before sampling). */
  | 'unnormalized'
  /** FILTER_MODE min / max: a reduction filter (WebGPU filters only blend). */
  | 'reduction'
  /** MAX_ANISO > 1 with aniso filters, where WebGPU forbids it (a filter that is not linear). */
  | 'anisotropy'
  /** Z_FILTER differs from the XY filter (WebGPU filters a 3D texture's depth as its XY). */
  | 'z_filter'
  /** FORCE_DEGAMMA: sRGB -> linear on every format. */
  | 'force_degamma'
  /** DISABLE_CUBE_WRAP: non-seamless cube filtering (WebGPU cubes are always seamless). */
  | 'cube_no_seam'
  /** MAX_LOD < MIN_LOD: WebGPU needs lodMinClamp <= lodMaxClamp; the sampler got max = min. */
  | 'lod_range';

/** What an S# becomes. */
export interface WebGpuSampler {
  /** The plain sampler (for sample / gather opcodes without `_C`). */
  readonly descriptor: GPUSamplerDescriptor;
  /**
   * The comparison sampler (for `*_C` opcodes, DESCRIPTORS.md §3: the opcode chooses, not
   * DEPTH_COMPARE_FUNC != 0): the same settings plus `compare`.
   */
  readonly comparison: GPUSamplerDescriptor & { readonly compare: GPUCompareFunction };
  /** Behaviours the module must emulate; empty when the sampler alone is exact. Sorted, no repeats. */
  readonly emulate: readonly SamplerEmulation[];
  /** The values the emulations need. */
  readonly lodBias: number;
  readonly lodBiasSec: number;
  readonly borderColor: SamplerDescriptor['border_color'];
  /** BORDER_COLOR_PTR: the entry of the register border-colour table when `borderColor` is 'register'. */
  readonly borderColorPtr: number;
  readonly filterMode: SamplerDescriptor['filter_mode'];
  /** Per axis U, V, W: the guest clamp mode. */
  readonly clamp: SamplerDescriptor['clamp'];
}

/** The sampler address mode of each CLAMP value, and what the module must add. */
const ADDRESS: Readonly<
  Record<SamplerDescriptor['clamp'][number], { mode: GPUAddressMode; emulate: readonly SamplerEmulation[] }>
> = {
  wrap: { mode: 'repeat', emulate: [] },
  mirror: { mode: 'mirror-repeat', emulate: [] },
  clamp_last_texel: { mode: 'clamp-to-edge', emulate: [] },
  // Mirror-once equals mirror-repeat for coordinates in [-1, 1], the common range.
  mirror_once_last_texel: { mode: 'mirror-repeat', emulate: ['mirror_once'] },
  // Border modes equal clamp-to-edge inside [0, 1].
  clamp_half_border: { mode: 'clamp-to-edge', emulate: ['border_color', 'half_border'] },
  mirror_once_half_border: { mode: 'mirror-repeat', emulate: ['mirror_once', 'border_color', 'half_border'] },
  clamp_border: { mode: 'clamp-to-edge', emulate: ['border_color'] },
  mirror_once_border: { mode: 'mirror-repeat', emulate: ['mirror_once', 'border_color'] },
};

function xyFilter(f: SamplerDescriptor['mag_filter']): GPUFilterMode {
  return f === 'bilinear' || f === 'aniso_bilinear' ? 'linear' : 'nearest';
}

/**
 * MIP_FILTER none means "base level only". WebGPU has no such mode; the usual emulation
 * (Vulkan spec, "mipmapMode" notes) is nearest mip filtering with the LOD clamped to [0, 0.25]:
 * level 0 is always chosen, and the min/mag choice still follows the unclamped LOD's sign.
 */
const MIP_NONE_MAX_LOD = 0.25;

/** Maps a decoded S# to WebGPU sampler descriptors and the list of what the module must emulate. */
export function webgpuSampler(s: SamplerDescriptor, label?: string): WebGpuSampler {
  const emulate = new Set<SamplerEmulation>();
  const axes = s.clamp.map((c) => ADDRESS[c]);
  for (const a of axes) for (const e of a.emulate) emulate.add(e);

  const magFilter = xyFilter(s.mag_filter);
  const minFilter = xyFilter(s.min_filter);
  refuseReserved(s, 'mip_filter', 'the WebGPU mipmapFilter');
  const mipmapFilter: GPUMipmapFilterMode = s.mip_filter === 'linear' ? 'linear' : 'nearest';

  let lodMinClamp = s.min_lod;
  let lodMaxClamp = s.max_lod;
  if (lodMaxClamp < lodMinClamp) {
    emulate.add('lod_range');
    lodMaxClamp = lodMinClamp;
  }
  if (s.mip_filter === 'none') {
    lodMinClamp = Math.min(lodMinClamp, MIP_NONE_MAX_LOD);
    lodMaxClamp = Math.min(lodMaxClamp, MIP_NONE_MAX_LOD);
  }

  // MAX_ANISO_RATIO applies with the aniso XY filters; WebGPU allows maxAnisotropy > 1 only when
  // mag, min and mip filters are all linear.
  const anisoFilter = s.mag_filter.startsWith('aniso') || s.min_filter.startsWith('aniso');
  let maxAnisotropy = 1;
  if (anisoFilter) refuseReserved(s, 'max_aniso_ratio', 'an aniso XY filter');
  if (anisoFilter && s.max_anisotropy !== 'reserved' && s.max_anisotropy > 1) {
    if (magFilter === 'linear' && minFilter === 'linear' && mipmapFilter === 'linear') maxAnisotropy = s.max_anisotropy;
    else emulate.add('anisotropy');
  }

  // FILTER_MODE reduces a footprint; with nearest XY and mip filters the footprint is one
  // texel, which every reduction returns unchanged, so a reserved value is not consulted.
  if (magFilter === 'linear' || minFilter === 'linear' || mipmapFilter === 'linear' || anisoFilter)
    refuseReserved(s, 'filter_mode', 'a filter over more than one texel');
  refuseReserved(s, 'z_filter', 'the WebGPU sampler (its Z filter follows the XY filter)');
  if (s.z_filter !== 'none' && (s.z_filter === 'linear' ? 'linear' : 'nearest') !== magFilter) emulate.add('z_filter');
  if (s.lod_bias !== 0) emulate.add('lod_bias');
  if (s.lod_bias_sec !== 0) emulate.add('lod_bias_sec');
  if (s.unnormalized) emulate.add('unnormalized');
  if (s.filter_mode !== 'blend' && s.filter_mode !== 'reserved') emulate.add('reduction');
  const f = s.fields as Record<string, number>;
  if (f.force_degamma === 1) emulate.add('force_degamma');
  if (f.disable_cube_wrap === 1) emulate.add('cube_no_seam');

  const descriptor: GPUSamplerDescriptor = {
    ...(label !== undefined ? { label } : {}),
    addressModeU: axes[0].mode,
    addressModeV: axes[1].mode,
    addressModeW: axes[2].mode,
    magFilter,
    minFilter,
    mipmapFilter,
    lodMinClamp,
    lodMaxClamp,
    maxAnisotropy,
  };
  return {
    descriptor,
    comparison: {
      ...descriptor,
      ...(label !== undefined ? { label: `${label}.compare` } : {}),
      compare: s.depth_compare,
    },
    emulate: [...emulate].sort(),
    lodBias: s.lod_bias,
    lodBiasSec: s.lod_bias_sec,
    borderColor: s.border_color,
    borderColorPtr: s.border_color_ptr,
    filterMode: s.filter_mode,
    clamp: s.clamp,
  };
}

/** Creates the plain sampler, or the comparison sampler when `comparison` is set. */
export function createGuestSampler(device: GPUDevice, s: WebGpuSampler, comparison = false): GPUSampler {
  return device.createSampler(comparison ? s.comparison : s.descriptor);
}
