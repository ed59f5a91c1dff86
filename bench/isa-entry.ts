/**
 * What the decoder benchmark loads: the instruction layer as the app ships it. bench/run.ts
 * bundles this file with esbuild (as Vite's production build does) instead of running the
 * sources through tsx, whose transform wraps every function in a naming helper and so
 * measures a cost the shipped code does not have.
 */
export { decodeAt } from '../src/isa/decoder.ts';
export { hexToBytes, printInstruction } from '../src/isa/disasm.ts';
export { DecodeError } from '../src/isa/errors.ts';
export { targetFor } from '../src/isa/gen.ts';
