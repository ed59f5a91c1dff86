/**
 * gfx10 wave64 shared VGPRs (RSRC3.SHARED_VGPR_CNT) on the GPU (Dawn for Node; SwiftShader without
 * a GPU): one register for lanes L and L + 32, the low half running each instruction before the
 * high half (D011's amendment). The dispatch writes shared VGPRs from a plain VALU instruction in
 * both halves (the high half reads the low half's write within the instruction), from the low
 * half only, from DPP in the high half and from ds_bpermute in the low half, then reads each back
 * in every lane; the interpreter and the translated module must give the same (hand-computed)
 * memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCapture, readCapture, writeCapture } from '../host/capture/index.ts';
import { getNodeGpu, type NodeGpu } from '../host/gpu-node.ts';
import { replayCapture } from '../interp/replay.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { replayOnGpu } from './gpu-replay.ts';

let gpu: NodeGpu;
beforeAll(async () => {
  gpu = await getNodeGpu();
});
afterAll(() => gpu?.device.destroy());

const OUT = 0x30100000;

// 16 VGPRs of the wave's own (RSRC1.VGPRS 3, 4 a granule in wave64), RSRC3.SHARED_VGPR_CNT 1: v16..v23 shared.
const ASM = `v_add_nc_u32 v16, v16, v0
  s_mov_b32 exec_hi, 0
  v_mov_b32 v17, v0
  s_mov_b32 exec_hi, -1
  v_mov_b32_dpp v18, v0 quad_perm:[0,1,2,3] row_mask:0xc bank_mask:0xf
  v_sub_nc_u32 v4, 63, v0
  v_lshlrev_b32 v4, 2, v4
  s_mov_b32 exec_hi, 0
  ds_bpermute_b32 v19, v4, v0
  s_mov_b32 exec_hi, -1
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, v16
  v_mov_b32 v6, v17
  v_mov_b32 v7, v18
  v_mov_b32 v8, v19
  v_lshlrev_b32 v9, 4, v0
  buffer_store_dwordx4 v[5:8], v9, s[0:3], 0 offen
  s_endpgm`;

/** Lane l's four words, j = l mod 32: v16 (lane j wrote j, lane j + 32 then j + (j + 32)), v17 (the low half's v0), v18 (the high half's), v19 (lane 31 - j's v0). */
function expectedWords(): number[] {
  return Array.from({ length: 64 }, (_, l) => {
    const j = l & 31;
    return [2 * j + 32, j, j + 32, 31 - j];
  }).flat();
}

async function sharedVgprCapture() {
  const words = (values: readonly number[]) => ({ type: 'u32', values: [...values] });
  const built = await buildCapture(
    {
      target: 'gfx1030',
      wave64: true,
      program: { asm: ASM },
      registers: { vgprs: 16, sgprs: 104, rsrc3: 1, rsrc2: { tgid_x_en: 1 } },
      user_data: [
        {
          buffer: {
            num_records: 64 * 16,
            dst_sel_x: 'x',
            dst_sel_y: 'y',
            dst_sel_z: 'z',
            dst_sel_w: 'w',
            format: 22,
            oob_select: 3,
            resource_level: 1,
            address: 'out',
          },
        },
      ],
      grid: [1],
      thread_group: [64],
      memory: [{ name: 'out', address: OUT, data: words(Array<number>(64 * 4).fill(0xcdcdcdcd)) }],
      expected: {
        source: { kind: 'tool', tool: 'test (worked out by hand)', revision: '0' },
        memory: [{ address: 'out', data: words(expectedWords()), compare: { kind: 'exact' } }],
      },
    },
    { readFile: () => new Uint8Array(0) },
  );
  return readCapture(await writeCapture(built.manifest, built.blobs));
}

describe('gfx10 wave64 shared VGPRs on the GPU', () => {
  it('writes in either half are read by the other, as the interpreter runs them', async () => {
    const vector = await loadVectorBridge();
    const capture = await sharedVgprCapture();
    expect(replayCapture(capture, { vector }).kind).toBe('match');
    const got = await replayOnGpu(capture, gpu.device, { vector });
    expect(got.kind).toBe('match');
  });
});
