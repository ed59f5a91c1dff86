/**
 * The translator's machine state (D011): one symbolic lane that stands for every lane of the
 * wave. Registers are the WGSL variables of the invocation (its VGPRs and its private copy of the
 * wave's SGPRs, SCC, VCC, EXEC, M0); reading one gives its pending value or a leaf of the current
 * segment, writing one records a pending value, and `flush` assigns the pending values and starts
 * a new segment. The shared semantics (src/semantics) run against this state with the expression
 * algebra, so every instruction's meaning comes from its one definition.
 *
 * VGPR writes are predicated by this lane's EXEC bit (inactive lanes keep their value), except
 * where the instruction writes a lane it names (v_writelane). The lane's own index is the leaf
 * `lane`. A per-lane function runs once as lane 0 and, in a wave64, again as lane 32 from the
 * same state (`runAsLanes`): the contexts pick the lane-mask word by that number, and the results
 * are merged by `lane < 32` (identical results fold to one). MODE is known at translation time.
 */
import { Gen, type Target } from '../isa/gen.ts';
import { nullCode, SRC_EXEC_LO } from '../isa/operands.ts';
import type { FloatMode, Pair } from '../semantics/algebra.ts';
import { SemanticsRefusal } from '../semantics/context.ts';
import type { Expr } from '../semantics/expr.ts';
import type { VectorState } from '../semantics/lane-context.ts';
import { floatModeOf, HW_REG_MODE } from '../semantics/mode.ts';
import { apertureWord } from '../interp/flat.ts';
import { VGPR_COUNT } from '../interp/wave.ts';
import { Segment } from './wgsl/segment.ts';

export const sgprName = (code: number): string => `s${code}`;
export const vgprName = (index: number): string => `v${index}`;
export const SCC = 'scc';
/** The leaf of this lane's index in its wave. */
export const LANE = 'lane';

/** Reads of other lanes' VGPRs, as the state answers them (a wave-level instruction's exchange). */
export interface LaneExchange {
  /** The value of VGPR `index` in the lane `lane` names (a word of this segment). */
  read(index: number, lane: Expr): Expr;
}

export class LaneState implements VectorState<Expr, Expr> {
  readonly lanes: 32 | 64;
  /** Pending register values by name, in the order first written. */
  private pending = new Map<string, Expr>();
  /** A per-lane function's own writes while it runs (`runAsLanes`). */
  private overlay: Map<string, Expr> | null = null;
  /** A per-lane function runs as lane 32 (`runAsLanes`). */
  private asHighHalf = false;
  /** A wave-level function that loops over the lanes runs as this lane (`runAsEachLane`). */
  private asLane: number | undefined;
  /** Every register the program reads or writes (the module declares these). */
  readonly used = new Set<string>();
  /** Every register the program writes. */
  readonly written = new Set<string>();
  /** MODE as a number (known at translation time). */
  mode: number;
  /** Byte address of the instruction after the one running (s_getpc_b64). */
  nextAddress = 0;
  /** A condition besides EXEC under which this lane's VGPR writes land (DPP's row/bank masks and bound_ctrl); absent: none. */
  writePredicate: Expr | undefined;
  /** How other lanes' VGPRs are read, while a wave-level instruction runs; absent: refused. */
  exchange: LaneExchange | undefined;
  seg: Segment;
  private segments = 0;
  /**
   * SGPR words that hold a lane mask as this lane's own bit only (0 elsewhere): a VALU mask write
   * no instruction has read whole yet (program.ts gathers the wave's mask when one does, D011).
   */
  readonly ownBitWords = new Set<string>();
  /** Set when an instruction reads one of `ownBitWords` other than for this lane's bit. */
  ownBitReadWhole = false;
  /** What an instruction did to SCC first, while `sccTouch` watches. */
  private sccSeen: 'read' | 'written' | undefined;
  /**
   * gfx10 wave64 shared VGPRs v[from, to) (RSRC3.SHARED_VGPR_CNT): one register for lanes L and
   * L ^ 32. Each lane keeps its own copy and program.ts keeps the pair's copies equal: only the
   * instructions it runs half by half may write one (`sharedWrites`), any other write is refused.
   */
  sharedVgprs: { readonly from: number; readonly to: number } | undefined;
  /** While set, shared VGPR writes are recorded here instead (a probe of what an instruction writes). */
  sharedWriteLog: Set<number> | undefined;
  /** While true, shared VGPR writes are allowed (program.ts runs the instruction half by half). */
  sharedWrites = false;
  /**
   * While set, the shared VGPRs written (each with the condition it is written under) and read:
   * a sync instruction's finish, whose lanes' writes program.ts merges afterwards.
   */
  sharedAccess: { readonly written: Map<number, Expr>; readonly read: Set<number> } | undefined;

  constructor(
    readonly target: Target,
    mode: number,
    private readonly prefix: string,
    private out: string[],
    private readonly indent: string,
    /** Registers that hold one known value wherever the program reads them (user SGPRs it never writes). */
    private readonly constants: ReadonlyMap<string, number> = new Map(),
  ) {
    this.lanes = target.wave64 ? 64 : 32;
    this.mode = mode;
    this.seg = this.newSegment();
  }

  private newSegment(): Segment {
    return new Segment(`${this.prefix}_${this.segments++}_`, this.out, this.indent);
  }

  /** Points the statements written from now on at `out` (another block's code), in a new segment. */
  retarget(out: string[]): void {
    if (this.pending.size > 0) throw new Error('retarget with pending register writes: flush first');
    this.out = out;
    this.seg = this.newSegment();
  }

  /** Goes on in `out` with the same segment and pending writes (`Segment.rescope`). */
  continueIn(out: string[]): void {
    this.out = out;
    this.seg.rescope(out);
  }

  /** Runs `f` and forgets every register it wrote (a probe of what an instruction reads); the names it wrote. */
  probe(f: () => void): ReadonlySet<string> {
    const saved = this.overlay;
    const overlay = new Map<string, Expr>();
    this.overlay = overlay;
    try {
      f();
    } finally {
      this.overlay = saved;
    }
    return new Set(overlay.keys());
  }

  /**
   * Runs `f` as a probe that writes no statement either (`Segment.dry`): whether an instruction's
   * translation reads a held mask whole (`ownBitReadWhole`) before its code is written.
   */
  dryRun(f: () => void): void {
    const seg = this.seg;
    this.probe(() => seg.dry(f));
    if (this.seg !== seg) throw new Error('a dry run changed segment: it may not flush');
  }

  get b(): Segment['b'] {
    return this.seg.b;
  }

  private get(name: string, bool = false): Expr {
    const v = this.overlay?.get(name) ?? this.pending.get(name);
    if (v) return v;
    const known = this.constants.get(name);
    if (known !== undefined) return this.b.word(known);
    this.used.add(name);
    return bool ? this.seg.bool(name) : this.seg.word(name);
  }

  private set(name: string, value: Expr): void {
    if (this.constants.has(name)) throw new Error(`${name} is written, so it cannot be a constant`);
    this.used.add(name);
    this.written.add(name);
    if (this.overlay) this.overlay.set(name, value);
    else {
      this.pending.delete(name);
      this.pending.set(name, value);
    }
  }

  /** Assigns every pending register (their values first, so no assignment sees another's) and starts a new segment. */
  flush(): void {
    const values = [...this.pending].map(([name, e]) => {
      const text = this.seg.value(e);
      if (/^(s|v)\d+$|^scc$/.test(text) && text !== name) {
        const snap = this.seg.freshName('r');
        this.seg.line(`let ${snap} = ${text};`);
        return [name, snap] as const;
      }
      return [name, text] as const;
    });
    for (const [name, text] of values) if (text !== name) this.seg.line(`${name} = ${text};`);
    this.pending = new Map();
    this.seg = this.newSegment();
  }

  /** Lowers every pending value (so a lowering refusal names the instruction that wrote it). */
  checkPending(): void {
    for (const e of this.pending.values()) this.seg.check(e);
  }

  /** This lane's index as a word. */
  laneIndex(): Expr {
    return this.seg.word(LANE);
  }

  /** This lane's EXEC bit. */
  execBit(): Expr {
    return this.execBitOf(this.laneIndex(), true);
  }

  /** The EXEC bit of the lane a word names (lane < wave size). */
  execBitOf(lane: Expr, own = false): Expr {
    const a = this.b;
    const read = (code: number): Expr => (own ? this.readLaneMaskWord(code) : this.readSgpr(code));
    const lo = read(SRC_EXEC_LO);
    const word = this.lanes === 64 ? a.select(a.ltU(lane, a.word(32)), lo, read(SRC_EXEC_LO + 1)) : lo;
    return a.toBool(a.and(a.lshr(word, lane), a.word(1)));
  }

  /**
   * Runs a per-lane function as lane 0 and, in a wave64, as lane 32, from the same state, and
   * merges what they wrote by the lane's half. `run` returns what it gathered for its lane
   * (lane-mask bits); those are merged the same way.
   */
  runAsLanes(run: (lane: number) => ReadonlyMap<number, Expr>): Map<number, Expr> {
    const lanes = this.lanes === 64 ? [0, 32] : [0];
    const writes: Map<string, Expr>[] = [];
    const bits: ReadonlyMap<number, Expr>[] = [];
    // Inside a probe the merged writes go back to the probe's overlay, not to the pending values.
    const outer = this.overlay;
    for (const lane of lanes) {
      this.overlay = new Map(outer ?? []);
      this.asHighHalf = lane === 32;
      try {
        bits.push(run(lane));
        writes.push(this.overlay);
      } finally {
        this.overlay = outer;
        this.asHighHalf = false;
      }
    }
    if (lanes.length === 1) {
      for (const [k, v] of writes[0]!) this.set(k, v);
      return new Map(bits[0]);
    }
    const a = this.b;
    const low = a.ltU(this.laneIndex(), a.word(32));
    const names = new Set([...writes[0]!.keys(), ...writes[1]!.keys()]);
    for (const k of names) {
      const bool = k === SCC;
      const lo = writes[0]!.get(k) ?? this.get(k, bool);
      const hi = writes[1]!.get(k) ?? this.get(k, bool);
      this.set(k, bool ? a.boolOr(a.boolAnd(low, lo), a.boolAnd(a.boolNot(low), hi)) : a.select(low, lo, hi));
    }
    const merged = new Map<number, Expr>();
    for (const code of new Set([...bits[0]!.keys(), ...bits[1]!.keys()])) {
      const lo = bits[0]!.get(code) ?? a.bool(false);
      const hi = bits[1]!.get(code) ?? a.bool(false);
      merged.set(code, lo === hi ? lo : a.boolOr(a.boolAnd(low, lo), a.boolAnd(a.boolNot(low), hi)));
    }
    return merged;
  }

  /**
   * Runs a wave-level function that loops over the lanes itself (v_permlane16/x16/64) once as
   * each lane L of the wave: lane L is then this lane (its own VGPRs, its EXEC bit), and reading
   * another lane's VGPR goes to the exchange as a read of that lane. What each run wrote comes
   * back by lane, unapplied; `commitByLane` merges them.
   */
  runAsEachLane(run: (lane: number) => void): Map<string, Expr>[] {
    const saved = this.overlay;
    const writes: Map<string, Expr>[] = [];
    try {
      for (let lane = 0; lane < this.lanes; lane++) {
        this.overlay = new Map();
        this.asLane = lane;
        run(lane);
        writes.push(this.overlay);
      }
    } finally {
      this.overlay = saved;
      this.asLane = undefined;
    }
    return writes;
  }

  /**
   * Writes each register some lane's run wrote (`runAsEachLane`): `merge` gets its value in every
   * lane (the register's own where that lane's run left it) and gives the one value for this lane.
   */
  commitByLane(writes: readonly Map<string, Expr>[], merge: (name: string, byLane: Expr[]) => Expr): void {
    const names = [...new Set(writes.flatMap((w) => [...w.keys()]))].sort();
    const merged = names.map((name) => {
      if (name === SCC) throw new SemanticsRefusal('SCC', 'written by a wave-level instruction run as each lane');
      return [
        name,
        merge(
          name,
          writes.map((w) => w.get(name) ?? this.get(name)),
        ),
      ] as const;
    });
    for (const [name, value] of merged) this.set(name, value);
  }

  // ---- ScalarState
  readSgpr(code: number): Expr {
    const name = sgprName(code);
    if (this.ownBitWords.has(name)) this.ownBitReadWhole = true;
    return this.get(name);
  }
  /** A lane-mask word read for this lane's bit only (VectorState.readLaneMaskWord). */
  readLaneMaskWord(code: number): Expr {
    return this.get(sgprName(code));
  }
  writeSgpr(code: number, value: Expr): void {
    this.set(sgprName(code), value);
  }
  readScc(): Expr {
    if (this.sccSeen === undefined) this.sccSeen = 'read';
    return this.get(SCC, true);
  }
  writeScc(value: Expr): void {
    if (this.sccSeen === undefined) this.sccSeen = 'written';
    this.set(SCC, value);
  }
  /** What `f` does to SCC first: reads it, writes it, or neither (program.ts's SCC liveness). */
  sccTouch(f: () => void): 'read' | 'written' | undefined {
    const saved = this.sccSeen;
    this.sccSeen = undefined;
    try {
      f();
      return this.sccSeen;
    } finally {
      this.sccSeen = saved;
    }
  }
  nextPc(): Pair<Expr> {
    const a = this.nextAddress;
    return [this.b.word(a % 2 ** 32), this.b.word(Math.floor(a / 2 ** 32))];
  }
  aperture(code: number): Expr {
    return this.b.word(apertureWord(code));
  }
  readHwReg(id: number): Expr {
    if (id !== HW_REG_MODE)
      throw new SemanticsRefusal('hwreg', `hardware register ${id} is not modelled (only HW_REG_MODE)`);
    return this.b.word(this.mode);
  }
  writeHwReg(id: number, value: Expr): void {
    if (id !== HW_REG_MODE)
      throw new SemanticsRefusal('hwreg', `hardware register ${id} is not modelled (only HW_REG_MODE)`);
    if (value.op !== 'const')
      throw new SemanticsRefusal(
        'MODE',
        'written with a value not known at translation time (the translator needs MODE)',
      );
    this.mode = value.value! >>> 0;
  }

  // ---- VectorState
  floatMode(): FloatMode {
    const m = floatModeOf(this.mode);
    if (typeof m === 'string') throw new SemanticsRefusal('MODE', m);
    return m;
  }
  /**
   * Lane 0 is this lane; so is lane 32 while a per-lane function runs as the wave64's high half
   * (`runAsLanes`). A wave-level function, which loops over the lanes itself, sees only lane 0.
   */
  active(lane: number): boolean {
    if (this.asLane !== undefined) return lane === this.asLane;
    return lane === 0 || (lane === 32 && this.asHighHalf);
  }
  private ownLane(lane: number, what: string): void {
    if (!this.active(lane))
      throw new SemanticsRefusal(what, `reads or writes lane ${lane} of another lane: not translated`);
  }
  readVgpr(index: number, lane: number): Expr {
    // Run as each lane, another lane's VGPR is the exchange's (v_permlane64's copy of S0).
    if (this.asLane !== undefined && lane !== this.asLane && this.exchange)
      return this.exchange.read(index, this.b.word(lane));
    this.ownLane(lane, 'VGPR access');
    if (index >= VGPR_COUNT) throw new SemanticsRefusal('VGPR access', `v${index} is beyond v${VGPR_COUNT - 1}`);
    if (this.sharedAccess && this.isSharedVgpr(index)) this.sharedAccess.read.add(index);
    return this.get(vgprName(index));
  }
  /** Whether v`index` is a shared VGPR (gfx10 wave64). */
  isSharedVgpr(index: number): boolean {
    return this.sharedVgprs !== undefined && index >= this.sharedVgprs.from && index < this.sharedVgprs.to;
  }
  /** A write of a shared VGPR: recorded by a probe, allowed in a half-by-half run, refused elsewhere. */
  private sharedWrite(index: number, condition: Expr): void {
    if (!this.isSharedVgpr(index)) return;
    if (this.sharedWriteLog) this.sharedWriteLog.add(index);
    else if (this.sharedAccess) this.sharedAccess.written.set(index, condition);
    else if (!this.sharedWrites)
      throw new SemanticsRefusal(
        'shared VGPR',
        `v${index} is a gfx10 wave64 shared VGPR (RSRC3.SHARED_VGPR_CNT); only a per-lane VALU instruction without lane-mask results may write one here`,
      );
  }
  writeVgpr(index: number, lane: number, value: Expr): void {
    this.ownLane(lane, 'VGPR access');
    if (index >= VGPR_COUNT) throw new SemanticsRefusal('VGPR access', `v${index} is beyond v${VGPR_COUNT - 1}`);
    const old = this.get(vgprName(index));
    const active = this.writePredicate ? this.b.boolAnd(this.execBit(), this.writePredicate) : this.execBit();
    this.sharedWrite(index, active);
    this.set(vgprName(index), this.b.select(active, value, old));
  }
  readVgprOfLane(index: number, lane: Expr): Expr {
    if (!this.exchange) throw new SemanticsRefusal('cross-lane read', 'reading another lane here is not translated');
    return this.exchange.read(index, lane);
  }
  /** v_writelane: the lane the word names takes the value, whatever EXEC says. */
  writeVgprOfLane(index: number, lane: Expr, value: Expr): void {
    const a = this.b;
    this.sharedWrite(index, a.eq(this.laneIndex(), lane));
    const old = this.get(vgprName(index));
    this.set(vgprName(index), a.select(a.eq(this.laneIndex(), lane), value, old));
  }
  laneWord(): Expr {
    return this.laneIndex();
  }
}

/** Whether a lane-mask destination code is written at all (gfx8+ null discards it). */
export function writesMask(target: Target, code: number): boolean {
  return !(target.gen >= Gen.GFX8 && code === nullCode(target.gen));
}
