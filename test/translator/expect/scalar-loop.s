//! {"target":"gfx1030","wave64":false,"registers":{"vgprs":4,"sgprs":16},"user_data":[{"buffer":{"address":"out","stride":4,"num_records":128,"add_tid_enable":1,"format":22,"dst_sel_x":"x","dst_sel_y":"y","dst_sel_z":"z","dst_sel_w":"w","resource_level":1,"oob_select":1}}],"thread_group":[32],"memory":[{"name":"out","address":805306368,"data":{"zeros":128}}]}
// A counted scalar loop (SALU, SCC, s_cbranch_scc1), then every lane stores the sum through a
// V# in user data (folded: the program never writes s[0:3]).
  s_mov_b32 s4, 0
  s_mov_b32 s5, 10
loop:
  s_add_u32 s4, s4, s5
  s_sub_u32 s5, s5, 1
  s_cmp_lg_u32 s5, 0
  s_cbranch_scc1 loop
  v_mov_b32 v1, s4
  buffer_store_dword v1, off, s[0:3], 0
  s_endpgm
