/**
 * The MODE register's decoding (mode.ts): the wave-start value from COMPUTE_PGM_RSRC1, the
 * hwreg(id, offset, size) fields, and the float controls, against RDNA3 ISA 3.4.2 "Mode register"
 * and LLVM's AMDGPUUsage (compute_pgm_rsrc1).
 */
import { describe, expect, it } from 'vitest';
import { fieldMask, floatModeOf, hwRegField, HW_REG_MODE, modeFromRsrc1 } from './mode.ts';

describe('the MODE register', () => {
  it('starts from RSRC1: FLOAT_MODE [19:12] to MODE[7:0], DX10_CLAMP [21] to [8], IEEE_MODE [23] to [9]', () => {
    expect(modeFromRsrc1(0x00ac0000 | (0xc0 << 12))).toBe(0x3c0);
    expect(modeFromRsrc1(0xf0 << 12)).toBe(0x0f0);
    expect(modeFromRsrc1(0xffffffff)).toBe(0x3ff);
  });
  it('decodes hwreg(id, offset, size): SIMM16 [5:0], [10:6], [15:11] + 1', () => {
    // hwreg(HW_REG_MODE, 4, 2) = 1 | 4 << 6 | 1 << 11
    expect(hwRegField(0x0901)).toEqual({ id: HW_REG_MODE, offset: 4, size: 2 });
    expect(hwRegField(0xf801)).toEqual({ id: 1, offset: 0, size: 32 });
    expect(fieldMask({ id: 1, offset: 4, size: 2 })).toBe(0x30);
    expect(fieldMask({ id: 1, offset: 0, size: 32 })).toBe(0xffffffff);
    expect(fieldMask({ id: 1, offset: 28, size: 8 })).toBe(0xf0000000);
  });
  it('gives the float controls: denormal modes 0 and 3, DX10_CLAMP, IEEE; refuses the rest by name', () => {
    expect(floatModeOf(0x3c0)).toEqual({ f32Denormals: false, f64f16Denormals: true, dx10Clamp: true, ieee: true });
    expect(floatModeOf(0x030)).toEqual({ f32Denormals: true, f64f16Denormals: false, dx10Clamp: false, ieee: false });
    expect(floatModeOf(0x0d0)).toMatch(/FP_DENORM \[5:4\] \(f32\) is 1/);
    expect(floatModeOf(0x2f0)).toMatchObject({ ieee: true, dx10Clamp: false });
    expect(floatModeOf(0x0c4)).toMatch(/FP_ROUND is 4/);
  });
});
