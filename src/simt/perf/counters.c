/* Profiler-style counters per kernel, written as JSON when the program
 * exits if CUDALAB_SIMT_COUNTERS names a file, and readable while it runs
 * through cudalab_simt_counter(). */
#include "perf/counters.h"
#include "base/device.h"

#include <ctype.h>
#include <pthread.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool simt_counters_on;

struct kernel_counts {
	char *name;
	uint64_t launches;
	uint64_t max_launch; /* warp instructions of its longest launch */
	uint64_t device_launches[SIMT_MAX_GPUS]; /* launches on each device */
	double seconds;
	struct simt_counts c;
};

static struct kernel_counts *table;
static size_t ntable;
static char *out_path;
static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;

/* Hazards found outside any kernel (simt_counters_add_hazards). */
static uint64_t other_hazards;

/* Copies between devices (simt_counters_peer_copy), by source and
 * destination device: copies and bytes in all, and those staged through
 * the host. */
enum { PEER_COPIES, PEER_BYTES, PEER_STAGED, PEER_STAGED_BYTES, PEER_FIELDS };
static const char *const peer_names[PEER_FIELDS] = {
	"peer_copies", "peer_copy_bytes", "peer_copies_staged",
	"peer_copy_bytes_staged",
};
static uint64_t peer[SIMT_MAX_GPUS][SIMT_MAX_GPUS][PEER_FIELDS];

/* How many devices there are (simt_counters_init). */
static int ndevices = 1;

/* Parts of the counters that other rooms keep (simt_counters_section). */
#define MAX_SECTIONS 4
static struct section {
	const char *prefix;
	void (*json)(FILE *f);
	int (*counter)(const char *name, unsigned long long *value);
} sections[MAX_SECTIONS];
static int nsections;

void simt_counters_section(const char *prefix, void (*json)(FILE *f),
			   int (*counter)(const char *name,
					  unsigned long long *value))
{
	if (nsections < MAX_SECTIONS)
		sections[nsections++] = (struct section){prefix, json, counter};
}

void simt_counters_add_hazards(uint64_t n)
{
	pthread_mutex_lock(&counters_lock);
	other_hazards += n;
	pthread_mutex_unlock(&counters_lock);
}

void simt_counters_add(const char *kernel, const struct simt_counts *c,
		       double seconds, int device)
{
	struct kernel_counts *k = NULL;
	const uint64_t *s = (const uint64_t *)(const void *)c;
	uint64_t *d;
	size_t i;

	pthread_mutex_lock(&counters_lock);
	for (i = 0; i < ntable; i++)
		if (strcmp(table[i].name, kernel) == 0)
			k = &table[i];
	if (!k) {
		table = simt_xrealloc(table, (ntable + 1) * sizeof *table);
		k = &table[ntable++];
		memset(k, 0, sizeof *k);
		k->name = simt_xstrdup(kernel);
	}
	k->launches++;
	k->device_launches[device]++;
	if (c->warp_insts > k->max_launch)
		k->max_launch = c->warp_insts;
	k->seconds += seconds;
	d = (uint64_t *)(void *)&k->c;
	for (i = 0; i < sizeof *c / sizeof(uint64_t); i++)
		d[i] += s[i];
	pthread_mutex_unlock(&counters_lock);
}

void simt_counters_peer_copy(int src, int dst, uint64_t n, bool staged,
			     bool first)
{
	uint64_t *c = peer[src][dst];

	pthread_mutex_lock(&counters_lock);
	c[PEER_COPIES] += first;
	c[PEER_BYTES] += n;
	if (staged) {
		c[PEER_STAGED] += first;
		c[PEER_STAGED_BYTES] += n;
	}
	pthread_mutex_unlock(&counters_lock);
}

/* The sum of field f over the pairs from src to dst (-1: any). */
static uint64_t peer_sum(int f, int src, int dst)
{
	uint64_t sum = 0;
	int s, d;

	for (s = 0; s < SIMT_MAX_GPUS; s++)
		for (d = 0; d < SIMT_MAX_GPUS; d++)
			if ((src < 0 || s == src) && (dst < 0 || d == dst))
				sum += peer[s][d][f];
	return sum;
}

static void write_peer_fields(FILE *f, int src, int dst)
{
	int i;

	for (i = 0; i < PEER_FIELDS; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", peer_names[i],
			(unsigned long long)peer_sum(i, src, dst));
}

/* The copies between devices, when there were any: in all and per pair
 * of devices that had one. */
static void write_peer(FILE *f)
{
	const char *sep = "";
	int s, d;

	if (!peer_sum(PEER_COPIES, -1, -1))
		return;
	fputs(",\"peer_copies\":{", f);
	write_peer_fields(f, -1, -1);
	fputs(",\"pairs\":[", f);
	for (s = 0; s < SIMT_MAX_GPUS; s++)
		for (d = 0; d < SIMT_MAX_GPUS; d++) {
			if (!peer[s][d][PEER_COPIES])
				continue;
			fprintf(f, "%s{\"src\":%d,\"dst\":%d,", sep, s, d);
			write_peer_fields(f, s, d);
			fputc('}', f);
			sep = ",";
		}
	fputs("]}", f);
}

int simt_counters_dot_device(const char **s)
{
	int d = 0;

	if (**s != '.' || !isdigit((unsigned char)(*s)[1]))
		return -1;
	for ((*s)++; isdigit((unsigned char)**s) && d < SIMT_MAX_GPUS; (*s)++)
		d = d * 10 + (**s - '0');
	return d < SIMT_MAX_GPUS ? d : -1;
}

/* cudalab_simt_counter for the copies between devices ("peer_copies",
 * or "peer_copies.S.D" for one pair): 0 with *value set, -1 for a name
 * that is none of theirs. */
static int peer_counter(const char *name, unsigned long long *value)
{
	int f, src = -1, dst = -1;

	for (f = 0; f < PEER_FIELDS; f++) {
		size_t n = strlen(peer_names[f]);
		const char *s = name + n;

		if (strncmp(name, peer_names[f], n) != 0)
			continue;
		if (*s == '\0')
			break;
		if ((src = simt_counters_dot_device(&s)) >= 0 &&
		    (dst = simt_counters_dot_device(&s)) >= 0 &&
		    *s == '\0')
			break;
	}
	if (f == PEER_FIELDS)
		return -1;
	pthread_mutex_lock(&counters_lock);
	*value = (unsigned long long)peer_sum(f, src, dst);
	pthread_mutex_unlock(&counters_lock);
	return 0;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void write_fields(FILE *f, uint64_t launches, uint64_t max_launch, double seconds,
			 const struct simt_counts *c)
{
	fprintf(f, "\"launches\":%llu,\"thread_instructions\":%llu,"
		"\"warp_instructions\":%llu,\"max_launch_warp_instructions\":%llu,"
		"\"seconds\":%.6f,"
		"\"global_load_requests\":%llu,\"global_store_requests\":%llu,"
		"\"global_load_sectors\":%llu,\"global_store_sectors\":%llu,"
		"\"shared_load_requests\":%llu,\"shared_store_requests\":%llu,"
		"\"shared_bank_conflicts\":%llu,\"branches\":%llu,"
		"\"divergent_branches\":%llu,\"atomics\":%llu,\"barriers\":%llu,"
		"\"local_loads\":%llu,\"local_stores\":%llu,"
		"\"flops_f32\":%llu,\"flops_f64\":%llu,\"flops_f16\":%llu,"
		"\"hazards\":%llu,\"blocks\":%llu,"
		"\"global_atomics\":%llu,\"shared_atomics\":%llu,"
		"\"global_atomic_conflicts\":%llu,\"shared_atomic_conflicts\":%llu,"
		"\"global_load_bytes\":%llu,\"global_store_bytes\":%llu",
		(unsigned long long)launches, (unsigned long long)c->thread_insts,
		(unsigned long long)c->warp_insts, (unsigned long long)max_launch, seconds,
		(unsigned long long)c->gld_req, (unsigned long long)c->gst_req,
		(unsigned long long)c->gld_sectors,
		(unsigned long long)c->gst_sectors,
		(unsigned long long)c->sld_req, (unsigned long long)c->sst_req,
		(unsigned long long)c->bank_conflicts,
		(unsigned long long)c->branches, (unsigned long long)c->divergent,
		(unsigned long long)c->atomics, (unsigned long long)c->barriers,
		(unsigned long long)c->local_ld, (unsigned long long)c->local_st,
		(unsigned long long)c->flops_f32, (unsigned long long)c->flops_f64,
		(unsigned long long)c->flops_f16, (unsigned long long)c->hazards,
		(unsigned long long)c->blocks, (unsigned long long)c->gatom,
		(unsigned long long)c->satom, (unsigned long long)c->gatom_conflicts,
		(unsigned long long)c->satom_conflicts,
		(unsigned long long)c->gld_bytes, (unsigned long long)c->gst_bytes);
}

/* With several devices: how many launches each had. */
static void write_devices(FILE *f, const uint64_t *launches)
{
	int d, n = ndevices;

	if (n < 2)
		return;
	fputs(",\"launches_per_device\":[", f);
	for (d = 0; d < n; d++)
		fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)launches[d]);
	fputc(']', f);
}

static void write_counters(void)
{
	struct simt_counts total;
	uint64_t launches = 0, max_launch = 0, per_device[SIMT_MAX_GPUS] = {0};
	double seconds = 0;
	FILE *f;
	size_t i, j;
	char name[512];

	if (!out_path)
		return;
	f = fopen(out_path, "w");
	if (!f) {
		simt_warn("cannot write counters to %s", out_path);
		return;
	}
	memset(&total, 0, sizeof total);
	fputs("{\"schema\":1,\"kernels\":[", f);
	for (i = 0; i < ntable; i++) {
		const uint64_t *s = (const uint64_t *)(const void *)&table[i].c;
		uint64_t *d = (uint64_t *)(void *)&total;

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_string(f, simt_demangle(table[i].name, name, sizeof name));
		fputs(",\"mangled\":", f);
		json_string(f, table[i].name);
		fputc(',', f);
		write_fields(f, table[i].launches, table[i].max_launch, table[i].seconds,
			     &table[i].c);
		write_devices(f, table[i].device_launches);
		for (j = 0; j < SIMT_MAX_GPUS; j++)
			per_device[j] += table[i].device_launches[j];
		if (table[i].max_launch > max_launch)
			max_launch = table[i].max_launch;
		fputc('}', f);
		for (j = 0; j < sizeof total / sizeof(uint64_t); j++)
			d[j] += s[j];
		launches += table[i].launches;
		seconds += table[i].seconds;
	}
	fputs("],\"total\":{", f);
	total.hazards += other_hazards;
	write_fields(f, launches, max_launch, seconds, &total);
	write_devices(f, per_device);
	fputc('}', f);
	for (i = 0; i < (size_t)nsections; i++)
		sections[i].json(f);
	write_peer(f);
	fputs("}\n", f);
	fclose(f);
}

/* The fields of struct simt_counts by their names in the JSON. */
static const struct {
	const char *name;
	size_t offset;
} count_fields[] = {
	{ "thread_instructions", offsetof(struct simt_counts, thread_insts) },
	{ "warp_instructions", offsetof(struct simt_counts, warp_insts) },
	{ "global_load_requests", offsetof(struct simt_counts, gld_req) },
	{ "global_store_requests", offsetof(struct simt_counts, gst_req) },
	{ "global_load_sectors", offsetof(struct simt_counts, gld_sectors) },
	{ "global_store_sectors", offsetof(struct simt_counts, gst_sectors) },
	{ "shared_load_requests", offsetof(struct simt_counts, sld_req) },
	{ "shared_store_requests", offsetof(struct simt_counts, sst_req) },
	{ "shared_bank_conflicts", offsetof(struct simt_counts, bank_conflicts) },
	{ "branches", offsetof(struct simt_counts, branches) },
	{ "divergent_branches", offsetof(struct simt_counts, divergent) },
	{ "atomics", offsetof(struct simt_counts, atomics) },
	{ "barriers", offsetof(struct simt_counts, barriers) },
	{ "local_loads", offsetof(struct simt_counts, local_ld) },
	{ "local_stores", offsetof(struct simt_counts, local_st) },
	{ "flops_f32", offsetof(struct simt_counts, flops_f32) },
	{ "flops_f64", offsetof(struct simt_counts, flops_f64) },
	{ "flops_f16", offsetof(struct simt_counts, flops_f16) },
	{ "hazards", offsetof(struct simt_counts, hazards) },
	{ "blocks", offsetof(struct simt_counts, blocks) },
	{ "global_atomics", offsetof(struct simt_counts, gatom) },
	{ "shared_atomics", offsetof(struct simt_counts, satom) },
	{ "global_atomic_conflicts", offsetof(struct simt_counts, gatom_conflicts) },
	{ "shared_atomic_conflicts", offsetof(struct simt_counts, satom_conflicts) },
	{ "global_load_bytes", offsetof(struct simt_counts, gld_bytes) },
	{ "global_store_bytes", offsetof(struct simt_counts, gst_bytes) },
};

int cudalab_simt_counter(const char *name, unsigned long long *value)
{
	size_t f, i;
	uint64_t sum = 0;

	if (!name || !value)
		return -1;
	if (strncmp(name, "peer_cop", 8) == 0)
		return peer_counter(name, value);
	for (f = 0; f < (size_t)nsections; f++)
		if (strncmp(name, sections[f].prefix, strlen(sections[f].prefix)) == 0)
			return sections[f].counter(name, value);
	/* Kernels are launched by this thread and run to completion before
	 * the launch returns, so no launch is in flight here: turning the
	 * counting on takes effect from the next launch. */
	simt_counters_on = true;
	pthread_mutex_lock(&counters_lock);
	if (strcmp(name, "launches") == 0) {
		for (i = 0; i < ntable; i++)
			sum += table[i].launches;
		f = 0;
	} else {
		for (f = 0; f < sizeof count_fields / sizeof count_fields[0]; f++)
			if (strcmp(name, count_fields[f].name) == 0)
				break;
		if (f < sizeof count_fields / sizeof count_fields[0])
			for (i = 0; i < ntable; i++)
				sum += *(const uint64_t *)(const void *)((const char *)&table[i].c +
									 count_fields[f].offset);
		if (f < sizeof count_fields / sizeof count_fields[0] &&
		    count_fields[f].offset == offsetof(struct simt_counts, hazards))
			sum += other_hazards;
	}
	pthread_mutex_unlock(&counters_lock);
	if (f == sizeof count_fields / sizeof count_fields[0])
		return -1;
	*value = (unsigned long long)sum;
	return 0;
}

void simt_counters_init(int devices)
{
	const char *p = getenv("CUDALAB_SIMT_COUNTERS");

	ndevices = devices;
	if (!p || !*p)
		return;
	out_path = simt_xstrdup(p);
	simt_counters_on = true;
	atexit(write_counters);
}
