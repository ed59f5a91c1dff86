/**
 * What the translator benchmark (bench/translator.ts) loads, bundled by esbuild as
 * bench/interp-entry.ts is (tsx's transform wraps every function in a naming helper, which
 * would be timed with the translator): the capture builder and reader, the translator's
 * entry points (`translateCapture`, `runTranslation`, `replayOnGpu`), what checks a run's
 * memory, the vector ALU bridge built from the statically imported semantics, and the corpus
 * kernels with their spec helpers and references.
 */
import * as vector from '../src/semantics/vector.ts';
import { fromModule, type VectorBridge } from '../src/interp/vector-bridge.ts';

export { buildCapture, readCapture, writeCapture } from '../src/host/capture/index.ts';
export { compareWithExpected } from '../src/interp/compare.ts';
export { groupsTogether, replayOnGpu, runTranslation, translateCapture } from '../src/translator/gpu-replay.ts';
export { deviceFault, memoryAfter } from '../src/translator/memory-layout.ts';
export { radvSpec, RADV_BINDING, rng, storageBuffer, u32 } from '../test/corpus-kernels/common.ts';
export { KERNELS } from '../test/corpus-kernels/kernels.ts';
export { TARGETS } from '../test/corpus-kernels/targets.ts';
export { reference as divergentLoopsReference } from '../test/corpus-kernels/radv-divergent-loops.ts';
export { reference as prefixSumReference } from '../test/corpus-kernels/radv-lds-prefix-sum.ts';
export { reference as intMathReference } from '../test/corpus-kernels/radv-int-math.ts';

export function vectorBridge(): VectorBridge | undefined {
  return fromModule(vector);
}
