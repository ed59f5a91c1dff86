/**
 * Field layouts of the memory encodings (DS, MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH) per
 * generation, as data: each field is (dword, shift, bits). The decoder extracts every
 * field of the layout; the assembler packs them back. Names follow AMD's ISA documents.
 */
import { Gen } from '../gen.ts';
import { nullCode } from '../operands.ts';
import type { InstructionDef } from '../registry/types.ts';

export interface FieldSpec {
  readonly name: string;
  /** 0 for the first dword, 1 for the second. */
  readonly word: 0 | 1;
  readonly shift: number;
  readonly bits: number;
}

export type MemFamily = 'DS' | 'MUBUF' | 'MTBUF' | 'FLAT';

function f(name: string, word: 0 | 1, shift: number, bits: number): FieldSpec {
  return { name, word, shift, bits };
}

const DS_DWORD1 = [f('addr', 1, 0, 8), f('data0', 1, 8, 8), f('data1', 1, 16, 8), f('vdst', 1, 24, 8)];
const BUF_DWORD1 = [f('vaddr', 1, 0, 8), f('vdata', 1, 8, 8), f('srsrc', 1, 16, 5), f('soffset', 1, 24, 8)];
const FLAT_DWORD1 = [f('addr', 1, 0, 8), f('data', 1, 8, 8), f('vdst', 1, 24, 8)];

const DS_GCN3 = [f('offset0', 0, 0, 8), f('offset1', 0, 8, 8), f('gds', 0, 16, 1), f('op', 0, 17, 8), ...DS_DWORD1];
const DS_OTHER = [f('offset0', 0, 0, 8), f('offset1', 0, 8, 8), f('gds', 0, 17, 1), f('op', 0, 18, 8), ...DS_DWORD1];

const MUBUF: Readonly<Record<Gen, readonly FieldSpec[]>> = {
  [Gen.GFX7]: [
    f('offset', 0, 0, 12),
    f('offen', 0, 12, 1),
    f('idxen', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('addr64', 0, 15, 1),
    f('lds', 0, 16, 1),
    f('op', 0, 18, 7),
    ...BUF_DWORD1,
    f('slc', 1, 22, 1),
    f('tfe', 1, 23, 1),
  ],
  [Gen.GFX8]: gcn3Mubuf(),
  [Gen.GFX9]: gcn3Mubuf(),
  [Gen.GFX10]: gfx10Mubuf(),
  [Gen.GFX10_3]: gfx10Mubuf(),
  [Gen.GFX11]: [
    f('offset', 0, 0, 12),
    f('slc', 0, 12, 1),
    f('dlc', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('op', 0, 18, 8),
    ...BUF_DWORD1,
    f('tfe', 1, 21, 1),
    f('offen', 1, 22, 1),
    f('idxen', 1, 23, 1),
  ],
};

function gcn3Mubuf(): FieldSpec[] {
  return [
    f('offset', 0, 0, 12),
    f('offen', 0, 12, 1),
    f('idxen', 0, 13, 1),
    f('glc', 0, 14, 1),
    // Reserved (gfx7's addr64); only the cache-control instructions insist it is zero.
    f('reserved15', 0, 15, 1),
    f('lds', 0, 16, 1),
    f('slc', 0, 17, 1),
    f('op', 0, 18, 7),
    ...BUF_DWORD1,
    f('tfe', 1, 23, 1),
  ];
}

function gfx10Mubuf(): FieldSpec[] {
  return [
    f('offset', 0, 0, 12),
    f('offen', 0, 12, 1),
    f('idxen', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('dlc', 0, 15, 1),
    f('lds', 0, 16, 1),
    f('op', 0, 18, 8),
    ...BUF_DWORD1,
    f('slc', 1, 22, 1),
    f('tfe', 1, 23, 1),
  ];
}

const MTBUF: Readonly<Record<Gen, readonly FieldSpec[]>> = {
  [Gen.GFX7]: [
    f('offset', 0, 0, 12),
    f('offen', 0, 12, 1),
    f('idxen', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('addr64', 0, 15, 1),
    f('op', 0, 16, 3),
    f('dfmt', 0, 19, 4),
    f('nfmt', 0, 23, 3),
    ...BUF_DWORD1,
    f('slc', 1, 22, 1),
    f('tfe', 1, 23, 1),
  ],
  [Gen.GFX8]: gcn3Mtbuf(),
  [Gen.GFX9]: gcn3Mtbuf(),
  [Gen.GFX10]: gfx10Mtbuf(),
  [Gen.GFX10_3]: gfx10Mtbuf(),
  [Gen.GFX11]: [
    f('offset', 0, 0, 12),
    f('slc', 0, 12, 1),
    f('dlc', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('op', 0, 15, 4),
    f('format', 0, 19, 7),
    ...BUF_DWORD1,
    f('tfe', 1, 21, 1),
    f('offen', 1, 22, 1),
    f('idxen', 1, 23, 1),
  ],
};

function gcn3Mtbuf(): FieldSpec[] {
  return [
    f('offset', 0, 0, 12),
    f('offen', 0, 12, 1),
    f('idxen', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('op', 0, 15, 4),
    f('dfmt', 0, 19, 4),
    f('nfmt', 0, 23, 3),
    ...BUF_DWORD1,
    f('slc', 1, 22, 1),
    f('tfe', 1, 23, 1),
  ];
}

function gfx10Mtbuf(): FieldSpec[] {
  // The opcode's fourth bit (OPM) sits in the second dword; the codec joins `op` and `op_hi`.
  return [
    f('offset', 0, 0, 12),
    f('offen', 0, 12, 1),
    f('idxen', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('dlc', 0, 15, 1),
    f('op', 0, 16, 3),
    f('format', 0, 19, 7),
    ...BUF_DWORD1,
    f('op_hi', 1, 21, 1),
    f('slc', 1, 22, 1),
    f('tfe', 1, 23, 1),
  ];
}

const FLAT: Readonly<Record<Gen, readonly FieldSpec[]>> = {
  [Gen.GFX7]: gcnFlat(false),
  [Gen.GFX8]: gcnFlat(true),
  [Gen.GFX9]: [
    f('offset', 0, 0, 13),
    f('lds', 0, 13, 1),
    f('seg', 0, 14, 2),
    f('glc', 0, 16, 1),
    f('slc', 0, 17, 1),
    f('op', 0, 18, 7),
    ...FLAT_DWORD1,
    f('saddr', 1, 16, 7),
    f('nv', 1, 23, 1),
  ],
  [Gen.GFX10]: gfx10Flat(),
  [Gen.GFX10_3]: gfx10Flat(),
  [Gen.GFX11]: [
    f('offset', 0, 0, 13),
    f('dlc', 0, 13, 1),
    f('glc', 0, 14, 1),
    f('slc', 0, 15, 1),
    f('seg', 0, 16, 2),
    f('op', 0, 18, 7),
    ...FLAT_DWORD1,
    f('saddr', 1, 16, 7),
    f('sve', 1, 23, 1),
  ],
};

function gcnFlat(offset: boolean): FieldSpec[] {
  // gfx7 has no offset field; LLVM 19 reads (and prints) a 13-bit unsigned offset on gfx8.
  // Unused bits are kept as `unused` fields so the decoder can insist on zero.
  const low = offset ? [f('offset', 0, 0, 13), f('unused', 0, 13, 3)] : [f('unused', 0, 0, 16)];
  return [
    ...low,
    f('glc', 0, 16, 1),
    f('slc', 0, 17, 1),
    f('op', 0, 18, 7),
    ...FLAT_DWORD1,
    f('unused1', 1, 16, 7),
    f('tfe', 1, 23, 1),
  ];
}

function gfx10Flat(): FieldSpec[] {
  return [
    f('offset', 0, 0, 12),
    f('dlc', 0, 12, 1),
    f('lds', 0, 13, 1),
    f('seg', 0, 14, 2),
    f('glc', 0, 16, 1),
    f('slc', 0, 17, 1),
    f('op', 0, 18, 7),
    ...FLAT_DWORD1,
    f('saddr', 1, 16, 7),
    f('nv', 1, 23, 1),
  ];
}

/** The layout of a memory family in a generation. */
export function layoutOf(family: MemFamily, gen: Gen): readonly FieldSpec[] {
  switch (family) {
    case 'DS':
      return gen === Gen.GFX8 || gen === Gen.GFX9 ? DS_GCN3 : DS_OTHER;
    case 'MUBUF':
      return MUBUF[gen];
    case 'MTBUF':
      return MTBUF[gen];
    case 'FLAT':
      return FLAT[gen];
  }
}

/** The family's fixed prefix (bits 31:26). */
export const PREFIX: Readonly<Record<MemFamily, number>> = { DS: 0x36, FLAT: 0x37, MUBUF: 0x38, MTBUF: 0x3a };

/** Extracts every field of a layout from two dwords (integer work only). */
export function extractFields(layout: readonly FieldSpec[], w0: number, w1: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of layout) out[s.name] = ((s.word === 0 ? w0 : w1) >>> s.shift) & ((1 << s.bits) - 1);
  return out;
}

// ---- fast extraction --------------------------------------------------------------------
//
// The decoder's extractors: one object literal per layout, so each instruction's fields
// object is built in one step with a fixed shape (a loop over the layout table builds it
// key by key, which costs more than the rest of decoding). They are the tables above
// written out, field for field in table order; test/isa/field-extractors.test.ts holds them to
// extractFields on random words for every family and generation. gfx10 MTBUF's fourth
// opcode bit (op_hi, in dword 1) is folded into `op` here, as the codec wants it.

type MemFields = Record<string, number>;
type Extractor = (w0: number, w1: number) => MemFields;

function dsGFX7(w0: number, w1: number): MemFields {
  return {
    offset0: w0 & 0xff,
    offset1: (w0 >>> 8) & 0xff,
    gds: (w0 >>> 17) & 0x1,
    op: (w0 >>> 18) & 0xff,
    addr: w1 & 0xff,
    data0: (w1 >>> 8) & 0xff,
    data1: (w1 >>> 16) & 0xff,
    vdst: w1 >>> 24,
  };
}

function dsGFX8(w0: number, w1: number): MemFields {
  return {
    offset0: w0 & 0xff,
    offset1: (w0 >>> 8) & 0xff,
    gds: (w0 >>> 16) & 0x1,
    op: (w0 >>> 17) & 0xff,
    addr: w1 & 0xff,
    data0: (w1 >>> 8) & 0xff,
    data1: (w1 >>> 16) & 0xff,
    vdst: w1 >>> 24,
  };
}

function mubufGFX7(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    offen: (w0 >>> 12) & 0x1,
    idxen: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    addr64: (w0 >>> 15) & 0x1,
    lds: (w0 >>> 16) & 0x1,
    op: (w0 >>> 18) & 0x7f,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    slc: (w1 >>> 22) & 0x1,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function mubufGFX8(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    offen: (w0 >>> 12) & 0x1,
    idxen: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    reserved15: (w0 >>> 15) & 0x1,
    lds: (w0 >>> 16) & 0x1,
    slc: (w0 >>> 17) & 0x1,
    op: (w0 >>> 18) & 0x7f,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function mubufGFX10(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    offen: (w0 >>> 12) & 0x1,
    idxen: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    dlc: (w0 >>> 15) & 0x1,
    lds: (w0 >>> 16) & 0x1,
    op: (w0 >>> 18) & 0xff,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    slc: (w1 >>> 22) & 0x1,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function mubufGFX11(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    slc: (w0 >>> 12) & 0x1,
    dlc: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    op: (w0 >>> 18) & 0xff,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    tfe: (w1 >>> 21) & 0x1,
    offen: (w1 >>> 22) & 0x1,
    idxen: (w1 >>> 23) & 0x1,
  };
}

function mtbufGFX7(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    offen: (w0 >>> 12) & 0x1,
    idxen: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    addr64: (w0 >>> 15) & 0x1,
    op: (w0 >>> 16) & 0x7,
    dfmt: (w0 >>> 19) & 0xf,
    nfmt: (w0 >>> 23) & 0x7,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    slc: (w1 >>> 22) & 0x1,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function mtbufGFX8(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    offen: (w0 >>> 12) & 0x1,
    idxen: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    op: (w0 >>> 15) & 0xf,
    dfmt: (w0 >>> 19) & 0xf,
    nfmt: (w0 >>> 23) & 0x7,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    slc: (w1 >>> 22) & 0x1,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function mtbufGFX10(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    offen: (w0 >>> 12) & 0x1,
    idxen: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    dlc: (w0 >>> 15) & 0x1,
    op: ((w0 >>> 16) & 0x7) | (((w1 >>> 21) & 1) << 3),
    format: (w0 >>> 19) & 0x7f,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    slc: (w1 >>> 22) & 0x1,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function mtbufGFX11(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    slc: (w0 >>> 12) & 0x1,
    dlc: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    op: (w0 >>> 15) & 0xf,
    format: (w0 >>> 19) & 0x7f,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    soffset: w1 >>> 24,
    tfe: (w1 >>> 21) & 0x1,
    offen: (w1 >>> 22) & 0x1,
    idxen: (w1 >>> 23) & 0x1,
  };
}

function flatGFX7(w0: number, w1: number): MemFields {
  return {
    unused: w0 & 0xffff,
    glc: (w0 >>> 16) & 0x1,
    slc: (w0 >>> 17) & 0x1,
    op: (w0 >>> 18) & 0x7f,
    addr: w1 & 0xff,
    data: (w1 >>> 8) & 0xff,
    vdst: w1 >>> 24,
    unused1: (w1 >>> 16) & 0x7f,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function flatGFX8(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0x1fff,
    unused: (w0 >>> 13) & 0x7,
    glc: (w0 >>> 16) & 0x1,
    slc: (w0 >>> 17) & 0x1,
    op: (w0 >>> 18) & 0x7f,
    addr: w1 & 0xff,
    data: (w1 >>> 8) & 0xff,
    vdst: w1 >>> 24,
    unused1: (w1 >>> 16) & 0x7f,
    tfe: (w1 >>> 23) & 0x1,
  };
}

function flatGFX9(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0x1fff,
    lds: (w0 >>> 13) & 0x1,
    seg: (w0 >>> 14) & 0x3,
    glc: (w0 >>> 16) & 0x1,
    slc: (w0 >>> 17) & 0x1,
    op: (w0 >>> 18) & 0x7f,
    addr: w1 & 0xff,
    data: (w1 >>> 8) & 0xff,
    vdst: w1 >>> 24,
    saddr: (w1 >>> 16) & 0x7f,
    nv: (w1 >>> 23) & 0x1,
  };
}

function flatGFX10(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0xfff,
    dlc: (w0 >>> 12) & 0x1,
    lds: (w0 >>> 13) & 0x1,
    seg: (w0 >>> 14) & 0x3,
    glc: (w0 >>> 16) & 0x1,
    slc: (w0 >>> 17) & 0x1,
    op: (w0 >>> 18) & 0x7f,
    addr: w1 & 0xff,
    data: (w1 >>> 8) & 0xff,
    vdst: w1 >>> 24,
    saddr: (w1 >>> 16) & 0x7f,
    nv: (w1 >>> 23) & 0x1,
  };
}

function flatGFX11(w0: number, w1: number): MemFields {
  return {
    offset: w0 & 0x1fff,
    dlc: (w0 >>> 13) & 0x1,
    glc: (w0 >>> 14) & 0x1,
    slc: (w0 >>> 15) & 0x1,
    seg: (w0 >>> 16) & 0x3,
    op: (w0 >>> 18) & 0x7f,
    addr: w1 & 0xff,
    data: (w1 >>> 8) & 0xff,
    vdst: w1 >>> 24,
    saddr: (w1 >>> 16) & 0x7f,
    sve: (w1 >>> 23) & 0x1,
  };
}

const EXTRACTORS: Readonly<Record<MemFamily, readonly Extractor[]>> = {
  DS: [dsGFX7, dsGFX8, dsGFX8, dsGFX7, dsGFX7, dsGFX7],
  MUBUF: [mubufGFX7, mubufGFX8, mubufGFX8, mubufGFX10, mubufGFX10, mubufGFX11],
  MTBUF: [mtbufGFX7, mtbufGFX8, mtbufGFX8, mtbufGFX10, mtbufGFX10, mtbufGFX11],
  FLAT: [flatGFX7, flatGFX8, flatGFX9, flatGFX10, flatGFX10, flatGFX11],
};

/**
 * The decoded fields of a memory instruction: every field of its layout (extractFields),
 * with gfx10 MTBUF's op_hi folded into op.
 */
export function decodeFields(family: MemFamily, gen: Gen, w0: number, w1: number): Record<string, number> {
  return EXTRACTORS[family][gen](w0, w1);
}

/** Packs fields into two dwords with the family's prefix; fields not in the layout are ignored. */
export function packFields(
  family: MemFamily,
  layout: readonly FieldSpec[],
  fields: Readonly<Record<string, number>>,
): [number, number] {
  let w0 = PREFIX[family] << 26;
  let w1 = 0;
  for (const s of layout) {
    const v = (fields[s.name] ?? 0) & ((1 << s.bits) - 1);
    if (s.word === 0) w0 |= v << s.shift;
    else w1 |= v << s.shift;
  }
  return [w0 >>> 0, w1 >>> 0];
}

/** Whether a layout has a field (a generation has the bit). */
export function hasField(layout: readonly FieldSpec[], name: string): boolean {
  return layout.some((s) => s.name === name);
}

/** The code that spells `off` in a FLAT saddr field. */
export function saddrOffCode(gen: Gen): number {
  return gen >= Gen.GFX10 ? nullCode(gen) : 0x7f;
}

const orders = new WeakMap<InstructionDef, readonly string[]>();

/** Operand fields of an instruction in printed order (`off` is the vaddr/saddr slot), from the registry; split once per instruction. */
export function orderOf(def: InstructionDef): readonly string[] {
  let order = orders.get(def);
  if (!order) {
    const o = def.flags?.order;
    order = typeof o === 'string' && o ? o.split(' ') : [];
    orders.set(def, order);
  }
  return order;
}

/** Width in dwords of an instruction's operand field (1 when the registry has no such operand). */
export function dwordsOf(def: InstructionDef, field: string): number {
  for (const op of def.operands) if (op.field === field) return op.dwords;
  return 1;
}
