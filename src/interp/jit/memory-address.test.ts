/**
 * The compiled MUBUF and DS address rules (buffer-address.ts, ds-address.ts) against
 * buffer-ops.ts's shared rules applied directly on numbers: random V#s of every generation
 * (strided, swizzled, ADD_TID, each OOB_SELECT), random lane inputs with edge values, and DS
 * instructions of each shape near the LDS limit. Every offset and out-of-range bit must agree.
 */
import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../../isa/asm.ts';
import { decodeAt } from '../../isa/decoder.ts';
import { Gen, targetFor } from '../../isa/gen.ts';
import { bufferLayout, encodeBufferDescriptor, type BufferFieldName } from '../../host/descriptors/index.ts';
import { concrete } from '../../semantics/concrete.ts';
import { bufferOffsetOver, bufferOutOfRange, bufferRsrcOf, dsAccesses } from '../buffer-ops.ts';
import { parseDsOp } from '../lds.ts';
import { compileBufferAddress } from './buffer-address.ts';
import { compileDsAddress } from './ds-address.ts';

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

const EDGES = [0, 1, 3, 4, 15, 16, 0x7fffffff, 0x80000000, 0xfffffffc, 0xffffffff];
const edgy = (r: () => number): number =>
  r() % 3 === 0 ? EDGES[r() % EDGES.length]! : r() % 3 === 1 ? r() % 4096 : r();

describe('compiled MUBUF addresses equal the shared rules', () => {
  for (const gen of [Gen.GFX7, Gen.GFX8, Gen.GFX9, Gen.GFX10_3, Gen.GFX11]) {
    it(`gen ${gen}: random V#s and lanes`, () => {
      const r = rng(0xadd0 + gen);
      const fields = bufferLayout(gen).fields;
      const failures: string[] = [];
      const into = new Float64Array(8);
      for (let v = 0; v < 150; v++) {
        const spec: Partial<Record<BufferFieldName, number>> = {};
        for (const f of fields)
          spec[f.name as BufferFieldName] = f.name.startsWith('base')
            ? r() % 2 ** Math.min(f.width, 16)
            : r() % 2 ** Math.min(f.width, 31);
        spec.num_records = edgy(r);
        spec.stride = r() % 4 === 0 ? 0 : r() % 64;
        const words = [...encodeBufferDescriptor(gen, spec)];
        const rs = bufferRsrcOf(gen, words);
        const idxen = (r() & 1) === 1;
        const instOffset = r() % 4096;
        const dwords = 1 + (r() % 4);
        const f = compileBufferAddress(gen, words, idxen, instOffset, dwords);
        expect(f).toBeDefined();
        for (let lane = 0; lane < 40; lane++) {
          const [index, voffset, soffset] = [edgy(r), edgy(r), edgy(r)];
          f!(index, voffset, soffset, into);
          for (let k = 0; k < dwords; k++) {
            const off = (voffset + instOffset + 4 * k) >>> 0;
            const at = (soffset + bufferOffsetOver(concrete, rs, index, off)) >>> 0;
            const out = bufferOutOfRange(concrete, gen, rs, idxen, index, off, soffset);
            if (into[2 * k] !== at || (into[2 * k + 1] === 1) !== out)
              failures.push(
                `${words.join(',')} ${index}/${voffset}/${soffset} dword ${k}: ${into[2 * k]}/${at} ${into[2 * k + 1]}/${out}`,
              );
          }
        }
      }
      expect(failures.slice(0, 5)).toEqual([]);
    });
  }
});

describe('compiled DS addresses equal the shared rule', () => {
  const SOURCES = [
    'ds_write_b32 v1, v2 offset:60',
    'ds_read_b64 v[2:3], v1 offset:65528',
    'ds_read_b128 v[4:7], v1',
    'ds_write2_b32 v1, v2, v3 offset0:3 offset1:255',
    'ds_read2st64_b64 v[2:5], v1 offset0:1 offset1:7',
    'ds_read_u16 v2, v1 offset:2',
    'ds_add_u32 v1, v2',
    'ds_cmpst_rtn_b64 v[2:3], v1, v[4:5], v[6:7]',
  ];
  for (const cpu of ['gfx803', 'gfx1030']) {
    it(`${cpu}: ${SOURCES.length} instructions near the limit`, () => {
      const target = targetFor(cpu, false);
      const r = rng(0xd5);
      const failures: string[] = [];
      const into = new Float64Array(16);
      for (const src of SOURCES) {
        const words = assembleProgram(target, src).words;
        const inst = decodeAt(target, words, 0);
        const op = parseDsOp(inst.def.name);
        if (typeof op === 'string' || (op.kind !== 'mem' && op.kind !== 'two' && op.kind !== 'atomic'))
          throw new Error(`${src}: ${String(op)}`);
        for (const limit of [0, 4, 1024, 65536, 0xffffffff]) {
          const c = compileDsAddress(target.gen, inst, op, limit);
          expect(c).toBeDefined();
          for (let lane = 0; lane < 60; lane++) {
            const addr = r() % 2 === 0 ? (limit - (r() % 64)) >>> 0 : edgy(r);
            c!.run(addr, into);
            const want = dsAccesses(concrete, target.gen, inst, op, addr, limit);
            expect(want.length).toBe(c!.accesses.length);
            want.forEach((a, j) => {
              const { slot, slots, access } = c!.accesses[j]!;
              expect([access.op, access.data, access.src, access.src2, access.returns]).toEqual([
                a.op,
                a.data,
                a.src,
                a.src2,
                a.returns,
              ]);
              for (let k = 0; k < slots; k++)
                if (into[2 * (slot + k)] !== a.address(4 * k) || (into[2 * (slot + k) + 1] === 1) !== a.out(4 * k))
                  failures.push(`${src} limit ${limit} addr ${addr} access ${j} dword ${k}`);
            });
          }
        }
      }
      expect(failures.slice(0, 5)).toEqual([]);
    });
  }
});
