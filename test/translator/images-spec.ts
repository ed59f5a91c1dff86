/**
 * Small image captures for the translator's image tests (D015), built with the capture spec
 * (docs/capture-spec.md) and given the interpreter's result as their expectation: 16 lanes of
 * gfx1030 wave32 each read their address words (up to four u32 or f32 a lane) through an
 * ADD_TID V#, run one image instruction with the T# in s[0:7] and the S# in s[8:11], and store
 * v[4:7] through another V#.
 */
import { buildCapture, readCapture, writeCapture, type Capture } from '../../src/host/capture/index.ts';
import { completeBuilt } from '../../src/cli/expected-by-interpreter.ts';
import { FILTERED_SAMPLE_ULPS } from '../../src/translator/image-ops.ts';
import { IDENTITY_SWIZZLE, IMAGE_TYPE, laneBuffer } from '../../e2e/fixtures/descriptor-spec.ts';

export const LANES = 16;
/** The output's bytes before the dispatch. */
export const OUT_FILL = 0xee;

export interface ImageCase {
  readonly name: string;
  /** The image instruction, reading v[0:3] and writing v[4:7]. */
  readonly instruction: string;
  /** Address words per lane (u32 numbers or floats, as `type` says). */
  readonly address: readonly (readonly number[])[];
  readonly addressType: 'u32' | 'f32';
  /** Raw T# fields besides the address (gfx1030 names). */
  readonly image: Readonly<Record<string, number | string>>;
  /** The generated texels (docs/capture-spec.md "Generated images"). */
  readonly texels: Readonly<Record<string, number | string>>;
  readonly sampler?: Readonly<Record<string, number>>;
  /** A filtered result: compared within FILTERED_SAMPLE_ULPS, else exactly. */
  readonly filtered?: boolean;
  /** The T# is also the table's third record (bytes 0x20..0x3f), for a load at a fixed place. */
  readonly tableImage?: boolean;
  /** Every lane's result is the same word (a constant component, a compare by `never` or `always`). */
  readonly uniform?: boolean;
}

/** The spec of a case (expected: the interpreter's result). */
export function imageSpec(c: ImageCase): Record<string, unknown> {
  const words = c.address.flatMap((lane) => [0, 1, 2, 3].map((i) => lane[i] ?? 0));
  const vsharp = (name: string, address: string, stride: number) => laneBuffer(name, address, stride, LANES);
  const image = {
    name: c.name,
    address: 'texels',
    ...IDENTITY_SWIZZLE,
    type: IMAGE_TYPE.flat,
    sw_mode: 0,
    resource_level: 1,
    ...c.image,
  };
  return {
    target: 'gfx1030',
    program: {
      address: 0x10000000,
      asm: `s_load_dwordx8 s[16:23], s[12:13], 0x0
        s_waitcnt lgkmcnt(0)
        buffer_load_dwordx4 v[0:3], off, s[16:19], 0
        s_waitcnt vmcnt(0)
        ${c.instruction}
        s_waitcnt vmcnt(0)
        buffer_store_dwordx4 v[4:7], off, s[20:23], 0
        s_endpgm`,
    },
    registers: { vgprs: 8, sgprs: 24 },
    user_data: [{ image }, { sampler: { max_lod: 0xf00, ...c.sampler } }, { pointer: 'table' }],
    grid: [1],
    thread_group: [LANES],
    memory: [
      { name: 'texels', address: 0x40000000, data: { image: c.texels } },
      {
        name: 'table',
        address: 0x20000000,
        data: {
          descriptors: [
            vsharp('address', 'addr', 16),
            vsharp('output', 'out', 16),
            ...(c.tableImage ? [{ image: { ...image, name: `${c.name} (table)` } }] : []),
          ],
        },
      },
      { name: 'addr', address: 0x30000000, data: { type: c.addressType, values: words } },
      // Filled, so a result of 0 (a compare by `never`) is a write the comparison sees.
      { name: 'out', address: 0x30010000, data: { fill: OUT_FILL, size: 16 * LANES } },
    ],
    expected: {
      compute: 'interpreter',
      ...(c.filtered ? { compare: { kind: 'ulp', element: 'f32', ulps: FILTERED_SAMPLE_ULPS } } : {}),
    },
  };
}

/** The case built with no expectation (for translating only). */
export async function imageCaptureUnchecked(c: ImageCase, asm?: string): Promise<Capture> {
  const spec = imageSpec(c);
  delete spec.expected;
  if (asm !== undefined) spec.program = { address: 0x10000000, asm };
  const built = await buildCapture(spec as Parameters<typeof buildCapture>[0]);
  return readCapture(await writeCapture(built.manifest, built.blobs));
}

/** The case built, its expectation the interpreter's (throws where the interpreter refuses). */
export async function imageCapture(c: ImageCase): Promise<Capture> {
  const built = await buildCapture(imageSpec(c) as Parameters<typeof buildCapture>[0], { interpreterFollows: true });
  const done = await completeBuilt(built);
  if (done.kind !== 'written') throw new Error(`${c.name}: the interpreter gave no result: ${JSON.stringify(done)}`);
  return readCapture(await writeCapture(done.manifest, done.blobs));
}
