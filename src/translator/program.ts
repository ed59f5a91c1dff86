/**
 * A decoded program as the blocks of the translated module's dispatcher (D011). Each basic block
 * of the CFG becomes one or more translation blocks, cut after every sync point: an instruction
 * that needs other lanes (a lane-mask write of VOPC/VOP3 and v_cmpx, v_readlane,
 * v_readfirstlane, DPP, v_permlane16/x16/64, ds_swizzle/ds_bpermute, an image sample's implicit
 * LOD from its quad) or the group (s_barrier). A translation block's code runs in phase A of a
 * superstep up to its end; a sync point publishes this lane's part (a mask bit, a VGPR word) and
 * halts the wave, and its phase-B code, after the group's barrier, reads the wave's exchange and
 * finishes the instruction. `pc` is the translation block to run next.
 *
 * Instructions get their meaning from the shared semantics run on `LaneState` (the expression
 * algebra): runScalar for the scalar ALU, the per-lane vector functions (as lanes 0 and 32 in a
 * wave64) and the wave-level ones for the vector ALU, and the memory rules of buffer-ops.ts.
 * MODE is followed through the blocks at translation time; a block reached with two MODEs is
 * refused. What is not translated is refused by name, with its address, before any dispatch.
 */
import { Gen, type Target } from '../isa/gen.ts';
import { SRC_EXEC_LO, SRC_VCC_LO } from '../isa/operands.ts';
import { SemanticsRefusal } from '../semantics/context.ts';
import type { Expr } from '../semantics/expr.ts';
import { createLaneContext, type MaskWrites } from '../semantics/lane-context.ts';
import { runScalar } from '../semantics/scalar.ts';
import { vectorSemanticsFor } from '../semantics/vector.ts';
import { laneView } from '../semantics/wave-encodings.ts';
import { OUT_OF_RANGE, swizzleSourceLane } from '../semantics/wave-lanes.ts';
import { permuteLane } from '../interp/lds.ts';
import { runWave, waveSemanticsFor } from '../semantics/wave-ops.ts';
import type { Program } from '../interp/execute.ts';
import { buildCfg, type BasicBlock, type DecodedInstruction } from './cfg.ts';
import { LaneState, sgprName, vgprName, writesMask } from './lane-state.ts';
import { VGPR_COUNT } from '../interp/wave.ts';
import { LoweringRefusal } from './lower.ts';
import type { AtomicOp } from '../interp/buffer-ops.ts';
import {
  memoryPath,
  MemoryRefusal,
  Requests,
  translateDs,
  translateFlat,
  translateGlobal,
  translateMubuf,
  translateSmem,
  type MemoryPath,
} from './memory-ops.ts';
import { leavesInOrder, substituteLeaves } from './expr-rewrite.ts';
import type { TracedWords } from './traced-words.ts';
import { IMAGE_SERVICE, type ImageInstructions } from './image-ops.ts';
import { TranslationRefusal } from './refusal.ts';

/** One block of the dispatcher's `switch pc`. */
export interface TranslationBlock {
  readonly id: number;
  /** Byte address of its first instruction. */
  readonly address: number;
  /** Instructions it runs (the step count the interpreter would add). */
  steps: number;
  /** Its code in phase A, ending in a transfer (`pc = ...`) or a halt. */
  readonly code: string[];
  /** The finish of the sync point it halts at, run in phase B (`sync == id + 1`). */
  finish: string[] | null;
  /** The blocks it hands `pc` to (through a service, the block the service returns to). */
  readonly successors: Set<number>;
}

export interface TranslatedProgram {
  readonly target: Target;
  readonly blocks: readonly TranslationBlock[];
  readonly entry: number;
  /** Register variables the code reads or writes. */
  readonly used: ReadonlySet<string>;
  /** Registers the code writes. */
  readonly written: ReadonlySet<string>;
  /** Atomic ops the memory service must know. */
  readonly atomics: ReadonlySet<AtomicOp>;
  /**
   * The memory service's paths the requests take (its `access` holds only these, D029);
   * `guest-atomic` among them: an atomic reaches guest memory, so another group may see its order.
   */
  readonly memoryPaths: ReadonlySet<MemoryPath>;
  /** Instructions in the CFG. */
  readonly instructions: number;
}

export interface ProgramOptions {
  /** Waves of a thread group (s_barrier is a no-op in a group of one). */
  readonly waves: number;
  /** MODE at the entry (from RSRC1). */
  readonly mode: number;
  /** LDS bytes of a group. */
  readonly ldsBytes: number;
  /** Registers known to hold one value everywhere (user SGPRs the program never writes), by name. */
  readonly constants?: ReadonlyMap<string, number>;
  /**
   * A first pass that only learns which registers the program writes: format accesses whose format
   * is not known yet write placeholders instead of being refused.
   */
  readonly discovery?: boolean;
  /** Translates MIMG instructions (image-ops.ts, D015); absent, they are refused. */
  readonly images?: ImageInstructions;
  /** Descriptor words the tracer knows at translation time (a format access's V# loaded from memory). */
  readonly traced?: TracedWords;
  /**
   * The module writes the wave's registers out after its end (a program capture): the wave's
   * masks are then gathered whole before the end too. Absent: only memory is the result, and a
   * mask still held at `s_endpgm` is never read whole.
   */
  readonly registersOut?: boolean;
  /** gfx10 wave64 shared VGPRs v[from, from + count) (RSRC3.SHARED_VGPR_CNT); absent or null: none. */
  readonly sharedVgprs?: { readonly from: number; readonly count: number } | null;
}

/** Wave-level instructions the translator runs (the others are refused by name). */
const WAVE_TRANSLATED = new Set(['v_readlane_b32', 'v_readfirstlane_b32', 'v_writelane_b32', 'v_swap_b32']);
/** Wave-level instructions whose semantics loop over the lanes, each lane's result its own: run as each lane (`laneWise`). */
const WAVE_EACH_LANE = new Set(['v_permlane16_b32', 'v_permlanex16_b32', 'v_permlane64_b32']);

/**
 * The bit a halted wave's `pc` carries until its next phase A clears it (module.ts): run order
 * guards each block by `pc == N` alone (D028), so the block a sync point resumes at must not run
 * later in the same pass.
 */
export const HALTED_PC = 0x40000000;

/** The dispatcher's case of the memory service (runs the queued requests, then `pc = mret`). */
export const MEMORY_SERVICE = 0xfffff000;
/**
 * Lane-mask words a wave publishes in one superstep (module.ts's `xmask`): held masks are gathered
 * whole this many words at a time, so a wave64 program holds four masks before it must gather.
 */
export const MASK_EXCHANGE_WORDS = 8;
/** Requests one instruction may queue (s_load_dwordx16). */
export const MAX_REQUESTS = 16;
/**
 * Requests the service's queue holds (`mq`): stores wait there, instruction after instruction,
 * until a load, a sync point or the block's end sends the queue to the service (D028).
 */
export const QUEUED_REQUESTS = 32;

/**
 * The comment line that marks where a guest instruction's WGSL begins: `// 0x10000014 s_bfe_u32`
 * (its byte address and name). `INSTRUCTION_MARKER` reads it back.
 */
export const instructionMarker = (address: number, name: string): string =>
  `// 0x${(address >>> 0).toString(16)} ${name}`;
/** A marker line (`instructionMarker`, indented): groups 1 and 2 are the address in hex and the name. */
export const INSTRUCTION_MARKER = /^\s*\/\/ 0x([0-9a-f]+) (\S+)\s*$/;

/** Statements inside `case N: { ... }`. */
const INDENT = '          ';

export function translateProgram(program: Program, options: ProgramOptions): TranslatedProgram {
  const target = program.target;
  const gen = target.gen;
  const lanes = target.wave64 ? 64 : 32;
  const cfg = buildCfg(program);
  const blocks: TranslationBlock[] = [];
  const blockAt = new Map<number, number>();
  const modeAt = new Map<number, number>();
  const queue: number[] = [];
  const used = new Set<string>();
  const written = new Set<string>();
  const atomics = new Set<AtomicOp>();
  const memoryPaths = new Set<MemoryPath>();
  const newBlock = (address: number): TranslationBlock => {
    const b: TranslationBlock = {
      id: blocks.length,
      address,
      steps: 0,
      code: [],
      finish: null,
      successors: new Set(),
    };
    blocks.push(b);
    return b;
  };
  /** The translation block that starts CFG block `start`, entered with `mode`. */
  const blockFor = (start: number, mode: number): number => {
    const known = modeAt.get(start);
    if (known !== undefined && known !== mode)
      throw new TranslationRefusal(
        `MODE is 0x${known.toString(16)} on one path here and 0x${mode.toString(16)} on another; the translator needs one`,
        program.base + start,
      );
    let id = blockAt.get(start);
    if (id === undefined) {
      id = newBlock(program.base + start).id;
      blockAt.set(start, id);
      modeAt.set(start, mode);
      queue.push(start);
    }
    return id;
  };

  const translateBlock = (bb: BasicBlock): void => {
    let cur = blocks[blockAt.get(bb.start)!]!;
    const state = new LaneState(target, modeAt.get(bb.start)!, `b${cur.id}`, cur.code, INDENT, options.constants);
    const shared = options.sharedVgprs;
    if (shared && lanes === 64)
      state.sharedVgprs = { from: shared.from, to: Math.min(shared.from + shared.count, VGPR_COUNT) };
    const line = (text: string): void => state.seg.line(text);
    const endOf = (d: DecodedInstruction): number => program.base + d.inst.offset + d.inst.size;
    /** SGPR words of one lane mask: one in a gfx10+ wave32, else two. */
    const maskWords = gen >= Gen.GFX10 && lanes === 32 ? 1 : 2;
    /** The masks one gather publishes: the wave's xmask words a superstep (module.ts). */
    const maskRoom = Math.floor(MASK_EXCHANGE_WORDS / maskWords);
    /**
     * Lane masks held as each lane's own bit (`LaneState.ownBitWords`), by first SGPR: VALU mask
     * writes that only per-lane readers (carry-in, v_cndmask's select, EXEC's own bit) have read.
     */
    const ownBitMasks: number[] = [];
    /** Requests waiting in the service's queue (stores of earlier instructions of this block, D028). */
    let queued = 0;

    /**
     * Gathers the held masks into whole wave masks (a sync point): each lane publishes its own
     * bit words, and after the barrier every lane reads the wave's OR of them. The next
     * instruction, at byte `address`, starts the block phase B resumes at.
     */
    const gatherMasks = (address: number): void => {
      if (ownBitMasks.length === 0) return;
      state.flush();
      const codes = ownBitMasks.splice(0);
      state.ownBitWords.clear();
      codes.forEach((code, i) => {
        for (let w = 0; w < maskWords; w++)
          // A held word's own bit is right and its other bits need not be (`heldBitwise`): publish the own bit.
          line(
            maskWords === 1
              ? `atomicOr(&xmask[xm + ${i}u], ${sgprName(code)} & (1u << (lane & 31u)));`
              : `atomicOr(&xmask[xm + ${i * maskWords + w}u], select(0u, ${sgprName(code + w)} & (1u << (lane & 31u)), (lane >> 5u) == ${w}u));`,
          );
      });
      split(
        address,
        () =>
          codes.forEach((code, i) => {
            for (let w = 0; w < maskWords; w++) {
              used.add(sgprName(code + w));
              written.add(sgprName(code + w));
              line(`${sgprName(code + w)} = atomicLoad(&xmask[xm + ${i * maskWords + w}u]);`);
            }
          }),
        [],
      );
    };

    /**
     * Ends `cur` at a sync point: the next instructions go to a new block, starting at byte
     * `address`, that phase B resumes at.
     */
    const split = (address: number, finish: (() => void) | null, halt: string[]): void => {
      // The waiting stores first: another wave may read what they write after the barrier.
      serveQueue(address);
      const next = newBlock(address);
      for (const h of halt) line(h);
      // Halted: no later block of this pass may take pc (run order guards by pc alone, D028).
      line(`pc = ${(next.id | HALTED_PC) >>> 0}u;`);
      cur.successors.add(next.id);
      line('halt = true;');
      if (finish) {
        line(`sync = ${cur.id + 1}u;`);
        cur.finish = [];
        state.retarget(cur.finish);
        finish();
      }
      state.retarget(next.code);
      cur = next;
    };

    /**
     * A per-lane VALU instruction. Its lane-mask writes are kept as each lane's own bit (no sync
     * point): the lanes that read them per lane need nothing else, and they are gathered into
     * whole masks (`gatherMasks`) before the first instruction that reads one whole.
     */
    const valu = (d: DecodedInstruction): void => {
      const inst = d.inst;
      const def = inst.def;
      if (waveSemanticsFor(def)) return waveLevel(d);
      if (/_(DPP|DPP8)$/.test(inst.encoding)) return dppValu(d);
      const f = vectorSemanticsFor(def);
      if (!f) throw new SemanticsRefusal(def.name, 'no vector ALU semantics');
      const view = laneView(target, inst);
      const input = view.fields === inst.fields ? undefined : { view };
      const run = (): Map<number, Expr> =>
        state.runAsLanes((lane) => {
          const writes: MaskWrites<Expr> = { masks: new Map() };
          f(createLaneContext(state.b, target, inst, state, lane, writes, input));
          const mine = new Map<number, Expr>();
          for (const [code, laneBits] of writes.masks) {
            const bit = laneBits[lane];
            if (bit !== undefined) mine.set(code, bit);
          }
          return mine;
        });
      if (ownBitMasks.length > 0) {
        // Does it read a held mask other than for its lane's bit (v_mov_b32 v0, vcc_lo)?
        state.ownBitReadWhole = false;
        state.probe(() => void run());
        if (state.ownBitReadWhole) gatherMasks(program.base + inst.offset);
      }
      if (state.sharedVgprs) {
        const sharedWritten = new Set<number>();
        let maskBits = 0;
        state.sharedWriteLog = sharedWritten;
        try {
          state.probe(() => {
            maskBits = [...run().keys()].filter((code) => writesMask(target, code)).length;
          });
        } finally {
          state.sharedWriteLog = undefined;
        }
        if (sharedWritten.size > 0) {
          if (maskBits > 0)
            throw new SemanticsRefusal(
              def.name,
              'writes a gfx10 wave64 shared VGPR and a lane mask: not translated (the halves run one after the other)',
            );
          return halfByHalf(
            d,
            () => void run(),
            [...sharedWritten].sort((p, q) => p - q),
          );
        }
      }
      const bits = run();
      state.checkPending();
      const masks = [...bits].filter(([code]) => writesMask(target, code));
      if (masks.length === 0) return;
      if (masks.length > 2) throw new SemanticsRefusal(def.name, 'more than two lane-mask destinations');
      const a = state.b;
      const lane = state.laneIndex();
      const ownBit = a.shl(a.word(1), a.and(lane, a.word(31)));
      // Inactive lanes write 0 (Vega ISA, "Vector Compare"); word w holds lanes 32w..32w+31.
      const active = state.execBit();
      for (const [code, bit] of masks) {
        const on = a.boolAnd(bit, active);
        for (let w = 0; w < maskWords; w++) {
          const here = maskWords === 1 ? on : a.boolAnd(on, a.eq(a.lshr(lane, a.word(5)), a.word(w)));
          state.writeSgpr(code + w, a.select(here, ownBit, a.word(0)));
        }
      }
      const added = masks.map(([code]) => code).filter((code) => !ownBitMasks.includes(code));
      // No room to publish them all at once: the masks held before this instruction are gathered
      // now (this instruction wrote none of them), and its own are held after.
      if (ownBitMasks.length + added.length > maskRoom) gatherMasks(endOf(d));
      for (const code of added) {
        ownBitMasks.push(code);
        for (let w = 0; w < maskWords; w++) state.ownBitWords.add(sgprName(code + w));
      }
    };

    /**
     * An instruction that writes gfx10 wave64 shared VGPRs (D018 amendment of D011): the hardware
     * and the interpreter run the low half, then the high half, so lane L + 32 reads what lane L
     * wrote. Each lane keeps its own copy of a shared VGPR and the pair's copies are kept equal:
     * the low half runs the instruction (its writes gated to lane < 32), publishes the shared
     * words it may have written (two a superstep, in the exchange's two halves) and the high half
     * takes them after the barrier; then the high half runs it and the low half takes its words
     * the same way. Copies that were already equal stay equal, so every other instruction reads a
     * shared VGPR as its own.
     */
    const halfByHalf = (d: DecodedInstruction, run: () => void, sharedWritten: readonly number[]): void => {
      const address = program.base + d.inst.offset;
      for (const half of ['low', 'high'] as const) {
        state.flush();
        // After the flush: expressions belong to their segment.
        const a = state.b;
        const low = a.ltU(state.laneIndex(), a.word(32));
        state.writePredicate = half === 'low' ? low : a.boolNot(low);
        state.sharedWrites = true;
        try {
          run();
        } finally {
          state.writePredicate = undefined;
          state.sharedWrites = false;
        }
        state.checkPending();
        state.flush();
        const from = half === 'low' ? 'lane < 32u' : 'lane >= 32u';
        for (let i = 0; i < sharedWritten.length; i += 2) {
          const words = sharedWritten.slice(i, i + 2).map((index) => vgprName(index));
          for (const w of words) {
            used.add(w);
            written.add(w);
          }
          line(`if (${from}) {`);
          words.forEach((w, k) => line(`  xword[xw + ${k * 32}u + (lane & 31u)] = ${w};`));
          line('}');
          const last = half === 'high' && i + 2 >= sharedWritten.length;
          split(
            last ? endOf(d) : address,
            () => {
              line(`if (!(${from})) {`);
              words.forEach((w, k) => line(`  ${w} = xword[xw + ${k * 32}u + (lane & 31u)];`));
              line('}');
            },
            [],
          );
        }
      }
    };

    /**
     * The writes of a sync instruction's finish (DPP, ds_swizzle/ds_bpermute), when they may land
     * in shared VGPRs: the interpreter gathers every lane's source first and then writes lane by
     * lane, so the pair's shared register ends with the high lane's value where it wrote, else
     * the low lane's. `body` writes; the condition of this lane's write is kept in `xaddr` (free
     * after the finish) for `mergeShared`. A read of a shared VGPR the instruction also writes
     * would see the other half's write on the hardware: refused.
     */
    const sharedFinish = (name: string, body: () => void): Map<number, Expr> => {
      const access = { written: new Map<number, Expr>(), read: new Set<number>() };
      if (!state.sharedVgprs) {
        body();
        return access.written;
      }
      state.sharedAccess = access;
      try {
        body();
      } finally {
        state.sharedAccess = undefined;
      }
      if (access.written.size === 0) return access.written;
      if ([...access.written.keys()].some((i) => access.read.has(i)))
        throw new SemanticsRefusal(name, 'reads a gfx10 wave64 shared VGPR it also writes: not translated');
      const conditions = new Set(access.written.values());
      if (conditions.size > 1)
        throw new SemanticsRefusal(name, 'writes gfx10 wave64 shared VGPRs under two conditions: not translated');
      const a = state.b;
      line(`xaddr = ${state.seg.value(a.select([...conditions][0]!, a.word(1), a.word(0)))};`);
      return access.written;
    };

    /**
     * Makes the pair's copies of the shared VGPRs a finish wrote equal again (two supersteps a
     * register): every lane publishes its copy and a high lane that did not write takes its low
     * partner's; then the high lanes publish and the low lanes take theirs.
     */
    const mergeShared = (written: ReadonlyMap<number, Expr>, address: number): void => {
      for (const index of [...written.keys()].sort((p, q) => p - q)) {
        const w = vgprName(index);
        used.add(w);
        line(`xword[xw + lane] = ${w};`);
        split(address, () => line(`if (lane >= 32u && xaddr == 0u) { ${w} = xword[xw + lane - 32u]; }`), []);
        line(`if (lane >= 32u) { xword[xw + lane - 32u] = ${w}; }`);
        split(address, () => line(`if (lane < 32u) { ${w} = xword[xw + lane]; }`), []);
      }
    };

    /** A constant table by lane, as a WGSL variable of this block (indexed by the lane at run time). */
    const laneTable = (tag: string, values: readonly number[]): string => {
      const name = state.seg.freshName(tag);
      line(`var ${name} = array<u32, ${values.length}>(${values.map((v) => `${v >>> 0}u`).join(', ')});`);
      return name;
    };

    /**
     * A DPP16/DPP8 instruction (a sync point): every lane publishes source 0's VGPR; after the
     * barrier each lane reads the lane its control selects (`sourceLane`, as a table), which is
     * invalid out of range or, without FI, when inactive; an invalid source reads 0 with
     * BOUND_CTRL, else the lane does not write; the row and bank masks gate the writes too, as
     * runVector does. The per-lane function then runs with that source 0.
     */
    const dppValu = (d: DecodedInstruction): void => {
      const inst = d.inst;
      const def = inst.def;
      if (def.family === 'VOPC' || inst.encoding.startsWith('VOPC'))
        throw new SemanticsRefusal(
          def.name,
          "a DPP compare (a lane mask from other lanes' sources) is not translated yet",
        );
      const view = laneView(target, inst);
      const dpp = view.dpp!;
      const src0 = def.operands.find((o) => o.role === 'src' && o.field === 'src0');
      if (src0 && src0.dwords >= 2) throw new SemanticsRefusal(def.name, 'a 64-bit DPP source is not translated yet');
      const f = vectorSemanticsFor(def);
      if (!f) throw new SemanticsRefusal(def.name, 'no vector ALU semantics');
      state.flush();
      used.add(vgprName(dpp.vgpr));
      let sharedWritten: ReadonlyMap<number, Expr> = new Map();
      line(`xword[xw + lane] = ${vgprName(dpp.vgpr)};`);
      split(
        endOf(d),
        () => {
          const a = state.b;
          const sources = laneTable(
            'dpps',
            Array.from({ length: lanes }, (_, l) => dpp.sourceLane(l)),
          );
          const writes = laneTable(
            'dppw',
            Array.from({ length: lanes }, (_, l) => (dpp.laneWrites(l) ? 1 : 0)),
          );
          const from = state.seg.bindWord(`${sources}[lane]`);
          const inRange = a.ne(from, a.word(OUT_OF_RANGE >>> 0));
          const safe = a.select(inRange, from, a.word(0));
          const valid = dpp.fetchInactive ? inRange : a.boolAnd(inRange, state.execBitOf(safe));
          const fetched = state.seg.bindWord(`xword[xw + (${state.seg.value(safe)} & ${lanes - 1}u)]`, 'x');
          const value = a.select(valid, fetched, a.word(0));
          const laneWrites = a.toBool(state.seg.bindWord(`${writes}[lane]`));
          state.writePredicate = dpp.boundCtrl ? laneWrites : a.boolAnd(laneWrites, valid);
          try {
            sharedWritten = sharedFinish(def.name, () =>
              state.runAsLanes((lane) => {
                const w: MaskWrites<Expr> = { masks: new Map() };
                f(createLaneContext(state.b, target, inst, state, lane, w, { view, src0: [value] }));
                return new Map();
              }),
            );
          } finally {
            state.writePredicate = undefined;
          }
          state.flush();
        },
        [],
      );
      mergeShared(sharedWritten, endOf(d));
    };

    /**
     * ds_swizzle_b32 and ds_bpermute_b32 (sync points, no LDS): every lane publishes its word
     * (inactive lanes 0: "reading from an invalid thread results in 0x0"); each active lane then
     * reads the lane the shared rule names: `swizzleSourceLane` (a table by lane) or
     * `permuteLane` over its address.
     */
    const laneExchange = (d: DecodedInstruction): void => {
      const inst = d.inst;
      const f = inst.fields;
      const kind = d.ds!.kind;
      if (kind === 'permute')
        throw new SemanticsRefusal(inst.def.name, 'ds_permute_b32 (a scatter to other lanes) is not translated yet');
      const offset = (f.offset0 ?? 0) | ((f.offset1 ?? 0) << 8);
      const a = state.b;
      const published = state.seg.value(
        a.select(state.execBit(), state.readVgpr(kind === 'swizzle' ? f.addr : f.data0, 0), a.word(0)),
      );
      // The bpermute address is this lane's, read before any write.
      // The bpermute address is this lane's, read before any write, and kept in `xaddr` across the barrier.
      if (kind === 'bpermute') line(`xaddr = ${state.seg.value(state.readVgpr(f.addr, 0))};`);
      state.flush();
      let sharedWritten: ReadonlyMap<number, Expr> = new Map();
      line(`xword[xw + lane] = ${published};`);
      split(
        endOf(d),
        () => {
          const b = state.b;
          const from =
            kind === 'swizzle'
              ? state.seg.bindWord(
                  `${laneTable(
                    'swz',
                    Array.from({ length: lanes }, (_, l) => swizzleSourceLane(offset, l)),
                  )}[lane]`,
                )
              : permuteLane(b, gen, lanes, state.seg.word('xaddr'), offset, state.laneIndex());
          const value = state.seg.bindWord(`xword[xw + (${state.seg.value(from)} & ${lanes - 1}u)]`, 'x');
          sharedWritten = sharedFinish(inst.def.name, () => state.writeVgpr(f.vdst, 0, value));
          state.flush();
        },
        [],
      );
      mergeShared(sharedWritten, endOf(d));
    };

    /**
     * One value by lane from each lane's own (`runAsEachLane`): the common one when all agree, a
     * table by lane when all are constants, else a select over the distinct values by a lane mask
     * of where each holds.
     */
    const byLane = (values: readonly Expr[]): Expr => {
      const a = state.b;
      const first = values[0]!;
      if (values.every((v) => v === first)) return first;
      if (first.type !== 'word') throw new Error('translator: a value by lane that is not a word');
      if (values.every((v) => v.op === 'const'))
        return state.seg.bindWord(
          `${laneTable(
            'bylane',
            values.map((v) => v.value!),
          )}[lane]`,
          'l',
        );
      const groups = new Map<Expr, number[]>();
      values.forEach((v, l) => groups.set(v, [...(groups.get(v) ?? []), l]));
      const lane = state.laneIndex();
      const inLanes = (ls: readonly number[]): Expr => {
        const word = (hi: boolean): Expr =>
          a.word(ls.reduce((m, l) => (l >= 32 === hi ? m | (1 << (l & 31)) : m), 0) >>> 0);
        const mask = lanes === 64 ? a.select(a.ltU(lane, a.word(32)), word(false), word(true)) : word(false);
        return a.toBool(a.and(a.lshr(mask, a.and(lane, a.word(31))), a.word(1)));
      };
      const [last, ...rest] = [...groups].reverse();
      return rest.reduce((acc, [v, ls]) => a.select(inLanes(ls), v, acc), last![0]);
    };

    /**
     * v_permlane16/x16/64 (a sync point): the shared semantics loop over the lanes, so they run
     * once as each lane L (`runAsEachLane`), every read of another lane a placeholder leaf. Phase A
     * publishes the VGPR they read; in phase B each lane's k-th read is one exchange load at the
     * lane its run named (a value by lane, `byLane`), and what each lane's run wrote is merged by
     * lane the same way.
     */
    const laneWise = (d: DecodedInstruction): void => {
      const inst = d.inst;
      const indices = new Set<number>();
      state.probe(() => {
        state.exchange = {
          read(i) {
            indices.add(i);
            return state.b.word(0);
          },
        };
        try {
          state.runAsEachLane(() => runWave(state.b, target, inst, state));
        } finally {
          state.exchange = undefined;
        }
      });
      if (indices.size > 1) throw new SemanticsRefusal(inst.def.name, 'reads two VGPRs of other lanes');
      const run = (): void => {
        // Each lane's reads of other lanes, as placeholder leaves named by lane and order.
        const reads = new Map<string, Expr>();
        let current = 0;
        let count = 0;
        state.exchange = {
          read(_i, from) {
            const leaf = state.b.input(`xq${current}_${count++}`);
            reads.set(leaf.name!, from);
            return leaf;
          },
        };
        let writes: Map<string, Expr>[];
        try {
          writes = state.runAsEachLane((lane) => {
            current = lane;
            count = 0;
            runWave(state.b, target, inst, state);
          });
        } finally {
          state.exchange = undefined;
        }
        // The reads each lane's results use, in order; the k-th of every lane is one load.
        const names = [...new Set(writes.flatMap((w) => [...w.keys()]))].sort();
        const readsUsed = writes.map((w) =>
          leavesInOrder(
            names.flatMap((n) => (w.has(n) ? [w.get(n)!] : [])),
            (leaf) => leaf.op === 'input' && reads.has(leaf.name!),
          ),
        );
        const loads: Expr[] = [];
        for (let k = 0; k < Math.max(0, ...readsUsed.map((u) => u.length)); k++) {
          const at = readsUsed.map((u) => (u[k] ? reads.get(u[k]!.name!)! : undefined));
          const some = at.find((x) => x !== undefined)!;
          const from = byLane(at.map((x) => x ?? some));
          loads.push(state.seg.bindWord(`xword[xw + (${state.seg.value(from)} & ${lanes - 1}u)]`, 'x'));
        }
        const rewritten = writes.map((w, l) => {
          const slot = new Map(readsUsed[l]!.map((leaf, k) => [leaf.name!, loads[k]!]));
          const keys = [...w.keys()];
          const values = substituteLeaves(state.b, [...w.values()], (leaf) =>
            leaf.op === 'input' ? slot.get(leaf.name!) : undefined,
          );
          return new Map(keys.map((k, i) => [k, values[i]!]));
        });
        state.commitByLane(rewritten, (_name, values) => byLane(values));
        state.flush();
      };
      if (indices.size === 0) return run();
      const index = [...indices][0]!;
      state.flush();
      used.add(vgprName(index));
      line(`xword[xw + lane] = ${vgprName(index)};`);
      split(endOf(d), run, []);
    };

    /** v_readlane / v_readfirstlane (a sync point: the wave's VGPR words are exchanged), v_writelane, v_swap. */
    const waveLevel = (d: DecodedInstruction): void => {
      const inst = d.inst;
      if (WAVE_EACH_LANE.has(inst.def.name)) return laneWise(d);
      if (!WAVE_TRANSLATED.has(inst.def.name))
        throw new SemanticsRefusal(inst.def.name, 'this wave-level instruction is not translated yet');
      let index = -1;
      state.probe(() => {
        state.exchange = {
          read(i) {
            index = i;
            return state.b.word(0);
          },
        };
        try {
          runWave(state.b, target, inst, state);
        } finally {
          state.exchange = undefined;
        }
      });
      if (index < 0) {
        runWave(state.b, target, inst, state);
        state.checkPending();
        return;
      }
      state.flush();
      used.add(vgprName(index));
      line(`xword[xw + lane] = ${vgprName(index)};`);
      split(
        endOf(d),
        () => {
          state.exchange = {
            read(i, lane) {
              if (i !== index) throw new SemanticsRefusal(inst.def.name, 'reads two VGPRs of other lanes');
              const l = state.seg.value(lane);
              return state.seg.bindWord(`xword[xw + (${l} & ${lanes - 1}u)]`, 'x');
            },
          };
          try {
            runWave(state.b, target, inst, state);
          } finally {
            state.exchange = undefined;
          }
          state.flush();
        },
        [],
      );
    };

    /**
     * A memory instruction: its requests go to the memory service (one place in the module that
     * reaches memory), and its results are written in the block the service returns to.
     */
    const memory = (d: DecodedInstruction, f: (req: Requests) => void): void => {
      // Registers first: the requests and the results' block then share no pending values.
      state.flush();
      if (queued > 0) {
        // Room in the queue for this instruction's requests after the stores already waiting?
        const counted = new Requests(state, queued);
        try {
          state.dryRun(() => f(counted));
        } catch {
          // The real run below reports it.
        }
        if (queued + counted.items.length > QUEUED_REQUESTS) serveQueue(program.base + d.inst.offset);
      }
      const req = new Requests(state, queued);
      f(req);
      state.checkPending();
      if (req.items.length === 0) return;
      if (req.items.length > MAX_REQUESTS)
        throw new MemoryRefusal(
          `${req.items.length} lane accesses in one instruction (the service takes ${MAX_REQUESTS})`,
        );
      for (const r of req.items) {
        memoryPaths.add(memoryPath(r));
        if (r.kind !== 'load' && r.kind !== 'store') atomics.add(r.kind);
      }
      req.issue();
      queued += req.items.length;
      // Stores wait in the queue (nothing reads memory before the next load, sync point or the
      // block's end sends it); an instruction with results goes to the service now.
      if (req.answered) serveQueue(endOf(d));
    };

    /** Sends the queued requests to the memory service; the code after it goes on at byte `address`. */
    const serveQueue = (address: number): void => {
      if (queued === 0) return;
      // Pending register writes go on with the next block (an answered request's results are
      // written there, after the service: the segment's leaves stand for mres).
      const next = newBlock(address);
      line(`mret = ${next.id}u;`);
      line(`pc = ${MEMORY_SERVICE}u;`);
      cur.successors.add(next.id);
      state.continueIn(next.code);
      cur = next;
      state.flush();
      queued = 0;
    };

    /**
     * An image instruction: its request goes to the image service (image-ops.ts), its results are
     * written after it. An implicit LOD first takes its quad's words through the exchange, one sync
     * point a word (D024): every lane publishes, and phase B completes the request from its quad's.
     */
    const image = (d: DecodedInstruction, images: ImageInstructions): void => {
      serveQueue(program.base + d.inst.offset);
      state.flush();
      const issue = images.translate(state, d);
      state.checkPending();
      for (const step of issue.exchange) {
        state.flush();
        line(`xword[xw + lane] = ${step.publish};`);
        split(program.base + d.inst.offset, () => step.finish.forEach(line), []);
      }
      const next = newBlock(program.base + d.inst.offset + d.inst.size);
      line(`iret = ${next.id}u;`);
      line(`pc = ${IMAGE_SERVICE}u;`);
      cur.successors.add(next.id);
      state.continueIn(next.code);
      cur = next;
      issue.finish(state);
      state.flush();
    };

    /**
     * Whether SCC, after the instruction at `index` of the block, is written before anything reads
     * it: the later instructions of the block run as probes (SALU), VALU and no-ops never touch
     * it, anything else or the block's end counts as a read.
     */
    const sccDeadAfter = (index: number): boolean => {
      // At the end of the program SCC is dead unless the registers are written out.
      const deadAtEnd = options.registersOut !== true;
      for (const later of bb.instructions.slice(index + 1)) {
        if (later.kind === 'valu' || later.kind === 'nop' || vectorMemory(later) || later.kind === 'mimg') continue;
        if (later.kind === 'endpgm') return deadAtEnd;
        if (later.kind !== 'salu') return false;
        let touched: 'read' | 'written' | undefined;
        try {
          state.probe(() => {
            touched = state.sccTouch(() => runScalar(state.b, target, later.inst, state));
          });
        } catch {
          return false;
        }
        if (touched === 'read') return false;
        if (touched === 'written') return true;
      }
      return (bb.exit.kind === 'endpgm' || bb.exit.kind === 'return') && deadAtEnd;
    };

    /**
     * A scalar bitwise operation on a held mask (`s_or_b32 vcc_lo, vcc_hi, vcc_lo`, `s_mov_b32 s4,
     * exec_lo`), as wide as a mask, whose SCC (a whole-mask test) is dead: its result's own bit is
     * the operation on its sources' own bits, which is all a held word promises, so the result is
     * held too and no sync point is needed. False when it does not apply (the caller gathers).
     */
    const heldBitwise = (d: DecodedInstruction, index: number): boolean => {
      const inst = d.inst;
      const m = /^s_(mov|not|and|or|xor|andn2|orn2|nand|nor|xnor|and_not1|or_not1)_b(32|64)$/.exec(inst.def.name);
      if (!m || (m[2] === '64' ? 2 : 1) !== maskWords) return false;
      const sdst = inst.fields.sdst;
      if (sdst === undefined || sdst % maskWords !== 0) return false;
      // An SGPR, VCC or EXEC (vcc_hi too: a wave32 program may keep a mask there).
      if (!(sdst < SRC_VCC_LO + 2 || (sdst >= SRC_EXEC_LO && sdst < SRC_EXEC_LO + 2))) return false;
      state.ownBitReadWhole = false;
      try {
        state.probe(() => runScalar(state.b, target, inst, state));
      } catch {
        return false;
      }
      if (!state.ownBitReadWhole) return false;
      if (m[1] !== 'mov' && !sccDeadAfter(index)) return false;
      runScalar(state.b, target, inst, state);
      state.checkPending();
      if (!ownBitMasks.includes(sdst)) {
        if (ownBitMasks.length + 1 > maskRoom) gatherMasks(endOf(d));
        ownBitMasks.push(sdst);
      }
      for (let w = 0; w < maskWords; w++) state.ownBitWords.add(sgprName(sdst + w));
      return true;
    };

    /**
     * Whether a scalar instruction leaves the held masks alone: it reads none of their words, and
     * each held mask it writes it writes whole (that mask is then a wave-uniform value again, and
     * no longer held). Then it needs no gather.
     */
    const passesHeldMasks = (d: DecodedInstruction): boolean => {
      state.ownBitReadWhole = false;
      let writes: ReadonlySet<string>;
      try {
        writes = state.probe(() => runScalar(state.b, target, d.inst, state));
      } catch {
        return false;
      }
      if (state.ownBitReadWhole) return false;
      const overwritten = ownBitMasks.filter((code) =>
        Array.from({ length: maskWords }, (_, w) => writes.has(sgprName(code + w))).some(Boolean),
      );
      for (const code of overwritten)
        for (let w = 0; w < maskWords; w++) if (!writes.has(sgprName(code + w))) return false;
      for (const code of overwritten) {
        ownBitMasks.splice(ownBitMasks.indexOf(code), 1);
        for (let w = 0; w < maskWords; w++) state.ownBitWords.delete(sgprName(code + w));
      }
      return true;
    };

    /** The vector memory instruction's translation into `req` (buffer, global, flat, LDS), or null for any other. */
    const vectorMemoryRequests = (d: DecodedInstruction): ((req: Requests) => void) | null => {
      const at = program.base + d.inst.offset;
      switch (d.kind) {
        case 'mubuf':
          return (req) => translateMubuf(state, req, gen, d, options.discovery === true, options.traced, at);
        case 'global':
          return (req) => translateGlobal(state, req, gen, d);
        case 'flat':
          return (req) => translateFlat(state, req, gen, d, options.ldsBytes);
        case 'ds':
          return d.ds!.kind === 'swizzle' || d.ds!.kind === 'permute' || d.ds!.kind === 'bpermute'
            ? null
            : (req) => translateDs(state, req, gen, d, options.ldsBytes);
        default:
          return null;
      }
    };
    const vectorMemory = (d: DecodedInstruction): boolean => vectorMemoryRequests(d) !== null;

    /**
     * Whether a vector memory instruction reads a held mask other than for its lane's EXEC bit (an
     * SGPR operand that holds one): a dry run of its translation (`LaneState.dryRun`) tells. A
     * translation that refuses is left to the real run, after the gather, to report.
     */
    const readsHeldWhole = (d: DecodedInstruction): boolean => {
      const f = vectorMemoryRequests(d)!;
      state.ownBitReadWhole = false;
      try {
        state.dryRun(() => f(new Requests(state)));
      } catch {
        return true;
      }
      return state.ownBitReadWhole;
    };

    /**
     * Whether a wave-level instruction of WAVE_TRANSLATED reads no other lane's VGPR and no held
     * mask whole (v_swap_b32, v_writelane_b32 with uniform operands): a probe tells, and then it
     * runs with masks held as a plain VALU instruction does.
     */
    const laneLocal = (d: DecodedInstruction): boolean => {
      if (!WAVE_TRANSLATED.has(d.inst.def.name)) return false;
      let exchanged = false;
      state.ownBitReadWhole = false;
      try {
        state.probe(() => {
          state.exchange = {
            read() {
              exchanged = true;
              return state.b.word(0);
            },
          };
          try {
            runWave(state.b, target, d.inst, state);
          } finally {
            state.exchange = undefined;
          }
        });
      } catch {
        return false;
      }
      return !exchanged && !state.ownBitReadWhole;
    };

    for (const [index, d] of bb.instructions.entries()) {
      const inst = d.inst;
      // Where this instruction's statements begin (its register writes may wait for a later flush):
      // the app links each instruction to this line (src/ui/session.ts); comments cost no compile time.
      line(instructionMarker(program.base + inst.offset, inst.def.name));
      let held = false;
      if (d.kind === 'salu' && ownBitMasks.length > 0) {
        cur.steps++;
        if (heldBitwise(d, index)) continue;
        cur.steps--;
        held = passesHeldMasks(d);
      }
      // Only plain VALU instructions, vector memory ones that read no held mask whole (their lanes
      // read EXEC for their own bit) and those that read nothing run with masks held.
      const plainValu = d.kind === 'valu' && !waveSemanticsFor(inst.def) && !/_(DPP|DPP8)$/.test(inst.encoding);
      if (!held && ownBitMasks.length > 0 && vectorMemory(d)) held = !readsHeldWhole(d);
      if (!held && ownBitMasks.length > 0 && d.kind === 'valu' && waveSemanticsFor(inst.def)) held = laneLocal(d);
      if (!plainValu && !held && d.kind !== 'nop' && d.kind !== 'branch' && d.kind !== 'endpgm')
        gatherMasks(program.base + inst.offset);
      cur.steps++;
      state.nextAddress = program.base + inst.offset + inst.size;
      try {
        switch (d.kind) {
          case 'salu':
            runScalar(state.b, target, inst, state);
            state.checkPending();
            break;
          case 'valu':
            valu(d);
            break;
          case 'nop':
          case 'branch':
          case 'endpgm':
            break;
          case 'barrier':
            if (options.waves > 1) {
              state.flush();
              split(endOf(d), null, ['at_barrier = true;']);
            }
            break;
          case 'smem':
            memory(d, (req) => translateSmem(state, req, gen, d, options.traced, program.base + inst.offset));
            break;
          case 'mubuf':
          case 'global':
            memory(d, vectorMemoryRequests(d)!);
            break;
          case 'gpridx':
            throw new MemoryRefusal('the GPR index mode (s_set_gpr_idx_*) is not translated');
          case 'flat':
            memory(d, vectorMemoryRequests(d)!);
            break;
          case 'scratch':
            throw new MemoryRefusal('SCRATCH (private memory) is not translated yet');
          case 'ds':
            if (d.ds!.kind === 'swizzle' || d.ds!.kind === 'permute' || d.ds!.kind === 'bpermute') laneExchange(d);
            else memory(d, vectorMemoryRequests(d)!);
            break;
          case 'mimg':
            // image-ops.ts (D015); without its translator (a bare translateProgram call) images are refused.
            if (!options.images) throw new MemoryRefusal('image instructions need the image translator (image-ops.ts)');
            image(d, options.images);
            break;
        }
      } catch (e) {
        if (e instanceof SemanticsRefusal)
          throw new TranslationRefusal(e.reason, program.base + inst.offset, inst.def.name);
        if (e instanceof MemoryRefusal || e instanceof LoweringRefusal)
          throw new TranslationRefusal(e.message, program.base + inst.offset, inst.def.name);
        throw e;
      }
    }

    // The block's exit reads the wave's registers whole (a branch on VCC or EXEC, the next block's
    // start, the registers written out after the end).
    const exit = bb.exit;
    const last = bb.instructions.at(-1);
    if (last) serveQueue(endOf(last));
    const ends = exit.kind === 'endpgm' || exit.kind === 'return';
    if (last && (!ends || options.registersOut === true)) gatherMasks(program.base + last.inst.offset);
    switch (exit.kind) {
      case 'endpgm':
      case 'return':
        state.flush();
        line('live = false;');
        line('halt = true;');
        break;
      case 'jump':
      case 'fall': {
        const to = blockFor(exit.kind === 'jump' ? exit.target : exit.next, state.mode);
        state.flush();
        line(`pc = ${to}u;`);
        cur.successors.add(to);
        break;
      }
      case 'branch': {
        const cond = state.seg.value(branchTaken(state, exit.name));
        const taken = blockFor(exit.taken, state.mode);
        const next = blockFor(exit.next, state.mode);
        state.flush();
        line(`if (${cond}) {`);
        line(`  pc = ${taken}u;`);
        line('} else {');
        line(`  pc = ${next}u;`);
        line('}');
        cur.successors.add(taken);
        cur.successors.add(next);
        break;
      }
    }
    for (const r of state.used) used.add(r);
    for (const r of state.written) written.add(r);
  };

  const entry = blockFor(cfg.entry, options.mode);
  while (queue.length > 0) translateBlock(cfg.blocks.get(queue.shift()!)!);
  const instructions = [...cfg.blocks.values()].reduce((n, b) => n + b.instructions.length, 0);
  return { target, blocks, entry, used, written, atomics, memoryPaths, instructions };
}

/** Whether a conditional branch is taken, from the wave's SCC, VCC or EXEC (as the interpreter's `taken`). */
function branchTaken(s: LaneState, name: string): Expr {
  const a = s.b;
  const zero = (lo: number): Expr => {
    const z = a.eq(s.readSgpr(lo), a.word(0));
    return s.lanes === 32 ? z : a.boolAnd(z, a.eq(s.readSgpr(lo + 1), a.word(0)));
  };
  switch (name) {
    case 's_cbranch_scc0':
      return a.boolNot(s.readScc());
    case 's_cbranch_scc1':
      return s.readScc();
    case 's_cbranch_vccz':
      return zero(SRC_VCC_LO);
    case 's_cbranch_vccnz':
      return a.boolNot(zero(SRC_VCC_LO));
    case 's_cbranch_execz':
      return zero(SRC_EXEC_LO);
    default:
      return a.boolNot(zero(SRC_EXEC_LO));
  }
}
