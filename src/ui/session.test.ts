/**
 * The worker's work without the worker (session.ts): opening captures (and refusing a file
 * that is not one, by its code), the listing from the entry with labels, the replay's verdict
 * with each expected range beside what the run left, and stepping with registers to show.
 * Also: public/captures/index.json lists every bundled capture.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { garbage, prefixSumCapture, prefixSumInput, refusingCapture } from '../../e2e/fixtures/prefix-sum.ts';
import { CaptureError } from '../host/capture/errors.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { elementText } from './buffer-format.ts';
import { CaptureSession, namedError } from './session.ts';
import type { StepSnapshot } from './worker-api.ts';

const bundled = (name: string): Uint8Array => new Uint8Array(readFileSync(`public/captures/${name}.gcncap`));
const open = async (bytes: Uint8Array, name = 'test.gcncap'): Promise<CaptureSession> =>
  CaptureSession.open(bytes, name, await loadVectorBridge());

function snapshot(s: CaptureSession, ...args: Parameters<CaptureSession['step']>): StepSnapshot {
  const r = s.step(...args);
  if ('refused' in r) throw new Error(r.refused);
  return r;
}

describe('CaptureSession', () => {
  it('opens the default capture: summary, listing from the entry, descriptors decoded', async () => {
    const s = await open(bundled('gfx1030-buffer-copy'), 'gfx1030-buffer-copy.gcncap');
    expect(s.summary).toMatchObject({ mcpu: 'gfx1030', gen: 'gfx10.3', wave64: false, dispatchKind: 'registers' });
    expect(s.summary.dispatch.join('\n')).toContain('grid 2×1×1 groups of 32×1×1 threads: 1 wave of 32 lanes each');
    expect(s.summary.ranges).toHaveLength(4);
    expect(s.summary.descriptors.map((d) => d.name)).toEqual(['source', 'destination']);
    expect(s.summary.descriptors[0].fields).toContainEqual(['num_records', '64']);
    expect(s.program.ok).toBe(true);
    if (!s.program.ok) return;
    expect(s.program.entry).toBe(0x10000000);
    expect(s.program.listing.lines[0].text).toMatch(/^s_load_dwordx8 s\[4:11\], s\[0:1\]/);
    expect(s.program.listing.decoded).toBeGreaterThanOrEqual(7);
  });

  it('refuses a file that is not a capture with its CaptureError code', async () => {
    const e = await open(garbage).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CaptureError);
    expect(namedError(e)).toMatchObject({ name: 'CaptureError', code: 'not-a-zip' });
  });

  it('replays to a match with each expected range beside what the run left', async () => {
    const s = await open(bundled('gfx7-vsharp-format-load'));
    const r = s.replay();
    expect(r.kind).toBe('match');
    if (r.kind !== 'match') return;
    expect(r.buffers).toHaveLength(1);
    const b = r.buffers[0];
    expect(b).toMatchObject({ address: 0x30001000, size: 256, element: 'f32', differing: [] });
    expect(elementText(b.got!, 0, 'f32', 'typed')).toBe(elementText(b.expected!, 0, 'f32', 'typed'));
  });

  it('gives a refusal as the verdict, and to the stepper', async () => {
    const s = await open(await refusingCapture());
    const r = s.replay();
    expect(r.kind).toBe('refused');
    expect(r.kind === 'refused' && r.reason).toMatch(/s_sendmsg/);
    const st = s.step({ kind: 'look' }, { wave: 0, lane: 0 });
    expect('refused' in st && st.refused).toMatch(/s_sendmsg/);
  });

  it('lists labels and replays the prefix-sum fixture to a match', async () => {
    const s = await open(await prefixSumCapture());
    expect(s.program.ok && s.program.listing.lines.filter((l) => l.label).map((l) => l.label)).toEqual([
      '.L_0044',
      '.L_0068',
      '.L_00a4',
    ]);
    const r = s.replay();
    expect(r.kind).toBe('match');
    expect(r.kind === 'match' && r.groups).toBe(2);
  });

  it('steps a wave: PC, EXEC, a lane’s VGPRs, the barrier, the next group', async () => {
    const s = await open(await prefixSumCapture());
    let v = snapshot(s, { kind: 'look' }, { wave: 1, lane: 3 });
    expect(v.waves).toHaveLength(8);
    expect(v.wave).toMatchObject({ id: 1, pc: 0, lane: 3, lanes: 32, exec: [0xffffffff, 0], laneActive: true });
    expect(v.wave!.next).toBe('s_mov_b32 s0, s3');
    expect(v.wave!.vgprs[0]).toBe(35); // thread id x of wave 1, lane 3
    expect(v.wave!.vgprs).toHaveLength(8); // RSRC1: 8 VGPRs
    v = snapshot(s, { kind: 'wave', count: 20 }, { wave: 1, lane: 3 });
    expect(v.event).toMatchObject({ kind: 'waiting', wave: 1 });
    expect(v.wave!.atBarrier).toBe(true);
    expect(v.wave!.vgprs[1]).toBe(35 * 4); // the byte offset of its element
    expect(v.wave!.vgprs[2]).toBe(prefixSumInput(35)); // its input element, loaded
    v = snapshot(s, { kind: 'next-group' }, { wave: 0, lane: 0 });
    expect(v.groupIndex).toBe(1);
    expect(v.groupId).toEqual([1, 0, 0]);
    v = snapshot(s, { kind: 'next-group' }, { wave: 0, lane: 0 });
    expect(v.finished).toBe(true);
    v = snapshot(s, { kind: 'restart' }, { wave: 0, lane: 0, vgprs: 4 });
    expect(v).toMatchObject({ groupIndex: 0, steps: 0, finished: false });
    expect(v.wave!.vgprs).toHaveLength(4);
  });
});

describe('public/captures/index.json', () => {
  it('lists every bundled capture, and one default', () => {
    const index = JSON.parse(readFileSync('public/captures/index.json', 'utf8')) as {
      file: string;
      default?: boolean;
    }[];
    const files = readdirSync('public/captures')
      .filter((f) => f.endsWith('.gcncap'))
      .map((f) => `captures/${f}`)
      .sort();
    expect(index.map((c) => c.file).sort()).toEqual(files);
    expect(index.filter((c) => c.default)).toHaveLength(1);
  });
});
