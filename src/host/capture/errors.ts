/** Every failure of the capture layer is a `CaptureError` with one of these codes. */
export type CaptureErrorCode =
  | 'not-a-zip' // the bytes are not a zip container
  | 'no-manifest' // the zip holds no manifest.json
  | 'malformed-manifest' // not JSON, not the schema, or inconsistent (registers that disagree, bad read_bytes, ...)
  | 'newer-major-version' // written by a newer major version of the format than this reader knows
  | 'checksum-mismatch' // a blob's bytes do not hash to its name
  | 'missing-blob' // the manifest names a blob the zip does not hold
  | 'overlapping-ranges' // two memory ranges (or two expected ranges) share a byte
  | 'address-out-of-range' // a range does not lie within 48-bit addresses
  | 'size-too-large' // a range, or all ranges together, larger than MAX_TOTAL_BYTES, or a huge manifest
  | 'blob-size-mismatch' // a blob's length is not its range's size
  | 'invalid-spec' // capture build: the spec is wrong (the message says where)
  | 'interpreter-not-available'; // capture build: `expected: {compute: interpreter}` asked of a tree without one

export class CaptureError extends Error {
  override readonly name = 'CaptureError';
  constructor(
    readonly code: CaptureErrorCode,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}
