/**
 * Generator of src/isa/registry/generated/vop-ext-forms.ts: which VOP opcodes have an
 * SDWA, DPP, DPP8 or (gfx11) VOP3/VOP3P-DPP form in which generation, and the mnemonic
 * llvm-mc-19 prints for that form. Facts come from llvm-mc-19 opcode sweeps (LLVM as an
 * oracle only): every opcode is encoded once per form with canonical VGPR operands and
 * disassembled; an opcode has the form when LLVM decodes the whole encoding.
 *   npx tsx tools/registry/vop-ext.ts
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { LLVM_MC } from './llvm.ts';

const OUT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'src',
  'isa',
  'registry',
  'generated',
  'vop-ext-forms.ts',
);

/** Generations swept, by `Gen` index, and the processor used. */
const CPUS: readonly [number, string][] = [
  [1, 'tonga'],
  [2, 'gfx900'],
  [3, 'gfx1010'],
  [4, 'gfx1030'],
  [5, 'gfx1100'],
];

type Form =
  | 'VOP1_SDWA'
  | 'VOP2_SDWA'
  | 'VOPC_SDWA'
  | 'VOP1_DPP'
  | 'VOP2_DPP'
  | 'VOPC_DPP'
  | 'VOP1_DPP8'
  | 'VOP2_DPP8'
  | 'VOPC_DPP8'
  | 'VOP3_DPP'
  | 'VOP3_DPP8'
  | 'VOP3P_DPP'
  | 'VOP3P_DPP8';

const SDWA = 0xf9;
const DPP = 0xfa;
const DPP8 = 0xe9;
/** DPP dword: src0 v2, quad_perm identity, row and bank masks all on. */
const DPP_WORD = 0xff00e402;
/** DPP8 dword: src0 v2, lane selects 7..0. */
const DPP8_WORD = 0x05397702;

/** Candidate encodings of one opcode in one form (the first LLVM accepts counts). */
function encodings(form: Form, op: number, gen: number): number[][] {
  const vop1 = (m: number): number => (0x7e000000 | (op << 9) | (1 << 17) | m) >>> 0;
  const vop2 = (m: number): number => ((op << 25) | (1 << 17) | (3 << 9) | m) >>> 0;
  const vopc = (m: number): number => (0x7c000000 | (op << 17) | (3 << 9) | m) >>> 0;
  const vop3 = (m: number, src2: number): number[] => [
    (0xd4000000 | (op << 16) | 1) >>> 0,
    (m | (258 << 9) | (src2 << 18)) >>> 0,
  ];
  const vop3p = (m: number, src2: number): number[] => [
    (0xcc004000 | (op << 16) | 1) >>> 0,
    (m | (258 << 9) | (src2 << 18) | (3 << 27)) >>> 0,
  ];
  switch (form) {
    case 'VOP1_SDWA':
      return [
        [vop1(SDWA), 0x00060602],
        [vop1(SDWA) & ~(0xff << 17), 0],
      ];
    case 'VOP2_SDWA':
      return [[vop2(SDWA), 0x06060602]];
    case 'VOPC_SDWA':
      return [[vopc(SDWA), 0x06060002]];
    case 'VOP1_DPP':
      return [
        [vop1(DPP), DPP_WORD],
        [vop1(DPP) & ~(0xff << 17), 0],
      ];
    case 'VOP2_DPP':
      return [[vop2(DPP), DPP_WORD]];
    case 'VOPC_DPP':
      return [[vopc(DPP), DPP_WORD]];
    case 'VOP1_DPP8':
      return [
        [vop1(DPP8), DPP8_WORD],
        [vop1(DPP8) & ~(0xff << 17), 0],
      ];
    case 'VOP2_DPP8':
      return [[vop2(DPP8), DPP8_WORD]];
    case 'VOPC_DPP8':
      return [[vopc(DPP8), DPP8_WORD]];
    case 'VOP3_DPP':
      return [
        [...vop3(DPP, 259), DPP_WORD],
        [...vop3(DPP, 0), DPP_WORD],
        [vop3(DPP, 0)[0], DPP, DPP_WORD],
      ];
    case 'VOP3_DPP8':
      return [
        [...vop3(DPP8, 259), DPP8_WORD],
        [...vop3(DPP8, 0), DPP8_WORD],
        [vop3(DPP8, 0)[0], DPP8, DPP8_WORD],
      ];
    case 'VOP3P_DPP':
      return [[...vop3p(DPP, 259), DPP_WORD]];
    case 'VOP3P_DPP8':
      return [[...vop3p(DPP8, 259), DPP8_WORD]];
  }
  void gen;
  return [];
}

function opCount(form: Form): number {
  if (form.startsWith('VOP3P')) return 128;
  if (form.startsWith('VOP3')) return 1024;
  if (form.startsWith('VOP2')) return 62; // VOP2 opcodes 62 and 63 are the VOPC and VOP1 prefixes
  return 256;
}

function formsOf(gen: number): Form[] {
  if (gen <= 2) return ['VOP1_SDWA', 'VOP2_SDWA', 'VOPC_SDWA', 'VOP1_DPP', 'VOP2_DPP', 'VOPC_DPP'];
  const rdna: Form[] = ['VOP1_DPP', 'VOP2_DPP', 'VOPC_DPP', 'VOP1_DPP8', 'VOP2_DPP8', 'VOPC_DPP8'];
  if (gen <= 4) return ['VOP1_SDWA', 'VOP2_SDWA', 'VOPC_SDWA', ...rdna];
  return [...rdna, 'VOP3_DPP', 'VOP3_DPP8', 'VOP3P_DPP', 'VOP3P_DPP8'];
}

const MARKER = 0xbf80007b; // s_nop 0x7b: separates the sweep's instructions in llvm-mc's output

function tokens(words: number[]): string {
  const t: string[] = [];
  for (const w of words)
    for (let b = 0; b < 4; b++) t.push(`0x${((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0')}`);
  return t.join(',');
}

/** Disassembles each encoding; the mnemonic LLVM prints when it decodes all of it as one instruction, else undefined. */
function sweep(cpu: string, encs: number[][]): (string | undefined)[] {
  const input = encs.map((e) => `${tokens(e)}\n${tokens([MARKER])}`).join('\n') + '\n';
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', `-mcpu=${cpu}`, '--disassemble', '--show-encoding'], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.error) throw r.error;
  const out: (string | undefined)[] = [];
  let chunk: { text: string; bytes: number }[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (!m) continue;
    if (m[2] === tokens([MARKER])) {
      const want = encs[out.length].length * 4;
      // A variant whose operands LLVM flags (a VGPR where an SGPR belongs) is not the canonical one.
      const ok = chunk.length === 1 && chunk[0].bytes === want && !chunk[0].text.includes('Invalid register');
      out.push(ok ? chunk[0].text.split(/\s/)[0] : undefined);
      chunk = [];
    } else chunk.push({ text: m[1], bytes: m[2].split(',').length });
  }
  if (out.length !== encs.length) throw new Error(`sweep on ${cpu} lost its place: ${out.length} of ${encs.length}`);
  return out;
}

/**
 * Bits probed per form, by slot: 0-5 source modifiers (SDWA: src0 neg, abs, sext, src1 neg,
 * abs, sext; DPP: src0 neg, abs, src1 neg, abs; VOP3: neg, abs of src0..2), 6 clamp, 7 omod,
 * 8 op_sel of src0, 9 op_sel of the destination, 10 bit 7 of a VOP1/VOP2 vdst, 11-12
 * op_sel of src1 and src2, 13 bit 7 of the extension dword's src0 VGPR, 14 bit 7 of a
 * VOP2/VOPC vsrc1. Each is
 * [word index, bit], or undefined where the form has no such bit.
 */
type Probe = [number, number] | undefined;
function modBits(form: Form): Probe[] {
  const vdstHigh: Probe = form.startsWith('VOP1') || form.startsWith('VOP2') ? [0, 24] : undefined;
  const vsrc1High: Probe = form.startsWith('VOP2') || form.startsWith('VOPC') ? [0, 16] : undefined;
  const none: Probe[] = [undefined, undefined, undefined, undefined];
  if (form.endsWith('_SDWA'))
    return [
      [1, 20],
      [1, 21],
      [1, 19],
      [1, 28],
      [1, 29],
      [1, 27],
      [1, 13],
      [1, 14],
      undefined,
      undefined,
      vdstHigh,
      undefined,
      undefined,
      [1, 7],
      vsrc1High,
    ];
  if (form.startsWith('VOP3'))
    return [
      [1, 29],
      [0, 8],
      [1, 30],
      [0, 9],
      [1, 31],
      [0, 10],
      [0, 15],
      [1, 27],
      [0, 11],
      [0, 14],
      undefined,
      [0, 12],
      [0, 13],
      [2, 7],
    ];
  if (form.endsWith('_DPP8'))
    return [...none, ...none, undefined, undefined, vdstHigh, undefined, undefined, [1, 7], vsrc1High];
  return [
    [1, 20],
    [1, 21],
    [1, 22],
    [1, 23],
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    vdstHigh,
    undefined,
    undefined,
    [1, 7],
    vsrc1High,
  ];
}

const SLOT_TOKENS: Readonly<Record<number, string>> = {
  6: 'clamp',
  7: 'mul:2',
  8: 'op_sel',
  9: 'op_sel',
  11: 'op_sel',
  12: 'op_sel',
};

/**
 * What LLVM makes of one modifier bit: 0 rejected, 1 printed as neg/abs, 2 printed as
 * sext, 3 accepted but not printed. Packed two bits per probed bit.
 */
function probeMods(cpu: string, form: Form, found: Map<number, number[]>): Map<number, number> {
  const out = new Map<number, number>();
  const bits = modBits(form);
  const ops = [...found.keys()];
  bits.forEach((probe, k) => {
    if (!probe) return;
    const [wi, bit] = probe;
    const encs = ops.map((op) => {
      const e = [...found.get(op)!];
      const idx = form.startsWith('VOP3') ? wi : wi;
      e[idx] = (e[idx] | (1 << bit)) >>> 0;
      return e;
    });
    const texts = sweepText(cpu, encs);
    ops.forEach((op, i) => {
      const t = texts[i];
      const base = texts === undefined ? undefined : t;
      let v = 0;
      if (base !== undefined && k >= 6)
        v = SLOT_TOKENS[k] && base.includes(SLOT_TOKENS[k]) ? 1 : base.includes('Invalid register') ? 2 : 3;
      else if (base !== undefined)
        v = /sext\(/.test(base)
          ? 2
          : /[-|]/.test(base.replace(/^\S+/, '').replace(/dpp8:\[[^\]]*\]|, -?\d+/g, ''))
            ? 1
            : 3;
      out.set(op, (out.get(op) ?? 0) | (v << (2 * k)));
    });
  });
  return out;
}

/** Like sweep, but the whole printed text. */
function sweepText(cpu: string, encs: number[][]): (string | undefined)[] {
  const input = encs.map((e) => `${tokens(e)}\n${tokens([MARKER])}`).join('\n') + '\n';
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', `-mcpu=${cpu}`, '--disassemble', '--show-encoding'], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.error) throw r.error;
  const out: (string | undefined)[] = [];
  let chunk: { text: string; bytes: number }[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (!m) continue;
    if (m[2] === tokens([MARKER])) {
      const want = encs[out.length].length * 4;
      out.push(chunk.length === 1 && chunk[0].bytes === want ? chunk[0].text : undefined);
      chunk = [];
    } else chunk.push({ text: m[1], bytes: m[2].split(',').length });
  }
  return out;
}

function main(): void {
  const table: Record<string, Record<number, [number, string, number][]>> = {};
  for (const [gen, cpu] of CPUS) {
    for (const form of formsOf(gen)) {
      const rows: [number, string, number][] = [];
      const n = opCount(form);
      const cands: number[][][] = [];
      for (let op = 0; op < n; op++) cands.push(encodings(form, op, gen));
      const variants = Math.max(...cands.map((c) => c.length));
      const found: (string | undefined)[] = new Array(n).fill(undefined);
      const foundEnc = new Map<number, number[]>();
      for (let v = 0; v < variants; v++) {
        const ops = [...Array(n).keys()].filter((op) => found[op] === undefined && cands[op][v]);
        const res = sweep(
          cpu,
          ops.map((op) => cands[op][v]),
        );
        ops.forEach((op, i) => {
          found[op] = res[i];
          if (res[i]) foundEnc.set(op, cands[op][v]);
        });
      }
      const mods = probeMods(cpu, form, foundEnc);
      found.forEach((name, op) => {
        if (name) rows.push([op, name, mods.get(op) ?? 0]);
      });
      (table[form] ??= {})[gen] = rows;
    }
  }
  const lines: string[] = [
    '// GENERATED by tools/registry/vop-ext.ts from llvm-mc-19 opcode sweeps. Do not edit.',
    '// For each VOP extension form and generation (Gen index): [opcode, mnemonic llvm-mc-19 prints, modifier bits].',
    '// VOP3_DPP/VOP3_DPP8 opcodes are VOP3 (e64) opcodes; VOP3P ones are VOP3P opcodes.',
    '// Modifier bits: two per probed source-modifier bit (SDWA: src0 neg, abs, sext, src1 neg, abs, sext;',
    '// DPP: src0 neg, abs, src1 neg, abs; VOP3: src0 neg, abs, src1 neg, abs, src2 neg, abs):',
    '// 0 rejected, 1 printed as -/|…|, 2 printed as sext(…), 3 accepted and not printed;',
    '// slots 6-9 (clamp, omod, op_sel of src0, op_sel of dst), 10 (VOP1/VOP2 vdst >= v128),',
    '// 11-12 (op_sel of src1, src2), 13 (extension src0 >= v128), 14 (VOP2/VOPC vsrc1 >= v128):',
    '// 0 rejected, 1 printed, 2 decoded but printed as an invalid register, 3 accepted and not printed.',
    '',
    'export type VopExtForm =',
    ...Object.keys(table).map((f, i, a) => `  | '${f}'${i === a.length - 1 ? ';' : ''}`),
    '',
    'export const VOP_EXT_FORMS: Readonly<Record<VopExtForm, Readonly<Partial<Record<number, readonly (readonly [number, string, number])[]>>>>> = {',
  ];
  for (const [form, byGen] of Object.entries(table)) {
    lines.push(`  ${form}: {`);
    for (const [gen, rows] of Object.entries(byGen)) {
      lines.push(`    ${gen}: [`);
      for (const [op, name, m] of rows) lines.push(`      [${op}, '${name}', ${m}],`);
      lines.push('    ],');
    }
    lines.push('  },');
  }
  lines.push('};', '');
  writeFileSync(OUT, lines.join('\n'));
  console.log(
    `wrote ${OUT}: ${Object.values(table).reduce((s, g) => s + Object.values(g).reduce((t, r) => t + r.length, 0), 0)} rows`,
  );
}

main();
