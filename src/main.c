/* main.c — argument parsing and dispatch only. */
#include <stdio.h>

int main(void)
{
	puts("cudalab " CUDALAB_VERSION);
	return 0;
}
