/**
 * Operand spelling the VOP extension encodings add to the VOP codec's (vop-operands.ts):
 * sources without a literal (named sources first, see sourceText), and lane-mask
 * registers the way the SDWA/VOP3-DPP decoders read an odd SGPR pair.
 */
import type { Gen, Target } from '../gen.ts';
import type { OperandDef } from '../registry/types.ts';
import { namedSourceText, scalarRegName, sgprCount, ttmpBase, vgprName, SRC_LITERAL } from '../operands.ts';
import { printSource } from './vop-operands.ts';

/**
 * Spells a 9-bit source operand code (256+ = VGPR) with the VOP codec's printer, or
 * returns undefined when the code is not a source an extension encoding can hold (these
 * encodings have no literal).
 */
export function sourceText(target: Target, code: number, op: OperandDef): string | undefined {
  if (code >= 256) return vgprName(code - 256, op.dwords); // printSource's first case, without the named-source probe
  if (code === SRC_LITERAL) return undefined;
  // Named sources (src_shared_base, …) sit inside the inline-constant range; spell them first.
  return namedSourceText(target.gen, code) ?? printSource(target, code, op, undefined);
}

/** A scalar mask register (VOPC sdst, carry out/in) of the wave size. */
export function maskText(gen: Gen, code: number, wave64: boolean): string | undefined {
  // A 64-bit mask names an even register pair: LLVM drops the low bit of SGPR and TTMP numbers.
  const tt = ttmpBase(gen);
  const pairable = code < sgprCount(gen) || (code >= tt.first && code < tt.first + tt.count);
  return scalarRegName(gen, wave64 && pairable ? code & ~1 : code, wave64 ? 2 : 1);
}
