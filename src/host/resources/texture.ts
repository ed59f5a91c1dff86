/**
 * T# (decoded) + guest memory -> a GPUTexture and its view (D008).
 *
 * - Dimension from TYPE: 1d and 1d_array become 2D textures of height 1 (WebGPU 1D textures have
 *   no mips, no layers, no compressed formats, and WGSL has no textureSampleLevel on them); 2d,
 *   2d_array and cube are 2D textures with layers (views '2d', '2d-array', 'cube', 'cube-array');
 *   3d is a 3D texture. MSAA images are refused (WebGPU cannot fill a multisampled texture by a copy).
 * - Format from `chooseTexture` (webgpu-formats.ts): the detiled guest bytes go up as they are when
 *   the mapping is direct; otherwise the CPU decodes each subresource into the fallback format.
 *   Compressed formats fall back as well where WebGPU cannot hold them (a base level that is not a
 *   multiple of the block size, a 3D BC image without `texture-compression-bc-sliced-3d`).
 * - Every mip level and slice is uploaded through `readSurface`.
 * - DST_SEL is applied by the view (`texture-component-swizzle`) when the device has the feature
 *   and the caller allows it; otherwise it is returned for the module's WGSL.
 * - BC textures kept compressed get the SwiftShader draw-touch (WEBGPU-PLATFORM.md): one render
 *   pass that binds the texture (a full-range 2d-array / 3d view, textureLoad in the fragment
 *   stage, a 1x1 target, one point), after which compute reads it. It is applied always by default:
 *   one tiny pass per texture, and harmless on drivers without the quirk.
 * - What cannot be bound is a `ResourceError` naming the reason, never garbage texels.
 */
import type { DstSel, FormatInfo, ImageDescriptor } from '../descriptors/index.ts';
import {
  TexelFormatError,
  bytesPerElement,
  decodeImageLevel,
  decodeUnorm8Level,
  texelFormat,
} from '../texels/formats.ts';
import { TilingError } from '../texels/tiling.ts';
import {
  readSurface,
  surfaceLayout,
  type GuestBytes,
  type SurfaceLayout,
  type TilingParams,
} from '../texels/surface.ts';
import {
  chooseTexture,
  webgpuFormatEntry,
  type SwizzleComponent,
  type TextureChoice,
} from '../texels/webgpu-formats.ts';
import { ResourceError } from './errors.ts';

/** The texel type the module's WGSL declares: texture_*<f32>, <u32>, <i32>. */
export type ShaderTexelType = 'f32' | 'u32' | 'i32';

export interface GuestTextureOptions {
  /** Chip parameters the layout needs besides the T# (pipes, tile modes…), as `surfaceLayout` takes them. */
  readonly tiling?: TilingParams;
  /** What the shader declares; a mismatch (an integer format for a float texture…) is refused. */
  readonly expect?: ShaderTexelType;
  /** Apply DST_SEL in the view where the device has `texture-component-swizzle` (default true). */
  readonly viewSwizzle?: boolean;
  /** Keep BC compressed where the device can (default true); false decodes on the CPU. */
  readonly keepCompressed?: boolean;
  /** The SwiftShader draw-touch for compressed textures: 'always' (default) or 'never'. */
  readonly drawTouch?: 'always' | 'never';
  /**
   * Make a depth texture (the format's `depth` mapping, e.g. 32_FLOAT -> depth32float) for
   * depth / comparison sampling. Its texels are decoded on the CPU and written by a render pass
   * (WebGPU forbids copies into depth32float); the texture gets RENDER_ATTACHMENT usage.
   */
  readonly asDepth?: boolean;
  /**
   * Decode every float-kind format (UNORM, SNORM, sRGB, floats, BC) on the CPU into rgba32float:
   * the texels are then exactly the host decoder's values (the interpreter's), not the device's
   * own conversion, which may round differently (the translator's images, D015). Integer formats
   * are unaffected.
   */
  readonly exactFloat32?: boolean;
  /** Extra texture usage (TEXTURE_BINDING | COPY_DST are always set). */
  readonly usage?: number;
  readonly label?: string;
}

export type Swizzle = readonly [SwizzleComponent, SwizzleComponent, SwizzleComponent, SwizzleComponent];
const IDENTITY: Swizzle = ['r', 'g', 'b', 'a'];

export interface GuestTexture {
  readonly texture: GPUTexture;
  /** The view the T# describes: BASE_LEVEL..LAST_LEVEL, BASE_ARRAY.., swizzled where `swizzleInView`. */
  readonly view: GPUTextureView;
  readonly viewDescriptor: GPUTextureViewDescriptor;
  readonly format: GPUTextureFormat;
  readonly dimension: GPUTextureDimension;
  readonly viewDimension: GPUTextureViewDimension;
  /** 'direct' (guest bytes uploaded) or the CPU decode used. */
  readonly upload: TextureChoice['upload'];
  /** The binding's sample type, and the WGSL texel type it reads as. */
  readonly sampleType: GPUTextureSampleType;
  readonly texelType: ShaderTexelType;
  /** DST_SEL as the module must still apply it (identity when the view applies it). */
  readonly swizzle: Swizzle;
  /** DST_SEL as the T# gives it. */
  readonly dstSel: readonly [DstSel, DstSel, DstSel, DstSel];
  readonly swizzleInView: boolean;
  readonly compressedOnDevice: boolean;
  readonly drawTouched: boolean;
  readonly layout: SurfaceLayout;
  /** Why the CPU decoded a format that has a direct mapping, when it did. */
  readonly fallbackReason?: string;
}

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TilingError) throw new ResourceError('unmodelled-layout', `${e.mode}: ${e.reason}`);
    if (e instanceof TexelFormatError) throw new ResourceError('unbindable-format', e.message);
    throw e;
  }
}

/** Float formats whose sampling needs `float32-filterable` to be 'float' rather than 'unfilterable-float'. */
const FLOAT32 = new Set<GPUTextureFormat>(['r32float', 'rg32float', 'rgba32float']);

function sampleTypeOf(
  format: GPUTextureFormat,
  device: GPUDevice,
): { sampleType: GPUTextureSampleType; texel: ShaderTexelType } {
  if (format.startsWith('depth')) return { sampleType: 'depth', texel: 'f32' };
  if (/uint$/.test(format)) return { sampleType: 'uint', texel: 'u32' };
  if (/sint$/.test(format)) return { sampleType: 'sint', texel: 'i32' };
  if (FLOAT32.has(format) && !device.features.has('float32-filterable'))
    return { sampleType: 'unfilterable-float', texel: 'f32' };
  return { sampleType: 'float', texel: 'f32' };
}

interface Shape {
  readonly dimension: GPUTextureDimension;
  readonly viewDimension: GPUTextureViewDimension;
  readonly size: [number, number, number];
  readonly viewLayers: { base: number; count: number };
}

function shapeOf(desc: ImageDescriptor, device: GPUDevice): Shape {
  const L = device.limits;
  const t = desc.type_name;
  if (desc.is_msaa)
    throw new ResourceError('unsupported-type', `${t}: WebGPU cannot fill a multisampled texture from host memory`);
  const check = (what: string, v: number, max: number, limit: string) => {
    if (v > max) throw new ResourceError('too-large', `${what} ${v} exceeds ${limit} ${max}`);
  };
  if (t === '3d') {
    check('width', desc.width, L.maxTextureDimension3D, 'maxTextureDimension3D');
    check('height', desc.height, L.maxTextureDimension3D, 'maxTextureDimension3D');
    check('depth', desc.depth, L.maxTextureDimension3D, 'maxTextureDimension3D');
    return {
      dimension: '3d',
      viewDimension: '3d',
      size: [desc.width, desc.height, desc.depth],
      viewLayers: { base: 0, count: 1 },
    };
  }
  const height = t === '1d' || t === '1d_array' ? 1 : desc.height;
  check('width', desc.width, L.maxTextureDimension2D, 'maxTextureDimension2D');
  check('height', height, L.maxTextureDimension2D, 'maxTextureDimension2D');
  const layers = desc.layers;
  check('layer count', layers, L.maxTextureArrayLayers, 'maxTextureArrayLayers');
  const base = desc.is_array || desc.is_cube ? desc.base_array : 0;
  if (base >= layers) throw new ResourceError('bad-levels', `BASE_ARRAY ${base} is not below the ${layers} layers`);
  let viewDimension: GPUTextureViewDimension;
  let count = desc.is_array ? layers - base : 1;
  if (desc.is_cube) {
    if (desc.width !== desc.height)
      throw new ResourceError('unsupported-type', `cube faces of ${desc.width}x${desc.height} are not square`);
    if (layers % 6 !== 0 || base % 6 !== 0)
      throw new ResourceError('unsupported-type', `a cube of ${layers} layers from layer ${base} is not whole cubes`);
    count = layers - base;
    viewDimension = count === 6 ? 'cube' : 'cube-array';
  } else viewDimension = desc.is_array ? '2d-array' : '2d';
  return { dimension: '2d', viewDimension, size: [desc.width, height, layers], viewLayers: { base, count } };
}

function blockDims(format: GPUTextureFormat): number {
  return /^(bc|etc2|eac|astc)/.test(format) ? 4 : 1;
}

/** Converts a float to IEEE binary16 bits (round to nearest even; overflow to infinity). */
export function toHalfBits(v: number): number {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  f[0] = v;
  const x = u[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let r = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    if (rem > half || (rem === half && (r & 1) === 1)) r++;
    return sign | r;
  }
  let r = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (r & 1) === 1)) r++;
  return sign | r;
}

/** The bytes a fallback texture holds for one decoded subresource. */
function decodeFallback(
  choice: { format: GPUTextureFormat; upload: TextureChoice['upload'] },
  desc: ImageDescriptor,
  linear: Uint8Array,
  width: number,
  height: number,
): { bytes: Uint8Array; bytesPerTexel: number } {
  const tf = texelFormat(desc.format);
  if (choice.upload === 'unorm8') return { bytes: decodeUnorm8Level(tf, linear, width, height), bytesPerTexel: 4 };
  const rgba = decodeImageLevel(tf, linear, width, height);
  if (choice.format === 'rgba16float') {
    const h = new Uint16Array(rgba.length);
    for (let i = 0; i < rgba.length; i++) h[i] = toHalfBits(rgba[i]);
    return { bytes: new Uint8Array(h.buffer), bytesPerTexel: 8 };
  }
  return { bytes: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength), bytesPerTexel: 16 };
}

/** The texture format a guest image takes on a device, and how its texels are made (D008). */
export interface GuestTextureFormat {
  readonly format: GPUTextureFormat;
  readonly upload: TextureChoice['upload'];
  readonly compressedOnDevice: boolean;
  readonly swizzle: Swizzle;
  /** Why a format with a direct block-compressed mapping is decoded on the CPU, when it is. */
  readonly fallbackReason?: string;
}

/**
 * The one rule for a guest image's texture format: `chooseTexture`'s direct mapping where the
 * device has its feature, else the CPU fallback; a block-compressed image also falls back where
 * WebGPU cannot hold it compressed: `extent` (the texture's level-0 size as it will be created,
 * height 1 for 1D) not a multiple of the block, a volume without `texture-compression-bc-sliced-3d`,
 * or `keepCompressed` false. Shared by `createGuestTexture` and the descriptor directory's pages,
 * whose sizes (and texel bounds) must follow the same choice. Throws `TexelFormatError` for an
 * unmodelled format.
 */
export function guestTextureFormat(
  desc: ImageDescriptor,
  features: ReadonlySet<string> | GPUSupportedFeatures,
  extent: { readonly width: number; readonly height: number; readonly volume: boolean },
  keepCompressed = true,
): GuestTextureFormat {
  const choice = chooseTexture(desc.format, features, desc.dst_sel);
  if (!choice.compressedOnDevice) return choice;
  const bw = blockDims(choice.format);
  let fallbackReason: string | undefined;
  if (!keepCompressed) fallbackReason = 'keepCompressed is false';
  else if (extent.width % bw !== 0 || extent.height % bw !== 0)
    fallbackReason = `${extent.width}x${extent.height} is not a multiple of the ${bw}x${bw} block (WebGPU requires it)`;
  else if (extent.volume && !features.has('texture-compression-bc-sliced-3d'))
    fallbackReason = '3D BC textures need texture-compression-bc-sliced-3d';
  if (fallbackReason === undefined) return choice;
  const fb = webgpuFormatEntry(desc.format).fallback;
  return { format: fb.format, upload: fb.via, compressedOnDevice: false, swizzle: choice.swizzle, fallbackReason };
}

/**
 * Bytes a texel (or a 4x4 block, compressed) of the texture takes, for a `guestTextureFormat`
 * choice made for `format`: the guest element size where the bytes go up as they are, else the
 * fallback's texel as `decodeFallback` writes it (unorm8 4, rgba16float 8, 32-bit channels 16).
 */
export function uploadBytesPerElement(
  choice: Pick<GuestTextureFormat, 'format' | 'upload'>,
  format: FormatInfo,
): number {
  if (choice.upload === 'direct') return bytesPerElement(format);
  if (choice.upload === 'unorm8') return 4;
  return choice.format === 'rgba16float' ? 8 : 16;
}

/** One subresource's texels as `writeTexture` takes them: the bytes, their row pitch, and the copy size. */
export interface SubresourceUpload {
  readonly bytes: Uint8Array;
  readonly bytesPerRow: number;
  readonly rowsPerImage: number;
  /** The copy extent in texels (whole blocks for a compressed texture). */
  readonly width: number;
  readonly height: number;
}

/**
 * The upload of one subresource, from `linear` (its elements as `readSurface` gives them): the
 * detiled bytes as they are for a direct format, else the CPU decode into the fallback format.
 */
export function subresourceUpload(
  choice: Pick<GuestTextureFormat, 'format' | 'upload'>,
  desc: ImageDescriptor,
  layout: SurfaceLayout,
  level: number,
  linear: Uint8Array,
): SubresourceUpload {
  const sub = layout.subresource(level, 0);
  if (choice.upload === 'direct')
    return {
      bytes: linear,
      bytesPerRow: sub.elementsWide * layout.bytesPerElement,
      rowsPerImage: sub.elementsHigh,
      width: sub.elementsWide * layout.blockWidth,
      height: sub.elementsHigh * layout.blockHeight,
    };
  const { bytes, bytesPerTexel } = decodeFallback(choice, desc, linear, sub.width, sub.height);
  return {
    bytes,
    bytesPerRow: sub.width * bytesPerTexel,
    rowsPerImage: sub.height,
    width: sub.width,
    height: sub.height,
  };
}

/**
 * Creates the texture a T# describes, uploads every level and slice from `guest`, and returns
 * it with its view. Errors of the device (validation, out of memory) become
 * `ResourceError('device-rejected')`.
 */
export async function createGuestTexture(
  device: GPUDevice,
  desc: ImageDescriptor,
  guest: GuestBytes,
  options: GuestTextureOptions = {},
): Promise<GuestTexture> {
  const label = options.label ?? `T#@0x${desc.address.toString(16)}`;
  const shape = shapeOf(desc, device);
  let choice: GuestTextureFormat = wrap(() =>
    guestTextureFormat(
      desc,
      device.features,
      { width: desc.width, height: shape.size[1], volume: shape.dimension === '3d' },
      options.keepCompressed !== false,
    ),
  );
  // After the format, so an unmodelled format is reported as a format, not as a layout.
  const layout = wrap(() => surfaceLayout(desc.gen, desc, options.tiling ?? {}));
  if (options.exactFloat32 === true && options.asDepth !== true && texelFormat(desc.format).channelKind === 'float')
    choice = { format: 'rgba32float', upload: 'float', compressedOnDevice: false, swizzle: choice.swizzle };
  const fallbackReason = choice.fallbackReason;
  if (options.asDepth === true) {
    const depth = wrap(() => webgpuFormatEntry(desc.format)).depth;
    if (depth === undefined)
      throw new ResourceError('unbindable-format', `${desc.format.name} has no depth format WebGPU can sample`);
    if (shape.dimension === '3d') throw new ResourceError('unsupported-type', 'WebGPU has no 3D depth textures');
    choice = { format: depth, upload: 'float', compressedOnDevice: false, swizzle: choice.swizzle };
  }
  const { sampleType, texel } = sampleTypeOf(choice.format, device);
  if (options.expect !== undefined && options.expect !== texel)
    throw new ResourceError(
      'sample-type-mismatch',
      `${desc.format.name} reads as ${texel} (${choice.format}) but the shader declares texture_*<${options.expect}>`,
    );

  const levels = layout.levels;
  if (desc.base_level > desc.last_level || desc.last_level >= levels)
    throw new ResourceError(
      'bad-levels',
      `levels ${desc.base_level}..${desc.last_level} outside the ${levels} of the layout`,
    );
  const extent = shape.dimension === '3d' ? shape.size : shape.size.slice(0, 2);
  const maxLevels = Math.floor(Math.log2(Math.max(...extent))) + 1;
  if (levels > maxLevels)
    throw new ResourceError('bad-levels', `${levels} levels for ${extent.join('x')}: WebGPU allows ${maxLevels}`);

  const swizzleInView =
    options.viewSwizzle !== false &&
    options.asDepth !== true &&
    device.features.has('texture-component-swizzle') &&
    choice.swizzle.join('') !== 'rgba';

  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  const texture = device.createTexture({
    label,
    dimension: shape.dimension,
    size: shape.size,
    format: choice.format,
    mipLevelCount: levels,
    usage:
      GPUTextureUsage.TEXTURE_BINDING |
      GPUTextureUsage.COPY_DST |
      (options.asDepth === true ? GPUTextureUsage.RENDER_ATTACHMENT : 0) |
      (options.usage ?? 0),
  });

  try {
    wrap(() => {
      for (let level = 0; level < levels; level++)
        for (let slice = 0; slice < layout.slices; slice++) {
          const sub = layout.subresource(level, slice);
          const linear = readSurface(layout, guest, level, slice);
          const origin = { x: 0, y: 0, z: slice };
          if (options.asDepth === true) {
            const rgba = decodeImageLevel(desc.format, linear, sub.width, sub.height);
            const values = new Float32Array(sub.width * sub.height);
            for (let i = 0; i < values.length; i++) values[i] = rgba[i * 4];
            writeDepthByRenderPass(device, texture, values, sub.width, sub.height, {
              mipLevel: level,
              arrayLayer: slice,
            });
          } else {
            const up = subresourceUpload(choice, desc, layout, level, linear);
            device.queue.writeTexture(
              { texture, mipLevel: level, origin },
              up.bytes,
              { bytesPerRow: up.bytesPerRow, rowsPerImage: up.rowsPerImage },
              { width: up.width, height: up.height, depthOrArrayLayers: 1 },
            );
          }
        }
    });
  } catch (e) {
    await device.popErrorScope();
    await device.popErrorScope();
    texture.destroy();
    throw e;
  }

  const viewDescriptor: GPUTextureViewDescriptor = {
    label: `${label}.view`,
    dimension: shape.viewDimension,
    // Sampling only: a resource-table slot needs exactly this usage, and a swizzled view allows no other.
    usage: GPUTextureUsage.TEXTURE_BINDING,
    baseMipLevel: desc.base_level,
    mipLevelCount: desc.last_level - desc.base_level + 1,
    baseArrayLayer: shape.viewLayers.base,
    arrayLayerCount: shape.dimension === '3d' ? 1 : shape.viewLayers.count,
    ...(swizzleInView ? { swizzle: choice.swizzle.join('') } : {}),
  };
  const view = texture.createView(viewDescriptor);
  const drawTouched = choice.compressedOnDevice && options.drawTouch !== 'never';
  if (drawTouched) drawTouch(device, texture, shape.dimension === '3d' ? '3d' : '2d-array');

  const validation = await device.popErrorScope();
  const oom = await device.popErrorScope();
  if (validation || oom) {
    texture.destroy();
    throw new ResourceError('device-rejected', `${label}: ${(validation ?? oom)?.message}`);
  }
  return {
    texture,
    view,
    viewDescriptor,
    format: choice.format,
    dimension: shape.dimension,
    viewDimension: shape.viewDimension,
    upload: choice.upload,
    sampleType,
    texelType: texel,
    swizzle: swizzleInView ? IDENTITY : choice.swizzle,
    dstSel: desc.dst_sel,
    swizzleInView,
    compressedOnDevice: choice.compressedOnDevice,
    drawTouched,
    layout,
    ...(fallbackReason !== undefined ? { fallbackReason } : {}),
  };
}

/**
 * The WGSL that applies a swizzle to a texel held in the variable `v` (read it once into a
 * `let`): e.g. `vec4<f32>(v.b, v.g, v.r, 1.0)`.
 */
export function swizzleWgsl(swizzle: Swizzle, v: string, texel: ShaderTexelType = 'f32'): string {
  const one = texel === 'f32' ? '1.0' : texel === 'u32' ? '1u' : '1i';
  const zero = texel === 'f32' ? '0.0' : texel === 'u32' ? '0u' : '0i';
  const parts = swizzle.map((c) => (c === '0' ? zero : c === '1' ? one : `${v}.${c}`));
  return `vec4<${texel}>(${parts.join(', ')})`;
}

// ---------------------------------------------------------------- the SwiftShader draw-touch

const touchPipelines = new WeakMap<GPUDevice, Map<string, GPURenderPipeline>>();

function touchPipeline(device: GPUDevice, dim: '2d-array' | '3d'): GPURenderPipeline {
  let m = touchPipelines.get(device);
  if (!m) touchPipelines.set(device, (m = new Map()));
  const hit = m.get(dim);
  if (hit) return hit;
  const type = dim === '3d' ? 'texture_3d<f32>' : 'texture_2d_array<f32>';
  const load = dim === '3d' ? 'textureLoad(t, vec3u(0u), 0)' : 'textureLoad(t, vec2u(0u), 0u, 0)';
  const module = device.createShaderModule({
    label: `draw-touch.${dim}`,
    code: /* wgsl */ `
@group(0) @binding(0) var t: ${type};
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return ${load}; }
`,
  });
  const p = device.createRenderPipeline({
    label: `draw-touch.${dim}`,
    layout: 'auto',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    primitive: { topology: 'point-list' },
  });
  m.set(dim, p);
  return p;
}

/**
 * Binds `texture` once in a render pass (a full-range view, textureLoad in the fragment
 * stage, one point into a 1x1 target): on SwiftShader compute shaders read zeros from a
 * block-compressed texture until a draw has bound it (WEBGPU-PLATFORM.md).
 */
export function drawTouch(device: GPUDevice, texture: GPUTexture, dim: '2d-array' | '3d'): void {
  const pipeline = touchPipeline(device, dim);
  const target = device.createTexture({
    label: 'draw-touch.target',
    size: [1, 1],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT,
  });
  const view = texture.createView({ dimension: dim, usage: GPUTextureUsage.TEXTURE_BINDING });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: view }],
  });
  const encoder = device.createCommandEncoder({ label: 'draw-touch' });
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'discard', clearValue: [0, 0, 0, 0] }],
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.draw(1);
  pass.end();
  device.queue.submit([encoder.finish()]);
  target.destroy();
}

// ---------------------------------------------------------------- depth textures

const depthPipelines = new WeakMap<GPUDevice, Map<GPUTextureFormat, GPURenderPipeline>>();

/**
 * Fills one level/layer of a depth texture (depth32float, depth16unorm…) with `values` (width x
 * height floats, row-major). WebGPU forbids writeTexture and buffer copies into depth32float, so
 * the values go into an r32float texture and a render pass writes them as frag_depth. The depth
 * texture needs RENDER_ATTACHMENT usage.
 */
export function writeDepthByRenderPass(
  device: GPUDevice,
  depth: GPUTexture,
  values: Float32Array,
  width: number,
  height: number,
  target: { mipLevel?: number; arrayLayer?: number } = {},
): void {
  if (values.length !== width * height)
    throw new ResourceError('bad-range', `${values.length} depth values for ${width}x${height} texels`);
  let m = depthPipelines.get(device);
  if (!m) depthPipelines.set(device, (m = new Map()));
  let pipeline = m.get(depth.format);
  if (!pipeline) {
    const module = device.createShaderModule({
      label: 'depth-fill',
      code: /* wgsl */ `
@group(0) @binding(0) var src: texture_2d<f32>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) pos: vec4f) -> @builtin(frag_depth) f32 {
  return textureLoad(src, vec2u(pos.xy), 0).r;
}
`,
    });
    pipeline = device.createRenderPipeline({
      label: 'depth-fill',
      layout: 'auto',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [] },
      depthStencil: { format: depth.format, depthWriteEnabled: true, depthCompare: 'always' },
      primitive: { topology: 'triangle-list' },
    });
    m.set(depth.format, pipeline);
  }
  const src = device.createTexture({
    label: 'depth-fill.src',
    size: [width, height],
    format: 'r32float',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture: src }, values, { bytesPerRow: width * 4 }, [width, height]);
  const encoder = device.createCommandEncoder({ label: 'depth-fill' });
  const pass = encoder.beginRenderPass({
    colorAttachments: [],
    depthStencilAttachment: {
      view: depth.createView({
        dimension: '2d',
        baseMipLevel: target.mipLevel ?? 0,
        mipLevelCount: 1,
        baseArrayLayer: target.arrayLayer ?? 0,
        arrayLayerCount: 1,
      }),
      depthLoadOp: 'clear',
      depthClearValue: 0,
      depthStoreOp: 'store',
    },
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: src.createView() }],
    }),
  );
  pass.draw(3);
  pass.end();
  device.queue.submit([encoder.finish()]);
  src.destroy();
}
