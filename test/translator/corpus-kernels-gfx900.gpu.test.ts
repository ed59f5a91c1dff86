// The compiled corpus on the GPU, target gfx900: the rule and why one file a target in corpus-kernels-on-gpu.ts.
import { describeCorpusKernelsOnGpu } from './corpus-kernels-on-gpu.ts';

describeCorpusKernelsOnGpu('gfx900');
