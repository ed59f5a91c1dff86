/**
 * Re-runs every instruction-registry generator (tools/registry/<group>.ts), each writing
 * its src/isa/registry/generated/<group>.ts. Generators ask llvm-mc-19 for facts, so this
 * needs llvm-19 installed (scripts/setup-system.sh installs it). `--check` fails when a
 * regenerated file differs from the committed one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const GROUPS = ['scalar', 'vop', 'vop-ext', 'vopd', 'memory', 'image'];
const check = process.argv.includes('--check');

let failed = false;
for (const group of GROUPS) {
  const script = join(root, 'tools', 'registry', `${group}.ts`);
  if (!existsSync(script)) continue;
  const outputs = ['generated/' + group + '.ts', 'generated/' + group + '-forms.ts'].map((p) =>
    join(root, 'src', 'isa', 'registry', p),
  );
  const before = outputs.map((p) => (existsSync(p) ? readFileSync(p, 'utf8') : undefined));
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`generator ${group} failed (${r.status})`);
    failed = true;
    continue;
  }
  outputs.forEach((p, i) => {
    const after = existsSync(p) ? readFileSync(p, 'utf8') : undefined;
    if (check && after !== before[i]) {
      console.error(`${p} differs from its committed version: commit the regenerated file`);
      failed = true;
    }
  });
}
process.exit(failed ? 1 : 0);
