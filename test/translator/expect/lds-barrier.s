//! {"target":"gfx1030","wave64":false,"registers":{"vgprs":4,"sgprs":16,"rsrc2":{"lds_size":1}},"user_data":[{"buffer":{"address":"out","stride":4,"num_records":256,"add_tid_enable":0,"format":22,"dst_sel_x":"x","dst_sel_y":"y","dst_sel_z":"z","dst_sel_w":"w","resource_level":1,"oob_select":1}}],"thread_group":[64],"memory":[{"name":"out","address":805306368,"data":{"zeros":256}}]}
// s_barrier with LDS across two waves of 32: every thread writes its id * 3 to LDS, the waves
// meet at s_barrier (a wave there waits until both are), and every thread then reads the word of
// thread 63 - id, which the other wave wrote.
  v_lshlrev_b32 v1, 2, v0
  v_mul_u32_u24 v2, 3, v0
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_sub_nc_u32 v3, 63, v0
  v_lshlrev_b32 v3, 2, v3
  ds_read_b32 v2, v3
  s_waitcnt lgkmcnt(0)
  buffer_store_dword v2, v1, s[0:3], 0 offen
  s_endpgm
