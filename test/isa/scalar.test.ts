/**
 * Scalar families (SOP1/SOP2/SOPK/SOPC/SOPP, SMEM/SMRD): data-line tests of decode, print
 * and assemble per generation, against llvm-mc-19 output.
 */
import { describe, expect, it } from 'vitest';
import { targetFor } from '../../src/isa/gen.ts';
import { disassembleOne, hexToBytes } from '../../src/isa/disasm.ts';
import { assembleLine, assembleProgram } from '../../src/isa/asm.ts';
import { bytesToWords, decodeAt } from '../../src/isa/decoder.ts';
import { DecodeError } from '../../src/isa/errors.ts';
import { branchTarget } from '../../src/isa/families/scalar.ts';

const CPU: Record<string, string> = {
  gfx7: 'bonaire',
  gfx8: 'tonga',
  gfx9: 'gfx900',
  'gfx10.1': 'gfx1010',
  'gfx10.3': 'gfx1030',
  gfx11: 'gfx1100',
};

/** gen | hex (memory order) | llvm-mc-19 text ('<invalid>' when LLVM rejects the bytes). */
const DISASM = `
gfx7|ff0480beffffffff|s_mov_b64 s[0:1], 0xffffffff
gfx7|ff8202c0563412af|s_load_dword s5, s[2:3], 0xaf123456
gfx7|7f8302c0|s_load_dword s5, s[2:3], 0x7f
gfx7|000090c7|s_memtime s[32:33]
gfx8|413185b8|s_getreg_b32 s5, hwreg(HW_REG_MODE, 5, 7)
gfx8|45f000baff000000|s_setreg_imm32_b32 hwreg(HW_REG_GPR_ALLOC, 1, 31), 0xff
gfx8|00008cbf|s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
gfx8|710f8cbf|s_waitcnt vmcnt(1)
gfx8|220191bf|s_sendmsghalt sendmsg(MSG_GS, GS_OP_EMIT, 1)
gfx8|020090bf|s_sendmsg sendmsg(2, 0, 0)
gfx8|000081bf|s_endpgm
gfx8|ffff82bf|s_branch 65535
gfx8|0f009dbf|s_set_gpr_idx_mode gpr_idx(SRC0,SRC1,SRC2,DST)
gfx8|410102c0ffff0700|s_load_dword s5, s[2:3], 0x7ffff
gfx8|52ec8880|s_sub_u32 s8, s82, src_shared_limit
gfx8|413100ba41312111|s_setreg_imm32_b32 hwreg(HW_REG_MODE, 5, 7), 0x11213141
gfx9|414102c045230100|s_load_dword s5, s[2:3], s0 offset:0x12345
gfx9|414102c000000000|s_load_dword s5, s[2:3], s0 offset:0x0
gfx9|ba962ac188ce50af|s_buffer_atomic_xor s90, ttmp[8:11], -0xf3178
gfx9|1a33c686|s_and_b64 s[70:71], s[26:27], s[50:51]
gfx9|04ff1580f0ffffff|s_add_u32 s21, s4, -16
gfx10.3|024531f4341200fa|s_buffer_load_dwordx16 s[20:35], s[4:7], 0x1234 glc dlc
gfx10.3|200010f400001240|s_load_dwordx16 s[0:15], s[64:65], s32 offset:-0xe0000
gfx10.3|0a62eb8d|<invalid>
gfx11|820224f4000000f8|s_buffer_load_b64 s[10:11], s[4:7], null
gfx11|910087bf|s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
gfx11|1b2f88bf|s_waitcnt_depctr depctr_hold_cnt(0) depctr_va_vdst(2) depctr_vm_vsrc(6)
gfx11|feff88bf|s_waitcnt_depctr 0xfffe
gfx11|999389bf|s_waitcnt vmcnt(36) expcnt(1) lgkmcnt(57)
gfx11|8100b6bf|s_sendmsg sendmsg(MSG_RTN_GET_DDID)
gfx11|3412b6bf|s_sendmsg 4660
gfx11|a04ca1be|s_sendmsg_rtn_b32 s33, sendmsg(160, 0, 0)
gfx11|34127cbc|s_waitcnt_vscnt null, 0x1234
gfx11|000085bf|s_clause 0x0
gfx11|000087bf|s_delay_alu 0
gfx11|ff0246bf563412af|<invalid>
gfx11|3412a0bf|s_branch 4660
gfx10.3|0180a0b0|s_version 1|UC_VERSION_MDP_BIT
gfx10.3|04e0a0b0|s_version ((UC_VERSION_GFX10|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT)|UC_VERSION_MDP_BIT
gfx11|0000a0b0|s_version UC_VERSION_GFX7
gfx11|0010a0b0|s_version 0x1000
gfx11|0500a0b0|s_version 5
`;

/** gen | input | hex or '<error>'. */
const ASM = `
gfx7|s_load_dword s5, s[2:3], 0xaf123456|ff8202c0563412af
gfx8|s_waitcnt vmcnt(1)|710f8cbf
gfx8|s_getreg_b32 s5, hwreg(HW_REG_MODE, 5, 7)|413185b8
gfx8|s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)|220190bf
gfx9|s_load_dword s5, s[2:3], s0 offset:0x12345|414102c045230100
gfx9|s_add_u32 s21, s4, -16|04d01580
gfx10.3|s_load_dwordx16 s[0:15], s[64:65], s32 offset:-0xe0000|200010f400001240
gfx11|s_andn2_b32 s0, s1, s2|01020091
gfx11|s_waitcnt expcnt(8)|<error>
gfx11|s_add_i32 s0, s1, vccz|<error>
gfx9|s_mov_b32 s0, s1, s2|<error>
gfx7|s_mov_b64 s[6:7], [s8,s9]|080486be
gfx7|s_mov_b64 [exec_lo,exec_hi], s[2:3]|0204febe
gfx8|s_mov_b32 [ttmp5], [ttmp3]|7300f5be
gfx8|s_buffer_load_dwordx4 [ttmp[8],ttmp[8+1],ttmp[5*2],ttmp[(3+2)*2+1]], ttmp[45/11:(33+45)/11], ttmp4|3a1e28c074000000
gfx7|s_mov_b64 [s2,s4], s[2:3]|<error>
gfx7|s_mov_b64 [vcc_hi,exec_lo], s[2:3]|<error>
gfx7|s_mov_b64_e32 s[0:1], 0xffffffffffffffff|c10480be
gfx9|s_mov_b64_e32 s[0:1], 0.0|800180be
gfx7|s_buffer_load_dword_e32 s51, s[60:63], 0x13|13bd19c2
gfx7|s_ashr_i64 s[2:3], -65536, 0xFFFF0000|ffff82910000ffff
gfx9|s_load_dword s1, s[2:3], 0xFFFFFFFFFFF00000|410002c000001000
gfx7|s_add_u32 s21, s4, lit ( 32 )|04a01580
gfx7|s_buffer_load_dword s51, s[60:63], lit(253)|fdbd19c2
gfx7|s_getreg_b32 s2, {id: 51, offset: 1, size: 31}|73f002b9
gfx10.3|s_getreg_b32 s2, {size: 32, id: 51}|33f802b9
gfx11|s_getreg_b32 s2, {}|00f882b8
gfx10.3|s_setreg_b32 hwreg(HW_REG_HW_ID), s2|17f882b9
gfx7|s_waitcnt vmcnt ( 14 )&expcnt( 2 )|2e0f8cbf
gfx8|s_waitcnt expcnt_sat(0xFFFF0000)|7f0f8cbf
gfx7|s_waitcnt vmcnt(0), expcnt(0), lgkmcnt(0),|<error>
gfx8|s_sendmsg sendmsg(2, GS_OP_CUT)|120090bf
gfx7|s_sendmsg sendmsg(MSG_SAVEWAVE)|<error>
gfx8|s_sendmsg sendmsg(2, 2, 4)|<error>
gfx11|s_sendmsg sendmsg(15, 8)|<error>
gfx8|s_sendmsg sendmsg(MSG_GS, GS_OP_NOP)|<error>
gfx8|s_sendmsg sendmsg(MSG_INTERRUPT, 0)|<error>
gfx7|s_load_dword s1, s[2:3], -1|<error>
gfx9|s_buffer_load_dword s10, s[92:95], -1|<error>
gfx8|s_load_dword m0, s[0:1], s4|<error>
gfx8|s_set_gpr_idx_on s0, 16|<error>
gfx9|s_cmpk_le_u32 s2, -1|<error>
gfx7|s_branch s0|<error>
gfx10.3|s_waitcnt_depctr -32768|0080a3bf
gfx10.3|s_waitcnt_depctr -32769|<error>
gfx11|s_waitcnt_vscnt s0, 0x1234|<error>
gfx11|s_ctz_i32_b32 exec_hi, src_scc|fd08ffbe
gfx10.3|s_version 1|UC_VERSION_MDP_BIT|018080b0
gfx10.3|s_version ((UC_VERSION_GFX10|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT)|UC_VERSION_MDP_BIT|04e080b0
gfx11|s_version UC_VERSION_GFX12|090080b0
gfx7|s_xor_b64 s[30:31], s[3:4], s[15:16]|<error>
gfx10.3|s_add_i32 s0, pops_exiting_wave_id, s1|ef010081
gfx11|s_add_i32 s0, pops_exiting_wave_id, s1|<error>
gfx8|s_add_u32 null, s0, s1|<error>
gfx8|s_mov_b32 xnack_mask_lo, -1|<error>
gfx9|s_mov_b32 xnack_mask_lo, -1|c100e8be
gfx10.3|s_setreg_b32 hwreg(HW_REG_HW_ID), s2|17f882b9
gfx11|s_setreg_b32 hwreg(HW_REG_HW_ID), s2|<error>
`;

function rows(text: string): string[][] {
  return text
    .trim()
    .split('\n')
    .map((l) => l.split('|'));
}

function hexOf(words: readonly number[]): string {
  return words
    .map((w) => [0, 8, 16, 24].map((s) => ((w >>> s) & 0xff).toString(16).padStart(2, '0')).join(''))
    .join('');
}

describe('scalar disassembly', () => {
  for (const [gen, hex, ...rest] of rows(DISASM)) {
    const text = rest.join('|');
    it(`${gen} ${hex}`, () => {
      const r = disassembleOne(targetFor(CPU[gen]), hexToBytes(hex));
      expect('error' in r ? '<invalid>' : r.text).toBe(text);
    });
  }

  it('reports a truncated literal', () => {
    const r = disassembleOne(targetFor('gfx900'), hexToBytes('ff0480be'));
    expect('error' in r && r.error.code).toBe('truncated');
  });

  it('reports a truncated SMEM second dword', () => {
    const r = disassembleOne(targetFor('gfx1030'), hexToBytes('020530f4'));
    expect('error' in r && r.error.code).toBe('truncated');
  });

  it('throws only DecodeError on random input', () => {
    const t = targetFor('gfx1100');
    let x = 12345;
    for (let i = 0; i < 5000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const words = Uint32Array.of((0x2 << 30) | (x >>> 2));
      try {
        decodeAt(t, words, 0);
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
      }
    }
  });

  it('gives SOPP branch targets', () => {
    const t = targetFor('gfx900');
    const inst = decodeAt(t, bytesToWords(hexToBytes('000000bffeff82bf')), 1);
    expect(branchTarget(inst)).toBe(4 + 4 - 8);
  });
});

describe('scalar assembly', () => {
  for (const row of rows(ASM)) {
    // The input may hold '|' (s_version's flags): the bytes are the last field.
    const [gen, hex, input] = [row[0], row[row.length - 1], row.slice(1, -1).join('|')];
    it(`${gen} ${input}`, () => {
      const r = assembleLine(targetFor(CPU[gen]), input);
      expect(r.words ? hexOf(r.words) : '<error>').toBe(hex);
    });
  }

  it('resolves branch labels', () => {
    const p = assembleProgram(
      targetFor('gfx1030'),
      'top:\n  s_nop 0\n  s_cbranch_scc0 top\n  s_branch end\nend:\n  s_endpgm',
    );
    expect(hexOf([...p.words])).toBe('000080bffeff84bf000082bf000081bf');
  });
});
