/**
 * What the interpreter benchmark loads, bundled by bench/run.ts with esbuild as for
 * bench/isa-entry.ts (tsx's transform wraps every function in a naming helper): the capture
 * builder and reader, the dispatch runner, the vector ALU bridge built from the statically
 * imported semantics (as `loadVectorBridge` builds it), and the corpus kernels' spec helpers
 * and reference rewrites (test/corpus-kernels), so the benchmark runs a real compiled kernel
 * with inputs it makes itself and checks the outputs.
 */
import * as vector from '../src/semantics/vector.ts';
import { fromModule, type VectorBridge } from '../src/interp/vector-bridge.ts';

export { buildCapture, readCapture, writeCapture } from '../src/host/capture/index.ts';
export { runSetup, setupFromCapture } from '../src/interp/dispatch.ts';
export { GuestMemory } from '../src/interp/memory.ts';
export { radvSpec, RADV_BINDING, rng, storageBuffer, u32 } from '../test/corpus-kernels/common.ts';
export { TARGETS } from '../test/corpus-kernels/targets.ts';
export { reference as divergentLoopsReference } from '../test/corpus-kernels/radv-divergent-loops.ts';
export { reference as prefixSumReference } from '../test/corpus-kernels/radv-lds-prefix-sum.ts';
export { reference as intMathReference } from '../test/corpus-kernels/radv-int-math.ts';

export function vectorBridge(): VectorBridge | undefined {
  return fromModule(vector);
}
