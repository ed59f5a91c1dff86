//! {"target":"gfx1030","wave64":false,"registers":{"vgprs":4,"sgprs":16},"user_data":[{"buffer":{"address":"out","stride":4,"num_records":128,"add_tid_enable":1,"format":22,"dst_sel_x":"x","dst_sel_y":"y","dst_sel_z":"z","dst_sel_w":"w","resource_level":1,"oob_select":1}}],"thread_group":[32],"memory":[{"name":"out","address":805306368,"data":{"zeros":128}}]}
// A cycle entered in two places (first and second), which no natural loop holds: the block graph
// is not reducible, so the module runs its blocks through the dispatcher (`switch pc`, D028)
// instead of in run order. Every lane stores 4 * lane + 3.
  s_mov_b32 s4, 0
  s_mov_b32 s5, 5
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s5, 5
  s_cbranch_scc1 second
first:
  v_add_nc_u32 v1, v1, 1
  s_add_u32 s4, s4, 1
second:
  v_add_nc_u32 v1, v1, v0
  s_cmp_lt_u32 s4, 3
  s_cbranch_scc1 first
  buffer_store_dword v1, off, s[0:3], 0
  s_endpgm
