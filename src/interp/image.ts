/**
 * MIMG for the reference interpreter (D009): image_load / image_load_mip / image_store /
 * image_store_mip, image_get_resinfo, and the sample / gather4 opcodes (in image-sample.ts)
 * on 1D, 2D, 1D-array and 2D-array images (3D for loads and stores), per active lane.
 *
 * Address VGPRs, in the order AMD's ISA documents ("Image opcodes with a sampler", address
 * components): offset (_o), bias (_b), z-compare (_c), derivatives (_d), the coordinates (x, y, slice), then
 * lod (_l) / clamp (_cl) / mip (_mip). gfx10+ read the coordinate count from DIM (which must
 * match the T#'s TYPE), gfx7-9 from the T#'s TYPE; NSA forms list one register each (gfx11's
 * partial NSA: the last register holds the rest).
 *
 * Texels go through the surface layout (`surfaceLayout`) and the texel decoder
 * (`decodeElement`), then the T#'s DST_SEL. Loads return floats for float / normalised formats
 * and integers for UINT / SINT; an out-of-range coordinate, slice or mip reads 0 in every
 * component and drops a store. Stores convert back (`encodeTexel`): UNORM / SNORM round to
 * nearest even after clamping, FLOAT 16 rounds to nearest even, UINT / SINT keep the low bits
 * (not checked on hardware); other number formats are refused by name.
 *
 * d16 packs two 16-bit values a VGPR on gfx9+ (one, in the low half, on gfx8): f16 for float
 * formats (round to nearest even), the low 16 bits of integers (sign-extended back on SINT stores).
 *
 * What is not modelled is a refusal, never a guess: a16, tfe, lwe, atomics, MSAA, the
 * _pck loads, coarse and 16-bit derivatives (_cd, _g16) and cube sampling, 3D sampling, get_lod, gather4h,
 * stores to BC formats, and the descriptor settings image-sample.ts lists. BC texels are read
 * through the texel decoder (`decodeImageLevel`), one 4x4 block at a time.
 */
import { Gen } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import {
  decodeImageDescriptor,
  DescriptorError,
  type DstSel,
  type ImageDescriptor,
} from '../host/descriptors/index.ts';
import {
  decodeElement,
  decodeImageLevel,
  f16ToFloat,
  surfaceLayout,
  texelFormat,
  TexelFormatError,
  TilingError,
  type RgbaArray,
  type TexelFormat,
} from '../host/texels/index.ts';
import type { SurfaceLayout } from '../host/texels/surface.ts';
import type { GuestMemory } from './memory.ts';
import type { Wave } from './wave.ts';
import { runSampleOp } from './image-sample.ts';

/** Names the caller's refusal (an InterpRefusal at the instruction). */
export type Refuse = (reason: string) => never;

export type ImageKind = 'load' | 'store' | 'resinfo' | 'sample' | 'gather4';

/** What an opcode's name says about its address VGPRs and behaviour. */
export interface ImageOp {
  readonly kind: ImageKind;
  /** _mip (load/store): a mip level after the coordinates. */
  readonly mip: boolean;
  readonly compare: boolean;
  readonly bias: boolean;
  readonly lod: boolean;
  readonly lz: boolean;
  readonly clamp: boolean;
  readonly offset: boolean;
  /** _d: the shader's derivatives (d/dx, then d/dy, of each non-array coordinate) before the coordinates. */
  readonly derivatives: boolean;
}

const SAMPLE_NAME = /^image_(sample|gather4)(_c)?(_d|_b|_l|_lz)?(_cl)?(_o)?$/;

/** Coordinates of each DIM (1D, 2D, 3D, CUBE, 1D_ARRAY, 2D_ARRAY, 2D_MSAA, 2D_MSAA_ARRAY). */
export const DIM_COORDS = [1, 2, 3, 3, 2, 3, 3, 4] as const;
const DIM_OF_TYPE: Readonly<Record<string, number>> = {
  '1d': 0,
  '2d': 1,
  '3d': 2,
  cube: 3,
  '1d_array': 4,
  '2d_array': 5,
  '2d_msaa': 6,
  '2d_msaa_array': 7,
};
const DIM_LABELS = ['1D', '2D', '3D', 'CUBE', '1D_ARRAY', '2D_ARRAY', '2D_MSAA', '2D_MSAA_ARRAY'];

/** The opcode's shape, or the reason it is not interpreted. */
export function imageOp(name: string): ImageOp | string {
  const none = {
    mip: false,
    compare: false,
    bias: false,
    lod: false,
    lz: false,
    clamp: false,
    offset: false,
    derivatives: false,
  };
  switch (name) {
    case 'image_load':
      return { ...none, kind: 'load' };
    case 'image_load_mip':
      return { ...none, kind: 'load', mip: true };
    case 'image_store':
      return { ...none, kind: 'store' };
    case 'image_store_mip':
      return { ...none, kind: 'store', mip: true };
    case 'image_get_resinfo':
      return { ...none, kind: 'resinfo' };
  }
  const m = SAMPLE_NAME.exec(name);
  if (m)
    return {
      kind: m[1] === 'sample' ? 'sample' : 'gather4',
      mip: false,
      compare: m[2] !== undefined,
      bias: m[3] === '_b',
      lod: m[3] === '_l',
      lz: m[3] === '_lz',
      clamp: m[4] !== undefined,
      offset: m[5] !== undefined,
      derivatives: m[3] === '_d',
    };
  if (/^image_(sample|gather4)\w*(_cd|_g16)/.test(name))
    return 'coarse (_cd) and 16-bit (_g16) explicit derivatives are not modelled';
  if (name.startsWith('image_atomic_')) return 'image atomics are not interpreted';
  if (name.includes('_pck')) return 'the packed _pck loads and stores are not interpreted';
  if (name.startsWith('image_msaa') || name.includes('fmask')) return 'MSAA images are not modelled';
  if (name.includes('bvh')) return 'ray-tracing BVH instructions are not modelled';
  if (name === 'image_get_lod') return 'image_get_lod is not modelled';
  if (name.startsWith('image_gather4h')) return 'image_gather4h is not modelled';
  return 'this MIMG opcode is not interpreted';
}

/** Why an MIMG instruction cannot run (checked before the dispatch starts), or undefined. */
export function imageRefusal(inst: Instruction): string | undefined {
  const op = imageOp(inst.def.name);
  if (typeof op === 'string') return op;
  const f = inst.fields;
  if (f.a16) return 'a16 (16-bit addresses) is not interpreted';
  if (f.tfe || f.lwe) return 'texture-fail (tfe / lwe) is not interpreted';
  if (op.kind !== 'gather4' && op.kind !== 'resinfo' && (f.dmask & 0xf) === 0) return 'dmask:0 is not interpreted';
  if (op.kind === 'gather4' && [1, 2, 4, 8].indexOf(f.dmask) < 0)
    return 'gather4 needs exactly one dmask bit (the component)';
  if (op.kind === 'sample' && op.compare && f.dmask !== 1)
    return 'depth-compare samples with dmask other than 0x1 are not modelled';
  return undefined;
}

/** The i-th address VGPR (contiguous, NSA, or gfx11 partial NSA). */
export function addressRegister(inst: Instruction, i: number): number {
  const f = inst.fields;
  if (!f.nsa) return f.vaddr + i;
  if (i === 0) return f.vaddr;
  const count = f.nsa_count;
  if (i < count) return f[`vaddr${i}`];
  return f[`vaddr${count - 1}`] + (i - (count - 1));
}

/** The decoded T#, its layout and format, for one execution of an instruction. */
export interface ImageResource {
  readonly desc: ImageDescriptor;
  readonly layout: SurfaceLayout;
  readonly format: TexelFormat;
  /** DIM index (0-7). */
  readonly dim: number;
  readonly memory: GuestMemory;
  readonly refuse: Refuse;
  /** Decoded BC blocks of this execution, by guest address. */
  readonly blocks: Map<number, RgbaArray>;
}

function describe(e: unknown): string | undefined {
  if (e instanceof DescriptorError || e instanceof TexelFormatError || e instanceof TilingError) return e.message;
  return undefined;
}

/** Decodes the T# the instruction names and its DIM index; refuses what is not modelled. */
function imageDescriptorOf(
  gen: Gen,
  inst: Instruction,
  w: Wave,
  refuse: Refuse,
): { desc: ImageDescriptor; dim: number; at: string } {
  const f = inst.fields;
  const first = f.srsrc * 4;
  const n = f.r128 && gen !== Gen.GFX9 ? 4 : 8;
  const at = `s[${first}:${first + n - 1}]`;
  const words = Array.from({ length: n }, (_, i) => w.sgpr[first + i]);
  let desc: ImageDescriptor;
  try {
    desc = decodeImageDescriptor(gen, words);
  } catch (e) {
    const why = describe(e);
    if (why !== undefined) return refuse(`${at}: ${why}`);
    throw e;
  }
  const typeDim = DIM_OF_TYPE[desc.type_name];
  const dim = gen >= Gen.GFX10 ? f.dim : typeDim;
  if (dim !== typeDim)
    return refuse(`dim:${DIM_LABELS[dim]} does not match the T#'s TYPE (${desc.type_name}); not modelled`);
  if (desc.is_msaa) return refuse('MSAA images are not modelled');
  return { desc, dim, at };
}

/** Decodes the T# the instruction names and lays out its surface; refuses what is not modelled. */
export function imageResource(
  gen: Gen,
  inst: Instruction,
  w: Wave,
  memory: GuestMemory,
  refuse: Refuse,
): ImageResource {
  const { desc, dim, at } = imageDescriptorOf(gen, inst, w, refuse);
  let layout: SurfaceLayout;
  let format: TexelFormat;
  try {
    format = texelFormat(desc.format);
    layout = surfaceLayout(gen, desc);
  } catch (e) {
    const why = describe(e);
    if (why !== undefined) return refuse(`${at}: ${why}`);
    throw e;
  }
  return { desc, layout, format, dim, memory, refuse, blocks: new Map() };
}

/** RGBA after DST_SEL; `one` is 1.0 or integer 1. */
export function swizzle(sel: readonly DstSel[], r: number, g: number, b: number, a: number): number[] {
  const pick = (s: DstSel): number => {
    switch (s) {
      case 'x':
        return r;
      case 'y':
        return g;
      case 'z':
        return b;
      case 'w':
        return a;
      case '0':
        return 0;
      default:
        return 1;
    }
  };
  return [pick(sel[0]), pick(sel[1]), pick(sel[2]), pick(sel[3])];
}

/** The texel at an absolute level / slice / element, swizzled (reads guest memory; faults propagate). */
export function fetchTexel(res: ImageResource, level: number, slice: number, x: number, y: number): number[] {
  if (res.format.layout.kind === 'block') {
    // BC: decode the 4x4 block holding the texel with the texel decoder (cached per block).
    const off = res.layout.base + res.layout.elementOffset(level, slice, x >> 2, y >> 2);
    let block = res.blocks.get(off);
    if (!block) {
      block = decodeImageLevel(res.format, res.memory.read(off, res.layout.bytesPerElement), 4, 4);
      res.blocks.set(off, block);
    }
    const i = ((y & 3) * 4 + (x & 3)) * 4;
    return swizzle(res.desc.dst_sel, block[i], block[i + 1], block[i + 2], block[i + 3]);
  }
  const off = res.layout.base + res.layout.elementOffset(level, slice, x, y);
  const bytes = res.memory.read(off, res.layout.bytesPerElement);
  const t = decodeElement(res.format, bytes, 0);
  return swizzle(res.desc.dst_sel, t.r, t.g, t.b, t.a);
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
export function f32Bits(v: number): number {
  F32[0] = v;
  return U32[0];
}
export function bitsF32(b: number): number {
  U32[0] = b >>> 0;
  return F32[0];
}

/** A channel value as the VGPR word: f32 bits for float formats, the integer otherwise. */
export function channelWord(fmt: TexelFormat, v: number): number {
  return fmt.channelKind === 'float' ? f32Bits(v) : v >>> 0;
}

/** Writes the dmask-selected components of each lane's result to consecutive VGPRs from vdata. */
export function writeResults(
  w: Wave,
  vdata: number,
  dmask: number,
  results: (readonly number[] | undefined)[],
  d16?: D16,
): void {
  for (let lane = 0; lane < results.length; lane++) {
    const r = results[lane];
    if (!r) continue;
    const words: number[] = [];
    for (let c = 0; c < 4; c++) if ((dmask >> c) & 1) words.push(r[c]);
    if (!d16) {
      words.forEach((v, k) => w.writeVgpr(vdata + k, lane, v));
      continue;
    }
    const halves = words.map((v) => (d16.float ? f16Bits(bitsF32(v)) : v & 0xffff));
    if (!d16.packed) halves.forEach((h, k) => w.writeVgpr(vdata + k, lane, h));
    else
      for (let k = 0; k < halves.length; k += 2)
        w.writeVgpr(vdata + (k >> 1), lane, halves[k] | ((halves[k + 1] ?? 0) << 16));
  }
}

/** How d16 data is laid out: two halves a VGPR (gfx9+) or one (gfx8); f16 or integer halves. */
export interface D16 {
  readonly packed: boolean;
  readonly float: boolean;
}

/** The instruction's d16 layout, or undefined without d16. */
export function d16Of(gen: Gen, inst: Instruction, fmt: TexelFormat, forceFloat = false): D16 | undefined {
  if (!inst.fields.d16) return undefined;
  return { packed: gen >= Gen.GFX9, float: forceFloat || fmt.channelKind === 'float' };
}

/** The store's VGPR words per component (undefined where dmask leaves it out), d16 halves widened. */
function storeWords(
  w: Wave,
  inst: Instruction,
  lane: number,
  fmt: TexelFormat,
  d16: D16 | undefined,
): (number | undefined)[] {
  const f = inst.fields;
  const words: (number | undefined)[] = [];
  let k = 0;
  for (let c = 0; c < 4; c++) {
    if (!((f.dmask >> c) & 1)) {
      words.push(undefined);
      continue;
    }
    if (!d16) {
      words.push(w.readVgpr(f.vdata + k++, lane));
      continue;
    }
    const reg = d16.packed ? w.readVgpr(f.vdata + (k >> 1), lane) >>> (16 * (k & 1)) : w.readVgpr(f.vdata + k, lane);
    k++;
    const h = reg & 0xffff;
    if (d16.float) words.push(f32Bits(f16ToFloat(h)));
    else words.push(fmt.channelKind === 'sint' && h & 0x8000 ? (h | 0xffff0000) >>> 0 : h);
  }
  return words;
}

/** The base level and the number of levels of the T#'s view. */
export function viewLevels(desc: ImageDescriptor): { base: number; count: number } {
  const base = desc.base_level;
  const last = Math.min(desc.last_level, desc.mip_count - 1);
  return { base, count: Math.max(0, last - base + 1) };
}

function roundEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** f32 -> f16 bits, round to nearest even (overflow to infinity, NaN kept quiet). */
export function f16Bits(v: number): number {
  const b = f32Bits(v);
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const man = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (man ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = man | 0x800000;
    const shift = 14 - e;
    const h = roundEven(m / 2 ** shift);
    return sign | h;
  }
  const h = roundEven(((e << 10) | (man >>> 13)) + (man & 0x1fff) / 0x2000);
  return sign | h; // a carry into the exponent is the correct rounding (up to infinity)
}

/** One element's bytes from the store's VGPR words (X first; components not in dmask are 0, alpha 1). */
export function encodeTexel(fmt: TexelFormat, words: readonly (number | undefined)[], refuse: Refuse): Uint8Array {
  const L = fmt.layout;
  if (L.kind !== 'uniform' && L.kind !== 'packed')
    return refuse(`stores to ${fmt.info.name} (${L.kind} layout) are not interpreted`);
  const num = fmt.info.num_format;
  let elem = 0n;
  for (let c = 0; c < L.components; c++) {
    const bits = L.bits[c];
    const word = words[c] ?? (c === 3 ? (fmt.channelKind === 'float' ? f32Bits(1) : 1) : 0);
    const max = 2 ** bits - 1;
    let raw: number;
    switch (num) {
      case 'UNORM': {
        const v = bitsF32(word);
        raw = Number.isNaN(v) ? 0 : roundEven(Math.min(1, Math.max(0, v)) * max);
        break;
      }
      case 'SNORM': {
        const v = bitsF32(word);
        const smax = 2 ** (bits - 1) - 1;
        raw = Number.isNaN(v) ? 0 : roundEven(Math.min(1, Math.max(-1, v)) * smax);
        raw = raw < 0 ? raw + 2 ** bits : raw;
        break;
      }
      case 'UINT':
      case 'SINT':
        raw = bits === 32 ? word >>> 0 : (word >>> 0) % 2 ** bits;
        break;
      case 'FLOAT':
        if (bits === 32) raw = word >>> 0;
        else if (bits === 16) raw = f16Bits(bitsF32(word));
        else return refuse(`stores to ${fmt.info.name} (${bits}-bit floats) are not interpreted`);
        break;
      default:
        return refuse(`stores to ${num} formats (${fmt.info.name}) are not interpreted`);
    }
    elem |= BigInt(raw) << BigInt(L.shifts[c]);
  }
  const out = new Uint8Array(L.bytesPerElement);
  for (let i = 0; i < out.length; i++) out[i] = Number((elem >> BigInt(8 * i)) & 0xffn);
  return out;
}

/** Integer coordinates of a load / store: x, y, slice (or z for 3D), the absolute level; undefined when out of range. */
function texelAddress(
  res: ImageResource,
  coords: readonly number[],
  mip: number,
): { level: number; slice: number; x: number; y: number } | undefined {
  const { desc, dim } = res;
  const { base, count } = viewLevels(desc);
  if (mip >= count) return undefined;
  const level = base + mip;
  const sub = res.layout.subresource(level, 0);
  const x = coords[0];
  const hasY = dim === 1 || dim === 2 || dim === 5;
  const y = hasY ? coords[1] : 0;
  let slice = 0;
  if (dim === 2) slice = coords[2];
  else if (dim === 4) slice = coords[1] + desc.base_array;
  else if (dim === 5) slice = coords[2] + desc.base_array;
  if (x >= sub.width || y >= sub.height || slice >= res.layout.slices) return undefined;
  return { level, slice, x, y };
}

/** Runs one MIMG instruction the prescan accepted. */
export function runImage(gen: Gen, inst: Instruction, w: Wave, memory: GuestMemory, refuse: Refuse): void {
  const op = imageOp(inst.def.name);
  if (typeof op === 'string') return refuse(op);
  if (op.kind === 'resinfo') {
    runResinfo(gen, inst, w, refuse);
    return;
  }
  const res = imageResource(gen, inst, w, memory, refuse);
  if (op.kind === 'sample' || op.kind === 'gather4') {
    runSampleOp(gen, op, inst, w, res);
    return;
  }
  const f = inst.fields;
  const { desc, dim } = res;
  if (dim === 3) return refuse('cube images are not interpreted by image_load / image_store');
  if (dim === 2 && desc.mip_count > 1) return refuse('3D mip chains are not modelled');
  const nCoords = DIM_COORDS[dim];
  const d16 = d16Of(gen, inst, res.format);
  const results: (number[] | undefined)[] = new Array<number[] | undefined>(w.lanes);
  for (let lane = 0; lane < w.lanes; lane++) {
    if (!w.active(lane)) continue;
    const coords = Array.from({ length: nCoords }, (_, i) => w.readVgpr(addressRegister(inst, i), lane));
    const mip = op.mip ? w.readVgpr(addressRegister(inst, nCoords), lane) : 0;
    const at = texelAddress(res, coords, mip);
    if (op.kind === 'load') {
      if (!at) results[lane] = [0, 0, 0, 0];
      else results[lane] = fetchTexel(res, at.level, at.slice, at.x, at.y).map((v) => channelWord(res.format, v));
      continue;
    }
    // store
    const sel = desc.dst_sel;
    for (let c = 0; c < res.format.layout.components; c++)
      if (sel[c] !== 'xyzw'[c]) return refuse(`stores through a DST_SEL that is not identity (${sel.join('')})`);
    const words = storeWords(w, inst, lane, res.format, d16);
    if (!at) continue;
    const bytes = encodeTexel(res.format, words, refuse);
    memory.write(res.layout.base + res.layout.elementOffset(at.level, at.slice, at.x, at.y), bytes);
  }
  if (op.kind === 'store') return;
  writeResults(w, f.vdata, f.dmask, results, d16);
}

/**
 * image_get_resinfo: per active lane, the sizes of the mip level in the address VGPR. It
 * reads only the T# (no memory, so no surface layout: a 3D mip chain or a cube answers too).
 */
function runResinfo(gen: Gen, inst: Instruction, w: Wave, refuse: Refuse): void {
  const { desc, dim } = imageDescriptorOf(gen, inst, w, refuse);
  const f = inst.fields;
  if (dim === 3 && f.dmask & 4) return refuse("a cube's resinfo z (its face or cube count) is not modelled");
  const results: (number[] | undefined)[] = new Array<number[] | undefined>(w.lanes);
  for (let lane = 0; lane < w.lanes; lane++)
    if (w.active(lane)) results[lane] = resinfo(desc, dim, w.readVgpr(addressRegister(inst, 0), lane));
  writeResults(w, f.vdata, f.dmask, results);
}

/**
 * image_get_resinfo for a mip level (relative to BASE_LEVEL), as unsigned integers: x the
 * width, y the height (1D arrays: the layer count), z the depth (3D) or layer count (2D
 * arrays), w the view's level count; a cube gives its face size in x and y (z is refused
 * above). A level at or past the count gives 0 sizes (w still the count), as D3D's resinfo
 * does.
 */
function resinfo(desc: ImageDescriptor, dim: number, mip: number): number[] {
  const { count } = viewLevels(desc);
  if (mip >= count) return [0, 0, 0, count];
  const level = desc.base_level + mip;
  const width = Math.max(1, desc.width >> level);
  const height = Math.max(1, desc.height >> level);
  const layers = Math.max(0, desc.layers - desc.base_array);
  switch (dim) {
    case 0:
      return [width, 0, 0, count];
    case 1:
      return [width, height, 0, count];
    case 2:
      return [width, height, Math.max(1, desc.depth >> level), count];
    case 3:
      return [width, height, 0, count];
    case 4:
      return [width, layers, 0, count];
    default:
      return [width, height, layers, count];
  }
}
