/* insights.c — prints what run_insight_list finds in the result JSON on
 * stdin, one finding a line: "advice RULE: TEXT" or "note RULE: TEXT".
 * The harness suite passes every reference solution's result through it,
 * and the run suite the kernels written to set each rule off. */
#include <stdio.h>
#include <stdlib.h>

#include "cudalab/run.h"
#include "cudalab/util.h"

int main(void)
{
	struct run_insight *v;
	char *json = read_file("/dev/stdin", NULL);
	size_t n;

	if (!json) {
		fprintf(stderr, "insight-lines: cannot read stdin\n");
		return 2;
	}
	n = run_insight_list(json, &v);
	for (size_t i = 0; i < n; i++)
		printf("%s %s: %s\n", v[i].advice ? "advice" : "note", v[i].rule, v[i].text);
	run_insight_list_free(v, n);
	free(json);
	return 0;
}
