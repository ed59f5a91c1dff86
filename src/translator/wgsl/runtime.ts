import { atomicValue, type AtomicOp } from '../../interp/buffer-ops.ts';
import { ATOMIC_KINDS, REQUEST_ENABLED, type MemoryPath, type Space } from '../memory-ops.ts';
import { Segment } from './segment.ts';

/**
 * The WGSL a translated module carries besides its program (D011): the bindings, guest memory
 * (the capture's ranges in one storage buffer of atomic words, found through a table of guest
 * address ranges), the fault report, and LDS in workgroup memory. Every access is bounds-checked
 * against the table: an address outside every range, past a range's end, or in a range whose
 * bytes the capture does not hold is a fault the module records (the first one, with its
 * address) and the host reads back; the access itself then reads 0 or writes nothing.
 */

/**
 * Words of the status buffer, in order (a program capture's final registers follow them: the
 * buffer is runtime-sized so one runtime serves both).
 */
export const STATUS = {
  /** A `FaultCode`, 0 when none. */
  code: 0,
  addressLo: 1,
  addressHi: 2,
  size: 3,
  /** 1 for a write. */
  write: 4,
  stepsLo: 5,
  stepsHi: 6,
  /** The guest range (unavailable, past its end) or other detail of the fault. */
  detail: 7,
  /** Taken by the first fault. */
  claimed: 8,
  words: 16,
} as const;

export const FAULT = {
  unmapped: 1,
  pastEnd: 2,
  unavailable: 3,
  /** A descriptor's TYPE is not a V#'s. */
  notBuffer: 4,
  /** A 32-bit atomic at an address that is not a multiple of 4. */
  misalignedAtomic: 5,
  /** A wave ran past the step limit. */
  stepLimit: 6,
  /** The superstep cap of the group was reached. */
  superstepLimit: 7,
  /** FLAT into the private (scratch) aperture, which is not translated. */
  privateFlat: 8,
  /** A format element larger than the V#'s swizzle element. */
  unsupportedElement: 9,
  /** An image instruction's registers are not the T#/S# words the host bound (image-ops.ts). */
  imageDescriptor: 10,
  /** An active lane read a border texel whose colour is the TA_BC register table (not modelled). */
  imageBorderRegister: 11,
  /** A buffer access's V# registers are not the words the translation took from the capture's memory (traced-words.ts). */
  tracedDescriptor: 12,
  /** A cube sample's face coordinate is not a face id (image-ops.ts, the interpreter's cube rule, D022). */
  imageCubeFaceId: 13,
  /** A weighted tap of a seamless cube sample lies across a face edge (not modelled, D022). */
  imageCubeEdge: 14,
  /**
   * FORCE_DEGAMMA (or SKIP_DEGAMMA of an sRGB format) met a texel or result component that is not
   * +0 or 1, the only values every sRGB curve leaves alone (image-ops.ts, the interpreter's rule).
   */
  imageDegamma: 15,
  /** An implicit (or _d) LOD of a cube sample whose quad is on more than one face (image-ops.ts, D024). */
  imageCubeQuadFaces: 16,
} as const;
export type FaultCode = (typeof FAULT)[keyof typeof FAULT];

/** Bytes of one entry of the range table: lo, hi, size, offset, available. */
export const RANGE_ENTRY_WORDS = 5;

export const RUNTIME_WGSL = /* wgsl */ `struct GuestRange {
  lo: u32,
  hi: u32,
  size: u32,
  offset: u32,
  available: u32,
}

struct Params {
  group: vec4<u32>,
}

@group(0) @binding(0) var<storage, read_write> mem: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read> ranges: array<GuestRange>;
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

const NO_RANGE: u32 = 0xffffffffu;

fn fault(code: u32, lo: u32, hi: u32, n: u32, write: bool, detail: u32) {
  if (atomicExchange(&status[${STATUS.claimed}], 1u) == 0u) {
    atomicStore(&status[${STATUS.addressLo}], lo);
    atomicStore(&status[${STATUS.addressHi}], hi);
    atomicStore(&status[${STATUS.size}], n);
    atomicStore(&status[${STATUS.write}], select(0u, 1u, write));
    atomicStore(&status[${STATUS.detail}], detail);
    atomicStore(&status[${STATUS.code}], code);
  }
}

// The byte offset in mem of n bytes at guest address hi:lo, or NO_RANGE after recording the fault.
// One return at the end (D029): each early return costs SwiftShader a flag and a loop of its own.
// One call of fault, after the loop, with the code the search found (D029 amendment): SwiftShader
// runs every call masked, each with its six atomics, so three calls cost three times one.
fn guest_offset(lo: u32, hi: u32, n: u32, write: bool) -> u32 {
  var o = NO_RANGE;
  var code = ${FAULT.unmapped}u;
  var slot = 0u;
  let count = arrayLength(&ranges);
  for (var i = 0u; i < count; i++) {
    let r = ranges[i];
    let dlo = lo - r.lo;
    let dhi = hi - r.hi - select(0u, 1u, lo < r.lo);
    if (dhi == 0u && dlo < r.size) {
      code = select(select(0u, ${FAULT.unavailable}u, r.available == 0u), ${FAULT.pastEnd}u, n > r.size - dlo);
      slot = i;
      o = select(NO_RANGE, r.offset + dlo, code == 0u);
      break;
    }
  }
  if (code != 0u) {
    fault(code, lo, hi, n, write, slot);
  }
  return o;
}
`;

/** The atomic ops' new-value function, from the shared rule (buffer-ops.ts `atomicValue`) on the expression algebra. */
function atomicNewWgsl(atomics: ReadonlySet<AtomicOp>): string {
  const cases: string[] = [];
  for (const op of atomics) {
    const body: string[] = [];
    const seg = new Segment(`a${ATOMIC_KINDS.indexOf(op)}_`, body, '      ');
    const result = seg.value(atomicValue(seg.b, op, seg.word('old'), seg.word('src'), seg.word('cmp')));
    cases.push(
      [`    case ${2 + ATOMIC_KINDS.indexOf(op)}u: { // ${op}`, ...body, `      return ${result};`, '    }'].join('\n'),
    );
  }
  return `fn atomic_new(kind: u32, old: u32, src: u32, cmp: u32) -> u32 {
  switch kind {
${cases.join('\n')}
    default: {
      return old;
    }
  }
}`;
}

/**
 * n bytes (1, 2 or 4) at byte offset o of an atomic word array, read and written with the word or
 * two words they touch: no loop over bytes (D029). A write of less than an aligned word clears its
 * bits and sets them, each an atomic op, so lanes writing other bytes of the same word keep theirs.
 */
/** The module's word array of each space: its functions are named after it (`mem_bytes`, `lds_put`). */
const ARRAY_OF: Readonly<Record<Space, string>> = { guest: 'mem', lds: 'lds' };

function bytesWgsl(array: string, load: boolean, store: boolean): string {
  const bytes = `fn ${array}_bytes(o: u32, n: u32) -> u32 {
  let w = o >> 2u;
  let sh = (o & 3u) * 8u;
  var v = atomicLoad(&${array}[w]) >> sh;
  if (sh != 0u && sh + n * 8u > 32u) {
    v = v | (atomicLoad(&${array}[w + 1u]) << (32u - sh));
  }
  if (n < 4u) {
    v = v & ((1u << (n * 8u)) - 1u);
  }
  return v;
}`;
  const put = `fn ${array}_put(o: u32, n: u32, value: u32) {
  let w = o >> 2u;
  let sh = (o & 3u) * 8u;
  if (sh == 0u && n == 4u) {
    atomicStore(&${array}[w], value);
  } else {
    let mask = select((1u << (n * 8u)) - 1u, 0xffffffffu, n == 4u);
    let v = value & mask;
    atomicAnd(&${array}[w], ~(mask << sh));
    atomicOr(&${array}[w], v << sh);
    if (sh != 0u && sh + n * 8u > 32u) {
      atomicAnd(&${array}[w + 1u], ~(mask >> (32u - sh)));
      atomicOr(&${array}[w + 1u], v >> (32u - sh));
    }
  }
}`;
  return [...(load ? [bytes] : []), ...(store ? [put] : [])].join('\n\n');
}

/** A compare-and-swap loop around `atomic_new` on word `w` of `array`, its old value in `r`. */
const casWgsl = (array: string, w: string, indent: string): string =>
  [
    'loop {',
    `  let cur = atomicLoad(&${array}[${w}]);`,
    `  let x = atomicCompareExchangeWeak(&${array}[${w}], cur, atomic_new(kind, cur, value, cmp));`,
    '  if (x.exchanged) {',
    '    r = cur;',
    '    break;',
    '  }',
    '}',
  ]
    .map((l) => indent + l)
    .join('\n');

/** One space's branch of `access` (address in `at`, `ctl`'s kind in `kind`), with only the paths the program takes. */
function spaceWgsl(
  space: Space,
  paths: ReadonlySet<MemoryPath>,
  indent: string,
  at: string,
  misaligned: string,
): string[] {
  const array = ARRAY_OF[space];
  const out: string[] = [];
  const branches: [string, string[]][] = [];
  if (paths.has(`${space}-load`)) branches.push(['kind == 0u', [`r = ${array}_bytes(${at}, n);`]]);
  if (paths.has(`${space}-store`)) branches.push(['kind == 1u', [`${array}_put(${at}, n, value);`]]);
  if (paths.has(`${space}-atomic`))
    branches.push([
      'kind >= 2u',
      [`if ((${at} & 3u) != 0u) {`, `  ${misaligned}`, '} else {', casWgsl(array, `${at} >> 2u`, '  '), '}'],
    ]);
  branches.forEach(([cond, body], i) => {
    out.push(`${indent}${i === 0 ? '' : '} else '}if (${cond}) {`);
    for (const b of body) for (const l of b.split('\n')) out.push(`${indent}  ${l}`);
  });
  if (branches.length > 0) out.push(`${indent}}`);
  return out;
}

/**
 * The memory service (D011): the one place the module reaches guest memory and LDS. A request
 * is (lo, hi, control, value) and a compare value: control's bytes [3:0], LDS [4], enabled [5],
 * kind [15:8] (0 load, 1 store, 2 + an atomic op of ATOMIC_KINDS). It returns what a load read
 * or the old value of an atomic (0 when disabled or faulting). Atomics are compare-and-swap
 * loops around `atomic_new`. LDS addresses are range-checked by the DS rules before (their
 * `enabled`); guest addresses here, through the range table. `access` holds only the paths in
 * `paths` (the program's requests, D029) and returns once, at its end.
 */
export function serviceWgsl(atomics: ReadonlySet<AtomicOp>, ldsWords: number, paths: ReadonlySet<MemoryPath>): string {
  const uses = (space: Space) => [...paths].some((p) => p.startsWith(`${space}-`));
  // Each space's branch at its depth: under `if (ctl & 16u)` / its `else` when the program uses both.
  const both = uses('lds') && uses('guest');
  const lds = (indent: string) =>
    spaceWgsl('lds', paths, indent, 'lo', `fault(${FAULT.misalignedAtomic}u, lo, 0u, 4u, true, 1u);`);
  const guest = (indent: string) => [
    `${indent}let o = guest_offset(lo, hi, n, kind != 0u);`,
    `${indent}if (o != NO_RANGE) {`,
    ...spaceWgsl('guest', paths, `${indent}  `, 'o', `fault(${FAULT.misalignedAtomic}u, lo, hi, 4u, true, 0u);`),
    `${indent}}`,
  ];
  const body = both
    ? ['  if ((ctl & 16u) != 0u) {', ...lds('    '), '  } else {', ...guest('    '), '  }']
    : uses('lds')
      ? lds('  ')
      : uses('guest')
        ? guest('  ')
        : [];
  const functions = (['lds', 'guest'] as const)
    .filter((space) => paths.has(`${space}-load`) || paths.has(`${space}-store`))
    .map((space) => bytesWgsl(ARRAY_OF[space], paths.has(`${space}-load`), paths.has(`${space}-store`)));
  return `var<workgroup> lds: array<atomic<u32>, ${Math.max(1, ldsWords)}>;

${atomicNewWgsl(atomics)}

${functions.join('\n\n')}${functions.length > 0 ? '\n\n' : ''}fn access(lo: u32, hi: u32, ctl: u32, value: u32, cmp: u32) -> u32 {
  var r = 0u;
  let n = ctl & 15u;
  let kind = (ctl >> 8u) & 0xffu;
  if ((ctl & ${REQUEST_ENABLED}u) != 0u) {
${body.map((l) => '  ' + l).join('\n')}
  }
  return r;
}
`;
}
