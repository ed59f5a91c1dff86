/**
 * The numbers of the SPIR-V binary form the translator writes: opcodes, enumerants and the
 * GLSL.std.450 extended instructions. Facts of the Khronos specifications (SPIR-V 1.6,
 * section 3 "Binary Form", one table per enumerant kind, and the opcode column of section 3's
 * "Instructions"; "GLSL.std.450", the "Number" column), only those a compute shader of this
 * project uses. The disassembler tests (`builder.test.ts`, `expressions.test.ts`) check each
 * number against the Khronos tools' own names.
 */

/** SPIR-V 1.6 §2.3 "Physical Layout": the first word of every module. */
export const SPIRV_MAGIC = 0x07230203;

/** The versions this builder writes: 1.3 (Vulkan 1.1) to 1.5 (Vulkan 1.2), as `major << 16 | minor << 8`. */
export const SpirvVersion = {
  v1_3: 0x00010300,
  v1_4: 0x00010400,
  v1_5: 0x00010500,
} as const;
export type SpirvVersion = (typeof SpirvVersion)[keyof typeof SpirvVersion];

export const Op = {
  Nop: 0,
  Undef: 1,
  Name: 5,
  MemberName: 6,
  Extension: 10,
  ExtInstImport: 11,
  ExtInst: 12,
  MemoryModel: 14,
  EntryPoint: 15,
  ExecutionMode: 16,
  Capability: 17,
  TypeVoid: 19,
  TypeBool: 20,
  TypeInt: 21,
  TypeFloat: 22,
  TypeVector: 23,
  TypeImage: 25,
  TypeSampler: 26,
  TypeSampledImage: 27,
  TypeArray: 28,
  TypeRuntimeArray: 29,
  TypeStruct: 30,
  TypePointer: 32,
  TypeFunction: 33,
  ConstantTrue: 41,
  ConstantFalse: 42,
  Constant: 43,
  ConstantComposite: 44,
  ConstantNull: 46,
  Function: 54,
  FunctionParameter: 55,
  FunctionEnd: 56,
  FunctionCall: 57,
  Variable: 59,
  ImageTexelPointer: 60,
  Load: 61,
  Store: 62,
  AccessChain: 65,
  ArrayLength: 68,
  Decorate: 71,
  MemberDecorate: 72,
  VectorExtractDynamic: 77,
  VectorShuffle: 79,
  CompositeConstruct: 80,
  CompositeExtract: 81,
  CompositeInsert: 82,
  SampledImage: 86,
  ImageSampleExplicitLod: 88,
  ImageFetch: 95,
  ImageGather: 96,
  ImageRead: 98,
  ImageWrite: 99,
  ImageQuerySizeLod: 103,
  ImageQuerySize: 104,
  ImageQueryLevels: 106,
  ConvertFToU: 109,
  ConvertFToS: 110,
  ConvertSToF: 111,
  ConvertUToF: 112,
  Bitcast: 124,
  SNegate: 126,
  FNegate: 127,
  IAdd: 128,
  FAdd: 129,
  ISub: 130,
  FSub: 131,
  IMul: 132,
  FMul: 133,
  UDiv: 134,
  SDiv: 135,
  FDiv: 136,
  UMod: 137,
  SRem: 138,
  FRem: 140,
  Dot: 148,
  LogicalEqual: 164,
  LogicalNotEqual: 165,
  LogicalOr: 166,
  LogicalAnd: 167,
  LogicalNot: 168,
  Select: 169,
  IEqual: 170,
  INotEqual: 171,
  UGreaterThan: 172,
  SGreaterThan: 173,
  UGreaterThanEqual: 174,
  SGreaterThanEqual: 175,
  ULessThan: 176,
  SLessThan: 177,
  ULessThanEqual: 178,
  SLessThanEqual: 179,
  FOrdEqual: 180,
  FOrdNotEqual: 182,
  FUnordNotEqual: 183,
  FOrdLessThan: 184,
  FOrdGreaterThan: 186,
  FOrdLessThanEqual: 188,
  FOrdGreaterThanEqual: 190,
  ShiftRightLogical: 194,
  ShiftRightArithmetic: 195,
  ShiftLeftLogical: 196,
  BitwiseOr: 197,
  BitwiseXor: 198,
  BitwiseAnd: 199,
  Not: 200,
  BitFieldInsert: 201,
  BitFieldSExtract: 202,
  BitFieldUExtract: 203,
  BitReverse: 204,
  BitCount: 205,
  ControlBarrier: 224,
  MemoryBarrier: 225,
  AtomicLoad: 227,
  AtomicStore: 228,
  AtomicExchange: 229,
  AtomicCompareExchange: 230,
  AtomicIIncrement: 232,
  AtomicIDecrement: 233,
  AtomicIAdd: 234,
  AtomicISub: 235,
  AtomicSMin: 236,
  AtomicUMin: 237,
  AtomicSMax: 238,
  AtomicUMax: 239,
  AtomicAnd: 240,
  AtomicOr: 241,
  AtomicXor: 242,
  Phi: 245,
  LoopMerge: 246,
  SelectionMerge: 247,
  Label: 248,
  Branch: 249,
  BranchConditional: 250,
  Switch: 251,
  Return: 253,
  ReturnValue: 254,
  Unreachable: 255,
  GroupNonUniformElect: 333,
  GroupNonUniformBroadcast: 337,
  GroupNonUniformBroadcastFirst: 338,
  GroupNonUniformBallot: 339,
  GroupNonUniformShuffle: 345,
  CopyLogical: 400,
} as const;
export type Op = (typeof Op)[keyof typeof Op];

/** Instructions that end a block (SPIR-V 1.6 §2.2.4 "Control Flow": termination instructions). */
export const TERMINATORS: ReadonlySet<number> = new Set([
  Op.Branch,
  Op.BranchConditional,
  Op.Switch,
  Op.Return,
  Op.ReturnValue,
  Op.Unreachable,
]);

export const Capability = {
  Shader: 1,
  Float64: 10,
  Int64: 11,
  Int16: 22,
  ImageQuery: 50,
  StorageImageReadWithoutFormat: 55,
  StorageImageWriteWithoutFormat: 56,
  GroupNonUniform: 61,
  GroupNonUniformVote: 62,
  GroupNonUniformArithmetic: 63,
  GroupNonUniformBallot: 64,
  GroupNonUniformShuffle: 65,
  ShaderNonUniform: 5301,
  RuntimeDescriptorArray: 5302,
  UniformBufferArrayNonUniformIndexing: 5306,
  SampledImageArrayNonUniformIndexing: 5307,
  StorageBufferArrayNonUniformIndexing: 5308,
  StorageImageArrayNonUniformIndexing: 5309,
} as const;
export type Capability = (typeof Capability)[keyof typeof Capability];

export const ExecutionModel = { GLCompute: 5 } as const;
export type ExecutionModel = (typeof ExecutionModel)[keyof typeof ExecutionModel];

export const ExecutionMode = { LocalSize: 17 } as const;
export type ExecutionMode = (typeof ExecutionMode)[keyof typeof ExecutionMode];

export const AddressingModel = { Logical: 0 } as const;
export const MemoryModel = { GLSL450: 1 } as const;

export const StorageClass = {
  UniformConstant: 0,
  Input: 1,
  Uniform: 2,
  Output: 3,
  Workgroup: 4,
  Private: 6,
  Function: 7,
  PushConstant: 9,
  Image: 11,
  StorageBuffer: 12,
} as const;
export type StorageClass = (typeof StorageClass)[keyof typeof StorageClass];

export const Decoration = {
  Block: 2,
  ArrayStride: 6,
  BuiltIn: 11,
  Flat: 14,
  Restrict: 19,
  Aliased: 20,
  Volatile: 21,
  Coherent: 23,
  NonWritable: 24,
  NonReadable: 25,
  Binding: 33,
  DescriptorSet: 34,
  Offset: 35,
  NoContraction: 42,
  NonUniform: 5300,
} as const;
export type Decoration = (typeof Decoration)[keyof typeof Decoration];

export const BuiltIn = {
  NumWorkgroups: 24,
  WorkgroupSize: 25,
  WorkgroupId: 26,
  LocalInvocationId: 27,
  GlobalInvocationId: 28,
  LocalInvocationIndex: 29,
  SubgroupSize: 36,
  NumSubgroups: 38,
  SubgroupId: 40,
  SubgroupLocalInvocationId: 41,
} as const;
export type BuiltIn = (typeof BuiltIn)[keyof typeof BuiltIn];

/** SPIR-V 1.6 §3 "Scope <id>". */
export const Scope = {
  CrossDevice: 0,
  Device: 1,
  Workgroup: 2,
  Subgroup: 3,
  Invocation: 4,
  QueueFamily: 5,
} as const;
export type Scope = (typeof Scope)[keyof typeof Scope];

/** SPIR-V 1.6 §3 "Memory Semantics <id>": one ordering bit, or'ed with the storage classes it orders. */
export const MemorySemantics = {
  Relaxed: 0,
  Acquire: 0x2,
  Release: 0x4,
  AcquireRelease: 0x8,
  UniformMemory: 0x40,
  SubgroupMemory: 0x80,
  WorkgroupMemory: 0x100,
  ImageMemory: 0x800,
} as const;

export const SelectionControl = { None: 0, Flatten: 1, DontFlatten: 2 } as const;
export const LoopControl = { None: 0, Unroll: 1, DontUnroll: 2 } as const;
export const FunctionControl = { None: 0 } as const;

export const Dim = { Dim1D: 0, Dim2D: 1, Dim3D: 2, Cube: 3, Buffer: 5 } as const;
export type Dim = (typeof Dim)[keyof typeof Dim];

export const ImageFormat = {
  Unknown: 0,
  Rgba32f: 1,
  Rgba16f: 2,
  R32f: 3,
  Rgba8: 4,
  Rgba32ui: 30,
  R32ui: 33,
} as const;
export type ImageFormat = (typeof ImageFormat)[keyof typeof ImageFormat];

/** SPIR-V 1.6 §3 "Image Operands" (a mask; the operands follow in bit order). */
export const ImageOperands = { None: 0, Lod: 0x2 } as const;

/** The GLSL.std.450 extended instructions the back end uses ("GLSL.std.450", Number column). */
export const GLSLstd450 = {
  RoundEven: 2,
  Trunc: 3,
  FAbs: 4,
  SAbs: 5,
  FSign: 6,
  SSign: 7,
  Floor: 8,
  Ceil: 9,
  Fract: 10,
  Sin: 13,
  Cos: 14,
  Tan: 15,
  Pow: 26,
  Exp: 27,
  Log: 28,
  Exp2: 29,
  Log2: 30,
  Sqrt: 31,
  InverseSqrt: 32,
  UMin: 38,
  SMin: 39,
  UMax: 41,
  SMax: 42,
  FMix: 46,
  Fma: 50,
  Ldexp: 53,
  Length: 66,
  FindILsb: 73,
  FindSMsb: 74,
  FindUMsb: 75,
  NMin: 79,
  NMax: 80,
} as const;
export type GLSLstd450 = (typeof GLSLstd450)[keyof typeof GLSLstd450];
