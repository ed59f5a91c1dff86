// The generated instruction tables, one module per family group (each written by its
// generator in tools/registry/). This list is the only hand-written file here.
import type { InstructionDef } from '../types.ts';
import { TABLE as scalar } from './scalar.ts';
import { TABLE as vop } from './vop.ts';
import { TABLE as vopd } from './vopd.ts';
import { TABLE as memory } from './memory.ts';
import { TABLE as image } from './image.ts';

export const GENERATED_TABLES: readonly (readonly InstructionDef[])[] = [scalar, vop, vopd, memory, image];
