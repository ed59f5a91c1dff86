import { describe, expect, it } from 'vitest';
import { spirvTokens } from './spirv-highlight.ts';

const significant = (line: string): [string, string][] =>
  spirvTokens(line)
    .filter((t) => t.kind !== 'plain')
    .map((t) => [t.kind, t.text]);

describe('spirvTokens', () => {
  it('splits an entry point into opcode, enumerant, ids and a string, and keeps the text', () => {
    const line = '               OpEntryPoint GLCompute %main "main" %lid %wg';
    expect(
      spirvTokens(line)
        .map((t) => t.text)
        .join(''),
    ).toBe(line);
    expect(significant(line)).toEqual([
      ['opcode', 'OpEntryPoint'],
      ['enumerant', 'GLCompute'],
      ['id', '%main'],
      ['string', '"main"'],
      ['id', '%lid'],
      ['id', '%wg'],
    ]);
  });

  it('knows result ids, numbered ids, signed and hex numbers, and a comment', () => {
    expect(significant('     %uint_0 = OpConstant %uint 0')).toEqual([
      ['id', '%uint_0'],
      ['opcode', 'OpConstant'],
      ['id', '%uint'],
      ['number', '0'],
    ]);
    expect(significant('%12 = OpConstant %int -7 ; folded 0xff')).toEqual([
      ['id', '%12'],
      ['opcode', 'OpConstant'],
      ['id', '%int'],
      ['number', '-7'],
      ['comment', '; folded 0xff'],
    ]);
    expect(significant('OpDecorate %x Binding 0x10')).toEqual([
      ['opcode', 'OpDecorate'],
      ['id', '%x'],
      ['enumerant', 'Binding'],
      ['number', '0x10'],
    ]);
  });

  it('keeps an escaped quote inside a string, and an opcode-like word that is not one is an enumerant', () => {
    expect(significant('OpName %x "a\\"b" Opaque')).toEqual([
      ['opcode', 'OpName'],
      ['id', '%x'],
      ['string', '"a\\"b"'],
      ['enumerant', 'Opaque'],
    ]);
  });

  it('gives an empty line no tokens', () => {
    expect(spirvTokens('')).toEqual([]);
  });
});
