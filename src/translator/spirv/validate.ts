/**
 * Validation of SPIR-V modules by Khronos's `spirv-val` (Debian's spirv-tools package; the npm
 * `spirv-tools` WebAssembly build has no validator). Node only: it writes the module to a
 * temporary file and runs the tool on it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The command that installs spirv-val (scripts/setup-system.sh installs Debian's spirv-tools). */
export const SPIRV_VAL_INSTALL = 'sudo bash scripts/setup-system.sh  (apt-get install -y spirv-tools)';

/** `spirv-val` is not on PATH. */
export class SpirvValidatorMissing extends Error {
  override readonly name = 'SpirvValidatorMissing';
  constructor(readonly executable: string) {
    super(`${executable} is not installed; install it with: ${SPIRV_VAL_INSTALL}`);
  }
}

export type SpirvTargetEnv = 'vulkan1.1' | 'vulkan1.2' | 'vulkan1.3' | 'spv1.5';

export interface SpirvValidation {
  readonly ok: boolean;
  /** What spirv-val printed (empty when the module is valid). */
  readonly messages: string;
}

/** Runs `spirv-val --target-env <env>` on `words` (`executable`: the validator's name or path). */
export function validateSpirv(
  words: Uint32Array,
  targetEnv: SpirvTargetEnv = 'vulkan1.2',
  executable = 'spirv-val',
): SpirvValidation {
  const dir = mkdtempSync(join(tmpdir(), 'gcn-spirv-'));
  try {
    const file = join(dir, 'module.spv');
    writeFileSync(file, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
    const run = spawnSync(executable, ['--target-env', targetEnv, file], { encoding: 'utf8' });
    if (run.error) {
      if ((run.error as NodeJS.ErrnoException).code === 'ENOENT') throw new SpirvValidatorMissing(executable);
      throw run.error;
    }
    return { ok: run.status === 0, messages: `${run.stdout}${run.stderr}`.trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `spirv-val --target-env <env>` on module files already written, at most `concurrency`
 * processes at a time (the validator is single-threaded; a corpus of hundreds of modules is
 * validated in a fraction of the time one after another takes). Results in the files' order.
 */
export async function validateSpirvFiles(
  files: readonly string[],
  options: { targetEnv?: SpirvTargetEnv; concurrency?: number; executable?: string } = {},
): Promise<SpirvValidation[]> {
  const { spawn } = await import('node:child_process');
  const executable = options.executable ?? 'spirv-val';
  const results = new Array<SpirvValidation>(files.length);
  let next = 0;
  const one = (file: string): Promise<SpirvValidation> =>
    new Promise((resolve, reject) => {
      const child = spawn(executable, ['--target-env', options.targetEnv ?? 'vulkan1.2', file]);
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.on('error', (e: NodeJS.ErrnoException) =>
        reject(e.code === 'ENOENT' ? new SpirvValidatorMissing(executable) : e),
      );
      child.on('close', (code) => resolve({ ok: code === 0, messages: text.trim() }));
    });
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      results[i] = await one(files[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return results;
}
