/**
 * D983's directory variants (selected_images): a translation's selected images rebuilt from its
 * table's images with their places permuted, or with one image left out of the directory, so a
 * test sees that what the module reads comes only from the words at the access. Shared by the
 * Dawn test (d983.gpu.test.ts) and the Chromium replay page (src/ui/replay-page.ts).
 */
import {
  buildDirectory,
  buildTexelStore,
  imagePlace,
  type GuestByteReader,
  type TableImage,
} from '../../src/host/directory/index.ts';
import type { SelectedImageData } from '../../src/translator/selected-images.ts';

export interface DirectoryVariant {
  /** order[p]: the new place of place p (a permutation of the table's places). */
  readonly order?: readonly number[];
  /** A place left out of the directory: the lanes selecting its image escape. */
  readonly omit?: number;
}

/** The one table's selected data rebuilt as `variant` says (the store re-laid in the new place order). */
export function rebuiltSelected(
  data: SelectedImageData,
  memory: GuestByteReader,
  variant: DirectoryVariant,
): SelectedImageData {
  if (data.tables.length !== 1) throw new Error(`a variant rebuilds one table, not ${data.tables.length}`);
  const images = data.tables[0]!.table.images;
  const order = variant.order ?? images.map((_, p) => p);
  if ([...order].sort((a, b) => a - b).some((p, i) => p !== i))
    throw new Error(`order [${order.join(', ')}] is not a permutation of ${images.length} places`);
  const placed: TableImage[] = [];
  images.forEach((im, p) => (placed[order[p]!] = { ...im, place: imagePlace(order[p]!) }));
  const directory = buildDirectory(
    images
      .filter((im) => im.place !== variant.omit)
      .map((im) => ({ words: im.words, place: imagePlace(order[im.place]!), cube: im.shape === 'cube' })),
  );
  const words = new Uint32Array(data.slots.length + directory.packed.length);
  data.slots.forEach((s) => (words[s.index] = data.slots.length));
  words.set(directory.packed, data.slots.length);
  return { ...data, directory: words, store: buildTexelStore(placed, memory, data.store.bytes * 2 + 4096) };
}
