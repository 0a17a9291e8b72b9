#!/bin/sh
# Checks device files against devices/FORMAT.md: every key line cites a source
# declared earlier in the file, every declared source is cited, every required key is
# present once, no key is unknown, values parse, arch agrees with cc, and the
# shared-memory carveouts end at the largest carveout.
#
# usage: sh devices/check.sh [FILE.gpu ...]   (default: every devices/*.gpu)
# Prints FILE:LINE: MESSAGE for each problem; exits 1 if there was any.

LC_ALL=C
export LC_ALL
dir=$(dirname "$0")
if [ "$#" -eq 0 ]; then
	set -- "$dir"/*.gpu
fi

status=0
for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "$f: no such file" >&2
		status=1
		continue
	fi
	awk -v file="$f" '
function err(line, msg) {
	printf "%s:%s: %s\n", file, line, msg
	bad = 1
}
function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}
function is_number(s) {
	return s ~ /^-?[0-9]+(\.[0-9]+)?$/
}
BEGIN {
	# kind: n = number, l = list of numbers, t = text, a = arch.
	# Required keys get r, optional keys o.
	split("name:t:r arch:a:r cc:n:r " \
	      "sms:n:r clock_mhz:n:r schedulers_per_sm:n:r " \
	      "max_threads_per_sm:n:r max_blocks_per_sm:n:r max_threads_per_block:n:r " \
	      "regs_per_sm:n:r max_regs_per_thread:n:r reg_alloc_unit:n:r " \
	      "shared_per_sm_kb:n:r shared_per_block_kb:n:r shared_reserved_per_block:n:r " \
	      "shared_alloc_unit:n:r l1_shared_kb:n:r shared_carveouts_kb:l:r " \
	      "tp_fp16:n:r tp_fp32:n:r tp_fp64:n:r tp_sfu:n:r tp_int_add:n:r " \
	      "tp_int_mul:n:r tp_shift:n:r tp_compare:n:r tp_logic:n:r tp_bitrev:n:r " \
	      "tp_popc:n:r tp_clz:n:r tp_shfl:n:r tp_redux:n:r tp_conv:n:r " \
	      "tp_conv64:n:r tp_conv_small:n:r " \
	      "tc_fp16_f32acc:n:r tc_fp16_f16acc:n:r tc_bf16:n:r tc_tf32:n:r " \
	      "tc_fp8:n:r tc_int8:n:r tc_fp64:n:r " \
	      "lat_fma:n:r lat_alu:n:r lat_imad:n:r lat_fp64:n:r lat_sfu:n:r " \
	      "lat_conv:n:r lat_shfl:n:o lat_shared:n:r lat_l1:n:r lat_l2:n:r " \
	      "lat_dram:n:r lat_tensor:n:r lat_barrier:n:o lat_atomic_shared:n:o " \
	      "lat_atomic_global:n:r " \
	      "sector_bytes:n:r line_bytes:n:r l1_bytes_per_clk:n:r " \
	      "shared_bytes_per_clk:n:r shared_banks:n:r l2_kb:n:r l2_gbps:n:r " \
	      "dram_gbps:n:r dram_gbps_measured:n:r atomic_same_addr_per_clk:n:o " \
	      "atomic_l2_per_clk:n:o ldst_per_sm:n:o " \
	      "launch_us:n:o launch_host_us:n:o pcie_gbps:n:r pcie_latency_us:n:r " \
	      "pageable_gbps:n:o nvlink_gbps:n:r nvlink_latency_us:n:o copy_engines:n:r",
	      spec, " ")
	for (i in spec) {
		split(spec[i], p, ":")
		kind[p[1]] = p[2]
		need[p[1]] = p[3]
	}
}
/^[ \t]*#/ || /^[ \t]*$/ { next }
/^source[ \t]/ {
	line = $0
	sub(/^source[ \t]+/, "", line)
	eq = index(line, "=")
	id = trim(substr(line, 1, eq - 1))
	text = trim(substr(line, eq + 1))
	if (eq == 0 || id !~ /^[a-z0-9_]+$/ || text == "")
		err(NR, "a source line is: source ID = TEXT, ID of a-z 0-9 _")
	else if (id in declared)
		err(NR, "source " id " is declared twice (first on line " declared[id] ")")
	else
		declared[id] = NR
	next
}
{
	line = $0
	eq = index(line, "=")
	key = trim(substr(line, 1, eq - 1))
	rest = substr(line, eq + 1)
	if (eq == 0 || key !~ /^[a-z0-9_]+$/) {
		err(NR, "not a comment, a source line or a key = value [source] line")
		next
	}
	if (!(key in kind)) {
		err(NR, "unknown key " key)
		next
	}
	if (key in seen) {
		err(NR, "key " key " given twice (first on line " seen[key] ")")
		next
	}
	seen[key] = NR
	rest = trim(rest)
	open = index(rest, "[")
	if (open == 0 || rest !~ /\]$/) {
		err(NR, key ": the value has no citation in [ ] at the end of the line")
		next
	}
	value = trim(substr(rest, 1, open - 1))
	cite = substr(rest, open + 1, length(rest) - open - 1)
	if (cite ~ /[][]/) {
		err(NR, key ": a citation may not contain [ or ]")
		next
	}
	comma = index(cite, ",")
	id = trim(comma ? substr(cite, 1, comma - 1) : cite)
	if (id == "")
		err(NR, key ": the citation names no source")
	else if (!(id in declared))
		err(NR, key ": cites " id ", which is not declared above")
	else
		cited[id] = 1
	check_value(key, value)
}
function check_value(key, value,    n, v, i) {
	if (value == "") {
		err(NR, key ": no value")
		return
	}
	if (kind[key] == "n") {
		if (!is_number(value))
			err(NR, key ": " value " is not a number")
		else
			num[key] = value + 0
	} else if (kind[key] == "l") {
		n = split(value, v, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			if (!is_number(v[i])) {
				err(NR, key ": " v[i] " is not a number")
				return
			}
			if (i > 1 && v[i] + 0 <= v[i - 1] + 0) {
				err(NR, key ": the list must be ascending")
				return
			}
		}
		last_carveout = v[n] + 0
	} else if (kind[key] == "a") {
		if (value !~ /^sm_[0-9][0-9][0-9]?$/)
			err(NR, key ": " value " is not sm_ and two or three digits")
		else
			arch = value
	}
}
END {
	for (k in need)
		if (need[k] == "r" && !(k in seen))
			err(NR, "required key " k " is missing")
	for (id in declared)
		if (!(id in cited))
			err(declared[id], "source " id " is declared but never cited")
	if (arch != "" && ("cc" in num)) {
		digits = substr(arch, 4)
		want = substr(digits, 1, length(digits) - 1) "." substr(digits, length(digits))
		if (num["cc"] != want + 0)
			err(seen["cc"], "cc " num["cc"] " does not agree with arch " arch)
	}
	if (("shared_per_sm_kb" in num) && ("shared_carveouts_kb" in seen) &&
	    last_carveout != num["shared_per_sm_kb"])
		err(seen["shared_carveouts_kb"],
		    "the largest carveout is not shared_per_sm_kb")
	if (("shared_per_block_kb" in num) && ("shared_per_sm_kb" in num) &&
	    num["shared_per_block_kb"] > num["shared_per_sm_kb"])
		err(seen["shared_per_block_kb"], "shared_per_block_kb exceeds shared_per_sm_kb")
	exit bad
}
' "$f" || status=1
	case $(basename "$f") in
	*[!a-z0-9-]*.gpu | .gpu)
		echo "$f: the file name (the device id) must be a-z 0-9 - followed by .gpu"
		status=1
		;;
	*.gpu) ;;
	*)
		echo "$f: a device file name ends in .gpu"
		status=1
		;;
	esac
done
exit $status
