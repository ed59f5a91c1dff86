/**
 * Errors of the instruction layer are values with names users can read. Nothing else
 * escapes the decoder or the assembler: the fuzz tests hold them to that.
 */

export type DecodeErrorCode =
  /** No encoding family claims this dword in this generation. */
  | 'unknown-encoding'
  /** The family is known but the opcode is not an instruction of this generation. */
  | 'unknown-opcode'
  /** A field holds a value the instruction does not allow (reserved operand, bad register). */
  | 'invalid-operand'
  /** The instruction needs more dwords (a second dword, a literal) than the input has. */
  | 'truncated';

export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  constructor(
    readonly code: DecodeErrorCode,
    /** Byte offset of the instruction's first dword in the input. */
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`decode error at byte ${offset}: ${code}: ${reason}`);
  }
}

export class AsmError extends Error {
  override readonly name = 'AsmError';
  constructor(
    /** LLVM-style message, e.g. `invalid operand for instruction`. */
    readonly reason: string,
    /** 1-based line number in the assembled source, 0 when assembling a lone line. */
    readonly line = 0,
  ) {
    super(line ? `line ${line}: ${reason}` : reason);
  }
}
