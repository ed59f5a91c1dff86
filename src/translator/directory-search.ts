/**
 * The directory search as the module runs it (D013, D017): the shared definition
 * (`src/host/directory/hash.ts`: `descriptorHash`, `lookupDescriptor`, the same functions the host
 * places descriptors with) built on the expression algebra, lowered to native operations, and
 * emitted as one WGSL function. Each directory load is a leaf whose index is itself a lowered
 * node, so the module's probes read exactly the words the host's search reads.
 */
import { exprBuilder, type Expr } from '../semantics/expr.ts';
import { DESCRIPTOR_WORDS, descriptorHash, lookupDescriptor } from '../host/directory/hash.ts';
import { LowBuilder, evaluateLow, type LowNode } from './low.ts';
import { Lowerer } from './lower.ts';
import { emitWgslExpressions, wgslWord } from './wgsl/expressions.ts';

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
 * `words[k]`), `cube` a bool expression, `load(i)` the WGSL of the directory's word `i`.
 */
export function lookupWgsl(
  l: LoweredLookup,
  names: { readonly words: string; readonly cube: string; readonly load: (index: string) => string },
): { statements: string[]; hash: string; place: string; found: string } {
  const ref = (n: LowNode): string => (n.op === 'const' ? wgslWord(n.value!) : `t${n.id}`);
  const roots = [l.hash, l.place, l.found, ...l.loads.values()];
  const out = emitWgslExpressions(roots, (n) => {
    const name = n.name!;
    if (name === 'cube') return names.cube;
    const index = l.loads.get(name);
    if (index !== undefined) return names.load(ref(index));
    return `${names.words}[${Number(name.slice(1))}]`;
  });
  const [hash, place, found] = out.results;
  return { statements: out.statements, hash, place, found };
}

/**
 * `fn name(base: u32, w: array<u32, 8>, cube: bool) -> vec2<u32>`: the place (x) and whether the
 * directory held the words in that shape (y = 1), searching the packed directory that starts at
 * word `base` of the storage array `dir`.
 */
export function directorySearchWgsl(name: string, dir: string): string {
  const s = lookupWgsl(lowerLookup(), { words: 'w', cube: 'cube', load: (i) => `${dir}[base + ${i}]` });
  return `fn ${name}(base: u32, w: array<u32, ${DESCRIPTOR_WORDS}>, cube: bool) -> vec2<u32> {
  ${s.statements.join('\n  ')}
  return vec2<u32>(${s.place}, select(0u, 1u, ${s.found}));
}
`;
}
