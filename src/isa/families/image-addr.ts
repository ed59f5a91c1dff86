/**
 * Image address and data sizes: how many vaddr dwords an image instruction takes for a
 * dimension and a16, and how many vdata registers its dmask/d16/tfe give, as llvm-mc-19
 * computes them when it prints. Driven by the address components in the registry flags.
 */
import { Gen } from '../gen.ts';
import type { InstructionDef } from '../registry/types.ts';

/** Coordinates and derivative counts of each `dim` encoding (1D, 2D, 3D, CUBE, 1D_ARRAY, 2D_ARRAY, 2D_MSAA, 2D_MSAA_ARRAY). */
const DIM_COORDS = [1, 2, 3, 3, 2, 3, 3, 4] as const;
const DIM_GRADIENTS = [2, 4, 6, 4, 2, 4, 4, 4] as const;
export const DIM_NAMES = ['1D', '2D', '3D', 'CUBE', '1D_ARRAY', '2D_ARRAY', '2D_MSAA', '2D_MSAA_ARRAY'] as const;

function flag(def: InstructionDef, name: string): number {
  const v = def.flags?.[name];
  return typeof v === 'number' ? v : 0;
}

export function kindOf(def: InstructionDef): string {
  const v = def.flags?.kind;
  return typeof v === 'string' ? v : '';
}

export function hasSampler(def: InstructionDef): boolean {
  return flag(def, 'sampler') === 1;
}

/** Generations with 16-bit gradients as their own opcodes (g16); there a16 leaves gradients 32-bit. */
function hasG16(gen: Gen): boolean {
  return gen >= Gen.GFX10;
}

/** Address dwords of an instruction for a dimension (the `getAddrSizeMIMGOp` arithmetic of the ISA's address layout). */
export function addressDwords(def: InstructionDef, gen: Gen, dim: number, a16: boolean): number {
  if (kindOf(def) === 'bvh') return bvhDwords(def, a16);
  const coords = def.flags?.coords === 0 ? 0 : DIM_COORDS[dim];
  const comps = coords + flag(def, 'lcm');
  let n = flag(def, 'extra') + (a16 ? Math.ceil(comps / 2) : comps);
  if (flag(def, 'gradients')) {
    const g = DIM_GRADIENTS[dim];
    n += (a16 && !hasG16(gen)) || flag(def, 'g16') ? 2 * Math.ceil(g / 2 / 2) : g;
  }
  return n;
}

function bvhDwords(def: InstructionDef, a16: boolean): number {
  // node pointer, ray extent, origin (3), direction and inverse direction (3 each, or 3 packed halves with a16)
  return flag(def, 'bvhNode') + 1 + 3 + (a16 ? 3 : 6);
}

/**
 * The address counts the instruction has variants for, as LLVM lists them. Samplers:
 * 1-3 address dwords (2-9 with derivatives, 2-7 with 16-bit ones), one more with a lod or
 * clamp, plus the extra arguments; the others take one to four dwords. These lists bound,
 * not compute, what an image needs.
 */
export function addressRange(def: InstructionDef): { readonly min: number; readonly max: number } {
  const cached = rangeCache.get(def.name);
  if (cached) return cached;
  let range = { min: 1, max: 4 };
  if (hasSampler(def)) {
    const grad = flag(def, 'gradients') === 1;
    const extra = flag(def, 'extra');
    const hi = (grad ? (flag(def, 'g16') ? 7 : 9) : 3) + flag(def, 'lcm');
    range = { min: (grad ? 2 : 1) + extra, max: hi + extra };
  }
  rangeCache.set(def.name, range);
  return range;
}

const rangeCache = new Map<string, { readonly min: number; readonly max: number }>();

/**
 * Whether a contiguous-vaddr variant of `n` dwords exists: a listed count, or the
 * register classes that round 3-4, 5-8 and 13-16 up when the list reaches into them.
 */
export function hasContiguousVariant(def: InstructionDef, n: number): boolean {
  const { min, max } = addressRange(def);
  if (n >= min && n <= max) return true;
  const reaches = (lo: number, hi: number): boolean => min <= hi && max >= lo;
  return (n === 4 && reaches(3, 4)) || (n === 8 && reaches(5, 8)) || (n === 16 && reaches(13, 16));
}

/** The register-class size LLVM prints a contiguous vaddr of `n` dwords with. */
export function vaddrClassDwords(n: number): number {
  return n > 12 ? 16 : n;
}

/** vdata registers for dmask, d16 and tfe, or undefined when the instruction has no variant of that size. */
export function vdataVariant(
  def: InstructionDef,
  gen: Gen,
  dmask: number,
  d16: boolean,
  tfe: boolean,
): number | undefined {
  if (kindOf(def) === 'bvh') return 4;
  const always4 = (flag(def, 'vdata4') >> gen) & 1;
  let n = always4 ? 4 : Math.max(popcount(dmask & 0xf), 1);
  // gfx8 keeps one 16-bit value per register (unpacked d16); gfx9+ pack two.
  if (d16 && gen >= Gen.GFX9) n = (n + 1) >> 1;
  if (tfe) n += 1;
  // Gather4-like results are 4 dwords, 2 with packed d16, one more with tfe: never 3.
  if (always4 && n === 3) return undefined;
  // gfx7 text comes from assembly (LLVM 19 has no gfx7 decoder), which takes any such size.
  if (kindOf(def) === 'atomic' && gen > Gen.GFX7) {
    const mul = flag(def, 'dataMul') || 1;
    // LLVM 19 prints five registers for a one-value atomic with dmask 0xf (its variant
    // lookup lands on a 160-bit form); we spell what it spells.
    if (mul === 1 && n === 4) return 5;
    return n === mul || n === 2 * mul ? n : undefined;
  }
  return n;
}

/** The vdata width of the variant LLVM's decoder starts from (and keeps when no variant fits). */
export function defaultVdata(def: InstructionDef): number {
  return def.operands[0]?.dwords ?? 1;
}

function popcount(v: number): number {
  let n = 0;
  for (let x = v; x; x &= x - 1) n++;
  return n;
}
