/**
 * The Program view's per-register provenance chains (origins-view.ts registerChain): each
 * register of a descriptor range gets its own chain, the tracer's steps for that register's
 * word alone; a register the range does not hold is refused by name.
 */
import { describe, expect, it } from 'vitest';
import { originSummary, rangeText, registerChain } from './origins-view.ts';
import type { DescriptorOrigin } from './worker-api.ts';

/** A V# whose first two words are loaded at a fixed place and whose last two are constants. */
const vsharp: DescriptorOrigin = {
  kind: 'V#',
  registers: 's[4:7]',
  sources: ['fixed load', 'constants'],
  classification: 'bound: known at dispatch',
  words: [
    {
      register: 's4',
      sources: ['fixed load'],
      provenance: 'load at user-data[0:1] + 0x0, dword 0',
      chain: [
        'entry  s0 at entry: user-data word 0',
        '0x0  s_load_dwordx2 s[4:5], s[0:1], null: s4 = dword 0 of the load',
      ],
    },
    {
      register: 's5',
      sources: ['fixed load'],
      provenance: 'load at user-data[0:1] + 0x0, dword 1',
      chain: [
        'entry  s0 at entry: user-data word 0',
        '0x0  s_load_dwordx2 s[4:5], s[0:1], null: s5 = dword 1 of the load',
      ],
    },
    { register: 's6', sources: ['constants'], provenance: '0x40', chain: ['0x8  s_mov_b32 s6, 64: s6 = 0x40'] },
    { register: 's7', sources: ['constants'], provenance: '0x27000', chain: [] },
  ],
};

describe('registerChain', () => {
  it("gives each register its own word's provenance and steps, not the range's", () => {
    expect(registerChain(vsharp, 1)).toEqual([
      's5, dword 1 of V# s[4:7] (fixed load)',
      '= load at user-data[0:1] + 0x0, dword 1',
      '    entry  s0 at entry: user-data word 0',
      '    0x0  s_load_dwordx2 s[4:5], s[0:1], null: s5 = dword 1 of the load',
    ]);
    const s6 = registerChain(vsharp, 2);
    expect(s6).toEqual(['s6, dword 2 of V# s[4:7] (constants)', '= 0x40', '    0x8  s_mov_b32 s6, 64: s6 = 0x40']);
    // Another register's steps are not in it.
    expect(s6.join('\n')).not.toContain('s_load_dwordx2');
  });

  it('keeps a register with no steps to its provenance line', () => {
    expect(registerChain(vsharp, 3)).toEqual(['s7, dword 3 of V# s[4:7] (constants)', '= 0x27000']);
  });

  it('leaves out the sources of a register the tracer names none for', () => {
    const untraced: DescriptorOrigin = {
      ...vsharp,
      words: [{ register: 's4', sources: [], provenance: 'unknown', chain: [] }],
    };
    expect(registerChain(untraced, 0)[0]).toBe('s4, dword 0 of V# s[4:7]');
  });

  it('refuses a dword the range does not hold, by name', () => {
    expect(() => registerChain(vsharp, 4)).toThrow(
      new RangeError('V# s[4:7] has 4 traced registers: there is no dword 4'),
    );
    expect(() => registerChain(vsharp, -1)).toThrow(RangeError);
  });
});

describe('the range', () => {
  it('says what the range is in short, and opens to its classification', () => {
    expect(originSummary(vsharp)).toBe('V# s[4:7] ← fixed load, constants');
    expect(rangeText(vsharp)).toBe('V# s[4:7]: bound: known at dispatch');
  });
});
