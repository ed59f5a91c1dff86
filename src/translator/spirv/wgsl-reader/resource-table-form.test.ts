/**
 * The resource-table form of selected images (D026) as SPIR-V: a D983 module translated with
 * `selectedImageForm: 'resource-table'` (no device) is read by the WGSL reader (subgroups, the
 * ballot and shuffles of the uniform service, the diagnostic directive, getResource) and
 * passes `spirv-val --target-env vulkan1.2`; its images are an array of sampled images indexed
 * NonUniform (SampledImageArrayNonUniformIndexing), the SPIR-V form.
 */
import { describe, expect, it } from 'vitest';
import { loadVectorBridge } from '../../../interp/vector-bridge.ts';
import { selectedImages } from '../../../../test/translator/d983-kernels.ts';
import { d983Capture } from '../../../../test/translator/d983-spec.ts';
import { translateCapture } from '../../gpu-replay.ts';
import { spirvText } from '../disassemble.ts';
import { validateSpirv } from '../validate.ts';
import { spirvFromWgsl, UnsupportedWgsl } from './index.ts';

describe('the resource-table form of selected images through the WGSL reader', () => {
  for (const w64 of [false, true])
    it(
      `reads a D983 module's uniform service and gives valid SPIR-V with NonUniform image indexing (${w64 ? 'wave64' : 'wave32'})`,
      { timeout: 120_000 },
      async () => {
        const capture = await d983Capture(selectedImages(w64).kernel);
        const t = translateCapture(capture, undefined, {
          vector: await loadVectorBridge(),
          selectedImageForm: 'resource-table',
        });
        if ('kind' in t) throw new Error(t.reason);
        const wgsl = t.translation.wgsl;
        expect(wgsl).toContain('getResource<texture_2d_array<u32>>');
        expect(wgsl).toContain('subgroupShuffle(iq[k], sl)');
        const words = spirvFromWgsl(wgsl, { names: false });
        const v = validateSpirv(words, 'vulkan1.2');
        expect(v.messages).toBe('');
        expect(v.ok).toBe(true);
        const text = await spirvText(words);
        for (const capability of [
          'SampledImageArrayNonUniformIndexing',
          'RuntimeDescriptorArray',
          'GroupNonUniformBallot',
          'GroupNonUniformShuffle',
        ])
          expect(text).toContain(`OpCapability ${capability}`);
        expect(text).toMatch(/OpGroupNonUniformShuffle/);
        expect(text).toMatch(/OpGroupNonUniformBallot/);
        expect(text).toMatch(/OpDecorate %\w+ NonUniform/);
        expect(text).toMatch(/OpDecorate %\w+ BuiltIn SubgroupLocalInvocationId/);
      },
    );

  it('refuses subgroup builtins without enable subgroups, by name', () => {
    const wgsl =
      '@compute @workgroup_size(4) fn main(@builtin(subgroup_size) n: u32) { let x = subgroupShuffle(n, 0u); }';
    expect(() => spirvFromWgsl(wgsl)).toThrow(UnsupportedWgsl);
    expect(() => spirvFromWgsl(wgsl)).toThrow(/without enable subgroups/);
  });
});
