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

export function disassembleProgram(target: Target, bytes: Uint8Array): Program {
  const words = bytesToWords(bytes);
  const decoded: ProgramLine[] = [];
  let at = 0;
  let end = -1;
  while (at < words.length) {
    try {
      const inst = decodeAt(target, words, at);
      decoded.push({ address: at * 4, inst, text: printInstruction(target, inst) });
      if (inst.def.attrs & Attr.EndProgram) end = at * 4 + inst.size;
      at += inst.size >>> 2;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      decoded.push({ address: at * 4, text: `<invalid: ${e.reason}>`, error: e });
      at += 1;
    }
  }
  const endAddress = end >= 0 ? end : bytes.length;
  const lines = decoded.filter((l) => l.address < endAddress);
  const labels = new Map<number, string>();
  for (const l of lines) {
    const t = l.inst && branchTarget(l.inst);
    if (t !== undefined) labels.set(t, labelName(t));
  }
  const out: string[] = [];
  for (const l of lines) {
    const label = labels.get(l.address);
    if (label) out.push(`${label}:`);
    let text = l.text;
    const t = l.inst && branchTarget(l.inst);
    if (t !== undefined) text = text.replace(/\s\S+$/, ` ${labelName(t)}`);
    out.push(`  /*${l.address.toString(16).padStart(6, '0')}*/ ${text}`);
  }
  if (end >= 0) {
    out.push(`; end of program at 0x${end.toString(16)}`);
    if (end < bytes.length) out.push(`; ${bytes.length - end} bytes after the end (padding or data) not decoded`);
  } else out.push('; no s_endpgm found: the whole input was decoded');
  return { lines, labels, end: endAddress, text: out.join('\n') + '\n' };
}
