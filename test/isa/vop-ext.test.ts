/**
 * VOP extension encodings (SDWA, DPP, DPP16, DPP8, gfx11 VOP3/VOP3P-DPP): data-line tests
 * of decode+print and of assembly per generation against llvm-mc-19, the decoder's error
 * contract on the encodings that crash LLVM 19's own decoder, and round trips.
 */
import { describe, expect, it } from 'vitest';
import { targetFor } from '../../src/isa/gen.ts';
import { disassembleOne, hexToBytes } from '../../src/isa/disasm.ts';
import { assembleLine } from '../../src/isa/asm.ts';
import { bytesToWords, decodeAt } from '../../src/isa/decoder.ts';
import { DecodeError } from '../../src/isa/errors.ts';

const CPU: Record<string, string> = { gfx8: 'tonga', gfx9: 'gfx900', 'gfx10.3': 'gfx1030', gfx11: 'gfx1100' };

/** gen[/w64] | hex (memory order) | llvm-mc-19 text ('<invalid>' when LLVM rejects the bytes). */
const DISASM = `
gfx8|f9048c7d01000603|v_cmp_ge_i32 vcc, v1, v2 src0_sel:DWORD src1_sel:BYTE_3
gfx8|f900003c00000000|v_subbrev_u32_sdwa v0, vcc, v0, v0, vcc dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_0
gfx8|f9d634013d190000|v_cndmask_b32_sdwa v154, v61, v107, vcc dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_0
gfx8|f9e2e118d6ba0ec8|v_min_i32_sdwa v112, sext(v214), sext(v241) clamp dst_sel:BYTE_2 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0
gfx8|f900007e00000000|v_nop
gfx8|fa00007e00100100|v_nop /* Invalid dpp_ctrl value */ row_mask:0x0 bank_mask:0x0
gfx8|fa020a7e01430100|v_mov_b32_dpp v5, v1 row_bcast:31 row_mask:0x0 bank_mask:0x0
gfx8|fa020a7e013c0100|v_mov_b32_dpp v5, v1 wave_ror:1 row_mask:0x0 bank_mask:0x0
gfx8|fad02b675e29f595|v_ldexp_f16_dpp v149, -|v94|, sext(v232) row_ror:9 row_mask:0x9 bank_mask:0x5
gfx8|fa626715dd6dc591|v_min_f32_dpp v179, v221, -|v177| /* row_xmask is not supported on ASICs earlier than GFX10 */ row_mask:0x9 bank_mask:0x1
gfx8|fa10200e40004402|<invalid>
gfx8|f9601e42c871122a|<invalid>
gfx8|f900367c10000000|<invalid>
gfx9|f96ce50aca1e95f3|v_mul_f32_sdwa v114, neg(-10), -|54| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_3
gfx9|f990817cadd55596|v_cmp_f_f32_sdwa s[84:85], -v173, neg(-8) src0_sel:WORD_1 src1_sel:DWORD
gfx9|f9cebe7dce2a8c86|v_cmpx_t_u32_sdwa vcc, sext(-14), flat_scratch_hi src0_sel:WORD_0 src1_sel:DWORD
gfx9|f98a0a7eeb16a600|v_ceil_f16_sdwa v5, |src_shared_base| dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD
gfx9|f90a007e00800000|v_cvt_f32_i32_sdwa v0, v0 mul:4 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:BYTE_0
gfx9|fa00000218500100|v_add_f32_dpp v0, v24, v0  /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */ row_mask:0x0 bank_mask:0x0
gfx9|fa060250020109a1|v_subrev_u16_dpp v1, v2, v3 row_shl:1 row_mask:0xa bank_mask:0x1 bound_ctrl:1
gfx9|f9d634013d400000|<invalid>
gfx9|f976207e00000004|<invalid>
gfx9|fa040a76ffe40000|<invalid>
gfx10.3|f9b8807f20a11400|v_ceil_f16_sdwa v192, -v32 clamp mul:4 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:WORD_0
gfx10.3|f904b47d7f008606|v_cmpx_eq_f16_sdwa exec_hi, v2 src0_sel:DWORD src1_sel:DWORD
gfx10.3|f908967d03800506|v_cmp_le_f16_sdwa s0, v3, v4 src0_sel:WORD_1 src1_sel:DWORD
gfx10.3|f908025001060006|v_add_co_ci_u32_sdwa v1, vcc_lo, v1, v4, vcc_lo dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
gfx10.3|fad63407be340100|v_add_f32_dpp v154, v190, v107 /* wave_rol is not supported starting from GFX10 */ row_mask:0x0 bank_mask:0x0
gfx10.3|fad63407be5f0100|v_add_f32_dpp v154, v190, v107 row_share:15 row_mask:0x0 bank_mask:0x0
gfx10.3|fad63407be400500|v_add_f32_dpp v154, v190, v107 row_mirror row_mask:0x0 bank_mask:0x0 fi:1
gfx10.3|ea00007e00800041|v_nop dpp8:[0,0,2,0,0,2,0,2] fi:1
gfx10.3|fa040a0201e40000|v_cndmask_b32_dpp v5, v1, v2, vcc_lo quad_perm:[0,1,2,3] row_mask:0x0 bank_mask:0x0
gfx10.3/w64|fa040a0201e40000|v_cndmask_b32_dpp v5, v1, v2, vcc quad_perm:[0,1,2,3] row_mask:0x0 bank_mask:0x0
gfx10.3|fa00047e00080000|<invalid>
gfx11|fa04267c014001ff|v_cmp_le_f32 vcc_lo, v1, v2 row_mirror row_mask:0xf bank_mask:0xf
gfx11|fa36227d7b0435bd|v_cmpx_lt_f32 -|v123|, v27 row_shl:4 row_mask:0xb bank_mask:0xd fi:1
gfx11|e900967c00800802|v_cmp_le_u32 vcc_lo, v0, v0 dpp8:[0,0,2,4,0,4,0,0]
gfx11|fa7e507e373815b4|v_frexp_exp_i32_f32_dpp v40, -v55 /* wave_shr is not supported starting from GFX10 */ row_mask:0xb bank_mask:0x4 fi:1
gfx11|050055d6e904000401773905|v_add3_u32_e64_dpp v5, v1, s2, v0 dpp8:[7,6,5,4,3,2,1,0]
gfx11|050c00d7fa04020001e400ff|v_add_co_u32_e64_dpp v5, s12, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
gfx11|fffc00d7fafe0300ff6f0d30|v_add_co_u32_e64_dpp v255, null, v255, v255 clamp row_xmask:15 row_mask:0x3 bank_mask:0x0 bound_ctrl:1 fi:1
gfx11|ff870cd6fafef7fbff6f0d30|v_cubeid_f32_e64_dpp v255, -|v255|, -|v255|, -|src_scc| clamp div:2 row_xmask:15 row_mask:0x3 bank_mask:0x0 bound_ctrl:1 fi:1
gfx11|007866d6e9040e0401884692|v_dot2_f16_f16_e64_dpp v0, v1, v2, v3 op_sel:[0,0,1,1] dpp8:[0,1,2,3,4,4,4,4]
gfx11|804036d5e988004001010000|v_fmac_f16_e64_dpp v128, v1, -s68 op_sel:[0,0,0,1] dpp8:[1,0,0,0,0,0,0,0]
gfx11|802017d4fa00000002000000|v_cmp_o_f32_e64_dpp 0/*Invalid immediate*/, v2, s0 quad_perm:[0,0,0,0] row_mask:0x0 bank_mask:0x0
gfx11|f7e626d6fa120f44843cbadd|v_cvt_pk_u8_f32_e64_dpp v247, v132, sext(v137), v3 clamp quad_perm:[0,3,3,0] row_mask:0xd bank_mask:0xd bound_ctrl:1
gfx11|004513ccfa040e7c011b00fe|v_dot2_f32_f16_e64_dpp v0, v1, v2, v3 neg_lo:[1,1,0] neg_hi:[1,0,1] quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xe
gfx11|000521cce9040e4401924492|v_fma_mixlo_f16_e64_dpp v0, |v1|, -v2, |v3| dpp8:[2,2,2,2,4,4,4,4]
gfx11|6b0108d4e904024001773905|v_cmp_u_f16_e64_dpp vcc_hi, |v1|, -v2 dpp8:[7,6,5,4,3,2,1,0]
gfx11|fab8fe7fff6f3d30|<invalid>
gfx11|00001dd5fa00400200000000|<invalid>
gfx11|000033d4e900800080022000|<invalid>
gfx11|fa00000008000000|<invalid>
`;

/** gen[/w64] | assembly | hex llvm-mc-19 encodes, or '<error>'. */
const ASM = `
gfx8|v_not_b32_sdwa v5, v1 dst_unused:UNUSED_PAD src0_sel:DWORD|f9560a7e01060600
gfx8|v_fract_f32_sdwa v5, v1 dst_sel:DWORD src0_sel:DWORD|f9360a7e01160600
gfx8|v_cmpx_eq_u32_sdwa vcc, sext(v1), v2 src0_sel:DWORD src1_sel:DWORD|f904b47d01000e06
gfx8|v_mov_b32 v0, v0 wave_ror:1|fa02007e003c01ff
gfx8|v_nop row_shl:1 row_mask:0xa bank_mask:0x1 bound_ctrl:0|fa00007e000109a1
gfx8|v_max_f32 v1, v2 v3 row_shl:1 row_mask:0xa bank_mask:0x1 bound_ctrl:0|fa060216020109a1
gfx8|v_add_f16 v1, s[2:3], v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_2|<error>
gfx9|v_add_f32_sdwa v5, v2, |-4.0| dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD|f9ee0b02021606a6
gfx9|v_cmp_gt_u16_sdwa ttmp[14:15], v1, v2 src0_sel:DWORD src1_sel:DWORD|f904587d01fa0606
gfx9|v_cndmask_b32_sdwa v5, -4.0, v2, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD|f9040a00f7068606
gfx9|v_cndmask_b32_sdwa v5, vcc_lo, v2, vcc dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD|<error>
gfx9|v_floor_f64 v[4:5], v[0:1] row_newbcast:15|<error>
gfx10.3|v_add_co_ci_u32_sdwa v1, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD|f908025001060006
gfx10.3/w64|v_cmp_lt_f32_sdwa vcc, v1, v2 src0_sel:DWORD src1_sel:DWORD|f904027c01000606
gfx10.3|v_floor_f32_dpp v5, v1 quad_perm:[0,1,2,3] row_mask:0x0 bank_mask:0x0 bound_ctrl:0|fa480a7e01e40800
gfx10.3|v_cndmask_b32_dpp v0, v1, v2 dpp8:[0,1,2,3,4,5,6,7] fi:1|ea0400020188c6fa
gfx10.3|v_movrels_b32_sdwa v0, s2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD|<error>
gfx10.3|v_mov_b32_sdwa v1, src_lds_direct dst_sel:DWORD|<error>
gfx10.3|v_cmpx_ge_f16_dpp v1, v2 dpp8:[7,6,5,4,3,2,1,0]|<error>
gfx11|v_sub_co_ci_u32 v255, vcc_lo, v255, v255, vcc_lo row_xmask:15 row_mask:0x3 bank_mask:0x0 bound_ctrl:0 fi:1|fafeff43ff6f0530
gfx11|v_mad_u32_u24_e64_dpp v5, v1, v2, 0.5 row_xmask:0 row_mask:0x1 bank_mask:0x3 bound_ctrl:1 fi:0|05000bd6fa04c20301600913
gfx11|v_cmp_le_u16_dpp v1, v2 dpp8:[7,7,7,3,4,4,6,7] fi:1|ea04767c01ff47fa
gfx11|v_cmpx_class_f32 -v1, v2 dpp8:[7,6,5,4,3,2,1,0]|7e00fed4e904022001773905
gfx11|v_cvt_u16_f16 v255, v127 quad_perm:[3,2,1,0]|ff00d2d5fa0000007f1b00ff
gfx11|v_ffbh_i32 v5, v1 quad_perm:[0,1,2,3]|fa760a7e01e400ff
gfx11|v_rsq_f16 v5.l, v1.l quad_perm:[0,1,2,3]|faac0a7e01e400ff
gfx11|v_log_f16 v127.h, -|v127.h| row_xmask:15 row_mask:0x3 bank_mask:0x0 bound_ctrl:0 fi:1|faaefe7fff6f3530
gfx11|v_log_f16_e64_dpp v5.l, v1.h mul:4 dpp8:[7,6,5,4,3,2,1,0] fi:1|0508d7d5ea00001001773905
gfx11/w64|v_cmp_lg_f16 vcc, v1, v255 quad_perm:[3,2,1,0]|6a0005d4fafe0300011b00ff
gfx11|v_add3_u32_e64_dpp v5, v1, s2, v3 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf|<error>
gfx11|v_max_f16_dpp v5, v255, v2 quad_perm:[3,2,1,0]|<error>
gfx11|v_ceil_f16_e32 v255.h, v1.h dpp8:[7,6,5,4,3,2,1,0]|<error>
`;

/** SDWA encodings that crash LLVM 19's decoder (shared/corpus/isa/extra): all have a reserved select (7). */
const LLVM_CRASHES: readonly [string, string][] = [
  ['gfx8', 'f93c1201aad7b532'],
  ['gfx9', 'f9f8a607804f86f5'],
  ['gfx10.3', 'f90c93077dea2720'],
  ['gfx10.3', 'f900005000020782'],
];

/** DISASM rows whose text llvm-mc-19 assembles back to the same bytes (the corpus's asm_roundtrip `=`). */
const CANONICAL = new Set([
  'f9048c7d01000603',
  'f900003c00000000',
  'fa020a7e01430100',
  'fa020a7e013c0100',
  'f98a0a7eeb16a600',
  'f90a007e00800000',
  'fa060250020109a1',
  'f9b8807f20a11400',
  'f904b47d7f008606',
  'f908967d03800506',
  'f908025001060006',
  'fad63407be5f0100',
  'fad63407be400500',
  'ea00007e00800041',
  'fa040a0201e40000',
  'fa04267c014001ff',
  'fa36227d7b0435bd',
  'e900967c00800802',
  '050c00d7fa04020001e400ff',
  'fffc00d7fafe0300ff6f0d30',
  'ff870cd6fafef7fbff6f0d30',
  '004513ccfa040e7c011b00fe',
  '000521cce9040e4401924492',
  '6b0108d4e904024001773905',
]);

function rows(data: string): [string, boolean, string, string][] {
  return data
    .trim()
    .split('\n')
    .map((l) => {
      // The text may hold `|` (abs), so only the first two bars separate fields; assembly
      // lines end in their hex, so the last bar separates there.
      const a = l.indexOf('|');
      const b = data === ASM ? l.lastIndexOf('|') : l.indexOf('|', a + 1);
      const g = l.slice(0, a);
      return [g.split('/')[0], g.endsWith('/w64'), l.slice(a + 1, b), l.slice(b + 1)];
    });
}

function hexOf(words: readonly number[]): string {
  return words
    .map((w) => [0, 8, 16, 24].map((s) => ((w >>> s) & 0xff).toString(16).padStart(2, '0')).join(''))
    .join('');
}

describe('VOP extension disassembly matches llvm-mc-19', () => {
  for (const [gen, w64, hex, text] of rows(DISASM)) {
    it(`${gen}${w64 ? ' wave64' : ''} ${hex}`, () => {
      const r = disassembleOne(targetFor(CPU[gen], w64), hexToBytes(hex));
      if (text === '<invalid>') expect('error' in r).toBe(true);
      else expect(r).toEqual({ text, size: hex.length / 2 });
    });
  }
});

describe('VOP extension assembly matches llvm-mc-19', () => {
  for (const [gen, w64, line, hex] of rows(ASM)) {
    it(`${gen}${w64 ? ' wave64' : ''} ${line}`, () => {
      const r = assembleLine(targetFor(CPU[gen], w64), line);
      if (hex === '<error>') expect(r.error).toBeDefined();
      else expect(r.words ? hexOf(r.words) : r.error?.reason).toBe(hex);
    });
  }
});

describe('VOP extension round trips', () => {
  for (const [gen, w64, hex, text] of rows(DISASM)) {
    if (!CANONICAL.has(hex)) continue;
    it(`${gen}${w64 ? ' wave64' : ''} ${text}`, () => {
      const r = assembleLine(targetFor(CPU[gen], w64), text);
      expect(r.words ? hexOf(r.words) : r.error?.reason).toBe(hex);
    });
  }
});

describe('the decoder on encodings that crash LLVM 19', () => {
  for (const [gen, hex] of LLVM_CRASHES) {
    it(`${gen} ${hex}: reserved SDWA select is a DecodeError`, () => {
      const words = bytesToWords(hexToBytes(hex));
      expect(() => decodeAt(targetFor(CPU[gen]), words, 0)).toThrow(DecodeError);
    });
  }

  it('a missing extension dword is a DecodeError, never a read past the input', () => {
    for (const w0 of [0x7e0202f9, 0x7e0202fa, 0x7e0202e9, 0x020402fa]) {
      expect(() => decodeAt(targetFor('gfx1030'), Uint32Array.of(w0), 0)).toThrow(DecodeError);
    }
    expect(() => decodeAt(targetFor('gfx1100'), Uint32Array.of(0xd6550005, 0x040400fa), 0)).toThrow(DecodeError);
  });
});
