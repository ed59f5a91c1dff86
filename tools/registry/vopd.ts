/**
 * Generator of src/isa/registry/generated/vopd.ts: the instructions of the small families
 * VOPD (gfx11 dual issue), VINTERP and LDSDIR (gfx11), VINTRP (gfx7-gfx10.3) and EXP (all).
 * Facts come from llvm-mc-19 used as an oracle: opcode sweeps disassembled for gfx8+,
 * and, for gfx7 (which LLVM 19 cannot disassemble), the gfx8 mnemonics assembled for
 * bonaire with the opcode read back from the bytes. Attribute bits and flags are set by
 * the rules below, from the mnemonic and the printed operand shape.
 *   npx tsx tools/registry/vopd.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { assembleBatch, disassembleBatch } from './llvm.ts';
import { Attr } from '../../src/isa/registry/types.ts';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'isa', 'registry', 'generated', 'vopd.ts');

interface Operand {
  field: string;
  role: 'dst' | 'src';
  cls: string;
  type: string;
  implicit?: boolean;
}

interface Def {
  name: string;
  family: string;
  op: number[];
  operands: Operand[];
  attrs: number;
  mem: string;
  flags?: Record<string, number | string | boolean>;
}

function hexOf(words: readonly number[]): string {
  let s = '';
  for (const w of words) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

const mnemonic = (text: string): string => text.split(/\s/)[0];

/**
 * Disassembles each encoding in its own llvm-mc run: in one batch, the bytes left over
 * from a rejected line are decoded as further instructions and misalign the lines after.
 */
function disassembleEach(cpu: string, hexes: readonly string[]): string[] {
  return hexes.map((h) => disassembleBatch(cpu, [h])[0]);
}

/** The value type of a VALU mnemonic's sources, from its type suffix. */
function srcType(name: string): string {
  if (/_f32_f16$/.test(name)) return 'v2f16';
  const m = /_(f32|b32|u32|i32|f16)$/.exec(name);
  return m ? m[1] : 'b32';
}

// ---------------------------------------------------------------- VOPD

type VopdShape = 'vop2' | 'mov' | 'fmamk' | 'fmaak';

interface VopdComponent {
  name: string;
  shape: VopdShape;
  opx: number;
  opy: number;
}

/** The operand shape of one printed VOPD component (`v_dual_fmamk_f32 v6, v1, 0x1, v4`). */
function vopdShape(component: string): VopdShape {
  const ops = component
    .slice(mnemonic(component).length)
    .split(',')
    .map((s) => s.trim());
  if (ops.length === 2) return 'mov';
  if (ops.length === 4) return ops[2].startsWith('0x') ? 'fmamk' : 'fmaak';
  return 'vop2';
}

function sweepVopd(): VopdComponent[] {
  // X sweep: Y = v_dual_mov_b32 (8); Y sweep: X = v_dual_mov_b32. Sources are VGPRs, so
  // only fmamk/fmaak need the literal dword; an opcode whose 8 bytes LLVM rejects is tried
  // again with a literal. vsrc1 stays v0: LLVM rejects a mov whose unused vsrc1 is not 0.
  const word0 = (opx: number, opy: number): number => ((0x32 << 26) | (opx << 22) | (opy << 17) | 0x101) >>> 0;
  const word1 = ((6 << 24) | (3 << 17) | 0x103) >>> 0;
  const xs = Array.from({ length: 16 }, (_, op) => [word0(op, 8), word1]);
  const ys = Array.from({ length: 32 }, (_, op) => [word0(8, op), word1]);
  const all = [...xs, ...ys];
  const short = disassembleEach('gfx1100', all.map(hexOf));
  const long = disassembleEach(
    'gfx1100',
    all.map((w) => hexOf([...w, 0x11223344])),
  );
  const byName = new Map<string, VopdComponent>();
  all.forEach((_, i) => {
    const text = short[i].startsWith('<') ? long[i] : short[i];
    if (text.startsWith('<')) return;
    const [x, y] = text.split('::').map((s) => s.trim());
    const isX = i < xs.length;
    const comp = isX ? x : y;
    const name = mnemonic(comp);
    const c = byName.get(name) ?? { name, shape: vopdShape(comp), opx: -1, opy: -1 };
    if (isX) c.opx = i;
    else c.opy = i - xs.length;
    byName.set(name, c);
  });
  return [...byName.values()].sort((a, b) => (a.opx < 0 ? 99 : a.opx) - (b.opx < 0 ? 99 : b.opx) || a.opy - b.opy);
}

function vopdDef(c: VopdComponent): Def {
  const base = c.name.replace(/^v_dual_/, '');
  const t = srcType(c.name);
  const dstType = t === 'v2f16' ? 'f32' : t;
  const operands: Operand[] = [{ field: 'vdst', role: 'dst', cls: 'v', type: dstType }];
  operands.push({ field: 'src0', role: 'src', cls: 'vs', type: t });
  if (c.shape === 'fmamk') operands.push({ field: 'k', role: 'src', cls: 'imm', type: t });
  if (c.shape !== 'mov') operands.push({ field: 'vsrc1', role: 'src', cls: 'v', type: t });
  if (c.shape === 'fmaak') operands.push({ field: 'k', role: 'src', cls: 'imm', type: t });
  // Rules: *mac/*acc accumulate into vdst; cndmask selects by vcc_lo.
  const accumulates = /(mac|acc)_/.test(base);
  if (accumulates) operands.push({ field: 'vdst', role: 'src', cls: 'v', type: dstType, implicit: true });
  const readsVcc = base.startsWith('cndmask');
  if (readsVcc) operands.push({ field: 'vcc', role: 'src', cls: 's', type: 'b32', implicit: true });
  const slot = c.opx >= 0 && c.opy >= 0 ? 'xy' : c.opx >= 0 ? 'x' : 'y';
  return {
    name: c.name,
    family: 'VOPD',
    op: [-1, -1, -1, -1, -1, c.opx],
    operands,
    attrs: Attr.ReadsExec | (readsVcc ? Attr.ReadsVcc : 0),
    mem: 'none',
    flags: { slot, opy: c.opy, shape: c.shape },
  };
}

// ---------------------------------------------------------------- VINTERP, LDSDIR (gfx11)

function sweepVinterp(): Def[] {
  const w = (op: number, opsel: number): number[] => [
    ((0xcd << 24) | (op << 16) | (opsel << 11)) >>> 0,
    ((0x103 << 18) | (0x102 << 9) | 0x101) >>> 0,
  ];
  const ops = Array.from({ length: 128 }, (_, op) => op);
  const plain = disassembleEach(
    'gfx1100',
    ops.map((op) => hexOf(w(op, 0))),
  );
  const withSel = disassembleEach(
    'gfx1100',
    ops.map((op) => hexOf(w(op, 15))),
  );
  const defs: Def[] = [];
  for (const op of ops) {
    if (plain[op].startsWith('<')) continue;
    const name = mnemonic(plain[op]);
    // v_interp_p10_f16_f32: f16 result, f16 attribute data, f32 barycentric.
    const half = /_f16_f32$/.test(name);
    const p2 = /_p2_/.test(name);
    const f = half ? 'f16' : 'f32';
    defs.push({
      name,
      family: 'VINTERP',
      op: [-1, -1, -1, -1, -1, op],
      operands: [
        { field: 'vdst', role: 'dst', cls: 'v', type: f },
        { field: 'src0', role: 'src', cls: 'v', type: f },
        { field: 'src1', role: 'src', cls: 'v', type: 'f32' },
        { field: 'src2', role: 'src', cls: 'v', type: p2 ? 'f32' : f },
      ],
      attrs: Attr.ReadsExec,
      mem: 'none',
      flags: { opsel: withSel[op].includes('op_sel') },
    });
  }
  return defs;
}

function sweepLdsdir(): Def[] {
  const ops = [0, 1, 2, 3];
  const texts = disassembleEach(
    'gfx1100',
    ops.map((op) => hexOf([((0xce << 24) | (op << 20) | 5) >>> 0])),
  );
  const defs: Def[] = [];
  for (const op of ops) {
    if (texts[op].startsWith('<')) continue;
    defs.push({
      name: mnemonic(texts[op]),
      family: 'LDSDIR',
      op: [-1, -1, -1, -1, -1, op],
      operands: [
        { field: 'vdst', role: 'dst', cls: 'v', type: 'b32' },
        { field: 'm0', role: 'src', cls: 's', type: 'b32', implicit: true },
      ],
      attrs: Attr.ReadsExec | Attr.ReadsM0 | Attr.MemLoad,
      mem: 'lds',
      flags: { attr: texts[op].includes('attr') },
    });
  }
  return defs;
}

// ---------------------------------------------------------------- VINTRP (gfx7-gfx10.3)

const VINTRP_CPUS: readonly [number, string, number][] = [
  [1, 'tonga', 0x35],
  [2, 'gfx900', 0x35],
  [3, 'gfx1010', 0x32],
  [4, 'gfx1030', 0x32],
];

function sweepVintrp(): Def[] {
  const byName = new Map<string, { op: number[]; param: boolean }>();
  for (const [gen, cpu, prefix] of VINTRP_CPUS) {
    const ops = [0, 1, 2, 3];
    const texts = disassembleEach(
      cpu,
      ops.map((op) => hexOf([((prefix << 26) | (5 << 18) | (op << 16) | (1 << 10)) >>> 0])),
    );
    for (const op of ops) {
      if (texts[op].startsWith('<')) continue;
      const name = mnemonic(texts[op]).replace(/_e32$/, '');
      const e = byName.get(name) ?? { op: [-1, -1, -1, -1, -1, -1], param: /, p\d+,/.test(texts[op]) };
      e.op[gen] = op;
      byName.set(name, e);
    }
  }
  // gfx7: assemble each gfx8 mnemonic for bonaire and read the opcode field back.
  const names = [...byName.keys()];
  const lines = names.map((n) => (byName.get(n)!.param ? `${n} v5, p10, attr1.x` : `${n} v5, v0, attr1.x`));
  assembleBatch('bonaire', lines).forEach((r, i) => {
    if (!r.hex) return;
    const w = parseInt(r.hex.slice(6, 8) + r.hex.slice(4, 6) + r.hex.slice(2, 4) + r.hex.slice(0, 2), 16);
    byName.get(names[i])!.op[0] = (w >>> 16) & 3;
  });
  return names.map((name) => {
    const e = byName.get(name)!;
    const operands: Operand[] = [{ field: 'vdst', role: 'dst', cls: 'v', type: 'f32' }];
    if (e.param) operands.push({ field: 'vsrc', role: 'src', cls: 'imm', type: 'u32' });
    else operands.push({ field: 'vsrc', role: 'src', cls: 'v', type: 'f32' });
    // v_interp_p2 adds to the p1 result already in vdst.
    if (/_p2_/.test(name)) operands.push({ field: 'vdst', role: 'src', cls: 'v', type: 'f32', implicit: true });
    operands.push({ field: 'm0', role: 'src', cls: 's', type: 'b32', implicit: true });
    return {
      name,
      family: 'VINTRP',
      op: e.op,
      operands,
      attrs: Attr.ReadsExec | Attr.ReadsM0 | Attr.MemLoad,
      mem: 'lds',
      flags: { param: e.param },
    };
  });
}

// ---------------------------------------------------------------- EXP

function expDefs(): Def[] {
  // EXP has no opcode field: the one instruction is opcode 0 in every generation.
  return [
    {
      name: 'exp',
      family: 'EXP',
      op: [0, 0, 0, 0, 0, 0],
      operands: [0, 1, 2, 3].map((i) => ({ field: `vsrc${i}`, role: 'src' as const, cls: 'v', type: 'b32' })),
      attrs: Attr.ReadsExec | Attr.MemStore,
      mem: 'export',
    },
  ];
}

// ---------------------------------------------------------------- output

function operandText(o: Operand): string {
  return `{ field: '${o.field}', role: '${o.role}', cls: '${o.cls}', dwords: 1, type: '${o.type}'${o.implicit ? ', implicit: true' : ''} }`;
}

function defText(d: Def): string {
  const flags = d.flags
    ? `, flags: { ${Object.entries(d.flags)
        .map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'` : String(v)}`)
        .join(', ')} }`
    : '';
  return `  { name: '${d.name}', family: '${d.family}', op: [${d.op.join(', ')}], operands: [${d.operands.map(operandText).join(', ')}], attrs: ${d.attrs}, mem: '${d.mem}'${flags} },`;
}

function main(): void {
  const defs = [...sweepVopd().map(vopdDef), ...sweepVinterp(), ...sweepLdsdir(), ...sweepVintrp(), ...expDefs()];
  const text = [
    '// GENERATED by `npx tsx tools/registry/vopd.ts` from llvm-mc-19 sweeps; do not edit.',
    '// VOPD (gfx11; op = X opcode, flags.opy = Y opcode, flags.slot = x|y|xy), VINTERP, LDSDIR, VINTRP, EXP.',
    "import type { InstructionDef } from '../types.ts';",
    '',
    'export const TABLE: readonly InstructionDef[] = [',
    ...defs.map(defText),
    '];',
    '',
  ].join('\n');
  writeFileSync(OUT, text);
  console.log(`wrote ${defs.length} instructions to ${OUT}`);
}

main();
