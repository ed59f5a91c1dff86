/**
 * Replaying a capture on the reference interpreter (D009): memory from its ranges, the
 * dispatch from its registers or PM4 stream, every group run, then memory compared with the
 * expectation. The outcome is one of four, which the `replay` command maps to its exit code.
 */
import type { Capture } from '../host/capture/container.ts';
import { isUnavailable } from '../host/capture/manifest.ts';
import { Pm4Error } from '../host/pm4/command-processor.ts';
import { UnknownProcessorError } from '../isa/gen.ts';
import { SemanticsRefusal } from '../semantics/context.ts';
import { compareWithExpected, type CompareResult } from './compare.ts';
import { InvalidDispatch, runSetup, setupFromCapture, type RunResult } from './dispatch.ts';
import { InterpRefusal, type ExecOptions } from './execute.ts';
import { GuestFault, GuestMemory } from './memory.ts';

export type ReplayOutcome =
  | { readonly kind: 'match'; readonly run: RunResult; readonly compare: CompareResult; readonly memory?: GuestMemory }
  | {
      readonly kind: 'mismatch';
      readonly run: RunResult;
      readonly compare: CompareResult;
      readonly memory?: GuestMemory;
    }
  | { readonly kind: 'refused'; readonly reason: string; readonly error: Error }
  | { readonly kind: 'invalid'; readonly reason: string };

export const EXIT_CODES: Readonly<Record<ReplayOutcome['kind'], number>> = {
  match: 0,
  mismatch: 1,
  refused: 2,
  invalid: 3,
};

export function replayCapture(capture: Pick<Capture, 'manifest' | 'blob'>, options: ExecOptions = {}): ReplayOutcome {
  const m = capture.manifest;
  if (m.redacted)
    return { kind: 'invalid', reason: 'the capture is redacted: its guest data was removed, so it cannot be replayed' };
  if (isUnavailable(m.expected))
    return {
      kind: 'refused',
      reason: `the capture has no expected result to compare with (${m.expected.unavailable})`,
      error: new Error(m.expected.unavailable),
    };
  let run: RunResult;
  let memory: GuestMemory;
  try {
    memory = GuestMemory.fromCapture(capture);
    const setup = setupFromCapture(capture, memory);
    run = runSetup(setup, memory, options);
  } catch (e) {
    if (e instanceof InterpRefusal || e instanceof SemanticsRefusal)
      return { kind: 'refused', reason: e.message, error: e };
    if (e instanceof GuestFault)
      return {
        kind: 'refused',
        reason: `${e.message} (the capture does not hold what the dispatch accessed; nothing is guessed)`,
        error: e,
      };
    if (e instanceof InvalidDispatch || e instanceof Pm4Error || e instanceof UnknownProcessorError)
      return { kind: 'invalid', reason: e.message };
    throw e;
  }
  const compare = compareWithExpected(capture, memory, run.lastWave);
  return { kind: compare.match ? 'match' : 'mismatch', run, compare, memory };
}
