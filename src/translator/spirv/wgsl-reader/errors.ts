/**
 * The reader's one error (D016): WGSL outside the subset the translator writes, or not well
 * formed, named with its construct and its line and column. Never a silent translation.
 */

/** A place in the WGSL text (1-based line and column). */
export interface SourcePos {
  readonly line: number;
  readonly column: number;
}

export class UnsupportedWgsl extends Error {
  override readonly name = 'UnsupportedWgsl';
  constructor(
    /** What was met: the construct, the builtin, the type. */
    readonly construct: string,
    readonly pos: SourcePos,
    detail?: string,
  ) {
    super(`${pos.line}:${pos.column}: unsupported WGSL: ${construct}${detail === undefined ? '' : ` (${detail})`}`);
  }
}
