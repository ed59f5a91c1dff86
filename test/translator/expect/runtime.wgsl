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
fn guest_offset(lo: u32, hi: u32, n: u32, write: bool) -> u32 {
  let count = arrayLength(&ranges);
  for (var i = 0u; i < count; i++) {
    let r = ranges[i];
    let dlo = lo - r.lo;
    let dhi = hi - r.hi - select(0u, 1u, lo < r.lo);
    if (dhi == 0u && dlo < r.size) {
      if (n > r.size - dlo) {
        fault(2u, lo, hi, n, write, i);
        return NO_RANGE;
      }
      if (r.available == 0u) {
        fault(3u, lo, hi, n, write, i);
        return NO_RANGE;
      }
      return r.offset + dlo;
    }
  }
  fault(1u, lo, hi, n, write, 0u);
  return NO_RANGE;
}

fn mem_bytes(o: u32, n: u32) -> u32 {
  let sh = (o & 3u) * 8u;
  var v = atomicLoad(&mem[o >> 2u]) >> sh;
  if (sh != 0u && sh + n * 8u > 32u) {
    v = v | (atomicLoad(&mem[(o >> 2u) + 1u]) << (32u - sh));
  }
  if (n < 4u) {
    v = v & ((1u << (n * 8u)) - 1u);
  }
  return v;
}

fn mem_put(o: u32, n: u32, value: u32) {
  if ((o & 3u) == 0u && n == 4u) {
    atomicStore(&mem[o >> 2u], value);
    return;
  }
  for (var k = 0u; k < n; k++) {
    let a = o + k;
    let sh = (a & 3u) * 8u;
    atomicAnd(&mem[a >> 2u], ~(0xffu << sh));
    atomicOr(&mem[a >> 2u], ((value >> (8u * k)) & 0xffu) << sh);
  }
}


fn lds_bytes(o: u32, n: u32) -> u32 {
  let sh = (o & 3u) * 8u;
  var v = atomicLoad(&lds[o >> 2u]) >> sh;
  if (sh != 0u && sh + n * 8u > 32u) {
    v = v | (atomicLoad(&lds[(o >> 2u) + 1u]) << (32u - sh));
  }
  if (n < 4u) {
    v = v & ((1u << (n * 8u)) - 1u);
  }
  return v;
}

fn lds_put(o: u32, n: u32, value: u32) {
  if ((o & 3u) == 0u && n == 4u) {
    atomicStore(&lds[o >> 2u], value);
    return;
  }
  for (var k = 0u; k < n; k++) {
    let a = o + k;
    let sh = (a & 3u) * 8u;
    atomicAnd(&lds[a >> 2u], ~(0xffu << sh));
    atomicOr(&lds[a >> 2u], ((value >> (8u * k)) & 0xffu) << sh);
  }
}

fn access(lo: u32, hi: u32, ctl: u32, value: u32, cmp: u32) -> u32 {
  if ((ctl & 32u) == 0u) {
    return 0u;
  }
  let n = ctl & 15u;
  let kind = (ctl >> 8u) & 0xffu;
  if ((ctl & 16u) != 0u) {
    if (kind == 0u) {
      return lds_bytes(lo, n);
    }
    if (kind == 1u) {
      lds_put(lo, n, value);
      return 0u;
    }
    if ((lo & 3u) != 0u) {
      fault(5u, lo, 0u, 4u, true, 1u);
      return 0u;
    }
    loop {
      let cur = atomicLoad(&lds[lo >> 2u]);
      let r = atomicCompareExchangeWeak(&lds[lo >> 2u], cur, atomic_new(kind, cur, value, cmp));
      if (r.exchanged) {
        return cur;
      }
    }
  }
  let o = guest_offset(lo, hi, n, kind != 0u);
  if (o == NO_RANGE) {
    return 0u;
  }
  if (kind == 0u) {
    return mem_bytes(o, n);
  }
  if (kind == 1u) {
    mem_put(o, n, value);
    return 0u;
  }
  if ((o & 3u) != 0u) {
    fault(5u, lo, hi, 4u, true, 0u);
    return 0u;
  }
  loop {
    let cur = atomicLoad(&mem[o >> 2u]);
    let r = atomicCompareExchangeWeak(&mem[o >> 2u], cur, atomic_new(kind, cur, value, cmp));
    if (r.exchanged) {
      return cur;
    }
  }
}
