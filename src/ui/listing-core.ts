/**
 * Listing types and helpers that need no decoder, so the page can still show a program's
 * dwords when the decoder module itself fails to load (it is written concurrently).
 */

export interface ListingLine {
  /** Byte offset of the first dword. */
  readonly offset: number;
  /** The dwords the line covers (one for an error line). */
  readonly words: readonly number[];
  readonly text?: string;
  readonly error?: string;
  /** The label branches use for this line's address, if any branch targets it. */
  readonly label?: string;
  /** True for lines after the program's last s_endpgm (padding or data). */
  readonly afterEnd?: boolean;
}

export interface Listing {
  readonly lines: ListingLine[];
  readonly decoded: number;
  readonly errors: number;
  /** Trailing bytes that are not a whole dword. */
  readonly trailingBytes: number;
}

export function hex32(w: number): string {
  return (w >>> 0).toString(16).padStart(8, '0');
}

/** Every dword as its own line carrying `reason` (no decoder involved). */
export function rawListing(bytes: Uint8Array, reason: string): Listing {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lines: ListingLine[] = [];
  for (let at = 0; at + 4 <= bytes.length; at += 4)
    lines.push({ offset: at, words: [view.getUint32(at, true)], error: reason });
  return { lines, decoded: 0, errors: lines.length, trailingBytes: bytes.length % 4 };
}
