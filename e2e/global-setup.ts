/**
 * Playwright's global setup: starts writing the translator replay's captures and manifest
 * (e2e/fixtures/replay-captures.ts, a child process under tsx for the reason write-captures.ts
 * gives) and returns without waiting for it, so the first tests run beside the writer (~20 s of one
 * core) instead of after it (D020, amendment of 2026-12-02). The replay spec's tests wait for
 * REPLAY_WRITER_STATUS, which this process writes when the writer exits: its exit code, so a failed
 * writer fails those tests (its own output is in the log above them). The captures and the status
 * are removed before the writer starts (Playwright empties test-results/ first too), so no test
 * reads a previous run's. The writer is one process, so no two write the same folder.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { REPLAY_CAPTURES_DIR } from './fixtures/replay-captures-manifest.ts';

/** Written by the runner when the writer exits (outside REPLAY_CAPTURES_DIR, which the writer empties). */
export const REPLAY_WRITER_STATUS = 'test-results/replay-captures-status.json';

/** What REPLAY_WRITER_STATUS holds. */
export interface ReplayWriterStatus {
  /** The writer's exit code (null when a signal ended it). */
  readonly code: number | null;
  readonly signal: string | null;
}

export default function globalSetup(): () => Promise<void> {
  rmSync(REPLAY_WRITER_STATUS, { force: true });
  rmSync(REPLAY_CAPTURES_DIR, { recursive: true, force: true });
  // Node with tsx's loader, not `npx tsx`: the same loader without npx's own ~0.6 s start.
  const writer = spawn(process.execPath, ['--import', 'tsx', 'e2e/fixtures/replay-captures.ts', REPLAY_CAPTURES_DIR], {
    stdio: 'inherit',
  });
  const exited = new Promise<void>((resolve) => {
    writer.on('exit', (code, signal) => {
      const status: ReplayWriterStatus = { code, signal };
      writeFileSync(REPLAY_WRITER_STATUS, JSON.stringify(status));
      resolve();
    });
    // Not started at all (no node?): a status the spec reports, not a wait until its timeout.
    writer.on('error', (e) => {
      console.error(`e2e/global-setup.ts: the replay-captures writer did not start: ${e.message}`);
      writeFileSync(REPLAY_WRITER_STATUS, JSON.stringify({ code: null, signal: null } satisfies ReplayWriterStatus));
      resolve();
    });
  });
  // The teardown: a run that never reached the replay spec (another spec selected) stops the writer.
  return async () => {
    if (writer.exitCode === null && writer.signalCode === null) writer.kill();
    await exited;
  };
}
