/**
 * Which lane a cross-lane source reads, as lane numbers: DPP16 (gfx8/9 and gfx10+), DPP8
 * (gfx10+) and ds_swizzle_b32. Their controls are instruction fields, so the lane maps are
 * known before a dispatch starts; the interpreter and the translator both take them from here
 * (D003). Whether the source lane is active (EXEC) is the caller's question.
 *
 * Sources: Vega ISA, "DPP" (Table 80: fields; Table 81: DPP_CTRL, the `pix[n].srca = …`
 * forms), RDNA2 ISA, "DPP16" and "DPP8" (row_share, row_xmask; no wave_* or row_bcast), and
 * the DS_SWIZZLE_B32 pseudocode of the Vega and RDNA3.5 ISA references (FFT, rotate, quad and
 * bit-mask modes).
 */
import { Gen } from '../isa/gen.ts';

/** A DPP source lane past the row or wave edge: the lane follows bound_ctrl. */
export const OUT_OF_RANGE = -1;

const ROW_SHL = 0x100;
const ROW_SHR = 0x110;
const ROW_ROR = 0x120;
const WAVE_SHL1 = 0x130;
const WAVE_ROL1 = 0x134;
const WAVE_SHR1 = 0x138;
const WAVE_ROR1 = 0x13c;
const ROW_MIRROR = 0x140;
const ROW_HALF_MIRROR = 0x141;
const ROW_BCAST15 = 0x142;
const ROW_BCAST31 = 0x143;
const ROW_SHARE = 0x150;
const ROW_XMASK = 0x160;

/** Why a dpp_ctrl value does not exist on a generation (LLVM prints these as comments), or undefined. */
export function dppCtrlRefusal(gen: Gen, ctrl: number): string | undefined {
  const hex = `dpp_ctrl 0x${ctrl.toString(16)}`;
  if (ctrl < 0 || ctrl > 0x1ff) return `${hex} is not a 9-bit control`;
  if (ctrl <= 0xff) return undefined;
  const hi = ctrl & 0x1f0;
  const lo = ctrl & 0xf;
  if (hi === ROW_SHL || hi === ROW_SHR || hi === ROW_ROR)
    return lo === 0 ? `${hex} is reserved (a shift by 0)` : undefined;
  const gcnOnly =
    ctrl === WAVE_SHL1 ||
    ctrl === WAVE_ROL1 ||
    ctrl === WAVE_SHR1 ||
    ctrl === WAVE_ROR1 ||
    ctrl === ROW_BCAST15 ||
    ctrl === ROW_BCAST31;
  if (gcnOnly) return gen >= Gen.GFX10 ? `${hex} (wave_* / row_bcast) does not exist from gfx10 on` : undefined;
  if (ctrl === ROW_MIRROR || ctrl === ROW_HALF_MIRROR) return undefined;
  if (hi === ROW_SHARE || hi === ROW_XMASK)
    return gen >= Gen.GFX10 ? undefined : `${hex} (row_share / row_xmask) exists from gfx10 on`;
  return `${hex} is reserved`;
}

/**
 * The lane whose source 0 lane `lane` reads under a DPP16 control, or OUT_OF_RANGE. Rows are 16
 * lanes (Vega ISA Table 81): row_shl:n reads lane + n, row_shr:n lane - n (both within the
 * row), row_ror:n rotates right within the row, wave_shl/shr by one lane over the wave,
 * wave_rol/ror rotate it, row_bcast:15 gives rows 1-3 the last lane of the row before
 * (`pix[(n & 0x30) - 1]`), row_bcast:31 gives rows 2 and 3 lane 31; lanes these leave without a
 * source are out of range (ACO treats bcast as bound_ctrl-dependent too). gfx10+: row_share:n
 * reads lane n of the row, row_xmask:n lane ^ n within the row. The control must be valid for
 * the generation (`dppCtrlRefusal`).
 */
export function dppSourceLane(ctrl: number, lanes: number, lane: number): number {
  if (ctrl <= 0xff) return (lane & ~3) | ((ctrl >>> (2 * (lane & 3))) & 3);
  const row = lane & ~15;
  const inRow = lane & 15;
  const n = ctrl & 0xf;
  switch (ctrl & 0x1f0) {
    case ROW_SHL:
      return inRow + n < 16 ? lane + n : OUT_OF_RANGE;
    case ROW_SHR:
      return inRow - n >= 0 ? lane - n : OUT_OF_RANGE;
    case ROW_ROR:
      return row | ((inRow - n) & 15);
    case ROW_SHARE:
      return row | n;
    case ROW_XMASK:
      return row | (inRow ^ n);
  }
  switch (ctrl) {
    case WAVE_SHL1:
      return lane + 1 < lanes ? lane + 1 : OUT_OF_RANGE;
    case WAVE_ROL1:
      return (lane + 1) % lanes;
    case WAVE_SHR1:
      return lane > 0 ? lane - 1 : OUT_OF_RANGE;
    case WAVE_ROR1:
      return (lane + lanes - 1) % lanes;
    case ROW_MIRROR:
      return row | (15 - inRow);
    case ROW_HALF_MIRROR:
      return (lane & ~7) | (7 - (lane & 7));
    case ROW_BCAST15:
      return lane > 15 ? (lane & 0x30) - 1 : OUT_OF_RANGE;
    case ROW_BCAST31:
      return lane > 31 ? 31 : OUT_OF_RANGE;
  }
  throw new Error(`dpp_ctrl 0x${ctrl.toString(16)} has no lane map (dppCtrlRefusal should have refused it)`);
}

/**
 * Whether DPP16's row and bank masks let `lane` write its destination (Vega ISA Table 80:
 * "applies to the VGPR destination write only"): ROW_MASK bit lane / 16, BANK_MASK bit
 * (lane / 4) % 4.
 */
export function dppLaneWrites(rowMask: number, bankMask: number, lane: number): boolean {
  return ((rowMask >>> (lane >>> 4)) & 1) === 1 && ((bankMask >>> ((lane >>> 2) & 3)) & 1) === 1;
}

/** DPP8 (RDNA2 ISA, "DPP8"): lane reads lane `sel[lane % 8]` of its group of eight; the 24-bit select word holds 3 bits per lane. */
export function dpp8SourceLane(selects: number, lane: number): number {
  return (lane & ~7) | ((selects >>> (3 * (lane & 7))) & 7);
}

/** Whether a ds_swizzle_b32 offset names a mode the generation documents, else why not. */
export function swizzleRefusal(gen: Gen, offset: number): string | undefined {
  if (offset >= 0xc000 && gen < Gen.GFX9)
    return `ds_swizzle_b32 offset 0x${offset.toString(16)}: the rotate and FFT modes are documented from Vega (gfx9) on`;
  return undefined;
}

const reverse5 = (x: number): number => ((x & 1) << 4) | ((x & 2) << 2) | (x & 4) | ((x & 8) >>> 2) | ((x & 16) >>> 4);
const popcount5 = (x: number): number =>
  (x & 1) + ((x >>> 1) & 1) + ((x >>> 2) & 1) + ((x >>> 3) & 1) + ((x >>> 4) & 1);

/**
 * The lane ds_swizzle_b32 lane `lane` reads (Vega / RDNA3.5 ISA, DS_SWIZZLE_B32), always within
 * its half of the wave (`j |= i & 0x20`):
 * - offset >= 0xe000, FFT: mask = offset[4:0]; j = reverse of the 5-bit lane, shifted right by
 *   popcount(mask), with the lane's mask bits or'ed in;
 * - offset >= 0xc000, rotate: by offset[9:5] lanes (negated when offset[10]) within the group
 *   of 32, keeping the bits in mask = offset[4:0];
 * - offset[15], quad permute: lane (i & ~3) + offset[2(i%4)+1 : 2(i%4)];
 * - else bit masks within 32 lanes: ((i & and) | or) ^ xor, masks in offset[4:0], [9:5], [14:10].
 * The 5-bit reading of reverse_bits and of the rotate's wrap are ours: the pseudocode writes
 * them on the full integer, which would leave the group of 32.
 */
export function swizzleSourceLane(offset: number, lane: number): number {
  const half = lane & 0x20;
  const i = lane & 0x1f;
  if (offset >= 0xe000) {
    const mask = offset & 0x1f;
    return half | (reverse5(i) >>> popcount5(mask)) | (i & mask);
  }
  if (offset >= 0xc000) {
    const mask = offset & 0x1f;
    let rotate = (offset >>> 5) & 0x1f;
    if (offset & 0x400) rotate = -rotate;
    return half | (i & mask) | ((i + rotate) & 0x1f & ~mask);
  }
  if (offset & 0x8000) return (lane & ~3) | ((offset >>> (2 * (lane & 3))) & 3);
  const and = offset & 0x1f;
  const or = (offset >>> 5) & 0x1f;
  const xor = (offset >>> 10) & 0x1f;
  return half | (((i & and) | or) ^ xor);
}
