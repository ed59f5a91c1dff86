/**
 * radv/divergent_if_loop.comp, WG 64, b2 = uint o[]:
 *   x = o[i]; if (x > 100) o[x] = 3x; else o[i + 64] = x + 7;
 *   acc = 0; for (k = 0; k < x; k++) { v = o[k + 128]; if (v == i) break; acc += v; }  o[i] = acc
 * The inputs keep every lane's stores apart from every other lane's loads (checked here), so
 * the result does not depend on how lanes and waves interleave.
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';

export const WORDS = 2048;
const LOOP_END = 1024; // loads stay in [128, LOOP_END); far stores go to [LOOP_END, WORDS)

export function inputs(seed: number): Uint32Array {
  const r = rng(seed);
  const o = new Uint32Array(WORDS);
  const far = new Set<number>();
  for (let i = 0; i < 64; i++) {
    if (r() % 2 === 0) o[i] = r() % 101;
    else {
      let x: number;
      do x = LOOP_END + (r() % (WORDS - LOOP_END));
      while (far.has(x));
      far.add(x);
      o[i] = x;
    }
  }
  for (let k = 64; k < WORDS; k++) o[k] = k >= 128 && k < LOOP_END ? r() % 64 : r();
  return o;
}

export function reference(input: Uint32Array): Uint32Array {
  const o = input.slice();
  const xs = Array.from(input.subarray(0, 64));
  const written = new Set<number>();
  xs.forEach((x, i) => {
    const at = x > 100 ? x : i + 64;
    o[at] = x > 100 ? Math.imul(x, 3) >>> 0 : (x + 7) >>> 0;
    written.add(at);
  });
  xs.forEach((x, i) => {
    let acc = 0;
    for (let k = 0; k < x; k++) {
      const at = k + 128;
      if (at >= LOOP_END || written.has(at)) throw new Error('inputs let a load meet a store');
      const v = o[at]!;
      if (v === i) break;
      acc = (acc + v) >>> 0;
    }
    o[i] = acc;
  });
  return o;
}

export const kernel: CorpusKernel = {
  id: 'radv/divergent_if_loop',
  spec(t) {
    const input = inputs(0xd1f0);
    return radvSpec(t, 'divergent_if_loop', {
      set: [{ offset: RADV_BINDING.b2, descriptor: storageBuffer(t, 'buf', WORDS * 4) }],
      group: 64,
      memory: [{ name: 'buf', address: 0x30000000, data: u32(input) }],
      expected: [{ address: 'buf', data: u32(reference(input)) }],
    });
  },
};
