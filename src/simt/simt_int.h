/* Internal interface between the parts of simt: the PTX front end, the
 * interpreter, memory tracking and the CUDA runtime API.  Nothing here is
 * visible to programs; they see only the cuda* and __cuda* symbols. */
#ifndef SIMT_INT_H
#define SIMT_INT_H

#include "base/base.h"
#include "base/device.h"
#include "mem/mem.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIMT_FULL 0xffffffffu

/* Generic addresses of the per-thread (.local) and per-block (.shared)
 * windows.  Host pointers never reach these values on x86-64, so a generic
 * address is classified by its upper 32 bits. */
#define SIMT_LOCAL_WIN 0x0001000000000000ull
#define SIMT_SHARED_WIN 0x0002000000000000ull
#define SIMT_WIN_OF(a) ((a) & 0xffffffff00000000ull)

/* ---- decoded PTX ---- */

enum simt_type {
	ST_NONE,
	ST_B8, ST_B16, ST_B32, ST_B64, ST_B128,
	ST_U8, ST_U16, ST_U32, ST_U64,
	ST_S8, ST_S16, ST_S32, ST_S64,
	ST_F16, ST_F16X2, ST_BF16, ST_BF16X2, ST_TF32,
	ST_F32, ST_F64,
	ST_PRED,
	ST_COUNT
};

/* Bytes of a value of type t (0: none); inline, as every memory
 * instruction asks. */
static inline int simt_type_size(int t)
{
	static const uint8_t size[ST_COUNT] = {
		[ST_B8] = 1, [ST_U8] = 1, [ST_S8] = 1, [ST_PRED] = 1,
		[ST_B16] = 2, [ST_U16] = 2, [ST_S16] = 2, [ST_F16] = 2,
		[ST_BF16] = 2,
		[ST_B32] = 4, [ST_U32] = 4, [ST_S32] = 4, [ST_F32] = 4,
		[ST_F16X2] = 4, [ST_BF16X2] = 4, [ST_TF32] = 4,
		[ST_B64] = 8, [ST_U64] = 8, [ST_S64] = 8, [ST_F64] = 8,
		[ST_B128] = 16,
	};

	return (unsigned)t < ST_COUNT ? size[t] : 0;
}

static inline bool simt_type_signed(int t)
{
	return t == ST_S8 || t == ST_S16 || t == ST_S32 || t == ST_S64;
}
bool simt_type_float(int t);

enum simt_space {
	SS_GENERIC, SS_GLOBAL, SS_SHARED, SS_LOCAL, SS_CONST, SS_PARAM,
	SS_KPARAM, SS_REG
};
const char *simt_space_name(int space);

/* Operand kinds; the first three index the row bases of the executing
 * group (frame registers, module constants, warp special registers). */
enum { OK_REG = 0, OK_IMM = 1, OK_SREG = 2, OK_NONE = 3 };

struct simt_opnd {
	uint32_t idx;
	uint8_t kind;
	uint8_t neg;
	uint8_t pad[2];
};

/* Addressing modes of memory operands. */
enum {
	AM_REG,     /* register + imm */
	AM_ABS,     /* absolute address imm (module .global/.const data) */
	AM_SHVAR,   /* shared variable `target` + imm */
	AM_LOCVAR,  /* frame local depot + imm */
	AM_PARAM,   /* per-lane parameter area byte offset imm */
	AM_KPARAM,  /* kernel parameter buffer offset imm */
};

/* Special register rows of a warp. */
enum {
	SR_TID_X, SR_TID_Y, SR_TID_Z,
	SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
	SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z,
	SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
	SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
	SR_LANEMASK_EQ, SR_LANEMASK_LT, SR_LANEMASK_LE, SR_LANEMASK_GT,
	SR_LANEMASK_GE, SR_DYN_SMEM, SR_TOTAL_SMEM, SR_ZERO, SR_ONE,
	/* %envreg0..2: the grid workspace address of a cooperative launch
	 * (1 high, 2 low half); the other driver registers read SR_ZERO. */
	SR_ENVREG0, SR_ENVREG1, SR_ENVREG2,
	/* %reserved_smem_offset_begin/_end/_cap/_0/_1: the block's reserved
	 * shared memory (cooperative_groups keeps multi-warp tile state at
	 * offset_1). */
	SR_RSMEM_BEGIN, SR_RSMEM_END, SR_RSMEM_CAP, SR_RSMEM_0, SR_RSMEM_1,
	SR_COUNT
};

/* Instruction flags. */
enum {
	F_FTZ = 1 << 0,
	F_SAT = 1 << 1,
	F_CC = 1 << 2,      /* writes the carry flag */
	F_CI = 1 << 3,      /* reads the carry flag */
	F_APPROX = 1 << 4,
	F_NAN = 1 << 5,     /* min/max .NaN */
	F_UNI = 1 << 6,
	F_DIVERGE_OK = 1 << 7,
};

/* Memory semantics of ld/st/atom (strong: atomic, volatile, relaxed,
 * acquire or release; the scope when it is .cta), of fences (which sides
 * they have) and of barriers (MSEM_ALIGNED: every thread of a warp must
 * execute it together, as bar.sync and barrier.sync.aligned require). */
enum {
	MSEM_STRONG = 1 << 0,
	MSEM_ACQ = 1 << 1,
	MSEM_REL = 1 << 2,
	MSEM_CTA = 1 << 3,
	MSEM_ALIGNED = 1 << 4,
};

/* Comparison operators of setp/set/slct. */
enum {
	CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
	CMP_LO, CMP_LS, CMP_HI, CMP_HS,
	CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU,
	CMP_NUM, CMP_NAN
};

/* Typed forms of cvt and of generic integer ops (typed.c): the
 * conversions first, from CVT_F32_U32 to CVT_INT, then the integer ops. */
#define SIMT_TYPED_OPS(X) \
	X(CVT_F32_U32) X(CVT_F32_S32) X(CVT_F32_U64) X(CVT_F32_S64) \
	X(CVT_F64_U32) X(CVT_F64_S32) X(CVT_F64_U64) X(CVT_F64_S64) \
	X(CVT_F32_F64) X(CVT_F64_F32) X(CVT_F16_F32) X(CVT_F32_F16) \
	X(CVT_S32_F32) X(CVT_U32_F32) X(CVT_S32_F64) X(CVT_U32_F64) \
	X(CVT_RND_F32) X(CVT_RND_F64) X(CVT_INT) \
	X(MULHI_U32) X(MULHI_S32) X(MULHI_U64) X(MULHI_S64) \
	X(DIV_U32) X(DIV_S32) X(DIV_U64) X(DIV_S64) \
	X(REM_U32) X(REM_S32) X(REM_U64) X(REM_S64) \
	X(ABS_S32) X(NEG_S32) X(ABS_S64) X(NEG_S64) \
	X(MIN_S64) X(MAX_S64) X(MIN_U64) X(MAX_U64) \
	X(POPC_32) X(POPC_64) X(CLZ_32) X(CLZ_64) X(BREV_32) \
	X(SHF_L) X(SHF_R) X(BFE_U32) X(BFE_S32) X(PRMT)

/* The interpreter's operations.  Hot ones are specialised by type; the
 * rest carry their type in the instruction and go through slower
 * generic code. */
#define SIMT_OPS(X) \
	X(NOP) X(MOV) X(MOV_PRED) X(PACK) X(UNPACK) X(MOV_SHADDR) \
	X(MOV_LOCADDR) X(MOV_KPADDR) X(MOV_FUNC) X(CLOCK) X(CLOCK64) X(GTIMER) \
	X(ADD_I32) X(ADD_I64) X(SUB_I32) X(SUB_I64) \
	X(MUL_LO_I32) X(MUL_LO_I64) X(MUL_WIDE_S32) X(MUL_WIDE_U32) \
	X(MAD_LO_I32) X(MAD_LO_I64) X(MAD_WIDE_S32) X(MAD_WIDE_U32) \
	X(ADD_F32) X(SUB_F32) X(MUL_F32) X(FMA_F32) \
	X(ADD_F64) X(SUB_F64) X(MUL_F64) X(FMA_F64) \
	X(NEG_F32) X(ABS_F32) X(MIN_F32) X(MAX_F32) \
	X(SHL_32) X(SHL_64) X(SHR_U32) X(SHR_S32) X(SHR_U64) X(SHR_S64) \
	X(AND_32) X(AND_64) X(OR_32) X(OR_64) X(XOR_32) X(XOR_64) X(NOT_32) \
	X(NOT_64) X(AND_P) X(OR_P) X(XOR_P) X(NOT_P) \
	X(MIN_S32) X(MAX_S32) X(MIN_U32) X(MAX_U32) \
	X(SETP_S32) X(SETP_U32) X(SETP_S64) X(SETP_U64) X(SETP_F32) \
	X(SETP_F64) X(SETP_GEN) X(SET) X(SELP) X(SLCT) \
	X(CVT_U64_U32) X(CVT_S64_S32) X(CVT_TRUNC32) X(CVT) \
	X(CVTA_TO) X(CVTA_LOCAL) X(CVTA_SHARED) X(CVTA_TO_LOCAL) \
	X(CVTA_TO_SHARED) X(ISSPACEP) \
	X(IALU) X(FALU) X(TESTP) \
	X(LD) X(ST) X(ATOM) X(PREFETCH) \
	X(BRA) X(BRX) X(CALL) X(CALLI) X(RET) X(EXIT) X(TRAP) X(BRKPT) \
	X(BAR) X(BAR_ARRIVE) X(BAR_RED) X(MEMBAR) X(NANOSLEEP) X(CP_ASYNC) \
	X(CP_COMMIT) X(CP_WAIT) \
	X(MBAR) \
	X(SHFL) X(VOTE) X(MATCH) X(ACTIVEMASK) X(REDUX) X(BAR_WARP) X(ELECT) \
	X(VPRINTF) X(ASSERTFAIL) X(MALLOC) X(FREE) X(SETCOND) X(TENSOR) X(TENSOR_LANE) \
	X(TEX) \
	SIMT_TYPED_OPS(X) \
	X(UNSUPPORTED)

enum simt_op {
#define SIMT_OP_ENUM(n) OP_##n,
	SIMT_OPS(SIMT_OP_ENUM)
#undef SIMT_OP_ENUM
	OP_COUNT
};

/* Sub-operations of IALU/FALU/ATOM/SHFL/VOTE/... */
enum {
	SUB_ADD, SUB_SUB, SUB_MUL, SUB_MULHI, SUB_MULWIDE, SUB_MAD, SUB_MADHI,
	SUB_MADWIDE, SUB_MUL24, SUB_MUL24HI, SUB_MAD24, SUB_MAD24HI, SUB_DIV,
	SUB_REM, SUB_ABS, SUB_NEG, SUB_MIN, SUB_MAX, SUB_POPC, SUB_CLZ,
	SUB_BREV, SUB_BFIND, SUB_BFIND_SHIFT, SUB_BFE, SUB_BFI, SUB_PRMT,
	SUB_SHFL_L, SUB_SHFL_R, SUB_SHL, SUB_SHR, SUB_AND, SUB_OR, SUB_XOR,
	SUB_NOT, SUB_CNOT, SUB_SAD, SUB_LOP3, SUB_DP4A, SUB_DP2A_LO,
	SUB_DP2A_HI, SUB_FNS, SUB_SZEXT, SUB_BMSK,
	/* float */
	SUB_FMA, SUB_RCP, SUB_SQRT, SUB_RSQRT, SUB_SIN, SUB_COS, SUB_LG2,
	SUB_EX2, SUB_TANH, SUB_COPYSIGN, SUB_TESTP, SUB_FMIN, SUB_FMAX,
	/* atomics */
	SUB_EXCH, SUB_CAS, SUB_INC, SUB_DEC,
	/* shfl / vote / match / redux */
	SUB_UP, SUB_DOWN, SUB_BFLY, SUB_IDX, SUB_ALL, SUB_ANY, SUB_UNI,
	SUB_BALLOT,
	/* testp */
	SUB_FINITE, SUB_INFINITE, SUB_NUMBER, SUB_NOTANUMBER, SUB_NORMAL,
	SUB_SUBNORMAL,
};

struct simt_insn {
	uint16_t op;
	uint8_t type;     /* operation type */
	uint8_t type2;    /* source type (cvt), compare type (set) */
	uint8_t sub;      /* sub-operation or compare operator */
	uint8_t sub2;     /* combining op of setp/bar.red, shift/ prmt mode */
	uint8_t rnd;
	uint8_t flags;
	uint8_t space;
	uint8_t vec;      /* vector length of ld/st, number of packed parts */
	uint8_t am;       /* addressing mode of the memory operand */
	uint8_t nops;
	uint8_t guard_neg;
	uint8_t flop;     /* FLOPs per lane (for counters) */
	uint8_t flop_type;
	uint8_t sem;      /* MSEM_* of ld/st/atom/membar/bar */
	uint8_t form;     /* MF_*: a hot form the interpreter runs inline */
	uint8_t uchk;     /* has an entry in mod->ucks (undef.c) */
	int32_t guard;    /* predicate row, or -1 */
	struct simt_opnd o[6];
	struct simt_opnd addr;
	int64_t imm;
	uint32_t target;  /* branch target, function, call site, variable */
	uint32_t ptx_line;
	uint32_t src_line;
	uint16_t src_file;
};

/* Forms of instructions that the interpreter loop takes inline in the
 * usual case, seen at decode time. */
enum {
	MF_NONE,
	MF_LD_SHARED4,    /* ld.shared of one 4-byte value, register-addressed */
	MF_LD_SHARED4_AGAIN, /* the same, whose address row an earlier one read
			      * in straight-line code that does not write it */
};

struct simt_param {
	char *name;
	uint32_t offset;  /* kernel: buffer offset; function: frame row */
	uint32_t size;
	uint32_t align;
};

enum { BI_NONE, BI_VPRINTF, BI_ASSERTFAIL, BI_MALLOC, BI_FREE, BI_SETCOND };

struct simt_func {
	char *name;
	bool is_entry;
	bool defined;
	int builtin;
	uint32_t pc_begin, pc_end;
	uint32_t nrows;
	uint32_t local_size;
	uint32_t local_align;
	struct simt_param *params;
	int nparams;
	struct simt_param *rets;
	int nrets;
	uint32_t kparam_size;
	uint32_t decl_line;
	uint32_t maxntid[3], reqntid[3];
	int minnctapersm;
	/* The first instruction simt cannot run, reported at launch. */
	char *bad;
	/* Direct callees and the shared variables used, for the kernel
	 * summary computed at first launch. */
	uint32_t *callees;
	int ncallees;
	uint32_t *shvars;
	int nshvars;
	bool indirect_calls;
	bool address_taken;
	/* Kernel summary, filled at first launch. */
	bool summarized;
	bool sum_ok;
	char *sum_bad;
	uint32_t sum_shared;       /* static shared bytes */
	uint32_t sum_dyn_align;
	bool sum_calls;
	bool sum_recursive;
	uint32_t sum_local;        /* entry local bytes + call depth need */
	uint32_t sum_rows;         /* register rows of the largest frame */
	int max_dyn_shared;        /* cudaFuncAttributeMaxDynamicSharedMemorySize */
	int carveout;
	/* Register rows that may be read before they are written (undef.c):
	 * each frame of the function starts with them unwritten. */
	uint32_t *uck_rows;
	uint32_t nuck_rows;
};

struct simt_var {
	char *name;
	int space;
	uint64_t size;
	uint32_t align;
	bool is_extern;    /* extern .shared: the dynamic shared window */
	uint8_t *data;     /* storage of .global/.const variables */
	void *alloc;       /* the allocation data lies in (aligned within it) */
	uint8_t *init;     /* initial bytes (size) or NULL */
	bool managed;
};

struct simt_callsite {
	uint32_t func;
	uint16_t nargs, nrets;
	/* Rows to copy: caller row, callee row, count, for args then rets. */
	uint32_t *copies;
	uint32_t ncopies_args, ncopies_rets;
	/* Indirect call: the callee side of each copy is a parameter index,
	 * resolved against the function called at run time. */
	bool indirect;
};

/* Value of a function's address in registers: the tag and its index. */
#define SIMT_FUNC_TAG 0xF0F0000000000000ull

struct simt_file {
	char *path;
	bool toolkit;
};

struct simt_module {
	char *name;        /* for messages: the first .file or "module N" */
	const char *ptx;   /* text, owned by the program image or by `owned` */
	char *owned;
	size_t ptx_len;
	char *error;       /* why the module cannot run, or NULL */
	int ptx_major, ptx_minor, sm;
	struct simt_insn *code;
	uint32_t ncode, capcode;
	struct simt_func *funcs;
	int nfuncs, capfuncs;
	struct simt_var *vars;
	int nvars, capvars;
	uint64_t *consts;  /* rows of 32 lanes */
	uint32_t nconsts, capconsts;
	struct simt_callsite *calls;
	uint32_t ncalls, capcalls;
	struct simt_file *files;
	int nfiles;
	uint32_t *file_map;    /* .file number -> files index */
	int nfile_map;
	/* Some function reads %reserved_smem_offset_*: blocks of its kernels
	 * get a reserved shared region after their own shared memory. */
	bool reserved_smem;
	/* The hazard checker has marked its compare-and-swap seed loads. */
	bool hz_marked;
	/* Per instruction, the straight-line run from it (exec.c), made at
	 * the module's first launch. */
	struct simt_run *runs;
	/* The checks of registers read before written (undef.c): entry
	 * uck_of[pc] of ucks for each instruction with uchk set. */
	struct simt_uck *ucks;
	uint32_t nucks, capucks;
	uint32_t *uck_of;
	uint32_t *uck_row;         /* rows the entries name, in order */
	uint32_t nuck_row, capuck_row;
	char **uck_name;           /* per checked row: its PTX name */
	/* Per instruction of ncode_quiet: for a load, bit k set when
	 * nothing uses the value of its element k (mark_quiet_loads in
	 * undef.c), so that reading unwritten local memory there is no
	 * report. */
	uint8_t *ld_quiet;
	uint32_t ncode_quiet;
};

/* What one instruction does to the registers whose reads are checked
 * (undef.c): rows uck_row[first...] are, in order, its guard predicate
 * when `guard` (checked for the whole group), nchk rows it reads
 * (reported where a lane of it has not written them), nset rows it
 * writes, then ndst rows it copies into from nsrc rows: a lane of the
 * copy counts as written where, by `merge`, every source was (UCK_ALL),
 * any source was (UCK_ANY: packs, selects), or, for a shuffle, where any
 * lane that runs it wrote the source (UCK_XLANE). */
enum { UCK_ALL, UCK_ANY, UCK_XLANE };
struct simt_uck {
	uint32_t first;
	uint8_t nchk, nset, ndst, nsrc;
	bool guard;
	uint8_t merge;
};

/* The instructions from one to the end of its straight-line run (the
 * next that may branch or stop the warp, itself included), and their
 * FLOPs per lane by type (f32, f64, f16) where no guard can skip them:
 * the interpreter counts a run when it enters it. */
struct simt_run {
	uint32_t len;
	uint32_t flops[3];
};
void simt_runs_prepare(struct simt_module *mod);

/* ptx.c: parses PTX text into a module; returns 0, or -1 with mod->error. */
int simt_ptx_load(struct simt_module *mod, const char *text, size_t len);
void simt_module_free(struct simt_module *mod);
int simt_module_find_func(const struct simt_module *mod, const char *name);
int simt_module_find_var(const struct simt_module *mod, const char *name);
/* Whether kernel `f` can run: 0, or -1 (the reason is in f->sum_bad).
 * The summary itself (shared layout, local size) is made at load. */
int simt_kernel_summarize(struct simt_module *mod, struct simt_func *f);
const char *simt_op_name(int op);

/* fatbin.c: finds the PTX text in a fatbinary wrapper.  Returns 0 and the
 * text, or -1 with a message in *why (static). */
int simt_fatbin_ptx(const void *wrapper, const char **ptx, size_t *len,
		    const char **why);
/* The same for the fatbinary itself, of which size bytes may be read
 * (its header and entries must lie within them). */
int simt_fatbin_find_ptx(const void *fatbin, size_t size, const char **ptx,
			 size_t *len, const char **why);

/* ---- memory (memory.c) ---- */

/* Allocates on the calling thread's current device, or on device d. */
void *simt_mem_alloc(size_t size, int kind, unsigned flags);
void *simt_mem_alloc_on(size_t size, int kind, unsigned flags, int d);
int simt_mem_free(void *p, int kind);
/* Marks allocation p as one of pool's (mempool.c). */
void simt_mem_set_pool(void *p, struct CUmemPoolHandle_st *pool);
/* Puts size bytes at p (mapped by the caller) in the table as device
 * memory of device d belonging to graph allocation g; false when the
 * device has no room. */
bool simt_mem_place(void *p, size_t size, int d, struct simt_gmem *g);
/* graph_mem.c: the allocation of g was freed (by any call). */
void simt_gmem_unmapped(struct simt_gmem *g);

/* ---- memory pools (mempool.c); simt_lock held unless said ---- */

/* An allocation of size bytes was taken from p, or given back. */
void simt_pool_took(struct CUmemPoolHandle_st *p, uint64_t size);
void simt_pool_freed(struct CUmemPoolHandle_st *p, uint64_t size);
/* The access list of a graph allocation on device d, as a pool nobody
 * can name; released with simt_pool_graph_drop. */
struct CUmemPoolHandle_st *simt_pool_graph_new(int d);
void simt_pool_graph_drop(struct CUmemPoolHandle_st *p);
bool simt_pool_graph(const struct CUmemPoolHandle_st *p);
/* Sets the access of device d (cudaMemAccessFlags) to p's memory. */
void simt_pool_access(struct CUmemPoolHandle_st *p, int d, int flags);
/* Whether device d may access p's allocations. */
bool simt_pool_reaches(const struct CUmemPoolHandle_st *p, int d);
bool simt_pool_host(const struct CUmemPoolHandle_st *p);
/* A synchronization: pools over their release threshold shrink. */
void simt_pool_settle(void);
/* Freed bytes device d's pools still hold. */
uint64_t simt_pool_cached(int d);
/* Device d was reset: its pools hold nothing and its current pool is the
 * default one. */
void simt_pool_reset(int d);
/* cudaMallocAsync: from the current pool of the stream's device (no lock
 * held). */
cudaError_t simt_pool_malloc_async(void **ptr, size_t size, cudaStream_t stream);
/* Tracks memory simt did not allocate (module variables, registrations). */
void simt_mem_track(void *p, uint64_t size, int kind, const char *name,
		    bool readonly);
void simt_mem_untrack(void *p);
/* Bytes of device and managed memory allocated on device d. */
uint64_t simt_mem_used(int d);
/* Whether a kernel running on device d may access allocation al: its
 * own memory, memory every device reaches, or a peer's memory with peer
 * access from d enabled. */
bool simt_mem_reachable(const struct simt_alloc *al, int d);
/* Describes an access of n bytes to allocation al that device d may not
 * make (no peer access), naming both devices. */
void simt_mem_describe_peer(struct simt_buf *b, const struct simt_alloc *al,
			    uint64_t n, const char *what, int d);
/* Marks n bytes at p as written outside a kernel (a copy, a memset, a
 * library call such as cuBLAS), so that kernels may read them without an
 * uninitialized-read report.  Memory that is not device memory is
 * ignored. */
void simt_mem_written(const void *p, uint64_t n);
/* The same for a copy of n bytes from src to dst: written where the
 * source was (device memory) or wholly (other memory). */
void simt_mem_copied(void *dst, const void *src, uint64_t n);
/* Frees the device, managed and pinned allocations made on device d
 * (cudaDeviceReset). */
void simt_mem_reset(int d);

/* ---- devices (runtime.c) ---- */

/* How many devices there are (CUDALAB_SIMT_GPUS, default 1). */
int simt_device_count(void);
/* The calling host thread's current device (0 in a new thread). */
int simt_current_device(void);
/* Whether kernels on device `from` may access memory of device `to`
 * (the same device, or peer access enabled). */
bool simt_peer_enabled(int from, int to);
/* The device stream s belongs to (the current one for the default
 * streams); s must be a valid handle. */
int simt_stream_device(cudaStream_t s);
/* The stream's lane in the stream order (order.h); simt_lock held. */
uint32_t simt_stream_lane(cudaStream_t s);
/* A host function enqueued on s runs now: the host is taken to know s's
 * work so far done (runtime.c). */
void simt_host_sees(cudaStream_t s);
/* The same, with a default stream taken as device's. */
uint32_t simt_stream_lane_on(cudaStream_t s, int device);
/* While lane is not UINT32_MAX, the calling thread's operations on
 * stream s are issued to lane instead of the stream's (a graph node's). */
void simt_stream_lane_sub(cudaStream_t s, uint32_t lane);

/* ---- runtime state (runtime.c) ---- */

struct simt_kernel {
	const void *host_fun;
	struct simt_module *mod;
	int func;
	char *device_name;
};

struct simt_symbol {
	const void *host_var;
	struct simt_module *mod;
	int var;
	uint64_t size;
	bool constant;
	bool managed;
};

/* Serialises API calls; kernels run with it held. */
void simt_lock(void);
void simt_unlock(void);
cudaError_t simt_set_error(cudaError_t e);
/* graph_cond.c: a kernel's cudaGraphSetConditional; false for a value
 * that is no conditional handle. */
bool simt_graph_set_conditional(uint64_t handle, uint32_t value);
cudaError_t simt_sticky(void);
void simt_set_sticky(cudaError_t e);
void simt_init(void);
struct simt_kernel *simt_kernel_of(const void *host_fun);
struct simt_symbol *simt_symbol_of(const void *host_var);

/* Capture state of a stream and the dependencies an event carries
 * into a capture; graph.c owns both, runtime.c keeps a slot for each. */
struct simt_stream_capture;
struct simt_event_capture;
/* The capture slot of stream s, or NULL for the legacy stream (handles 0
 * and 1); *blocking tells whether s synchronises with the legacy stream.
 * s must be a valid handle. */
struct simt_stream_capture **simt_stream_capture_slot(cudaStream_t s,
						      bool *blocking);
struct simt_event_capture **simt_event_capture_slot(cudaEvent_t e);
bool simt_stream_valid(cudaStream_t s);

extern size_t simt_stack_limit;
extern size_t simt_printf_fifo;
extern size_t simt_heap_limit;

/* ---- execution (exec.c, launch.c) ---- */

struct simt_fault {
	cudaError_t err;
	char *msg;
};

struct simt_launch_req {
	struct simt_module *mod;
	struct simt_func *fn;
	dim3 grid, block;
	size_t dyn_shared;
	void **args;
	/* cudaLaunchCooperativeKernel: every block resident at once, and a
	 * grid workspace for grid-wide synchronisation. */
	bool cooperative;
	cudaStream_t stream;
};

/* Host threads that run blocks, and library calls such as cuBLAS's GEMM
 * (CUDALAB_SIMT_THREADS, default the processors online). */
int simt_worker_count(void);
/* Runs a kernel to completion.  Returns cudaSuccess, a launch error (not
 * sticky), or a kernel fault (already reported and made sticky). */
cudaError_t simt_launch(const struct simt_launch_req *req);
/* abi.c: blocks of `f` resident per multiprocessor with `block` threads
 * and `dyn` bytes of dynamic shared memory (the occupancy API's figure). */
int simt_occupancy(const struct simt_func *f, int block, size_t dyn);

/* Whether kernel k can run: cudaSuccess, or the error a launch of it
 * returns (with the same one-time message) (abi.c). */
cudaError_t simt_kernel_usable(struct simt_kernel *k);

/* ---- graphs and stream capture (graph.c) ---- */

/* Number of capture sequences in progress; every hook below is called
 * only while it is non-zero, so code outside a capture pays one load. */
extern _Atomic int simt_capture_live;

/* Hooks of the stream-ordered calls.  Each returns true when the call was
 * taken over (recorded into a capture, or refused because of one) with
 * its result in *err, false when the call should run as usual. */
bool simt_capture_kernel(struct simt_kernel *k, dim3 grid, dim3 block,
			 void **args, size_t shmem, cudaStream_t s,
			 cudaError_t *err);
bool simt_capture_copy(void *dst, size_t dpitch, const void *src,
		       size_t spitch, size_t width, size_t height,
		       enum cudaMemcpyKind kind, cudaStream_t s,
		       cudaError_t *err);
bool simt_capture_set(void *dst, size_t pitch, int value, size_t width,
		      size_t height, cudaStream_t s, cudaError_t *err);
bool simt_capture_host(cudaHostFn_t fn, void *data, cudaStream_t s,
		       cudaError_t *err);
/* Calls that cannot be captured at all (stream callbacks): refused on a
 * capturing stream. */
bool simt_capture_refuse(cudaStream_t s, cudaError_t *err);
/* cudaMallocAsync and cudaFreeAsync on a capturing stream: a memory
 * allocation node (of size bytes on device d; *ptr its address) or a
 * free node. */
bool simt_capture_malloc(void **ptr, size_t size, int d, cudaStream_t s,
			 cudaError_t *err);
bool simt_capture_free(void *p, cudaStream_t s, cudaError_t *err);
bool simt_capture_event_record(cudaEvent_t e, cudaStream_t s,
			       cudaError_t *err);
bool simt_capture_event_wait(cudaStream_t s, cudaEvent_t e, unsigned flags,
			     cudaError_t *err);
/* Checks of calls a capture forbids; each returns cudaSuccess, or the
 * error (already recorded as the last error) after invalidating the
 * captures concerned.  simt_capture_unsafe: a potentially unsafe call
 * (synchronous copies, allocation); `legacy` when it also uses the legacy
 * stream.  simt_capture_sync: synchronising or querying stream s, or the
 * whole device when `device`.  simt_capture_event_use: synchronising or
 * querying event e (one recorded in a capture, or any while a capture
 * forbids potentially unsafe calls). */
cudaError_t simt_capture_unsafe(bool legacy);
cudaError_t simt_capture_sync(cudaStream_t s, bool device);
cudaError_t simt_capture_event_use(cudaEvent_t e);
/* Frees what a destroyed stream or event carried. */
void simt_capture_stream_gone(struct simt_stream_capture **slot);
void simt_capture_event_gone(struct simt_event_capture **slot);

/* How a copy or memset was issued, for the stream order (order.h): its
 * stream, whether the call is asynchronous, and the name reports give. */
struct simt_issue {
	cudaStream_t stream;
	bool async;
	const char *api;
};

/* memapi.c: copies and sets as the runtime calls do them (range checks,
 * no capture handling, no sticky check); used by graph nodes. */
cudaError_t simt_copy2d(void *dst, size_t dpitch, const void *src,
			size_t spitch, size_t width, size_t height,
			enum cudaMemcpyKind kind, const struct simt_issue *how);
cudaError_t simt_set2d(void *dst, size_t pitch, int value, size_t width,
		       size_t height, const struct simt_issue *how);

/* ---- counters (counters.c) ---- */

struct simt_counts {
	uint64_t thread_insts;
	uint64_t warp_insts;
	uint64_t gld_req, gst_req, gld_sectors, gst_sectors;
	uint64_t sld_req, sst_req, bank_conflicts;
	uint64_t branches, divergent;
	uint64_t atomics, barriers;
	uint64_t flops_f32, flops_f64, flops_f16;
	uint64_t local_ld, local_st;
	uint64_t hazards; /* occurrences of hazards (hazard.c) */
	uint64_t blocks;  /* blocks launched */
};

extern bool simt_counters_on;
/* Adds one launch of `kernel` on `device`. */
/* Hazard occurrences met outside kernels (copies, memsets, library calls
 * and the host's own accesses, see hazard.c): in the total only. */
void simt_counters_add_hazards(uint64_t n);
void simt_counters_add(const char *kernel, const struct simt_counts *c,
		       double seconds, int device);
void simt_counters_init(void);
/* Public, for programs that read their own counters while they run (lab.h
 * declares it weak): sets *value to the counter `name` (a key of the
 * counters JSON: "global_load_sectors", "shared_bank_conflicts", ...,
 * "launches") summed over every kernel launched so far, and returns 0; -1
 * for an unknown name.  The first call turns counting on when
 * CUDALAB_SIMT_COUNTERS did not, so counts start from there. */
int cudalab_simt_counter(const char *name, unsigned long long *value);

/* ---- formatting of device printf (printf.c) ---- */

/* Formats one device printf call into b and returns the number of
 * arguments it used.  args_len bounds the argument buffer. */
typedef const char *(*simt_strfetch)(void *ctx, uint64_t addr);
int simt_format_printf(struct simt_buf *b, const char *fmt,
			const uint8_t *args, size_t args_len,
			simt_strfetch fetch, void *ctx);

#endif
