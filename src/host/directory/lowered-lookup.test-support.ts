/**
 * Test support: the directory's hash and search built on the expression algebra and lowered to
 * native operations, as the module gets them (D011), with each directory load a named leaf whose
 * index is itself a lowered node. The tests run it on the CPU (`evaluateLoweredLookup`, through
 * `evaluateLow`) and emit it as WGSL for the GPU; the translator does the same with its own loads.
 */
import { exprBuilder, type Expr } from '../../semantics/expr.ts';
import { LowBuilder, evaluateLow, type LowNode } from '../../translator/low.ts';
import { Lowerer } from '../../translator/lower.ts';
import { emitWgslExpressions, wgslWord } from '../../translator/wgsl/expressions.ts';
import { DESCRIPTOR_WORDS, descriptorHash, lookupDescriptor } from './hash.ts';

export interface LoweredLookup {
  readonly hash: LowNode;
  readonly place: LowNode;
  readonly found: LowNode;
  /** Each load leaf's name and the lowered node of its index. */
  readonly loads: ReadonlyMap<string, LowNode>;
}

const LOAD_PREFIX = 'dir@';

/** The search for the words named `w0`..`w7`, in the shape of the bool named `cube`. */
export function lowerLookup(): LoweredLookup {
  const e = exprBuilder();
  const words = Array.from({ length: DESCRIPTOR_WORDS }, (_, k) => e.input(`w${k}`));
  const indexOf = new Map<string, Expr>();
  const readWord = (index: Expr): Expr => {
    const name = `${LOAD_PREFIX}${index.id}`;
    indexOf.set(name, index);
    return e.input(name);
  };
  const hashExpr = descriptorHash(e, words);
  const hit = lookupDescriptor(e, readWord, words, e.boolInput('cube'));
  const low = new LowBuilder();
  const loads = new Map<string, LowNode>();
  // A load's index is lowered before the load's leaf is made, so the leaf follows it in node order.
  const lowerer: Lowerer = new Lowerer(low, (leaf) => {
    const name = leaf.name!;
    const index = indexOf.get(name);
    if (index !== undefined) loads.set(name, lowerer.lower(index));
    return leaf.op === 'binput' ? low.boolInput(name) : low.input(name);
  });
  return { hash: lowerer.lower(hashExpr), place: lowerer.lower(hit.place), found: lowerer.lower(hit.found), loads };
}

/** Runs the lowered search on the CPU against a packed directory. */
export function evaluateLoweredLookup(
  l: LoweredLookup,
  packed: Uint32Array,
  words: readonly number[],
  cube: boolean,
): { hash: number; place: number; found: boolean } {
  const inputs = {
    word(name: string): number {
      if (/^w\d$/.test(name)) return words[Number(name.slice(1))] >>> 0;
      const index = l.loads.get(name);
      if (index === undefined) throw new Error(`no input ${name}`);
      const [i] = evaluateLow([index], inputs) as number[];
      if (i >= packed.length) throw new RangeError(`directory word ${i} beyond its ${packed.length}`);
      return packed[i];
    },
    bool: (name: string): boolean => {
      if (name !== 'cube') throw new Error(`no bool input ${name}`);
      return cube;
    },
  };
  const [hash, place, found] = evaluateLow([l.hash, l.place, l.found], inputs);
  return { hash: hash as number, place: place as number, found: found as boolean };
}

/**
 * The search as WGSL statements: `words` is a WGSL expression of an array of 8 u32 (indexed
 * `words[k]`), `cube` a bool expression, `dir` the directory's storage array.
 */
export function lookupWgsl(
  l: LoweredLookup,
  names: { readonly words: string; readonly cube: string; readonly dir: string },
): { statements: string[]; hash: string; place: string; found: string } {
  const ref = (n: LowNode): string => (n.op === 'const' ? wgslWord(n.value!) : `t${n.id}`);
  const roots = [l.hash, l.place, l.found, ...l.loads.values()];
  const out = emitWgslExpressions(roots, (n) => {
    const name = n.name!;
    if (name === 'cube') return names.cube;
    const index = l.loads.get(name);
    if (index !== undefined) return `${names.dir}[${ref(index)}]`;
    return `${names.words}[${Number(name.slice(1))}]`;
  });
  const [hash, place, found] = out.results;
  return { statements: out.statements, hash, place, found };
}
