//! {"target":"gfx900","registers":{"vgprs":4,"sgprs":16,"rsrc2":{"lds_size":1}},"user_data":[{"buffer":{"address":"out","stride":4,"num_records":128,"add_tid_enable":1,"data_format":0,"num_format":0,"dst_sel_x":"x","dst_sel_y":"y","dst_sel_z":"z","dst_sel_w":"w"}}],"thread_group":[128],"memory":[{"name":"out","address":805306368,"data":{"zeros":512}}]}
// Two waves of 64: each writes its first lane's id (v_readfirstlane: a sync point) to LDS, meets
// the other at s_barrier, and every lane stores the other wave's word (the wave's index is its
// first thread's id / 64).
  v_readfirstlane_b32 s8, v0
  s_lshr_b32 s5, s8, 6
  s_lshl_b32 s6, s5, 2
  v_mov_b32 v1, s6
  v_mov_b32 v2, s8
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  s_xor_b32 s7, s6, 4
  v_mov_b32 v1, s7
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s9, s5, 8
  buffer_store_dword v3, off, s[0:3], s9
  s_endpgm
