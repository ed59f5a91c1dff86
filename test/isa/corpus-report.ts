/**
 * Scores every corpus direction for every generation; used by the corpus test (against
 * the committed baseline) and by `npm run isa:baseline` (which rewrites the baseline).
 */
import {
  CORPUS_GENS,
  scoreAsm,
  scoreDisasm,
  scoreRoundTrip,
  share,
  type CorpusGen,
  type Score,
} from './corpus-data.ts';

export interface GenReport {
  readonly disasm: Score;
  readonly disasmWave64?: Score;
  readonly asmAccepted: Score;
  readonly asmRejected: Score;
  readonly roundTrip: Score & { readonly nonCanonical: Score };
}

/** The acceptance bar. */
export const TARGETS = { disasm: 0.995, asmAccepted: 0.99, asmRejected: 0.95, roundTrip: 1 } as const;

export type Shares = Record<string, Record<string, number>>;

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
      roundTrip: share(r.roundTrip),
      roundTripNonCanonical: share(r.roundTrip.nonCanonical),
    };
    if (r.disasmWave64) s[gen].disasmWave64 = share(r.disasmWave64);
  }
  return s;
}

export function formatReport(reports: Map<CorpusGen, GenReport>): string {
  const pct = (x: Score): string => `${(100 * share(x)).toFixed(2).padStart(6)}% (${x.matched}/${x.total})`;
  const lines = [
    'generation  bytes->text              wave64                   text->bytes accepted     rejected->error          round trip               (non-canonical rows)',
  ];
  for (const [gen, r] of reports) {
    lines.push(
      [
        gen.padEnd(10),
        pct(r.disasm).padEnd(24),
        (r.disasmWave64 ? pct(r.disasmWave64) : '-').padEnd(24),
        pct(r.asmAccepted).padEnd(24),
        pct(r.asmRejected).padEnd(24),
        pct(r.roundTrip).padEnd(24),
        pct(r.roundTrip.nonCanonical),
      ].join(' '),
    );
  }
  return lines.join('\n');
}
