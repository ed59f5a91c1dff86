/**
 * WGSL the translator writes → SPIR-V (D016): lex and parse (`parser.ts`), check
 * (`checker.ts`), emit (`emitter.ts`). One function; an `UnsupportedWgsl` names whatever is
 * outside the subset, with its line and column.
 */
import { checkWgsl } from './checker.ts';
import { emitSpirv, type EmitOptions } from './emitter.ts';
import { parseWgsl } from './parser.ts';

export { UnsupportedWgsl } from './errors.ts';

/** The SPIR-V 1.5 module (Vulkan 1.2) of a WGSL compute module. */
export function spirvFromWgsl(wgsl: string, options: EmitOptions = {}): Uint32Array {
  return emitSpirv(checkWgsl(parseWgsl(wgsl)), options);
}
