/**
 * Shared pieces of the corpus-kernel harness: a seeded generator, the spec layouts of the
 * two conventions (RADV's user SGPRs and fixed set layout; amdpal inreg / amdhsa kernargs),
 * and building + replaying a capture in memory on the reference interpreter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCapture, readCapture, writeCapture } from '../../src/host/capture/index.ts';
import { replayCapture, type ReplayOutcome } from '../../src/interp/replay.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import type { Target } from './targets.ts';

/** What a capture spec holds (docs/capture-spec.md), as plain JSON. */
export type Json = number | string | boolean | null | readonly Json[] | { readonly [key: string]: Json };
export type Spec = Record<string, Json>;

/** mulberry32: a small deterministic u32 generator. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

export const u32 = (values: ArrayLike<number>): Json => ({ type: 'u32', values: Array.from(values, (v) => v >>> 0) });

export function code(file: string): Json {
  return { file };
}

function readCode(path: string): Uint8Array {
  return readFileSync(join(import.meta.dirname, 'code', path));
}

/** A raw storage-buffer V# as RADV writes it (offen addressing, stride 0, num_records in bytes). */
export function storageBuffer(t: Target, region: string, bytes: number): Json {
  const sel = { dst_sel_x: 'x', dst_sel_y: 'y', dst_sel_z: 'z', dst_sel_w: 'w' };
  if (t.mcpu === 'gfx1030')
    return { buffer: { address: region, num_records: bytes, ...sel, format: 22, oob_select: 3, resource_level: 1 } };
  return { buffer: { address: region, num_records: bytes, ...sel, data_format: 4, num_format: 7 } };
}

/** RADV's fixed set layout (vkcomp.c): byte offsets of the bindings in set 0. */
export const RADV_BINDING = { b2: 0x410, b3: 0x420 } as const;

/**
 * A RADV compute dispatch. User SGPRs (the ACO p_startpgm): s[0:1] scratch ring (unused, 0),
 * s2 the low half of set 0's address, then the push constants inline; the group's x id
 * follows. The set's high half is baked into the code: 0 on gfx7/8, 0xffff8000 on gfx9+.
 */
export function radvSpec(
  t: Target,
  kernel: string,
  o: {
    readonly set: readonly { readonly offset: number; readonly descriptor: Json }[];
    readonly push?: readonly number[];
    readonly grid?: number;
    readonly group: number;
    readonly ldsBytes?: number;
    readonly memory: readonly Json[];
    readonly expected: readonly Json[];
  },
): Spec {
  const setLo = 0x00200000;
  const setAddress = (t.mcpu === 'gfx704' || t.mcpu === 'gfx803' ? 0 : 0x8000 * 2 ** 32) + setLo;
  const table: Json[] = [];
  let at = 0;
  for (const e of [...o.set].sort((a, b) => a.offset - b.offset)) {
    if (e.offset < at) throw new Error(`set 0 entry at 0x${e.offset.toString(16)} overlaps the one before it`);
    if (e.offset > at) table.push({ zeros: e.offset - at });
    table.push(e.descriptor);
    // A T# is 8 dwords, a V# or S# 4.
    const isImage = typeof e.descriptor === 'object' && e.descriptor !== null && 'image' in e.descriptor;
    at = e.offset + (isImage ? 32 : 16);
  }
  return {
    target: t.mcpu,
    wave64: t.wave64,
    program: { file: `radv_${t.name}_${kernel}.bin` },
    registers: {
      vgprs: 64,
      sgprs: 104,
      rsrc2: { tgid_x_en: 1, lds_size: Math.ceil((o.ldsBytes ?? 0) / 512) },
    },
    user_data: [0, 0, setLo, ...(o.push ?? [])],
    grid: [o.grid ?? 1],
    thread_group: [o.group],
    memory: [{ name: 'set0', address: setAddress, data: { descriptors: table } }, ...o.memory],
    expected: { source: { kind: 'tool', tool: 'test/corpus-kernels', revision: kernel }, memory: [...o.expected] },
  };
}

/** An llc amdpal `amdgpu_cs` kernel: the inreg V# in s[0:3], the thread id in v0. */
export function amdpalSpec(
  t: Target,
  kernel: string,
  o: {
    readonly userData: readonly Json[];
    readonly group: number;
    readonly memory: readonly Json[];
    readonly expected: readonly Json[];
  },
): Spec {
  return {
    target: t.mcpu,
    wave64: t.wave64,
    program: { file: `llvm_${t.name}_${kernel}.bin` },
    registers: { vgprs: 64, sgprs: 104 },
    user_data: [...o.userData],
    thread_group: [o.group],
    memory: [...o.memory],
    expected: { source: { kind: 'tool', tool: 'test/corpus-kernels', revision: kernel }, memory: [...o.expected] },
  };
}

/**
 * An llc amdhsa kernel (.amdhsa_user_sgpr_count 10): s[0:3] private segment buffer, s[4:5]
 * dispatch ptr, s[6:7] kernarg segment ptr, s[8:9] dispatch id; v0..v2 the work-item ids.
 * The kernarg segment is a region named `kernarg`.
 */
export function amdhsaSpec(
  t: Target,
  kernel: string,
  o: {
    readonly kernarg: Json;
    readonly group: number;
    readonly memory: readonly Json[];
    readonly expected: readonly Json[];
  },
): Spec {
  return {
    target: t.mcpu,
    wave64: t.wave64,
    program: { file: `llvm_${t.name}_${kernel}.bin` },
    registers: { vgprs: 64, sgprs: 104, rsrc2: { tidig_comp_cnt: 2 } },
    user_data: [0, 0, 0, 0, 0, 0, { pointer: 'kernarg' }, 0, 0],
    thread_group: [o.group],
    memory: [{ name: 'kernarg', address: 0x50000000, data: o.kernarg, size: 288 }, ...o.memory],
    expected: { source: { kind: 'tool', tool: 'test/corpus-kernels', revision: kernel }, memory: [...o.expected] },
  };
}

/** Builds the spec's capture, writes and reads it back, and replays it on the interpreter. */
export async function replaySpec(spec: Spec): Promise<ReplayOutcome> {
  const built = await buildCapture(spec, { readFile: readCode });
  const capture = await readCapture(await writeCapture(built.manifest, built.blobs));
  return replayCapture(capture, { vector: await loadVectorBridge() });
}

/** One kernel module: its reference and its spec for a target (undefined where the corpus has no build). */
export interface CorpusKernel {
  readonly id: string;
  spec(t: Target): Spec | undefined;
}
