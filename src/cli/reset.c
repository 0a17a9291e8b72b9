/* reset.c — `cudalab reset EX`: the starter back in the learner's copy,
 * the previous version kept beside it. */
#include "cudalab/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"

int cli_reset(struct cli *c, int argc, char **argv)
{
	const struct exercise *ex;
	char *path, *bak;

	if (argc != 2 || argv[1][0] == '-')
		return cli_usage_error(c, "reset: expected one exercise id");
	ex = catalog_exercise(cli_catalog(c), argv[1]);
	if (!ex)
		return cli_unknown_id(c, "reset", "exercise", argv[1], CAT_EXERCISE, "exercises");
	if (run_work_reset(c->home, ex, &path, &bak) != 0)
		return cli_error(c, "reset: cannot restore the starter of %s: %s", ex->id,
				 strerror(errno));
	printf("%s now holds the starter of %s.\n", path, ex->id);
	if (bak)
		printf("Your previous version is in %s.\n", bak);
	free(path);
	free(bak);
	return EXIT_OK;
}
