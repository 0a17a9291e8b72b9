#!/bin/sh
# Tests the statistics and the scoring of tests/model on examples worked
# out by hand.  Needs only awk.

set -u
dir=$(dirname "$0")
# the checks set these themselves where they need them
unset MODEL_MIRROR MODEL_GIT_URL MODEL_FILTER MODEL_SOURCES
tmp=${TMPDIR:-/tmp}/cudalab-model-test.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/demo" || exit 1
passed=0
failed=0

check() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
	else
		echo "FAIL $1: got '$2', expected '$3'"
		failed=$((failed + 1))
	fi
}

stat() {
	awk -f "$dir/stats.awk" -f /dev/stdin <<EOF
BEGIN { $1 }
EOF
}

# Medians: odd count, even count (mean of the middle two), none.
check "median of 3 1 2" "$(stat 'a[1]=3; a[2]=1; a[3]=2; print stats_median(a, 3)')" 2
check "median of 4 1 3 2" "$(stat 'a[1]=4; a[2]=1; a[3]=3; a[4]=2; print stats_median(a, 4)')" 2.5
check "median of 10 -5" "$(stat 'a[1]=10; a[2]=-5; print stats_median(a, 2)')" 2.5
check "median of nothing" "$(stat 'print "[" stats_median(a, 0) "]"')" "[]"

# Spearman with ties on both sides.  x = 1 2 2 4 5 ranks 1 2.5 2.5 4 5,
# y = 10 30 20 40 40 ranks 1 3 2 4.5 4.5; both rank means are 3, the
# deviations -2 -.5 -.5 1 2 and -2 0 -1 1.5 1.5 give sxy = 9, sxx = syy =
# 9.5, so rho = 9 / 9.5 = 18/19 = 0.947368...
check "spearman with ties" "$(stat 'split("1 2 2 4 5", x, " "); split("10 30 20 40 40", y, " ");
	printf "%.6f", stats_spearman(x, y, 5)')" 0.947368
check "ranks with ties" "$(stat 'split("1 2 2 4 5", x, " "); stats_ranks(x, 5, r);
	print r[1], r[2], r[3], r[4], r[5]')" "1 2.5 2.5 4 5"
check "spearman reversed" "$(stat 'split("1 2 3", x, " "); split("30 20 10", y, " ");
	printf "%.6f", stats_spearman(x, y, 3)')" -1.000000
check "spearman constant" "$(stat 'split("1 2 3", x, " "); split("7 7 7", y, " ");
	print "[" stats_spearman(x, y, 3) "]"')" "[]"
check "spearman of one" "$(stat 'x[1]=1; y[1]=2; print "[" stats_spearman(x, y, 1) "]"')" "[]"
check "ape" "$(stat 'print stats_ape(200, 150), stats_ape(200, 250), stats_ape(309, 309)')" "25 25 0"

# Scoring a small table.  Row a: 80 us against 100 us, 20%.  Row b: two
# launches of 40 + 60 us doing 1e6 flops, 1e6 / 100e-6 s = 10 GFLOPS,
# 0%.  Row c: 1e6 bytes in 25 us = 40 GB/s against 50, 20%.  Row d ran
# for the wrong device, row e has one of its two launches, row f failed.
# Table on h100-sxm: APEs 20 0 20, median 20; published 100 10 50 and
# predicted 80 10 40 rank alike, Spearman 1.  Overall 3 of 6, median 20.
tab=$(printf '\t')
cat >"$tmp/demo/table.tsv" <<EOF
kernel${tab}gpu${tab}size${tab}published${tab}unit${tab}flops${tab}bytes${tab}match${tab}launches${tab}note
# a comment
a${tab}h100-sxm${tab}64${tab}100${tab}us${tab}-${tab}-${tab}^ka\$${tab}1${tab}
b${tab}h100-sxm${tab}64${tab}10.0${tab}GFLOPS${tab}1000000${tab}-${tab}^kb<${tab}2${tab}
c${tab}h100-sxm${tab}64${tab}50${tab}GBps${tab}-${tab}1000000${tab}^kc\$${tab}1${tab}
d${tab}h100-sxm${tab}64${tab}5${tab}ms${tab}-${tab}-${tab}^kd\$${tab}1${tab}
e${tab}h100-sxm${tab}64${tab}5${tab}ms${tab}-${tab}-${tab}^ke\$${tab}2${tab}
f${tab}a100-sxm${tab}64${tab}5${tab}ms${tab}-${tab}-${tab}^kf\$${tab}1${tab}
EOF
cat >"$tmp/preds.tsv" <<EOF
demo${tab}3${tab}launch${tab}ka${tab}80${tab}h100-sxm
demo${tab}4${tab}launch${tab}kb<float>${tab}40${tab}h100-sxm
demo${tab}4${tab}launch${tab}other${tab}1000${tab}h100-sxm
demo${tab}4${tab}launch${tab}kb<int>${tab}60${tab}h100-sxm
demo${tab}5${tab}launch${tab}kc${tab}25${tab}h100-sxm
demo${tab}6${tab}launch${tab}kd${tab}25${tab}a100-sxm
demo${tab}7${tab}launch${tab}ke${tab}25${tab}h100-sxm
demo${tab}8${tab}error${tab}exit status 1: out of memory
EOF
out=$(awk -f "$dir/stats.awk" -f "$dir/score.awk" "$tmp/preds.tsv" "$tmp/demo/table.tsv")
rc=$?
row() {
	printf '%s\n' "$out" | awk -v k="$1" '$2 == "demo" && $4 == k' |
		awk '{ $1 = $1; print }' | sed 's/^model: demo //'
}
check "score a" "$(row a)" "h100-sxm a 64 100 us 80 us 20.0%"
check "score b" "$(row b)" "h100-sxm b 64 10.0 GFLOPS 10 GFLOPS 0.0%"
check "score c" "$(row c)" "h100-sxm c 64 50 GBps 40 GBps 20.0%"
check "score d" "$(row d)" "h100-sxm d 64 5 ms no prediction: predicted for a100-sxm, not h100-sxm"
check "score e" "$(row e)" "h100-sxm e 64 5 ms no prediction: 1 launches match /^ke$/, expected 2"
check "score f" "$(row f)" "a100-sxm f 64 5 ms no prediction: exit status 1: out of memory"
check "score table" "$(printf '%s\n' "$out" | grep 'table demo on h100-sxm')" \
	"model: table demo on h100-sxm: 3 of 5 rows predicted, median APE 20.0%, Spearman 1.000"
check "score overall" "$(printf '%s\n' "$out" | grep 'overall')" \
	"model: overall: 3 of 6 rows predicted, median APE 20.0%"
check "score exit" "$rc" 1

# A malformed row is named by file and line.
printf 'x%sh100-sxm%s1%s1%sfurlongs%s-%s-%sx%s1%s\n' "$tab" "$tab" "$tab" "$tab" \
	"$tab" "$tab" "$tab" "$tab" "$tab" >>"$tmp/demo/table.tsv"
out=$(awk -f "$dir/stats.awk" -f "$dir/score.awk" "$tmp/preds.tsv" "$tmp/demo/table.tsv")
check "bad unit" "$(printf '%s\n' "$out" | grep furlongs)" \
	"model: $tmp/demo/table.tsv:9: unknown unit 'furlongs' (us, ms, ns, GFLOPS, TFLOPS, GBps)"

# fetch.sh on a repository of two commits made here: a.cu holds "one",
# then "two".  A pin on the first puts "one" in upstream/; an edited tree
# is fetched again; a pin moved to the second gives "two"; a commit the
# repository lacks, or a repository the mirror lacks, is named while the
# other source is still fetched; the same comes from a clone by URL.
if command -v git >/dev/null 2>&1; then
	g="git -c user.name=model -c user.email=model@example.org -c init.defaultBranch=main"
	$g init -q "$tmp/repo" && echo one >"$tmp/repo/a.cu" && $g -C "$tmp/repo" add a.cu &&
		$g -C "$tmp/repo" commit -q -m one && echo two >"$tmp/repo/a.cu" &&
		$g -C "$tmp/repo" commit -q -a -m two || exit 1
	one=$(git -C "$tmp/repo" rev-parse HEAD~1)
	two=$(git -C "$tmp/repo" rev-parse HEAD)
	mkdir -p "$tmp/mirror" "$tmp/url/someone" "$tmp/pinned/k" || exit 1
	git clone -q --bare "$tmp/repo" "$tmp/mirror/someone+kernels" || exit 1
	ln -s "$tmp/mirror/someone+kernels" "$tmp/url/someone/kernels"
	fetch() {
		MODEL_SOURCES=$tmp/pinned sh "$dir/fetch.sh" >"$tmp/fetch.out" 2>&1
		echo "$?"
	}
	echo "someone/kernels $one" >"$tmp/pinned/k/pin"
	check "fetch" "$(MODEL_MIRROR=$tmp/mirror fetch) $(cat "$tmp/pinned/k/upstream/a.cu")" "0 one"
	echo edited >"$tmp/pinned/k/upstream/a.cu"
	check "fetch an edited tree" "$(MODEL_MIRROR=$tmp/mirror fetch) $(cat "$tmp/pinned/k/upstream/a.cu")" "0 one"
	echo "someone/kernels $two" >"$tmp/pinned/k/pin"
	check "fetch a new pin" "$(MODEL_MIRROR=$tmp/mirror fetch) $(cat "$tmp/pinned/k/upstream/a.cu")" "0 two"
	mkdir -p "$tmp/pinned/bad" "$tmp/pinned/gone" || exit 1
	echo "someone/kernels 0123456789012345678901234567890123456789" >"$tmp/pinned/bad/pin"
	echo "someone/other $one" >"$tmp/pinned/gone/pin"
	rm -rf "$tmp/pinned/k/upstream"
	check "fetch with failures" "$(MODEL_MIRROR=$tmp/mirror fetch) $(cat "$tmp/pinned/k/upstream/a.cu")" "1 two"
	check "fetch names a missing commit" "$(grep 'bad:' "$tmp/fetch.out")" \
		"model: bad: not fetched: someone/kernels has no commit 0123456789012345678901234567890123456789"
	check "fetch names a missing repository" "$(grep 'gone:' "$tmp/fetch.out")" \
		"model: gone: not fetched: no repository $tmp/mirror/someone+other in MODEL_MIRROR"
	rm -rf "$tmp/pinned/bad" "$tmp/pinned/gone" "$tmp/pinned/k/upstream"
	echo "someone/kernels $one" >"$tmp/pinned/k/pin"
	check "fetch by clone" "$(MODEL_GIT_URL=file://$tmp/url fetch) $(cat "$tmp/pinned/k/upstream/a.cu")" "0 one"
	echo "someone/kernels $one extra" >"$tmp/pinned/k/pin"
	check "fetch a bad pin" "$(fetch) $(sed -n 1p "$tmp/fetch.out")" \
		"1 model: k: not fetched: $tmp/pinned/k/pin:1: expected 'OWNER/NAME COMMIT' with a 40-digit commit"
else
	echo "SKIP fetch.sh (no git)"
fi

# run.sh end to end, when nvcc and simt are at hand: a driver of our own
# stands in for the model by printing prediction lines itself (the form
# simt prints) for a device simt has no file for, so simt predicts nothing
# and the build, the run, the collection and the sum of two launches into
# one call are exercised.  Row k: 30 + 20 us = 50 us against 40 us
# published, 25%.  Row q: the driver fails, and simt's last word names the
# devices of the tree's devices/, which run.sh points it at.  The same
# driver pinned to a repository never fetched is not built.  Then the
# driver printing no prediction makes run.sh say so and exit 2.
BUILD=${BUILD:-build}
NVCC=${NVCC:-}
if [ -n "$NVCC" ] && [ -f "$BUILD/libcudalab-simt.a" ]; then
	src=$tmp/sources/fake
	mkdir -p "$src" || exit 1
	cat >"$src/table.tsv" <<EOF
kernel${tab}gpu${tab}size${tab}published${tab}unit${tab}flops${tab}bytes${tab}match${tab}launches${tab}note
k${tab}nosuch${tab}32${tab}40${tab}us${tab}-${tab}-${tab}^fill<[12]>\$${tab}2${tab}
q${tab}nosuch${tab}32${tab}40${tab}us${tab}-${tab}-${tab}^fill<[12]>\$${tab}2${tab}
EOF
	cat >"$src/driver.cu" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include <cstring>
template <int V> __global__ void fill(int *p) { p[threadIdx.x] = V; }
int main(int argc, char **argv)
{
	if (strcmp(argv[argc - 1], "q") == 0)
		return 3;
	int *p;
	cudaMalloc(&p, 32 * sizeof(int));
	fill<1><<<1, 32>>>(p);
	fill<2><<<1, 32>>>(p);
	cudaDeviceSynchronize();
	if (getenv("FAKE_PREDICT")) {
		fprintf(stderr, "simt: predict: fill<1><<<(1,1,1),(32,1,1)>>> 30.0 us on nosuch (model estimate)\n");
		fprintf(stderr, "simt: predict:   limited by nothing\n");
		fprintf(stderr, "simt: predict: fill<2><<<(1,1,1),(32,1,1)>>> 20 us on nosuch (model estimate)\n");
	}
	return 0;
}
EOF
	# the same driver pinned to a repository never fetched
	mkdir -p "$tmp/sources/unfetched" || exit 1
	cp "$src/driver.cu" "$src/table.tsv" "$tmp/sources/unfetched/" || exit 1
	echo "someone/kernels 0123456789012345678901234567890123456789" >"$tmp/sources/unfetched/pin"
	out=$(FAKE_PREDICT=1 MODEL_SOURCES=$tmp/sources BUILD=$BUILD NVCC=$NVCC \
		sh "$dir/run.sh" 2>&1)
	rc=$?
	check "run unfetched" "$(printf '%s\n' "$out" | grep -c ' unfetched .* no prediction: someone/kernels at 0123456789012345678901234567890123456789 is not in ')" 2
	check "run k" "$(printf '%s\n' "$out" | grep ' fake .* k ' | awk '{ $1 = $1; print }')" \
		"model: fake nosuch k 32 40 us 50 us 25.0%"
	check "run q" "$(printf '%s\n' "$out" | grep ' fake .* q ' | awk '{ $1 = $1; print }' |
		sed 's/(known: [a-z0-9-]* .*/(known: ...)/')" \
		"model: fake nosuch q 32 40 us no prediction: exit status 3: simt: predict: no device file 'nosuch.gpu' (known: ...)"
	check "run exit" "$rc" 1
	rm -rf "$tmp/sources/unfetched"
	out=$(MODEL_SOURCES=$tmp/sources BUILD=$BUILD NVCC=$NVCC sh "$dir/run.sh" 2>&1)
	rc=$?
	check "run without model" "$(printf '%s\n' "$out" | sed -n 1p)" \
		"model: no predictions: simt printed no 'simt: predict:' lines"
	check "run without model exit" "$rc" 2
else
	echo "SKIP run.sh end to end (no nvcc or $BUILD/libcudalab-simt.a)"
fi

echo "model-stats: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
