/**
 * Lookup over the generated instruction tables: by (generation, family, opcode) for the
 * decoder, and by (generation, name) for the assembler. Built once, lazily. The opcode
 * lookups are dense arrays (generation × family × opcode), because the decoder asks once
 * per instruction and string-keyed maps cost more than the whole field extraction.
 */
import { ALL_GENS, type Gen } from '../gen.ts';
import type { Family, InstructionDef } from './types.ts';
import { GENERATED_TABLES } from './generated/index.ts';

interface Index {
  /** byOp[gen][family] is an array indexed by opcode. */
  readonly byOp: Map<Family, (InstructionDef | undefined)[]>[];
  /** byOp3[gen] is an array indexed by VOP3 opcode. */
  readonly byOp3: (InstructionDef | undefined)[][];
  readonly byName: Map<string, InstructionDef[]>[];
}

let index: Index | undefined;

function build(): Index {
  const byOp = ALL_GENS.map(() => new Map<Family, (InstructionDef | undefined)[]>());
  const byOp3 = ALL_GENS.map(() => [] as (InstructionDef | undefined)[]);
  const byName = ALL_GENS.map(() => new Map<string, InstructionDef[]>());
  for (const table of GENERATED_TABLES) {
    for (const def of table) {
      for (const gen of ALL_GENS) {
        const op = def.op[gen];
        if (op >= 0) {
          let arr = byOp[gen].get(def.family);
          if (!arr) byOp[gen].set(def.family, (arr = []));
          arr[op] = def;
        }
        const op3 = def.op3?.[gen] ?? -1;
        if (op3 >= 0) byOp3[gen][op3] = def;
        if (op >= 0 || op3 >= 0) {
          const list = byName[gen].get(def.name);
          if (list) {
            if (!list.includes(def)) list.push(def);
          } else byName[gen].set(def.name, [def]);
        }
      }
    }
  }
  return { byOp, byOp3, byName };
}

function idx(): Index {
  return (index ??= build());
}

/** The instruction a family's opcode field names in a generation, if any. */
export function lookupOpcode(gen: Gen, family: Family, op: number): InstructionDef | undefined {
  return idx().byOp[gen].get(family)?.[op];
}

/** The VOP1/VOP2/VOPC/VOP3 instruction whose VOP3 (e64) opcode this is. */
export function lookupVop3Opcode(gen: Gen, op: number): InstructionDef | undefined {
  return idx().byOp3[gen][op];
}

/** Instructions of this name in this generation (usually one). */
export function lookupName(gen: Gen, name: string): readonly InstructionDef[] {
  return idx().byName[gen].get(name) ?? [];
}

/** Every instruction of the registry (for generators, reports and tests). */
export function allInstructions(): readonly InstructionDef[] {
  return GENERATED_TABLES.flat();
}
