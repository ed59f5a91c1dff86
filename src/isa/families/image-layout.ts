/**
 * MIMG field layouts per generation, as data: the decoder extracts and the assembler
 * packs the same table, so the two cannot disagree. Names follow the AMD ISA documents.
 */
import { Gen } from '../gen.ts';

/** [field, dword (0 or 1), bit offset, bit width]. */
type FieldSpec = readonly [string, 0 | 1, number, number];

const COMMON: readonly FieldSpec[] = [
  ['dmask', 0, 8, 4],
  ['vaddr', 1, 0, 8],
  ['vdata', 1, 8, 8],
  ['srsrc', 1, 16, 5],
];

/** gfx7-9 (and the parts gfx10 keeps). */
const GCN: readonly FieldSpec[] = [
  ...COMMON,
  ['unorm', 0, 12, 1],
  ['glc', 0, 13, 1],
  ['tfe', 0, 16, 1],
  ['lwe', 0, 17, 1],
  ['op', 0, 18, 7],
  ['slc', 0, 25, 1],
  ['ssamp', 1, 21, 5],
];

const LAYOUTS: Readonly<Record<Gen, readonly FieldSpec[]>> = {
  // Bit 0 is reserved before gfx10 (LLVM rejects it set); gfx7 has no d16 bit.
  [Gen.GFX7]: [...GCN, ['reserved', 0, 0, 1], ['da', 0, 14, 1], ['r128', 0, 15, 1]],
  [Gen.GFX8]: [...GCN, ['reserved', 0, 0, 1], ['da', 0, 14, 1], ['r128', 0, 15, 1], ['d16', 1, 31, 1]],
  // gfx9 turned r128 into a16.
  [Gen.GFX9]: [...GCN, ['reserved', 0, 0, 1], ['da', 0, 14, 1], ['a16', 0, 15, 1], ['d16', 1, 31, 1]],
  [Gen.GFX10]: gfx10(),
  [Gen.GFX10_3]: gfx10(),
  [Gen.GFX11]: [
    ...COMMON,
    ['nsa', 0, 0, 1],
    ['dim', 0, 2, 3],
    ['unorm', 0, 7, 1],
    ['slc', 0, 12, 1],
    ['dlc', 0, 13, 1],
    ['glc', 0, 14, 1],
    ['r128', 0, 15, 1],
    ['a16', 0, 16, 1],
    ['d16', 0, 17, 1],
    ['op', 0, 18, 8],
    ['tfe', 1, 21, 1],
    ['lwe', 1, 22, 1],
    ['ssamp', 1, 26, 5],
  ],
};

function gfx10(): FieldSpec[] {
  // The opcode's eighth bit (op_msb) sits in bit 0; NSA dword count in bits 2:1.
  return [
    ...GCN,
    ['op_msb', 0, 0, 1],
    ['nsa', 0, 1, 2],
    ['dim', 0, 3, 3],
    ['dlc', 0, 7, 1],
    ['r128', 0, 15, 1],
    ['a16', 1, 30, 1],
    ['d16', 1, 31, 1],
  ];
}

/** Every field of the two fixed dwords; `op` is the whole opcode. */
export function extractFields(gen: Gen, w0: number, w1: number): Record<string, number> {
  const c = COMPILED[gen] ?? compile(gen);
  const f: Record<string, number> = {};
  const { names, words, shifts, masks } = c;
  for (let i = 0; i < names.length; i++) f[names[i]] = ((words[i] ? w1 : w0) >>> shifts[i]) & masks[i];
  if (c.opMsb) f.op |= f.op_msb << 7;
  return f;
}

interface CompiledLayout {
  readonly names: readonly string[];
  readonly words: Uint8Array;
  readonly shifts: Uint8Array;
  readonly masks: Uint32Array;
  readonly opMsb: boolean;
}
/** Per generation: the layout as parallel arrays, built once. */
const COMPILED: (CompiledLayout | undefined)[] = [];
function compile(gen: Gen): CompiledLayout {
  const l = LAYOUTS[gen];
  const c: CompiledLayout = {
    names: l.map((s) => s[0]),
    words: Uint8Array.from(l, (s) => s[1]),
    shifts: Uint8Array.from(l, (s) => s[2]),
    masks: Uint32Array.from(l, (s) => (1 << s[3]) - 1),
    opMsb: l.some((s) => s[0] === 'op_msb'),
  };
  COMPILED[gen] = c;
  return c;
}

// ---- fast extraction --------------------------------------------------------------------
//
// The decoder's extractors: one object literal per layout, so each instruction's fields
// are built in one step with a fixed shape (extractFields builds them key by key, which
// costs more than the rest of decoding). They are the tables above written out, field for
// field in table order, with gfx10's op_msb folded into op as extractFields does;
// test/isa/field-extractors.test.ts holds them to extractFields on random words.

type Extractor = (w0: number, w1: number) => Record<string, number>;

function gcnFields(w0: number, w1: number): Record<string, number> {
  return {
    dmask: (w0 >>> 8) & 0xf,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    unorm: (w0 >>> 12) & 1,
    glc: (w0 >>> 13) & 1,
    tfe: (w0 >>> 16) & 1,
    lwe: (w0 >>> 17) & 1,
    op: (w0 >>> 18) & 0x7f,
    slc: (w0 >>> 25) & 1,
    ssamp: (w1 >>> 21) & 0x1f,
    reserved: w0 & 1,
    da: (w0 >>> 14) & 1,
    r128: (w0 >>> 15) & 1,
  };
}

function gfx8Fields(w0: number, w1: number): Record<string, number> {
  return {
    dmask: (w0 >>> 8) & 0xf,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    unorm: (w0 >>> 12) & 1,
    glc: (w0 >>> 13) & 1,
    tfe: (w0 >>> 16) & 1,
    lwe: (w0 >>> 17) & 1,
    op: (w0 >>> 18) & 0x7f,
    slc: (w0 >>> 25) & 1,
    ssamp: (w1 >>> 21) & 0x1f,
    reserved: w0 & 1,
    da: (w0 >>> 14) & 1,
    r128: (w0 >>> 15) & 1,
    d16: w1 >>> 31,
  };
}

function gfx9Fields(w0: number, w1: number): Record<string, number> {
  return {
    dmask: (w0 >>> 8) & 0xf,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    unorm: (w0 >>> 12) & 1,
    glc: (w0 >>> 13) & 1,
    tfe: (w0 >>> 16) & 1,
    lwe: (w0 >>> 17) & 1,
    op: (w0 >>> 18) & 0x7f,
    slc: (w0 >>> 25) & 1,
    ssamp: (w1 >>> 21) & 0x1f,
    reserved: w0 & 1,
    da: (w0 >>> 14) & 1,
    a16: (w0 >>> 15) & 1,
    d16: w1 >>> 31,
  };
}

function gfx10Fields(w0: number, w1: number): Record<string, number> {
  return {
    dmask: (w0 >>> 8) & 0xf,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    unorm: (w0 >>> 12) & 1,
    glc: (w0 >>> 13) & 1,
    tfe: (w0 >>> 16) & 1,
    lwe: (w0 >>> 17) & 1,
    op: ((w0 >>> 18) & 0x7f) | ((w0 & 1) << 7),
    slc: (w0 >>> 25) & 1,
    ssamp: (w1 >>> 21) & 0x1f,
    op_msb: w0 & 1,
    nsa: (w0 >>> 1) & 3,
    dim: (w0 >>> 3) & 7,
    dlc: (w0 >>> 7) & 1,
    r128: (w0 >>> 15) & 1,
    a16: (w1 >>> 30) & 1,
    d16: w1 >>> 31,
  };
}

function gfx11Fields(w0: number, w1: number): Record<string, number> {
  return {
    dmask: (w0 >>> 8) & 0xf,
    vaddr: w1 & 0xff,
    vdata: (w1 >>> 8) & 0xff,
    srsrc: (w1 >>> 16) & 0x1f,
    nsa: w0 & 1,
    dim: (w0 >>> 2) & 7,
    unorm: (w0 >>> 7) & 1,
    slc: (w0 >>> 12) & 1,
    dlc: (w0 >>> 13) & 1,
    glc: (w0 >>> 14) & 1,
    r128: (w0 >>> 15) & 1,
    a16: (w0 >>> 16) & 1,
    d16: (w0 >>> 17) & 1,
    op: (w0 >>> 18) & 0xff,
    tfe: (w1 >>> 21) & 1,
    lwe: (w1 >>> 22) & 1,
    ssamp: (w1 >>> 26) & 0x1f,
  };
}

const EXTRACTORS: readonly Extractor[] = [gcnFields, gfx8Fields, gfx9Fields, gfx10Fields, gfx10Fields, gfx11Fields];

/** What extractFields gives, built by the generation's literal extractor (the decoder's path). */
export function decodeFields(gen: Gen, w0: number, w1: number): Record<string, number> {
  return EXTRACTORS[gen](w0, w1);
}

/** The two fixed dwords of a field set (absent fields are zero). */
export function packFields(gen: Gen, fields: Readonly<Record<string, number>>): [number, number] {
  const words: [number, number] = [(0x3c << 26) >>> 0, 0];
  const f: Record<string, number> = { ...fields };
  if (gen === Gen.GFX10 || gen === Gen.GFX10_3) {
    f.op_msb = (fields.op ?? 0) >> 7;
    f.op = (fields.op ?? 0) & 0x7f;
  }
  for (const [name, word, shift, width] of LAYOUTS[gen]) {
    const v = f[name] ?? 0;
    words[word] = (words[word] | ((v & ((1 << width) - 1)) << shift)) >>> 0;
  }
  return words;
}

/** Whether the generation has the field at all (`dlc`, `da`, `a16`, `d16`, `r128`, `dim`). */
export function hasField(gen: Gen, name: string): boolean {
  return LAYOUTS[gen].some((s) => s[0] === name);
}
