/**
 * The codec of the small families: VOPD (gfx11 dual issue), VINTERP and LDSDIR (gfx11
 * interpolation), VINTRP (gfx7-gfx10.3 interpolation) and EXP (export, all generations).
 * Each family's layout lives in its own module; this one dispatches.
 */
import type { FamilyCodec } from '../instruction.ts';
import { assembleVopd, decodeVopd, printVopd } from './vopd-dual.ts';
import { assembleInterp, decodeInterp, printInterp } from './interp-codec.ts';
import { assembleExp, decodeExp, printExp } from './exp-codec.ts';

export const codec: FamilyCodec = {
  families: ['VOPD', 'VINTERP', 'LDSDIR', 'VINTRP', 'EXP'],
  decode(target, words, at, family, byteOffset) {
    if (family === 'VOPD') return decodeVopd(target, words, at, byteOffset);
    if (family === 'EXP') return decodeExp(target, words, at, byteOffset);
    return decodeInterp(target, words, at, family, byteOffset);
  },
  print(target, inst) {
    if (inst.def.family === 'VOPD') return printVopd(target, inst);
    if (inst.def.family === 'EXP') return printExp(target, inst);
    return printInterp(target, inst);
  },
  assemble(target, stmt) {
    return assembleVopd(target, stmt) ?? assembleInterp(target, stmt) ?? assembleExp(target, stmt);
  },
};
