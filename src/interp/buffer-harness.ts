/**
 * Test harness for the interpreter's memory tests (buffer, LDS, FLAT): assembles a program,
 * maps it with the given ranges, and runs one dispatch with the vector ALU bridge loaded.
 */
import { assembleProgram } from '../isa/asm.ts';
import { targetFor, type Gen } from '../isa/gen.ts';
import { encodeBufferDescriptor, type BufferFieldName } from '../host/descriptors/index.ts';
import { runSetup, type RunResult } from './dispatch.ts';
import { GuestMemory, type RangeInit } from './memory.ts';
import type { VectorBridge } from './vector-bridge.ts';

export const CODE = 0x10000000;
export const DATA = 0x30000000;

export interface HarnessRun {
  readonly cpu: string;
  readonly wave64?: boolean;
  readonly asm: string;
  readonly userData?: readonly number[];
  readonly ranges?: readonly RangeInit[];
  readonly threads?: number;
  /** LDS_SIZE in 512-byte granules (RSRC2[23:15]). */
  readonly ldsGranules?: number;
  /** COMPUTE_PGM_RSRC1 / RSRC3, where a test needs them (MODE, VGPR counts, shared VGPRs). */
  readonly rsrc1?: number;
  readonly rsrc3?: number;
  readonly vector?: VectorBridge;
}

export function runKernel(s: HarnessRun): { result: RunResult; memory: GuestMemory } {
  const target = targetFor(s.cpu, s.wave64 ?? false);
  const code = assembleProgram(target, s.asm).words;
  const memory = new GuestMemory([{ address: CODE, bytes: new Uint8Array(code.buffer) }, ...(s.ranges ?? [])]);
  const ud = s.userData ?? [];
  const result = runSetup(
    {
      kind: 'dispatch',
      target,
      programAddress: CODE,
      rsrc2: (ud.length << 1) | ((s.ldsGranules ?? 0) << 15),
      ...(s.rsrc1 !== undefined ? { rsrc1: s.rsrc1 } : {}),
      ...(s.rsrc3 !== undefined ? { rsrc3: s.rsrc3 } : {}),
      userData: [...ud, ...new Array<number>(16 - ud.length).fill(0)],
      numThreads: [s.threads ?? (target.wave64 ? 64 : 32), 1, 1],
      grid: [1, 1, 1],
    },
    memory,
    { vector: s.vector },
  );
  return { result, memory };
}

export function vsharp(gen: Gen, fields: Partial<Record<BufferFieldName, number>>): number[] {
  return [...encodeBufferDescriptor(gen, { base_address: DATA, ...fields })];
}

export const bytesOf = (...ws: number[]): Uint8Array => new Uint8Array(Uint32Array.from(ws).buffer);
export const dataRange = (bytes: Uint8Array | number): RangeInit => ({
  address: DATA,
  bytes: typeof bytes === 'number' ? new Uint8Array(bytes) : bytes,
});
export const u32At = (m: GuestMemory, at: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => m.read32(at + 4 * i));
export const f32 = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0];
export const f32bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0];
