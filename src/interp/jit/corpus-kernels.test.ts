/**
 * Every corpus kernel capture (test/corpus-kernels) run twice on the interpreter, with the
 * compiled ALU (D014) and without it: the two runs must end the same way (the same refusal, or
 * the same steps and lane-operations), leave every byte of every guest range the same, and
 * leave the last wave's registers the same. Pairs that run also report how many instructions
 * were compiled, so a compiler that silently compiles nothing fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCapture, readCapture, writeCapture, type Capture } from '../../host/capture/index.ts';
import { parseAddress } from '../../host/capture/index.ts';
import { runSetup, setupFromCapture } from '../dispatch.ts';
import { GuestMemory } from '../memory.ts';
import { loadVectorBridge } from '../vector-bridge.ts';
import { KERNELS } from '../../../test/corpus-kernels/kernels.ts';
import { TARGETS } from '../../../test/corpus-kernels/targets.ts';
import type { Spec } from '../../../test/corpus-kernels/common.ts';

const CODE = join(import.meta.dirname, '../../../test/corpus-kernels/code');

async function captureOf(spec: Spec): Promise<Pick<Capture, 'manifest' | 'blob'>> {
  const built = await buildCapture(spec, { readFile: (p: string) => readFileSync(join(CODE, p)) });
  return readCapture(await writeCapture(built.manifest, built.blobs));
}

interface Run {
  readonly outcome: string;
  readonly ranges: readonly (Uint8Array | undefined)[];
  readonly sgpr?: Uint32Array;
  readonly vgpr?: Uint32Array;
  readonly scc?: boolean;
  readonly compiled: number;
}

async function run(capture: Pick<Capture, 'manifest' | 'blob'>, compiled: boolean): Promise<Run> {
  const memory = GuestMemory.fromCapture(capture);
  const vector = await loadVectorBridge();
  let outcome: string;
  let last;
  let count = 0;
  try {
    const setup = setupFromCapture(capture, memory);
    const r = runSetup(setup, memory, { vector, compiled });
    outcome = `ran: ${r.steps} steps, ${r.laneOps} lane-operations, ${r.waves} waves`;
    last = r.lastWave;
    count = r.compiledInstructions ?? 0;
  } catch (e) {
    outcome = `threw ${(e as Error).name}: ${(e as Error).message}`;
  }
  const ranges = capture.manifest.memory.map((m) => {
    const size = m.size ?? 0;
    const bytes = memory.peek(Number(parseAddress(m.address)), size);
    return bytes?.slice();
  });
  return { outcome, ranges, sgpr: last?.sgpr.slice(), vgpr: last?.vgpr.slice(), scc: last?.scc, compiled: count };
}

function firstDifference(a: Uint8Array | undefined, b: Uint8Array | undefined): string | undefined {
  if (a === undefined || b === undefined) return a === b ? undefined : 'one run has the range, the other not';
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `byte ${i}: ${a[i]} compiled, ${b[i]} shared`;
  return undefined;
}

describe('corpus kernels: the compiled ALU leaves exactly what the shared path leaves', () => {
  let ran = 0;
  let compiledTotal = 0;
  for (const k of KERNELS)
    for (const t of TARGETS) {
      const spec = k.spec(t);
      if (spec === undefined) continue;
      it(`${k.id} ${t.name}`, async () => {
        const capture = await captureOf(spec);
        const on = await run(capture, true);
        const off = await run(capture, false);
        expect(on.outcome).toBe(off.outcome);
        const diffs = on.ranges
          .map((r, i) => [capture.manifest.memory[i]!.address, firstDifference(r, off.ranges[i])] as const)
          .filter(([, d]) => d !== undefined);
        expect(diffs).toEqual([]);
        expect(on.sgpr).toEqual(off.sgpr);
        expect(on.vgpr).toEqual(off.vgpr);
        expect(on.scc).toBe(off.scc);
        if (on.outcome.startsWith('ran')) {
          ran++;
          compiledTotal += on.compiled;
          expect(on.compiled).toBeGreaterThan(0);
        }
      });
    }
  it('ran kernels with compiled instructions', () => {
    console.log(`${ran} kernel runs, ${compiledTotal} instructions compiled`);
    expect(ran).toBeGreaterThan(100);
  });
});
