/* fuzz_config.c — $CUDALAB_HOME/config text through cli_config_parse, and
 * --backend values through cli_backend_parse. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/cli.h"
#include "cudalab/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size), *error = NULL;
	struct cli_config cfg;
	struct cli_backend b;

	if (cli_config_parse(text, "config", &cfg, &error) == 0) {
		if (cfg.backend && cli_backend_parse(cfg.backend, &b) != 0)
			abort(); /* the parser accepted a backend it cannot read */
		cli_config_free(&cfg);
	}
	free(error);
	(void)cli_backend_parse(text, &b);
	free(text);
	return 0;
}
