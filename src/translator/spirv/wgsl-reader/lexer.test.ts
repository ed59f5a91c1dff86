/**
 * The lexer: WGSL's tokens with their places, literals with their suffixes, comments (nested
 * block comments too) dropped, and what the subset does not hold named with line and column.
 */
import { describe, expect, it } from 'vitest';
import { UnsupportedWgsl } from './errors.ts';
import { lex } from './lexer.ts';

const texts = (src: string): string[] => lex(src).map((t) => `${t.kind}:${t.text}`);

describe('lex', () => {
  it('reads names, numbers and the longest punctuation', () => {
    expect(texts('x >>= 0x1fu; let y=-1.5e3+2i>=.5;')).toEqual([
      'ident:x',
      'punct:>>=',
      'int:0x1fu',
      'punct:;',
      'ident:let',
      'ident:y',
      'punct:=',
      'punct:-',
      'float:1.5e3',
      'punct:+',
      'int:2i',
      'punct:>=',
      'float:.5',
      'punct:;',
      'eof:',
    ]);
  });

  it('drops line comments and nested block comments, keeping lines and columns', () => {
    const tokens = lex('a // one\n/* two /* three */\n still */ b');
    expect(tokens.map((t) => [t.text, t.pos.line, t.pos.column])).toEqual([
      ['a', 1, 1],
      ['b', 3, 11],
      ['', 3, 12],
    ]);
  });

  it('names what it cannot read, with its place', () => {
    expect(() => lex('a\n  $')).toThrow(UnsupportedWgsl);
    expect(() => lex('a\n  $')).toThrow(/^2:3: unsupported WGSL: the character '\$'/);
    expect(() => lex('0x1.8p1')).toThrow(/hexadecimal float literal/);
    expect(() => lex('/* open')).toThrow(/unterminated block comment/);
  });
});
