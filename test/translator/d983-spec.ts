/**
 * Captures of D983's tests (docs/capture-spec.md; the tests are d983.gpu.test.ts and
 * e2e/d983.spec.ts): 64 lanes of gfx1030, one wave a group (wave32: two groups, wave64: one),
 * select a record of a table through ACO's waterfall (v_readfirstlane of the lane's record,
 * v_cmpx_eq, s_buffer_load_dwordx8 at the record's offset through the table's V#, the accesses,
 * s_andn2 of EXEC, s_cbranch_scc0), and store what the accesses read. Lane g (= group * lanes +
 * lane) reads texel (x, y) = ((g >> 2) & 3, (g >> 4) & 3) of its record's image.
 *
 * Every image is a linear 4x4 R32_FLOAT image whose texels the spec states (`texelValue`), so a
 * test can check each lane's result against values it computes itself, besides the
 * interpreter's expectation the capture carries.
 */
import { buildCapture, readCapture, writeCapture, type Capture } from '../../src/host/capture/index.ts';
import { completeBuilt } from '../../src/cli/expected-by-interpreter.ts';
import {
  decodeImageDescriptor,
  encodeImageDescriptor,
  encodeSamplerDescriptor,
} from '../../src/host/descriptors/index.ts';
import { surfaceLayout, writeSurface } from '../../src/host/texels/index.ts';
import { Gen } from '../../src/isa/gen.ts';
import { FILTERED_SAMPLE_ULPS } from '../../src/translator/image-ops.ts';

const GEN = Gen.GFX10_3;
/** Lanes of every capture. */
export const D983_LANES = 64;
export const SIDE = 4;
const TABLE_ADDRESS = 0x20000000;
const IMAGES_ADDRESS = 0x40000000;
const OUT_ADDRESS = 0x30010000;
const FORMAT_R32F = 22;
const TYPE_2D = 9;
/** The output's bytes before the dispatch (a result of 0 is then a write the comparison sees). */
const OUT_FILL = 0xee;

/** Texel (x, y) of image `image` of a table: distinct in every image, exact in f32, within [0, 1). */
export const texelValue = (image: number, x: number, y: number): number => (image * 16 + y * SIDE + x) / 64;

/** The texel lane g reads. */
export const laneTexel = (g: number): { x: number; y: number } => ({ x: (g >> 2) & 3, y: (g >> 4) & 3 });

/** A record of the table: an image (by its index in the spec's images), empty, or a repeat of another record. */
export type TableRecord = { readonly image: number } | { readonly empty: true };

/** The eight words of image `image`'s T# (address IMAGES_ADDRESS + image * 0x1000). */
export function imageWords(image: number): Uint32Array {
  return encodeImageDescriptor(GEN, imageFields(image));
}

function imageFields(image: number): Record<string, number> {
  return {
    base_address: (IMAGES_ADDRESS + image * 0x1000) / 256,
    format: FORMAT_R32F,
    width_lo: (SIDE - 1) & 3,
    width_hi: (SIDE - 1) >>> 2,
    height: SIDE - 1,
    dst_sel_x: 4,
    dst_sel_y: 5,
    dst_sel_z: 6,
    dst_sel_w: 7,
    type: TYPE_2D,
    sw_mode: 0,
    resource_level: 1,
  };
}

/** The bytes of image `image` where the surface layer says a gfx10.3 linear image keeps them. */
function imageBytes(image: number): string {
  // The layout does not depend on the address: the bytes are laid out from 0.
  const layout = surfaceLayout(
    GEN,
    decodeImageDescriptor(GEN, encodeImageDescriptor(GEN, { ...imageFields(image), base_address: 0 })),
  );
  const bytes = new Uint8Array(layout.size);
  const linear = new Float32Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) linear[y * SIDE + x] = texelValue(image, x, y);
  writeSurface(layout, { address: 0, bytes }, 0, 0, new Uint8Array(linear.buffer));
  return Buffer.from(bytes).toString('hex');
}

/** The words of a gfx10.3 S# from its fields. */
export const samplerWords = (fields: Record<string, number>): number[] => [
  ...encodeSamplerDescriptor(GEN, { max_lod: 0xf00, ...fields }),
];

export interface D983Kernel {
  readonly name: string;
  readonly wave64: boolean;
  readonly records: readonly TableRecord[];
  /** Each lane's record (g: its index over the dispatch). */
  readonly recordOf: (g: number) => number;
  /** Instructions before the loop (samplers built from constants). */
  readonly prologue?: readonly string[];
  /**
   * The accesses inside the waterfall, the T# in s[32:39]. They read: v2, v3 the texel (u32);
   * v[4:6] the lane's reference and the texel's centre (normalized); v[7:9] the reference and
   * the centre moved halfway to the next texel in x; they write v[10 + k] for output word k.
   */
  readonly accesses: readonly string[];
  /** Output words a lane writes (v10 ...). */
  readonly outWords: number;
  readonly filtered?: boolean;
}

/** Lane g's depth reference: some equal to a texel of its image, most between. */
export const laneReference = (g: number): number => ((g * 7) % 64) / 64;

function program(k: D983Kernel): string {
  const w = k.wave64;
  const exec = w ? 'exec' : 'exec_lo';
  const saved = w ? 's[22:23]' : 's22';
  const left = w ? 's[24:25]' : 's24';
  const b = w ? 'b64' : 'b32';
  const lanesLog = w ? 6 : 5;
  const outLog = lanesLog + Math.log2(4 * k.outWords);
  if (!Number.isInteger(outLog)) throw new Error('outWords must be a power of two');
  const store = Array.from(
    { length: k.outWords },
    (_, i) => `buffer_store_dword v${10 + i}, off, s[8:11], s21 offset:${4 * i}`,
  );
  return [
    's_load_dwordx4 s[8:11], s[4:5], 0x0          // the output V#',
    ...(k.prologue ?? []),
    `s_lshl_b32 s20, s6, ${lanesLog}                 // the group's first lane`,
    `s_lshl_b32 s21, s6, ${outLog}                 // the group's output bytes`,
    'v_add_nc_u32 v0, s20, v0                     // g',
    ...recordFormula(k),
    'v_bfe_u32 v2, v0, 2, 2                       // x',
    'v_bfe_u32 v3, v0, 4, 2                       // y',
    'v_cvt_f32_u32 v5, v2',
    'v_cvt_f32_u32 v6, v3',
    'v_add_f32 v5, 0.5, v5',
    'v_add_f32 v6, 0.5, v6',
    'v_mul_f32 v5, 0x3e800000, v5                 // / 4: the centre',
    'v_mul_f32 v6, 0x3e800000, v6',
    'v_add_f32 v8, 0x3e000000, v5                 // + 1/8: halfway to the next texel',
    'v_mov_b32 v9, v6',
    'v_mul_u32_u24 v4, 7, v0',
    'v_and_b32 v4, 63, v4',
    'v_cvt_f32_u32 v4, v4',
    'v_mul_f32 v4, 0x3c800000, v4                 // / 64: the reference',
    'v_mov_b32 v7, v4',
    's_waitcnt lgkmcnt(0)',
    `s_mov_${b} ${saved}, ${exec}`,
    '.L_loop:',
    'v_readfirstlane_b32 s26, v1',
    `s_mov_${b} ${left}, ${exec}`,
    'v_cmpx_eq_u32_e32 s26, v1',
    's_cbranch_execz .L_next',
    's_lshl_b32 s26, s26, 5                       // 32 bytes a record',
    's_buffer_load_dwordx8 s[32:39], s[0:3], s26',
    's_waitcnt lgkmcnt(0)',
    ...k.accesses,
    `s_andn2_${b} ${left}, ${left}, ${exec}`,
    's_cbranch_scc0 .L_done',
    '.L_next:',
    `s_mov_${b} ${exec}, ${left}`,
    's_branch .L_loop',
    '.L_done:',
    `s_mov_${b} ${exec}, ${saved}`,
    's_waitcnt vmcnt(0)',
    ...store,
    's_endpgm',
    '',
  ].join('\n');
}

/**
 * The record formula in the program: a lane's record from g. Every kernel here selects its
 * record as a table of g (a u32 a lane, read through a lane buffer would do too, but the
 * arithmetic keeps the capture small): `records` says which formula (`recordOf` must agree;
 * the builder checks it on every lane).
 */
function recordFormula(k: D983Kernel): string[] {
  const n = k.records.length;
  if (n === 4) return ['v_and_b32 v1, 3, v0                           // record: g & 3'];
  // Six records: the lane's record from g & 7 through a constant map in s12 (4 bits a record).
  return [
    `s_mov_b32 s12, 0x${RECORD_MAP.toString(16)}                   // record of (g & 7), 4 bits each`,
    'v_and_b32 v1, 7, v0',
    'v_lshlrev_b32 v1, 2, v1',
    'v_lshrrev_b32 v1, v1, s12',
    'v_and_b32 v1, 15, v1',
  ];
}

/** For six-record tables: g & 7 -> record (never 3, the null record): 0 1 2 4 5 0 1 2. */
const SIX_MAP = [0, 1, 2, 4, 5, 0, 1, 2];
const RECORD_MAP = SIX_MAP.reduce((m, r, i) => m | (r << (4 * i)), 0) >>> 0;
export const sixRecordOf = (g: number): number => SIX_MAP[g & 7]!;

/** The spec of a kernel: its expectation the interpreter's. */
export function d983Spec(k: D983Kernel): Record<string, unknown> {
  const images = [...new Set(k.records.flatMap((r) => ('image' in r ? [r.image] : [])))];
  for (let g = 0; g < D983_LANES; g++) {
    const want = k.records.length === 4 ? g & 3 : sixRecordOf(g);
    if (k.recordOf(g) !== want) throw new Error(`${k.name}: recordOf(${g}) is ${k.recordOf(g)}, the program's ${want}`);
  }
  const table = k.records.map((r) =>
    'image' in r ? { hex: Buffer.from(imageWords(r.image).buffer).toString('hex') } : { zeros: 32 },
  );
  const lanes = k.wave64 ? 64 : 32;
  return {
    target: 'gfx1030',
    wave64: k.wave64,
    program: { address: 0x10000000, asm: program(k) },
    registers: { vgprs: 16 + k.outWords, sgprs: 64, rsrc2: { tgid_x_en: 1 } },
    user_data: [
      {
        buffer: {
          name: `image table (${k.records.length} records)`,
          address: 'table',
          num_records: k.records.length * 32,
          dst_sel_x: 'x',
          dst_sel_y: 'y',
          dst_sel_z: 'z',
          dst_sel_w: 'w',
          format: 22,
          resource_level: 1,
          oob_select: 3,
        },
      },
      { pointer: 'bindings' },
    ],
    grid: [D983_LANES / lanes],
    thread_group: [lanes],
    memory: [
      { name: 'table', address: TABLE_ADDRESS, data: table },
      {
        name: 'bindings',
        address: 0x21000000,
        data: {
          descriptors: [
            {
              buffer: {
                name: 'output',
                address: 'out',
                stride: 4 * k.outWords,
                num_records: lanes,
                add_tid_enable: 1,
                format: 22,
                dst_sel_x: 'x',
                dst_sel_y: 'y',
                dst_sel_z: 'z',
                dst_sel_w: 'w',
                resource_level: 1,
                oob_select: 1,
              },
            },
          ],
        },
      },
      { name: 'out', address: OUT_ADDRESS, data: { fill: OUT_FILL, size: 4 * k.outWords * D983_LANES } },
      ...images.map((i) => ({
        name: `image ${i}`,
        address: IMAGES_ADDRESS + i * 0x1000,
        data: { hex: imageBytes(i) },
      })),
    ],
    expected: {
      compute: 'interpreter',
      ...(k.filtered ? { compare: { kind: 'ulp', element: 'f32', ulps: FILTERED_SAMPLE_ULPS } } : {}),
    },
  };
}

/** The kernel's capture file, its expectation the interpreter's (throws where the interpreter refuses). */
export async function d983CaptureBytes(k: D983Kernel): Promise<Uint8Array> {
  const built = await buildCapture(d983Spec(k) as Parameters<typeof buildCapture>[0], { interpreterFollows: true });
  const done = await completeBuilt(built);
  if (done.kind !== 'written') throw new Error(`${k.name}: the interpreter gave no result: ${JSON.stringify(done)}`);
  return writeCapture(done.manifest, done.blobs);
}

/** The kernel's capture, opened. */
export async function d983Capture(k: D983Kernel): Promise<Capture> {
  return readCapture(await d983CaptureBytes(k));
}

/** The output words the capture expects, lane by lane (the interpreter's result). */
export function expectedOut(capture: Capture, outWords: number): Float32Array {
  const e = capture.manifest.expected;
  if (!('memory' in e)) throw new Error('no expectation');
  const blob = capture.blob(e.memory[0]!.blob!);
  const f = new Float32Array(blob.slice().buffer);
  if (f.length !== outWords * D983_LANES) throw new Error(`${f.length} output words, not ${outWords * D983_LANES}`);
  return f;
}
