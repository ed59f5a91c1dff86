/**
 * Generator of the memory families' registry table (DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH):
 *   npx tsx tools/registry/memory.ts   → src/isa/registry/generated/memory.ts
 *
 * Facts come from llvm-mc-19 used as an oracle: every opcode of every family is
 * disassembled for gfx8/gfx9/gfx10.1/gfx10.3/gfx11 with distinct register numbers in each
 * field, so the printed text says which fields are operands, in which order and how wide.
 * LLVM 19 cannot disassemble gfx7, so gfx7 opcodes come from assembling the other
 * generations' texts with -mcpu=bonaire (and the corpus's gfx7 rows for names no other
 * generation has). Attribute bits and memory kinds are rules on names, below.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LLVM_MC } from './llvm.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'src', 'isa', 'registry', 'generated', 'memory.ts');

/** Generation indices as in src/isa/gen.ts (a const enum, so spelled out here). */
const G7 = 0;
const G8 = 1;
const G9 = 2;
const G10 = 3;
const G103 = 4;
const G11 = 5;
const SWEEP_CPUS: readonly [number, string][] = [
  [G8, 'tonga'],
  [G9, 'gfx900'],
  [G10, 'gfx1010'],
  [G103, 'gfx1030'],
  [G11, 'gfx1100'],
];

type Fam = 'DS' | 'MUBUF' | 'MTBUF' | 'FLAT' | 'GLOBAL' | 'SCRATCH';

/** Register numbers the sweep puts in each field, so the text says which field a register came from. */
const DS_REGS = { addr: 10, data0: 20, data1: 30, vdst: 40 };
const BUF_REGS = { vdata: 20, srsrc: 8, soffset: 3 };
const FLAT_REGS = { addr: 10, data: 20, vdst: 40, saddr: 4 };

interface Shape {
  field: string;
  dwords: number;
}

interface Fact {
  gen: number;
  family: Fam;
  op: number;
  name: string;
  shape: Shape[];
  flags: Record<string, number | string | boolean>;
}

function toTokens(words: readonly number[]): string {
  const t: string[] = [];
  for (const w of words)
    for (let b = 0; b < 4; b++) t.push(`0x${((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0')}`);
  return t.join(',');
}

/**
 * Disassembles each instruction (one per line); '<invalid>' where LLVM rejects it. llvm-mc
 * reads its input as one byte stream and skips a dword after an invalid one, so the output
 * is matched to the input by walking the stream: LLVM's warnings name the line and column
 * of every rejected dword, and each decoded instruction's encoding gives its size.
 */
function disasm(cpu: string, insts: readonly (readonly number[])[]): string[] {
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', `-mcpu=${cpu}`, '--disassemble', '--show-encoding'], {
    input: insts.map(toTokens).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const bad = new Set<string>();
  for (const m of r.stderr.matchAll(/<stdin>:(\d+):(\d+): warning: invalid instruction encoding/g))
    bad.add(`${Number(m[1]) - 1}:${m[2]}`);
  const decoded: { text: string; bytes: number }[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (m) decoded.push({ text: m[1].trim(), bytes: m[2].split(',').length });
  }
  // Walk the whole stream: an instruction decoded from a rejected line's second dword may run into the next line.
  const lineStart: number[] = [];
  const where: [number, number][] = [];
  insts.forEach((words, i) => {
    lineStart.push(where.length);
    words.forEach((_, d) => where.push([i, 1 + 20 * d]));
  });
  const textAt = new Map<number, { text: string; bytes: number }>();
  let k = 0;
  for (let pos = 0; pos < where.length;) {
    if (bad.has(`${where[pos][0]}:${where[pos][1]}`)) {
      pos++;
      continue;
    }
    const inst = decoded[k++];
    if (!inst) break;
    textAt.set(pos, inst);
    pos += Math.max(1, inst.bytes / 4);
  }
  // A line whose first dword the previous line's leftovers swallowed has no verdict yet: ask again.
  const swallowed = insts.map((_, i) => i).filter((i) => !textAt.has(lineStart[i]) && !bad.has(`${i}:1`));
  const again =
    swallowed.length && swallowed.length < insts.length
      ? disasm(
          cpu,
          swallowed.map((i) => insts[i]),
        )
      : [];
  const retried = new Map(swallowed.map((i, j) => [i, again[j] ?? '<invalid>']));
  return insts.map((words, i) => {
    const r = retried.get(i);
    if (r !== undefined) return r;
    const inst = textAt.get(lineStart[i]);
    return inst && inst.bytes === words.length * 4 ? inst.text : '<invalid>';
  });
}

/** Assembles each line; the first encoding dword pair, or undefined on error. */
function assemble(cpu: string, lines: readonly string[]): (number[] | undefined)[] {
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', `-mcpu=${cpu}`, '--show-encoding'], {
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const errs = new Set<number>();
  for (const m of r.stderr.matchAll(/<stdin>:(\d+):\d+: error/g)) errs.add(Number(m[1]) - 1);
  const enc: number[][] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /; encoding: \[(.*)\]/.exec(line);
    if (!m) continue;
    const bytes = m[1].split(',').map((b) => parseInt(b, 16));
    const words: number[] = [];
    for (let i = 0; i + 3 < bytes.length; i += 4)
      words.push((bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0);
    enc.push(words);
  }
  let k = 0;
  return lines.map((_, i) => (errs.has(i) ? undefined : enc[k++]));
}

interface Parsed {
  name: string;
  operands: string[];
  modifiers: string[];
}

const MODIFIER = /:|^(gds|lds|glc|slc|dlc|tfe|offen|idxen|addr64|nv|sc0|sc1|nt)$/;

function parseText(text: string): Parsed {
  const tokens = text.split(/\s+/);
  const name = tokens[0];
  const operands: string[] = [];
  let i = 1;
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    const bare = t.replace(/,$/, '');
    if (MODIFIER.test(bare) && !/^[vs]\[/.test(bare)) break;
    operands.push(bare);
    if (!t.endsWith(',')) {
      i++;
      break;
    }
  }
  return { name, operands, modifiers: tokens.slice(i) };
}

/** First register number and width of a register token (`v20`, `v[20:23]`, `s[8:11]`). */
function regOf(tok: string): { kind: string; first: number; dwords: number } | undefined {
  let m = /^([vs])(\d+)$/.exec(tok);
  if (m) return { kind: m[1], first: Number(m[2]), dwords: 1 };
  m = /^([vs])\[(\d+):(\d+)\]$/.exec(tok);
  if (m) return { kind: m[1], first: Number(m[2]), dwords: Number(m[3]) - Number(m[2]) + 1 };
  return undefined;
}

function shapeOf(
  operands: readonly string[],
  byReg: Readonly<Record<string, number>>,
  sFields: Readonly<Record<string, number>>,
): Shape[] | undefined {
  const shape: Shape[] = [];
  for (const tok of operands) {
    if (tok === 'off') {
      shape.push({ field: 'off', dwords: 0 });
      continue;
    }
    const r = regOf(tok);
    const table = r?.kind === 'v' ? byReg : sFields;
    const field = r ? Object.keys(table).find((f) => table[f] === r.first) : undefined;
    if (!r || !field) return undefined;
    shape.push({ field, dwords: r.dwords });
  }
  return shape;
}

// ---------------------------------------------------------------------------------------
// Per-generation encodings the sweep builds (the codec has the same layouts). LLVM
// rejects encodings whose unused register fields are not zero, so every sweep tries each
// subset of the register fields and keeps the widest subset LLVM accepts.

type Regs = Readonly<Record<string, number>>;

function dsWords(gen: number, op: number, offset: number, gds: boolean, r: Regs): number[] {
  const opShift = gen === G8 || gen === G9 ? 17 : 18;
  const gdsBit = gen === G8 || gen === G9 ? 16 : 17;
  const w0 = (0xd8000000 | (op << opShift) | (gds ? 1 << gdsBit : 0) | offset) >>> 0;
  const w1 = ((r.addr ?? 0) | ((r.data0 ?? 0) << 8) | ((r.data1 ?? 0) << 16) | ((r.vdst ?? 0) << 24)) >>> 0;
  return [w0, w1];
}

/** The TFE bit's position in the second dword. */
const tfeBit = (gen: number): number => 1 << (gen === G11 ? 21 : 23);

function mubufWords(gen: number, op: number, lds: boolean, tfe: boolean, r: Regs): number[] {
  const w0 = (0xe0000000 | (op << 18) | (lds ? 1 << 16 : 0)) >>> 0;
  const w1 =
    (((r.vdata ?? 0) << 8) | (((r.srsrc ?? 0) >> 2) << 16) | ((r.soffset ?? 0) << 24) | (tfe ? tfeBit(gen) : 0)) >>> 0;
  return [w0, w1];
}

function mtbufWords(gen: number, op: number, format: number, r: Regs, tfe = false): number[] {
  let w0 = 0xe8000000 | (format << 19);
  let w1 = ((r.vdata ?? 0) << 8) | (((r.srsrc ?? 0) >> 2) << 16) | ((r.soffset ?? 0) << 24) | (tfe ? tfeBit(gen) : 0);
  if (gen === G10 || gen === G103) {
    w0 |= (op & 7) << 16;
    w1 |= (op >> 3) << 21;
  } else w0 |= op << 15;
  return [w0 >>> 0, w1 >>> 0];
}

function flatWords(
  gen: number,
  op: number,
  seg: number,
  glc: boolean,
  saddr: number,
  sve: boolean,
  r: Regs,
  lds = false,
): number[] {
  const segShift = gen === G11 ? 16 : 14;
  const glcBit = gen === G11 ? 14 : 16;
  const w0 = (0xdc000000 | (op << 18) | (seg << segShift) | (glc ? 1 << glcBit : 0) | (lds ? 1 << 13 : 0)) >>> 0;
  const w1 = ((r.addr ?? 0) | ((r.data ?? 0) << 8) | (saddr << 16) | (sve ? 1 << 23 : 0) | ((r.vdst ?? 0) << 24)) >>> 0;
  return [w0, w1];
}

/** Every subset of the register assignments, widest first. */
function subsets(regs: Regs): Regs[] {
  const keys = Object.keys(regs);
  const out: Record<string, number>[] = [];
  for (let m = (1 << keys.length) - 1; m >= 0; m--) {
    const r: Record<string, number> = {};
    keys.forEach((k, i) => {
      if (m & (1 << i)) r[k] = regs[k];
    });
    out.push(r);
  }
  return out.sort((x, y) => Object.keys(y).length - Object.keys(x).length);
}

/** The widest register subset LLVM decodes, its text and shape; undefined when no subset decodes. */
interface Probe {
  text: string;
  shape: Shape[];
  regs: Regs;
}

/**
 * Runs one batch of probes: for each key, each subset's encoding; picks per key the first
 * (widest) subset whose text decodes and reads back as a shape.
 */
function probe<K>(
  cpu: string,
  keys: readonly K[],
  regs: Regs,
  build: (key: K, r: Regs) => number[],
  readShape: (ops: readonly string[], r: Regs) => Shape[] | undefined,
): (Probe | undefined)[] {
  const subs = subsets(regs);
  const insts: number[][] = [];
  for (const k of keys) for (const r of subs) insts.push(build(k, r));
  const texts = disasm(cpu, insts);
  return keys.map((_, i) => {
    for (let j = 0; j < subs.length; j++) {
      const t = texts[i * subs.length + j];
      if (t === '<invalid>') continue;
      const shape = readShape(parseText(t).operands, subs[j]);
      if (shape) return { text: t, shape, regs: subs[j] };
    }
    return undefined;
  });
}

const vOnly = (r: Regs): Regs =>
  Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'srsrc' && k !== 'soffset' && k !== 'saddr'));
const sOnly = (r: Regs): Regs =>
  Object.fromEntries(Object.entries(r).filter(([k]) => k === 'srsrc' || k === 'soffset' || k === 'saddr'));

// ---------------------------------------------------------------------------------------
// Sweeps.

function sweepDs(gen: number, cpu: string): Fact[] {
  const ops = Array.from({ length: 256 }, (_, i) => i);
  const plain = probe(
    cpu,
    ops,
    DS_REGS,
    (op, r) => dsWords(gen, op, 0x0503, false, r),
    (o, r) => shapeOf(o, r, {}),
  );
  const gds = probe(
    cpu,
    ops,
    DS_REGS,
    (op, r) => dsWords(gen, op, 0x0503, true, r),
    (o, r) => shapeOf(o, r, {}),
  );
  // Instructions without an offset operand (ds_nop) decode only with a zero offset field.
  const bare = probe(
    cpu,
    ops,
    DS_REGS,
    (op, r) => dsWords(gen, op, 0, false, r),
    (o, r) => shapeOf(o, r, {}),
  );
  const facts: Fact[] = [];
  for (const op of ops) {
    const p0 = plain[op] ?? bare[op];
    const p1 = gds[op];
    const pr = p0 ?? p1;
    if (!pr) continue;
    const p = parseText(pr.text);
    const flags: Record<string, number | string | boolean> = {};
    const mods = p.modifiers.join(' ');
    flags.offsets = /offset0:/.test(mods)
      ? 2
      : /offset:swizzle\(/.test(mods)
        ? 'swizzle'
        : /offset:/.test(mods)
          ? 1
          : 0;
    if (!p0) flags.gds = 'always';
    else if (!p1) flags.gds = 'never';
    facts.push({ gen, family: 'DS', op, name: p.name, shape: pr.shape, flags });
  }
  return facts;
}

function sweepMubuf(gen: number, cpu: string): Fact[] {
  const nops = gen >= G10 ? 256 : 128;
  const ops = Array.from({ length: nops }, (_, i) => i);
  const read = (o: readonly string[], r: Regs): Shape[] | undefined => shapeOf(o, vOnly(r), sOnly(r));
  const plain = probe(cpu, ops, BUF_REGS, (op, r) => mubufWords(gen, op, false, false, r), read);
  const lds = gen === G11 ? [] : probe(cpu, ops, BUF_REGS, (op, r) => mubufWords(gen, op, true, false, r), read);
  const tfe = probe(cpu, ops, BUF_REGS, (op, r) => mubufWords(gen, op, false, true, r), read);
  const facts: Fact[] = [];
  for (const op of ops) {
    const pl = lds[op];
    const ldsText = pl !== undefined && /\blds\b/.test(pl.text);
    const pr = plain[op] ?? (ldsText ? pl : undefined);
    if (!pr) continue;
    const flags: Record<string, number | string | boolean> = {};
    // The lds bit makes an LDS-destination load only where LLVM prints it; some instructions exist only so.
    if (ldsText) flags.lds = plain[op] ? true : 'always';
    if (plain[op] && !tfe[op]) flags.tfe = false;
    facts.push({ gen, family: 'MUBUF', op, name: parseText(pr.text).name, shape: pr.shape, flags });
  }
  return facts;
}

function sweepMtbuf(gen: number, cpu: string): Fact[] {
  const ops = Array.from({ length: 16 }, (_, i) => i);
  const read = (o: readonly string[], r: Regs): Shape[] | undefined => shapeOf(o, vOnly(r), sOnly(r));
  const res = probe(cpu, ops, BUF_REGS, (op, r) => mtbufWords(gen, op, 1, r), read);
  const tfe = probe(cpu, ops, BUF_REGS, (op, r) => mtbufWords(gen, op, 1, r, true), read);
  const facts: Fact[] = [];
  for (const op of ops) {
    const pr = res[op];
    if (pr)
      facts.push({
        gen,
        family: 'MTBUF',
        op,
        name: parseText(pr.text).name,
        shape: pr.shape,
        flags: tfe[op] ? {} : { tfe: false },
      });
  }
  return facts;
}

function sweepFlat(gen: number, cpu: string): Fact[] {
  const off = gen === G11 ? 0x7c : gen >= G10 ? 0x7d : 0x7f;
  const segs = gen === G8 ? [0] : [0, 1, 2];
  const keys: [number, number][] = [];
  for (const seg of segs) for (let op = 0; op < 128; op++) keys.push([seg, op]);
  const regs = { addr: FLAT_REGS.addr, data: FLAT_REGS.data, vdst: FLAT_REGS.vdst };
  const read = (o: readonly string[], r: Regs): Shape[] | undefined => shapeOf(o, r, { saddr: FLAT_REGS.saddr });
  const sve = (seg: number): boolean => seg === 1 && gen === G11;
  // gfx8 has no saddr field and gfx9's flat segment wants it zero; elsewhere `off` is a register code.
  const sa = (seg: number): number => (gen <= G9 && seg === 0 ? 0 : off);
  const plain = probe(cpu, keys, regs, ([seg, op], r) => flatWords(gen, op, seg, false, sa(seg), sve(seg), r), read);
  const glc = probe(cpu, keys, regs, ([seg, op], r) => flatWords(gen, op, seg, true, sa(seg), sve(seg), r), read);
  // gfx9 and gfx10 have an lds bit (bit 13) that turns some global/scratch loads into LDS loads.
  const ldsBit = gen === G9 || gen === G10 || gen === G103;
  const lds = ldsBit
    ? probe(cpu, keys, regs, ([seg, op], r) => flatWords(gen, op, seg, false, sa(seg), sve(seg), r, true), read)
    : [];
  const facts: Fact[] = [];
  keys.forEach(([seg, op], i) => {
    const pr = plain[i];
    if (!pr) return;
    const family: Fam = seg === 0 ? 'FLAT' : seg === 1 ? 'SCRATCH' : 'GLOBAL';
    const flags: Record<string, number | string | boolean> = {};
    // Atomics return the pre-op value (and gain a vdst operand) only with glc.
    const pg = glc[i];
    const rtn = pg?.shape.find((s) => s.field === 'vdst');
    if (rtn && !pr.shape.some((s) => s.field === 'vdst')) flags.rtn = rtn.dwords;
    if (lds[i] && /\blds\b/.test(lds[i]!.text)) flags.lds = true;
    facts.push({ gen, family, op, name: parseText(pr.text).name, shape: pr.shape, flags });
  });
  return facts;
}

/** Buffer format names (MTBUF's format field) as LLVM prints them, per generation group. */
function sweepFormats(): { dfmt: string[]; nfmt: string[]; gfx10: string[]; gfx11: string[] } {
  const dfmt: string[] = [];
  const nfmt: string[] = [];
  const t9 = disasm('gfx900', [
    ...Array.from({ length: 16 }, (_, d) => mtbufWords(G9, 0, d | (1 << 4), BUF_REGS)),
    ...Array.from({ length: 8 }, (_, n) => mtbufWords(G9, 0, 2 | (n << 4), BUF_REGS)),
  ]);
  // The default formats (dfmt 1, nfmt 0, unified 1) never print; their names are AMD's.
  for (let d = 0; d < 16; d++)
    dfmt.push(d === 1 ? 'BUF_DATA_FORMAT_8' : (/format:\[([A-Z0-9_]+),/.exec(t9[d])?.[1] ?? ''));
  for (let n = 0; n < 8; n++)
    nfmt.push(
      n === 0
        ? 'BUF_NUM_FORMAT_UNORM'
        : (/,(BUF_NUM_FORMAT_[A-Z0-9_]+)\]/.exec(t9[16 + n])?.[1] ??
            /format:\[(BUF_NUM_FORMAT_[A-Z0-9_]+)\]/.exec(t9[16 + n])?.[1] ??
            ''),
    );
  const unified = (gen: number, cpu: string): string[] =>
    disasm(
      cpu,
      Array.from({ length: 128 }, (_, f) => mtbufWords(gen, 0, f, BUF_REGS)),
    ).map((t, f) => (f === 1 ? 'BUF_FMT_8_UNORM' : (/format:\[([A-Z0-9_]+)\]/.exec(t)?.[1] ?? '')));
  return { dfmt, nfmt, gfx10: unified(G103, 'gfx1030'), gfx11: unified(G11, 'gfx1100') };
}

/**
 * gfx7's numeric format names: gfx9's, except where AMD's SI/CI documents name a format
 * gfx9 reserves (6 = SNORM_OGL); each such name is checked by assembling it for bonaire.
 */
function gfx7NumFormats(gfx9: readonly string[]): string[] {
  const out = [...gfx9];
  const ogl = 'BUF_NUM_FORMAT_SNORM_OGL';
  const enc = assemble('bonaire', [`tbuffer_load_format_x v1, off, s[4:7], s1 format:[${ogl}]`]);
  if (enc[0] && ((enc[0][0] >>> 23) & 7) === 6) out[6] = ogl;
  return out;
}

// ---------------------------------------------------------------------------------------
// gfx7: assemble the other generations' texts for bonaire.

function corpusGfx7Names(): Map<string, string> {
  // name → a gfx7 text of it, from the corpus rows of the memory families.
  const out = new Map<string, string>();
  try {
    const text = gunzipSync(readFileSync(join(ROOT, 'test', 'data', 'isa', 'gfx7', 'disasm.tsv.gz'))).toString('utf8');
    for (const line of text.split('\n')) {
      const c = line.split('\t');
      if (!/^(DS|MUBUF|MTBUF|FLAT)$/.test(c[2] ?? '') || c[1].startsWith('<')) continue;
      const name = c[1].split(' ')[0];
      if (!out.has(name)) out.set(name, c[1]);
    }
  } catch {
    // No corpus: gfx7 gets only what assembling other generations' texts gives.
  }
  return out;
}

function gfx7Facts(others: readonly Fact[]): Fact[] {
  // One candidate text per name, from gfx8 first (closest to gfx7), then the rest.
  const order = [G8, G10, G9, G103, G11];
  const byName = new Map<string, Fact>();
  for (const g of order)
    for (const f of others)
      if (f.gen === g && f.family !== 'GLOBAL' && f.family !== 'SCRATCH' && !byName.has(f.name)) byName.set(f.name, f);
  const corpus = corpusGfx7Names();
  const lines: string[] = [];
  const names: string[] = [];
  for (const [name, f] of byName) {
    lines.push(exampleText(f));
    names.push(name);
  }
  for (const [name, t] of corpus)
    if (!byName.has(name)) {
      lines.push(t);
      names.push(name);
    }
  const enc = assemble('bonaire', lines);
  const facts: Fact[] = [];
  enc.forEach((w, i) => {
    if (!w || w.length < 2) return;
    const fam = familyOfGfx7(w[0]);
    if (!fam) return;
    const op = fam === 'DS' ? (w[0] >>> 18) & 0xff : fam === 'MTBUF' ? (w[0] >>> 16) & 7 : (w[0] >>> 18) & 0x7f;
    const src = byName.get(names[i]);
    const shape = src ? src.shape : shapeFromGfx7Text(fam, lines[i]);
    const flags = src ? { ...src.flags } : {};
    if (fam === 'MUBUF' && src && src.gen !== G8) delete flags.lds;
    if (fam === 'MUBUF' && /^buffer_load_(dword|ubyte|sbyte|ushort|sshort)$/.test(names[i])) flags.lds = true;
    facts.push({ gen: G7, family: fam, op, name: names[i], shape, flags });
  });
  return facts;
}

function familyOfGfx7(w0: number): Fam | undefined {
  const p = w0 >>> 26;
  return p === 0x36 ? 'DS' : p === 0x37 ? 'FLAT' : p === 0x38 ? 'MUBUF' : p === 0x3a ? 'MTBUF' : undefined;
}

/** Shape of a corpus gfx7 text whose name no other generation has (registers by position). */
function shapeFromGfx7Text(fam: Fam, text: string): Shape[] {
  const p = parseText(text);
  const fields =
    fam === 'DS'
      ? dsFieldsByCount(p.name, p.operands.length)
      : fam === 'FLAT'
        ? p.operands.length === 3
          ? ['vdst', 'addr', 'data']
          : /load/.test(p.name)
            ? ['vdst', 'addr']
            : ['addr', 'data']
        : ['vdata', 'off', 'srsrc', 'soffset'];
  return p.operands.map((tok, i) => ({
    field: tok === 'off' ? 'off' : fields[i],
    dwords: tok === 'off' ? 0 : (regOf(tok)?.dwords ?? 1),
  }));
}

function dsFieldsByCount(name: string, n: number): string[] {
  if (n === 4) return ['vdst', 'addr', 'data0', 'data1'];
  if (n === 3) return /rtn|read|load/.test(name) ? ['vdst', 'addr', 'data0'] : ['addr', 'data0', 'data1'];
  if (n === 2) return /rtn|read|load|append|consume/.test(name) ? ['vdst', 'addr'] : ['addr', 'data0'];
  return /src2|gws/.test(name) ? ['addr'] : ['vdst'];
}

/** An assemblable text for a sweep fact (`withFormat`: the gfx7 assembler wants MTBUF's format). */
function exampleText(f: Fact, withFormat = true): string {
  const regs: Record<string, number> =
    f.family === 'DS'
      ? DS_REGS
      : f.family === 'FLAT' || f.family === 'GLOBAL' || f.family === 'SCRATCH'
        ? { addr: 10, data: 20, vdst: 40 }
        : { vdata: 20 };
  const ops = f.shape.map((s) => {
    if (s.field === 'off') return 'off';
    if (s.field === 'srsrc') return 's[8:11]';
    if (s.field === 'soffset') return 's3';
    if ((f.family === 'FLAT' || f.family === 'GLOBAL') && s.field === 'addr') return 'v[10:11]';
    const r = regs[s.field];
    return s.dwords === 1 ? `v${r}` : `v[${r}:${r + s.dwords - 1}]`;
  });
  let mods = '';
  if (f.family === 'DS' && f.flags.gds === 'always') mods = ' gds';
  if (f.family === 'MTBUF' && withFormat) mods = ' format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UNORM]';
  return `${f.name} ${ops.join(', ')}${mods}`.trim();
}

// ---------------------------------------------------------------------------------------
// Mnemonic aliases: names of other generations LLVM still accepts (gfx11's renames), found
// by assembling every other generation's example texts and reading the printed mnemonic.

function sweepAliases(facts: readonly Fact[]): [number, string, string][] {
  const out: [number, string, string][] = [];
  for (const [gen, cpu] of SWEEP_CPUS) {
    const own = new Set(facts.filter((f) => f.gen === gen).map((f) => f.name));
    // Every distinct example text of every foreign name: shapes differ across generations (d16).
    const texts = new Set<string>();
    for (const f of facts) if (f.gen !== gen && !own.has(f.name)) texts.add(exampleText(f, false));
    const lines = [...texts];
    const names = lines.map((l) => l.split(' ')[0]);
    const r = spawnSync(LLVM_MC, ['-triple=amdgcn', `-mcpu=${cpu}`, '--show-encoding'], {
      input: lines.join('\n') + '\n',
      encoding: 'utf8',
    });
    const errs = new Set<number>();
    for (const m of r.stderr.matchAll(/<stdin>:(\d+):\d+: error/g)) errs.add(Number(m[1]) - 1);
    const printed = r.stdout
      .split('\n')
      .filter((l) => /; encoding:/.test(l))
      .map((l) => l.trim().split(/\s+/)[0]);
    let k = 0;
    names.forEach((n, i) => {
      if (errs.has(i)) return;
      const canon = printed[k++];
      if (canon && canon !== n && own.has(canon) && !out.some((o) => o[0] === gen && o[1] === n))
        out.push([gen, n, canon]);
    });
  }
  return out.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
}

/**
 * The unified gfx10/gfx11 format each legacy (dfmt, nfmt) pair assembles to, by
 * assembling all 128 pairs: index dfmt * 8 + nfmt, -1 where LLVM rejects the pair.
 */
function sweepLegacyFormats(cpu: string): number[] {
  const fmt = BUF_DATA_FORMAT_NAMES();
  const nf = BUF_NUM_FORMAT_NAMES();
  const lines: string[] = [];
  for (let d = 0; d < 16; d++)
    for (let n = 0; n < 8; n++) lines.push(`tbuffer_load_format_x v1, off, s[4:7], s1 format:[${fmt[d]},${nf[n]}]`);
  const enc = assemble(cpu, lines);
  return enc.map((w) => (w ? (w[0] >>> 19) & 0x7f : -1));
}

let formatNames: { dfmt: string[]; nfmt: string[] } | undefined;
const BUF_DATA_FORMAT_NAMES = (): string[] => (formatNames ??= sweepFormatsOnce()).dfmt;
const BUF_NUM_FORMAT_NAMES = (): string[] => (formatNames ??= sweepFormatsOnce()).nfmt;
function sweepFormatsOnce(): { dfmt: string[]; nfmt: string[] } {
  const f = sweepFormats();
  return { dfmt: f.dfmt, nfmt: f.nfmt };
}

// ---------------------------------------------------------------------------------------
// Rules: attribute bits and memory kinds from names and operands.

const ATTR = {
  ReadsExec: 1,
  ReadsM0: 1 << 6,
  MemLoad: 1 << 8,
  MemStore: 1 << 9,
  MemAtomic: 1 << 10,
  CrossLane: 1 << 13,
  Barrier: 1 << 15,
  NoEffect: 1 << 16,
};

function memKind(family: Fam, name: string): string {
  if (family === 'DS') {
    if (/^ds_(swizzle|permute|bpermute|nop)/.test(name)) return 'none';
    if (/^ds_(gws_|ordered_count)/.test(name) || /^ds_(gws|ordered)/.test(name)) return 'gds';
    return 'lds';
  }
  if (family === 'MUBUF' || family === 'MTBUF')
    return /^buffer_(wbinvl1|gl0_inv|gl1_inv|wbl2|inv)/.test(name) ? 'none' : 'buffer';
  return family.toLowerCase();
}

function attrsOf(gen: number, family: Fam, name: string, shape: readonly Shape[]): number {
  let a = ATTR.ReadsExec;
  const kind = memKind(family, name);
  const hasDst =
    shape.some((s) => s.field === 'vdst') || (/load|read/.test(name) && shape.some((s) => s.field === 'vdata'));
  const atomic =
    /_atomic_/.test(name) ||
    (family === 'DS' &&
      !/^ds_(read|write|load|store|nop|swizzle|permute|bpermute|gws|append|consume|ordered|barrier)/.test(name));
  if (family === 'DS') {
    // Before gfx9 every LDS access is clamped by M0; GWS, append/consume and ordered count read M0 everywhere.
    if (gen <= G8 || /^ds_(gws|append|consume|ordered)/.test(name)) a |= ATTR.ReadsM0;
    if (/^ds_(swizzle|permute|bpermute)/.test(name)) a |= ATTR.CrossLane;
    if (/^ds_gws_(barrier|sema)/.test(name)) a |= ATTR.Barrier;
  }
  if (kind === 'none') return family === 'DS' ? a : a | ATTR.NoEffect;
  if (atomic) a |= ATTR.MemAtomic | ATTR.MemLoad | ATTR.MemStore;
  else if (/load|read/.test(name) || (hasDst && !/store|write/.test(name))) a |= ATTR.MemLoad;
  else if (/store|write/.test(name)) a |= ATTR.MemStore;
  return a;
}

function valueType(name: string, dwords: number): string {
  if (dwords > 2) return 'any';
  if (/f64/.test(name)) return 'f64';
  if (/f32/.test(name)) return 'f32';
  if (/pk_add_f16|pk_add_bf16/.test(name)) return 'v2f16';
  if (/f16/.test(name)) return 'f16';
  return dwords === 2 ? 'b64' : 'b32';
}

function operandDefs(name: string, shape: readonly Shape[]): string[] {
  const out: string[] = [];
  for (const s of shape) {
    if (s.field === 'off') continue;
    const isDst = s.field === 'vdst' || (s.field === 'vdata' && /load/.test(name));
    const cls = s.field === 'srsrc' || s.field === 'saddr' ? 's' : s.field === 'soffset' ? 'ss' : 'v';
    const dataField = s.field === 'vdst' || s.field === 'vdata' || s.field.startsWith('data');
    const type = dataField ? valueType(name, s.dwords) : s.dwords === 2 ? 'b64' : 'b32';
    out.push(`{field:'${s.field}',role:'${isDst ? 'dst' : 'src'}',cls:'${cls}',dwords:${s.dwords},type:'${type}'}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------

function main(): void {
  const facts: Fact[] = [];
  for (const [gen, cpu] of SWEEP_CPUS)
    facts.push(...sweepDs(gen, cpu), ...sweepMubuf(gen, cpu), ...sweepMtbuf(gen, cpu), ...sweepFlat(gen, cpu));
  facts.push(...gfx7Facts(facts));
  const formats = sweepFormats();

  // One def per (family, name, shape, flags, attrs); the opcodes of the generations it covers.
  const defs = new Map<
    string,
    { family: Fam; name: string; shape: Shape[]; flags: Record<string, unknown>; attrs: number; op: number[] }
  >();
  for (const f of facts) {
    const attrs = attrsOf(f.gen, f.family, f.name, f.shape);
    const key = JSON.stringify([f.family, f.name, f.shape, f.flags, attrs]);
    let d = defs.get(key);
    if (!d)
      defs.set(
        key,
        (d = { family: f.family, name: f.name, shape: f.shape, flags: f.flags, attrs, op: [-1, -1, -1, -1, -1, -1] }),
      );
    d.op[f.gen] = f.op;
  }
  const famOrder: Fam[] = ['DS', 'MUBUF', 'MTBUF', 'FLAT', 'GLOBAL', 'SCRATCH'];
  const sorted = [...defs.values()].sort(
    (a, b) =>
      famOrder.indexOf(a.family) - famOrder.indexOf(b.family) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      a.op.findIndex((x) => x >= 0) - b.op.findIndex((x) => x >= 0),
  );
  const lines: string[] = [];
  lines.push('// GENERATED by `npx tsx tools/registry/memory.ts` from llvm-mc-19 opcode sweeps; do not edit.');
  lines.push(
    '// DS, MUBUF, MTBUF, FLAT, GLOBAL and SCRATCH instructions of gfx7, gfx8, gfx9, gfx10.1, gfx10.3 and gfx11.',
  );
  lines.push("import type { InstructionDef } from '../types.ts';");
  lines.push('');
  lines.push('export const TABLE: readonly InstructionDef[] = [');
  for (const d of sorted) {
    const ops = operandDefs(d.name, d.shape).join(',');
    // The printed operand order (with `off` placeholders) is what the printer follows.
    const order = d.shape.map((s) => (s.field === 'off' ? 'off' : s.field)).join(' ');
    const flags = { order, ...d.flags };
    const flagText = Object.entries(flags)
      .map(([k, v]) => `${k}:${typeof v === 'string' ? `'${v}'` : String(v)}`)
      .join(',');
    lines.push(
      `{name:'${d.name}',family:'${d.family}',op:[${d.op.join(',')}],operands:[${ops}],attrs:${d.attrs},mem:'${memKind(d.family, d.name)}',flags:{${flagText}}},`,
    );
  }
  lines.push('];');
  lines.push('');
  lines.push(
    '/** gfx7-9 MTBUF data formats (dfmt) and numeric formats (nfmt) as LLVM spells them; index = field value. */',
  );
  lines.push(`export const BUF_DATA_FORMATS: readonly string[] = ${JSON.stringify(formats.dfmt)};`);
  lines.push(`export const BUF_NUM_FORMATS: readonly string[] = ${JSON.stringify(formats.nfmt)};`);
  lines.push("/** gfx7 (SI/CI) spells numeric format 6 as AMD's SNORM_OGL. */");
  lines.push(`export const BUF_NUM_FORMATS_GFX7: readonly string[] = ${JSON.stringify(gfx7NumFormats(formats.nfmt))};`);
  lines.push('/** Names of other generations each generation accepts: [gen, alias, canonical name]. */');
  lines.push(
    `export const MNEMONIC_ALIASES: readonly (readonly [number, string, string])[] = ${JSON.stringify(sweepAliases(facts))};`,
  );
  lines.push(
    '/** Unified format a legacy format:[dfmt,nfmt] pair assembles to, index dfmt * 8 + nfmt; -1 where rejected. */',
  );
  lines.push(
    `export const LEGACY_TO_UNIFIED_GFX10: readonly number[] = ${JSON.stringify(sweepLegacyFormats('gfx1030'))};`,
  );
  lines.push(
    `export const LEGACY_TO_UNIFIED_GFX11: readonly number[] = ${JSON.stringify(sweepLegacyFormats('gfx1100'))};`,
  );
  lines.push(
    '/** gfx10+ unified MTBUF formats by field value; empty where LLVM prints the number. Index 1 is the default, never printed. */',
  );
  lines.push(`export const BUF_FORMATS_GFX10: readonly string[] = ${JSON.stringify(formats.gfx10)};`);
  lines.push(`export const BUF_FORMATS_GFX11: readonly string[] = ${JSON.stringify(formats.gfx11)};`);
  writeFileSync(OUT, lines.join('\n') + '\n');
  console.log(`wrote ${sorted.length} defs to ${OUT}`);
}

main();
