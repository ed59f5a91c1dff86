/**
 * The compiled ALU (D014) against the shared semantics on the concrete algebra: every scalar
 * and vector ALU instruction of the LLVM corpus (up to a few rows of each name, every
 * generation; gfx10.3 and gfx11 in wave32 and wave64), compiled for three MODE values, run on
 * random edge-heavy registers under a random partial EXEC over all 32 or 64 lanes, must leave
 * the wave's SGPRs, VGPRs and SCC exactly as `runVector` / `runScalar` leave them. Where the
 * compiled function declines (no lane active and a lane-mask write), the shared path runs, as
 * the interpreter does. Runs of consecutive rows fused into one block (`compileBlock`) must leave
 * what running them one by one leaves, stop where one declines, and count the same lane-operations.
 */
import { describe, expect, it } from 'vitest';
import { decodeAt } from '../../isa/decoder.ts';
import { targetFor, type Target } from '../../isa/gen.ts';
import type { Instruction } from '../../isa/instruction.ts';
import type { FloatMode, Pair } from '../../semantics/algebra.ts';
import { concrete } from '../../semantics/concrete.ts';
import type { VectorState } from '../../semantics/lane-context.ts';
import { floatModeOf, MODE_WITHOUT_RSRC1 } from '../../semantics/mode.ts';
import { runScalar, SALU_FAMILIES } from '../../semantics/scalar.ts';
import { runVector, VALU_FAMILIES } from '../../semantics/vector.ts';
import { CORPUS_GENS, disasmRows } from '../../../test/isa/corpus-data.ts';
import { edgyWord, rng } from '../../../test/semantics/corpus-symbolic.ts';
import { apertureWord } from '../flat.ts';
import { Wave } from '../wave.ts';
import { compileBlock, compileScalar, compileVector, NotCompiled, type Compiled } from './compile.ts';

/** The shared path's view of a wave (what execute.ts's WaveState gives the semantics). */
function stateOf(w: Wave, nextAddress: number, mode: FloatMode): VectorState<number, boolean> {
  return {
    lanes: w.lanes,
    readSgpr: (c) => w.sgpr[c],
    writeSgpr: (c, v) => void (w.sgpr[c] = v),
    readScc: () => w.scc,
    writeScc: (v) => void (w.scc = v),
    active: (l) => w.active(l),
    readVgpr: (v, l) => w.readVgpr(v, l),
    writeVgpr: (v, l, x) => w.writeVgpr(v, l, x),
    floatMode: () => mode,
    nextPc: (): Pair<number> => [nextAddress % 2 ** 32, Math.floor(nextAddress / 2 ** 32)],
    aperture: apertureWord,
  };
}

/** MODE values: the default (denormals kept, IEEE, DX10_CLAMP), all flushed with IEEE and DX10_CLAMP clear, f32 flushed only. */
const MODES = [MODE_WITHOUT_RSRC1, 0x000, 0x3c0 | (1 << 9)];

function instructions(cpu: string, wave64: boolean, dir: Case['dir'], perName: number) {
  const target = targetFor(cpu, wave64);
  const seen = new Map<string, number>();
  const out: { target: Target; inst: Instruction }[] = [];
  for (const row of disasmRows(dir)) {
    if (row.text === '<invalid>') continue;
    const words = new Uint32Array(row.hex.length / 8);
    for (let i = 0; i < words.length; i++) {
      const h = row.hex.slice(i * 8, i * 8 + 8);
      words[i] = parseInt(h.slice(6, 8) + h.slice(4, 6) + h.slice(2, 4) + h.slice(0, 2), 16) >>> 0;
    }
    let inst: Instruction;
    try {
      inst = decodeAt(target, words, 0);
    } catch {
      continue;
    }
    if (!SALU_FAMILIES.includes(inst.def.family) && !VALU_FAMILIES.includes(inst.def.family)) continue;
    const n = seen.get(inst.def.name) ?? 0;
    if (n >= perName) continue;
    seen.set(inst.def.name, n + 1);
    out.push({ target, inst });
  }
  return out;
}

interface Case {
  readonly dir: (typeof CORPUS_GENS)[number]['dir'];
  readonly cpu: string;
  readonly wave64: boolean;
  readonly label: string;
}
const CASES: readonly Case[] = CORPUS_GENS.flatMap((g): Case[] =>
  g.dir === 'gfx10.3' || g.dir === 'gfx11'
    ? [
        { dir: g.dir, cpu: g.cpu, wave64: false, label: `${g.dir} wave32` },
        { dir: g.dir, cpu: g.cpu, wave64: true, label: `${g.dir} wave64` },
      ]
    : [{ dir: g.dir, cpu: g.cpu, wave64: true, label: g.dir }],
);

describe('compiled ALU instructions compute what the shared semantics compute', () => {
  for (const g of CASES) {
    it(`every scalar and vector ALU row of ${g.label}`, () => {
      const r = rng(0x11c0);
      const target = targetFor(g.cpu, g.wave64);
      const a = new Wave(target, 0);
      const b = new Wave(target, 0);
      const failures: string[] = [];
      const declined = new Map<string, number>();
      let compiledVector = 0;
      let compiledScalar = 0;
      let runs = 0;
      for (const { inst } of instructions(g.cpu, g.wave64, g.dir, 2)) {
        const scalar = SALU_FAMILIES.includes(inst.def.family);
        const nextAddress = 0x1_0000_1000 + inst.size;
        for (const mode of MODES) {
          const fm = floatModeOf(mode);
          if (typeof fm === 'string') throw new Error(fm);
          const c: Compiled | NotCompiled = scalar
            ? compileScalar(target, inst, nextAddress)
            : compileVector(target, inst, fm);
          if (c instanceof NotCompiled) {
            declined.set(c.reason, (declined.get(c.reason) ?? 0) + 1);
            break; // the reason does not depend on the mode for these
          }
          if (mode === MODES[0]) {
            if (scalar) compiledScalar++;
            else compiledVector++;
          }
          for (let trial = 0; trial < 2; trial++) {
            for (let i = 0; i < 128; i++) a.sgpr[i] = edgyWord(r);
            for (const v of [...c.reads.vgprs, ...c.writes.vgprs])
              for (let lane = 0; lane < a.lanes; lane++) a.vgpr[v * a.lanes + lane] = edgyWord(r);
            // EXEC: every lane, a random half, one lane, no lane, or only the upper half.
            const pick = r() % 5;
            const lo = [0xffffffff, r(), 1 << (r() % 32), 0, 0][pick]!;
            const hi = [0xffffffff, r(), 0, 0, 0xffffffff][pick]!;
            a.setExec(lo >>> 0, hi >>> 0);
            a.scc = (r() & 1) === 1;
            a.mode = mode;
            b.sgpr.set(a.sgpr);
            b.vgpr.set(a.vgpr);
            b.scc = a.scc;
            let got = 'ok';
            try {
              if (!c.run(a)) {
                if (scalar) throw new Error('a compiled scalar function declined');
                runVector(concrete, target, inst, stateOf(a, nextAddress, fm));
              }
            } catch (e) {
              got = `threw ${(e as Error).message}`;
            }
            let want = 'ok';
            try {
              if (scalar) runScalar(concrete, target, inst, stateOf(b, nextAddress, fm));
              else runVector(concrete, target, inst, stateOf(b, nextAddress, fm));
            } catch (e) {
              want = `threw ${(e as Error).message}`;
            }
            runs++;
            const sgprAt = a.sgpr.findIndex((x, i) => x !== b.sgpr[i]);
            const vgprAt = a.vgpr.findIndex((x, i) => x !== b.vgpr[i]);
            if (got !== want || sgprAt >= 0 || vgprAt >= 0 || a.scc !== b.scc) {
              failures.push(
                `${inst.def.name} (${inst.encoding}, MODE 0x${mode.toString(16)}, EXEC ${hi.toString(16)}:${lo.toString(16)}): ` +
                  (got !== want ? `${got} / ${want}` : '') +
                  (sgprAt >= 0 ? ` s${sgprAt}=${a.sgpr[sgprAt]}/${b.sgpr[sgprAt]}` : '') +
                  (vgprAt >= 0
                    ? ` v${Math.floor(vgprAt / a.lanes)}[${vgprAt % a.lanes}]=${a.vgpr[vgprAt]}/${b.vgpr[vgprAt]}`
                    : '') +
                  (a.scc !== b.scc ? ` scc=${a.scc}/${b.scc}` : ''),
              );
              break;
            }
          }
        }
      }
      const reasons = [...declined].sort((x, y) => y[1] - x[1]).slice(0, 6);
      console.log(
        `${g.label}: ${compiledVector} VALU and ${compiledScalar} SALU rows compiled, ${runs} runs agree; ` +
          `not compiled: ${reasons.map(([k, n]) => `${n}× ${k}`).join('; ')}`,
      );
      expect(failures.slice(0, 10)).toEqual([]);
      expect(compiledVector).toBeGreaterThan(400);
      expect(compiledScalar).toBeGreaterThan(100);
    });
  }
});

describe('fused blocks run their instructions in order', () => {
  for (const g of CASES) {
    it(`blocks of ${g.label} rows`, () => {
      const r = rng(0xb10c);
      const target = targetFor(g.cpu, g.wave64);
      const fm = floatModeOf(MODE_WITHOUT_RSRC1) as FloatMode;
      const a = new Wave(target, 0);
      const b = new Wave(target, 0);
      const nextAddress = 0x2000;
      const all = instructions(g.cpu, g.wave64, g.dir, 1)
        .map(({ inst }) => {
          const scalar = SALU_FAMILIES.includes(inst.def.family);
          const c = scalar ? compileScalar(target, inst, nextAddress) : compileVector(target, inst, fm);
          return { inst, scalar, c };
        })
        .filter((x): x is { inst: Instruction; scalar: boolean; c: Compiled } => !(x.c instanceof NotCompiled));
      const failures: string[] = [];
      let blocks = 0;
      let declined = 0;
      for (let at = 0; at + 6 <= all.length; at += 6) {
        const run = all.slice(at, at + 6);
        const pcs = run.map((_, k) => 4 * k);
        const block = compileBlock(
          run.map((x) => x.c.piece),
          pcs,
          4 * run.length,
        ).run;
        blocks++;
        for (let i = 0; i < 128; i++) a.sgpr[i] = edgyWord(r);
        for (const x of run)
          for (const v of [...x.c.reads.vgprs, ...x.c.writes.vgprs])
            for (let lane = 0; lane < a.lanes; lane++) a.vgpr[v * a.lanes + lane] = edgyWord(r);
        const pick = r() % 4;
        a.setExec([0xffffffff, r(), 1 << (r() % 32), 0][pick]! >>> 0, [0xffffffff, r(), 0, 0][pick]! >>> 0);
        a.scc = (r() & 1) === 1;
        b.sgpr.set(a.sgpr);
        b.vgpr.set(a.vgpr);
        b.scc = a.scc;
        // One by one through the shared semantics, counting lane-operations as the step loop does.
        let wantOps = 0;
        for (const x of run) {
          wantOps += x.scalar ? 1 : b.activeLanes();
          if (x.scalar) runScalar(concrete, target, x.inst, stateOf(b, nextAddress, fm));
          else runVector(concrete, target, x.inst, stateOf(b, nextAddress, fm));
        }
        // Fused; where it stops, the rest run the shared way (as the step loop would).
        const counter = { laneOps: 0 };
        a.pc = -1;
        const ran = block(a, counter);
        if (ran < run.length) declined++;
        if (a.pc !== 4 * ran) failures.push(`block at row ${at}: PC ${a.pc} after ${ran} instructions`);
        for (const x of run.slice(ran)) {
          counter.laneOps += x.scalar ? 1 : a.activeLanes();
          if (x.scalar) runScalar(concrete, target, x.inst, stateOf(a, nextAddress, fm));
          else runVector(concrete, target, x.inst, stateOf(a, nextAddress, fm));
        }
        const sgprAt = a.sgpr.findIndex((x, i) => x !== b.sgpr[i]);
        const vgprAt = a.vgpr.findIndex((x, i) => x !== b.vgpr[i]);
        if (sgprAt >= 0 || vgprAt >= 0 || a.scc !== b.scc || counter.laneOps !== wantOps)
          failures.push(
            `${run.map((x) => x.inst.def.name).join(' ')}: s${sgprAt} v${vgprAt} scc ${a.scc}/${b.scc} ` +
              `lane-ops ${counter.laneOps}/${wantOps}`,
          );
      }
      console.log(`${g.label}: ${blocks} blocks of 6, ${declined} stopped early`);
      expect(failures.slice(0, 10)).toEqual([]);
      expect(blocks).toBeGreaterThan(50);
      expect(declined).toBeGreaterThan(0);
    });
  }
});
