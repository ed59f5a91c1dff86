struct GuestRange {
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
  if (atomicExchange(&status[8], 1u) == 0u) {
    atomicStore(&status[1], lo);
    atomicStore(&status[2], hi);
    atomicStore(&status[3], n);
    atomicStore(&status[4], select(0u, 1u, write));
    atomicStore(&status[7], detail);
    atomicStore(&status[0], code);
  }
}

// The byte offset in mem of n bytes at guest address hi:lo, or NO_RANGE after recording the fault.
// One return at the end (D029): each early return costs SwiftShader a flag and a loop of its own.
// One call of fault, after the loop, with the code the search found (D029 amendment): SwiftShader
// runs every call masked, each with its six atomics, so three calls cost three times one.
fn guest_offset(lo: u32, hi: u32, n: u32, write: bool) -> u32 {
  var o = NO_RANGE;
  var code = 1u;
  var slot = 0u;
  let count = arrayLength(&ranges);
  for (var i = 0u; i < count; i++) {
    let r = ranges[i];
    let dlo = lo - r.lo;
    let dhi = hi - r.hi - select(0u, 1u, lo < r.lo);
    if (dhi == 0u && dlo < r.size) {
      code = select(select(0u, 3u, r.available == 0u), 2u, n > r.size - dlo);
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
