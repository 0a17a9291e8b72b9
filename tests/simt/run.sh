#!/bin/sh
# Builds every tests/simt/*.cu against simt and runs it.
#
# Environment: BUILD (build directory holding libcudalab-simt.a), NVCC (the
# nvcc to use; empty: the suite is skipped), SIMT_TEST_TIMEOUT (seconds per
# program, default 120), SIMT_TEST_FILTER (only programs whose name
# contains it), SIMT_TEST_FLAGS (nvcc flags replacing the ones below, to
# try other builds of the same programs).
#
# Programs are built as
#     nvcc --no-compress -lineinfo -cudart none -arch=sm_80 prog.cu \
#          -L$BUILD -lcudalab-simt -lpthread -lm
# -arch=sm_80 embeds both sm_80 machine code and compute_80 PTX, and simt
# reads the PTX; --no-compress keeps that PTX as plain text (nvcc 13
# compresses it by default); -lineinfo gives simt the source lines for its
# diagnostics; -cudart none leaves the CUDA runtime to simt.  A build with
# only machine code (-gencode arch=compute_80,code=sm_80) cannot run on
# simt; -gencode arch=compute_80,code=compute_80 (PTX only) can.
#
# A program passes when it exits 0, unless its first line says otherwise:
#     // expect: exit=1 stderr=out-of-bounds global write
# Words of the expect line: "fail" (any non-zero exit), "exit=N",
# "env=NAME=VALUE" (set for the run), then "stdout=TEXT" or "stderr=TEXT",
# which take the rest of the line (less a trailing " [simt-only]", a
# marker for GPU runners) as a text the output must contain.
#
# simt checks every kernel for hazards (races, barrier misuse,
# uninitialized reads).  A program that reports any fails with "unexpected
# hazard report", unless lines among its first fifteen name each report:
#     // expect-hazard: race: shared write at hz_reduce.cu:14
# " ... " in a text stands for anything (the threads and blocks, which a
# schedule may change), and " || " separates alternatives (a race whose
# accesses a schedule may see in either order).  Then every such text must appear in a line of stderr, the exit summary
# ("simt: ERROR SUMMARY: N hazards") must count exactly that many reports,
# and the program is run a second time under another schedule
# (CUDALAB_SIMT_SCHEDULE=7), where the same must hold: a verdict that
# depends on the schedule is a failure.  The hazard corpus (hz_*.cu), the
# clean programs included, always runs under both schedules.
#
# A line "// gpus: N" among the first fifteen runs the program with N
# devices (CUDALAB_SIMT_GPUS=N).
#
# A line "// simt-nvcc-flags: ..." among the first five replaces the flags
# above for that program (to test how simt treats other builds).
#
# Object files are cached in $BUILD/simt-tests by source checksum, so a
# rerun only relinks against the current library.

set -u
# Nothing here reads the terminal: programs that copy their stdin get
# an empty one, so the suite never waits for Ctrl-D.
exec </dev/null

BUILD=${BUILD:-build}
NVCC=${NVCC:-}
TIMEOUT=${SIMT_TEST_TIMEOUT:-120}
FILTER=${SIMT_TEST_FILTER:-}
FLAGS=${SIMT_TEST_FLAGS:-"--no-compress -lineinfo -cudart none -arch=sm_80"}
dir=$(dirname "$0")

if [ -z "$NVCC" ]; then
	echo "simt: skipped (no nvcc)"
	exit 0
fi
lib=$BUILD/libcudalab-simt.a
cache=$BUILD/simt-tests
if [ ! -f "$lib" ]; then
	echo "simt: $lib is missing; build it first"
	echo "simt: 0 passed, 1 failed"
	exit 1
fi
mkdir -p "$cache" || exit 1

# A library built with SANITIZE=... needs the sanitizer runtimes at link
# time.  Leak checking is left off unless ASAN_OPTIONS says otherwise: the
# programs' own host allocations are not simt's to free.
LINK_EXTRA=
if nm "$lib" 2>/dev/null | grep -q __asan_init; then
	LINK_EXTRA="$LINK_EXTRA -Xcompiler -fsanitize=address"
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
	export ASAN_OPTIONS
fi
if nm "$lib" 2>/dev/null | grep -q __ubsan_handle; then
	LINK_EXTRA="$LINK_EXTRA -Xcompiler -fsanitize=undefined"
fi

# flags_of SRC: the nvcc flags for SRC: FLAGS, or those of a
# "// simt-nvcc-flags: ..." line among its first five lines.
flags_of() {
	f=$(sed -n '1,5s|^// simt-nvcc-flags:[[:space:]]*||p' "$1")
	printf '%s\n' "${f:-$FLAGS}"
}

# build NAME SRC: compiles (if the source changed) and links one program;
# writes $cache/NAME.built on success, $cache/NAME.log otherwise.
build() {
	name=$1
	src=$2
	flags=$(flags_of "$src")
	# the key covers the flags and the shared headers beside the programs
	flagsum=$( { printf '%s' "$flags"; cat "$dir"/*.h 2>/dev/null; } | cksum | cut -d' ' -f1)
	key=$(cksum <"$src" | cut -d' ' -f1)-$flagsum
	obj=$cache/$name.$key.o
	bin=$cache/$name
	rm -f "$cache/$name.built"
	if [ ! -f "$obj" ]; then
		rm -f "$cache/$name".*.o
		# shellcheck disable=SC2086
		if ! "$NVCC" $flags -I"$dir" -c "$src" -o "$obj.tmp" \
			>"$cache/$name.log" 2>&1; then
			rm -f "$obj.tmp"
			return 1
		fi
		mv "$obj.tmp" "$obj"
		rm -f "$bin"
	fi
	if [ ! -f "$bin" ] || [ -n "$(find "$lib" -newer "$bin")" ] ||
		[ -n "$(find "$obj" -newer "$bin")" ] ||
		[ "$(cat "$bin.link" 2>/dev/null)" != "$LINK_EXTRA" ]; then
		# shellcheck disable=SC2086
		if ! "$NVCC" $flags "$obj" -o "$bin" -L"$BUILD" -lcudalab-simt \
			-lpthread -lm $LINK_EXTRA >"$cache/$name.log" 2>&1; then
			return 1
		fi
		printf '%s\n' "$LINK_EXTRA" >"$bin.link"
	fi
	: >"$cache/$name.built"
}

# Compile two at a time.
running=0
for src in "$dir"/*.cu; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .cu)
	case $name in *"$FILTER"*) ;; *) continue ;; esac
	build "$name" "$src" &
	running=$((running + 1))
	if [ "$running" -ge 2 ]; then
		wait
		running=0
	fi
done
wait

show() {
	sed -n '1,12p' "$1" | sed 's/^/    | /'
}

# has_line TEXT FILE: a line of FILE holds the pieces of TEXT between
# " ... " in order (or those of one of its alternatives, split by " || ").
has_line() {
	awk -v pat="$1" 'BEGIN { nalt = split(pat, alt, / \|\| /) }
	{
		for (a = 1; a <= nalt; a++) {
			n = split(alt[a], part, / \.\.\. /)
			s = $0
			for (i = 1; i <= n; i++) {
				p = index(s, part[i])
				if (!p)
					break
				s = substr(s, p + length(part[i]))
			}
			if (i > n) {
				found = 1
				exit
			}
		}
	}
	END { exit !found }' "$2"
}

# verdict: why the run just made ($rc, $out, $err) fails its program's
# directives; empty when it passes.
verdict() {
	if [ "$rc" -eq 124 ]; then
		echo "timed out after ${TIMEOUT}s"
	elif [ "$want_fail" = no ] && [ "$rc" -ne 0 ]; then
		echo "exit status $rc"
	elif [ "$want_fail" = yes ] && [ -z "$want_exit" ] && [ "$rc" -eq 0 ]; then
		echo "expected a failure, got exit status 0"
	elif [ -n "$want_exit" ] && [ "$rc" -ne "$want_exit" ]; then
		echo "expected exit status $want_exit, got $rc"
	elif [ -n "$want_out" ] && ! grep -qF -- "$want_out" "$out"; then
		echo "stdout lacks: $want_out"
	elif [ -n "$want_err" ] && ! grep -qF -- "$want_err" "$err"; then
		echo "stderr lacks: $want_err"
	else
		got=$(sed -n 's/^simt: ERROR SUMMARY: \([0-9]*\) hazard.*/\1/p' "$err")
		got=${got:-0}
		if [ "$nhaz" -eq 0 ] && [ "$got" -ne 0 ]; then
			echo "unexpected hazard report"
			return
		fi
		printf '%s\n' "$hazards" | while IFS= read -r h; do
			[ -z "$h" ] && continue
			if ! has_line "$h" "$err"; then
				echo "stderr lacks the hazard: $h"
				break
			fi
		done | sed -n 1p | grep . && return
		if [ "$got" -ne "$nhaz" ]; then
			echo "$got hazard reports, expected $nhaz"
		fi
	fi
}

passed=0
failed=0
for src in "$dir"/*.cu; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .cu)
	case $name in *"$FILTER"*) ;; *) continue ;; esac
	if [ ! -f "$cache/$name.built" ]; then
		echo "FAIL $name: does not build"
		show "$cache/$name.log"
		failed=$((failed + 1))
		continue
	fi
	first=$(sed -n '1p' "$src")
	want_exit=0
	want_fail=no
	want_out=
	want_err=
	envs=
	case $first in
	*"// expect:"*)
		spec=${first#*// expect:}
		want_fail=yes
		want_exit=$(printf '%s\n' "$spec" | sed -n 's/.*exit=\([0-9]*\).*/\1/p')
		spec=${spec% \[simt-only\]}
		case $spec in *stdout=*) want_out=${spec#*stdout=} ;; esac
		case $spec in *stderr=*) want_err=${spec#*stderr=} ;; esac
		envs=$(printf '%s\n' "$spec" | sed 's/stdout=.*//; s/stderr=.*//' |
			tr ' ' '\n' | sed -n 's/^env=//p')
		;;
	esac
	gpus=$(sed -n '1,15s|^// gpus:[[:space:]]*\([0-9][0-9]*\).*|\1|p' "$src" | sed -n 1p)
	[ -n "$gpus" ] && envs="$envs CUDALAB_SIMT_GPUS=$gpus"
	out=$cache/$name.out
	err=$cache/$name.err
	hazards=$(sed -n '1,15s|^// expect-hazard:[[:space:]]*||p' "$src")
	nhaz=$(printf '%s' "$hazards" | grep -c .)
	schedules=0
	[ "$nhaz" -gt 0 ] && schedules="0 7"
	case $name in hz_*) schedules="0 7" ;; esac
	why=
	for sched in $schedules; do
		[ -z "$why" ] || break
		# shellcheck disable=SC2086
		env CUDALAB_SIMT_SCHEDULE=$sched $envs timeout "$TIMEOUT" \
			"$cache/$name" >"$out" 2>"$err" </dev/null
		rc=$?
		why=$(verdict)
		[ -n "$why" ] && [ "$sched" != 0 ] && why="$why (schedule $sched)"
	done
	if [ -z "$why" ]; then
		echo "PASS $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name: $why"
		show "$err"
		show "$out"
		failed=$((failed + 1))
	fi
done

echo "simt: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
