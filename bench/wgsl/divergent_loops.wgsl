// divergent_loops, written by hand from /work/shared/corpus/compiled/radv/divergent_loops.comp
// (the algorithm its header states), for bench/translator.ts to time beside the translated
// compiled kernel. Per invocation g: nested loops with data-dependent trip counts, continue and
// break at both levels, a 4-way switch, then a Collatz step count capped at 200; all u32 mod 2^32.
// Bindings: 0 the input x[], 1 the output o[2g], o[2g + 1].

@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> o: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let g = gid.x;
  let xv = x[g];
  let a = xv & 15u;
  let b = (xv >> 4u) & 15u;
  var acc = xv >> 8u;
  for (var j = 0u; j < a; j++) {
    if ((j & 3u) == 2u) {
      continue;
    }
    for (var k = 0u; k < b; k++) {
      if (j * k > 20u) {
        break;
      }
      switch ((j + k + acc) & 3u) {
        case 0u: {
          acc += j;
        }
        case 1u: {
          acc ^= k << 3u;
        }
        case 2u: {
          acc = acc * 3u + 1u;
        }
        default: {
          acc -= 1u;
        }
      }
    }
    if (acc > 100000u) {
      break;
    }
  }
  o[2u * g] = acc;
  var n = (xv & 0xfffu) | 1u;
  var steps = 0u;
  while (n != 1u && steps < 200u) {
    n = select(n >> 1u, 3u * n + 1u, (n & 1u) != 0u);
    steps++;
  }
  o[2u * g + 1u] = steps;
}
