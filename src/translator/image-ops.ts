/**
 * Image instructions in the translated module (D015): an MIMG instruction whose T# (and S#) the
 * translation knows — constants of the translation, user data, or loads at fixed places the tracer
 * (D012) names, read from guest memory here — reads a texture the host uploaded from that T#
 * (image-bindings.ts; D008's upload, float-kind formats as the host decoder's rgba32float values)
 * through `textureLoad`.
 *
 * Every image instruction queues a request (`iq`: its access's row of constants, its address
 * words) and jumps to the dispatcher's image service, which runs `image_run` — one body for every
 * access, because SwiftShader inlines each call of a function: each texture's `textureLoad` and the
 * filter code appear once. The sampler is not a WebGPU sampler: its fields are the access's
 * constants, and the service filters as the interpreter does (src/interp/image-sample.ts, the
 * oracle): the LOD from _l, _lz, _d's derivatives or the quad's (an implicit LOD: the quad's
 * coordinates come through the wave's exchange before the service, D024), plus _b and LOD_BIAS,
 * clamped to [max(MIN_LOD, T# MIN_LOD, _cl), MAX_LOD]; the mag filter at LOD <= 0 else the min filter; the
 * mip filter's levels; the eight clamp modes on texel indices (border texels read the border
 * colour); point as floor(u), bilinear as the 2x2 footprint at u - 0.5 with f32 weights; depth
 * compares per texel before the weights (all eight functions); gather4's component in the order
 * (i0, j1), (i1, j1), (i1, j0), (i0, j0). Only the float arithmetic of filtering may round
 * differently from the interpreter's, which `FILTERED_SAMPLE_ULPS` bounds.
 *
 * At the access the module compares the registers that are not constants of the translation with
 * the words the host bound and reports `FAULT.imageDescriptor` (the result refused) when they
 * differ, so a T# loaded from memory the dispatch wrote never reads the wrong image.
 *
 * A T# the program selects from a table at run time (D983, D017: the tracer names the table and
 * its texture slot) is not bound: the request carries the lane's eight T# registers, and the
 * service searches the slot's directory for them (the shared hash and search, directory-search.ts)
 * and reads the texels of the place it finds from the texel store (selected-images.ts). Words the
 * directory does not hold in the access's shape are an escape: the lane reads place 0, the escape
 * is recorded, and the replay's result is refused with the lanes and words that escaped. A selected
 * cube is read by the interpreter's cube rule (D022): s, t in [1, 2] on the layer its face id
 * names; a weighted tap across a seamless face edge, or a face coordinate that is not a face id,
 * faults (`CUBE_FAULT`).
 *
 * FORCE_DEGAMMA (or SKIP_DEGAMMA of an sRGB format) is translated as the interpreter models it:
 * every texel read and result must be made of +0 and 1, else the lane faults
 * (`FAULT.imageDegamma`); a cube quad on more than one face faults too (`CUBE_FAULT.quadFaces`).
 *
 * Refused by name: image stores and atomics (the host does not encode and tile texels back), 3D
 * images, cubes the translation knows (a selected cube is read), MSAA, get_lod, the sampler
 * settings the interpreter refuses, and T# / S# words the trace does not resolve at translation time and no selection explains.
 */
import { Gen } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import type { Expr } from '../semantics/expr.ts';
import {
  decodeImageDescriptor,
  decodeSamplerDescriptor,
  DescriptorError,
  reservedFieldError,
  type ImageDescriptor,
  type ReservedField,
  type SamplerDescriptor,
} from '../host/descriptors/index.ts';
import { texelFormat, TexelFormatError, type TexelFormat } from '../host/texels/formats.ts';
import { surfaceLayout, type SurfaceLayout } from '../host/texels/surface.ts';
import { TilingError } from '../host/texels/tiling.ts';
import type { Program } from '../interp/execute.ts';
import {
  addressRegister,
  DIM_COORDS,
  f32Bits,
  imageOp,
  imageRefusal,
  viewLevels,
  type ImageOp,
} from '../interp/image.ts';
import { CUBE_ARRAY_STEP, CUBE_COORD_ORIGIN, CUBE_FACES } from '../interp/image-sample.ts';
import type { GuestMemory } from '../interp/memory.ts';
import type { Selection } from '../tracer/classify.ts';
import { codeAddress } from '../tracer/ids.ts';
import { provenanceText } from '../tracer/provenance.ts';
import type { AccessTrace } from '../tracer/trace.ts';
import type { DecodedInstruction } from './cfg.ts';
import { directorySearchWgsl } from './directory-search.ts';
import type { LaneState } from './lane-state.ts';
import { MemoryRefusal } from './memory-ops.ts';
import { FAULT } from './wgsl/runtime.ts';
import {
  IMAGE_GROUP as IMAGE_GROUP_FOR_WGSL,
  plannedTexture,
  SELECTED_BINDING,
  type BoundImage,
} from './image-bindings.ts';
import {
  SAMPLER_LEFT_OUT_REASONS,
  SelectedImages,
  type SamplerLeftOutReason,
  type SamplerRow,
  type SelectedSlot,
} from './selected-images.ts';
import type { TracedWords } from './traced-words.ts';
import {
  STORE_FLAG_INTEGER,
  STORE_FLAG_UNORM,
  STORE_HEADER,
  STORE_HEADER_WORDS,
} from '../host/directory/texel-store.ts';

/**
 * The tolerance of a filtered image result (bilinear, a linear mip blend, a filtered compare),
 * in f32 units in the last place: the module's f32 weights and blends are the interpreter's
 * steps, but the interpreter multiplies unrounded (f64) texel values and a GPU may contract a
 * multiply and add into an FMA, each worth about one ULP per step of the two-level blend.
 * Point samples, gathers, loads and resinfo are exact. Measured in test/translator/images.gpu.test.ts.
 */
export const FILTERED_SAMPLE_ULPS = 4;

/**
 * Where a runtime-selected image's texels are read (D026): the texel store (a storage buffer,
 * portable, D017), or the resource table (`chromium_experimental_resource_table`), read in
 * uniform control flow.
 */
export type SelectedImageForm = 'texel-store' | 'resource-table';

/** Why an image instruction cannot be translated (a MemoryRefusal: program.ts names the instruction). */
export class ImageRefusal extends MemoryRefusal {}

/**
 * One sync point before the image service (D024): every lane of the wave publishes `publish` (a
 * WGSL u32) to its `xword`, and after the barrier `finish` (WGSL lines of phase B, which may read
 * `xword[xw + l]` for any lane l of the wave) completes the request in `iq`.
 */
export interface QuadExchange {
  readonly publish: string;
  readonly finish: readonly string[];
}

/** An image instruction's request, queued for the image service; `finish` writes its results after it. */
export interface ImageIssue {
  /** The quad exchanges (program.ts makes each a sync point) between queuing the request and the service. */
  readonly exchange: readonly QuadExchange[];
  finish(state: LaneState): void;
}

/** The hook program.ts calls at an MIMG instruction: it queues the request (`iq`) and says how to finish. */
export interface ImageInstructions {
  translate(state: LaneState, d: DecodedInstruction): ImageIssue;
}

/** DIM index of each T# TYPE (gfx10+ instructions name one; gfx7-9 take the T#'s). */
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

const BORDER: Readonly<Record<string, readonly number[]>> = {
  transparent_black: [0, 0, 0, 0],
  opaque_black: [0, 0, 0, 1],
  opaque_white: [1, 1, 1, 1],
};

/** The clamp modes by SQ_TEX_CLAMP value, as `wrap_index` in the module numbers them. */
const CLAMP_CODE: Readonly<Record<string, number>> = {
  wrap: 0,
  mirror: 1,
  clamp_last_texel: 2,
  mirror_once_last_texel: 3,
  clamp_half_border: 4,
  mirror_once_half_border: 5,
  clamp_border: 6,
  mirror_once_border: 7,
};

/** DEPTH_COMPARE functions as `depth_compare` in the module numbers them (SQ_TEX_DEPTH_COMPARE). */
const COMPARE_CODE: Readonly<Record<string, number>> = {
  never: 0,
  less: 1,
  equal: 2,
  'less-equal': 3,
  greater: 4,
  'not-equal': 5,
  'greater-equal': 6,
  always: 7,
};

/** WGSL the image functions share: clamp modes on texel indices, and the compare functions. */
export const IMAGE_RUNTIME_WGSL = /* wgsl */ `fn wrap_index(i: i32, n: i32, mode: u32) -> i32 {
  switch mode {
    case 0u: { return ((i % n) + n) % n; }
    case 1u: {
      let m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return select(2 * n - 1 - m, m, m < n);
    }
    case 2u: { return clamp(i, 0, n - 1); }
    case 3u: { return min(select(i, -1 - i, i < 0), n - 1); }
    case 4u, 6u: { return select(i, -1, i < 0 || i >= n); }
    default: {
      let m = select(i, -1 - i, i < 0);
      return select(m, -1, m >= n);
    }
  }
}

fn half_border(u: f32, n: f32, mode: u32) -> f32 {
  if (mode == 4u) { return min(max(u, -0.5), n + 0.5); }
  if (mode == 5u) { return min(abs(u), n + 0.5); }
  return u;
}

fn depth_compare(f: u32, r: f32, t: f32) -> bool {
  switch f {
    case 0u: { return false; }
    case 1u: { return r < t; }
    case 2u: { return r == t; }
    case 3u: { return r <= t; }
    case 4u: { return r > t; }
    case 5u: { return r != t; }
    case 6u: { return r >= t; }
    default: { return true; }
  }
}

fn signed6(v: u32) -> f32 {
  return f32((i32(v << 26u)) >> 26u);
}

fn f32_is_nan(bits: u32) -> bool {
  return (bits & 0x7fffffffu) > 0x7f800000u;
}
`;

/** An f32 constant, exactly (by its bits). */
const f32Const = (v: number): string => `bitcast<f32>(0x${f32Bits(v).toString(16)}u)`;

function describe(e: unknown): string | undefined {
  if (e instanceof DescriptorError || e instanceof TexelFormatError || e instanceof TilingError) return e.message;
  return undefined;
}

/** The dispatcher's case of the image service (runs the queued image request, then `pc = iret`). */
export const IMAGE_SERVICE = 0xfffff001;
/**
 * Words of an image request: the access's index, up to ten address words, the lane's EXEC bit,
 * the instruction's address, (a selected image's) the lane's eight T# registers, then _b's bias.
 */
const REQUEST_WORDS = 26;
/** The request word of _b's LOD bias (read where the LOD comes from derivatives: the quad's or _d's). */
const REQUEST_BIAS = 21;
/** The request word of the first T# register of a selected image. */
const REQUEST_TSHARP = 13;
/** The request word of the first S# register of an access whose sampler is selected from a table (D027). */
const REQUEST_SSHARP = 22;
/** The binding a selected image's texel reads name: SELECTED_PLACE_BINDING + its place. */
const SELECTED_PLACE_BINDING = 0x10000;
/** An escape record's slot word has this bit where the lane's S#, not its T#, missed (D027); its words are then the S#'s four. */
export const SAMPLER_ESCAPE_BIT = 0x40000000;
/** Words of a sampler row in the directory buffer (D027): `samplerRowWords`' order. */
const SAMPLER_ROW_WORDS = 12;
/** Escapes recorded with their words (the count goes on past them). */
export const ESCAPE_RECORDS = 8;
/** Words of an escape record: group x, y, z, the invocation in the group, the instruction's address, the slot, the eight T# words. */
export const ESCAPE_RECORD_WORDS = 14;
/** The escape buffer's word where the per-slot escape counts start (after the total and the records). */
export const ESCAPE_SLOT_COUNTS = 1 + ESCAPE_RECORDS * ESCAPE_RECORD_WORDS;
/** The S# a sample uses where the trace names none (D995): all zeros (wrap, point, no mips). */
export const DEFAULT_SAMPLER_WORDS: readonly number[] = [0, 0, 0, 0];

/** Access kinds of `ImageAccess.kind`. */
const KIND = { load: 0, sample: 1, gather4: 2, resinfo: 3 } as const;
/** `ImageAccess.flags` bits. */
const FLAG = {
  unnorm: 1,
  lodFromRegister: 2,
  clampRegister: 4,
  compare: 8,
  offset: 16,
  derivatives: 32,
  hasY: 64,
  arrayed: 128,
  magBilinear: 256,
  minBilinear: 512,
  unormRef: 1024,
  /** BORDER_COLOR_TYPE is the register table: an active lane reading a border texel faults (the interpreter refuses it). */
  borderRegister: 2048,
  /** The image is selected at run time: `binding` is the slot, the T#'s fields come from the place the search finds. */
  selected: 4096,
  /** A selected access that filters or compares: a place holding an integer image is an escape for it. */
  floatOnly: 8192,
  /**
   * A selected cube access: searched in the cube shape; s, t are face coordinates in [1, 2] and the
   * third address word the face id (+ 8 * cube), the interpreter's rule (image-sample.ts, D022).
   */
  cube: 16384,
  /** DISABLE_CUBE_WRAP is 0: a tap off the face with a non-zero weight faults (seamless filtering is not modelled). */
  cubeSeamless: 32768,
  /** _b: the request's bias word is added to the LOD from derivatives. */
  bias: 65536,
  /**
   * FORCE_DEGAMMA, or SKIP_DEGAMMA of an sRGB format: an active lane's texel or result component
   * that is not +0 or 1 faults (the interpreter models only those, the fixed points of every sRGB curve).
   */
  degamma: 131072,
  /** The S# is selected from a table (D027): the lane's four S# words are searched in the row's sampler set. */
  samplerSelected: 262144,
} as const;

/** The flags an S# decides (`samplerFields`): what a selected sampler's row replaces (D027). */
const SAMPLER_FLAGS =
  FLAG.unnorm |
  FLAG.lodFromRegister |
  FLAG.derivatives |
  FLAG.bias |
  FLAG.degamma |
  FLAG.magBilinear |
  FLAG.minBilinear |
  FLAG.borderRegister |
  FLAG.floatOnly |
  FLAG.cubeSeamless;

/**
 * The faults of a cube sample the interpreter refuses (image-sample.ts): a face coordinate that is
 * not a face id, and a weighted tap across a face edge (the runtime's FAULT table names both).
 */
export const CUBE_FAULT = {
  faceId: FAULT.imageCubeFaceId,
  edge: FAULT.imageCubeEdge,
  /** An implicit or _d LOD whose quad is on more than one face (D024). */
  quadFaces: FAULT.imageCubeQuadFaces,
} as const;
/** `ImageAccess.mips`: one level (the base), the nearest level, or the two levels around the LOD. */
const MIPS = { one: 0, nearest: 1, linear: 2 } as const;

/** One image access's constants (a row of the module's `IMAGE_ACCESSES`). */
interface AccessRow {
  readonly binding: number;
  readonly kind: number;
  readonly flags: number;
  readonly mips: number;
  readonly comp: number;
  readonly clampX: number;
  readonly clampY: number;
  readonly compareFn: number;
  readonly lodBias: number;
  readonly lodLo: number;
  readonly lodMax: number;
  readonly top: number;
  readonly count: number;
  readonly layers: number;
  readonly baseW: number;
  readonly baseH: number;
  readonly border: readonly number[];
  /** resinfo: the T#'s width, height, depth, BASE_LEVEL, DIM. */
  readonly resinfo: readonly [number, number, number, number, number];
  /** The sampler set a selected S# is searched in (D027; 0 where it is not selected). */
  readonly samplerSet: number;
}

const u = (v: number): string => `${v >>> 0}u`;

/** What an image instruction queues: its access's row and address words, _b's bias, and the quad exchanges before the service. */
interface ImageRequest {
  readonly row: AccessRow;
  readonly words: string[];
  /** _b's bias (a WGSL u32) where the LOD comes from derivatives (REQUEST_BIAS). */
  readonly bias?: string;
  readonly exchange?: readonly QuadExchange[];
}

/** The sampler fields of an access that has none (load, resinfo). */
const NO_SAMPLER: AccessRow = {
  binding: 0,
  kind: 0,
  flags: 0,
  mips: MIPS.one,
  comp: 0,
  clampX: 0,
  clampY: 0,
  compareFn: 0,
  lodBias: 0,
  lodLo: 0,
  lodMax: 0,
  top: 0,
  count: 0,
  layers: 0,
  baseW: 0,
  baseH: 0,
  border: [0, 0, 0, 0],
  resinfo: [0, 0, 0, 0, 0],
  samplerSet: 0,
};

function accessRowWgsl(r: AccessRow): string {
  return `ImageAccess(${[
    u(r.binding),
    u(r.kind),
    u(r.flags),
    u(r.mips),
    u(r.comp),
    u(r.clampX),
    u(r.clampY),
    u(r.compareFn),
    f32Const(r.lodBias),
    f32Const(r.lodLo),
    f32Const(r.lodMax),
    `${r.top}i`,
    u(r.count),
    u(r.layers),
    f32Const(r.baseW),
    f32Const(r.baseH),
    `vec4<u32>(${r.border.map(u).join(', ')})`,
    `vec4<u32>(${r.resinfo.slice(0, 4).map(u).join(', ')})`,
    u(r.resinfo[4]),
    u(r.samplerSet),
  ].join(', ')})`;
}

/**
 * The image service, one body for every access: SwiftShader inlines every call of a function, so
 * each texture's `textureLoad` and the filter code appear once (in loops over levels and taps),
 * whatever the number of image instructions.
 */
const imageServiceWgsl = (selected: boolean): string => /* wgsl */ `struct ImageAccess {
  binding: u32,
  kind: u32,
  flags: u32,
  mips: u32,
  comp: u32,
  clamp_x: u32,
  clamp_y: u32,
  compare_fn: u32,
  lod_bias: f32,
  lod_lo: f32,
  lod_max: f32,
  top: i32,
  count: u32,
  layers: u32,
  base_w: f32,
  base_h: f32,
  border: vec4<u32>,
  res: vec4<u32>,
  res_dim: u32,
  sampler_set: u32,
}

fn image_flag(a: ImageAccess, bit: u32) -> bool {
  return (a.flags & bit) != 0u;
}

/** Under degamma (FORCE_DEGAMMA, SKIP_DEGAMMA of sRGB) an active lane's component other than +0 or 1 faults; the words unchanged. */
fn image_degamma(a: ImageAccess, t: vec4<u32>, lane_active: bool, at: u32) -> vec4<u32> {
  if (lane_active && image_flag(a, ${FLAG.degamma}u)) {
    for (var k = 0; k < 4; k++) {
      if (t[k] != 0u && t[k] != 0x3f800000u) {
        fault(${FAULT.imageDegamma}u, t[k], 0u, 0u, false, at);
      }
    }
  }
  return t;
}

/**
 * One texel's channel words through the access's clamp modes (border: the colour), compared where _c.
 * A seamless cube reads only in the face: a tap off it with a non-zero weight faults, one of weight 0 reads 0.
 */
fn image_tap(a: ImageAccess, level: i32, layer: i32, i: i32, j: i32, weighted: bool, refv: f32, lane_active: bool, at: u32) -> vec4<u32> {
  let size = image_size(a.binding, level);
  if (image_flag(a, ${FLAG.cubeSeamless}u) && (i < 0 || j < 0 || i >= size.x || j >= size.y)) {
    if (weighted && lane_active) {
      fault(${CUBE_FAULT.edge}u, 0u, 0u, 0u, false, at);
    }
    return vec4<u32>(0u);
  }
  let x = wrap_index(i, size.x, a.clamp_x);
  let y = select(0, wrap_index(j, size.y, a.clamp_y), image_flag(a, ${FLAG.hasY}u));
  var t = a.border;
  if (x >= 0 && y >= 0) {
    t = image_degamma(a, image_texel(a.binding, level, layer, x, y), lane_active, at);
  } else if (lane_active && image_flag(a, ${FLAG.borderRegister}u)) {
    fault(${FAULT.imageBorderRegister}u, 0u, 0u, 0u, false, at);
  }
  if (image_flag(a, ${FLAG.compare}u)) {
    return vec4<u32>(select(0u, 0x3f800000u, depth_compare(a.compare_fn, refv, bitcast<f32>(t.x))));
  }
  return t;
}

fn image_resinfo(a: ImageAccess, mip: u32) -> vec4<u32> {
  if (mip >= a.count) {
    return vec4<u32>(0u, 0u, 0u, a.count);
  }
  let level = min(a.res.w + mip, 31u);
  let w = max(1u, a.res.x >> level);
  let h = max(1u, a.res.y >> level);
  switch a.res_dim {
    case 0u: { return vec4<u32>(w, 0u, 0u, a.count); }
    case 1u, 3u: { return vec4<u32>(w, h, 0u, a.count); }
    case 2u: { return vec4<u32>(w, h, max(1u, a.res.z >> level), a.count); }
    case 4u: { return vec4<u32>(w, a.layers, 0u, a.count); }
    default: { return vec4<u32>(w, h, a.layers, a.count); }
  }
}

// owner: the request is this invocation's own. In the resource-table form (D026) every invocation of a
// subgroup runs each pending lane's request in turn; faults and escapes are the owner's alone.
fn image_run(q: array<u32, ${REQUEST_WORDS}>, lid: u32, group: vec3<u32>, owner: bool) -> vec4<u32> {
  var a = IMAGE_ACCESSES[q[0]];${
    selected
      ? `
  if (image_flag(a, ${FLAG.selected}u)) {
    a = image_select(a, q, lid, group, owner);
  }`
      : ''
  }
  if (a.kind == ${KIND.resinfo}u) {
    return image_resinfo(a, q[1]);
  }
  let has_y = image_flag(a, ${FLAG.hasY}u);
  let unnorm = image_flag(a, ${FLAG.unnorm}u);
  // ---- a load: the texel at (x, y, layer, mip), 0 outside the view (clamp_border with a zero border)
  var levels = 1;
  var lv = array<i32, 2>(0, 0);
  var lw = array<f32, 2>(1.0, 0.0);
  var layer = 0;
  var sc = 0.0;
  var tc = 0.0;
  var ox = 0.0;
  var oy = 0.0;
  var refv = 0.0;
  var bilinear = false;
  if (a.kind == ${KIND.load}u) {
    if (q[4] >= a.count || q[3] >= a.layers) {
      return vec4<u32>(0u);
    }
    lv[0] = i32(q[4]);
    layer = i32(q[3]);
  } else {
    // ---- LOD: _l's VGPR or _d's derivatives (else 0: it decides nothing here), + LOD_BIAS, clamped
    var lod = 0.0;
    if (image_flag(a, ${FLAG.lodFromRegister}u)) {
      lod = bitcast<f32>(q[4]);
    } else if (image_flag(a, ${FLAG.derivatives}u)) {
      // _d's derivative VGPRs, or an implicit LOD's quad differences put in their words (D024).
      let gx = vec2<f32>(bitcast<f32>(q[7]) * a.base_w, select(0.0, bitcast<f32>(q[8]) * a.base_h, has_y));
      let gy = vec2<f32>(bitcast<f32>(q[9]) * a.base_w, select(0.0, bitcast<f32>(q[10]) * a.base_h, has_y));
      lod = log2(max(length(gx), length(gy)));
      if (image_flag(a, ${FLAG.bias}u)) {
        lod = lod + bitcast<f32>(q[${REQUEST_BIAS}]);
      }
    }
    if (!unnorm) {
      lod = lod + a.lod_bias;
      var lo = a.lod_lo;
      if (image_flag(a, ${FLAG.clampRegister}u)) {
        lo = max(lo, bitcast<f32>(q[4]));
      }
      if (f32_is_nan(bitcast<u32>(lod))) {
        lod = lo;
      } else {
        lod = min(max(lod, lo), a.lod_max);
      }
    }
    bilinear = select(image_flag(a, ${FLAG.minBilinear}u), image_flag(a, ${FLAG.magBilinear}u), lod <= 0.0);
    if (a.mips == ${MIPS.nearest}u) {
      lv[0] = clamp(i32(ceil(lod + 0.5)) - 1, 0, a.top);
    } else if (a.mips == ${MIPS.linear}u) {
      let d = min(max(lod, 0.0), f32(a.top));
      lv[0] = i32(floor(d));
      let t = d - floor(d);
      if (t != 0.0 && lv[0] < a.top) {
        levels = 2;
        lv[1] = lv[0] + 1;
        lw[0] = 1.0 - t;
        lw[1] = t;
      }
    }
    sc = bitcast<f32>(q[1]);
    tc = bitcast<f32>(q[2]);
    if (image_flag(a, ${FLAG.arrayed}u)) {
      layer = clamp(i32(round(bitcast<f32>(q[3]))), 0, i32(a.layers) - 1);
    }
    if (image_flag(a, ${FLAG.cube}u)) {
      // The face coordinates from their origin; the layer 6 * cube + face (cubeLayer in image-sample.ts).
      sc = sc - ${f32Const(CUBE_COORD_ORIGIN)};
      tc = tc - ${f32Const(CUBE_COORD_ORIGIN)};
      let fc = bitcast<f32>(q[3]);
      let whole = fc >= 0.0 && fc < 4294967296.0 && fc == floor(fc);
      let fi = select(0u, u32(fc), whole);
      if ((!whole || fi % ${CUBE_ARRAY_STEP}u >= ${CUBE_FACES}u) && q[11] != 0u && owner) {
        fault(${CUBE_FAULT.faceId}u, q[3], 0u, 0u, false, q[12]);
      }
      let cubes = max(1u, a.layers / ${CUBE_FACES}u);
      layer = i32(${CUBE_FACES}u * min(fi / ${CUBE_ARRAY_STEP}u, cubes - 1u) + min(fi % ${CUBE_ARRAY_STEP}u, ${CUBE_FACES - 1}u));
    }
    if (image_flag(a, ${FLAG.offset}u)) {
      ox = signed6(q[6]);
      oy = select(0.0, signed6(q[6] >> 8u), has_y);
    }
    refv = bitcast<f32>(q[5]);
    if (image_flag(a, ${FLAG.unormRef}u)) {
      refv = min(max(refv, 0.0), 1.0);
    }
  }
  var out = vec4<f32>(0.0);
  var words = vec4<u32>(0u);
  for (var li = 0; li < levels; li++) {
    let level = lv[li];
    var n = 1;
    var ij = array<vec2<i32>, 4>();
    var wa = 0.0;
    var wb = 0.0;
    if (a.kind == ${KIND.load}u) {
      ij[0] = vec2<i32>(i32(q[1]), select(0, i32(q[2]), has_y));
    } else {
      let size = vec2<f32>(image_size(a.binding, level));
      // A seamless cube does not consult the clamp modes: its taps stay in the face or fault.
      let seamless = image_flag(a, ${FLAG.cubeSeamless}u);
      let u0 = select(sc * size.x, sc, unnorm) + ox;
      let v0 = select(tc * size.y, tc, unnorm) + oy;
      let u = select(half_border(u0, size.x, a.clamp_x), u0, seamless);
      let v = select(0.5, select(half_border(v0, size.y, a.clamp_y), v0, seamless), has_y);
      if (a.kind == ${KIND.gather4}u || bilinear) {
        let uu = u - 0.5;
        let vv = v - 0.5;
        let i0 = i32(floor(uu));
        let j0 = select(0, i32(floor(vv)), has_y);
        let j1 = select(0, j0 + 1, has_y);
        wa = uu - floor(uu);
        wb = select(0.0, vv - floor(vv), has_y);
        // gather4's order; bilinear reads the same four: (i0, j1), (i1, j1), (i1, j0), (i0, j0)
        ij = array<vec2<i32>, 4>(vec2<i32>(i0, j1), vec2<i32>(i0 + 1, j1), vec2<i32>(i0 + 1, j0), vec2<i32>(i0, j0));
        n = 4;
      } else {
        ij[0] = vec2<i32>(i32(floor(u)), i32(floor(v)));
      }
    }
    // Which taps weigh in the result: all of a gather's and a point's; bilinear's (i1, *) only where wa != 0, (*, j1) where wb != 0.
    let filtered = n == 4 && a.kind != ${KIND.gather4}u;
    let weighted = array<bool, 4>(
      !filtered || (wb != 0.0 && has_y),
      !filtered || (wa != 0.0 && wb != 0.0 && has_y),
      !filtered || wa != 0.0,
      true,
    );
    var t = array<vec4<u32>, 4>();
    for (var k = 0; k < n; k++) {
      t[k] = image_tap(a, level, layer, ij[k].x, ij[k].y, weighted[k], refv, q[11] != 0u && owner, q[12]);
    }
    if (a.kind == ${KIND.gather4}u) {
      return vec4<u32>(t[0][a.comp], t[1][a.comp], t[2][a.comp], t[3][a.comp]);
    }
    var r = t[0];
    if (n == 4) {
      let t00 = bitcast<vec4<f32>>(t[3]);
      let t10 = bitcast<vec4<f32>>(t[2]);
      // 1D: the second row is the first (the interpreter's t01 = t00, t11 = t10)
      let t01 = select(t00, bitcast<vec4<f32>>(t[0]), has_y);
      let t11 = select(t10, bitcast<vec4<f32>>(t[1]), has_y);
      let r0 = t00 * (1.0 - wa) + t10 * wa;
      let r1 = t01 * (1.0 - wa) + t11 * wa;
      r = bitcast<vec4<u32>>(r0 * (1.0 - wb) + r1 * wb);
    }
    // Degamma may come after filtering (a blend of 0 and 1 is neither): the result is checked too.
    if (levels == 1) {
      return image_degamma(a, r, q[11] != 0u && owner, q[12]);
    }
    out = out + bitcast<vec4<f32>>(r) * lw[li];
  }
  return image_degamma(a, bitcast<vec4<u32>>(out), q[11] != 0u && owner, q[12]);
}
`;

/**
 * The module text of runtime-selected images (D017, portable form): the directory and the texel
 * store (selected-images.ts) as storage buffers, the directory search (the host's definition,
 * directory-search.ts), the store's texel and size reads, and `image_select`, which turns a
 * selected access's row into the row of the image the lane's eight T# registers name.
 */
function selectedImagesWgsl(form: SelectedImageForm, slots: number, samplerSets: number): string {
  const H = STORE_HEADER;
  const at = (word: number): string => `h + ${word}u`;
  return /* wgsl */ `@group(${IMAGE_GROUP_FOR_WGSL}) @binding(${SELECTED_BINDING.directory}) var<storage, read> sel_dir: array<u32>;
@group(${IMAGE_GROUP_FOR_WGSL}) @binding(${SELECTED_BINDING.store}) var<storage, read> sel_store: array<u32>;
@group(${IMAGE_GROUP_FOR_WGSL}) @binding(${SELECTED_BINDING.escapes}) var<storage, read_write> sel_escapes: array<atomic<u32>>;

${directorySearchWgsl('directory_find', 'sel_dir')}
fn selected_size(place: u32, level: i32) -> vec2<i32> {
  let h = place * ${STORE_HEADER_WORDS}u + u32(level);
  return vec2<i32>(i32(sel_store[${at(H.width)}]), i32(sel_store[${at(H.height)}]));
}

${
  form === 'resource-table'
    ? `// The resource table's slot \`place\` holds the place's texels as rgba32uint, the store's words (D026).
// The service runs this only in uniform control flow, with \`place\` the same in every invocation.
fn selected_texel(place: u32, level: i32, layer: i32, x: i32, y: i32) -> vec4<u32> {
  return textureLoad(getResource<texture_2d_array<u32>>(place), vec2<i32>(x, y), layer, level);
}`
    : `fn selected_texel(place: u32, level: i32, layer: i32, x: i32, y: i32) -> vec4<u32> {
  let h = place * ${STORE_HEADER_WORDS}u + u32(level);
  let w = sel_store[${at(H.width)}];
  let t = sel_store[${at(H.offset)}] + 4u * ((u32(layer) * sel_store[${at(H.height)}] + u32(y)) * w + u32(x));
  return vec4<u32>(sel_store[t], sel_store[t + 1u], sel_store[t + 2u], sel_store[t + 3u]);
}`
}

/**
 * An escape of an active lane (D983): the slot's count and the total, and the first ESCAPE_RECORDS lanes' words:
 * its T#, or with SAMPLER_ESCAPE_BIT in \`slot_escape\` its S# (D027).
 */
fn selected_escape(slot_escape: u32, q: array<u32, ${REQUEST_WORDS}>, lid: u32, group: vec3<u32>) {
  let slot = slot_escape & ${u(SAMPLER_ESCAPE_BIT - 1)};
  let of_sampler = (slot_escape & ${u(SAMPLER_ESCAPE_BIT)}) != 0u;
  atomicAdd(&sel_escapes[${ESCAPE_SLOT_COUNTS}u + slot], 1u);
  let n = atomicAdd(&sel_escapes[0], 1u);
  if (n < ${ESCAPE_RECORDS}u) {
    let r = 1u + n * ${ESCAPE_RECORD_WORDS}u;
    atomicStore(&sel_escapes[r], group.x);
    atomicStore(&sel_escapes[r + 1u], group.y);
    atomicStore(&sel_escapes[r + 2u], group.z);
    atomicStore(&sel_escapes[r + 3u], lid);
    atomicStore(&sel_escapes[r + 4u], q[12]);
    atomicStore(&sel_escapes[r + 5u], slot_escape);
    for (var k = 0u; k < 8u; k++) {
      let sk = select(0u, q[${REQUEST_SSHARP}u + min(k, 3u)], k < 4u);
      atomicStore(&sel_escapes[r + 6u + k], select(q[${REQUEST_TSHARP}u + k], sk, of_sampler));
    }
  }
}
${form === 'resource-table' ? `\n// The slot + 1 of the owner's escape in the uniform service (0: none), recorded after it.\nvar<private> sel_escaped: u32 = 0u;\n` : ''}
/** The row of the image a selected access's lane names: its place's fields; an escape reads place 0 and is recorded. */
fn image_select(a0: ImageAccess, q: array<u32, ${REQUEST_WORDS}>, lid: u32, group: vec3<u32>, owner: bool) -> ImageAccess {
  var a = a0;
  var w: array<u32, 8>;
  for (var k = 0u; k < 8u; k++) {
    w[k] = q[${REQUEST_TSHARP}u + k];
  }
  let cube = image_flag(a, ${FLAG.cube}u);
  let hit = directory_find(sel_dir[a.binding], w, cube);
  // A miss names no place: its header is not read (place 0 stands in until the escape below).
  var place = select(0u, hit.x, hit.y != 0u);
  // A sampler selected from a table (D027): the lane's S# found in the access's sampler set, whose row's
  // sampler fields (samplerFields, decoded on the host) replace the access's; not found, an escape.
  var sampler_miss = false;
${
  samplerSets === 0
    ? ''
    : `  if (image_flag(a, ${FLAG.samplerSelected}u)) {
    var sw: array<u32, 8>;
    for (var k = 0u; k < 4u; k++) {
      sw[k] = q[${REQUEST_SSHARP}u + k];
    }
    let sh = directory_find(sel_dir[${slots}u + a.sampler_set], sw, false);
    sampler_miss = sh.y == 0u;
    if (!sampler_miss) {
      let r = sel_dir[${slots + samplerSets}u] + sh.x * ${SAMPLER_ROW_WORDS}u;
      a.flags = (a.flags & ${u(~SAMPLER_FLAGS)}) | sel_dir[r];
      a.mips = sel_dir[r + 1u];
      a.clamp_x = sel_dir[r + 2u];
      a.clamp_y = sel_dir[r + 3u];
      a.compare_fn = sel_dir[r + 4u];
      a.lod_bias = bitcast<f32>(sel_dir[r + 5u]);
      a.lod_lo = bitcast<f32>(sel_dir[r + 6u]);
      a.lod_max = bitcast<f32>(sel_dir[r + 7u]);
      a.border = vec4<u32>(sel_dir[r + 8u], sel_dir[r + 9u], sel_dir[r + 10u], sel_dir[r + 11u]);
    }
  }
`
}
  // What the store cannot give the access is an escape: an integer image where it filters or compares.
  let integer = (sel_store[place * ${STORE_HEADER_WORDS}u + ${STORE_HEADER.flags}u] & ${STORE_FLAG_INTEGER}u) != 0u;
  let unreadable = image_flag(a, ${FLAG.floatOnly}u) && integer;
  if (hit.y == 0u || unreadable || sampler_miss) {
    place = 0u;
    // One record a lane: the image's miss where there is one, else the sampler's.
    let slot_escape = a.binding | select(0u, ${u(SAMPLER_ESCAPE_BIT)}, hit.y != 0u && !unreadable);
    if (q[11] != 0u && owner) {
      ${
        form === 'resource-table'
          ? `// Recorded by the owner after the uniform service, outside its shuffled loop (D026).
      sel_escaped = 1u + slot_escape;`
          : 'selected_escape(slot_escape, q, lid, group);'
      }
    }
  }
  let h = place * ${STORE_HEADER_WORDS}u;
  a.count = sel_store[${at(H.levels)}];
  a.layers = sel_store[${at(H.layers)}];
  a.top = i32(a.count) - 1;
  a.base_w = f32(sel_store[${at(H.width)}]);
  a.base_h = f32(sel_store[${at(H.height)}]);
  a.lod_lo = max(a.lod_lo, bitcast<f32>(sel_store[${at(H.minLod)}]));
  if ((sel_store[${at(H.flags)}] & ${STORE_FLAG_UNORM}u) != 0u) {
    a.flags = a.flags | ${FLAG.unormRef}u;
  }
  // An integer image's border colour is integers (the row holds the float form: 0.0 or 1.0).
  if ((sel_store[${at(H.flags)}] & ${STORE_FLAG_INTEGER}u) != 0u) {
    a.border = vec4<u32>(bitcast<vec4<f32>>(a.border));
  }
  a.binding = ${SELECTED_PLACE_BINDING}u + place;
  return a;
}
`;
}

/** The request words of the coordinates s, t and the array layer or cube face (`sample`'s argument order). */
const REQUEST_COORDS = [1, 2, 3] as const;
/** The request words of _d's derivatives: d/dx of s and t, then d/dy of s and t (`image_run` reads them so). */
const REQUEST_DX = [7, 8] as const;
const REQUEST_DY = [9, 10] as const;

/** The exchange index of this lane's quad's first lane (lanes 4k..4k+3 of the wave). */
const quadBase = (lanes: number): string => `xw + (lane & ${(lanes - 1) & ~3}u)`;

/**
 * The implicit LOD's derivatives as the interpreter takes them (image-sample.ts): d/dx of a
 * coordinate is lane 4k+1's less lane 4k's, d/dy lane 4k+2's less lane 4k's, the registers'
 * words whether or not those lanes are active, one set for the whole quad ("coarse"). One sync
 * point a coordinate (the exchange holds a word a lane); the f32 differences go in _d's request
 * words, so the service's derivative path scales them by the base level's size and takes the LOD.
 */
function quadDifferences(lanes: number, hasY: boolean): QuadExchange[] {
  const diff = (to: number): string => `bitcast<u32>(bitcast<f32>(xword[qb + ${to}u]) - bitcast<f32>(xword[qb]))`;
  return (hasY ? [0, 1] : [0]).map((axis) => ({
    publish: `iq[${REQUEST_COORDS[axis]}]`,
    finish: [
      `let qb = ${quadBase(lanes)};`,
      `iq[${REQUEST_DX[axis]}] = ${diff(1)};`,
      `iq[${REQUEST_DY[axis]}] = ${diff(2)};`,
    ],
  }));
}

/**
 * The interpreter's cube rule for a LOD from the quad or _d (image-sample.ts): an active lane
 * whose face coordinate differs from that of lane 4k, 4k+1 or 4k+2 (as f32 values: any NaN
 * equals any NaN) refuses the sample; here it faults (CUBE_FAULT.quadFaces).
 */
function quadFaceCheck(lanes: number): QuadExchange {
  const face = `iq[${REQUEST_COORDS[2]}]`;
  const same = (k: number): string => `(xword[qb + ${k}u] == qf || (f32_is_nan(xword[qb + ${k}u]) && f32_is_nan(qf)))`;
  return {
    publish: face,
    finish: [
      `let qb = ${quadBase(lanes)};`,
      `let qf = ${face};`,
      `if (iq[11] != 0u && !(${same(0)} && ${same(1)} && ${same(2)})) {`,
      `  fault(${CUBE_FAULT.quadFaces}u, qf, 0u, 0u, false, iq[12]);`,
      '}',
    ],
  };
}

/** What the translation binds, and the module text its image instructions need. */
export class ImagePlan {
  readonly images: BoundImage[] = [];
  /** The texture slots of runtime-selected images (D983) and their tables. */
  readonly selected: SelectedImages;
  private readonly keys = new Map<string, BoundImage>();
  private readonly rows: string[] = [];
  private readonly rowIndex = new Map<string, number>();

  /** The texture bound for a T#'s words (one binding per distinct T#). */
  image(
    words: readonly number[],
    desc: ImageDescriptor,
    layout: SurfaceLayout,
    format: TexelFormat,
    memory: GuestMemory,
  ): BoundImage {
    const key = words.map((w) => w >>> 0).join(',');
    const hit = this.keys.get(key);
    if (hit) return hit;
    const bound = plannedTexture(this.images.length, words, desc, layout, format, memory);
    this.images.push(bound);
    this.keys.set(key, bound);
    return bound;
  }

  /** The index of an access's constants in `IMAGE_ACCESSES` (equal rows shared). */
  access(row: AccessRow): number {
    const text = accessRowWgsl(row);
    let i = this.rowIndex.get(text);
    if (i === undefined) {
      i = this.rows.length;
      this.rows.push(text);
      this.rowIndex.set(text, i);
    }
    return i;
  }

  constructor(
    selected: SelectedImages,
    /** Where selected images' texels are read (D026); the resource table only matters where some are selected. */
    readonly form: SelectedImageForm = 'texel-store',
  ) {
    this.selected = selected;
  }

  /** Whether the module reads selected images through the resource table, in the uniform service (D026). */
  private get tableForm(): boolean {
    return this.form === 'resource-table' && !this.selected.empty && !this.empty;
  }

  /** The module's directives: the resource table's and the subgroups' extensions, in the resource-table form. */
  directives(): string {
    return this.tableForm
      ? 'enable subgroups;\nenable chromium_experimental_resource_table;\n// The uniform service branches on a ballot; its shuffles run where the whole subgroup is.\ndiagnostic(off, subgroup_uniformity);'
      : '';
  }

  /** The entry point's extra builtins (the resource-table form's subgroup lane and size). */
  builtins(): string {
    return this.tableForm ? '@builtin(subgroup_invocation_id) sg_lane: u32, @builtin(subgroup_size) sg_size: u32' : '';
  }

  /**
   * The resource-table form's service of selected images (D026), placed by module.ts after the
   * superstep's barriers, in the group's uniform control flow, so every invocation of a subgroup is
   * here and active. A selected access leaves phase A with its request pending; here each pending
   * lane l in turn has its request words shuffled to the whole subgroup, which runs it with a
   * subgroup-uniform place (SwiftShader reads lane 0's resource for a non-uniform index, and
   * crashes on a lookup where lane 0 is inactive: WEBGPU-PLATFORM.md). Lane l keeps the result.
   */
  uniformService(): string {
    if (!this.tableForm) return '';
    return `// Selected images through the resource table (D026), one pending lane at a time.
    let sel_pending = subgroupBallot(ipend != 0u);
    for (var sl = 0u; sl < sg_size; sl++) {
      if (((sel_pending[sl / 32u] >> (sl % 32u)) & 1u) != 0u) {
        var sq: array<u32, ${REQUEST_WORDS}>;
        for (var k = 0u; k < ${REQUEST_WORDS}u; k++) {
          sq[k] = subgroupShuffle(iq[k], sl);
        }
        let mine = sl == sg_lane;
        let sr = image_run(sq, subgroupShuffle(lid, sl), group, mine);
        if (mine) {
          ires = sr;
          ipend = 0u;
        }
      }
    }
    if (sel_escaped != 0u) {
      selected_escape(sel_escaped - 1u, iq, lid, group);
      sel_escaped = 0u;
    }`;
  }

  get empty(): boolean {
    return this.rows.length === 0;
  }

  /** Module-scope declarations: the texture bindings (group 1), the access table and the service's functions. */
  declarations(): string {
    if (this.empty) return '';
    const texel = this.images.map((b) => `    case ${b.binding}u: { return ${b.texelName}(level, layer, x, y); }`);
    const size = this.images.map(
      (b) => `    case ${b.binding}u: { return vec2<i32>(textureDimensions(${b.variable}, level)); }`,
    );
    // A selected image's reads name SELECTED_PLACE_BINDING + its place (image_select).
    const selectedTexel = this.selected.empty
      ? ''
      : `  if (binding >= ${SELECTED_PLACE_BINDING}u) {\n    return selected_texel(binding - ${SELECTED_PLACE_BINDING}u, level, layer, x, y);\n  }\n`;
    const selectedSize = this.selected.empty
      ? ''
      : `  if (binding >= ${SELECTED_PLACE_BINDING}u) {\n    return selected_size(binding - ${SELECTED_PLACE_BINDING}u, level);\n  }\n`;
    return [
      ...this.images.map((b) => b.declaration),
      IMAGE_RUNTIME_WGSL,
      ...this.images.map((b) => b.texelFunction),
      `fn image_texel(binding: u32, level: i32, layer: i32, x: i32, y: i32) -> vec4<u32> {
${selectedTexel}  switch binding {
${texel.join('\n')}
    default: { return vec4<u32>(0u); }
  }
}

fn image_size(binding: u32, level: i32) -> vec2<i32> {
${selectedSize}  switch binding {
${size.join('\n')}
    default: { return vec2<i32>(1, 1); }
  }
}
`,
      ...(this.selected.empty
        ? []
        : [selectedImagesWgsl(this.form, this.selected.slots.length, this.selected.samplerSetCount)]),
      imageServiceWgsl(!this.selected.empty),
      `var<private> IMAGE_ACCESSES: array<ImageAccess, ${this.rows.length}> = array<ImageAccess, ${this.rows.length}>(\n  ${this.rows.join(',\n  ')},\n);\n`,
    ].join('\n');
  }

  /** The service's variables in `main`. */
  locals(): string {
    if (this.empty) return '';
    const pending = this.tableForm ? '\n  var ipend: u32 = 0u;' : '';
    return `var iq: array<u32, ${REQUEST_WORDS}>;\n  var ires: vec4<u32>;\n  var iret: u32 = 0u;${pending}`;
  }

  /** The service's statements (ending in `pc = iret`), or null when the module reads no image. */
  serviceBody(): readonly string[] | null {
    if (this.empty) return null;
    // A selected access is a sync point: the lane leaves phase A, the uniform service answers it, and it resumes at iret.
    if (this.tableForm)
      return [
        `if (image_flag(IMAGE_ACCESSES[iq[0]], ${FLAG.selected}u)) {`,
        '  ipend = 1u;',
        '  halt = true;',
        '} else {',
        '  ires = image_run(iq, lid, group, true);',
        '}',
        'pc = iret;',
      ];
    return ['ires = image_run(iq, lid, group, true);', 'pc = iret;'];
  }

  /** The service's case of the dispatcher. */
  serviceCase(): string {
    const body = this.serviceBody();
    return body
      ? [`          case ${IMAGE_SERVICE}u: {`, ...body.map((l) => `            ${l}`), '          }'].join('\n')
      : '';
  }
}

/** The words of a descriptor, resolved at translation time, and which registers the module must check. */
interface ResolvedWords {
  readonly words: number[];
  /** Registers whose value is not a constant of the translation: checked against `words` at the access. */
  readonly checks: { readonly register: Expr; readonly value: number }[];
}

/** An S#'s meaning for one access (`samplerFields`): the row's sampler flags and fields, and the quad exchanges it needs. */
interface SamplerFields {
  /** The SAMPLER_FLAGS bits. */
  readonly flags: number;
  readonly mips: number;
  readonly clampX: number;
  readonly clampY: number;
  readonly compareFn: number;
  readonly lodBias: number;
  readonly minLod: number;
  readonly lodMax: number;
  readonly border: readonly number[];
  /** An implicit LOD that decides something: the quad's coordinate differences are exchanged (D024). */
  readonly quadDerivatives: boolean;
  /** A cube's implicit or _d LOD: the quad's face words are compared. */
  readonly quadFaces: boolean;
}

/** A sampler row's words in the directory buffer (D027), the order `image_select` reads them in. */
function samplerRowWords(f: SamplerFields): number[] {
  return [
    f.flags,
    f.mips,
    f.clampX,
    f.clampY,
    f.compareFn,
    f32Bits(f.lodBias),
    f32Bits(f.minLod),
    f32Bits(f.lodMax),
    ...f.border,
  ].map((w) => w >>> 0);
}

/** The S# decoder refused the words: a table record that is no S# (D027's `not-a-sampler`). */
class SamplerWordsRefusal extends ImageRefusal {}

/** What a sample reads: a bound texture, or the image a selected access's lane names (its T# fields known only in the module). */
type SampledImage =
  | { readonly kind: 'known'; readonly image: BoundImage }
  | {
      readonly kind: 'selected';
      readonly slot: SelectedSlot;
      /** The largest view level index of the table's images (what decides whether the LOD matters). */
      readonly top: number;
      /** Some of the table's images are sRGB; every one is. */
      readonly srgb: boolean;
      readonly allSrgb: boolean;
      /** Every one of the table's images is of a float kind. */
      readonly allFloat: boolean;
    };

export class ImageTranslator implements ImageInstructions {
  readonly plan: ImagePlan;

  constructor(
    private readonly program: Program,
    /** The translation's one trace (D012); T# and S# words are read with `read`, so missing bytes fault. */
    private readonly words: TracedWords,
    private readonly memory: GuestMemory,
    /** The slots and tables of selected images: one for both passes of a translation, so each table is read once. */
    selected: SelectedImages = new SelectedImages(program.target.gen, memory),
    /** Where selected images' texels are read (D026). */
    form: SelectedImageForm = 'texel-store',
  ) {
    this.plan = new ImagePlan(selected, form);
  }

  private accessAt(inst: Instruction): AccessTrace | undefined {
    const at = codeAddress(inst.offset);
    return this.words.traced().accesses.find((a) => a.at === at);
  }

  /**
   * The descriptor in s[first..first+n-1] at this instruction. A word the trace does not resolve
   * is refused by name, or, with `unknown: 'default'` (a selected image's S#, D995), makes the
   * result undefined: the caller then samples through the default sampler.
   */
  private resolve(
    state: LaneState,
    inst: Instruction,
    role: 'resource' | 'sampler',
    first: number,
    n: number,
    unknown: 'refuse' | 'default' = 'refuse',
  ): ResolvedWords | undefined {
    const words: number[] = [];
    const checks: { register: Expr; value: number }[] = [];
    const at = codeAddress(inst.offset);
    const access = this.accessAt(inst);
    for (let i = 0; i < n; i++) {
      const e = state.readSgpr(first + i);
      if (e.op === 'const') {
        words.push(e.value! >>> 0);
        continue;
      }
      const desc = access?.descriptors.find((x) => x.role === role);
      const w = desc?.words[i];
      const traced = this.words.traced().before.get(at)?.sgpr[first + i];
      const kind = role === 'resource' ? 'T#' : 'S#';
      if (!w || !traced) throw new ImageRefusal(`s${first + i} of the ${kind} is not traced`);
      const value = this.words.valueOf(traced.expr, 'fault');
      if (value === undefined) {
        if (unknown === 'default') return undefined;
        const p = w.provenance;
        const selected =
          (p.kind === 'load' && !p.fixed) || p.kind === 'lane-value' || desc?.classification.kind === 'selected';
        throw new ImageRefusal(
          selected
            ? `s${first + i} (${kind} word ${i}) is selected per lane (${provenanceText(p)}), but the tracer names no table record for the T# (D983)`
            : `s${first + i} (${kind} word ${i}) is not known at translation time (${provenanceText(p)})`,
        );
      }
      words.push(value);
      checks.push({ register: e, value });
    }
    return { words, checks };
  }

  /**
   * A selected image's S#: the words the trace names, checked in the module where they are not
   * constants; where it names none, the default sampler, and the module checks that the
   * registers hold its words (D995).
   */
  private selectedSampler(state: LaneState, inst: Instruction, first: number): ResolvedWords & { traced: boolean } {
    const known = this.resolve(state, inst, 'sampler', first, 4, 'default');
    if (known) return { ...known, traced: true };
    const checks: ResolvedWords['checks'] = [];
    DEFAULT_SAMPLER_WORDS.forEach((value, i) => {
      const e = state.readSgpr(first + i);
      if (e.op !== 'const') checks.push({ register: e, value });
      else if (e.value! >>> 0 !== value)
        throw new ImageRefusal(
          `s${first + i} (S# word ${i}) is 0x${(e.value! >>> 0).toString(16)} where the trace names no sampler: only the default sampler is sampled then (D995)`,
        );
    });
    return { words: [...DEFAULT_SAMPLER_WORDS], checks, traced: false };
  }

  translate(state: LaneState, d: DecodedInstruction): ImageIssue {
    const inst = d.inst;
    const gen = this.program.target.gen;
    const name = inst.def.name;
    if (name.startsWith('image_store') || name.startsWith('image_atomic'))
      throw new ImageRefusal(
        `${name.startsWith('image_store') ? 'image stores' : 'image atomics'} are not translated: the host does not encode and tile texels back into guest memory`,
      );
    if (name === 'image_get_lod')
      throw new ImageRefusal('image_get_lod is not translated (the interpreter does not model it)');
    const op = imageOp(name);
    if (typeof op === 'string') throw new ImageRefusal(op);
    const why = imageRefusal(inst);
    if (why !== undefined) throw new ImageRefusal(why);
    const f = inst.fields;
    const first = f.srsrc * 4;
    const n = f.r128 && gen !== Gen.GFX9 ? 4 : 8;
    const access = this.accessAt(inst);
    const resource = access?.descriptors.find((x) => x.role === 'resource');
    if (access && resource?.classification.kind === 'selected')
      return this.translateSelected(state, inst, op, access, resource.classification.selection, first, n);
    const t = this.resolve(state, inst, 'resource', first, n)!;
    let desc: ImageDescriptor;
    try {
      desc = decodeImageDescriptor(gen, t.words);
    } catch (e) {
      const m = describe(e);
      if (m !== undefined) throw new ImageRefusal(`s[${first}:${first + n - 1}]: ${m}`);
      throw e;
    }
    const typeDim = DIM_OF_TYPE[desc.type_name]!;
    const dim = gen >= Gen.GFX10 ? (f.dim as number) : typeDim;
    if (dim !== typeDim)
      throw new ImageRefusal(`the instruction's DIM does not match the T#'s TYPE (${desc.type_name})`);
    if (desc.is_msaa) throw new ImageRefusal('MSAA images are not translated');
    const s =
      op.kind === 'sample' || op.kind === 'gather4' ? this.resolve(state, inst, 'sampler', f.ssamp * 4, 4)! : undefined;
    const checks = [...t.checks, ...(s?.checks ?? [])];
    if (checks.length > 0) this.checkDescriptors(state, checks, first, inst);
    let request: ImageRequest;
    let float = false;
    if (op.kind === 'resinfo') request = this.resinfo(state, inst, desc, dim);
    else {
      if (dim === 2 || dim === 3) throw new ImageRefusal(`${dim === 2 ? '3D' : 'cube'} images are not translated yet`);
      let format: TexelFormat;
      let layout: SurfaceLayout;
      try {
        format = texelFormat(desc.format);
        layout = surfaceLayout(gen, desc);
      } catch (e) {
        const m = describe(e);
        if (m !== undefined) throw new ImageRefusal(`s[${first}:${first + n - 1}]: ${m}`);
        throw e;
      }
      const image = this.plan.image(t.words, desc, layout, format, this.memory);
      float = format.channelKind === 'float';
      if (op.kind === 'load') request = this.load(state, inst, op, image, dim);
      else {
        const sampled: SampledImage = { kind: 'known', image };
        request = this.sample(state, inst, op, sampled, this.samplerFields(s!.words, inst, op, sampled, dim), dim);
        if (op.compare) float = true;
      }
    }
    return this.issue(state, inst, op, request, float, []);
  }

  /** Queues the request (`iq`): the row's index, the address words, EXEC, the address, a selected image's T# registers. */
  private issue(
    state: LaneState,
    inst: Instruction,
    op: ImageOp,
    request: ImageRequest,
    float: boolean,
    tsharp: readonly string[],
    /** The lane's S# registers where its sampler is selected from a table (D027). */
    ssharp: readonly string[] = [],
  ): ImageIssue {
    const index = this.plan.access(request.row);
    const seg = state.seg;
    const words = [u(index), ...request.words];
    while (words.length < REQUEST_TSHARP - 2) words.push('0u');
    // The lane's EXEC bit and the instruction's address, for a fault only an active lane reports.
    words.push(`select(0u, 1u, ${seg.value(state.execBit())})`, `0x${this.faultAddress(inst).toString(16)}u`);
    words.push(...tsharp);
    while (words.length < REQUEST_BIAS) words.push('0u');
    words.push(request.bias ?? '0u');
    words.push(...ssharp);
    while (words.length < REQUEST_WORDS) words.push('0u');
    words.forEach((w, i) => seg.line(`iq[${i}] = ${w};`));
    return { exchange: request.exchange ?? [], finish: (st) => this.writeResults(st, inst, op, float) };
  }

  /**
   * An access whose T# the program selects from a table at run time (D983): the slot's table is
   * read on the host (selected-images.ts), the lane's eight T# registers go with the request, and
   * the service searches the slot's directory for them (image_select).
   */
  private translateSelected(
    state: LaneState,
    inst: Instruction,
    op: ImageOp,
    access: AccessTrace,
    selection: Selection,
    first: number,
    n: number,
  ): ImageIssue {
    const gen = this.program.target.gen;
    const f = inst.fields;
    if (op.kind === 'resinfo') throw new ImageRefusal('resinfo of a runtime-selected image (D983) is not translated');
    if (n !== 8) throw new ImageRefusal('a 4-dword (R128) T# selected at run time (D983) is not translated');
    if (access.slot === undefined) throw new ImageRefusal('the tracer gave the selecting access no texture slot');
    const base = selection.table.baseExprs.map((e) => this.words.valueOf(e, 'fault'));
    if (base.some((w) => w === undefined))
      throw new ImageRefusal(`the table ${selection.table.text} is not known at translation time`);
    const sampled = op.kind === 'sample' || op.kind === 'gather4';
    // A sampler the lane selects from a table too (D027): its records are read here, decoded below for this access.
    const samplerDesc = sampled ? access.descriptors.find((x) => x.role === 'sampler') : undefined;
    const samplerSelection =
      samplerDesc?.classification.kind === 'selected' ? samplerDesc.classification.selection : undefined;
    let samplerTable: ReturnType<SelectedImages['samplerTable']> | undefined;
    if (samplerSelection) {
      const samplerBase = samplerSelection.table.baseExprs.map((e) => this.words.valueOf(e, 'fault'));
      if (samplerBase.some((w) => w === undefined))
        throw new ImageRefusal(`the sampler table ${samplerSelection.table.text} is not known at translation time`);
      samplerTable = this.plan.selected.samplerTable(samplerSelection, samplerBase as number[]);
    }
    const s = sampled && !samplerTable ? this.selectedSampler(state, inst, f.ssamp * 4) : undefined;
    if (gen >= Gen.GFX10 && f.dim === 2) throw new ImageRefusal('3D images are not translated yet');
    // A cube access reads the face its lane names from the store (the interpreter's rule, D022).
    const cube = gen >= Gen.GFX10 && f.dim === 3;
    if (cube && op.kind === 'load') throw new ImageRefusal('a load of a selected cube image is not translated');
    const slot = this.plan.selected.slotFor(
      access.slot,
      selection,
      base as number[],
      cube ? 'cube' : 'flat',
      samplerTable
        ? { words: [], traced: true, selectedFrom: samplerTable.text }
        : s
          ? { words: s.words, traced: s.traced }
          : null,
      codeAddress(inst.offset),
    );
    const images = this.plan.selected.tableOf(slot).images.filter((im) => im.pageKind === (cube ? 'cube' : 'flat'));
    // gfx7-9 take DIM from the T#: the table's flat images must agree on it.
    let dim = gen >= Gen.GFX10 ? (f.dim as number) : 1;
    if (gen < Gen.GFX10) {
      const dims = new Set(images.map((im) => DIM_OF_TYPE[im.descriptor.type_name]!));
      if (dims.size > 1)
        throw new ImageRefusal(
          `the table's images are of ${dims.size} types, and ${gen} takes an access's DIM (its address registers) from the T#`,
        );
      dim = dims.values().next().value ?? 1;
    }
    if (s && s.checks.length > 0) this.checkDescriptors(state, s.checks, f.ssamp * 4, inst);
    // The store holds float texels as f32 bits and integer texels as words: what the results are (d16 packs them apart).
    const kinds = new Set(images.map((im) => texelFormat(im.descriptor.format).channelKind === 'float'));
    const float = !kinds.has(false);
    if (kinds.size > 1 && f.d16)
      throw new ImageRefusal(
        "a d16 access to a table of float and integer images is not translated (its results' packing differs)",
      );
    let request: ImageRequest;
    if (op.kind === 'load') {
      request = this.load(state, inst, op, undefined, dim);
      request = { ...request, row: { ...request.row, binding: slot.index, flags: request.row.flags | FLAG.selected } };
    } else {
      const top = Math.max(0, ...images.map((im) => viewLevels(im.descriptor).count - 1));
      const srgb = images.some((im) => im.descriptor.format.num_format === 'SRGB');
      const allSrgb = images.every((im) => im.descriptor.format.num_format === 'SRGB');
      const image: SampledImage = { kind: 'selected', slot, top, srgb, allSrgb, allFloat: float };
      const selectedSampler = samplerTable ? this.samplerSet(inst, op, image, dim, slot, samplerTable) : undefined;
      const fields = selectedSampler?.fields ?? this.samplerFields(s!.words, inst, op, image, dim);
      request = this.sample(state, inst, op, image, fields, dim);
      request = {
        ...request,
        row: {
          ...request.row,
          flags: request.row.flags | (cube ? FLAG.cube : 0) | (selectedSampler ? FLAG.samplerSelected : 0),
          samplerSet: selectedSampler?.set ?? 0,
        },
      };
    }
    const seg = state.seg;
    const tsharp = Array.from({ length: 8 }, (_, i) => seg.value(state.readSgpr(first + i)));
    const ssharp = samplerTable ? Array.from({ length: 4 }, (_, i) => seg.value(state.readSgpr(f.ssamp * 4 + i))) : [];
    return this.issue(state, inst, op, request, float, tsharp, ssharp);
  }

  /**
   * The sampler set of an access whose S# the lane selects from a table (D027): every record that
   * names something decoded for this access by `samplerFields` (the traced S#'s path), those it
   * refuses left out by reason, the rest the set's rows. The row's own sampler fields are the first
   * bound record's (image_select replaces them with the lane's); the quad exchanges are every
   * bound record's, so whichever row a lane finds has what it needs.
   */
  private samplerSet(
    inst: Instruction,
    op: ImageOp,
    image: SampledImage & { kind: 'selected' },
    dim: number,
    slot: SelectedSlot,
    table: ReturnType<SelectedImages['samplerTable']>,
  ): { set: number; fields: SamplerFields } {
    const rows: SamplerRow[] = [];
    const bound: SamplerFields[] = [];
    const leftOut = Object.fromEntries(SAMPLER_LEFT_OUT_REASONS.map((r) => [r, 0])) as Record<
      SamplerLeftOutReason,
      number
    >;
    // A table may hold one S# in many records: decoded once, bound once, a left-out one counted each time.
    const seen = new Map<string, SamplerLeftOutReason | 'bound'>();
    for (const record of table.table.records) {
      const key = record.words.join(',');
      let outcome = seen.get(key);
      if (outcome === undefined) {
        try {
          const fields = this.samplerFields(record.words, inst, op, image, dim);
          rows.push({ words: record.words, fields: samplerRowWords(fields) });
          bound.push(fields);
          outcome = 'bound';
        } catch (e) {
          if (e instanceof SamplerWordsRefusal) outcome = 'not-a-sampler';
          else if (e instanceof ImageRefusal) outcome = 'not-sampled';
          else throw e;
        }
        seen.set(key, outcome);
      }
      if (outcome !== 'bound') leftOut[outcome]++;
    }
    if (bound.length === 0)
      throw new ImageRefusal(
        `the sampler table ${table.text} holds no S# this access samples with (${table.table.recordCount} records read, ${table.table.emptyRecords} empty, ${leftOut['not-a-sampler']} not an S#, ${leftOut['not-sampled']} not sampled here) (D027)`,
      );
    const set = this.plan.selected.samplerSet(slot, table.index, rows, leftOut);
    const fields: SamplerFields = {
      ...bound[0]!,
      quadDerivatives: bound.some((b) => b.quadDerivatives),
      quadFaces: bound.some((b) => b.quadFaces),
    };
    return { set, fields };
  }

  /**
   * The instruction's guest address as a fault or escape names it: a u32, its low 32 bits where
   * the program lies above 4 GiB (the escape report adds the high bits back from the program's base).
   */
  private faultAddress(inst: Instruction): number {
    return (this.program.base + inst.offset) % 2 ** 32;
  }

  /** Faults (a refused result) in an active lane whose registers are not the words the host bound. */
  private checkDescriptors(state: LaneState, checks: ResolvedWords['checks'], first: number, inst: Instruction): void {
    const seg = state.seg;
    const differ = checks.map((c) => `${seg.value(c.register)} != 0x${c.value.toString(16)}u`).join(' || ');
    const exec = seg.value(state.execBit());
    seg.line(`if (${exec} && (${differ})) {`);
    seg.line(
      `  fault(${FAULT.imageDescriptor}u, ${first}u, 0u, 0u, false, 0x${this.faultAddress(inst).toString(16)}u);`,
    );
    seg.line('}');
  }

  /** The f32 bits of address VGPR i (a WGSL expression). */
  private addr(state: LaneState, inst: Instruction, i: number): string {
    return state.seg.value(state.readVgpr(addressRegister(inst, i), 0));
  }

  /** A load's row and words; `image` undefined for a selected image (its level and layer counts come from its place). */
  private load(
    state: LaneState,
    inst: Instruction,
    op: ImageOp,
    image: BoundImage | undefined,
    dim: number,
  ): ImageRequest {
    const nCoords = DIM_COORDS[dim];
    const coords = Array.from({ length: nCoords }, (_, i) => this.addr(state, inst, i));
    const mip = op.mip ? this.addr(state, inst, nCoords) : '0u';
    const hasY = dim === 1 || dim === 5;
    const layer = dim === 4 ? coords[1]! : dim === 5 ? coords[2]! : '0u';
    const count = image ? viewLevels(image.desc).count : 0;
    const row: AccessRow = {
      ...NO_SAMPLER,
      binding: image?.binding ?? 0,
      kind: KIND.load,
      flags: hasY ? FLAG.hasY : 0,
      count,
      layers: image?.layers ?? 0,
      // Out of range reads 0: the border of clamp_border, black and transparent.
      clampX: CLAMP_CODE.clamp_border!,
      clampY: CLAMP_CODE.clamp_border!,
    };
    return { row, words: [coords[0]!, hasY ? coords[1]! : '0u', layer, mip] };
  }

  /** image_get_resinfo from the T# alone (the interpreter's rule: sizes of the mip, the view's level count). */
  private resinfo(state: LaneState, inst: Instruction, desc: ImageDescriptor, dim: number): ImageRequest {
    if (dim === 3 && inst.fields.dmask & 4)
      throw new ImageRefusal("a cube's resinfo z (its face or cube count) is not translated");
    const { count } = viewLevels(desc);
    const row: AccessRow = {
      ...NO_SAMPLER,
      binding: 0,
      kind: KIND.resinfo,
      count,
      layers: Math.max(0, desc.layers - desc.base_array),
      resinfo: [desc.width, desc.height, desc.depth, desc.base_level, dim],
    };
    return { row, words: [this.addr(state, inst, 0)] };
  }

  /**
   * The one place an S#'s words become an access's sampler fields (D027): decoded (reserved values
   * kept, refused where the sample consults them: the interpreter's rule), checked against what the
   * access can sample, and turned into the row's sampler flags and fields. A traced S# and every
   * record of a table a lane selects its S# from go through here, so both mean the same.
   */
  private samplerFields(
    words: readonly number[],
    inst: Instruction,
    op: ImageOp,
    image: SampledImage,
    dim: number,
  ): SamplerFields {
    const gen = this.program.target.gen;
    const f = inst.fields;
    let s: SamplerDescriptor;
    try {
      s = decodeSamplerDescriptor(gen, words, { reserved: 'keep' });
    } catch (e) {
      if (e instanceof DescriptorError)
        throw new SamplerWordsRefusal(`s[${f.ssamp * 4}:${f.ssamp * 4 + 3}] is not an S#: ${e.message}`);
      throw e;
    }
    const known = image.kind === 'known' ? image.image : undefined;
    // A selected image's format is one of the table's float-kind formats; its T# fields are read at its place.
    const format = known?.format;
    // The interpreter's refusals (image-sample.ts checkSampler), so both refuse alike.
    const unnorm = f.unorm === 1 || s.unnormalized;
    const consulted = (field: ReservedField['field'], by: string): void => {
      const e = reservedFieldError(s, field, by);
      if (e) throw new ImageRefusal(`the S# is not sampled: ${e.message}`);
    };
    const aniso = s.mag_filter.startsWith('aniso') || s.min_filter.startsWith('aniso');
    if (aniso) consulted('max_aniso_ratio', 'an aniso XY filter');
    if (!unnorm) consulted('mip_filter', 'a sample with normalized coordinates (mip selection)');
    const anyBilinear = s.mag_filter.endsWith('bilinear') || s.min_filter.endsWith('bilinear');
    const multiTexel =
      op.kind === 'gather4' ||
      anyBilinear ||
      (s.mip_filter === 'linear' && !unnorm) ||
      (aniso && s.max_anisotropy !== 1);
    if (s.filter_mode !== 'blend' && multiTexel) {
      consulted('filter_mode', 'a footprint of more than one texel');
      throw new ImageRefusal(`the ${s.filter_mode} reduction filter over more than one texel is not translated`);
    }
    const explicitLod = op.lod || op.lz;
    if (aniso && s.max_anisotropy !== 1 && !explicitLod)
      throw new ImageRefusal('anisotropic filtering with an implicit or _d LOD is not translated');
    if (s.mip_filter === 'point_aniso_adj') throw new ImageRefusal('the point_aniso_adj mip filter is not translated');
    const sf = s.fields as Record<string, number>;
    // The interpreter samples these only where every texel and result component is +0 or 1, the fixed
    // points of every sRGB curve: the module checks each (FLAG.degamma) and faults on anything else.
    const srgb = format ? format.info.num_format === 'SRGB' : image.kind === 'selected' && image.srgb;
    const degamma = sf.force_degamma === 1 || (sf.skip_degamma === 1 && srgb);
    if (degamma && format && format.channelKind !== 'float')
      throw new ImageRefusal(`FORCE_DEGAMMA of a ${format.channelKind} format (${format.info.name}) is not translated`);
    if (degamma && image.kind === 'selected') {
      // A place's number format is not in the module: degamma must apply alike at every place.
      if (!image.allFloat)
        throw new ImageRefusal(
          'FORCE_DEGAMMA (or SKIP_DEGAMMA of an sRGB format) of a table holding integer images is not translated',
        );
      if (sf.force_degamma !== 1 && !image.allSrgb)
        throw new ImageRefusal(
          'SKIP_DEGAMMA of a table of sRGB and other images is not translated (a place applies it or not by its format)',
        );
    }
    if (s.lod_bias_sec !== 0) throw new ImageRefusal('a non-zero LOD_BIAS_SEC is not translated');
    const magBil = s.mag_filter.endsWith('bilinear');
    const minBil = s.min_filter.endsWith('bilinear');
    if (
      format &&
      op.kind === 'sample' &&
      format.channelKind !== 'float' &&
      (magBil || minBil || s.mip_filter === 'linear') &&
      !op.compare
    )
      throw new ImageRefusal(`filtering a ${format.channelKind} format (${format.info.name}) is not translated`);
    if (format && op.compare && format.channelKind !== 'float')
      throw new ImageRefusal(
        `a depth compare of a ${format.channelKind} format (${format.info.name}) is not translated`,
      );
    const view = known ? viewLevels(known.desc) : { base: 0, count: 0 };
    if (known && view.count === 0) throw new ImageRefusal('the T# view has no levels (BASE_LEVEL past LAST_LEVEL)');
    // A selected image's own top level is its place's; whether the LOD can matter is decided by the table's largest.
    const top = known ? view.count - 1 : image.kind === 'selected' ? image.top : 0;
    // Whether the LOD can change the result: the level chosen, or the mag / min filter.
    const oneLevel = unnorm || s.mip_filter === 'none' || top === 0;
    const lodMatters = !unnorm && (!oneLevel || (op.kind === 'sample' && magBil !== minBil));
    // An implicit LOD that decides something: the quad's differences (D024), in _d's request words.
    const quadDerivatives = !explicitLod && !op.derivatives && lodMatters;
    const cube = dim === 3;
    if (cube && unnorm) throw new ImageRefusal('unnormalized coordinates on a cube are not translated');
    // The interpreter refuses an implicit or _d LOD of a cube whose quad is on more than one face,
    // whether or not the LOD decides anything: the quad's face words are compared (CUBE_FAULT.quadFaces).
    const quadFaces = cube && !explicitLod && !unnorm;
    // A selected image: the place decides what the store can give. The interpreter's rule for a known image is
    // that integers are point-sampled only, never compared; a lane that selects an integer image at such an
    // access escapes (image_select). A selected cube filters seamlessly unless DISABLE_CUBE_WRAP.
    const selected = image.kind === 'selected';
    const floatOnly =
      selected && (op.compare || (op.kind === 'sample' && (magBil || minBil || s.mip_filter === 'linear')));
    const seamless = selected && cube && sf.disable_cube_wrap !== 1;
    const border = (BORDER[s.border_color] ?? [0, 0, 0, 0]).map((v) =>
      (format?.channelKind ?? 'float') === 'float' ? f32Bits(v) : v >>> 0,
    );
    const flags =
      (unnorm ? FLAG.unnorm : 0) |
      (op.lod && !unnorm ? FLAG.lodFromRegister : 0) |
      ((op.derivatives || quadDerivatives) && !unnorm ? FLAG.derivatives : 0) |
      (op.bias && (op.derivatives || quadDerivatives) && !unnorm ? FLAG.bias : 0) |
      (degamma ? FLAG.degamma : 0) |
      (magBil ? FLAG.magBilinear : 0) |
      (minBil ? FLAG.minBilinear : 0) |
      (s.border_color === 'register' ? FLAG.borderRegister : 0) |
      (floatOnly ? FLAG.floatOnly : 0) |
      (seamless ? FLAG.cubeSeamless : 0);
    const mips =
      unnorm || s.mip_filter === 'none'
        ? MIPS.one
        : s.mip_filter === 'point' || op.kind === 'gather4'
          ? MIPS.nearest
          : MIPS.linear;
    return {
      flags,
      mips,
      clampX: CLAMP_CODE[s.clamp[0]]!,
      clampY: CLAMP_CODE[s.clamp[1]]!,
      compareFn: COMPARE_CODE[s.depth_compare]!,
      lodBias: s.lod_bias,
      minLod: s.min_lod,
      lodMax: s.max_lod,
      border,
      quadDerivatives,
      quadFaces,
    };
  }

  private sample(
    state: LaneState,
    inst: Instruction,
    op: ImageOp,
    image: SampledImage,
    sf: SamplerFields,
    dim: number,
  ): ImageRequest {
    const f = inst.fields;
    const known = image.kind === 'known' ? image.image : undefined;
    const format = known?.format;
    const view = known ? viewLevels(known.desc) : { base: 0, count: 0 };
    const top = known ? view.count - 1 : 0;
    const quadDerivatives = sf.quadDerivatives;
    const quadFaces = sf.quadFaces;

    // Address VGPRs in the ISA's order; a cube's are s, t and the face (image-sample.ts).
    const nCoords = DIM_COORDS[dim];
    const cube = dim === 3;
    const hasY = dim === 1 || dim === 5 || cube;
    const arrayed = dim === 4 || dim === 5;
    let idx = 0;
    const offReg = op.offset ? idx++ : -1;
    // _b's bias moves a LOD from derivatives; where the LOD decides nothing it is not read.
    const biasReg = op.bias ? idx++ : -1;
    const zReg = op.compare ? idx++ : -1;
    const nGrad = hasY ? 2 : 1;
    const gradReg = op.derivatives ? idx : -1;
    if (op.derivatives) idx += 2 * nGrad;
    const coordReg = idx;
    idx += nCoords;
    const lodReg = op.lod || op.clamp ? idx : -1;
    const arg = (i: number): string => (i < 0 ? '0u' : this.addr(state, inst, i));
    const args = [
      arg(coordReg),
      hasY ? arg(coordReg + 1) : '0u',
      arrayed || cube ? arg(coordReg + (hasY ? 2 : 1)) : '0u',
      op.lod || op.clamp ? arg(lodReg) : '0u',
      op.compare ? arg(zReg) : '0u',
      op.offset ? arg(offReg) : '0u',
      // d/dx then d/dy of each non-array coordinate (AMD's DS/DX, DT/DX, DS/DY, DT/DY).
      op.derivatives ? arg(gradReg) : '0u',
      op.derivatives && hasY ? arg(gradReg + 1) : '0u',
      op.derivatives ? arg(gradReg + nGrad) : '0u',
      op.derivatives && hasY ? arg(gradReg + nGrad + 1) : '0u',
    ];
    const unormRef = format?.info.num_format === 'UNORM';
    const base = known ? known.layout.subresource(view.base, 0) : { width: 0, height: 0 };
    const flags =
      sf.flags |
      (op.clamp ? FLAG.clampRegister : 0) |
      (op.compare ? FLAG.compare : 0) |
      (op.offset ? FLAG.offset : 0) |
      (hasY ? FLAG.hasY : 0) |
      (arrayed ? FLAG.arrayed : 0) |
      (unormRef ? FLAG.unormRef : 0);
    const row: AccessRow = {
      binding: known ? known.binding : image.kind === 'selected' ? image.slot.index : 0,
      kind: op.kind === 'gather4' ? KIND.gather4 : KIND.sample,
      flags: flags | (known ? 0 : FLAG.selected),
      mips: sf.mips,
      comp: op.kind === 'gather4' && !op.compare ? [1, 2, 4, 8].indexOf(f.dmask) : 0,
      clampX: sf.clampX,
      clampY: sf.clampY,
      compareFn: sf.compareFn,
      lodBias: sf.lodBias,
      // A selected image's MIN_LOD, count, layers and size are its place's (image_select).
      lodLo: known ? Math.max(sf.minLod, known.desc.min_lod) : sf.minLod,
      lodMax: sf.lodMax,
      top: known ? top : 0,
      count: view.count,
      layers: known?.layers ?? 0,
      baseW: base.width,
      baseH: base.height,
      border: sf.border,
      resinfo: [0, 0, 0, 0, 0],
      samplerSet: 0,
    };
    const exchange = [
      ...(quadDerivatives ? quadDifferences(state.lanes, hasY) : []),
      ...(quadFaces ? [quadFaceCheck(state.lanes)] : []),
    ];
    return { row, words: args, ...(biasReg >= 0 ? { bias: arg(biasReg) } : {}), exchange };
  }

  /** Writes the dmask-selected components of `ires` (all four for gather4) to VGPRs from vdata; d16 halves as the interpreter packs them. */
  private writeResults(state: LaneState, inst: Instruction, op: ImageOp, float: boolean): void {
    const seg = state.seg;
    const name = seg.freshName('img');
    seg.line(`let ${name}: vec4<u32> = ires;`);
    const f = inst.fields;
    const dmask = op.kind === 'gather4' ? 0xf : f.dmask;
    const words: Expr[] = [];
    for (let c = 0; c < 4; c++) if ((dmask >> c) & 1) words.push(seg.word(`${name}.${'xyzw'[c]}`));
    const a = state.b;
    if (!f.d16) {
      words.forEach((w, k) => state.writeVgpr(f.vdata + k, 0, w));
      return;
    }
    const gen = this.program.target.gen;
    // The interpreter's f16Bits: round to nearest even, f16 denormals kept.
    const mode = { ...state.floatMode(), f64f16Denormals: true };
    const halves = words.map((w) => (float ? a.fToF16(w, false, mode) : a.and(w, a.word(0xffff))));
    if (gen < Gen.GFX9) halves.forEach((h, k) => state.writeVgpr(f.vdata + k, 0, h));
    else
      for (let k = 0; k < halves.length; k += 2)
        state.writeVgpr(f.vdata + (k >> 1), 0, a.or(halves[k]!, a.shl(halves[k + 1] ?? a.word(0), a.word(16))));
  }
}
