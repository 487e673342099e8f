/*
 * Line charts as standalone SVG, written without any plotting library: axes with ticks and
 * grid lines, a title, axis labels, one polyline and its point markers per series, and a
 * legend. Points whose y is NAN (a missing cell) are left out, never drawn as 0. The same
 * text is valid inline in HTML.
 * For tests and scripts, each series' polyline has class "series" and data-series="NAME",
 * each marker class "point"; data-x and data-y on markers hold the values plotted.
 */
#ifndef OUTPUT_RESULTSET_SVG_CHART_H
#define OUTPUT_RESULTSET_SVG_CHART_H

#include <stddef.h>
#include <stdio.h>

enum svg_scale {
	SVG_LINEAR,	/* y starts at 0 (or below, for negative data) */
	SVG_LOG2,	/* ticks at powers of two: thread counts, block sizes */
	SVG_LOG10,	/* ticks at powers of ten: latencies */
	SVG_NINES,	/* percentiles: 50, 90, 99, 99.9 evenly spaced */
	SVG_CATEGORY,	/* x only: the points are 0, 1, 2 ... named by x_names */
};

struct svg_series {
	const char *name;
	const double *x, *y;
	size_t n;
};

struct svg_chart {
	const char *title, *x_label, *y_label;
	enum svg_scale x_scale, y_scale;
	const char *const *x_names;	/* SVG_CATEGORY: a name per x = 0 .. nx_names - 1 */
	size_t nx_names;
	const struct svg_series *series;
	size_t nseries;
};

/* Whether every value is a power of two (1, 2, 4 ...), so that a log2 axis fits them. */
int svg_powers_of_two(const double *v, size_t n);

/* Write the chart as one <svg> element. Returns 0, or -EIO when writing failed. */
int svg_chart_write(FILE *f, const struct svg_chart *c);

#endif
