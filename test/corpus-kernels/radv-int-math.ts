/**
 * radv/int_math.comp, WG 64, here two groups (i = gl_GlobalInvocationID.x = group * 64 +
 * local id, the group id in the SGPR after the set pointer). Input b3[0] `{uvec4 u; ivec4 s}`
 * per invocation; output b3[1] 32 words per invocation, the contract in the source's header
 * (GLSL 4.60 §8.8 integer functions, §5.9 operators), all mod 2^32 or 2^64. The one case the
 * contract leaves to the listing (INT_MIN / -1 and INT_MIN % -1) is not among the inputs.
 */
import { RADV_BINDING, radvSpec, rng, storageBuffer, u32, type CorpusKernel } from './common.ts';

export interface IntInput {
  readonly u: readonly [number, number, number, number];
  readonly s: readonly [number, number, number, number];
}

const U64 = (1n << 64n) - 1n;

function findMsbU(x: number): number {
  return x === 0 ? -1 : 31 - Math.clz32(x);
}
function bitfieldExtractU(x: number, offset: number, bits: number): number {
  return bits === 0 ? 0 : ((x >>> offset) & (2 ** bits - 1)) >>> 0;
}
function bitfieldExtractS(x: number, offset: number, bits: number): number {
  if (bits === 0) return 0;
  const v = (x >>> offset) & (2 ** bits - 1);
  return (v >= 2 ** (bits - 1) ? v - 2 ** bits : v) >>> 0;
}
function bitfieldInsert(base: number, insert: number, offset: number, bits: number): number {
  const mask = bits === 0 ? 0 : ((2 ** bits - 1) * 2 ** offset) >>> 0;
  return ((base & ~mask) | ((insert << offset) & mask)) >>> 0;
}
function bitReverse(x: number): number {
  let r = 0;
  for (let b = 0; b < 32; b++) r |= ((x >>> b) & 1) << (31 - b);
  return r >>> 0;
}
function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v >>>= 1) n += v & 1;
  return n;
}
const words64 = (v: bigint): [number, number] => [Number(v & 0xffffffffn), Number((v >> 32n) & 0xffffffffn)];

/** The 32 output words of one invocation. */
export function reference({ u, s }: IntInput): number[] {
  const [ux, uy, uz, uw] = u.map((v) => v >>> 0);
  const [sx, sy] = [s[0] | 0, s[1] | 0];
  const o: number[] = [];
  const up = BigInt(ux) * BigInt(uy);
  const [ulo, uhi] = words64(up);
  o.push(uhi, ulo);
  const [slo, shi] = words64(BigInt(sx) * BigInt(sy));
  o.push(shi, slo);
  o.push(bitfieldExtractU(ux, 5, 7));
  o.push(bitfieldExtractS(sx, 3, 9));
  o.push(bitfieldExtractU(ux, uz & 15, uw & 15));
  o.push(bitfieldInsert(ux, uy, 8, 12));
  o.push(bitfieldInsert(ux, uy, uz & 15, uw & 15));
  o.push(popcount(ux));
  o.push(findMsbU(ux) >>> 0);
  o.push((sx < 0 ? findMsbU(~sx >>> 0) : findMsbU(sx)) >>> 0);
  o.push((ux === 0 ? -1 : 31 - Math.clz32(ux & -ux)) >>> 0);
  o.push(bitReverse(ux));
  o.push((ux << (uz & 31)) >>> 0, ux >>> (uz & 31), (sx >> (uz & 31)) >>> 0);
  const w = BigInt(ux) | (BigInt(uy) << 32n);
  o.push(...words64((w << BigInt(uz & 63)) & U64));
  o.push(...words64(w >> BigInt(uw & 63)));
  o.push(...words64(BigInt.asIntN(64, w) >> BigInt(uw & 63)));
  const sum = ux + uy;
  o.push(sum >>> 0, sum > 0xffffffff ? 1 : 0);
  o.push((ux - uy) >>> 0, ux < uy ? 1 : 0);
  const d = Math.max(uy, 1);
  o.push(Math.floor(ux / d), ux % d);
  const e = sy === 0 ? 1 : sy;
  o.push(Math.trunc(sx / e) >>> 0);
  // OpSMod: the remainder takes the divisor's sign.
  let m = sx % e;
  if (m !== 0 && m < 0 !== e < 0) m += e;
  o.push(m >>> 0);
  o.push(Math.floor(ux / 7));
  return o;
}

/** Edge inputs first (zeros, all ones, INT_MIN, shifts of 0/31/32/63, carries and borrows), then random ones. */
function inputs(r: () => number, n: number): IntInput[] {
  const edges: [number, number, number, number, number, number][] = [
    // ux, uy, uz, uw, sx, sy
    [0, 0, 0, 0, 0, 0],
    [0xffffffff, 0xffffffff, 63, 63, -1, -1],
    [0xffffffff, 1, 32, 32, -0x80000000, 1],
    [0x80000000, 0x80000000, 31, 31, -0x80000000, 2],
    [1, 0xffffffff, 33, 1, 0x7fffffff, -0x80000000],
    [7 * 123456, 7, 15, 15, -7, 7],
    [7 * 613566756, 0, 0x10, 0x2f, 7, -7],
    [7 * 613566756 + 6, 3, 0x4f, 0x20, -0x80000000, -2],
    [0x12345678, 0x9abcdef0, 0x3e, 0x3f, -123456789, 0],
    [0x00010000, 0x00010000, 1, 0, 0x40000000, 4],
    [0xdeadbeef, 0xdeadbeef, 0x0f, 0x0f, -100, 7],
    [100, 7, 8, 12, 100, -7],
  ];
  const out: IntInput[] = edges.map(([ux, uy, uz, uw, sx, sy]) => ({
    u: [ux >>> 0, uy >>> 0, uz, uw],
    s: [sx, sy, r() | 0, r() | 0],
  }));
  while (out.length < n) {
    const small = out.length % 4 === 0; // small divisors and values, so quotients and remainders vary
    const sy = small ? ((r() % 31) - 15) | 0 : r() | 0;
    const sx = r() | 0;
    out.push({
      u: [r(), small ? r() % 1000 : r(), r(), r()],
      s: [sx === -0x80000000 && sy === -1 ? 0 : sx, sy, r() | 0, r() | 0],
    });
  }
  return out;
}

const GROUPS = 2;
const N = 64 * GROUPS;

export const kernel: CorpusKernel = {
  id: 'radv/int_math',
  spec(t) {
    const r = rng(0x1a7e);
    const ins = inputs(r, N);
    const words = ins.flatMap((x) => [...x.u, ...x.s]);
    const out = ins.flatMap(reference);
    return radvSpec(t, 'int_math', {
      set: [
        { offset: RADV_BINDING.b3, descriptor: storageBuffer(t, 'in', N * 32) },
        { offset: RADV_BINDING.b3 + 16, descriptor: storageBuffer(t, 'out', N * 128) },
      ],
      grid: GROUPS,
      group: 64,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(words) },
        { name: 'out', address: 0x30100000, data: { fill: 0xcd, size: N * 128 } },
      ],
      expected: [{ address: 'out', data: u32(out) }],
    });
  },
};
