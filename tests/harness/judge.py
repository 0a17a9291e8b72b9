"""Runs a harness program as cudalab's judge does: the checker and the
worker, connected by a socket, each told its role in CUDALAB_JUDGE.

    python3 judge.py CHECKER WORKER ARGS...

The checker (the harness linked with the reference solution) inherits this
process's CUDALAB_RESULT_FD and writes the result there; the worker (the
harness linked with the file under test) gets the counters file named by
CUDALAB_SIMT_COUNTERS and this process's stdout and stderr, the checker
neither (its output goes to stderr, prefixed).  Exits with the checker's
status, or dies of the worker's signal when the worker died of one (cudalab
then says "killed by SIG...": a runtime_error)."""
import os
import signal
import socket
import subprocess
import sys


def main():
    checker, worker, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    base = {k: v for k, v in os.environ.items() if k != "CUDALAB_SIMT_COUNTERS"}
    cenv = dict(base, CUDALAB_JUDGE="checker %d" % a.fileno(), CUDALAB_SIMT_CHECKS="0")
    wenv = dict(os.environ, CUDALAB_JUDGE="worker %d" % b.fileno())
    wenv.pop("CUDALAB_RESULT_FD", None)
    keep = [int(base["CUDALAB_RESULT_FD"])] if "CUDALAB_RESULT_FD" in base else []
    c = subprocess.Popen([checker] + args, env=cenv, pass_fds=[a.fileno()] + keep,
                         stdout=sys.stderr)
    w = subprocess.Popen([worker] + args, env=wenv, pass_fds=[b.fileno()])
    a.close()
    b.close()
    wrc = w.wait()
    crc = c.wait()
    if wrc < 0:
        # the worker's death is the run's end, as cudalab reports it
        signal.signal(-wrc, signal.SIG_DFL)
        os.kill(os.getpid(), -wrc)
    sys.exit(crc)


main()
