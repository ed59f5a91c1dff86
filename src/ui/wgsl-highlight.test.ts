import { describe, expect, it } from 'vitest';
import { wgslTokens } from './wgsl-highlight.ts';

describe('wgslTokens', () => {
  it('splits a declaration into keyword, identifier, type and number, and keeps the text', () => {
    const line = '  var s126: u32 = 0xffffffffu; // all lanes';
    const t = wgslTokens(line);
    expect(t.map((x) => x.text).join('')).toBe(line);
    expect(t.filter((x) => x.kind !== 'plain')).toEqual([
      { kind: 'keyword', text: 'var' },
      { kind: 'ident', text: 's126' },
      { kind: 'type', text: 'u32' },
      { kind: 'number', text: '0xffffffffu' },
      { kind: 'comment', text: '// all lanes' },
    ]);
  });

  it('knows attributes, built-ins and floats, and a word that only starts like a keyword is an identifier', () => {
    const t = wgslTokens('@group(0) let format = select(1.5e3f, 2.0, letx);');
    const kinds = Object.fromEntries(t.filter((x) => x.kind !== 'plain').map((x) => [x.text, x.kind]));
    expect(kinds).toEqual({
      '@group': 'attribute',
      '0': 'number',
      let: 'keyword',
      format: 'ident',
      select: 'builtin',
      '1.5e3f': 'number',
      '2.0': 'number',
      letx: 'ident',
    });
  });

  it('gives an empty line no tokens', () => {
    expect(wgslTokens('')).toEqual([]);
  });
});
