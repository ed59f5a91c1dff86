/**
 * A `program` capture's `end` on the interpreter (docs/capture-format.md): the wave finishes
 * when its PC reaches it, as at s_endpgm, and the pre-dispatch scan stops there too, so the
 * code after a function (padding, the next function) is neither run nor checked.
 */
import { describe, expect, it } from 'vitest';
import { buildCapture, readCapture, writeCapture } from '../host/capture/index.ts';
import { replayCapture } from './replay.ts';
import { loadVectorBridge } from './vector-bridge.ts';

const lanes = (f: (lane: number) => number) => Array.from({ length: 32 }, (_, l) => f(l));
const EXEC = 0x0000ffff;

/**
 * gfx1030 wave32: v_add_nc_u32 v0, v0, v1 (0x0); s_mov_b32 s0, 7 (0x4); then, past the
 * function, s_trap 2 (0x8, which the interpreter refuses), v_mov_b32 v0, 0 and s_endpgm.
 */
const WORDS = [0x4a000300, 0xbe800387, 0xbf920002, 0x7e000280, 0xbf810000];

async function replay(end: number | undefined, expectedV0: number[]) {
  const built = await buildCapture({
    target: 'gfx1030',
    program: { words: WORDS },
    invocation: {
      ...(end !== undefined ? { end } : {}),
      exec: EXEC,
      vgprs: [lanes((l) => 10 * l), lanes((l) => l)],
    },
    expected: {
      source: { kind: 'tool', tool: 'test', revision: '1' },
      memory: [],
      registers: { vgprs: { 0: expectedV0 }, sgprs: { 0: 7 }, exec: EXEC },
    },
  });
  const capture = await readCapture(await writeCapture(built.manifest, built.blobs));
  return replayCapture(capture, { vector: await loadVectorBridge() });
}

/** v0 + v1 in the lanes EXEC holds, v0 as it was in the others. */
const added = lanes((l) => (l < 16 ? 11 * l : 10 * l));

describe('a program capture with an end', () => {
  it('returns at end: the registers are those of the function, and the code after it is not scanned', async () => {
    const o = await replay(8, added);
    expect(o.kind === 'refused' ? o.reason : o.kind).toBe('match');
    if (o.kind === 'match') expect(o.run.steps).toBe(2);
  });

  it('compares the final registers: a wrong lane is a mismatch naming it', async () => {
    const wrong = [...added];
    wrong[3] ^= 1;
    const o = await replay(8, wrong);
    expect(o.kind).toBe('mismatch');
    if (o.kind === 'mismatch') expect(o.compare.mismatches.map((m) => m.where)).toEqual(['v0[lane 3]']);
  });

  it('without an end the program runs on to s_endpgm, and the scan meets what follows', async () => {
    const o = await replay(undefined, added);
    expect(o.kind === 'refused' ? o.reason : o.kind).toBe(
      '0x10000008: s_trap: program control the interpreter does not model',
    );
  });
});
