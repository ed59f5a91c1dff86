/** Why the host cannot make a WebGPU resource from a descriptor. Every refusal of this module is one of these. */
export type ResourceErrorCode =
  | 'unbindable-format' // the guest format has no texel model, or no WebGPU texture can hold it
  | 'unmodelled-layout' // the surface layout (tiling, mip chain, DCC…) is not modelled
  | 'unsupported-type' // an image type WebGPU cannot fill from the host (MSAA), or a bad cube
  | 'sample-type-mismatch' // e.g. an integer format where the shader declares a float texture
  | 'bad-levels' // BASE_LEVEL / LAST_LEVEL / BASE_ARRAY outside what the layout holds
  | 'too-large' // beyond device.limits (texture dimensions, layers, buffer sizes)
  | 'needs-idxen' // a gfx9 strided V#: NUM_RECORDS' unit depends on the instruction's IDXEN
  | 'unbounded' // a V# whose range the descriptor does not bound (gfx9 NUM_RECORDS = STRIDE = 0)
  | 'bad-range' // a guest range outside the bytes given, or not a 48-bit address
  | 'reserved-field' // an S# field the mapping consults holds a reserved value (decoded with reserved: 'keep')
  | 'device-rejected'; // the device raised a validation or out-of-memory error

export class ResourceError extends Error {
  override readonly name = 'ResourceError';
  constructor(
    readonly code: ResourceErrorCode,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}
