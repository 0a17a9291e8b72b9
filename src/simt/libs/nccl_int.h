/* Internal interface of simt's NCCL: the communicators and rendezvous
 * (nccl_comm.c, nccl.c), the data movement and arithmetic of the collectives
 * (nccl_reduce.c) and the communication model (nccl_model.c). */
#ifndef SIMT_NCCL_INT_H
#define SIMT_NCCL_INT_H

#include "libs/nccl_abi.h"
#include "runtime/runtime.h"

#include <stdio.h>

/* Kinds of operation, in the order of the model's report. */
enum nccl_kind {
	NK_ALL_REDUCE, NK_ALL_GATHER, NK_REDUCE_SCATTER, NK_BROADCAST,
	NK_REDUCE, NK_ALLTOALL, NK_GATHER, NK_SCATTER, NK_SEND, NK_RECV,
	NK_SPLIT, NK_INIT, NK_COUNT
};

const char *simt_nccl_kind_api(int kind);   /* "ncclAllReduce" */
const char *simt_nccl_kind_key(int kind);   /* "all_reduce" */
const char *simt_nccl_type_name(int type);  /* "ncclFloat32", or NULL */
const char *simt_nccl_op_name(int op);      /* "ncclSum", or NULL */
size_t simt_nccl_type_size(int type);

/* A reduction resolved from a program's ncclRedOp_t: a built-in
 * operation, possibly preceded by a multiplication of every input by a
 * scalar (ncclAvg on floating types, ncclRedOpCreatePreMulSum) or
 * followed by a division (ncclAvg on integer types). */
struct nccl_redop {
	int base;            /* SIMT_NCCL_SUM ... SIMT_NCCL_MIN */
	bool premul;
	unsigned char scalar[8]; /* of the operation's type */
	uint64_t divisor;    /* 0: none */
	const void *dscalar; /* the scalar in device memory, read when the
			      * operation runs (ncclScalarDevice) */
};

/* One rank's part of an operation: its arguments as posted. */
struct nccl_post {
	int kind;
	const void *send;
	void *recv;
	size_t count;
	int type;
	int op;              /* as the program gave it */
	struct nccl_redop red;
	int root;            /* root, or peer of send/recv */
	int color, key;      /* ncclCommSplit */
	struct ncclComm **newcomm;
	struct ncclComm *comm;
	int rank;
	uint64_t seq;        /* the how-manieth of its sequence, from 0 */
	void *site;          /* the program's call */
	cudaStream_t stream;
	size_t sendn, recvn; /* bytes this rank reads and writes */
	/* completion, under the NCCL mutex */
	bool posted, done;
	int result;
	struct nccl_post *next;   /* the thread's group list */
	struct nccl_post *pnext;  /* pending send/recv of the clique */
};

/* ---- shared by nccl.c and nccl_comm.c ---- */

#define COMM_MAGIC 0x4e43434cu   /* "NCCL" */
#define REG_MAGIC 0x52454721u

/* The ranks of one communicator, shared by its ncclComm objects. */
struct clique {
	int nranks, joined, refs;
	int serial;                  /* for messages: communicator N */
	double born;                 /* when its first rank joined */
	bool has_id, init_failed;
	unsigned char id[SIMT_NCCL_UNIQUE_ID_BYTES];
	int *devs;
	struct slot *slots;          /* collectives waiting for ranks */
	struct nccl_post *p2p;       /* sends and receives waiting */
	struct clique *next;         /* the list of cliques still forming */
};

/* The k-th collective of a clique, while ranks arrive. */
struct slot {
	uint64_t seq;
	int arrived;
	bool failed;
	int result;
	struct nccl_post **ops;
	struct slot *next;
};

struct user_op {
	bool live;
	int type;
	struct nccl_redop red;
};

struct ncclComm {
	uint32_t magic;
	struct clique *cl;
	int rank, dev;
	uint64_t coll_seq;
	uint64_t *send_seq, *recv_seq;   /* per peer */
	int async_err;
	struct user_op *ops;
	int nops;
};

struct reg {
	uint32_t magic;
	struct ncclComm *comm;
	void *buff;
};

#define SITE __builtin_return_address(0)

/* Each entry point has its profiling twin pnccl* (nccl.h declares both). */
#define PNCCL(name) extern __typeof(name) p##name __attribute__((alias(#name)))

/* nccl.c: the lock every rendezvous is made under, the condition its
 * waiters sleep on (made by nccl_cv_init, once), the calling thread's
 * ncclGroupStart depth and its last error (ncclGetLastError). */
extern pthread_mutex_t nccl_mu;
extern pthread_cond_t nccl_cv;
extern pthread_once_t nccl_cv_once;
void nccl_cv_init(void);
extern _Thread_local int nccl_group_depth;
extern _Thread_local char nccl_last_error[1024];

/* nccl.c: messages (nccl_report keeps the last error and prints it),
 * argument checks, the rendezvous (cliques, their slots, posts submitted
 * and waited for) and the timeouts. */
void nccl_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double nccl_timeout_seconds(void);
bool nccl_comm_ok(const struct ncclComm *c);
int nccl_bad_comm(const char *fn);
int nccl_check_buf(const char *fn, const char *arg, const struct ncclComm *c,
		   const void *buf, size_t bytes, bool write);
void nccl_drop_slot(struct clique *cl, struct slot *s);
struct clique *nccl_clique_new(int nranks);
struct ncclComm *nccl_comm_new(struct clique *cl, int rank, int dev);
void nccl_init_timed_out(struct clique *cl);
int nccl_submit(struct nccl_post *p);
struct nccl_post *nccl_post_new(int kind, struct ncclComm *c, void *site);
int nccl_fail_arg(int rc);

/* nccl_reduce.c: the data movement of one matched operation, every
 * rank's post in ops[0..n-1] by rank. */
void simt_nccl_execute(struct nccl_post **ops, int n);
void simt_nccl_execute_p2p(struct nccl_post *send, struct nccl_post *recv);
/* x rounded to an fp8 type (nearest even, saturating). */
uint8_t simt_nccl_fp8_from_double(double x, int type);

/* nccl_model.c: accounting of an executed collective (every rank's post
 * by rank) and of a matched send/receive pair. */
void simt_nccl_model_coll(struct nccl_post **ops, int n);
void simt_nccl_model_p2p(const struct nccl_post *send, const struct nccl_post *recv);
/* The modelled seconds of one rank's post on an NVLink 4 ring of n
 * ranks (for ncclGroupSimulateEnd). */
double simt_nccl_model_seconds(const struct nccl_post *p, int n);

#endif
