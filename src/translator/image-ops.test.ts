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
import { lightShadowsSpec } from '../../e2e/fixtures/d983-captures.ts';
import { buildCapture, readCapture, writeCapture } from '../host/capture/index.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeSamplerDescriptor } from '../host/descriptors/index.ts';
import { lookupDescriptor } from '../host/directory/index.ts';
import { concrete } from '../semantics/concrete.ts';
import { paddedSamplerWords } from './selected-images.ts';
import { TARGETS } from '../../test/corpus-kernels/targets.ts';
import { genOf, radvSamplerFields } from '../../test/corpus-kernels/radv-image-common.ts';
import {
  kernel as nonuniformSamplerKernel,
  SAMPLERS,
} from '../../test/corpus-kernels/radv-nonuniform-sampler-and-texture.ts';

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
    expect(t.wgsl.match(/image_run\(iq, lid, group, true\)/g)).toHaveLength(1);
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

describe('implicit LOD and degamma in the module (D024)', () => {
  it("takes an implicit LOD's derivatives from its quad: one sync point a coordinate, then the derivative path", async () => {
    const t = await translated(
      caseNamed('sample, implicit LOD from each quad (mag point, min bilinear, nearest level)'),
    );
    // Every lane publishes s, then t; phase B puts lane 4k+1's and 4k+2's less lane 4k's in _d's request words.
    expect(t.wgsl).toContain('xword[xw + lane] = iq[1];');
    expect(t.wgsl).toContain('xword[xw + lane] = iq[2];');
    const qb = 'let qb = xw + (lane & 28u);';
    const diff = (to: number) => `bitcast<u32>(bitcast<f32>(xword[qb + ${to}u]) - bitcast<f32>(xword[qb]))`;
    for (const [dx, dy] of [
      [7, 9],
      [8, 10],
    ])
      expect(t.wgsl).toContain(`${qb}\n            iq[${dx}] = ${diff(1)};\n            iq[${dy}] = ${diff(2)};`);
    // A 2D sample needs no face check.
    expect(t.wgsl).not.toContain('fault(16u');
  });

  it("checks a cube quad's faces where the LOD is implicit, even where it decides nothing (CUBE_FAULT.quadFaces)", async () => {
    // light-shadows (D022) with its cube compare's _lz dropped: one level, so only the faces are exchanged.
    const { spec } = lightShadowsSpec({});
    const program = spec.program as { asm: string };
    const cubeLz = /image_sample_c_lz (v16, v\[28:31\][^\n]*SQ_RSRC_IMG_CUBE)/;
    expect(program.asm).toMatch(cubeLz);
    program.asm = program.asm.replace(cubeLz, 'image_sample_c $1');
    spec.expected = { unavailable: 'translated only' };
    const built = await buildCapture(spec as Parameters<typeof buildCapture>[0]);
    const capture = await readCapture(await writeCapture(built.manifest, built.blobs));
    const t = translateCapture(capture, undefined, { vector: await loadVectorBridge() });
    if ('kind' in t) throw new Error(`refused: ${t.reason}`);
    const wgsl = t.translation.wgsl;
    expect(wgsl.match(/xword\[xw \+ lane\] = iq\[3\];/g)).toHaveLength(1);
    expect(wgsl).not.toContain('xword[xw + lane] = iq[1];');
    expect(wgsl).toContain(
      'if (iq[11] != 0u && !((xword[qb + 0u] == qf || (f32_is_nan(xword[qb + 0u]) && f32_is_nan(qf))) && (xword[qb + 1u] == qf',
    );
    expect(wgsl).toContain('fault(16u, qf, 0u, 0u, false, iq[12]);');
  }, 60_000);

  it('takes no exchange where the LOD decides nothing', async () => {
    const t = await translated(caseNamed('sample point, implicit LOD that decides nothing'));
    expect(t.wgsl).not.toContain('xword[xw + lane] = iq[');
  });

  it('checks every texel and result under FORCE_DEGAMMA (FAULT.imageDegamma), and only there', async () => {
    const t = await translated(caseNamed('sample point with FORCE_DEGAMMA of texels made of +0 and 1'));
    expect(t.wgsl).toContain('t = image_degamma(a, image_texel(a.binding, level, layer, x, y), lane_active, at);');
    expect(t.wgsl).toMatch(/fault\(15u, t\[k\], 0u, 0u, false, at\);/);
    // The access's row carries FLAG.degamma (131072) in its flags; a sample without it does not.
    expect(t.wgsl).toMatch(/ImageAccess\(0u, 1u, (\d+)u,/);
    const flags = Number(/ImageAccess\(0u, 1u, (\d+)u,/.exec(t.wgsl)![1]);
    expect(flags & 131072).toBe(131072);
    const plain = await translated(caseNamed('sample bilinear'));
    expect(Number(/ImageAccess\(0u, 1u, (\d+)u,/.exec(plain.wgsl)![1]) & 131072).toBe(0);
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

  it('FORCE_DEGAMMA of an integer format (the interpreter refuses it too)', async () => {
    const c: ImageCase = {
      ...caseNamed('sample point with FORCE_DEGAMMA of texels made of +0 and 1'),
      image: { format: 20, width_lo: 3, width_hi: 0, height: 3 },
      texels: { format: 'r32_uint', width: 4, height: 4, pattern: 'index', row_align: 64 },
    };
    expect(await refusal(c)).toMatch(/image_sample_lz: FORCE_DEGAMMA of a uint format \(\w+\) is not translated$/);
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
    expect(wgsl.match(/a = image_select\(a, q, lid, group, owner\);/g)).toHaveLength(1);
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

describe('a sampler selected from a table in the module (D027)', () => {
  it("searches the lane's S# in its sampler set and replaces the row's sampler fields with the decoded row", async () => {
    const target = TARGETS.find((x) => x.name === 'gfx1030w32')!;
    const built = await buildCapture(nonuniformSamplerKernel.spec(target)!, {
      readFile: (p: string) => readFileSync(join(import.meta.dirname, '../../test/corpus-kernels/code', p)),
    });
    const capture = await readCapture(await writeCapture(built.manifest, built.blobs));
    const t = translateCapture(capture, undefined, { vector: await loadVectorBridge() });
    if ('kind' in t) throw new Error(`refused: ${t.reason}`);
    const { wgsl, selected } = t.translation;
    const slots = selected!.slots.length;
    const sets = selected!.report[0]!.samplerTables;
    expect(slots).toBe(1);
    expect(sets.map((x) => [x.set, x.recordsRead, x.samplersBound])).toEqual([
      [0, 2, 2],
      [1, 2, 2],
    ]);
    // One search of the sampler set, in image_select, and the row's sampler fields read from the found row.
    expect(wgsl.match(/directory_find\(sel_dir\[1u \+ a\.sampler_set\], sw, false\)/g)).toHaveLength(1);
    expect(wgsl).toContain(`let r = sel_dir[${slots + sets.length}u] + sh.x * 12u;`);
    expect(wgsl).toContain('a.clamp_x = sel_dir[r + 2u];');
    expect(wgsl).toContain('a.lod_max = bitcast<f32>(sel_dir[r + 7u]);');
    // Both accesses queue the lane's four S# registers after the bias word.
    expect(wgsl.match(/iq\[25\] = /g)).toHaveLength(2);
    // The host's search of each S# (the same definition the module runs) finds a row: the samplers' own fields.
    const dir = selected!.directory;
    const rowsStart = dir[slots + sets.length]!;
    const gen = genOf(target);
    const rowOf = (k: number, set: number): number[] => {
      const words = paddedSamplerWords(Array.from(encodeSamplerDescriptor(gen, radvSamplerFields(gen, SAMPLERS[k]!))));
      const base = dir[slots + set]!;
      const hit = lookupDescriptor(concrete, (i) => dir[base + i]!, words, false);
      expect(hit.found).toBe(true);
      return Array.from(dir.subarray(rowsStart + 12 * hit.place, rowsStart + 12 * hit.place + 12));
    };
    for (const set of [0, 1]) {
      const [point, linear] = [rowOf(0, set), rowOf(1, set)];
      // Flags: MAG_BILINEAR (256) and MIN_BILINEAR (512) for the linear sampler only; clamp modes differ.
      expect([point[0]! & 768, linear[0]! & 768]).toEqual([0, 768]);
      expect(point[2]).not.toBe(linear[2]);
      expect(point[1]).not.toBe(linear[1]);
    }
    // An S# no record holds is not found.
    const base = dir[slots]!;
    expect(lookupDescriptor(concrete, (i) => dir[base + i]!, [1, 2, 3, 4, 0, 0, 0, 0], false).found).toBe(false);
  });
});
