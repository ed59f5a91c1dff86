/**
 * image_sample* and image_gather4* (with _c, _d, _b, _l, _lz, _cl, _o) for the reference
 * interpreter, on 1D, 2D, 1D-array, 2D-array and cube images, from the S#'s decoded fields.
 *
 * - LOD: _lz 0, _l the VGPR, otherwise implicit from the quad (lanes 4k..4k+3: x from lane
 *   +1 less lane +0, y from lane +2 less lane +0, the VGPR values whether or not the lanes are
 *   active; one LOD per quad, "coarse"), or _d's derivative VGPRs (d/dx of each non-array
 *   coordinate, then d/dy: AMD's "DX/DH, DY/DH, DX/DV, DY/DV" for 2D, per lane); rho =
 *   max(|d/dx|, |d/dy|) in texels of the base
 *   level, LOD = log2(rho); plus _b's bias and the S#'s LOD_BIAS; then clamped below by _cl's
 *   clamp and the T#'s MIN_LOD, and to [MIN_LOD, MAX_LOD] of the S#. LOD <= 0 takes the mag
 *   filter, else the min filter. MIP_FILTER none: the base level; point: the nearest level
 *   (ceil(lod + 0.5) - 1); linear: the two levels around it, blended. Unnormalized
 *   coordinates (the instruction's unorm, or FORCE_UNNORMALIZED) sample the base level.
 * - Wrap per axis on texel indices: wrap, mirror, clamp_last_texel, mirror_once_last_texel,
 *   clamp_border, mirror_once_border; the half-border modes first clamp the coordinate to
 *   half a texel outside the edge. A border texel reads BORDER_COLOR_TYPE's colour (after
 *   DST_SEL); the register table is refused when a border texel is read.
 * - Point: floor(u); bilinear: the 2x2 footprint at u - 0.5 with f32 weights. _c compares
 *   each texel's first component (after DST_SEL) with the reference (clamped to [0, 1] for
 *   UNORM formats) as `ref OP texel` (D3D / Vulkan order) before filtering.
 * - gather4: the one component dmask names from the bilinear footprint of the nearest level,
 *   in the order (i0, j1), (i1, j1), (i1, j0), (i0, j0); _c gathers the four comparisons.
 * - _o: the offset VGPR's signed 6-bit fields [5:0] x, [13:8] y, added in texels.
 *
 * Tolerance: hardware filters with fixed-point weights (at least 8 fractional bits, D3D's
 * minimum) and a fixed-point LOD; this model uses f32 (Math.fround each step), so filtered
 * values may differ from hardware by about 1/256 of the difference between neighbouring
 * texels, and a LOD within about 1/64 of a level boundary may pick the other level. Texel
 * centres and point sampling are exact. TRUNC_COORD, MC_COORD_TRUNC and MIP_POINT_PRECLAMP
 * are ignored (they move texel and level boundaries, not centres); so are the bits no public
 * document defines an effect for here: COMPAT_MODE, DISABLE_LSB_CEIL, FILTER_PREC_FIX,
 * ANISO_OVERRIDE, BLEND_ZERO_PRT (no PRT), UPGRADED_DEPTH,
 * ANISO_THRESHOLD / ANISO_BIAS / PERF_MIP / PERF_Z (no anisotropic footprints) and Z_FILTER.
 *
 * Reserved values only where consulted (D009): the S# is decoded with `reserved: 'keep'`, and
 * a reserved MAX_ANISO_RATIO is refused only with an aniso XY filter, a reserved FILTER_MODE
 * (like MIN / MAX) only when the footprint can hold more than one texel (a reduction of one
 * texel is that texel), gfx7's MIP_FILTER 3 only with normalized coordinates. A register
 * border colour is refused when a lane reads a border texel. FORCE_DEGAMMA (and gfx9+
 * SKIP_DEGAMMA on an sRGB format, whose interplay no public document defines) is modelled only
 * for texels and results made of +0 and 1, the fixed points of every sRGB curve.
 *
 * Cubes (dim:SQ_RSRC_IMG_CUBE, cube arrays too; the rule of D022): the program selects the face
 * itself (v_cubeid / v_cubesc / v_cubetc / v_cubema), and the instruction's coordinates are
 * (s, t, face) with s, t in [1, 2] across the face (the compilers' sc / |2 ma| + 1.5: LLVM / Mesa
 * ac_prepare_cube_coords, ACO, and shadPS4, which subtracts the 1.5 back) and face the face id
 * 0..5 (+X, -X, +Y, -Y, +Z, -Z) plus 8 times the cube's index in a cube array. The face is the
 * layer BASE_ARRAY + 6 * cube + face; a face coordinate that is not such a whole number (or whose
 * face part is 6 or 7) is refused, since how the texture unit rounds one is not documented; the
 * cube index is clamped to the cubes the view holds. In the face, u = (s - 1) * width and
 * v = (t - 1) * height, then point / bilinear, compare and mips exactly as for 2D. The footprint's
 * taps must lie in the face: seamless cube filtering (DISABLE_CUBE_WRAP 0) reads a tap across an
 * edge from the adjacent face and averages a corner, which is not modelled, so a lane whose
 * footprint reaches a tap with a non-zero weight off the face (point, gather4, or bilinear) is
 * refused by name; a tap whose weight is exactly 0 (a texel centre's bilinear footprint) does not
 * change the blend and is not read. With DISABLE_CUBE_WRAP 1 (non-seamless) the face is sampled
 * as a 2D image through the S#'s clamp modes. An implicit LOD is the quad's differences of s and
 * t (one face across the quad, else refused); _d's derivatives are those of s and t. Unnormalized
 * coordinates on a cube are refused.
 *
 * Refused by name: 3D sampling, MIN / MAX / reserved reductions over more than one
 * texel, anisotropy above 1 (but for _l / _lz), the point_aniso_adj mip filter, border texels
 * of register border colours, degamma of other values, a non-zero LOD_BIAS_SEC, and filtering
 * (bilinear or linear mips) of UINT / SINT formats.
 */
import type { Gen } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import {
  decodeSamplerDescriptor,
  DescriptorError,
  reservedFieldError,
  type ReservedField,
  type SamplerDescriptor,
} from '../host/descriptors/index.ts';
import type { Wave } from './wave.ts';
import {
  addressRegister,
  bitsF32,
  channelWord,
  d16Of,
  DIM_COORDS,
  fetchTexel,
  viewLevels,
  writeResults,
  type ImageOp,
  type ImageResource,
} from './image.ts';

const fr = Math.fround;

type Clamp = SamplerDescriptor['clamp'][number];

const BORDER: Readonly<Record<string, readonly number[]>> = {
  transparent_black: [0, 0, 0, 0],
  opaque_black: [0, 0, 0, 1],
  opaque_white: [1, 1, 1, 1],
};

/** A texel index through a clamp mode: the index, or -1 for the border. */
export function wrapIndex(i: number, n: number, mode: Clamp): number {
  switch (mode) {
    case 'wrap':
      return ((i % n) + n) % n;
    case 'mirror': {
      const m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case 'clamp_last_texel':
      return Math.min(Math.max(i, 0), n - 1);
    case 'mirror_once_last_texel':
      return Math.min(i < 0 ? -1 - i : i, n - 1);
    case 'clamp_half_border':
    case 'clamp_border':
      return i < 0 || i >= n ? -1 : i;
    default: {
      // mirror_once_half_border, mirror_once_border
      const m = i < 0 ? -1 - i : i;
      return m >= n ? -1 : m;
    }
  }
}

/** The half-border modes clamp the texel-space coordinate half a texel outside the edge. */
function halfBorder(u: number, n: number, mode: Clamp): number {
  if (mode === 'clamp_half_border') return Math.min(Math.max(u, -0.5), n + 0.5);
  if (mode === 'mirror_once_half_border') return Math.min(Math.abs(u), n + 0.5);
  return u;
}

/** `ref OP texel` for the eight DEPTH_COMPARE functions. */
export function depthCompare(fn: SamplerDescriptor['depth_compare'], ref: number, texel: number): boolean {
  switch (fn) {
    case 'never':
      return false;
    case 'less':
      return ref < texel;
    case 'equal':
      return ref === texel;
    case 'less-equal':
      return ref <= texel;
    case 'greater':
      return ref > texel;
    case 'not-equal':
      return ref !== texel;
    case 'greater-equal':
      return ref >= texel;
    default:
      return true;
  }
}

function signed6(v: number): number {
  const x = v & 0x3f;
  return x >= 32 ? x - 64 : x;
}

function roundEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d !== 0.5) return d > 0.5 ? f + 1 : f;
  return f % 2 === 0 ? f : f + 1;
}

/** Where a cube's face coordinates start: s, t run from 1 to 2 across the face (sc / |2 ma| + 1.5). */
export const CUBE_COORD_ORIGIN = 1;
/** Faces of a cube, and the step of the face coordinate from one cube of a cube array to the next. */
export const CUBE_FACES = 6;
export const CUBE_ARRAY_STEP = 8;

/**
 * The layer a cube sample reads: the face coordinate must be a face id plus CUBE_ARRAY_STEP times
 * a cube index (the cube index clamped to the `cubes` the view holds); else the reason it is refused.
 */
export function cubeLayer(faceCoord: number, firstLayer: number, cubes: number): number | string {
  if (
    !Number.isInteger(faceCoord) ||
    faceCoord < 0 ||
    faceCoord >= 2 ** 32 ||
    faceCoord % CUBE_ARRAY_STEP >= CUBE_FACES
  )
    return `a cube face coordinate of ${faceCoord} is not a face id (0..5 plus 8 times a cube's index): how the texture unit rounds it is not modelled`;
  const face = faceCoord % CUBE_ARRAY_STEP;
  const cube = Math.min(Math.floor(faceCoord / CUBE_ARRAY_STEP), Math.max(1, cubes) - 1);
  return firstLayer + CUBE_FACES * cube + face;
}

const CUBE_EDGE =
  'a cube footprint reaching across a face edge (seamless filtering from the adjacent face) is not modelled';

function lerp(a: number, b: number, t: number): number {
  return fr(fr(a * fr(1 - t)) + fr(b * t));
}

function samplerOf(gen: Gen, inst: Instruction, w: Wave, res: ImageResource): SamplerDescriptor {
  const first = inst.fields.ssamp * 4;
  const words = [0, 1, 2, 3].map((i) => w.sgpr[first + i]);
  try {
    // Reserved values are kept: each is refused below only where this sample consults it (D009).
    return decodeSamplerDescriptor(gen, words, { reserved: 'keep' });
  } catch (e) {
    if (e instanceof DescriptorError) return res.refuse(`s[${first}:${first + 3}] is not an S#: ${e.message}`);
    throw e;
  }
}

/** Refuses by name when `field` holds a reserved value: the caller consults it. */
function refuseReserved(s: SamplerDescriptor, res: ImageResource, field: ReservedField['field'], by: string): void {
  const e = reservedFieldError(s, field, by);
  if (e) res.refuse(`the S# is not sampled: ${e.message}`);
}

/** What a sample consults of the S# beyond what `runSampleOp` reads directly. */
interface SamplerUse {
  /** Each texel's components must be +0 or 1: degamma may or may not apply (FORCE_DEGAMMA, SKIP_DEGAMMA). */
  readonly degammaFixedPointsOnly: boolean;
}

/**
 * Refuses what is not modelled, and a reserved value only where this sample consults it:
 * MAX_ANISO_RATIO with an aniso XY filter, FILTER_MODE when the footprint can hold more than
 * one texel (a reduction of one texel is that texel), gfx7's MIP_FILTER 3 unless the
 * coordinates are unnormalized (base level only); Z_FILTER is never consulted (no 3D sampling).
 */
function checkSampler(s: SamplerDescriptor, res: ImageResource, op: ImageOp, unnorm: boolean): SamplerUse {
  const refuse = res.refuse;
  if (res.dim === 3 && unnorm) refuse('unnormalized coordinates on a cube are not modelled');
  if (res.dim === 2) refuse('3D sampling is not modelled');
  const aniso = s.mag_filter.startsWith('aniso') || s.min_filter.startsWith('aniso');
  if (aniso) refuseReserved(s, res, 'max_aniso_ratio', 'an aniso XY filter');
  if (!unnorm) refuseReserved(s, res, 'mip_filter', 'a sample with normalized coordinates (mip selection)');
  const bilinear = s.mag_filter.endsWith('bilinear') || s.min_filter.endsWith('bilinear');
  const multiTexel =
    op.kind === 'gather4' || bilinear || (s.mip_filter === 'linear' && !unnorm) || (aniso && s.max_anisotropy !== 1);
  if (s.filter_mode !== 'blend' && multiTexel) {
    refuseReserved(s, res, 'filter_mode', 'a footprint of more than one texel');
    refuse(`the ${s.filter_mode} reduction filter over more than one texel is not modelled`);
  }
  // An explicit LOD (_l, _lz) has no derivatives to stretch a footprint along: one isotropic
  // sample, the aniso filters as point / bilinear (Vulkan "Texel Anisotropic Filtering", N = 1).
  const explicitLod = op.lod || op.lz;
  if (aniso && s.max_anisotropy !== 1 && !explicitLod)
    refuse('anisotropic filtering with an implicit or _d LOD is not modelled');
  if (s.mip_filter === 'point_aniso_adj') refuse('the point_aniso_adj mip filter is not modelled');
  if (s.lod_bias_sec !== 0) refuse('a non-zero LOD_BIAS_SEC is not modelled');
  const filters = bilinear || s.mip_filter === 'linear';
  if (op.kind === 'sample' && res.format.channelKind !== 'float' && filters && !op.compare)
    refuse(`filtering a ${res.format.channelKind} format (${res.format.info.name}) is not modelled`);
  // FORCE_DEGAMMA's curve and precision on other formats are not documented, nor is what gfx9+
  // SKIP_DEGAMMA does with it or with an sRGB format: +0 and 1 are fixed points of every sRGB
  // curve, so only texels made of them are defined whichever applies (checked per texel).
  const f = s.fields as Record<string, number>;
  const srgb = res.format.info.num_format === 'SRGB';
  const degammaFixedPointsOnly = f.force_degamma === 1 || (f.skip_degamma === 1 && srgb);
  if (degammaFixedPointsOnly && res.format.channelKind !== 'float')
    refuse(`FORCE_DEGAMMA of a ${res.format.channelKind} format (${res.format.info.name}) is not modelled`);
  return { degammaFixedPointsOnly };
}

/** The texel unchanged when every component is +0 or 1, else the refusal naming the value. */
function degammaFixedPoint(t: readonly number[], s: SamplerDescriptor, res: ImageResource): void {
  for (const v of t)
    if (!(v === 1 || Object.is(v, 0))) {
      const f = s.fields as Record<string, number>;
      const bits = `FORCE_DEGAMMA ${f.force_degamma}, SKIP_DEGAMMA ${f.skip_degamma ?? 'absent'}`;
      res.refuse(
        `degamma (${bits}) of a texel component ${v} is not modelled: only +0 and 1 are defined whatever the curve`,
      );
    }
}

/** Runs one sample / gather4 instruction over the active lanes. */
export function runSampleOp(gen: Gen, op: ImageOp, inst: Instruction, w: Wave, res: ImageResource): void {
  const s = samplerOf(gen, inst, w, res);
  const f = inst.fields;
  const unnorm = f.unorm === 1 || s.unnormalized;
  const use = checkSampler(s, res, op, unnorm);
  const { desc, dim, layout } = res;
  const nCoords = DIM_COORDS[dim];
  const cube = dim === 3;
  // A seamless cube reads only inside the face (taps across an edge are refused); else the clamp modes apply.
  const seamless = cube && s.fields.disable_cube_wrap !== 1;
  const hasY = dim === 1 || dim === 5 || cube;
  const arrayed = dim === 4 || dim === 5;
  let idx = 0;
  const offReg = op.offset ? idx++ : -1;
  const biasReg = op.bias ? idx++ : -1;
  const zReg = op.compare ? idx++ : -1;
  const nGrad = hasY ? 2 : 1;
  const gradReg = op.derivatives ? idx : -1;
  if (op.derivatives) idx += 2 * nGrad;
  const coordReg = idx;
  idx += nCoords;
  const lodReg = op.lod || op.clamp ? idx : -1;
  const reg = (i: number): number => addressRegister(inst, i);
  const readF = (i: number, lane: number): number => bitsF32(w.readVgpr(reg(i), lane));
  const view = viewLevels(desc);
  if (view.count === 0) return res.refuse('the T# view has no levels (BASE_LEVEL past LAST_LEVEL)');
  const base = view.base;
  const baseSub = layout.subresource(base, 0);
  // The register table (TA_BC) is not modelled: refused when a lane reads a border texel.
  const border = BORDER[s.border_color];
  const unormRef = res.format.info.num_format === 'UNORM';

  const results: (number[] | undefined)[] = new Array<number[] | undefined>(w.lanes);
  for (let lane = 0; lane < w.lanes; lane++) {
    if (!w.active(lane)) continue;
    // ---- LOD
    let lod: number;
    if (unnorm || op.lz) lod = 0;
    else if (op.lod) lod = readF(lodReg, lane);
    else {
      const q = lane & ~3;
      if (cube)
        for (const other of [q, q + 1, q + 2])
          if (!Object.is(readF(coordReg + 2, other), readF(coordReg + 2, lane)))
            return res.refuse('an implicit LOD across cube faces (the quad on more than one face) is not modelled');
      // d/dx (axis 0) and d/dy (axis 1) in texels of the base level: the _d VGPRs, else the quad's differences.
      const grad = (axis: number): [number, number] => {
        if (op.derivatives) {
          const at = gradReg + axis * nGrad;
          return [fr(readF(at, lane) * baseSub.width), hasY ? fr(readF(at + 1, lane) * baseSub.height) : 0];
        }
        const a = q + 1 + axis;
        return [
          fr(fr(readF(coordReg, a) - readF(coordReg, q)) * baseSub.width),
          hasY ? fr(fr(readF(coordReg + 1, a) - readF(coordReg + 1, q)) * baseSub.height) : 0,
        ];
      };
      const rx = fr(Math.hypot(...grad(0)));
      const ry = fr(Math.hypot(...grad(1)));
      lod = fr(Math.log2(Math.max(rx, ry)));
      if (op.bias) lod = fr(lod + readF(biasReg, lane));
    }
    if (!unnorm) {
      lod = fr(lod + s.lod_bias);
      let lo = Math.max(s.min_lod, desc.min_lod);
      if (op.clamp) lo = Math.max(lo, readF(lodReg, lane));
      lod = Math.min(Math.max(lod, lo), s.max_lod);
      if (Number.isNaN(lod)) lod = lo;
    }
    const filter = lod <= 0 ? s.mag_filter : s.min_filter;
    const bilinear = filter.endsWith('bilinear');
    // ---- levels (relative to BASE_LEVEL) and their weights
    const top = view.count - 1;
    let levels: [number, number][];
    if (unnorm || s.mip_filter === 'none') levels = [[0, 1]];
    else if (s.mip_filter === 'point' || op.kind === 'gather4')
      levels = [[Math.min(Math.max(Math.ceil(lod + 0.5) - 1, 0), top), 1]];
    else {
      const d = Math.min(Math.max(lod, 0), top);
      const l0 = Math.floor(d);
      const t = fr(d - l0);
      levels =
        t === 0 || l0 >= top
          ? [[l0, 1]]
          : [
              [l0, fr(1 - t)],
              [l0 + 1, t],
            ];
    }
    // ---- coordinates
    const origin = cube ? CUBE_COORD_ORIGIN : 0;
    const sc = fr(readF(coordReg, lane) - origin);
    const tc = hasY ? fr(readF(coordReg + 1, lane) - origin) : 0;
    let slice = 0;
    if (cube) {
      const layer = cubeLayer(
        readF(coordReg + 2, lane),
        desc.base_array,
        Math.floor((layout.slices - desc.base_array) / CUBE_FACES),
      );
      if (typeof layer === 'string') return res.refuse(layer);
      slice = layer;
    }
    if (arrayed) {
      const a = readF(coordReg + (hasY ? 2 : 1), lane);
      const count = Math.max(1, layout.slices - desc.base_array);
      slice = desc.base_array + Math.min(Math.max(roundEven(a), 0), count - 1);
    }
    let ox = 0;
    let oy = 0;
    if (op.offset) {
      const o = w.readVgpr(reg(offReg), lane);
      ox = signed6(o);
      oy = hasY ? signed6(o >>> 8) : 0;
    }
    const ref = op.compare ? (unormRef ? Math.min(Math.max(readF(zReg, lane), 0), 1) : readF(zReg, lane)) : 0;

    /** Texel (i, j) of `level`; `weighted`: its weight in the result is not 0 (a seamless cube reads it only then). */
    const texel = (level: number, i: number, j: number, weighted = true): number[] => {
      const sub = layout.subresource(level, slice);
      if (seamless && (i < 0 || j < 0 || i >= sub.width || j >= sub.height)) {
        if (weighted) return res.refuse(CUBE_EDGE);
        return [0, 0, 0, 0];
      }
      const x = wrapIndex(i, sub.width, s.clamp[0]);
      const y = hasY ? wrapIndex(j, sub.height, s.clamp[1]) : 0;
      let t: number[];
      if (x >= 0 && y >= 0) {
        t = fetchTexel(res, level, slice, x, y);
        if (use.degammaFixedPointsOnly) degammaFixedPoint(t, s, res);
      } else if (border) t = [...border];
      else return res.refuse('a border texel of a register border colour (the TA_BC table) is not modelled');
      if (!op.compare) return t;
      const v = depthCompare(s.depth_compare, ref, t[0]) ? 1 : 0;
      return [v, v, v, v];
    };

    const footprint = (level: number) => {
      const sub = layout.subresource(level, slice);
      let u = unnorm ? sc : fr(sc * sub.width);
      let v = unnorm ? tc : fr(tc * sub.height);
      // A seamless cube does not consult the clamp modes: its taps stay in the face or are refused.
      const clampU = (x: number, n: number, mode: Clamp): number => (seamless ? x : halfBorder(x, n, mode));
      u = clampU(fr(u + ox), sub.width, s.clamp[0]);
      v = hasY ? clampU(fr(v + oy), sub.height, s.clamp[1]) : 0.5;
      return { u, v };
    };

    if (op.kind === 'gather4') {
      const level = base + levels[0][0];
      const { u, v } = footprint(level);
      const uu = fr(u - 0.5);
      const vv = fr(v - 0.5);
      const i0 = Math.floor(uu);
      const j0 = hasY ? Math.floor(vv) : 0;
      const j1 = hasY ? j0 + 1 : 0;
      const c = [1, 2, 4, 8].indexOf(f.dmask);
      const comp = op.compare ? 0 : c;
      const g = [texel(level, i0, j1), texel(level, i0 + 1, j1), texel(level, i0 + 1, j0), texel(level, i0, j0)];
      results[lane] = g.map((t) => channelWord(op.compare ? FLOAT_FMT : res.format, t[comp]));
      continue;
    }

    let out = [0, 0, 0, 0];
    for (const [rel, weight] of levels) {
      const level = base + rel;
      const { u, v } = footprint(level);
      let r: number[];
      if (!bilinear) r = texel(level, Math.floor(u), Math.floor(v));
      else {
        const uu = fr(u - 0.5);
        const vv = fr(v - 0.5);
        const i0 = Math.floor(uu);
        const j0 = hasY ? Math.floor(vv) : 0;
        const a = fr(uu - i0);
        const b = hasY ? fr(vv - j0) : 0;
        // The weights are 1 - a (> 0) and a across, 1 - b (> 0) and b down.
        const t00 = texel(level, i0, j0);
        const t10 = texel(level, i0 + 1, j0, a !== 0);
        const t01 = hasY ? texel(level, i0, j0 + 1, b !== 0) : t00;
        const t11 = hasY ? texel(level, i0 + 1, j0 + 1, a !== 0 && b !== 0) : t10;
        r = [0, 1, 2, 3].map((k) => lerp(lerp(t00[k], t10[k], a), lerp(t01[k], t11[k], a), b));
      }
      out = levels.length === 1 ? r : out.map((o, k) => fr(o + fr(r[k] * weight)));
    }
    // Degamma may come after filtering (a blend of 0 and 1 is neither): the result too.
    if (use.degammaFixedPointsOnly) degammaFixedPoint(out, s, res);
    results[lane] = out.map((v) => channelWord(op.compare ? FLOAT_FMT : res.format, v));
  }
  writeResults(w, f.vdata, op.kind === 'gather4' ? 0xf : f.dmask, results, d16Of(gen, inst, res.format, op.compare));
}

/** Comparison results are floats whatever the format. */
const FLOAT_FMT = { channelKind: 'float' } as Parameters<typeof channelWord>[0];
