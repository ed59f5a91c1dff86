/** Resource descriptors (V#, T#, S#) per generation: typed records decoded from, and encoded to, their words. */
export { DescriptorError, type DescriptorErrorCode, type FieldSpec, type Layout, type RawFields } from './bits.ts';
export { DST_SEL, type DstSel } from './common.ts';
export {
  legacyBufferFormat,
  legacyImageDataFormats,
  legacyImageFormat,
  unifiedFormat,
  unifiedFormatTable,
  type FormatInfo,
} from './formats.ts';
export {
  BUFFER_GFX7,
  BUFFER_GFX9,
  BUFFER_GFX10,
  BUFFER_GFX10_3,
  BUFFER_GFX11,
  bufferLayout,
  decodeBufferDescriptor,
  encodeBufferDescriptor,
  type BufferDescriptor,
  type BufferFieldName,
  type NumRecordsUnit,
} from './buffer.ts';
export {
  IMAGE_GFX7,
  IMAGE_GFX8,
  IMAGE_GFX9,
  IMAGE_GFX10,
  IMAGE_GFX10_3,
  IMAGE_GFX11,
  ImageType,
  decodeImageDescriptor,
  encodeImageDescriptor,
  imageLayout,
  imageTypeOf,
  type ImageDescriptor,
  type ImageFieldName,
  type ImageTypeName,
} from './image.ts';
export {
  SAMPLER_GFX7,
  SAMPLER_GFX8,
  SAMPLER_GFX9,
  SAMPLER_GFX10,
  SAMPLER_GFX11,
  BORDER_COLOR_NAMES,
  CLAMP_NAMES,
  COMPARE_NAMES,
  decodeSamplerDescriptor,
  encodeSamplerDescriptor,
  samplerLayout,
  type SamplerDescriptor,
  type SamplerFieldName,
} from './sampler.ts';
