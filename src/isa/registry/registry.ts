/**
 * Lookup over the generated instruction tables: by (generation, family, opcode) for the
 * decoder, and by (generation, name) for the assembler. Built once, lazily.
 */
import { ALL_GENS, type Gen } from '../gen.ts';
import type { Family, InstructionDef } from './types.ts';
import { GENERATED_TABLES } from './generated/index.ts';

interface Index {
  readonly byOp: Map<string, InstructionDef>;
  readonly byOp3: Map<string, InstructionDef>;
  readonly byName: Map<string, InstructionDef[]>;
}

let index: Index | undefined;

function key(gen: Gen, family: Family, op: number): string {
  return `${gen}:${family}:${op}`;
}

function build(): Index {
  const byOp = new Map<string, InstructionDef>();
  const byOp3 = new Map<string, InstructionDef>();
  const byName = new Map<string, InstructionDef[]>();
  for (const table of GENERATED_TABLES) {
    for (const def of table) {
      for (const gen of ALL_GENS) {
        const op = def.op[gen];
        if (op >= 0) byOp.set(key(gen, def.family, op), def);
        const op3 = def.op3?.[gen] ?? -1;
        if (op3 >= 0) byOp3.set(`${gen}:${op3}`, def);
        if (op >= 0 || op3 >= 0) {
          const nk = `${gen}:${def.name}`;
          const list = byName.get(nk);
          if (list) {
            if (!list.includes(def)) list.push(def);
          } else byName.set(nk, [def]);
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
  return idx().byOp.get(key(gen, family, op));
}

/** The VOP1/VOP2/VOPC/VOP3 instruction whose VOP3 (e64) opcode this is. */
export function lookupVop3Opcode(gen: Gen, op: number): InstructionDef | undefined {
  return idx().byOp3.get(`${gen}:${op}`);
}

/** Instructions of this name in this generation (usually one). */
export function lookupName(gen: Gen, name: string): readonly InstructionDef[] {
  return idx().byName.get(`${gen}:${name}`) ?? [];
}

/** Every instruction of the registry (for generators, reports and tests). */
export function allInstructions(): readonly InstructionDef[] {
  return GENERATED_TABLES.flat();
}
