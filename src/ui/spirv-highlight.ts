/**
 * A small highlighter for SPIR-V assembly as `spirv-dis` prints it (the Modules view's SPIR-V
 * panel), one line at a time: `; comments`, `OpCodes`, `%ids` (numbered or friendly names),
 * string and number literals, and the other words (enumerants: `GLCompute`, `Binding`,
 * `Function`). The text of the tokens, joined, is the line.
 */
export type SpirvTokenKind = 'comment' | 'opcode' | 'id' | 'string' | 'number' | 'enumerant' | 'plain';

export interface SpirvToken {
  readonly kind: SpirvTokenKind;
  readonly text: string;
}

/**
 * Longest first: a comment, a string (with `\"` escapes), an opcode, an id, a number (hex,
 * float or integer, signed), another word, one other character.
 */
const TOKEN =
  /(;.*$)|("(?:[^"\\]|\\.)*"?)|(Op[A-Z][A-Za-z0-9]*\b)|(%[\w.$-]+)|(-?0[xX][0-9a-fA-F]+\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|([A-Za-z_]\w*)|(\s+|.)/gy;

export function spirvTokens(line: string): SpirvToken[] {
  const out: SpirvToken[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN.lastIndex < line.length && (m = TOKEN.exec(line))) {
    const [text, comment, string, opcode, id, number, word] = m;
    const kind: SpirvTokenKind =
      comment !== undefined
        ? 'comment'
        : string !== undefined
          ? 'string'
          : opcode !== undefined
            ? 'opcode'
            : id !== undefined
              ? 'id'
              : number !== undefined
                ? 'number'
                : word !== undefined
                  ? 'enumerant'
                  : 'plain';
    const last = out.at(-1);
    // Runs of spaces and punctuation (`=`, `|`) become one token: fewer nodes for the same text.
    if (kind === 'plain' && last?.kind === 'plain') out[out.length - 1] = { kind, text: last.text + text };
    else out.push({ kind, text });
  }
  return out;
}
