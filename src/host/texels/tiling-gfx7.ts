/**
 * GFX7/8 (PS4, PS4 Pro) tile modes: LINEAR_GENERAL, LINEAR_ALIGNED, 1D_TILED_THIN1 and
 * 2D_TILED_THIN1, with the micro-tile orderings (display, thin, depth) and the 2D pipe and bank
 * interleave. Equations: DESCRIPTORS.md §5.1, which restates addrlib r800/egbaddrlib.cpp and
 * siaddrlib.cpp (ComputePixelIndexWithinMicroTile, ComputeSurfaceAddrFromCoordMacroTiled,
 * ComputePipeFromCoord, ComputeBankFromCoord); the pipe configs DESCRIPTORS.md does not list come
 * from siaddrlib's ComputePipeFromCoord. See D007.
 */
import { TilingError, isPow2, log2Exact } from './tiling.ts';

export type Gfx7ArrayMode =
  | 'LINEAR_GENERAL'
  | 'LINEAR_ALIGNED'
  | '1D_TILED_THIN1'
  | '1D_TILED_THICK'
  | '2D_TILED_THIN1'
  | '2D_TILED_THICK'
  | '2D_TILED_XTHICK'
  | '3D_TILED_THIN1'
  | '3D_TILED_THICK'
  | '3D_TILED_XTHICK'
  | 'PRT_TILED_THIN1'
  | 'PRT_2D_TILED_THIN1'
  | 'PRT_3D_TILED_THIN1'
  | 'PRT_TILED_THICK'
  | 'PRT_2D_TILED_THICK'
  | 'PRT_3D_TILED_THICK';

/** The array modes with a modelled address function. */
export const GFX7_MODELLED_ARRAY_MODES: readonly Gfx7ArrayMode[] = [
  'LINEAR_GENERAL',
  'LINEAR_ALIGNED',
  '1D_TILED_THIN1',
  '2D_TILED_THIN1',
];

export type Gfx7MicroMode = 'display' | 'thin' | 'depth' | 'thick' | 'rotated';

export const PIPE_CONFIGS = [
  'P2',
  'P4_8x16',
  'P4_16x16',
  'P4_16x32',
  'P4_32x32',
  'P8_16x16_8x16',
  'P8_16x32_8x16',
  'P8_16x32_16x16',
  'P8_32x32_8x16',
  'P8_32x32_16x16',
  'P8_32x32_16x32',
  'P8_32x64_32x32',
  'P16_32x32_8x16',
  'P16_32x32_16x16',
] as const;
export type PipeConfig = (typeof PIPE_CONFIGS)[number];

export function pipesOf(cfg: PipeConfig): number {
  return cfg.startsWith('P16') ? 16 : cfg.startsWith('P8') ? 8 : cfg.startsWith('P4') ? 4 : 2;
}

/** A GB_TILE_MODEn entry: what TILING_INDEX selects. */
export interface Gfx7TileMode {
  /** For messages, e.g. `Thin2DThin`. */
  readonly name: string;
  readonly arrayMode: Gfx7ArrayMode;
  readonly microMode: Gfx7MicroMode;
  readonly pipeConfig: PipeConfig;
  /** Depth modes: the tile split in bytes (64..4096). Ignored by colour modes. */
  readonly tileSplitBytes?: number;
  /** Colour modes: the sample split (1, 2, 4, 8). */
  readonly sampleSplit?: number;
}

/** A GB_MACROTILE_MODEn entry. */
export interface Gfx7MacroMode {
  readonly banks: number;
  readonly bankWidth: number;
  readonly bankHeight: number;
  readonly macroTileAspect: number;
}

/** Everything the address function of one surface needs (the capture provides it, or `ps4Tiling` derives it). */
export interface Gfx7Tiling extends Gfx7MacroMode {
  readonly mode: Gfx7TileMode;
  /** Effective tile split in bytes (2D). */
  readonly tileSplitBytes: number;
  /** Bank and pipe swizzle (2D), e.g. from the base address bits above 256 B. */
  readonly bankSwizzle: number;
  readonly pipeSwizzle: number;
}

// ---------------------------------------------------------------- PS4 tables (DESCRIPTORS.md §5.1)

function ps4Entry(index: number): Gfx7TileMode | null {
  const p8 = 'P8_32x32_16x16' as const;
  const p8b = 'P8_32x32_8x16' as const;
  if (index >= 0 && index <= 4)
    return {
      name: `Depth2DThin${[64, 128, 256, 512, '1K'][index]}`,
      arrayMode: '2D_TILED_THIN1',
      microMode: 'depth',
      pipeConfig: p8,
      tileSplitBytes: 64 << index,
      sampleSplit: 1,
    };
  switch (index) {
    case 5:
      return { name: 'Depth1DThin', arrayMode: '1D_TILED_THIN1', microMode: 'depth', pipeConfig: p8 };
    case 6:
    case 7:
      return { name: `DepthPrt(${index})`, arrayMode: 'PRT_2D_TILED_THIN1', microMode: 'depth', pipeConfig: p8 };
    case 8:
      return { name: 'DisplayLinearAligned', arrayMode: 'LINEAR_ALIGNED', microMode: 'display', pipeConfig: p8 };
    case 9:
      return { name: 'Display1DThin', arrayMode: '1D_TILED_THIN1', microMode: 'display', pipeConfig: p8 };
    case 10:
      return {
        name: 'Display2DThin',
        arrayMode: '2D_TILED_THIN1',
        microMode: 'display',
        pipeConfig: p8,
        sampleSplit: 2,
      };
    case 11:
    case 12:
      return {
        name: `DisplayPrt(${index})`,
        arrayMode: 'PRT_2D_TILED_THIN1',
        microMode: 'display',
        pipeConfig: index === 11 ? p8b : p8,
      };
    case 13:
      return { name: 'Thin1DThin', arrayMode: '1D_TILED_THIN1', microMode: 'thin', pipeConfig: p8 };
    case 14:
      return { name: 'Thin2DThin', arrayMode: '2D_TILED_THIN1', microMode: 'thin', pipeConfig: p8, sampleSplit: 2 };
    case 15:
      return { name: 'Thin3DThin', arrayMode: '3D_TILED_THIN1', microMode: 'thin', pipeConfig: p8b, sampleSplit: 2 };
    case 16:
    case 17:
    case 18:
      return {
        name: `ThinPrt(${index})`,
        arrayMode: 'PRT_2D_TILED_THIN1',
        microMode: 'thin',
        pipeConfig: index === 16 ? p8b : p8,
      };
    case 19:
      return { name: 'Thick1DThick', arrayMode: '1D_TILED_THICK', microMode: 'thick', pipeConfig: p8 };
    case 20:
      return { name: 'Thick2DThick', arrayMode: '2D_TILED_THICK', microMode: 'thick', pipeConfig: p8 };
    case 21:
    case 22:
    case 23:
    case 24:
    case 25:
    case 26:
      return {
        name: `Thick(${index})`,
        arrayMode: index === 25 || index === 26 ? '2D_TILED_XTHICK' : '3D_TILED_THICK',
        microMode: 'thick',
        pipeConfig: index === 21 || index === 22 || index === 24 || index === 26 ? p8b : p8,
      };
    case 31:
      return { name: 'DisplayLinearGeneral', arrayMode: 'LINEAR_GENERAL', microMode: 'display', pipeConfig: 'P2' };
    default:
      return null;
  }
}

/** The PS4 (Liverpool) GB_TILE_MODEn entry for a TILING_INDEX, after shadPS4's table (DESCRIPTORS.md §5.1). */
export function ps4TileMode(index: number): Gfx7TileMode {
  const e = ps4Entry(index);
  if (e === null)
    throw new TilingError('unmodelled-mode', `TILING_INDEX ${index}`, 'not in the PS4 tile-mode table (0-26, 31)');
  return e;
}

const PS4_MACRO: readonly (readonly [number, number, number])[] = [
  [16, 4, 4],
  [16, 2, 2],
  [16, 1, 2],
  [16, 1, 2],
  [8, 1, 1],
  [4, 1, 1],
  [2, 1, 1],
  [2, 1, 1],
  [16, 8, 4],
  [16, 4, 4],
  [16, 2, 2],
  [16, 1, 2],
  [8, 1, 1],
  [4, 1, 1],
  [2, 1, 1],
  [2, 1, 1],
];

/** The PS4 GB_MACROTILE_MODEn entry (bank width 1). */
export function ps4MacroMode(index: number): Gfx7MacroMode {
  const e = PS4_MACRO[index];
  if (e === undefined) throw new TilingError('bad-parameters', `macro tile mode ${index}`, 'the PS4 table has 0-15');
  return { banks: e[0], bankWidth: 1, bankHeight: e[1], macroTileAspect: e[2] };
}

/** Effective tile split and macro-tile-mode index of a 2D mode (DESCRIPTORS.md §5.1 step 1). */
export function macroModeIndex(
  mode: Gfx7TileMode,
  bytesPerElement: number,
  samples: number,
): { tileSplitBytes: number; index: number } {
  const tb1 = 64 * bytesPerElement; // thin: thickness 1
  const split =
    mode.microMode === 'depth'
      ? Math.min(1024, mode.tileSplitBytes ?? 1024)
      : Math.min(1024, Math.max(256, (mode.sampleSplit ?? 1) * tb1));
  let index = log2Exact(Math.min(split, samples * tb1) / 64);
  if (mode.arrayMode.startsWith('PRT')) index += 8;
  return { tileSplitBytes: split, index };
}

/**
 * The PS4 tiling of a surface from its TILING_INDEX, element size and samples, with the PS4
 * macro-tile table. `swizzle` is the base-address bank/pipe swizzle (0 on the base PS4, §6.5).
 */
export function ps4Tiling(
  tilingIndex: number,
  bytesPerElement: number,
  samples = 1,
  swizzle: { bankSwizzle?: number; pipeSwizzle?: number } = {},
): Gfx7Tiling {
  const mode = ps4TileMode(tilingIndex);
  const { tileSplitBytes, index } = macroModeIndex(mode, bytesPerElement, samples);
  const macro = index >= 0 && index < PS4_MACRO.length ? ps4MacroMode(index) : ps4MacroMode(0);
  return {
    mode,
    ...macro,
    tileSplitBytes,
    bankSwizzle: swizzle.bankSwizzle ?? 0,
    pipeSwizzle: swizzle.pipeSwizzle ?? 0,
  };
}

// ---------------------------------------------------------------- micro tile

/** Bit sources of the pixel index within an 8x8 micro tile, p0 first: 'x0' is x bit 0 etc. */
type Src = 'x0' | 'x1' | 'x2' | 'y0' | 'y1' | 'y2';
const THIN_ORDER: readonly Src[] = ['x0', 'y0', 'x1', 'y1', 'x2', 'y2'];
const DISPLAY_ORDER: Readonly<Record<number, readonly Src[]>> = {
  1: ['x0', 'x1', 'x2', 'y1', 'y0', 'y2'],
  2: ['x0', 'x1', 'x2', 'y0', 'y1', 'y2'],
  4: ['x0', 'x1', 'y0', 'x2', 'y1', 'y2'],
  8: ['x0', 'y0', 'x1', 'x2', 'y1', 'y2'],
  16: ['y0', 'x0', 'x1', 'x2', 'y1', 'y2'],
};

/** A 64-entry table: pixel index of (x & 7) + 8 * (y & 7). */
function microTable(order: readonly Src[]): Uint8Array {
  const t = new Uint8Array(64);
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) {
      let p = 0;
      order.forEach((s, i) => {
        const v = s[0] === 'x' ? x : y;
        p |= ((v >> Number(s[1])) & 1) << i;
      });
      t[x + 8 * y] = p;
    }
  return t;
}

const MICRO_TABLES = new Map<string, Uint8Array>();

/** The micro-tile pixel index table of a thin ordering and element size. */
export function microTileTable(
  microMode: Gfx7MicroMode,
  bytesPerElement: number,
  modeName: string = microMode,
): Uint8Array {
  const key = `${microMode}/${bytesPerElement}`;
  const hit = MICRO_TABLES.get(key);
  if (hit !== undefined) return hit;
  let order: readonly Src[] | undefined;
  if (microMode === 'thin' || microMode === 'depth') order = THIN_ORDER;
  else if (microMode === 'display') order = DISPLAY_ORDER[bytesPerElement];
  else throw new TilingError('unmodelled-mode', modeName, `the ${microMode} micro-tile ordering is not modelled`);
  if (order === undefined)
    throw new TilingError(
      'unmodelled-parameters',
      modeName,
      `no display ordering for ${bytesPerElement}-byte elements`,
    );
  const t = microTable(order);
  MICRO_TABLES.set(key, t);
  return t;
}

// ---------------------------------------------------------------- pipes and banks

const bit = (v: number, i: number): number => (v >>> i) & 1;

/** The pipe of micro tile (tx, ty) = (x >> 3, y >> 3) before the swizzle [siaddrlib ComputePipeFromCoord]. */
export function pipeOf(cfg: PipeConfig, tx: number, ty: number): number {
  const x3 = bit(tx, 0),
    x4 = bit(tx, 1),
    x5 = bit(tx, 2),
    x6 = bit(tx, 3);
  const y3 = bit(ty, 0),
    y4 = bit(ty, 1),
    y5 = bit(ty, 2),
    y6 = bit(ty, 3);
  let p: [number, number, number, number];
  switch (cfg) {
    case 'P2':
      p = [x3 ^ y3, 0, 0, 0];
      break;
    case 'P4_8x16':
      p = [x4 ^ y3, x3 ^ y4, 0, 0];
      break;
    case 'P4_16x16':
      p = [x3 ^ y3 ^ x4, x4 ^ y4, 0, 0];
      break;
    case 'P4_16x32':
      p = [x3 ^ y3 ^ x4, x4 ^ y5, 0, 0];
      break;
    case 'P4_32x32':
      p = [x3 ^ y3 ^ x5, x5 ^ y5, 0, 0];
      break;
    case 'P8_16x16_8x16':
      p = [x4 ^ y3 ^ x5, x3 ^ y5, 0, 0];
      break;
    case 'P8_16x32_8x16':
      p = [x4 ^ y3 ^ x5, x3 ^ y4, x4 ^ y5, 0];
      break;
    case 'P8_16x32_16x16':
      p = [x3 ^ y3 ^ x4, x5 ^ y4, x4 ^ y5, 0];
      break;
    case 'P8_32x32_8x16':
      p = [x4 ^ y3 ^ x5, x3 ^ y4, x5 ^ y5, 0];
      break;
    case 'P8_32x32_16x16':
      p = [x3 ^ y3 ^ x4, x4 ^ y4, x5 ^ y5, 0];
      break;
    case 'P8_32x32_16x32':
      p = [x3 ^ y3 ^ x4, x4 ^ y6, x5 ^ y5, 0];
      break;
    case 'P8_32x64_32x32':
      p = [x3 ^ y3 ^ x5, x6 ^ y5, x5 ^ y6, 0];
      break;
    case 'P16_32x32_8x16':
      p = [x4 ^ y3, x3 ^ y4, x5 ^ y6, x6 ^ y5];
      break;
    case 'P16_32x32_16x16':
      p = [x3 ^ y3 ^ x4, x4 ^ y4, x5 ^ y6, x6 ^ y5];
      break;
  }
  return p[0] | (p[1] << 1) | (p[2] << 2) | (p[3] << 3);
}

/** The bank of a macro-tile position before rotation and swizzle [egbaddrlib ComputeBankFromCoord]. */
export function bankOf(banks: number, bx: number, by: number): number {
  const x3 = bit(bx, 0),
    x4 = bit(bx, 1),
    x5 = bit(bx, 2),
    x6 = bit(bx, 3);
  const y3 = bit(by, 0),
    y4 = bit(by, 1),
    y5 = bit(by, 2),
    y6 = bit(by, 3);
  switch (banks) {
    case 16:
      return (x3 ^ y6) | ((x4 ^ y5 ^ y6) << 1) | ((x5 ^ y4) << 2) | ((x6 ^ y3) << 3);
    case 8:
      return (x3 ^ y5) | ((x4 ^ y4 ^ y5) << 1) | ((x5 ^ y3) << 2);
    case 4:
      return (x3 ^ y4) | ((x4 ^ y3) << 1);
    case 2:
      return x3 ^ y3;
    default:
      throw new TilingError('bad-parameters', '2D_TILED_THIN1', `${banks} banks (2, 4, 8 or 16)`);
  }
}

// ---------------------------------------------------------------- address functions

/** The shape of one level as the address functions see it (elements). */
export interface Gfx7LevelShape {
  /** Row pitch in elements (aligned). */
  readonly pitch: number;
  /** Height in elements (aligned). */
  readonly height: number;
  readonly bytesPerElement: number;
  readonly samples: number;
}

/** Macro-tile width and height in elements (DESCRIPTORS.md §5.1 step 2). */
export function macroTileDims(t: Gfx7Tiling): { width: number; height: number } {
  const pipes = pipesOf(t.mode.pipeConfig);
  return {
    width: 8 * t.bankWidth * pipes * t.macroTileAspect,
    height: (8 * t.bankHeight * t.banks) / t.macroTileAspect,
  };
}

/** Checks the 2D parameters; throws a TilingError for what the equations do not cover. */
export function checkMacroParams(t: Gfx7Tiling, bytesPerElement: number): void {
  const name = `2D_TILED_THIN1 (${t.mode.name})`;
  for (const [k, v] of [
    ['banks', t.banks],
    ['bankWidth', t.bankWidth],
    ['bankHeight', t.bankHeight],
    ['macroTileAspect', t.macroTileAspect],
    ['tileSplitBytes', t.tileSplitBytes],
  ] as const)
    if (!isPow2(v)) throw new TilingError('bad-parameters', name, `${k} ${v} is not a power of two`);
  if (![2, 4, 8, 16].includes(t.banks)) throw new TilingError('bad-parameters', name, `${t.banks} banks`);
  if (t.tileSplitBytes < 64) throw new TilingError('bad-parameters', name, `tile split ${t.tileSplitBytes} < 64`);
  if (![1, 2, 4, 8, 16].includes(bytesPerElement))
    throw new TilingError('unmodelled-parameters', name, `${bytesPerElement}-byte elements (96-bit formats expand 3x)`);
  const { height } = macroTileDims(t);
  if (!Number.isInteger(height) || height < 8)
    throw new TilingError('bad-parameters', name, `macro tile aspect ${t.macroTileAspect} exceeds bankHeight*banks`);
  if ((t.mode.pipeConfig === 'P4_32x32' || t.mode.pipeConfig === 'P8_32x64_32x32') && t.bankWidth === 1)
    throw new TilingError(
      'unmodelled-parameters',
      name,
      `${t.mode.pipeConfig} with bank width 1: siaddrlib HwlPreAdjustBank ORs a bank bit, which as written is not a bijection`,
    );
  if (t.pipeSwizzle >= pipesOf(t.mode.pipeConfig) || t.bankSwizzle >= t.banks || t.pipeSwizzle < 0 || t.bankSwizzle < 0)
    throw new TilingError('bad-parameters', name, 'pipe/bank swizzle out of range');
}

/** Byte offset of element (x, y) of slice `slice`, sample `sample`, in an LINEAR_* level. */
export function linearOffset(s: Gfx7LevelShape, x: number, y: number, slice: number): number {
  return ((slice * s.height + y) * s.pitch + x) * s.bytesPerElement;
}

/** Offset of an element within its micro tile, in bytes, for the depth or colour sample order. */
function microElementOffset(
  micro: Uint8Array,
  microMode: Gfx7MicroMode,
  s: Gfx7LevelShape,
  x: number,
  y: number,
  sample: number,
): number {
  const pixelIndex = micro[(x & 7) + 8 * (y & 7)];
  const bpe = s.bytesPerElement;
  if (microMode === 'depth') return pixelIndex * bpe * s.samples + sample * bpe;
  return pixelIndex * bpe + sample * 64 * bpe;
}

/** 1D_TILED_THIN1: micro tiles in row-major order (DESCRIPTORS.md §5.1 "1D tiled"). `sliceBytes` is the level's slice stride. */
export function tiled1dOffset(
  mode: Gfx7TileMode,
  s: Gfx7LevelShape,
  sliceBytes: number,
  x: number,
  y: number,
  slice: number,
  sample: number,
): number {
  const micro = microTileTable(mode.microMode, s.bytesPerElement, `1D_TILED_THIN1 (${mode.name})`);
  const microTileBytes = 64 * s.bytesPerElement * s.samples;
  const tileIndex = (y >> 3) * (s.pitch >> 3) + (x >> 3);
  return slice * sliceBytes + tileIndex * microTileBytes + microElementOffset(micro, mode.microMode, s, x, y, sample);
}

/** Bytes of one slice of a 2D level (all its tile-split slices). */
export function tiled2dSliceBytes(s: Gfx7LevelShape): number {
  return s.pitch * s.height * s.bytesPerElement * s.samples;
}

/** 2D_TILED_THIN1 (DESCRIPTORS.md §5.1 steps 3-6). Pitch and height must be macro-tile aligned. */
export function tiled2dOffset(
  t: Gfx7Tiling,
  s: Gfx7LevelShape,
  x: number,
  y: number,
  slice: number,
  sample: number,
): number {
  return tiled2dAddress(t, s)(x, y, slice, sample);
}

/** The 2D_TILED_THIN1 address function of one level, its constants computed once. */
export function tiled2dAddress(
  t: Gfx7Tiling,
  s: Gfx7LevelShape,
): (x: number, y: number, slice: number, sample: number) => number {
  const micro = microTileTable(t.mode.microMode, s.bytesPerElement, `2D_TILED_THIN1 (${t.mode.name})`);
  const microMode = t.mode.microMode;
  const pipes = pipesOf(t.mode.pipeConfig);
  const pipeBits = log2Exact(pipes);
  const bankBits = log2Exact(t.banks);
  const fullMicroTileBytes = 64 * s.bytesPerElement * s.samples;
  const split = fullMicroTileBytes > t.tileSplitBytes;
  const slicesPerTile = split ? fullMicroTileBytes / t.tileSplitBytes : 1;
  const microTileBytes = split ? t.tileSplitBytes : fullMicroTileBytes;
  const mt = macroTileDims(t);
  const macroTileBytes = (microTileBytes * (mt.width / 8) * (mt.height / 8)) / (pipes * t.banks);
  const macroTilesPerRow = s.pitch / mt.width;
  const sliceBytes = macroTilesPerRow * (s.height / mt.height) * macroTileBytes;
  const bankScale = 2 ** (8 + pipeBits);
  const highScale = 2 ** (8 + pipeBits + bankBits);
  return (x, y, slice, sample) => {
    let elem = microElementOffset(micro, microMode, s, x, y, sample);
    let tsSlice = 0;
    if (split) {
      tsSlice = Math.floor(elem / t.tileSplitBytes);
      elem %= t.tileSplitBytes;
    }
    const sliceOffset = sliceBytes * (tsSlice + slicesPerTile * slice);
    const macroTileOffset = (Math.floor(y / mt.height) * macroTilesPerRow + Math.floor(x / mt.width)) * macroTileBytes;
    const tx = x >>> 3;
    const ty = y >>> 3;
    const tileIndex = (ty % t.bankHeight) * t.bankWidth + (Math.floor(tx / pipes) % t.bankWidth);
    const total = sliceOffset + macroTileOffset + elem + tileIndex * microTileBytes;
    const pipe = (pipeOf(t.mode.pipeConfig, tx, ty) ^ t.pipeSwizzle) & (pipes - 1);
    let bank = bankOf(t.banks, Math.floor(tx / (t.bankWidth * pipes)), Math.floor(ty / t.bankHeight));
    bank ^= t.bankSwizzle + (t.banks / 2 - 1) * slice; // slice rotation
    bank ^= (t.banks / 2 + 1) * tsSlice; // tile-split rotation
    bank &= t.banks - 1;
    return (total % 256) + (pipe << 8) + bank * bankScale + Math.floor(total / 256) * highScale;
  };
}
