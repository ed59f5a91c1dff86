/**
 * Surface tiling: the shared pieces of the per-generation address functions (D007).
 * An element is one texel, or one 4x4 block of a BC format. Every address function maps an
 * element coordinate (x, y, slice, sample) of one mip level to a byte offset; `surface.ts` puts
 * the levels and slices together. A mode or parameter combination that is not modelled is a
 * `TilingError` naming the mode, never a guessed layout.
 */

export type TilingErrorCode =
  /** The tile/swizzle mode exists but its layout is not modelled. */
  | 'unmodelled-mode'
  /** The mode is modelled, but not with these parameters (pipes, banks, element size, samples...). */
  | 'unmodelled-parameters'
  /** The mode is modelled, but this surface shape (mip chain, 3D, MSAA) is not. */
  | 'unmodelled-layout'
  /** The parameters contradict each other or the descriptor (e.g. a pitch that is not tile aligned). */
  | 'bad-parameters'
  /** A read or write outside the guest bytes or the surface. */
  | 'out-of-bounds';

export class TilingError extends Error {
  readonly code: TilingErrorCode;
  /** The mode's name, e.g. `2D_TILED_THIN1`, `SW_64KB_R_X`. */
  readonly mode: string;
  readonly reason: string;
  constructor(code: TilingErrorCode, mode: string, reason: string) {
    super(`${mode}: ${reason}`);
    this.name = 'TilingError';
    this.code = code;
    this.mode = mode;
    this.reason = reason;
  }
}

/** One address bit: the XOR (parity) of the x, y and z (slice) bits its masks select. */
export interface EquationBit {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** Address bits 0..n-1 of a block, low bit first. */
export type Equation = readonly EquationBit[];

const ZERO_BIT: EquationBit = { x: 0, y: 0, z: 0 };

/**
 * Parses an equation written as addrlib and DESCRIPTORS.md write them: space-separated terms,
 * low bit first, each `0` or an XOR of `X<n>`, `Y<n>`, `Z<n>` (e.g. `0 0 X0 X1 Y4^X7^Y7`).
 * X and Y are element coordinates; Z is the slice.
 */
export function parseEquation(text: string): Equation {
  return text
    .trim()
    .split(/\s+/)
    .map((term) => {
      if (term === '0') return ZERO_BIT;
      let x = 0;
      let y = 0;
      let z = 0;
      for (const part of term.split('^')) {
        const m = /^([XYZ])(\d+)$/.exec(part);
        if (m === null) throw new Error(`bad equation term '${term}' in '${text}'`);
        const bit = 1 << Number(m[2]);
        if (m[1] === 'X') x ^= bit;
        else if (m[1] === 'Y') y ^= bit;
        else z ^= bit;
      }
      return { x, y, z };
    });
}

/** The equation in the same notation `parseEquation` reads. */
export function equationText(eq: Equation): string {
  return eq
    .map((b) => {
      const parts: string[] = [];
      for (const [name, mask] of [
        ['X', b.x],
        ['Y', b.y],
        ['Z', b.z],
      ] as const)
        for (let i = 0; i < 31; i++) if ((mask >>> i) & 1) parts.push(`${name}${i}`);
      return parts.length === 0 ? '0' : parts.join('^');
    })
    .join(' ');
}

function parity(v: number): number {
  v ^= v >>> 16;
  v ^= v >>> 8;
  v ^= v >>> 4;
  v ^= v >>> 2;
  v ^= v >>> 1;
  return v & 1;
}

/** Evaluates an equation at an element coordinate: the byte offset within (and, for XOR terms, beyond) one block. */
export function evalEquation(eq: Equation, x: number, y: number, z: number): number {
  let out = 0;
  for (let i = 0; i < eq.length; i++) {
    const b = eq[i];
    out |= parity((x & b.x) ^ (y & b.y) ^ (z & b.z)) << i;
  }
  return out >>> 0;
}

/**
 * A fast evaluator of an equation: XOR is linear, so the offset is the XOR of per-coordinate
 * contributions, looked up a byte of the coordinate at a time (coordinates below 2^16).
 */
export function equationEvaluator(eq: Equation): (x: number, y: number, z: number) => number {
  const table = (pick: (b: EquationBit) => number, shift: number): Uint32Array => {
    const t = new Uint32Array(256);
    for (let v = 0; v < 256; v++) {
      let out = 0;
      for (let i = 0; i < eq.length; i++) out |= parity(pick(eq[i]) & (v << shift)) << i;
      t[v] = out >>> 0;
    }
    return t;
  };
  const x0 = table((b) => b.x, 0);
  const x1 = table((b) => b.x, 8);
  const y0 = table((b) => b.y, 0);
  const y1 = table((b) => b.y, 8);
  const z0 = table((b) => b.z, 0);
  const z1 = table((b) => b.z, 8);
  return (x, y, z) => {
    if (x > 0xffff || y > 0xffff || z > 0xffff) return evalEquation(eq, x, y, z);
    return (x0[x & 255] ^ x1[x >>> 8] ^ y0[y & 255] ^ y1[y >>> 8] ^ z0[z & 255] ^ z1[z >>> 8]) >>> 0;
  };
}

export function log2Exact(v: number): number {
  const l = Math.log2(v);
  return Number.isInteger(l) ? l : -1;
}

export function isPow2(v: number): boolean {
  return v > 0 && (v & (v - 1)) === 0;
}

export function nextPow2(v: number): number {
  let p = 1;
  while (p < v) p *= 2;
  return p;
}

export function alignUp(v: number, a: number): number {
  return Math.ceil(v / a) * a;
}
