/**
 * The buffer format conversions written over the algebra (src/interp/format-store.ts
 * `decodeElementOver`, which the interpreter and the translator share) against the texel
 * decoder (src/host/texels/formats.ts): every buffer format of gfx7, gfx9, gfx10.3 and gfx11 that
 * the algebra models, on every code of its fields up to 16 bits (and random codes of wider ones),
 * must give the same register words. The store direction (`encodeElementOver`) against the
 * conversions written out on JavaScript numbers (exact in f64 for fields up to 16 bits). Also the
 * expression algebra (lowered to native ops) against the concrete one, so the GPU reads and
 * writes what the interpreter does.
 */
import { describe, expect, it } from 'vitest';
import { Gen } from '../../src/isa/gen.ts';
import { legacyBufferFormat, unifiedFormatTable, type FormatInfo } from '../../src/host/descriptors/index.ts';
import { decodeElement, texelFormat, TexelFormatError, type TexelFormat } from '../../src/host/texels/formats.ts';
import { concrete } from '../../src/semantics/concrete.ts';
import { evaluateExpr, exprBuilder } from '../../src/semantics/expr.ts';
import {
  channelWord,
  decodeElementOver,
  encodeComponentOver,
  encodeElementOver,
  overAlgebra,
  unormBits,
} from '../../src/interp/format-store.ts';
import { f16FromF32Bits, f32Value } from '../../src/semantics/float.ts';
import { evaluateLow, LowBuilder } from '../../src/translator/low.ts';
import { Lowerer } from '../../src/translator/lower.ts';

function bufferFormats(): TexelFormat[] {
  const infos: FormatInfo[] = [];
  for (const gen of [Gen.GFX7, Gen.GFX9])
    for (let d = 0; d <= 14; d++)
      for (let n = 0; n <= 7; n++)
        try {
          infos.push(legacyBufferFormat(gen, d, n));
        } catch {
          // not in the table
        }
  for (const gen of [Gen.GFX10_3, Gen.GFX11]) infos.push(...unifiedFormatTable(gen).values());
  const out = new Map<string, TexelFormat>();
  for (const info of infos)
    try {
      const tf = texelFormat(info);
      if (tf.layout.kind === 'uniform' || tf.layout.kind === 'packed') out.set(info.name, tf);
    } catch (e) {
      if (!(e instanceof TexelFormatError)) throw e;
    }
  return [...out.values()];
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const hostWords = (tf: TexelFormat, bytes: Uint8Array): number[] => {
  const c = decodeElement(tf, bytes, 0);
  return [c.r, c.g, c.b, c.a].map((v) => channelWord(tf.channelKind, v) >>> 0);
};

/** NaN equals NaN (the texel decoder gives the canonical NaN for an f16 NaN; the algebra keeps the payload). */
const same = (x: number, y: number): boolean =>
  x === y ||
  ((x & 0x7f800000) === 0x7f800000 && (x & 0x7fffff) !== 0 && (y & 0x7f800000) === 0x7f800000 && (y & 0x7fffff) !== 0);

describe('buffer format conversions over the algebra', () => {
  const formats = bufferFormats();

  it('models the formats buffers use', () => {
    const modelled = formats.filter(overAlgebra).map((tf) => tf.info.name);
    for (const name of [
      '8_UNORM',
      '8_8_8_8_UNORM',
      '16_16_SNORM',
      '32_FLOAT',
      '16_16_16_16_FLOAT',
      '2_10_10_10_UNORM',
      '8_SINT',
    ])
      expect(modelled).toContain(name);
    expect(modelled.length).toBeGreaterThan(40);
  });

  it('gives the texel decoder’s words on every field code (random codes for 32-bit fields)', () => {
    const r = rng(7);
    const failures: string[] = [];
    for (const tf of formats.filter(overAlgebra)) {
      const eb = tf.layout.bytesPerElement;
      const widest = Math.max(...tf.layout.bits);
      const trials = widest <= 16 ? 2 ** widest : 4096;
      for (let t = 0; t < trials && failures.length < 10; t++) {
        const bytes = new Uint8Array(Math.max(4, Math.ceil(eb / 4) * 4));
        for (let i = 0; i < bytes.length; i++) bytes[i] = r() & 0xff;
        // Sweep the first component's every code; the others random.
        if (widest <= 16) for (let b = 0; b < Math.ceil(widest / 8); b++) bytes[b] = (t >> (8 * b)) & 0xff;
        const word = (i: number): number =>
          (bytes[4 * i]! | (bytes[4 * i + 1]! << 8) | (bytes[4 * i + 2]! << 16) | (bytes[4 * i + 3]! << 24)) >>> 0;
        const want = hostWords(tf, bytes.subarray(0, eb));
        const got = decodeElementOver(concrete, tf, word);
        if (!got.every((g, i) => same(g, want[i]!)))
          failures.push(`${tf.info.name} ${[...bytes].join(',')}: got ${got.join(',')} want ${want.join(',')}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lowers to native operations with the same bits (UNORM/SNORM of every width)', () => {
    for (const bits of [2, 5, 8, 10, 16]) {
      const b = exprBuilder();
      const root = unormBits(b, b.input('u'), bits);
      const low = new LowBuilder();
      const lowered = new Lowerer(low, (e) => low.input(e.name!)).lower(root);
      for (let u = 0; u < 2 ** bits; u += bits === 16 ? 7 : 1) {
        const inputs = { word: () => u, bool: () => false };
        const [viaExpr] = evaluateExpr([root], inputs);
        const [viaLow] = evaluateLow([lowered], inputs);
        expect(viaLow).toBe(viaExpr);
        expect(viaExpr).toBe(unormBits(concrete, u, bits));
      }
    }
  });

  it('stores as the documented conversions say (clamp, round to nearest even, NaN 0), on every format of fields up to 16 bits', () => {
    const r = rng(9);
    const specials = [
      0, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 1, 0x3effffff,
      0x3f7fffff, 0x40200000, 0xc0200000, 0x47000000, 0x477fff00, 0x4f800000,
    ];
    const even = (x: number): number => {
      const n = Math.round(x);
      return Math.abs(x % 1) === 0.5 && n % 2 !== 0 ? n - 1 : n;
    };
    const clampRound = (x: number, lo: number, hi: number): number =>
      Number.isNaN(x) ? 0 : even(Math.min(hi, Math.max(lo, x)));
    /** The conversion on numbers: f32 * (2^n - 1) is exact in f64 for n <= 16. */
    const reference = (tf: TexelFormat, c: number, word: number): number => {
      const bits = tf.layout.bits[c]!;
      const mask = 2 ** bits - 1;
      const smax = 2 ** (bits - 1) - 1;
      const f = f32Value(word);
      switch (tf.info.num_format) {
        case 'UNORM':
          return clampRound(f * mask, 0, mask);
        case 'SNORM':
          return clampRound(Math.min(1, Math.max(-1, f)) * smax, -smax, smax) & mask;
        case 'USCALED':
          return clampRound(f, 0, mask);
        case 'SSCALED':
          return clampRound(f, -smax - 1, smax) & mask;
        case 'FLOAT':
          return bits === 16 ? f16FromF32Bits(word, false, { f32Denormals: true, f64f16Denormals: true }) : word;
        default:
          return word & mask;
      }
    };
    const failures: string[] = [];
    let checked = 0;
    for (const tf of formats) {
      if (Math.max(...tf.layout.bits) > 16) continue;
      let fields;
      try {
        fields = encodeElementOver(concrete, tf, [0, 0, 0, 0], 4);
      } catch (e) {
        if (e instanceof TexelFormatError) continue;
        throw e;
      }
      expect(fields.length).toBeGreaterThan(0);
      checked++;
      for (let c = 0; c < tf.layout.components; c++)
        for (let t = 0; t < 3000 && failures.length < 10; t++) {
          // Specials, small integers as floats, fractions in [0, 1), and random words.
          const word =
            t < specials.length
              ? specials[t]!
              : t % 3 === 0
                ? new Uint32Array(new Float32Array([(r() % 70000) - 35000]).buffer)[0]!
                : t % 3 === 1
                  ? r() & 0x3f7fffff
                  : r();
          const want = reference(tf, c, word) >>> 0;
          const got = encodeComponentOver(concrete, tf, c, word) >>> 0;
          if (got !== want)
            failures.push(
              `${tf.info.name}[${c}] 0x${word.toString(16)}: got 0x${got.toString(16)} want 0x${want.toString(16)}`,
            );
        }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('lowers the stores to native operations with the same bits', () => {
    const r = rng(5);
    for (const name of [
      '8_8_8_8_UNORM',
      '16_16_SNORM',
      '8_USCALED',
      '16_SSCALED',
      '16_16_FLOAT',
      '2_10_10_10_UNORM',
      '32_UINT',
    ]) {
      const tf = formats.find((f) => f.info.name === name);
      if (!tf) continue;
      const b = exprBuilder();
      const fields = encodeElementOver(
        b,
        tf,
        [0, 1, 2, 3].map((i) => b.input(`w${i}`)),
        4,
      );
      const low = new LowBuilder();
      const lowerer = new Lowerer(low, (e) => low.input(e.name!));
      const lowered = fields.map((f) => lowerer.lower(f.value));
      for (let t = 0; t < 400; t++) {
        const w = [r(), r() & 0x3f7fffff, r() & 0xbf7fffff, t] as const;
        const inputs = { word: (n: string) => w[Number(n.slice(1))]!, bool: () => false };
        const want = encodeElementOver(concrete, tf, [...w], 4).map((f) => f.value >>> 0);
        expect(
          evaluateExpr(
            fields.map((f) => f.value),
            inputs,
          ),
        ).toEqual(want);
        expect(evaluateLow(lowered, inputs)).toEqual(want);
      }
    }
  });
});
