/* A communication model of simt's NCCL operations.  simt moves the data
 * in host memory, so nothing here is measured: every operation is costed
 * as NCCL's ring algorithm would move it between GPUs, per rank, and
 * timed on three interconnects at their per-direction bandwidth.
 *
 * With S the operation's size as nccl-tests counts it (the all-reduce
 * buffer, the all-gather receive buffer, the reduce-scatter send buffer,
 * the broadcast buffer, a send), each rank of an n-rank ring sends and
 * receives
 *     all-reduce                        2(n-1)/n * S
 *     all-gather, reduce-scatter,
 *     all-to-all                        (n-1)/n * S
 *     broadcast, reduce                 S (the chain's ends only one way)
 *     gather, scatter                   S/n each, (n-1)/n * S at the root
 *     send/receive                      S
 * and the operation takes the largest per-rank byte count divided by the
 * link bandwidth.  algbw = S / time and busbw = algbw * 2(n-1)/n
 * (all-reduce), * (n-1)/n (all-gather, reduce-scatter, all-to-all, gather,
 * scatter), * 1 (broadcast, reduce, send/receive), as nccl-tests report
 * them; on this model busbw is the link bandwidth itself. */
#include "libs/nccl_int.h"
#include "perf/counters.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *key;
	double bytes_per_s;
} links[] = {
	{ "nvlink4", 450e9 },   /* H100 SXM, per direction per GPU */
	{ "pcie5", 64e9 },      /* PCIe 5.0 x16, per direction */
	{ "ib400", 50e9 },      /* 400 Gb/s InfiniBand */
};
#define NLINKS (sizeof links / sizeof links[0])

struct kind_model {
	uint64_t calls, bytes, sent, recvd;
	double bus_bytes;          /* S * the busbw factor, summed */
	double seconds[NLINKS];
	uint64_t *rank_sent, *rank_recvd;
	int nranks;
};

static struct kind_model model[NK_COUNT];
static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;

static double bus_factor(int kind, int n)
{
	switch (kind) {
	case NK_ALL_REDUCE:
		return 2.0 * (n - 1) / n;
	case NK_ALL_GATHER: case NK_REDUCE_SCATTER: case NK_ALLTOALL:
	case NK_GATHER: case NK_SCATTER:
		return (double)(n - 1) / n;
	}
	return 1;
}

/* S of a post, as nccl-tests sizes the operation. */
static uint64_t op_size(const struct nccl_post *p, int n)
{
	uint64_t b = (uint64_t)p->count * simt_nccl_type_size(p->type);

	switch (p->kind) {
	case NK_ALL_GATHER: case NK_REDUCE_SCATTER: case NK_ALLTOALL:
	case NK_GATHER: case NK_SCATTER:
		return b * (uint64_t)n;
	}
	return b;
}

/* Bytes rank r sends and receives in a ring of n for an operation of
 * size S rooted at root. */
static void ring_bytes(int kind, int n, int r, int root, uint64_t S,
		       uint64_t *sent, uint64_t *recvd)
{
	int pos;

	*sent = *recvd = 0;
	if (n < 2)
		return;
	switch (kind) {
	case NK_ALL_REDUCE:
		*sent = *recvd = 2 * (uint64_t)(n - 1) * S / (uint64_t)n;
		break;
	case NK_ALL_GATHER: case NK_REDUCE_SCATTER: case NK_ALLTOALL:
		*sent = *recvd = (uint64_t)(n - 1) * S / (uint64_t)n;
		break;
	case NK_BROADCAST:
		pos = (r - root + n) % n;   /* root first in the chain */
		*sent = pos < n - 1 ? S : 0;
		*recvd = pos > 0 ? S : 0;
		break;
	case NK_REDUCE:
		pos = (r - root - 1 + 2 * n) % n;   /* root last */
		*sent = pos < n - 1 ? S : 0;
		*recvd = pos > 0 ? S : 0;
		break;
	case NK_GATHER:
		if (r == root)
			*recvd = (uint64_t)(n - 1) * S / (uint64_t)n;
		else
			*sent = S / (uint64_t)n;
		break;
	case NK_SCATTER:
		if (r == root)
			*sent = (uint64_t)(n - 1) * S / (uint64_t)n;
		else
			*recvd = S / (uint64_t)n;
		break;
	}
}

double simt_nccl_model_seconds(const struct nccl_post *p, int n)
{
	uint64_t S = op_size(p, n), s, r;

	if (p->kind == NK_SEND || p->kind == NK_RECV)
		return (double)S / links[0].bytes_per_s;
	ring_bytes(p->kind, n, p->rank, p->root, S, &s, &r);
	return (double)(s > r ? s : r) / links[0].bytes_per_s;
}

static void grow_ranks(struct kind_model *k, int n)
{
	if (n <= k->nranks)
		return;
	k->rank_sent = simt_xrealloc(k->rank_sent, (size_t)n * sizeof(uint64_t));
	k->rank_recvd = simt_xrealloc(k->rank_recvd, (size_t)n * sizeof(uint64_t));
	memset(k->rank_sent + k->nranks, 0, (size_t)(n - k->nranks) * sizeof(uint64_t));
	memset(k->rank_recvd + k->nranks, 0, (size_t)(n - k->nranks) * sizeof(uint64_t));
	k->nranks = n;
}

static void add(int kind, int n, uint64_t S, uint64_t most)
{
	struct kind_model *k = &model[kind];
	size_t l;

	k->calls++;
	k->bytes += S;
	k->bus_bytes += (double)S * (n > 1 ? bus_factor(kind, n) : 0);
	for (l = 0; l < NLINKS; l++)
		k->seconds[l] += (double)most / links[l].bytes_per_s;
}

void simt_nccl_model_coll(struct nccl_post **ops, int n)
{
	const struct nccl_post *p0 = ops[0];
	struct kind_model *k = &model[p0->kind];
	uint64_t S = op_size(p0, n), most = 0, s, r;
	int i;

	pthread_mutex_lock(&model_lock);
	grow_ranks(k, n);
	for (i = 0; i < n; i++) {
		ring_bytes(p0->kind, n, i, p0->root, S, &s, &r);
		k->sent += s;
		k->recvd += r;
		k->rank_sent[i] += s;
		k->rank_recvd[i] += r;
		if (s > most)
			most = s;
		if (r > most)
			most = r;
	}
	add(p0->kind, n, S, most);
	pthread_mutex_unlock(&model_lock);
}

void simt_nccl_model_p2p(const struct nccl_post *send, const struct nccl_post *recv)
{
	struct kind_model *k = &model[NK_SEND];
	uint64_t S = (uint64_t)send->count * simt_nccl_type_size(send->type);
	int n = send->rank > recv->rank ? send->rank + 1 : recv->rank + 1;

	pthread_mutex_lock(&model_lock);
	grow_ranks(k, n);
	k->sent += S;
	k->recvd += S;
	k->rank_sent[send->rank] += S;
	k->rank_recvd[recv->rank] += S;
	add(NK_SEND, 2, S, S);
	pthread_mutex_unlock(&model_lock);
}

static const char *model_key(int kind)
{
	return kind == NK_SEND ? "send_recv" : simt_nccl_kind_key(kind);
}

/* Writes ',"comm_model":{...}' to the counters JSON when any operation
 * ran. */
static void model_json(FILE *f)
{
	int kind, r, any = 0;
	size_t l;

	pthread_mutex_lock(&model_lock);
	for (kind = 0; kind < NK_COUNT; kind++)
		any |= model[kind].calls != 0;
	if (!any) {
		pthread_mutex_unlock(&model_lock);
		return;
	}
	fputs(",\"comm_model\":{\"what\":\"modelled, not measured: bytes each "
	      "rank sends and receives in NCCL's ring algorithm, and the time "
	      "links of the given bandwidth per direction would need\",\"links\":{", f);
	for (l = 0; l < NLINKS; l++)
		fprintf(f, "%s\"%s\":%.0f", l ? "," : "", links[l].key,
			links[l].bytes_per_s / 1e9);
	fputs("},\"collectives\":{", f);
	for (kind = 0, any = 0; kind < NK_COUNT; kind++) {
		const struct kind_model *k = &model[kind];

		if (!k->calls)
			continue;
		fprintf(f, "%s\"%s\":{\"calls\":%llu,\"bytes\":%llu,"
			"\"bytes_sent\":%llu,\"bytes_received\":%llu,\"ranks\":[",
			any++ ? "," : "", model_key(kind),
			(unsigned long long)k->calls, (unsigned long long)k->bytes,
			(unsigned long long)k->sent, (unsigned long long)k->recvd);
		for (r = 0; r < k->nranks; r++)
			fprintf(f, "%s{\"rank\":%d,\"bytes_sent\":%llu,\"bytes_received\":%llu}",
				r ? "," : "", r, (unsigned long long)k->rank_sent[r],
				(unsigned long long)k->rank_recvd[r]);
		fputc(']', f);
		for (l = 0; l < NLINKS; l++) {
			double t = k->seconds[l];

			fprintf(f, ",\"%s\":{\"seconds\":%.9g,\"algbw_GBps\":%.3f,"
				"\"busbw_GBps\":%.3f}", links[l].key, t,
				t > 0 ? (double)k->bytes / t / 1e9 : 0.0,
				t > 0 ? k->bus_bytes / t / 1e9 : 0.0);
		}
		fputc('}', f);
	}
	fputs("}}", f);
	pthread_mutex_unlock(&model_lock);
}

/* "comm_model.KIND.FIELD": calls, bytes, bytes_sent, bytes_received, or
 * LINK_ns (the modelled time in nanoseconds). */
static int model_counter(const char *name, unsigned long long *value)
{
	const char *dot;
	int kind;
	size_t l, klen;
	int rc = -1;

	if (strncmp(name, "comm_model.", 11) != 0)
		return -1;
	name += 11;
	dot = strchr(name, '.');
	if (!dot)
		return -1;
	klen = (size_t)(dot - name);
	pthread_mutex_lock(&model_lock);
	for (kind = 0; kind < NK_SPLIT; kind++) {
		const struct kind_model *k = &model[kind];
		const char *key = model_key(kind), *field = dot + 1;

		if (kind == NK_RECV || strlen(key) != klen || strncmp(key, name, klen))
			continue;
		rc = 0;
		if (!strcmp(field, "calls"))
			*value = k->calls;
		else if (!strcmp(field, "bytes"))
			*value = k->bytes;
		else if (!strcmp(field, "bytes_sent"))
			*value = k->sent;
		else if (!strcmp(field, "bytes_received"))
			*value = k->recvd;
		else {
			rc = -1;
			for (l = 0; l < NLINKS; l++)
				if (!strncmp(field, links[l].key, strlen(links[l].key)) &&
				    !strcmp(field + strlen(links[l].key), "_ns")) {
					*value = (unsigned long long)(k->seconds[l] * 1e9 + 0.5);
					rc = 0;
				}
		}
		break;
	}
	pthread_mutex_unlock(&model_lock);
	return rc;
}

/* The model's part of the counters, there whenever NCCL is linked in. */
__attribute__((constructor)) static void register_counters(void)
{
	simt_counters_section("comm_model.", model_json, model_counter);
}
