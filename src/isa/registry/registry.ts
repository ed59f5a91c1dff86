/**
 * Lookup over the generated instruction tables: by (generation, family, opcode) for the
 * decoder, and by (generation, name) for the assembler. Built once, lazily. The opcode
 * lookups are dense arrays (generation × family × opcode), because the decoder asks once
 * per instruction and string-keyed maps cost more than the whole field extraction.
 *
 * `OpcodePlans` is the codecs' per-opcode cache: what a codec derives from an
 * instruction's definition (which checks to run, how to spell it) is worked out once per
 * (generation, opcode) and then found by indexing, not by hashing the definition.
 */
import { ALL_GENS, type Gen } from '../gen.ts';
import type { Family, InstructionDef } from './types.ts';
import { GENERATED_TABLES } from './generated/index.ts';

/** Every family, numbered for the dense opcode tables. */
const FAMILIES: readonly Family[] = [
  'SOP1',
  'SOP2',
  'SOPK',
  'SOPC',
  'SOPP',
  'SMEM',
  'VOP1',
  'VOP2',
  'VOPC',
  'VOP3',
  'VOP3P',
  'VOPD',
  'VINTRP',
  'VINTERP',
  'LDSDIR',
  'DS',
  'MUBUF',
  'MTBUF',
  'MIMG',
  'FLAT',
  'GLOBAL',
  'SCRATCH',
  'EXP',
];
const FAMILY_INDEX = new Map<Family, number>(FAMILIES.map((f, i) => [f, i]));

interface Index {
  /** byOp[gen * FAMILIES.length + family index] is an array indexed by opcode. */
  readonly byOp: (InstructionDef | undefined)[][];
  /** byOp3[gen] is an array indexed by VOP3 opcode. */
  readonly byOp3: (InstructionDef | undefined)[][];
  readonly byName: Map<string, InstructionDef[]>[];
}

let index: Index | undefined;

function build(): Index {
  const byOp = ALL_GENS.flatMap(() => FAMILIES.map(() => [] as (InstructionDef | undefined)[]));
  const byOp3 = ALL_GENS.map(() => [] as (InstructionDef | undefined)[]);
  const byName = ALL_GENS.map(() => new Map<string, InstructionDef[]>());
  for (const table of GENERATED_TABLES) {
    for (const def of table) {
      const fam = FAMILY_INDEX.get(def.family);
      if (fam === undefined) throw new Error(`registry: ${def.name} has an unknown family ${def.family}`);
      for (const gen of ALL_GENS) {
        const op = def.op[gen];
        if (op >= 0) byOp[gen * FAMILIES.length + fam][op] = def;
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

/** The opcode-indexed instructions of a family in a generation (holes where no instruction is). */
export function opcodeTable(gen: Gen, family: Family): readonly (InstructionDef | undefined)[] {
  const fam = FAMILY_INDEX.get(family);
  return fam === undefined ? [] : idx().byOp[gen * FAMILIES.length + fam];
}

/** The instruction a family's opcode field names in a generation, if any. */
export function lookupOpcode(gen: Gen, family: Family, op: number): InstructionDef | undefined {
  return opcodeTable(gen, family)[op];
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

/**
 * A codec's per-opcode plans for one family: `plan(gen, op)` builds the plan of the
 * instruction the opcode names on first use and returns it from an array afterwards
 * (null once known to name nothing). `forInstruction` serves the printer, which holds an
 * instruction's definition and opcode: the cached plan when it was built from that very
 * definition, else one built on the spot (an instruction made by hand, not decoded).
 */
export class OpcodePlans<P extends { readonly def: InstructionDef }> {
  private readonly byGen: ((P | null)[] | undefined)[] = [];

  constructor(
    family: Family,
    private readonly build: (def: InstructionDef, gen: Gen) => P,
    /** Where the opcode's instruction comes from, when not the family's own opcode table. */
    private readonly lookup: (gen: Gen, op: number) => InstructionDef | undefined = (gen, op) =>
      lookupOpcode(gen, family, op),
  ) {}

  plan(gen: Gen, op: number): P | undefined {
    let table = this.byGen[gen];
    if (table === undefined) this.byGen[gen] = table = [];
    let p = table[op];
    if (p === undefined) {
      const def = this.lookup(gen, op);
      table[op] = p = def ? this.build(def, gen) : null;
    }
    return p ?? undefined;
  }

  forInstruction(gen: Gen, def: InstructionDef, op: number | undefined): P {
    const p = op === undefined ? undefined : this.plan(gen, op);
    return p !== undefined && p.def === def ? p : this.build(def, gen);
  }
}
