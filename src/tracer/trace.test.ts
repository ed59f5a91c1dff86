/**
 * The texture slots (D983): every selecting image access through one table, one sampler and one
 * image shape shares a slot; another sampler or another shape is another slot; an access whose
 * T# is bound takes none. Programs are hand-written ACO waterfalls (gfx1030, wave32).
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { targetFor } from '../isa/gen.ts';
import { traceProgram } from './trace.ts';

const t = targetFor('gfx1030');

/** One waterfall over v1 = v0 & 7 selecting the T# from the table at s[4:5], around `access`. */
const waterfall = (name: string, access: string): string => `
    s_mov_b32 s20, exec_lo
  ${name}:
    v_readfirstlane_b32 s1, v1
    s_mov_b32 s3, exec_lo
    v_cmpx_eq_u32_e32 s1, v1
    s_cbranch_execz ${name}_next
    s_lshl_b32 s2, s1, 5
    s_load_dwordx8 s[8:15], s[4:5], s2
    s_waitcnt lgkmcnt(0)
    ${access}
    s_andn2_b32 s3, s3, exec_lo
    s_cbranch_scc0 ${name}_done
  ${name}_next:
    s_mov_b32 exec_lo, s3
    s_branch ${name}
  ${name}_done:
    s_mov_b32 exec_lo, s20`;

describe('texture slots', () => {
  it('group the selecting accesses by table, sampler and shape', () => {
    const flat = 'dim:SQ_RSRC_IMG_2D';
    const source = [
      'v_and_b32_e32 v1, 7, v0',
      // Two samplers built in place: A in s[16:19], B in s[24:27].
      's_movk_i32 s16, 0x92',
      's_bfm_b32 s17, 4, 20',
      's_mov_b64 s[18:19], 0x4000000',
      's_movk_i32 s24, 0x92',
      's_bfm_b32 s25, 4, 20',
      's_mov_b64 s[26:27], 0x4500000',
      waterfall('a', `image_sample v[4:7], v[2:3], s[8:15], s[16:19] dmask:0xf ${flat}`),
      waterfall('b', `image_sample_lz v[4:7], v[2:3], s[8:15], s[16:19] dmask:0xf ${flat}`),
      waterfall('c', `image_sample v[4:7], v[2:3], s[8:15], s[24:27] dmask:0xf ${flat}`),
      waterfall('d', 'image_sample v[4:7], v[2:4], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_CUBE'),
      `image_sample v[4:7], v[2:3], s[32:39], s[16:19] dmask:0xf ${flat}`,
      's_endpgm',
    ].join('\n');
    const r = traceProgram(t, assembleProgram(t, source).words);
    const samples = r.accesses.filter((x) => x.kind === 'image');
    expect(samples.map((a) => a.classification)).toEqual(['selected', 'selected', 'selected', 'selected', 'untraced']);
    expect(samples.map((a) => a.slot)).toEqual([0, 0, 1, 2, undefined]);
    const table = '[user_data[4], user_data[5]] + 0x0 + 32 * (7 & v0@entry)';
    const samplerA = 'constant 0x92; constant 0xf00000; constant 0x4000000; constant 0x0';
    expect(r.slots).toEqual([
      { id: 0, table, sampler: samplerA, shape: 'flat', accesses: [samples[0].at, samples[1].at] },
      {
        id: 1,
        table,
        sampler: 'constant 0x92; constant 0xf00000; constant 0x4500000; constant 0x0',
        shape: 'flat',
        accesses: [samples[2].at],
      },
      { id: 2, table, sampler: samplerA, shape: 'cube', accesses: [samples[3].at] },
    ]);
  });
});
