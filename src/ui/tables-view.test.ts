/**
 * The Tables view's list of a GPU run's escapes (tables-view.ts gpuEscapeRows): each recorded
 * lane's slot, group, wave and lane (from its invocation in the group) and its eight words.
 */
import { describe, expect, it } from 'vitest';
import { gpuEscapeRows } from './tables-view.ts';

describe('gpuEscapeRows', () => {
  const words = [0x400000, 0xc3800000, 0x8fffcfff, 0x90000fac, 0, 0, 0, 0];
  const escapes = {
    count: 3,
    lanes: [
      { group: [0, 0, 0] as const, invocation: 28, address: 0x1000004c, slot: 0, words },
      { group: [2, 1, 0] as const, invocation: 70, address: 0x10000080, slot: 1, words },
    ],
    bySlot: [1, 2],
  };

  it('splits the invocation into wave and lane by the wave size', () => {
    expect(gpuEscapeRows(escapes, 32)).toEqual([
      [
        '0',
        '0, 0, 0',
        '0',
        '28',
        '0x1000004c',
        '0x00400000 0xc3800000 0x8fffcfff 0x90000fac 0x00000000 0x00000000 0x00000000 0x00000000',
      ],
      ['1', '2, 1, 0', '2', '6', '0x10000080', expect.stringMatching(/^0x00400000 /)],
    ]);
    expect(gpuEscapeRows(escapes, 64).map((r) => [r[2], r[3]])).toEqual([
      ['0', '28'],
      ['1', '6'],
    ]);
  });
});
