/**
 * The decoder: bytes to `Instruction`s, driven by the encoding map and the registry
 * through the family codecs. It throws only `DecodeError` and never reads past its input.
 */
import { DecodeError } from './errors.ts';
import type { Target } from './gen.ts';
import { familyTable } from './encoding-map.ts';
import { codecFor } from './families/index.ts';
import type { FamilyCodec, Instruction } from './instruction.ts';
import type { Family } from './registry/types.ts';

/** Per generation, the codec of each value of a dword's top nine bits (beside the family table), built on first use. */
const codecTables: (readonly (FamilyCodec | undefined)[] | undefined)[] = [];

function codecTable(gen: Target['gen']): readonly (FamilyCodec | undefined)[] {
  let t = codecTables[gen];
  if (!t) {
    const families = familyTable(gen);
    const codecs: (FamilyCodec | undefined)[] = new Array<FamilyCodec | undefined>(512).fill(undefined);
    for (let i = 0; i < 512; i++) {
      const f = families[i];
      codecs[i] = f === undefined ? undefined : codecFor(f);
    }
    codecTables[gen] = t = codecs;
  }
  return t;
}

/** Little-endian dwords of a byte array (a trailing partial dword is dropped; callers check). */
export function bytesToWords(bytes: Uint8Array): Uint32Array {
  const n = bytes.length >>> 2;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const b = i * 4;
    out[i] = (bytes[b] | (bytes[b + 1] << 8) | (bytes[b + 2] << 16) | (bytes[b + 3] << 24)) >>> 0;
  }
  return out;
}

/** Decodes the instruction whose first dword is `words[at]`. */
export function decodeAt(target: Target, words: Uint32Array, at: number): Instruction {
  const byteOffset = at * 4;
  if (at >= words.length) throw new DecodeError('truncated', byteOffset, 'no dword left to decode');
  const w0 = words[at];
  const gen = target.gen;
  const top = w0 >>> 23;
  const codec = (codecTables[gen] ?? codecTable(gen))[top];
  const family = familyTable(gen)[top];
  if (codec === undefined) return unsupported(family, w0, byteOffset);
  return codec.decode(target, words, at, family as Family, byteOffset);
}

function unsupported(family: Family | undefined, w0: number, byteOffset: number): never {
  if (!family)
    throw new DecodeError(
      'unknown-encoding',
      byteOffset,
      `no encoding family has prefix of 0x${w0.toString(16).padStart(8, '0')}`,
    );
  throw new DecodeError('unknown-encoding', byteOffset, `the ${family} family is not supported yet`);
}

/** Decodes every instruction of a word array, stopping at the first error (returned beside what decoded). */
export function decodeAll(target: Target, words: Uint32Array): { instructions: Instruction[]; error?: DecodeError } {
  const instructions: Instruction[] = [];
  let at = 0;
  while (at < words.length) {
    try {
      const inst = decodeAt(target, words, at);
      instructions.push(inst);
      at += inst.size >>> 2;
    } catch (e) {
      if (e instanceof DecodeError) return { instructions, error: e };
      throw e;
    }
  }
  return { instructions };
}
