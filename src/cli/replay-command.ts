/**
 * `gcn-webgpu replay --engine interp FILE.gcncap [--json] [--max-steps N]`: runs a capture on
 * the reference interpreter and compares memory with its expectation (D009). Exit 0: match;
 * 1: mismatch (address, element, expected, got); 2: refusal (the reason: an instruction
 * without semantics, the step limit, memory the capture does not hold); 3: invalid input or usage.
 * `--engine gpu` runs the dispatch translated to WGSL on a WebGPU device (Dawn for Node; D011,
 * src/translator/gpu-replay.ts) with the same outcomes and exit codes; no adapter is a refusal
 * (exit 2) naming why. `--write-expected OUT` (interp only) writes a copy whose expectation is
 * the interpreter's result (src/cli/expected-by-interpreter.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { flagString, parseArgs, UsageError } from './args.ts';
import { CaptureError, readCapture, writeCapture } from '../host/capture/index.ts';
import { rewriteExpected } from './expected-by-interpreter.ts';
import { EXIT_CODES, replayCapture, type ReplayOutcome } from '../interp/replay.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { getNodeGpu, NoGpuAdapterError } from '../host/gpu-node.ts';
import { isUnavailable } from '../host/capture/manifest.ts';
import { replayOnGpu, replayTranslated, SelectedImageEscapeError, translateCapture } from '../translator/gpu-replay.ts';
import type { SelectedSlotReport } from '../translator/selected-images.ts';

export interface ReplayIo {
  stdout(s: string): void;
  stderr(s: string): void;
  stdin(): string;
}

const USAGE = `usage: gcn-webgpu replay [--engine interp|gpu] FILE.gcncap [--json] [--max-steps N]
       gcn-webgpu replay --engine interp --write-expected OUT.gcncap FILE.gcncap [--json]
  runs the capture's dispatch (on the reference interpreter, or translated to WGSL on a
  WebGPU device) and compares memory with its expected result
  exit 0 match, 1 mismatch, 2 refused (with the reason), 3 invalid input
  --write-expected writes a copy whose expected result is what the interpreter wrote
  (exit 0 written, 2 refused: nothing written)
`;

const hexAddr = (a: number): string => `0x${a.toString(16)}`;

/**
 * `--engine gpu --json`: each texture slot of runtime-selected images (D983): its table, the
 * records read, the images bound, the records left out by reason, the directory's size and
 * longest probe, the escapes the module recorded in it (null where the dispatch did not run), and
 * a sampler selected from a table: its records read, samplers bound and left out by reason (D027).
 */
function selectedSlotsJson(slots: readonly SelectedSlotReport[], o: ReplayOutcome): unknown[] {
  const escapes =
    o.kind === 'match' || o.kind === 'mismatch'
      ? slots.map(() => 0)
      : o.kind === 'refused' && o.error instanceof SelectedImageEscapeError
        ? o.error.bySlot
        : undefined;
  return slots.map((s, i) => ({
    slot: s.slot,
    table: s.table,
    table_address: hexAddr(s.tableAddress),
    records_read: s.recordsRead,
    images_bound: s.imagesBound,
    empty_records: s.emptyRecords,
    left_out: s.leftOut,
    directory_slots: s.directorySlots,
    longest_probe: s.longestProbe,
    escapes: escapes?.[i] ?? null,
    sampler: s.sampler
      ? {
          words: s.sampler.words.map(hexAddr),
          traced: s.sampler.traced,
          ...(s.sampler.selectedFrom !== undefined ? { selected_from: s.sampler.selectedFrom } : {}),
        }
      : null,
    // A sampler selected from a table (D027): its records as each access samples them.
    sampler_tables: s.samplerTables.map((t) => ({
      set: t.set,
      table: t.table,
      table_address: hexAddr(t.tableAddress),
      records_read: t.recordsRead,
      samplers_bound: t.samplersBound,
      empty_records: t.emptyRecords,
      left_out: t.leftOut,
      directory_slots: t.directorySlots,
    })),
    accesses: s.accesses.map(hexAddr),
  }));
}

function outcomeJson(file: string, o: ReplayOutcome, engine = 'interp'): unknown {
  switch (o.kind) {
    case 'match':
    case 'mismatch':
      return {
        file,
        engine,
        result: o.kind,
        steps: o.run.steps,
        groups: o.run.groups,
        waves: o.run.waves,
        ranges_compared: o.compare.rangesCompared,
        bytes_compared: o.compare.bytesCompared,
        ranges_not_compared: o.compare.rangesNotCompared,
        mismatch_count: o.compare.mismatchCount,
        mismatches: o.compare.mismatches.map((m) => ({ ...m, address: hexAddr(m.address) })),
      };
    case 'refused':
      return { file, engine, result: 'refused', reason: o.reason };
    case 'invalid':
      return { file, engine, result: 'invalid', reason: o.reason };
  }
}

function outcomeText(file: string, o: ReplayOutcome): string {
  switch (o.kind) {
    case 'match':
      return `${file}: match (${o.compare.rangesCompared} ranges, ${o.compare.bytesCompared} bytes; ${o.run.steps} instructions in ${o.run.waves} waves of ${o.run.groups} groups)${o.compare.rangesNotCompared ? `; ${o.compare.rangesNotCompared} expected ranges unavailable, not compared` : ''}\n`;
    case 'mismatch': {
      const lines = o.compare.mismatches.map(
        (m) =>
          `  ${m.where ?? hexAddr(m.address)} element ${m.element} (${m.type}): expected ${m.expected}, got ${m.got}`,
      );
      return `${file}: mismatch, ${o.compare.mismatchCount} elements differ\n${lines.join('\n')}\n`;
    }
    case 'refused':
      return `${file}: refused: ${o.reason}\n`;
    case 'invalid':
      return `${file}: invalid input: ${o.reason}\n`;
  }
}

export async function replayCommand(argv: readonly string[], io: ReplayIo): Promise<number> {
  let file = '';
  let json = false;
  let engineName = 'interp';
  try {
    const args = parseArgs(argv, { valued: ['engine', 'max-steps', 'write-expected'], boolean: ['json', 'help'] });
    if (args.flags.has('help')) {
      io.stdout(USAGE);
      return 0;
    }
    json = args.flags.has('json');
    const [f, ...extra] = args.positional;
    if (!f) throw new UsageError('replay needs a FILE.gcncap');
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    file = f;
    const engine = flagString(args, 'engine') ?? 'interp';
    const stepsText = flagString(args, 'max-steps');
    const maxSteps = stepsText === undefined ? undefined : Number(stepsText);
    if (maxSteps !== undefined && !(Number.isSafeInteger(maxSteps) && maxSteps > 0))
      throw new UsageError(`--max-steps must be a positive integer, not '${stepsText}'`);
    if (engine !== 'interp' && engine !== 'gpu') throw new UsageError(`unknown engine '${engine}' (interp, gpu)`);
    engineName = engine;
    const writeTo = flagString(args, 'write-expected');
    if (engine === 'gpu' && writeTo !== undefined)
      throw new UsageError("--write-expected writes the interpreter's result: use --engine interp");
    const capture = await readCapture(readFileSync(file));
    const vector = await loadVectorBridge();
    if (engine === 'gpu') {
      let o: ReplayOutcome;
      let gpu: Awaited<ReturnType<typeof getNodeGpu>> | undefined;
      let slots: readonly SelectedSlotReport[] = [];
      try {
        gpu = await getNodeGpu();
        const t = isUnavailable(capture.manifest.expected)
          ? undefined
          : translateCapture(capture, gpu.device, { maxSteps, vector });
        if (t === undefined || 'kind' in t) o = await replayOnGpu(capture, gpu.device, { maxSteps, vector });
        else {
          slots = t.translation.selected?.report ?? [];
          o = await replayTranslated(capture, gpu.device, t);
        }
      } catch (e) {
        if (!(e instanceof NoGpuAdapterError)) throw e;
        o = { kind: 'refused', reason: e.message, error: e };
      } finally {
        gpu?.device.destroy();
      }
      const report = { ...(outcomeJson(file, o, 'gpu') as object), selected_slots: selectedSlotsJson(slots, o) };
      io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : outcomeText(file, o));
      return EXIT_CODES[o.kind];
    }
    if (writeTo !== undefined) {
      if (resolve(writeTo) === resolve(file)) throw new UsageError('--write-expected writes a copy: give another file');
      const w = await rewriteExpected(capture, { maxSteps, vector });
      if (w.kind !== 'written') {
        const o: ReplayOutcome = w.kind === 'refused' ? { ...w, error: new Error(w.reason) } : w;
        io.stdout(json ? `${JSON.stringify(outcomeJson(file, o), null, 2)}\n` : outcomeText(file, o));
        return EXIT_CODES[o.kind];
      }
      writeFileSync(writeTo, await writeCapture(w.manifest, w.blobs));
      const exp = w.manifest.expected;
      const ranges = 'memory' in exp ? exp.memory : [];
      const source = 'source' in exp && exp.source.kind === 'tool' ? exp.source.revision : '';
      const bytes = ranges.reduce((a, r) => a + r.size, 0);
      io.stdout(
        json
          ? `${JSON.stringify({ file, engine: 'interp', result: 'written', output: writeTo, revision: source, steps: w.run.steps, ranges: ranges.length, bytes }, null, 2)}\n`
          : `${writeTo}: expected result from the interpreter (${source}): ${ranges.length} ranges, ${bytes} bytes\n`,
      );
      return 0;
    }
    const o = replayCapture(capture, { maxSteps, vector });
    io.stdout(json ? `${JSON.stringify(outcomeJson(file, o), null, 2)}\n` : outcomeText(file, o));
    return EXIT_CODES[o.kind];
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`gcn-webgpu replay: ${e.message}\n${USAGE}`);
      return 3;
    }
    if (e instanceof CaptureError || (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string')) {
      const reason = e.message;
      if (json) io.stdout(`${JSON.stringify({ file, engine: engineName, result: 'invalid', reason }, null, 2)}\n`);
      else io.stderr(`gcn-webgpu replay: ${reason}\n`);
      return 3;
    }
    throw e;
  }
}
