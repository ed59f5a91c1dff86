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
  /**
   * MODE.IEEE (absent: set). Set: min/max quiet a signaling NaN operand and return it, and return the
   * other operand for a quiet NaN; clear: any NaN operand gives the other (RDNA3 ISA 3.4.2, 16.7 V_MIN_F32).
   */
  readonly ieee?: boolean;
  /** MODE.DX10_CLAMP (absent: set): the clamp output modifier turns a NaN into 0; clear: the NaN passes (RDNA3 ISA 3.4.2). */
  readonly dx10Clamp?: boolean;
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

  // --- binary32 on bit patterns (vector ALU). Every operation flushes denormal inputs and
  // outputs to a zero of the same sign when `m.f32Denormals` is false. A NaN result is the
  // first NaN operand made quiet (bit 22 set), or 0xffc00000 for an invalid operation
  // (inf - inf, 0 * inf, sqrt of a negative). Rounding is to nearest even.
  /** a + b, one rounding. (a - b is fAdd(a, b ^ 0x80000000): neg is a bit operation.) */
  fAdd(a: V, b: V, m: FloatMode): V;
  fMul(a: V, b: V, m: FloatMode): V;
  /** a * b + c with ONE rounding (v_fma_f32, v_fmac_f32). v_mad_f32 is fMul then fAdd. */
  fFma(a: V, b: V, c: V, m: FloatMode): V;
  /** IEEE-mode min/max as AMD documents them: a NaN operand returns the other operand; -0 < +0. */
  fMin(a: V, b: V, m: FloatMode): V;
  fMax(a: V, b: V, m: FloatMode): V;
  /** One of the 16 VOPC float predicates (NaN: the ordered ones are false, the n* ones true). */
  fCmp(p: FloatPredicate, a: V, b: V, m: FloatMode): B;
  /** i32 / u32 → f32, rounded to nearest even. */
  fFromI32(a: V): V;
  fFromU32(a: V): V;
  /** f32 → i32 / u32 truncating toward zero, saturating at the range ends, NaN → 0. */
  fToI32(a: V, m: FloatMode): V;
  fToU32(a: V, m: FloatMode): V;
  /** Round to an integral value (floor, ceil, trunc, to nearest even), sign of zero kept. */
  fRound(kind: RoundKind, a: V, m: FloatMode): V;
  /** rcp, rsq, sqrt, exp (2^x), log (log2), sin and cos (of x revolutions, x * 2pi radians). */
  fUnary(kind: FloatUnary, a: V, m: FloatMode): V;
  /** a * 2^n, n a signed word, one rounding. */
  fLdexp(a: V, n: V, m: FloatMode): V;
  /** frexp: mantissa in [0.5, 1) with a's sign (inf and NaN returned as they are), and the exponent (0 for 0, inf, NaN). */
  fFrexpMant(a: V, m: FloatMode): V;
  fFrexpExp(a: V, m: FloatMode): V;
  /** f32 → f16 bits in the low half (high half 0): nearest even, or toward zero (cvt_pkrtz). f16 denormals by `m.f64f16Denormals`. */
  fToF16(a: V, towardZero: boolean, m: FloatMode): V;
  /** f16 bits (low half of a) → f32 bits, exact (f16 denormal inputs flushed by `m.f64f16Denormals`). */
  fFromF16(a: V, m: FloatMode): V;

  // --- binary64 on pairs (low word first); denormals by `m.f64f16Denormals`, NaN rules as for f32 (bit 51 quiets).
  dAdd(a: Pair<V>, b: Pair<V>, m: FloatMode): Pair<V>;
  dMul(a: Pair<V>, b: Pair<V>, m: FloatMode): Pair<V>;
  dFma(a: Pair<V>, b: Pair<V>, c: Pair<V>, m: FloatMode): Pair<V>;
  dMin(a: Pair<V>, b: Pair<V>, m: FloatMode): Pair<V>;
  dMax(a: Pair<V>, b: Pair<V>, m: FloatMode): Pair<V>;
  dCmp(p: FloatPredicate, a: Pair<V>, b: Pair<V>, m: FloatMode): B;
  dRound(kind: RoundKind, a: Pair<V>, m: FloatMode): Pair<V>;
  /** rcp, rsq, sqrt only (the f64 transcendentals the hardware has). */
  dUnary(kind: 'rcp' | 'rsq' | 'sqrt', a: Pair<V>, m: FloatMode): Pair<V>;
  dLdexp(a: Pair<V>, n: V, m: FloatMode): Pair<V>;
  dFrexpMant(a: Pair<V>, m: FloatMode): Pair<V>;
  dFrexpExp(a: Pair<V>, m: FloatMode): V;
  dFromI32(a: V): Pair<V>;
  dFromU32(a: V): Pair<V>;
  dToI32(a: Pair<V>, m: FloatMode): V;
  dToU32(a: Pair<V>, m: FloatMode): V;
  /** f32 → f64 (exact) and f64 → f32 (nearest even), each side's denormals by its own mode bit. */
  dFromF32(a: V, m: FloatMode): Pair<V>;
  dToF32(a: Pair<V>, m: FloatMode): V;
}

/** The VOPC float predicates, by the suffix AMD names them with (v_cmp_<p>_f32). */
export type FloatPredicate =
  'f' | 'lt' | 'eq' | 'le' | 'gt' | 'lg' | 'ge' | 'o' | 'u' | 'nge' | 'nlg' | 'ngt' | 'nle' | 'neq' | 'nlt' | 'tru';

export type RoundKind = 'floor' | 'ceil' | 'trunc' | 'rndne';
export type FloatUnary = 'rcp' | 'rsq' | 'sqrt' | 'exp' | 'log' | 'sin' | 'cos';

/**
 * Truth of a float predicate from the three facts a compare yields (unordered, less,
 * equal): the one definition the concrete and expression algebras share.
 */
export function predicateHolds(p: FloatPredicate, unordered: boolean, lt: boolean, eq: boolean): boolean {
  const gt = !unordered && !lt && !eq;
  switch (p) {
    case 'f':
      return false;
    case 'lt':
      return lt;
    case 'eq':
      return eq;
    case 'le':
      return lt || eq;
    case 'gt':
      return gt;
    case 'lg':
      return lt || gt;
    case 'ge':
      return gt || eq;
    case 'o':
      return !unordered;
    case 'u':
      return unordered;
    case 'nge':
      return !(gt || eq);
    case 'nlg':
      return !(lt || gt);
    case 'ngt':
      return !gt;
    case 'nle':
      return !(lt || eq);
    case 'neq':
      return !eq;
    case 'nlt':
      return !lt;
    case 'tru':
      return true;
  }
}
