/**
 * The checker (D016): resolves every name, gives every expression its type and says which
 * expressions are references to memory, in place on the tree (`ast.ts`). Abstract literals
 * (`0`, `0.5`) take the concrete type their context gives (WGSL §6.2 "Abstract numeric
 * types": the other operand, the parameter, the declared type), else i32 / f32 as WGSL's
 * default. Constant expressions the SPIR-V needs as literals (array lengths, switch cases,
 * workgroup sizes) are evaluated here. Anything outside the subset is an `UnsupportedWgsl`.
 */
import type {
  BinaryOp,
  Decl,
  Expr,
  FunctionDecl,
  GlobalDecl,
  LocalDecl,
  Stmt,
  StructDecl,
  TypeExpr,
  WgslModule,
} from './ast.ts';
import { UnsupportedWgsl, type SourcePos } from './errors.ts';
import {
  BOOL,
  compareExchangeResult,
  elementKind,
  F32,
  I32,
  isConstructible,
  isInteger,
  isScalar,
  sameType,
  scalar,
  typeName,
  U32,
  vec,
  VOID,
  type AddressSpace,
  type ScalarKind,
  type TextureDim,
  type WType,
} from './types.ts';

/** The entry point's built-in inputs the subset reads, and their WGSL types (WGSL §13.3.1). */
export const BUILTIN_INPUTS: Readonly<Record<string, WType>> = {
  local_invocation_index: U32,
  local_invocation_id: vec(3, 'u32'),
  global_invocation_id: vec(3, 'u32'),
  workgroup_id: vec(3, 'u32'),
  num_workgroups: vec(3, 'u32'),
  // enable subgroups
  subgroup_invocation_id: U32,
  subgroup_size: U32,
};

/** The extensions the reader takes: the resource table (D016) and subgroups (the resource-table form's service, D026). */
const EXTENSIONS = new Set(['chromium_experimental_resource_table', 'subgroups']);
/** The severities of a diagnostic directive (WGSL §2.3.1). */
const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);

/** Builtins whose arguments all share one numeric type, which is also their result's (WGSL §17). */
const SAME_TYPE_BUILTINS: Readonly<Record<string, { args: number; kinds: readonly ScalarKind[] }>> = {
  min: { args: 2, kinds: ['u32', 'i32', 'f32'] },
  max: { args: 2, kinds: ['u32', 'i32', 'f32'] },
  clamp: { args: 3, kinds: ['u32', 'i32', 'f32'] },
  abs: { args: 1, kinds: ['u32', 'i32', 'f32'] },
  sign: { args: 1, kinds: ['i32', 'f32'] },
  floor: { args: 1, kinds: ['f32'] },
  ceil: { args: 1, kinds: ['f32'] },
  round: { args: 1, kinds: ['f32'] },
  trunc: { args: 1, kinds: ['f32'] },
  fract: { args: 1, kinds: ['f32'] },
  sqrt: { args: 1, kinds: ['f32'] },
  inverseSqrt: { args: 1, kinds: ['f32'] },
  exp: { args: 1, kinds: ['f32'] },
  exp2: { args: 1, kinds: ['f32'] },
  log: { args: 1, kinds: ['f32'] },
  log2: { args: 1, kinds: ['f32'] },
  sin: { args: 1, kinds: ['f32'] },
  cos: { args: 1, kinds: ['f32'] },
  tan: { args: 1, kinds: ['f32'] },
  pow: { args: 2, kinds: ['f32'] },
  fma: { args: 3, kinds: ['f32'] },
  mix: { args: 3, kinds: ['f32'] },
  countOneBits: { args: 1, kinds: ['u32', 'i32'] },
  countLeadingZeros: { args: 1, kinds: ['u32', 'i32'] },
  countTrailingZeros: { args: 1, kinds: ['u32', 'i32'] },
  firstLeadingBit: { args: 1, kinds: ['u32', 'i32'] },
  firstTrailingBit: { args: 1, kinds: ['u32', 'i32'] },
  reverseBits: { args: 1, kinds: ['u32', 'i32'] },
};

const ATOMIC_RMW = new Set([
  'atomicAdd',
  'atomicSub',
  'atomicMax',
  'atomicMin',
  'atomicAnd',
  'atomicOr',
  'atomicXor',
  'atomicExchange',
]);

const TEXTURE_DIMS: Readonly<Record<string, TextureDim>> = {
  texture_1d: '1d',
  texture_2d: '2d',
  texture_2d_array: '2d_array',
  texture_3d: '3d',
};

const SPACES: Readonly<Record<string, AddressSpace>> = {
  function: 'function',
  private: 'private',
  workgroup: 'workgroup',
  uniform: 'uniform',
  storage: 'storage',
};

/** What the checker hands the emitter besides the annotated tree. */
export interface CheckedModule {
  readonly module: WgslModule;
  readonly structs: ReadonlyMap<string, WType>;
  readonly globals: readonly GlobalDecl[];
  readonly functions: readonly FunctionDecl[];
  readonly entry: FunctionDecl;
  readonly workgroupSize: readonly [number, number, number];
  /** Each switch case selector's value, by selector node. */
  readonly constants: ReadonlyMap<Expr, number>;
}

const fail = (construct: string, pos: SourcePos, detail?: string): never => {
  throw new UnsupportedWgsl(construct, pos, detail);
};

/** Whether `e` is built only of abstract literals (its type still open). */
function isAbstract(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
      return e.literal === 'abstract-int' || e.literal === 'abstract-float';
    case 'unary':
      return (e.op === '-' || e.op === '~') && isAbstract(e.arg);
    case 'binary':
      return isAbstract(e.left) && isAbstract(e.right);
    default:
      return false;
  }
}
function hasAbstractFloat(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
      return e.literal === 'abstract-float';
    case 'unary':
      return hasAbstractFloat(e.arg);
    case 'binary':
      return hasAbstractFloat(e.left) || hasAbstractFloat(e.right);
    default:
      return false;
  }
}

export function checkWgsl(module: WgslModule): CheckedModule {
  return new Checker(module).run();
}

class Checker {
  private readonly structDecls = new Map<string, StructDecl>();
  private readonly structs = new Map<string, WType>();
  private readonly globals = new Map<string, GlobalDecl>();
  private readonly functions = new Map<string, FunctionDecl>();
  private readonly constants = new Map<Expr, number>();
  private scopes: Map<string, LocalDecl>[] = [];
  private current: FunctionDecl | undefined;
  private loopDepth = 0;
  private switchDepth = 0;

  constructor(private readonly module: WgslModule) {}

  run(): CheckedModule {
    for (const name of this.module.enables)
      if (!EXTENSIONS.has(name)) fail(`the extension '${name}'`, { line: 1, column: 1 });
    for (const d of this.module.diagnostics)
      if (!SEVERITIES.has(d.severity)) fail(`the diagnostic severity '${d.severity}'`, { line: 1, column: 1 });
    for (const d of this.module.decls) {
      const taken = this.structDecls.has(d.name) || this.globals.has(d.name) || this.functions.has(d.name);
      if (taken) fail(`a second declaration of '${d.name}'`, d.pos);
      if (d.kind === 'struct') this.structDecls.set(d.name, d);
      else if (d.kind === 'global') this.globals.set(d.name, d);
      else this.functions.set(d.name, d);
    }
    for (const s of this.structDecls.values()) this.struct(s.name, s.pos);
    for (const g of this.globals.values()) this.global(g);
    for (const f of this.functions.values()) {
      f.returns = f.returnType === undefined ? VOID : this.type(f.returnType);
      for (const p of f.params) p.type = this.type(p.typeExpr!);
    }
    const entries = [...this.functions.values()].filter((f) => f.compute !== undefined);
    if (entries.length !== 1)
      fail(`${entries.length} compute entry points (the reader takes one)`, entries[1]?.pos ?? { line: 1, column: 1 });
    const entry = entries[0]!;
    for (const f of this.functions.values()) this.fn(f, f === entry);
    const size = entry.compute!.map((e) => this.constantInt(e, 'u32'));
    if (size.length < 1 || size.length > 3 || size.some((v) => v < 1))
      fail('@workgroup_size without one to three positive sizes', entry.pos);
    return {
      module: this.module,
      structs: this.structs,
      globals: [...this.globals.values()],
      functions: [...this.functions.values()],
      entry,
      workgroupSize: [size[0]!, size[1] ?? 1, size[2] ?? 1],
      constants: this.constants,
    };
  }

  private struct(name: string, pos: SourcePos): WType {
    const found = this.structs.get(name);
    if (found) return found;
    const d = this.structDecls.get(name);
    if (!d) return fail(`the type '${name}'`, pos);
    if (d.members.length === 0) fail(`the empty struct ${name}`, d.pos);
    // Members are filled after the struct is registered, so a cycle is caught below, not looped on.
    const members: { name: string; type: WType }[] = [];
    const t: WType = { k: 'struct', name, members };
    this.structs.set(name, t);
    for (const m of d.members) {
      const mt = this.type(m.typeExpr);
      if (mt.k === 'array' && mt.n === undefined && m !== d.members[d.members.length - 1])
        fail('a runtime-sized array before a struct’s last member', m.pos);
      members.push({ name: m.name, type: mt });
    }
    return t;
  }

  type(t: TypeExpr): WType {
    if (t.kind === 'int') return fail('an integer where a type belongs', t.pos);
    const arg = (i: number): TypeExpr => t.args[i] ?? fail(`${t.name} without its template argument ${i + 1}`, t.pos);
    const scalarArg = (i: number): ScalarKind => {
      const a = this.type(arg(i));
      if (a.k !== 'scalar') fail(`${typeName(a)} as ${t.name}'s component`, t.pos);
      return (a as { s: ScalarKind }).s;
    };
    switch (t.name) {
      case 'u32':
      case 'i32':
      case 'f32':
      case 'bool':
        return scalar(t.name);
      case 'f16':
      case 'f64':
        return fail(`the type ${t.name}`, t.pos);
      case 'vec2':
      case 'vec3':
      case 'vec4':
        return vec(Number(t.name[3]) as 2 | 3 | 4, scalarArg(0));
      case 'atomic': {
        const s = scalarArg(0);
        if (s !== 'u32' && s !== 'i32') fail(`atomic<${s}>`, t.pos);
        return { k: 'atomic', s: s as 'u32' | 'i32' };
      }
      case 'array': {
        const elem = this.type(arg(0));
        if (t.args.length === 1) return { k: 'array', elem, n: undefined };
        const len = arg(1);
        const n = len.kind === 'int' ? len.value : this.constantInt({ kind: 'ident', name: len.name, pos: len.pos });
        if (n < 1) fail(`an array of ${n} elements`, t.pos);
        return { k: 'array', elem, n };
      }
      case 'ptr':
        return fail('a pointer type', t.pos, 'pointer parameters are outside the subset');
    }
    const dim = TEXTURE_DIMS[t.name];
    if (dim !== undefined) {
      const s = scalarArg(0);
      if (s === 'bool') fail(`${t.name}<bool>`, t.pos);
      return { k: 'texture', dim, sampled: s as 'f32' | 'u32' | 'i32' };
    }
    if (t.name.startsWith('texture_') || t.name === 'sampler' || t.name === 'sampler_comparison')
      return fail(`the type ${t.name}`, t.pos);
    if (t.args.length) fail(`template arguments on ${t.name}`, t.pos);
    return this.struct(t.name, t.pos);
  }

  private global(g: GlobalDecl): void {
    if (g.type) return;
    if (g.declKind === 'const') {
      if (g.init === undefined) fail(`const ${g.name} without a value`, g.pos);
      const declared = g.typeExpr === undefined ? undefined : this.type(g.typeExpr);
      g.type = this.value(g.init!, declared);
      if (declared && !sameType(declared, g.type)) this.mismatch(declared, g.type, g.pos);
      if (!isConstructible(g.type)) fail(`const ${g.name} of type ${typeName(g.type)}`, g.pos);
      return;
    }
    if (g.typeExpr === undefined) fail(`module var ${g.name} without a type`, g.pos);
    const t = this.type(g.typeExpr!);
    g.type = t;
    if (t.k === 'texture') {
      if (g.space !== undefined) fail(`an address space on the texture ${g.name}`, g.pos);
    } else {
      const space = g.space === undefined ? undefined : SPACES[g.space];
      if (space === undefined || space === 'function') fail(`var<${g.space ?? ''}> at module scope`, g.pos);
      if (g.access !== undefined && !(space === 'storage' && (g.access === 'read' || g.access === 'read_write')))
        fail(`the access mode ${g.access} on var<${g.space}>`, g.pos);
      if (g.init !== undefined && space !== 'private') fail(`an initializer on var<${g.space}>`, g.pos);
      if (g.init !== undefined) {
        const it = this.value(g.init, t);
        if (!sameType(it, t)) this.mismatch(t, it, g.pos);
      }
    }
    const bound = g.space === 'storage' || g.space === 'uniform' || t.k === 'texture';
    if (bound !== (g.group !== undefined && g.binding !== undefined))
      fail(bound ? `${g.name} without @group and @binding` : `@group/@binding on ${g.name}`, g.pos);
  }

  private mismatch(want: WType, got: WType, pos: SourcePos): never {
    return fail(`a ${typeName(got)} where a ${typeName(want)} belongs`, pos);
  }

  /** A constant integer expression's value (literals, module consts, unary minus). */
  constantInt(e: Expr, kind: ScalarKind = 'i32'): number {
    if (e.type === undefined) this.value(e, scalar(kind));
    const v = this.evaluate(e);
    if (v === undefined) return fail('a value that is not a constant integer', e.pos);
    return v;
  }

  private evaluate(e: Expr): number | undefined {
    switch (e.kind) {
      case 'literal':
        return e.literal === 'bool' || e.literal.endsWith('float') || e.literal === 'f32' ? undefined : e.value;
      case 'unary': {
        const v = this.evaluate(e.arg);
        if (v === undefined) return undefined;
        if (e.op === '-') return e.type?.k === 'scalar' && e.type.s === 'u32' ? undefined : -v;
        return undefined;
      }
      case 'ident': {
        const g = this.globals.get(e.name);
        if (e.decl === g && g?.declKind === 'const' && g.init) return this.evaluate(g.init);
        return undefined;
      }
      default:
        return undefined;
    }
  }

  private fn(f: FunctionDecl, entry: boolean): void {
    this.current = f;
    this.scopes = [new Map()];
    for (const p of f.params) {
      if (entry) {
        const want = p.builtin === undefined ? undefined : BUILTIN_INPUTS[p.builtin];
        if (want === undefined)
          fail(
            p.builtin === undefined ? `the entry point parameter ${p.name} without @builtin` : `@builtin(${p.builtin})`,
            p.pos,
          );
        if (!sameType(want!, p.type!)) this.mismatch(want!, p.type!, p.pos);
        if (p.builtin!.startsWith('subgroup_') && !this.module.enables.includes('subgroups'))
          fail(`@builtin(${p.builtin}) without enable subgroups`, p.pos);
      } else {
        if (p.builtin !== undefined) fail(`@builtin on a parameter of ${f.name}, which is not the entry point`, p.pos);
        if (!isConstructible(p.type!)) fail(`a parameter of type ${typeName(p.type!)}`, p.pos);
      }
      this.bind(p);
    }
    if (entry && f.returns!.k !== 'void') fail('a compute entry point that returns a value', f.pos);
    this.statements(f.body);
    this.current = undefined;
  }

  private bind(d: LocalDecl): void {
    const scope = this.scopes[this.scopes.length - 1]!;
    if (scope.has(d.name)) fail(`a second declaration of '${d.name}' in one scope`, d.pos);
    scope.set(d.name, d);
  }

  private lookup(name: string): Decl | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const d = this.scopes[i]!.get(name);
      if (d) return d;
    }
    return this.globals.get(name);
  }

  private statements(body: readonly Stmt[]): void {
    this.scopes.push(new Map());
    for (const s of body) this.statement(s);
    this.scopes.pop();
  }

  private condition(e: Expr): void {
    const t = this.value(e, BOOL);
    if (!isScalar(t, 'bool')) this.mismatch(BOOL, t, e.pos);
  }

  private statement(s: Stmt): void {
    switch (s.kind) {
      case 'decl': {
        const d = s.decl;
        const declared = d.typeExpr === undefined ? undefined : this.type(d.typeExpr);
        if (d.init !== undefined) {
          const t = this.value(d.init, declared);
          if (declared && !sameType(declared, t)) this.mismatch(declared, t, d.pos);
          d.type = declared ?? t;
        } else d.type = declared;
        if (d.type === undefined) fail(`'${d.name}' without a type or a value`, d.pos);
        if (!isConstructible(d.type!)) fail(`a ${d.kind} of type ${typeName(d.type!)}`, d.pos);
        if (d.kind === 'const' && this.evaluate(d.init!) === undefined && !isAbstract(d.init!))
          fail(`the function-scope const ${d.name} of a non-literal value`, d.pos);
        this.bind(d);
        return;
      }
      case 'assign': {
        if (s.target === undefined) {
          this.value(s.value, undefined);
          return;
        }
        const t = this.reference(s.target);
        if (s.op === '=') {
          const v = this.value(s.value, t);
          if (!sameType(t, v)) this.mismatch(t, v, s.pos);
        } else {
          const op = s.op.slice(0, -1) as BinaryOp;
          const v = this.value(s.value, op === '<<' || op === '>>' ? scalarLike(t, 'u32') : t);
          const r = this.binaryType(op, t, v, s.pos);
          if (!sameType(t, r)) this.mismatch(t, r, s.pos);
        }
        return;
      }
      case 'increment': {
        const t = this.reference(s.target);
        if (!isScalar(t) || !isInteger(t)) fail(`${s.op} on a ${typeName(t)}`, s.pos);
        return;
      }
      case 'call': {
        if (s.call.kind !== 'call') fail('an expression that is not a call as a statement', s.pos);
        this.value(s.call, undefined, true);
        return;
      }
      case 'if':
        this.condition(s.cond);
        this.statements(s.then);
        if (s.otherwise) this.statements(s.otherwise);
        return;
      case 'loop':
        this.loopDepth++;
        this.scopes.push(new Map());
        for (const b of s.body) this.statement(b);
        this.loopDepth--;
        // The continuing block sees the body's names (WGSL §9.4.6), but may not break or return.
        this.scopes.push(new Map());
        this.inContinuing(s.continuing);
        this.scopes.pop();
        if (s.breakIf) this.condition(s.breakIf);
        this.scopes.pop();
        return;
      case 'for':
        this.scopes.push(new Map());
        if (s.init) this.statement(s.init);
        if (s.cond) this.condition(s.cond);
        if (s.update) {
          if (s.update.kind === 'decl') fail('a declaration in a for loop’s update', s.update.pos);
          this.statement(s.update);
        }
        this.loopDepth++;
        this.statements(s.body);
        this.loopDepth--;
        this.scopes.pop();
        return;
      case 'while':
        this.condition(s.cond);
        this.loopDepth++;
        this.statements(s.body);
        this.loopDepth--;
        return;
      case 'switch': {
        const t = this.value(s.selector, I32);
        if (!isScalar(t) || !isInteger(t)) fail(`a switch on a ${typeName(t)}`, s.selector.pos);
        let defaults = 0;
        const seen = new Set<number>();
        for (const c of s.clauses) {
          for (const sel of c.selectors) {
            if (sel === 'default') {
              defaults++;
              continue;
            }
            const v = this.constantInt(sel, (t as { s: ScalarKind }).s);
            const word = v >>> 0;
            if (seen.has(word)) fail(`the case ${v} twice`, sel.pos);
            seen.add(word);
            const st = sel.type!;
            if (!sameType(st, t)) this.mismatch(t, st, sel.pos);
            this.constants.set(sel, word);
          }
          this.switchDepth++;
          this.statements(c.body);
          this.switchDepth--;
        }
        if (defaults !== 1) fail(`a switch with ${defaults} default clauses`, s.pos);
        return;
      }
      case 'break':
        if (this.loopDepth === 0 && this.switchDepth === 0) fail("'break' outside a loop or switch", s.pos);
        return;
      case 'continue':
        if (this.loopDepth === 0) fail("'continue' outside a loop", s.pos);
        return;
      case 'return': {
        const want = this.current!.returns!;
        if (s.value === undefined) {
          if (want.k !== 'void') fail(`'return' without a value in ${this.current!.name}`, s.pos);
          return;
        }
        if (want.k === 'void') fail(`'return' with a value in ${this.current!.name}`, s.pos);
        const t = this.value(s.value, want);
        if (!sameType(want, t)) this.mismatch(want, t, s.pos);
        return;
      }
      case 'block':
        this.statements(s.body);
        return;
    }
  }

  private inContinuing(body: readonly Stmt[]): void {
    const walk = (s: Stmt): void => {
      if (s.kind === 'return') fail("'return' in a continuing block", s.pos);
      if (s.kind === 'if') [...s.then, ...(s.otherwise ?? [])].forEach(walk);
      if (s.kind === 'block') s.body.forEach(walk);
    };
    body.forEach(walk);
    const depth = this.loopDepth;
    this.loopDepth = 0;
    const switches = this.switchDepth;
    this.switchDepth = 0;
    try {
      for (const s of body) {
        if (s.kind === 'break' || s.kind === 'continue') fail(`'${s.kind}' in a continuing block`, s.pos);
        this.statement(s);
      }
    } finally {
      this.loopDepth = depth;
      this.switchDepth = switches;
    }
  }

  /** A memory view as the target of an assignment: its stored type. */
  private reference(e: Expr): WType {
    const t = this.expr(e, undefined);
    if (e.ref === undefined) fail('an assignment to a value that is not a reference', e.pos);
    if (e.ref === 'uniform' || e.ref === 'handle') fail(`a write to var<${e.ref}>`, e.pos);
    let root = e;
    while (root.kind === 'member' || root.kind === 'index') root = root.base;
    const g = root.kind === 'ident' ? root.decl : undefined;
    if (g?.kind === 'global' && g.space === 'storage' && g.access !== 'read_write')
      fail(`a write to the read-only storage buffer ${g.name}`, e.pos);
    if (t.k === 'atomic') fail('a plain write to an atomic (atomicStore writes one)', e.pos);
    return t;
  }

  /** An expression read as a value (a reference is loaded): its type, with `expected` deciding abstract literals. */
  value(e: Expr, expected: WType | undefined, statement = false): WType {
    const t = this.expr(e, expected);
    if (t.k === 'void' && !statement) fail('a call that returns nothing, used as a value', e.pos);
    if (e.ref !== undefined && t.k === 'atomic') fail('an atomic read without atomicLoad', e.pos);
    return t;
  }

  private expr(e: Expr, expected: WType | undefined): WType {
    const t = this.exprInner(e, expected);
    e.type = t;
    return t;
  }

  private exprInner(e: Expr, expected: WType | undefined): WType {
    switch (e.kind) {
      case 'literal':
        return this.literal(e, expected);
      case 'ident': {
        const d = this.lookup(e.name);
        if (d === undefined) return fail(`the name '${e.name}'`, e.pos);
        e.decl = d;
        if (d.kind === 'global') {
          this.global(d);
          if (d.declKind === 'var') e.ref = d.type!.k === 'texture' ? undefined : (SPACES[d.space!] as AddressSpace);
          return d.type!;
        }
        if (d.kind === 'var') e.ref = 'function';
        return d.type!;
      }
      case 'member': {
        const base = this.expr(e.base, undefined);
        if (base.k === 'struct') {
          const m = base.members.find((x) => x.name === e.name);
          if (m === undefined) return fail(`the member ${e.name} of ${base.name}`, e.pos);
          e.ref = e.base.ref;
          return m.type;
        }
        if (base.k === 'vec') {
          const idx = swizzle(e.name, base.n, e.pos);
          if (idx.length === 1) {
            e.ref = e.base.ref;
            return scalar(base.s);
          }
          return vec(idx.length as 2 | 3 | 4, base.s);
        }
        return fail(`.${e.name} on a ${typeName(base)}`, e.pos);
      }
      case 'index': {
        const base = this.expr(e.base, undefined);
        const it = this.value(e.index, I32);
        if (!isScalar(it) || !isInteger(it)) fail(`an index of type ${typeName(it)}`, e.index.pos);
        e.ref = e.base.ref;
        if (base.k === 'array') {
          if (e.ref === undefined && base.n === undefined) fail('an index into a runtime array value', e.pos);
          return base.elem;
        }
        if (base.k === 'vec') return scalar(base.s);
        return fail(`an index into a ${typeName(base)}`, e.pos);
      }
      case 'unary': {
        if (e.op === '&') {
          const t = this.expr(e.arg, undefined);
          const space = e.arg.ref;
          if (space === undefined) return fail('& of a value that is not a reference', e.pos);
          return { k: 'ptr', space, to: t };
        }
        if (e.op === '*') return fail('the dereference operator', e.pos, 'pointer values are outside the subset');
        const t = this.value(e.arg, e.op === '!' ? BOOL : expected);
        const s = elementKind(t);
        if (e.op === '!' && !(isScalar(t, 'bool') || (t.k === 'vec' && s === 'bool')))
          fail(`! on a ${typeName(t)}`, e.pos);
        if (e.op === '~' && !isInteger(t)) fail(`~ on a ${typeName(t)}`, e.pos);
        if (e.op === '-' && !(s === 'i32' || s === 'f32')) fail(`unary - on a ${typeName(t)}`, e.pos);
        return t;
      }
      case 'binary':
        return this.binary(e, expected);
      case 'call':
        return this.call(e, expected);
    }
  }

  private literal(e: Extract<Expr, { kind: 'literal' }>, expected: WType | undefined): WType {
    const want = expected === undefined ? undefined : elementKind(expected);
    let kind: ScalarKind;
    switch (e.literal) {
      case 'bool':
        return BOOL;
      case 'u32':
      case 'i32':
      case 'f32':
        kind = e.literal;
        break;
      case 'abstract-int':
        kind = want === 'u32' || want === 'i32' || want === 'f32' ? want : 'i32';
        break;
      case 'abstract-float':
        kind = 'f32';
        break;
    }
    if (kind === 'i32' && e.value > 0x80000000) fail(`the literal ${e.value} as an i32`, e.pos);
    if (kind === 'u32' && e.value > 0xffffffff) fail(`the literal ${e.value} as a u32`, e.pos);
    (e as { literal: string }).literal = kind;
    return scalar(kind);
  }

  /** The two operands of a binary operator, with an abstract one taking the other's type. */
  private operands(l: Expr, r: Expr, expected: WType | undefined, shift: boolean): [WType, WType] {
    if (shift) {
      const lt = this.value(l, expected);
      return [lt, this.value(r, scalarLike(lt, 'u32'))];
    }
    if (isAbstract(l) && isAbstract(r)) {
      const want =
        hasAbstractFloat(l) || hasAbstractFloat(r)
          ? expected && elementKind(expected) === 'f32'
            ? expected
            : F32
          : expected;
      return [this.value(l, want), this.value(r, want)];
    }
    if (isAbstract(l)) {
      const rt = this.value(r, expected);
      return [this.value(l, rt), rt];
    }
    const lt = this.value(l, expected);
    return [lt, this.value(r, lt)];
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, expected: WType | undefined): WType {
    const logical = e.op === '&&' || e.op === '||';
    const compare = ['==', '!=', '<', '<=', '>', '>='].includes(e.op);
    const [lt, rt] = this.operands(
      e.left,
      e.right,
      logical ? BOOL : compare ? undefined : expected,
      e.op === '<<' || e.op === '>>',
    );
    return this.binaryType(e.op, lt, rt, e.pos);
  }

  private binaryType(op: string, lt: WType, rt: WType, pos: SourcePos): WType {
    const ls = elementKind(lt);
    const rs = elementKind(rt);
    if ((lt.k !== 'scalar' && lt.k !== 'vec') || (rt.k !== 'scalar' && rt.k !== 'vec'))
      return fail(`${op} on ${typeName(lt)} and ${typeName(rt)}`, pos);
    if (op === '&&' || op === '||') {
      if (!isScalar(lt, 'bool') || !isScalar(rt, 'bool')) fail(`${op} on ${typeName(lt)} and ${typeName(rt)}`, pos);
      return BOOL;
    }
    if (op === '<<' || op === '>>') {
      if (!isInteger(lt) || rs !== 'u32' || (lt.k === 'vec') !== (rt.k === 'vec'))
        fail(`${op} on ${typeName(lt)} and ${typeName(rt)}`, pos);
      return lt;
    }
    if (ls !== rs) return fail(`${op} on ${typeName(lt)} and ${typeName(rt)}`, pos);
    const vector = lt.k === 'vec' ? lt : rt.k === 'vec' ? rt : undefined;
    if (lt.k === 'vec' && rt.k === 'vec' && lt.n !== rt.n) fail(`${op} on ${typeName(lt)} and ${typeName(rt)}`, pos);
    const compare = ['==', '!=', '<', '<=', '>', '>='].includes(op);
    if (compare) {
      if (!sameType(lt, rt)) fail(`${op} on ${typeName(lt)} and ${typeName(rt)}`, pos);
      if (ls === 'bool' && op !== '==' && op !== '!=') fail(`${op} on bools`, pos);
      return vector === undefined ? BOOL : vec((vector as { n: 2 | 3 | 4 }).n, 'bool');
    }
    if (op === '&' || op === '|' || op === '^') {
      if (ls === 'f32') fail(`${op} on floats`, pos);
      if (ls === 'bool' && op === '^') fail('^ on bools', pos);
      if (!sameType(lt, rt)) fail(`${op} on ${typeName(lt)} and ${typeName(rt)}`, pos);
      return lt;
    }
    if (ls === 'bool') fail(`${op} on bools`, pos);
    // Arithmetic: vector op scalar splats the scalar (WGSL §8.7).
    return vector ?? lt;
  }

  private call(e: Extract<Expr, { kind: 'call' }>, expected: WType | undefined): WType {
    const name = e.callee;
    const args = e.args;
    const arity = (n: number): void => {
      if (args.length !== n) fail(`${name} with ${args.length} arguments (it takes ${n})`, e.pos);
    };
    const user = this.functions.get(name);
    if (user) {
      if (user.compute !== undefined) fail(`a call of the entry point ${name}`, e.pos);
      arity(user.params.length);
      user.params.forEach((p, i) => {
        const t = this.value(args[i]!, p.type);
        if (!sameType(p.type!, t)) this.mismatch(p.type!, t, args[i]!.pos);
      });
      e.fn = user;
      return user.returns!;
    }
    // Constructors and conversions.
    const ctor = this.constructorType(e, expected);
    if (ctor !== undefined) return ctor;
    if (name === 'getResource' || name === 'hasResource') return this.resource(e);
    if (e.template !== undefined && name !== 'bitcast') fail(`template arguments on ${name}`, e.pos);
    const same = SAME_TYPE_BUILTINS[name];
    if (same !== undefined) {
      arity(same.args);
      const t = this.unify(args, expected);
      const s = elementKind(t);
      if ((t.k !== 'scalar' && t.k !== 'vec') || !same.kinds.includes(s!)) fail(`${name} on a ${typeName(t)}`, e.pos);
      return t;
    }
    switch (name) {
      case 'bitcast': {
        arity(1);
        const to = this.type(e.template?.[0] ?? fail('bitcast without its type', e.pos));
        const from = this.value(args[0]!, undefined);
        const size = (t: WType): number | undefined =>
          t.k === 'scalar' && t.s !== 'bool' ? 1 : t.k === 'vec' && t.s !== 'bool' ? t.n : undefined;
        if (size(to) === undefined || size(to) !== size(from))
          fail(`bitcast<${typeName(to)}> of a ${typeName(from)}`, e.pos);
        e.constructs = to;
        return to;
      }
      case 'select': {
        arity(3);
        const t = this.unify(args.slice(0, 2), expected);
        this.condition(args[2]!);
        if (!isConstructible(t)) fail(`select of ${typeName(t)}`, e.pos);
        return t;
      }
      case 'length': {
        arity(1);
        const t = this.value(args[0]!, F32);
        if (elementKind(t) !== 'f32' || (t.k !== 'vec' && t.k !== 'scalar')) fail(`length of a ${typeName(t)}`, e.pos);
        return F32;
      }
      case 'dot': {
        arity(2);
        const t = this.unify(args, undefined);
        if (t.k !== 'vec' || t.s === 'bool') fail(`dot of ${typeName(t)}`, e.pos);
        return scalar((t as { s: ScalarKind }).s);
      }
      case 'ldexp': {
        arity(2);
        const t = this.value(args[0]!, F32);
        const x = this.value(args[1]!, scalarLike(t, 'i32'));
        if (elementKind(t) !== 'f32' || !sameType(x, scalarLike(t, 'i32')))
          fail(`ldexp of ${typeName(t)}, ${typeName(x)}`, e.pos);
        return t;
      }
      case 'extractBits': {
        arity(3);
        const t = this.value(args[0]!, expected);
        if (!isInteger(t)) fail(`extractBits of a ${typeName(t)}`, e.pos);
        this.u32Args(args.slice(1), name);
        return t;
      }
      case 'insertBits': {
        arity(4);
        const t = this.unify(args.slice(0, 2), expected);
        if (!isInteger(t)) fail(`insertBits of a ${typeName(t)}`, e.pos);
        this.u32Args(args.slice(2), name);
        return t;
      }
      case 'workgroupBarrier':
      case 'storageBarrier':
        arity(0);
        return VOID;
      case 'subgroupBallot': {
        // WGSL §17.14: the active invocations whose predicate is true, a bit each, as vec4<u32>.
        this.subgroups(e);
        arity(1);
        this.operand(args[0]!, BOOL, name);
        return vec(4, 'u32');
      }
      case 'subgroupShuffle': {
        // WGSL §17.14: e of the invocation id names, for a concrete numeric scalar or vector e.
        this.subgroups(e);
        arity(2);
        const t = this.value(args[0]!, expected);
        const s = elementKind(t);
        if ((t.k !== 'scalar' && t.k !== 'vec') || s === 'bool') fail(`subgroupShuffle of a ${typeName(t)}`, e.pos);
        this.integerArg(args[1]!, name);
        return t;
      }
      case 'workgroupUniformLoad': {
        arity(1);
        const p = this.pointer(args[0]!, name, ['workgroup']);
        return p.k === 'atomic' ? scalar(p.s) : p;
      }
      case 'arrayLength': {
        arity(1);
        const p = this.pointer(args[0]!, name, ['storage']);
        if (p.k !== 'array' || p.n !== undefined) fail(`arrayLength of a ${typeName(p)}`, e.pos);
        return U32;
      }
      case 'atomicLoad': {
        arity(1);
        return scalar(this.atomic(args[0]!, name).s);
      }
      case 'atomicStore': {
        arity(2);
        const a = this.atomic(args[0]!, name);
        this.operand(args[1]!, scalar(a.s));
        return VOID;
      }
      case 'atomicCompareExchangeWeak': {
        arity(3);
        const a = this.atomic(args[0]!, name);
        this.operand(args[1]!, scalar(a.s));
        this.operand(args[2]!, scalar(a.s));
        return compareExchangeResult(a.s);
      }
      case 'textureLoad':
        return this.textureLoad(e);
      case 'textureDimensions': {
        if (args.length < 1 || args.length > 2) arity(2);
        const t = this.texture(args[0]!, name);
        if (args[1]) this.integerArg(args[1], name);
        return t.dim === '1d' ? U32 : t.dim === '3d' ? vec(3, 'u32') : vec(2, 'u32');
      }
      case 'textureNumLevels':
      case 'textureNumLayers': {
        arity(1);
        const t = this.texture(args[0]!, name);
        if (name === 'textureNumLayers' && t.dim !== '2d_array') fail(`textureNumLayers of a ${typeName(t)}`, e.pos);
        return U32;
      }
    }
    if (ATOMIC_RMW.has(name)) {
      arity(2);
      const a = this.atomic(args[0]!, name);
      this.operand(args[1]!, scalar(a.s));
      return scalar(a.s);
    }
    return fail(`the function ${name}`, e.pos);
  }

  /** `getResource<T>(i)` / `hasResource<T>(i)` of `enable chromium_experimental_resource_table`. */
  private resource(e: Extract<Expr, { kind: 'call' }>): WType {
    if (!this.module.enables.includes('chromium_experimental_resource_table'))
      fail(`${e.callee} without enable chromium_experimental_resource_table`, e.pos);
    if (e.template?.length !== 1 || e.args.length !== 1) fail(`${e.callee} without one type and one index`, e.pos);
    const t = this.type(e.template![0]!);
    if (t.k !== 'texture') fail(`${e.callee}<${typeName(t)}> (the reader takes sampled textures)`, e.pos);
    this.integerArg(e.args[0]!, e.callee);
    e.constructs = t;
    return e.callee === 'hasResource' ? BOOL : t;
  }

  private subgroups(e: Extract<Expr, { kind: 'call' }>): void {
    if (!this.module.enables.includes('subgroups')) fail(`${e.callee} without enable subgroups`, e.pos);
  }

  private u32Args(args: readonly Expr[], name: string): void {
    for (const a of args) this.operand(a, U32, name);
  }

  private operand(a: Expr, want: WType, name?: string): void {
    const t = this.value(a, want);
    if (!sameType(t, want))
      fail(`${name ?? 'an argument'} given a ${typeName(t)} where a ${typeName(want)} belongs`, a.pos);
  }

  private integerArg(a: Expr, name: string): void {
    const t = this.value(a, I32);
    if (!isScalar(t) || !isInteger(t)) fail(`${name} given a ${typeName(t)} where an integer belongs`, a.pos);
  }

  private textureLoad(e: Extract<Expr, { kind: 'call' }>): WType {
    const t = this.texture(e.args[0]!, 'textureLoad');
    const coords = t.dim === '1d' ? 1 : t.dim === '3d' ? 3 : 2;
    const want = 2 + (t.dim === '2d_array' ? 2 : 1);
    if (e.args.length !== want) fail(`textureLoad on a ${typeName(t)} with ${e.args.length} arguments`, e.pos);
    const ct = this.value(e.args[1]!, coords === 1 ? I32 : vec(coords as 2 | 3, 'i32'));
    const ok = coords === 1 ? isScalar(ct) && isInteger(ct) : ct.k === 'vec' && ct.n === coords && isInteger(ct);
    if (!ok) fail(`textureLoad coordinates of type ${typeName(ct)}`, e.args[1]!.pos);
    for (const a of e.args.slice(2)) this.integerArg(a, 'textureLoad');
    return vec(4, t.sampled);
  }

  private texture(a: Expr, name: string): Extract<WType, { k: 'texture' }> {
    const t = this.value(a, undefined);
    if (t.k !== 'texture') return fail(`${name} of a ${typeName(t)}`, a.pos);
    if (a.kind !== 'ident' && !(a.kind === 'call' && a.callee === 'getResource'))
      fail(`${name} of a texture that is not a module variable or getResource`, a.pos);
    return t;
  }

  /** `&x` as a builtin's pointer argument: the stored type, in one of `spaces`. */
  private pointer(a: Expr, name: string, spaces: readonly AddressSpace[]): WType {
    if (a.kind !== 'unary' || a.op !== '&') return fail(`${name} of an argument that is not &reference`, a.pos);
    const p = this.expr(a, undefined);
    if (p.k !== 'ptr' || !spaces.includes(p.space)) fail(`${name} of a ${typeName(p)}`, a.pos);
    return (p as { to: WType }).to;
  }

  private atomic(a: Expr, name: string): Extract<WType, { k: 'atomic' }> {
    const t = this.pointer(a, name, ['workgroup', 'storage']);
    if (t.k !== 'atomic') return fail(`${name} of a non-atomic ${typeName(t)}`, a.pos);
    return t;
  }

  /** Arguments that share one type (abstract ones take the first concrete one's). */
  private unify(args: readonly Expr[], expected: WType | undefined): WType {
    const concrete = args.find((a) => !isAbstract(a));
    let want: WType | undefined = expected;
    if (concrete) want = this.value(concrete, expected);
    else if (args.some(hasAbstractFloat)) want = expected && elementKind(expected) === 'f32' ? expected : F32;
    const types = args.map((a) => (a === concrete ? want! : this.value(a, want)));
    const first = types[0]!;
    types.forEach((t, i) => {
      if (!sameType(t, first)) this.mismatch(first, t, args[i]!.pos);
    });
    return first;
  }

  /** A constructor or conversion call's type (`vec4<u32>(...)`, `f32(x)`, `array<T, N>(...)`, `S(...)`), else undefined. */
  private constructorType(e: Extract<Expr, { kind: 'call' }>, expected: WType | undefined): WType | undefined {
    const name = e.callee;
    const args = e.args;
    let t: WType;
    if (name === 'u32' || name === 'i32' || name === 'f32' || name === 'bool') {
      if (e.template !== undefined) fail(`template arguments on ${name}`, e.pos);
      t = scalar(name);
      if (args.length > 1) fail(`${name} of ${args.length} values`, e.pos);
      if (args.length === 1) {
        const a = this.value(args[0]!, t);
        if (a.k !== 'scalar') fail(`${name} of a ${typeName(a)}`, e.pos);
      }
    } else if (name === 'vec2' || name === 'vec3' || name === 'vec4') {
      const n = Number(name[3]) as 2 | 3 | 4;
      let s: ScalarKind | undefined = e.template
        ? (this.type({ kind: 'name', name, args: e.template, pos: e.pos }) as { s: ScalarKind }).s
        : undefined;
      const want = s ?? (expected ? elementKind(expected) : undefined);
      const parts = args.map((a) => this.value(a, want === undefined ? undefined : scalar(want)));
      let count = 0;
      for (const [i, p] of parts.entries()) {
        if (p.k !== 'scalar' && p.k !== 'vec') fail(`${name} of a ${typeName(p)}`, args[i]!.pos);
        s ??= elementKind(p);
        count += p.k === 'vec' ? p.n : 1;
      }
      if (s === undefined) fail(`${name}() without its component type`, e.pos);
      t = vec(n, s!);
      const conversion = parts.length === 1 && parts[0]!.k === 'vec';
      if (conversion) {
        if ((parts[0] as { n: number }).n !== n) fail(`${name} of a ${typeName(parts[0]!)}`, e.pos);
      } else {
        if (!(count === 0 || count === n || (parts.length === 1 && count === 1)))
          fail(`${name} of ${count} components`, e.pos);
        parts.forEach((p, i) => {
          if (elementKind(p) !== s) fail(`a ${typeName(p)} in a ${typeName(t)}`, args[i]!.pos);
        });
      }
    } else if (name === 'array') {
      if (e.template === undefined) fail('array(...) without its element type', e.pos);
      t = this.type({ kind: 'name', name, args: e.template!, pos: e.pos });
      const at = t as Extract<WType, { k: 'array' }>;
      if (at.n === undefined) fail('a runtime-sized array constructed', e.pos);
      if (args.length !== 0 && args.length !== at.n) fail(`array<_, ${at.n}> of ${args.length} values`, e.pos);
      for (const a of args) this.operand(a, at.elem);
    } else if (this.structDecls.has(name)) {
      if (e.template !== undefined) fail(`template arguments on ${name}`, e.pos);
      t = this.struct(name, e.pos);
      const st = t as Extract<WType, { k: 'struct' }>;
      if (args.length !== 0 && args.length !== st.members.length) fail(`${name} of ${args.length} values`, e.pos);
      args.forEach((a, i) => this.operand(a, st.members[i]!.type));
    } else return undefined;
    if (!isConstructible(t)) fail(`a constructor of ${typeName(t)}`, e.pos);
    e.constructs = t;
    return t;
  }
}

/** The scalar type `s`, or vecN<s> when `like` is a vecN. */
function scalarLike(like: WType, s: ScalarKind): WType {
  return like.k === 'vec' ? vec(like.n, s) : scalar(s);
}

/** A swizzle's component indices (`xyzw` or `rgba`, one set at a time). */
export function swizzle(name: string, n: number, pos: SourcePos): number[] {
  const sets = ['xyzw', 'rgba'];
  const set = sets.find((s) => [...name].every((c) => s.includes(c)));
  if (set === undefined || name.length > 4) return fail(`the swizzle .${name}`, pos);
  const idx = [...name].map((c) => set.indexOf(c));
  if (idx.some((i) => i >= n)) fail(`the swizzle .${name} on a ${n}-component vector`, pos);
  return idx;
}
