/* fuzz_remote.c — a remote check request as the far side reads it from the
 * network (run_remote_request_parse).  A request that parses is written
 * back out with run_remote_request_text and must parse again to the same
 * request. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/run.h"
#include "cudalab/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Equal strings, either absent in both (a request to run a program
 * names no exercise). */
static int same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_remote_request rq, again;
	struct strbuf sb;
	char *error = NULL;

	if (run_remote_request_parse((const char *)data, size, &rq, &error) != 0) {
		if (!error)
			abort(); /* a refusal always says why */
		free(error);
		return 0;
	}
	sb_init(&sb);
	run_remote_request_text(&rq, &sb);
	if (run_remote_request_parse(sb.s, sb.len, &again, &error) != 0)
		abort(); /* what this side writes, it reads back */
	if (again.mode != rq.mode || !same(again.exercise, rq.exercise) ||
	    again.seed != rq.seed || again.n_files != rq.n_files)
		abort();
	for (size_t i = 0; i < rq.n_files; i++)
		if (strcmp(again.files[i].name, rq.files[i].name) != 0 ||
		    again.files[i].len != rq.files[i].len ||
		    memcmp(again.files[i].data, rq.files[i].data, rq.files[i].len) != 0)
			abort();
	run_remote_request_free(&again);
	run_remote_request_free(&rq);
	sb_free(&sb);
	return 0;
}
