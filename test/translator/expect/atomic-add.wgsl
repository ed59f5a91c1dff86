// gcn-webgpu translation (D011): 1 wave of 64 lanes a group
// [the shared runtime: runtime.wgsl]
var<workgroup> lds: array<atomic<u32>, 1>;

fn atomic_new(kind: u32, old: u32, src: u32, cmp: u32) -> u32 {
  switch kind {
    case 2u: { // add
      let a0_t2: u32 = (old + src);
      return a0_t2;
    }
    default: {
      return old;
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
      if (kind >= 2u) {
        if ((o & 3u) != 0u) {
          fault(5u, lo, hi, 4u, true, 0u);
        } else {
          loop {
            let cur = atomicLoad(&mem[o >> 2u]);
            let x = atomicCompareExchangeWeak(&mem[o >> 2u], cur, atomic_new(kind, cur, value, cmp));
            if (x.exchanged) {
              r = cur;
              break;
            }
          }
        }
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
  var v2: u32 = 0u;
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
          steps = steps + 3u;
          // 0x10000000 v_add_nc_u32
          // 0x10000008 v_mov_b32
          // 0x1000000c global_atomic_add
          let b0_0_t2: bool = (lane < 0x20u);
          let b0_0_t5: u32 = select(s127, s126, b0_0_t2);
          let b0_0_t7: u32 = (lane & 0x1fu);
          let b0_0_t8: u32 = (b0_0_t5 >> b0_0_t7);
          let b0_0_t10: u32 = (b0_0_t8 & 0x1u);
          let b0_0_t12: bool = (b0_0_t10 != 0x0u);
          let b0_0_t15: u32 = (v0 + 0x1u);
          let b0_0_t18: u32 = select(v1, b0_0_t15, b0_0_t12);
          let b0_0_t20: u32 = select(v2, 0x0u, b0_0_t12);
          v1 = b0_0_t18;
          v2 = b0_0_t20;
          let b0_1_t3: u32 = (0x30000000u + v2);
          let b0_1_t5: bool = (b0_1_t3 < 0x30000000u);
          let b0_1_t6: u32 = select(0u, 1u, b0_1_t5);
          let b0_1_t10: bool = (lane < 0x20u);
          let b0_1_t13: u32 = select(s127, s126, b0_1_t10);
          let b0_1_t15: u32 = (lane & 0x1fu);
          let b0_1_t16: u32 = (b0_1_t13 >> b0_1_t15);
          let b0_1_t18: u32 = (b0_1_t16 & 0x1u);
          let b0_1_t19: bool = (b0_1_t18 != 0x0u);
          let b0_1_t20: u32 = select(0x0u, 0x20u, b0_1_t19);
          let b0_1_t21: u32 = (0x204u | b0_1_t20);
          mq[0] = vec4<u32>(b0_1_t3, b0_1_t6, b0_1_t21, v1);
          mcount = 1u;
          mret = 1u;
          pc = 4294963200u;
        }
        if (pc == 1u) { // 0x10000014
          ran = true;
          steps = steps + 1u;
          // 0x10000014 s_endpgm
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
