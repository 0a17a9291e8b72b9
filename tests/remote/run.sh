#!/bin/sh
# make test-remote: remote checks against real daemons, started and stopped
# here: an sshd on 127.0.0.1 (port REMOTE_SSH_PORT, default 2299) that
# accepts one throwaway key, and a single-node SLURM (munged on a private
# socket, slurmctld and slurmd on ports 6917 and 6918, one GRES-free
# partition "debug").  The far side is this same build of cudalab.  Needs
# root and Debian's openssh-server, slurm-wlm and munge (docs/contributing.md, "Tests and benchmarks").
# Ends with "remote: N passed, M failed".
set -u
# Nothing here reads the terminal: programs that copy their stdin get
# an empty one, so the suite never waits for Ctrl-D.
exec </dev/null
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PORT=${REMOTE_SSH_PORT:-2299}
for tool in /usr/sbin/sshd /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged srun sbatch \
	squeue scancel ssh ssh-keygen script; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "remote: $tool not found: install openssh-server, slurm-wlm and munge" \
			"(apt-get install openssh-server slurm-wlm munge)"
		exit 1
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "remote: the daemons are started as root: run as root"
	exit 1
fi
T=$(mktemp -d /tmp/cudalab-remote.XXXXXX)
stop_all() {
	for f in "$T"/sshd.pid "$T"/slurmctld.pid "$T"/slurmd.pid "$T"/munge/munged.pid; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 1
	rm -rf "$T"
}
trap stop_all EXIT INT TERM

# --- sshd, and an ssh that knows the test hosts ------------------------------
mkdir -p "$T/bin" "$T/far" "$T/near" /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$T/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$T/user_key"
ssh-keygen -q -t ed25519 -N '' -f "$T/other_key"
cp "$T/user_key.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
cat >"$T/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $T/host_key
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
SetEnv CUDALAB_HOME=$T/far
EOF
cat >"$T/ssh_config" <<EOF
Host gpubox denied
  HostName 127.0.0.1
  Port $PORT
  User root
  IdentitiesOnly yes
  UserKnownHostsFile $T/known_hosts
  StrictHostKeyChecking accept-new
Host gpubox
  IdentityFile $T/user_key
Host denied
  IdentityFile $T/other_key
EOF
# the learner's ssh with the test's config: what ~/.ssh/config would hold
printf '#!/bin/sh\nexec %s -F %s "$@"\n' "$(command -v ssh)" "$T/ssh_config" >"$T/bin/ssh"
chmod +x "$T/bin/ssh"
/usr/sbin/sshd -f "$T/sshd_config" -E "$T/sshd.log" || { echo "remote: sshd did not start"; exit 1; }

# --- SLURM -----------------------------------------------------------------
H=$(hostname)
mkdir -p "$T/munge" "$T/state" "$T/spool"
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$T/munge.key"
/usr/sbin/munged --force --key-file="$T/munge.key" --socket="$T/munge/munge.sock" \
	--pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
	--seed-file="$T/munge/seed" || { echo "remote: munged did not start"; exit 1; }
cat >"$T/slurm.conf" <<EOF
ClusterName=cudalabtest
SlurmctldHost=$H
SlurmctldPort=6917
SlurmdPort=6918
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$H CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF" && /usr/sbin/slurmd -f "$SLURM_CONF" ||
	{ echo "remote: slurmctld or slurmd did not start"; exit 1; }
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	[ $i -lt 60 ] || { echo "remote: the SLURM node never became idle"; exit 1; }
	sleep 0.5
done

# --- helpers ---------------------------------------------------------------
export PATH="$T/bin:$PATH" CUDALAB_HOME="$T/near" CUDALAB_CONTENT="$SRC"
unset CUDALAB_SLURM_ARGS
. "$SRC/tests/lib.sh"
rows() { python3 -c 'import os, sqlite3, sys
if not os.path.exists(sys.argv[1]): sys.exit(0)
db = sqlite3.connect(sys.argv[1])
print(" ".join(b + "/" + s for b, s in db.execute(
    "select backend, status from attempt where exercise = ? order by id", ("vector-add",))))' \
	"$CUDALAB_HOME/progress.db"; }
# none_left DIR: no process runs a program from DIR
none_left() { ! pgrep -f "$1" >/dev/null; }
config() { printf '%s\n' "$@" >"$CUDALAB_HOME/config"; }
VA=$SRC/exercises/vector-add
cat >"$T/hang.cu" <<'EOF'
#include <cuda_runtime.h>
#include <unistd.h>
__global__ void add_kernel(const float* a, const float* b, float* c, int n) {}
void solve(const float* a, const float* b, float* c, int n)
{
    for (;;)
        sleep(1);
}
EOF
printf '#include <cuda_runtime.h>\nvoid solve(const float* a, const float* b, float* c, int n)\n{\n    oops\n}\n' \
	>"$T/syntax.cu"
printf '#!/bin/sh\necho "cudalab-remote 7 9.9.9"\necho "error protocol 1 asked for"\nexit 3\n' \
	>"$T/bin/old-cudalab"
chmod +x "$T/bin/old-cudalab"

# --- ssh -------------------------------------------------------------------
ssh_doctor() {
	config "remote_cudalab = $BIN"
	cl doctor --backend ssh:gpubox
	expect_rc 0
	expect_out "ok    remote    ssh:gpubox is reachable: cudalab "
	expect_out "nvcc"
}

ssh_verdicts_and_attempts() {
	config "remote_cudalab = $BIN"
	cl check vector-add --backend ssh:gpubox --file "$VA/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['backend'] == 'ssh:gpubox' and d['remote_backend'] in ('gpu', 'simt')"
	cl check vector-add --backend ssh:gpubox --file "$VA/kernel.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'wrong'"
	cl check vector-add --backend ssh:gpubox --file "$T/syntax.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'compile_error' and d['compile_errors'][0]['file'] == '$T/syntax.cu' and d['compile_errors'][0]['line'] == 4"
	[ "$(rows)" = "ssh:gpubox/pass ssh:gpubox/wrong ssh:gpubox/compile_error" ] ||
		note "attempts: '$(rows)'"
}

ssh_timeout_and_cancel_leave_nothing() {
	config "remote_cudalab = $BIN"
	cl check vector-add --backend ssh:gpubox --file "$T/hang.cu" --timeout 3 --json
	expect_rc 1
	json_expect "d['status'] == 'timeout'"
	sleep 1
	none_left "$T/far/cache" || note "a far process outlived the timeout"
	"$BIN" check vector-add --backend ssh:gpubox --file "$T/hang.cu" >"$T/out" 2>"$T/err" &
	cpid=$!
	i=0
	until pgrep -f "$T/far/cache.*prog" >/dev/null || [ $i -gt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	pgrep -f "$T/far/cache.*prog" >/dev/null || note "the far side never ran the program"
	kill -INT "$cpid"
	wait "$cpid"
	sleep 2
	none_left "$T/far/cache" || note "a far process outlived the cancel"
	none_left "remote --protocol" || note "the far cudalab outlived the cancel"
	case "$(rows)" in *cancel* | *"timeout ssh"*) note "a cancel was recorded: $(rows)" ;; esac
}

ssh_run_program() {
	config "remote_cudalab = $BIN"
	cl run --backend ssh:gpubox "$SRC/tests/simt/rt_racecheck.cu"
	expect_rc 123
	expect_err "race: shared write at rt_racecheck.cu:13"
	printf '#include <unistd.h>\nint main() { sleep(100); }\n' >"$T/slow.cu"
	cl run --backend ssh:gpubox --timeout 2 "$T/slow.cu"
	expect_rc 124
	sleep 1
	none_left "remote/run-" || note "a remote run outlived its timeout"
}

ssh_failures() {
	before=$(rows)
	config "remote_cudalab = $BIN"
	cl check vector-add --backend ssh:nohost.invalid --file "$VA/solution.cu"
	expect_rc 2
	expect_err "ssh cannot find the host nohost.invalid"
	cl check vector-add --backend ssh:denied --file "$VA/solution.cu"
	expect_rc 2
	expect_err "ssh could not log in to denied without a password prompt"
	config "remote_cudalab = /nonexistent/cudalab"
	cl check vector-add --backend ssh:gpubox --file "$VA/solution.cu"
	expect_rc 2
	expect_err "gpubox has no cudalab in PATH"
	config "remote_cudalab = $T/bin/old-cudalab"
	cl check vector-add --backend ssh:gpubox --file "$VA/solution.cu"
	expect_rc 2
	expect_err "gpubox runs cudalab 9.9.9, which speaks remote protocol 7"
	[ "$(rows)" = "$before" ] || note "a failure was recorded: $(rows)"
}

# --- SLURM -----------------------------------------------------------------
slurm_check() {
	config "slurm_gpus = none"
	cl doctor --backend slurm
	expect_rc 0
	expect_out "ok    remote    slurm is reachable"
	cl check vector-add --backend slurm --file "$VA/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['backend'] == 'slurm'"
	case "$(rows)" in *slurm/pass) ;; *) note "attempts: $(rows)" ;; esac
}

slurm_queue_and_cancel() {
	config "slurm_gpus = none" "slurm_args = --partition=debug"
	blocker=$(sbatch --parsable --output=/dev/null -n "$(nproc)" --wrap "sleep 120")
	i=0
	until [ "$(squeue -h -j "$blocker" -o %T 2>/dev/null)" = RUNNING ] || [ $i -gt 100 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	script -qefc "$BIN check vector-add --backend slurm --file $VA/solution.cu" "$T/tty" \
		>/dev/null 2>&1 &
	spid=$!
	i=0
	until grep -q "queued on partition debug as job" "$T/tty" 2>/dev/null || [ $i -gt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "slurm: queued on partition debug as job [0-9]*" "$T/tty" ||
		note "no queued line: $(tr '\r\n' '  ' <"$T/tty")"
	pkill -INT -f "^$BIN check vector-add --backend slurm" 2>/dev/null
	wait "$spid"
	sleep 1
	left=$(squeue -h -o "%j %T" | grep -c '^cudalab-')
	[ "$left" = 0 ] || note "$left cudalab job(s) still in the queue after the cancel"
	scancel "$blocker"
}

slurm_failures() {
	before=$(rows)
	config "slurm_gpus = none" "slurm_args = --partition=nope"
	cl check vector-add --backend slurm --file "$VA/solution.cu"
	expect_rc 2
	expect_err "SLURM rejected the job: "
	config "slurm_gpus = none"
	PATH=$(dirname "$BIN"):/usr/bin/nonexistent "$BIN" check vector-add --backend slurm \
		--file "$VA/solution.cu" >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 2
	expect_err "srun is not in PATH"
	[ "$(rows)" = "$before" ] || note "a failure was recorded: $(rows)"
}

echo "remote: $BIN; sshd on 127.0.0.1:$PORT; SLURM on $H"
for name in ssh_doctor ssh_verdicts_and_attempts ssh_timeout_and_cancel_leave_nothing \
	ssh_run_program ssh_failures slurm_check slurm_queue_and_cancel slurm_failures; do
	case " ${REMOTE_ONLY:-$name} " in *" $name "*) t "$name" ;; esac
done
[ -z "$failed" ] || echo "remote: failed:$failed"
echo "remote: $pass passed, $fail failed"
[ "$fail" = 0 ]
