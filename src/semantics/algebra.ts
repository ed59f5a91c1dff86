/**
 * The value algebra instruction semantics are written against (D003). Each instruction's
 * meaning is one small function over `Algebra<V, B>`; the interpreter and the tracer's
 * constant folding run it with concrete numbers (`concrete.ts`), the translator runs the
 * same function with an algebra whose values are WGSL/SPIR-V expressions. Nothing in a
 * semantic function may look at what V is.
 *
 * Values are 32-bit words (V) and booleans (B). Wider values are tuples of words, low word
 * first, because WGSL has no 64-bit integers and the hardware's registers are 32 bits wide.
 * Floats are bit patterns in words; the algebra's float operations say which IEEE width
 * they work at and follow the hardware's rules (denormal modes, NaN handling) as given by
 * `FloatMode`.
 */

/** A 64-bit value as two words, low first. */
export type Pair<V> = readonly [V, V];

/** The MODE register's float controls that change results. */
export interface FloatMode {
  /** Flush single-precision denormals (inputs and outputs) when false. */
  readonly f32Denormals: boolean;
  /** Flush double- and half-precision denormals when false. */
  readonly f64f16Denormals: boolean;
}

export interface Algebra<V, B> {
  // --- constants
  word(value: number): V;
  bool(value: boolean): B;

  // --- integer arithmetic on words (wrapping, unsigned view unless named signed)
  add(a: V, b: V): V;
  sub(a: V, b: V): V;
  /** a + b + carryIn, and the carry out of bit 31. */
  addCarry(a: V, b: V, carryIn: B): readonly [V, B];
  /** a - b - borrowIn, and the borrow out (a < b + borrowIn unsigned). */
  subBorrow(a: V, b: V, borrowIn: B): readonly [V, B];
  mulLo(a: V, b: V): V;
  mulHiU(a: V, b: V): V;
  mulHiI(a: V, b: V): V;
  and(a: V, b: V): V;
  or(a: V, b: V): V;
  xor(a: V, b: V): V;
  not(a: V): V;
  /** Shift by (b & 31): the hardware masks shift counts; callers pass the raw count. */
  shl(a: V, b: V): V;
  lshr(a: V, b: V): V;
  ashr(a: V, b: V): V;
  minU(a: V, b: V): V;
  maxU(a: V, b: V): V;
  minI(a: V, b: V): V;
  maxI(a: V, b: V): V;

  // --- bit manipulation
  popcount(a: V): V;
  /** Bit reverse. */
  brev(a: V): V;
  /** Index of the lowest set bit, or 0xffffffff when a is 0 (s_ff1 / v_ffbl). */
  findLsb(a: V): V;
  /** Index counted from the MSB of the highest set bit, or 0xffffffff when a is 0 (s_flbit_i32_b32 / v_ffbh_u32). */
  findMsbFromTop(a: V): V;
  /** Unsigned bit-field extract: (a >> (offset & 31)) & ((1 << (width & 31)) - 1), width 0 giving 0. */
  bfeU(a: V, offset: V, width: V): V;
  /** Signed bit-field extract. */
  bfeI(a: V, offset: V, width: V): V;
  /** ((1 << (width & 31)) - 1) << (offset & 31). */
  bfm(width: V, offset: V): V;
  /** Sign-extend the low `bits` (8 or 16) bits. */
  sext(a: V, bits: 8 | 16): V;

  // --- comparisons and selection
  eq(a: V, b: V): B;
  ne(a: V, b: V): B;
  ltU(a: V, b: V): B;
  leU(a: V, b: V): B;
  ltI(a: V, b: V): B;
  leI(a: V, b: V): B;
  boolAnd(a: B, b: B): B;
  boolOr(a: B, b: B): B;
  boolNot(a: B): B;
  /** c ? t : f */
  select(c: B, t: V, f: V): V;
  /** 1 or 0. */
  fromBool(c: B): V;
  /** a !== 0 */
  toBool(a: V): B;
}
