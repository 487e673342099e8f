/*
 * Parsers of ignore_error=, max_latency= and latency_percentile=, the job control options
 * with structure.
 */
#include "jobs/opt_control.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/opt_custom.h"
#include "parser/value.h"
#include "base/units.h"

/*
 * The names fio 3.33 knows in ignore_error (errnos 1 to 34, EPERM to ERANGE); any other
 * errno is given by its number, as fio asks.
 */
static const struct {
	const char *name;
	int err;
} errno_names[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "ESRCH", ESRCH }, { "EINTR", EINTR },
	{ "EIO", EIO }, { "ENXIO", ENXIO }, { "E2BIG", E2BIG }, { "ENOEXEC", ENOEXEC },
	{ "EBADF", EBADF }, { "ECHILD", ECHILD }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EFAULT", EFAULT }, { "ENOTBLK", ENOTBLK }, { "EBUSY", EBUSY },
	{ "EEXIST", EEXIST }, { "EXDEV", EXDEV }, { "ENODEV", ENODEV }, { "ENOTDIR", ENOTDIR },
	{ "EISDIR", EISDIR }, { "EINVAL", EINVAL }, { "ENFILE", ENFILE }, { "EMFILE", EMFILE },
	{ "ENOTTY", ENOTTY }, { "ETXTBSY", ETXTBSY }, { "EFBIG", EFBIG }, { "ENOSPC", ENOSPC },
	{ "ESPIPE", ESPIPE }, { "EROFS", EROFS }, { "EMLINK", EMLINK }, { "EPIPE", EPIPE },
	{ "EDOM", EDOM }, { "ERANGE", ERANGE },
};

/* An errno by name (fio's list) or number ("-5" is 5, as fio reads it); 0 if neither. */
static int errno_value(const char *s)
{
	char *end;
	long v;

	if (s[0] == 'E') {
		for (size_t i = 0; i < ARRAY_SIZE(errno_names); i++)
			if (!strcmp(s, errno_names[i].name))
				return errno_names[i].err;
		return 0;
	}
	v = strtol(s, &end, 10);
	if (*end || end == s)
		return 0;
	v = v < 0 ? -v : v;
	return v < 4096 ? (int)v : 0;
}

/* One type's list. As in fio, an empty entry ends it ("EIO::EAGAIN" is EIO alone). */
static int parse_list(const char *val, struct ignore_list *l, char *why, size_t whylen)
{
	char **f;
	int n, ret = 0;

	l->n = 0;
	n = value_split(val, ':', &f);
	if (n < 0)
		return n;
	for (int i = 0; i < n && !ret && *f[i]; i++) {
		int err = errno_value(f[i]);

		if (!err) {
			snprintf(why, whylen, "'%s' is not an errno iojob knows by name: give its "
				 "number (ENOSPC is 28)", f[i]);
			ret = -EINVAL;
		} else if (l->n == JOB_MAX_IGNORE) {
			snprintf(why, whylen, "'%s' lists more than %d errors for one type", val,
				 JOB_MAX_IGNORE);
			ret = -EINVAL;
		} else {
			l->err[l->n++] = err;
		}
	}
	value_split_free(f, n);
	return ret;
}

int opt_ignore_error_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			   size_t whylen)
{
	struct job_desc *j = dst;
	char **f;
	int n, ret = 0;

	(void)ctx;
	n = value_split(val, ',', &f);
	if (n < 0)
		return n;
	if (n > ERR_TYPE_NR) {
		snprintf(why, whylen, "'%s' has more than 3 lists (read,write,verify)", val);
		ret = -EINVAL;
	}
	for (int i = 0; !ret && i < n; i++)
		ret = parse_list(f[i], &j->ignore_error[i], why, whylen);
	value_split_free(f, n);
	return ret;
}

/* One direction of max_latency: a time, in µs without a unit. */
static int max_latency_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			    int dir, char *why, size_t whylen)
{
	(void)ctx;
	if (value_parse_time(item, NS_PER_USEC, &j->max_latency_ns[dir]) < 0) {
		snprintf(why, whylen, "'%s' is not a time (µs without a unit)", item);
		return -EINVAL;
	}
	return 0;
}

/* As bs=: one value for every direction, or read,write[,trim]; trims follow writes. */
int opt_max_latency_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen)
{
	return opt_per_dir(ctx, val, dst, max_latency_item, why, whylen);
}

int opt_latency_pct_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen)
{
	struct job_desc *j = dst;
	double v;

	(void)ctx;
	if (value_parse_double(val, &v) < 0 || !(v >= 0 && v <= 100)) {
		snprintf(why, whylen, "'%s' is not a percentage from 0 to 100", val);
		return -EINVAL;
	}
	j->lat_percentile = v;
	return 0;
}
