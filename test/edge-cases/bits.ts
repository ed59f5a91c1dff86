/**
 * Float bit patterns for writing expectations: JavaScript's own IEEE 754 conversions (DataView),
 * never the project's float semantics. Only exact conversions are meant here: every value a case
 * writes through these helpers is representable in the format, so no rounding is involved.
 */
const dv = new DataView(new ArrayBuffer(8));

/** binary32 bits of x (x must be exactly representable; checked). */
export function f32(x: number): number {
  dv.setFloat32(0, x);
  if (!Number.isNaN(x) && dv.getFloat32(0) !== x) throw new Error(`${x} is not exact in binary32`);
  return dv.getUint32(0);
}

/** binary64 bits of x as [low word, high word]. */
export function f64(x: number): [number, number] {
  dv.setFloat64(0, x);
  return [dv.getUint32(4), dv.getUint32(0)];
}

/** binary64 [low, high] words of a 64-bit pattern given as a hex string `0x...` (16 digits). */
export function w64(bits: string): [number, number] {
  const b = BigInt(bits);
  return [Number(b & 0xffffffffn), Number(b >> 32n)];
}

// Named patterns (IEEE 754-2008 §3.4: quiet NaNs have the fraction's top bit set, signaling NaNs clear).
export const F32 = {
  posInf: 0x7f800000,
  negInf: 0xff800000,
  posZero: 0x00000000,
  negZero: 0x80000000,
  qnan: 0x7fc00000,
  /** A quiet NaN with a payload (0x12345) and the sign set. */
  qnanPayload: 0xffc12345,
  /** A signaling NaN (top fraction bit clear) with payload 0x12345, and it quieted (bit 22 set). */
  snan: 0x7f812345,
  snanQuieted: 0x7fc12345,
  /** The smallest and largest positive denormals, and the smallest normal. */
  minDenorm: 0x00000001,
  maxDenorm: 0x007fffff,
  minNormal: 0x00800000,
  negMaxDenorm: 0x807fffff,
  maxFinite: 0x7f7fffff,
  one: 0x3f800000,
  negOne: 0xbf800000,
} as const;

export const F16 = {
  posInf: 0x7c00,
  negInf: 0xfc00,
  negZero: 0x8000,
  qnan: 0x7e00,
  snan: 0x7c01,
  snanQuieted: 0x7e01,
  minDenorm: 0x0001,
  maxDenorm: 0x03ff,
  minNormal: 0x0400,
  one: 0x3c00,
  negOne: 0xbc00,
  two: 0x4000,
  maxFinite: 0x7bff,
} as const;
