/**
 * Descriptor words known at translation time through the tracer (D012): a V# an instruction
 * reads from SGPRs the program loaded (s_load from a descriptor set in user data, say) has, at
 * that instruction, a traced value whose leaves are the dispatch's start values and scalar loads
 * at places themselves known; run on the concrete algebra over the capture's memory, it gives the
 * words the dispatch starts with. The translator then uses those words (a buffer format access's
 * format) and the module checks at the access that the registers hold them (a fault, reported as
 * a refused result, when the dispatch wrote the memory they came from): nothing is guessed.
 *
 * One TracedWords serves a whole translation (translate.ts builds it once, so the program is
 * traced once): MUBUF's V# here, and image-ops.ts's T#s and S#s (D015) through `valueOf`.
 */
import { concrete } from '../semantics/concrete.ts';
import { evaluateExpr, type Expr } from '../semantics/expr.ts';
import { add64 } from '../semantics/wide.ts';
import { bufferRsrc, pointer48, sBufferDwordInRange } from '../interp/buffer-ops.ts';
import type { Setup } from '../interp/dispatch.ts';
import type { Program } from '../interp/execute.ts';
import type { GuestMemory } from '../interp/memory.ts';
import { entryFromSetup } from '../tracer/entry.ts';
import { codeAddress } from '../tracer/ids.ts';
import { traceProgram, type TraceResult } from '../tracer/trace.ts';
import { exprText } from '../tracer/values.ts';

/** A leaf the host cannot know before the dispatch (internal to `valueOf`). */
class UnknownAtTranslation extends Error {}

/** What s[first..] hold at an instruction: the words, or why one is not known. */
export type TracedDescriptor =
  { readonly kind: 'known'; readonly words: readonly number[] } | { readonly kind: 'unknown'; readonly reason: string };

/**
 * How a scalar load's word the capture lacks is treated: `unknown` (the word is not known at
 * translation, and the module compares nothing), or `fault` (a GuestFault: the capture does not
 * hold what the dispatch reads; an image's T# must be read).
 */
export type MissingWord = 'unknown' | 'fault';

export class TracedWords {
  private trace: TraceResult | undefined;
  private readonly leafValues = new Map<string, number>();

  constructor(
    private readonly program: Program,
    private readonly setup: Setup,
    private readonly memory: GuestMemory,
  ) {}

  /** The program's trace (D012), made once. */
  traced(): TraceResult {
    if (!this.trace) {
      const range = this.memory.rangeAt(this.program.base);
      this.trace = traceProgram(this.program.target, range.bytes, {
        entry: this.program.entry,
        ...(this.program.end === undefined ? {} : { end: this.program.end }),
        entryState: entryFromSetup(this.setup, range.address),
      });
    }
    return this.trace;
  }

  /** SGPRs first..first+n-1 before the instruction at byte `offset` of the program. */
  at(offset: number, first: number, n: number): TracedDescriptor {
    const before = this.traced().before.get(codeAddress(offset));
    const words: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = before?.sgpr[first + i];
      if (!t) return { kind: 'unknown', reason: `s${first + i} is not traced here` };
      const v = this.valueOf(t.expr, 'unknown');
      if (v === undefined)
        return {
          kind: 'unknown',
          reason: `s${first + i} is not known at translation time (it is ${exprText(t.expr, this.traced().leaves)})`,
        };
      words.push(v);
    }
    return { kind: 'known', words };
  }

  /**
   * A traced value at translation time: its expression run on the concrete algebra, its leaves
   * the values the dispatch starts with (user data, a program capture's registers) and scalar
   * loads at places themselves known, read from guest memory as the SMEM rules (buffer-ops.ts)
   * address them; undefined where a leaf (a lane's value, a join, a system value) is not known
   * before the dispatch. `missing` says what a word the capture lacks is.
   */
  valueOf(e: Expr, missing: MissingWord): number | undefined {
    const leaves = this.traced().leaves;
    const gen = this.program.target.gen;
    const word = (name: string): number => {
      const hit = this.leafValues.get(name);
      if (hit !== undefined) return hit;
      const o = leaves.origin(leaves.builder.input(name));
      let v: number | undefined;
      switch (o?.kind) {
        case 'user-data':
        case 'initial':
          v = o.value;
          break;
        case 'scalar-load': {
          const base = o.base.map((b) => this.valueOf(b.expr, missing));
          const offset = this.valueOf(o.offset.expr, missing);
          if (offset === undefined || base.some((b) => b === undefined)) break;
          const words = base as number[];
          if (o.through === 'address') {
            const [lo, hi] = add64(concrete, pointer48(concrete, words[0]!, words[1]!), [offset, 0]);
            v = this.word(hi * 2 ** 32 + ((lo & ~3) >>> 0) + 4 * o.dword, missing);
          } else {
            const r = bufferRsrc(concrete, gen, words);
            if (!sBufferDwordInRange(concrete, r, offset, o.dword)) v = 0;
            else {
              const [lo, hi] = add64(concrete, r.base, [((offset & ~3) >>> 0) + 4 * o.dword, 0]);
              v = this.word(hi * 2 ** 32 + lo, missing);
            }
          }
          break;
        }
        default:
          break;
      }
      if (v === undefined) throw new UnknownAtTranslation();
      this.leafValues.set(name, v >>> 0);
      return v >>> 0;
    };
    try {
      return evaluateExpr([e], {
        word,
        bool: () => {
          throw new UnknownAtTranslation();
        },
      })[0] as number;
    } catch (x) {
      if (x instanceof UnknownAtTranslation) return undefined;
      throw x;
    }
  }

  /** A word of the capture's memory; where the capture does not hold it, not known or a GuestFault (`missing`). */
  private word(address: number, missing: MissingWord): number {
    const b = missing === 'fault' ? this.memory.read(address, 4) : this.memory.peek(address, 4);
    if (!b) throw new UnknownAtTranslation();
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }
}
