/**
 * The one place the interpreter meets the vector ALU semantics (D009): `src/semantics/vector.ts`
 * (with `lane-context.ts`). A VALU instruction those modules do not cover is a named refusal
 * before the dispatch starts.
 *
 * The bridge needs `vectorSemanticsFor(def)` (undefined: no semantics for that
 * instruction) and `runVector(alg, target, inst, state)`, the analogue of `runScalar`, with
 * `state` a `VectorWaveState` below: the wave's registers, every lane, and EXEC. If the semantics
 * module changes its entry point, only `fromModule` changes.
 */
import type { Target } from '../isa/gen.ts';
import { runVector, vectorSemanticsFor, vectorUncoveredReason } from '../semantics/vector.ts';
import { laneEncodingRefusal } from '../semantics/lane-context.ts';
import type { Instruction } from '../isa/instruction.ts';
import type { InstructionDef } from '../isa/registry/types.ts';
import type { Algebra } from '../semantics/algebra.ts';
import { concrete } from '../semantics/concrete.ts';
import type { ScalarState } from '../semantics/context.ts';

/** What a VALU instruction sees of its wave: the scalar state, and the VGPRs of each lane. */
export interface VectorWaveState<V, B> extends ScalarState<V, B> {
  readonly lanes: 32 | 64;
  /** Is the lane on in EXEC? */
  active(lane: number): boolean;
  readVgpr(index: number, lane: number): V;
  writeVgpr(index: number, lane: number, value: V): void;
}

export interface VectorBridge {
  /** Undefined when the instruction can run here, else why not. */
  refusal(inst: Instruction): string | undefined;
  run(target: Target, inst: Instruction, state: VectorWaveState<number, boolean>): void;
}

interface VectorModule {
  vectorSemanticsFor?: (def: InstructionDef) => unknown;
  runVector?: <V, B>(alg: Algebra<V, B>, target: Target, inst: Instruction, state: VectorWaveState<V, B>) => void;
  /** Why an instruction has no semantics (vector.ts's VECTOR_UNCOVERED), when it says. */
  vectorUncoveredReason?: (def: InstructionDef) => string | undefined;
  /** lane-context.ts: why an encoding (DPP, SDWA lane selects...) cannot run per lane. */
  laneEncodingRefusal?: (inst: Instruction) => string | undefined;
}

export function fromModule(m: VectorModule): VectorBridge | undefined {
  const semanticsFor = m.vectorSemanticsFor;
  const run = m.runVector;
  const uncovered = m.vectorUncoveredReason;
  const encoding = m.laneEncodingRefusal;
  if (typeof semanticsFor !== 'function') return undefined;
  return {
    refusal(inst) {
      if (semanticsFor(inst.def) === undefined)
        return (typeof uncovered === 'function' ? uncovered(inst.def) : undefined) ?? 'no vector ALU semantics';
      if (typeof encoding === 'function') {
        const why = encoding(inst);
        if (why) return why;
      }
      if (typeof run !== 'function')
        return 'src/semantics/vector.ts has no runVector(alg, target, inst, state); connect it in src/interp/vector-bridge.ts';
      return undefined;
    },
    run(target, inst, state) {
      if (typeof run !== 'function') throw new Error('runVector is missing');
      run(concrete, target, inst, state);
    },
  };
}

/**
 * The vector semantics as a bridge (async for the callers written when the module was optional).
 * `lane-context.ts`'s `laneEncodingRefusal` joins it, so encodings the per-lane context
 * refuses (DPP, DPP8...) are refused before the dispatch, not halfway through it.
 */
export async function loadVectorBridge(): Promise<VectorBridge | undefined> {
  return fromModule({ vectorSemanticsFor, runVector, vectorUncoveredReason, laneEncodingRefusal } as VectorModule);
}
