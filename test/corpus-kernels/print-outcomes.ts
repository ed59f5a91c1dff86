/**
 * Prints what the interpreter does with every wrapped kernel × target, as the REFUSED table
 * of kernels.test.ts: `npx tsx test/corpus-kernels/print-outcomes.ts`.
 */
import { replaySpec } from './common.ts';
import { KERNELS } from './kernels.ts';
import { TARGETS } from './targets.ts';

for (const k of KERNELS)
  for (const t of TARGETS) {
    const spec = k.spec(t);
    if (!spec) continue;
    const o = await replaySpec(spec);
    if (o.kind === 'refused') console.log(`  '${k.id} ${t.name}': ${JSON.stringify(o.reason)},`);
    else console.log(`  // ${k.id} ${t.name}: ${o.kind}${o.kind === 'invalid' ? ` (${o.reason})` : ''}`);
  }
