/* fuzz_ptx.c — PTX text through simt's loader: the lexer and parser
 * (ptx.c), the decoder of every instruction (decode.c) and the kernel
 * summaries made at load, as __cudaRegisterFatBinary runs them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes: the loader must stay within len */
	char *text = malloc(size ? size : 1);
	struct simt_module mod;

	memcpy(text, data, size);
	memset(&mod, 0, sizeof mod);
	if (simt_ptx_load(&mod, text, size) == 0) {
		for (int i = 0; i < mod.nfuncs; i++) {
			(void)simt_module_find_func(&mod, mod.funcs[i].name);
			if (mod.funcs[i].is_entry)
				(void)simt_kernel_summarize(&mod, &mod.funcs[i]);
		}
		for (int i = 0; i < mod.nvars; i++)
			(void)simt_module_find_var(&mod, mod.vars[i].name);
	}
	simt_module_free(&mod);
	free(text);
	return 0;
}
