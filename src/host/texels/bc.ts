/**
 * BC1-BC7 block decoding on the CPU (D006), following the D3D11 / Khronos Data Format
 * Specification descriptions of the formats. A block is 4x4 texels, texel i at (i & 3, i >> 2),
 * its bits little-endian from byte 0 bit 0.
 *
 * Outputs: BC1, BC2, BC3, BC7 as unorm8 RGBA (sRGB variants are the same bytes: the caller
 * linearises); BC4, BC5 as float (unorm in [0, 1], snorm in [-1, 1]); BC6H as float RGB (A = 1).
 */
import { f16ToFloat } from './numbers.ts';

export type BcKind =
  'bc1' | 'bc2' | 'bc3' | 'bc4-unorm' | 'bc4-snorm' | 'bc5-unorm' | 'bc5-snorm' | 'bc6h-ufloat' | 'bc6h-sfloat' | 'bc7';

/** Bytes per 4x4 block. */
export const BC_BLOCK_BYTES: Readonly<Record<BcKind, number>> = {
  bc1: 8,
  bc2: 16,
  bc3: 16,
  'bc4-unorm': 8,
  'bc4-snorm': 8,
  'bc5-unorm': 16,
  'bc5-snorm': 16,
  'bc6h-ufloat': 16,
  'bc6h-sfloat': 16,
  bc7: 16,
};

/** True for the kinds that decode to unorm8 bytes (the others decode to float). */
export function bcDecodesToUnorm8(kind: BcKind): boolean {
  return kind === 'bc1' || kind === 'bc2' || kind === 'bc3' || kind === 'bc7';
}

// ---------------------------------------------------------------- BC1 / BC2 / BC3 colour

const PALETTE = new Uint8Array(16);

/**
 * Decodes the 8-byte colour block at `src[off]` into `out[outOff..+64]` (RGBA8, 16 texels).
 * `bc1` enables the 3-colour mode when c0 <= c1 (colour 3 transparent black); BC2/BC3 always
 * use four colours. Interpolation rounds to nearest: (2a + b + 1) / 3 and (a + b + 1) / 2, on
 * endpoints widened 5/6 -> 8 bits by bit replication.
 */
export function decodeBc1Block(src: Uint8Array, off: number, out: Uint8Array, outOff = 0, bc1 = true): void {
  const c0 = src[off] | (src[off + 1] << 8);
  const c1 = src[off + 2] | (src[off + 3] << 8);
  const p = PALETTE;
  expand565(c0, p, 0);
  expand565(c1, p, 4);
  if (c0 > c1 || !bc1) {
    for (let c = 0; c < 3; c++) {
      p[8 + c] = Math.floor((2 * p[c] + p[4 + c] + 1) / 3);
      p[12 + c] = Math.floor((p[c] + 2 * p[4 + c] + 1) / 3);
    }
    p[11] = 255;
    p[15] = 255;
  } else {
    for (let c = 0; c < 3; c++) {
      p[8 + c] = (p[c] + p[4 + c] + 1) >> 1;
      p[12 + c] = 0;
    }
    p[11] = 255;
    p[15] = 0;
  }
  const idx = (src[off + 4] | (src[off + 5] << 8) | (src[off + 6] << 16) | (src[off + 7] << 24)) >>> 0;
  for (let i = 0; i < 16; i++) {
    const s = ((idx >>> (2 * i)) & 3) * 4;
    const o = outOff + i * 4;
    out[o] = p[s];
    out[o + 1] = p[s + 1];
    out[o + 2] = p[s + 2];
    out[o + 3] = p[s + 3];
  }
}

function expand565(c: number, p: Uint8Array, o: number): void {
  const r = c >> 11;
  const g = (c >> 5) & 63;
  const b = c & 31;
  p[o] = (r << 3) | (r >> 2);
  p[o + 1] = (g << 2) | (g >> 4);
  p[o + 2] = (b << 3) | (b >> 2);
  p[o + 3] = 255;
}

/** BC2: 64 bits of explicit 4-bit alpha (a * 17), then a four-colour BC1 block. */
export function decodeBc2Block(src: Uint8Array, off: number, out: Uint8Array, outOff = 0): void {
  decodeBc1Block(src, off + 8, out, outOff, false);
  for (let i = 0; i < 16; i++) {
    const a = (src[off + (i >> 1)] >> ((i & 1) * 4)) & 15;
    out[outOff + i * 4 + 3] = a * 17;
  }
}

const ALPHA8 = new Float64Array(8); // unrounded: one rounding to float32 at the output

/**
 * The eight values of a BC4-style block's palette, unrounded, in the block's own units
 * (0..255 unorm, or -127..127 snorm with -128 read as -127).
 */
function bc4Palette(e0: number, e1: number, signed: boolean, p: Float64Array): void {
  p[0] = e0;
  p[1] = e1;
  if (e0 > e1) {
    for (let i = 1; i < 7; i++) p[i + 1] = ((7 - i) * e0 + i * e1) / 7;
  } else {
    for (let i = 1; i < 5; i++) p[i + 1] = ((5 - i) * e0 + i * e1) / 5;
    p[6] = signed ? -127 : 0;
    p[7] = signed ? 127 : 255;
  }
}

/** The 48 index bits of a BC4-style block (bytes 2..7) as two 24-bit halves. */
function bc4Indices(src: Uint8Array, off: number, i: number): number {
  const half = i < 8 ? 0 : 3;
  const w = src[off + 2 + half] | (src[off + 3 + half] << 8) | (src[off + 4 + half] << 16);
  return (w >> (3 * (i & 7))) & 7;
}

/**
 * Decodes a BC4 block (or a BC3 alpha / BC5 channel block) at `src[off]` into
 * `out[outOff + i * stride]`, as floats: unorm / 255, or snorm / 127 (both -128 and -127 give -1).
 */
export function decodeBc4Block(
  src: Uint8Array,
  off: number,
  signed: boolean,
  out: Float32Array,
  outOff = 0,
  stride = 1,
): void {
  let e0 = src[off];
  let e1 = src[off + 1];
  if (signed) {
    e0 = Math.max((e0 << 24) >> 24, -127);
    e1 = Math.max((e1 << 24) >> 24, -127);
  }
  bc4Palette(e0, e1, signed, ALPHA8);
  const scale = signed ? 127 : 255;
  for (let i = 0; i < 16; i++) out[outOff + i * stride] = ALPHA8[bc4Indices(src, off, i)] / scale;
}

/** BC3: a BC4-style unorm alpha block (rounded to the nearest unorm8), then a four-colour BC1 block. */
export function decodeBc3Block(src: Uint8Array, off: number, out: Uint8Array, outOff = 0): void {
  decodeBc1Block(src, off + 8, out, outOff, false);
  bc4Palette(src[off], src[off + 1], false, ALPHA8);
  for (let i = 0; i < 16; i++) out[outOff + i * 4 + 3] = Math.round(ALPHA8[bc4Indices(src, off, i)]);
}

// ---------------------------------------------------------------- BC6H / BC7 shared

/** Two-subset partitions (BC7 and the first 32 for BC6H): bit i set = texel i is in subset 1. */
export const PARTITIONS_2: readonly number[] = [
  0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80, 0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00,
  0xfff0, 0xf000, 0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce, 0x088c, 0x3110, 0x6666, 0x366c,
  0x17e8, 0x0ff0, 0x718e, 0x399c, 0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a, 0x73ce, 0x13c8,
  0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660, 0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c,
  0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
];

/** Three-subset partitions: bits [2i+1:2i] = subset of texel i. */
export const PARTITIONS_3: readonly number[] = [
  0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050, 0xaa550000,
  0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250, 0xa5945040, 0x0a425054,
  0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500, 0x0050a4a4, 0xaaa59090, 0x14696914,
  0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200, 0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424,
  0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50, 0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0,
  0x69286928, 0x44aaaa44, 0x66666600, 0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580,
  0xaa141414, 0x96960000, 0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44,
  0x2a4a5254,
];

/** Anchor texel of subset 1 in the two-subset partitions (subset 0's anchor is texel 0). */
export const ANCHORS_2: readonly number[] = [
  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2, 15,
  15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, 6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
];

/** Anchors of subsets 1 and 2 in the three-subset partitions. */
export const ANCHORS_3A: readonly number[] = [
  3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15, 8, 15, 3, 5,
  6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
];
export const ANCHORS_3B: readonly number[] = [
  15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8, 15,
  3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, 15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
];

/** Interpolation weights (of 64) for 2-, 3- and 4-bit indices. */
export const WEIGHTS: Readonly<Record<number, readonly number[]>> = {
  2: [0, 21, 43, 64],
  3: [0, 9, 18, 27, 37, 46, 55, 64],
  4: [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64],
};

/** A 128-bit block as four little-endian words, read `n` (<= 24) bits at a time from `pos`. */
class Bits128 {
  readonly w = new Uint32Array(4);
  pos = 0;
  load(src: Uint8Array, off: number): void {
    for (let i = 0; i < 4; i++) {
      const o = off + i * 4;
      this.w[i] = (src[o] | (src[o + 1] << 8) | (src[o + 2] << 16) | (src[o + 3] << 24)) >>> 0;
    }
    this.pos = 0;
  }
  read(n: number): number {
    if (n === 0) return 0;
    const wi = this.pos >>> 5;
    const s = this.pos & 31;
    let v = this.w[wi] >>> s;
    if (s + n > 32 && wi < 3) v |= this.w[wi + 1] << (32 - s);
    this.pos += n;
    return (v & ((1 << n) - 1)) >>> 0;
  }
}

const BITS = new Bits128();

/** Subset of texel `i` for `subsets` 1, 2 or 3 and a partition number. */
function subsetOf(subsets: number, partition: number, i: number): number {
  if (subsets === 1) return 0;
  if (subsets === 2) return (PARTITIONS_2[partition] >>> i) & 1;
  return (PARTITIONS_3[partition] >>> (2 * i)) & 3;
}

function isAnchor(subsets: number, partition: number, i: number): boolean {
  if (i === 0) return true;
  if (subsets === 2) return i === ANCHORS_2[partition];
  if (subsets === 3) return i === ANCHORS_3A[partition] || i === ANCHORS_3B[partition];
  return false;
}

// ---------------------------------------------------------------- BC7

/** One BC7 mode's field widths (subsets, partition, rotation, index selection, colour, alpha, p-bits, indices). */
export interface Bc7Mode {
  readonly subsets: number;
  readonly partitionBits: number;
  readonly rotationBits: number;
  readonly indexSelectionBits: number;
  readonly colorBits: number;
  readonly alphaBits: number;
  /** 'endpoint': one p-bit per endpoint; 'shared': one per subset; 'none'. */
  readonly pbits: 'endpoint' | 'shared' | 'none';
  readonly indexBits: number;
  /** Bits of the second (alpha, or colour under index selection) index set; 0 when none. */
  readonly index2Bits: number;
}

function m7(
  subsets: number,
  partitionBits: number,
  rotationBits: number,
  indexSelectionBits: number,
  colorBits: number,
  alphaBits: number,
  pbits: Bc7Mode['pbits'],
  indexBits: number,
  index2Bits: number,
): Bc7Mode {
  return {
    subsets,
    partitionBits,
    rotationBits,
    indexSelectionBits,
    colorBits,
    alphaBits,
    pbits,
    indexBits,
    index2Bits,
  };
}

/** The eight BC7 modes. */
export const BC7_MODES: readonly Bc7Mode[] = [
  m7(3, 4, 0, 0, 4, 0, 'endpoint', 3, 0),
  m7(2, 6, 0, 0, 6, 0, 'shared', 3, 0),
  m7(3, 6, 0, 0, 5, 0, 'none', 2, 0),
  m7(2, 6, 0, 0, 7, 0, 'endpoint', 2, 0),
  m7(1, 0, 2, 1, 5, 6, 'none', 2, 3),
  m7(1, 0, 2, 0, 7, 8, 'none', 2, 2),
  m7(1, 0, 0, 0, 7, 7, 'endpoint', 4, 0),
  m7(2, 6, 0, 0, 5, 5, 'endpoint', 2, 0),
];

const EP = new Int32Array(3 * 2 * 4); // [subset][endpoint][channel]
const IDX1 = new Uint8Array(16);
const IDX2 = new Uint8Array(16);

function lerp64(e0: number, e1: number, w: number): number {
  return ((64 - w) * e0 + w * e1 + 32) >> 6;
}

/**
 * Decodes the 16-byte BC7 block at `src[off]` into `out[outOff..+64]` (RGBA8). A block whose
 * first byte is 0 (no mode bit) decodes to transparent black, as the specification says.
 */
export function decodeBc7Block(src: Uint8Array, off: number, out: Uint8Array, outOff = 0): void {
  const b0 = src[off];
  if (b0 === 0) {
    out.fill(0, outOff, outOff + 64);
    return;
  }
  const mode = 31 - Math.clz32(b0 & -b0);
  const M = BC7_MODES[mode];
  const bs = BITS;
  bs.load(src, off);
  bs.pos = mode + 1;
  const partition = bs.read(M.partitionBits);
  const rotation = bs.read(M.rotationBits);
  const isel = bs.read(M.indexSelectionBits);
  const ns = M.subsets;
  const ep = EP;
  for (let c = 0; c < 3; c++)
    for (let s = 0; s < ns; s++) for (let e = 0; e < 2; e++) ep[(s * 2 + e) * 4 + c] = bs.read(M.colorBits);
  if (M.alphaBits)
    for (let s = 0; s < ns; s++) for (let e = 0; e < 2; e++) ep[(s * 2 + e) * 4 + 3] = bs.read(M.alphaBits);
  const chans = M.alphaBits ? 4 : 3;
  let cb = M.colorBits;
  let ab = M.alphaBits;
  if (M.pbits !== 'none') {
    for (let s = 0; s < ns; s++) {
      const shared = M.pbits === 'shared' ? bs.read(1) : -1;
      for (let e = 0; e < 2; e++) {
        const p = shared >= 0 ? shared : bs.read(1);
        for (let c = 0; c < chans; c++) ep[(s * 2 + e) * 4 + c] = (ep[(s * 2 + e) * 4 + c] << 1) | p;
      }
    }
    cb++;
    if (ab) ab++;
  }
  for (let k = 0; k < ns * 2; k++) {
    for (let c = 0; c < 3; c++) {
      const v = ep[k * 4 + c];
      ep[k * 4 + c] = (v << (8 - cb)) | (v >> (2 * cb - 8));
    }
    const a = ep[k * 4 + 3];
    ep[k * 4 + 3] = ab ? (a << (8 - ab)) | (a >> (2 * ab - 8)) : 255;
  }
  for (let i = 0; i < 16; i++) IDX1[i] = bs.read(M.indexBits - (isAnchor(ns, partition, i) ? 1 : 0));
  if (M.index2Bits) for (let i = 0; i < 16; i++) IDX2[i] = bs.read(M.index2Bits - (i === 0 ? 1 : 0));
  const w1 = WEIGHTS[M.indexBits];
  const w2 = M.index2Bits ? WEIGHTS[M.index2Bits] : w1;
  for (let i = 0; i < 16; i++) {
    const s = subsetOf(ns, partition, i);
    const e0 = s * 8;
    const e1 = e0 + 4;
    // Colour from the first index set and alpha from the second, unless index selection swaps them.
    const wc = M.index2Bits ? (isel ? w2[IDX2[i]] : w1[IDX1[i]]) : w1[IDX1[i]];
    const wa = M.index2Bits ? (isel ? w1[IDX1[i]] : w2[IDX2[i]]) : w1[IDX1[i]];
    let r = lerp64(ep[e0], ep[e1], wc);
    let g = lerp64(ep[e0 + 1], ep[e1 + 1], wc);
    let b = lerp64(ep[e0 + 2], ep[e1 + 2], wc);
    let a = lerp64(ep[e0 + 3], ep[e1 + 3], wa);
    // Rotation swaps alpha with R (1), G (2) or B (3) after interpolation.
    const t = a;
    if (rotation === 1) {
      a = r;
      r = t;
    } else if (rotation === 2) {
      a = g;
      g = t;
    } else if (rotation === 3) {
      a = b;
      b = t;
    }
    const o = outOff + i * 4;
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = a;
  }
}

// ---------------------------------------------------------------- BC6H

/** One BC6H mode: endpoint precision, delta precisions (R, G, B), subsets, and its header bit runs. */
export interface Bc6hMode {
  /** The mode field as stored: 2 bits for modes 1-2, 5 bits for the others. */
  readonly code: number;
  readonly codeBits: number;
  readonly endpointBits: number;
  readonly deltaBits: readonly [number, number, number];
  readonly subsets: 1 | 2;
  /** Endpoints 1.. are deltas from endpoint 0. */
  readonly transformed: boolean;
  /**
   * The header after the mode bits, in stream order: [slot, first bit, count, reversed].
   * slot = endpoint * 3 + channel (r0 g0 b0 r1 g1 b1 r2 ...); `reversed` runs store their
   * highest bit first (the spec's rw[10:15]-style ranges).
   */
  readonly runs: readonly (readonly [number, number, number, boolean])[];
}

/** Parses runs written as "g2.4 r0.0:10 r0.10:2r": channel, endpoint, first bit, count, reversed. */
function runs(spec: string): Bc6hMode['runs'] {
  return spec
    .trim()
    .split(/\s+/)
    .map((t) => {
      const m = /^([rgb])([0-3])\.(\d+)(?::(\d+))?(r?)$/.exec(t);
      if (!m) throw new Error(`bad BC6H run ${t}`);
      const slot = Number(m[2]) * 3 + 'rgb'.indexOf(m[1]);
      return [slot, Number(m[3]), m[4] ? Number(m[4]) : 1, m[5] === 'r'] as const;
    });
}

function m6(
  code: number,
  codeBits: number,
  endpointBits: number,
  deltaBits: [number, number, number],
  subsets: 1 | 2,
  transformed: boolean,
  spec: string,
): Bc6hMode {
  return { code, codeBits, endpointBits, deltaBits, subsets, transformed, runs: runs(spec) };
}

/** The 14 BC6H modes (D3D11 numbering 1-14 is index + 1). */
// prettier-ignore
export const BC6H_MODES: readonly Bc6hMode[] = [
  m6(0b00, 2, 10, [5, 5, 5], 2, true,
    'g2.4 b2.4 b3.4 r0.0:10 g0.0:10 b0.0:10 r1.0:5 g3.4 g2.0:4 g1.0:5 b3.0 g3.0:4 b1.0:5 b3.1 b2.0:4 r2.0:5 b3.2 r3.0:5 b3.3'),
  m6(0b01, 2, 7, [6, 6, 6], 2, true,
    'g2.5 g3.4 g3.5 r0.0:7 b3.0 b3.1 b2.4 g0.0:7 b2.5 b3.2 g2.4 b0.0:7 b3.3 b3.5 b3.4 r1.0:6 g2.0:4 g1.0:6 g3.0:4 b1.0:6 b2.0:4 r2.0:6 r3.0:6'),
  m6(0b00010, 5, 11, [5, 4, 4], 2, true,
    'r0.0:10 g0.0:10 b0.0:10 r1.0:5 r0.10 g2.0:4 g1.0:4 g0.10 b3.0 g3.0:4 b1.0:4 b0.10 b3.1 b2.0:4 r2.0:5 b3.2 r3.0:5 b3.3'),
  m6(0b00110, 5, 11, [4, 5, 4], 2, true,
    'r0.0:10 g0.0:10 b0.0:10 r1.0:4 r0.10 g3.4 g2.0:4 g1.0:5 g0.10 g3.0:4 b1.0:4 b0.10 b3.1 b2.0:4 r2.0:4 b3.0 b3.2 r3.0:4 g2.4 b3.3'),
  m6(0b01010, 5, 11, [4, 4, 5], 2, true,
    'r0.0:10 g0.0:10 b0.0:10 r1.0:4 r0.10 b2.4 g2.0:4 g1.0:4 g0.10 b3.0 g3.0:4 b1.0:5 b0.10 b2.0:4 r2.0:4 b3.1 b3.2 r3.0:4 b3.4 b3.3'),
  m6(0b01110, 5, 9, [5, 5, 5], 2, true,
    'r0.0:9 b2.4 g0.0:9 g2.4 b0.0:9 b3.4 r1.0:5 g3.4 g2.0:4 g1.0:5 b3.0 g3.0:4 b1.0:5 b3.1 b2.0:4 r2.0:5 b3.2 r3.0:5 b3.3'),
  m6(0b10010, 5, 8, [6, 5, 5], 2, true,
    'r0.0:8 g3.4 b2.4 g0.0:8 b3.2 g2.4 b0.0:8 b3.3 b3.4 r1.0:6 g2.0:4 g1.0:5 b3.0 g3.0:4 b1.0:5 b3.1 b2.0:4 r2.0:6 r3.0:6'),
  m6(0b10110, 5, 8, [5, 6, 5], 2, true,
    'r0.0:8 b3.0 b2.4 g0.0:8 g2.5 g2.4 b0.0:8 g3.5 b3.4 r1.0:5 g3.4 g2.0:4 g1.0:6 g3.0:4 b1.0:5 b3.1 b2.0:4 r2.0:5 b3.2 r3.0:5 b3.3'),
  m6(0b11010, 5, 8, [5, 5, 6], 2, true,
    'r0.0:8 b3.1 b2.4 g0.0:8 b2.5 g2.4 b0.0:8 b3.5 b3.4 r1.0:5 g3.4 g2.0:4 g1.0:5 b3.0 g3.0:4 b1.0:6 b2.0:4 r2.0:5 b3.2 r3.0:5 b3.3'),
  m6(0b11110, 5, 6, [6, 6, 6], 2, false,
    'r0.0:6 g3.4 b3.0 b3.1 b2.4 g0.0:6 g2.5 b2.5 b3.2 g2.4 b0.0:6 g3.5 b3.3 b3.5 b3.4 r1.0:6 g2.0:4 g1.0:6 g3.0:4 b1.0:6 b2.0:4 r2.0:6 r3.0:6'),
  m6(0b00011, 5, 10, [10, 10, 10], 1, false, 'r0.0:10 g0.0:10 b0.0:10 r1.0:10 g1.0:10 b1.0:10'),
  m6(0b00111, 5, 11, [9, 9, 9], 1, true, 'r0.0:10 g0.0:10 b0.0:10 r1.0:9 r0.10 g1.0:9 g0.10 b1.0:9 b0.10'),
  m6(0b01011, 5, 12, [8, 8, 8], 1, true, 'r0.0:10 g0.0:10 b0.0:10 r1.0:8 r0.10:2r g1.0:8 g0.10:2r b1.0:8 b0.10:2r'),
  m6(0b01111, 5, 16, [4, 4, 4], 1, true, 'r0.0:10 g0.0:10 b0.0:10 r1.0:4 r0.10:6r g1.0:4 g0.10:6r b1.0:4 b0.10:6r'),
];

/** BC6H mode index (0-13) by the 5-bit mode field; -1 for the reserved codes. */
const BC6H_BY_CODE: Int8Array = (() => {
  const t = new Int8Array(32).fill(-1);
  BC6H_MODES.forEach((m, i) => {
    if (m.codeBits === 2) for (let hi = 0; hi < 8; hi++) t[(hi << 2) | m.code] = i;
    else t[m.code] = i;
  });
  return t;
})();

/** The mode index (0-13) of a BC6H block, or -1 for a reserved mode. */
export function bc6hModeOf(src: Uint8Array, off: number): number {
  return BC6H_BY_CODE[src[off] & 31];
}

const E6 = new Int32Array(12);

function sext(v: number, bits: number): number {
  return (v << (32 - bits)) >> (32 - bits);
}

function unquantize6(v: number, bits: number, signed: boolean): number {
  if (!signed) {
    if (bits >= 15) return v;
    if (v === 0) return 0;
    if (v === (1 << bits) - 1) return 0xffff;
    return ((v << 16) + 0x8000) >> bits;
  }
  if (bits >= 16) return v;
  const neg = v < 0;
  const m = neg ? -v : v;
  let q: number;
  if (m === 0) q = 0;
  else if (m >= (1 << (bits - 1)) - 1) q = 0x7fff;
  else q = ((m << 15) + 0x4000) >> (bits - 1);
  return neg ? -q : q;
}

/** The final scale to half-float bits (unsigned: * 31/64; signed: magnitude * 31/32, sign-magnitude). */
function finish6(v: number, signed: boolean): number {
  if (!signed) return f16ToFloat((v * 31) >> 6);
  return v < 0 ? -f16ToFloat((-v * 31) >> 5) : f16ToFloat((v * 31) >> 5);
}

/**
 * Decodes the 16-byte BC6H block at `src[off]` into `out[outOff..+64]` as float RGBA (A = 1).
 * Reserved modes decode to 0 in R, G, B, as the specification says.
 */
export function decodeBc6hBlock(src: Uint8Array, off: number, signed: boolean, out: Float32Array, outOff = 0): void {
  const mi = bc6hModeOf(src, off);
  if (mi < 0) {
    for (let i = 0; i < 16; i++) {
      const o = outOff + i * 4;
      out[o] = out[o + 1] = out[o + 2] = 0;
      out[o + 3] = 1;
    }
    return;
  }
  const M = BC6H_MODES[mi];
  const bs = BITS;
  bs.load(src, off);
  bs.pos = M.codeBits;
  const e = E6;
  e.fill(0);
  const R = M.runs;
  for (let k = 0; k < R.length; k++) {
    const [slot, lo, n, rev] = R[k];
    let v = bs.read(n);
    if (rev) {
      let r = 0;
      for (let k = 0; k < n; k++) r |= ((v >> k) & 1) << (n - 1 - k);
      v = r;
    }
    e[slot] |= v << lo;
  }
  const partition = M.subsets === 2 ? bs.read(5) : 0;
  const nEp = M.subsets * 2;
  const eb = M.endpointBits;
  for (let c = 0; c < 3; c++) {
    if (signed) e[c] = sext(e[c], eb);
    for (let k = 1; k < nEp; k++) {
      const s = k * 3 + c;
      if (M.transformed || signed) e[s] = sext(e[s], M.transformed ? M.deltaBits[c] : eb);
      if (M.transformed) {
        e[s] = (e[s] + e[c]) & ((1 << eb) - 1);
        if (signed) e[s] = sext(e[s], eb);
      }
    }
  }
  for (let k = 0; k < nEp * 3; k++) e[k] = unquantize6(e[k], eb, signed);
  const ib = M.subsets === 2 ? 3 : 4;
  const w = WEIGHTS[ib];
  for (let i = 0; i < 16; i++) {
    const s = subsetOf(M.subsets, partition, i);
    const idx = bs.read(ib - (isAnchor(M.subsets, partition, i) ? 1 : 0));
    const wt = w[idx];
    const o = outOff + i * 4;
    for (let c = 0; c < 3; c++) {
      const a = e[s * 6 + c];
      const b = e[s * 6 + 3 + c];
      out[o + c] = finish6((a * (64 - wt) + b * wt + 32) >> 6, signed);
    }
    out[o + 3] = 1;
  }
}

// ---------------------------------------------------------------- images

/**
 * Decodes a linear level of 4x4 blocks (`pitch` bytes from one block row to the next, default
 * tight) into `width` x `height` RGBA texels: Uint8Array for BC1-3/BC7, Float32Array otherwise.
 * The caller checks that `src` is long enough.
 */
export function decodeBcImage(
  kind: BcKind,
  src: Uint8Array,
  width: number,
  height: number,
  pitch?: number,
): Uint8Array | Float32Array {
  const bw = Math.ceil(width / 4);
  const bh = Math.ceil(height / 4);
  const bb = BC_BLOCK_BYTES[kind];
  const rowPitch = pitch ?? bw * bb;
  const u8 = bcDecodesToUnorm8(kind);
  const out: Uint8Array | Float32Array = u8 ? new Uint8Array(width * height * 4) : new Float32Array(width * height * 4);
  const blk8 = new Uint8Array(64);
  const blkF = new Float32Array(64);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const o = by * rowPitch + bx * bb;
      const blk: Uint8Array | Float32Array = u8 ? blk8 : blkF;
      switch (kind) {
        case 'bc1':
          decodeBc1Block(src, o, blk8);
          break;
        case 'bc2':
          decodeBc2Block(src, o, blk8);
          break;
        case 'bc3':
          decodeBc3Block(src, o, blk8);
          break;
        case 'bc7':
          decodeBc7Block(src, o, blk8);
          break;
        case 'bc4-unorm':
        case 'bc4-snorm':
          blkF.fill(0);
          for (let i = 0; i < 16; i++) blkF[i * 4 + 3] = 1;
          decodeBc4Block(src, o, kind === 'bc4-snorm', blkF, 0, 4);
          break;
        case 'bc5-unorm':
        case 'bc5-snorm':
          blkF.fill(0);
          for (let i = 0; i < 16; i++) blkF[i * 4 + 3] = 1;
          decodeBc4Block(src, o, kind === 'bc5-snorm', blkF, 0, 4);
          decodeBc4Block(src, o + 8, kind === 'bc5-snorm', blkF, 1, 4);
          break;
        case 'bc6h-ufloat':
        case 'bc6h-sfloat':
          decodeBc6hBlock(src, o, kind === 'bc6h-sfloat', blkF);
          break;
      }
      const x0 = bx * 4;
      const y0 = by * 4;
      const nx = Math.min(4, width - x0);
      const ny = Math.min(4, height - y0);
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++) {
          const s = (y * 4 + x) * 4;
          const d = ((y0 + y) * width + x0 + x) * 4;
          out[d] = blk[s];
          out[d + 1] = blk[s + 1];
          out[d + 2] = blk[s + 2];
          out[d + 3] = blk[s + 3];
        }
    }
  }
  return out;
}
