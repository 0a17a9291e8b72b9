/* bench.c — `cudalab bench EX`: the check, then the harness's timing. */
#include "cudalab/cli.h"

#include <stdlib.h>

int cli_bench(struct cli *c, int argc, char **argv)
{
	struct cli_ex_opts o;
	const struct exercise *ex;
	char *file = NULL;
	int rc;

	if ((rc = cli_ex_parse(c, argc, argv, 1, &o)) != 0)
		return rc;
	if ((rc = cli_ex_prepare(c, &o, &ex, &file)) == 0)
		rc = cli_ex_run(c, &o, ex, file, RUN_BENCH, NULL);
	free(file);
	return rc;
}
