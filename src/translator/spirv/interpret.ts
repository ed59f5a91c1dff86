/**
 * A CPU interpreter for the straight-line SPIR-V functions the expression back end writes,
 * read from the binary: what the back end's tests run to check that each native operation's
 * instruction computes what `evalLowOp` says (there is no Vulkan device here to run them on).
 * It knows storage-buffer loads and stores through OpAccessChain, the integer, logical and
 * float instructions of `expressions.ts`, and GLSL.std.450's instructions among them; anything
 * else, control flow included, is a named `SpirvInterpretRefusal`. Values are words (floats
 * as their f32 bits) and bools; float results are rounded once to f32.
 */
import { fma32Value } from '../../semantics/float.ts';
import { GLSLstd450, Op } from './spec.ts';

export class SpirvInterpretRefusal extends Error {
  override readonly name = 'SpirvInterpretRefusal';
}

type Value = number | boolean | { readonly buffer: Uint32Array; readonly index: number };

interface Instruction {
  readonly opcode: number;
  readonly operands: readonly number[];
}

interface FunctionCode {
  readonly params: readonly number[];
  readonly body: readonly Instruction[];
}

const f32 = new Float32Array(1);
const w32 = new Uint32Array(f32.buffer);
const toFloat = (bits: number): number => {
  w32[0] = bits;
  return f32[0]!;
};
const toBits = (x: number): number => {
  f32[0] = x;
  return w32[0]!;
};

function literalString(words: readonly number[]): string {
  const bytes: number[] = [];
  for (const w of words) for (let i = 0; i < 4; i++) bytes.push((w >>> (8 * i)) & 0xff);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(Uint8Array.from(bytes.slice(0, end < 0 ? bytes.length : end)));
}

function reverseBits(a: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) r = (r << 1) | ((a >>> i) & 1);
  return r >>> 0;
}

export class SpirvInterpreter {
  private readonly constants = new Map<number, number | boolean>();
  private readonly names = new Map<string, number>();
  private readonly functions = new Map<number, FunctionCode>();
  private glslSet = -1;

  constructor(words: Uint32Array) {
    let fn: { id: number; params: number[]; body: Instruction[] } | undefined;
    for (let at = 5; at < words.length;) {
      const count = words[at]! >>> 16;
      const opcode = words[at]! & 0xffff;
      if (count === 0) throw new SpirvInterpretRefusal(`word ${at}: an instruction of 0 words`);
      const operands = Array.from(words.subarray(at + 1, at + count));
      at += count;
      switch (opcode) {
        case Op.Name:
          this.names.set(literalString(operands.slice(1)), operands[0]!);
          break;
        case Op.ExtInstImport:
          if (literalString(operands.slice(1)) === 'GLSL.std.450') this.glslSet = operands[0]!;
          break;
        case Op.Constant:
          this.constants.set(operands[1]!, operands[2]!);
          break;
        case Op.ConstantTrue:
        case Op.ConstantFalse:
          this.constants.set(operands[1]!, opcode === Op.ConstantTrue);
          break;
        case Op.Function:
          fn = { id: operands[1]!, params: [], body: [] };
          break;
        case Op.FunctionParameter:
          fn!.params.push(operands[1]!);
          break;
        case Op.FunctionEnd:
          this.functions.set(fn!.id, fn!);
          fn = undefined;
          break;
        default:
          if (fn) fn.body.push({ opcode, operands });
      }
    }
  }

  /** The id OpName gave `name`. */
  idOf(name: string): number {
    const id = this.names.get(name);
    if (id === undefined) throw new SpirvInterpretRefusal(`no OpName ${name}`);
    return id;
  }

  /**
   * Runs the function named `name` with word arguments; `buffers` are the storage buffers by
   * their variables' names (loads and stores reach element `index` of member 0).
   */
  run(name: string, args: readonly number[], buffers: Readonly<Record<string, Uint32Array>>): void {
    const code = this.functions.get(this.idOf(name));
    if (!code) throw new SpirvInterpretRefusal(`${name} is not a function`);
    const values = new Map<number, Value>(this.constants);
    code.params.forEach((p, i) => values.set(p, args[i]! >>> 0));
    const buffersById = new Map(Object.entries(buffers).map(([n, b]) => [this.idOf(n), b]));
    const word = (id: number): number => {
      const v = values.get(id);
      if (typeof v !== 'number') throw new SpirvInterpretRefusal(`%${id} is not a word`);
      return v;
    };
    const flag = (id: number): boolean => {
      const v = values.get(id);
      if (typeof v !== 'boolean') throw new SpirvInterpretRefusal(`%${id} is not a bool`);
      return v;
    };
    const float = (id: number): number => toFloat(word(id));
    const signed = (id: number): number => word(id) | 0;
    const shift = (id: number): number => {
      const s = word(id);
      // SPIR-V leaves shifts by the bit width or more undefined; the lowering masks counts.
      if (s >= 32) throw new SpirvInterpretRefusal(`shift by ${s}`);
      return s;
    };
    for (const { opcode, operands: o } of code.body) {
      const [, result, a, b, c] = o as [number, number, number, number, number];
      let v: Value;
      switch (opcode) {
        case Op.Label:
          continue;
        case Op.Return:
          return;
        case Op.AccessChain: {
          const buffer = buffersById.get(a);
          if (!buffer || o.length !== 5 || word(b) !== 0)
            throw new SpirvInterpretRefusal('only storage buffer element access chains run');
          v = { buffer, index: word(c) };
          break;
        }
        case Op.Load: {
          const p = values.get(a);
          if (typeof p !== 'object') throw new SpirvInterpretRefusal(`load from %${a}, not a pointer`);
          v = p.buffer[p.index]!;
          break;
        }
        case Op.Store: {
          const p = values.get(o[0]!);
          if (typeof p !== 'object') throw new SpirvInterpretRefusal(`store to %${o[0]}, not a pointer`);
          p.buffer[p.index] = word(o[1]!);
          continue;
        }
        case Op.Bitcast:
          v = word(a);
          break;
        case Op.IAdd:
          v = (word(a) + word(b)) >>> 0;
          break;
        case Op.ISub:
          v = (word(a) - word(b)) >>> 0;
          break;
        case Op.IMul:
          v = Math.imul(word(a), word(b)) >>> 0;
          break;
        case Op.UDiv:
          if (word(b) === 0) throw new Error('OpUDiv by 0 is undefined');
          v = Math.floor(word(a) / word(b));
          break;
        case Op.BitwiseAnd:
          v = (word(a) & word(b)) >>> 0;
          break;
        case Op.BitwiseOr:
          v = (word(a) | word(b)) >>> 0;
          break;
        case Op.BitwiseXor:
          v = (word(a) ^ word(b)) >>> 0;
          break;
        case Op.Not:
          v = ~word(a) >>> 0;
          break;
        case Op.ShiftLeftLogical:
          v = (word(a) << shift(b)) >>> 0;
          break;
        case Op.ShiftRightLogical:
          v = word(a) >>> shift(b);
          break;
        case Op.ShiftRightArithmetic:
          v = (word(a) >> shift(b)) >>> 0;
          break;
        case Op.BitCount: {
          let n = 0;
          for (let x = word(a); x !== 0; x = (x & (x - 1)) >>> 0) n++;
          v = n;
          break;
        }
        case Op.BitReverse:
          v = reverseBits(word(a));
          break;
        case Op.IEqual:
          v = word(a) === word(b);
          break;
        case Op.INotEqual:
          v = word(a) !== word(b);
          break;
        case Op.ULessThan:
          v = word(a) < word(b);
          break;
        case Op.ULessThanEqual:
          v = word(a) <= word(b);
          break;
        case Op.SLessThan:
          v = signed(a) < signed(b);
          break;
        case Op.SLessThanEqual:
          v = signed(a) <= signed(b);
          break;
        case Op.Select: {
          const t = values.get(b);
          const f = values.get(c);
          if (t === undefined || f === undefined) throw new SpirvInterpretRefusal('select of an undefined value');
          v = flag(a) ? t : f;
          break;
        }
        case Op.LogicalAnd:
          v = flag(a) && flag(b);
          break;
        case Op.LogicalOr:
          v = flag(a) || flag(b);
          break;
        case Op.LogicalNot:
          v = !flag(a);
          break;
        case Op.LogicalEqual:
          v = flag(a) === flag(b);
          break;
        case Op.LogicalNotEqual:
          v = flag(a) !== flag(b);
          break;
        case Op.FAdd:
          v = toBits(float(a) + float(b));
          break;
        case Op.FMul:
          v = toBits(float(a) * float(b));
          break;
        case Op.FDiv:
          v = toBits(float(a) / float(b));
          break;
        case Op.ExtInst:
          if (a !== this.glslSet) throw new SpirvInterpretRefusal(`extended instruction set %${a}`);
          v = this.glsl(b, o.slice(4), word, float, signed);
          break;
        default:
          throw new SpirvInterpretRefusal(`opcode ${opcode} is not straight-line expression code`);
      }
      values.set(result, v);
    }
    throw new SpirvInterpretRefusal(`${name} ended without OpReturn`);
  }

  private glsl(
    instruction: number,
    args: readonly number[],
    word: (id: number) => number,
    float: (id: number) => number,
    signed: (id: number) => number,
  ): number {
    const [x, y, z] = args as [number, number, number];
    switch (instruction) {
      case GLSLstd450.UMin:
        return Math.min(word(x), word(y));
      case GLSLstd450.UMax:
        return Math.max(word(x), word(y));
      case GLSLstd450.SMin:
        return Math.min(signed(x), signed(y)) >>> 0;
      case GLSLstd450.SMax:
        return Math.max(signed(x), signed(y)) >>> 0;
      case GLSLstd450.FindUMsb:
        return (31 - Math.clz32(word(x))) >>> 0;
      case GLSLstd450.FindILsb: {
        const w = word(x);
        return w === 0 ? 0xffffffff : 31 - Math.clz32(w & -w);
      }
      case GLSLstd450.Fma:
        return toBits(fma32Value(float(x), float(y), float(z)));
      case GLSLstd450.Sqrt:
        return toBits(Math.sqrt(float(x)));
      case GLSLstd450.InverseSqrt:
        return toBits(1 / Math.sqrt(float(x)));
      case GLSLstd450.Exp2:
        return toBits(2 ** float(x));
      case GLSLstd450.Log2:
        return toBits(Math.log2(float(x)));
      case GLSLstd450.Sin:
        return toBits(Math.sin(float(x)));
      case GLSLstd450.Cos:
        return toBits(Math.cos(float(x)));
      default:
        throw new SpirvInterpretRefusal(`GLSL.std.450 instruction ${instruction}`);
    }
  }
}
