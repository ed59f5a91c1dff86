/**
 * The tree the parser builds from WGSL text (D016) and the checker annotates in place: each
 * expression gets its type (`type`), whether it is a reference to memory (`ref`, WGSL §6.4.3
 * "Memory views"), and for names the declaration it resolves to (`decl`). The node kinds
 * are the WGSL subset the translator writes; anything else never reaches a tree (the parser
 * names it).
 */
import type { SourcePos } from './errors.ts';
import type { WType, AddressSpace } from './types.ts';

/** A type as written: a name with template arguments (`array<vec4<u32>, 4>`), or an integer argument. */
export type TypeExpr =
  | { readonly kind: 'name'; readonly name: string; readonly args: readonly TypeExpr[]; readonly pos: SourcePos }
  | { readonly kind: 'int'; readonly value: number; readonly pos: SourcePos };

export type LiteralKind = 'abstract-int' | 'abstract-float' | 'i32' | 'u32' | 'f32' | 'bool';

export type UnaryOp = '-' | '!' | '~' | '&' | '*';
export type BinaryOp =
  '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^' | '<<' | '>>' | '&&' | '||' | '==' | '!=' | '<' | '<=' | '>' | '>=';

/** What the checker learns of every expression. */
interface Checked {
  /** The value's type (for a reference: the type stored in memory). */
  type?: WType;
  /** Set when the expression is a memory view (a `var`, or a member/index of one): its address space. */
  ref?: AddressSpace;
}

export type Expr = (
  | { readonly kind: 'literal'; readonly literal: LiteralKind; readonly value: number; readonly pos: SourcePos }
  | { readonly kind: 'ident'; readonly name: string; readonly pos: SourcePos; decl?: Decl }
  | {
      readonly kind: 'call';
      /** A builtin, a user function, or a type (a constructor or conversion). */
      readonly callee: string;
      readonly template: readonly TypeExpr[] | undefined;
      readonly args: readonly Expr[];
      readonly pos: SourcePos;
      /** The user function called, when it is one. */
      fn?: FunctionDecl;
      /** The constructed type, when the call is a constructor or conversion. */
      constructs?: WType;
    }
  | { readonly kind: 'member'; readonly base: Expr; readonly name: string; readonly pos: SourcePos }
  | { readonly kind: 'index'; readonly base: Expr; readonly index: Expr; readonly pos: SourcePos }
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly arg: Expr; readonly pos: SourcePos }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly left: Expr;
      readonly right: Expr;
      readonly pos: SourcePos;
    }
) &
  Checked;

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=';

/** A local declaration (`let`, `var`, `const`) or a function parameter. */
export interface LocalDecl {
  readonly kind: 'let' | 'var' | 'const' | 'param';
  readonly name: string;
  readonly typeExpr: TypeExpr | undefined;
  readonly init: Expr | undefined;
  readonly pos: SourcePos;
  /** The checker's type of the binding. */
  type?: WType;
}

export type Stmt =
  | { readonly kind: 'decl'; readonly decl: LocalDecl; readonly pos: SourcePos }
  | {
      readonly kind: 'assign';
      readonly op: AssignOp;
      /** undefined for the phony assignment `_ = e`. */
      readonly target: Expr | undefined;
      readonly value: Expr;
      readonly pos: SourcePos;
    }
  | { readonly kind: 'increment'; readonly op: '++' | '--'; readonly target: Expr; readonly pos: SourcePos }
  | { readonly kind: 'call'; readonly call: Expr; readonly pos: SourcePos }
  | {
      readonly kind: 'if';
      readonly cond: Expr;
      readonly then: readonly Stmt[];
      readonly otherwise: readonly Stmt[] | undefined;
      readonly pos: SourcePos;
    }
  | {
      readonly kind: 'loop';
      readonly body: readonly Stmt[];
      readonly continuing: readonly Stmt[];
      readonly breakIf: Expr | undefined;
      readonly pos: SourcePos;
    }
  | {
      readonly kind: 'for';
      readonly init: Stmt | undefined;
      readonly cond: Expr | undefined;
      readonly update: Stmt | undefined;
      readonly body: readonly Stmt[];
      readonly pos: SourcePos;
    }
  | { readonly kind: 'while'; readonly cond: Expr; readonly body: readonly Stmt[]; readonly pos: SourcePos }
  | {
      readonly kind: 'switch';
      readonly selector: Expr;
      readonly clauses: readonly SwitchClause[];
      readonly pos: SourcePos;
    }
  | { readonly kind: 'break' | 'continue'; readonly pos: SourcePos }
  | { readonly kind: 'return'; readonly value: Expr | undefined; readonly pos: SourcePos }
  | { readonly kind: 'block'; readonly body: readonly Stmt[]; readonly pos: SourcePos };

export interface SwitchClause {
  /** The case selectors; `default` stands for the default clause's place among them. */
  readonly selectors: readonly (Expr | 'default')[];
  readonly body: readonly Stmt[];
  readonly pos: SourcePos;
}

export interface StructDecl {
  readonly kind: 'struct';
  readonly name: string;
  readonly members: readonly { readonly name: string; readonly typeExpr: TypeExpr; readonly pos: SourcePos }[];
  readonly pos: SourcePos;
}

export interface GlobalDecl {
  readonly kind: 'global';
  readonly declKind: 'var' | 'const';
  readonly name: string;
  /** `var<storage, read_write>`: the address space and access mode as written. */
  readonly space: string | undefined;
  readonly access: string | undefined;
  readonly typeExpr: TypeExpr | undefined;
  readonly init: Expr | undefined;
  readonly group: number | undefined;
  readonly binding: number | undefined;
  readonly pos: SourcePos;
  type?: WType;
}

export interface ParamDecl extends LocalDecl {
  readonly kind: 'param';
  /** `@builtin(name)` on an entry point's parameter. */
  readonly builtin: string | undefined;
}

export interface FunctionDecl {
  readonly kind: 'fn';
  readonly name: string;
  readonly params: readonly ParamDecl[];
  readonly returnType: TypeExpr | undefined;
  /** `@compute @workgroup_size(x, y, z)`: the sizes as written. */
  readonly compute: readonly Expr[] | undefined;
  readonly body: readonly Stmt[];
  readonly pos: SourcePos;
  returns?: WType;
}

export type ModuleDecl = StructDecl | GlobalDecl | FunctionDecl;

/** What a name resolves to. */
export type Decl = LocalDecl | GlobalDecl;

export interface WgslModule {
  /** `enable` directives' extension names. */
  readonly enables: readonly string[];
  /**
   * Global `diagnostic(severity, rule)` directives. The reader runs no uniformity analysis, so
   * they change nothing it emits; they are kept so a module says what it filtered.
   */
  readonly diagnostics: readonly { readonly severity: string; readonly rule: string }[];
  readonly decls: readonly ModuleDecl[];
}
