/**
 * radv/texel_buffer_formats.comp, WG 64: texelFetch from uniform texel buffers b9[0..3]
 * (R8G8B8A8_UNORM, R16G16_SFLOAT, R32_UINT, A2B10G10R10_UNORM_PACK32), imageLoad from the
 * storage texel buffer b10[0] at i + 64, textureSize(b9[0]) and imageSize(b10[3]), written to
 * b2 as 6 vec4 per invocation; then imageStore to b10[0..3] in the same formats (the
 * contract in the source's header). Conversions as Vulkan 1.3 "Fixed-Point Data Conversions"
 * (unorm: c / (2^b - 1); float to unorm: round(clamp(f, 0, 1) * (2^b - 1))) and IEEE binary16
 * (half to float exact, float to half to nearest even); missing channels read 0, 0, 1.
 * The element counts differ (b9[0] 80 texels, b10[3] 72) so the sizes are told apart, and
 * b10[3]'s texels 64..71 must survive the stores to 0..63.
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';
import {
  BUFFER_DESCRIPTOR_BYTES,
  RADV_SET,
  TEXEL_FORMATS,
  f16Bits,
  f16Of,
  f32Bits,
  texelBuffer,
} from './radv-buffer-common.ts';

const LANES = 64;
const SIZE_B9_0 = 80;
const SIZE_B10_0 = 128;
const SIZE_B10_3 = 72;

const unorm = (c: number, bits: number): number => Math.fround(c / (2 ** bits - 1));
/** Float to unorm (Vulkan: round to nearest; the values here are never halfway). */
const toUnorm = (f: number, bits: number): number => Math.round(Math.min(Math.max(f, 0), 1) * (2 ** bits - 1));

const rgba8 = (w: number): number[] => [0, 8, 16, 24].map((s) => unorm((w >>> s) & 0xff, 8));
const rgb10a2 = (w: number): number[] => [
  unorm(w & 0x3ff, 10),
  unorm((w >>> 10) & 0x3ff, 10),
  unorm((w >>> 20) & 0x3ff, 10),
  unorm(w >>> 30, 2),
];

export interface TexelInputs {
  /** b9[0..3]: texel words. */
  readonly utb: readonly (readonly number[])[];
  /** b10[0..3] before the dispatch. */
  readonly stb: readonly (readonly number[])[];
}

/** The output o[] (words) and b10[0..3] after the dispatch. */
export function reference({ utb, stb }: TexelInputs): { o: number[]; stb: number[][] } {
  const o: number[] = [];
  const after = stb.map((b) => [...b]);
  for (let i = 0; i < LANES; i++) {
    const A = rgba8(utb[0][i]);
    const B = [f16Of(utb[1][i] & 0xffff), f16Of(utb[1][i] >>> 16), 0, 1];
    const C = [utb[2][i] >>> 0, 0, 0, 1];
    const D = rgb10a2(utb[3][i]);
    const L = rgba8(stb[0][i + 64]);
    o.push(...A.map(f32Bits), ...B.map(f32Bits), ...C, ...D.map(f32Bits), ...L.map(f32Bits));
    o.push(f32Bits(SIZE_B9_0), f32Bits(SIZE_B10_3), 0, 0);
    const [ax, ay, az, aw] = A;
    after[0][i] = (toUnorm(aw, 8) | (toUnorm(az, 8) << 8) | (toUnorm(ay, 8) << 16) | (toUnorm(ax, 8) << 24)) >>> 0;
    after[1][i] = (f16Bits(Math.fround(B[1] * 2), false) | (f16Bits(Math.fround(B[0] * 2), false) << 16)) >>> 0;
    after[2][i] = (C[0] + 1) >>> 0;
    const [dx, dy, dz, dw] = D;
    after[3][i] =
      (toUnorm(dz, 10) | (toUnorm(dy, 10) << 10) | (toUnorm(dx, 10) << 20) | (toUnorm(dw, 2) * 2 ** 30)) >>> 0;
  }
  return { o, stb: after };
}

/** A random finite half below 2^15 in magnitude (so twice it stays finite), denormals and -0 included. */
function half(r: () => number, k: number): number {
  if (k === 0) return 0x8000;
  if (k === 1) return 0x0001 | (r() & 0x8000);
  if (k === 2) return 0x03ff;
  return ((r() & 0x8000) | ((r() % 30) << 10) | (r() & 0x3ff)) >>> 0;
}

export const kernel: CorpusKernel = {
  id: 'radv/texel_buffer_formats',
  spec(t) {
    const r = rng(0x7e1b);
    const words = (n: number): number[] => Array.from({ length: n }, () => r());
    const r32 = words(SIZE_B9_0);
    r32[0] = 0xffffffff; // C.x + 1 wraps
    r32[1] = 0;
    const utb = [
      words(SIZE_B9_0),
      Array.from({ length: LANES }, (_, i) => (half(r, i % 8) | (half(r, (i >> 3) % 8) << 16)) >>> 0),
      r32.slice(0, LANES),
      [0, 0xffffffff, ...words(LANES - 2)],
    ];
    const stb = [words(SIZE_B10_0), words(LANES), words(LANES), words(SIZE_B10_3)];
    const ref = reference({ utb, stb });
    const F = TEXEL_FORMATS;
    const formats = [F.rgba8Unorm, F.rg16Float, F.r32Uint, F.a2b10g10r10Unorm];
    const utbRegion = (k: number): string => `utb${k}`;
    const stbRegion = (k: number): string => `stb${k}`;
    return radvSpec(t, 'texel_buffer_formats', {
      set: [
        { offset: RADV_BINDING.b2, descriptor: storageBuffer(t, 'out', LANES * 96) },
        ...formats.map((f, k) => ({
          offset: RADV_SET.b9 + k * BUFFER_DESCRIPTOR_BYTES,
          descriptor: texelBuffer(t, utbRegion(k), f, utb[k].length),
        })),
        ...formats.map((f, k) => ({
          offset: RADV_SET.b10 + k * BUFFER_DESCRIPTOR_BYTES,
          descriptor: texelBuffer(t, stbRegion(k), f, stb[k].length),
        })),
      ],
      group: LANES,
      memory: [
        { name: 'out', address: 0x30000000, data: { fill: 0xcd, size: LANES * 96 } },
        ...utb.map((w, k) => ({ name: utbRegion(k), address: 0x30100000 + k * 0x1000, data: u32(w) })),
        ...stb.map((w, k) => ({ name: stbRegion(k), address: 0x30200000 + k * 0x1000, data: u32(w) })),
      ],
      expected: [
        { address: 'out', data: u32(ref.o) },
        ...ref.stb.map((w, k) => ({ address: stbRegion(k), data: u32(w) })),
      ],
    });
  },
};
