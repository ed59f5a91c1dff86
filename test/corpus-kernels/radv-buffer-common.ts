/**
 * Pieces shared by the RADV buffer, math and subgroup kernels: the whole fixed set layout of
 * vkcomp.c / vkcomp_additions.c (b0..b10), dispatches whose user SGPRs differ from
 * `radvSpec`'s (no set pointer, TG_SIZE instead of the group id), texel-buffer V#s as RADV
 * writes them per generation, f32/f16 bit helpers, and expected ranges with a compare each.
 */
import { radvSpec, type Json, type Spec } from './common.ts';
import type { Target } from './targets.ts';

/**
 * Byte offsets of set 0's bindings (vkcomp.c, vkcomp_additions.c) and the size of one array
 * element. RADV lays bindings out in order: SAMPLED_IMAGE 64 bytes (image + fmask),
 * SAMPLER 16, STORAGE_BUFFER / UNIFORM_BUFFER / texel buffers 16, STORAGE_IMAGE 32,
 * COMBINED_IMAGE_SAMPLER with an immutable sampler 64. The listings confirm b2 (0x410),
 * b3 (0x420), b6 (0x760: nonuniform_ubo), b9 (0xa60) and b10 (0xae0: texel_buffer_formats).
 */
export const RADV_SET = {
  b0: 0x000,
  b1: 0x400,
  b2: 0x410,
  b3: 0x420,
  b4: 0x520,
  b5: 0x720,
  b6: 0x760,
  b7: 0x860,
  b8: 0x960,
  b9: 0xa60,
  b10: 0xae0,
} as const;
/** Bytes between consecutive elements of the buffer-descriptor arrays (b3, b6, b9, b10). */
export const BUFFER_DESCRIPTOR_BYTES = 16;

type RadvOptions = Parameters<typeof radvSpec>[2];

/**
 * A RADV dispatch whose system SGPRs are not radvSpec's `tgid_x_en` alone: ACO's p_startpgm
 * (the .full.txt listing) names what follows the user SGPRs. `rsrc2` replaces radvSpec's
 * fields; `userData` replaces the user SGPRs (where the shader has no descriptor set, the push
 * constants start at s2) and drops the set region. `vgprs` (the listing's "stat VGPRs") and
 * `rsrc3` matter where the code uses gfx10 wave64 shared VGPRs, which follow the wave's own.
 */
export function radvDispatch(
  t: Target,
  kernel: string,
  o: RadvOptions & {
    readonly rsrc2?: Readonly<Record<string, number>>;
    readonly userData?: readonly number[];
    readonly vgprs?: number;
    readonly rsrc3?: number;
  },
): Spec {
  const spec = radvSpec(t, kernel, o);
  const registers = { ...(spec.registers as Record<string, Json>) };
  if (o.rsrc2) registers.rsrc2 = { ...o.rsrc2, lds_size: Math.ceil((o.ldsBytes ?? 0) / 512) };
  if (o.vgprs !== undefined) registers.vgprs = o.vgprs;
  if (o.rsrc3 !== undefined) registers.rsrc3 = o.rsrc3;
  const out: Spec = { ...spec, registers };
  if (o.userData) {
    out.user_data = [...o.userData];
    out.memory = (spec.memory as readonly Json[]).slice(1);
  }
  return out;
}

/** A Vulkan buffer format as the V# spells it: gfx6-9 DATA_FORMAT/NUM_FORMAT, gfx10.3 FORMAT. */
export interface TexelFormat {
  /** Bytes per texel (the V#'s STRIDE). */
  readonly bytes: number;
  readonly dataFormat: number;
  readonly numFormat: number;
  /** GFX10 unified FORMAT (Mesa's gfx10 table: 8_8_8_8_UNORM 56, 16_16_FLOAT 29, 32_UINT 20, 2_10_10_10_UNORM 50). */
  readonly unified: number;
  /** DST_SEL x, y, z, w: the format's swizzle, missing channels 0 and alpha 1. */
  readonly sel: readonly [string, string, string, string];
}

/** The four formats of texel_buffer_formats.comp (legacy DATA_FORMAT / NUM_FORMAT per DESCRIPTORS.md). */
export const TEXEL_FORMATS = {
  rgba8Unorm: { bytes: 4, dataFormat: 10, numFormat: 0, unified: 56, sel: ['x', 'y', 'z', 'w'] },
  rg16Float: { bytes: 4, dataFormat: 5, numFormat: 7, unified: 29, sel: ['x', 'y', '0', '1'] },
  r32Uint: { bytes: 4, dataFormat: 4, numFormat: 4, unified: 20, sel: ['x', '0', '0', '1'] },
  a2b10g10r10Unorm: { bytes: 4, dataFormat: 9, numFormat: 0, unified: 50, sel: ['x', 'y', 'z', 'w'] },
} as const satisfies Record<string, TexelFormat>;

/**
 * A texel-buffer V# as RADV writes it (radv_make_texel_buffer_descriptor): STRIDE the texel
 * size, NUM_RECORDS in texels, except on gfx8 where it is in bytes (the gfx8 listing divides it
 * by STRIDE for textureSize); gfx10.3 with OOB_SELECT 0 (structured with offset).
 */
export function texelBuffer(t: Target, region: string, format: TexelFormat, texels: number): Json {
  const [x, y, z, w] = format.sel;
  const sel = { dst_sel_x: x, dst_sel_y: y, dst_sel_z: z, dst_sel_w: w };
  const common = { address: region, stride: format.bytes, ...sel };
  if (t.mcpu === 'gfx1030')
    return { buffer: { ...common, num_records: texels, format: format.unified, oob_select: 0, resource_level: 1 } };
  const records = t.mcpu === 'gfx803' ? texels * format.bytes : texels;
  return { buffer: { ...common, num_records: records, data_format: format.dataFormat, num_format: format.numFormat } };
}

// ---- f32 / f16 bit patterns ----

const f32Box = new Float32Array(1);
const u32Box = new Uint32Array(f32Box.buffer);

/** The f32 bit pattern of a number (rounded to nearest even first; NaN gives 0x7fc00000). */
export function f32Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7fc00000;
  f32Box[0] = x;
  return u32Box[0];
}
/** The value of an f32 bit pattern. */
export function f32Of(bits: number): number {
  u32Box[0] = bits >>> 0;
  return f32Box[0];
}

/** An f16 bit pattern's value (IEEE binary16, denormals kept). */
export function f16Of(h: number): number {
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15));
}

/**
 * A finite or infinite number converted to binary16 bits, rounding to nearest even or toward
 * zero (IEEE 754 §4.3; toward zero, an overflow gives the largest finite value), denormals kept.
 * NaN gives the quiet NaN 0x7e00.
 */
export function f16Bits(x: number, towardZero: boolean): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const ax = Math.abs(x);
  if (Number.isNaN(x)) return 0x7e00;
  if (ax === Infinity) return sign | 0x7c00;
  if (ax === 0) return sign;
  let e = Math.floor(Math.log2(ax));
  if (2 ** e > ax)
    e--; // Math.log2 may round across a power of two
  else if (2 ** (e + 1) <= ax) e++;
  // The quantum is 2^(e-10) for normals, 2^-24 for denormals; k quanta, 0 <= k <= 2048.
  const qe = Math.max(e, -14) - 10;
  const n = ax / 2 ** qe; // exact: a power-of-two scaling
  let k = Math.floor(n);
  if (!towardZero && (n - k > 0.5 || (n - k === 0.5 && k % 2 === 1))) k++;
  if (qe === -24) return sign | k; // denormal, or (k = 1024..2048) the lowest binades: the bits are k
  let field = qe + 10 + 15;
  if (k === 2048) {
    k = 1024;
    field++;
  }
  if (field >= 31) return sign | (towardZero ? 0x7bff : 0x7c00);
  return sign | (field << 10) | (k - 1024);
}

// ---- expected ranges ----

/** One expected range: its words and how they are compared. */
export interface ExpectedWords {
  readonly address: number;
  readonly words: readonly number[];
  /** Undefined: exact; else within this many f32 ULPs (NaN equals NaN). */
  readonly ulps?: number;
}

/** One expected word: its value and how it is compared (`skip`: not compared, a gap). */
export interface ExpectedWord {
  readonly value: number;
  readonly compare: 'exact' | 'skip' | { readonly ulps: number };
}

/** Words laid end to end from `address`, merged into ranges where neighbours compare alike. */
export function wordRanges(address: number, words: readonly ExpectedWord[]): ExpectedWords[] {
  const out: { address: number; words: number[]; ulps?: number }[] = [];
  let open: { address: number; words: number[]; ulps?: number; key: string } | undefined;
  words.forEach((w, i) => {
    if (w.compare === 'skip') {
      open = undefined;
      return;
    }
    const ulps = w.compare === 'exact' ? undefined : w.compare.ulps;
    const key = String(ulps);
    if (open === undefined || open.key !== key) {
      open = { address: address + i * 4, words: [], ulps, key };
      out.push(open);
    }
    open.words.push(w.value >>> 0);
  });
  return out.map(({ address: a, words: ws, ulps }) =>
    ulps === undefined ? { address: a, words: ws } : { address: a, words: ws, ulps },
  );
}

/** Expected ranges as the spec writes them. */
export function expectedRanges(ranges: readonly ExpectedWords[]): Json[] {
  return ranges.map((r): Json => {
    const data = { type: 'u32', values: r.words.map((w) => w >>> 0) };
    return r.ulps === undefined
      ? { address: r.address, data }
      : { address: r.address, data, compare: { kind: 'ulp', element: 'f32', ulps: r.ulps } };
  });
}

/**
 * An absolute error bound as f32 ULPs around `value`: the ULP distance from `value` to
 * value ± delta (rounded to f32), the wider of the two sides, so the window holds the bound.
 */
export function ulpsForAbsoluteError(value: number, delta: number): number {
  const ordered = (x: number): number => {
    const b = f32Bits(x);
    return b & 0x80000000 ? -(b & 0x7fffffff) : b;
  };
  const at = ordered(value);
  const lo = ordered(Math.fround(value - delta));
  const hi = ordered(Math.fround(value + delta));
  return Math.max(Math.abs(at - lo), Math.abs(hi - at));
}
