/* tui.c — no verb: open the lab. */
#include "cudalab/cli.h"

#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/tui.h"

int cli_tui(struct cli *c)
{
	return cli_tui_at(c, NULL);
}

int cli_tui_at(struct cli *c, const char *start)
{
	struct tui_config cfg;
	struct catalog *cat = cli_catalog(c);
	struct cli_backend where;
	struct run_remote remote;
	char *warning = NULL;
	int rc;

	/* the config's backend, for the exercise screen's checks */
	if ((rc = cli_default_backend(c, &where)) != 0 ||
	    (rc = cli_remote_setup(c, &where, &remote)) != 0)
		return rc;
	memset(&cfg, 0, sizeof cfg);
	cfg.backend = where.backend;
	cfg.remote = &remote;
	cfg.cat = cat;
	cfg.st = cli_store(c);
	cfg.content_dir = c->content;
	cfg.home = c->home;
	cfg.start = start;
	if (cat->n_diags)
		warning = xasprintf("%zu content problem%s: what loaded is shown "
				    "(run 'cudalab validate')",
				    cat->n_diags, cat->n_diags == 1 ? "" : "s");
	else if (!cfg.st)
		warning = xstrdup("progress is not being saved: the database could not be opened");
	cfg.warning = warning;
	rc = tui_main(&cfg);
	free(warning);
	return rc;
}
