/**
 * Compiling one ALU instruction to a JavaScript function over a wave (D014). The instruction's
 * shared semantic function (src/semantics/vector.ts or scalar.ts, D003) runs once on a symbolic
 * wave (symbolic-wave.ts) through the expression algebra; the DAG it leaves becomes the body of
 * a function (js-lowering.ts) that reads and writes the wave's register arrays directly
 * (`Wave.sgpr`, and `Wave.vgpr` lane-major: `vgpr[v * lanes + lane]`).
 *
 * A VALU instruction becomes a loop over the set bits of EXEC, the lane body compiled once per
 * 32-lane half (the half decides which word of a lane mask the lane reads and writes); its
 * lane-mask writes (VOPC, carries, v_cmpx's EXEC) are gathered into one word per 32 lanes and
 * stored after every lane ran, inactive lanes 0, as lane-context.ts's flushMasks does. With no
 * lane active such an instruction's function returns false and the interpreter runs it the
 * shared way (what it writes then is runVector's rule for that case, not repeated here).
 *
 * A SALU instruction becomes straight-line code: SGPR and SCC reads first, then the writes.
 *
 * What is not compiled (a reason is returned instead): wave-level vector instructions, DPP,
 * anything the semantics refuse on a symbolic wave (indexed registers, hardware registers,
 * the GPR index mode), registers outside the SGPR space or past v255, and an unsupported MODE.
 */
import { Gen, type Target } from '../../isa/gen.ts';
import type { Instruction } from '../../isa/instruction.ts';
import { nullCode, SRC_EXEC_LO } from '../../isa/operands.ts';
import type { FloatMode } from '../../semantics/algebra.ts';
import { concrete } from '../../semantics/concrete.ts';
import { SemanticsRefusal } from '../../semantics/context.ts';
import { exprBuilder, modeBits, type Expr } from '../../semantics/expr.ts';
import { createLaneContext, type LaneInput, type MaskWrites } from '../../semantics/lane-context.ts';
import { runScalar, scalarSemanticsFor } from '../../semantics/scalar.ts';
import { vectorRefusal, vectorSemanticsFor } from '../../semantics/vector.ts';
import { laneView } from '../../semantics/wave-encodings.ts';
import { waveSemanticsFor } from '../../semantics/wave-ops.ts';
import { apertureWord } from '../flat.ts';
import { VGPR_COUNT, type Wave } from '../wave.ts';
import { JsLowering, JsLoweringRefusal, type JsLeaf } from './js-lowering.ts';
import { SymbolicWave } from './symbolic-wave.ts';

/** A compiled instruction: runs it on the wave and returns true, or returns false having done nothing. */
export type CompiledStep = (w: Wave) => boolean;

export interface Compiled {
  readonly run: CompiledStep;
  /** The generated source (tests and debugging). */
  readonly source: string;
  /** SGPR codes and VGPR indices the instruction reads, and whether it reads SCC. */
  readonly reads: { readonly sgprs: readonly number[]; readonly vgprs: readonly number[]; readonly scc: boolean };
  /** SGPR codes (lane masks included) and VGPR indices it writes. */
  readonly writes: { readonly sgprs: readonly number[]; readonly vgprs: readonly number[] };
  /** Concrete-algebra methods the code calls (the rest is inline). */
  readonly calls: ReadonlySet<string>;
  /** The code, for fusing with its neighbours (`compileBlock`). */
  readonly piece: Piece;
}

/** Why an instruction is not compiled: it keeps running through the shared path. */
export class NotCompiled {
  constructor(readonly reason: string) {}
}

const SGPR_SPACE = 128;

/** Leaves of a symbolic wave as JavaScript: SGPRs and SCC before the loop, VGPRs per lane. */
function leaves(lanes: number, reads: { sgprs: Set<number>; vgprs: Set<number>; scc: boolean }, prefix: string) {
  return (e: Expr): JsLeaf => {
    const name = e.name!;
    if (name === 'scc') {
      reads.scc = true;
      return { name: `${prefix}scc`, declaration: `const ${prefix}scc = w.scc;`, varying: false };
    }
    if (name === 'lane') return { name: 'lane', declaration: '', varying: true };
    const n = Number(name.slice(1));
    if (name[0] === 's' && Number.isInteger(n) && n >= 0 && n < SGPR_SPACE) {
      reads.sgprs.add(n);
      return { name: `${prefix}s_${n}`, declaration: `const ${prefix}s_${n} = sg[${n}];`, varying: false };
    }
    if (name[0] === 'v' && Number.isInteger(n) && n >= 0 && n < VGPR_COUNT) {
      reads.vgprs.add(n);
      return {
        name: `${prefix}v_${n}`,
        declaration: `const ${prefix}v_${n} = vg[${n * lanes} + lane];`,
        varying: true,
      };
    }
    throw new JsLoweringRefusal(`the register leaf ${name} is outside the register files`);
  };
}

/**
 * One compiled instruction as code: statements over `w` (the wave), `sg` / `vg` (its SGPR and VGPR
 * arrays), `M` (its float modes) and the concrete algebra `C`, to be placed in a function of its
 * own or, one after another, in a fused block (`compileBlock`). `DECLINE` stands where the code
 * gives the instruction back to the shared path, `COUNT` where its lanes are active for certain.
 */
export interface Piece {
  readonly name: string;
  readonly lines: readonly string[];
  readonly modes: readonly FloatMode[];
  /** The variable the lines read the modes from (each piece's names carry its own prefix). */
  readonly modesName: string;
  /** The prefix of every name the piece declares (`q<n>_`). */
  readonly prefix: string;
  /** A VALU piece's lane loop in parts, for fusing with its neighbours' into one loop. */
  readonly loop?: LaneLoop;
  /** 32 or 64 for a VALU instruction (lane-operations count its active lanes), 0 for a SALU one (one each). */
  readonly lanes: 0 | 32 | 64;
  /** Concrete-algebra methods it calls, as `C_<name>`. */
  readonly calls: readonly string[];
}

/**
 * A VALU instruction's code in the parts a fused lane loop needs (`compileBlock`): the statements
 * before the loop (uniform values, mask accumulators), the lane body per 32-lane half (reading
 * `lane` and `l`, the lane and its bit in the half's EXEC word `e<half>`), and the statements
 * after it (the lane-mask stores). Names carry the piece's prefix, so bodies of several pieces
 * can share one loop.
 */
export interface LaneLoop {
  readonly prelude: readonly string[];
  readonly bodies: readonly (readonly string[])[];
  readonly post: readonly string[];
  /** It writes lane masks, so with no lane active it declines (the shared path decides). */
  readonly writesMasks: boolean;
  /** SGPR codes it reads (before the loop), and those it writes (after the loop). */
  readonly readsSgprs: readonly number[];
  readonly writesSgprs: readonly number[];
}

/** Each compiled piece's names start with its own prefix (`q<n>_`), unique in the process. */
let pieceCount = 0;
const nextPrefix = (): string => `q${pieceCount++}_`;

/** The concrete algebra's methods a function calls, bound once where the function is made. */
const bindings = (pieces: readonly Piece[]): string[] =>
  [...new Set(pieces.flatMap((p) => p.calls))].sort().map((op) => `const C_${op} = C.${op};`);

const DECLINE = '@DECLINE@';
const COUNT = '@COUNT@';

/**
 * Generated functions by their source and modes, shared by every program and dispatch: the same
 * instruction compiles to the same source, and reusing the function keeps the engine's optimised
 * code for it (a fresh function starts cold in every dispatch). Bounded: cleared when full.
 */
const built = new Map<string, unknown>();
const BUILT_LIMIT = 20_000;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function build<F>(source: string, modes: readonly (readonly FloatMode[])[]): F {
  const key = `${source}\n//${modes.map((ms) => ms.map(modeBits).join(',')).join(';')}`;
  const hit = built.get(key);
  if (hit) return hit as F;
  const factory = new Function('C', 'MM', 'P', source) as (
    c: typeof concrete,
    mm: readonly (readonly FloatMode[])[],
    p: typeof popcount,
  ) => F;
  const f = factory(concrete, modes, popcount);
  if (built.size >= BUILT_LIMIT) built.clear();
  built.set(key, f);
  return f;
}

/** An instruction name as a function name (stack traces name the instruction). */
const identifier = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '_');

const indent = (xs: readonly string[], by: string): string[] => xs.filter((x) => x !== '').map((x) => by + x);

/** A piece as a function of its own: `(w) => boolean`. */
function standalone(piece: Piece): { run: CompiledStep; source: string } {
  const source = [
    '"use strict";',
    ...bindings([piece]),
    `return function ${identifier(piece.name)}(w) {`,
    '  const sg = w.sgpr;',
    '  const vg = w.vgpr;',
    `  const ${piece.modesName} = MM[0];`,
    ...indent(
      piece.lines.map((l) => l.replace(DECLINE, 'return false;').replace(COUNT, '')),
      '  ',
    ),
    '  return true;',
    '};',
  ].join('\n');
  return { run: build<CompiledStep>(source, [piece.modes]), source };
}

/** A fused run of compiled instructions: runs them in order and returns how many ran. */
export type CompiledBlock = (w: Wave, counter: { laneOps: number }) => number;

const EXEC_CODES = [SRC_EXEC_LO, SRC_EXEC_LO + 1];

/**
 * Splits a run of pieces into groups that share one lane loop: consecutive VALU pieces where
 * none reads an SGPR an earlier one of the group writes (a lane mask it stores after the loop)
 * and none follows one that writes EXEC (v_cmpx). Per-lane code reads only its own lane's
 * VGPRs, so running each lane through all of a group's bodies in turn gives what running
 * each instruction over all lanes in turn gives. A SALU piece is a group of its own.
 */
function laneLoopGroups(pieces: readonly Piece[]): number[][] {
  const groups: number[][] = [];
  let written = new Set<number>();
  pieces.forEach((p, k) => {
    const last = groups.at(-1);
    const lastPiece = last === undefined ? undefined : pieces[last[0]!];
    const joins =
      p.loop !== undefined &&
      lastPiece?.loop !== undefined &&
      !EXEC_CODES.some((c) => written.has(c)) &&
      !p.loop.readsSgprs.some((c) => written.has(c));
    if (joins) last!.push(k);
    else {
      groups.push([k]);
      written = new Set();
    }
    for (const c of p.loop?.writesSgprs ?? []) written.add(c);
  });
  return groups;
}

/** A piece's code with its prefix replaced (every name it declares starts with the prefix). */
function renamed(p: Piece, prefix: string): Piece {
  const from = new RegExp(`\\b${p.prefix}`, 'g');
  const re = (xs: readonly string[]) => xs.map((x) => x.replace(from, prefix));
  return {
    ...p,
    prefix,
    modesName: p.modesName.replace(from, prefix),
    lines: re(p.lines),
    ...(p.loop
      ? { loop: { ...p.loop, prelude: re(p.loop.prelude), bodies: p.loop.bodies.map(re), post: re(p.loop.post) } }
      : {}),
  };
}

/** The same instruction twice in a block is the same piece: the second gets names of its own. */
function distinctNames(pieces: readonly Piece[]): Piece[] {
  const seen = new Map<string, number>();
  return pieces.map((p) => {
    const n = seen.get(p.prefix) ?? 0;
    seen.set(p.prefix, n + 1);
    return n === 0 ? p : renamed(p, `${p.prefix}${n}_`);
  });
}

/**
 * Fuses consecutive instructions into one function: each runs in its own scope, in order, and
 * consecutive VALU instructions that can share one lane loop (`laneLoopGroups`) do; where one
 * declines (a group declines as a whole, before any of it runs), the wave's PC is left at it and
 * the count of those that ran is returned. `pcs[k]` is instruction k's byte offset, `end` the
 * offset after the last. Lane-operations (VALU: lanes active at issue; SALU: one) are added to
 * `counter.laneOps`.
 */
export function compileBlock(
  given: readonly Piece[],
  pcs: readonly number[],
  end: number,
): { run: CompiledBlock; source: string } {
  const pieces = distinctNames(given);
  const body: string[] = [];
  const leave = (k: number) => `{ counter.laneOps += ops; w.pc = ${pcs[k]}; return ${k}; }`;
  for (const group of laneLoopGroups(pieces)) {
    const k0 = group[0]!;
    const first = pieces[k0]!;
    if (group.length === 1) {
      const p = first;
      const count = p.lanes === 0 ? '' : p.lanes === 64 ? 'ops += P(e0) + P(e1);' : 'ops += P(e0);';
      body.push(`// ${p.name}`, '{', `  const ${p.modesName} = MM[${k0}];`);
      if (p.lanes === 0) body.push('  ops++;');
      body.push(
        ...indent(
          p.lines.map((l) => l.replace(DECLINE, leave(k0)).replace(COUNT, count)),
          '  ',
        ),
        '}',
      );
      continue;
    }
    const loops = group.map((k) => pieces[k]!.loop!);
    const halves = first.lanes / 32;
    const exec = Array.from({ length: halves }, (_, h) => `e${h}`);
    const active = exec.map((e) => `P(${e})`).join(' + ');
    body.push(`// ${group.map((k) => pieces[k]!.name).join(', ')}: one lane loop`, '{');
    body.push(
      ...indent(
        exec.map((e, h) => `const ${e} = sg[${SRC_EXEC_LO + h}];`),
        '  ',
      ),
    );
    if (loops.some((l) => l.writesMasks)) body.push(`  if ((${exec.join(' | ')}) === 0) ${leave(k0)}`);
    body.push(`  ops += ${group.length} * (${active});`);
    group.forEach((k) =>
      body.push(`  const ${pieces[k]!.modesName} = MM[${k}];`, ...indent(loops[k - k0]!.prelude, '  ')),
    );
    for (let h = 0; h < halves; h++)
      body.push(
        `  for (let bits = e${h}; bits !== 0; bits &= bits - 1) {`,
        '    const l = 31 - Math.clz32(bits & -bits);',
        `    const lane = ${h === 0 ? 'l' : '32 + l'};`,
        ...loops.flatMap((l) => ['    {', ...indent(l.bodies[h]!, '      '), '    }']),
        '  }',
      );
    for (const l of loops) body.push(...indent(l.post, '  '));
    body.push('}');
  }
  const source = [
    '"use strict";',
    ...bindings(pieces),
    'return function block(w, counter) {',
    '  const sg = w.sgpr;',
    '  const vg = w.vgpr;',
    '  let ops = 0;',
    ...indent(body, '  '),
    `  counter.laneOps += ops;`,
    `  w.pc = ${end};`,
    `  return ${pieces.length};`,
    '};',
  ].join('\n');
  return {
    run: build<CompiledBlock>(
      source,
      pieces.map((p) => p.modes),
    ),
    source,
  };
}

/**
 * Compilations by what decides them (the target, the instruction's encoding, fields and literal,
 * the float mode, a SALU instruction's successor address), shared by every dispatch, so a replay
 * of the same code does not redo the symbolic run. Bounded: cleared when full.
 */
const compiled = new Map<string, Compiled | NotCompiled>();

function memo(key: string, make: () => Compiled | NotCompiled): Compiled | NotCompiled {
  const hit = compiled.get(key);
  if (hit) return hit;
  const c = make();
  if (compiled.size >= BUILT_LIMIT) compiled.clear();
  compiled.set(key, c);
  return c;
}

const instructionKey = (target: Target, inst: Instruction): string =>
  `${target.cpu}|${target.wave64}|${inst.encoding}|${inst.def.name}|${JSON.stringify(inst.fields)}|${inst.literal ?? ''}`;

/** Compiles a VALU instruction (per-lane semantics, not DPP) for one float mode. */
export function compileVector(target: Target, inst: Instruction, mode: FloatMode): Compiled | NotCompiled {
  const m = `${mode.f32Denormals}|${mode.f64f16Denormals}|${mode.ieee ?? ''}|${mode.dx10Clamp ?? ''}`;
  return memo(`v|${instructionKey(target, inst)}|${m}`, () => compileVectorNow(target, inst, mode));
}

function compileVectorNow(target: Target, inst: Instruction, mode: FloatMode): Compiled | NotCompiled {
  const def = inst.def;
  if (waveSemanticsFor(def)) return new NotCompiled('a wave-level instruction');
  const f = vectorSemanticsFor(def);
  if (!f) return new NotCompiled('no per-lane semantics');
  const why = vectorRefusal(target, inst);
  if (why) return new NotCompiled(why);
  let input: LaneInput<Expr> | undefined;
  try {
    const view = laneView(target, inst);
    if (view.dpp) return new NotCompiled('DPP reads other lanes');
    input = view.fields === inst.fields ? undefined : { view };
  } catch (e) {
    if (e instanceof SemanticsRefusal) return new NotCompiled(e.reason);
    throw e;
  }
  const lanes: 32 | 64 = target.wave64 ? 64 : 32;
  const halves = lanes / 32;
  const b = exprBuilder();
  const runs: { vgprs: Map<number, Expr>; masks: Map<number, Expr> }[] = [];
  for (let h = 0; h < halves; h++) {
    const sym = new SymbolicWave(b, lanes, mode, 0, apertureWord);
    sym.lane = 32 * h;
    const writes: MaskWrites<Expr> = { masks: new Map() };
    try {
      f(createLaneContext(b, target, inst, sym, sym.lane, writes, input));
    } catch (e) {
      if (e instanceof SemanticsRefusal) return new NotCompiled(e.reason);
      throw e;
    }
    if (sym.sgprWrites.size > 0 || sym.sccWrite !== undefined)
      return new NotCompiled('a per-lane function wrote scalar state directly');
    const masks = new Map<number, Expr>();
    for (const [code, bits] of writes.masks) {
      const bit = bits[sym.lane];
      if (bit === undefined) return new NotCompiled('a lane-mask write without this lane bit');
      masks.set(code, bit);
    }
    runs.push({ vgprs: sym.vgprWrites, masks });
  }
  const maskCodes = [...runs[0].masks.keys()];
  if (runs.some((r) => [...r.masks.keys()].join() !== maskCodes.join()))
    return new NotCompiled('the halves of the wave write different lane masks');
  for (const r of runs)
    for (const v of r.vgprs.keys()) if (v >= VGPR_COUNT) return new NotCompiled(`v${v} is past v${VGPR_COUNT - 1}`);
  const words = target.gen >= Gen.GFX10 && !target.wave64 ? 1 : 2;
  for (const code of maskCodes)
    if (code + words > SGPR_SPACE) return new NotCompiled(`a lane mask at SGPR code ${code} leaves the SGPR space`);

  const reads = { sgprs: new Set<number>(), vgprs: new Set<number>(), scc: false };
  const prefix = nextPrefix();
  const js = new JsLowering(leaves(lanes, reads, prefix), prefix);
  const loops: string[] = [];
  const bodies: string[][] = [];
  try {
    runs.forEach((r, h) => {
      const vgprs = [...r.vgprs];
      const body = js.body([...vgprs.map(([, e]) => e), ...maskCodes.map((c) => r.masks.get(c)!)]);
      const stores = vgprs.map(([v], i) => `vg[${v * lanes} + lane] = ${body.refs[i]};`);
      const bits = maskCodes.map((c, i) => `${prefix}k${c}_${h} |= ${body.refs[vgprs.length + i]} ? 1 << l : 0;`);
      const lane = [...body.statements, ...stores, ...bits].filter((x) => x !== '');
      bodies.push(lane);
      loops.push(
        `for (let bits = e${h}; bits !== 0; bits &= bits - 1) {`,
        '  const l = 31 - Math.clz32(bits & -bits);',
        `  const lane = ${h === 0 ? 'l' : '32 + l'};`,
        ...indent(lane, '  '),
        '}',
      );
    });
  } catch (e) {
    if (e instanceof JsLoweringRefusal) return new NotCompiled(e.message);
    throw e;
  }
  const execWords = Array.from({ length: halves }, (_, h) => `e${h}`);
  const accumulators = maskCodes.flatMap((c) =>
    Array.from({ length: halves }, (_, h) => `let ${prefix}k${c}_${h} = 0;`),
  );
  const skipNull = (code: number): boolean => target.gen >= Gen.GFX8 && code === nullCode(target.gen);
  const maskStores = maskCodes.flatMap((c) =>
    skipNull(c)
      ? []
      : Array.from({ length: words }, (_, w) => `sg[${c + w}] = ${w < halves ? `${prefix}k${c}_${w} >>> 0` : '0'};`),
  );
  const maskWrites = maskCodes.flatMap((c) => (skipNull(c) ? [] : Array.from({ length: words }, (_, w) => c + w)));
  const piece: Piece = {
    name: def.name,
    lanes,
    modes: js.modes,
    modesName: js.modesName,
    prefix,
    calls: [...js.calls],
    loop: {
      prelude: [...js.prelude, ...accumulators],
      bodies,
      post: maskStores,
      writesMasks: maskCodes.length > 0,
      readsSgprs: [...reads.sgprs],
      writesSgprs: maskWrites,
    },
    lines: [
      ...execWords.map((e, h) => `const ${e} = sg[${SRC_EXEC_LO + h}];`),
      // With no lane active the shared path decides what a lane-mask write leaves.
      maskCodes.length > 0 ? `if ((${execWords.join(' | ')}) === 0) ${DECLINE}` : '',
      COUNT,
      ...js.prelude,
      ...accumulators,
      ...loops,
      ...maskStores,
    ],
  };
  return {
    ...standalone(piece),
    piece,
    reads: { sgprs: [...reads.sgprs], vgprs: [...reads.vgprs], scc: reads.scc },
    writes: {
      sgprs: maskCodes.flatMap((c) => Array.from({ length: words }, (_, w) => c + w)),
      vgprs: [...new Set(runs.flatMap((r) => [...r.vgprs.keys()]))],
    },
    calls: js.calls,
  };
}

/** Compiles a SALU instruction; `nextAddress` is the byte address after it (s_getpc_b64). */
export function compileScalar(target: Target, inst: Instruction, nextAddress: number): Compiled | NotCompiled {
  return memo(`s|${instructionKey(target, inst)}|${nextAddress}`, () => compileScalarNow(target, inst, nextAddress));
}

function compileScalarNow(target: Target, inst: Instruction, nextAddress: number): Compiled | NotCompiled {
  if (!scalarSemanticsFor(inst.def)) return new NotCompiled('no scalar semantics');
  const b = exprBuilder();
  // The mode is never read by the scalar ALU; the symbolic wave needs one.
  const sym = new SymbolicWave(
    b,
    target.wave64 ? 64 : 32,
    { f32Denormals: true, f64f16Denormals: true },
    nextAddress,
    apertureWord,
  );
  try {
    runScalar(b, target, inst, sym);
  } catch (e) {
    if (e instanceof SemanticsRefusal) return new NotCompiled(e.reason);
    throw e;
  }
  const writes = [...sym.sgprWrites];
  for (const [code] of writes)
    if (code >= SGPR_SPACE) return new NotCompiled(`SGPR code ${code} is outside the SGPR space`);
  const reads = { sgprs: new Set<number>(), vgprs: new Set<number>(), scc: false };
  const prefix = nextPrefix();
  const js = new JsLowering(leaves(32, reads, prefix), prefix);
  const roots = [...writes.map(([, e]) => e), ...(sym.sccWrite ? [sym.sccWrite] : [])];
  let refs: string[];
  try {
    const body = js.body(roots);
    if (body.statements.length > 0) return new NotCompiled('a scalar instruction read a per-lane value');
    refs = body.refs;
  } catch (e) {
    if (e instanceof JsLoweringRefusal) return new NotCompiled(e.message);
    throw e;
  }
  const piece: Piece = {
    name: inst.def.name,
    lanes: 0,
    modes: js.modes,
    modesName: js.modesName,
    prefix,
    calls: [...js.calls],
    lines: [
      ...js.prelude,
      ...writes.map(([code], i) => `sg[${code}] = ${refs[i]};`),
      sym.sccWrite ? `w.scc = ${refs[writes.length]};` : '',
    ],
  };
  return {
    ...standalone(piece),
    piece,
    reads: { sgprs: [...reads.sgprs], vgprs: [], scc: reads.scc },
    writes: { sgprs: writes.map(([code]) => code), vgprs: [] },
    calls: js.calls,
  };
}
