/**
 * The one place the interpreter meets the vector ALU semantics (D009): `src/semantics/vector.ts`
 * (with `lane-context.ts`). Where that module is absent this bridge loads nothing and every
 * VALU instruction is a named refusal before the dispatch starts.
 *
 * The module is imported by URL at run time, so this tree type-checks and runs without it.
 * It is used when it exports `vectorSemanticsFor(def)` (undefined: no semantics for that
 * instruction) and `runVector(alg, target, inst, state)`, the analogue of `runScalar`, with
 * `state` a `VectorWaveState` below: the wave's registers, every lane, and EXEC. If the module
 * lands with another entry point, only `fromModule` changes.
 */
import type { Target } from '../isa/gen.ts';
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

async function optionalImport(rel: string): Promise<VectorModule | undefined> {
  const url = new URL(rel, import.meta.url).href;
  try {
    return (await import(/* @vite-ignore */ url)) as VectorModule;
  } catch (e) {
    const code = (e as { code?: string }).code;
    const text = String((e as Error).message ?? e);
    if (code === 'ERR_MODULE_NOT_FOUND' || /Cannot find module|Failed to load url|does not exist/i.test(text))
      return undefined;
    throw e;
  }
}

/**
 * Loads the vector semantics if the module exists; undefined (VALU refused) when it does not.
 * `lane-context.ts`'s `laneEncodingRefusal` joins it, so encodings the per-lane context
 * refuses (DPP, DPP8...) are refused before the dispatch, not halfway through it.
 */
export async function loadVectorBridge(): Promise<VectorBridge | undefined> {
  const m = await optionalImport('../semantics/vector.ts');
  if (!m) return undefined;
  const lane = await optionalImport('../semantics/lane-context.ts');
  return fromModule({ ...m, laneEncodingRefusal: m.laneEncodingRefusal ?? lane?.laneEncodingRefusal });
}
