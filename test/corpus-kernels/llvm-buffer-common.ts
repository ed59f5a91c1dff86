/**
 * Pieces shared by the llc amdpal buffer kernels (llvm/byte_shuffle, dot_insts, perm_b32,
 * tbuffer_formats*, the s_buffer_load and waterfall kernels, smem_offsets, wave_scan_dpp):
 * a V# with any stride and NUM_RECORDS, expected ranges split by how each dword compares,
 * and the small-float arithmetic the references need, written here on plain numbers so the
 * references do not lean on the interpreter's own format code.
 */
import type { Json } from './common.ts';
import type { Target } from './targets.ts';

/**
 * A V# over `address` (a region's name or a number) with identity DST_SEL. `stride` in bytes
 * (default 0: raw), `numRecords` as the generation counts it (DESCRIPTORS.md §1: bytes when
 * STRIDE is 0). gfx10.3 takes OOB_SELECT 3 (raw: `offset >= NUM_RECORDS`), gfx7-9 a 32-bit
 * DATA_FORMAT (the kernels here never read the V#'s format: MTBUF carries its own).
 */
export function vsharp(
  t: Target,
  address: string | number,
  o: { readonly numRecords: number; readonly stride?: number },
): Json {
  const common = {
    address,
    num_records: o.numRecords,
    stride: o.stride ?? 0,
    dst_sel_x: 'x',
    dst_sel_y: 'y',
    dst_sel_z: 'z',
    dst_sel_w: 'w',
  };
  if (t.mcpu === 'gfx1030') return { buffer: { ...common, format: 22, oob_select: 3, resource_level: 1 } };
  return { buffer: { ...common, data_format: 4, num_format: 4 } };
}

/** How one expected dword compares: exactly, or as an f32 whose NaNs all count as equal (ulp 0). */
export type DwordCompare = 'exact' | 'f32';

/**
 * Expected ranges for the dwords `words` at `address`: runs of equal compare kind become one
 * range each. A float that may be NaN compares with ulp 0, so any NaN matches a NaN (the
 * hardware's NaN payloads after a conversion are not documented) and every other value must
 * be bit-exact.
 */
export function expectedDwords(address: number, words: readonly number[], kind: (i: number) => DwordCompare): Json[] {
  const out: Json[] = [];
  let start = 0;
  for (let i = 1; i <= words.length; i++) {
    if (i < words.length && kind(i) === kind(start)) continue;
    const values = words.slice(start, i).map((v) => v >>> 0);
    const range: Record<string, Json> = { address: address + 4 * start, data: { type: 'u32', values } };
    if (kind(start) === 'f32') range.compare = { kind: 'ulp', element: 'f32', ulps: 0 };
    out.push(range);
    start = i;
  }
  return out;
}

const f32View = new DataView(new ArrayBuffer(4));

/** The f32 bits of a number, rounded to nearest even (Math.fround). */
export function f32Bits(x: number): number {
  f32View.setFloat32(0, x, true);
  return f32View.getUint32(0, true);
}

/** The value of f32 bits. */
export function f32Of(bits: number): number {
  f32View.setUint32(0, bits >>> 0, true);
  return f32View.getFloat32(0, true);
}

/**
 * An unsigned small float (IEEE-like, bias 15, no sign) of `e` exponent and `m` mantissa
 * bits as a number: half (1 sign bit added by the caller), the 11- and 10-bit floats of
 * 10_11_11 (Vulkan B10G11R11_UFLOAT: 5-bit exponent, 6- or 5-bit mantissa).
 */
export function smallFloat(bits: number, mBits: number): number {
  const e = (bits >>> mBits) & 31;
  const m = bits & ((1 << mBits) - 1);
  if (e === 31) return m !== 0 ? NaN : Infinity;
  if (e === 0) return m * 2 ** (-14 - mBits);
  return (1 + m / 2 ** mBits) * 2 ** (e - 15);
}

/** An IEEE half as a number. */
export function halfOf(h: number): number {
  const v = smallFloat(h & 0x7fff, 10);
  return h & 0x8000 ? -v : v;
}

/** Round half to even of a non-negative number. */
function roundHalfEven(q: number): number {
  const n = Math.floor(q);
  const rest = q - n;
  return rest > 0.5 || (rest === 0.5 && n % 2 === 1) ? n + 1 : n;
}

/**
 * A number as IEEE half bits, rounded to nearest even once from the number (for the
 * quotients here the number is a double that cannot sit on a half's rounding midpoint).
 * NaN gives the quiet NaN 0x7e00 (compared as "any NaN").
 */
export function halfBits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a < 2 ** -14) return sign | roundHalfEven(a / 2 ** -24); // 1024 is the smallest normal's bits
  let exp = Math.floor(Math.log2(a));
  if (2 ** exp > a) exp--;
  else if (2 ** (exp + 1) <= a) exp++;
  let n = roundHalfEven(a / 2 ** (exp - 10));
  if (n === 2048) {
    n = 1024;
    exp++;
  }
  if (exp > 15) return sign | 0x7c00;
  return sign | ((exp + 15) << 10) | (n - 1024);
}
