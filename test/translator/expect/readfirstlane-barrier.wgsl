// gcn-webgpu translation (D011): 2 waves of 64 lanes a group
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

var<workgroup> xword: array<u32, 256>;
var<workgroup> xmask: array<atomic<u32>, 48>;
var<workgroup> wstate: array<u32, 2>;

@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let lane = lid % 64u;
  let wave = lid / 64u;
  let group = params.group.xyz + wg;
  var scc: bool = false;
  var s5: u32 = 0u;
  var s6: u32 = 0u;
  var s7: u32 = 0u;
  var s8: u32 = 0u;
  var s9: u32 = 0u;
  var s124: u32 = 0u;
  var s126: u32 = 0xffffffffu;
  var s127: u32 = 0xffffffffu;
  var v0: u32 = select(0u, (lid % 128u), lid < 128u);
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
    let xw = (superstep & 1u) * 128u + wave * 64u;
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
          steps = steps + 1u;
          // 0x10000000 v_readfirstlane_b32
          xword[xw + lane] = v0;
          pc = 1073741825u;
          halt = true;
          sync = 1u;
        }
        if (pc == 1u) { // 0x10000004
          ran = true;
          steps = steps + 7u;
          // 0x10000004 s_lshr_b32
          // 0x10000008 s_lshl_b32
          // 0x1000000c v_mov_b32
          // 0x10000010 v_mov_b32
          // 0x10000014 ds_write_b32
          let b0_4_t3: u32 = (s8 >> 0x6u);
          let b0_4_t7: u32 = (b0_4_t3 << 0x2u);
          let b0_4_t8: bool = (b0_4_t7 != 0x0u);
          let b0_4_t11: bool = (lane < 0x20u);
          let b0_4_t14: u32 = select(s127, s126, b0_4_t11);
          let b0_4_t15: u32 = (lane & 0x1fu);
          let b0_4_t16: u32 = (b0_4_t14 >> b0_4_t15);
          let b0_4_t18: u32 = (b0_4_t16 & 0x1u);
          let b0_4_t19: bool = (b0_4_t18 != 0x0u);
          let b0_4_t21: u32 = select(v1, b0_4_t7, b0_4_t19);
          let b0_4_t23: u32 = select(v2, s8, b0_4_t19);
          s5 = b0_4_t3;
          s6 = b0_4_t7;
          scc = b0_4_t8;
          v1 = b0_4_t21;
          v2 = b0_4_t23;
          let b0_5_t4: bool = (0x1fcu < v1);
          let b0_5_t5: bool = (!b0_5_t4);
          let b0_5_t8: bool = (lane < 0x20u);
          let b0_5_t11: u32 = select(s127, s126, b0_5_t8);
          let b0_5_t13: u32 = (lane & 0x1fu);
          let b0_5_t14: u32 = (b0_5_t11 >> b0_5_t13);
          let b0_5_t16: u32 = (b0_5_t14 & 0x1u);
          let b0_5_t17: bool = (b0_5_t16 != 0x0u);
          let b0_5_t18: bool = (b0_5_t5 && b0_5_t17);
          let b0_5_t19: u32 = select(0x0u, 0x20u, b0_5_t18);
          let b0_5_t20: u32 = (0x114u | b0_5_t19);
          mq[0] = vec4<u32>(v1, 0x0u, b0_5_t20, v2);
          mcount = 1u;
          // 0x1000001c s_waitcnt
          // 0x10000020 s_barrier
          mret = 2u;
          pc = 4294963200u;
        }
        if (pc == 2u) { // 0x10000024
          ran = true;
          steps = steps + 0u;
          at_barrier = true;
          pc = 1073741827u;
          halt = true;
        }
        if (pc == 3u) { // 0x10000024
          ran = true;
          steps = steps + 3u;
          // 0x10000024 s_xor_b32
          // 0x10000028 v_mov_b32
          // 0x1000002c ds_read_b32
          let b0_8_t2: u32 = (s6 ^ 0x4u);
          let b0_8_t4: bool = (b0_8_t2 != 0x0u);
          let b0_8_t7: bool = (lane < 0x20u);
          let b0_8_t10: u32 = select(s127, s126, b0_8_t7);
          let b0_8_t12: u32 = (lane & 0x1fu);
          let b0_8_t13: u32 = (b0_8_t10 >> b0_8_t12);
          let b0_8_t15: u32 = (b0_8_t13 & 0x1u);
          let b0_8_t16: bool = (b0_8_t15 != 0x0u);
          let b0_8_t18: u32 = select(v1, b0_8_t2, b0_8_t16);
          s7 = b0_8_t2;
          scc = b0_8_t4;
          v1 = b0_8_t18;
          let b0_9_t2: bool = (lane < 0x20u);
          let b0_9_t5: u32 = select(s127, s126, b0_9_t2);
          let b0_9_t7: u32 = (lane & 0x1fu);
          let b0_9_t8: u32 = (b0_9_t5 >> b0_9_t7);
          let b0_9_t10: u32 = (b0_9_t8 & 0x1u);
          let b0_9_t12: bool = (b0_9_t10 != 0x0u);
          let b0_9_t19: bool = (0x1fcu < v1);
          let b0_9_t20: bool = (!b0_9_t19);
          let b0_9_t21: bool = (b0_9_t20 && b0_9_t12);
          let b0_9_t22: u32 = select(0x0u, 0x20u, b0_9_t21);
          let b0_9_t23: u32 = (0x14u | b0_9_t22);
          mq[0] = vec4<u32>(v1, 0x0u, b0_9_t23, 0x0u);
          mcount = 1u;
          mret = 4u;
          pc = 4294963200u;
        }
        if (pc == 4u) { // 0x10000034
          ran = true;
          steps = steps + 4u;
          let b0_9_t2: bool = (lane < 0x20u);
          let b0_9_t5: u32 = select(s127, s126, b0_9_t2);
          let b0_9_t7: u32 = (lane & 0x1fu);
          let b0_9_t8: u32 = (b0_9_t5 >> b0_9_t7);
          let b0_9_t10: u32 = (b0_9_t8 & 0x1u);
          let b0_9_t12: bool = (b0_9_t10 != 0x0u);
          let b0_9_t15: u32 = select(v3, mres[0], b0_9_t12);
          v3 = b0_9_t15;
          // 0x10000034 s_waitcnt
          // 0x10000038 s_lshl_b32
          // 0x1000003c buffer_store_dword
          let b0_10_t3: u32 = (s5 << 0x8u);
          let b0_10_t5: bool = (b0_10_t3 != 0x0u);
          s9 = b0_10_t3;
          scc = b0_10_t5;
          let b0_11_t4: u32 = (0x4u * lane);
          let b0_11_t5: u32 = (s9 + b0_11_t4);
          let b0_11_t7: u32 = (0x30000000u + b0_11_t5);
          let b0_11_t9: bool = (b0_11_t7 < 0x30000000u);
          let b0_11_t10: u32 = select(0u, 1u, b0_11_t9);
          let b0_11_t13: bool = (lane < 0x20u);
          let b0_11_t16: u32 = select(s127, s126, b0_11_t13);
          let b0_11_t18: u32 = (lane & 0x1fu);
          let b0_11_t19: u32 = (b0_11_t16 >> b0_11_t18);
          let b0_11_t21: u32 = (b0_11_t19 & 0x1u);
          let b0_11_t22: bool = (b0_11_t21 != 0x0u);
          let b0_11_t23: u32 = select(0x0u, 0x20u, b0_11_t22);
          let b0_11_t24: u32 = (0x104u | b0_11_t23);
          mq[0] = vec4<u32>(b0_11_t7, b0_11_t10, b0_11_t24, v3);
          mcount = 1u;
          // 0x10000044 s_endpgm
          mret = 5u;
          pc = 4294963200u;
        }
        if (pc == 5u) { // 0x10000048
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
          case 1u: {
            let b0_2_t2: bool = (s126 == 0x0u);
            let b0_2_t4: bool = (s127 == 0x0u);
            let b0_2_t6: u32 = countTrailingZeros(s127);
            let b0_2_t7: u32 = select(b0_2_t6, 0xffffffffu, b0_2_t4);
            let b0_2_t9: u32 = (b0_2_t7 + 0x20u);
            let b0_2_t10: u32 = select(b0_2_t9, 0x0u, b0_2_t4);
            let b0_2_t11: u32 = countTrailingZeros(s126);
            let b0_2_t12: u32 = select(b0_2_t11, 0xffffffffu, b0_2_t2);
            let b0_2_t13: u32 = select(b0_2_t12, b0_2_t10, b0_2_t2);
            let b0_2_x0: u32 = xword[xw + (b0_2_t13 & 63u)];
            s8 = b0_2_x0;
          }
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
