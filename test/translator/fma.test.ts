/**
 * The exact f32 fma and rcp of the lowering (src/translator/lower.ts, integer arithmetic: a GPU's own
 * fma need not be fused, and SwiftShader's is not) against the concrete algebra's fma32Value, on
 * random operands heavy in the hard cases: cancellation (z close to -x*y), subnormal results,
 * overflow, far-apart exponents, under both denormal modes; and rcp (integer long division) on
 * mantissas across the exponent range, both signs, against the concrete algebra's.
 */
import { describe, expect, it } from 'vitest';
import { concrete } from '../../src/semantics/concrete.ts';
import { exprBuilder } from '../../src/semantics/expr.ts';
import { evaluateLow, LowBuilder } from '../../src/translator/low.ts';
import { Lowerer } from '../../src/translator/lower.ts';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const isNan = (b: number): boolean => (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;

describe('the lowered fma', () => {
  for (const keep of [true, false])
    it(`equals fma32Value bit for bit (f32 denormals ${keep ? 'kept' : 'flushed'})`, () => {
      const m = { f32Denormals: keep, f64f16Denormals: true };
      const b = exprBuilder();
      const root = b.fFma(b.input('x'), b.input('y'), b.input('z'), m);
      const low = new LowBuilder();
      const lowered = new Lowerer(low, (e) => low.input(e.name!)).lower(root);
      let seed = 99;
      const r = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
      const operand = (): number => {
        switch (r() % 6) {
          case 0:
            return r();
          case 1:
            return r() & 0x807fffff; // subnormal
          case 2:
            f32[0] = (r() % 2000) / 7 - 100;
            return u32[0]!;
          case 3:
            return ((r() & 0x80ffffff) | 0x3f000000) >>> 0;
          case 4:
            return ((r() & 0x81ffffff) | 0x7e000000) >>> 0; // near overflow
          default:
            return r() & 0x80ffffff; // tiny
        }
      };
      const failures: string[] = [];
      for (let i = 0; i < 40000 && failures.length < 5; i++) {
        const x = operand();
        const y = operand();
        let z = operand();
        if (i % 3 === 0) {
          // z near -x*y: the sum cancels.
          f32[0] = -(
            new Float32Array(new Uint32Array([x]).buffer)[0]! * new Float32Array(new Uint32Array([y]).buffer)[0]!
          );
          z = (u32[0]! ^ (r() & 0xff)) >>> 0;
        }
        const want = concrete.fFma(x, y, z, m);
        const [got] = evaluateLow([lowered], { word: (n) => (n === 'x' ? x : n === 'y' ? y : z), bool: () => false });
        if (got !== want && !(isNan(want) && isNan(got as number)))
          failures.push(
            `fma(${x.toString(16)}, ${y.toString(16)}, ${z.toString(16)}) = ${(got as number).toString(16)}, want ${want.toString(16)}`,
          );
      }
      expect(failures).toEqual([]);
    });
});

describe('the lowered rcp', () => {
  it('equals the concrete rcp bit for bit', () => {
    const m = { f32Denormals: true, f64f16Denormals: true };
    const b = exprBuilder();
    const root = b.fUnary('rcp', b.input('x'), m);
    const low = new LowBuilder();
    const lowered = new Lowerer(low, (e) => low.input(e.name!)).lower(root);
    const failures: string[] = [];
    for (const e of [0, 1, 2, 100, 126, 127, 128, 200, 252, 253, 254, 255])
      for (let f = 0; f < 0x800000 && failures.length < 5; f += e === 127 ? 611 : 4099)
        for (const sign of [0, 0x80000000]) {
          const x = (sign | (e << 23) | f) >>> 0;
          const want = concrete.fUnary('rcp', x, m);
          const [got] = evaluateLow([lowered], { word: () => x, bool: () => false });
          if (got !== want && !(isNan(want) && isNan(got as number)))
            failures.push(`rcp(${x.toString(16)}) = ${(got as number).toString(16)}, want ${want.toString(16)}`);
        }
    expect(failures).toEqual([]);
  });
});
