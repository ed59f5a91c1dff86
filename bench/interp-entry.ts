/**
 * What the interpreter benchmark loads: the assembler, the dispatch runner and the vector ALU
 * bridge, bundled by bench/run.ts with esbuild as for bench/isa-entry.ts (tsx's transform wraps
 * every function in a naming helper). The bridge is built from the statically imported
 * semantics, as `loadVectorBridge` builds it from the modules it imports by URL.
 */
import * as vector from '../src/semantics/vector.ts';
import { laneEncodingRefusal } from '../src/semantics/lane-context.ts';
import { fromModule, type VectorBridge } from '../src/interp/vector-bridge.ts';

export { assembleProgram } from '../src/isa/asm.ts';
export { targetFor } from '../src/isa/gen.ts';
export { encodeBufferDescriptor } from '../src/host/descriptors/index.ts';
export { runSetup } from '../src/interp/dispatch.ts';
export { GuestMemory } from '../src/interp/memory.ts';

export function vectorBridge(): VectorBridge | undefined {
  return fromModule({ ...vector, laneEncodingRefusal });
}
