/**
 * The resource-table form of a dispatch's runtime-selected images (D026): each place of the
 * texel store (D017) as a texture in a `GPUResourceTable` at slot = place, for WebGPU's
 * experimental resource table (`chromium-experimental-sampling-resource-table`;
 * `enable chromium_experimental_resource_table` in WGSL). The texture holds exactly the store's
 * words (rgba32uint: f32 bits of a float format's texels, an integer format's channel words), so
 * the module's software filtering reads the same values in either form. Every level of the
 * place's view is a mip, every layer (a cube's six faces) a layer. The module keeps the store's
 * headers (levels, sizes, flags, MIN_LOD) in a storage buffer; the texels go to the textures only.
 *
 * The resource table is not in WebGPU's standard types: `ResourceTableDevice` names the part of
 * Dawn's API this uses (WEBGPU-PLATFORM.md, "Resource table").
 */
import { STORE_HEADER, STORE_HEADER_WORDS, type TexelStore } from './texel-store.ts';

/** The feature a device needs for the resource table. */
export const RESOURCE_TABLE_FEATURE = 'chromium-experimental-sampling-resource-table';
/** The most slots a resource table holds. */
export const RESOURCE_TABLE_SLOTS = 65536;

/** Dawn's resource table (not in @webgpu/types). */
export interface GpuResourceTable {
  update(slot: number, resource: GPUTextureView | GPUTexture | GPUSampler): void;
  destroy(): void;
}

/** A device with the resource table's calls. */
export interface ResourceTableDevice extends GPUDevice {
  createResourceTable(descriptor: { size: number; label?: string }): GpuResourceTable;
}

/** A compute pass that binds a resource table. */
export interface ResourceTablePass extends GPUComputePassEncoder {
  setResourceTable(table: GpuResourceTable): void;
}

/** Whether a device can read selected images through the resource table (its feature, and the subgroups the service shuffles with). */
export function offersResourceTable(device: GPUDevice): boolean {
  return (
    device.features.has(RESOURCE_TABLE_FEATURE) &&
    device.features.has('subgroups') &&
    typeof (device as Partial<ResourceTableDevice>).createResourceTable === 'function'
  );
}

/** A store that cannot be laid into textures, by reason. */
export class ResourceTableError extends Error {
  override readonly name = 'ResourceTableError';
  constructor(
    readonly reason: 'no-resource-table' | 'too-many-places' | 'level-sizes',
    detail: string,
  ) {
    super(`resource table (${reason}): ${detail}`);
  }
}

export interface SelectedImageTable {
  readonly table: GpuResourceTable;
  /** The store's headers alone: what the module still reads from a storage buffer. */
  readonly headers: Uint32Array;
  /** Texture bytes uploaded. */
  readonly bytes: number;
  destroy(): void;
}

/** The headers of a store (its first `places` headers), without the texels. */
export function storeHeaders(store: TexelStore): Uint32Array {
  return store.words.slice(0, store.places * STORE_HEADER_WORDS);
}

/**
 * Uploads every readable place of `store` as an rgba32uint texture and puts its view in a new
 * resource table at slot = place. Places with no texels (a volume's empty header) stay empty
 * slots: the module never reads them (the directory never names them for a flat or cube access).
 */
export function createSelectedImageTable(device: GPUDevice, store: TexelStore): SelectedImageTable {
  if (!offersResourceTable(device))
    throw new ResourceTableError(
      'no-resource-table',
      `the device lacks ${RESOURCE_TABLE_FEATURE} or subgroups (Dawn for Node grants the first only with allow_unsafe_apis)`,
    );
  if (store.places > RESOURCE_TABLE_SLOTS)
    throw new ResourceTableError('too-many-places', `${store.places} places; a table holds ${RESOURCE_TABLE_SLOTS}`);
  const words = store.words;
  const textures: GPUTexture[] = [];
  const table = (device as ResourceTableDevice).createResourceTable({
    size: Math.max(1, store.places),
    label: 'selected images',
  });
  let bytes = 0;
  try {
    for (let p = 0; p < store.places; p++) {
      const h = p * STORE_HEADER_WORDS;
      const levels = words[h + STORE_HEADER.levels]!;
      if (levels === 0) continue;
      const layers = words[h + STORE_HEADER.layers]!;
      const width = words[h + STORE_HEADER.width]!;
      const height = words[h + STORE_HEADER.height]!;
      for (let l = 0; l < levels; l++) {
        const w = words[h + STORE_HEADER.width + l]!;
        const ht = words[h + STORE_HEADER.height + l]!;
        if (w !== Math.max(1, width >>> l) || ht !== Math.max(1, height >>> l))
          throw new ResourceTableError(
            'level-sizes',
            `place ${p} level ${l} is ${w}x${ht}; a mip of ${width}x${height} is ${Math.max(1, width >>> l)}x${Math.max(1, height >>> l)}`,
          );
      }
      const texture = device.createTexture({
        label: `selected image ${p}`,
        size: { width, height, depthOrArrayLayers: layers },
        mipLevelCount: levels,
        format: 'rgba32uint',
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
      });
      textures.push(texture);
      for (let l = 0; l < levels; l++) {
        const w = words[h + STORE_HEADER.width + l]!;
        const ht = words[h + STORE_HEADER.height + l]!;
        const at = words[h + STORE_HEADER.offset + l]!;
        const n = 4 * w * ht * layers;
        device.queue.writeTexture(
          { texture, mipLevel: l },
          words.subarray(at, at + n),
          { bytesPerRow: 16 * w, rowsPerImage: ht },
          { width: w, height: ht, depthOrArrayLayers: layers },
        );
        bytes += 4 * n;
      }
      // The table takes a view whose usage is exactly TEXTURE_BINDING (WEBGPU-PLATFORM.md).
      table.update(
        p,
        texture.createView({
          dimension: '2d-array',
          usage: GPUTextureUsage.TEXTURE_BINDING,
        } as GPUTextureViewDescriptor),
      );
    }
  } catch (e) {
    for (const t of textures) t.destroy();
    table.destroy();
    throw e;
  }
  return {
    table,
    headers: storeHeaders(store),
    bytes,
    destroy() {
      table.destroy();
      for (const t of textures) t.destroy();
    },
  };
}
