/**
 * The wave-level and cross-lane vector operations through the interpreter (D009 over D003's
 * src/semantics/wave-*.ts): programs assembled from text, run as one wave from given registers
 * (the `program` setup), wave32 and wave64, under partial EXEC. Each expectation is written
 * from the ISA document named in its test (lane maps as independent formulas, not through the
 * semantics' own helpers).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { Gen, targetFor } from '../isa/gen.ts';
import { m0Code } from '../isa/operands.ts';
import { runSetup } from './dispatch.ts';
import { InterpRefusal } from './execute.ts';
import { GuestMemory } from './memory.ts';
import { loadVectorBridge, type VectorBridge } from './vector-bridge.ts';
import type { Wave } from './wave.ts';

const CODE = 0x10000000;
let vector: VectorBridge | undefined;
beforeAll(async () => {
  vector = await loadVectorBridge();
});

interface WaveRun {
  readonly cpu: string;
  readonly wave64?: boolean;
  readonly asm: string;
  /** Initial EXEC (default: every lane). */
  readonly exec?: bigint;
  readonly sgprs?: Readonly<Record<number, number>>;
  /** VGPR k of lane l = vgprs[k](l). */
  readonly vgprs?: Readonly<Record<number, (lane: number) => number>>;
}

function runWave(r: WaveRun): Wave {
  const target = targetFor(r.cpu, r.wave64 ?? false);
  const lanes = target.wave64 ? 64 : 32;
  const code = assembleProgram(target, `${r.asm}\ns_endpgm`).words;
  const memory = new GuestMemory([{ address: CODE, bytes: new Uint8Array(code.buffer) }]);
  const sgprs = new Array<number>(128).fill(0);
  for (const [k, v] of Object.entries(r.sgprs ?? {})) sgprs[Number(k)] = v >>> 0;
  const vgprs: number[][] = [];
  for (const [k, f] of Object.entries(r.vgprs ?? {}))
    vgprs[Number(k)] = Array.from({ length: lanes }, (_, l) => f(l) >>> 0);
  const exec = r.exec ?? (lanes === 64 ? (1n << 64n) - 1n : 0xffffffffn);
  const result = runSetup({ kind: 'program', target, programAddress: CODE, exec, sgprs, vgprs }, memory, { vector });
  return result.lastWave!;
}

const lanesOf = (w: Wave, v: number): number[] => Array.from({ length: w.lanes }, (_, l) => w.readVgpr(v, l));
const expected = (lanes: number, f: (lane: number) => number): number[] =>
  Array.from({ length: lanes }, (_, l) => f(l) >>> 0);
const EVEN64 = 0x5555555555555555n;
const f32 = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0];
const lane100 = (l: number): number => 100 + l;

describe('v_readfirstlane_b32 (Vega / RDNA3.5 ISA, V_READFIRSTLANE_B32)', () => {
  it('reads the lowest active lane, lane 0 when EXEC is zero (gfx7, gfx9 wave64)', () => {
    for (const cpu of ['gfx700', 'gfx900']) {
      const w = runWave({
        cpu,
        exec: (1n << 40n) | (1n << 45n),
        vgprs: { 1: lane100 },
        asm: `v_readfirstlane_b32 s4, v1
          s_mov_b64 exec, 0
          v_readfirstlane_b32 s5, v1`,
      });
      expect([w.sgpr[4], w.sgpr[5]]).toEqual([140, 100]);
    }
  });
  it('wave32 reads EXEC_LO only (gfx10.3) and wave64 both halves (gfx11)', () => {
    const w32 = runWave({ cpu: 'gfx1030', exec: 0x100n, vgprs: { 1: lane100 }, asm: 'v_readfirstlane_b32 s4, v1' });
    expect(w32.sgpr[4]).toBe(108);
    const w64 = runWave({
      cpu: 'gfx1100',
      wave64: true,
      exec: 1n << 33n,
      vgprs: { 1: lane100 },
      asm: 'v_readfirstlane_b32 s4, v1',
    });
    expect(w64.sgpr[4]).toBe(133);
  });
});

describe('v_readlane_b32 / v_writelane_b32 (RDNA3.5 ISA, V_READLANE_B32: lane = S1[4:0] wave32, S1[5:0] wave64)', () => {
  it('reads the lane an SGPR, M0 or an inline constant names, taken modulo the wave size, whatever EXEC says', () => {
    for (const cpu of ['gfx700', 'gfx803', 'gfx900', 'gfx1100']) {
      const w = runWave({
        cpu,
        wave64: true,
        exec: 1n,
        sgprs: { 2: 37, 3: 65, [m0Code(targetFor(cpu).gen)]: 50 },
        vgprs: { 1: lane100 },
        asm: `v_readlane_b32 s4, v1, s2
          v_readlane_b32 s5, v1, s3
          v_readlane_b32 s6, v1, m0
          v_readlane_b32 s7, v1, 63`,
      });
      expect([w.sgpr[4], w.sgpr[5], w.sgpr[6], w.sgpr[7]], cpu).toEqual([137, 101, 150, 163]);
    }
  });
  it('wave32 takes the lane select modulo 32 (gfx10.3)', () => {
    const w = runWave({ cpu: 'gfx1030', sgprs: { 2: 33 }, vgprs: { 1: lane100 }, asm: 'v_readlane_b32 s4, v1, s2' });
    expect(w.sgpr[4]).toBe(101);
  });
  it('writes only the lane named (an SGPR, an inline constant, a literal on gfx10+), also an inactive one', () => {
    const w = runWave({
      cpu: 'gfx1030',
      exec: 1n,
      sgprs: { 2: 7, 3: 0xdeadbeef },
      vgprs: { 1: () => 5 },
      asm: `v_writelane_b32 v1, s3, s2
        v_writelane_b32 v1, -1, 35
        v_writelane_b32 v1, 0x12345, 9`,
    });
    // 35 names lane 3 in wave32.
    expect(lanesOf(w, 1)).toEqual(expected(32, (l) => (l === 7 ? 0xdeadbeef : l === 3 ? -1 : l === 9 ? 0x12345 : 5)));
    const g7 = runWave({
      cpu: 'gfx700',
      exec: 0n,
      sgprs: { 2: 0x42 },
      vgprs: { 1: () => 5 },
      asm: 'v_writelane_b32 v1, s2, 63',
    });
    expect(lanesOf(g7, 1)).toEqual(expected(64, (l) => (l === 63 ? 0x42 : 5)));
  });
});

describe('v_permlane16_b32 / v_permlanex16_b32 (RDNA3.5 ISA; OP_SEL[0] = FI, OP_SEL[1] = BOUND_CTRL)', () => {
  // The ISA's example: s0 = 0x87654321, s1 = 0x0fedcba9 rotate each row by one lane.
  const rot = { 0: 0x87654321, 1: 0x0fedcba9 };
  it('gathers within each row from the nibbles of {S2, S1} (wave32 and wave64, D == S0)', () => {
    for (const wave64 of [false, true]) {
      const w = runWave({
        cpu: 'gfx1030',
        wave64,
        sgprs: rot,
        vgprs: { 2: lane100 },
        asm: 'v_permlane16_b32 v2, v2, s0, s1',
      });
      expect(lanesOf(w, 2)).toEqual(expected(wave64 ? 64 : 32, (l) => 100 + ((l & ~15) | ((l + 1) & 15))));
    }
  });
  it('permlanex16 reads the other row of each pair; constants and literals as lane selects', () => {
    const w = runWave({
      cpu: 'gfx1030',
      wave64: true,
      vgprs: { 2: lane100 },
      asm: `v_permlanex16_b32 v3, v2, -1, -1
        v_permlanex16_b32 v4, v2, 0, 0x76543210`,
    });
    expect(lanesOf(w, 3)).toEqual(expected(64, (l) => 100 + (((l >>> 4) ^ 1) << 4) + 15));
    expect(lanesOf(w, 4)).toEqual(
      expected(64, (l) => 100 + (((l >>> 4) ^ 1) << 4) + ((l & 15) < 8 ? 0 : (l & 15) - 8)),
    );
  });
  it('an inactive source lane: kept without FI and BOUND_CTRL, 0 with BOUND_CTRL, read with FI; inactive lanes not written', () => {
    // EXEC 0x7fff7fff as in the ISA's wave32 rotation example: lanes 15 and 31 are off.
    const run = (mods: string): number[] =>
      lanesOf(
        runWave({
          cpu: 'gfx1030',
          exec: 0x7fff7fffn,
          sgprs: rot,
          vgprs: { 1: () => 7, 2: lane100 },
          asm: `v_permlane16_b32 v1, v2, s0, s1${mods}`,
        }),
        1,
      );
    const rotated = (l: number): number => 100 + ((l & ~15) | ((l + 1) & 15));
    expect(run('')).toEqual(expected(32, (l) => (l === 14 || l === 30 || l === 15 || l === 31 ? 7 : rotated(l))));
    expect(run(' op_sel:[0,1]')).toEqual(
      expected(32, (l) => (l === 14 || l === 30 ? 0 : l === 15 || l === 31 ? 7 : rotated(l))),
    );
    expect(run(' op_sel:[1,0]')).toEqual(expected(32, (l) => (l === 15 || l === 31 ? 7 : rotated(l))));
  });
});

describe('v_permlane64_b32 (RDNA3.5 ISA, V_PERMLANE64_B32)', () => {
  it('swaps the wave64 halves, reading inactive lanes too; writes active lanes only; a NOP in wave32 (gfx11)', () => {
    const w = runWave({
      cpu: 'gfx1100',
      wave64: true,
      exec: 0xffffffffn,
      vgprs: { 1: () => 7, 2: lane100 },
      asm: 'v_permlane64_b32 v1, v2',
    });
    expect(lanesOf(w, 1)).toEqual(expected(64, (l) => (l < 32 ? 100 + l + 32 : 7)));
    const w32 = runWave({ cpu: 'gfx1100', vgprs: { 1: () => 7, 2: lane100 }, asm: 'v_permlane64_b32 v1, v2' });
    expect(lanesOf(w32, 1)).toEqual(expected(32, () => 7));
  });
});

describe('M0-relative VGPRs (RDNA3.5 ISA, V_MOVRELS/D/SD/SD_2_B32, V_SWAP_B32, V_SWAPREL_B32)', () => {
  it("follows the ISA's examples: movrels v5 <- v17, movreld v15 <- v7, movrelsd v15 <- v17 with M0 = 10 (gfx8, gfx10.3)", () => {
    for (const cpu of ['gfx803', 'gfx1030']) {
      const m0 = m0Code(targetFor(cpu).gen);
      const w = runWave({
        cpu,
        exec: 0b1011n,
        sgprs: { [m0]: 10 },
        vgprs: { 5: () => 1, 17: (l) => 1700 + l, 20: () => 3, 27: (l) => 2700 + l },
        asm: `v_movrels_b32 v5, v7
          v_movreld_b32 v20, v17
          v_movrelsd_b32 v10, v17`,
      });
      // EXEC 0b1011: lane 2 keeps its registers.
      expect(lanesOf(w, 5).slice(0, 4), cpu).toEqual([1700, 1701, 1, 1703]); // v5 <- v17
      expect(lanesOf(w, 30).slice(0, 4), cpu).toEqual([1700, 1701, 0, 1703]); // v30 <- v17
      expect(lanesOf(w, 20).slice(0, 4), cpu).toEqual([2700, 2701, 3, 2703]); // v20 <- v27
    }
  });
  it('movrelsd_2 and swaprel use M0[9:0] for the source and M0[25:16] for the destination; swap swaps (gfx10.3)', () => {
    const w = runWave({
      cpu: 'gfx1030',
      exec: 1n,
      sgprs: { [m0Code(Gen.GFX10_3)]: (20 << 16) | 10 },
      vgprs: { 1: () => 11, 2: () => 22, 17: () => 170, 25: () => 250, 40: () => 400, 32: () => 320 },
      asm: `v_movrelsd_2_b32 v5, v7
        v_swaprel_b32 v20, v22
        v_swap_b32 v1, v2`,
    });
    expect(w.readVgpr(25, 0)).toBe(170); // v25 <- v17
    expect([w.readVgpr(40, 0), w.readVgpr(32, 0)]).toEqual([320, 400]); // v40 <-> v32
    expect([w.readVgpr(1, 0), w.readVgpr(2, 0), w.readVgpr(1, 1)]).toEqual([22, 11, 11]);
  });
  it('refuses an index past v255 by name', () => {
    expect(() =>
      runWave({ cpu: 'gfx1030', sgprs: { [m0Code(Gen.GFX10_3)]: 300 }, asm: 'v_movrels_b32 v5, v7' }),
    ).toThrow(/past v255/);
  });
});

describe('GPR index mode (Vega ISA, S_SET_GPR_IDX_ON / OFF / IDX / MODE)', () => {
  it('offsets the VGPR operands M0[15:12] names by M0[7:0] until s_set_gpr_idx_off (gfx9)', () => {
    const w = runWave({
      cpu: 'gfx900',
      exec: 0b11n,
      sgprs: { 2: 3, 124: 0xabcd0000 },
      vgprs: { 1: (l) => 10 + l, 4: (l) => 40 + l, 6: (l) => 60 + l },
      asm: `s_set_gpr_idx_on s2, gpr_idx(SRC0)
        v_mov_b32 v0, v1
        s_set_gpr_idx_idx 5
        v_mov_b32 v8, v1
        s_set_gpr_idx_mode gpr_idx(DST)
        v_mov_b32 v10, v1
        s_set_gpr_idx_off
        v_mov_b32 v11, v1`,
    });
    expect(lanesOf(w, 0).slice(0, 2)).toEqual([40, 41]); // v0 <- v4
    expect(lanesOf(w, 8).slice(0, 2)).toEqual([60, 61]); // v8 <- v6
    expect(lanesOf(w, 15).slice(0, 2)).toEqual([10, 11]); // v15 <- v1
    expect(lanesOf(w, 11).slice(0, 2)).toEqual([10, 11]);
    // M0[31:16] untouched, [15:12] the last mode (DST = 8), [7:0] the last index.
    expect(w.sgpr[124]).toBe(0xabcd8005);
    expect(w.gprIndexMode).toBe(false);
  });
  it('refuses a memory instruction while the mode is on', () => {
    expect(() =>
      runWave({
        cpu: 'gfx900',
        asm: `s_set_gpr_idx_on 0, gpr_idx(SRC0)
          ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,0,1,2,3)`,
      }),
    ).toThrow(InterpRefusal);
  });
});

describe('DPP on gfx8/9 (Vega ISA, "DPP", Table 81 DPP_CTRL)', () => {
  /** v_mov_b32_dpp v0, v1 <ctrl> on a wave64 with v1 = 100 + lane and v0 = 7. */
  const mov = (ctrl: string, exec?: bigint, cpu = 'gfx900'): number[] =>
    lanesOf(runWave({ cpu, exec, vgprs: { 0: () => 7, 1: lane100 }, asm: `v_mov_b32_dpp v0, v1 ${ctrl}` }), 0);
  const all = 'row_mask:0xf bank_mask:0xf';
  const row = (l: number): number => l & ~15;
  it('quad_perm, row_ror, row_mirror, row_half_mirror and the wave rotations read within range', () => {
    expect(mov(`quad_perm:[3,2,1,0] ${all}`)).toEqual(expected(64, (l) => 100 + ((l & ~3) | (3 - (l & 3)))));
    expect(mov(`row_ror:5 ${all}`)).toEqual(expected(64, (l) => 100 + (row(l) | ((l - 5) & 15))));
    expect(mov(`row_mirror ${all}`)).toEqual(expected(64, (l) => 100 + (row(l) | (15 - (l & 15)))));
    expect(mov(`row_half_mirror ${all}`)).toEqual(expected(64, (l) => 100 + ((l & ~7) | (7 - (l & 7)))));
    expect(mov(`wave_rol:1 ${all}`)).toEqual(expected(64, (l) => 100 + ((l + 1) % 64)));
    expect(mov(`wave_ror:1 ${all}`, undefined, 'gfx803')).toEqual(expected(64, (l) => 100 + ((l + 63) % 64)));
  });
  it('shifts: out-of-range lanes keep their value without bound_ctrl and read 0 with it', () => {
    expect(mov(`row_shl:1 ${all}`)).toEqual(expected(64, (l) => ((l & 15) < 15 ? 101 + l : 7)));
    expect(mov(`row_shl:1 ${all} bound_ctrl:1`)).toEqual(expected(64, (l) => ((l & 15) < 15 ? 101 + l : 0)));
    expect(mov(`row_shr:3 ${all} bound_ctrl:1`)).toEqual(expected(64, (l) => ((l & 15) >= 3 ? 97 + l : 0)));
    expect(mov(`wave_shl:1 ${all} bound_ctrl:1`)).toEqual(expected(64, (l) => (l < 63 ? 101 + l : 0)));
    expect(mov(`wave_shr:1 ${all}`)).toEqual(expected(64, (l) => (l > 0 ? 99 + l : 7)));
  });
  it('row_bcast:15 / row_bcast:31 with their usual row masks; row_mask and bank_mask gate the writes only', () => {
    expect(mov('row_bcast:15 row_mask:0xa bank_mask:0xf')).toEqual(
      expected(64, (l) => ((l >>> 4) & 1 ? 100 + row(l) - 1 : 7)),
    );
    expect(mov('row_bcast:31 row_mask:0xc bank_mask:0xf')).toEqual(expected(64, (l) => (l >= 32 ? 131 : 7)));
    expect(mov('quad_perm:[1,0,3,2] row_mask:0x5 bank_mask:0xf')).toEqual(
      expected(64, (l) => ((l >>> 4) % 2 === 0 ? 100 + (l ^ 1) : 7)),
    );
    expect(mov('quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0x3')).toEqual(
      expected(64, (l) => (((l >>> 2) & 3) < 2 ? 100 + (l ^ 1) : 7)),
    );
  });
  it('an inactive source lane is invalid: not written without bound_ctrl, 0 with it; inactive lanes keep theirs', () => {
    expect(mov(`quad_perm:[1,0,3,2] ${all}`, EVEN64)).toEqual(expected(64, () => 7));
    expect(mov(`quad_perm:[1,0,3,2] ${all} bound_ctrl:1`, EVEN64)).toEqual(expected(64, (l) => (l % 2 ? 7 : 0)));
    expect(mov(`quad_perm:[2,3,0,1] ${all}`, EVEN64)).toEqual(expected(64, (l) => (l % 2 ? 7 : 100 + (l ^ 2))));
  });
  it('reads every source before any lane writes: the inclusive scan of row_shr 1/2/4/8, row_bcast 15/31 (gfx8 and gfx9)', () => {
    for (const [cpu, add] of [
      ['gfx803', 'v_add_u32_dpp v1, vcc, v1, v1'],
      ['gfx900', 'v_add_u32_dpp v1, v1, v1'],
    ]) {
      const w = runWave({
        cpu,
        vgprs: { 1: () => 1 },
        asm: [1, 2, 4, 8]
          .map((n) => `${add} row_shr:${n} row_mask:0xf bank_mask:0xf bound_ctrl:1`)
          .concat([`${add} row_bcast:15 row_mask:0xa bank_mask:0xf`, `${add} row_bcast:31 row_mask:0xc bank_mask:0xf`])
          .join('\n'),
      });
      expect(lanesOf(w, 1), cpu).toEqual(expected(64, (l) => l + 1));
    }
  });
  it("applies the DPP dword's neg / abs to the sources (v_add_f32_dpp v0, -v1, |v2|)", () => {
    const w = runWave({
      cpu: 'gfx900',
      vgprs: { 1: (l) => f32(l), 2: () => f32(-0.5) },
      asm: `v_add_f32_dpp v0, -v1, |v2| quad_perm:[1,0,3,2] ${all}`,
    });
    expect(lanesOf(w, 0).slice(0, 4)).toEqual([f32(-0.5), f32(0.5), f32(-2.5), f32(-1.5)]);
  });
  it("a carry-out of a lane DPP leaves unwritten is 0, as an inactive lane's (D003, known limits)", () => {
    const w = runWave({
      cpu: 'gfx900',
      vgprs: { 0: () => 7, 1: () => 0xffffffff, 2: () => 1 },
      asm: `v_add_co_u32_dpp v0, vcc, v1, v2 row_shr:1 ${all}`,
    });
    expect(lanesOf(w, 0)).toEqual(expected(64, (l) => ((l & 15) === 0 ? 7 : 0)));
    expect([w.sgpr[106], w.sgpr[107]]).toEqual([0xfffefffe, 0xfffefffe]);
  });
});

describe('DPP16 and DPP8 on gfx10+ (RDNA2 ISA, "DPP16", "DPP8"; RDNA3 ISA, "VOP3 DPP")', () => {
  const all = 'row_mask:0xf bank_mask:0xf';
  const mov = (ctrl: string, wave64: boolean, exec?: bigint, cpu = 'gfx1030'): number[] =>
    lanesOf(runWave({ cpu, wave64, exec, vgprs: { 0: () => 7, 1: lane100 }, asm: `v_mov_b32_dpp v0, v1 ${ctrl}` }), 0);
  it('row_share and row_xmask, wave32 and wave64', () => {
    for (const wave64 of [false, true]) {
      const n = wave64 ? 64 : 32;
      expect(mov(`row_share:3 ${all}`, wave64)).toEqual(expected(n, (l) => 100 + ((l & ~15) | 3)));
      expect(mov(`row_xmask:5 ${all}`, wave64)).toEqual(expected(n, (l) => 100 + ((l & ~15) | ((l & 15) ^ 5))));
    }
  });
  it('fi:1 reads inactive source lanes; out-of-range lanes still follow bound_ctrl', () => {
    const exec = 0x55555555n;
    expect(mov(`row_shr:1 ${all}`, false, exec)).toEqual(expected(32, () => 7));
    expect(mov(`row_shr:1 ${all} fi:1`, false, exec)).toEqual(
      expected(32, (l) => (l % 2 ? 7 : (l & 15) === 0 ? 7 : 99 + l)),
    );
    expect(mov(`row_shr:1 ${all} bound_ctrl:1 fi:1`, false, exec)).toEqual(
      expected(32, (l) => (l % 2 ? 7 : (l & 15) === 0 ? 0 : 99 + l)),
    );
  });
  it('DPP8 selects within each group of eight; an inactive source reads 0 unless fi:1', () => {
    const rev = (l: number): number => (l & ~7) | (7 - (l & 7));
    const sel = 'dpp8:[7,6,5,4,3,2,1,0]';
    const w = runWave({ cpu: 'gfx1030', wave64: true, vgprs: { 1: lane100 }, asm: `v_mov_b32 v0, v1 ${sel}` });
    expect(lanesOf(w, 0)).toEqual(expected(64, (l) => 100 + rev(l)));
    const even = 0x55555555n;
    const part = (fi: string): number[] =>
      lanesOf(
        runWave({
          cpu: 'gfx1030',
          exec: even,
          vgprs: { 0: () => 7, 1: lane100 },
          asm: `v_mov_b32 v0, v1 ${sel}${fi}`,
        }),
        0,
      );
    expect(part('')).toEqual(expected(32, (l) => (l % 2 ? 7 : 0)));
    expect(part(' fi:1')).toEqual(expected(32, (l) => (l % 2 ? 7 : 100 + rev(l))));
  });
  it('gfx11 VOP3 DPP takes its modifiers from the VOP3 fields; VOPC DPP writes VCC or EXEC for every active lane', () => {
    const w = runWave({
      cpu: 'gfx1100',
      exec: 0xfn,
      vgprs: { 1: (l) => l, 2: (l) => f32(l), 3: () => f32(-1), 4: (l) => l ^ 1 },
      asm: `v_add_f32_e64_dpp v5, -v2, |v3| quad_perm:[1,0,3,2] ${all}
        v_cmp_eq_u32_e64_dpp s6, v1, v4 dpp8:[1,0,3,2,5,4,7,6]
        v_cmp_eq_u32_dpp vcc_lo, v1, v4 quad_perm:[1,0,3,2] ${all} bound_ctrl:1
        v_cmpx_eq_u32_dpp v1, v4 quad_perm:[0,0,2,2] ${all} bound_ctrl:1`,
    });
    // -v2[lane ^ 1] + |v3|: -1 + 1, -0 + 1, -3 + 1, -2 + 1.
    expect(lanesOf(w, 5).slice(0, 4)).toEqual([f32(0), f32(1), f32(-2), f32(-1)]);
    expect(w.sgpr[6]).toBe(0xf);
    expect(w.sgpr[106]).toBe(0xf);
    // quad_perm:[0,0,2,2]: lane 0 compares v1[0] = 0 with v4[0] = 1 (false), lane 1 v1[0] = 0 with v4[1] = 0 (true).
    expect(w.execLo()).toBe(0b1010);
  });
  it('gfx11 VOP3P DPP: v_dot2_f32_f16 reads source 0 from the selected lane, neg_lo from the VOP3P fields', () => {
    const h = (x: number): number => ({ 1: 0x3c00, 2: 0x4000, 3: 0x4200 })[x]!;
    const w = runWave({
      cpu: 'gfx1100',
      exec: 0b11n,
      // v2 = {1, 2} in lane 0 and {3, 3} in lane 1; v3 = {2, 1}; v4 = 0.5.
      vgprs: {
        2: (l) => (l === 0 ? (h(2) << 16) | h(1) : (h(3) << 16) | h(3)),
        3: () => (h(1) << 16) | h(2),
        4: () => f32(0.5),
      },
      asm: `v_dot2_f32_f16_e64_dpp v1, v2, v3, v4 quad_perm:[1,0,3,2] ${all}
        v_dot2_f32_f16_e64_dpp v5, v2, v3, v4 neg_lo:[1,0,0] quad_perm:[1,0,3,2] ${all}`,
    });
    // Lane 0 reads lane 1's {3, 3}: 3 * 2 + 3 * 1 + 0.5; lane 1 reads lane 0's {1, 2}: 1 * 2 + 2 * 1 + 0.5.
    expect(lanesOf(w, 1).slice(0, 2)).toEqual([f32(9.5), f32(4.5)]);
    // neg_lo negates source 0's low half: -3 * 2 + 3 + 0.5, -1 * 2 + 2 + 0.5.
    expect(lanesOf(w, 5).slice(0, 2)).toEqual([f32(-2.5), f32(0.5)]);
  });
  it('refuses a DPP compare that could leave lanes unwritten, before the dispatch', () => {
    expect(() =>
      runWave({ cpu: 'gfx1100', asm: `v_cmp_eq_u32_dpp vcc_lo, v1, v4 quad_perm:[1,0,3,2] ${all}` }),
    ).toThrow(/DPP compare/);
  });
});

describe('SDWA (Vega ISA, "SDWA"; GCN3 ISA for gfx8)', () => {
  it('selects bytes and words, sign-extends, and places the result by dst_sel / dst_unused (gfx9)', () => {
    const w = runWave({
      cpu: 'gfx900',
      exec: 1n,
      vgprs: { 1: () => 0x11223344, 2: () => 0x80a1b2c3, 3: () => 0x00050006 },
      asm: `v_mov_b32_sdwa v4, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:BYTE_2
        v_mov_b32_sdwa v5, v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_3
        v_mov_b32 v6, v1
        v_mov_b32_sdwa v6, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
        v_add_u32_sdwa v7, sext(v2), v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1`,
    });
    expect(w.readVgpr(4, 0)).toBe(0xa100);
    expect(w.readVgpr(5, 0)).toBe(0xffff8000);
    expect(w.readVgpr(6, 0)).toBe(0x00c33344);
    expect(w.readVgpr(7, 0)).toBe((0xffffffc3 + 5) >>> 0);
  });
  it('f16 halves, neg/abs, clamp and omod (gfx9), an SGPR source and an SGPR-pair compare destination (gfx9)', () => {
    const h = (x: number): number => ({ 1: 0x3c00, 2: 0x4000, 3: 0x4200, 0.5: 0x3800 })[x]!;
    const w = runWave({
      cpu: 'gfx900',
      exec: 0b11n,
      sgprs: { 2: 5 },
      vgprs: {
        1: () => (h(2) << 16) | h(1),
        2: () => h(1),
        3: (l) => l + 4,
        8: () => 0xdead0000,
        9: () => f32(0.25),
        10: () => f32(-1),
      },
      asm: `v_add_f16_sdwa v8, v1, v2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
        v_add_f32_sdwa v11, -v9, |v10| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
        v_add_f32_sdwa v12, v9, v10 clamp mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
        v_cmp_gt_u32_sdwa s[4:5], s2, v3 src0_sel:DWORD src1_sel:BYTE_0`,
    });
    expect(w.readVgpr(8, 0)).toBe((0xdead0000 | h(3)) >>> 0);
    expect(w.readVgpr(11, 0)).toBe(f32(0.75));
    expect(w.readVgpr(12, 0)).toBe(0); // (0.25 - 1) * 2, clamped to [0, 1]
    expect([w.sgpr[4], w.sgpr[5]]).toEqual([0b01, 0]); // 5 > 4 in lane 0 only; inactive lanes 0
  });
  it('gfx8 writes a VOP2 carry and a VOPC result to VCC; gfx10.3 SDWA reads an SGPR and sign-fills', () => {
    const g8 = runWave({
      cpu: 'gfx803',
      exec: 1n,
      vgprs: { 1: () => 0xabcd0000, 2: () => 0xff, 3: () => 0x0100 },
      asm: `v_add_u32_sdwa v1, vcc, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:BYTE_1
        s_mov_b64 s[10:11], vcc
        v_cmp_eq_u32_sdwa vcc, v2, v3 src0_sel:BYTE_0 src1_sel:WORD_0`,
    });
    expect(g8.readVgpr(1, 0)).toBe(0x01000000); // 0xff + 0x01 = 0x100 into the high word, low word kept (0)
    expect([g8.sgpr[10], g8.sgpr[106]]).toEqual([0, 0]);
    const g10 = runWave({
      cpu: 'gfx1030',
      exec: 1n,
      sgprs: { 2: 0x9f },
      asm: 'v_mov_b32_sdwa v1, s2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0',
    });
    expect(g10.readVgpr(1, 0)).toBe(0xffff9f00);
  });
});

describe('ds_swizzle_b32 / ds_permute_b32 / ds_bpermute_b32 (Vega and RDNA3.5 ISA, DS_SWIZZLE_B32 pseudocode)', () => {
  const swz = (cpu: string, offset: number, exec?: bigint, wave64 = true): number[] =>
    lanesOf(runWave({ cpu, wave64, exec, vgprs: { 1: lane100 }, asm: `ds_swizzle_b32 v2, v1 offset:${offset}` }), 2);
  it('FFT (offset >= 0xe000): the 5-bit lane reversed, shifted by popcount(mask), or the mask bits (gfx9)', () => {
    const fft0 = swz('gfx900', 0xe000);
    expect([fft0[1], fft0[2], fft0[3], fft0[16], fft0[33]]).toEqual([116, 108, 124, 101, 148]);
    const fft1 = swz('gfx900', 0xe001);
    expect([fft1[1], fft1[2], fft1[3]]).toEqual([109, 104, 113]);
  });
  it('rotate (offset >= 0xc000): by offset[9:5] within 32 lanes, backwards with offset[10] (gfx9, gfx10.3 wave32)', () => {
    const fwd = swz('gfx900', 0xc000 | (1 << 5));
    expect([fwd[0], fwd[31], fwd[32], fwd[63]]).toEqual([101, 100, 133, 132]);
    const back = swz('gfx1030', 0xc000 | 0x400 | (2 << 5), undefined, false);
    expect([back[0], back[1], back[2], back[31]]).toEqual([130, 131, 100, 129]);
  });
  it('an inactive source lane reads 0; the rotate and FFT modes are refused on gfx8 before the dispatch', () => {
    // Lane 0 reads lane 1 (inactive: 0), lane 2 reads itself; the inactive lanes 1 and 3 keep v2 = 0.
    const quad = swz('gfx900', 0x8000 | 0b00100001, EVEN64);
    expect(quad.slice(0, 4)).toEqual([0, 0, 102, 0]);
    expect(() => swz('gfx803', 0xe000)).toThrow(/documented from Vega/);
  });
  it('bpermute reads lane (addr / 4) mod the wave size, permute writes it; inactive sources 0 (gfx10.3 wave32)', () => {
    const w = runWave({
      cpu: 'gfx1030',
      exec: 0xffff0000n,
      vgprs: { 1: lane100, 3: (l) => 4 * (l + 33) },
      asm: `ds_bpermute_b32 v4, v3, v1
        ds_permute_b32 v5, v3, v1`,
    });
    const b = lanesOf(w, 4);
    // Lane l >= 16 reads lane (l + 1) % 32; lane 31 reads lane 0, inactive: 0.
    expect([b[16], b[30], b[31], b[0]]).toEqual([117, 131, 0, 0]);
    const p = lanesOf(w, 5);
    // Lane l >= 16 writes lane (l + 1) % 32: lane 17 gets lane 16's, lane 0 gets lane 31's; lane 16 gets nothing.
    expect([p[17], p[31], p[16]]).toEqual([116, 130, 0]);
  });
});

describe('compares across the wave (Vega ISA, "Vector Compare"; RDNA2 ISA, V_CMPX)', () => {
  it('a ballot writes 0 for inactive lanes; v_cmpx writes EXEC (and SDST on gfx9), then readfirstlane follows it', () => {
    const g9 = runWave({
      cpu: 'gfx900',
      exec: 0xf0f0n,
      vgprs: { 1: (l) => l },
      asm: `v_cmp_lt_u32_e64 s[4:5], 9, v1
        v_cmpx_lt_u32_e64 s[6:7], 13, v1
        v_readfirstlane_b32 s8, v1`,
    });
    expect([g9.sgpr[4], g9.sgpr[5]]).toEqual([0xf000, 0]);
    expect([g9.sgpr[6], g9.execLo(), g9.execHi()]).toEqual([0xc000, 0xc000, 0]);
    expect(g9.sgpr[8]).toBe(14);
    const g10 = runWave({
      cpu: 'gfx1030',
      exec: 0xffffn,
      vgprs: { 1: (l) => l },
      asm: `s_mov_b32 exec_hi, 0x1234
        v_cmpx_gt_u32_e32 3, v1
        v_cmp_ne_u32_e64 s4, 0, v1`,
    });
    expect([g10.execLo(), g10.sgpr[127], g10.sgpr[4]]).toEqual([0b111, 0x1234, 0b110]);
  });
});
