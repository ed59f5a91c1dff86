/**
 * `gcn-webgpu trace FILE.gcncap|FILE.bin [--mcpu NAME] [--wave64] [--entry N] [--end N]
 * [--user-sgprs N] [--json] [--brief]`: every image and buffer access of a program with the
 * provenance of each descriptor register (src/tracer, D012). A capture gives the target, the
 * code, the user-data words and the dispatch's layout of SGPRs and VGPRs; raw code needs --mcpu,
 * and its first --user-sgprs SGPRs (16) are taken as user data. Exit 0: every access traced
 * (bound or selected); 2: some access untraced, or control flow the tracer does not follow (each
 * named with its address); 3: invalid input or usage.
 */
import { readFileSync } from 'node:fs';
import { flagString, parseArgs, UsageError } from './args.ts';
import type { Io } from './isa-commands.ts';
import { CaptureError, readCapture } from '../host/capture/index.ts';
import { Pm4Error } from '../host/pm4/command-processor.ts';
import { targetFor, type Target } from '../isa/gen.ts';
import { InvalidDispatch, setupFromCapture } from '../interp/dispatch.ts';
import { GuestFault, GuestMemory } from '../interp/memory.ts';
import { assumedEntry, entryFromSetup, type EntryState } from '../tracer/entry.ts';
import { traceJson, traceText } from '../tracer/format.ts';
import { traceProgram, type TraceResult } from '../tracer/trace.ts';

const USAGE = `usage: gcn-webgpu trace FILE.gcncap [--json] [--brief]
       gcn-webgpu trace FILE.bin --mcpu NAME [--wave64] [--entry N] [--end N] [--user-sgprs N] [--json] [--brief]
  every image and buffer access with the provenance of its descriptor registers
  --entry/--end  byte offsets of the function's entry and of where it returns (raw code)
  --user-sgprs   how many SGPRs hold user data at entry (raw code; default 16)
  --brief        each register's provenance without its chain of steps
  exit 0 every access traced, 2 some access untraced (named), 3 invalid input
`;

function integerFlag(value: string | undefined, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || n > max)
    throw new UsageError(`--${name} must be an integer from 0 to ${max}, not '${value}'`);
  return n;
}

interface Loaded {
  readonly target: Target;
  readonly code: Uint8Array;
  readonly entry: number | undefined;
  readonly end: number | undefined;
  readonly entryState: EntryState;
}

async function loadCapture(file: string, bytes: Uint8Array, mcpu: string | undefined): Promise<Loaded> {
  const capture = await readCapture(bytes);
  const memory = GuestMemory.fromCapture(capture);
  const setup = setupFromCapture(capture, memory);
  if (mcpu !== undefined && mcpu !== setup.target.cpu)
    throw new UsageError(`${file} is a capture for ${setup.target.cpu}; --mcpu ${mcpu} does not apply`);
  const range = memory.rangeAt(setup.programAddress);
  const end = setup.kind === 'program' && setup.end !== undefined ? setup.end - range.address : undefined;
  return {
    target: setup.target,
    code: range.bytes,
    entry: setup.programAddress - range.address,
    end,
    entryState: entryFromSetup(setup, range.address),
  };
}

export async function traceCommand(argv: readonly string[], io: Io): Promise<number> {
  let file = '';
  let json = false;
  try {
    const args = parseArgs(argv, {
      valued: ['mcpu', 'entry', 'end', 'user-sgprs'],
      boolean: ['json', 'wave64', 'brief', 'help'],
    });
    if (args.flags.has('help')) {
      io.stdout(USAGE);
      return 0;
    }
    json = args.flags.has('json');
    const [f, ...extra] = args.positional;
    if (!f) throw new UsageError('trace needs a FILE.gcncap or FILE.bin');
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    file = f;
    const bytes = new Uint8Array(readFileSync(file));
    const mcpu = flagString(args, 'mcpu');
    const isCapture = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b; // a zip (D005)
    let loaded: Loaded;
    if (isCapture) {
      for (const flag of ['entry', 'end', 'user-sgprs', 'wave64'])
        if (args.flags.has(flag)) throw new UsageError(`--${flag} is for raw code; a capture says it`);
      loaded = await loadCapture(file, bytes, mcpu);
    } else {
      if (!mcpu) throw new UsageError('raw code needs --mcpu NAME (e.g. --mcpu gfx1030)');
      const target = targetFor(mcpu, args.flags.has('wave64'));
      const userSgprs = integerFlag(flagString(args, 'user-sgprs'), 'user-sgprs', 16) ?? 16;
      loaded = {
        target,
        code: bytes,
        entry: integerFlag(flagString(args, 'entry'), 'entry', bytes.length),
        end: integerFlag(flagString(args, 'end'), 'end', bytes.length),
        entryState: assumedEntry(userSgprs),
      };
    }
    const result: TraceResult = traceProgram(loaded.target, loaded.code, {
      ...(loaded.entry === undefined ? {} : { entry: loaded.entry }),
      ...(loaded.end === undefined ? {} : { end: loaded.end }),
      entryState: loaded.entryState,
    });
    io.stdout(
      json
        ? `${JSON.stringify({ file, ...(traceJson(result) as object) }, null, 2)}\n`
        : `${file}: ${loaded.target.cpu}${loaded.target.wave64 ? ' wave64' : ''}\n${traceText(result, !args.flags.has('brief'))}`,
    );
    const untraced = result.accesses.some((a) => a.classification === 'untraced') || result.refusals.length > 0;
    return untraced ? 2 : 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`gcn-webgpu trace: ${e.message}\n${USAGE}`);
      return 3;
    }
    if (
      e instanceof CaptureError ||
      e instanceof InvalidDispatch ||
      e instanceof Pm4Error ||
      e instanceof GuestFault ||
      (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string')
    ) {
      if (json) io.stdout(`${JSON.stringify({ file, result: 'invalid', reason: e.message }, null, 2)}\n`);
      else io.stderr(`gcn-webgpu trace: ${e.message}\n`);
      return 3;
    }
    throw e;
  }
}
