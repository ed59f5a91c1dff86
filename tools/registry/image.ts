/**
 * Generator of the MIMG (image) instruction table:
 *   npx tsx tools/registry/image.ts   → src/isa/registry/generated/image.ts
 *
 * Facts come from llvm-mc-19 used as an oracle: an opcode sweep per processor
 * (tonga, gfx900, gfx1010, gfx1030, gfx1100) gives each opcode's mnemonic, the vdata width
 * it decodes with dmask 0x1 (4 for gather-like instructions) and, on gfx8/9, the vaddr
 * width LLVM's decoder defaults to. gfx7 cannot be disassembled by LLVM 19, so its
 * opcodes come from assembling every known mnemonic with -mcpu=bonaire.
 * Address components (extra arguments, coordinates, lod/clamp/mip, gradients) follow
 * from the mnemonic by the AMD ISA documents' naming rules (below).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { LLVM_MC } from './llvm.ts';

const OUT = new URL('../../src/isa/registry/generated/image.ts', import.meta.url);

/** Gen index order of OpcodeByGen. */
const SWEEPS = [
  { gen: 1, cpu: 'tonga', layout: 'gcn' },
  { gen: 2, cpu: 'gfx900', layout: 'gcn' },
  { gen: 3, cpu: 'gfx1010', layout: 'gfx10' },
  { gen: 4, cpu: 'gfx1030', layout: 'gfx10' },
  { gen: 5, cpu: 'gfx1100', layout: 'gfx11' },
] as const;

function hexWord(w: number): string {
  let s = '';
  for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

/**
 * Disassembles each hex string as one instruction. llvm-mc reads its input as one byte
 * stream, so an invalid first dword is skipped and the rest decoded on; the warnings'
 * line numbers tell which inputs failed and how many bytes each skipped.
 */
function disassemble(cpu: string, hexes: readonly string[]): string[] {
  const input =
    hexes
      .map((h) =>
        h
          .match(/../g)!
          .map((b) => `0x${b}`)
          .join(','),
      )
      .join('\n') + '\n';
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', '--disassemble', `-mcpu=${cpu}`, '--show-encoding'], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const decoded: { text: string; bytes: number }[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (m) decoded.push({ text: m[1].trim(), bytes: m[2].split(',').length });
  }
  const warnings = new Map<number, number>();
  for (const m of r.stderr.matchAll(/<stdin>:(\d+):\d+: warning: invalid instruction encoding/g)) {
    const line = Number(m[1]) - 1;
    warnings.set(line, (warnings.get(line) ?? 0) + 1);
  }
  let k = 0;
  return hexes.map((h, i) => {
    const bad = warnings.get(i) ?? 0;
    let got = 4 * bad;
    const texts: string[] = [];
    while (got < h.length / 2 && k < decoded.length) {
      got += decoded[k].bytes;
      texts.push(decoded[k++].text);
    }
    return bad || texts.length !== 1 ? '<invalid>' : texts[0];
  });
}

function assemble(cpu: string, lines: readonly string[]): (string | undefined)[] {
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', `-mcpu=${cpu}`, '--show-encoding'], {
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
  });
  const errs = new Set<number>();
  for (const m of r.stderr.matchAll(/<stdin>:(\d+):\d+: error/g)) errs.add(Number(m[1]) - 1);
  const enc: string[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /; encoding: \[(.*)\]/.exec(line);
    if (m) enc.push(m[1].replace(/0x|,/g, ''));
  }
  let k = 0;
  return lines.map((_, i) => (errs.has(i) ? undefined : enc[k++]));
}

/** dword0 of an opcode in a layout, with the given extra bits. */
function word0(layout: string, op: number, bits: number): number {
  if (layout === 'gcn') return ((0x3c << 26) | (op << 18) | bits) >>> 0;
  if (layout === 'gfx10') return ((0x3c << 26) | ((op & 0x7f) << 18) | (op >> 7) | bits) >>> 0;
  return ((0x3c << 26) | (op << 18) | bits) >>> 0;
}

interface Seen {
  op: number[];
  /** Gens (bitmask) where dmask 0x1 decodes to four vdata registers. */
  vdata4: number;
  /** Default vaddr dwords of the gfx8/9 decoder. */
  gcnVaddr: number;
  /** vaddr sizes the gfx9 assembler takes, bit n-1 for n dwords. */
  gcnAddrSizes: number;
  /** Gens (bitmask) whose decoder rejects the instruction with d16 set. */
  noD16: number;
}

function newSeen(): Seen {
  return { op: [-1, -1, -1, -1, -1, -1], vdata4: 0, gcnVaddr: 0, gcnAddrSizes: 0, noD16: 0 };
}

function regWidth(text: string): number {
  const m = /^v\[(\d+):(\d+)\]$/.exec(text);
  return m ? Number(m[2]) - Number(m[1]) + 1 : 1;
}

function sweep(): Map<string, Seen> {
  const seen = new Map<string, Seen>();
  const note = (name: string): Seen => {
    let s = seen.get(name);
    if (!s) seen.set(name, (s = newSeen()));
    return s;
  };
  for (const { gen, cpu, layout } of SWEEPS) {
    const max = layout === 'gcn' ? 128 : 256;
    // Plain form (dmask 0x1), and the BVH form (dmask 0xf, unorm, r128) for what stays invalid.
    const plainBits = 0x100;
    const bvhBits = layout === 'gfx11' ? 0x8f80 : 0x9f00;
    for (const bits of [plainBits, bvhBits]) {
      const ops: number[] = [];
      for (let op = 0; op < max; op++) if (![...seen.values()].some((s) => s.op[gen] === op)) ops.push(op);
      const texts = disassemble(
        cpu,
        ops.map((op) => hexWord(word0(layout, op, bits)) + hexWord(0)),
      );
      ops.forEach((op, i) => {
        const m = /^(\S+) (v\[\d+:\d+\]|v\d+), (v\[\d+:\d+\]|v\d+)/.exec(texts[i]);
        if (!m) return;
        const s = note(m[1]);
        s.op[gen] = op;
        if (bits === plainBits && regWidth(m[2]) === 4) s.vdata4 |= 1 << gen;
        if (layout === 'gcn') s.gcnVaddr = regWidth(m[3]);
      });
    }
  }
  d16Sweep(seen);
  return seen;
}

/** Which instructions have no d16 form: decode each with the d16 bit set. */
function d16Sweep(seen: Map<string, Seen>): void {
  for (const { gen, cpu, layout } of SWEEPS) {
    const defs = [...seen.entries()].filter(([, s]) => s.op[gen] >= 0);
    const hexes = defs.map(([name, s]) => {
      const bits = name.includes('bvh') ? (layout === 'gfx11' ? 0x8f80 : 0x9f00) : 0x100;
      const d16w0 = layout === 'gfx11' ? 1 << 17 : 0;
      const d16w1 = layout === 'gfx11' ? 0 : 1 << 31;
      return hexWord((word0(layout, s.op[gen], bits) | d16w0) >>> 0) + hexWord(d16w1 >>> 0);
    });
    disassemble(cpu, hexes).forEach((t, i) => {
      if (t === '<invalid>') defs[i][1].noD16 |= 1 << gen;
    });
  }
}

/** gfx7 opcodes, by assembling every mnemonic for bonaire (LLVM 19 cannot disassemble gfx7). */
function gfx7(seen: Map<string, Seen>): void {
  const names = [
    ...new Set([
      ...seen.keys(),
      'image_atomic_rsub',
      'image_atomic_fcmpswap',
      'image_atomic_fmin',
      'image_atomic_fmax',
    ]),
  ];
  const lines = names.map((n) => {
    const c = components(n);
    const data = c.kind === 'gather4' ? 'v[0:3]' : c.dataMul === 2 ? 'v[0:1]' : 'v0';
    const dmask = c.dataMul === 2 ? 0x3 : 0x1;
    const vaddr = gfx7Vaddr(c);
    const addr = vaddr === 1 ? 'v0' : `v[0:${vaddr - 1}]`;
    return `${n} ${data}, ${addr}, s[0:7]${c.sampler ? ', s[0:3]' : ''} dmask:0x${dmask.toString(16)}`;
  });
  assemble('bonaire', lines).forEach((hex, i) => {
    if (!hex) return;
    const w0 = parseInt(hex.slice(6, 8) + hex.slice(4, 6) + hex.slice(2, 4) + hex.slice(0, 2), 16);
    let s = seen.get(names[i]);
    if (!s) seen.set(names[i], (s = newSeen()));
    s.op[0] = (w0 >>> 18) & 0x7f;
    if (components(names[i]).kind === 'gather4') s.vdata4 |= 1;
  });
}

/**
 * The vaddr sizes gfx7-9 assembly accepts per instruction (LLVM checks them against its
 * variants, not the image): assemble each size 1-16 for gfx900, and bonaire for gfx7-only ones.
 */
function gcnAddressSizes(seen: Map<string, Seen>): void {
  for (const cpu of ['gfx900', 'bonaire']) {
    const names = [...seen.keys()].filter(
      (n) => !seen.get(n)!.gcnAddrSizes && (cpu === 'bonaire' ? seen.get(n)!.op[0] >= 0 : seen.get(n)!.op[2] >= 0),
    );
    const lines: string[] = [];
    for (const n of names) {
      const c = components(n);
      for (let size = 1; size <= 16; size++) {
        const data = c.kind === 'gather4' ? 'v[0:3]' : c.dataMul === 2 ? 'v[0:1]' : 'v0';
        const dmask = c.dataMul === 2 ? 0x3 : 0x1;
        const addr = size === 1 ? 'v0' : `v[0:${size - 1}]`;
        lines.push(`${n} ${data}, ${addr}, s[0:7]${c.sampler ? ', s[0:3]' : ''} dmask:0x${dmask.toString(16)}`);
      }
    }
    const res = assemble(cpu, lines);
    names.forEach((n, i) => {
      let mask = 0;
      for (let size = 1; size <= 16; size++) if (res[16 * i + size - 1]) mask |= 1 << (size - 1);
      seen.get(n)!.gcnAddrSizes = mask;
    });
  }
}

interface Components {
  kind: 'load' | 'store' | 'atomic' | 'sample' | 'gather4' | 'lod' | 'resinfo' | 'msaa' | 'bvh';
  sampler: boolean;
  /** Offset, bias and z-compare dwords before the coordinates. */
  extra: number;
  coords: number;
  /** Lod, clamp or mip level after the coordinates. */
  lcm: number;
  gradients: number;
  g16: number;
  /** Data dwords per dmask bit (2 for compare-and-swap, which carries two values). */
  dataMul: number;
  /** BVH node pointer dwords (1 or 2), 0 otherwise. */
  bvhNode: number;
}

/** Address components by the ISA's naming rules for image instructions. */
function components(name: string): Components {
  const c: Components = {
    kind: 'load',
    sampler: false,
    extra: 0,
    coords: 1,
    lcm: 0,
    gradients: 0,
    g16: 0,
    dataMul: 1,
    bvhNode: 0,
  };
  const base = name.replace(/^image_/, '');
  if (base.startsWith('bvh')) return { ...c, kind: 'bvh', coords: 0, bvhNode: base.startsWith('bvh64') ? 2 : 1 };
  if (base.startsWith('atomic_')) return { ...c, kind: 'atomic', dataMul: /cmpswap$/.test(base) ? 2 : 1 };
  if (base === 'get_resinfo') return { ...c, kind: 'resinfo', coords: 0, lcm: 1 };
  if (base === 'get_lod') return { ...c, kind: 'lod', sampler: true };
  if (base === 'msaa_load') return { ...c, kind: 'msaa' };
  if (base.startsWith('load') || base.startsWith('store')) {
    return { ...c, kind: base.startsWith('load') ? 'load' : 'store', lcm: /_mip/.test(base) ? 1 : 0 };
  }
  const m = /^(sample|gather4h|gather4)((?:_[a-z0-9]+)*)$/.exec(base);
  if (!m) throw new Error(`unknown image instruction ${name}`);
  const parts = m[2].split('_').filter(Boolean);
  c.kind = m[1] === 'sample' ? 'sample' : 'gather4';
  c.sampler = true;
  for (const p of parts) {
    if (p === 'c' || p === 'b' || p === 'o') c.extra++;
    else if (p === 'l' || p === 'cl') c.lcm = 1;
    else if (p === 'd' || p === 'cd') c.gradients = 1;
    else if (p === 'g16') c.g16 = 1;
    else if (p !== 'lz') throw new Error(`unknown suffix ${p} of ${name}`);
  }
  return c;
}

/**
 * gfx7 vaddr width for the disassembler (LLVM 19 has none for gfx7): the address count of
 * the smallest image the instruction takes (1D; 2D for gather4), in a register class
 * size (1, 2, 3, 4, 8, 16 dwords) as gfx7 assembly writes them.
 */
function gfx7Vaddr(c: Components): number {
  if (c.kind === 'bvh') return 0;
  const coords = c.kind === 'gather4' ? 2 : c.coords;
  const n = c.extra + coords + c.lcm + c.gradients * 2 * (c.kind === 'gather4' ? 2 : 1);
  return n <= 4 ? Math.max(n, 1) : n <= 8 ? 8 : 16;
}

function attrsOf(c: Components): number {
  // Attr bits: ReadsExec=1, MemLoad=1<<8, MemStore=1<<9, MemAtomic=1<<10.
  const exec = 1;
  if (c.kind === 'store') return exec | (1 << 9);
  if (c.kind === 'atomic') return exec | (1 << 8) | (1 << 9) | (1 << 10);
  if (c.kind === 'resinfo' || c.kind === 'lod') return exec;
  return exec | (1 << 8);
}

function main(): void {
  const seen = sweep();
  gfx7(seen);
  gcnAddressSizes(seen);
  const lines: string[] = [];
  for (const [name, s] of [...seen].sort((a, b) => a[0].localeCompare(b[0]))) {
    const c = components(name);
    const dataDst = c.kind !== 'store';
    const operands = [
      `{ field: 'vdata', role: '${dataDst ? 'dst' : 'src'}', cls: 'v', dwords: ${c.kind === 'gather4' || c.kind === 'bvh' ? 4 : c.dataMul}, type: 'b32' }`,
      `{ field: 'vaddr', role: 'src', cls: 'v', dwords: 1, type: 'b32' }`,
      `{ field: 'srsrc', role: 'src', cls: 's', dwords: ${c.kind === 'bvh' ? 4 : 8}, type: 'b32' }`,
      ...(c.sampler ? [`{ field: 'ssamp', role: 'src', cls: 's', dwords: 4, type: 'b32' }`] : []),
    ];
    const flags: string[] = [`kind: '${c.kind}'`];
    if (c.sampler) flags.push('sampler: 1');
    if (c.extra) flags.push(`extra: ${c.extra}`);
    if (!c.coords) flags.push('coords: 0');
    if (c.lcm) flags.push('lcm: 1');
    if (c.gradients) flags.push('gradients: 1');
    if (c.g16) flags.push('g16: 1');
    if (c.dataMul !== 1) flags.push(`dataMul: ${c.dataMul}`);
    if (c.bvhNode) flags.push(`bvhNode: ${c.bvhNode}`);
    if (s.vdata4) flags.push(`vdata4: ${s.vdata4}`);
    if (s.noD16) flags.push(`noD16: ${s.noD16}`);
    if (s.gcnVaddr) flags.push(`gcnVaddr: ${s.gcnVaddr}`);
    if (s.gcnAddrSizes) flags.push(`gcnAddrSizes: 0x${s.gcnAddrSizes.toString(16)}`);
    if (s.op[0] >= 0) flags.push(`gfx7Vaddr: ${gfx7Vaddr(c)}`);
    lines.push(
      `  { name: '${name}', family: 'MIMG', op: [${s.op.join(', ')}], operands: [${operands.join(', ')}], attrs: ${attrsOf(c)}, mem: 'image', flags: { ${flags.join(', ')} } },`,
    );
  }
  const text = `// GENERATED by \`npx tsx tools/registry/image.ts\` (llvm-mc-19 opcode sweeps + ISA naming rules). Do not edit.
import type { InstructionDef } from '../types.ts';

export const TABLE: readonly InstructionDef[] = [
${lines.join('\n')}
];
`;
  writeFileSync(OUT, text);
  console.log(`wrote ${lines.length} image instructions`);
}

main();
