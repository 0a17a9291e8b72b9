/* The hazard checker's process-wide state: whether checks are on
 * (CUDALAB_SIMT_CHECKS), the schedule seed (CUDALAB_SIMT_SCHEDULE), the
 * report file (CUDALAB_SIMT_HAZARDS), the clocks of launches so far, and
 * the number of devices. */
#include "check/hz_int.h"

#include <stdlib.h>
#include <string.h>

bool hz_checks_on;
char *hz_report_path;
uint32_t hz_clock_base = 1;
atomic_uint hz_clock_max;
uint64_t hz_launch_number;
uint32_t hz_schedule_seed;
int hz_ndevices = 1;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static void setup(void)
{
	const char *p = getenv("CUDALAB_SIMT_CHECKS");
	const char *h = getenv("CUDALAB_SIMT_HAZARDS");

	hz_checks_on = !(p && strcmp(p, "0") == 0);
	hz_schedule_seed = (uint32_t)simt_env_long("CUDALAB_SIMT_SCHEDULE", 0);
	if (h && *h)
		hz_report_path = simt_xstrdup(h);
	atexit(hz_at_exit);
}

bool simt_hz_enabled(void)
{
	pthread_once(&setup_once, setup);
	return hz_checks_on;
}

uint32_t simt_hz_schedule(void)
{
	pthread_once(&setup_once, setup);
	return hz_schedule_seed;
}

void simt_hz_init(int devices)
{
	hz_ndevices = devices;
	pthread_once(&setup_once, setup);
}
