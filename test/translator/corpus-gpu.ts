/**
 * The compiled corpus kernels (test/corpus-kernels) replayed through the translator on a device:
 * each wrapped kernel × target built into a capture in memory exactly as the interpreter's test
 * builds it, then `replayOnGpu`. Shared by the GPU test and the script that writes the table of
 * the translator's refusals (print-gpu-outcomes.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCapture, readCapture, writeCapture } from '../../src/host/capture/index.ts';
import type { ReplayOutcome } from '../../src/interp/replay.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import { replayOnGpu } from '../../src/translator/gpu-replay.ts';
import type { Spec } from '../corpus-kernels/common.ts';

const CODE = join(import.meta.dirname, '..', 'corpus-kernels', 'code');

/** Builds the spec's capture (written and read back, as the interpreter's test does) and replays it on `device`. */
export async function replaySpecOnGpu(spec: Spec, device: GPUDevice): Promise<ReplayOutcome> {
  const built = await buildCapture(spec, { readFile: (p: string) => readFileSync(join(CODE, p)) });
  const capture = await readCapture(await writeCapture(built.manifest, built.blobs));
  return replayOnGpu(capture, device, { vector: await loadVectorBridge() });
}

/** An outcome as one line (outcome-line.ts, shared with the Chromium replay page). */
export { outcomeLine } from './outcome-line.ts';
