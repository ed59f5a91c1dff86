/**
 * The expression DAG (src/semantics/expr.ts) as JavaScript source: the interpreter's compiled
 * path's back end (D014). Each node becomes one `const` of the generated function. Integer
 * operations whose JavaScript spelling is exactly the concrete algebra's on u32 operands are
 * written inline (`(a + b) >>> 0`, `Math.imul`, shifts, which JavaScript masks to 5 bits as the
 * hardware does, compares, selects); every other operation — floats, f64 pairs, the bit counts —
 * is a call of the concrete algebra's own method (`C_fAdd(a, b, M[0])`, C_fAdd = C.fAdd; `M`
 * carries the lowering's name prefix), so results are the
 * interpreter's bit for bit and no instruction's meaning is written here.
 *
 * Nodes are uniform (they read only wave-uniform leaves: SGPRs, SCC) or varying (they read a
 * lane's VGPR or the lane index). A caller emitting a loop over lanes puts the uniform nodes
 * before the loop, once (`prelude`), and the varying ones in the loop body.
 */
import type { FloatMode } from '../../semantics/algebra.ts';
import { modeOf, OPS, reachable, type AlgebraOp, type Expr } from '../../semantics/expr.ts';

/** How a leaf reaches the generated code: its variable, the statement declaring it, and whether it varies by lane. */
export interface JsLeaf {
  readonly name: string;
  readonly declaration: string;
  readonly varying: boolean;
}

/** Why an expression cannot be emitted (a leaf the caller does not provide). */
export class JsLoweringRefusal extends Error {
  override readonly name = 'JsLoweringRefusal';
}

/** Operations written inline; every other one calls the concrete algebra. */
const INLINE: Partial<Record<AlgebraOp, (a: readonly string[], e: Expr) => string>> = {
  add: ([a, b]) => `(${a} + ${b}) >>> 0`,
  sub: ([a, b]) => `(${a} - ${b}) >>> 0`,
  mulLo: ([a, b]) => `Math.imul(${a}, ${b}) >>> 0`,
  and: ([a, b]) => `(${a} & ${b}) >>> 0`,
  or: ([a, b]) => `(${a} | ${b}) >>> 0`,
  xor: ([a, b]) => `(${a} ^ ${b}) >>> 0`,
  not: ([a]) => `~${a} >>> 0`,
  shl: ([a, b]) => `(${a} << ${b}) >>> 0`,
  lshr: ([a, b]) => `${a} >>> ${b}`,
  ashr: ([a, b]) => `(${a} >> ${b}) >>> 0`,
  minU: ([a, b]) => `${a} < ${b} ? ${a} : ${b}`,
  maxU: ([a, b]) => `${a} > ${b} ? ${a} : ${b}`,
  minI: ([a, b]) => `(${a} | 0) < (${b} | 0) ? ${a} : ${b}`,
  maxI: ([a, b]) => `(${a} | 0) > (${b} | 0) ? ${a} : ${b}`,
  findLsb: ([a]) => `${a} === 0 ? 4294967295 : 31 - Math.clz32(${a} & -${a})`,
  findMsbFromTop: ([a]) => `${a} === 0 ? 4294967295 : Math.clz32(${a})`,
  sext: ([a], e) => `((${a} << ${32 - Number(e.param)}) >> ${32 - Number(e.param)}) >>> 0`,
  eq: ([a, b]) => `${a} === ${b}`,
  ne: ([a, b]) => `${a} !== ${b}`,
  ltU: ([a, b]) => `${a} < ${b}`,
  leU: ([a, b]) => `${a} <= ${b}`,
  ltI: ([a, b]) => `(${a} | 0) < (${b} | 0)`,
  leI: ([a, b]) => `(${a} | 0) <= (${b} | 0)`,
  boolAnd: ([a, b]) => `${a} && ${b}`,
  boolOr: ([a, b]) => `${a} || ${b}`,
  boolNot: ([a]) => `!${a}`,
  select: ([c, t, f]) => `${c} ? ${t} : ${f}`,
  fromBool: ([a]) => `${a} ? 1 : 0`,
  toBool: ([a]) => `${a} !== 0`,
  // The tuple holds the unrounded sum or difference; `proj` reads the word and the carry or borrow from it.
  addCarry: ([a, b, c]) => `${a} + ${b} + (${c} ? 1 : 0)`,
  subBorrow: ([a, b, c]) => `${a} - ${b} - (${c} ? 1 : 0)`,
};

/** The concrete algebra's rule for a bit-field extract with both operands constant, inline: (a >>> offset) & mask. */
function constantBfeU(a: string, offset: Expr, width: Expr): string | undefined {
  if (offset.op !== 'const' || width.op !== 'const') return undefined;
  const w = width.value! & 31;
  if (w === 0) return '0';
  return `(${a} >>> ${offset.value! & 31}) & ${(1 << w) - 1}`;
}

/**
 * Emits DAGs as JavaScript. One lowering per generated function: uniform nodes are emitted once
 * into `prelude` however many bodies (lane loops) share them.
 */
export class JsLowering {
  /** Statements before the lane loop: uniform leaves and the nodes computed from them. */
  readonly prelude: string[] = [];
  /** Float modes the code passes to the concrete algebra, as `M[i]`. */
  readonly modes: FloatMode[] = [];
  /** Concrete-algebra methods the code calls, by name (for the tests' coverage count). */
  readonly calls = new Set<string>();
  private readonly uniform = new Map<number, string>();
  private readonly modeIndex = new Map<number, number>();

  /**
   * `prefix` starts every name the lowering makes (its temporaries, and `modesName`, the array of
   * its float modes), so that the code of several instructions can share one scope (a fused lane
   * loop, compile.ts) without a clash.
   */
  constructor(
    private readonly leaf: (e: Expr) => JsLeaf,
    private readonly prefix = '',
  ) {}

  /** The variable holding the float modes the code indexes (`modes`, in order). */
  get modesName(): string {
    return `${this.prefix}M`;
  }

  private mode(bits: number): string {
    let i = this.modeIndex.get(bits);
    if (i === undefined) {
      i = this.modes.length;
      this.modes.push(modeOf(bits));
      this.modeIndex.set(bits, i);
    }
    return `${this.modesName}[${i}]`;
  }

  /**
   * One lane body computing `roots`: its statements (the varying nodes, operands first) and a
   * JavaScript expression for each root (a variable or a literal).
   */
  body(roots: readonly Expr[]): { statements: string[]; refs: string[] } {
    const statements: string[] = [];
    const local = new Map<number, string>();
    const varying = new Set<number>();
    const ref = (e: Expr): string => {
      const r = local.get(e.id) ?? this.uniform.get(e.id);
      if (r === undefined) throw new Error(`expression ${e.id} (${e.op}) used before it was emitted`);
      return r;
    };
    for (const e of reachable(roots)) {
      if (this.uniform.has(e.id)) continue;
      if (e.op === 'const' || e.op === 'bconst') {
        this.uniform.set(e.id, e.op === 'const' ? String(e.value) : e.value === 1 ? 'true' : 'false');
        continue;
      }
      if (e.op === 'input' || e.op === 'binput') {
        const l = this.leaf(e);
        if (l.varying) {
          varying.add(e.id);
          local.set(e.id, l.name);
          statements.push(l.declaration);
        } else {
          this.uniform.set(e.id, l.name);
          this.prelude.push(l.declaration);
        }
        continue;
      }
      const name = `${this.prefix}t${e.id}`;
      const code = this.node(e, e.args.map(ref));
      if (e.args.some((a) => varying.has(a.id))) {
        varying.add(e.id);
        local.set(e.id, name);
        statements.push(`const ${name} = ${code};`);
      } else {
        this.uniform.set(e.id, name);
        this.prelude.push(`const ${name} = ${code};`);
      }
    }
    return { statements, refs: roots.map(ref) };
  }

  /** The JavaScript of one operation node, from its operands' references. */
  private node(e: Expr, a: readonly string[]): string {
    if (e.op === 'proj') {
      const t = e.args[0]!;
      const i = e.value!;
      if (t.op === 'addCarry') return i === 0 ? `${a[0]} >>> 0` : `${a[0]} > 4294967295`;
      if (t.op === 'subBorrow') return i === 0 ? `${a[0]} >>> 0` : `${a[0]} < 0`;
      return e.type === 'word' ? `${a[0]}[${i}] >>> 0` : `${a[0]}[${i}]`;
    }
    const op = e.op as AlgebraOp;
    if (op === 'bfeU') {
      const inline = constantBfeU(a[0]!, e.args[1]!, e.args[2]!);
      if (inline !== undefined) return inline;
    }
    const inline = INLINE[op];
    if (inline) return inline(a, e);
    // A call of the concrete algebra: pairs rebuilt from their two operands, the mode and the static parameter put back.
    const call: string[] = [];
    let i = 0;
    for (const k of OPS[op].args) {
      if (k === 'w' || k === 'b') call.push(a[i++]!);
      else if (k === 'p') {
        call.push(`[${a[i]}, ${a[i + 1]}]`);
        i += 2;
      } else if (k === 'm') call.push(this.mode(e.mode ?? 7));
      else call.push(JSON.stringify(e.param));
    }
    this.calls.add(op);
    // C_<op> is bound once, outside the generated function (compile.ts), so the call site sees one target.
    const text = `C_${op}(${call.join(', ')})`;
    return e.type === 'word' ? `${text} >>> 0` : text;
  }
}
