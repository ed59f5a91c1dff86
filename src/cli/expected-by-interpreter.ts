/**
 * The expected result a capture gets from the reference interpreter (issue 4): the dispatch is
 * run on src/interp, the bytes it wrote are read back, and the capture comes out with an
 * explicit expectation whose source is `{kind: tool, tool: 'gcn-webgpu interp', revision}`.
 *
 * This is where the host's capture builder and the interpreter meet: the builder
 * (src/host/capture/build.ts) never imports the interpreter, it only leaves the marker
 * `{unavailable, requested: 'interpreter'}` (with `interpreterFollows`); `capture build` and
 * `replay --write-expected` call this module. A refusal is never written as an expectation.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  hexAddress,
  isUnavailable,
  parseAddress,
  sha256Hex,
  type BlobHash,
  type BuiltCapture,
  type Capture,
  type Compare,
  type ExpectedRange,
  type Manifest,
  type MemoryRange,
} from '../host/capture/index.ts';
import { Pm4Error } from '../host/pm4/command-processor.ts';
import { UnknownProcessorError } from '../isa/gen.ts';
import { SemanticsRefusal } from '../semantics/context.ts';
import { InvalidDispatch, runSetup, setupFromCapture, type RunResult } from '../interp/dispatch.ts';
import { InterpRefusal, type ExecOptions } from '../interp/execute.ts';
import { GuestFault, GuestMemory } from '../interp/memory.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';

export const INTERP_TOOL = 'gcn-webgpu interp';

/** What a capture's bytes are read through. */
export type CaptureLike = Pick<Capture, 'manifest' | 'blob' | 'blobs'>;

export type ExpectedOutcome =
  | {
      readonly kind: 'written';
      readonly manifest: Manifest;
      readonly blobs: ReadonlyMap<BlobHash, Uint8Array>;
      readonly run: RunResult;
    }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly reason: string };

/** A refusal recorded as such (`capture build --allow-unavailable`): the capture claims no expectation. */
export interface UnavailableOutcome {
  readonly kind: 'unavailable';
  readonly reason: string;
  readonly manifest: Manifest;
  readonly blobs: ReadonlyMap<BlobHash, Uint8Array>;
}

export interface ExpectedOptions extends ExecOptions {
  /** How each written range is compared (default exact); a function picks per range. */
  readonly compare?: Compare | ((address: number, size: number) => Compare);
  /** The interpreter's revision as recorded (default `interpreterRevision()`). */
  readonly revision?: string;
}

let revisionMemo: string | undefined;

/** The package version, and `git describe` of the checkout where there is one ("0.1.0 (git 1a2b3c4)"). */
export function interpreterRevision(): string {
  if (revisionMemo !== undefined) return revisionMemo;
  const root = fileURLToPath(new URL('../../', import.meta.url));
  let version = 'unknown';
  try {
    version = String((JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version?: unknown }).version);
  } catch {
    // no package.json beside the sources: the version stays unknown
  }
  let describe = '';
  try {
    describe = execFileSync('git', ['describe', '--always', '--tags'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
  } catch {
    // not a git checkout, or no git: the package version alone
  }
  revisionMemo = describe ? `${version} (git ${describe})` : version;
  return revisionMemo;
}

/** Runs the capture's dispatch on the interpreter; its written bytes become the expected result of a copy. */
export async function expectedByInterpreter(
  capture: CaptureLike,
  options: ExpectedOptions = {},
): Promise<ExpectedOutcome> {
  const m = capture.manifest;
  if (m.redacted)
    return { kind: 'invalid', reason: 'the capture is redacted: its guest data was removed, so it cannot be run' };
  const vector = options.vector ?? (await loadVectorBridge());
  let run: RunResult;
  let memory: GuestMemory;
  try {
    memory = GuestMemory.fromCapture(capture);
    run = runSetup(setupFromCapture(capture, memory), memory, { ...options, vector });
  } catch (e) {
    if (e instanceof InterpRefusal || e instanceof SemanticsRefusal) return { kind: 'refused', reason: e.message };
    if (e instanceof GuestFault)
      return {
        kind: 'refused',
        reason: `${e.message} (the capture does not hold what the dispatch accessed; nothing is guessed)`,
      };
    if (e instanceof InvalidDispatch || e instanceof Pm4Error || e instanceof UnknownProcessorError)
      return { kind: 'invalid', reason: e.message };
    throw e;
  }
  const blobs = new Map(capture.blobs);
  const ranges: ExpectedRange[] = [];
  const writtenAt = new Set<number>();
  for (const w of memory.writtenRanges()) {
    writtenAt.add(w.range);
    const size = w.to - w.from;
    const bytes = memory.peek(w.from, size);
    if (!bytes) throw new Error(`written bytes at ${hexAddress(w.from)} cannot be read back`);
    const copy = bytes.slice();
    const blob = await sha256Hex(copy);
    blobs.set(blob, copy);
    const c = options.compare;
    ranges.push({
      address: hexAddress(w.from),
      size,
      blob,
      compare: typeof c === 'function' ? c(w.from, size) : (c ?? { kind: 'exact' }),
    });
  }
  ranges.sort((a, b) => Number(parseAddress(a.address) - parseAddress(b.address)));
  const memoryRanges: MemoryRange[] = m.memory.map((r) =>
    writtenAt.has(Number(parseAddress(r.address))) ? { ...r, access: 'written' } : r,
  );
  const manifest: Manifest = {
    ...m,
    memory: memoryRanges,
    expected: {
      source: { kind: 'tool', tool: INTERP_TOOL, revision: options.revision ?? interpreterRevision() },
      memory: ranges,
    },
  };
  return { kind: 'written', manifest, blobs, run };
}

/** True where a built capture carries the marker of a spec that asked `expected: {compute: interpreter}`. */
export function asksInterpreter(built: BuiltCapture): boolean {
  const e = built.manifest.expected;
  return isUnavailable(e) && e.requested === 'interpreter' && built.interpreterCompare !== undefined;
}

/** A built capture as a readable one (its blobs by hash). */
export function builtAsCapture(built: BuiltCapture): CaptureLike {
  return {
    manifest: built.manifest,
    blobs: built.blobs,
    blob: (h) => {
      const b = built.blobs.get(h);
      if (!b) throw new Error(`the built capture holds no blob ${h}`);
      return b;
    },
  };
}

/**
 * `capture build` for a spec asking `{compute: interpreter}`: the built capture with the
 * interpreter's result, compared as the spec said. With `allowUnavailable`, a refusal is
 * recorded as `{unavailable: 'interpreter refused: …', requested: 'interpreter'}` instead.
 */
export async function completeBuilt(
  built: BuiltCapture,
  options: ExpectedOptions & { readonly allowUnavailable?: boolean } = {},
): Promise<ExpectedOutcome | UnavailableOutcome> {
  const o = await expectedByInterpreter(builtAsCapture(built), { compare: built.interpreterCompare, ...options });
  if (o.kind !== 'refused' || !options.allowUnavailable) return o;
  return {
    kind: 'unavailable',
    reason: o.reason,
    manifest: {
      ...built.manifest,
      expected: { unavailable: `interpreter refused: ${o.reason}`, requested: 'interpreter' },
    },
    blobs: built.blobs,
  };
}

/**
 * `replay --write-expected`: the capture's copy with the interpreter's result as its
 * expectation. A written range keeps the tolerance of an old expected range it overlaps
 * (where its size is a whole number of that range's elements); otherwise it is exact.
 */
export async function rewriteExpected(capture: CaptureLike, options: ExecOptions = {}): Promise<ExpectedOutcome> {
  const old = capture.manifest.expected;
  const compare = (address: number, size: number): Compare => {
    if (isUnavailable(old)) return { kind: 'exact' };
    for (const r of old.memory) {
      const a = Number(parseAddress(r.address));
      if (r.compare.kind === 'exact' || a >= address + size || a + r.size <= address) continue;
      const bytes = r.compare.element === 'f16' ? 2 : r.compare.element === 'f32' ? 4 : 8;
      if (size % bytes === 0) return r.compare;
    }
    return { kind: 'exact' };
  };
  return expectedByInterpreter(capture, { ...options, compare });
}
