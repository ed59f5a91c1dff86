/**
 * MIMG in the reference interpreter (src/interp/image.ts, image-sample.ts) on gfx1030: each
 * lane reads 8 input dwords (v1..v8) through an ADD_TID V#, runs one image instruction with
 * the T# in s[0:7] and the S# in s[8:11], and stores v9..v12 through another V#.
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../isa/asm.ts';
import { Gen, targetFor } from '../isa/gen.ts';
import {
  decodeImageDescriptor,
  bufferLayout,
  encodeBufferDescriptor,
  imageLayout,
  type BufferFieldName,
  encodeImageDescriptor,
  encodeSamplerDescriptor,
  type ImageFieldName,
  type SamplerFieldName,
} from '../host/descriptors/index.ts';
import { surfaceLayout, writeSurface } from '../host/texels/index.ts';
import { replayCommand } from '../cli/replay-command.ts';
import { runSetup } from './dispatch.ts';
import { InterpRefusal } from './execute.ts';
import { GuestMemory } from './memory.ts';
import { depthCompare, wrapIndex } from './image-sample.ts';

let G: Gen = Gen.GFX10_3;
const CODE = 0x10000000;
const TABLE = 0x20000000;
const IN = 0x30000000;
const OUT = 0x30010000;
const IMG = 0x40000000;

const f32 = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0];
const asF32 = (b: number): number => new Float32Array(new Uint32Array([b]).buffer)[0];

interface Img {
  readonly format: number;
  readonly width: number;
  readonly height: number;
  readonly type?: number;
  readonly layers?: number;
  readonly mips?: number;
  /** Level 0 (and further levels), linear row-major element bytes. */
  readonly levels: readonly Uint8Array[];
  readonly extra?: Partial<Record<ImageFieldName, number>>;
}

/** Drops the fields a generation's layout does not have (gfx11 has no RESOURCE_LEVEL). */
function only<T extends string>(
  names: readonly { name: string }[],
  o: Partial<Record<T, number>>,
): Partial<Record<T, number>> {
  const have = new Set(names.map((f) => f.name));
  return Object.fromEntries(Object.entries(o).filter(([k]) => have.has(k))) as Partial<Record<T, number>>;
}

function tsharp(img: Img): number[] {
  return [
    ...encodeImageDescriptor(
      G,
      only<ImageFieldName>(imageLayout(G).fields, {
        base_address: IMG / 256,
        format: img.format,
        width_lo: (img.width - 1) & 3,
        width_hi: (img.width - 1) >> 2,
        height: img.height - 1,
        dst_sel_x: 4,
        dst_sel_y: 5,
        dst_sel_z: 6,
        dst_sel_w: 7,
        type: img.type ?? 9,
        depth: (img.layers ?? 1) - 1,
        sw_mode: 0,
        resource_level: 1,
        max_mip: (img.mips ?? 1) - 1,
        last_level: (img.mips ?? 1) - 1,
        ...img.extra,
      }),
    ),
  ];
}

function run(
  asm: string,
  img: Img,
  sampler: Partial<Record<SamplerFieldName, number>>,
  lanes: readonly (readonly number[])[],
  cpu = 'gfx1030',
): { out: number[][]; memory: GuestMemory; image: Uint8Array } {
  const target = targetFor(cpu, false);
  G = target.gen;
  const code = assembleProgram(
    target,
    `s_load_dwordx8 s[16:23], s[12:13], 0x0
     s_waitcnt lgkmcnt(0)
     buffer_load_dwordx4 v[1:4], off, s[16:19], 0
     buffer_load_dwordx4 v[5:8], off, s[16:19], 0 offset:16
     s_waitcnt vmcnt(0)
     ${asm}
     s_waitcnt vmcnt(0)
     buffer_store_dwordx4 v[9:12], off, s[20:23], 0
     s_endpgm`,
  ).words;
  const t = tsharp(img);
  const layout = surfaceLayout(G, decodeImageDescriptor(G, t));
  const image = new Uint8Array(layout.size);
  for (let s = 0; s < layout.slices; s++)
    img.levels.forEach((bytes, level) => {
      const sub = layout.subresource(level, s);
      const n = sub.elementsWide * sub.elementsHigh * layout.bytesPerElement;
      writeSurface(layout, image, level, s, bytes.subarray(s * n, (s + 1) * n));
    });
  const v = (address: number, stride: number) =>
    encodeBufferDescriptor(
      G,
      only<BufferFieldName>(bufferLayout(G).fields, {
        base_address: address,
        stride,
        num_records: 64,
        add_tid_enable: 1,
        format: 22,
        dst_sel_x: 4,
        dst_sel_y: 5,
        dst_sel_z: 6,
        dst_sel_w: 7,
        resource_level: 1,
        oob_select: 1,
      }),
    );
  const input = new Uint32Array(32 * 8);
  lanes.forEach((l, i) => input.set(l, i * 8));
  const memory = new GuestMemory([
    { address: CODE, bytes: new Uint8Array(code.buffer) },
    { address: TABLE, bytes: new Uint8Array(Uint32Array.from([...v(IN, 32), ...v(OUT, 16)]).buffer) },
    { address: IN, bytes: new Uint8Array(input.buffer) },
    { address: OUT, bytes: new Uint8Array(32 * 16) },
    { address: IMG, bytes: image },
  ]);
  const s = [...encodeSamplerDescriptor(G, { max_lod: 0xf00, ...sampler })];
  const ud = [...t, ...s, TABLE, 0, 0, 0];
  runSetup(
    {
      kind: 'dispatch',
      target,
      programAddress: CODE,
      rsrc2: 14 << 1,
      userData: ud,
      numThreads: [lanes.length, 1, 1],
      grid: [1, 1, 1],
    },
    memory,
  );
  const out = lanes.map((_, i) => [0, 1, 2, 3].map((k) => memory.read32(OUT + 16 * i + 4 * k)));
  return { out, memory, image: memory.read(IMG, image.length) };
}

/** A 4x4 R32_FLOAT image (format 22) with texel (x, y) = 10 * y + x. */
const R32_4x4: Img = {
  format: 22,
  width: 4,
  height: 4,
  levels: [new Uint8Array(new Float32Array(16).map((_, i) => 10 * Math.floor(i / 4) + (i % 4)).buffer)],
};
const SAMPLE = 'image_sample v9, v[1:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
const SAMPLE_LZ = 'image_sample_lz v9, v[1:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
const at = (u: number, v: number): number[] => [f32(u), f32(v)];
const firsts = (out: number[][]): number[] => out.map((o) => asF32(o[0]));

describe('image_load / image_store / image_get_resinfo', () => {
  it('stores RGBA8 UNORM texels from floats and loads them back (rounding to nearest)', () => {
    const img: Img = { format: 56, width: 4, height: 2, levels: [new Uint8Array(32)] };
    const lanes = [
      [1, 0, 0, 0, f32(1), f32(0.5), f32(0), f32(0.2)],
      [3, 1, 0, 0, f32(2), f32(-1), f32(0.25), f32(1)],
      [4, 0, 0, 0, f32(1), f32(1), f32(1), f32(1)], // x = 4: out of range, dropped
    ];
    const { out, image } = run(
      `image_store v[5:8], v[1:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
       s_waitcnt vmcnt(0)
       image_load v[9:12], v[1:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm`,
      img,
      {},
      lanes,
    );
    expect([...image.subarray(4, 8)]).toEqual([255, 128, 0, 51]);
    expect([...image.subarray(256 + 12, 256 + 16)]).toEqual([255, 0, 64, 255]); // row pitch 64 texels
    expect(out[0].map(asF32)).toEqual([1, Math.fround(128 / 255), 0, Math.fround(51 / 255)]);
    expect(out[2]).toEqual([0, 0, 0, 0]); // out-of-range load reads 0
  });

  it('packs d16 data two halves a VGPR on gfx10.3 (store and load)', () => {
    const img: Img = { format: 56, width: 4, height: 1, levels: [new Uint8Array(16)] };
    const { out, image } = run(
      `image_store v[5:6], v1, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D unorm d16
       s_waitcnt vmcnt(0)
       image_load v[9:10], v1, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D unorm d16`,
      { ...img, type: 8 },
      {},
      [[2, 0, 0, 0, 0x3c00 | (0x3800 << 16), 0x0000 | (0x3c00 << 16)]], // 1.0, 0.5, 0, 1.0
    );
    expect([...image.subarray(8, 12)]).toEqual([255, 128, 0, 255]);
    expect(out[0].slice(0, 2)).toEqual([0x3c00 | (0x3804 << 16), 0x3c00 << 16]); // 128/255 -> f16 0x3804
  });

  it('loads from a mip level and an array slice, and reports resinfo per mip', () => {
    // 4x4 2D array of 2 layers, 2 mips, R32_UINT (format 20): texel = 1000*layer + 100*level + 10*y + x;
    // levels[l] holds both slices back to back.
    const levels = [0, 1].map((level) => {
      const w = 4 >> level;
      return new Uint8Array(
        Uint32Array.from({ length: 2 * w * w }, (_, i) => {
          const layer = Math.floor(i / (w * w));
          const j = i % (w * w);
          return 1000 * layer + 100 * level + 10 * Math.floor(j / w) + (j % w);
        }).buffer,
      );
    });
    const img: Img = { format: 20, width: 4, height: 4, type: 13, layers: 2, mips: 2, levels };
    const { out } = run(
      `image_load_mip v9, v[1:4], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm
       image_get_resinfo v[10:13], v5, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY unorm`,
      img,
      {},
      [
        [3, 2, 1, 0, 0],
        [1, 1, 0, 1, 1],
        [1, 1, 1, 2, 2], // mip 2 is past the view: 0, and resinfo gives zero sizes
      ],
    );
    expect(out.map((o) => o[0])).toEqual([1023, 111, 0]);
    expect(out[0].slice(1)).toEqual([4, 4, 2]);
    expect(out[1].slice(1)).toEqual([2, 2, 2]);
    expect(out[2].slice(1)).toEqual([0, 0, 0]);
  });

  it("answers resinfo for a cube from the T# alone (face size, level count); refuses the cube's z", () => {
    // 8x8 faces, 3 levels (gfx10.3 DEPTH = the last face, 5); no texels are needed.
    const cube: Img = { format: 20, width: 8, height: 8, type: 11, layers: 6, mips: 3, levels: [] };
    const { out } = run(
      `image_get_resinfo v[9:10], v1, s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_CUBE unorm
       image_get_resinfo v11, v1, s[0:7] dmask:0x8 dim:SQ_RSRC_IMG_CUBE unorm`,
      cube,
      {},
      [[0], [1], [2], [3]], // mip 3 is past the 3 levels: zero sizes
    );
    expect(out.map((o) => o.slice(0, 3))).toEqual([
      [8, 8, 3],
      [4, 4, 3],
      [2, 2, 3],
      [0, 0, 3],
    ]);
    expect(() =>
      run('image_get_resinfo v[9:12], v1, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_CUBE unorm', cube, {}, [[0]]),
    ).toThrow(/a cube's resinfo z \(its face or cube count\) is not modelled/);
  });
});

describe('image_sample', () => {
  it('point-samples texel centres and edges under each wrap mode', () => {
    const coords = [at(0.125, 0.125), at(0.875, 0.625), at(-0.125, 0.125), at(1.125, 0.375), at(-0.375, 0.125)];
    const expectFor: Record<number, number[]> = {
      0: [0, 23, 3, 10, 2], // wrap: -0.5 -> texel 3, 4.5 -> texel 0, -1.5 -> texel 2
      1: [0, 23, 0, 13, 1], // mirror: -1 -> 0, 4 -> 3, -2 -> 1
      2: [0, 23, 0, 13, 0], // clamp_last_texel
      3: [0, 23, 0, 13, 1], // mirror_once_last_texel
      6: [0, 23, 0, 0, 0], // clamp_border, transparent black
      7: [0, 23, 0, 0, 1], // mirror_once_border: 4 -> border, -2 -> 1
    };
    for (const [mode, want] of Object.entries(expectFor)) {
      const { out } = run(SAMPLE_LZ, R32_4x4, { clamp_x: Number(mode), clamp_y: Number(mode) }, coords);
      expect(firsts(out), `clamp ${mode}`).toEqual(want);
    }
    const white = run(SAMPLE_LZ, R32_4x4, { clamp_x: 6, clamp_y: 6, border_color_type: 2 }, coords);
    expect(firsts(white.out)).toEqual([0, 23, 1, 1, 1]);
  });

  it('filters bilinearly between texel centres and at the edges', () => {
    const coords = [at(0.125, 0.125), at(0.25, 0.125), at(0.25, 0.25), at(0, 0.125), at(0.3125, 0.125)];
    const lin = { xy_mag_filter: 1, xy_min_filter: 1 };
    expect(firsts(run(SAMPLE_LZ, R32_4x4, { ...lin, clamp_x: 2, clamp_y: 2 }, coords).out)).toEqual([
      0, 0.5, 5.5, 0, 0.75,
    ]);
    // wrap: u = 0 blends texel 3 and texel 0 equally
    expect(firsts(run(SAMPLE_LZ, R32_4x4, { ...lin }, coords).out)[3]).toBe(1.5);
    // clamp_border black: half of texel 0 and half border
    expect(firsts(run(SAMPLE_LZ, R32_4x4, { ...lin, clamp_x: 6, clamp_y: 2 }, coords).out)[3]).toBe(0);
  });

  it('selects mips by the implicit quad LOD, by _l, and adds _b (mip filter point and linear)', () => {
    const lv0 = new Float32Array(16).fill(1);
    const lv1 = new Float32Array(4).fill(3);
    const img: Img = {
      format: 22,
      width: 4,
      height: 4,
      mips: 2,
      levels: [lv0, lv1].map((a) => new Uint8Array(a.buffer)),
    };
    // a quad stepping 2 texels in x and y: rho 2, LOD 1
    const quad = [at(0.125, 0.125), at(0.625, 0.125), at(0.125, 0.625), at(0.625, 0.625)];
    expect(firsts(run(SAMPLE, img, { mip_filter: 1 }, quad).out)).toEqual([3, 3, 3, 3]);
    expect(firsts(run(SAMPLE, img, { mip_filter: 0 }, quad).out)).toEqual([1, 1, 1, 1]);
    const l = (lod: number) => [f32(0.5), f32(0.5), f32(lod)];
    const SL = 'image_sample_l v9, v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    expect(firsts(run(SL, img, { mip_filter: 2 }, [l(0), l(0.25), l(1), l(7)]).out)).toEqual([1, 1.5, 3, 3]);
    expect(firsts(run(SL, img, { mip_filter: 2, max_lod: 0x40 }, [l(1)]).out)).toEqual([1.5]); // MAX_LOD 0.25
    const SB = 'image_sample_b v9, v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    const b = (bias: number, u: number) => [f32(bias), f32(u), f32(0.125)];
    expect(
      firsts(run(SB, img, { mip_filter: 1 }, [b(-1, 0.125), b(-1, 0.625), b(-1, 0.125), b(-1, 0.625)]).out),
    ).toEqual([1, 1, 1, 1]);
  });

  it('compares depth before filtering, for each of the eight functions', () => {
    const SC = 'image_sample_c_lz v9, v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    const d = new Float32Array(16).fill(0.5);
    d[1] = 0.25;
    const img: Img = { format: 22, width: 4, height: 4, levels: [new Uint8Array(d.buffer)] };
    const refs = [0.25, 0.5, 0.75].map((r) => [f32(r), f32(0.125), f32(0.125)]);
    const want = [
      [0, 0, 0], // never
      [1, 0, 0], // less: ref < texel
      [0, 1, 0],
      [1, 1, 0],
      [0, 0, 1],
      [1, 0, 1],
      [0, 1, 1],
      [1, 1, 1],
    ];
    want.forEach((w, fn) =>
      expect(firsts(run(SC, img, { depth_compare_func: fn }, refs).out), `func ${fn}`).toEqual(w),
    );
    // bilinear between texel 0 (0.5) and texel 1 (0.25) with ref 0.375, LESS: 1 and 0 -> 0.5
    const mid = [[f32(0.375), f32(0.25), f32(0.125)]];
    expect(
      firsts(
        run(SC, img, { depth_compare_func: 1, xy_mag_filter: 1, xy_min_filter: 1, clamp_x: 2, clamp_y: 2 }, mid).out,
      ),
    ).toEqual([0.5]);
  });

  it('gathers the dmask component of the 2x2 footprint in AMD order, with _o offsets', () => {
    const GATHER = (dmask: number) =>
      `image_gather4_lz v[9:12], v[1:2], s[0:7], s[8:11] dmask:0x${dmask} dim:SQ_RSRC_IMG_2D`;
    const rgba = new Uint8Array(64).map((_, i) => (i % 4 === 0 ? i >> 2 : i % 4 === 1 ? 255 - (i >> 2) : 0));
    const img: Img = { format: 56, width: 4, height: 4, levels: [rgba] };
    const p = [at(0.5, 0.5)]; // footprint texels (1,1) (2,1) (1,2) (2,2)
    const n = (o: number[]) => o.map((b) => Math.round(asF32(b) * 255));
    expect(n(run(GATHER(1), img, { clamp_x: 2, clamp_y: 2 }, p).out[0])).toEqual([9, 10, 6, 5]);
    expect(n(run(GATHER(2), img, { clamp_x: 2, clamp_y: 2 }, p).out[0])).toEqual([246, 245, 249, 250]);
    const GO = 'image_gather4_lz_o v[9:12], v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    const off = [[0x3f | (1 << 8), f32(0.5), f32(0.5)]]; // x -1, y +1
    expect(n(run(GO, img, { clamp_x: 2, clamp_y: 2 }, off).out[0])).toEqual([12, 13, 9, 8]);
  });

  it('samples BC1 through the block decoder', () => {
    // one 4x4 block: color0 red (0xf800) > color1 blue (0x001f), texel (1, 0) index 1, the rest index 0
    const block = new Uint8Array([0x00, 0xf8, 0x1f, 0x00, 0x04, 0, 0, 0]);
    const img: Img = { format: 169, width: 4, height: 4, levels: [block] };
    const SMP = 'image_sample_lz v[9:12], v[1:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D';
    const { out } = run(SMP, img, { clamp_x: 2, clamp_y: 2 }, [at(0.125, 0.125), at(0.375, 0.125)]);
    expect(out.map((o) => o.map(asF32))).toEqual([
      [1, 0, 0, 1],
      [0, 0, 1, 1],
    ]);
  });

  it('runs on gfx11 encodings too (point sample, gather4, store / load)', () => {
    const coords = [at(0.125, 0.125), at(0.875, 0.625)];
    expect(firsts(run(SAMPLE_LZ, R32_4x4, { clamp_x: 2, clamp_y: 2 }, coords, 'gfx1100').out)).toEqual([0, 23]);
    const GATHER = 'image_gather4_lz v[9:12], v[1:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    expect(run(GATHER, R32_4x4, { clamp_x: 2, clamp_y: 2 }, [at(0.5, 0.5)], 'gfx1100').out[0].map(asF32)).toEqual([
      21, 22, 12, 11,
    ]);
  });

  it('takes the coordinate count from the T# TYPE on gfx9 (no dim field)', () => {
    const img: Img = { ...R32_4x4, extra: { data_format: 4, num_format: 7, width: 3, pitch: 3 } }; // 32 FLOAT, pitch 4
    const SMP = 'image_sample_lz v9, v[1:2], s[0:7], s[8:11] dmask:0x1';
    const coords = [at(0.125, 0.125), at(0.875, 0.625)];
    expect(firsts(run(SMP, img, { clamp_x: 2, clamp_y: 2 }, coords, 'gfx900').out)).toEqual([0, 23]);
  });

  it('takes the LOD of _d from its derivative VGPRs (d/dx of s, t, then d/dy), per lane', () => {
    // 4x4 level 0 all 1, 2x2 level 1 all 3, mip point: rho = max(|(ds/dx, dt/dx)|, |(ds/dy, dt/dy)|) x 4 texels
    const img: Img = {
      format: 22,
      width: 4,
      height: 4,
      mips: 2,
      levels: [new Float32Array(16).fill(1), new Float32Array(4).fill(3)].map((a) => new Uint8Array(a.buffer)),
    };
    const SD = 'image_sample_d v9, v[1:6], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    const d = (dsdx: number, dtdx: number, dsdy: number, dtdy: number) =>
      [dsdx, dtdx, dsdy, dtdy, 0.375, 0.375].map(f32);
    const lanes = [d(0.25, 0, 0, 0.25), d(0.5, 0, 0, 0.25), d(0.25, 0, 0, 0.5), d(0, 0.125, 0.125, 0)];
    // rho 1 (LOD 0), 2 (LOD 1) from d/dx, 2 from d/dy, 0.5 (LOD -1, clamped to 0)
    expect(firsts(run(SD, img, { mip_filter: 1 }, lanes).out)).toEqual([1, 3, 3, 1]);
  });

  it('samples _l / _lz through an anisotropic S# as one isotropic sample; refuses it with derivatives', () => {
    const aniso = { max_aniso_ratio: 4, xy_mag_filter: 3, xy_min_filter: 2, clamp_x: 2, clamp_y: 2 };
    const p = [at(0.25, 0.125)]; // between texels 0 and 1 of row 0: bilinear 0.5, point texel 1
    expect(firsts(run(SAMPLE_LZ, R32_4x4, aniso, p).out)).toEqual([0.5]); // LOD 0: aniso_bilinear magnifies
    const SL = 'image_sample_l v9, v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    expect(firsts(run(SL, R32_4x4, aniso, [[...p[0], f32(0.5)]]).out)).toEqual([1]); // LOD 0.5: aniso_point
    expect(() => run(SAMPLE, R32_4x4, aniso, p)).toThrow(/anisotropic filtering with an implicit or _d LOD/);
  });

  it('refuses what it does not model, by name, before the dispatch starts', () => {
    const SCD = 'image_sample_cd v9, v[1:6], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D';
    expect(() => run(SCD, R32_4x4, {}, [at(0, 0)])).toThrow(InterpRefusal);
    expect(() => run(SCD, R32_4x4, {}, [at(0, 0)])).toThrow(/coarse \(_cd\)/);
    const bilinearMin = { filter_mode: 1, xy_mag_filter: 1 };
    expect(() => run(SAMPLE_LZ, R32_4x4, bilinearMin, [at(0, 0)])).toThrow(/min reduction filter over more than one/);
  });

  // D009: a reserved value (or an unmodelled setting) is refused only where the sample consults it.
  describe('S# fields only where consulted', () => {
    const centres = [at(0.125, 0.125), at(0.375, 0.625)]; // texels (0, 0) = 0 and (1, 2) = 21
    it('a reserved FILTER_MODE or a min / max reduction over one texel returns that texel', () => {
      for (const filter_mode of [1, 2, 3])
        expect(firsts(run(SAMPLE_LZ, R32_4x4, { filter_mode }, centres).out)).toEqual([0, 21]);
      expect(() => run(SAMPLE_LZ, R32_4x4, { filter_mode: 3, xy_mag_filter: 1 }, centres)).toThrow(
        /S#\.filter_mode is 3, a reserved value, and a footprint of more than one texel consults it/,
      );
      expect(() => run(SAMPLE_LZ, R32_4x4, { filter_mode: 3, mip_filter: 2 }, centres)).toThrow(/S#\.filter_mode is 3/);
    });

    it('a reserved MAX_ANISO_RATIO is refused with an aniso filter only', () => {
      expect(firsts(run(SAMPLE, R32_4x4, { max_aniso_ratio: 7 }, centres).out)).toEqual([0, 21]);
      expect(() => run(SAMPLE_LZ, R32_4x4, { max_aniso_ratio: 7, xy_min_filter: 2 }, centres)).toThrow(
        /S#\.max_aniso_ratio is 7, a reserved value, and an aniso XY filter consults it/,
      );
    });

    it('a register border colour is refused only when a lane reads the border', () => {
      const border = { clamp_x: 6, clamp_y: 6, border_color_type: 3 };
      expect(firsts(run(SAMPLE_LZ, R32_4x4, border, centres).out)).toEqual([0, 21]);
      expect(() => run(SAMPLE_LZ, R32_4x4, border, [...centres, at(1.125, 0.125)])).toThrow(/register border colour/);
    });

    it('FORCE_DEGAMMA (with or without gfx10 SKIP_DEGAMMA) keeps +0 and 1 and refuses other values', () => {
      const zeroOne = [at(0.125, 0.125), at(0.375, 0.125)]; // texels 0 and 1
      expect(firsts(run(SAMPLE_LZ, R32_4x4, { force_degamma: 1 }, zeroOne).out)).toEqual([0, 1]);
      expect(firsts(run(SAMPLE_LZ, R32_4x4, { force_degamma: 1, skip_degamma: 1 }, zeroOne).out)).toEqual([0, 1]);
      expect(() => run(SAMPLE_LZ, R32_4x4, { force_degamma: 1 }, centres)).toThrow(
        /degamma .* component 21 is not modelled/,
      );
      // Bilinear between texels 0 and 1 (row 0 clamped) gives 0.5, which degamma after filtering would change.
      const between = [at(0.25, 0)];
      expect(() =>
        run(SAMPLE_LZ, R32_4x4, { force_degamma: 1, xy_mag_filter: 1, clamp_x: 2, clamp_y: 2 }, between),
      ).toThrow(/component 0\.5/);
    });
  });

  describe('cubes (D022): face coordinates in [1, 2], the face id the layer', () => {
    /** A 4x4 R32_FLOAT cube (array) with texel (x, y) of layer L = 100 * L + 10 * y + x. */
    const cubeOf = (layers: number): Img => ({
      format: 22,
      width: 4,
      height: 4,
      type: 11,
      layers,
      levels: [
        new Uint8Array(
          new Float32Array(16 * layers).map(
            (_, i) => 100 * Math.floor(i / 16) + 10 * Math.floor((i % 16) / 4) + (i % 4),
          ).buffer,
        ),
      ],
    });
    const CUBE = cubeOf(6);
    const C_LZ = 'image_sample_lz v9, v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_CUBE';
    /** (s, t, face) for the texel-space point (u, v) of a face. */
    const on = (u: number, v: number, face: number): number[] => [f32(1 + u / 4), f32(1 + v / 4), f32(face)];
    const lin = { xy_mag_filter: 1, xy_min_filter: 1 };

    it('point-samples each face at its texel centres', () => {
      const lanes = [0, 1, 2, 3, 4, 5].map((face) => on((face % 4) + 0.5, 2.5, face));
      expect(firsts(run(C_LZ, CUBE, {}, lanes).out)).toEqual([20, 121, 222, 323, 420, 521]);
    });

    it('filters bilinearly inside the face, and at an edge texel centre reads no tap off the face', () => {
      const lanes = [on(1, 0.5, 2), on(1, 1, 3), on(3.5, 3.5, 1), on(0.5, 0.5, 0)];
      expect(firsts(run(C_LZ, CUBE, lin, lanes).out)).toEqual([200.5, 305.5, 133, 0]);
    });

    it('compares depth per texel before filtering (function 3, less-equal)', () => {
      const SC = 'image_sample_c_lz v9, v[1:4], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_CUBE';
      // texel (1, 0) of face 4 is 401, texel (2, 0) 402: ref 401.5 <= texel for the second only
      const lanes = [
        [f32(401.5), ...on(2, 0.5, 4)],
        [f32(401.5), ...on(1.5, 0.5, 4)],
      ];
      expect(firsts(run(SC, CUBE, { ...lin, depth_compare_func: 3 }, lanes).out)).toEqual([0.5, 0]);
    });

    it('takes a cube array face coordinate as face + 8 * cube, the cube clamped to the view', () => {
      const lanes = [on(0.5, 0.5, 9), on(0.5, 0.5, 17), on(0.5, 0.5, 5)];
      expect(firsts(run(C_LZ, cubeOf(12), {}, lanes).out)).toEqual([700, 700, 500]);
    });

    it('refuses a footprint across a face edge (seamless), and clamps in the face without cube wrap', () => {
      expect(() => run(C_LZ, CUBE, lin, [on(0, 0.5, 0)])).toThrow(/cube footprint reaching across a face edge/);
      expect(() => run(C_LZ, CUBE, {}, [on(4, 0.5, 0)])).toThrow(/cube footprint reaching across a face edge/);
      const GATHER = 'image_gather4_lz v[9:12], v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_CUBE';
      expect(() => run(GATHER, CUBE, {}, [on(3.5, 3.5, 0)])).toThrow(/cube footprint reaching across a face edge/);
      // DISABLE_CUBE_WRAP: the face is a 2D image through the clamp modes (clamp_last_texel: texel 0 twice).
      const nonSeamless = { ...lin, disable_cube_wrap: 1, clamp_x: 2, clamp_y: 2 };
      expect(firsts(run(C_LZ, CUBE, nonSeamless, [on(0, 0.5, 1)]).out)).toEqual([100]);
    });

    it('refuses a face coordinate that is not a face id, and unnormalized cube coordinates', () => {
      expect(() => run(C_LZ, CUBE, {}, [on(0.5, 0.5, 2.5)])).toThrow(/cube face coordinate of 2.5 is not a face id/);
      expect(() => run(C_LZ, CUBE, {}, [on(0.5, 0.5, 6)])).toThrow(/cube face coordinate of 6 is not a face id/);
      expect(() => run(C_LZ, CUBE, { force_unnormalized: 1 }, [on(0.5, 0.5, 0)])).toThrow(
        /unnormalized coordinates on a cube are not modelled/,
      );
    });

    it('refuses an implicit LOD whose quad spans more than one face', () => {
      const SAMPLE_CUBE = 'image_sample v9, v[1:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_CUBE';
      const quad = [on(0.5, 0.5, 0), on(1.5, 0.5, 0), on(0.5, 1.5, 1), on(1.5, 1.5, 1)];
      expect(() => run(SAMPLE_CUBE, CUBE, {}, quad)).toThrow(/implicit LOD across cube faces/);
      const same = quad.map((l) => [l[0]!, l[1]!, f32(2)]);
      expect(firsts(run(SAMPLE_CUBE, CUBE, {}, same).out)).toEqual([200, 201, 210, 211]);
    });
  });

  it('the pure helpers: wrap indices and compare functions', () => {
    expect([-1, 4, 5].map((i) => wrapIndex(i, 4, 'mirror'))).toEqual([0, 3, 2]);
    expect(depthCompare('greater-equal', 0.5, 0.5)).toBe(true);
  });
});

describe('public capture', () => {
  it('replays gfx1030-image-sample to a match (exit 0)', async () => {
    const out: string[] = [];
    const rc = await replayCommand(['--engine', 'interp', 'public/captures/gfx1030-image-sample.gcncap', '--json'], {
      stdout: (s) => void out.push(s),
      stderr: (s) => void out.push(s),
      stdin: () => '',
    });
    expect(rc).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ result: 'match', mismatch_count: 0 });
  });
});
