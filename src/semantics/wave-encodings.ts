/**
 * The VOP extension encodings as the per-lane context reads them (D003): SDWA (gfx8-gfx10.3),
 * DPP16 and DPP8 after VOP1/VOP2/VOPC, and gfx11's VOP3/VOP3P with a DPP16 or DPP8 dword.
 * Each becomes a `LaneView`: the encoding whose operand rules apply (the e32 forms' implicit
 * VCC and `vsrc1`, or VOP3's fields), its fields under that encoding's names, the modifiers
 * the extension dword carries, and what it selects: sub-dwords (SDWA) or another lane's source
 * 0 (DPP). Building a view refuses, by name, what the context cannot run.
 *
 * Sources: Vega ISA, "SDWA" and "DPP" (Tables 79-81); RDNA2 ISA, "DPP16" and "DPP8"; RDNA3
 * ISA, "VOP3 DPP" (the VOP3 fields' modifiers apply; the DPP dword's neg/abs are ignored).
 */
import { Gen, type Target } from '../isa/gen.ts';
import type { Encoding, Instruction } from '../isa/instruction.ts';
import { SEL_DWORD, SRC0_DPP8_FI, decodeDppWord, decodeSdwaWord, dpp8Selects } from '../isa/families/vop-ext-fields.ts';
import { SemanticsRefusal } from './context.ts';
import { OUT_OF_RANGE, dpp8SourceLane, dppCtrlRefusal, dppLaneWrites, dppSourceLane } from './wave-lanes.ts';

/** SDWA's sub-dword selects (Vega ISA, "SDWA": SRC0_SEL, SRC1_SEL, DST_SEL, DST_UNUSED). */
export interface SdwaSelect {
  /** BYTE_0..3 = 0..3, WORD_0/1 = 4/5, DWORD = 6, per source index. */
  readonly srcSel: readonly [number, number];
  /** Sign-extend the selected part (per source index). */
  readonly srcSext: readonly [boolean, boolean];
  readonly dstSel: number;
  /** UNUSED_PAD 0, UNUSED_SEXT 1, UNUSED_PRESERVE 2. */
  readonly dstUnused: number;
}

/** DPP: source 0 of each lane comes from another lane's VGPR. */
export interface DppSelect {
  readonly kind: 'dpp16' | 'dpp8';
  /** Source 0's VGPR (the extension dword's SRC0). */
  readonly vgpr: number;
  /** The lane `lane` reads, or OUT_OF_RANGE. */
  sourceLane(lane: number): number;
  /** DPP16's row and bank masks: whether `lane` writes at all. */
  laneWrites(lane: number): boolean;
  /** BOUND_CTRL (DPP16): a lane whose source is invalid reads 0 (else it does not write). */
  readonly boundCtrl: boolean;
  /** FI (gfx10+): inactive source lanes are read as they are (else they are invalid). */
  readonly fetchInactive: boolean;
}

/** How the per-lane context reads one instruction. */
export interface LaneView {
  /** The encoding whose operand rules apply: VOP1/VOP2/VOPC (e32), `*_E64`, VOP3 or VOP3P. */
  readonly encoding: Encoding;
  /** Fields under that encoding's names (src0/src1/src2 as 9-bit codes, vsrc1, vdst, VOP3's modifiers). */
  readonly fields: Readonly<Record<string, number>>;
  /** The extension dword's source modifiers, bit i for source i (DPP16 and SDWA neg/abs). */
  readonly neg?: number;
  readonly abs?: number;
  /** SDWA's output modifiers. */
  readonly clamp?: number;
  readonly omod?: number;
  /** SDWA gfx9+: the 9-bit code of source 1 (an SGPR when S1 is set). */
  readonly src1Code?: number;
  /** SDWA VOPC gfx9+ with SD set: the SGPR code the compare writes instead of VCC. */
  readonly maskDst?: number;
  readonly sdwa?: SdwaSelect;
  readonly dpp?: DppSelect;
}

const views = new WeakMap<Instruction, LaneView>();

/**
 * The view of an instruction (plain encodings: its own encoding and fields), built once per
 * decoded instruction. Throws SemanticsRefusal.
 */
export function laneView(target: Target, inst: Instruction): LaneView {
  let v = views.get(inst);
  if (!v) {
    v = /_(DPP|DPP8|SDWA)$/.test(inst.encoding)
      ? buildView(target, inst)
      : { encoding: inst.encoding, fields: inst.fields };
    views.set(inst, v);
  }
  return v;
}

const refuse = (inst: Instruction, reason: string): never => {
  throw new SemanticsRefusal(inst.def.name, reason);
};

function buildView(target: Target, inst: Instruction): LaneView {
  const enc = inst.encoding;
  if (enc.endsWith('_SDWA')) return sdwaView(target, inst);
  if (enc === 'VOP3_DPP' || enc === 'VOP3_DPP8' || enc === 'VOP3P_DPP' || enc === 'VOP3P_DPP8')
    return vop3DppView(target, inst);
  return shortDppView(target, inst);
}

/** The short family an extension encoding extends (`VOP2_DPP` → `VOP2`). */
function shortFamily(enc: Encoding): 'VOP1' | 'VOP2' | 'VOPC' {
  const fam = enc.slice(0, 4);
  return fam === 'VOP1' ? 'VOP1' : fam === 'VOP2' ? 'VOP2' : 'VOPC';
}

/**
 * SDWA (Vega ISA, "SDWA"): SRC0 is a VGPR, or on gfx9+ with S0 set an SGPR/constant code; the
 * same for the e32 `vsrc1` with S1. Source modifiers and the sub-dword selects per source,
 * DST_SEL / DST_UNUSED on the destination; clamp on bit 13 (not VOPC gfx9+, where bits 14:8
 * are SDST), omod on gfx9+ (not VOPC). VOPC writes VCC, or on gfx9+ with SD the SGPR in SDST.
 */
function sdwaView(target: Target, inst: Instruction): LaneView {
  const gen = target.gen;
  const f = inst.fields;
  const w = decodeSdwaWord(f.ext);
  const family = shortFamily(inst.encoding);
  const vopc = family === 'VOPC';
  const gfx9 = gen >= Gen.GFX9;
  const src0 = gfx9 && w.s0 ? w.src0 : 256 + w.src0;
  const src1Code = gfx9 && w.s1 ? (f.vsrc1 ?? 0) : undefined;
  if (w.src0Sel > SEL_DWORD || (family !== 'VOP1' && w.src1Sel > SEL_DWORD) || (!vopc && w.dstSel > SEL_DWORD))
    return refuse(inst, 'a reserved SDWA select');
  if (!vopc && w.dstUnused > 2) return refuse(inst, 'a reserved SDWA dst_unused');
  const fields: Record<string, number> = { op: f.op, src0 };
  if (f.vsrc1 !== undefined) fields.vsrc1 = f.vsrc1;
  if (f.vdst !== undefined) fields.vdst = f.vdst;
  const view: LaneView = {
    encoding: family,
    fields,
    neg: w.src0Neg | (w.src1Neg << 1),
    abs: w.src0Abs | (w.src1Abs << 1),
    clamp: vopc && gfx9 ? 0 : w.clamp,
    omod: !vopc && gfx9 ? w.omod : 0,
    ...(src1Code !== undefined ? { src1Code } : {}),
    ...(vopc && gfx9 && w.sd ? { maskDst: w.sdst } : {}),
    sdwa: {
      srcSel: [w.src0Sel, family === 'VOP1' ? SEL_DWORD : w.src1Sel],
      srcSext: [w.src0Sext === 1, w.src1Sext === 1],
      dstSel: vopc ? SEL_DWORD : w.dstSel,
      dstUnused: vopc ? 0 : w.dstUnused,
    },
  };
  return view;
}

/** DPP16 and DPP8 after VOP1/VOP2/VOPC: source 0 is the dword's VGPR, read from the selected lane. */
function shortDppView(target: Target, inst: Instruction): LaneView {
  const f = inst.fields;
  const family = shortFamily(inst.encoding);
  const fields: Record<string, number> = { op: f.op, src0: 256 + (f.ext & 0xff) };
  if (f.vsrc1 !== undefined) fields.vsrc1 = f.vsrc1;
  if (f.vdst !== undefined) fields.vdst = f.vdst;
  const dpp = dppSelect(target, inst, f.ext, f.src0_marker);
  if (dpp.kind === 'dpp8') return { encoding: family, fields, dpp };
  const d = decodeDppWord(f.ext);
  return { encoding: family, fields, neg: d.src0Neg | (d.src1Neg << 1), abs: d.src0Abs | (d.src1Abs << 1), dpp };
}

/**
 * gfx11 VOP3 / VOP3P with a DPP dword: the VOP3 fields of the first two dwords (their own
 * neg/abs/op_sel/clamp/omod), source 0 the DPP dword's VGPR.
 */
function vop3DppView(target: Target, inst: Instruction): LaneView {
  const f = inst.fields;
  const w0 = f.w0;
  const w1 = f.w1;
  const src0 = 256 + (f.ext & 0xff);
  const vop3p = inst.encoding.startsWith('VOP3P');
  const family = inst.def.family;
  const encoding: Encoding = vop3p
    ? 'VOP3P'
    : family === 'VOP1' || family === 'VOP2' || family === 'VOPC'
      ? (`${family}_E64` as Encoding)
      : 'VOP3';
  const fields: Record<string, number> = vop3p
    ? {
        op: f.op,
        vdst: w0 & 0xff,
        neg_hi: (w0 >>> 8) & 7,
        op_sel: (w0 >>> 11) & 7,
        op_sel_hi: ((w1 >>> 27) & 3) | (((w0 >>> 14) & 1) << 2),
        clamp: (w0 >>> 15) & 1,
        src0,
        src1: (w1 >>> 9) & 0x1ff,
        src2: (w1 >>> 18) & 0x1ff,
        neg_lo: (w1 >>> 29) & 7,
      }
    : {
        op: f.op,
        vdst: w0 & 0xff,
        abs: (w0 >>> 8) & 7,
        sdst: (w0 >>> 8) & 0x7f,
        op_sel: (w0 >>> 11) & 0xf,
        clamp: (w0 >>> 15) & 1,
        src0,
        src1: (w1 >>> 9) & 0x1ff,
        src2: (w1 >>> 18) & 0x1ff,
        omod: (w1 >>> 27) & 3,
        neg: (w1 >>> 29) & 7,
      };
  return { encoding, fields, dpp: dppSelect(target, inst, f.ext, f.src0_marker) };
}

function dppSelect(target: Target, inst: Instruction, ext: number, marker: number): DppSelect {
  const lanes = target.wave64 ? 64 : 32;
  const vgpr = ext & 0xff;
  const enc = inst.encoding;
  let dpp: DppSelect;
  if (enc.endsWith('_DPP8')) {
    const selects = dpp8Selects(ext);
    dpp = {
      kind: 'dpp8',
      vgpr,
      sourceLane: (lane) => dpp8SourceLane(selects, lane),
      laneWrites: () => true,
      boundCtrl: true,
      fetchInactive: marker === SRC0_DPP8_FI,
    };
  } else {
    const d = decodeDppWord(ext);
    const why = dppCtrlRefusal(target.gen, d.ctrl);
    if (why) return refuse(inst, why);
    const map = Array.from({ length: lanes }, (_, l) => dppSourceLane(d.ctrl, lanes, l));
    dpp = {
      kind: 'dpp16',
      vgpr,
      sourceLane: (lane) => map[lane] ?? OUT_OF_RANGE,
      laneWrites: (lane) => dppLaneWrites(d.rowMask, d.bankMask, lane),
      boundCtrl: d.boundCtrl === 1,
      fetchInactive: target.gen >= Gen.GFX10 && d.fi === 1,
    };
  }
  // A lane DPP leaves unwritten has no documented bit in a compare's result (VCC, SDST, EXEC):
  // a DPP compare runs only when every active lane writes. A carry-out's bit for such a lane is
  // written as an inactive lane's, 0 (compilers emit those carries dead; D003, known limits).
  if (inst.def.family === 'VOPC' && dpp.kind === 'dpp16') {
    const d = decodeDppWord(ext);
    const rows = lanes === 64 ? 0xf : 0x3;
    if (!(d.boundCtrl === 1 && (d.rowMask & rows) === rows && d.bankMask === 0xf))
      return refuse(
        inst,
        'a DPP compare with bound_ctrl:0 or partial row/bank masks: the result bit of a lane DPP does not write is not documented',
      );
  }
  return dpp;
}
