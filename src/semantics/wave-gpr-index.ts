/**
 * gfx8/9's GPR index mode (D003): the scalar instructions that turn it on and off and set its
 * index and operand mask in M0. While it is on, VALU instructions offset the VGPR operands
 * M0[15:12] selects (bit 12 src0, 13 src1, 14 src2, 15 the destination) by M0[7:0]; the
 * per-lane context does that (lane-context.ts), these functions only set the state.
 *
 * Source: Vega ISA, S_SET_GPR_IDX_ON ("MODE.gpr_idx_en = 1; M0[7:0] = S0.u[7:0];
 * M0[15:12] = SIMM4; the remaining bits of M0 are unmodified"), S_SET_GPR_IDX_OFF
 * ("MODE.gpr_idx_en = 0"), S_SET_GPR_IDX_IDX ("M0[7:0] = S0.u[7:0]") and S_SET_GPR_IDX_MODE
 * ("M0[15:12] = SIMM16[3:0]"). The same names exist on GCN3 (gfx8).
 */
import { Gen, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { m0Code } from '../isa/operands.ts';
import type { InstructionDef } from '../isa/registry/types.ts';
import type { Algebra } from './algebra.ts';
import { createScalarContext, SemanticsRefusal, type ScalarState } from './context.ts';

/** The scalar state plus MODE.gpr_idx_en. */
export interface GprIndexState<V, B> extends ScalarState<V, B> {
  setGprIndexMode(on: boolean): void;
}

const NAMES = new Set(['s_set_gpr_idx_on', 's_set_gpr_idx_off', 's_set_gpr_idx_idx', 's_set_gpr_idx_mode']);

/** Whether the instruction is one of the GPR index mode instructions. */
export function isGprIndexInstruction(def: InstructionDef): boolean {
  return NAMES.has(def.name);
}

/** Runs one of them. Throws SemanticsRefusal on a generation without the mode. */
export function runGprIndex<V, B>(
  alg: Algebra<V, B>,
  target: Target,
  inst: Instruction,
  state: GprIndexState<V, B>,
): void {
  const name = inst.def.name;
  if (!NAMES.has(name)) throw new SemanticsRefusal(name, 'not a GPR index mode instruction');
  if (target.gen < Gen.GFX8 || target.gen > Gen.GFX9)
    throw new SemanticsRefusal(name, 'GPR index mode exists on gfx8/9 only');
  const m0 = m0Code(target.gen);
  const old = state.readSgpr(m0);
  const setBits = (mask: number, value: V): void =>
    state.writeSgpr(m0, alg.or(alg.and(old, alg.word(~mask >>> 0)), alg.and(value, alg.word(mask))));
  switch (name) {
    case 's_set_gpr_idx_on': {
      const c = createScalarContext(alg, target, inst, state);
      const index = alg.and(c.src(0), alg.word(0xff));
      const mode = alg.shl(alg.word((inst.fields.ssrc1 ?? 0) & 0xf), alg.word(12));
      setBits(0xf0ff, alg.or(index, mode));
      state.setGprIndexMode(true);
      return;
    }
    case 's_set_gpr_idx_off':
      state.setGprIndexMode(false);
      return;
    case 's_set_gpr_idx_idx':
      setBits(0xff, createScalarContext(alg, target, inst, state).src(0));
      return;
    default:
      setBits(0xf000, alg.word(((inst.fields.simm16 ?? 0) & 0xf) << 12));
  }
}
