/**
 * The checks the reader (and the writer) make on a manifest, after the schema: versions,
 * address bounds, sizes, overlaps, registers that must agree. Each failure is a named
 * CaptureError; nothing here allocates more than the manifest already took.
 */
import { CaptureError } from './errors.ts';
import {
  ADDRESS_BITS,
  FORMAT_NAME,
  FORMAT_VERSION,
  MAX_TOTAL_BYTES,
  SH_OFFSETS,
  isUnavailable,
  shKey,
  type BlobHash,
  type ComputeRegisterName,
  type Manifest,
} from './manifest.ts';
import schemaJson from './gcncap.schema.json';
import { validate, type JsonSchema } from './schema.ts';
import { PROCESSORS, Gen } from '../../isa/gen.ts';

export const SCHEMA = schemaJson as unknown as JsonSchema;

const ADDRESS_LIMIT = 1n << BigInt(ADDRESS_BITS);

/** Checks the version before anything else: a newer major is refused by name. */
export function checkVersion(json: unknown): void {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CaptureError('malformed-manifest', 'manifest.json is not a JSON object');
  const o = json as Record<string, unknown>;
  if (o.format !== FORMAT_NAME)
    throw new CaptureError('malformed-manifest', `format is ${JSON.stringify(o.format)}, not "${FORMAT_NAME}"`);
  const v = o.version as Record<string, unknown> | undefined;
  if (typeof v !== 'object' || v === null || typeof v.major !== 'number' || typeof v.minor !== 'number')
    throw new CaptureError('malformed-manifest', 'version must be {major, minor}');
  if (v.major > FORMAT_VERSION.major)
    throw new CaptureError(
      'newer-major-version',
      `the capture is gcncap ${v.major}.${v.minor}; this reader reads ${FORMAT_VERSION.major}.x (up to ${FORMAT_VERSION.major}.${FORMAT_VERSION.minor})`,
    );
}

/** Schema and consistency; returns the manifest typed, or throws a CaptureError. */
export function checkManifest(json: unknown): Manifest {
  checkVersion(json);
  const o = json as { version: { major: number; minor: number } };
  const newerMinor = o.version.major === FORMAT_VERSION.major && o.version.minor > FORMAT_VERSION.minor;
  const problem = validate(SCHEMA, json, { allowUnknownProperties: newerMinor });
  if (problem) throw new CaptureError('malformed-manifest', problem);
  const m = json as Manifest;
  checkTarget(m);
  checkDispatch(m);
  let total = 0;
  total += checkRanges(m.memory, 'memory');
  if (!isUnavailable(m.expected)) {
    const exp = m.expected.memory;
    total += checkRanges(exp, 'expected.memory');
    exp.forEach((r, i) => {
      if (r.compare.kind === 'ulp') {
        const el = { f16: 2, f32: 4, f64: 8 }[r.compare.element];
        if (r.size % el !== 0)
          throw new CaptureError(
            'malformed-manifest',
            `expected.memory[${i}]: size ${r.size} is not a whole number of ${r.compare.element}`,
          );
      }
    });
  }
  if (m.dispatch.kind === 'pm4') total += m.dispatch.size;
  if (total > MAX_TOTAL_BYTES)
    throw new CaptureError(
      'size-too-large',
      `the capture describes ${total} bytes; the limit is ${MAX_TOTAL_BYTES} (4 GiB)`,
    );
  blobSizes(m); // blob-size agreement between ranges sharing a blob
  return m;
}

function checkTarget(m: Manifest): void {
  const gen = PROCESSORS[m.target.mcpu];
  if (gen === undefined)
    throw new CaptureError('malformed-manifest', `target.mcpu '${m.target.mcpu}' is not a known processor`);
  if (gen < Gen.GFX10 && !m.target.wave64)
    throw new CaptureError('malformed-manifest', `target: ${m.target.mcpu} runs wave64 only`);
}

function checkDispatch(m: Manifest): void {
  const d = m.dispatch;
  if (d.kind === 'registers') {
    const gen = PROCESSORS[m.target.mcpu];
    for (const [name, offset] of Object.entries(SH_OFFSETS) as [ComputeRegisterName, number][]) {
      const named = d.registers[name];
      if (name === 'COMPUTE_PGM_RSRC3' && named !== undefined && gen < Gen.GFX10)
        throw new CaptureError('malformed-manifest', `dispatch.registers: ${m.target.mcpu} has no COMPUTE_PGM_RSRC3`);
      if (named === undefined) continue;
      const raw = d.sh_registers[shKey(offset)];
      if (raw !== named)
        throw new CaptureError(
          'malformed-manifest',
          `dispatch: ${name} is ${named} but sh_registers["${shKey(offset)}"] is ${String(raw)}; the named registers are a view of the raw ones`,
        );
    }
    const pgm = (BigInt(d.registers.COMPUTE_PGM_HI) << 40n) | (BigInt(d.registers.COMPUTE_PGM_LO) << 8n);
    if (pgm >= ADDRESS_LIMIT)
      throw new CaptureError('address-out-of-range', `the program address 0x${pgm.toString(16)} is beyond 48 bits`);
  } else if (d.kind === 'program') {
    if (BigInt(d.entry) >= ADDRESS_LIMIT)
      throw new CaptureError('address-out-of-range', `dispatch.entry ${d.entry} is beyond 48 bits`);
    if (d.end !== undefined && BigInt(d.end) >= ADDRESS_LIMIT)
      throw new CaptureError('address-out-of-range', `dispatch.end ${d.end} is beyond 48 bits`);
    if (d.end !== undefined && BigInt(d.end) === BigInt(d.entry))
      throw new CaptureError('malformed-manifest', `dispatch.end ${d.end} is its entry: the program would run nothing`);
    const lanes = m.target.wave64 ? 64 : 32;
    d.initial.vgprs.forEach((v, i) => {
      if (v.length !== lanes)
        throw new CaptureError(
          'malformed-manifest',
          `dispatch.initial.vgprs[${i}] has ${v.length} lanes, not ${lanes}`,
        );
    });
  } else if (d.size > MAX_TOTAL_BYTES) {
    throw new CaptureError('size-too-large', `the PM4 stream's size ${d.size} is over ${MAX_TOTAL_BYTES} bytes`);
  }
}

interface RangeLike {
  readonly address: string;
  readonly size: number;
  readonly blob: BlobHash | null;
  readonly unavailable?: string;
  readonly read_bytes?: readonly (readonly [number, number])[] | 'unknown';
}

/** Bounds, sizes, blob-or-reason and overlaps of one list of ranges; returns their total size. */
function checkRanges(ranges: readonly RangeLike[], what: string): number {
  let total = 0;
  const spans: { lo: bigint; hi: bigint; i: number }[] = [];
  ranges.forEach((r, i) => {
    const where = `${what}[${i}] at ${r.address}`;
    if (r.size > MAX_TOTAL_BYTES)
      throw new CaptureError('size-too-large', `${where}: size ${r.size} is over ${MAX_TOTAL_BYTES} bytes (4 GiB)`);
    const lo = BigInt(r.address);
    const hi = lo + BigInt(r.size);
    if (hi > ADDRESS_LIMIT)
      throw new CaptureError('address-out-of-range', `${where}: ends at 0x${hi.toString(16)}, beyond 48-bit addresses`);
    if (r.blob === null && r.unavailable === undefined)
      throw new CaptureError('malformed-manifest', `${where}: no blob and no 'unavailable' reason`);
    if (r.blob !== null && r.unavailable !== undefined)
      throw new CaptureError('malformed-manifest', `${where}: both a blob and an 'unavailable' reason`);
    if (Array.isArray(r.read_bytes)) {
      let end = 0;
      for (const [off, n] of r.read_bytes) {
        if (off < end || off + n > r.size || n === 0)
          throw new CaptureError(
            'malformed-manifest',
            `${where}: read_bytes [${off}, ${n}] is empty, out of order, overlapping or beyond the range's ${r.size} bytes`,
          );
        end = off + n;
      }
    }
    total += r.size;
    spans.push({ lo, hi, i });
  });
  spans.sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
  let reach: (typeof spans)[number] | undefined; // the span reaching furthest so far
  for (const b of spans) {
    if (b.hi === b.lo) continue;
    if (reach && b.lo < reach.hi) {
      const a = reach;
      throw new CaptureError(
        'overlapping-ranges',
        `${what}[${a.i}] (${ranges[a.i].address}, ${ranges[a.i].size} bytes) and ${what}[${b.i}] (${ranges[b.i].address}, ${ranges[b.i].size} bytes) overlap`,
      );
    }
    if (!reach || b.hi > reach.hi) reach = b;
  }
  return total;
}

/** Every blob the manifest names, with the size it must have. */
export function blobSizes(m: Manifest): Map<BlobHash, number> {
  const sizes = new Map<BlobHash, number>();
  const need = (hash: BlobHash | null, size: number, where: string): void => {
    if (hash === null) return;
    const had = sizes.get(hash);
    if (had !== undefined && had !== size)
      throw new CaptureError('blob-size-mismatch', `${where}: blob ${hash} is named with sizes ${had} and ${size}`);
    sizes.set(hash, size);
  };
  if (m.dispatch.kind === 'pm4') need(m.dispatch.blob, m.dispatch.size, 'dispatch');
  m.memory.forEach((r, i) => need(r.blob, r.size, `memory[${i}]`));
  if (!isUnavailable(m.expected)) m.expected.memory.forEach((r, i) => need(r.blob, r.size, `expected.memory[${i}]`));
  return sizes;
}
