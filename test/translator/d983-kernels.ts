/**
 * The kernels of D983's tests (d983.gpu.test.ts, e2e/d983.spec.ts), each with the result every
 * lane must read, stated from the images' texels (`texelValue`) and the lane's reference, not
 * from the interpreter: the test checks the capture's expectation against it, then the GPU
 * against the capture.
 */
import {
  laneReference,
  laneTexel,
  samplerWords,
  sixRecordOf,
  texelValue,
  type D983Kernel,
  type TableRecord,
} from './d983-spec.ts';

/** The samplers' clamp: the last texel (the filtered compares read texel x + 1, clamped). */
const CLAMP = { clamp_x: 2, clamp_y: 2, clamp_z: 2 };
export const POINT_SAMPLER = samplerWords(CLAMP);

/** SQ_TEX_DEPTH_COMPARE: never, less, equal, less-equal, greater, not-equal, greater-equal, always. */
export const COMPARE: readonly ((r: number, t: number) => boolean)[] = [
  () => false,
  (r, t) => r < t,
  (r, t) => r === t,
  (r, t) => r <= t,
  (r, t) => r > t,
  (r, t) => r !== t,
  (r, t) => r >= t,
  () => true,
];

/** s_mov_b32 lines loading four words into s[first:first+3]. */
const load = (first: number, words: readonly number[]): string[] =>
  words.map((w, i) => `s_mov_b32 s${first + i}, 0x${(w >>> 0).toString(16)}`);

export interface D983Case {
  readonly kernel: D983Kernel;
  /** Each lane's output words, stated independently. */
  readonly expected: (g: number) => readonly number[];
}

const FOUR: readonly TableRecord[] = [{ image: 0 }, { image: 1 }, { image: 2 }, { image: 3 }];

/** selected_images: four records, lane g's record g & 3, its texel fetched (image_load) and sampled (point). */
export function selectedImages(wave64: boolean): D983Case {
  return {
    kernel: {
      name: `selected_images ${wave64 ? 'wave64' : 'wave32'}`,
      wave64,
      records: FOUR,
      recordOf: (g) => g & 3,
      prologue: load(44, POINT_SAMPLER),
      accesses: [
        'image_load v10, v[2:3], s[32:39] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm',
        'image_sample_lz v11, v[5:6], s[32:39], s[44:47] dmask:0x1 dim:SQ_RSRC_IMG_2D',
      ],
      outWords: 2,
    },
    expected: (g) => {
      const { x, y } = laneTexel(g);
      const t = texelValue(g & 3, x, y);
      return [t, t];
    },
  };
}

/** Six records: four images, a null record (3), a repeat of record 1 (5); lanes select every record but the null one. */
export const SIX_RECORDS: readonly TableRecord[] = [
  { image: 0 },
  { image: 1 },
  { image: 2 },
  { empty: true },
  { image: 3 },
  { image: 1 },
];
/** The image each of the six records names (undefined: the null record). */
export const SIX_IMAGE = [0, 1, 2, undefined, 3, 1] as const;

export function everyImageATableNames(wave64: boolean): D983Case {
  return {
    kernel: {
      name: `every_image_a_table_names_is_bound_and_found_by_its_descriptor ${wave64 ? 'wave64' : 'wave32'}`,
      wave64,
      records: SIX_RECORDS,
      recordOf: sixRecordOf,
      accesses: ['image_load v10, v[2:3], s[32:39] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm'],
      outWords: 1,
    },
    expected: (g) => {
      const { x, y } = laneTexel(g);
      return [texelValue(SIX_IMAGE[sixRecordOf(g)]!, x, y)];
    },
  };
}

/** The S# of a compare by function `f`, point or bilinear. */
export const compareSampler = (f: number, filtered: boolean): number[] =>
  samplerWords({
    ...CLAMP,
    depth_compare_func: f,
    ...(filtered ? { xy_mag_filter: 1, xy_min_filter: 1 } : {}),
  });

/**
 * each_lane_compares_the_image_it_selected_by_every_function: sixteen compares in the loop,
 * each its own S# (function 0-7, point then bilinear, built in s[44:47] before it), the
 * lane's reference in v4 and v7. Point reads texel (x, y); bilinear samples halfway to texel x + 1 (clamped), so
 * its result is the mean of the two compares.
 */
export function comparesByEveryFunction(wave64: boolean): D983Case {
  const accesses: string[] = [];
  for (const filtered of [false, true])
    for (let f = 0; f < 8; f++) {
      const k = (filtered ? 8 : 0) + f;
      accesses.push(
        ...load(44, compareSampler(f, filtered)),
        `image_sample_c_lz v${10 + k}, v[${filtered ? '7:9' : '4:6'}], s[32:39], s[44:47] dmask:0x1 dim:SQ_RSRC_IMG_2D`,
      );
    }
  return {
    kernel: {
      name: `each_lane_compares_the_image_it_selected_by_every_function ${wave64 ? 'wave64' : 'wave32'}`,
      wave64,
      records: FOUR,
      recordOf: (g) => g & 3,
      accesses,
      outWords: 16,
      filtered: true,
    },
    expected: (g) => {
      const { x, y } = laneTexel(g);
      const r = laneReference(g);
      const t0 = texelValue(g & 3, x, y);
      const t1 = texelValue(g & 3, Math.min(x + 1, 3), y);
      const c = (f: number, t: number): number => (COMPARE[f]!(r, t) ? 1 : 0);
      return [...COMPARE.map((_, f) => c(f, t0)), ...COMPARE.map((_, f) => 0.5 * c(f, t0) + 0.5 * c(f, t1))];
    },
  };
}

/**
 * The two forms D983's shadow compares build their samplers in, before the loop, each traced to
 * its words: compare function 3 (less-equal), filtered. Form A in s[44:47]: s_movk_i32 (clamps
 * and the function), s_bfm_b32 (MAX_LOD = 0xfff), s_mov_b32 (bilinear), s_brev_b32 (the border
 * type's top bit). Form B in s[48:51]: s_bitreplicate_b64_b32 (every bit twice: clamp x = 3,
 * the function, MAX_LOD), s_mov_b64 (bilinear).
 */
export const FORM_A = [
  's_movk_i32 s44, 0x3092                       // clamp 2, 2, 2; DEPTH_COMPARE_FUNC 3',
  's_bfm_b32 s45, 12, 12                        // MAX_LOD 0xfff',
  's_mov_b32 s46, 0x500000                      // XY_MAG_FILTER, XY_MIN_FILTER bilinear',
  's_brev_b32 s47, 1                            // BORDER_COLOR_TYPE 2',
];
export const FORM_B = [
  's_bitreplicate_b64_b32 s[48:49], 0xfc00041   // clamp x 3; DEPTH_COMPARE_FUNC 3; MAX_LOD 0xfff',
  's_mov_b64 s[50:51], 0x500000                 // bilinear',
];
/** The words the two forms leave, as the test states them. */
export const FORM_A_WORDS = [0x3092, 0x00fff000, 0x00500000, 0x80000000];
export const FORM_B_WORDS = [0x3003, 0x00fff000, 0x00500000, 0];

export function samplerBuiltFromConstants(wave64: boolean): D983Case {
  return {
    kernel: {
      name: `a_sampler_built_from_constants_is_traced ${wave64 ? 'wave64' : 'wave32'}`,
      wave64,
      records: FOUR,
      recordOf: (g) => g & 3,
      prologue: [...FORM_A, ...FORM_B],
      accesses: [
        'image_sample_c_lz v10, v[7:9], s[32:39], s[44:47] dmask:0x1 dim:SQ_RSRC_IMG_2D',
        'image_sample_c_lz v11, v[7:9], s[32:39], s[48:51] dmask:0x1 dim:SQ_RSRC_IMG_2D',
      ],
      outWords: 2,
      filtered: true,
    },
    expected: (g) => {
      const { x, y } = laneTexel(g);
      const r = laneReference(g);
      const le = (t: number): number => (r <= t ? 1 : 0);
      const v = 0.5 * le(texelValue(g & 3, x, y)) + 0.5 * le(texelValue(g & 3, Math.min(x + 1, 3), y));
      return [v, v];
    },
  };
}
