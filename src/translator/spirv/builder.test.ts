/**
 * The SPIR-V builder: its encoding, its deduplication and its named errors on the CPU, and
 * whole compute modules of the shapes the program translator writes (the superstep
 * dispatcher's loop, switch and barriers, workgroup atomics, built-ins, function calls, and
 * per-lane indexed image arrays) validated by Khronos `spirv-val` for Vulkan, disassembled by
 * the `spirv-tools` package and assembled back to the same words.
 */
import { describe, expect, it } from 'vitest';
import { SpirvBuildError, SpirvModule, stringWords, type SpirvFunction } from './builder.ts';
import { spirvAssemble, spirvText } from './disassemble.ts';
import { BuiltIn, Dim, ExecutionModel, ImageFormat, Op, SPIRV_MAGIC, SpirvVersion, StorageClass } from './spec.ts';
import { validateSpirv, type SpirvTargetEnv } from './validate.ts';

function expectValid(words: Uint32Array, env: SpirvTargetEnv): void {
  const v = validateSpirv(words, env);
  expect(v.messages).toBe('');
  expect(v.ok).toBe(true);
}

/** Disassembled without names and assembled again: the same instructions, word for word. */
async function expectRoundTrip(words: Uint32Array): Promise<void> {
  const again = await spirvAssemble(await spirvText(words, { friendlyNames: false }));
  // Words 0-4 are the header: the assembler writes its own generator id.
  expect(again[0]).toBe(SPIRV_MAGIC);
  expect(Array.from(again.subarray(5))).toEqual(Array.from(words.subarray(5)));
}

/** A compute entry point `main` of `size` invocations, with an input and an output word buffer. */
function computeModule(version: SpirvVersion, size: number) {
  const m = new SpirvModule({ version });
  const u32 = m.uintType();
  const input = m.storageBuffer({ set: 0, binding: 0, element: u32, stride: 4, readOnly: true, name: 'input' });
  const output = m.storageBuffer({ set: 0, binding: 1, element: u32, stride: 4, name: 'output' });
  const main = m.function(m.voidType(), [], 'main');
  m.entryPoint(ExecutionModel.GLCompute, main, 'main');
  m.localSize(main, size);
  return { m, u32, input, output, main };
}

/**
 * The superstep dispatcher (D011) in miniature: `loop { switch pc { ... } barrier; ... }` over
 * two blocks of a wave program, with workgroup exchange words set by atomics, a lane count
 * that ends the loop, a storage barrier under a branch, and a helper function.
 */
function dispatcherModule(version: SpirvVersion): Uint32Array {
  const LANES = 64;
  const { m, u32, input, output, main } = computeModule(version, LANES);
  const bool = m.boolType();
  const exchange = m.workgroupVariable(m.arrayType(u32, LANES), 'exchange');
  const running = m.workgroupVariable(u32, 'waves_running');
  const wgPointer = m.pointerType(StorageClass.Workgroup, u32);
  const c = (v: number): number => m.constantU32(v);

  const readInput: SpirvFunction = m.function(u32, [u32], 'read_input');
  {
    const b = readInput.block();
    b.returnValue(b.load(u32, b.bufferElement(input, readInput.params[0]!)));
  }

  const pc = main.variable(u32, c(0));
  const entry = main.block();
  const lane = entry.load(u32, m.builtinInput(BuiltIn.LocalInvocationIndex).variable);
  const group = entry.compositeExtract(
    u32,
    entry.load(m.builtinInput(BuiltIn.WorkgroupId).type, m.builtinInput(BuiltIn.WorkgroupId).variable),
    0,
  );
  const subgroupSize = entry.load(u32, m.builtinInput(BuiltIn.SubgroupSize).variable);
  entry.atomicStore(running, c(LANES));
  entry.workgroupBarrier();
  const header = main.label();
  const body = main.label();
  const case0 = main.label();
  const case1 = main.label();
  const otherwise = main.label();
  const switchMerge = main.label();
  const then = main.label();
  const ifMerge = main.label();
  const continueTarget = main.label();
  const loopMerge = main.label();
  entry.branch(header);

  const h = main.block(header);
  h.loopMerge(loopMerge, continueTarget);
  h.branch(body);

  const sw = main.block(body);
  const at = sw.load(u32, pc);
  sw.selectionMerge(switchMerge);
  sw.switch(at, otherwise, [
    [0, case0],
    [1, case1],
  ]);

  const k0 = main.block(case0);
  k0.atomic(Op.AtomicOr, u32, k0.accessChain(wgPointer, exchange, lane), k0.op(Op.ShiftLeftLogical, u32, c(1), c(3)));
  k0.store(pc, c(1));
  k0.branch(switchMerge);

  const k1 = main.block(case1);
  const sum = k1.op(Op.IAdd, u32, k1.call(readInput, lane), k1.op(Op.IAdd, u32, subgroupSize, group));
  k1.store(k1.bufferElement(output, lane), sum);
  k1.atomic(Op.AtomicISub, u32, running, c(1));
  k1.store(pc, c(2));
  k1.branch(switchMerge);

  main.block(otherwise).branch(switchMerge);

  const after = main.block(switchMerge);
  after.workgroupBarrier();
  const word = after.load(u32, after.accessChain(wgPointer, exchange, lane));
  const published = after.op(Op.INotEqual, bool, word, c(0));
  after.selectionMerge(ifMerge);
  after.branchConditional(published, then, ifMerge);

  const t = main.block(then);
  t.storageBarrier();
  t.branch(ifMerge);

  const joined = main.block(ifMerge);
  joined.phi(u32, [
    [c(1), then],
    [c(0), switchMerge],
  ]);
  joined.branch(continueTarget);

  const cont = main.block(continueTarget);
  cont.workgroupBarrier();
  const left = cont.atomicLoad(u32, running);
  cont.branchConditional(cont.op(Op.INotEqual, bool, left, c(0)), header, loopMerge);

  main.block(loopMerge).return();
  return m.build();
}

/**
 * Images bound as arrays and indexed per lane (the next issue's binding model): a runtime
 * array of sampled images and a fixed array of storage images, the index and everything
 * derived from it decorated NonUniform.
 */
function imageArrayModule(version: SpirvVersion): Uint32Array {
  const { m, u32, output, main } = computeModule(version, 32);
  const f32 = m.floatType();
  const vec2 = m.vectorType(f32, 2);
  const vec4 = m.vectorType(f32, 4);
  const uvec4 = m.vectorType(u32, 4);
  const ivec2 = m.vectorType(m.intType(), 2);
  const texture = m.imageType({ sampledType: f32, dim: Dim.Dim2D, sampled: 1, format: ImageFormat.Unknown });
  const storage = m.imageType({ sampledType: u32, dim: Dim.Dim2D, sampled: 2, format: ImageFormat.Rgba32ui });
  const textures = m.descriptorArray({ set: 1, binding: 0, element: texture, name: 'textures' });
  const images = m.descriptorArray({ set: 1, binding: 1, element: storage, length: 4, name: 'images' });
  const sampler = m.descriptor({ set: 1, binding: 2, type: m.samplerType(), name: 'sampler' });
  m.nonUniformIndexing('sampled-image');
  m.nonUniformIndexing('storage-image');

  const b = main.block();
  const lane = b.load(u32, m.builtinInput(BuiltIn.LocalInvocationIndex).variable);
  const index = b.op(Op.BitwiseAnd, u32, lane, m.constantU32(3));
  m.nonUniform(index);
  const texturePointer = b.accessChain(m.pointerType(StorageClass.UniformConstant, texture), textures, index);
  m.nonUniform(texturePointer);
  const image = b.load(texture, texturePointer);
  m.nonUniform(image);
  const combined = b.op(Op.SampledImage, m.sampledImageType(texture), image, b.load(m.samplerType(), sampler));
  m.nonUniform(combined);
  const half = m.constantF32Bits(0x3f000000);
  const texel = b.sampleLod(vec4, combined, m.constantComposite(vec2, [half, half]), m.constantF32Bits(0));
  m.nonUniform(texel);
  const red = b.bitcast(u32, b.compositeExtract(f32, texel, 0));
  b.store(b.bufferElement(output, lane), red);

  const storagePointer = b.accessChain(m.pointerType(StorageClass.UniformConstant, storage), images, index);
  m.nonUniform(storagePointer);
  const storageImage = b.load(storage, storagePointer);
  m.nonUniform(storageImage);
  const zero = m.constantNull(ivec2);
  const read = b.op(Op.ImageRead, uvec4, storageImage, zero);
  m.nonUniform(read);
  b.emit(Op.ImageWrite, storageImage, zero, read);
  b.return();
  return m.build();
}

describe('SPIR-V builder encoding', () => {
  it('writes literal strings as nul-terminated UTF-8 in little-endian words', () => {
    expect(stringWords('abc')).toEqual([0x00636261]);
    expect(stringWords('main')).toEqual([0x6e69616d, 0]);
    expect(stringWords('')).toEqual([0]);
  });

  it('writes the header and sections in the logical layout, ids below the bound', () => {
    const { m, main } = computeModule(SpirvVersion.v1_5, 1);
    main.block().return();
    const words = m.build();
    expect(Array.from(words.subarray(0, 5))).toEqual([SPIRV_MAGIC, 0x00010500, 0, words[3], 0]);
    const opcodes: number[] = [];
    for (let at = 5; at < words.length; at += words[at]! >>> 16) opcodes.push(words[at]! & 0xffff);
    expect(opcodes[0]).toBe(Op.Capability);
    expect(opcodes.indexOf(Op.MemoryModel)).toBeLessThan(opcodes.indexOf(Op.EntryPoint));
    expect(opcodes.indexOf(Op.EntryPoint)).toBeLessThan(opcodes.indexOf(Op.Name));
    expect(opcodes.lastIndexOf(Op.Name)).toBeLessThan(opcodes.indexOf(Op.Decorate));
    expect(opcodes.lastIndexOf(Op.Decorate)).toBeLessThan(opcodes.indexOf(Op.TypeInt));
    expect(opcodes.at(-1)).toBe(Op.FunctionEnd);
    expect(words[3]).toBe(m.id()); // the bound is the next id
  });

  it('declares types and constants once, structs and laid-out arrays apart', () => {
    const m = new SpirvModule();
    expect(m.uintType()).toBe(m.uintType());
    expect(m.constantU32(7)).toBe(m.constantU32(7));
    expect(m.constantU32(-1)).toBe(m.constantU32(0xffffffff));
    expect(m.constantF32Bits(7)).not.toBe(m.constantU32(7));
    expect(m.pointerType(StorageClass.Workgroup, m.uintType())).toBe(
      m.pointerType(StorageClass.Workgroup, m.uintType()),
    );
    expect(m.arrayType(m.uintType(), 4, 4)).not.toBe(m.arrayType(m.uintType(), 4));
    expect(m.structType([m.uintType()])).not.toBe(m.structType([m.uintType()]));
    expect(m.builtinInput(BuiltIn.WorkgroupId)).toBe(m.builtinInput(BuiltIn.WorkgroupId));
  });

  it('refuses malformed functions by name', () => {
    const m = new SpirvModule();
    const fn = m.function(m.voidType());
    const b = fn.block();
    b.return();
    expect(() => b.return()).toThrow(SpirvBuildError);
    const open = fn.block();
    expect(() => m.build()).toThrow(/has no terminator/);
    open.selectionMerge(fn.label());
    expect(() => open.store(1, 2)).toThrow(/merge instruction/);
    expect(() => fn.block(12345)).toThrow(/not reserved/);
    const m2 = new SpirvModule();
    const f2 = m2.function(m2.voidType());
    f2.label();
    f2.block().return();
    expect(() => m2.build()).toThrow(/never got a block/);
    expect(() => new SpirvModule().globalVariable(StorageClass.Function, 1)).toThrow(SpirvBuildError);
  });
});

describe('SPIR-V compute modules pass spirv-val for Vulkan', () => {
  it('a control-flow-free entry point', () => {
    const { m, main } = computeModule(SpirvVersion.v1_5, 1);
    main.block().return();
    expectValid(m.build(), 'vulkan1.2');
  });

  for (const [version, env] of [
    [SpirvVersion.v1_5, 'vulkan1.2'],
    [SpirvVersion.v1_3, 'vulkan1.1'],
  ] as const) {
    it(`the superstep dispatcher's loop, switch, barriers and atomics (SPIR-V ${version >> 16}.${(version >> 8) & 0xff}, ${env})`, async () => {
      const words = dispatcherModule(version);
      expectValid(words, env);
      const text = await spirvText(words);
      expect(text).toMatch(/OpEntryPoint GLCompute %main "main" %\w+/);
      expect(text).toContain('OpExecutionMode %main LocalSize 64 1 1');
      expect(text).toContain('OpCapability GroupNonUniform');
      expect(text).toMatch(/OpDecorate %\w+ BuiltIn LocalInvocationIndex/);
      expect(text).toMatch(/OpDecorate %\w+ BuiltIn SubgroupSize/);
      expect(text).toMatch(/OpDecorate %input_block Block/);
      expect(text).toMatch(/OpDecorate %input NonWritable/);
      expect(text).toMatch(/OpDecorate %output Binding 1/);
      expect(text).toMatch(/OpDecorate %_runtimearr_uint ArrayStride 4/);
      expect(text).toMatch(/OpLoopMerge %\d+ %\d+ None/);
      expect(text).toMatch(/OpSwitch %\d+ %\d+ 0 %\d+ 1 %\d+/);
      // Workgroup scope (2) twice; AcquireRelease | WorkgroupMemory = 0x108, | UniformMemory = 0x48.
      expect(text).toContain('OpControlBarrier %uint_2 %uint_2 %uint_264');
      expect(text).toContain('OpControlBarrier %uint_2 %uint_2 %uint_72');
      expect(text).toMatch(/OpAtomicOr %uint %\d+ %uint_2 %uint_0 %\w+/);
      expect(text).toMatch(/OpAtomicISub %uint %waves_running %uint_2 %uint_0 %uint_1/);
      expect(text).toMatch(/OpFunctionCall %uint %read_input %\d+/);
      expect(text).toMatch(/OpPhi %uint %uint_1 %\d+ %uint_0 %\d+/);
      // From SPIR-V 1.4 the interface lists the buffers and workgroup variables too.
      const entry = /OpEntryPoint[^\n]*/.exec(text)![0];
      expect(entry.includes('%exchange')).toBe(version >= SpirvVersion.v1_4);
      await expectRoundTrip(words);
    });

    it(`image arrays indexed per lane, NonUniform (SPIR-V ${version >> 16}.${(version >> 8) & 0xff}, ${env})`, async () => {
      const words = imageArrayModule(version);
      expectValid(words, env);
      const text = await spirvText(words);
      for (const cap of [
        'ShaderNonUniform',
        'RuntimeDescriptorArray',
        'SampledImageArrayNonUniformIndexing',
        'StorageImageArrayNonUniformIndexing',
      ])
        expect(text).toContain(`OpCapability ${cap}`);
      expect(text.includes('OpExtension "SPV_EXT_descriptor_indexing"')).toBe(version < SpirvVersion.v1_5);
      expect(text.match(/OpDecorate %\w+ NonUniform/g)?.length).toBe(8);
      expect(text).toMatch(/OpImageSampleExplicitLod %v4float %\d+ %\w+ Lod %float_0/);
      expect(text).toMatch(/OpDecorate %textures DescriptorSet 1/);
      await expectRoundTrip(words);
    });
  }
});
