/*
 * TCG helpers of the TensorLoad (xtl) extension, included from
 * target/riscv/helper.h.  They may raise exceptions, so they must not be
 * NO_RWG (the GPRs have to be in env when an exception unwinds).
 */
/* The translated fast path's copies (checked inline), which cannot fault. */
DEF_HELPER_FLAGS_2(xtl_copy_whole_reg, TCG_CALL_NO_WG, void, ptr, ptr)
DEF_HELPER_FLAGS_3(xtl_load_host, TCG_CALL_NO_WG, void, env, i32, ptr)
DEF_HELPER_FLAGS_3(xtl_store_host, TCG_CALL_NO_WG, void, env, i32, ptr)
#ifdef CONFIG_USER_ONLY
/* The same for memory that is not all anonymous, which may raise SIGBUS. */
DEF_HELPER_FLAGS_3(xtl_load_host_touch, TCG_CALL_NO_WG, void, env, i32, ptr)
DEF_HELPER_FLAGS_3(xtl_store_host_touch, TCG_CALL_NO_WG, void, env, i32, ptr)
#endif
/* tl.load, tl.load, tl.xpose at once when they can complete without a trap: 1, else 0. */
DEF_HELPER_FLAGS_6(xtl_load_pair_xpose, TCG_CALL_NO_WG, i32, env, i32, i32, tl, tl, tl)
/* The same followed by tl.store of each of the two registers. */
DEF_HELPER_FLAGS_5(xtl_load_pair_xpose_store, TCG_CALL_NO_WG, i32, env, i32, i32, i32, i32)
/* The same five when the translated code found their common case (host addresses checked). */
DEF_HELPER_FLAGS_7(xtl_interleave_store, TCG_CALL_NO_WG, void, env, i32, i32, ptr, ptr, ptr, ptr)
/* After an inline write that changed a CSR of the plans (tl_mem_plan_from_cache); cannot raise. */
DEF_HELPER_FLAGS_1(xtl_plan_from_cache, TCG_CALL_NO_RWG, void, env)
DEF_HELPER_FLAGS_5(xtl_load, TCG_CALL_NO_WG, void, env, i32, i32, s32, tl)
DEF_HELPER_FLAGS_5(xtl_store, TCG_CALL_NO_WG, void, env, i32, i32, s32, tl)
DEF_HELPER_FLAGS_5(xtl_concat, TCG_CALL_NO_WG, void, env, i32, i32, i32, i32)
DEF_HELPER_FLAGS_5(xtl_merge, TCG_CALL_NO_WG, void, env, i32, i32, i32, i32)
DEF_HELPER_FLAGS_6(xtl_xpose, TCG_CALL_NO_WG, void, env, i32, i32, i32, i32, tl)
DEF_HELPER_FLAGS_4(xtl_addi, TCG_CALL_NO_WG, void, env, i32, i32, s32)
DEF_HELPER_FLAGS_4(xtl_muls, TCG_CALL_NO_WG, void, env, i32, i32, tl)
DEF_HELPER_FLAGS_4(xtl_fillpad, TCG_CALL_NO_WG, void, env, i32, i32, i32)
