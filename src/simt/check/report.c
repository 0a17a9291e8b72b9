/* Reports: what a hazard report is made of (its sites, its identity for
 * deduplication, its message), the table of reports with the per-block
 * cache in front of it, their printing at the end of a launch, and the
 * report file and summary written at exit. */
#include "check/hz_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pthread_mutex_t hz_report_lock = PTHREAD_MUTEX_INITIALIZER;
struct hz_report hz_reports[MAX_REPORTS];
int hz_nreports;
static uint64_t dropped;

const char *const hz_acc_words[] = {"read", "write", "atomic",
				    "cp.async write", ""};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool site_file(const struct simt_module *mod, uint32_t pc,
		      const char **file, uint32_t *line)
{
	const struct simt_insn *in = &mod->code[pc];

	if (in->src_file == UINT16_MAX || (int)in->src_file >= mod->nfiles ||
	    !in->src_line)
		return false;
	*file = base_name(mod->files[in->src_file].path);
	*line = in->src_line;
	return true;
}

/* "at file.cu:12" or "at PTX line 40". */
void hz_site_where(struct simt_buf *b, const struct simt_module *mod,
		   uint32_t pc)
{
	const char *file;
	uint32_t line;

	if (site_file(mod, pc, &file, &line))
		simt_buf_printf(b, "at %s:%u", file, line);
	else
		simt_buf_printf(b, "at PTX line %u", mod->code[pc].ptx_line);
}

static void coords_of(const struct launch_state *L, uint64_t block,
		      uint32_t tid, uint32_t bc3[3], uint32_t tc3[3])
{
	bc3[0] = (uint32_t)(block % L->grid.x);
	bc3[1] = (uint32_t)((block / L->grid.x) % L->grid.y);
	bc3[2] = (uint32_t)(block / ((uint64_t)L->grid.x * L->grid.y));
	tc3[0] = tid % L->block.x;
	tc3[1] = (tid / L->block.x) % L->block.y;
	tc3[2] = tid / (L->block.x * L->block.y);
}

const char *hz_space_word(int space)
{
	return space == SP_SHARED ? "shared" : space == SP_REG ? "register"
	     : space == SP_LOCAL ? "local" : "global";
}

static void site_text(struct simt_buf *b, const struct hz_report *r, int i)
{
	simt_buf_printf(b, "%s %s ", hz_space_word(r->space), hz_acc_words[r->acc[i]]);
	hz_site_where(b, r->mod, r->pc[i]);
	simt_buf_printf(b, " by block (%u,%u,%u) thread (%u,%u,%u)",
			r->block[i][0], r->block[i][1], r->block[i][2],
			r->thread[i][0], r->thread[i][1], r->thread[i][2]);
}

char *hz_race_message(const struct hz_report *r)
{
	struct simt_buf b = {0};

	simt_buf_printf(&b, r->why == WHY_LOST_UPDATE ? "race: lost update: " : "race: ");
	site_text(&b, r, 0);
	simt_buf_printf(&b, " and ");
	site_text(&b, r, 1);
	if (r->why == WHY_SAME_INSN)
		simt_buf_printf(&b, ", in one instruction with different values");
	else if (r->why == WHY_NOT_WAITED)
		simt_buf_printf(&b, ", the copy was not waited for "
				"(cp.async.wait_group or wait_all, then a barrier)");
	else if (r->why == WHY_LOST_UPDATE)
		simt_buf_printf(&b, ", the second the store of a load-then-store "
				"(volatile or relaxed) that nothing orders after the first: "
				"the first store can fall between its load and its store "
				"and be lost; an atomic (atomicAdd, atomicMax, atomicCAS) "
				"does the whole step at once");
	else if (r->why == WHY_ASYNC_AGAIN)
		simt_buf_printf(&b, ", two asynchronous copies of one thread to "
				"the same bytes in flight at once (wait for the first "
				"one, cp.async.wait_group or the pipeline's "
				"consumer_wait, before its buffer is reused)");
	else
		simt_buf_printf(&b, ", no synchronization orders them");
	return b.s;
}

static void stream_text(struct simt_buf *b, const struct xsite *x)
{
	if (x->node)
		simt_buf_printf(b, "in graph node %u launched on ", x->node - 1);
	else
		simt_buf_printf(b, "on ");
	if (x->stream)
		simt_buf_printf(b, "stream %u", x->stream);
	else if (x->thread)
		simt_buf_printf(b, "the per-thread default stream of host thread %u",
				x->thread);
	else if (x->device > 0 || hz_ndevices > 1)
		simt_buf_printf(b, "the default stream of device %d", x->device);
	else
		simt_buf_printf(b, "the default stream");
}

void hz_xsite_text(struct simt_buf *b, const struct hz_report *r, int i)
{
	const struct xsite *x = &r->xs[i];
	char name[512];

	simt_buf_printf(b, "%s %s ", hz_space_word(r->space), hz_acc_words[r->acc[i]]);
	if (x->mod) {
		hz_site_where(b, x->mod, r->pc[i]);
		simt_buf_printf(b, " by block (%u,%u,%u) thread (%u,%u,%u) of %s",
				r->block[i][0], r->block[i][1], r->block[i][2],
				r->thread[i][0], r->thread[i][1], r->thread[i][2],
				simt_demangle(x->name, name, sizeof name));
	} else {
		simt_buf_printf(b, "by %s", x->name);
	}
	simt_buf_printf(b, " ");
	stream_text(b, x);
}

char *hz_xop_message(const struct hz_report *r)
{
	struct simt_buf b = {0};

	simt_buf_printf(&b, "race: ");
	hz_xsite_text(&b, r, 0);
	simt_buf_printf(&b, " and ");
	hz_xsite_text(&b, r, 1);
	if (r->xs[0].node && r->xs[1].node)
		simt_buf_printf(&b, ", in branches of a graph with no path of "
				"dependencies between them");
	else if (r->xs[0].node || r->xs[1].node)
		simt_buf_printf(&b, ", with no dependency, event or "
				"synchronization between them");
	else
		simt_buf_printf(&b, ", in different streams with no event or "
				"synchronization between them");
	return b.s;
}

/* Reports are one per kind and pair of source lines (or instructions,
 * without line information) and accesses. */
bool hz_same_key(const struct hz_report *a, const struct hz_report *b)
{
	return a->kind == b->kind && a->space == b->space && a->mod == b->mod &&
	       a->other == b->other && a->why == b->why && a->site[0] == b->site[0] &&
	       a->site[1] == b->site[1] && a->acc[0] == b->acc[0] &&
	       a->acc[1] == b->acc[1];
}

/* Finds or adds the report; returns its index or -1 (dropped).  `msg`,
 * when not NULL, is the message of a new report (taken over). */
static int report_slot(const struct hz_report *key, char **msg)
{
	int i;

	for (i = 0; i < hz_nreports; i++) {
		const struct hz_report *r = &hz_reports[i];

		if (hz_same_key(r, key))
			return i;
	}
	if (hz_nreports == MAX_REPORTS) {
		dropped++;
		return -1;
	}
	hz_reports[hz_nreports] = *key;
	hz_reports[hz_nreports].count = 0;
	hz_reports[hz_nreports].launch = hz_launch_number;
	hz_reports[hz_nreports].msg = *msg;
	*msg = NULL;
	return hz_nreports++;
}

/* Counts one occurrence of a hazard met outside any kernel (by a copy,
 * memset or library call, or by the host), making its message only the
 * first time.  Returns the report's index (-1: dropped); *fresh says
 * whether this made it. */
int hz_report_outside(const struct hz_report *k,
		      char *(*make)(const struct hz_report *), bool *fresh)
{
	char *msg;
	int i, n;

	pthread_mutex_lock(&hz_report_lock);
	n = hz_nreports;
	for (i = 0; i < n && !hz_same_key(&hz_reports[i], k); i++)
		;
	*fresh = false;
	if (i == n) {
		msg = make(k);
		i = report_slot(k, &msg);
		free(msg);
		*fresh = i >= 0;
	}
	if (i >= 0)
		hz_reports[i].count++;
	pthread_mutex_unlock(&hz_report_lock);
	simt_counters_add_hazards(1);
	return i;
}

void hz_flush_cache(struct hz_block *hb)
{
	int i;

	if (!hb->ncache)
		return;
	pthread_mutex_lock(&hz_report_lock);
	for (i = 0; i < hb->ncache; i++)
		hz_reports[hb->cache[i].idx].count += hb->cache[i].pending;
	pthread_mutex_unlock(&hz_report_lock);
	hb->ncache = 0;
}

/* Counts one more occurrence of a hazard that this block has met before
 * (the pair of sites is its identity, in a canonical order that this
 * puts the key in); false, with nothing counted, when it is new here. */
bool hz_report_again(struct block_ctx *bc, struct hz_report *key)
{
	struct hz_block *hb = bc->hz;
	int i;

	/* the unordered pair of sites is the identity (of two streams'
	 * operations: the earlier one first) */
	if (key->nsites == 2 && !key->xop && (key->site[0] > key->site[1] ||
				 (key->site[0] == key->site[1] &&
				  key->acc[0] > key->acc[1]))) {
		uint32_t t3[3], pc = key->pc[0], site = key->site[0];
		uint32_t bytes = key->bytes[0];
		uint8_t acc = key->acc[0];
		int param = key->param[0];

		key->pc[0] = key->pc[1];
		key->pc[1] = pc;
		key->site[0] = key->site[1];
		key->site[1] = site;
		key->acc[0] = key->acc[1];
		key->acc[1] = acc;
		key->bytes[0] = key->bytes[1];
		key->bytes[1] = bytes;
		key->param[0] = key->param[1];
		key->param[1] = param;
		memcpy(t3, key->block[0], sizeof t3);
		memcpy(key->block[0], key->block[1], sizeof t3);
		memcpy(key->block[1], t3, sizeof t3);
		memcpy(t3, key->thread[0], sizeof t3);
		memcpy(key->thread[0], key->thread[1], sizeof t3);
		memcpy(key->thread[1], t3, sizeof t3);
	}
	for (i = 0; i < hb->ncache; i++) {
		const struct hz_report *r = &hz_reports[hb->cache[i].idx];

		if (hz_same_key(r, key)) {
			hb->cache[i].pending++;
			bc->counts.hazards++;
			return true;
		}
	}
	return false;
}

/* Counts one occurrence of a hazard; the message is made only the first
 * time the pair of sites is seen.  A caller whose text costs something
 * to make asks report_again first. */
void hz_report(struct block_ctx *bc, struct hz_report *key,
	       char *(*make)(const struct hz_report *), const char *text)
{
	struct hz_block *hb = bc->hz;
	char *msg;
	int idx;

	if (hz_report_again(bc, key))
		return;
	bc->counts.hazards++;
	msg = make ? make(key) : simt_xstrdup(text);
	pthread_mutex_lock(&hz_report_lock);
	idx = report_slot(key, &msg);
	if (idx >= 0 && hb->ncache < CACHE_REPORTS) {
		hb->cache[hb->ncache].idx = idx;
		hb->cache[hb->ncache++].pending = 1;
	} else if (idx >= 0) {
		hz_reports[idx].count++;
	}
	pthread_mutex_unlock(&hz_report_lock);
	free(msg);
}

void hz_key_init(struct hz_report *k, const struct block_ctx *bc, int kind,
		 int space)
{
	memset(k, 0, sizeof *k);
	k->kind = kind;
	k->space = space;
	k->mod = bc->L->mod;
	k->kernel = bc->L->fn->name;
}

void hz_key_site(struct hz_report *k, int i, const struct block_ctx *bc,
		 uint64_t block, uint32_t tid, uint32_t pc, int acc)
{
	const struct simt_insn *in = &bc->L->mod->code[pc];

	coords_of(bc->L, block, tid, k->block[i], k->thread[i]);
	k->pc[i] = pc;
	k->site[i] = in->src_line && in->src_file != UINT16_MAX
		? (uint32_t)(in->src_file + 1) << 20 | (in->src_line & 0xfffff)
		: 0x80000000u | pc;
	k->acc[i] = (uint8_t)acc;
	if (k->nsites < i + 1)
		k->nsites = i + 1;
}

/* The shared variable of kernel fn that offset off of the block's shared
 * memory lies in (the dynamic window from its start on), or NULL. */
static const struct simt_var *shared_var(const struct simt_module *mod,
					 const struct simt_func *fn,
					 uint64_t off)
{
	int v;

	for (v = 0; fn->sum_shvars && v < mod->nvars; v++) {
		const struct simt_var *var = &mod->vars[v];

		if (fn->sum_shvars[v] && var->space == SS_SHARED &&
		    off >= var->shared_off &&
		    (var->is_extern || off - var->shared_off < var->size))
			return var;
	}
	return NULL;
}

/* The index of the kernel parameter of launch L that holds pointer
 * base, or -1. */
static int param_of(const struct launch_state *L, uint64_t base)
{
	int i;

	for (i = 0; i < L->fn->nparams; i++) {
		const struct simt_param *p = &L->fn->params[i];
		uint64_t v;

		if (p->size != sizeof v || p->offset + sizeof v > L->fn->kparam_size)
			continue;
		memcpy(&v, L->kparams + p->offset, sizeof v);
		if (v == base)
			return i;
	}
	return -1;
}

void hz_key_place_alloc(struct hz_report *k, const struct simt_alloc *al,
			uint64_t off)
{
	k->placed = true;
	k->offset = off;
	k->symbol = al->name;
	k->param[0] = k->param[1] = -1;
}

/* Places report k at byte p of the launch's shared or global memory:
 * the variable or allocation it lies in, and the kernel parameter that
 * points at the allocation (for both sites: those of one launch). */
void hz_key_place(struct hz_report *k, const struct block_ctx *bc,
		  const uint8_t *p)
{
	const struct launch_state *L = bc->L;
	const struct simt_alloc *al;

	if ((uint64_t)(p - bc->shared) < L->shared_size) {
		uint64_t off = (uint64_t)(p - bc->shared);
		const struct simt_var *var = shared_var(L->mod, L->fn, off);

		k->placed = true;
		k->offset = var ? off - var->shared_off : off;
		k->symbol = var ? var->name : NULL;
		k->param[0] = k->param[1] = -1;
		return;
	}
	/* p is where simt reached the memory: for device memory, the pages
	 * behind the address the program knows (mem.h, the arena) */
	al = simt_mem_find_host(p, 1);
	if (!al)
		return;
	hz_key_place_alloc(k, al, (uint64_t)(uintptr_t)p -
				  (uint64_t)(uintptr_t)simt_mem_host((const void *)(uintptr_t)al->base));
	k->param[0] = k->param[1] = param_of(L, al->base);
}

/* The bytes one lane's access at instruction pc moves: its type's size
 * times its vector width; 0 for cp.async, whose size is an operand. */
uint32_t hz_insn_bytes(const struct simt_module *mod, uint32_t pc, int acc)
{
	const struct simt_insn *in = &mod->code[pc];

	if (acc == AC_ASYNC)
		return 0;
	return (uint32_t)simt_type_size(in->type) * (in->vec > 1 ? in->vec : 1);
}

/* The site code of an API call (a copy or memset). */
uint32_t hz_api_site(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return 0xC0000000u | (h & 0x3fffffffu);
}

struct xsite hz_xsite_of(const struct simt_order_op *op)
{
	return (struct xsite){op->mod, op->name, op->stream, op->device,
			      op->node, op->thread};
}

/* Site 0 of a race between streams: the access recorded in r by
 * operation op. */
void hz_key_other(struct hz_report *k, const struct simt_order_op *op,
		  const struct hz_rec *r, bool r_write)
{
	k->xop = true;
	k->why = WHY_STREAMS;
	k->xs[0] = hz_xsite_of(op);
	k->other = op->mod ? (const void *)op->mod : (const void *)op->name;
	k->acc[0] = (uint8_t)hz_acc_of_rec(r, r_write);
	if (op->mod && !(r->flags & HZR_XOP)) {
		const struct simt_insn *in = &op->mod->code[r->pc];
		uint64_t bx = op->grid[0], by = op->grid[1];
		uint32_t tx = op->block[0], ty = op->block[1];

		k->pc[0] = r->pc;
		k->bytes[0] = hz_insn_bytes(op->mod, r->pc, k->acc[0]);
		k->site[0] = in->src_line && in->src_file != UINT16_MAX
			? (uint32_t)(in->src_file + 1) << 20 | (in->src_line & 0xfffff)
			: 0x80000000u | r->pc;
		k->block[0][0] = (uint32_t)(r->block % bx);
		k->block[0][1] = (uint32_t)(r->block / bx % by);
		k->block[0][2] = (uint32_t)(r->block / (bx * by));
		k->thread[0][0] = r->tid % tx;
		k->thread[0][1] = r->tid / tx % ty;
		k->thread[0][2] = r->tid / (tx * ty);
	} else {
		k->xs[0].mod = NULL;
		k->site[0] = hz_api_site(op->name);
	}
	if (k->nsites < 1)
		k->nsites = 1;
}

void hz_print_new_reports(const struct launch_state *L)
{
	int i;
	char name[512];

	pthread_mutex_lock(&hz_report_lock);
	for (i = 0; i < hz_nreports; i++) {
		const struct hz_report *r = &hz_reports[i];

		if (r->launch != hz_launch_number || r->kernel != L->fn->name)
			continue;
		fprintf(stderr, "simt: %s\n  in %s: %llu time%s\n", r->msg,
			simt_demangle(r->kernel, name, sizeof name),
			(unsigned long long)r->count, r->count == 1 ? "" : "s");
		hz_reports[i].shown = r->count;
	}
	pthread_mutex_unlock(&hz_report_lock);
}

/* ---- the report file and the summary ---- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
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

static const char *kind_word(int kind)
{
	return kind == HK_RACE ? "race" : kind == HK_BARRIER ? "barrier"
							     : "uninitialized";
}

/* A per-thread default stream's host thread (stream 0 is then that
 * stream, not the legacy one). */
static void write_thread(FILE *f, const struct xsite *x)
{
	if (x->thread)
		fprintf(f, ",\"host_thread\":%u", x->thread);
}

/* Where in memory site i's access was: "offset", "bytes", "symbol" and
 * "param", for a report that has a place. */
static void write_place(FILE *f, const struct hz_report *r, int i)
{
	char name[512];

	if (!r->placed)
		return;
	fprintf(f, ",\"offset\":%llu,\"bytes\":", (unsigned long long)r->offset);
	if (r->bytes[i])
		fprintf(f, "%u", r->bytes[i]);
	else
		fputs("null", f);
	fputs(",\"symbol\":", f);
	if (r->symbol)
		json_str(f, simt_demangle(r->symbol, name, sizeof name));
	else
		fputs("null", f);
	fprintf(f, ",\"param\":%d", r->param[i]);
}

static void write_site(FILE *f, const struct hz_report *r, int i)
{
	const struct simt_module *mod = r->xop ? r->xs[i].mod : r->mod;
	const char *file;
	uint32_t line;
	char name[512];

	if (!mod) {
		/* a copy or memset of a race between streams */
		fprintf(f, "{\"file\":null,\"line\":null,\"ptx_line\":null,"
			"\"access\":\"%s\",\"block\":null,\"thread\":null,"
			"\"operation\":", hz_acc_words[r->acc[i]]);
		json_str(f, r->xs[i].name);
		if (r->xs[i].stream == UINT32_MAX)
			fputs(",\"stream\":null,\"device\":null", f);
		else
			fprintf(f, ",\"stream\":%u,\"device\":%d", r->xs[i].stream,
				r->xs[i].device);
		write_thread(f, &r->xs[i]);
		if (r->xs[i].node)
			fprintf(f, ",\"graph_node\":%u", r->xs[i].node - 1);
		write_place(f, r, i);
		fputc('}', f);
		return;
	}
	fputs("{\"file\":", f);
	if (site_file(mod, r->pc[i], &file, &line)) {
		json_str(f, file);
		fprintf(f, ",\"line\":%u", line);
	} else {
		fputs("null,\"line\":null", f);
	}
	fprintf(f, ",\"ptx_line\":%u,\"access\":", mod->code[r->pc[i]].ptx_line);
	if (r->acc[i] == AC_NONE)
		fputs("null", f);
	else
		json_str(f, hz_acc_words[r->acc[i]]);
	fprintf(f, ",\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u]",
		r->block[i][0], r->block[i][1], r->block[i][2], r->thread[i][0],
		r->thread[i][1], r->thread[i][2]);
	if (r->xop) {
		fputs(",\"kernel\":", f);
		json_str(f, simt_demangle(r->xs[i].name, name, sizeof name));
		fprintf(f, ",\"stream\":%u,\"device\":%d", r->xs[i].stream,
			r->xs[i].device);
		write_thread(f, &r->xs[i]);
		if (r->xs[i].node)
			fprintf(f, ",\"graph_node\":%u", r->xs[i].node - 1);
	}
	write_place(f, r, i);
	fputc('}', f);
}

/* Writes the hazard report file (CUDALAB_SIMT_HAZARDS). */
void simt_hazard_report_write(void)
{
	int i, by[3] = {0, 0, 0};
	char name[512];
	FILE *f;

	if (!hz_report_path)
		return;
	f = fopen(hz_report_path, "w");
	if (!f) {
		simt_warn("cannot write the hazard report to %s", hz_report_path);
		return;
	}
	for (i = 0; i < hz_nreports; i++)
		by[hz_reports[i].kind]++;
	fprintf(f, "{\"schema\":1,\"checks\":%s,\"schedule\":%u,\"total\":%llu,"
		"\"races\":%d,\"barriers\":%d,\"uninitialized\":%d,"
		"\"dropped\":%llu,\"hazards\":[", hz_checks_on ? "true" : "false",
		hz_schedule_seed, (unsigned long long)(hz_nreports + dropped), by[HK_RACE],
		by[HK_BARRIER], by[HK_UNINIT], (unsigned long long)dropped);
	for (i = 0; i < hz_nreports; i++) {
		const struct hz_report *r = &hz_reports[i];
		int s;

		fprintf(f, "%s{\"kind\":\"%s\",\"space\":", i ? "," : "",
			kind_word(r->kind));
		if (r->space == SP_NONE)
			fputs("null", f);
		else
			json_str(f, hz_space_word(r->space));
		fputs(",\"kernel\":", f);
		if (r->kernel)
			json_str(f, simt_demangle(r->kernel, name, sizeof name));
		else
			fputs("null", f);
		fprintf(f, ",\"count\":%llu,\"message\":", (unsigned long long)r->count);
		json_str(f, r->msg);
		fputs(",\"sites\":[", f);
		for (s = 0; s < r->nsites; s++) {
			if (s)
				fputc(',', f);
			write_site(f, r, s);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	fclose(f);
}

void hz_at_exit(void)
{
	int i, by[3] = {0, 0, 0};
	uint64_t total;

	pthread_mutex_lock(&hz_report_lock);
	for (i = 0; i < hz_nreports; i++)
		by[hz_reports[i].kind]++;
	total = (uint64_t)hz_nreports + dropped;
	fflush(stdout);
	/* a report is printed when the launch that first met it ends; later
	 * launches that meet it again only add to its count */
	for (i = 0; i < hz_nreports; i++) {
		const struct hz_report *r = &hz_reports[i];

		if (r->shown && r->count > r->shown)
			fprintf(stderr, "simt: %s\n  %llu times in all, %llu of them in later "
				"launches\n", r->msg, (unsigned long long)r->count,
				(unsigned long long)(r->count - r->shown));
	}
	if (total) {
		fprintf(stderr, "simt: ERROR SUMMARY: %llu hazard%s (%d race%s, %d "
			"barrier error%s, %d uninitialized read%s)%s\n",
			(unsigned long long)total, total == 1 ? "" : "s", by[HK_RACE],
			by[HK_RACE] == 1 ? "" : "s", by[HK_BARRIER],
			by[HK_BARRIER] == 1 ? "" : "s", by[HK_UNINIT],
			by[HK_UNINIT] == 1 ? "" : "s",
			dropped ? "; the first ones are shown" : "");
	}
	simt_hazard_report_write();
	pthread_mutex_unlock(&hz_report_lock);
}
