// gcn-webgpu translation (D011): 1 wave of 32 lanes a group
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

var<workgroup> xword: array<u32, 64>;
var<workgroup> xmask: array<atomic<u32>, 24>;
var<workgroup> wstate: array<u32, 1>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let lane = lid % 32u;
  let wave = lid / 32u;
  let group = params.group.xyz + wg;
  var scc: bool = false;
  var s4: u32 = 0u;
  var s5: u32 = 0u;
  var s126: u32 = 0xffffffffu;
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
    let xw = (superstep & 1u) * 32u + wave * 32u;
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
          // 0x10000000 s_mov_b32
          // 0x10000004 s_mov_b32
          s4 = 0x0u;
          s5 = 0xau;
          pc = 1u;
        }
        loop { // the loop at block 1
          if (steps > 100000000u) {
            fault(6u, steps, 0u, 0u, false, pc);
            live = false;
            halt = true;
            pc = pc | 0x40000000u;
          }
          if (halt) {
            break;
          }
          if (pc == 1u) { // 0x10000008
            ran = true;
            steps = steps + 4u;
            // 0x10000008 s_add_u32
            // 0x1000000c s_sub_u32
            // 0x10000010 s_cmp_lg_u32
            // 0x10000014 s_cbranch_scc1
            let b1_0_t7: u32 = (s5 - 0x1u);
            let b1_0_t9: bool = (b1_0_t7 != 0x0u);
            let b1_0_t3: u32 = (s4 + s5);
            s4 = b1_0_t3;
            s5 = b1_0_t7;
            scc = b1_0_t9;
            if (b1_0_t9) {
              pc = 1u;
            } else {
              pc = 2u;
            }
          }
          if (halt || !((pc == 1u))) {
            break;
          }
        }
        if (pc == 2u) { // 0x10000018
          ran = true;
          steps = steps + 3u;
          // 0x10000018 v_mov_b32
          // 0x1000001c buffer_store_dword
          let b2_0_t3: u32 = (lane & 0x1fu);
          let b2_0_t4: u32 = (s126 >> b2_0_t3);
          let b2_0_t6: u32 = (b2_0_t4 & 0x1u);
          let b2_0_t8: bool = (b2_0_t6 != 0x0u);
          let b2_0_t11: u32 = select(v1, s4, b2_0_t8);
          v1 = b2_0_t11;
          let b2_1_t3: u32 = (0x4u * lane);
          let b2_1_t5: u32 = (0x30000000u + b2_1_t3);
          let b2_1_t7: bool = (b2_1_t5 < 0x30000000u);
          let b2_1_t8: u32 = select(0u, 1u, b2_1_t7);
          let b2_1_t11: bool = (0x80u <= lane);
          let b2_1_t12: bool = (!b2_1_t11);
          let b2_1_t15: u32 = (lane & 0x1fu);
          let b2_1_t16: u32 = (s126 >> b2_1_t15);
          let b2_1_t18: u32 = (b2_1_t16 & 0x1u);
          let b2_1_t19: bool = (b2_1_t18 != 0x0u);
          let b2_1_t20: bool = (b2_1_t12 && b2_1_t19);
          let b2_1_t22: u32 = select(0x0u, 0x20u, b2_1_t20);
          let b2_1_t23: u32 = (0x104u | b2_1_t22);
          mq[0] = vec4<u32>(b2_1_t5, b2_1_t8, b2_1_t23, v1);
          mcount = 1u;
          // 0x10000024 s_endpgm
          mret = 3u;
          pc = 4294963200u;
        }
        if (pc == 3u) { // 0x10000028
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
