// gcn-webgpu translation (D011): 1 wave of 64 lanes a group
// [the shared runtime: runtime.wgsl]
var<workgroup> lds: array<atomic<u32>, 1>;

fn atomic_new(kind: u32, old: u32, src: u32, cmp: u32) -> u32 {
  switch kind {

    default: {
      return old;
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
    let o = guest_offset(lo, hi, n, kind != 0u);
    if (o != NO_RANGE) {
      if (kind == 1u) {
        mem_put(o, n, value);
      }
    }
  }
  return r;
}

var<workgroup> xword: array<u32, 128>;
var<workgroup> xmask: array<atomic<u32>, 24>;
var<workgroup> wstate: array<u32, 1>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let lane = lid % 64u;
  let wave = lid / 64u;
  let group = params.group.xyz + wg;
  var s126: u32 = 0xffffffffu;
  var s127: u32 = 0xffffffffu;
  var v0: u32 = select(0u, (lid % 64u), lid < 64u);
  var v1: u32 = 0u;
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
    let xm = (part * 1u + wave) * 8u;
    let xw = (superstep & 1u) * 64u + wave * 64u;
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
          steps = steps + 2u;
          // 0x10000000 v_mov_b32
          // 0x10000004 v_add_u32
          let b0_0_t2: bool = (lane < 0x20u);
          let b0_0_t5: u32 = select(s127, s126, b0_0_t2);
          let b0_0_t7: u32 = (lane & 0x1fu);
          let b0_0_t8: u32 = (b0_0_t5 >> b0_0_t7);
          let b0_0_t10: u32 = (b0_0_t8 & 0x1u);
          let b0_0_t12: bool = (b0_0_t10 != 0x0u);
          let b0_0_t15: u32 = select(v1, v0, b0_0_t12);
          v1 = b0_0_t15;
          xword[xw + lane] = v1;
          pc = 1073741825u;
          halt = true;
          sync = 1u;
        }
        if (pc == 1u) { // 0x1000000c
          ran = true;
          steps = steps + 1u;
          // 0x1000000c v_add_u32
          xword[xw + lane] = v1;
          pc = 1073741826u;
          halt = true;
          sync = 2u;
        }
        if (pc == 2u) { // 0x10000014
          ran = true;
          steps = steps + 1u;
          // 0x10000014 v_add_u32
          xword[xw + lane] = v1;
          pc = 1073741827u;
          halt = true;
          sync = 3u;
        }
        if (pc == 3u) { // 0x1000001c
          ran = true;
          steps = steps + 2u;
          // 0x1000001c v_nop
          // 0x10000020 v_add_u32
          xword[xw + lane] = v1;
          pc = 1073741828u;
          halt = true;
          sync = 4u;
        }
        if (pc == 4u) { // 0x10000028
          ran = true;
          steps = steps + 2u;
          // 0x10000028 v_nop
          // 0x1000002c v_add_u32
          xword[xw + lane] = v1;
          pc = 1073741829u;
          halt = true;
          sync = 5u;
        }
        if (pc == 5u) { // 0x10000034
          ran = true;
          steps = steps + 2u;
          // 0x10000034 buffer_store_dword
          let b0_21_t3: u32 = (0x4u * lane);
          let b0_21_t5: u32 = (0x30000000u + b0_21_t3);
          let b0_21_t7: bool = (b0_21_t5 < 0x30000000u);
          let b0_21_t8: u32 = select(0u, 1u, b0_21_t7);
          let b0_21_t11: bool = (lane < 0x20u);
          let b0_21_t14: u32 = select(s127, s126, b0_21_t11);
          let b0_21_t16: u32 = (lane & 0x1fu);
          let b0_21_t17: u32 = (b0_21_t14 >> b0_21_t16);
          let b0_21_t19: u32 = (b0_21_t17 & 0x1u);
          let b0_21_t20: bool = (b0_21_t19 != 0x0u);
          let b0_21_t21: u32 = select(0x0u, 0x20u, b0_21_t20);
          let b0_21_t22: u32 = (0x104u | b0_21_t21);
          mq[0] = vec4<u32>(b0_21_t5, b0_21_t8, b0_21_t22, v1);
          mcount = 1u;
          // 0x1000003c s_endpgm
          mret = 6u;
          pc = 4294963200u;
        }
        if (pc == 6u) { // 0x10000040
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
    for (var w = 0u; w < 1u; w++) {
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
            var b0_2_dpps0 = array<u32, 64>(4294967295u, 0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 4294967295u, 16u, 17u, 18u, 19u, 20u, 21u, 22u, 23u, 24u, 25u, 26u, 27u, 28u, 29u, 30u, 4294967295u, 32u, 33u, 34u, 35u, 36u, 37u, 38u, 39u, 40u, 41u, 42u, 43u, 44u, 45u, 46u, 4294967295u, 48u, 49u, 50u, 51u, 52u, 53u, 54u, 55u, 56u, 57u, 58u, 59u, 60u, 61u, 62u);
            var b0_2_dppw1 = array<u32, 64>(1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u);
            let b0_2_m2: u32 = b0_2_dpps0[lane];
            let b0_2_t2: bool = (b0_2_m2 != 0xffffffffu);
            let b0_2_t4: u32 = select(0x0u, b0_2_m2, b0_2_t2);
            let b0_2_x3: u32 = xword[xw + (b0_2_t4 & 63u)];
            let b0_2_m4: u32 = b0_2_dppw1[lane];
            let b0_2_t7: bool = (lane < 0x20u);
            let b0_2_t10: u32 = select(s127, s126, b0_2_t7);
            let b0_2_t12: u32 = (lane & 0x1fu);
            let b0_2_t13: u32 = (b0_2_t10 >> b0_2_t12);
            let b0_2_t15: u32 = (b0_2_t13 & 0x1u);
            let b0_2_t16: bool = (b0_2_t15 != 0x0u);
            let b0_2_t18: bool = (b0_2_m4 != 0x0u);
            let b0_2_t19: bool = (b0_2_t16 && b0_2_t18);
            let b0_2_t20: bool = (b0_2_t4 < 0x20u);
            let b0_2_t21: u32 = select(s127, s126, b0_2_t20);
            let b0_2_t22: u32 = (b0_2_t4 & 0x1fu);
            let b0_2_t23: u32 = (b0_2_t21 >> b0_2_t22);
            let b0_2_t24: u32 = (b0_2_t23 & 0x1u);
            let b0_2_t25: bool = (b0_2_t24 != 0x0u);
            let b0_2_t26: bool = (b0_2_t2 && b0_2_t25);
            let b0_2_t28: u32 = select(0x0u, b0_2_x3, b0_2_t26);
            let b0_2_t31: u32 = (b0_2_t28 + v1);
            let b0_2_t33: u32 = select(v1, b0_2_t31, b0_2_t19);
            v1 = b0_2_t33;
          }
          case 2u: {
            var b0_6_dpps0 = array<u32, 64>(4294967295u, 4294967295u, 0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 4294967295u, 4294967295u, 16u, 17u, 18u, 19u, 20u, 21u, 22u, 23u, 24u, 25u, 26u, 27u, 28u, 29u, 4294967295u, 4294967295u, 32u, 33u, 34u, 35u, 36u, 37u, 38u, 39u, 40u, 41u, 42u, 43u, 44u, 45u, 4294967295u, 4294967295u, 48u, 49u, 50u, 51u, 52u, 53u, 54u, 55u, 56u, 57u, 58u, 59u, 60u, 61u);
            var b0_6_dppw1 = array<u32, 64>(1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u);
            let b0_6_m2: u32 = b0_6_dpps0[lane];
            let b0_6_t2: bool = (b0_6_m2 != 0xffffffffu);
            let b0_6_t4: u32 = select(0x0u, b0_6_m2, b0_6_t2);
            let b0_6_x3: u32 = xword[xw + (b0_6_t4 & 63u)];
            let b0_6_m4: u32 = b0_6_dppw1[lane];
            let b0_6_t7: bool = (lane < 0x20u);
            let b0_6_t10: u32 = select(s127, s126, b0_6_t7);
            let b0_6_t12: u32 = (lane & 0x1fu);
            let b0_6_t13: u32 = (b0_6_t10 >> b0_6_t12);
            let b0_6_t15: u32 = (b0_6_t13 & 0x1u);
            let b0_6_t16: bool = (b0_6_t15 != 0x0u);
            let b0_6_t18: bool = (b0_6_m4 != 0x0u);
            let b0_6_t19: bool = (b0_6_t16 && b0_6_t18);
            let b0_6_t20: bool = (b0_6_t4 < 0x20u);
            let b0_6_t21: u32 = select(s127, s126, b0_6_t20);
            let b0_6_t22: u32 = (b0_6_t4 & 0x1fu);
            let b0_6_t23: u32 = (b0_6_t21 >> b0_6_t22);
            let b0_6_t24: u32 = (b0_6_t23 & 0x1u);
            let b0_6_t25: bool = (b0_6_t24 != 0x0u);
            let b0_6_t26: bool = (b0_6_t2 && b0_6_t25);
            let b0_6_t28: u32 = select(0x0u, b0_6_x3, b0_6_t26);
            let b0_6_t31: u32 = (b0_6_t28 + v1);
            let b0_6_t33: u32 = select(v1, b0_6_t31, b0_6_t19);
            v1 = b0_6_t33;
          }
          case 3u: {
            var b0_10_dpps0 = array<u32, 64>(4294967295u, 4294967295u, 4294967295u, 0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 4294967295u, 4294967295u, 4294967295u, 16u, 17u, 18u, 19u, 20u, 21u, 22u, 23u, 24u, 25u, 26u, 27u, 28u, 4294967295u, 4294967295u, 4294967295u, 32u, 33u, 34u, 35u, 36u, 37u, 38u, 39u, 40u, 41u, 42u, 43u, 44u, 4294967295u, 4294967295u, 4294967295u, 48u, 49u, 50u, 51u, 52u, 53u, 54u, 55u, 56u, 57u, 58u, 59u, 60u);
            var b0_10_dppw1 = array<u32, 64>(1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u);
            let b0_10_m2: u32 = b0_10_dpps0[lane];
            let b0_10_t2: bool = (b0_10_m2 != 0xffffffffu);
            let b0_10_t4: u32 = select(0x0u, b0_10_m2, b0_10_t2);
            let b0_10_x3: u32 = xword[xw + (b0_10_t4 & 63u)];
            let b0_10_m4: u32 = b0_10_dppw1[lane];
            let b0_10_t7: bool = (lane < 0x20u);
            let b0_10_t10: u32 = select(s127, s126, b0_10_t7);
            let b0_10_t12: u32 = (lane & 0x1fu);
            let b0_10_t13: u32 = (b0_10_t10 >> b0_10_t12);
            let b0_10_t15: u32 = (b0_10_t13 & 0x1u);
            let b0_10_t16: bool = (b0_10_t15 != 0x0u);
            let b0_10_t18: bool = (b0_10_m4 != 0x0u);
            let b0_10_t19: bool = (b0_10_t16 && b0_10_t18);
            let b0_10_t20: bool = (b0_10_t4 < 0x20u);
            let b0_10_t21: u32 = select(s127, s126, b0_10_t20);
            let b0_10_t22: u32 = (b0_10_t4 & 0x1fu);
            let b0_10_t23: u32 = (b0_10_t21 >> b0_10_t22);
            let b0_10_t24: u32 = (b0_10_t23 & 0x1u);
            let b0_10_t25: bool = (b0_10_t24 != 0x0u);
            let b0_10_t26: bool = (b0_10_t2 && b0_10_t25);
            let b0_10_t28: u32 = select(0x0u, b0_10_x3, b0_10_t26);
            let b0_10_t31: u32 = (b0_10_t28 + v1);
            let b0_10_t33: u32 = select(v1, b0_10_t31, b0_10_t19);
            v1 = b0_10_t33;
          }
          case 4u: {
            var b0_14_dpps0 = array<u32, 64>(4294967295u, 4294967295u, 4294967295u, 4294967295u, 0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 16u, 17u, 18u, 19u, 20u, 21u, 22u, 23u, 24u, 25u, 26u, 27u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 32u, 33u, 34u, 35u, 36u, 37u, 38u, 39u, 40u, 41u, 42u, 43u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 48u, 49u, 50u, 51u, 52u, 53u, 54u, 55u, 56u, 57u, 58u, 59u);
            var b0_14_dppw1 = array<u32, 64>(0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u);
            let b0_14_m2: u32 = b0_14_dpps0[lane];
            let b0_14_t2: bool = (b0_14_m2 != 0xffffffffu);
            let b0_14_t4: u32 = select(0x0u, b0_14_m2, b0_14_t2);
            let b0_14_x3: u32 = xword[xw + (b0_14_t4 & 63u)];
            let b0_14_m4: u32 = b0_14_dppw1[lane];
            let b0_14_t7: bool = (lane < 0x20u);
            let b0_14_t10: u32 = select(s127, s126, b0_14_t7);
            let b0_14_t12: u32 = (lane & 0x1fu);
            let b0_14_t13: u32 = (b0_14_t10 >> b0_14_t12);
            let b0_14_t15: u32 = (b0_14_t13 & 0x1u);
            let b0_14_t16: bool = (b0_14_t15 != 0x0u);
            let b0_14_t18: bool = (b0_14_m4 != 0x0u);
            let b0_14_t19: bool = (b0_14_t4 < 0x20u);
            let b0_14_t20: u32 = select(s127, s126, b0_14_t19);
            let b0_14_t21: u32 = (b0_14_t4 & 0x1fu);
            let b0_14_t22: u32 = (b0_14_t20 >> b0_14_t21);
            let b0_14_t23: u32 = (b0_14_t22 & 0x1u);
            let b0_14_t24: bool = (b0_14_t23 != 0x0u);
            let b0_14_t25: bool = (b0_14_t2 && b0_14_t24);
            let b0_14_t26: bool = (b0_14_t18 && b0_14_t25);
            let b0_14_t27: bool = (b0_14_t16 && b0_14_t26);
            let b0_14_t29: u32 = select(0x0u, b0_14_x3, b0_14_t25);
            let b0_14_t32: u32 = (b0_14_t29 + v1);
            let b0_14_t34: u32 = select(v1, b0_14_t32, b0_14_t27);
            v1 = b0_14_t34;
          }
          case 5u: {
            var b0_18_dpps0 = array<u32, 64>(4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 16u, 17u, 18u, 19u, 20u, 21u, 22u, 23u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 32u, 33u, 34u, 35u, 36u, 37u, 38u, 39u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 48u, 49u, 50u, 51u, 52u, 53u, 54u, 55u);
            var b0_18_dppw1 = array<u32, 64>(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u);
            let b0_18_m2: u32 = b0_18_dpps0[lane];
            let b0_18_t2: bool = (b0_18_m2 != 0xffffffffu);
            let b0_18_t4: u32 = select(0x0u, b0_18_m2, b0_18_t2);
            let b0_18_x3: u32 = xword[xw + (b0_18_t4 & 63u)];
            let b0_18_m4: u32 = b0_18_dppw1[lane];
            let b0_18_t7: bool = (lane < 0x20u);
            let b0_18_t10: u32 = select(s127, s126, b0_18_t7);
            let b0_18_t12: u32 = (lane & 0x1fu);
            let b0_18_t13: u32 = (b0_18_t10 >> b0_18_t12);
            let b0_18_t15: u32 = (b0_18_t13 & 0x1u);
            let b0_18_t16: bool = (b0_18_t15 != 0x0u);
            let b0_18_t18: bool = (b0_18_m4 != 0x0u);
            let b0_18_t19: bool = (b0_18_t4 < 0x20u);
            let b0_18_t20: u32 = select(s127, s126, b0_18_t19);
            let b0_18_t21: u32 = (b0_18_t4 & 0x1fu);
            let b0_18_t22: u32 = (b0_18_t20 >> b0_18_t21);
            let b0_18_t23: u32 = (b0_18_t22 & 0x1u);
            let b0_18_t24: bool = (b0_18_t23 != 0x0u);
            let b0_18_t25: bool = (b0_18_t2 && b0_18_t24);
            let b0_18_t26: bool = (b0_18_t18 && b0_18_t25);
            let b0_18_t27: bool = (b0_18_t16 && b0_18_t26);
            let b0_18_t29: u32 = select(0x0u, b0_18_x3, b0_18_t25);
            let b0_18_t32: u32 = (b0_18_t29 + v1);
            let b0_18_t34: u32 = select(v1, b0_18_t32, b0_18_t27);
            v1 = b0_18_t34;
          }
          default: {}
        }
        sync = 0u;
      }
    }
    if (lane == 0u) {
      for (var k = 0u; k < 8u; k++) {
        atomicStore(&xmask[(((superstep + 2u) % 3u) * 1u + wave) * 8u + k], 0u);
      }
    }
    superstep = superstep + 1u;
    if (live_waves == 0u) {
      break;
    }
    if (superstep >= 100000003u) {
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
