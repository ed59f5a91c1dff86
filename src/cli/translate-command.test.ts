/**
 * `gcn-webgpu translate --emit wgsl|spirv|spirv-text` on the CPU (no device): the binary
 * passes spirv-val and is the same module the text shows, a binary is never printed to a
 * terminal, a refusal is exit 2 with its reason, a module the SPIR-V reader cannot read is
 * exit 1 naming the construct as a translator bug, and bad usage is exit 3.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCapture, writeCapture } from '../host/capture/index.ts';
import { spirvText } from '../translator/spirv/disassemble.ts';
import { validateSpirv } from '../translator/spirv/validate.ts';
import { UnsupportedWgsl } from '../translator/spirv/wgsl-reader/index.ts';
import { translateCommand, type TranslateIo } from './translate-command.ts';

const capture = (name: string): string => `public/captures/${name}.gcncap`;
const dir = mkdtempSync(join(tmpdir(), 'gcn-translate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(terminal = false): { out: string[]; err: string[]; bytes: Uint8Array[]; io: TranslateIo } {
  const out: string[] = [];
  const err: string[] = [];
  const bytes: Uint8Array[] = [];
  return {
    out,
    err,
    bytes,
    io: {
      stdout: (s) => void out.push(s),
      stderr: (s) => void err.push(s),
      stdoutBytes: (b) => void bytes.push(b),
      stdoutIsTerminal: () => terminal,
    },
  };
}

describe('translate --emit spirv|spirv-text', () => {
  it('writes a binary that passes spirv-val, and its disassembly as text', async () => {
    const file = join(dir, 'copy.spv');
    const t = io();
    expect(await translateCommand([capture('gfx1030-buffer-copy'), '--emit', 'spirv', '-o', file], t.io)).toBe(0);
    const bytes = readFileSync(file);
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    expect(words[0]).toBe(0x07230203);
    expect(validateSpirv(words, 'vulkan1.2')).toEqual({ ok: true, messages: '' });

    const text = io();
    expect(await translateCommand([capture('gfx1030-buffer-copy'), '--emit', 'spirv-text'], text.io)).toBe(0);
    expect(text.out.join('')).toBe(await spirvText(words));
    expect(text.out.join('')).toContain('OpEntryPoint GLCompute %main "main"');
  });

  it('prints the binary to a redirected stdout, and refuses a terminal without -o', async () => {
    const piped = io(false);
    expect(await translateCommand([capture('gfx7-vsharp-format-load'), '--emit', 'spirv'], piped.io)).toBe(0);
    expect(piped.bytes).toHaveLength(1);
    expect(new Uint32Array(piped.bytes[0]!.slice().buffer)[0]).toBe(0x07230203);
    const tty = io(true);
    expect(await translateCommand([capture('gfx7-vsharp-format-load'), '--emit', 'spirv'], tty.io)).toBe(3);
    expect(tty.err.join('')).toContain('give -o OUT.spv');
    expect(tty.bytes).toHaveLength(0);
  });

  it('a refusal is exit 2 with the reason, as for wgsl', async () => {
    // ds_permute (a scatter to other lanes) is refused by the translator (D011).
    const built = await buildCapture(
      {
        target: 'gfx900',
        program: { asm: 'ds_permute_b32 v1, v0, v2\ns_waitcnt lgkmcnt(0)\ns_endpgm' },
        thread_group: [64],
        memory: [{ name: 'm', address: 0x30000000, data: { zeros: 16 } }],
        expected: {
          source: { kind: 'tool', tool: 'test', revision: '0' },
          memory: [{ address: 'm', data: { zeros: 16 } }],
        },
      },
      { readFile: () => new Uint8Array(0) },
    );
    const file = join(dir, 'permute.gcncap');
    writeFileSync(file, await writeCapture(built.manifest, built.blobs));
    const t = io();
    expect(await translateCommand([file, '--emit', 'spirv-text'], t.io)).toBe(2);
    expect(t.err.join('')).toContain('refused: 0x10000000: ds_permute_b32');
    expect(t.out).toEqual([]);
  });

  it('a module the reader cannot read is exit 1: a translator bug, naming the construct', async () => {
    const t = io();
    const refusing = {
      spirvFromWgsl: (): Uint32Array => {
        throw new UnsupportedWgsl("the statement 'discard'", { line: 12, column: 3 });
      },
    };
    expect(
      await translateCommand(
        [capture('gfx1030-buffer-copy'), '--emit', 'spirv', '-o', join(dir, 'x.spv')],
        t.io,
        refusing,
      ),
    ).toBe(1);
    expect(t.err.join('')).toMatch(/translator bug: .* 12:3: unsupported WGSL: the statement 'discard'/);
  });

  it('bad usage is exit 3', async () => {
    for (const argv of [
      [capture('gfx1030-buffer-copy')],
      [capture('gfx1030-buffer-copy'), '--emit', 'glsl'],
      ['--emit', 'spirv'],
    ]) {
      const t = io();
      expect(await translateCommand(argv, t.io)).toBe(3);
      expect(t.err.join('')).toContain('usage: gcn-webgpu translate');
    }
  });
});
