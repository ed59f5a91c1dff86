/**
 * A small WGSL highlighter: one line of text into tokens (comments, attributes, keywords,
 * types, built-in functions, numbers, identifiers, the rest). It only colours what a reader
 * already sees in the text; it does not parse WGSL, and an unknown word is an identifier.
 */

export type WgslTokenKind = 'comment' | 'attribute' | 'keyword' | 'type' | 'builtin' | 'number' | 'ident' | 'plain';

export interface WgslToken {
  readonly kind: WgslTokenKind;
  readonly text: string;
}

const KEYWORDS = new Set([
  'alias',
  'break',
  'case',
  'const',
  'const_assert',
  'continue',
  'continuing',
  'default',
  'diagnostic',
  'discard',
  'else',
  'enable',
  'false',
  'fn',
  'for',
  'if',
  'let',
  'loop',
  'override',
  'requires',
  'return',
  'struct',
  'switch',
  'true',
  'var',
  'while',
  'storage',
  'uniform',
  'workgroup',
  'private',
  'function',
  'read',
  'read_write',
  'write',
]);

const TYPES = new Set([
  'bool',
  'f16',
  'f32',
  'i32',
  'u32',
  'vec2',
  'vec3',
  'vec4',
  'mat2x2',
  'mat3x3',
  'mat4x4',
  'array',
  'atomic',
  'ptr',
  'sampler',
  'texture_2d',
  'texture_2d_array',
  'texture_cube_array',
  'texture_3d',
]);

const BUILTINS = new Set([
  'select',
  'bitcast',
  'arrayLength',
  'atomicLoad',
  'atomicStore',
  'atomicAdd',
  'atomicSub',
  'atomicAnd',
  'atomicOr',
  'atomicXor',
  'atomicMin',
  'atomicMax',
  'atomicExchange',
  'atomicCompareExchangeWeak',
  'workgroupBarrier',
  'storageBarrier',
  'countOneBits',
  'countLeadingZeros',
  'countTrailingZeros',
  'firstLeadingBit',
  'firstTrailingBit',
  'reverseBits',
  'extractBits',
  'insertBits',
  'abs',
  'min',
  'max',
  'clamp',
  'floor',
  'ceil',
  'round',
  'trunc',
  'fract',
  'sqrt',
  'inverseSqrt',
  'exp2',
  'log2',
  'sin',
  'cos',
  'fma',
  'ldexp',
  'frexp',
  'pack2x16float',
  'unpack2x16float',
  'textureSampleLevel',
  'textureLoad',
  'textureDimensions',
]);

/** Longest first: a comment, an attribute, a number (hex or decimal, with a suffix), a word, one other character. */
const TOKEN =
  /(\/\/.*$)|(@[A-Za-z_]\w*)|(0[xX][0-9a-fA-F]+[iuf]?|\d+\.\d*(?:[eE][+-]?\d+)?[fh]?|\d+(?:[eE][+-]?\d+)?[iufh]?)|([A-Za-z_]\w*)|(\s+|.)/gy;

export function wgslTokens(line: string): WgslToken[] {
  const out: WgslToken[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN.lastIndex < line.length && (m = TOKEN.exec(line))) {
    const [text, comment, attribute, number, word] = m;
    let kind: WgslTokenKind;
    if (comment !== undefined) kind = 'comment';
    else if (attribute !== undefined) kind = 'attribute';
    else if (number !== undefined) kind = 'number';
    else if (word !== undefined)
      kind = KEYWORDS.has(word) ? 'keyword' : TYPES.has(word) ? 'type' : BUILTINS.has(word) ? 'builtin' : 'ident';
    else kind = 'plain';
    const last = out.at(-1);
    // Runs of punctuation and spaces become one token: fewer nodes for the same text.
    if (kind === 'plain' && last?.kind === 'plain') out[out.length - 1] = { kind, text: last.text + text };
    else out.push({ kind, text });
  }
  return out;
}
