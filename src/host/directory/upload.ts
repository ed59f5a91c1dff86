/**
 * Uploads a page plan (D013): one texture per page, each image's bound level written into its
 * layers (or depth slices), compressed pages draw-touched once (the SwiftShader quirk, D008), and
 * the page budget's unused bindings filled with 1x1 fillers so every module reading selected
 * images binds alike. The directory and the place map go up as storage buffers.
 */
import { ResourceError, createGuestBuffer, drawTouch } from '../resources/index.ts';
import { readBoundLevel } from './image-texels.ts';
import type { ImagePage, PagePlan } from './pages.ts';
import type { GuestByteReader, PageKind, TableImage } from './table.ts';

const VIEW_DIMENSION: Readonly<Record<PageKind, GPUTextureViewDimension>> = {
  flat: '2d-array',
  cube: 'cube-array',
  volume: '3d',
};

/** The WGSL type a page binding of each kind is declared as. */
export const PAGE_WGSL_TYPE: Readonly<Record<PageKind, string>> = {
  flat: 'texture_2d_array<f32>',
  cube: 'texture_cube_array<f32>',
  volume: 'texture_3d<f32>',
};

export interface UploadedPages {
  /** The budget's bindings of each kind, in page order: pages first, then fillers. */
  readonly views: Readonly<Record<PageKind, readonly GPUTextureView[]>>;
  /** The page textures and fillers (destroyed by `destroy`). */
  readonly textures: readonly GPUTexture[];
  /** The packed directory and the place map, as read-only storage buffers. */
  readonly directory: GPUBuffer;
  readonly placeMap: GPUBuffer;
  /** Pages draw-touched (compressed on the device). */
  readonly drawTouched: number;
  destroy(): void;
}

export interface UploadOptions {
  /** D008's draw-touch for compressed pages: 'always' (default) or 'never'. */
  readonly drawTouch?: 'always' | 'never';
}

function createPageTexture(device: GPUDevice, page: ImagePage): GPUTexture {
  return device.createTexture({
    label: `directory.${page.kind}-page.${page.index}`,
    dimension: page.kind === 'volume' ? '3d' : '2d',
    size: [page.width, page.height, page.depthOrArrayLayers],
    format: page.format,
    mipLevelCount: 1,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
}

function createFiller(device: GPUDevice, kind: PageKind): GPUTexture {
  const texture = device.createTexture({
    label: `directory.${kind}-filler`,
    dimension: kind === 'volume' ? '3d' : '2d',
    size: [1, 1, kind === 'cube' ? 6 : 1],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  // Zeros, written so the filler's contents are defined on every runtime.
  const zeros = new Uint8Array(4 * (kind === 'cube' ? 6 : 1));
  device.queue.writeTexture({ texture }, zeros, { bytesPerRow: 4, rowsPerImage: 1 }, [1, 1, kind === 'cube' ? 6 : 1]);
  return texture;
}

/**
 * Creates and fills the plan's pages from `memory` (`images` in place order, as the plan was
 * made from), and the directory (`packed`) and place map buffers. Device errors are
 * `ResourceError('device-rejected')`; an image the capture does not hold is `DirectoryError('image-unreadable')`.
 */
export async function uploadPages(
  device: GPUDevice,
  plan: PagePlan,
  images: readonly TableImage[],
  memory: GuestByteReader,
  directory: Uint32Array,
  options: UploadOptions = {},
): Promise<UploadedPages> {
  const textures: GPUTexture[] = [];
  const destroyAll = () => {
    for (const t of textures) t.destroy();
  };
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  const views: Record<PageKind, GPUTextureView[]> = { flat: [], cube: [], volume: [] };
  let drawTouched = 0;
  let buffers: GPUBuffer[] = [];
  try {
    const pageTextures = new Map<ImagePage, GPUTexture>();
    for (const kind of ['flat', 'cube', 'volume'] as const)
      for (const page of plan.pages[kind]) {
        const t = createPageTexture(device, page);
        textures.push(t);
        pageTextures.set(page, t);
      }
    images.forEach((im, i) => {
      const { page, image } = plan.where[i];
      const texture = pageTextures.get(page)!;
      const firstLayer = page.kind === 'cube' ? image.first * 6 : page.kind === 'flat' ? image.first : 0;
      readBoundLevel(im, memory).forEach((up, s) =>
        device.queue.writeTexture(
          { texture, mipLevel: 0, origin: { x: 0, y: 0, z: firstLayer + s } },
          up.bytes,
          { bytesPerRow: up.bytesPerRow, rowsPerImage: up.rowsPerImage },
          { width: up.width, height: up.height, depthOrArrayLayers: 1 },
        ),
      );
    });
    for (const kind of ['flat', 'cube', 'volume'] as const) {
      for (const page of plan.pages[kind]) {
        const texture = pageTextures.get(page)!;
        if (page.compressedOnDevice && options.drawTouch !== 'never') {
          drawTouch(device, texture, kind === 'volume' ? '3d' : '2d-array');
          drawTouched++;
        }
        views[kind].push(
          texture.createView({ dimension: VIEW_DIMENSION[kind], usage: GPUTextureUsage.TEXTURE_BINDING }),
        );
      }
      if (views[kind].length < plan.budget[kind]) {
        const filler = createFiller(device, kind);
        textures.push(filler);
        const view = filler.createView({ dimension: VIEW_DIMENSION[kind], usage: GPUTextureUsage.TEXTURE_BINDING });
        while (views[kind].length < plan.budget[kind]) views[kind].push(view);
      }
    }
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const asBytes = (w: Uint32Array) => new Uint8Array(w.buffer, w.byteOffset, w.byteLength);
    buffers = [
      createGuestBuffer(device, asBytes(directory), storage, 'directory'),
      createGuestBuffer(device, asBytes(plan.placeMap), storage, 'directory.place-map'),
    ];
  } catch (e) {
    await device.popErrorScope();
    await device.popErrorScope();
    destroyAll();
    for (const b of buffers) b.destroy();
    throw e;
  }
  const validation = await device.popErrorScope();
  const oom = await device.popErrorScope();
  if (validation || oom) {
    destroyAll();
    for (const b of buffers) b.destroy();
    throw new ResourceError('device-rejected', `directory pages: ${(validation ?? oom)?.message}`);
  }
  const [dirBuffer, placeBuffer] = buffers;
  return {
    views,
    textures,
    directory: dirBuffer,
    placeMap: placeBuffer,
    drawTouched,
    destroy() {
      destroyAll();
      dirBuffer.destroy();
      placeBuffer.destroy();
    },
  };
}
