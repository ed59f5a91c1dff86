/**
 * Branded ids of the descriptor directory. A table record's index, an image's place, a
 * directory slot and a page are all small integers, and a place used as a record index (or a
 * slot as a place) reads the wrong image silently: the brands rule that out.
 */

/** Index of a 32-byte record in the table the V# names (0 .. 65535). */
export type TableRecordIndex = number & { readonly __brand: 'TableRecordIndex' };
/** An image's place: its index in the list of distinct images, the same in the flat and cube arrays. */
export type ImagePlace = number & { readonly __brand: 'ImagePlace' };
/** Index of a slot in the directory's power-of-two table. */
export type DirectorySlotIndex = number & { readonly __brand: 'DirectorySlotIndex' };
/** Index of a page (one texture array binding) within the pages of its kind. */
export type PageIndex = number & { readonly __brand: 'PageIndex' };

export const tableRecordIndex = (n: number): TableRecordIndex => n as TableRecordIndex;
export const imagePlace = (n: number): ImagePlace => n as ImagePlace;
export const directorySlotIndex = (n: number): DirectorySlotIndex => n as DirectorySlotIndex;
export const pageIndex = (n: number): PageIndex => n as PageIndex;
