/**
 * Surface layout from a decoded T#: where each mip level and array slice (cube face) of an image
 * lies in guest memory, and the element address function of each, for every modelled tiling
 * mode (D007). `readSurface` gathers one subresource into linear row-major elements for the texel
 * decoder; `writeSurface` is its inverse (tests, and the capture builder's generated images).
 *
 * Mip-chain rules:
 * - gfx7/8: levels from mip 0 upward, each holding all its slices; a level starts at the base
 *   alignment of its mode; POW2_PAD pads dimensions and the slice count to powers of two; mip
 *   widths follow the base pitch (siaddrlib HwlComputeMipLevel); a 2D level smaller than a macro
 *   tile falls back to 1D (DESCRIPTORS.md §5.1 "Sizes"; addrlib DegradeTo1D's first test).
 * - gfx10/10.3/11: each slice holds its whole chain; LINEAR and 256 B modes store mips smallest
 *   first; 4 KB and 64 KB modes put the mip tail in the first block and the larger mips after it,
 *   smallest first (gfx10addrlib ComputeSurfaceInfoMacroTiled, ComputeSurfaceAddrFromCoordMacroTiled).
 * - gfx9 (4 KB / 64 KB modes): each slice is one block grid holding the whole chain: mip 0 first,
 *   mip 1 below or beside it, the next levels alternating around, the mip tail in the last block,
 *   levels inside it at fixed byte offsets (gfx9addrlib GetMipChainInfo, GetMipStartPos; see
 *   `gfx9MipChain`); LINEAR levels share mip 0's pitch and stack mip 0 first
 *   (addrlib ComputeSurfaceLinearPadding); 256 B mip chains are refused.
 */
import { Gen, GEN_NAMES } from '../../isa/gen.ts';
import type { ImageDescriptor } from '../descriptors/index.ts';
import { bytesPerElement as formatBytesPerElement } from './formats.ts';
import { TilingError, alignUp, equationEvaluator, isPow2, log2Exact, nextPow2, type Equation } from './tiling.ts';
import {
  GFX7_MODELLED_ARRAY_MODES,
  checkMacroParams,
  linearOffset,
  macroModeIndex,
  macroTileDims,
  pipesOf,
  ps4MacroMode,
  ps4TileMode,
  tiled1dOffset,
  tiled2dAddress,
  type Gfx7LevelShape,
  type Gfx7MacroMode,
  type Gfx7TileMode,
  type Gfx7Tiling,
} from './tiling-gfx7.ts';
import { gfx9MipChain, swModeInfo, swizzleEquation, thinBlockDims, type SwizzleConfig } from './tiling-gfx9.ts';

/** What the capture knows about the chip besides the T#. */
export interface TilingParams extends SwizzleConfig {
  /** Bytes per element (texel, or 4x4 block); default: from the T# format. */
  readonly bytesPerElement?: number;
  /** gfx7/8: the GB_TILE_MODEn entry the T#'s TILING_INDEX selects (default: the PS4 table). */
  readonly tileMode?: Gfx7TileMode;
  /** gfx7/8: the GB_MACROTILE_MODEn entry for 2D modes (default: the PS4 table). */
  readonly macroMode?: Gfx7MacroMode;
  /** gfx7/8 2D: bank and pipe swizzle (default: from base address bits 8 and up). */
  readonly bankSwizzle?: number;
  readonly pipeSwizzle?: number;
  /** Lay out a surface whose T# says DCC-compressed (the bytes are then compressed, §6.9). */
  readonly allowCompressed?: boolean;
}

export interface SubresourceLayout {
  readonly level: number;
  readonly slice: number;
  /** Texel size of the level. */
  readonly width: number;
  readonly height: number;
  /** Elements to read: texels, or 4x4 blocks of a BC format. */
  readonly elementsWide: number;
  readonly elementsHigh: number;
  /** Bytes this subresource spans, from the layout base (mip-tail levels share their block). */
  readonly offset: number;
  readonly size: number;
  /** The mode the level is stored in (a gfx7 2D chain degrades its small levels to 1D). */
  readonly mode: string;
}

export interface SurfaceLayout {
  readonly gen: Gen;
  /** The T#'s mode, e.g. `2D_TILED_THIN1 (Thin2DThin)`, `SW_64KB_R_X`. */
  readonly mode: string;
  /** Guest byte address of the surface (the T# address less its swizzle bits). */
  readonly base: number;
  /** Bytes from `base` the whole surface spans. */
  readonly size: number;
  readonly bytesPerElement: number;
  /** 1, or 4 for BC formats. */
  readonly blockWidth: number;
  readonly blockHeight: number;
  readonly levels: number;
  readonly slices: number;
  readonly samples: number;
  /** Level-major: subresources[level * slices + slice]. */
  readonly subresources: readonly SubresourceLayout[];
  subresource(level: number, slice: number): SubresourceLayout;
  /** Byte offset from `base` of element (x, y) of a subresource. */
  elementOffset(level: number, slice: number, x: number, y: number, sample?: number): number;
}

type AddrFn = (x: number, y: number, slice: number, sample: number) => number;

interface Level {
  readonly width: number;
  readonly height: number;
  readonly elementsWide: number;
  readonly elementsHigh: number;
  readonly mode: string;
  readonly addr: AddrFn;
  /** Offset and size of slice `s`. */
  readonly region: (s: number) => { offset: number; size: number };
}

// ---------------------------------------------------------------- helpers

function elementBytes(desc: ImageDescriptor, params: TilingParams, mode: string): number {
  if (params.bytesPerElement !== undefined) return params.bytesPerElement;
  const bits = desc.format.bits_per_element;
  if (bits !== null && bits % 8 === 0) return bits / 8;
  try {
    return formatBytesPerElement(desc.format);
  } catch {
    throw new TilingError(
      'unmodelled-parameters',
      mode,
      `element size of format ${desc.format.name} unknown; pass bytesPerElement`,
    );
  }
}

function shiftCeil(v: number, s: number): number {
  return Math.max(1, Math.ceil(v / 2 ** s));
}

function texelDims(desc: ImageDescriptor, level: number): { width: number; height: number } {
  return { width: Math.max(1, desc.width >> level), height: Math.max(1, desc.height >> level) };
}

function sliceCount(desc: ImageDescriptor): number {
  return desc.type_name === '3d' ? desc.depth : desc.layers;
}

function finish(
  desc: ImageDescriptor,
  mode: string,
  base: number,
  size: number,
  bpe: number,
  bw: number,
  slices: number,
  levels: readonly Level[],
): SurfaceLayout {
  const subresources: SubresourceLayout[] = [];
  levels.forEach((lv, level) => {
    for (let slice = 0; slice < slices; slice++) {
      const r = lv.region(slice);
      subresources.push({
        level,
        slice,
        width: lv.width,
        height: lv.height,
        elementsWide: lv.elementsWide,
        elementsHigh: lv.elementsHigh,
        offset: r.offset,
        size: r.size,
        mode: lv.mode,
      });
    }
  });
  const samples = desc.samples;
  const sub = (level: number, slice: number): SubresourceLayout => {
    if (
      !Number.isInteger(level) ||
      !Number.isInteger(slice) ||
      level < 0 ||
      level >= levels.length ||
      slice < 0 ||
      slice >= slices
    )
      throw new TilingError(
        'out-of-bounds',
        mode,
        `level ${level} slice ${slice} (levels ${levels.length}, slices ${slices})`,
      );
    return subresources[level * slices + slice];
  };
  return {
    gen: desc.gen,
    mode,
    base,
    size,
    bytesPerElement: bpe,
    blockWidth: bw,
    blockHeight: bw,
    levels: levels.length,
    slices,
    samples,
    subresources,
    subresource: sub,
    elementOffset(level, slice, x, y, sample = 0) {
      const s = subresources[level * slices + slice] ?? sub(level, slice);
      if (s.level !== level || s.slice !== slice) sub(level, slice);
      if (x < 0 || y < 0 || x >= s.elementsWide || y >= s.elementsHigh || sample < 0 || sample >= samples)
        throw new TilingError('out-of-bounds', mode, `element (${x}, ${y}) sample ${sample} of level ${level}`);
      return levels[level].addr(x, y, slice, sample);
    },
  };
}

// ---------------------------------------------------------------- gfx7/8

function gfx7Layout(desc: ImageDescriptor, params: TilingParams): SurfaceLayout {
  const index = 'tiling_index' in desc.tiling ? desc.tiling.tiling_index : -1;
  const tileMode = params.tileMode ?? ps4TileMode(index);
  const baseName = `${tileMode.arrayMode} (${tileMode.name})`;
  if (!GFX7_MODELLED_ARRAY_MODES.includes(tileMode.arrayMode))
    throw new TilingError('unmodelled-mode', baseName, 'only LINEAR_*, 1D_TILED_THIN1 and 2D_TILED_THIN1 are modelled');
  const bpe = elementBytes(desc, params, baseName);
  const bw = desc.format.block_compressed ? 4 : 1;
  const samples = desc.samples;
  const slices = sliceCount(desc);
  const pow2 = ((desc.fields as Record<string, number>).pow2_pad ?? 0) !== 0;
  if (desc.type_name === '3d' && desc.mip_count > 1)
    throw new TilingError('unmodelled-layout', baseName, '3D mip chains (depth shrinks per level) are not modelled');
  if (tileMode.arrayMode.startsWith('LINEAR') && samples > 1)
    throw new TilingError('unmodelled-layout', baseName, 'linear MSAA surfaces');
  if (desc.pitch === null) throw new TilingError('bad-parameters', baseName, 'the T# has no pitch');
  const pitch0 = Math.ceil(desc.pitch / bw);

  if (!tileMode.arrayMode.startsWith('LINEAR') && ![1, 2, 4, 8, 16].includes(bpe))
    throw new TilingError(
      'unmodelled-parameters',
      baseName,
      `${bpe}-byte elements in a tiled mode (96-bit formats expand 3x)`,
    );
  let tiling: Gfx7Tiling | null = null;
  let base = desc.address;
  if (tileMode.arrayMode === '2D_TILED_THIN1') {
    const { tileSplitBytes, index: mt } = macroModeIndex(tileMode, bpe, samples);
    const macro = params.macroMode ?? ps4MacroMode(mt);
    const pipes = pipesOf(tileMode.pipeConfig);
    const pipeBits = log2Exact(pipes);
    const bankBits = log2Exact(macro.banks);
    const swz = Math.floor(desc.address / 256) % 2 ** (pipeBits + bankBits);
    base = desc.address - swz * 256;
    tiling = {
      mode: tileMode,
      ...macro,
      tileSplitBytes,
      pipeSwizzle: params.pipeSwizzle ?? swz % pipes,
      bankSwizzle: params.bankSwizzle ?? Math.floor(swz / pipes),
    };
    checkMacroParams(tiling, bpe);
  }

  const levels: Level[] = [];
  let total = 0;
  let basePitchTexels = desc.pitch;
  for (let i = 0; i < desc.mip_count; i++) {
    let texW = i === 0 ? desc.width : Math.max(1, basePitchTexels >> i);
    let texH = Math.max(1, desc.height >> i);
    if (pow2) {
      texW = nextPow2(texW);
      texH = nextPow2(texH);
    }
    const elemW = Math.ceil(texW / bw);
    const elemH = Math.ceil(texH / bw);
    const nSlices = pow2 ? nextPow2(slices) : slices;
    let arrayMode = tileMode.arrayMode;
    if (tiling !== null && i > 0) {
      const mt = macroTileDims(tiling);
      if (elemW < mt.width || elemH < mt.height) arrayMode = '1D_TILED_THIN1';
    }
    const name = arrayMode === tileMode.arrayMode ? baseName : `${arrayMode} (${tileMode.name}, degraded)`;
    let pitch: number;
    let height: number;
    let baseAlign: number;
    let addr2: (s: Gfx7LevelShape, sliceBytes: number) => AddrFn;
    if (arrayMode === 'LINEAR_GENERAL') {
      pitch = i === 0 ? pitch0 : elemW;
      height = elemH;
      baseAlign = 1;
      addr2 = (s) => (x, y, slice) => linearOffset(s, x, y, slice);
    } else if (arrayMode === 'LINEAR_ALIGNED') {
      const pitchAlign = Math.max(8, 64 / bpe);
      const sliceAlign = Math.max(64, 256 / bpe); // pixels, siaddrlib HwlGetSizeAdjustmentLinear
      pitch = i === 0 ? pitch0 : alignUp(elemW, pitchAlign);
      if (i > 0) while ((pitch * elemH) % sliceAlign !== 0) pitch += pitchAlign;
      let heightAlign = 1;
      while ((pitch * heightAlign) % sliceAlign !== 0 && heightAlign < sliceAlign) heightAlign++;
      height = alignUp(elemH, heightAlign);
      baseAlign = 256;
      addr2 = (s) => (x, y, slice) => linearOffset(s, x, y, slice);
    } else if (arrayMode === '1D_TILED_THIN1') {
      if (i === 0 && pitch0 % 8 !== 0)
        throw new TilingError('bad-parameters', name, `pitch ${pitch0} is not a multiple of 8`);
      pitch = i === 0 ? pitch0 : alignUp(elemW, 8);
      height = alignUp(elemH, 8);
      if (i > 0) while ((pitch * height * bpe * samples) % 256 !== 0) pitch += 8;
      baseAlign = 256;
      addr2 = (s, sliceBytes) => (x, y, slice, sample) => tiled1dOffset(tileMode, s, sliceBytes, x, y, slice, sample);
    } else {
      const t = tiling as Gfx7Tiling;
      const mt = macroTileDims(t);
      if (i === 0 && pitch0 % mt.width !== 0)
        throw new TilingError(
          'bad-parameters',
          name,
          `pitch ${pitch0} is not a multiple of the ${mt.width}x${mt.height} macro tile (check the macro-tile parameters)`,
        );
      pitch = i === 0 ? pitch0 : alignUp(elemW, mt.width);
      height = alignUp(elemH, mt.height);
      const tileSize = Math.min(t.tileSplitBytes, 64 * bpe * samples);
      baseAlign = pipesOf(t.mode.pipeConfig) * t.bankWidth * t.banks * t.bankHeight * tileSize;
      addr2 = (s) => tiled2dAddress(t, s);
    }
    if (i === 0) basePitchTexels = pitch * bw;
    if (pitch < elemW && i === 0)
      throw new TilingError('bad-parameters', name, `pitch ${pitch} elements is less than the width ${elemW}`);
    const shape: Gfx7LevelShape = { pitch, height, bytesPerElement: bpe, samples };
    let sliceBytes = pitch * height * bpe * samples;
    if (arrayMode === '1D_TILED_THIN1') sliceBytes = alignUp(sliceBytes, 256);
    const offset = alignUp(total, baseAlign);
    total = offset + sliceBytes * nSlices;
    const fn = addr2(shape, sliceBytes);
    const tex = texelDims(desc, i);
    levels.push({
      width: tex.width,
      height: tex.height,
      elementsWide: Math.ceil(tex.width / bw),
      elementsHigh: Math.ceil(tex.height / bw),
      mode: name,
      addr: (x, y, slice, sample) => offset + fn(x, y, slice, sample),
      region: (s) => ({ offset: offset + s * sliceBytes, size: sliceBytes }),
    });
  }
  return finish(desc, baseName, base, total, bpe, bw, slices, levels);
}

// ---------------------------------------------------------------- gfx9+

function gfx9PlusLayout(desc: ImageDescriptor, params: TilingParams): SurfaceLayout {
  const gen = desc.gen;
  const swMode = 'sw_mode' in desc.tiling ? desc.tiling.sw_mode : -1;
  const info = swModeInfo(swMode, gen);
  const mode = info.name;
  const bpe = elementBytes(desc, params, mode);
  const bw = desc.format.block_compressed ? 4 : 1;
  const slices = sliceCount(desc);
  const n = desc.mip_count;
  if (!isPow2(bpe) || bpe > 16)
    throw new TilingError('unmodelled-parameters', mode, `${bpe}-byte elements (powers of two up to 16 are modelled)`);
  const elemLog2 = log2Exact(bpe);
  if (desc.samples > 1)
    throw new TilingError('unmodelled-layout', mode, 'MSAA surfaces (fragment patterns) are not modelled');
  if (desc.type_name === '3d' && !info.linear)
    throw new TilingError('unmodelled-layout', mode, '3D tiled surfaces (thick S3/D3 patterns) are not modelled');
  if (desc.type_name === '3d' && n > 1) throw new TilingError('unmodelled-layout', mode, '3D mip chains');
  const elemW0 = Math.ceil(desc.width / bw);
  const elemH0 = Math.ceil(desc.height / bw);
  const dims = (i: number) => ({ w: shiftCeil(elemW0, i), h: shiftCeil(elemH0, i) });
  const tex = (i: number) => {
    const t = texelDims(desc, i);
    return { ...t, elementsWide: Math.ceil(t.width / bw), elementsHigh: Math.ceil(t.height / bw) };
  };

  if (info.linear && gen === Gen.GFX9 && n > 1) {
    // addrlib ComputeSurfaceLinearPadding: one pitch (mip 0's, 256 B aligned) for every level, levels
    // stacked mip 0 first, each ceil(half) the previous height; PITCH holds the chain height.
    const pitch = alignUp(elemW0, 256 / bpe);
    const rows: number[] = [];
    let chainHeight = 0;
    for (let i = 0, h = elemH0; i < n; i++, h = Math.max(1, Math.ceil(h / 2))) {
      rows.push(chainHeight);
      chainHeight += h;
    }
    if (desc.pitch !== null && desc.pitch !== 1 && desc.pitch !== chainHeight)
      throw new TilingError(
        'bad-parameters',
        mode,
        `PITCH ${desc.pitch}: a gfx9 LINEAR mip chain of this size has epitch + 1 = ${chainHeight} (chain height)`,
      );
    const sliceSize = pitch * chainHeight * bpe;
    const levels: Level[] = rows.map((row, i) => {
      const t = tex(i);
      const off = row * pitch * bpe;
      return {
        ...t,
        mode,
        addr: (x, y, slice) => slice * sliceSize + off + (y * pitch + x) * bpe,
        region: (s) => ({ offset: s * sliceSize + off, size: t.elementsHigh * pitch * bpe }),
      };
    });
    return finish(desc, mode, desc.address, sliceSize * slices, bpe, bw, slices, levels);
  }

  if (info.linear) {
    const pitchAlign = 256 / bpe;
    let pitches: number[];
    let heights: number[];
    if (n === 1) {
      const p = desc.pitch ?? alignUp(elemW0, pitchAlign);
      if (p < elemW0) throw new TilingError('bad-parameters', mode, `pitch ${p} is less than the width ${elemW0}`);
      pitches = [p];
      heights = [elemH0];
    } else {
      pitches = [];
      heights = [];
      for (let i = 0; i < n; i++) {
        pitches.push(alignUp(dims(i).w, pitchAlign));
        heights.push(dims(i).h);
      }
    }
    const offsets: number[] = new Array<number>(n);
    let sliceSize = 0;
    for (let i = n - 1; i >= 0; i--) {
      offsets[i] = sliceSize;
      sliceSize += pitches[i] * heights[i] * bpe;
    }
    const levels: Level[] = [];
    for (let i = 0; i < n; i++) {
      const pitch = pitches[i];
      const off = offsets[i];
      const levelBytes = pitch * heights[i] * bpe;
      levels.push({
        ...tex(i),
        mode,
        addr: (x, y, slice) => slice * sliceSize + off + (y * pitch + x) * bpe,
        region: (s) => ({ offset: s * sliceSize + off, size: levelBytes }),
      });
    }
    return finish(desc, mode, desc.address, sliceSize * slices, bpe, bw, slices, levels);
  }

  const eq: Equation = swizzleEquation(gen, swMode, elemLog2, params);
  const blk = thinBlockDims(info.blockBits, elemLog2);
  const blockSize = 2 ** info.blockBits;
  const xorBits = info.xor ? Math.floor((desc.address % blockSize) / 256) * 256 : 0;
  const base = desc.address - xorBits;
  const evaluate = equationEvaluator(eq);
  const blockAddr = (x: number, y: number, z: number): number => (evaluate(x, y, z) ^ xorBits) >>> 0;

  if (gen === Gen.GFX9 && n > 1) {
    const chain = gfx9MipChain(mode, info.blockBits, blk, elemW0, elemH0, n);
    const epitch = chain.epitchIsHeight ? chain.chainHeight : chain.chainPitch;
    // PITCH is epitch + 1; 1 (field 0) is taken as unset, anything else must agree with the chain.
    if (desc.pitch !== null && desc.pitch !== 1 && desc.pitch !== epitch)
      throw new TilingError(
        'bad-parameters',
        mode,
        `PITCH ${desc.pitch}: a gfx9 mip chain of this size has epitch + 1 = ${epitch} (${chain.epitchIsHeight ? 'chain height' : 'chain pitch'})`,
      );
    const pb = chain.chainPitch / blk.width;
    const sliceSize = chain.chainPitch * chain.chainHeight * bpe;
    const levels: Level[] = chain.levels.map((c, i) => {
      const t = tex(i);
      const inTail = c.tailOffset >= 0;
      const start = (c.blockY * pb + c.blockX) * blockSize;
      const tail = inTail ? c.tailOffset : 0;
      const span = inTail
        ? blockSize
        : ((Math.ceil(t.elementsHigh / blk.height) - 1) * pb + Math.ceil(t.elementsWide / blk.width)) * blockSize;
      return {
        ...t,
        mode: inTail ? `${mode} (mip tail)` : mode,
        // The tail offset is ORed into the in-block address before the slice and base XOR (XOR-equivalent: disjoint bits).
        addr: (x, y, slice) =>
          slice * sliceSize +
          start +
          (Math.floor(y / blk.height) * pb + Math.floor(x / blk.width)) * blockSize +
          ((blockAddr(x, y, slice) ^ tail) >>> 0),
        region: (s) => ({ offset: s * sliceSize + start, size: span }),
      };
    });
    return finish(desc, mode, base, sliceSize * slices, bpe, bw, slices, levels);
  }

  if (gen === Gen.GFX9) {
    const pitch = desc.pitch ?? alignUp(elemW0, blk.width);
    if (pitch % blk.width !== 0 || pitch < elemW0)
      throw new TilingError(
        'bad-parameters',
        mode,
        `pitch ${pitch} is not a multiple of the ${blk.width}-element block width`,
      );
    const height = alignUp(elemH0, blk.height);
    const sliceSize = pitch * height * bpe;
    const pb = pitch / blk.width;
    const level: Level = {
      ...tex(0),
      mode,
      addr: (x, y, slice) =>
        slice * sliceSize +
        (Math.floor(y / blk.height) * pb + Math.floor(x / blk.width)) * blockSize +
        blockAddr(x, y, slice),
      region: (s) => ({ offset: s * sliceSize, size: sliceSize }),
    };
    return finish(desc, mode, base, sliceSize * slices, bpe, bw, slices, [level]);
  }

  // gfx10 / 10.3 / 11
  const pitches: number[] = [];
  const heights: number[] = [];
  const mipBytes: number[] = [];
  const mbo: number[] = new Array<number>(n).fill(0);
  const tailX: number[] = new Array<number>(n).fill(0);
  const tailY: number[] = new Array<number>(n).fill(0);
  let sliceSize = 0;
  let firstInTail = n;
  if (info.blockBits === 8 || n === 1) {
    // 256 B modes have no tail: all levels block aligned, smallest first.
    for (let i = 0; i < n; i++) {
      pitches.push(alignUp(dims(i).w, blk.width));
      heights.push(alignUp(dims(i).h, blk.height));
      mipBytes.push(pitches[i] * heights[i] * bpe);
    }
    for (let i = n - 1; i >= 0; i--) {
      mbo[i] = sliceSize;
      sliceSize += mipBytes[i];
    }
  } else {
    if (info.blockBits % 2 !== 0) throw new TilingError('unmodelled-layout', mode, 'odd block sizes');
    const tailW = blk.width / 2;
    const tailH = blk.height;
    const maxMipsInTail = info.blockBits <= 11 ? 1 + (1 << (info.blockBits - 9)) : info.blockBits - 4;
    for (let i = 0; i < n; i++) {
      const d = dims(i);
      if (d.w <= tailW && d.h <= tailH && n - i <= maxMipsInTail) {
        firstInTail = i;
        sliceSize += blockSize;
        break;
      }
      pitches.push(alignUp(d.w, blk.width));
      heights.push(alignUp(d.h, blk.height));
      mipBytes.push(pitches[i] * heights[i] * bpe);
      sliceSize += mipBytes[i];
    }
    let off = firstInTail !== n ? blockSize : 0;
    for (let i = firstInTail - 1; i >= 0; i--) {
      mbo[i] = off;
      off += mipBytes[i];
    }
    const b256 = thinBlockDims(8, elemLog2);
    for (let i = firstInTail; i < n; i++) {
      const m = maxMipsInTail - 1 - (i - firstInTail);
      const mipOffset = m > 6 ? 16 << m : m << 8;
      let mx = 0;
      let my = 0;
      for (let b = 0; b < 6; b++) {
        mx |= ((mipOffset >> (9 + 2 * b)) & 1) << b;
        my |= ((mipOffset >> (8 + 2 * b)) & 1) << b;
      }
      tailX[i] = mx * b256.width;
      tailY[i] = my * b256.height;
      pitches.push(tailW);
      heights.push(tailH);
      mipBytes.push(blockSize);
    }
  }
  const levels: Level[] = [];
  for (let i = 0; i < n; i++) {
    const pb = Math.max(1, pitches[i] / blk.width);
    const off = mbo[i];
    const cx = tailX[i];
    const cy = tailY[i];
    const inTail = i >= firstInTail;
    const bytes = inTail ? blockSize : mipBytes[i];
    levels.push({
      ...tex(i),
      mode: inTail ? `${mode} (mip tail)` : mode,
      addr: (x, y, slice) =>
        slice * sliceSize +
        off +
        (Math.floor(y / blk.height) * pb + Math.floor(x / blk.width)) * blockSize +
        blockAddr(x + cx, y + cy, slice),
      region: (s) => ({ offset: s * sliceSize + off, size: bytes }),
    });
  }
  return finish(desc, mode, base, sliceSize * slices, bpe, bw, slices, levels);
}

// ---------------------------------------------------------------- API

/** The layout of a surface from its decoded T#, or a TilingError for what is not modelled. */
export function surfaceLayout(gen: Gen, desc: ImageDescriptor, params: TilingParams = {}): SurfaceLayout {
  if (desc.gen !== gen)
    throw new TilingError(
      'bad-parameters',
      GEN_NAMES[gen],
      `the T# was decoded for ${desc.gen_name}, not ${GEN_NAMES[gen]}`,
    );
  if (desc.compressed && params.allowCompressed !== true)
    throw new TilingError(
      'unmodelled-layout',
      'DCC',
      'the T# marks the memory DCC-compressed (COMPRESSION_EN or a metadata address); raw texels would be wrong',
    );
  if (desc.format.bits_per_element === null && params.bytesPerElement === undefined && desc.format.name === 'INVALID')
    throw new TilingError('unmodelled-parameters', 'format', 'INVALID data format');
  return gen <= Gen.GFX8 ? gfx7Layout(desc, params) : gfx9PlusLayout(desc, params);
}

/** Guest memory: bytes starting at the layout base, or bytes starting at a given guest address. */
export type GuestBytes = Uint8Array | { readonly address: number; readonly bytes: Uint8Array };

function resolve(layout: SurfaceLayout, guest: GuestBytes): { bytes: Uint8Array; start: number } {
  if (guest instanceof Uint8Array) return { bytes: guest, start: 0 };
  return { bytes: guest.bytes, start: layout.base - guest.address };
}

function forEachElement(
  layout: SurfaceLayout,
  guest: GuestBytes,
  level: number,
  slice: number,
  sample: number,
  fn: (guestOffset: number, linearOffset: number) => void,
): SubresourceLayout {
  const sub = layout.subresource(level, slice);
  const { bytes, start } = resolve(layout, guest);
  const bpe = layout.bytesPerElement;
  const lo = start + sub.offset;
  if (lo < 0 || lo + sub.size > bytes.length)
    throw new TilingError(
      'out-of-bounds',
      layout.mode,
      `level ${level} slice ${slice} spans bytes ${lo}..${lo + sub.size} of ${bytes.length} given`,
    );
  for (let y = 0; y < sub.elementsHigh; y++)
    for (let x = 0; x < sub.elementsWide; x++) {
      const off = start + layout.elementOffset(level, slice, x, y, sample);
      if (off < 0 || off + bpe > bytes.length)
        throw new TilingError('out-of-bounds', layout.mode, `element (${x}, ${y}) at byte ${off} of ${bytes.length}`);
      fn(off, (y * sub.elementsWide + x) * bpe);
    }
  return sub;
}

/** One subresource as linear row-major elements (elementsWide x elementsHigh x bytesPerElement bytes). */
export function readSurface(
  layout: SurfaceLayout,
  guest: GuestBytes,
  level: number,
  slice: number,
  sample = 0,
): Uint8Array {
  const sub = layout.subresource(level, slice);
  const bpe = layout.bytesPerElement;
  const out = new Uint8Array(sub.elementsWide * sub.elementsHigh * bpe);
  const { bytes } = resolve(layout, guest);
  forEachElement(layout, guest, level, slice, sample, (g, l) => {
    for (let b = 0; b < bpe; b++) out[l + b] = bytes[g + b];
  });
  return out;
}

/** The inverse of readSurface: stores linear row-major elements into the tiled guest bytes. */
export function writeSurface(
  layout: SurfaceLayout,
  guest: GuestBytes,
  level: number,
  slice: number,
  linear: Uint8Array,
  sample = 0,
): void {
  const sub = layout.subresource(level, slice);
  const bpe = layout.bytesPerElement;
  if (linear.length !== sub.elementsWide * sub.elementsHigh * bpe)
    throw new TilingError(
      'out-of-bounds',
      layout.mode,
      `linear data is ${linear.length} bytes, level ${level} needs ${sub.elementsWide * sub.elementsHigh * bpe}`,
    );
  const { bytes } = resolve(layout, guest);
  forEachElement(layout, guest, level, slice, sample, (g, l) => {
    for (let b = 0; b < bpe; b++) bytes[g + b] = linear[l + b];
  });
}
