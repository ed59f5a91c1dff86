/**
 * Native-operation DAGs (`../low.ts`) as SPIR-V instructions (D011): each operation one
 * instruction on 32-bit unsigned words and bools, written into a block in operand order.
 * Floats are f32 bit patterns in words, reinterpreted by OpBitcast around the float
 * operations, so every value the translated program holds is a word, as in the WGSL back end.
 *
 * Signedness needs no bitcasts: "the type of operation of an instruction comes from the
 * instruction's opcode, not the signedness of the operands" (SPIR-V §3 OpTypeInt), so
 * OpSLessThan, OpShiftRightArithmetic and GLSL.std.450 SMin/SMax read uint words as signed.
 *
 * Floats: every float arithmetic result is decorated NoContraction, so no driver fuses a
 * multiply into a following add (the hardware rounds each operation once, and the lowering's
 * exact-zero and NaN decisions assume those roundings). Nothing is decorated FPFastMathMode
 * (and the module declares no float-controls modes): Vulkan then gives the "Precision and
 * Operation of SPIR-V Instructions" table's rules (correctly rounded add/mul, ULP bounds for
 * the rest), the same contract WGSL's accuracy table gives, and the lowering decides NaN,
 * infinity, zero and denormal cases itself as it does for WGSL.
 */
import { lowReachable, type LowNode, type LowOp } from '../low.ts';
import type { SpirvBlock, SpirvModule } from './builder.ts';
import { GLSLstd450, Op } from './spec.ts';

/** 2*pi as the f32 nearest to it (0x40c90fdb): the native sin/cos take revolutions. */
export const TWO_PI_F32_BITS = 0x40c90fdb;

/** The integer operations that are one SPIR-V instruction on (u32, u32) words. */
const INTEGER_BINARY: Partial<Record<LowOp, number>> = {
  add: Op.IAdd,
  sub: Op.ISub,
  mul: Op.IMul,
  and: Op.BitwiseAnd,
  or: Op.BitwiseOr,
  xor: Op.BitwiseXor,
  shl: Op.ShiftLeftLogical,
  shr: Op.ShiftRightLogical,
  sar: Op.ShiftRightArithmetic,
  eq: Op.IEqual,
  ne: Op.INotEqual,
  ult: Op.ULessThan,
  ule: Op.ULessThanEqual,
  slt: Op.SLessThan,
  sle: Op.SLessThanEqual,
};

const GLSL_BINARY: Partial<Record<LowOp, GLSLstd450>> = {
  umin: GLSLstd450.UMin,
  umax: GLSLstd450.UMax,
  smin: GLSLstd450.SMin,
  smax: GLSLstd450.SMax,
};

const GLSL_FLOAT_UNARY: Partial<Record<LowOp, GLSLstd450>> = {
  fsqrt: GLSLstd450.Sqrt,
  frsq: GLSLstd450.InverseSqrt,
  fexp2: GLSLstd450.Exp2,
  flog2: GLSLstd450.Log2,
  fsin: GLSLstd450.Sin,
  fcos: GLSLstd450.Cos,
};

/** The SPIR-V id of each root of `roots`, written into `block`. `leaf` gives an input node's value id. */
export function emitSpirvExpressions(
  module: SpirvModule,
  block: SpirvBlock,
  roots: readonly LowNode[],
  leaf: (n: LowNode) => number,
): number[] {
  const u32 = module.uintType();
  const bool = module.boolType();
  const f32 = module.floatType();
  const ids = new Map<number, number>();
  /** The float view of each node a float operation reads, made once. */
  const floats = new Map<number, number>();
  const id = (n: LowNode): number => {
    const found = ids.get(n.id);
    if (found === undefined) throw new Error(`node ${n.id} used before it is defined`);
    return found;
  };
  const float = (n: LowNode): number => {
    let f = floats.get(n.id);
    if (f === undefined) {
      // A constant operand is an f32 constant of the same bits; any other word is reinterpreted.
      f = n.op === 'const' ? module.constantF32Bits(n.value!) : block.bitcast(f32, id(n));
      floats.set(n.id, f);
    }
    return f;
  };
  const exact = (result: number): number => {
    module.noContraction(result);
    return result;
  };
  const word = (f: number): number => block.bitcast(u32, f);

  for (const n of lowReachable(roots)) {
    const [x, y, z] = n.args as [LowNode, LowNode, LowNode];
    let r: number;
    switch (n.op) {
      case 'const':
        r = module.constantU32(n.value!);
        break;
      case 'bconst':
        r = module.constantBool(n.value === 1);
        break;
      case 'input':
      case 'binput':
        r = leaf(n);
        break;
      case 'add':
      case 'sub':
      case 'mul':
      case 'and':
      case 'or':
      case 'xor':
      case 'shl':
      case 'shr':
      case 'sar':
      case 'ult':
      case 'ule':
      case 'slt':
      case 'sle':
        r = block.op(INTEGER_BINARY[n.op]!, n.type === 'bool' ? bool : u32, id(x), id(y));
        break;
      case 'eq':
      case 'ne':
        // Words compare as integers; the signature allows bools too, compared logically.
        if (x.type === 'bool') r = block.op(n.op === 'eq' ? Op.LogicalEqual : Op.LogicalNotEqual, bool, id(x), id(y));
        else r = block.op(INTEGER_BINARY[n.op]!, bool, id(x), id(y));
        break;
      case 'udiv': {
        // OpUDiv by 0 is undefined; WGSL (and evalLowOp) give the dividend, so divide by 1 then.
        const zero = block.op(Op.IEqual, bool, id(y), module.constantU32(0));
        const divisor = block.op(Op.Select, u32, zero, module.constantU32(1), id(y));
        r = block.op(Op.Select, u32, zero, id(x), block.op(Op.UDiv, u32, id(x), divisor));
        break;
      }
      case 'not':
        r = block.op(Op.Not, u32, id(x));
        break;
      case 'umin':
      case 'umax':
      case 'smin':
      case 'smax':
        r = block.glsl(u32, GLSL_BINARY[n.op]!, id(x), id(y));
        break;
      case 'clz':
        // FindUMsb(0) is -1 (0xffffffff), so 31 - FindUMsb(x) is 32 for 0 in wrapping arithmetic.
        r = block.op(Op.ISub, u32, module.constantU32(31), block.glsl(u32, GLSLstd450.FindUMsb, id(x)));
        break;
      case 'ctz':
        // FindILsb(0) is -1 (0xffffffff): the unsigned min with 32 makes it 32.
        r = block.glsl(u32, GLSLstd450.UMin, block.glsl(u32, GLSLstd450.FindILsb, id(x)), module.constantU32(32));
        break;
      case 'popcnt':
        r = block.op(Op.BitCount, u32, id(x));
        break;
      case 'brev':
        r = block.op(Op.BitReverse, u32, id(x));
        break;
      case 'select':
        r = block.op(Op.Select, u32, id(x), id(y), id(z));
        break;
      case 'band':
        r = block.op(Op.LogicalAnd, bool, id(x), id(y));
        break;
      case 'bor':
        r = block.op(Op.LogicalOr, bool, id(x), id(y));
        break;
      case 'bnot':
        r = block.op(Op.LogicalNot, bool, id(x));
        break;
      case 'b2w':
        r = block.op(Op.Select, u32, id(x), module.constantU32(1), module.constantU32(0));
        break;
      case 'fadd':
        r = word(exact(block.op(Op.FAdd, f32, float(x), float(y))));
        break;
      case 'fmul':
        r = word(exact(block.op(Op.FMul, f32, float(x), float(y))));
        break;
      case 'fdiv':
        r = word(exact(block.op(Op.FDiv, f32, float(x), float(y))));
        break;
      case 'ffma':
        // GLSL.std.450 Fma decorated NoContraction is one operation with invariant precision.
        r = word(exact(block.glsl(f32, GLSLstd450.Fma, float(x), float(y), float(z))));
        break;
      case 'fsqrt':
      case 'frsq':
      case 'fexp2':
      case 'flog2':
        r = word(block.glsl(f32, GLSL_FLOAT_UNARY[n.op]!, float(x)));
        break;
      case 'fsin':
      case 'fcos': {
        const radians = exact(block.op(Op.FMul, f32, float(x), module.constantF32Bits(TWO_PI_F32_BITS)));
        r = word(block.glsl(f32, GLSL_FLOAT_UNARY[n.op]!, radians));
        break;
      }
    }
    ids.set(n.id, r);
  }
  return roots.map(id);
}
