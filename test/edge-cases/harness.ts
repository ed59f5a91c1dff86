/**
 * Edge-case captures: each case is a small program in assembly text, per-lane (or per-row)
 * inputs in a buffer, and the output the documents say it must write. `edgeCaseSpec` turns a
 * case and a target into a capture spec (docs/capture-spec.md) that the interpreter replays
 * here and the GPU translator replays later; nothing in a spec comes from running the
 * project's own semantics.
 *
 * Register conventions (every case, every target):
 * - user data: s[0:3] the input V#, s[4:7] the output V#, s[8:11] the probe V# (buffer cases;
 *   zeros otherwise), s12 the group's x id (TGID_X_EN);
 * - vector cases: input word k of a row in v(10+k), output word j written by the body to
 *   v(40+j); one lane per row (row = group * wave size + lane); v0 the lane, v1 its byte
 *   offset, s13 the group's byte offset, s14 a scratch SGPR of the harness; the body may use
 *   v60-v127 and s24-s39;
 * - scalar cases: one row at a time in lane 0 only (EXEC = 1): input word k in s(16+k), the
 *   body writes output word j to s(20+j); the body may use s24-s39 (and VCC, M0).
 */
import type { Json, Spec } from '../corpus-kernels/common.ts';
import { Gen } from '../../src/isa/gen.ts';
import type { EdgeTarget } from './targets.ts';

/** Float exception and mode bits of COMPUTE_PGM_RSRC1 the case sets (defaults: docs/capture-spec.md). */
export interface DispatchMode {
  /** RSRC1.FLOAT_MODE: MODE[7:0] at wave start, [3:0] round modes, [5:4] f32 denormals, [7:6] f64/f16 denormals. */
  readonly float_mode?: number;
  readonly ieee_mode?: 0 | 1;
  readonly dx10_clamp?: 0 | 1;
}

/**
 * How the outputs are compared: exact words, or with NaN matching NaN whatever its payload
 * (`nan`: a ULP compare with 0 ULPs, for results whose NaN payload no document fixes; such a
 * compare also takes -0 for +0, so cases that check a zero's sign use `exact`).
 */
export type OutputCompare = 'exact' | { readonly nan: 'f16' | 'f32' | 'f64' };

interface CaseCommon {
  /** `group/name`, unique. */
  readonly id: string;
  /** Where the expectation comes from: AMD document and section, IEEE 754 section, DESCRIPTORS.md section. */
  readonly cite: string;
  /** The targets the case applies to (the instruction exists there and the expectation holds). */
  readonly targets: (t: EdgeTarget) => boolean;
  readonly mode?: DispatchMode;
  /** Default exact; a function where the documents fix a NaN's bits on some targets only. */
  readonly compare?: OutputCompare | ((t: EdgeTarget) => OutputCompare);
  /** Input words per row. */
  readonly ins: number;
  /** Output words per row. */
  readonly outs: number;
  /** Assembly text using the registers above (a function where spellings differ per target). */
  readonly body: string | ((t: EdgeTarget) => string);
  /** Each row: its input words, then its expected output words (a function where they differ per target). */
  readonly rows: readonly (readonly number[])[] | ((t: EdgeTarget) => readonly (readonly number[])[]);
}

export interface VectorCase extends CaseCommon {
  readonly kind: 'vector';
  /** Buffer cases: a V# in s[8:11] over a region of its own, and what that region holds after. */
  readonly probe?: Probe;
}

export interface ScalarCase extends CaseCommon {
  readonly kind: 'scalar';
}

export interface Probe {
  /** The V#'s fields (`src/host/descriptors` names), without the address (the probe region's). */
  readonly descriptor: (t: EdgeTarget) => Record<string, Json>;
  /** The probe region's words before the dispatch. */
  readonly data: readonly number[];
  /** Its words after (stores); absent: not compared (loads only). */
  readonly after?: (t: EdgeTarget) => readonly number[];
}

export type EdgeCase = VectorCase | ScalarCase;

const IN = 0x30000000;
const OUT = 0x30100000;
const PROBE = 0x30200000;
const FILL = 0xcdcdcdcd;

/** A raw storage V# over `bytes` bytes (stride 0, NUM_RECORDS in bytes), as RADV writes one per generation. */
export function rawBuffer(t: EdgeTarget, bytes: number): Record<string, Json> {
  const sel = { dst_sel_x: 'x', dst_sel_y: 'y', dst_sel_z: 'z', dst_sel_w: 'w' };
  // BUF_FMT_32_FLOAT is 22 in both unified tables (gfx10.3, gfx11); DATA_FORMAT 4 = 32, NUM_FORMAT 7 = FLOAT before.
  if (t.gen === Gen.GFX11) return { num_records: bytes, ...sel, format: 22, oob_select: 3 };
  if (t.gen >= Gen.GFX10) return { num_records: bytes, ...sel, format: 22, oob_select: 3, resource_level: 1 };
  return { num_records: bytes, ...sel, data_format: 4, num_format: 7 };
}

function load(t: EdgeTarget, bytes: 4 | 16): string {
  if (t.gen === Gen.GFX11) return bytes === 4 ? 'buffer_load_b32' : 's_buffer_load_b128';
  return bytes === 4 ? 'buffer_load_dword' : 's_buffer_load_dwordx4';
}
const store = (t: EdgeTarget): string => (t.gen === Gen.GFX11 ? 'buffer_store_b32' : 'buffer_store_dword');

export function rowsOf(c: EdgeCase, t: EdgeTarget): readonly (readonly number[])[] {
  const rows = typeof c.rows === 'function' ? c.rows(t) : c.rows;
  rows.forEach((r, i) => {
    if (r.length !== c.ins + c.outs)
      throw new Error(`${c.id} row ${i}: ${r.length} words, the case has ${c.ins} in + ${c.outs} out`);
  });
  return rows;
}
export const bodyOf = (c: EdgeCase, t: EdgeTarget): string => (typeof c.body === 'function' ? c.body(t) : c.body);

/** Rows laid over whole waves: row e of the dispatch is the case's row e mod count, so every lane runs a documented row. */
function padded(rows: readonly (readonly number[])[], waveSize: number): readonly (readonly number[])[] {
  const n = Math.ceil(rows.length / waveSize) * waveSize;
  return Array.from({ length: n }, (_, e) => rows[e % rows.length]);
}

function compareOf(c: EdgeCase, t: EdgeTarget): Json {
  const k = (typeof c.compare === 'function' ? c.compare(t) : c.compare) ?? 'exact';
  return k === 'exact' ? { kind: 'exact' } : { kind: 'ulp', element: k.nan, ulps: 0 };
}

function programVector(c: VectorCase, t: EdgeTarget, lanes: number): string {
  const column = (k: number): number => k * lanes * 4;
  const lines = [
    `s_mul_i32 s13, s12, ${t.waveSize * 4}`, // the group's first row, in bytes
    'v_lshlrev_b32 v1, 2, v0', // this lane's row, in bytes
  ];
  for (let k = 0; k < c.ins; k++)
    lines.push(`s_add_u32 s14, s13, ${column(k)}`, `${load(t, 4)} v${10 + k}, v1, s[0:3], s14 offen`);
  lines.push('s_waitcnt vmcnt(0)', bodyOf(c, t));
  for (let j = 0; j < c.outs; j++)
    lines.push(`s_add_u32 s14, s13, ${column(j)}`, `${store(t)} v${40 + j}, v1, s[4:7], s14 offen`);
  lines.push('s_endpgm');
  return lines.join('\n');
}

function programScalar(c: ScalarCase, t: EdgeTarget, rows: number): string {
  const lines = [`s_mov_b${t.maskBits} ${t.exec}, 1`];
  for (let r = 0; r < rows; r++) {
    lines.push(
      `s_mov_b32 s14, ${r * 16}`,
      `${load(t, 16)} s[16:19], s[0:3], s14`,
      's_waitcnt lgkmcnt(0)',
      bodyOf(c, t),
    );
    for (let j = 0; j < c.outs; j++)
      lines.push(
        `v_mov_b32 v2, s${20 + j}`,
        `s_mov_b32 s14, ${(r * c.outs + j) * 4}`,
        `${store(t)} v2, off, s[4:7], s14`,
      );
  }
  lines.push('s_waitcnt vmcnt(0)', 's_endpgm');
  return lines.join('\n');
}

const words = (values: readonly number[]): Json => ({ type: 'u32', values: values.map((v) => v >>> 0) });

/** The capture spec of a case on a target, or undefined where the case does not apply. */
export function edgeCaseSpec(c: EdgeCase, t: EdgeTarget): Spec | undefined {
  if (!c.targets(t)) return undefined;
  if (c.kind === 'scalar' && c.ins > 4) throw new Error(`${c.id}: a scalar case reads at most 4 input words`);
  if (c.kind === 'scalar' && c.outs > 4) throw new Error(`${c.id}: a scalar case writes at most 4 output words`);
  const rows = rowsOf(c, t);
  if (rows.length === 0) throw new Error(`${c.id}: no rows`);
  const cmp = compareOf(c, t);
  let asm: string;
  let inData: number[];
  let expected: Json[];
  let outWords: number;
  let groups = 1;
  if (c.kind === 'vector') {
    const all = padded(rows, t.waveSize);
    groups = all.length / t.waveSize;
    asm = programVector(c, t, all.length);
    inData = [];
    for (let k = 0; k < c.ins; k++) inData.push(...all.map((r) => r[k]));
    outWords = c.outs * all.length;
    expected = Array.from({ length: c.outs }, (_, j) => ({
      address: { region: 'out', offset: j * all.length * 4 },
      data: words(all.map((r) => r[c.ins + j])),
      compare: cmp,
    }));
  } else {
    asm = programScalar(c, t, rows.length);
    inData = rows.flatMap((r) => [...r.slice(0, c.ins), ...Array<number>(4 - c.ins).fill(0)]);
    outWords = rows.length * c.outs;
    expected = [{ address: 'out', data: words(rows.flatMap((r) => r.slice(c.ins))), compare: cmp }];
  }
  const probe = c.kind === 'vector' ? c.probe : undefined;
  const memory: Json[] = [
    { name: 'in', address: IN, data: words(inData.length ? inData : [0]) },
    { name: 'out', address: OUT, data: words(Array<number>(Math.max(outWords, 1)).fill(FILL)) },
  ];
  if (probe) {
    memory.push({ name: 'probe', address: PROBE, data: words(probe.data) });
    const after = probe.after?.(t);
    if (after) {
      if (after.length !== probe.data.length) throw new Error(`${c.id}: the probe's after has the wrong length`);
      expected.push({ address: 'probe', data: words(after), compare: { kind: 'exact' } });
    }
  }
  const inBytes = Math.max(inData.length, 1) * 4;
  const descriptor = (fields: Record<string, Json>, region: string): Json => ({
    buffer: { ...fields, address: region },
  });
  return {
    target: t.mcpu,
    wave64: t.wave64,
    program: { asm },
    registers: {
      vgprs: 128,
      sgprs: 104,
      ...(c.mode ? { rsrc1: { ...c.mode } } : {}),
      rsrc2: { tgid_x_en: 1 },
    },
    user_data: [
      descriptor(rawBuffer(t, inBytes), 'in'),
      descriptor(rawBuffer(t, outWords * 4), 'out'),
      probe ? descriptor(probe.descriptor(t), 'probe') : { words: [0, 0, 0, 0] },
    ],
    grid: [groups],
    thread_group: [t.waveSize],
    memory,
    expected: {
      source: { kind: 'tool', tool: 'test/edge-cases (expected from the documents)', revision: c.id },
      memory: expected,
    },
    provenance: { notes: `${c.id}: ${c.cite}` },
  };
}
