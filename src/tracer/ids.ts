/**
 * Branded ids of the tracer: a code address and a block id are both small integers, and mixing
 * them up (indexing the block table by an address) is the bug the brands rule out.
 */

/** Byte offset of an instruction from the start of the decoded code. */
export type CodeAddress = number & { readonly __brand: 'CodeAddress' };
/** Index of a basic block in `ControlFlowGraph.blocks` (blocks are in address order). */
export type BlockId = number & { readonly __brand: 'BlockId' };
/** Index of a texture slot in `TraceResult.slots`. */
export type SlotId = number & { readonly __brand: 'SlotId' };

export const codeAddress = (n: number): CodeAddress => n as CodeAddress;
export const blockId = (n: number): BlockId => n as BlockId;
export const slotId = (n: number): SlotId => n as SlotId;

/** `0x1c`: how every address is written in the tracer's messages. */
export function hexAddress(a: number): string {
  return `0x${a.toString(16)}`;
}
