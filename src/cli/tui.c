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

/* The backend of the lab's checks, as the config has it now. */
struct lab_backend {
	struct cli *c;
	struct cli_backend where;
	struct run_remote remote;
	char *origin;
};

static int lab_settings(void *ctx, enum run_backend *backend, const struct run_remote **remote,
			const char **origin, char **error)
{
	struct lab_backend *lb = ctx;

	free(lb->origin);
	lb->origin = NULL;
	if (cli_config_backend(lb->c, 1, &lb->where, error) != 0)
		return -1;
	/* the config is loaded: this sets up the remote without a word */
	cli_remote_setup(lb->c, &lb->where, &lb->remote);
	if (lb->c->cfg.backend)
		lb->origin = xasprintf("the backend %s is set in %s/config", lb->c->cfg.backend,
				       lb->c->home);
	*backend = lb->where.backend;
	*remote = &lb->remote;
	*origin = lb->origin;
	return 0;
}

int cli_tui_at(struct cli *c, const char *start)
{
	struct tui_config cfg;
	struct catalog *cat = cli_catalog(c);
	struct lab_backend lb = { c, { BACKEND_AUTO, "" }, { 0 }, NULL };
	char *warning = NULL, *predict = NULL;
	int rc;

	/* the config's backend, for the exercise screen's checks */
	if ((rc = cli_default_backend(c, &lb.where)) != 0 ||
	    (rc = cli_remote_setup(c, &lb.where, &lb.remote)) != 0)
		return rc;
	if ((rc = cli_predict_device(c, NULL, RUN_BENCH, &predict)) != 0)
		return rc;
	memset(&cfg, 0, sizeof cfg);
	cfg.predict = predict;
	cfg.backend = lb.where.backend;
	cfg.remote = &lb.remote;
	cfg.settings = lab_settings;
	cfg.settings_ctx = &lb;
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
	free(predict);
	free(lb.origin);
	return rc;
}
