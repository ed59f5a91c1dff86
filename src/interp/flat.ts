/**
 * FLAT address spaces (D009). A FLAT address is 64 bits; its high word says which aperture
 * it falls in: the shared (LDS) aperture, the private (scratch) aperture, or neither (global
 * memory, whose top 16 bits the hardware ignores). The capture does not carry SH_MEM_BASES,
 * so the interpreter fixes the apertures where the Linux amdgpu driver puts them on gfx9+
 * (`shared_aperture_start = 0x2000000000000000`, `private_aperture_start =
 * 0x1000000000000000`, 4 GiB each: recalled, not re-read) on every generation, and answers
 * `src_shared_base` / `src_private_base` (and their limits) with the same high words, so a
 * program that builds a flat LDS pointer from them lands in LDS here.
 */

/** High word of a flat address in the shared (LDS) aperture. */
export const SHARED_APERTURE_HI = 0x20000000;
/** High word of a flat address in the private (scratch) aperture. */
export const PRIVATE_APERTURE_HI = 0x10000000;

export type FlatSpace = 'global' | 'lds' | 'scratch';

/** Which space a flat address (its high word) is in. */
export function flatSpace(hi: number): FlatSpace {
  const h = hi >>> 0;
  if (h === SHARED_APERTURE_HI) return 'lds';
  if (h === PRIVATE_APERTURE_HI) return 'scratch';
  return 'global';
}

/** The aperture sources 235-238 (src_shared_base, src_shared_limit, src_private_base, src_private_limit). */
export function apertureWord(code: number): number {
  return code === 235 || code === 236 ? SHARED_APERTURE_HI : PRIVATE_APERTURE_HI;
}
