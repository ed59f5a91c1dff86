/**
 * The texels of a table image's bound level as they go up (D013): its BASE_LEVEL, each slice the
 * page holds (layers from BASE_ARRAY, cube faces, or depth slices), read from guest memory in one
 * read, detiled by the surface layer and made into the texture format's bytes by the same rule
 * `createGuestTexture` follows (`subresourceUpload`, D008). Used at upload, after the bounds.
 */
import { subresourceUpload, type SubresourceUpload } from '../resources/index.ts';
import { readSurface } from '../texels/surface.ts';
import { DirectoryError } from './errors.ts';
import type { GuestByteReader, TableImage } from './table.ts';

/** The guest bytes the bound level's slices span, as one range from the layout base. */
export function boundLevelSpan(image: TableImage): { readonly address: number; readonly size: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (let s = image.firstSlice; s < image.firstSlice + image.sliceCount; s++) {
    const sub = image.layout.subresource(image.level, s);
    lo = Math.min(lo, sub.offset);
    hi = Math.max(hi, sub.offset + sub.size);
  }
  return { address: image.layout.base + lo, size: hi - lo };
}

/** Every slice of the bound level, in slice order, as `writeTexture` takes it. */
export function readBoundLevel(image: TableImage, memory: GuestByteReader): SubresourceUpload[] {
  const span = boundLevelSpan(image);
  let bytes: Uint8Array;
  try {
    bytes = memory.read(span.address, span.size);
  } catch (e) {
    throw new DirectoryError(
      'image-unreadable',
      `place ${image.place} (${image.descriptor.format.name} ${image.width}x${image.height}): ${span.size} bytes at 0x${span.address.toString(16)}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const guest = { address: span.address, bytes };
  const out: SubresourceUpload[] = [];
  for (let s = image.firstSlice; s < image.firstSlice + image.sliceCount; s++) {
    const linear = readSurface(image.layout, guest, image.level, s);
    out.push(subresourceUpload(image.format, image.descriptor, image.layout, image.level, linear));
  }
  return out;
}
