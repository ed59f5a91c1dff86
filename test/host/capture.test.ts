import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import {
  CaptureError,
  REDACTED_REASON,
  buildCapture,
  parseSpec,
  readCapture,
  redact,
  sha256Hex,
  writeCapture,
  type CaptureErrorCode,
  type Manifest,
} from '../../src/host/capture/index.ts';
import { f16Bits, imageBytes, typedBytes } from '../../src/host/capture/data.ts';
import { validate } from '../../src/host/capture/schema.ts';
import { captureCommand } from '../../src/cli/capture-command.ts';
import { buildSpecFile, captureSpecs } from '../../tools/build-captures.ts';

const specs = captureSpecs();

async function buildSpec(path: string) {
  return buildCapture(parseSpec(readFileSync(path, 'utf8'), path));
}

/** A capture's zip entries, to break one at a time. */
function entries(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}
function manifestOf(files: Record<string, Uint8Array>): Manifest {
  return JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Manifest;
}
function rezip(files: Record<string, Uint8Array>, manifest?: unknown): Uint8Array {
  const out = { ...files };
  if (manifest !== undefined) out['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest));
  return zipSync(out);
}

async function refusal(bytes: Uint8Array): Promise<CaptureError> {
  try {
    await readCapture(bytes);
  } catch (e) {
    if (e instanceof CaptureError) return e;
    throw e;
  }
  throw new Error('the capture was read');
}

async function expectCode(bytes: Uint8Array, code: CaptureErrorCode): Promise<CaptureError> {
  const e = await refusal(bytes);
  expect(e.code, e.message).toBe(code);
  return e;
}

function fakeIo() {
  const io = {
    out: '',
    err: '',
    stdout: (s: string) => void (io.out += s),
    stderr: (s: string) => void (io.err += s),
    stdin: () => '',
  };
  return io;
}

describe('capture specs and public captures', () => {
  it('there are at least three specs', () => {
    expect(specs.length).toBeGreaterThanOrEqual(3);
  });

  for (const { spec, out } of specs) {
    const name = spec.split('/').pop()!;
    it(`${name}: the committed capture is what the spec builds, byte for byte`, async () => {
      const bytes = await buildSpecFile(spec);
      expect(Buffer.compare(Buffer.from(bytes), readFileSync(out))).toBe(0);
      expect(bytes.length).toBeLessThan(16 * 1024);
    });

    it(`${name}: build, write, read gives the same manifest and bytes`, async () => {
      const built = await buildSpec(spec);
      const bytes = await writeCapture(built.manifest, built.blobs);
      const read = await readCapture(bytes);
      expect(read.manifest).toEqual(JSON.parse(JSON.stringify(built.manifest)));
      expect([...read.blobs.keys()].sort()).toEqual([...built.blobs.keys()].sort());
      for (const [h, b] of built.blobs) expect(Buffer.from(read.blob(h)).equals(Buffer.from(b))).toBe(true);
      // And writing what was read gives the same file.
      const again = await writeCapture(read.manifest, read.blobs);
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    });

    it(`${name}: capture info reads it`, async () => {
      const io = fakeIo();
      expect(await captureCommand(['info', out], io)).toBe(0);
      expect(io.err).toBe('');
      expect(io.out).toMatch(/^target: gfx/m);
      expect(io.out).toMatch(/code: the program/);
      expect(io.out).toMatch(/expected: from hand-written spec/);
      const j = fakeIo();
      expect(await captureCommand(['info', out, '--json'], j)).toBe(0);
      const parsed = JSON.parse(j.out) as { manifest: Manifest; blobs: { hash: string; size: number }[] };
      expect(parsed.manifest.format).toBe('gcncap');
      expect(parsed.blobs.length).toBeGreaterThan(1);
    });
  }

  it('the buffer copy holds its descriptor table whole, with origins', async () => {
    const { manifest } = await buildSpec(specs.find((s) => s.spec.endsWith('gfx1030-buffer-copy.yaml'))!.spec);
    const kinds = manifest.memory.map((r) => r.origin.kind);
    expect(kinds).toEqual(['code', 'descriptor-table', 'buffer-backing', 'buffer-backing']);
    expect(manifest.memory[3].access).toBe('written');
    expect(manifest.dispatch.kind).toBe('registers');
    if (manifest.dispatch.kind !== 'registers') return;
    expect(manifest.dispatch.sh_registers['0x240']).toBe(0x20000000);
    expect(manifest.dispatch.registers.COMPUTE_USER_DATA_0).toBe(0x20000000);
    expect(manifest.dispatch.registers.COMPUTE_PGM_LO).toBe(0x100000);
    expect((manifest.dispatch.registers.COMPUTE_PGM_RSRC2 >>> 1) & 0x1f).toBe(2);
  });
});

describe('named errors, each from its own malformed file', async () => {
  const { manifest, blobs } = await buildSpec(specs[0].spec);
  const good = await writeCapture(manifest, blobs);
  const files = entries(good);
  const m = manifestOf(files);
  const codeHash = m.memory[0].blob!;

  it('not-a-zip', async () => {
    await expectCode(new TextEncoder().encode('this is not a zip file at all, not at all'), 'not-a-zip');
    const broken = good.slice(0, 40); // a zip's first bytes and nothing more
    await expectCode(broken, 'not-a-zip');
  });

  it('no-manifest', async () => {
    const { ['manifest.json']: _, ...rest } = files;
    await expectCode(zipSync(rest), 'no-manifest');
  });

  it('malformed-manifest: not JSON, not the schema, registers that disagree', async () => {
    await expectCode(
      zipSync({ ...files, 'manifest.json': new TextEncoder().encode('{"format": "gcncap",') }),
      'malformed-manifest',
    );
    const badAccess = structuredClone(m) as unknown as { memory: { access: string }[] };
    badAccess.memory[1].access = 'read-write';
    const e = await expectCode(rezip(files, badAccess), 'malformed-manifest');
    expect(e.message).toMatch(/memory\[1\]\.access/);
    const noTarget = { ...structuredClone(m), target: undefined };
    await expectCode(rezip(files, noTarget), 'malformed-manifest');
    const disagree = structuredClone(m) as unknown as { dispatch: { sh_registers: Record<string, number> } };
    disagree.dispatch.sh_registers['0x240'] = 1;
    expect((await expectCode(rezip(files, disagree), 'malformed-manifest')).message).toMatch(/COMPUTE_USER_DATA_0/);
  });

  it('newer-major-version, refused by name', async () => {
    const newer = { ...structuredClone(m), version: { major: 2, minor: 3 }, something_new: true };
    const e = await expectCode(rezip(files, newer), 'newer-major-version');
    expect(e.message).toMatch(/gcncap 2\.3/);
    // A newer minor version is read, its additions ignored.
    const minor = { ...structuredClone(m), version: { major: 1, minor: 7 }, something_new: true };
    expect((await readCapture(rezip(files, minor))).manifest.version.minor).toBe(7);
  });

  it('checksum-mismatch', async () => {
    const b = files[`blobs/${codeHash}`].slice();
    b[0] ^= 1;
    await expectCode(rezip({ ...files, [`blobs/${codeHash}`]: b }), 'checksum-mismatch');
  });

  it('missing-blob', async () => {
    const { [`blobs/${codeHash}`]: _, ...rest } = files;
    await expectCode(rezip(rest), 'missing-blob');
  });

  it('overlapping-ranges', async () => {
    const o = structuredClone(m) as unknown as { memory: Manifest['memory'][number][] };
    o.memory.push({ ...o.memory[2], address: `0x${(BigInt(o.memory[2].address) + 0x80n).toString(16)}` });
    await expectCode(rezip(files, o), 'overlapping-ranges');
    const e = structuredClone(m) as unknown as { expected: { memory: unknown[] } };
    e.expected.memory.push(e.expected.memory[0]);
    await expectCode(rezip(files, e), 'overlapping-ranges');
  });

  it('address-out-of-range', async () => {
    const o = structuredClone(m) as unknown as { memory: { address: string }[] };
    o.memory[2].address = '0xffffffffff80'; // 256 bytes from here run past 2^48
    await expectCode(rezip(files, o), 'address-out-of-range');
    o.memory[2].address = '0x1000000000000';
    await expectCode(rezip(files, o), 'address-out-of-range');
  });

  it('size-too-large, before any blob is looked at', async () => {
    const o = structuredClone(m) as unknown as { memory: { size: number; blob: string }[] };
    o.memory[2].size = 2 ** 33;
    o.memory[2].blob = 'f'.repeat(64); // not in the zip: the size is refused first
    await expectCode(rezip(files, o), 'size-too-large');
    const many = structuredClone(m) as unknown as { memory: { address: string; size: number; blob: string }[] };
    for (let i = 0; i < 5; i++)
      many.memory.push({
        ...many.memory[2],
        address: `0x${(0x100000000 * (i + 1)).toString(16)}`,
        size: 2 ** 30,
        blob: 'e'.repeat(64),
      });
    await expectCode(rezip(files, many), 'size-too-large');
  });

  it('blob-size-mismatch', async () => {
    const o = structuredClone(m) as unknown as { memory: { size: number }[] };
    o.memory[0].size += 4;
    await expectCode(rezip(files, o), 'blob-size-mismatch');
  });

  it('the writer refuses what the reader would', async () => {
    await expect(writeCapture(manifest, new Map())).rejects.toMatchObject({ code: 'missing-blob' });
    const wrong = new Map(blobs);
    wrong.set(codeHash, new Uint8Array(blobs.get(codeHash)!.length));
    await expect(writeCapture(manifest, wrong)).rejects.toMatchObject({ code: 'checksum-mismatch' });
  });
});

describe('redaction', () => {
  it('keeps the manifest and the code, removes guest data and says so', async () => {
    const { manifest, blobs } = await buildSpec(specs[0].spec);
    const cap = await readCapture(await writeCapture(manifest, blobs));
    const r = redact(cap);
    const read = await readCapture(await writeCapture(r.manifest, r.blobs));
    expect(read.manifest.redacted).toBe(true);
    expect(read.blobs.size).toBe(1);
    for (const x of read.manifest.memory) {
      if (x.origin.kind === 'code') expect(read.blob(x.blob!)).toEqual(cap.blob(x.blob!));
      else expect([x.blob, x.unavailable]).toEqual([null, REDACTED_REASON]);
    }
    if ('unavailable' in read.manifest.expected) throw new Error('expected kept');
    for (const x of read.manifest.expected.memory) expect(x.unavailable).toBe(REDACTED_REASON);
    expect(read.manifest.dispatch).toEqual(cap.manifest.dispatch);
  });
});

describe('capture build', () => {
  const base = {
    target: 'gfx1030',
    program: { asm: 's_endpgm' },
    memory: [{ name: 'out', address: 0x1000, data: { zeros: 16 } }],
  };

  it('expected: {compute: interpreter} is "interpreter not available", or recorded as unavailable', async () => {
    const spec = { ...base, expected: { compute: 'interpreter' } };
    await expect(buildCapture(spec)).rejects.toMatchObject({ code: 'interpreter-not-available' });
    await expect(buildCapture(spec)).rejects.toThrow(/interpreter not available/);
    const built = await buildCapture(spec, { allowUnavailable: true });
    expect(built.manifest.expected).toEqual({ unavailable: 'interpreter not available', requested: 'interpreter' });
    await readCapture(await writeCapture(built.manifest, built.blobs));
  });

  it('a wrong spec is invalid-spec naming where', async () => {
    await expect(buildCapture({ ...base, program: { asm: 'not_an_instruction v0' } })).rejects.toMatchObject({
      code: 'invalid-spec',
    });
    await expect(buildCapture({ ...base, user_data: new Array(17).fill(0) })).rejects.toThrow(/user_data\[16\]/);
    await expect(buildCapture({ ...base, user_data: [{ buffer: { no_such_field: 1 } }] })).rejects.toThrow(
      /no_such_field/,
    );
    await expect(buildCapture({ ...base, user_data: [{ pointer: 'nowhere' }] })).rejects.toThrow(/nowhere/);
    await expect(buildCapture({ ...base, target: 'gfx7', program: { hex: '00 00 81 bf' } })).rejects.toThrow(
      /not a known processor/,
    );
    await expect(buildCapture({ ...base, expected: { memory: [] } })).rejects.toThrow(/expected\.source/);
  });

  it('programs from hex and words, data from typed numbers and images', async () => {
    const built = await buildCapture({
      ...base,
      program: { hex: '0000 81bf' },
      memory: [
        {
          address: 0x2000,
          data: [
            { type: 'f16', values: [1, -2, 'inf'] },
            { type: 'i16', values: [-1] },
          ],
        },
        { address: 0x3000, data: { image: { format: 'rgba8_unorm', width: 4, height: 2, mips: 2, pattern: 'index' } } },
      ],
    });
    const at = (a: string) => built.manifest.memory.find((r) => r.address === a)!;
    expect(at('0x10000000')).toMatchObject({ size: 4, origin: { kind: 'code' } });
    expect(at('0x3000').origin.kind).toBe('image-backing');
    expect(at('0x3000').size).toBe((4 * 2 + 2 * 1) * 4);
    const words = await buildCapture({ ...base, program: { words: [0xbf810000] } });
    expect(words.manifest.memory.find((r) => r.origin.kind === 'code')!.blob).toBe(at('0x10000000').blob);
    expect(at('0x2000').blob).toBe(await sha256Hex(new Uint8Array([0x00, 0x3c, 0x00, 0xc0, 0x00, 0x7c, 0xff, 0xff])));
  });

  it('the CLI builds and redacts, and exits 3 with the named error on bad input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gcncap-'));
    const out = join(dir, 'a.gcncap');
    const io = fakeIo();
    expect(await captureCommand(['build', specs[0].spec, '-o', out], io)).toBe(0);
    expect(Buffer.from(readFileSync(out)).equals(readFileSync(specs[0].out))).toBe(true);
    expect(await captureCommand(['redact', out, '-o', join(dir, 'r.gcncap')], io)).toBe(0);
    const r = fakeIo();
    expect(await captureCommand(['info', join(dir, 'r.gcncap')], r)).toBe(0);
    expect(r.out).toMatch(/redacted/);
    writeFileSync(join(dir, 'bad.gcncap'), 'nope');
    const bad = fakeIo();
    expect(await captureCommand(['info', join(dir, 'bad.gcncap')], bad)).toBe(3);
    expect(bad.err).toMatch(/not-a-zip/);
    writeFileSync(
      join(dir, 'interp.yaml'),
      'target: gfx1030\nprogram: { asm: s_endpgm }\nexpected: { compute: interpreter }\n',
    );
    // The expectation comes from the interpreter: a program that writes nothing expects no ranges.
    expect(await captureCommand(['build', join(dir, 'interp.yaml'), '-o', join(dir, 'i.gcncap')], fakeIo())).toBe(0);
    const built = await readCapture(new Uint8Array(readFileSync(join(dir, 'i.gcncap'))));
    const expected = built.manifest.expected;
    expect(expected && 'source' in expected ? expected.source : undefined).toMatchObject({
      kind: 'tool',
      tool: 'gcn-webgpu interp',
    });
    expect(expected && 'memory' in expected ? expected.memory : undefined).toEqual([]);
    expect(await captureCommand(['info'], fakeIo())).toBe(3);
    expect(await captureCommand(['frobnicate', 'x'], fakeIo())).toBe(3);
  });
});

describe('pieces', () => {
  it('f16 rounding', () => {
    expect([1, -2, 65504, 65520, 2 ** -24, 2 ** -25, 0.1, NaN].map(f16Bits)).toEqual([
      0x3c00, 0xc000, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x2e66, 0x7e00,
    ]);
  });
  it('typed numbers refuse what does not fit', () => {
    expect(() => typedBytes('u8', [256], 'x')).toThrow(CaptureError);
    expect(() => typedBytes('i8', [-129], 'x')).toThrow(CaptureError);
    expect([...typedBytes('u64', ['0xffffffffffffffff'], 'x')]).toEqual(new Array(8).fill(255));
    expect([...typedBytes('f32', ['0x3f800000'], 'x')]).toEqual([0, 0, 0x80, 0x3f]);
  });
  it('a gradient image is independent of its generator: hand-computed corners', () => {
    const b = imageBytes({ format: 'rgba8_unorm', width: 4, height: 4, mips: 1, layers: 1, pattern: 'gradient' }, 'x');
    expect([...b.slice(0, 4)]).toEqual([0, 0, 0, 255]);
    expect([...b.slice(12, 16)]).toEqual([255, 0, 0, 255]);
    expect([...b.slice(60, 64)]).toEqual([255, 255, 0, 255]);
  });
  it('the schema validator refuses keywords it does not implement', () => {
    expect(() => validate({ type: 'object', anyOf: [] } as never, {})).toThrow(/anyOf/);
  });
});

describe('the other dispatch kinds', () => {
  it('a program run from registers, and a PM4 stream, round trip', async () => {
    const code = new Uint8Array([0x00, 0x00, 0x81, 0xbf]);
    const pm4 = new Uint8Array(16);
    const ch = await sha256Hex(code);
    const ph = await sha256Hex(pm4);
    const lanes = (v: number) => new Array<number>(32).fill(v);
    const program: Manifest = {
      format: 'gcncap',
      version: { major: 1, minor: 0 },
      target: { mcpu: 'gfx1030', wave64: false },
      dispatch: {
        kind: 'program',
        entry: '0x10000000',
        initial: { exec: '0xffffffff', sgprs: [1, 2, 3], vgprs: [lanes(0), lanes(7)] },
      },
      memory: [
        {
          address: '0x10000000',
          size: 4,
          blob: ch,
          access: 'read-only',
          read_bytes: 'unknown',
          origin: { kind: 'code', detail: 'an amdgpu_ps body' },
        },
      ],
      expected: {
        source: { kind: 'hardware', detail: 'an RX 6800' },
        memory: [],
        registers: { vgprs: { '1': lanes(7) }, exec: '0xffffffff' },
      },
      provenance: { recorder: 'test', notes: '' },
      redacted: false,
    };
    const read = await readCapture(await writeCapture(program, new Map([[ch, code]])));
    expect(read.manifest).toEqual(program);
    const wrongLanes = {
      ...program,
      dispatch: { ...program.dispatch, initial: { exec: '0x1', sgprs: [], vgprs: [[1]] } },
    };
    await expect(writeCapture(wrongLanes as Manifest, new Map([[ch, code]]))).rejects.toMatchObject({
      code: 'malformed-manifest',
    });
    const stream: Manifest = {
      ...program,
      dispatch: { kind: 'pm4', blob: ph, size: 16, grid: { unavailable: 'indirect, arguments not captured' } },
      expected: { unavailable: 'not recorded' },
    };
    const s = await readCapture(
      await writeCapture(
        stream,
        new Map([
          [ch, code],
          [ph, pm4],
        ]),
      ),
    );
    expect(s.manifest).toEqual(stream);
    expect(s.blob(ph)).toEqual(pm4);
  });
});
