//! {"target":"gfx1030","wave64":false,"registers":{"vgprs":4,"sgprs":16},"user_data":[{"buffer":{"address":"out","stride":4,"num_records":32,"add_tid_enable":1,"format":22,"dst_sel_x":"x","dst_sel_y":"y","dst_sel_z":"z","dst_sel_w":"w","resource_level":1,"oob_select":1}}],"thread_group":[32],"memory":[{"name":"out","address":805306368,"data":{"zeros":128}}]}
// A waterfall over a per-lane value (v1 = thread id & 3): v_readfirstlane takes the first active
// lane's value, v_cmp marks the lanes that share it (two sync points), s_and_saveexec runs them
// with that value as a scalar, and the loop goes on with the other lanes until EXEC is empty.
  v_and_b32 v1, 3, v0
  s_mov_b32 s8, exec_lo
again:
  v_readfirstlane_b32 s4, v1
  v_cmp_eq_u32 vcc_lo, s4, v1
  s_and_saveexec_b32 s5, vcc_lo
  s_mul_i32 s6, s4, 10
  v_mov_b32 v2, s6
  s_xor_b32 exec_lo, s5, exec_lo
  s_cbranch_execnz again
  s_mov_b32 exec_lo, s8
  buffer_store_dword v2, off, s[0:3], 0
  s_endpgm
