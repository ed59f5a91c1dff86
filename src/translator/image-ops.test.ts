/**
 * Image instructions in the translator (D015), without a device: what the module declares and
 * binds for them, and the refusals by name of what it does not translate.
 */
import { describe, expect, it } from 'vitest';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { translateCapture } from './gpu-replay.ts';
import { IMAGE_CASES } from '../../test/translator/images-cases.ts';
import { imageCaptureUnchecked, type ImageCase } from '../../test/translator/images-spec.ts';
import { selectedImages } from '../../test/translator/d983-kernels.ts';
import { d983Capture } from '../../test/translator/d983-spec.ts';

const caseNamed = (name: string): ImageCase => IMAGE_CASES.find((c) => c.name === name)!;

async function translated(c: ImageCase, asm?: string) {
  const t = translateCapture(await imageCaptureUnchecked(c, asm), undefined, { vector: await loadVectorBridge() });
  if ('kind' in t) throw new Error(`refused: ${t.reason}`);
  return t.translation;
}

async function refusal(c: ImageCase, asm?: string): Promise<string> {
  const t = translateCapture(await imageCaptureUnchecked(c, asm), undefined, { vector: await loadVectorBridge() });
  if (!('kind' in t)) throw new Error('translated');
  return t.reason;
}

const prologue = `s_load_dwordx8 s[16:23], s[12:13], 0x0
  s_waitcnt lgkmcnt(0)
  buffer_load_dwordx4 v[0:3], off, s[16:19], 0
  s_waitcnt vmcnt(0)`;
const epilogue = `s_waitcnt vmcnt(0)
  buffer_store_dwordx4 v[4:7], off, s[20:23], 0
  s_endpgm`;

describe('image instructions in the module', () => {
  it('binds one texture per distinct T# and runs every access through one image service', async () => {
    const c = caseNamed('sample bilinear');
    const t = await translated(
      c,
      `${prologue}
  image_sample_lz v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
  image_load v[8:11], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  ${epilogue}`,
    );
    expect(t.images).toHaveLength(1);
    expect(t.images[0]!.texel).toBe('f32');
    expect(t.wgsl).toContain('@group(1) @binding(0) var gimg0: texture_2d_array<f32>;');
    // Two accesses, two rows of constants, one call of the service (SwiftShader inlines each call).
    expect(t.wgsl).toContain('array<ImageAccess, 2>');
    expect(t.wgsl.match(/image_run\(iq, lid, group\)/g)).toHaveLength(1);
    expect(t.wgsl.match(/textureLoad\(/g)).toHaveLength(1);
  });

  it('takes a T# in user data as constants: no register check', async () => {
    const t = await translated(caseNamed('load (x past the edge reads 0)'));
    expect(t.wgsl).not.toMatch(/fault\(10u/);
  });

  it('checks at the access the registers of a T# loaded from a fixed place', async () => {
    const c: ImageCase = { ...caseNamed('load (x past the edge reads 0)'), tableImage: true };
    const t = await translated(
      c,
      `${prologue}
  s_load_dwordx8 s[0:7], s[12:13], 0x20
  s_waitcnt lgkmcnt(0)
  image_load v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  ${epilogue}`,
    );
    expect(t.images).toHaveLength(1);
    expect(t.images[0]!.desc.width).toBe(4);
    // The eight words are compared with the ones the host bound; a difference is FAULT.imageDescriptor.
    expect(t.wgsl).toMatch(/fault\(10u, 0u, 0u, 0u, false, 0x[0-9a-f]+u\)/);
  });
});

describe('image refusals by name', () => {
  it('image stores', async () => {
    expect(
      await refusal(
        caseNamed('load (x past the edge reads 0)'),
        `${prologue}
  image_store v[0:3], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  ${epilogue}`,
      ),
    ).toMatch(/image_store: image stores are not translated: the host does not encode and tile texels back/);
  });

  it('an implicit LOD that decides the level', async () => {
    const c = caseNamed('sample _l across three levels, linear mips');
    expect(
      await refusal(
        c,
        `${prologue}
  image_sample v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
  ${epilogue}`,
      ),
    ).toMatch(/image_sample: an implicit LOD decides this sample/);
  });

  it('3D images', async () => {
    const c: ImageCase = {
      ...caseNamed('load (x past the edge reads 0)'),
      image: { format: 56, width_lo: 3, width_hi: 0, height: 3, type: 10, depth: 1 },
      texels: { format: 'rgba8_unorm', width: 4, height: 4, layers: 2, pattern: 'gradient', row_align: 64 },
    };
    expect(
      await refusal(
        c,
        `${prologue}
  image_load v[4:7], v[0:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D unorm
  ${epilogue}`,
      ),
    ).toMatch(/image_load: 3D images are not translated yet/);
  });

  it('a T# the host cannot know before the dispatch', async () => {
    expect(
      await refusal(
        caseNamed('load (x past the edge reads 0)'),
        `${prologue}
  v_readfirstlane_b32 s14, v0
  s_lshl_b32 s14, s14, 5
  s_load_dwordx8 s[0:7], s[12:13], s14
  s_waitcnt lgkmcnt(0)
  image_load v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  ${epilogue}`,
      ),
    ).toMatch(/image_load: s0 \(T# word 0\) is (not known at translation time|selected per lane)/);
  });
});

describe('runtime-selected images in the module (D983, D017)', () => {
  it('searches the directory once, in the image service, and binds no texture for them', async () => {
    const c = selectedImages(false);
    const t = translateCapture(await d983Capture(c.kernel), undefined, { vector: await loadVectorBridge() });
    if ('kind' in t) throw new Error(`refused: ${t.reason}`);
    const { wgsl, images, selected } = t.translation;
    expect(images).toHaveLength(0);
    // The load and the sample: two slots of one table, its directory held once.
    expect(selected!.slots.map((s) => [s.index, s.sampler === null])).toEqual([
      [0, true],
      [1, false],
    ]);
    expect(selected!.tables).toHaveLength(1);
    expect(Array.from(selected!.directory.subarray(0, 2))).toEqual([2, 2]);
    expect(wgsl.match(/fn directory_find\(/g)).toHaveLength(1);
    expect(wgsl.match(/directory_find\(sel_dir/g)).toHaveLength(1);
    expect(wgsl.match(/a = image_select\(a, q, lid, group\);/g)).toHaveLength(1);
    expect(wgsl).toContain('var<storage, read> sel_store: array<u32>;');
    expect(wgsl).toContain('var<storage, read_write> sel_escapes: array<atomic<u32>>;');
    // Both accesses queue the lane's eight T# registers.
    expect(wgsl.match(/iq\[20\] = /g)).toHaveLength(2);
  });

  it('refuses by name what it does not translate of a selected image', async () => {
    const c = selectedImages(false);
    const kernel = {
      ...c.kernel,
      accesses: ['image_get_resinfo v10, v2, s[32:39] dmask:0x1 dim:SQ_RSRC_IMG_2D'],
      outWords: 1,
    };
    const t = translateCapture(await d983Capture(kernel), undefined, {
      vector: await loadVectorBridge(),
    });
    if (!('kind' in t)) throw new Error('translated');
    expect(t.reason).toMatch(/image_get_resinfo: resinfo of a runtime-selected image \(D983\) is not translated$/);
  });
});
