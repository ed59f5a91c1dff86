// Placeholder until this group's generator runs.
import type { InstructionDef } from '../types.ts';

export const TABLE: readonly InstructionDef[] = [];
