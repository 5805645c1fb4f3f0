/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TensorLoad (xtl) state of user tasks: 31 tile registers of 1 KiB (tl0 is
 * always zero) and CSRs 0x800..0x808, kept per task once the task uses TL.
 * See arch/riscv/kernel/xtl.c.
 */
#ifndef _ASM_RISCV_XTL_H
#define _ASM_RISCV_XTL_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>
#include <uapi/asm/xtl.h>

struct cpumask;
struct membuf;
struct pt_regs;
struct task_struct;
struct user_regset;

/* The saved state of a task; tl0 reads as zero and is not kept. */
struct riscv_xtl_ctx {
	u32 csr[RISCV_XTL_NUM_CSRS];
	u32 reserved[3];
	u8 reg[RISCV_XTL_NUM_REGS - 1][RISCV_XTL_REG_BYTES];
};

/* Size of the TL record in a signal frame: header and state. */
#define RISCV_XTL_SC_SIZE (8 + sizeof(struct __riscv_xtl_state))

#ifdef CONFIG_RISCV_ISA_XTL

DECLARE_STATIC_KEY_FALSE(riscv_xtl_enabled_key);

/* TL state is switched per task (the CPU has xtl and S-mode may use it). */
static __always_inline bool riscv_xtl_enabled(void)
{
	return static_branch_unlikely(&riscv_xtl_enabled_key);
}

void riscv_xtl_switch(struct task_struct *prev, struct task_struct *next);
void riscv_xtl_restore_current(void);
bool riscv_xtl_first_use_handler(struct pt_regs *regs);
void riscv_xtl_dup_task_struct(struct task_struct *dst);
int riscv_xtl_copy_thread(struct task_struct *p);
void riscv_xtl_release(struct task_struct *tsk);
void riscv_xtl_flush_thread(void);
size_t riscv_xtl_sc_size(bool cal_all);
long riscv_xtl_save_sigcontext(void __user **sc_ext_ptr);
long riscv_xtl_read_sigcontext(void __user *hdr, u32 size, struct riscv_xtl_ctx **ctx);
void riscv_xtl_install_sigcontext(struct riscv_xtl_ctx *ctx);
void riscv_xtl_free_sigcontext(struct riscv_xtl_ctx *ctx);
void riscv_xtl_restore_without_record(void);
unsigned long riscv_xtl_hwprobe(const struct cpumask *cpus);
int riscv_xtl_regset_active(struct task_struct *target, const struct user_regset *regset);
int riscv_xtl_regset_get(struct task_struct *target, const struct user_regset *regset,
			 struct membuf to);
int riscv_xtl_regset_set(struct task_struct *target, const struct user_regset *regset,
			 unsigned int pos, unsigned int count, const void *kbuf,
			 const void __user *ubuf);

#else /* !CONFIG_RISCV_ISA_XTL */

static __always_inline bool riscv_xtl_enabled(void) { return false; }
static inline void riscv_xtl_switch(struct task_struct *prev, struct task_struct *next) {}
static inline void riscv_xtl_restore_current(void) {}
static inline bool riscv_xtl_first_use_handler(struct pt_regs *regs) { return false; }
static inline void riscv_xtl_dup_task_struct(struct task_struct *dst) {}
static inline int riscv_xtl_copy_thread(struct task_struct *p) { return 0; }
static inline void riscv_xtl_release(struct task_struct *tsk) {}
static inline void riscv_xtl_flush_thread(void) {}
static inline size_t riscv_xtl_sc_size(bool cal_all) { return 0; }
static inline long riscv_xtl_save_sigcontext(void __user **sc_ext_ptr) { return 0; }
static inline long riscv_xtl_read_sigcontext(void __user *hdr, u32 size,
					    struct riscv_xtl_ctx **ctx) { return -EINVAL; }
static inline void riscv_xtl_install_sigcontext(struct riscv_xtl_ctx *ctx) {}
static inline void riscv_xtl_free_sigcontext(struct riscv_xtl_ctx *ctx) {}
static inline void riscv_xtl_restore_without_record(void) {}
static inline unsigned long riscv_xtl_hwprobe(const struct cpumask *cpus) { return 0; }

#endif /* CONFIG_RISCV_ISA_XTL */

#endif /* _ASM_RISCV_XTL_H */
