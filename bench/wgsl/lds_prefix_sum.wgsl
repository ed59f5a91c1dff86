// lds_prefix_sum, written by hand from /work/shared/corpus/compiled/radv/lds_prefix_sum.comp:
// a per-workgroup inclusive prefix sum (Hillis-Steele) in workgroup memory, 256 invocations,
// one barrier after the first store and two per step (offsets 1, 2, 4, ..., 128), as the
// source. out[g] = in[256 * (g / 256)] + ... + in[g] mod 2^32.
// Bindings: 0 the input, 1 the output.

@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

var<workgroup> sh: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) l: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
  sh[l] = inp[gid.x];
  workgroupBarrier();
  // `off` is uniform, so every barrier in the loop is in uniform control flow (WGSL's rule).
  for (var off = 1u; off < 256u; off <<= 1u) {
    var t = 0u;
    if (l >= off) {
      t = sh[l - off];
    }
    workgroupBarrier();
    sh[l] += t;
    workgroupBarrier();
  }
  outp[gid.x] = sh[l];
}
