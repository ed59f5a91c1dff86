/**
 * Whole-program disassembly: addresses, branch targets as labels, and the program's end
 * (the last `s_endpgm`; what follows is padding or data and is summarised, not decoded).
 */
import { DecodeError } from './errors.ts';
import type { Target } from './gen.ts';
import { bytesToWords, decodeAt } from './decoder.ts';
import { printInstruction } from './disasm.ts';
import type { Instruction } from './instruction.ts';
import { Attr } from './registry/types.ts';

export interface ProgramLine {
  readonly address: number;
  readonly inst?: Instruction;
  readonly text: string;
  readonly error?: DecodeError;
}

export interface Program {
  readonly lines: readonly ProgramLine[];
  /** Byte addresses that some branch targets, with their label names. */
  readonly labels: ReadonlyMap<number, string>;
  /** Address just past the last s_endpgm, or the input's length when there is none. */
  readonly end: number;
  /** The listing as text. */
  readonly text: string;
}

/** Byte address a direct branch goes to, or undefined for other instructions. */
export function branchTarget(inst: Instruction): number | undefined {
  if (!(inst.def.attrs & Attr.Branch) || inst.def.family !== 'SOPP') return undefined;
  const simm16 = inst.fields.simm16;
  if (simm16 === undefined) return undefined;
  return inst.offset + 4 + ((simm16 << 16) >> 16) * 4;
}

export function labelName(address: number): string {
  return `.L_${address.toString(16).padStart(4, '0')}`;
}

/** Every decoded line of the input (past the program's end too), its labels and its end. */
export function programLines(
  target: Target,
  bytes: Uint8Array,
): { lines: ProgramLine[]; labels: Map<number, string>; end: number } {
  const words = bytesToWords(bytes);
  const lines: ProgramLine[] = [];
  let at = 0;
  let end = -1;
  while (at < words.length) {
    try {
      const inst = decodeAt(target, words, at);
      lines.push({ address: at * 4, inst, text: printInstruction(target, inst) });
      if (inst.def.attrs & Attr.EndProgram) end = at * 4 + inst.size;
      at += inst.size >>> 2;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      lines.push({ address: at * 4, text: `<invalid: ${e.reason}>`, error: e });
      at += 1;
    }
  }
  const labels = new Map<number, string>();
  for (const l of lines) {
    const t = l.inst && branchTarget(l.inst);
    if (t !== undefined) labels.set(t, labelName(t));
  }
  return { lines, labels, end: end >= 0 ? end : bytes.length };
}

/** A line's text with its branch target spelled as a label. */
export function textWithLabel(line: ProgramLine): string {
  const t = line.inst && branchTarget(line.inst);
  return t === undefined ? line.text : line.text.replace(/\s\S+$/, ` ${labelName(t)}`);
}

export function disassembleProgram(target: Target, bytes: Uint8Array): Program {
  const all = programLines(target, bytes);
  const hasEnd = all.lines.some((l) => l.inst && l.inst.def.attrs & Attr.EndProgram);
  const lines = all.lines.filter((l) => l.address < all.end);
  const out: string[] = [];
  for (const l of lines) {
    const label = all.labels.get(l.address);
    if (label) out.push(`${label}:`);
    out.push(`  /*${l.address.toString(16).padStart(6, '0')}*/ ${textWithLabel(l)}`);
  }
  if (hasEnd) {
    out.push(`; end of program at 0x${all.end.toString(16)}`);
    if (all.end < bytes.length)
      out.push(`; ${bytes.length - all.end} bytes after the end (padding or data) not decoded`);
  } else out.push('; no s_endpgm found: the whole input was decoded');
  return { lines, labels: all.labels, end: all.end, text: out.join('\n') + '\n' };
}
