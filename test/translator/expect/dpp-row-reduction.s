//! {"target":"gfx900","registers":{"vgprs":4,"sgprs":16},"user_data":[{"buffer":{"address":"out","stride":4,"num_records":64,"add_tid_enable":1,"data_format":0,"num_format":0,"dst_sel_x":"x","dst_sel_y":"y","dst_sel_z":"z","dst_sel_w":"w"}}],"thread_group":[64],"memory":[{"name":"out","address":805306368,"data":{"zeros":256}}]}
// A DPP row reduction (each DPP move a sync point: the source VGPR meets in the exchange, each
// lane reads the lane its row_shr names, the row and bank masks gate the writes): after the
// shifts by 1, 2, 3, 4 and 8, lane 15 of every row holds its row's sum of thread ids.
  v_mov_b32 v1, v0
  v_add_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  v_add_u32_dpp v1, v1, v1 row_shr:2 row_mask:0xf bank_mask:0xf bound_ctrl:0
  v_add_u32_dpp v1, v1, v1 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:0
  v_nop
  v_add_u32_dpp v1, v1, v1 row_shr:4 row_mask:0xf bank_mask:0xe
  v_nop
  v_add_u32_dpp v1, v1, v1 row_shr:8 row_mask:0xf bank_mask:0xc
  buffer_store_dword v1, off, s[0:3], 0
  s_endpgm
