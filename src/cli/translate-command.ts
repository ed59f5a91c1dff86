/**
 * `gcn-webgpu translate FILE.gcncap --emit wgsl|spirv|spirv-text [-o OUT]`: the capture's
 * dispatch translated to one WGSL module (D011), or that module read into SPIR-V 1.5 for
 * Vulkan 1.2 (D016): `spirv` the binary (to OUT; never printed to a terminal), `spirv-text`
 * its disassembly (the spirv-tools package's). No device is needed: the module is made for
 * WebGPU's default limits. Exit 0: written; 1: the WGSL reader could not read the translator's
 * module (a translator bug, naming the construct); 2: refused (the reason, naming the
 * instruction and its address); 3: invalid input or usage.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { flagString, parseArgs, UsageError } from './args.ts';
import { CaptureError, readCapture } from '../host/capture/index.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { translateCapture } from '../translator/gpu-replay.ts';
import { spirvText } from '../translator/spirv/disassemble.ts';
import { spirvFromWgsl, UnsupportedWgsl } from '../translator/spirv/wgsl-reader/index.ts';

export interface TranslateIo {
  stdout(s: string): void;
  stderr(s: string): void;
  /** Binary output (`--emit spirv` without -o); default: the process's stdout. */
  stdoutBytes?(bytes: Uint8Array): void;
  /** Whether stdout is a terminal (binary is refused there); default: the process's stdout's. */
  stdoutIsTerminal?(): boolean;
}

const EMITS = ['wgsl', 'spirv', 'spirv-text'] as const;
type Emit = (typeof EMITS)[number];

const USAGE = `usage: gcn-webgpu translate FILE.gcncap --emit wgsl|spirv|spirv-text [-o OUT] [--max-steps N]
  translates the capture's dispatch to one WGSL module (WebGPU's default limits), or to
  SPIR-V 1.5 for Vulkan 1.2 read from it: spirv the binary (needs -o on a terminal),
  spirv-text its disassembly
  exit 0 written, 1 translator bug (the SPIR-V reader could not read the module),
  2 refused (with the reason), 3 invalid input
`;

/** The SPIR-V back end the command runs (the tests hand it one that refuses, to reach exit 1). */
export interface TranslateBackEnd {
  readonly spirvFromWgsl: (wgsl: string) => Uint32Array;
}

export async function translateCommand(
  argv: readonly string[],
  io: TranslateIo,
  backEnd: TranslateBackEnd = { spirvFromWgsl },
): Promise<number> {
  try {
    const args = parseArgs(argv, { valued: ['emit', 'o', 'max-steps'], boolean: ['help'] });
    if (args.flags.has('help')) {
      io.stdout(USAGE);
      return 0;
    }
    const [file, ...extra] = args.positional;
    if (!file) throw new UsageError('translate needs a FILE.gcncap');
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const emitText = flagString(args, 'emit');
    if (!(EMITS as readonly string[]).includes(emitText ?? ''))
      throw new UsageError(`--emit must be ${EMITS.join(', ')}${emitText === undefined ? '' : `, not '${emitText}'`}`);
    const emit = emitText as Emit;
    const out = flagString(args, 'o');
    const terminal = io.stdoutIsTerminal?.() ?? process.stdout.isTTY === true;
    if (emit === 'spirv' && out === undefined && terminal)
      throw new UsageError('--emit spirv writes a binary: give -o OUT.spv (or redirect stdout)');
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
    const wgsl = t.translation.wgsl;
    if (emit === 'wgsl') {
      if (out === undefined) io.stdout(wgsl);
      else writeFileSync(out, wgsl);
      return 0;
    }
    let words: Uint32Array;
    try {
      words = backEnd.spirvFromWgsl(wgsl);
    } catch (e) {
      if (!(e instanceof UnsupportedWgsl)) throw e;
      io.stderr(
        `${file}: translator bug: the SPIR-V back end cannot read the translated WGSL at ${e.message} (--emit wgsl shows the module)\n`,
      );
      return 1;
    }
    if (emit === 'spirv') {
      const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
      if (out !== undefined) writeFileSync(out, bytes);
      else if (io.stdoutBytes) io.stdoutBytes(bytes);
      else process.stdout.write(bytes);
      return 0;
    }
    const text = await spirvText(words);
    if (out === undefined) io.stdout(text);
    else writeFileSync(out, text);
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
