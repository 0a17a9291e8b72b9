/* highlight.c — small lexers that colour code blocks by role.
 *
 * Each lexer walks the code once and emits tokens in order; whatever lies
 * between tokens stays ROLE_CODE.  They aim at what lessons show (CUDA, C,
 * C++, Python, shell sessions), not at full grammars: an odd construct is
 * coloured plainly, never dropped or altered. */
#include "internal.h"

#include "cudalab/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const c_keywords[] = {
	"NULL", "__constant__", "__device__", "__forceinline__",
	"__global__", "__grid_constant__", "__host__", "__launch_bounds__",
	"__managed__", "__noinline__", "__restrict__", "__shared__",
	"alignas", "alignof", "asm", "auto", "break", "case", "catch",
	"class", "const", "const_cast", "consteval", "constexpr",
	"constinit", "continue", "decltype", "default", "delete", "do",
	"dynamic_cast", "else", "enum", "explicit", "export", "extern",
	"false", "final", "for", "friend", "goto", "if", "inline", "mutable",
	"namespace", "new", "noexcept", "nullptr", "operator", "override",
	"private", "protected", "public", "register", "reinterpret_cast",
	"restrict", "return", "sizeof", "static", "static_assert",
	"static_cast", "struct", "switch", "template", "this",
	"thread_local", "throw", "true", "try", "typedef", "typeid",
	"typename", "union", "using", "virtual", "volatile", "while",
};
static const char *const c_types[] = {
	"FILE", "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162",
	"bool", "char", "char16_t", "char32_t", "char8_t", "cudaDeviceProp",
	"dim3", "double", "float", "half", "int", "long", "nv_bfloat16",
	"short", "signed", "unsigned", "void", "wchar_t",
};
static const char *const c_builtins[] = {
	"__activemask", "__all_sync", "__any_sync", "__ballot_sync", "__clz",
	"__ffs", "__ldg", "__popc", "__shfl_down_sync", "__shfl_sync",
	"__shfl_up_sync", "__shfl_xor_sync", "__syncthreads", "__syncwarp",
	"__threadfence", "__threadfence_block", "__threadfence_system",
	"atomicAdd", "atomicAnd", "atomicCAS", "atomicDec", "atomicExch",
	"atomicInc", "atomicMax", "atomicMin", "atomicOr", "atomicSub",
	"atomicXor", "blockDim", "blockIdx", "free", "gridDim", "malloc",
	"memcpy", "memset", "printf", "threadIdx", "warpSize",
};
static const char *const py_keywords[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "case", "class", "continue", "def", "del", "elif", "else",
	"except", "finally", "for", "from", "global", "if", "import", "in",
	"is", "lambda", "match", "nonlocal", "not", "or", "pass", "raise",
	"return", "try", "while", "with", "yield",
};
static const char *const py_types[] = {
	"Exception", "bool", "bytearray", "bytes", "complex", "dict",
	"float", "frozenset", "int", "list", "memoryview", "object", "set",
	"str", "tuple", "type",
};
static const char *const py_builtins[] = {
	"abs", "all", "any", "cls", "enumerate", "filter", "getattr",
	"hasattr", "isinstance", "issubclass", "iter", "len", "map", "max",
	"min", "next", "open", "print", "range", "repr", "reversed", "round",
	"self", "setattr", "sorted", "sum", "super", "zip",
};
static const char *const sh_keywords[] = {
	"alias", "break", "case", "continue", "declare", "do", "done",
	"elif", "else", "esac", "exit", "export", "fi", "for", "function",
	"if", "in", "local", "readonly", "return", "select", "set", "shift",
	"source", "then", "time", "unset", "until", "while",
};
static const char *const sh_builtins[] = {
	"cd", "echo", "eval", "exec", "false", "kill", "printf", "pwd",
	"read", "test", "trap", "true", "wait",
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- word tables ----
 *
 * Each language's words sit in one small open-addressing table mapping a
 * word to its role, built once: a lookup is a hash and one compare. */

#define KW_SLOTS 512

struct kw_table {
	const char *word[KW_SLOTS];
	unsigned char len[KW_SLOTS];
	unsigned char role[KW_SLOTS];
};

static struct kw_table c_words, py_words, sh_words;
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static unsigned kw_hash(const char *s, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h & (KW_SLOTS - 1);
}

/* Adds words with role; a word already present keeps its first role. */
static void kw_add(struct kw_table *t, const char *const *list, size_t count,
		   int role)
{
	for (size_t i = 0; i < count; i++) {
		size_t n = strlen(list[i]);
		unsigned h = kw_hash(list[i], n);
		while (t->word[h] && strcmp(t->word[h], list[i]) != 0)
			h = (h + 1) & (KW_SLOTS - 1);
		if (t->word[h])
			continue;
		t->word[h] = list[i];
		t->len[h] = (unsigned char)n;
		t->role[h] = (unsigned char)role;
	}
}

static void kw_init(void)
{
	kw_add(&c_words, c_keywords, COUNT(c_keywords), ROLE_KEYWORD);
	kw_add(&c_words, c_types, COUNT(c_types), ROLE_TYPE);
	kw_add(&c_words, c_builtins, COUNT(c_builtins), ROLE_BUILTIN);
	kw_add(&py_words, py_keywords, COUNT(py_keywords), ROLE_KEYWORD);
	kw_add(&py_words, py_types, COUNT(py_types), ROLE_TYPE);
	kw_add(&py_words, py_builtins, COUNT(py_builtins), ROLE_BUILTIN);
	kw_add(&sh_words, sh_keywords, COUNT(sh_keywords), ROLE_KEYWORD);
	kw_add(&sh_words, sh_builtins, COUNT(sh_builtins), ROLE_BUILTIN);
}

/* The role of word s[0,n) in t, or -1. */
static int kw_role(const struct kw_table *t, const char *s, size_t n)
{
	unsigned h;

	if (n == 0 || n > 255)
		return -1;
	for (h = kw_hash(s, n); t->word[h]; h = (h + 1) & (KW_SLOTS - 1))
		if (t->len[h] == n && memcmp(t->word[h], s, n) == 0)
			return t->role[h];
	return -1;
}

/* ---- token output ---- */

struct lex {
	const char *s;
	size_t n;
	size_t done; /* end of the last token emitted */
	struct doc_run *runs;
	size_t nruns, cap;
};

static void add_run(struct lex *lx, size_t a, size_t b, int role)
{
	struct doc_run *last = lx->nruns ? &lx->runs[lx->nruns - 1] : NULL;

	if (a >= b)
		return;
	if (last && last->role == role && last->end == a) {
		last->end = b;
		return;
	}
	xgrow((void **)&lx->runs, &lx->cap, lx->nruns + 1, sizeof *lx->runs);
	lx->runs[lx->nruns++] = (struct doc_run){
		.start = a, .end = b, .role = (unsigned char)role, .link = -1};
}

static void emit(struct lex *lx, size_t a, size_t b, int role)
{
	add_run(lx, lx->done, a, ROLE_CODE);
	add_run(lx, a, b, role);
	lx->done = b;
}

/* ---- shared scanners ---- */

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_alpha(c) || is_digit(c);
}

static size_t line_end(const char *s, size_t i, size_t n)
{
	const char *nl = memchr(s + i, '\n', n - i);

	return nl ? (size_t)(nl - s) : n;
}

static size_t ident_end(const char *s, size_t i, size_t n)
{
	while (i < n && is_alnum(s[i]))
		i++;
	return i;
}

/* A quoted string from its opening quote to the closing one, or to the end
 * of the line when it is unterminated (multiline: to the end of text). */
static size_t quoted_end(const char *s, size_t i, size_t n, char q,
			 bool multiline)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n')
			i++;
		else if (s[i] == q)
			return i + 1;
		else if (s[i] == '\n' && !multiline)
			return i;
	}
	return n;
}

static size_t number_end(const char *s, size_t i, size_t n)
{
	bool hex = s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X');

	for (i++; i < n; i++) {
		char c = s[i], p = s[i - 1];
		if (is_alnum(c) || c == '.' || c == '\'')
			continue;
		if ((c == '+' || c == '-') &&
		    (p == 'p' || p == 'P' || (!hex && (p == 'e' || p == 'E'))))
			continue;
		break;
	}
	return i;
}

static bool starts_number(const char *s, size_t i, size_t n)
{
	return is_digit(s[i]) || (s[i] == '.' && i + 1 < n && is_digit(s[i + 1]));
}

/* ---- C, C++ and CUDA ---- */

/* Vector types such as float4, uchar2, longlong3. */
static bool c_vector_type(const char *s, size_t n)
{
	static const char *const bases[] = {"char", "uchar", "short", "ushort",
					    "int", "uint", "long", "ulong",
					    "longlong", "ulonglong", "float",
					    "double"};

	if (n < 4 || s[n - 1] < '1' || s[n - 1] > '4')
		return false;
	for (size_t i = 0; i < COUNT(bases); i++)
		if (strlen(bases[i]) == n - 1 && memcmp(bases[i], s, n - 1) == 0)
			return true;
	return false;
}

static int c_ident_role(const char *s, size_t n)
{
	int role = kw_role(&c_words, s, n);

	if (role >= 0)
		return role;
	if (c_vector_type(s, n) || (n > 2 && s[n - 2] == '_' && s[n - 1] == 't'))
		return ROLE_TYPE;
	/* the runtime API (cudaMalloc, cudaMemcpyHostToDevice) and intrinsics */
	if (n > 4 && memcmp(s, "cuda", 4) == 0 && s[4] >= 'A' && s[4] <= 'Z')
		return ROLE_BUILTIN;
	if (n > 2 && s[0] == '_' && s[1] == '_')
		return ROLE_BUILTIN;
	return -1;
}

/* A directive runs to the end of its line, continued by backslashes, and
 * stops where a comment starts. */
static size_t preproc_end(const char *s, size_t i, size_t n)
{
	for (; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n')
			i++;
		else if (s[i] == '\n')
			return i;
		else if (s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*'))
			return i;
	}
	return n;
}

static size_t block_comment_end(const char *s, size_t i, size_t n)
{
	for (i += 2; i + 1 < n; i++)
		if (s[i] == '*' && s[i + 1] == '/')
			return i + 2;
	return n;
}

/* Handles one token of C at i; returns where the next one may start. */
static size_t c_token(struct lex *lx, size_t i, bool *line_start)
{
	const char *s = lx->s;
	size_t n = lx->n, j;
	char c = s[i];
	int role;

	if (c == '/' && i + 1 < n && s[i + 1] == '/') {
		j = line_end(s, i, n);
		emit(lx, i, j, ROLE_COMMENT);
		return j;
	}
	if (c == '/' && i + 1 < n && s[i + 1] == '*') {
		j = block_comment_end(s, i, n);
		emit(lx, i, j, ROLE_COMMENT);
		return j;
	}
	if (c == '#' && *line_start) {
		j = preproc_end(s, i, n);
		emit(lx, i, j, ROLE_PREPROC);
		return j;
	}
	*line_start = false;
	if (c == '"' || c == '\'') {
		j = quoted_end(s, i, n, c, false);
		emit(lx, i, j, ROLE_STRING);
		return j;
	}
	if (starts_number(s, i, n)) {
		j = number_end(s, i, n);
		emit(lx, i, j, ROLE_NUMBER);
		return j;
	}
	if (is_alpha(c)) {
		j = ident_end(s, i, n);
		role = c_ident_role(s + i, j - i);
		if (role >= 0)
			emit(lx, i, j, role);
		return j;
	}
	if (i + 2 < n && ((c == '<' && s[i + 1] == '<' && s[i + 2] == '<') ||
			  (c == '>' && s[i + 1] == '>' && s[i + 2] == '>'))) {
		emit(lx, i, i + 3, ROLE_KEYWORD); /* a kernel launch */
		return i + 3;
	}
	return i + 1;
}

static void lex_c(struct lex *lx)
{
	bool line_start = true;
	size_t i = 0;

	while (i < lx->n) {
		char c = lx->s[i];
		if (c == '\n') {
			line_start = true;
			i++;
		} else if (c == ' ') {
			i++;
		} else {
			i = c_token(lx, i, &line_start);
		}
	}
}

/* ---- Python ---- */

/* Length of a string prefix (r, b, f, rb, ...) at i that a quote follows. */
static size_t py_prefix(const char *s, size_t i, size_t n)
{
	size_t k = 0;

	while (k < 2 && i + k < n && s[i + k] && strchr("rRbBuUfF", s[i + k]))
		k++;
	if (i + k < n && (s[i + k] == '"' || s[i + k] == '\''))
		return k;
	return (size_t)-1;
}

static size_t py_string_end(const char *s, size_t i, size_t n)
{
	char q = s[i];

	if (i + 2 < n && s[i + 1] == q && s[i + 2] == q) {
		for (i += 3; i + 2 < n; i++) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == q && s[i + 1] == q && s[i + 2] == q)
				return i + 3;
		}
		return n;
	}
	return quoted_end(s, i, n, q, false);
}

static size_t py_token(struct lex *lx, size_t i, bool *line_start)
{
	const char *s = lx->s;
	size_t n = lx->n, j, k;
	char c = s[i];
	int role;

	if (c == '#') {
		j = line_end(s, i, n);
		emit(lx, i, j, ROLE_COMMENT);
		return j;
	}
	if (c == '@' && *line_start) {
		for (j = i + 1; j < n && (is_alnum(s[j]) || s[j] == '.'); j++)
			;
		emit(lx, i, j, ROLE_PREPROC);
		return j;
	}
	*line_start = false;
	if (is_alpha(c) && (k = py_prefix(s, i, n)) != (size_t)-1) {
		j = py_string_end(s, i + k, n);
		emit(lx, i, j, ROLE_STRING);
		return j;
	}
	if (c == '"' || c == '\'') {
		j = py_string_end(s, i, n);
		emit(lx, i, j, ROLE_STRING);
		return j;
	}
	if (starts_number(s, i, n)) {
		j = number_end(s, i, n);
		emit(lx, i, j, ROLE_NUMBER);
		return j;
	}
	if (is_alpha(c)) {
		j = ident_end(s, i, n);
		role = kw_role(&py_words, s + i, j - i);
		if (role >= 0)
			emit(lx, i, j, role);
		return j;
	}
	return i + 1;
}

static void lex_python(struct lex *lx)
{
	bool line_start = true;
	size_t i = 0;

	while (i < lx->n) {
		char c = lx->s[i];
		if (c == '\n') {
			line_start = true;
			i++;
		} else if (c == ' ') {
			i++;
		} else {
			i = py_token(lx, i, &line_start);
		}
	}
}

/* ---- shell ---- */

static bool sh_delim(char c)
{
	return c == ' ' || c == '\n' || c == ';' || c == '|' || c == '&' ||
	       c == '(' || c == ')' || c == '<' || c == '>';
}

static size_t sh_variable_end(const char *s, size_t i, size_t n)
{
	size_t j = i + 1;

	if (j < n && s[j] == '{') {
		while (j < n && s[j] != '}' && s[j] != '\n')
			j++;
		return j < n && s[j] == '}' ? j + 1 : j;
	}
	if (j < n && s[j] && (is_digit(s[j]) || strchr("?@#$!*-", s[j])))
		return j + 1;
	return ident_end(s, j, n);
}

/* Single quotes know no escapes. */
static size_t sh_single_end(const char *s, size_t i, size_t n)
{
	const char *q = memchr(s + i + 1, '\'', n - i - 1);

	return q ? (size_t)(q - s) + 1 : n;
}

/* A word at a word start: keyword, builtin command or number. */
static size_t sh_word(struct lex *lx, size_t i, size_t to)
{
	const char *s = lx->s;
	size_t j = i;
	bool digits = true;
	int role;

	while (j < to && !sh_delim(s[j]) && s[j] != '"' && s[j] != '\'' &&
	       s[j] != '$') {
		digits = digits && is_digit(s[j]);
		j++;
	}
	if (j == i)
		return i + 1;
	if (j < to && !sh_delim(s[j]))
		return j;
	role = digits ? ROLE_NUMBER : kw_role(&sh_words, s + i, j - i);
	if (role >= 0)
		emit(lx, i, j, role);
	return j;
}

/* Colours s[from,to) as shell. */
static void lex_sh_range(struct lex *lx, size_t from, size_t to)
{
	const char *s = lx->s;
	bool word_start = true;
	size_t i = from, j;

	while (i < to) {
		char c = s[i];
		if (sh_delim(c)) {
			word_start = true;
			i++;
			continue;
		}
		if (c == '#' && word_start) {
			j = line_end(s, i, to);
			emit(lx, i, j, ROLE_COMMENT);
		} else if (c == '\'' || c == '"') {
			j = c == '\'' ? sh_single_end(s, i, to)
				      : quoted_end(s, i, to, '"', true);
			emit(lx, i, j, ROLE_STRING);
		} else if (c == '$') {
			j = sh_variable_end(s, i, to);
			emit(lx, i, j, ROLE_BUILTIN);
		} else if (word_start) {
			j = sh_word(lx, i, to);
		} else {
			j = i + 1;
		}
		word_start = false;
		i = j;
	}
}

static void lex_sh(struct lex *lx)
{
	lex_sh_range(lx, 0, lx->n);
}

/* A terminal session: "$ " starts a command (a trailing backslash carries
 * it to the next line); other lines are the commands' output. */
static void lex_console(struct lex *lx)
{
	const char *s = lx->s;
	size_t i = 0, le;
	bool cont = false;

	while (i < lx->n) {
		le = line_end(s, i, lx->n);
		if (!cont && s[i] == '$' && (i + 1 == le || s[i + 1] == ' ')) {
			emit(lx, i, i + 1, ROLE_PREPROC);
			lex_sh_range(lx, i + 1, le);
			cont = le > i && s[le - 1] == '\\';
		} else if (cont) {
			lex_sh_range(lx, i, le);
			cont = le > i && s[le - 1] == '\\';
		}
		i = le + 1;
	}
}

/* ---- dispatch ---- */

struct lang {
	const char *name;
	void (*lex)(struct lex *);
};

static const struct lang langs[] = {
	{"c", lex_c},	     {"h", lex_c},	 {"cpp", lex_c},
	{"c++", lex_c},	     {"cc", lex_c},	 {"cxx", lex_c},
	{"hpp", lex_c},	     {"cuda", lex_c},	 {"cu", lex_c},
	{"cuh", lex_c},	     {"python", lex_python}, {"py", lex_python},
	{"python3", lex_python}, {"sh", lex_sh},	 {"bash", lex_sh},
	{"shell", lex_sh},   {"zsh", lex_sh},	 {"console", lex_console},
	{"shell-session", lex_console},
};

void doc_highlight(struct doc_text *t, const char *lang)
{
	struct lex lx = {.s = t->s, .n = t->len};
	const struct lang *found = NULL;

	for (size_t i = 0; lang && i < COUNT(langs); i++)
		if (strcasecmp(lang, langs[i].name) == 0)
			found = &langs[i];
	pthread_once(&kw_once, kw_init);
	if (!found || t->len == 0) {
		doc_text_restyle(t, (struct doc_style){.role = ROLE_CODE, .link = -1});
		return;
	}
	found->lex(&lx);
	add_run(&lx, lx.done, lx.n, ROLE_CODE);
	free(t->runs);
	t->runs = lx.runs;
	t->nruns = lx.nruns;
	t->runcap = lx.cap;
}
