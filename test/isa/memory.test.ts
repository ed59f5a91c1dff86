/**
 * Memory families (DS, MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH): data-line tests of decode,
 * print and assemble per generation. Every expected text and encoding is llvm-mc-19's
 * (gfx7 from assembling with -mcpu=bonaire, as LLVM 19 cannot disassemble it).
 */
import { describe, expect, it } from 'vitest';
import { targetFor } from '../../src/isa/gen.ts';
import { disassembleOne, hexToBytes } from '../../src/isa/disasm.ts';
import { assembleLine } from '../../src/isa/asm.ts';
import { bytesToWords, decodeAt } from '../../src/isa/decoder.ts';
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
 * gen | hex (memory order) | text, or '<invalid>' where LLVM rejects the bytes, or
 * '<truncated>' where the instruction's second dword (or gfx11's literal) is missing.
 * Edge cases: maximum DS/MUBUF/FLAT offsets, negative global/scratch offsets, `off` and
 * saddr forms, gfx11 sve, format names and numbers, unused fields LLVM rejects.
 */
const DISASM = `
gfx7|7fff38d801020300|ds_write2_b32 v1, v2, v3 offset0:127 offset1:255
gfx7|ffffdad901000002|ds_read_b64 v[2:3], v1 offset:65535 gds
gfx7|ffcf30e002014101|buffer_load_dword v1, v[2:3], s[4:7], s1 addr64 offset:4095 glc slc
gfx7|012070e0020101f0|buffer_store_dword v1, v2, s[4:7], 0.5 idxen offset:1
gfx7|000021eb00010101|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_SNORM_OGL]
gfx7|000031dc02000001|flat_load_dword v1, v[2:3] glc
gfx7|000045dd03050001|flat_atomic_cmpswap_x2 v[1:2], v[3:4], v[5:8] glc
gfx8|0740f5e000000101|buffer_store_lds_dword s[4:7], s1 offset:7 lds glc
gfx8|e4807ad802000008|ds_swizzle_b32 v8, v2 offset:swizzle(QUAD_PERM,0,1,2,3)
gfx8|06097ad802000008|ds_swizzle_b32 v8, v2 offset:swizzle(BITMASK_PERM,"01pi0")
gfx8|000028e000010101|buffer_load_format_d16_xyz v[1:3], off, s[4:7], s1
gfx8|000050e000018101|buffer_load_dword v[1:2], off, s[4:7], s1 tfe
gfx8|000033d901000000|ds_gws_init v1 gds
gfx8|0801f8e000000000|buffer_wbinvl1
gfx8|000003dc|<truncated>
gfx9|009050dc02007f01|global_load_dword v1, v[2:3], off offset:-4096
gfx9|ff4f70dc00020300|scratch_store_dword off, v2, s3 offset:4095
gfx9|008009dd01037f00|global_atomic_add v0, v[1:2], v3, off glc
gfx9|00800add01037f00|global_atomic_add v[1:2], v3, off slc
gfx9|00a850dc02000400|global_load_dword v2, s[4:5] offset:2048 lds
gfx9|0080a0eb00010101|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]
gfx9|00107ae902010101|tbuffer_store_format_x v1, v2, s[4:7], s1 format:[BUF_DATA_FORMAT_RESERVED_15,BUF_NUM_FORMAT_USCALED] offen
gfx9|ff0f50dc02000001|flat_load_dword v1, v[2:3] offset:4095
gfx9|ffffaed802000001|ds_read_u8_d16_hi v1, v2 offset:65535
gfx9|ff5f6cdc00026a00|scratch_store_short_d16_hi off, v2, vcc_lo offset:-1
gfx9|368c04df9fe75b4a|global_atomic_cmpswap v159, v[231:232], s[90:91] offset:3126
gfx9|bd783ae35c71e4e4|<invalid>
gfx9|00007fe900010101|tbuffer_store_format_d16_xyz v[1:2], off, s[4:7], s1 format:[BUF_DATA_FORMAT_RESERVED_15,BUF_NUM_FORMAT_USCALED]
gfx9|10007ad800000000|ds_swizzle_b32 v0, v0 offset:swizzle(BROADCAST,16,0)
gfx9|ffffffd9|<truncated>
gfx10.1|009830dc02007d01|global_load_dword v1, v[2:3], off offset:-2048 dlc
gfx10.1|ff4f30dc02007d01|scratch_load_dword v1, v2, off offset:-1
gfx10.1|000001ea00010101|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_FMT_32_32_FLOAT]
gfx10.1|003033ea03012101|tbuffer_load_format_d16_xyzw v[1:2], v[3:4], s[4:7], s1 format:[BUF_FMT_16_16_16_16_SINT] idxen offen
gfx10.1|0000c4e100000000|buffer_gl0_inv
gfx10.1|ff0730dc02007d01|flat_load_dword v1, v[2:3] offset:2047
gfx10.1|00c000e200014101|buffer_load_format_d16_x v1, off, s[4:7], s1 glc slc dlc
gfx10.1|ffffc6da00000001|ds_read_addtid_b32 v1 offset:65535 gds
gfx10.1|0000e0dc00008000|<invalid>
gfx10.3|000088ea00010101|tbuffer_load_format_x v1, off, s[4:7], s1 format:81
gfx10.3|ff8f58dc00000201|global_load_dword_addtid v1, s[2:3] offset:-1
gfx10.3|0050d0e002010101|buffer_atomic_csub v1, v2, s[4:7], s1 offen glc
gfx10.3|000068dc00004000|<invalid>
gfx10.3|004020dc00007f01|scratch_load_ubyte v1, off, off
gfx10.3|2408bbe9ddd01a83|<invalid>
gfx11|000051dcff00fc05|scratch_load_b32 v5, v255, off
gfx11|001051dc00007c05|scratch_load_b32 v5, off, off offset:-4096
gfx11|001052dc02000401|global_load_b32 v1, v2, s[4:5] offset:-4096
gfx11|008090e900010101|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_FMT_32_32_FLOAT]
gfx11|008090e900010101|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_FMT_32_32_FLOAT]
gfx11|7fffe2d901000005|ds_load_2addr_stride64_b64 v[5:8], v1 offset0:127 offset1:255 gds
gfx11|ff0f50dc02007c01|flat_load_b32 v1, v[2:3] offset:4095
gfx11|0000d8d802000001|ds_load_b32 v1, v2
gfx11|0000e2dcff026800|global_atomic_min_i32 v255, v2, s[104:105]
gfx11|007028e00301c101|buffer_load_d16_format_xyz v[1:2], v[3:4], s[4:7], s1 idxen offen glc slc dlc
gfx11|0840d4dc02047c01|flat_atomic_add_u32 v1, v[2:3], v4 offset:8 glc
gfx11|0b0165e06dec22fff78929d8|buffer_store_b16 v[236:237], off, s[8:11], 0xd82989f7 offset:267 tfe
gfx11|0b0165e06dec22ff|<truncated>
gfx11|ef4a96dce6f6e620|<invalid>
gfx11|ff0f08eb00050203|tbuffer_load_format_x v5, off, s[8:11], s3 format:97 offset:4095
gfx11|000051dc|<truncated>
`;

/** gen | input | hex or '<error>' (LLVM rejects the line). */
const ASM = `
gfx7|ds_write2_b32 v1, v2, v3 offset0:127 offset1:255|7fff38d801020300
gfx7|ds_read_b64 v[2:3], v1 offset:65535 gds|ffffdad901000002
gfx7|buffer_load_dword v1, v[2:3], s[4:7], s1 addr64 offset:4095 glc slc|ffcf30e002014101
gfx7|buffer_store_dword v1, v2, s[4:7], 0.5 idxen offset:1|012070e0020101f0
gfx7|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_SNORM_OGL]|000021eb00010101
gfx7|flat_load_dword v1, v[2:3] glc|000031dc02000001
gfx7|flat_atomic_cmpswap_x2 v[1:2], v[3:4], v[5:8] glc|000045dd03050001
gfx7|flat_load_dword v1, v[2:3] offset:4|<error>
gfx7|buffer_load_format_x v61, v[18:19], s[80:83], s35 offset:603 addr64|<error>
gfx8|buffer_store_lds_dword s[4:7], s1 offset:7 lds glc|0740f5e000000101
gfx8|ds_swizzle_b32 v8, v2 offset:swizzle(QUAD_PERM,0,1,2,3)|e4807ad802000008
gfx8|ds_swizzle_b32 v8, v2 offset:swizzle(BITMASK_PERM,"01pi0")|06097ad802000008
gfx8|buffer_load_format_d16_xyz v[1:3], off, s[4:7], s1|000028e000010101
gfx8|buffer_load_dword v[1:2], off, s[4:7], s1 tfe|000050e000018101
gfx8|buffer_store_dword v[1:2], off, s[4:7], s1 tfe|<error>
gfx8|ds_gws_init v1 gds|000033d901000000
gfx8|ds_gws_init v1|<error>
gfx9|global_load_dword v1, v[2:3], off offset:-4096|009050dc02007f01
gfx9|global_load_dword v1, v[2:3], off offset:4096|<error>
gfx9|scratch_store_dword off, v2, s3 offset:4095|ff4f70dc00020300
gfx9|global_atomic_add v0, v[1:2], v3, off glc|008009dd01037f00
gfx9|global_atomic_add v[1:2], v3, off slc|00800add01037f00
gfx9|global_atomic_add v0, v[1:2], v3, off|<error>
gfx9|global_load_dword v2, s[4:5] offset:2048 lds|00a850dc02000400
gfx9|buffer_load_format_d16_xyz v[1:2], off, s[4:7], s1 idxen offset:4095|<error>
gfx9|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]|0080a0eb00010101
gfx9|tbuffer_store_format_x v1, v2, s[4:7], dfmt:15, nfmt:2, s1 offen|00107ae902010101
gfx9|flat_load_dword v1, v[2:3] offset:4095|ff0f50dc02000001
gfx9|ds_read_u8_d16_hi v1, v2 offset:65535|ffffaed802000001
gfx9|buffer_load_dword v1, off, s[4:7], s1 dlc|<error>
gfx9|global_load_dword v1, v[2:3], off offset:-4097|<error>
gfx9|buffer_load_dword v1, v[2:3], s[4:7], s1 addr64|<error>
gfx9|flat_load_dword v[63/8+1:65/8], v[2:3]|000050dc02000008
gfx9|buffer_load_dwordx4 [v1,v2,v3,v4], off, [s4,s5,s6,s7], s1|00005ce000010101
gfx10.1|global_load_dword v1, v[2:3], off offset:-2048 dlc|009830dc02007d01
gfx10.1|global_load_dword v1, v[2:3], off offset:2048|<error>
gfx10.1|scratch_load_dword v1, off, off|<error>
gfx10.1|scratch_load_dword v1, v2, off offset:-1|ff4f30dc02007d01
gfx10.1|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_FMT_32_32_FLOAT]|000001ea00010101
gfx10.1|tbuffer_load_format_d16_xyzw v[1:2], v[3:4], s[4:7], s1 format:[BUF_DATA_FORMAT_16_16_16_16,BUF_NUM_FORMAT_SINT] idxen offen|003033ea03012101
gfx10.1|buffer_gl0_inv|0000c4e100000000
gfx10.1|flat_load_dword v1, v[2:3] offset:2047|ff0730dc02007d01
gfx10.1|buffer_load_format_d16_x v1, off, s[4:7], s1 glc slc dlc|00c000e200014101
gfx10.1|ds_read_addtid_b32 v1 offset:65535 gds|ffffc6da00000001
gfx10.3|tbuffer_load_format_x v1, off, s[4:7], s1 format:81|000088ea00010101
gfx10.3|global_load_dword_addtid v1, s[2:3] offset:-1|ff8f58dc00000201
gfx10.3|scratch_store_dword off, v2, exec_hi|<error>
gfx10.3|buffer_atomic_csub v1, v2, s[4:7], s1 offen glc|0050d0e002010101
gfx10.3|scratch_load_dword v1, off, off|004030dc00007f01
gfx11|scratch_load_b32 v5, v255, off|000051dcff00fc05
gfx11|scratch_load_b32 v5, off, off offset:-4096|001051dc00007c05
gfx11|global_load_b32 v1, v2, s[4:5] offset:-4096|001052dc02000401
gfx11|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_FMT_32_32_FLOAT]|008090e900010101
gfx11|tbuffer_load_format_xy v[1:2], off, s[4:7], s1 format:[BUF_DATA_FORMAT_32_32,BUF_NUM_FORMAT_FLOAT]|008090e900010101
gfx11|ds_load_2addr_stride64_b64 v[5:8], v1 offset0:127 offset1:255 gds|7fffe2d901000005
gfx11|flat_load_b32 v1, v[2:3] offset:4095|ff0f50dc02007c01
gfx11|ds_read_b32 v1, v2|0000d8d802000001
gfx11|global_atomic_smin v255, v2, s[104:105]|0000e2dcff026800
gfx11|buffer_load_d16_format_xyz v[1:2], v[3:4], s[4:7], s1 idxen offen glc slc dlc|007028e00301c101
gfx11|buffer_atomic_add_u32 v1, off, null, s1|<error>
gfx11|flat_atomic_add_u32 v1, v[2:3], v4 offset:8 glc|0840d4dc02047c01
gfx11|buffer_store_b16 v1, off, s[8:11], 0x1234 offset:267|<error>
gfx11|tbuffer_load_format_xy v[1:2], off, s[4:7], dfmt:11, nfmt:7, s1|008090e900010101
`;

function rows(table: string): string[][] {
  return table
    .trim()
    .split('\n')
    .map((l) => l.split('|'));
}

function hexOf(words: readonly number[]): string {
  let s = '';
  for (const w of words) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

describe('memory families: bytes to text', () => {
  for (const [gen, hex, want] of rows(DISASM)) {
    it(`${gen} ${hex} → ${want}`, () => {
      const r = disassembleOne(targetFor(CPU[gen]), hexToBytes(hex));
      if (want === '<invalid>' || want === '<truncated>') {
        expect('error' in r).toBe(true);
        if ('error' in r) {
          expect(r.error).toBeInstanceOf(DecodeError);
          expect(r.error.code === 'truncated').toBe(want === '<truncated>');
        }
      } else {
        expect('error' in r ? r.error.message : r.text).toBe(want);
        expect('error' in r ? 0 : r.size).toBe(hex.length / 2);
      }
    });
  }
});

describe('memory families: text to bytes', () => {
  for (const [gen, text, want] of rows(ASM)) {
    it(`${gen} ${text}`, () => {
      const r = assembleLine(targetFor(CPU[gen]), text);
      expect(r.words ? hexOf(r.words) : '<error>').toBe(want);
    });
  }
});

/** Rows whose bytes hold bits LLVM ignores (or a literal soffset its assembler refuses): their text does not give them back. */
const NOT_CANONICAL = new Set(['0b0165e06dec22fff78929d8', '368c04df9fe75b4a', '0801f8e000000000']);

describe('memory families: round trip', () => {
  for (const [gen, hex, want] of rows(DISASM)) {
    if (want.startsWith('<') || NOT_CANONICAL.has(hex)) continue;
    it(`${gen} ${want}`, () => {
      const r = assembleLine(targetFor(CPU[gen]), want);
      expect(r.words ? hexOf(r.words) : r.error?.reason).toBe(hex);
    });
  }
});

describe('memory families: decoded fields', () => {
  it("names FLAT-segment fields as AMD does and picks the segment's registry entry", () => {
    const t = targetFor('gfx900');
    const inst = decodeAt(t, bytesToWords(hexToBytes('009050dc02007f01')), 0);
    expect(inst.def.name).toBe('global_load_dword');
    expect(inst.def.family).toBe('GLOBAL');
    expect(inst.encoding).toBe('GLOBAL');
    expect(inst.fields).toMatchObject({ seg: 2, addr: 2, saddr: 0x7f, vdst: 1, offset: 0x1000 });
  });

  it("joins gfx10 MTBUF's split opcode", () => {
    const inst = decodeAt(targetFor('gfx1010'), bytesToWords(hexToBytes('003033ea03012101')), 0);
    expect(inst.def.name).toBe('tbuffer_load_format_d16_xyzw');
    expect(inst.fields.op).toBe(11);
  });
});
