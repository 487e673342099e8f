/* Facts about access patterns, and lookups in a job's settings. */
#include "jobs/job.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"

bool rw_does(int rw, enum io_dir dir)
{
	switch (rw) {
	case RW_READ:
	case RW_RANDREAD:
		return dir == IO_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return dir == IO_WRITE;
	case RW_RW:
	case RW_RANDRW:
		return dir == IO_READ || dir == IO_WRITE;
	case RW_TRIM:
	case RW_RANDTRIM:
		return dir == IO_TRIM;
	default:		/* trimwrite */
		return dir == IO_TRIM || dir == IO_WRITE;
	}
}

bool rw_is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW ||
	       rw == RW_RANDTRIM || rw == RW_RANDTRIMWRITE;
}

bool rw_is_mixed(int rw)
{
	return rw == RW_RW || rw == RW_RANDRW;
}

uint64_t job_bs_min(const struct job_desc *j)
{
	uint64_t m = UINT64_MAX;

	for (int d = 0; d < IO_NDIR; d++)
		if (rw_does(j->rw, d) && j->bs[d].min < m)
			m = j->bs[d].min;
	return m;
}

uint64_t job_bs_max(const struct job_desc *j)
{
	uint64_t m = 0;

	/* bssplit= sets min and max from its sizes, so they cover it. */
	for (int d = 0; d < IO_NDIR; d++)
		if (rw_does(j->rw, d) && j->bs[d].max > m)
			m = j->bs[d].max;
	return m;
}

bool job_modifies(const struct job_desc *j)
{
	return rw_does(j->rw, IO_WRITE) || rw_does(j->rw, IO_TRIM);
}

const char *rw_name(int rw)
{
	static const char *const names[] = {
		"read", "write", "randread", "randwrite", "rw", "randrw",
		"trim", "randtrim", "trimwrite", "randtrimwrite",
	};

	return rw >= 0 && rw <= RW_RANDTRIMWRITE ? names[rw] : "?";
}

uint32_t job_ioprio(const struct job_desc *j)
{
	if (!job_setting(j, "prioclass") && !job_setting(j, "prio") && !job_setting(j, "priohint"))
		return 0;
	return (j->prioclass ? j->prioclass : 2) << 13 | j->priohint << 3 | j->prio;
}

bool job_ignores_error(const struct job_desc *j, int type, int err)
{
	static const struct ignore_list fio_default = { { EIO, EILSEQ }, 2 };
	const struct ignore_list *l = j->ignore_error[type].n ? &j->ignore_error[type] :
				      &fio_default;

	for (unsigned i = 0; i < l->n; i++)
		if (l->err[i] == err)
			return true;
	return false;
}

const char *job_setting(const struct job_desc *j, const char *name)
{
	const char *v = NULL;

	for (unsigned i = 0; i < j->nsettings; i++)
		if (!strcmp(j->settings[i].name, name))
			v = j->settings[i].value;
	return v;
}

void job_where(const struct job_desc *j, const char *name, const char **file, int *line)
{
	*file = j->file;
	*line = j->line;
	for (unsigned i = 0; i < j->nsettings; i++) {
		if (!strcmp(j->settings[i].name, name)) {
			*file = j->settings[i].file;
			*line = j->settings[i].line;
		}
	}
}

static int fail_at(const struct job_desc *j, const char *opt, struct diag *d, bool name_opt,
		   const char *fmt, va_list ap)
{
	const char *file;
	char why[512];
	int line;

	vsnprintf(why, sizeof(why), fmt, ap);
	job_where(j, opt, &file, &line);
	if (name_opt)
		return diag_at(d, -EINVAL, file, line, "job '%s': option '%s': %s", j->name, opt,
			       why);
	return diag_at(d, -EINVAL, file, line, "job '%s': %s", j->name, why);
}

void job_note(const struct job_desc *j, const char *opt, struct diag *d, const char *fmt, ...)
{
	const char *file;
	char why[512];
	va_list ap;
	int line;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	job_where(j, opt, &file, &line);
	if (line > 0)
		diag_note(d, "%s:%d: job '%s': option '%s': %s", file, line, j->name, opt, why);
	else
		diag_note(d, "%s: job '%s': option '%s': %s", file, j->name, opt, why);
}

int job_fail(const struct job_desc *j, const char *opt, struct diag *d, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = fail_at(j, opt, d, false, fmt, ap);
	va_end(ap);
	return ret;
}

int job_fail_opt(const struct job_desc *j, const char *opt, struct diag *d, const char *fmt,
		 ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = fail_at(j, opt, d, true, fmt, ap);
	va_end(ap);
	return ret;
}
