/**
 * Vector ALU semantics on the concrete algebra, per lane, against expectations written from
 * AMD's ISA documents (cited per case as "<doc>, <INSTRUCTION>"), assembled from text so the
 * encodings' fields (neg/abs, clamp/omod, e32 VCC, VOP3 sdst) are exercised; and the
 * coverage list: exactly which VOP names have no per-lane function.
 */
import { describe, expect, it } from 'vitest';
import { assembleLine } from '../isa/asm.ts';
import { decodeAt } from '../isa/decoder.ts';
import { targetFor, type Target } from '../isa/gen.ts';
import { allInstructions } from '../isa/registry/registry.ts';
import type { FloatMode } from './algebra.ts';
import { concrete } from './concrete.ts';
import { SemanticsRefusal } from './context.ts';
import { f32Bits as b } from './float.ts';
import { runVector, VALU_FAMILIES, VECTOR_UNCOVERED, vectorSemanticsFor } from './vector.ts';

const VCC = 106;
const EXEC = 126;

interface Wave {
  v: Map<string, number>;
  s: Map<number, number>;
}

/** Runs `text` on lanes 0..n-1 (all active), VGPR k of lane l from vgprs[k][l] (or a scalar for every lane). */
function run(
  t: Target,
  text: string,
  vgprs: Record<number, number | number[]>,
  sgprs: Record<number, number> = {},
  mode?: FloatMode,
  lanes = 4,
): Wave {
  const r = assembleLine(t, text);
  if (!r.words) throw new Error(`${text}: ${r.error?.message}`);
  const inst = decodeAt(t, Uint32Array.from(r.words), 0);
  const w: Wave = { v: new Map(), s: new Map(Object.entries(sgprs).map(([k, x]) => [Number(k), x >>> 0])) };
  for (const [k, x] of Object.entries(vgprs))
    for (let l = 0; l < lanes; l++) w.v.set(`${k}:${l}`, (Array.isArray(x) ? x[l] : x) >>> 0);
  runVector(concrete, t, inst, {
    lanes: t.wave64 ? 64 : 32,
    active: (l) => l < lanes,
    readVgpr: (i, l) => w.v.get(`${i}:${l}`) ?? 0,
    writeVgpr: (i, l, x) => void w.v.set(`${i}:${l}`, x >>> 0),
    readSgpr: (c) => w.s.get(c) ?? 0,
    writeSgpr: (c, x) => void w.s.set(c, x >>> 0),
    readScc: () => false,
    writeScc: () => {},
    ...(mode ? { floatMode: () => mode } : {}),
  });
  return w;
}
const lanesOf = (w: Wave, k: number, n = 4): number[] => Array.from({ length: n }, (_, l) => w.v.get(`${k}:${l}`) ?? 0);

const G9 = targetFor('gfx900', true);
const G8 = targetFor('tonga', true);
const G7 = targetFor('hawaii', true);
const G10 = targetFor('gfx1030');
const OFF: FloatMode = { f32Denormals: false, f64f16Denormals: false };

describe('float VOP2/VOP3 with modifiers', () => {
  it('neg/abs are sign-bit operations, omod before clamp (Vega ISA, "Input/Output Modifiers")', () => {
    const w = run(G9, 'v_fma_f32 v0, -v1, |v2|, v3 clamp', { 1: b(1.5), 2: [b(0.5), b(-2), b(0.5), b(-2)], 3: b(1) });
    expect(lanesOf(w, 0)).toEqual([b(0.25), 0, b(0.25), 0]);
    // omod needs MODE.IEEE clear and output denormals flushed (RDNA3 ISA 7.2.3.1); under IEEE mode it is ignored.
    const noIeee: FloatMode = { f32Denormals: false, f64f16Denormals: false, ieee: false };
    const m = run(G9, 'v_mul_f32 v0, v1, v2 mul:4', { 1: b(1.5), 2: b(3) }, {}, noIeee);
    expect(lanesOf(run(G9, 'v_mul_f32 v0, v1, v2 mul:4', { 1: b(1.5), 2: b(3) }), 0)[0]).toBe(b(4.5));
    expect(lanesOf(m, 0)[0]).toBe(b(18));
    const d = run(G9, 'v_add_f32_e64 v0, v1, v2 div:2 clamp', { 1: b(3), 2: [b(1), b(-5), 0x7fc00000, b(0.5)] });
    expect(lanesOf(d, 0), 'clamp maps NaN to 0').toEqual([b(1), 0, 0, b(1)]);
  });
  it('v_mad_f32 rounds twice and v_fma_f32 once (Vega ISA, V_MAD_F32 vs V_FMA_F32)', () => {
    const x = b(1 + 2 ** -12);
    const regs = { 1: x, 2: x, 3: b(-1) };
    expect(lanesOf(run(G9, 'v_mad_f32 v0, v1, v2, v3', regs), 0)[0]).toBe(b(2 ** -11));
    expect(lanesOf(run(G9, 'v_fma_f32 v0, v1, v2, v3', regs), 0)[0]).toBe(b(2 ** -11 + 2 ** -24));
    expect(lanesOf(run(G9, 'v_mac_f32 v3, v1, v2', regs), 3)[0]).toBe(b(2 ** -11));
  });
  it('min/max: NaN gives the other operand, -0 below +0 (RDNA3 ISA, V_MIN_F32)', () => {
    const w = run(G10, 'v_min_f32 v0, v1, v2', {
      1: [0x7fc00000, 0, b(1), 0x80000000],
      2: [b(2), 0x80000000, 0x7fc00000, 0],
    });
    expect(lanesOf(w, 0)).toEqual([b(2), 0x80000000, b(1), 0x80000000]);
    const m = run(G10, 'v_max_f32 v0, v1, v2', { 1: [0x80000000], 2: [0] }, {}, undefined, 1);
    expect(lanesOf(m, 0, 1)).toEqual([0]);
  });
  it('denormals flush under MODE (Vega ISA, "Denormals")', () => {
    expect(lanesOf(run(G9, 'v_add_f32 v0, v1, v2', { 1: 1, 2: 0 }), 0)[0]).toBe(1);
    expect(lanesOf(run(G9, 'v_add_f32 v0, v1, v2', { 1: 1, 2: 0 }, {}, OFF), 0)[0]).toBe(0);
  });
  it('cvt saturation and NaN (RDNA3 ISA, V_CVT_I32_F32, V_CVT_U32_F32)', () => {
    const w = run(G9, 'v_cvt_i32_f32 v0, v1', { 1: [b(3e9), b(-3e9), 0x7fc00000, b(-1.9)] });
    expect(lanesOf(w, 0)).toEqual([0x7fffffff, 0x80000000, 0, 0xffffffff]);
    const u = run(G9, 'v_cvt_u32_f32 v0, v1', { 1: [b(-5), b(5e9), 0xffc00000, b(7.9)] });
    expect(lanesOf(u, 0)).toEqual([0, 0xffffffff, 0, 7]);
    const r = run(G9, 'v_cvt_rpi_i32_f32 v0, v1', { 1: [b(2.5), b(-2.5), b(0.49999997), b(-0.5)] });
    expect(lanesOf(r, 0), 'Vega ISA, V_CVT_RPI_I32_F32: floor(x + 0.5)').toEqual([3, 0xfffffffe, 1, 0]);
  });
  it('f16 results: gfx9 zeroes the high half, gfx10 keeps it (D003 known limits)', () => {
    const regs = { 0: 0xdead0000, 1: 0x3c00, 2: 0x3c00 };
    expect(lanesOf(run(G9, 'v_add_f16 v0, v1, v2', regs), 0)[0]).toBe(0x4000);
    expect(lanesOf(run(G10, 'v_add_f16 v0, v1, v2', regs), 0)[0]).toBe(0xdead4000);
    expect(lanesOf(run(G9, 'v_cvt_f16_f32 v0, v1', { 1: b(65520) }), 0)[0]).toBe(0x7c00);
    expect(lanesOf(run(G9, 'v_cvt_pkrtz_f16_f32 v0, v1, v2', { 1: b(65520), 2: b(1) }), 0)[0]).toBe(0x3c007bff);
  });
  it('v_fract_f32 stays below 1 (RDNA3 ISA, V_FRACT_F32)', () => {
    const w = run(G9, 'v_fract_f32 v0, v1', { 1: [b(-1e-10), b(2.75), 0x7f800000, b(-0.25)] });
    expect(lanesOf(w, 0)).toEqual([0x3f7fffff, b(0.75), 0xffc00000, b(0.75)]); // inf - inf: the default NaN (RDNA3 ISA 16.12 examples)
  });
  it('v_cvt_pknorm_i16/u16_f32 clamp, scale, round to nearest even, NaN to 0 (Vega ISA, V_CVT_PKNORM_I16_F32)', () => {
    const x = [b(0.5), b(-2), 0x7fc00000, b(1 / 32767)];
    const y = [b(-0.5), b(0.25), b(1), b(-1e-6)];
    // 0.5 * 32767 = 16383.5 ties to 16384; -16383.5 to -16384; 0.25 * 32767 = 8191.75 to 8192.
    expect(lanesOf(run(G9, 'v_cvt_pknorm_i16_f32 v0, v1, v2', { 1: x, 2: y }), 0)).toEqual([
      0xc0004000, 0x20008001, 0x7fff0000, 0x00000001,
    ]);
    // 0.5 * 65535 = 32767.5 ties to 32768; negatives clamp to 0.
    expect(lanesOf(run(G10, 'v_cvt_pknorm_u16_f32 v0, v1, v2', { 1: x, 2: y }), 0)).toEqual([
      0x00008000, 0x40000000, 0xffff0000, 0x00000002,
    ]);
    expect(lanesOf(run(targetFor('gfx1100'), 'v_cvt_pk_norm_i16_f32 v0, v1, v2', { 1: x, 2: y }), 0)[0]).toBe(
      0xc0004000,
    );
  });
});

describe('VOPC', () => {
  it('float predicates and NaN into VCC, inactive lanes 0 (Vega ISA, VOPC)', () => {
    const regs = { 1: [b(1), 0x7fc00000, b(2), 0], 2: [b(2), b(1), b(2), 0x80000000] };
    const cases: [string, number][] = [
      ['lt', 0b0001],
      ['nge', 0b0011],
      ['eq', 0b1100],
      ['neq', 0b0011],
      ['lg', 0b0001],
      ['u', 0b0010],
      ['o', 0b1101],
      ['tru', 0b1111],
    ];
    for (const [p, want] of cases) {
      const w = run(G9, `v_cmp_${p}_f32 vcc, v1, v2`, regs, { [VCC]: 0xffffffff, [VCC + 1]: 0xffffffff });
      expect([w.s.get(VCC), w.s.get(VCC + 1)], p).toEqual([want, 0]);
    }
  });
  it('signed vs unsigned integer compares; VOP3 sdst; v_cmpx writes EXEC', () => {
    const regs = { 1: [0xffffffff, 1, 5, 0x80000000], 2: [0, 2, 5, 0x7fffffff] };
    expect(run(G9, 'v_cmp_lt_i32 vcc, v1, v2', regs).s.get(VCC)).toBe(0b1011);
    expect(run(G9, 'v_cmp_lt_u32_e64 s[4:5], v1, v2', regs).s.get(4)).toBe(0b0010);
    const x = run(G10, 'v_cmpx_ge_u32 v1, v2', regs, { [EXEC]: 0xf });
    expect(x.s.get(EXEC)).toBe(0b1101);
    const c = run(G9, 'v_cmp_class_f32 vcc, v1, v2', {
      1: [0x7fc00000, 0xff800000, 0x80000000, 1],
      2: [2, 4, 32, 128],
    });
    expect(c.s.get(VCC), 'Vega ISA, V_CMP_CLASS_F32 mask bits').toBe(0b1111);
  });
});

describe('integer VOP2/VOP3', () => {
  it('carry-out and carry-in per generation name (GCN3 v_add_u32, Vega v_add_co_u32, RDNA v_add_co_ci_u32)', () => {
    const regs = { 1: [0xffffffff, 1, 0x80000000, 0], 2: [1, 2, 0x80000000, 0] };
    const g8 = run(G8, 'v_add_u32 v0, vcc, v1, v2', regs);
    expect(lanesOf(g8, 0)).toEqual([0, 3, 0, 0]);
    expect(g8.s.get(VCC)).toBe(0b0101);
    const g7 = run(G7, 'v_add_i32 v0, vcc, v1, v2', regs);
    expect(g7.s.get(VCC)).toBe(0b0101);
    const g9 = run(G9, 'v_add_co_u32 v0, s[6:7], v1, v2', regs);
    expect(g9.s.get(6)).toBe(0b0101);
    const ci = run(
      G10,
      'v_add_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo',
      { 1: [0xffffffff, 1, 2, 3], 2: 0 },
      { [VCC]: 0b0011 },
    );
    expect(lanesOf(ci, 0)).toEqual([0, 2, 2, 3]);
    expect(ci.s.get(VCC)).toBe(0b0001);
    const sb = run(G9, 'v_subb_co_u32 v0, vcc, v1, v2, vcc', { 1: [0, 5, 5, 0], 2: [0, 5, 4, 0] }, { [VCC]: 0b1111 });
    expect(lanesOf(sb, 0)).toEqual([0xffffffff, 0xffffffff, 0, 0xffffffff]);
    expect(sb.s.get(VCC)).toBe(0b1011);
  });
  it('clamp saturates the integer add (Vega ISA, VOP3 clamp on integer ops)', () => {
    expect(lanesOf(run(G9, 'v_add_u32_e64 v0, v1, v2 clamp', { 1: 0xffffffff, 2: 2 }), 0)[0]).toBe(0xffffffff);
    expect(lanesOf(run(G9, 'v_sub_u32_e64 v0, v1, v2 clamp', { 1: 1, 2: 2 }), 0)[0]).toBe(0);
    expect(lanesOf(run(G10, 'v_add_nc_i32 v0, v1, v2 clamp', { 1: 0x7fffffff, 2: 1 }), 0)[0]).toBe(0x7fffffff);
  });
  it('shift counts use the low 5 bits (6 for 64-bit) (Vega ISA, V_LSHLREV_B32, V_LSHRREV_B64)', () => {
    expect(lanesOf(run(G9, 'v_lshlrev_b32 v0, v1, v2', { 1: [32, 33, 31, 63], 2: 1 }), 0)).toEqual([
      1, 2, 0x80000000, 0x80000000,
    ]);
    expect(lanesOf(run(G9, 'v_ashrrev_i32 v0, v1, v2', { 1: 36, 2: 0x80000000 }), 0)[0]).toBe(0xf8000000);
    const w = run(G9, 'v_lshrrev_b64 v[0:1], v2, v[4:5]', { 2: [64, 32, 1, 65], 4: 0, 5: 1 });
    expect(lanesOf(w, 0)).toEqual([0, 1, 0x80000000, 0x80000000]);
  });
  it('24-bit multiplies and 64-bit mad (Vega ISA, V_MUL_U32_U24, V_MUL_HI_I32_I24, V_MAD_U64_U32)', () => {
    expect(lanesOf(run(G9, 'v_mul_u32_u24 v0, v1, v2', { 1: 0xff000003, 2: 0x01000005 }), 0)[0]).toBe(15);
    expect(lanesOf(run(G9, 'v_mul_hi_i32_i24 v0, v1, v2', { 1: 0x800000, 2: 0x7fffff }), 0)[0]).toBe(0xffffc000);
    const m = run(G9, 'v_mad_u64_u32 v[0:1], s[4:5], v2, v3, v[6:7]', {
      2: 0xffffffff,
      3: 0xffffffff,
      6: 0xffffffff,
      7: 0xffffffff,
    });
    expect([...lanesOf(m, 0, 1), ...lanesOf(m, 1, 1), m.s.get(4)], '2^65 - 2^33: carry out').toEqual([
      0, 0xfffffffe, 0b1111,
    ]);
  });
  it('byte and bit-field operations (Vega ISA, V_PERM_B32, V_ALIGNBYTE_B32, V_BFI_B32, V_BFE_U32, V_SAD_U8, V_MSAD_U8, V_LERP_U8)', () => {
    const p = run(G9, 'v_perm_b32 v0, v1, v2, v3', {
      1: 0x88776655,
      2: 0x44332211,
      3: [0x07060504, 0x0c0d0b08, 0x03020100, 0x0a090800],
    });
    expect(lanesOf(p, 0)).toEqual([0x88776655, 0x00ffff00, 0x44332211, 0x00000011]);
    expect(
      lanesOf(run(G9, 'v_alignbyte_b32 v0, v1, v2, v3', { 1: 0xaabbccdd, 2: 0x11223344, 3: [1, 4, 0, 3] }), 0),
    ).toEqual([0xdd112233, 0x11223344, 0x11223344, 0xbbccdd11]);
    expect(lanesOf(run(G9, 'v_bfi_b32 v0, v1, v2, v3', { 1: 0xffff0000, 2: 0x12345678, 3: 0x9abcdef0 }), 0)[0]).toBe(
      0x1234def0,
    );
    expect(
      lanesOf(run(G9, 'v_bfe_u32 v0, v1, v2, v3', { 1: 0x12345678, 2: [4, 36, 0, 28], 3: [8, 8, 32, 8] }), 0),
    ).toEqual([0x67, 0x67, 0, 0x1]);
    expect(lanesOf(run(G9, 'v_sad_u8 v0, v1, v2, v3', { 1: 0x01ff0010, 2: 0x02000110, 3: 100 }), 0)[0]).toBe(
      100 + 1 + 255 + 1,
    );
    expect(lanesOf(run(G9, 'v_msad_u8 v0, v1, v2, v3', { 1: 0x01ff0010, 2: 0x02000110, 3: 0 }), 0)[0]).toBe(1 + 1);
    expect(lanesOf(run(G9, 'v_lerp_u8 v0, v1, v2, v3', { 1: 0x00ff0102, 2: 0x00ff0101, 3: 0x00010100 }), 0)[0]).toBe(
      0x00ff0101,
    );
  });
  it('v_mbcnt counts the lanes below this one (Vega ISA, V_MBCNT_LO_U32_B32)', () => {
    const w = run(G9, 'v_mbcnt_lo_u32_b32 v0, -1, 0', {});
    expect(lanesOf(w, 0)).toEqual([0, 1, 2, 3]);
    const h = run(G9, 'v_mbcnt_hi_u32_b32 v0, -1, v1', { 1: [0, 1, 2, 3] });
    expect(lanesOf(h, 0)).toEqual([0, 1, 2, 3]);
  });
  it('v_cndmask_b32 selects by this lane of VCC (Vega ISA, V_CNDMASK_B32)', () => {
    const w = run(G9, 'v_cndmask_b32 v0, v1, v2, vcc', { 1: 7, 2: 9 }, { [VCC]: 0b0110 });
    expect(lanesOf(w, 0)).toEqual([7, 9, 9, 7]);
  });
  it('VOP3P packed halves with op_sel (Vega ISA, V_PK_ADD_U16)', () => {
    expect(lanesOf(run(G9, 'v_pk_add_u16 v0, v1, v2', { 1: 0x0001ffff, 2: 0x00020001 }), 0)[0]).toBe(0x00030000);
    expect(
      lanesOf(run(G9, 'v_pk_add_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]', { 1: 0x00050003, 2: 0x00200010 }), 0)[0],
    ).toBe(0x00230015);
  });
});

describe('dot products (RDNA2 ISA, V_DOT4_I32_I8, V_DOT8_U32_U4, V_DOT2_I32_I16, V_DOT2C_F32_F16, ...)', () => {
  const one = (text: string, v: Record<number, number>): number => lanesOf(run(G10, text, v), 0)[0]!;
  it('sums byte, nibble and half products with the accumulator, mod 2^32', () => {
    // bytes (LSB first) x = 1, 127, -1, -128 (u8: 1, 127, 255, 128); y = 2, -1, -128, 127 (2, 255, 128, 127)
    const bytes = { 1: 0x80ff7f01, 2: 0x7f80ff02, 3: 1000 };
    expect(one('v_dot4_i32_i8 v0, v1, v2, v3', bytes)).toBe((1000 + 2 - 127 + 128 - 16256) >>> 0);
    expect(one('v_dot4_u32_u8 v0, v1, v2, v3', bytes)).toBe(1000 + 2 + 127 * 255 + 255 * 128 + 128 * 127);
    expect(one('v_dot4c_i32_i8 v0, v1, v2', { 0: 7, 1: 0x80ff7f01, 2: 0x7f80ff02 })).toBe((7 - 16253) >>> 0);
    // nibbles x = 8, 1, 15, 7 (signed -8, 1, -1, 7); y = 2, 3, 8, 9 (2, 3, -8, -7)
    const nibbles = { 1: 0x7f18, 2: 0x9832, 3: 0 };
    expect(one('v_dot8_i32_i4 v0, v1, v2, v3', nibbles)).toBe(-54 >>> 0);
    expect(one('v_dot8_u32_u4 v0, v1, v2, v3', nibbles)).toBe(16 + 3 + 120 + 63);
    expect(one('v_dot2_i32_i16 v0, v1, v2, v3', { 1: 0x80007fff, 2: 0x80000002, 3: 5 })).toBe(5 + 65534 + 2 ** 30);
    expect(one('v_dot2_u32_u16 v0, v1, v2, v3', { 1: 0xffff0002, 2: 0xffff0003, 3: 200000 })).toBe(
      (200000 + 6 + 65535 * 65535) % 2 ** 32,
    );
    expect(
      one('v_dot2_i32_i16 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1]', { 1: 0x00030005, 2: 0x00070002, 3: 0 }),
      'op_sel: x = (hi, lo) = (3, 5)',
    ).toBe(3 * 2 + 5 * 7);
  });
  it('clamp saturates the final sum (i32 both ways, u32)', () => {
    expect(one('v_dot4_i32_i8 v0, v1, v2, v3 clamp', { 1: 0x7f7f7f7f, 2: 0x7f7f7f7f, 3: 0x7fffff00 })).toBe(0x7fffffff);
    expect(one('v_dot4_i32_i8 v0, v1, v2, v3 clamp', { 1: 0x80808080, 2: 0x7f7f7f7f, 3: 0x80000010 })).toBe(0x80000000);
    expect(one('v_dot4_i32_i8 v0, v1, v2, v3 clamp', { 1: 0x80808080, 2: 0x7f7f7f7f, 3: 0x10 })).toBe(
      (0x10 - 4 * 128 * 127) >>> 0,
    );
    expect(one('v_dot8_u32_u4 v0, v1, v2, v3 clamp', { 1: 0xffffffff, 2: 0xffffffff, 3: 0xffffff00 })).toBe(0xffffffff);
    expect(() => run(G10, 'v_dot2_i32_i16 v0, v1, v2, v3 clamp', {})).toThrow(SemanticsRefusal);
  });
  it('fdot2: f16 products added to the f32 accumulator one at a time (RDNA3 pseudocode)', () => {
    // 1.5 + 2·3 + 0.5·(-4) = 5.5
    expect(one('v_dot2c_f32_f16 v0, v1, v2', { 0: b(1.5), 1: 0x38004000, 2: 0xc4004200 })).toBe(b(5.5));
    expect(one('v_dot2_f32_f16 v0, v1, v2, v3 neg_lo:[1,0,0]', { 1: 0x38004000, 2: 0xc4004200, 3: b(1.5) })).toBe(
      b(-6.5),
    );
    // 2^24 + 1 rounds back to 2^24 (tie to even) at each step; one rounding of the whole sum would give 2^24 + 2.
    expect(one('v_dot2c_f32_f16 v0, v1, v2', { 0: b(2 ** 24), 1: 0x3c003c00, 2: 0x3c003c00 })).toBe(b(2 ** 24));
    expect(() => run(G10, 'v_dot2_f32_f16 v0, v1, v2, v3 neg_lo:[0,0,1]', {})).toThrow(SemanticsRefusal);
  });
});

describe('refusals and coverage', () => {
  it('DPP and cross-lane instructions run at wave level (src/interp/wave-ops.test.ts)', () => {
    // Vega ISA, "DPP" quad_perm:[1,0,3,2]: lane 0 reads lane 1's v1.
    const w = run(G9, 'v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf', { 1: [10, 11, 12, 13] });
    expect(lanesOf(w, 0)).toEqual([11, 10, 13, 12]);
  });
  it('lists exactly the VOP names without a per-lane function', () => {
    const names = new Set<string>();
    const uncovered = new Set<string>();
    for (const d of allInstructions())
      if (VALU_FAMILIES.includes(d.family)) {
        names.add(d.name);
        if (!vectorSemanticsFor(d)) uncovered.add(d.name);
      }
    for (const n of Object.keys(VECTOR_UNCOVERED)) expect(uncovered.has(n), n).toBe(true);
    expect([...uncovered].sort()).toEqual(UNCOVERED);
  });
});

/**
 * The VOP names with no per-lane function: the wave-level ones (readlane, permlane, movrel*, swap*; they
 * run in wave-ops.ts) and those `VECTOR_UNCOVERED` refuses with a reason (interpolation, the illegal-
 * instruction trap, texts that leave the result undefined, WMMA).
 */
const UNCOVERED: readonly string[] = [
  'v_cvt_pk_u8_f32',
  'v_cvt_pkaccum_u8_f32',
  'v_exp_legacy_f32',
  'v_illegal',
  'v_interp_mov_f32_e64',
  'v_interp_p1_f32_e64',
  'v_interp_p1ll_f16',
  'v_interp_p1lv_f16',
  'v_interp_p2_f16',
  'v_interp_p2_f32_e64',
  'v_interp_p2_legacy_f16',
  'v_log_legacy_f32',
  'v_movreld_b32',
  'v_movrels_b32',
  'v_movrelsd_2_b32',
  'v_movrelsd_b32',
  'v_permlane16_b32',
  'v_permlane64_b32',
  'v_permlanex16_b32',
  'v_readfirstlane_b32',
  'v_readlane_b32',
  'v_rsq_legacy_f32',
  'v_screen_partition_4se_b32',
  'v_swap_b32',
  'v_swaprel_b32',
  'v_wmma_bf16_16x16x16_bf16',
  'v_wmma_f16_16x16x16_f16',
  'v_wmma_f32_16x16x16_bf16',
  'v_wmma_f32_16x16x16_f16',
  'v_wmma_i32_16x16x16_iu4',
  'v_wmma_i32_16x16x16_iu8',
  'v_writelane_b32',
];
