/**
 * What the decoder benchmark loads: the instruction layer as the app ships it. bench/run.ts
 * bundles this file with esbuild (as Vite's production build does) instead of running the
 * sources through tsx, whose transform wraps every function in a naming helper and so
 * measures a cost the shipped code does not have.
 *
 * The timed loops live here too, so that each bundle (the working tree's, and with
 * BENCH_ISA_BASE another tree's) has its own copy: one loop calling two decoders would
 * share its call sites' type feedback between them and slow both.
 */
import { decodeAt } from '../src/isa/decoder.ts';
import { printInstruction } from '../src/isa/disasm.ts';
import { DecodeError } from '../src/isa/errors.ts';
import type { Target } from '../src/isa/gen.ts';

export { decodeAt } from '../src/isa/decoder.ts';
export { hexToBytes, printInstruction } from '../src/isa/disasm.ts';
export { DecodeError } from '../src/isa/errors.ts';
export { targetFor } from '../src/isa/gen.ts';

export interface LoopTiming {
  readonly count: number;
  readonly errors: number;
  readonly ms: number;
  readonly cpuMs: number;
  /** Sizes (or text lengths) summed, so no result is dead code. */
  readonly sink: number;
}

/** Decodes the first `limit` dwords one instruction after another (a DecodeError skips one dword). */
export function timeDecode(target: Target, words: Uint32Array, limit: number): LoopTiming {
  let at = 0;
  let count = 0;
  let errors = 0;
  let sink = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  while (at < limit) {
    try {
      const inst = decodeAt(target, words, at);
      at += inst.size >>> 2;
      sink += inst.size;
      count++;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      errors++;
      at++;
    }
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { count, errors, ms, cpuMs: (cpu.user + cpu.system) / 1000, sink };
}

/** As timeDecode, printing each instruction too. */
export function timeDecodePrint(target: Target, words: Uint32Array, limit: number): LoopTiming {
  let at = 0;
  let count = 0;
  let errors = 0;
  let sink = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  while (at < limit) {
    try {
      const inst = decodeAt(target, words, at);
      sink += printInstruction(target, inst).length;
      at += inst.size >>> 2;
      count++;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      errors++;
      at++;
    }
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { count, errors, ms, cpuMs: (cpu.user + cpu.system) / 1000, sink };
}
