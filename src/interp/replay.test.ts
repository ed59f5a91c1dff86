/**
 * `gcn-webgpu replay --engine interp` on the three public captures, and its exit codes (D009).
 * The buffer copy matches (exit 0). The other two use instructions the interpreter does not
 * run yet (buffer_load_format_x; image_sample), so each asserts its exact refusal (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../cli/replay-command.ts';

function io(): {
  out: string[];
  err: string[];
  io: { stdout(s: string): void; stderr(s: string): void; stdin(): string };
} {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), stdin: () => '' } };
}

const capture = (name: string): string => `public/captures/${name}.gcncap`;

describe('replay --engine interp', () => {
  it('matches the gfx1030 buffer copy (exit 0)', async () => {
    const t = io();
    expect(await replayCommand(['--engine', 'interp', capture('gfx1030-buffer-copy'), '--json'], t.io)).toBe(0);
    const j = JSON.parse(t.out.join('')) as Record<string, unknown>;
    expect(j).toMatchObject({
      result: 'match',
      groups: 2,
      waves: 2,
      steps: 14,
      bytes_compared: 256,
      mismatch_count: 0,
    });
  });

  it('refuses the gfx7 V# format load by name: buffer_load_format_x has no semantics yet (exit 2)', async () => {
    const t = io();
    expect(await replayCommand(['--engine', 'interp', capture('gfx7-vsharp-format-load')], t.io)).toBe(2);
    expect(t.out.join('')).toBe(
      'public/captures/gfx7-vsharp-format-load.gcncap: refused: 0x10000000: buffer_load_format_x: only the raw dword MUBUF loads and stores are interpreted (no format, byte, short or atomic forms)\n',
    );
  });

  it('refuses the gfx1030 image sample by name: MIMG is not interpreted yet (exit 2)', async () => {
    const t = io();
    expect(await replayCommand(['--engine', 'interp', capture('gfx1030-image-sample'), '--json'], t.io)).toBe(2);
    expect(JSON.parse(t.out.join(''))).toMatchObject({
      result: 'refused',
      reason: '0x10000018: image_sample: the MIMG family is not interpreted yet',
    });
  });

  it('exits 2 for the GPU engine and 3 for invalid input or usage', async () => {
    const t = io();
    expect(await replayCommand(['--engine', 'gpu', capture('gfx1030-buffer-copy')], t.io)).toBe(2);
    expect(t.out.join('')).toContain('the GPU engine is not available yet');
    expect(await replayCommand(['--engine', 'interp', 'package.json'], io().io)).toBe(3);
    expect(await replayCommand(['--engine', 'interp', 'no-such-file.gcncap'], io().io)).toBe(3);
    expect(await replayCommand([], io().io)).toBe(3);
    expect(await replayCommand(['--engine', 'webgl', capture('gfx1030-buffer-copy')], io().io)).toBe(3);
  });
});
