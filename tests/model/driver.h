// The command line every driver of tests/model takes:
//
//     driver [--small] KERNEL
//
// KERNEL is a table's kernel id; --small asks for a small case that runs
// in seconds with simt's checks on, where the default is the published size.
#include <cstdio>
#include <cstring>

// model_kernel: KERNEL, with *small set when --small came first; NULL
// after printing the usage.
static inline const char *model_kernel(int argc, char **argv, bool *small)
{
	int argi = 1;

	*small = argc > 1 && strcmp(argv[1], "--small") == 0;
	if (*small)
		argi++;
	if (argi + 1 != argc) {
		fprintf(stderr, "usage: driver [--small] KERNEL\n");
		return NULL;
	}
	return argv[argi];
}

// model_unknown: says that KERNEL is not one of KNOWN; the exit status.
static inline int model_unknown(const char *kernel, const char *known)
{
	fprintf(stderr, "driver: unknown kernel '%s' (%s)\n", kernel, known);
	return 2;
}
