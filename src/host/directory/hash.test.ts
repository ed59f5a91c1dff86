/**
 * The hash and the search are one definition: evaluated on the concrete algebra (the host) and
 * built on the expression algebra, lowered to native operations and evaluated there (the
 * module), they agree on random words and on a built directory.
 */
import { describe, expect, it } from 'vitest';
import { concrete } from '../../semantics/concrete.ts';
import { exprBuilder } from '../../semantics/expr.ts';
import { LowBuilder, evaluateLow, lowReachable } from '../../translator/low.ts';
import { Lowerer } from '../../translator/lower.ts';
import { emitWgslExpressions } from '../../translator/wgsl/expressions.ts';
import { buildDirectory, findInDirectory, hostDescriptorHash } from './directory.ts';
import { DESCRIPTOR_WORDS, descriptorHash } from './hash.ts';
import { imagePlace } from './ids.ts';
import { evaluateLoweredLookup, lowerLookup, lookupWgsl } from './lowered-lookup.test-support.ts';

function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

/** Random words with the edge values a descriptor holds often (zeros, all ones, small fields). */
function randomWords(next: () => number): number[] {
  return Array.from({ length: DESCRIPTOR_WORDS }, () => {
    const r = next();
    switch (r & 7) {
      case 0:
        return 0;
      case 1:
        return 0xffffffff;
      case 2:
        return next() & 0xff;
      default:
        return next();
    }
  });
}

describe('the directory hash', () => {
  it('lowered from the expression algebra computes what the concrete algebra computes', () => {
    const e = exprBuilder();
    const inputs = Array.from({ length: DESCRIPTOR_WORDS }, (_, k) => e.input(`w${k}`));
    const expr = descriptorHash(e, inputs);
    const low = new LowBuilder();
    const lowerer = new Lowerer(low, (leaf) => low.input(leaf.name!));
    const root = lowerer.lower(expr);
    // Integer operations only: every back end computes the same bits.
    const ops = new Set(lowReachable([root]).map((n) => n.op));
    expect([...ops].sort()).toEqual(['const', 'input', 'mul', 'shr', 'xor']);
    const next = rng(0xd13);
    for (let t = 0; t < 2000; t++) {
      const words = randomWords(next);
      const [got] = evaluateLow([root], { word: (n) => words[Number(n.slice(1))], bool: () => false });
      expect(got, words.map((w) => w.toString(16)).join(' ')).toBe(descriptorHash(concrete, words));
    }
    // And it emits as WGSL statements (one per native operation, no helper functions).
    const wgsl = emitWgslExpressions([root], (n) => `w[${n.name!.slice(1)}]`);
    expect(wgsl.statements.length).toBeGreaterThan(20);
    expect(wgsl.statements.every((s) => /^let t\d+: u32 = /.test(s))).toBe(true);
  });

  it('differs for descriptors that differ in one word (each step is a bijection)', () => {
    const next = rng(7);
    for (let t = 0; t < 500; t++) {
      const a = randomWords(next);
      const b = a.slice();
      const k = next() % DESCRIPTOR_WORDS;
      b[k] = (b[k] ^ (1 << (next() % 32)) ^ (next() & 0xff)) >>> 0;
      if (b[k] === a[k]) b[k] = (b[k] + 1) >>> 0;
      expect(hostDescriptorHash(a)).not.toBe(hostDescriptorHash(b));
    }
  });

  it('spreads real-looking descriptors over the low bits a slot index takes', () => {
    // 4096 T#-like records differing only in their base address (dw0), as a table's images do.
    const counts = new Array(8192).fill(0);
    for (let i = 0; i < 4096; i++)
      counts[hostDescriptorHash([0x1000 + i * 0x40, 0x0a900000, 0x3ff3ffff, 0x90fac688, 0, 0, 0, 0]) & 8191]++;
    // At load 0.5 a uniform hash leaves about e^-0.5 = 61% of the slots empty and few with more than 3.
    const empty = counts.filter((c) => c === 0).length / counts.length;
    expect(empty).toBeGreaterThan(0.55);
    expect(empty).toBeLessThan(0.67);
    expect(counts.filter((c) => c > 4).length).toBeLessThan(20);
  });
});

describe('the search lowered as the module runs it', () => {
  it('finds what the host search finds, and escapes where it escapes', () => {
    const next = rng(99);
    const entries = Array.from({ length: 40 }, (_, i) => ({
      words: randomWords(next),
      place: imagePlace((i * 17) % 40),
      cube: i % 5 === 0,
    }));
    const dir = buildDirectory(entries);
    const lowered = lowerLookup();
    const probes = [
      ...entries.map((e) => ({ words: e.words, cube: e.cube })),
      ...entries.slice(0, 10).map((e) => ({ words: e.words, cube: !e.cube })), // the other shape
      ...Array.from({ length: 10 }, () => ({ words: randomWords(next), cube: false })), // not held
      { words: new Array(8).fill(0), cube: false }, // an empty slot's words
    ];
    let found = 0;
    for (const p of probes) {
      const host = findInDirectory(dir.packed, p.words, p.cube);
      const module = evaluateLoweredLookup(lowered, dir.packed, p.words, p.cube);
      expect(module.hash).toBe(hostDescriptorHash(p.words));
      expect({ place: module.place, found: module.found }).toEqual({ place: host.place, found: host.found });
      if (host.found) found++;
    }
    expect(found).toBe(entries.length);
  });

  it('emits as WGSL reading the directory at lowered indices', () => {
    const w = lookupWgsl(lowerLookup(), { words: 'words', cube: 'want_cube', load: (i) => `dir[${i}]` });
    const text = w.statements.join('\n');
    expect(text).toMatch(/dir\[0x0u\]/); // the slot count
    expect(text).toMatch(/dir\[t\d+\]/); // the probed words
    expect(text).toContain('want_cube');
    expect(w.found).toMatch(/^t\d+$/);
  });
});
