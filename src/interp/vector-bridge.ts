/**
 * The one place the interpreter meets the vector ALU semantics (D009): `src/semantics/vector.ts`
 * (with `lane-context.ts`, and the wave-level `wave-ops.ts` / `wave-encodings.ts` behind it). A
 * VALU instruction those modules do not cover is a named refusal before the dispatch starts.
 *
 * The bridge needs `vectorSemanticsFor(def)` (undefined: no per-lane function for that
 * instruction), `runVector(alg, target, inst, state)`, the analogue of `runScalar`, with
 * `state` a `VectorWaveState`: the wave's registers, every lane, and EXEC; and, when the module
 * has it, `vectorRefusal(target, inst)`, the checks runVector makes (wave-level instructions,
 * DPP/SDWA encodings included). If the semantics module changes its entry point, only
 * `fromModule` changes.
 */
import type { Target } from '../isa/gen.ts';
import { runVector, vectorRefusal, vectorSemanticsFor, vectorUncoveredReason } from '../semantics/vector.ts';
import type { Instruction } from '../isa/instruction.ts';
import type { InstructionDef } from '../isa/registry/types.ts';
import type { Algebra } from '../semantics/algebra.ts';
import { concrete } from '../semantics/concrete.ts';
import type { VectorState } from '../semantics/lane-context.ts';

/** What a VALU instruction sees of its wave: the scalar state, the VGPRs of each lane, EXEC (lane-context.ts). */
export type VectorWaveState<V, B> = VectorState<V, B>;

export interface VectorBridge {
  /** Undefined when the instruction can run here, else why not. */
  refusal(inst: Instruction, target: Target): string | undefined;
  run(target: Target, inst: Instruction, state: VectorWaveState<number, boolean>): void;
  /**
   * True when `run` is src/semantics/vector.ts's own runVector: the interpreter's compiled path
   * (src/interp/jit), built from those same semantic functions, may then stand in for it.
   */
  readonly sharedSemantics?: boolean;
}

interface VectorModule {
  vectorSemanticsFor?: (def: InstructionDef) => unknown;
  runVector?: <V, B>(alg: Algebra<V, B>, target: Target, inst: Instruction, state: VectorWaveState<V, B>) => void;
  /** vector.ts: every check runVector makes, before the dispatch (wave-level instructions and extension encodings included). */
  vectorRefusal?: (target: Target, inst: Instruction) => string | undefined;
  /** Why an instruction has no semantics (vector.ts's VECTOR_UNCOVERED), when it says. */
  vectorUncoveredReason?: (def: InstructionDef) => string | undefined;
  /** lane-context.ts, for a module without vectorRefusal: why an encoding cannot run per lane. */
  laneEncodingRefusal?: (inst: Instruction) => string | undefined;
}

export function fromModule(m: VectorModule): VectorBridge | undefined {
  const semanticsFor = m.vectorSemanticsFor;
  const run = m.runVector;
  const full = m.vectorRefusal;
  const uncovered = m.vectorUncoveredReason;
  const encoding = m.laneEncodingRefusal;
  if (typeof semanticsFor !== 'function') return undefined;
  return {
    sharedSemantics: (run as unknown) === runVector && (semanticsFor as unknown) === vectorSemanticsFor,
    refusal(inst, target) {
      if (typeof run !== 'function')
        return 'src/semantics/vector.ts has no runVector(alg, target, inst, state); connect it in src/interp/vector-bridge.ts';
      if (typeof full === 'function') return full(target, inst);
      if (semanticsFor(inst.def) === undefined)
        return (typeof uncovered === 'function' ? uncovered(inst.def) : undefined) ?? 'no vector ALU semantics';
      return typeof encoding === 'function' ? encoding(inst) : undefined;
    },
    run(target, inst, state) {
      if (typeof run !== 'function') throw new Error('runVector is missing');
      run(concrete, target, inst, state);
    },
  };
}

/**
 * The vector semantics as a bridge (async for the callers written when the module was optional).
 * `vectorRefusal` makes the bridge refuse, before the dispatch, exactly what runVector would.
 */
export async function loadVectorBridge(): Promise<VectorBridge | undefined> {
  return fromModule({ vectorSemanticsFor, runVector, vectorRefusal, vectorUncoveredReason } as VectorModule);
}
