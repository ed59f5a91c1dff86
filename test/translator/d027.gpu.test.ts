/**
 * D027 on Dawn for Node (SwiftShader here): a sampler a dispatch selects per lane from a table at
 * run time, found in the module by its four S# words in the slot's sampler set and sampled with
 * the row the host decoded. The kernel is the corpus's radv/nonuniform_sampler_and_texture on
 * gfx1030 wave32 (ACO waterfalls over the texture and the sampler index), built with samplers of
 * its own: the lanes' samplers differ in filter and wrap, and the interpreter's verdict and the
 * module's must both match the reference's values; a table record the access cannot sample with
 * is left out by reason, and the lanes that select it escape, their S# words named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSamplerDescriptor } from '../../src/host/descriptors/index.ts';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { loadVectorBridge, type VectorBridge } from '../../src/interp/vector-bridge.ts';
import { replayTranslated, SelectedImageEscapeError, translateCapture } from '../../src/translator/gpu-replay.ts';
import { replaySpec } from '../corpus-kernels/common.ts';
import { genOf, radvSamplerFields } from '../corpus-kernels/radv-image-common.ts';
import { captureOf, SAMPLERS, spec, TARGET } from './d027-spec.ts';

let gpu: NodeGpu;
let vector: VectorBridge | undefined;
beforeAll(async () => {
  gpu = await getNodeGpu();
  vector = await loadVectorBridge();
});
afterAll(() => gpu?.device.destroy());

describe('D027: a sampler selected from a table, on the GPU (Dawn for Node)', () => {
  it('lanes that select different samplers match the interpreter', { timeout: 300_000 }, async () => {
    const s = spec();
    // The interpreter's verdict on the reference's values, which the module must match too.
    expect((await replaySpec(s)).kind).toBe('match');
    const capture = await captureOf(s);
    const t = translateCapture(capture, gpu.device, { vector, selectedImageForm: 'texel-store' });
    if ('kind' in t) throw new Error(`not translated: ${t.reason}`);
    const report = t.translation.selected!.report;
    expect(report).toHaveLength(1);
    // Two accesses (LOD 0 through _lz, LOD i & 1 through _l), each its own set of both records.
    expect(report[0]!.samplerTables.map((x) => [x.recordsRead, x.samplersBound, x.emptyRecords])).toEqual([
      [2, 2, 0],
      [2, 2, 0],
    ]);
    const o = await replayTranslated(capture, gpu.device, t);
    if (o.kind !== 'match') throw new Error(JSON.stringify(o).slice(0, 1500));
  });

  it(
    'a record the access cannot sample with is left out, and its lanes escape with its words',
    { timeout: 300_000 },
    async () => {
      // Record 1 with a non-zero LOD_BIAS_SEC: an S#, which the translator does not sample (the shared sampler check).
      const fields = { ...radvSamplerFields(genOf(TARGET), SAMPLERS[1]!), lod_bias_sec: 1 };
      const words = Array.from(encodeSamplerDescriptor(genOf(TARGET), fields));
      const capture = await captureOf(spec([undefined, { sampler: fields }]));
      const t = translateCapture(capture, gpu.device, { vector, selectedImageForm: 'texel-store' });
      if ('kind' in t) throw new Error(`not translated: ${t.reason}`);
      for (const set of t.translation.selected!.report[0]!.samplerTables) {
        expect(set.samplersBound).toBe(1);
        expect(set.leftOut).toEqual({ 'not-a-sampler': 0, 'not-sampled': 1 });
      }
      const o = await replayTranslated(capture, gpu.device, t);
      expect(o.kind).toBe('refused');
      if (o.kind !== 'refused') return;
      const e = o.error as SelectedImageEscapeError;
      expect(e).toBeInstanceOf(SelectedImageEscapeError);
      // Lanes 4-7, 12-15, ... select record 1, at both accesses: 32 lanes twice.
      expect(e.count).toBe(64);
      expect(e.bySlot).toEqual([64]);
      for (const lane of e.lanes) {
        expect(lane.missed).toBe('sampler');
        expect(lane.words).toEqual(words.map((w) => w >>> 0));
        expect((lane.invocation >> 2) & 1).toBe(1);
      }
      expect(o.reason).toContain(`S#: [${words.map((w) => `0x${(w >>> 0).toString(16)}`).join(', ')}]`);
    },
  );
});
