/**
 * The tracer's constant folding (D003, D983's "samplers built in place"): a scalar ALU
 * instruction whose register sources all hold known constants is run through its own
 * semantics on the concrete algebra, and what it writes is known afterwards. There is no
 * rule per instruction here: only the semantics are called.
 */
import type { Target } from '../isa/gen.ts';
import { sgprCount } from '../isa/operands.ts';
import type { Instruction } from '../isa/instruction.ts';
import { concrete } from './concrete.ts';
import { createScalarContext, SemanticsRefusal, SRC_SCC, type ScalarState } from './context.ts';
import { scalarSemanticsFor } from './scalar.ts';

export interface FoldResult {
  /** SGPR-space code (0-127: SGPRs, VCC, M0, EXEC, …) → the u32 the instruction leaves there. */
  readonly writes: Map<number, number>;
  /** SCC, when the instruction writes it. */
  readonly scc?: boolean;
}

/** Thrown inside a fold when a source is not known; never escapes `foldScalar`. */
class UnknownSource extends Error {
  override readonly name = 'UnknownSource';
}

/**
 * Runs `inst` on known values. `known(code)` gives an SGPR-space register's value (any
 * 32-bit number; it is read as unsigned) or undefined when the tracer does not know it;
 * SCC is asked for under code 253 (`src_scc`), as 0 or 1. Inline constants and literals
 * are always known. Returns undefined when a source the instruction reads is unknown, or
 * the instruction has no scalar semantics (or needs state a fold cannot have: the PC, an
 * aperture).
 */
export function foldScalar(
  target: Target,
  inst: Instruction,
  known: (code: number) => number | undefined,
): FoldResult | undefined {
  const semantics = scalarSemanticsFor(inst.def);
  if (!semantics) return undefined;
  const writes = new Map<number, number>();
  let scc: boolean | undefined;
  const read = (code: number): number => {
    const w = writes.get(code);
    if (w !== undefined) return w;
    const v = known(code);
    if (v === undefined) throw new UnknownSource(`s${code}`);
    return v >>> 0;
  };
  const indexed = (base: number, offset: number): number => {
    const code = base + offset;
    // Only plain SGPRs are indexed here; an index out of them is not folded.
    if (base >= sgprCount(target.gen) || code < 0 || code >= sgprCount(target.gen))
      throw new UnknownSource(`s${base}+${offset}`);
    return code;
  };
  const state: ScalarState<number, boolean> = {
    readSgpr: read,
    writeSgpr: (code, value) => void writes.set(code, value >>> 0),
    readScc() {
      if (scc !== undefined) return scc;
      const v = known(SRC_SCC);
      if (v === undefined) throw new UnknownSource('scc');
      return v !== 0;
    },
    writeScc(value) {
      scc = value;
    },
    readSgprAt: (base, offset) => read(indexed(base, offset)),
    writeSgprAt: (base, offset, value) => void writes.set(indexed(base, offset), value >>> 0),
  };
  try {
    semantics(createScalarContext(concrete, target, inst, state));
  } catch (e) {
    if (e instanceof UnknownSource || e instanceof SemanticsRefusal) return undefined;
    throw e;
  }
  return scc === undefined ? { writes } : { writes, scc };
}
