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
 * text, or '<invalid>' when LLVM rejects the bytes, or '<partial>' when LLVM decoded the
 * bytes as something of another size. Each probe is followed by two `s_nop` sentinels, so
 * outputs group by probe even when LLVM skips an undecodable dword and decodes the rest of
 * a probe as another instruction (a probe may swallow the first sentinel as its literal;
 * the second always marks the end). An instruction whose re-encoding differs from the
 * input (LLVM ignoring a field) still counts when its size matches.
 */
export function disassembleBatch(cpu: string, hexes: readonly string[], mattr = ''): string[] {
  const SENTINEL_A = '0x05,0x00,0x80,0xbf';
  const SENTINEL_B = '0x06,0x00,0x80,0xbf';
  const input = hexes.map((h) => `${hexToTokens(h)}\n${SENTINEL_A}\n${SENTINEL_B}`).join('\n') + '\n';
  const args = ['--disassemble', `-mcpu=${cpu}`, '--show-encoding'];
  if (mattr) args.push(`-mattr=${mattr}`);
  const { stdout } = run(args, input);
  const groups: { text: string; bytes: number }[][] = [[]];
  for (const line of stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (!m) continue;
    const text = m[1].trim();
    const bytes = m[2].split(',').length;
    if (text === 's_nop 6') groups.push([]);
    else groups[groups.length - 1].push({ text, bytes });
  }
  return hexes.map((hex, i) => {
    const g = (groups[i] ?? []).filter((x, k, all) => !(x.text === 's_nop 5' && k === all.length - 1));
    if (g.length === 0) return '<invalid>';
    if (g.length === 1 && g[0].bytes * 2 === hex.length) return g[0].text;
    // The probe swallowed the first sentinel as its literal: its size is the probe's plus 4.
    if (g.length === 1 && g[0].bytes * 2 === hex.length + 8) return g[0].text;
    return '<partial>';
  });
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
  for (const m of stderr.matchAll(/<stdin>:(\d+):\d+: error: (.*)/g))
    if (!errs.has(Number(m[1]) - 1)) errs.set(Number(m[1]) - 1, m[2]);
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
