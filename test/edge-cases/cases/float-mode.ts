/**
 * The MODE register's float controls: denormal flushing by the dispatch's FLOAT_MODE
 * (COMPUTE_PGM_RSRC1) and by s_setreg / s_denorm_mode, the IEEE bit's effect on output
 * modifiers, and the clamp modifier with DX10_CLAMP.
 */
import { Gen } from '../../../src/isa/gen.ts';
import { F16, F32, f32, f64 } from '../bits.ts';
import type { EdgeCase } from '../harness.ts';
import { all, from } from '../targets.ts';

const DENORM =
  'RDNA3 ISA 3.4.2 "Mode register", FP_DENORM [5:4] f32 / [7:6] f64 and f16: 0 = flush input and output denorms, 3 = allow both';
const START =
  'LLVM AMDGPUUsage, compute_pgm_rsrc1: the wave starts with FLOAT_MODE as MODE[7:0] (capture default 0xc0: f32 flushed, f64/f16 kept), DX10_CLAMP as MODE[8], IEEE_MODE as MODE[9]';
const OMOD =
  'RDNA3 ISA 7.2.3.1 "Output Operand Modifiers": "Output modifiers are ignored if the IEEE mode bit is set to 1", and when output denormals are enabled (LLVM SIFoldOperands folds omod only then, every generation)';
const CLAMP =
  'RDNA3 ISA 7.2 "Operands", CLMP: float clamp to [0, 1.0], -0 to +0; 3.4.2 DX10_CLAMP: "When set, clamp NaN to zero, otherwise pass NaN thru"';

const MIN_F64 = f64(2 ** -1074); // the smallest f64 denormal
const half = f32(0.5);

/** x + y and x * z in f32, then 2^-1074 + 0 in f64 (the sign a flushed denormal keeps is not documented: no row depends on it). */
function denormalBody(): string {
  return [
    'v_add_f32 v40, v10, v11',
    'v_mul_f32 v41, v10, v12',
    `v_mov_b32 v60, ${MIN_F64[0]}`,
    `v_mov_b32 v61, ${MIN_F64[1]}`,
    'v_add_f64 v[42:43], v[60:61], 0',
  ].join('\n');
}

export const FLOAT_MODE_CASES: readonly EdgeCase[] = [
  {
    kind: 'vector',
    id: 'float-mode/default-float-mode-flushes-f32-keeps-f64',
    cite: `${START}; ${DENORM}`,
    targets: all,
    ins: 3,
    outs: 4,
    body: denormalBody(),
    rows: [
      // x, y, z, then x + y, x * z, the f64 sum (lo, hi)
      [F32.minDenorm, 0, half, 0, 0, ...MIN_F64],
      [F32.maxDenorm, F32.minDenorm, F32.one, 0, 0, ...MIN_F64],
      [F32.minNormal, 0, half, F32.minNormal, 0, ...MIN_F64],
      [F32.one, F32.minNormal, F32.one, F32.one, F32.one, ...MIN_F64],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/float-mode-0xf0-keeps-every-denormal',
    cite: `${START}; ${DENORM}`,
    targets: all,
    mode: { float_mode: 0xf0 },
    ins: 3,
    outs: 4,
    body: denormalBody(),
    rows: [
      [F32.minDenorm, 0, half, F32.minDenorm, 0, ...MIN_F64],
      [F32.maxDenorm, F32.minDenorm, F32.one, F32.minNormal, F32.maxDenorm, ...MIN_F64],
      [F32.minNormal, 0, half, F32.minNormal, 0x00400000, ...MIN_F64],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/float-mode-0x30-keeps-f32-flushes-f64',
    cite: `${START}; ${DENORM}`,
    targets: all,
    mode: { float_mode: 0x30 },
    ins: 3,
    outs: 4,
    body: denormalBody(),
    rows: [
      [F32.minDenorm, 0, half, F32.minDenorm, 0, 0, 0],
      [F32.minNormal, 0, half, F32.minNormal, 0x00400000, 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/f16-denormals-by-float-mode',
    cite: `${START}; ${DENORM} (f16 follows the f64 bits); RDNA3 ISA 7.2.4: "16-bit floats support denormals"`,
    targets: from(Gen.GFX8),
    ins: 2,
    outs: 2,
    body: 'v_add_f16 v60, v10, v11\nv_mul_f16 v61, v10, v11\nv_and_b32 v40, 0xffff, v60\nv_and_b32 v41, 0xffff, v61',
    rows: [
      [F16.minDenorm, 0, F16.minDenorm, 0],
      [F16.minNormal, 0x3800, 0x3800, 0x0200],
      [F16.maxDenorm, F16.minDenorm, F16.minNormal, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/f16-denormals-flushed-by-float-mode-0x30',
    cite: `${DENORM}; FLOAT_MODE 0x30 flushes f64/f16`,
    targets: from(Gen.GFX8),
    mode: { float_mode: 0x30 },
    ins: 2,
    outs: 2,
    body: 'v_add_f16 v60, v10, v11\nv_mul_f16 v61, v10, v11\nv_and_b32 v40, 0xffff, v60\nv_and_b32 v41, 0xffff, v61',
    rows: [
      [F16.minDenorm, 0, 0, 0],
      [F16.minNormal, 0x3800, 0x3800, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/v_min_f32-denormal-by-input-mode',
    cite: 'RDNA3 ISA 16.7, V_MIN_F32 notes: "If input denorm mode is disabling denorm, the internal result of a min/max operation cannot be a denorm value"',
    targets: all,
    ins: 2,
    outs: 2,
    body: 'v_min_f32 v40, v10, v11\nv_max_f32 v41, v10, v11',
    rows: [
      [F32.minDenorm, F32.one, 0, F32.one],
      [F32.one, F32.maxDenorm, 0, F32.one],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/s_setreg-mode-allows-f32-denormals',
    cite: `RDNA3 ISA 16.2 "SOPK Instructions", S_SETREG_IMM32_B32 / S_GETREG_B32 with hwreg(HW_REG_MODE, 4, 2); ${DENORM}; ${START}`,
    targets: all,
    ins: 2,
    outs: 4,
    body: [
      's_getreg_b32 s24, hwreg(HW_REG_MODE, 0, 10)',
      'v_add_f32 v40, v10, v11',
      's_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3',
      's_getreg_b32 s25, hwreg(HW_REG_MODE, 0, 10)',
      'v_add_f32 v41, v10, v11',
      'v_mov_b32 v42, s24',
      'v_mov_b32 v43, s25',
    ].join('\n'),
    rows: [
      [F32.minDenorm, 0, 0, F32.minDenorm, 0x3c0, 0x3f0],
      [F32.maxDenorm, F32.minDenorm, 0, F32.minNormal, 0x3c0, 0x3f0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/s_setreg_b32-mode-flushes-f64-denormals',
    cite: `RDNA3 ISA 16.2, S_SETREG_B32 hwreg(HW_REG_MODE, 6, 2) from an SGPR; ${DENORM}`,
    targets: all,
    ins: 0,
    outs: 2,
    body: [
      `v_mov_b32 v60, ${MIN_F64[0]}`,
      `v_mov_b32 v61, ${MIN_F64[1]}`,
      's_mov_b32 s24, 0',
      's_setreg_b32 hwreg(HW_REG_MODE, 6, 2), s24',
      'v_add_f64 v[40:41], v[60:61], 0',
    ].join('\n'),
    rows: [[0, 0]],
  },
  {
    kind: 'vector',
    id: 'float-mode/s_denorm_mode',
    cite: `RDNA3 ISA 16.5 "SOPP Instructions", S_DENORM_MODE: "Set floating point denormal mode using an immediate constant" (SIMM16[3:0] to MODE[7:4], as Mesa's ACO emits it); ${DENORM}`,
    targets: from(Gen.GFX10),
    ins: 2,
    outs: 3,
    body: [
      'v_add_f32 v40, v10, v11',
      's_denorm_mode 0xf',
      'v_add_f32 v41, v10, v11',
      's_denorm_mode 0x0',
      `v_mov_b32 v60, ${MIN_F64[0]}`,
      `v_mov_b32 v61, ${MIN_F64[1]}`,
      'v_add_f64 v[62:63], v[60:61], 0',
      'v_or_b32 v42, v62, v63',
    ].join('\n'),
    rows: [[F32.minDenorm, 0, 0, F32.minDenorm, 0]],
  },
  {
    kind: 'vector',
    id: 'float-mode/omod-ignored-in-ieee-mode',
    cite: OMOD,
    targets: all,
    ins: 2,
    outs: 2,
    body: 'v_mul_f32_e64 v40, v10, v11 mul:2\nv_add_f32_e64 v41, v10, v11 div:2',
    rows: [
      [f32(3), f32(1), f32(3), f32(4)],
      [f32(-1.5), f32(2), f32(-3), f32(0.5)],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/omod-applied-without-ieee-mode',
    cite: `${OMOD}: with IEEE_MODE 0 and f32 denormals flushed (FLOAT_MODE 0xc0) omod scales the result`,
    targets: all,
    mode: { ieee_mode: 0 },
    ins: 2,
    outs: 2,
    body: 'v_mul_f32_e64 v40, v10, v11 mul:2\nv_add_f32_e64 v41, v10, v11 div:2',
    rows: [
      [f32(3), f32(1), f32(6), f32(2)],
      [f32(-1.5), f32(2), f32(-6), f32(0.25)],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/omod-ignored-with-output-denormals',
    cite: `${OMOD}: with IEEE_MODE 0 but f32 denormals kept (FLOAT_MODE 0xf0) omod is ignored`,
    targets: all,
    mode: { ieee_mode: 0, float_mode: 0xf0 },
    ins: 2,
    outs: 1,
    body: 'v_mul_f32_e64 v40, v10, v11 mul:4',
    rows: [[f32(3), f32(1), f32(3)]],
  },
  {
    kind: 'vector',
    id: 'float-mode/clamp-dx10-nan-to-zero',
    cite: CLAMP,
    targets: all,
    ins: 2,
    outs: 1,
    body: 'v_add_f32_e64 v40, v10, v11 clamp',
    rows: [
      [F32.qnan, F32.one, 0],
      [F32.snan, F32.one, 0],
      [f32(2), F32.one, F32.one],
      [f32(-3), F32.one, 0],
      [F32.negZero, F32.negZero, 0],
      [f32(0.25), f32(0.25), half],
      [F32.posInf, F32.one, F32.one],
      [F32.negInf, F32.one, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-mode/clamp-without-dx10-passes-nan',
    cite: CLAMP,
    targets: all,
    mode: { dx10_clamp: 0 },
    compare: { nan: 'f32' },
    ins: 2,
    outs: 1,
    body: 'v_add_f32_e64 v40, v10, v11 clamp',
    rows: [
      [F32.qnan, F32.one, F32.qnan],
      [f32(2), F32.one, F32.one],
      [f32(-3), F32.one, 0],
    ],
  },
];
