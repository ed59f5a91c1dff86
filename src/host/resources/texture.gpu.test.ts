/**
 * WebGPU resources from T# / S# / V# on a real device (Dawn for Node; SwiftShader without a
 * GPU). No adapter is a failure, not a skip. Images are a few hundred bytes each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gen } from '../../isa/gen.ts';
import {
  DST_SEL,
  ImageType,
  decodeImageDescriptor,
  decodeSamplerDescriptor,
  encodeImageDescriptor,
  encodeSamplerDescriptor,
  unifiedFormatTable,
  type DstSel,
  type ImageDescriptor,
} from '../descriptors/index.ts';
import { decodeBcImage } from '../texels/bc.ts';
import { decodeImageLevel } from '../texels/formats.ts';
import { surfaceLayout, writeSurface } from '../texels/surface.ts';
import { getNodeGpu, type NodeGpu } from '../gpu-node.ts';
import { createGuestBuffer } from './buffer.ts';
import { ResourceError } from './errors.ts';
import { webgpuSampler } from './sampler.ts';
import { createGuestTexture, swizzleWgsl, type GuestTexture } from './texture.ts';

const GEN = Gen.GFX10_3;
const BASE = 0x10000;

function formatValue(name: string): number {
  for (const [v, info] of unifiedFormatTable(GEN)) if (info.name === name) return v;
  throw new Error(`no ${name} in the gfx10.3 table`);
}

interface TSpec {
  format: string;
  width: number;
  height: number;
  levels?: number;
  swMode?: number;
  dstSel?: readonly [DstSel, DstSel, DstSel, DstSel];
  type?: keyof typeof ImageType;
  /** DEPTH: the last layer on gfx10+ (arrays, cubes). */
  depth?: number;
}

function tsharp(t: TSpec): ImageDescriptor {
  const sel = t.dstSel ?? ['x', 'y', 'z', 'w'];
  const levels = t.levels ?? 1;
  return decodeImageDescriptor(
    GEN,
    encodeImageDescriptor(GEN, {
      base_address: BASE / 256,
      width_lo: (t.width - 1) & 3,
      width_hi: (t.width - 1) >> 2,
      height: t.height - 1,
      format: formatValue(t.format),
      dst_sel_x: DST_SEL[sel[0]],
      dst_sel_y: DST_SEL[sel[1]],
      dst_sel_z: DST_SEL[sel[2]],
      dst_sel_w: DST_SEL[sel[3]],
      base_level: 0,
      last_level: levels - 1,
      max_mip: levels - 1,
      type: ImageType[t.type ?? '2d'],
      sw_mode: t.swMode ?? 0,
      depth: t.depth ?? 0,
    }),
  );
}

/** Guest bytes holding `linear[level]` (row-major elements, slice `slice`) laid out as the T# says. */
function guestImage(
  desc: ImageDescriptor,
  linear: readonly Uint8Array[],
  slice = (_level: number) => 0,
): { address: number; bytes: Uint8Array } {
  const layout = surfaceLayout(GEN, desc);
  const bytes = new Uint8Array(layout.size);
  linear.forEach((l, i) => writeSurface(layout, bytes, desc.mip_count > 1 ? i : 0, slice(i), l));
  return { address: layout.base, bytes };
}

/** Runs `body` over a w x h grid and returns the vec4 each invocation stores (as raw words). */
async function readTexels(
  gpu: NodeGpu,
  decls: string,
  body: string,
  resources: GPUBindingResource[],
  w: number,
  h: number,
): Promise<ArrayBuffer> {
  const { device } = gpu;
  const code = `${decls}
@group(0) @binding(9) var<storage, read_write> out: array<vec4<u32>>;
@compute @workgroup_size(4, 4) fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= ${w}u || g.y >= ${h}u) { return; }
  ${body}
}`;
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const size = w * h * 16;
  const out = device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const rb = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      ...resources.map((resource, binding) => ({ binding, resource })),
      { binding: 9, resource: { buffer: out } },
    ],
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(w / 4), Math.ceil(h / 4));
  pass.end();
  enc.copyBufferToBuffer(out, 0, rb, 0, size);
  device.queue.submit([enc.finish()]);
  const err = await device.popErrorScope();
  if (err) throw new Error(err.message);
  await rb.mapAsync(GPUMapMode.READ);
  const r = rb.getMappedRange().slice(0);
  rb.unmap();
  out.destroy();
  rb.destroy();
  return r;
}

/** Texels of level `level` of a float texture through textureLoad, with the module's swizzle. */
async function loadFloat(gpu: NodeGpu, t: GuestTexture, level: number, w: number, h: number): Promise<Float32Array> {
  const r = await readTexels(
    gpu,
    '@group(0) @binding(0) var t: texture_2d<f32>;',
    `let v = textureLoad(t, g.xy, ${level});
  out[g.y * ${w}u + g.x] = bitcast<vec4<u32>>(${swizzleWgsl(t.swizzle, 'v')});`,
    [t.view],
    w,
    h,
  );
  return new Float32Array(r);
}

/** An independent DST_SEL applied to CPU-decoded RGBA. */
function applyDstSel(rgba: ArrayLike<number>, sel: readonly DstSel[]): Float32Array {
  const out = new Float32Array(rgba.length);
  const idx: Record<DstSel, number> = { x: 0, y: 1, z: 2, w: 3, '0': -1, '1': -2 };
  for (let i = 0; i < rgba.length; i += 4)
    for (let c = 0; c < 4; c++) {
      const k = idx[sel[c]];
      out[i + c] = k === -1 ? 0 : k === -2 ? 1 : rgba[i + k];
    }
  return out;
}

// ---- hand-built BC blocks

/** A BC1 block: two RGB565 endpoints and 16 2-bit indices (texel 0 in the low bits). */
function bc1Block(c0: number, c1: number, indices: readonly number[]): number[] {
  let bits = 0;
  indices.forEach((v, i) => (bits |= v << (2 * i)));
  bits >>>= 0;
  return [c0 & 0xff, c0 >> 8, c1 & 0xff, c1 >> 8, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, bits >>> 24];
}
const RAMP = [0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2];

/** A BC7 block of mode `m` (the lowest set bit of byte 0) with the remaining bits from a fixed LCG. */
function bc7Block(m: number, seed: number): number[] {
  const b: number[] = [];
  let x = seed >>> 0;
  for (let i = 0; i < 16; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    b.push(x >>> 24);
  }
  b[0] = ((b[0] << (m + 1)) & 0xff) | (1 << m);
  return b;
}

describe('WebGPU resources from descriptors (Dawn for Node)', () => {
  let gpu: NodeGpu;

  beforeAll(async () => {
    gpu = await getNodeGpu({
      requiredFeatures: ['texture-compression-bc', 'texture-component-swizzle' as GPUFeatureName],
    });
  });
  afterAll(() => gpu?.device.destroy());

  it('BC1 kept compressed (with the draw-touch) reads in compute as bc.ts decodes it, both levels', async () => {
    // 8x8, 2 levels: 2x2 blocks, then 1 block.
    const level0 = new Uint8Array([
      ...bc1Block(0xf800, 0x001f, RAMP), // red..blue, 4 colours
      ...bc1Block(0xffff, 0x07e0, RAMP.slice().reverse()), // white..green
      // c0 < c1: 3 colours + transparent black; endpoint sums even, so the midpoint is exact (see below).
      ...bc1Block(0x0000, 0x8410, RAMP),
      ...bc1Block(0x8410, 0x8410, [0, 1, 2, 3, 3, 2, 1, 0, 0, 0, 3, 3, 1, 1, 2, 2]), // c0 == c1
    ]);
    const level1 = new Uint8Array(bc1Block(0xf81f, 0x07e0, RAMP)); // magenta..green: exact thirds
    const desc = tsharp({ format: 'BC1_UNORM', width: 8, height: 8, levels: 2 });
    const t = await createGuestTexture(gpu.device, desc, guestImage(desc, [level0, level1]));
    expect(t.format).toBe('bc1-rgba-unorm');
    expect(t.upload).toBe('direct');
    expect(t.compressedOnDevice).toBe(true);
    expect(t.drawTouched).toBe(true);
    for (const [level, bytes, n] of [
      [0, level0, 8],
      [1, level1, 4],
    ] as const) {
      const cpu = decodeBcImage('bc1', bytes, n, n) as Uint8Array;
      const got = await loadFloat(gpu, t, level, n, n);
      expect(
        Array.from(got, (v) => Math.round(v * 255)),
        `level ${level}`,
      ).toEqual(Array.from(cpu));
      // The float decode the module sees on the CPU path is the same.
      const cpuF = decodeImageLevel(desc.format, bytes, n, n);
      expect(Array.from(got)).toEqual(Array.from(cpuF));
    }
    t.texture.destroy();
  });

  it('BC1 interpolants that are not whole numbers: SwiftShader and bc.ts round differently (at most 1 apart)', async () => {
    // Block 0, 3-colour: red and blue, the midpoint is 127.5 in R and B.
    // Block 1, 4-colour: (173, 121, 107) and (16, 69, 165), thirds such as 120.67 and 145.67.
    const blocks = new Uint8Array([...bc1Block(0x001f, 0xf800, RAMP), ...bc1Block(0xabcd, 0x1234, RAMP)]);
    const desc = tsharp({ format: 'BC1_UNORM', width: 8, height: 4 });
    const t = await createGuestTexture(gpu.device, desc, guestImage(desc, [blocks]));
    const cpu = decodeBcImage('bc1', blocks, 8, 4) as Uint8Array;
    const got = Array.from(await loadFloat(gpu, t, 0, 8, 4), (v) => Math.round(v * 255));
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 8; x++) {
        const index = RAMP[y * 4 + (x % 4)];
        const interpolated = x < 4 ? index === 2 : index >= 2;
        for (let c = 0; c < 4; c++) {
          const k = (y * 8 + x) * 4 + c;
          if (interpolated) expect(Math.abs(got[k] - cpu[k]), `(${x}, ${y}).${c}`).toBeLessThanOrEqual(1);
          else expect(got[k], `(${x}, ${y}).${c}`).toBe(cpu[k]);
        }
      }
    t.texture.destroy();
  });

  it('without the draw-touch, SwiftShader compute reads zeros from BC (the quirk the touch works around)', async () => {
    const blocks = new Uint8Array(bc1Block(0xf81f, 0x07e0, RAMP));
    const desc = tsharp({ format: 'BC1_UNORM', width: 4, height: 4 });
    const t = await createGuestTexture(gpu.device, desc, guestImage(desc, [blocks]), { drawTouch: 'never' });
    expect(t.drawTouched).toBe(false);
    const got = await loadFloat(gpu, t, 0, 4, 4);
    const info = gpu.adapter.info;
    const swiftShader = /swiftshader/i.test(`${info.vendor} ${info.architecture} ${info.device} ${info.description}`);
    const texels = Array.from(got, (v) => Math.round(v * 255));
    const decoded = Array.from(decodeBcImage('bc1', blocks, 4, 4));
    // On SwiftShader the quirk shows as zeros in a fresh process; in a process whose earlier
    // tests drew with BC textures, the untouched one may already read right, and a right read's
    // interpolated texels (indices 2 and 3 of this 4-colour block) may be 1 from bc.ts's: the test
    // before shows SwiftShader interpolating at its own precision. Either is the quirk's footprint;
    // anything else is a wrong decode, and the message says what was read. (Until 2026-12-02 this
    // compared a right read exactly; it failed twice in full runs, what it read not recorded.)
    // Texel k / 4 of the block is index RAMP[k / 4]: 2 and 3 are the interpolated colours.
    const readsRight = texels.every((v, k) => Math.abs(v - decoded[k]!) <= (RAMP[Math.floor(k / 4)]! >= 2 ? 1 : 0));
    if (swiftShader)
      expect(got.every((v) => v === 0) || readsRight, `read ${texels.join(' ')}; bc.ts ${decoded.join(' ')}`).toBe(
        true,
      );
    else expect(readsRight, `read ${texels.join(' ')}; bc.ts ${decoded.join(' ')}`).toBe(true);
    t.texture.destroy();
  });

  it('BC7 (modes 6, 5, 3, 1) kept compressed reads as bc.ts decodes it', async () => {
    const blocks = new Uint8Array([...bc7Block(6, 1), ...bc7Block(5, 2), ...bc7Block(3, 3), ...bc7Block(1, 4)]);
    const desc = tsharp({ format: 'BC7_UNORM', width: 8, height: 8 });
    const t = await createGuestTexture(gpu.device, desc, guestImage(desc, [blocks]));
    expect(t.format).toBe('bc7-rgba-unorm');
    const cpu = decodeBcImage('bc7', blocks, 8, 8) as Uint8Array;
    const got = await loadFloat(gpu, t, 0, 8, 8);
    expect(Array.from(got, (v) => Math.round(v * 255))).toEqual(Array.from(cpu));
    t.texture.destroy();
  });

  it('BC1 decoded on the CPU (keepCompressed false) gives the same texels', async () => {
    const blocks = new Uint8Array(bc1Block(0xf800, 0x07e0, RAMP));
    const desc = tsharp({ format: 'BC1_UNORM', width: 4, height: 4 });
    const t = await createGuestTexture(gpu.device, desc, guestImage(desc, [blocks]), { keepCompressed: false });
    expect(t.format).toBe('rgba8unorm');
    expect(t.upload).toBe('unorm8');
    const got = await loadFloat(gpu, t, 0, 4, 4);
    expect(Array.from(got, (v) => Math.round(v * 255))).toEqual(Array.from(decodeBcImage('bc1', blocks, 4, 4)));
    t.texture.destroy();
  });

  for (const viewSwizzle of [false, true])
    it(`rgba8unorm (256B_S tiled) and r32float with DST_SEL, swizzle ${viewSwizzle ? 'in the view' : 'in the WGSL'}`, async () => {
      // rgba8unorm, 4x4, BGRA-style DST_SEL (z, y, x, 1).
      const rgba = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 0xff);
      const sel8 = ['z', 'y', 'x', '1'] as const;
      const d8 = tsharp({ format: '8_8_8_8_UNORM', width: 4, height: 4, swMode: 1, dstSel: sel8 });
      const t8 = await createGuestTexture(gpu.device, d8, guestImage(d8, [rgba]), { viewSwizzle });
      expect(t8.format).toBe('rgba8unorm');
      expect(t8.swizzleInView).toBe(viewSwizzle);
      const want8 = applyDstSel(decodeImageLevel(d8.format, rgba, 4, 4), sel8);
      const got8 = await loadFloat(gpu, t8, 0, 4, 4);
      for (let i = 0; i < want8.length; i++) expect(Math.abs(got8[i] - want8[i]), `rgba8 ${i}`).toBeLessThan(1e-6);

      // r32float, 4x4, DST_SEL (0, x, 1, x).
      const f = Float32Array.from({ length: 16 }, (_, i) => (i - 5.25) * 1.5e3);
      f[3] = -0;
      f[7] = 1e-30;
      const sel32 = ['0', 'x', '1', 'x'] as const;
      const d32 = tsharp({ format: '32_FLOAT', width: 4, height: 4, dstSel: sel32 });
      const t32 = await createGuestTexture(gpu.device, d32, guestImage(d32, [new Uint8Array(f.buffer)]), {
        viewSwizzle,
      });
      expect(t32.format).toBe('r32float');
      const want32 = applyDstSel(decodeImageLevel(d32.format, new Uint8Array(f.buffer), 4, 4), sel32);
      const got32 = await loadFloat(gpu, t32, 0, 4, 4);
      expect(new Uint32Array(got32.buffer)).toEqual(new Uint32Array(want32.buffer));
      t8.texture.destroy();
      t32.texture.destroy();
    });

  it('a format without a direct mapping (5_6_5_UNORM) is decoded on the CPU into rgba16float', async () => {
    const px = Uint8Array.from({ length: 32 }, (_, i) => (i * 59 + 3) & 0xff);
    const desc = tsharp({ format: '5_6_5_UNORM', width: 4, height: 4 });
    const t = await createGuestTexture(gpu.device, desc, guestImage(desc, [px]));
    expect(t.upload).toBe('float');
    expect(t.format).toBe('rgba16float');
    const want = decodeImageLevel(desc.format, px, 4, 4);
    const got = await loadFloat(gpu, t, 0, 4, 4);
    for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i]), `${i}`).toBeLessThanOrEqual(2 ** -11);
    t.texture.destroy();
  });

  it('a cube T# (6 layers) becomes a 2D texture of 6 layers with a cube view, each face uploaded', async () => {
    const faces = Array.from({ length: 6 }, (_, f) => Uint8Array.from({ length: 64 }, (_, i) => (f * 40 + i) & 0xff));
    const desc = tsharp({ format: '8_8_8_8_UNORM', width: 4, height: 4, type: 'cube', depth: 5 });
    const t = await createGuestTexture(
      gpu.device,
      desc,
      guestImage(desc, faces, (i) => i),
    );
    expect([t.dimension, t.viewDimension]).toEqual(['2d', 'cube']);
    expect(t.texture.depthOrArrayLayers).toBe(6);
    const faces2d = t.texture.createView({ dimension: '2d-array' });
    const r = await readTexels(
      gpu,
      '@group(0) @binding(0) var t: texture_2d_array<f32>;',
      `let v = textureLoad(t, vec2u(g.x % 4u, g.y), g.x / 4u, 0);
  out[g.y * 24u + g.x] = bitcast<vec4<u32>>(v);`,
      [faces2d],
      24,
      4,
    );
    const got = new Float32Array(r);
    for (let f = 0; f < 6; f++)
      for (let y = 0; y < 4; y++)
        for (let x = 0; x < 4; x++)
          for (let c = 0; c < 4; c++)
            expect(Math.round(got[(y * 24 + f * 4 + x) * 4 + c] * 255)).toBe(faces[f][(y * 4 + x) * 4 + c]);
    t.texture.destroy();
  });

  it('a LESS comparison sampler from an S# on a depth32float texture from a 32_FLOAT T#', async () => {
    const depth = Float32Array.from({ length: 16 }, (_, i) => i / 15);
    depth[5] = 0.5; // exactly the reference: LESS fails
    const desc = tsharp({ format: '32_FLOAT', width: 4, height: 4 });
    const t = await createGuestTexture(gpu.device, desc, guestImage(desc, [new Uint8Array(depth.buffer)]), {
      asDepth: true,
    });
    expect(t.format).toBe('depth32float');
    expect(t.sampleType).toBe('depth');
    const s = webgpuSampler(
      decodeSamplerDescriptor(GEN, encodeSamplerDescriptor(GEN, { depth_compare_func: 1, clamp_x: 2, clamp_y: 2 })),
    );
    expect(s.comparison.compare).toBe('less');
    const sampler = gpu.device.createSampler(s.comparison);
    const r = await readTexels(
      gpu,
      '@group(0) @binding(0) var t: texture_depth_2d;\n@group(0) @binding(1) var s: sampler_comparison;',
      `let uv = (vec2f(g.xy) + 0.5) / 4.0;
  let c = textureSampleCompareLevel(t, s, uv, 0.5);
  out[g.y * 4u + g.x] = vec4<u32>(bitcast<u32>(c), 0u, 0u, 0u);`,
      [t.view, sampler],
      4,
      4,
    );
    const got = Array.from({ length: 16 }, (_, i) => new Float32Array(r)[i * 4]);
    expect(got).toEqual(Array.from(depth, (d) => (0.5 < d ? 1 : 0)));
    t.texture.destroy();
  });

  it('refuses what it cannot bind, by name', async () => {
    const desc = tsharp({ format: '8_8_8_8_UINT', width: 4, height: 4 });
    const mem = guestImage(desc, [new Uint8Array(64)]);
    const err = await createGuestTexture(gpu.device, desc, mem, { expect: 'f32' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourceError);
    expect((err as ResourceError).code).toBe('sample-type-mismatch');
    const msaa = tsharp({ format: '8_8_8_8_UNORM', width: 4, height: 4, type: '2d_msaa' });
    const e2 = await createGuestTexture(gpu.device, msaa, mem).catch((e: unknown) => e);
    expect((e2 as ResourceError).code).toBe('unsupported-type');
    const tiled = tsharp({ format: '8_8_8_8_UNORM', width: 4, height: 4, swMode: 4 }); // SW_4KB_Z: not modelled on gfx10
    const e3 = await createGuestTexture(gpu.device, tiled, mem).catch((e: unknown) => e);
    expect((e3 as ResourceError).code).toBe('unmodelled-layout');
  });

  it('refuses an unmodelled format as a format, and more levels than the size allows', async () => {
    const mem = { address: BASE, bytes: new Uint8Array(4096) };
    const invalid = decodeImageDescriptor(
      GEN,
      encodeImageDescriptor(GEN, { base_address: BASE / 256, width_hi: 0, width_lo: 3, height: 3, type: 9, format: 0 }),
    );
    const e1 = await createGuestTexture(gpu.device, invalid, mem).catch((e: unknown) => e);
    expect((e1 as ResourceError).code).toBe('unbindable-format');
    const deep = tsharp({ format: '8_8_8_8_UNORM', width: 4, height: 4, levels: 4 });
    const e2 = await createGuestTexture(gpu.device, deep, mem).catch((e: unknown) => e);
    expect((e2 as ResourceError).code).toBe('bad-levels');
  });

  it('createGuestBuffer pads to words and uploads the bytes', async () => {
    const b = createGuestBuffer(gpu.device, new Uint8Array([1, 2, 3, 4, 5, 6]));
    expect(b.size).toBe(8);
    const rb = gpu.device.createBuffer({ size: 8, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const enc = gpu.device.createCommandEncoder();
    enc.copyBufferToBuffer(b, 0, rb, 0, 8);
    gpu.device.queue.submit([enc.finish()]);
    await rb.mapAsync(GPUMapMode.READ);
    expect([...new Uint8Array(rb.getMappedRange())]).toEqual([1, 2, 3, 4, 5, 6, 0, 0]);
    rb.unmap();
    b.destroy();
    rb.destroy();
  });
});
