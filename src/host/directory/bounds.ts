/**
 * The bounds on what a dispatch's tables may bind (D983, D013), checked against the descriptors'
 * base levels before any image is read: at most MOST_SELECTED_IMAGES distinct images a table
 * (the length of the arrays), and at most MOST_TEXEL_BYTES of texels over the dispatch's tables,
 * counted as the project uploads them (a BC image that stays compressed counts its blocks). A
 * dispatch over either is refused with what its tables hold.
 */
import { DirectoryError } from './errors.ts';
import { LEFT_OUT_REASONS, type ImageTable } from './table.ts';

/** The most distinct images one table may bind: the arrays' length. */
export const MOST_SELECTED_IMAGES = 4096;
/** The most texel bytes a dispatch's selected images may take on the device: 1 GiB. */
export const MOST_TEXEL_BYTES = 2 ** 30;

export interface ImageBounds {
  readonly images?: number;
  readonly texelBytes?: number;
}

/** What a dispatch's tables hold, counted for a refusal's message and the UI. */
export interface TablesSummary {
  readonly tables: readonly {
    readonly address: number;
    readonly records: number;
    readonly empty: number;
    /** Non-empty records by T# TYPE name. */
    readonly byType: Readonly<Record<string, number>>;
    readonly leftOut: ImageTable['leftOut'];
    readonly images: number;
    /** Distinct images by format name (as the descriptor layer names it). */
    readonly imagesByFormat: Readonly<Record<string, number>>;
    readonly texelBytes: number;
  }[];
  /** Distinct images over every table (the same words in two tables count once). */
  readonly images: number;
  readonly texelBytes: number;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

/** Counts what the tables hold. Reads nothing. */
export function summariseTables(tables: readonly ImageTable[]): TablesSummary {
  const distinct = new Map<string, number>();
  const perTable = tables.map((t) => {
    const byType: Record<string, number> = {};
    for (const o of t.outcomes) if (o.outcome !== 'empty') count(byType, o.typeName);
    const imagesByFormat: Record<string, number> = {};
    let texelBytes = 0;
    for (const im of t.images) {
      count(imagesByFormat, im.descriptor.format.name);
      texelBytes += im.baseLevelBytes;
      distinct.set(im.words.join(','), im.baseLevelBytes);
    }
    return {
      address: t.address,
      records: t.recordCount,
      empty: t.emptyRecords,
      byType,
      leftOut: t.leftOut,
      images: t.images.length,
      imagesByFormat,
      texelBytes,
    };
  });
  let texelBytes = 0;
  for (const b of distinct.values()) texelBytes += b;
  return { tables: perTable, images: distinct.size, texelBytes };
}

/** Bytes for a message: `1.50 GiB`, `12.0 MiB`, `512 B`. */
export function formatBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(1)} KiB`;
  return `${n} B`;
}

const byCount = (r: Readonly<Record<string, number>>): string =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');

/** The summary in words: per table, its records by type, what was left out and why, its images by format and bytes. */
export function describeTables(s: TablesSummary): string {
  const parts = s.tables.map((t) => {
    const left = LEFT_OUT_REASONS.filter((r) => t.leftOut[r] > 0)
      .map((r) => `${t.leftOut[r]} ${r}`)
      .join(', ');
    return (
      `table at 0x${t.address.toString(16)}: ${t.records} records, ${t.records - t.empty} naming something ` +
      `(${byCount(t.byType) || 'none'}); left out: ${left || 'none'}; ` +
      `${t.images} distinct images in ${Object.keys(t.imagesByFormat).length} formats (${byCount(t.imagesByFormat) || 'none'}), ` +
      `base levels ${formatBytes(t.texelBytes)}`
    );
  });
  return `${parts.join('; ')}; in all ${s.images} distinct images, ${formatBytes(s.texelBytes)}`;
}

/**
 * Refuses, by name, tables over the bounds; returns their summary otherwise. Only the
 * descriptors are looked at: call it before reading any image.
 */
export function checkImageBounds(tables: readonly ImageTable[], bounds: ImageBounds = {}): TablesSummary {
  const mostImages = bounds.images ?? MOST_SELECTED_IMAGES;
  const mostBytes = bounds.texelBytes ?? MOST_TEXEL_BYTES;
  const s = summariseTables(tables);
  const over = s.tables.findIndex((t) => t.images > mostImages);
  if (over >= 0)
    throw new DirectoryError(
      'too-many-images',
      `a table names ${s.tables[over].images} distinct images, more than the ${mostImages} its arrays hold: ${describeTables(s)}`,
    );
  if (s.texelBytes > mostBytes)
    throw new DirectoryError(
      'too-many-texel-bytes',
      `the images' base levels would take ${formatBytes(s.texelBytes)} (${s.texelBytes} bytes), more than ${formatBytes(mostBytes)}: ${describeTables(s)}`,
    );
  return s;
}
