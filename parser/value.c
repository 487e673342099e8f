/*
 * Value converters: the text of one option value to sizes, times, booleans, numbers,
 * ranges and lists. Each parser works on a span [p, end) so that ranges can reuse it.
 */
#include "parser/value.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"
#include "parser/expr.h"

#define CLOSEST_MAX_LEN	64

/* A decimal number as its whole part and the digits after the point. */
struct decimal {
	uint64_t whole;
	const char *frac;	/* digits after '.', not terminated */
	size_t nfrac;
};

static void trim(const char **p, const char **end)
{
	while (*p < *end && isspace((unsigned char)**p))
		(*p)++;
	while (*end > *p && isspace((unsigned char)(*end)[-1]))
		(*end)--;
}

static bool span_eq(const char *p, const char *end, const char *word)
{
	size_t len = strlen(word);

	return (size_t)(end - p) == len && strncasecmp(p, word, len) == 0;
}

static int digit_value(char c, unsigned radix)
{
	int v;

	if (isdigit((unsigned char)c))
		v = c - '0';
	else if (isxdigit((unsigned char)c))
		v = tolower((unsigned char)c) - 'a' + 10;
	else
		return -1;
	return v < (int)radix ? v : -1;
}

/* Parse at least one digit in radix 10 or 16 from *p; leaves *p past the digits. */
static int parse_digits(const char **p, const char *end, unsigned radix, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int d;

	for (; s < end && (d = digit_value(*s, radix)) >= 0; s++) {
		if (v > (UINT64_MAX - d) / radix)
			return -ERANGE;
		v = v * radix + d;
	}
	if (s == *p)
		return -EINVAL;
	*p = s;
	*out = v;
	return 0;
}

/* Parse "digits[.digits]" from *p; leaves *p past the number. */
static int parse_decimal(const char **p, const char *end, struct decimal *dec)
{
	const char *s = *p;
	int ret;

	ret = parse_digits(&s, end, 10, &dec->whole);
	if (ret < 0)
		return ret;
	dec->frac = NULL;
	dec->nfrac = 0;
	if (s < end && *s == '.') {
		dec->frac = ++s;
		while (s < end && isdigit((unsigned char)*s))
			s++;
		dec->nfrac = s - dec->frac;
		if (!dec->nfrac)
			return -EINVAL;
	}
	*p = s;
	return 0;
}

/*
 * dec * k with the fraction truncated. The fraction is multiplied digit by digit from
 * the last one, so it stays exact: 0.1 * 10^15 must not come out as 99999999999999.
 */
static int scale_decimal(const struct decimal *dec, uint64_t k, uint64_t *out)
{
	uint64_t whole, carry = 0, t;
	size_t i;

	if (__builtin_mul_overflow(dec->whole, k, &whole))
		return -ERANGE;
	for (i = dec->nfrac; i-- > 0;) {
		if (__builtin_mul_overflow((uint64_t)(dec->frac[i] - '0'), k, &t) ||
		    __builtin_add_overflow(t, carry, &t))
			return -ERANGE;
		carry = t / 10;
	}
	if (__builtin_add_overflow(whole, carry, &whole))
		return -ERANGE;
	*out = whole;
	return 0;
}

size_t value_size_prefix(const char *s)
{
	const char *p = s;

	while (isspace((unsigned char)*p))
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		for (p += 2; isxdigit((unsigned char)*p); p++)
			;
	} else {
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '.' && isdigit((unsigned char)p[1]))
			for (p++; isdigit((unsigned char)*p); p++)
				;
	}
	if (*p == '%')
		return (size_t)(p + 1 - s);	/* a share: size=50% */
	if (*p && strchr("kmgtpKMGTP", *p)) {
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
	}
	if (*p == 'b' || *p == 'B')
		p++;
	return (size_t)(p - s);
}

/*
 * The multiplier of a size suffix: k..p (power of kb_base) or ki..pi (power of 1024),
 * then an optional 'b'. Returns 0 if [p, end) is not a suffix.
 */
static uint64_t size_mult(const char *p, const char *end, unsigned kb_base)
{
	static const char units[] = "kmgtp";
	const char *u;
	uint64_t mult = 1, base = kb_base;
	int exp = 0;

	if (p < end && (u = strchr(units, tolower((unsigned char)*p))) && *u) {
		exp = u - units + 1;
		p++;
		if (p < end && tolower((unsigned char)*p) == 'i') {
			base = 1024;
			p++;
		}
	}
	if (p < end && tolower((unsigned char)*p) == 'b')
		p++;
	if (p != end)
		return 0;
	for (; exp > 0; exp--)
		mult *= base;
	return mult;
}

static int parse_size_span(const char *p, const char *end, unsigned kb_base, uint64_t *out)
{
	struct decimal dec = { 0 };
	uint64_t mult;
	int ret;

	if (kb_base != 1000 && kb_base != 1024)
		return -EINVAL;
	trim(&p, &end);
	if (end - p > 2 && p[0] == '0' && tolower((unsigned char)p[1]) == 'x') {
		p += 2;
		ret = parse_digits(&p, end, 16, &dec.whole);
	} else {
		ret = parse_decimal(&p, end, &dec);
	}
	if (ret < 0)
		return ret;
	mult = size_mult(p, end, kb_base);
	/*
	 * A fraction of a byte is truncated, as fio does: wrappers write sizes as floats
	 * ("67108864.0", Python's str() of a float). A 'b' after a fraction is refused,
	 * "1.5b" being more likely a typo for "1.5k".
	 */
	if (!mult || (dec.nfrac && mult == 1 && p != end))
		return -EINVAL;
	return scale_decimal(&dec, mult, out);
}

/* Whether s is one of fio's arithmetic expressions: it starts with '('. */
static bool is_expr(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '(';
}

/* An expression that must come to a value >= 0. */
static int expr_unsigned(const char *s, enum expr_units units, unsigned kb_base, uint64_t *out)
{
	int64_t v;
	int ret = expr_eval(s, units, kb_base, &v);

	if (ret < 0)
		return ret;
	if (v < 0)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int value_parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	if (is_expr(s))
		return expr_unsigned(s, EXPR_SIZE, kb_base, out);
	return parse_size_span(s, s + strlen(s), kb_base, out);
}

/* Parse "N%" with 0 < N <= 100. */
static int parse_pct_span(const char *p, const char *end, double *pct)
{
	struct decimal dec;
	double v, scale = 0.1;
	size_t i;
	int ret;

	ret = parse_decimal(&p, end, &dec);
	if (ret < 0)
		return ret;
	if (p != end)
		return -EINVAL;
	v = (double)dec.whole;
	for (i = 0; i < dec.nfrac; i++, scale /= 10)
		v += (dec.frac[i] - '0') * scale;
	if (v <= 0 || v > 100)
		return -ERANGE;
	*pct = v;
	return 0;
}

int value_parse_size_pct(const char *s, unsigned kb_base, uint64_t *out, double *pct)
{
	const char *p = s, *end = s + strlen(s);
	uint64_t size;
	double v;
	int ret;

	trim(&p, &end);
	if (is_expr(s)) {
		/* *pct only once the expression is good: the outputs are untouched on error */
		ret = expr_unsigned(s, EXPR_SIZE, kb_base, out);
		if (ret == 0)
			*pct = 0;
		return ret;
	}
	if (p < end && end[-1] == '%') {
		ret = parse_pct_span(p, end - 1, &v);
		if (ret < 0)
			return ret;
		*out = 0;
		*pct = v;
		return 0;
	}
	ret = parse_size_span(p, end, kb_base, &size);
	if (ret < 0)
		return ret;
	*out = size;
	*pct = 0;
	return 0;
}

/* The '-' or ':' between the two ends of a range, or the end; none inside parentheses. */
static const char *range_sep(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth)
			depth--;
		else if (!depth && (*s == '-' || *s == ':' || *s == ','))
			break;
	}
	return s;
}

/* One end of a range: a size, or an expression. */
static int span_size(const char *p, const char *end, unsigned kb_base, uint64_t *out)
{
	char buf[256];

	if (!is_expr(p) || (size_t)(end - p) >= sizeof(buf))
		return parse_size_span(p, end, kb_base, out);
	memcpy(buf, p, (size_t)(end - p));
	buf[end - p] = 0;
	return expr_unsigned(buf, EXPR_SIZE, kb_base, out);
}

int value_parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi)
{
	const char *end = s + strlen(s), *sep;
	uint64_t a, b;
	int ret;

	/* Sizes are never negative, so '-' can only be the separator (outside parentheses);
	 * fio takes ':' and ',' too. */
	sep = range_sep(s);
	ret = span_size(s, sep, kb_base, &a);
	if (ret < 0)
		return ret;
	b = a;
	if (sep < end) {
		ret = span_size(sep + 1, end, kb_base, &b);
		if (ret < 0)
			return ret;
	}
	if (a > b)
		return -EDOM;
	*lo = a;
	*hi = b;
	return 0;
}

/*
 * One value as fio's size converter reads it: the prefix value_size_prefix() measures;
 * what follows is ignored ("8k/8M" is 8k), but a trailing 'z' is refused, as fio's zone
 * check refuses it.
 */
static int loose_size(const char *p, const char *end, unsigned kb_base, uint64_t *out)
{
	char buf[128];
	size_t n = (size_t)(end - p), len;

	if (!n || n >= sizeof(buf) || end[-1] == 'z' || end[-1] == 'Z')
		return -EINVAL;
	memcpy(buf, p, n);
	buf[n] = 0;
	len = value_size_prefix(buf);
	if (!len || buf[len - 1] == '%')
		return -EINVAL;
	return parse_size_span(buf, buf + len, kb_base, out);
}

int value_parse_size_range_loose(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi,
				 unsigned *nvalues)
{
	const char *end = s + strlen(s), *sep;
	unsigned n = 0;
	uint64_t v;
	int ret;

	for (const char *p = s; p <= end; p = sep + 1, n++) {
		sep = range_sep(p);
		ret = loose_size(p, sep, kb_base, &v);
		if (ret < 0)
			return ret;
		if (!n)
			*lo = v;
		*hi = v;
	}
	*nvalues = n;
	return *lo > *hi ? -EDOM : 0;
}

/* Nanoseconds per time suffix; "" is handled by the caller. */
static uint64_t time_mult(const char *p, const char *end)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "nsec", 1 },
		{ "us", NS_PER_USEC }, { "usec", NS_PER_USEC },
		{ "ms", NS_PER_MSEC }, { "msec", NS_PER_MSEC },
		{ "s", NS_PER_SEC }, { "sec", NS_PER_SEC },
		{ "m", 60 * NS_PER_SEC }, { "min", 60 * NS_PER_SEC },
		{ "h", 3600 * NS_PER_SEC },
		{ "d", 86400 * NS_PER_SEC },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (span_eq(p, end, units[i].name))
			return units[i].ns;
	return 0;
}

int value_parse_time(const char *s, uint64_t unit_ns, uint64_t *out_ns)
{
	const char *p = s, *end = s + strlen(s);
	struct decimal dec;
	uint64_t mult;
	int ret;

	if (!unit_ns)
		return -EINVAL;
	if (is_expr(s)) {
		/* fio: an expression's times are in microseconds, whatever the option's unit */
		ret = expr_unsigned(s, EXPR_TIME, 1024, &mult);
		if (ret < 0)
			return ret;
		if (mult > UINT64_MAX / NS_PER_USEC)
			return -ERANGE;
		*out_ns = mult * NS_PER_USEC;
		return 0;
	}
	trim(&p, &end);
	ret = parse_decimal(&p, end, &dec);
	if (ret < 0)
		return ret;
	mult = p == end ? unit_ns : time_mult(p, end);
	if (!mult)
		return -EINVAL;
	return scale_decimal(&dec, mult, out_ns);
}

int value_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "", "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	const char *p = s, *end = s + strlen(s);
	long long v;
	size_t i;

	trim(&p, &end);
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (span_eq(p, end, yes[i])) {
			*out = true;
			return 0;
		}
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		if (span_eq(p, end, no[i])) {
			*out = false;
			return 0;
		}
	}
	/* a number that truncates to 0 or 1, as fio's booleans take it ("1.0", "0x1") */
	if (value_parse_int(s, &v) == 0 && (v == 0 || v == 1)) {
		*out = v;
		return 0;
	}
	return -EINVAL;
}

int value_parse_int(const char *s, long long *out)
{
	const char *p = s, *end = s + strlen(s);
	struct decimal dec;
	bool neg = false;
	uint64_t mag;
	int ret;

	if (is_expr(s)) {
		int64_t v;

		ret = expr_eval(s, EXPR_SIZE, 1024, &v);
		if (ret == 0)
			*out = v;
		return ret;
	}
	trim(&p, &end);
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (end - p > 2 && p[0] == '0' && tolower((unsigned char)p[1]) == 'x') {
		p += 2;
		ret = parse_digits(&p, end, 16, &mag);
	} else {
		ret = parse_decimal(&p, end, &dec);
		mag = dec.whole;	/* the fraction truncated toward zero, as fio does */
	}
	if (ret < 0)
		return ret;
	if (p != end)
		return -EINVAL;
	if (mag > (uint64_t)LLONG_MAX + neg)
		return -ERANGE;
	/* -(LLONG_MAX + 1) is representable, its magnitude as a long long is not. */
	*out = neg ? (long long)(0 - mag) : (long long)mag;
	return 0;
}

int value_parse_double(const char *s, double *out)
{
	const char *p = s;
	char *end;
	double v;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return -EINVAL;
	errno = 0;
	v = strtod(p, &end);
	if (end == p)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end || isnan(v) || (isinf(v) && errno != ERANGE))
		return -EINVAL;
	if (isinf(v))
		return -ERANGE;
	*out = v;
	return 0;
}

/* Copy [p, end) without the backslash of each "\sep". */
static char *unescape_field(const char *p, const char *end, char sep)
{
	char *field, *q;

	field = malloc(end - p + 1);
	if (!field)
		return NULL;
	for (q = field; p < end; p++) {
		if (*p == '\\' && p + 1 < end && p[1] == sep)
			p++;
		*q++ = *p;
	}
	*q = '\0';
	return field;
}

/* The end of the field starting at p: the first sep not escaped by a backslash. */
static const char *field_end(const char *p, const char *end, char sep)
{
	for (; p < end; p++) {
		if (*p == '\\' && p + 1 < end && p[1] == sep)
			p++;
		else if (*p == sep)
			break;
	}
	return p;
}

int value_split(const char *s, char sep, char ***out)
{
	const char *p = s, *end = s + strlen(s), *f;
	char **fields;
	int n = 1, i;

	trim(&p, &end);
	for (f = field_end(p, end, sep); f < end; f = field_end(f + 1, end, sep))
		n++;
	fields = calloc(n, sizeof(*fields));
	if (!fields)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		f = field_end(p, end, sep);
		fields[i] = unescape_field(p, f, sep);
		if (!fields[i])
			goto err_free;
		p = f + 1;
	}
	*out = fields;
	return n;

err_free:
	value_split_free(fields, i);
	return -ENOMEM;
}

void value_split_free(char **fields, int n)
{
	int i;

	if (!fields)
		return;
	for (i = 0; i < n; i++)
		free(fields[i]);
	free(fields);
}

/* Case-insensitive Levenshtein distance of two strings of at most CLOSEST_MAX_LEN. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t row[CLOSEST_MAX_LEN + 1], diag, up, i, j;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (tolower((unsigned char)a[i - 1]) !=
					 tolower((unsigned char)b[j - 1]));
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

const char *value_closest(const char *word, const char *const *cands, size_t ncands)
{
	size_t lw, lc, dist, best_dist, i;
	const char *best = NULL;

	if (!word)
		return NULL;
	lw = strlen(word);
	if (lw > CLOSEST_MAX_LEN)
		return NULL;
	/* A short word is one or two edits from too many unrelated names. */
	best_dist = (lw <= 4 ? 1 : 2) + 1;
	for (i = 0; i < ncands; i++) {
		if (!cands[i])
			continue;
		lc = strlen(cands[i]);
		/* a word refused for another reason: suggesting it again helps no one */
		if (!strcmp(cands[i], word))
			continue;
		if (lc > CLOSEST_MAX_LEN || (lc > lw ? lc - lw : lw - lc) >= best_dist)
			continue;
		dist = edit_distance(word, lw, cands[i], lc);
		if (dist < best_dist) {
			best_dist = dist;
			best = cands[i];
		}
	}
	return best;
}
