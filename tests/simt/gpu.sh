#!/bin/sh
# `make test-gpu`: the simt conformance programs, unchanged, on a real GPU
# with the real CUDA runtime.  Programs marked [simt-only] (faults that a
# GPU does not catch) are skipped; for the others an expect line's exit
# status must match (its stderr text is simt's own wording and is not
# checked here).  Programs that need more devices than the machine has (a
# "// gpus: N" line) are skipped with a note.  Ends with "gpu: N passed,
# M failed".
set -u
NVCC=${NVCC:?NVCC must name nvcc}
BUILD=${BUILD:-build}
TIMEOUT=${GPU_TEST_TIMEOUT:-60}
dir=$(dirname "$0")
out=$BUILD/gpu-tests
mkdir -p "$out" || exit 1
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "gpu: no usable GPU (nvidia-smi lists none)"
	echo "gpu: 0 passed, 1 failed"
	exit 1
fi
ngpus=$(nvidia-smi -L | grep -c '^GPU')
passed=0
failed=0
skipped=0
few=0
for src in "$dir"/*.cu; do
	name=$(basename "$src" .cu)
	need=$(sed -n '1,15s|^// gpus:[[:space:]]*\([0-9][0-9]*\).*|\1|p' "$src" | sed -n 1p)
	if [ -n "$need" ] && [ "$need" -gt "$ngpus" ]; then
		echo "SKIP $name: needs $need GPUs, this machine has $ngpus"
		few=$((few + 1))
		continue
	fi
	first=$(sed -n '1p' "$src")
	want_exit=0
	case $first in
	*"[simt-only]"*)
		skipped=$((skipped + 1))
		continue
		;;
	*"// expect:"*)
		want_exit=$(printf '%s\n' "$first" | sed -n 's/.*exit=\([0-9]*\).*/\1/p')
		[ -n "$want_exit" ] || want_exit=nonzero
		;;
	esac
	# programs using cuBLAS or NCCL link the real libraries (on simt
	# they are in the simt library)
	libs=
	grep -q '^#include <cublas' "$src" && libs="-lcublas -lcublasLt"
	grep -qE '#include [<"](nccl|nccl_check)\.h[>"]' "$src" && libs="$libs -lnccl"
	# shellcheck disable=SC2086
	if ! "$NVCC" -lineinfo -arch=native -std=c++17 -I"$dir" "$src" -o "$out/$name" \
		$libs >"$out/$name.log" 2>&1; then
		echo "FAIL $name: does not build"
		sed 's/^/    | /' "$out/$name.log" | head -12
		failed=$((failed + 1))
		continue
	fi
	timeout "$TIMEOUT" "$out/$name" >"$out/$name.out" 2>&1 </dev/null
	rc=$?
	if [ "$want_exit" = nonzero ] && [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] ||
		[ "$want_exit" = "$rc" ]; then
		echo "PASS $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name: exit status $rc, expected $want_exit"
		sed 's/^/    | /' "$out/$name.out" | head -12
		failed=$((failed + 1))
	fi
done
echo "gpu: $passed passed, $failed failed, $skipped skipped (simt-only), $few skipped (too few GPUs)"
[ "$failed" -eq 0 ]
