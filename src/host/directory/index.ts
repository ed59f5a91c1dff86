/**
 * The descriptor directory (D013, after D983): the images a dispatch selects from a table at run
 * time, read on the host from the table's records, bounded before any image is read, found in
 * the module through a hashed directory of their descriptors, and bound as pages of texture arrays.
 */
import type { Gen } from '../../isa/gen.ts';
import type { BufferDescriptor } from '../descriptors/index.ts';
import { checkImageBounds, type ImageBounds, type TablesSummary } from './bounds.ts';
import { buildDirectory, type DescriptorDirectory, type DirectoryOptions } from './directory.ts';
import { planPages, type PageBudget, type PagePlan } from './pages.ts';
import { readImageTable, type GuestByteReader, type ImageTable, type ReadTableOptions } from './table.ts';

export * from './bounds.ts';
export * from './directory.ts';
export * from './errors.ts';
export * from './hash.ts';
export * from './ids.ts';
export * from './image-texels.ts';
export * from './pages.ts';
export * from './sampler-table.ts';
export * from './table.ts';
export * from './texel-store.ts';
export * from './upload.ts';

/** One table a dispatch selects images from: its V# and the byte offset of its first record. */
export interface TableSource {
  readonly descriptor: BufferDescriptor;
  readonly offset?: number;
}

export interface PreparedTable {
  readonly table: ImageTable;
  readonly directory: DescriptorDirectory;
  readonly pages: PagePlan;
}

export interface PrepareOptions extends Omit<ReadTableOptions, 'offset'> {
  /** The page bindings each table's slot gets (`pageBudgetFor` gives one from the device's limits). */
  readonly budget: PageBudget;
  readonly bounds?: ImageBounds;
  readonly directory?: DirectoryOptions;
}

/**
 * Reads every table, refuses the dispatch over the bounds before any image is read, then builds
 * each table's directory and page plan. The images are read at upload (`uploadPages`).
 */
export function prepareImageTables(
  gen: Gen,
  sources: readonly TableSource[],
  memory: GuestByteReader,
  options: PrepareOptions,
): { readonly tables: readonly PreparedTable[]; readonly summary: TablesSummary } {
  const tables = sources.map((s) =>
    readImageTable(gen, s.descriptor, memory, { ...options, ...(s.offset !== undefined ? { offset: s.offset } : {}) }),
  );
  const summary = checkImageBounds(tables, options.bounds);
  return {
    summary,
    tables: tables.map((table) => ({
      table,
      directory: buildDirectory(
        table.images.map((im) => ({ words: im.words, place: im.place, cube: im.shape === 'cube' })),
        options.directory,
      ),
      pages: planPages(table.images, options.budget, options.features),
    })),
  };
}
