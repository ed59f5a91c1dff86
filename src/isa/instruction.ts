/**
 * A decoded instruction: what the decoder produces and the printer, tracer and
 * translator consume. Raw fields are kept beside the semantic operands so nothing the
 * encoding said is lost.
 */
import type { Target } from './gen.ts';
import type { Family, InstructionDef } from './registry/types.ts';

/** The concrete encoding an instruction was found in (a family plus its extension). */
export type Encoding =
  | Family
  | 'VOP1_E64'
  | 'VOP2_E64'
  | 'VOPC_E64'
  | 'VOP1_SDWA'
  | 'VOP2_SDWA'
  | 'VOPC_SDWA'
  | 'VOP1_DPP'
  | 'VOP2_DPP'
  | 'VOPC_DPP'
  | 'VOP1_DPP8'
  | 'VOP2_DPP8'
  | 'VOPC_DPP8'
  | 'VOP3_DPP'
  | 'VOP3_DPP8'
  | 'VOP3P_DPP'
  | 'VOP3P_DPP8';

/** A semantic operand, as the tracer and translator see it. */
export type Operand =
  | { readonly kind: 'sgpr'; readonly role: 'dst' | 'src'; readonly index: number; readonly dwords: number }
  | { readonly kind: 'vgpr'; readonly role: 'dst' | 'src'; readonly index: number; readonly dwords: number }
  | { readonly kind: 'special'; readonly role: 'dst' | 'src'; readonly code: number; readonly dwords: number }
  | { readonly kind: 'const'; readonly role: 'src'; readonly code: number }
  | { readonly kind: 'literal'; readonly role: 'src'; readonly value: number }
  | { readonly kind: 'imm'; readonly role: 'src'; readonly field: string; readonly value: number }
  | { readonly kind: 'label'; readonly role: 'src'; readonly target: number };

export interface Instruction {
  readonly def: InstructionDef;
  readonly encoding: Encoding;
  /** Byte offset in the decoded input. */
  readonly offset: number;
  /** Size in bytes, literal included. */
  readonly size: number;
  /** Raw encoding fields by name, as the hardware documentation names them (snake case). */
  readonly fields: Readonly<Record<string, number>>;
  /** The 32-bit literal that followed the instruction, if one did. */
  readonly literal?: number;
}

/** A family codec: decode, print and assemble one encoding family for every generation. */
export interface FamilyCodec {
  /** The encodings it decodes (the dispatcher hands it only dwords of these). */
  readonly families: readonly Family[];
  /**
   * Decodes the instruction whose first dword is `words[at]`. `family` is what the
   * dispatcher identified from dword 0. Throws only `DecodeError`.
   */
  decode(target: Target, words: Uint32Array, at: number, family: Family, byteOffset: number): Instruction;
  /** Spells the instruction exactly as llvm-mc-19 prints it (no leading tab). */
  print(target: Target, inst: Instruction): string;
  /**
   * Assembles one statement whose mnemonic this codec owns, or returns undefined when
   * the mnemonic is not one of its instructions. Throws only `AsmError`.
   * `resolveLabel` gives a label's byte address (undefined while still unknown in the first pass).
   */
  assemble(
    target: Target,
    stmt: AsmStatement,
    resolveLabel: (name: string) => number | undefined,
  ): number[] | undefined;
}

/** One assembly statement, split by the front end. */
export interface AsmStatement {
  /** Mnemonic as written, lower-cased (`v_add_f32_e32`). */
  readonly mnemonic: string;
  /** Everything after the mnemonic, trimmed (operands and modifiers), as written. */
  readonly operandText: string;
  /** Byte address the statement will be placed at. */
  readonly address: number;
  readonly line: number;
}
