import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

function run(argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  return main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), stdin: () => stdin }).then((code) => ({
    code,
    out,
    err,
  }));
}

describe('gcn-webgpu disasm', () => {
  it('reads llvm-mc byte tokens (commas or spaces, # comments) and prints one instruction a line', async () => {
    const r = await run(['disasm', '--mcpu', 'gfx900', '-'], '0x00,0x00,0x80,0xbe # s_mov_b32\n0x01 0x05 0x00 0x02\n');
    expect(r.code).toBe(0);
    expect(r.out).toBe('\ts_mov_b32 s0, s0\n\tv_add_f32_e32 v0, v1, v2\n');
  });

  it('--tsv prints HEX<TAB>TEXT and <invalid> for bytes that are not an instruction', async () => {
    const r = await run(['disasm', '--mcpu', 'gfx1030', '--tsv', '-'], '7d040010\nffffffff\n');
    expect(r.out).toBe('7d040010\tv_mul_f32_e32 v0, null, v2\nffffffff\t<invalid>\n');
    expect(r.code).toBe(1);
  });

  it('--binary lists a whole program with addresses, labels and its end', async () => {
    const r = await run(['disasm', '--mcpu', 'gfx1030', '--binary', 'public/samples/gfx1030w32_lds_prefix_sum.bin']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\s+\/\*000000\*\/ s_mov_b32 s0, s3$/m);
    expect(r.out).toMatch(/s_cbranch_scc1 \.L_00a4/);
    expect(r.out).toMatch(/^\.L_00a4:$/m);
    expect(r.out).toMatch(/; end of program at 0xc4/);
  });

  it('exits 3 with a usage message for an unknown processor', async () => {
    const r = await run(['disasm', '--mcpu', 'gfx9999', '-'], '');
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/unknown processor 'gfx9999'/);
  });
});

describe('gcn-webgpu asm', () => {
  it('--tsv prints TEXT<TAB>HEX or TEXT<TAB><error>: message', async () => {
    const r = await run(['asm', '--mcpu', 'gfx900', '--tsv', '-'], 's_mov_b32 s0, s1\nv_bogus v0\n');
    expect(r.out.split('\n')[0]).toBe('s_mov_b32 s0, s1\t010080be');
    expect(r.out.split('\n')[1]).toMatch(/^v_bogus v0\t<error>: /);
    expect(r.code).toBe(1);
  });

  it('assembles a program with labels to a binary that disassembles back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gcn-asm-'));
    const src = join(dir, 'p.s');
    writeFileSync(src, 'loop:\n  s_add_u32 s0, s0, 1\n  s_cmp_lg_u32 s0, 8\n  s_cbranch_scc1 loop\n  s_endpgm\n');
    const r = await run(['asm', '--mcpu', 'gfx1030', src, '-o', join(dir, 'p.bin'), '--show-encoding']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/s_cbranch_scc1 65533\t; encoding: \[0xfd,0xff,0x85,0xbf\]/);
    const back = await run(['disasm', '--mcpu', 'gfx1030', '--binary', join(dir, 'p.bin')]);
    expect(back.out).toMatch(/^\.L_0000:$/m);
    expect(back.out).toMatch(/s_cbranch_scc1 \.L_0000/);
    expect(readFileSync(join(dir, 'p.bin')).length).toBe(16);
  });
});
