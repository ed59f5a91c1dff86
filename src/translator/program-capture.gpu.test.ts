/**
 * Program captures (registers in, registers out) on a real device (Dawn for Node; SwiftShader
 * without a GPU): the module starts its one wave from the capture's SGPRs, VGPRs and EXEC, and the
 * registers it ends with come back and are compared as the interpreter compares them
 * (`compareWithExpected` on a wave). The program divides the wave with a lane-mask write
 * (v_cmp to VCC, s_and_saveexec), so a wrong EXEC, VCC or per-lane register shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCapture, readCapture, writeCapture, type Capture } from '../host/capture/index.ts';
import { getNodeGpu, type NodeGpu } from '../host/gpu-node.ts';
import { replayCapture } from '../interp/replay.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { replayOnGpu } from './gpu-replay.ts';

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

interface Case {
  readonly target: string;
  readonly wave64: boolean;
  readonly asm: string;
  /** Byte offset where the program returns (no s_endpgm), or none. */
  readonly end?: number;
}

const CASES: readonly Case[] = [
  {
    target: 'gfx1030',
    wave64: false,
    asm: [
      'v_add_nc_u32 v0, v0, v1',
      'v_cmp_gt_u32 vcc_lo, 5, v0',
      's_mov_b32 s0, 7',
      's_and_saveexec_b32 s2, vcc_lo',
      'v_mov_b32 v1, 0',
      's_mov_b32 exec_lo, s2',
      's_endpgm',
    ].join('\n'),
  },
  {
    target: 'gfx900',
    wave64: true,
    asm: [
      'v_add_u32 v0, v0, v1',
      'v_cmp_gt_u32 vcc, 5, v0',
      's_mov_b32 s0, 7',
      's_and_saveexec_b64 s[2:3], vcc',
      'v_mov_b32 v1, 0',
      's_mov_b64 exec, s[2:3]',
    ].join('\n'),
    end: 24,
  },
];

/** EXEC at the start: every lane but 2 and 3 (which keep their registers through the program). */
const startExec = (lanes: number): bigint => (2n ** BigInt(lanes) - 1n) & ~0xcn;

/**
 * What the program leaves, worked out by hand: v0 = v0 + v1 in the active lanes; VCC = active
 * lanes with v0 < 5; s2 the old EXEC; v1 = 0 where VCC is set; EXEC back to its start.
 */
function expectedRegisters(lanes: number, v1: readonly number[]) {
  const exec = startExec(lanes);
  const active = (l: number): boolean => ((exec >> BigInt(l)) & 1n) === 1n;
  const v0 = Array.from({ length: lanes }, (_, l) => (active(l) ? (l + v1[l]!) >>> 0 : l));
  const vcc = (l: number): boolean => active(l) && v0[l]! < 5;
  const sgprs: Record<string, number> = { 0: 7, 2: Number(exec & 0xffffffffn) };
  if (lanes === 64) sgprs[3] = Number(exec >> 32n);
  return {
    sgprs,
    vgprs: { 0: v0, 1: v1.map((x, l) => (vcc(l) ? 0 : x)) },
    exec: `0x${exec.toString(16)}`,
  };
}

async function programCapture(c: Case, corrupt = false): Promise<Capture> {
  const lanes = c.wave64 ? 64 : 32;
  // High lanes of a wave64 add -32, so lanes 32..36 fall below 5 too (VCC's high word).
  const v1 = Array.from({ length: lanes }, (_, l) => (l < 32 ? 1 : 0xffffffe0));
  const registers = expectedRegisters(lanes, v1);
  if (corrupt) registers.vgprs[0][5] = (registers.vgprs[0][5]! + 1) >>> 0;
  const built = await buildCapture(
    {
      target: c.target,
      ...(c.wave64 ? { wave64: true } : {}),
      program: { asm: c.asm },
      invocation: {
        ...(c.end !== undefined ? { end: c.end } : {}),
        exec: `0x${startExec(lanes).toString(16)}`,
        sgprs: [0x11111111, 0x22222222, 0x33333333, 0x44444444],
        vgprs: [Array.from({ length: lanes }, (_, l) => l), v1],
      },
      memory: [],
      expected: { source: { kind: 'tool', tool: 'test', revision: '0' }, memory: [], registers },
    },
    { readFile: () => new Uint8Array(0) },
  );
  return readCapture(await writeCapture(built.manifest, built.blobs));
}

describe('program captures on the GPU', () => {
  for (const c of CASES)
    it(`${c.target}${c.wave64 ? ' wave64' : ''}: the registers out match, as in the interpreter`, async () => {
      const vector = await loadVectorBridge();
      const capture = await programCapture(c);
      expect(replayCapture(capture, { vector }).kind).toBe('match');
      const got = await replayOnGpu(capture, gpu.device, { vector });
      expect(got).toMatchObject({ kind: 'match', run: { steps: c.end === undefined ? 7 : 6, groups: 1, waves: 1 } });
    });

  it('reports a register that differs as the interpreter does (same mismatches)', async () => {
    const vector = await loadVectorBridge();
    for (const c of CASES) {
      const capture = await programCapture(c, true);
      const want = replayCapture(capture, { vector });
      const got = await replayOnGpu(capture, gpu.device, { vector });
      expect(want.kind).toBe('mismatch');
      expect(got.kind).toBe('mismatch');
      if (want.kind !== 'mismatch' || got.kind !== 'mismatch') return;
      expect(got.compare.mismatches).toEqual(want.compare.mismatches);
      expect(got.compare.mismatches).toMatchObject([{ type: 'register', where: 'v0[lane 5]' }]);
    }
  });
});
