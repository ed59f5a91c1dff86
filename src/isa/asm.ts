/**
 * The assembler front end: LLVM's AMDGPU assembly syntax, one statement a line, labels
 * (`name:`), comments (`//`, `;`, `#`). Two passes: the first places statements and
 * labels, the second encodes with every label known. Mnemonics go to the codec whose
 * registry entries own them.
 */
import { AsmError } from './errors.ts';
import type { Target } from './gen.ts';
import { CODECS } from './families/index.ts';
import type { AsmStatement } from './instruction.ts';

export interface AsmLineResult {
  readonly words?: number[];
  readonly error?: AsmError;
}

/** Splits one source line into its statement (no label, no comment), or undefined when empty. */
export function splitStatement(text: string, address: number, line: number): AsmStatement | undefined {
  const code = stripComment(text).trim();
  if (!code) return undefined;
  const m = /^(\S+)\s*(.*)$/.exec(code);
  if (!m) return undefined;
  return { mnemonic: m[1].toLowerCase(), operandText: m[2].trim(), address, line };
}

function stripComment(text: string): string {
  // `;` and `//` start comments in LLVM's AMDGPU syntax; `#` too at the start of a line.
  let s = text;
  const i = s.indexOf('//');
  if (i >= 0) s = s.slice(0, i);
  const j = s.indexOf(';');
  if (j >= 0) s = s.slice(0, j);
  if (/^\s*#/.test(s)) return '';
  return s;
}

/** Assembles one statement; throws AsmError. */
export function assembleStatement(
  target: Target,
  stmt: AsmStatement,
  resolveLabel: (name: string) => number | undefined = () => undefined,
): number[] {
  for (const codec of CODECS) {
    const words = codec.assemble(target, stmt, resolveLabel);
    if (words) return words;
  }
  throw new AsmError(`invalid instruction`, stmt.line);
}

/** Assembles a lone line (no labels): the `--tsv` form. */
export function assembleLine(target: Target, text: string): AsmLineResult {
  try {
    const stmt = splitStatement(text, 0, 0);
    if (!stmt) return { error: new AsmError('empty statement') };
    return { words: assembleStatement(target, stmt) };
  } catch (e) {
    if (e instanceof AsmError) return { error: e };
    throw e;
  }
}

export interface AssembledStatement {
  readonly line: number;
  readonly address: number;
  readonly words: readonly number[];
}

export interface AssembledProgram {
  readonly words: Uint32Array;
  readonly labels: ReadonlyMap<string, number>;
  readonly statements: readonly AssembledStatement[];
}

const LABEL = /^\s*([A-Za-z_.$][\w.$]*):/;

/** Assembles a whole source with labels; throws AsmError naming the line. */
export function assembleProgram(target: Target, source: string): AssembledProgram {
  const lines = source.split('\n');
  const labels = new Map<string, number>();
  interface Placed {
    stmt: AsmStatement;
    size: number;
  }
  const placed: Placed[] = [];
  // First pass: sizes with labels unknown (branch offsets do not change an instruction's size).
  let address = 0;
  lines.forEach((raw, i) => {
    let text = raw;
    for (let m = LABEL.exec(text); m; m = LABEL.exec(text)) {
      if (labels.has(m[1])) throw new AsmError(`label '${m[1]}' defined twice`, i + 1);
      labels.set(m[1], address);
      text = text.slice(m[0].length);
    }
    const code = stripComment(text).trim();
    if (!code || code.startsWith('.')) return; // directives are accepted and ignored
    const stmt = splitStatement(text, address, i + 1);
    if (!stmt) return;
    const words = assembleStatement(target, stmt, () => address);
    placed.push({ stmt, size: words.length * 4 });
    address += words.length * 4;
  });
  const out: number[] = [];
  const statements: AssembledStatement[] = [];
  for (const p of placed) {
    const words = assembleStatement(target, p.stmt, (name) => {
      const a = labels.get(name);
      if (a === undefined) throw new AsmError(`undefined label '${name}'`, p.stmt.line);
      return a;
    });
    if (words.length * 4 !== p.size) throw new AsmError('instruction size changed between passes', p.stmt.line);
    statements.push({ line: p.stmt.line, address: p.stmt.address, words });
    out.push(...words);
  }
  return { words: Uint32Array.from(out), labels, statements };
}
