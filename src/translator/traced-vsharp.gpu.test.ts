/**
 * A V# the program loads from memory is translated with the words the tracer reads from the
 * capture (memory-ops.ts `vsharp`), so the access's address rules fold; the module checks the
 * registers at the access, and a dispatch that changed the descriptor before loading it is
 * refused by name on the GPU, never replayed through the capture's old words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCapture, readCapture, writeCapture, type Capture } from '../host/capture/index.ts';
import { getNodeGpu, type NodeGpu } from '../host/gpu-node.ts';
import { replayCapture } from '../interp/replay.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { replayOnGpu, translateCapture } from './gpu-replay.ts';
import { FAULT } from './wgsl/runtime.ts';

async function captureOf(spec: Record<string, unknown>): Promise<Capture> {
  const built = await buildCapture(spec, { readFile: () => new Uint8Array(0) });
  return readCapture(await writeCapture(built.manifest, built.blobs));
}

const rawBuffer = (name: string, address: string, bytes: number): Record<string, unknown> => ({
  buffer: {
    name,
    address,
    stride: 0,
    num_records: bytes,
    format: 22,
    dst_sel_x: 'x',
    dst_sel_y: 'y',
    dst_sel_z: 'z',
    dst_sel_w: 'w',
    resource_level: 1,
    oob_select: 3,
  },
});

/** s[0:1] points at two V#s: the table itself, and the destination. */
function tableSpec(program: string, expected: unknown): Record<string, unknown> {
  return {
    target: 'gfx1030',
    wave64: false,
    program: { address: 0x10000000, asm: program },
    registers: { vgprs: 8, sgprs: 16 },
    user_data: [{ pointer: 'table' }],
    thread_group: [32],
    memory: [
      {
        name: 'table',
        address: 0x20000000,
        data: { descriptors: [rawBuffer('table', 'table', 32), rawBuffer('destination', 'dst', 512)] },
      },
      { name: 'dst', address: 0x30010000, data: { zeros: 512 } },
    ],
    expected: { source: { kind: 'tool', tool: 'test', revision: '0' }, memory: [{ address: 'dst', data: expected }] },
  };
}

const STORE_LANES = ['v_lshlrev_b32 v3, 2, v0', 'buffer_store_dword v0, v3, s[8:11], 0 offen', 's_endpgm'];
const LANE_WORDS = { type: 'u32', values: Array.from({ length: 32 }, (_, i) => i) };

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

describe('a V# loaded from memory, through the trace', () => {
  it('folds the access with the traced words, checks them in the module, and matches', async () => {
    const c = await captureOf(
      tableSpec(['s_load_dwordx4 s[8:11], s[0:1], 0x10', 's_waitcnt lgkmcnt(0)', ...STORE_LANES].join('\n'), [
        LANE_WORDS,
        { zeros: 384 },
      ]),
    );
    const vector = await loadVectorBridge();
    const t = translateCapture(c, undefined, { vector });
    if (!('translation' in t)) throw new Error(`not translated: ${t.reason}`);
    // The check of the registers against the traced words is in the module.
    expect(t.translation.wgsl).toContain(`pf_code = ${FAULT.tracedDescriptor}u;`);
    expect(replayCapture(c, { vector }).kind).toBe('match');
    expect((await replayOnGpu(c, gpu.device, { vector })).kind).toBe('match');
  });

  it('refuses by name a dispatch that changed the descriptor before loading it', async () => {
    // The program moves the destination's base 0x100 bytes on (a store into the table) and then
    // loads the V#: the interpreter follows the new words, the translation's traced ones differ.
    const program = [
      's_load_dwordx4 s[4:7], s[0:1], 0x0',
      's_waitcnt lgkmcnt(0)',
      'v_mov_b32 v1, 0x30010100',
      'v_mov_b32 v2, 16',
      'buffer_store_dword v1, v2, s[4:7], 0 offen',
      's_waitcnt vmcnt(0)',
      's_load_dwordx4 s[8:11], s[0:1], 0x10',
      's_waitcnt lgkmcnt(0)',
      ...STORE_LANES,
    ].join('\n');
    const c = await captureOf(tableSpec(program, [{ zeros: 256 }, LANE_WORDS, { zeros: 128 }]));
    const vector = await loadVectorBridge();
    expect(replayCapture(c, { vector }).kind).toBe('match');
    const got = await replayOnGpu(c, gpu.device, { vector });
    expect(got.kind).toBe('refused');
    expect(got.kind === 'refused' ? got.reason : '').toMatch(
      // 0x34: the last buffer_store_dword, through the reloaded V#.
      /^the buffer access at 0x10000034 read s\[8:11\] holding other words than the V# it was translated with/,
    );
  });
});
