/* fio's arithmetic in values and its reserved keywords: a recursive-descent evaluator. */
#include "parser/expr.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/units.h"
#include "parser/value.h"

#define TOKEN_MAX	64

/* A value: an integer until a decimal point or a float operation makes it a double. */
struct num {
	bool is_float;
	int64_t i;
	long double f;
};

struct expr {
	const char *p;
	enum expr_units units;
	unsigned kb_base;
	unsigned depth;		/* parentheses, signs and '^' open around e->p */
	int err;		/* the first error; later ones follow from it */
};

static long double as_float(struct num n)
{
	return n.is_float ? n.f : (long double)n.i;
}

static struct num from_float(long double f)
{
	return (struct num){ .is_float = true, .f = f };
}

static struct num from_int(int64_t i)
{
	return (struct num){ .i = i };
}

/* The first error stands, but for the depth limit: the parse goes on after an error and
 * might have gone past the limit, and a caller needs to tell that apart. */
static void fail(struct expr *e, int err)
{
	if (!e->err || err == -E2BIG)
		e->err = err;
}

/*
 * Each '(', sign and '^' is one more level of recursion: a bound keeps a hostile value
 * from overflowing the stack (19,000 parentheses did with 8 MiB). Pair with leave().
 */
static bool enter(struct expr *e)
{
	if (e->depth >= EXPR_DEPTH_MAX) {
		fail(e, -E2BIG);
		return false;
	}
	e->depth++;
	return true;
}

static void leave(struct expr *e)
{
	e->depth--;
}

static void skip_space(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static struct num parse_sum(struct expr *e);

/* A number with its suffix as one token, converted by the size or time parser. */
static struct num suffixed(struct expr *e, const char *tok)
{
	uint64_t v;
	int ret = -EINVAL;

	if (e->units == EXPR_SIZE)
		ret = value_parse_size(tok, e->kb_base, &v);
	else if (e->units == EXPR_TIME && value_parse_time(tok, NS_PER_USEC, &v) == 0)
		v /= NS_PER_USEC, ret = 0;	/* an expression's times are microseconds */
	if (ret < 0 || v > INT64_MAX) {
		fail(e, ret < 0 ? ret : -ERANGE);
		return from_int(0);
	}
	return from_int((int64_t)v);
}

static struct num parse_number(struct expr *e)
{
	const char *start = e->p, *suffix;
	char tok[TOKEN_MAX], *end;
	bool dot = false;
	long long v;
	size_t len;

	while (isdigit((unsigned char)*e->p) || *e->p == '.')
		dot |= *e->p++ == '.';
	if (e->p == start) {
		fail(e, -EINVAL);
		return from_int(0);
	}
	/* an exponent (1e6) belongs to the number, other letters are its suffix */
	if ((*e->p == 'e' || *e->p == 'E') && (isdigit((unsigned char)e->p[1]) ||
	    ((e->p[1] == '-' || e->p[1] == '+') && isdigit((unsigned char)e->p[2])))) {
		dot = true;
		e->p += 2;
		while (isdigit((unsigned char)*e->p))
			e->p++;
	}
	suffix = e->p;
	while (isalpha((unsigned char)*e->p))
		e->p++;
	len = (size_t)(e->p - start);
	if (len >= sizeof(tok)) {
		fail(e, -EINVAL);
		return from_int(0);
	}
	memcpy(tok, start, len);
	tok[len] = 0;
	if (e->p > suffix)
		return suffixed(e, tok);
	if (dot)
		return from_float(strtold(tok, &end));
	errno = 0;
	v = strtoll(tok, &end, 10);
	if (errno == ERANGE)
		fail(e, -ERANGE);
	return from_int(v);
}

static struct num parse_atom(struct expr *e)
{
	struct num n;

	skip_space(e);
	if ((*e->p == '(' || *e->p == '-' || *e->p == '+') && !enter(e))
		return from_int(0);
	if (*e->p == '(') {
		e->p++;
		n = parse_sum(e);
		skip_space(e);
		if (*e->p != ')')
			fail(e, -EINVAL);
		else
			e->p++;
		leave(e);
		return n;
	}
	if (*e->p == '-' || *e->p == '+') {
		bool neg = *e->p++ == '-';

		n = parse_atom(e);
		if (neg && n.is_float)
			n.f = -n.f;
		else if (neg && n.i == INT64_MIN)
			fail(e, -ERANGE);
		else if (neg)
			n.i = -n.i;
		leave(e);
		return n;
	}
	return parse_number(e);
}

static struct num power(struct expr *e, struct num a, struct num b)
{
	int64_t r = 1;

	if (a.is_float || b.is_float || b.i < 0)
		return from_float(powl(as_float(a), as_float(b)));
	/* these never overflow, so the loop below would run b.i times */
	if (a.i == 0 || a.i == 1)
		return from_int(b.i == 0 ? 1 : a.i);
	if (a.i == -1)
		return from_int(b.i % 2 ? -1 : 1);
	for (int64_t k = 0; k < b.i; k++) {
		if (__builtin_mul_overflow(r, a.i, &r)) {
			fail(e, -ERANGE);
			return from_int(0);
		}
	}
	return from_int(r);
}

/* '^' binds tightest and to the right: 2^3^2 is 2^9. */
static struct num parse_power(struct expr *e)
{
	struct num a = parse_atom(e), b;

	skip_space(e);
	if (*e->p != '^' || !enter(e))
		return a;
	e->p++;
	b = parse_power(e);
	leave(e);
	return power(e, a, b);
}

static struct num apply(struct expr *e, char op, struct num a, struct num b)
{
	__int128 r;

	if ((op == '/' || op == '%') && (b.is_float ? b.f == 0 : b.i == 0)) {
		fail(e, -EINVAL);
		return from_int(0);
	}
	if (a.is_float || b.is_float) {
		long double x = as_float(a), y = as_float(b);

		switch (op) {
		case '+': return from_float(x + y);
		case '-': return from_float(x - y);
		case '*': return from_float(x * y);
		case '/': return from_float(x / y);
		default: return from_float(fmodl(x, y));
		}
	}
	switch (op) {
	case '+': r = (__int128)a.i + b.i; break;
	case '-': r = (__int128)a.i - b.i; break;
	case '*': r = (__int128)a.i * b.i; break;
	case '/': r = a.i / b.i; break;	/* integers divide as integers, as in fio and bc */
	default: r = a.i % b.i; break;
	}
	if (r > INT64_MAX || r < INT64_MIN)
		fail(e, -ERANGE);
	return from_int((int64_t)r);
}

static struct num parse_product(struct expr *e)
{
	struct num a = parse_power(e);

	for (;;) {
		char op;

		skip_space(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			return a;
		e->p++;
		a = apply(e, op, a, parse_power(e));
	}
}

static struct num parse_sum(struct expr *e)
{
	struct num a = parse_product(e);

	for (;;) {
		char op;

		skip_space(e);
		op = *e->p;
		if (op != '+' && op != '-')
			return a;
		e->p++;
		a = apply(e, op, a, parse_product(e));
	}
}

int expr_eval(const char *s, enum expr_units units, unsigned kb_base, int64_t *out)
{
	struct expr e = { .p = s, .units = units, .kb_base = kb_base };
	struct num n = parse_sum(&e);
	long double f;

	skip_space(&e);
	if (!e.err && *e.p)
		e.err = -EINVAL;
	if (e.err)
		return e.err;
	if (!n.is_float) {
		*out = n.i;
		return 0;
	}
	f = truncl(n.f);
	if (isnan(f) || f > (long double)INT64_MAX || f < (long double)INT64_MIN)
		return -ERANGE;
	*out = (int64_t)f;
	return 0;
}

/* The keyword's value on this system, as fio computes it at start-up. */
static long long keyword_value(int k)
{
	long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);

	if (k == 0)
		return page;
	if (k == 1)
		return page > 0 && pages > 0 ? (long long)pages * page / (1 << 20) : 0;
	return sysconf(_SC_NPROCESSORS_CONF);
}

/* Append [s, s + n) to the growing string *buf of *len bytes; false on ENOMEM. */
static bool append(char **buf, size_t *len, const char *s, size_t n)
{
	char *grown = realloc(*buf, *len + n + 1);

	if (!grown)
		return false;
	memcpy(grown + *len, s, n);
	*len += n;
	grown[*len] = 0;
	*buf = grown;
	return true;
}

char *expr_keywords(const char *val, int *err)
{
	static const char *const words[] = { "$pagesize", "$mb_memory", "$ncpus" };
	char *out = NULL, num[32];
	size_t len = 0;
	bool any = false;
	int64_t v;

	*err = 0;
	if (!strchr(val, '$'))
		return NULL;
	for (const char *p = val; *p;) {
		size_t i, n;

		/* the text up to the next '$' in one piece: a byte at a time, a 40 KB value
		 * went through 800 MB of reallocations */
		n = *p == '$' ? 1 : strcspn(p, "$");
		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (!strncmp(p, words[i], strlen(words[i])))
				break;
		if (i < ARRAY_SIZE(words)) {
			n = (size_t)snprintf(num, sizeof(num), "%lld", keyword_value((int)i));
			any = true;
			if (!append(&out, &len, num, n))
				goto nomem;
			p += strlen(words[i]);
			continue;
		}
		if (!append(&out, &len, p, n))
			goto nomem;
		p += n;
	}
	if (!any) {
		free(out);
		return NULL;
	}
	/* fio gives such a value to bc when it holds an operator (and no quote) */
	if (strpbrk(out, "+-*/") && !strchr(out, '\'') && expr_eval(out, EXPR_BARE, 1024, &v) == 0) {
		snprintf(num, sizeof(num), "%" PRId64, v);
		free(out);
		out = strdup(num);
		if (!out)
			*err = -ENOMEM;
	}
	return out;

nomem:
	free(out);
	*err = -ENOMEM;
	return NULL;
}
