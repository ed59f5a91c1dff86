/** Rewrites test/data/isa/baseline.json from the current shares (run when they rise). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../test/isa/corpus-data.ts';
import { formatReport, scoreAll, sharesOf } from '../test/isa/corpus-report.ts';

const reports = scoreAll();
console.log(formatReport(reports));
const shares = sharesOf(reports);
// Stored a hair under the measured share so float formatting never fails the comparison.
const rounded = JSON.parse(
  JSON.stringify(shares, (_k, v: unknown) => (typeof v === 'number' ? Math.floor(v * 1e6) / 1e6 : v)),
);
writeFileSync(join(DATA_DIR, 'baseline.json'), JSON.stringify(rounded, null, 2) + '\n');
