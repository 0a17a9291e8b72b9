/* proc.c — running programs by argv through fork/execvp, never a shell. */
#include "cudalab/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudalab/util.h"

int run_capture(char *const argv[], char **out, size_t cap)
{
	int fds[2], status;
	pid_t pid;
	struct strbuf sb;
	char buf[4096];
	ssize_t n;

	*out = NULL;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	sb_init(&sb);
	sb_puts(&sb, "");
	while ((n = read(fds[0], buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (sb.len < cap)
			sb_append(&sb, buf, (size_t)n < cap - sb.len ? (size_t)n : cap - sb.len);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			sb_free(&sb);
			return -1;
		}
	}
	*out = sb_steal(&sb);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return status;
}
