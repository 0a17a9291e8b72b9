/* solution.c — `cudalab solution EX [--force]`: the reference answer, once
 * the exercise has passed. */
#include "cudalab/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/store.h"

int cli_solution(struct cli *c, int argc, char **argv)
{
	const char *id = NULL;
	const struct exercise *ex;
	struct exercise_state es;
	struct store *st;
	int force = 0;
	char *path, *text;
	size_t len = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--force") == 0)
			force = 1;
		else if (argv[i][0] == '-')
			return cli_usage_error(c, "solution: unknown option '%s'", argv[i]);
		else if (!id)
			id = argv[i];
		else
			return cli_usage_error(c, "solution: unexpected argument '%s'", argv[i]);
	}
	if (!id)
		return cli_usage_error(c, "solution: which exercise? "
					  "(see 'cudalab list exercises')");
	ex = catalog_exercise(cli_catalog(c), id);
	if (!ex)
		return cli_unknown_id(c, "solution", "exercise", id, CAT_EXERCISE, "exercises");
	if (!(st = cli_store(c)))
		return EXIT_USAGE;
	if (store_exercise_get(st, ex->id, &es) != 0)
		return cli_error(c, "solution: %s", store_errmsg(st));
	if (es.status != EX_PASSED && !force) {
		fprintf(stderr, "%s: solution: %s has not passed yet: pass 'cudalab check %s' "
			"first (or use --force)\n", c->prog, ex->id, ex->id);
		return EXIT_FAILED;
	}
	if (es.status != EX_PASSED)
		cli_warn(c, "showing the solution of %s before it has passed (--force)", ex->id);
	path = path_join(ex->dir, "solution.cu");
	text = read_file(path, &len);
	if (!text) {
		int rc = cli_error(c, "cannot read %s: %s", path, strerror(errno));

		free(path);
		return rc;
	}
	fwrite(text, 1, len, stdout);
	free(text);
	free(path);
	return EXIT_OK;
}
