/** WebGPU resources from descriptors: samplers from S#, buffers from V# ranges, textures and views from T# (D008). */
export { ResourceError, type ResourceErrorCode } from './errors.ts';
export { createGuestSampler, webgpuSampler, type SamplerEmulation, type WebGpuSampler } from './sampler.ts';
export {
  GUEST_BUFFER_USAGE,
  alignedWindow,
  bufferRange,
  checkBufferSize,
  createGuestBuffer,
  guestBytesOf,
  swizzledOffset,
  type BufferRangeOptions,
  type GuestRange,
} from './buffer.ts';
export {
  createGuestTexture,
  drawTouch,
  guestTextureFormat,
  subresourceUpload,
  swizzleWgsl,
  toHalfBits,
  uploadBytesPerElement,
  writeDepthByRenderPass,
  type GuestTexture,
  type GuestTextureFormat,
  type GuestTextureOptions,
  type SubresourceUpload,
  type ShaderTexelType,
  type Swizzle,
} from './texture.ts';
