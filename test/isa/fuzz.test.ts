/**
 * Bounded fuzzing of the instruction layer (~2 s): every target, random and bit-flipped
 * encodings to the decoder and disassembler, random and mutated lines to the assembler.
 * Only DecodeError / AsmError may come out; a finding prints its seed, case and input.
 * FUZZ_SEED / FUZZ_COUNT override the fixed seed and the count; `npm run fuzz` runs longer.
 */
import { describe, expect, it } from 'vitest';
import { allTargets, caseSeed, formatFinding, mulberry32, runFuzz } from '../../tools/fuzz.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) >>> 0 : 0x5eed_1030;
const COUNT = process.env.FUZZ_COUNT ? Number(process.env.FUZZ_COUNT) : 3000;
/** A fixed count, never a time budget: what the suite covers must not depend on the machine's load. */
const MAX_MS = undefined;

describe('instruction-layer fuzz', () => {
  it('covers every target in wave32 and wave64', () => {
    const names = allTargets().map((t) => t.name);
    for (const cpu of ['bonaire', 'tonga', 'gfx900']) expect(names).toContain(`${cpu}:w64`);
    for (const cpu of ['gfx1010', 'gfx1030', 'gfx1100']) {
      expect(names).toContain(`${cpu}:w32`);
      expect(names).toContain(`${cpu}:w64`);
    }
  });

  it('is reproducible from its seed', () => {
    const a = mulberry32(caseSeed(SEED, 7));
    const b = mulberry32(caseSeed(SEED, 7));
    for (let i = 0; i < 8; i++) expect(a()).toBe(b());
    expect(caseSeed(SEED, 7)).not.toBe(caseSeed(SEED, 8));
  });

  it(`throws only DecodeError / AsmError and never decodes past the input (seed ${SEED}, ${COUNT} cases)`, () => {
    const report = runFuzz({ seed: SEED, count: COUNT, corpusLimit: 1500, maxFindings: 10, maxMs: MAX_MS });
    const summary =
      `seed ${SEED}: ${report.cases} cases in ${report.ms.toFixed(0)} ms; decoded ${report.decoded}, ` +
      `DecodeError ${report.decodeErrors}, assembled ${report.assembled}, AsmError ${report.asmErrors}` +
      (report.stoppedByTime ? ` (time budget of ${MAX_MS} ms reached)` : '');
    console.log(`fuzz ${summary}`);
    if (report.findings.length < 10 && !report.stoppedByTime) expect(report.cases).toBe(COUNT);
    expect(report.cases).toBeGreaterThanOrEqual(Math.min(COUNT, 500));
    for (const k of Object.values(report.byKind)) expect(k).toBeGreaterThan(0);
    expect(report.findings.map(formatFinding).join('\n\n'), summary).toBe('');
  });
});
