/**
 * Texel decoding (D006): element formats of every family against hand-computed elements,
 * number-format edge cases (snorm -128, sRGB endpoints, f16 denormals/Inf/NaN, 11/10-bit
 * floats, 9995), the bulk path against the per-element path for every modelled format of
 * every generation, BC1-BC7 against hand-built blocks (every BC7 mode, five BC6H cases) and
 * against small independent encoders written here, the WebGPU mapping table, and finally
 * random BC blocks sampled by SwiftShader (Dawn for Node) against the CPU decode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_GENS, GEN_NAMES, Gen } from '../../src/isa/gen.ts';
import {
  DescriptorError,
  legacyBufferFormat,
  legacyImageFormat,
  unifiedFormat,
  unifiedFormatTable,
  type FormatInfo,
} from '../../src/host/descriptors/index.ts';
import { ANCHORS_2, ANCHORS_3A, ANCHORS_3B, PARTITIONS_2, PARTITIONS_3 } from '../../src/host/texels/bc.ts';
import {
  BC6H_MODES,
  BC_BLOCK_BYTES,
  TexelFormatError,
  chooseTexture,
  decodeBc1Block,
  decodeBc2Block,
  decodeBc3Block,
  decodeBc4Block,
  decodeBc6hBlock,
  decodeBc7Block,
  decodeBcImage,
  decodeElement,
  decodeImageLevel,
  decodeUnorm8Level,
  f16ToFloat,
  imageTexelFormat,
  texelFormat,
  ufloatToFloat,
  webgpuFormatEntry,
  type BcKind,
  type TexelFormat,
  type TexelFormatErrorCode,
} from '../../src/host/texels/index.ts';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';

// ---------------------------------------------------------------- helpers

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBytes(n: number, seed: number): Uint8Array {
  const r = rng(seed);
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(r() * 256);
  return b;
}

const le16 = (w: number): number[] => [w & 0xff, (w >> 8) & 0xff];
const le32 = (w: number): number[] => [w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, (w >>> 24) & 0xff];
const f32le = (v: number): number[] => Array.from(new Uint8Array(new Float32Array([v]).buffer));

/** gfx10.3 unified formats by name, and gfx7 split formats by (data, num). */
function g103(value: number): TexelFormat {
  return imageTexelFormat(Gen.GFX10_3, value);
}
function g7(data: number, num: number): TexelFormat {
  return imageTexelFormat(Gen.GFX7, data, num);
}

function rgba(tf: TexelFormat, bytes: number[]): [number, number, number, number] {
  const e = decodeElement(tf, Uint8Array.from(bytes), 0);
  return [e.r, e.g, e.b, e.a];
}

function expectCode(fn: () => unknown, code: TexelFormatErrorCode): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TexelFormatError);
    expect((e as TexelFormatError).code).toBe(code);
    return;
  }
  throw new Error(`expected TexelFormatError ${code}`);
}

/** The sRGB curve as IEC 61966-2-1 writes it, restated here (not imported). */
const srgb = (c: number): number => (c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4));

/** LSB-first bit writer for hand-built BC6H/BC7 blocks. */
class BitWriter {
  readonly bytes = new Uint8Array(16);
  pos = 0;
  put(value: number, bits: number): this {
    for (let i = 0; i < bits; i++, this.pos++) if ((value >>> i) & 1) this.bytes[this.pos >> 3] |= 1 << (this.pos & 7);
    return this;
  }
  at(pos: number): this {
    this.pos = pos;
    return this;
  }
}

// ---------------------------------------------------------------- scalar conversions

describe('number conversions', () => {
  it('f16: normals, denormals, infinities, NaN', () => {
    expect(f16ToFloat(0x3c00)).toBe(1);
    expect(f16ToFloat(0xc000)).toBe(-2);
    expect(f16ToFloat(0x7bff)).toBe(65504); // largest normal: (2 - 2^-10) * 2^15
    expect(f16ToFloat(0x0400)).toBe(2 ** -14); // smallest normal
    expect(f16ToFloat(0x0001)).toBe(2 ** -24); // smallest denormal
    expect(f16ToFloat(0x03ff)).toBe(1023 * 2 ** -24); // largest denormal
    expect(f16ToFloat(0x8000)).toBe(-0);
    expect(f16ToFloat(0x7c00)).toBe(Infinity);
    expect(f16ToFloat(0xfc00)).toBe(-Infinity);
    expect(f16ToFloat(0x7e00)).toBeNaN();
    expect(f16ToFloat(0x7c01)).toBeNaN();
  });

  it('11-bit and 10-bit unsigned floats', () => {
    // 11-bit: eeeee mmmmmm, bias 15. 1.0 = e 15 = 15 << 6 = 0x3c0.
    expect(ufloatToFloat(0x3c0, 6)).toBe(1);
    expect(ufloatToFloat(0x7bf, 6)).toBe((1 + 63 / 64) * 2 ** 15); // 65024, the largest
    expect(ufloatToFloat(0x001, 6)).toBe(2 ** -20); // denormal: 1/64 * 2^-14
    expect(ufloatToFloat(0x7c0, 6)).toBe(Infinity);
    expect(ufloatToFloat(0x7c1, 6)).toBeNaN();
    // 10-bit: eeeee mmmmm. 1.0 = 15 << 5 = 0x1e0.
    expect(ufloatToFloat(0x1e0, 5)).toBe(1);
    expect(ufloatToFloat(0x3df, 5)).toBe((1 + 31 / 32) * 2 ** 15); // 64512
    expect(ufloatToFloat(0x001, 5)).toBe(2 ** -19);
    expect(ufloatToFloat(0x3e0, 5)).toBe(Infinity);
  });
});

// ---------------------------------------------------------------- element formats

describe('element formats, hand-computed', () => {
  it('8-bit: unorm, snorm (-128 and -127 both -1), uscaled, sscaled, uint, sint', () => {
    expect(rgba(g103(1), [0x80])).toEqual([Math.fround(128 / 255), 0, 0, 1]); // 8_UNORM
    expect(rgba(g103(2), [0x80])[0]).toBe(-1); // 8_SNORM -128
    expect(rgba(g103(2), [0x81])[0]).toBe(-1); // -127 / 127
    expect(rgba(g103(2), [0x7f])[0]).toBe(1);
    expect(rgba(g103(2), [0x01])[0]).toBe(Math.fround(1 / 127));
    expect(rgba(g103(3), [200])[0]).toBe(200); // USCALED
    expect(rgba(g103(4), [0xff])[0]).toBe(-1); // SSCALED
    expect(rgba(g103(5), [200])).toEqual([200, 0, 0, 1]); // UINT, alpha defaults to integer 1
    expect(rgba(g103(6), [0xc8])).toEqual([-56, 0, 0, 1]); // SINT
    expect(decodeElement(g103(5), Uint8Array.of(1), 0).kind).toBe('uint');
  });

  it('gfx7 SNORM_OGL: (2c + 1) / (2^n - 1)', () => {
    const tf = g7(1, 6); // DATA 8, NUM 6
    expect(tf.info.name).toBe('8_SNORM_OGL');
    expect(rgba(tf, [0x80])[0]).toBe(-1); // (2*-128 + 1)/255
    expect(rgba(tf, [0x7f])[0]).toBe(1);
    expect(rgba(tf, [0x00])[0]).toBe(Math.fround(1 / 255));
  });

  it('16 and 32 bits: unorm, snorm, float, uint, sint', () => {
    expect(rgba(g103(7), le16(0xffff))[0]).toBe(1); // 16_UNORM
    expect(rgba(g103(8), le16(0x8000))[0]).toBe(-1); // 16_SNORM -32768
    expect(rgba(g103(8), le16(0x8001))[0]).toBe(-1);
    expect(rgba(g103(13), le16(0x3c00))[0]).toBe(1); // 16_FLOAT
    expect(rgba(g103(13), le16(0x0001))[0]).toBe(Math.fround(2 ** -24)); // denormal half
    expect(rgba(g103(13), le16(0xfc00))[0]).toBe(-Infinity);
    expect(rgba(g103(29), [...le16(0x3c00), ...le16(0xc000)])).toEqual([1, -2, 0, 1]); // 16_16_FLOAT
    expect(rgba(g103(20), le32(0xffffffff))[0]).toBe(4294967295); // 32_UINT
    expect(rgba(g103(21), le32(0xffffffff))[0]).toBe(-1); // 32_SINT
    expect(rgba(g103(22), f32le(1.5))[0]).toBe(1.5); // 32_FLOAT
    const v = rgba(g103(74), [...f32le(1), ...f32le(-2), ...f32le(0.25)]); // 32_32_32_FLOAT
    expect(v).toEqual([1, -2, 0.25, 1]);
    expect(rgba(g103(75), [...le32(1), ...le32(2), ...le32(3), ...le32(4)])).toEqual([1, 2, 3, 4]); // 32x4 UINT
  });

  it('sRGB: exact curve on RGB, alpha linear, endpoints 0 and 255', () => {
    const tf = g103(130); // 8_8_8_8_SRGB
    const [r, g, b, a] = rgba(tf, [0, 255, 188, 128]);
    expect(r).toBe(0);
    expect(g).toBe(1);
    expect(b).toBe(Math.fround(Math.pow((188 / 255 + 0.055) / 1.055, 2.4))); // power segment
    expect(a).toBe(Math.fround(128 / 255)); // alpha is not converted
    expect(rgba(tf, [10, 0, 0, 255])[0]).toBe(Math.fround(10 / 255 / 12.92)); // linear segment (10/255 < 0.04045)
    expect(rgba(g103(128), [255])).toEqual([1, 0, 0, 1]); // 8_SRGB
    expect(g7(10, 9).info.name).toBe('8_8_8_8_SRGB'); // gfx7 DATA 10 + NUM 9
  });

  it('packed 16-bit formats: component X is the lowest field', () => {
    expect(rgba(g103(133), le16(0x001f))).toEqual([1, 0, 0, 1]); // 5_6_5: X = bits [4:0]
    expect(rgba(g103(133), le16(0x07e0))).toEqual([0, 1, 0, 1]); // Y = bits [10:5]
    expect(rgba(g103(133), le16(0xf800))).toEqual([0, 0, 1, 1]); // Z = bits [15:11]
    expect(rgba(g103(134), le16(0x8000))).toEqual([0, 0, 0, 1]); // 1_5_5_5: W = bit 15
    expect(rgba(g103(134), le16(0x001f))).toEqual([1, 0, 0, 0]);
    expect(rgba(g103(135), le16(0x0001))).toEqual([1, 0, 0, 0]); // 5_5_5_1: X = bit 0
    expect(rgba(g103(135), le16(0xf800))).toEqual([0, 0, 0, 1]); // W = bits [15:11]
    const f = (n: number): number => Math.fround(n / 15);
    expect(rgba(g103(136), le16(0x4321))).toEqual([f(1), f(2), f(3), f(4)]); // 4_4_4_4
    expect(rgba(g103(137), [0x21])).toEqual([f(1), f(2), 0, 1]); // 4_4
  });

  it('packed 32-bit formats: 2_10_10_10, 10_10_10_2, 10_11_11, 11_11_10', () => {
    expect(rgba(g103(50), le32((3 << 30) | 1023))).toEqual([1, 0, 0, 1]); // 2_10_10_10_UNORM (rgb10a2)
    expect(rgba(g103(50), le32(512 << 10))[1]).toBe(Math.fround(512 / 1023));
    expect(rgba(g103(51), le32(2 << 30))[3]).toBe(-1); // 2-bit snorm alpha: -2 -> -1
    expect(rgba(g103(54), le32((2 << 30) | (7 << 20)))).toEqual([0, 0, 7, 2]); // 2_10_10_10_UINT
    expect(rgba(g103(44), le32(3))).toEqual([1, 0, 0, 0]); // 10_10_10_2: X = 2 bits at [1:0]
    expect(rgba(g103(44), le32(1023 << 22))).toEqual([0, 0, 0, 1]); // W = [31:22]
    // 10_11_11_FLOAT: X 11 bits [10:0] = 1.0, Y 11 bits = 0x400 (e 16: 2.0), Z 10 bits [31:22] = 1.0.
    expect(rgba(g103(36), le32(0x3c0 | (0x400 << 11) | (0x1e0 << 22)))).toEqual([1, 2, 1, 1]);
    // 11_11_10_FLOAT: X 10 bits = 1.0, Y 11 bits = 1.0, Z 11 bits [31:21] = Inf.
    expect(rgba(g103(43), le32(0x1e0 | (0x3c0 << 10) | (0x7c0 << 21)))).toEqual([1, 1, Infinity, 1]);
    // 11-bit denormal 1 in X: 2^-20
    expect(rgba(g103(36), le32(1))[0]).toBe(Math.fround(2 ** -20));
  });

  it('5_9_9_9 shared exponent: m * 2^(E - 15 - 9)', () => {
    // E = 16: R 256 -> 1.0, G 128 -> 0.5, B 0.
    expect(rgba(g103(132), le32(256 | (128 << 9) | (16 << 27)))).toEqual([1, 0.5, 0, 1]);
    // The largest value, 511 * 2^7 = 65408 (EXT_texture_shared_exponent's MAX_RGB9E5).
    expect(rgba(g103(132), le32(511 | (511 << 9) | (511 << 18) | (31 << 27)))).toEqual([65408, 65408, 65408, 1]);
    // E = 0, m = 1: the smallest, 2^-24.
    expect(rgba(g103(132), le32(1))[0]).toBe(Math.fround(2 ** -24));
  });

  it('depth-stencil: 8_24, 24_8, X24_8_32', () => {
    expect(rgba(g103(141), le32(0xff000000 | 0xffffff))).toEqual([1, 1, 0, 1]); // depth 24 low, stencil high
    expect(rgba(g103(141), le32(0x800000))[0]).toBe(Math.fround(0x800000 / 0xffffff));
    expect(rgba(g103(142), le32((0x12 << 24) | 0x345678))).toEqual([0x345678, 0x12, 0, 1]); // 8_24_UINT
    expect(rgba(g103(144), le32((0x345678 << 8) | 0x12))).toEqual([0x12, 0x345678, 0, 1]); // 24_8_UINT: X stencil
    expect(rgba(g103(146), [...f32le(0.25), 0x7f, 0, 0, 0])).toEqual([0.25, 127, 0, 1]); // X24_8_32_FLOAT
    expect(rgba(g103(145), [...le32(0x3e800000), 0x7f, 0xff, 0xff, 0xff])).toEqual([0x3e800000, 0x7f, 0, 1]);
  });

  it('V# buffer formats decode through the same tables', () => {
    const f = texelFormat(legacyBufferFormat(Gen.GFX8, 14, 7)); // BUF_DATA 32_32_32_32, NUM FLOAT
    expect(rgba(f, [...f32le(1), ...f32le(2), ...f32le(3), ...f32le(4)])).toEqual([1, 2, 3, 4]);
    const u = texelFormat(unifiedFormat(Gen.GFX10_3, 60, 'buffer')); // 8_8_8_8_UINT
    expect(rgba(u, [1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
  });

  it('gfx11 renumbered formats resolve to the same layouts', () => {
    expect(imageTexelFormat(Gen.GFX11, 66).info.name).toBe('8_8_8_8_SRGB');
    expect(imageTexelFormat(Gen.GFX11, 109).info.name).toBe('BC1_UNORM');
    expect(imageTexelFormat(Gen.GFX10_3, 169).info.name).toBe('BC1_UNORM');
    expect(imageTexelFormat(Gen.GFX10_3, 173).info.name).toBe('BC3_UNORM');
  });
});

describe('named refusals', () => {
  it('refuses what is not modelled, never decoding garbage', () => {
    expectCode(() => g103(156), 'unmodelled-data-format'); // FMASK
    expectCode(() => g103(147), 'unmodelled-data-format'); // GB_GR
    expectCode(() => g103(131), 'unmodelled-data-format'); // 6E4
    expectCode(() => g103(138), 'unmodelled-data-format'); // 1-bit
    expectCode(() => g103(0), 'unmodelled-data-format'); // INVALID
    expectCode(() => g103(140), 'unmodelled-number-format'); // 32_FLOAT_CLAMP
    expectCode(() => g7(1, 7), 'unmodelled-number-format'); // 8 + FLOAT
    expectCode(() => g7(2, 9), 'unmodelled-number-format'); // 16 + SRGB
    expectCode(() => g7(10, 10), 'unmodelled-number-format'); // UBNORM
    expectCode(() => imageTexelFormat(Gen.GFX9, 20, 6), 'unmodelled-number-format'); // UNORM_UINT
    expectCode(() => g7(35, 1), 'unmodelled-number-format'); // BC1 SNORM
    expectCode(() => imageTexelFormat(Gen.GFX9, 24, 0), 'unmodelled-data-format'); // ETC2
    expectCode(() => imageTexelFormat(Gen.GFX10_3, 500), 'unknown-format');
    expectCode(() => imageTexelFormat(Gen.GFX7, 10), 'unknown-format'); // no NUM_FORMAT
    expectCode(() => decodeElement(g103(169), new Uint8Array(8), 0), 'block-compressed');
    expectCode(() => decodeElement(g103(56), new Uint8Array(3), 0), 'out-of-bounds');
    expectCode(() => decodeImageLevel(g103(56), new Uint8Array(64), 4, 5), 'out-of-bounds');
    expectCode(() => decodeImageLevel(g103(56), new Uint8Array(64), 0, 1), 'bad-size');
    expectCode(() => decodeImageLevel(g103(56), new Uint8Array(64), 4, 1, { rowPitchBytes: 8 }), 'bad-size');
    expectCode(() => decodeImageLevel(g103(169), new Uint8Array(8), 8, 4), 'out-of-bounds');
    expectCode(() => decodeUnorm8Level(g103(13), new Uint8Array(8), 1, 1), 'unmodelled-number-format');
  });
});

// ---------------------------------------------------------------- every format of every generation

/** Every (FormatInfo) each generation's tables name: gfx7-9 DATA x NUM, gfx10+ unified values. */
function allFormats(): { gen: Gen; info: FormatInfo }[] {
  const out: { gen: Gen; info: FormatInfo }[] = [];
  for (const gen of ALL_GENS) {
    if (gen >= Gen.GFX10) {
      for (const info of unifiedFormatTable(gen).values()) out.push({ gen, info });
      continue;
    }
    for (let d = 0; d < 64; d++)
      for (let n = 0; n < 16; n++) {
        try {
          out.push({ gen, info: legacyImageFormat(gen, d, n) });
        } catch (e) {
          if (!(e instanceof DescriptorError)) throw e;
        }
      }
  }
  return out;
}

function modelled(): { gen: Gen; tf: TexelFormat }[] {
  const out: { gen: Gen; tf: TexelFormat }[] = [];
  for (const { gen, info } of allFormats()) {
    try {
      out.push({ gen, tf: texelFormat(info) });
    } catch (e) {
      if (!(e instanceof TexelFormatError)) throw e;
    }
  }
  return out;
}

const sameOrBothNaN = (a: number, b: number): boolean => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

describe('every modelled format of every generation', () => {
  const list = modelled();

  it('models the families the brief names in every generation', () => {
    for (const gen of ALL_GENS) {
      const names = new Set(list.filter((m) => m.gen === gen).map((m) => m.tf.info.data_format));
      for (const d of ['8', '16', '8_8', '32', '16_16', '2_10_10_10', '8_8_8_8', '32_32', '16_16_16_16', '32_32_32'])
        expect(names.has(d), `${GEN_NAMES[gen]} ${d}`).toBe(true);
      for (const d of ['32_32_32_32', '5_6_5', '1_5_5_5', '4_4_4_4', '8_24', 'X24_8_32', '5_9_9_9', 'BC1', 'BC7'])
        expect(names.has(d), `${GEN_NAMES[gen]} ${d}`).toBe(true);
    }
    expect(list.length).toBeGreaterThan(400);
  });

  it('the bulk path equals the per-element path (random bytes, padded pitch)', () => {
    let seed = 1;
    for (const { tf } of list) {
      if (tf.bc !== null) continue;
      const w = 5;
      const h = 3;
      const pitch = w * tf.layout.bytesPerElement + 7;
      const bytes = randomBytes(pitch * h, seed++);
      const bulk = decodeImageLevel(tf, bytes, w, h, { rowPitchBytes: pitch });
      expect(bulk.length).toBe(w * h * 4);
      const want = tf.channelKind === 'uint' ? Uint32Array : tf.channelKind === 'sint' ? Int32Array : Float32Array;
      expect(bulk).toBeInstanceOf(want);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const e = decodeElement(tf, bytes, y * pitch + x * tf.layout.bytesPerElement);
          const o = (y * w + x) * 4;
          const got = [bulk[o], bulk[o + 1], bulk[o + 2], bulk[o + 3]];
          const exp = [e.r, e.g, e.b, e.a].map((v) =>
            tf.channelKind === 'float' ? Math.fround(v) : tf.channelKind === 'uint' ? v >>> 0 : v | 0,
          );
          for (let c = 0; c < 4; c++)
            expect(sameOrBothNaN(got[c], exp[c]), `${tf.info.name} (${x},${y}) c${c}: ${got[c]} vs ${exp[c]}`).toBe(
              true,
            );
        }
    }
  });

  it('unorm, snorm and sRGB results stay in range', () => {
    for (const { tf } of list) {
      if (tf.bc !== null) continue;
      const num = tf.info.num_format;
      if (num !== 'UNORM' && num !== 'SNORM' && num !== 'SRGB') continue;
      const out = decodeImageLevel(tf, randomBytes(16 * tf.layout.bytesPerElement, 99), 16, 1);
      const lo = num === 'SNORM' ? -1 : 0;
      for (const v of out) expect(v >= lo && v <= 1, `${tf.info.name}: ${v}`).toBe(true);
    }
  });
});

// ---------------------------------------------------------------- BC, hand-built blocks

function block8(kind: 'bc1' | 'bc2' | 'bc3' | 'bc7', bytes: number[] | Uint8Array): number[][] {
  const out = new Uint8Array(64);
  const src = Uint8Array.from(bytes);
  if (kind === 'bc1') decodeBc1Block(src, 0, out);
  else if (kind === 'bc2') decodeBc2Block(src, 0, out);
  else if (kind === 'bc3') decodeBc3Block(src, 0, out);
  else decodeBc7Block(src, 0, out);
  return Array.from({ length: 16 }, (_, i) => Array.from(out.slice(i * 4, i * 4 + 4)));
}

describe('BC1-BC5, hand-computed blocks', () => {
  // Texel i takes index i & 3: index word 0b11100100 in every byte.
  const IDX = le32(0xe4e4e4e4);

  it('BC1 four-colour mode (c0 > c1): red 0xf800 to blue 0x001f', () => {
    const t = block8('bc1', [...le16(0xf800), ...le16(0x001f), ...IDX]);
    expect(t[0]).toEqual([255, 0, 0, 255]);
    expect(t[1]).toEqual([0, 0, 255, 255]);
    expect(t[2]).toEqual([170, 0, 85, 255]); // round((2*255 + 0)/3) = 170, round(255/3) = 85
    expect(t[3]).toEqual([85, 0, 170, 255]);
  });

  it('BC1 three-colour mode (c0 <= c1): midpoint and transparent black', () => {
    const t = block8('bc1', [...le16(0x001f), ...le16(0xf800), ...IDX]);
    expect(t[2]).toEqual([128, 0, 128, 255]); // round(255/2) = 128 (half up)
    expect(t[3]).toEqual([0, 0, 0, 0]);
    const eq = block8('bc1', [...le16(0x1234), ...le16(0x1234), ...IDX]); // c0 == c1 is three-colour too
    expect(eq[3]).toEqual([0, 0, 0, 0]);
  });

  it('BC1 endpoint widening by bit replication: 5-bit 16 -> 132, 6-bit 32 -> 130', () => {
    const t = block8('bc1', [...le16((16 << 11) | (32 << 5) | 16), ...le16(0), 0, 0, 0, 0]);
    expect(t[0]).toEqual([132, 130, 132, 255]);
  });

  it('BC1 sRGB: decodeImageLevel linearises RGB', () => {
    const bytes = Uint8Array.from([...le16(0xf800), ...le16(0x001f), ...IDX]);
    const lin = decodeImageLevel(g103(170), bytes, 4, 4);
    expect(lin[8]).toBe(Math.fround(srgb(170 / 255))); // texel 2, R
    expect(lin[11]).toBe(1);
    const raw = decodeImageLevel(g103(169), bytes, 4, 4);
    expect(raw[8]).toBe(Math.fround(170 / 255));
  });

  it('BC2: explicit 4-bit alpha, colour always four-colour', () => {
    const alpha = [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe]; // texel i alpha nibble i
    const t = block8('bc2', [...alpha, ...le16(0x001f), ...le16(0xf800), ...IDX]);
    for (let i = 0; i < 16; i++) expect(t[i][3]).toBe(i * 17);
    expect(t[3].slice(0, 3)).toEqual([170, 0, 85]); // c0 < c1 yet four colours: (0 + 2*255)/3
  });

  it('BC3: eight- and six-value alpha palettes', () => {
    // a0 = 255 > a1 = 0: index 2 = round(6*255/7) = 219, index 7 = round(255/7) = 36.
    // Indices (3 bits each, texel i = i & 7): 0o76543210 repeated.
    const idx = [...le32(0o76543210 & 0xffffff).slice(0, 3), ...le32(0o76543210 & 0xffffff).slice(0, 3)];
    const colour = [...le16(0xffff), ...le16(0xffff), 0, 0, 0, 0];
    const t = block8('bc3', [255, 0, ...idx, ...colour]);
    expect(t.map((p) => p[3])).toEqual([255, 0, 219, 182, 146, 109, 73, 36, 255, 0, 219, 182, 146, 109, 73, 36]);
    // a0 = 0 <= a1 = 255: index 2 = 255/5 = 51, 6 -> 0, 7 -> 255.
    const s = block8('bc3', [0, 255, ...idx, ...colour]);
    expect(s.slice(0, 8).map((p) => p[3])).toEqual([0, 255, 51, 102, 153, 204, 0, 255]);
    expect(s[0].slice(0, 3)).toEqual([255, 255, 255]);
  });

  it('BC4 unorm and snorm (-128 is -127: both -1.0)', () => {
    const idx = [...le32(0o76543210 & 0xffffff).slice(0, 3), ...le32(0o76543210 & 0xffffff).slice(0, 3)];
    const u = new Float32Array(16);
    decodeBc4Block(Uint8Array.from([200, 100, ...idx]), 0, false, u);
    expect(u[0]).toBe(Math.fround(200 / 255));
    expect(u[2]).toBe(Math.fround((6 * 200 + 100) / 7 / 255));
    expect(u[7]).toBe(Math.fround((200 + 6 * 100) / 7 / 255));
    const s = new Float32Array(16);
    decodeBc4Block(Uint8Array.from([0x80, 0x7f, ...idx]), 0, true, s); // -128 (read -127) <= 127: six values
    expect(Array.from(s.slice(0, 8))).toEqual(
      [-1, 1, -0.6, -0.2, 0.2, 0.6, -1, 1].map((v) => Math.fround(v)), // (4*-127 + 127)/5/127 = -0.6 ...
    );
    const s2 = new Float32Array(16);
    decodeBc4Block(Uint8Array.from([0x7f, 0x81, ...idx]), 0, true, s2); // 127 > -127: eight values
    expect(s2[1]).toBe(-1);
    expect(s2[2]).toBe(Math.fround((6 * 127 - 127) / 7 / 127));
  });

  it('BC5: two BC4 channels, B = 0, A = 1', () => {
    const r = [255, 0, 0, 0, 0, 0, 0, 0]; // all index 0 -> 1.0
    const g = [0, 255, 0, 0, 0, 0, 0, 0]; // all index 0 -> 0
    const out = decodeBcImage('bc5-unorm', Uint8Array.from([...r, ...g]), 4, 4) as Float32Array;
    expect(Array.from(out.slice(0, 4))).toEqual([1, 0, 0, 1]);
    const sn = decodeBcImage('bc5-snorm', Uint8Array.from([0x80, 0, 0, 0, 0, 0, 0, 0, ...g]), 4, 4) as Float32Array;
    expect(sn[0]).toBe(-1);
  });
});

describe('BC7, one hand-built block per mode', () => {
  /** Mode field: `mode` zeros then a one. */
  const start = (mode: number): BitWriter => new BitWriter().put(1 << mode, mode + 1);

  it('mode 0: 3 subsets, 4-bit RGB + unique p-bits, partition 0', () => {
    // Partition 0 (0xaa685050): texels 0,1,4,5,8 subset 0; 2,3,6,7,11 subset 1; 9,10,12-15 subset 2.
    // Anchors: 0, 3 (subset 1), 15 (subset 2). Endpoint e1 of subset s has channel s = 15, p-bit 1.
    const w = start(0).put(0, 4);
    for (let c = 0; c < 3; c++) for (let s = 0; s < 3; s++) w.put(0, 4).put(c === s ? 15 : 0, 4);
    for (let k = 0; k < 6; k++) w.put(k & 1, 1); // p-bits: e0 0, e1 1
    for (let i = 0; i < 16; i++) w.put(i === 0 || i === 3 || i === 15 ? 3 : 7, i === 0 || i === 3 || i === 15 ? 2 : 3);
    const t = block8('bc7', w.bytes);
    // 5-bit (v<<1|p): 31 -> 255, 1 -> 8. Index 7 = weight 64 (e1); anchors index 3 = weight 27.
    expect(t[1]).toEqual([255, 8, 8, 255]);
    expect(t[2]).toEqual([8, 255, 8, 255]);
    expect(t[9]).toEqual([8, 8, 255, 255]);
    expect(t[0]).toEqual([108, 3, 3, 255]); // (27*255 + 32) >> 6 = 108, (27*8 + 32) >> 6 = 3
    expect(t[3]).toEqual([3, 108, 3, 255]);
    expect(t[15]).toEqual([3, 3, 108, 255]);
  });

  it('mode 1: 2 subsets, 6-bit RGB + shared p-bit, partition 13', () => {
    // Partition 13 (0xff00): texels 8-15 in subset 1, anchor 15.
    const w = start(1).put(13, 6);
    // R: subset 0 e1 = 63; G: subset 1 e1 = 63; everything else 0.
    for (let c = 0; c < 3; c++)
      for (let s = 0; s < 2; s++) {
        w.put(0, 6);
        w.put(c === 0 && s === 0 ? 63 : c === 1 && s === 1 ? 63 : 0, 6);
      }
    w.put(0, 1).put(1, 1); // shared p-bits: subset 0 -> 0, subset 1 -> 1
    for (let i = 0; i < 16; i++) w.put(i === 0 || i === 15 ? 3 : 7, i === 0 || i === 15 ? 2 : 3);
    const t = block8('bc7', w.bytes);
    // 7-bit 126 -> 253 (126<<1 | 126>>6); 7-bit 1 -> 2; 127 -> 255.
    expect(t[1]).toEqual([253, 0, 0, 255]);
    expect(t[9]).toEqual([2, 255, 2, 255]);
    expect(t[0]).toEqual([107, 0, 0, 255]); // (27*253 + 32) >> 6
    expect(t[15]).toEqual([2, 109, 2, 255]); // (37*2 + 27*255 + 32) >> 6 = 109
  });

  it('mode 2: 3 subsets, 5-bit RGB, no p-bits, 2-bit indices', () => {
    const w = start(2).put(0, 6);
    for (let c = 0; c < 3; c++) for (let s = 0; s < 3; s++) w.put(0, 5).put(c === s ? 31 : 0, 5);
    for (let i = 0; i < 16; i++) w.put(i === 0 || i === 3 || i === 15 ? 1 : 3, i === 0 || i === 3 || i === 15 ? 1 : 2);
    const t = block8('bc7', w.bytes);
    expect(t[1]).toEqual([255, 0, 0, 255]);
    expect(t[2]).toEqual([0, 255, 0, 255]);
    expect(t[9]).toEqual([0, 0, 255, 255]);
    expect(t[0]).toEqual([84, 0, 0, 255]); // index 1 = weight 21: (21*255 + 32) >> 6 = 84
    expect(t[3]).toEqual([0, 84, 0, 255]);
    expect(t[15]).toEqual([0, 0, 84, 255]);
  });

  it('mode 3: 2 subsets, 7-bit RGB + unique p-bits', () => {
    const w = start(3).put(13, 6);
    for (let c = 0; c < 3; c++)
      for (let s = 0; s < 2; s++) w.put(0, 7).put((c === 0 && s === 0) || (c === 2 && s === 1) ? 127 : 0, 7);
    for (let k = 0; k < 4; k++) w.put(k & 1, 1);
    for (let i = 0; i < 16; i++) w.put(i === 0 || i === 15 ? 1 : 3, i === 0 || i === 15 ? 1 : 2);
    const t = block8('bc7', w.bytes);
    expect(t[1]).toEqual([255, 1, 1, 255]);
    expect(t[9]).toEqual([1, 1, 255, 255]);
    expect(t[0]).toEqual([84, 0, 0, 255]);
    expect(t[15]).toEqual([0, 0, 84, 255]);
  });

  function mode4(isel: number): number[][] {
    // RGB 5 bits: e0 = (31, 0, 0), e1 = (0, 31, 0); A 6 bits: e0 = 63, e1 = 0.
    const w = start(4).put(0, 2).put(isel, 1);
    w.put(31, 5).put(0, 5).put(0, 5).put(31, 5).put(0, 5).put(0, 5);
    w.put(63, 6).put(0, 6);
    for (let i = 0; i < 16; i++) w.put(i === 0 ? 1 : 3, i === 0 ? 1 : 2); // 2-bit set
    for (let i = 0; i < 16; i++) w.put(i === 0 ? 3 : 7, i === 0 ? 2 : 3); // 3-bit set
    return block8('bc7', w.bytes);
  }

  it('mode 4: index selection swaps which index set drives colour and alpha', () => {
    const sel1 = mode4(1); // colour from the 3-bit set (texel 0: weight 27), alpha from the 2-bit set (21)
    expect(sel1[0]).toEqual([147, 108, 0, 171]); // (37*255+32)>>6, (27*255+32)>>6, -, (43*255+32)>>6
    expect(sel1[1]).toEqual([0, 255, 0, 0]);
    const sel0 = mode4(0); // colour from the 2-bit set (21), alpha from the 3-bit set (27)
    expect(sel0[0]).toEqual([171, 84, 0, 147]);
  });

  it('mode 5: rotation 1 swaps R and A after interpolation', () => {
    const w = start(5).put(1, 2); // rotation 1
    w.put(127, 7).put(0, 7).put(0, 7).put(0, 7).put(0, 7).put(0, 7); // R e0 = 127, G, B = 0
    w.put(0, 8).put(200, 8); // A e0 = 0, e1 = 200
    for (let i = 0; i < 16; i++) w.put(i === 0 ? 1 : 3, i === 0 ? 1 : 2); // colour: texel 0 weight 21, else 64
    for (let i = 0; i < 16; i++) w.put(i === 0 ? 1 : 2, i === 0 ? 1 : 2); // alpha: texel 0 weight 21, else 43
    const t = block8('bc7', w.bytes);
    // Texel 0 before rotation: R = (43*255+32)>>6 = 171, A = (21*200+32)>>6 = 66; after: R 66, A 171.
    expect(t[0]).toEqual([66, 0, 0, 171]);
    expect(t[5]).toEqual([134, 0, 0, 0]); // A = (43*200+32)>>6 = 134 moves to R; R = 0 moves to A
  });

  it('mode 6: 1 subset, 7-bit RGBA + unique p-bits, 4-bit indices', () => {
    const w = start(6);
    w.put(127, 7).put(0, 7); // R
    w.put(0, 7).put(127, 7); // G
    w.put(64, 7).put(0, 7); // B
    w.put(127, 7).put(0, 7); // A
    w.put(1, 1).put(0, 1); // p-bits: e0 1, e1 0
    for (let i = 0; i < 16; i++) w.put(i, i === 0 ? 3 : 4); // texel i index i
    const t = block8('bc7', w.bytes);
    expect(t[0]).toEqual([255, 1, 129, 255]); // e0 = (127<<1|1, 0<<1|1, 64<<1|1, 127<<1|1)
    expect(t[15]).toEqual([0, 254, 0, 0]); // e1
    expect(t[8]).toEqual([120, 135, 60, 120]); // weight 34: (30*255+32)>>6 = 120, (30+34*254+32)>>6 = 135, ...
  });

  it('mode 7: 2 subsets, 5-bit RGBA + unique p-bits', () => {
    const w = start(7).put(13, 6);
    const e1 = [
      [31, 0, 0, 31],
      [0, 0, 31, 15],
    ];
    for (let c = 0; c < 4; c++) for (let s = 0; s < 2; s++) w.put(0, 5).put(e1[s][c], 5);
    for (let k = 0; k < 4; k++) w.put(k & 1, 1);
    for (let i = 0; i < 16; i++) w.put(i === 0 || i === 15 ? 1 : 3, i === 0 || i === 15 ? 1 : 2);
    const t = block8('bc7', w.bytes);
    // 6-bit (v<<1|1): 63 -> 255, 1 -> 4, 31 -> 125.
    expect(t[1]).toEqual([255, 4, 4, 255]);
    expect(t[9]).toEqual([4, 4, 255, 125]);
    expect(t[0]).toEqual([84, 1, 1, 84]);
    expect(t[15]).toEqual([1, 1, 84, 41]); // (21*125+32)>>6 = 41
  });

  it('a block with no mode bit decodes to transparent black', () => {
    expect(
      block8(
        'bc7',
        new Uint8Array(16).fill(0).map((_, i) => (i ? 0xff : 0)),
      )[7],
    ).toEqual([0, 0, 0, 0]);
  });

  it('partition tables: texel 0 in subset 0, each anchor inside the subset it anchors', () => {
    for (let p = 0; p < 64; p++) {
      expect(PARTITIONS_2[p] & 1).toBe(0);
      expect((PARTITIONS_2[p] >>> ANCHORS_2[p]) & 1).toBe(1);
      expect(PARTITIONS_3[p] & 3).toBe(0);
      expect((PARTITIONS_3[p] >>> (2 * ANCHORS_3A[p])) & 3).toBe(1);
      expect((PARTITIONS_3[p] >>> (2 * ANCHORS_3B[p])) & 3).toBe(2);
    }
  });
});

describe('BC6H, hand-built blocks', () => {
  function decode(bytes: Uint8Array, signed: boolean): number[][] {
    const out = new Float32Array(64);
    decodeBc6hBlock(bytes, 0, signed, out);
    return Array.from({ length: 16 }, (_, i) => Array.from(out.slice(i * 4, i * 4 + 3)));
  }

  it('mode 11 (10.10 explicit endpoints), unsigned', () => {
    // r0 g0 b0 = 0, r1 = 1023, g1 = 512, b1 = 0; texel i index i (4 bits, texel 0 three bits).
    const w = new BitWriter().put(0b00011, 5).put(0, 30).put(1023, 10).put(512, 10).put(0, 10);
    for (let i = 0; i < 16; i++) w.put(i, i === 0 ? 3 : 4);
    const t = decode(w.bytes, false);
    expect(t[0]).toEqual([0, 0, 0]);
    // 1023 is the largest code -> 0xffff -> (0xffff*31)>>6 = 0x7bff = 65504.
    // 512 -> ((512<<16) + 0x8000) >> 10 = 32800 -> (32800*31)>>6 = 15887 = 0x3e0f = 1 + 527/1024.
    expect(t[15]).toEqual([65504, 1 + 527 / 1024, 0]);
    // Texel 8, weight 34: (0xffff*34 + 32)>>6 = 34815 -> (34815*31)>>6 = 16863 = 0x41df = 2 * (1 + 479/1024).
    expect(t[8][0]).toBe(2 * (1 + 479 / 1024));
  });

  it('mode 11, signed: -1 is a small negative denormal, 511 the largest', () => {
    const w = new BitWriter().put(0b00011, 5).put(0, 30).put(0x3ff, 10).put(511, 10).put(0, 10);
    for (let i = 0; i < 16; i++) w.put(i === 0 ? 0 : 15, i === 0 ? 3 : 4);
    const t = decode(w.bytes, true);
    // -1 (10 bits): ((1<<15) + 0x4000) >> 9 = 96 -> -96; finish -(96*31 >> 5) = -93 -> half 0x005d = 93 * 2^-24.
    expect(t[15][0]).toBe(Math.fround(-93 * 2 ** -24));
    // 511 >= 2^9 - 1 -> 0x7fff -> (0x7fff*31) >> 5 = 31743 = 0x7bff.
    expect(t[15][1]).toBe(65504);
  });

  it('mode 14 (16.4 deltas): the high endpoint bits are stored reversed', () => {
    // r0 = 0x4000: bits [9:0] = 0, bits [15:10] = 010000 written MSB first; r1 delta +1.
    // b0 = 0x8000 (bits [15:10] = 100000, MSB first), b1 delta -8 (4 bits 1000) -> 0x7ff8.
    const w = new BitWriter().put(0b01111, 5).put(0, 30);
    w.put(1, 4).put(0b010, 3).put(0, 3); // r1 delta, then r0 bits 15, 14, 13..10 -> 0,1,0,0,0,0
    w.put(0, 4).put(0, 6); // g1, g0 high
    w.put(0b1000, 4).put(1, 1).put(0, 5); // b1 delta, then b0 bit 15 = 1, bits 14..10 = 0
    for (let i = 0; i < 16; i++) w.put(i === 0 ? 0 : 15, i === 0 ? 3 : 4);
    const t = decode(w.bytes, false);
    // 0x4000*31 >> 6 = 7936 = 0x1f00 (e 7, m 0x300) = 1.75 * 2^-8; 0x8000*31 >> 6 = 15872 = 0x3e00 = 1.5.
    expect(t[0]).toEqual([1.75 * 2 ** -8, 0, 1.5]); // r0 read as 0x0800 (bits unreversed) would give 992 * 2^-24
    // 0x4001 -> 7936 still; 0x7ff8*31 >> 6 = 15868 = 0x3dfc = 1 + 508/1024.
    expect(t[15]).toEqual([1.75 * 2 ** -8, 0, 1 + 508 / 1024]);
  });

  it('mode 10 (6.6.6, 2 subsets, no deltas): partition 0 and both anchors', () => {
    // Only r0 = 63 (stream bits 5..10) and r3 = 63 (bits 71..76); partition 0 (0xcccc); indices from bit 82.
    const w = new BitWriter().put(0b11110, 5).put(63, 6).at(71).put(63, 6).put(0, 5);
    const idx = [0, 7, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3];
    for (let i = 0; i < 16; i++) w.put(idx[i], i === 0 || i === 15 ? 2 : 3);
    const t = decode(w.bytes, false);
    expect(t[0][0]).toBe(65504); // subset 0, e0 = 63 -> 0xffff
    expect(t[1][0]).toBe(0); // subset 0, e1 = 0
    expect(t[2][0]).toBe(65504); // subset 1 (0xcccc bit 2), e1 = r3
    expect(t[3][0]).toBe(0); // subset 1, e0 = r2 = 0
    // Texel 15: subset 1, index 3 = weight 27: (0xffff*27 + 32)>>6 = 27648 -> (27648*31)>>6 = 13392 = 0x3450.
    expect(t[15][0]).toBe(0.25 * (1 + 80 / 1024));
  });

  it('mode 1 (10.555 deltas): a -1 delta from 512', () => {
    // Bits: mode 2, g2[4] b2[4] b3[4], r0 at 5..14 = 512, g0, b0 = 0, r1 delta at 35..39 = -1 (0b11111).
    const w = new BitWriter().put(0, 2).put(0, 3).put(512, 10).put(0, 20).put(0b11111, 5);
    w.at(82);
    for (let i = 0; i < 16; i++) w.put(i === 1 ? 7 : 0, i === 0 || i === 15 ? 2 : 3);
    const t = decode(w.bytes, false);
    // 512 -> 32800 -> 15887 = 1 + 527/1024; 511 -> ((511<<16)+0x8000)>>10 = 32736 -> 15856 = 0x3df0 = 1 + 496/1024.
    expect(t[0]).toEqual([1 + 527 / 1024, 0, 0]);
    expect(t[1]).toEqual([1 + 496 / 1024, 0, 0]);
  });

  it('reserved modes decode to zero; every mode has 82 (2 subsets) or 65 (1 subset) header bits', () => {
    const b = new Uint8Array(16).fill(0xff);
    b[0] = 0b10011;
    expect(decode(b, false)[5]).toEqual([0, 0, 0]);
    for (const m of BC6H_MODES) {
      const bits = m.codeBits + m.runs.reduce((s, r) => s + r[2], 0) + (m.subsets === 2 ? 5 : 0);
      expect(bits).toBe(m.subsets === 2 ? 82 : 65);
    }
  });
});

// ---------------------------------------------------------------- BC, independent encoders

/** A smooth, varied RGBA test image (gradients plus a diagonal alpha ramp). */
function testImage(w: number, h: number): Uint8Array {
  const img = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      img[o] = Math.round((255 * x) / (w - 1));
      img[o + 1] = Math.round((255 * y) / (h - 1));
      img[o + 2] = Math.round(128 + 100 * Math.sin((x + y) / 5));
      img[o + 3] = Math.round((255 * (x + y)) / (w + h - 2));
    }
  return img;
}

/**
 * A tiny BC1/BC2/BC3-colour encoder: endpoints are the pair of block texels farthest apart,
 * quantised to 5:6:5 by rounding; each texel takes the index of the nearest of the four colours
 * of the float palette (2/3, 1/3). Returns the block and the float reconstruction it expects.
 */
function encodeColour(px: number[][]): { bytes: number[]; expect: number[][] } {
  let best = [0, 0];
  let bestD = -1;
  for (let i = 0; i < 16; i++)
    for (let j = i + 1; j < 16; j++) {
      const d = (px[i][0] - px[j][0]) ** 2 + (px[i][1] - px[j][1]) ** 2 + (px[i][2] - px[j][2]) ** 2;
      if (d > bestD) [bestD, best] = [d, [i, j]];
    }
  const q = (p: number[]): number =>
    (Math.round((p[0] * 31) / 255) << 11) | (Math.round((p[1] * 63) / 255) << 5) | Math.round((p[2] * 31) / 255);
  let c0 = q(px[best[0]]);
  let c1 = q(px[best[1]]);
  if (c0 < c1) [c0, c1] = [c1, c0];
  const un = (c: number): number[] => [((c >> 11) * 255) / 31, (((c >> 5) & 63) * 255) / 63, ((c & 31) * 255) / 31];
  const e0 = un(c0);
  const e1 = un(c1);
  const pal = [e0, e1, e0.map((v, k) => (2 * v + e1[k]) / 3), e0.map((v, k) => (v + 2 * e1[k]) / 3)];
  let idx = 0;
  const expect: number[][] = [];
  for (let i = 0; i < 16; i++) {
    let bi = 0;
    let bd = Infinity;
    for (let k = 0; k < 4; k++) {
      const d = (pal[k][0] - px[i][0]) ** 2 + (pal[k][1] - px[i][1]) ** 2 + (pal[k][2] - px[i][2]) ** 2;
      if (d < bd) [bd, bi] = [d, k];
    }
    if (c0 === c1) bi = 0;
    idx |= bi << (2 * i);
    expect.push(pal[bi]);
  }
  return { bytes: [...le16(c0), ...le16(c1), ...le32(idx >>> 0)], expect };
}

/** A BC4-style encoder: endpoints max and min (eight-value mode), nearest float palette entry. */
function encodeScalar(vals: number[], signed: boolean): { bytes: number[]; expect: number[] } {
  const hi = Math.max(...vals);
  const lo = Math.min(...vals);
  const pal = [hi, lo, ...[1, 2, 3, 4, 5, 6].map((i) => ((7 - i) * hi + i * lo) / 7)];
  const expect: number[] = [];
  const bits: number[] = [];
  for (const v of vals) {
    let bi = 0;
    for (let k = 1; k < 8; k++) if (Math.abs(pal[k] - v) < Math.abs(pal[bi] - v)) bi = k;
    if (hi === lo) bi = 0;
    bits.push(bi);
    expect.push(pal[bi]);
  }
  const b = (v: number): number => (signed ? v & 0xff : v);
  const out = [b(hi), b(lo)];
  for (let half = 0; half < 2; half++) {
    let w = 0;
    for (let i = 0; i < 8; i++) w |= bits[half * 8 + i] << (3 * i);
    out.push(w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff);
  }
  return { bytes: out, expect };
}

function blockPixels(img: Uint8Array, w: number, bx: number, by: number): number[][] {
  const px: number[][] = [];
  for (let i = 0; i < 16; i++) {
    const o = ((by * 4 + (i >> 2)) * w + bx * 4 + (i & 3)) * 4;
    px.push([img[o], img[o + 1], img[o + 2], img[o + 3]]);
  }
  return px;
}

describe('BC decode(encode(image)) with independent encoders', () => {
  const W = 16;
  const H = 12;
  const img = testImage(W, H);

  it('BC1 and BC3 match the encoder float reconstruction within rounding, and the image closely', () => {
    const bc1: number[] = [];
    const bc3: number[] = [];
    const want: number[][] = [];
    for (let by = 0; by < H / 4; by++)
      for (let bx = 0; bx < W / 4; bx++) {
        const px = blockPixels(img, W, bx, by);
        const c = encodeColour(px);
        const a = encodeScalar(
          px.map((p) => p[3]),
          false,
        );
        bc1.push(...c.bytes);
        bc3.push(...a.bytes, ...c.bytes);
        want.push(...c.expect.map((p, i) => [...p, a.expect[i]]));
      }
    const d1 = decodeBcImage('bc1', Uint8Array.from(bc1), W, H) as Uint8Array;
    const d3 = decodeBcImage('bc3', Uint8Array.from(bc3), W, H) as Uint8Array;
    let maxImgErr = 0;
    for (let by = 0; by < H / 4; by++)
      for (let bx = 0; bx < W / 4; bx++)
        for (let i = 0; i < 16; i++) {
          const o = ((by * 4 + (i >> 2)) * W + bx * 4 + (i & 3)) * 4;
          const e = want[(by * (W / 4) + bx) * 16 + i];
          for (let c = 0; c < 3; c++) {
            expect(Math.abs(d1[o + c] - e[c])).toBeLessThanOrEqual(1);
            expect(d3[o + c]).toBe(d1[o + c]);
            maxImgErr = Math.max(maxImgErr, Math.abs(d1[o + c] - img[o + c]));
          }
          expect(Math.abs(d3[o + 3] - e[3])).toBeLessThanOrEqual(0.5);
          expect(Math.abs(d3[o + 3] - img[o + 3])).toBeLessThanOrEqual(20);
        }
    expect(maxImgErr).toBeLessThan(40);
  });

  it('BC4 unorm and snorm match the encoder reconstruction exactly (float)', () => {
    for (const signed of [false, true]) {
      const blocks: number[] = [];
      const want: number[] = [];
      for (let by = 0; by < H / 4; by++)
        for (let bx = 0; bx < W / 4; bx++) {
          const vals = blockPixels(img, W, bx, by).map((p) => (signed ? p[0] - 128 : p[0]));
          const e = encodeScalar(
            vals.map((v) => Math.max(v, -127)),
            signed,
          );
          blocks.push(...e.bytes);
          want.push(...e.expect);
        }
      const d = decodeBcImage(signed ? 'bc4-snorm' : 'bc4-unorm', Uint8Array.from(blocks), W, H) as Float32Array;
      for (let by = 0; by < H / 4; by++)
        for (let bx = 0; bx < W / 4; bx++)
          for (let i = 0; i < 16; i++) {
            const o = ((by * 4 + (i >> 2)) * W + bx * 4 + (i & 3)) * 4;
            const e = want[(by * (W / 4) + bx) * 16 + i] / (signed ? 127 : 255);
            expect(d[o]).toBeCloseTo(e, 6);
            expect(d[o + 3]).toBe(1);
          }
    }
  });

  it('edge blocks of a level that is not a multiple of 4 are cropped', () => {
    const bytes = randomBytes(4 * 16, 5);
    const full = decodeBcImage('bc7', bytes, 8, 8) as Uint8Array;
    const crop = decodeBcImage('bc7', bytes, 7, 5, 32) as Uint8Array;
    for (let y = 0; y < 5; y++)
      for (let x = 0; x < 7; x++)
        for (let c = 0; c < 4; c++) expect(crop[(y * 7 + x) * 4 + c]).toBe(full[(y * 8 + x) * 4 + c]);
  });
});

// ---------------------------------------------------------------- WebGPU mapping

/** Bytes per texel of the direct uncompressed WebGPU formats used (from the WebGPU spec's format table). */
const WEBGPU_TEXEL_BYTES: Readonly<Record<string, number>> = {
  r8unorm: 1, r8snorm: 1, r8uint: 1, r8sint: 1, rg8unorm: 2, rg8snorm: 2, rg8uint: 2, rg8sint: 2,
  rgba8unorm: 4, 'rgba8unorm-srgb': 4, rgba8snorm: 4, rgba8uint: 4, rgba8sint: 4,
  r16unorm: 2, r16snorm: 2, r16uint: 2, r16sint: 2, r16float: 2, rg16unorm: 4, rg16snorm: 4, rg16uint: 4,
  rg16sint: 4, rg16float: 4, rgba16unorm: 8, rgba16snorm: 8, rgba16uint: 8, rgba16sint: 8, rgba16float: 8,
  r32uint: 4, r32sint: 4, r32float: 4, rg32uint: 8, rg32sint: 8, rg32float: 8, rgba32uint: 16, rgba32sint: 16,
  rgba32float: 16, rgb10a2unorm: 4, rgb10a2uint: 4, rg11b10ufloat: 4, rgb9e5ufloat: 4,
}; // prettier-ignore

describe('WebGPU format mapping', () => {
  const list = modelled();

  it('every modelled format has a direct mapping or a named fallback, each usable', () => {
    const fallbacks = new Set([
      'rgba8unorm',
      'rgba8unorm-srgb',
      'rgba16float',
      'rgba32float',
      'rgba32uint',
      'rgba32sint',
    ]);
    for (const { tf } of list) {
      const e = webgpuFormatEntry(tf);
      expect(fallbacks.has(e.fallback.format), `${e.name} -> ${e.fallback.format}`).toBe(true);
      expect(e.fallback.why.length).toBeGreaterThan(0);
      if (e.direct && tf.bc === null)
        expect(WEBGPU_TEXEL_BYTES[e.direct.format], `${e.name} -> ${e.direct.format}`).toBe(tf.layout.bytesPerElement);
      if (e.direct && tf.bc !== null) {
        expect(e.direct.format.startsWith('bc')).toBe(true);
        expect(e.direct.feature).toBe('texture-compression-bc');
        expect(BC_BLOCK_BYTES[tf.bc]).toBe(tf.layout.bytesPerElement);
      }
      // The fallback's decoder runs and gives the array its 'via' says.
      const w = 4 * tf.layout.blockWidth;
      const bytes = randomBytes(w * tf.layout.bytesPerElement * 4, 7);
      const dec = e.fallback.via === 'unorm8' ? decodeUnorm8Level(tf, bytes, w, 4) : decodeImageLevel(tf, bytes, w, 4);
      const want = { unorm8: Uint8Array, float: Float32Array, uint: Uint32Array, sint: Int32Array }[e.fallback.via];
      expect(dec, e.name).toBeInstanceOf(want);
    }
  });

  it('maps the formats DESCRIPTORS.md §4.4 names directly', () => {
    const direct = (v: number): string | undefined => webgpuFormatEntry(g103(v)).direct?.format;
    expect(direct(56)).toBe('rgba8unorm');
    expect(direct(130)).toBe('rgba8unorm-srgb');
    expect(direct(71)).toBe('rgba16float');
    expect(direct(50)).toBe('rgb10a2unorm');
    expect(direct(36)).toBe('rg11b10ufloat');
    expect(direct(132)).toBe('rgb9e5ufloat');
    expect(direct(169)).toBe('bc1-rgba-unorm');
    expect(direct(174)).toBe('bc3-rgba-unorm-srgb');
    expect(direct(179)).toBe('bc6h-rgb-ufloat');
    expect(direct(180)).toBe('bc6h-rgb-float');
    expect(direct(182)).toBe('bc7-rgba-unorm-srgb');
    expect(direct(72)).toBeUndefined(); // 32_32_32_UINT
    expect(webgpuFormatEntry(g103(72)).fallback.format).toBe('rgba32uint');
    expect(webgpuFormatEntry(g103(133)).fallback.format).toBe('rgba16float'); // 5_6_5
    expect(webgpuFormatEntry(g103(141)).fallback.format).toBe('rgba32float'); // 8_24
    expect(webgpuFormatEntry(g103(22)).depth).toBe('depth32float');
    expect(webgpuFormatEntry(g7(38, 1)).direct?.format).toBe('bc4-r-snorm'); // gfx7 BC4 + SNORM
    expect(webgpuFormatEntry(g7(40, 1)).direct?.format).toBe('bc6h-rgb-float'); // gfx7 BC6 + SNORM
  });

  it('chooses by device features and keeps DST_SEL apart', () => {
    const none = chooseTexture(g103(169), new Set());
    expect([none.format, none.upload, none.compressedOnDevice]).toEqual(['rgba8unorm', 'unorm8', false]);
    const bc = chooseTexture(g103(170), new Set(['texture-compression-bc']), ['z', 'y', 'x', 'w']);
    expect([bc.format, bc.upload, bc.compressedOnDevice]).toEqual(['bc1-rgba-unorm-srgb', 'direct', true]);
    expect(bc.swizzle).toEqual(['b', 'g', 'r', 'a']);
    expect(chooseTexture(g103(7), new Set()).format).toBe('rgba32float'); // r16unorm needs texture-formats-tier1
    expect(chooseTexture(g103(7), new Set(['texture-formats-tier1'])).format).toBe('r16unorm');
    expect(chooseTexture(g103(1), new Set(), ['x', '0', '0', '1']).swizzle).toEqual(['r', '0', '0', '1']);
  });
});

// ---------------------------------------------------------------- SwiftShader as a reference decoder

const GPU_W = 32;
const GPU_H = 32;

/** Uploads blocks into a BC texture, reads every texel with textureLoad in a fragment shader into rgba32float. */
async function gpuDecode(
  device: GPUDevice,
  format: GPUTextureFormat,
  blocks: Uint8Array,
  bb: number,
): Promise<Float32Array> {
  const tex = device.createTexture({
    size: [GPU_W, GPU_H],
    format,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture: tex }, blocks, { bytesPerRow: (GPU_W / 4) * bb, rowsPerImage: GPU_H / 4 }, [
    GPU_W,
    GPU_H,
  ]);
  const target = device.createTexture({
    size: [GPU_W, GPU_H],
    format: 'rgba32float',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const code = `
@group(0) @binding(0) var t: texture_2d<f32>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = array(vec2f(-1, -1), vec2f(3, -1), vec2f(-1, 3));
  return vec4f(p[i], 0, 1);
}
@fragment fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f { return textureLoad(t, vec2i(pos.xy), 0); }`;
  const mod = device.createShaderModule({ code });
  const pipe = device.createRenderPipeline({
    layout: 'auto',
    vertex: { module: mod, entryPoint: 'vs' },
    fragment: { module: mod, entryPoint: 'fs', targets: [{ format: 'rgba32float' }] },
  });
  const bg = device.createBindGroup({
    layout: pipe.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: tex.createView() }],
  });
  const buf = device.createBuffer({
    size: GPU_W * GPU_H * 16,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }],
  });
  pass.setPipeline(pipe);
  pass.setBindGroup(0, bg);
  pass.draw(3);
  pass.end();
  enc.copyTextureToBuffer({ texture: target }, { buffer: buf, bytesPerRow: GPU_W * 16 }, [GPU_W, GPU_H]);
  device.queue.submit([enc.finish()]);
  await buf.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(buf.getMappedRange().slice(0));
  buf.unmap();
  tex.destroy();
  target.destroy();
  buf.destroy();
  return out;
}

/**
 * Reads a BC texture from a compute shader (textureLoad into a storage buffer). With `touch`,
 * a 1x1 draw binds the texture once first: the SwiftShader workaround of WEBGPU-PLATFORM.md.
 */
async function computeRead(device: GPUDevice, tex: GPUTexture, touch: boolean): Promise<Float32Array> {
  if (touch) {
    const code = `@group(0) @binding(0) var t: texture_2d<f32>;
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0, 0, 0, 1); }
@fragment fn fs() -> @location(0) vec4f { return textureLoad(t, vec2i(0, 0), 0); }`;
    const mod = device.createShaderModule({ code });
    const pipe = device.createRenderPipeline({
      layout: 'auto',
      vertex: { module: mod, entryPoint: 'vs' },
      fragment: { module: mod, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
      primitive: { topology: 'point-list' },
    });
    const target = device.createTexture({
      size: [1, 1],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.RENDER_ATTACHMENT,
    });
    const enc = device.createCommandEncoder();
    const pass = enc.beginRenderPass({
      colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store' }],
    });
    pass.setPipeline(pipe);
    pass.setBindGroup(
      0,
      device.createBindGroup({
        layout: pipe.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: tex.createView() }],
      }),
    );
    pass.draw(1);
    pass.end();
    device.queue.submit([enc.finish()]);
    target.destroy();
  }
  const code = `@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> o: array<vec4f>;
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {
  o[id.y * ${GPU_W}u + id.x] = textureLoad(t, vec2i(id.xy), 0);
}`;
  const pipe = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
  });
  const size = GPU_W * GPU_H * 16;
  const sb = device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const rb = device.createBuffer({ size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const bg = device.createBindGroup({
    layout: pipe.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: tex.createView() },
      { binding: 1, resource: { buffer: sb } },
    ],
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipe);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(GPU_W / 8, GPU_H / 8);
  pass.end();
  enc.copyBufferToBuffer(sb, 0, rb, 0, size);
  device.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(rb.getMappedRange().slice(0));
  rb.unmap();
  sb.destroy();
  rb.destroy();
  return out;
}

describe('random BC blocks: CPU decode against SwiftShader (Dawn for Node)', () => {
  let gpu: NodeGpu;
  beforeAll(async () => {
    gpu = await getNodeGpu({ requiredFeatures: ['texture-compression-bc'] });
  });
  afterAll(() => {
    gpu?.device.destroy();
  });

  // [kind, WebGPU format, tolerance]. SwiftShader returns BC1-5 at 8-bit precision; BC6H and BC7 are exact.
  const cases: [BcKind, GPUTextureFormat, number][] = [
    ['bc1', 'bc1-rgba-unorm', 1.01 / 255],
    ['bc2', 'bc2-rgba-unorm', 1.01 / 255],
    ['bc3', 'bc3-rgba-unorm', 1.01 / 255],
    ['bc4-unorm', 'bc4-r-unorm', 1.01 / 255],
    ['bc4-snorm', 'bc4-r-snorm', 1.01 / 127],
    ['bc5-unorm', 'bc5-rg-unorm', 1.01 / 255],
    ['bc5-snorm', 'bc5-rg-snorm', 1.01 / 127],
    ['bc6h-ufloat', 'bc6h-rgb-ufloat', 0],
    ['bc6h-sfloat', 'bc6h-rgb-float', 0],
    ['bc7', 'bc7-rgba-unorm', 1e-6],
  ];
  it('bc7 kept compressed, read from a compute shader after the draw-touch workaround, matches the CPU', async () => {
    const blocks = randomBytes((GPU_W / 4) * (GPU_H / 4) * 16, 77);
    const tex = gpu.device.createTexture({
      size: [GPU_W, GPU_H],
      format: 'bc7-rgba-unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    gpu.device.queue.writeTexture({ texture: tex }, blocks, { bytesPerRow: (GPU_W / 4) * 16 }, [GPU_W, GPU_H]);
    const g = await computeRead(gpu.device, tex, true);
    const c = decodeBcImage('bc7', blocks, GPU_W, GPU_H) as Uint8Array;
    let bad = 0;
    for (let i = 0; i < g.length; i++) if (Math.abs(c[i] / 255 - g[i]) > 1e-6) bad++;
    expect(bad).toBe(0);
    tex.destroy();
  });

  for (const [kind, format, tol] of cases)
    it(`${kind}: 64 random blocks`, async () => {
      const bb = BC_BLOCK_BYTES[kind];
      const blocks = randomBytes((GPU_W / 4) * (GPU_H / 4) * bb, 1000 + bb + kind.length);
      if (kind === 'bc7')
        for (let i = 0; i < blocks.length; i += 16) {
          const m = (i / 16) % 8; // every mode: bits below m clear, bit m set
          blocks[i] = (blocks[i] & ~((2 << m) - 1)) | (1 << m);
        }
      if (kind.startsWith('bc6h')) {
        // Every mode in turn: the 2-bit codes, the 5-bit codes, then the four reserved codes.
        const codes = [0b00, 0b01, ...BC6H_MODES.slice(2).map((m) => m.code), 0b10011, 0b10111, 0b11011, 0b11111];
        for (let i = 0; i < blocks.length; i += 16) {
          const code = codes[(i / 16) % codes.length];
          const keep = code <= 1 ? 0xfc : 0xe0;
          blocks[i] = (blocks[i] & keep) | code;
        }
      }
      const g = await gpuDecode(gpu.device, format, blocks, bb);
      const c = decodeBcImage(kind, blocks, GPU_W, GPU_H);
      const scale = c instanceof Uint8Array ? 255 : 1;
      let bad = 0;
      for (let i = 0; i < g.length; i++) {
        const cv = c[i] / scale;
        if (!(Math.abs(cv - g[i]) <= tol || (Number.isNaN(cv) && Number.isNaN(g[i])))) bad++;
      }
      expect(bad).toBe(0);
    });
});
