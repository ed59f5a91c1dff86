/** What V#, T# and S# share: the DST_SEL enumeration and the per-generation layout lookup. */
import type { Gen } from '../../isa/gen.ts';
import { DescriptorError, type Layout } from './bits.ts';

/** DST_SEL (V# and T# dw3): 0 -> 0, 1 -> 1, 4..7 -> X..W; 2 and 3 are reserved. */
export type DstSel = '0' | '1' | 'x' | 'y' | 'z' | 'w';

const DST_SEL_NAMES: Readonly<Record<number, DstSel>> = { 0: '0', 1: '1', 4: 'x', 5: 'y', 6: 'z', 7: 'w' };

export function dstSelName(v: number, what: string): DstSel {
  const s = DST_SEL_NAMES[v];
  if (s === undefined) throw new DescriptorError('reserved-value', `${what} is ${v}, a reserved DST_SEL (0, 1, 4-7)`);
  return s;
}

/** The DST_SEL values, for building descriptors: `DST_SEL.x` is 4. */
export const DST_SEL = { '0': 0, '1': 1, x: 4, y: 5, z: 6, w: 7 } as const satisfies Record<DstSel, number>;

export function layoutFor(table: Readonly<Record<Gen, Layout>>, gen: Gen, what: string): Layout {
  const l = (table as Readonly<Record<number, Layout | undefined>>)[gen];
  if (l === undefined)
    throw new DescriptorError('unknown-generation', `no ${what} layout for generation ${String(gen)}`);
  return l;
}

/** Looks a value up in a named enumeration, or throws `reserved-value`. */
export function enumName<T extends string>(table: readonly (T | undefined)[], v: number, what: string): T {
  const s = table[v];
  if (s === undefined) throw new DescriptorError('reserved-value', `${what} is ${v}, a reserved value`);
  return s;
}
