// SPDX-License-Identifier: GPL-2.0-only
/*
 * TensorLoad (xtl): per-task TL state, modelled on the vector support.
 *
 * A task's TL state lives in a riscv_xtl_ctx once the task uses TL; a task
 * without one has none and pays nothing.  Two modes, chosen at boot:
 *
 *  lazy   (the harts have Smstateen): sstateen0.C is 0 while a task without
 *         TL state runs, so its first TL instruction or TL CSR access traps
 *         as illegal; riscv_xtl_first_use_handler() then gives the task a
 *         state at reset values and the instruction is retried.
 *  eager  (no Smstateen, first use cannot trap): every user task gets a
 *         state at exec, so every user task keeps its own TL state.
 *
 * A task's TL state is "in use" (thread.xtl_in_use, until exec, inherited
 * by fork and clone) from its first TL access in lazy mode; in eager mode,
 * once the state is found to differ from the reset state.  Only then do its
 * signal frames carry the TL record and does ptrace or a core dump show it,
 * so that a program that never uses TL sees the frames Linux writes
 * without TL (docs/abi.md).
 *
 * The hardware registers hold the state of at most one task per hart.  At a
 * switch the outgoing task's state is saved; the incoming task's is
 * restored on its way back to user mode (TIF_RISCV_XTL_RESTORE), unless the
 * hart still holds exactly that state (xtl_hw_task and thread.xtl_hw_cpu
 * agree).  The kernel invalidates that pairing before it changes a saved
 * state (signal return, ptrace, exec).
 *
 * A hart that goes offline, or loses its state in a non-retentive suspend,
 * holds no task's state when it comes back (CPU hotplug and CPU PM hooks,
 * as arm64 does for FPSIMD/SME).
 *
 * The state is 32 KiB: it is allocated with kvmalloc(), so a fragmented
 * memory falls back to vmalloc() instead of failing an order-3 allocation
 * (a failed allocation at the first TL access is a SIGBUS).
 *
 * Save and restore follow the exact sequences of the ISA (docs/isa.md 2.6):
 * every register moved as one contiguous 1024-byte int8 block, the CSRs
 * written back before tinit, which makes uninitialized CSRs so again.
 */

#define pr_fmt(fmt) "xtl: " fmt

#include <linux/build_bug.h>
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/regset.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <asm/asm-extable.h>
#include <asm/cpufeature.h>
#include <asm/csr.h>
#include <asm/ptrace.h>
#include <asm/sigcontext.h>
#include <asm/xtl.h>
#include <asm/xtl-opc.h>

DEFINE_STATIC_KEY_FALSE(riscv_xtl_enabled_key);

static bool xtl_lazy __ro_after_init;

/* Task whose state the hart's TL registers hold (compared, never followed). */
static DEFINE_PER_CPU(struct task_struct *, xtl_hw_task);
/*
 * Whether sstateen0.C is set on this hart (lazy mode): 1 or 0, or -1 when
 * unknown (at boot, after hotplug or suspend), so that the next switch
 * writes the bit whatever the hart's reset value.
 */
static DEFINE_PER_CPU(int, xtl_user_access) = -1;

/*
 * ---- instruction words, base address in t0 ----
 * Encodings, CSR numbers and writable bits come from asm/xtl-opc.h, generated
 * from TL-QEMU's opcode table (docs/isa.md sections 2 and 4).
 */

#define XTL_GPR_T0		5
#define XTL_LOAD_WORD(n)	(MATCH_TL_LOAD | XTL_INSERT(ENG, XTL_ENG_LOAD) |		\
				 XTL_INSERT(MEM_TLR, n) | XTL_INSERT(MEM_RS1, XTL_GPR_T0))
#define XTL_STORE_WORD(n)	(MATCH_TL_STORE | XTL_INSERT(ENG, XTL_ENG_STORE) |		\
				 XTL_INSERT(MEM_TLR, n) | XTL_INSERT(MEM_RS1, XTL_GPR_T0))

/*
 * The word as the fields of ".insn r" (opcode, funct3, funct7, then the 5-bit
 * fields at [11:7], [19:15] and [24:20] as registers), which GNU as and
 * LLVM's integrated assembler both accept.
 */
#define XTL_MEM_INSN(word, ptr)							\
do {										\
	register const void *__xtl_base asm("t0") = (ptr);			\
	asm volatile(".insn r %1, %2, %3, x%4, x%5, x%6"			\
		     : : "r"(__xtl_base),						\
		       "n"((word) & 0x7f), "n"(((word) >> 12) & 0x7),		\
		       "n"(((word) >> 25) & 0x7f), "n"(((word) >> 7) & 0x1f),	\
		       "n"(((word) >> 15) & 0x1f), "n"(((word) >> 20) & 0x1f)	\
		     : "memory");						\
} while (0)

#define XTL_FOR_EACH_REG(X)							\
	X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)	\
	X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24)	\
	X(25) X(26) X(27) X(28) X(29) X(30) X(31)

#define XTL_TTYPE_INT8		0x002
/* sstateen0 bit C: custom state (TL) accessible from U-mode */
#define XTL_SSTATEEN0_C		BIT(0)

/* c->csr[i] is CSR 0x800 + i, in the order of XTL_CSRS. */
static_assert(XTL_NUM_CSRS == RISCV_XTL_NUM_CSRS);
static_assert(XTL_CSR_TINIT - XTL_CSR_TTYPE == RISCV_XTL_NUM_CSRS - 1);

#define XTL_CSR_WMASK(sym, name, num, wmask, reset)	wmask,
static const u32 xtl_csr_writable[RISCV_XTL_NUM_CSRS] = { XTL_CSRS(XTL_CSR_WMASK) };
#undef XTL_CSR_WMASK
#define XTL_CSR_RESET(sym, name, num, wmask, reset)	reset,
static const u32 xtl_csr_reset[RISCV_XTL_NUM_CSRS] = { XTL_CSRS(XTL_CSR_RESET) };
#undef XTL_CSR_RESET

/* Whole registers as one contiguous int8 block [4,16,16], width = pitch = 256. */
static __always_inline void xtl_hw_whole_register_view(void)
{
	csr_write(XTL_CSR_TTYPE, XTL_TTYPE_INT8);
	csr_write(XTL_CSR_TSHAPE, 0x041010);
	csr_write(XTL_CSR_TMASK_LOAD_WIDTH, 256);
	csr_write(XTL_CSR_TMASK_LOAD_STRIDE, 256);
}

static void xtl_hw_write_csrs(const struct riscv_xtl_ctx *c)
{
	csr_write(XTL_CSR_TTYPE, c->csr[0]);
	csr_write(XTL_CSR_TSHAPE, c->csr[1]);
	csr_write(XTL_CSR_TMASK_LS, c->csr[2]);
	csr_write(XTL_CSR_TMASK_CONCAT_1, c->csr[3]);
	csr_write(XTL_CSR_TMASK_CONCAT_2, c->csr[4]);
	csr_write(XTL_CSR_TMASK_LOAD_STRIDE, c->csr[5]);
	csr_write(XTL_CSR_TMASK_LOAD_WIDTH, c->csr[6]);
	csr_write(XTL_CSR_TVALID, c->csr[7]);
	csr_write(XTL_CSR_TINIT, c->csr[8]);	/* last: clears the uninitialized ones */
}

/* Leaves the hardware as it was: the CSRs the sequence changes are written back. */
static void xtl_hw_save(struct riscv_xtl_ctx *c)
{
	c->csr[0] = csr_read(XTL_CSR_TTYPE);
	c->csr[1] = csr_read(XTL_CSR_TSHAPE);
	c->csr[2] = csr_read(XTL_CSR_TMASK_LS);
	c->csr[3] = csr_read(XTL_CSR_TMASK_CONCAT_1);
	c->csr[4] = csr_read(XTL_CSR_TMASK_CONCAT_2);
	c->csr[5] = csr_read(XTL_CSR_TMASK_LOAD_STRIDE);
	c->csr[6] = csr_read(XTL_CSR_TMASK_LOAD_WIDTH);
	c->csr[7] = csr_read(XTL_CSR_TVALID);
	c->csr[8] = csr_read(XTL_CSR_TINIT);
	xtl_hw_whole_register_view();
#define XTL_SAVE_REG(n) XTL_MEM_INSN(XTL_STORE_WORD(n), c->reg[(n) - 1]);
	XTL_FOR_EACH_REG(XTL_SAVE_REG)
#undef XTL_SAVE_REG
	xtl_hw_write_csrs(c);
}

static void xtl_hw_restore(const struct riscv_xtl_ctx *c)
{
	xtl_hw_whole_register_view();
#define XTL_RESTORE_REG(n) XTL_MEM_INSN(XTL_LOAD_WORD(n), c->reg[(n) - 1]);
	XTL_FOR_EACH_REG(XTL_RESTORE_REG)
#undef XTL_RESTORE_REG
	xtl_hw_write_csrs(c);
}

/* Lazy mode: lets user mode reach TL (sstateen0.C) or makes it trap. */
static void xtl_set_user_access(bool on)
{
	if (!xtl_lazy || this_cpu_read(xtl_user_access) == (int)on)
		return;
	if (on)
		csr_set(CSR_SSTATEEN0, XTL_SSTATEEN0_C);
	else
		csr_clear(CSR_SSTATEEN0, XTL_SSTATEEN0_C);
	this_cpu_write(xtl_user_access, on);
}

/* ---- saved states ---- */

static void xtl_ctx_reset(struct riscv_xtl_ctx *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->csr, xtl_csr_reset, sizeof(c->csr));
}

/* What the restore sequence would leave: writable bits, uninitialized CSRs 0. */
static void xtl_ctx_sanitize(struct riscv_xtl_ctx *c)
{
	int i;

	c->csr[8] = (c->csr[8] & xtl_csr_writable[8]) | XTL_CSR_TINIT_RESET;
	for (i = 0; i < 8; i++) {
		c->csr[i] &= xtl_csr_writable[i];
		if (!(c->csr[8] & BIT(i)))
			c->csr[i] = 0;
	}
	memset(c->reserved, 0, sizeof(c->reserved));
}

static struct riscv_xtl_ctx *xtl_ctx_alloc_raw(void)
{
	return kvmalloc(sizeof(struct riscv_xtl_ctx), GFP_KERNEL_ACCOUNT);
}

static struct riscv_xtl_ctx *xtl_ctx_alloc(void)
{
	struct riscv_xtl_ctx *c = xtl_ctx_alloc_raw();

	if (c)
		xtl_ctx_reset(c);
	return c;
}

static bool xtl_ctx_is_reset(const struct riscv_xtl_ctx *c)
{
	return !memcmp(c->csr, xtl_csr_reset, sizeof(xtl_csr_reset)) &&
	       !memchr_inv(c->reg, 0, sizeof(c->reg));
}

static bool xtl_hw_holds(struct task_struct *t, int cpu)
{
	return per_cpu(xtl_hw_task, cpu) == t && READ_ONCE(t->thread.xtl_hw_cpu) == cpu;
}

/* Makes current's saved state up to date (its live state may be newer). */
static void xtl_flush_current(void)
{
	preempt_disable();
	if (current->thread.xtl_ctx && xtl_hw_holds(current, smp_processor_id()))
		xtl_hw_save(current->thread.xtl_ctx);
	preempt_enable();
}

/*
 * Waits until t (not current) is off its hart, so that the state it had
 * there is saved (the switch saves it before finish_task() clears on_cpu).
 * A tracee is off already; a thread of a core dump may still be on its way
 * to schedule() when the dump reads it, since wait_task_inactive() returns
 * at once for a task still TASK_RUNNING.  Bounded, so that a task that
 * never leaves its hart cannot hang the reader: it gets the state saved last.
 */
static void xtl_wait_off_hart(struct task_struct *t)
{
#ifdef CONFIG_SMP
	unsigned long timeout = jiffies + HZ;

	while (smp_load_acquire(&t->on_cpu)) {
		if (time_after(jiffies, timeout))
			return;
		cpu_relax();
	}
#endif
}

/* Makes t's saved state up to date: current's live state, another task's last switch. */
static void xtl_sync_saved(struct task_struct *t)
{
	if (!t->thread.xtl_ctx)
		return;
	if (t == current)
		xtl_flush_current();
	else
		xtl_wait_off_hart(t);
}

/* See the top of this file; t's saved state must be up to date (xtl_sync_saved). */
static bool xtl_saved_in_use(struct task_struct *t)
{
	if (!t->thread.xtl_ctx)
		return false;
	if (t->thread.xtl_in_use)
		return true;
	if (xtl_ctx_is_reset(t->thread.xtl_ctx))
		return false;
	t->thread.xtl_in_use = true;
	return true;
}

static bool xtl_task_in_use(struct task_struct *t)
{
	if (t->thread.xtl_ctx && !t->thread.xtl_in_use)
		xtl_sync_saved(t);
	return xtl_saved_in_use(t);
}

/*
 * Before the kernel changes t's saved state: the hart must not keep (or
 * save back) the old live state, so t restores the new one before user mode.
 */
static void xtl_invalidate(struct task_struct *t)
{
	WRITE_ONCE(t->thread.xtl_hw_cpu, -1);
	barrier();
	set_tsk_thread_flag(t, TIF_RISCV_XTL_RESTORE);
}

/* The hart lost its TL registers and sstateen0 (offline, non-retentive suspend). */
static void xtl_forget_hw(int cpu)
{
	per_cpu(xtl_hw_task, cpu) = NULL;
	per_cpu(xtl_user_access, cpu) = -1;
}

/* ---- context switch ---- */

void riscv_xtl_switch(struct task_struct *prev, struct task_struct *next)
{
	int cpu = smp_processor_id();

	if (prev->thread.xtl_ctx && xtl_hw_holds(prev, cpu))
		xtl_hw_save(prev->thread.xtl_ctx);

	if (!next->thread.xtl_ctx) {
		xtl_set_user_access(false);
	} else if (xtl_hw_holds(next, cpu)) {
		clear_tsk_thread_flag(next, TIF_RISCV_XTL_RESTORE);
		xtl_set_user_access(true);
	} else {
		set_tsk_thread_flag(next, TIF_RISCV_XTL_RESTORE);
	}
}

/* On the way back to user mode, interrupts off. */
void riscv_xtl_restore_current(void)
{
	struct task_struct *t = current;
	int cpu = smp_processor_id();

	if (!t->thread.xtl_ctx) {
		xtl_set_user_access(false);
		return;
	}
	xtl_hw_restore(t->thread.xtl_ctx);
	per_cpu(xtl_hw_task, cpu) = t;
	WRITE_ONCE(t->thread.xtl_hw_cpu, cpu);
	xtl_set_user_access(true);
}

/* ---- first use (lazy mode) ---- */

#define XTL_FORM_ROW(sym, name, match, mask, kind, eng)	{ match, mask },
static const struct {
	u32 match, mask;
} xtl_forms[] = { XTL_FORMS(XTL_FORM_ROW) };
#undef XTL_FORM_ROW

/* Whether a word is a TL instruction: it matches a legal form (docs/isa.md 4.3-4.6). */
static bool xtl_word_is_insn(u32 w)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(xtl_forms); i++) {
		if ((w & xtl_forms[i].mask) == xtl_forms[i].match)
			return true;
	}
	return false;
}

/* A TL instruction, or a Zicsr instruction (opcode SYSTEM) on CSRs 0x800..0x808. */
static bool xtl_insn_uses_tl(u32 insn)
{
	u32 funct3 = (insn >> 12) & 7, csr = insn >> 20;

	if ((insn & XTL_OPCODE_MASK) == XTL_OPCODE)
		return xtl_word_is_insn(insn);
	if ((insn & 0x7f) == 0x73)
		return funct3 != 0 && funct3 != 4 && csr >= XTL_CSR_TTYPE && csr <= XTL_CSR_TINIT;
	return false;
}

bool riscv_xtl_first_use_handler(struct pt_regs *regs)
{
	u32 insn = (u32)regs->badaddr;
	struct riscv_xtl_ctx *c;

	if (!riscv_xtl_enabled() || !xtl_lazy || current->thread.xtl_ctx)
		return false;
	if (!insn && __get_user(insn, (u32 __user *)regs->epc))
		return false;
	if (!xtl_insn_uses_tl(insn))
		return false;

	c = xtl_ctx_alloc();
	if (!c) {
		force_sig(SIGBUS);
		return true;
	}
	current->thread.xtl_ctx = c;
	current->thread.xtl_in_use = true;
	xtl_invalidate(current);	/* the reset state is loaded on return */
	return true;
}

/* ---- task life cycle ---- */

/*
 * dst is a copy of the parent's task_struct: it owns nothing yet, and has
 * used nothing (kernel threads and user workers, such as io_uring's, stay
 * so; riscv_xtl_copy_thread() gives a user thread its creator's state).
 */
void riscv_xtl_dup_task_struct(struct task_struct *dst)
{
	dst->thread.xtl_ctx = NULL;
	dst->thread.xtl_hw_cpu = -1;
	dst->thread.xtl_in_use = false;
	clear_tsk_thread_flag(dst, TIF_RISCV_XTL_RESTORE);
}

/* A new user thread or process gets a copy of its creator's TL state. */
int riscv_xtl_copy_thread(struct task_struct *p)
{
	struct riscv_xtl_ctx *c;

	if (!riscv_xtl_enabled() || !current->thread.xtl_ctx)
		return 0;
	c = xtl_ctx_alloc_raw();
	if (!c)
		return -ENOMEM;
	xtl_flush_current();
	memcpy(c, current->thread.xtl_ctx, sizeof(*c));
	p->thread.xtl_ctx = c;
	p->thread.xtl_in_use = current->thread.xtl_in_use;
	set_tsk_thread_flag(p, TIF_RISCV_XTL_RESTORE);
	return 0;
}

void riscv_xtl_release(struct task_struct *tsk)
{
	if (tsk->thread.xtl_ctx) {
		kvfree(tsk->thread.xtl_ctx);
		tsk->thread.xtl_ctx = NULL;
	}
	tsk->thread.xtl_in_use = false;
}

/* exec: the new program starts without TL state (lazy) or at reset (eager). */
void riscv_xtl_flush_thread(void)
{
	struct task_struct *t = current;

	if (!riscv_xtl_enabled())
		return;
	preempt_disable();
	WRITE_ONCE(t->thread.xtl_hw_cpu, -1);
	xtl_set_user_access(false);
	preempt_enable();
	t->thread.xtl_in_use = false;
	if (xtl_lazy) {
		clear_tsk_thread_flag(t, TIF_RISCV_XTL_RESTORE);
		riscv_xtl_release(t);
		return;
	}
	if (!t->thread.xtl_ctx)
		t->thread.xtl_ctx = xtl_ctx_alloc_raw();
	if (!t->thread.xtl_ctx) {
		/* Without a state of its own the program could read others' TL registers. */
		force_sig(SIGKILL);
		return;
	}
	xtl_ctx_reset(t->thread.xtl_ctx);
	xtl_invalidate(t);
}

/* ---- signal frames: one record of the sigcontext extension chain ---- */

size_t riscv_xtl_sc_size(bool cal_all)
{
	if (cal_all)
		return riscv_isa_extension_available(NULL, XTL) ? RISCV_XTL_SC_SIZE : 0;
	return xtl_task_in_use(current) ? RISCV_XTL_SC_SIZE : 0;
}

long riscv_xtl_save_sigcontext(void __user **sc_ext_ptr)
{
	struct __riscv_ctx_hdr __user *hdr = *sc_ext_ptr;
	struct __riscv_xtl_state __user *state = (void __user *)(hdr + 1);
	struct riscv_xtl_ctx *c = current->thread.xtl_ctx;
	long err = 0;

	xtl_sync_saved(current);
	if (!xtl_saved_in_use(current))
		return 0;
	err |= __copy_to_user(state->csr, c->csr, sizeof(c->csr));
	err |= __clear_user(state->reserved, sizeof(state->reserved));
	err |= __clear_user(state->reg[0], sizeof(state->reg[0]));
	err |= __copy_to_user(state->reg[1], c->reg, sizeof(c->reg));
	err |= __put_user(RISCV_XTL_MAGIC, &hdr->magic);
	err |= __put_user(RISCV_XTL_SC_SIZE, &hdr->size);
	if (unlikely(err))
		return -EFAULT;
	*sc_ext_ptr = (void __user *)hdr + RISCV_XTL_SC_SIZE;
	return 0;
}

/*
 * rt_sigreturn reads the record into a new state (riscv_xtl_read_sigcontext)
 * and installs it only once the whole frame has been found valid
 * (riscv_xtl_install_sigcontext); otherwise it is freed and the task keeps
 * the state it had: a frame that is damaged anywhere, or a record the task
 * cannot read, changes nothing of the TL state (rt_sigreturn fails with
 * SIGSEGV).
 */
long riscv_xtl_read_sigcontext(void __user *hdr, u32 size, struct riscv_xtl_ctx **ctx)
{
	struct __riscv_xtl_state __user *state =
		(void __user *)((struct __riscv_ctx_hdr __user *)hdr + 1);
	struct riscv_xtl_ctx *c;

	if (!riscv_xtl_enabled() || size != RISCV_XTL_SC_SIZE)
		return -EINVAL;
	c = xtl_ctx_alloc_raw();
	if (!c)
		return -ENOMEM;
	if (copy_from_user(c->csr, state->csr, sizeof(c->csr)) ||
	    copy_from_user(c->reg, state->reg[1], sizeof(c->reg))) {
		kvfree(c);
		return -EFAULT;
	}
	xtl_ctx_sanitize(c);
	*ctx = c;
	return 0;
}

void riscv_xtl_install_sigcontext(struct riscv_xtl_ctx *c)
{
	struct task_struct *t = current;
	struct riscv_xtl_ctx *old;

	xtl_invalidate(t);
	old = t->thread.xtl_ctx;
	t->thread.xtl_ctx = c;
	t->thread.xtl_in_use = true;
	kvfree(old);
}

void riscv_xtl_free_sigcontext(struct riscv_xtl_ctx *c)
{
	kvfree(c);
}

/*
 * rt_sigreturn of a valid frame without the TL record.  Eager mode: the
 * frame was written while the task's state was the reset state (not in
 * use), which the interrupted code may have been using all the same (the
 * first TL access does not trap): a handler's TL changes must not reach it,
 * so the reset state comes back.  Lazy mode: the task had no TL state when
 * the frame was written; a handler that used TL leaves it in use, as a
 * handler using V for the first time does.
 */
void riscv_xtl_restore_without_record(void)
{
	struct task_struct *t = current;

	if (!riscv_xtl_enabled() || xtl_lazy || !t->thread.xtl_ctx)
		return;
	xtl_invalidate(t);
	xtl_ctx_reset(t->thread.xtl_ctx);
	t->thread.xtl_in_use = false;
}

/* ---- ptrace regset NT_RISCV_XTL (and the core dump note) ---- */

int riscv_xtl_regset_active(struct task_struct *target, const struct user_regset *regset)
{
	return xtl_task_in_use(target) ? regset->n : 0;
}

int riscv_xtl_regset_get(struct task_struct *target, const struct user_regset *regset,
			 struct membuf to)
{
	struct riscv_xtl_ctx *c = target->thread.xtl_ctx;
	static const u8 zero_reg[RISCV_XTL_REG_BYTES];

	if (!riscv_xtl_enabled())
		return -ENODEV;
	xtl_sync_saved(target);
	if (!xtl_saved_in_use(target))
		return -ENODATA;
	membuf_write(&to, c->csr, sizeof(c->csr));
	membuf_zero(&to, sizeof(c->reserved));
	membuf_write(&to, zero_reg, sizeof(zero_reg));
	return membuf_write(&to, c->reg, sizeof(c->reg));
}

int riscv_xtl_regset_set(struct task_struct *target, const struct user_regset *regset,
			 unsigned int pos, unsigned int count, const void *kbuf,
			 const void __user *ubuf)
{
	struct __riscv_xtl_state *state;
	struct riscv_xtl_ctx *c = target->thread.xtl_ctx;
	int ret;

	if (!riscv_xtl_enabled())
		return -ENODEV;
	/* An empty write changes nothing, a task without TL state included. */
	if (!count)
		return 0;
	state = kvzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return -ENOMEM;
	xtl_sync_saved(target);
	/* A partial write keeps the rest of the state, the reset state if it has none. */
	if (c) {
		memcpy(state->csr, c->csr, sizeof(c->csr));
		memcpy(state->reg[1], c->reg, sizeof(c->reg));
	} else {
		memcpy(state->csr, xtl_csr_reset, sizeof(state->csr));
	}
	ret = user_regset_copyin(&pos, &count, &kbuf, &ubuf, state, 0, sizeof(*state));
	/* Nothing changes unless the whole write succeeds. */
	if (!ret && !c) {
		c = xtl_ctx_alloc_raw();
		if (c)
			target->thread.xtl_ctx = c;
		else
			ret = -ENOMEM;
	}
	if (!ret) {
		xtl_invalidate(target);
		memcpy(c->csr, state->csr, sizeof(c->csr));
		memcpy(c->reg, state->reg[1], sizeof(c->reg));
		xtl_ctx_sanitize(c);
		target->thread.xtl_in_use = true;
	}
	kvfree(state);
	return ret;
}

/* ---- detection ---- */

unsigned long riscv_xtl_hwprobe(const struct cpumask *cpus)
{
	int cpu;

	if (!riscv_xtl_enabled())
		return 0;
	for_each_cpu(cpu, cpus) {
		if (!__riscv_isa_extension_available(hart_isa[cpu].isa, RISCV_ISA_EXT_XTL))
			return 0;
	}
	return RISCV_HWPROBE_XTL;
}

/* Whether S-mode may access TL: M-mode firmware sets mstateen0.C for it. */
static bool __init xtl_supervisor_access(void)
{
	unsigned long ok = 0, tinit;

	asm volatile("1:	csrr	%1, " __stringify(XTL_CSR_TINIT) "\n"
		     "	li	%0, 1\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : "+r"(ok), "=r"(tinit));
	return ok;
}

static int __init riscv_xtl_init(void)
{
	if (!riscv_isa_extension_available(NULL, XTL))
		return 0;
	if (!xtl_supervisor_access()) {
		pr_warn("disabled: S-mode cannot access TL (the M-mode firmware left mstateen0.C clear); user TL instructions raise SIGILL\n");
		return 0;
	}
	xtl_lazy = riscv_isa_extension_available(NULL, SMSTATEEN);
	if (xtl_lazy) {
		pr_info("TensorLoad state per task, lazy: allocated at the first TL access (Smstateen trap)\n");
	} else {
		pr_info("TensorLoad state per task, eager: every user task has one (no Smstateen, first use cannot trap)\n");
	}
	static_branch_enable(&riscv_xtl_enabled_key);
	return 0;
}
core_initcall(riscv_xtl_init);

/* ---- CPU hotplug and power management ---- */

/* On a surviving CPU, once @cpu is dead: it holds nobody's state any more. */
static int xtl_cpu_dead(unsigned int cpu)
{
	xtl_forget_hw(cpu);
	return 0;
}

/*
 * Around a low-power state that may lose the TL registers and sstateen0:
 * the task on this hart keeps its live state in its saved state, and
 * reloads it before it returns to user mode.
 */
static int xtl_cpu_pm_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	int cpu = smp_processor_id();

	switch (action) {
	case CPU_PM_ENTER:
		if (current->thread.xtl_ctx && xtl_hw_holds(current, cpu))
			xtl_hw_save(current->thread.xtl_ctx);
		break;
	case CPU_PM_ENTER_FAILED:
	case CPU_PM_EXIT:
		xtl_forget_hw(cpu);
		if (current->thread.xtl_ctx)
			set_thread_flag(TIF_RISCV_XTL_RESTORE);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block xtl_cpu_pm_notifier = {
	.notifier_call = xtl_cpu_pm_notify,
};

static int __init riscv_xtl_hotplug_init(void)
{
	int ret;

	if (!riscv_xtl_enabled())
		return 0;
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "riscv/xtl:dead", NULL, xtl_cpu_dead);
	if (ret < 0)
		return ret;
	return cpu_pm_register_notifier(&xtl_cpu_pm_notifier);
}
late_initcall(riscv_xtl_hotplug_init);
