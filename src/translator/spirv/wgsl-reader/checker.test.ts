/**
 * The checker: abstract literals take their context's type (WGSL §6.2), references are told
 * from values, WGSL's layout rules give offsets and strides, switch cases are evaluated, and
 * type errors or constructs outside the subset are named with their place.
 */
import { describe, expect, it } from 'vitest';
import type { Expr, FunctionDecl, Stmt } from './ast.ts';
import { checkWgsl } from './checker.ts';
import { parseWgsl } from './parser.ts';
import { arrayStride, memberOffsets, sizeOf, typeName, vec, U32, F32, type WType } from './types.ts';

const ENTRY = '@compute @workgroup_size(8, 2) fn main() {}';
const check = (src: string) => checkWgsl(parseWgsl(`${src}\n${ENTRY}`));
const fnBody = (src: string, name = 'f'): readonly Stmt[] =>
  (check(src).functions.find((f) => f.name === name) as FunctionDecl).body;
const returnedType = (src: string): string => {
  const s = fnBody(src).at(-1)!;
  if (s.kind !== 'return' || !s.value) throw new Error('not a return');
  return typeName(s.value.type!);
};

describe('checkWgsl', () => {
  it('gives abstract literals the other operand’s type, else i32 / f32', () => {
    expect(returnedType('fn f(n: u32) -> u32 { return 2 * n + 1; }')).toBe('u32');
    const [decl] = fnBody('fn f() { var a = 1; var b = 0.5; let c = 2 * 3u; }');
    expect(decl!.kind === 'decl' && typeName(decl!.decl.type!)).toBe('i32');
    const s = fnBody('fn f() { var a = 1; var b = 0.5; let c = 2 * 3u; }');
    expect(s.map((x) => (x.kind === 'decl' ? typeName(x.decl.type!) : ''))).toEqual(['i32', 'f32', 'u32']);
    expect(returnedType('fn f(v: vec4<f32>) -> vec4<f32> { return v * (1.0 - 0.5); }')).toBe('vec4<f32>');
  });

  it('tells references from values', () => {
    const s = fnBody('var<private> p: array<u32, 4>;\nfn f(i: u32) -> u32 { let x = p[i]; return x; }');
    const init = (s[0] as Extract<Stmt, { kind: 'decl' }>).decl.init as Expr;
    expect(init.ref).toBe('private');
    expect((s[1] as Extract<Stmt, { kind: 'return' }>).value!.ref).toBeUndefined();
  });

  it('evaluates switch cases and the workgroup size', () => {
    const c = check('const K: u32 = 7u;\nfn f(x: i32) { switch x { case -1, 3: { } default: { } } }');
    expect([...c.constants.values()]).toEqual([0xffffffff, 3]);
    expect(c.workgroupSize).toEqual([8, 2, 1]);
  });

  it('lays out structs and arrays by WGSL’s rules', () => {
    const s: WType = {
      k: 'struct',
      name: 'S',
      members: [
        { name: 'a', type: U32 },
        { name: 'b', type: vec(3, 'f32') },
        { name: 'c', type: F32 },
        { name: 'd', type: vec(2, 'u32') },
      ],
    };
    expect(memberOffsets(s as Extract<WType, { k: 'struct' }>)).toEqual([0, 16, 28, 32]);
    expect(sizeOf(s)).toBe(48);
    expect(arrayStride({ k: 'array', elem: vec(3, 'f32'), n: 2 })).toBe(16);
  });

  it('names type errors and constructs outside the subset, with their place', () => {
    expect(() => check('fn f(a: u32, b: i32) -> u32 { return a + b; }')).toThrow(/1:40: .*\+ on u32 and i32/);
    expect(() => check('fn f() -> u32 { return nope; }')).toThrow(/the name 'nope'/);
    expect(() => check('fn f() { break; }')).toThrow(/'break' outside a loop or switch/);
    expect(() => check('fn f(x: u32) { switch x { case 1u: { } } }')).toThrow(/0 default clauses/);
    expect(() => check('@group(0) @binding(0) var<storage> a: array<u32>;\nfn f() { a[0] = 1u; }')).toThrow(
      /a write to the read-only storage buffer a/,
    );
    expect(() =>
      check('@group(0) @binding(0) var<storage, read_write> a: array<u32>;\nfn f() { a[0] = 1u; }'),
    ).not.toThrow();
    expect(() => check('@group(0) @binding(0) var<uniform> u: u32;\nfn f() { u = 1u; }')).toThrow(
      /a write to var<uniform>/,
    );
    expect(() => checkWgsl(parseWgsl('fn f() {}'))).toThrow(/0 compute entry points/);
  });
});
