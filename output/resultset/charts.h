/*
 * The charts of iojob report, drawn with svg_chart.h: a metric against the row key with a
 * line per column (seed 000/002's MB/s against threads, a line per configuration), latency
 * percentile curves from merged json+ bins, and bandwidth or IOPS over time from logs.
 */
#ifndef OUTPUT_RESULTSET_CHARTS_H
#define OUTPUT_RESULTSET_CHARTS_H

#include <stddef.h>
#include <stdio.h>

struct diag;
struct metric;
struct pivot;
struct rs_sel;

/* A line per column of the pivot; a log2 x axis when the rows are powers of two. */
int chart_pivot(FILE *f, const struct pivot *p, const char *rows, const struct metric *m);

/*
 * A latency percentile curve (50 .. 99.99 on a "nines" axis, latency on a log axis) for
 * each value of key, from the bins of all its units merged. Percentiles that fewer than
 * one sample lies beyond are left out. Returns 0, -ENOMEM or -EIO.
 */
int chart_latency(FILE *f, const struct rs_sel *sel, const char *key);

/* Bandwidth (MiB/s) or IOPS over time, a line per log and direction. Fills d on error. */
int chart_logs(FILE *f, const char *const *paths, size_t n, int iops, struct diag *d);

#endif
