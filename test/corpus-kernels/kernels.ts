/** Every wrapped corpus kernel, in the order the test runs them. */
import type { CorpusKernel } from './common.ts';
import * as atomics from './llvm-atomics.ts';
import * as ifElse from './llvm-divergent-if-else.ts';
import * as loopBreak from './llvm-loop-break.ts';
import * as atomicUniform from './radv-atomic-add-uniform.ts';
import * as ifLoop from './radv-divergent-if-loop.ts';
import * as loops from './radv-divergent-loops.ts';
import * as prefixSum from './radv-lds-prefix-sum.ts';

export const KERNELS: readonly CorpusKernel[] = [
  atomicUniform.kernel,
  ifLoop.kernel,
  prefixSum.kernel,
  loops.kernel,
  ifElse.kernel,
  loopBreak.kernel,
  atomics.uniform,
  atomics.divergentDpp,
  atomics.divergentIterative,
  atomics.waveReduceUmax,
];
