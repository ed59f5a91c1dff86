// int_math, written by hand from /work/shared/corpus/compiled/radv/int_math.comp: 32 integer
// results per invocation (the contract in the source's header: GLSL's integer functions and
// operators, mod 2^32 or 2^64). WGSL has no 64-bit integers, so the 64-bit products and
// shifts are written on pairs of u32 words.
// Bindings: 0 the input, 8 words per invocation (u.xyzw, then s.xyzw); 1 the output, 32 words.

@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> o: array<u32>;

// The full 64-bit product of two u32, as (low, high), from 16-bit halves.
fn mul_wide(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

// (lo, hi) << s for s in [0, 63]; WGSL takes a runtime shift count mod 32, so each range is its own case.
fn shl64(lo: u32, hi: u32, s: u32) -> vec2<u32> {
  if (s == 0u) {
    return vec2<u32>(lo, hi);
  }
  if (s < 32u) {
    return vec2<u32>(lo << s, (hi << s) | (lo >> (32u - s)));
  }
  return vec2<u32>(0u, lo << (s - 32u));
}

// (lo, hi) >> s for s in [0, 63], logical, or arithmetic when `arith`.
fn shr64(lo: u32, hi: u32, s: u32, arith: bool) -> vec2<u32> {
  let fill = select(0u, 0xffffffffu, arith && (hi & 0x80000000u) != 0u);
  if (s == 0u) {
    return vec2<u32>(lo, hi);
  }
  if (s < 32u) {
    let top = select(hi >> s, bitcast<u32>(bitcast<i32>(hi) >> s), arith);
    return vec2<u32>((lo >> s) | (hi << (32u - s)), top);
  }
  let low = select(hi >> (s - 32u), bitcast<u32>(bitcast<i32>(hi) >> (s - 32u)), arith);
  return vec2<u32>(low, fill);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let ux = inp[8u * i];
  let uy = inp[8u * i + 1u];
  let uz = inp[8u * i + 2u];
  let uw = inp[8u * i + 3u];
  let sx = bitcast<i32>(inp[8u * i + 4u]);
  let sy = bitcast<i32>(inp[8u * i + 5u]);
  let base = 32u * i;

  let pu = mul_wide(ux, uy);
  o[base + 0u] = pu.y;
  o[base + 1u] = pu.x;
  // The signed product's high word: the unsigned one less each operand where the other is negative.
  let ps = mul_wide(bitcast<u32>(sx), bitcast<u32>(sy));
  let shi = ps.y - select(0u, bitcast<u32>(sy), sx < 0) - select(0u, bitcast<u32>(sx), sy < 0);
  o[base + 2u] = shi;
  o[base + 3u] = ps.x;
  o[base + 4u] = extractBits(ux, 5u, 7u);
  o[base + 5u] = bitcast<u32>(extractBits(sx, 3u, 9u));
  o[base + 6u] = extractBits(ux, uz & 15u, uw & 15u);
  o[base + 7u] = insertBits(ux, uy, 8u, 12u);
  o[base + 8u] = insertBits(ux, uy, uz & 15u, uw & 15u);
  o[base + 9u] = countOneBits(ux);
  o[base + 10u] = firstLeadingBit(ux);
  o[base + 11u] = bitcast<u32>(firstLeadingBit(sx));
  o[base + 12u] = firstTrailingBit(ux);
  o[base + 13u] = reverseBits(ux);
  o[base + 14u] = ux << (uz & 31u);
  o[base + 15u] = ux >> (uz & 31u);
  o[base + 16u] = bitcast<u32>(sx >> (uz & 31u));
  let l = shl64(ux, uy, uz & 63u);
  o[base + 17u] = l.x;
  o[base + 18u] = l.y;
  let r = shr64(ux, uy, uw & 63u, false);
  o[base + 19u] = r.x;
  o[base + 20u] = r.y;
  let ra = shr64(ux, uy, uw & 63u, true);
  o[base + 21u] = ra.x;
  o[base + 22u] = ra.y;
  let sum = ux + uy;
  o[base + 23u] = sum;
  o[base + 24u] = select(0u, 1u, sum < ux);
  o[base + 25u] = ux - uy;
  o[base + 26u] = select(0u, 1u, ux < uy);
  let d = max(uy, 1u);
  o[base + 27u] = ux / d;
  o[base + 28u] = ux % d;
  let e = select(sy, 1, sy == 0);
  o[base + 29u] = bitcast<u32>(sx / e);
  // OpSMod (what glslang emits for %): the remainder takes the divisor's sign.
  var m = sx % e;
  if (m != 0 && ((m < 0) != (e < 0))) {
    m += e;
  }
  o[base + 30u] = bitcast<u32>(m);
  o[base + 31u] = ux / 7u;
}
