/**
 * The two waterfall shapes, hand-written in both wave sizes, and the ways a loop falls short of
 * one: ACO's loop over a lane's index (v_readfirstlane, v_cmpx_eq, the scalar load at the
 * selected offset, s_andn2 exec, s_cbranch_scc0) and LLVM's loop over the descriptor words
 * (v_readfirstlane of each dword, v_cmp_eq_u64 per pair, s_and_saveexec, s_xor exec,
 * s_cbranch_execnz), nested for a non-uniform descriptor and sampler.
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { Gen, targetFor, type Target } from '../isa/gen.ts';
import { evaluateExpr } from '../semantics/expr.ts';
import type { Classification, Selection } from './classify.ts';
import { traceProgram, type AccessTrace, type TraceResult } from './trace.ts';

function trace(t: Target, source: string): { r: TraceResult; label: (name: string) => number } {
  const p = assembleProgram(t, source);
  return { r: traceProgram(t, p.words), label: (name) => p.labels.get(name)! };
}
const selected = (c: Classification): Selection => {
  if (c.kind !== 'selected') throw new Error(`not selected: ${JSON.stringify(c)}`);
  return c.selection;
};
/** The record index as each lane computes it, for lanes whose entry VGPRs hold `vgprs(lane)`. */
const indexOf = (s: Selection, lane: number, vgprs: (lane: number) => Record<string, number>): number =>
  evaluateExpr([s.record.indexExpr], {
    word: (name) => {
      const v = vgprs(lane)[name];
      if (v === undefined) throw new Error(`the index reads ${name}`);
      return v;
    },
    bool: () => {
      throw new Error('no bool input');
    },
  })[0] as number;
const sample = (r: TraceResult): AccessTrace => r.accesses.find((a) => a.kind === 'image')!;

interface Forms {
  readonly t: Target;
  readonly b: 'b32' | 'b64';
  readonly exec: string;
  readonly vcc: string;
  /** An SGPR (pair) for a lane mask, by base. */
  readonly mask: (base: number) => string;
  readonly dim: string;
  /** v_cmpx's e32 destination as the generation spells it. */
  readonly cmpx: string;
}
const forms = (t: Target): Forms => {
  const w64 = t.wave64;
  return {
    t,
    b: w64 ? 'b64' : 'b32',
    exec: w64 ? 'exec' : 'exec_lo',
    vcc: w64 ? 'vcc' : 'vcc_lo',
    mask: (base) => (w64 ? `s[${base}:${base + 1}]` : `s${base}`),
    dim: t.gen >= Gen.GFX10 ? ' dim:SQ_RSRC_IMG_2D' : '',
    cmpx: t.gen >= Gen.GFX10 ? '' : 'vcc, ',
  };
};
const TARGETS = [targetFor('gfx900'), targetFor('gfx1030'), targetFor('gfx1030', true)];
const waveName = (t: Target) => `${t.cpu} wave${t.wave64 ? 64 : 32}`;

/** ACO's shape: the T# at table s[4:5] + (v0 & 7) * 32. `body` goes after the access, `back` before the branch back. */
function acoSource(f: Forms, o: { body?: string; back?: string; exit?: string; compare?: boolean } = {}): string {
  const { b, exec } = f;
  return `
      v_and_b32_e32 v1, 7, v0
      s_mov_${b} ${f.mask(20)}, ${exec}
    loop:
      v_readfirstlane_b32 s1, v1
      s_mov_${b} ${f.mask(22)}, ${exec}
      ${o.compare === false ? '' : `v_cmpx_eq_u32_e32 ${f.cmpx}s1, v1`}
      s_cbranch_execz next
      s_lshl_b32 s2, s1, 5
      s_load_dwordx8 s[8:15], s[4:5], s2
      s_waitcnt lgkmcnt(0)
    access:
      image_load v[4:7], v[2:3], s[8:15] dmask:0xf${f.dim} unorm
      ${o.body ?? ''}
    exit:
      ${o.exit ?? `s_andn2_${b} ${f.mask(22)}, ${f.mask(22)}, ${exec}`}
      s_cbranch_scc0 done
    next:
      s_mov_${b} ${exec}, ${f.mask(22)}
      ${o.back ?? ''}
      s_branch loop
    done:
      s_mov_${b} ${exec}, ${f.mask(20)}
      s_endpgm`;
}

describe("ACO's waterfall over a lane's index", () => {
  for (const t of TARGETS) {
    const f = forms(t);
    it(`${waveName(t)}: the T# is a record of the table at s[4:5], selected by v1 = v0 & 7`, () => {
      const { r, label } = trace(t, acoSource(f));
      const a = sample(r);
      expect(a.classification).toBe('selected');
      const s = selected(a.descriptors[0].classification);
      expect(s.shape).toEqual({
        kind: 'index',
        compiler: 'ACO',
        waveSize: t.wave64 ? 64 : 32,
        loop: { header: label('loop'), backEdges: [label('done') - 4], depth: 1 },
        keys: [
          {
            vgprs: ['v1'],
            readAt: [label('loop')],
            compareAt: label('loop') + 8,
            compare: expect.stringMatching(/^v_cmpx_eq_u32 of s1$/),
          },
        ],
        narrowing: [{ at: label('loop') + 8, form: 'v_cmpx' }],
        exit: { at: label('exit'), form: 'andn2-exec-scc0' },
      });
      const { baseExprs, ...table } = s.table;
      expect(table).toEqual({
        through: 'scalar-address',
        base: [
          { kind: 'user-data', index: 4 },
          { kind: 'user-data', index: 5 },
        ],
        text: '[user_data[4], user_data[5]]',
      });
      // The base's two words as the traced values the host evaluates (the user-data leaves).
      expect(baseExprs.map((e) => e.op)).toEqual(['input', 'input']);
      expect(s.offset).toBe('v1 << 5');
      expect([s.record.start, s.record.stride]).toEqual([0, 32]);
      for (let lane = 0; lane < 64; lane += 5) expect(indexOf(s, lane, (l) => ({ 'v0@entry': l }))).toBe(lane & 7);
      expect(s.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
      expect(r.slots).toEqual([
        {
          id: 0,
          table: '[user_data[4], user_data[5]] + 0x0 + 32 * (7 & v0@entry)',
          sampler: 'none',
          shape: t.gen >= Gen.GFX10 ? 'flat' : 'any',
          accesses: [label('access')],
        },
      ]);
    });

    it(`${waveName(t)}: the access writing the key VGPR under the narrowed EXEC leaves the index as it entered`, () => {
      const { r } = trace(t, acoSource(f, { body: 'v_mov_b32_e32 v1, 0' }));
      const s = selected(sample(r).descriptors[0].classification);
      expect(s.record.index).toBe('7 & v0@entry');
    });

    it(`${waveName(t)}: a key changed for the lanes still to come is a loop-carried index`, () => {
      const { r, label } = trace(t, acoSource(f, { back: 'v_xor_b32_e32 v1, 1, v1' }));
      const s = selected(sample(r).descriptors[0].classification);
      expect(s.record.index).toBe(`join@0x${label('loop').toString(16)}(v1)`);
    });

    it(`${waveName(t)}: no compare in the loop is not a waterfall`, () => {
      const { r, label } = trace(t, acoSource(f, { compare: false }));
      expect(sample(r).descriptors[0].classification).toEqual({
        kind: 'untraced',
        reason: 'unrecognised-waterfall',
        at: label('loop'),
        detail: `the loop at 0x${label('loop').toString(16)}: no v_cmp_eq before the access compares the value v_readfirstlane read at 0x${label('loop').toString(16)} with v1`,
      });
    });

    it(`${waveName(t)}: a loop that does not remove the handled lanes is not a waterfall`, () => {
      const { r } = trace(t, acoSource(f, { exit: 's_cmp_eq_u32 s2, 0' }));
      const c = sample(r).descriptors[0].classification;
      expect(c).toMatchObject({ kind: 'untraced', reason: 'unrecognised-waterfall' });
      expect(c.kind === 'untraced' && c.detail).toMatch(/neither removes the handled lanes/);
    });
  }

  it('gfx11 spells it s_load_b256 and s_and_not1_b32: the same shape', () => {
    const t = targetFor('gfx1100');
    const source = acoSource(forms(t), { exit: 's_and_not1_b32 s22, s22, exec_lo' }).replace(
      's_load_dwordx8',
      's_load_b256',
    );
    const { r, label } = trace(t, source);
    const s = selected(sample(r).descriptors[0].classification);
    expect(s.shape).toMatchObject({
      kind: 'index',
      compiler: 'ACO',
      waveSize: 32,
      exit: { at: label('exit'), form: 'andn2-exec-scc0' },
    });
    expect([s.record.start, s.record.stride, s.record.index]).toEqual([0, 32, '7 & v0@entry']);
  });

  it("D983's shape: the record loaded by s_buffer_load_dwordx8 through the table's V#, the offset in vcc_lo", () => {
    const t = targetFor('gfx1030');
    const source = `
        v_and_b32_e32 v1, 0xff, v0
        s_mov_b64 s[40:41], s[0:1]
        s_mov_b64 s[42:43], s[2:3]
        s_mov_b32 s20, exec_lo
      loop:
        v_readfirstlane_b32 s1, v1
        s_mov_b32 s22, exec_lo
        v_cmpx_eq_u32_e32 s1, v1
        s_cbranch_execz next
        s_lshl_b32 vcc_lo, s1, 5
        s_buffer_load_dwordx8 s[8:15], s[40:43], vcc_lo
        s_waitcnt lgkmcnt(0)
      access:
        image_sample v[4:7], v[2:3], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
        s_andn2_b32 s22, s22, exec_lo
        s_cbranch_scc0 done
      next:
        s_mov_b32 exec_lo, s22
        s_branch loop
      done:
        s_mov_b32 exec_lo, s20
        s_endpgm`;
    const { r, label } = trace(t, source);
    const a = r.accesses.find((x) => x.at === label('access'))!;
    const s = selected(a.descriptors[0].classification);
    expect(s.table).toMatchObject({
      through: 'scalar-descriptor',
      text: 'V#[user_data[0], user_data[1], user_data[2], user_data[3]]',
    });
    expect(s.offset).toBe('v1 << 5');
    expect([s.record.start, s.record.stride, s.record.index]).toEqual([0, 32, '0xff & v0@entry']);
    // The s_buffer_load is an access too: through the table's V#, bound.
    const load = r.accesses.find((x) => x.kind === 'scalar-buffer')!;
    expect(load.classification).toBe('bound');
    // The sampler, never written, is named as such.
    expect(a.descriptors[1].classification).toMatchObject({ kind: 'untraced', reason: 'unset' });
  });

  it('wave64 with wave32 EXEC updates is not a waterfall of this wave', () => {
    const t = targetFor('gfx1030', true);
    const { r } = trace(t, acoSource(forms(targetFor('gfx1030'))));
    const c = sample(r).descriptors[0].classification;
    expect(c).toMatchObject({ kind: 'untraced', reason: 'unrecognised-waterfall' });
    expect(c.kind === 'untraced' && c.detail).toMatch(/its EXEC updates are 32-bit, but the wave has 64 lanes/);
  });
});

/** LLVM's nested shape: the T# per lane from table s[0:1] + v0 * 32, the S# from table s[2:3] + v1 * 16. */
function llvmNestedSource(f: Forms): string {
  const { b, exec, vcc } = f;
  const m = f.mask;
  const rfl = (s: number, v: number, n: number) =>
    Array.from({ length: n }, (_, i) => `v_readfirstlane_b32 s${s + i}, v${v + i}`).join('\n      ');
  return `
      v_lshlrev_b32_e32 v6, 5, v0
      v_lshlrev_b32_e32 v7, 4, v1
      global_load_dwordx4 v[10:13], v6, s[0:1]
      global_load_dwordx4 v[18:21], v6, s[0:1] offset:16
      global_load_dwordx4 v[14:17], v7, s[2:3]
      s_mov_${b} ${m(30)}, ${exec}
      s_waitcnt vmcnt(0)
    outer:
      ${rfl(4, 10, 4)}
      ${rfl(8, 18, 4)}
      v_cmp_eq_u64_e32 ${vcc}, s[4:5], v[10:11]
      v_cmp_eq_u64_e64 ${m(20)}, s[6:7], v[12:13]
      v_cmp_eq_u64_e64 ${m(22)}, s[8:9], v[18:19]
      v_cmp_eq_u64_e64 ${m(24)}, s[10:11], v[20:21]
      s_and_${b} ${m(20)}, ${vcc}, ${m(20)}
      s_and_${b} ${m(20)}, ${m(20)}, ${m(22)}
      s_and_${b} ${m(20)}, ${m(20)}, ${m(24)}
    outer_saveexec:
      s_and_saveexec_${b} ${m(26)}, ${m(20)}
      s_mov_${b} ${m(28)}, ${exec}
    inner:
      ${rfl(12, 14, 4)}
      v_cmp_eq_u64_e32 ${vcc}, s[12:13], v[14:15]
      v_cmp_eq_u64_e64 ${m(20)}, s[14:15], v[16:17]
      s_and_${b} ${m(20)}, ${vcc}, ${m(20)}
    inner_saveexec:
      s_and_saveexec_${b} ${m(20)}, ${m(20)}
    access:
      image_sample v[0:3], v[2:3], s[4:11], s[12:15] dmask:0xf${f.dim}
    inner_xor:
      s_xor_${b} ${exec}, ${exec}, ${m(20)}
      s_cbranch_execnz inner
      s_mov_${b} ${exec}, ${m(28)}
    outer_xor:
      s_xor_${b} ${exec}, ${exec}, ${m(26)}
      s_cbranch_execnz outer
      s_mov_${b} ${exec}, ${m(30)}
      s_endpgm`;
}

describe("LLVM's waterfall over the descriptor words, nested for a descriptor and a sampler", () => {
  for (const t of TARGETS) {
    it(`${waveName(t)}: the T# in the outer loop, the S# in the inner, each a record of its table`, () => {
      const { r, label } = trace(t, llvmNestedSource(forms(t)));
      expect(r.cfg.loops.map((l) => l.depth)).toEqual([1, 2]);
      const a = sample(r);
      const [tsharp, ssharp] = a.descriptors.map((d) => selected(d.classification));
      expect(tsharp.shape).toMatchObject({
        kind: 'descriptor',
        compiler: 'LLVM',
        waveSize: t.wave64 ? 64 : 32,
        loop: { header: label('outer'), depth: 1 },
        narrowing: [{ at: label('outer_saveexec'), form: 's_and_saveexec' }],
        exit: { at: label('outer_xor'), form: 'xor-exec-execnz' },
      });
      expect(tsharp.shape.keys.map((k) => k.vgprs)).toEqual([
        ['v10', 'v11'],
        ['v12', 'v13'],
        ['v18', 'v19'],
        ['v20', 'v21'],
      ]);
      expect(ssharp.shape).toMatchObject({
        kind: 'descriptor',
        loop: { header: label('inner'), depth: 2 },
        narrowing: [{ at: label('inner_saveexec'), form: 's_and_saveexec' }],
        exit: { at: label('inner_xor'), form: 'xor-exec-execnz' },
      });
      expect(tsharp.table.text).toBe('[user_data[0], user_data[1]]');
      expect(ssharp.table.text).toBe('[user_data[2], user_data[3]]');
      expect([tsharp.record.start, tsharp.record.stride, tsharp.record.index]).toEqual([0, 32, 'v0@entry']);
      expect([ssharp.record.start, ssharp.record.stride, ssharp.record.index]).toEqual([0, 16, 'v1@entry']);
      expect(tsharp.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
      expect(ssharp.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12]);
      expect(r.slots).toHaveLength(1);
      expect(r.slots[0].sampler).toBe('selected from [user_data[2], user_data[3]] + 0x0 + 16 * (v1@entry)');
    });
  }

  it('v_readfirstlane of a descriptor that differs per lane, with no loop: untraced, named', () => {
    const t = targetFor('gfx1030');
    const { r } = trace(
      t,
      `
        global_load_dwordx4 v[1:4], v0, s[0:1]
        s_waitcnt vmcnt(0)
        v_readfirstlane_b32 s8, v1
        v_readfirstlane_b32 s9, v2
        v_readfirstlane_b32 s10, v3
        v_readfirstlane_b32 s11, v4
        buffer_load_dword v5, v0, s[8:11], 0 offen
        s_endpgm`,
    );
    const load = r.accesses.find((a) => a.instruction.startsWith('buffer_load_dword'))!;
    expect(load.descriptors[0].classification).toEqual({
      kind: 'untraced',
      reason: 'lane-value-outside-waterfall',
      at: 0xc,
      detail:
        'v_readfirstlane reads v1 at 0xc, v2 at 0x10, v3 at 0x14, v4 at 0x18, which differ per lane, and no loop around the access at 0x1c repeats it for the other lanes (the compiler took the value as the same in every lane)',
    });
    expect(load.descriptors[0].words[0].provenance).toMatchObject({
      kind: 'lane-value',
      vgpr: 'v1',
      lane: 'first-active',
    });
  });
});

/**
 * LLVM's per-lane T# at `table + sext(idx) * 32` (llvm/waterfall_image_sample): the 64-bit address
 * built as each generation spells it (from the corpus listings), two 16-byte loads of the record,
 * then the waterfall. `high` is the instruction that makes the index's high word (LLVM: its sign).
 */
function llvmSextSource(t: Target, f: Forms, base: string, high: string): string {
  const { b, exec, vcc } = f;
  const m = f.mask;
  const rfl = Array.from({ length: 8 }, (_, i) => `v_readfirstlane_b32 s${4 + i}, v${6 + i}`).join('\n      ');
  const address =
    t.gen === Gen.GFX7
      ? `v_lshl_b64 v[0:1], v[0:1], 5
      s_mov_b32 s3, 0xf000
      s_mov_b32 s2, 0
      buffer_load_dwordx4 v[6:9], v[0:1], s[0:3], 0 addr64
      buffer_load_dwordx4 v[10:13], v[0:1], s[0:3], 0 addr64 offset:16`
      : t.gen === Gen.GFX8
        ? `v_lshlrev_b64 v[0:1], 5, v[0:1]
      v_mov_b32_e32 v2, s1
      v_add_u32_e32 v0, vcc, s0, v0
      v_addc_u32_e32 v1, vcc, v2, v1, vcc
      v_add_u32_e32 v2, vcc, 16, v0
      v_addc_u32_e32 v3, vcc, 0, v1, vcc
      flat_load_dwordx4 v[6:9], v[0:1]
      flat_load_dwordx4 v[10:13], v[2:3]`
        : t.gen === Gen.GFX9
          ? `v_lshlrev_b64 v[0:1], 5, v[0:1]
      v_mov_b32_e32 v2, s1
      v_add_co_u32_e32 v0, vcc, s0, v0
      v_addc_co_u32_e32 v1, vcc, v2, v1, vcc
      global_load_dwordx4 v[10:13], v[0:1], off offset:16
      global_load_dwordx4 v[6:9], v[0:1], off`
          : `v_lshlrev_b64 v[0:1], 5, v[0:1]
      v_add_co_u32 v0, ${vcc}, s0, v0
      v_add_co_ci_u32_e32 v1, ${vcc}, s1, v1, ${vcc}
      global_load_dwordx4 v[10:13], v[0:1], off offset:16
      global_load_dwordx4 v[6:9], v[0:1], off`;
  return `
      ${base}
      ${high}
      ${address}
      s_mov_${b} ${m(30)}, ${exec}
      s_waitcnt vmcnt(0)
    loop:
      ${rfl}
      v_cmp_eq_u64_e32 ${vcc}, s[4:5], v[6:7]
      v_cmp_eq_u64_e64 ${m(20)}, s[6:7], v[8:9]
      v_cmp_eq_u64_e64 ${m(22)}, s[8:9], v[10:11]
      v_cmp_eq_u64_e64 ${m(24)}, s[10:11], v[12:13]
      s_and_${b} ${m(20)}, ${vcc}, ${m(20)}
      s_and_${b} ${m(20)}, ${m(20)}, ${m(22)}
      s_and_${b} ${m(20)}, ${m(20)}, ${m(24)}
      s_and_saveexec_${b} ${m(26)}, ${m(20)}
    access:
      image_sample v[14:17], v[4:5], s[4:11], s[12:15] dmask:0xf${f.dim}
      s_xor_${b} ${exec}, ${exec}, ${m(26)}
      s_cbranch_execnz loop
      s_mov_${b} ${exec}, ${m(30)}
      s_endpgm`;
}

const SEXT_TARGETS = [
  targetFor('gfx704'),
  targetFor('gfx803'),
  targetFor('gfx900'),
  targetFor('gfx1030'),
  targetFor('gfx1030', true),
];
const SIGN = 'v_ashrrev_i32_e32 v1, 31, v0';

describe("LLVM's per-lane T# at table + sext(idx) * 32, a 64-bit address per lane", () => {
  for (const t of SEXT_TARGETS) {
    const gfx7 = t.gen === Gen.GFX7;
    it(`${waveName(t)}: the table at s[0:1], record sext(v0) * 32, words 0-7 from the two loads`, () => {
      const { r, label } = trace(t, llvmSextSource(t, forms(t), '', SIGN));
      const s = selected(sample(r).descriptors[0].classification);
      expect(s.shape).toMatchObject({ kind: 'descriptor', compiler: 'LLVM', loop: { header: label('loop') } });
      expect(s.table.through).toBe(gfx7 ? 'buffer' : 'global-address');
      expect(s.table.text).toBe(gfx7 ? 'V#[user_data[0], user_data[1], 0x0, 0xf000]' : '[user_data[0], user_data[1]]');
      expect(s.offset).toBe('sext(v0@entry) * 32');
      expect([s.record.start, s.record.stride, s.record.index, s.record.signed]).toEqual([0, 32, 'v0@entry', true]);
      expect(s.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
      for (const lane of [0, 1, 7, 63]) expect(indexOf(s, lane, (l) => ({ 'v0@entry': l * 3 }))).toBe(lane * 3);
      expect(r.slots).toHaveLength(1);
    });

    it(`${waveName(t)}: a table at a constant address (a capture's registers) is based there`, () => {
      const base = 's_mov_b32 s0, 0x20000000\n      s_mov_b32 s1, 0';
      const { r } = trace(t, llvmSextSource(t, forms(t), base, SIGN));
      const s = selected(sample(r).descriptors[0].classification);
      expect(s.table.text).toBe(gfx7 ? 'V#[0x20000000, 0x0, 0x0, 0xf000]' : '[0x20000000, 0x0]');
      expect(s.table.baseExprs.map((e) => e.value)).toEqual(gfx7 ? [0x20000000, 0, 0, 0xf000] : [0x20000000, 0]);
      expect([s.record.start, s.record.stride, s.record.index, s.record.signed]).toEqual([0, 32, 'v0@entry', true]);
      expect(s.words.map((w) => w.recordOffset)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
    });

    it(`${waveName(t)}: a high word that is not the index's extension stays untraced, with the reason`, () => {
      // The index itself as its high word: the address is no table + stride * index for any index.
      const { r } = trace(t, llvmSextSource(t, forms(t), '', 'v_mov_b32_e32 v1, v0'));
      const c = sample(r).descriptors[0].classification;
      expect(c).toMatchObject({ kind: 'untraced', reason: 'table-untraced', shape: { compiler: 'LLVM' } });
      expect(c.kind === 'untraced' && c.detail).toMatch(
        /^s4 comes from .* but its 64-bit per-lane (offset|address) is not a sum of 64-bit parts: its high word v0@entry is not 0, the sign of the low word v0@entry, or the high word of a 64-bit add or shift of it$/,
      );
    });
  }

  it('a carry-in that is not the low add carry-out stays untraced', () => {
    const t = targetFor('gfx900');
    // The high word adds the carry of another add (v5 + v5), not that of the address's low word.
    const source = llvmSextSource(t, forms(t), '', SIGN).replace(
      'v_addc_co_u32_e32 v1, vcc, v2, v1, vcc',
      'v_add_co_u32_e32 v5, vcc, v5, v5\n      v_addc_co_u32_e32 v1, vcc, v2, v1, vcc',
    );
    const c = sample(trace(t, source).r).descriptors[0].classification;
    expect(c).toMatchObject({ kind: 'untraced', reason: 'table-untraced' });
    expect(c.kind === 'untraced' && c.detail).toMatch(/the high word's carry-in .* is not the low word's carry-out/);
  });
});
