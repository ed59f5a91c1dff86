/**
 * The Tables view's data on the bundled D983-shaped capture (public/captures/gfx1030-image-table,
 * built from e2e/fixtures/image-table-spec.ts): its one texture slot's table classified record by
 * record, its directory, a slot opened to every level and face of its image, and the lanes the
 * stepped interpreter saw select each descriptor, which must add up to every lane of the dispatch,
 * each at the place its record index (the capture's per-lane index buffer) names.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCapture, writeCapture } from '../host/capture/container.ts';
import { buildCapture } from '../host/capture/index.ts';
import { setupFromCapture } from '../interp/dispatch.ts';
import { GuestMemory } from '../interp/memory.ts';
import { imageTableSpec } from '../../e2e/fixtures/image-table-spec.ts';
import { TableInspector } from './tables-data.ts';
import { parseAddress } from '../host/capture/manifest.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { CaptureSession } from './session.ts';
import { RECORD_KINDS, type SlotTable } from './worker-api.ts';
import { filterRecords } from './record-table.ts';

const FILE = new URL('../../public/captures/gfx1030-image-table.gcncap', import.meta.url);

describe('TableInspector on gfx1030-image-table', () => {
  let session: CaptureSession;
  let slot: SlotTable;
  beforeAll(async () => {
    session = await CaptureSession.open(new Uint8Array(readFileSync(FILE)), 'image-table', await loadVectorBridge());
    const report = session.tables();
    expect(report.note).toBeUndefined();
    expect(report.accessCounts).toEqual({ bound: 0, selected: 1, untraced: 0 });
    expect(report.slots).toHaveLength(1);
    slot = report.slots[0]!;
  }, 60_000);

  it('classifies every one of the 65536 records, and each left-out one says why', () => {
    expect(slot.unread).toBeUndefined();
    expect(slot.recordCount).toBe(65536);
    expect(slot.images).toHaveLength(278);
    expect(slot.leftOut).toEqual({
      'other-type': 204,
      'integer-format': 4,
      'unmodelled-format': 0,
      'unmodelled-layout': 0,
      'too-large': 2,
      undecodable: 4,
    });
    const counts = Object.fromEntries(RECORD_KINDS.map((k, i) => [k, slot.kinds!.filter((x) => x === i).length]));
    expect(counts).toEqual({ empty: 65536 - 278 - 24 - 214, image: 278, repeat: 24, 'left-out': 214 });
    for (let i = 0; i < 65536; i++)
      if (RECORD_KINDS[slot.kinds![i]!] === 'left-out') expect(slot.details![i]).toMatch(/\S/);
    expect(filterRecords(slot, { type: '2d_msaa', format: '', bound: 'not-bound' })).toHaveLength(4);
    expect(filterRecords(slot, { type: '', format: '32_FLOAT', bound: 'bound' })).toHaveLength(16);
    expect(filterRecords(slot, { type: 'cube', format: '', bound: '' })).toHaveLength(2);
    expect(filterRecords(slot, { type: '', format: '', bound: 'empty' })).toHaveLength(65536 - 278 - 24 - 214);
    expect(slot.bounds).toEqual({ ok: true, texelBytes: expect.any(Number) });
    expect(slot.pages?.ok).toBe(true);
  });

  it("gives the Program view each access's descriptor origins: the selected T#, the loaded S# and V#s", () => {
    const { origins } = session.tables();
    const sample = origins.find((a) => a.kind === 'image')!;
    expect(sample).toMatchObject({ offset: 0x54, classification: 'selected', slot: slot.slot });
    const [t, sampler] = sample.descriptors;
    expect(t).toMatchObject({ kind: 'T#', registers: 's[32:39]' });
    expect(t!.sources).toEqual(expect.arrayContaining(['table selection', 'waterfall']));
    expect(t!.classification).toMatch(/^selected per lane from table/);
    expect(t!.words).toHaveLength(8);
    expect(t!.words[0]!.chain.some((step) => /s_buffer_load_dwordx8/.test(step))).toBe(true);
    // Each register has its own chain and sources: s32's word is dword 0 of the selecting load, s33's dword 1.
    expect(t!.words.map((w) => w.register)).toEqual(['s32', 's33', 's34', 's35', 's36', 's37', 's38', 's39']);
    expect(t!.words[0]!.chain.at(-1)).toMatch(/s32 = dword 0 of the load$/);
    expect(t!.words[1]!.chain.at(-1)).toMatch(/s33 = dword 1 of the load$/);
    for (const w of t!.words) expect(w.sources).toEqual(['table selection']);
    expect(sampler!.words.every((w) => w.sources.join() === 'fixed load')).toBe(true);
    expect(sampler).toMatchObject({ kind: 'S#', registers: 's[16:19]', sources: ['fixed load'] });
    // The record-index load and the store: bound V#s loaded at fixed places from user data.
    const buffers = origins.filter((a) => a.kind === 'buffer');
    expect(buffers.length).toBeGreaterThanOrEqual(2);
    for (const b of buffers) {
      expect(b.classification).toBe('bound');
      expect(b.descriptors[0]).toMatchObject({ kind: 'V#', sources: ['fixed load'] });
    }
  });

  it('puts every image in the directory within its probe window', () => {
    const d = slot.directory!;
    if (!d.ok) throw new Error(d.refusal.reason);
    expect(d.slots).toHaveLength(278);
    expect(new Set(d.slots.map((s) => s.place)).size).toBe(278);
    for (const s of d.slots) expect([0, 1, 2, 3]).toContain(s.distance);
    expect(d.slots.filter((s) => s.cube)).toHaveLength(2);
  });

  it('opens a slot to every mip level of its image and every face of a cube', () => {
    const d = slot.directory!;
    if (!d.ok) throw new Error('no directory');
    const opened = d.slots.map((s) => session.directorySlot(slot.slot, s.index));
    const mipped = opened.filter((o) => o.image?.levels === 4);
    expect(mipped).toHaveLength(4);
    for (const m of mipped) {
      expect(m.thumbnails.map((t) => `${t.level}:${t.width}x${t.height}`)).toEqual([
        '0:8x8',
        '1:4x4',
        '2:2x2',
        '3:1x1',
      ]);
      // The generator shades level L with blue L/3 (e2e/fixtures/image-table-spec.ts).
      expect(m.thumbnails.map((t) => t.rgba[2])).toEqual([0, 85, 170, 255]);
    }
    const cubes = opened.filter((o) => o.image?.shape === 'cube');
    expect(cubes).toHaveLength(2);
    for (const c of cubes) expect(c.thumbnails.map((t) => t.slice)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(opened[0]!.fields?.find(([k]) => k === 'type_name')).toBeDefined();
    expect(opened[0]!.sampler?.fields?.find(([k]) => k === 'clamp')?.[1]).toContain('clamp_last_texel');
    expect(opened[0]!.lanes.kind).toBe('not-run');
  });

  it('after an interpreter run, names the lanes that selected each descriptor: every lane once, at its record', async () => {
    expect(session.replay().kind).toBe('match');
    const d = slot.directory!;
    if (!d.ok) throw new Error('no directory');
    // Each lane's record index, from the capture's 'indices' range (u32 a lane, 32 lanes a group).
    const capture = await readCapture(new Uint8Array(readFileSync(FILE)));
    const range = capture.manifest.memory.find((r) => r.address === '0x30000000')!;
    expect(Number(parseAddress(range.address))).toBe(0x30000000);
    const indices = new Uint32Array(capture.blob(range.blob!).slice().buffer);
    const seen = new Set<number>();
    for (const s of d.slots) {
      const o = session.directorySlot(slot.slot, s.index);
      if (o.lanes.kind !== 'observed') throw new Error(o.lanes.kind);
      for (const sel of o.lanes.selections)
        for (const lane of sel.lanes) {
          const global = sel.group * 32 + lane;
          expect(seen.has(global)).toBe(false);
          seen.add(global);
          expect(slot.places![indices[global]!]).toBe(o.place);
        }
    }
    expect(seen.size).toBe(256);
    expect(session.escapes()).toEqual({ kind: 'observed', escapes: [] });
  });
});

describe('TableInspector escapes', () => {
  it('lists a lane that selects a record the directory does not hold, with its words', async () => {
    // The same dispatch, but lane 5 selects record 1, which is empty (all zeros).
    const spec = imageTableSpec() as { memory: { name?: string; data: { values?: number[] } }[]; expected?: unknown };
    const indices = spec.memory.find((m) => m.name === 'indices')!.data.values!;
    indices[5] = 1;
    delete spec.expected;
    const built = await buildCapture(spec as unknown as Parameters<typeof buildCapture>[0], { allowUnavailable: true });
    const capture = await readCapture(await writeCapture(built.manifest, built.blobs));
    const memory = GuestMemory.fromCapture(capture);
    const inspector = new TableInspector(capture, setupFromCapture(capture, memory), memory, await loadVectorBridge());
    const slot = inspector.report(() => {}).slots[0]!;
    expect(RECORD_KINDS[slot.kinds![1]!]).toBe('empty');
    expect(inspector.escapes().kind).toBe('not-run');
    inspector.observe(() => {});
    expect(inspector.escapes()).toEqual({
      kind: 'observed',
      escapes: [{ slot: '0', group: 0, wave: 0, access: 0x54, lanes: [5], words: [0, 0, 0, 0, 0, 0, 0, 0] }],
    });
  }, 60_000);
});
