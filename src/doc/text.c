/* text.c — styled text buffers, UTF-8, display widths and HTML entities. */
#include "internal.h"

#include "cudalab/util.h"

#include <locale.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* ---- display width ----
 *
 * Widths come from the C library's tables under a UTF-8 locale object, so
 * they agree with what curses measures, without touching the process locale.
 * Where no UTF-8 locale exists, a small table of the common wide and
 * combining ranges stands in. */

static pthread_once_t loc_once = PTHREAD_ONCE_INIT;
static locale_t utf8_loc;
/* widths of the Basic Multilingual Plane, filled once: asking the locale
 * for every character of a CJK text would dominate its layout */
static signed char bmp_width[0x10000];
static atomic_bool widths_ready;

static int fallback_width(uint32_t cp);

static void loc_init(void)
{
	locale_t old;

	utf8_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if (!utf8_loc)
		utf8_loc = newlocale(LC_CTYPE_MASK, "en_US.UTF-8", (locale_t)0);
	if (!utf8_loc) {
		for (uint32_t cp = 0; cp < 0x10000; cp++)
			bmp_width[cp] = (signed char)fallback_width(cp);
		atomic_store_explicit(&widths_ready, true, memory_order_release);
		return;
	}
	old = uselocale(utf8_loc);
	for (uint32_t cp = 0; cp < 0x10000; cp++) {
		int w = wcwidth((wchar_t)cp);
		bmp_width[cp] = (signed char)(w < 0 ? 1 : w);
	}
	uselocale(old);
	atomic_store_explicit(&widths_ready, true, memory_order_release);
}

struct cp_range {
	uint32_t lo, hi;
};

static const struct cp_range zero_ranges[] = {
	{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
	{0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x1AB0, 0x1AFF},
	{0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x20D0, 0x20FF}, {0xFE00, 0xFE0F},
	{0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
};

static const struct cp_range wide_ranges[] = {
	{0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},
	{0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
	{0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE30, 0xFE4F},
	{0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
	{0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool in_ranges(uint32_t cp, const struct cp_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cp >= r[i].lo && cp <= r[i].hi)
			return true;
	return false;
}

static int fallback_width(uint32_t cp)
{
	if (in_ranges(cp, zero_ranges, sizeof zero_ranges / sizeof *zero_ranges))
		return 0;
	if (in_ranges(cp, wide_ranges, sizeof wide_ranges / sizeof *wide_ranges))
		return 2;
	return 1;
}

static int astral_width(uint32_t cp)
{
	locale_t old;
	int w;

	if (!utf8_loc)
		return fallback_width(cp);
	old = uselocale(utf8_loc);
	w = wcwidth((wchar_t)cp);
	uselocale(old);
	return w < 0 ? 1 : w;
}

static inline int cp_width(uint32_t cp)
{
	if (cp < 0x7F)
		return cp >= 0x20 ? 1 : 0;
	if (cp < 0xA0)
		return 1; /* C1 controls never reach a layout; count them visibly */
	if (!atomic_load_explicit(&widths_ready, memory_order_acquire))
		pthread_once(&loc_once, loc_init);
	return cp < 0x10000 ? bmp_width[cp] : astral_width(cp);
}

int doc_cp_width(uint32_t cp)
{
	return cp_width(cp);
}

uint32_t doc_cp_lower(uint32_t cp)
{
	if (cp < 0x80)
		return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
	pthread_once(&loc_once, loc_init);
	if (!utf8_loc)
		return cp;
	return (uint32_t)towlower_l((wint_t)cp, utf8_loc);
}

/* ---- UTF-8 ---- */

uint32_t doc_utf8_decode(const char *s, size_t len, size_t *adv)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp, min;
	size_t n, i;

	*adv = 1;
	if (u[0] < 0x80)
		return u[0];
	if (u[0] >= 0xC2 && u[0] <= 0xDF) {
		n = 2, cp = u[0] & 0x1F, min = 0x80;
	} else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
		n = 3, cp = u[0] & 0x0F, min = 0x800;
	} else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
		n = 4, cp = u[0] & 0x07, min = 0x10000;
	} else {
		return 0xFFFD;
	}
	if (len < n)
		return 0xFFFD;
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return 0xFFFD;
		cp = (cp << 6) | (u[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0xFFFD;
	*adv = n;
	return cp;
}

size_t doc_utf8_encode(uint32_t cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp >= 0xD800 && cp <= 0xDFFF)
		cp = 0xFFFD;
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	if (cp > 0x10FFFF)
		return doc_utf8_encode(0xFFFD, out);
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t doc_cluster(const char *s, size_t pos, size_t end, int *w)
{
	unsigned char c = (unsigned char)s[pos];
	size_t adv, p;

	if (c < 0x80) {
		*w = c >= 0x20 && c != 0x7F ? 1 : 0;
		p = pos + 1;
	} else {
		*w = cp_width(doc_decode(s + pos, end - pos, &adv));
		p = pos + adv;
	}
	while (p < end && (unsigned char)s[p] >= 0x80) {
		uint32_t cp = doc_decode(s + p, end - p, &adv);
		if (cp_width(cp) != 0)
			break;
		p += adv;
	}
	return p;
}

int doc_text_width(const char *s, size_t len)
{
	size_t p = 0, q;
	int w, total = 0;

	while (p < len) {
		/* a run of printable ASCII, less its last character, which
		 * may carry combining marks */
		for (q = p; q < len && (unsigned char)s[q] >= 0x20 && (unsigned char)s[q] < 0x7F; q++)
			;
		if (q < len && q > p)
			q--;
		total += (int)(q - p);
		p = q;
		if (p < len) {
			p = doc_cluster(s, p, len, &w);
			total += w;
		}
	}
	return total;
}

/* ---- styled text ---- */

void doc_text_free(struct doc_text *t)
{
	free(t->s);
	free(t->runs);
	memset(t, 0, sizeof *t);
}

static void text_reserve(struct doc_text *t, size_t extra)
{
	xgrow((void **)&t->s, &t->cap, t->len + extra + 1, 1);
}

static void run_extend(struct doc_text *t, size_t n, struct doc_style st,
		       unsigned flags)
{
	struct doc_run *last = t->nruns ? &t->runs[t->nruns - 1] : NULL;

	if (last && last->end == t->len && last->role == st.role &&
	    last->attrs == st.attrs && last->link == st.link &&
	    last->flags == flags) {
		last->end += n;
		return;
	}
	xgrow((void **)&t->runs, &t->runcap, t->nruns + 1, sizeof *t->runs);
	t->runs[t->nruns++] = (struct doc_run){
		.start = t->len,
		.end = t->len + n,
		.role = st.role,
		.attrs = st.attrs,
		.flags = (unsigned char)flags,
		.link = st.link,
	};
}

void doc_text_add(struct doc_text *t, const char *s, size_t n,
		  struct doc_style st, unsigned flags)
{
	if (n == 0)
		return;
	text_reserve(t, n);
	run_extend(t, n, st, flags);
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* Length of the prefix of s that can be copied unchanged. */
static size_t clean_prefix(const char *s, size_t n)
{
	size_t i = 0, adv;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7F) {
			i++;
			continue;
		}
		if (c < 0x80)
			break;
		uint32_t cp = doc_decode(s + i, n - i, &adv);
		if ((cp == 0xFFFD && adv == 1) || (cp >= 0x80 && cp < 0xA0))
			break;
		i += adv;
	}
	return i;
}

void doc_text_add_clean(struct doc_text *t, const char *s, size_t n,
			struct doc_style st, bool keep_newlines)
{
	static const char repl[] = "\xEF\xBF\xBD";
	size_t i = 0, adv;

	while (i < n) {
		size_t k = clean_prefix(s + i, n - i);
		doc_text_add(t, s + i, k, st, 0);
		i += k;
		if (i >= n)
			break;
		switch (s[i]) {
		case '\r':
			break;
		case '\n':
			doc_text_add(t, keep_newlines ? "\n" : " ", 1, st, 0);
			break;
		case '\t':
			doc_text_add(t, " ", 1, st, 0);
			break;
		default:
			doc_text_add(t, repl, 3, st, 0);
			doc_utf8_decode(s + i, n - i, &adv);
			i += adv;
			continue;
		}
		i++;
	}
}

void doc_text_restyle(struct doc_text *t, struct doc_style st)
{
	t->nruns = 0;
	if (t->len == 0)
		return;
	xgrow((void **)&t->runs, &t->runcap, 1, sizeof *t->runs);
	t->runs[0] = (struct doc_run){.start = 0, .end = t->len,
				      .role = st.role, .attrs = st.attrs,
				      .link = st.link};
	t->nruns = 1;
}

size_t doc_text_run_at(const struct doc_text *t, size_t pos)
{
	size_t lo = 0, hi = t->nruns;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->runs[mid].start <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* ---- HTML entities ---- */

struct entity {
	const char *name;
	const char *utf8;
};

/* The entities lesson writers reach for; others stay as written. */
static const struct entity entities[] = {
	{"amp", "&"},	  {"lt", "<"},	      {"gt", ">"},
	{"quot", "\""},	  {"apos", "'"},      {"nbsp", "\xC2\xA0"},
	{"copy", "©"},	  {"reg", "®"},	      {"trade", "™"},
	{"mdash", "—"},	  {"ndash", "–"},     {"hellip", "…"},
	{"laquo", "«"},	  {"raquo", "»"},     {"lsquo", "‘"},
	{"rsquo", "’"},	  {"ldquo", "“"},     {"rdquo", "”"},
	{"larr", "←"},	  {"rarr", "→"},      {"uarr", "↑"},
	{"darr", "↓"},	  {"harr", "↔"},      {"lArr", "⇐"},
	{"rArr", "⇒"},	  {"times", "×"},     {"divide", "÷"},
	{"plusmn", "±"},  {"deg", "°"},	      {"micro", "µ"},
	{"middot", "·"},  {"bull", "•"},      {"sect", "§"},
	{"para", "¶"},	  {"le", "≤"},	      {"ge", "≥"},
	{"ne", "≠"},	  {"asymp", "≈"},     {"approx", "≈"},
	{"infin", "∞"},	  {"minus", "−"},     {"sum", "∑"},
	{"prod", "∏"},	  {"radic", "√"},     {"alpha", "α"},
	{"beta", "β"},	  {"gamma", "γ"},     {"delta", "δ"},
	{"epsilon", "ε"}, {"lambda", "λ"},    {"mu", "μ"},
	{"pi", "π"},	  {"sigma", "σ"},     {"theta", "θ"},
	{"tau", "τ"},	  {"phi", "φ"},	      {"omega", "ω"},
	{"Delta", "Δ"},	  {"Sigma", "Σ"},     {"Omega", "Ω"},
	{"euro", "€"},	  {"pound", "£"},     {"yen", "¥"},
	{"cent", "¢"},	  {"shy", "\xC2\xAD"}, {"ensp", "\xE2\x80\x82"},
	{"emsp", "\xE2\x80\x83"}, {"thinsp", "\xE2\x80\x89"}, {"check", "✓"},
	{"cross", "✗"},
};

static uint32_t parse_number(const char *s, size_t n, int base, bool *ok)
{
	uint32_t v = 0;

	*ok = n > 0 && n <= 8;
	for (size_t i = 0; i < n && *ok; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : 99;
		if (d >= base)
			*ok = false;
		v = v * (uint32_t)base + (uint32_t)d;
	}
	return v;
}

size_t doc_entity_decode(const char *s, size_t n, char out[8])
{
	size_t len;
	bool ok;

	if (n < 3 || s[0] != '&' || s[n - 1] != ';')
		return 0;
	if (s[1] == '#') {
		bool hex = n > 3 && (s[2] == 'x' || s[2] == 'X');
		size_t from = hex ? 3 : 2;
		uint32_t cp = parse_number(s + from, n - 1 - from, hex ? 16 : 10, &ok);
		if (!ok)
			return 0;
		if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
		    cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
			cp = 0xFFFD;
		len = doc_utf8_encode(cp, out);
		out[len] = '\0';
		return len;
	}
	for (size_t i = 0; i < sizeof entities / sizeof *entities; i++) {
		const char *name = entities[i].name;
		if (strlen(name) == n - 2 && memcmp(name, s + 1, n - 2) == 0) {
			len = strlen(entities[i].utf8);
			memcpy(out, entities[i].utf8, len + 1);
			return len;
		}
	}
	return 0;
}
