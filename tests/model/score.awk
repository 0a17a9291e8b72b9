# Scores simt's predicted kernel times against published measurements.
# Needs stats.awk:
#     awk -f stats.awk -f score.awk PREDICTIONS TABLE.tsv...
#
# PREDICTIONS, written by run.sh, has one tab-separated record per
# predicted launch or per row that produced none:
#     SOURCE  ROW  launch  NAME  MICROSECONDS  DEVICE
#     SOURCE  ROW  error   REASON
# where SOURCE is the name of a table's folder and ROW the line number of
# the row in its table.tsv.  Each TABLE.tsv (format in run.sh) is read
# after it.
#
# Prints one line per row (published against predicted, in the published
# unit, with the absolute percentage error), then per table and GPU the
# median APE and Spearman's rank correlation, then the overall median APE.
# Exits 1 when a row has no prediction or a table is malformed, 0
# otherwise: the errors are measured, not judged.

BEGIN {
	FS = "\t"
	ntab = 0
	nall = 0
	nrows = 0
	bad = 0
	unit_ok["us"] = unit_ok["ms"] = unit_ok["ns"] = "time"
	unit_ok["GFLOPS"] = unit_ok["TFLOPS"] = "flops"
	unit_ok["GBps"] = "bytes"
	nneed = split("kernel gpu size published unit match launches", need, " ")
	printf "model: %-16s %-10s %-14s %-15s %16s %16s %8s\n", "source", "gpu",
		"kernel", "size", "published", "predicted", "APE"
}

FNR == 1 {
	source = FILENAME
	sub(/\/table\.tsv$/, "", source)
	sub(/.*\//, "", source)
}

# The predictions (which may be empty: no line of theirs need come first).
FILENAME == ARGV[1] {
	key = $1 SUBSEP $2
	if ($3 == "launch") {
		n = ++nlaunch[key]
		lname[key, n] = $4
		lus[key, n] = $5
		ldev[key, n] = $6
	} else if ($3 == "error")
		lerror[key] = $4
	next
}

# A table: the header names the columns.
FNR == 1 {
	split("", col)
	for (i = 1; i <= NF; i++)
		col[$i] = i
	for (i = 1; i <= nneed; i++)
		if (!(need[i] in col))
			table_error("no column '" need[i] "' in the header")
	next
}

/^#/ || /^[ \t]*$/ { next }

{ score_row() }

END {
	if (nrows == 0 && bad == 0) {
		print "model: no table rows"
		exit 1
	}
	for (t = 1; t <= ntab; t++)
		summarise_table(t)
	printf "model: overall: %d of %d rows predicted", nall, nrows
	if (nall > 0)
		printf ", median APE %.1f%%", stats_median(all_ape, nall)
	printf "\n"
	exit (bad > 0 || nall < nrows)
}

function table_error(msg) {
	printf "model: %s:%d: %s\n", FILENAME, FNR, msg
	bad++
}

function field(name) {
	return (name in col) ? $(col[name]) : ""
}

# score_row(): scores the current line of a table.
function score_row(    key, gpu, kernel, unit, kind, pub, work, re, want, n,
                       i, got, us, pred, why, t) {
	gpu = field("gpu")
	kernel = field("kernel")
	unit = field("unit")
	pub = field("published")
	re = field("match")
	want = field("launches")
	if (!(unit in unit_ok)) {
		table_error("unknown unit '" unit "' (us, ms, ns, GFLOPS, TFLOPS, GBps)")
		return
	}
	kind = unit_ok[unit]
	work = (kind == "time") ? 0 : field(kind)
	if (pub !~ /^[0-9]+(\.[0-9]+)?$/ || pub + 0 <= 0) {
		table_error("published value '" pub "' is not a positive number")
		return
	}
	if (kind != "time" && (work !~ /^[0-9]+$/ || work + 0 <= 0)) {
		table_error("a row in " unit " needs its " kind " per call, not '" work "'")
		return
	}
	if (want !~ /^[1-9][0-9]*$/ || re == "") {
		table_error("a row needs a 'match' regex and a launch count, not '" re "' and '" want "'")
		return
	}
	nrows++
	key = source SUBSEP FNR
	us = 0
	got = 0
	why = lerror[key]
	for (i = 1; i <= nlaunch[key] && why == ""; i++) {
		if (lname[key, i] !~ re)
			continue
		if (ldev[key, i] != gpu)
			why = "predicted for " ldev[key, i] ", not " gpu
		got++
		us += lus[key, i]
	}
	if (why == "" && got != want)
		why = sprintf("%d launches match /%s/, expected %d", got, re, want)
	if (why == "" && us <= 0)
		why = "a predicted time of 0"
	t = table_of(source, gpu)
	tab_rows[t]++
	if (why != "") {
		printf "model: %-16s %-10s %-14s %-15s %9s %-6s no prediction: %s\n",
			source, gpu, kernel, field("size"), pub, unit, why
		return
	}
	pred = convert(us, unit, work)
	n = ++tab_n[t]
	tab_pub[t, n] = pub
	tab_pred[t, n] = pred
	tab_ape[t, n] = stats_ape(pub, pred)
	all_ape[++nall] = tab_ape[t, n]
	printf "model: %-16s %-10s %-14s %-15s %9s %-6s %9.4g %-6s %7.1f%%\n",
		source, gpu, kernel, field("size"), pub, unit, pred, unit, tab_ape[t, n]
}

# convert(us, unit, work): a time of us microseconds for one call in unit,
# the call doing work flops or bytes.
function convert(us, unit, work) {
	if (unit == "us")
		return us
	if (unit == "ms")
		return us / 1e3
	if (unit == "ns")
		return us * 1e3
	if (unit == "GFLOPS" || unit == "GBps")
		return work / (us * 1e3)
	return work / (us * 1e6)	# TFLOPS
}

# table_of(source, gpu): the index of the (source, gpu) table, made on first
# sight so the summary keeps the order of the files.
function table_of(s, g,    k) {
	k = s SUBSEP g
	if (!(k in tab_index)) {
		tab_index[k] = ++ntab
		tab_name[ntab] = s " on " g
	}
	return tab_index[k]
}

function summarise_table(t,    n, i, ape, pub, pred, rho) {
	n = tab_n[t] + 0
	printf "model: table %s: %d of %d rows predicted", tab_name[t], n, tab_rows[t]
	if (n == 0) {
		printf "\n"
		return
	}
	for (i = 1; i <= n; i++) {
		ape[i] = tab_ape[t, i]
		pub[i] = tab_pub[t, i]
		pred[i] = tab_pred[t, i]
	}
	rho = stats_spearman(pub, pred, n)
	printf ", median APE %.1f%%, Spearman %s\n", stats_median(ape, n),
		rho == "" ? "n/a" : sprintf("%.3f", rho)
}
