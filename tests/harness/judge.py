"""Runs a harness program as cudalab's judge does: the checker and the
worker, connected by a socket, each told its role in CUDALAB_JUDGE.

    python3 judge.py CHECKER WORKER ARGS...

The checker (the harness linked with the reference solution) inherits this
process's CUDALAB_RESULT_FD and writes the result there; the worker (the
harness linked with the file under test) gets the counters file named by
CUDALAB_SIMT_COUNTERS and this process's stdout and stderr, the checker
neither (its output goes to stderr, prefixed).  Exits with the checker's
status, or dies of the worker's signal when the worker died of one (cudalab
then says "killed by SIG...": a runtime_error).

As cudalab does, the pair first runs ahead ("worker-ahead", "checker-ahead":
the worker waits only for the verdicts it may need); when the checker ends
that run void (exit status 3, no result: an output was not right), the
run's output is dropped and the pair runs again in lockstep.
JUDGE_STEPS=lockstep skips the run ahead; JUDGE_VOID_LOG=FILE gets a line
"void" for each run ahead that ended void."""
import os
import signal
import socket
import subprocess
import sys
import tempfile

VOID_RUN = 3


def run(checker, worker, args, ahead):
    """One run; returns (worker status, checker status, void)."""
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    base = {k: v for k, v in os.environ.items()
            if k not in ("CUDALAB_SIMT_COUNTERS", "JUDGE_STEPS", "JUDGE_VOID_LOG")}
    suffix = "-ahead" if ahead else ""
    cenv = dict(base, CUDALAB_JUDGE="checker%s %d" % (suffix, a.fileno()),
                CUDALAB_SIMT_CHECKS="0")
    wenv = {k: v for k, v in os.environ.items() if k not in ("JUDGE_STEPS", "JUDGE_VOID_LOG")}
    wenv["CUDALAB_JUDGE"] = "worker%s %d" % (suffix, b.fileno())
    wenv.pop("CUDALAB_RESULT_FD", None)
    keep = [int(base["CUDALAB_RESULT_FD"])] if "CUDALAB_RESULT_FD" in base else []
    # a run ahead holds its result and the worker's output until it is
    # known not to be void
    res = tempfile.TemporaryFile() if ahead and keep else None
    out = tempfile.TemporaryFile() if ahead else None
    err = tempfile.TemporaryFile() if ahead else None
    if res is not None:
        cenv["CUDALAB_RESULT_FD"] = str(res.fileno())
        keep = [res.fileno()]
    c = subprocess.Popen([checker] + args, env=cenv, pass_fds=[a.fileno()] + keep,
                         stdout=sys.stderr)
    w = subprocess.Popen([worker] + args, env=wenv, pass_fds=[b.fileno()],
                         stdout=out, stderr=err)
    a.close()
    b.close()
    wrc = w.wait()
    crc = c.wait()
    result = b""
    if res is not None:
        res.seek(0)
        result = res.read()
    void = ahead and crc == VOID_RUN and not result
    if ahead and not void:
        for f, to in ((out, sys.stdout), (err, sys.stderr)):
            f.seek(0)
            to.flush()
            to.buffer.write(f.read())
            to.flush()
        if res is not None:
            os.write(int(os.environ["CUDALAB_RESULT_FD"]), result)
    return wrc, crc, void


def main():
    checker, worker, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    ahead = os.environ.get("JUDGE_STEPS") != "lockstep"
    wrc, crc, void = run(checker, worker, args, ahead)
    if void:
        log = os.environ.get("JUDGE_VOID_LOG")
        if log:
            with open(log, "a") as f:
                f.write("void\n")
        wrc, crc, void = run(checker, worker, args, False)
    if wrc < 0:
        # the worker's death is the run's end, as cudalab reports it
        signal.signal(-wrc, signal.SIG_DFL)
        os.kill(os.getpid(), -wrc)
    sys.exit(crc)


main()
