/* hint.c — `cudalab hint EX`: the next hint not yet shown. */
#include "cudalab/cli.h"

#include "cudalab/content.h"
#include "cudalab/store.h"

int cli_hint(struct cli *c, int argc, char **argv)
{
	const struct exercise *ex;
	struct exercise_state es;
	struct store *st;
	int seen;

	if (argc != 2 || argv[1][0] == '-')
		return cli_usage_error(c, "hint: expected one exercise id");
	ex = catalog_exercise(cli_catalog(c), argv[1]);
	if (!ex)
		return cli_unknown_id(c, "hint", "exercise", argv[1], CAT_EXERCISE, "exercises");
	if (!(st = cli_store(c)))
		return EXIT_USAGE;
	if (store_exercise_get(st, ex->id, &es) != 0)
		return cli_error(c, "hint: %s", store_errmsg(st));
	if (ex->n_hints == 0) {
		printf("%s has no hints.\n", ex->id);
		return EXIT_OK;
	}
	if ((size_t)es.hints_seen >= ex->n_hints) {
		printf("No more hints: all %zu hint%s of %s %s been shown.\n", ex->n_hints,
		       ex->n_hints == 1 ? "" : "s", ex->id, ex->n_hints == 1 ? "has" : "have");
		return EXIT_OK;
	}
	if (store_hint_seen(st, ex->id, &seen) != 0)
		return cli_error(c, "hint: %s", store_errmsg(st));
	printf("Hint %d of %zu: %s\n", es.hints_seen + 1, ex->n_hints, ex->hints[es.hints_seen]);
	if ((size_t)es.hints_seen + 1 == ex->n_hints)
		printf("That was the last hint.\n");
	return EXIT_OK;
}
