/**
 * Spellings of scalar immediates as llvm-mc-19 prints them: plain styles (hex, decimal,
 * inline-aware hex) and the symbolic operands (s_waitcnt counters, sendmsg, hwreg,
 * s_delay_alu, s_waitcnt_depctr, gpr_idx). The symbol names per generation come from the
 * generated scalar table (LLVM sweeps); the bit layouts are AMD's documented ones.
 */
import { Gen } from '../gen.ts';
import { hex } from '../operands.ts';
import { HWREG_NAMES, SENDMSG_SYMBOLS } from '../registry/generated/scalar.ts';

/** How an instruction's 16-bit immediate is spelled (a `flags.imm` value of the table). */
export type ImmStyle =
  | 'hex' // always 0x…
  | 'ihex' // 0…64 in decimal, else 0x… of the 16 bits
  | 'dec' // unsigned decimal
  | 'sdec' // signed 16-bit decimal
  | 'label' // branch offset: unsigned decimal for a lone instruction
  | 'none'
  | 'waitcnt'
  | 'sendmsg'
  | 'hwreg'
  | 'delay_alu'
  | 'depctr'
  | 'gpr_idx'
  | 'version';

/** The plain styles, in the order the generator tries them. */
export const IMM_STYLES: readonly ImmStyle[] = ['ihex', 'hex', 'dec', 'sdec'];

export function formatPlainImm(style: ImmStyle, v: number): string {
  switch (style) {
    case 'hex':
      return hex(v & 0xffff);
    case 'ihex':
      return (v & 0xffff) <= 64 ? String(v & 0xffff) : hex(v & 0xffff);
    case 'sdec':
      return String(((v & 0xffff) << 16) >> 16);
    default:
      return String(v & 0xffff);
  }
}

/** Spells a 16-bit immediate in an instruction's style. */
export function formatImm(style: ImmStyle, gen: Gen, v: number): string {
  switch (style) {
    case 'waitcnt':
      return formatWaitcnt(gen, v);
    case 'sendmsg':
      return formatSendmsg(gen, v);
    case 'hwreg':
      return formatHwreg(gen, v);
    case 'delay_alu':
      return formatDelayAlu(v);
    case 'depctr':
      return formatDepctr(gen, v);
    case 'gpr_idx':
      return formatGprIdx(v);
    case 'version':
      return formatVersion(v);
    case 'none':
      return '';
    default:
      return formatPlainImm(style, v);
  }
}

// ---- s_version ----

/** s_version's microcode version codes and flag bits, as llvm-mc-19 names them (gfx10+). */
export const UC_VERSIONS: ReadonlyMap<number, string> = new Map([
  [0, 'UC_VERSION_GFX7'],
  [4, 'UC_VERSION_GFX10'],
  [6, 'UC_VERSION_GFX11'],
  [9, 'UC_VERSION_GFX12'],
]);
export const UC_VERSION_FLAGS: readonly (readonly [bit: number, name: string])[] = [
  [0x2000, 'UC_VERSION_W64_BIT'],
  [0x4000, 'UC_VERSION_W32_BIT'],
  [0x8000, 'UC_VERSION_MDP_BIT'],
];

/**
 * s_version's immediate as llvm-mc-19 prints it: in hex when bits 8-12 are set, else the
 * version code (by name where it has one) ORed with the flag names, each OR of an OR in
 * parentheses: `(UC_VERSION_GFX10|UC_VERSION_W64_BIT)|UC_VERSION_MDP_BIT`, `1|UC_VERSION_MDP_BIT`.
 */
function formatVersion(v: number): string {
  const imm = v & 0xffff;
  if (imm & 0x1f00) return hex(imm);
  let text = UC_VERSIONS.get(imm & 0xff) ?? String(imm & 0xff);
  let terms = 1;
  for (const [bit, name] of UC_VERSION_FLAGS) {
    if (!(imm & bit)) continue;
    text = `${terms > 1 ? `(${text})` : text}|${name}`;
    terms++;
  }
  return text;
}

// ---- s_waitcnt ----

export interface WaitcntLayout {
  readonly vm: readonly [shift: number, bits: number][];
  readonly exp: readonly [number, number];
  readonly lgkm: readonly [number, number];
}

/** Counter fields of s_waitcnt's immediate per generation (vmcnt is split on gfx9/gfx10). */
export function waitcntLayout(gen: Gen): WaitcntLayout {
  if (gen >= Gen.GFX11) return { vm: [[10, 6]], exp: [0, 3], lgkm: [4, 6] };
  const vm: [number, number][] =
    gen >= Gen.GFX9
      ? [
          [0, 4],
          [14, 2],
        ]
      : [[0, 4]];
  return { vm, exp: [4, 3], lgkm: [8, gen >= Gen.GFX10 ? 6 : 4] };
}

function field(v: number, f: readonly [number, number]): number {
  return (v >>> f[0]) & ((1 << f[1]) - 1);
}

function vmcnt(l: WaitcntLayout, v: number): { value: number; max: number } {
  let value = 0;
  let max = 0;
  let at = 0;
  for (const f of l.vm) {
    value |= field(v, f) << at;
    max |= ((1 << f[1]) - 1) << at;
    at += f[1];
  }
  return { value, max };
}

function formatWaitcnt(gen: Gen, v: number): string {
  const l = waitcntLayout(gen);
  const vm = vmcnt(l, v);
  const exp = field(v, l.exp);
  const lgkm = field(v, l.lgkm);
  const parts: string[] = [];
  const expMax = (1 << l.exp[1]) - 1;
  const lgkmMax = (1 << l.lgkm[1]) - 1;
  // LLVM leaves out counters at their "no wait" maximum, unless all are.
  const all = vm.value === vm.max && exp === expMax && lgkm === lgkmMax;
  if (all || vm.value !== vm.max) parts.push(`vmcnt(${vm.value})`);
  if (all || exp !== expMax) parts.push(`expcnt(${exp})`);
  if (all || lgkm !== lgkmMax) parts.push(`lgkmcnt(${lgkm})`);
  return parts.join(' ');
}

// ---- sendmsg ----

const sendmsgCache = new Map<Gen, Map<number, string>>();

function sendmsgMap(gen: Gen): Map<number, string> {
  let m = sendmsgCache.get(gen);
  if (!m) sendmsgCache.set(gen, (m = new Map(SENDMSG_SYMBOLS[gen])));
  return m;
}

/** The bits sendmsg's message, operation and stream occupy (gfx11: an 8-bit message only). */
export function sendmsgMask(gen: Gen): number {
  return gen >= Gen.GFX11 ? 0xff : 0x3ff;
}

function formatSendmsg(gen: Gen, v: number): string {
  const key = v & sendmsgMask(gen);
  const sym = sendmsgMap(gen).get(key);
  if (sym !== undefined) return `sendmsg(${sym})`;
  if (key !== v) return String(v);
  if (gen >= Gen.GFX11) return `sendmsg(${key}, 0, 0)`;
  return `sendmsg(${key & 0xf}, ${(key >>> 4) & 7}, ${(key >>> 8) & 3})`;
}

/** Symbolic sendmsg texts (inside the parentheses) of a generation, by immediate. */
export function sendmsgSymbols(gen: Gen): ReadonlyMap<number, string> {
  return sendmsgMap(gen);
}

// ---- hwreg ----

export function hwregName(gen: Gen, id: number): string | undefined {
  const n = HWREG_NAMES[gen][id];
  return n ? n : undefined;
}

function formatHwreg(gen: Gen, v: number): string {
  const id = v & 0x3f;
  const offset = (v >>> 6) & 0x1f;
  const size = ((v >>> 11) & 0x1f) + 1;
  const name = hwregName(gen, id) ?? String(id);
  return offset !== 0 || size !== 32 ? `hwreg(${name}, ${offset}, ${size})` : `hwreg(${name})`;
}

// ---- s_delay_alu (gfx11) ----

export const DELAY_INST_IDS = [
  'NO_DEP',
  'VALU_DEP_1',
  'VALU_DEP_2',
  'VALU_DEP_3',
  'VALU_DEP_4',
  'TRANS32_DEP_1',
  'TRANS32_DEP_2',
  'TRANS32_DEP_3',
  'FMA_ACCUM_CYCLE_1',
  'SALU_CYCLE_1',
  'SALU_CYCLE_2',
  'SALU_CYCLE_3',
] as const;
export const DELAY_SKIPS = ['SAME', 'NEXT', 'SKIP_1', 'SKIP_2', 'SKIP_3', 'SKIP_4'] as const;

function formatDelayAlu(v: number): string {
  const id0 = v & 0xf;
  const skip = (v >>> 4) & 7;
  const id1 = (v >>> 7) & 0xf;
  const id = (i: number): string => DELAY_INST_IDS[i] ?? '/* invalid instid value */';
  const parts: string[] = [];
  if (id0) parts.push(`instid0(${id(id0)})`);
  if (skip) parts.push(`instskip(${DELAY_SKIPS[skip] ?? '/* invalid instskip value */'})`);
  if (id1) parts.push(`instid1(${id(id1)})`);
  return parts.length ? parts.join(' | ') : '0';
}

// ---- s_waitcnt_depctr ----

export interface DepctrField {
  readonly name: string;
  readonly shift: number;
  readonly bits: number;
}

/** Dependency-counter fields in LLVM's printing order (gfx10+ hardware; symbolic on gfx11). */
export const DEPCTR_FIELDS: readonly DepctrField[] = [
  { name: 'depctr_hold_cnt', shift: 7, bits: 1 },
  { name: 'depctr_sa_sdst', shift: 0, bits: 1 },
  { name: 'depctr_va_vdst', shift: 12, bits: 4 },
  { name: 'depctr_va_sdst', shift: 9, bits: 3 },
  { name: 'depctr_va_ssrc', shift: 8, bits: 1 },
  { name: 'depctr_va_vcc', shift: 1, bits: 1 },
  { name: 'depctr_vm_vsrc', shift: 2, bits: 3 },
];

function formatDepctr(gen: Gen, v: number): string {
  const imm = v & 0xffff;
  if (gen < Gen.GFX10) return hex(imm);
  let used = 0;
  let nonDefault = false;
  for (const f of DEPCTR_FIELDS) {
    const mask = ((1 << f.bits) - 1) << f.shift;
    used |= mask;
    if ((imm & mask) !== mask) nonDefault = true;
  }
  if ((imm & ~used) !== 0) return hex(imm);
  const parts: string[] = [];
  for (const f of DEPCTR_FIELDS) {
    const max = (1 << f.bits) - 1;
    const val = (imm >>> f.shift) & max;
    if (val !== max || !nonDefault) parts.push(`${f.name}(${val})`);
  }
  return parts.join(' ');
}

// ---- gpr_idx (s_set_gpr_idx_on / s_set_gpr_idx_mode) ----

export const GPR_IDX_MODES = ['SRC0', 'SRC1', 'SRC2', 'DST'] as const;

function formatGprIdx(v: number): string {
  if ((v & ~0xf) !== 0) return hex(v);
  const on = GPR_IDX_MODES.filter((_, i) => v & (1 << i));
  return `gpr_idx(${on.join(',')})`;
}
