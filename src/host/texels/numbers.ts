/**
 * Scalar number conversions shared by the element and block decoders (D006): IEEE binary16,
 * the unsigned 11- and 10-bit floats of 10_11_11 / 11_11_10, float32 from bits, and the exact
 * sRGB -> linear curve.
 */

const F32_SCRATCH = new Float32Array(1);
const U32_SCRATCH = new Uint32Array(F32_SCRATCH.buffer);

/** The float32 whose bits are `bits`. */
export function f32FromBits(bits: number): number {
  U32_SCRATCH[0] = bits >>> 0;
  return F32_SCRATCH[0];
}

/** An IEEE binary16 value from its 16 bits (denormals, infinities and NaN included). */
export function f16ToFloat(h: number): number {
  return (F16_TABLE ??= f16Table())[h & 0xffff];
}

let F16_TABLE: Float64Array | undefined;

/** All 65536 halves, computed once by `f16Exact` (a half is exact in a double). */
function f16Table(): Float64Array {
  const t = new Float64Array(65536);
  for (let h = 0; h < 65536; h++) t[h] = f16Exact(h);
  return t;
}

/** The binary16 value of `h` by its definition: (-1)^s * 2^(e-15) * 1.m, or 2^-14 * 0.m for e = 0. */
export function f16Exact(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/**
 * An unsigned small float with a 5-bit exponent (bias 15) and no sign bit: the 11-bit float
 * (6-bit mantissa) or the 10-bit float (5-bit mantissa). Exponent 0 is denormal, 31 is Inf/NaN.
 */
export function ufloatToFloat(v: number, mantissaBits: number): number {
  const e = v >>> mantissaBits;
  const m = v & ((1 << mantissaBits) - 1);
  const scale = 1 << mantissaBits;
  if (e === 0) return (m / scale) * 2 ** -14;
  if (e === 31) return m ? NaN : Infinity;
  return (1 + m / scale) * 2 ** (e - 15);
}

/** The exact sRGB -> linear curve (IEC 61966-2-1) of an encoded value in [0, 1]. */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** sRGB -> linear for the 256 8-bit codes, computed in double and rounded once to float32. */
export const SRGB8_TO_LINEAR: Float32Array = (() => {
  const t = new Float32Array(256);
  for (let i = 0; i < 256; i++) t[i] = srgbToLinear(i / 255);
  return t;
})();
