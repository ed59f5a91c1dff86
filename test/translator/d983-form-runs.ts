/**
 * Runs d983-form-run.ts in a process of its own and parses its line: one module a process, as the
 * resource-table form needs on SwiftShader (D026, Known limits). A crash fails with the child's output.
 */
import { execFileSync } from 'node:child_process';
import type { FormRunResult } from './d983-form-run.ts';

export function formRun(args: readonly string[]): FormRunResult {
  // Node with tsx's loader, not `npx tsx`: npx's own start costs ~0.6 s a case, for nothing.
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'test/translator/d983-form-run.ts', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 580_000,
  });
  const line = out.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as FormRunResult;
}
