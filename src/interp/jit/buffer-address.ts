/**
 * The MUBUF / MTBUF address and range rules of one V# compiled to JavaScript (D014), as the
 * ALU is: buffer-ops.ts's `bufferOffsetOver` and `bufferOutOfRange` (the rules the translator
 * shares) run once on the expression algebra with the V#'s words and the instruction's fields
 * as constants and the lane's index, VGPR offset and soffset as leaves; the folded DAG becomes a
 * function (js-lowering.ts) that fills, for each dword k of the access (byte offset 4k), the
 * offset from the V#'s base (`(soffset + bufferOffsetOver(...)) >>> 0`) and whether it is out of
 * range. Nothing of the rules is written here: a V# whose rules lower to a float or call a mode
 * is not compiled (undefined), and the caller applies the shared rules directly.
 */
import type { Gen } from '../../isa/gen.ts';
import { exprBuilder, type Expr } from '../../semantics/expr.ts';
import { bufferOffsetOver, bufferOutOfRange, bufferRsrc } from '../buffer-ops.ts';
import { compileAddressPairs } from './address-pairs.ts';

/**
 * Fills `into[2k]` with dword k's offset from the V#'s base and `into[2k + 1]` with 1 when it is
 * out of range (0 otherwise), for k below the compiled dword count.
 */
export type BufferLaneAddress = (index: number, voffset: number, soffset: number, into: Float64Array) => void;

/** The compiled function's leaves, in its parameter order. */
const LEAVES = ['index', 'voffset', 'soffset'];

/** Compiled rules by what decides them (generation, V# words, IDXEN, the offset field, dwords). Bounded. */
const cache = new Map<string, BufferLaneAddress | null>();
const CACHE_LIMIT = 4096;

/**
 * The rules for `dwords` dwords (1-4) of an access through the V# `words` with the
 * instruction's IDXEN and OFFSET; undefined when they do not lower to integer code.
 */
export function compileBufferAddress(
  gen: Gen,
  words: readonly number[],
  idxen: boolean,
  instOffset: number,
  dwords: number,
): BufferLaneAddress | undefined {
  const key = `${gen}|${words[0]},${words[1]},${words[2]},${words[3]}|${idxen ? 1 : 0}|${instOffset}|${dwords}`;
  let f = cache.get(key);
  if (f === undefined) {
    f = make(gen, words, idxen, instOffset, dwords);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, f);
  }
  return f ?? undefined;
}

function make(
  gen: Gen,
  words: readonly number[],
  idxen: boolean,
  instOffset: number,
  dwords: number,
): BufferLaneAddress | null {
  const b = exprBuilder();
  const r = bufferRsrc(
    b,
    gen,
    words.map((x) => b.word(x)),
  );
  const index = b.input('index');
  const voffset = b.input('voffset');
  const soffset = b.input('soffset');
  const roots: Expr[] = [];
  for (let k = 0; k < dwords; k++) {
    // As execute.ts's MUBUF lane: the 32-bit offset of byte 4k, then the shared rules.
    const off = b.add(voffset, b.word((instOffset + 4 * k) >>> 0));
    roots.push(b.add(soffset, bufferOffsetOver(b, r, index, off)));
    roots.push(bufferOutOfRange(b, gen, r, idxen, index, off, soffset));
  }
  return compileAddressPairs(roots, LEAVES, 'bufferLaneAddress', 'a lane address input') as BufferLaneAddress | null;
}
