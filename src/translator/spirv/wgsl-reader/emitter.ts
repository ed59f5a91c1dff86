/**
 * The checked tree (`checker.ts`) as a SPIR-V module through `../builder.ts` (D016): the same
 * program as the WGSL, for Vulkan 1.2 (SPIR-V 1.5, Logical GLSL450).
 *
 * Where WGSL defines what SPIR-V leaves undefined, the guard WGSL's definition needs is
 * written: integer `/` and `%` by zero (and i32 MIN / -1) divide by 1 instead, which gives
 * WGSL's results (e1 and 0); shift counts are taken modulo 32 (WGSL §8.9: "the number of bits
 * to shift is the value of e2, modulo the bit width of e1"; SPIR-V's shifts are undefined for
 * counts ≥ 32), except constant counts below 32; every dynamic index is clamped into its
 * array or vector (WGSL §14.5: an out-of-bounds access reads or writes some element or none,
 * never undefined behaviour; SPIR-V's would be), a runtime array's by OpArrayLength; and a
 * `textureLoad` clamps its level, coordinates and layer into the image (WGSL §17.7.4: an
 * out-of-bounds load returns some texel or zero). `&&` and `||` short-circuit (a selection
 * and a phi) where the right operand calls a function or an atomic; elsewhere both sides are
 * side-effect free and OpLogicalAnd/Or give the same value. Float arithmetic results are
 * NoContraction, as `../expressions.ts` writes them; each WGSL builtin is the instruction
 * `../expressions.ts` uses for the same operation where it has one (countLeadingZeros is
 * `31 - FindUMsb`, countTrailingZeros `UMin(FindILsb, 32)`).
 *
 * Types with WGSL's memory layout (Offset, ArrayStride: `types.ts`) exist only for
 * storage/uniform buffers; values are the same types without layout (Vulkan forbids explicit
 * layout elsewhere), converted by OpCopyLogical when a composite crosses.
 */
import { SpirvModule, type SpirvBlock, type SpirvFunction } from '../builder.ts';
import {
  BuiltIn,
  Capability,
  Decoration,
  Dim,
  ExecutionModel,
  GLSLstd450,
  ImageFormat,
  ImageOperands,
  Op,
  Scope,
  SpirvVersion,
  StorageClass,
} from '../spec.ts';
import type { Expr, FunctionDecl, GlobalDecl, LocalDecl, Stmt } from './ast.ts';
import { swizzle, type CheckedModule } from './checker.ts';
import { UnsupportedWgsl } from './errors.ts';
import {
  arrayStride,
  BOOL,
  elementKind,
  I32,
  memberOffsets,
  scalar,
  typeName,
  U32,
  vec,
  type AddressSpace,
  type ScalarKind,
  type WType,
} from './types.ts';

const BUILTINS: Readonly<Record<string, number>> = {
  local_invocation_index: BuiltIn.LocalInvocationIndex,
  local_invocation_id: BuiltIn.LocalInvocationId,
  global_invocation_id: BuiltIn.GlobalInvocationId,
  workgroup_id: BuiltIn.WorkgroupId,
  num_workgroups: BuiltIn.NumWorkgroups,
  subgroup_invocation_id: BuiltIn.SubgroupLocalInvocationId,
  subgroup_size: BuiltIn.SubgroupSize,
};

const STORAGE_CLASS: Readonly<Record<AddressSpace, number>> = {
  function: StorageClass.Function,
  private: StorageClass.Private,
  workgroup: StorageClass.Workgroup,
  uniform: StorageClass.Uniform,
  storage: StorageClass.StorageBuffer,
  handle: StorageClass.UniformConstant,
};

/** The descriptor set of the resource table (groups 0 and 1 are the module's buffers and textures, D015). */
export const RESOURCE_TABLE_SET = 2;
/** The texture types a resource table slot may hold, in the order of their type words and bindings. */
export const RESOURCE_TABLE_TYPES: readonly string[] = (['1d', '2d', '2d_array', '3d'] as const).flatMap((d) =>
  (['f32', 'u32', 'i32'] as const).map((s) => `texture_${d}<${s}>`),
);

const hasLayout = (space: AddressSpace): boolean => space === 'uniform' || space === 'storage';

const F32_BITS = new DataView(new ArrayBuffer(4));
function f32Bits(v: number): number {
  F32_BITS.setFloat32(0, v);
  return F32_BITS.getUint32(0);
}

/** A memory view being built: a base pointer and the access chain indices after it. */
interface Ref {
  readonly base: number;
  readonly indices: readonly number[];
  /** The indices that are constants, as numbers (undefined where dynamic): OpArrayLength needs them. */
  readonly literal: readonly (number | undefined)[];
  readonly space: AddressSpace;
  readonly type: WType;
}

interface GlobalInfo {
  readonly variable: number;
  /** A non-struct buffer is the member 0 of a Block wrapper. */
  readonly wrapped: boolean;
}

interface BreakTarget {
  readonly kind: 'loop' | 'switch';
  readonly merge: number;
  readonly continueTarget?: number;
  used: boolean;
}

type Binding = { readonly kind: 'value'; readonly id: number } | { readonly kind: 'var'; readonly pointer: number };

export interface EmitOptions {
  /** OpName for globals, functions, parameters and locals (default true). */
  readonly names?: boolean;
}

export function emitSpirv(checked: CheckedModule, options: EmitOptions = {}): Uint32Array {
  return new Emitter(checked, options.names ?? true).run();
}

const unsupported = (construct: string, e: { pos: { line: number; column: number } }): never => {
  throw new UnsupportedWgsl(construct, e.pos);
};

class Emitter {
  private readonly m = new SpirvModule({ version: SpirvVersion.v1_5 });
  private readonly types = new Map<string, number>();
  private readonly globals = new Map<GlobalDecl, GlobalInfo>();
  private readonly fns = new Map<FunctionDecl, SpirvFunction>();
  private fn!: SpirvFunction;
  private block!: SpirvBlock;
  private bindings = new Map<LocalDecl, Binding>();
  private targets: BreakTarget[] = [];

  constructor(
    private readonly checked: CheckedModule,
    private readonly names: boolean,
  ) {}

  run(): Uint32Array {
    const c = this.checked;
    for (const g of c.globals) this.declareGlobal(g);
    for (const f of c.functions) {
      const entry = f === c.entry;
      const params = entry ? [] : f.params.map((p) => this.type(p.type!));
      const fn = this.m.function(this.type(f.returns!), params, this.names ? f.name : undefined);
      this.fns.set(f, fn);
    }
    for (const f of c.functions) this.function(f);
    const entry = this.fns.get(c.entry)!;
    this.m.entryPoint(ExecutionModel.GLCompute, entry, c.entry.name);
    this.m.localSize(entry, ...c.workgroupSize);
    return this.m.build();
  }

  // ---- types ----

  /** The SPIR-V type of `t`; `layout` gives arrays and structs WGSL's offsets and strides. */
  type(t: WType, layout = false): number {
    const key = `${typeName(t)}|${layout ? 'L' : ''}`;
    const found = this.types.get(key);
    if (found !== undefined) return found;
    const m = this.m;
    let id: number;
    switch (t.k) {
      case 'void':
        id = m.voidType();
        break;
      case 'scalar':
      case 'atomic':
        id = this.scalarType(t.s);
        break;
      case 'vec':
        id = m.vectorType(this.scalarType(t.s), t.n);
        break;
      case 'array':
        if (t.n === undefined) {
          if (!layout) throw new Error('a runtime array outside a buffer');
          id = m.runtimeArrayType(this.type(t.elem, true), arrayStride(t));
        } else id = m.arrayType(this.type(t.elem, layout), t.n, layout ? arrayStride(t) : undefined);
        break;
      case 'struct': {
        id = m.structType(
          t.members.map((x) => this.type(x.type, layout)),
          this.names ? t.name : undefined,
        );
        const offsets = memberOffsets(t);
        t.members.forEach((x, i) => {
          if (this.names) m.memberName(id, i, x.name);
          if (layout) m.memberDecorate(id, i, Decoration.Offset, offsets[i]!);
        });
        break;
      }
      case 'texture':
        id = m.imageType({
          sampledType: this.scalarType(t.sampled),
          dim: t.dim === '1d' ? Dim.Dim1D : t.dim === '3d' ? Dim.Dim3D : Dim.Dim2D,
          arrayed: t.dim === '2d_array',
          sampled: 1,
          format: ImageFormat.Unknown,
        });
        break;
      case 'ptr':
        id = m.pointerType(STORAGE_CLASS[t.space], this.type(t.to, hasLayout(t.space)));
        break;
    }
    this.types.set(key, id);
    return id;
  }

  private scalarType(s: ScalarKind): number {
    switch (s) {
      case 'u32':
        return this.m.uintType();
      case 'i32':
        return this.m.intType();
      case 'f32':
        return this.m.floatType();
      case 'bool':
        return this.m.boolType();
    }
  }

  private u32(v: number): number {
    return this.m.constantU32(v);
  }

  /** A scalar constant of kind `s`, splatted to `like`'s vector size. */
  private constant(s: ScalarKind, v: number, like: WType = scalar(s)): number {
    const m = this.m;
    const id =
      s === 'u32'
        ? m.constantU32(v)
        : s === 'i32'
          ? m.constantI32(v)
          : s === 'f32'
            ? m.constantF32Bits(f32Bits(v))
            : m.constantBool(v !== 0);
    if (like.k !== 'vec') return id;
    return m.constantComposite(this.type(vec(like.n, s)), new Array<number>(like.n).fill(id));
  }

  // ---- globals ----

  private declareGlobal(g: GlobalDecl): void {
    if (g.declKind === 'const') return;
    const m = this.m;
    const t = g.type!;
    const name = this.names ? g.name : undefined;
    if (t.k === 'texture') {
      const variable = m.descriptor({ set: g.group!, binding: g.binding!, type: this.type(t), name });
      this.globals.set(g, { variable, wrapped: false });
      return;
    }
    const space = g.space as AddressSpace;
    if (space === 'storage' || space === 'uniform') {
      const wrapped = t.k !== 'struct';
      let block: number;
      if (wrapped) {
        block = m.structType([this.type(t, true)], this.names ? `${g.name}_block` : undefined);
        m.memberDecorate(block, 0, Decoration.Offset, 0);
      } else {
        // A struct of its own, so that Block decorates only the buffer's type.
        const st = t as Extract<WType, { k: 'struct' }>;
        block = m.structType(
          st.members.map((x) => this.type(x.type, true)),
          this.names ? `${st.name}_block` : undefined,
        );
        memberOffsets(st).forEach((o, i) => {
          m.memberDecorate(block, i, Decoration.Offset, o);
          if (this.names) m.memberName(block, i, st.members[i]!.name);
        });
      }
      m.decorate(block, Decoration.Block);
      const variable = m.globalVariable(STORAGE_CLASS[space], block, name);
      m.decorate(variable, Decoration.DescriptorSet, g.group!);
      m.decorate(variable, Decoration.Binding, g.binding!);
      if (space === 'storage' && g.access !== 'read_write') m.decorate(variable, Decoration.NonWritable);
      this.globals.set(g, { variable, wrapped });
      return;
    }
    const variable = m.globalVariable(STORAGE_CLASS[space], this.type(t), name);
    this.globals.set(g, { variable, wrapped: false });
  }

  // ---- functions and statements ----

  private function(f: FunctionDecl): void {
    const fn = this.fns.get(f)!;
    this.fn = fn;
    this.block = fn.block();
    this.bindings = new Map();
    this.targets = [];
    if (f === this.checked.entry) {
      for (const p of f.params) {
        const input = this.m.builtinInput(BUILTINS[p.builtin!]!);
        const id = this.block.load(input.type, input.variable);
        this.bindings.set(p, { kind: 'value', id });
        if (this.names) this.m.name(id, p.name);
      }
      // Module-scope private initializers, once, before anything reads them.
      for (const g of this.checked.globals)
        if (g.declKind === 'var' && g.space === 'private' && g.init !== undefined) {
          const init = this.value(g.init);
          this.block.store(this.globals.get(g)!.variable, init);
        }
    } else
      f.params.forEach((p, i) => {
        this.bindings.set(p, { kind: 'value', id: fn.params[i]! });
        if (this.names) this.m.name(fn.params[i]!, p.name);
      });
    this.statements(f.body);
    if (!this.block.terminated) {
      if (f.returns!.k === 'void') this.block.return();
      else this.block.unreachable();
    }
  }

  private statements(body: readonly Stmt[]): void {
    for (const s of body) {
      // Code after a break, continue or return is never run (WGSL allows it): nothing to write.
      if (this.block.terminated) return;
      this.statement(s);
    }
  }

  /** Starts the block `label`. */
  private start(label: number): void {
    this.block = this.fn.block(label);
  }

  private branchTo(label: number): void {
    if (!this.block.terminated) this.block.branch(label);
  }

  private statement(s: Stmt): void {
    const b = (): SpirvBlock => this.block;
    switch (s.kind) {
      case 'decl': {
        const d = s.decl;
        if (d.kind === 'var') {
          const pointer = this.fn.variable(this.type(d.type!));
          if (this.names) this.m.name(pointer, d.name);
          const init = d.init === undefined ? this.m.constantNull(this.type(d.type!)) : this.value(d.init);
          b().store(pointer, init);
          this.bindings.set(d, { kind: 'var', pointer });
        } else {
          const id = this.value(d.init!);
          if (this.names && d.init!.kind !== 'literal' && d.init!.kind !== 'ident') this.m.name(id, d.name);
          this.bindings.set(d, { kind: 'value', id });
        }
        return;
      }
      case 'assign': {
        if (s.target === undefined) {
          this.value(s.value);
          return;
        }
        const ref = this.ref(s.target);
        const pointer = this.pointer(ref);
        let v: number;
        if (s.op === '=') v = this.value(s.value);
        else {
          const old = this.load(ref, pointer);
          const rhs = this.value(s.value);
          v = this.arithmetic(s.op.slice(0, -1), ref.type, old, s.value.type!, rhs, s.value, s);
        }
        this.store(ref, pointer, v);
        return;
      }
      case 'increment': {
        const ref = this.ref(s.target);
        const pointer = this.pointer(ref);
        const old = this.load(ref, pointer);
        const one = this.constant(elementKind(ref.type)!, 1);
        this.store(ref, pointer, b().op(s.op === '++' ? Op.IAdd : Op.ISub, this.type(ref.type), old, one));
        return;
      }
      case 'call':
        this.value(s.call);
        return;
      case 'if':
        this.ifElse(
          this.value(s.cond),
          () => this.statements(s.then),
          s.otherwise === undefined ? undefined : () => this.statements(s.otherwise!),
        );
        return;
      case 'loop':
        this.loop(
          () => this.statements(s.body),
          () => this.statements(s.continuing),
          s.breakIf,
        );
        return;
      case 'for':
        if (s.init) this.statement(s.init);
        this.loop(
          () => {
            if (s.cond) this.breakUnless(s.cond);
            this.statements(s.body);
          },
          () => {
            if (s.update) this.statement(s.update);
          },
          undefined,
        );
        return;
      case 'while':
        this.loop(
          () => {
            this.breakUnless(s.cond);
            this.statements(s.body);
          },
          () => {},
          undefined,
        );
        return;
      case 'switch':
        this.switchStatement(s);
        return;
      case 'break': {
        const t = this.targets[this.targets.length - 1]!;
        t.used = true;
        b().branch(t.merge);
        return;
      }
      case 'continue': {
        const t = [...this.targets].reverse().find((x) => x.kind === 'loop')!;
        b().branch(t.continueTarget!);
        return;
      }
      case 'return':
        if (s.value === undefined) b().return();
        else {
          const v = this.value(s.value);
          b().returnValue(v);
        }
        return;
      case 'block':
        this.statements(s.body);
        return;
    }
  }

  /** `if (!cond) { break; }` at the top of a for/while body. */
  private breakUnless(cond: Expr): void {
    const c = this.value(cond);
    this.ifElse(c, undefined, () => {
      const t = this.targets[this.targets.length - 1]!;
      t.used = true;
      this.block.branch(t.merge);
    });
  }

  /** A selection: OpSelectionMerge, then the branches, each ending at the merge unless it left already. */
  private ifElse(cond: number, then: (() => void) | undefined, otherwise: (() => void) | undefined): void {
    const merge = this.fn.label();
    const thenLabel = then ? this.fn.label() : merge;
    const elseLabel = otherwise ? this.fn.label() : merge;
    this.block.selectionMerge(merge);
    this.block.branchConditional(cond, thenLabel, elseLabel);
    let reached = !then || !otherwise;
    for (const [label, body] of [
      [thenLabel, then],
      [elseLabel, otherwise],
    ] as const) {
      if (!body) continue;
      this.start(label);
      body();
      if (!this.block.terminated) {
        reached = true;
        this.block.branch(merge);
      }
    }
    this.start(merge);
    if (!reached) this.block.unreachable();
  }

  private loop(body: () => void, continuing: () => void, breakIf: Expr | undefined): void {
    const header = this.fn.label();
    const bodyLabel = this.fn.label();
    const cont = this.fn.label();
    const merge = this.fn.label();
    this.branchTo(header);
    this.start(header);
    this.block.loopMerge(merge, cont);
    this.block.branch(bodyLabel);
    this.start(bodyLabel);
    const target: BreakTarget = { kind: 'loop', merge, continueTarget: cont, used: false };
    this.targets.push(target);
    body();
    this.branchTo(cont);
    this.targets.pop();
    this.start(cont);
    // The continuing block may not break or continue (the checker refuses those): no target for it.
    this.targets.push({ kind: 'loop', merge, continueTarget: cont, used: false });
    continuing();
    this.targets.pop();
    if (!this.block.terminated) {
      if (breakIf) {
        target.used = true;
        const c = this.value(breakIf);
        this.block.branchConditional(c, merge, header);
      } else this.block.branch(header);
    }
    this.start(merge);
    if (!target.used) this.block.unreachable();
  }

  private switchStatement(s: Extract<Stmt, { kind: 'switch' }>): void {
    const selector = this.value(s.selector);
    const merge = this.fn.label();
    const labels = s.clauses.map(() => this.fn.label());
    let defaultLabel = merge;
    const cases: [number, number][] = [];
    s.clauses.forEach((c, i) => {
      for (const sel of c.selectors)
        if (sel === 'default') defaultLabel = labels[i]!;
        else cases.push([this.checked.constants.get(sel)!, labels[i]!]);
    });
    this.block.selectionMerge(merge);
    this.block.switch(selector, defaultLabel, cases);
    const target: BreakTarget = { kind: 'switch', merge, used: false };
    this.targets.push(target);
    s.clauses.forEach((c, i) => {
      this.start(labels[i]!);
      this.statements(c.body);
      if (!this.block.terminated) {
        target.used = true;
        this.block.branch(merge);
      }
    });
    this.targets.pop();
    this.start(merge);
    if (!target.used) this.block.unreachable();
  }

  // ---- memory views ----

  private ref(e: Expr): Ref {
    switch (e.kind) {
      case 'ident': {
        const d = e.decl!;
        if (d.kind === 'global') {
          const g = this.globals.get(d)!;
          const space = d.space as AddressSpace;
          return g.wrapped
            ? { base: g.variable, indices: [this.u32(0)], literal: [0], space, type: d.type! }
            : { base: g.variable, indices: [], literal: [], space, type: d.type! };
        }
        const bnd = this.bindings.get(d);
        if (bnd?.kind !== 'var') return unsupported(`'${e.name}' as a reference`, e);
        return { base: bnd.pointer, indices: [], literal: [], space: 'function', type: d.type! };
      }
      case 'member': {
        const base = this.ref(e.base);
        const t = base.type;
        let index: number;
        if (t.k === 'struct') index = t.members.findIndex((x) => x.name === e.name);
        else index = swizzle(e.name, (t as { n: number }).n, e.pos)[0]!;
        return {
          ...base,
          indices: [...base.indices, this.u32(index)],
          literal: [...base.literal, index],
          type: e.type!,
        };
      }
      case 'index': {
        const base = this.ref(e.base);
        const t = base.type;
        let index: number;
        const constant = this.constantIndex(e.index);
        const n = t.k === 'array' ? t.n : (t as { n: number }).n;
        const inRange = constant !== undefined && n !== undefined && constant >= 0 && constant < n;
        // The index first: its value may end in another block (a short-circuit inside it).
        const word = inRange ? undefined : this.asU32(e.index);
        if (t.k === 'array' && t.n === undefined) {
          // Clamped to the buffer's length: OpArrayLength of the runtime array, the block's member.
          if (base.literal.length !== 1 || base.literal[0] === undefined)
            return unsupported('a runtime array that is not a buffer’s member', e);
          const length = this.block.op(Op.ArrayLength, this.m.uintType(), base.base, base.literal[0]!);
          const last = this.block.op(Op.ISub, this.m.uintType(), length, this.u32(1));
          index = this.block.glsl(this.m.uintType(), GLSLstd450.UMin, word!, last);
        } else {
          index = inRange
            ? this.u32(constant)
            : this.block.glsl(this.m.uintType(), GLSLstd450.UMin, word!, this.u32(n! - 1));
        }
        return {
          ...base,
          indices: [...base.indices, index],
          literal: [...base.literal, constant],
          type: e.type!,
        };
      }
      default:
        return unsupported(`a ${e.kind} expression as a reference`, e);
    }
  }

  private constantIndex(e: Expr): number | undefined {
    if (e.kind === 'literal') return e.value;
    return undefined;
  }

  /** An integer index as a u32 word (an i32 reinterpreted: a negative one clamps to the last element). */
  private asU32(e: Expr): number {
    const v = this.value(e);
    return elementKind(e.type!) === 'i32' ? this.block.bitcast(this.m.uintType(), v) : v;
  }

  private pointer(r: Ref): number {
    if (r.indices.length === 0) return r.base;
    const pointee = this.type(r.type, hasLayout(r.space));
    return this.block.accessChain(this.m.pointerType(STORAGE_CLASS[r.space], pointee), r.base, ...r.indices);
  }

  private load(r: Ref, pointer: number): number {
    const layout = hasLayout(r.space);
    const v = this.block.load(this.type(r.type, layout), pointer);
    if (layout && (r.type.k === 'array' || r.type.k === 'struct'))
      return this.block.op(Op.CopyLogical, this.type(r.type), v);
    return v;
  }

  private store(r: Ref, pointer: number, value: number): void {
    const layout = hasLayout(r.space);
    const v =
      layout && (r.type.k === 'array' || r.type.k === 'struct')
        ? this.block.op(Op.CopyLogical, this.type(r.type, true), value)
        : value;
    this.block.store(pointer, v);
  }

  // ---- values ----

  value(e: Expr): number {
    const t = e.type!;
    if (e.ref !== undefined) {
      const r = this.ref(e);
      return this.load(r, this.pointer(r));
    }
    const b = this.block;
    switch (e.kind) {
      case 'literal':
        return this.constant(elementKind(t)!, e.value);
      case 'ident': {
        const d = e.decl!;
        if (d.kind === 'global') {
          if (d.declKind === 'const') return this.value(d.init!);
          return b.load(this.type(t), this.globals.get(d)!.variable);
        }
        if (d.kind === 'const') return this.value(d.init!);
        const bnd = this.bindings.get(d)!;
        return bnd.kind === 'value' ? bnd.id : b.load(this.type(t), bnd.pointer);
      }
      case 'member': {
        const base = this.value(e.base);
        const bt = e.base.type!;
        if (bt.k === 'struct')
          return b.compositeExtract(
            this.type(t),
            base,
            bt.members.findIndex((x) => x.name === e.name),
          );
        const idx = swizzle(e.name, (bt as { n: number }).n, e.pos);
        if (idx.length === 1) return b.compositeExtract(this.type(t), base, idx[0]!);
        return b.op(Op.VectorShuffle, this.type(t), base, base, ...idx);
      }
      case 'index': {
        const bt = e.base.type!;
        const constant = this.constantIndex(e.index);
        const n = bt.k === 'array' ? bt.n! : (bt as { n: number }).n;
        const base = this.value(e.base);
        if (constant !== undefined && constant >= 0 && constant < n)
          return b.compositeExtract(this.type(t), base, constant);
        const word = this.asU32(e.index);
        const index = this.block.glsl(this.m.uintType(), GLSLstd450.UMin, word, this.u32(n - 1));
        if (bt.k === 'vec') return this.block.op(Op.VectorExtractDynamic, this.type(t), base, index);
        // An array value indexed at run time: through a Function variable (OpAccessChain needs a pointer).
        const spill = this.fn.variable(this.type(bt));
        this.block.store(spill, base);
        const p = this.block.accessChain(this.m.pointerType(StorageClass.Function, this.type(t)), spill, index);
        return this.block.load(this.type(t), p);
      }
      case 'unary':
        return this.unary(e);
      case 'binary':
        return this.binary(e);
      case 'call':
        return this.call(e);
    }
  }

  private unary(e: Extract<Expr, { kind: 'unary' }>): number {
    const t = e.type!;
    if (e.op === '-' && e.arg.kind === 'literal') return this.constant(elementKind(t)!, -e.arg.value, t);
    if (e.op === '&') return unsupported('a pointer value outside a builtin’s argument', e);
    const v = this.value(e.arg);
    const ty = this.type(t);
    switch (e.op) {
      case '-':
        if (elementKind(t) === 'f32') return this.exact(this.block.op(Op.FNegate, ty, v));
        return this.block.op(Op.SNegate, ty, v);
      case '!':
        return this.block.op(Op.LogicalNot, ty, v);
      case '~':
        return this.block.op(Op.Not, ty, v);
      default:
        return unsupported(`the operator ${e.op}`, e);
    }
  }

  private exact(id: number): number {
    this.m.noContraction(id);
    return id;
  }

  /** Whether evaluating `e` could have an effect (a user function, an atomic, a barrier). */
  private effectful(e: Expr): boolean {
    switch (e.kind) {
      case 'call':
        return (
          e.fn !== undefined ||
          e.callee.startsWith('atomic') ||
          e.callee.endsWith('Barrier') ||
          e.callee === 'workgroupUniformLoad' ||
          e.args.some((a) => this.effectful(a))
        );
      case 'unary':
        return this.effectful(e.arg);
      case 'binary':
        return this.effectful(e.left) || this.effectful(e.right);
      case 'member':
        return this.effectful(e.base);
      case 'index':
        return this.effectful(e.base) || this.effectful(e.index);
      default:
        return false;
    }
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>): number {
    const bool = this.m.boolType();
    if (e.op === '&&' || e.op === '||') {
      const left = this.value(e.left);
      if (!this.effectful(e.right)) {
        const right = this.value(e.right);
        return this.block.op(e.op === '&&' ? Op.LogicalAnd : Op.LogicalOr, bool, left, right);
      }
      // Short-circuit: the right side runs only where WGSL evaluates it.
      const from = this.block.label;
      const rightLabel = this.fn.label();
      const merge = this.fn.label();
      this.block.selectionMerge(merge);
      if (e.op === '&&') this.block.branchConditional(left, rightLabel, merge);
      else this.block.branchConditional(left, merge, rightLabel);
      this.start(rightLabel);
      const right = this.value(e.right);
      const rightEnd = this.block.label;
      this.block.branch(merge);
      this.start(merge);
      return this.block.phi(bool, [
        [left, from],
        [right, rightEnd],
      ]);
    }
    const left = this.value(e.left);
    const right = this.value(e.right);
    return this.arithmetic(e.op, e.left.type!, left, e.right.type!, right, e.right, e);
  }

  /** Splats a scalar to `like`'s vector size (vector op scalar, WGSL §8.7). */
  private splat(v: number, t: WType, like: WType): number {
    if (t.k !== 'scalar' || like.k !== 'vec') return v;
    return this.block.op(Op.CompositeConstruct, this.type(vec(like.n, t.s)), ...new Array<number>(like.n).fill(v));
  }

  /** `left op right` on numbers, bools and vectors of them (also the compound assignments' operation). */
  private arithmetic(
    op: string,
    lt: WType,
    left: number,
    rt: WType,
    right: number,
    rightExpr: Expr,
    at: { pos: { line: number; column: number } },
  ): number {
    const b = this.block;
    const s = elementKind(lt)!;
    const shape = lt.k === 'vec' ? lt : rt;
    const l = this.splat(left, lt, shape);
    const r = op === '<<' || op === '>>' ? right : this.splat(right, rt, shape);
    const vt = shape.k === 'vec' ? vec(shape.n, s) : scalar(s);
    const ty = this.type(vt);
    const bt = this.type(shape.k === 'vec' ? vec(shape.n, 'bool') : BOOL);
    const float = s === 'f32';
    const signed = s === 'i32';
    const compare = (u: number, i: number, f: number): number => b.op(float ? f : signed ? i : u, bt, l, r);
    switch (op) {
      case '==':
        return s === 'bool' ? b.op(Op.LogicalEqual, bt, l, r) : compare(Op.IEqual, Op.IEqual, Op.FOrdEqual);
      case '!=':
        // WGSL's != is true when either side is a NaN: the unordered comparison.
        return s === 'bool'
          ? b.op(Op.LogicalNotEqual, bt, l, r)
          : compare(Op.INotEqual, Op.INotEqual, Op.FUnordNotEqual);
      case '<':
        return compare(Op.ULessThan, Op.SLessThan, Op.FOrdLessThan);
      case '<=':
        return compare(Op.ULessThanEqual, Op.SLessThanEqual, Op.FOrdLessThanEqual);
      case '>':
        return compare(Op.UGreaterThan, Op.SGreaterThan, Op.FOrdGreaterThan);
      case '>=':
        return compare(Op.UGreaterThanEqual, Op.SGreaterThanEqual, Op.FOrdGreaterThanEqual);
      case '+':
        return float ? this.exact(b.op(Op.FAdd, ty, l, r)) : b.op(Op.IAdd, ty, l, r);
      case '-':
        return float ? this.exact(b.op(Op.FSub, ty, l, r)) : b.op(Op.ISub, ty, l, r);
      case '*':
        return float ? this.exact(b.op(Op.FMul, ty, l, r)) : b.op(Op.IMul, ty, l, r);
      case '/':
      case '%': {
        if (float) return this.exact(b.op(op === '/' ? Op.FDiv : Op.FRem, ty, l, r));
        const divisor = this.safeDivisor(vt, l, r, rightExpr);
        return b.op(op === '/' ? (signed ? Op.SDiv : Op.UDiv) : signed ? Op.SRem : Op.UMod, ty, l, divisor);
      }
      case '&':
        return b.op(s === 'bool' ? Op.LogicalAnd : Op.BitwiseAnd, ty, l, r);
      case '|':
        return b.op(s === 'bool' ? Op.LogicalOr : Op.BitwiseOr, ty, l, r);
      case '^':
        return b.op(Op.BitwiseXor, ty, l, r);
      case '<<':
      case '>>': {
        const count = this.shiftCount(rt, r, rightExpr);
        const opcode = op === '<<' ? Op.ShiftLeftLogical : signed ? Op.ShiftRightArithmetic : Op.ShiftRightLogical;
        return b.op(opcode, ty, l, count);
      }
      default:
        return unsupported(`the operator ${op}`, at);
    }
  }

  /** WGSL §8.9: the count modulo the bit width (a constant below 32 as written). */
  private shiftCount(t: WType, count: number, e: Expr): number {
    if (e.kind === 'literal' && e.value < 32) return count;
    return this.block.op(Op.BitwiseAnd, this.type(t), count, this.constant('u32', 31, t));
  }

  /**
   * The divisor WGSL's integer `/` and `%` need (WGSL §8.7): where it is 0, or -1 under i32's
   * most negative dividend, 1 instead, so the quotient is the dividend and the remainder 0 as
   * WGSL defines them (SPIR-V leaves both undefined). A constant divisor that is neither needs no guard.
   */
  private safeDivisor(t: WType, dividend: number, divisor: number, e: Expr): number {
    const s = elementKind(t)!;
    if (e.kind === 'literal' && e.value !== 0 && !(s === 'i32' && e.value === 0xffffffff)) return divisor;
    const b = this.block;
    const bt = this.type(t.k === 'vec' ? vec(t.n, 'bool') : BOOL);
    let bad = b.op(Op.IEqual, bt, divisor, this.constant(s, 0, t));
    if (s === 'i32') {
      const minDividend = b.op(Op.IEqual, bt, dividend, this.constant('i32', 0x80000000, t));
      const minusOne = b.op(Op.IEqual, bt, divisor, this.constant('i32', -1, t));
      bad = b.op(Op.LogicalOr, bt, bad, b.op(Op.LogicalAnd, bt, minDividend, minusOne));
    }
    return b.op(Op.Select, this.type(t), bad, this.constant(s, 1, t), divisor);
  }

  // ---- calls ----

  private call(e: Extract<Expr, { kind: 'call' }>): number {
    const t = e.type!;
    const b = (): SpirvBlock => this.block;
    if (e.fn !== undefined) {
      const args = e.args.map((a) => this.value(a));
      return b().call(this.fns.get(e.fn)!, ...args);
    }
    if (e.callee === 'getResource' || e.callee === 'hasResource') return this.resource(e);
    if (e.constructs !== undefined) return e.callee === 'bitcast' ? this.bitcast(e) : this.construct(e);
    const name = e.callee;
    switch (name) {
      case 'select': {
        const f = this.value(e.args[0]!);
        const tv = this.value(e.args[1]!);
        const c = this.value(e.args[2]!);
        return b().op(Op.Select, this.type(t), c, tv, f);
      }
      case 'workgroupBarrier':
        b().workgroupBarrier();
        return 0;
      case 'storageBarrier':
        b().storageBarrier();
        return 0;
      case 'workgroupUniformLoad': {
        // WGSL §17.11.4: a workgroup barrier, the load, and a workgroup barrier.
        const r = this.ref((e.args[0] as Extract<Expr, { kind: 'unary' }>).arg);
        const pointer = this.pointer(r);
        b().workgroupBarrier();
        const v =
          r.type.k === 'atomic' ? b().atomicLoad(this.type(t), pointer, Scope.Workgroup) : this.load(r, pointer);
        b().workgroupBarrier();
        return v;
      }
      case 'arrayLength': {
        const r = this.ref((e.args[0] as Extract<Expr, { kind: 'unary' }>).arg);
        if (r.literal.length !== 1 || r.literal[0] === undefined)
          return unsupported('arrayLength of an array that is not a buffer’s member', e);
        return b().op(Op.ArrayLength, this.m.uintType(), r.base, r.literal[0]!);
      }
      case 'textureLoad':
        return this.textureLoad(e);
      case 'textureDimensions':
        return this.textureDimensions(e);
      case 'textureNumLevels': {
        this.m.capability(Capability.ImageQuery);
        const image = this.value(e.args[0]!);
        return b().op(Op.ImageQueryLevels, this.m.uintType(), image);
      }
      case 'textureNumLayers': {
        this.m.capability(Capability.ImageQuery);
        const image = this.value(e.args[0]!);
        const size = b().op(Op.ImageQuerySizeLod, this.type(vec(3, 'u32')), image, this.m.constantI32(0));
        return b().compositeExtract(this.m.uintType(), size, 2);
      }
    }
    if (name.startsWith('atomic')) return this.atomic(e);
    return this.builtin(e);
  }

  /**
   * The resource table (`enable chromium_experimental_resource_table`) as Vulkan descriptor
   * indexing: descriptor set RESOURCE_TABLE_SET holds at binding 0 `resource_types`, a
   * read-only storage buffer of one word per slot (the slot's type: 1 + its index in
   * RESOURCE_TABLE_TYPES, 0 for none), and at binding 1 + k a runtime array of the k-th type's
   * images, indexed by slot, with one more element after the table's slots: a default image of
   * that type, which getResource returns where the slot does not hold a T (as the extension
   * defines it). The slot index is not dynamically uniform: it, the descriptor pointer and the
   * loaded image are NonUniform (RuntimeDescriptorArray, SampledImageArrayNonUniformIndexing,
   * ShaderNonUniform). The host must bind `resource_types` with at least one word.
   */
  private resource(e: Extract<Expr, { kind: 'call' }>): number {
    const m = this.m;
    const uint = m.uintType();
    const b = this.block;
    const t = e.constructs as Extract<WType, { k: 'texture' }>;
    const kind = RESOURCE_TABLE_TYPES.indexOf(typeName(t));
    if (kind < 0) return unsupported(`${e.callee}<${typeName(t)}>`, e);
    const index = this.asU32(e.args[0]!);
    const table = this.resourceTable();
    const length = b.op(Op.ArrayLength, uint, table.types, 0);
    const inRange = b.op(Op.ULessThan, m.boolType(), index, length);
    const word = b.glsl(uint, GLSLstd450.UMin, index, b.op(Op.ISub, uint, length, this.u32(1)));
    const stored = b.load(
      uint,
      b.accessChain(m.pointerType(StorageClass.StorageBuffer, uint), table.types, this.u32(0), word),
    );
    const has = b.op(Op.LogicalAnd, m.boolType(), inRange, b.op(Op.IEqual, m.boolType(), stored, this.u32(kind + 1)));
    if (e.callee === 'hasResource') return has;
    const images = this.resourceImages(t, kind);
    const slot = b.op(Op.Select, uint, has, index, length);
    m.nonUniform(slot);
    m.nonUniformIndexing('sampled-image');
    const pointer = b.accessChain(m.pointerType(StorageClass.UniformConstant, this.type(t)), images, slot);
    m.nonUniform(pointer);
    const image = b.load(this.type(t), pointer);
    m.nonUniform(image);
    return image;
  }

  private table: { types: number } | undefined;
  private readonly tableImages = new Map<number, number>();

  private resourceTable(): { types: number } {
    if (this.table) return this.table;
    const buffer = this.m.storageBuffer({
      set: RESOURCE_TABLE_SET,
      binding: 0,
      element: this.m.uintType(),
      stride: 4,
      readOnly: true,
      name: this.names ? 'resource_types' : undefined,
    });
    this.table = { types: buffer.variable };
    return this.table;
  }

  private resourceImages(t: WType, kind: number): number {
    let v = this.tableImages.get(kind);
    if (v === undefined) {
      v = this.m.descriptorArray({
        set: RESOURCE_TABLE_SET,
        binding: 1 + kind,
        element: this.type(t),
        name: this.names ? `resource_table_${typeName(t).replace(/[<>]/g, '_')}` : undefined,
      });
      this.tableImages.set(kind, v);
    }
    return v;
  }

  private bitcast(e: Extract<Expr, { kind: 'call' }>): number {
    const v = this.value(e.args[0]!);
    const from = e.args[0]!.type!;
    const to = e.constructs!;
    if (typeName(from) === typeName(to)) return v;
    if (e.args[0]!.kind === 'literal' && to.k === 'scalar' && to.s === 'f32' && elementKind(from) !== 'f32')
      return this.m.constantF32Bits(e.args[0]!.value >>> 0);
    return this.block.bitcast(this.type(to), v);
  }

  private construct(e: Extract<Expr, { kind: 'call' }>): number {
    const t = e.constructs!;
    const ty = this.type(t);
    const b = this.block;
    if (e.args.length === 0) return this.m.constantNull(ty);
    if (t.k === 'scalar' || (t.k === 'vec' && e.args.length === 1 && e.args[0]!.type!.k === 'vec'))
      return this.convert(this.value(e.args[0]!), e.args[0]!.type!, t);
    const parts = e.args.map((a) => this.value(a));
    if (t.k === 'vec' && parts.length === 1) return this.splat(parts[0]!, e.args[0]!.type!, t);
    if (t.k === 'vec' && e.args.every((a) => this.isConstantLiteral(a))) return this.m.constantComposite(ty, parts);
    return b.op(Op.CompositeConstruct, ty, ...parts);
  }

  private isConstantLiteral(e: Expr): boolean {
    return e.kind === 'literal' || (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'literal');
  }

  /** WGSL's value conversions (§15.7.6), scalars or vectors alike. */
  private convert(v: number, from: WType, to: WType): number {
    const fs = elementKind(from)!;
    const ts = elementKind(to)!;
    if (fs === ts) return v;
    const ty = this.type(to);
    const b = this.block;
    switch (ts) {
      case 'bool':
        return b.op(fs === 'f32' ? Op.FUnordNotEqual : Op.INotEqual, ty, v, this.constant(fs, 0, from));
      case 'f32':
        if (fs === 'bool') return b.op(Op.Select, ty, v, this.constant('f32', 1, to), this.constant('f32', 0, to));
        return b.op(fs === 'i32' ? Op.ConvertSToF : Op.ConvertUToF, ty, v);
      case 'u32':
      case 'i32': {
        if (fs === 'bool') return b.op(Op.Select, ty, v, this.constant(ts, 1, to), this.constant(ts, 0, to));
        if (fs !== 'f32') return b.bitcast(ty, v);
        // f32 to integer saturates (WGSL §15.7.6): clamp into the range the integer type holds
        // (the largest f32 below 2^31 or 2^32), then round toward zero. A NaN gives the low bound.
        const ft = this.type(from);
        const lo = this.constant('f32', ts === 'i32' ? -2147483648 : 0, from);
        const hi = this.constant('f32', ts === 'i32' ? 2147483520 : 4294967040, from);
        const clamped = b.glsl(ft, GLSLstd450.NMin, b.glsl(ft, GLSLstd450.NMax, v, lo), hi);
        return b.op(ts === 'i32' ? Op.ConvertFToS : Op.ConvertFToU, ty, clamped);
      }
    }
  }

  private atomic(e: Extract<Expr, { kind: 'call' }>): number {
    const r = this.ref((e.args[0] as Extract<Expr, { kind: 'unary' }>).arg);
    const pointer = this.pointer(r);
    const scope = r.space === 'workgroup' ? Scope.Workgroup : Scope.Device;
    const s = (r.type as { s: 'u32' | 'i32' }).s;
    const ty = this.scalarType(s);
    const b = this.block;
    const operand = (i: number): number => this.value(e.args[i]!);
    switch (e.callee) {
      case 'atomicLoad':
        return b.atomicLoad(ty, pointer, scope);
      case 'atomicStore':
        b.atomicStore(pointer, operand(1), scope);
        return 0;
      case 'atomicCompareExchangeWeak': {
        const cmp = operand(1);
        const value = operand(2);
        const old = b.atomicCompareExchange(ty, pointer, value, cmp, scope);
        const exchanged = b.op(Op.IEqual, this.m.boolType(), old, cmp);
        return b.op(Op.CompositeConstruct, this.type(e.type!), old, exchanged);
      }
    }
    const opcode: Readonly<Record<string, number>> = {
      atomicAdd: Op.AtomicIAdd,
      atomicSub: Op.AtomicISub,
      atomicMax: s === 'i32' ? Op.AtomicSMax : Op.AtomicUMax,
      atomicMin: s === 'i32' ? Op.AtomicSMin : Op.AtomicUMin,
      atomicAnd: Op.AtomicAnd,
      atomicOr: Op.AtomicOr,
      atomicXor: Op.AtomicXor,
      atomicExchange: Op.AtomicExchange,
    };
    return b.atomic(opcode[e.callee]!, ty, pointer, operand(1), scope);
  }

  /** A level clamped into the image's levels (WGSL §17.7.4), as an i32. */
  private clampedLevel(image: number, level: Expr | undefined): number {
    const int = this.m.intType();
    if (level === undefined) return this.m.constantI32(0);
    const uint = this.m.uintType();
    const b = this.block;
    this.m.capability(Capability.ImageQuery);
    const levels = b.op(Op.ImageQueryLevels, uint, image);
    const last = b.op(Op.ISub, uint, levels, this.u32(1));
    return b.bitcast(int, b.glsl(uint, GLSLstd450.UMin, this.asU32(level), last));
  }

  private textureLoad(e: Extract<Expr, { kind: 'call' }>): number {
    const tex = e.args[0]!.type as Extract<WType, { k: 'texture' }>;
    const image = this.value(e.args[0]!);
    const arrayed = tex.dim === '2d_array';
    const level = this.clampedLevel(image, e.args[arrayed ? 3 : 2]);
    const n = (tex.dim === '1d' ? 1 : tex.dim === '3d' ? 3 : 2) + (arrayed ? 1 : 0);
    const b = this.block;
    const uint = this.m.uintType();
    const ut = n === 1 ? U32 : vec(n as 2 | 3, 'u32');
    const it = n === 1 ? I32 : vec(n as 2 | 3, 'i32');
    // The coordinate (and layer) as u32 words, clamped below the size at that level: a negative
    // one is a large word, clamped to the last texel like any other beyond the edge.
    const coords = this.value(e.args[1]!);
    const ct = e.args[1]!.type!;
    const coordsU =
      elementKind(ct) === 'i32' ? b.bitcast(this.type(ct.k === 'vec' ? vec(ct.n, 'u32') : U32), coords) : coords;
    let whole = coordsU;
    if (arrayed) {
      const x = b.compositeExtract(uint, coordsU, 0);
      const y = b.compositeExtract(uint, coordsU, 1);
      whole = b.op(Op.CompositeConstruct, this.type(ut), x, y, this.asU32(e.args[2]!));
    }
    const size = b.op(Op.ImageQuerySizeLod, this.type(ut), image, level);
    const last = b.op(Op.ISub, this.type(ut), size, this.constant('u32', 1, ut));
    const clamped = b.bitcast(this.type(it), b.glsl(this.type(ut), GLSLstd450.UMin, whole, last));
    return b.op(Op.ImageFetch, this.type(e.type!), image, clamped, ImageOperands.Lod, level);
  }

  private textureDimensions(e: Extract<Expr, { kind: 'call' }>): number {
    const tex = e.args[0]!.type as Extract<WType, { k: 'texture' }>;
    const image = this.value(e.args[0]!);
    const level = this.clampedLevel(image, e.args[1]);
    this.m.capability(Capability.ImageQuery);
    const n = (tex.dim === '1d' ? 1 : tex.dim === '3d' ? 3 : 2) + (tex.dim === '2d_array' ? 1 : 0);
    const size = this.block.op(Op.ImageQuerySizeLod, this.type(n === 1 ? U32 : vec(n as 2 | 3, 'u32')), image, level);
    if (tex.dim !== '2d_array') return size;
    return this.block.op(Op.VectorShuffle, this.type(vec(2, 'u32')), size, size, 0, 1);
  }

  private builtin(e: Extract<Expr, { kind: 'call' }>): number {
    const t = e.type!;
    const ty = this.type(t);
    const s = elementKind(t);
    const args = e.args.map((a) => this.value(a));
    const b = this.block;
    const [x, y, z] = args as [number, number, number];
    const g = (i: GLSLstd450, ...ops: number[]): number => b.glsl(ty, i, ...ops);
    const pick = (u: GLSLstd450, i: GLSLstd450, f: GLSLstd450): GLSLstd450 => (s === 'f32' ? f : s === 'i32' ? i : u);
    switch (e.callee) {
      case 'min':
        // Floats: WGSL's min/max return the other operand when one is a NaN, which is NMin/NMax.
        return g(pick(GLSLstd450.UMin, GLSLstd450.SMin, GLSLstd450.NMin), x, y);
      case 'max':
        return g(pick(GLSLstd450.UMax, GLSLstd450.SMax, GLSLstd450.NMax), x, y);
      case 'clamp': {
        // WGSL: min(max(e, low), high), whatever the order of low and high.
        const hi = g(pick(GLSLstd450.UMax, GLSLstd450.SMax, GLSLstd450.NMax), x, y);
        return g(pick(GLSLstd450.UMin, GLSLstd450.SMin, GLSLstd450.NMin), hi, z);
      }
      case 'abs':
        return s === 'u32' ? x : g(s === 'f32' ? GLSLstd450.FAbs : GLSLstd450.SAbs, x);
      case 'sign':
        return g(s === 'f32' ? GLSLstd450.FSign : GLSLstd450.SSign, x);
      case 'floor':
        return g(GLSLstd450.Floor, x);
      case 'ceil':
        return g(GLSLstd450.Ceil, x);
      case 'round':
        // WGSL rounds half to even.
        return g(GLSLstd450.RoundEven, x);
      case 'trunc':
        return g(GLSLstd450.Trunc, x);
      case 'fract':
        return g(GLSLstd450.Fract, x);
      case 'sqrt':
        return g(GLSLstd450.Sqrt, x);
      case 'inverseSqrt':
        return g(GLSLstd450.InverseSqrt, x);
      case 'exp':
        return g(GLSLstd450.Exp, x);
      case 'exp2':
        return g(GLSLstd450.Exp2, x);
      case 'log':
        return g(GLSLstd450.Log, x);
      case 'log2':
        return g(GLSLstd450.Log2, x);
      case 'sin':
        return g(GLSLstd450.Sin, x);
      case 'cos':
        return g(GLSLstd450.Cos, x);
      case 'tan':
        return g(GLSLstd450.Tan, x);
      case 'pow':
        return g(GLSLstd450.Pow, x, y);
      case 'fma':
        return this.exact(g(GLSLstd450.Fma, x, y, z));
      case 'mix':
        return this.exact(g(GLSLstd450.FMix, x, y, z));
      case 'ldexp':
        return g(GLSLstd450.Ldexp, x, y);
      case 'length':
        return e.args[0]!.type!.k === 'scalar' ? g(GLSLstd450.FAbs, x) : this.exact(b.glsl(ty, GLSLstd450.Length, x));
      case 'dot':
        if (s !== 'f32') return unsupported('dot of integer vectors', e);
        return this.exact(b.op(Op.Dot, ty, x, y));
      case 'countOneBits':
        return b.op(Op.BitCount, ty, x);
      case 'reverseBits':
        return b.op(Op.BitReverse, ty, x);
      case 'countLeadingZeros':
        // FindUMsb(0) is -1, so 31 - FindUMsb(x) is 32 for 0 (as spirv/expressions.ts writes clz).
        return b.op(Op.ISub, ty, this.constant(s!, 31, t), g(GLSLstd450.FindUMsb, x));
      case 'countTrailingZeros':
        return g(GLSLstd450.UMin, g(GLSLstd450.FindILsb, x), this.constant(s!, 32, t));
      case 'firstLeadingBit':
        return g(s === 'i32' ? GLSLstd450.FindSMsb : GLSLstd450.FindUMsb, x);
      case 'firstTrailingBit':
        return g(GLSLstd450.FindILsb, x);
      case 'subgroupBallot':
        this.m.capability(Capability.GroupNonUniformBallot);
        return b.op(Op.GroupNonUniformBallot, ty, this.u32(Scope.Subgroup), x);
      case 'subgroupShuffle':
        // The id as a u32 (WGSL takes i32 or u32; SPIR-V an unsigned integer scalar).
        this.m.capability(Capability.GroupNonUniformShuffle);
        return b.op(
          Op.GroupNonUniformShuffle,
          ty,
          this.u32(Scope.Subgroup),
          x,
          elementKind(e.args[1]!.type!) === 'i32' ? b.bitcast(this.m.uintType(), y) : y,
        );
      case 'extractBits':
      case 'insertBits': {
        // WGSL: o = min(offset, 32), c = min(count, 32 - o); SPIR-V leaves offset + count > 32 undefined.
        const [offset, count] = e.callee === 'extractBits' ? [y, z] : [z, args[3]!];
        const uint = this.m.uintType();
        const o = b.glsl(uint, GLSLstd450.UMin, offset, this.u32(32));
        const c = b.glsl(uint, GLSLstd450.UMin, count, b.op(Op.ISub, uint, this.u32(32), o));
        if (e.callee === 'insertBits') return b.op(Op.BitFieldInsert, ty, x, y, o, c);
        return b.op(s === 'i32' ? Op.BitFieldSExtract : Op.BitFieldUExtract, ty, x, o, c);
      }
    }
    return unsupported(`the function ${e.callee}`, e);
  }
}
