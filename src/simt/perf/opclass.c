/* What each decoded PTX instruction costs on a device: its pipe, the
 * issue slots it takes, its result latency, and the registers it reads
 * and writes (sim.h's struct pm_op), decided once per module.
 *
 * simt runs PTX; the GPU runs what ptxas makes of it.  Most PTX
 * instructions become one SASS instruction; some become none (moves that
 * register allocation removes, parameter loads that become constant-bank
 * operands, address-space conversions of kernel parameters) and some
 * several.  The counts below are the instructions on the common path of
 * ptxas's output for sm_75 to sm_90 (CUDA 13), read from listings of
 * one-instruction kernels (build-aux/sass-counts.sh makes them again):
 * e.g. div.rn.f32 is MUFU.RCP, FCHK, five FFMA and a branch, div.s32
 * about 27 integer and conversion instructions, div.u64 a call to a
 * 70-instruction routine.  The throughput of each pipe is the device
 * file's (the Programming Guide's table); about half the instructions of
 * a composite lie on its critical path, so its latency is that many
 * latencies of its pipe. */
#include "perf/opclass.h"
#include "perf/gpu.h"
#include "base/base.h"
#include "ptx/ptx.h"
#include "ptx/tensor.h"

#include <stdlib.h>
#include <string.h>

struct cls {
	uint8_t pipe, mem, ctl, kind;
	uint16_t slots;
	float pipe_cyc, lat;
};

/* cycles a pipe is busy per warp instruction when it does `tp` results
 * per clock per SM */
static float cyc(const struct simt_gpu *g, double tp, double per_lane)
{
	double per_sched = tp / g->schedulers_per_sm;

	return per_sched > 0 ? (float)(32.0 * per_lane / per_sched) : 32.0f;
}

static struct cls mk(uint8_t pipe, uint16_t slots, float pipe_cyc, double lat,
		     uint8_t kind)
{
	struct cls c = { pipe, PM_MEM_NONE, PM_CTL_NONE, kind, slots, pipe_cyc, (float)lat };

	return c;
}

static struct cls alu(const struct simt_gpu *g, double tp, uint16_t slots)
{
	return mk(PM_PIPE_ALU, slots, cyc(g, tp, 1), g->lat_alu * (slots > 1 ? 2 : 1),
		  PM_STALL_WAIT);
}

static struct cls imad(const struct simt_gpu *g, uint16_t slots)
{
	return mk(PM_PIPE_FMA, slots, cyc(g, g->tp_int_mul, 1),
		  g->lat_imad * (slots > 1 ? (slots + 1) / 2 : 1), PM_STALL_WAIT);
}

static struct cls none(void)
{
	return mk(PM_PIPE_NONE, 0, 0, 0, PM_STALL_WAIT);
}

/* A composite of `slots` SASS instructions, most on `pipe`, one of them
 * on the SFU. */
static struct cls composite(const struct simt_gpu *g, uint8_t pipe, double tp,
			    double lat, uint16_t slots, bool sfu)
{
	struct cls c = mk(pipe, slots, cyc(g, tp, 1), lat * ((slots + 1) / 2), PM_STALL_WAIT);

	if (sfu) {
		c.lat += (float)g->lat_sfu;
		c.kind = PM_STALL_SHORT_SB;
	}
	return c;
}

static bool is_half(int t)
{
	return t == ST_F16 || t == ST_F16X2 || t == ST_BF16 || t == ST_BF16X2;
}

static bool is_64(int t)
{
	return simt_type_size(t) == 8;
}

static struct cls float_op(const struct simt_gpu *g, const struct simt_insn *in)
{
	int t = in->type;
	bool approx = in->flags & F_APPROX, ftz = in->flags & F_FTZ;

	if (is_half(t)) {
		/* tp_fp16 counts warp lanes of half2 instructions: a scalar
		 * half takes a lane as a pair does */
		struct cls c = mk(PM_PIPE_FP16, 1, cyc(g, g->tp_fp16, 1), g->lat_fma,
				  PM_STALL_WAIT);

		if (in->sub >= SUB_RCP && in->sub <= SUB_TANH)
			c = mk(PM_PIPE_SFU, 2, cyc(g, g->tp_sfu, 1), g->lat_sfu, PM_STALL_SHORT_SB);
		return c;
	}
	if (t == ST_F64) {
		double tp = g->tp_fp64 > 0 ? g->tp_fp64 : 1;

		switch (in->sub) {
		case SUB_DIV: return composite(g, PM_PIPE_FP64, tp, g->lat_fp64, 22, true);
		case SUB_SQRT: return composite(g, PM_PIPE_FP64, tp, g->lat_fp64, 22, true);
		case SUB_RCP: return approx ? mk(PM_PIPE_SFU, 2, cyc(g, g->tp_sfu, 1), g->lat_sfu,
						  PM_STALL_SHORT_SB)
				      : composite(g, PM_PIPE_FP64, tp, g->lat_fp64, 17, true);
		case SUB_RSQRT: return mk(PM_PIPE_SFU, 2, cyc(g, g->tp_sfu, 1), g->lat_sfu,
					  PM_STALL_SHORT_SB);
		case SUB_FMIN: case SUB_FMAX: case SUB_ABS: case SUB_NEG:
		case SUB_COPYSIGN: case SUB_TESTP:
			return alu(g, g->tp_compare, 2);
		default:
			return mk(PM_PIPE_FP64, 1, cyc(g, tp, 1), g->lat_fp64, PM_STALL_WAIT);
		}
	}
	switch (in->sub) {
	case SUB_DIV:
		if (approx)
			return composite(g, PM_PIPE_FMA, g->tp_fp32, g->lat_fma, 5, true);
		return composite(g, PM_PIPE_FMA, g->tp_fp32, g->lat_fma, in->rnd ? 10 : 8, true);
	case SUB_RCP:
		if (approx)
			return mk(PM_PIPE_SFU, 1, cyc(g, g->tp_sfu, 1), g->lat_sfu, PM_STALL_SHORT_SB);
		return composite(g, PM_PIPE_FMA, g->tp_fp32, g->lat_fma, 8, true);
	case SUB_SQRT:
		if (approx)
			return composite(g, PM_PIPE_SFU, g->tp_sfu, g->lat_fma, ftz ? 1 : 4, true);
		return composite(g, PM_PIPE_FMA, g->tp_fp32, g->lat_fma, 8, true);
	case SUB_RSQRT: case SUB_LG2: case SUB_EX2:
		return composite(g, PM_PIPE_SFU, g->tp_sfu, g->lat_fma, ftz ? 1 : 4, true);
	case SUB_SIN: case SUB_COS:
		return composite(g, PM_PIPE_SFU, g->tp_sfu, g->lat_fma, 2, true);
	case SUB_TANH:
		return mk(PM_PIPE_SFU, 1, cyc(g, g->tp_sfu, 1), g->lat_sfu, PM_STALL_SHORT_SB);
	case SUB_FMIN: case SUB_FMAX: case SUB_TESTP: case SUB_COPYSIGN:
		return alu(g, g->tp_compare, 1);
	case SUB_ABS: case SUB_NEG:
		return none();   /* operand modifiers of the consumer */
	default:
		return mk(PM_PIPE_FMA, 1, cyc(g, g->tp_fp32, 1), g->lat_fma, PM_STALL_WAIT);
	}
}

static struct cls int_op(const struct simt_gpu *g, const struct simt_insn *in)
{
	bool w64 = is_64(in->type);
	uint16_t two = w64 ? 2 : 1;

	switch (in->sub) {
	case SUB_ADD: case SUB_SUB:
		return alu(g, g->tp_int_add, two);
	case SUB_MUL: case SUB_MAD:
		return imad(g, w64 ? 4 : 1);
	case SUB_MULHI: case SUB_MADHI:
		return imad(g, w64 ? 4 : 1);
	case SUB_MULWIDE: case SUB_MADWIDE: case SUB_MUL24: case SUB_MUL24HI:
	case SUB_MAD24: case SUB_MAD24HI: case SUB_DP4A: case SUB_DP2A_LO:
	case SUB_DP2A_HI:
		return imad(g, 1);
	case SUB_DIV:
		return composite(g, PM_PIPE_FMA, g->tp_int_mul, g->lat_imad,
				 w64 ? 75 : simt_type_signed(in->type) ? 27 : 18, true);
	case SUB_REM:
		return composite(g, PM_PIPE_FMA, g->tp_int_mul, g->lat_imad,
				 w64 ? 75 : simt_type_signed(in->type) ? 25 : 17, true);
	case SUB_MIN: case SUB_MAX: case SUB_ABS: case SUB_NEG:
		return alu(g, g->tp_compare, two);
	case SUB_POPC:
		return mk(PM_PIPE_CONV, two, cyc(g, g->tp_popc, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case SUB_CLZ: case SUB_BFIND: case SUB_BFIND_SHIFT:
		return mk(PM_PIPE_CONV, (uint16_t)(two + 1), cyc(g, g->tp_clz, 1), g->lat_conv,
			  PM_STALL_SHORT_SB);
	case SUB_BREV:
		return mk(PM_PIPE_CONV, two, cyc(g, g->tp_bitrev, 1), g->lat_conv,
			  PM_STALL_SHORT_SB);
	case SUB_BFE: case SUB_BFI: case SUB_SAD:
		return alu(g, g->tp_int_add, 2);
	case SUB_SHFL_L: case SUB_SHFL_R: case SUB_SHL: case SUB_SHR:
		return alu(g, g->tp_shift, two);
	case SUB_FNS:
		return alu(g, g->tp_int_add, 12);
	default:
		return alu(g, g->tp_logic, two);
	}
}

static struct cls typed_op(const struct simt_gpu *g, const struct simt_insn *in)
{
	switch (in->op) {
	case OP_CVT_F32_U64: case OP_CVT_F32_S64: case OP_CVT_F64_U64:
	case OP_CVT_F64_S64: case OP_CVT_F32_F64: case OP_CVT_F64_F32:
	case OP_CVT_S32_F64: case OP_CVT_U32_F64: case OP_CVT_F64_U32:
	case OP_CVT_F64_S32: case OP_CVT_RND_F64:
		return mk(PM_PIPE_CONV, 1, cyc(g, g->tp_conv64 > 0 ? g->tp_conv64 : 1, 1),
			  g->lat_conv, PM_STALL_SHORT_SB);
	case OP_CVT_F32_U32: case OP_CVT_F32_S32: case OP_CVT_F16_F32:
	case OP_CVT_F32_F16: case OP_CVT_S32_F32: case OP_CVT_U32_F32:
	case OP_CVT_RND_F32:
		return mk(PM_PIPE_CONV, 1, cyc(g, g->tp_conv, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_CVT_INT:
		return alu(g, g->tp_int_add, 1);
	case OP_MULHI_U32: case OP_MULHI_S32:
		return imad(g, 1);
	case OP_MULHI_U64: case OP_MULHI_S64:
		return imad(g, 6);
	case OP_DIV_U32: return composite(g, PM_PIPE_FMA, g->tp_int_mul, g->lat_imad, 18, true);
	case OP_DIV_S32: return composite(g, PM_PIPE_FMA, g->tp_int_mul, g->lat_imad, 27, true);
	case OP_REM_U32: return composite(g, PM_PIPE_FMA, g->tp_int_mul, g->lat_imad, 17, true);
	case OP_REM_S32: return composite(g, PM_PIPE_FMA, g->tp_int_mul, g->lat_imad, 25, true);
	case OP_DIV_U64: case OP_DIV_S64: case OP_REM_U64: case OP_REM_S64:
		return composite(g, PM_PIPE_FMA, g->tp_int_mul, g->lat_imad, 75, true);
	case OP_ABS_S32: case OP_NEG_S32:
		return alu(g, g->tp_compare, 1);
	case OP_ABS_S64: case OP_NEG_S64: case OP_MIN_S64: case OP_MAX_S64:
	case OP_MIN_U64: case OP_MAX_U64:
		return alu(g, g->tp_compare, 2);
	case OP_POPC_32:
		return mk(PM_PIPE_CONV, 1, cyc(g, g->tp_popc, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_POPC_64:
		return mk(PM_PIPE_CONV, 3, cyc(g, g->tp_popc, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_CLZ_32:
		return mk(PM_PIPE_CONV, 2, cyc(g, g->tp_clz, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_CLZ_64:
		return mk(PM_PIPE_CONV, 4, cyc(g, g->tp_clz, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_BREV_32:
		return mk(PM_PIPE_CONV, 1, cyc(g, g->tp_bitrev, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_SHF_L: case OP_SHF_R:
		return alu(g, g->tp_shift, 1);
	case OP_BFE_U32: case OP_BFE_S32:
		return alu(g, g->tp_int_add, 2);
	default:   /* OP_PRMT */
		return alu(g, g->tp_logic, 1);
	}
}

/* Tensor-core instructions: an mma keeps the tensor pipe busy for its
 * FLOPs at the device's dense rate for its input type; matrix loads and
 * stores are memory instructions. */
static struct cls tensor_op(const struct simt_gpu *g, const struct simt_module *mod,
			    const struct simt_insn *in)
{
	float lsu = (float)(32.0 / (g->ldst_per_sm / g->schedulers_per_sm));
	struct simt_tensor_info ti;
	struct cls c;
	double tflops, per_clk;

	simt_tensor_info(mod, in, &ti);
	switch (ti.kind) {
	case TI_MMA:
		tflops = ti.type == ST_TF32 ? g->tc_tf32
		       : ti.type == ST_BF16 ? g->tc_bf16
		       : ti.f32_acc ? g->tc_fp16_f32acc : g->tc_fp16_f16acc;
		per_clk = tflops * 1e12 / (g->sms * simt_gpu_clock_hz(g) * g->schedulers_per_sm);
		c = mk(PM_PIPE_TENSOR, 1, per_clk > 0 ? (float)(ti.flops / per_clk) : 1024.0f,
		       g->lat_tensor, PM_STALL_WAIT);
		return c;
	case TI_LOAD: case TI_STORE:
		c = mk(PM_PIPE_LSU, 1, lsu, 0, in->space == SS_SHARED ? PM_STALL_SHORT_SB
								    : PM_STALL_LONG_SB);
		c.mem = in->space == SS_SHARED ? (ti.kind == TI_STORE ? PM_MEM_SST : PM_MEM_SLD)
					       : (ti.kind == TI_STORE ? PM_MEM_GST : PM_MEM_GLD);
		return c;
	default:
		return alu(g, g->tp_logic, 1);
	}
}

/* Global or generic memory resolved to global, local and constant go
 * through L1; shared has its own wavefronts; parameters are operands. */
static struct cls mem_op(const struct simt_gpu *g, const struct simt_insn *in, bool store)
{
	float lsu = (float)(32.0 / (g->ldst_per_sm / g->schedulers_per_sm));
	struct cls c = mk(PM_PIPE_LSU, 1, lsu, 0, PM_STALL_LONG_SB);

	if (in->am == AM_KPARAM || in->space == SS_PARAM || in->space == SS_KPARAM ||
	    in->am == AM_PARAM)
		return none();
	if (in->space == SS_SHARED) {
		c.mem = store ? PM_MEM_SST : PM_MEM_SLD;
		c.kind = PM_STALL_SHORT_SB;
		return c;
	}
	if (in->space == SS_CONST && in->am != AM_REG) {
		c = mk(PM_PIPE_ALU, 1, cyc(g, g->tp_int_add, 1), g->lat_alu, PM_STALL_WAIT);
		return c;
	}
	c.mem = store ? PM_MEM_GST : PM_MEM_GLD;
	if (in->space == SS_LOCAL || in->am == AM_LOCVAR)
		c.lat = (float)g->lat_l1;
	return c;
}

static struct cls classify(const struct simt_gpu *g, const struct simt_module *mod,
			   const struct simt_insn *in)
{
	float lsu = (float)(32.0 / (g->ldst_per_sm / g->schedulers_per_sm));
	struct cls c;

	switch (in->op) {
	case OP_NOP: case OP_MOV: case OP_PACK: case OP_UNPACK: case OP_MOV_SHADDR:
	case OP_MOV_LOCADDR: case OP_MOV_KPADDR: case OP_MOV_FUNC: case OP_CVTA_TO:
	case OP_CVT_U64_U32: case OP_CVT_TRUNC32:
		if (in->op == OP_MOV && in->o[1].kind == OK_SREG)
			return mk(PM_PIPE_NONE, 1, 0, g->lat_conv, PM_STALL_SHORT_SB);
		return none();
	case OP_MOV_PRED: case OP_CVT_S64_S32: case OP_CVTA_LOCAL: case OP_CVTA_SHARED:
	case OP_CVTA_TO_LOCAL: case OP_CVTA_TO_SHARED: case OP_AND_P: case OP_OR_P:
	case OP_XOR_P: case OP_NOT_P: case OP_VOTE: case OP_ACTIVEMASK: case OP_ELECT:
	case OP_SETCOND:
		return alu(g, g->tp_logic, 1);
	case OP_ISSPACEP: case OP_SET: case OP_SLCT:
		return alu(g, g->tp_compare, 2);
	case OP_CLOCK: case OP_CLOCK64: case OP_GTIMER:
		return mk(PM_PIPE_NONE, 1, 0, g->lat_alu, PM_STALL_WAIT);
	case OP_ADD_I32: case OP_SUB_I32:
		return alu(g, g->tp_int_add, 1);
	case OP_ADD_I64: case OP_SUB_I64:
		return alu(g, g->tp_int_add, 2);
	case OP_MUL_LO_I32: case OP_MAD_LO_I32: case OP_MUL_WIDE_S32:
	case OP_MUL_WIDE_U32: case OP_MAD_WIDE_S32: case OP_MAD_WIDE_U32:
		return imad(g, 1);
	case OP_MUL_LO_I64: case OP_MAD_LO_I64:
		return imad(g, 4);
	case OP_ADD_F32: case OP_SUB_F32: case OP_MUL_F32: case OP_FMA_F32:
		return mk(PM_PIPE_FMA, 1, cyc(g, g->tp_fp32, 1), g->lat_fma, PM_STALL_WAIT);
	case OP_ADD_F64: case OP_SUB_F64: case OP_MUL_F64: case OP_FMA_F64:
		return mk(PM_PIPE_FP64, 1, cyc(g, g->tp_fp64 > 0 ? g->tp_fp64 : 1, 1),
			  g->lat_fp64, PM_STALL_WAIT);
	case OP_NEG_F32: case OP_ABS_F32:
		return none();
	case OP_MIN_F32: case OP_MAX_F32: case OP_MIN_S32: case OP_MAX_S32:
	case OP_MIN_U32: case OP_MAX_U32:
	case OP_SETP_S32: case OP_SETP_U32: case OP_SETP_F32: case OP_SELP:
		return alu(g, g->tp_compare, 1);
	case OP_SETP_S64: case OP_SETP_U64: case OP_SETP_F64: case OP_SETP_GEN:
		return alu(g, g->tp_compare, 2);
	case OP_SHL_32: case OP_SHR_U32: case OP_SHR_S32:
		return alu(g, g->tp_shift, 1);
	case OP_SHL_64: case OP_SHR_U64: case OP_SHR_S64:
		return alu(g, g->tp_shift, 2);
	case OP_AND_32: case OP_OR_32: case OP_XOR_32: case OP_NOT_32:
		return alu(g, g->tp_logic, 1);
	case OP_AND_64: case OP_OR_64: case OP_XOR_64: case OP_NOT_64:
		return alu(g, g->tp_logic, 2);
	case OP_CVT:
		return mk(PM_PIPE_CONV, 1, cyc(g, g->tp_conv, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_IALU:
		return int_op(g, in);
	case OP_FALU:
		return float_op(g, in);
	case OP_TESTP:
		return alu(g, g->tp_compare, 1);
	case OP_LD:
		return mem_op(g, in, false);
	case OP_ST:
		return mem_op(g, in, true);
	case OP_ATOM:
		c = mk(PM_PIPE_LSU, 1, lsu, 0, PM_STALL_LONG_SB);
		c.mem = in->space == SS_SHARED ? PM_MEM_SATOM : PM_MEM_GATOM;
		if (in->space == SS_SHARED)
			c.kind = PM_STALL_SHORT_SB;
		return c;
	case OP_PREFETCH:
		return mk(PM_PIPE_LSU, 1, lsu, 0, PM_STALL_WAIT);
	case OP_BRA: case OP_BRX: case OP_RET: case OP_TRAP: case OP_BRKPT:
	case OP_NANOSLEEP: case OP_CP_COMMIT: case OP_BAR_WARP: case OP_BAR_ARRIVE:
		return mk(PM_PIPE_CBU, 1, 1, 0, PM_STALL_WAIT);
	case OP_CALL: case OP_CALLI:
		return mk(PM_PIPE_CBU, 2, 1, 0, PM_STALL_WAIT);
	case OP_EXIT:
		c = mk(PM_PIPE_CBU, 1, 1, 0, PM_STALL_WAIT);
		c.ctl = PM_CTL_EXIT;
		return c;
	case OP_BAR: case OP_BAR_RED:
		c = mk(PM_PIPE_CBU, 1, 1, 0, PM_STALL_WAIT);
		c.ctl = PM_CTL_BAR;
		return c;
	case OP_MEMBAR:
		c = mk(PM_PIPE_CBU, 1, 1, (in->sem & MSEM_CTA) ? g->lat_shared : g->lat_l2,
		       PM_STALL_WAIT);
		c.ctl = PM_CTL_FENCE;
		return c;
	case OP_CP_ASYNC:
		c = mk(PM_PIPE_LSU, 1, lsu, 0, PM_STALL_LONG_SB);
		c.mem = PM_MEM_ASYNC;
		return c;
	case OP_CP_WAIT:
		c = mk(PM_PIPE_CBU, 1, 1, 0, PM_STALL_LONG_SB);
		c.ctl = PM_CTL_WAIT_ASYNC;
		return c;
	case OP_MBAR:
		return mk(PM_PIPE_LSU, 1, lsu, g->lat_shared, PM_STALL_SHORT_SB);
	case OP_SHFL:
		return mk(PM_PIPE_LSU, 1, cyc(g, g->tp_shfl, 1), g->lat_shfl, PM_STALL_SHORT_SB);
	case OP_MATCH:
		return mk(PM_PIPE_LSU, 8, cyc(g, g->tp_shfl, 1), g->lat_shfl * 4, PM_STALL_SHORT_SB);
	case OP_REDUX:
		return mk(PM_PIPE_LSU, 1, cyc(g, g->tp_redux > 0 ? g->tp_redux : g->tp_shfl, 1),
			  g->lat_shfl, PM_STALL_SHORT_SB);
	case OP_VPRINTF: case OP_ASSERTFAIL: case OP_MALLOC: case OP_FREE:
		return mk(PM_PIPE_LSU, 20, lsu, g->lat_l2, PM_STALL_LONG_SB);
	case OP_TENSOR:
		return tensor_op(g, mod, in);
	case OP_TENSOR_LANE:
		return mk(PM_PIPE_CONV, 1, cyc(g, g->tp_conv, 1), g->lat_conv, PM_STALL_SHORT_SB);
	case OP_TEX:
		c = mk(PM_PIPE_LSU, 1, lsu, g->lat_l1, PM_STALL_LONG_SB);
		return c;
	default:
		if (in->op >= OP_CVT_F32_U32 && in->op < OP_UNSUPPORTED)
			return typed_op(g, in);
		return mk(PM_PIPE_ALU, 1, cyc(g, g->tp_int_add, 1), g->lat_alu, PM_STALL_WAIT);
	}
}

/* ---- registers ---- */

static void add_row(uint32_t *rows, int *n, int cap, const struct simt_opnd *o)
{
	if (o->kind == OK_REG && *n < cap)
		rows[(*n)++] = o->idx;
}

/* Destinations first: most instructions write their first operand; loads
 * all their vector elements; setp and shfl a second predicate too;
 * stores, branches, barriers and fences write none. */
static void deps_of(const struct simt_module *mod, const struct simt_insn *in,
		    uint32_t *dst, int *nd, uint32_t *src, int *ns)
{
	int i, first_src = 1;

	*nd = *ns = 0;
	switch (in->op) {
	case OP_ST: case OP_BAR: case OP_BAR_ARRIVE: case OP_BRA: case OP_BRX:
	case OP_MEMBAR: case OP_CP_ASYNC: case OP_CP_COMMIT: case OP_CP_WAIT:
	case OP_EXIT: case OP_RET: case OP_TRAP: case OP_BRKPT: case OP_NOP:
	case OP_NANOSLEEP: case OP_PREFETCH: case OP_BAR_WARP: case OP_CALL:
	case OP_CALLI: case OP_VPRINTF: case OP_ASSERTFAIL:
		first_src = 0;
		break;
	case OP_LD: case OP_TEX:
		for (i = 0; i < in->vec && i < 6; i++)
			add_row(dst, nd, 16, &in->o[i]);
		first_src = in->vec ? in->vec : 1;
		break;
	case OP_SETP_S32: case OP_SETP_U32: case OP_SETP_S64: case OP_SETP_U64:
	case OP_SETP_F32: case OP_SETP_F64: case OP_SETP_GEN: case OP_SHFL:
		add_row(dst, nd, 16, &in->o[0]);
		add_row(dst, nd, 16, &in->o[1]);
		first_src = 2;
		break;
	case OP_TENSOR: {
		struct simt_tensor_info ti;

		simt_tensor_info(mod, in, &ti);
		for (i = 0; i < ti.ndst && *nd < 16; i++)
			dst[(*nd)++] = ti.dst[i];
		for (i = 0; i < ti.nsrc && *ns < 40; i++)
			src[(*ns)++] = ti.src[i];
		first_src = 6;
		break;
	}
	default:
		add_row(dst, nd, 16, &in->o[0]);
		break;
	}
	/* operands a decoder leaves unused are OK_NONE */
	for (i = first_src; i < 6; i++)
		add_row(src, ns, 40, &in->o[i]);
	if (in->addr.kind == OK_REG && in->am == AM_REG)
		add_row(src, ns, 40, &in->addr);
	if (in->guard >= 0 && *ns < 40)
		src[(*ns)++] = (uint32_t)in->guard;
}

/* ---- shared-memory accesses ptxas merges ---- */

/* Ends a stretch in which accesses may merge: control flow, barriers,
 * fences, calls, atomics and anything asynchronous. */
static bool stretch_end(const struct simt_insn *in)
{
	switch (in->op) {
	case OP_BRA: case OP_BRX: case OP_CALL: case OP_CALLI: case OP_RET:
	case OP_EXIT: case OP_TRAP: case OP_BAR: case OP_BAR_ARRIVE:
	case OP_BAR_RED: case OP_MEMBAR: case OP_ATOM: case OP_CP_ASYNC:
	case OP_CP_WAIT: case OP_MBAR: case OP_TENSOR: case OP_BAR_WARP:
	case OP_SHFL: case OP_VPRINTF:
		return true;
	default:
		return false;
	}
}

static bool mergeable(const struct simt_insn *in)
{
	int s = simt_type_size(in->type);

	return (in->op == OP_LD || in->op == OP_ST) && in->space == SS_SHARED &&
	       in->am == AM_REG && in->vec == 1 && in->addr.kind == OK_REG &&
	       (s == 4 || s == 8) && in->guard < 0;
}

/* Whether an instruction in (a, b) writes row r. */
static bool written_between(const struct pm_code *c, uint32_t a, uint32_t b, uint32_t r)
{
	uint32_t pc;
	int i;

	for (pc = a + 1; pc < b; pc++)
		for (i = 0; i < c->op[pc].ndst; i++)
			if (c->rows[c->op[pc].dep + i] == r)
				return true;
	return false;
}

/* The member of stretch [a, b) that is a `store` access at `off` from
 * base row r with size s, not yet grouped; UINT32_MAX if none. */
static uint32_t member_at(const struct simt_module *mod, const struct pm_code *c,
			  uint32_t a, uint32_t b, bool store, uint32_t r, int s,
			  int64_t off)
{
	uint32_t pc;

	for (pc = a; pc < b; pc++) {
		const struct simt_insn *in = &mod->code[pc];

		if (mergeable(in) && (in->op == OP_ST) == store && in->addr.idx == r &&
		    simt_type_size(in->type) == s && in->imm == off &&
		    c->merge[pc].role == PM_MERGE_NONE)
			return pc;
	}
	return UINT32_MAX;
}

/* Forms the group of n members from the one at pc (offset aligned to the
 * group's width), if all are there and share the base's value. */
static bool try_group(struct pm_code *c, const struct simt_module *mod, uint32_t a,
		      uint32_t b, uint32_t pc, int n)
{
	const struct simt_insn *in = &mod->code[pc];
	bool store = in->op == OP_ST;
	int s = simt_type_size(in->type), k, i;
	uint32_t pcs[4], lo = pc, hi = pc, lead;
	uint32_t dst[16];
	int nd = 0;

	if (n * s > 16 || in->imm % (n * s) != 0)
		return false;
	for (k = 0; k < n; k++) {
		pcs[k] = member_at(mod, c, a, b, store, in->addr.idx, s, in->imm + k * s);
		if (pcs[k] == UINT32_MAX)
			return false;
		if (pcs[k] < lo)
			lo = pcs[k];
		if (pcs[k] > hi)
			hi = pcs[k];
	}
	if (written_between(c, lo, hi, in->addr.idx))
		return false;
	lead = lo;
	for (k = 0; k < n; k++) {
		const struct pm_op *o = &c->op[pcs[k]];

		for (i = 0; i < o->ndst && nd < 16; i++)
			dst[nd++] = c->rows[o->dep + i];
	}
	for (k = 0; k < n; k++) {
		struct pm_op *o = &c->op[pcs[k]];

		if (pcs[k] == lead) {
			const uint32_t *src = c->rows + o->dep + o->ndst;
			uint32_t srcs[40];
			int ns = o->nsrc;

			memcpy(srcs, src, (size_t)ns * sizeof *srcs);
			pm_code_deps(c, o, dst, nd, srcs, ns);
			c->merge[lead].role = PM_MERGE_LEAD;
			c->merge[lead].width = (uint8_t)(n * s);
			c->merge[lead].delta = (int16_t)(in->imm - mod->code[lead].imm);
		} else {
			o->slots = 0;
			o->pipe = PM_PIPE_NONE;
			o->mem = PM_MEM_NONE;
			o->ndst = 0;
			o->nsrc = 0;
			c->merge[pcs[k]].role = PM_MERGE_FOLLOW;
		}
	}
	return true;
}

/* Groups the stretch's loads (and stores) at consecutive offsets off one
 * base into aligned vectors of 16 bytes, else 8. */
static void merge_stretch(struct pm_code *c, const struct simt_module *mod,
			  uint32_t a, uint32_t b)
{
	uint32_t pc;
	int n;

	for (n = 4; n >= 2; n /= 2)
		for (pc = a; pc < b; pc++)
			if (mergeable(&mod->code[pc]) && c->merge[pc].role == PM_MERGE_NONE)
				try_group(c, mod, a, b, pc, n);
}

/* A shared store splits a stretch of loads and a load one of stores:
 * the stretches here are cut at any shared access of the other kind. */
static void merge_shared(struct pm_code *c, const struct simt_module *mod)
{
	bool *target = simt_xcalloc(mod->ncode ? mod->ncode : 1, sizeof *target);
	uint32_t pc, a = 0;
	int kind = -1;

	for (pc = 0; pc < mod->ncode; pc++) {
		const struct simt_insn *in = &mod->code[pc];

		if ((in->op == OP_BRA) && in->target < mod->ncode)
			target[in->target] = true;
	}
	for (pc = 0; pc <= mod->ncode; pc++) {
		const struct simt_insn *in = pc < mod->ncode ? &mod->code[pc] : NULL;
		int k = in && in->space == SS_SHARED && (in->op == OP_LD || in->op == OP_ST)
			? in->op == OP_ST : -1;

		if (!in || stretch_end(in) || target[pc] || (k >= 0 && kind >= 0 && k != kind)) {
			merge_stretch(c, mod, a, pc);
			a = in && !stretch_end(in) ? pc : pc + 1;
			kind = k;
			continue;
		}
		if (k >= 0)
			kind = k;
	}
	free(target);
}

/* ---- multiply-adds ptxas fuses, half operations it pairs ---- */

static bool is_half_scalar(int t)
{
	return t == ST_F16 || t == ST_BF16;
}

/* A multiply without a rounding mode, which ptxas may fuse with the add
 * that consumes it (PTX ISA: add and mul without .rn may be contracted). */
static bool fusable_mul(const struct simt_insn *in)
{
	if (in->rnd != RND_NONE)
		return false;
	if (in->op == OP_MUL_F32)
		return true;
	return in->op == OP_FALU && in->sub == SUB_MUL && is_half(in->type);
}

static bool fusable_add(const struct simt_insn *in, int type)
{
	if (in->rnd != RND_NONE)
		return false;
	if (type == ST_F32)
		return in->op == OP_ADD_F32 || in->op == OP_SUB_F32;
	return in->op == OP_FALU && in->type == type &&
	       (in->sub == SUB_ADD || in->sub == SUB_SUB);
}

/* How many instructions of each function read each row (saturating). */
static uint8_t *row_reads(const struct pm_code *c, const struct simt_module *mod)
{
	uint32_t nrows = 0, pc;
	uint8_t *n;
	int i;

	for (pc = 0; pc < c->n; pc++)
		for (i = 0; i < c->op[pc].nsrc; i++) {
			uint32_t r = c->rows[c->op[pc].dep + c->op[pc].ndst + i];

			if (r + 1 > nrows)
				nrows = r + 1;
		}
	n = simt_xcalloc(nrows + 1, 1);
	for (pc = 0; pc < c->n; pc++)
		for (i = 0; i < c->op[pc].nsrc; i++) {
			uint32_t r = c->rows[c->op[pc].dep + c->op[pc].ndst + i];

			if (n[r] < 255)
				n[r]++;
		}
	(void)mod;
	return n;
}

static bool reads_row(const struct pm_code *c, uint32_t pc, uint32_t r)
{
	const struct pm_op *o = &c->op[pc];
	int i;

	for (i = 0; i < o->nsrc; i++)
		if (c->rows[o->dep + o->ndst + i] == r)
			return true;
	return false;
}

static void make_free(struct pm_op *o)
{
	o->slots = 0;
	o->pipe = PM_PIPE_NONE;
	o->lat = 0;
}

/* In stretch [a, b): a multiply whose result only one later add of the
 * stretch reads becomes part of that add (an FMA); then scalar half
 * operations are paired, two independent ones of a kind making one
 * half2 instruction. */
static void fuse_stretch(struct pm_code *c, const struct simt_module *mod,
			 const uint8_t *reads, uint32_t a, uint32_t b)
{
	uint32_t pc, q;

	for (pc = a; pc < b; pc++) {
		const struct simt_insn *in = &mod->code[pc];
		const struct pm_op *o = &c->op[pc];
		uint32_t r;

		if (!fusable_mul(in) || o->ndst != 1 || in->guard >= 0)
			continue;
		r = c->rows[o->dep];
		if (reads[r] != 1)
			continue;
		for (q = pc + 1; q < b; q++)
			if (reads_row(c, q, r)) {
				if (fusable_add(&mod->code[q], in->type) && mod->code[q].guard < 0)
					make_free(&c->op[pc]);
				break;
			}
	}
	for (pc = a; pc < b; pc++) {
		const struct simt_insn *in = &mod->code[pc];

		if (in->op != OP_FALU || !is_half_scalar(in->type) || !c->op[pc].slots ||
		    c->op[pc].pipe != PM_PIPE_FP16 || in->guard >= 0)
			continue;
		for (q = pc + 1; q < b; q++) {
			const struct simt_insn *x = &mod->code[q];

			if (x->op == OP_FALU && x->type == in->type && x->sub == in->sub &&
			    c->op[q].slots && c->op[q].pipe == PM_PIPE_FP16 && x->guard < 0 &&
			    (c->op[pc].ndst != 1 || !reads_row(c, q, c->rows[c->op[pc].dep]))) {
				make_free(&c->op[q]);
				c->op[q].lat = c->op[pc].lat;
				break;
			}
		}
	}
}

static void fuse_and_pair(struct pm_code *c, const struct simt_module *mod)
{
	uint8_t *reads = row_reads(c, mod);
	uint32_t pc, a = 0;

	for (pc = 0; pc <= mod->ncode; pc++)
		if (pc == mod->ncode || stretch_end(&mod->code[pc])) {
			fuse_stretch(c, mod, reads, a, pc);
			a = pc + 1;
		}
	free(reads);
}

void pm_code_build(struct pm_code *c, const struct simt_module *mod,
		   const struct simt_gpu *g)
{
	uint32_t pc;

	memset(c, 0, sizeof *c);
	c->n = mod->ncode;
	c->op = simt_xcalloc(mod->ncode ? mod->ncode : 1, sizeof *c->op);
	for (pc = 0; pc < mod->ncode; pc++) {
		const struct simt_insn *in = &mod->code[pc];
		struct cls k = classify(g, mod, in);
		struct pm_op *o = &c->op[pc];
		uint32_t dst[16], src[40];
		int nd, ns;

		o->pipe = k.pipe;
		o->mem = k.mem;
		o->ctl = k.ctl;
		o->lat_kind = k.kind;
		o->slots = k.slots;
		o->pipe_cyc = k.pipe_cyc;
		o->lat = k.lat;
		deps_of(mod, in, dst, &nd, src, &ns);
		pm_code_deps(c, o, dst, nd, src, ns);
	}
	c->merge = simt_xcalloc(mod->ncode ? mod->ncode : 1, sizeof *c->merge);
	merge_shared(c, mod);
	fuse_and_pair(c, mod);
}
