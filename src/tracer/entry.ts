/**
 * What the wave holds when the program starts, for the tracer: which SGPRs are user-data words
 * (COMPUTE_USER_DATA_n, with their values when a capture gives them), which the hardware sets
 * per group (work-group ids, the thread-group word, the scratch offset), and what the VGPRs mean.
 * From a capture this is the dispatch's own setup (`src/interp/dispatch.ts`, the same rule the
 * interpreter starts waves with); for bare code it is an assumption the result states.
 */
import { Gen } from '../isa/gen.ts';
import { scalarRegName } from '../isa/operands.ts';
import { waveLayout, type Setup } from '../interp/dispatch.ts';
import type { Origin } from './values.ts';

export interface EntrySgpr {
  readonly origin: Origin;
  /** What it holds, in words. */
  readonly text: string;
}

export interface EntryState {
  readonly sgprs: ReadonlyMap<number, EntrySgpr>;
  /** What the VGPRs mean at entry, by index (others: "a value at entry"). */
  readonly vgprs: ReadonlyMap<number, string>;
  /** Guest address of the code's first byte, when known (s_getpc_b64 folds then). */
  readonly codeBase?: number;
  /** What was assumed rather than read from a capture. */
  readonly assumptions: readonly string[];
}

const hexWord = (v: number): string => `0x${(v >>> 0).toString(16)}`;

/**
 * Bare code: the first `userSgprs` SGPRs are taken as user-data words 0.. (the LLVM kernels' inreg
 * arguments and RADV's user SGPRs start there), every VGPR is a value at entry.
 */
export function assumedEntry(userSgprs = 16): EntryState {
  const sgprs = new Map<number, EntrySgpr>();
  for (let i = 0; i < userSgprs; i++)
    sgprs.set(i, { origin: { kind: 'user-data', index: i }, text: `user-data word ${i}` });
  return {
    sgprs,
    vgprs: new Map(),
    assumptions: [
      `no capture: s0..s${userSgprs - 1} are taken as user-data words 0..${userSgprs - 1}, the VGPRs as values at entry`,
    ],
  };
}

/** The entry a capture's dispatch (or program invocation) gives; `codeBase` is the guest address of the code's byte 0. */
export function entryFromSetup(setup: Setup, codeBase: number): EntryState {
  const gen = setup.target.gen;
  const sgprs = new Map<number, EntrySgpr>();
  const reg = (code: number): string => scalarRegName(gen, code, 1) ?? `s${code}`;
  if (setup.kind === 'program') {
    setup.sgprs.forEach((value, code) =>
      sgprs.set(code, {
        origin: { kind: 'initial', register: reg(code), value: value >>> 0 },
        text: `${hexWord(value)}, as the capture gives it`,
      }),
    );
    return { sgprs, vgprs: new Map(), codeBase, assumptions: [] };
  }
  const layout = waveLayout(setup);
  for (const s of layout.sgprs) {
    switch (s.kind) {
      case 'user': {
        const index = s.code;
        sgprs.set(s.code, {
          origin: { kind: 'user-data', index, value: s.value },
          text: `user-data word ${index} (${hexWord(s.value)})`,
        });
        break;
      }
      case 'group-id': {
        const what = `work-group id ${'xyz'[s.axis]}`;
        sgprs.set(s.code, { origin: { kind: 'system', register: reg(s.code), what }, text: what });
        break;
      }
      case 'tg-size':
        sgprs.set(s.code, {
          origin: { kind: 'system', register: reg(s.code), what: 'thread-group info' },
          text: 'the thread-group info word',
        });
        break;
      case 'scratch-offset':
        sgprs.set(s.code, {
          origin: { kind: 'system', register: reg(s.code), what: 'scratch wave offset' },
          text: 'the scratch wave offset',
        });
        break;
    }
  }
  const vgprs = new Map<number, string>();
  if (gen >= Gen.GFX11) vgprs.set(0, 'the thread id (x | y << 10 | z << 20)');
  else ['x', 'y', 'z'].slice(0, layout.tidig + 1).forEach((axis, i) => vgprs.set(i, `the thread id ${axis}`));
  return { sgprs, vgprs, codeBase, assumptions: [] };
}
