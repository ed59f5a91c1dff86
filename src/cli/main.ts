/**
 * The `gcn-webgpu` command line. Exit codes: 0 success, 1 a mismatch or invalid
 * instruction, 2 a refusal, 3 invalid input or usage.
 */
import { readFileSync } from 'node:fs';
import { asmCommand, disasmCommand, type Io } from './isa-commands.ts';
import { UsageError } from './args.ts';
import { descriptorCommand } from './descriptor-command.ts';
import { captureCommand } from './capture-command.ts';
import { replayCommand } from './replay-command.ts';
import { translateCommand } from './translate-command.ts';
import { traceCommand } from './trace-command.ts';
import { UnknownProcessorError } from '../isa/gen.ts';

const USAGE = `usage: gcn-webgpu <command> [options]

commands:
  disasm --mcpu NAME [--wave64] [FILE|-]        bytes (llvm-mc tokens) to text
  disasm --mcpu NAME [--wave64] --tsv [FILE|-]  HEX lines to HEX<TAB>TEXT
  disasm --mcpu NAME [--wave64] --binary FILE   a whole program with addresses and labels
  asm --mcpu NAME [--wave64] [FILE|-] [--show-encoding] [-o OUT.bin]
  asm --mcpu NAME [--wave64] --tsv [FILE|-]     TEXT lines to TEXT<TAB>HEX
  descriptor --mcpu NAME --kind buffer|image|sampler --words w0,w1,...
                                                a V#, T# or S# decoded, as JSON
  capture info FILE [--json]                    what a .gcncap capture holds
  capture build SPEC -o FILE.gcncap             a capture from a JSON or YAML spec
  capture redact FILE -o OUT.gcncap             the capture without guest data
  replay --engine interp|gpu FILE.gcncap [--json] [--max-steps N]
                                                run a capture and compare with its expected result
                                                (exit 0 match, 1 mismatch, 2 refusal, 3 invalid input)
  translate FILE.gcncap --emit wgsl|spirv|spirv-text [-o OUT]
                                                the dispatch as one WGSL or SPIR-V module (exit 2 refusal)
  trace FILE.gcncap|FILE.bin [--mcpu NAME] [--json]
                                                every access's descriptor registers and where they come from
                                                (exit 0 all traced, 2 some untraced, 3 invalid input)
`;

const nodeIo: Io = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => readFileSync(0, 'utf8'),
};

export async function main(argv: readonly string[], io: Io = nodeIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'disasm':
        return disasmCommand(rest, io);
      case 'asm':
        return asmCommand(rest, io);
      case 'descriptor':
        return descriptorCommand(rest, io);
      case 'capture':
        return await captureCommand(rest, io);
      case 'replay':
        return await replayCommand(rest, io);
      case 'translate':
        return await translateCommand(rest, io);
      case 'trace':
        return await traceCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
        io.stdout(USAGE);
        return command === undefined ? 3 : 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof UnknownProcessorError) {
      io.stderr(`gcn-webgpu: ${e.message}\n${USAGE}`);
      return 3;
    }
    if (e instanceof Error && 'code' in e && (e as NodeJS.ErrnoException).code === 'ENOENT') {
      io.stderr(`gcn-webgpu: ${e.message}\n`);
      return 3;
    }
    throw e;
  }
}
