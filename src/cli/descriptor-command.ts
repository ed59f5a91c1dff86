/**
 * `gcn-webgpu descriptor --mcpu NAME --kind buffer|image|sampler --words w0,w1,...`: decodes a
 * V#, T# or S# and prints the record as JSON, field names in snake case. Exit 0 on success,
 * 3 on bad usage, an unknown processor, or words that do not decode (the message says why).
 */
import { targetFor, UnknownProcessorError } from '../isa/gen.ts';
import { parseArgs, flagString, UsageError } from './args.ts';
import {
  DescriptorError,
  decodeBufferDescriptor,
  decodeImageDescriptor,
  decodeSamplerDescriptor,
} from '../host/descriptors/index.ts';

export interface DescriptorIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

const USAGE = `usage: gcn-webgpu descriptor --mcpu NAME --kind buffer|image|sampler --words w0,w1,...
  words are 32-bit, hex (0x...) or decimal, separated by commas or spaces:
  4 for a buffer (V#) or sampler (S#), 8 (or 4, the r128 form) for an image (T#)
`;

const KINDS = ['buffer', 'image', 'sampler'] as const;
type Kind = (typeof KINDS)[number];

/** Reads one word: `0x` hex or decimal, an integer in [-2^31, 2^32). */
export function parseWord(text: string): number {
  const t = text.trim();
  const v = /^0x[0-9a-f]{1,8}$/i.test(t) ? parseInt(t.slice(2), 16) : /^-?[0-9]+$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff)
    throw new UsageError(`'${text}' is not a 32-bit word (hex 0x... or decimal)`);
  return v >>> 0;
}

export function parseWords(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter((p) => p !== '');
  if (parts.length === 0) throw new UsageError('--words needs at least one word');
  return parts.map(parseWord);
}

export function descriptorCommand(
  argv: readonly string[],
  io: { stdout(s: string): void; stderr(s: string): void },
): number {
  try {
    const args = parseArgs(argv, { valued: ['mcpu', 'kind', 'words'], boolean: ['help'] });
    if (args.flags.has('help')) {
      io.stdout(USAGE);
      return 0;
    }
    if (args.positional.length) throw new UsageError(`unexpected argument '${args.positional[0]}'`);
    const cpu = flagString(args, 'mcpu');
    if (!cpu) throw new UsageError('--mcpu NAME is required (e.g. --mcpu gfx1030)');
    const kind = flagString(args, 'kind');
    if (!kind || !(KINDS as readonly string[]).includes(kind))
      throw new UsageError(`--kind must be one of ${KINDS.join(', ')}${kind ? `, not '${kind}'` : ''}`);
    const text = flagString(args, 'words');
    if (text === undefined) throw new UsageError('--words w0,w1,... is required');
    const words = parseWords(text);
    const { gen } = targetFor(cpu);
    // An S# prints with its reserved values named (`reserved`): only a consumer refuses them (D004).
    const decodeSampler = (g: typeof gen, w: number[]) => decodeSamplerDescriptor(g, w, { reserved: 'keep' });
    const decode = { buffer: decodeBufferDescriptor, image: decodeImageDescriptor, sampler: decodeSampler }[
      kind as Kind
    ];
    const record = decode(gen, words);
    io.stdout(`${JSON.stringify({ mcpu: cpu, ...record }, null, 2)}\n`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof UnknownProcessorError) {
      io.stderr(`gcn-webgpu descriptor: ${e.message}\n${USAGE}`);
      return 3;
    }
    if (e instanceof DescriptorError) {
      io.stderr(`gcn-webgpu descriptor: ${e.message}\n`);
      return 3;
    }
    throw e;
  }
}
