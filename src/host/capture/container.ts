/**
 * The `.gcncap` container: one zip (fflate) holding `manifest.json` and each blob once, as
 * `blobs/<sha256 hex>` (D005). Writing is deterministic: fixed order (manifest, then blobs by
 * hash), fixed timestamps, fixed compression level, so the same capture gives the same bytes.
 *
 * Reading checks everything it can before it inflates anything large: the zip's directory is
 * listed without inflating, the manifest (at most 64 MiB) is inflated and checked (version,
 * schema, bounds, sizes, overlaps), every blob it names must be listed with the size its range
 * declares, and only then are the blobs inflated and hashed.
 */
import { unzipSync, zipSync, type UnzipFileInfo, type Zippable } from 'fflate';
import { CaptureError } from './errors.ts';
import { blobSizes, checkManifest, checkVersion } from './check.ts';
import { MAX_MANIFEST_BYTES, isUnavailable, type BlobHash, type Manifest, type MemoryRange } from './manifest.ts';
import { sha256Hex } from './sha256.ts';

export const MANIFEST_NAME = 'manifest.json';
export const BLOB_DIR = 'blobs/';

/** A capture as read: its manifest, and its blobs by hash. */
export interface Capture {
  readonly manifest: Manifest;
  /** The bytes of a blob the manifest names; throws `missing-blob` for any other. */
  blob(hash: BlobHash): Uint8Array;
  /** Every blob the capture holds, by hash. */
  readonly blobs: ReadonlyMap<BlobHash, Uint8Array>;
}

/** Blobs collected by content: `add` hashes and keeps each distinct byte string once. */
export class BlobSet {
  private readonly map = new Map<BlobHash, Uint8Array>();
  async add(bytes: Uint8Array): Promise<BlobHash> {
    const hash = await sha256Hex(bytes);
    if (!this.map.has(hash)) this.map.set(hash, bytes);
    return hash;
  }
  get blobs(): ReadonlyMap<BlobHash, Uint8Array> {
    return this.map;
  }
}

/**
 * DOS timestamps are local time in fflate; a date built from local fields writes the same
 * fields in every time zone. Noon, so no zone's midnight transition moves it.
 */
const FIXED_MTIME = new Date(1980, 0, 1, 12, 0, 0);

/** The zip bytes of a capture. The manifest is checked as the reader checks it, and each blob named must be given. */
export async function writeCapture(manifest: Manifest, blobs: ReadonlyMap<BlobHash, Uint8Array>): Promise<Uint8Array> {
  const m = checkManifest(JSON.parse(JSON.stringify(manifest)) as unknown);
  const sizes = blobSizes(m);
  const files: Zippable = {
    [MANIFEST_NAME]: new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`),
  };
  for (const hash of [...sizes.keys()].sort()) {
    const bytes = blobs.get(hash);
    if (!bytes) throw new CaptureError('missing-blob', `the manifest names blob ${hash}, which was not given`);
    if (bytes.length !== sizes.get(hash))
      throw new CaptureError(
        'blob-size-mismatch',
        `blob ${hash} has ${bytes.length} bytes; its range says ${sizes.get(hash)}`,
      );
    if ((await sha256Hex(bytes)) !== hash)
      throw new CaptureError('checksum-mismatch', `the bytes given as blob ${hash} hash to something else`);
    files[BLOB_DIR + hash] = bytes;
  }
  return zipSync(files, { level: 9, mtime: FIXED_MTIME });
}

function listEntries(bytes: Uint8Array): UnzipFileInfo[] {
  const isZip = bytes.length >= 22 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
  if (!isZip) throw new CaptureError('not-a-zip', 'the file does not start as a zip container does (PK\\x03\\x04)');
  const entries: UnzipFileInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (info) => {
        entries.push({ ...info });
        return false; // list only: nothing is inflated
      },
    });
  } catch (e) {
    throw new CaptureError('not-a-zip', `the zip directory cannot be read (${(e as Error).message})`);
  }
  return entries;
}

function inflate(bytes: Uint8Array, names: ReadonlySet<string>): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, { filter: (info) => names.has(info.name) });
  } catch (e) {
    throw new CaptureError('not-a-zip', `a zip entry cannot be inflated (${(e as Error).message})`);
  }
}

/** Reads and checks a capture; every problem is a CaptureError, raised before the blobs are inflated. */
export async function readCapture(bytes: Uint8Array): Promise<Capture> {
  const entries = listEntries(bytes);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const me = byName.get(MANIFEST_NAME);
  if (!me) throw new CaptureError('no-manifest', `the zip holds no ${MANIFEST_NAME}`);
  if (me.originalSize > MAX_MANIFEST_BYTES)
    throw new CaptureError(
      'size-too-large',
      `${MANIFEST_NAME} is ${me.originalSize} bytes; the limit is ${MAX_MANIFEST_BYTES}`,
    );
  const mbytes = inflate(bytes, new Set([MANIFEST_NAME]))[MANIFEST_NAME];
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(mbytes));
  } catch (e) {
    throw new CaptureError('malformed-manifest', `${MANIFEST_NAME} is not UTF-8 JSON (${(e as Error).message})`);
  }
  checkVersion(json);
  const manifest = checkManifest(json);
  const sizes = blobSizes(manifest);
  for (const [hash, size] of sizes) {
    const e = byName.get(BLOB_DIR + hash);
    if (!e)
      throw new CaptureError(
        'missing-blob',
        `the manifest names blob ${hash}; the zip does not hold ${BLOB_DIR}${hash}`,
      );
    if (e.originalSize !== size)
      throw new CaptureError(
        'blob-size-mismatch',
        `blob ${hash} is ${e.originalSize} bytes in the zip; its range says ${size}`,
      );
  }
  const inflated = inflate(bytes, new Set([...sizes.keys()].map((h) => BLOB_DIR + h)));
  const blobs = new Map<BlobHash, Uint8Array>();
  for (const [hash, size] of sizes) {
    const b = inflated[BLOB_DIR + hash];
    if (!b || b.length !== size)
      throw new CaptureError(
        'blob-size-mismatch',
        `blob ${hash} inflates to ${b?.length ?? 0} bytes; its range says ${size}`,
      );
    if ((await sha256Hex(b)) !== hash)
      throw new CaptureError('checksum-mismatch', `blob ${hash}'s bytes do not hash to its name`);
    blobs.set(hash, b);
  }
  return {
    manifest,
    blobs,
    blob(hash) {
      const b = blobs.get(hash);
      if (!b) throw new CaptureError('missing-blob', `the capture holds no blob ${hash}`);
      return b;
    },
  };
}

export const REDACTED_REASON = 'redacted: guest data removed';

/**
 * The redacted form of a capture: the manifest whole (registers, user data, descriptors' words,
 * provenance), the code ranges' bytes and the PM4 stream; every other memory range and every
 * expected range loses its blob and says it was redacted.
 */
export function redact(capture: Pick<Capture, 'manifest' | 'blob'>): {
  manifest: Manifest;
  blobs: Map<BlobHash, Uint8Array>;
} {
  const m = capture.manifest;
  const blobs = new Map<BlobHash, Uint8Array>();
  const keep = (h: BlobHash): void => void blobs.set(h, capture.blob(h));
  const memory: MemoryRange[] = m.memory.map((r) => {
    if (r.origin.kind === 'code' || r.blob === null) {
      if (r.blob !== null) keep(r.blob);
      return r;
    }
    return { ...r, blob: null, unavailable: REDACTED_REASON };
  });
  if (m.dispatch.kind === 'pm4') keep(m.dispatch.blob);
  const expected = isUnavailable(m.expected)
    ? m.expected
    : {
        ...m.expected,
        memory: m.expected.memory.map((r) =>
          r.blob === null ? r : { ...r, blob: null, unavailable: REDACTED_REASON },
        ),
      };
  const manifest: Manifest = { ...m, memory, expected, redacted: true };
  // Field order as written: keep `unavailable` right after `blob`.
  return { manifest: JSON.parse(JSON.stringify(manifest, reorder)) as Manifest, blobs };
}

function reorder(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('blob' in value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'unavailable') continue;
    out[k] = v;
    if (k === 'blob' && 'unavailable' in value) out.unavailable = (value as { unavailable: unknown }).unavailable;
  }
  return out;
}
