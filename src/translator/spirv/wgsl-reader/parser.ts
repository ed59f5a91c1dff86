/**
 * Tokens to the tree (`ast.ts`) by recursive descent over WGSL's grammar (WGSL §16), the
 * subset the translator writes: directives `enable`, structs, module `var`/`const`, functions
 * with `@compute @workgroup_size` and `@builtin` parameters, and the statements and
 * expressions listed in `ast.ts`. Operator precedence follows WGSL §8.19: unary, then
 * multiplicative, additive, shift, relational, then bitwise or short-circuit (WGSL forbids
 * mixing those without parentheses; this parser reads them left-associative at one level each).
 * Anything else is an `UnsupportedWgsl` naming it.
 */
import type {
  AssignOp,
  BinaryOp,
  Expr,
  FunctionDecl,
  GlobalDecl,
  LiteralKind,
  LocalDecl,
  ModuleDecl,
  ParamDecl,
  Stmt,
  StructDecl,
  SwitchClause,
  TypeExpr,
  UnaryOp,
  WgslModule,
} from './ast.ts';
import { UnsupportedWgsl, type SourcePos } from './errors.ts';
import { lex, type Token } from './lexer.ts';

/** Names after which `<` opens a template list in an expression (types and templated builtins). */
const TEMPLATED = new Set([
  'vec2',
  'vec3',
  'vec4',
  'array',
  'bitcast',
  'atomic',
  'ptr',
  'getResource',
  'hasResource',
  'texture_1d',
  'texture_2d',
  'texture_2d_array',
  'texture_3d',
]);

const ASSIGN_OPS: ReadonlySet<string> = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

/** Binary operators by precedence level, loosest first. */
const LEVELS: readonly (readonly BinaryOp[])[] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!=', '<', '<=', '>', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

const RESERVED_STATEMENTS = new Set(['discard', 'fallthrough', 'const_assert', 'diagnostic']);

export function parseWgsl(source: string): WgslModule {
  return new Parser(lex(source)).module();
}

class Parser {
  private at = 0;
  constructor(private tokens: Token[]) {}

  private get tok(): Token {
    return this.tokens[this.at]!;
  }
  private peek(k = 1): Token {
    return this.tokens[Math.min(this.at + k, this.tokens.length - 1)]!;
  }
  private next(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.at++;
    return t;
  }
  private is(text: string): boolean {
    return (this.tok.kind === 'punct' || this.tok.kind === 'ident') && this.tok.text === text;
  }
  private eat(text: string): boolean {
    if (!this.is(text)) return false;
    this.next();
    return true;
  }
  private expect(text: string): Token {
    if (!this.is(text))
      throw new UnsupportedWgsl(`'${this.tok.text || 'end of input'}' where '${text}' belongs`, this.tok.pos);
    return this.next();
  }
  private ident(): Token {
    if (this.tok.kind !== 'ident')
      throw new UnsupportedWgsl(`'${this.tok.text || 'end of input'}' where a name belongs`, this.tok.pos);
    return this.next();
  }
  /** Closes a template list: a `>` that may be the first half of `>>`, `>=` or `>>=`. */
  private closeTemplate(): void {
    const t = this.tok;
    if (t.kind === 'punct' && t.text.startsWith('>') && t.text.length > 1) {
      const rest = t.text.slice(1);
      this.tokens.splice(
        this.at,
        1,
        { kind: 'punct', text: '>', pos: t.pos },
        {
          kind: 'punct',
          text: rest,
          pos: { line: t.pos.line, column: t.pos.column + 1 },
        },
      );
    }
    this.expect('>');
  }

  module(): WgslModule {
    const enables: string[] = [];
    const diagnostics: { severity: string; rule: string }[] = [];
    const decls: ModuleDecl[] = [];
    while (this.is('enable') || this.is('requires') || this.is('diagnostic')) {
      const kw = this.next();
      if (kw.text === 'requires') throw new UnsupportedWgsl('a requires directive', kw.pos);
      if (kw.text === 'diagnostic') {
        // diagnostic(severity, rule); a rule may be a two-part name (WGSL §2.3).
        this.expect('(');
        const severity = this.ident().text;
        this.expect(',');
        let rule = this.ident().text;
        if (this.eat('.')) rule = `${rule}.${this.ident().text}`;
        this.eat(',');
        this.expect(')');
        this.expect(';');
        diagnostics.push({ severity, rule });
        continue;
      }
      do enables.push(this.ident().text);
      while (this.eat(','));
      this.expect(';');
    }
    while (this.tok.kind !== 'eof') {
      if (this.eat(';')) continue;
      decls.push(this.moduleDecl());
    }
    return { enables, diagnostics, decls };
  }

  private attributes(): { name: string; args: Expr[]; pos: SourcePos }[] {
    const out: { name: string; args: Expr[]; pos: SourcePos }[] = [];
    while (this.is('@')) {
      const pos = this.next().pos;
      const name = this.ident().text;
      const args: Expr[] = [];
      if (this.eat('(')) {
        while (!this.is(')')) {
          args.push(this.expression());
          if (!this.eat(',')) break;
        }
        this.expect(')');
      }
      out.push({ name, args, pos });
    }
    return out;
  }

  private moduleDecl(): ModuleDecl {
    const attrs = this.attributes();
    const t = this.tok;
    if (this.eat('struct')) {
      if (attrs.length) throw new UnsupportedWgsl(`@${attrs[0]!.name} on a struct`, attrs[0]!.pos);
      return this.struct(t.pos);
    }
    if (this.eat('fn')) return this.fn(t.pos, attrs);
    if (this.is('var') || this.is('const')) return this.global(attrs);
    throw new UnsupportedWgsl(`the module-scope declaration '${t.text}'`, t.pos);
  }

  private struct(pos: SourcePos): StructDecl {
    const name = this.ident().text;
    this.expect('{');
    const members: { name: string; typeExpr: TypeExpr; pos: SourcePos }[] = [];
    while (!this.is('}')) {
      const attrs = this.attributes();
      if (attrs.length) throw new UnsupportedWgsl(`@${attrs[0]!.name} on a struct member`, attrs[0]!.pos);
      const m = this.ident();
      this.expect(':');
      members.push({ name: m.text, typeExpr: this.type(), pos: m.pos });
      if (!this.eat(',')) break;
    }
    this.expect('}');
    return { kind: 'struct', name, members, pos };
  }

  private attributeInt(a: { name: string; args: Expr[]; pos: SourcePos }): number {
    const e = a.args[0];
    if (a.args.length !== 1 || e?.kind !== 'literal')
      throw new UnsupportedWgsl(`@${a.name} without one integer literal`, a.pos);
    return e.value;
  }

  private global(attrs: { name: string; args: Expr[]; pos: SourcePos }[]): GlobalDecl {
    const kw = this.next();
    let group: number | undefined;
    let binding: number | undefined;
    for (const a of attrs) {
      if (a.name === 'group') group = this.attributeInt(a);
      else if (a.name === 'binding') binding = this.attributeInt(a);
      else throw new UnsupportedWgsl(`@${a.name} on a module-scope ${kw.text}`, a.pos);
    }
    let space: string | undefined;
    let access: string | undefined;
    if (kw.text === 'var' && this.eat('<')) {
      space = this.ident().text;
      if (this.eat(',')) access = this.ident().text;
      this.closeTemplate();
    }
    const name = this.ident();
    const typeExpr = this.eat(':') ? this.type() : undefined;
    const init = this.eat('=') ? this.expression() : undefined;
    this.expect(';');
    return {
      kind: 'global',
      declKind: kw.text as 'var' | 'const',
      name: name.text,
      space,
      access,
      typeExpr,
      init,
      group,
      binding,
      pos: name.pos,
    };
  }

  private fn(pos: SourcePos, attrs: { name: string; args: Expr[]; pos: SourcePos }[]): FunctionDecl {
    let compute = false;
    let size: Expr[] | undefined;
    for (const a of attrs) {
      if (a.name === 'compute') compute = true;
      else if (a.name === 'workgroup_size') size = a.args;
      else throw new UnsupportedWgsl(`@${a.name} on a function`, a.pos);
    }
    if (compute && size === undefined) throw new UnsupportedWgsl('@compute without @workgroup_size', pos);
    if (!compute && size !== undefined) throw new UnsupportedWgsl('@workgroup_size without @compute', pos);
    const name = this.ident().text;
    this.expect('(');
    const params: ParamDecl[] = [];
    while (!this.is(')')) {
      const pattrs = this.attributes();
      let builtin: string | undefined;
      for (const a of pattrs) {
        if (a.name !== 'builtin' || a.args.length !== 1 || a.args[0]!.kind !== 'ident')
          throw new UnsupportedWgsl(`@${a.name} on a parameter`, a.pos);
        builtin = (a.args[0] as Extract<Expr, { kind: 'ident' }>).name;
      }
      const p = this.ident();
      this.expect(':');
      params.push({ kind: 'param', name: p.text, typeExpr: this.type(), init: undefined, pos: p.pos, builtin });
      if (!this.eat(',')) break;
    }
    this.expect(')');
    let returnType: TypeExpr | undefined;
    if (this.eat('->')) {
      const ra = this.attributes();
      if (ra.length) throw new UnsupportedWgsl(`@${ra[0]!.name} on a return type`, ra[0]!.pos);
      returnType = this.type();
    }
    const body = this.block();
    return { kind: 'fn', name, params, returnType, compute: compute ? size : undefined, body, pos };
  }

  type(): TypeExpr {
    const t = this.tok;
    if (t.kind === 'int') {
      this.next();
      return { kind: 'int', value: intValue(t), pos: t.pos };
    }
    const name = this.ident();
    const args: TypeExpr[] = [];
    if (this.eat('<')) {
      while (!this.is('>') && !this.tok.text.startsWith('>')) {
        args.push(this.type());
        if (!this.eat(',')) break;
      }
      this.closeTemplate();
    }
    return { kind: 'name', name: name.text, args, pos: name.pos };
  }

  private block(): Stmt[] {
    this.expect('{');
    const out: Stmt[] = [];
    while (!this.is('}')) {
      if (this.tok.kind === 'eof') throw new UnsupportedWgsl('a block without its closing brace', this.tok.pos);
      if (this.eat(';')) continue;
      out.push(this.statement());
    }
    this.expect('}');
    return out;
  }

  private statement(): Stmt {
    const t = this.tok;
    if (t.kind === 'punct' && t.text === '@') throw new UnsupportedWgsl('an attribute on a statement', t.pos);
    if (t.kind === 'punct' && t.text === '{') return { kind: 'block', body: this.block(), pos: t.pos };
    if (t.kind === 'ident') {
      if (RESERVED_STATEMENTS.has(t.text)) throw new UnsupportedWgsl(`the statement '${t.text}'`, t.pos);
      switch (t.text) {
        case 'let':
        case 'var':
        case 'const': {
          const s = this.declaration();
          this.expect(';');
          return s;
        }
        case 'if':
          return this.ifStatement();
        case 'loop':
          return this.loopStatement();
        case 'for':
          return this.forStatement();
        case 'while': {
          this.next();
          const cond = this.expression();
          return { kind: 'while', cond, body: this.block(), pos: t.pos };
        }
        case 'switch':
          return this.switchStatement();
        case 'break':
        case 'continue':
          this.next();
          if (t.text === 'break' && this.is('if'))
            throw new UnsupportedWgsl("'break if' outside a continuing block's end", this.tok.pos);
          this.expect(';');
          return { kind: t.text, pos: t.pos };
        case 'return': {
          this.next();
          const value = this.is(';') ? undefined : this.expression();
          this.expect(';');
          return { kind: 'return', value, pos: t.pos };
        }
      }
    }
    const s = this.simpleStatement();
    this.expect(';');
    return s;
  }

  private declaration(): Stmt {
    const kw = this.next();
    if (kw.text === 'var' && this.is('<'))
      throw new UnsupportedWgsl('an address space on a function-scope var', kw.pos);
    const name = this.ident();
    const typeExpr = this.eat(':') ? this.type() : undefined;
    const init = this.eat('=') ? this.expression() : undefined;
    if (kw.text !== 'var' && init === undefined) throw new UnsupportedWgsl(`'${kw.text}' without a value`, kw.pos);
    const decl: LocalDecl = {
      kind: kw.text as 'let' | 'var' | 'const',
      name: name.text,
      typeExpr,
      init,
      pos: name.pos,
    };
    return { kind: 'decl', decl, pos: kw.pos };
  }

  /** An assignment, increment, call or declaration (what `for`'s header holds too). */
  private simpleStatement(): Stmt {
    const t = this.tok;
    if (t.kind === 'ident' && (t.text === 'let' || t.text === 'var' || t.text === 'const')) return this.declaration();
    if (t.kind === 'ident' && t.text === '_') {
      this.next();
      this.expect('=');
      return { kind: 'assign', op: '=', target: undefined, value: this.expression(), pos: t.pos };
    }
    const target = this.unary();
    const op = this.tok;
    if (op.kind === 'punct' && (op.text === '++' || op.text === '--')) {
      this.next();
      return { kind: 'increment', op: op.text, target, pos: t.pos };
    }
    if (op.kind === 'punct' && ASSIGN_OPS.has(op.text)) {
      this.next();
      return { kind: 'assign', op: op.text as AssignOp, target, value: this.expression(), pos: t.pos };
    }
    if (target.kind === 'call') return { kind: 'call', call: target, pos: t.pos };
    throw new UnsupportedWgsl(`'${op.text}' after an expression statement`, op.pos);
  }

  private ifStatement(): Stmt {
    const t = this.expect('if');
    const cond = this.expression();
    const then = this.block();
    let otherwise: Stmt[] | undefined;
    if (this.eat('else')) otherwise = this.is('if') ? [this.ifStatement()] : this.block();
    return { kind: 'if', cond, then, otherwise, pos: t.pos };
  }

  private loopStatement(): Stmt {
    const t = this.expect('loop');
    this.expect('{');
    const body: Stmt[] = [];
    let continuing: Stmt[] = [];
    let breakIf: Expr | undefined;
    while (!this.is('}')) {
      if (this.tok.kind === 'eof') throw new UnsupportedWgsl('a loop without its closing brace', t.pos);
      if (this.eat(';')) continue;
      if (this.is('continuing')) {
        this.next();
        this.expect('{');
        while (!this.is('}')) {
          if (this.eat(';')) continue;
          if (this.is('break') && this.peek().text === 'if') {
            this.next();
            this.next();
            breakIf = this.expression();
            this.expect(';');
            if (!this.is('}')) throw new UnsupportedWgsl("a statement after 'break if'", this.tok.pos);
            break;
          }
          continuing.push(this.statement());
        }
        this.expect('}');
        if (!this.is('}')) throw new UnsupportedWgsl("a statement after a loop's continuing block", this.tok.pos);
        continuing = [...continuing];
        break;
      }
      body.push(this.statement());
    }
    this.expect('}');
    return { kind: 'loop', body, continuing, breakIf, pos: t.pos };
  }

  private forStatement(): Stmt {
    const t = this.expect('for');
    this.expect('(');
    const init = this.is(';') ? undefined : this.simpleStatement();
    this.expect(';');
    const cond = this.is(';') ? undefined : this.expression();
    this.expect(';');
    const update = this.is(')') ? undefined : this.simpleStatement();
    this.expect(')');
    return { kind: 'for', init, cond, update, body: this.block(), pos: t.pos };
  }

  private switchStatement(): Stmt {
    const t = this.expect('switch');
    const selector = this.expression();
    this.expect('{');
    const clauses: SwitchClause[] = [];
    while (!this.is('}')) {
      const c = this.tok;
      const selectors: (Expr | 'default')[] = [];
      if (this.eat('default')) selectors.push('default');
      else {
        this.expect('case');
        while (!this.is(':') && !this.is('{')) {
          if (this.eat('default')) selectors.push('default');
          else selectors.push(this.expression());
          if (!this.eat(',')) break;
        }
      }
      this.eat(':');
      clauses.push({ selectors, body: this.block(), pos: c.pos });
    }
    this.expect('}');
    return { kind: 'switch', selector, clauses, pos: t.pos };
  }

  expression(): Expr {
    return this.binary(0);
  }

  private binary(level: number): Expr {
    if (level === LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    const ops = LEVELS[level]!;
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct' || !(ops as readonly string[]).includes(t.text)) return left;
      this.next();
      const right = this.binary(level + 1);
      left = { kind: 'binary', op: t.text as BinaryOp, left, right, pos: t.pos };
    }
  }

  private unary(): Expr {
    const t = this.tok;
    if (
      t.kind === 'punct' &&
      (t.text === '-' || t.text === '!' || t.text === '~' || t.text === '&' || t.text === '*')
    ) {
      this.next();
      return { kind: 'unary', op: t.text as UnaryOp, arg: this.unary(), pos: t.pos };
    }
    return this.postfix(this.primary());
  }

  private postfix(base: Expr): Expr {
    for (;;) {
      const t = this.tok;
      if (this.eat('.')) base = { kind: 'member', base, name: this.ident().text, pos: t.pos };
      else if (this.eat('[')) {
        const index = this.expression();
        this.expect(']');
        base = { kind: 'index', base, index, pos: t.pos };
      } else return base;
    }
  }

  private primary(): Expr {
    const t = this.tok;
    if (t.kind === 'int' || t.kind === 'float') {
      this.next();
      return literal(t);
    }
    if (this.eat('(')) {
      const e = this.expression();
      this.expect(')');
      return e;
    }
    if (t.kind === 'ident') {
      if (t.text === 'true' || t.text === 'false') {
        this.next();
        return { kind: 'literal', literal: 'bool', value: t.text === 'true' ? 1 : 0, pos: t.pos };
      }
      this.next();
      let template: TypeExpr[] | undefined;
      if (TEMPLATED.has(t.text) && this.is('<')) {
        this.next();
        template = [];
        while (!this.tok.text.startsWith('>')) {
          template.push(this.type());
          if (!this.eat(',')) break;
        }
        this.closeTemplate();
      }
      if (this.eat('(')) {
        const args: Expr[] = [];
        while (!this.is(')')) {
          args.push(this.expression());
          if (!this.eat(',')) break;
        }
        this.expect(')');
        return { kind: 'call', callee: t.text, template, args, pos: t.pos };
      }
      if (template !== undefined) throw new UnsupportedWgsl(`the type '${t.text}<...>' as a value`, t.pos);
      return { kind: 'ident', name: t.text, pos: t.pos };
    }
    throw new UnsupportedWgsl(`'${t.text || 'end of input'}' where an expression belongs`, t.pos);
  }
}

function intValue(t: Token): number {
  const digits = t.text.replace(/[iu]$/, '');
  const v = Number(digits);
  if (!Number.isSafeInteger(v)) throw new UnsupportedWgsl(`the integer literal ${t.text}`, t.pos);
  return v;
}

function literal(t: Token): Expr {
  if (t.kind === 'int') {
    const suffix = t.text.endsWith('u') ? 'u32' : t.text.endsWith('i') ? 'i32' : 'abstract-int';
    const value = intValue(t);
    const limit = suffix === 'u32' ? 0xffffffff : suffix === 'i32' ? 0x7fffffff : 2 ** 53;
    if (value > limit) throw new UnsupportedWgsl(`the literal ${t.text} (out of range for its type)`, t.pos);
    return { kind: 'literal', literal: suffix, value, pos: t.pos };
  }
  if (t.text.endsWith('h')) throw new UnsupportedWgsl(`the f16 literal ${t.text}`, t.pos);
  const kind: LiteralKind = t.text.endsWith('f') ? 'f32' : 'abstract-float';
  return { kind: 'literal', literal: kind, value: Number(t.text.replace(/f$/, '')), pos: t.pos };
}
