/* NCCL on simt, the communicators: ncclGetUniqueId, ncclCommInitRank and
 * its variants, splitting, finalizing and destroying communicators, their
 * queries, the reductions a program makes (ncclRedOpCreatePreMulSum),
 * memory and buffer registration, and the calls simt does not implement.
 * The ranks of a communicator meet in the rendezvous of nccl.c. */
#include "libs/nccl_int.h"
#include "check/hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cliques still forming, and the last unique id given out. */
static struct clique *forming;
static uint64_t next_id;

/* ---- communicators ---- */

int ncclGetVersion(int *version);
int ncclGetVersion(int *version)
{
	if (!version) {
		nccl_report("ncclGetVersion: version is NULL");
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	*version = SIMT_NCCL_VERSION_CODE;
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclGetVersion);

int ncclGetUniqueId(struct simt_nccl_unique_id *uniqueId);
int ncclGetUniqueId(struct simt_nccl_unique_id *uniqueId)
{
	uint64_t v[3];

	if (!uniqueId) {
		nccl_report("ncclGetUniqueId: uniqueId is NULL");
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	pthread_mutex_lock(&nccl_mu);
	v[0] = ++next_id;
	pthread_mutex_unlock(&nccl_mu);
	v[1] = (uint64_t)getpid();
	v[2] = (uint64_t)(simt_now() * 1e9);
	memset(uniqueId, 0, sizeof *uniqueId);
	memcpy(uniqueId->internal, "simt", 4);
	memcpy(uniqueId->internal + 8, v, sizeof v);
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclGetUniqueId);

static int check_config(const char *fn, const struct simt_nccl_config *config)
{
	if (config && (config->magic != SIMT_NCCL_CONFIG_MAGIC ||
		       config->size < offsetof(struct simt_nccl_config, blocking))) {
		nccl_report("%s: config %p was not initialised with "
			    "NCCL_CONFIG_INITIALIZER", fn, (const void *)config);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	return 0;
}

static void unlink_forming(struct clique *cl)
{
	struct clique **cp;

	for (cp = &forming; *cp; cp = &(*cp)->next)
		if (*cp == cl) {
			*cp = cl->next;
			break;
		}
}

static int init_rank(const char *fn, struct ncclComm **comm, int nranks,
		     const struct simt_nccl_unique_id *id, int rank,
		     const struct simt_nccl_config *config, void *site)
{
	struct clique *cl;
	struct ncclComm *c;
	int rc;

	simt_init();
	if ((rc = check_config(fn, config)))
		return nccl_fail_arg(rc);
	if (!comm) {
		nccl_report("%s: comm is NULL", fn);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	if (nranks < 1 || rank < 0 || rank >= nranks) {
		nccl_report("%s: rank %d is not in 0..nranks-1 (nranks %d)", fn, rank, nranks);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	pthread_once(&nccl_cv_once, nccl_cv_init);
	pthread_mutex_lock(&nccl_mu);
	for (cl = forming; cl; cl = cl->next)
		if (cl->has_id && !memcmp(cl->id, id->internal, sizeof cl->id) &&
		    cl->joined < cl->nranks && !cl->init_failed)
			break;
	if (cl && cl->nranks != nranks) {
		pthread_mutex_unlock(&nccl_mu);
		nccl_report("%s: rank %d gives nranks %d, but the ranks before it gave "
			    "%d for the same unique id", fn, rank, nranks, cl->nranks);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	if (cl && cl->devs[rank] >= 0) {
		pthread_mutex_unlock(&nccl_mu);
		nccl_report("%s: rank %d of the communicator joined twice", fn, rank);
		return nccl_fail_arg(SIMT_NCCL_INVALID_USAGE);
	}
	if (!cl) {
		int r;

		cl = nccl_clique_new(nranks);
		cl->has_id = true;
		memcpy(cl->id, id->internal, sizeof cl->id);
		for (r = 0; r < nranks; r++)
			cl->devs[r] = -1;
		cl->next = forming;
		forming = cl;
	}
	c = nccl_comm_new(cl, rank, simt_current_device());
	if (++cl->joined == nranks) {
		unlink_forming(cl);
		pthread_cond_broadcast(&nccl_cv);
	}
	pthread_mutex_unlock(&nccl_mu);
	*comm = c;
	if (config && config->blocking == 0 && nccl_group_depth == 0) {
		/* A non-blocking communicator: the program polls
		 * ncclCommGetAsyncError until it has formed. */
		pthread_mutex_lock(&nccl_mu);
		rc = cl->joined == nranks ? SIMT_NCCL_SUCCESS : SIMT_NCCL_IN_PROGRESS;
		pthread_mutex_unlock(&nccl_mu);
		return rc;
	}
	return nccl_submit(nccl_post_new(NK_INIT, c, site));
}

int ncclCommInitRank(struct ncclComm **comm, int nranks,
		     struct simt_nccl_unique_id commId, int rank);
int ncclCommInitRank(struct ncclComm **comm, int nranks,
		     struct simt_nccl_unique_id commId, int rank)
{
	return init_rank("ncclCommInitRank", comm, nranks, &commId, rank, NULL, SITE);
}
PNCCL(ncclCommInitRank);

int ncclCommInitRankConfig(struct ncclComm **comm, int nranks,
			   struct simt_nccl_unique_id commId, int rank,
			   struct simt_nccl_config *config);
int ncclCommInitRankConfig(struct ncclComm **comm, int nranks,
			   struct simt_nccl_unique_id commId, int rank,
			   struct simt_nccl_config *config)
{
	return init_rank("ncclCommInitRankConfig", comm, nranks, &commId, rank,
			 config, SITE);
}
PNCCL(ncclCommInitRankConfig);

/* Several ids spread NCCL's bootstrap over roots; here the first one
 * names the communicator. */
int ncclCommInitRankScalable(struct ncclComm **newcomm, int nranks, int myrank,
			     int nId, struct simt_nccl_unique_id *commIds,
			     struct simt_nccl_config *config);
int ncclCommInitRankScalable(struct ncclComm **newcomm, int nranks, int myrank,
			     int nId, struct simt_nccl_unique_id *commIds,
			     struct simt_nccl_config *config)
{
	if (nId < 1 || !commIds) {
		nccl_report("ncclCommInitRankScalable: nId %d / commIds %p: at least one "
			    "unique id is needed", nId, (void *)commIds);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	return init_rank("ncclCommInitRankScalable", newcomm, nranks, commIds,
			 myrank, config, SITE);
}
PNCCL(ncclCommInitRankScalable);

int ncclCommInitAll(struct ncclComm **comm, int ndev, const int *devlist);
int ncclCommInitAll(struct ncclComm **comm, int ndev, const int *devlist)
{
	struct clique *cl;
	int i, d, count = simt_device_count();

	simt_init();
	if (!comm || ndev < 1) {
		nccl_report("ncclCommInitAll: comm %p / ndev %d: needs an array of ndev >= 1 "
			    "communicators", (void *)comm, ndev);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	for (i = 0; i < ndev; i++) {
		d = devlist ? devlist[i] : i;
		if (d < 0 || d >= count) {
			nccl_report("ncclCommInitAll: device %d (devlist[%d]) does not exist: "
				    "there are %d devices (CUDALAB_SIMT_GPUS)", d, i, count);
			return SIMT_NCCL_INVALID_ARGUMENT;
		}
	}
	pthread_mutex_lock(&nccl_mu);
	cl = nccl_clique_new(ndev);
	cl->joined = ndev;
	for (i = 0; i < ndev; i++)
		comm[i] = nccl_comm_new(cl, i, devlist ? devlist[i] : i);
	pthread_mutex_unlock(&nccl_mu);
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclCommInitAll);

int ncclCommSplit(struct ncclComm *comm, int color, int key,
		  struct ncclComm **newcomm, struct simt_nccl_config *config);
int ncclCommSplit(struct ncclComm *comm, int color, int key,
		  struct ncclComm **newcomm, struct simt_nccl_config *config)
{
	struct nccl_post *p;
	int rc;

	if (!nccl_comm_ok(comm))
		return nccl_fail_arg(nccl_bad_comm("ncclCommSplit"));
	if ((rc = check_config("ncclCommSplit", config)))
		return nccl_fail_arg(rc);
	if (!newcomm || (color < 0 && color != SIMT_NCCL_SPLIT_NOCOLOR)) {
		nccl_report("ncclCommSplit: newcomm %p / color %d of rank %d: needs a "
			    "result pointer and a colour >= 0 or NCCL_SPLIT_NOCOLOR",
			    (void *)newcomm, color, comm->rank);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	p = nccl_post_new(NK_SPLIT, comm, SITE);
	p->color = color;
	p->key = key;
	p->newcomm = newcomm;
	return nccl_submit(p);
}
PNCCL(ncclCommSplit);

/* Operations complete when called, so there is nothing left to flush. */
int ncclCommFinalize(struct ncclComm *comm);
int ncclCommFinalize(struct ncclComm *comm)
{
	return nccl_comm_ok(comm) ? SIMT_NCCL_SUCCESS : nccl_bad_comm("ncclCommFinalize");
}
PNCCL(ncclCommFinalize);

static int comm_free(struct ncclComm *comm)
{
	struct clique *cl = comm->cl;

	pthread_mutex_lock(&nccl_mu);
	comm->magic = 0;
	if (--cl->refs == 0) {
		unlink_forming(cl);
		while (cl->slots)
			nccl_drop_slot(cl, cl->slots);
		free(cl->devs);
		free(cl);
	}
	pthread_mutex_unlock(&nccl_mu);
	free(comm->send_seq);
	free(comm->recv_seq);
	free(comm->ops);
	free(comm);
	return SIMT_NCCL_SUCCESS;
}

int ncclCommDestroy(struct ncclComm *comm);
int ncclCommDestroy(struct ncclComm *comm)
{
	if (!comm)
		return SIMT_NCCL_SUCCESS;
	return nccl_comm_ok(comm) ? comm_free(comm) : nccl_bad_comm("ncclCommDestroy");
}
PNCCL(ncclCommDestroy);

int ncclCommAbort(struct ncclComm *comm);
int ncclCommAbort(struct ncclComm *comm)
{
	if (!comm)
		return SIMT_NCCL_SUCCESS;
	return nccl_comm_ok(comm) ? comm_free(comm) : nccl_bad_comm("ncclCommAbort");
}
PNCCL(ncclCommAbort);

int ncclCommCount(const struct ncclComm *comm, int *count);
int ncclCommCount(const struct ncclComm *comm, int *count)
{
	if (!nccl_comm_ok(comm))
		return nccl_bad_comm("ncclCommCount");
	if (!count) {
		nccl_report("ncclCommCount: count is NULL");
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	*count = comm->cl->nranks;
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclCommCount);

int ncclCommCuDevice(const struct ncclComm *comm, int *device);
int ncclCommCuDevice(const struct ncclComm *comm, int *device)
{
	if (!nccl_comm_ok(comm))
		return nccl_bad_comm("ncclCommCuDevice");
	if (!device) {
		nccl_report("ncclCommCuDevice: device is NULL");
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	*device = comm->dev;
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclCommCuDevice);

int ncclCommUserRank(const struct ncclComm *comm, int *rank);
int ncclCommUserRank(const struct ncclComm *comm, int *rank)
{
	if (!nccl_comm_ok(comm))
		return nccl_bad_comm("ncclCommUserRank");
	if (!rank) {
		nccl_report("ncclCommUserRank: rank is NULL");
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	*rank = comm->rank;
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclCommUserRank);

int ncclCommGetAsyncError(struct ncclComm *comm, int *asyncError);
int ncclCommGetAsyncError(struct ncclComm *comm, int *asyncError)
{
	if (!nccl_comm_ok(comm))
		return nccl_bad_comm("ncclCommGetAsyncError");
	if (!asyncError) {
		nccl_report("ncclCommGetAsyncError: asyncError is NULL");
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	pthread_mutex_lock(&nccl_mu);
	if (comm->cl->joined < comm->cl->nranks && !comm->cl->init_failed) {
		/* still forming (a non-blocking ncclCommInitRankConfig) */
		if (simt_now() - comm->cl->born > nccl_timeout_seconds())
			nccl_init_timed_out(comm->cl);
		else
			comm->async_err = SIMT_NCCL_IN_PROGRESS;
	}
	if (comm->cl->init_failed)
		comm->async_err = SIMT_NCCL_REMOTE_ERROR;
	else if (comm->async_err == SIMT_NCCL_IN_PROGRESS &&
		 comm->cl->joined == comm->cl->nranks)
		comm->async_err = SIMT_NCCL_SUCCESS;
	*asyncError = comm->async_err;
	pthread_mutex_unlock(&nccl_mu);
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclCommGetAsyncError);

const char *ncclGetErrorString(int result);
const char *ncclGetErrorString(int result)
{
	switch (result) {
	case SIMT_NCCL_SUCCESS: return "no error";
	case SIMT_NCCL_UNHANDLED_CUDA_ERROR: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
	case SIMT_NCCL_SYSTEM_ERROR: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
	case SIMT_NCCL_INTERNAL_ERROR: return "internal error - please report this issue to the NCCL developers";
	case SIMT_NCCL_INVALID_ARGUMENT: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
	case SIMT_NCCL_INVALID_USAGE: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
	case SIMT_NCCL_REMOTE_ERROR: return "remote process exited or there was a network error";
	case SIMT_NCCL_IN_PROGRESS: return "NCCL operation in progress";
	}
	return "unknown result code";
}
PNCCL(ncclGetErrorString);

/* The last message simt printed for an NCCL call of this thread. */
const char *ncclGetLastError(struct ncclComm *comm);
const char *ncclGetLastError(struct ncclComm *comm)
{
	(void)comm;
	return nccl_last_error;
}
PNCCL(ncclGetLastError);

/* ---- reductions made by the program ---- */

int ncclRedOpCreatePreMulSum(int *op, void *scalar, int datatype, int residence,
			     struct ncclComm *comm);
int ncclRedOpCreatePreMulSum(int *op, void *scalar, int datatype, int residence,
			     struct ncclComm *comm)
{
	const char *fn = "ncclRedOpCreatePreMulSum";
	struct user_op u = {0};
	size_t es;
	int i;

	if (!nccl_comm_ok(comm))
		return nccl_bad_comm(fn);
	if (!op || !scalar) {
		nccl_report("%s: op %p / scalar %p: neither may be NULL", fn, (void *)op, scalar);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	if (!simt_nccl_type_name(datatype)) {
		nccl_report("%s: datatype %d is not an ncclDataType_t", fn, datatype);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	es = simt_nccl_type_size(datatype);
	u.live = true;
	u.type = datatype;
	u.red.base = SIMT_NCCL_SUM;
	u.red.premul = true;
	if (residence == SIMT_NCCL_SCALAR_HOST_IMMEDIATE) {
		memcpy(u.red.scalar, scalar, es);
	} else if (residence == SIMT_NCCL_SCALAR_DEVICE) {
		if (nccl_check_buf(fn, "scalar", comm, scalar, es, false))
			return SIMT_NCCL_INVALID_ARGUMENT;
		u.red.dscalar = scalar;
	} else {
		nccl_report("%s: residence %d is not an ncclScalarResidence_t", fn, residence);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	for (i = 0; i < comm->nops; i++)
		if (!comm->ops[i].live)
			break;
	if (i == comm->nops) {
		comm->ops = simt_xrealloc(comm->ops, (size_t)(i + 1) * sizeof *comm->ops);
		comm->nops++;
	}
	comm->ops[i] = u;
	*op = SIMT_NCCL_NUM_OPS + i;
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclRedOpCreatePreMulSum);

int ncclRedOpDestroy(int op, struct ncclComm *comm);
int ncclRedOpDestroy(int op, struct ncclComm *comm)
{
	if (!nccl_comm_ok(comm))
		return nccl_bad_comm("ncclRedOpDestroy");
	if (op < SIMT_NCCL_NUM_OPS || op - SIMT_NCCL_NUM_OPS >= comm->nops ||
	    !comm->ops[op - SIMT_NCCL_NUM_OPS].live) {
		nccl_report("ncclRedOpDestroy: op %d was not made by "
			    "ncclRedOpCreatePreMulSum on this communicator (or is "
			    "destroyed already)", op);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	comm->ops[op - SIMT_NCCL_NUM_OPS].live = false;
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclRedOpDestroy);

/* ---- memory and registration ---- */

/* Device memory of the current device, as cudaMalloc gives it. */
int ncclMemAlloc(void **ptr, size_t size);
int ncclMemAlloc(void **ptr, size_t size)
{
	if (!ptr) {
		nccl_report("ncclMemAlloc: ptr is NULL");
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	if (cudaMalloc(ptr, size) != cudaSuccess) {
		nccl_report("ncclMemAlloc: cudaMalloc of %zu bytes failed", size);
		return SIMT_NCCL_UNHANDLED_CUDA_ERROR;
	}
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclMemAlloc);

int ncclMemFree(void *ptr);
int ncclMemFree(void *ptr)
{
	if (cudaFree(ptr) != cudaSuccess) {
		nccl_report("ncclMemFree: %p is not memory ncclMemAlloc gave", ptr);
		return SIMT_NCCL_UNHANDLED_CUDA_ERROR;
	}
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclMemFree);

/* Registration lets NCCL map a buffer for its peers; simt's data movement
 * reaches every buffer already, so a registration is checked and kept
 * only as a handle. */
static int reg_new(const char *fn, struct ncclComm *comm, void *buff,
		   size_t size, void **handle)
{
	struct reg *r;
	int rc;

	if (!nccl_comm_ok(comm))
		return nccl_bad_comm(fn);
	if (!handle) {
		nccl_report("%s: the handle pointer is NULL", fn);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	if ((rc = nccl_check_buf(fn, "buff", comm, buff, size, false)))
		return rc;
	r = simt_xcalloc(1, sizeof *r);
	r->magic = REG_MAGIC;
	r->comm = comm;
	r->buff = buff;
	*handle = r;
	return SIMT_NCCL_SUCCESS;
}

static int reg_free(const char *fn, struct ncclComm *comm, void *handle)
{
	struct reg *r = handle;

	if (!nccl_comm_ok(comm))
		return nccl_bad_comm(fn);
	if (!r || r->magic != REG_MAGIC || r->comm != comm) {
		nccl_report("%s: handle %p was not registered on this communicator", fn,
			    handle);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	r->magic = 0;
	free(r);
	return SIMT_NCCL_SUCCESS;
}

int ncclCommRegister(struct ncclComm *comm, void *buff, size_t size, void **handle);
int ncclCommRegister(struct ncclComm *comm, void *buff, size_t size, void **handle)
{
	return reg_new("ncclCommRegister", comm, buff, size, handle);
}
PNCCL(ncclCommRegister);

int ncclCommDeregister(struct ncclComm *comm, void *handle);
int ncclCommDeregister(struct ncclComm *comm, void *handle)
{
	return reg_free("ncclCommDeregister", comm, handle);
}
PNCCL(ncclCommDeregister);

int ncclCommWindowRegister(struct ncclComm *comm, void *buff, size_t size,
			   void **win, int winFlags);
int ncclCommWindowRegister(struct ncclComm *comm, void *buff, size_t size,
			   void **win, int winFlags)
{
	if (winFlags & ~SIMT_NCCL_WIN_COLL_SYMMETRIC) {
		nccl_report("ncclCommWindowRegister: winFlags 0x%x has unknown bits", winFlags);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	return reg_new("ncclCommWindowRegister", comm, buff, size, win);
}
PNCCL(ncclCommWindowRegister);

int ncclCommWindowDeregister(struct ncclComm *comm, void *win);
int ncclCommWindowDeregister(struct ncclComm *comm, void *win)
{
	return reg_free("ncclCommWindowDeregister", comm, win);
}
PNCCL(ncclCommWindowDeregister);

/* ---- what simt does not implement ---- */

static int not_implemented(const char *fn)
{
	nccl_report("%s is not implemented", fn);
	return SIMT_NCCL_INVALID_USAGE;
}

int ncclCommRevoke(struct ncclComm *comm, int revokeFlags);
int ncclCommRevoke(struct ncclComm *comm, int revokeFlags)
{
	(void)comm;
	(void)revokeFlags;
	return not_implemented("ncclCommRevoke");
}
PNCCL(ncclCommRevoke);

int ncclCommShrink(struct ncclComm *comm, int *excludeRanksList,
		   int excludeRanksCount, struct ncclComm **newcomm,
		   struct simt_nccl_config *config, int shrinkFlags);
int ncclCommShrink(struct ncclComm *comm, int *excludeRanksList,
		   int excludeRanksCount, struct ncclComm **newcomm,
		   struct simt_nccl_config *config, int shrinkFlags)
{
	(void)comm;
	(void)excludeRanksList;
	(void)excludeRanksCount;
	(void)newcomm;
	(void)config;
	(void)shrinkFlags;
	return not_implemented("ncclCommShrink");
}
PNCCL(ncclCommShrink);

/* Deprecated and returning nothing: there is no debug state to reset. */
void ncclResetDebugInit(void);
void ncclResetDebugInit(void)
{
}
PNCCL(ncclResetDebugInit);
