#!/bin/sh
# The shipped device files pass devices/check.sh (the C parser's own test,
# every_shipped_device_file_loads, reads them too), and check.sh refuses a
# file with an uncited value and one with an unknown key.
set -u
dir=$(dirname "$0")/../..
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

for f in "$dir"/devices/*.gpu; do
	if sh "$dir/devices/check.sh" "$f" >/dev/null; then ok "$(basename "$f")"; else
		bad "$(basename "$f")"; sh "$dir/devices/check.sh" "$f"; fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^sms \(.*\)\[.*\]$/sms \1/' "$dir/devices/h100-sxm.gpu" >"$tmp/uncited.gpu"
if sh "$dir/devices/check.sh" "$tmp/uncited.gpu" >/dev/null 2>&1; then
	bad "an uncited value is refused"; else ok "an uncited value is refused"; fi
printf 'sm_count = 3 [dqh100]\n' | cat "$dir/devices/h100-sxm.gpu" - >"$tmp/unknown.gpu"
if sh "$dir/devices/check.sh" "$tmp/unknown.gpu" >/dev/null 2>&1; then
	bad "an unknown key is refused"; else ok "an unknown key is refused"; fi
echo "devices: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
