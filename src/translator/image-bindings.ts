/**
 * The device side of a translation's images (D015): each distinct T# the module reads is one
 * texture in bind group 1 (binding = its index), created and uploaded by D008's
 * `createGuestTexture` from the guest bytes read at translation time, and viewed as a
 * `texture_2d_array` (1D images are 2D of height 1, non-array images one layer), so every access
 * reads through one `textureLoad(t, xy, layer, level)`.
 *
 * The module text is fixed at translation, before any device: its texel type and the swizzle it
 * still applies (DST_SEL) are planned from the T#, and checked against what the upload made.
 * Every float-kind format (UNORM, SNORM, sRGB, floats, BC) goes up decoded by the host's texel
 * decoder into rgba32float (`exactFloat32`): the module then reads the interpreter's own texel
 * values, where a device's UNORM conversion was measured 1 ULP off (SwiftShader, 206/255).
 * Integer formats go up as their bytes (exact either way).
 *
 * Runtime-selected images (D983, D017) add three storage buffers to the group: the directory, the
 * texel store (selected-images.ts) and the escape record the module writes (read back by the
 * replay, which refuses a result any lane escaped in).
 */
import type { ImageDescriptor } from '../host/descriptors/index.ts';
import {
  createGuestTexture,
  guestTextureFormat,
  swizzleWgsl,
  type GuestTexture,
  type ShaderTexelType,
  type Swizzle,
} from '../host/resources/texture.ts';
import { ResourceError } from '../host/resources/errors.ts';
import type { TexelFormat } from '../host/texels/formats.ts';
import type { SurfaceLayout } from '../host/texels/surface.ts';
import { TexelFormatError } from '../host/texels/formats.ts';
import type { GuestMemory } from '../interp/memory.ts';
import { MemoryRefusal } from './memory-ops.ts';

/** The bind group of the images (group 0 is guest memory, ranges, status, parameters). */
export const IMAGE_GROUP = 1;
/** The bindings of the selected images' buffers in IMAGE_GROUP (past any texture's: 48 sampled textures at most). */
export const SELECTED_BINDING = { directory: 64, store: 65, escapes: 66 } as const;

/** A texture the translation binds, as the module declares and reads it. */
export interface BoundImage {
  readonly binding: number;
  readonly words: readonly number[];
  readonly desc: ImageDescriptor;
  readonly layout: SurfaceLayout;
  readonly format: TexelFormat;
  readonly texel: ShaderTexelType;
  /** What the module applies to `textureLoad`'s result (DST_SEL with the format's mapping). */
  readonly swizzle: Swizzle;
  /** Layers of the view (from BASE_ARRAY for arrays; 1 otherwise). */
  readonly layers: number;
  /** The guest bytes of the surface, read at translation time. */
  readonly guest: { readonly address: number; readonly bytes: Uint8Array };
  /** The WGSL variable, its declaration, and the function that reads one texel's channel words. */
  readonly variable: string;
  readonly declaration: string;
  readonly texelName: string;
  readonly texelFunction: string;
}

const texelTypeOf = (format: GPUTextureFormat): ShaderTexelType =>
  /uint$/.test(format) ? 'u32' : /sint$/.test(format) ? 'i32' : 'f32';

/** The binding of a T# (called once per distinct T# by `ImagePlan`); reads its bytes from guest memory. */
export function plannedTexture(
  binding: number,
  words: readonly number[],
  desc: ImageDescriptor,
  layout: SurfaceLayout,
  format: TexelFormat,
  memory: GuestMemory,
): BoundImage {
  const height = desc.type_name === '1d' || desc.type_name === '1d_array' ? 1 : desc.height;
  let choice;
  try {
    choice = guestTextureFormat(desc, new Set<string>(), { width: desc.width, height, volume: false }, false);
  } catch (e) {
    if (e instanceof TexelFormatError) throw new MemoryRefusal(`the T# cannot be a texture: ${e.message}`);
    throw e;
  }
  // Float-kind formats go up as the host decoder's values (exactFloat32 below).
  if (format.channelKind === 'float') choice = { ...choice, format: 'rgba32float' as GPUTextureFormat };
  const texel = texelTypeOf(choice.format);
  const variable = `gimg${binding}`;
  const texelName = `gtexel${binding}`;
  const toWords = texel === 'u32' ? 's' : 'bitcast<vec4<u32>>(s)';
  const layers = desc.is_array ? Math.max(1, layout.slices - desc.base_array) : 1;
  return {
    binding,
    words: [...words],
    desc,
    layout,
    format,
    texel,
    swizzle: choice.swizzle,
    layers,
    guest: { address: layout.base, bytes: memory.read(layout.base, layout.size) },
    variable,
    declaration: `@group(${IMAGE_GROUP}) @binding(${binding}) var ${variable}: texture_2d_array<${texel}>;`,
    texelName,
    texelFunction: `fn ${texelName}(level: i32, layer: i32, x: i32, y: i32) -> vec4<u32> {
  let v = textureLoad(${variable}, vec2<i32>(x, y), layer, level);
  let s = ${swizzleWgsl(choice.swizzle, 'v', texel)};
  return ${toWords};
}
`,
  };
}

/** The textures of a translation on a device, and their bind group. */
export interface ImageBindings {
  readonly layout: GPUBindGroupLayout;
  readonly group: GPUBindGroup;
  /** The escape record of selected images (count, then records; image-ops.ts ESCAPE_*), when the module reads any. */
  readonly escapes?: GPUBuffer;
  destroy(): void;
}

/** What the selected images bind: the directory buffer's words and the texel store's. */
export interface SelectedBindingData {
  readonly directory: Uint32Array;
  readonly store: Uint32Array;
  /** Words of the escape record. */
  readonly escapeWords: number;
}

/** The module's texture planned otherwise than the device made it: a translator bug, named. */
export class ImageBindingError extends Error {
  override readonly name = 'ImageBindingError';
}

/** Creates and uploads every texture of `images` (none: undefined) and their bind group. */
export async function createImageBindings(
  device: GPUDevice,
  images: readonly BoundImage[],
  selected?: SelectedBindingData,
): Promise<ImageBindings | undefined> {
  if (images.length === 0 && !selected) return undefined;
  const made: GuestTexture[] = [];
  const buffers: GPUBuffer[] = [];
  try {
    for (const im of images) {
      const t = await createGuestTexture(device, im.desc, im.guest, {
        viewSwizzle: false,
        keepCompressed: false,
        exactFloat32: true,
        expect: im.texel,
        label: `image ${im.binding}`,
      });
      made.push(t);
      if (t.swizzle.join('') !== im.swizzle.join(''))
        throw new ImageBindingError(
          `image ${im.binding}: the module applies ${im.swizzle.join('')} but the texture needs ${t.swizzle.join('')}`,
        );
    }
  } catch (e) {
    for (const t of made) t.texture.destroy();
    if (e instanceof ResourceError) throw new ImageBindingError(`an image could not be bound: ${e.message}`);
    throw e;
  }
  let escapes: GPUBuffer | undefined;
  const bufferEntries: GPUBindGroupLayoutEntry[] = [];
  const bufferResources: GPUBindGroupEntry[] = [];
  if (selected) {
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const upload = (label: string, words: Uint32Array): GPUBuffer => {
      // A binding is at least 4 bytes; an empty store still binds one word.
      const b = device.createBuffer({ label, size: Math.max(4, words.byteLength), usage: storage });
      buffers.push(b);
      if (words.byteLength > 0) device.queue.writeBuffer(b, 0, words);
      return b;
    };
    const directory = upload('selected images: directory', selected.directory);
    const store = upload('selected images: texel store', selected.store);
    escapes = device.createBuffer({
      label: 'selected images: escapes',
      size: 4 * selected.escapeWords,
      usage: storage | GPUBufferUsage.COPY_SRC,
    });
    buffers.push(escapes);
    device.queue.writeBuffer(escapes, 0, new Uint32Array(selected.escapeWords));
    for (const [binding, buffer, type] of [
      [SELECTED_BINDING.directory, directory, 'read-only-storage'],
      [SELECTED_BINDING.store, store, 'read-only-storage'],
      [SELECTED_BINDING.escapes, escapes, 'storage'],
    ] as const) {
      bufferEntries.push({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } });
      bufferResources.push({ binding, resource: { buffer } });
    }
  }
  const layout = device.createBindGroupLayout({
    label: 'images',
    entries: [
      ...images.map((im, i): GPUBindGroupLayoutEntry => ({
        binding: im.binding,
        visibility: GPUShaderStage.COMPUTE,
        texture: {
          sampleType: made[i]!.sampleType === 'float' ? 'unfilterable-float' : made[i]!.sampleType,
          viewDimension: '2d-array',
        },
      })),
      ...bufferEntries,
    ],
  });
  const group = device.createBindGroup({
    label: 'images',
    layout,
    entries: [
      ...images.map((im, i): GPUBindGroupEntry => {
        const d = made[i]!.viewDescriptor;
        return {
          binding: im.binding,
          resource: made[i]!.texture.createView({
            ...d,
            dimension: '2d-array',
            arrayLayerCount: d.arrayLayerCount ?? 1,
          }),
        };
      }),
      ...bufferResources,
    ],
  });
  return {
    layout,
    group,
    ...(escapes ? { escapes } : {}),
    destroy: () => {
      for (const t of made) t.texture.destroy();
      for (const b of buffers) b.destroy();
    },
  };
}
