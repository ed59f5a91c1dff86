/**
 * `expected: {compute: interpreter}` (issue 4): `capture build` runs the reference interpreter
 * and writes its result as the expectation; `replay --write-expected` does the same for a copy
 * of a capture. The expected bytes are checked against the kernel's algorithm written out
 * here in plain TypeScript, and the public captures are left as they are.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCommand } from '../../src/cli/capture-command.ts';
import { replayCommand } from '../../src/cli/replay-command.ts';
import { INTERP_TOOL } from '../../src/cli/expected-by-interpreter.ts';
import { isUnavailable, readCapture, type Capture, type Expected } from '../../src/host/capture/index.ts';

function fakeIo(): { out: string; err: string; stdout(s: string): void; stderr(s: string): void; stdin(): string } {
  const io = {
    out: '',
    err: '',
    stdout: (s: string) => void (io.out += s),
    stderr: (s: string) => void (io.err += s),
    stdin: () => '',
  };
  return io;
}

const GROUPS = 4;
const LANES = 32;
const K = 2;
const SRC = Array.from({ length: GROUPS * LANES }, (_, i) => (Math.imul(i + 1, 0x9e3779b1) ^ 0x5a5a5a5a) >>> 0);
const DST_WORDS = (GROUPS + 1) * LANES;

/** The kernel, in TypeScript: group g copies its 32 dwords to block (g ^ k) & 3 of dst. */
function expectedDst(): Uint8Array {
  const dst = new Uint32Array(DST_WORDS).fill(0xcdcdcdcd);
  for (let g = 0; g < GROUPS; g++)
    for (let lane = 0; lane < LANES; lane++) dst[((g ^ K) & 3) * LANES + lane] = SRC[g * LANES + lane];
  // The dispatch writes the first four blocks; the fifth is never touched, so is not expected.
  return new Uint8Array(dst.buffer, 0, GROUPS * LANES * 4);
}

const vsharp = (name: string, address: string, records: number): string => `
        - buffer:
            name: ${name}
            address: ${address}
            stride: 4
            num_records: ${records}
            add_tid_enable: 1
            format: 22
            dst_sel_x: x
            dst_sel_y: y
            dst_sel_z: z
            dst_sel_w: w
            resource_level: 1
            oob_select: 1`;

/** A gfx1030 wave32 scalar + buffer kernel: scalar loads, scalar arithmetic, a buffer copy. */
function permuteSpec(expected: string): string {
  return `target: gfx1030
wave64: false
program:
  asm: |
    s_load_dwordx8 s[4:11], s[0:1], 0x0
    s_load_dword s12, s[0:1], 0x20
    s_lshl_b32 s13, s2, 7
    s_waitcnt lgkmcnt(0)
    s_xor_b32 s14, s2, s12
    s_and_b32 s14, s14, 3
    s_lshl_b32 s14, s14, 7
    buffer_load_dword v1, off, s[4:7], s13
    s_waitcnt vmcnt(0)
    buffer_store_dword v1, off, s[8:11], s14
    s_endpgm
registers: { vgprs: 8, sgprs: 16, rsrc2: { tgid_x_en: 1 } }
user_data:
  - pointer: table
grid: [${GROUPS}, 1, 1]
thread_group: [${LANES}, 1, 1]
memory:
  - name: table
    address: 0x20000000
    data:
      - descriptors:${vsharp('source', 'src', GROUPS * LANES)}${vsharp('destination', 'dst', DST_WORDS)}
      - { type: u32, values: [${K}, 0] }
  - name: src
    address: 0x30000000
    data: { type: u32, values: [${SRC.join(', ')}] }
  - name: dst
    address: 0x30010000
    data: { fill: 0xcd, size: ${DST_WORDS * 4} }
expected: ${expected}
`;
}

/** A program reading memory no range holds: the interpreter refuses (a guest fault), it does not guess. */
const FAULT_SPEC = `target: gfx1030
program:
  asm: |
    s_load_dword s4, s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_endpgm
user_data: [0x40000000, 0]
memory:
  - { name: out, address: 0x1000, data: { zeros: 16 } }
expected: { compute: interpreter }
`;

const publicDir = 'public/captures';
const hashes = (): Record<string, string> =>
  Object.fromEntries(
    readdirSync(publicDir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(publicDir, f)))
        .digest('hex'),
    ]),
  );

let dir = '';
let publicBefore: Record<string, string> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcn-expected-'));
  publicBefore = hashes();
});
afterAll(() => {
  expect(hashes()).toEqual(publicBefore);
  rmSync(dir, { recursive: true, force: true });
});

async function build(
  name: string,
  text: string,
  extra: string[] = [],
): Promise<{ rc: number; io: ReturnType<typeof fakeIo>; out: string }> {
  writeFileSync(join(dir, `${name}.yaml`), text);
  const out = join(dir, `${name}.gcncap`);
  const io = fakeIo();
  const rc = await captureCommand(['build', join(dir, `${name}.yaml`), '-o', out, ...extra], io);
  return { rc, io, out };
}

const expectedOf = (c: Capture): Expected => {
  if (isUnavailable(c.manifest.expected)) throw new Error(`unavailable: ${c.manifest.expected.unavailable}`);
  return c.manifest.expected;
};

describe('capture build with expected: {compute: interpreter}', () => {
  it('writes the interpreter result, equal to the kernel computed here, and replays to exit 0', async () => {
    const b = await build('permute', permuteSpec('{ compute: interpreter }'));
    expect(b.io.err).toBe('');
    expect(b.rc).toBe(0);
    const c = await readCapture(readFileSync(b.out));
    const e = expectedOf(c);
    expect(e.source).toMatchObject({ kind: 'tool', tool: INTERP_TOOL });
    expect(e.source.kind === 'tool' && e.source.revision).toMatch(/^\d+\.\d+\.\d+/);
    expect(e.memory).toHaveLength(1);
    expect(e.memory[0]).toMatchObject({ address: '0x30010000', size: 512, compare: { kind: 'exact' } });
    expect([...c.blob(e.memory[0].blob as string)]).toEqual([...expectedDst()]);
    expect(c.manifest.memory.find((r) => r.address === '0x30010000')?.access).toBe('written');
    expect(c.manifest.memory.find((r) => r.address === '0x30000000')?.access).toBe('read-only');

    const r = fakeIo();
    expect(await replayCommand(['--engine', 'interp', b.out, '--json'], r)).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ result: 'match', groups: 4, bytes_compared: 512 });
  });

  it('keeps a tolerance the spec gives', async () => {
    const b = await build(
      'ulp',
      permuteSpec('{ compute: interpreter, compare: { kind: ulp, element: f32, ulps: 2 } }'),
    );
    expect(b.rc).toBe(0);
    const e = expectedOf(await readCapture(readFileSync(b.out)));
    expect(e.memory[0].compare).toEqual({ kind: 'ulp', element: 'f32', ulps: 2 });
    expect((await build('bad-compare', permuteSpec('{ compute: interpreter, compare: { kind: close } }'))).rc).toBe(3);
  });

  it('exits 2 with the reason where the interpreter refuses, and writes nothing', async () => {
    const b = await build('fault', FAULT_SPEC);
    expect(b.rc).toBe(2);
    expect(b.io.err).toMatch(/the interpreter refused, no capture written: guest fault: read of 4 bytes at 0x40000000/);
    expect(b.io.err).toContain('no captured range holds this address');
    expect(existsSync(b.out)).toBe(false);
  });

  it('with --allow-unavailable records the refusal as unavailable, claiming no expectation', async () => {
    const b = await build('fault-allowed', FAULT_SPEC, ['--allow-unavailable']);
    expect(b.rc).toBe(0);
    const c = await readCapture(readFileSync(b.out));
    expect(c.manifest.expected).toMatchObject({ requested: 'interpreter' });
    expect(isUnavailable(c.manifest.expected) && c.manifest.expected.unavailable).toMatch(
      /^interpreter refused: guest fault/,
    );
    expect(await replayCommand(['--engine', 'interp', b.out], fakeIo())).toBe(2);
  });
});

describe('replay --write-expected', () => {
  it('writes the interpreter result into a copy; the public capture is not changed', async () => {
    const file = join(publicDir, 'gfx1030-buffer-copy.gcncap');
    const before = readFileSync(file);
    const out = join(dir, 'copy.gcncap');
    const io = fakeIo();
    expect(await replayCommand(['--engine', 'interp', '--write-expected', out, file], io)).toBe(0);
    expect(io.out).toMatch(/expected result from the interpreter .*: 1 ranges, 256 bytes/);
    expect(Buffer.compare(readFileSync(file), before)).toBe(0);
    const old = await readCapture(before);
    const copy = await readCapture(readFileSync(out));
    const [o, n] = [expectedOf(old).memory[0], expectedOf(copy).memory[0]];
    expect(n).toMatchObject({ address: o.address, size: o.size, compare: o.compare });
    expect([...copy.blob(n.blob as string)]).toEqual([...old.blob(o.blob as string)]);
    expect(expectedOf(copy).source).toMatchObject({ kind: 'tool', tool: INTERP_TOOL });
    expect(copy.manifest.memory).toEqual(old.manifest.memory);
    expect(await replayCommand(['--engine', 'interp', out], fakeIo())).toBe(0);
  });

  it('exits 2 where the interpreter refuses, 3 where the copy would overwrite its source', async () => {
    const b = await build('fault-for-replay', FAULT_SPEC, ['--allow-unavailable']);
    const out = join(dir, 'never.gcncap');
    const io = fakeIo();
    expect(await replayCommand(['--engine', 'interp', '--write-expected', out, b.out], io)).toBe(2);
    expect(io.out).toContain('refused: guest fault');
    expect(existsSync(out)).toBe(false);
    expect(await replayCommand(['--engine', 'interp', '--write-expected', b.out, b.out], fakeIo())).toBe(3);
  });
});
