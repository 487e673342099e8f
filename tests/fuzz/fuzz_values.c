/*
 * libFuzzer target for the value converters (parser/value.h): every input goes through each
 * of them. Besides the sanitizers, it checks their contract: 0, -EINVAL, -ERANGE or -E2BIG, the
 * result untouched on error, a range in order, a split that gives its fields back.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parser/value.h"

#define SENTINEL	0x5a5a5a5a5a5a5a5aULL

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const words[] = {
	"bs", "iodepth", "ioengine", "runtime", "size", "rw", "direct", "numjobs",
	"filename", "kb_base", "random_distribution", "percentile_list", "",
};

/* -E2BIG: an expression nested past EXPR_DEPTH_MAX */
static void check_ret(int ret)
{
	if (ret != 0 && ret != -EINVAL && ret != -ERANGE && ret != -E2BIG)
		abort();
}

static void sizes(const char *s)
{
	static const unsigned bases[] = { 1024, 1000 };

	for (unsigned i = 0; i < 2; i++) {
		uint64_t v = SENTINEL, lo = SENTINEL, hi = SENTINEL;
		double pct = -1;
		int ret;

		ret = value_parse_size(s, bases[i], &v);
		check_ret(ret);
		if (ret && v != SENTINEL)
			abort();
		v = SENTINEL;
		ret = value_parse_size_pct(s, bases[i], &v, &pct);
		check_ret(ret);
		if (ret && (v != SENTINEL || pct != -1))
			abort();
		if (!ret && (pct < 0 || pct > 100 || (pct > 0 && v)))
			abort();
		ret = value_parse_size_range(s, bases[i], &lo, &hi);
		check_ret(ret == -EDOM ? -EINVAL : ret);	/* reversed bounds */
		if (ret && (lo != SENTINEL || hi != SENTINEL))
			abort();
		if (!ret && lo > hi)
			abort();
	}
}

static void times(const char *s)
{
	static const uint64_t units[] = { 1, 1000, 1000000, 1000000000 };

	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t ns = SENTINEL;
		int ret = value_parse_time(s, units[i], &ns);

		check_ret(ret);
		if (ret && ns != SENTINEL)
			abort();
	}
}

static void scalars(const char *s)
{
	long long ll = (long long)SENTINEL;
	double dbl = -0.5;
	bool b = true;
	int ret;

	ret = value_parse_bool(s, &b);
	check_ret(ret);
	if (ret && !b)
		abort();
	b = false;
	if (value_parse_bool(s, &b) && b)
		abort();
	ret = value_parse_int(s, &ll);
	check_ret(ret);
	if (ret && ll != (long long)SENTINEL)
		abort();
	ret = value_parse_double(s, &dbl);
	check_ret(ret);
	if (ret && dbl != -0.5)
		abort();
}

/* Every field of a split, its separators escaped again, gives the input back unescaped. */
static void split(const char *s, char sep)
{
	char **fields;
	size_t total = 0;
	int n;

	n = value_split(s, sep, &fields);
	if (n == -ENOMEM)
		return;
	if (n < 1)
		abort();
	for (int i = 0; i < n; i++)
		total += strlen(fields[i]) + 1;
	if (total - 1 > strlen(s))
		abort();
	value_split_free(fields, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const char *best;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	sizes(s);
	times(s);
	scalars(s);
	split(s, ':');
	split(s, ',');
	best = value_closest(s, words, sizeof(words) / sizeof(words[0]));
	if (best && !*best && *s && strlen(s) > 2)
		abort();
	free(s);
	return 0;
}
