/**
 * Playwright's global setup: writes the translator replay's captures and manifest once for the
 * whole run (e2e/fixtures/replay-captures.ts, a child process under tsx for the reason
 * write-captures.ts gives). The replay spec's batches run in parallel across workers, and
 * each worker's beforeAll only reads the manifest, so no two processes write the same
 * folder. Playwright empties test-results/ before this runs, so the captures are never stale.
 */
import { execFileSync } from 'node:child_process';
import { REPLAY_CAPTURES_DIR } from './fixtures/replay-captures-manifest.ts';

export default function globalSetup(): void {
  execFileSync('npx', ['tsx', 'e2e/fixtures/replay-captures.ts', REPLAY_CAPTURES_DIR], { stdio: 'inherit' });
}
