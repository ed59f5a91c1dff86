/**
 * Surface tiling (D007): (a) every modelled mode is a bijection on a surface (every element of
 * every level, slice and sample maps to a distinct in-bounds byte, and writeSurface then
 * readSurface gives the data back); (b) independent expectations: offsets computed here by a
 * separate path (bit-by-bit evaluation of the equations as DESCRIPTORS.md writes them, a direct
 * transcription of the §5.1 2D-thin formula, and hand-computed values); (c) named refusals.
 */
import { describe, expect, it } from 'vitest';
import { Gen } from '../../src/isa/gen.ts';
import {
  decodeImageDescriptor,
  encodeImageDescriptor,
  legacyImageDataFormats,
  unifiedFormatTable,
  type ImageDescriptor,
  type ImageFieldName,
} from '../../src/host/descriptors/index.ts';
import { TilingError, type TilingErrorCode } from '../../src/host/texels/tiling.ts';
import { macroTileDims, ps4TileMode, ps4Tiling, type Gfx7TileMode } from '../../src/host/texels/tiling-gfx7.ts';
import { swizzleEquation } from '../../src/host/texels/tiling-gfx9.ts';
import {
  readSurface,
  surfaceLayout,
  writeSurface,
  type SurfaceLayout,
  type TilingParams,
} from '../../src/host/texels/surface.ts';

// ---------------------------------------------------------------- T# construction

const TYPE = { '2d': 9, '3d': 10, cube: 11, '2d_array': 13, '2d_msaa': 14 } as const;

/** Format names by element size: legacy DATA_FORMAT names, gfx10+ unified names. */
const LEGACY_FMT: Record<number, string> = { 1: '8', 2: '16', 4: '8_8_8_8', 8: '32_32', 16: '32_32_32_32' };
const UNIFIED_FMT: Record<number, string> = {
  1: '8_UNORM',
  2: '16_UNORM',
  4: '8_8_8_8_UNORM',
  8: '32_32_UINT',
  16: '32_32_32_32_UINT',
};

function legacyFormat(gen: Gen, name: string): number {
  const e = Object.entries(legacyImageDataFormats(gen)).find(([, n]) => n === name);
  if (e === undefined) throw new Error(`no data format ${name}`);
  return Number(e[0]);
}

function unifiedFormatValue(gen: Gen, name: string): number {
  for (const [v, fi] of unifiedFormatTable(gen)) if (fi.name === name) return v;
  throw new Error(`no format ${name}`);
}

interface Img {
  w: number;
  h: number;
  bpe?: number;
  fmt?: string;
  type?: keyof typeof TYPE;
  /** Array layers, cube count (gfx7) or depth. */
  layers?: number;
  mips?: number;
  samples?: number;
  tiling: number;
  pitch?: number;
  pow2?: boolean;
  address?: number;
}

function tsharp(gen: Gen, img: Img): ImageDescriptor {
  const type = img.type ?? (img.layers !== undefined && img.layers > 1 ? '2d_array' : '2d');
  const address = img.address ?? 0x10_0000_0000;
  const f: Partial<Record<ImageFieldName, number>> = {
    base_address: Math.floor(address / 256) % 2 ** 32,
    base_address_hi: Math.floor(address / 2 ** 40),
    height: img.h - 1,
    type: TYPE[type],
    depth: (img.layers ?? 1) - 1,
  };
  const bpe = img.bpe ?? 4;
  if (img.samples !== undefined) f.last_level = Math.log2(img.samples);
  if (gen <= Gen.GFX9) {
    f.data_format = legacyFormat(gen, img.fmt ?? LEGACY_FMT[bpe]);
    f.num_format = 0;
    f.width = img.w - 1;
    if (img.pitch !== undefined) f.pitch = img.pitch - 1;
  } else {
    f.format = unifiedFormatValue(gen, img.fmt ?? UNIFIED_FMT[bpe]);
    f.width_lo = (img.w - 1) & 3;
    f.width_hi = (img.w - 1) >> 2;
  }
  if (gen <= Gen.GFX8) {
    f.tiling_index = img.tiling;
    if (img.samples === undefined) f.last_level = (img.mips ?? 1) - 1;
    if (img.pow2) f.pow2_pad = 1;
    if (type === 'cube') f.depth = (img.layers ?? 1) - 1;
  } else {
    f.sw_mode = img.tiling;
    f.max_mip = (img.mips ?? 1) - 1;
    if (type === 'cube') f.depth = 6 * (img.layers ?? 1) - 1;
  }
  return decodeImageDescriptor(gen, encodeImageDescriptor(gen, f));
}

// ---------------------------------------------------------------- bijection

/** Checks every element of every subresource maps into [0, size) with no collisions; returns elements counted. */
function checkBijection(layout: SurfaceLayout): number {
  const seen = new Uint8Array(layout.size);
  const bpe = layout.bytesPerElement;
  let count = 0;
  for (const sub of layout.subresources)
    for (let s = 0; s < layout.samples; s++)
      for (let y = 0; y < sub.elementsHigh; y++)
        for (let x = 0; x < sub.elementsWide; x++) {
          const off = layout.elementOffset(sub.level, sub.slice, x, y, s);
          if (!(off >= sub.offset && off + bpe <= sub.offset + sub.size && off + bpe <= layout.size))
            throw new Error(`${layout.mode}: (${x},${y}) L${sub.level} S${sub.slice} at ${off} outside its region`);
          if (off % bpe !== 0) throw new Error(`${layout.mode}: misaligned offset ${off}`);
          for (let b = 0; b < bpe; b++) {
            if (seen[off + b] !== 0)
              throw new Error(`${layout.mode}: (${x},${y}) L${sub.level} S${sub.slice} s${s} collides at ${off}`);
            seen[off + b] = 1;
          }
          count++;
        }
  return count;
}

/** Writes distinct data into every subresource, then reads each back. */
function checkRoundTrip(layout: SurfaceLayout): void {
  const guest = new Uint8Array(layout.size);
  const written: Uint8Array[] = [];
  let seed = 1;
  for (const sub of layout.subresources)
    for (let s = 0; s < layout.samples; s++) {
      const data = new Uint8Array(sub.elementsWide * sub.elementsHigh * layout.bytesPerElement);
      for (let i = 0; i < data.length; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        data[i] = seed >>> 24;
      }
      writeSurface(layout, guest, sub.level, sub.slice, data, s);
      written.push(data);
    }
  let k = 0;
  for (const sub of layout.subresources)
    for (let s = 0; s < layout.samples; s++) {
      const back = readSurface(layout, { address: layout.base, bytes: guest }, sub.level, sub.slice, s);
      expect(Buffer.from(back).equals(Buffer.from(written[k++])), `${layout.mode} L${sub.level} S${sub.slice}`).toBe(
        true,
      );
    }
}

function checkMode(gen: Gen, img: Img, params: TilingParams = {}): SurfaceLayout {
  const layout = surfaceLayout(gen, tsharp(gen, img), params);
  expect(checkBijection(layout)).toBeGreaterThan(0);
  checkRoundTrip(layout);
  return layout;
}

describe('bijection and round trip: gfx7/8 tile modes', () => {
  const cases: [string, number][] = [
    ['DisplayLinearAligned', 8],
    ['DisplayLinearGeneral', 31],
    ['Depth1DThin', 5],
    ['Display1DThin', 9],
    ['Thin1DThin', 13],
    ['Display2DThin', 10],
    ['Thin2DThin', 14],
    ['Depth2DThin64', 0],
    ['Depth2DThin256', 2],
    ['Depth2DThin1K', 4],
  ];
  for (const [name, index] of cases)
    it(`${name} (${index}), 1-16 byte elements`, () => {
      for (const bpe of [1, 2, 4, 8, 16]) {
        const t = ps4Tiling(index, bpe);
        const isLinear = t.mode.arrayMode.startsWith('LINEAR');
        const align = t.mode.arrayMode === '2D_TILED_THIN1' ? 8 * 8 * t.macroTileAspect : isLinear ? 64 : 8;
        const pitch = Math.ceil(40 / align) * align;
        checkMode(Gen.GFX7, { w: 40, h: 24, bpe, tiling: index, pitch, layers: 3 });
      }
    });

  it('2D thin mip chain with POW2_PAD (levels degrade to 1D), gfx8', () => {
    const l = checkMode(Gen.GFX8, { w: 256, h: 128, bpe: 4, tiling: 14, pitch: 256, mips: 9, pow2: true, layers: 2 });
    expect(l.subresource(0, 0).mode).toBe('2D_TILED_THIN1 (Thin2DThin)');
    expect(l.subresource(8, 0).mode).toMatch(/^1D_TILED_THIN1/);
  });

  it('cube (faces as slices) and BC1 blocks', () => {
    const l = checkMode(Gen.GFX7, {
      w: 64,
      h: 64,
      type: 'cube',
      layers: 1,
      tiling: 13,
      pitch: 64,
      mips: 3,
      pow2: true,
    });
    expect(l.slices).toBe(6);
    const bc = checkMode(Gen.GFX7, { w: 64, h: 32, fmt: 'BC1', tiling: 13, pitch: 64, mips: 2, pow2: true });
    expect(bc.bytesPerElement).toBe(8);
    expect(bc.subresource(0, 0).elementsWide).toBe(16);
  });

  it('MSAA 2D thin and depth (sample and depth sample orders, tile split)', () => {
    for (const index of [14, 10, 0, 2])
      for (const samples of [2, 4]) {
        const mt = macroTileDims(ps4Tiling(index, 4, samples));
        checkMode(Gen.GFX7, {
          w: mt.width,
          h: mt.height,
          bpe: 4,
          tiling: index,
          pitch: mt.width,
          type: '2d_msaa',
          samples,
        });
      }
  });

  it('explicit tile modes: other pipe configs, 2/4/8 banks, PS4 Pro P16', () => {
    const modes: [Gfx7TileMode, TilingParams['macroMode']][] = [
      [
        { name: 'P16', arrayMode: '2D_TILED_THIN1', microMode: 'thin', pipeConfig: 'P16_32x32_8x16', sampleSplit: 2 },
        { banks: 16, bankWidth: 1, bankHeight: 1, macroTileAspect: 2 },
      ],
      [
        { name: 'P4', arrayMode: '2D_TILED_THIN1', microMode: 'display', pipeConfig: 'P4_16x16' },
        { banks: 4, bankWidth: 2, bankHeight: 2, macroTileAspect: 1 },
      ],
      [
        { name: 'P2', arrayMode: '2D_TILED_THIN1', microMode: 'thin', pipeConfig: 'P2' },
        { banks: 2, bankWidth: 4, bankHeight: 1, macroTileAspect: 1 },
      ],
      [
        { name: 'P8b', arrayMode: '2D_TILED_THIN1', microMode: 'thin', pipeConfig: 'P8_32x32_8x16' },
        { banks: 8, bankWidth: 1, bankHeight: 2, macroTileAspect: 2 },
      ],
    ];
    for (const [tileMode, macroMode] of modes)
      checkMode(Gen.GFX8, { w: 256, h: 128, bpe: 4, tiling: 0, pitch: 256, layers: 2 }, { tileMode, macroMode });
  });

  it('2D base-address swizzle bits become the pipe/bank swizzle', () => {
    const img = { w: 128, h: 64, bpe: 4, tiling: 14, pitch: 128 };
    const plain = surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, img));
    const swz = surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { ...img, address: 0x10_0000_0000 + 0x500 }));
    expect(swz.base).toBe(plain.base);
    // pipe swizzle 5 (bits 8-10): element (0, 0) lands in pipe 5
    expect(swz.elementOffset(0, 0, 0, 0)).toBe(5 << 8);
    checkBijection(swz);
  });
});

const GFX9_MODES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const GFX9_XOR = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27];

describe('bijection and round trip: gfx9 swizzle modes', () => {
  it('LINEAR and non-XOR S/D/R/Z modes, 1-16 byte elements, arrays', () => {
    for (const mode of [0, ...GFX9_MODES])
      for (const bpe of [1, 2, 4, 8, 16]) {
        if ((mode === 3 || mode === 7 || mode === 11) && bpe === 16) continue; // R has no 16-byte order
        if ((mode === 4 || mode === 8) && bpe === 16) continue; // Z up to 8 bytes
        const big = mode >= 8;
        const w = big ? 300 : 70;
        const blkW = big ? 256 : 64;
        checkMode(Gen.GFX9, { w, h: 9, bpe, tiling: mode, pitch: Math.ceil(w / blkW) * blkW, layers: 2 });
      }
  });
  it('XOR and PRT modes with pipes, shader engines and banks', () => {
    for (const mode of GFX9_XOR)
      for (const cfg of [
        { pipes: 4, banks: 4 },
        { pipes: 8, shaderEngines: 2, banks: 8 },
        { pipes: 2, banks: 16 },
      ])
        for (const bpe of [1, 4, 16]) {
          if ((mode % 4 === 3 || mode % 4 === 0) && bpe === 16) continue;
          checkMode(
            Gen.GFX9,
            { w: 200, h: 20, bpe, tiling: mode, pitch: 256, layers: 2, address: 0x10_0000_0000 + 0x300 },
            cfg,
          );
        }
  });
  it('mip chains (X and Y major, tail, mip 0 in the tail), arrays, cubes, BC', () => {
    const shapes = [
      { w: 300, h: 40, mips: 9 },
      { w: 20, h: 300, mips: 9 },
      { w: 128, h: 64, mips: 8 },
      { w: 16, h: 16, mips: 5 },
    ];
    for (const mode of [4, 5, 6, 7, 8, 9, 10, 11])
      for (const bpe of [1, 4, 8]) {
        if (mode % 4 === 0 && bpe === 16) continue;
        for (const sh of shapes) checkMode(Gen.GFX9, { ...sh, bpe, tiling: mode, layers: 2 });
      }
    checkMode(Gen.GFX9, { w: 64, h: 64, type: 'cube', layers: 1, bpe: 16, tiling: 9, mips: 7 });
    checkMode(Gen.GFX9, { w: 256, h: 256, fmt: 'BC1', tiling: 10, mips: 9 });
    checkMode(Gen.GFX9, { w: 100, h: 60, fmt: 'BC3', tiling: 5, mips: 7, layers: 3 });
    for (const bpe of [1, 4, 16]) checkMode(Gen.GFX9, { w: 70, h: 20, bpe, tiling: 0, mips: 7, layers: 2 });
  });
  it('mip chains in XOR and PRT modes, with a pipe/bank XOR in the base address', () => {
    for (const mode of GFX9_XOR)
      for (const cfg of [
        { pipes: 4, banks: 4 },
        { pipes: 8, shaderEngines: 2, banks: 8 },
      ])
        for (const bpe of [1, 4]) {
          checkMode(
            Gen.GFX9,
            { w: 200, h: 90, bpe, tiling: mode, mips: 8, layers: 2, address: 0x10_0000_0000 + 0x300 },
            cfg,
          );
          checkMode(Gen.GFX9, { w: 24, h: 24, bpe, tiling: mode, mips: 5, layers: 2 }, cfg);
        }
  });
});

const GFX10_NONXOR = [1, 2, 5, 6, 9, 10];
const GFX10_XOR = [17, 18, 21, 22, 25, 26, 27];

describe('bijection and round trip: gfx10 / gfx10.3 / gfx11 swizzle modes', () => {
  it('LINEAR: single level (custom pitch on 10.3) and mip chains, arrays', () => {
    for (const gen of [Gen.GFX10, Gen.GFX10_3, Gen.GFX11]) {
      checkMode(gen, { w: 70, h: 20, bpe: 4, tiling: 0, layers: 3 });
      checkMode(gen, { w: 70, h: 20, bpe: 2, tiling: 0, mips: 7, layers: 2 });
    }
  });
  it('non-XOR S/D: mip chains with tails, arrays, cubes, BC', () => {
    for (const gen of [Gen.GFX10, Gen.GFX10_3])
      for (const mode of GFX10_NONXOR)
        for (const bpe of [1, 4, 16]) checkMode(gen, { w: 300, h: 70, bpe, tiling: mode, mips: 9, layers: 2 });
    checkMode(Gen.GFX10_3, { w: 64, h: 64, type: 'cube', layers: 1, bpe: 8, tiling: 9, mips: 7 });
    checkMode(Gen.GFX10_3, { w: 256, h: 256, fmt: 'BC1_UNORM', tiling: 10, mips: 9 });
  });
  it('XOR modes with pipe and packer counts, pipe/bank XOR from the base address', () => {
    const rbplus = [
      { pipes: 4, pkrs: 2 },
      { pipes: 8, pkrs: 4 },
      { pipes: 16, pkrs: 8 },
      { pipes: 16, pkrs: 16 },
    ];
    for (const mode of GFX10_XOR)
      for (const bpe of [1, 2, 4, 8, 16]) {
        for (const cfg of rbplus)
          checkMode(
            Gen.GFX10_3,
            { w: 140, h: 70, bpe, tiling: mode, layers: 2, address: 0x10_0000_0000 + 0x1f00 },
            cfg,
          );
        checkMode(Gen.GFX10, { w: 140, h: 70, bpe, tiling: mode, layers: 2 }, { pipes: bpe === 1 ? 4 : 16 });
      }
    for (const mode of GFX10_XOR) checkMode(Gen.GFX10_3, { w: 256, h: 256, bpe: 4, tiling: mode, mips: 9 }, rbplus[2]);
  });
  it('gfx11 D modes, and D_X / R_X with pipes and packers', () => {
    for (const mode of [2, 6, 10])
      for (const bpe of [1, 2, 4, 8, 16]) checkMode(Gen.GFX11, { w: 150, h: 40, bpe, tiling: mode, mips: 8 });
    for (const mode of [18, 22, 26, 27])
      for (const bpe of [1, 4, 16])
        checkMode(Gen.GFX11, { w: 150, h: 140, bpe, tiling: mode, mips: 8, layers: 2 }, { pipes: 16, pkrs: 8 });
  });
});

// ---------------------------------------------------------------- independent expectations

/** Evaluates a DESCRIPTORS.md bit list ("0 0 X0 X1 Y4^X7^Y7 ...") bit by bit. */
function docEquation(text: string, x: number, y: number, z = 0): number {
  let out = 0;
  text
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length > 0)
    .forEach((tok, bitIndex) => {
      let v = 0;
      if (tok !== '0')
        for (const t of tok.split('^')) {
          const c = t[0] === 'X' ? x : t[0] === 'Y' ? y : z;
          v ^= Math.floor(c / 2 ** Number(t.slice(1))) % 2;
        }
      out += v * 2 ** bitIndex;
    });
  return out;
}

describe('independent expectations: gfx7/8', () => {
  it('8x8 micro-tile orders (1D surface of one tile)', () => {
    const at = (index: number, bpe: number, x: number, y: number) =>
      surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 8, h: 8, bpe, tiling: index, pitch: 8 })).elementOffset(0, 0, x, y);
    // Thin (13): p = x0 y0 x1 y1 x2 y2
    expect(at(13, 4, 1, 0)).toBe(1 * 4);
    expect(at(13, 4, 0, 1)).toBe(2 * 4);
    expect(at(13, 4, 2, 0)).toBe(4 * 4);
    expect(at(13, 4, 7, 7)).toBe(63 * 4);
    // Display 32 bpp (9): p = x0 x1 y0 x2 y1 y2
    expect(at(9, 4, 0, 1)).toBe(4 * 4);
    expect(at(9, 4, 4, 0)).toBe(8 * 4);
    // Display 8 bpp: x0 x1 x2 y1 y0 y2 -> (0,1) is p4, (0,2) is p3
    expect(at(9, 1, 0, 1)).toBe(16);
    expect(at(9, 1, 0, 2)).toBe(8);
    // Display 128 bpp: y0 x0 x1 x2 y1 y2 -> (0,1) is p0
    expect(at(9, 16, 0, 1)).toBe(16);
    expect(at(9, 16, 1, 0)).toBe(32);
    // the whole tile against the table, every ordering
    const orders: Record<string, [number, number, string]> = {
      thin4: [13, 4, 'x0 y0 x1 y1 x2 y2'],
      depth2: [5, 2, 'x0 y0 x1 y1 x2 y2'],
      disp8: [9, 1, 'x0 x1 x2 y1 y0 y2'],
      disp16: [9, 2, 'x0 x1 x2 y0 y1 y2'],
      disp32: [9, 4, 'x0 x1 y0 x2 y1 y2'],
      disp64: [9, 8, 'x0 y0 x1 x2 y1 y2'],
      disp128: [9, 16, 'y0 x0 x1 x2 y1 y2'],
    };
    for (const [index, bpe, order] of Object.values(orders))
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          let p = 0;
          order.split(' ').forEach((s, i) => (p |= (((s[0] === 'x' ? x : y) >> Number(s[1])) & 1) << i));
          expect(at(index, bpe, x, y)).toBe(p * bpe);
        }
  });

  it('1D: micro tiles row-major, slices padded', () => {
    const l = surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 24, h: 16, bpe: 4, tiling: 13, pitch: 24, layers: 2 }));
    expect(l.elementOffset(0, 0, 8, 0)).toBe(256);
    expect(l.elementOffset(0, 0, 0, 8)).toBe(3 * 256);
    expect(l.elementOffset(0, 1, 0, 0)).toBe(24 * 16 * 4);
  });

  /** DESCRIPTORS.md §5.1 2D_TILED_THIN1 steps 3-6, written out for one sample and no tile split. */
  function doc2d(
    p: {
      pipes: number;
      banks: number;
      bankH: number;
      aspect: number;
      pipeCfg: string;
      bpe: number;
      pitch: number;
      height: number;
    },
    x: number,
    y: number,
    slice: number,
  ): number {
    const thin = [0, 1, 4, 5, 16, 17, 20, 21];
    const pixelIndex = thin[x & 7] | (thin[y & 7] << 1);
    const elem = pixelIndex * p.bpe;
    const microBytes = 64 * p.bpe;
    const mtW = 8 * 1 * p.pipes * p.aspect;
    const mtH = (8 * p.bankH * p.banks) / p.aspect;
    const mtBytes = (microBytes * (mtW / 8) * (mtH / 8)) / (p.pipes * p.banks);
    // the slice size in the pre-interleave offset space: macro tiles per slice times mtBytes
    const sliceBytes = (p.pitch / mtW) * (p.height / mtH) * mtBytes;
    const total =
      sliceBytes * slice +
      (Math.floor(y / mtH) * (p.pitch / mtW) + Math.floor(x / mtW)) * mtBytes +
      ((y >> 3) % p.bankH) * microBytes + // bank width 1: no column term
      elem;
    const tx = x >> 3;
    const ty = y >> 3;
    const b = (v: number, i: number) => (v >> i) & 1;
    let pipe: number;
    if (p.pipeCfg === 'P8_32x32_16x16')
      pipe = (b(tx, 0) ^ b(ty, 0) ^ b(tx, 1)) | ((b(tx, 1) ^ b(ty, 1)) << 1) | ((b(tx, 2) ^ b(ty, 2)) << 2);
    else
      pipe =
        (b(tx, 1) ^ b(ty, 0)) |
        ((b(tx, 0) ^ b(ty, 1)) << 1) |
        ((b(tx, 2) ^ b(ty, 3)) << 2) |
        ((b(tx, 3) ^ b(ty, 2)) << 3);
    const bx = Math.floor(tx / p.pipes);
    const by = Math.floor(ty / p.bankH);
    let bank: number;
    if (p.banks === 16)
      bank =
        (b(bx, 0) ^ b(by, 3)) |
        ((b(bx, 1) ^ b(by, 2) ^ b(by, 3)) << 1) |
        ((b(bx, 2) ^ b(by, 1)) << 2) |
        ((b(bx, 3) ^ b(by, 0)) << 3);
    else bank = (b(bx, 0) ^ b(by, 2)) | ((b(bx, 1) ^ b(by, 1) ^ b(by, 2)) << 1) | ((b(bx, 2) ^ b(by, 0)) << 2);
    bank = (bank ^ ((p.banks / 2 - 1) * slice)) & (p.banks - 1);
    const pipeBits = Math.log2(p.pipes);
    const bankBits = Math.log2(p.banks);
    return (
      (total % 256) + pipe * 256 + bank * 2 ** (8 + pipeBits) + Math.floor(total / 256) * 2 ** (8 + pipeBits + bankBits)
    );
  }

  it('2D thin (Thin2DThin, 32 bpp: macro tile 128x64) against the documented formula, and hand values', () => {
    const l = surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 256, h: 128, bpe: 4, tiling: 14, pitch: 256, layers: 2 }));
    const p = { pipes: 8, banks: 16, bankH: 1, aspect: 2, pipeCfg: 'P8_32x32_16x16', bpe: 4, pitch: 256, height: 128 };
    for (let s = 0; s < 2; s++)
      for (let y = 0; y < 128; y += 3)
        for (let x = 0; x < 256; x += 5) expect(l.elementOffset(0, s, x, y)).toBe(doc2d(p, x, y, s));
    // hand-computed: tile (1,0) is pipe 1; tile (0,1) is pipe 1 and bank 8 (b3 = by0)
    expect(l.elementOffset(0, 0, 8, 0)).toBe(256);
    expect(l.elementOffset(0, 0, 0, 8)).toBe(256 + (8 << 11));
    // slice 1 of (0,0): total = 4 macro tiles x 256 B = 1024 (x 128 pipe-bank slots = 131072 B), bank rotated by 7
    expect(l.elementOffset(0, 1, 0, 0)).toBe((7 << 11) + (1024 / 256) * 2 ** 15);
  });

  it('2D thin, PS4 Pro P16_32x32_8x16 with 8 banks, against the documented formula', () => {
    const tileMode: Gfx7TileMode = {
      name: 'P16',
      arrayMode: '2D_TILED_THIN1',
      microMode: 'thin',
      pipeConfig: 'P16_32x32_8x16',
      sampleSplit: 2,
    };
    const macroMode = { banks: 8, bankWidth: 1, bankHeight: 2, macroTileAspect: 2 };
    const l = surfaceLayout(Gen.GFX8, tsharp(Gen.GFX8, { w: 256, h: 64, bpe: 8, tiling: 0, pitch: 256, layers: 2 }), {
      tileMode,
      macroMode,
    });
    const p = { pipes: 16, banks: 8, bankH: 2, aspect: 2, pipeCfg: 'P16', bpe: 8, pitch: 256, height: 64 };
    for (let s = 0; s < 2; s++)
      for (let y = 0; y < 64; y += 1)
        for (let x = 0; x < 256; x += 3) expect(l.elementOffset(0, s, x, y)).toBe(doc2d(p, x, y, s));
  });

  it('2D tile split and sample orders, hand-computed', () => {
    // Depth2DThin64, 4 B: micro tile 256 B > split 64 -> 4 split slices of 256 B (macro tile 256x128, 16 banks)
    const d = surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 256, h: 128, bpe: 4, tiling: 0, pitch: 256 }));
    // (0,4): pixel index 32 -> byte 128 -> split slice 2, bank rotated by (16/2+1)*2 = 18 -> 2
    expect(d.elementOffset(0, 0, 0, 4)).toBe((512 / 256) * 2 ** 15 + (2 << 11));
    // depth sample order, 2 samples (Depth2DThin256): (1,0) sample 1 -> pixel 1 * 8 + 4
    const d2 = surfaceLayout(
      Gen.GFX7,
      tsharp(Gen.GFX7, { w: 128, h: 64, bpe: 4, tiling: 2, pitch: 128, type: '2d_msaa', samples: 2 }),
    );
    expect(d2.elementOffset(0, 0, 1, 0, 1)).toBe(12);
    // colour sample order (Thin2DThin, 2 samples): sample 1 starts 64 elements (256 B) into the micro tile
    const c2 = surfaceLayout(
      Gen.GFX7,
      tsharp(Gen.GFX7, { w: 128, h: 64, bpe: 4, tiling: 14, pitch: 128, type: '2d_msaa', samples: 2 }),
    );
    expect(c2.elementOffset(0, 0, 0, 0, 1)).toBe(1 * 2 ** 15);
  });

  it('PS4 table: mode 14 at 32 bpp is macro-tile mode 2 (16 banks, bank height 1, aspect 2)', () => {
    const t = ps4Tiling(14, 4);
    expect([t.banks, t.bankHeight, t.macroTileAspect, t.bankWidth]).toEqual([16, 1, 2, 1]);
    expect(ps4TileMode(10).microMode).toBe('display');
    expect(ps4TileMode(2).tileSplitBytes).toBe(256);
  });
});

describe('independent expectations: gfx9+', () => {
  const S4 = '0 0 X0 X1 Y0 Y1 Y2 X2 Y3 X3 Y4 X4 Y5 X5 Y6 X6';
  const S8 = '0 0 0 X0 Y0 Y1 X1 X2 Y2 X3 Y3 X4 Y4 X5 Y5 X6';
  const S16 = '0 0 0 0 Y0 Y1 X0 X1 Y2 X2 Y3 X3 Y4 X4 Y5 X5';
  const D4 = '0 0 X0 X1 Y0 Y1 X2 Y2 Y3 X3 Y4 X4 Y5 X5 Y6 X6';
  const RX_16_8 = '0 0 X0 X1 Y0 Y1 X2 Y2, Y4^X7^Y7, Z2^X4^Y4, Z1^Y5^X6, Z0^X5^Y6, X3, Y3, X6^Y7, Y6^X7';
  const RX_8_4 = '0 0 X0 X1 Y0 Y1 X2 Y2, Y4^X6^Y6, Z1^X4^Y4, Z0^X5^Y5, X3, Y3, X5^Y8, X6^Y7, Y6^X7';

  it('64KB_S, 4 B: the first elements (DESCRIPTORS.md §5.2)', () => {
    for (const gen of [Gen.GFX9, Gen.GFX10, Gen.GFX10_3]) {
      const l = surfaceLayout(gen, tsharp(gen, { w: 256, h: 128, bpe: 4, tiling: 9, pitch: 256 }));
      expect(l.elementOffset(0, 0, 1, 0)).toBe(4);
      expect(l.elementOffset(0, 0, 2, 0)).toBe(8);
      expect(l.elementOffset(0, 0, 0, 1)).toBe(16);
      expect(l.elementOffset(0, 0, 0, 4)).toBe(64);
      expect(l.elementOffset(0, 0, 4, 0)).toBe(128);
      expect(l.elementOffset(0, 0, 0, 8)).toBe(256);
      expect(l.elementOffset(0, 0, 8, 0)).toBe(512);
      expect(l.elementOffset(0, 0, 127, 127)).toBe(65532);
      expect(l.elementOffset(0, 0, 128, 0)).toBe(65536);
    }
  });

  it('64KB_S 4/8/16 B and 4KB_S (truncated) bit by bit', () => {
    for (const [bpe, text] of [
      [4, S4],
      [8, S8],
      [16, S16],
    ] as const) {
      const l = surfaceLayout(Gen.GFX10_3, tsharp(Gen.GFX10_3, { w: 256, h: 256, bpe, tiling: 9 }));
      const blkW = bpe === 4 ? 128 : 64 * (16 / bpe) ** 0.5;
      for (let y = 0; y < 64; y += 3)
        for (let x = 0; x < Math.min(blkW, 256); x += 7)
          expect(l.elementOffset(0, 0, x, y)).toBe(docEquation(text, x, y));
    }
    const l4 = surfaceLayout(Gen.GFX10_3, tsharp(Gen.GFX10_3, { w: 32, h: 32, bpe: 4, tiling: 5 }));
    const trunc = S4.split(' ').slice(0, 12).join(' ');
    for (let y = 0; y < 32; y++)
      for (let x = 0; x < 32; x++) expect(l4.elementOffset(0, 0, x, y)).toBe(docEquation(trunc, x, y));
  });

  it('64KB_D, 4 B: the RB+ order on gfx10.3; gfx10.1 D equals S at 4 B', () => {
    const rb = surfaceLayout(Gen.GFX10_3, tsharp(Gen.GFX10_3, { w: 128, h: 128, bpe: 4, tiling: 10 }));
    const n1 = surfaceLayout(Gen.GFX10, tsharp(Gen.GFX10, { w: 128, h: 128, bpe: 4, tiling: 10 }));
    for (let y = 0; y < 128; y += 5)
      for (let x = 0; x < 128; x += 3) {
        expect(rb.elementOffset(0, 0, x, y)).toBe(docEquation(D4, x, y));
        expect(n1.elementOffset(0, 0, x, y)).toBe(docEquation(S4, x, y));
      }
  });

  it('64KB_R_X, 4 B, 16 pipes / 8 PKRs and 8 pipes / 4 PKRs, with slices and a pipe/bank XOR', () => {
    for (const [cfg, text] of [
      [{ pipes: 16, pkrs: 8 }, RX_16_8],
      [{ pipes: 8, pkrs: 4 }, RX_8_4],
    ] as const) {
      const pbx = 0x5a00;
      const l = surfaceLayout(
        Gen.GFX10_3,
        tsharp(Gen.GFX10_3, { w: 256, h: 256, bpe: 4, tiling: 27, layers: 3, address: 0x10_0000_0000 + pbx }),
        cfg,
      );
      expect(l.base).toBe(0x10_0000_0000);
      const sliceSize = 256 * 256 * 4;
      for (let z = 0; z < 3; z++)
        for (let y = 0; y < 256; y += 7)
          for (let x = 0; x < 256; x += 5) {
            const blk = Math.floor(y / 128) * 2 + Math.floor(x / 128);
            expect(l.elementOffset(0, z, x, y)).toBe(z * sliceSize + blk * 65536 + (docEquation(text, x, y, z) ^ pbx));
          }
    }
  });

  it('the gfx10 pattern table agrees with DESCRIPTORS.md for the two R_X configurations', () => {
    // bit 8 of 16 pipes / 8 PKRs is Y4^X7^Y7
    const eq = swizzleEquation(Gen.GFX10_3, 27, 2, { pipes: 16, pkrs: 8 });
    expect(eq[8]).toEqual({ x: 1 << 7, y: (1 << 4) | (1 << 7), z: 0 });
    expect(eq[9]).toEqual({ x: 1 << 4, y: 1 << 4, z: 1 << 2 });
  });

  it('gfx10 mip tail: 64KB_S 4 B 256x256, 9 levels (addrlib tail offsets)', () => {
    const l = surfaceLayout(Gen.GFX10_3, tsharp(Gen.GFX10_3, { w: 256, h: 256, bpe: 4, tiling: 9, mips: 9 }));
    // tail block first, then mip 1 (64 KB), then mip 0 (256 KB); tail mips at m > 6 ? 16 << m : m << 8, m = 11 down
    expect([...Array(9).keys()].map((i) => l.elementOffset(i, 0, 0, 0))).toEqual([
      131072, 65536, 32768, 16384, 8192, 4096, 2048, 1536, 1280,
    ]);
    expect(l.size).toBe(65536 + 65536 + 262144);
    expect(l.subresource(2, 0).mode).toBe('SW_64KB_S (mip tail)');
  });

  it('gfx11 64KB_D, 4 B: X0 Y0 X1 Y1 X2 Y2 in the micro block (gfx11SwizzlePattern.h), unlike gfx10.3', () => {
    const l = surfaceLayout(Gen.GFX11, tsharp(Gen.GFX11, { w: 128, h: 128, bpe: 4, tiling: 10 }));
    const G11_D4 = '0 0 X0 Y0 X1 Y1 X2 Y2 Y3 X3 Y4 X4 Y5 X5 Y6 X6';
    expect([l.elementOffset(0, 0, 1, 0), l.elementOffset(0, 0, 0, 1), l.elementOffset(0, 0, 2, 0)]).toEqual([4, 8, 16]);
    for (let y = 0; y < 128; y += 3)
      for (let x = 0; x < 128; x += 5) expect(l.elementOffset(0, 0, x, y)).toBe(docEquation(G11_D4, x, y));
  });

  it('gfx10 LINEAR mips are stored smallest first, pitch aligned to 256 B', () => {
    const l = surfaceLayout(Gen.GFX10_3, tsharp(Gen.GFX10_3, { w: 16, h: 16, bpe: 4, tiling: 0, mips: 5 }));
    expect([...Array(5).keys()].map((i) => l.subresource(i, 0).offset)).toEqual([3840, 1792, 768, 256, 0]);
    expect(l.elementOffset(0, 0, 1, 1)).toBe(3840 + (64 + 1) * 4);
    expect(l.size).toBe(7936);
  });

  it('gfx10.3 LINEAR custom pitch from DEPTH/PITCH_MSB; gfx11 LINEAR computed pitch', () => {
    const l = surfaceLayout(
      Gen.GFX10_3,
      tsharp(Gen.GFX10_3, { w: 70, h: 20, bpe: 4, tiling: 0, type: '2d', layers: 100 }),
    );
    expect(l.elementOffset(0, 0, 3, 1)).toBe((100 + 3) * 4);
    const g11 = surfaceLayout(Gen.GFX11, tsharp(Gen.GFX11, { w: 70, h: 20, bpe: 4, tiling: 0 }));
    expect(g11.elementOffset(0, 0, 0, 1)).toBe(128 * 4);
  });

  // gfx9 mip chains, from the addrlib rules restated in D007 (worked by hand, not through gfx9MipChain).
  it('gfx9 mip chain, 4KB_S 4 B 64x64, 7 levels: mip 1 below mip 0, tail block beside it', () => {
    // Block 32x32; mip 0 is 2x2 blocks (X major); mip 1 (32x32) is not in the tail (width > 16), mip 2
    // (16x16) is. Slice: 2 blocks wide, 2 + ceil(2/2) = 3 high = 24576 B; epitch = chain height 96.
    // mip 1 at block (0,2) = 4 * 4096; tail at block (1,2) = 5 * 4096 = 20480; tail slots k + 20 - 12:
    // 8, 6, 5, 4, 3 (x256) = 2048, 1536, 1280, 1024, 768.
    const l = surfaceLayout(
      Gen.GFX9,
      tsharp(Gen.GFX9, { w: 64, h: 64, bpe: 4, tiling: 5, mips: 7, layers: 2, pitch: 96 }),
    );
    expect([...Array(7).keys()].map((i) => l.elementOffset(i, 0, 0, 0))).toEqual([
      0, 16384, 22528, 22016, 21760, 21504, 21248,
    ]);
    expect(l.size).toBe(2 * 24576);
    expect(l.elementOffset(1, 1, 0, 0)).toBe(24576 + 16384);
    const S4_4K = '0 0 X0 X1 Y0 Y1 Y2 X2 Y3 X3 Y4 X4';
    for (const [x, y] of [
      [1, 0],
      [0, 1],
      [5, 3],
      [31, 31],
    ])
      expect(l.elementOffset(1, 0, x, y)).toBe(16384 + docEquation(S4_4K, x, y));
    for (const [x, y] of [
      [1, 0],
      [0, 1],
      [15, 15],
    ])
      expect(l.elementOffset(2, 0, x, y)).toBe(20480 + 2048 + docEquation(S4_4K, x, y));
    expect(l.subresource(2, 0).mode).toBe('SW_4KB_S (mip tail)');
  });
  it('gfx9 mip chain, 4KB_S 4 B 128x64: mip 1 is one block high and level 3 exists, so the strip is two blocks', () => {
    // mip 0 4x2 blocks (X major); mip 1 at (0,2), 2x1; mip 2 right of it at (2,2); mip 3 (16x8) is the
    // first tail level, placed below mip 2 at (2,3). Chain: 4 blocks wide, 2 + (1 + 1) = 4 high.
    const l = surfaceLayout(Gen.GFX9, tsharp(Gen.GFX9, { w: 128, h: 64, bpe: 4, tiling: 5, mips: 8 }));
    expect([0, 1, 2, 3].map((i) => l.elementOffset(i, 0, 0, 0))).toEqual([0, 8 * 4096, 10 * 4096, 14 * 4096 + 2048]);
    expect(l.size).toBe(16 * 4096);
  });
  it('gfx9 mip chain, 64KB_S 4 B 256x512, 10 levels: Y major, mip 1 beside mip 0, tail below mip 1', () => {
    // Block 128x128; mip 0 is 2x4 blocks (Y major); mip 1 (128x256) at block (2,0); mip 2 (64x128) fits
    // the tail (64 wide, 128 high) and goes below mip 1 at block (2,2). Chain: 2 + ceil(2/2) = 3 blocks
    // wide (epitch = chain pitch 384), 4 high. Tail slots k + 20 - 16: 128, 64, 32, 16, 8, 6, 5, 4 (x256).
    const l = surfaceLayout(Gen.GFX9, tsharp(Gen.GFX9, { w: 256, h: 512, bpe: 4, tiling: 9, mips: 10, pitch: 384 }));
    const tail = (2 * 3 + 2) * 65536;
    expect([...Array(10).keys()].map((i) => l.elementOffset(i, 0, 0, 0))).toEqual([
      0,
      2 * 65536,
      tail + 32768,
      tail + 16384,
      tail + 8192,
      tail + 4096,
      tail + 2048,
      tail + 1536,
      tail + 1280,
      tail + 1024,
    ]);
    expect(l.size).toBe(384 * 512 * 4);
    expect(l.elementOffset(1, 0, 0, 128)).toBe(5 * 65536);
    expect(l.elementOffset(0, 0, 128, 128)).toBe(4 * 65536);
    const S4 = '0 0 X0 X1 Y0 Y1 Y2 X2 Y3 X3 Y4 X4 Y5 X5 Y6 X6';
    for (const [x, y] of [
      [1, 0],
      [0, 1],
      [63, 127],
      [17, 90],
    ])
      expect(l.elementOffset(2, 0, x, y)).toBe(tail + 32768 + docEquation(S4, x, y));
  });
  it('gfx9 LINEAR mip chain: one 256 B-aligned pitch, levels stacked mip 0 first (ComputeSurfaceLinearPadding)', () => {
    // 70x20, 2 B: pitch 128; level heights 20, 10, 5, 3, 2, 1, 1 -> rows 0, 20, 30, 35, 38, 40, 41; chain 42.
    const l = surfaceLayout(
      Gen.GFX9,
      tsharp(Gen.GFX9, { w: 70, h: 20, bpe: 2, tiling: 0, mips: 7, layers: 2, pitch: 42 }),
    );
    expect([...Array(7).keys()].map((i) => l.elementOffset(i, 0, 0, 0))).toEqual(
      [0, 20, 30, 35, 38, 40, 41].map((r) => r * 128 * 2),
    );
    expect(l.elementOffset(1, 1, 3, 2)).toBe(42 * 256 + (22 * 128 + 3) * 2);
    expect(l.size).toBe(2 * 42 * 256);
  });
  it('gfx9 4KB_S_X, 4 B, 4 pipes: pipe bits XOR higher bits and the slice (gfx9 equation rule)', () => {
    const l = surfaceLayout(Gen.GFX9, tsharp(Gen.GFX9, { w: 32, h: 32, bpe: 4, tiling: 21, pitch: 32, layers: 2 }), {
      pipes: 4,
      banks: 1,
    });
    // base S bits: bit 10 = Y4, bit 11 = X4; bit 8 ^= bit 11 ^ Z1, bit 9 ^= bit 10 ^ Z0
    expect(l.elementOffset(0, 0, 16, 0)).toBe(2048 + 256);
    expect(l.elementOffset(0, 0, 0, 16)).toBe(1024 + 512);
    expect(l.elementOffset(0, 1, 0, 0)).toBe(4096 + 512);
    expect(l.elementOffset(0, 0, 1, 0)).toBe(4);
  });
});

// ---------------------------------------------------------------- refusals

function refusal(fn: () => unknown): { code: TilingErrorCode; mode: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof TilingError) return { code: e.code, mode: e.mode };
    throw e;
  }
  throw new Error('no TilingError');
}

describe('refusals', () => {
  it('gfx7/8: unmodelled tile modes are refused by name', () => {
    const cases: [number, string][] = [
      [15, '3D_TILED_THIN1'],
      [19, '1D_TILED_THICK'],
      [20, '2D_TILED_THICK'],
      [6, 'PRT_2D_TILED_THIN1'],
      [25, '2D_TILED_XTHICK'],
    ];
    for (const [index, name] of cases) {
      const r = refusal(() => surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 64, h: 64, tiling: index, pitch: 64 })));
      expect(r.code).toBe('unmodelled-mode');
      expect(r.mode).toContain(name);
    }
    expect(refusal(() => surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 64, h: 64, tiling: 27, pitch: 64 }))).mode).toBe(
      'TILING_INDEX 27',
    );
  });
  it('gfx7/8: a pitch that is not macro-tile aligned, 96-bit elements, linear MSAA, 3D mips', () => {
    expect(refusal(() => surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 64, h: 64, tiling: 14, pitch: 64 }))).code).toBe(
      'bad-parameters',
    );
    expect(
      refusal(() =>
        surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 64, h: 64, fmt: '32_32_32', tiling: 14, pitch: 256 })),
      ).code,
    ).toBe('unmodelled-parameters');
    expect(
      refusal(() =>
        surfaceLayout(Gen.GFX7, tsharp(Gen.GFX7, { w: 64, h: 64, tiling: 8, pitch: 64, type: '2d_msaa', samples: 2 })),
      ).code,
    ).toBe('unmodelled-layout');
    expect(
      refusal(() =>
        surfaceLayout(
          Gen.GFX7,
          tsharp(Gen.GFX7, { w: 64, h: 64, tiling: 13, pitch: 64, type: '3d', layers: 4, mips: 2 }),
        ),
      ).code,
    ).toBe('unmodelled-layout');
  });
  it('gfx10/11: unmodelled swizzle modes and configurations are refused by name', () => {
    const at = (gen: Gen, tiling: number, params: TilingParams = {}, img: Partial<Img> = {}) =>
      refusal(() => surfaceLayout(gen, tsharp(gen, { w: 64, h: 64, tiling, ...img }), params));
    expect(at(Gen.GFX10_3, 24)).toEqual({ code: 'unmodelled-mode', mode: 'SW_64KB_Z_X' });
    expect(at(Gen.GFX10_3, 31)).toEqual({ code: 'unmodelled-mode', mode: 'SW_VAR_R_X' });
    expect(at(Gen.GFX10_3, 19)).toEqual({ code: 'unmodelled-mode', mode: 'SW_64KB_R_T' });
    expect(at(Gen.GFX10_3, 17)).toEqual({ code: 'unmodelled-parameters', mode: 'SW_64KB_S_T' });
    expect(at(Gen.GFX10_3, 27)).toEqual({ code: 'unmodelled-parameters', mode: 'SW_64KB_R_X' });
    expect(at(Gen.GFX10_3, 27, { pipes: 16 })).toEqual({ code: 'unmodelled-parameters', mode: 'SW_64KB_R_X' });
    expect(at(Gen.GFX10_3, 27, { pipes: 32, pkrs: 8 })).toEqual({ code: 'unmodelled-parameters', mode: 'SW_64KB_R_X' });
    expect(at(Gen.GFX10_3, 27, { pipes: 16, pkrs: 2 })).toEqual({ code: 'bad-parameters', mode: 'SW_64KB_R_X' });
    expect(at(Gen.GFX10_3, 9, {}, { type: '2d_msaa', samples: 4 })).toEqual({
      code: 'unmodelled-layout',
      mode: 'SW_64KB_S',
    });
    expect(at(Gen.GFX10_3, 9, {}, { type: '3d', layers: 4 })).toEqual({ code: 'unmodelled-layout', mode: 'SW_64KB_S' });
    expect(at(Gen.GFX10_3, 3)).toEqual({ code: 'unmodelled-mode', mode: 'SW_256B_R' });
    expect(at(Gen.GFX11, 9)).toEqual({ code: 'unmodelled-mode', mode: 'SW_64KB_S' });
    expect(at(Gen.GFX11, 25, { pipes: 16, pkrs: 8 })).toEqual({ code: 'unmodelled-mode', mode: 'SW_64KB_S_X' });
    expect(at(Gen.GFX11, 30, { pipes: 16, pkrs: 8 })).toEqual({ code: 'unmodelled-mode', mode: 'SW_256KB_D_X' });
    // gfx9 mip chains: 64x64 at 64 KB sits in the tail (epitch = chain height 128); 256 B chains are invalid
    expect(at(Gen.GFX9, 9, {}, { mips: 3, pitch: 64 })).toEqual({ code: 'bad-parameters', mode: 'SW_64KB_S' });
    expect(surfaceLayout(Gen.GFX9, tsharp(Gen.GFX9, { w: 64, h: 64, tiling: 9, mips: 3, pitch: 128 })).size).toBe(
      65536,
    );
    expect(at(Gen.GFX9, 1, {}, { mips: 3 })).toEqual({ code: 'bad-parameters', mode: 'SW_256B_S' });
    expect(at(Gen.GFX9, 0, {}, { mips: 3, pitch: 64 })).toEqual({ code: 'bad-parameters', mode: 'SW_LINEAR' });
    // 16x16 at 4KB_S is all tail; level 8 would be tail slot 16 of 16
    expect(() => surfaceLayout(Gen.GFX9, tsharp(Gen.GFX9, { w: 16, h: 16, tiling: 5, mips: 8 }))).not.toThrow();
    expect(at(Gen.GFX9, 5, {}, { w: 16, h: 16, mips: 9 })).toEqual({ code: 'unmodelled-layout', mode: 'SW_4KB_S' });
    expect(at(Gen.GFX9, 9, {}, { mips: 3, type: '3d', layers: 4 })).toEqual({
      code: 'unmodelled-layout',
      mode: 'SW_64KB_S',
    });
    expect(at(Gen.GFX9, 25, {}, { pitch: 128 })).toEqual({ code: 'unmodelled-parameters', mode: 'SW_64KB_S_X' });
  });
  it("gfx7/8: P4_32x32 / P8_32x64_32x32 with bank width 1 (addrlib's bank pre-adjust is not modelled)", () => {
    const tileMode: Gfx7TileMode = {
      name: 'P4',
      arrayMode: '2D_TILED_THIN1',
      microMode: 'thin',
      pipeConfig: 'P4_32x32',
    };
    const macroMode = { banks: 4, bankWidth: 1, bankHeight: 1, macroTileAspect: 2 };
    const desc = tsharp(Gen.GFX8, { w: 256, h: 64, tiling: 0, pitch: 256 });
    expect(refusal(() => surfaceLayout(Gen.GFX8, desc, { tileMode, macroMode }))).toEqual({
      code: 'unmodelled-parameters',
      mode: '2D_TILED_THIN1 (P4)',
    });
  });

  it('DCC-compressed memory, short guest bytes and wrong-sized linear data', () => {
    const desc = tsharp(Gen.GFX10_3, { w: 64, h: 64, tiling: 9 });
    const dcc = { ...desc, compressed: true };
    expect(refusal(() => surfaceLayout(Gen.GFX10_3, dcc)).mode).toBe('DCC');
    const l = surfaceLayout(Gen.GFX10_3, desc);
    expect(refusal(() => readSurface(l, new Uint8Array(100), 0, 0)).code).toBe('out-of-bounds');
    expect(refusal(() => writeSurface(l, new Uint8Array(l.size), 0, 0, new Uint8Array(3))).code).toBe('out-of-bounds');
    expect(refusal(() => l.subresource(1, 0)).code).toBe('out-of-bounds');
    expect(refusal(() => surfaceLayout(Gen.GFX10, desc)).code).toBe('bad-parameters');
  });
});
