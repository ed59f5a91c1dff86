/**
 * The disassembler: decoded instructions spelled as llvm-mc-19 spells them, and the input
 * forms `llvm-mc --disassemble` reads.
 */
import { DecodeError } from './errors.ts';
import type { Target } from './gen.ts';
import { bytesToWords, decodeAt } from './decoder.ts';
import { CODECS } from './families/index.ts';
import type { FamilyCodec, Instruction } from './instruction.ts';
import type { Family } from './registry/types.ts';

/** The codec of each family, as a plain object (one property load per print). */
let codecByFamily: Partial<Record<Family, FamilyCodec>> | undefined;

function codecs(): Partial<Record<Family, FamilyCodec>> {
  if (!codecByFamily) {
    codecByFamily = {};
    for (const c of CODECS) for (const f of c.families) codecByFamily[f] = c;
  }
  return codecByFamily;
}

export function printInstruction(target: Target, inst: Instruction): string {
  const codec = (codecByFamily ?? codecs())[inst.def.family];
  if (!codec) throw new Error(`no codec for ${inst.def.family}`);
  return codec.print(target, inst);
}

/** Parses llvm-mc's byte-token input: `0x14,0x02` or `0x14 0x02`, `#` and `//` comments. */
export function parseByteTokens(text: string): Uint8Array {
  const out: number[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/(#|\/\/|;).*$/, '');
    for (const tok of line.split(/[\s,]+/)) {
      if (!tok) continue;
      const v = /^0x[0-9a-f]{1,2}$/i.test(tok) ? parseInt(tok, 16) : /^[0-9]{1,3}$/.test(tok) ? parseInt(tok, 10) : NaN;
      if (!(v >= 0 && v <= 255)) throw new DecodeError('invalid-operand', out.length, `'${tok}' is not a byte token`);
      out.push(v);
    }
  }
  return Uint8Array.from(out);
}

/** Bytes from contiguous hex in memory order (`7d040010`). */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex))
    throw new DecodeError('invalid-operand', 0, `'${hex}' is not hex bytes`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export type DisasmResult = { readonly text: string; readonly size: number } | { readonly error: DecodeError };

/** Decodes and prints the one instruction at the start of `bytes`. */
export function disassembleOne(target: Target, bytes: Uint8Array): DisasmResult {
  if (bytes.length % 4 !== 0)
    return {
      error: new DecodeError('truncated', bytes.length & ~3, `${bytes.length} bytes is not a whole number of dwords`),
    };
  try {
    const words = bytesToWords(bytes);
    const inst = decodeAt(target, words, 0);
    return { text: printInstruction(target, inst), size: inst.size };
  } catch (e) {
    if (e instanceof DecodeError) return { error: e };
    throw e;
  }
}

/** Disassembles a stream of instructions (llvm-mc --disassemble style): one text line per instruction or error. */
export function disassembleStream(target: Target, bytes: Uint8Array): DisasmResult[] {
  const out: DisasmResult[] = [];
  const words = bytesToWords(bytes);
  let at = 0;
  while (at < words.length) {
    try {
      const inst = decodeAt(target, words, at);
      out.push({ text: printInstruction(target, inst), size: inst.size });
      at += inst.size >>> 2;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      out.push({ error: e });
      at += 1; // as llvm-mc does, skip one dword and go on
    }
  }
  if (bytes.length % 4 !== 0)
    out.push({
      error: new DecodeError('truncated', words.length * 4, `${bytes.length % 4} trailing bytes are not a dword`),
    });
  return out;
}
