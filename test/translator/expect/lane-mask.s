//! {"target":"gfx1030","wave64":false,"registers":{"vgprs":4,"sgprs":16},"user_data":[{"buffer":{"address":"out","stride":4,"num_records":128,"add_tid_enable":1,"format":22,"dst_sel_x":"x","dst_sel_y":"y","dst_sel_z":"z","dst_sel_w":"w","resource_level":1,"oob_select":1}}],"thread_group":[32],"memory":[{"name":"out","address":805306368,"data":{"zeros":128}}]}
// A lane-mask write (v_cmp: held as each lane's own bit), a select on it (read per lane, in the
// same block), and a branch on the mask under a narrowed EXEC (s_and_saveexec reads it whole:
// the wave's bits meet in the exchange first, a sync point).
  v_cmp_gt_u32 vcc_lo, 12, v0
  v_cndmask_b32 v1, 7, v0, vcc_lo
  s_and_saveexec_b32 s4, vcc_lo
  s_cbranch_execz skip
  v_add_nc_u32 v1, v1, 100
skip:
  s_mov_b32 exec_lo, s4
  buffer_store_dword v1, off, s[0:3], 0
  s_endpgm
