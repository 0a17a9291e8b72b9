/* A PTX module as simt runs it: parsed and decoded once (ptx.c,
 * decode.c, ptx_summary.c) into functions of decoded instructions with
 * resolved register rows, constant rows and branch targets, variables and
 * call sites, so that nothing above this room looks at PTX text.  Also the
 * fatbinary reader that finds the PTX nvcc embedded (fatbin.c). */
#ifndef SIMT_PTX_H
#define SIMT_PTX_H

#include "base/base.h"

struct simt_run;

/* Every lane of a warp, as a mask. */
#define SIMT_FULL 0xffffffffu

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

/* in->sub of OP_MBAR.  Operands: the object's address is the memory
 * operand; o[0] the destination (state, predicate or count), o[1] the
 * source (count, state or phase parity). */
enum {
	MB_INIT,         /* mbarrier.init [a], count */
	MB_INVAL,        /* mbarrier.inval [a] */
	MB_ARRIVE,       /* mbarrier.arrive state, [a] {, count} */
	MB_ARRIVE_DROP,  /* mbarrier.arrive_drop state, [a] {, count} */
	MB_TEST_WAIT,    /* mbarrier.test_wait / try_wait p, [a], state */
	MB_TEST_PARITY,  /* the same with .parity: p, [a], parity */
	MB_PENDING,      /* mbarrier.pending_count count, state */
	/* the cp.async kinds come last: they have no other operand */
	MB_CP_ARRIVE,    /* cp.async.mbarrier.arrive [a] */
	MB_CP_NOINC,     /* cp.async.mbarrier.arrive.noinc [a] */
};

/* in->sub2 bits of OP_MBAR. */
enum {
	MBF_NOCOMPLETE = 1,   /* .noComplete: the arrive must not end the phase */
	MBF_COUNT = 2,        /* an explicit count operand in o[1] */
};

/* in->sub of OP_TEX: the geometry of a tex, or TG_QUERY (txq, the query
 * in sub2), TG_SULD or TG_SUST (surface access: geometry in sub2, bytes
 * per value in type, values in vec, boundary mode in type2). */
enum { TG_1D, TG_2D, TG_3D, TG_A1D, TG_A2D, TG_CUBE, TG_ACUBE, TG_QUERY,
       TG_SULD, TG_SUST };

/* in->type2 of surface accesses: the boundary mode. */
enum { SB_TRAP, SB_CLAMP, SB_ZERO };

/* txq: the sizes only; the sampler queries' encodings are not
 * documented in terms of the runtime's enums. */
enum { TQ_WIDTH, TQ_HEIGHT, TQ_DEPTH, TQ_ARRAY_SIZE };

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
	bool *sum_shvars;          /* per module variable: used (shared) */
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
	uint64_t shared_off; /* .shared: its offset in a block's window */
	uint8_t *data;     /* storage of .global/.const variables */
	void *alloc;       /* the allocation data lies in (aligned within it) */
	size_t alloc_size; /* its size when it lies in the arena, else 0 */
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
	/* Per instruction, whether it ran: only with CUDALAB_SIMT_OPS
	 * (perf/ops.h), else NULL. */
	uint8_t *ran;
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

/* ptx_func.c: parses PTX text into a module; returns 0, or -1 with mod->error. */
int simt_ptx_load(struct simt_module *mod, const char *text, size_t len);
/* Frees what the module holds, its variables' storage included (the
 * loader, which put that storage in the table of allocations, takes it
 * out first). */
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

#endif
