/**
 * The WGSL types of the subset (D016) and WGSL's memory layout rules for them (WGSL §14.4
 * "Memory Layout": alignment and size of each type, array strides, struct member offsets),
 * which become SPIR-V's Offset and ArrayStride decorations.
 */

export type ScalarKind = 'u32' | 'i32' | 'f32' | 'bool';
export type AddressSpace = 'function' | 'private' | 'workgroup' | 'uniform' | 'storage' | 'handle';

export interface StructMember {
  readonly name: string;
  readonly type: WType;
}

export type WType =
  | { readonly k: 'void' }
  | { readonly k: 'scalar'; readonly s: ScalarKind }
  | { readonly k: 'vec'; readonly n: 2 | 3 | 4; readonly s: ScalarKind }
  /** n undefined: a runtime-sized array. */
  | { readonly k: 'array'; readonly elem: WType; readonly n: number | undefined }
  | { readonly k: 'struct'; readonly name: string; readonly members: readonly StructMember[] }
  | { readonly k: 'atomic'; readonly s: 'u32' | 'i32' }
  | { readonly k: 'ptr'; readonly space: AddressSpace; readonly to: WType }
  /** A sampled texture (`texture_2d_array<f32>`...): WGSL's name for its dimensionality. */
  | { readonly k: 'texture'; readonly dim: TextureDim; readonly sampled: 'f32' | 'u32' | 'i32' };

export type TextureDim = '1d' | '2d' | '2d_array' | '3d';

export const VOID: WType = { k: 'void' };
export const U32: WType = { k: 'scalar', s: 'u32' };
export const I32: WType = { k: 'scalar', s: 'i32' };
export const F32: WType = { k: 'scalar', s: 'f32' };
export const BOOL: WType = { k: 'scalar', s: 'bool' };
export const scalar = (s: ScalarKind): WType => ({ k: 'scalar', s });
export const vec = (n: 2 | 3 | 4, s: ScalarKind): WType => ({ k: 'vec', n, s });

/** The result struct of atomicCompareExchangeWeak on atomic<u32> / atomic<i32> (WGSL §17.8). */
export function compareExchangeResult(s: 'u32' | 'i32'): WType {
  return {
    k: 'struct',
    name: `__atomic_compare_exchange_result_${s}`,
    members: [
      { name: 'old_value', type: scalar(s) },
      { name: 'exchanged', type: BOOL },
    ],
  };
}

export function typeName(t: WType): string {
  switch (t.k) {
    case 'void':
      return 'void';
    case 'scalar':
      return t.s;
    case 'vec':
      return `vec${t.n}<${t.s}>`;
    case 'array':
      return t.n === undefined ? `array<${typeName(t.elem)}>` : `array<${typeName(t.elem)}, ${t.n}>`;
    case 'struct':
      return t.name;
    case 'atomic':
      return `atomic<${t.s}>`;
    case 'ptr':
      return `ptr<${t.space}, ${typeName(t.to)}>`;
    case 'texture':
      return `texture_${t.dim}<${t.sampled}>`;
  }
}

export function sameType(a: WType, b: WType): boolean {
  if (a === b) return true;
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'struct':
      return a.name === (b as typeof a).name;
    default:
      return typeName(a) === typeName(b);
  }
}

/** The scalar kind of a scalar or vector (or atomic), undefined for anything else. */
export function elementKind(t: WType): ScalarKind | undefined {
  return t.k === 'scalar' || t.k === 'vec' || t.k === 'atomic' ? t.s : undefined;
}

export const isScalar = (t: WType, s?: ScalarKind): boolean => t.k === 'scalar' && (s === undefined || t.s === s);
export const isInteger = (t: WType): boolean => {
  const s = elementKind(t);
  return (t.k === 'scalar' || t.k === 'vec') && (s === 'u32' || s === 'i32');
};
/** WGSL's constructible types: those a value of which can be made, copied and compared. */
export const isConstructible = (t: WType): boolean =>
  t.k === 'scalar' ||
  t.k === 'vec' ||
  (t.k === 'array' && t.n !== undefined && isConstructible(t.elem)) ||
  (t.k === 'struct' && t.members.every((m) => isConstructible(m.type)));

/** WGSL §14.4.1: AlignOf(T). */
export function alignOf(t: WType): number {
  switch (t.k) {
    case 'scalar':
    case 'atomic':
      return 4;
    case 'vec':
      return t.n === 2 ? 8 : 16;
    case 'array':
      return alignOf(t.elem);
    case 'struct':
      return Math.max(...t.members.map((m) => alignOf(m.type)));
    default:
      throw new Error(`${typeName(t)} has no memory layout`);
  }
}

const roundUp = (k: number, n: number): number => Math.ceil(n / k) * k;

/** WGSL §14.4.1: SizeOf(T) (a runtime-sized array: its stride, as the element of a last member). */
export function sizeOf(t: WType): number {
  switch (t.k) {
    case 'scalar':
    case 'atomic':
      return 4;
    case 'vec':
      return t.n * 4;
    case 'array':
      return (t.n ?? 1) * arrayStride(t);
    case 'struct': {
      const offsets = memberOffsets(t);
      const last = t.members.length - 1;
      return roundUp(alignOf(t), offsets[last]! + sizeOf(t.members[last]!.type));
    }
    default:
      throw new Error(`${typeName(t)} has no memory layout`);
  }
}

/** WGSL §14.4.1: StrideOf(array<E, N>) = roundUp(AlignOf(E), SizeOf(E)). */
export function arrayStride(t: Extract<WType, { k: 'array' }>): number {
  return roundUp(alignOf(t.elem), sizeOf(t.elem));
}

/** WGSL §14.4.1: OffsetOfMember: each member at the next multiple of its alignment. */
export function memberOffsets(t: Extract<WType, { k: 'struct' }>): number[] {
  const out: number[] = [];
  let at = 0;
  for (const m of t.members) {
    at = roundUp(alignOf(m.type), at);
    out.push(at);
    at += sizeOf(m.type);
  }
  return out;
}
