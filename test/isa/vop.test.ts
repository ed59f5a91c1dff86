/**
 * Vector-ALU families (VOP1, VOP2, VOPC, VOP3, VOP3P): data-line tests of decode and print
 * per generation against llvm-mc-19 output, and the decoder's error contract.
 */
import { describe, expect, it } from 'vitest';
import { targetFor } from '../../src/isa/gen.ts';
import { disassembleOne, hexToBytes } from '../../src/isa/disasm.ts';
import { bytesToWords, decodeAt } from '../../src/isa/decoder.ts';
import { AsmError, DecodeError } from '../../src/isa/errors.ts';
import { assembleLine } from '../../src/isa/asm.ts';

const CPU: Record<string, string> = {
  gfx7: 'bonaire',
  gfx8: 'tonga',
  gfx9: 'gfx900',
  'gfx10.3': 'gfx1030',
  gfx11: 'gfx1100',
};

/** gen[/w64] | hex (memory order) | llvm-mc-19 text ('<invalid>' when LLVM rejects the bytes). */
const DISASM = `
gfx7|fc040a48|v_mbcnt_hi_u32_b32_e32 v5, src_execz, v2
gfx7|f7044a7d|v_cmp_ne_i64_e32 vcc, -4.0, v[2:3]
gfx7|0a00ecd001cd0000|v_cmpsx_ge_f64_e64 s[10:11], v[1:2], s[102:103]
gfx7|05007cd301010020|v_fract_f64_e64 v[5:6], -v[1:2]
gfx7|ff040a607372713f|v_cvt_pk_u16_u32_e32 v5, 0x3f717273, v2
gfx9|05009fd266040200|v_sub_i16 v5, flat_scratch_lo, v2
gfx9|66040a34|v_sub_co_u32_e32 v5, vcc, flat_scratch_lo, v2
gfx9|f04a0a7e|v_rcp_f64_e32 v[5:6], 0.5
gfx9|00005dd1fb000020|v_ceil_f32_e64 v0, -src_vccz
gfx9|05f806d201050e0c|v_fma_f16 v5, v1, v2, v3 op_sel:[1,1,1,1] clamp mul:2
gfx9|9cb080d3fd031ed0|v_pk_mad_i16 v156, v253, v1, s7 op_sel:[0,1,1] op_sel_hi:[0,1,0] neg_lo:[0,1,1] clamp
gfx9|054080d3f0040e1c|v_pk_mad_i16 v5, 0.5, v2, v3
gfx9|01070a2e41312111|v_madmk_f32 v5, v1, 0x11213141, v3
gfx9|f0720a7e|v_cvt_f16_u16_e32 v5, 0x3800
gfx9|ff160a7e0bfe0000|v_cvt_f32_f16_e32 v5, 0xfe0b
gfx9|05003dd1ff050200|<invalid>
gfx10.3|0104147c|v_cmp_nlg_f32_e32 vcc_lo, s1, v2
gfx10.3|051077d701050c00|v_permlane16_b32 v5, v1, s2, s3 op_sel:[0,1]
gfx10.3|ff040a7878563412|v_pk_fmac_f16 v5, 0x12345678, v2
gfx10.3|0000007e|v_nop
gfx11|ffa0897d7f56fff6|v_cmpx_gt_i32_e32 0xf6ff567f, v208
gfx11|050e48d6c1fef4c3|v_fma_f16 v5, -1, -|exec_hi|, -|src_scc| op_sel:[1,0,0,0]
gfx11|fe8227d7ffd40058563412af|v_add_f64 v[254:255], 0xaf123456, -|vcc| clamp div:2
gfx11|051051d6f0fac003|v_med3_u16 v5, 0x3800, m0, 0x3800 op_sel:[0,1,0,0]
gfx11|02401accff020a1cc8420000|v_dot2_f32_bf16 v2, 0x42c8, v1, v2
gfx11|6b04347c|v_cmp_nlg_f32_e32 vcc_lo, vcc_hi, v2
gfx11/w64|6b04347c|v_cmp_nlg_f32_e32 vcc, vcc_hi, v2
gfx9|0500dbd1f0040e04|v_sad_u16 v5, 0.5, v2, v3
gfx8|0500e5d101ef0d04|v_qsad_pk_u16_u8 v[5:6], v[1:2], -4.0, v[3:4]
gfx7|0500b8d20105c203|v_sad_u16 v5, v1, v2, 0.5
gfx9|0500f2d10105de03|v_mad_i32_i16 v5, v1, v2, -4.0
gfx9|ff9e0a7e7372713f|v_sat_pk_u8_i16_e32 v5, 0x3f717273
gfx11|052266d6fdd40423|v_dot2_f16_f16 v5, -src_scc, |vcc_lo|, -1 op_sel:[0,0,1,0]
gfx11|404066d601000000|v_dot2_f16_f16 v64, s1, s0, s0 op_sel:[0,0,0,1]
gfx11|050866d6fdd40423|v_dot2_f16_f16 v5, -src_scc, vcc_lo, -1
gfx11|052267d6fdd40423|v_dot2_bf16_bf16 v5, -src_scc, |vcc_lo|, -1 op_sel:[0,0,1,0]
gfx11/w64|104040cc0011421c|v_wmma_f32_16x16x16_f16 v[16:19], v[0:7], v[8:15], v[16:19]
gfx11/w64|084044cc0009061a|v_wmma_i32_16x16x16_iu8 v[8:11], v[0:3], v[4:7], 1
gfx11|104040cc00114204|v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23]
gfx11|104840cc0011421c|<invalid>
gfx11|05c58e7f|<invalid>
gfx11|c7c50a7e|v_sat_pk_u8_i16_e32 v5, v199
gfx11|02401accff020a1cc8420000|v_dot2_f32_bf16 v2, 0x42c8, v1, v2
`;

function rows(): [string, boolean, string, string][] {
  return DISASM.trim()
    .split('\n')
    .map((l) => {
      // The text may hold `|` (abs), so only the first two bars separate fields.
      const a = l.indexOf('|');
      const b = l.indexOf('|', a + 1);
      const g = l.slice(0, a);
      return [g.split('/')[0], g.endsWith('/w64'), l.slice(a + 1, b), l.slice(b + 1)];
    });
}

describe('VOP disassembly matches llvm-mc-19', () => {
  for (const [gen, w64, hex, text] of rows()) {
    it(`${gen}${w64 ? ' wave64' : ''} ${hex}`, () => {
      const r = disassembleOne(targetFor(CPU[gen], w64), hexToBytes(hex));
      if (text === '<invalid>') expect('error' in r).toBe(true);
      else expect('text' in r ? r.text : r.error.message).toBe(text);
    });
  }
});

describe('VOP decode errors', () => {
  it('a literal past the end is truncated', () => {
    const t = targetFor('gfx900');
    expect(() => decodeAt(t, bytesToWords(hexToBytes('ff040a7e')), 0)).toThrow(DecodeError);
    try {
      decodeAt(t, bytesToWords(hexToBytes('ff040a7e')), 0);
    } catch (e) {
      expect((e as DecodeError).code).toBe('truncated');
    }
  });
  it('a VOP3 without its second dword is truncated', () => {
    expect(() => decodeAt(targetFor('gfx1030'), bytesToWords(hexToBytes('050003d5')), 0)).toThrow(DecodeError);
  });
  it('random VOP words throw only DecodeError', () => {
    let seed = 12345;
    const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const cpu of Object.values(CPU)) {
      const t = targetFor(cpu);
      for (let i = 0; i < 3000; i++) {
        const words = Uint32Array.from([rnd() & 0x7fffffff, rnd(), rnd()].slice(0, 1 + (i % 3)));
        if (i % 2) words[0] = ((0x34 + (i % 4 === 1 ? 0 : 1)) << 26) | (words[0] & 0x3ffffff);
        try {
          decodeAt(t, words, 0);
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError);
        }
      }
    }
  });
});

/** gen[/w64] | assembly | llvm-mc-19 bytes (memory order), or '<error>' when LLVM rejects the line. */
const ASM = `
gfx7|v_add_co_u32 v1, vcc, v2, v3|016a4ad202070200
gfx7|v_nop|0000007e
gfx7|v_cmp_lt_f32 s[2:3] -|v4|, v6|020102d0040d0220
gfx7|v_fract_f32 v1, v2, clamp div:2|010840d302010018
gfx7|v_add_f32_e64 v0, -26, v1|<error>
gfx7|v_movreld_b32 v0, s1|<error>
gfx7|v_movreld_b32 v5, m0|7c840a7e
gfx8|v_cndmask_b32_e32 v1, v2, v3|02070200
gfx8|v_add_u32 v1, v2, v3|<error>
gfx8|v_madak_f32 v0, s32, v32, 0x20000000|<error>
gfx8|v_mad_i16 v5, v1, 0x4400, v3|<error>
gfx8|v_ceil_f16 v0, neg(0x3118)|ff8a007e18b10000
gfx8|v_sqrt_f64 v[2:3], lit(123.0)|ff50047e00c05e40
gfx9|v_add_co_u32 v1, v2, v3|02070232
gfx9|v_mul_lo_u16 v1, 0x3800, v2|ff04025200380000
gfx9|v_mul_lo_u16 v1, 0.5, v2|f0040252
gfx9|v_pk_add_u16 v5, 0x3f800000, v3|05408ad3f2060218
gfx9|v_pk_max_f16 v5, v1, v2 op_sel:[1,1]|055892d301050218
gfx9|v_pk_add_i16 v5, v1, v2 op_sel_hi:[0,0]|054082d301050200
gfx9|v_mad_mixhi_f16 v0, v1, v2, v3 op_sel_hi:[1,0,1] clamp|00c0a2d301050e0c
gfx9|v_pk_add_u16 v5, v1, 256|<error>
gfx9|v_trunc_f32_e32 v0, 0xffffffffffffffff|c138007e
gfx9|v_trunc_f32 v0, 2.3509886e-70|<error>
gfx10.3|v_cmp_ge_i32_e32 s0, v0|00000c7d
gfx10.3|v_add_co_ci_u32_e32 v3, v3, v4|03090650
gfx10.3|v_add_f64 v[1:2], 0x3ff00000, v[2:3]|010064d5f2040200
gfx10.3|v_add_f64 v[1:2], 1.5, v[2:3]|010064d5ff04020000 00f83f
gfx10.3|v_lshlrev_b64 v[1:2], 0x3ff00000, v[2:3]|0100ffd6ff0402000000f03f
gfx10.3|v_permlane16_b32 v5, v1, 0x12345678, 0x12345678|050077d701fffd0378563412
gfx10.3|v_permlane16_b32 v5, 0, s2, s3|<error>
gfx10.3|v_trunc_f32_e64 v2, neg(0x3000000)|0200a1d5ff00002000000003
gfx10.3|v_pk_add_f16 v1, 0xffffffffffff000f, v2|01400fccff0402180f00ffff
gfx10.3/w64|v_cndmask_b32_e64 v5, v1, v2, vcc|050001d50105aa01
gfx11|v_ffbh_u32 v5, v1|01730a7e
gfx11|v_cvt_f16_f32 v255, v255|ff008ad5ff010000
gfx11|v_cvt_f16_f32_e32 v255, v255|<error>
gfx10.3|v_cmpx_lt_i16_e64 0x3456, 0x3456|7e0099d4fffe010056340000
gfx11|v_lshlrev_b64 v[5:6], 0x3f717273, 0x3f717273|<error>
gfx11|v_add_f32 v0, src_vccz, v1|<error>
gfx7|v_writelane_b32 v1, s13, m0|0df80204
gfx7|v_writelane_b32 v1, s13, s14|<error>
gfx9|v_writelane_b32 v1, s13, m0|01008ad20df80000
gfx7|v_writelane_b32 v0, lds_direct, s0|fe000004
gfx9|v_writelane_b32 v0, lds_direct, s0|<error>
gfx9|v_subrev_f32 v0, lds_direct, v0|<error>
gfx9|v_add_f64 v[0:1], lds_direct, v[0:1]|<error>
gfx9|v_mad_f32 v0, v1, lds_direct, v2|<error>
gfx9|v_mad_f32 v0, lds_direct, v1, v2|0000c1d1fe020a04
gfx10.3|v_add_f32 v5, v1, lds_direct|<error>
gfx10.3|v_permlane16_b32 v0, lds_direct, s0, s0|<error>
gfx7|v_madak_f32 v0, s0, v0, 0x11213141|<error>
gfx9|v_madmk_f32 v0, s0, 0x11213141, v0|<error>
gfx9|v_madak_f32 v0, 0x11213141, v0, 0x11213141|ff00003041312111
gfx10.3|v_fmaak_f32 v0, s0, v0, 0x11213141|0000005a41312111
gfx9|v_madak_f32 v4, lit(0x7e8), v8, lit(0x7e8)|ff100830e8070000
gfx7|v_mul_i32_i24 v1, v3, s5 clamp|<error>
gfx7|v_cmp_f_f32_e64 s[0:1], v79, v201 clamp|<error>
gfx7|v_div_fixup_f64 v[5:6], v[1:2], v[2:3], v[3:4] clamp div:2|0508c0d201050e1c
gfx7|v_ldexp_f32 v55, s27, -v90|<error>
gfx7|v_mqsad_u32_u8 v[55:58], v[79:80], v166, s[28:31]|<error>
gfx8|v_mul_i32_i24 v1, v3, s5 clamp|018006d1030b0000
gfx8|v_sin_f32 v0, xnack_mask_lo|<error>
gfx9|v_sin_f32 v0, xnack_mask_lo|6852007e
gfx9|v_sin_f32 v0, null|<error>
gfx8|v_ceil_f32 v0, --1|<error>
gfx9|v_sad_u16 v5, 0.5, v2, v3|0500dbd1f0040e04
gfx9|v_mad_u32_u16 v5, v1, v2, 0x3800|<error>
gfx9|v_sat_pk_u8_i16_e32 v5, 0x3f717273|ff9e0a7e7372713f
gfx10.3|v_ldexp_f64 v[5:6], 1.5, 0x3ff80000|050068d5fffe01000000f83f
gfx10.3|v_mad_u64_u32 v[5:6], s12, 0x12345678, v2, 0x12345678|050c76d5ff04fe0378563412
gfx11|v_lshlrev_b64 v[5:6], 0x3f717273, 0x3f717273|<error>
gfx11|v_cvt_pk_rtz_f16_f32_e32 v255, 0xaf123456, v255|fffeff5f563412af
gfx11|v_pk_fmac_f16 v228, 0x47055133, v179|ff66c97933510547
gfx11|v_sat_pk_u8_i16_e32 v199, v5|<error>
gfx11|v_sat_pk_u8_i16 v199, v5|c700e2d505010000
gfx11|v_dot2_f16_f16 v5, v1, v2, v3 op_sel:[0,0,1]|052066d601050e04
gfx11|v_dot2_f16_f16 v5, v1, v2, v3 op_sel:[0,0,0,1]|054066d601050e04
gfx11|v_dot2_f16_f16 v5, v1, v2, v3 op_sel:[1,0,0,0]|<error>
gfx11|v_fmac_f16_e64 v5, v1, v2 op_sel:[0,0,1,0]|050036d501050200
gfx11/w64|v_wmma_f32_16x16x16_f16 v[16:19], v[0:7], v[8:15], v[16:19]|104040cc0011421c
gfx11|v_wmma_f32_16x16x16_f16 v[16:19], v[0:7], v[8:15], v[16:19]|<error>
gfx11|v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23] op_sel:[0,0,1]|<error>
gfx11|v_wmma_f16_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23] op_sel:[0,0,1]|106042cc0011421c
gfx11|v_dot2_bf16_bf16 v5, v1, v2, 100.0|050067d60105fe03c8420000
gfx11|v_dot2_bf16_bf16 v2, v0, 0x3e22, v2|020067d600f10904
gfx11|v_dot2_bf16_bf16 v2, v0, 0.15915494, v2|020067d600f10904
gfx11|v_dot2_bf16_bf16 v2, v0, -0.15915494, v2|020067d600ff090423be0000
gfx11|v_dot2_bf16_bf16 v5, v1, v2, 1.01171875|050067d60105fe03823f0000
gfx11|v_dot2_f32_bf16 v2, 100.0, v1, v2|02401accff020a1cc8420000
`;

function asmRows(): [string, boolean, string, string][] {
  return ASM.trim()
    .split('\n')
    .map((l) => {
      // The assembly may hold `|` (abs), so the generation is before the first bar and the bytes after the last.
      const a = l.indexOf('|');
      const b = l.lastIndexOf('|');
      const g = l.slice(0, a);
      return [g.split('/')[0], g.endsWith('/w64'), l.slice(a + 1, b), l.slice(b + 1).replace(/\s/g, '')];
    });
}

function hexOf(words: readonly number[]): string {
  let s = '';
  for (const w of words) for (let k = 0; k < 4; k++) s += ((w >>> (8 * k)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

describe('VOP assembly matches llvm-mc-19', () => {
  for (const [gen, w64, text, hex] of asmRows()) {
    it(`${gen}${w64 ? ' wave64' : ''} ${text}`, () => {
      const r = assembleLine(targetFor(CPU[gen], w64), text);
      if (hex === '<error>') expect(r.error).toBeInstanceOf(AsmError);
      else expect(r.words ? hexOf(r.words) : r.error?.reason).toBe(hex);
    });
  }
});
