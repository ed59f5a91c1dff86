/**
 * A program's disassembly as listing lines: address, the instruction's dwords, its
 * llvm-mc text with branch targets as labels, or the DecodeError that stopped it (then one
 * dword is skipped, as llvm-mc does). Built on the instruction layer's whole-program
 * listing (src/isa/program.ts); DOM free, so it is tested in Node.
 */
import { bytesToWords } from '../isa/decoder.ts';
import type { Target } from '../isa/gen.ts';
import { programLines, textWithLabel } from '../isa/program.ts';
import type { Listing, ListingLine } from './listing-core.ts';

export { hex32, type Listing, type ListingLine } from './listing-core.ts';

export function disassembleListing(target: Target, bytes: Uint8Array): Listing {
  const words = bytesToWords(bytes);
  const program = programLines(target, bytes);
  const lines: ListingLine[] = program.lines.map((l) => {
    const at = l.address >>> 2;
    const n = l.inst ? Math.max(1, Math.min(l.inst.size >>> 2, words.length - at)) : 1;
    return {
      offset: l.address,
      words: Array.from(words.subarray(at, at + n)),
      ...(l.error ? { error: l.error.message } : { text: textWithLabel(l) }),
      ...(program.labels.has(l.address) ? { label: program.labels.get(l.address) } : {}),
      ...(l.address >= program.end ? { afterEnd: true } : {}),
    };
  });
  const errors = lines.filter((l) => l.error !== undefined).length;
  return { lines, decoded: lines.length - errors, errors, trailingBytes: bytes.length % 4 };
}
