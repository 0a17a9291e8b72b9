/* remote.c — `cudalab remote --protocol N [--doctor]`: the far side of
 * --backend ssh:HOST and --backend slurm.  The near side starts it over
 * ssh or srun and talks to it on stdin and stdout (src/run/remote.c has
 * the protocol); a person never needs to run it. */
#include "cudalab/cli.h"

#include <stdlib.h>
#include <string.h>

int cli_remote(struct cli *c, int argc, char **argv)
{
	int protocol = -1, doctor = 0;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (strcmp(argv[i], "--protocol") == 0 && i + 1 < argc) {
			protocol = (int)strtol(argv[++i], &end, 10);
			if (*end || protocol < 0)
				return cli_usage_error(c, "remote: --protocol needs a number");
		} else if (strcmp(argv[i], "--doctor") == 0) {
			doctor = 1;
		} else {
			return cli_usage_error(c, "remote: unexpected argument '%s'", argv[i]);
		}
	}
	if (protocol < 0)
		return cli_usage_error(c, "remote: --protocol N is required (this cudalab speaks "
				       "protocol %d)", RUN_REMOTE_PROTOCOL);
	return run_remote_serve(c->home, protocol, doctor);
}
