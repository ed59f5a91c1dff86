/**
 * `spirvText` through the `spirv-tools` WebAssembly build in Node: a built module's text names
 * what was built, and words that are not SPIR-V are a named error carrying the tool's reason.
 */
import { describe, expect, it } from 'vitest';
import { SpirvModule } from './builder.ts';
import { SpirvToolsError, spirvAssemble, spirvText } from './disassemble.ts';
import { ExecutionModel } from './spec.ts';

describe('spirvText', () => {
  it('prints a built module as spirv-dis does, names included', async () => {
    const m = new SpirvModule();
    const fn = m.function(m.voidType(), [], 'entry');
    m.entryPoint(ExecutionModel.GLCompute, fn, 'entry');
    m.localSize(fn, 8, 2);
    fn.block().return();
    const text = await spirvText(m.build());
    expect(text).toContain('; Version: 1.5');
    expect(text).toContain('OpCapability Shader');
    expect(text).toContain('OpMemoryModel Logical GLSL450');
    expect(text).toContain('OpEntryPoint GLCompute %entry "entry"');
    expect(text).toContain('OpExecutionMode %entry LocalSize 8 2 1');
    const numbered = await spirvText(m.build(), { friendlyNames: false });
    expect(numbered).toMatch(/OpEntryPoint GLCompute %\d+ "entry"/);
    expect(numbered).not.toContain('%entry');
  });

  it('refuses words that are not SPIR-V, and text that is not SPIR-V assembly', async () => {
    await expect(spirvText(new Uint32Array([0x12345678, 0x00010500, 0, 1, 0]))).rejects.toThrow(SpirvToolsError);
    await expect(spirvText(new Uint32Array([0x12345678, 0x00010500, 0, 1, 0]))).rejects.toThrow(/magic number/);
    await expect(spirvAssemble('OpNotAnInstruction')).rejects.toThrow(/OpNotAnInstruction/);
  });
});
