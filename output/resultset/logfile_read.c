/* fio-format bandwidth and IOPS logs read back as rates over time. */
#include "output/resultset/logfile_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/grow.h"

#define WINDOWS	100	/* per-I/O logs are counted into about this many windows */

struct entry {
	uint64_t ms, value, bs;
	unsigned ddir;
};

struct entries {
	struct entry *e;
	size_t n, cap;
};

enum log_kind logfile_kind(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (strstr(base, "_bw.") || strstr(base, "_bw_"))
		return LOG_BW;
	if (strstr(base, "_iops.") || strstr(base, "_iops_"))
		return LOG_IOPS;
	return LOG_OTHER;
}

static int push(struct entries *es, const struct entry *e)
{
	if (GROW_FOR(es->e, es->cap, es->n) < 0)
		return -ENOMEM;
	es->e[es->n++] = *e;
	return 0;
}

static int read_entries(const char *path, struct entries *es, struct diag *d)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned lineno = 0;
	int ret = 0;

	if (!f)
		return diag_set(d, -errno, "'%s': %s", path, strerror(errno));
	while (!ret && fgets(line, sizeof(line), f)) {
		struct entry e;

		lineno++;
		if (sscanf(line, "%" SCNu64 ", %" SCNu64 ", %u, %" SCNu64, &e.ms, &e.value,
			   &e.ddir, &e.bs) != 4 || e.ddir >= LOG_NDIR)
			ret = diag_at(d, -EINVAL, path, (int)lineno,
				      "not a fio log line (time, value, direction, size, ...)");
		else if (push(es, &e) < 0)
			ret = diag_set(d, -ENOMEM, "'%s': out of memory", path);
	}
	fclose(f);
	return ret;
}

static int add_point(struct log_points *p, double t_s, double v)
{
	size_t tcap = p->cap, vcap = p->cap;

	/* the two arrays grow to the same capacity: p->cap counts once both moved */
	if (GROW_FOR(p->t_s, tcap, p->n) < 0 || GROW_FOR(p->v, vcap, p->n) < 0)
		return -ENOMEM;
	p->cap = tcap;
	p->t_s[p->n] = t_s;
	p->v[p->n++] = v;
	return 0;
}

/* Averaged entries are rates already: KiB/s for bandwidth. */
static int from_averaged(const struct entries *es, enum log_kind kind, struct log_points *out)
{
	for (size_t i = 0; i < es->n; i++) {
		const struct entry *e = &es->e[i];
		double v = kind == LOG_BW ? (double)e->value / 1024 : (double)e->value;

		if (add_point(&out[e->ddir], (double)e->ms / 1000, v) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* One entry per I/O: I/Os and bytes counted per window, a point at each window's end. */
static int from_per_io(const struct entries *es, enum log_kind kind, struct log_points *out)
{
	uint64_t span = 0, win;
	size_t nwin;
	double *sum;
	int ret = 0;

	for (size_t i = 0; i < es->n; i++)
		span = es->e[i].ms > span ? es->e[i].ms : span;
	win = span / WINDOWS + 1;
	nwin = (size_t)(span / win) + 1;
	sum = calloc(nwin * LOG_NDIR, sizeof(*sum));
	if (!sum)
		return -ENOMEM;
	for (size_t i = 0; i < es->n; i++)
		sum[es->e[i].ddir * nwin + es->e[i].ms / win] +=
			kind == LOG_BW ? (double)es->e[i].bs : 1;
	for (unsigned d = 0; !ret && d < LOG_NDIR; d++) {
		for (size_t w = 0; !ret && w < nwin; w++) {
			double rate = sum[d * nwin + w] * 1000 / (double)win;

			if (kind == LOG_BW)
				rate /= 1 << 20;
			ret = add_point(&out[d], (double)((w + 1) * win) / 1000, rate);
		}
	}
	free(sum);
	return ret;
}

/* Directions without a single entry have no series. */
static void drop_unused(const struct entries *es, struct log_points *out)
{
	for (unsigned d = 0; d < LOG_NDIR; d++) {
		size_t i;

		for (i = 0; i < es->n && es->e[i].ddir != d; i++)
			;
		if (i == es->n) {
			free(out[d].t_s);
			free(out[d].v);
			out[d] = (struct log_points){ 0 };
		}
	}
}

int logfile_read(const char *path, enum log_kind kind, struct log_points out[LOG_NDIR],
		 struct diag *d)
{
	struct entries es = { 0 };
	int averaged = 1, ret;

	memset(out, 0, LOG_NDIR * sizeof(*out));
	ret = read_entries(path, &es, d);
	for (size_t i = 0; !ret && i < es.n; i++)
		averaged &= es.e[i].bs == 0;
	if (!ret)
		ret = averaged ? from_averaged(&es, kind, out) : from_per_io(&es, kind, out);
	if (ret == -ENOMEM)
		diag_set(d, ret, "'%s': out of memory", path);
	if (!ret)
		drop_unused(&es, out);
	else
		log_points_free(out);
	free(es.e);
	return ret;
}

void log_points_free(struct log_points p[LOG_NDIR])
{
	for (unsigned d = 0; d < LOG_NDIR; d++) {
		free(p[d].t_s);
		free(p[d].v);
		p[d] = (struct log_points){ 0 };
	}
}
