/* Latency and histogram logs as samples, and samples as histograms per time window. */
#include "output/resultset/latlog_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/grow.h"

#define WINDOWS	50
/* fio's buckets, a histogram log's columns: hist.h's first 29 powers of two */
#define FIO_BINS	(29 * (int)HIST_VAL)

static int push(struct lat_samples *ls, uint64_t ms, uint64_t n, unsigned idx, unsigned ddir)
{
	if (GROW_FOR(ls->s, ls->cap, ls->n) < 0)
		return -ENOMEM;
	ls->s[ls->n++] = (struct lat_sample){ ms, n, idx, (uint8_t)ddir };
	ls->max_ms = ms > ls->max_ms ? ms : ls->max_ms;
	ls->dirs |= 1u << ddir;
	return 0;
}

/* Each line one I/O (or, averaged, one window's mean, counted as one sample). */
static int add_lat_log(struct lat_samples *ls, const char *path, size_t *ntimes,
		       struct diag *d)
{
	struct log_entries es = { 0 };
	int ret = logfile_entries(path, &es, d);

	for (size_t i = 0; !ret && i < es.n; i++) {
		*ntimes += !i || es.e[i].ms != es.e[i - 1].ms;
		ret = push(ls, es.e[i].ms, 1, hist_index(es.e[i].value), es.e[i].ddir);
	}
	if (ret == -ENOMEM)
		diag_set(d, ret, "'%s': out of memory", path);
	free(es.e);
	return ret;
}

/* The columns of a histogram log's line after "time, ddir, bs". Returns how many, or -1. */
static int hist_line(struct lat_samples *ls, char *line, size_t *ntimes, uint64_t *last_ms)
{
	uint64_t ms, bs, c;
	unsigned ddir, shift;
	char *p = line, *end;
	int ncols = 0, ret = 0;
	uint64_t counts[FIO_BINS];

	if (sscanf(p, "%" SCNu64 ", %u, %" SCNu64, &ms, &ddir, &bs) != 3 || ddir >= LOG_NDIR)
		return -1;
	for (int skip = 0; skip < 3 && (p = strchr(p, ',')); skip++)
		p++;
	while (p && ncols < FIO_BINS) {
		c = strtoull(p, &end, 10);
		if (end == p)
			break;
		counts[ncols++] = c;
		p = strchr(end, ',');
		p = p ? p + 1 : NULL;
	}
	/* 1856 columns, or 1856 >> coarseness */
	for (shift = 0; shift <= 6 && (FIO_BINS >> shift) != ncols; shift++)
		;
	if (shift > 6)
		return -1;
	*ntimes += ms != *last_ms;
	*last_ms = ms;
	for (int i = 0; !ret && i < ncols; i++)
		if (counts[i])
			ret = push(ls, ms, counts[i], ((unsigned)i << shift) + ((1u << shift) >> 1),
				   ddir);
	return ret < 0 ? -2 : ncols;
}

static int add_hist_log(struct lat_samples *ls, const char *path, size_t *ntimes,
			struct diag *d)
{
	FILE *f = fopen(path, "r");
	uint64_t last_ms = UINT64_MAX;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, ret = 0;

	if (!f)
		return diag_set(d, -errno, "'%s': %s", path, strerror(errno));
	while (!ret && (len = getline(&line, &cap, f)) > 0) {
		int n;

		lineno++;
		if (line[len - 1] != '\n') {
			logfile_note_cut(d, path, (unsigned)lineno, line);
			break;
		}
		n = hist_line(ls, line, ntimes, &last_ms);
		if (n == -2)
			ret = diag_set(d, -ENOMEM, "'%s': out of memory", path);
		else if (n < 0)
			ret = diag_at(d, -EINVAL, path, lineno, "not a fio histogram log line "
				      "(time, direction, size, then %u counts or %u >> N)",
				      FIO_BINS, FIO_BINS);
	}
	free(line);
	fclose(f);
	return ret;
}

int latlog_add(struct lat_samples *ls, const char *path, struct diag *d)
{
	size_t ntimes = 0;
	int ret;

	if (logfile_kind(path) == LOG_HIST)
		ret = add_hist_log(ls, path, &ntimes, d);
	else
		ret = add_lat_log(ls, path, &ntimes, d);
	ls->ntimes = ntimes > ls->ntimes ? ntimes : ls->ntimes;
	return ret;
}

void latlog_free(struct lat_samples *ls)
{
	free(ls->s);
	memset(ls, 0, sizeof(*ls));
}

int latlog_windows(const struct lat_samples *ls, unsigned d, struct lat_windows *out)
{
	size_t nwin = ls->ntimes < WINDOWS ? ls->ntimes : WINDOWS;
	uint64_t win;

	memset(out, 0, sizeof(*out));
	nwin = nwin ? nwin : 1;
	/* a window per time at most: a histogram log's records each have their own */
	win = ls->max_ms / nwin + 1;
	nwin = (size_t)(ls->max_ms / win) + 1;
	out->lo_s = malloc(nwin * sizeof(*out->lo_s));
	out->hi_s = malloc(nwin * sizeof(*out->hi_s));
	out->h = calloc(nwin, sizeof(*out->h));
	if (!out->lo_s || !out->hi_s || !out->h) {
		lat_windows_free(out);
		return -ENOMEM;
	}
	out->n = nwin;
	for (size_t w = 0; w < nwin; w++) {
		out->lo_s[w] = (double)(w * win) / 1000;
		out->hi_s[w] = (double)((w + 1) * win) / 1000;
	}
	for (size_t i = 0; i < ls->n; i++)
		if (ls->s[i].ddir == d)
			out->h[ls->s[i].ms / win].count[ls->s[i].idx] += ls->s[i].n;
	return 0;
}

void lat_windows_free(struct lat_windows *w)
{
	free(w->lo_s);
	free(w->hi_s);
	free(w->h);
	memset(w, 0, sizeof(*w));
}
