/* config.c — $CUDALAB_HOME/config: a few settings, one "key = value" per
 * line, '#' starting a comment.  Keys:
 *   backend        = auto | gpu | simt | ssh:HOST | slurm   (the default backend)
 *   slurm_args     = srun options, e.g. --partition=gpu --time=00:10:00
 *   slurm_gpus     = srun's GPU request: --gpus=1 (default), --gres=gpu:1, none
 *   remote_cudalab = the cudalab to run on the far side
 *   predict        = DEVICE | off  (the GPU a bench on simt is predicted
 *                    for: a device file's id; default h100-sxm)
 * CUDALAB_SLURM_ARGS, when set, replaces slurm_args.  A file that does
 * not exist is no error; a line that cannot be read is, naming the file
 * and line. */
#include "cudalab/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const keys[] = { "backend", "slurm_args", "slurm_gpus", "remote_cudalab",
				    "predict" };

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

void cli_config_free(struct cli_config *cfg)
{
	free(cfg->backend);
	free(cfg->slurm_args);
	free(cfg->slurm_gpus);
	free(cfg->remote_cudalab);
	free(cfg->predict);
	memset(cfg, 0, sizeof *cfg);
}

static char **slot(struct cli_config *cfg, const char *key)
{
	char **slots[] = { &cfg->backend, &cfg->slurm_args, &cfg->slurm_gpus,
			   &cfg->remote_cudalab, &cfg->predict };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(key, keys[i]) == 0)
			return slots[i];
	return NULL;
}

int cli_config_parse(const char *text, const char *path, struct cli_config *cfg, char **error)
{
	const char *p = text;
	int line = 0;

	memset(cfg, 0, sizeof *cfg);
	*error = NULL;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		char *raw = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p)), *s, *eq, *key, *val, **to;

		line++;
		p = nl ? nl + 1 : NULL;
		s = raw;
		if (strchr(s, '#'))
			*strchr(s, '#') = '\0';
		s = trim(s);
		if (!*s) {
			free(raw);
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			*error = xasprintf("%s:%d: expected \"key = value\", found \"%.60s\"", path,
					   line, s);
			free(raw);
			goto fail;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		if (!(to = slot(cfg, key))) {
			*error = xasprintf("%s:%d: unknown setting '%.40s' (known: backend, "
					   "slurm_args, slurm_gpus, remote_cudalab, predict)", path, line, key);
			free(raw);
			goto fail;
		}
		if (strcmp(key, "backend") == 0) {
			struct cli_backend b;

			if (cli_backend_parse(val, &b) != 0) {
				*error = xasprintf("%s:%d: backend '%.60s' is none of auto, gpu, simt, "
						   "ssh:HOST, slurm", path, line, val);
				free(raw);
				goto fail;
			}
		}
		if (strcmp(key, "predict") == 0 && !cli_predict_good(val)) {
			*error = xasprintf("%s:%d: predict '%.60s' is neither a device id (letters, "
					   "digits, '-', '_') nor off", path, line, val);
			free(raw);
			goto fail;
		}
		free(*to);
		*to = xstrdup(val);
		free(raw);
	}
	return 0;
fail:
	cli_config_free(cfg);
	return -1;
}

int cli_config_load(const char *home, struct cli_config *cfg, char **error)
{
	char *path = path_join(home, "config");
	char *text = read_file(path, NULL);
	const char *env = getenv("CUDALAB_SLURM_ARGS");
	int rc = 0;

	memset(cfg, 0, sizeof *cfg);
	*error = NULL;
	if (!text && errno != ENOENT) {
		*error = xasprintf("cannot read %s: %s", path, strerror(errno));
		rc = -1;
	} else if (text) {
		rc = cli_config_parse(text, path, cfg, error);
	}
	if (rc == 0 && env) {
		free(cfg->slurm_args);
		cfg->slurm_args = xstrdup(env);
	}
	free(text);
	free(path);
	return rc;
}

int cli_backend_parse(const char *name, struct cli_backend *b)
{
	memset(b, 0, sizeof *b);
	if (str_starts(name, "ssh:")) {
		const char *host = name + 4;

		/* a host as ssh takes it: no blanks, no option, not empty */
		if (!*host || *host == '-' || strpbrk(host, " \t'\"\\;&|$`<>()"))
			return -1;
		b->backend = BACKEND_SSH;
		snprintf(b->host, sizeof b->host, "%s", host);
		return strlen(host) < sizeof b->host ? 0 : -1;
	}
	if (strcmp(name, "slurm") == 0) {
		b->backend = BACKEND_SLURM;
		return 0;
	}
	if (strcmp(name, "ssh") == 0)
		return -1;
	return run_backend_parse(name, &b->backend);
}

/* This program's own path, for srun on a cluster that shares it. */
static char *self_path(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n <= 0)
		return xstrdup("cudalab");
	buf[n] = '\0';
	return xstrdup(buf);
}

int cli_remote_setup(struct cli *c, const struct cli_backend *b, struct run_remote *r)
{
	memset(r, 0, sizeof *r);
	if (b->backend != BACKEND_SSH && b->backend != BACKEND_SLURM)
		return 0;
	if (!c->cfg_loaded) {
		char *err = NULL;

		if (cli_config_load(c->home, &c->cfg, &err) != 0) {
			int rc = cli_error(c, "%s", err);

			free(err);
			return rc;
		}
		c->cfg_loaded = 1;
	}
	if (!c->self)
		c->self = self_path();
	r->host = b->host;
	r->cudalab = c->cfg.remote_cudalab;
	r->self = c->self;
	r->slurm_args = c->cfg.slurm_args;
	r->gpus = c->cfg.slurm_gpus ? c->cfg.slurm_gpus : "--gpus=1";
	return 0;
}

int cli_config_backend(struct cli *c, int reread, struct cli_backend *b, char **error)
{
	memset(b, 0, sizeof *b);
	b->backend = BACKEND_AUTO;
	*error = NULL;
	if (reread && c->cfg_loaded) {
		cli_config_free(&c->cfg);
		c->cfg_loaded = 0;
	}
	if (!c->cfg_loaded) {
		if (cli_config_load(c->home, &c->cfg, error) != 0)
			return -1;
		c->cfg_loaded = 1;
	}
	if (c->cfg.backend && cli_backend_parse(c->cfg.backend, b) != 0) {
		*error = xasprintf("%s/config: backend '%s' is none of auto, gpu, simt, ssh:HOST, "
				   "slurm", c->home, c->cfg.backend);
		return -1;
	}
	return 0;
}

int cli_default_backend(struct cli *c, struct cli_backend *b)
{
	char *err = NULL;
	int rc = 0;

	if (cli_config_backend(c, 0, b, &err) != 0)
		rc = cli_error(c, "%s", err);
	free(err);
	return rc;
}

int cli_predict_good(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n >= 64 || id[0] == '-' || id[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && !strchr("-_.", id[i]))
			return 0;
	return 1;
}

int cli_predict_device(struct cli *c, const char *given, enum run_mode mode, char **device)
{
	const char *env = getenv("CUDALAB_SIMT_PREDICT"), *id = given, *origin = "--predict";
	char *name = NULL, *why = NULL, *err = NULL;
	int rc = 0;

	*device = NULL;
	if (!c->cfg_loaded) {
		if (cli_config_load(c->home, &c->cfg, &err) != 0) {
			rc = cli_error(c, "%s", err);
			free(err);
			return rc;
		}
		c->cfg_loaded = 1;
	}
	/* a check predicts only when asked; a bench on simt unless told not to */
	if (!id && mode == RUN_BENCH) {
		if (env && *env)
			id = env, origin = "CUDALAB_SIMT_PREDICT";
		else if (c->cfg.predict)
			id = c->cfg.predict, origin = "config";
		else
			id = RUN_DEFAULT_DEVICE, origin = NULL;
	}
	if (!id || strcmp(id, "off") == 0)
		return 0;
	if (run_device_find(c->content, id, &name, &why) == 0) {
		*device = xstrdup(id);
	} else if (!origin) {
		cli_warn(c, "no time prediction: %s", why);
	} else {
		rc = strcmp(origin, "config") == 0
			     ? cli_error(c, "%s/config: predict: %s", c->home, why)
			     : cli_error(c, "%s: %s", origin, why);
	}
	free(name);
	free(why);
	return rc;
}
