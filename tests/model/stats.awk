# Statistics for the model's validation, as awk functions (POSIX awk, no
# gawk extensions), loaded with `awk -f stats.awk -f PROGRAM.awk`.
#
# Arrays are 1-based with their length passed beside them; no function
# changes the array it is given.

# stats_sort(a, n, out): copies a[1..n] into out[1..n] in increasing order
# (insertion sort: the tables hold tens of rows).
function stats_sort(a, n, out,    i, j, v) {
	for (i = 1; i <= n; i++) {
		v = a[i] + 0
		for (j = i - 1; j >= 1 && out[j] > v; j--)
			out[j + 1] = out[j]
		out[j + 1] = v
	}
}

# stats_median(a, n): the median of a[1..n], the mean of the two middle
# values when n is even; "" when n is 0.
function stats_median(a, n,    s, m) {
	if (n < 1)
		return ""
	stats_sort(a, n, s)
	m = int((n + 1) / 2)
	if (n % 2)
		return s[m]
	return (s[m] + s[m + 1]) / 2
}

# stats_ranks(a, n, r): r[i] is the rank of a[i] among a[1..n], 1 for the
# smallest; tied values share the mean of the ranks they span.
function stats_ranks(a, n, r,    i, j, below, equal) {
	for (i = 1; i <= n; i++) {
		below = 0
		equal = 0
		for (j = 1; j <= n; j++) {
			if (a[j] + 0 < a[i] + 0)
				below++
			else if (a[j] + 0 == a[i] + 0)
				equal++
		}
		r[i] = below + (equal + 1) / 2
	}
}

# stats_pearson(x, y, n): the Pearson correlation of x[1..n] and y[1..n];
# "" when n < 2 or either series is constant (no correlation is defined).
function stats_pearson(x, y, n,    i, mx, my, sxy, sxx, syy, dx, dy) {
	if (n < 2)
		return ""
	mx = 0
	my = 0
	for (i = 1; i <= n; i++) {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	sxy = 0
	sxx = 0
	syy = 0
	for (i = 1; i <= n; i++) {
		dx = x[i] - mx
		dy = y[i] - my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if (sxx == 0 || syy == 0)
		return ""
	return sxy / sqrt(sxx * syy)
}

# stats_spearman(x, y, n): Spearman's rank correlation of the pairs
# (x[i], y[i]): the Pearson correlation of their ranks, ties taking mean
# ranks; "" where stats_pearson gives none.
function stats_spearman(x, y, n,    rx, ry) {
	stats_ranks(x, n, rx)
	stats_ranks(y, n, ry)
	return stats_pearson(rx, ry, n)
}

# stats_ape(published, predicted): the absolute percentage error of
# predicted against published (which must not be 0).
function stats_ape(published, predicted,    d) {
	d = predicted - published
	if (d < 0)
		d = -d
	return 100 * d / published
}
