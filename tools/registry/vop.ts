/**
 * Generator of the vector-ALU registry (VOP1, VOP2, VOPC, VOP3, VOP3P):
 *   npx tsx tools/registry/vop.ts        → src/isa/registry/generated/vop.ts
 *
 * Facts come from llvm-mc-19 used as an oracle (opcode sweeps, disassembled with chosen
 * register numbers so each printed operand names the field it came from) for gfx8+, and
 * from the corpus rows (assembler-derived) for gfx7, which LLVM 19 cannot disassemble.
 * Operand value types are probed by what the printer makes of constants: code 240 prints
 * `0x3800` only for 16-bit integer operands, a literal 0x3800 prints `0.5` only for f16
 * operands, a literal 0x3fe00000 prints `0.5` only for f64 operands. Attribute bits come
 * from rules over operands and names at the end of this file.
 */
import { spawnSync } from 'node:child_process';
import { LLVM_MC } from './llvm.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** gfx7 corpus rows (read directly, so the generator does not load the codecs it feeds). */
function gfx7Rows(): { hex: string; text: string; family: string }[] {
  const text = gunzipSync(readFileSync(new URL('../../test/data/isa/gfx7/disasm.tsv.gz', import.meta.url))).toString(
    'utf8',
  );
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t'))
    .map((r) => ({ hex: r[0], text: r[1], family: r[2] ?? '' }));
}

type GenIdx = 0 | 1 | 2 | 3 | 4 | 5;
type Fam = 'VOP1' | 'VOP2' | 'VOPC' | 'VOP3' | 'VOP3P';
const SWEEP_GENS: readonly { gen: GenIdx; cpu: string }[] = [
  { gen: 1, cpu: 'tonga' },
  { gen: 2, cpu: 'gfx900' },
  { gen: 3, cpu: 'gfx1010' },
  { gen: 4, cpu: 'gfx1030' },
  { gen: 5, cpu: 'gfx1100' },
];

// Register numbers the sweeps put in each field, so the printed text tells which field it is.
const R_VDST = 10;
const R_SRC = [20, 30, 40];
const V = (n: number): number => 256 + n;

interface Op {
  field: string;
  role: 'dst' | 'src';
  cls: 'v' | 's' | 'vs' | 'imm';
  dwords: number;
  type: string;
}

function hexOf(words: number[]): string {
  let s = '';
  for (const w of words) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
  return s;
}

// ---- encoders used by the sweeps ------------------------------------------------------

function vop1(op: number, src0: number, vdst = R_VDST): number {
  return ((0x3f << 25) | (vdst << 17) | (op << 9) | src0) >>> 0;
}
function vop2(op: number, src0: number, vsrc1 = R_SRC[1], vdst = R_VDST): number {
  return ((op << 25) | (vdst << 17) | (vsrc1 << 9) | src0) >>> 0;
}
function vopc(op: number, src0: number, vsrc1 = R_SRC[1]): number {
  return ((0x3e << 25) | (op << 17) | (vsrc1 << 9) | src0) >>> 0;
}
interface Vop3Bits {
  src: [number, number, number];
  hi?: number; // dword0 bits 15:8
  omod?: number;
  neg?: number;
  opselHi?: number; // VOP3P op_sel_hi for src0/src1 (dword1 bits 28:27)
}
function vop3(gen: GenIdx, fam: 'VOP3' | 'VOP3P', op: number, b: Vop3Bits): number[] {
  let w0: number;
  if (fam === 'VOP3P') w0 = gen === 2 ? (0x1a7 << 23) | (op << 16) : (0xcc << 24) | (op << 16);
  else if (gen >= 3) w0 = (0x35 << 26) | (op << 16);
  else w0 = (0x34 << 26) | (op << 16);
  w0 |= ((b.hi ?? 0) << 8) | (b.src[0] === -1 ? 0 : R_VDST);
  let w1 = Math.max(b.src[0], 0) | (b.src[1] << 9) | (b.src[2] << 18) | ((b.omod ?? 0) << 27) | ((b.neg ?? 0) << 29);
  if (fam === 'VOP3P') w1 |= (b.opselHi ?? 3) << 27;
  return [w0 >>> 0, w1 >>> 0];
}

// ---- printed-text parsing ---------------------------------------------------------------

interface Parsed {
  mnem: string;
  ops: string[];
  mods: string[];
}
function parseText(text: string): Parsed {
  const clean = text.replace(/\/\*[^*]*\*\//g, '');
  const sp = clean.indexOf(' ');
  if (sp < 0) return { mnem: clean, ops: [], mods: [] };
  const mnem = clean.slice(0, sp);
  const parts = clean.slice(sp + 1).split(', ');
  const last = parts.pop()!.split(' ');
  parts.push(last[0]);
  const ops = parts.filter((p) => p !== '');
  return { mnem, ops, mods: last.slice(1) };
}

/** Register token → [kind, first, dwords]. */
function regOf(tok: string): { kind: 'v' | 's'; n: number; dwords: number } | undefined {
  const t = tok.replace(/^-?\|?|\|$/g, '').replace(/^-/, '');
  let m = /^([vs])(\d+)$/.exec(t);
  if (m) return { kind: m[1] as 'v' | 's', n: Number(m[2]), dwords: 1 };
  m = /^([vs])\[(\d+):(\d+)\]$/.exec(t);
  if (m) return { kind: m[1] as 'v' | 's', n: Number(m[2]), dwords: Number(m[3]) - Number(m[2]) + 1 };
  if (t === 'vcc' || t === 'vcc_lo') return { kind: 's', n: 106, dwords: t === 'vcc' ? 2 : 1 };
  return undefined;
}

function stripSuffix(m: string): string {
  return m.replace(/_e(32|64)$/, '');
}

// ---- probing -------------------------------------------------------------------------

/**
 * Disassembles each word list as one instruction: its text, '<invalid>' when LLVM rejects
 * the first dword, '<partial>' when it decoded something else. A sentinel s_endpgm line
 * follows each probe, because llvm-mc skips an invalid dword and decodes the rest of the
 * line (which loses the alignment of llvm.ts's disassembleBatch).
 */
function batch(cpu: string, words: number[][], mattr = ''): string[] {
  // Sentinel `s_nop i` (twice, in case the leftover of an invalid line swallows one).
  const tok = (ws: number[]): string => hexOf(ws).replace(/(..)/g, '0x$1,').slice(0, -1);
  const nop = (i: number): string => tok([(0xbf800000 | (i & 0xffff)) >>> 0]);
  const input = words.map((w, i) => `${tok(w)}\n${nop(i)}\n${nop(i)}`).join('\n') + '\n';
  const args = ['-triple=amdgcn', '--disassemble', `-mcpu=${cpu}`, ...(mattr ? [`-mattr=${mattr}`] : [])];
  const r = spawnSync(LLVM_MC, args, {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const badStart = new Set<number>();
  for (const m of r.stderr.matchAll(/<stdin>:(\d+):(\d+): warning: invalid instruction encoding/g))
    if (m[2] === '1' && (Number(m[1]) - 1) % 3 === 0) badStart.add((Number(m[1]) - 1) / 3);
  const out: string[] = new Array<string>(words.length).fill('<partial>');
  let cur: string[] = [];
  let expect = 0;
  for (const line of r.stdout.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('.')) continue;
    const m = /^s_nop (0x[0-9a-f]+|\d+)$/.exec(t);
    if (m && (Number(m[1]) & 0xffff) === (expect & 0xffff) && expect < words.length) {
      out[expect] = badStart.has(expect) ? '<invalid>' : cur.length === 1 ? cur[0] : '<partial>';
      cur = [];
      expect++;
    } else if (!(m && expect > 0 && (Number(m[1]) & 0xffff) === ((expect - 1) & 0xffff))) cur.push(t);
  }
  return out;
}

/** Maps printed operands of a probe to operand definitions (widths/classes; types later). */
function shapeOf(fam: Fam, p: Parsed, vop3b: boolean): Op[] | undefined {
  const ops: Op[] = [];
  for (let i = 0; i < p.ops.length; i++) {
    const tok = p.ops[i];
    const r = regOf(tok);
    // VOP3-encoded interpolation (gfx8+): `attr20.x` comes from the src0 field, v_interp_mov's `p10` from src1.
    if (/^attr\d+\.[xyzw]$/.test(tok)) {
      ops.push({ field: 'attr', role: 'src', cls: 'imm', dwords: 1, type: 'b32' });
      continue;
    }
    if (/^(p10|p20|p0)$/.test(tok)) {
      ops.push({ field: 'param', role: 'src', cls: 'imm', dwords: 1, type: 'b32' });
      continue;
    }
    if (!r) {
      // A literal constant (madmk/madak K) or other immediate.
      if (/^(0x[0-9a-f]+|-?\d+(\.\d+)?)$/.test(tok)) {
        ops.push({ field: 'simm32', role: 'src', cls: 'imm', dwords: 1, type: 'b32' });
        continue;
      }
      return undefined;
    }
    if (r.n === R_VDST && i === 0) {
      const isSdst = fam === 'VOPC';
      ops.push({ field: isSdst ? 'sdst' : 'vdst', role: 'dst', cls: r.kind, dwords: r.dwords, type: '' });
      continue;
    }
    if (vop3b && i === 1 && r.kind === 's' && (r.n === 0 || r.n === 106)) {
      ops.push({ field: 'sdst', role: 'dst', cls: 's', dwords: r.dwords, type: '' });
      continue;
    }
    const k = R_SRC.indexOf(r.n);
    if (k >= 0) {
      ops.push({ field: `src${k}`, role: 'src', cls: r.kind === 'v' ? 'vs' : 's', dwords: r.dwords, type: '' });
      continue;
    }
    if (r.kind === 's' && r.n === 106) {
      // e32 forms' implicit VCC: carry-out (dst) or carry-in/mask (src2).
      const dst = i === 0 || (i === 1 && fam === 'VOP2' && ops[0]?.field === 'vdst');
      ops.push({
        field: dst ? (fam === 'VOPC' ? 'sdst' : 'sdst') : 'src2',
        role: dst ? 'dst' : 'src',
        cls: 's',
        dwords: r.dwords,
        type: '',
      });
      continue;
    }
    return undefined;
  }
  return ops;
}

interface Found {
  gen: GenIdx;
  fam: Fam; // the instruction's own family (VOP3 for VOP3-only)
  name: string;
  op: number;
  op3: number;
  e32?: Op[];
  e64?: Op[];
  abs: number;
  neg: number;
  clamp: boolean;
  omod: boolean;
  opsel: boolean;
  /** Entries LLVM prints in op_sel:[…] (permlane16 prints two). */
  opselN: number;
  /** op_sel field bits (bit 0-2: src0-src2, bit 3: dst) LLVM prints when set alone. */
  opselBits: number;
  /** vdst's (and the accumulator's) VGPR count in wave64 where it differs (WMMA), else absent. */
  w64dwords?: number;
  /** Per source index, detected value-type hints. */
  int16: boolean[];
  f16: boolean[];
  f64: boolean[];
  lit32: boolean[];
}

function sweepGen(gen: GenIdx, cpu: string): Found[] {
  const found: Found[] = [];
  const byName = new Map<string, Found>();
  const src0v = V(R_SRC[0]);
  // e32 families
  const e32Families: { fam: Fam; n: number; enc: (op: number, src0: number) => number }[] = [
    { fam: 'VOP1', n: 256, enc: (op, s) => vop1(op, s) },
    { fam: 'VOP2', n: 64, enc: (op, s) => vop2(op, s, R_SRC[1]) },
    { fam: 'VOPC', n: 256, enc: (op, s) => vopc(op, s, R_SRC[1]) },
  ];
  for (const f of e32Families) {
    const ops = [...Array(f.n).keys()];
    if (gen === 5 && f.fam === 'VOP1') ops.length = 128;
    if (gen === 5 && f.fam === 'VOPC') ops.length = 256;
    // VOP2 opcodes 62 and 63 are the VOPC and VOP1 prefixes.
    if (f.fam === 'VOP2') ops.length = 62;
    const base = batch(
      cpu,
      ops.map((op) => [f.enc(op, src0v)]),
    );
    // Operand-less instructions (v_nop) are only decoded with zero fields in some generations.
    const zero = batch(
      cpu,
      ops.map((op) => [f.fam === 'VOP1' ? vop1(op, 0, 0) : f.fam === 'VOP2' ? vop2(op, 0, 0, 0) : vopc(op, 0, 0)]),
    );
    // Retry failures with a literal (madmk/madak forms).
    const withLit = batch(
      cpu,
      ops.map((op) => [f.enc(op, src0v), 0x41200000]),
    );
    const lit3800 = batch(
      cpu,
      ops.map((op) => [f.enc(op, 255), 0x3800]),
    );
    const lit64 = batch(
      cpu,
      ops.map((op) => [f.enc(op, 255), 0x3fe00000]),
    );
    const c240 = batch(
      cpu,
      ops.map((op) => [f.enc(op, 240)]),
    );
    for (const op of ops) {
      let text = base[op];
      if (text.startsWith('<')) text = withLit[op];
      if (text.startsWith('<') && !zero[op].includes(' ')) text = zero[op];
      if (text.startsWith('<')) continue;
      const p = parseText(text);
      const shape = shapeOf(f.fam, p, false);
      if (!shape) continue;
      const name = stripSuffix(p.mnem);
      const fd: Found = {
        gen,
        fam: f.fam,
        name,
        op,
        op3: -1,
        e32: shape,
        abs: 0,
        neg: 0,
        clamp: false,
        omod: false,
        opsel: false,
        opselN: 0,
        opselBits: 0,
        int16: [false, false, false],
        f16: [false, false, false],
        f64: [false, false, false],
        lit32: [false, false, false],
      };
      const s0 = shape.findIndex((o) => o.field === 'src0');
      if (s0 >= 0) {
        const t240 = parseText(c240[op]).ops[s0];
        if (t240 === '0x3800') fd.int16[0] = true;
        const tl = parseText(lit3800[op]).ops[s0];
        if (tl === '0.5') fd.f16[0] = true;
        const t64 = parseText(lit64[op]).ops[s0];
        if (t64 === '0.5' && shape[s0].dwords === 2) fd.f64[0] = true;
      }
      found.push(fd);
      byName.set(`${f.fam}:${name}`, fd);
    }
  }
  // VOP3 and VOP3P opcode spaces.
  const spaces: { fam: 'VOP3' | 'VOP3P'; n: number }[] = [{ fam: 'VOP3', n: 1024 }];
  if (gen >= 2) spaces.push({ fam: 'VOP3P', n: 128 });
  for (const sp of spaces) {
    const ops = [...Array(sp.n).keys()];
    const vsrc: [number, number, number] = [V(R_SRC[0]), V(R_SRC[1]), V(R_SRC[2])];
    // LLVM rejects e64 forms whose unused source fields are not zero, so probe with
    // fewer sources too; SGPR variants find the operands that must be scalar.
    const [a, b, c] = vsrc;
    const [x, y, z] = R_SRC;
    const alts: [number, number, number][] = [
      [a, b, c],
      [a, b, 0],
      [a, 0, 0],
      [0, 0, 0],
      [a, b, z],
      [a, y, c],
      [a, y, 0],
      [a, y, z],
      [x, y, z],
      [x, b, c],
      [x, b, 0],
      [x, 0, 0],
      [-1, 0, 0], // every field zero, vdst too (v_nop)
    ];
    const altTexts = alts.map((a) =>
      batch(
        cpu,
        ops.map((op) => vop3(gen, sp.fam, op, { src: a })),
      ),
    );
    const chosen: ([number, number, number] | undefined)[] = ops.map((op) => {
      // A zeroed source field that the instruction does use prints as s0 past the sdst slot.
      const usesZero = (t: string): boolean =>
        parseText(t)
          .ops.slice(2)
          .some((o) => /^s(0|\[0:1\])$/.test(o));
      for (let i = 0; i < alts.length; i++) {
        const t = altTexts[i][op];
        if (!t.startsWith('<') && !/Invalid register/.test(t) && !usesZero(t)) return alts[i];
      }
      for (let i = 0; i < alts.length; i++) if (!altTexts[i][op].startsWith('<')) return alts[i];
      return undefined;
    });
    const textOf = (op: number): string => {
      const i = alts.indexOf(chosen[op]!);
      return altTexts[i][op];
    };
    const probe = (mk: (op: number, src: [number, number, number]) => number[], mattr = ''): string[] =>
      batch(
        cpu,
        ops.map((op) => (chosen[op] ? mk(op, chosen[op]!) : [0])),
        mattr,
      );
    // The chosen encodings again in wave64: WMMA's C/D matrices take half the VGPRs there.
    const tWave64 =
      sp.fam === 'VOP3P' && gen >= 3 ? probe((op, s) => vop3(gen, sp.fam, op, { src: s }), '+wavefrontsize64') : [];
    const clampBit = gen === 0 ? 0x08 : 0x80;
    const tAbs = [0, 1, 2].map((k) => probe((op, s) => vop3(gen, sp.fam, op, { src: s, hi: 1 << k })));
    const tNeg = [0, 1, 2].map((k) => probe((op, s) => vop3(gen, sp.fam, op, { src: s, neg: 1 << k })));
    const tClamp = probe((op, s) => vop3(gen, sp.fam, op, { src: s, hi: clampBit }));
    const tOmod = probe((op, s) => vop3(gen, sp.fam, op, { src: s, omod: 1 }));
    // Each op_sel field bit alone (w0 bits 11-14: src0, src1, src2, dst): v_dot2_f16_f16 prints only src2's and dst's.
    const tOpsel = [0, 1, 2, 3].map((j) => probe((op, s) => vop3(gen, sp.fam, op, { src: s, hi: 0x08 << j })));
    const withSlot = (s: [number, number, number], k: number, v: number): [number, number, number] => {
      const c: [number, number, number] = [...s];
      c[k] = v;
      return c;
    };
    const tC240 = [0, 1, 2].map((k) => probe((op, s) => vop3(gen, sp.fam, op, { src: withSlot(s, k, 240) })));
    const lit = gen >= 3;
    const tL16 = lit
      ? [0, 1, 2].map((k) => probe((op, s) => [...vop3(gen, sp.fam, op, { src: withSlot(s, k, 255) }), 0x3800]))
      : [];
    const tL32 = lit
      ? [0, 1, 2].map((k) => probe((op, s) => [...vop3(gen, sp.fam, op, { src: withSlot(s, k, 255) }), 0x3f000000]))
      : [];
    const tL64 = lit
      ? [0, 1, 2].map((k) => probe((op, s) => [...vop3(gen, sp.fam, op, { src: withSlot(s, k, 255) }), 0x3fe00000]))
      : [];
    for (const op of ops) {
      if (!chosen[op]) continue;
      // gfx9's VOP3P prefix lies inside the VOP3 opcode space.
      if (gen === 2 && sp.fam === 'VOP3' && op >= 0x380) continue;
      const text = textOf(op);
      const p = parseText(text);
      const vop3b = p.ops.length >= 2 && /^s(0|\[0:1\])$/.test(p.ops[1]) && regOf(p.ops[0])?.n === R_VDST;
      // LLVM spells the VOP3 forms of VINTRP's instructions with their _e64 suffix.
      const ownName = /^v_interp_/.test(p.mnem) ? p.mnem : stripSuffix(p.mnem);
      const isE64 = p.mnem.endsWith('_e64') && sp.fam === 'VOP3';
      let fam: Fam = sp.fam;
      let fd: Found | undefined;
      if (isE64) {
        for (const f of ['VOP1', 'VOP2', 'VOPC'] as const) {
          const e = byName.get(`${f}:${ownName}`);
          if (e && e.op3 < 0) {
            fd = e;
            fam = f;
            break;
          }
        }
      }
      const shape = shapeOf(fam, p, vop3b);
      if (!shape) continue;
      if (!fd) {
        fd = {
          gen,
          fam: sp.fam,
          name: ownName,
          op,
          op3: -1,
          abs: 0,
          neg: 0,
          clamp: false,
          omod: false,
          opsel: false,
          opselN: 0,
          opselBits: 0,
          int16: [false, false, false],
          f16: [false, false, false],
          f64: [false, false, false],
          lit32: [false, false, false],
        };
        if (isE64) fd.fam = 'VOP3';
        found.push(fd);
      } else fd.op3 = op;
      fd.e64 = shape;
      const srcPos = [0, 1, 2].map((k) => shape.findIndex((o) => o.field === `src${k}`));
      for (let k = 0; k < 3; k++) {
        const pos = srcPos[k];
        if (pos < 0) continue;
        const ta = tAbs[k][op];
        const tn = tNeg[k][op];
        if (!vop3b && !ta.startsWith('<') && (parseText(ta).ops[pos]?.includes('|') || / neg_hi:/.test(ta)))
          fd.abs |= 1 << k;
        if (!tn.startsWith('<') && (parseText(tn).ops[pos]?.startsWith('-') || / neg_lo:/.test(tn))) fd.neg |= 1 << k;
        if (parseText(tC240[k][op]).ops[pos] === '0x3800') fd.int16[k] = true;
        if (lit) {
          if (parseText(tL16[k][op]).ops[pos] === '0.5') fd.f16[k] = true;
          if (parseText(tL32[k][op]).ops[pos] === '0.5') fd.lit32[k] = true;
          if (parseText(tL64[k][op]).ops[pos] === '0.5' && shape[pos].dwords === 2) fd.f64[k] = true;
        }
      }
      if (tWave64.length) {
        const w64 = parseText(tWave64[op]).ops.map((o) => regOf(o)?.dwords ?? 0);
        const vdst = shape.find((o) => o.field === 'vdst');
        if (vdst && w64[0] && w64[0] !== vdst.dwords) fd.w64dwords = w64[0];
      }
      if (/ clamp/.test(tClamp[op])) fd.clamp = true;
      if (/ mul:2/.test(tOmod[op])) fd.omod = true;
      for (let j = 0; j < 4; j++) {
        const os = / op_sel:\[([0-9,]*)\]/.exec(tOpsel[j][op]);
        if (vop3b || !os) continue;
        fd.opsel = true;
        fd.opselN = Math.max(fd.opselN, os[1].split(',').length);
        fd.opselBits |= 1 << j;
      }
    }
  }
  return found;
}

// ---- gfx7 from the corpus -----------------------------------------------------------

/**
 * gfx7 32-bit instructions that have no VOP3 (e64) form: the corpus rows show only their
 * 32-bit bytes, so ask LLVM's bonaire assembler for the `_e64` spelling of each one's text
 * (v_readlane_b32 / v_writelane_b32: "e64 variant of this instruction is not supported").
 */
function gfx7WithoutE64(g7: readonly G7[]): Set<string> {
  const cands = g7.filter((f) => f.fam !== 'VOP3' && !g7.some((x) => x.fam === 'VOP3' && x.e64 && x.name === f.name));
  const lines = cands.map((f) => f.text.replace(/^(\S+?)(_e32)?(\s|$)/, '$1_e64$3'));
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', '-mcpu=bonaire', '-filetype=null'], {
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
  });
  const out = new Set<string>();
  for (const m of r.stderr.matchAll(/<stdin>:(\d+):\d+: error: e64 variant of this instruction is not supported/g))
    out.add(cands[Number(m[1]) - 1].name);
  return out;
}

/**
 * gfx7 instructions whose VOP3 form takes `clamp`: LLVM's bonaire assembler refuses it on
 * integer results and compares ("integer clamping is not supported on this GPU"), so ask
 * it for each instruction's VOP3 text with ` clamp` appended.
 */
function gfx7WithClamp(g7: readonly G7[]): Set<string> {
  const cands = g7.filter((f) => f.fam === 'VOP3' || g7.some((x) => x.fam === 'VOP3' && x.e64 && x.name === f.name));
  const textOf = (f: G7): string => {
    const e64 = f.fam === 'VOP3' ? f : g7.find((x) => x.fam === 'VOP3' && x.e64 && x.name === f.name)!;
    // The output modifiers go last, after clamp: drop them from the row's text.
    return e64.text.replace(/ (clamp|mul:\d|div:2)\b/g, '') + ' clamp';
  };
  const lines = cands.map(textOf);
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', '-mcpu=bonaire', '-filetype=null'], {
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
  });
  const refused = new Set<number>();
  for (const m of r.stderr.matchAll(/<stdin>:(\d+):\d+: error:/g)) refused.add(Number(m[1]) - 1);
  return new Set(cands.filter((_f, i) => !refused.has(i)).map((f) => f.name));
}

interface G7 {
  fam: Fam;
  name: string;
  op: number;
  text: string;
  e64: boolean;
}
function gfx7Facts(): G7[] {
  const out = new Map<string, G7>();
  for (const r of gfx7Rows()) {
    if (r.text.startsWith('<')) continue;
    const w0 = parseInt(r.hex.slice(6, 8) + r.hex.slice(4, 6) + r.hex.slice(2, 4) + r.hex.slice(0, 2), 16) >>> 0;
    const mnem = r.text.split(' ')[0];
    let fam: Fam;
    let op: number;
    if (r.family === 'VOP1') {
      fam = 'VOP1';
      op = (w0 >>> 9) & 0xff;
    } else if (r.family === 'VOP2') {
      fam = 'VOP2';
      op = (w0 >>> 25) & 0x3f;
    } else if (r.family === 'VOPC') {
      fam = 'VOPC';
      op = (w0 >>> 17) & 0xff;
    } else if (r.family === 'VOP3') {
      fam = 'VOP3';
      op = (w0 >>> 17) & 0x1ff;
    } else continue;
    const k = `${fam}:${op}`;
    if (!out.has(k)) out.set(k, { fam, name: stripSuffix(mnem), op, text: r.text, e64: mnem.endsWith('_e64') });
  }
  return [...out.values()].sort((a, b) => (a.fam < b.fam ? -1 : a.fam > b.fam ? 1 : a.op - b.op));
}

// ---- merging into InstructionDefs -----------------------------------------------------

interface Def {
  name: string;
  family: Fam;
  op: number[];
  op3: number[];
  operands: Op[];
  abs: number;
  neg: number;
  clamp: number; // gen bitmask
  omod: number;
  opsel: number;
  opselN: number;
  opselBits: number; // op_sel field bits LLVM prints (bit 3: dst), over all generations
  w64dwords: number; // vdst's and src2's VGPR count in wave64 where it differs (WMMA), else 0
  e32: boolean; // has a 32-bit form
  e64: number; // gen bitmask of gens with an e64 form
  k: boolean; // madmk-style literal operand
}

function isPermlane(name: string): boolean {
  return /^v_permlanex?16_b32$/.test(name);
}

/** The value types a mnemonic names, in order (`v_cvt_f32_f16` → f32, f16; `v_dot2_f32_bf16` → f32, bf16). */
function nameTypes(name: string): string[] {
  return [...name.matchAll(/_(bf16|[fiub](?:16|32|64))(?=_|$)/g)].map((m) => m[1]);
}

function typeFor(name: string, o: Op, hints: { int16: boolean; f16: boolean; f64: boolean; probed?: boolean }): string {
  if (o.field === 'sdst' || (o.cls === 's' && o.field === 'src2' && !isPermlane(name))) return 'b64';
  const t = nameTypes(name);
  // WMMA's src2 is the accumulator C, of the result's type (v_wmma_f32_16x16x16_bf16: f32).
  const named = o.role === 'dst' || (o.field === 'src2' && /^v_wmma_/.test(name)) ? t[0] : t[t.length - 1];
  const bits = o.dwords === 2 ? 64 : 32;
  if (o.cls === 'imm') return named === 'f16' ? 'f16' : 'f32';
  if (bits === 64) {
    if (hints.f64) return 'f64';
    const n64 = t.find((x) => x.endsWith('64'));
    return n64 === 'f64' ? 'f64' : (n64 ?? 'b64');
  }
  if (hints.int16) return named && /^[iub]16$/.test(named) ? named : 'b16';
  // bf16 values: LLVM 19 encodes their constants as bf16 (1.0 is inline 242, 100.0 the literal 0x42c8).
  if (named === 'bf16') return o.dwords === 1 ? 'bf16' : 'b32';
  if (hints.f16) return 'f16';
  if (named && named.endsWith('16') && o.role === 'dst') return named;
  if (named && named.endsWith('32')) return named;
  if (named === 'f16') return 'f16';
  if (named && named.endsWith('16') && o.role === 'src') return hints.probed ? 'b32' : named;
  return 'b32';
}

/** Packed (VOP3P) source types: v2f16/v2i16 by the name, the dot accumulator as the result. */
function packedType(name: string, field: string, dstType: string): string {
  if (/^v_(fma|mad)_mix/.test(name)) return 'f32';
  if (field === 'src2' && /^v_dot/.test(name)) return dstType;
  const t = nameTypes(name);
  const last = t[t.length - 1];
  if (last === 'f16') return 'v2f16';
  if (last === 'bf16') return 'v2bf16';
  if (last === 'i16' || last === 'u16' || last === 'b16') return 'v2i16';
  return last ?? 'b32';
}

function main(): void {
  const defs: Def[] = [];
  const index = new Map<string, Def>();
  const keyOf = (name: string, fam: Fam, ops: Op[]): string =>
    `${fam}:${name}:${ops.map((o) => `${o.field}/${o.cls}/${o.dwords}/${o.type}`).join(',')}`;
  const add = (gen: number, name: string, fam: Fam, ops: Op[], op: number, op3: number, f: Partial<Def>): void => {
    const k = keyOf(name, fam, ops);
    let d = index.get(k);
    if (!d) {
      d = {
        name,
        family: fam,
        op: [-1, -1, -1, -1, -1, -1],
        op3: [-1, -1, -1, -1, -1, -1],
        operands: ops,
        abs: 0,
        neg: 0,
        clamp: 0,
        omod: 0,
        opsel: 0,
        opselN: 0,
        opselBits: 0,
        w64dwords: 0,
        e32: false,
        e64: 0,
        k: false,
      };
      index.set(k, d);
      defs.push(d);
    }
    d.op[gen] = op;
    d.op3[gen] = op3;
    d.abs |= f.abs ?? 0;
    d.neg |= f.neg ?? 0;
    d.clamp |= f.clamp ?? 0;
    d.omod |= f.omod ?? 0;
    d.opsel |= f.opsel ?? 0;
    d.opselN = Math.max(d.opselN, f.opselN ?? 0);
    d.opselBits |= f.opselBits ?? 0;
    d.w64dwords ||= f.w64dwords ?? 0;
    d.e32 ||= f.e32 ?? false;
    d.e64 |= f.e64 ?? 0;
    d.k ||= f.k ?? false;
  };
  const normalize = (
    fd: { name: string; fam: Fam },
    ops: Op[],
    hints: (k: number) => { int16: boolean; f16: boolean; f64: boolean; probed: boolean },
  ): Op[] =>
    ops.map((o) => {
      const k = /^src(\d)$/.exec(o.field);
      const si = k ? Number(k[1]) : -1;
      // A scalar src2 is a lane mask (carry-in, cndmask), but permlane16's is a 32-bit lane select.
      const lane = o.field === 'sdst' || (o.cls === 's' && o.field === 'src2' && !isPermlane(fd.name));
      const h = si >= 0 ? hints(si) : { int16: false, f16: false, f64: false, probed: false };
      // Destinations take the type of the name's first type token; sources their probed type.
      const t =
        o.role === 'dst' && !lane
          ? typeFor(fd.name, o, { int16: false, f16: false, f64: false })
          : typeFor(fd.name, o, h);
      const packed = (fd.fam === 'VOP3P' || /^v_(pk|dot)/.test(fd.name)) && o.role === 'src' && o.dwords === 1;
      return {
        ...o,
        dwords: lane ? 2 : o.dwords,
        type: packed ? packedType(fd.name, o.field, nameTypes(fd.name)[0] ?? 'b32') : t,
      };
    });
  const bySweepName = new Map<string, Op[]>();
  for (const { gen, cpu } of SWEEP_GENS) {
    process.stderr.write(`sweeping ${cpu}\n`);
    for (const fd of sweepGen(gen, cpu)) {
      const base = fd.e64 ?? fd.e32!;
      const ops = normalize(fd, base, (k) => ({
        int16: fd.int16[k],
        f16: fd.f16[k],
        f64: fd.f64[k],
        probed: gen >= 1,
      }));
      const k = fd.e32?.some((o) => o.cls === 'imm') ?? false;
      const bit = 1 << gen;
      add(gen, fd.name, fd.fam, ops, fd.op, fd.op3, {
        abs: fd.abs,
        neg: fd.neg,
        clamp: fd.clamp ? bit : 0,
        omod: fd.omod ? bit : 0,
        opsel: fd.opsel ? bit : 0,
        opselN: fd.opselN,
        opselBits: fd.opselBits,
        w64dwords: fd.w64dwords,
        e32: fd.e32 !== undefined,
        e64: fd.e64 && fd.fam !== 'VOP3' && fd.fam !== 'VOP3P' ? bit : 0,
        k,
      });
      if (!bySweepName.has(`${fd.fam}:${fd.name}`)) bySweepName.set(`${fd.fam}:${fd.name}`, ops);
    }
  }
  // gfx7: attach to the gfx8 shape of the same name and family, else parse the corpus text.
  const g7 = gfx7Facts();
  const noE64 = gfx7WithoutE64(g7);
  const withClamp = gfx7WithClamp(g7);
  for (const f of g7) {
    if (f.fam === 'VOP3' && f.e64) continue;
    const e64 = g7.find((x) => x.fam === 'VOP3' && x.e64 && x.name === f.name);
    const op3 = e64
      ? e64.op
      : f.fam === 'VOPC'
        ? f.op
        : f.fam === 'VOP2'
          ? 0x100 + f.op
          : f.fam === 'VOP1'
            ? 0x180 + f.op
            : -1;
    const alias = gfx7Alias(f.name);
    let ops = bySweepName.get(`${f.fam}:${f.name}`) ?? bySweepName.get(`${f.fam}:${alias}`);
    const similar =
      defs.find((d) => d.name === f.name && d.family === f.fam && d.op[1] >= 0) ??
      defs.find((d) => d.name === alias && d.family === f.fam && d.op[1] >= 0);
    // Source modifiers of a gfx7 VOP2 whose gfx8 sibling is VOP3-only (v_ldexp_f32,
    // v_cvt_pkaccum_u8_f32): the sibling's, whose masks mean the same sources.
    const sibling = similar ?? defs.find((d) => d.name === f.name && d.family === 'VOP3' && d.op[1] >= 0);
    if (!ops) ops = gfx7Shape(f, e64);
    const isK = /^v_mad(mk|ak)/.test(f.name);
    add(0, f.name, f.fam, ops, f.op, f.fam === 'VOP3' || isK || noE64.has(f.name) ? -1 : op3, {
      abs: sibling?.abs ?? gfx7Mods(f, e64).abs,
      neg: sibling?.neg ?? gfx7Mods(f, e64).neg,
      clamp: withClamp.has(f.name) ? 1 : 0,
      omod: (similar ? similar.omod & 2 : 0) ? 1 : gfx7Mods(f, e64).omod ? 1 : 0,
      e32: f.fam !== 'VOP3',
      e64:
        f.fam !== 'VOP3' &&
        !isK &&
        !noE64.has(f.name) &&
        (e64 !== undefined || (similar ? (similar.e64 & 2) !== 0 : true))
          ? 1
          : 0,
      k: isK,
    });
  }
  // gfx7 opcodes the corpus rows never show (LLVM 19 assembles them for bonaire).
  for (const [name, fam, op, op3] of GFX7_EXTRA) {
    const d = defs.find((x) => x.name === name && x.family === fam);
    if (d) {
      d.op[0] = op;
      if (op3 >= 0) d.op3[0] = op3;
    }
  }
  for (const d of defs) if (d.family === 'VOP3' || d.family === 'VOP3P') d.op3 = [];
  for (const d of defs) d.operands = d.operands.map((o) => ({ ...o, cls: classOverride(d.name, o) }));
  write(defs);
}

/** [name, family, gfx7 opcode, gfx7 VOP3 opcode or -1]. */
const GFX7_EXTRA: readonly [string, Fam, number, number][] = [
  ['v_nop', 'VOP1', 0, -1],
  ['v_nop', 'VOP3', 384, -1],
  ['v_clrexcp', 'VOP1', 65, -1],
  ['v_clrexcp', 'VOP3', 449, -1],
];

/**
 * LLVM operand classes the sweeps cannot see, because the printer spells any source code:
 * VGPR-only sources (VRegSrc: LLVM's assembler refuses scalars and constants there) and
 * scalar-only lane selects and writelane's value (SCSrc: SGPRs and constants).
 */
const CLASS_OVERRIDES: readonly [RegExp, string, Op['cls']][] = [
  [/^v_(readfirstlane|readlane|permlanex?16)_b32$/, 'src0', 'v'],
  [/^v_(movrels|movrelsd|movrelsd_2|swap|swaprel)_b32$/, 'src0', 'v'],
  [/^v_wmma_/, 'src0', 'v'],
  [/^v_wmma_/, 'src1', 'v'],
  [/^v_(readlane|writelane)_b32$/, 'src1', 's'],
  [/^v_writelane_b32$/, 'src0', 's'],
  [/^v_interp_/, 'src1', 'v'],
  [/^v_interp_/, 'src2', 'v'],
  // VReg_128: llvm-mc-19 refuses SGPRs and constants there (bonaire to gfx1100).
  [/^v_mqsad_u32_u8$/, 'src2', 'v'],
];
function classOverride(name: string, o: Op): Op['cls'] {
  for (const [re, field, cls] of CLASS_OVERRIDES) if (re.test(name) && o.field === field) return cls;
  return o.cls;
}

/** The gfx8 instruction whose shape a gfx7-only name shares. */
function gfx7Alias(name: string): string {
  const m: Record<string, string> = {
    v_add_i32: 'v_add_u32',
    v_sub_i32: 'v_sub_u32',
    v_subrev_i32: 'v_subrev_u32',
    v_lshl_b32: 'v_lshlrev_b32',
    v_lshr_b32: 'v_lshrrev_b32',
    v_ashr_i32: 'v_ashrrev_i32',
    v_max_legacy_f32: 'v_max_f32',
    v_min_legacy_f32: 'v_min_f32',
    v_mac_legacy_f32: 'v_mac_f32',
  };
  return m[name] ?? name.replace(/^v_cmps(x?)_/, 'v_cmp$1_');
}

/** Float modifiers on gfx7 for instructions gfx8 lacks: those of float instructions. */
function gfx7Mods(f: G7, e64: G7 | undefined): { abs: number; neg: number; omod: boolean } {
  const isFloat = /_f(16|32|64)/.test(f.name) && !/^v_cvt_(i|u)32|frexp_exp|^v_cmp/.test(f.name);
  const n = gfx7Shape(f, e64).filter((o) => o.role === 'src').length;
  const m = (1 << n) - 1;
  const cmpF = /^v_cmps?x?_.*_f(32|64)/.test(f.name);
  return { abs: isFloat || cmpF ? m : 0, neg: isFloat || cmpF ? m : 0, omod: isFloat };
}

function gfx7Shape(f: G7, e64: G7 | undefined): Op[] {
  const p = parseText((e64 ?? f).text);
  const ops: Op[] = [];
  let src = 0;
  p.ops.forEach((tok, i) => {
    const r = regOf(tok);
    const dwords = r?.dwords ?? 1;
    if (i === 0 && f.fam === 'VOPC') ops.push({ field: 'sdst', role: 'dst', cls: 's', dwords: 2, type: 'b64' });
    else if (i === 0) ops.push({ field: 'vdst', role: 'dst', cls: r?.kind === 's' ? 's' : 'v', dwords, type: '' });
    else ops.push({ field: `src${src++}`, role: 'src', cls: 'vs', dwords, type: '' });
  });
  return ops.map((o) => ({ ...o, type: o.type || typeFor(f.name, o, { int16: false, f16: false, f64: false }) }));
}

// ---- attribute rules ------------------------------------------------------------------

const A = {
  ReadsExec: 1 << 0,
  WritesExec: 1 << 1,
  ReadsVcc: 1 << 2,
  WritesVcc: 1 << 3,
  ReadsM0: 1 << 6,
  CrossLane: 1 << 13,
  NoEffect: 1 << 16,
};
function attrsOf(d: Def): number {
  let a = A.ReadsExec; // every vector instruction is masked by EXEC
  if (/^v_cmpx|^v_cmpsx/.test(d.name)) a |= A.WritesExec;
  if (d.family === 'VOPC' && !/^v_cmpx/.test(d.name)) a |= A.WritesVcc; // e32 form writes VCC
  if (d.operands.some((o) => o.field === 'sdst' && d.family !== 'VOPC')) a |= A.WritesVcc; // carry-out (VCC in e32)
  if (d.operands.some((o) => o.field === 'src2' && o.cls === 's' && o.type === 'b64') || /^v_div_fmas/.test(d.name))
    a |= A.ReadsVcc;
  if (/^v_(readlane|readfirstlane|writelane|permlane|mov_dpp|swap|movrel|dpp)/.test(d.name)) a |= A.CrossLane;
  if (/^v_movrel|^v_interp/.test(d.name)) a |= A.ReadsM0;
  if (/^v_nop$|^v_clrexcp$|^v_pipeflush$/.test(d.name)) a |= A.NoEffect;
  return a;
}

// ---- output ---------------------------------------------------------------------------

function write(defs: Def[]): void {
  defs.sort((a, b) =>
    a.family < b.family ? -1 : a.family > b.family ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const pool = new Map<string, string>();
  const opKey = (o: Op): string => `${o.role === 'dst' ? 'D' : 'S'}_${o.field}_${o.cls}${o.dwords}_${o.type}`;
  for (const d of defs)
    for (const o of d.operands)
      pool.set(
        opKey(o),
        JSON.stringify(o)
          .replace(/"(\w+)":/g, '$1:')
          .replace(/"/g, "'"),
      );
  const lines: string[] = [];
  lines.push(
    '// GENERATED by `npx tsx tools/registry/vop.ts` (llvm-mc-19 opcode sweeps + gfx7 corpus rows). Do not edit.',
  );
  lines.push("import type { InstructionDef, OperandDef } from '../types.ts';");
  lines.push('');
  lines.push('// Operand shapes shared by many instructions: role_field_class+dwords_type.');
  const names = [...pool.keys()].sort();
  lines.push('const O: Record<string, OperandDef> = {');
  for (const n of names) lines.push(`  ${n}: ${pool.get(n)},`);
  lines.push('};');
  lines.push('');
  lines.push(
    'type Row = [name: string, family: InstructionDef["family"], op: number[], op3: number[] | 0, operands: string, attrs: number, flags: string];',
  );
  lines.push(
    '// flags: abs/neg = source bitmask; clamp/omod/opsel/e64 = generation bitmask; e32 = has 32-bit form; k = madmk-style literal;',
  );
  lines.push(
    '// opseln = op_sel entries LLVM prints; opselmask = the op_sel field bits (3: dst) that mean something, where not all do;',
  );
  lines.push("// w64dwords = VGPRs of vdst and src2 in wave64 where they differ from wave32 (WMMA's C/D matrices).");
  lines.push('const ROWS: Row[] = [');
  for (const d of defs) {
    const flags: string[] = [];
    if (d.abs) flags.push(`abs=${d.abs}`);
    if (d.neg) flags.push(`neg=${d.neg}`);
    if (d.clamp) flags.push(`clamp=${d.clamp}`);
    if (d.omod) flags.push(`omod=${d.omod}`);
    if (d.opsel) flags.push(`opsel=${d.opsel}`);
    if (d.opselN) flags.push(`opseln=${d.opselN}`);
    if (d.opsel) {
      const nsrc = d.operands.filter((o) => /^src\d$/.test(o.field) && o.cls !== 'imm').length;
      const all = d.opselN === nsrc + 1 ? ((1 << nsrc) - 1) | 8 : (1 << d.opselN) - 1;
      // Only some op_sel bits mean something (v_dot2_f16_f16: src2 and dst): LLVM ignores the others.
      if (d.opselBits !== all) flags.push(`opselmask=${d.opselBits}`);
    }
    if (d.w64dwords) flags.push(`w64dwords=${d.w64dwords}`);
    if (d.e32) flags.push(`e32=1`);
    if (d.e64) flags.push(`e64=${d.e64}`);
    if (d.k) flags.push('k=1');
    // VOP3-encoded interpolation: attr/attrchan/high in the src0 field; the f16 forms take `high`.
    if (d.operands.some((o) => o.field === 'attr')) flags.push(/_f16$/.test(d.name) ? 'interp=1 high=1' : 'interp=1');
    const op3 = d.op3.length ? `[${d.op3.join(',')}]` : '0';
    lines.push(
      `  ['${d.name}', '${d.family}', [${d.op.join(',')}], ${op3}, '${d.operands.map(opKey).join(' ')}', ${attrsOf(d)}, '${flags.join(' ')}'],`,
    );
  }
  lines.push('];');
  lines.push('');
  lines.push('function flagsOf(s: string): Record<string, number> {');
  lines.push('  const f: Record<string, number> = {};');
  lines.push(
    "  for (const kv of s.split(' ')) if (kv) f[kv.slice(0, kv.indexOf('='))] = Number(kv.slice(kv.indexOf('=') + 1));",
  );
  lines.push('  return f;');
  lines.push('}');
  lines.push('');
  lines.push(
    'export const TABLE: readonly InstructionDef[] = ROWS.map(([name, family, op, op3, operands, attrs, flags]) => ({',
  );
  lines.push('  name,');
  lines.push('  family,');
  lines.push('  op: op as unknown as InstructionDef["op"],');
  lines.push('  ...(op3 ? { op3: op3 as unknown as InstructionDef["op"] } : {}),');
  lines.push("  operands: operands ? operands.split(' ').map((k) => O[k]) : [],");
  lines.push('  attrs,');
  lines.push("  mem: 'none',");
  lines.push('  flags: flagsOf(flags),');
  lines.push('}));');
  writeFileSync(new URL('../../src/isa/registry/generated/vop.ts', import.meta.url), lines.join('\n') + '\n');
  process.stderr.write(`wrote ${defs.length} instructions\n`);
}

main();
