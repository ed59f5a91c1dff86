/**
 * llvm/perm_b32.ll (amdpal: input V# s[0:3], output V# s[4:7], tid in v0): (a, b, c, d) =
 * the 4 dwords at input byte 16·tid; output dword 4·tid + k is k0 perm(a, b, c &
 * 0x0f0f0f0f), k1 perm(a, b, 0x0c0d0809), k2 perm(a, b, 0x05040100), k3 perm(a, d,
 * 0x00010203), with llvm.amdgcn.perm's byte selection as the source's header gives it (AMD
 * GCN3 ISA, V_PERM_B32). gfx704 has no v_perm_b32: no build (llvm/FAILURES_ADDITIONS.txt).
 */
import { amdpalSpec, rng, u32, type CorpusKernel } from './common.ts';
import { vsharp } from './llvm-buffer-common.ts';

const LANES = 64;

/** perm(x, y, sel): result byte k from selector byte k over in[0..3] = y's bytes, in[4..7] = x's. */
export function perm(x: number, y: number, sel: number): number {
  const bytes = [0, 1, 2, 3].map((i) => (y >>> (8 * i)) & 0xff).concat([0, 1, 2, 3].map((i) => (x >>> (8 * i)) & 0xff));
  const sign = (i: number): number => ((bytes[i]! & 0x80) !== 0 ? 0xff : 0);
  let out = 0;
  for (let k = 0; k < 4; k++) {
    const s = (sel >>> (8 * k)) & 0xff;
    const v =
      s <= 7
        ? bytes[s]!
        : s === 8
          ? sign(1)
          : s === 9
            ? sign(3)
            : s === 10
              ? sign(5)
              : s === 11
                ? sign(7)
                : s === 12
                  ? 0
                  : 0xff;
    out |= v << (8 * k);
  }
  return out >>> 0;
}

export function reference(a: number, b: number, c: number, d: number): [number, number, number, number] {
  return [perm(a, b, c & 0x0f0f0f0f), perm(a, b, 0x0c0d0809), perm(a, b, 0x05040100), perm(a, d, 0x00010203)];
}

export const kernel: CorpusKernel = {
  id: 'llvm/perm_b32',
  spec(t) {
    if (t.name === 'gfx704') return undefined;
    const r = rng(0x9e4b);
    const input = Uint32Array.from({ length: 4 * LANES }, () => r());
    const out: number[] = [];
    for (let i = 0; i < LANES; i++)
      out.push(...reference(input[4 * i]!, input[4 * i + 1]!, input[4 * i + 2]!, input[4 * i + 3]!));
    return amdpalSpec(t, 'perm_b32', {
      userData: [vsharp(t, 'in', { numRecords: 16 * LANES }), vsharp(t, 'out', { numRecords: 16 * LANES })],
      group: LANES,
      memory: [
        { name: 'in', address: 0x30000000, data: u32(input) },
        { name: 'out', address: 0x30100000, data: { fill: 0xcd, size: 16 * LANES } },
      ],
      expected: [{ address: 'out', data: u32(out) }],
    });
  },
};
