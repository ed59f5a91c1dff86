/**
 * WGSL text to tokens (WGSL §3 "Textual structure"): identifiers, keywords as identifiers,
 * numeric literals with their suffix, punctuation by longest match; comments (line and
 * nested block comments) and blankspace dropped. Template brackets (`array<u32, 4>`) are
 * told apart from `<` by the parser, which knows where a type may stand.
 */
import { UnsupportedWgsl, type SourcePos } from './errors.ts';

export type TokenKind = 'ident' | 'int' | 'float' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly pos: SourcePos;
}

/** Punctuation, longest first so `>>=` wins over `>>` and `>`. */
const PUNCTUATION = [
  '>>=',
  '<<=',
  '->',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '<<',
  '>>',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '<',
  '>',
  ',',
  ';',
  ':',
  '.',
  '@',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '!',
  '~',
];

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
/** Hex and decimal integers, with an `i`/`u` suffix or none (abstract). */
const HEX_INT = /0[xX][0-9a-fA-F]+[iu]?/y;
/** Decimal floats (`1.0`, `.5`, `1e3`, `2f`); hex floats are outside the subset. */
const DEC_FLOAT = /(?:[0-9]*\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][+-]?[0-9]+)?[fh]?|[0-9]+[eE][+-]?[0-9]+[fh]?|[0-9]+[fh]/y;
const DEC_INT = /(?:0|[1-9][0-9]*)[iu]?/y;

/** The punctuation by its first character, longest first (one lookup instead of a scan of all). */
const BY_FIRST = new Map<string, string[]>();
for (const p of PUNCTUATION) {
  const list = BY_FIRST.get(p[0]!) ?? [];
  list.push(p);
  BY_FIRST.set(p[0]!, list);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdentStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

export function lex(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const pos = (at: number): SourcePos => ({ line, column: at - lineStart + 1 });
  const advanceOver = (from: number, to: number): void => {
    for (let k = from; k < to; k++)
      if (source.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
  };
  const matchAt = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(source);
    return m === null ? undefined : m[0];
  };
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code === 32 || code === 9 || code === 13 || code === 10) {
      if (code === 10) {
        line++;
        lineStart = i + 1;
      }
      i++;
      continue;
    }
    const c = source[i]!;
    if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end;
      continue;
    }
    if (source.startsWith('/*', i)) {
      const start = pos(i);
      let depth = 0;
      let k = i;
      for (; k < source.length; k++) {
        if (source.startsWith('/*', k)) {
          depth++;
          k++;
        } else if (source.startsWith('*/', k)) {
          depth--;
          k++;
          if (depth === 0) break;
        }
      }
      if (depth !== 0) throw new UnsupportedWgsl('an unterminated block comment', start);
      advanceOver(i, k + 1);
      i = k + 1;
      continue;
    }
    const at = pos(i);
    if (isDigit(code) || (code === 46 && isDigit(source.charCodeAt(i + 1)))) {
      const hex = matchAt(HEX_INT);
      if (hex !== undefined) {
        if (/[.pP]/.test(source[i + hex.length] ?? '')) throw new UnsupportedWgsl('a hexadecimal float literal', at);
        tokens.push({ kind: 'int', text: hex, pos: at });
        i += hex.length;
        continue;
      }
      const float = matchAt(DEC_FLOAT);
      if (float !== undefined) {
        tokens.push({ kind: 'float', text: float, pos: at });
        i += float.length;
        continue;
      }
      const int = matchAt(DEC_INT);
      if (int !== undefined) {
        tokens.push({ kind: 'int', text: int, pos: at });
        i += int.length;
        continue;
      }
      throw new UnsupportedWgsl(`the number '${source.slice(i, i + 12)}'`, at);
    }
    const ident = isIdentStart(code) ? matchAt(IDENT) : undefined;
    if (ident !== undefined) {
      tokens.push({ kind: 'ident', text: ident, pos: at });
      i += ident.length;
      continue;
    }
    const p = BY_FIRST.get(c)?.find((q) => source.startsWith(q, i));
    if (p === undefined) throw new UnsupportedWgsl(`the character '${c}'`, at);
    tokens.push({ kind: 'punct', text: p, pos: at });
    i += p.length;
  }
  tokens.push({ kind: 'eof', text: '', pos: pos(i) });
  return tokens;
}
