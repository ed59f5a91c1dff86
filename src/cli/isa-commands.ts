/**
 * `gcn-webgpu disasm` and `gcn-webgpu asm`: the instruction layer on the command line,
 * reading and writing what llvm-mc reads and writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { targetFor, type Target } from '../isa/gen.ts';
import { disassembleStream, hexToBytes, parseByteTokens, disassembleOne } from '../isa/disasm.ts';
import { assembleLine, assembleProgram } from '../isa/asm.ts';
import { disassembleProgram } from '../isa/program.ts';
import { AsmError, DecodeError } from '../isa/errors.ts';
import { parseArgs, flagString, UsageError } from './args.ts';

export interface Io {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  readonly stdin: () => string;
}

function readInput(path: string | undefined, io: Io): string {
  return path === undefined || path === '-' ? io.stdin() : readFileSync(path, 'utf8');
}

function targetOf(cpu: string | undefined, wave64: boolean): Target {
  if (!cpu) throw new UsageError('--mcpu NAME is required (e.g. --mcpu gfx1030)');
  return targetFor(cpu, wave64);
}

function wordsToHex(words: readonly number[]): string {
  let s = '';
  for (const w of words) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

function encodingComment(words: readonly number[]): string {
  const bytes: string[] = [];
  for (const w of words)
    for (let b = 0; b < 4; b++) bytes.push(`0x${((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0')}`);
  return `[${bytes.join(',')}]`;
}

export function disasmCommand(argv: readonly string[], io: Io): number {
  const args = parseArgs(argv, { valued: ['mcpu', 'binary'], boolean: ['wave64', 'tsv'] });
  const target = targetOf(flagString(args, 'mcpu'), args.flags.has('wave64'));
  const binary = flagString(args, 'binary');
  if (binary !== undefined) {
    const bytes = new Uint8Array(readFileSync(binary));
    io.stdout(disassembleProgram(target, bytes).text);
    return 0;
  }
  const input = readInput(args.positional[0], io);
  if (args.flags.has('tsv')) {
    let bad = 0;
    for (const raw of input.split('\n')) {
      const hex = raw.trim();
      if (!hex || hex.startsWith('#')) continue;
      let text: string;
      try {
        const r = disassembleOne(target, hexToBytes(hex));
        text = 'error' in r ? '<invalid>' : r.size * 2 === hex.length ? r.text : '<invalid>';
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        text = '<invalid>';
      }
      if (text === '<invalid>') bad++;
      io.stdout(`${hex}\t${text}\n`);
    }
    return bad ? 1 : 0;
  }
  let bytes: Uint8Array;
  try {
    bytes = parseByteTokens(input);
  } catch (e) {
    if (e instanceof DecodeError) {
      io.stderr(`error: ${e.reason}\n`);
      return 3;
    }
    throw e;
  }
  let bad = 0;
  for (const r of disassembleStream(target, bytes)) {
    if ('error' in r) {
      bad++;
      io.stderr(`warning: invalid instruction encoding at byte ${r.error.offset}: ${r.error.reason}\n`);
    } else io.stdout(`\t${r.text}\n`);
  }
  return bad ? 1 : 0;
}

export function asmCommand(argv: readonly string[], io: Io): number {
  const args = parseArgs(argv, { valued: ['mcpu', 'o'], boolean: ['wave64', 'tsv', 'show-encoding'] });
  const target = targetOf(flagString(args, 'mcpu'), args.flags.has('wave64'));
  const input = readInput(args.positional[0], io);
  if (args.flags.has('tsv')) {
    let bad = 0;
    for (const line of input.split('\n')) {
      if (!line.trim()) continue;
      const r = assembleLine(target, line);
      if (r.words) io.stdout(`${line}\t${wordsToHex(r.words)}\n`);
      else {
        bad++;
        io.stdout(`${line}\t<error>: ${r.error?.reason ?? 'unknown'}\n`);
      }
    }
    return bad ? 1 : 0;
  }
  let program;
  try {
    program = assembleProgram(target, input);
  } catch (e) {
    if (e instanceof AsmError) {
      io.stderr(`error: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  const out = flagString(args, 'o');
  if (out) writeFileSync(out, new Uint8Array(program.words.buffer, program.words.byteOffset, program.words.byteLength));
  if (args.flags.has('show-encoding') || !out) {
    // Each statement re-printed from its own words (our canonical spelling), as llvm-mc -show-encoding does.
    for (const st of program.statements) {
      const r = disassembleOne(target, wordsToBytes(st.words));
      const text = 'error' in r ? `<undecodable: ${r.error.reason}>` : r.text;
      io.stdout(
        args.flags.has('show-encoding') ? `\t${text}\t; encoding: ${encodingComment(st.words)}\n` : `\t${text}\n`,
      );
    }
  }
  return 0;
}

function wordsToBytes(words: readonly number[]): Uint8Array {
  const u = Uint32Array.from(words);
  return new Uint8Array(u.buffer);
}
