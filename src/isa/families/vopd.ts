/** Placeholder: this family group's codec is being written. */
import type { FamilyCodec } from '../instruction.ts';

export const codec: FamilyCodec = {
  families: [],
  decode() {
    throw new Error('not implemented');
  },
  print() {
    throw new Error('not implemented');
  },
  assemble() {
    return undefined;
  },
};
