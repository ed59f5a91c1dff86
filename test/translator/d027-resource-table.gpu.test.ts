/**
 * D027 in the resource-table form of selected images (D026): the lanes' samplers selected from a
 * table, searched and replaced in `image_select` as the owner's request runs in the uniform
 * service, the escape recorded once, by the owner. Each capture runs in a process of its own
 * (d983-form-run.ts: on SwiftShader a second, different resource-table module in one process
 * crashes it, D026 Known limits); d027.gpu.test.ts runs the portable form.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCapture } from '../../src/host/capture/index.ts';
import { encodeSamplerDescriptor } from '../../src/host/descriptors/index.ts';
import { genOf, radvSamplerFields } from '../corpus-kernels/radv-image-common.ts';
import { formRun } from './d983-form-runs.ts';
import { builtOf, SAMPLERS, spec, TARGET } from './d027-spec.ts';

const dir = mkdtempSync(join(tmpdir(), 'd027-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(name: string, descriptors: Parameters<typeof spec>[0] = []) {
  const built = await builtOf(spec(descriptors));
  const path = join(dir, `${name}.gcncap`);
  writeFileSync(path, await writeCapture(built.manifest, built.blobs));
  const r = formRun(['resource-table', 'capture', path]);
  expect(r.reads).toEqual({ table: true, store: false });
  return r;
}

describe('D027 on the GPU (Dawn for Node), resource-table', () => {
  it('lanes that select different samplers match, through the uniform service', { timeout: 600_000 }, async () => {
    const r = await run('match');
    expect(r.kind, r.reason).toBe('match');
  });

  it('a left-out record escapes once per lane, with its S# words', { timeout: 600_000 }, async () => {
    const fields = { ...radvSamplerFields(genOf(TARGET), SAMPLERS[1]!), lod_bias_sec: 1 };
    const words = Array.from(encodeSamplerDescriptor(genOf(TARGET), fields), (w) => `0x${(w >>> 0).toString(16)}`);
    const r = await run('escape', [undefined, { sampler: fields }]);
    expect(r.kind).toBe('refused');
    // 32 lanes select record 1, at each of the two accesses.
    expect(r.reason).toMatch(/^64 lane accesses selected an image or a sampler/);
    expect(r.reason).toContain(`S#: [${words.join(', ')}]`);
  });
});
