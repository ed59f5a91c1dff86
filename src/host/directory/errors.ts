/** Why the host refuses a dispatch's image table. Every refusal of this module is one of these. */
export type DirectoryErrorCode =
  | 'table-range' // the table's V# does not bound a readable run of 32-byte records (swizzled, unbounded, misaligned)
  | 'table-unreadable' // the capture does not hold the table's bytes
  | 'too-many-images' // more distinct images than the arrays hold (MOST_SELECTED_IMAGES)
  | 'too-many-texel-bytes' // the images' base levels would take more than the texel bound
  | 'unplaceable-descriptors' // the directory cannot keep every descriptor within its probes below its size cap
  | 'duplicate-descriptor' // the same eight words given twice to the directory builder
  | 'too-many-pages' // the images need more texture bindings than the page budget allows
  | 'image-unreadable'; // the capture does not hold an image's base-level bytes (found at upload)

export class DirectoryError extends Error {
  override readonly name = 'DirectoryError';
  constructor(
    readonly code: DirectoryErrorCode,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}
