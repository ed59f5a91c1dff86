/** The `.gcncap` capture format: manifest types, the zip container, redaction, and building from specs. */
export { CaptureError, type CaptureErrorCode } from './errors.ts';
export * from './manifest.ts';
export { checkManifest, SCHEMA } from './check.ts';
export { BlobSet, readCapture, redact, writeCapture, REDACTED_REASON, type Capture } from './container.ts';
export { buildCapture, parseSpec, RECORDER, type BuildOptions, type BuiltCapture } from './build.ts';
export { sha256Hex } from './sha256.ts';
