/* NCCL on simt: communicators whose ranks are host threads (or one
 * thread driving several communicators inside a group), and the
 * rendezvous that runs a collective once every rank has posted it.
 *
 * A rank's operation is a post.  Collectives of a communicator are
 * matched by their sequence number (the k-th collective of every rank),
 * sends and receives by (sender, receiver, k-th between them).  The
 * thread whose post completes a match runs the data movement
 * (nccl_reduce.c) under simt_lock(), so no kernel runs meanwhile, and
 * wakes the others.  Posts wait on this file's own mutex, never holding
 * simt_lock().  A call outside a group posts and waits; inside a group
 * the posts are queued and ncclGroupEnd posts and waits for them all.
 *
 * A match whose ranks disagree (operation, count, type, reduction,
 * root) is reported with every rank's call and fails; a wait longer than
 * CUDALAB_SIMT_NCCL_TIMEOUT seconds is reported with the ranks that
 * waited and those that never came, and fails.
 *
 * This file holds the rendezvous, the collectives, send and receive, and
 * groups; communicators are made and destroyed in nccl_comm.c. */
#include "libs/nccl_int.h"
#include "check/hazard.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t nccl_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nccl_cv;
pthread_once_t nccl_cv_once = PTHREAD_ONCE_INIT;
static int next_serial;

_Thread_local int nccl_group_depth;
static _Thread_local struct nccl_post *group_head, *group_tail;
static _Thread_local int group_error;
_Thread_local char nccl_last_error[1024];

void nccl_cv_init(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&nccl_cv, &a);
	pthread_condattr_destroy(&a);
}

/* ---- names and messages ---- */

static const char *const kind_api[NK_COUNT] = {
	"ncclAllReduce", "ncclAllGather", "ncclReduceScatter", "ncclBroadcast",
	"ncclReduce", "ncclAlltoAll", "ncclGather", "ncclScatter", "ncclSend",
	"ncclRecv", "ncclCommSplit", "ncclCommInitRank",
};
static const char *const kind_key[NK_COUNT] = {
	"all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
	"alltoall", "gather", "scatter", "send", "recv", "split", "init",
};

const char *simt_nccl_kind_api(int kind) { return kind_api[kind]; }
const char *simt_nccl_kind_key(int kind) { return kind_key[kind]; }

const char *simt_nccl_type_name(int type)
{
	static const char *const names[SIMT_NCCL_NUM_TYPES] = {
		"ncclInt8", "ncclUint8", "ncclInt32", "ncclUint32", "ncclInt64",
		"ncclUint64", "ncclFloat16", "ncclFloat32", "ncclFloat64",
		"ncclBfloat16", "ncclFloat8e4m3", "ncclFloat8e5m2",
	};

	return type >= 0 && type < SIMT_NCCL_NUM_TYPES ? names[type] : NULL;
}

const char *simt_nccl_op_name(int op)
{
	static const char *const names[SIMT_NCCL_NUM_OPS] = {
		"ncclSum", "ncclProd", "ncclMax", "ncclMin", "ncclAvg",
	};

	return op >= 0 && op < SIMT_NCCL_NUM_OPS ? names[op] : NULL;
}

/* Prints "simt: " and the message, and keeps it for ncclGetLastError. */
void nccl_report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(nccl_last_error, sizeof nccl_last_error, fmt, ap);
	va_end(ap);
	simt_warn("%s", nccl_last_error);
}

/* The program's own functions, from its ELF symbol table (read once):
 * executables export no symbols, so dladdr alone names no function. */
struct func_sym {
	uint64_t addr, size;
	char *name;
};
static struct func_sym *syms;
static size_t nsyms;
static pthread_once_t syms_once = PTHREAD_ONCE_INIT;

static void load_syms(void)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	char *str = NULL;
	int i;

	if (!f)
		return;
	if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof *sh ||
	    eh.e_shnum == 0 || eh.e_shnum > 4096)
		goto out;
	sh = simt_xcalloc(eh.e_shnum, sizeof *sh);
	if (fseek(f, (long)eh.e_shoff, SEEK_SET) ||
	    fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum)
		goto out;
	for (i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr *st = &sh[i], *ss;
		size_t n, k;

		if (st->sh_type != SHT_SYMTAB || st->sh_link >= eh.e_shnum ||
		    st->sh_entsize != sizeof(Elf64_Sym))
			continue;
		ss = &sh[st->sh_link];
		str = simt_xmalloc(ss->sh_size + 1);
		if (fseek(f, (long)ss->sh_offset, SEEK_SET) ||
		    fread(str, 1, ss->sh_size, f) != ss->sh_size)
			goto out;
		str[ss->sh_size] = 0;
		n = st->sh_size / sizeof(Elf64_Sym);
		if (fseek(f, (long)st->sh_offset, SEEK_SET))
			goto out;
		for (k = 0; k < n; k++) {
			Elf64_Sym sym;

			if (fread(&sym, sizeof sym, 1, f) != 1)
				break;
			if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value ||
			    sym.st_name >= ss->sh_size)
				continue;
			syms = simt_xrealloc(syms, (nsyms + 1) * sizeof *syms);
			syms[nsyms].addr = sym.st_value;
			syms[nsyms].size = sym.st_size;
			syms[nsyms].name = simt_xstrdup(str + sym.st_name);
			nsyms++;
		}
		break;
	}
out:
	free(str);
	free(sh);
	fclose(f);
}

/* The program's call at return address a: "function+0x12
 * (program+0x1234)", the second part for addr2line. */
static void site_name(void *a, char *buf, size_t n)
{
	Dl_info info;
	char dem[256];
	const char *base, *fn = NULL;
	uint64_t off, foff = 0;
	size_t i;

	if (!a || !dladdr(a, &info)) {
		snprintf(buf, n, "%p", a);
		return;
	}
	base = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
	base = base ? base + 1 : info.dli_fname ? info.dli_fname : "?";
	off = (uint64_t)((char *)a - (char *)info.dli_fbase);
	if (info.dli_sname && info.dli_saddr) {
		fn = info.dli_sname;
		foff = (uint64_t)((char *)a - (char *)info.dli_saddr);
	} else {
		const Elf64_Ehdr *eh = info.dli_fbase;
		/* symbol values are offsets in a position-independent program */
		uint64_t v = eh->e_type == ET_DYN ? off : (uint64_t)(uintptr_t)a;

		pthread_once(&syms_once, load_syms);
		for (i = 0; i < nsyms; i++)
			if (v >= syms[i].addr && v < syms[i].addr + syms[i].size) {
				fn = syms[i].name;
				foff = v - syms[i].addr;
				break;
			}
	}
	if (fn)
		snprintf(buf, n, "%s+0x%llx (%s+0x%llx)",
			 simt_demangle(fn, dem, sizeof dem), (unsigned long long)foff,
			 base, (unsigned long long)off);
	else
		snprintf(buf, n, "%s+0x%llx", base, (unsigned long long)off);
}

/* One rank's call, as a line of a report. */
static void describe_post(struct simt_buf *b, const struct nccl_post *p)
{
	char site[320];
	const char *tn = simt_nccl_type_name(p->type);

	simt_buf_printf(b, "  rank %d: %s(", p->rank, kind_api[p->kind]);
	switch (p->kind) {
	case NK_SPLIT:
		simt_buf_printf(b, "color=%d, key=%d", p->color, p->key);
		break;
	case NK_SEND: case NK_RECV:
		simt_buf_printf(b, "count=%zu, %s, peer=%d", p->count, tn ? tn : "?",
				p->root);
		break;
	default:
		simt_buf_printf(b, "count=%zu, %s", p->count, tn ? tn : "?");
		if (p->kind == NK_ALL_REDUCE || p->kind == NK_REDUCE ||
		    p->kind == NK_REDUCE_SCATTER) {
			const char *on = simt_nccl_op_name(p->op);

			if (on)
				simt_buf_printf(b, ", %s", on);
			else
				simt_buf_printf(b, ", PreMulSum op %d", p->op);
		}
		if (p->kind == NK_BROADCAST || p->kind == NK_REDUCE ||
		    p->kind == NK_GATHER || p->kind == NK_SCATTER)
			simt_buf_printf(b, ", root=%d", p->root);
		break;
	}
	site_name(p->site, site, sizeof site);
	simt_buf_printf(b, ") at %s\n", site);
}

static const char *ordinal(uint64_t k, char *buf, size_t n)
{
	const char *suf = "th";

	if (k % 100 < 11 || k % 100 > 13)
		suf = k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
	snprintf(buf, n, "%llu%s", (unsigned long long)k, suf);
	return buf;
}

/* ---- checks of arguments ---- */

/* CUDALAB_SIMT_NCCL_TIMEOUT: seconds a rank waits for the others. */
double nccl_timeout_seconds(void)
{
	long s = simt_env_long("CUDALAB_SIMT_NCCL_TIMEOUT", 10);

	return s < 1 ? 1 : (double)s;
}

bool nccl_comm_ok(const struct ncclComm *c)
{
	return c && c->magic == COMM_MAGIC;
}

int nccl_bad_comm(const char *fn)
{
	nccl_report("%s: comm is not a communicator (NULL, or already destroyed)", fn);
	return SIMT_NCCL_INVALID_ARGUMENT;
}

/* buf must lie wholly in one allocation of device memory (of the rank's
 * own device when it has one) or of memory devices reach.  Under
 * simt_lock(), since another thread may be changing the allocation
 * table. */
static int check_buf_locked(const char *fn, const char *arg,
			    const struct ncclComm *c, const void *buf,
			    size_t bytes, bool write)
{
	uint64_t a = (uint64_t)(uintptr_t)buf;
	const struct simt_alloc *al;
	struct simt_buf b = {0};
	int d;

	if (!bytes)
		return 0;
	if (!buf || !simt_mem_find(a, 1)) {
		nccl_report("%s: %s %p of rank %d is not memory allocated through CUDA "
			    "(NULL, plain host memory, or freed)", fn, arg, buf, c->rank);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	al = simt_mem_find(a, bytes);
	if (!al) {
		char where[32] = "";

		al = simt_mem_find(a, 1);
		if (al->device >= 0)
			snprintf(where, sizeof where, " on device %d", al->device);
		simt_mem_describe(&b, a, bytes, write ? "write" : "read");
		nccl_report("%s: %s of rank %d is too small for %zu bytes: %s (the "
		       "allocation at 0x%llx%s)", fn, arg, c->rank, bytes,
		       b.s ? b.s : "", (unsigned long long)al->base, where);
		simt_buf_free(&b);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	d = simt_mem_device(buf);
	if (d >= 0 && d != c->dev) {
		nccl_report("%s: %s %p of rank %d lies on device %d, but the rank's "
			    "communicator uses device %d", fn, arg, buf, c->rank, d, c->dev);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	return 0;
}

int nccl_check_buf(const char *fn, const char *arg, const struct ncclComm *c,
		   const void *buf, size_t bytes, bool write)
{
	int rc;

	simt_lock();
	rc = check_buf_locked(fn, arg, c, buf, bytes, write);
	simt_unlock();
	return rc;
}

static int check_stream_locked(const char *fn, const struct ncclComm *c,
			       cudaStream_t s)
{
	enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;

	if (!simt_stream_valid(s)) {
		nccl_report("%s: stream %p of rank %d is not a stream", fn, (void *)s, c->rank);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	if ((uintptr_t)s > 2 && simt_stream_device(s) != c->dev) {
		nccl_report("%s: stream %p of rank %d belongs to device %d, but the "
			    "rank's communicator uses device %d", fn, (void *)s, c->rank,
			    simt_stream_device(s), c->dev);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	if (cudaStreamIsCapturing(s, &st) == cudaSuccess &&
	    st != cudaStreamCaptureStatusNone) {
		nccl_report("%s: stream %p of rank %d is being captured into a CUDA "
			    "graph; simt runs NCCL operations when they are called and "
			    "cannot record them into a graph", fn, (void *)s, c->rank);
		return SIMT_NCCL_INVALID_USAGE;
	}
	return 0;
}

/* The stream table too changes under simt_lock(). */
static int check_stream(const char *fn, const struct ncclComm *c, cudaStream_t s)
{
	int rc;

	simt_lock();
	rc = check_stream_locked(fn, c, s);
	simt_unlock();
	return rc;
}

/* Resolves the program's reduction op for a collective of type on c. */
static int resolve_op(const char *fn, const struct ncclComm *c, int op, int type,
		      struct nccl_redop *red)
{
	const struct user_op *u;

	memset(red, 0, sizeof *red);
	if (op >= SIMT_NCCL_SUM && op < SIMT_NCCL_AVG) {
		red->base = op;
		return 0;
	}
	if (op == SIMT_NCCL_AVG) {
		int n = c->cl->nranks;

		red->base = SIMT_NCCL_SUM;
		if (type <= SIMT_NCCL_UINT64) {
			red->divisor = (uint64_t)n;
		} else {
			/* 1/n in the type itself, as NCCL pre-multiplies */
			float f = 1.0f / (float)n;
			double dd = 1.0 / n;
			uint16_t h;
			uint8_t q;

			red->premul = true;
			switch (type) {
			case SIMT_NCCL_FLOAT32:
				memcpy(red->scalar, &f, 4);
				break;
			case SIMT_NCCL_FLOAT64:
				memcpy(red->scalar, &dd, 8);
				break;
			case SIMT_NCCL_FLOAT16:
				h = simt_f2h(dd, RND_RN);
				memcpy(red->scalar, &h, 2);
				break;
			case SIMT_NCCL_BFLOAT16:
				h = simt_f2bf(dd, RND_RN);
				memcpy(red->scalar, &h, 2);
				break;
			default:
				q = simt_nccl_fp8_from_double(dd, type);
				red->scalar[0] = q;
				break;
			}
		}
		return 0;
	}
	u = op >= SIMT_NCCL_NUM_OPS && op - SIMT_NCCL_NUM_OPS < c->nops
	    ? &c->ops[op - SIMT_NCCL_NUM_OPS] : NULL;
	if (!u || !u->live) {
		nccl_report("%s: op %d of rank %d is neither a built-in reduction nor one "
			    "ncclRedOpCreatePreMulSum made on this communicator", fn, op,
			    c->rank);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	if (u->type != type) {
		nccl_report("%s: op %d of rank %d was created for %s, used with %s", fn, op,
			    c->rank, simt_nccl_type_name(u->type), simt_nccl_type_name(type));
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	*red = u->red;
	return 0;
}

/* ---- rendezvous (all under mu) ---- */

static struct slot *find_slot(struct clique *cl, uint64_t seq, bool make)
{
	struct slot *s;

	for (s = cl->slots; s; s = s->next)
		if (s->seq == seq)
			return s;
	if (!make)
		return NULL;
	s = simt_xcalloc(1, sizeof *s);
	s->seq = seq;
	s->ops = simt_xcalloc((size_t)cl->nranks, sizeof *s->ops);
	s->next = cl->slots;
	cl->slots = s;
	return s;
}

void nccl_drop_slot(struct clique *cl, struct slot *s)
{
	struct slot **pp;

	for (pp = &cl->slots; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	free(s->ops);
	free(s);
}

static void finish(struct nccl_post *p, int result)
{
	p->done = true;
	p->result = result;
	if (result != SIMT_NCCL_SUCCESS &&
	    (p->comm->async_err == SIMT_NCCL_SUCCESS ||
	     p->comm->async_err == SIMT_NCCL_IN_PROGRESS))
		p->comm->async_err = result;
}

static bool same_post(const struct nccl_post *a, const struct nccl_post *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == NK_SPLIT)
		return true;
	if (a->count != b->count || a->type != b->type)
		return false;
	if ((a->kind == NK_ALL_REDUCE || a->kind == NK_REDUCE ||
	     a->kind == NK_REDUCE_SCATTER) &&
	    (a->red.base != b->red.base || a->red.premul != b->red.premul ||
	     a->red.divisor != b->red.divisor ||
	     (a->op < SIMT_NCCL_NUM_OPS) != (b->op < SIMT_NCCL_NUM_OPS) ||
	     (a->op < SIMT_NCCL_NUM_OPS && a->op != b->op)))
		return false;
	if ((a->kind == NK_BROADCAST || a->kind == NK_REDUCE ||
	     a->kind == NK_GATHER || a->kind == NK_SCATTER) && a->root != b->root)
		return false;
	return true;
}

struct clique *nccl_clique_new(int nranks)
{
	struct clique *cl = simt_xcalloc(1, sizeof *cl);

	cl->nranks = nranks;
	cl->serial = next_serial++;
	cl->born = simt_now();
	cl->devs = simt_xcalloc((size_t)nranks, sizeof *cl->devs);
	return cl;
}

struct ncclComm *nccl_comm_new(struct clique *cl, int rank, int dev)
{
	struct ncclComm *c = simt_xcalloc(1, sizeof *c);

	c->magic = COMM_MAGIC;
	c->cl = cl;
	c->rank = rank;
	c->dev = dev;
	c->send_seq = simt_xcalloc((size_t)cl->nranks, sizeof *c->send_seq);
	c->recv_seq = simt_xcalloc((size_t)cl->nranks, sizeof *c->recv_seq);
	cl->devs[rank] = dev;
	cl->refs++;
	return c;
}

/* Runs a split: the ranks of each colour, ordered by key then by their
 * parent rank, become a new communicator. */
static void run_split(struct nccl_post **ops, int n)
{
	int *order = simt_xmalloc((size_t)n * sizeof *order);
	bool *taken = simt_xcalloc((size_t)n, sizeof *taken);
	int r, i, m;

	for (r = 0; r < n; r++) {
		struct clique *cl;

		if (taken[r])
			continue;
		if (ops[r]->color == SIMT_NCCL_SPLIT_NOCOLOR) {
			*ops[r]->newcomm = NULL;
			continue;
		}
		for (m = 0, i = r; i < n; i++) {
			int j;

			if (taken[i] || ops[i]->color != ops[r]->color)
				continue;
			taken[i] = true;
			/* insertion by (key, parent rank) */
			for (j = m++; j > 0 && ops[order[j - 1]]->key > ops[i]->key; j--)
				order[j] = order[j - 1];
			order[j] = i;
		}
		cl = nccl_clique_new(m);
		cl->joined = m;
		for (i = 0; i < m; i++)
			*ops[order[i]]->newcomm = nccl_comm_new(cl, i, ops[order[i]]->comm->dev);
	}
	free(order);
	free(taken);
}

/* The stream order (order.h) sees each rank's part of an operation as an
 * operation of that rank's stream: its send buffer read, its receive
 * buffer written.  Call with simt_lock held. */
static void order_post(const struct nccl_post *p)
{
	uint32_t lane = simt_stream_lane_on(p->stream, p->comm->dev);

	simt_hz_op_begin(lane, false, kind_api[p->kind]);
	if (p->sendn)
		simt_hz_op_range(p->send, p->sendn, false);
	if (p->recvn)
		simt_hz_op_range(p->recv, p->recvn, true);
	simt_hz_op_end(lane);
}

/* Every rank of slot s has posted: check that they agree, then run it. */
static void complete_slot(struct clique *cl, struct slot *s)
{
	int n = cl->nranks, r, result = SIMT_NCCL_SUCCESS;
	struct nccl_post **ops = s->ops;

	for (r = 1; r < n; r++)
		if (!same_post(ops[0], ops[r]))
			break;
	if (r < n) {
		struct simt_buf b = {0};
		char ord[32];

		for (r = 0; r < n; r++)
			describe_post(&b, ops[r]);
		nccl_report("NCCL mismatch: the ranks of communicator %d (%d ranks) "
			    "posted different operations as their %s collective:\n%s"
			    "simt: every rank must post the same collective with the same "
			    "count, type, reduction and root; the %d calls fail with "
			    "ncclInvalidUsage", cl->serial, n, ordinal(s->seq + 1, ord, sizeof ord),
			    b.s, n);
		simt_buf_free(&b);
		result = SIMT_NCCL_INVALID_USAGE;
	} else if (ops[0]->kind == NK_SPLIT) {
		run_split(ops, n);
	} else {
		simt_lock();
		for (r = 0; r < n; r++)
			order_post(ops[r]);
		simt_nccl_execute(ops, n);
		simt_unlock();
		simt_nccl_model_coll(ops, n);
	}
	for (r = 0; r < n; r++)
		finish(ops[r], result);
	nccl_drop_slot(cl, s);
	pthread_cond_broadcast(&nccl_cv);
}

static void match_p2p(struct nccl_post *send, struct nccl_post *recv)
{
	int result = SIMT_NCCL_SUCCESS;

	if (send->count * simt_nccl_type_size(send->type) !=
	    recv->count * simt_nccl_type_size(recv->type)) {
		struct simt_buf b = {0};
		char ord[32];

		describe_post(&b, send);
		describe_post(&b, recv);
		nccl_report("NCCL mismatch: the %s send from rank %d to rank %d of "
			    "communicator %d and its receive differ in size:\n%s"
			    "simt: both calls fail with ncclInvalidUsage",
			    ordinal(send->seq + 1, ord, sizeof ord), send->rank,
			    recv->rank, send->comm->cl->serial, b.s);
		simt_buf_free(&b);
		result = SIMT_NCCL_INVALID_USAGE;
	} else {
		simt_lock();
		order_post(send);
		order_post(recv);
		simt_nccl_execute_p2p(send, recv);
		simt_unlock();
		simt_nccl_model_p2p(send, recv);
	}
	finish(send, result);
	finish(recv, result);
	pthread_cond_broadcast(&nccl_cv);
}

static void post_locked(struct nccl_post *p)
{
	struct clique *cl = p->comm->cl;
	struct nccl_post **pp;
	struct slot *s;

	/* numbered when posted, so that a simulated group uses none */
	p->posted = true;
	if (p->kind == NK_SEND)
		p->seq = p->comm->send_seq[p->root]++;
	else if (p->kind == NK_RECV)
		p->seq = p->comm->recv_seq[p->root]++;
	else if (p->kind != NK_INIT)
		p->seq = p->comm->coll_seq++;
	switch (p->kind) {
	case NK_INIT:
		return;
	case NK_SEND:
	case NK_RECV:
		for (pp = &cl->p2p; *pp; pp = &(*pp)->pnext) {
			struct nccl_post *q = *pp;

			if (q->kind != p->kind && q->rank == p->root &&
			    q->root == p->rank && q->seq == p->seq) {
				*pp = q->pnext;
				if (p->kind == NK_SEND)
					match_p2p(p, q);
				else
					match_p2p(q, p);
				return;
			}
		}
		p->pnext = cl->p2p;
		cl->p2p = p;
		return;
	}
	s = find_slot(cl, p->seq, true);
	if (s->failed) {
		finish(p, s->result);
		return;
	}
	s->ops[p->rank] = p;
	if (++s->arrived == cl->nranks)
		complete_slot(cl, s);
}

static bool post_done(const struct nccl_post *p)
{
	if (p->kind == NK_INIT)
		return p->comm->cl->joined == p->comm->cl->nranks ||
		       p->comm->cl->init_failed;
	return p->done;
}

/* A communicator that did not form in time: reported once, and every
 * rank that joined it fails. */
void nccl_init_timed_out(struct clique *cl)
{
	struct simt_buf b = {0}, miss = {0};
	int r;

	if (cl->init_failed)
		return;
	for (r = 0; r < cl->nranks; r++)
		simt_buf_printf(cl->devs[r] >= 0 ? &b : &miss, "%s%d",
				(cl->devs[r] >= 0 ? b.len : miss.len) ? ", " : "", r);
	nccl_report("NCCL timeout: communicator %d of %d ranks did not form in "
		    "%.0f s (CUDALAB_SIMT_NCCL_TIMEOUT): ranks %s joined, ranks %s "
		    "never called ncclCommInitRank; the waiting calls fail with "
		    "ncclRemoteError", cl->serial, cl->nranks, nccl_timeout_seconds(),
		    b.s ? b.s : "none", miss.s ? miss.s : "none");
	simt_buf_free(&b);
	simt_buf_free(&miss);
	cl->init_failed = true;
}

/* A wait that ran out: report it and fail what waits on the same thing. */
static void timed_out(struct nccl_post *p)
{
	struct clique *cl = p->comm->cl;
	struct simt_buf b = {0}, miss = {0};
	double secs = nccl_timeout_seconds();
	char ord[32];
	struct nccl_post **pp;
	struct slot *s;
	int r;

	switch (p->kind) {
	case NK_INIT:
		nccl_init_timed_out(cl);
		break;
	case NK_SEND:
	case NK_RECV:
		for (pp = &cl->p2p; *pp; pp = &(*pp)->pnext)
			if (*pp == p) {
				*pp = p->pnext;
				break;
			}
		describe_post(&b, p);
		nccl_report("NCCL timeout: rank %d's %s %s rank %d on communicator %d "
			    "waited %.0f s (CUDALAB_SIMT_NCCL_TIMEOUT) for rank %d to post "
			    "the matching %s:\n%ssimt: the call fails with ncclRemoteError",
			    p->rank, ordinal(p->seq + 1, ord, sizeof ord),
			    p->kind == NK_SEND ? "send to" : "receive from", p->root,
			    cl->serial, secs, p->root,
			    p->kind == NK_SEND ? "ncclRecv" : "ncclSend", b.s);
		finish(p, SIMT_NCCL_REMOTE_ERROR);
		break;
	default:
		s = find_slot(cl, p->seq, false);
		if (!s)
			break;
		for (r = 0; r < cl->nranks; r++)
			if (s->ops[r])
				describe_post(&b, s->ops[r]);
			else
				simt_buf_printf(&miss, "%s%d", miss.len ? ", " : "", r);
		nccl_report("NCCL timeout: on communicator %d (%d ranks), %d ranks waited "
			    "%.0f s (CUDALAB_SIMT_NCCL_TIMEOUT) for their %s collective, "
			    "which ranks %s never posted:\n%ssimt: the waiting calls fail "
			    "with ncclRemoteError", cl->serial, cl->nranks, s->arrived, secs,
			    ordinal(p->seq + 1, ord, sizeof ord), miss.s, b.s);
		s->failed = true;
		s->result = SIMT_NCCL_REMOTE_ERROR;
		for (r = 0; r < cl->nranks; r++)
			if (s->ops[r]) {
				finish(s->ops[r], SIMT_NCCL_REMOTE_ERROR);
				s->ops[r] = NULL;
			}
		break;
	}
	simt_buf_free(&b);
	simt_buf_free(&miss);
	pthread_cond_broadcast(&nccl_cv);
}

/* Posts the list (linked by next) and waits for all of it; returns the
 * first failure.  Frees the posts. */
static int run_posts(struct nccl_post *list)
{
	struct timespec dl;
	struct nccl_post *p, *next;
	int result = SIMT_NCCL_SUCCESS;
	double secs = nccl_timeout_seconds();

	pthread_once(&nccl_cv_once, nccl_cv_init);
	pthread_mutex_lock(&nccl_mu);
	for (p = list; p; p = p->next)
		post_locked(p);
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += (time_t)secs;
	for (p = list; p; p = p->next) {
		while (!post_done(p)) {
			if (pthread_cond_timedwait(&nccl_cv, &nccl_mu, &dl) == ETIMEDOUT &&
			    !post_done(p))
				timed_out(p);
		}
		if (p->kind == NK_INIT && p->comm->cl->init_failed) {
			p->result = SIMT_NCCL_REMOTE_ERROR;
			p->comm->async_err = SIMT_NCCL_REMOTE_ERROR;
		}
		if (p->result != SIMT_NCCL_SUCCESS && result == SIMT_NCCL_SUCCESS)
			result = p->result;
	}
	pthread_mutex_unlock(&nccl_mu);
	for (p = list; p; p = next) {
		next = p->next;
		free(p);
	}
	return result;
}

/* Runs a post now, or queues it in the thread's group. */
int nccl_submit(struct nccl_post *p)
{
	if (nccl_group_depth > 0) {
		if (group_tail)
			group_tail->next = p;
		else
			group_head = p;
		group_tail = p;
		return SIMT_NCCL_SUCCESS;
	}
	return run_posts(p);
}

struct nccl_post *nccl_post_new(int kind, struct ncclComm *c, void *site)
{
	struct nccl_post *p = simt_xcalloc(1, sizeof *p);

	p->kind = kind;
	p->comm = c;
	p->rank = c->rank;
	p->site = site;
	return p;
}

/* ---- collectives ---- */

struct coll_args {
	int kind;
	const void *send;
	void *recv;
	size_t count;       /* the count argument */
	int type, op, root;
	struct ncclComm *comm;
	cudaStream_t stream;
	void *site;
};

int nccl_fail_arg(int rc)
{
	if (nccl_group_depth > 0 && group_error == SIMT_NCCL_SUCCESS)
		group_error = rc;
	return rc;
}

static int collective(const struct coll_args *a)
{
	const char *fn = kind_api[a->kind];
	struct ncclComm *c = a->comm;
	struct nccl_redop red;
	size_t es, sendn, recvn;
	int n, rc;
	struct nccl_post *p;

	simt_init();
	if (!nccl_comm_ok(c))
		return nccl_fail_arg(nccl_bad_comm(fn));
	n = c->cl->nranks;
	if (!simt_nccl_type_name(a->type)) {
		nccl_report("%s: datatype %d of rank %d is not an ncclDataType_t", fn,
			    a->type, c->rank);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	es = simt_nccl_type_size(a->type);
	memset(&red, 0, sizeof red);
	if (a->kind == NK_ALL_REDUCE || a->kind == NK_REDUCE ||
	    a->kind == NK_REDUCE_SCATTER) {
		rc = resolve_op(fn, c, a->op, a->type, &red);
		if (rc)
			return nccl_fail_arg(rc);
	}
	if ((a->kind == NK_BROADCAST || a->kind == NK_REDUCE ||
	     a->kind == NK_GATHER || a->kind == NK_SCATTER ||
	     a->kind == NK_SEND || a->kind == NK_RECV) &&
	    (a->root < 0 || a->root >= n)) {
		nccl_report("%s: %s %d of rank %d is not a rank of the communicator "
			    "(0..%d)", fn, a->kind >= NK_SEND ? "peer" : "root", a->root,
			    c->rank, n - 1);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	if (a->count > SIZE_MAX / 8 / (size_t)n / (size_t)n) {
		nccl_report("%s: count %zu of rank %d is too large for any buffer", fn,
			    a->count, c->rank);
		return nccl_fail_arg(SIMT_NCCL_INVALID_ARGUMENT);
	}
	/* elements read from sendbuff and written to recvbuff by this rank */
	sendn = recvn = a->count;
	switch (a->kind) {
	case NK_ALL_GATHER: recvn = a->count * (size_t)n; break;
	case NK_REDUCE_SCATTER: sendn = a->count * (size_t)n; break;
	case NK_ALLTOALL: sendn = recvn = a->count * (size_t)n; break;
	case NK_REDUCE: if (c->rank != a->root) recvn = 0; break;
	case NK_BROADCAST: if (c->rank != a->root) sendn = 0; break;
	case NK_GATHER:
		if (c->rank == a->root) recvn = a->count * (size_t)n; else recvn = 0;
		break;
	case NK_SCATTER:
		if (c->rank == a->root) sendn = a->count * (size_t)n; else sendn = 0;
		break;
	case NK_SEND: recvn = 0; break;
	case NK_RECV: sendn = 0; break;
	}
	if ((rc = nccl_check_buf(fn, a->kind == NK_SEND ? "buff" : "sendbuff", c,
				 a->send, sendn * es, false)) ||
	    (rc = nccl_check_buf(fn, a->kind == NK_RECV ? "buff" : "recvbuff", c,
				 a->recv, recvn * es, true)) ||
	    (rc = check_stream(fn, c, a->stream)))
		return nccl_fail_arg(rc);
	p = nccl_post_new(a->kind, c, a->site);
	p->send = a->send;
	p->recv = a->recv;
	p->stream = a->stream;
	p->sendn = sendn * es;
	p->recvn = recvn * es;
	p->count = a->count;
	p->type = a->type;
	p->op = a->op;
	p->red = red;
	p->root = a->root;
	return nccl_submit(p);
}

int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype,
		  int op, struct ncclComm *comm, cudaStream_t stream);
int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype,
		  int op, struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_ALL_REDUCE, sendbuff, recvbuff, count, datatype,
			       op, 0, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclAllReduce);

int ncclReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype,
	       int op, int root, struct ncclComm *comm, cudaStream_t stream);
int ncclReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype,
	       int op, int root, struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_REDUCE, sendbuff, recvbuff, count, datatype,
			       op, root, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclReduce);

int ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
		  int datatype, int root, struct ncclComm *comm,
		  cudaStream_t stream);
int ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
		  int datatype, int root, struct ncclComm *comm,
		  cudaStream_t stream)
{
	struct coll_args a = { NK_BROADCAST, sendbuff, recvbuff, count, datatype,
			       0, root, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclBroadcast);

int ncclBcast(void *buff, size_t count, int datatype, int root,
	      struct ncclComm *comm, cudaStream_t stream);
int ncclBcast(void *buff, size_t count, int datatype, int root,
	      struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_BROADCAST, buff, buff, count, datatype, 0, root,
			       comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclBcast);

int ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
		  int datatype, struct ncclComm *comm, cudaStream_t stream);
int ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
		  int datatype, struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_ALL_GATHER, sendbuff, recvbuff, sendcount,
			       datatype, 0, 0, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclAllGather);

int ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
		      int datatype, int op, struct ncclComm *comm,
		      cudaStream_t stream);
int ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
		      int datatype, int op, struct ncclComm *comm,
		      cudaStream_t stream)
{
	struct coll_args a = { NK_REDUCE_SCATTER, sendbuff, recvbuff, recvcount,
			       datatype, op, 0, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclReduceScatter);

int ncclAlltoAll(const void *sendbuff, void *recvbuff, size_t count,
		 int datatype, struct ncclComm *comm, cudaStream_t stream);
int ncclAlltoAll(const void *sendbuff, void *recvbuff, size_t count,
		 int datatype, struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_ALLTOALL, sendbuff, recvbuff, count, datatype,
			       0, 0, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclAlltoAll);

int ncclGather(const void *sendbuff, void *recvbuff, size_t count, int datatype,
	       int root, struct ncclComm *comm, cudaStream_t stream);
int ncclGather(const void *sendbuff, void *recvbuff, size_t count, int datatype,
	       int root, struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_GATHER, sendbuff, recvbuff, count, datatype, 0,
			       root, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclGather);

int ncclScatter(const void *sendbuff, void *recvbuff, size_t count, int datatype,
		int root, struct ncclComm *comm, cudaStream_t stream);
int ncclScatter(const void *sendbuff, void *recvbuff, size_t count, int datatype,
		int root, struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_SCATTER, sendbuff, recvbuff, count, datatype, 0,
			       root, comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclScatter);

int ncclSend(const void *sendbuff, size_t count, int datatype, int peer,
	     struct ncclComm *comm, cudaStream_t stream);
int ncclSend(const void *sendbuff, size_t count, int datatype, int peer,
	     struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_SEND, sendbuff, NULL, count, datatype, 0, peer,
			       comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclSend);

int ncclRecv(void *recvbuff, size_t count, int datatype, int peer,
	     struct ncclComm *comm, cudaStream_t stream);
int ncclRecv(void *recvbuff, size_t count, int datatype, int peer,
	     struct ncclComm *comm, cudaStream_t stream)
{
	struct coll_args a = { NK_RECV, NULL, recvbuff, count, datatype, 0, peer,
			       comm, stream, SITE };

	return collective(&a);
}
PNCCL(ncclRecv);

/* ---- groups ---- */

int ncclGroupStart(void);
int ncclGroupStart(void)
{
	if (nccl_group_depth++ == 0)
		group_error = SIMT_NCCL_SUCCESS;
	return SIMT_NCCL_SUCCESS;
}
PNCCL(ncclGroupStart);

static int group_end(struct simt_nccl_sim_info *sim)
{
	struct nccl_post *list;
	int rc;

	if (nccl_group_depth == 0) {
		nccl_report("%s without a matching ncclGroupStart",
			    sim ? "ncclGroupSimulateEnd" : "ncclGroupEnd");
		return SIMT_NCCL_INVALID_USAGE;
	}
	if (--nccl_group_depth > 0)
		return SIMT_NCCL_SUCCESS;
	list = group_head;
	group_head = group_tail = NULL;
	if (sim) {
		struct nccl_post *p, *next;
		double t = 0;

		/* Nothing runs.  The estimate is the model's NVLink time in
		 * microseconds: the operations of a communicator one after
		 * another, the communicators side by side. */
		for (p = list; p; p = p->next) {
			struct nccl_post *q;
			double tc = 0;

			for (q = list; q != p && q->comm != p->comm; q = q->next)
				;
			if (q != p)
				continue;   /* that communicator is counted */
			for (q = p; q; q = q->next)
				if (q->comm == p->comm && q->kind != NK_INIT &&
				    q->kind != NK_SPLIT)
					tc += simt_nccl_model_seconds(q, q->comm->cl->nranks);
			if (tc > t)
				t = tc;
		}
		for (p = list; p; p = next) {
			next = p->next;
			free(p);
		}
		sim->estimatedTime = (float)(t * 1e6);
		return group_error;
	}
	rc = list ? run_posts(list) : SIMT_NCCL_SUCCESS;
	return group_error != SIMT_NCCL_SUCCESS ? group_error : rc;
}

int ncclGroupEnd(void);
int ncclGroupEnd(void)
{
	return group_end(NULL);
}
PNCCL(ncclGroupEnd);

int ncclGroupSimulateEnd(struct simt_nccl_sim_info *simInfo);
int ncclGroupSimulateEnd(struct simt_nccl_sim_info *simInfo)
{
	if (!simInfo || simInfo->magic != SIMT_NCCL_SIM_INFO_MAGIC) {
		nccl_report("ncclGroupSimulateEnd: simInfo %p was not initialised with "
			    "NCCL_SIM_INFO_INITIALIZER", (void *)simInfo);
		return SIMT_NCCL_INVALID_ARGUMENT;
	}
	return group_end(simInfo);
}
PNCCL(ncclGroupSimulateEnd);
