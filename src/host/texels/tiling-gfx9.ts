/**
 * GFX9 and GFX10/10.3/11 swizzle modes (SW_MODE): block equations for 2D (thin) surfaces.
 *
 * - Non-XOR modes (256B_S/D, 4KB_S/D, 64KB_S/D; gfx9 also R and Z): a 256-byte micro block whose
 *   bit order depends on the mode, element size and generation, then the bits above 256 B
 *   alternate Y, X (addrlib gfx9addrlib.cpp HwlComputeBlock256Equation/HwlComputeThinEquation;
 *   gfx10SwizzlePattern.h and gfx11SwizzlePattern.h hold the same orders as tables).
 * - GFX9 XOR modes (_X, _T): pipe and bank bits XORed with higher address bits and the slice,
 *   from the pipe, shader-engine and bank counts (gfx9 HwlComputeThinEquation).
 * - GFX10/10.3 XOR modes: the addrlib pattern tables (`tiling-gfx10-patterns.ts`), indexed by pipes
 *   and, on gfx10.3 (RB+), packers.
 * See D007 and DESCRIPTORS.md §5.2.
 */
import { Gen } from '../../isa/gen.ts';
import { GFX10_XOR_PATTERNS } from './tiling-gfx10-patterns.ts';
import { TilingError, log2Exact, parseEquation, type Equation, type EquationBit } from './tiling.ts';

/** SW_MODE names (addrtypes.h AddrSwizzleMode), without the `SW_` prefix. */
export const SW_MODE_NAMES: Readonly<Record<number, string>> = {
  0: 'LINEAR',
  1: '256B_S',
  2: '256B_D',
  3: '256B_R',
  4: '4KB_Z',
  5: '4KB_S',
  6: '4KB_D',
  7: '4KB_R',
  8: '64KB_Z',
  9: '64KB_S',
  10: '64KB_D',
  11: '64KB_R',
  12: 'VAR_Z',
  13: 'VAR_S',
  14: 'VAR_D',
  15: 'VAR_R',
  16: '64KB_Z_T',
  17: '64KB_S_T',
  18: '64KB_D_T',
  19: '64KB_R_T',
  20: '4KB_Z_X',
  21: '4KB_S_X',
  22: '4KB_D_X',
  23: '4KB_R_X',
  24: '64KB_Z_X',
  25: '64KB_S_X',
  26: '64KB_D_X',
  27: '64KB_R_X',
  28: 'VAR_Z_X',
  29: 'VAR_S_X',
  30: 'VAR_D_X',
  31: 'VAR_R_X',
};

/** GFX11 reuses 28-31 for 256 KB blocks (gfx11addrlib SwizzleModeTable). */
const GFX11_NAMES: Readonly<Record<number, string>> = {
  28: '256KB_Z_X',
  29: '256KB_S_X',
  30: '256KB_D_X',
  31: '256KB_R_X',
};

export function swModeName(swMode: number, gen?: Gen): string {
  const n = (gen === Gen.GFX11 ? GFX11_NAMES[swMode] : undefined) ?? SW_MODE_NAMES[swMode];
  return `SW_${n ?? `MODE_${swMode}`}`;
}

/** GB_ADDR_CONFIG values the XOR modes depend on. */
export interface SwizzleConfig {
  /** Pipes (gfx9: NUM_PIPES; gfx10: NUM_PIPES). */
  readonly pipes?: number;
  /** Packers (gfx10.3 RB+ NUM_PKRS). */
  readonly pkrs?: number;
  /** Shader engines (gfx9 NUM_SHADER_ENGINES); default 1. */
  readonly shaderEngines?: number;
  /** Banks (gfx9 NUM_BANKS): required by gfx9 XOR modes whose block has room for bank bits. */
  readonly banks?: number;
}

export type SwKind = 'S' | 'D' | 'R' | 'Z';

export interface SwModeInfo {
  readonly name: string;
  readonly linear: boolean;
  /** log2 of the block size in bytes (8, 12, 16). */
  readonly blockBits: number;
  readonly kind: SwKind;
  readonly xor: boolean;
  readonly prt: boolean;
}

/** Decodes a SW_MODE value; throws for reserved and variable-size modes. */
export function swModeInfo(swMode: number, gen?: Gen): SwModeInfo {
  const n = SW_MODE_NAMES[swMode];
  const name = swModeName(swMode, gen);
  if (n === undefined) throw new TilingError('unmodelled-mode', name, 'not a swizzle mode');
  if (gen === Gen.GFX11 && GFX11_NAMES[swMode] !== undefined)
    throw new TilingError('unmodelled-mode', name, '256 KB blocks (gfx11) are not modelled');
  if (n === 'LINEAR') return { name, linear: true, blockBits: 8, kind: 'S', xor: false, prt: false };
  if (n.startsWith('VAR'))
    throw new TilingError('unmodelled-mode', name, 'variable-size blocks (gfx10.3 VAR modes) are not modelled');
  const m = /^(256B|4KB|64KB)_([SDRZ])(_X|_T)?$/.exec(n);
  if (m === null) throw new TilingError('unmodelled-mode', name, 'not a swizzle mode');
  return {
    name,
    linear: false,
    blockBits: m[1] === '256B' ? 8 : m[1] === '4KB' ? 12 : 16,
    kind: m[2] as SwKind,
    xor: m[3] !== undefined,
    prt: m[3] === '_T',
  };
}

/** Element dimensions of a thin block (DESCRIPTORS.md §5.2 table): width >= height. */
export function thinBlockDims(blockBits: number, elemLog2: number): { width: number; height: number } {
  const bits = blockBits - elemLog2;
  const wBits = Math.ceil(bits / 2);
  return { width: 1 << wBits, height: 1 << (bits - wBits) };
}

// ---------------------------------------------------------------- 256-byte micro blocks

/** Micro-block orders, bits elemLog2..7, per element size 1, 2, 4, 8, 16 bytes. */
type MicroOrders = readonly (readonly string[] | null)[];

const S_MICRO: MicroOrders = [
  ['X0', 'X1', 'X2', 'X3', 'Y0', 'Y1', 'Y2', 'Y3'],
  ['X0', 'X1', 'X2', 'Y0', 'Y1', 'Y2', 'X3'],
  ['X0', 'X1', 'Y0', 'Y1', 'Y2', 'X2'],
  ['X0', 'Y0', 'Y1', 'X1', 'X2'],
  ['Y0', 'Y1', 'X0', 'X1'],
];
const D_MICRO_GFX9: MicroOrders = [
  ['X0', 'X1', 'X2', 'Y1', 'Y0', 'Y2', 'X3', 'Y3'],
  ['X0', 'X1', 'X2', 'Y0', 'Y1', 'Y2', 'X3'],
  ['X0', 'X1', 'Y0', 'X2', 'Y1', 'Y2'],
  ['X0', 'Y0', 'X1', 'X2', 'Y1'],
  ['X0', 'Y0', 'X1', 'Y1'],
];
/** gfx10.1 (Navi1x tables): D as gfx9 but 4-byte D equals S. */
const D_MICRO_GFX10: MicroOrders = [D_MICRO_GFX9[0], D_MICRO_GFX9[1], S_MICRO[2], D_MICRO_GFX9[3], D_MICRO_GFX9[4]];
/** gfx10.3 (RB+ tables): 4-byte D is X0 X1 Y0 Y1 X2 Y2. */
const D_MICRO_GFX10_3: MicroOrders = [
  D_MICRO_GFX9[0],
  D_MICRO_GFX9[1],
  ['X0', 'X1', 'Y0', 'Y1', 'X2', 'Y2'],
  D_MICRO_GFX9[3],
  D_MICRO_GFX9[4],
];
/** gfx11 (gfx11SwizzlePattern.h). */
const D_MICRO_GFX11: MicroOrders = [
  ['X0', 'X1', 'Y0', 'X2', 'Y1', 'Y2', 'X3', 'Y3'],
  ['X0', 'Y0', 'X1', 'Y1', 'X2', 'Y2', 'X3'],
  ['X0', 'Y0', 'X1', 'Y1', 'X2', 'Y2'],
  D_MICRO_GFX9[3],
  D_MICRO_GFX9[4],
];
const R_MICRO_GFX9: MicroOrders = [
  ['Y0', 'Y1', 'Y2', 'X1', 'X0', 'X2', 'X3', 'Y3'],
  ['Y0', 'Y1', 'Y2', 'X0', 'X1', 'X2', 'X3'],
  ['Y0', 'Y1', 'X0', 'Y2', 'X1', 'X2'],
  ['Y0', 'X0', 'Y1', 'X1', 'X2'],
  null,
];

function microOrders(gen: Gen, kind: SwKind): MicroOrders | null {
  if (gen === Gen.GFX11) return kind === 'D' ? D_MICRO_GFX11 : null;
  if (kind === 'S') return S_MICRO;
  if (kind === 'D') return gen === Gen.GFX9 ? D_MICRO_GFX9 : gen === Gen.GFX10 ? D_MICRO_GFX10 : D_MICRO_GFX10_3;
  if (kind === 'R' && gen === Gen.GFX9) return R_MICRO_GFX9;
  return null;
}

function term(name: string): EquationBit {
  return parseEquation(name)[0];
}

/**
 * The non-XOR equation of a thin block: the micro block (or, for gfx9 Z, bits elemLog2..5
 * alternating X, Y), then bits alternate Y (even bit) and X (odd bit) up to `bits`.
 */
function thinBaseEquation(gen: Gen, info: SwModeInfo, elemLog2: number, bits: number): EquationBit[] {
  const eq: EquationBit[] = [];
  for (let i = 0; i < elemLog2; i++) eq.push({ x: 0, y: 0, z: 0 });
  let xi = 0;
  let yi = 0;
  let low: number;
  if (info.kind === 'Z') {
    if (gen !== Gen.GFX9 || elemLog2 > 3)
      throw new TilingError('unmodelled-parameters', info.name, `Z order with ${1 << elemLog2}-byte elements`);
    for (let i = elemLog2; i < 6; i++) eq.push(term((i - elemLog2) % 2 === 0 ? `X${xi++}` : `Y${yi++}`));
    low = 6;
  } else {
    const orders = microOrders(gen, info.kind);
    const order = orders?.[elemLog2];
    if (order === undefined || order === null)
      throw new TilingError(
        'unmodelled-mode',
        info.name,
        `no ${info.kind} micro-block order for ${1 << elemLog2}-byte elements on this generation`,
      );
    for (const t of order) eq.push(term(t));
    const dims = thinBlockDims(8, elemLog2);
    xi = log2Exact(dims.width);
    yi = log2Exact(dims.height);
    low = 8;
  }
  for (let i = low; i < bits; i++) eq.push(term(i % 2 === 0 ? `Y${yi++}` : `X${xi++}`));
  return eq;
}

function xorBits(a: EquationBit, b: EquationBit): EquationBit {
  return { x: a.x ^ b.x, y: a.y ^ b.y, z: a.z ^ b.z };
}

/** GFX9 XOR modes: gfx9 HwlComputeThinEquation's xor1 (higher bits) and xor2 (slice) terms, pipe interleave 256 B. */
function gfx9XorEquation(info: SwModeInfo, elemLog2: number, cfg: SwizzleConfig): EquationBit[] {
  const pipesLog2 = log2Exact(cfg.pipes ?? NaN);
  const seLog2 = log2Exact(cfg.shaderEngines ?? 1);
  if (pipesLog2 < 0 || seLog2 < 0)
    throw new TilingError(
      'unmodelled-parameters',
      info.name,
      'gfx9 XOR modes need power-of-two pipes and shader engines (GB_ADDR_CONFIG)',
    );
  const interleave = 8;
  const pipeXor = Math.min(info.blockBits - interleave, pipesLog2 + seLog2);
  const bankRoom = info.blockBits - pipeXor - interleave;
  const banksLog2 = bankRoom > 0 ? log2Exact(cfg.banks ?? NaN) : 0;
  if (banksLog2 < 0)
    throw new TilingError(
      'unmodelled-parameters',
      info.name,
      'this gfx9 XOR mode also needs a power-of-two bank count',
    );
  const bankXor = Math.min(bankRoom, banksLog2);
  const maxBits = info.prt
    ? info.blockBits
    : Math.max(info.blockBits, interleave + 2 * pipeXor, interleave + pipeXor + 2 * bankXor);
  const base = thinBaseEquation(Gen.GFX9, info, elemLog2, maxBits);
  const eq = base.slice(0, info.blockBits);
  // PRT modes build no bits above the block: XOR sources there contribute nothing (addrlib's empty xorExtra).
  const src = (pos: number): EquationBit => (pos < base.length ? base[pos] : { x: 0, y: 0, z: 0 });
  for (let i = 0; i < pipeXor; i++) {
    const at = interleave + i;
    eq[at] = xorBits(eq[at], src(interleave + 2 * pipeXor - 1 - i));
    if (!info.prt) eq[at] = xorBits(eq[at], { x: 0, y: 0, z: 1 << (pipeXor - i - 1) });
  }
  const bankStart = interleave + pipeXor;
  for (let i = 0; i < bankXor; i++) {
    const at = bankStart + i;
    eq[at] = xorBits(eq[at], src(bankStart + 2 * bankXor - 1 - i));
    if (!info.prt) eq[at] = xorBits(eq[at], { x: 0, y: 0, z: 1 << (bankXor - i - 1 + pipeXor) });
  }
  return eq;
}

/** The addrlib pattern-table key of a gfx10 / gfx10.3 XOR mode. */
export function gfx10PatternKey(gen: Gen, info: SwModeInfo, cfg: SwizzleConfig): string {
  const pipesLog2 = log2Exact(cfg.pipes ?? NaN);
  if (pipesLog2 < 0)
    throw new TilingError(
      'unmodelled-parameters',
      info.name,
      'XOR modes need the pipe count (GB_ADDR_CONFIG NUM_PIPES)',
    );
  const mode = info.name.replace(/^SW_/, '');
  if (gen === Gen.GFX10) return `${mode}/navi1x/${pipesLog2}`;
  const pkrLog2 = log2Exact(cfg.pkrs ?? NaN);
  if (pkrLog2 < 0)
    throw new TilingError('unmodelled-parameters', info.name, 'gfx10.3 XOR modes need the packer count (NUM_PKRS)');
  if (pkrLog2 > pipesLog2 || pipesLog2 - pkrLog2 > 2)
    throw new TilingError(
      'bad-parameters',
      info.name,
      `${cfg.pipes} pipes with ${cfg.pkrs} packers: addrlib requires pkrs <= pipes <= 4*pkrs`,
    );
  return `${mode}/${gen === Gen.GFX11 ? 'gfx11' : 'rbplus'}/${pipesLog2 + (pkrLog2 >= 2 ? 2 * pkrLog2 - 2 : 0)}`;
}

const EQ_CACHE = new Map<string, Equation>();

/**
 * The block equation of a tiled (non-linear) swizzle mode for 2D surfaces: address bits
 * 0..blockBits-1 of an element within its block, as a function of the absolute element (x, y) and slice.
 */
export function swizzleEquation(gen: Gen, swMode: number, elemLog2: number, cfg: SwizzleConfig = {}): Equation {
  const info = swModeInfo(swMode, gen);
  if (info.linear) throw new TilingError('bad-parameters', info.name, 'LINEAR has no block equation');
  if (elemLog2 < 0 || elemLog2 > 4)
    throw new TilingError(
      'unmodelled-parameters',
      info.name,
      `element size 2^${elemLog2} bytes (1-16 bytes, powers of two)`,
    );
  const key = `${gen}/${swMode}/${elemLog2}/${cfg.pipes}/${cfg.pkrs}/${cfg.shaderEngines}/${cfg.banks}`;
  const hit = EQ_CACHE.get(key);
  if (hit !== undefined) return hit;
  let eq: Equation;
  if (gen < Gen.GFX9) throw new TilingError('bad-parameters', info.name, 'gfx7/8 use TILING_INDEX, not SW_MODE');
  if (gen === Gen.GFX9) {
    eq = info.xor ? gfx9XorEquation(info, elemLog2, cfg) : thinBaseEquation(gen, info, elemLog2, info.blockBits);
  } else {
    const isRx = info.kind === 'R' && info.xor && info.blockBits === 16 && !info.prt;
    const valid = gen === Gen.GFX11 ? ['D'] : ['S', 'D'];
    if (!valid.includes(info.kind) && !isRx)
      throw new TilingError(
        'unmodelled-mode',
        info.name,
        `not modelled on ${gen === Gen.GFX11 ? 'gfx11' : 'gfx10'} (${info.kind} order patterns not transcribed)`,
      );
    if (!info.xor) eq = thinBaseEquation(gen, info, elemLog2, info.blockBits);
    else {
      const pkey = gfx10PatternKey(gen, info, cfg);
      const row = GFX10_XOR_PATTERNS[pkey];
      if (row === undefined)
        throw new TilingError(
          'unmodelled-parameters',
          info.name,
          `no pattern for ${cfg.pipes} pipes${gen === Gen.GFX10 ? '' : ` / ${cfg.pkrs} packers`} (kept: 4-16 pipes)`,
        );
      eq = parseEquation(row[elemLog2]);
    }
  }
  EQ_CACHE.set(key, eq);
  return eq;
}

// ---------------------------------------------------------------- gfx9 mip chains

/**
 * gfx9 mip-tail slot offsets in 256-byte units (gfx9addrlib MipTailOffset256B): a level `k` places
 * into the tail goes to slot `k + 20 - log2(block size)`, so a 64 KB block's tail starts at 32 KB
 * and a 4 KB block's at 2 KB, the smallest levels at the block start.
 */
export const GFX9_MIP_TAIL_OFFSETS_256B: readonly number[] = [
  2048, 1024, 512, 256, 128, 64, 32, 16, 8, 6, 5, 4, 3, 2, 1, 0,
];

export interface Gfx9MipLevel {
  /** Block position of the level's first block in the slice's block grid (chainPitch wide). */
  readonly blockX: number;
  readonly blockY: number;
  /** Byte offset of the level inside the mip-tail block, or -1 for a level outside the tail. */
  readonly tailOffset: number;
}

export interface Gfx9MipChain {
  /** Mip 0 padded to whole blocks, in elements. */
  readonly pitch: number;
  readonly height: number;
  /** One slice's block grid in elements; a slice is chainPitch x chainHeight x element bytes. */
  readonly chainPitch: number;
  readonly chainHeight: number;
  /** The T#'s PITCH (epitch) then holds chainHeight - 1 rather than chainPitch - 1. */
  readonly epitchIsHeight: boolean;
  /** First level in the mip tail; the level count when there is none. */
  readonly firstInTail: number;
  readonly levels: readonly Gfx9MipLevel[];
}

function ceilHalf(v: number): number {
  return (v >> 1) + (v & 1);
}

/**
 * The gfx9 placement of a thin 2D mip chain inside one slice (gfx9addrlib HwlComputeSurfaceInfoTiled,
 * GetMipChainInfo, GetMipStartPos, GetMipTailDim; facts restated, see D007):
 * - mip 0 is padded to whole blocks; the first level whose size fits the tail (half a block wide,
 *   one block high) and every later level share one block, the mip tail;
 * - mip 1 sits below mip 0 (X major: mip 0 at least as wide as high, in blocks) or to its right
 *   (Y major); mips 2, 3, 4... then alternate right/below (X major) or below/right (Y major);
 *   the tail block takes the next position in the same walk;
 * - a slice is mip 0 plus one strip for mip 1 (one block more when mip 1 is one block and
 *   levels 3 and on exist); when mip 0 is already in the tail the slice is one block;
 * - inside the tail block level `k` of the tail lies at GFX9_MIP_TAIL_OFFSETS_256B[k + 20 - blockBits]
 *   * 256, ORed into the level's in-block address before the slice XOR.
 */
export function gfx9MipChain(
  mode: string,
  blockBits: number,
  blk: { width: number; height: number },
  elemW0: number,
  elemH0: number,
  levels: number,
): Gfx9MipChain {
  if (blockBits !== 12 && blockBits !== 16)
    throw new TilingError(
      'bad-parameters',
      mode,
      'gfx9 256 B blocks cannot hold a mip chain (addrlib ValidateSwModeParams rejects them)',
    );
  const bw = blk.width;
  const bh = blk.height;
  const tailW = bw >> 1; // thin block, even log2 block size: the tail halves the width
  const tailH = bh;
  // GetMipChainInfo: each level halves the previous level padded to whole blocks.
  let firstInTail = levels;
  let w = elemW0;
  let h = elemH0;
  for (let i = 0; i < levels; i++) {
    if (w <= tailW && h <= tailH) {
      firstInTail = i;
      break;
    }
    w = Math.max(1, (Math.ceil(w / bw) * bw) >> 1);
    h = Math.max(1, (Math.ceil(h / bh) * bh) >> 1);
  }
  const pitch = Math.ceil(elemW0 / bw) * bw;
  const height = Math.ceil(elemH0 / bh) * bh;
  let chainPitch = pitch;
  let chainHeight = height;
  let epitchIsHeight = true;
  const w0b = pitch / bw;
  const h0b = height / bh;
  const yMajor = w0b < h0b;
  const ending = Math.min(firstInTail, levels - 1);
  if (ending > 0) {
    let m1 = ceilHalf(yMajor ? w0b : h0b);
    if (m1 === 1 && ending > 2) m1++;
    if (yMajor) {
      chainPitch += m1 * bw;
      epitchIsHeight = false;
    } else chainHeight += m1 * bh;
  }
  const tailLevel = (k: number): number => {
    const slot = k + 20 - blockBits;
    if (slot >= GFX9_MIP_TAIL_OFFSETS_256B.length)
      throw new TilingError('unmodelled-layout', mode, `mip-tail level ${k} is past the last gfx9 tail slot`);
    return GFX9_MIP_TAIL_OFFSETS_256B[slot] * 256;
  };
  const out: Gfx9MipLevel[] = [];
  for (let i = 0; i < levels; i++) {
    if (firstInTail === 0) {
      out.push({ blockX: 0, blockY: 0, tailOffset: tailLevel(i) });
      continue;
    }
    // GetMipStartPos: walk the placement from mip 0, in blocks, stopping at the tail block.
    let x = 0;
    let y = 0;
    let wb = w0b;
    let hb = h0b;
    let endingMip = i + 1;
    for (let k = 1; k <= i; k++) {
      const across = k === 1 || k === 3 ? yMajor : !yMajor;
      if (across) x += wb;
      else y += hb;
      if (wb === 1 && hb <= 2) {
        endingMip = k;
        break;
      }
      wb = ceilHalf(wb);
      hb = ceilHalf(hb);
    }
    const inTail = i >= endingMip;
    if (inTail !== i >= firstInTail)
      throw new TilingError(
        'unmodelled-layout',
        mode,
        `level ${i}: the element-size and block-count mip-tail tests disagree`,
      );
    out.push({ blockX: x, blockY: y, tailOffset: inTail ? tailLevel(i - endingMip) : -1 });
  }
  return { pitch, height, chainPitch, chainHeight, epitchIsHeight, firstInTail, levels: out };
}
