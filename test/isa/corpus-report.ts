/**
 * Scores every corpus direction for every generation; used by the corpus test (against
 * the committed baseline) and by `npm run isa:baseline` (which rewrites the baseline).
 */
import {
  CORPUS_GENS,
  ROUND_TRIP_CLASSES,
  scoreAsm,
  scoreDisasm,
  scoreRoundTrip,
  share,
  type CorpusGen,
  type RoundTripClass,
  type RoundTripScore,
  type Score,
} from './corpus-data.ts';

export interface GenReport {
  readonly disasm: Score;
  readonly disasmWave64?: Score;
  readonly asmAccepted: Score;
  readonly asmRejected: Score;
  /** Round trip per class of row (ROUND_TRIP_CLASSES); `canonical` is the issue's round trip. */
  readonly roundTrip: RoundTripScore;
}

/** The issue's acceptance bar. */
export const TARGETS = { disasm: 0.995, asmAccepted: 0.99, asmRejected: 0.95, roundTrip: 1 } as const;

export type Shares = Record<string, Record<string, number>>;

/** The share key of a round-trip class: `roundTrip` for canonical rows, `roundTrip:<class>` for the others. */
export function roundTripShareKey(c: RoundTripClass): string {
  return c === 'canonical' ? 'roundTrip' : `roundTrip:${c}`;
}

export function scoreAll(): Map<CorpusGen, GenReport> {
  const out = new Map<CorpusGen, GenReport>();
  for (const g of CORPUS_GENS) {
    const asm = scoreAsm(g.dir);
    out.set(g.dir, {
      disasm: scoreDisasm(g.dir),
      disasmWave64: g.dir === 'gfx10.3' || g.dir === 'gfx11' ? scoreDisasm(g.dir, { wave64: true }) : undefined,
      asmAccepted: asm.accepted,
      asmRejected: asm.rejected,
      roundTrip: scoreRoundTrip(g.dir),
    });
  }
  return out;
}

export function sharesOf(reports: Map<CorpusGen, GenReport>): Shares {
  const s: Shares = {};
  for (const [gen, r] of reports) {
    s[gen] = {
      disasm: share(r.disasm),
      asmAccepted: share(r.asmAccepted),
      asmRejected: share(r.asmRejected),
    };
    for (const c of ROUND_TRIP_CLASSES) s[gen][roundTripShareKey(c.id)] = share(r.roundTrip.byClass[c.id]);
    if (r.disasmWave64) s[gen].disasmWave64 = share(r.disasmWave64);
  }
  return s;
}

const pct = (x: Score): string =>
  x.total === 0 ? 'no rows' : `${(100 * share(x)).toFixed(2).padStart(6)}% (${x.matched}/${x.total})`;

export function formatReport(reports: Map<CorpusGen, GenReport>): string {
  const lines = [
    'generation  bytes->text              wave64                   text->bytes accepted     rejected->error          round trip (canonical rows)',
  ];
  for (const [gen, r] of reports) {
    lines.push(
      [
        gen.padEnd(10),
        pct(r.disasm).padEnd(24),
        (r.disasmWave64 ? pct(r.disasmWave64) : '-').padEnd(24),
        pct(r.asmAccepted).padEnd(24),
        pct(r.asmRejected).padEnd(24),
        pct(r.roundTrip.byClass.canonical),
      ].join(' '),
    );
  }
  lines.push('', formatRoundTripClasses(reports));
  return lines.join('\n');
}

/** The round trip per class of row, with each class's row count, share and reason. */
export function formatRoundTripClasses(reports: Map<CorpusGen, GenReport>): string {
  const lines = ['round trip by class of row (what llvm-mc-19 makes of its own text of the bytes):'];
  for (const c of ROUND_TRIP_CLASSES) {
    let rows = 0;
    for (const r of reports.values()) rows += r.roundTrip.byClass[c.id].total;
    lines.push(`  ${c.id} (asm_roundtrip '${c.column}', ${rows} rows): ${c.description}`);
    lines.push(`    ${[...reports].map(([gen, r]) => `${gen} ${pct(r.roundTrip.byClass[c.id]).trim()}`).join(', ')}`);
  }
  const np = [...reports].map(
    ([gen, r]) =>
      `${gen} ${r.roundTrip.notPrinted.llvmInvalidRegister} + ${r.roundTrip.notPrinted.bytesToTextMismatch}`,
  );
  lines.push(
    '  not printed by us (no text to assemble): LLVM annotates an operand /*Invalid register*/ + bytes->text mismatches listed there:',
    `    ${np.join(', ')}`,
  );
  return lines.join('\n');
}
