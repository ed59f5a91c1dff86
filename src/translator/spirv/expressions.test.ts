/**
 * The SPIR-V back end of the native operations. Each operation alone, disassembled by the
 * `spirv-tools` package, is the instruction sequence D011 says (the one-to-one mapping, named
 * by Khronos's own tables). Then one row of every corpus ALU instruction name of each
 * generation (the WGSL GPU test's harness: run on symbols, lowered) becomes one function of a
 * compute module per generation, which must pass `spirv-val --target-env vulkan1.2`; each
 * function, read back from the binary and run by `interpret.ts` over edge-heavy register
 * values, must write what `evaluateLow` computes from the native DAG (exactly; sin/cos within
 * the rounding of the 2*pi multiply). No Vulkan device runs them here.
 */
import { describe, expect, it } from 'vitest';
import { CORPUS_GENS, edgyWord, rng, symbolicCorpus } from '../../../test/semantics/corpus-symbolic.ts';
import { evaluateLow, LOW_SIGNATURES, LowBuilder, lowReachable, type LowNode, type LowOp } from '../low.ts';
import { Lowerer, LoweringRefusal } from '../lower.ts';
import { SpirvModule } from './builder.ts';
import { spirvText } from './disassemble.ts';
import { emitSpirvExpressions } from './expressions.ts';
import { SpirvInterpreter } from './interpret.ts';
import { BuiltIn, ExecutionModel, Op, SpirvVersion } from './spec.ts';
import { validateSpirv } from './validate.ts';

const TRIALS = 16;
const FLOAT_RESULTS: ReadonlySet<LowOp> = new Set(['fadd', 'fmul', 'fdiv', 'ffma', 'fsin', 'fcos']);

/**
 * Each native operation's instructions, as the disassembler prints them (operands x, y, z;
 * other ids as %_). Written from D011 and the SPIR-V / GLSL.std.450 specifications.
 */
const FLOAT_IN = ['OpBitcast %float %x', 'OpBitcast %float %y'];
const BACK = 'OpBitcast %uint %_';
const MAPPING: Record<Exclude<LowOp, 'const' | 'bconst' | 'input' | 'binput'>, string[]> = {
  add: ['OpIAdd %uint %x %y'],
  sub: ['OpISub %uint %x %y'],
  mul: ['OpIMul %uint %x %y'],
  udiv: ['OpIEqual %bool %y %uint_0', 'OpSelect %uint %_ %uint_1 %y', 'OpUDiv %uint %x %_', 'OpSelect %uint %_ %x %_'],
  and: ['OpBitwiseAnd %uint %x %y'],
  or: ['OpBitwiseOr %uint %x %y'],
  xor: ['OpBitwiseXor %uint %x %y'],
  not: ['OpNot %uint %x'],
  shl: ['OpShiftLeftLogical %uint %x %y'],
  shr: ['OpShiftRightLogical %uint %x %y'],
  sar: ['OpShiftRightArithmetic %uint %x %y'],
  umin: ['OpExtInst %uint %_ UMin %x %y'],
  umax: ['OpExtInst %uint %_ UMax %x %y'],
  smin: ['OpExtInst %uint %_ SMin %x %y'],
  smax: ['OpExtInst %uint %_ SMax %x %y'],
  clz: ['OpExtInst %uint %_ FindUMsb %x', 'OpISub %uint %uint_31 %_'],
  ctz: ['OpExtInst %uint %_ FindILsb %x', 'OpExtInst %uint %_ UMin %_ %uint_32'],
  popcnt: ['OpBitCount %uint %x'],
  brev: ['OpBitReverse %uint %x'],
  eq: ['OpIEqual %bool %x %y'],
  ne: ['OpINotEqual %bool %x %y'],
  ult: ['OpULessThan %bool %x %y'],
  ule: ['OpULessThanEqual %bool %x %y'],
  slt: ['OpSLessThan %bool %x %y'],
  sle: ['OpSLessThanEqual %bool %x %y'],
  select: ['OpSelect %uint %x %y %z'],
  band: ['OpLogicalAnd %bool %x %y'],
  bor: ['OpLogicalOr %bool %x %y'],
  bnot: ['OpLogicalNot %bool %x'],
  b2w: ['OpSelect %uint %x %uint_1 %uint_0'],
  fadd: [...FLOAT_IN, 'OpFAdd %float %_ %_', BACK],
  fmul: [...FLOAT_IN, 'OpFMul %float %_ %_', BACK],
  fdiv: [...FLOAT_IN, 'OpFDiv %float %_ %_', BACK],
  ffma: [...FLOAT_IN, 'OpBitcast %float %z', 'OpExtInst %float %_ Fma %_ %_ %_', BACK],
  fsqrt: ['OpBitcast %float %x', 'OpExtInst %float %_ Sqrt %_', BACK],
  frsq: ['OpBitcast %float %x', 'OpExtInst %float %_ InverseSqrt %_', BACK],
  fexp2: ['OpBitcast %float %x', 'OpExtInst %float %_ Exp2 %_', BACK],
  flog2: ['OpBitcast %float %x', 'OpExtInst %float %_ Log2 %_', BACK],
  fsin: ['OpBitcast %float %x', 'OpFMul %float %_ %float_6_28318548', 'OpExtInst %float %_ Sin %_', BACK],
  fcos: ['OpBitcast %float %x', 'OpFMul %float %_ %float_6_28318548', 'OpExtInst %float %_ Cos %_', BACK],
};

/** The instructions of function `name` in friendly-named text, ids other than names as %_. */
function functionBody(text: string, name: string): string[] {
  const lines = text.split('\n').map((l) => l.trim());
  const start = lines.findIndex((l) => l.startsWith(`%${name} = OpFunction `));
  const end = lines.indexOf('OpFunctionEnd', start);
  return lines
    .slice(start + 1, end)
    .filter((l) => !/OpFunctionParameter|OpLabel|OpReturn/.test(l))
    .map((l) => l.replace(/^%\w+ = /, '').replace(/%\d+/g, '%_'));
}

/** A module whose compute entry point is empty, for functions tested on their own. */
function moduleWithMain(): SpirvModule {
  const m = new SpirvModule({ version: SpirvVersion.v1_5 });
  const main = m.function(m.voidType(), [], 'main');
  m.entryPoint(ExecutionModel.GLCompute, main, 'main');
  m.localSize(main, 1);
  main.block().return();
  return m;
}

describe('each native operation is the SPIR-V instruction D011 maps it to', () => {
  for (const [op, expected] of Object.entries(MAPPING) as [keyof typeof MAPPING, string[]][]) {
    it(op, async () => {
      const b = new LowBuilder();
      const sig = LOW_SIGNATURES[op];
      const boolOperand = (i: number): boolean =>
        ['band', 'bor', 'bnot', 'b2w'].includes(op) || (op === 'select' && i === 0);
      const leaves = ['x', 'y', 'z']
        .slice(0, sig.arity)
        .map((name, i) => (boolOperand(i) ? b.boolInput(name) : b.input(name)));
      const root = b.op(op, ...leaves);
      const m = moduleWithMain();
      const u32 = m.uintType();
      const bool = m.boolType();
      const fn = m.function(
        root.type === 'bool' ? bool : u32,
        leaves.map((l) => (l.type === 'bool' ? bool : u32)),
        `op_${op}`,
      );
      leaves.forEach((l, i) => m.name(fn.params[i]!, l.name!));
      const block = fn.block();
      const [result] = emitSpirvExpressions(m, block, [root], (n) => fn.params[leaves.indexOf(n)]!);
      block.returnValue(result!);
      const words = m.build();
      const v = validateSpirv(words, 'vulkan1.2');
      expect(v.messages).toBe('');
      const text = await spirvText(words);
      expect(functionBody(text, `op_${op}`)).toEqual(expected);
      // Float arithmetic results, and only they, forbid contraction.
      expect(text.match(/OpDecorate %\d+ NoContraction/g)?.length ?? 0).toBe(FLOAT_RESULTS.has(op) ? 1 : 0);
    });
  }

  it('reads constant float operands as f32 constants of the same bits', async () => {
    const b = new LowBuilder();
    const root = b.op('fadd', b.input('x'), b.word(0x3f800000));
    const m = moduleWithMain();
    const fn = m.function(m.uintType(), [m.uintType()], 'one_more');
    m.name(fn.params[0]!, 'x');
    const block = fn.block();
    block.returnValue(emitSpirvExpressions(m, block, [root], () => fn.params[0]!)[0]!);
    const text = await spirvText(m.build());
    expect(functionBody(text, 'one_more')).toEqual(['OpBitcast %float %x', 'OpFAdd %float %_ %float_1', BACK]);
  });
});

interface Case {
  readonly text: string;
  readonly leaves: readonly LowNode[];
  readonly roots: readonly LowNode[];
  readonly sinCos: boolean;
}

function casesOf(gen: (typeof CORPUS_GENS)[number]['dir']): { cases: Case[]; refused: number } {
  const cases: Case[] = [];
  let refused = 0;
  for (const s of symbolicCorpus(gen, 1)) {
    const b = new LowBuilder();
    const lowerer = new Lowerer(b, (e) => (e.op === 'input' ? b.input(e.name!) : b.boolInput(e.name!)));
    let roots: LowNode[];
    try {
      roots = s.roots.map((e) => lowerer.lower(e));
    } catch (e) {
      if (e instanceof LoweringRefusal) {
        refused++;
        continue;
      }
      throw e;
    }
    const nodes = lowReachable(roots);
    cases.push({
      text: s.inst.def.name + ' ' + s.keys.join(','),
      leaves: nodes.filter((n) => n.op === 'input' || n.op === 'binput'),
      roots,
      sinCos: nodes.some((n) => n.op === 'fsin' || n.op === 'fcos'),
    });
  }
  return { cases, refused };
}

/**
 * One compute module for a generation: case k is `case<k>(base, out)`, reading its leaves
 * from input[base..] (bools as words != 0) and writing its roots to output[out..]; `main`
 * runs every case for its invocation's trial, as the WGSL test's module does.
 */
function moduleFor(cases: readonly Case[], inWords: number, outWords: number): Uint32Array {
  const m = new SpirvModule({ version: SpirvVersion.v1_5 });
  const u32 = m.uintType();
  const bool = m.boolType();
  const c = (v: number): number => m.constantU32(v);
  const input = m.storageBuffer({ set: 0, binding: 0, element: u32, stride: 4, readOnly: true, name: 'input' });
  const output = m.storageBuffer({ set: 0, binding: 1, element: u32, stride: 4, name: 'output' });
  const caseFunctions = cases.map((cs, k) => {
    const fn = m.function(m.voidType(), [u32, u32], `case${k}`);
    const [base, out] = fn.params as [number, number];
    const b = fn.block();
    const leafIndex = new Map(cs.leaves.map((n, j) => [n.id, j]));
    const results = emitSpirvExpressions(m, b, cs.roots, (n) => {
      const word = b.load(u32, b.bufferElement(input, b.op(Op.IAdd, u32, base, c(leafIndex.get(n.id)!))));
      return n.type === 'bool' ? b.op(Op.INotEqual, bool, word, c(0)) : word;
    });
    cs.roots.forEach((r, j) => {
      const value = r.type === 'bool' ? b.op(Op.Select, u32, results[j]!, c(1), c(0)) : results[j]!;
      b.store(b.bufferElement(output, b.op(Op.IAdd, u32, out, c(j))), value);
    });
    b.return();
    return fn;
  });
  const main = m.function(m.voidType(), [], 'main');
  m.entryPoint(ExecutionModel.GLCompute, main, 'main');
  m.localSize(main, TRIALS);
  const b = main.block();
  const t = b.load(u32, m.builtinInput(BuiltIn.LocalInvocationIndex).variable);
  caseFunctions.forEach((fn, k) => {
    const trial = b.op(Op.IAdd, u32, c(k * TRIALS), t);
    b.call(fn, b.op(Op.IMul, u32, trial, c(inWords)), b.op(Op.IMul, u32, trial, c(outWords)));
  });
  b.return();
  return m.build();
}

const f32 = new Float32Array(1);
const u32View = new Uint32Array(f32.buffer);
const asFloat = (bits: number): number => {
  u32View[0] = bits;
  return f32[0]!;
};

/**
 * sin/cos: the interpreter multiplies by the f32 2*pi and takes the radian sine, `evalLowOp`
 * takes the sine of revolutions; the two differ by the multiply's rounding, up to ~4e-7 in
 * the sine, which later steps (f16 conversion, flushing) may carry into a few low bits.
 */
function closeSinCos(a: number, b: number): boolean {
  if (Math.abs(asFloat(a) - asFloat(b)) <= 2 ** -20) return true;
  if (Number.isNaN(asFloat(a)) && Number.isNaN(asFloat(b))) return true;
  return Math.abs(a - b) <= 8;
}

/** Instructions per module of the corpus test (see there). */
const MODULE_CASES = 128;

describe('SPIR-V from lowered corpus instructions', () => {
  for (const g of CORPUS_GENS) {
    it(`one row of every scalar and vector ALU instruction of ${g.dir}: spirv-val, disassembly, values`, async () => {
      const { cases: all, refused } = casesOf(g.dir);
      const failures: string[] = [];
      let bytes = 0;
      // The spirv-tools package's WebAssembly heap is fixed at 16 MiB: the text of one module
      // holding every instruction of a generation (~700 KB with the exact subnormal f32 add and
      // multiply) does not fit, so the instructions go in modules of MODULE_CASES each.
      for (let first = 0; first < all.length; first += MODULE_CASES) {
        const cases = all.slice(first, first + MODULE_CASES);
        const inWords = Math.max(1, ...cases.map((cs) => cs.leaves.length));
        const outWords = Math.max(1, ...cases.map((cs) => cs.roots.length));
        const words = moduleFor(cases, inWords, outWords);
        bytes += words.length * 4;

        const validation = validateSpirv(words, 'vulkan1.2');
        expect(validation.messages).toBe('');
        expect(validation.ok).toBe(true);

        const text = await spirvText(words);
        expect(text).toMatch(/OpEntryPoint GLCompute %main "main" %input %output %gl_LocalInvocationIndex\n/);
        expect(text).toContain(`OpExecutionMode %main LocalSize ${TRIALS} 1 1`);
        expect(text).toContain('OpDecorate %input NonWritable');
        expect(text.match(/ = OpFunction /g)?.length).toBe(cases.length + 1);
        const floatResults = cases.reduce(
          (sum, cs) => sum + lowReachable(cs.roots).filter((n) => FLOAT_RESULTS.has(n.op)).length,
          0,
        );
        expect(text.match(/OpDecorate %\d+ NoContraction/g)?.length ?? 0).toBe(floatResults);

        const interpreter = new SpirvInterpreter(words);
        const r = rng(29 + first);
        cases.forEach((cs, k) => {
          for (let t = 0; t < TRIALS; t++) {
            const input = new Uint32Array(inWords);
            cs.leaves.forEach((n, j) => (input[j] = n.type === 'bool' ? r() & 1 : edgyWord(r)));
            const output = new Uint32Array(outWords);
            interpreter.run(`case${k}`, [0, 0], { input, output });
            const byName = new Map(cs.leaves.map((n, j) => [n.name!, input[j]!]));
            const want = evaluateLow(cs.roots, { word: (n) => byName.get(n) ?? 0, bool: (n) => byName.get(n) === 1 });
            const agree = want.every((w, j) => {
              const expected = typeof w === 'boolean' ? (w ? 1 : 0) : w;
              return output[j] === expected || (cs.sinCos && closeSinCos(output[j]!, expected));
            });
            if (!agree) {
              const inputs = cs.leaves.map((n, j) => `${n.name}=0x${input[j]!.toString(16)}`).join(' ');
              const show = (v: number | boolean): string =>
                typeof v === 'boolean' ? String(v) : `0x${v.toString(16)}`;
              failures.push(
                `${cs.text} [${inputs}]: spirv ${[...output].map(show).join(' ')} want ${want.map(show).join(' ')}`,
              );
              break;
            }
          }
        });
      }
      console.log(
        `${g.dir}: ${all.length} instructions as SPIR-V (${bytes} bytes in ${Math.ceil(all.length / MODULE_CASES)} modules) pass spirv-val, ${failures.length} differ from evaluateLow, ${refused} refused (f64)`,
      );
      expect(failures.slice(0, 12)).toEqual([]);
      expect(all.length).toBeGreaterThan(300);
    });
  }
});
