/**
 * What the tracer knows about a register: an expression (`src/semantics/expr.ts`, the same DAG
 * the translator builds) over named leaves, each leaf an `Origin` saying where that part of the
 * value comes from (a user-data word, a scalar load, a lane read by v_readfirstlane, a join of
 * two paths...). A register's `TracedValue` keeps the expression and the step that produced it,
 * with the values it was computed from, so every descriptor word has both an exact value (to be
 * evaluated by the host) and a provenance chain (to be read by people).
 *
 * Expressions are hash-consed in one builder per trace, so "the same value" is "the same node",
 * which is how a join decides whether two paths agree, and constants fold on the concrete
 * algebra as they are built (D003, D011).
 */
import { exprBuilder, reachable, type Expr, type ExprBuilder } from '../semantics/expr.ts';
import { hex, vgprName } from '../isa/operands.ts';
import type { BlockId, CodeAddress } from './ids.ts';
import { hexAddress } from './ids.ts';

/** How a vector memory instruction addressed the words it loaded into VGPRs. */
export type VectorAddress =
  /** MUBUF/MTBUF: through a V#, with the index/offset VGPRs, soffset and the immediate (gfx7 ADDR64: a 64-bit VGPR address). */
  | {
      readonly kind: 'buffer';
      readonly descriptor: readonly TracedValue[];
      readonly index?: TracedValue;
      readonly offset?: TracedValue;
      readonly address64?: readonly [TracedValue, TracedValue];
      readonly soffset: TracedValue;
      readonly immediate: number;
    }
  /** GLOBAL/FLAT: a 64-bit VGPR address, or (GLOBAL) an SGPR pair plus a 32-bit VGPR offset; plus the immediate. */
  | {
      readonly kind: 'global';
      readonly base?: readonly [TracedValue, TracedValue];
      readonly address: readonly TracedValue[];
      readonly immediate: number;
    };

/** Where a leaf of a traced expression comes from. */
export type Origin =
  /** COMPUTE_USER_DATA word `index` (its value when a capture gives it). */
  | { readonly kind: 'user-data'; readonly index: number; readonly value?: number }
  /** A register a program capture gives a value at entry. */
  | { readonly kind: 'initial'; readonly register: string; readonly value: number }
  /** A register the hardware sets per group or wave (work-group id, thread-group info, scratch offset, EXEC). */
  | { readonly kind: 'system'; readonly register: string; readonly what: string }
  /** A register read before anything writes it. */
  | { readonly kind: 'unset'; readonly register: string }
  /** s_getpc_b64 without a known program address: the code's own address (the host knows it). */
  | { readonly kind: 'code-address'; readonly at: CodeAddress; readonly half: 0 | 1 }
  /** Dword `dword` of a scalar load (s_load_*, s_buffer_load_*). */
  | {
      readonly kind: 'scalar-load';
      readonly at: CodeAddress;
      readonly instruction: string;
      readonly dword: number;
      /** 'address': s_load from a 64-bit address in `base`; 'descriptor': s_buffer_load through the V# in `base`. */
      readonly through: 'address' | 'descriptor';
      readonly base: readonly TracedValue[];
      /** The byte offset: soffset plus the immediate, as the encoding gives them. */
      readonly offset: TracedValue;
    }
  /** A VGPR read in one lane (v_readfirstlane, v_readlane) where the VGPR differs per lane. */
  | {
      readonly kind: 'lane-pick';
      readonly at: CodeAddress;
      readonly instruction: string;
      readonly vgpr: number;
      /** The VGPR's per-lane value at the read. */
      readonly laneValue: TracedValue;
      /** 'first-active' (v_readfirstlane) or the lane a word selects (v_readlane). */
      readonly lane: 'first-active' | 'selected';
    }
  /**
   * A lane mask a vector instruction writes (a compare, a carry, v_cmpx's EXEC). `laneBit`: on the
   * word that holds the symbolic lane's bit, the bool the instruction computed for that lane.
   */
  | {
      readonly kind: 'lane-mask';
      readonly at: CodeAddress;
      readonly instruction: string;
      readonly register: string;
      readonly laneBit?: Expr;
    }
  /** Paths into a block give a register different values (a loop-carried value when `loop`). */
  | {
      readonly kind: 'join';
      readonly block: BlockId;
      readonly at: CodeAddress;
      readonly register: string;
      readonly loop: boolean;
      readonly laneVarying: boolean;
    }
  /** A value the tracer does not model, and why. */
  | {
      readonly kind: 'opaque';
      readonly at: CodeAddress;
      readonly register: string;
      readonly reason: string;
      readonly laneVarying: boolean;
    }
  /** A VGPR at entry (a thread id, a function argument). */
  | { readonly kind: 'entry-vgpr'; readonly vgpr: number; readonly meaning: string }
  /** The lane's own index (v_mbcnt, SDWA lane ids...). */
  | { readonly kind: 'lane-id' }
  /** Dword `dword` of a per-lane vector load, with its address. */
  | {
      readonly kind: 'vector-load';
      readonly at: CodeAddress;
      readonly instruction: string;
      readonly dword: number;
      readonly address: VectorAddress;
    };

/** One thing an instruction did to a register on the way to a value. */
export interface ProvenanceStep {
  /** The instruction's address; undefined for the wave's initial state. */
  readonly at: CodeAddress | undefined;
  /** The register (or `scc`, `offset`) the step wrote. */
  readonly register: string;
  readonly action:
    'entry' | 'constant' | 'fold' | 'copy' | 'compute' | 'load' | 'lane-read' | 'lane-mask' | 'join' | 'opaque';
  /** What it did, in words: `s_movk_i32 s5, 0x8000: s5 = 0xffff8000 (constant)`. */
  readonly text: string;
}

/** A register's value: its expression and the step that made it, from the values it read. */
export interface TracedValue {
  readonly expr: Expr;
  readonly step: ProvenanceStep;
  readonly sources: readonly TracedValue[];
}

/** The leaves of one trace: the expression builder and every leaf's origin, by name. */
export class Leaves {
  readonly builder: ExprBuilder = exprBuilder();
  private readonly origins = new Map<string, Origin>();

  /** A word leaf; a second call with the same name updates the origin (the fixed point refines addresses). */
  word(name: string, origin: Origin): Expr {
    this.origins.set(name, origin);
    return this.builder.input(name);
  }
  bool(name: string, origin: Origin): Expr {
    this.origins.set(name, origin);
    return this.builder.boolInput(name);
  }
  origin(leaf: Expr): Origin | undefined {
    return leaf.name === undefined ? undefined : this.origins.get(leaf.name);
  }
  /** The leaves an expression depends on, with their origins, in id order. */
  leavesOf(e: Expr): { leaf: Expr; origin: Origin }[] {
    const out: { leaf: Expr; origin: Origin }[] = [];
    for (const n of reachable([e]))
      if (n.op === 'input' || n.op === 'binput') {
        const origin = this.origins.get(n.name!);
        if (origin) out.push({ leaf: n, origin });
      }
    return out;
  }
}

/** The constant an expression is, or undefined. */
export function constantOf(e: Expr): number | undefined {
  if (e.op === 'const') return e.value!;
  if (e.op === 'bconst') return e.value!;
  return undefined;
}

/**
 * A lane's read of its own bit of a lane mask (`toBool((mask >> lane_id) & 1)`, how the shared
 * semantics read a carry-in or a select) where a per-lane instruction wrote the mask: the bool
 * that instruction computed for the lane, so a carry chain through VCC reads as the carry. As
 * for VGPRs (D012's known limits), the write is taken as made for every lane that reads it.
 */
export function ownLaneBit(e: Expr, leaves: Leaves): Expr | undefined {
  if (e.op !== 'toBool') return undefined;
  const [masked] = e.args;
  if (masked.op !== 'and' || constantOf(masked.args[1]) !== 1) return undefined;
  const [shifted] = masked.args;
  if (shifted.op !== 'lshr') return undefined;
  const [mask, lane] = shifted.args;
  const m = leaves.origin(mask);
  return m?.kind === 'lane-mask' && leaves.origin(lane)?.kind === 'lane-id' ? m.laneBit : undefined;
}

/** Whether an origin's value differs from lane to lane. */
export function isLaneVaryingOrigin(o: Origin): boolean {
  switch (o.kind) {
    case 'entry-vgpr':
    case 'lane-id':
    case 'vector-load':
      return true;
    case 'join':
    case 'opaque':
      return o.laneVarying;
    default:
      return false;
  }
}

/**
 * Judgements over expressions, memoised per node. "Known at dispatch": the host can compute the
 * value before the dispatch runs, from constants, user data, the code's address, and scalar loads
 * at addresses that are themselves known at dispatch.
 */
export class ValueFacts {
  private readonly known = new Map<number, boolean>();
  private readonly varying = new Map<number, boolean>();
  constructor(private readonly leaves: Leaves) {}

  knownAtDispatch(e: Expr): boolean {
    const hit = this.known.get(e.id);
    if (hit !== undefined) return hit;
    // A cycle cannot occur (a load's address is computed before it), but mark first to be safe.
    this.known.set(e.id, false);
    let r: boolean;
    if (e.op === 'const' || e.op === 'bconst') r = true;
    else if (e.op === 'input' || e.op === 'binput') {
      const o = this.leaves.origin(e);
      r = o !== undefined && this.originKnown(o);
    } else r = e.args.every((a) => this.knownAtDispatch(a));
    this.known.set(e.id, r);
    return r;
  }

  private originKnown(o: Origin): boolean {
    switch (o.kind) {
      case 'user-data':
      case 'initial':
      case 'code-address':
        return true;
      case 'scalar-load':
        return o.base.every((b) => this.knownAtDispatch(b.expr)) && this.knownAtDispatch(o.offset.expr);
      default:
        return false;
    }
  }

  laneVarying(e: Expr): boolean {
    const hit = this.varying.get(e.id);
    if (hit !== undefined) return hit;
    let r: boolean;
    if (e.op === 'input' || e.op === 'binput') {
      const o = this.leaves.origin(e);
      r = o !== undefined && isLaneVaryingOrigin(o);
    } else r = e.args.some((a) => this.laneVarying(a));
    this.varying.set(e.id, r);
    return r;
  }
}

/** A short name for a leaf, as expressions print it. */
export function leafName(o: Origin): string {
  switch (o.kind) {
    case 'user-data':
      return `user_data[${o.index}]`;
    case 'initial':
      return `${o.register}@entry`;
    case 'system':
      return o.what.replace(/[ -]/g, '_');
    case 'unset':
      return `${o.register}@unset`;
    case 'code-address':
      return `pc@${hexAddress(o.at)}.${o.half === 0 ? 'lo' : 'hi'}`;
    case 'scalar-load':
      return `load@${hexAddress(o.at)}[${o.dword}]`;
    case 'lane-pick':
      return `${o.lane === 'first-active' ? 'readfirstlane' : 'readlane'}(${vgprName(o.vgpr, 1)}@${hexAddress(o.at)})`;
    case 'lane-mask':
      return `mask@${hexAddress(o.at)}`;
    case 'join':
      return `join@${hexAddress(o.at)}(${o.register})`;
    case 'opaque':
      return `unknown@${hexAddress(o.at)}(${o.register})`;
    case 'entry-vgpr':
      return `${vgprName(o.vgpr, 1)}@entry`;
    case 'lane-id':
      return 'lane_id';
    case 'vector-load':
      return `vload@${hexAddress(o.at)}[${o.dword}]`;
  }
}

const ASSOCIATIVE = new Set(['add', 'mulLo', 'and', 'or', 'xor']);

const INFIX: Readonly<Record<string, [string, number]>> = {
  mulLo: ['*', 5],
  add: ['+', 4],
  sub: ['-', 4],
  shl: ['<<', 3],
  lshr: ['>>', 3],
  and: ['&', 2],
  xor: ['^', 1],
  or: ['|', 0],
};

/**
 * An expression as text: infix for the integer operations, `op(args)` otherwise; leaves by
 * `name` (default: `leafName` of their origin). A value a carry chain computes prints as its
 * sum; a constant prints in hex.
 */
export function exprText(
  e: Expr,
  leaves: Leaves,
  name: (leaf: Expr, o: Origin) => string = (_l, o) => leafName(o),
): string {
  const go = (x: Expr, outer: number): string => {
    switch (x.op) {
      case 'const':
        return x.value! < 10 ? String(x.value) : hex(x.value!);
      case 'bconst':
        return x.value === 1 ? 'true' : 'false';
      case 'input':
      case 'binput': {
        const o = leaves.origin(x);
        return o ? name(x, o) : x.name!;
      }
      case 'proj': {
        const t = x.args[0];
        if ((t.op === 'addCarry' || t.op === 'subBorrow') && x.value === 0) {
          const sym = t.op === 'addCarry' ? '+' : '-';
          const zero = (y: Expr): boolean => (y.op === 'const' || y.op === 'bconst') && y.value === 0;
          // A sum the carry chain of a 64-bit add computes: its zero terms (offset 0, no carry in) left out.
          const terms = [t.args[0], t.args[1], t.args[2]].filter((y, i) => !(zero(y) && (i > 0 || sym === '+')));
          if (terms.length === 1) return go(terms[0], outer);
          const body = terms.map((y, i) => go(y, i === 0 ? 4 : 5)).join(` ${sym} `);
          return outer > 4 ? `(${body})` : body;
        }
        return `${x.value === 0 ? 'first' : 'second'}(${go(t, -1)})`;
      }
      default: {
        const infix = INFIX[x.op];
        if (infix && x.args.length === 2) {
          const [sym] = infix;
          // Operands that are other operations are parenthesised (precedence is not left to the reader),
          // except a chain of one associative operation.
          const side = (y: Expr, left: boolean): string => {
            const inner = INFIX[y.op] && y.args.length === 2;
            const chain = left && y.op === x.op && ASSOCIATIVE.has(x.op);
            return inner && !chain ? `(${go(y, -1)})` : go(y, -1);
          };
          const body = `${side(x.args[0], true)} ${sym} ${side(x.args[1], false)}`;
          return outer > 0 ? `(${body})` : body;
        }
        const params = x.param === undefined ? [] : [String(x.param)];
        return `${x.op}(${[...params, ...x.args.map((a) => go(a, -1))].join(', ')})`;
      }
    }
  };
  return go(e, -1);
}

/** The steps that made a value, sources first, each once. */
export function provenanceChain(v: TracedValue): ProvenanceStep[] {
  const out: ProvenanceStep[] = [];
  const seen = new Set<TracedValue>();
  const seenSteps = new Set<ProvenanceStep>();
  const visit = (x: TracedValue): void => {
    if (seen.has(x)) return;
    seen.add(x);
    for (const s of x.sources) visit(s);
    if (!seenSteps.has(x.step)) {
      seenSteps.add(x.step);
      out.push(x.step);
    }
  };
  visit(v);
  return out;
}
