/**
 * NaN propagation and quieting, and min/max with NaNs and signed zeros (IEEE mode and not), in
 * f32, f64 and f16.
 */
import { Gen } from '../../../src/isa/gen.ts';
import { F16, F32, f32, f64, w64 } from '../bits.ts';
import type { EdgeCase } from '../harness.ts';
import { all, from, only } from '../targets.ts';
import { maskToVgpr } from './spellings.ts';

const MINMAX =
  'RDNA3 ISA 16.7 "VOP2 Instructions", V_MIN_F32 / V_MAX_F32 pseudocode (LT_NEG_ZERO: -0 < +0; WAVE_MODE.IEEE: a signaling NaN is returned quieted, a quiet NaN gives the other operand); CDNA4 ISA 12.7 gives the same for these rows';
const MODE_IEEE = 'RDNA3 ISA 3.4.2 "Mode register", IEEE: "IEEE==0 ... pass signaling NaN"';
const IEEE_QUIET =
  'IEEE 754-2008 7.2: an operation on a signaling NaN signals invalid and delivers a quiet NaN; 6.2.3: a NaN operand propagates (the payload is not fixed, so NaN results compare by class)';
const RDNA3_VOP3 = 'RDNA3 ISA 16.12 "VOP3 & VOP3SD Instructions"';

const one = f32(1);
const two = f32(2);
const Q = 'v_cmp_class_f32_e64'; // class bit 1: quiet NaN (RDNA3 ISA 16.9, V_CMP_CLASS_F32)

export const FLOAT_NAN_CASES: readonly EdgeCase[] = [
  {
    kind: 'vector',
    id: 'float-nan/v_min_max_f32-quiet-nan-and-signed-zero',
    cite: MINMAX,
    targets: all,
    ins: 2,
    outs: 2,
    body: 'v_min_f32 v40, v10, v11\nv_max_f32 v41, v10, v11',
    rows: [
      [F32.qnan, one, one, one],
      [one, F32.qnan, one, one],
      [F32.qnanPayload, f32(-5), f32(-5), f32(-5)],
      [F32.posZero, F32.negZero, F32.negZero, F32.posZero],
      [F32.negZero, F32.posZero, F32.negZero, F32.posZero],
      [F32.negInf, F32.posInf, F32.negInf, F32.posInf],
      [one, two, one, two],
      [f32(-3), f32(-3.5), f32(-3.5), f32(-3)],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/v_min_max_f32-signaling-nan-ieee-mode',
    cite: `${MINMAX}; cvtToQuietNAN sets the quiet bit and keeps the payload (IEEE 754-2008 6.2.1)`,
    targets: all,
    mode: { ieee_mode: 1 },
    ins: 2,
    outs: 2,
    body: 'v_min_f32 v40, v10, v11\nv_max_f32 v41, v10, v11',
    rows: [
      [F32.snan, one, F32.snanQuieted, F32.snanQuieted],
      [one, F32.snan, F32.snanQuieted, F32.snanQuieted],
      [F32.snan, F32.qnan, F32.snanQuieted, F32.snanQuieted],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/v_min_max_f32-signaling-nan-without-ieee-mode',
    cite: `${MINMAX}, the IEEE==0 branch: any NaN operand gives the other operand; ${MODE_IEEE}`,
    targets: all,
    mode: { ieee_mode: 0 },
    ins: 2,
    outs: 2,
    body: 'v_min_f32 v40, v10, v11\nv_max_f32 v41, v10, v11',
    rows: [
      [F32.snan, one, one, one],
      [one, F32.snan, one, one],
      [F32.qnan, two, two, two],
      [F32.posZero, F32.negZero, F32.negZero, F32.posZero],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/gfx11-v_min_f32-two-nans-gives-s0',
    cite: `${MINMAX}: with S1 a quiet NaN, D0 = S0 (RDNA3 only: CDNA4's pseudocode checks S0 first)`,
    targets: only(Gen.GFX11),
    ins: 2,
    outs: 2,
    body: 'v_min_f32 v40, v10, v11\nv_max_f32 v41, v10, v11',
    rows: [
      [F32.qnanPayload, F32.qnan, F32.qnanPayload, F32.qnanPayload],
      [F32.qnan, F32.qnanPayload, F32.qnan, F32.qnan],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/v_min_max_f64-nan-and-signed-zero',
    cite: `${RDNA3_VOP3}, V_MIN_F64 / V_MAX_F64: the pseudocode of V_MIN_F32 on doubles`,
    targets: all,
    ins: 4,
    outs: 4,
    body: 'v_min_f64 v[40:41], v[10:11], v[12:13]\nv_max_f64 v[42:43], v[10:11], v[12:13]',
    rows: [
      [...w64('0x7ff8000000000000'), ...f64(1), ...f64(1), ...f64(1)],
      [...f64(-2), ...w64('0x7ff8000000000000'), ...f64(-2), ...f64(-2)],
      [...f64(0), ...f64(-0), ...f64(-0), ...f64(0)],
      [...w64('0x7ff0000000000123'), ...f64(1), ...w64('0x7ff8000000000123'), ...w64('0x7ff8000000000123')],
      [...f64(1.5), ...f64(-1.5), ...f64(-1.5), ...f64(1.5)],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/v_min_max_f16-nan-and-signed-zero',
    cite: `${RDNA3_VOP3}, V_MIN_F16 / V_MAX_F16 (the rules of V_MIN_F32 on halves; low halves only here)`,
    targets: from(Gen.GFX8),
    ins: 2,
    outs: 2,
    body: [
      'v_min_f16 v60, v10, v11',
      'v_max_f16 v61, v10, v11',
      'v_and_b32 v40, 0xffff, v60',
      'v_and_b32 v41, 0xffff, v61',
    ].join('\n'),
    rows: [
      [F16.qnan, F16.one, F16.one, F16.one],
      [F16.two, F16.qnan, F16.two, F16.two],
      [0, F16.negZero, F16.negZero, 0],
      [F16.snan, F16.one, F16.snanQuieted, F16.snanQuieted],
      [F16.negInf, F16.one, F16.negInf, F16.one],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/v_med3_f32-nan-gives-min3',
    cite: `${RDNA3_VOP3}, V_MED3_F32: any NaN operand gives v_min3_f32(S0, S1, S2), itself v_min_f32 twice`,
    targets: all,
    ins: 3,
    outs: 1,
    body: 'v_med3_f32 v40, v10, v11, v12',
    rows: [
      [F32.qnan, one, two, one],
      [f32(3), F32.qnan, two, two],
      [f32(3), one, F32.qnan, one],
      [f32(3), one, two, two],
      [f32(-1), f32(5), f32(0.5), f32(0.5)],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/arithmetic-propagates-a-quiet-nan',
    cite: IEEE_QUIET,
    targets: all,
    compare: { nan: 'f32' },
    ins: 3,
    outs: 4,
    body: (t) =>
      [
        'v_add_f32 v40, v10, v11',
        'v_mul_f32 v41, v10, v11',
        'v_fma_f32 v42, v10, v11, v12',
        `${Q} ${t.vcc}, v40, 2`,
        maskToVgpr('v43', t.vcc),
      ].join('\n'),
    rows: [
      // a, b, c, then a + b, a * b, fma(a, b, c), is a + b a quiet NaN
      [F32.snan, one, one, F32.qnan, F32.qnan, F32.qnan, 1],
      [F32.qnanPayload, one, one, F32.qnan, F32.qnan, F32.qnan, 1],
      [one, F32.snan, one, F32.qnan, F32.qnan, F32.qnan, 1],
      [one, two, F32.snan, f32(3), two, F32.qnan, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/invalid-operations-give-a-quiet-nan',
    cite: 'IEEE 754-2008 7.2: inf - inf, 0 * inf and fma(0, inf, c) are invalid and deliver a quiet NaN',
    targets: all,
    compare: { nan: 'f32' },
    ins: 3,
    outs: 4,
    body: (t) =>
      [
        'v_add_f32 v40, v10, v11',
        'v_mul_f32 v41, v10, v11',
        'v_fma_f32 v42, v10, v11, v12',
        `${Q} ${t.vcc}, v41, 2`,
        maskToVgpr('v43', t.vcc),
      ].join('\n'),
    rows: [
      [F32.posInf, F32.negInf, one, F32.qnan, F32.negInf, F32.negInf, 0],
      [F32.posZero, F32.posInf, one, F32.posInf, F32.qnan, F32.qnan, 1],
      [F32.negInf, F32.negZero, F32.negInf, F32.negInf, F32.qnan, F32.qnan, 1],
      [F32.posInf, one, F32.negInf, F32.posInf, F32.posInf, F32.qnan, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/f64-arithmetic-quiets-nans',
    cite: `${IEEE_QUIET}; read back as V_CMP_CLASS_F64 bit 1 (quiet NaN) of the sum and the product`,
    targets: all,
    ins: 4,
    outs: 2,
    body: (t) =>
      [
        'v_add_f64 v[60:61], v[10:11], v[12:13]',
        'v_mul_f64 v[62:63], v[10:11], v[12:13]',
        `v_cmp_class_f64_e64 ${t.vcc}, v[60:61], 2`,
        maskToVgpr('v40', t.vcc),
        `v_cmp_class_f64_e64 ${t.vcc}, v[62:63], 2`,
        maskToVgpr('v41', t.vcc),
      ].join('\n'),
    rows: [
      // a, b, then: is a + b a quiet NaN, is a * b a quiet NaN
      [...w64('0x7ff0000000000001'), ...f64(1), 1, 1],
      [...f64(Infinity), ...f64(-Infinity), 1, 0],
      [...f64(0), ...f64(Infinity), 0, 1],
      [...f64(1.5), ...w64('0xfff8000000000abc'), 1, 1],
      [...f64(1.5), ...f64(2), 0, 0],
    ],
  },
  {
    kind: 'vector',
    id: 'float-nan/f16-arithmetic-quiets-nans',
    cite: IEEE_QUIET,
    targets: from(Gen.GFX8),
    compare: { nan: 'f16' },
    ins: 2,
    outs: 2,
    body: 'v_add_f16 v60, v10, v11\nv_mul_f16 v61, v10, v11\nv_and_b32 v40, 0xffff, v60\nv_and_b32 v41, 0xffff, v61',
    rows: [
      [F16.snan, F16.one, F16.qnan, F16.qnan],
      [F16.posInf, F16.negInf, F16.qnan, F16.negInf],
      [0, F16.posInf, F16.posInf, F16.qnan],
      [F16.one, F16.two, 0x4200, F16.two],
    ],
  },
];
