/**
 * A table's images on a device (Dawn for Node; SwiftShader without a GPU): the table read, the
 * directory built, the pages uploaded; then a compute shader runs the module's search (the
 * shared hash and lookup, lowered and emitted as WGSL) on each probe's eight words, follows the
 * place map to its page and layer, and reads one texel, which must be the texel the guest image
 * holds there. No adapter is a failure, not a skip. Images are a few hundred bytes each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DstSel, ImageDescriptor } from '../descriptors/index.ts';
import { decodeImageLevel } from '../texels/formats.ts';
import { getNodeGpu, type NodeGpu } from '../gpu-node.ts';
import { hostDescriptorHash } from './directory.ts';
import {
  CountingMemory,
  GEN,
  imageBytes,
  patternBytes,
  tableBytes,
  tableVSharp,
  tsharp,
  tsharpWords,
  type ImageSpec,
} from './fixtures.test-support.ts';
import { lowerLookup, lookupWgsl } from './lowered-lookup.test-support.ts';
import { pageBudgetFor } from './pages.ts';
import { prepareImageTables } from './index.ts';
import { PAGE_WGSL_TYPE, uploadPages } from './upload.ts';

/** A BC1 block in 4-colour mode whose indices are 0 or 1 only: every texel an endpoint, exact everywhere. */
function bc1EndpointBlock(seed: number): number[] {
  const bits = patternBytes(seed, 4).reduce((acc, b, i) => acc | ((b & 0x55) << (8 * i)), 0) >>> 0;
  const c0 = 0xf81f;
  const c1 = 0x07e0 + (seed & 0x1f);
  return [c0 & 0xff, c0 >> 8, c1 & 0xff, c1 >> 8, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, bits >>> 24];
}

interface Probe {
  readonly words: readonly number[];
  readonly cube: boolean;
  readonly x: number;
  readonly y: number;
  /** Layer, cube face, or depth slice. */
  readonly s: number;
  /** The spec whose texel it should read; null for an escape (reads place 0). */
  readonly spec: number | null;
}

const PROBE_WORDS = 12;

/** The cube direction through the centre of texel (x, y) of face `face` (WebGPU's face order and orientation). */
const CUBE_DIRECTION_WGSL = `
fn cube_direction(face: u32, x: u32, y: u32, n: f32) -> vec3f {
  let u = (f32(x) + 0.5) / n * 2.0 - 1.0;
  let v = (f32(y) + 0.5) / n * 2.0 - 1.0;
  switch face {
    case 0u: { return vec3f(1.0, -v, -u); }
    case 1u: { return vec3f(-1.0, -v, u); }
    case 2u: { return vec3f(u, 1.0, v); }
    case 3u: { return vec3f(u, -1.0, -v); }
    case 4u: { return vec3f(u, -v, 1.0); }
    default: { return vec3f(-u, -v, -1.0); }
  }
}
fn swizzled(v: vec4f, code: u32) -> vec4f {
  var out: vec4f;
  for (var c = 0u; c < 4u; c++) {
    let sel = (code >> (3u * c)) & 7u;
    var r = 0.0;
    if (sel < 4u) { r = v[sel]; } else if (sel == 5u) { r = 1.0; }
    out[c] = r;
  }
  return out;
}`;

/** DST_SEL applied on the CPU, independently of the module's code. */
function applyDstSel(rgba: ArrayLike<number>, at: number, sel: readonly DstSel[]): number[] {
  const idx: Record<DstSel, number> = { x: 0, y: 1, z: 2, w: 3, '0': -1, '1': -2 };
  return sel.map((c) => (idx[c] === -1 ? 0 : idx[c] === -2 ? 1 : rgba[at + idx[c]]));
}

describe('a table of images on the device, found through the directory (Dawn for Node)', () => {
  let gpu: NodeGpu;
  beforeAll(async () => {
    gpu = await getNodeGpu({ requiredFeatures: ['texture-compression-bc'] });
  });
  afterAll(() => gpu?.device.destroy());

  it('reads back one texel of each image at the place its descriptor names, and escapes where it must', async () => {
    const device = gpu.device;
    const TABLE = 0x10000;
    const specs: ImageSpec[] = [
      { address: 0x100000, format: '8_8_8_8_UNORM', width: 4, height: 4 },
      { address: 0x110000, format: '8_8_8_8_UNORM', width: 4, height: 4, swMode: 1, dstSel: ['z', 'y', 'x', '1'] },
      { address: 0x120000, format: 'BC1_UNORM', width: 8, height: 8 },
      { address: 0x130000, format: '32_FLOAT', width: 4, height: 4, dstSel: ['x', 'x', '0', '1'] },
      { address: 0x140000, format: '8_8_8_8_UNORM', width: 4, height: 4, type: 'cube', depth: 5 },
      { address: 0x150000, format: '5_6_5_UNORM', width: 4, height: 4 },
      { address: 0x160000, format: '8_8_8_8_UNORM', width: 4, height: 4, type: '3d', depth: 1 },
    ];
    const linear = new Map<number, Uint8Array[]>();
    const ranges = specs.map((s, i) => {
      const slices: Uint8Array[] = [];
      const bytes = imageBytes(tsharp(s), (_level, slice, n) => {
        const b =
          s.format === 'BC1_UNORM'
            ? new Uint8Array(Array.from({ length: n / 8 }, (_, k) => bc1EndpointBlock(10 * i + k + 1)).flat())
            : s.format === '32_FLOAT'
              ? new Uint8Array(Float32Array.from({ length: n / 4 }, (_, k) => (k - 7.25) * 1.5e3 + slice).buffer)
              : patternBytes(100 * i + slice + 1, n);
        slices.push(b);
        return b;
      });
      linear.set(i, slices);
      return bytes;
    });
    const words = specs.map((s) => Array.from(tsharpWords(s)));
    const integer = Array.from(tsharpWords({ address: 0x170000, format: '8_8_8_8_UINT', width: 4, height: 4 }));
    const records = [
      words[0],
      new Array(8).fill(0),
      words[1],
      words[2],
      words[0],
      words[3],
      words[4],
      words[5],
      words[6],
      integer,
    ];
    const memory = new CountingMemory([{ address: TABLE, bytes: tableBytes(records) }, ...ranges]);
    const { tables } = prepareImageTables(GEN, [{ descriptor: tableVSharp(TABLE, records.length * 32) }], memory, {
      features: device.features,
      limits: device.limits,
      budget: pageBudgetFor(device.limits),
    });
    const [{ table, directory, pages }] = tables;
    expect(table.images.length).toBe(7);
    expect(table.leftOut['integer-format']).toBe(1);
    const uploaded = await uploadPages(device, pages, table.images, memory, directory.packed);
    expect(uploaded.drawTouched).toBe(1); // the BC1 page stays compressed, touched once

    const probes: Probe[] = [];
    specs.forEach((s, i) => {
      const w = words[i];
      const cube = s.type === 'cube';
      if (cube) for (let f = 0; f < 6; f++) probes.push({ words: w, cube, x: (f + 1) % 4, y: f % 4, s: f, spec: i });
      else if (s.type === '3d')
        for (let z = 0; z < 2; z++) probes.push({ words: w, cube, x: 3 - z, y: 1 + z, s: z, spec: i });
      else
        for (const [x, y] of [
          [0, 0],
          [3, 2],
          [s.width - 1, s.height - 1],
        ])
          probes.push({ words: w, cube, x, y, s: 0, spec: i });
    });
    probes.push({ words: integer, cube: false, x: 1, y: 1, s: 0, spec: null }); // left out: escapes
    probes.push({ words: words[4], cube: false, x: 1, y: 1, s: 0, spec: null }); // a cube in the flat shape: escapes
    probes.push({ words: words[0], cube: true, x: 1, y: 1, s: 0, spec: null }); // a flat image in the cube shape: escapes

    const lookup = lookupWgsl(lowerLookup(), { words: 'words', cube: 'want_cube', load: (i) => `dir[${i}]` });
    const { flat, cube, volume } = pages.budget;
    const decls = [
      ...Array.from({ length: flat }, (_, k) => `@group(0) @binding(${k}) var flat_${k}: ${PAGE_WGSL_TYPE.flat};`),
      ...Array.from(
        { length: cube },
        (_, k) => `@group(0) @binding(${flat + k}) var cube_${k}: ${PAGE_WGSL_TYPE.cube};`,
      ),
      ...Array.from(
        { length: volume },
        (_, k) => `@group(0) @binding(${flat + cube + k}) var vol_${k}: ${PAGE_WGSL_TYPE.volume};`,
      ),
    ];
    const B = flat + cube + volume;
    const cases = (n: number, body: (k: number) => string) =>
      Array.from({ length: n }, (_, k) => `case ${k}u: { ${body(k)} }`).join('\n        ');
    const code = `${decls.join('\n')}
@group(0) @binding(${B}) var samp: sampler;
@group(0) @binding(${B + 1}) var<storage, read> dir: array<u32>;
@group(0) @binding(${B + 2}) var<storage, read> place_map: array<u32>;
@group(0) @binding(${B + 3}) var<storage, read> probes: array<u32>;
@group(0) @binding(${B + 4}) var<storage, read_write> out: array<vec4<u32>>;
${CUBE_DIRECTION_WGSL}
@compute @workgroup_size(8) fn main(@builtin(global_invocation_id) g: vec3u) {
  let p = g.x;
  if (p >= ${probes.length}u) { return; }
  let base = p * ${PROBE_WORDS}u;
  var words: array<u32, 8>;
  for (var k = 0u; k < 8u; k++) { words[k] = probes[base + k]; }
  let want_cube = probes[base + 8u] != 0u;
  ${lookup.statements.join('\n  ')}
  let place = ${lookup.place};
  let at = place * 4u;
  let kind = place_map[at] >> 24u;
  let page = place_map[at] & 0xffffffu;
  let first = place_map[at + 1u];
  let x = probes[base + 9u];
  let y = probes[base + 10u];
  let s = probes[base + 11u];
  var v = vec4f(0.0);
  if (kind == 1u) {
    switch page {
        ${cases(flat, (k) => `v = textureLoad(flat_${k}, vec2u(x, y), first + s, 0);`)}
        default: {}
    }
  } else if (kind == 2u) {
    switch page {
        ${cases(cube, (k) => `v = textureSampleLevel(cube_${k}, samp, cube_direction(s, x, y, f32(textureDimensions(cube_${k}).x)), first, 0.0);`)}
        default: {}
    }
  } else if (kind == 3u) {
    switch page {
        ${cases(volume, (k) => `v = textureLoad(vol_${k}, vec3u(x, y, s), 0);`)}
        default: {}
    }
  }
  out[p * 2u] = bitcast<vec4u>(swizzled(v, place_map[at + 3u]));
  out[p * 2u + 1u] = vec4u(select(0u, 1u, ${lookup.found}), place, ${lookup.hash}, 0u);
}`;
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code });
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const probeWords = new Uint32Array(probes.length * PROBE_WORDS);
    probes.forEach((p, i) => {
      probeWords.set(p.words, i * PROBE_WORDS);
      probeWords.set([p.cube ? 1 : 0, p.x, p.y, p.s], i * PROBE_WORDS + 8);
    });
    const probeBuffer = device.createBuffer({
      size: probeWords.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(probeBuffer, 0, probeWords);
    const size = probes.length * 32;
    const outBuffer = device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    const readback = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const sampler = device.createSampler({ magFilter: 'nearest', minFilter: 'nearest' });
    const views = [...uploaded.views.flat, ...uploaded.views.cube, ...uploaded.views.volume];
    const bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        ...views.map((resource, binding) => ({ binding, resource })),
        { binding: B, resource: sampler },
        { binding: B + 1, resource: { buffer: uploaded.directory } },
        { binding: B + 2, resource: { buffer: uploaded.placeMap } },
        { binding: B + 3, resource: { buffer: probeBuffer } },
        { binding: B + 4, resource: { buffer: outBuffer } },
      ],
    });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(Math.ceil(probes.length / 8));
    pass.end();
    enc.copyBufferToBuffer(outBuffer, 0, readback, 0, size);
    device.queue.submit([enc.finish()]);
    const err = await device.popErrorScope();
    if (err) throw new Error(err.message);
    await readback.mapAsync(GPUMapMode.READ);
    const got = new Uint32Array(readback.getMappedRange().slice(0));
    readback.unmap();

    const decoded = new Map<number, ArrayLike<number>[]>();
    const descs: ImageDescriptor[] = specs.map(tsharp);
    specs.forEach((s, i) =>
      decoded.set(
        i,
        linear.get(i)!.map((l) => decodeImageLevel(descs[i].format, l, s.width, s.height)),
      ),
    );
    let checked = 0;
    probes.forEach((p, i) => {
      const texel = Array.from(new Float32Array(got.buffer, i * 32, 4));
      const [found, place, hash] = got.subarray(i * 8 + 4, i * 8 + 7);
      expect(hash, `probe ${i}: the module's hash`).toBe(hostDescriptorHash(p.words));
      const spec = p.spec ?? 0; // an escape reads the first place
      expect([found, place], `probe ${i}`).toEqual([
        p.spec === null ? 0 : 1,
        p.spec === null ? 0 : table.images.findIndex((im) => im.words.join() === p.words.join()),
      ]);
      const s = specs[spec];
      const at = (p.y * s.width + p.x) * 4;
      const slice = p.spec === null ? 0 : p.s;
      const want = applyDstSel(decoded.get(spec)![slice], at, descs[spec].dst_sel);
      const tolerance = s.format === '5_6_5_UNORM' ? 2 ** -11 : s.format === '32_FLOAT' ? 0 : 1e-6;
      want.forEach((w, c) =>
        expect(
          Math.abs(texel[c] - w),
          `probe ${i} (${s.format}) component ${c}: ${texel} vs ${want}`,
        ).toBeLessThanOrEqual(tolerance),
      );
      checked++;
    });
    expect(checked).toBe(probes.length);
    uploaded.destroy();
    probeBuffer.destroy();
    outBuffer.destroy();
    readback.destroy();
  });
});
