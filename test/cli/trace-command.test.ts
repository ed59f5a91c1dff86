/**
 * `gcn-webgpu trace`: raw code with --mcpu, a capture, JSON, the exit codes (0 all traced, 2 some
 * access untraced, 3 invalid input or usage).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  return main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), stdin: () => '' }).then((code) => ({
    code,
    out,
    err,
  }));
}

const code = (name: string): string => `test/corpus-kernels/code/${name}.bin`;

describe('gcn-webgpu trace', () => {
  it('prints each access with its descriptors, their provenance and chains (ACO waterfall, raw code)', async () => {
    const r = await run(['trace', code('radv_gfx1030w32_nonuniform_texture_sample'), '--mcpu', 'gfx1030']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^; assumed: no capture: s0\.\.s15 are taken as user-data words 0\.\.15/m);
    expect(r.out).toMatch(/^0x4c {2}image_sample_lz v\[4:7\], v\[2:3\], s\[8:15\], s\[16:19\]/m);
    expect(r.out).toMatch(
      /T# s\[8:15\]: selected per lane from table \[user_data\[2\], 0xffff8000\] at offset v1 << 6 \(record = 0x0 \+ 64 \* \(0xf & v0@entry\)\); ACO's waterfall over the lane's index, wave32/,
    );
    expect(r.out).toMatch(/S# s\[16:19\]: bound/);
    expect(r.out).toMatch(/^ {8}0x2c {3}s_movk_i32 s5, 0x8000: s5 = 0xffff8000 \(a constant\)$/m);
    expect(r.out).toMatch(/^ {2}slot 0: table \[user_data\[2\], 0xffff8000\] \+ 0x0 \+ 64 \* \(0xf & v0@entry\)/m);
  });

  it('--json gives the same result as data, addresses in hex', async () => {
    const r = await run(['trace', code('llvm_gfx900_waterfall_image_load'), '--mcpu', 'gfx900', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      target: { mcpu: string };
      accesses: { at: string; classification: string; descriptors: { classification: { kind: string } }[] }[];
      slots: { accesses: string[] }[];
      cfg: { loops: { depth: number }[] };
    };
    expect(j.target.mcpu).toBe('gfx900');
    expect(j.accesses.map((a) => [a.at, a.classification])).toEqual([
      ['0x80', 'selected'],
      ['0x9c', 'bound'],
    ]);
    expect(j.slots[0].accesses).toEqual(['0x80']);
    expect(j.cfg.loops).toHaveLength(1);
  });

  it('exits 2 when an access is untraced, naming the reason and the address', async () => {
    const r = await run([
      'trace',
      code('llvm_gfx1030w32_s_buffer_load_divergent_rsrc'),
      '--mcpu',
      'gfx1030',
      '--brief',
    ]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(
      /V# s\[0:3\]: untraced \(lane-value-outside-waterfall\) at 0x28: v_readfirstlane reads v1 at 0x28/,
    );
    // --brief leaves the chains out.
    expect(r.out).not.toMatch(/at entry:/);
  });

  it('--entry and --end trace one function of raw code', async () => {
    const r = await run([
      'trace',
      code('llvm_gfx803_sampler_const'),
      '--mcpu',
      'gfx803',
      '--entry',
      '256',
      '--end',
      '300',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^0x120 {2}image_sample/m);
    expect(r.out).toMatch(/s8 = constant 0xffffffff/);
    expect(r.out).not.toMatch(/^0x20 /m);
  });

  it('reads a capture: the user-data words come with their values', async () => {
    const r = await run(['trace', 'public/captures/gfx1030-image-sample.gcncap']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^public\/captures\/gfx1030-image-sample\.gcncap: gfx1030$/m);
    expect(r.out).toMatch(/s8 = user-data word 8 \(0x92\)/);
    expect(r.out).toMatch(/s16 = fixed load at \[user_data\[12\], user_data\[13\]\] \+ 0, dword 0/);
  });

  it('exits 3 on usage errors and unreadable input', async () => {
    expect((await run(['trace', code('llvm_gfx900_waterfall_image_load')])).code).toBe(3);
    expect((await run(['trace', code('llvm_gfx900_waterfall_image_load'), '--mcpu', 'gfx900', '--bogus'])).code).toBe(
      3,
    );
    expect((await run(['trace', 'public/captures/gfx1030-image-sample.gcncap', '--entry', '4'])).code).toBe(3);
    expect((await run(['trace', 'public/captures/gfx1030-image-sample.gcncap', '--mcpu', 'gfx900'])).code).toBe(3);
    const missing = await run(['trace', 'no/such/file.bin', '--mcpu', 'gfx900']);
    expect(missing.code).toBe(3);
    expect(missing.err).toMatch(/ENOENT/);
    expect(
      (await run(['trace', code('llvm_gfx900_waterfall_image_load'), '--mcpu', 'gfx900', '--user-sgprs', '17'])).code,
    ).toBe(3);
  });
});
