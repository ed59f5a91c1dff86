/**
 * A module whose lanes select their sampler from a table (D027) through the WGSL reader: the
 * sampler set's search and the row replacement in `image_select`, in both forms of selected
 * images (D017's texel store, D026's resource table), read and validated as SPIR-V.
 */
import { describe, expect, it } from 'vitest';
import { loadVectorBridge } from '../../../interp/vector-bridge.ts';
import { captureOf, spec } from '../../../../test/translator/d027-spec.ts';
import { translateCapture } from '../../gpu-replay.ts';
import { validateSpirv } from '../validate.ts';
import { spirvFromWgsl } from './index.ts';

describe('a sampler selected from a table through the WGSL reader (D027)', () => {
  for (const form of ['texel-store', 'resource-table'] as const)
    it(`reads the sampler search and gives valid SPIR-V (${form})`, { timeout: 120_000 }, async () => {
      const t = translateCapture(await captureOf(spec()), undefined, {
        vector: await loadVectorBridge(),
        selectedImageForm: form,
      });
      if ('kind' in t) throw new Error(t.reason);
      const wgsl = t.translation.wgsl;
      expect(wgsl).toContain('directory_find(sel_dir[1u + a.sampler_set], sw, false)');
      const v = validateSpirv(spirvFromWgsl(wgsl, { names: false }), 'vulkan1.2');
      expect(v.messages).toBe('');
      expect(v.ok).toBe(true);
    });
});
