/* complete.c — `cudalab __complete -- WORD...`: what the shell may put in
 * place of the last WORD, one candidate a line, for the completion
 * scripts in completions/.  It follows the verb and option table of
 * help.c, so the scripts know nothing of cudalab's verbs themselves.
 * A line ":file" or ":dir" asks the shell to complete a path instead. */
#include "cudalab/cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cudalab/content.h"
#include "cudalab/run.h"

/* Prints cand when it begins with the word being completed. */
static void offer(const char *cand, void *cur)
{
	if (str_starts(cand, cur))
		puts(cand);
}

static void offer_list(const char *const *cands, const char *cur)
{
	for (; *cands; cands++)
		offer(*cands, (void *)cur);
}

/* ssh:NAME for each plain name after "Host" in ~/.ssh/config (patterns
 * with * ? or ! match no one host and are left out). */
static void offer_ssh_hosts(const char *cur)
{
	const char *home = getenv("HOME");
	char *path, *text, *save = NULL;

	if (!home || !*home)
		return;
	path = xasprintf("%s/.ssh/config", home);
	text = read_file(path, NULL);
	free(path);
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = line + strspn(line, " \t"), *name, *in = NULL;

		if (strncasecmp(p, "host", 4) != 0 || !strchr(" \t=", p[4]))
			continue;
		for (name = strtok_r(p + 5, " \t=", &in); name; name = strtok_r(NULL, " \t=", &in)) {
			if (strpbrk(name, "*?!"))
				continue;
			char *cand = xasprintf("ssh:%s", name);
			offer(cand, (void *)cur);
			free(cand);
		}
	}
	free(text);
}

/* The catalog of the content the command line names (--content), or
 * the one this cudalab would use.  Content problems stay unreported. */
static struct catalog *catalog_for(struct cli *c, const char *content)
{
	if (content && !c->cat) {
		free(c->content);
		c->content = xstrdup(content);
	}
	return cli_catalog(c);
}

static void offer_value(struct cli *c, enum cli_value what, const char *cur, const char *content)
{
	static const char *const backends[] = { "auto", "gpu", "simt", "slurm", "ssh:", NULL };
	static const char *const remotes[] = { "slurm", "ssh:", NULL };
	static const char *const statuses[] = { "done", "reading", "unread", NULL };
	static const char *const kinds[] = { "lessons", "reading", "exercises", NULL };
	static const int ids[] = { [CLI_LESSON] = CAT_LESSON | CAT_EXERCISE,
				   [CLI_EXERCISE] = CAT_EXERCISE, [CLI_ITEM] = CAT_READING };

	switch (what) {
	case CLI_NONE:
		break;
	case CLI_FILE:
		puts(":file");
		break;
	case CLI_DIR:
		puts(":dir");
		break;
	case CLI_BACKEND:
	case CLI_REMOTE:
		offer_list(what == CLI_BACKEND ? backends : remotes, cur);
		offer_ssh_hosts(cur);
		break;
	case CLI_STATUS:
		offer_list(statuses, cur);
		break;
	case CLI_KIND:
		offer_list(kinds, cur);
		break;
	case CLI_DEVICE: {
		char **devs = run_devices_list(content ? content : c->content, NULL);

		offer_list((const char *const *)devs, cur);
		offer("off", (void *)cur);
		run_argv_free(devs);
		break;
	}
	case CLI_LESSON:
	case CLI_EXERCISE:
	case CLI_ITEM:
		/* read also takes the path of a Markdown file */
		if (what == CLI_LESSON && strchr(cur, '/'))
			puts(":file");
		else
			catalog_each_id(catalog_for(c, content), ids[what], offer, (void *)cur);
		break;
	}
}

static const struct cli_option *find_option(const struct cli_option *opts, const char *word)
{
	for (const struct cli_option *o = opts; o && o->name; o++)
		if (strcmp(o->name, word) == 0 || (o->alias && strcmp(o->alias, word) == 0))
			return o;
	return NULL;
}

/* Whether word is an option that takes its value from the next word
 * (not --opt=VALUE, nor -IDIR), among the verb's or the global ones. */
static const struct cli_option *takes_next(const struct cli_option *opts, const char *word)
{
	const struct cli_option *o = find_option(opts, word);

	if (!o)
		o = find_option(cli_global_options, word);
	return o && o->arg ? o : NULL;
}

static void offer_options(const struct cli_option *opts, const char *cur)
{
	for (const struct cli_option *o = opts; o->name; o++)
		offer(o->name, (void *)cur);
}

/* The words after the verb v, the last one being completed. */
static void complete_verb(struct cli *c, const struct cli_verb *v, int n, char **w,
			  const char *content)
{
	const char *cur = w[n - 1];
	int operand = 0;

	for (int i = 0; i < n - 1; i++) {
		const struct cli_option *o = takes_next(v->options, w[i]);

		if (strcmp(w[i], "--") == 0)
			return; /* the program's own arguments */
		if (o && i + 1 == n - 1) {
			offer_value(c, o->value, cur, content);
			return;
		}
		if (o && strcmp(o->name, "--content") == 0)
			content = w[i + 1];
		if (o)
			i++;
		else if (w[i][0] != '-' || !w[i][1])
			operand++;
	}
	if (cur[0] == '-' && v->options)
		offer_options(v->options, cur);
	else if (cur[0] != '-')
		offer_value(c, v->operands[operand ? 1 : 0], cur, content);
}

int cli_complete(struct cli *c, int argc, char **argv)
{
	int i = 1, n;
	char **w;
	const char *content = NULL;

	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	w = argv + i;
	n = argc - i;
	if (n == 0)
		return EXIT_OK;
	/* global options before the verb */
	for (i = 0; i < n - 1 && w[i][0] == '-'; i++) {
		const struct cli_option *o = takes_next(NULL, w[i]);

		if (o && i + 1 == n - 1) {
			offer_value(c, o->value, w[n - 1], NULL);
			return EXIT_OK;
		}
		if (o && strcmp(o->name, "--content") == 0)
			content = w[i + 1];
		else if (str_starts(w[i], "--content="))
			content = w[i] + strlen("--content=");
		i += o != NULL;
	}
	if (i == n - 1) {
		if (w[i][0] == '-') {
			offer_options(cli_global_options, w[i]);
			return EXIT_OK;
		}
		for (unsigned k = 0; k < cli_n_verbs; k++)
			if (!cli_verbs[k].hidden)
				offer(cli_verbs[k].name, w[i]);
		return EXIT_OK;
	}
	if (cli_verb_find(w[i]))
		complete_verb(c, cli_verb_find(w[i]), n - i - 1, w + i + 1, content);
	return EXIT_OK;
}
