/* validate.c — `cudalab validate`: every content problem as
 * file:line:col: message; exit 1 when there is any. */
#include "cudalab/cli.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "cudalab/content.h"

int cli_validate(struct cli *c, int argc, char **argv)
{
	struct catalog *cat;
	struct stat sb;

	if (argc > 1)
		return cli_usage_error(c, "validate: unexpected argument '%s'", argv[1]);
	if (stat(c->content, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return cli_error(c, "content directory %s does not exist (%s); use --content DIR",
				 c->content, c->content_origin);
	cat = cli_catalog(c);
	for (size_t i = 0; i < cat->n_diags; i++) {
		char *line = diag_format(&cat->diags[i]);
		puts(line);
		free(line);
	}
	if (cat->n_diags) {
		fprintf(stderr, "%zu problem%s in %s\n", cat->n_diags, cat->n_diags == 1 ? "" : "s",
			c->content);
		return EXIT_FAILED;
	}
	printf("ok: %zu lessons, %zu reading items, %zu exercises in %s\n", cat->n_lessons,
	       catalog_count_items(cat), cat->n_exercises, c->content);
	return EXIT_OK;
}
