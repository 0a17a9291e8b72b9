/* watch.c — `cudalab watch EX`: check again on every save until Ctrl-C.
 *
 * The directory is watched rather than the file, because many editors
 * save by writing a new file and renaming it over the old one, which
 * would end a watch on the file itself.  A burst of events (one save is
 * often several) leads to one check, DEBOUNCE_MS after the last. */
#include "cudalab/cli.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "cudalab/content.h"

#define DEBOUNCE_MS 200
#define WATCH_EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_ATTRIB)

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	stop = sig;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads the pending events; returns 1 when one concerns name, -1 when
 * the directory went away, else 0. */
static int read_events(int fd, const char *name)
{
	_Alignas(struct inotify_event) char buf[8192];
	int hit = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *e = (const struct inotify_event *)p;

			if (e->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF))
				return -1;
			if (e->len && strcmp(e->name, name) == 0)
				hit = 1;
			p += sizeof *e + e->len;
		}
	}
	return hit;
}

static void split_path(const char *file, char **dir, const char **base)
{
	const char *slash = strrchr(file, '/');

	*dir = slash ? xstrndup(file, slash == file ? 1 : (size_t)(slash - file)) : xstrdup(".");
	*base = slash ? slash + 1 : file;
}

static void stamp(const char *what)
{
	time_t t = time(NULL);
	char when[16];

	strftime(when, sizeof when, "%H:%M:%S", localtime(&t));
	printf("\n--- %s %s\n", when, what);
	fflush(stdout);
}

/* Waits for saves and checks after each; returns when stopped. */
static int watch_loop(struct cli *c, const struct cli_ex_opts *o, const struct exercise *ex,
		      const char *file, int fd)
{
	char *dir;
	const char *base;
	long long due = -1;
	int rc = EXIT_OK;

	split_path(file, &dir, &base);
	while (!stop) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait = due < 0 ? -1 : (int)(due - now_ms()), got;

		if (due >= 0 && wait <= 0) {
			due = -1;
			stamp("saved: checking again");
			cli_ex_run(c, o, ex, file, RUN_CHECK, &stop);
			continue;
		}
		if (poll(&pfd, 1, wait) < 0) {
			if (errno == EINTR)
				continue;
			rc = cli_error(c, "watch: %s", strerror(errno));
			break;
		}
		got = pfd.revents & POLLIN ? read_events(fd, base) : 0;
		if (got < 0) {
			rc = cli_error(c, "watch: %s is gone", dir);
			break;
		}
		if (got)
			due = now_ms() + DEBOUNCE_MS;
	}
	free(dir);
	return rc;
}

int cli_watch(struct cli *c, int argc, char **argv)
{
	struct cli_ex_opts o;
	const struct exercise *ex;
	struct sigaction sa, old_int, old_term;
	char *file = NULL, *dir = NULL;
	const char *base;
	int rc, fd = -1;

	if ((rc = cli_ex_parse(c, argc, argv, 0, &o)) != 0)
		return rc;
	if ((rc = cli_ex_prepare(c, &o, &ex, &file)) != 0)
		goto done;
	split_path(file, &dir, &base);
	fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0 || inotify_add_watch(fd, dir, WATCH_EVENTS) < 0) {
		rc = cli_error(c, "watch: cannot watch %s: %s", dir, strerror(errno));
		goto done;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop; /* no SA_RESTART: poll returns on Ctrl-C */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = cli_ex_run(c, &o, ex, file, RUN_CHECK, &stop);
	if (stop) {
		rc = EXIT_OK;
	} else if (rc != EXIT_USAGE) {
		/* (Without nvcc or a backend no save could help: that ends it.) */
		printf("\nWatching %s: every save is checked (Ctrl-C to stop).\n", file);
		fflush(stdout);
		rc = watch_loop(c, &o, ex, file, fd);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
done:
	if (fd >= 0)
		close(fd);
	free(dir);
	free(file);
	return rc;
}
