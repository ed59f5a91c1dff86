/**
 * A replay outcome as one line: `match`, `mismatch (N elements; first …)`, `refused: reason`,
 * `invalid: reason`. Kept free of Node's modules so the Chromium replay page
 * (src/ui/replay-page.ts) prints outcomes exactly as the Node GPU tests do (corpus-gpu.ts
 * re-exports it).
 */
import type { ReplayOutcome } from '../../src/interp/replay.ts';

export function outcomeLine(o: ReplayOutcome): string {
  if (o.kind === 'refused' || o.kind === 'invalid') return `${o.kind}: ${o.reason}`;
  if (o.kind === 'mismatch')
    return `mismatch (${o.compare.mismatchCount} elements; first ${JSON.stringify(o.compare.mismatches[0])})`;
  return o.kind;
}
