/**
 * The instruction registry's data model: every instruction of every supported generation
 * is one `InstructionDef`, written once (generated into `generated/`), and the decoder,
 * printer, assembler, tracer and translator all read it.
 */

/** Encoding families, as the hardware documents name them. */
export type Family =
  | 'SOP1'
  | 'SOP2'
  | 'SOPK'
  | 'SOPC'
  | 'SOPP'
  | 'SMEM' // gfx8+ scalar memory (SMRD on gfx7 shares the family name in the registry)
  | 'VOP1'
  | 'VOP2'
  | 'VOPC'
  | 'VOP3' // instructions whose only encoding is VOP3 (VOP3A/VOP3B)
  | 'VOP3P'
  | 'VOPD'
  | 'VINTRP'
  | 'VINTERP'
  | 'LDSDIR'
  | 'DS'
  | 'MUBUF'
  | 'MTBUF'
  | 'MIMG'
  | 'FLAT'
  | 'GLOBAL'
  | 'SCRATCH'
  | 'EXP';

/** Opcode per generation, indexed by `Gen`; -1 where the generation lacks the instruction. */
export type OpcodeByGen = readonly [number, number, number, number, number, number];

/** Register class of an operand. */
export type RegClass =
  | 'v' // VGPR only
  | 's' // SGPR (or special scalar register) only
  | 'vs' // any 9-bit source: VGPR, SGPR, inline constant, literal
  | 'ss' // any 8-bit scalar source: SGPR, inline constant, literal
  | 'imm' // immediate field
  | 'label' // branch target (SOPP simm16)
  | 'none';

/** Type of the value an operand carries, which decides how constants are spelled and folded. */
export type ValueType =
  | 'b16'
  | 'b32'
  | 'b64'
  | 'f16'
  | 'f32'
  | 'f64'
  | 'i16'
  | 'i32'
  | 'i64'
  | 'u16'
  | 'u32'
  | 'u64'
  | 'v2f16'
  | 'v2i16'
  | 'bf16'
  | 'v2bf16'
  | 'any';

export interface OperandDef {
  /** Encoding field this operand lives in (`vdst`, `src0`, `sdst`, `sbase`, `simm16`, …), or an implicit register (`vcc`, `scc`, `exec`, `m0`). */
  readonly field: string;
  readonly role: 'dst' | 'src';
  readonly cls: RegClass;
  /** Width in dwords (1 for 16-bit values too). */
  readonly dwords: number;
  readonly type: ValueType;
  /** Implicit operands are not spelled in the text (VOPC's vcc in e32, SCC of SOPC, …). */
  readonly implicit?: boolean;
}

/** Attribute bits. */
export const enum Attr {
  None = 0,
  ReadsExec = 1 << 0,
  WritesExec = 1 << 1,
  ReadsVcc = 1 << 2,
  WritesVcc = 1 << 3,
  ReadsScc = 1 << 4,
  WritesScc = 1 << 5,
  ReadsM0 = 1 << 6,
  WritesM0 = 1 << 7,
  MemLoad = 1 << 8,
  MemStore = 1 << 9,
  MemAtomic = 1 << 10,
  Branch = 1 << 11,
  CondBranch = 1 << 12,
  CrossLane = 1 << 13,
  EndProgram = 1 << 14,
  Barrier = 1 << 15,
  /** Wait/nop/hint: no architectural effect the interpreter models. */
  NoEffect = 1 << 16,
  /** Indirect jump / call (s_setpc, s_swappc, s_getpc). */
  PcRelative = 1 << 17,
}

/** Which memory an instruction touches. */
export type MemoryKind =
  'none' | 'scalar' | 'lds' | 'gds' | 'buffer' | 'image' | 'flat' | 'global' | 'scratch' | 'export';

export interface InstructionDef {
  /** LLVM's mnemonic without encoding suffixes (`_e32`, `_e64`, `_sdwa`, `_dpp`). */
  readonly name: string;
  /** The family of the instruction's own (shortest) encoding. */
  readonly family: Family;
  /** Opcode in that family, per generation. */
  readonly op: OpcodeByGen;
  /** Opcode of the VOP3 (e64) form of a VOP1/VOP2/VOPC instruction, per generation; absent for other families. */
  readonly op3?: OpcodeByGen;
  readonly operands: readonly OperandDef[];
  /** `Attr` bits. */
  readonly attrs: number;
  readonly mem: MemoryKind;
  /** Family-specific facts the codec needs (e.g. which modifiers print); free-form but data. */
  readonly flags?: Readonly<Record<string, number | string | boolean>>;
}
