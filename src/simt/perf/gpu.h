/* GPUs as data: the device files the time model reads.
 *
 * A device file (devices/ID.gpu, format in devices/FORMAT.md) names one GPU's
 * numbers, each citing where it came from.  simt_gpu_find(id) looks for
 * ID.gpu in the directories of $CUDALAB_SIMT_DEVICES (colon-separated),
 * then $CUDALAB_HOME/devices, then the installed devices directory, so a
 * user adds a GPU by dropping a file, without rebuilding anything. */
#ifndef SIMT_PERF_GPU_H
#define SIMT_PERF_GPU_H

#include <stdbool.h>
#include <stddef.h>

struct simt_buf;

#define SIMT_GPU_MAX_CARVEOUTS 16

/* Every number of a device file, by its key (gpu.c's key table). */
struct simt_gpu {
	char id[64];
	char name[96];
	char arch[16];          /* "sm_90" */
	int arch_num;           /* 90 */
	double cc;

	double sms, clock_mhz, schedulers_per_sm;

	double max_threads_per_sm, max_blocks_per_sm, max_threads_per_block;
	double regs_per_sm, max_regs_per_thread, reg_alloc_unit;
	double shared_per_sm_kb, shared_per_block_kb, shared_reserved_per_block;
	double shared_alloc_unit, l1_shared_kb;
	double carveouts_kb[SIMT_GPU_MAX_CARVEOUTS];
	int ncarveouts;

	/* results per clock per SM */
	double tp_fp16, tp_fp32, tp_fp64, tp_sfu, tp_int_add, tp_int_mul;
	double tp_shift, tp_compare, tp_logic, tp_bitrev, tp_popc, tp_clz;
	double tp_shfl, tp_redux, tp_conv, tp_conv64, tp_conv_small;

	/* dense tensor-core peaks, TFLOP/s (TOP/s for int8) */
	double tc_fp16_f32acc, tc_fp16_f16acc, tc_bf16, tc_tf32, tc_fp8;
	double tc_int8, tc_fp64;

	/* latencies, cycles */
	double lat_fma, lat_alu, lat_imad, lat_fp64, lat_sfu, lat_conv;
	double lat_shfl, lat_shared, lat_l1, lat_l2, lat_dram, lat_tensor;
	double lat_barrier, lat_atomic_shared, lat_atomic_global;

	/* memory */
	double sector_bytes, line_bytes, l1_bytes_per_clk, shared_bytes_per_clk;
	double shared_banks, l2_kb, l2_gbps, dram_gbps, dram_gbps_measured;
	double atomic_same_addr_per_clk, atomic_l2_per_clk;
	double ldst_per_sm;

	/* host and links */
	double launch_us, launch_host_us, pcie_gbps, pcie_latency_us;
	double pageable_gbps, nvlink_gbps, nvlink_latency_us, copy_engines;
};

/* Reads the device file at `path` into *g (id from the file name).
 * Returns 0, or -1 with the reason, naming the file and line, in err. */
int simt_gpu_load(const char *path, struct simt_gpu *g, struct simt_buf *err);

/* The same from text already read; `path` is only used in messages. */
int simt_gpu_parse(const char *path, const char *text, size_t len,
		   struct simt_gpu *g, struct simt_buf *err);

/* The device file of `id` on the search path above, loaded once and kept.
 * NULL with the reason in err when no file has that id or it is broken. */
const struct simt_gpu *simt_gpu_find(const char *id, struct simt_buf *err);

/* The ids of the device files on the search path, sorted, into a
 * NUL-separated list in *out (for messages that list what exists). */
void simt_gpu_list(struct simt_buf *out);

/* Derived figures. */
double simt_gpu_clock_hz(const struct simt_gpu *g);
/* Bytes per core clock for the whole chip. */
double simt_gpu_dram_bytes_per_clk(const struct simt_gpu *g);
double simt_gpu_l2_bytes_per_clk(const struct simt_gpu *g);

#endif
