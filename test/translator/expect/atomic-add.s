//! {"target":"gfx1030","wave64":true,"registers":{"vgprs":4,"sgprs":16},"user_data":[{"pointer":"counter"}],"thread_group":[64],"memory":[{"name":"counter","address":805306368,"data":{"type":"u32","values":[5,0]}}]}
// Every lane adds its id + 1 to one word with a global atomic (a compare-and-swap loop in the
// memory service, its new value from the shared atomic rule); no return value is stored.
  v_add_nc_u32 v1, v0, 1
  v_mov_b32 v2, 0
  global_atomic_add v2, v1, s[0:1]
  s_endpgm
