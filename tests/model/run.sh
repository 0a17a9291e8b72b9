#!/bin/sh
# Measures simt's time model against published kernel timings.
#
#     sh tests/model/run.sh            predict every row, print the errors
#     sh tests/model/run.sh --small    run each kernel at a small size on
#                                      simt, checks on, no prediction
#
# Environment: BUILD (the directory holding libcudalab-simt.a), NVCC (the
# nvcc to use), MODEL_FILTER (only sources whose name contains it),
# MODEL_TIMEOUT (seconds per run, default 300), MODEL_SOURCES (the folder
# holding the sources, default this script's).
#
# Each source of published measurements is a folder tests/model/SOURCE/:
#   SOURCE.md  where the numbers come from and how they were measured;
#   table.tsv  one row per published measurement, tab-separated, a header
#              line naming the columns, lines starting with # ignored:
#       kernel     the id the driver takes on its command line
#       gpu        the device id simt predicts for (h100-sxm, rtx-a6000...)
#       size       the problem size, for the reader (4096x4096x4096)
#       published  the number as published
#       unit       us, ms, ns, GFLOPS, TFLOPS or GBps
#       flops      the work per call behind a GFLOPS/TFLOPS figure ("-" else)
#       bytes      the bytes per call behind a GBps figure ("-" else)
#       match      an awk regular expression (ERE) on the kernel names of
#                  the predicted launches that make up one call
#       launches   how many launches it matches in one call
#       note       anything that makes the comparison imperfect
#   driver.cu  (optional) launches one call of one kernel at the published
#              size: `driver KERNEL`, or a small case with `driver --small
#              KERNEL`, allocating with cudaMalloc and verifying nothing.
#              A "// simt-nvcc-flags: ..." line among its first five lines
#              replaces the nvcc flags below; it is compiled in its folder,
#              so relative paths in the flags start there.
#   sources    (optional) further translation units linked into the
#              driver, one path a line relative to the folder (# starts a
#              comment): upstream files as they are, or wrappers of ours.
#   pin        (optional) "OWNER/NAME COMMIT": the public repository and
#              commit whose files fetch.sh puts in upstream/, beside the
#              driver.  A source with a pin is built only once that commit
#              is in place.
# A row whose source has no driver, or whose driver does not build, counts
# as not predicted.
#
# Every row's kernel runs with CUDALAB_SIMT_PREDICT=<gpu>,
# CUDALAB_SIMT_CHECKS=0 and the device files of this tree's devices/; the lines simt prints
#     simt: predict: NAME<<<(gx,gy,gz),(bx,by,bz)>>> 123.4 us on DEVICE ...
# are collected, the launches matching the row summed into one call, and
# score.awk compares the call with the published number.  Exit status: 0
# when every row was predicted, 1 when some were not, 2 when simt printed
# no prediction at all (a library without the model) or the environment
# lacks nvcc or the library.

set -u

BUILD=${BUILD:-build}
NVCC=${NVCC:-}
FILTER=${MODEL_FILTER:-}
TIMEOUT=${MODEL_TIMEOUT:-300}
FLAGS="--no-compress -lineinfo -cudart none -arch=sm_80"
here=$(dirname "$0")
dir=${MODEL_SOURCES:-$here}
small=no
case ${1:-} in
--small) small=yes ;;
"") ;;
*)
	echo "usage: sh $0 [--small]" >&2
	exit 2
	;;
esac

lib=$BUILD/libcudalab-simt.a
if [ -z "$NVCC" ]; then
	echo "model: NVCC is not set; the drivers cannot be built"
	exit 2
fi
if [ ! -f "$lib" ]; then
	echo "model: $lib is missing; build it first"
	exit 2
fi
# The tree's device files, not an installed copy: the model under test
# is this tree's.
devices=$(cd "$here/../../devices" && pwd) || exit 2
mkdir -p "$BUILD/model" || exit 2
work=$(cd "$BUILD/model" && pwd) || exit 2

# sources: the folders with a table, less those MODEL_FILTER leaves out.
sources() {
	for t in "$dir"/*/table.tsv; do
		[ -f "$t" ] || continue
		s=$(basename "$(dirname "$t")")
		case $s in *"$FILTER"*) echo "$s" ;; esac
	done
}

# build SOURCE: compiles SOURCE's driver.cu and the translation units its
# `sources` lists, in SOURCE's folder (the flags' paths are relative to
# it), and links them with simt.  Every unit is recompiled when the flags
# or the fetched tree changed, and one of ours (outside upstream/) when a
# file of ours is newer than its object; the driver is relinked when an
# object or the library is newer.  Prints why it failed, if it did.
build() {
	src=$dir/$1
	out=$work/$1
	mkdir -p "$out/obj" || return 1
	if [ -f "$src/pin" ]; then
		read -r repo commit _ <"$src/pin"
		read -r have _ 2>/dev/null <"$src/upstream.fetched" || have=
		if [ "$have" != "$commit" ]; then
			echo "$repo at $commit is not in $src/upstream (sh $here/fetch.sh fetches it)"
			return 1
		fi
	fi
	f=$(sed -n '1,5s|^// simt-nvcc-flags:[[:space:]]*||p' "$src/driver.cu")
	flags=${f:-$FLAGS}
	stamp="$NVCC $flags $(cat "$src/upstream.fetched" 2>/dev/null)"
	if [ "$(cat "$out/stamp" 2>/dev/null)" != "$stamp" ]; then
		rm -f "$out"/obj/*.o "$out/driver"
		printf '%s\n' "$stamp" >"$out/stamp"
	fi
	objs=
	for u in driver.cu $(units "$src"); do
		o=$out/obj/$(echo "$u" | tr / _).o
		objs="$objs $o"
		if [ -f "$o" ] && { upstream "$u" || [ -z "$(find "$src" -path "$src/upstream" \
			-prune -o -type f -newer "$o" -print | sed -n 1p)" ]; }; then
			continue
		fi
		# shellcheck disable=SC2086
		if ! (cd "$src" && "$NVCC" $flags -c "$u" -o "$o") >"$o.log" 2>&1; then
			rm -f "$o"
			echo "$src/$u does not compile (log: $o.log)"
			return 1
		fi
	done
	# shellcheck disable=SC2086
	if [ -f "$out/driver" ] && [ -z "$(find $objs "$lib" -newer "$out/driver" | sed -n 1p)" ]; then
		return 0
	fi
	# shellcheck disable=SC2086
	if ! "$NVCC" $flags $objs -o "$out/driver" -L"$BUILD" -lcudalab-simt -lpthread -lm \
		>"$out/build.log" 2>&1; then
		rm -f "$out/driver"
		echo "$src/driver.cu does not link (log: $out/build.log)"
		return 1
	fi
}

# upstream UNIT: whether UNIT is a file of the fetched tree.
upstream() {
	case $1 in upstream/*) return 0 ;; *) return 1 ;; esac
}

# units SOURCE: the further translation units SOURCE/sources lists.
units() {
	[ -f "$1/sources" ] || return 0
	sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$1/sources"
}

# rows TABLE: "LINE<TAB>KERNEL<TAB>GPU" for each row of TABLE.
rows() {
	awk -F '\t' 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	/^#/ || /^[ \t]*$/ { next }
	{ printf "%d\t%s\t%s\n", FNR, $(c["kernel"]), $(c["gpu"]) }' "$1"
}

# launches SOURCE LINE STDERR: the prediction records of one run.
launches() {
	awk -v s="$1" -v row="$2" '
	/^simt: predict: / && /<<<\(/ && / us on / {
		name = $0
		sub(/^simt: predict: /, "", name)
		sub(/<<<\(.*/, "", name)
		rest = $0
		sub(/.*>>> /, "", rest)
		split(rest, w, " ")
		if (w[1] ~ /^[0-9.]+$/ && w[2] == "us" && w[3] == "on")
			printf "%s\t%s\tlaunch\t%s\t%s\t%s\n", s, row, name, w[1], w[4]
	}' "$3"
}

# predict SOURCE: runs every row of SOURCE's table once, appending its
# launch or error records to $preds.
predict() {
	why=
	if [ ! -f "$dir/$1/driver.cu" ]; then
		why="no driver.cu"
	else
		why=$(build "$1")
	fi
	rows "$dir/$1/table.tsv" | while IFS="$(printf '\t')" read -r line kernel gpu; do
		if [ -n "$why" ]; then
			printf '%s\t%s\terror\t%s\n' "$1" "$line" "$why"
			continue
		fi
		err=$work/$1/$kernel.$gpu.err
		CUDALAB_SIMT_DEVICES=$devices CUDALAB_SIMT_PREDICT=$gpu CUDALAB_SIMT_CHECKS=0 \
			timeout "$TIMEOUT" \
			"$work/$1/driver" "$kernel" >/dev/null 2>"$err" </dev/null
		rc=$?
		if [ "$rc" -ne 0 ]; then
			last=$(grep . "$err" | tail -n 1)
			printf '%s\t%s\terror\texit status %s: %s\n' "$1" "$line" "$rc" "$last"
		else
			launches "$1" "$line" "$err"
		fi
	done >>"$preds"
}

# smoke SOURCE: runs each kernel of SOURCE once at its small size.
smoke() {
	if [ ! -f "$dir/$1/driver.cu" ]; then
		echo "SKIP $1: no driver.cu"
		return
	fi
	if ! why=$(build "$1"); then
		echo "FAIL $1: $why"
		echo fail >>"$work/smoke"
		return
	fi
	rows "$dir/$1/table.tsv" | cut -f 2 | awk '!seen[$0]++' | while read -r kernel; do
		err=$work/$1/$kernel.small.err
		timeout "$TIMEOUT" "$work/$1/driver" --small "$kernel" \
			>/dev/null 2>"$err" </dev/null
		rc=$?
		if [ "$rc" -eq 0 ]; then
			echo "PASS $1 $kernel"
			echo pass >>"$work/smoke"
		else
			echo "FAIL $1 $kernel: exit status $rc"
			sed -n '1,12p' "$err" | sed 's/^/    | /'
			echo fail >>"$work/smoke"
		fi
	done
}

if [ "$small" = yes ]; then
	: >"$work/smoke"
	for s in $(sources); do
		smoke "$s"
	done
	passed=$(grep -c pass "$work/smoke")
	failed=$(grep -c fail "$work/smoke")
	echo "model: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

preds=$work/predictions.tsv
: >"$preds"
tables=
for s in $(sources); do
	predict "$s"
	tables="$tables $dir/$s/table.tsv"
done
if [ -z "$tables" ]; then
	echo "model: no table.tsv under $dir${FILTER:+ matching '$FILTER'}"
	exit 2
fi
if ! grep -q "$(printf '\tlaunch\t')" "$preds"; then
	echo "model: no predictions: simt printed no 'simt: predict:' lines"
	cut -f 4 "$preds" | sort | uniq -c | sed 's/^ */model:   rows: /'
	exit 2
fi
# shellcheck disable=SC2086
awk -f "$here/stats.awk" -f "$here/score.awk" "$preds" $tables
