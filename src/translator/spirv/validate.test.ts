/**
 * The validator wrapper: a module Vulkan forbids is refused with spirv-val's reason, and a
 * missing spirv-val is a named error that says how to install it (never a skipped test).
 */
import { describe, expect, it } from 'vitest';
import { SpirvModule } from './builder.ts';
import { Decoration, ExecutionModel, StorageClass } from './spec.ts';
import { SPIRV_VAL_INSTALL, SpirvValidatorMissing, validateSpirv } from './validate.ts';

/** A storage buffer whose struct lacks the Block decoration Vulkan requires. */
function moduleWithoutBlock(): Uint32Array {
  const m = new SpirvModule();
  const u32 = m.uintType();
  const plain = m.structType([m.runtimeArrayType(u32, 4)]);
  m.memberDecorate(plain, 0, Decoration.Offset, 0);
  const buffer = m.globalVariable(StorageClass.StorageBuffer, plain);
  m.decorate(buffer, Decoration.DescriptorSet, 0);
  m.decorate(buffer, Decoration.Binding, 0);
  const fn = m.function(m.voidType());
  m.entryPoint(ExecutionModel.GLCompute, fn, 'main');
  m.localSize(fn, 1);
  fn.block().return();
  return m.build();
}

describe('validateSpirv', () => {
  it('refuses what Vulkan refuses, with the reason', () => {
    const v = validateSpirv(moduleWithoutBlock(), 'vulkan1.2');
    expect(v.ok).toBe(false);
    expect(v.messages).toMatch(/Block/);
  });

  it('names a missing validator and the command that installs it', () => {
    const run = (): unknown => validateSpirv(moduleWithoutBlock(), 'vulkan1.2', 'spirv-val-not-installed-here');
    expect(run).toThrow(SpirvValidatorMissing);
    expect(run).toThrow(SPIRV_VAL_INSTALL);
  });
});
