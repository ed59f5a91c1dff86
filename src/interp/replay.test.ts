/**
 * `gcn-webgpu replay --engine interp` on the three public captures, and its exit codes (D009).
 * The buffer copy and the gfx7 V# format load match (exit 0).
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

  it('matches the gfx7 V# format load: 8-bit UNORM through buffer_load_format_x (exit 0)', async () => {
    const t = io();
    expect(await replayCommand(['--engine', 'interp', capture('gfx7-vsharp-format-load'), '--json'], t.io)).toBe(0);
    expect(JSON.parse(t.out.join(''))).toMatchObject({ result: 'match', steps: 4, mismatch_count: 0 });
  });

  it('replays the gfx1030 image sample to a match (exit 0)', async () => {
    const t = io();
    expect(await replayCommand(['--engine', 'interp', capture('gfx1030-image-sample'), '--json'], t.io)).toBe(0);
    expect(JSON.parse(t.out.join(''))).toMatchObject({ result: 'match' });
  });

  // The GPU engine's exit codes: src/translator/gpu-replay.gpu.test.ts.
  it('exits 3 for invalid input or usage', async () => {
    expect(await replayCommand(['--engine', 'interp', 'package.json'], io().io)).toBe(3);
    expect(await replayCommand(['--engine', 'interp', 'no-such-file.gcncap'], io().io)).toBe(3);
    expect(await replayCommand([], io().io)).toBe(3);
    expect(await replayCommand(['--engine', 'webgl', capture('gfx1030-buffer-copy')], io().io)).toBe(3);
  });
});
