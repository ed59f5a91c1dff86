/**
 * Every edge case, for the interpreter's tests here and the GPU translator's replay later
 * (`edgeCaseSpec(case, target)` in harness.ts builds a case's capture spec; README.md).
 */
import type { Spec } from '../corpus-kernels/common.ts';
import { edgeCaseSpec, type EdgeCase } from './harness.ts';
import { EDGE_TARGETS, type EdgeTarget } from './targets.ts';
import { BITFIELD_CASES } from './cases/bitfield.ts';
import { BUFFER_OOB_CASES } from './cases/buffer-oob.ts';
import { CARRY_CASES } from './cases/carries.ts';
import { COMPARE_CASES } from './cases/compares.ts';
import { FLOAT_MODE_CASES } from './cases/float-mode.ts';
import { FLOAT_NAN_CASES } from './cases/float-nan.ts';
import { FLOAT_SPECIAL_CASES } from './cases/float-special.ts';
import { MULTIPLY_CASES } from './cases/multiply.ts';
import { SATURATE_CASES } from './cases/saturate.ts';
import { SHIFT_CASES } from './cases/shifts.ts';

export const EDGE_CASES: readonly EdgeCase[] = [
  ...SHIFT_CASES,
  ...CARRY_CASES,
  ...COMPARE_CASES,
  ...BITFIELD_CASES,
  ...MULTIPLY_CASES,
  ...SATURATE_CASES,
  ...FLOAT_NAN_CASES,
  ...FLOAT_SPECIAL_CASES,
  ...FLOAT_MODE_CASES,
  ...BUFFER_OOB_CASES,
];

export { edgeCaseSpec, EDGE_TARGETS, type EdgeCase, type EdgeTarget };

/** Every (case, target) pair the corpus holds, with its capture spec: what a replay engine runs. */
export function* edgeCaseSpecs(): Generator<{ readonly c: EdgeCase; readonly t: EdgeTarget; readonly spec: Spec }> {
  for (const c of EDGE_CASES)
    for (const t of EDGE_TARGETS) {
      const spec = edgeCaseSpec(c, t);
      if (spec) yield { c, t, spec };
    }
}
