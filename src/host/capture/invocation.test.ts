/**
 * The spec builder's `invocation` (docs/capture-spec.md, "A program run from given
 * registers") and the `program` dispatch's `end` (docs/capture-format.md): what the builder
 * writes into the manifest, that it survives a write and a read, and the named errors.
 */
import { describe, expect, it } from 'vitest';
import { buildCapture, readCapture, writeCapture, type Manifest } from './index.ts';
import { CaptureError } from './errors.ts';

const lanes = (f: (lane: number) => number) => Array.from({ length: 32 }, (_, l) => f(l));

/** A gfx1030 wave32 spec: v_add_nc_u32 v0, v0, v1; s_mov_b32 s0, 7; then v_mov_b32 v0, 0; s_endpgm. */
function spec(extra: Record<string, unknown> = {}, invocation: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    target: 'gfx1030',
    program: { words: [0x4a000300, 0xbe800387, 0x7e000280, 0xbf810000] },
    invocation: {
      end: 8,
      exec: '0xf0f0f0f0',
      sgprs: [5, { words: [6, 7] }, { sampler: { name: 'point', clamp_x: 2 } }, { pointer: 'data' }],
      vgprs: [lanes((l) => l), { type: 'f32', values: lanes(() => 1.5) }],
      ...invocation,
    },
    memory: [{ name: 'data', address: 0x30000000, data: { zeros: 16 } }],
    expected: {
      source: { kind: 'tool', tool: 'test', revision: '1' },
      memory: [],
      registers: { vgprs: { 0: lanes((l) => l + 1) }, sgprs: { 0: 7 }, exec: 0xf0f0f0f0 },
    },
    ...extra,
  };
}

async function refusal(s: Record<string, unknown>): Promise<string> {
  try {
    await buildCapture(s);
  } catch (e) {
    if (e instanceof CaptureError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'built';
}

describe('capture build: a program run from given registers', () => {
  it('writes a program dispatch: entry and end as addresses, the registers raw, notes at {sgpr}', async () => {
    const { manifest } = await buildCapture(spec());
    expect(manifest.dispatch).toEqual({
      kind: 'program',
      entry: '0x10000000',
      end: '0x10000008',
      initial: {
        exec: '0xf0f0f0f0',
        sgprs: [5, 6, 7, ...manifest.descriptors![0].words, 0x30000000, 0],
        vgprs: [lanes((l) => l), lanes(() => 0x3fc00000)],
      },
    });
    expect(manifest.descriptors).toEqual([{ kind: 'sampler', at: { sgpr: 3 }, words: [2, 0, 0, 0], name: 'point' }]);
    expect(manifest.memory[1].origin).toEqual({
      kind: 'user-data-pointer',
      detail: "the pointer in s7..8 (the program's initial SGPRs)",
    });
    expect(manifest.memory[0].origin.detail).toBe('the program (invocation.entry)');
    expect(!('unavailable' in manifest.expected) && manifest.expected.registers).toEqual({
      vgprs: { '0': lanes((l) => l + 1) },
      sgprs: { '0': 7 },
      exec: '0xf0f0f0f0',
    });
  });

  it('survives a write and a read (the schema knows end and {sgpr})', async () => {
    const built = await buildCapture(spec());
    const read = await readCapture(await writeCapture(built.manifest, built.blobs));
    expect(read.manifest).toEqual(built.manifest);
  });

  it('defaults: entry 0, no end (run to s_endpgm), EXEC every lane of the wave', async () => {
    const expected = { source: { kind: 'tool', tool: 'test', revision: '1' }, memory: [] };
    const { manifest } = await buildCapture(
      spec({ wave64: true, expected }, { end: undefined, exec: undefined, vgprs: [] }),
    );
    const d = manifest.dispatch as Extract<Manifest['dispatch'], { kind: 'program' }>;
    expect([d.entry, d.end, d.initial.exec]).toEqual(['0x10000000', undefined, '0xffffffffffffffff']);
  });

  it('refuses, by name, what does not describe one wave of the program', async () => {
    expect(await refusal(spec({ user_data: [1] }))).toMatch(/invalid-spec: user_data: describes a dispatch/);
    expect(await refusal(spec({ grid: [2] }))).toMatch(/invalid-spec: grid: describes a dispatch/);
    expect(await refusal(spec({}, { end: 0 }))).toMatch(/invocation\.end: is the entry/);
    expect(await refusal(spec({}, { end: 6 }))).toMatch(/invocation\.end: must be a whole number of dwords/);
    expect(await refusal(spec({}, { end: 20 }))).toMatch(/invocation\.end: 20 is not an integer in \[0, 16\]/);
    expect(await refusal(spec({}, { entry: 16 }))).toMatch(/invocation\.entry: is past the program's 16 bytes/);
    expect(await refusal(spec({}, { exec: '0x1ffffffff' }))).toMatch(/invocation\.exec: has bits past the wave's 32/);
    expect(await refusal(spec({}, { vgprs: [[1, 2]] }))).toMatch(
      /invocation\.vgprs\[0\]: gives 2 lanes; the wave has 32/,
    );
    expect(await refusal(spec({}, { sgprs: [{ words: new Array(107).fill(0) }] }))).toMatch(/holds 106 words/);
    expect(await refusal(spec({}, { bogus: 1 }))).toMatch(/invocation: unknown key 'bogus'/);
  });

  it('compares final registers for a program invocation only', async () => {
    const dispatch = { ...spec(), invocation: undefined, thread_group: [32] };
    expect(await refusal(dispatch)).toMatch(
      /expected\.registers: final registers are compared for a program invocation/,
    );
    const wrongLanes = spec();
    (wrongLanes.expected as { registers: unknown }).registers = { vgprs: { 1: [1] } };
    expect(await refusal(wrongLanes)).toMatch(/expected\.registers\.vgprs\.1: gives 1 lanes/);
  });

  it('the reader refuses an end that is the entry (the program would run nothing)', async () => {
    const built = await buildCapture(spec());
    const m = built.manifest;
    const bad = { ...m, dispatch: { ...m.dispatch, end: '0x10000000' } } as Manifest;
    await expect(writeCapture(bad, built.blobs)).rejects.toMatchObject({ code: 'malformed-manifest' });
  });
});
