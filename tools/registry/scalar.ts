/**
 * Generator of the scalar instruction table (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM/SMRD):
 *   npx tsx tools/registry/scalar.ts
 * writes src/isa/registry/generated/scalar.ts.
 *
 * Facts come from llvm-mc-19 used as an oracle: every opcode of every family is
 * disassembled with probe field values (gfx8, gfx9, gfx1010, gfx1030, gfx1100), and the
 * printed operands tell which fields the instruction uses, with which width and how its
 * immediate is spelled. gfx7 cannot be disassembled by LLVM 19, so gfx7 opcodes come from
 * assembling the gfx8 probe texts with -mcpu=bonaire. Attribute bits are rules over
 * names and operands below.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Gen } from '../../src/isa/gen.ts';
import {
  Attr,
  type Family,
  type InstructionDef,
  type OperandDef,
  type MemoryKind,
} from '../../src/isa/registry/types.ts';
import { scalarRegName } from '../../src/isa/operands.ts';
import { IMM_STYLES, formatPlainImm, type ImmStyle } from '../../src/isa/families/scalar-syms.ts';
import { spawnSync } from 'node:child_process';
import { LLVM_MC, assembleBatch } from './llvm.ts';

const OUT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'src',
  'isa',
  'registry',
  'generated',
  'scalar.ts',
);

const SWEEP_CPUS: readonly [Gen, string][] = [
  [Gen.GFX8, 'tonga'],
  [Gen.GFX9, 'gfx900'],
  [Gen.GFX10, 'gfx1010'],
  [Gen.GFX10_3, 'gfx1030'],
  [Gen.GFX11, 'gfx1100'],
];

type ScalarFamily = 'SOP1' | 'SOP2' | 'SOPK' | 'SOPC' | 'SOPP' | 'SMEM';

/** Probe register codes: distinct, aligned to 4 so every width spells cleanly. */
const P_DST = 8;
const P_SRC0 = 20;
const P_SRC1 = 40;
const P_BASE = 4; // SMEM sbase register s[4:...] (field holds 2)
const IMM_PROBES = [0x1234, 0, 8, 64, 65, 0xfff0, 0xffef] as const;
const LIT = 0x11223344;

interface Probe {
  /** Encoded words of the probe (first is dword 0). */
  readonly words: number[];
  /** Field values as placed, for matching printed tokens back to fields. */
  readonly regs: Readonly<Record<string, number>>;
}

function hexOf(words: readonly number[]): string {
  let s = '';
  for (const w of words) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

/** Opcode range and the probe encoder of each family, per generation. */
function opRange(fam: ScalarFamily): number {
  switch (fam) {
    case 'SOP2':
      return 0x60;
    case 'SOPK':
      return 0x1d;
    case 'SOP1':
      return 0x100;
    case 'SOPC':
    case 'SOPP':
      return 0x80;
    case 'SMEM':
      return 0x100;
  }
}

/** SMEM probe variants: which of sdata and sbase+offset are filled (unused ones must be 0). */
const SMEM_VARIANTS = [
  { data: true, base: true },
  { data: true, base: false },
  { data: false, base: true },
  { data: false, base: false },
] as const;

function encodeProbe(gen: Gen, fam: ScalarFamily, op: number, imm: number, srcCode?: number, variant = 0): Probe {
  const s0 = srcCode ?? P_SRC0;
  const s1 = srcCode ?? P_SRC1;
  switch (fam) {
    case 'SOP2':
      return {
        words: [((2 << 30) | (op << 23) | (P_DST << 16) | (s1 << 8) | s0) >>> 0],
        regs: { sdst: P_DST, ssrc0: s0, ssrc1: s1 },
      };
    case 'SOP1':
      return { words: [((0x17d << 23) | (P_DST << 16) | (op << 8) | s0) >>> 0], regs: { sdst: P_DST, ssrc0: s0 } };
    case 'SOPC':
      return { words: [((0x17e << 23) | (op << 16) | (s1 << 8) | s0) >>> 0], regs: { ssrc0: s0, ssrc1: s1 } };
    case 'SOPK':
      return { words: [((0xb << 28) | (op << 23) | (P_DST << 16) | imm) >>> 0], regs: { sdst: P_DST } };
    case 'SOPP':
      return { words: [((0x17f << 23) | (op << 16) | imm) >>> 0], regs: {} };
    case 'SMEM': {
      // Immediate-offset form with sbase = s[4:...], sdata = s8, offset 0x1234.
      const v = SMEM_VARIANTS[variant];
      const data = v.data ? P_DST << 6 : 0;
      const base = v.base ? P_BASE >> 1 : 0;
      let w0: number;
      let w1 = v.base ? 0x1234 : 0;
      if (gen <= Gen.GFX9) w0 = (0x30 << 26) | (op << 18) | (v.base ? 1 << 17 : 0) | data | base;
      else {
        w0 = (0x3d << 26) | (op << 18) | data | base;
        if (v.base) w1 |= (gen >= Gen.GFX11 ? 124 : 125) << 25; // soffset = null
      }
      const regs: Record<string, number> = {};
      if (v.data) regs.sdata = P_DST;
      if (v.base) regs.sbase = P_BASE;
      return { words: [w0 >>> 0, w1 >>> 0], regs };
    }
  }
}

/** Splits operand text at top-level commas (hwreg(a, b, c) stays whole). */
function splitOperands(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function regWidth(gen: Gen, token: string, code: number): number | undefined {
  for (const w of [1, 2, 4, 8, 16]) if (scalarRegName(gen, code, w) === token) return w;
  return undefined;
}

const MODIFIERS = /^(glc|dlc|nv|offset:.*)$/;

interface Parsed {
  readonly name: string;
  /** The probe's printed text (for re-assembling it for gfx7). */
  text?: string;
  readonly operands: OperandDef[];
  readonly flags: Record<string, string | number | boolean>;
}

/** Role of a register field: sdst is a source of compares, setreg, waits and forks. */
function fieldRole(name: string, field: string): 'dst' | 'src' {
  if (field === 'sdst')
    return /^s_(cmpk_|setreg|waitcnt_|cbranch_i_fork|subvector_loop_end)/.test(name) ? 'src' : 'dst';
  if (field === 'sdata') return /^s_(buffer_)?store|^s_scratch_store|^s_atc_probe/.test(name) ? 'src' : 'dst';
  return 'src';
}

function valueType(name: string, dwords: number): OperandDef['type'] {
  if (dwords === 2) return /_i64|_i32_i64/.test(name) ? 'i64' : /_u64/.test(name) ? 'u64' : 'b64';
  if (dwords > 2) return 'b32';
  return /_i32/.test(name) ? 'i32' : /_u32/.test(name) ? 'u32' : 'b32';
}

/** Which symbolic spelling an immediate has, by instruction name. */
function symbolicStyle(name: string, text: string): ImmStyle | undefined {
  if (/^s_sendmsg/.test(name)) return 'sendmsg';
  if (name === 's_waitcnt') return 'waitcnt';
  if (/hwreg\(/.test(text) || /^s_(getreg|setreg)/.test(name)) return 'hwreg';
  if (name === 's_delay_alu') return 'delay_alu';
  if (name === 's_waitcnt_depctr') return 'depctr';
  if (/^s_set_gpr_idx_(mode|on)$/.test(name)) return 'gpr_idx';
  if (name === 's_version') return 'version';
  return undefined;
}

const BRANCH = /^s_(branch|cbranch_|call_b64|subvector_loop_)/;

/** The plain style that prints every probe value as LLVM did, or undefined. */
function plainStyle(name: string, texts: readonly string[]): ImmStyle | undefined {
  if (BRANCH.test(name)) return 'label';
  for (const style of IMM_STYLES) if (IMM_PROBES.every((v, i) => formatPlainImm(style, v) === texts[i])) return style;
  return undefined;
}

function parseProbe(gen: Gen, fam: ScalarFamily, text: string, probe: Probe, regOnly: ReadonlySet<string>): Parsed {
  const sp = text.indexOf(' ');
  const name = sp < 0 ? text : text.slice(0, sp);
  const tokens = sp < 0 ? [] : splitOperands(text.slice(sp + 1).replace(/ (glc|dlc|nv|offset:\S+)/g, ',$1'));
  const operands: OperandDef[] = [];
  const flags: Record<string, string | number | boolean> = {};
  const used = new Set<string>();
  for (const tok of tokens) {
    if (MODIFIERS.test(tok)) continue;
    let matched = false;
    for (const [field, code] of Object.entries(probe.regs)) {
      if (used.has(field)) continue;
      const w = regWidth(gen, tok, code);
      if (w === undefined) continue;
      used.add(field);
      const cls = field.startsWith('ssrc') && !regOnly.has(field) ? 'ss' : 's';
      operands.push({ field, role: fieldRole(name, field), cls, dwords: w, type: valueType(name, w) });
      matched = true;
      break;
    }
    if (matched) continue;
    if (fam === 'SMEM') {
      if (!used.has('sdata') && tok === String(P_DST) && operands.length === 0) {
        used.add('sdata');
        operands.push({ field: 'sdata', role: 'src', cls: 'imm', dwords: 1, type: 'u32' });
      } else operands.push({ field: 'offset', role: 'src', cls: 'imm', dwords: 1, type: 'i32' });
      continue;
    }
    // An immediate: simm16, a 32-bit literal, or a source field holding an immediate.
    if (fam === 'SOPK' || fam === 'SOPP') {
      if (!used.has('simm16')) {
        used.add('simm16');
        operands.push({
          field: 'simm16',
          role: 'src',
          cls: BRANCH.test(name) ? 'label' : 'imm',
          dwords: 1,
          type: 'u32',
        });
      } else operands.push({ field: 'literal', role: 'src', cls: 'imm', dwords: 1, type: 'u32' });
    } else {
      const field = Object.keys(probe.regs).find((f) => f.startsWith('ssrc') && !used.has(f));
      if (field) {
        used.add(field);
        operands.push({ field, role: 'src', cls: 'imm', dwords: 1, type: 'u32' });
        const st = symbolicStyle(name, tok);
        if (st) flags.imm = st;
      }
    }
  }
  return { name, operands, flags };
}

/** SCC/EXEC/VCC/M0, memory and control-flow attributes, by name pattern and operands. */
function attrsOf(fam: ScalarFamily, name: string, ops: readonly OperandDef[]): number {
  let a = 0;
  const base = name.replace(/^s_/, '');
  if (fam === 'SOPC' || /^cmpk_/.test(base) || /^bitcmp/.test(base)) a |= Attr.WritesScc;
  if (
    /^(add|sub|addc|subb|min|max|and|or|xor|andn2|orn2|nand|nor|xnor|and_not1|or_not1|lshl|lshr|ashr|bfe|absdiff|not|wqm|quadmask|abs|bcnt|lshl\d_add|addk|bitreplicate)/.test(
      base,
    ) &&
    !/saveexec|wrexec/.test(base)
  )
    a |= Attr.WritesScc;
  if (/saveexec|wrexec/.test(base)) a |= Attr.ReadsExec | Attr.WritesExec | Attr.WritesScc;
  if (/^(addc|subb|cselect|cmov|cbranch_scc)/.test(base)) a |= Attr.ReadsScc;
  if (/^cbranch_exec/.test(base)) a |= Attr.ReadsExec;
  if (/^cbranch_vcc/.test(base)) a |= Attr.ReadsVcc;
  if (/^(movrel|sendmsg|set_gpr_idx)/.test(base)) a |= Attr.ReadsM0;
  if (/^set_gpr_idx_(on|off|idx)/.test(base)) a |= Attr.WritesM0;
  if (/^(branch|cbranch_|call_b64|subvector_loop_)/.test(base)) a |= Attr.Branch;
  if (/^cbranch_/.test(base)) a |= Attr.CondBranch;
  if (/^(setpc|swappc|getpc|rfe|call_b64)/.test(base)) a |= Attr.PcRelative;
  if (/^endpgm/.test(base)) a |= Attr.EndProgram;
  if (base === 'barrier') a |= Attr.Barrier;
  if (
    /^(nop|waitcnt|sleep|setprio|sethalt|setkill|trap_nop|inst_prefetch|set_inst_prefetch|clause|delay_alu|wait_idle|wait_event|icache_inv|incperflevel|decperflevel|ttracedata|code_end)/.test(
      base,
    )
  )
    a |= Attr.NoEffect;
  if (fam === 'SMEM') {
    if (/atomic/.test(base)) a |= Attr.MemAtomic | Attr.MemLoad | Attr.MemStore;
    else if (/store/.test(base)) a |= Attr.MemStore;
    else if (/load/.test(base)) a |= Attr.MemLoad;
  }
  if (ops.some((o) => o.field === 'exec')) a |= Attr.ReadsExec;
  return a;
}

interface Entry {
  name: string;
  family: ScalarFamily;
  op: number[];
  operands: OperandDef[];
  flags: Record<string, string | number | boolean>;
}

const entries = new Map<string, Entry>();

function signature(fam: ScalarFamily, p: Parsed): string {
  return `${fam}|${p.name}|${JSON.stringify(p.operands)}|${JSON.stringify(p.flags)}`;
}

function addEntry(gen: Gen, fam: ScalarFamily, op: number, p: Parsed): void {
  const sig = signature(fam, p);
  let e = entries.get(sig);
  if (!e) {
    e = { name: p.name, family: fam, op: [-1, -1, -1, -1, -1, -1], operands: p.operands, flags: p.flags };
    entries.set(sig, e);
  }
  e.op[gen] = op;
}

/**
 * Disassembles one instruction per line. Each probe is followed by an `s_nop 0` sentinel
 * so that outputs group by probe even when LLVM skips undecodable dwords; an instruction
 * whose re-encoding differs from the input (ignored fields) still counts if its size matches.
 */
function disassembleBatch(cpu: string, hexes: readonly string[]): string[] {
  // A probe may swallow the first s_nop as its literal; the second always marks the end.
  const sentinel = '0x05,0x00,0x80,0xbf\n0x06,0x00,0x80,0xbf';
  const input =
    hexes
      .map(
        (h) =>
          `${h
            .match(/../g)!
            .map((b) => `0x${b}`)
            .join(',')}\n${sentinel}`,
      )
      .join('\n') + '\n';
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', '--disassemble', `-mcpu=${cpu}`, '--show-encoding'], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const groups: { text: string; bytes: number }[][] = [[]];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+(.*?)\s*; encoding: \[(.*)\]/.exec(line);
    if (!m) continue;
    if (m[2] === '0x06,0x00,0x80,0xbf') groups.push([]);
    else if (m[2] !== '0x05,0x00,0x80,0xbf')
      groups[groups.length - 1].push({ text: m[1].trim(), bytes: m[2].split(',').length });
  }
  return hexes.map((h, i) => {
    const g = groups[i] ?? [];
    return g.length === 1 && g[0].bytes === h.length / 2 ? g[0].text : g.length === 0 ? '<invalid>' : '<partial>';
  });
}

/** Disassembles probes, retrying with a literal dword where one is needed. */
function disasm(cpu: string, probes: readonly Probe[]): string[] {
  const first = disassembleBatch(
    cpu,
    probes.map((p) => hexOf(p.words)),
  );
  const retry = first.map((t, i) => (t === '<invalid>' || t === '<partial>' ? i : -1)).filter((i) => i >= 0);
  if (retry.length) {
    const second = disassembleBatch(
      cpu,
      retry.map((i) => hexOf([...probes[i].words, LIT])),
    );
    retry.forEach((i, k) => (first[i] = second[k]));
  }
  return first;
}

function sweep(gen: Gen, cpu: string, fam: ScalarFamily): Map<number, Parsed> {
  const n = opRange(fam);
  const ops = Array.from({ length: n }, (_, i) => i);
  const immProbes = fam === 'SOPK' || fam === 'SOPP' ? IMM_PROBES : [0x1234];
  const texts = immProbes.map((imm) =>
    disasm(
      cpu,
      ops.map((op) => encodeProbe(gen, fam, op, imm)),
    ),
  );
  // Instructions without an immediate reject a nonzero one: take their zero probe.
  const zeroOnly = new Set<number>();
  for (const op of ops)
    if (texts[1] && texts[0][op].startsWith('<') && !texts[1][op].startsWith('<')) {
      texts[0][op] = texts[1][op];
      zeroOnly.add(op);
    }
  const imm0Only = (_f: ScalarFamily, _t: string[][], op: number): boolean => zeroOnly.has(op);
  // A source field that prints a constant as "/*Invalid immediate*/" takes registers only.
  const constTexts =
    fam === 'SOP1' || fam === 'SOP2' || fam === 'SOPC'
      ? disasm(
          cpu,
          ops.map((op) => encodeProbe(gen, fam, op, 0, 0xc1)),
        )
      : [];
  const variant = ops.map(() => 0);
  if (fam === 'SMEM') {
    for (let v = 1; v < SMEM_VARIANTS.length; v++) {
      const todo = ops.filter((op) => texts[0][op].startsWith('<'));
      const tv = disasm(
        cpu,
        todo.map((op) => encodeProbe(gen, fam, op, 0, undefined, v)),
      );
      todo.forEach((op, i) => {
        if (!tv[i].startsWith('<')) {
          texts[0][op] = tv[i];
          variant[op] = v;
        }
      });
    }
  }
  const out = new Map<number, Parsed>();
  for (const op of ops) {
    const t = texts[0][op];
    if (t.startsWith('<')) continue;
    const regOnly = new Set<string>();
    const ct = constTexts[op];
    if (ct && !ct.startsWith('<')) {
      const toks = splitOperands(ct.slice(ct.indexOf(' ') + 1));
      const probe = encodeProbe(gen, fam, op, 0);
      const srcFields = Object.keys(probe.regs).filter((f) => f.startsWith('ssrc'));
      // Source tokens come after the destination, in field order.
      const srcToks = toks.slice(toks.length - srcFields.length);
      srcFields.forEach((f, i) => {
        if (srcToks[i]?.includes('Invalid immediate')) regOnly.add(f);
      });
    }
    const p = parseProbe(gen, fam, t, encodeProbe(gen, fam, op, 0x1234, undefined, variant[op]), regOnly);
    // LLVM rejects nonzero fields an operand-less SMEM form or SOPP form does not use.
    if (variant[op] !== 0 || imm0Only(fam, texts, op)) p.flags.strict = true;
    const imm = p.operands.find((o) => o.field === 'simm16');
    if (imm) {
      const perValue = texts.map((tt) => {
        const x = tt[op];
        const toks = splitOperands(x.slice(x.indexOf(' ') + 1 || x.length));
        return toks.find((k) => !/^(s\d|s\[|ttmp|exec|vcc|m0|null|flat|tba|tma|hwreg|xnack)/.test(k)) ?? '';
      });
      if (perValue[1] === '') perValue[1] = '0'; // optional operand, left out at 0
      p.flags.imm = symbolicStyle(p.name, t) ?? plainStyle(p.name, perValue) ?? 'hex';
      if (
        p.flags.imm !== 'label' &&
        symbolicStyle(p.name, t) === undefined &&
        plainStyle(p.name, perValue) === undefined
      )
        console.warn(`${cpu} ${fam} ${p.name}: unclassified immediate ${perValue.join(' ')}`);
    } else if (fam === 'SOPP') {
      // Printed without an operand at 0x1234: either none, or optional and omitted at 0.
      p.flags.imm = 'none';
    }
    if (fam === 'SOPP' && !imm) {
      p.operands.length = 0;
    }
    // s_endpgm-like: omitted when zero.
    if (imm && (fam === 'SOPP' || fam === 'SOPK') && texts[1][op] === p.name) p.flags.optional = true;
    p.text = t;
    // Cache-policy bits (glc, dlc) are spelled only for data accesses.
    if (fam === 'SMEM' && /load|store|atomic/.test(p.name)) p.flags.cache = true;
    out.set(op, p);
  }
  return out;
}

// ---- gfx7: opcodes by assembling the gfx8 spellings for bonaire ----

function gfx7Opcode(fam: ScalarFamily, words: readonly number[]): number {
  const w = words[0];
  switch (fam) {
    case 'SOP2':
      return (w >>> 23) & 0x7f;
    case 'SOPK':
      return (w >>> 23) & 0x1f;
    case 'SOP1':
      return (w >>> 8) & 0xff;
    case 'SOPC':
    case 'SOPP':
      return (w >>> 16) & 0x7f;
    case 'SMEM':
      return (w >>> 22) & 0x1f;
  }
}

function gfx7FamilyOf(w: number): ScalarFamily | undefined {
  if (w >>> 23 === 0x17d) return 'SOP1';
  if (w >>> 23 === 0x17e) return 'SOPC';
  if (w >>> 23 === 0x17f) return 'SOPP';
  if (w >>> 28 === 0xb) return 'SOPK';
  if (w >>> 30 === 2) return 'SOP2';
  if (w >>> 27 === 0x18) return 'SMEM';
  return undefined;
}

/** gfx7 spelling of a gfx8 probe text: SMRD offsets are SGPRs here to avoid unit changes. */
function gfx7Text(e: Entry, text: string): string {
  if (e.family !== 'SMEM') return text;
  return text.replace(/, 0x1234$/, ', s2');
}

function buildGfx7(gfx8Texts: Map<Entry, string>): void {
  const list = [...gfx8Texts.entries()];
  const res = assembleBatch(
    'bonaire',
    list.map(([e, t]) => gfx7Text(e, t)),
  );
  list.forEach(([e], i) => {
    const r = res[i];
    if (!r.hex) return;
    const words: number[] = [];
    for (let k = 0; k + 8 <= r.hex.length; k += 8)
      words.push(
        parseInt(
          r.hex.slice(k + 6, k + 8) + r.hex.slice(k + 4, k + 6) + r.hex.slice(k + 2, k + 4) + r.hex.slice(k, k + 2),
          16,
        ),
      );
    if (gfx7FamilyOf(words[0]) !== e.family) return;
    e.op[Gen.GFX7] = gfx7Opcode(e.family, words);
  });
}

/** gfx7-only SMRD instructions (not in gfx8), spelled for bonaire. */
const GFX7_ONLY: readonly [string, OperandDef[]][] = [['s_dcache_inv_vol', []]];

// ---- symbol names: hwreg ids and sendmsg encodings, swept per generation ----

interface Symbols {
  hwreg: string[][];
  sendmsg: [number, string][][];
}

function opOf(gen: Gen, name: string): number {
  for (const e of entries.values()) if (e.name === name && e.op[gen] >= 0) return e.op[gen];
  return -1;
}

function sweepSymbols(): Symbols {
  const hwreg: string[][] = [[], [], [], [], [], []];
  const sendmsg: [number, string][][] = [[], [], [], [], [], []];
  for (const [gen, cpu] of SWEEP_CPUS) {
    const getreg = opOf(gen, 's_getreg_b32');
    const ids = Array.from({ length: 64 }, (_, i) => i);
    const ht = disassembleBatch(
      cpu,
      ids.map((id) => hexOf([((0xb << 28) | (getreg << 23) | (P_DST << 16) | (31 << 11) | id) >>> 0])),
    );
    hwreg[gen] = ht.map((t) => /hwreg\((HW_REG_\w+)\)/.exec(t)?.[1] ?? '');
    const sendOp = opOf(gen, 's_sendmsg');
    const keys = Array.from({ length: gen >= Gen.GFX11 ? 0x100 : 0x400 }, (_, i) => i);
    const st = disassembleBatch(
      cpu,
      keys.map((k) => hexOf([((0x17f << 23) | (sendOp << 16) | k) >>> 0])),
    );
    keys.forEach((k, i) => {
      const m = /sendmsg\((MSG_[^)]*)\)/.exec(st[i]);
      if (m) sendmsg[gen].push([k, m[1]]);
    });
  }
  hwreg[Gen.GFX7] = hwreg[Gen.GFX8];
  sendmsg[Gen.GFX7] = sendmsg[Gen.GFX8];
  return { hwreg, sendmsg };
}

// ---- aliases: older names each generation's assembler still accepts ----

/** [gen, alias, canonical name]: assembling a name another generation uses gives this one. */
function sweepAliases(texts: ReadonlyMap<Entry, string>): [number, string, string][] {
  const out: [number, string, string][] = [];
  for (const [gen, cpu] of SWEEP_CPUS) {
    const here = new Set([...entries.values()].filter((e) => e.op[gen] >= 0).map((e) => e.name));
    const cand = new Map<string, string>();
    for (const [e, t] of texts) if (!here.has(e.name) && !cand.has(e.name)) cand.set(e.name, t);
    const list = [...cand.entries()];
    const res = assembleBatch(
      cpu,
      list.map(([, t]) => t),
    );
    list.forEach(([alias], i) => {
      const canon = res[i].text?.split(' ')[0];
      if (res[i].hex && canon && canon !== alias && here.has(canon)) out.push([gen, alias, canon]);
    });
  }
  return out.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
}

function main(): void {
  const fams: ScalarFamily[] = ['SOP2', 'SOPK', 'SOP1', 'SOPC', 'SOPP', 'SMEM'];
  const gfx8Texts = new Map<Entry, string>();
  const allTexts = new Map<Entry, string>();
  for (const [gen, cpu] of SWEEP_CPUS) {
    for (const fam of fams) {
      const parsed = sweep(gen, cpu, fam);
      for (const [op, p] of parsed) {
        // A probe LLVM rejected can leave its text to an instruction of another family
        // decoded from the probe's second dword (an `exp`): only scalar names belong here.
        if (!p.name.startsWith('s_')) continue;
        addEntry(gen, fam, op, p);
        if (gen === Gen.GFX8) gfx8Texts.set(entries.get(signature(fam, p))!, p.text ?? p.name);
        const e = entries.get(signature(fam, p))!;
        if (!allTexts.has(e)) allTexts.set(e, p.text ?? p.name);
      }
    }
  }
  buildGfx7(gfx8Texts);
  for (const [name, operands] of GFX7_ONLY) {
    const r = assembleBatch('bonaire', [name])[0];
    if (!r.hex) continue;
    const w = parseInt(r.hex.slice(6, 8) + r.hex.slice(4, 6) + r.hex.slice(2, 4) + r.hex.slice(0, 2), 16);
    const e: Entry = { name, family: 'SMEM', op: [-1, -1, -1, -1, -1, -1], operands, flags: {} };
    e.op[Gen.GFX7] = gfx7Opcode('SMEM', [w]);
    entries.set(`gfx7|${name}`, e);
  }
  const defs: InstructionDef[] = [...entries.values()]
    .sort((a, b) =>
      a.family === b.family ? firstOp(a) - firstOp(b) || (a.name < b.name ? -1 : 1) : a.family < b.family ? -1 : 1,
    )
    .map((e) => {
      const mem: MemoryKind = e.family === 'SMEM' && /load|store|atomic|probe/.test(e.name) ? 'scalar' : 'none';
      const def: InstructionDef = {
        name: e.name,
        family: e.family as Family,
        op: e.op as unknown as InstructionDef['op'],
        operands: e.operands,
        attrs: attrsOf(e.family, e.name, e.operands),
        mem,
        ...(Object.keys(e.flags).length ? { flags: e.flags } : {}),
      };
      return def;
    });
  writeFileSync(OUT, render(defs, sweepSymbols(), sweepAliases(allTexts)));
  console.log(`wrote ${defs.length} scalar instructions to ${OUT}`);
}

function firstOp(e: Entry): number {
  return e.op.find((o) => o >= 0) ?? -1;
}

/** Compact TypeScript: one line per instruction, operand lists shared by reference. */
function render(defs: readonly InstructionDef[], sym: Symbols, aliases: readonly [number, string, string][]): string {
  const opLists = new Map<string, string>();
  const lines: string[] = [];
  for (const d of defs) {
    const k = JSON.stringify(d.operands);
    if (!opLists.has(k)) opLists.set(k, `O${opLists.size}`);
  }
  const head = [
    '// GENERATED by `npx tsx tools/registry/scalar.ts` from llvm-mc-19 opcode sweeps. Do not edit.',
    "import type { InstructionDef, OperandDef } from '../types.ts';",
    '',
    'type Ops = readonly OperandDef[];',
  ];
  for (const [k, id] of opLists) lines.push(`const ${id}: Ops = ${k.replace(/"(\w+)":/g, '$1:').replace(/"/g, "'")};`);
  lines.push('', 'export const TABLE: readonly InstructionDef[] = [');
  for (const d of defs) {
    const flags = d.flags
      ? `, flags: ${JSON.stringify(d.flags)
          .replace(/"(\w+)":/g, '$1:')
          .replace(/"/g, "'")}`
      : '';
    lines.push(
      `  { name: '${d.name}', family: '${d.family}', op: [${d.op.join(', ')}], operands: ${opLists.get(JSON.stringify(d.operands))}, attrs: ${d.attrs}, mem: '${d.mem}'${flags} },`,
    );
  }
  lines.push('];', '');
  lines.push("/** Hardware register names by id, per generation ('' where LLVM has none). */");
  lines.push(
    `export const HWREG_NAMES: readonly (readonly string[])[] = ${JSON.stringify(sym.hwreg).replace(/"/g, "'")};`,
  );
  lines.push('/** Symbolic sendmsg spellings (inside `sendmsg(...)`) by immediate, per generation. */');
  lines.push('export const SENDMSG_SYMBOLS: readonly (readonly (readonly [number, string])[])[] = [');
  for (const g of sym.sendmsg) lines.push(`  ${JSON.stringify(g).replace(/"/g, "'")},`);
  lines.push('];', '');
  lines.push('/** [Gen, alias, canonical name]: other spellings the assembler accepts. */');
  lines.push('export const ALIASES: readonly (readonly [number, string, string])[] = [');
  for (const a of aliases) lines.push(`  [${a[0]}, '${a[1]}', '${a[2]}'],`);
  lines.push('];', '');
  return [...head, ...lines].join('\n');
}

if (process.env.SCALAR_DEBUG) {
  for (const [op, p] of sweep(Gen.GFX8, 'tonga', 'SMEM')) console.log(op, p.name, JSON.stringify(p.operands));
} else main();
