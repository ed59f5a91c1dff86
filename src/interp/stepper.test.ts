/**
 * The stepper (stepper.ts) is the whole-dispatch run taken apart: stepping every wave to its
 * end gives the memory and the step count the replay gives, a barrier holds a wave until its
 * group arrives, and a refusal comes back as a value with the waves still there to look at.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCapture } from '../host/capture/build.ts';
import { readCapture, type Capture } from '../host/capture/container.ts';
import { compareWithExpected } from './compare.ts';
import { replayCapture } from './replay.ts';
import { DispatchStepper, gridId } from './stepper.ts';
import { loadVectorBridge } from './vector-bridge.ts';

const capture = async (name: string): Promise<Capture> =>
  readCapture(new Uint8Array(readFileSync(`public/captures/${name}.gcncap`)));

/** Steps wave 0, then wave 1, … of each group to its end, then the next group. */
function stepAll(s: DispatchStepper): number {
  let calls = 0;
  while (!s.finished) {
    for (let i = 0; i < s.waves.length; i++)
      for (;;) {
        const e = s.stepWave(i);
        calls++;
        if (e.kind !== 'stepped') break;
      }
    s.nextGroup();
  }
  return calls;
}

describe('DispatchStepper', () => {
  it('steps the buffer copy to the replay’s memory and step count', async () => {
    const c = await capture('gfx1030-buffer-copy');
    const vector = await loadVectorBridge();
    const s = DispatchStepper.fromCapture(c, { vector });
    expect(s.groupCount).toBe(2);
    expect(s.waves.length).toBe(1);
    expect(s.groupId).toEqual([0, 0, 0]);
    const first = s.stepWave(0);
    expect(first).toEqual({ kind: 'stepped', wave: 0, pc: 0 });
    expect(s.waves[0].pc).toBeGreaterThan(0);
    stepAll(s);
    expect(s.finished).toBe(true);
    expect(s.stepWave(0)).toEqual({ kind: 'dispatch-done' });
    const replay = replayCapture(c, { vector });
    expect(replay.kind).toBe('match');
    if (replay.kind !== 'match') return;
    expect(s.steps).toBe(replay.run.steps);
    expect(compareWithExpected(c, s.memory).match).toBe(true);
  });

  it('walks groups in grid order, x fastest', () => {
    const setup = { grid: [3, 2, 2] } as unknown as Parameters<typeof gridId>[0];
    expect([0, 1, 2, 3, 5, 6, 11].map((i) => gridId(setup, i))).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 0, 0],
      [0, 1, 0],
      [2, 1, 0],
      [0, 0, 1],
      [2, 1, 1],
    ]);
  });

  it('holds a wave at s_barrier until the rest of its group arrives', async () => {
    const built = await buildCapture({
      target: 'gfx1030',
      program: {
        address: 0x10000000,
        asm: [
          'v_lshlrev_b32 v1, 2, v0',
          'ds_write_b32 v1, v0',
          's_waitcnt lgkmcnt(0)',
          's_barrier',
          'ds_read_b32 v2, v1 offset:128',
          's_waitcnt lgkmcnt(0)',
          's_endpgm',
        ].join('\n'),
      },
      registers: { vgprs: 8, sgprs: 8, rsrc2: { lds_size: 1 } },
      thread_group: [64],
      grid: [1, 1, 1],
      memory: [],
    });
    const c = { manifest: built.manifest, blob: (h: string) => built.blobs.get(h)! };
    const s = DispatchStepper.fromCapture(c, { vector: await loadVectorBridge() });
    expect(s.waves.length).toBe(2);
    for (let i = 0; i < 4; i++) expect(s.stepWave(0).kind).toBe('stepped'); // through s_barrier
    expect(s.stepWave(0)).toEqual({ kind: 'waiting', wave: 0, for: [1] });
    for (let i = 0; i < 4; i++) expect(s.stepWave(1).kind).toBe('stepped');
    // Every live wave has arrived: wave 0 goes on and reads what wave 1 wrote (thread 32's id).
    expect(s.stepWave(0).kind).toBe('stepped');
    expect(s.waves[0].readVgpr(2, 0)).toBe(32);
    expect(s.finishGroup()).toEqual({ kind: 'group-done' });
    expect(s.groupDone).toBe(true);
    expect(s.nextGroup()).toEqual({ kind: 'dispatch-done' });
  });

  it('returns a guest fault as a refusal and keeps the waves', async () => {
    const built = await buildCapture({
      target: 'gfx1030',
      program: {
        address: 0x10000000,
        asm: 's_mov_b32 s4, 0x50000000\ns_mov_b32 s5, 0\ns_load_dword s6, s[4:5], 0x0\ns_endpgm',
      },
      registers: { vgprs: 8, sgprs: 8 },
      thread_group: [32],
      grid: [1, 1, 1],
      memory: [],
    });
    const c = { manifest: built.manifest, blob: (h: string) => built.blobs.get(h)! };
    const s = DispatchStepper.fromCapture(c, { vector: await loadVectorBridge() });
    expect(s.stepWave(0).kind).toBe('stepped');
    expect(s.stepWave(0).kind).toBe('stepped');
    const e = s.stepWave(0);
    expect(e.kind).toBe('refused');
    expect(e.kind === 'refused' && e.reason).toMatch(/guest fault: read of 4 bytes at 0x50000000/);
    expect(s.refusal).toMatch(/guest fault/);
    expect(s.waves[0].sgpr[4]).toBe(0x50000000);
    expect(s.stepWave(0).kind).toBe('refused');
  });
});
