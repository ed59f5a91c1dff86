/**
 * The family codecs, and which codec owns each family. Adding a family group's codec is
 * one line in CODECS.
 */
import type { Family } from '../registry/types.ts';
import type { FamilyCodec } from '../instruction.ts';
import { codec as scalar } from './scalar.ts';
import { codec as vop } from './vop.ts';
import { codec as vopd } from './vopd.ts';
import { codec as memory } from './memory.ts';
import { codec as image } from './image.ts';

export const CODECS: readonly FamilyCodec[] = [scalar, vop, vopd, memory, image];

const byFamily = new Map<Family, FamilyCodec>();
for (const c of CODECS) for (const f of c.families) byFamily.set(f, c);

export function codecFor(family: Family): FamilyCodec | undefined {
  return byFamily.get(family);
}
