/**
 * MIMG (image) family: data-line tests of decode, print and assemble per generation.
 * Every expected text and encoding is llvm-mc-19's (gfx7 from assembling with
 * -mcpu=bonaire, as LLVM 19 cannot disassemble it).
 */
import { describe, expect, it } from 'vitest';
import { targetFor } from '../../src/isa/gen.ts';
import { disassembleOne, hexToBytes } from '../../src/isa/disasm.ts';
import { assembleLine } from '../../src/isa/asm.ts';
import { DecodeError } from '../../src/isa/errors.ts';

const CPU: Record<string, string> = {
  gfx7: 'bonaire',
  gfx8: 'tonga',
  gfx9: 'gfx900',
  'gfx10.1': 'gfx1010',
  'gfx10.3': 'gfx1030',
  gfx11: 'gfx1100',
};

/**
 * gen | hex (memory order) | text, '<invalid>' where LLVM rejects the bytes, or
 * '<truncated>' where a dword (gfx10/11 NSA address dwords included) is missing.
 * Edge cases: d16 packed (gfx9+) and unpacked (gfx8), tfe, dmask 0, gather4's fixed four
 * dwords, ranges past v255 (LLVM keeps the default width, or rejects when even that does
 * not fit), atomics (LLVM's five-register dmask:0xf quirk), NSA sizes and LLVM's double
 * space for NSA samplers, gfx11 partial NSA, BVH, reserved fields.
 */
const DISASM = `
gfx7|004fa0f002014100|image_sample_c v[1:4], v[2:3], s[4:11], s[8:11] dmask:0xf da
gfx7|000349f00a040200|image_atomic_sub v[4:6], v10, s[8:15] dmask:0x3 tfe
gfx7|000100f0|<truncated>
gfx8|000100f001050280|image_load v5, v1, s[8:15] dmask:0x1 d16
gfx8|000f00f001050280|image_load v[5:8], v1, s[8:15] dmask:0xf d16
gfx8|000f48f001050200|image_atomic_add v[5:9], v1, s[8:15] dmask:0xf
gfx8|000f44f001050200|image_atomic_cmpswap v[5:8], v1, s[8:15] dmask:0xf
gfx8|526113f13e22818b|image_gather4_l v[34:38], v62, s[4:11], ttmp[0:3] dmask:0x1 glc tfe lwe da d16
gfx8|00020cf000204000|<invalid>
gfx8|010100f000000000|<invalid>
gfx8|001700f000fe0000|image_load v254, v0, s[0:7] dmask:0x7 unorm
gfx8|00e00cf000001e00|image_load_pck_sgn v0, v0, ttmp[8:15] glc r128 da
gfx9|000f00f001050280|image_load v[5:6], v1, s[8:15] dmask:0xf d16
gfx9|008180f001050200|image_sample v5, v1, s[8:15], s[0:3] dmask:0x1 a16
gfx9|526113f13e22818b|image_gather4_l v[34:37], v62, s[4:11], ttmp[4:7] dmask:0x1 glc tfe lwe da d16
gfx9|000054f002211094|<invalid>
gfx9|004646f300fe9717|<invalid>
gfx9|0000bcf100000000|image_sample_c_cd_cl_o v0, v[0:3], s[0:7], s[0:3]
gfx10.1|0101a8f000000000|image_sample_c_d_g16 v0, v[0:3], s[0:7], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_1D
gfx10.1|382cbef30014d2dc|image_sample_c_cd_cl_o v20, v[0:8], s[72:79], s[24:27] dmask:0xc dim:SQ_RSRC_IMG_2D_MSAA_ARRAY glc slc a16 lwe d16
gfx10.1|0a0f84f008101880090a0b0c|image_sample_cl  v[16:17], [v8, v9, v10], s[96:103], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D d16
gfx10.1|120fa8f008102503|<truncated>
gfx10.3|0a0f84f008101880090a0b0c|image_sample_cl  v[16:17], [v8, v9, v10], s[96:103], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D d16
gfx10.3|0a0f84f008101880|<truncated>
gfx10.3|019f98f109040140|image_bvh_intersect_ray v[4:7], v[9:16], s[4:7] a16
gfx10.3|079f98f1322703002e1711100f15141325280000|image_bvh_intersect_ray v[39:42], [v50, v46, v23, v17, v16, v15, v21, v20, v19, v37, v40], s[12:15]
gfx10.3|080f01f008101880|image_load v[16:18], v[8:9], s[96:103] dmask:0xf dim:SQ_RSRC_IMG_2D tfe d16
gfx10.3|080000f008101800|image_load v16, v[8:9], s[96:103] dim:SQ_RSRC_IMG_2D
gfx10.3|040180f0000000000102030405060708|<invalid>
gfx10.3|020100f00000000001020304|image_load v0, [v0, v1, v2, v3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D
gfx10.3|3a0104f00000000001020304|image_load_mip v0, [v0, v1, v2, v3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY
gfx10.3|083b3cf2799d1500|image_atomic_swap v157, v121, s[84:91] dmask:0xb dim:SQ_RSRC_IMG_2D unorm glc slc
gfx10.3|390300f001050200|image_msaa_load v[5:6], v[1:4], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY
gfx10.3|100f80f000fe0000|image_sample v254, v0, s[0:7], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_3D
gfx11|050870f02040010410080024|image_sample_d  v64, [v32, v16, v8, v0, v[36:37]], s[4:11], s[4:7] dmask:0x8 dim:SQ_RSRC_IMG_2D
gfx11|818f64f00000000001020304|image_bvh_intersect_ray v[0:3], [v0, v1, v[2:4], v[3:5], v[4:6]], s[0:3]
gfx11|000160f000000000|image_msaa_load v[0:3], v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D
gfx11|2233b2f091c8df07|image_sample_c_l_o v200, v[145:148], null, s[4:7] dmask:0x3 dim:SQ_RSRC_IMG_1D slc dlc lwe d16
gfx11|3dba6ef0efbd4fec21d60cae|image_sample  v189, [v239, v33, v214], s[60:67], ttmp[0:3] dmask:0xa dim:SQ_RSRC_IMG_2D_MSAA_ARRAY slc dlc r128 lwe d16
gfx11|808f65f0f8fc1e00|image_bvh_intersect_ray v[252:255], v[248:255], ttmp[12:15] a16
gfx11|00c85ff038585001|<invalid>
gfx11|010100f00000000001020304|image_load v0, [v0, v1, v2, v3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D
gfx11|010100f000000000|<truncated>
`;

/** gen | assembly | hex, or '<error>' where llvm-mc-19 rejects the line. */
const ASM = `
gfx7|image_sample_c v[1:4], v[2:3], s[4:11], s[8:11] dmask:0xf da|004fa0f002014100
gfx7|image_load v5, v1, s[8:15] dmask:0x1 d16|<error>
gfx7|image_atomic_cmpswap v[4:6], v[192:195], s[28:35] dmask:0x3 tfe|000341f0c0040700
gfx8|image_load v[5:8], v1, s[8:15] dmask:0xf d16|000f00f001050280
gfx8|image_gather4 v[5:8], v1, s[8:15], s[12:15] dmask:0x3|<error>
gfx8|image_sample_b_cl v5, v[1:8], s[8:15], s[12:15] dmask:0x1|000198f001056200
gfx9|image_load v[5:6], v1, s[8:15] dmask:0xf d16|000f00f001050280
gfx9|image_load v5, v1, s[8:15] dmask:0x1 r128|<error>
gfx9|image_sample v[0:3], v[0:5], s[0:7], s[0:3] dmask:0xf|<error>
gfx10.3|image_sample_d v[0:3], v[0:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D a16|080f88f000004040
gfx10.3|image_load v[0:3], v[0:2], s[0:7] dmask:0xf dim:2D|<error>
gfx10.3|image_sample_c_d_cl  v[16:19], [v8, v9, v10, v11, v12, v13, v14, v15, v16], s[20:27], s[100:103] dmask:0xf dim:SQ_RSRC_IMG_CUBE|1c0facf008102503090a0b0c0d0e0f10
gfx10.3|image_load v[0:3], v[0:1], s[0:7] dmask:0xf|<error>
gfx10.3|image_msaa_load v[1:4], v5, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D|<error>
gfx11|image_sample_d v64, [v32, v16, v8, v0, v[36:37]], s[4:11], s[4:7] dmask:0x8 dim:SQ_RSRC_IMG_2D|050870f02040010410080024
gfx11|image_bvh64_intersect_ray v[0:3], [v[0:1], v1, v[2:4], v[3:5]], s[0:3] a16|818f69f00000000001020300
gfx11|image_sample_d v[64:66], [v32, v16, v8, v4, v2, v1], s[4:11], s[100:103] dmask:0x7 dim:SQ_RSRC_IMG_2D|<error>
gfx11|image_gather4 v[0:3], v0, s[0:7], s[0:3] dmask:0x3 dim:1D|<error>
`;

function rows(table: string): string[][] {
  return table
    .trim()
    .split('\n')
    .map((l) => l.split('|'));
}

function hexOf(words: readonly number[]): string {
  return words
    .map((w) => [0, 8, 16, 24].map((s) => ((w >>> s) & 0xff).toString(16).padStart(2, '0')).join(''))
    .join('');
}

describe('MIMG disassembly', () => {
  for (const [gen, hex, text] of rows(DISASM)) {
    it(`${gen} ${hex}`, () => {
      const r = disassembleOne(targetFor(CPU[gen]), hexToBytes(hex));
      if ('error' in r) {
        expect(r.error).toBeInstanceOf(DecodeError);
        expect(r.error.code === 'truncated' ? '<truncated>' : '<invalid>').toBe(text);
      } else {
        expect(r.text).toBe(text);
        expect(r.size).toBe(hex.length / 2);
      }
    });
  }
});

describe('MIMG assembly', () => {
  for (const [gen, line, hex] of rows(ASM)) {
    it(`${gen} ${line}`, () => {
      const r = assembleLine(targetFor(CPU[gen]), line);
      expect(r.words ? hexOf(r.words) : '<error>').toBe(hex);
    });
  }
});

describe('MIMG round trip', () => {
  for (const [gen, hex, text] of rows(DISASM)) {
    if (text.startsWith('<')) continue;
    it(`${gen} ${hex}`, () => {
      const r = assembleLine(targetFor(CPU[gen]), text);
      // Unprinted NSA bytes and defaults LLVM keeps do not survive printing; LLVM's assembler agrees.
      if (r.words) expect(disassembleOne(targetFor(CPU[gen]), hexToBytes(hexOf(r.words)))).toMatchObject({ text });
    });
  }
});

describe('MIMG decoder robustness', () => {
  it('throws only DecodeError on random MIMG dwords, and never reads past the input', () => {
    let seed = 12345;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const cpu of Object.values(CPU)) {
      const target = targetFor(cpu);
      for (let i = 0; i < 2000; i++) {
        const n = 1 + (next() % 5);
        const bytes = new Uint8Array(4 * n);
        for (let b = 0; b < bytes.length; b++) bytes[b] = next() & 0xff;
        bytes[3] = 0xf0 | (bytes[3] & 0x03); // MIMG prefix 111100
        const r = disassembleOne(target, bytes);
        if ('error' in r) expect(r.error).toBeInstanceOf(DecodeError);
        else expect(r.size).toBeLessThanOrEqual(bytes.length);
      }
    }
  });
});
