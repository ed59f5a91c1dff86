/**
 * The operand spellings the printers share (src/isa/operands.ts) and the per-opcode plan
 * cache (OpcodePlans), which D010 rewrote for speed: hex from byte tables instead of
 * Number#toString(16), register names read from tables filled on first use, plans found
 * by opcode. Expected spellings are llvm-mc-19's (as the corpus rows print them).
 */
import { describe, expect, it } from 'vitest';
import { Gen } from '../../src/isa/gen.ts';
import { hex, scalarRegName, vgprName } from '../../src/isa/operands.ts';
import { OpcodePlans, lookupOpcode } from '../../src/isa/registry/registry.ts';

describe('hex', () => {
  const reference = (v: number): string => `0x${(v >>> 0).toString(16)}`;

  it('spells every 17-bit value as 0x and the digits without leading zeros', () => {
    for (let v = 0; v < 0x20000; v++) if (hex(v) !== reference(v)) expect(hex(v)).toBe(reference(v));
  });

  it('spells 32-bit values, negatives and fractions as their unsigned 32-bit value', () => {
    let s = 0x9e3779b9;
    for (let i = 0; i < 100000; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      if (hex(s) !== reference(s)) expect(hex(s)).toBe(reference(s));
    }
    for (const v of [0x100, 0xffff, 0x10000, 0x1000000, 0xffffffff, -1, -16, 2 ** 32, 1.5, NaN])
      expect(hex(v)).toBe(reference(v));
    expect(hex(0x3f800000)).toBe('0x3f800000');
    expect(hex(-1)).toBe('0xffffffff');
  });
});

describe('register names', () => {
  it('spells VGPRs and ranges, from the table and past it', () => {
    expect(vgprName(5, 1)).toBe('v5');
    expect(vgprName(5, 1)).toBe('v5'); // the second call reads the table
    expect(vgprName(254, 4)).toBe('v[254:257]');
    expect(vgprName(600, 1)).toBe('v600');
    expect(vgprName(3, 40)).toBe('v[3:42]');
  });

  it('spells scalar registers per generation, aligning misaligned ranges down as LLVM does', () => {
    expect(scalarRegName(Gen.GFX10_3, 3, 2)).toBe('s[2:3]');
    expect(scalarRegName(Gen.GFX10_3, 106, 2)).toBe('vcc');
    expect(scalarRegName(Gen.GFX10_3, 107, 1)).toBe('vcc_hi');
    expect(scalarRegName(Gen.GFX9, 102, 2)).toBe('flat_scratch');
    expect(scalarRegName(Gen.GFX9, 109, 4)).toBe('ttmp[0:3]');
    expect(scalarRegName(Gen.GFX10_3, 125, 1)).toBe('null');
    expect(scalarRegName(Gen.GFX11, 124, 1)).toBe('null');
    expect(scalarRegName(Gen.GFX11, 125, 1)).toBe('m0');
    expect(scalarRegName(Gen.GFX7, 125, 1)).toBeUndefined();
    expect(scalarRegName(Gen.GFX10_3, 104, 4)).toBeUndefined();
    // Asked twice, the table gives the same answer (including "no such register").
    expect(scalarRegName(Gen.GFX10_3, 104, 4)).toBeUndefined();
    expect(scalarRegName(Gen.GFX10_3, 300, 1)).toBeUndefined();
  });
});

describe('OpcodePlans', () => {
  const plans = new OpcodePlans('SOP2', (def) => ({ def, name: def.name }));

  it("builds an opcode's plan once and finds it again by opcode", () => {
    const p = plans.plan(Gen.GFX10_3, 0);
    expect(p?.def).toBe(lookupOpcode(Gen.GFX10_3, 'SOP2', 0));
    expect(p?.name).toBe('s_add_u32');
    expect(plans.plan(Gen.GFX10_3, 0)).toBe(p);
    expect(plans.plan(Gen.GFX10_3, 127)).toBeUndefined();
  });

  it('builds a fresh plan for an instruction whose definition is not the cached one', () => {
    const def = lookupOpcode(Gen.GFX10_3, 'SOP2', 0)!;
    expect(plans.forInstruction(Gen.GFX10_3, def, 0)).toBe(plans.plan(Gen.GFX10_3, 0));
    const copy = { ...def, name: 'hand_made' };
    expect(plans.forInstruction(Gen.GFX10_3, copy, 0)).toEqual({ def: copy, name: 'hand_made' });
    expect(plans.forInstruction(Gen.GFX10_3, copy, undefined).def).toBe(copy);
  });
});
