/**
 * One straight-line stretch of a translated block (D011): the expression DAG its instructions
 * build (`exprBuilder`, so constants fold and common subexpressions are shared), lowered to native
 * operations (`lower.ts`) and written as WGSL `let` statements on demand, in program order.
 *
 * A segment's leaves are the register variables as they were when it began, and the values its
 * memory operations bound (`bind`). A value is written out only when something needs it (a memory
 * operand, a branch condition, a register assignment at the end of the segment); a new segment
 * begins after registers are assigned, so no leaf ever means two values.
 */
import { exprBuilder, type Expr, type ExprBuilder } from '../../semantics/expr.ts';
import { LowBuilder, lowReachable, type LowNode } from '../low.ts';
import { Lowerer } from '../lower.ts';
import { expression, wgslWord } from './expressions.ts';

export class Segment {
  readonly b: ExprBuilder = exprBuilder();
  private readonly low = new LowBuilder();
  private readonly lowerer: Lowerer;
  /** WGSL names of the native nodes already written (lets, leaves, constants used by float operations). */
  private names = new Map<number, string>();
  /** WGSL text of each leaf by its name (a register variable, or a bound value). */
  private readonly leafText = new Map<string, string>();

  constructor(
    /** Prefix of this segment's `let` names: unique in the module. */
    readonly prefix: string,
    /** Where statements go (shared with the code around the segment). */
    private out: string[],
    private indent: string,
  ) {
    this.lowerer = new Lowerer(this.low, (e) =>
      e.op === 'input' ? this.low.input(e.name!) : this.low.boolInput(e.name!),
    );
  }

  /** A word leaf: the WGSL variable (or value) `text`, by default the name itself. */
  word(name: string, text = name): Expr {
    if (!this.leafText.has(name)) this.leafText.set(name, text);
    return this.b.input(name);
  }

  bool(name: string, text = name): Expr {
    if (!this.leafText.has(name)) this.leafText.set(name, text);
    return this.b.boolInput(name);
  }

  /**
   * Goes on in another block of code (after the dispatcher ran the memory service): the same
   * leaves and values, but every `let` is written again where it is next needed, since the ones
   * written so far live in the block left behind.
   */
  rescope(out: string[]): void {
    this.out = out;
    this.names = new Map();
  }

  line(text: string): void {
    if (!this.muted) this.out.push(`${this.indent}${text}`);
  }

  /** While true, statements are not written (`dry`). */
  private muted = false;

  /**
   * Runs `f` writing nothing: the statements it would write are dropped and the `let`s it would
   * define are forgotten afterwards, so the segment is as it was. A dry run of an instruction's
   * translation learns what it reads (program.ts, held masks) without emitting its code.
   */
  dry<T>(f: () => T): T {
    const savedNames = this.names;
    const savedMuted = this.muted;
    this.names = new Map(savedNames);
    this.muted = true;
    try {
      return f();
    } finally {
      this.names = savedNames;
      this.muted = savedMuted;
    }
  }

  /** Runs `emit` with its statements indented one level (a nested WGSL block). */
  nested<T>(emit: () => T): T {
    const saved = this.indent;
    this.indent = `${saved}  `;
    try {
      return emit();
    } finally {
      this.indent = saved;
    }
  }

  private fresh = 0;
  /** A name unique in the module. */
  freshName(tag: string): string {
    return `${this.prefix}${tag}${this.fresh++}`;
  }

  /** Binds a WGSL expression (a load, an exchange read) to a new `let`, as a leaf of this segment. */
  bindWord(wgsl: string, tag = 'm'): Expr {
    const name = this.freshName(tag);
    this.line(`let ${name}: u32 = ${wgsl};`);
    return this.word(name);
  }

  /** Lowers a value without writing it (a lowering refusal is raised here, at the instruction that made it). */
  check(e: Expr): void {
    this.lowerer.lower(e);
  }

  /** The WGSL expression of a value, writing the `let`s it needs first. */
  value(e: Expr): string {
    const root = this.lowerer.lower(e);
    // Only below the values not yet written: walking the whole graph below each value was a
    // twentieth of int_math's translation (profiled), a block's values sharing most of it. (In
    // `scoped`, a leaf loses its name while values written from it keep theirs; those are not
    // written again either way.)
    for (const n of lowReachable([root], (x) => this.names.has(x.id))) this.define(n);
    return this.ref(root);
  }

  private ref(n: LowNode): string {
    const named = this.names.get(n.id);
    if (named !== undefined) return named;
    if (n.op === 'const') return wgslWord(n.value!);
    if (n.op === 'bconst') return n.value === 1 ? 'true' : 'false';
    throw new Error(`native node ${n.id} used before it is written`);
  }

  private define(n: LowNode): void {
    if (n.op === 'const' || n.op === 'bconst') return;
    if (n.op === 'input' || n.op === 'binput') {
      const text = this.leafText.get(n.name!);
      if (text === undefined) throw new Error(`leaf ${n.name} has no WGSL value`);
      this.names.set(n.id, text);
      return;
    }
    const args = n.args.map((a) => {
      if (a.op === 'const' && n.op.startsWith('f') && !this.names.has(a.id)) {
        // WGSL evaluates bitcast<f32> of a constant at compile time and rejects NaN and infinity
        // there (expressions.ts): a constant a float operation reads goes through a `let`.
        const name = `${this.prefix}k${a.id}`;
        this.line(`let ${name}: u32 = ${wgslWord(a.value!)};`);
        this.names.set(a.id, name);
      }
      return this.ref(a);
    });
    const name = `${this.prefix}t${n.id}`;
    this.line(`let ${name}: ${n.type === 'bool' ? 'bool' : 'u32'} = ${expression(n.op, args)};`);
    this.names.set(n.id, name);
  }

  /**
   * Runs `emit` with the leaf `name` standing for the WGSL value `text` (a loop's own copy), and
   * forgets every `let` written meanwhile, since those live in the scope `emit` opened.
   */
  scoped<T>(name: string, text: string, emit: () => T): T {
    const saved = this.names;
    const savedLeaf = this.leafText.get(name);
    this.names = new Map(saved);
    this.leafText.set(name, text);
    for (const [id, t] of [...this.names]) if (t === savedLeaf) this.names.delete(id);
    try {
      return emit();
    } finally {
      this.names = saved;
      if (savedLeaf === undefined) this.leafText.delete(name);
      else this.leafText.set(name, savedLeaf);
    }
  }
}
