/**
 * A program's disassembly as listing lines: address, the instruction's dwords, and its
 * llvm-mc text, or the DecodeError that stopped it (then one dword is skipped, as
 * llvm-mc does). DOM free, so it is tested in Node.
 */
import { bytesToWords, decodeAt } from '../isa/decoder.ts';
import { printInstruction } from '../isa/disasm.ts';
import { DecodeError } from '../isa/errors.ts';
import type { Target } from '../isa/gen.ts';
import type { Listing, ListingLine } from './listing-core.ts';

export { hex32, type Listing, type ListingLine } from './listing-core.ts';

export function disassembleListing(target: Target, bytes: Uint8Array): Listing {
  const words = bytesToWords(bytes);
  const lines: ListingLine[] = [];
  let decoded = 0;
  let errors = 0;
  let at = 0;
  while (at < words.length) {
    const offset = at * 4;
    try {
      const inst = decodeAt(target, words, at);
      const n = Math.max(1, Math.min(inst.size >>> 2, words.length - at));
      let text: string;
      try {
        text = printInstruction(target, inst);
      } catch (e) {
        // The printer is being written concurrently; show what it said rather than nothing.
        lines.push({ offset, words: Array.from(words.subarray(at, at + n)), error: `print failed: ${String(e)}` });
        errors++;
        at += n;
        continue;
      }
      lines.push({ offset, words: Array.from(words.subarray(at, at + n)), text });
      decoded++;
      at += n;
    } catch (e) {
      const message = e instanceof DecodeError ? e.message : `unexpected ${String(e)}`;
      lines.push({ offset, words: [words[at]], error: message });
      errors++;
      at += 1;
    }
  }
  return { lines, decoded, errors, trailingBytes: bytes.length % 4 };
}
