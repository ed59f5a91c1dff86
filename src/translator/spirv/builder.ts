/**
 * A SPIR-V module builder for compute shaders: instructions are words, sections kept in the
 * order SPIR-V 1.6 §2.4 "Logical Layout of a Module" requires, types and constants declared
 * once, result ids handed out as they are asked for, and `build()` writing the header (§2.3
 * "Physical Layout") and every section into one Uint32Array.
 *
 * Memory model: Logical GLSL450. The Vulkan memory model would need the VulkanMemoryModel
 * capability, an optional device feature in Vulkan 1.2 (required only from 1.3), and every
 * consumer of this project's SPIR-V (Vulkan 1.1/1.2 drivers, translators such as naga or
 * SPIRV-Cross) takes GLSL450. The translator's cross-lane traffic is workgroup memory and
 * atomics behind OpControlBarrier with acquire-release semantics, which GLSL450 defines.
 *
 * Versions 1.3 to 1.5: the entry point's interface lists Input/Output variables only before
 * 1.4 and every global variable from 1.4 (§2.17 / OpEntryPoint); descriptor indexing
 * (NonUniform, runtime descriptor arrays) is core in 1.5 and needs SPV_EXT_descriptor_indexing
 * before it, which `capability()` adds by itself.
 */
import {
  AddressingModel,
  BuiltIn,
  Capability,
  Decoration,
  ExecutionMode,
  type ExecutionModel,
  FunctionControl,
  type GLSLstd450,
  ImageOperands,
  LoopControl,
  MemoryModel,
  MemorySemantics,
  Op,
  Scope,
  SelectionControl,
  SPIRV_MAGIC,
  SpirvVersion,
  StorageClass,
  TERMINATORS,
  type Dim,
  type ImageFormat,
} from './spec.ts';

/** A module that cannot be written as asked (an unterminated block, an instruction after a terminator...). */
export class SpirvBuildError extends Error {
  override readonly name = 'SpirvBuildError';
}

/** A literal string as SPIR-V words: UTF-8, nul-terminated, zero-padded to a word (§2.2.1 "Literal"). */
export function stringWords(text: string): number[] {
  const bytes = new TextEncoder().encode(text);
  const words = new Array<number>(Math.floor(bytes.length / 4) + 1).fill(0);
  bytes.forEach((b, i) => {
    words[i >> 2]! |= b << (8 * (i & 3));
  });
  return words.map((w) => w >>> 0);
}

/** One instruction's words: `wordCount << 16 | opcode`, then the operands (§2.3). */
function encode(opcode: number, operands: readonly number[]): number[] {
  const count = operands.length + 1;
  if (count > 0xffff) throw new SpirvBuildError(`instruction ${opcode} has ${count} words (at most 65535)`);
  for (const w of operands) {
    if (!Number.isInteger(w) || w < 0 || w > 0xffffffff)
      throw new SpirvBuildError(`instruction ${opcode}: operand ${w} is not a 32-bit word`);
  }
  return [((count << 16) | opcode) >>> 0, ...operands];
}

/** Capabilities that SPIR-V 1.5 made core and that need SPV_EXT_descriptor_indexing before it. */
const DESCRIPTOR_INDEXING: ReadonlySet<number> = new Set([
  Capability.ShaderNonUniform,
  Capability.RuntimeDescriptorArray,
  Capability.UniformBufferArrayNonUniformIndexing,
  Capability.SampledImageArrayNonUniformIndexing,
  Capability.StorageBufferArrayNonUniformIndexing,
  Capability.StorageImageArrayNonUniformIndexing,
]);

/** Built-ins that need a capability beyond Shader (the BuiltIn table's "Enabling Capabilities"). */
const BUILTIN_CAPABILITY: Partial<Record<number, number>> = {
  [BuiltIn.SubgroupSize]: Capability.GroupNonUniform,
  [BuiltIn.SubgroupLocalInvocationId]: Capability.GroupNonUniform,
  [BuiltIn.NumSubgroups]: Capability.GroupNonUniform,
  [BuiltIn.SubgroupId]: Capability.GroupNonUniform,
};

/** The built-ins that are a uvec3 (the rest this builder knows are a u32). */
const VECTOR_BUILTINS: ReadonlySet<number> = new Set([
  BuiltIn.NumWorkgroups,
  BuiltIn.WorkgroupSize,
  BuiltIn.WorkgroupId,
  BuiltIn.LocalInvocationId,
  BuiltIn.GlobalInvocationId,
]);

/** The kinds of descriptor array indexed per lane, and the capability each needs for NonUniform indices. */
export type DescriptorArrayKind = 'sampled-image' | 'storage-image' | 'storage-buffer' | 'uniform-buffer';
const NON_UNIFORM_INDEXING: Record<DescriptorArrayKind, number> = {
  'sampled-image': Capability.SampledImageArrayNonUniformIndexing,
  'storage-image': Capability.StorageImageArrayNonUniformIndexing,
  'storage-buffer': Capability.StorageBufferArrayNonUniformIndexing,
  'uniform-buffer': Capability.UniformBufferArrayNonUniformIndexing,
};

export interface ImageTypeDesc {
  /** The sampled type: a 32-bit float, int or uint scalar type id. */
  readonly sampledType: number;
  readonly dim: Dim;
  readonly depth?: 0 | 1 | 2;
  readonly arrayed?: boolean;
  readonly multisampled?: boolean;
  /** 1: used with a sampler; 2: a storage image (read/write without a sampler). */
  readonly sampled: 1 | 2;
  readonly format: ImageFormat;
}

export interface StorageBufferDesc {
  readonly set: number;
  readonly binding: number;
  /** The element type of the buffer's runtime array. */
  readonly element: number;
  /** The element's byte stride (4 for u32). */
  readonly stride: number;
  readonly readOnly?: boolean;
  readonly name?: string;
}

export interface StorageBuffer {
  /** The OpVariable (StorageBuffer storage class). */
  readonly variable: number;
  /** The Block-decorated struct { element[] }. */
  readonly blockType: number;
  /** The pointer type of one element, for OpAccessChain(variable, 0, index). */
  readonly elementPointer: number;
}

interface GlobalVariable {
  readonly id: number;
  readonly storageClass: number;
}

/** A SPIR-V module under construction. Ids are positive; 0 is never an id. */
export class SpirvModule {
  readonly version: SpirvVersion;
  private nextId = 1;
  private readonly capabilities = new Set<number>();
  private readonly extensions = new Set<string>();
  private readonly extImports = new Map<string, number>();
  private readonly entryPoints: number[][] = [];
  private readonly executionModes: number[][] = [];
  private readonly debugNames: number[][] = [];
  private readonly annotations: number[][] = [];
  private readonly annotationKeys = new Set<string>();
  /** Types, constants and global variables, in the order declared (each after its operands). */
  private readonly globals: number[][] = [];
  private readonly interned = new Map<string, number>();
  private readonly globalVariables: GlobalVariable[] = [];
  private readonly builtins = new Map<number, { variable: number; type: number }>();
  private readonly functions: SpirvFunction[] = [];

  constructor(options: { version?: SpirvVersion } = {}) {
    this.version = options.version ?? SpirvVersion.v1_5;
    this.capability(Capability.Shader);
  }

  /** A fresh result id. */
  id(): number {
    return this.nextId++;
  }

  capability(c: number): void {
    this.capabilities.add(c);
    if (DESCRIPTOR_INDEXING.has(c) && this.version < SpirvVersion.v1_5) this.extension('SPV_EXT_descriptor_indexing');
  }

  extension(name: string): void {
    this.extensions.add(name);
  }

  /** The id of an extended instruction set, imported once. */
  importExtInst(name: string): number {
    let id = this.extImports.get(name);
    if (id === undefined) {
      id = this.id();
      this.extImports.set(name, id);
    }
    return id;
  }

  glsl(): number {
    return this.importExtInst('GLSL.std.450');
  }

  /**
   * An entry point; its interface is filled in by `build()` from the global variables (all of
   * them from SPIR-V 1.4, the Input/Output ones before).
   */
  entryPoint(model: ExecutionModel, fn: SpirvFunction, name: string): void {
    this.entryPoints.push([model, fn.id, ...stringWords(name)]);
  }

  executionMode(fn: SpirvFunction, mode: number, ...literals: number[]): void {
    this.executionModes.push(encode(Op.ExecutionMode, [fn.id, mode, ...literals]));
  }

  localSize(fn: SpirvFunction, x: number, y = 1, z = 1): void {
    this.executionMode(fn, ExecutionMode.LocalSize, x, y, z);
  }

  name(target: number, text: string): void {
    this.debugNames.push(encode(Op.Name, [target, ...stringWords(text)]));
  }

  memberName(struct: number, member: number, text: string): void {
    this.debugNames.push(encode(Op.MemberName, [struct, member, ...stringWords(text)]));
  }

  private annotate(words: number[]): void {
    const key = words.join(',');
    if (this.annotationKeys.has(key)) return;
    this.annotationKeys.add(key);
    this.annotations.push(words);
  }

  /** OpDecorate, once per (target, decoration, literals). */
  decorate(target: number, decoration: number, ...literals: number[]): void {
    this.annotate(encode(Op.Decorate, [target, decoration, ...literals]));
  }

  memberDecorate(struct: number, member: number, decoration: number, ...literals: number[]): void {
    this.annotate(encode(Op.MemberDecorate, [struct, member, decoration, ...literals]));
  }

  /**
   * Marks a value as not dynamically uniform (an index into a descriptor array, the pointer
   * built from it, the descriptor loaded through it): Vulkan requires the NonUniform
   * decoration on such a value before it is used to reach a resource (Vulkan spec
   * "Descriptor indexing" / SPIR-V §3 Decoration NonUniform, capability ShaderNonUniform).
   */
  nonUniform(id: number): void {
    this.capability(Capability.ShaderNonUniform);
    this.decorate(id, Decoration.NonUniform);
  }

  /** The capability that lets `kind` arrays be indexed by a NonUniform value. */
  nonUniformIndexing(kind: DescriptorArrayKind): void {
    this.capability(NON_UNIFORM_INDEXING[kind]);
  }

  // ---- types and constants: declared once per opcode and operands ----

  private declare(key: string, opcode: number, operands: (id: number) => number[]): number {
    let id = this.interned.get(key);
    if (id === undefined) {
      id = this.id();
      this.globals.push(encode(opcode, operands(id)));
      this.interned.set(key, id);
    }
    return id;
  }

  voidType(): number {
    return this.declare('void', Op.TypeVoid, (id) => [id]);
  }
  boolType(): number {
    return this.declare('bool', Op.TypeBool, (id) => [id]);
  }
  /** A 32-bit unsigned integer: every word value of the translator is one. */
  uintType(): number {
    return this.declare('uint', Op.TypeInt, (id) => [id, 32, 0]);
  }
  intType(): number {
    return this.declare('int', Op.TypeInt, (id) => [id, 32, 1]);
  }
  floatType(): number {
    return this.declare('float', Op.TypeFloat, (id) => [id, 32]);
  }
  vectorType(component: number, count: number): number {
    return this.declare(`vec|${component}|${count}`, Op.TypeVector, (id) => [id, component, count]);
  }
  /**
   * A fixed-size array. `stride` gives it an ArrayStride (explicit layout, for buffers);
   * Workgroup, Private and Function variables must use arrays without one (Vulkan's
   * "Standalone SPIR-V" rules on explicit layout), so the two are different types.
   */
  arrayType(element: number, length: number, stride?: number): number {
    const lengthId = this.constantU32(length);
    const id = this.declare(`array|${element}|${length}|${stride ?? ''}`, Op.TypeArray, (id) => [
      id,
      element,
      lengthId,
    ]);
    if (stride !== undefined) this.decorate(id, Decoration.ArrayStride, stride);
    return id;
  }
  runtimeArrayType(element: number, stride?: number): number {
    const id = this.declare(`rtarray|${element}|${stride ?? ''}`, Op.TypeRuntimeArray, (id) => [id, element]);
    if (stride !== undefined) this.decorate(id, Decoration.ArrayStride, stride);
    return id;
  }
  /** A struct: always a new type, since its decorations (Block, Offset) belong to it alone. */
  structType(members: readonly number[], name?: string): number {
    const id = this.id();
    this.globals.push(encode(Op.TypeStruct, [id, ...members]));
    if (name !== undefined) this.name(id, name);
    return id;
  }
  pointerType(storageClass: number, pointee: number): number {
    return this.declare(`ptr|${storageClass}|${pointee}`, Op.TypePointer, (id) => [id, storageClass, pointee]);
  }
  functionType(returnType: number, params: readonly number[]): number {
    return this.declare(`fn|${returnType}|${params.join(',')}`, Op.TypeFunction, (id) => [id, returnType, ...params]);
  }
  imageType(d: ImageTypeDesc): number {
    const operands = [
      d.sampledType,
      d.dim,
      d.depth ?? 0,
      d.arrayed ? 1 : 0,
      d.multisampled ? 1 : 0,
      d.sampled,
      d.format,
    ];
    return this.declare(`image|${operands.join(',')}`, Op.TypeImage, (id) => [id, ...operands]);
  }
  samplerType(): number {
    return this.declare('sampler', Op.TypeSampler, (id) => [id]);
  }
  sampledImageType(image: number): number {
    return this.declare(`sampled|${image}`, Op.TypeSampledImage, (id) => [id, image]);
  }

  constantU32(value: number): number {
    const v = value >>> 0;
    const type = this.uintType();
    return this.declare(`const|${type}|${v}`, Op.Constant, (id) => [type, id, v]);
  }
  /** An i32 constant (`value` taken modulo 2^32, as a two's-complement word). */
  constantI32(value: number): number {
    const v = value >>> 0;
    const type = this.intType();
    return this.declare(`const|${type}|${v}`, Op.Constant, (id) => [type, id, v]);
  }
  /** An f32 constant by its bit pattern (any pattern, NaNs and infinities included, is a valid literal). */
  constantF32Bits(bits: number): number {
    const v = bits >>> 0;
    const type = this.floatType();
    return this.declare(`const|${type}|${v}`, Op.Constant, (id) => [type, id, v]);
  }
  constantBool(value: boolean): number {
    const type = this.boolType();
    return value
      ? this.declare('true', Op.ConstantTrue, (id) => [type, id])
      : this.declare('false', Op.ConstantFalse, (id) => [type, id]);
  }
  constantComposite(type: number, parts: readonly number[]): number {
    return this.declare(`composite|${type}|${parts.join(',')}`, Op.ConstantComposite, (id) => [type, id, ...parts]);
  }
  constantNull(type: number): number {
    return this.declare(`null|${type}`, Op.ConstantNull, (id) => [type, id]);
  }

  // ---- global variables ----

  /** A module-scope OpVariable of `pointee` in `storageClass`; returns the variable's id. */
  globalVariable(storageClass: number, pointee: number, name?: string, initializer?: number): number {
    if (storageClass === StorageClass.Function)
      throw new SpirvBuildError('Function variables belong to a function (SpirvFunction.variable)');
    const pointer = this.pointerType(storageClass, pointee);
    const id = this.id();
    this.globals.push(
      encode(
        Op.Variable,
        initializer === undefined ? [pointer, id, storageClass] : [pointer, id, storageClass, initializer],
      ),
    );
    this.globalVariables.push({ id, storageClass });
    if (name !== undefined) this.name(id, name);
    return id;
  }

  /**
   * A storage buffer `struct { element data[]; }` at (set, binding): the struct is a Block, its
   * member at Offset 0, the array has the element's ArrayStride (Vulkan: StorageBuffer
   * variables are Block structs with explicit layout; SPIR-V 1.3 made the StorageBuffer class
   * core). Read-only buffers are NonWritable, which lets a driver bind them to read-only
   * descriptors.
   */
  storageBuffer(d: StorageBufferDesc): StorageBuffer {
    const array = this.runtimeArrayType(d.element, d.stride);
    const blockType = this.structType([array], d.name === undefined ? undefined : `${d.name}_block`);
    this.decorate(blockType, Decoration.Block);
    this.memberDecorate(blockType, 0, Decoration.Offset, 0);
    this.memberName(blockType, 0, 'data');
    const variable = this.globalVariable(StorageClass.StorageBuffer, blockType, d.name);
    this.decorate(variable, Decoration.DescriptorSet, d.set);
    this.decorate(variable, Decoration.Binding, d.binding);
    if (d.readOnly) this.decorate(variable, Decoration.NonWritable);
    return { variable, blockType, elementPointer: this.pointerType(StorageClass.StorageBuffer, d.element) };
  }

  /** A workgroup (shared) variable; Vulkan forbids initializers on them without an extension. */
  workgroupVariable(pointee: number, name?: string): number {
    return this.globalVariable(StorageClass.Workgroup, pointee, name);
  }

  /**
   * The Input variable of a built-in (declared once): `type` is a u32, or a uvec3 for the
   * workgroup/invocation ids and sizes. Subgroup built-ins add the GroupNonUniform capability.
   */
  builtinInput(builtIn: number): { variable: number; type: number } {
    const found = this.builtins.get(builtIn);
    if (found) return found;
    const uint = this.uintType();
    const type = VECTOR_BUILTINS.has(builtIn) ? this.vectorType(uint, 3) : uint;
    const capability = BUILTIN_CAPABILITY[builtIn];
    if (capability !== undefined) this.capability(capability);
    const variable = this.globalVariable(StorageClass.Input, type);
    this.decorate(variable, Decoration.BuiltIn, builtIn);
    const entry = { variable, type };
    this.builtins.set(builtIn, entry);
    return entry;
  }

  /**
   * An array of descriptors (images, samplers, sampled images) at (set, binding), in
   * UniformConstant: `length` undefined is a runtime-sized array, which needs the
   * RuntimeDescriptorArray capability. Returns the variable.
   */
  descriptorArray(d: { set: number; binding: number; element: number; length?: number; name?: string }): number {
    let array: number;
    if (d.length === undefined) {
      this.capability(Capability.RuntimeDescriptorArray);
      array = this.runtimeArrayType(d.element);
    } else {
      array = this.arrayType(d.element, d.length);
    }
    const variable = this.globalVariable(StorageClass.UniformConstant, array, d.name);
    this.decorate(variable, Decoration.DescriptorSet, d.set);
    this.decorate(variable, Decoration.Binding, d.binding);
    return variable;
  }

  /** One descriptor (an image, a sampler) at (set, binding), in UniformConstant. */
  descriptor(d: { set: number; binding: number; type: number; name?: string }): number {
    const variable = this.globalVariable(StorageClass.UniformConstant, d.type, d.name);
    this.decorate(variable, Decoration.DescriptorSet, d.set);
    this.decorate(variable, Decoration.Binding, d.binding);
    return variable;
  }

  // ---- functions ----

  /** A function definition; add blocks to it with `block()`. */
  function(returnType: number, paramTypes: readonly number[] = [], name?: string): SpirvFunction {
    const fn = new SpirvFunction(this, returnType, this.functionType(returnType, paramTypes), paramTypes);
    this.functions.push(fn);
    if (name !== undefined) this.name(fn.id, name);
    return fn;
  }

  /** The module's words: header, then every section in the order of §2.4. */
  build(): Uint32Array {
    const interfaceIds = this.globalVariables
      .filter(
        (v) =>
          this.version >= SpirvVersion.v1_4 ||
          v.storageClass === StorageClass.Input ||
          v.storageClass === StorageClass.Output,
      )
      .map((v) => v.id);
    const words: number[] = [SPIRV_MAGIC, this.version, 0, this.nextId, 0];
    const put = (w: readonly number[]): void => {
      for (const x of w) words.push(x);
    };
    for (const c of [...this.capabilities].sort((a, b) => a - b)) put(encode(Op.Capability, [c]));
    for (const e of this.extensions) put(encode(Op.Extension, stringWords(e)));
    for (const [name, id] of this.extImports) put(encode(Op.ExtInstImport, [id, ...stringWords(name)]));
    put(encode(Op.MemoryModel, [AddressingModel.Logical, MemoryModel.GLSL450]));
    for (const e of this.entryPoints) put(encode(Op.EntryPoint, [...e, ...interfaceIds]));
    for (const m of this.executionModes) put(m);
    for (const n of this.debugNames) put(n);
    for (const a of this.annotations) put(a);
    for (const g of this.globals) put(g);
    for (const f of this.functions) put(f.words());
    return Uint32Array.from(words);
  }

  /**
   * Forbids fusing this float result with another operation (SPIR-V §3 Decoration
   * NoContraction): without it a Vulkan driver may turn OpFMul + OpFAdd into an fma, whose
   * single rounding differs from the two roundings the hardware algebra specifies.
   */
  noContraction(id: number): void {
    this.decorate(id, Decoration.NoContraction);
  }
}

/** A function definition: its parameters, its Function-class variables and its blocks, in order. */
export class SpirvFunction {
  readonly id: number;
  readonly params: readonly number[];
  private readonly variables: number[][] = [];
  private readonly blocks: SpirvBlock[] = [];
  private readonly reserved = new Set<number>();

  constructor(
    readonly module: SpirvModule,
    readonly returnType: number,
    readonly type: number,
    readonly paramTypes: readonly number[],
  ) {
    this.id = module.id();
    this.params = paramTypes.map(() => module.id());
  }

  /** A label id for a block added later (a forward branch target, a merge block). */
  label(): number {
    const id = this.module.id();
    this.reserved.add(id);
    return id;
  }

  /**
   * Appends a block. Blocks are written in the order appended, which must put each block
   * after the blocks that dominate it (§2.16.1) and the entry block first.
   */
  block(label?: number): SpirvBlock {
    let id: number;
    if (label === undefined) id = this.module.id();
    else {
      if (!this.reserved.delete(label)) throw new SpirvBuildError(`label ${label} was not reserved by this function`);
      id = label;
    }
    const b = new SpirvBlock(this.module, id);
    this.blocks.push(b);
    return b;
  }

  /** A Function-class variable (written at the top of the entry block, as §2.4 requires). */
  variable(pointee: number, initializer?: number): number {
    const pointer = this.module.pointerType(StorageClass.Function, pointee);
    const id = this.module.id();
    this.variables.push(
      encode(
        Op.Variable,
        initializer === undefined
          ? [pointer, id, StorageClass.Function]
          : [pointer, id, StorageClass.Function, initializer],
      ),
    );
    return id;
  }

  words(): number[] {
    if (this.blocks.length === 0) throw new SpirvBuildError(`function ${this.id} has no blocks`);
    if (this.reserved.size > 0)
      throw new SpirvBuildError(`function ${this.id}: labels ${[...this.reserved].join(', ')} never got a block`);
    const out = encode(Op.Function, [this.returnType, this.id, FunctionControl.None, this.type]);
    this.paramTypes.forEach((t, i) => out.push(...encode(Op.FunctionParameter, [t, this.params[i]!])));
    this.blocks.forEach((b, i) => out.push(...b.words(i === 0 ? this.variables : [])));
    out.push(...encode(Op.FunctionEnd, []));
    return out;
  }
}

/** One basic block: instructions after its label, ending in exactly one terminator. */
export class SpirvBlock {
  private readonly body: number[][] = [];
  private ended = false;
  private merging = false;

  constructor(
    readonly module: SpirvModule,
    readonly label: number,
  ) {}

  get terminated(): boolean {
    return this.ended;
  }

  private put(opcode: number, operands: readonly number[]): void {
    if (this.ended) throw new SpirvBuildError(`block ${this.label}: instruction ${opcode} after its terminator`);
    const terminator = TERMINATORS.has(opcode);
    if (this.merging && !terminator)
      throw new SpirvBuildError(`block ${this.label}: a merge instruction must come right before the branch`);
    this.body.push(encode(opcode, operands));
    if (terminator) this.ended = true;
    this.merging = opcode === Op.SelectionMerge || opcode === Op.LoopMerge;
  }

  /** An instruction with a result: `resultType` then a fresh result id then `operands`; returns the id. */
  op(opcode: number, resultType: number, ...operands: number[]): number {
    const id = this.module.id();
    this.put(opcode, [resultType, id, ...operands]);
    return id;
  }

  /** An instruction without a result. */
  emit(opcode: number, ...operands: number[]): void {
    this.put(opcode, operands);
  }

  /** A GLSL.std.450 instruction. */
  glsl(resultType: number, instruction: GLSLstd450, ...operands: number[]): number {
    return this.op(Op.ExtInst, resultType, this.module.glsl(), instruction, ...operands);
  }

  bitcast(type: number, value: number): number {
    return this.op(Op.Bitcast, type, value);
  }
  load(type: number, pointer: number): number {
    return this.op(Op.Load, type, pointer);
  }
  store(pointer: number, value: number): void {
    this.emit(Op.Store, pointer, value);
  }
  accessChain(pointerType: number, base: number, ...indices: number[]): number {
    return this.op(Op.AccessChain, pointerType, base, ...indices);
  }
  /** The pointer to element `index` (a u32 id) of a storage buffer built by `storageBuffer`. */
  bufferElement(buffer: StorageBuffer, index: number): number {
    return this.accessChain(buffer.elementPointer, buffer.variable, this.module.constantU32(0), index);
  }
  compositeExtract(type: number, composite: number, ...indices: number[]): number {
    return this.op(Op.CompositeExtract, type, composite, ...indices);
  }
  call(fn: SpirvFunction, ...args: number[]): number {
    return this.op(Op.FunctionCall, fn.returnType, fn.id, ...args);
  }
  phi(type: number, incoming: readonly (readonly [value: number, from: number])[]): number {
    return this.op(Op.Phi, type, ...incoming.flat());
  }

  /** OpControlBarrier: every invocation of `execution` scope waits; memory ordered as `semantics` says. */
  controlBarrier(execution: Scope, memory: Scope, semantics: number): void {
    const c = (v: number): number => this.module.constantU32(v);
    this.emit(Op.ControlBarrier, c(execution), c(memory), c(semantics));
  }
  /** WGSL's workgroupBarrier(): the workgroup waits, workgroup memory acquire-released. */
  workgroupBarrier(): void {
    this.controlBarrier(
      Scope.Workgroup,
      Scope.Workgroup,
      MemorySemantics.AcquireRelease | MemorySemantics.WorkgroupMemory,
    );
  }
  /** WGSL's storageBarrier(): the workgroup waits, storage-buffer memory acquire-released. */
  storageBarrier(): void {
    this.controlBarrier(
      Scope.Workgroup,
      Scope.Workgroup,
      MemorySemantics.AcquireRelease | MemorySemantics.UniformMemory,
    );
  }

  /**
   * A read-modify-write atomic (OpAtomicIAdd, OpAtomicOr, OpAtomicExchange...): `pointer` to a
   * 32-bit integer in Workgroup or StorageBuffer memory; returns the old value. Relaxed by
   * default: the superstep barriers order everything the translator needs ordered.
   */
  atomic(
    opcode: number,
    type: number,
    pointer: number,
    value: number,
    scope: Scope = Scope.Workgroup,
    semantics: number = MemorySemantics.Relaxed,
  ): number {
    const c = (v: number): number => this.module.constantU32(v);
    return this.op(opcode, type, pointer, c(scope), c(semantics), value);
  }
  atomicLoad(type: number, pointer: number, scope: Scope = Scope.Workgroup, semantics: number = 0): number {
    const c = (v: number): number => this.module.constantU32(v);
    return this.op(Op.AtomicLoad, type, pointer, c(scope), c(semantics));
  }
  atomicStore(pointer: number, value: number, scope: Scope = Scope.Workgroup, semantics: number = 0): void {
    const c = (v: number): number => this.module.constantU32(v);
    this.emit(Op.AtomicStore, pointer, c(scope), c(semantics), value);
  }
  atomicCompareExchange(
    type: number,
    pointer: number,
    value: number,
    comparator: number,
    scope: Scope = Scope.Workgroup,
  ): number {
    const c = (v: number): number => this.module.constantU32(v);
    return this.op(Op.AtomicCompareExchange, type, pointer, c(scope), c(0), c(0), value, comparator);
  }

  /** OpImageSampleExplicitLod at level `lod` (compute shaders have no implicit derivatives). */
  sampleLod(type: number, sampledImage: number, coordinate: number, lod: number): number {
    return this.op(Op.ImageSampleExplicitLod, type, sampledImage, coordinate, ImageOperands.Lod, lod);
  }

  // ---- structured control flow (§2.11 "Structured Control Flow") ----

  selectionMerge(merge: number, control: number = SelectionControl.None): void {
    this.emit(Op.SelectionMerge, merge, control);
  }
  loopMerge(merge: number, continueTarget: number, control: number = LoopControl.None): void {
    this.emit(Op.LoopMerge, merge, continueTarget, control);
  }
  branch(target: number): void {
    this.emit(Op.Branch, target);
  }
  branchConditional(condition: number, ifTrue: number, ifFalse: number): void {
    this.emit(Op.BranchConditional, condition, ifTrue, ifFalse);
  }
  /** OpSwitch on a 32-bit selector: `cases` are (literal, label). */
  switch(
    selector: number,
    defaultTarget: number,
    cases: readonly (readonly [literal: number, target: number])[],
  ): void {
    this.emit(Op.Switch, selector, defaultTarget, ...cases.flatMap(([lit, target]) => [lit >>> 0, target]));
  }
  return(): void {
    this.emit(Op.Return);
  }
  returnValue(value: number): void {
    this.emit(Op.ReturnValue, value);
  }
  unreachable(): void {
    this.emit(Op.Unreachable);
  }

  words(variables: readonly number[][]): number[] {
    if (!this.ended) throw new SpirvBuildError(`block ${this.label} has no terminator`);
    const out = encode(Op.Label, [this.label]);
    for (const v of variables) out.push(...v);
    for (const i of this.body) out.push(...i);
    return out;
  }
}
