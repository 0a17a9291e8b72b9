/* main.c — argument parsing and dispatch only. */
#include <stdio.h>
#include <string.h>

#include "cudalab/cli.h"

/* Takes the value of a global option given as "--opt VALUE" or
 * "--opt=VALUE"; returns 1 when argv[*i] was that option. */
static int take_option(const char *opt, int argc, char **argv, int *i, const char **value,
		       int *missing)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) != 0)
		return 0;
	if (argv[*i][n] == '=') {
		*value = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		*missing = 1;
		return 1;
	}
	*value = argv[++*i];
	return 1;
}

int main(int argc, char **argv)
{
	const char *home = NULL, *content = NULL;
	char *rest[argc + 1];
	int nrest = 0, missing = 0, help = 0, rc;
	struct cli c;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				rest[nrest++] = argv[i++];
			break;
		}
		if (take_option("--home", argc, argv, &i, &home, &missing) ||
		    take_option("--content", argc, argv, &i, &content, &missing)) {
			if (missing) {
				fprintf(stderr, "cudalab: %s needs a directory\n", argv[i]);
				return EXIT_USAGE;
			}
			continue;
		}
		if (nrest == 0 && strcmp(argv[i], "--version") == 0) {
			printf("cudalab %s\n", CUDALAB_VERSION);
			return EXIT_OK;
		}
		if (nrest == 0 && cli_is_help(argv[i])) {
			help = 1;
			continue;
		}
		if (nrest == 0 && argv[i][0] == '-') {
			fprintf(stderr, "cudalab: unknown option '%s' (see 'cudalab --help')\n",
				argv[i]);
			return EXIT_USAGE;
		}
		rest[nrest++] = argv[i];
	}
	rest[nrest] = NULL;
	if (help) {
		if (nrest == 0) {
			cli_usage(stdout);
			return EXIT_OK;
		}
		if (cli_verb_help(rest[0], stdout) == 0)
			return EXIT_OK;
	}

	cli_init(&c, "cudalab", home, content);
	rc = nrest ? cli_dispatch(&c, nrest, rest) : cli_tui(&c);
	cli_done(&c);
	return rc;
}
