/** Every wrapped corpus kernel, in the order the test runs them. */
import type { CorpusKernel } from './common.ts';
import * as atomics from './llvm-atomics.ts';
import * as ifElse from './llvm-divergent-if-else.ts';
import * as loopBreak from './llvm-loop-break.ts';
import * as byteShuffle from './llvm-byte-shuffle.ts';
import * as dotInsts from './llvm-dot-insts.ts';
import * as permB32 from './llvm-perm-b32.ts';
import * as sBufferLoadDivergent from './llvm-s-buffer-load-divergent.ts';
import * as smemOffsets from './llvm-smem-offsets.ts';
import * as tbufferFormats from './llvm-tbuffer-formats.ts';
import * as tbufferFormatsD16 from './llvm-tbuffer-formats-d16.ts';
import * as waterfallBuffer from './llvm-waterfall-buffer.ts';
import * as waveScanDpp from './llvm-wave-scan-dpp.ts';
import * as imageGetresinfo from './llvm-image-getresinfo.ts';
import * as sBufferLoadThenSample from './llvm-s-buffer-load-descriptor-then-sample.ts';
import * as samplerConst from './llvm-sampler-const.ts';
import * as waterfallImageLoad from './llvm-waterfall-image-load.ts';
import * as waterfallImageSample from './llvm-waterfall-image-sample.ts';
import * as atomicUniform from './radv-atomic-add-uniform.ts';
import * as ifLoop from './radv-divergent-if-loop.ts';
import * as loops from './radv-divergent-loops.ts';
import * as prefixSum from './radv-lds-prefix-sum.ts';
import * as bufferReference from './radv-buffer-reference.ts';
import * as floatMath from './radv-float-math.ts';
import * as intMath from './radv-int-math.ts';
import * as nonuniformSsbo from './radv-nonuniform-ssbo.ts';
import * as nonuniformUbo from './radv-nonuniform-ubo.ts';
import * as subgroupAdd from './radv-subgroup-add.ts';
import * as subgroupOps from './radv-subgroup-ops.ts';
import * as texelBufferFormats from './radv-texel-buffer-formats.ts';
import * as gather4AndResinfo from './radv-gather4-and-resinfo.ts';
import * as imageFormatsSample from './radv-image-formats-sample.ts';
import * as immutableSampler from './radv-immutable-sampler.ts';
import * as nonuniformSamplerAndTexture from './radv-nonuniform-sampler-and-texture.ts';
import * as nonuniformTextureSample from './radv-nonuniform-texture-sample.ts';
import * as shadowCompare from './radv-shadow-compare.ts';

export const KERNELS: readonly CorpusKernel[] = [
  atomicUniform.kernel,
  ifLoop.kernel,
  prefixSum.kernel,
  loops.kernel,
  bufferReference.kernel,
  floatMath.kernel,
  intMath.kernel,
  nonuniformSsbo.kernel,
  nonuniformUbo.kernel,
  subgroupAdd.kernel,
  subgroupOps.kernel,
  texelBufferFormats.kernel,
  gather4AndResinfo.kernel,
  imageFormatsSample.kernel,
  immutableSampler.kernel,
  immutableSampler.white,
  nonuniformSamplerAndTexture.kernel,
  nonuniformTextureSample.kernel,
  shadowCompare.kernel,
  shadowCompare.immutable,
  ifElse.kernel,
  loopBreak.kernel,
  atomics.uniform,
  atomics.divergentDpp,
  atomics.divergentIterative,
  atomics.waveReduceUmax,
  byteShuffle.kernel,
  dotInsts.kernel,
  permB32.kernel,
  sBufferLoadDivergent.divergentOffset,
  sBufferLoadDivergent.divergentRsrc,
  smemOffsets.kernel,
  tbufferFormats.kernel,
  tbufferFormatsD16.kernel,
  waterfallBuffer.load,
  waterfallBuffer.soffset,
  waveScanDpp.kernel,
  imageGetresinfo.kernel,
  sBufferLoadThenSample.kernel,
  samplerConst.main,
  samplerConst.main2,
  waterfallImageLoad.kernel,
  waterfallImageSample.kernel,
];
