/**
 * The parser: the subset's declarations and statements as trees, WGSL's precedence, template
 * lists closed by `>>`, and constructs outside the subset named with their place.
 */
import { describe, expect, it } from 'vitest';
import type { Expr, FunctionDecl, Stmt } from './ast.ts';
import { parseWgsl } from './parser.ts';

/** An expression as a fully parenthesised string. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return String(e.value);
    case 'ident':
      return e.name;
    case 'binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'unary':
      return `${e.op}${show(e.arg)}`;
    case 'call':
      return `${e.callee}${e.template ? `<${e.template.length}>` : ''}(${e.args.map(show).join(', ')})`;
    case 'member':
      return `${show(e.base)}.${e.name}`;
    case 'index':
      return `${show(e.base)}[${show(e.index)}]`;
  }
}

const body = (src: string): readonly Stmt[] => (parseWgsl(src).decls[0] as FunctionDecl).body;
const returned = (expr: string): string => {
  const s = body(`fn f() { return ${expr}; }`)[0]!;
  if (s.kind !== 'return' || !s.value) throw new Error('not a return');
  return show(s.value);
};

describe('parseWgsl', () => {
  it('gives WGSL precedence: multiplicative, additive, shift, relational, then && and ||', () => {
    expect(returned('a + b * c << 2u < d && e || f')).toBe('(((((a + (b * c)) << 2) < d) && e) || f)');
    expect(returned('-x.y[i] & ~m')).toBe('(-x.y[i] & ~m)');
  });

  it('closes nested template lists written with >>', () => {
    expect(returned('bitcast<vec4<u32>>(s).x')).toBe('bitcast<1>(s).x');
    const m = parseWgsl('var<workgroup> a: array<atomic<u32>, 4>;');
    expect(m.decls[0]).toMatchObject({ kind: 'global', space: 'workgroup', typeExpr: { name: 'array' } });
  });

  it('reads loops with continuing and break if, switches with grouped cases, for and if/else if', () => {
    const [loop, sw, f, i] = body(`fn f() {
      loop { x += 1u; continuing { break if x > 3u; } }
      switch k { case 1u, 2u: { break; } case 3u, default { } }
      for (var j = 0u; j < n; j++) { }
      if (a) { } else if (b) { } else { return; }
    }`);
    expect(loop).toMatchObject({ kind: 'loop', continuing: [], breakIf: { kind: 'binary', op: '>' } });
    expect(sw!.kind === 'switch' && sw!.clauses.map((c) => c.selectors.length)).toEqual([2, 2]);
    expect(f).toMatchObject({ kind: 'for', init: { kind: 'decl' }, update: { kind: 'increment', op: '++' } });
    expect(i).toMatchObject({ kind: 'if', otherwise: [{ kind: 'if', otherwise: [{ kind: 'return' }] }] });
  });

  it('reads the entry point, its builtins and its workgroup size', () => {
    const f = parseWgsl(
      '@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>) {}',
    ).decls[0] as FunctionDecl;
    expect(f.compute?.length).toBe(1);
    expect(f.params.map((p) => p.builtin)).toEqual(['local_invocation_index', 'workgroup_id']);
  });

  it('names what the subset does not hold, with its place', () => {
    expect(() => parseWgsl('@vertex fn f() {}')).toThrow(/^1:1: unsupported WGSL: @vertex on a function/);
    expect(() => parseWgsl('fn f() {\n  discard;\n}')).toThrow(/^2:3: .*the statement 'discard'/);
    expect(() => parseWgsl('alias T = u32;')).toThrow(/module-scope declaration 'alias'/);
    expect(() => parseWgsl('struct S { @size(8) a: u32 }')).toThrow(/@size on a struct member/);
    expect(() => parseWgsl('fn f() { loop { continuing { break if a; x = 1; } } }')).toThrow(/after 'break if'/);
  });
});
