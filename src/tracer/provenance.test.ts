/**
 * Register provenance on small programs assembled from text, one edge case each: values that
 * two paths disagree on, a value carried around a loop, samplers built in place (D983: s_movk,
 * s_bfm, s_brev, s_bitreplicate_b64_b32, 64-bit literal moves, folded through the shared
 * semantics), loads at fixed places (pointer chases), a descriptor loaded from an address the host
 * cannot know, registers never written, values that pass through a VGPR and back, s_getpc_b64.
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { targetFor, type Target } from '../isa/gen.ts';
import type { DispatchSetup } from '../interp/dispatch.ts';
import { entryFromSetup, type EntryState } from './entry.ts';
import { codeAddress } from './ids.ts';
import type { Provenance } from './provenance.ts';
import { traceProgram, type AccessTrace, type DescriptorTrace, type TraceOptions } from './trace.ts';

function trace(t: Target, source: string, options: TraceOptions = {}) {
  return traceProgram(t, assembleProgram(t, source).words, options);
}
const accessNamed = (accesses: readonly AccessTrace[], name: string): AccessTrace => {
  const a = accesses.find((x) => x.instruction.startsWith(name));
  if (!a) throw new Error(`no ${name} access`);
  return a;
};
const descriptor = (a: AccessTrace, role: 'resource' | 'sampler'): DescriptorTrace =>
  a.descriptors.find((d) => d.role === role)!;
const constants = (d: DescriptorTrace): (number | undefined)[] =>
  d.words.map((w) => (w.provenance.kind === 'constant' ? w.provenance.value : undefined));

const gfx9 = targetFor('gfx900');
const gfx10 = targetFor('gfx1030');

describe('joins', () => {
  const program = (otherSource: string): string => `
      s_cmp_eq_u32 s0, 0
      s_cbranch_scc1 other
      s_mov_b32 s8, s1
      s_branch done
    other:
      s_mov_b32 s8, ${otherSource}
    done:
      s_mov_b32 s9, s3
      s_mov_b32 s10, s4
      s_mov_b32 s11, s5
      buffer_load_dword v1, v0, s[8:11], 0 offen
      s_endpgm`;

  it('two paths giving a register different values: untraced, named by the block and the register', () => {
    const r = trace(gfx9, program('s2'));
    const v = descriptor(accessNamed(r.accesses, 'buffer_load_dword'), 'resource');
    expect(v.classification).toEqual({
      kind: 'untraced',
      reason: 'join',
      at: 0x14,
      detail: 's8: paths into 0x14 give s8 different values',
    });
    expect(v.words[0].provenance).toMatchObject({ kind: 'unknown', origin: 'join', at: 0x14 });
    // The chain keeps both paths' steps, then the join.
    expect(v.words[0].chain.map((s) => [s.at, s.action])).toEqual([
      [undefined, 'entry'],
      [0x8, 'copy'],
      [undefined, 'entry'],
      [0x10, 'copy'],
      [0x14, 'join'],
    ]);
    expect(v.words.slice(1).map((w) => w.provenance)).toEqual([3, 4, 5].map((index) => ({ kind: 'user-data', index })));
  });

  it('two paths giving a register the same value keep it', () => {
    const r = trace(gfx9, program('s1'));
    const v = descriptor(accessNamed(r.accesses, 'buffer_load_dword'), 'resource');
    expect(v.classification).toEqual({ kind: 'bound' });
    expect(v.words[0].provenance).toEqual({ kind: 'user-data', index: 1 });
  });

  it('a register changed around a loop is loop-carried, named at the loop header', () => {
    const r = trace(
      gfx9,
      `
        s_mov_b32 s8, s0
        s_mov_b32 s9, s1
        s_mov_b32 s10, s2
        s_mov_b32 s11, s3
      loop:
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_add_u32 s8, s8, 16
        s_sub_u32 s4, s4, 1
        s_cmp_lg_u32 s4, 0
        s_cbranch_scc1 loop
        s_endpgm`,
    );
    expect(r.cfg.loops).toHaveLength(1);
    const v = descriptor(accessNamed(r.accesses, 'buffer_load_dword'), 'resource');
    expect(v.classification).toEqual({
      kind: 'untraced',
      reason: 'loop-carried',
      at: 0x10,
      detail: 's8: s8 changes around the loop at 0x10',
    });
    // The words the loop does not change stay traced.
    expect(v.words.slice(1).map((w) => w.provenance.kind)).toEqual(['user-data', 'user-data', 'user-data']);
  });
});

describe('samplers built in place (folded through the shared semantics)', () => {
  it('s_bitreplicate_b64_b32 and s_mov_b64 of a literal (gfx9 and gfx10.3)', () => {
    for (const [t, dim] of [
      [gfx9, ''],
      [gfx10, ' dim:SQ_RSRC_IMG_2D'],
    ] as const) {
      const r = trace(
        t,
        `
          s_bitreplicate_b64_b32 s[8:9], 0x80000003
          s_mov_b64 s[10:11], 0x80000000
          image_sample v[0:3], v[0:1], s[0:7], s[8:11] dmask:0xf${dim}
          s_endpgm`,
      );
      const s = descriptor(r.accesses[0], 'sampler');
      // 0x80000003 bit-replicated: bits 0, 1 and 31 doubled → 0xf in the low word, 0xc0000000 in the high.
      expect(constants(s)).toEqual([0xf, 0xc0000000, 0x80000000, 0]);
      expect(s.classification).toEqual({ kind: 'bound' });
      expect(s.words[0].chain).toEqual([
        {
          at: 0,
          register: 's8',
          action: 'constant',
          text: 's_bitreplicate_b64_b32 s[8:9], 0x80000003: s8 = 0xf (a constant)',
        },
      ]);
      expect(descriptor(r.accesses[0], 'resource').words.map((w) => w.provenance)).toEqual(
        [0, 1, 2, 3, 4, 5, 6, 7].map((index) => ({ kind: 'user-data', index })),
      );
    }
  });

  it('s_movk_i32, s_bfm_b32, s_brev_b32 with register sources that are constants fold too', () => {
    const r = trace(
      gfx9,
      `
        s_movk_i32 s8, 0x8000
        s_mov_b32 s12, 12
        s_bfm_b32 s9, s12, 20
        s_mov_b32 s10, 0x1ff00
        s_brev_b32 s11, s12
        image_sample v[0:3], v[0:1], s[0:7], s[8:11] dmask:0xf
        s_endpgm`,
    );
    const s = descriptor(r.accesses[0], 'sampler');
    expect(constants(s)).toEqual([0xffff8000, 0xfff00000, 0x1ff00, 0x30000000]);
    expect(s.words[1].chain.map((c) => [c.at, c.action])).toEqual([
      [4, 'constant'],
      [8, 'fold'],
    ]);
    expect(s.words[1].chain[1].text).toBe('s_bfm_b32 s9, s12, 20: s9 = 0xfff00000 (folded from constants)');
  });
});

describe('loads', () => {
  it('a pointer chase: a fixed load whose base is itself a fixed load', () => {
    const r = trace(
      gfx9,
      `
        s_load_dwordx2 s[4:5], s[0:1], 0x10
        s_waitcnt lgkmcnt(0)
        s_load_dwordx8 s[8:15], s[4:5], 0x20
        s_waitcnt lgkmcnt(0)
        image_load v[0:3], v0, s[8:15] dmask:0xf unorm
        s_endpgm`,
    );
    const t = descriptor(r.accesses[0], 'resource');
    expect(t.classification).toEqual({ kind: 'bound' });
    const inner = (dword: number): Provenance => ({
      kind: 'load',
      fixed: true,
      at: codeAddress(0),
      instruction: 's_load_dwordx2 s[4:5], s[0:1], 0x10',
      dword,
      through: 'address',
      base: [
        { kind: 'user-data', index: 0 },
        { kind: 'user-data', index: 1 },
      ],
      offset: { kind: 'constant', value: 0x10 },
      offsetText: '0x10',
    });
    expect(t.words[3].provenance).toEqual({
      kind: 'load',
      fixed: true,
      at: 0xc,
      instruction: 's_load_dwordx8 s[8:15], s[4:5], 0x20',
      dword: 3,
      through: 'address',
      base: [inner(0), inner(1)],
      offset: { kind: 'constant', value: 0x20 },
      offsetText: '0x20',
    });
  });

  it('gfx7 counts an immediate SMRD offset in dwords; the traced offset is in bytes', () => {
    const gfx7 = targetFor('gfx704');
    const r = trace(
      gfx7,
      `
        s_buffer_load_dwordx4 s[8:11], s[0:3], 0x4
        s_waitcnt lgkmcnt(0)
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_endpgm`,
    );
    const v = descriptor(accessNamed(r.accesses, 'buffer_load_dword'), 'resource');
    expect(v.words[0].provenance).toMatchObject({
      kind: 'load',
      fixed: true,
      through: 'descriptor',
      offsetText: '0x10',
    });
    expect(descriptor(accessNamed(r.accesses, 's_buffer_load'), 'resource').classification).toEqual({ kind: 'bound' });
  });

  const dispatch = (t: Target, rsrc2: number): EntryState => {
    const setup: DispatchSetup = {
      kind: 'dispatch',
      target: t,
      programAddress: 0x1000,
      rsrc2,
      userData: [0x100, 0x200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      numThreads: [64, 1, 1],
      grid: [4, 1, 1],
    };
    return entryFromSetup(setup, 0x1000);
  };

  it('a descriptor loaded from an address computed from the work-group id: untraced, named', () => {
    // RSRC2: USER_SGPR = 2 (s0, s1), TGID_X_EN: the group's x id in s2.
    const entryState = dispatch(gfx9, (2 << 1) | (1 << 7));
    const r = trace(
      gfx9,
      `
        s_lshl_b32 s3, s2, 5
        s_load_dwordx8 s[8:15], s[0:1], s3
        s_waitcnt lgkmcnt(0)
        image_load v[0:3], v0, s[8:15] dmask:0xf unorm
        s_endpgm`,
      { entryState },
    );
    const t = descriptor(r.accesses[0], 'resource');
    expect(t.classification).toEqual({
      kind: 'untraced',
      reason: 'computed-address',
      at: 4,
      detail:
        's8: s_load_dwordx8 s[8:15], s[0:1], s3 at 0x4 reads an address the host cannot know: s2 holds the work-group id x, which differs per group',
    });
    expect(t.words[0].provenance).toMatchObject({ kind: 'load', fixed: false, offsetText: 'work_group_id_x << 5' });
    // With a capture's values, the user-data words carry them.
    expect(t.words[0].provenance).toMatchObject({
      base: [
        { kind: 'user-data', index: 0, value: 0x100 },
        { kind: 'user-data', index: 1, value: 0x200 },
      ],
    });
  });

  it('a descriptor in registers nothing wrote: untraced (unset)', () => {
    const r = trace(gfx9, 'image_load v[0:3], v0, s[20:27] dmask:0xf unorm\ns_endpgm');
    expect(descriptor(r.accesses[0], 'resource').classification).toEqual({
      kind: 'untraced',
      reason: 'unset',
      at: 0,
      detail: 's20: s20 is read before anything writes it',
    });
  });
});

describe('values through VGPRs and the program counter', () => {
  it('a value moved to a VGPR and read back with v_readfirstlane is the value itself', () => {
    const r = trace(
      gfx10,
      `
        v_mov_b32 v1, s0
        v_readfirstlane_b32 s8, v1
        s_mov_b32 s9, s1
        s_mov_b32 s10, s2
        s_mov_b32 s11, s3
        buffer_load_dword v2, v0, s[8:11], 0 offen
        s_endpgm`,
    );
    const v = descriptor(r.accesses[0], 'resource');
    expect(v.classification).toEqual({ kind: 'bound' });
    expect(v.words[0].provenance).toEqual({ kind: 'user-data', index: 0 });
    expect(v.words[0].chain.map((s) => [s.at, s.action])).toEqual([
      [undefined, 'entry'],
      [0, 'copy'],
      [4, 'copy'],
    ]);
  });

  it('s_getpc_b64 is the code’s address: constants when the capture says where the code lies', () => {
    const source = `
        s_getpc_b64 s[4:5]
        s_add_u32 s4, s4, 0x100
        s_addc_u32 s5, s5, 0
        s_load_dwordx4 s[8:11], s[4:5], 0x0
        s_waitcnt lgkmcnt(0)
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_endpgm`;
    const bare = descriptor(accessNamed(trace(gfx9, source).accesses, 'buffer_load'), 'resource');
    expect(bare.classification).toEqual({ kind: 'bound' });
    expect(bare.words[0].provenance).toMatchObject({
      kind: 'load',
      fixed: true,
      base: [
        { kind: 'computed', knownAtDispatch: true },
        { kind: 'computed', knownAtDispatch: true },
      ],
    });
    const placed = trace(gfx9, source, {
      entryState: { sgprs: new Map(), vgprs: new Map(), codeBase: 0x1_0000_0000, assumptions: [] },
    });
    const v = descriptor(accessNamed(placed.accesses, 'buffer_load'), 'resource');
    // s_getpc_b64 at 0 gives the next instruction's address, 0x1_0000_0004; + 0x100.
    expect(v.words[0].provenance).toMatchObject({
      base: [
        { kind: 'constant', value: 0x104 },
        { kind: 'constant', value: 1 },
      ],
    });
  });
});
