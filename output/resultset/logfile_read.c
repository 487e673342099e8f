/* fio-format bandwidth and IOPS logs read back as rates over time. */
#include "output/resultset/logfile_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/grow.h"
#include "base/units.h"

#define WINDOWS	100	/* per-I/O logs are counted into about this many windows */

enum log_kind logfile_kind(const char *path)
{
	/* fio's names, JOB_KIND.N.log or JOB_KIND_N.log: _clat_hist before _clat, _lat last */
	static const struct {
		const char *name;
		enum log_kind kind;
	} kinds[] = {
		{ "_clat_hist", LOG_HIST }, { "_clat", LOG_CLAT }, { "_slat", LOG_SLAT },
		{ "_lat", LOG_LAT }, { "_bw", LOG_BW }, { "_iops", LOG_IOPS },
	};
	const char *base = strrchr(path, '/');
	char dot[16], under[16];

	base = base ? base + 1 : path;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		snprintf(dot, sizeof(dot), "%s.", kinds[i].name);
		snprintf(under, sizeof(under), "%s_", kinds[i].name);
		if (strstr(base, dot) || strstr(base, under))
			return kinds[i].kind;
	}
	return LOG_OTHER;
}

static int push(struct log_entries *es, const struct log_entry *e)
{
	if (GROW_FOR(es->e, es->cap, es->n) < 0)
		return -ENOMEM;
	es->e[es->n++] = *e;
	return 0;
}

void logfile_note_cut(struct diag *d, const char *path, unsigned lineno, const char *line)
{
	char note[1024];

	snprintf(note, sizeof(note), "%s:%u: last line cut short (no newline), dropped: '%.40s'",
		 path, lineno, line);
	if (d && d->notes && strstr(d->notes, note))
		return;	/* the same log read again, for another series of the chart */
	diag_note(d, "%s", note);
}

int logfile_entries(const char *path, struct log_entries *es, struct diag *d)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned lineno = 0;
	int ret = 0;

	if (!f)
		return diag_set(d, -errno, "'%s': %s", path, strerror(errno));
	while (!ret && fgets(line, sizeof(line), f)) {
		struct log_entry e;

		lineno++;
		if (!strchr(line, '\n') && feof(f))
			logfile_note_cut(d, path, lineno, line);
		else if (sscanf(line, "%" SCNu64 ", %" SCNu64 ", %u, %" SCNu64, &e.ms,
				&e.value, &e.ddir, &e.bs) != 4 || e.ddir >= LOG_NDIR)
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
static int from_averaged(const struct log_entries *es, enum log_kind kind,
			 struct log_points *out)
{
	for (size_t i = 0; i < es->n; i++) {
		const struct log_entry *e = &es->e[i];
		double v = kind == LOG_BW ? (double)e->value / 1024 : (double)e->value;

		if (add_point(&out[e->ddir], (double)e->ms / 1000, v) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* One entry per I/O: I/Os and bytes counted per window, a point at each window's end. */
static int from_per_io(const struct log_entries *es, enum log_kind kind,
		       struct log_points *out)
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
static void drop_unused(const struct log_entries *es, struct log_points *out)
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
	struct log_entries es = { 0 };
	int averaged = 1, ret;

	memset(out, 0, LOG_NDIR * sizeof(*out));
	ret = logfile_entries(path, &es, d);
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

/* log_avg_msec as the entries show it: the smallest step between two of one direction. */
static uint64_t avg_step(const struct log_entries *es)
{
	uint64_t step = 0, last[LOG_NDIR] = { 0 };
	bool seen[LOG_NDIR] = { false };

	for (size_t i = 0; i < es->n; i++) {
		const struct log_entry *e = &es->e[i];

		uint64_t gap = e->ms - last[e->ddir];

		if (seen[e->ddir] && e->ms > last[e->ddir] && (!step || gap < step))
			step = gap;
		seen[e->ddir] = true;
		last[e->ddir] = e->ms;
	}
	return step ? step : 1;
}

/* Averaged entries of several logs: the rates of one window added. */
static int sum_averaged(const struct log_entries *es, enum log_kind kind,
			struct log_points *out)
{
	uint64_t step = avg_step(es), nkeys = 0;
	double *sum;
	bool *any;
	int ret = 0;

	for (size_t i = 0; i < es->n; i++)
		nkeys = (es->e[i].ms + step / 2) / step + 1 > nkeys ?
			(es->e[i].ms + step / 2) / step + 1 : nkeys;
	sum = calloc(nkeys * LOG_NDIR, sizeof(*sum));
	any = calloc(nkeys * LOG_NDIR, sizeof(*any));
	for (size_t i = 0; sum && any && i < es->n; i++) {
		size_t at = es->e[i].ddir * nkeys + (es->e[i].ms + step / 2) / step;

		sum[at] += kind == LOG_BW ? (double)es->e[i].value / 1024 : (double)es->e[i].value;
		any[at] = true;
	}
	for (size_t k = 0; sum && any && !ret && k < nkeys * LOG_NDIR; k++)
		if (any[k])
			ret = add_point(&out[k / nkeys], (double)(k % nkeys * step) / 1000, sum[k]);
	if (!sum || !any)
		ret = -ENOMEM;
	free(sum);
	free(any);
	return ret;
}

int logfile_read_sum(const char *const *paths, size_t n, enum log_kind kind,
		     struct log_points out[LOG_NDIR], struct diag *d)
{
	struct log_entries es = { 0 };
	size_t averaged = 0;
	int ret = 0;

	memset(out, 0, LOG_NDIR * sizeof(*out));
	for (size_t i = 0; !ret && i < n; i++)
		ret = logfile_entries(paths[i], &es, d);
	for (size_t i = 0; !ret && i < es.n; i++)
		averaged += es.e[i].bs == 0;
	if (!ret && averaged && averaged < es.n) {
		free(es.e);
		return 1;	/* rates per window and I/Os have no common time base */
	}
	if (!ret)
		ret = averaged ? sum_averaged(&es, kind, out) : from_per_io(&es, kind, out);
	if (ret == -ENOMEM)
		diag_set(d, ret, "'%s': out of memory", paths[0]);
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
