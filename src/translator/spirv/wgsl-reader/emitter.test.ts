/**
 * The emitter (D016): small WGSL modules of each construct the translator writes become
 * SPIR-V that passes `spirv-val --target-env vulkan1.2`, and the instructions of a construct,
 * disassembled by the `spirv-tools` package (Khronos's names), are the ones WGSL's definition
 * needs: the division and shift guards, NoContraction on float arithmetic, the builtins as
 * spirv/expressions.ts writes the same operations, workgroupUniformLoad's two barriers,
 * structured merges for if/loop/switch (a `break` in a switch leaves the switch), clamped
 * indices, image fetches with their Lod operand, and layouts as WGSL computes them.
 */
import { describe, expect, it } from 'vitest';
import { spirvText } from '../disassemble.ts';
import { validateSpirv } from '../validate.ts';
import { spirvFromWgsl, UnsupportedWgsl } from './index.ts';

const ENTRY = '@compute @workgroup_size(1) fn main() {}';

function valid(wgsl: string): Uint32Array {
  const words = spirvFromWgsl(wgsl);
  const v = validateSpirv(words, 'vulkan1.2');
  expect(v.messages).toBe('');
  expect(v.ok).toBe(true);
  return words;
}

/** The instructions of function `name`, numeric ids written `%_` (named ones kept). */
async function functionBody(wgsl: string, name: string): Promise<string[]> {
  const text = await spirvText(valid(wgsl));
  const lines = text.split('\n').map((l) => l.trim());
  const start = lines.findIndex((l) => l.startsWith(`%${name} = OpFunction `));
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf('OpFunctionEnd', start);
  return lines
    .slice(start + 1, end)
    .map((l) => l.replace(/%[0-9]+\b/g, '%_'))
    .filter((l) => !l.startsWith('%_ = OpLabel') && !l.startsWith('OpFunctionParameter'));
}

/** `want` appears in `lines` in order (other instructions may stand between). */
function expectInOrder(lines: readonly string[], want: readonly string[]): void {
  let at = 0;
  for (const w of want) {
    const i = lines.findIndex((l, k) => k >= at && l.includes(w));
    expect(i, `'${w}' after line ${at} in:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
    at = i + 1;
  }
}

describe('integer operations as WGSL defines them', () => {
  it('u32 division by a runtime value divides by 1 where the divisor is 0 (the dividend, as WGSL says)', async () => {
    const body = await functionBody(`fn f(x: u32, y: u32) -> u32 { return x / y; }\n${ENTRY}`, 'f');
    expectInOrder(body, ['OpIEqual %bool %y %uint_0', 'OpSelect %uint %_ %uint_1 %y', 'OpUDiv %uint %x %_']);
  });

  it('i32 remainder guards 0 and MIN % -1 (0, as WGSL says), with OpSRem', async () => {
    const body = await functionBody(`fn f(x: i32, y: i32) -> i32 { return x % y; }\n${ENTRY}`, 'f');
    expectInOrder(body, [
      'OpIEqual %bool %y %int_0',
      'OpIEqual %bool %x %int_n2147483648',
      'OpIEqual %bool %y %int_n1',
      'OpLogicalAnd %bool %_ %_',
      'OpLogicalOr %bool %_ %_',
      'OpSelect %int %_ %int_1 %y',
      'OpSRem %int %x %_',
    ]);
  });

  it('a constant divisor other than 0 and -1 needs no guard', async () => {
    const body = await functionBody(`fn f(x: u32) -> u32 { return x % 32u; }\n${ENTRY}`, 'f');
    expect(body).toContain('%_ = OpUMod %uint %x %uint_32');
    expect(body.some((l) => l.includes('OpSelect'))).toBe(false);
  });

  it('a runtime shift count is taken modulo 32; a constant one below 32 as written', async () => {
    const body = await functionBody(`fn f(x: i32, y: u32) -> i32 { return (x >> y) << 3u; }\n${ENTRY}`, 'f');
    expectInOrder(body, [
      'OpBitwiseAnd %uint %y %uint_31',
      'OpShiftRightArithmetic %int %x %_',
      'OpShiftLeftLogical %int %_ %uint_3',
    ]);
  });

  it('bit counts are the instructions spirv/expressions.ts uses', async () => {
    const body = await functionBody(
      `fn f(x: u32) -> u32 { return countLeadingZeros(x) + countTrailingZeros(x) + countOneBits(x) + reverseBits(x); }\n${ENTRY}`,
      'f',
    );
    expectInOrder(body, [
      'OpExtInst %uint %_ FindUMsb %x',
      'OpISub %uint %uint_31 %_',
      'OpExtInst %uint %_ FindILsb %x',
      'OpExtInst %uint %_ UMin %_ %uint_32',
      'OpBitCount %uint %x',
      'OpBitReverse %uint %x',
    ]);
  });

  it('extractBits clamps offset and count into the word', async () => {
    const body = await functionBody(
      `fn f(x: i32, o: u32, c: u32) -> i32 { return extractBits(x, o, c); }\n${ENTRY}`,
      'f',
    );
    expectInOrder(body, [
      'OpExtInst %uint %_ UMin %o %uint_32',
      'OpISub %uint %uint_32 %_',
      'OpExtInst %uint %_ UMin %c %_',
      'OpBitFieldSExtract %int %x %_ %_',
    ]);
  });
});

describe('floats', () => {
  it('arithmetic results are NoContraction; min/max are NMin/NMax (the other operand for a NaN)', async () => {
    const wgsl = `fn f(a: f32, b: f32) -> f32 { return max(a * b + a, b) / fma(a, b, 1.0); }\n${ENTRY}`;
    const text = await spirvText(valid(wgsl));
    const body = await functionBody(wgsl, 'f');
    expectInOrder(body, ['OpFMul %float %a %b', 'OpFAdd %float %_ %a', 'NMax %_ %b', 'Fma %a %b %float_1', 'OpFDiv']);
    expect(text.match(/OpDecorate %[0-9]+ NoContraction/g)?.length).toBe(4);
  });

  it('!= is unordered (true for a NaN), the other comparisons ordered', async () => {
    const body = await functionBody(`fn f(a: f32, b: f32) -> bool { return a != b && a < b; }\n${ENTRY}`, 'f');
    expectInOrder(body, ['OpFUnordNotEqual %bool %a %b', 'OpFOrdLessThan %bool %a %b', 'OpLogicalAnd']);
  });

  it('f32 to i32 saturates before it converts; vector op scalar splats the scalar', async () => {
    const body = await functionBody(
      `fn f(v: vec4<f32>, s: f32) -> i32 { let w = v * s; return i32(w.y); }\n${ENTRY}`,
      'f',
    );
    expectInOrder(body, [
      'OpCompositeConstruct %v4float %s %s %s %s',
      'OpFMul %v4float %v %_',
      'OpCompositeExtract %float %w 1',
      'NMax %_ %float_n2_14748365e_09',
      'NMin %_ %float_2_14748352e_09',
      'OpConvertFToS %int %_',
    ]);
  });
});

describe('control flow', () => {
  it('a break inside a switch inside a loop leaves the switch; break if ends the loop', async () => {
    const wgsl = `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  var i = 0u;
  loop {
    switch i {
      case 0u, 2u: { out[i] = 1u; break; }
      case 1u: { out[i] = 2u; }
      default: { }
    }
    continuing {
      i += 1u;
      break if i >= 4u;
    }
  }
}`;
    const body = await functionBody(wgsl, 'main');
    expectInOrder(body, [
      'OpLoopMerge %_ %_ None',
      'OpSelectionMerge %_ None',
      'OpSwitch %_ %_ 0 %_ 2 %_ 1 %_',
      'OpBranchConditional %_ %_ %_',
    ]);
    // The case's break and its fall-off both branch to the switch's merge, not the loop's.
    const text = body.join('\n');
    const merges = [...text.matchAll(/OpSelectionMerge (%\S+)/g)].length;
    expect(merges).toBe(1);
  });

  it('for and while loops test their condition at the top, in a selection', async () => {
    const body = await functionBody(
      `fn f(n: u32) -> u32 { var s = 0u; for (var k = 0u; k < n; k++) { s |= k; } while (s > 9u) { s -= 9u; } return s; }\n${ENTRY}`,
      'f',
    );
    expectInOrder(body, [
      'OpLoopMerge %_ %_ None',
      'OpULessThan %bool %_ %n',
      'OpSelectionMerge %_ None',
      'OpBitwiseOr %uint %_ %_',
      'OpIAdd %uint %_ %uint_1',
      'OpLoopMerge %_ %_ None',
      'OpUGreaterThan %bool %_ %uint_9',
    ]);
  });

  it('&& short-circuits through a phi where its right side calls a function', async () => {
    const body = await functionBody(
      `var<private> hits: u32;\nfn g() -> bool { hits += 1u; return true; }\nfn f(a: bool) -> bool { return a && g(); }\n${ENTRY}`,
      'f',
    );
    expectInOrder(body, [
      'OpSelectionMerge %_ None',
      'OpBranchConditional %a %_ %_',
      'OpFunctionCall %bool %g',
      'OpPhi %bool %a %_ %_ %_',
    ]);
  });

  it('code after a return is not written; a function whose every path returns ends there', async () => {
    const body = await functionBody(
      `fn f(a: bool) -> u32 { if (a) { return 1u; } else { return 2u; } }\n${ENTRY}`,
      'f',
    );
    expect(body.slice(-1)).toEqual(['OpUnreachable']);
  });
});

describe('memory', () => {
  it('workgroupUniformLoad is a barrier, the load, a barrier; atomics use the right scope', async () => {
    const wgsl = `
var<workgroup> running: u32;
var<workgroup> flags: array<atomic<u32>, 4>;
@group(0) @binding(0) var<storage, read_write> mem: array<atomic<u32>>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32) {
  atomicOr(&flags[lid & 3u], 1u);
  let r = atomicCompareExchangeWeak(&mem[lid], 0u, 5u);
  if (r.exchanged) { atomicAdd(&mem[0], r.old_value); }
  if (workgroupUniformLoad(&running) == 0u) { return; }
}`;
    const body = await functionBody(wgsl, 'main');
    expectInOrder(body, [
      'OpAtomicOr %uint %_ %uint_2 %uint_0 %uint_1',
      'OpArrayLength %uint %mem 0',
      'OpAtomicCompareExchange %uint %_ %uint_1 %uint_0 %uint_0 %uint_5 %uint_0',
      'OpIEqual %bool %_ %uint_0',
      'OpCompositeConstruct %__atomic_compare_exchange_result_u32 %_ %_',
      'OpAtomicIAdd %uint %_ %uint_1 %uint_0 %_',
      'OpControlBarrier %uint_2 %uint_2 %uint_264',
      'OpLoad %uint %running',
      'OpControlBarrier %uint_2 %uint_2 %uint_264',
    ]);
  });

  it('buffers get WGSL layout; values the same types without it, crossed by OpCopyLogical', async () => {
    const wgsl = `
struct R { lo: u32, v: vec3<f32>, w: vec2<u32>, tail: array<u32, 3> }
@group(0) @binding(0) var<storage, read> ranges: array<R>;
@group(0) @binding(1) var<storage, read_write> params: R;
fn get(i: u32) -> R { return ranges[i]; }
@compute @workgroup_size(1) fn main() { let r = get(params.lo); _ = r; }`;
    const text = await spirvText(valid(wgsl));
    // lo at 0, v at 16 (vec3's alignment), w at 32, tail at 40 with stride 4, struct size 64.
    for (const o of ['0 Offset 0', '1 Offset 16', '2 Offset 32', '3 Offset 40']) expect(text).toContain(o);
    expect(text).toMatch(/OpDecorate %_runtimearr_R ArrayStride 64/);
    expect(text).toMatch(/OpDecorate %ranges NonWritable/);
    expect(text).toContain('OpCopyLogical %R_0');
  });

  it('a dynamic index into an array value goes through a Function variable, clamped', async () => {
    const body = await functionBody(`fn f(q: array<u32, 13>, i: u32) -> u32 { return q[i]; }\n${ENTRY}`, 'f');
    expectInOrder(body, [
      'OpExtInst %uint %_ UMin %i %uint_12',
      'OpStore %_ %q',
      'OpAccessChain %_ptr_Function_uint %_ %_',
      'OpLoad %uint %_',
    ]);
  });
});

describe('images', () => {
  it('textureLoad on texture_2d_array is OpImageFetch with Lod, level/coordinates/layer clamped', async () => {
    const wgsl = `
@group(1) @binding(0) var t: texture_2d_array<f32>;
fn get(x: i32, y: i32, layer: i32, level: i32) -> vec4<f32> { return textureLoad(t, vec2<i32>(x, y), layer, level); }
fn size(level: i32) -> vec2<i32> { return vec2<i32>(textureDimensions(t, level)); }
${ENTRY}`;
    const text = await spirvText(valid(wgsl));
    expect(text).toContain('OpCapability ImageQuery');
    const body = await functionBody(wgsl, 'get');
    expectInOrder(body, [
      'OpImageQueryLevels %uint %_',
      'OpExtInst %uint %_ UMin %_ %_',
      'OpCompositeConstruct %v3uint %_ %_ %_',
      'OpImageQuerySizeLod %v3uint %_ %_',
      'OpISub %v3uint %_ %_',
      'OpExtInst %v3uint %_ UMin %_ %_',
      'OpImageFetch %v4float %_ %_ Lod %_',
    ]);
    expectInOrder(await functionBody(wgsl, 'size'), [
      'OpImageQuerySizeLod %v3uint',
      'OpVectorShuffle %v2uint %_ %_ 0 1',
    ]);
  });

  it('texture_2d_array<u32> fetches uint texels', () => {
    valid(`@group(1) @binding(0) var t: texture_2d_array<u32>;
@compute @workgroup_size(1) fn main() { let v = textureLoad(t, vec2<u32>(1u, 2u), 0u, 0); _ = v; }`);
  });
});

describe('the resource table (enable chromium_experimental_resource_table)', () => {
  const wgsl = `enable chromium_experimental_resource_table;
@group(0) @binding(0) var<storage, read_write> out: array<vec4<f32>>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32) {
  let slot = lid % 7u;
  if (hasResource<texture_2d_array<f32>>(slot)) {
    out[lid] = textureLoad(getResource<texture_2d_array<f32>>(slot), vec2<i32>(1, 2), 0, 0);
  }
  let n = textureNumLevels(getResource<texture_2d<u32>>(lid));
  out[lid].x = f32(n);
}`;

  it('is a runtime array of images per type, indexed per lane with NonUniform, and validates', async () => {
    const text = await spirvText(valid(wgsl));
    for (const c of ['RuntimeDescriptorArray', 'SampledImageArrayNonUniformIndexing', 'ShaderNonUniform'])
      expect(text).toContain(`OpCapability ${c}`);
    expect(text.match(/OpDecorate %[0-9]+ NonUniform/g)?.length).toBe(6);
    expect(text).toMatch(/OpDecorate %resource_types DescriptorSet 2/);
    expect(text).toMatch(/OpDecorate %resource_table_texture_2d_array_f32_ Binding 7/);
    expect(text).toMatch(/OpDecorate %resource_table_texture_2d_u32_ Binding 5/);
    const body = await functionBody(wgsl, 'main');
    expectInOrder(body, [
      'OpArrayLength %uint %resource_types 0',
      'OpULessThan %bool %slot %_',
      'OpIEqual %bool %_ %uint_7',
      'OpSelect %uint %_ %slot %_',
      'OpAccessChain %_ptr_UniformConstant_',
      'OpImageFetch %v4float',
    ]);
  });

  it('needs its enable directive', () => {
    expect(() => spirvFromWgsl(wgsl.replace('enable chromium_experimental_resource_table;', ''))).toThrow(
      /getResource without enable chromium_experimental_resource_table|hasResource without enable/,
    );
  });
});

describe('outside the subset', () => {
  const refused: [string, string, RegExp][] = [
    ['a fragment stage', '@fragment fn f() {}', /1:1: unsupported WGSL: @fragment on a function/],
    ['discard', `fn f() { discard; }\n${ENTRY}`, /1:10: .*the statement 'discard'/],
    ['a sampler', `@group(0) @binding(0) var s: sampler;\n${ENTRY}`, /the type sampler/],
    ['f16', `enable f16;\n${ENTRY}`, /the extension 'f16'/],
    ['an unknown builtin', `fn f() -> f32 { return atan2(1.0, 2.0); }\n${ENTRY}`, /1:24: .*the function atan2/],
    ['pointer parameters', `fn f(p: ptr<function, u32>) {}\n${ENTRY}`, /a pointer type/],
    [
      'an atomic read without atomicLoad',
      `var<workgroup> a: atomic<u32>;\nfn f() -> u32 { return a; }\n${ENTRY}`,
      /atomic read without atomicLoad/,
    ],
  ];
  for (const [what, wgsl, message] of refused)
    it(what, () => {
      expect(() => spirvFromWgsl(wgsl)).toThrow(UnsupportedWgsl);
      expect(() => spirvFromWgsl(wgsl)).toThrow(message);
    });
});
