/* run.h — building and running CUDA programs: finding nvcc, choosing a
 * backend (a real GPU or simt), compiling with a build cache, running the
 * result under limits, and turning an exercise harness's report into a
 * verdict (docs/guide.md, "Result JSON").
 *
 * Environment read here, besides PATH and CUDA_HOME:
 *   CUDALAB_NVCC      the nvcc to use (a name looked up in PATH, or a path);
 *                     when set, nothing else is tried
 *   CUDALAB_GPU       0: behave as if there were no GPU; 1: as if there were
 *                     one (no probing); X.Y: one of compute capability X.Y
 *   CUDALAB_SIMT_LIB  the simt library to link instead of the one found
 *                     beside the binary or in the data directory */
#ifndef CUDALAB_RUN_H
#define CUDALAB_RUN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* SSH and SLURM run the check elsewhere (remote.c), on a GPU there or, as
 * auto does, on simt when it has none. */
enum run_backend { BACKEND_AUTO, BACKEND_GPU, BACKEND_SIMT, BACKEND_SSH, BACKEND_SLURM };

/* What this machine offers for running CUDA programs. */
struct run_probe {
	char *nvcc;         /* path to nvcc, NULL when not found */
	char *nvcc_why;     /* why nvcc is missing, NULL when found */
	char *nvcc_version; /* e.g. "13.0, V13.0.88", NULL when unknown */
	int gpu;            /* a usable GPU was found */
	int gpu_count;      /* how many (nvidia-smi's list); 0 when not known */
	char *gpu_name;     /* its name when known */
	char *gpu_arch;     /* e.g. "sm_90" from its compute capability, NULL when unknown */
	char *why;          /* one line: why the GPU is (not) usable */
	char *simt_lib;     /* path to libcudalab-simt.a, NULL when not found */
	unsigned simt_sanitize; /* RUN_SAN_* the library was built with (SANITIZE=...) */
};

/* Sanitizers a simt library can be built with; a program linking it
 * needs the same runtimes. */
enum { RUN_SAN_ADDRESS = 1, RUN_SAN_UNDEFINED = 2 };

/* Fills *p; never fails (missing pieces are NULL / 0 with p->why saying so). */
void run_probe(struct run_probe *p);
/* Like run_probe, but keeps what nvidia-smi said in cache_dir (created when
 * missing) until the next boot, so that repeated checks stay fast. */
void run_probe_cached(struct run_probe *p, const char *cache_dir);
void run_probe_free(struct run_probe *p);
/* The backend auto resolves to on this machine. */
enum run_backend run_backend_choose(const struct run_probe *p, enum run_backend wanted);
/* The backend for a program that needs `gpus` devices: run_backend_choose's,
 * except on a machine known to have fewer GPUs than that, where auto falls
 * back to simt (which simulates them) with *note saying so, and the gpu
 * backend is refused.  Returns 0, or -1 with *why set (caller frees
 * *why and *note). */
int run_backend_for(const struct run_probe *p, enum run_backend wanted, int gpus,
		    enum run_backend *out, char **why, char **note);
const char *run_backend_name(enum run_backend b);
int run_backend_parse(const char *name, enum run_backend *out);
/* Checks that backend b (not AUTO) can build and run programs here.
 * Returns 0, or -1 with *why set to one line (caller frees). */
int run_backend_ready(const struct run_probe *p, enum run_backend b, char **why);

/* The largest learner's file a check reads (and a remote request
 * carries). */
#define RUN_SOURCE_CAP (4u << 20)
/* A learner's source file, whole and NUL-terminated: a regular file of at
 * most RUN_SOURCE_CAP bytes (a device or a FIFO is refused at once, never
 * read).  NULL with *why set (caller frees) otherwise. */
char *run_read_source(const char *path, size_t *len, char **why);

/* Runs argv (no shell) and captures stdout+stderr, at most cap bytes kept.
 * Returns the wait status, or -1 when the program could not be started. */
int run_capture(char *const argv[], char **out, size_t cap);

/* --- child processes under limits ------------------------------------- */

/* A program run in its own process group with stdin from /dev/null, no
 * core files, a wall-clock limit after which the whole group is killed,
 * and stdout/stderr captured up to a cap (the rest is read and counted, so
 * a flood never blocks the child).  With want_result, a third pipe's
 * write end is passed to the child and its number put in
 * CUDALAB_RESULT_FD.  With a sandbox (sandbox.c), the program runs under
 * an init of cudalab's own in namespaces of its own where the kernel
 * allows it; sandboxed says what held. */
struct run_sandbox;
struct run_child {
	char *const *argv;          /* argv[0] is looked up in PATH */
	const char *const *env;     /* "NAME=VALUE" set on top of the environment; may be NULL */
	int clean_env;              /* leave every CUDALAB_* of cudalab's own environment out */
	const char *dir;            /* working directory, NULL: unchanged */
	double timeout_s;           /* <= 0: no limit */
	size_t cap;                 /* bytes kept of stdout and of stderr */
	int merge;                  /* stderr goes to the stdout pipe (one log) */
	int want_result;
	int *give_fds;              /* descriptors the child keeps at their numbers; */
	size_t n_give;              /* closed in this process once it started */
	const struct run_sandbox *sandbox; /* NULL: none */
	int ends_run;               /* run_children_exec: its end stops the others */
	const volatile sig_atomic_t *cancel; /* stops the child when set */
	void (*tick)(void *ctx);    /* called every few tenths of a second while it runs */
	void *tick_ctx;

	char *out, *err, *result;   /* NUL-terminated; result NULL without want_result */
	size_t out_len, err_len, result_len;
	size_t out_dropped, err_dropped, result_dropped; /* bytes read past the cap */
	int status;                 /* wait status of the child (a sandbox's program) */
	int timed_out, cancelled;
	unsigned sandboxed;         /* RUN_SB_* that held */
	double wall_s;
};

/* What held of a sandbox (a result's "sandbox", cudalab doctor). */
enum {
	RUN_SB_USERNS = 1 << 0,        /* user, mount and pid namespaces of its own */
	RUN_SB_READONLY = 1 << 1,      /* the whole file system read-only */
	RUN_SB_READONLY_SOME = 1 << 2, /* only the home, the content and lab.h's folder */
	RUN_SB_HIDDEN = 1 << 3,        /* the exercises' folders (the solutions) empty */
	RUN_SB_TMP = 1 << 4,           /* a private /tmp */
	RUN_SB_PROC = 1 << 5,          /* a /proc of its own: no other process in sight */
	RUN_SB_SWEEP = 1 << 6,         /* every process it starts ends with it */
	RUN_SB_SECCOMP = 1 << 7,       /* no ptrace, process_vm_readv/writev, pidfd_getfd */
	RUN_SB_NPROC = 1 << 8,         /* at most so many processes and threads */
	RUN_SB_CAPS = 1 << 9,          /* no capabilities, no new privileges */
};

/* A short name of one RUN_SB_* bit ("userns", "seccomp"...), and what it
 * means in words; NULL for a bit that is none. */
const char *run_sandbox_name(unsigned bit);
const char *run_sandbox_words(unsigned bit);

/* The protections this kernel grants a program under check, found by
 * running one in a sandbox (RUN_SB_* bits; cudalab doctor); 0 when none
 * could run. */
unsigned run_sandbox_probe(void);

/* Runs c->argv and fills the outputs.  Returns 0 when the program ran (to
 * any end), -1 with errno set when it could not be started.  Every
 * process left in the child's group is killed before it returns. */
int run_child_exec(struct run_child *c);
/* The same for n children at once, supervised together (a child with
 * ends_run set stops the others when it ends; cancel stops them all).
 * -1 when any could not be started (then none runs on). */
int run_children_exec(struct run_child *v, size_t n);
void run_child_free(struct run_child *c);
/* "SIGSEGV" for SIGSEGV; "signal N" for one without a name (static). */
const char *run_signal_name(int sig);

/* --- pure pieces (unit tested) ---------------------------------------- */

#define RUN_FNV_INIT UINT64_C(0xcbf29ce484222325)
/* FNV-1a 64 over n bytes, continuing from h (RUN_FNV_INIT to start). */
uint64_t run_fnv1a64(uint64_t h, const void *p, size_t n);
/* 16 lower-case hex digits into out[17]. */
void run_hash_hex(uint64_t h, char out[17]);

/* What an nvcc invocation is made of. */
struct run_nvcc {
	const char *nvcc;
	enum run_backend backend;       /* GPU or SIMT */
	const char *gpu_arch;           /* "sm_90"; NULL: -arch=native */
	const char *simt_lib;           /* path of libcudalab-simt.a (SIMT) */
	unsigned simt_sanitize;         /* RUN_SAN_* of that library */
	const char *const *includes;    /* -I directories */
	size_t n_includes;
	const char *const *defines;     /* -D values, "X" or "X=Y" */
	size_t n_defines;
	const char *const *sources;
	size_t n_sources;
	const char *output;
	int optimize;                   /* add -O2 (host code) */
	int compile_only;               /* -c: an object, nothing linked */
	int hidden;                     /* the host code's symbols get hidden visibility */
	unsigned libs;                  /* RUN_LIB_*: linked on the GPU backend */
	const char *deps;               /* -MD -MF deps: the files the compile reads */
	int keep_asm;                   /* the host compiler's assembly kept beside
					 * the output: NAME.s (and NAME.ii) for NAME.o */
};

/* Libraries a program needs linked on a GPU, known from the headers it
 * includes: cublas_v2.h, cublas.h or cublasLt.h (-lcublas -lcublasLt) and
 * nccl.h (-lnccl).  On simt nothing is added: simt provides these APIs in
 * libcudalab-simt.a itself. */
enum { RUN_LIB_CUBLAS = 1, RUN_LIB_NCCL = 2 };
/* The RUN_LIB_* bits of the #include lines of one source text. */
unsigned run_source_libs(const char *text);
/* The same for a source file and the files it includes with "..." (found
 * beside the including file or in the -I directories, to a depth of 8);
 * a file that cannot be read adds nothing. */
unsigned run_source_file_libs(const char *path, const char *const *includes,
			      size_t n_includes);
/* The argv for n: NULL-terminated; free with run_argv_free. */
char **run_nvcc_argv(const struct run_nvcc *n);
void run_argv_free(char **argv);

/* Replaces every occurrence of from[i] by to[i] in log, in order i = 0..n-1.
 * Returns a new string. */
char *run_log_rewrite(const char *log, const char *const *from, const char *const *to,
		      size_t n);

struct run_compile_error {
	char *file;
	int line;     /* 0 when the message names no line */
	char *message;
	int missing;  /* a function the harness calls that the file lacks */
};
/* Finds the errors in a compiler log: nvcc's "FILE(LINE): error: MSG",
 * the host compiler's "FILE:LINE:COL: error: MSG" and "fatal error",
 * and linker errors (no line), each once.  Fills *out (caller frees with
 * run_compile_errors_free) and returns the count. */
size_t run_log_errors(const char *log, struct run_compile_error **out);
/* The same for a log that names files whose names may hold a line break
 * (names: the sources the build compiled): each error names one whole. */
size_t run_log_errors_named(const char *log, const char *const *names, size_t n_names,
			    struct run_compile_error **out);
/* Says which missing functions the learner's file must define: each
 * "undefined reference" to a function the harness's text declares becomes
 * "your file must define void solve(...): ...", marked missing. */
void run_log_missing(struct run_compile_error *e, size_t n, const char *harness);
void run_compile_errors_free(struct run_compile_error *e, size_t n);

/* Whether a mangled C++ name (Itanium ABI) names something in namespace
 * lab, the harness library's: name gets its first part below lab
 * ("compare_host" for "_ZN3lab12compare_hostIfEE..."). */
int run_mangled_in_lab(const char *sym, char *name, size_t size);
/* What an object file (ELF64, this machine's byte order) defines in
 * namespace lab, as "lab::NAME" (global, weak or unique symbols defined
 * in it); NULL-terminated, free with run_argv_free.  NULL when data is
 * no such object. */
char **run_object_lab_defs(const void *data, size_t len);
/* The files a dependency file (nvcc -MD -MF, make's syntax: "TARGET: DEP
 * DEP \\<newline> DEP", a blank or '#' in a name escaped with '\\' and a
 * '$' doubled) names after its first target; NULL-terminated, free with
 * run_argv_free.  NULL when text has no "TARGET:" rule. */
char **run_deps_parse(const char *text);

/* --- exercises --------------------------------------------------------- */

struct exercise;
struct store;

enum run_mode { RUN_CHECK, RUN_BENCH };
const char *run_mode_name(enum run_mode m);

/* RUN_HAZARD: simt reported a race, a barrier error or an uninitialized
 * read; the check is no pass whatever the values were. */
enum run_status { RUN_PASS, RUN_WRONG, RUN_COMPILE_ERROR, RUN_RUNTIME_ERROR, RUN_TIMEOUT,
		  RUN_HAZARD };
const char *run_status_name(enum run_status s);

/* Called as the run moves on: "compiling", "cached", "running", "timing". */
typedef void (*run_progress_fn)(void *ctx, const char *phase);

struct run_request {
	const struct exercise *ex;
	const char *source;        /* the learner's file */
	const char *home;          /* CUDALAB_HOME: the build cache is home/cache */
	const char *content;       /* content dir: include/cudalab/lab.h is looked for beside it */
	enum run_mode mode;
	enum run_backend backend;  /* AUTO: a usable GPU, else simt */
	double timeout_s;          /* <= 0: run_default_timeout() */
	long seed;                 /* < 0: the harness's own */
	struct store *st;          /* when not NULL, the attempt is recorded there */
	run_progress_fn progress;
	void *progress_ctx;
	const volatile sig_atomic_t *cancel;
	const struct run_remote *remote; /* for BACKEND_SSH and BACKEND_SLURM */
	int scratch;               /* source is not the learner's copy: a scratch attempt */
	const char *predict;       /* a device id (devices/ID.gpu): simt's time model
				    * predicts the run for that GPU (run_predict_*);
				    * NULL: no prediction */
};

/* The GPU the lessons' figures are for: the device simt's time model
 * predicts a bench for unless told otherwise, and the one it models in
 * the check of an exercise that reads the modelled timeline ("timeline:
 * true") when no prediction was asked for. */
#define RUN_DEFAULT_DEVICE "h100-sxm"

/* Where a remote check runs and how it is started. */
struct run_remote {
	const char *host;       /* ssh: the host, as ssh takes it (~/.ssh/config applies) */
	const char *cudalab;    /* the far side's cudalab; NULL: "cudalab" (ssh), self (slurm) */
	const char *self;       /* this cudalab's path (a cluster shares it with its nodes) */
	const char *slurm_args; /* srun options, split at blanks: --partition=gpu ... */
	const char *gpus;       /* srun's GPU request: "--gpus=1" (default), or "none" */
};
/* srun's GPU request for a program that needs `gpus` devices: the
 * configured one (--gpus=K, --gres=gpu:K or --gres=gpu:TYPE:K) with its
 * count raised to at least that; "none" and other forms unchanged.
 * Caller frees. */
char *run_slurm_gpus(const char *configured, int gpus);

/* Default wall-clock limit of a harness run, in seconds. */
double run_default_timeout(enum run_mode m, enum run_backend b);

struct run_case {
	char *name;
	char *status;
	double max_abs_err, max_rel_err; /* NAN when not reported */
	long mismatches, not_written;    /* -1 when not reported */
	long overruns;                   /* outputs written past their end */
};
/* What went wrong in a case, or its errors, in words for a case line:
 * "max abs err 1e-07  max rel err 2e-06", "17 elements never written
 * (summed over the case's seeds)", "wrote past the end of the output;
 * the values inside are right" (caller frees). */
char *run_case_errors(const struct run_case *c);
struct run_result;
/* The column width that holds every case name of r (at most 40): a case
 * table's names padded to it keep their figures in one column. */
int run_case_width(const struct run_result *r);

struct run_mismatch {
	char *case_name;    /* NULL when the harness reported no mismatch */
	long long index;
	char *expected, *got; /* as text: the harness's *_text, else its JSON value */
	char *note;           /* the harness's remark, or NULL */
};

/* Numbers not reported are NAN; samples is 0 without timing. */
struct run_timing {
	int samples;
	double median_ms, min_ms, mean_ms, stdev_ms, noise_pct;
	int l2_flushed;
};

struct run_derived {
	double gbps, pct_peak_bw, tflops;
	double pct_peak_flops;   /* tflops against the peak the work is for */
	double peak_gbps; /* from "device" */
};

/* One kernel launch as simt's time model predicted it. */
struct run_launch_prediction {
	char *kernel;       /* its name, without parameters */
	double us;          /* predicted duration, launch overhead included */
	char *limits;       /* "limited by DRAM bandwidth: 93% of peak; ..." */
	char *stalls;       /* where the schedulers' cycles went, in words */
	unsigned long long blocks, blocks_run; /* blocks_run < blocks: sampled */
};
/* What simt's time model said of a run (docs/time-model.md). */
struct run_prediction {
	char *device;       /* the device id ("" when no device file models the GPU) */
	char *name;         /* the GPU's name, from its device file */
	double ms;          /* what lab.time would measure there; NAN when not timed */
	double gbps, pct_peak_bw, tflops; /* the harness's figures at that time; NAN if none */
	double pct_peak_flops;              /* tflops against the peak the work is for */
	struct run_launch_prediction *launches; /* the longest first, at most 8 */
	size_t n_launches;
	unsigned long long total_launches;
	int sampled;        /* some launch ran a sample of its blocks */
	char *error;        /* why there is no prediction, else NULL */
};

struct run_result {
	enum run_status status;
	enum run_backend backend;   /* the one used */
	char *summary;              /* one line */
	int cached;                 /* the build came from the cache */
	char *source_hash;          /* hex FNV-1a 64 of the learner's file */
	char *device;               /* the device name the harness reported, or NULL */
	struct run_case *cases;
	size_t n_cases;
	struct run_mismatch mismatch;
	struct run_compile_error *errors; /* with the learner's paths and lines */
	size_t n_errors;
	struct run_timing timing;
	struct run_derived derived;
	char *compile_log;          /* paths rewritten to the real files */
	char *out, *err;            /* the program's output, capped */
	size_t out_truncated, err_truncated;
	int exit_code;              /* -1 when it did not exit normally / did not run */
	int signal;                 /* the signal that ended it, 0 if none */
	double timeout_s, compile_s, run_s;
	char *json;                 /* the harness's object plus the runner's keys */
	char *error;                /* when run_exercise returns -1: what is wrong */
	char *not_recorded;         /* why the attempt could not be stored, else NULL */
	char **hazards;             /* simt's hazard reports, one line each (messages) */
	size_t n_hazards;
	unsigned long long hazard_total; /* reports, counting those not kept */
	int remote_gpu;             /* ssh/slurm: the far side ran it on a GPU */
	char *backend_note;         /* why the backend differs from the one asked for, or NULL */
	char *build_note;           /* a cache entry built again, or NULL */
	unsigned sandbox;           /* RUN_SB_* that held for the program under check */
	unsigned schedule;          /* simt schedule of the run the verdict comes from */
	char *nondeterminism;       /* how two schedules' results differed, else NULL */
	struct run_prediction *prediction; /* with req->predict, else NULL */
};

/* Builds (or finds in the cache) and runs the exercise's harness with the
 * learner's file, and fills *res.  Returns 0 with any verdict in
 * res->status, or -1 with res->error set when the environment does not
 * allow a run at all (no nvcc, GPU asked for but absent, no simt library,
 * unreadable files), or when req->cancel was set in any phase (res->error
 * "cancelled"; nothing is recorded).  Either way, free res with
 * run_result_free. */
int run_exercise(const struct run_request *req, struct run_result *res);
void run_result_free(struct run_result *res);
/* Fills res from a result JSON as run_exercise wrote it (an attempt kept
 * in the store): the verdict, cases, mismatch, timing, output, compile
 * errors, hazard total.  -1 when json is not such a result; either way,
 * free res with run_result_free. */
int run_result_from_json(const char *json, struct run_result *res);
/* --- predictions (predict.c) ------------------------------------------ */

/* The directories simt looks in for device files, for content dir
 * content: $CUDALAB_SIMT_DEVICES first, then content/devices, as one
 * colon-separated list (caller frees). */
char *run_devices_path(const char *content);
/* The device ids found there (NULL-terminated, in name order, each once;
 * free with run_argv_free), and their GPUs' names in *names when names is
 * not NULL (same order; free with run_argv_free). */
char **run_devices_list(const char *content, char ***names);
/* Whether id names a device file.  0 with *name set to its GPU's name
 * (caller frees), or -1 with *why naming the id and the known ones. */
int run_device_find(const char *content, const char *id, char **name, char **why);
/* The device id whose GPU has the name a GPU reports (nvidia-smi's or
 * cudaGetDeviceProperties' "NVIDIA H100 80GB HBM3"): same model and the
 * same form (PCIe or not); NULL when none (caller frees). */
char *run_device_match(const char *content, const char *gpu_name);
/* Reads simt's predictions file (CUDALAB_SIMT_PREDICT_OUT: one JSON
 * object a line) into p's launches.  0, or -1 when it cannot be read. */
int run_prediction_read(const char *path, struct run_prediction *p);
void run_prediction_free(struct run_prediction *p);
/* A prediction in words, one line each (the first names the GPU and the
 * time; each kernel's limiter and stalls follow).  Returns the count;
 * free with run_insights_free. */
size_t run_prediction_lines(const struct run_prediction *p, char ***lines);
/* The result JSON's "prediction" object read back (NULL when o is none;
 * free with run_prediction_free and free). */
struct cJSON;
struct run_prediction *run_prediction_from_json(const struct cJSON *o);

/* --- remote checks (remote.c) ------------------------------------------- */

#define RUN_REMOTE_PROTOCOL 2

struct run_program;

/* A check request as it travels to the far side. */
struct run_remote_file {
	char *name; /* exercise/NAME, include/cudalab/lab.h or source/NAME */
	char *data; /* NUL-terminated copy */
	size_t len;
};
struct run_remote_request {
	int program;      /* a `cudalab run` of sources, not an exercise check */
	enum run_mode mode;
	char *exercise;   /* NULL for a program */
	long seed;        /* -1: the harness's own */
	double timeout_s; /* 0: the default */
	int gpus;         /* devices the exercise needs (1..64; sent when more than 1) */
	char nonce[33];   /* a check's: 32 random hex digits its result must carry */
	struct run_remote_file *files;
	size_t n_files;
	char **args, **defines; /* a program's arguments and -D macros */
	size_t n_args, n_defines;
};
/* Whether name is one a request may carry. */
int run_remote_good_name(const char *name);
/* The request as text, appended to sb. */
struct strbuf;
void run_remote_request_text(const struct run_remote_request *rq, struct strbuf *sb);
/* Parses a whole request.  0, or -1 with *error set (caller frees). */
int run_remote_request_parse(const char *buf, size_t len, struct run_remote_request *rq,
			     char **error);
void run_remote_request_free(struct run_remote_request *rq);
/* The far side: reads a request on stdin, answers on stdout; with doctor,
 * only says what it has.  Returns the exit status. */
int run_remote_serve(const char *home, int protocol, int doctor);
/* Asks the far side what it has: *json, one object (version, protocol,
 * nvcc, nvcc_version, gpu, cc, driver, backend).  0, or -1 with *why. */
int run_remote_doctor(const struct run_request *req, char **json, char **why);
/* "ssh:HOST" or "slurm" (caller frees). */
char *run_remote_label(const struct run_request *req);
/* `cudalab run` on the far side: the sources and the headers of their
 * directories and of the include directories travel (flat: two headers
 * of one name are refused), the program's stdout and stderr come back as
 * it runs, and its exit status (as `cudalab run` gives it) is put in
 * *status.  req gives backend, remote, timeout, progress and cancel.
 * Returns 0, or -1 with *why set (caller frees). */
int run_remote_program(const struct run_request *req, const struct run_program *p,
		       char *const args[], int n_args, int *status, char **why);

/* Records res as an attempt in req->st (nothing when it is NULL), as
 * run_exercise does: for a caller that ran the check without the store,
 * in a thread of its own, and records it from the store's thread.  A
 * failure to record is kept in res->not_recorded. */
void run_record(const struct run_request *req, struct run_result *res);

/* The learner's copy of ex: home/work/<id>/kernel.cu, made from the
 * starter when missing (*created then 1).  Returns 0 and sets *path
 * (caller frees), or -1 with errno set. */
int run_work_copy(const char *home, const struct exercise *ex, char **path, int *created);
/* Puts the starter back into the learner's copy; an existing copy is
 * kept as kernel.cu.bak first (*bak set then, else NULL).  Returns 0, or
 * -1 with errno set. */
int run_work_reset(const char *home, const struct exercise *ex, char **path, char **bak);

/* One finding about a result: the rule that made it ("coalescing",
 * "banks", "divergence", "local", "atomics", "lanes", "traffic",
 * "roofline", "idle", "gpu_bandwidth", "gpu_flops", "gpu_noise",
 * "gpu_batched"), whether it asks for a change (advice) or only says what
 * was measured, and its text. */
struct run_insight {
	const char *rule;
	int advice;
	char *text;
};

/* What a result says about the kernel, one finding per line.  From simt's
 * counters of a run that went through (not a crash or timeout): lane use,
 * coalescing, bank conflicts, divergence, local memory, atomics (by space
 * and same-address contention where simt counts them), global traffic
 * against the work's minimum and the roofline; advice names the kernel it
 * is about.  From a GPU bench: how far the time is from the roofline of
 * the bound that applies, timing noise and batching.  Returns the count
 * (0 when the result has neither); free with run_insight_list_free. */
size_t run_insight_list(const char *result_json, struct run_insight **out);
void run_insight_list_free(struct run_insight *v, size_t n);
/* The same findings' texts only; free with run_insights_free. */
size_t run_insights(const char *result_json, char ***lines);
void run_insights_free(char **lines, size_t n);

/* --- simt's reports in the learner's terms (explain.c) ------------------ */

/* "add_kernel" for "add_kernel(float const*, int)", "flash_forward<64>"
 * for "(anonymous namespace)::flash_forward<64>(float const*)". */
void run_kernel_name(const char *full, char *out, size_t size);

/* Where simt stopped a kernel (an access out of bounds, a trap, a launch
 * past its budget), from its report on the program's stderr: "simt: MSG"
 * then "  in KERNEL at FILE:LINE (PTX line N), block (x,y,z) thread
 * (x,y,z)". */
struct run_fault {
	char *message; /* "out-of-bounds global read of 4 bytes, ..." */
	char *kernel;  /* "add_kernel" */
	char *file;    /* the source's base name, NULL when not known */
	int line;      /* 0 when not known */
	int block[3], thread[3];
};
/* The first such report in err: 0 with *f filled (free it with
 * run_fault_free), -1 when there is none. */
int run_fault_find(const char *err, struct run_fault *f);
void run_fault_free(struct run_fault *f);

/* One access of a hazard, from simt's report. */
struct run_access {
	int line;           /* in the learner's file; 0 when not known */
	const char *access; /* "read", "write", "atomic", ... or NULL */
	int block[3];
	int stream;         /* the stream a site names, else -1 */
	int host;           /* a copy, a memset or the host's own access */
};

/* What a hazard report (its kind, space, kernel and message, as simt's
 * hazards file has them) means in the learner's terms: the element it is
 * about where the report and source (the learner's file, or NULL) tell it
 * plainly, as "s[1]" for "offset 4 of the block's shared memory" when the
 * kernel has one __shared__ array of floats, or "out[0]" for a race on
 * "*out += acc", else NULL; and the usual fix in one line ("fix:
 * atomicAdd(out, acc) at line 52; ...", "fix: a __syncthreads() between
 * the write at line 12 and the read at line 15, ..."). */
struct run_hazard_words {
	char *place;
	char *fix;
};
void run_hazard_words(const char *kind, const char *space, const char *kernel,
		      const char *message, const struct run_access *a, int n, const char *source,
		      struct run_hazard_words *w);
void run_hazard_words_free(struct run_hazard_words *w);

/* NCCL on simt's communication model (the "comm_model" of simt's counters
 * in the result): a first line naming the links and their bandwidths, then
 * one line per kind of collective that ran, with its calls, bytes,
 * modelled time on each link and algbw/busbw on the first; every figure is
 * modelled, not measured.  Returns the number of lines, 0 when the result
 * has no model; free with run_insights_free. */
size_t run_comm_model(const char *result_json, char ***lines);

/* --- programs (`cudalab run`) ----------------------------------------- */

struct run_program {
	const char *const *sources; /* .cu, .cpp or .c */
	size_t n_sources;
	const char *const *includes;
	size_t n_includes;
	const char *const *defines;
	size_t n_defines;
	enum run_backend backend;   /* GPU or SIMT, already chosen */
};

/* Compiles p into a fresh temporary directory.  Returns 0 with *exe set
 * (remove it with run_program_clean), 1 when nvcc failed (its output in
 * *log), or -1 with *log describing an environment problem.  *log is
 * always set (caller frees). */
int run_program_build(const struct run_program *p, const struct run_probe *probe, char **exe,
		      char **log);
void run_program_clean(char *exe);
/* Runs exe with args (argv[1..]) on cudalab's own stdin, stdout and
 * stderr; counters, when not NULL, goes to CUDALAB_SIMT_COUNTERS, hazards
 * to CUDALAB_SIMT_HAZARDS.  SIGINT and SIGQUIT reach the program, not
 * cudalab.  Returns the program's code, 124 after timeout_s (> 0), 128+N
 * after signal N, or -1 with errno set when it could not be started. */
int run_program_exec(const char *exe, char *const args[], double timeout_s, const char *counters,
		     const char *hazards);
/* The number of hazards simt's report file at path counts (0 when it is
 * missing or unreadable: a program that ended before simt wrote it). */
unsigned long long run_hazard_total(const char *path);

#endif
