/**
 * `gcn-webgpu translate FILE.gcncap --emit wgsl [-o OUT]`: the capture's dispatch translated to
 * one WGSL module (D011), printed (or written to OUT). No device is needed: the module is made
 * for WebGPU's default limits. Exit 0: written; 2: refused (the reason, naming the instruction
 * and its address); 3: invalid input or usage.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { flagString, parseArgs, UsageError } from './args.ts';
import { CaptureError, readCapture } from '../host/capture/index.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { translateCapture } from '../translator/gpu-replay.ts';

export interface TranslateIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

const USAGE = `usage: gcn-webgpu translate FILE.gcncap --emit wgsl [-o OUT.wgsl] [--max-steps N]
  translates the capture's dispatch to one WGSL module (WebGPU's default limits)
  exit 0 written, 2 refused (with the reason), 3 invalid input
`;

export async function translateCommand(argv: readonly string[], io: TranslateIo): Promise<number> {
  try {
    const args = parseArgs(argv, { valued: ['emit', 'o', 'max-steps'], boolean: ['help'] });
    if (args.flags.has('help')) {
      io.stdout(USAGE);
      return 0;
    }
    const [file, ...extra] = args.positional;
    if (!file) throw new UsageError('translate needs a FILE.gcncap');
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const emit = flagString(args, 'emit');
    if (emit !== 'wgsl') throw new UsageError(`--emit must be wgsl${emit === undefined ? '' : `, not '${emit}'`}`);
    const stepsText = flagString(args, 'max-steps');
    const maxSteps = stepsText === undefined ? undefined : Number(stepsText);
    if (maxSteps !== undefined && !(Number.isSafeInteger(maxSteps) && maxSteps > 0))
      throw new UsageError(`--max-steps must be a positive integer, not '${stepsText}'`);
    const capture = await readCapture(readFileSync(file));
    const t = translateCapture(capture, undefined, { maxSteps, vector: await loadVectorBridge() });
    if ('kind' in t) {
      io.stderr(`${file}: ${t.kind === 'refused' ? 'refused' : 'invalid input'}: ${t.reason}\n`);
      return t.kind === 'refused' ? 2 : 3;
    }
    const out = flagString(args, 'o');
    if (out === undefined) io.stdout(t.translation.wgsl);
    else writeFileSync(out, t.translation.wgsl);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`gcn-webgpu translate: ${e.message}\n${USAGE}`);
      return 3;
    }
    if (e instanceof CaptureError || (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string')) {
      io.stderr(`gcn-webgpu translate: ${e.message}\n`);
      return 3;
    }
    throw e;
  }
}
