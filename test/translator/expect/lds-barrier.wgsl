// gcn-webgpu translation (D011): 2 waves of 32 lanes a group
// [the shared runtime: runtime.wgsl]
var<workgroup> lds: array<atomic<u32>, 128>;

fn atomic_new(kind: u32, old: u32, src: u32, cmp: u32) -> u32 {
  switch kind {

    default: {
      return old;
    }
  }
}

fn lds_bytes(o: u32, n: u32) -> u32 {
  let w = o >> 2u;
  let sh = (o & 3u) * 8u;
  var v = atomicLoad(&lds[w]) >> sh;
  if (sh != 0u && sh + n * 8u > 32u) {
    v = v | (atomicLoad(&lds[w + 1u]) << (32u - sh));
  }
  if (n < 4u) {
    v = v & ((1u << (n * 8u)) - 1u);
  }
  return v;
}

fn lds_put(o: u32, n: u32, value: u32) {
  let w = o >> 2u;
  let sh = (o & 3u) * 8u;
  if (sh == 0u && n == 4u) {
    atomicStore(&lds[w], value);
  } else {
    let mask = select((1u << (n * 8u)) - 1u, 0xffffffffu, n == 4u);
    let v = value & mask;
    atomicAnd(&lds[w], ~(mask << sh));
    atomicOr(&lds[w], v << sh);
    if (sh != 0u && sh + n * 8u > 32u) {
      atomicAnd(&lds[w + 1u], ~(mask >> (32u - sh)));
      atomicOr(&lds[w + 1u], v >> (32u - sh));
    }
  }
}

fn mem_put(o: u32, n: u32, value: u32) {
  let w = o >> 2u;
  let sh = (o & 3u) * 8u;
  if (sh == 0u && n == 4u) {
    atomicStore(&mem[w], value);
  } else {
    let mask = select((1u << (n * 8u)) - 1u, 0xffffffffu, n == 4u);
    let v = value & mask;
    atomicAnd(&mem[w], ~(mask << sh));
    atomicOr(&mem[w], v << sh);
    if (sh != 0u && sh + n * 8u > 32u) {
      atomicAnd(&mem[w + 1u], ~(mask >> (32u - sh)));
      atomicOr(&mem[w + 1u], v >> (32u - sh));
    }
  }
}

fn access(lo: u32, hi: u32, ctl: u32, value: u32, cmp: u32) -> u32 {
  var r = 0u;
  let n = ctl & 15u;
  let kind = (ctl >> 8u) & 0xffu;
  if ((ctl & 32u) != 0u) {
    if ((ctl & 16u) != 0u) {
      if (kind == 0u) {
        r = lds_bytes(lo, n);
      } else if (kind == 1u) {
        lds_put(lo, n, value);
      }
    } else {
      let o = guest_offset(lo, hi, n, kind != 0u);
      if (o != NO_RANGE) {
        if (kind == 1u) {
          mem_put(o, n, value);
        }
      }
    }
  }
  return r;
}

var<workgroup> xword: array<u32, 128>;
var<workgroup> xmask: array<atomic<u32>, 48>;
var<workgroup> wstate: array<u32, 2>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let lane = lid % 32u;
  let wave = lid / 32u;
  let group = params.group.xyz + wg;
  var s124: u32 = 0u;
  var s126: u32 = 0xffffffffu;
  var v0: u32 = select(0u, (lid % 64u), lid < 64u);
  var v1: u32 = 0u;
  var v2: u32 = 0u;
  var v3: u32 = 0u;
  var pc: u32 = 0u;
  var sync: u32 = 0u;
  var live = true;
  var at_barrier = false;
  var steps: u32 = 0u;
  var superstep: u32 = 0u;
  var mq: array<vec4<u32>, 32>;
  var mqc: array<u32, 32>;
  var mres: array<u32, 32>;
  var mcount: u32 = 0u;
  var xaddr: u32 = 0u;
  var mret: u32 = 0u;
  var pf_code: u32 = 0u;
  var pf_word: u32 = 0u;
  var pf_detail: u32 = 0u;
  loop {
    let part = superstep % 3u;
    let xm = (part * 2u + wave) * 8u;
    let xw = (superstep & 1u) * 64u + wave * 32u;
    if (live && !at_barrier) {
      pc = pc & 0xbfffffffu;
      loop {
        if (steps > 100000000u) {
          fault(6u, steps, 0u, 0u, false, pc);
          live = false;
          break;
        }
        var halt = false;
        var ran = false;
        if (pc == 0u) { // 0x10000000
          ran = true;
          steps = steps + 5u;
          // 0x10000000 v_lshlrev_b32
          // 0x10000004 v_mul_u32_u24
          // 0x10000008 ds_write_b32
          let b0_0_t3: u32 = (lane & 0x1fu);
          let b0_0_t4: u32 = (s126 >> b0_0_t3);
          let b0_0_t6: u32 = (b0_0_t4 & 0x1u);
          let b0_0_t8: bool = (b0_0_t6 != 0x0u);
          let b0_0_t11: u32 = (v0 << 0x2u);
          let b0_0_t13: u32 = select(v1, b0_0_t11, b0_0_t8);
          let b0_0_t16: u32 = (v0 & 0xffffffu);
          let b0_0_t17: u32 = (0x3u * b0_0_t16);
          let b0_0_t19: u32 = select(v2, b0_0_t17, b0_0_t8);
          v1 = b0_0_t13;
          v2 = b0_0_t19;
          let b0_1_t4: bool = (0x1fcu < v1);
          let b0_1_t5: bool = (!b0_1_t4);
          let b0_1_t9: u32 = (lane & 0x1fu);
          let b0_1_t10: u32 = (s126 >> b0_1_t9);
          let b0_1_t12: u32 = (b0_1_t10 & 0x1u);
          let b0_1_t13: bool = (b0_1_t12 != 0x0u);
          let b0_1_t14: bool = (b0_1_t5 && b0_1_t13);
          let b0_1_t16: u32 = select(0x0u, 0x20u, b0_1_t14);
          let b0_1_t17: u32 = (0x114u | b0_1_t16);
          mq[0] = vec4<u32>(v1, 0x0u, b0_1_t17, v2);
          mcount = 1u;
          // 0x10000010 s_waitcnt
          // 0x10000014 s_barrier
          mret = 1u;
          pc = 4294963200u;
        }
        if (pc == 1u) { // 0x10000018
          ran = true;
          steps = steps + 0u;
          at_barrier = true;
          pc = 1073741826u;
          halt = true;
        }
        if (pc == 2u) { // 0x10000018
          ran = true;
          steps = steps + 3u;
          // 0x10000018 v_sub_nc_u32
          // 0x1000001c v_lshlrev_b32
          // 0x10000020 ds_read_b32
          let b0_4_t3: u32 = (lane & 0x1fu);
          let b0_4_t4: u32 = (s126 >> b0_4_t3);
          let b0_4_t6: u32 = (b0_4_t4 & 0x1u);
          let b0_4_t8: bool = (b0_4_t6 != 0x0u);
          let b0_4_t12: u32 = (0x3fu - v0);
          let b0_4_t15: u32 = select(v3, b0_4_t12, b0_4_t8);
          let b0_4_t17: u32 = (b0_4_t15 << 0x2u);
          let b0_4_t18: u32 = select(b0_4_t15, b0_4_t17, b0_4_t8);
          v3 = b0_4_t18;
          let b0_5_t3: u32 = (lane & 0x1fu);
          let b0_5_t4: u32 = (s126 >> b0_5_t3);
          let b0_5_t6: u32 = (b0_5_t4 & 0x1u);
          let b0_5_t8: bool = (b0_5_t6 != 0x0u);
          let b0_5_t15: bool = (0x1fcu < v3);
          let b0_5_t16: bool = (!b0_5_t15);
          let b0_5_t17: bool = (b0_5_t16 && b0_5_t8);
          let b0_5_t19: u32 = select(0x0u, 0x20u, b0_5_t17);
          let b0_5_t20: u32 = (0x14u | b0_5_t19);
          mq[0] = vec4<u32>(v3, 0x0u, b0_5_t20, 0x0u);
          mcount = 1u;
          mret = 3u;
          pc = 4294963200u;
        }
        if (pc == 3u) { // 0x10000028
          ran = true;
          steps = steps + 3u;
          let b0_5_t3: u32 = (lane & 0x1fu);
          let b0_5_t4: u32 = (s126 >> b0_5_t3);
          let b0_5_t6: u32 = (b0_5_t4 & 0x1u);
          let b0_5_t8: bool = (b0_5_t6 != 0x0u);
          let b0_5_t11: u32 = select(v2, mres[0], b0_5_t8);
          v2 = b0_5_t11;
          // 0x10000028 s_waitcnt
          // 0x1000002c buffer_store_dword
          let b0_7_t3: u32 = (0x30000000u + v1);
          let b0_7_t5: bool = (b0_7_t3 < 0x30000000u);
          let b0_7_t6: u32 = select(0u, 1u, b0_7_t5);
          let b0_7_t11: u32 = (lane & 0x1fu);
          let b0_7_t12: u32 = (s126 >> b0_7_t11);
          let b0_7_t14: u32 = (b0_7_t12 & 0x1u);
          let b0_7_t15: bool = (b0_7_t14 != 0x0u);
          let b0_7_t17: u32 = select(0x0u, 0x20u, b0_7_t15);
          let b0_7_t18: u32 = (0x104u | b0_7_t17);
          mq[0] = vec4<u32>(b0_7_t3, b0_7_t6, b0_7_t18, v2);
          mcount = 1u;
          // 0x10000034 s_endpgm
          mret = 4u;
          pc = 4294963200u;
        }
        if (pc == 4u) { // 0x10000038
          ran = true;
          steps = steps + 0u;
          live = false;
          halt = true;
        }
        if (pc == 4294963200u) {
          ran = true;
          for (var i = 0u; i < mcount; i++) {
            let q = mq[i];
            mres[i] = access(q.x, q.y, q.z, q.w, mqc[i]);
          }
          if (pf_code != 0u) {
            fault(pf_code, pf_word, 0u, 0u, false, pf_detail);
            pf_code = 0u;
          }
          pc = mret;
        }
        if (!halt & !ran) {
          live = false;
          halt = true;
        }
        if (halt) {
          break;
        }
      }
    }
    if (lane == 0u) {
      wstate[wave] = select(0u, select(1u, 2u, at_barrier), live);
    }
    storageBarrier();
    let states = workgroupUniformLoad(&wstate);
    var live_waves = 0u;
    var waiting = 0u;
    for (var w = 0u; w < 2u; w++) {
      let st = states[w];
      live_waves = live_waves + select(0u, 1u, st != 0u);
      waiting = waiting + select(0u, 1u, st == 2u);
    }
    if (live) {
      if (at_barrier) {
        if (waiting == live_waves) {
          at_barrier = false;
        }
      } else {
        switch sync {

          default: {}
        }
        sync = 0u;
      }
    }
    if (lane == 0u) {
      for (var k = 0u; k < 8u; k++) {
        atomicStore(&xmask[(((superstep + 2u) % 3u) * 2u + wave) * 8u + k], 0u);
      }
    }
    superstep = superstep + 1u;
    if (live_waves == 0u) {
      break;
    }
    if (superstep >= 100000004u) {
      if (lid == 0u) {
        fault(7u, superstep, 0u, 0u, false, 0u);
      }
      break;
    }
  }
  if (lane == 0u) {
    let before = atomicAdd(&status[5], steps);
    if (before + steps < before) {
      atomicAdd(&status[6], 1u);
    }
  }
}
