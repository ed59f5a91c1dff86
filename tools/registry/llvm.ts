/**
 * Runs llvm-mc-19 in batches for the registry generators (opcode sweeps). Generators use
 * LLVM only as an oracle of facts (which opcode is which mnemonic, operand widths), never
 * as code. gfx7 cannot be disassembled by LLVM 19 ("Disassembly not yet supported"), so
 * gfx7 facts come from assembling text instead.
 */
import { spawnSync } from 'node:child_process';

export const LLVM_MC = process.env.LLVM_MC ?? 'llvm-mc-19';

function run(args: string[], input: string): { stdout: string; stderr: string } {
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr };
}

function hexToTokens(hex: string): string {
  const t: string[] = [];
  for (let i = 0; i < hex.length; i += 2) t.push(`0x${hex.slice(i, i + 2)}`);
  return t.join(',');
}

/**
 * Disassembles each hex string (bytes in memory order) as one instruction. Returns the
 * text, or '<invalid>' when LLVM rejects the bytes, or '<partial>' when LLVM decoded a
 * shorter instruction than the bytes given.
 */
export function disassembleBatch(cpu: string, hexes: readonly string[], mattr = ''): string[] {
  // One llvm-mc run per instruction would be slow; instead each input line is one
  // instruction, and llvm-mc reports which lines it could not decode by line number.
  const input = hexes.map(hexToTokens).join('\n') + '\n';
  const args = ['--disassemble', `-mcpu=${cpu}`, '--show-encoding'];
  if (mattr) args.push(`-mattr=${mattr}`);
  const { stdout, stderr } = run(args, input);
  const out: string[] = new Array(hexes.length).fill('<invalid>');
  // stdout lines: "\t<text>\t\t; encoding: [0x..,...]" in input order for the decoded ones.
  const decoded: { text: string; enc: string }[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (m) decoded.push({ text: m[1].trim(), enc: m[2].replace(/0x|,/g, '') });
  }
  const bad = new Set<number>();
  for (const m of stderr.matchAll(/<stdin>:(\d+):\d+: warning: invalid instruction encoding/g)) bad.add(Number(m[1]) - 1);
  let k = 0;
  for (let i = 0; i < hexes.length; i++) {
    if (bad.has(i)) continue;
    // A line may decode into several instructions if the bytes hold more than one.
    let acc = '';
    const texts: string[] = [];
    while (k < decoded.length && acc.length < hexes[i].length) {
      acc += decoded[k].enc;
      texts.push(decoded[k].text);
      k++;
    }
    out[i] = texts.length === 1 && acc === hexes[i] ? texts[0] : '<partial>';
  }
  return out;
}

export interface AsmResult {
  readonly hex?: string;
  readonly error?: string;
  readonly text?: string;
}

/** Assembles each line as one statement; errors are reported per line. */
export function assembleBatch(cpu: string, lines: readonly string[], mattr = ''): AsmResult[] {
  const args = [`-mcpu=${cpu}`, '--show-encoding'];
  if (mattr) args.push(`-mattr=${mattr}`);
  const { stdout, stderr } = run(args, lines.join('\n') + '\n');
  const errs = new Map<number, string>();
  for (const m of stderr.matchAll(/<stdin>:(\d+):\d+: error: (.*)/g)) if (!errs.has(Number(m[1]) - 1)) errs.set(Number(m[1]) - 1, m[2]);
  const enc: { text: string; hex: string }[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (m) enc.push({ text: m[1].trim(), hex: m[2].replace(/0x|,/g, '') });
  }
  const out: AsmResult[] = [];
  let k = 0;
  for (let i = 0; i < lines.length; i++) {
    const e = errs.get(i);
    if (e !== undefined) out.push({ error: e });
    else if (!lines[i].trim()) out.push({ error: 'empty' });
    else {
      const r = enc[k++];
      out.push(r ? { hex: r.hex, text: r.text } : { error: 'no output' });
    }
  }
  return out;
}
