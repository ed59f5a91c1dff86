/** Texel decoding: element layouts and number formats, BC1-BC7 on the CPU, and the WebGPU format mapping (D006). */
export {
  ELEMENT_LAYOUTS,
  TexelFormatError,
  bytesPerElement,
  decodeElement,
  decodeImageLevel,
  decodeRow,
  decodeUnorm8Level,
  imageTexelFormat,
  texelFormat,
  type ChannelKind,
  type ElementLayout,
  type LayoutKind,
  type LevelOptions,
  type Rgba,
  type RgbaArray,
  type TexelFormat,
  type TexelFormatErrorCode,
} from './formats.ts';
export { SRGB8_TO_LINEAR, f16ToFloat, f32FromBits, srgbToLinear, ufloatToFloat } from './numbers.ts';
export {
  BC6H_MODES,
  BC7_MODES,
  BC_BLOCK_BYTES,
  bc6hModeOf,
  bcDecodesToUnorm8,
  decodeBc1Block,
  decodeBc2Block,
  decodeBc3Block,
  decodeBc4Block,
  decodeBc6hBlock,
  decodeBc7Block,
  decodeBcImage,
  type BcKind,
  type Bc6hMode,
  type Bc7Mode,
} from './bc.ts';
export {
  DIRECT_FORMATS,
  chooseTexture,
  dstSelSwizzle,
  webgpuFormatEntry,
  type DirectMapping,
  type FallbackMapping,
  type FallbackVia,
  type SwizzleComponent,
  type TextureChoice,
  type WebGpuFormatEntry,
} from './webgpu-formats.ts';
export { surfaceLayout, readSurface, writeSurface } from './surface.ts';
export { TilingError } from './tiling.ts';
