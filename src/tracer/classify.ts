/**
 * Classifies one descriptor of an access from its words' traced values (D983):
 *
 * - bound: every word is known at dispatch (constants, user data, loads at fixed places, and
 *   expressions of those), so the host can read the descriptor before the dispatch runs;
 * - selected: the words are a record the program selects from a table per lane, inside a
 *   recognised waterfall: loaded at an offset computed from a lane's index (ACO), or read per
 *   lane from VGPRs that a per-lane load filled from a table (LLVM). The selection names the
 *   table (its traced base), the record's stride and start, the per-lane index, and the shape;
 * - untraced: anything else, with the reason and the address that stands in the way.
 */
import type { Expr } from '../semantics/expr.ts';
import type { ControlFlowGraph } from './cfg.ts';
import type { DataFlowResult } from './dataflow.ts';
import { hexAddress, type CodeAddress } from './ids.ts';
import {
  describeValue,
  keyNames,
  obstaclesOf,
  provenanceShort,
  type LanePick,
  type Provenance,
  type SelectedLoad,
  type UntracedReason,
} from './provenance.ts';
import { constantOf, exprText, type Leaves, type Origin, type TracedValue, type ValueFacts } from './values.ts';
import { wideSum } from './wide-offset.ts';
import { isWaterfallFailure, recogniseWaterfall, valueBeforeWaterfall, type WaterfallShape } from './waterfall.ts';

/** Where the selected records lie. */
export interface TableReference {
  /**
   * 'scalar-address': s_load from a 64-bit base; 'scalar-descriptor': s_buffer_load through a V#;
   * 'buffer': a per-lane buffer load through a V#; 'global-address': a per-lane global/flat load from a 64-bit base.
   */
  readonly through: 'scalar-address' | 'scalar-descriptor' | 'buffer' | 'global-address';
  /** The base's words (2 for an address, 4 for a V#), each traced. */
  readonly base: readonly Provenance[];
  /** The base in one line (the slot grouping compares it). */
  readonly text: string;
  /** The base's words as traced values (known at dispatch: the host evaluates them to read the table). */
  readonly baseExprs: readonly Expr[];
}

export interface Selection {
  readonly shape: WaterfallShape;
  readonly table: TableReference;
  /** The record's byte offset from the table's base, per lane, as the program computes it (lane reads named by their VGPRs). */
  readonly offset: string;
  /**
   * offset = start + stride * index, where the program's arithmetic says so; `indexExpr` is the
   * per-lane index as an expression of the entry VGPRs and loads (the translator computes it).
   */
  readonly record: {
    readonly start: number;
    readonly stride: number;
    readonly index: string;
    readonly indexExpr: Expr;
    /**
     * The index is a signed 32-bit value the program sign-extends to a 64-bit offset (LLVM's
     * `sext(idx) * stride`); otherwise an unsigned one.
     */
    readonly signed: boolean;
  };
  /** Each word's byte offset inside the record (undefined: the word is known at dispatch, not selected). */
  readonly words: readonly {
    readonly register: string;
    readonly recordOffset: number | undefined;
    readonly computed: boolean;
  }[];
}

export type Classification =
  | { readonly kind: 'bound' }
  | { readonly kind: 'selected'; readonly selection: Selection }
  | {
      readonly kind: 'untraced';
      readonly reason: UntracedReason;
      readonly at: CodeAddress;
      readonly detail: string;
      /** The waterfall, when one was recognised but its table was not. */
      readonly shape?: WaterfallShape;
    };

export interface ClassifyInput {
  readonly cfg: ControlFlowGraph;
  readonly flow: DataFlowResult;
  readonly leaves: Leaves;
  readonly facts: ValueFacts;
  readonly entryVgpr: (i: number) => TracedValue;
}

/** value = start + scale * term, as far as adds of constants, shifts and multiplies by constants say. */
export interface Affine {
  readonly scale: number;
  readonly constant: number;
  readonly term: Expr | undefined;
}

export function affineOf(e: Expr): Affine {
  const c = constantOf(e);
  if (c !== undefined) return { scale: 0, constant: c, term: undefined };
  const plus = (x: Expr, k: number): Affine => {
    const a = affineOf(x);
    return { ...a, constant: (a.constant + k) >>> 0 };
  };
  const times = (x: Expr, k: number): Affine => {
    const a = affineOf(x);
    return { scale: a.scale * k, constant: Math.imul(a.constant, k) >>> 0, term: a.term };
  };
  const [a, b] = e.args;
  const ca = a && constantOf(a);
  const cb = b && constantOf(b);
  if (e.op === 'add') {
    if (cb !== undefined) return plus(a, cb);
    if (ca !== undefined) return plus(b, ca);
  }
  if (e.op === 'proj' && e.value === 0 && a.op === 'addCarry' && constantOf(a.args[2]) === 0) {
    const [x, y] = a.args;
    const cx = constantOf(x);
    const cy = constantOf(y);
    if (cy !== undefined) return plus(x, cy);
    if (cx !== undefined) return plus(y, cx);
  }
  if (e.op === 'shl' && cb !== undefined && cb < 32) return times(a, 2 ** cb);
  if (e.op === 'mulLo') {
    if (cb !== undefined) return times(a, cb);
    if (ca !== undefined) return times(b, ca);
  }
  return { scale: 1, constant: 0, term: e };
}

/** The terms of a sum (adds and the sum half of add-with-carry; a carry-in is the 64-bit add's and is left out). */
function sumTerms(e: Expr): Expr[] {
  if (e.op === 'add') return [...sumTerms(e.args[0]), ...sumTerms(e.args[1])];
  if (e.op === 'proj' && e.value === 0 && e.args[0].op === 'addCarry')
    return [...sumTerms(e.args[0].args[0]), ...sumTerms(e.args[0].args[1])];
  if (constantOf(e) === 0) return [];
  return [e];
}

const untraced = (reason: UntracedReason, at: CodeAddress, detail: string, shape?: WaterfallShape): Classification =>
  shape ? { kind: 'untraced', reason, at, detail, shape } : { kind: 'untraced', reason, at, detail };

function unique<T>(xs: readonly T[], key: (x: T) => unknown): T[] {
  const seen = new Set<unknown>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Classifies the descriptor whose words (registers `names`) hold `words` at the access at `access`. */
export function classifyDescriptor(
  input: ClassifyInput,
  access: CodeAddress,
  names: readonly string[],
  words: readonly TracedValue[],
): Classification {
  const { leaves, facts } = input;
  const obstacles = words.map((w) => obstaclesOf(w.expr, leaves, facts));
  if (obstacles.every((o) => o.picks.length === 0 && o.selectedLoads.length === 0 && o.others.length === 0))
    return { kind: 'bound' };
  const others = obstacles.flatMap((o) => o.others);
  if (others.length > 0) {
    const i = obstacles.findIndex((o) => o.others.length > 0);
    const o = others[0];
    return untraced(o.reason, o.at ?? access, `${names[i]}: ${o.detail}`);
  }
  const loads = unique(
    obstacles.flatMap((o) => o.selectedLoads),
    (l) => l.leaf,
  );
  const picks = unique(
    obstacles.flatMap((o) => o.picks),
    (p) => p.leaf,
  );
  if (loads.length > 0 && picks.length > 0)
    return untraced(
      'mixed-selection',
      access,
      'some words are lane reads of VGPRs and others loads at a place selected per lane',
    );
  return loads.length > 0
    ? indexSelection(input, access, names, words, loads)
    : descriptorSelection(input, access, names, words, picks);
}

/** ACO's shape: the words are loaded at an offset computed from a lane's index. */
function indexSelection(
  input: ClassifyInput,
  access: CodeAddress,
  names: readonly string[],
  words: readonly TracedValue[],
  loads: readonly SelectedLoad[],
): Classification {
  const { leaves, facts } = input;
  const byInstruction = unique(loads, (l) => l.origin.at);
  const first = byInstruction[0].origin;
  const firstOffset = affineOf(first.offset.expr);
  for (const l of byInstruction) {
    const a = affineOf(l.origin.offset.expr);
    if (
      l.origin.through !== first.through ||
      l.origin.base.some((b, i) => b.expr !== first.base[i].expr) ||
      a.term !== firstOffset.term ||
      a.scale !== firstOffset.scale
    )
      return untraced(
        'mixed-selection',
        l.origin.at,
        `the loads at ${hexAddress(first.at)} and ${hexAddress(l.origin.at)} select from different tables or records`,
      );
  }
  const keys = unique(
    loads.flatMap((l) => l.picks),
    (p) => p.leaf,
  );
  const shape = recogniseWaterfall(input, access, keys, 'index', input.entryVgpr);
  if (isWaterfallFailure(shape)) return untraced(shape.failure, shape.at, shape.detail);
  const start0 = Math.min(...byInstruction.map((l) => affineOf(l.origin.offset.expr).constant));
  let stride = firstOffset.scale;
  let start = start0;
  let indexExpr = firstOffset.term ?? leaves.builder.word(0);
  let index = exprText(indexExpr, leaves, keyNames(leaves));
  const term = firstOffset.term;
  const pick = term && keys.find((k) => k.leaf === term);
  if (pick) {
    // The key is a pre-scaled index (RADV: `(i & 15) << 4` + the binding's offset): read the scale from the lane's value.
    const key = valueBeforeWaterfall(input, shape, pick.origin.vgpr, pick.origin.laneValue, input.entryVgpr);
    const lane = affineOf(key.expr);
    stride *= lane.scale;
    start = (start0 + Math.imul(firstOffset.scale, lane.constant)) >>> 0;
    indexExpr = lane.term ?? leaves.builder.word(0);
    index = exprText(indexExpr, leaves);
  }
  const base = first.base.map((b) => describeValue(b.expr, leaves, facts));
  const through = first.through === 'descriptor' ? 'scalar-descriptor' : 'scalar-address';
  return {
    kind: 'selected',
    selection: {
      shape,
      table: { through, base, text: tableText(through, base), baseExprs: first.base.map((b) => b.expr) },
      offset: exprText(first.offset.expr, leaves, keyNames(leaves)),
      record: { start, stride, index, indexExpr, signed: false },
      words: words.map((w, i) => {
        const own = loads.find((l) => leaves.leavesOf(w.expr).some((x) => x.leaf === l.leaf));
        if (!own) return { register: names[i], recordOffset: undefined, computed: false };
        const c = affineOf(own.origin.offset.expr).constant;
        return {
          register: names[i],
          recordOffset: ((c - start0) >>> 0) + 4 * own.origin.dword,
          computed: w.expr !== own.leaf,
        };
      }),
    },
  };
}

type VectorLoadOrigin = Extract<Origin, { kind: 'vector-load' }>;

/** LLVM's shape: the words are lane reads of VGPRs; the table is where a per-lane load filled those VGPRs from. */
function descriptorSelection(
  input: ClassifyInput,
  access: CodeAddress,
  names: readonly string[],
  words: readonly TracedValue[],
  picks: readonly LanePick[],
): Classification {
  const { leaves, facts } = input;
  const shape = recogniseWaterfall(input, access, picks, 'descriptor', input.entryVgpr);
  if (isWaterfallFailure(shape)) return untraced(shape.failure, shape.at, shape.detail);
  const b = leaves.builder;
  const sum = (t: readonly Expr[]): Expr => t.reduce((acc, x) => b.add(acc, x), b.word(0));
  /** A sum's terms: its constant, the terms the same in every lane, and those that differ per lane. */
  const splitSum = (e: Expr): { constant: number; uniform: Expr[]; varying: Expr[] } => {
    let constant = 0;
    const uniform: Expr[] = [];
    const varying: Expr[] = [];
    for (const t of sumTerms(e)) {
      const c = constantOf(t);
      if (c !== undefined) constant = (constant + c) >>> 0;
      else (facts.laneVarying(t) ? varying : uniform).push(t);
    }
    return { constant, uniform, varying };
  };
  interface WordLoad {
    readonly index: number;
    readonly origin: VectorLoadOrigin;
  }
  const loaded: WordLoad[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (facts.knownAtDispatch(w.expr)) continue;
    const pick = picks.find((p) => p.leaf === w.expr);
    const laneValue =
      pick && valueBeforeWaterfall(input, shape, pick.origin.vgpr, pick.origin.laneValue, input.entryVgpr);
    const laneOrigin = laneValue && leaves.origin(laneValue.expr);
    if (!pick || laneOrigin?.kind !== 'vector-load')
      return untraced(
        'table-untraced',
        pick?.origin.at ?? access,
        `${names[i]} is ${pick && laneValue ? `${pick.origin.instruction} of ${exprText(laneValue.expr, leaves)}` : exprText(w.expr, leaves)}, not a word a per-lane load read from a table`,
        shape,
      );
    loaded.push({ index: i, origin: laneOrigin });
  }
  /**
   * Where one load reads: its table (`base` undefined: a constant address, the table's base is
   * the lowest the loads read), the record's stride and index, and the byte offset of the load
   * from the base beyond the record (its immediate and the address's constants).
   */
  interface LoadPlace {
    readonly through: TableReference['through'];
    readonly base: readonly Expr[] | undefined;
    readonly stride: number;
    readonly index: Expr | undefined;
    readonly signed: boolean;
    readonly offset: bigint;
    /** The offset's part the text leaves out (the load's immediate, beside a 32-bit offset's own constants). */
    readonly immediate: bigint;
    /** The per-lane part of the offset, in words (the selection's `offset`). */
    readonly text: string;
  }
  /** A per-lane 32-bit offset (zero-extended) read as start + stride * index. */
  const placeOf32 = (
    through: TableReference['through'],
    base: readonly Expr[],
    lane: Expr,
    immediate: number,
  ): LoadPlace => {
    const a = affineOf(lane);
    return {
      through,
      base,
      stride: a.scale,
      index: a.term,
      signed: false,
      // A 32-bit offset wraps at 2^32, as the hardware adds it.
      offset: BigInt((immediate + a.constant) >>> 0),
      immediate: BigInt(immediate >>> 0),
      text: exprText(lane, leaves),
    };
  };
  /**
   * A per-lane 64-bit offset or address (wide-offset.ts): one per-lane term, `stride * extend(index)`,
   * and at most one part the same in every lane, the table's base.
   */
  const placeOf64 = (
    through: TableReference['through'],
    base: readonly Expr[] | undefined,
    lo: Expr,
    hi: Expr,
    immediate: number,
  ): LoadPlace | string => {
    const w = wideSum(lo, hi, leaves, facts);
    if (typeof w === 'string')
      return `its 64-bit per-lane ${base ? 'offset' : 'address'} is not a sum of 64-bit parts: ${w}`;
    if (w.terms.length !== 1)
      return w.terms.length === 0
        ? 'it reads one place for every lane'
        : `its 64-bit per-lane address sums ${w.terms.length} per-lane terms, not one record index`;
    if (base && w.uniform.length > 0) return 'its 64-bit VGPR offset has a part the same in every lane beside the V#';
    if (w.uniform.length > 1)
      return `its per-lane address has ${w.uniform.length} parts the same in every lane, not one base`;
    const [t] = w.terms;
    const text = exprText(t.index, leaves);
    const word = /^[\w@[\]]+$/.test(text) ? text : `(${text})`;
    // A zero-extended 32-bit offset is read as the 32-bit offsets are (affineOf, wrapping at 2^32);
    // a sign-extended index stays whole: sext(k * x) is not k * sext(x) once k * x leaves 31 bits.
    const inner = t.extension === 'zero' ? affineOf(t.index) : { scale: 1, constant: 0, term: t.index };
    const coefficient = t.coefficient * BigInt(inner.scale);
    if (coefficient >= 2n ** 31n) return `its record stride ${coefficient} is not a positive 31-bit number`;
    const offset = (w.constant + BigInt(immediate) + t.coefficient * BigInt(inner.constant)) & ((1n << 64n) - 1n);
    return {
      through,
      base: base ?? (w.uniform.length === 1 ? w.uniform[0] : undefined),
      stride: Number(coefficient),
      index: inner.term,
      signed: t.extension === 'sign',
      offset,
      immediate: offset,
      text:
        t.extension === 'sign'
          ? `sext(${text}) * ${t.coefficient}`
          : t.coefficient === 1n
            ? text
            : `${word} * ${t.coefficient}`,
    };
  };
  // Every word's load must address the same table at the same per-lane offset (the record), at its own immediate.
  const placeOf = (o: VectorLoadOrigin): LoadPlace | string => {
    const a = o.address;
    if (a.kind === 'buffer') {
      const soffset = constantOf(a.soffset.expr);
      const descriptor = a.descriptor.map((d) => d.expr);
      if (a.address64) {
        // gfx7's ADDR64: the V#'s base plus a 64-bit VGPR offset.
        if (soffset === undefined) return 'its soffset is not a constant beside a 64-bit VGPR offset';
        const [lo, hi] = a.address64.map((x) => x.expr);
        return placeOf64('buffer', descriptor, lo, hi, a.immediate + soffset);
      }
      const lane = a.offset?.expr ?? a.index?.expr;
      if (!lane) return 'it reads one place for every lane';
      if (a.offset && a.index) return 'it reads through both an index and an offset VGPR';
      const extra = soffset === undefined ? b.add(lane, a.soffset.expr) : lane;
      return placeOf32('buffer', descriptor, extra, a.immediate + (soffset ?? 0));
    }
    if (a.base) {
      const split = splitSum(a.address[0].expr);
      return placeOf32(
        'global-address',
        a.base.map((x) => x.expr),
        sum(split.varying.concat(split.uniform)),
        a.immediate + split.constant,
      );
    }
    // A 64-bit per-lane address: the part the same in every lane is the table's base (a constant
    // address is a base too: then the lowest place the loads read), the per-lane term the record.
    const [lo, hi] = a.address.map((x) => x.expr);
    return placeOf64('global-address', undefined, lo, hi, a.immediate);
  };
  const places = loaded.map((l) => ({ l, t: placeOf(l.origin) }));
  const bad = places.find((x) => typeof x.t === 'string');
  if (bad)
    return untraced(
      'table-untraced',
      bad.l.origin.at,
      `${names[bad.l.index]} comes from ${bad.l.origin.instruction} at ${hexAddress(bad.l.origin.at)}, but ${bad.t as string}`,
      shape,
    );
  const ts = places.map((x) => ({ ...x, t: x.t as LoadPlace }));
  const t0 = ts[0].t;
  const sameBase = (x: LoadPlace): boolean =>
    x.base === undefined || t0.base === undefined
      ? x.base === t0.base
      : x.base.length === t0.base.length && x.base.every((y, i) => y === t0.base![i]);
  for (const { l, t } of ts)
    if (
      t.through !== t0.through ||
      t.index !== t0.index ||
      t.stride !== t0.stride ||
      t.signed !== t0.signed ||
      !sameBase(t)
    )
      return untraced(
        'mixed-selection',
        l.origin.at,
        `${names[l.index]} is loaded from another table or record than ${names[ts[0].l.index]}`,
        shape,
      );
  const lowest = ts.reduce((m, x) => (x.t.offset < m ? x.t.offset : m), t0.offset);
  // A constant address: the table starts at the lowest place read, the record at its base.
  const baseExprs = t0.base ?? [b.word(Number(lowest & 0xffffffffn)), b.word(Number(lowest >> 32n))];
  const startWide = t0.base ? lowest : 0n;
  if (startWide >= 2n ** 32n)
    return untraced(
      'table-untraced',
      ts[0].l.origin.at,
      `the record's start 0x${startWide.toString(16)} from the table's base is not a 32-bit offset`,
      shape,
    );
  if (!baseExprs.every((x) => facts.knownAtDispatch(x)))
    return untraced(
      'table-untraced',
      ts[0].l.origin.at,
      `the table's base (${baseExprs.map((x) => exprText(x, leaves)).join(', ')}) is not known at dispatch`,
      shape,
    );
  const base = baseExprs.map((x) => describeValue(x, leaves, facts));
  const start = Number(startWide);
  const lowestImmediate = ts.reduce((m, x) => (x.t.immediate < m ? x.t.immediate : m), t0.immediate);
  const beyond = t0.base ? lowestImmediate : 0n;
  return {
    kind: 'selected',
    selection: {
      shape,
      table: { through: t0.through, base, text: tableText(t0.through, base), baseExprs },
      offset: `${t0.text}${beyond === 0n ? '' : ` + 0x${beyond.toString(16)}`}`,
      record: {
        start,
        stride: t0.stride,
        index: t0.index ? exprText(t0.index, leaves) : '0',
        indexExpr: t0.index ?? b.word(0),
        signed: t0.signed,
      },
      words: words.map((_, i) => {
        const x = ts.find((y) => y.l.index === i);
        return x
          ? {
              register: names[i],
              recordOffset: Number(x.t.offset - lowest) + 4 * x.l.origin.dword,
              computed: false,
            }
          : { register: names[i], recordOffset: undefined, computed: false };
      }),
    },
  };
}

function tableText(through: TableReference['through'], base: readonly Provenance[]): string {
  const words = base.map(provenanceShort).join(', ');
  return through === 'scalar-descriptor' || through === 'buffer' ? `V#[${words}]` : `[${words}]`;
}
